"""The native blocks and reading order against the layout's own (docs/design.md, invariant 10).

``pdfthin_native.build_blocks`` mirrors ``pdfthin.layout.blocks.build_blocks`` and
``pdfthin_native.reading_order`` mirrors ``pdfthin.layout.order.reading_order``, step by step.
Here both run on the same lines and blocks, and what comes out must be the same: blocks equal
to the last float's ``repr``, holding the very same ``Line`` objects; the order the same, with
the very blocks given where Python gives them back and new blocks (a block split where the
page drew other text among its lines) where Python makes them. On every page of the corpus
(upright and turned text, tables among it) and on random pages built to hit every rule
(columns, spanning titles, row bands, interleaved drawing order, headings, tables among text,
equal blocks at the same place, zero-size lines, deep nesting). Input the native side does
not mirror (ints, NaN, infinities, other types) must come back as ``None``, and then Python
answers.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_support import corpus_pages, engine, native_module

from pdfthin.layout import blocks, order, runs_by_direction
from pdfthin.layout.lines import build_lines
from pdfthin.layout.orientation import QUARTERS, turn_run
from pdfthin.layout.tables import find_tables
from pdfthin.layout.types import Block, Line

SETTINGS = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True,
)

TEXTS = [
    "word",
    "The quick brown fox",
    "1.",
    "•",
    "",
    "Introduction",
    "a line of ordinary prose that is long enough to count as substantial",
    "x" * 130,
    "A long bold line " * 8,
    "\ud800 surrogate",
    "مرحبا بالعالم",
]
SIZES = [6.0, 7.5, 9.0, 10.0, 10.0, 10.0, 12.0, 14.4, 0.0]


@pytest.fixture(scope="module")
def module() -> Any:
    return native_module()


def _same_blocks(native: list[Block], pure: list[Block]) -> None:
    """Equal to the last float, and holding the very same lines."""
    assert repr(native) == repr(pure)
    assert [type(b) for b in native] == [type(b) for b in pure]
    assert [[id(ln) for ln in b.lines] for b in native] == [
        [id(ln) for ln in b.lines] for b in pure
    ]


def compare_blocks(module: Any, lines: list[Line]) -> list[Block]:
    before = repr(lines)
    native = module.build_blocks(lines, Block, blocks._SETTINGS)
    assert native is not None
    with engine(None):
        pure = blocks.build_blocks(lines)
    _same_blocks(native, pure)
    assert repr(lines) == before
    return pure


def compare_order(module: Any, given: list[Block]) -> list[Block]:
    before = repr(given)
    ids = [id(b) for b in given]
    native = module.reading_order(given, Block, order._SETTINGS)
    assert native is not None
    with engine(None):
        pure = order.reading_order(given)
    _same_blocks(native, pure)
    mine = set(ids)
    for n, p in zip(native, pure, strict=True):
        # The blocks given come back as themselves; a new block is new on both sides.
        assert n is p or (id(n) not in mine and id(p) not in mine)
    assert repr(given) == before and [id(b) for b in given] == ids
    return pure


def compare_page(module: Any, lines: list[Line], tables: list[Block], rng: random.Random) -> None:
    made = compare_blocks(module, lines)
    given = made + tables
    compare_order(module, given)
    if given:
        # Equal blocks at the same place, the same block twice, and another order.
        extra = list(given)
        for _ in range(rng.randint(1, 3)):
            b = rng.choice(given)
            extra.append(
                rng.choice([b, copy.copy(b), Block(list(b.lines), b.x0, b.y0, b.x1, b.y1, b.size)])
            )
        rng.shuffle(extra)
        compare_order(module, extra)


# --- random pages -----------------------------------------------------------------------------


def _seqs(rng: random.Random, lines: list[Line], columns: list[int]) -> None:
    """Drawing order: column by column (agrees with geometry), row by row, random, column
    by column with a few lines drawn elsewhere (interleaved), or none at all."""
    mode = rng.choice(["column", "column", "row", "random", "swaps", "zero", "equal"])
    if mode == "zero":
        return
    if mode == "column":
        ranked = sorted(range(len(lines)), key=lambda i: (columns[i], lines[i].y0))
    elif mode == "row":
        ranked = list(range(len(lines)))
    elif mode == "random":
        ranked = list(range(len(lines)))
        rng.shuffle(ranked)
    else:
        ranked = sorted(range(len(lines)), key=lambda i: (columns[i], lines[i].y0))
        for _ in range(rng.randint(1, 4)):
            if len(ranked) > 2:
                a, b = rng.randrange(len(ranked)), rng.randrange(len(ranked))
                ranked[a], ranked[b] = ranked[b], ranked[a]
    for seq, i in enumerate(ranked):
        lines[i].seq = seq // 3 if mode == "equal" else seq


def _coord(rng: random.Random, v: float) -> float:
    v = round(v, rng.choice([1, 2, 6, 9]))
    return -0.0 if v == 0 and rng.random() < 0.5 else float(v)


def random_page(rng: random.Random) -> tuple[list[Line], list[Block]]:
    """Rows of lines in one to three columns: paragraphs (indented, short last lines),
    headings across the columns, size and weight changes, zero-size lines, tables."""
    lines: list[Line] = []
    columns: list[int] = []
    tables: list[Block] = []
    ncols = rng.choice([1, 2, 2, 3])
    width = 520.0 / ncols
    gutter = rng.choice([3.0, 6.0, 12.0, 20.0, 40.0])
    y = 30.0 + rng.random() * 5
    for _ in range(rng.randint(0, 45)):
        size = rng.choice(SIZES)
        bold = rng.random() < 0.15
        roll = rng.random()
        if roll < 0.08:
            # A heading or title across the columns (or most of them).
            x0 = 36.0 + rng.choice([0.0, 0.0, 40.0, width * 0.8])
            x1 = 36.0 + 520.0 * rng.uniform(0.4, 1.0)
            lines.append(
                Line(rng.choice(TEXTS), x0, y, max(x0, x1), y + size * 1.3, size * 1.3, True)
            )
            columns.append(-1)
            y += size * rng.choice([1.5, 2.5, 4.0])
            continue
        if roll < 0.12 and len(tables) < 3:
            # A table (or chart) across the page or in one column.
            c = rng.randrange(ncols)
            x0 = 36.0 + (0 if rng.random() < 0.5 else c * (width + gutter))
            members = []
            for r in range(rng.randint(1, 4)):
                for k in range(rng.randint(1, 3)):
                    cx = x0 + k * 60.0
                    members.append(Line("cell", cx, y + r * 12, cx + 40, y + r * 12 + 9, 9.0))
            for ln in members:
                ln.seq = rng.randrange(100)
            tables.append(
                Block(
                    members,
                    min(ln.x0 for ln in members),
                    min(ln.y0 for ln in members),
                    max(ln.x1 for ln in members),
                    max(ln.y1 for ln in members),
                    9.0,
                    kind=rng.choice(["table", "table", "chart"]),
                    rows=[["cell", "cell"]],
                )
            )
            y += 12.0 * 4 + rng.choice([0.0, 5.0, 20.0])
            continue
        jitter = rng.choice([0.0, 0.0, 0.3, -1.5, 2.0])
        for c in range(ncols):
            if rng.random() < 0.1:
                continue
            left = 36.0 + c * (width + gutter)
            x0 = left + rng.choice([0.0, 0.0, 0.0, size, 2.0 * size, 0.3])
            w = width * rng.choice([1.0, 1.0, 1.0, 0.97, 0.6, 0.2, 0.0])
            height = size * rng.choice([1.0, 1.0, 1.0, 0.0, 0.8])
            top = y + jitter * rng.random()
            line_size = size * rng.choice([1.0, 1.0, 1.0, 1.1, 1.4, 0.5])
            lines.append(
                Line(
                    rng.choice(TEXTS),
                    _coord(rng, x0),
                    _coord(rng, top),
                    _coord(rng, x0 + w),
                    _coord(rng, top + height),
                    _coord(rng, line_size),
                    bold if rng.random() < 0.8 else not bold,
                )
            )
            columns.append(c)
        y += size * rng.choice([1.0, 1.2, 1.2, 1.2, 1.5, 0.0, 2.5, -0.5])
    _seqs(rng, lines, columns)
    lines.sort(key=lambda ln: (ln.y0, ln.x0))
    return lines, tables


@SETTINGS
@given(st.integers(0, 2**32))
def test_random_pages(module: Any, seed: int) -> None:
    rng = random.Random(seed)
    lines, tables = random_page(rng)
    compare_page(module, lines, tables, rng)


@SETTINGS
@given(
    st.lists(
        st.tuples(
            st.sampled_from(TEXTS),
            st.floats(-50, 650),
            st.floats(-50, 850),
            st.floats(0, 300),
            st.floats(0, 30),
            st.sampled_from(SIZES),
            st.booleans(),
            st.integers(-5, 5),
        ),
        max_size=50,
    ),
    st.integers(0, 2**32),
)
def test_arbitrary_lines(
    module: Any,
    specs: list[tuple[str, float, float, float, float, float, bool, int]],
    seed: int,
) -> None:
    lines = [Line(t, x, y, x + w, y + h, s, b, seq=q) for t, x, y, w, h, s, b, q in specs]
    compare_page(module, lines, [], random.Random(seed))
    # Not sorted top to bottom: the grouping takes lines in any order.
    compare_page(module, sorted(lines, key=lambda ln: -ln.x1), [], random.Random(seed))


@pytest.mark.parametrize("depth", [0, 1, 3])
def test_shallow_depth_limits(module: Any, monkeypatch: pytest.MonkeyPatch, depth: int) -> None:
    """Where the recursion stops, the region is sorted top to bottom."""
    monkeypatch.setattr(order, "MAX_DEPTH", depth)
    monkeypatch.setattr(order, "_SETTINGS", (order.MIN_GUTTER, depth, order.STREAM_TOLERANCE))
    for seed in range(150):
        rng = random.Random(seed)
        lines, tables = random_page(rng)
        compare_page(module, lines, tables, rng)


def _spiral(n: int, seq: int) -> list[Block]:
    """Blocks peeled one by one, alternately a column on the left and a band on top: the
    recursion goes deeper than ``MAX_DEPTH``."""
    out = []
    x, y = 0.0, 0.0
    for k in range(n):
        if k % 2 == 0:
            box = (x, y, x + 5.0, 1000.0)
            x += 12.0
        else:
            box = (x, y, 1000.0, y + 5.0)
            y += 12.0
        line = Line("spiral text", *box, 10.0, seq=seq * (n - k))
        out.append(Block([line], *box, 10.0))
    return out


@pytest.mark.parametrize("seq", [0, 1])
def test_deeper_than_max_depth(module: Any, seq: int) -> None:
    spiral = _spiral(70, seq)
    compare_order(module, spiral)
    compare_order(module, spiral[::-1])


def test_the_native_path_is_taken(module: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the module switched on, the Python steps are not run, and the answers agree."""
    lines, tables = random_page(random.Random(11))
    with engine(None):
        pure_blocks = blocks.build_blocks(lines)
        pure_order = order.reading_order(pure_blocks + tables)
    monkeypatch.setattr(blocks, "_joins", lambda *a: pytest.fail("grouped in Python"))
    monkeypatch.setattr(order, "_order", lambda *a: pytest.fail("ordered in Python"))
    with engine(module):
        native_blocks = blocks.build_blocks(lines)
        native_order = order.reading_order(pure_blocks + tables)
    assert repr(native_blocks) == repr(pure_blocks)
    assert repr(native_order) == repr(pure_order)


