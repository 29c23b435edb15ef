"""Table detection on synthetic lines and rules, and on ICDAR 2013 pages of the corpus.

Synthetic lines are 10 pt text whose characters advance 5 pt each; a row's baseline is at
``y``. Rules are ``(x0, y0, x1, y1)`` in page coordinates (y down).
"""

from __future__ import annotations

import pytest
from conftest import CORPUS, require_corpus
from layouts import open_with_layouts

from pdfthin.layout.tables.cells import is_value, join_wrapped, share_words, soft_split
from pdfthin.layout.tables.columns import whitespace_boundaries
from pdfthin.layout.tables.find import _run_end, find_tables
from pdfthin.layout.tables.grid import find_grids
from pdfthin.layout.types import Block, Line

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")

Rule = tuple[float, float, float, float]


def ln(text: str, x: float, y: float, size: float = 10.0, width: float | None = None) -> Line:
    w = len(text) * 0.5 * size if width is None else width
    return Line(text, x, y - 0.8 * size, x + w, y + 0.2 * size, size)


def grid_rules(xs: list[float], ys: list[float]) -> list[Rule]:
    """A full lattice: every column line and every row line."""
    rules: list[Rule] = [(xs[0], y, xs[-1], y) for y in ys]
    rules += [(x, ys[0], x, ys[-1]) for x in xs]
    return rules


def only_table(lines: list[Line], rules: list[Rule]) -> Block:
    tables, _ = find_tables(lines, rules)
    assert len(tables) == 1, [t.rows for t in tables]
    return tables[0]


# --- ruled grids ------------------------------------------------------------------------------


def test_grid_from_connected_rules() -> None:
    (grid,) = find_grids(grid_rules([50, 150, 250, 350], [100, 120, 140, 160]))
    assert [round(x) for x in grid.xs] == [50, 150, 250, 350]
    assert [round(y) for y in grid.ys] == [100, 120, 140, 160]
    assert all(all(row) for row in grid.vrule)


def test_double_drawn_borders_are_one_boundary() -> None:
    rules = grid_rules([50, 150, 250], [100, 120, 140])
    rules += [(x + 0.3, y0, x + 0.3, y1) for x, y0, x1, y1 in rules if x == x1]
    (grid,) = find_grids(rules)
    assert len(grid.xs) == 3


def test_ruled_table_cells() -> None:
    rules = grid_rules([50, 150, 250, 350], [100, 120, 140, 160])
    lines = [
        ln("Name", 55, 114), ln("Qty", 155, 114), ln("Price", 255, 114),
        ln("apple", 55, 134), ln("3", 155, 134), ln("1.20", 255, 134),
        ln("pear", 55, 154), ln("10", 155, 154), ln("0.50", 255, 154),
    ]  # fmt: skip
    table = only_table(lines, rules)
    assert table.rows == [["Name", "Qty", "Price"], ["apple", "3", "1.20"], ["pear", "10", "0.50"]]


def test_wrapped_cell_in_a_ruled_row_is_one_cell() -> None:
    rules = grid_rules([50, 200, 300], [100, 120, 150, 170])
    lines = [
        ln("Substance", 55, 114), ln("kg/year", 205, 114),
        ln("Chlorine and inorganic", 55, 132), ln("10 000", 205, 138), ln("compounds", 55, 144),
        ln("Halons", 55, 164), ln("1", 205, 164),
    ]  # fmt: skip
    table = only_table(lines, rules)
    assert table.rows == [
        ["Substance", "kg/year"],
        ["Chlorine and inorganic compounds", "10 000"],
        ["Halons", "1"],
    ]


def test_a_cell_wrapped_between_ideographs_joins_without_a_space() -> None:
    # "受不利经济" over "环境的影响": Chinese is written without spaces; a Latin word wrapped
    # after a Chinese one keeps its space.
    rules = grid_rules([50, 200, 300], [100, 120, 150, 170])
    lines = [
        ln("年份", 55, 114), ln("涵义", 205, 114),
        ln("2023", 55, 132), ln("受不利经济", 205, 132), ln("环境的影响", 205, 144),
        ln("2022", 55, 164), ln("评级机构", 205, 164), ln("AA+ rating", 205, 166),
    ]  # fmt: skip
    table = only_table(lines, rules)
    assert table.rows == [
        ["年份", "涵义"],
        ["2023", "受不利经济环境的影响"],
        ["2022", "评级机构 AA+ rating"],
    ]


@pytest.mark.parametrize(
    ("parts", "joined"),
    [
        (["受不利经济", "环境的影响"], "受不利经济环境的影响"),
        (["その他の", "包括利益"], "その他の包括利益"),
        (["税引前利益", "(百万円)"], "税引前利益 (百万円)"),
        (["Chlorine and", "compounds"], "Chlorine and compounds"),
        (["", "one", ""], "one"),
    ],
)
def test_join_wrapped(parts: list[str], joined: str) -> None:
    assert join_wrapped(parts) == joined


def test_row_set_as_one_string_is_shared_between_ruled_cells() -> None:
    # eu-001: a whole row drawn as "100 - -" with word spacing; eu-003: a label then values.
    rules = grid_rules([50, 250, 330, 410, 490], [100, 120, 140, 160])
    lines = [
        ln("Pollutant", 55, 114), ln("air", 255, 114), ln("water", 335, 114), ln("land", 415, 114),
        ln("Methane", 55, 134), ln("100 - -", 255, 134, width=200),
        ln("Number of member states 21 8 5", 55, 154, width=390),
    ]  # fmt: skip
    table = only_table(lines, rules)
    assert table.rows[1] == ["Methane", "100", "-", "-"]
    assert table.rows[2] == ["Number of member states", "21", "8", "5"]


def test_heading_over_merged_columns_stays_one_cell() -> None:
    # The first band has no rule between the value columns: one merged cell.
    rules = [(50, y, 350, y) for y in (100, 120, 140, 160)]
    rules += [(50, 100, 50, 160), (150, 100, 150, 160), (350, 100, 350, 160)]
    rules += [(250, 120, 250, 160)]
    lines = [
        ln("THRESHOLD FOR RELEASES", 185, 114),
        ln("Gas", 55, 134), ln("to air", 155, 134), ln("to water", 255, 134),
        ln("Methane", 55, 154), ln("100", 155, 154), ln("-", 255, 154),
    ]  # fmt: skip
    table = only_table(lines, rules)
    assert table.rows == [
        ["", "THRESHOLD FOR RELEASES", ""],
        ["Gas", "to air", "to water"],
        ["Methane", "100", "-"],
    ]


