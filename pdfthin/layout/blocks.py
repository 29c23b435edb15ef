"""Lines -> blocks: consecutive lines of one paragraph (close below each other, overlapping
horizontally, same size and weight) become one block.

Before that, ``rejoin_rows`` puts back together the pieces of one row that ``build_lines``
split at wide gaps and that table detection did not take: a row label and its values stay
on one line, unless a column of text lies right of the gap (the gutter of a page set in
columns).
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Iterable
from dataclasses import replace

from pdfthin.engine.content.bidi import mostly_rtl
from pdfthin.layout.lines import (
    BULLET_MARK,
    ENUM_MARK,
    GUTTER_MIN_ROWS,
    LABEL_MAX_EM,
    NOTE_SIGNS,
    TOC_LEADER,
    form_label,
    measure_broke,
    monospace_share,
)
from pdfthin.layout.tables.cells import values, wordy
from pdfthin.layout.types import Block, Line

#: Largest vertical gap between two lines of one block, in ems of the text size.
LINE_GAP_EM = 0.75
#: Font sizes within this ratio belong to the same block.
SIZE_TOLERANCE = 0.12

# A page set one and a half or double spaced (reports, theses, court filings) leaves more
# than LINE_GAP_EM between the lines of its paragraphs: every line was a paragraph of its
# own. Its own spacing is measured instead, on the lines the measure broke (a full line,
# the next one, full too, going on under it): their gaps, at the page's body size, agree,
# and past LINE_GAP_EM the next line after a full one goes on its paragraph at up to that
# gap. A short line still ends its paragraph, as it does at any spacing.
#: The page's spacing is told from at least this many pairs of lines at its body size...
WIDE_MIN_PAIRS = 5
#: ... at least this share of them within WIDE_SLACK_EM of their median gap ...
WIDE_AGREE_SHARE = 0.7
#: ... (a superscript or an accent taller than the line's letters narrows a gap that much) ...
WIDE_SLACK_EM = 0.15
#: ... which is at most this many ems (triple spacing): further apart, lines are not read on.
WIDE_MAX_GAP_EM = 2.0
#: A full line is at least this many ems long: a list's or a table's short lines, as long
#: as one another, fill no measure but their own ...
WIDE_MIN_MEASURE_EM = 15.0
#: ... and sets at least this many characters an em, as running text does (about two): a
#: table's row, a label far from its values, is wide and sparse.
WIDE_MIN_CHARS_PER_EM = 1.0
#: A line's next line below it in its column is among the next this many lines of the page
#: (sorted top to bottom: the lines of columns beside it come between).
WIDE_LOOKAHEAD = 6


def build_blocks(lines: list[Line]) -> list[Block]:
    """Group lines (sorted top to bottom) into blocks."""
    wide = wide_spacing(lines)
    # (no block further above than the widest gap a line may join at is still open)
    reach = LINE_GAP_EM if wide is None else wide[1]
    blocks: list[Block] = []
    open_blocks: list[Block] = []
    for line in lines:
        best: Block | None = None
        best_gap = float("inf")
        still_open: list[Block] = []
        for block in open_blocks:
            last = block.lines[-1]
            # (max spelled out: every line meets every block still open above it)
            em = line.size if line.size > last.size else last.size
            gap = line.y0 - last.y1
            if gap > reach * em + 2.0:
                continue  # too far above: this block is finished
            still_open.append(block)
            limit = LINE_GAP_EM
            if wide is not None and gap > LINE_GAP_EM * em and _reads_on(wide[0], block, line):
                limit = wide[1]
            if _joins(block, last, line, gap, limit) and gap < best_gap:
                best, best_gap = block, gap
        open_blocks = still_open
        if best is None:
            block = Block([line], line.x0, line.y0, line.x1, line.y1, line.size, line.bold)
            blocks.append(block)
            open_blocks.append(block)
        else:
            best.lines.append(line)
            best.x0 = min(best.x0, line.x0)
            best.x1 = max(best.x1, line.x1)
            best.y1 = max(best.y1, line.y1)
    for block in blocks:
        summarise(block)
    return blocks


def wide_spacing(lines: list[Line]) -> tuple[float, float] | None:
    """A page set wider than :data:`LINE_GAP_EM` (see WIDE_MIN_PAIRS): its body size and the
    gap, in ems, up to which a line goes on the full line above it; ``None`` for a page set
    closer, or whose spacing does not agree."""
    gaps: dict[float, list[float]] = {}
    for i, upper in enumerate(lines):
        for lower in lines[i + 1 : i + 1 + WIDE_LOOKAHEAD]:
            em = lower.size if lower.size > upper.size else upper.size
            if em <= 0 or lower.y0 - upper.y1 < -0.5 * em:
                continue  # beside it, not below
            shorter = min(upper.x1 - upper.x0, lower.x1 - lower.x0)
            if min(upper.x1, lower.x1) - max(upper.x0, lower.x0) <= 0.5 * shorter:
                continue  # another column's
            if (
                abs(upper.size - lower.size) <= SIZE_TOLERANCE * em
                and _full(upper, em)
                and _full(lower, em)  # (a label over its short field is no paragraph)
                # (says something only where the lower line reaches further: the upper one
                # then ended a paragraph if the lower one's first word had room after it)
                and measure_broke(upper, lower, max(upper.x1, lower.x1))
            ):
                gaps.setdefault(upper.size, []).append((lower.y0 - upper.y1) / em)
            break  # the next line under it: the only one asked
    if not gaps:
        return None
    size, found = max(gaps.items(), key=lambda kv: (len(kv[1]), kv[0]))
    if len(found) < WIDE_MIN_PAIRS:
        return None
    found.sort()
    middle = found[len(found) // 2]
    if not LINE_GAP_EM < middle <= WIDE_MAX_GAP_EM:
        return None
    agree = sum(1 for g in found if abs(g - middle) <= WIDE_SLACK_EM)
    if agree < WIDE_AGREE_SHARE * len(found):
        return None
    return size, middle + WIDE_SLACK_EM


def _full(line: Line, em: float) -> bool:
    """Whether ``line`` is a full measure of running text (see WIDE_MIN_MEASURE_EM): not a
    contents entry, whose leader reaches its page number at the measure's end."""
    ems = (line.x1 - line.x0) / em
    return (
        ems >= WIDE_MIN_MEASURE_EM
        and len(line.text) >= WIDE_MIN_CHARS_PER_EM * ems
        and TOC_LEADER.search(line.text) is None  # a contents entry, ended by its page
    )


