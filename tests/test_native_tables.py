"""The native table finding against the layout's own (docs/design.md, invariant 10).

``pdfthin_native.find_tables`` mirrors ``pdfthin.layout.tables.find_tables`` (with
``table_cells`` and ``table_columns``) step by step. Here both find tables in the same lines
and rules, and the answers must be the same: the table blocks to the last float's ``repr``,
the lines of the blocks and the rest the very same objects (the pieces of a line cut between
two grids side by side are new lines on both sides, equal field by field). On every page of
the corpus, and on random pages built to hit every rule: ruled grids with text in cells, rows
set as one string across cells (with and without their pieces recorded), merged header
cells, aligned columns without rules, prose beside a table, right-to-left text, numbers with
thousands groups, non-ASCII text. Inputs the native side does not mirror (coordinates not
finite or huge, fields that are not floats, texts with lone surrogates, a line given twice)
must come back as ``None``, and then Python finds the tables.
"""

from __future__ import annotations

import itertools
import random
import string
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_support import corpus_pages, engine, native_module

from pdfthin.layout import lines as lines_mod
from pdfthin.layout import runs_by_direction, table_cells, tables
from pdfthin.layout.types import Line

SETTINGS = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True,
)


@pytest.fixture(scope="module")
def module() -> Any:
    return native_module()


def _key(line: Line, given: set[int]) -> Any:
    """A line of the input by identity, a line made on the way (a cut piece) by value."""
    return ("given", id(line)) if id(line) in given else ("made", repr(line))


def _compare(module: Any, lines: list[Line], rules: list[Any]) -> tuple[list[Any], list[Line]]:
    native = module.find_tables(lines, rules, tables._HOOKS, tables._SETTINGS)
    assert native is not None
    with engine(None):
        pure = tables.find_tables(lines, rules)
    given_ids = {id(ln) for ln in lines}
    assert type(native) is tuple and len(native) == 2
    assert repr(native[0]) == repr(pure[0])
    assert [_key(ln, given_ids) for ln in native[1]] == [_key(ln, given_ids) for ln in pure[1]]
    for nb, pb in zip(native[0], pure[0], strict=True):
        assert [_key(ln, given_ids) for ln in nb.lines] == [_key(ln, given_ids) for ln in pb.lines]
    # A cut piece is one object wherever it appears (in a block or in the rest).
    made = {id(ln): ln for b in native[0] for ln in b.lines if id(ln) not in given_ids}
    for ln in native[1]:
        if id(ln) not in given_ids:
            assert id(ln) not in made
    return native


# --- the corpus --------------------------------------------------------------------------------


@pytest.mark.corpus
def test_every_corpus_page(module: Any) -> None:
    """Every page of the corpus: its upright lines as ``layout_page`` builds them, and its
    rules, as ``find_tables`` gets them."""
    pages = found = ruled = 0
    for page in corpus_pages():
        page, by_direction = runs_by_direction(page)
        with engine(None):
            built = lines_mod.build_lines(by_direction.get(0, []))
        result = _compare(module, built, page.rules)
        found += len(result[0])
        ruled += bool(page.rules)
        pages += 1
    assert pages > 1000 and ruled > 300 and found > 50


# --- random pages ------------------------------------------------------------------------------

WORDS = [
    "Total",
    "Country",
    "Population",
    "rate",
    "(a)",
    "[1]",
    "n/a",
    "—",
    "-",
    "x",
    "Revenue growth",
    "of which",
    "Müller",
    "Straße",
    "café",
    "東京",
    "מחיר",
    "السعر",
    "الإجمالي",
    "Δ",
    "=",
    "∑",
    "•",
    "1.",
    "ii",
    "see p. 4",
    "12, 15–17",
]
NUMBERS = [
    "12",
    "3.5",
    "1,234",
    "29 300",
    "1 234 567",
    "-4.2%",
    "(12)",
    "$45",
    "€12",
    "0.5‰",
    ".75",
    "12a",
    "300,5",
    "٣٤",
    "１２",
    "7 500.25",
    "<1",
    "±2",
]
PROSE = [
    "The committee considered the proposals at length and agreed to the amendments below.",
    "Results are reported in the table, with the standard errors given in parentheses.",
    "هذا نص عربي طويل يصف الجدول الموجود في هذه الصفحة بالتفصيل الكامل",
    "Die Ergebnisse werden in der folgenden Tabelle zusammengefasst und erläutert.",
]
SIZES = [6.0, 8.0, 9.0, 10.0, 10.0, 12.0]


