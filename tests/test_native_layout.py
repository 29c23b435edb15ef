"""The native line building and grid finding against the layout's own (invariant 10).

``pdfthin_native.build_lines`` mirrors ``pdfthin.layout.lines`` (``_group``, ``_make_line``)
step by step. Here both build lines from the same runs, and the lines must be the same to the
last float's ``repr``: on every page of the corpus, and on random pages built to hit every
rule (column gutters, hanging labels, table-of-contents leaders, code, sub-caption labels,
stretched justified rows, label lists, fake bold, right-to-left text, texts with lone
surrogates). Coordinates the native side does not mirror (infinite, NaN, huge) must come back
as ``None``, and then Python builds the lines.

``pdfthin_native.find_grids`` mirrors ``pdfthin.layout.table_grid.find_grids``: the grids
(boundaries, and where rules run along them) must be the same to the last float, on every
corpus page and on random rulings (lattices with jitter, double rules, stacked parts, spanning
cells, stray segments).
"""

from __future__ import annotations

import itertools
import random
import sys
import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_support import corpus_pages, engine, native_module

from pdfthin.engine.types import TextRun
from pdfthin.layout import lines, runs_by_direction, table_grid
from pdfthin.layout.orientation import QUARTERS, turn_run

SETTINGS = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True,
)

TEXTS = [
    "word",
    "The quick",
    "brown fox jumps",
    "over",
    "(b)",
    "b)",
    "[CS10]",
    "1.",
    "12",
    "•",
    "¹",
    "a",
    "*",
    "3",
    "iv",
    "Introduction . . . . . . . .",
    "Methods .........",
    "∂M",
    "Rand der Menge M",
    "Step 1",
    "Do this and then that",
    "47.500",
    "-12.5%",
    "(3)",
    " ",
    "  spaced  ",
    "x",
    "مرحبا",
    "Jeremy",
    "Jeremy جرمي",
    "\ud800.",
    ",",
    ")",
    "",
]
FONTS = ["Times-Roman", "Courier", "CMTT10", "Helvetica-Bold", "Inconsolata"]
SIZES = [6.0, 7.5, 9.0, 10.0, 10.0, 12.0, 14.4]


@pytest.fixture(scope="module")
def module() -> Any:
    return native_module()


def _compare(module: Any, runs: list[TextRun]) -> None:
    usable = [r for r in runs if r.y1 > r.y0]
    native = module.build_lines(usable, lines._HOOKS, lines._SETTINGS)
    assert native is not None
    with engine(None):
        pure = lines.build_lines(runs)
    # repr: every field, and the floats as they are (-0.0, an int where a test gave one).
    assert repr(native) == repr(pure)


def random_page(rng: random.Random) -> list[TextRun]:
    """Rows of runs in one to three columns, with the layouts the grouping has rules for."""
    runs: list[TextRun] = []
    columns = rng.choice([1, 2, 2, 3])
    width = 540.0 / columns
    gutter = rng.choice([6.0, 12.0, 18.0, 30.0])
    y = 40.0 + rng.random() * 5
    for _ in range(rng.randint(1, 40)):
        size = rng.choice(SIZES)
        jitter = rng.choice([0.0, 0.0, 0.01, 0.3, 1.7, -2.5])
        for c in range(columns):
            x = 36.0 + c * (width + gutter) + rng.choice([0.0, 0.0, 12.0, 24.5])
            end = 36.0 + c * (width + gutter) + width
            while x < end and rng.random() < 0.85:
                text = rng.choice(TEXTS)
                run_size = size * rng.choice([1.0, 1.0, 1.0, 0.7, 1.2])
                w = max(0.5, len(text) * run_size * rng.uniform(0.35, 0.6))
                base = y + jitter * rng.random() + rng.choice([0.0, 0.0, -0.3 * size])
                run = TextRun(
                    text,
                    round(x, rng.choice([1, 2, 6])),
                    base - run_size,
                    round(x + w, 3),
                    base + rng.choice([0.0, 0.2 * run_size]),
                    run_size,
                    rng.choice(FONTS),
                    seq=len(runs),
                )
                runs.append(run)
                if rng.random() < 0.05:  # fake bold: the same text a little to the right
                    runs.append(
                        TextRun(
                            text,
                            run.x0 + 0.4,
                            run.y0 + 0.1,
                            run.x1 + 0.4,
                            run.y1,
                            run_size,
                            run.font,
                        )
                    )
                x += w + rng.choice(
                    [0.0, 0.5, 1.5, 2.5, 4.0, 6.0, 9.0, 14.0, 30.0, 60.0, 140.0, -2.0, -40.0]
                )
        y += size * rng.choice([1.0, 1.2, 1.2, 1.5, 2.4, 0.5])
    rng.shuffle(runs)
    return runs