def _reads_on(size: float, block: Block, line: Line) -> bool:
    """On a widely spaced page of body size ``size``, ``line`` goes on ``block`` past
    :data:`LINE_GAP_EM`: both at that size, and the block's last line full (the measure
    broke it before the line's first word, and it is a full measure long)."""
    last = block.lines[-1]
    em = size if size > 1.0 else 1.0
    if abs(last.size - size) > SIZE_TOLERANCE * em or abs(line.size - size) > SIZE_TOLERANCE * em:
        return False
    if not _full(last, em):
        return False
    return measure_broke(last, line, block.x1 if block.x1 > line.x1 else line.x1)


def _start(line: Line) -> float:
    """Where ``line``'s text starts: after the margin number that starts it, if one does."""
    return line.x0 if line.text_start is None else line.text_start


def _joins(block: Block, last: Line, line: Line, gap: float, limit: float) -> bool:
    """Whether ``line`` goes on ``block`` (whose last line is ``last``), ``gap`` below it: at
    most ``limit`` ems (:data:`LINE_GAP_EM`, or a widely spaced page's own gap)."""
    # (min and max spelled out, as the comparisons the built-ins make: a hot path)
    em = line.size if line.size > last.size else last.size
    if gap < -0.5 * em or gap > limit * em:
        return False
    if abs(last.size - line.size) > SIZE_TOLERANCE * em:
        return False
    if last.bold != line.bold and (len(last.text) < 120 or len(line.text) < 120):
        return False
    bx0, bx1, lx0, lx1 = block.x0, block.x1, line.x0, line.x1
    wide, long = bx1 - bx0, lx1 - lx0
    overlap = (lx1 if lx1 < bx1 else bx1) - (lx0 if lx0 > bx0 else bx0)
    if overlap <= 0.3 * (long if long < wide else wide):
        return False
    # A short line followed by an indented one ends a paragraph (or a run-in heading line),
    # unless the block is a list item hanging from its mark (a bullet or a number the first
    # line starts with, further left) and the line goes on under the item's text: under the
    # line before it ("... Its “multi-" and "threaded” feature ..."), or, under an item's
    # first line (the block's, or a later item's), where the measure broke that line (ragged
    # lines of an item, "3. " or "A. "). A line opening an item of its own (nested) starts
    # a block, as it did after a paragraph.
    right = lx1 if lx1 > bx1 else bx1
    short = last.x1 < right - 2.0 * em
    if line.text_start is None:
        indented = line.x0 > block.x0 + 0.5 * em and line.x0 > last.x0 - 0.5 * em
    else:  # its margin number starts it where every line starts: its text's indent counts
        start, above = line.text_start, _start(last)
        left = min(_start(block.lines[0]), above)
        indented = start > left + 0.5 * em and start > above - 0.5 * em
    if not (short and indented):
        return True
    first = block.lines[0]
    if not _opens_item(first) or _opens_item(line):
        return False
    if first is last or _opens_item(last):
        return measure_broke(last, line, right)
    return first.x0 < last.x0 - 0.5 * em and abs(lx0 - last.x0) <= 0.5 * em