def _cell_text(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.45:
        return rng.choice(NUMBERS)
    if r < 0.85:
        return rng.choice(WORDS)
    if r < 0.92:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 4)))
    return rng.choice(["", " ", "  padded  ", "a", "(", "x\u00a0y"])


def _width(text: str, size: float, rng: random.Random) -> float:
    return max(0.5, len(text) * size * rng.uniform(0.4, 0.6))


def _line(
    text: str, x0: float, y0: float, size: float, rng: random.Random, spans: Any = None
) -> Line:
    x1 = x0 + _width(text, size, rng)
    if spans is None:
        spans = [(x0, x1, text)]
    return Line(text, x0, y0, x1, y0 + size, size, seq=rng.randint(0, 50), spans=spans)


def _table(rng: random.Random, x0: float, y0: float, ruled: bool) -> tuple[list[Line], list[Any]]:
    """A table: columns of cells, a header (wrapped or merged across columns), some rows set
    as one string across their cells, ruled or only aligned."""
    out: list[Line] = []
    rules: list[Any] = []
    cols = rng.randint(2, 6)
    widths = [rng.choice([30.0, 45.0, 60.0, 90.0]) for _ in range(cols)]
    xs = [x0 + sum(widths[:c]) for c in range(cols + 1)]
    nrows = rng.randint(1, 12)
    size = rng.choice(SIZES)
    step = size * rng.choice([1.2, 1.5, 2.0, 2.6])
    ys = [y0 + r * step for r in range(nrows + 2)]
    header_lines = rng.choice([1, 1, 2, 3])
    for h in range(header_lines):
        y = y0 + h * size * 1.1
        if rng.random() < 0.2:  # one heading centred over the columns
            text = rng.choice(WORDS)
            mid = (xs[0] + xs[-1]) / 2
            out.append(_line(text, mid - 10, y, size, rng))
        else:
            for c in range(cols):
                if rng.random() < 0.8:
                    out.append(_line(rng.choice(WORDS), xs[c] + 2, y, size, rng))
    body_top = y0 + header_lines * size * 1.1 + 2
    for r in range(nrows):
        y = body_top + r * step
        texts = [_cell_text(rng) for _ in range(cols)]
        mode = rng.random()
        if mode < 0.2:
            # The row set as one string: words spread over the table's width.
            text = " ".join(t for t in texts if t.strip())
            if not text:
                continue
            spans = None
            if rng.random() < 0.5:
                spans = []
                for c, t in enumerate(texts):
                    if t.strip():
                        spans.append((xs[c] + 2, xs[c] + 2 + _width(t, size, rng), t))
            ln = Line(
                text,
                xs[0] + 2,
                y,
                xs[-1] + rng.choice([-3.0, 0.0, 8.0]),
                y + size,
                size,
                spans=spans or [(xs[0] + 2, xs[-1], text)],
            )
            out.append(ln)
            continue
        if mode < 0.25 and cols > 2:  # a cell merged over two columns
            texts[1] = texts[1] + " " + texts[2]
            texts[2] = ""
        for c, t in enumerate(texts):
            if not t:
                continue
            align = rng.choice(["left", "left", "right"])
            w = _width(t, size, rng)
            left = xs[c] + 2 if align == "left" else xs[c + 1] - 2 - w
            jitter = rng.choice([0.0, 0.0, 0.4, -0.6])
            out.append(
                Line(
                    t,
                    left,
                    y + jitter,
                    left + w,
                    y + jitter + size,
                    size,
                    spans=[(left, left + w, t)],
                )
            )
        if rng.random() < 0.1:  # a wrapped cell
            out.append(_line(rng.choice(WORDS).lower(), xs[0] + 2, y + size * 1.05, size, rng))
    bottom = body_top + nrows * step + 2
    if ruled:
        style = rng.random()
        rows_y = [y0 - 2, body_top - 1, *(body_top + r * step - 1 for r in range(1, nrows)), bottom]
        if style < 0.3:  # only rules above, below and under the header (booktabs)
            for y in (y0 - 2, body_top - 1, bottom):
                rules.append((xs[0], y, xs[-1], y))
        else:
            for y in rows_y:
                if rng.random() < 0.9:
                    rules.append((xs[0], y, xs[-1], y))
            for k, x in enumerate(xs):
                for a, b in itertools.pairwise(rows_y):
                    if k in (0, len(xs) - 1) or rng.random() < 0.8:
                        rules.append((x, a, x, b))
    del ys
    return out, rules


