"""Line numbers in a page's margin: ruled legal paper (a pleading's 1 to 28 down its left edge),
a bill's or a transcript's numbered lines.

A number stands at the start of the line of text on its baseline ("12 argument before the
Supreme Court"): that is how such a page is read and cited. Set a few ems out in the margin,
apart from its line, it was a paragraph of its own, "3", "6", "9" between the sentences or 26
of them before a filing's text; it joins its line now. A number with no text on its
baseline (a numbered line left blank) is the paper's, not the text's: it is left out of the
body. Only a column that is plainly one is read so: a run of consecutive numbers, one under
another at one pitch, aligned at one edge, in the margin with no text further out.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass
from statistics import median
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pdfthin.layout.types import Line

#: A column of margin line numbers holds at least this many numbers (one per line of a page
#: of text: a short list of numbers is a table's or a list's).
MIN_LINE_NUMBERS = 8
#: The numbers line up at their right (or left) edge within this many ems of their size (a
#: digit or two: a font's widths may be off, and the pitch and the count are strict).
ALIGN_EM = 1.0
#: Successive numbers stand one pitch apart (per number they step) within this share of it:
#: ruled paper numbers its lines at one pitch.
PITCH_TOLERANCE = 0.1
#: At least this share of the steps between successive numbers in the column is +1 (a
#: number the producer drew elsewhere or twice may break the count now and then).
CONSECUTIVE_SHARE = 0.8

_NUMBER = re.compile(r"^\d{1,3}$")
_LEADING = re.compile(r"^(\d{1,3})\s")


@dataclass(frozen=True, slots=True)
class _Mark:
    value: int
    x0: float
    x1: float
    y: float  # the middle of its height
    size: float
    line: Line
    #: Where the text after the number starts, when the number starts a line of text;
    #: ``None`` when the line is the number alone.
    glued: float | None


@dataclass(frozen=True, slots=True)
class NumberColumn:
    """A page's column of margin line numbers: the lines that are a number alone, and the
    side of the text they stand on (``left``: in the left margin)."""

    alone: list[Line]
    left: bool
    #: Where the text starts on each line drawn with its number (by ``id``), as its pieces
    #: said before they were let go.
    glued: dict[int, float]
    #: The numbers' right edge, and the middles of the top and bottom ones: a line of text
    #: starting left of that edge between them starts with one of the column's numbers.
    right: float
    top: float
    bottom: float


def find_line_numbers(lines: list[Line]) -> NumberColumn | None:
    """The margin's column of line numbers among ``lines`` (a page's, its tables' taken
    out: a column of row numbers is a table's; their pieces still known, ``Line.spans``),
    when it has numbers standing alone; ``None`` when there is no such column."""
    marks = [m for ln in lines if (m := _mark(ln)) is not None]
    column = _column(marks) if len(marks) >= MIN_LINE_NUMBERS else None
    if column is None:
        return None
    alone = {id(m.line) for m in column if m.glued is None}
    if not alone:
        return None
    lo = min(m.x0 for m in column)
    hi = max(m.x1 for m in column)
    top = min(m.y for m in column)
    bottom = max(m.y for m in column)
    # In the margin: no other line of the page starts further out than the column, and none
    # beside it (over its height) reaches into it, but past a number that starts it.
    starts = {id(m.line): m.glued for m in column if m.glued is not None}
    others = [ln for ln in lines if id(ln) not in alone]
    left = all(
        ln.x0 >= lo - ALIGN_EM * ln.size
        and (starts.get(id(ln), ln.x0) >= hi or not top <= (ln.y0 + ln.y1) / 2 <= bottom)
        for ln in others
    )
    right = all(
        ln.x1 <= hi + ALIGN_EM * ln.size
        and (ln.x1 <= lo or not top <= (ln.y0 + ln.y1) / 2 <= bottom)
        for ln in others
    )
    if not (left or right):
        return None
    alone_lines = [m.line for m in column if m.glued is None]
    return NumberColumn(alone_lines, left, starts, hi, top, bottom)


def place_line_numbers(lines: list[Line], column: NumberColumn) -> tuple[list[Line], list[Line]]:
    """``lines`` (a page's rows, each row's pieces one line: "a)" and its item's text) with
    each of ``column``'s lone numbers in the left margin joined to the start of the line of
    text on its baseline (changed in place), and the numbers with no text on their
    baselines (blank lines) left out; and those, top to bottom. A number in the right
    margin is a row's last value: ``rejoin_rows`` has put it at its line's end already, and
    only the numbers of blank lines are left to leave out. A line that starts with a number
    of the column, joined here or drawn with it, knows where its text starts
    (``Line.text_start``)."""
    present = {id(ln) for ln in lines}
    alone = [ln for ln in column.alone if id(ln) in present]  # (not joined to a row yet)
    ids = {id(ln) for ln in alone}
    others = [ln for ln in lines if id(ln) not in ids]
    numbered = {id(ln) for ln in others if _LEADING.match(ln.text.strip())}
    if column.left:
        for ln in others:
            if id(ln) in numbered and _in_column(ln, column):
                ln.text_start = _text_start(ln, column)
    rows = _Rows(others)
    left_out: list[Line] = []
    for number in alone:
        line = _on_baseline(number, rows, numbered) if column.left else None
        if line is None:
            left_out.append(number)
            continue
        numbered.add(id(line))
        _join(number, line)
    return others, sorted(left_out, key=lambda ln: ln.y0)


def _in_column(line: Line, column: NumberColumn) -> bool:
    """Whether ``line``, starting with a number, starts with one of ``column``'s: left of
    its numbers' right edge, its middle between the top and bottom ones (within half its
    height)."""
    half = (line.y1 - line.y0) / 2
    return line.x0 < column.right and column.top - half <= _middle(line) <= column.bottom + half


def _text_start(line: Line, column: NumberColumn) -> float:
    """Where the text of ``line``, starting with one of ``column``'s numbers, starts."""
    start = column.glued.get(id(line))
    if start is not None:
        return start
    if len(line.spans) >= 2:  # a row rejoined from its pieces: the number, then the text
        return line.spans[1][0]
    return column.right