def test_empty(module: Any) -> None:
    assert module.build_blocks([], Block, blocks._SETTINGS) == []
    assert module.reading_order([], Block, order._SETTINGS) == []
    compare_order(module, [Block([], 0.0, 0.0, 0.0, 0.0, 0.0)] * 2)


# --- what is left to Python ---------------------------------------------------------------


def _line(**kw: Any) -> Line:
    fields: dict[str, Any] = dict(text="text", x0=10.0, y0=10.0, x1=90.0, y1=20.0, size=10.0)
    fields.update(kw)
    return Line(**fields)


ODD_LINES = [
    {"x0": 10},
    {"y1": 32},
    {"size": 10},
    {"x1": float("inf")},
    {"y0": float("-inf")},
    {"x0": float("nan")},
    {"size": float("nan")},
    {"bold": 1},
    {"bold": None},
    {"text": b"bytes"},
    {"text": None},
]


@pytest.mark.parametrize("odd", ODD_LINES, ids=repr)
def test_odd_lines_are_left_to_python(module: Any, odd: dict[str, Any]) -> None:
    lines = [_line(), _line(**{"y0": 22.0, "y1": 32.0, **odd}), _line(y0=34.0, y1=44.0)]
    assert module.build_blocks(lines, Block, blocks._SETTINGS) is None
    assert module.build_blocks(tuple(_line() for _ in range(2)), Block, (0.75, 0.12)) is None
    assert _outcome(None, blocks.build_blocks, lines) == _outcome(
        module, blocks.build_blocks, lines
    )