def random_page(rng: random.Random) -> tuple[list[Line], list[Any]]:
    page: list[Line] = []
    rules: list[Any] = []
    y = 40.0
    for _ in range(rng.randint(1, 4)):
        kind = rng.random()
        if kind < 0.3:
            for _ in range(rng.randint(1, 6)):
                size = rng.choice(SIZES)
                page.append(_line(rng.choice(PROSE), 36.0, y, size, rng))
                y += size * 1.3
        elif kind < 0.45:
            # Two tables side by side, their rows set as one string across both.
            lines_a, rules_a = _table(rng, 36.0, y, True)
            lines_b, rules_b = _table(rng, 320.0, y, True)
            for ln in lines_a[: rng.randint(0, 4)]:
                joined = f"{ln.text} {rng.choice(NUMBERS)} {rng.choice(WORDS)}"
                page.append(
                    Line(joined, ln.x0, ln.y0, 330.0 + rng.choice([0.0, 40.0]), ln.y1, ln.size)
                )
            page += lines_a + lines_b
            rules += rules_a + rules_b
            y = max([ln.y1 for ln in page] + [y]) + 30
        else:
            ruled = rng.random() < 0.6
            x0 = rng.choice([36.0, 36.0, 300.0])
            found, found_rules = _table(rng, x0, y, ruled)
            page += found
            rules += found_rules
            if rng.random() < 0.3:  # prose beside the table
                side = 36.0 if x0 > 100 else 340.0
                yy = y
                for _ in range(rng.randint(2, 8)):
                    page.append(_line(rng.choice(PROSE)[:40], side, yy, 10.0, rng))
                    yy += 12.0
            y = max([ln.y1 for ln in page] + [y]) + rng.choice([10.0, 30.0])
    for _ in range(rng.randint(0, 4)):  # stray rules: axes, ticks
        x, yy = rng.uniform(0, 500), rng.uniform(0, 700)
        rules.append(rng.choice([(x, yy, x + 200, yy), (x, yy, x, yy + 100)]))
    rng.shuffle(page)
    return page, rules


@SETTINGS
@given(st.integers(0, 2**32))
def test_random_pages(module: Any, seed: int) -> None:
    page, rules = random_page(random.Random(seed))
    _compare(module, page, rules)


def test_random_pages_find_tables(module: Any) -> None:
    """The random pages are not vacuous: they hold tables, of both kinds, and rows cut."""
    found = cut = 0
    for s in range(300):
        page, rules = random_page(random.Random(s))
        blocks, rest = _compare(module, page, rules)
        found += bool(blocks)
        given_ids = {id(ln) for ln in page}
        made = [ln for b in blocks for ln in b.lines] + rest
        cut += any(id(ln) not in given_ids for ln in made)
    assert found > 100 and cut > 10


@SETTINGS
@given(
    st.lists(
        st.tuples(
            st.sampled_from(WORDS + NUMBERS + PROSE),
            st.floats(0, 500),
            st.floats(0, 300),
            st.floats(0, 200),
            st.sampled_from([*SIZES, 0.0, -3.0]),
        ),
        max_size=40,
    ),
    st.lists(
        st.tuples(st.floats(0, 500), st.floats(0, 300), st.floats(0, 200), st.booleans()),
        max_size=20,
    ),
)
def test_arbitrary_lines(
    module: Any,
    specs: list[tuple[str, float, float, float, float]],
    rule_specs: list[tuple[float, float, float, bool]],
) -> None:
    lines = [
        Line(t, x, y, x + w, y + abs(s) + 1, s, spans=[(x, x + w, t)]) for t, x, y, w, s in specs
    ]
    rules = [(x, y, x + n, y) if h else (x, y, x, y + n) for x, y, n, h in rule_specs]
    _compare(module, lines, rules)