class _Rows:
    """Lines by the middle of their height, to find those level with a number without
    looking at every line of the page for each (a page may number thousands)."""

    def __init__(self, lines: list[Line]) -> None:
        self.lines = sorted(lines, key=_middle)
        self.middles = [_middle(ln) for ln in self.lines]
        self.reach = max((ln.y1 - ln.y0 for ln in lines), default=0.0) / 2

    def level_with(self, line: Line) -> list[Line]:
        """The lines whose middles lie within half the tallest line's height of ``line``'s
        box: every line that can overlap it by half the smaller height."""
        lo = bisect.bisect_left(self.middles, line.y0 - self.reach)
        hi = bisect.bisect_right(self.middles, line.y1 + self.reach)
        return self.lines[lo:hi]


def _middle(line: Line) -> float:
    return (line.y0 + line.y1) / 2


def _on_baseline(number: Line, rows: _Rows, taken: set[int]) -> Line | None:
    """The line of text on ``number``'s baseline (the two overlap by half the smaller
    height) nearest right of it, unless it starts with a number already."""
    best: Line | None = None
    for line in rows.level_with(number):
        if id(line) in taken or line.x0 <= number.x1:
            continue
        overlap = min(line.y1, number.y1) - max(line.y0, number.y0)
        if overlap < 0.5 * min(line.y1 - line.y0, number.y1 - number.y0):
            continue
        if best is None or line.x0 < best.x0:
            best = line
    return best


def _join(number: Line, line: Line) -> None:
    """``line`` with ``number`` at its start."""
    text = number.text.strip()
    line.text_start = line.x0
    line.text = f"{text} {line.text}"
    line.spans = ((number.x0, number.x1, text), *line.spans) if line.spans else ()
    line.x0 = min(line.x0, number.x0)
    line.y0 = min(line.y0, number.y0)
    line.y1 = max(line.y1, number.y1)
    line.seq = min(line.seq, number.seq)


def _mark(line: Line) -> _Mark | None:
    """The line number a line is, or starts with (its first piece, by ``Line.spans``)."""
    text = line.text.strip()
    middle = (line.y0 + line.y1) / 2
    if _NUMBER.match(text):
        return _Mark(int(text), line.x0, line.x1, middle, line.size, line, None)
    m = _LEADING.match(text)
    if m is None or len(line.spans) < 2:
        return None
    x0, x1, piece = line.spans[0]
    if piece.strip() != m.group(1):
        return None  # the number is not a piece of its own ("12th", a joined word)
    return _Mark(int(m.group(1)), x0, x1, middle, line.size, line, line.spans[1][0])


def _column(marks: list[_Mark]) -> list[_Mark] | None:
    """The longest run of numbers aligned at one edge (right, else left), one under
    another, counting up one by one at one pitch; ``None`` when none is long enough."""
    best: list[_Mark] | None = None
    for edge in (_right, _left):
        ordered = sorted(marks, key=edge)
        start = 0
        for end in range(1, len(ordered) + 1):
            if end < len(ordered) and (
                edge(ordered[end]) - edge(ordered[start]) <= ALIGN_EM * ordered[end].size
            ):
                continue
            found = _counting(ordered[start:end])
            if found is not None and (best is None or len(found) > len(best)):
                best = found
            start = end
    return best


def _right(mark: _Mark) -> float:
    return mark.x1


def _left(mark: _Mark) -> float:
    return mark.x0


def _counting(group: list[_Mark]) -> list[_Mark] | None:
    """``group`` top to bottom when it counts up one by one at one pitch (enough of it)."""
    if len(group) < MIN_LINE_NUMBERS:
        return None
    column = sorted(group, key=lambda m: m.y)
    steps = [(b.value - a.value, b.y - a.y) for a, b in itertools.pairwise(column)]
    if any(dv <= 0 for dv, _ in steps):
        return None
    if sum(1 for dv, _ in steps if dv == 1) < CONSECUTIVE_SHARE * len(steps):
        return None
    pitches = [dy / dv for dv, dy in steps]
    pitch = median(pitches)
    if pitch <= 0 or any(abs(p - pitch) > PITCH_TOLERANCE * pitch for p in pitches):
        return None
    return column