def _opens_item(line: Line) -> bool:
    """``line`` starts with a bullet or an enumeration's mark, and words after it."""
    return BULLET_MARK.match(line.text) is not None or ENUM_MARK.match(line.text) is not None


def size_weights(
    lines: Iterable[Line], key: Callable[[float], float] | None = None
) -> dict[float, int]:
    """The characters ``lines`` set at each text size (``key`` of the size, if given): the
    size that sets the most is the text's own (a block's size, a page's body size)."""
    weights: dict[float, int] = {}
    for line in lines:
        size = line.size if key is None else key(line.size)  # (no call per line: a hot path)
        weights[size] = weights.get(size, 0) + len(line.text)
    return weights


def summarise(block: Block) -> None:
    weights = size_weights(block.lines)
    block.size = max(weights.items(), key=lambda kv: (kv[1], kv[0]))[0]
    bold = sum(len(line.text) for line in block.lines if line.bold)
    block.bold = bold * 2 > sum(weights.values())


# --- the row safety net -----------------------------------------------------------------------

#: Pieces whose baselines differ by at most this many ems of the smaller share a row (a
#: bolder or slightly smaller cell sits on the same baseline; a superscript does not).
ROW_BASELINE_EM = 0.25
#: The lines within this many ems above and below a row show what kind of text lies right
#: of a gap in it (a column's lines, for a screenful around the row).
SIDE_WINDOW_EM = 20.0
#: The right side of a gap is a column of text when at least this many of the lines there
#: are lines of words (``wordy``), holding at least this share of the side's characters.
TEXT_SIDE_LINES = 3
TEXT_SIDE_SHARE = 0.6
#: A column of labels is looked for among at most this many lines around a row (a screenful
#: of a few columns holds a few hundred); a page crowding more into the band has none.
MAX_SIDE_LINES = 400


def rejoin_rows(lines: list[Line], page: list[Line] | None = None) -> list[Line]:
    """``lines`` (top to bottom) with values joined to the piece of their row before them, in
    reading order, unless a column of text lies right of the gap (the gutter of a page set in
    columns): the label of a table row that was not recognised as a table, and its values,
    read as one line of text instead of a column of labels followed by columns of numbers.
    ``page``: every line of the page, ``lines`` and the tables' (by default ``lines``): only
    a row at the page's own top or bottom may be its running header or footer."""
    rows = _baseline_rows(lines)
    if all(len(row) < 2 for row in rows):
        return lines
    sides = _Sides(lines)
    joined: dict[int, Line] = {}  # first piece -> the line it now starts
    dropped: set[int] = set()
    for row in _body_rows(rows, page or lines):
        for group in _split_at_gutters(row, sides):
            if len(group) < 2:
                continue
            joined[id(group[0])] = joined_line(group)
            dropped.update(id(piece) for piece in group[1:])
    if not joined:
        return lines
    return [joined.get(id(ln), ln) for ln in lines if id(ln) not in dropped]


def _baseline_rows(lines: list[Line]) -> list[list[Line]]:
    """Lines sharing a baseline, each row left to right."""
    ordered = sorted(lines, key=lambda ln: (ln.y1, ln.x0))
    rows: list[list[Line]] = []
    for line in ordered:
        if rows:
            last = rows[-1][-1]
            if abs(line.y1 - last.y1) <= ROW_BASELINE_EM * (min(line.size, last.size) or 1.0):
                rows[-1].append(line)
                continue
        rows.append([line])
    for row in rows:
        row.sort(key=lambda ln: ln.x0)
    return rows


#: A first or last row of the page this many ems (of its text) or more away from the rest is
#: a running header or footer.
FURNITURE_GAP_EM = 2.0


