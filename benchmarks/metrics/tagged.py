"""Ground truth from tagged PDFs: the tables and headings that a document's own structure tree
declares (PDF 32000-1, 14.7-14.8).

Word processors and PDF/UA producers write a structure tree: ``H1``-``H6`` headings, ``Table``
elements made of ``TR`` rows of ``TH``/``TD`` cells, each leaf pointing at the marked content
(``MCID``) on a page that draws its text. That is ground truth nobody had to write, on sources
the layout rules were never tuned on; pdfthin's geometric path is scored against it with the
tree ignored (pdfthin does not read the tree).

A tree is only trusted where it is sane: a table needs :data:`MIN_ROWS` rows and
:data:`MIN_COLUMNS` columns with text in at least :data:`MIN_FILLED` of its cells (decorative
or broken trees, a whole page tagged as one cell, fall out), and a heading needs text. A table
the tree holds as one element over several pages is judged page by page, each row on the page
that draws it (every engine writes a page's rows on that page).

The tree is read with pdfplumber (a benchmark dependency, never pdfthin's): ``read_tagged``
adapts it to plain :class:`Element` objects, and everything else here works on those.
"""

from __future__ import annotations

import itertools
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


def truth_from_tree(
    roots: Sequence[Element],
    texts: dict[tuple[int, int], str],
    lefts: dict[tuple[int, int], float] | None = None,
) -> TaggedTruth:
    """The trusted tables and the headings of a structure tree; ``texts`` maps each
    ``(page, mcid)`` to the text that marked content draws, ``lefts`` to where on the page
    that text begins (the left edge of its first word; see :func:`_in_page_order`)."""
    tables: list[tuple[int, Table]] = []
    headings: list[Heading] = []
    for root in roots:
        for element in root.walk():
            if element.type == "Table":
                tables.extend(_tables(element, texts, lefts or {}))
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


def _tables(
    table: Element, texts: dict[tuple[int, int], str], lefts: dict[tuple[int, int], float]
) -> list[tuple[int, Table]]:
    """A ``Table`` element as cells placed on its grid (row and column spans honoured), one
    table per page it runs over, each of them left out when it is too small or too empty to be
    trusted.

    A table the tree holds as one element may run over many pages (a 16-page report's one
    list); every engine writes a page's part of it on that page, so each part is judged on its
    own page: a row belongs to the page that draws most of its cells' text (a row drawing none
    to the page of the row before it), the rows of a page form a table of their own, and a
    cell spanning into the next page's rows ends at its page's last row."""
    cells: Table = []
    #: For each row, how many pieces of marked content its cells draw on each page.
    drawn: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    taken: set[tuple[int, int]] = set()
    for r, row in enumerate(_rows(table)):
        c = 0
        for cell in _in_page_order([e for e in row.children if e.type in _CELLS], lefts):
            while (r, c) in taken:
                c += 1
            rows, cols = _span(cell, "RowSpan"), _span(cell, "ColSpan")
            content = cell.content()
            for page, _ in content:
                drawn[r][page] += 1
            cells.append(Cell(r, c, _text(content, texts), r + rows - 1, c + cols - 1))
            taken.update((r + i, c + j) for i in range(rows) for j in range(cols))
            c += cols
    if not cells:
        return []
    # Each row's page, then the rows cut into runs of one page.
    # (Rows before the first that draws anything go with that one.)
    first = min(drawn, default=0)
    pages: list[int] = []
    for r in range(max(cell.last_row for cell in cells) + 1):
        counts = drawn.get(r if r > first else first)
        if counts:
            pages.append(max(counts, key=lambda p: (counts[p], -p)))
        else:
            pages.append(pages[-1] if pages else 0)
    out: list[tuple[int, Table]] = []
    start = 0
    for end in range(1, len(pages) + 1):
        if end < len(pages) and pages[end] == pages[start]:
            continue
        part = [
            Cell(
                cell.row - start,
                cell.col,
                cell.text,
                min(cell.last_row, end - 1) - start,
                cell.last_col,
            )
            for cell in cells
            if start <= cell.row < end
        ]
        if _trusted(part):
            out.append((pages[start], part))
        start = end
    return out


def _in_page_order(cells: list[Element], lefts: dict[tuple[int, int], float]) -> list[Element]:
    """A row's cells in the order the page shows them. A tree may list a row's cells in
    another order than across the page (a report's last column tagged second): its grid would
    then put their texts beside the wrong neighbours, whatever an engine reads. When every
    cell draws text and their left edges run neither left to right nor right to left (a
    right-to-left table is listed from the right), the cells are put in left-to-right order."""
    edges: list[float] = []
    for cell in cells:
        found = [lefts[m] for m in cell.content() if m in lefts]
        if not found:
            return cells  # a cell without text has no place to be put in
        edges.append(min(found))
    pairs = list(itertools.pairwise(edges))
    if all(a <= b for a, b in pairs) or all(a >= b for a, b in pairs):
        return cells
    return [cell for _, cell in sorted(zip(edges, cells, strict=True), key=lambda p: p[0])]


def _trusted(cells: Table) -> bool:
    """Is a table big enough and filled enough to be ground truth?"""
    if not cells:
        return False
    n_rows = max(cell.last_row for cell in cells) + 1
    n_cols = max(cell.last_col for cell in cells) + 1
    filled = sum(1 for cell in cells if cell.text)
    return n_rows >= MIN_ROWS and n_cols >= MIN_COLUMNS and filled >= MIN_FILLED * len(cells)


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
        lefts: dict[tuple[int, int], float] = {}
        for page in pdf.pages:
            if page.page_number not in wanted:
                continue
            words = page.extract_words(extra_attrs=["mcid"], use_text_flow=True)
            by_mcid: dict[int, list[str]] = defaultdict(list)
            for word in words:
                if word.get("mcid") is not None:
                    key = (page.page_number, int(word["mcid"]))
                    by_mcid[key[1]].append(str(word["text"]))
                    lefts[key] = min(lefts.get(key, float(word["x0"])), float(word["x0"]))
            for mcid, parts in by_mcid.items():
                texts[(page.page_number, mcid)] = " ".join(parts)
    return truth_from_tree(roots, texts, lefts)


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
