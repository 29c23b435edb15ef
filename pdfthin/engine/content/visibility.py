"""Which text a reader of the rendered page would see: the one place that decides it.

Both interpreters (Python and native) report every text run they draw with a :class:`Look`
(how it is painted) and every area they paint, in drawing order, as a :class:`Paint`. This
module decides, by what a viewer would show, which runs are page text and which are hidden,
and why (invariant 15: hidden text is withheld with its reason):

``layer_off``     in an optional content group (a layer) that the document's default view hides
``invisible``     render mode 3 or 7: no ink at all
``transparent``   painted with an opacity of :data:`CLEAR` or less (soft masks included)
``tiny``          smaller than :data:`MIN_VISIBLE_SIZE` points
``off_page``      its middle is outside the page (the crop box)
``clipped``       its middle is outside the clipping path
``squeezed``      its glyphs advance less than :data:`SQUEEZE_EM` of an em each, or backwards:
                  squeezed to a line, or stacked on one spot
``covered``       an opaque rectangle, picture or shading painted later covers it
``white``         white on white (a white box over a dark band is white)
``low_contrast``  after its opacity, its colour differs from what is painted beneath it by at
                  most :data:`MIN_CONTRAST` in every channel (blue on the same blue)

A scanner's OCR layer is text no one is meant to see, lying over or under the scan: invisible,
transparent, white or low-contrast text whose middle lies on an image is kept as page text
(``ocr_layer``), and so is text covered by an image when images cover :data:`SCAN_SHARE` of the
page. Where the colour under the text cannot be told (a picture, a shading, a pattern, a
separation colour), the text is read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from pdfthin.engine.content.pieces import rejoin
from pdfthin.engine.types import HiddenText, PageContent, TextRun

#: An sRGB estimate of a colour, each channel from 0 to 1.
Rgb = tuple[float, float, float]
Box = tuple[float, float, float, float]

#: Glyphs smaller than this (points, as displayed) cannot be read without a magnifier.
MIN_VISIBLE_SIZE = 2.0
#: Opacity at or below which paint does not show.
CLEAR = 0.05
#: Opacity at or above which paint hides what is beneath it.
OPAQUE = 0.95
#: Colour components at least this light (grey, RGB; CMYK at most 1 minus it) are white.
WHITE = 0.95
#: Text whose colour, after its opacity, is within this of what is beneath it in every sRGB
#: channel (0-1) does not stand out: 0.1 is about 25 levels of 255.
MIN_CONTRAST = 0.1
#: Glyphs that advance less than this share of the font size each (on average over a run of
#: at least :data:`SQUEEZE_GLYPHS`) sit on top of one another. Type advances about 0.5 em a
#: glyph, condensed type 0.3, the narrowest letters 0.22 (0.11 squeezed to half their width).
SQUEEZE_EM = 0.1
SQUEEZE_GLYPHS = 3
#: Share of points spread over a run where it must be covered by later opaque paint, or not
#: stand out from what is beneath it, for the run to be hidden.
COVERED_SHARE = 0.9
#: Images covering this share of the page make it a scan: text under them is its OCR layer.
SCAN_SHARE = 0.5
#: Cells per side of the grid that indexes painted areas by where they lie on the page.
GRID = 16
#: Sample points across a run (at most), for the covered test.
MAX_SAMPLES = 16
#: Painted areas and image boxes looked at, per page, to judge what lies beneath or over its
#: text (part of the page's work budget). Past them the rest of the page's text is read without
#: that judgement, and invisible text is withheld without asking whether it is an OCR layer.
MAX_AREA_TESTS = 10_000_000

#: Reasons under which text over an image is a scanner's OCR layer rather than hidden.
_OCR_LAYER_REASONS = frozenset({"invisible", "transparent", "white", "low_contrast"})
#: Text render modes that fill the glyphs, and those that stroke them.
_FILLS = frozenset({0, 2, 4, 6})
_STROKES = frozenset({1, 2, 5, 6})


class Look(NamedTuple):
    """How a text run is drawn, as far as seeing it depends on it."""

    #: Text render mode (0-7).
    mode: int
    #: Fill and stroke colours; ``None`` where the colour cannot be told (a pattern...).
    fill: Rgb | None
    stroke: Rgb | None
    #: Opacity of fill and stroke, soft mask included.
    fill_alpha: float
    stroke_alpha: float
    #: The clipping region's box when the run was drawn (``None``: not clipped).
    clip: Box | None
    #: Drawn inside an optional content group the default view hides.
    layer_off: bool
    #: Signed distance (points, as displayed) from the first glyph's origin to the end of
    #: the last along the baseline, and the glyphs drawn in between.
    advance: float
    glyphs: int


class Paint(NamedTuple):
    """An area painted on the page."""

    #: Painted after the text runs numbered up to this (:attr:`TextRun.seq`), before the next.
    after: int
    box: Box
    #: The paint's colour; ``None`` for a picture, a shading, or a colour that cannot be told.
    colour: Rgb | None
    #: Opacity, soft mask included; whether it blends normally (a multiplied highlight
    #: does not hide what is beneath it); whether it paints all of its area (a picture
    #: without a mask of its own, any fill or stroke).
    alpha: float
    normal: bool
    solid: bool
    #: The painted area is its box (a rectangle, a picture, a shading clipped to a rectangle,
    #: all square to the page); a curve's or a slanted shape's box only bounds it.
    exact: bool
    #: ``"fill"``, ``"stroke"``, ``"image"`` or ``"shading"``.
    kind: str


def rgb(values: list[object], components: int) -> Rgb | None:
    """The sRGB estimate of ``values`` in a colour space of ``components`` (1 grey, 3 RGB,
    4 CMYK); ``None`` for anything else (a pattern, a separation, too few numbers)."""
    if components not in (1, 3, 4) or len(values) != components:
        return None
    out: list[float] = []
    for value in values:
        if type(value) is not float and (
            isinstance(value, bool) or not isinstance(value, (int, float))
        ):
            return None
        # min(max(v, 0.0), 1.0), spelled out (NaN and -0.0 come out the same): this runs
        # for every colour a page sets
        v = float(value)
        out.append(0.0 if v < 0.0 else 1.0 if v > 1.0 else v)
    if components == 1:
        return (out[0], out[0], out[0])
    if components == 3:
        return (out[0], out[1], out[2])
    c, m, y, k = out
    return ((1.0 - c) * (1.0 - k), (1.0 - m) * (1.0 - k), (1.0 - y) * (1.0 - k))


def is_white(colour: Rgb | None) -> bool:
    return colour is not None and min(colour) >= WHITE


_PAGE_WHITE: Rgb = (1.0, 1.0, 1.0)


class _Tests:
    """Area tests left of the page's budget (:data:`MAX_AREA_TESTS`)."""

    __slots__ = ("left",)

    def __init__(self) -> None:
        self.left = MAX_AREA_TESTS

    def spend(self, count: int) -> bool:
        """Spend ``count`` tests; whether any were left to spend."""
        ok = self.left > 0
        self.left -= count
        return ok


