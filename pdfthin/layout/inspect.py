"""Make the layout's decisions visible: a page's runs, lines, column gutters, tables and
blocks in reading order, drawn as an SVG over the page (pdfplumber's ``debug_tablefinder``
is the model). A rule is debugged by looking at what it decided, not at a score.

``trace_page`` runs the same stages as :func:`pdfthin.layout.layout_page` and keeps what each
one produced; the blocks it reports are ``layout_page``'s own, so the picture cannot drift
from the output. ``trace_svg`` draws a trace; ``tools/inspect_layout.py`` writes it for a page
of a file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from pdfthin.engine.types import PageContent
from pdfthin.layout import layout_page, runs_by_direction
from pdfthin.layout.lines import _gutters, _rows, build_lines
from pdfthin.layout.types import Block

Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class TracedBlock:
    """One block of the page's output, in reading order."""

    order: int
    kind: str
    box: Box
    text: str
    level: int = 0
    #: Row and column counts of a table block.
    shape: tuple[int, int] | None = None


@dataclass(slots=True)
class LayoutTrace:
    """What each layout stage decided on one page (page coordinates, y down)."""

    number: int
    width: float
    height: float
    runs: list[Box] = field(default_factory=list)
    lines: list[Box] = field(default_factory=list)
    #: x ranges that line building treats as column gutters or table column boundaries.
    gutters: list[tuple[float, float]] = field(default_factory=list)
    blocks: list[TracedBlock] = field(default_factory=list)
    #: What was decided about the page's structure tree (``PageLayout.tree``).
    tree: str = ""


def trace_page(page: PageContent) -> LayoutTrace:
    """The layout of ``page`` with its intermediate decisions kept."""
    upright, by_direction = runs_by_direction(page)
    horizontal = [r for r in by_direction.get(0, []) if r.y1 > r.y0]
    trace = LayoutTrace(upright.number, upright.width, upright.height)
    trace.runs = [(r.x0, r.y0, r.x1, r.y1) for r in horizontal]
    trace.lines = [(ln.x0, ln.y0, ln.x1, ln.y1) for ln in build_lines(horizontal)]
    trace.gutters = _gutters(_rows(horizontal))
    layout = layout_page(page)
    trace.blocks = [_traced(k, block) for k, block in enumerate(layout.blocks, 1)]
    trace.tree = layout.tree
    return trace


def _traced(order: int, block: Block) -> TracedBlock:
    shape = None
    if block.kind == "table" and block.rows:
        shape = (len(block.rows), max(len(row) for row in block.rows))
    return TracedBlock(
        order, block.kind, (block.x0, block.y0, block.x1, block.y1), block.text, block.level, shape
    )


#: Stroke colours by what is drawn; a block's colour says its kind.
_COLOURS = {
    "run": "#9e9e9e",
    "line": "#1e88e5",
    "gutter": "#fb8c00",
    "paragraph": "#43a047",
    "heading": "#8e24aa",
    "list_item": "#00897b",
    "table": "#e53935",
    "code": "#6d4c41",
}
#: Label text size in points, small enough not to hide the page.
_LABEL_PT = 7.0


def trace_svg(trace: LayoutTrace, background: str | None = None) -> str:
    """An SVG of ``trace`` in page points; ``background`` is an optional image URL (a
    ``data:`` PNG of the rendered page) drawn underneath."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{trace.width:.0f}" '
        f'height="{trace.height:.0f}" viewBox="0 0 {trace.width:.2f} {trace.height:.2f}">',
        f"<title>page {trace.number}: {len(trace.blocks)} blocks, "
        f"{len(trace.lines)} lines, {len(trace.gutters)} gutters"
        f"{'; ' + escape(trace.tree) if trace.tree else ''}</title>",
        f'<rect width="{trace.width:.2f}" height="{trace.height:.2f}" fill="white"/>',
    ]
    if background:
        out.append(
            f'<image href="{escape(background)}" width="{trace.width:.2f}" '
            f'height="{trace.height:.2f}" opacity="0.5"/>'
        )
    for g0, g1 in trace.gutters:
        out.append(
            f'<rect class="gutter" x="{g0:.2f}" y="0" width="{max(g1 - g0, 0.5):.2f}" '
            f'height="{trace.height:.2f}" fill="{_COLOURS["gutter"]}" fill-opacity="0.15"/>'
        )
    out.extend(_rect(box, "run", 0.3) for box in trace.runs)
    out.extend(_rect(box, "line", 0.5) for box in trace.lines)
    for block in trace.blocks:
        colour = _COLOURS.get(block.kind, "#000000")
        out.append(_rect(block.box, "block", 1.2, colour, block.kind))
        label = f"{block.order} {block.kind}"
        if block.kind == "heading":
            label += f" h{block.level}"
        if block.shape:
            label += f" {block.shape[0]}x{block.shape[1]}"
        x0, y0 = block.box[0], block.box[1]
        out.append(
            f'<text x="{x0:.2f}" y="{max(y0 - 1, _LABEL_PT):.2f}" font-size="{_LABEL_PT}" '
            f'fill="{colour}" font-family="sans-serif">{escape(label)}</text>'
        )
    out.append("</svg>")
    return "\n".join(out)


def _rect(box: Box, cls: str, width: float, colour: str = "", kind: str = "") -> str:
    x0, y0, x1, y1 = box
    stroke = colour or _COLOURS[cls]
    data = f' data-kind="{kind}"' if kind else ""
    return (
        f'<rect class="{cls}"{data} x="{x0:.2f}" y="{y0:.2f}" width="{max(x1 - x0, 0.1):.2f}" '
        f'height="{max(y1 - y0, 0.1):.2f}" fill="none" stroke="{stroke}" '
        f'stroke-width="{width}"/>'
    )
