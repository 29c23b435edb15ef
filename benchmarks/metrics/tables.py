"""Table structure: ICDAR 2013 adjacency relations between neighbouring cells.

Every non-empty cell is related to its nearest non-empty neighbour to the right (in each row
it spans) and below (in each column it spans). A relation is ``(text, neighbour text,
direction)`` with texts normalised (NFKC, ligatures, case, no whitespace). Precision and
recall compare the multisets of relations of a whole document: predicted tables pooled
against ground-truth tables pooled (Göbel et al., ICDAR 2013 Table Competition, without the
region-correspondence step).
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.metrics.text import (
    TABLE_SEPARATOR,
    expand_ligatures,
    is_table_row,
    split_row,
    strip_inline,
)

Relation = tuple[str, str, str]


@dataclass(frozen=True)
class Cell:
    row: int
    col: int
    text: str
    end_row: int | None = None
    end_col: int | None = None

    @property
    def last_row(self) -> int:
        return self.row if self.end_row is None else max(self.row, self.end_row)

    @property
    def last_col(self) -> int:
        return self.col if self.end_col is None else max(self.col, self.end_col)


Table = list[Cell]


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", expand_ligatures(text)).casefold()
    text = re.sub(r"[\u2010-\u2015\u2212]", "-", text)
    return "".join(text.split())


def relations(table: Table) -> Counter[Relation]:
    """Adjacency relations of one table (each pair of cells counted once per direction)."""
    grid: dict[tuple[int, int], int] = {}
    for index, cell in enumerate(table):
        for r in range(cell.row, cell.last_row + 1):
            for c in range(cell.col, cell.last_col + 1):
                grid.setdefault((r, c), index)
    if not grid:
        return Counter()
    max_row = max(r for r, _ in grid)
    max_col = max(c for _, c in grid)
    texts = [normalise(cell.text) for cell in table]
    pairs: set[tuple[int, int, str]] = set()
    for index, cell in enumerate(table):
        if not texts[index]:
            continue
        for r in range(cell.row, cell.last_row + 1):
            for c in range(cell.last_col + 1, max_col + 1):
                other = grid.get((r, c))
                if other is not None and other != index and texts[other]:
                    pairs.add((index, other, "h"))
                    break
        for c in range(cell.col, cell.last_col + 1):
            for r in range(cell.last_row + 1, max_row + 1):
                other = grid.get((r, c))
                if other is not None and other != index and texts[other]:
                    pairs.add((index, other, "v"))
                    break
    return Counter((texts[a], texts[b], d) for a, b, d in pairs)


def document_relations(tables: Iterable[Table]) -> Counter[Relation]:
    total: Counter[Relation] = Counter()
    for table in tables:
        total.update(relations(table))
    return total


# --- reading tables ---------------------------------------------------------------------------


def read_icdar_structure(path: Path) -> list[Table]:
    """Tables of an ICDAR 2013 ``*-str.xml`` file, one per region (a region is one page)."""
    return [table for _, table in read_icdar_pages(path)]


def read_icdar_pages(path: Path) -> list[tuple[int | None, Table]]:
    """Tables of an ICDAR 2013 ``*-str.xml`` file with the page of each (None if unsaid)."""
    root = ET.parse(path).getroot()
    tables: list[tuple[int | None, Table]] = []
    for region in root.iter("region"):
        page = region.get("page")
        cells: Table = []
        for cell in region.iter("cell"):
            content = cell.findtext("content") or ""
            start_row = int(cell.get("start-row", "0"))
            start_col = int(cell.get("start-col", "0"))
            end_row = cell.get("end-row")
            end_col = cell.get("end-col")
            cells.append(
                Cell(
                    start_row,
                    start_col,
                    content,
                    int(end_row) if end_row is not None else None,
                    int(end_col) if end_col is not None else None,
                )
            )
        if cells:
            tables.append((int(page) if page and page.isdigit() else None, cells))
    return tables


def tables_from_markdown(markdown: str) -> list[Table]:
    """GitHub pipe tables of a Markdown page (inline Markdown and ``<br>`` removed)."""
    tables: list[Table] = []
    rows: list[list[str]] = []

    def flush() -> None:
        if rows:
            tables.append(
                [Cell(r, c, text) for r, row in enumerate(rows) for c, text in enumerate(row)]
            )
            rows.clear()

    for line in markdown.split("\n"):
        if is_table_row(line):
            if not TABLE_SEPARATOR.match(line):
                rows.append([strip_inline(cell) for cell in split_row(line)])
        else:
            flush()
    flush()
    return tables


def tables_from_rows(raw: Iterable[list[list[str]]]) -> list[Table]:
    """Tables given as rows of cell strings (pdfplumber's ``extract_tables``)."""
    return [
        [Cell(r, c, text or "") for r, row in enumerate(table) for c, text in enumerate(row)]
        for table in raw
    ]


# --- score ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableScore:
    predicted: int
    expected: int
    correct: int

    @property
    def precision(self) -> float:
        return self.correct / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.correct / self.expected if self.expected else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def as_dict(self) -> dict[str, float | int]:
        return {
            "predicted": self.predicted,
            "expected": self.expected,
            "correct": self.correct,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
        }


def within(predicted: Counter[Relation], tables: Iterable[Table]) -> Counter[Relation]:
    """The predicted relations between texts that the ground-truth tables contain.

    For ground truth that covers one table of a page and not the rest (camelot's tests), a
    relation between texts the truth does not have cannot be judged right or wrong.
    """
    known = {normalise(cell.text) for table in tables for cell in table}
    return Counter({rel: n for rel, n in predicted.items() if rel[0] in known and rel[1] in known})


def score(predicted: Counter[Relation], expected: Counter[Relation]) -> TableScore:
    correct = sum((predicted & expected).values())
    return TableScore(sum(predicted.values()), sum(expected.values()), correct)
