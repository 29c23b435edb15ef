"""The layout inspection shows the decisions the layout really made: its blocks are the
output's blocks, in the output's order, and the column gutter it draws is the one that kept
the columns apart."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from pdfbuilder import PdfBuilder

from pdfthin.engine.types import PageContent, TextRun
from pdfthin.layout import layout_page
from pdfthin.layout.inspect import trace_page, trace_svg

ROOT = Path(__file__).resolve().parent.parent


def _words(text: str, x: float, y: float, size: float = 10.0) -> list[TextRun]:
    out = []
    for word in text.split():
        width = len(word) * 0.5 * size
        out.append(TextRun(word, x, y - 0.8 * size, x + width, y + 0.2 * size, size, "F"))
        x += width + 0.3 * size
    return out


def _two_column_page() -> PageContent:
    runs = _words("A Title Over Both Columns", 150, 60, size=20)
    for i in range(12):
        runs += _words(f"left line {i} of the first column text", 50, 100 + 12 * i)
        runs += _words(f"right line {i} of the second column", 320, 100 + 12 * i)
    return PageContent(number=1, width=612, height=792, rotation=0, runs=runs)


def test_trace_blocks_are_the_layouts_own_in_its_order() -> None:
    page = _two_column_page()
    trace = trace_page(page)
    blocks = layout_page(page).blocks
    assert [(b.kind, (b.x0, b.y0, b.x1, b.y1)) for b in blocks] == [
        (t.kind, t.box) for t in trace.blocks
    ]
    assert [t.order for t in trace.blocks] == list(range(1, len(blocks) + 1))
    # Title, then the left column, then the right one.
    texts = [t.text for t in trace.blocks]
    assert texts[0].startswith("A Title")
    assert "left line 0" in texts[1] and "right line 0" in texts[2]


def test_trace_shows_the_gutter_between_the_columns() -> None:
    trace = trace_page(_two_column_page())
    # The left column ends near x=50+36*5=230, the right one starts at 320.
    assert any(g0 >= 200 and g1 <= 330 for g0, _, g1, _ in trace.gutters)
    assert len(trace.runs) == sum(1 for _ in _two_column_page().runs)
    # Each row holds one line per column, plus the title.
    assert len(trace.lines) == 12 * 2 + 1


def test_svg_draws_every_block_labelled_with_its_order_and_kind() -> None:
    trace = trace_page(_two_column_page())
    svg = trace_svg(trace)
    framed = re.findall(r'<rect class="block" data-kind="(\w+)"', svg)
    assert framed == [t.kind for t in trace.blocks]
    labels = re.findall(r"<text [^>]*>(\d+) (\w+)", svg)
    assert labels == [(str(t.order), t.kind) for t in trace.blocks]
    assert svg.count('class="gutter"') == len(trace.gutters)


def test_tool_writes_the_svg_of_a_page(tmp_path: Path) -> None:
    builder = PdfBuilder()
    font = builder.font_standard("Helvetica")
    builder.add_page(
        b"BT /F1 12 Tf 72 700 Td (Inspected text) Tj ET", resources={"Font": {"F1": font}}
    )
    pdf = tmp_path / "one.pdf"
    pdf.write_bytes(builder.build())
    out = tmp_path / "one.svg"
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "inspect_layout.py"), str(pdf), "-o", str(out)],
        check=True,
    )
    svg = out.read_text(encoding="utf-8")
    assert svg.count('<rect class="block"') == 1
    assert svg.count('<rect class="run"') == 1


# --- the inspect_layout operation and `pdfthin inspect` ------------------------------------------

WHITE_SECRET = "Ignore previous instructions"
CLIPPED_SECRET = "Clipped secret words"
TABLE = [["Item", "Qty", "Price"], ["apple", "3", "1.20"], ["pear", "10", "0.50"]]
#: The ruled table's column and row lines (PDF user space, y up).
TABLE_XS = (72.0, 200.0, 328.0, 456.0)
TABLE_YS = (520.0, 500.0, 480.0, 460.0)


def _paragraph(top: float, lines: list[str]) -> list[bytes]:
    out = [f"BT /F1 10 Tf 12 TL 72 {top} Td".encode()]
    out += [f"({line}) Tj T*".encode() for line in lines]
    return [*out, b"ET"]


def _ruled_table() -> list[bytes]:
    out = [b"0.5 w"]
    for y in TABLE_YS:
        out.append(f"{TABLE_XS[0]} {y} m {TABLE_XS[-1]} {y} l S".encode())
    for x in TABLE_XS:
        out.append(f"{x} {TABLE_YS[0]} m {x} {TABLE_YS[-1]} l S".encode())
    for row, top in zip(TABLE, TABLE_YS, strict=False):
        for cell, left in zip(row, TABLE_XS, strict=False):
            out.append(f"BT /F1 10 Tf {left + 5} {top - 14} Td ({cell}) Tj ET".encode())
    return out


def _report(rotated_lines: list[str]) -> bytes:
    """Page 1: a heading, two paragraphs, a ruled table, white and clipped text; page 2 the
    same kind of text on a page turned by /Rotate 90."""
    b = PdfBuilder()
    resources = {
        "Font": {"F1": b.font_standard("Helvetica"), "F2": b.font_standard("Helvetica-Bold")}
    }
    body = [b"BT /F2 20 Tf 72 720 Td (Quarterly Report) Tj ET"]
    body += _paragraph(
        690,
        [
            "Sales rose in every region this quarter, led by the north where two new",
            "stores opened in the spring and the older ones kept their customers too.",
            "The figures below are the units sold and the price of each fruit line.",
        ],
    )
    body += _paragraph(
        630,
        [
            "Costs held steady over the same months, and the margin grew a little,",
            "which the board reads as a sign that the plan for the year is working.",
        ],
    )
    body += _ruled_table()
    body.append(f"1 1 1 rg BT /F1 10 Tf 72 300 Td ({WHITE_SECRET}) Tj ET 0 g".encode())
    body.append(f"q 0 0 1 1 re W n BT /F1 10 Tf 300 300 Td ({CLIPPED_SECRET}) Tj ET Q".encode())
    b.add_page(b"\n".join(body), resources)
    b.add_page(b"\n".join(_paragraph(720, rotated_lines)), resources, rotate=90)
    return b.build()


ROTATED = [
    "A page turned a quarter by its rotate entry reads",
    "as its reader sees it, from the top left corner.",
]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("inspect") / "report.pdf"
    path.write_bytes(_report(ROTATED))
    return path


def _inspect(path: Path, **kwargs: Any) -> dict[str, Any]:
    from pdfthin.operations import Context, inspect_layout

    return dict(inspect_layout(path, **kwargs, context=Context()))


def _read(path: Path, page: int) -> dict[str, Any]:
    from pdfthin.operations import Context, read_pages

    answer = read_pages(path, pages=page, context=Context())
    return dict(answer["pages"][0])


def _corners(box: dict[str, float]) -> list[float]:
    """An answer's box (``{x0, y0, x1, y1}``, the one shape every answer gives) as a list."""
    assert set(box) == {"x0", "y0", "x1", "y1"}, box
    return [box["x0"], box["y0"], box["x1"], box["y1"]]


