"""A tagged page laid out from its structure tree, when the tree is sane on that page.

A tagged PDF's structure tree (``PageContent.structure``, read by the engine) says which text
is a heading of which level, a paragraph, a list item or a table cell of which row, and in
which order the page is read. Many trees are right; some are decorative (the whole page one
``P``), partial, or in an order that has nothing to do with the page. So the tree is only
followed after it is checked against the page's own geometry (:func:`check_tree`), with
thresholds in the page's units; otherwise the page is laid out by geometry, unchanged.

What the tree gives, when it is followed: one block per block-level element (its lines built
by geometry), headings at the level of ``H1``-``H6`` (``H`` by its section nesting), list
items from ``LI``, table grids from ``Table``/``TR``/``TH``/``TD``, and the tree's reading
order. Text the tree does not hold (artifacts, untagged runs) is laid out by geometry after
it. ``IGNORE_ENV`` turns the tree off (the benchmark measures the geometric path that way).
"""

from __future__ import annotations

import bisect
import itertools
import os
from collections import defaultdict
from dataclasses import dataclass, field
from statistics import median
from typing import TYPE_CHECKING

from pdfthin.layout.blocks import build_blocks, joined_line, rejoin_rows
from pdfthin.layout.lines import GUTTER_GAP_EM, SAME_LINE_OVERLAP, build_lines
from pdfthin.layout.order import reading_order
from pdfthin.layout.structure import release_spans
from pdfthin.layout.tables.find import SPAN_CENTRE_EM, find_tables
from pdfthin.layout.types import Block, Line

if TYPE_CHECKING:
    from pdfthin.engine.types import PageContent, PageStructure, StructElement, TextRun

#: Set to ``1`` to lay out every page by geometry, the structure tree ignored.
IGNORE_ENV = "PDFTHIN_IGNORE_STRUCTURE_TREE"

#: Share of the page's visible text (characters, artifacts left out) that the tree must hold
#: for it to be followed: a tree that leaves more untagged would have its order and kinds
#: decided for the rest by geometry, two readings of one page mixed.
MIN_TAGGED_SHARE = 0.9
#: Share of the tree's text that may sit in elements spanning several paragraphs of the page
#: (a gap of ``BLOCK_GAP_EM`` or a change of type size between their lines): a tree that puts
#: the page in one or a few big elements says nothing the geometry does not say better.
MAX_COARSE_SHARE = 0.5
#: A vertical gap between two lines of one column wider than this many ems parts paragraphs
#: (within a paragraph the gap between line boxes is a fraction of an em).
BLOCK_GAP_EM = 1.0
#: Lines of one element whose type sizes differ by more than this ratio are not one paragraph.
SIZE_STEP = 1.2
#: Text the tree does not hold, drawn on one of an element's lines between two of its runs
#: (a contents entry's leader dots, tagged as an artifact between the title and its page
#: number), is that element's: it may reach this many ems into the runs on either side.
BETWEEN_OVERLAP_EM = 0.5
#: Rows of runs are indexed by their middles in bands this many points tall (an index only:
#: whether two runs share a line is their overlap, ``SAME_LINE_OVERLAP``).
_ROW_BUCKET = 4.0
#: Runs compared at most, a page, in looking for those (a hostile page of thousands of
#: untagged runs on one row of thousands of tagged ones stays cheap: the rest stay apart).
MAX_BETWEEN_CHECKS = 200_000
#: Share of consecutive element pairs of one column (overlapping horizontally) that may go
#: back up the page by more than a line: a tree read in an order the page is not drawn in.
MAX_BACKWARD_SHARE = 0.2
#: A heading of more words than this is a paragraph tagged as a heading (a heading is a
#: phrase; a long one is a sentence or two).
MAX_HEADING_WORDS = 40
#: Share of a table's rows whose cells may fail to share a band of the page, or may be listed
#: in an order that is not their order across the page: more, and the tree's table is not
#: the table the page shows.
MAX_MISALIGNED_ROWS = 0.2
#: Share of a table's grid (rows by columns, columns placed by the cells' places in their
#: rows) that must hold text: a tree's table that is mostly empty is a page's layout drawn as
#: a grid (a form, a spreadsheet's empty cells), or lists cells the page does not show.
MIN_TABLE_FILL = 0.5

