"""Column boundaries from right-aligned numbers: the columns of a financial statement.

Numbers in a table are set flush right, so a column of them shares a right edge on every
row, while their left edges wander with their widths and a currency sign sits apart at the
column's left ("$  178"). Whitespace alone then misleads twice: the gap between a ``$`` and
its number looks like a column boundary, and two number columns set an em apart leave no
gap wider than a word space. The right edges settle both: a boundary goes right after each
number column's edge, so a ``$`` joins the number it precedes and the next column starts
fresh, however close.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pdfthin.layout.tables.cells import is_value

if TYPE_CHECKING:
    from pdfthin.layout.types import Line

#: Right edges this close (in ems) are one column's: wider than a closing parenthesis
#: hanging past the digits of a negative number, far narrower than a number column.
RIGHT_EDGE_EM = 0.5
#: A column of numbers has values on at least this many rows (as a table has rows).
MIN_VALUE_ROWS = 3
#: And on at least this share of the rows (a statement leaves a few rows to section labels
#: and wrapped labels; numbers that happen to end at one x here and there in a long run of
#: rows are no column).
VALUE_ROW_SHARE = 0.3
#: Runs closer than this (in ems) are one word drawn in pieces; a word space is wider.
TOUCH_EM = 0.1
#: A line alone on its row whose middle is within this many ems of the table's middle titles
#: the group of rows under it ("English", "Coding" across a paper's table): no column's text
#: here; ``tables.find._group_title`` asks more before it makes the line a row.
GROUP_CENTRE_EM = 1.0
_CURRENCY = re.compile(r"^[$€£¥]$")
Span = tuple[float, float, str]


def value_boundaries(
    rows: list[list[Line]],
    xs: list[float],
    em: float,
    seen: dict[tuple[int, float], list[Span]] | None = None,
) -> tuple[list[float], bool]:
    """``xs`` (whitespace boundaries with the table's left and right ends) corrected by the
    right-aligned number columns of ``rows``: no boundary inside a number column (between a
    ``$`` and its number), one in the gap before each (however narrow); and whether there
    are such columns (``xs`` itself when there are none). ``seen`` keeps each row's pieces
    (by the row's identity and ``em``) for the next call on overlapping rows."""
    if seen is None:
        pieces = [row_words(row, em) for row in rows]
    else:
        pieces = []
        for row in rows:
            key = (id(row), em)
            if key not in seen:
                seen[key] = row_words(row, em)
            pieces.append(seen[key])
    rights = _value_columns(pieces, em)
    if not rights:
        return xs, False
    tol = RIGHT_EDGE_EM * em
    lefts = [_column_left(pieces, right, tol) for right in rights]
    inner = [x for x in xs[1:-1] if not any(a < x < b for a, b in zip(lefts, rights, strict=True))]
    # A row of one piece centred across the table (a group's title, "English" over its
    # rows) divides no columns: the gap before a number column is the one its rows leave.
    middle = (xs[0] + xs[-1]) / 2
    divided = [
        row
        for row in pieces
        if len(row) != 1 or abs((row[0][0] + row[0][1]) / 2 - middle) > GROUP_CENTRE_EM * em
    ]
    for left in lefts:
        before = max((b for row in divided for _, b, _ in row if b <= left), default=xs[0])
        if not any(before <= x <= left for x in inner):
            inner.append((before + left) / 2)
    return [xs[0], *sorted(x for x in set(inner) if xs[0] < x < xs[-1]), xs[-1]], True


def row_words(row: list[Line], em: float) -> list[Span]:
    """The row's words as drawn, left to right: a line's runs, with runs that touch (a word
    drawn glyph by glyph) joined into one, unless the first ends in a space."""
    runs: list[tuple[float, float, str, bool]] = []
    for ln in row:
        if ln.spans:
            for a, b, t in ln.spans:
                if t.strip():
                    runs.append((a, b, t.strip(), t[-1:].isspace()))
        else:
            runs.append((ln.x0, ln.x1, ln.text, False))
    runs.sort()
    out: list[Span] = []
    spaced = False
    touch = TOUCH_EM * em
    for a, b, t, space in runs:
        if out and not spaced and a - out[-1][1] <= touch:
            pa, pb, pt = out[-1]
            out[-1] = (pa, b if b > pb else pb, pt + t)
        else:
            out.append((a, b, t))
        spaced = space
    return out


def _value_columns(pieces: list[list[Span]], em: float) -> list[float]:
    """Right edges shared by the numbers of enough rows, left to right."""
    edges: list[tuple[float, int]] = []
    for r, row in enumerate(pieces):
        for _, b, text in row:
            if _number(text):
                edges.append((b, r))
    need = max(MIN_VALUE_ROWS, VALUE_ROW_SHARE * len(pieces))
    edges.sort()
    tol = RIGHT_EDGE_EM * em
    out: list[float] = []
    cluster: list[tuple[float, int]] = []
    for edge in [*edges, (float("inf"), -1)]:
        if cluster and edge[0] - cluster[-1][0] > tol:
            if len({r for _, r in cluster}) >= need:
                # The digits' edge: the most common place (hanging parentheses lie past it).
                out.append(min(x for x, _ in cluster))
            cluster = []
        cluster.append(edge)
    return out


def _number(text: str) -> bool:
    """One number (a run holding several, set as one string, has no edge of its own)."""
    return " " not in text and is_value(text) and any(ch.isdigit() for ch in text)


def _column_left(pieces: list[list[Span]], right: float, tol: float) -> float:
    """Where the column of numbers ending at ``right`` begins: its widest number, or the
    currency sign set before one."""
    left = right
    for row in pieces:
        for i, (a, b, text) in enumerate(row):
            if abs(b - right) > tol or not _number(text):
                continue
            left = min(left, a)
            if i and _CURRENCY.match(row[i - 1][2]):
                left = min(left, row[i - 1][0])
    return left
