"""Make the layout's decisions visible: a page's runs, lines, column gutters, tables and
blocks in reading order, drawn as an SVG over the page (pdfplumber's ``debug_tablefinder``
is the model). A rule is debugged by looking at what it decided, not at a score.

``trace_page`` runs the same stages as :func:`pdfthin.layout.layout_page` and keeps what each
one produced; the blocks it reports are ``layout_page``'s own (or those of a layout it is
given, finished against the document's profile: ``pdfthin.model.inspect``), so the picture
cannot drift from the output. ``trace_svg`` draws a trace; ``tools/inspect_layout.py`` and
the ``inspect_layout`` operation write it for a page of a file.

Every box is in the displayed page's points: origin top-left, y down, after ``/Rotate`` and
the crop box (the engine's ``display_matrix`` places runs so). A page whose text is mostly
turned is laid out in that text's upright frame; its boxes are mapped back onto the page as
displayed, so they lie over the text a viewer shows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from pdfthin.layout import layout_page, runs_by_direction
from pdfthin.layout.lines import _gutters, _rows, build_lines
from pdfthin.layout.orientation import dominant_turn, from_frame

if TYPE_CHECKING:
    from pdfthin.engine.types import PageContent
    from pdfthin.layout.types import Block, PageLayout

Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class TracedRun:
    """One text run as the engine placed it."""

    text: str
    box: Box
    size: float


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


@dataclass(frozen=True, slots=True)
class TracedFurniture:
    """A block moved out of the page's body as a running header, footer or page number."""

    band: str  # "header" or "footer"
    box: Box
    text: str


@dataclass(frozen=True, slots=True)
class TracedHidden:
    """Text withheld from the output (invariant 15): its reason, box and length only."""

    reason: str
    box: Box
    chars: int


@dataclass(frozen=True, slots=True)
class TracedRegion:
    """A region of the page that geometry cannot read reliably (the document model's
    regions needing review), drawn so that a person can see the decision."""

    reason: str
    box: Box
    score: float
    message: str


@dataclass(slots=True)
class LayoutTrace:
    """What each layout stage decided on one page (displayed page points, y down)."""

    number: int
    width: float
    height: float
    runs: list[TracedRun] = field(default_factory=list)
    lines: list[Box] = field(default_factory=list)
    #: Bands that line building treats as column gutters or table column boundaries (in a
    #: turned page's upright frame they are vertical there, so they may lie across here).
    gutters: list[Box] = field(default_factory=list)
    #: Ruling lines the engine found (what a ruled table is built on).
    rules: list[Box] = field(default_factory=list)
    blocks: list[TracedBlock] = field(default_factory=list)
    furniture: list[TracedFurniture] = field(default_factory=list)
    hidden: list[TracedHidden] = field(default_factory=list)
    #: Regions needing review (filled by the document model, which judges them).
    regions: list[TracedRegion] = field(default_factory=list)
    #: What was decided about the page's structure tree (``PageLayout.tree``).
    tree: str = ""
    #: Quarter turns of the frame the page was laid out in (0: as displayed).
    turn: int = 0


def trace_page(
    page: PageContent,
    layout: PageLayout | None = None,
    laid_out: Sequence[Block] | None = None,
) -> LayoutTrace:
    """The layout of ``page`` with its intermediate decisions kept. ``layout`` is the page's
    layout if the caller made (and finished) it, ``laid_out`` its blocks before finishing
    (what finishing moved out of them is reported as furniture); by default the page is
    laid out here, unfinished."""
    turn = dominant_turn(page.runs)
    upright, by_direction = runs_by_direction(page, turn)
    horizontal = [r for r in by_direction.get(0, []) if r.y1 > r.y0]

    def shown(box: Box) -> Box:
        return from_frame(box, turn, page.width, page.height)

    trace = LayoutTrace(page.number, page.width, page.height, turn=turn)
    trace.runs = [TracedRun(r.text, (r.x0, r.y0, r.x1, r.y1), r.size) for r in page.runs]
    trace.lines = [shown((ln.x0, ln.y0, ln.x1, ln.y1)) for ln in build_lines(horizontal)]
    trace.gutters = [shown((g0, 0.0, g1, upright.height)) for g0, g1 in _gutters(_rows(horizontal))]
    trace.rules = [shown(rule) for rule in upright.rules]
    if layout is None:
        layout = layout_page(page)
    trace.blocks = [_traced(k, block, shown) for k, block in enumerate(layout.blocks, 1)]
    trace.furniture = _furniture(laid_out or (), layout, shown)
    trace.hidden = [TracedHidden(h.reason, h.bbox, len(h.text)) for h in page.hidden]
    trace.tree = layout.tree
    return trace


