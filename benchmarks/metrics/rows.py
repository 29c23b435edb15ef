""" "Row kept together": does a table row's label stay on one line with its first value?

In ruled-less financial and statistical tables the reader's question is "what is the value of
<label>?". For every ground-truth row whose first cell is a label (it has letters and is not a
number) and which has at least one numeric cell, the engine's output keeps the row together when
some single line of it (a Markdown table row, or one line of plain text) holds the label and,
after it, the label's first value. Wrapped labels are common (a label of two lines beside one
value), so the label counts as present when its first or its last :data:`LABEL_KEY_CHARS`
characters are on the line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from benchmarks.metrics.tables import Table, normalise
from benchmarks.metrics.text import strip_markdown

#: How much of a (possibly wrapped) label must be on the value's line: enough characters to
#: name the row (a short label is used whole), few enough to fit on one line of a wrapped cell.
LABEL_KEY_CHARS = 12
#: A numeric cell: digits with the usual separators, signs, brackets, currency and percent.
_NUMBER = re.compile(r"^[(\[]?[-+\u2212]?[$€£¥]?\d[\d.,'\u202f\u00a0 ]*[%)\]]?\*?$")


def is_number(text: str) -> bool:
    return bool(_NUMBER.match(text.strip()))


def is_label(text: str) -> bool:
    stripped = text.strip()
    return any(ch.isalpha() for ch in stripped) and not is_number(stripped)


@dataclass(frozen=True)
class LabelledRow:
    """A ground-truth row: its label and its first numeric value (both normalised)."""

    label: str
    value: str
    page: int | None = None


def labelled_rows(table: Table, page: int | None = None) -> list[LabelledRow]:
    """The rows of a table whose first non-empty cell is a label followed by a number."""
    rows: dict[int, list[tuple[int, str]]] = {}
    for cell in table:
        rows.setdefault(cell.row, []).append((cell.col, cell.text))
    out: list[LabelledRow] = []
    for _, cells in sorted(rows.items()):
        texts = [t for _, t in sorted(cells) if t.strip()]
        if len(texts) < 2 or not is_label(texts[0]):
            continue
        value = next((t for t in texts[1:] if is_number(t)), None)
        if value is None:
            continue
        label, number = normalise(texts[0]), normalise(value)
        if label and number:
            out.append(LabelledRow(label, number, page))
    return out


def output_lines(page_text: str, markdown: bool) -> list[str]:
    """An engine's page as normalised lines (Markdown table rows become one line each)."""
    text = strip_markdown(page_text) if markdown else page_text
    return [normalise(line) for line in text.split("\n") if line.strip()]


def _keys(label: str) -> set[str]:
    return {label[:LABEL_KEY_CHARS], label[-LABEL_KEY_CHARS:]}


def kept_together(row: LabelledRow, lines: Iterable[str]) -> bool:
    for line in lines:
        for key in _keys(row.label):
            at = line.find(key)
            if at >= 0 and line.find(row.value, at + len(key)) >= 0:
                return True
    return False


def count_kept(rows: list[LabelledRow], pages: list[str], markdown: bool) -> tuple[int, int]:
    """(rows kept together, rows) on an engine's pages; a row with a page is looked for there."""
    lines = [output_lines(p, markdown) for p in pages]
    everywhere = [line for page in lines for line in page]
    kept = 0
    for row in rows:
        where = everywhere
        if row.page is not None and 1 <= row.page <= len(lines):
            where = lines[row.page - 1]
        kept += kept_together(row, where)
    return kept, len(rows)