#: Element types that make a block of their own (the innermost one around a run wins).
BLOCK_TYPES = frozenset(
    "P H H1 H2 H3 H4 H5 H6 Title LI Lbl LBody TD TH Caption Note FENote TOCI BlockQuote "
    "Code Formula Figure BibEntry Index Aside".split()
)
#: Inline element types: a run in one of these belongs to the block around it (a link or an
#: emphasis in a paragraph; a ``NonStruct`` fragment in a browser's ``Div``).
INLINE_TYPES = frozenset(
    "Span Link NonStruct Em Strong Quote Reference Annot Sub Ruby RB RT RP Warichu WT WP "
    "Private".split()
)
_HEADINGS = {f"H{n}": n for n in range(1, 7)}
#: Elements kept as one block even where their lines stand in two columns.
_WHOLE = frozenset({"TD", "TH", "LI", "H", "Title"})
#: Elements whose nesting gives an ``H`` heading its level.
_SECTIONS = frozenset({"Sect", "Part", "Art", "Chapter"})


def _running_text(kind: str) -> bool:
    """Whether an element of ``kind`` holds running text: neither a heading nor one kept
    whole (``_WHOLE``: a cell, a list item)."""
    return kind not in _WHOLE and kind not in _HEADINGS


def ignored() -> bool:
    """Is the structure tree to be ignored (``IGNORE_ENV`` set)?"""
    return os.environ.get(IGNORE_ENV, "") not in ("", "0")


@dataclass(slots=True)
class _Piece:
    """One block-level element's runs on the page, and where its first one is in the tree."""

    element: int
    first: int
    runs: list[TextRun] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)


def tagged_blocks(page: PageContent, runs: list[TextRun]) -> tuple[list[Block] | None, str]:
    """The page's blocks from its structure tree and why; ``None`` (with the reason) when the
    tree is absent, ignored or not sane on this page: the caller lays the page out by
    geometry."""
    tree = page.structure
    if tree is None:
        return None, ""
    if ignored():
        return None, "tree ignored (setting)"
    if tree.problems:
        return None, "tree not used: " + tree.problems[0]
    pieces, rest = _pieces(tree, runs)
    reason = check_tree(tree, pieces, rest) or _untagged_table(tree, pieces, runs, page.rules)
    if reason:
        return None, "tree not used: " + reason
    blocks = _blocks(tree, pieces)
    if rest:
        # Untagged text above all the tree's (a running head) first, the rest after it.
        top = min(b.y0 for b in blocks) if blocks else page.height
        untagged = reading_order(build_blocks(rejoin_rows(build_lines(rest))))
        blocks = [b for b in untagged if b.y1 <= top] + blocks
        blocks += [b for b in untagged if b.y1 > top]
    release_spans([line for block in blocks for line in block.lines], page.height)
    return blocks, "tree used"


def _pieces(tree: PageStructure, runs: list[TextRun]) -> tuple[list[_Piece], list[TextRun]]:
    """The runs grouped by their block-level element, in tree order (a grouping's links
    apart, ``_own_links``; text the tree does not hold inside an element's line with it,
    ``_fill_between``; an element going on where the one before it ends one piece with it,
    ``_one_line_one_piece``); and the runs the tree does not hold (artifacts, untagged text,
    ids with no element)."""
    rank = {mcid: i for i, mcid in enumerate(tree.order)}
    owner: dict[int, tuple[int, int]] = {}  # element -> (its block, the link it is in)
    pieces: dict[int, _Piece] = {}
    links: dict[int, list[tuple[int, TextRun]]] = defaultdict(list)  # block -> (link, run)
    rest: list[TextRun] = []
    for run in runs:
        element = tree.content.get(run.mcid, -1) if not run.artifact else -1
        if element < 0:
            rest.append(run)
            continue
        found = owner.get(element)
        if found is None:
            block = _block_element(tree.elements, element)
            found = owner[element] = (block, _link_in(tree.elements, element, block))
        block, link = found
        piece = pieces.get(block)
        if piece is None:
            piece = pieces[block] = _Piece(block, rank.get(run.mcid, 0))
        piece.first = min(piece.first, rank.get(run.mcid, 0))
        piece.runs.append(run)
        links[block].append((link, run))
    _own_links(pieces, links, rank)
    rest = _fill_between(pieces, rest)
    ordered = sorted(pieces.values(), key=lambda p: (p.first, p.element))
    for piece in ordered:
        piece.lines = build_lines(piece.runs)
    out: list[_Piece] = []
    for piece in _one_line_one_piece(tree, [p for p in ordered if p.lines]):
        out += _by_column(tree, piece)
    return out, rest


