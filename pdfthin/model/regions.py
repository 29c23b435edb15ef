"""Regions of a text page that geometry cannot read reliably, each with a reason and a score.

A page whose text layer reads well may still hold a part that it does not give: glyphs without
a Unicode mapping, a picture of text (a scanned signature block, a chart pasted as an image),
a ruled grid the table stage gave up on, a chart or diagram drawn with vector paths and a few
labels. Such a region is reported (``regions_needing_review``) with its box on the page as
displayed, so that an agent knows to look at that region's image or send it to OCR.

Every region is judged from what the engine and the layout already hold (runs, image
placements, ruling lines, painted areas, the grids the table stage gave up on); nothing is read
again. Every threshold is in :class:`RegionSettings`, in the page's own units: shares of the
page's area, its body text size (the *em*), counts per square em.

A region's ``score`` (0..1) says how surely the measurement that flagged it passed its
threshold, as :mod:`.status` says how sure a page's status is: ``0.5`` at the threshold, ``1``
at the far end (the margin, the share of the way from the threshold to the far end, ``m``, gives
``0.5 + m / 2``). Regions below ``0.5`` are not reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdfthin.layout.headings import body_size
from pdfthin.layout.orientation import frame_size, from_frame

if TYPE_CHECKING:
    from pdfthin.engine import PageContent
    from pdfthin.layout import PageLayout

Box = tuple[float, float, float, float]

#: The reasons, a closed set.
UNMAPPED_TEXT = "unmapped_text"
IMAGE_OF_TEXT = "image_of_text"
TABLE_GRID_FAILED = "table_grid_failed"
VECTOR_DRAWING = "vector_drawing"
REASONS = (UNMAPPED_TEXT, IMAGE_OF_TEXT, TABLE_GRID_FAILED, VECTOR_DRAWING)

#: Characters a font gives that never stand for text: control characters (tab and line ends
#: aside), U+FFFD and private-use code points, as :mod:`.text` drops them (its soft hyphens and
#: zero-width characters are text formatting, not a failed mapping).
_UNREADABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffd\ue000-\uf8ff]")


@dataclass(frozen=True)
class RegionSettings:
    """Every threshold of region triage, each named once, in the page's own units."""

    #: Text size used as the em when the page has no body text (points).
    default_em: float = 10.0
    #: Regions closer than this (ems) are one region.
    join_em: float = 1.0
    #: At most this many regions per page (the surest kept).
    max_regions: int = 8
    #: A region this much of whose box lies in a surer one of the same reason is that one.
    same_share: float = 0.9
    # --- unmapped_text
    #: A run counts when it has at least this many unreadable characters (a single symbol-font
    #: bullet in the private-use area is not mojibake) ...
    unmapped_run_chars: int = 2
    #: ... making at least this share of its characters.
    unmapped_run_share: float = 0.3
    #: A region of such runs needs at least this many unreadable characters in all ...
    unmapped_min_chars: int = 6
    #: ... of at least this many different ones (one sign repeated is dot leaders or a rule
    #: drawn with a symbol font, not text).
    unmapped_min_distinct: int = 3
    #: Score 1 at this many unreadable characters.
    unmapped_full_chars: int = 60
    #: Glyphs whose font maps them to nothing (the engine leaves them out of the text and
    #: keeps where they were shown, ``PageContent.unmapped_boxes``): a region of them needs at
    #: least this many ...
    unmapped_min_glyphs: int = 6
    #: ... and scores 1 at this many.
    unmapped_full_glyphs: int = 60
    #: Such a region narrower than this (ems) is a column of marks, bullets down a list, not
    #: text.
    unmapped_min_width_em: float = 0.6
    # --- image_of_text
    #: Images smaller than this share of the page are left alone (logos, icons, photos of
    #: people in a byline).
    image_min_share: float = 0.04
    #: ... and images this large share of the page that is a scan: the page's status speaks.
    image_max_share: float = 0.5
    #: Fewer pixels than this on the image's shorter side cannot hold legible text ...
    image_min_pixels: int = 100
    #: ... nor can an image narrower than this on the page (ems): a coloured band or rule.
    image_min_ems: float = 3.0
    #: An image running across the page from edge to edge but this share of it (either way)
    #: is a background band or a tile of one (a page's ground is often set in strips).
    image_bleed: float = 0.02
    #: An image with this much text layer over it (characters per square em of its area) is
    #: a background or a scan with its OCR layer: its text is read.
    image_text_density: float = 0.05
    #: Score 1 at this share of the page.
    image_full_share: float = 0.3
    # --- table_grid_failed
    #: A grid given up on counts when it holds at least this many cells ...
    grid_min_cells: int = 6
    #: ... in at least this many columns (a stack of boxes is a form's, not a table's).
    grid_min_columns: int = 2
    #: Score 1 at this many cells.
    grid_full_cells: int = 40
    # --- vector_drawing
    #: Painted areas larger than this share of the page are backgrounds and frames.
    drawing_max_share: float = 0.25
    #: A cluster of drawing counts with at least this many painted areas and ruling lines ...
    drawing_min_paints: int = 40
    #: ... at least this density (per square em of its box) ...
    drawing_min_density: float = 0.1
    #: ... covering at least this share of the page ...
    drawing_min_share: float = 0.03
    #: ... and with text in it (labels), but no more than this many characters per square em
    #: of its box (a table or a form filled with text is read).
    drawing_max_text_density: float = 0.25
    #: Score 1 at this density of paints (per square em).
    drawing_full_density: float = 1.5
    #: A drawing this much of whose box the layout read as tables (or gave up on as a grid)
    #: is a table's ruling, read or reported as the grid it is.
    drawing_max_table_share: float = 0.5


