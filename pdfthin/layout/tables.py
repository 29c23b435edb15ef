"""Tables from text alignment: rows of several line pieces whose pieces fall into the same
columns, row after row. Ruling lines, when the page draws them, confirm a table.

A table becomes one block before reading order is decided, so its columns are never taken for
text columns.
"""

from __future__ import annotations

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