def _one_line_one_piece(tree: PageStructure, pieces: list[_Piece]) -> list[_Piece]:
    """A piece of running text (neither a heading, a list item nor a table cell) whose first
    line goes on where the last line of the piece before it in the tree ends, on its
    baseline less than ``GUTTER_GAP_EM`` after it, is that piece's: one line of the page is
    one paragraph's, whatever the tree splits it into (a producer that tags a paragraph as
    pieces of ``P`` around each link it holds, the links their siblings)."""
    elements = tree.elements

    def running(piece: _Piece) -> bool:
        return _running_text(elements[piece.element].kind)

    out: list[_Piece] = []
    grown: set[int] = set()  # (pieces that took others' runs: their lines built once, after)
    tail: Line | None = None  # the last line of the last piece kept, in reading order
    for piece in pieces:
        lines = sorted(piece.lines, key=_top_left)
        last = out[-1] if out else None
        if (
            last is not None
            and tail is not None
            and running(last)
            and running(piece)
            and _goes_on(tail, lines[0])
        ):
            last.runs += piece.runs
            grown.add(id(last))
        else:
            out.append(piece)
        tail = lines[-1]
    for piece in out:
        if id(piece) in grown:
            piece.lines = build_lines(piece.runs)
    return out


def _goes_on(line: Line, after: Line) -> bool:
    """Whether ``after`` stands on ``line``'s line (``_on_one_line``) and starts where it
    ends, less than ``GUTTER_GAP_EM`` of the smaller type after it (or as far back over
    it)."""
    if not _on_one_line(line, after):
        return False
    reach = GUTTER_GAP_EM * min(line.size, after.size)
    return after.x0 > line.x0 and abs(after.x0 - line.x1) < reach


def _on_one_line(a: Line | TextRun, b: Line | TextRun) -> bool:
    """Whether ``a`` and ``b`` overlap vertically by ``SAME_LINE_OVERLAP`` of the lower."""
    overlap = min(a.y1, b.y1) - max(a.y0, b.y0)
    return overlap >= SAME_LINE_OVERLAP * min(a.y1 - a.y0, b.y1 - b.y0)


def _fill_between(pieces: dict[int, _Piece], rest: list[TextRun]) -> list[TextRun]:
    """The runs of ``rest`` (text the tree does not hold) that stand on one element's line
    between two of its runs join that element's piece (``BETWEEN_OVERLAP_EM``); the others
    are returned. Without them the element's line had a hole where they stood (split in two
    there) and they came after the whole tree, a line of dots of their own."""
    if not rest:
        return rest
    rows: dict[int, list[tuple[TextRun, _Piece]]] = defaultdict(list)
    tallest = 0.0
    for piece in pieces.values():
        for run in piece.runs:
            rows[_row_key(run)].append((run, piece))
            tallest = max(tallest, run.y1 - run.y0)
    left: list[TextRun] = []
    budget = [MAX_BETWEEN_CHECKS]
    for run in rest:
        host = _host(run, rows, tallest, budget)
        if host is None:
            left.append(run)
        else:
            host.runs.append(run)
    return left


