"""Reading order: a recursive XY-cut over block boxes that gets column pages right.

At each level the region is first split into columns at vertical gutters. When a block
spans the gutter (a full-width title, figure caption or table), the region is first cut
horizontally just above and below each spanning block, and the bands between them are
ordered on their own; so a title over two columns, or a table between two column sections,
reads title -> left column -> right column -> table -> ..., never line by line across the
gutter.
"""

from __future__ import annotations

from .types import Block

#: Narrowest gap between columns, in points.
MIN_GUTTER = 6.0
#: A block wider than this share of its region may span columns.
WIDE_SHARE = 0.55
MAX_DEPTH = 24


def reading_order(blocks: list[Block]) -> list[Block]:
    out: list[Block] = []
    _order(blocks, out, 0)
    return out


def _order(blocks: list[Block], out: list[Block], depth: int) -> None:
    if len(blocks) <= 1 or depth > MAX_DEPTH:
        out.extend(sorted(blocks, key=lambda b: (b.y0, b.x0)))
        return
    columns = _split_columns(blocks)
    if columns is not None:
        for column in columns:
            _order(column, out, depth + 1)
        return
    bands = _split_at_spanning(blocks)
    if bands is None:
        bands = _split_rows(blocks)
    if bands is None:
        out.extend(sorted(blocks, key=lambda b: (b.y0, b.x0)))
        return
    for band in bands:
        _order(band, out, depth + 1)


def _gaps(intervals: list[tuple[float, float]], min_gap: float) -> list[float]:
    """Cut positions (gap centres) between the merged ``intervals``."""
    intervals.sort()
    cuts: list[float] = []
    end = intervals[0][1]
    for lo, hi in intervals[1:]:
        if lo - end >= min_gap:
            cuts.append((lo + end) / 2)
        end = max(end, hi)
    return cuts


def _split_columns(blocks: list[Block]) -> list[list[Block]] | None:
    cuts = _gaps([(b.x0, b.x1) for b in blocks], MIN_GUTTER)
    if not cuts:
        return None
    columns: list[list[Block]] = [[] for _ in range(len(cuts) + 1)]
    for block in blocks:
        centre = (block.x0 + block.x1) / 2
        k = sum(1 for c in cuts if centre > c)
        columns[k].append(block)
    return [c for c in columns if c]


def _split_at_spanning(blocks: list[Block]) -> list[list[Block]] | None:
    """Cut horizontally around the blocks that cross an otherwise clear gutter."""
    x0 = min(b.x0 for b in blocks)
    x1 = max(b.x1 for b in blocks)
    width = x1 - x0
    if width <= 0:
        return None
    narrow = [b for b in blocks if (b.x1 - b.x0) < WIDE_SHARE * width]
    if len(narrow) < 2 or len(narrow) == len(blocks):
        return None
    cuts = _gaps([(b.x0, b.x1) for b in narrow], MIN_GUTTER)
    if not cuts:
        return None
    spanning = [b for b in blocks if any(b.x0 < c < b.x1 for c in cuts)]
    if not spanning:
        return None
    spanning.sort(key=lambda b: b.y0)
    # Each spanning block is a band of its own; the others fall between them by position.
    bands: list[list[Block]] = []
    rest = sorted((b for b in blocks if b not in spanning), key=lambda b: b.y0)
    i = 0
    for span in spanning:
        above: list[Block] = []
        while i < len(rest) and (rest[i].y0 + rest[i].y1) / 2 < (span.y0 + span.y1) / 2:
            above.append(rest[i])
            i += 1
        if above:
            bands.append(above)
        bands.append([span])
    if i < len(rest):
        bands.append(rest[i:])
    return bands if len(bands) > 1 else None


def _split_rows(blocks: list[Block]) -> list[list[Block]] | None:
    cuts = _gaps([(b.y0, b.y1) for b in blocks], 0.5)
    if not cuts:
        return None
    bands: list[list[Block]] = [[] for _ in range(len(cuts) + 1)]
    for block in blocks:
        centre = (block.y0 + block.y1) / 2
        k = sum(1 for c in cuts if centre > c)
        bands[k].append(block)
    return [b for b in bands if b]