#: What the covered test needs of a :class:`Paint`, flattened once per page (the test reads it
#: for every point sampled): its box, :attr:`Paint.after`, whether it hides text drawn
#: before it (opaque and exactly its box), whether it hides what is beneath it, and its colour
#: and opacity where it is known to be painted all over its box with a colour that can be told
#: (``None``: a curve's box, a picture, a shading, a pattern).
_Area = tuple[float, float, float, float, int, bool, bool, "Rgb | None", float]


def _area(paint: Paint) -> _Area:
    # Read by position: the native interpreter hands plain tuples in Paint's field order.
    after, (x0, y0, x1, y1), colour, alpha, normal, solid, exact, _ = paint
    opaque = solid and normal and alpha >= OPAQUE  # it hides what is beneath it
    return (x0, y0, x1, y1, after, exact and opaque, opaque, colour if exact else None, alpha)


class _Grid:
    """Paints bucketed by the grid cells their boxes touch, each cell in drawing order.

    The cell at ``v`` along a side ``extent`` long is ``int(v / extent * GRID)``, at least 0
    and at most ``GRID - 1``; it is spelled out where it is used (for each paint, each run and
    each point sampled), a call costing more than the arithmetic."""

    def __init__(self, width: float, height: float, paints: Sequence[Paint]) -> None:
        self.width = max(width, 1.0)
        self.height = max(height, 1.0)
        #: The areas of each painted cell (by index: row * GRID + column).
        self.cells: dict[int, list[_Area]] = {}
        #: Each row's painted cells, as bits (column c: bit c): whether the cells a box
        #: touches are all empty is a mask test per row it spans.
        self.rows = [0] * GRID
        width, height, cells, rows = self.width, self.height, self.cells, self.rows
        last = GRID - 1
        for paint in paints:
            x0, y0, x1, y1 = paint[1]  # its box, read by position (see sort_runs)
            if x1 < 0 or y1 < 0 or x0 > width or y0 > height:
                continue
            area = _area(paint)
            # the cells of both corners (see the class)
            c0 = int(x0 / width * GRID) if x0 > 0 else 0
            c0 = c0 if c0 < last else last
            r0 = int(y0 / height * GRID) if y0 > 0 else 0
            r0 = r0 if r0 < last else last
            c1 = int(x1 / width * GRID) if x1 > 0 else 0
            c1 = c1 if c1 < last else last
            r1 = int(y1 / height * GRID) if y1 > 0 else 0
            r1 = r1 if r1 < last else last
            columns = (2 << c1) - (1 << c0)
            for row in range(r0, r1 + 1):
                rows[row] |= columns
                for index in range(row * GRID + c0, row * GRID + c1 + 1):
                    cell = cells.get(index)
                    if cell is None:
                        cells[index] = [area]
                    else:
                        cell.append(area)