def _outcome(module: Any, function: Any, arg: Any) -> str:
    """What ``function(arg)`` gives with that engine, or the error it raises."""
    try:
        with engine(module):
            return repr(function(arg))
    except TypeError as exc:  # (a text or a seq of None)
        return repr(exc)


class SubBlock(Block):
    __slots__ = ()


def _block(lines: list[Line] | None = None, **kw: Any) -> Block:
    lines = [_line(seq=2), _line(y0=22.0, y1=32.0, seq=1)] if lines is None else lines
    fields: dict[str, Any] = dict(x0=10.0, y0=10.0, x1=90.0, y1=32.0, size=10.0)
    fields.update(kw)
    return Block(lines, **fields)


ODD_BLOCKS: list[Any] = [
    lambda: _block(x0=10),
    lambda: _block(y1=float("nan")),
    lambda: _block(x1=float("inf")),
    lambda: _block(kind=None),
    lambda: _block(lines=(_line(),)),
    lambda: _block(lines=[_line(seq=1.0)]),
    lambda: _block(lines=[_line(seq=2**70)]),
    lambda: _block(lines=[_line(seq=None)]),
    lambda: SubBlock([_line()], 10.0, 10.0, 90.0, 20.0, 10.0),
]


@pytest.mark.parametrize("make", ODD_BLOCKS)
def test_odd_blocks_are_left_to_python(module: Any, make: Any) -> None:
    given = [_block(y0=100.0, y1=130.0), make(), _block(x0=200.0, x1=300.0)]
    assert module.reading_order(given, Block, order._SETTINGS) is None
    assert module.reading_order(tuple(given), Block, order._SETTINGS) is None
    assert _outcome(None, order.reading_order, given) == _outcome(
        module, order.reading_order, given
    )