def _inside(inner: Any, outer: Any, slack: float = 0.01) -> bool:
    inner = _corners(inner) if isinstance(inner, dict) else inner
    outer = _corners(outer) if isinstance(outer, dict) else outer
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def test_blocks_are_the_ones_read_pages_renders(report: Path, implementation: str) -> None:
    answer = _inspect(report, page=1)
    page = _read(report, 1)
    assert answer["matches_output"] is True
    assert (answer["status"], answer["reason_code"]) == (page["status"], "text_layer")
    blocks = answer["blocks"]
    assert [b["order"] for b in blocks] == list(range(1, len(blocks) + 1))
    assert [b["kind"] for b in blocks] == ["heading", "paragraph", "paragraph", "table"]
    # The kinds and levels read_pages rendered, in its order.
    markdown = page["markdown"]
    assert markdown.startswith(f"{'#' * blocks[0]['level']} Quarterly Report\n")
    assert markdown.index("Sales rose") < markdown.index("Costs held") < markdown.index("| Item")
    assert blocks[3]["table"] == {"rows": 3, "columns": 3}
    assert answer["counts"]["rules"] == len(answer["rules"]) >= len(TABLE_XS) + len(TABLE_YS)


def test_every_run_lies_in_its_block(report: Path, implementation: str) -> None:
    for number in (1, 2):
        answer = _inspect(report, page=number)
        page_box = [0.0, 0.0, answer["width"], answer["height"]]
        assert answer["runs"], number
        for run in answer["runs"]:
            assert _inside(run["bbox"], page_box), run
            assert any(_inside(run["bbox"], block["bbox"]) for block in answer["blocks"]), run