def _furniture(
    laid_out: Sequence[Block], layout: PageLayout, shown: Callable[[Box], Box]
) -> list[TracedFurniture]:
    """The blocks finishing moved out as running headers and footers (it keeps their text in
    ``layout.header`` and ``layout.footer``; other blocks it replaced, such as a paragraph
    split into list items, are not furniture)."""
    kept = {id(block) for block in layout.blocks}
    bands = {"header": Counter(layout.header), "footer": Counter(layout.footer)}
    found: list[TracedFurniture] = []
    for block in laid_out:
        if id(block) in kept:
            continue
        for band, texts in bands.items():
            if texts[block.text] > 0:
                texts[block.text] -= 1
                found.append(TracedFurniture(band, shown(_box(block)), block.text))
                break
    return found


def _box(block: Block) -> Box:
    return (block.x0, block.y0, block.x1, block.y1)


def _traced(order: int, block: Block, shown: Callable[[Box], Box]) -> TracedBlock:
    shape = None
    if block.kind == "table" and block.rows:
        shape = (len(block.rows), max(len(row) for row in block.rows))
    return TracedBlock(order, block.kind, shown(_box(block)), block.text, block.level, shape)


#: Stroke colours by what is drawn; a block's colour says its kind.
_COLOURS = {
    "run": "#9e9e9e",
    "line": "#1e88e5",
    "gutter": "#fb8c00",
    "rule": "#212121",
    "paragraph": "#43a047",
    "heading": "#8e24aa",
    "list_item": "#00897b",
    "table": "#e53935",
    "code": "#6d4c41",
    "furniture": "#757575",
    "hidden": "#d81b60",
    "review": "#ff6f00",
}
#: What the legend names, in its order.
_LEGEND = (
    ("heading", "heading"),
    ("paragraph", "paragraph"),
    ("list_item", "list item"),
    ("table", "table"),
    ("code", "code"),
    ("furniture", "header/footer (left out)"),
    ("hidden", "hidden text (withheld)"),
    ("review", "region needing review"),
    ("line", "line"),
    ("run", "run"),
    ("gutter", "gutter"),
)
#: Label text size in points, small enough not to hide the page.
_LABEL_PT = 7.0
#: The legend's width in points: its longest name at the label size.
_LEGEND_WIDTH = 110.0


def block_label(block: TracedBlock) -> str:
    """What a block's frame is labelled with: its place in the reading order and its kind."""
    label = f"{block.order} {block.kind}"
    if block.kind == "heading":
        label += f" h{block.level}"
    if block.shape:
        label += f" {block.shape[0]}x{block.shape[1]}"
    return label