def test_unruled_columns_inside_a_ruled_grid() -> None:
    # eu-026: rules frame the table and divide only the first column from the rest.
    rules = [(50, y, 450, y) for y in (100, 120, 180)] + [(150, 100, 150, 180)]
    lines = [ln("answers", 55, 114), ln("Freq.", 160, 114), ln("Percent", 260, 114)]
    lines += [ln("Cum.", 360, 114)]
    for i, (a, b, c, d) in enumerate([("0", "138", "6.9", "6.9"), ("1", "178", "8.8", "15.7")]):
        y = 134 + 14 * i
        lines += [ln(a, 55, y), ln(b, 160, y), ln(c, 260, y), ln(d, 360, y)]
    table = only_table(lines, rules)
    assert table.rows == [
        ["answers", "Freq.", "Percent", "Cum."],
        ["0", "138", "6.9", "6.9"],
        ["1", "178", "8.8", "15.7"],
    ]


@pytest.mark.parametrize("merged", [True, False])
def test_a_grids_first_band_across_every_column_is_its_title(merged: bool) -> None:
    # A report's lattice opens with one cell across the table holding its title: a
    # paragraph over the table, not a header row of one filled cell. Where the column rules
    # divide that band too, its one line is a cell like any other.
    xs, ys = [50, 150, 250, 350], [80, 100, 120, 140, 160]
    rules = [(xs[0], y, xs[-1], y) for y in ys]
    rules += [(x, ys[1] if merged and x not in (xs[0], xs[-1]) else ys[0], x, ys[-1]) for x in xs]
    lines = [ln("Registered voters", 160, 94)]
    for i, row in enumerate([("County", "Active", "Total"), ("Cedar", "3069", "12794"),
                             ("Clinton", "8526", "33680")]):  # fmt: skip
        lines += [ln(text, x + 5, 114 + 20 * i) for text, x in zip(row, xs, strict=False)]
    tables, rest = find_tables(lines, rules)
    assert len(tables) == 1
    rows = tables[0].rows
    assert rows is not None and rows[-2:] == [
        ["Cedar", "3069", "12794"],
        ["Clinton", "8526", "33680"],
    ]
    if merged:
        assert rows[0] == ["County", "Active", "Total"]
        assert [line.text for line in rest] == ["Registered voters"]
    else:
        assert rows[0] == ["", "Registered voters", ""] and rest == []


def test_records_in_one_ruled_band_become_rows() -> None:
    # Only a header rule: the body rows are one band, but values stack in their columns.
    rules = [(50, y, 350, y) for y in (100, 120, 170)]
    rules += [(x, 100, x, 170) for x in (50, 150, 250, 350)]
    lines = [ln("Country", 55, 114), ln("2007", 155, 114), ln("2008", 255, 114)]
    for i, (a, b, c) in enumerate([("Austria", "12", "14"), ("Spain", "3", "-")]):
        lines += [ln(a, 55, 134 + 14 * i), ln(b, 155, 134 + 14 * i), ln(c, 255, 134 + 14 * i)]
    table = only_table(lines, rules)
    assert table.rows == [["Country", "2007", "2008"], ["Austria", "12", "14"], ["Spain", "3", "-"]]


def test_rows_of_words_in_one_ruled_band_are_rows() -> None:
    # pdfplumber issue-466 "light table style": a ruled header, then one band (column rules
    # only) whose lines each fill every column.
    rules = [(50, y, 350, y) for y in (100, 120, 170)]
    rules += [(x, 100, x, 170) for x in (50, 150, 250, 350)]
    cells = [["T3-C0", "T3-C1", "T3-C2"], ["T3-00", "T3-01", "T3-02"], ["T3-10", "T3-11", "T3-12"]]
    lines = [ln(cells[0][c], 55 + 100 * c, 114) for c in range(3)]
    lines += [ln(cells[r][c], 55 + 100 * c, 120 + 14 * r) for r in (1, 2) for c in range(3)]
    assert only_table(lines, rules).rows == cells


def test_wrapped_cells_in_one_ruled_band_stay_one_row() -> None:
    rules = [(50, y, 350, y) for y in (100, 120, 170)]
    rules += [(x, 100, x, 170) for x in (50, 150, 250, 350)]
    lines = [ln("Group", 55, 114), ln("Share", 155, 114), ln("Brands", 255, 114)]
    lines += [ln("Margarine", 55, 134), ln("47%", 155, 134), ln("Fruit d'or,", 255, 134)]
    lines += [ln("Effi, Astra", 255, 148), ln("and others", 255, 162)]
    assert only_table(lines, rules).rows == [
        ["Group", "Share", "Brands"],
        ["Margarine", "47%", "Fruit d'or, Effi, Astra and others"],
    ]


def test_cell_spanning_row_bands_is_one_cell() -> None:
    # eu-021: the label column has no rule between a row's "Count" and "Percentage" bands.
    rules = [(50, 100, 350, 100), (50, 160, 350, 160), (50, 120, 350, 120)]
    rules += [(150, 140, 350, 140)]  # not across the label column
    rules += [(x, 100, x, 160) for x in (50, 150, 250, 350)]
    lines = [ln("Condition", 55, 114), ln("Measure", 155, 114), ln("Value", 255, 114)]
    lines += [ln("Chronic fatigue", 55, 134), ln("Count", 155, 134), ln("19", 255, 134)]
    lines += [ln("syndrome", 55, 154), ln("Percentage", 155, 154), ln("3.8%", 255, 154)]
    table = only_table(lines, rules)
    assert table.rows == [
        ["Condition", "Measure", "Value"],
        ["Chronic fatigue syndrome", "Count", "19"],
        ["", "Percentage", "3.8%"],
    ]


