"""How much work the layout does: the shortcuts that make it faster answer exactly what the
plain definitions answer, and they do skip the work they are there to skip.

Pure geometry on generated runs and lines; no PDF and no engine path involved.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import pdfthin.layout.lines as lines_module
import pdfthin.layout.tables.find as find_module
from pdfthin.engine.types import TextRun
from pdfthin.layout import structure
from pdfthin.layout.lines import _RowIndex, build_lines
from pdfthin.layout.tables.columns import _split_at
from pdfthin.layout.tables.find import _RowExtents, _rows, _run_end, find_tables
from pdfthin.layout.types import Block, Line, PageLayout

CHAR_W = 5.0  # a fixed advance per character (10 pt text)


def _run(text: str, x: float, y: float, size: float = 10.0) -> TextRun:
    width = len(text) * CHAR_W * size / 10.0
    return TextRun(text, x, y - 0.8 * size, x + width, y + 0.2 * size, size, "F")


def _line(text: str, x: float, y: float, size: float = 10.0) -> Line:
    width = len(text) * CHAR_W * size / 10.0
    return Line(text, x, y - 0.8 * size, x + width, y + 0.2 * size, size)


def _counting(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    """Replace ``module.name`` by a wrapper counting its calls (one list item per call)."""
    calls: list[int] = []
    original = getattr(module, name)

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_lines_out_of_reach_are_not_examined(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run is not compared with lines that end further left than any join reaches (40 ems
    for a page number after dot leaders): a wide table's row costs each cell a look at its
    near neighbours, not at every cell before it."""
    calls = _counting(monkeypatch, lines_module, "_leader_to_number")
    cells, rows = 24, 10
    runs = [
        _run(f"{r}{c:02d}", 50.0 + 150.0 * c, 100.0 + 14.0 * r)
        for r in range(rows)
        for c in range(cells)
    ]
    built = build_lines(runs)
    assert len(built) == cells * rows  # every cell a line of its own
    # Within 400 points (40 ems) of a cell's start lie at most 3 cells of its row; without
    # the reach every earlier cell of the row is asked about (276 times a row).
    assert len(calls) <= 3 * cells * rows


