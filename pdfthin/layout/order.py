"""Reading order: a recursive XY-cut over block boxes that gets column pages right.

At each level the region is first split into columns at vertical gutters. When a block
spans the gutter (a full-width title, figure caption or table), the region is first cut
horizontally just above and below each spanning block, and the bands between them are
ordered on their own; so a title over two columns, or a table between two column sections,
reads title -> left column -> right column -> table -> ..., never line by line across the
gutter.
"""

from __future__ import annotations

import itertools

from pdfthin.layout.blocks import size_weights, summarise
from pdfthin.layout.lines import COLUMN_LINE_EM, GUTTER_MIN_ROWS
from pdfthin.layout.types import Block, Line

#: Narrowest gap between columns, in points.
MIN_GUTTER = 6.0
MAX_DEPTH = 24


def reading_order(blocks: list[Block]) -> list[Block]:
    """The page's blocks in reading order.

    Most producers draw text in reading order; when the order in which the page draws its
    substantial blocks agrees with the geometric (XY-cut) order, that drawing order is kept
    for every block, so small pieces (figure labels, equations, footnote marks) stay where
    the author put them. When it disagrees (text boxes, columns drawn row by row), geometry
    decides.
    """
    out: list[Block] = []
    _order(blocks, out, 0)
    if _stream_agrees(out) and not _drawn_across(out):
        return _head_first(sorted(_split_interleaved(out), key=lambda b: b.seq), out)
    return out


#: A block set this many times the size of the page's body text (the size most of its
#: characters have) is in large type (a title, a heading).
LARGE_TYPE = 1.2


def _head_first(drawn: list[Block], geometric: list[Block]) -> list[Block]:
    """``drawn`` (the page's blocks in drawing order) with its head first when the page drew
    it last: a block in large type above everything drawn before it (a title drawn after
    the text it heads), with what was drawn after it above that text (its byline), in
    the ``geometric`` order (columns read one after the other: what goes first may be a
    whole page of columns when only a footer was drawn before the title)."""
    weights = size_weights(line for b in geometric for line in b.lines)
    if not weights:
        return drawn
    large = LARGE_TYPE * max(weights.items(), key=lambda kv: (kv[1], kv[0]))[0]
    floor = float("inf")  # the top of what was drawn so far (kept as it goes: linear)
    for k, block in enumerate(drawn):
        if k and block.size > large and block.kind != "table" and block.y1 <= floor:
            # (a drawn block may be a piece of a geometric one: its first line places it)
            place = {id(line): i for i, line in enumerate(ln for b in geometric for ln in b.lines)}
            head = sorted(
                (b for b in drawn[k:] if b.y1 <= floor), key=lambda b: place[id(b.lines[0])]
            )
            ids = {id(b) for b in head}
            return head + [b for b in drawn if id(b) not in ids]
        floor = min(floor, block.y0)
    return drawn


#: Share of the line-to-line steps inside multi-line blocks that the drawing order may take
#: through a block beside them (same height, across a gap) and still be the reading order.
#: Beyond it the page draws rows across its columns, and following it reads across the gutter.
ACROSS_TOLERANCE = 0.5
#: A row drawn across columns puts at most this many lines between two lines of one column
#: (one per other column); a longer stretch is something else, and is not looked through
#: (which also keeps the check linear on a crowded page).
MAX_ACROSS_LINES = 8


def _drawn_across(geometric: list[Block]) -> bool:
    """Whether the drawing order goes row by row across blocks set side by side: between two
    consecutive lines of a block it draws a line of another block beside them."""
    lines = [(line, k) for k, b in enumerate(geometric) for line in b.lines]
    ranked = sorted(range(len(lines)), key=lambda i: lines[i][0].seq)
    rank = {id(lines[i][0]): r for r, i in enumerate(ranked)}
    by_rank = [lines[i] for i in ranked]
    steps = across = 0
    for k, block in enumerate(geometric):
        if block.kind == "table" or len(block.lines) < 2:
            continue
        for prev, line in itertools.pairwise(block.lines):
            steps += 1
            start, end = rank[id(prev)] + 1, rank[id(line)]
            if end - start > MAX_ACROSS_LINES:
                continue
            between = by_rank[start:end]
            others = [other for other, j in between if j != k]
            across += bool(others) and all(
                _beside(prev, other) or _beside(line, other) for other in others
            )
    return across >= GUTTER_MIN_ROWS and across > ACROSS_TOLERANCE * steps


def _beside(line: Line, other: Line) -> bool:
    """``other`` sits at ``line``'s height, left or right of it, and both are lines of running
    text: a table's or a contents page's columns are read row by row, as drawn (without this
    condition seven corpus files were reordered, a contents page and forms among them; with
    it none is)."""
    if not (_running(line) and _running(other)):
        return False
    overlap = min(line.y1, other.y1) - max(line.y0, other.y0)
    apart = other.x0 >= line.x1 or other.x1 <= line.x0
    return apart and overlap > 0.5 * min(line.y1 - line.y0, other.y1 - other.y0)