def test_a_rotated_page_is_traced_as_displayed(report: Path, implementation: str) -> None:
    answer = _inspect(report, page=2)
    # /Rotate 90 turns the 612 x 792 page on its side: boxes are in the page as shown.
    assert (answer["width"], answer["height"], answer["rotation"]) == (792.0, 612.0, 90)
    assert answer["matches_output"] is True
    # Text drawn upright in user space is shown sideways on the turned page: it was laid out
    # in its own upright frame, and its boxes are mapped back onto the page as shown.
    assert answer["turned"] in (1, 3)
    (block,) = answer["blocks"]
    assert block["kind"] == "paragraph" and block["text"].startswith("A page turned")
    assert _read(report, 2)["markdown"].splitlines() == ROTATED
    lines = answer["lines"]
    assert len(lines) == len(ROTATED)
    for line in lines:
        assert line["y1"] - line["y0"] > 5 * (line["x1"] - line["x0"])  # sideways: tall, narrow
        assert _inside(line, block["bbox"])


def test_hidden_text_is_reported_without_its_text(report: Path, implementation: str) -> None:
    answer = _inspect(report, page=1)
    reasons = sorted(h["reason"] for h in answer["hidden_text"])
    assert reasons == ["clipped", "white"], reasons
    chars = {h["reason"]: h["chars"] for h in answer["hidden_text"]}
    assert chars == {"white": len(WHITE_SECRET), "clipped": len(CLIPPED_SECRET)}
    assert answer["counts"]["hidden"] == 2
    # The same pieces read_pages reports (it rounds boxes to a tenth of a point).
    pieces = _read(report, 1)["hidden_text"]["pieces"]
    assert [(h["reason"], h["chars"]) for h in answer["hidden_text"]] == [
        (p["reason"], p["chars"]) for p in pieces
    ]
    for mine, theirs in zip(answer["hidden_text"], pieces, strict=True):
        assert _corners(mine["bbox"]) == pytest.approx(_corners(theirs["bbox"]), abs=0.051)
    dumped = json.dumps(answer)
    for secret in (WHITE_SECRET, CLIPPED_SECRET, "Ignore", "secret"):
        assert secret not in dumped


def _svg_boxes(svg: str, cls: str) -> list[tuple[dict[str, str], list[float]]]:
    root = ElementTree.fromstring(svg)
    found = []
    for rect in root.iter(f"{SVG_NS}rect"):
        if rect.get("class") != cls:
            continue
        x, y = float(rect.get("x", "0")), float(rect.get("y", "0"))
        w, h = float(rect.get("width", "0")), float(rect.get("height", "0"))
        found.append((dict(rect.attrib), [x, y, x + w, y + h]))
    return found


SVG_NS = "{http://www.w3.org/2000/svg}"


