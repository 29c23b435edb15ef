"""Ground truth from tagged PDFs: the tables and headings that a document's own structure tree
declares (PDF 32000-1, 14.7-14.8).

Word processors and PDF/UA producers write a structure tree: ``H1``-``H6`` headings, ``Table``
elements made of ``TR`` rows of ``TH``/``TD`` cells, each leaf pointing at the marked content
(``MCID``) on a page that draws its text. That is ground truth nobody had to write, on sources
the layout rules were never tuned on; pdfthin's geometric path is scored against it with the
tree ignored (pdfthin does not read the tree).

A tree is only trusted where it is sane: a table needs :data:`MIN_ROWS` rows and
:data:`MIN_COLUMNS` columns with text in at least :data:`MIN_FILLED` of its cells (decorative
or broken trees, a whole page tagged as one cell, fall out), and a heading needs text.

The tree is read with pdfplumber (a benchmark dependency, never pdfthin's): ``read_tagged``
adapts it to plain :class:`Element` objects, and everything else here works on those.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.metrics.headings import Heading
from benchmarks.metrics.tables import Cell, Table

#: A trusted table has at least this many rows and columns...
MIN_ROWS = 2
MIN_COLUMNS = 2
#: ... and text in at least this share of its cells.
MIN_FILLED = 0.5
#: Headings of a heading element ``H`` (no level) count as this level.
PLAIN_H_LEVEL = 1

_LEVELLED = re.compile(r"^H([1-6])$")
_ROW_GROUPS = frozenset({"THead", "TBody", "TFoot"})
_CELLS = frozenset({"TH", "TD"})


@dataclass
class Element:
    """A structure element: its type, the marked content it owns directly (``(page, mcid)``),
    its attributes (``ColSpan``, ``RowSpan``) and its children."""

    type: str
    mcids: list[tuple[int, int]] = field(default_factory=list)
    attributes: dict[str, Any] = field(default_factory=dict)
    children: list[Element] = field(default_factory=list)

    def walk(self) -> Iterable[Element]:
        yield self
        for child in self.children:
            yield from child.walk()

    def content(self) -> list[tuple[int, int]]:
        return [mcid for element in self.walk() for mcid in element.mcids]


@dataclass(frozen=True)
class TaggedTruth:
    #: ``(page, table)`` for each trusted table, page 1-based.
    tables: list[tuple[int, Table]]
    headings: list[Heading]


def truth_from_tree(roots: Sequence[Element], texts: dict[tuple[int, int], str]) -> TaggedTruth:
    """The trusted tables and the headings of a structure tree; ``texts`` maps each
    ``(page, mcid)`` to the text that marked content draws."""
    tables: list[tuple[int, Table]] = []
    headings: list[Heading] = []
    for root in roots:
        for element in root.walk():
            if element.type == "Table":
                found = _table(element, texts)
                if found is not None:
                    tables.append(found)
                continue
            level = _heading_level(element.type)
            if level:
                content = element.content()
                title = _text(content, texts)
                if title and content:
                    headings.append(Heading(level, title, content[0][0]))
    return TaggedTruth(tables, headings)


def _heading_level(kind: str) -> int:
    if kind == "H":
        return PLAIN_H_LEVEL
    match = _LEVELLED.match(kind)
    return int(match.group(1)) if match else 0


def _text(content: list[tuple[int, int]], texts: dict[tuple[int, int], str]) -> str:
    return " ".join(" ".join(texts.get(mcid, "") for mcid in content).split())


def _rows(table: Element) -> list[Element]:
    rows: list[Element] = []
    for child in table.children:
        if child.type == "TR":
            rows.append(child)
        elif child.type in _ROW_GROUPS:
            rows.extend(c for c in child.children if c.type == "TR")
    return rows


def _span(element: Element, key: str) -> int:
    try:
        return max(1, int(element.attributes.get(key, 1)))
    except (TypeError, ValueError):
        return 1


def _table(table: Element, texts: dict[tuple[int, int], str]) -> tuple[int, Table] | None:
    """A ``Table`` element as cells placed on its grid (row and column spans honoured), or
    ``None`` when it is too small or too empty to be trusted."""
    cells: Table = []
    taken: set[tuple[int, int]] = set()
    pages: dict[int, int] = defaultdict(int)
    for r, row in enumerate(_rows(table)):
        c = 0
        for cell in (e for e in row.children if e.type in _CELLS):
            while (r, c) in taken:
                c += 1
            rows, cols = _span(cell, "RowSpan"), _span(cell, "ColSpan")
            content = cell.content()
            for page, _ in content:
                pages[page] += 1
            cells.append(Cell(r, c, _text(content, texts), r + rows - 1, c + cols - 1))
            taken.update((r + i, c + j) for i in range(rows) for j in range(cols))
            c += cols
    if not cells:
        return None
    n_rows = max(cell.last_row for cell in cells) + 1
    n_cols = max(cell.last_col for cell in cells) + 1
    filled = sum(1 for cell in cells if cell.text)
    if n_rows < MIN_ROWS or n_cols < MIN_COLUMNS or filled < MIN_FILLED * len(cells):
        return None
    page = max(pages, key=lambda p: pages[p]) if pages else 0
    return page, cells


def read_tagged(path: Path, password: str | None = None) -> TaggedTruth | None:
    """The tagged ground truth of a PDF, or ``None`` when it has no structure tree or one
    pdfplumber cannot read (a few corpus trees are malformed: no truth is better than a guess)."""
    import pdfplumber  # a benchmark dependency, imported where tagged truth is read
    from pdfplumber.structure import PDFStructTree

    with pdfplumber.open(path, password=password or "") as pdf:
        try:
            tree = PDFStructTree(pdf)
        except Exception:  # StructTreeMissing, or a tree pdfplumber chokes on
            return None
        single = 1 if len(pdf.pages) == 1 else None
        roots = [_element(e, single) for e in tree]
        wanted = {page for root in roots for page, _ in root.content()}
        texts: dict[tuple[int, int], str] = {}
        for page in pdf.pages:
            if page.page_number not in wanted:
                continue
            words = page.extract_words(extra_attrs=["mcid"], use_text_flow=True)
            by_mcid: dict[int, list[str]] = defaultdict(list)
            for word in words:
                if word.get("mcid") is not None:
                    by_mcid[int(word["mcid"])].append(str(word["text"]))
            for mcid, parts in by_mcid.items():
                texts[(page.page_number, mcid)] = " ".join(parts)
    return truth_from_tree(roots, texts)


def _element(node: Any, inherited: int | None) -> Element:
    """pdfplumber's element as an :class:`Element`; a page not named on the element is its
    nearest ancestor's (``/Pg`` is inherited, 14.7.2), or the only page of a one-page file."""
    page = getattr(node, "page_number", None) or inherited
    mcids = [(int(page), int(m)) for m in (node.mcids or [])] if page is not None else []
    return Element(
        str(node.type),
        mcids,
        dict(node.attributes or {}),
        [_element(child, page) for child in node.children],
    )
