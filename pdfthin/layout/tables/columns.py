"""Column boundaries from whitespace: x ranges that stay clear down the rows of a table.

A boundary needs two kinds of evidence: few rows have text across it (a spanning header or
a row set as one string may), and several rows have text on both sides of it, in separate
pieces. Ragged right edges of wrapped text leave clear ranges too, but never pieces on both
sides of them on one baseline.
"""

from __future__ import annotations

Span = tuple[float, float]

#: Share of the rows that may run across a boundary (spanning headers, merged strings).
CROSSING_SHARE = 0.2
#: Rows with pieces on both sides of a boundary: at least this many, and this share of rows.
MIN_SPLIT_ROWS = 2
SPLIT_SHARE = 0.3


def whitespace_boundaries(
    rows: list[list[Span]], lo: float, hi: float, min_gap: float
) -> list[float]:
    """x positions (inside ``(lo, hi)``) that separate columns of ``rows``, each row being
    the x extents of its pieces, left to right."""
    rows = [
        [(lo if lo > a else a, hi if hi < b else b) for a, b in row if b > lo and a < hi]
        for row in rows
    ]
    rows = [row for row in rows if row]
    n = len(rows)
    if n < 2:
        return []
    allow = int(CROSSING_SHARE * n)
    events: list[tuple[float, int]] = []
    for row in rows:
        for a, b in row:
            events.append((a, 1))
            events.append((b, -1))
    events.sort()
    gaps: list[Span] = []
    depth = 0
    start: float | None = None
    left = events[0][0]
    right = max(b for row in rows for _, b in row)
    for x, delta in events:
        before = depth
        depth += delta
        if before > allow >= depth and x < right:
            start = x
        elif before <= allow < depth and start is not None:
            if x - start >= min_gap and start > left:
                gaps.append((start, x))
            start = None
    out = []
    need = max(MIN_SPLIT_ROWS, SPLIT_SHARE * n)
    for g0, g1 in gaps:
        mid = (g0 + g1) / 2
        both = sum(1 for row in rows if _split_at(row, g0, g1))
        if both >= need:
            out.append(mid)
    return out


def _split_at(row: list[Span], g0: float, g1: float) -> bool:
    """The row has a piece ending by ``g0``'s side and another starting after ``g1``'s."""
    mid = (g0 + g1) / 2
    ends = starts = False
    for a, b in row:
        if a < mid < b:
            return False  # a piece runs across
        ends = ends or b <= mid
        starts = starts or a >= mid
    return ends and starts