def trace_svg(
    trace: LayoutTrace, background: str | None = None, runs: bool = True, lines: bool = True
) -> str:
    """An SVG of ``trace`` in page points; ``background`` is an optional image URL (a
    ``data:`` PNG of the rendered page) drawn underneath. ``runs`` and ``lines`` draw those
    boxes too (many on a dense page; the blocks, gutters and hidden text are always drawn)."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{trace.width:.0f}" '
        f'height="{trace.height:.0f}" viewBox="0 0 {trace.width:.2f} {trace.height:.2f}">',
        f"<title>page {trace.number}: {len(trace.blocks)} blocks, "
        f"{len(trace.lines)} lines, {len(trace.gutters)} gutters"
        f"{'; ' + escape(trace.tree) if trace.tree else ''}</title>",
        f'<rect class="page" width="{trace.width:.2f}" height="{trace.height:.2f}" '
        'fill="white" fill-opacity="0"/>',
    ]
    if background:
        out.append(
            f'<image href={quoteattr(background)} width="{trace.width:.2f}" '
            f'height="{trace.height:.2f}" opacity="0.5"/>'
        )
    for box in trace.gutters:
        out.append(_rect(box, "gutter", 0, fill=_COLOURS["gutter"]))
    out.extend(_rect(box, "rule", 0.6) for box in trace.rules)
    if runs:
        out.extend(_rect(run.box, "run", 0.3) for run in trace.runs)
    if lines:
        out.extend(_rect(box, "line", 0.5) for box in trace.lines)
    for piece in trace.hidden:
        out.append(_rect(piece.box, "hidden", 0.8, dashed=True, data={"reason": piece.reason}))
    for furniture in trace.furniture:
        out.append(
            _rect(furniture.box, "furniture", 0.8, dashed=True, data={"band": furniture.band})
        )
    for region in trace.regions:
        data = {"reason": region.reason, "score": f"{region.score:.2f}"}
        out.append(_rect(region.box, "review", 1.5, dashed=True, data=data))
        x0, y1 = region.box[0], region.box[3]
        out.append(
            f'<text class="label" x="{x0:.2f}" y="{min(y1 + _LABEL_PT, trace.height):.2f}" '
            f'font-size="{_LABEL_PT}" fill="{_COLOURS["review"]}" font-family="sans-serif">'
            f"review: {escape(region.reason)} {region.score:.2f}</text>"
        )
    for block in trace.blocks:
        colour = _COLOURS.get(block.kind, "#000000")
        data = {"kind": block.kind, "order": str(block.order)}
        out.append(_rect(block.box, "block", 1.2, colour, data=data))
        x0, y0 = block.box[0], block.box[1]
        out.append(
            f'<text class="label" x="{x0:.2f}" y="{max(y0 - 1, _LABEL_PT):.2f}" '
            f'font-size="{_LABEL_PT}" fill="{colour}" font-family="sans-serif">'
            f"{escape(block_label(block))}</text>"
        )
    out.append(_legend(trace.width, trace.height))
    out.append("</svg>")
    return "\n".join(out)


def _legend(width: float, height: float) -> str:
    """A key to the colours, in the bottom right corner (a page's margin there is most
    often empty), on a pale ground."""
    row = _LABEL_PT + 2
    box_w, box_h = _LEGEND_WIDTH, row * len(_LEGEND) + 4
    left, top = max(width - box_w - 2, 0.0), max(height - box_h - 2, 0.0)
    parts = [
        f'<g class="legend" font-size="{_LABEL_PT}" font-family="sans-serif">',
        f'<rect x="{left:.2f}" y="{top:.2f}" width="{box_w:.2f}" height="{box_h:.2f}" '
        'fill="white" fill-opacity="0.85" stroke="#bdbdbd" stroke-width="0.3"/>',
    ]
    for i, (key, name) in enumerate(_LEGEND):
        y = top + 2 + row * i
        parts.append(
            f'<rect x="{left + 3:.2f}" y="{y + 1:.2f}" width="10" height="{_LABEL_PT - 1:.2f}" '
            f'fill="none" stroke="{_COLOURS[key]}" stroke-width="1"/>'
            f'<text x="{left + 16:.2f}" y="{y + _LABEL_PT:.2f}" fill="{_COLOURS[key]}">'
            f"{escape(name)}</text>"
        )
    parts.append("</g>")
    return "".join(parts)


def _rect(
    box: Box,
    cls: str,
    width: float,
    colour: str = "",
    fill: str = "",
    dashed: bool = False,
    data: dict[str, str] | None = None,
) -> str:
    x0, y0, x1, y1 = box
    stroke = colour or _COLOURS[cls]
    attrs = "".join(f" data-{k}={quoteattr(v)}" for k, v in (data or {}).items())
    paint = (
        f'fill="{fill}" fill-opacity="0.15"'
        if fill
        else f'fill="none" stroke="{stroke}" stroke-width="{width}"'
    )
    if dashed:
        paint += ' stroke-dasharray="2 1"'
    return (
        f'<rect class="{cls}"{attrs} x="{x0:.2f}" y="{y0:.2f}" width="{max(x1 - x0, 0.1):.2f}" '
        f'height="{max(y1 - y0, 0.1):.2f}" {paint}/>'
    )