SETTINGS = RegionSettings()


@dataclass(frozen=True)
class Region:
    """A part of a page that geometry cannot read reliably."""

    #: ``(x0, y0, x1, y1)`` in points, top-left origin, the page as displayed.
    box: Box
    reason: str
    score: float
    message: str


def find_regions(
    page: PageContent, layout: PageLayout, settings: RegionSettings = SETTINGS
) -> tuple[Region, ...]:
    """The page's regions needing review, surest first (at most ``settings.max_regions``)."""
    if page.width <= 0 or page.height <= 0 or not page.runs:
        return ()
    em = body_size([layout]) or settings.default_em
    found = [
        *_unmapped(page, em, settings),
        *_images(page, em, settings),
        *_grids(layout, settings),
        *_drawings(page, layout, em, settings),
    ]
    found.sort(key=lambda r: (-r.score, r.box[1], r.box[0], r.reason))
    kept: list[Region] = []
    for region in found:
        # The same picture placed again over itself (a banner drawn in layers) is one region.
        size = _area(region.box)
        if not any(
            k.reason == region.reason and _overlap(k.box, region.box) >= settings.same_share * size
            for k in kept
        ):
            kept.append(region)
    return tuple(kept[: settings.max_regions])


def unreadable_count(text: str) -> int:
    """Characters of ``text`` that a font gave without a Unicode mapping."""
    return len(_UNREADABLE.findall(text))


def _score(margin: float) -> float:
    return round(0.5 + max(0.0, min(1.0, margin)) / 2, 2)


def _margin(value: float, threshold: float, full: float) -> float:
    return (value - threshold) / (full - threshold) if full > threshold else 1.0


def _rounded(box: Box) -> Box:
    x0, y0, x1, y1 = (round(v, 1) for v in box)
    return x0, y0, x1, y1