def _inside(box: Box, x: float, y: float) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _at(
    cell: list[_Area] | None, x: float, y: float, seq: int, tests: _Tests
) -> tuple[bool, Rgb | None]:
    """At (x, y): is it covered by opaque paint drawn after text run ``seq``, and the colour
    painted there before it (the page's white where nothing is; ``None``: cannot be told).
    ``cell``: the areas of the grid cell at (x, y), in drawing order, each one test."""
    if not cell:
        return False, _PAGE_WHITE  # nothing painted in the cell: the page's white
    beneath: list[tuple[Rgb, float]] = []
    known = True
    under_opaque = False  # beneath[-1] hides what is beneath it
    tests.left -= len(cell)  # tests.spend, without the call
    for x0, y0, x1, y1, after, covers, opaque, colour, alpha in reversed(cell):
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            continue
        if after >= seq:
            if covers:
                return True, None
            continue
        if not known or under_opaque:
            continue  # what lies under the topmost opaque paint does not show
        if colour is None:
            known = False  # a curve's box (painted there or not?), a picture, a shading
        else:
            beneath.append((colour, alpha))
            under_opaque = opaque
    if not known:
        return False, None
    out = _PAGE_WHITE
    for colour, a in reversed(beneath):
        out = (
            a * colour[0] + (1 - a) * out[0],
            a * colour[1] + (1 - a) * out[1],
            a * colour[2] + (1 - a) * out[2],
        )
    return False, out


def _stands_out(colour: Rgb | None, alpha: float, beneath: Rgb) -> bool:
    if colour is None:
        return True
    return (
        abs(alpha * (colour[0] - beneath[0])) > MIN_CONTRAST
        or abs(alpha * (colour[1] - beneath[1])) > MIN_CONTRAST
        or abs(alpha * (colour[2] - beneath[2])) > MIN_CONTRAST
    )


def _painted_over(grid: _Grid | None, run: TextRun, look: Look, tests: _Tests) -> str | None:
    """``covered``, ``white`` or ``low_contrast`` when at :data:`COVERED_SHARE` of points
    spread over ``run`` the text is covered by later opaque paint or does not stand out from
    what is beneath it (a line crossing a letter hides nothing); ``None`` otherwise."""
    if grid is None:
        return None
    mode, fill, stroke, fill_alpha, stroke_alpha, _, _, _, glyphs = look
    fills = mode in _FILLS
    strokes = mode in _STROKES
    x0, y0, x1, y1 = run.x0, run.y0, run.x1, run.y1
    # Is anything painted in the grid cells the run's box touches (the cells of its corners:
    # see _Grid)? Each cell is a test.
    grid_width, grid_height, last = grid.width, grid.height, GRID - 1
    c0 = int(x0 / grid_width * GRID) if x0 > 0 else 0
    c0 = c0 if c0 < last else last
    r0 = int(y0 / grid_height * GRID) if y0 > 0 else 0
    r0 = r0 if r0 < last else last
    c1 = int(x1 / grid_width * GRID) if x1 > 0 else 0
    c1 = c1 if c1 < last else last
    r1 = int(y1 / grid_height * GRID) if y1 > 0 else 0
    r1 = r1 if r1 < last else last
    tests.left -= (r1 - r0 + 1) * (c1 - c0 + 1)  # tests.spend, without the call
    near = False
    if c1 >= c0:
        mask = (2 << c1) - (1 << c0)  # the columns c0 to c1, as bits
        for painted in grid.rows[r0 : r1 + 1]:
            if painted & mask:
                near = True
                break
    if not near:
        # Nothing painted near: the page's white is beneath every point (the common case).
        if (fills and _stands_out(fill, fill_alpha, _PAGE_WHITE)) or (
            strokes and _stands_out(stroke, stroke_alpha, _PAGE_WHITE)
        ):
            return None
        return "white" if is_white(fill if fills else stroke) else "low_contrast"
    columns = min(max(glyphs, 2), MAX_SAMPLES)
    total = 2 * columns
    allowed = total - COVERED_SHARE * total  # points where the text shows, at most
    width = x1 - x0
    height = y1 - y0
    shown = covered = 0
    white = True
    cells = grid.cells
    seq = run.seq
    for row in (0.35, 0.65):
        y = y0 + row * height
        base = (min(int(y / grid_height * GRID), last) if y > 0 else 0) * GRID
        for i in range(columns):
            x = x0 + (i + 0.5) / columns * width
            cell = cells.get(base + (min(int(x / grid_width * GRID), last) if x > 0 else 0))
            over, beneath = _at(cell, x, y, seq, tests)
            if over:
                covered += 1
            elif (
                beneath is None
                or (fills and _stands_out(fill, fill_alpha, beneath))
                or (strokes and _stands_out(stroke, stroke_alpha, beneath))
            ):
                shown += 1
                if shown > allowed:
                    return None
            else:
                white = white and is_white(beneath)
    if covered >= COVERED_SHARE * total:
        return "covered"
    if white and is_white(fill if fills else stroke):
        return "white"
    return "low_contrast"


