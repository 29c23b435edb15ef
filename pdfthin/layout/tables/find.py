"""Tables from text alignment: rows of several line pieces whose pieces fall into the same
columns, row after row. Ruling lines, when the page draws them, confirm a table.

A table becomes one block before reading order is decided, so its columns are never taken for
text columns.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import replace
from itertools import pairwise
from math import inf
from operator import attrgetter
from typing import NamedTuple

from pdfthin.engine.content.bidi import mostly_rtl
from pdfthin.layout.headings import SENTENCE_END
from pdfthin.layout.lines import form_label, is_marker, measure_broke
from pdfthin.layout.tables.cells import (
    is_value,
    join_wrapped,
    running_text,
    share_words,
    soft_split,
)
from pdfthin.layout.tables.columns import whitespace_boundaries
from pdfthin.layout.tables.grid import Grid, find_grids
from pdfthin.layout.tables.values import GROUP_CENTRE_EM, Span, value_boundaries
from pdfthin.layout.types import Block, FailedGrid, Line

MIN_ROWS = 3
#: Rows further apart than this (in ems) do not belong to one table.
ROW_GAP_EM = 2.6
#: Pieces longer than this (in characters or in ems) are running text.
PROSE_CHARS = 25
PROSE_EMS = 16
#: A table's header may wrap over this many lines.
MAX_HEADER_LINES = 4
#: Starts of a table tried further down a run of aligned rows before giving the run up.
MAX_TRIES = 3
#: Rows holding only a row label (section labels) a run of table rows may pass over: a
#: statement names a section and a subsection ("Liabilities:", "Current liabilities:") and
#: may wrap a long label; more such rows in a row are text between two tables.
MAX_LABEL_ROWS = 3
#: What ``_aligned_table`` says of rows that are running text in columns.
TEXT = "text"
#: A ruled table fills at least this share of its cells (plots and forms fill far fewer).
MIN_FILL = 0.35
#: Row labels set outside a grid drawn around the figures only: lines left of the grid, each
#: on the baseline of a line inside it (within this many ems), in at least this share of the
#: grid's rows that hold text.
LABEL_BASELINE_EM = 0.25
ROW_LABEL_SHARE = 0.5
#: A line alone on its row that starts within this many ems of where a cell of the row above
#: starts (not the row's first: a paragraph after a table starts at its left) is that cell's
#: text wrapped onto another line: the run of rows goes on through any number of them.
CELL_START_EM = 0.5
#: ... set at most this many ems below it (a line's leading; a title after a table stands apart).
WRAP_GAP_EM = 0.5
#: A list in a cell: an item (a mark, then words) set at most this many ems right of the
#: cell's start (or under it) goes on the cell, however much room the line above left.
LIST_INDENT_EM = 2.0


def _rows(lines: list[Line]) -> list[list[Line]]:
    ordered = sorted(lines, key=_middle_then_start)
    rows: list[list[Line]] = []
    top = bottom = 0.0  # the vertical extent of the last row
    for line in ordered:
        y0, y1 = line.y0, line.y1
        if rows:
            # (min and max spelled out: every line of the page comes here, often more than once)
            tall, high = bottom - top, y1 - y0
            overlap = (y1 if y1 < bottom else bottom) - (y0 if y0 > top else top)
            if overlap >= 0.5 * (high if high < tall else tall):
                rows[-1].append(line)
                top = y0 if y0 < top else top
                bottom = y1 if y1 > bottom else bottom
                continue
        rows.append([line])
        top, bottom = y0, y1
    for row in rows:
        row.sort(key=_start)
    return rows


def _middle_then_start(ln: Line) -> tuple[float, float]:
    return (ln.y0 + ln.y1) / 2, ln.x0


_start = attrgetter("x0")


def _ruled(rows: list[list[Line]], rules: list[tuple[float, float, float, float]]) -> bool:
    if not rules:
        return False
    top = min(ln.y0 for row in rows for ln in row) - 4
    bottom = max(ln.y1 for row in rows for ln in row) + 4
    x0 = min(ln.x0 for row in rows for ln in row) - 4
    x1 = max(ln.x1 for row in rows for ln in row) + 4
    # Horizontal rules across most of the rows' width, inside their vertical extent.
    across = 0
    for rx0, ry0, rx1, ry1 in rules:
        if ry0 == ry1 and top <= ry0 <= bottom and min(rx1, x1) - max(rx0, x0) >= 0.5 * (x1 - x0):
            across += 1
    return across >= 2


def find_tables(
    lines: list[Line],
    rules: list[tuple[float, float, float, float]],
    failed: list[FailedGrid] | None = None,
) -> tuple[list[Block], list[Line]]:
    """Split ``lines`` into table blocks and the lines that are not part of a table; the
    ruled grids holding text that could not be read as a table are added to ``failed``."""
    tables: list[Block] = []
    rest = lines
    grids = find_grids(rules)
    if len(grids) > 1:
        rest = _cut_between(grids, rest)
    every = rest
    # Inner lattices first: a frame drawn around a chart or a table must not claim its lines.
    for grid in sorted(grids, key=lambda g: (g.x1 - g.x0) * (g.y1 - g.y0)):
        found = _from_grid(grid, rest, failed, grids)
        if found is None:
            continue
        inside = {id(ln) for ln in found.lines}
        rest = [ln for ln in rest if id(ln) not in inside]
        # A chart's labels (kind "chart") are not a table, nor to be found as one by alignment.
        if found.kind == "table":
            tables.append(found)
    aligned, rest = _aligned_tables(rest, rules)
    tables += aligned
    # The rest in the order the lines came (cut lines in place of their originals).
    used = {id(ln) for block in tables for ln in block.lines}
    return tables, [ln for ln in every if id(ln) not in used]


# --- ruled grids ------------------------------------------------------------------------------


def _cut_between(grids: list[Grid], lines: list[Line]) -> list[Line]:
    """Lines that run from one grid into the next one beside it (two tables side by side
    whose rows are set as one string each) cut in two where the first grid ends. Only
    there: a line's right end can run past its own table by stretched trailing spaces."""
    for grid in grids:
        for other in grids:
            if other is grid or not grid.x1 <= other.x0 + 1:
                continue
            if min(grid.y1, other.y1) <= max(grid.y0, other.y0):
                continue
            lines = _cut_at(lines, grid, other)
    return lines


def _cut_at(lines: list[Line], grid: Grid, other: Grid) -> list[Line]:
    out: list[Line] = []
    for ln in lines:
        cy = (ln.y0 + ln.y1) / 2
        if grid.y0 <= cy <= grid.y1 and ln.x0 < grid.x1 and ln.x1 > other.x0 + ln.size:
            pieces = _cut(ln, grid.x1, other.x0)
            if pieces is not None:
                out.extend(pieces)
                continue
        out.append(ln)
    return out


def _cut(ln: Line, end: float, start: float) -> tuple[Line, Line] | None:
    """``ln`` in two: the words before the gutter between ``end`` and ``start``, and the
    words after it (each piece placed on its own side of the gutter)."""
    middle = (end + start) / 2
    left, right = share_words(ln, [(ln.x0, middle), (middle, ln.x1)])
    if not left or not right:
        return None
    return (
        replace(ln, text=left, x1=min(ln.x1, end - 0.5)),
        replace(ln, text=right, x0=max(ln.x0, start + 0.5)),
    )