def _body_rows(rows: list[list[Line]], page: list[Line]) -> list[list[Line]]:
    """``rows`` without a running header or footer set apart above or below the rest, at the
    top or bottom of the whole ``page`` (a table's total row under the table is no footer):
    a page number set apart from a title is recognised on its own there."""
    if len(rows) < 2:
        return rows
    first, last = 0, len(rows)
    top = min(ln.y0 for ln in page)
    bottom = max(ln.y1 for ln in page)

    def gap(upper: list[Line], lower: list[Line]) -> float:
        em = max(ln.size for ln in upper + lower) or 1.0
        return (min(ln.y0 for ln in lower) - max(ln.y1 for ln in upper)) / em

    if gap(rows[0], rows[1]) >= FURNITURE_GAP_EM and min(ln.y0 for ln in rows[0]) <= top:
        first = 1
    if gap(rows[-2], rows[-1]) >= FURNITURE_GAP_EM and max(ln.y1 for ln in rows[-1]) >= bottom:
        last = len(rows) - 1
    return rows[first:last]


class _Sides:
    """The page's lines by height, with whether each is a line of words, to tell what lies
    right of a gap."""

    def __init__(self, lines: list[Line]) -> None:
        self.lines = sorted(lines, key=lambda ln: ln.y1)
        self.ys = [ln.y1 for ln in self.lines]
        self.text = [wordy(ln.text) for ln in self.lines]

    def text_after(self, row: Line, x: float) -> bool:
        """Whether the lines near ``row`` lying wholly right of ``x`` are a column of text
        (lines of words, not values)."""
        reach = SIDE_WINDOW_EM * (row.size or 1.0)
        lo = bisect.bisect_left(self.ys, row.y1 - reach)
        hi = bisect.bisect_right(self.ys, row.y1 + reach)
        count = chars = in_text = 0
        for k in range(lo, hi):
            ln = self.lines[k]
            if ln.x0 < x:
                continue
            chars += len(ln.text)
            if self.text[k]:
                count += 1
                in_text += len(ln.text)
        return count >= TEXT_SIDE_LINES and in_text >= TEXT_SIDE_SHARE * chars

    def wraps_under(self, label: Line, text: Line) -> bool:
        """Whether the paragraph a short ``label`` opens (``LABEL_MAX_EM`` wide at most) goes
        on under it: on the line right below the row (within ``LINE_GAP_EM``), a line set as
        ``label`` or ``text`` is (size and weight) starts where ``label`` starts and runs past where
        ``text`` starts, across the gap, as no column's line can ("EXAMPLE 1  For the
        malfunction of ..." over "operational situations are: ..."; a form's "You" and
        "Spouse" over a paragraph in another type are two labels). A last line too short to
        cross the gap tells nothing (a column's short line looks the same), nor does a label
        of signs alone (a formula's brace or stop, set over its next line), a note's mark
        aside ("†")."""
        em = label.size or 1.0
        if label.x1 - label.x0 > LABEL_MAX_EM * em:
            return False
        if not any(ch.isalnum() or ch in NOTE_SIGNS for ch in label.text):
            return False
        row_bottom = max(label.y1, text.y1)
        k = bisect.bisect_right(self.ys, row_bottom + 0.5 * em)
        for ln in self.lines[k : k + MAX_SIDE_LINES]:
            if ln.y0 - row_bottom > LINE_GAP_EM * em:
                return False
            if (
                abs(ln.x0 - label.x0) <= em
                and ln.x1 > text.x0 + em
                and any(
                    abs(ln.size - piece.size) <= SIZE_TOLERANCE * em and ln.bold == piece.bold
                    for piece in (label, text)
                )
            ):
                return True
        return False

    def labels_before(self, label: Line, text: Line) -> bool:
        """Whether ``label`` stands in a column of labels before ``text``'s column. Near the
        row, of the lines ending between the label's left edge and the text's start none
        starts further left (an index's entries, over their turnovers) or is wider than
        ``LABEL_MAX_EM`` (a page's column); those sharing an edge with the label (its column)
        are at least ``GUTTER_MIN_ROWS``, each lies on the baseline of a line starting where
        ``text`` starts (a sidebar keeps its own), and ``GUTTER_MIN_ROWS`` of those lines are
        lines of words: a glossary's terms, a table's
        row labels beside a column of descriptions. A form's labels, each ending in a colon
        (``form_label``), may be wider, two make a column, and their values any words or
        figures ("Invoice Number:  INV-2024-0042", "Due Date:  April 2, 2024"): the colon
        says what they are."""
        em = label.size or 1.0
        form = form_label(label.text)
        if label.x1 - label.x0 > LABEL_MAX_EM * em and not form:
            return False  # (a column's line: most rows of a page set in columns)
        reach = SIDE_WINDOW_EM * em
        lo = bisect.bisect_left(self.ys, label.y1 - reach)
        hi = bisect.bisect_right(self.ys, label.y1 + reach)
        if hi - lo > MAX_SIDE_LINES:
            return False  # a band this crowded is no column of labels (and stays linear)
        starts: dict[int, bool] = {}  # baselines (in quarter ems) of the text column's lines
        labels: list[Line] = []
        for k in range(lo, hi):
            ln = self.lines[k]
            if abs(ln.x0 - text.x0) <= em:
                key = round(ln.y1 / (ROW_BASELINE_EM * em))
                starts[key] = starts.get(key, False) or self.text[k]
            elif ln.x1 <= text.x0 and ln.x1 > label.x0:
                labels.append(ln)

        def level(ln: Line) -> list[bool]:
            """Whether each line starting where ``text`` starts on ``ln``'s baseline is
            one of words."""
            key = round(ln.y1 / (ROW_BASELINE_EM * em))
            return [starts[key + d] for d in (-1, 0, 1) if key + d in starts]

        if form:
            # The lines with a value beside them: labels all, two or more, none further left.
            beside = [ln for ln in labels if level(ln)]
            if len(beside) >= 2 and all(
                form_label(ln.text) and ln.x0 >= label.x0 - em for ln in beside
            ):
                return True
        for ln in labels:
            if ln.x0 < label.x0 - em or ln.x1 - ln.x0 > LABEL_MAX_EM * (ln.size or 1.0):
                return False  # a column of text left of the gap (an index's turnovers)
        # The column is the lines sharing an edge with the label; a line in the gap that
        # shares neither (a page number set on its own line) is no label of it.
        labels = [ln for ln in labels if abs(ln.x0 - label.x0) <= em or abs(ln.x1 - label.x1) <= em]
        if len(labels) < GUTTER_MIN_ROWS:
            return False
        wordy_rows = 0
        for ln in labels:
            words_beside = level(ln)
            if not words_beside:
                return False  # a label with no text beside it: not a column of labels
            wordy_rows += any(words_beside)
        return wordy_rows >= GUTTER_MIN_ROWS