def test_header_and_body_apart_by_a_double_rule_are_one_table() -> None:
    # eu-026: the two lines of a double rule each touch only their own part's verticals.
    rules = [(50, 100, 350, 100), (50, 118, 350, 118), (50, 121, 350, 121), (50, 160, 350, 160)]
    rules += [(150, 100.2, 150, 117.8), (150, 121.2, 150, 160)]
    lines = [ln("Answers", 55, 114), ln("Freq.", 155, 114)]
    lines += [ln("0", 55, 134), ln("138", 155, 134), ln("1", 55, 148), ln("178", 155, 148)]
    table = only_table(lines, rules)
    assert table.rows == [["Answers", "Freq."], ["0", "138"], ["1", "178"]]


def test_chart_gridlines_are_not_a_table() -> None:
    # A lattice of ten bands with two labels: a chart's grid. Its labels stay text, and
    # are not taken for an aligned table either.
    ys = [100 + 15 * i for i in range(11)]
    rules = grid_rules([50, 150, 250, 350], ys)
    lines = [ln("Austria", 55, 112), ln("Belgium", 155, 112), ln("Denmark", 255, 112)]
    lines += [ln("Estonia", 55, 247), ln("France", 155, 247), ln("Ireland", 255, 247)]
    tables, rest = find_tables(lines, rules)
    assert tables == []
    assert len(rest) == len(lines)


def test_rows_running_from_one_grid_into_the_next_are_cut() -> None:
    # eu-015: two ruled tables side by side; each row of the left one ends in a string that
    # also holds the first cell of the right one ("268 Spain").
    ys = [100, 120, 140, 160]
    rules = grid_rules([50, 130, 170], ys) + grid_rules([185, 265, 300], ys)
    lines = [ln("Topic", 55, 114), ln("Total", 135, 114), ln("Topic", 190, 114)]
    lines += [ln("Total", 270, 114)]
    lines += [ln("Spain", 55, 134), ln("268 Spain", 155, 134, width=46), ln("153", 280, 134)]
    lines += [ln("Italy", 55, 154), ln("92 Italy", 155, 154, width=44), ln("82", 280, 154)]
    tables, _ = find_tables(lines, rules)
    assert sorted(t.rows for t in tables) == [
        [["Topic", "Total"], ["Spain", "153"], ["Italy", "82"]],
        [["Topic", "Total"], ["Spain", "268"], ["Italy", "92"]],
    ]


def _figures_grid(label_x: float | None, labels: list[str]) -> tuple[list[Line], list[Rule]]:
    """A lattice around the figures only (a header row, three rows of figures); ``labels``
    at ``label_x``, outside the lattice, on the figures' baselines."""
    ys = [100, 120, 140, 160, 180]
    rules = grid_rules([150, 200, 250, 300], ys)
    lines = [ln("2019", 155, 114), ln("2020", 205, 114), ln("2021", 255, 114)]
    figures = [("963", "439", "55"), ("923", "393", "40"), ("1026", "349", "30")]
    for i, row in enumerate(figures):
        y = 134 + 20 * i
        lines += [ln(v, 155 + 50 * k, y) for k, v in enumerate(row)]
        if label_x is not None:
            lines.append(ln(labels[i], label_x, y))
    return lines, rules


def test_row_labels_left_of_a_grid_around_the_figures_are_its_first_column() -> None:
    # camelot's vertical_header.pdf: the township names stand on the rows' baselines, a few
    # ems left of a lattice drawn around the figures only.
    lines, rules = _figures_grid(40, ["Alcona", "Caledonia", "Curtis"])
    table = only_table(lines, rules)
    assert table.rows == [
        ["", "2019", "2020", "2021"],
        ["Alcona", "963", "439", "55"],
        ["Caledonia", "923", "393", "40"],
        ["Curtis", "1026", "349", "30"],
    ]


def test_row_labels_left_of_a_grid_keep_their_rows_beside_a_merged_first_column() -> None:
    # The grid's first column is one cell down the body (a region's name, no rules across
    # it); the labels outside the grid are a column of their own, one per row, never merged
    # as that cell is.
    rules = [(150, y, 300, y) for y in (100, 120, 180)]
    rules += [(200, y, 300, y) for y in (140, 160)]
    rules += [(x, 100, x, 180) for x in (150, 200, 250, 300)]
    lines = [ln("Region", 155, 114), ln("2020", 205, 114), ln("2021", 255, 114)]
    lines.append(ln("North", 155, 134))
    names = ["Alcona", "Caledonia", "Curtis"]
    for i, row in enumerate([("439", "55"), ("393", "40"), ("349", "30")]):
        y = 134 + 20 * i
        lines += [ln(v, 205 + 50 * k, y) for k, v in enumerate(row)] + [ln(names[i], 40, y)]
    table = only_table(lines, rules)
    assert [row[:2] for row in table.rows or []] == [
        ["", "Region"],
        ["Alcona", "North"],
        ["Caledonia", ""],
        ["Curtis", ""],
    ]


@pytest.mark.parametrize(
    "labels",
    [
        # running text beside the table, one line per row by chance
        ["The survey ran in three", "waves between the years", "shown in the table here"],
        # the last column of another table set beside this one as one string per row
        ["Spain 12 14", "Italy 3 9", "France 8 1"],
    ],
)
def test_text_left_of_a_grid_is_not_taken_as_its_labels(labels: list[str]) -> None:
    lines, rules = _figures_grid(20, labels)
    table = only_table(lines, rules)
    assert [row[0] for row in table.rows or []] == ["2019", "963", "923", "1026"]


def test_labels_on_other_baselines_are_not_taken() -> None:
    lines, rules = _figures_grid(None, [])
    lines += [ln(t, 40, 128 + 20 * i) for i, t in enumerate(["Alcona", "Caledonia", "Curtis"])]
    table = only_table(lines, rules)
    assert [row[0] for row in table.rows or []] == ["2019", "963", "923", "1026"]


def test_a_frame_around_a_chart_does_not_make_its_labels_a_table() -> None:
    ys = [100 + 15 * i for i in range(11)]
    rules = grid_rules([50, 150, 250, 350], ys) + grid_rules([20, 400], [80, 280])
    lines = [ln("2001", 25, 112), ln("30.5", 155, 112), ln("49.0", 255, 112)]
    lines += [ln("2005", 25, 247), ln("29.7", 155, 247), ln("48.6", 255, 247)]
    tables, _ = find_tables(lines, rules)
    assert tables == []


