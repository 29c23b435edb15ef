"""Tagged ground truth: tables and headings read from a structure tree, on hand-made trees."""

from __future__ import annotations

from pathlib import Path

from benchmarks.metrics.headings import Heading
from benchmarks.metrics.tables import relations
from benchmarks.metrics.tagged import Element, truth_from_tree


def _cell(kind: str, mcid: int, page: int = 1, **attributes: object) -> Element:
    return Element(kind, [(page, mcid)], dict(attributes))


def _row(*cells: Element) -> Element:
    return Element("TR", children=list(cells))


TEXTS = {(1, i): f"t{i}" for i in range(40)} | {(2, 0): "Later section"}


def test_table_cells_are_placed_with_spans_and_row_groups() -> None:
    table = Element(
        "Table",
        children=[
            Element("THead", children=[_row(_cell("TH", 0, ColSpan=2), _cell("TH", 1))]),
            Element(
                "TBody",
                children=[
                    _row(_cell("TD", 2, RowSpan=2), _cell("TD", 3), _cell("TD", 4)),
                    _row(_cell("TD", 5), _cell("TD", 6)),
                ],
            ),
        ],
    )
    truth = truth_from_tree([Element("Document", children=[table])], TEXTS)
    ((page, cells),) = truth.tables
    assert page == 1
    placed = {(c.row, c.col, c.last_row, c.last_col): c.text for c in cells}
    # The spanning header cell takes two columns; the spanning body cell pushes the next
    # row's cells right by one.
    assert placed == {
        (0, 0, 0, 1): "t0",
        (0, 2, 0, 2): "t1",
        (1, 0, 2, 0): "t2",
        (1, 1, 1, 1): "t3",
        (1, 2, 1, 2): "t4",
        (2, 1, 2, 1): "t5",
        (2, 2, 2, 2): "t6",
    }
    # Relations follow the placed grid: t5 sits below t3, t2 (two rows high) beside both.
    rel = relations(cells)
    assert rel[("t3", "t5", "v")] == 1
    assert rel[("t2", "t3", "h")] == 1 and rel[("t2", "t5", "h")] == 1


def test_a_table_running_over_pages_is_judged_page_by_page() -> None:
    # One Table element whose rows are drawn on pages 1, 1, 2, 2 and 3: a cell of the second
    # row spans into page 2's first row; page 3 holds one row, too few to be trusted.
    texts = {(page, i): f"p{page}m{i}" for page in (1, 2, 3) for i in range(10)}
    table = Element(
        "Table",
        children=[
            _row(_cell("TH", 0), _cell("TH", 1)),
            _row(_cell("TD", 2, RowSpan=2), _cell("TD", 3)),
            _row(_cell("TD", 0, page=2)),
            _row(_cell("TD", 1, page=2), _cell("TD", 2, page=2)),
            _row(_cell("TD", 0, page=3), _cell("TD", 1, page=3)),
        ],
    )
    truth = truth_from_tree([Element("Document", children=[table])], texts)
    assert [page for page, _ in truth.tables] == [1, 2]
    first, second = (cells for _, cells in truth.tables)
    assert {(c.row, c.col, c.last_row, c.last_col): c.text for c in first} == {
        (0, 0, 0, 0): "p1m0",
        (0, 1, 0, 1): "p1m1",
        (1, 0, 1, 0): "p1m2",  # its row span ends with its page
        (1, 1, 1, 1): "p1m3",
    }
    # Page 2's rows are a table of their own, from row 0; the spanning cell's column stays
    # taken in its first row there.
    assert {(c.row, c.col, c.last_row, c.last_col): c.text for c in second} == {
        (0, 1, 0, 1): "p2m0",
        (1, 0, 1, 0): "p2m1",
        (1, 1, 1, 1): "p2m2",
    }
    # No relation crosses the page break: page 1's last row has nothing below it.
    assert not [r for r in relations(first) if r[2] == "v" and r[0] in {"p1m2", "p1m3"}]


