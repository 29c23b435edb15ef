"""``extract_schema``: each tier, each value type, the nulls and why, coverage with an
unreadable page, schemas refused with their path, and real forms from the corpus."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import CORPUS_FILES, require_corpus
from counting import Calls
from formbuilder import FormBuilder
from pdfbuilder import PdfBuilder
from statements import Canvas, pdf

from pdfthin.errors import PdfthinError
from pdfthin.model.extraction import labels, values
from pdfthin.model.extraction.tiers import REPEATED_FACTOR, confidence
from pdfthin.operations import Context
from pdfthin.operations.extract import extract_schema

ITEMS = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "description": {"type": "string"},
            "quantity": {"type": "integer", "x-labels": ["Qty"]},
            "unit_price": {"type": "number"},
            "amount": {"type": "number"},
        },
    },
}


def _invoice(*, second_total: bool = False) -> bytes:
    c = Canvas()
    c.text("INVOICE", 72, 60, 18, True)
    c.text("Invoice number: INV-2024-007", 72, 100, 10)
    c.text("Date: 03/02/2024", 350, 100, 10)
    c.text("Customer", 72, 130, 10)  # the value on the line below
    c.text("Acme Corp", 72, 143, 10)
    c.text("Paid", 350, 130, 10)  # the value right of it, on its baseline
    c.text("yes", 420, 130, 10)
    rows = [
        ("Description", "Qty", "Unit price", "Amount"),
        ("Widget", "2", "10.00", "20.00"),
        ("Gadget, large", "1", "1.234,50", "1.234,50"),
        ("Service fee", "3", "(5.00)", "(15.00)"),
    ]
    for i, (a, b, cc, d) in enumerate(rows):
        y = 200 + i * 14
        c.text(a, 72, y, 10)
        c.right(b, 300, y, 10)
        c.right(cc, 400, y, 10)
        c.right(d, 500, y, 10)
    c.text("Total due: $1,239.50", 350, 294, 10)
    c.text("Due 2 March 2024", 72, 330, 10)  # "Label value", no colon
    if second_total:
        c.text("Total due: $999.00", 350, 400, 10)
    return pdf(c)


SCHEMA = {
    "type": "object",
    "properties": {
        "invoice_number": {"type": "string"},
        "date": {"type": "string", "format": "date", "x-date-order": "DMY"},
        "due": {"type": "string", "format": "date"},
        "customer": {"type": "string"},
        "paid": {"type": "boolean"},
        "total": {"type": "number", "title": "Total due"},
        "po_number": {"type": "string", "title": "PO number"},
        "items": ITEMS,
    },
}


def _extract(data: bytes, schema: Any = SCHEMA, **kwargs: Any) -> dict[str, Any]:
    return dict(extract_schema(data, schema=schema, context=Context(), **kwargs))


def test_an_invoice_is_filled_by_text_pairs_and_its_line_items() -> None:
    answer = _extract(_invoice())
    data, fields = answer["data"], answer["fields"]
    assert data["invoice_number"] == "INV-2024-007"
    assert fields["invoice_number"]["tier"] == "text_pair"
    assert fields["invoice_number"]["page"] == 1
    assert data["date"] == "2024-02-03"  # day first, as the schema says
    assert fields["date"]["raw"] == "03/02/2024"
    assert data["due"] == "2024-03-02"
    assert data["customer"] == "Acme Corp"  # below its label
    assert fields["customer"]["bbox"]["y0"] > 130 - 10  # the value's line, not the label's
    assert data["paid"] is True  # right of its label
    assert data["total"] == 1239.5
    assert data["items"] == [
        {"description": "Widget", "quantity": 2, "unit_price": 10.0, "amount": 20.0},
        {"description": "Gadget, large", "quantity": 1, "unit_price": 1234.5, "amount": 1234.5},
        {"description": "Service fee", "quantity": 3, "unit_price": -5.0, "amount": -15.0},
    ]
    assert fields["items"]["tier"] == "line_item_table"
    assert fields["items"]["columns"]["quantity"] == "Qty"
    # Not on the page: null, and listed with its reason.
    assert data["po_number"] is None
    assert {"path": "po_number", "reason": "not_found"}.items() <= answer["missing"][0].items()
    assert answer["coverage"]["complete"] is True
    for entry in fields.values():
        assert 0 < entry["confidence"] <= 1


def test_a_label_found_twice_answers_the_first_and_says_so() -> None:
    answer = _extract(_invoice(second_total=True))
    total = answer["fields"]["total"]
    assert total["value"] == 1239.5 and total["also_found"] == [[1, "999.0"]]
    assert total["confidence"] == confidence("text_pair", "exact", "after_colon", True)
    assert total["confidence"] < confidence("text_pair", "exact", "after_colon", False)
    assert REPEATED_FACTOR < 1
    assert any(note.startswith("total:") for note in answer["notes"])


def test_an_ambiguous_date_is_null_without_an_order() -> None:
    schema = {"type": "object", "properties": {"date": {"type": "string", "format": "date"}}}
    answer = _extract(_invoice(), schema)
    assert answer["data"]["date"] is None
    assert answer["missing"][0]["reason"] == "ambiguous_date"


def test_a_subset_match_two_labels_give_is_ambiguous() -> None:
    c = Canvas()
    c.text("Total tax: 10.00", 72, 100, 10)
    c.text("Total net: 90.00", 72, 120, 10)
    schema = {"type": "object", "properties": {"total": {"type": "number"}}}
    answer = _extract(pdf(c), schema)
    assert answer["data"]["total"] is None
    assert answer["missing"][0]["reason"] == "ambiguous"
    c.text("Total: 100.00", 72, 140, 10)  # the exact label wins
    answer = _extract(pdf(c), schema)
    assert answer["data"]["total"] == 100.0
    assert answer["fields"]["total"]["match"] == "exact"


def _form() -> bytes:
    f = FormBuilder()
    page = f.page([(72, 700, "Full name"), (72, 660, "Amount"), (92, 620, "Member")])
    f.field(page, [160, 695, 360, 715], FT="/Tx", T="applicant", TU="Full name", V="Zoë Ray")
    f.field(page, [160, 655, 360, 675], FT="/Tx", T="amount", V="1.234,50")
    f.field(
        page,
        [72, 618, 84, 630],
        FT="/Btn",
        T="member",
        V="/Yes",
        AS="/Yes",
        AP=f.check_states("Yes"),
    )
    f.field(page, [160, 580, 360, 600], FT="/Tx", T="notes")
    return f.build()


def test_form_fields_answer_first_by_name_or_label() -> None:
    schema = {
        "type": "object",
        "properties": {
            "full_name": {"type": "string"},
            "amount": {"type": "number"},
            "member": {"type": "boolean"},
            "notes": {"type": "string"},
        },
    }
    answer = _extract(_form(), schema)
    data, fields = answer["data"], answer["fields"]
    assert data["full_name"] == "Zoë Ray"  # by its label (the tooltip)
    assert fields["full_name"]["label"] == "applicant"
    assert data["amount"] == 1234.5  # by its name
    assert data["member"] is True
    assert all(fields[k]["tier"] == "form_field" for k in ("full_name", "amount", "member"))
    assert fields["amount"]["bbox"] is not None
    assert data["notes"] is None
    assert [m["reason"] for m in answer["missing"]] == ["empty_form_field"]


def test_an_unreadable_page_makes_coverage_incomplete() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(8, 8)
    b.add_page(b"BT /F1 12 Tf 72 700 Td (Invoice number: 42) Tj ET", {"Font": {"F1": font}})
    b.add_page(b"q 612 0 0 792 0 0 cm /Im1 Do Q", {"XObject": {"Im1": image}})
    schema = {
        "type": "object",
        "properties": {"invoice_number": {"type": "string"}, "total": {"type": "number"}},
    }
    answer = _extract(b.build(), schema)
    assert answer["data"] == {"invoice_number": "42", "total": None}
    assert answer["coverage"]["complete"] is False
    assert answer["coverage"]["pages_needing_ocr"] == "2"
    assert answer["missing"][0]["reason"] == "not_found_coverage_incomplete"
    assert answer["unreadable"]["pages"] == "2"


@pytest.mark.parametrize(
    ("schema", "path"),
    [
        ([], "/"),
        ({"type": "array", "items": {"type": "string"}}, "/type"),
        ({"type": "object", "properties": {}}, "/properties"),
        ({"type": "object", "properties": {"a": {"type": "tuple"}}}, "/properties/a/type"),
        ({"type": "object", "properties": {"a": {"$ref": "#/x"}}}, "/properties/a/$ref"),
        (
            {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}}}},
            "/properties/a/items",
        ),
        (
            {"type": "object", "properties": {"a": {"type": "number", "format": "date"}}},
            "/properties/a/format",
        ),
        (
            {"type": "object", "properties": {"a": {"type": "string", "x-labels": "A"}}},
            "/properties/a/x-labels",
        ),
        (
            {"type": "object", "properties": {f"f{i}": {"type": "string"} for i in range(201)}},
            "/properties/f200",
        ),
    ],
)
def test_a_schema_outside_the_subset_is_refused_with_its_path(schema: Any, path: str) -> None:
    with pytest.raises(PdfthinError) as info:
        _extract(_invoice(), schema)
    assert info.value.code == "invalid_argument"
    assert info.value.details["argument"] == "schema"
    if path != "/":
        assert info.value.details["path"] == path


def test_a_small_budget_leaves_fields_out_and_says_which() -> None:
    answer = _extract(_invoice(), max_chars=1_500)
    assert len(str(answer)) < 3_000
    assert answer["omitted"]["paths"]
    for path in answer["omitted"]["paths"]:
        assert path not in answer["fields"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1,234.50", 1234.5),
        ("1.234,50", 1234.5),
        ("€ 1.234,50", 1234.5),
        ("$99", 99.0),
        ("(15.00)", -15.0),
        ("12,5", 12.5),
        ("0.125", 0.125),
        ("1 234,50", 1234.5),
        ("1'234.50", 1234.5),
        ("1,234,567", 1234567.0),
    ],
)
def test_number_rules(text: str, value: float) -> None:
    parsed = values.number(text)
    assert isinstance(parsed, values.Parsed) and parsed.value == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("2024-03-02", "2024-03-02"),
        ("02.03.2024", "2024-03-02"),
        ("13/02/2024", "2024-02-13"),
        ("02/13/2024", "2024-02-13"),
        ("2nd March 2024", "2024-03-02"),
        ("Mar. 2, 2024", "2024-03-02"),
        ("31/12/99", "1999-12-31"),
    ],
)
def test_date_rules(text: str, value: str) -> None:
    parsed = values.date(text)
    assert isinstance(parsed, values.Parsed) and parsed.value == value
    assert isinstance(values.date("30/02/2024"), values.Unparsed)


def test_corpus_libreoffice_form_by_field_names() -> None:
    require_corpus()
    (f,) = [f for f in CORPUS_FILES if f.relpath.endswith("libreoffice-form.pdf")]
    schema = {
        "type": "object",
        "properties": {
            "first_name": {"type": "string"},
            "second_first_name": {"type": "string", "x-labels": ["First Name_2"]},
            "last_name": {"type": "string"},
            "agree": {"type": "boolean", "x-labels": ["gdpr"]},
        },
    }
    answer = _extract(f.path.read_bytes(), schema)
    assert answer["data"]["first_name"] == "Alice"
    assert answer["data"]["second_first_name"] == "Bob"
    assert answer["data"]["agree"] is False
    assert answer["data"]["last_name"] is None  # the field is there, empty
    assert {m["path"]: m["reason"] for m in answer["missing"]} == {"last_name": "empty_form_field"}
    assert answer["fields"]["first_name"]["tier"] == "form_field"


def test_a_schema_outside_the_subset_is_refused_before_the_document_is_opened() -> None:
    """As an argument check: every surface refuses it with the rest of the arguments, and the
    command line exits 2 (usage) without opening the file."""
    import json
    import subprocess
    import sys

    from pdfthin.operations.params import SCHEMA

    refused = {"type": "object", "properties": {"a": {"$ref": "#/x"}}}
    with pytest.raises(PdfthinError) as info:
        SCHEMA.check(refused)
    assert info.value.details["path"] == "/properties/a/$ref"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pdfthin",
            "extract",
            "/no/such.pdf",
            "--schema",
            json.dumps(refused),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "/properties/a/$ref" in done.stderr and "/no/such.pdf" not in done.stderr


def _invoice_with_totals() -> bytes:
    """Line items, then summary rows inside the same table: a label in the first column, the
    quantity and price columns empty, the amount in the last."""
    c = Canvas()
    rows = [
        ("Description", "Qty", "Unit price", "Amount"),
        ("Widget", "2", "10.00", "20.00"),
        ("Gadget", "1", "5.00", "5.00"),
        ("Cable", "4", "2.50", "10.00"),
        ("Subtotal", "", "", "35.00"),
        ("Tax", "", "", "7.00"),
        ("Balance due", "", "", "42.00"),
    ]
    for i, (a, b, cc, d) in enumerate(rows):
        y = 200 + i * 14
        c.text(a, 72, y, 10)
        if b:
            c.right(b, 300, y, 10)
        if cc:
            c.right(cc, 400, y, 10)
        c.right(d, 500, y, 10)
    return pdf(c)


def test_summary_rows_of_a_line_item_table_are_not_items_but_answer_fields() -> None:
    schema = {
        "type": "object",
        "properties": {
            "items": ITEMS,
            "subtotal": {"type": "number"},
            "tax": {"type": "number"},
            "balance": {"type": "number", "title": "Balance due"},
        },
    }
    answer = _extract(_invoice_with_totals(), schema)
    data = answer["data"]
    assert [item["description"] for item in data["items"]] == ["Widget", "Gadget", "Cable"]
    assert (data["subtotal"], data["tax"], data["balance"]) == (35.0, 7.0, 42.0)
    # An item without a quantity but no summary word stays an item.
    c = Canvas()
    for i, (a, b, d) in enumerate([("Description", "Qty", "Amount"), ("Widget", "2", "20.00")]):
        c.text(a, 72, 200 + i * 14, 10)
        c.right(b, 300, 200 + i * 14, 10)
        c.right(d, 500, 200 + i * 14, 10)
    c.text("Setup", 72, 228, 10)
    c.right("9.00", 500, 228, 10)
    items = _extract(pdf(c), {"type": "object", "properties": {"items": ITEMS}})["data"]["items"]
    assert [item["description"] for item in items] == ["Widget", "Setup"]


def test_the_command_line_prints_the_fields_as_text_and_json(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from pdfthin.adapters import cli

    path = tmp_path / "invoice.pdf"
    path.write_bytes(_invoice())
    schema = json.dumps(SCHEMA)
    assert cli.main(["extract", str(path), "--schema", schema]) == 0
    text = capsys.readouterr().out
    assert 'invoice_number: "INV-2024-007"  (page 1, tier text_pair, confidence ' in text
    assert "items: 3 item(s)  (pages 1, tier line_item_table" in text
    assert '  [1] {"description": "Widget", "quantity": 2' in text
    assert "po_number: null  (not_found: " in text
    assert not text.lstrip().startswith("{")  # not the JSON answer
    assert cli.main(["extract", str(path), "--schema", schema, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["data"]["invoice_number"] == "INV-2024-007"


@pytest.mark.parametrize("font", ["Helvetica", "Times-Roman"])
def test_a_value_on_its_label_line_points_at_its_own_words(font: str) -> None:
    """Label and value drawn as two pieces of one line: the value's box holds the value's
    glyphs and none of the label's (the line's box held both)."""
    from pdfthin.engine.fonts._fontdata import CORE_METRICS

    chars, advances, default, _, _ = CORE_METRICS[font]
    widths = dict(zip(chars, advances, strict=False))
    size, x, baseline = 10.0, 72.0, 700.0

    def width(text: str) -> float:
        return sum(widths.get(ch, default) for ch in text) * size / 1000

    label, value = "Invoice number: ", "INV-2024-007"
    b = PdfBuilder()
    f = b.font_standard(font, encoding="/WinAnsiEncoding")
    content = (
        f"BT /F1 {size:g} Tf {x} {baseline} Td ({label}) Tj ET "
        f"BT /F1 {size:g} Tf {x + width(label)} {baseline} Td ({value}) Tj ET"
    )
    b.add_page(content.encode(), {"Font": {"F1": f}})
    schema = {"type": "object", "properties": {"invoice_number": {"type": "string"}}}
    field = _extract(b.build(), schema)["fields"]["invoice_number"]
    assert field["value"] == value
    box = field["bbox"]
    label_end = x + width(label.rstrip(" "))  # the colon's right edge
    value_start, value_end = x + width(label), x + width(label + value)
    assert box["x0"] <= value_start and box["x1"] >= value_end  # the value's glyphs
    assert box["x0"] > label_end  # none of the label's


def test_each_line_is_folded_once_whatever_the_number_of_fields(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every field compares its labels with every line of the pages: the lines were folded
    # again for each field.
    lines, fields = 60, 50
    canvas = Canvas()
    for k in range(lines):
        canvas.text(f"Field {k}: value number {k}", 72, 40 + k * 12, size=8)
    schema = {
        "type": "object",
        "properties": {f"field_{i}": {"type": "string"} for i in range(fields)},
    }
    labels._kept.cache_clear()
    folded = Calls(monkeypatch, labels.unicodedata, "normalize")
    found = _extract(pdf(canvas), schema)
    assert found["data"]["field_7"] == "value number 7"
    # each field folding every line again: fields * lines
    assert folded.count < 20 * lines, folded.count
