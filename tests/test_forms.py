"""Form fields (issue 23): values read from the AcroForm and put on the page where their
widgets stand, so the page text and search hold what a person typed."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from formbuilder import FormBuilder

from pdfthin.engine import EngineDocument
from pdfthin.engine.forms import CHECKED, UNCHECKED
from pdfthin.errors import PdfthinError
from pdfthin.operations import Context, find_in_document, get_form_fields, read_pages
from pdfthin.operations.response import dumps

#: A hostile form is answered within this time (its walks are bounded).
HOSTILE_SECONDS = 10.0


def test_libreoffice_form_values_are_found(corpus: Path, implementation: str) -> None:
    """The regression of issue 23: the typed values were missing and `find` called them
    absent with complete coverage."""
    data = (corpus / "sample-files" / "libreoffice-form.pdf").read_bytes()
    ctx = Context()
    for value in ("Alice", "Bob"):
        result = find_in_document(data, value, context=ctx)
        assert [m["page"] for m in result["matches"]] == [1], value


def test_libreoffice_form_fields_and_page_text(corpus: Path, implementation: str) -> None:
    data = (corpus / "sample-files" / "libreoffice-form.pdf").read_bytes()
    doc = EngineDocument(data)
    fields = {f.name: f for f in doc.form_fields()}
    assert fields["First Name"].kind == "text" and fields["First Name"].value == "Alice"
    assert fields["First Name_2"].value == "Bob"
    assert fields["gdpr"].kind == "checkbox" and fields["gdpr"].value is False
    assert fields["female"].kind == "radio" and len(fields["female"].widgets) == 2
    assert fields["Nationality"].kind == "choice"
    assert "German" in fields["Nationality"].options
    page = doc.page(1)
    marked = {r.form_field for r in page.runs if r.form_field}
    assert {"First Name", "First Name_2", "gdpr"} <= marked
    markdown = read_pages(data, pages="1", context=Context())["pages"][0]["markdown"]
    # The value is read on its label's line, in reading order.
    assert "First Name Alice" in markdown
    assert f"{UNCHECKED} Agree to privacy policy" in markdown
    assert CHECKED not in markdown


# --- generated fixtures: every kind of field -----------------------------------------------------

FF_READ_ONLY, FF_REQUIRED, FF_MULTILINE = 1, 2, 1 << 12
FF_RADIO, FF_COMBO, FF_MULTISELECT = 1 << 15, 1 << 17, 1 << 21


def every_kind() -> bytes:
    """Two pages: each kind of field with its label placed as forms place them."""
    f = FormBuilder()
    one = f.page(
        [
            (72, 700, "Name:"),
            (72, 662, "Notes"),
            (92, 572, "I agree"),
            (92, 542, "Newsletter"),
            (72, 505, "Colour"),
            (72, 452, "Amount:"),
        ]
    )
    two = f.page(rotate=90)
    f.field(one, [130, 695, 300, 715], FT="/Tx", T="name", V="Alice")
    f.field(
        one,
        [72, 600, 300, 655],
        FT="/Tx",
        T="notes",
        Ff=FF_MULTILINE,
        V="line one\nline two",
    )
    f.field(
        one, [72, 570, 84, 582], FT="/Btn", T="agree", V="/Yes", AS="/Yes", AP=f.check_states("Yes")
    )
    f.field(
        one, [72, 540, 84, 552], FT="/Btn", T="news", V="/Off", AS="/Off", AP=f.check_states("Yes")
    )
    colour = f.field(None, None, FT="/Btn", T="colour", Ff=FF_RADIO, V="/blue")
    red = f.widget(one, [72, 480, 84, 492], Parent=colour, AS="/Off", AP=f.check_states("red"))
    blue = f.widget(one, [150, 480, 162, 492], Parent=colour, AS="/blue", AP=f.check_states("blue"))
    f.pdf.get(colour)["Kids"] = [red, blue]
    f.field(
        one,
        [140, 447, 240, 467],
        FT="/Tx",
        T="amount",
        V="100",
        Ff=FF_READ_ONLY | FF_REQUIRED,
        AP={"N": f.appearance("999", 100, 20)},
    )
    f.field(
        one,
        [300, 447, 450, 467],
        FT="/Ch",
        T="country",
        Ff=FF_COMBO,
        TU="Country of residence",
        Opt=[["de", "Germany"], ["fr", "France"]],
        V="fr",
    )
    f.field(
        one,
        [300, 380, 450, 440],
        FT="/Ch",
        T="langs",
        Ff=FF_MULTISELECT,
        Opt=["English", "German", "French"],
        V=["English", "French"],
    )
    f.field(one, [300, 300, 450, 340], FT="/Sig", T="sig")
    f.field(None, None, FT="/Tx", T="total", V="42")
    person = f.field(None, None, T="person", FT="/Tx")
    first = f.widget(one, [300, 695, 450, 715], Parent=person, T="first", V="Ann")
    f.pdf.get(person)["Kids"] = [first]
    initials = f.field(None, None, FT="/Tx", T="initials", V="AB")
    kids = [
        f.widget(one, [500, 100, 560, 120], Parent=initials),
        f.widget(two, [500, 100, 560, 120], Parent=initials),
    ]
    f.pdf.get(initials)["Kids"] = kids
    f.field(two, [100, 700, 200, 720], FT="/Tx", T="turned", V="sideways")
    return f.build()


def listed(data: bytes, **kwargs: object) -> dict[str, dict[str, object]]:
    answer = get_form_fields(data, context=Context(), **kwargs)  # type: ignore[arg-type]
    return {f["name"]: dict(f) for f in answer["fields"]}


def test_every_kind_of_field(implementation: str) -> None:
    fields = listed(every_kind())
    name = fields["name"]
    assert (name["kind"], name["value"], name["page"]) == ("text", "Alice", 1)
    # /V without an /AP: the value, and nothing said to differ.
    assert name["appearance_differs"] is False and "appearance" not in name
    # PDF y up -> displayed y down on a 792 pt page.
    assert name["bbox"] == {"x0": 130, "y0": 77, "x1": 300, "y1": 97}
    assert fields["notes"]["value"] == "line one\nline two" and fields["notes"]["multiline"]
    assert fields["agree"]["kind"] == "checkbox" and fields["agree"]["value"] is True
    assert fields["news"]["value"] is False
    colour = fields["colour"]
    assert colour["kind"] == "radio" and colour["value"] == "blue"
    assert [w["page"] for w in colour["widgets"]] == [1, 1]  # type: ignore[attr-defined]
    country = fields["country"]
    assert country["kind"] == "choice" and country["value"] == "France"
    assert country["options"] == ["Germany", "France"]
    assert fields["langs"]["value"] == ["English", "French"]
    assert fields["sig"]["kind"] == "signature" and fields["sig"]["value"] is False
    total = fields["total"]
    assert total["value"] == "42" and total["page"] is None and total["bbox"] is None
    assert fields["person.first"]["value"] == "Ann"
    initials = fields["initials"]
    assert [w["page"] for w in initials["widgets"]] == [1, 2]  # type: ignore[attr-defined]
    assert initials["widget_count"] == 2 and initials["page"] == 1
    amount = fields["amount"]
    assert amount["appearance_differs"] is True and amount["appearance"] == "999"
    assert amount["read_only"] is True and amount["required"] is True
    # /Rotate 90: user space (x, y) is displayed at (y, x).
    assert fields["turned"]["page"] == 2
    assert fields["turned"]["bbox"] == {"x0": 700, "y0": 100, "x1": 720, "y1": 200}


def test_labels_tooltip_then_nearby_text(implementation: str) -> None:
    fields = listed(every_kind())
    assert (fields["name"]["label"], fields["name"]["label_source"]) == ("Name:", "nearby_text")
    assert fields["notes"]["label"] == "Notes"  # above the box
    assert fields["agree"]["label"] == "I agree"  # right of a checkbox
    assert fields["news"]["label"] == "Newsletter"
    assert fields["colour"]["label"] == "Colour"
    assert fields["amount"]["label"] == "Amount:"
    # A tooltip is the file's words about the field, and says so.
    country = fields["country"]
    assert (country["label"], country["label_source"]) == ("Country of residence", "tooltip")
    assert fields["sig"]["label"] is None and fields["sig"]["label_source"] is None
    # A label is never the value the engine placed in a neighbouring widget.
    assert fields["person.first"]["label"] != "Alice"


def test_values_appear_in_the_page_markdown(implementation: str) -> None:
    markdown = read_pages(every_kind(), pages="1", context=Context())["pages"][0]["markdown"]
    assert "Alice" in markdown and "Amount: 100" in markdown
    assert f"{CHECKED} I agree" in markdown and f"{UNCHECKED} Newsletter" in markdown
    # A radio group: a box per button, checked at the chosen one.
    assert markdown.count(CHECKED) == 2
    assert "France" in markdown and "English, French" in markdown
    assert "42" not in markdown  # a field with no widget is on no page


def test_fields_in_reading_order_and_by_page(implementation: str) -> None:
    data = every_kind()
    names = list(listed(data))
    assert names.index("name") < names.index("notes") < names.index("agree")
    assert names[-1] == "total"  # no widget: last
    on_two = listed(data, pages="2")
    assert list(on_two) == ["turned"]  # initials stands first on page 1
    assert listed(data, pages="1").keys() == set(names) - {"turned", "total"}


def test_pagination_walks_every_field_once(implementation: str) -> None:
    f = FormBuilder()
    pages = [f.page() for _ in range(3)]
    for i in range(60):
        page = pages[i % 3]
        y = 750 - (i // 3) * 30
        f.field(page, [72, y, 300, y + 20], FT="/Tx", T=f"field{i:02d}", V=f"value {i}")
    data = f.build()
    context = Context()
    whole = get_form_fields(data, context=context)
    assert whole["total_fields"] == 60 and whole["next_cursor"] is None
    seen: list[str] = []
    cursor = None
    calls = 0
    while True:
        answer = get_form_fields(data, max_chars=1_000, cursor=cursor, context=context)
        assert len(dumps(answer)) <= 1_000
        assert answer["total_fields"] == 60
        seen += [f["name"] for f in answer["fields"]]
        calls += 1
        cursor = answer["next_cursor"]
        if cursor is None:
            break
        assert answer["omitted"]["fields"] == 60 - len(seen)
    assert calls > 3
    assert seen == [f["name"] for f in whole["fields"]]
    assert len(set(seen)) == 60


def test_a_cursor_belongs_to_its_selection(implementation: str) -> None:
    data = every_kind()
    context = Context()
    first = get_form_fields(data, max_chars=1_000, context=context)
    assert first["next_cursor"]
    with pytest.raises(PdfthinError) as caught:
        get_form_fields(data, pages="1", cursor=first["next_cursor"], context=context)
    assert caught.value.code == "invalid_cursor"


def test_password_values_are_withheld(implementation: str) -> None:
    f = FormBuilder()
    page = f.page([(72, 700, "PIN:")])
    f.field(page, [130, 695, 300, 715], FT="/Tx", T="pin", V="1234", Ff=1 << 13)
    data = f.build()
    pin = listed(data)["pin"]
    assert pin["value"] is None and pin["password"] is True
    assert "1234" not in read_pages(data, context=Context())["pages"][0]["markdown"]


# --- hostile forms -------------------------------------------------------------------------------


def _bounded(data: bytes) -> dict[str, dict[str, object]]:
    started = time.monotonic()
    fields = listed(data)
    assert time.monotonic() - started < HOSTILE_SECONDS
    return fields


def test_cyclic_kids_and_parent(implementation: str) -> None:
    f = FormBuilder()
    page = f.page()
    a, b = f.pdf.reserve(), f.pdf.reserve()
    f.pdf.set(a, {"T": "a", "FT": "/Tx", "Kids": [b], "Parent": b})
    f.pdf.set(b, {"T": "b", "Kids": [a], "Parent": a})
    me = f.field(page, [72, 700, 200, 720], FT="/Tx", T="me", V="x")
    f.pdf.get(me)["Parent"] = me
    fields = _bounded(f.build(fields=[a, me]))
    assert fields["me"]["value"] == "x"


def test_fields_not_an_array(implementation: str) -> None:
    f = FormBuilder()
    f.page()
    data = f.build(fields=5)
    answer = get_form_fields(data, context=Context())
    assert answer["fields"] == [] and answer["total_fields"] == 0


def test_huge_kids_are_capped(implementation: str) -> None:
    f = FormBuilder()
    page = f.page()
    distinct = [f.widget(page, [72, 700 - 30 * i, 200, 720 - 30 * i]) for i in range(4)]
    field = f.field(None, None, FT="/Tx", T="many", V="v")
    f.pdf.get(field)["Kids"] = distinct + [distinct[0]] * 50_000
    fields = _bounded(f.build())
    # Each widget once, however often the array names it.
    assert fields["many"]["widget_count"] == 4


@pytest.mark.parametrize(
    "entries",
    [
        {"V": {"Not": "text"}},
        {"V": [1, 2, {"x": 3}]},
        {"Ff": "read only"},
        {"Ff": [1]},
        {"FT": "/Ch", "Opt": 5},
        {"FT": "/Ch", "Opt": [{"a": 1}, [1], ["x"], ["e", "shown"]], "V": "e"},
        {"Rect": [1, 2, 3]},
        {"Rect": ["a", "b", "c", "d"]},
        {"Rect": "everywhere"},
        {"T": 7},
        {"TU": ["x"]},
        {"DA": 12},
    ],
    ids=lambda e: "-".join(f"{k}" for k in e),
)
def test_wrong_types_in_field_entries(implementation: str, entries: dict[str, object]) -> None:
    f = FormBuilder()
    page = f.page([(72, 700, "Label")])
    base: dict[str, object] = {"FT": "/Tx", "T": "f", "V": "ok"}
    rect = entries.pop("Rect", [130, 695, 300, 715])
    f.field(page, rect, **{**base, **entries})  # type: ignore[arg-type]
    data = f.build()
    answer = get_form_fields(data, context=Context())
    for field in answer["fields"]:
        assert field["value"] is None or isinstance(field["value"], (str, bool, list))
        assert all(isinstance(o, str) for o in field["options"])
    read_pages(data, context=Context())  # the page reads too