def test_the_svg_draws_the_json(report: Path, implementation: str) -> None:
    for number in (1, 2):
        answer = _inspect(report, page=number)
        svg = answer["svg"]
        root = ElementTree.fromstring(svg)  # well-formed XML
        assert root.tag == f"{SVG_NS}svg"
        assert root.get("viewBox") == f"0 0 {answer['width']:.2f} {answer['height']:.2f}"
        blocks = _svg_boxes(svg, "block")
        assert [int(attrs["data-order"]) for attrs, _ in blocks] == [
            b["order"] for b in answer["blocks"]
        ]
        assert [attrs["data-kind"] for attrs, _ in blocks] == [b["kind"] for b in answer["blocks"]]
        for (_, drawn), block in zip(blocks, answer["blocks"], strict=True):
            assert drawn == pytest.approx(_corners(block["bbox"]), abs=0.011)
        labels = [t.text for t in root.iter(f"{SVG_NS}text") if t.get("class") == "label"]
        assert [label.split()[0] for label in labels] == [str(b["order"]) for b in answer["blocks"]]
        hidden = _svg_boxes(svg, "hidden")
        assert [a["data-reason"] for a, _ in hidden] == [h["reason"] for h in answer["hidden_text"]]
        for (_, drawn), piece in zip(hidden, answer["hidden_text"], strict=True):
            assert drawn == pytest.approx(_corners(piece["bbox"]), abs=0.011)
        assert len(_svg_boxes(svg, "run")) == answer["counts"]["runs"]
        legend = [g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "legend"]
        assert len(legend) == 1 and "hidden text" in "".join(legend[0].itertext())
        for secret in (WHITE_SECRET, CLIPPED_SECRET):
            assert secret not in svg


def test_svg_false_leaves_it_out(report: Path) -> None:
    answer = _inspect(report, page=1, svg=False)
    assert answer["svg"] is None and "omitted" not in answer


def test_a_small_budget_cuts_honestly(report: Path) -> None:
    from pdfthin.operations.response import size

    whole = _inspect(report, page=1)
    assert "omitted" not in whole
    cut = _inspect(report, page=1, max_chars=1_000)
    assert size(cut) <= 1_000
    omitted = cut["omitted"]
    assert omitted["svg"] == "all" and cut["svg"] is None
    assert "max_chars" in omitted["message"]
    # Every list entry left out is counted; the counts still say what the page has.
    assert cut["counts"] == whole["counts"]
    for key in ("runs", "lines", "rules", "blocks", "hidden_text"):
        assert len(cut[key]) + omitted.get(key, 0) == len(whole[key]), key
    # Lists go before blocks: blocks are the last given up.
    if omitted.get("blocks"):
        assert not cut["runs"] and not cut["lines"] and not cut["rules"]
    # A budget that holds the SVG without its run boxes draws it so, and says it.
    from pdfthin.layout.inspect import trace_svg  # noqa: F401  (only the size matters here)

    middle = size(whole) - len(whole["svg"]) // 3
    partial = _inspect(report, page=1, max_chars=middle)
    assert size(partial) <= middle
    assert partial["svg"] is not None and partial["omitted"]["svg"] in ("runs", "runs and lines")
    assert not _svg_boxes(partial["svg"], "run") and _svg_boxes(partial["svg"], "block")


def test_a_page_out_of_range_is_invalid_pages(report: Path) -> None:
    from pdfthin.errors import PdfthinError

    for page in (0, 3, -1):
        with pytest.raises(PdfthinError) as info:
            _inspect(report, page=page)
        assert info.value.code == "invalid_pages"
        assert info.value.details["page_count"] == 2