def _image_share(page: PageContent) -> float:
    area = page.width * page.height
    if area <= 0:
        return 0.0
    covered = 0.0
    for image in page.images:
        x0, y0, x1, y1 = image.bbox
        w = min(x1, page.width) - max(x0, 0.0)
        h = min(y1, page.height) - max(y0, 0.0)
        if w > 0 and h > 0:
            covered += w * h
    return covered / area


def _reason(
    run: TextRun, look: Look, width: float, height: float, grid: _Grid | None, tests: _Tests
) -> str | None:
    """Why ``run`` is hidden, or ``None`` when a reader would see it (on a page ``width`` by
    ``height``)."""
    mode, _, _, fill_alpha, stroke_alpha, clip, layer_off, advance, glyphs = look
    if layer_off:
        return "layer_off"
    if mode == 3 or mode == 7:
        return "invisible"
    alpha = fill_alpha if mode in _FILLS else 0.0
    if mode in _STROKES and stroke_alpha > alpha:  # max(), without the call
        alpha = stroke_alpha
    if alpha <= CLEAR:
        return "transparent"
    size = run.size
    if size < MIN_VISIBLE_SIZE:
        return "tiny"
    cx = (run.x0 + run.x1) / 2
    cy = (run.y0 + run.y1) / 2
    if not (0 <= cx <= width and 0 <= cy <= height):
        return "off_page"
    if clip is not None and not (clip[0] <= cx <= clip[2] and clip[1] <= cy <= clip[3]):
        return "clipped"
    if run.direction != 1 and glyphs >= SQUEEZE_GLYPHS and advance < SQUEEZE_EM * size * glyphs:
        return "squeezed"
    if tests.left <= 0:
        return None  # past the page's area tests: read without judging what is around it
    return _painted_over(grid, run, look, tests)


#: The kinds of paint that are vector drawing (``PageContent.drawings``).
_VECTOR_PAINTS = ("fill", "stroke")


def sort_runs(
    page: PageContent,
    drawn: Iterable[tuple[TextRun, Look]],
    paints: Sequence[Paint],
    complete: bool,
) -> str | None:
    """Put each drawn run in ``page.runs`` or ``page.hidden``. ``complete``: ``paints`` holds
    every area painted; when it does not (past the interpreter's limit), what lies beneath
    or over text cannot be told, and such text is read. Returns the page's problem when its
    area tests ran out. Looks and paints are read by position: plain tuples in the fields'
    order (as the native interpreter hands them) read the same as :class:`Look` and
    :class:`Paint`."""
    grid = _Grid(page.width, page.height, paints) if complete else None
    page.drawings.extend(p[1] for p in paints if p[7] in _VECTOR_PAINTS)
    boxes = [image.bbox for image in page.images]
    scan: bool | None = None
    ocr_layer: list[TextRun] = []
    tests = _Tests()
    width, height, read = page.width, page.height, page.runs.append
    for run, look in drawn:
        reason = _reason(run, look, width, height, grid, tests)
        if reason is None:
            read(run)
            continue
        cx = (run.x0 + run.x1) / 2
        cy = (run.y0 + run.y1) / 2
        over_image = tests.spend(len(boxes)) and any(_inside(box, cx, cy) for box in boxes)
        if reason in _OCR_LAYER_REASONS and over_image:
            run.ocr_layer = True
            ocr_layer.append(run)
            continue
        if reason == "covered" and over_image:
            if scan is None:
                scan = _image_share(page) >= SCAN_SHARE
            if scan:
                run.ocr_layer = True
                ocr_layer.append(run)
                continue
        page.hidden.append(HiddenText(run.text, reason, (run.x0, run.y0, run.x1, run.y1)))
    # The OCR layer after the page's own text, as it was read before this module decided.
    page.runs.extend(ocr_layer)
    page.runs[:] = rejoin(page.runs)
    if tests.left >= 0:
        return None
    return (
        f"more than {MAX_AREA_TESTS} area tests for hidden text on the page; text past them "
        "was read without judging what lies beneath or over it, and invisible text was "
        "withheld without asking whether it is a scan's OCR layer"
    )