@SETTINGS
@given(st.integers(0, 2**32))
def test_random_pages(module: Any, seed: int) -> None:
    _compare(module, random_page(random.Random(seed)))


@SETTINGS
@given(
    st.lists(
        st.tuples(
            st.sampled_from(TEXTS),
            st.floats(-50, 650),
            st.floats(-50, 850),
            st.floats(0, 200),
            st.floats(0, 30),
            st.sampled_from([*SIZES, 0.0, -3.0, 0.01]),
            st.sampled_from(FONTS),
        ),
        max_size=60,
    )
)
def test_arbitrary_runs(
    module: Any, specs: list[tuple[str, float, float, float, float, float, str]]
) -> None:
    runs = [TextRun(t, x, y, x + w, y + h, s, f) for t, x, y, w, h, s, f in specs]
    _compare(module, runs)


def test_integer_and_signed_zero_coordinates(module: Any) -> None:
    """A line is made of the runs' own numbers: ints stay ints, -0.0 stays -0.0."""
    runs = [
        TextRun("a", 0, 0, 5, 10, 10, "Times", seq=3),
        TextRun("b", -0.0, 0.0, 5.0, 10, 10.0, "Times", bold=True, seq=1),
        TextRun("c", 6, -0.0, 9, 10.0, 10, "Courier", italic=True, artifact=True, seq=2),
        TextRun("d", 0.0, 20, 5, 30, -0.0, "Times"),
        TextRun("e", 7, 20, 9, 30, 0.0, "Times"),
    ]
    _compare(module, runs)


def test_every_right_to_left_letter(module: Any) -> None:
    """The native side hands a line to ``logical_order`` only when it holds a character of
    the right-to-left blocks: every R and AL character of this Python's Unicode is in them."""
    rtl = [
        chr(c)
        for c in range(sys.maxunicode + 1)
        if unicodedata.bidirectional(chr(c)) in ("R", "AL")
    ]
    assert len(rtl) > 2000
    runs = [
        TextRun(f"a {ch}\u05d0 b", 10, 12.0 * k, 60, 12.0 * k + 10, 10, "Times")
        for k, ch in enumerate(rtl)
    ]
    _compare(module, runs)
    bet = rtl.index("\u05d1")
    assert [
        ln.text for ln in module.build_lines(runs[bet : bet + 1], lines._HOOKS, lines._SETTINGS)
    ] == ["a \u05d0\u05d1 b"]


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan"), 1e300])
def test_coordinates_out_of_reach_are_left_to_python(module: Any, value: float) -> None:
    runs = [
        TextRun("left", 10, 10, 40, 20, 10, "Times"),
        TextRun("right", 45, 10, 80, 20, 10, "Times"),
        TextRun("far", value, 10, 90, 20, 10, "Times"),
    ]
    assert module.build_lines(runs, lines._HOOKS, lines._SETTINGS) is None
    with engine(None):
        pure = lines.build_lines(runs)
    with engine(module):
        native = lines.build_lines(runs)
    assert repr(pure) == repr(native)  # (NaN is not equal to itself)