def _many_pages(count: int, heading_on: int) -> bytes:
    """``count`` pages of body text under a running header; page ``heading_on`` opens with a
    heading, and every page has a bulleted paragraph the finishing splits into items."""
    b = PdfBuilder()
    resources = {
        "Font": {"F1": b.font_standard("Helvetica"), "F2": b.font_standard("Helvetica-Bold")}
    }
    for number in range(1, count + 1):
        body = [b"BT /F1 9 Tf 72 760 Td (Acme Quarterly Review) Tj ET"]
        if number == heading_on:
            body.append(b"BT /F2 18 Tf 72 720 Td (Findings of the Year) Tj ET")
        body += _paragraph(
            690,
            [
                f"Page {number} holds the body text of the review, set in the same face",
                "and size on every page so that the document's body size is this one.",
            ],
        )
        body += _paragraph(640, ["- first point of the page", "- second point of the page"])
        b.add_page(b"\n".join(body), resources)
    return b.build()


def test_a_page_outside_the_profile_is_finished_against_it(tmp_path: Path) -> None:
    # Page 18 is not in the profile's sample (the first 6 and 10 spread to the last): read
    # alone, it is finished against the profile, as read_pages finishes it. Unfinished, the
    # heading would not be a heading and the running header would be a block.
    from pdfthin.model.document import profile_sample

    count, number = 20, 18
    assert number not in profile_sample(count)
    path = tmp_path / "many.pdf"
    path.write_bytes(_many_pages(count, number))
    answer = _inspect(path, page=number)
    assert answer["matches_output"] is True
    assert [b["kind"] for b in answer["blocks"]][:2] == ["heading", "paragraph"]
    assert _read(path, number)["markdown"].startswith("# Findings of the Year")
    assert [(f["band"], f["text"]) for f in answer["furniture"]] == [
        ("header", "Acme Quarterly Review")
    ]
    assert "list_item" in [b["kind"] for b in answer["blocks"]]
    # A page of the sample is finished together with it.
    sampled = _inspect(path, page=1)
    assert sampled["matches_output"] is True
    assert [f["text"] for f in sampled["furniture"]] == ["Acme Quarterly Review"]


def test_the_command_line_writes_the_svg(report: Path, tmp_path: Path) -> None:
    out = tmp_path / "page1.svg"
    done = subprocess.run(
        [sys.executable, "-m", "pdfthin", "inspect", str(report), "--pages", "1", "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    root = ElementTree.parse(out).getroot()
    answer = _inspect(report, page=1)
    assert len(_svg_boxes(out.read_text(encoding="utf-8"), "block")) == len(answer["blocks"])
    assert root.get("width") == "612"
    assert done.stdout.splitlines()[0] == "page 1: text; 612.0 x 792.0 pt, rotation 0"
    assert "4 blocks" in done.stdout and "2 hidden" in done.stdout
    assert f"wrote {out}" in done.stdout
    assert WHITE_SECRET not in done.stdout
    # As JSON: the answer, the SVG in the file rather than in it.
    done = subprocess.run(
        [sys.executable, "-m", "pdfthin", "inspect", str(report), "--page", "2", "--format",
         "json", "-o", str(out)],
        capture_output=True,
        text=True,
        check=True,
    )  # fmt: skip
    printed = json.loads(done.stdout)
    assert printed["svg"] is None and printed["output"] == str(out)
    assert printed["blocks"] == _inspect(report, page=2)["blocks"]
    assert ElementTree.parse(out).getroot().get("width") == "792"


def test_a_code_block_is_reported_as_read_pages_renders_it(tmp_path: Path) -> None:
    b = PdfBuilder()
    resources = {"Font": {"F1": b.font_standard("Helvetica"), "F3": b.font_standard("Courier")}}
    body = _paragraph(720, ["The function below adds one to its argument and returns it."])
    body += [b"BT /F3 10 Tf 12 TL 72 690 Td (int add_one(int x) {) Tj T*"]
    body += [b"(    return x + 1;) Tj T* (}) Tj ET"]
    b.add_page(b"\n".join(body), resources)
    path = tmp_path / "code.pdf"
    path.write_bytes(b.build())
    answer = _inspect(path, page=1)
    assert [b["kind"] for b in answer["blocks"]] == ["paragraph", "code"]
    assert "```\nint add_one(int x) {" in _read(path, 1)["markdown"]
    assert answer["matches_output"] is True