def _from_grid(
    grid: Grid,
    lines: list[Line],
    failed: list[FailedGrid] | None = None,
    grids: list[Grid] | None = None,
) -> Block | None:
    """The table a ruled grid holds: each line goes to the cell under it; a line that runs
    across cells (a row set as one string) has its words shared out between them. A block
    of kind ``chart`` holds the lines of a lattice that is a chart's grid, not a table."""
    # A line belongs by its start and its middle height: its right end is the least reliable
    # edge (trailing spaces stretched by word spacing can run past the table).
    members = [
        ln
        for ln in lines
        if grid.x0 - 1 <= ln.x0 < grid.x1 - 1 and grid.y0 <= (ln.y0 + ln.y1) / 2 <= grid.y1
    ]
    if not members:
        return None
    xs, ruled = _grid_columns(grid, members)
    labels = _outside_labels(grid, lines, members, grids or [])
    if labels:
        # A column of its own, left of the grid's frame: the frame divides it from the rest.
        xs.insert(0, min(ln.x0 for ln in labels))
        ruled.insert(0, 0)
        members = labels + members
    bands: dict[int, list[Line]] = {}
    for ln in members:
        cy = (ln.y0 + ln.y1) / 2
        r = min(max(bisect_right(grid.ys, cy) - 1, 0), len(grid.ys) - 2)
        bands.setdefault(r, []).append(ln)
    # A chart's gridlines make a lattice too, with a label here and there: a table's rows
    # hold text.
    if len(bands) < 0.5 * (len(grid.ys) - 1):
        _gave_up(failed, grid, "sparse")
        return Block(members, grid.x0, grid.y0, grid.x1, grid.y1, members[0].size, kind="chart")
    records: dict[int, list[list[tuple[Line, dict[int, str]]]]] = {}
    for r in sorted(bands):
        band = bands[r]
        baselines = _rows(band)
        hard = [bool(ruled[k]) and grid.vrule[r][ruled[k] - 1] for k in range(len(xs))]
        cells = _band_cells(baselines, xs, hard)
        if r == min(bands) and len(bands) > 2 and _titles(xs, cells, baselines):
            # The grid's first band is one cell across the whole table holding one line:
            # the table's title, read as a paragraph over it, not a row of one cell.
            title = {id(ln) for ln in band}
            members = [ln for ln in members if id(ln) not in title]
            continue
        items = [(ln, _pieces(ln, xs, cells, hard)) for ln in band]
        records[r] = _records(items, header=r == min(bands))
    _merge_down(grid, xs, records)
    rows = [_row_texts(rec, len(xs) - 1) for r in sorted(records) for rec in records[r]]
    block = _table_block(rows, members)
    if block is None:
        _gave_up(failed, grid, "no_cells")
    elif block.rows is not None and _fill(block.rows) < MIN_FILL:
        # Mostly empty cells: a plot's frame and gridlines with labels, or a form's boxes,
        # not a table of data.
        _gave_up(failed, grid, "empty_cells")
        return replace(block, kind="chart", rows=None)
    return block


def _titles(xs: list[float], cells: list[tuple[int, int]], baselines: list[list[Line]]) -> bool:
    """Whether a band whose cells are ``cells`` (of the columns ``xs``) is one cell spanning
    every column of a table of several, holding a single line."""
    return (
        len(xs) > 2
        and cells == [(0, len(xs) - 1)]
        and len(baselines) == 1
        and len(baselines[0]) == 1
    )


def _outside_labels(
    grid: Grid, lines: list[Line], members: list[Line], grids: list[Grid]
) -> list[Line]:
    """The row labels of a grid ruled around its figures only: the lines left of the grid,
    within its height and in no grid beside it, when each stands on the baseline of a line
    inside the grid, one per baseline, none of them running text or a row of values, and
    they label enough of the grid's rows (``ROW_LABEL_SHARE``). Anything short of that (a
    text column or another table beside this one) is left alone."""
    left = [
        ln for ln in lines if ln.x1 <= grid.x0 + 1 and grid.y0 <= (ln.y0 + ln.y1) / 2 <= grid.y1
    ]
    if len(left) < MIN_ROWS:
        return []  # (counted before the grids beside this one are asked: most pages stop here)
    beside = [other for other in grids if not _encloses(other, grid)]
    left = [ln for ln in left if not any(_inside(ln, other) for other in beside)]
    if len(left) < MIN_ROWS or any(
        running_text(ln.text) or sum(map(is_value, ln.text.split())) >= 2 for ln in left
    ):
        return []
    rows_inside = _rows(members)
    matched: set[int] = set()
    for ln in left:
        tolerance = LABEL_BASELINE_EM * (ln.size or 1.0)
        row = next(
            (
                i
                for i, row in enumerate(rows_inside)
                if any(abs(m.y1 - ln.y1) <= tolerance for m in row)
            ),
            None,
        )
        if row is None or row in matched:
            return []
        matched.add(row)
    return left if len(matched) >= ROW_LABEL_SHARE * len(rows_inside) else []


def _encloses(outer: Grid, grid: Grid) -> bool:
    """``outer`` is ``grid`` or a frame around it (a page's border, a box around a table and
    its labels)."""
    return (
        outer.x0 <= grid.x0 and grid.x1 <= outer.x1 and outer.y0 <= grid.y0 and grid.y1 <= outer.y1
    )


def _inside(ln: Line, grid: Grid) -> bool:
    cx, cy = (ln.x0 + ln.x1) / 2, (ln.y0 + ln.y1) / 2
    return grid.x0 <= cx <= grid.x1 and grid.y0 <= cy <= grid.y1


def _gave_up(failed: list[FailedGrid] | None, grid: Grid, why: str) -> None:
    if failed is not None:
        box = (grid.x0, grid.y0, grid.x1, grid.y1)
        failed.append(FailedGrid(box, why, len(grid.ys) - 1, len(grid.xs) - 1))


def _fill(rows: list[list[str]]) -> float:
    return sum(1 for row in rows for t in row if t) / (len(rows) * len(rows[0]))


def _merge_down(
    grid: Grid, xs: list[float], records: dict[int, list[list[tuple[Line, dict[int, str]]]]]
) -> None:
    """A cell that spans row bands (no rule across its column between them) is one cell:
    its text in the lower bands moves up to the row where the cell starts."""
    for c in range(len(xs) - 1):
        middle = (xs[c] + xs[c + 1]) / 2
        if not grid.xs[0] <= middle <= grid.xs[-1]:
            continue  # row labels outside the grid (_outside_labels): a cell per row
        gc = min(max(bisect_right(grid.xs, middle) - 1, 0), len(grid.xs) - 2)
        for r in sorted(records):
            top = r
            while top > 0 and not grid.hrule[top][gc]:
                top -= 1
            if top == r or top not in records:
                continue
            target = records[top][0]
            for rec in records[r]:
                for i, (ln, pieces) in enumerate(rec):
                    if c in pieces:
                        target.append((ln, {c: pieces[c]}))
                        rec[i] = (ln, {k: t for k, t in pieces.items() if k != c})


def _grid_columns(grid: Grid, members: list[Line]) -> tuple[list[float], list[int]]:
    """Column boundaries: the grid's rules, plus whitespace boundaries inside a ruled column
    whose rows hold aligned pieces (a grid that draws only some of its column lines).
    ``ruled[k]`` is one more than the grid boundary index of ``xs[k]``, 0 when unruled."""
    xs: list[float] = []
    ruled: list[int] = []
    baselines = _rows(members)
    em = _median_size(members)
    for c in range(len(grid.xs) - 1):
        xs.append(grid.xs[c])
        ruled.append(c + 1)
        lo, hi = grid.xs[c], grid.xs[c + 1]
        spans = [
            [(ln.x0, ln.x1) for ln in base if lo <= (ln.x0 + ln.x1) / 2 <= hi] for base in baselines
        ]
        for x in whitespace_boundaries(spans, lo, hi, 0.8 * em):
            xs.append(x)
            ruled.append(0)
    xs.append(grid.xs[-1])
    ruled.append(len(grid.xs))
    return xs, ruled