def test_a_framed_paragraph_is_not_a_table() -> None:
    rules = grid_rules([50, 350], [100, 160])
    lines = [ln("A boxed note that runs over", 55, 114), ln("two lines of text.", 55, 128)]
    tables, rest = find_tables(lines, rules)
    assert tables == []
    assert rest == lines


# --- aligned text -----------------------------------------------------------------------------


def aligned(
    cells: list[list[str]], xs: list[float], y0: float = 200, size: float = 10
) -> list[Line]:
    """One line per non-empty cell, left-aligned at ``xs``, 14 pt apart."""
    return [
        ln(text, xs[c], y0 + 14 * r, size)
        for r, row in enumerate(cells)
        for c, text in enumerate(row)
        if text
    ]


def test_aligned_table_with_a_spanning_line() -> None:
    # One row's value is set as one string across two columns: it must not merge them.
    lines = aligned(
        [["Country", "2007", "2008"], ["Austria", "12", "14"], ["Spain", "3", "5"]],
        [50, 200, 300],
    )
    lines.append(ln("Italy 7 9", 50, 242, width=260))
    lines.append(ln("Total", 50, 256))
    lines += [ln("22", 200, 256), ln("28", 300, 256)]
    table = only_table(lines, [])
    assert table.rows == [
        ["Country", "2007", "2008"],
        ["Austria", "12", "14"],
        ["Spain", "3", "5"],
        ["Italy", "7", "9"],
        ["Total", "22", "28"],
    ]


def _booktabs(prose_under: bool) -> tuple[list[Line], list[Rule]]:
    """A table between a top rule, a rule under its header and a bottom rule; under it, a
    line's pitch on, the page's two columns of running text (or more of its rows)."""
    cells = [["Extension", "Year", "New"]]
    cells += [[name, str(2011 + k), str(k * 3)] for k, name in enumerate(
        ["SMEP", "RDRAND", "FSGSBASE", "AVX2", "INVPCID", "VMFUNC"]
    )]  # fmt: skip
    lines = aligned(cells, [60, 200, 300])
    rules: list[Rule] = [(50, 188, 340, 188), (50, 204, 340, 204), (50, 289, 340, 289)]
    if prose_under:
        left = "the running text goes on here"
        right = "and the second column beside"
        lines += [ln(left, 45, 298 + 12 * k) for k in range(3)]
        lines += [ln(right, 200, 298 + 12 * k) for k in range(3)]
    else:
        lines += aligned([["SHA", "2013", "7"], ["CLWB", "2013", "1"]], [60, 200, 300], 298)
    return lines, rules


def test_a_bottom_rule_ends_a_table_over_running_text() -> None:
    # Read on under the bottom rule, the columns of text made rows of the table (and broke
    # its columns); the rule ends it there, the header's rule does not.
    lines, rules = _booktabs(prose_under=True)
    tables, rest = find_tables(lines, rules)
    names = ["SMEP", "RDRAND", "FSGSBASE", "AVX2", "INVPCID", "VMFUNC"]
    body = [[n, str(2011 + k), str(k * 3)] for k, n in enumerate(names)]
    assert [t.rows for t in tables] == [[["Extension", "Year", "New"], *body]]
    assert sum("running text" in line.text for line in rest) == 3
    assert sum("second column" in line.text for line in rest) == 3


def test_rows_under_a_rule_that_go_on_with_the_columns_stay_in_the_table() -> None:
    lines, rules = _booktabs(prose_under=False)
    table = only_table(lines, rules)
    assert table.rows[-2:] == [["SHA", "2013", "7"], ["CLWB", "2013", "1"]]


def test_values_with_their_shares_in_brackets_are_rows_not_a_header() -> None:
    # "45,100 (8.4%)" is a value: the rows above the first bare figure were taken for a
    # header wrapped over four lines, all four rows' figures in one cell each.
    cells = [
        ["HTTPS Top 1M w/ downgrade", "45,100 (8.4%)", "205,000 (37.1%)"],
        ["HTTPS Top 1M", "118 (0.0%)", "98,500 (17.9%)"],
        ["HTTPS Trusted", "1,000 (0.0%)", "939,000 (6.6%)"],
        ["IKEv1 IPv4", "–", "1,690,000 (66.1%)"],
    ]
    table = only_table(aligned(cells, [50, 250, 400]), [])
    assert table.rows == cells


def _grouped_table(
    group_x: float | None = None, titles: tuple[str, str] = ("English", "Mathematics")
) -> list[Line]:
    """A paper's table: a header set as one string over three columns of right-aligned
    figures, and the titles of the groups of rows centred across the table between them
    (at ``group_x`` instead, when given)."""
    lines = [ln("Datasets", 50, 200), ln("ModelA ModelB ModelC", 150, 200, width=250)]
    y = 214
    for title, rows in zip(titles, (["MMLU", "GPQA"], ["GSM8K", "MATH"]), strict=True):
        width = len(title) * 5.0
        lines.append(ln(title, (50 + 400) / 2 - width / 2 if group_x is None else group_x, y))
        y += 14
        for k, label in enumerate(rows):
            lines.append(ln(label, 50, y))
            for right, value in ((200, f"7{k}.8"), (300, f"4{k}.5"), (400, f"3{k}.1")):
                lines.append(ln(value, right - 20, y, width=20))
            y += 14
    return lines


@pytest.mark.parametrize("title", ["Precincts", "Registrations"])
def test_a_column_title_wider_than_its_figures_is_that_columns(title: str) -> None:
    # A voter-registration report: "Precincts" set over right-aligned figures, wider than
    # them, reaching back over the gap before them (past where the whitespace between the
    # columns puts the boundary). Ending where the figures end, it is their column's
    # title; a longer word from the same place, ending two ems past them (most of it over
    # their column still), has nothing tying it to that column and stays in the first.
    lines = [ln("County", 50, 100), ln(title, 85, 100), ln("Democratic", 210, 100)]
    rows = [("Apache", "44", "27,462"), ("Maricopa", "906", "733,721"), ("Pima", "278", "245,367")]
    rows += [("Yuma", "47", "31,798")]
    for i, (a, b, c) in enumerate(rows):
        y = 114 + 14 * i
        lines += [ln(a, 50, y), ln(b, 130 - 5 * len(b), y), ln(c, 260 - 5 * len(c), y)]
    table = only_table(lines, [])
    assert table.rows is not None and table.rows[1] == ["Apache", "44", "27,462"]
    if title == "Precincts":
        assert table.rows[0] == ["County", "Precincts", "Democratic"]
    else:
        assert table.rows[0] == ["County Registrations", "", "Democratic"]