def test_build_lines_takes_the_native_path(module: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the module switched on, ``build_lines`` works natively (Python's ``_group`` and
    ``_make_line`` are not called), and makes the same lines."""
    runs = random_page(random.Random(7))
    with engine(None):
        pure = lines.build_lines(runs)
    monkeypatch.setattr(lines, "_group", lambda usable: pytest.fail("grouped in Python"))
    monkeypatch.setattr(lines, "_make_line", lambda runs: pytest.fail("made in Python"))
    with engine(module):
        native = lines.build_lines(runs)
    assert native == pure and len(native) > 5


def _compare_grids(module: Any, rules: list[Any]) -> None:
    native = module.find_grids(rules, table_grid.Grid, table_grid._SETTINGS)
    assert native is not None
    with engine(None):
        pure = table_grid.find_grids(rules)
    assert repr(native) == repr(pure)


def random_rules(rng: random.Random) -> list[Any]:
    """Lattices (cell borders drawn once or per cell, a little off, doubled, with cells
    merged), tables stacked on each other, and stray segments."""
    rules: list[Any] = []
    for _ in range(rng.randint(0, 3)):
        cols, rows = rng.randint(1, 7), rng.randint(1, 12)
        x0, y0 = rng.uniform(0, 400), rng.uniform(0, 600)
        xs = [
            x0 + sum(rng.choice([3.0, 20.0, 45.5, 80.0]) for _ in range(c)) for c in range(cols + 1)
        ]
        ys = [
            y0 + sum(rng.choice([2.0, 12.0, 14.4, 30.0]) for _ in range(r)) for r in range(rows + 1)
        ]
        jitter = rng.choice([0.0, 0.0, 0.3, 1.0, 2.0])
        per_cell = rng.random() < 0.5
        for y in ys:
            if per_cell:
                for a, b in itertools.pairwise(xs):
                    if rng.random() < 0.9:
                        yy = y + rng.uniform(-jitter, jitter)
                        rules.append((a, yy, b + rng.choice([0.0, -1.0, -3.0]), yy))
            elif rng.random() < 0.85:
                rules.append((xs[0], y, xs[-1], y))
            if rng.random() < 0.1:  # a double rule
                rules.append((xs[0], y + 2.0, xs[-1], y + 2.0))
        for x in xs:
            for a, b in itertools.pairwise(ys):
                if rng.random() < 0.85:
                    xx = x + rng.uniform(-jitter, jitter)
                    rules.append((xx, a, xx, b + rng.choice([0.0, 0.5, -2.6])))
    for _ in range(rng.randint(0, 10)):
        x, y = rng.uniform(0, 600), rng.uniform(0, 800)
        length = rng.choice([0.0, 1.0, 30.0, 300.0])
        rules.append(
            rng.choice([(x, y, x + length, y), (x, y, x, y + length), (x, y, x + 5, y + 5)])
        )
    rng.shuffle(rules)
    if rules and rng.random() < 0.2:  # whole numbers, as a test might write them
        rules = [tuple(int(v) for v in r) for r in rules]
    return rules


@SETTINGS
@given(st.integers(0, 2**32))
def test_random_rulings(module: Any, seed: int) -> None:
    _compare_grids(module, random_rules(random.Random(seed)))


def test_random_rulings_find_grids() -> None:
    """The random rulings are not vacuous: most of them hold grids."""
    with engine(None):
        found = [bool(table_grid.find_grids(random_rules(random.Random(s)))) for s in range(200)]
    assert sum(found) > 100


@pytest.mark.parametrize("value", [float("inf"), float("nan")])
def test_rules_out_of_reach_are_left_to_python(module: Any, value: float) -> None:
    rules = [(0.0, 0.0, 100.0, 0.0), (0.0, 50.0, 100.0, 50.0), (0.0, 0.0, 0.0, 50.0)]
    rules += [(50.0, 0.0, 50.0, 50.0), (100.0, 0.0, 100.0, 50.0), (value, 0.0, value, 50.0)]
    assert module.find_grids(rules, table_grid.Grid, table_grid._SETTINGS) is None
    with engine(None):
        pure = table_grid.find_grids(rules)
    with engine(module):
        native = table_grid.find_grids(rules)
    assert repr(pure) == repr(native)


@pytest.mark.corpus
def test_every_corpus_page(module: Any) -> None:
    """Every page of the corpus, upright text and text turned a quarter or more, as
    ``layout_page`` hands it to ``build_lines``, and its rules as ``find_tables`` gets them."""
    pages = grids = 0
    for page in corpus_pages():
        page, by_direction = runs_by_direction(page)
        _compare(module, by_direction.get(0, []))
        _compare_grids(module, page.rules)
        grids += bool(page.rules)
        for direction, k in QUARTERS.items():
            if k and by_direction.get(direction):
                upright = [turn_run(r, k, page.width, page.height) for r in by_direction[direction]]
                _compare(module, upright)
        pages += 1
    assert pages > 1000 and grids > 300