def _split_interleaved(blocks: list[Block]) -> list[Block]:
    """In drawing order, a block whose lines the page drew with other text in between (a
    matrix's rows and the sentence under it, a formula over its figure's labels) splits
    where that happened, so what was drawn between them can go there."""
    # Lines drawn at one position (or with no drawing order at all) keep geometric order.
    geometric = [line for b in blocks for line in b.lines]
    ranked = sorted(range(len(geometric)), key=lambda i: geometric[i].seq)
    rank = {id(geometric[i]): r for r, i in enumerate(ranked)}
    out: list[Block] = []
    for block in blocks:
        if block.kind == "table" or len(block.lines) < 2:
            out.append(block)
            continue
        piece = [block.lines[0]]
        for prev, line in itertools.pairwise(block.lines):
            if rank[id(line)] != rank[id(prev)] + 1:
                out.append(_block_of(piece, block))
                piece = []
            piece.append(line)
        out.append(block if len(piece) == len(block.lines) else _block_of(piece, block))
    return out


def _running(line: Line) -> bool:
    return line.x1 - line.x0 >= COLUMN_LINE_EM * (line.size or 1.0)


def _block_of(lines: list[Line], like: Block) -> Block:
    block = Block(
        lines,
        min(line.x0 for line in lines),
        min(line.y0 for line in lines),
        max(line.x1 for line in lines),
        max(line.y1 for line in lines),
        like.size,
        like.bold,
    )
    summarise(block)
    return block


#: Share of pairs of substantial blocks whose drawing order may disagree with geometry.
STREAM_TOLERANCE = 0.05


def _stream_agrees(geometric: list[Block]) -> bool:
    big = [b for b in geometric if len(b.lines) >= 2 or b.chars >= 40]
    if len(big) < 2:
        return True
    seqs = [b.seq for b in big]
    pairs = len(seqs) * (len(seqs) - 1) // 2
    return _inversions(seqs) <= STREAM_TOLERANCE * pairs


def _inversions(values: list[int]) -> int:
    """Pairs ``i < j`` with ``values[i] > values[j]``, counted while merge-sorting (the square
    of the number of blocks, counted pair by pair, is too slow for a crowded page)."""
    count = 0
    width = 1
    items = list(values)
    n = len(items)
    while width < n:
        merged: list[int] = []
        for lo in range(0, n, 2 * width):
            left = items[lo : lo + width]
            right = items[lo + width : lo + 2 * width]
            i = j = 0
            while i < len(left) and j < len(right):
                if left[i] > right[j]:
                    merged.append(right[j])
                    count += len(left) - i
                    j += 1
                else:
                    merged.append(left[i])
                    i += 1
            merged.extend(left[i:])
            merged.extend(right[j:])
        items = merged
        width *= 2
    return count


def _order(blocks: list[Block], out: list[Block], depth: int) -> None:
    if len(blocks) <= 1 or depth > MAX_DEPTH:
        out.extend(sorted(blocks, key=lambda b: (b.y0, b.x0)))
        return
    columns = _split_columns(blocks)
    if columns is not None and not _staggered(blocks, columns):
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


def _staggered(blocks: list[Block], columns: list[list[Block]]) -> bool:
    """Whether the ``columns`` are no columns but blocks set one below another, to the left
    and right in turn: the page cuts into rows, each holding blocks of one side only (a
    letter's sender at the top right over the addressee at the left, a chat's messages).
    Columns of a page stand side by side: some row holds both."""
    bands = _split_rows(blocks)
    if bands is None or len(bands) < 2:
        return False
    side = {id(b): k for k, column in enumerate(columns) for b in column}
    return all(len({side[id(b)] for b in band}) == 1 for band in bands)


def _split_at_spanning(blocks: list[Block]) -> list[list[Block]] | None:
    """Cut horizontally around the few blocks that cross an otherwise clear gutter.

    The gutter is the x position crossed by the least text while leaving a fair share of
    the text on each side; the blocks that do cross it (titles, running headers, wide
    figures) become bands of their own.
    """
    best: tuple[int, float, float] | None = None  # (crossing blocks, -balance, x)
    half = MIN_GUTTER / 2
    spans = [(b.x0, b.x1, _mass(b)) for b in blocks]
    for x in sorted({b.x1 + half for b in blocks}):
        left = right = 0.0
        crossing = 0
        lo = x - half
        hi = x + half
        for x0, x1, mass in spans:
            if x1 <= lo:
                left += mass
            elif x0 >= hi:
                right += mass
            else:
                crossing += 1
        # Each side must hold a fair share of the text that does not cross; the crossing
        # blocks (titles, captions, wide figures) may be large but must be few.
        side = left + right
        if side <= 0 or min(left, right) < 0.15 * side or crossing > len(blocks) // 2:
            continue
        candidate = (crossing, -min(left, right), x)
        if best is None or candidate < best:
            best = candidate
    if best is None:
        return None
    cut = best[2]
    spanning = sorted(
        (b for b in blocks if b.x0 < cut + MIN_GUTTER / 2 and b.x1 > cut - MIN_GUTTER / 2),
        key=lambda b: b.y0,
    )
    if not spanning:
        return None
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


def _mass(block: Block) -> float:
    return max(block.y1 - block.y0, 1.0) * max(len(block.lines), 1)


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