def test_group_titles_centred_across_a_table_are_rows_of_their_own() -> None:
    table = only_table(_grouped_table(), [])
    assert table.rows == [
        ["Datasets", "ModelA", "ModelB", "ModelC"],
        ["English", "", "", ""],
        ["MMLU", "70.8", "40.5", "30.1"],
        ["GPQA", "71.8", "41.5", "31.1"],
        ["Mathematics", "", "", ""],
        ["GSM8K", "70.8", "40.5", "30.1"],
        ["MATH", "71.8", "41.5", "31.1"],
    ]


def test_a_group_title_starting_where_a_figure_above_it_starts_is_still_one() -> None:
    # Centred across the table, "Reasoning and Logic" happens to start where the figure
    # above it starts: a figure's cell does not wrap into words.
    table = only_table(_grouped_table(titles=("English", "Reasoning and Logic")), [])
    assert ["Reasoning and Logic", "", "", ""] in table.rows
    assert ["GPQA", "71.8", "41.5", "31.1"] in table.rows


@pytest.mark.parametrize(("above", "group"), [("29.3", True), ("-", True), ("943/944", False)])
def test_words_under_a_figure_title_a_group_but_not_under_a_date(above: str, group: bool) -> None:
    # Centred across the table and starting where the cell above it starts: under a figure
    # (or a missing figure's dash) a group's title; under a date, the date's next line
    # ("943/944" over "England" in an infobox's cell).
    from pdfthin.layout.tables.find import _group_title

    xs = [50.0, 127.0, 240.0, 340.0, 400.0]
    line = ln("Reasoning and Logic", 177.5, 300)
    assert _group_title(line, xs, {1: ln(above, 178, 286)}, 5.0) is group


def test_a_line_under_a_cell_in_its_own_column_is_no_group_title() -> None:
    # The same lines, each under the first column's labels: the header's or a label's
    # next line, as before.
    table = only_table(_grouped_table(group_x=50), [])
    assert table.rows[0][0] == "Datasets English"
    assert ["GPQA Mathematics", "71.8", "41.5", "31.1"] in table.rows
    assert all(any(row[1:]) for row in table.rows)


def test_a_group_title_does_not_move_a_number_columns_boundary() -> None:
    # Columns of right-aligned figures parted by the whitespace; a group's title centred
    # across the table ends just before the fourth column's figures. The gap before them is
    # the one their rows leave: no second boundary a few points from the first (a sliver
    # of a column that would cut the header's titles apart wrongly).
    from pdfthin.layout.tables.values import value_boundaries

    rows = [
        [
            ln(label, 110, y),
            *(
                ln(v, x, y, width=17.4)
                for v, x in zip(values, (200, 268, 334, 403, 468), strict=True)
            ),
        ]
        for y, label, values in (
            (220, "MMLU", ("77.8", "79.5", "77.5", "80.4", "84.2")),
            (232, "GPQA", ("34.3", "36.3", "36.3", "35.9", "37.9")),
            (244, "BBH", ("78.9", "81.0", "65.5", "74.8", "82.4")),
            (270, "MBPP", ("71.7", "70.4", "66.9", "70.9", "76.9")),
        )
    ]
    rows.insert(3, [ln("Mathematics", 280, 258, width=52)])  # its middle: the table's
    xs = [110.0, 179.1, 243.3, 327.5, 377.4, 444.2, 485.4]
    refined, _ = value_boundaries(rows, xs, 10.0)
    assert not any(327.5 < x < 334 for x in refined), refined


def test_wrapped_header_of_an_aligned_table_is_one_row() -> None:
    cells = [
        ["Significant", "Light", "Flux"],
        ["data points", "variability", "(ppm)"],
        ["Q7", "5.886", "-1.198"],
        ["Q8", "5.889", "0.597"],
    ]
    table = only_table(aligned(cells, [50, 200, 300]), [])
    assert table.rows == [
        ["Significant data points", "Light variability", "Flux (ppm)"],
        ["Q7", "5.886", "-1.198"],
        ["Q8", "5.889", "0.597"],
    ]


def test_table_beside_a_column_of_running_text() -> None:
    # A table set in the left column of a two-column page: the right column's lines share
    # its rows but are running text.
    cells = [["Name", "Qty"], ["apple", "3"], ["pear", "10"], ["plum", "7"], ["fig", "2"]]
    lines = aligned(cells, [50, 150])
    prose = "the right column holds running text that fills it"
    lines += [ln(prose, 320, 200 + 14 * i) for i in range(len(cells))]
    tables, rest = find_tables(lines, [])
    assert [t.rows for t in tables] == [cells]
    assert sum(1 for line in rest if line.text == prose) == len(cells)


def test_index_columns_are_not_a_table() -> None:
    left = ["Homotopie, 44", "Homotopieklasse, 47", "Homöomorphismus, 9", "Kartenwechsel, 28"]
    right = ["Lot, 86", "Lotfußpunkt, 86", "Möbiusband, 91", "Normalenfeld, 90"]
    lines = aligned([[a, b] for a, b in zip(left, right, strict=True)], [50, 320])
    tables, _ = find_tables(lines, [])
    assert tables == []


def test_narrow_columns_of_text_are_not_a_table() -> None:
    left = [
        "sell at public auction the",
        "Upholstered Parlor Furniture",
        "Oak and Rose Wood Tables",
    ]
    right = ["notices to the public of", "issuance of rules and", "purpose of these notices"]
    lines = aligned([[a, b] for a, b in zip(left, right, strict=True)], [50, 250])
    assert find_tables(lines, [])[0] == []