def _area(box: Box) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _clusters(boxes: Sequence[tuple[Box, int]], gap: float) -> list[tuple[Box, int]]:
    """Boxes closer than ``gap`` joined (their boxes' union, their weights summed), top to
    bottom. A sweep down the page: each box joins the clusters still open that it comes
    within ``gap`` of; a cluster ends when the sweep passes ``gap`` below it."""
    done: list[list[float]] = []
    open_: list[list[float]] = []
    for box, weight in sorted(boxes, key=lambda b: b[0][1]):
        x0, y0, x1, y1 = box
        still: list[list[float]] = []
        for c in open_:
            (done if c[3] + gap < y0 else still).append(c)
        open_ = still
        into: list[float] | None = None
        kept: list[list[float]] = []
        for c in open_:
            if c[0] - gap <= x1 and x0 <= c[2] + gap and c[1] - gap <= y1 and y0 <= c[3] + gap:
                if into is None:
                    into = c
                    c[0], c[1], c[2], c[3] = (
                        min(c[0], x0),
                        min(c[1], y0),
                        max(c[2], x1),
                        max(c[3], y1),
                    )
                    c[4] += weight
                else:  # the box bridges two clusters: one
                    into[0], into[1] = min(into[0], c[0]), min(into[1], c[1])
                    into[2], into[3] = max(into[2], c[2]), max(into[3], c[3])
                    into[4] += c[4]
                    continue
            kept.append(c)
        if into is None:
            kept.append([x0, y0, x1, y1, float(weight)])
        open_ = kept
    out = [((c[0], c[1], c[2], c[3]), int(c[4])) for c in done + open_]
    out.sort(key=lambda c: (c[0][1], c[0][0]))
    return out


def _text_chars(page: PageContent, box: Box) -> int:
    """Characters of the page's text runs whose centre lies in ``box``."""
    x0, y0, x1, y1 = box
    return sum(
        len(r.text.strip())
        for r in page.runs
        if x0 <= (r.x0 + r.x1) / 2 <= x1 and y0 <= (r.y0 + r.y1) / 2 <= y1
    )


# --- the four reasons -----------------------------------------------------------------------------


def _unmapped(page: PageContent, em: float, s: RegionSettings) -> Iterable[Region]:
    yield from _unmapped_glyphs(page, em, s)
    bad: list[tuple[Box, int]] = []
    signs: list[tuple[Box, set[str]]] = []
    for run in page.runs:
        found = _UNREADABLE.findall(run.text)
        n = len(found)
        if n >= s.unmapped_run_chars and n >= s.unmapped_run_share * len(run.text.strip()):
            box = (run.x0, run.y0, run.x1, run.y1)
            bad.append((box, n))
            signs.append((box, set(found)))
    if not bad:
        return
    for box, n in _clusters(bad, s.join_em * em):
        if n < s.unmapped_min_chars:
            continue
        distinct = set().union(*(found for b, found in signs if _overlap(b, box) > 0))
        if len(distinct) < s.unmapped_min_distinct:
            continue
        yield _unmapped_region(
            box, n, s.unmapped_min_chars, s.unmapped_full_chars, "private-use or control characters"
        )


def _unmapped_glyphs(page: PageContent, em: float, s: RegionSettings) -> Iterable[Region]:
    """Where glyphs with no Unicode mapping at all were shown (none of them is in the text),
    joined like the runs of unreadable characters, counted in glyphs."""
    shown: list[tuple[Box, int]] = []
    for found, n in page.unmapped_boxes:
        box = _on_page(found, page)
        if box[0] < box[2] and box[1] < box[3]:  # on the page
            shown.append((box, n))
    for box, n in _clusters(shown, s.join_em * em):
        if n < s.unmapped_min_glyphs or box[2] - box[0] < s.unmapped_min_width_em * em:
            continue
        yield _unmapped_region(
            box,
            n,
            s.unmapped_min_glyphs,
            s.unmapped_full_glyphs,
            "their font maps them to no character",
        )


def _unmapped_region(box: Box, n: int, least: int, full: int, why: str) -> Region:
    """An ``unmapped_text`` region of ``n`` glyphs, surer from ``least`` glyphs to ``full``."""
    return Region(
        _rounded(box),
        UNMAPPED_TEXT,
        _score(_margin(n, least, full)),
        f"{n} glyphs have no Unicode mapping ({why})",
    )


def _on_page(box: Box, page: PageContent) -> Box:
    """``box`` clipped to the page (empty when it lies off the page)."""
    x0, y0, x1, y1 = box
    return (max(0.0, x0), max(0.0, y0), min(page.width, x1), min(page.height, y1))