def test_odd_lines_of_a_split_block_are_left_to_python(module: Any) -> None:
    """A block split by drawing order is made from its lines' own numbers: read only then."""
    a, b, c = _line(seq=1), _line(y0=22.0, y1=32.0, x0=10, seq=5), _line(y0=50.0, seq=2)
    given = [Block([a, b], 10.0, 10.0, 90.0, 32.0, 10.0), Block([c], 10.0, 50.0, 90.0, 60.0, 10.0)]
    assert module.reading_order(given, Block, order._SETTINGS) is None
    with engine(None):
        pure = order.reading_order(given)
    assert len(pure) == 3
    b.x0 = 10.0
    compare_order(module, given)


# --- the corpus -------------------------------------------------------------------------------


@pytest.mark.corpus
def test_every_corpus_page(module: Any) -> None:
    """Every page of the corpus as ``layout_page`` hands it over: the lines outside tables
    to ``build_blocks``, those blocks and the tables to ``reading_order``; and text turned a
    quarter or more, as ``_turned_blocks`` does it."""
    pages = tabled = 0
    rng = random.Random(5)
    for page in corpus_pages():
        page, by_direction = runs_by_direction(page)
        with engine(module):
            lines = build_lines(by_direction.get(0, []))
            tables, rest = find_tables(lines, page.rules)
        made = compare_blocks(module, rest)
        compare_order(module, made + tables)
        tabled += bool(tables)
        for direction, k in QUARTERS.items():
            if k and by_direction.get(direction):
                upright = [turn_run(r, k, page.width, page.height) for r in by_direction[direction]]
                with engine(module):
                    turned = build_lines(upright)
                compare_order(module, compare_blocks(module, turned))
        if pages % 50 == 0:
            # Equal blocks at the same place, and another order, now and then.
            compare_page(module, rest, tables, rng)
        pages += 1
    assert pages > 1000 and tabled > 20