def _band_cells(
    baselines: list[list[Line]], xs: list[float], hard: list[bool]
) -> list[tuple[int, int]]:
    """The cells of one row band as column spans ``(first, end)``. A ruled boundary always
    divides; an unruled one (no rule in this band, or a whitespace column) divides only where
    the band's own text shows it: a gap between pieces of one baseline, or a string of
    values running across it (a row of numbers set as one string). Otherwise the columns
    are one merged cell, like a heading centred over several columns."""
    ncols = len(xs) - 1
    # One division shows the band is a row of cells, not a merged one: then every column
    # boundary of the grid divides it.
    split = any(_divides(baselines, xs[k]) for k in range(1, ncols) if not hard[k])
    cells: list[tuple[int, int]] = []
    start = 0
    for k in range(1, ncols + 1):
        if k == ncols or hard[k] or split:
            cells.append((start, k))
            start = k
    return cells


def _divides(baselines: list[list[Line]], x: float) -> bool:
    for base in baselines:
        crossing = [ln for ln in base if ln.x0 < x < ln.x1]
        if crossing:
            if any(_values(ln.text) >= 2 for ln in crossing):
                return True
        elif any(ln.x1 <= x for ln in base) and any(ln.x0 >= x for ln in base):
            return True
    return False


def _values(text: str) -> int:
    words = text.split()
    return len(words) if words and all(is_value(w) for w in words) else 0


def _pieces(
    ln: Line,
    xs: list[float],
    cells: list[tuple[int, int]],
    hard: list[bool],
    touched: list[tuple[int, int]] | None = None,
    ends: dict[int, set[int]] | None = None,
) -> dict[int, str]:
    """``ln``'s text by cell (keyed by the cell's first column). Across ruled boundaries the
    words are shared out; across unruled ones only when the words clearly fit the cells,
    else the line is one cell's text: the first cell's in a grid (a wrapped line of a cell
    spanning columns); between whitespace columns, whose lines' right ends are ``ends``,
    the one ``_holding`` says."""
    if touched is None:
        touched = _touched(ln, xs, cells)
    if not touched:
        cx = (ln.x0 + ln.x1) / 2
        touched = [min(cells, key=lambda ab: abs((xs[ab[0]] + xs[ab[1]]) / 2 - cx))]
    if len(touched) == 1:
        return {touched[0][0]: ln.text}
    groups: list[list[tuple[int, int]]] = [[touched[0]]]
    for cell in touched[1:]:
        if hard[cell[0]]:
            groups.append([cell])
        else:
            groups[-1].append(cell)
    if len(groups) == 1:
        split = soft_split(ln, [(xs[a], xs[b]) for a, b in touched])
        if split is None:
            return {touched[0][0] if ends is None else _holding(ln, xs, touched, ends): ln.text}
        return {a: t for (a, _), t in zip(touched, split, strict=True) if t}
    # Past the table's edge a line can only be stretched trailing space.
    clipped = replace(ln, x1=min(ln.x1, xs[-1]))
    texts = share_words(clipped, [(xs[g[0][0]], xs[g[-1][1]]) for g in groups])
    return {g[0][0]: t for g, t in zip(groups, texts, strict=True) if t}