def _images(page: PageContent, em: float, s: RegionSettings) -> Iterable[Region]:
    area = page.width * page.height
    for image in page.images:
        box = _on_page(image.bbox, page)
        share = _area(box) / area
        if not s.image_min_share <= share < s.image_max_share:
            continue
        if min(image.width, image.height) < s.image_min_pixels:
            continue
        if min(box[2] - box[0], box[3] - box[1]) < s.image_min_ems * em:
            continue
        if _bleeds(box, page.width, page.height, s.image_bleed):
            continue
        chars = _text_chars(page, box)
        if chars > s.image_text_density * _area(box) / (em * em):
            continue
        yield Region(
            _rounded(box),
            IMAGE_OF_TEXT,
            _score(_margin(share, s.image_min_share, s.image_full_share)),
            (
                f"an image ({image.width}×{image.height} px, {round(share * 100)}% of the page) "
                f"with {'no' if not chars else 'little'} text layer over it"
            ),
        )


#: Why a grid was given up on, as reported; a grid whose cells are mostly empty is a form's
#: boxes far more often than a table (its labels are read as text), and is not reported.
def _bleeds(box: Box, width: float, height: float, margin: float) -> bool:
    """Whether ``box`` runs across the page from one edge to the other (but ``margin`` of it)."""
    across = box[0] <= margin * width and box[2] >= (1 - margin) * width
    down = box[1] <= margin * height and box[3] >= (1 - margin) * height
    return across or down


_GRID_WHY = {
    "sparse": "text in few of its rows (a chart's gridlines?)",
    "no_cells": "no two rows of two filled cells",
}


def _grids(layout: PageLayout, s: RegionSettings) -> Iterable[Region]:
    for grid in layout.failed_grids:
        cells = grid.rows * grid.columns
        if grid.why not in _GRID_WHY or cells < s.grid_min_cells:
            continue
        if grid.columns < s.grid_min_columns:
            continue
        yield Region(
            _rounded(grid.box),
            TABLE_GRID_FAILED,
            _score(_margin(cells, s.grid_min_cells, s.grid_full_cells)),
            (
                f"a ruled grid of {grid.rows}×{grid.columns} cells not read as a table: "
                f"{_GRID_WHY[grid.why]}"
            ),
        )


def _drawings(
    page: PageContent, layout: PageLayout, em: float, s: RegionSettings
) -> Iterable[Region]:
    area = page.width * page.height
    if len(page.drawings) + len(page.rules) < s.drawing_min_paints:
        return
    largest = s.drawing_max_share * area
    # A table's own ruling (read, or reported as the grid it is) is left out.
    read = [g.box for g in layout.failed_grids] + _table_boxes(layout)
    shapes = [
        box
        for box in (*page.drawings, *page.rules)
        if (box[2] - box[0]) * (box[3] - box[1]) <= largest
    ]
    boxes = [(box, 1) for box in shapes if not read or not _centre_in(box, read)]
    if len(boxes) < s.drawing_min_paints:
        return
    for box, n in _clusters(boxes, s.join_em * em):
        if n < s.drawing_min_paints:
            continue
        size = _area(box)
        if size < s.drawing_min_share * area:
            continue
        ems = size / (em * em)
        density = n / ems
        if density < s.drawing_min_density:
            continue
        # Labels stand beside a drawing as often as in it (axis labels, a diagram's caption).
        gap = s.join_em * em
        chars = _text_chars(page, (box[0] - gap, box[1] - gap, box[2] + gap, box[3] + gap))
        if not chars or chars > s.drawing_max_text_density * ems:
            continue
        if sum(_overlap(box, t) for t in read) >= s.drawing_max_table_share * size:
            continue
        yield Region(
            _rounded(box),
            VECTOR_DRAWING,
            _score(_margin(density, s.drawing_min_density, s.drawing_full_density)),
            f"a vector drawing ({n} painted shapes) with {chars} characters of labels",
        )


def _centre_in(box: Box, boxes: Sequence[Box]) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in boxes)


def _overlap(a: Box, b: Box) -> float:
    return _area((max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])))


def _table_boxes(layout: PageLayout) -> list[Box]:
    """The boxes of the page's table blocks, on the page as displayed."""
    boxes = [(b.x0, b.y0, b.x1, b.y1) for b in layout.blocks if b.kind == "table"]
    if layout.turn:
        width, height = frame_size(layout.turn, layout.width, layout.height)
        boxes = [from_frame(b, layout.turn, width, height) for b in boxes]
    return boxes