# --- text tests --------------------------------------------------------------------------------

_ALPHABET = "0123456789.,:/%-+~<>$()[]*xXnNaAkK \t\n\x1c\x0b"


def test_is_value_all_short_ascii(module: Any) -> None:
    """The native ``is_value`` of ASCII texts against the expression, on every text of up to
    four characters over the characters the expression names (and some it does not)."""
    for n in range(5):
        for chars in itertools.product(_ALPHABET if n < 4 else "0.,%a)( ", repeat=n):
            text = "".join(chars)
            assert module.table_is_value(text) == table_cells.is_value(text), repr(text)


@settings(max_examples=3000, deadline=None, derandomize=True)
@given(st.text(alphabet=string.printable + "\x1c\x1d\x1e\x1f", max_size=14))
def test_is_value_ascii(text: str) -> None:
    module = native_module()
    assert module.table_is_value(text) == table_cells.is_value(text)


def test_is_value_leaves_other_text_to_python(module: Any) -> None:
    assert module.table_is_value("١٢") is None


# --- left to Python ----------------------------------------------------------------------------


def _simple_table() -> tuple[list[Line], list[Any]]:
    rng = random.Random(7)
    out: list[Line] = []
    for r in range(4):
        for c in range(3):
            t = "Name" if c == 0 else str(10 * r + c)
            out.append(_line(t, 36.0 + 80 * c, 40.0 + 14 * r, 10.0, rng))
    return out, []


@pytest.mark.parametrize(
    "change",
    [
        {"x0": float("inf")},
        {"y1": float("nan")},
        {"x1": 1e300},
        {"size": 10},
        {"text": "\ud800 12"},
    ],
)
def test_unusual_lines_are_left_to_python(module: Any, change: dict[str, Any]) -> None:
    lines, rules = _simple_table()
    for key, value in change.items():
        setattr(lines[4], key, value)
    assert module.find_tables(lines, rules, tables._HOOKS, tables._SETTINGS) is None
    with engine(None):
        pure = tables.find_tables(lines, rules)
    with engine(module):
        native = tables.find_tables(lines, rules)
    assert repr(pure) == repr(native)


@pytest.mark.parametrize("value", [float("inf"), float("nan"), 1e300])
def test_unusual_rules_are_left_to_python(module: Any, value: float) -> None:
    lines, _ = _simple_table()
    rules = [(0.0, 30.0, 400.0, 30.0), (0.0, 100.0, 400.0, 100.0), (value, 0.0, value, 50.0)]
    assert module.find_tables(lines, rules, tables._HOOKS, tables._SETTINGS) is None
    with engine(None):
        pure = tables.find_tables(lines, rules)
    with engine(module):
        native = tables.find_tables(lines, rules)
    assert repr(pure) == repr(native)


def test_a_line_given_twice_is_left_to_python(module: Any) -> None:
    lines, rules = _simple_table()
    lines.append(lines[0])
    assert module.find_tables(lines, rules, tables._HOOKS, tables._SETTINGS) is None


def test_python_errors_come_back(module: Any) -> None:
    """A hook that raises: the error reaches the caller (as in Python), not a wrong answer."""
    lines, rules = _simple_table()

    def broken(*args: Any) -> Any:
        raise RuntimeError("hook")

    hooks = list(tables._HOOKS)
    hooks[7] = broken  # _looks_tabular
    with pytest.raises(RuntimeError, match="hook"):
        module.find_tables(lines, rules, tuple(hooks), tables._SETTINGS)


def test_find_tables_takes_the_native_path(module: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the module switched on, ``find_tables`` works natively (Python's own steps are
    not called), and gives what Python gives."""
    lines, rules = _simple_table()
    with engine(None):
        pure = tables.find_tables(lines, rules)
    assert pure[0]

    def never(*args: Any) -> Any:
        raise AssertionError("the Python steps ran")

    monkeypatch.setattr(tables, "_aligned_tables", never)
    monkeypatch.setattr(tables, "_from_grid", never)
    with engine(module):
        native = tables.find_tables(lines, rules)
    assert repr(native) == repr(pure)