def test_a_row_listed_out_of_page_order_is_put_in_page_order() -> None:
    # Row 0 is listed as the page shows it; row 1 lists its last column second (as a
    # report's tree did); row 2 is listed right to left (a right-to-left table): kept.
    lefts = {(1, 0): 10.0, (1, 1): 50.0, (1, 2): 90.0}
    lefts |= {(1, 3): 10.0, (1, 4): 90.0, (1, 5): 50.0}
    lefts |= {(1, 6): 90.0, (1, 7): 50.0, (1, 8): 10.0}
    table = Element(
        "Table",
        children=[
            _row(*(_cell("TD", i) for i in (0, 1, 2))),
            _row(*(_cell("TD", i) for i in (3, 4, 5))),
            _row(*(_cell("TD", i) for i in (6, 7, 8))),
        ],
    )
    truth = truth_from_tree([Element("Document", children=[table])], TEXTS, lefts)
    ((_, cells),) = truth.tables
    rows = [[c.text for c in sorted(cells, key=lambda c: c.col) if c.row == r] for r in range(3)]
    assert rows == [["t0", "t1", "t2"], ["t3", "t5", "t4"], ["t6", "t7", "t8"]]
    # Without positions the tree's order is all there is.
    ((_, cells),) = truth_from_tree([Element("Document", children=[table])], TEXTS).tables
    assert [c.text for c in cells if c.row == 1] == ["t3", "t4", "t5"]


def test_cell_text_comes_from_all_its_descendants_in_order() -> None:
    cell = Element(
        "TD",
        children=[Element("P", [(1, 7)]), Element("Span", [(1, 8)])],
    )
    table = Element(
        "Table", children=[_row(cell, _cell("TD", 9)), _row(_cell("TD", 10), _cell("TD", 11))]
    )
    ((_, cells),) = truth_from_tree([table], TEXTS).tables
    assert cells[0].text == "t7 t8"


def test_tiny_or_empty_tables_are_not_trusted() -> None:
    one_row = Element("Table", children=[_row(_cell("TD", 0), _cell("TD", 1))])
    one_column = Element("Table", children=[_row(_cell("TD", 0)), _row(_cell("TD", 1))])
    empty = Element(
        "Table",
        children=[_row(_cell("TD", 30), Element("TD")), _row(Element("TD"), Element("TD"))],
    )
    assert truth_from_tree([one_row, one_column, empty], {(1, 30): "x"}).tables == []


def test_headings_with_levels_pages_and_text() -> None:
    tree = Element(
        "Document",
        children=[
            Element("H1", children=[Element("Span", [(1, 0)]), Element("Span", [(1, 1)])]),
            Element("P", [(1, 2)]),
            Element("H", [(2, 0)]),
            Element("H3", []),  # no content: not a heading of the page
        ],
    )
    assert truth_from_tree([tree], TEXTS).headings == [
        Heading(1, "t0 t1", 1),
        Heading(1, "Later section", 2),
    ]


def test_tagged_truth_scores_tables_by_page_and_headings_without_an_outline(
    tmp_path: Path,
) -> None:
    from benchmarks import corpus, engines, score
    from benchmarks.metrics.tables import Cell
    from benchmarks.metrics.tagged import TaggedTruth

    relpath = "pdfjs/tagged.pdf"
    entry = corpus.Entry(relpath, 2, 1, (), frozenset({"tagged"}))
    table = [Cell(0, 0, "Name"), Cell(0, 1, "Total"), Cell(1, 0, "Goa"), Cell(1, 1, "42")]
    headings = [Heading(1, "Intro", 1), Heading(2, "Method", 1), Heading(2, "Results", 2)]
    good = "# Intro\n\n## Method\n\n| Name | Total |\n|---|---|\n| Goa | 42 |\n"
    raw = [
        {
            "engine": "pdfthin",
            "file": relpath,
            "variant": "main",
            "outcome": "ok",
            "pages": [{"text": "unrelated"}, {"text": good + "\n## Results\n"}],
        }
    ]
    run = score.Run.build(
        raw, [engines.ENGINES["pdfthin"]], [entry], corpus.Corpus(tmp_path, (entry,))
    )
    # The tree says the table is on page 1: found on page 2, it does not count.
    run.tagged_truth = {relpath: TaggedTruth([(1, table)], headings)}
    tables = score.table_fidelity(run)
    assert tables["tagged"] == [relpath]
    assert tables["engines"]["pdfthin"]["files"][relpath]["recall"] == 0.0
    run.tagged_truth = {relpath: TaggedTruth([(2, table)], headings)}
    tables = score.table_fidelity(run)
    assert tables["engines"]["pdfthin"]["files"][relpath]["f1"] == 1.0
    heads = score.heading_fidelity(run)
    assert heads["tagged"] == [relpath]
    assert heads["engines"]["pdfthin"]["files"][relpath]["f1"] == 1.0