def test_cjk_text_columns_are_not_a_table() -> None:
    # Twenty CJK characters fill a column as forty Latin ones do.
    left = ["보험실무상 어떤 보험사는 코로나를 재해로 인정하여"] * 4
    right = ["당국 간의 적절한 절차를 거쳐 사전논의를 했어야 하는"] * 4
    lines = [ln(t, 50, 200 + 14 * i, width=250) for i, t in enumerate(left)]
    lines += [ln(t, 320, 200 + 14 * i, width=250) for i, t in enumerate(right)]
    assert find_tables(lines, [])[0] == []


def test_displayed_formula_is_not_a_table() -> None:
    rows = [["∑d", "∑d"], ["(−1)kbk(K) =", "(−1)kak(K) = χ(K)"], ["k=0", "k=0"]]
    assert find_tables(aligned(rows, [100, 300]), [])[0] == []


def test_labels_of_a_figure_are_not_a_table() -> None:
    # Tick labels line up in rows and columns, but axes run through them.
    rows = [["4", "Z2", "4", "Z2"], ["3", "Z1", "3", "Z1"], ["2", "W", "2", "W"]]
    lines = aligned(rows, [50, 120, 300, 370])
    axes = [(60, 180, 60, 250), (310, 180, 310, 250)]
    assert find_tables(lines, axes)[0] == []
    assert len(find_tables(lines, [])[0]) == 1


# --- helpers ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["12", "1,043", "0.9", "17.4%", "-", "(3.5)", "n/a", "x", ":", "45,100 (8.4%)", "0.85 (0.02)"],
)
def test_values(text: str) -> None:
    assert is_value(text)


@pytest.mark.parametrize(
    "text", ["Total", "Single", "to air", "EU-15", "Table (3)", "10 (see below)"]
)
def test_not_values(text: str) -> None:
    assert not is_value(text)


def test_numbers_with_spaced_thousands_stay_whole() -> None:
    line = ln("On labour market training 29 300 25 800 33 300", 75, 100, width=440)
    cells = [(70, 198), (198, 264), (264, 329), (329, 394)]
    assert share_words(line, cells) == ["On labour market training", "29 300", "25 800", "33 300"]
    assert share_words(
        ln("Germany 21 8", 75, 100, width=300), [(70, 200), (200, 300), (300, 400)]
    ) == [
        "Germany",
        "21",
        "8",
    ]


def test_share_words_places_words_by_estimated_width() -> None:
    line = ln("FUNCTION_ID VARCHAR(30) ID of the function.", 143, 100, size=9, width=217)
    assert share_words(line, [(137, 211), (211, 283), (283, 545)]) == [
        "FUNCTION_ID",
        "VARCHAR(30)",
        "ID of the function.",
    ]


def test_share_words_uses_the_pieces_a_line_records() -> None:
    # A justified cell line and a value set as one string (eu-003): the estimate spreads
    # the words over the stretched width; the recorded pieces place them exactly.
    line = ln("Number of member states where one or more of 11", 92, 100, width=428)
    cells = [(90, 233), (233, 380), (380, 530)]
    assert share_words(line, cells)[1] != "11"
    line.spans = [
        (92.0, 228.0, "Number of member states where one or more of"),
        (238.0, 250.0, "11"),
    ]
    assert share_words(line, cells) == ["Number of member states where one or more of", "11", ""]


def test_soft_split_refuses_a_centred_heading() -> None:
    line = ln("THRESHOLD FOR RELEASES", 316, 100, size=8, width=125)
    assert soft_split(line, [(257, 340), (340, 428), (428, 500)]) is None
    pair = ln("Netherlands Single", 89, 100, size=8, width=81)
    assert soft_split(pair, [(85, 135), (135, 180)]) == ["Netherlands", "Single"]


def test_whitespace_boundaries_need_pieces_on_both_sides() -> None:
    rows = [[(0.0, 30.0), (100.0, 120.0)], [(0.0, 40.0), (100.0, 115.0)], [(0.0, 20.0)]]
    (x,) = whitespace_boundaries(rows, 0, 200, 5)
    assert 40 < x < 100
    ragged = [[(0.0, 150.0)], [(0.0, 90.0)], [(0.0, 140.0)]]
    assert whitespace_boundaries(ragged, 0, 200, 5) == []


# --- corpus -----------------------------------------------------------------------------------

ICDAR = "tabula-icdar2013/competition-dataset-eu"


def _page_tables(name: str, number: int) -> list[list[list[str]]]:
    require_corpus()
    _, layouts = open_with_layouts(str(CORPUS / ICDAR / name))
    blocks = layouts[number - 1].blocks
    return [b.rows for b in blocks if b.kind == "table" and b.rows]


def test_icdar_ruled_rows_with_word_spaced_values() -> None:
    # eu-001 p1: a fully ruled table whose value cells are partly one string ("100 - -").
    tables = _page_tables("eu-001.pdf", 1)
    first = tables[0]
    assert first[0] == ["", "THRESHOLD FOR RELEASES", "", ""]
    assert ["Hydro-fluorocarbons (HFCs)", "100", "-", "-"] in first
    assert ["Chlorine and inorganic compounds (as HCl)", "10 000", "-", "-"] in tables[1]


def test_icdar_unruled_table() -> None:
    # eu-027 p3: no rules between columns; labels, then four columns of numbers.
    table = _page_tables("eu-027.pdf", 3)[0]
    assert table[0] == ["Variable", "Mean", "Std. Dev.", "Min", "Max"]
    assert table[1] == ["Age", "50.8", "15.9", "21", "90"]
    assert [
        "Gross financial wealth - end of 2007 (Euro)",
        "38,855",
        "114,128",
        "0",
        "2,870,000",
    ] in [[c.replace("\ufb01", "fi") for c in row] for row in table]


def test_index_pages_have_no_tables() -> None:
    # GeoTopo's index: two page columns of "Entry, page" lines.
    require_corpus()
    import pdfthin

    doc = pdfthin.open(str(CORPUS / "sample-files" / "GeoTopo-komprimiert.pdf"))
    for number in range(doc.page_count - 2, doc.page_count + 1):
        assert "|" not in doc.page(number).markdown, number