def _split_at_gutters(row: list[Line], sides: _Sides) -> list[list[Line]]:
    groups: list[list[Line]] = [[row[0]]]
    for a, b in itertools.pairwise(row):
        if (
            b.x0 > a.x1
            and len(groups[-1]) == 1
            and (sides.labels_before(a, b) or sides.wraps_under(a, b))
        ):
            groups[-1].append(b)  # a row's label and the words beside it
            continue
        # Values join the line before them (a row's label, the values before them): words
        # after a wide gap are the next column of a page, an index, a figure's labels. So
        # are values with a column of text on their right, whatever is left of the gap
        # (what starts after ``a`` ends, however short ``a`` is).
        if b.x0 <= a.x1 or not (values(b.text) or _blank(b.text)) or sides.text_after(b, a.x1):
            groups.append([b])  # a gutter between columns of text, or text drawn over text
        else:
            groups[-1].append(b)
    return groups


def _blank(text: str) -> bool:
    """A form's blank to fill in ("Name: ________"): underscores, nothing else."""
    stripped = text.strip()
    return len(stripped) >= 3 and not stripped.strip("_")


def joined_line(pieces: list[Line]) -> Line:
    """One line of ``pieces`` (left to right), read right to left when its text is."""
    ordered = pieces[::-1] if mostly_rtl(" ".join(p.text for p in pieces)) else pieces
    bold = all(p.bold for p in pieces)
    # (its look is the longest piece's; of a plain one when not every piece is bold: a bold
    # label and its plain value are no heading)
    longest = max((p for p in pieces if bold or not p.bold), key=lambda p: len(p.text))
    chars = sum(len(p.text) for p in pieces)
    return replace(
        longest,
        text=" ".join(p.text for p in ordered),
        x0=min(p.x0 for p in pieces),
        y0=min(p.y0 for p in pieces),
        x1=max(p.x1 for p in pieces),
        y1=max(p.y1 for p in pieces),
        bold=bold,
        italic=sum(len(p.text) for p in pieces if p.italic) * 2 > chars,
        artifact=all(p.artifact for p in pieces),
        seq=min(p.seq for p in pieces),
        # The pieces' own, or their extents: where a row's values stand apart from its label
        # (the furniture pass reads them at the page's edges; layout_page lets go of the rest).
        spans=tuple(s for p in pieces for s in (p.spans or ((p.x0, p.x1, p.text),))),
        monospace=sum(len(p.text) * monospace_share(p) for p in pieces) / chars if chars else None,
    )
