"""Tables from text alignment: rows of several line pieces whose pieces fall into the same
columns, row after row. Ruling lines, when the page draws them, confirm a table.

A table becomes one block before reading order is decided, so its columns are never taken for
text columns.
"""

from __future__ import annotations

from bisect import bisect_right

from .table_cells import is_value, share_words, soft_split
from .table_columns import whitespace_boundaries
from .table_grid import Grid, find_grids
from .types import Block, Line

MIN_ROWS = 3
#: Rows further apart than this (in ems) do not belong to one table.
ROW_GAP_EM = 2.6
#: Pieces longer than this (in characters) are running text.
PROSE_CHARS = 25


def _rows(lines: list[Line]) -> list[list[Line]]:
    ordered = sorted(lines, key=lambda ln: ((ln.y0 + ln.y1) / 2, ln.x0))
    rows: list[list[Line]] = []
    for line in ordered:
        if rows:
            row = rows[-1]
            top = min(ln.y0 for ln in row)
            bottom = max(ln.y1 for ln in row)
            overlap = min(bottom, line.y1) - max(top, line.y0)
            if overlap >= 0.5 * min(bottom - top, line.y1 - line.y0):
                row.append(line)
                continue
        rows.append([line])
    for row in rows:
        row.sort(key=lambda ln: ln.x0)
    return rows


def _columns(rows: list[list[Line]]) -> list[tuple[float, float]]:
    spans = sorted((ln.x0, ln.x1) for row in rows for ln in row)
    merged: list[list[float]] = []
    for lo, hi in spans:
        if merged and lo <= merged[-1][1] + 1.0:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return [(lo, hi) for lo, hi in merged]


def _column_of(line: Line, columns: list[tuple[float, float]]) -> int:
    centre = (line.x0 + line.x1) / 2
    for k, (lo, hi) in enumerate(columns):
        if lo - 1 <= centre <= hi + 1:
            return k
    return min(range(len(columns)), key=lambda k: abs((columns[k][0] + columns[k][1]) / 2 - centre))


def _is_table(
    rows: list[list[Line]], rules: list[tuple[float, float, float, float]]
) -> list[tuple[float, float]] | None:
    multi = [r for r in rows if len(r) >= 2]
    if len(multi) < MIN_ROWS - (1 if _ruled(rows, rules) else 0) or len(multi) < 2:
        return None
    columns = _columns(multi)
    if len(columns) < 2:
        return None
    # Each piece of a row must land in its own column.
    clean = 0
    for row in multi:
        ks = [_column_of(ln, columns) for ln in row]
        if len(set(ks)) == len(ks):
            clean += 1
    if clean < 0.8 * len(multi):
        return None
    # Text columns are filled edge to edge by long lines; table cells are short. When most
    # of the text sits in such filled columns, this is running text, not a table.
    prose_chars = total_chars = prose_columns = 0
    for k in range(len(columns)):
        pieces = [ln for row in multi for ln in row if _column_of(ln, columns) == k]
        chars = sum(len(ln.text) for ln in pieces)
        total_chars += chars
        # Prose: most of the column's characters sit in long pieces (a formula or a short
        # last line here and there does not change that).
        long_chars = sum(len(ln.text) for ln in pieces if len(ln.text) > PROSE_CHARS)
        if chars and long_chars >= 0.6 * chars:
            prose_chars += chars
            prose_columns += 1
    # Two or more columns of long lines holding most of the text: running text in columns,
    # not a table (a table may have one long description column).
    if prose_columns >= 2 and prose_chars > 0.6 * total_chars:
        return None
    # A few rows pairing prose with other pieces: a formula or a figure label beside a line
    # of the next column, not a table.
    if prose_columns and len(multi) < 5:
        return None
    return columns


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
    lines: list[Line], rules: list[tuple[float, float, float, float]]
) -> tuple[list[Block], list[Line]]:
    """Split ``lines`` into table blocks and the lines that are not part of a table."""
    tables: list[Block] = []
    rest = lines
    for grid in find_grids(rules):
        block = _from_grid(grid, rest)
        if block is not None:
            tables.append(block)
            inside = {id(ln) for ln in block.lines}
            rest = [ln for ln in rest if id(ln) not in inside]
    aligned, rest = _aligned_tables(rest, rules)
    return tables + aligned, rest


# --- ruled grids ------------------------------------------------------------------------------


def _from_grid(grid: Grid, lines: list[Line]) -> Block | None:
    """The table a ruled grid holds: each line goes to the cell under it; a line that runs
    across cells (a row set as one string) has its words shared out between them."""
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
    bands: dict[int, list[Line]] = {}
    for ln in members:
        cy = (ln.y0 + ln.y1) / 2
        r = min(max(bisect_right(grid.ys, cy) - 1, 0), len(grid.ys) - 2)
        bands.setdefault(r, []).append(ln)
    rows: list[list[str]] = []
    for r in sorted(bands):
        band = bands[r]
        baselines = _rows(band)
        hard = [bool(ruled[k]) and grid.vrule[r][ruled[k] - 1] for k in range(len(xs))]
        cells = _band_cells(baselines, xs, hard)
        items = [(ln, _pieces(ln, xs, cells, hard)) for ln in band]
        for record in _records(items):
            rows.append(_row_texts(record, len(xs) - 1))
    return _table_block(rows, members)