def test_icdar_body_rows_without_column_rules() -> None:
    # eu-018 p1: column rules only in the header; the body rows are ruled across only, and
    # their numbers come as one string per row. "Sample unit" spans both header rows.
    first = _page_tables("eu-018.pdf", 1)[0]
    assert first[0][:4] == ["Country", "Sample unit", "Sample size", "2007"]
    assert first[1][:5] == ["", "", "", "N", "% Pos"]
    assert first[3] == [
        "Germany", "Single", "25g", "123", "0.8", "290", "0.7", "391", "0.5", "454", "2.0",
        "188", "2.7",
    ]  # fmt: skip


# --- cells wrapped over several lines -----------------------------------------------------------


def _rows_of(*rows: list[tuple[str, float]]) -> list[list[Line]]:
    """Rows 12 points apart (a line's leading at 10 points), each of (text, left) pieces."""
    return [[ln(t, x, 100 + 12 * i) for t, x in row] for i, row in enumerate(rows)]


@pytest.mark.parametrize(
    "wrapped",
    [
        # a cell's words over three lines (two lines alone on their rows ended the run)
        [("checked and trusted, so", 220), ("only for local testing", 220)],
        # a list in a cell, its items set in from the cell's start
        [("- the checksum of each block", 228), ("- the size of the file", 228)],
    ],
)
def test_a_cells_lines_carry_a_run_of_rows_on(wrapped: list[tuple[str, float]]) -> None:
    rows = _rows_of(
        [("verify", 72), ("bool", 160), ("whether the certificate is", 220)],
        *[[piece] for piece in wrapped],
        [("proxy", 72), ("str", 160), ("its address", 220)],
    )
    assert _run_end(rows, 0) == 3


def test_a_cell_wraps_after_a_row_label_of_a_few_words() -> None:
    # A risk register's "Key staff leave" is a label of three words, no line of running
    # text beside the cell (a page's column would be one): the cell's words go on below.
    rows = _rows_of(
        [("Key staff leave", 72), ("Low", 160), ("whether the certificate is", 220)],
        [("checked and trusted, so", 220)],
        [("only for local testing", 220)],
        [("Budget overrun", 72), ("High", 160), ("its address", 220)],
    )
    assert _run_end(rows, 0) == 3


@pytest.mark.parametrize(
    "first, below",
    [
        # a figure under a cell of words: figures do not wrap
        ([("proxy", 72), ("str", 160), ("the address of the proxy", 220)], ["12.5", "13.0"]),
        # a list after the table, at its left: under its first cell
        (
            [("proxy server", 72), ("str", 160), ("the address of the proxy", 220)],
            [("- one more", 72), ("the end of the list", 72)],
        ),
        # letters set one under another (a word written downwards), under a letter
        ([("Name", 72), ("R", 220)], ["I", "N"]),
        # a page's two columns of running text: the right one goes on alone under its start
        (
            [("the valley was settled in the", 72), ("by farmers who came from", 220)],
            ["the coast and built a mill", "where the railway came"],
        ),
    ],
)
def test_lines_under_a_cell_that_are_not_its_words_going_on(
    first: list[tuple[str, float]], below: list[str | tuple[str, float]]
) -> None:
    rows = _rows_of(first, *[[(t, 220) if isinstance(t, str) else t] for t in below])
    assert _run_end(rows, 0) == 0


# --- rows whose cells wrap side by side -----------------------------------------------------------


def _described(*rows: tuple[list[str], str, list[str]]) -> list[Line]:
    """A titled table (name, type, description) of rows 12 points apart, each cell's lines
    one under another."""
    lines = [ln("Field", 72, 88), ln("Type", 200, 88), ln("Description", 280, 88)]
    y = 100.0
    for names, kind, words in rows:
        lines += [ln(t, 72, y + 12 * i) for i, t in enumerate(names)]
        lines += [ln(kind, 200, y)] if kind else []
        lines += [ln(t, 280, y + 12 * i) for i, t in enumerate(words)]
        y += 12 * max(len(names), len(words), 1)
    return lines


def test_a_row_whose_cells_wrap_side_by_side_is_one_row() -> None:
    # The name breaks at a joiner and the description carries on in lower case, beside an
    # empty type cell: the row above going on, not a row of its own.
    table = only_table(
        _described(
            (["order_id"], "integer", ["the order's number"]),
            (
                ["customer_account_", "identifier"],
                "string",
                ["the account that placed it, or", "none for guests"],
            ),
            (["status"], "string", ["one of open, paid or shipped"]),
        ),
        [],
    )
    assert table.rows == [
        ["Field", "Type", "Description"],
        ["order_id", "integer", "the order's number"],
        [
            "customer_account_ identifier",
            "string",
            "the account that placed it, or none for guests",
        ],
        ["status", "string", "one of open, paid or shipped"],
    ]


@pytest.mark.parametrize(
    "first, second",
    [
        # one-word names one under another: each its own row, though the first had no room
        (
            (["order_identifier"], "integer", ["the number of the order in full"]),
            (["created_at_time"], "", ["when the order was placed"]),
        ),
        # a new sentence after one that ended: a row with an empty type cell
        (
            (["order number"], "integer", ["The number of the order in full."]),
            (["customer_account_"], "", ["The account."]),
        ),
        # every cell filled again, each opening in capitals: a row (a wrap leaves one
        # empty or goes on inside a sentence)
        (
            (["Order number"], "", ["The number of the order in full"]),
            (["Customer name"], "", ["Who placed the order"]),
        ),
    ],
)
def test_rows_under_rows_that_only_look_wrapped_stay_rows(
    first: tuple[list[str], str, list[str]], second: tuple[list[str], str, list[str]]
) -> None:
    rows = [first, second, (["status"], "string", ["one of open, paid or shipped"])]
    table = only_table(_described(*rows), [])
    assert len(table.rows) == 4, table.rows


# --- titles over several columns ----------------------------------------------------------------


def _right(text: str, x: float, y: float) -> Line:
    """A line ending at ``x`` (figures set flush right)."""
    return ln(text, x - 5 * len(text), y)