def _holding(
    ln: Line, xs: list[float], touched: list[tuple[int, int]], ends: dict[int, set[int]]
) -> int:
    """The cell a word kept whole over several unruled cells goes to: the one holding more
    than half of it when the word ends where that cell's own lines end (``ends``: their
    right edges by cell, in buckets of ``CELL_START_EM``), a column's title wider than its
    right-aligned figures, reaching back over the gap before them; else, and for a line of
    several words (two cells' texts run together, a title over several columns), the
    first."""
    first = touched[0][0]
    if len(ln.text.split()) > 1:
        return first
    half = (ln.x1 - ln.x0) / 2
    bucket = int(ln.x1 // (CELL_START_EM * (ln.size or 1.0)))
    for a, b in touched[1:]:
        if min(ln.x1, xs[b]) - max(ln.x0, xs[a]) > half:
            own = ends.get(a, set())
            return a if {bucket - 1, bucket, bucket + 1} & own else first
    return first


def _right_ends(
    rows: list[list[Line]], touches: dict[int, list[tuple[int, int]]]
) -> dict[int, set[int]]:
    """For ``_holding``: where the lines that stay inside one cell end (``touches``: the
    cells each line reaches into, by ``id``), by cell, in buckets of ``CELL_START_EM`` of
    each line's size."""
    ends: dict[int, set[int]] = {}
    for row in rows:
        for ln in row:
            touched = touches[id(ln)]
            if len(touched) == 1:
                step = CELL_START_EM * (ln.size or 1.0)
                ends.setdefault(touched[0][0], set()).add(int(ln.x1 // step))
    return ends


def _touched(ln: Line, xs: list[float], cells: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The cells ``ln`` reaches into by more than a little (0.3 em)."""
    x0, x1, least = ln.x0, ln.x1, 0.3 * (ln.size or 1.0)
    return [
        (a, b)
        for a, b in cells
        if (xs[b] if xs[b] < x1 else x1) - (xs[a] if xs[a] > x0 else x0) > least
    ]


def _spanned(
    whole: list[tuple[Line, int, list[int]]], reach: dict[int, tuple[float, float]]
) -> dict[int, list[int]]:
    """Of one row's lines kept whole over several columns (``whole``: each with its column
    and the columns it reaches into), those that are titles over several, by their first
    column: the columns whose lines it reaches over (``reach``: how far each column's own
    lines reach), when that is more than one and it is centred over them (within
    ``SPAN_CENTRE_EM``): a group title over the columns' own titles, "Three Months Ended"
    over "2024" and "2023"."""
    out: dict[int, list[int]] = {}
    for ln, first, reached in whole:
        covered = [
            a for a in reached if a in reach and min(ln.x1, reach[a][1]) > max(ln.x0, reach[a][0])
        ]
        if len(covered) < 2 or covered[0] != first:
            continue
        middle = (reach[covered[0]][0] + reach[covered[-1]][1]) / 2
        if abs((ln.x0 + ln.x1) / 2 - middle) <= SPAN_CENTRE_EM * (ln.size or 1.0):
            out[first] = covered
    return out


def _median_size(lines: list[Line]) -> float:
    sizes = sorted(ln.size for ln in lines)
    return sizes[len(sizes) // 2] or 1.0


def _records(
    items: list[tuple[Line, dict[int, str]]], header: bool
) -> list[list[tuple[Line, dict[int, str]]]]:
    """Split a ruled row band into table rows where it holds several records (a body with
    no rules between its rows). A value under another value in the same column starts a
    new row; so does, below the header band, each line of a band whose lines all fill the
    same columns, unless it reads as a continuation. Words under words are a wrapped
    cell."""
    baselines = _rows([ln for ln, _ in items])
    by_line = {id(ln): pieces for ln, pieces in items}
    texts = [{c: t for ln in base for c, t in by_line[id(ln)].items()} for base in baselines]
    # Every line filling the same columns: one record per line (wrapped cells end on
    # different lines in different columns).
    uniform = not header and len(texts[0]) >= 2 and all(t.keys() == texts[0].keys() for t in texts)
    records: list[list[tuple[Line, dict[int, str]]]] = []
    values: dict[int, bool] = {}
    for base, cols in zip(baselines, texts, strict=True):
        clash = any(is_value(t) and values.get(c) for c, t in cols.items())
        full = uniform and not all(_continues(t) for t in cols.values())
        if not records or clash or full:
            records.append([])
            values = {}
        records[-1].extend((ln, by_line[id(ln)]) for ln in base)
        for c, t in cols.items():
            values[c] = values.get(c, False) or is_value(t)
    return records


def _continues(text: str) -> bool:
    """A cell line that carries on the line above: it starts in lower case or inside
    brackets."""
    return text[:1].islower() or text[:1] in "(["


def _row_texts(record: list[tuple[Line, dict[int, str]]], ncols: int) -> list[str]:
    cells: list[list[tuple[float, float, str]]] = [[] for _ in range(ncols)]
    for ln, pieces in record:
        for c, t in pieces.items():
            cells[c].append((ln.y0, ln.x0, t))
    return [join_wrapped(t for _, _, t in sorted(cell)) for cell in cells]


def _table_block(rows: list[list[str]], lines: list[Line]) -> Block | None:
    """A table block from rows of cells, dropping empty rows and columns; ``None`` when what
    is left is not a table (fewer than two rows of two filled cells)."""
    rows = [r for r in rows if any(r)]
    if not rows:
        return None
    keep = [c for c in range(len(rows[0])) if any(r[c] for r in rows)]
    rows = [[r[c] for c in keep] for r in rows]
    if len(keep) < 2 or sum(1 for r in rows if sum(1 for t in r if t) >= 2) < 2:
        return None
    if mostly_rtl(" ".join(t for r in rows for t in r)):
        rows = [r[::-1] for r in rows]  # a right-to-left table starts at its right-hand column
    sizes = sorted(ln.size for ln in lines)
    return Block(
        lines=list(lines),
        x0=min(ln.x0 for ln in lines),
        y0=min(ln.y0 for ln in lines),
        x1=max(ln.x1 for ln in lines),
        y1=max(ln.y1 for ln in lines),
        size=sizes[len(sizes) // 2],
        kind="table",
        rows=rows,
    )


# --- aligned text -----------------------------------------------------------------------------


def _aligned_tables(
    lines: list[Line], rules: list[tuple[float, float, float, float]]
) -> tuple[list[Block], list[Line]]:
    """Tables without a full grid: runs of rows whose pieces fall into the same columns,
    columns being x ranges that stay clear of text down the run."""
    rows = _rows(lines)
    extents = _RowExtents.of(rows)
    flat = _flat_rules(rules)
    long: dict[int, bool] = {}  # whether a line is long prose, worked out when needed
    # Each row's words for number columns, kept for the runs of rows tried after (the rows
    # are the same lists for the whole page).
    seen: dict[tuple[int, float], list[Span]] = {}
    tables: list[Block] = []
    i = 0
    tries = 0
    taken = -1  # the last row of the last table
    while i < len(rows):
        if len(rows[i]) < 2:
            i += 1
            continue
        end = _ruled_off(rows, i, _run_end(rows, i, extents=extents), flat, extents)
        table = _aligned_table(rows[i : end + 1], rules, long, seen) if end > i else None
        if (
            isinstance(table, Block)
            and i - 1 > taken
            and _title_over(rows[i - 1], rows[i], extents, i)
        ):
            # A title over the table's columns but its first ("Year Ended December 31,"
            # over "2024" and "2023"): a group title of its header, when it leaves the
            # columns as they were and heads them whole (a title cut between them, or taken
            # into the label column, is no header of theirs).
            titled = _aligned_table(rows[i - 1 : end + 1], rules, long, seen)
            if _heads_whole(titled, table, rows[i - 1][0].text.strip()):
                table = titled
        strict = _ruled_off(rows, i, _run_end(rows, i, labels=0, extents=extents), flat, extents)
        if not isinstance(table, Block) and strict < end:
            # Passing over label rows made a run that is no table: the run without them.
            end = strict
            table = _aligned_table(rows[i : end + 1], rules, long, seen) if end > i else None
        if isinstance(table, Block):
            tables.append(table)
            taken = end
        elif table != TEXT and tries < MAX_TRIES:
            # Not a table from this row: one may start a row or two further down (below a
            # caption or a line of text that happens to pair with the first row).
            i += 1
            tries += 1
            continue
        i = end + 1
        tries = 0
    used = {id(ln) for block in tables for ln in block.lines}
    return tables, [ln for ln in lines if id(ln) not in used]


def _title_over(above: list[Line], first: list[Line], extents: _RowExtents, i: int) -> bool:
    """Whether ``above`` (the row over a table's ``first`` row, row ``i``) may be a title
    over its columns: one short line (``TITLE_WORDS``) with a word in it (not a sign: an
    integral over a formula's column), not in brackets (a note: "(in millions)",
    "(unaudited)"), within ``ROW_GAP_EM`` above, centred (within
    ``SPAN_CENTRE_EM``) over two of the first row's pieces or more, reaching across the gap
    between them. (Whether the table then reads it as one: ``_heads_whole``.)"""
    if len(above) != 1:
        return False
    (title,) = above
    text = title.text.strip()
    if (
        not _WORD.search(text)
        or len(text.split()) > TITLE_WORDS
        or (text[0] in "([" and text[-1] in ")]")
        or extents.tops[i] - extents.bottoms[i - 1] > ROW_GAP_EM * extents.ems[i]
    ):
        return False
    middle = (title.x0 + title.x1) / 2
    centre = SPAN_CENTRE_EM * (title.size or 1.0)
    # The pieces it could end over, by where they end (buckets two centring widths wide):
    # a piece before it is asked of the few ending where it would be centred (a row of
    # thousands of pieces stays linear).
    ends: dict[int, list[int]] = {}
    for k, b in enumerate(first):
        if title.x0 < b.x0:
            ends.setdefault(int(b.x1 // (2 * centre)), []).append(k)
    for k, a in enumerate(first):
        if title.x1 <= a.x1:
            continue
        target = 2 * middle - a.x0  # where the piece it ends over ends, centred
        bucket = int(target // (2 * centre))
        for j in (*ends.get(bucket - 1, ()), *ends.get(bucket, ()), *ends.get(bucket + 1, ())):
            if j > k and abs((a.x0 + first[j].x1) / 2 - middle) <= centre:
                return True
    return False


def _heads_whole(titled: Block | str | None, table: Block, title: str) -> bool:
    """Whether ``titled`` (``table`` read with ``title`` over it) has ``table``'s columns
    and ``title`` whole in its header's cells past the first."""
    if not isinstance(titled, Block) or not titled.rows or not table.rows:
        return False
    header = titled.rows[0]
    return (
        len(header) == len(table.rows[0])
        and title not in header[0]
        and any(title in cell for cell in header[1:])
    )


#: A horizontal rule ends a run of rows where it spans at least this share of the run's width
#: (a rule under one column's rows is a sum's, not the table's end), and the rows under it are
#: the page's running text (``_ruled_off``).
RULE_SPAN_SHARE = 0.8


def _ruled_off(
    rows: list[list[Line]],
    i: int,
    end: int,
    flat: list[tuple[float, float, float]],
    extents: _RowExtents,
) -> int:
    """``end``, or the last row over a horizontal rule across the run ``i``..``end`` under
    which the page's running text goes on (the first row of several pieces under it all
    long lines of words: the page's columns under a table's bottom rule, which are no rows
    of it). A rule under a header has the table's rows under it."""
    if not flat or end <= i:
        return end
    tops, bottoms, _ = extents
    lo = min(ln.x0 for row in rows[i : end + 1] for ln in row)
    hi = max(ln.x1 for row in rows[i : end + 1] for ln in row)
    for k in range(i + 1, end + 1):
        # The flat rules between row k - 1 and row k (by height: a look-up, not a scan).
        at = bisect_left(flat, (bottoms[k - 1], -inf, -inf))
        crossed = False
        while at < len(flat) and flat[at][0] <= tops[k]:
            _, x0, x1 = flat[at]
            at += 1
            if min(x1, hi) - max(x0, lo) >= RULE_SPAN_SHARE * (hi - lo):
                crossed = True
                break
        if not crossed:
            continue
        under = next((row for row in rows[k : end + 1] if len(row) >= 2), None)
        if under is not None and all(_long(ln) for ln in under):
            return k - 1
    return end


def _flat_rules(rules: list[tuple[float, float, float, float]]) -> list[tuple[float, float, float]]:
    """The page's horizontal rules as ``(height, x0, x1)``, by height."""
    return sorted(
        ((y0 + y1) / 2, min(x0, x1), max(x0, x1)) for x0, y0, x1, y1 in rules if abs(y1 - y0) <= 1.0
    )


class _RowExtents(NamedTuple):
    """Each row's top, bottom and largest size, worked out once for every run tried."""

    tops: list[float]
    bottoms: list[float]
    ems: list[float]

    @classmethod
    def of(cls, rows: list[list[Line]]) -> _RowExtents:
        return cls(
            [min(ln.y0 for ln in row) for row in rows],
            [max(ln.y1 for ln in row) for row in rows],
            [max(ln.size for ln in row) for row in rows],
        )


def _run_end(
    rows: list[list[Line]],
    i: int,
    labels: int = MAX_LABEL_ROWS,
    extents: _RowExtents | None = None,
) -> int:
    """The last row of the run starting at ``i``: rows of several pieces, close together,
    with at most one single-piece row (a wrapped cell) between two of them, or a few that
    hold only a row label (section labels of a statement: "Current liabilities:"), left of
    where the run's second column starts: up to ``labels`` of them in a row; and after a
    row, the lines its cells' words wrap onto (``_wrapped``), however many."""
    if extents is None:
        extents = _RowExtents.of(rows)
    tops, bottoms, ems = extents
    j = i + 1
    last_multi = end = i
    second = rows[i][1].x0
    cells = rows[i]  # the last row's cells, each one's last line
    measures = _Measures(CELL_START_EM * ems[i], rows[i])
    passed = 0
    while j < len(rows):
        if tops[j] - bottoms[j - 1] > ROW_GAP_EM * ems[j]:
            break
        if len(rows[j]) >= 2:
            last_multi = end = j
            passed = 0
            second = min(second, rows[j][1].x0)
            cells = rows[j]
            measures.add(cells)
        elif (
            j == end + 1
            and tops[j] - bottoms[j - 1] <= WRAP_GAP_EM * ems[j]
            and (k := _wrapped(rows[j][0], cells, measures)) is not None
        ):
            end = j  # a cell's text wrapped onto another line, under its start
            cells = [*cells[:k], rows[j][0], *cells[k + 1 :]]
            measures.add(rows[j])
        elif rows[j][0].x1 < second and passed < labels:
            passed += 1
        elif j - last_multi > 1:
            break
        j += 1
    return end


class _Measures:
    """How far right the lines starting at each place of a run of rows reach: a column's
    measure, as far as its lines show it. Places within ``tolerance`` of each other are
    one (bucketed: one look-up per line)."""

    def __init__(self, tolerance: float, row: list[Line]) -> None:
        self.tolerance = tolerance if tolerance > 0 else 1.0
        self.rights: dict[int, float] = {}
        self.add(row)

    def add(self, row: list[Line]) -> None:
        for ln in row:
            key = int(ln.x0 // self.tolerance)
            if ln.x1 > self.rights.get(key, ln.x1 - 1):
                self.rights[key] = ln.x1

    def right(self, x0: float) -> float:
        key = int(x0 // self.tolerance)
        return max(self.rights.get(k, x0) for k in (key - 1, key, key + 1))

    def no_room(self, cell: Line, line: Line) -> bool:
        """``line``'s first word had no room at the end of ``cell`` in its column's
        measure: the measure broke the line there (``measure_broke``)."""
        return measure_broke(cell, line, max(self.right(cell.x0), line.x1))


def _wrapped(line: Line, cells: list[Line], measures: _Measures) -> int | None:
    """The index of the cell among ``cells`` (the row above) whose words ``line`` carries on:
    it starts under that cell's start (within ``CELL_START_EM``), not the row's first (a
    paragraph after a table starts there), both are words (figures do not wrap), its first
    word had no room on the cell's line in the column's measure (lines that each open an
    item are no wrapped text), and the cells before it are no long lines of words (a page's
    columns are lines of running text side by side, each going on under its start; a
    label of a few words, "Key staff leave", is no such line). A list item (a
    mark, then words) under the cell or up to ``LIST_INDENT_EM`` right of its start goes on
    the cell whatever room was left: a list in the cell."""
    text = line.text.split()
    if not text or is_value(line.text):
        return None
    item = _marker(text[0]) and len(text) > 1  # a list in the cell: each item a line
    for k in range(1, len(cells)):
        cell = cells[k]
        indent = line.x0 - cell.x0
        if abs(indent) <= measures.tolerance or (item and 0 < indent <= LIST_INDENT_EM * line.size):
            if len(cell.text.split()) < 2 or is_value(cell.text):
                return None
            if not item and not measures.no_room(cell, line):
                return None  # its first word had room above: an item of its own (a list)
            return k if not any(_long(c) for c in cells[:k]) else None
    return None


def _aligned_table(
    rows: list[list[Line]],
    rules: list[tuple[float, float, float, float]],
    long: dict[int, bool],
    seen: dict[tuple[int, float], list[Span]] | None = None,
) -> Block | str | None:
    """The table these rows make, ``None``, or ``TEXT`` when they are running text in
    columns (then no part of them is a table either)."""
    lines = [ln for row in rows for ln in row]
    em = _median_size(lines)
    lo = min(ln.x0 for ln in lines)
    hi = max(ln.x1 for ln in lines)
    xs = [
        lo,
        *whitespace_boundaries([[(ln.x0, ln.x1) for ln in row] for row in rows], lo, hi, em),
        hi,
    ]
    plain = _aligned_columns(rows, rules, long, xs, False)
    if plain == TEXT:
        # Running text in columns stays text whatever numbers line up in it: its number
        # columns are not looked for.
        return plain
    refined, statement = value_boundaries(rows, xs, em, seen)
    if refined != xs:
        # Number columns the whitespace missed or cut: the table they make, else the one
        # the whitespace makes (numbers set as one string per row cannot be parted by them).
        table = _aligned_columns(rows, rules, long, refined, statement)
        if isinstance(table, Block):
            return None if _form_beside(table) else table
    return None if isinstance(plain, Block) and _form_beside(plain) else plain


def _form_beside(table: Block) -> bool:
    """Whether a column of ``table`` past its first is a form's labels (each ending in a
    colon, two or more, each with a value after it) with none in the columns before it: a
    form's details set beside other text (an invoice's number and dates level with the
    sender's address), not one table. A form's grid ("Surname: | Okafor | Given names:")
    has labels in its first column too."""
    rows = table.rows or []
    width = max((len(row) for row in rows), default=0)
    for k in range(1, width - 1):
        cells = [row for row in rows if k < len(row) and row[k].strip()]
        if len(cells) < 2 or not all(
            form_label(row[k]) and k + 1 < len(row) and row[k + 1].strip() for row in cells
        ):
            continue
        return not any(form_label(cell) for row in rows for cell in row[:k])
    return False


def _goes_on(
    placed: list[tuple[Line, dict[int, str]]],
    above: dict[int, Line],
    measures: _Measures,
    em: float,
) -> bool:
    """Whether a row of several pieces carries on the row above (``above``: each column's
    last line there) rather than opening a row: each piece is the next line of the cell
    above it (under its start, within ``WRAP_GAP_EM`` under it, words after words or after
    a name broken at a joiner (one word is a name or a label: the next is its own), no new
    sentence after one that ended, and its first word had no room on that line in the
    column's measure), and either a cell above gets no next line or every piece starts
    inside a sentence (a new row fills its columns and opens each cell)."""
    columns: set[int] = set()
    for ln, pieces in placed:
        if len(pieces) != 1:
            return False
        (c,) = pieces
        cell = above.get(c)
        if (
            cell is None
            or c in columns
            or abs(ln.x0 - cell.x0) > measures.tolerance
            or ln.y0 - cell.y1 > WRAP_GAP_EM * em
            or is_value(ln.text)
            or is_value(cell.text)
            or (len(cell.text.split()) < 2 and cell.text.rstrip()[-1:] not in _JOINERS)
            or (cell.text.rstrip().endswith(SENTENCE_END) and ln.text[:1].isupper())
            or not measures.no_room(cell, ln)
        ):
            return False
        columns.add(c)
    return len(columns) < len(above) or all(_continues(ln.text) for ln, _ in placed)


def _aligned_columns(
    rows: list[list[Line]],
    rules: list[tuple[float, float, float, float]],
    long: dict[int, bool],
    xs: list[float],
    statement: bool,
) -> Block | str | None:
    """``_aligned_table`` with the column boundaries ``xs`` (the rows' ends included);
    ``statement``: the columns are right-aligned numbers."""
    if len(xs) < 3:
        return None
    # Prose at either side (the other column of the page, beside a table set in one
    # column) is not part of the table.
    prose = _prose_columns(rows, xs, long)
    # ... unless a header row titles it with the table's other columns (descriptions).
    titled = _titled(rows, xs, prose, long)
    while not titled and len(xs) > 2 and prose and prose[0] == 0:
        rows = [[ln for ln in row if ln.x1 > xs[1]] for row in rows]
        xs = xs[1:]
        prose = [k - 1 for k in prose[1:]]
        titled = _titled(rows, xs, prose, long)  # (a table set in the page's right column)
    while not titled and len(xs) > 2 and prose and prose[-1] == len(xs) - 2:
        rows = [[ln for ln in row if ln.x0 < xs[-2]] for row in rows]
        xs = xs[:-1]
        prose = prose[:-1]
    rows = [row for row in rows if row]
    multi = [r for r in rows if len(r) >= 2]
    if len(xs) < 3 or len(multi) < MIN_ROWS - (1 if _ruled(rows, rules) else 0) or len(multi) < 2:
        return None
    if len(prose) >= 2:
        return TEXT
    if _drawing(rows, rules):
        return None
    if prose and not titled and len(multi) < 5 and not _full_rows(multi, len(xs) - 1):
        # A few rows pairing prose with other pieces: a formula or a figure label beside a
        # line of text, not a table (unless every row fills three columns or more, or a
        # header titles them).
        return None
    cells = [(k, k + 1) for k in range(len(xs) - 1)]
    hard = [False] * len(xs)
    touches = {id(ln): _touched(ln, xs, cells) for row in rows for ln in row}
    ends = _right_ends(rows, touches)
    em = _median_size([ln for row in rows for ln in row])
    measures = _Measures(CELL_START_EM * em, [ln for row in rows for ln in row])
    grid: list[list[str]] = []
    bold: list[bool] = []  # whether each row of the grid is set in bold
    last: dict[int, Line] = {}  # the grid's last row: each column's last line
    reach: dict[int, tuple[float, float]] = {}  # how far each column's own lines reach
    # Each grid row's lines kept whole over several columns (of its first line only): with
    # their column and the columns they reach into.
    rows_whole: list[list[tuple[Line, int, list[int]]]] = []
    groups: list[int] = []  # the rows that title groups of rows (``_group_title``)
    full = False  # whether a row of the grid holds two cells or more (asked of the last only)
    for k, row in enumerate(rows):
        values = [""] * (len(xs) - 1)
        placed = []
        whole = []
        for ln in sorted(row, key=attrgetter("x0")):
            touched = touches[id(ln)]
            pieces = _pieces(ln, xs, cells, hard, touched, ends)
            placed.append((ln, pieces))
            if len(pieces) == 1:
                (c,) = pieces
                if len(touched) == 1:
                    lo, hi = reach.get(c, (ln.x0, ln.x1))
                    reach[c] = (min(lo, ln.x0), max(hi, ln.x1))
                elif touched:
                    whole.append((ln, c, [a for a, _ in touched]))
        for _, pieces in placed:
            for c, t in pieces.items():
                values[c] = f"{values[c]} {t}".strip()
        if statement:
            values = [_CURRENCY_GAP.sub(r"\1", t) for t in values]
        full = full or (bool(grid) and sum(1 for t in grid[-1] if t) >= 2)
        if len(row) == 1 and full and _group_title(row[0], xs, last, measures.tolerance):
            # A group's title centred across the table ("English", "Coding" over their
            # rows, between the rules of a paper's table), under a row of several cells
            # (a title or a caption over the table opens no group): a row of its own, in
            # the first column, not the next line of the cell above it.
            groups.append(len(grid))
            grid.append([row[0].text.strip()] + [""] * (len(xs) - 2))
            bold.append(row[0].bold)
            rows_whole.append([])
            last = {}
            continue
        if grid and (
            (len(row) == 1 and sum(1 for t in values if t) == 1)
            or (len(row) >= 2 and _goes_on(placed, last, measures, em))
        ):
            if (
                statement
                and len(row) == 1
                and _section_label(values[0], grid[-1], rows[k + 1 : k + 2])
            ):
                grid.append(values)  # a section label ("Current assets:") is a row
                bold.append(all(ln.bold for ln in row))
                rows_whole.append(whole)
                last = {c: ln for ln, pieces in placed for c in pieces}
                continue
            # A wrapped cell (or several side by side): the continuation joins the cell above.
            for c, t in enumerate(values):
                if t:
                    grid[-1][c] = f"{grid[-1][c]} {t}".strip()
            last.update({c: ln for ln, pieces in placed for c in pieces})
            continue
        grid.append(values)
        bold.append(all(ln.bold for ln in row))
        rows_whole.append(whole)
        last = {c: ln for ln, pieces in placed for c in pieces}
    # (asked of the rows a header can take up)
    spans = [_spanned(whole, reach) for whole in rows_whole[:MAX_HEADER_LINES]]
    if statement:
        if _leaders(grid):
            return None  # a table of contents: entries, dot leaders, page numbers
        grid = _labels_wrapped_down(grid)
    same = len(bold) == len(grid)  # (rows were not merged after: each row's facts hold)
    grid = _merge_header(
        grid, statement, bold if same else None, spans if same else None, groups[:1]
    )
    columns = [[row[c] for row in grid if row[c]] for c in range(len(grid[0]))]
    if _text_columns(columns) or _running_text_columns(columns):
        return TEXT
    if not _looks_tabular(grid, len(prose) > 0):
        return None
    return _table_block(grid, [ln for row in rows for ln in row])


#: A title over several columns is centred over them within this many ems (a title over
#: one column that reaches past it into the next is not).
SPAN_CENTRE_EM = 1.0


#: A figure alone in its cell, or the dash of a missing one.
_FIGURE = re.compile(r"^(?:[-+−]?\d[\d.,]*%?|[-–—])$")


def _group_title(ln: Line, xs: list[float], above: dict[int, Line], tolerance: float) -> bool:
    """A line alone on its row, centred across the whole table (``GROUP_CENTRE_EM``) but not
    in the column it stands in, nor starting where the cell above it in that column starts
    (``above``, within ``tolerance``: a cell's next line keeps to its column; a figure's
    cell has none): the title of the group of rows under it. Words opening as a title
    does, no value among them."""
    em = ln.size or 1.0
    middle = (ln.x0 + ln.x1) / 2
    if abs(middle - (xs[0] + xs[-1]) / 2) > GROUP_CENTRE_EM * em:
        return False
    if any(map(is_value, ln.text.split())):
        return False  # a row set as one string ("Italy 7 9"), a note with figures
    if ln.text.lstrip()[:1].islower():
        return False  # a sentence going on
    column = next((k for k in range(len(xs) - 1) if xs[k] <= middle < xs[k + 1]), None)
    if column is None or abs(middle - (xs[column] + xs[column + 1]) / 2) <= GROUP_CENTRE_EM * em:
        return False
    # (a figure does not wrap into words; a date or a fraction may: "943/944" over "England")
    cell = above.get(column)
    return (
        cell is None
        or _FIGURE.match(cell.text.strip()) is not None
        or abs(ln.x0 - cell.x0) > tolerance
    )


#: A column's title in a table's header row has at most this many words (a page's other
#: column has a line of its running text there, or a heading only by chance).
TITLE_WORDS = 4
#: ... and titles at least this many columns (a page's two columns can both open with a
#: heading on one baseline; a label and its value can look like two titles).
TITLED_COLUMNS = 3


def _titled(
    rows: list[list[Line]], xs: list[float], prose: list[int], long: dict[int, bool]
) -> bool:
    """Whether the one column of prose among ``xs`` is the table's own: the run's top row
    (the first holding anything) titles it with the others (``_headed``)."""
    first = next((row for row in rows if row), None)
    return len(prose) == 1 and first is not None and _headed(first, xs, long)


def _headed(first: list[Line], xs: list[float], long: dict[int, bool]) -> bool:
    """Whether ``first`` (the top row) titles every column of ``xs`` (``TITLED_COLUMNS`` or
    more): one short piece in each, none of them running text. A column of prose under such
    a title is the table's own (descriptions), not the other column of the page beside it."""
    if len(first) != len(xs) - 1 or len(first) < TITLED_COLUMNS:
        return False
    if len({(ln.size, ln.bold) for ln in first}) > 1:
        return False  # titles are set alike (a heading beside them is larger or bolder)
    for k, ln in enumerate(sorted(first, key=lambda ln: ln.x0)):
        if not xs[k] <= (ln.x0 + ln.x1) / 2 < xs[k + 1] or len(ln.text.split()) > TITLE_WORDS:
            return False
        if _long_cached(ln, long):
            return False
    return True


def _full_rows(rows: list[list[Line]], columns: int) -> bool:
    """Every row has a piece in each of ``columns`` (three or more) columns: a small table
    whose description column is prose ("Water quality | Share of samples ... | 97%")."""
    return columns >= 3 and all(len(row) >= columns for row in rows)


def _section_label(label: str, above: list[str], below: list[list[Line]]) -> bool:
    """Whether a row holding only ``label`` is a statement's section label ("Current
    assets:") rather than the wrapped end of the cell above: it does not carry on the text
    above (lower case), and it introduces what follows (a colon, capitals, another label row
    below) or follows no values; or the label below carries it on (a label wrapped down to
    its values)."""
    if not label or _continues(label):
        return False
    nxt = below[0] if below else []
    if nxt and _continues(nxt[0].text):
        return True
    introduces = label.endswith(":") or label.isupper() or len(nxt) == 1
    return introduces or not any(is_value(t) for t in above[1:] if t)


_LEADER = re.compile(r"(?:\.\s?){4,}$|…{2,}$")


def _leaders(grid: list[list[str]]) -> bool:
    """Most rows have a cell ending in dot leaders: the entries of a table of contents,
    whose page numbers line up on the right like a column of numbers."""
    rows = [row for row in grid if any(row)]
    return sum(1 for row in rows if any(_LEADER.search(t) for t in row)) * 2 > len(rows)


def _labels_wrapped_down(grid: list[list[str]]) -> list[list[str]]:
    """In a table of right-aligned numbers (a financial statement), a label that wraps puts
    its numbers on its last line: a row holding only the first part of a label joins the row
    below when that row's label carries it on (starts in lower case)."""
    out: list[list[str]] = []
    for row in grid:
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev[0]
            and not any(prev[1:])
            and row[0]
            and _continues(row[0])
            and not row[0].startswith(("(", "["))
        ):
            out[-1] = [f"{prev[0]} {row[0]}", *row[1:]]
        else:
            out.append(row)
    return out


#: A long name broken at one of these goes on on the next line ("customer_account_").
_JOINERS = frozenset("-_/")
#: A currency sign set apart in its own column, then its number: "$ 178" reads "$178".
_CURRENCY_GAP = re.compile(r"(?<![^\s(])([$€£¥])\s+(?=[(\d])")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_WORD = re.compile(r"[^\W\d_]{2,}")


def _merge_header(
    grid: list[list[str]],
    statement: bool = False,
    bold: list[bool] | None = None,
    spans: list[dict[int, list[int]]] | None = None,
    group_rows: list[int] | None = None,
) -> list[list[str]]:
    """Rows of words above the first row holding values: one header whose cells wrap over
    several lines, merged into one row (only when values follow, so that a table of words
    keeps its rows). A row of years under the period names ("March 31," then "2024") is
    header too, and above a statement's columns of numbers the header ends at the first
    row holding only a label ("Current assets:"). A header set in bold ends at the first
    row that is not (``bold``: each row's weight): that row is the table's first. Rows of a
    form's labels (``_labels_under_labels``) are records, not a header. A group
    title over several columns (``spans``: each row's titles kept whole over columns, by
    first column), with the lines under it in its first column, when the columns have
    titles of their own under it and it tops them (nothing above it there but lines of the
    same group title), makes the header two rows: the group titles, each in its group's
    first column (as a table's merged cell is read), over every column's own title whole
    (the columns under a group keep their own titles as cells, next to their figures).
    The header ends at the first title of a group of rows (``group_rows``: their rows)."""
    first = next(
        (
            i
            for i, row in enumerate(grid)
            if (any(is_value(t) for t in row if t) and not (i and _years(row)))
            or (statement and row[0] and not any(row[1:]))
        ),
        0,
    )
    if bold is not None and bold[0]:
        first = next((i for i in range(first) if not bold[i]), first)
    first = min([first, *(group_rows or [])])
    if not 2 <= first <= MAX_HEADER_LINES or _labels_under_labels(grid[:first]):
        return grid
    titles = spans or [{} for _ in grid]
    # Each group title's lines (this one and those under it in its first column alone, down
    # to the columns' own titles), by cell.
    group_cells: set[tuple[int, int]] = set()
    for r in range(first):
        for a, covered in titles[r].items():
            if not all(_group_above(grid[q], titles[q], covered) for q in range(r)):
                continue  # a column's own title above it: it is the last line of that title
            own = [q for q in range(r + 1, first) if any(grid[q][c] for c in covered[1:])]
            if own:
                group_cells.update((q, a) for q in range(r, own[0]))
    if not group_cells:
        return [_joined_rows(grid[:first]), *grid[first:]]
    # Two header rows: the group titles over the columns' own titles.
    width = len(grid[0])
    groups = [
        " ".join(grid[q][c] for q in range(first) if (q, c) in group_cells) for c in range(width)
    ]
    own_titles = [
        " ".join(grid[q][c] for q in range(first) if grid[q][c] and (q, c) not in group_cells)
        for c in range(width)
    ]
    return [groups, own_titles, *grid[first:]]


def _joined_rows(rows: list[list[str]]) -> list[str]:
    """Rows of a header's lines as one row: each column's lines joined."""
    return [join_wrapped(row[c] for row in rows if row[c]) for c in range(len(rows[0]))]


def _group_above(row: list[str], spans: dict[int, list[int]], covered: list[int]) -> bool:
    """Whether ``row`` (a header row above a group title over ``covered``) holds nothing
    over those columns but a title over all of them too (the group title's first line)."""
    return all(not row[c] or set(covered) <= set(spans.get(c, ())) for c in covered)


def _labels_under_labels(rows: list[list[str]]) -> bool:
    """Two cells one under the other both ending in a colon: a form's labels ("Surname:"
    over "Date of birth:"), each row a record; the lines of a wrapped title do not end so."""
    return any(
        above[c].endswith(":") and below[c].endswith(":")
        for above, below in pairwise(rows)
        for c in range(len(above))
    )


def _years(row: list[str]) -> bool:
    """A row naming years over the value columns, nothing in the label column."""
    return not row[0] and all(_YEAR.match(t) for t in row[1:] if t) and any(row[1:])


def _prose_columns(rows: list[list[Line]], xs: list[float], long: dict[int, bool]) -> list[int]:
    """Columns of running text: most of their characters in long lines (a formula or a
    short last line here and there does not change that). A line of CJK text has fewer,
    wider characters: its width in ems counts too."""
    out = []
    for k in range(len(xs) - 1):
        pieces = [ln for row in rows for ln in row if xs[k] <= (ln.x0 + ln.x1) / 2 < xs[k + 1]]
        chars = sum(len(ln.text) for ln in pieces)
        in_long = 0
        for ln in pieces:
            if _long_cached(ln, long):
                in_long += len(ln.text)
        if chars and in_long >= 0.6 * chars:
            out.append(k)
    return out


def _long_cached(ln: Line, long: dict[int, bool]) -> bool:
    """``_long`` of ``ln``, worked out once per line for the runs of rows tried (``long``)."""
    key = id(ln)
    known = long.get(key)
    if known is None:
        known = long[key] = _long(ln)
    return known


def _long(ln: Line) -> bool:
    """A long line of words (a row of numbers set as one string is long, but not prose).
    Dot leaders after a label are fill, not words: the label before them is measured."""
    text = ln.text
    width = ln.x1 - ln.x0
    leader = _LEADER.search(text)
    if leader is not None:
        width *= leader.start() / len(text)
        text = text[: leader.start()]
    if len(text) <= PROSE_CHARS and width / (ln.size or 1.0) <= PROSE_EMS:
        return False
    words = text.split()
    return sum(1 for w in words if is_value(w)) < 0.5 * len(words)


_PAGE_REF = re.compile(r"(?:^|,)\s*\d+(?:[-–]\d+)?(?:,\s*\d+(?:[-–]\d+)?)*\s*$")
_MATH = frozenset("=∑∏∫∂⟨⟩·◦∈⊆⊂→⇒√∞∇∀∃∧∨¬⊗⊕‖⏐")
_OPERATOR = re.compile(r"(?:^|\s)[+−=](?:\s|$)")


def _looks_tabular(grid: list[list[str]], prose: bool) -> bool:
    """Cells a reader would call a table: mostly filled, not pieces of a formula, not a
    numbered list."""
    if len(grid) < 2:
        return False
    filled = [t for row in grid for t in row if t]
    if len(filled) < 0.5 * len(grid) * len(grid[0]):
        return False  # labels scattered over a figure
    formula = [t for t in filled if not is_value(t) and _formula(t)]
    if len(formula) > 0.3 * len(filled):
        return False  # a displayed formula: limits, fractions, matrices
    columns = [[row[c] for row in grid if row[c]] for c in range(len(grid[0]))]
    # A column of list markers beside prose: a numbered list or footnotes.
    return not (prose and len(columns) == 2 and all(_marker(t) for t in columns[0]))


def _formula(text: str) -> bool:
    return len(text) <= 1 or bool(_MATH.intersection(text)) or bool(_OPERATOR.search(text))


def _marker(text: str) -> bool:
    """A list's or a note's mark: a number ("3", "3.", "3)") or any list mark."""
    return text.rstrip(".)").isdigit() or is_marker(text)


def _text_columns(columns: list[list[str]]) -> bool:
    """Columns of the same kind of text side by side: page columns of an index, of a
    glossary set in two columns, of narrow running text. A table's columns differ: labels
    beside values, short keys beside descriptions."""
    columns = [col for col in columns if col]
    if not 2 <= len(columns) <= 3:
        return False
    lengths = []
    refs = []
    for col in columns:
        entries = sum(1 for t in col if t[:1].isalpha() or _PAGE_REF.fullmatch(t))
        if entries < 0.7 * len(col) or sum(1 for t in col if is_value(t)) > 0.2 * len(col):
            return False
        lengths.append(sum(len(t) for t in col) / len(col))
        refs.append(sum(1 for t in col if _PAGE_REF.search(t)) / len(col))
    if min(refs) >= 0.3:
        return True  # index entries end in page numbers in every column alike
    return min(lengths) >= 12 and max(lengths) <= 2 * min(lengths)


#: A column of running text has at least this share of its cells in running text.
RUNNING_SHARE = 0.7


def _running_text_columns(columns: list[list[str]]) -> bool:
    """Every column filled with running text (a newspaper page's narrow columns, however
    many): a table has at least one column of labels, keys or values."""
    columns = [col for col in columns if col]
    return len(columns) >= 2 and all(
        sum(1 for t in col if running_text(t)) >= RUNNING_SHARE * len(col) for col in columns
    )


def _drawing(rows: list[list[Line]], rules: list[tuple[float, float, float, float]]) -> bool:
    """Vertical strokes inside the rows: axes, ticks and arrows of a figure whose labels
    line up (a ruled table's verticals made it a grid before it got here)."""
    x0 = min(ln.x0 for row in rows for ln in row) + 2
    x1 = max(ln.x1 for row in rows for ln in row) - 2
    y0 = min(ln.y0 for row in rows for ln in row)
    y1 = max(ln.y1 for row in rows for ln in row)
    inside = sum(
        1
        for rx0, ry0, rx1, ry1 in rules
        if rx0 == rx1
        and x0 < rx0 < x1
        and min(y1, ry1) - max(y0, ry0) >= 0.5 * min(y1 - y0, ry1 - ry0)
    )
    return inside >= 2