def _grid_columns(grid: Grid, members: list[Line]) -> tuple[list[float], list[int]]:
    """Column boundaries: the grid's rules, plus whitespace boundaries inside a ruled column
    whose rows hold aligned pieces (a grid that draws only some of its column lines).
    ``ruled[k]`` is one more than the grid boundary index of ``xs[k]``, 0 when unruled."""
    xs: list[float] = []
    ruled: list[int] = []
    baselines = _rows(members)
    for c in range(len(grid.xs) - 1):
        xs.append(grid.xs[c])
        ruled.append(c + 1)
        lo, hi = grid.xs[c], grid.xs[c + 1]
        spans = [
            [(ln.x0, ln.x1) for ln in base if lo <= (ln.x0 + ln.x1) / 2 <= hi] for base in baselines
        ]
        em = _median_size(members)
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
    ln: Line, xs: list[float], cells: list[tuple[int, int]], hard: list[bool]
) -> dict[int, str]:
    """``ln``'s text by cell (keyed by the cell's first column). Across ruled boundaries the
    words are shared out; across unruled ones only when the words clearly fit the cells,
    else the line is one cell's text."""
    em = ln.size or 1.0
    touched = [(a, b) for a, b in cells if min(ln.x1, xs[b]) - max(ln.x0, xs[a]) > 0.3 * em]
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
            return {touched[0][0]: ln.text}
        return {a: t for (a, _), t in zip(touched, split, strict=True) if t}
    texts = share_words(ln, [(xs[g[0][0]], xs[g[-1][1]]) for g in groups])
    return {g[0][0]: t for g, t in zip(groups, texts, strict=True) if t}


def _median_size(lines: list[Line]) -> float:
    sizes = sorted(ln.size for ln in lines)
    return sizes[len(sizes) // 2] or 1.0


def _records(
    items: list[tuple[Line, dict[int, str]]],
) -> list[list[tuple[Line, dict[int, str]]]]:
    """Split a ruled row band into table rows where it holds several records: a value under
    another value in the same column starts a new row; words under words are a wrapped
    cell."""
    baselines = _rows([ln for ln, _ in items])
    by_line = {id(ln): pieces for ln, pieces in items}
    records: list[list[tuple[Line, dict[int, str]]]] = []
    values: dict[int, bool] = {}
    for base in baselines:
        entries = [(ln, by_line[id(ln)]) for ln in base]
        cols = {c: t for _, p in entries for c, t in p.items()}
        clash = any(is_value(t) and values.get(c) for c, t in cols.items())
        if not records or clash:
            records.append([])
            values = {}
        records[-1].extend(entries)
        for c, t in cols.items():
            values[c] = values.get(c, False) or is_value(t)
    return records


def _row_texts(record: list[tuple[Line, dict[int, str]]], ncols: int) -> list[str]:
    cells: list[list[tuple[float, float, str]]] = [[] for _ in range(ncols)]
    for ln, pieces in record:
        for c, t in pieces.items():
            cells[c].append((ln.y0, ln.x0, t))
    return [" ".join(t for _, _, t in sorted(cell)) for cell in cells]


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
    """Tables without a full grid: rows whose pieces fall into the same columns."""
    rows = _rows(lines)
    tables: list[Block] = []
    used: set[int] = set()
    i = 0
    while i < len(rows):
        if len(rows[i]) < 2:
            i += 1
            continue
        # Grow a run of rows: multi-piece rows, with single-piece continuation rows between.
        j = i + 1
        last_multi = i
        while j < len(rows):
            prev_bottom = max(ln.y1 for ln in rows[j - 1])
            top = min(ln.y0 for ln in rows[j])
            em = max(ln.size for ln in rows[j])
            if top - prev_bottom > ROW_GAP_EM * em:
                break
            if len(rows[j]) >= 2:
                last_multi = j
            elif j - last_multi > 1:
                break
            j += 1
        candidate = rows[i : last_multi + 1]
        columns = _is_table(candidate, rules) if last_multi > i else None
        if columns is None:
            i += 1
            continue
        table = _build(candidate, columns)
        if table is not None:
            tables.append(table)
            for row in candidate:
                for ln in row:
                    used.add(id(ln))
        i = last_multi + 1
    rest = [ln for ln in lines if id(ln) not in used]
    return tables, rest


def _build(rows: list[list[Line]], columns: list[tuple[float, float]]) -> Block | None:
    cells: list[list[str]] = []
    for row in rows:
        values = [""] * len(columns)
        for ln in row:
            k = _column_of(ln, columns)
            values[k] = f"{values[k]} {ln.text}".strip()
        if len(row) == 1 and cells:
            # A wrapped cell: its continuation joins the cell above.
            k = _column_of(row[0], columns)
            cells[-1][k] = f"{cells[-1][k]} {row[0].text}".strip()
            continue
        cells.append(values)
    if len(cells) < 2:
        return None
    all_lines = [ln for row in rows for ln in row]
    sizes = sorted(ln.size for ln in all_lines)
    return Block(
        lines=all_lines,
        x0=min(ln.x0 for ln in all_lines),
        y0=min(ln.y0 for ln in all_lines),
        x1=max(ln.x1 for ln in all_lines),
        y1=max(ln.y1 for ln in all_lines),
        size=sizes[len(sizes) // 2],
        kind="table",
        rows=cells,
    )