def _periods(
    group: list[tuple[str, float]], years: tuple[str, ...] = ("2024", "2023") * 2
) -> list[Line]:
    """A statement's header (``group``: lines with their left ends, over the two column
    pairs), years under them, then rows of figures set flush right at 200, 260, 330, 390."""
    ends = [200, 260, 330, 390]
    lines = [ln(t, x, 88) for t, x in group]
    lines += [_right(y, x, 100) for y, x in zip(years, ends, strict=True) if y]
    rows = [
        ("Revenue", ["1,234", "1,100", "3,700", "3,300"]),
        ("Cost of revenue", ["734", "690", "2,180", "2,010"]),
        ("Net income", ["500", "410", "1,520", "1,290"]),
    ]
    for r, (label, figures) in enumerate(rows):
        lines.append(ln(label, 50, 114 + 12 * r))
        lines += [_right(f, x, 114 + 12 * r) for f, x in zip(figures, ends, strict=True)]
    return lines


def test_a_title_over_two_columns_is_a_header_row_over_them() -> None:
    # "September 30," centred over the pair: the figure before its comma ends no cell, and
    # the whole title is a row of its own in the pair's first column (as a merged cell is
    # read), over the years, which stay cells of their own over their figures.
    table = only_table(_periods([("September 30,", 185), ("June 30,", 327.5)]), [])
    assert table.rows[0] == ["", "September 30,", "", "June 30,", ""]
    assert table.rows[1] == ["", "2024", "2023", "2024", "2023"]
    assert table.rows[2] == ["Revenue", "1,234", "1,100", "3,700", "3,300"]


def test_group_titles_keep_the_tables_adjacency_relations() -> None:
    # Scored as ICDAR 2013 scores a table (each cell's nearest neighbours right and below,
    # a merged cell over each cell under it): the group titles in a row of their own keep
    # the years next to their figures. (Copied into each year's cell, F1 was 0.70.)
    from benchmarks.metrics import tables as tb

    table = only_table(_periods([("September 30,", 185), ("June 30,", 327.5)]), [])
    truth = [tb.Cell(0, 1, "September 30,", end_col=2), tb.Cell(0, 3, "June 30,", end_col=4)]
    truth += [tb.Cell(1, c, year) for c, year in enumerate(["2024", "2023"] * 2, start=1)]
    for r, row in enumerate(table.rows[2:], start=2):
        truth += [tb.Cell(r, c, text) for c, text in enumerate(row)]
    (read,) = tb.tables_from_rows([table.rows or []])
    assert tb.score(tb.relations(read), tb.relations(truth)).f1 >= 0.95


@pytest.mark.parametrize(
    ("title", "x", "heads"),
    [
        # Centred over the first pair of years, a row above them: the table's group title.
        ("Year Ended June 30,", 172.5, True),
        # A note in brackets, centred the same: a note over the table, not a title.
        ("(unaudited)", 192.5, False),
        # Reaching over the label column: a caption, not a title of the value columns.
        ("Consolidated Quarterly Operating Statements", 112.5, False),
        # A sign, not a word (an integral over a formula's column).
        ("∫", 217.5, False),
    ],
)
def test_a_title_over_a_tables_columns_above_its_first_row_joins_its_header(
    title: str, x: float, heads: bool
) -> None:
    lines = [ln(title, x, 88), *_periods([])]
    table = only_table(lines, [])
    assert (table.rows[0] == ["", title, "", "", ""]) is heads
    assert table.rows[int(heads)] == ["", "2024", "2023", "2024", "2023"]


def test_a_title_reaching_into_the_next_column_heads_only_its_own() -> None:
    # Set from the first column's start, not centred over the pair: that column's title.
    # (The other pair's title over it makes the header two rows: the own titles are the
    # second.)
    table = only_table(_periods([("Figures as reported here", 175), ("June 30,", 327.5)]), [])
    assert table.rows[0] == ["", "", "", "June 30,", ""]
    assert table.rows[1][1:3] == ["Figures as reported here 2024", "2023"]


def test_a_title_over_two_columns_heads_none_that_has_no_title_under_it() -> None:
    # Only the first column of each pair has a year: the title is that column's alone.
    lines = _periods([("September 30,", 185), ("June 30,", 327.5)], ("2024", "", "2024", ""))
    table = only_table(lines, [])
    assert table.rows[0] == ["", "September 30, 2024", "", "June 30, 2024", ""]


def test_a_forms_rows_of_labels_are_not_one_wrapped_header() -> None:
    # No figures until the last row: the rows above it are records, not a title's lines.
    cells = [
        ["Surname:", "Okafor", "Given names:", "Adaeze"],
        ["Date of birth:", "14 March 1991", "Place of birth:", "Enugu"],
        ["Telephone:", "0131 496 0000", "Email:", "a@example.org"],
    ]
    table = only_table(aligned(cells, [50, 140, 260, 350]), [])
    assert table.rows == cells


def test_a_line_over_two_columns_under_their_own_titles_heads_only_its_own() -> None:
    # Each column has a title above: the wide line is the last line of the first one's.
    lines = [ln("Loans", 175, 76), ln("Loans", 235, 76), ln("Loans", 305, 76)]
    lines += _periods([("September 30,", 185), ("June 30,", 327.5)])
    table = only_table(lines, [])
    assert table.rows[0][1:3] == ["Loans September 30, 2024", "Loans 2023"]


def test_a_group_titles_lines_under_it_in_its_first_column_are_its_title_too() -> None:
    # "Months ended on" centred over the pair, "(audited)" under it in the first column only,
    # then the years: both lines are the group's title, over the years.
    lines = [ln("Months ended on", 180, 76), ln("Months ended on", 310, 76)]
    lines += _periods([("(audited)", 170), ("(audited)", 300)])
    table = only_table(lines, [])
    assert table.rows[0][1:3] == ["Months ended on (audited)", ""]
    assert table.rows[1][1:3] == ["2024", "2023"]


def test_a_group_title_beside_a_columns_own_wrapped_title_leaves_that_title_whole() -> None:
    # The third column's own title wraps over the group title's line ("Total" over "2024"):
    # it reads whole in the second header row, under nothing in the first.
    lines = _periods([("September 30,", 185), ("Total", 310)])
    table = only_table(lines, [])
    assert table.rows[0] == ["", "September 30,", "", "", ""]
    assert table.rows[1] == ["", "2024", "2023", "Total 2024", "2023"]
