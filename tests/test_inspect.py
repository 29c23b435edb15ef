"""The layout inspection shows the decisions the layout really made: its blocks are the
output's blocks, in the output's order, and the column gutter it draws is the one that kept
the columns apart."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

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
    assert any(g0 >= 200 and g1 <= 330 for g0, g1 in trace.gutters)
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