def test_number_columns_are_not_sought_in_running_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows that are running text in narrow columns (a newspaper's) are text whatever
    numbers line up in them: their right-aligned number columns are not worked out."""
    calls = _counting(monkeypatch, find_module, "value_boundaries")
    words = "news of the town and of the river road where the old mill stood by the water".split()
    page = []
    for c, x in enumerate((50.0, 200.0, 350.0)):
        for i in range(14):
            start = (3 * i + 5 * c) % (len(words) - 5)
            page.append(_line(" ".join(words[start : start + 5]), x, 100.0 + 12.0 * i))
    tables, rest = find_tables(page, [])
    assert tables == []
    assert len(rest) == len(page)
    assert calls == []


def _random_rows(rng: random.Random) -> list[list[TextRun]]:
    rows = []
    for r in range(rng.randint(1, 8)):
        row = []
        for _ in range(rng.randint(1, 9)):
            x0 = rng.uniform(0.0, 500.0)
            row.append(
                TextRun("w", x0, r * 12.0, x0 + rng.uniform(0.0, 120.0), r * 12.0 + 10, 10, "F")
            )
        row.sort(key=lambda run: run.x0)
        rows.append(row)
    return rows


def test_row_index_answers_what_the_runs_answer() -> None:
    """``_RowIndex.crossed`` (a bisection and a running maximum) is exactly "a run of the row
    starts before ``g1`` and ends after ``g0``", runs overlapping each other included."""
    rng = random.Random(19)
    for _ in range(300):
        rows = _random_rows(rng)
        index = _RowIndex.of(rows)
        for _ in range(10):
            g0 = rng.uniform(-10.0, 620.0)
            g1 = g0 + rng.uniform(0.0, 60.0)
            for k, row in enumerate(rows):
                expected = any(run.x0 < g1 and run.x1 > g0 for run in row)
                assert index.crossed(k, g0, g1) == expected


def test_split_at_answers_its_definition() -> None:
    """One pass over the row: a piece ends by the gap's middle, another starts after it,
    and none runs across it."""
    rng = random.Random(20)
    for _ in range(2000):
        row = sorted(
            (a, a + rng.choice([0.0, rng.uniform(0.0, 80.0)]))
            for a in (rng.uniform(0.0, 300.0) for _ in range(rng.randint(0, 6)))
        )
        g0 = rng.uniform(0.0, 300.0)
        g1 = g0 + rng.uniform(0.0, 30.0)
        mid = (g0 + g1) / 2
        expected = (
            any(b <= mid for _, b in row)
            and any(a >= mid for a, _ in row)
            and not any(a < mid < b for a, b in row)
        )
        assert _split_at(row, g0, g1) == expected


def test_run_end_with_extents_worked_out_once() -> None:
    """The rows' extents worked out once give every run of rows the end it had before."""
    rng = random.Random(21)
    for _ in range(100):
        page = [
            _line(
                "12.5", rng.choice([50.0, 150.0, 250.0]), 100.0 + rng.choice([12.0, 14.0, 40.0]) * i
            )
            for i in range(rng.randint(2, 30))
            for _ in range(rng.randint(1, 3))
        ]
        rows = _rows(page)
        extents = _RowExtents.of(rows)
        for i, row in enumerate(rows):
            if len(row) < 2:
                continue
            for labels in (0, 3):
                assert _run_end(rows, i, labels, extents) == _run_end(rows, i, labels)


def test_number_columns_read_each_row_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The runs of rows tried on one page overlap: each row's words are read once for its
    number columns, and the columns found are the ones found reading them afresh."""
    import pdfthin.layout.tables.values as values_module

    rows = [
        [
            _line(f"Item {i}", 50.0, 100.0 + 12.0 * i),
            _line(f"{100 + 7 * i}.00", 300.0, 100.0 + 12.0 * i),
        ]
        for i in range(8)
    ]
    xs = [50.0, 200.0, 330.0]
    fresh = [values_module.value_boundaries(rows[k : k + 5], xs, 10.0) for k in range(4)]
    calls = _counting(monkeypatch, values_module, "row_words")
    seen: dict[tuple[int, float], list[tuple[float, float, str]]] = {}
    kept = [values_module.value_boundaries(rows[k : k + 5], xs, 10.0, seen) for k in range(4)]
    assert kept == fresh
    assert len(calls) == len(rows)  # 8 rows, not 4 runs of 5


def _block(text: str, x: float, y: float, size: float = 8.0) -> Block:
    line = _line(text, x, y, size)
    return Block([line], line.x0, line.y0, line.x1, line.y1, size)


@pytest.mark.parametrize("numbers", [1, 100])
def test_running_lines_cost_each_edge_line_a_look_at_two_numbers_at_most(
    monkeypatch: pytest.MonkeyPatch, numbers: int
) -> None:
    """Each line at the page's edge is compared with the page's numbers standing on their
    own, and a page has one or two of those: more are something else (a hostile page of
    thousands of them must not cost lines x numbers)."""
    calls = _counting(monkeypatch, structure, "_beside")
    edge = [_block("Word", 20.0 + 30.0 * (i % 18), 20.0 + 0.05 * i) for i in range(300)]
    page_numbers = [_block("1", 560.0, 60.0 + 0.01 * i) for i in range(numbers)]
    body = Block([_line("the body", 72, 400, 10.0)], 72, 392, 112, 402, 10.0)
    page = PageLayout(1, 612, 792, [*edge, *page_numbers, body])
    structure.mark_furniture([page], structure.FurnitureProfile(1, Counter(), Counter(), 0))
    assert len(page.header) >= numbers  # the numbers agree with the numbering: they leave
    assert len(calls) <= (len(edge) if numbers <= 2 else 0)


def test_running_lines_partners_at_the_bottom_look_at_the_feet_level_with_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A line in a found foot's look is its partner at the bottom only on a found line's
    baseline; each asks only the feet near its baseline (a hostile row of thousands of feet
    beside thousands of look-alikes a little lower must not cost feet x look-alikes)."""
    calls = _counting(monkeypatch, structure, "_level")
    feet = []
    for i in range(200):
        x = 40.0 * i
        line = _line("x 9", x, 770.0, 8.0)
        line.spans = ((x, x + 4.0, "x"), (x + 30.0, x + 34.0, "9"))  # the number 3.5 em apart
        feet.append(Block([line], line.x0, line.y0, x + 34.0, line.y1, 8.0))
    alike = [_block("yy", 40.0 * i + 20.0, 773.0) for i in range(200)]  # 3 pt lower: not level
    level = _block("Title", 9000.0, 770.0)  # on the feet's baseline: a partner
    body = Block([_line("the body text " * 200, 72, 400)], 72, 392, 9000, 402, 10.0)
    page = PageLayout(1, 9100, 792, [*feet, *alike, level, body])
    edge = [(b, "bottom") for b in [*feet, *alike, level]]
    found = structure._running_lines(page, edge, [], None)
    assert {id(b) for b, _ in found} == {id(b) for b in [*feet, level]}
    assert len(calls) <= len(alike) + 1


def test_an_imprints_clearance_is_measured_from_one_sort_of_the_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whether an imprint stands a blank line from the text is asked of sorted blocks, built
    once per page: a hostile foot of thousands of "©" lines must not cost lines x blocks."""
    built = _counting(monkeypatch, structure._Clearance, "__init__")
    asked = _counting(monkeypatch, structure._Clearance, "set_apart")
    feet = [_block("(c) 2020 Example", 40.0 * i, 780.0) for i in range(2000)]
    body = Block([_line("the body text " * 3000, 72, 400)], 72, 392, 90000, 402, 10.0)
    page = PageLayout(1, 90000, 792, [*feet, body])  # (the body's size: most characters')
    found = structure._running_lines(page, [(b, "bottom") for b in feet], [], None)
    assert len(found) == len(feet)  # set apart from the body: every one is an imprint
    assert len(built) == 1 and len(asked) == len(feet)


def test_a_column_of_labels_is_not_sought_in_a_crowded_band() -> None:
    """Each label-and-words pair asks the lines around it whether the labels make a column:
    in a band crowding more lines than ``MAX_SIDE_LINES`` it asks nothing (a hostile page of
    thousands of pairs in one band stays linear), where a glossary's few are a column."""
    from pdfthin.layout.blocks import MAX_SIDE_LINES, _Sides

    def pairs(n: int, pitch: float) -> list[Line]:
        out: list[Line] = []
        for i in range(n):
            out += [
                _line("Term", 72, 100 + pitch * i),
                _line("the words of it", 150, 100 + pitch * i),
            ]
        return out

    glossary = pairs(5, 12.0)
    assert _Sides(glossary).labels_before(glossary[0], glossary[1])
    crowded = pairs(MAX_SIDE_LINES, 0.01)
    assert not _Sides(crowded).labels_before(crowded[0], crowded[1])