def _row_key(run: TextRun) -> int:
    return int((run.y0 + run.y1) / 2 // _ROW_BUCKET)


def _host(
    run: TextRun,
    rows: dict[int, list[tuple[TextRun, _Piece]]],
    tallest: float,
    budget: list[int],
) -> _Piece | None:
    """The piece with a run ending where ``run`` starts and another starting where it ends,
    both on its line (overlapping it by ``SAME_LINE_OVERLAP`` of the lower height; such a
    run's middle is less than the taller run's height away: ``tallest`` bounds the rows
    looked at). ``budget`` counts the runs compared (``MAX_BETWEEN_CHECKS``)."""
    height = run.y1 - run.y0
    middle = (run.y0 + run.y1) / 2
    reach_rows = max(height, tallest)
    before: dict[int, _Piece] = {}
    after: set[int] = set()
    first, last = (
        int((middle - reach_rows) // _ROW_BUCKET),
        int((middle + reach_rows) // _ROW_BUCKET),
    )
    for k in range(first, last + 1):
        candidates = rows.get(k, ())
        budget[0] -= len(candidates)
        if budget[0] < 0:
            return None
        for other, piece in candidates:
            if not _on_one_line(run, other):
                continue
            reach = BETWEEN_OVERLAP_EM * (min(run.size, other.size) or 1.0)
            if other.x1 <= run.x0 + reach and other.x0 < run.x0:
                before[id(piece)] = piece
            elif other.x0 >= run.x1 - reach and other.x1 > run.x1:
                after.add(id(piece))
    for ident, piece in before.items():
        if ident in after:
            return piece
    return None


def _by_column(tree: PageStructure, piece: _Piece) -> list[_Piece]:
    """A paragraph that goes on at the top of the next column, as one piece per column, in
    the order the page drew them: one block across the gutter would sort the two columns'
    lines by height into one another (and its box would cover both). The parts stand side
    by side (apart by ``GUTTER_GAP_EM`` of their type at least), and each after the first
    starts above the last line of the one before it. Headings, list items and table cells
    stay whole."""
    kind = tree.elements[piece.element].kind
    if len(piece.lines) < 2 or not _running_text(kind):
        return [piece]
    by_x = sorted(piece.lines, key=lambda ln: ln.x0)
    parts = [[by_x[0]]]
    right = by_x[0].x1
    for line in by_x[1:]:
        if line.x0 - right >= GUTTER_GAP_EM * (line.size or 1.0):
            parts.append([])
        parts[-1].append(line)
        right = max(right, line.x1)
    if len(parts) < 2:
        return [piece]
    parts.sort(key=lambda lines: min(ln.seq for ln in lines))
    for lines in parts:
        lines.sort(key=lambda ln: (ln.y0, ln.x0))
    if any(b[0].y1 > a[-1].y0 for a, b in itertools.pairwise(parts)):
        return [piece]  # a part not above the last line of the one before: no column break
    out: list[_Piece] = []
    for lines in parts:
        x0, _, x1, _ = _box(lines)
        part = _Piece(piece.element, piece.first)
        part.runs = [r for r in piece.runs if x0 <= (r.x0 + r.x1) / 2 <= x1]
        part.lines = lines
        out.append(part)
    return out


def _block_element(elements: list[StructElement], index: int) -> int:
    """The element whose block holds ``index``'s text: the innermost table cell around it (a
    cell holds whatever paragraphs and lists it has), else the innermost list item (its label
    and body are one item), else the innermost block-level element; without one, the
    innermost element around it that is not inline (a ``Div``); ``index`` when none."""
    cell = item = found = grouping = -1
    i = index
    for _ in range(len(elements)):
        if i < 0:
            break
        kind = elements[i].kind
        if kind in ("TD", "TH"):
            cell = i
            break
        if item < 0 and kind == "LI":
            item = i
        if found < 0 and kind in BLOCK_TYPES and kind not in ("Lbl", "LBody"):
            found = i
        if grouping < 0 and kind not in INLINE_TYPES and kind not in BLOCK_TYPES:
            grouping = i
        i = elements[i].parent
    for choice in (cell, item, found, grouping):
        if choice >= 0:
            return choice
    return index


def _link_in(elements: list[StructElement], index: int, block: int) -> int:
    """The link ``index`` is in (itself or an ancestor) below ``block`` when ``block`` is a
    grouping element (``Div``: no block-level element around the text); else ``-1``."""
    if block < 0 or elements[block].kind in BLOCK_TYPES:
        return -1
    i = index
    for _ in range(len(elements)):
        if i < 0 or i == block:
            break
        if elements[i].kind == "Link":
            return i
        i = elements[i].parent
    return -1


def _own_links(
    pieces: dict[int, _Piece],
    links: dict[int, list[tuple[int, TextRun]]],
    rank: dict[int, int],
) -> None:
    """A grouping element whose text is all in links, with other elements' text between
    them in the tree (a producer's ``Div`` holding a paragraph's ``P`` pieces and the
    ``Link`` between them, each link a sibling), is no piece of text: each link is one, so
    that it can go with the text beside it (``_one_line_one_piece``) rather than with the
    grouping's other links, lines apart. Links that follow one another with nothing between
    (an address broken over two lines as two links) stay one piece."""
    split = [
        block
        for block, held in links.items()
        if len({link for link, _ in held}) > 1 and all(link >= 0 for link, _ in held)
    ]
    if not split:
        return
    ranks = sorted(rank.get(run.mcid, 0) for piece in pieces.values() for run in piece.runs)
    for block in split:
        del pieces[block]
        by_link: dict[int, list[TextRun]] = defaultdict(list)
        for link, run in links[block]:
            by_link[link].append(run)
        spans = sorted(
            (min(rank.get(r.mcid, 0) for r in held), max(rank.get(r.mcid, 0) for r in held), link)
            for link, held in by_link.items()
        )
        current: _Piece | None = None
        reach = -1  # the last rank of the links put in ``current``
        for low, high, link in spans:
            # (another element's text between the two links: ranks strictly inside the gap)
            between = bisect.bisect_left(ranks, low) > bisect.bisect_right(ranks, reach)
            if current is None or between:
                current = pieces[link] = _Piece(link, low)
            current.runs += by_link[link]
            reach = max(reach, high)


def _visible_chars(runs: list[TextRun]) -> int:
    return sum(len(r.text.strip()) for r in runs if not r.artifact)


def check_tree(tree: PageStructure, pieces: list[_Piece], rest: list[TextRun]) -> str:
    """Why the tree is not to be followed on this page ("" when it is sane)."""
    tagged = sum(_visible_chars(p.runs) for p in pieces)
    total = tagged + _visible_chars(rest)
    if tagged == 0:
        return "no text of the page is in the tree"
    if tagged < MIN_TAGGED_SHARE * total:
        return f"the tree holds {tagged / total:.0%} of the page's text"
    coarse = sum(
        _visible_chars(p.runs)
        for p in pieces
        if tree.elements[p.element].kind not in ("TD", "TH") and _several_paragraphs(p.lines)
    )
    if coarse > MAX_COARSE_SHARE * tagged:
        return f"{coarse / tagged:.0%} of the tree's text is in elements spanning paragraphs"
    for rows in _tables(tree, pieces).values():
        reason = _table_problem(tree.elements, rows)
        if reason:
            return reason
    backward = _backward_share(tree, pieces)
    if backward > MAX_BACKWARD_SHARE:
        return f"the tree's order goes back up the page {backward:.0%} of the time"
    for piece in pieces:
        kind = tree.elements[piece.element].kind
        words = sum(len(line.text.split()) for line in piece.lines)
        if (kind in _HEADINGS or kind == "H") and words > MAX_HEADING_WORDS:
            return f"a {kind} of {words} words"
    return ""


def _tables(tree: PageStructure, pieces: list[_Piece]) -> dict[int, dict[int, list[_Piece]]]:
    """The page's table cells: by table, then by row (elements' indices), in tree order."""
    tables: dict[int, dict[int, list[_Piece]]] = {}
    for piece in pieces:
        if tree.elements[piece.element].kind in ("TD", "TH"):
            table = _ancestor(tree.elements, piece.element, "Table")
            row = _ancestor(tree.elements, piece.element, "TR")
            tables.setdefault(table, {}).setdefault(row, []).append(piece)
    return tables


def _table_problem(elements: list[StructElement], rows: dict[int, list[_Piece]]) -> str:
    """Why a table's cells are not where the tree says ("" when they are): rows whose cells
    do not share a band of the page, or do not run left to right (or right to left) in the
    order the tree lists them, or a grid that is mostly empty."""
    misaligned = disordered = 0
    for cells in rows.values():
        misaligned += not _one_band(cells)
        ordered = sorted(cells, key=lambda c: elements[c.element].position)
        centres = [sum(_box(c.lines)[0:3:2]) / 2 for c in ordered]
        rightwards = all(a < b for a, b in itertools.pairwise(centres))
        leftwards = all(a > b for a, b in itertools.pairwise(centres))
        disordered += not (rightwards or leftwards)
    if misaligned > MAX_MISALIGNED_ROWS * len(rows):
        return f"{misaligned} of a table's {len(rows)} rows do not line up"
    if disordered > MAX_MISALIGNED_ROWS * len(rows):
        return f"{disordered} of a table's {len(rows)} rows list their cells out of order"
    grid = _grid(elements, rows)
    filled = sum(1 for r in grid for t in r if t) / (len(grid) * len(grid[0]))
    if _tabular(grid) and filled < MIN_TABLE_FILL:
        return f"a table of the tree is mostly empty ({filled:.0%} of its grid holds text)"
    return ""


def _untagged_table(
    tree: PageStructure,
    pieces: list[_Piece],
    runs: list[TextRun],
    rules: list[tuple[float, float, float, float]],
) -> str:
    """Why geometry disagrees with the tree about tables ("" when it does not): a table that
    geometry finds where the tree has no table cell (a table tagged as lines of text)."""
    tables, _ = find_tables(build_lines(runs), rules)
    cells = [_box(p.lines) for p in pieces if tree.elements[p.element].kind in ("TD", "TH")]
    for table in tables:
        inside = [
            c for c in cells
            if table.x0 <= (c[0] + c[2]) / 2 <= table.x1
            and table.y0 <= (c[1] + c[3]) / 2 <= table.y1
        ]  # fmt: skip
        if not inside:
            rows = len(table.rows or [])
            return f"geometry finds a table of {rows} rows that the tree does not tag as one"
    return ""


def _several_paragraphs(lines: list[Line]) -> bool:
    """Do ``lines`` (one element's, top to bottom) hold more than one paragraph: a wide gap
    between lines of one column, or a step in type size?"""
    for above, below in itertools.pairwise(lines):
        size = max(min(above.size, below.size), 1.0)
        same_column = below.x0 < above.x1 and above.x0 < below.x1
        if same_column and below.y0 - above.y1 > BLOCK_GAP_EM * size:
            return True
        if max(above.size, below.size) > SIZE_STEP * size:
            return True
    return False


def _backward_share(tree: PageStructure, pieces: list[_Piece]) -> float:
    """Share of consecutive (non-cell) elements of one column where the tree goes back up
    the page by more than a line."""
    boxes = [
        (_box(p.lines), p.lines[-1].y1 - p.lines[-1].y0)
        for p in pieces
        if tree.elements[p.element].kind not in ("TD", "TH")
    ]
    pairs = backward = 0
    for (a, _), (b, line) in itertools.pairwise(boxes):
        if not (b[0] < a[2] and a[0] < b[2]):
            continue  # side by side: another column, any order
        pairs += 1
        if b[3] < a[1] - line:
            backward += 1
    return backward / pairs if pairs else 0.0


def _box(lines: list[Line]) -> tuple[float, float, float, float]:
    return (
        min(ln.x0 for ln in lines),
        min(ln.y0 for ln in lines),
        max(ln.x1 for ln in lines),
        max(ln.y1 for ln in lines),
    )


def _block(lines: list[Line], kind: str = "paragraph", level: int = 0) -> Block:
    x0, y0, x1, y1 = _box(lines)
    size = median(ln.size for ln in lines)
    bold = all(ln.bold for ln in lines)
    return Block(list(lines), x0, y0, x1, y1, size, bold, kind, level)


def _blocks(tree: PageStructure, pieces: list[_Piece]) -> list[Block]:
    """One block per piece, in tree order; a table's cells as one table block where its
    first cell is."""
    elements = tree.elements
    out: list[Block | int] = []
    tables = _tables(tree, pieces)
    placed: set[int] = set()
    for piece in pieces:
        kind = elements[piece.element].kind
        if kind in ("TD", "TH"):
            table = _ancestor(elements, piece.element, "Table")
            if table not in placed:
                placed.add(table)
                out.append(table)  # the whole table, where its first cell is
        elif kind in _HEADINGS:
            out.append(_block(piece.lines, "heading", _HEADINGS[kind]))
        elif kind in ("H", "Title"):
            out.append(_block(piece.lines, "heading", _nesting(elements, piece.element)))
        elif kind == "LI":
            out.append(_block(piece.lines, "list_item"))
        else:
            out.append(_block(piece.lines))
    result: list[Block] = []
    for block in out:
        if isinstance(block, int):
            result += _table(elements, tables[block])
        else:
            result.append(block)
    return result


def _ancestor(elements: list[StructElement], index: int, kind: str) -> int:
    i = elements[index].parent
    for _ in range(len(elements)):
        if i < 0 or elements[i].kind == kind:
            return i
        i = elements[i].parent
    return -1


def _nesting(elements: list[StructElement], index: int) -> int:
    """An ``H`` heading's level: 1 plus the sections it is nested in (at most 6)."""
    if elements[index].kind == "Title":
        return 1
    depth = 0
    i = elements[index].parent
    for _ in range(len(elements)):
        if i < 0:
            break
        depth += elements[i].kind in _SECTIONS
        i = elements[i].parent
    return max(1, min(depth, 6))


def _table(elements: list[StructElement], rows: dict[int, list[_Piece]]) -> list[Block]:
    """A table's cells as a table block, rows and columns as the tree has them (a title
    row first, as a paragraph over it: ``_title_row``); when it is not at least two rows of
    two filled cells, each row as one line of text, so a row's label stays with its values
    (docs/design.md, invariant 16), and a row of one cell as that cell's lines."""
    title = _title_row(rows)
    if title is not None:
        # The first row is the table's title, centred over it: a paragraph above it.
        below = {r: cells for r, cells in rows.items() if cells is not title}
        return [_block(sorted(title[0].lines, key=_top_left)), *_table(elements, below)]
    grid = _grid(elements, rows)
    if not _tabular(grid):
        out: list[Block] = []
        for row in rows.values():
            if len(row) == 1:
                # One cell: a box drawn around text (a notice, a form's question and its
                # answer), its lines top to bottom as one block, those on one row as one
                # (its paragraphs apart, a short answer in a larger type would pass for a
                # heading).
                out.append(_block(_rows_of(row[0].lines)))
            else:
                out.append(_row_line(row))
        return out
    table = _block([ln for cells in rows.values() for c in cells for ln in c.lines], "table")
    table.rows = grid
    return [table]


def _title_row(rows: dict[int, list[_Piece]]) -> list[_Piece] | None:
    """The table's first row when it is its title: one cell holding one line, centred
    (within ``SPAN_CENTRE_EM``) over the table's other rows, two or more of several cells
    each (a producer may tag a title spread over the table as any one of a row's cells)."""
    if len(rows) < 3:
        return None
    first, *others = rows.values()
    if len(first) != 1 or len(first[0].lines) != 1 or sum(len(r) >= 2 for r in others) < 2:
        return None
    line = first[0].lines[0]
    rest = [ln for row in others for cell in row for ln in cell.lines]
    middle = (min(ln.x0 for ln in rest) + max(ln.x1 for ln in rest)) / 2
    if abs((line.x0 + line.x1) / 2 - middle) > SPAN_CENTRE_EM * (line.size or 1.0):
        return None
    return first


def _tabular(grid: list[list[str]]) -> bool:
    """At least two columns and two rows of two filled cells."""
    filled = sum(1 for r in grid if sum(1 for t in r if t) >= 2)
    return len(grid[0]) >= 2 and filled >= 2


def _grid(elements: list[StructElement], rows: dict[int, list[_Piece]]) -> list[list[str]]:
    """A table's cell texts, rows in tree order. Each of a row's kids takes the next column
    not covered by a cell spanning down from a row above (``/RowSpan``), and as many columns
    as it spans (``/ColSpan``); a kid with no text on the page (an empty cell) takes one.
    Rows padded to one width, columns empty in every row left out."""
    grid: list[list[str]] = []
    places: list[dict[int, _Piece]] = []  # each row's cells of one column, by column
    covered: dict[int, int] = {}  # column -> rows still covered by a cell from above
    for row in rows.values():
        by_place = {elements[c.element].position: c for c in row}
        texts: list[str] = []
        placed: dict[int, _Piece] = {}
        column = 0
        for place in range(max(by_place) + 1):
            while covered.get(column, 0) > 0:
                column += 1
            cell = by_place.get(place)
            colspan = rowspan = 1
            if cell is not None:
                element = elements[cell.element]
                colspan, rowspan = element.colspan, element.rowspan
            texts += [""] * (column + colspan - len(texts))
            if cell is not None:
                texts[column] = " ".join(ln.text for ln in cell.lines)
                if colspan == 1:
                    placed[column] = cell
            for c in range(column, column + colspan):
                covered[c] = max(covered.get(c, 0), rowspan)
            column += colspan
        covered = {c: n - 1 for c, n in covered.items() if n > 1}
        grid.append(texts)
        places.append(placed)
    width = max(len(r) for r in grid)
    _by_geometry(grid, places, width)
    grid = [r + [""] * (width - len(r)) for r in grid]
    # Columns empty in every row (cells the page leaves blank, or kids that are no cells)
    # are left out, as geometry's tables leave them out.
    keep = [c for c in range(width) if any(r[c] for r in grid)] or [0]
    return [[r[c] for c in keep] for r in grid]


def _by_geometry(grid: list[list[str]], places: list[dict[int, _Piece]], width: int) -> None:
    """Rows whose cells the tree puts in columns they do not stand in, put where they stand.
    A producer that merges a cell down over rows without ``/RowSpan`` lists the rows under
    it with fewer cells, or with an empty kid first, and every cell after shifts a column
    over. Where the rows that fill every column (their cells one column wide) show where
    each column lies, a row whose cells each stand inside one of those columns, in order,
    takes its cells' texts there."""
    full = [p for p, texts in zip(places, grid, strict=True) if len(p) == width == len(texts)]
    if len(full) < 2:
        return
    lefts = [median(_box(p[c].lines)[0] for p in full) for c in range(width)]
    rights = [median(_box(p[c].lines)[2] for p in full) for c in range(width)]
    if any(rights[c] >= lefts[c + 1] for c in range(width - 1)):
        return  # columns that overlap place nothing
    bounds = [(rights[c] + lefts[c + 1]) / 2 for c in range(width - 1)]
    for k, placed in enumerate(places):
        if not placed or len(placed) == width:
            continue
        where = {}
        for c, cell in placed.items():
            x0, _, x1, _ = _box(cell.lines)
            where[c] = bisect.bisect_right(bounds, x0)
            if bisect.bisect_right(bounds, x1) != where[c]:
                where = {}  # a cell across columns: a merged one, whatever the tree says
                break
        if not where:
            continue
        moved = [where[c] for c in sorted(placed)]
        if moved == sorted(placed) or len(set(moved)) < len(moved) or moved != sorted(moved):
            continue
        row = grid[k] + [""] * (width - len(grid[k]))
        if any(row[c] and c not in placed for c in moved):
            continue  # (a cell spanning columns stands there)
        texts = {where[c]: row[c] for c in placed}
        grid[k] = [texts.get(c, "" if c in placed else row[c]) for c in range(width)]


def _one_band(row: list[_Piece]) -> bool:
    """Do a row's cells share a band of the page (every cell's box overlaps every other's
    vertically)?"""
    top = max(min(ln.y0 for ln in c.lines) for c in row)
    bottom = min(max(ln.y1 for ln in c.lines) for c in row)
    return top < bottom


def _top_left(line: Line) -> tuple[float, float]:
    return line.y0, line.x0


def _row_line(row: list[_Piece]) -> Block:
    """A table row kept as one line of text: its cells left to right, each cell's lines
    top to bottom (sorting all the lines by where they start would shuffle a cell's lines
    that start at different places, a centred cell's), joined as a row's pieces are on an
    untagged page (``joined_line``: right to left when the text is, in the look of its
    longest plain piece, so a bold label and its value make no heading)."""
    cells = sorted(row, key=lambda cell: min(ln.x0 for ln in cell.lines))
    lines = [ln for cell in cells for ln in sorted(cell.lines, key=_top_left)]
    block = _block(lines)
    block.lines = [joined_line(lines)]
    return block


def _rows_of(lines: list[Line]) -> list[Line]:
    """``lines`` top to bottom, those on one row (each one's middle inside the other's
    height) joined left to right into one line: a contents entry's number, title and page
    set apart on their baseline."""
    out: list[list[Line]] = []
    for line in sorted(lines, key=_top_left):
        if out:
            last = out[-1][-1]
            if (
                last.y0 < (line.y0 + line.y1) / 2 < last.y1
                and line.y0 < (last.y0 + last.y1) / 2 < line.y1
            ):
                out[-1].append(line)
                continue
        out.append([line])
    return [
        row[0] if len(row) == 1 else joined_line(sorted(row, key=lambda ln: ln.x0)) for row in out
    ]
