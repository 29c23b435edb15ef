"""Lines -> blocks: consecutive lines of one paragraph (close below each other, overlapping
horizontally, same size and weight) become one block.

Before that, ``rejoin_rows`` puts back together the pieces of one row that ``build_lines``
split at wide gaps and that table detection did not take: a row label and its values stay
on one line, unless the gap between them is the gutter between two columns of running text.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from pdfthin.engine.content.bidi import mostly_rtl
from pdfthin.layout.tables.cells import running_text
from pdfthin.layout.types import Block, Line

#: Largest vertical gap between two lines of one block, in ems of the text size.
LINE_GAP_EM = 0.75
#: Font sizes within this ratio belong to the same block.
SIZE_TOLERANCE = 0.12


def build_blocks(lines: list[Line]) -> list[Block]:
    """Group lines (sorted top to bottom) into blocks."""
    blocks: list[Block] = []
    open_blocks: list[Block] = []
    for line in lines:
        best: Block | None = None
        best_gap = float("inf")
        still_open: list[Block] = []
        for block in open_blocks:
            last = block.lines[-1]
            em = max(last.size, line.size)
            gap = line.y0 - last.y1
            if gap > LINE_GAP_EM * em + 2.0:
                continue  # too far above: this block is finished
            still_open.append(block)
            if _joins(block, last, line, gap) and gap < best_gap:
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


def _joins(block: Block, last: Line, line: Line, gap: float) -> bool:
    em = max(last.size, line.size)
    if gap < -0.5 * em or gap > LINE_GAP_EM * em:
        return False
    if abs(last.size - line.size) > SIZE_TOLERANCE * em:
        return False
    if last.bold != line.bold and (len(last.text) < 120 or len(line.text) < 120):
        return False
    overlap = min(block.x1, line.x1) - max(block.x0, line.x0)
    if overlap <= 0.3 * min(block.x1 - block.x0, line.x1 - line.x0):
        return False
    # A short line followed by an indented one ends a paragraph (or a run-in heading line).
    right = max(block.x1, line.x1)
    short = last.x1 < right - 2.0 * em
    indented = line.x0 > block.x0 + 0.5 * em and line.x0 > last.x0 - 0.5 * em
    return not (short and indented)


def summarise(block: Block) -> None:
    weights: dict[float, int] = {}
    bold = total = 0
    for line in block.lines:
        n = len(line.text)
        weights[line.size] = weights.get(line.size, 0) + n
        total += n
        if line.bold:
            bold += n
    block.size = max(weights.items(), key=lambda kv: (kv[1], kv[0]))[0]
    block.bold = bold * 2 > total


# --- the row safety net -----------------------------------------------------------------------

#: Pieces whose baselines differ by at most this many ems of the smaller share a row (a
#: bolder or slightly smaller cell sits on the same baseline; a superscript does not).
ROW_BASELINE_EM = 0.25
#: A gap is a column gutter of running text when at least this many rows have running
#: text on both sides of it (one row of two captions side by side is not a page layout).
GUTTER_ROWS = 3


def rejoin_rows(lines: list[Line]) -> list[Line]:
    """``lines`` (top to bottom) with the pieces of each row that are not separated by a
    column gutter of running text joined into one line, in reading order: the label of a
    table row that was not recognised as a table, and its values, read as one line of text
    instead of a column of labels followed by columns of numbers."""
    rows = _baseline_rows(lines)
    if all(len(row) < 2 for row in rows):
        return lines
    gutters = _prose_gutters(rows)
    joined: dict[int, Line] = {}  # first piece -> the line it now starts
    dropped: set[int] = set()
    for row in rows:
        for group in _split_at_gutters(row, gutters):
            if len(group) < 2:
                continue
            joined[id(group[0])] = _joined(group)
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


def _prose_gutters(rows: list[list[Line]]) -> list[float]:
    """x positions that are inside the gap between two pieces of running text on at least
    ``GUTTER_ROWS`` rows: the gutters of a page set in columns."""
    gaps = [
        (a.x1, b.x0)
        for row in rows
        for a, b in itertools.pairwise(row)
        if b.x0 > a.x1 and running_text(a.text) and running_text(b.text)
    ]
    out: list[float] = []
    for g0, g1 in gaps:
        mid = (g0 + g1) / 2
        if sum(1 for a, b in gaps if a <= mid <= b) >= GUTTER_ROWS:
            out.append(mid)
    return out


def _split_at_gutters(row: list[Line], gutters: list[float]) -> list[list[Line]]:
    groups: list[list[Line]] = [[row[0]]]
    for a, b in itertools.pairwise(row):
        if b.x0 <= a.x1 or any(a.x1 <= x <= b.x0 for x in gutters):
            groups.append([b])  # across a gutter, or overlapping (text drawn over text)
        else:
            groups[-1].append(b)
    return groups


def _joined(pieces: list[Line]) -> Line:
    """One line of ``pieces`` (left to right), read right to left when its text is."""
    ordered = pieces[::-1] if mostly_rtl(" ".join(p.text for p in pieces)) else pieces
    longest = max(pieces, key=lambda p: len(p.text))
    chars = sum(len(p.text) for p in pieces)
    return replace(
        longest,
        text=" ".join(p.text for p in ordered),
        x0=min(p.x0 for p in pieces),
        y0=min(p.y0 for p in pieces),
        x1=max(p.x1 for p in pieces),
        y1=max(p.y1 for p in pieces),
        bold=sum(len(p.text) for p in pieces if p.bold) * 2 > chars,
        italic=sum(len(p.text) for p in pieces if p.italic) * 2 > chars,
        artifact=all(p.artifact for p in pieces),
        seq=min(p.seq for p in pieces),
        spans=(),  # table detection is over
    )
