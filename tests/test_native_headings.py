"""The native heading statistics against the layout's own (docs/design.md, invariant 10).

``pdfthin_native.heading_context`` computes what ``pdfthin.layout.headings.mark_headings``
learns of the whole document before it changes anything (``body_size``, ``_context``,
``_is_slide_deck``); Python does the rest with it. Here ``mark_headings`` runs both ways on
copies of the same pages, and the pages must come out the same: every block's ``repr``, kind,
level and ``run_in``, and the same objects where Python keeps them (blocks and lines of the
input) and new ones where it makes them. On every corpus document, and on random documents
built to hit every rule (numbered and unnumbered headings, captions, theorems, tables of
contents, running heads, slides, run-ins, numbered lines, non-ASCII and right-to-left
titles). The text tests done natively for ASCII are compared with the regular expressions
on every short string over their alphabet and on many random ones. Input the native side
does not mirror comes back as ``None``.
"""

from __future__ import annotations

import copy
import itertools
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_support import corpus_documents, engine, native_module

from pdfthin.layout import headings, layout_page
from pdfthin.layout.structure import mark_furniture, mark_lists
from pdfthin.layout.types import Block, Line, PageLayout

SETTINGS = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True,
)


@pytest.fixture(scope="module")
def module() -> Any:
    return native_module()


def _identities(pages: list[PageLayout]) -> tuple[dict[int, Any], dict[int, Any]]:
    blocks = {id(b): (p, i) for p, page in enumerate(pages) for i, b in enumerate(page.blocks)}
    lines = {
        id(ln): (p, i, j)
        for p, page in enumerate(pages)
        for i, b in enumerate(page.blocks)
        for j, ln in enumerate(b.lines)
    }
    return blocks, lines


def _state(pages: list[PageLayout], before: tuple[dict[int, Any], dict[int, Any]]) -> Any:
    blocks, lines = before
    return (
        repr(pages),
        [[(type(b), b.kind, b.level, b.run_in) for b in page.blocks] for page in pages],
        [
            [
                (blocks.get(id(b), "new"), [lines.get(id(ln), "new") for ln in b.lines])
                for b in page.blocks
            ]
            for page in pages
        ],
    )


def check_shapes(module: Any, pages: list[PageLayout]) -> int:
    """Every block's native ``_plain_shape`` (where it has one) against Python's, in the
    context the native module gives; returns how many blocks were known natively."""
    known = module.heading_context(pages, headings._HOOKS)
    assert known is not None
    ctx, _ = headings._native_context(pages, known)
    assert ctx.shapes is not None
    n = 0
    for page in pages:
        for block in page.blocks:
            native = ctx.shapes.get(id(block), False)
            if native is not None:
                assert native == headings._plain_shape(ctx, page, block), repr(block)
                n += 1
    return n


def compare(module: Any, pages: list[PageLayout], native_answers: bool = True) -> None:
    """``mark_headings`` both ways on copies of ``pages``: the same pages out."""
    pure, native = copy.deepcopy(pages), copy.deepcopy(pages)
    if native_answers:
        check_shapes(module, copy.deepcopy(pages))
    pure_ids, native_ids = _identities(pure), _identities(native)
    with engine(None):
        headings.mark_headings(pure)
    with engine(module):
        headings.mark_headings(native)
    assert _state(native, native_ids) == _state(pure, pure_ids)


def test_every_corpus_document(module: Any) -> None:
    documents = 0
    for contents in corpus_documents():
        pages = [layout_page(content) for content in contents]
        mark_furniture(pages)
        mark_lists(pages)
        compare(module, pages)
        documents += 1
    assert documents > 100


# --- random documents -------------------------------------------------------------------------

TITLES = [
    "1 Introduction",
    "2.1 Related Work",
    "3.2.1 Data sets and splits",
    "IV. RESULTS",
    "III-A Setup",
    "A. Allowed classes",
    "B.2 Proofs",
    "(a) First case",
    "Chapter 2 Methods",
    "Part I",
    "Appendix A",
    "REFERENCES",
    "Acknowledgments",
    "Boots Self-Locking Nut",
    "Figure 3: Accuracy over time",
    "Table 2. Results",
    "Theorem 2.1 (Heine-Borel)",
    "Proof.",
    "Definition 4",
    "Introduction . . . . . . . . 3",
    "Methods .......... 12",
    "2 Background 7",
    "Results 15",
    "PREFACE xv",
    "332 ACKNOWLEDGMENTS",
    "Journal of Things, Vol. 3",
    "www.example.com",
    "mail me: a@b.org",
    "1) Accuracy: Showing the correctness of the method on all sets.",
    "2) Speed: We measure the time it takes.",
    "Überblick und Ausblick",
    "Einführung in die Topologie",
    "第一章 概要",
    "مقدمة البحث",
    "מבוא לנושא",
    "ﬁnal remarks",
    "Σύνοψη",
    "• a bullet item",
    "x = y + 2",
    "12",
    "iv",
    "",
    "Running text of the body line that goes on and on, as prose does.",
    "the rest of a sentence that started above and ends here.",
    "N. Dalal and B. Triggs, Histograms of oriented gradients.",
    "Type specialization. In JavaScript, values have types.",
    "A line broken mid-",
    "Editors:",
]
LINE_NUMBERS = [f"{i} the transcript says this on line {i}" for i in range(1, 12)]
FONTS = [
    "Times-Roman",
    "Times-Bold",
    "ABCDEF+CMBX10",
    "CMR10",
    "CMMI10",
    "Arial-ItalicMT",
    "Ünïcode-Bold",
    "",
]
SIZES = [6.0, 8.0, 9.0, 10.0, 10.0, 10.0, 10.0, 11.0, 12.0, 14.4, 17.28, 20.0, 24.0]


def _random_document(rng: random.Random) -> list[PageLayout]:
    slides = rng.random() < 0.15
    width, height = (792.0, 612.0) if slides or rng.random() < 0.1 else (612.0, 792.0)
    pages = []
    body = rng.choice([10.0, 10.0, 12.0, 18.0 if slides else 10.0])
    toc_page = rng.random() < 0.2
    numbered_lines = rng.random() < 0.1
    for number in range(1, rng.randint(1, 6) + 1):
        blocks: list[Block] = []
        y = 20.0 if rng.random() < 0.5 else 80.0
        if rng.random() < 0.5:  # a running head in the top margin
            text = rng.choice(
                [
                    "PREFACE xv",
                    "1.1. TOPOLOGISCHE RÄUME",
                    f"Chapter 1 {number}",
                    "Journal of Things",
                ]
            )
            blocks.append(_block([(text, body, False, False, "Times-Roman")], 72.0, 30.0))
        for _ in range(rng.randint(1, 14)):
            n = rng.choice([1, 1, 1, 2, 2, 3, 4, 5, 6])
            lines = []
            for k in range(n):
                if toc_page and number == 1:
                    text = rng.choice([*TITLES[18:24], "Contents"])
                elif numbered_lines:
                    text = rng.choice(LINE_NUMBERS)
                elif k == 0 or rng.random() < 0.3:
                    text = rng.choice(TITLES)
                else:
                    text = TITLES[42]
                size = rng.choice(SIZES) if k == 0 or rng.random() < 0.2 else body
                if rng.random() < 0.6:
                    size = body if k else size
                lines.append(
                    (
                        text,
                        size,
                        rng.random() < 0.25,
                        rng.random() < 0.1,
                        rng.choice(FONTS[:3] if rng.random() < 0.7 else FONTS),
                    )
                )
            x = rng.choice([72.0, 72.0, 72.0, 320.0, 30.0])
            block = _block(lines, x, y)
            block.kind = rng.choice(["paragraph"] * 8 + ["list_item", "table", "code"])
            blocks.append(block)
            y = block.y1 + rng.choice([2.0, 6.0, 14.0])
            if rng.random() < 0.2:
                y -= block.y1 - block.y0  # a block beside the last one
        if rng.random() < 0.4:  # a folio at the foot
            blocks.append(
                _block([(str(number), body, False, False, "Times-Roman")], 300.0, height - 30.0)
            )
        pages.append(PageLayout(number, width, height, blocks))
    return pages


def _block(lines: list[tuple[str, float, bool, bool, str]], x: float, y: float) -> Block:
    made = []
    for text, size, bold, italic, font in lines:
        w = 0.5 * size * len(text)
        made.append(Line(text, x, y, x + w, y + size, size, bold, italic, font))
        y += 1.2 * size
    size = max((ln.size for ln in made), default=10.0)
    return Block(
        made,
        min(ln.x0 for ln in made),
        min(ln.y0 for ln in made),
        max(ln.x1 for ln in made),
        max(ln.y1 for ln in made),
        size,
        sum(len(ln.text) for ln in made if ln.bold) * 2 > sum(len(ln.text) for ln in made),
    )


@pytest.mark.parametrize("seed", range(300))
def test_random_documents(module: Any, seed: int) -> None:
    compare(module, _random_document(random.Random(seed)))


@SETTINGS
@given(st.integers(0, 2**32 - 1))
def test_random_documents_hypothesis(module: Any, seed: int) -> None:
    compare(module, _random_document(random.Random(seed)))


def test_an_empty_document(module: Any) -> None:
    compare(module, [])
    compare(module, [PageLayout(1, 612.0, 792.0, [])])
    compare(
        module,
        [PageLayout(1, 612.0, 0.0, [_block([("Title", 10.0, True, False, "")], 10.0, 10.0)])],
    )


# --- text tests against the regular expressions --------------------------------------------------


def _python_answers(text: str) -> tuple[Any, ...]:
    word = not any(c.isspace() for c in text)
    return (
        headings.font_family(text),
        headings._bold_font(text),
        headings.is_caps(text),
        headings._margin_key(text),
        headings._toc_end(text),
        headings._toc_entry(text),
        word and headings._folio(text),
        len(headings._LETTERS.findall(text)),
        headings._toc_leader(text),
    )


def _check_texts(module: Any, texts: Any) -> int:
    n = 0
    for text in texts:
        assert module.heading_text_tests(text) == _python_answers(text), repr(text)
        n += 1
    return n


def test_every_short_ascii_text(module: Any) -> None:
    alphabet = ". _1i2vXaA\t"
    texts = ("".join(p) for k in range(7) for p in itertools.product(alphabet, repeat=k))
    assert _check_texts(module, texts) > 100_000


def test_every_short_font_name(module: Any) -> None:
    pieces = [
        "bold",
        "italic",
        "mt",
        "ps",
        "psmt",
        "std",
        "pro",
        "roman",
        "semibold",
        "black",
        "Bold",
        "MT",
        "-",
        ",",
        "_",
        "+",
        "x",
        "cm",
        "bx",
        "1",
        "t1",
        "sf",
        "ec",
        "demi",
        "heavy",
        "Light",
        "o",
    ]
    texts = ("".join(p) for k in range(4) for p in itertools.product(pieces, repeat=k))
    assert _check_texts(module, texts) > 10_000


def test_random_ascii_texts(module: Any) -> None:
    rng = random.Random(7)
    alphabet = [chr(c) for c in range(32, 127)] + [
        "\t",
        "\x1c",
        "\x0b",
        "...",
        ". ",
        "____",
        " 12",
        " xiv",
    ]
    texts = (
        "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(50_000)
    )
    _check_texts(module, texts)


def test_other_texts_are_left_to_python(module: Any) -> None:
    for text in ["Über", "a\nb", "12\n", "\ud800"]:
        assert module.heading_text_tests(text) is None
        assert module.heading_numbering(text) is None
        assert module.heading_regex(0, text, False) is None


# --- the regular expressions, numbering and the shape of a heading's text ----------------------


def test_the_patterns_are_the_modules(module: Any) -> None:
    patterns = module.heading_patterns()
    assert len(patterns) >= 13
    for name, pattern, ignorecase in patterns:
        compiled = getattr(headings, name)
        assert compiled.pattern == pattern, name
        assert bool(compiled.flags & re.IGNORECASE) == ignorecase, name


def _spans(m: re.Match[str] | None, groups: int) -> list[Any]:
    if m is None:
        return []
    return [None if m.span(g) == (-1, -1) else m.span(g) for g in range(groups + 1)]


def _python_shaped(text: str) -> bool | None:
    """What ``_plain_shape`` asks of a stripped text, its block not set sideways."""
    if not text:
        return None
    if text[0] in headings._BULLETS or text.endswith((",", ";")):
        return False
    if text.endswith(":") and len(text) > 40:
        return False
    return headings._shaped_text(text)


def _check_regexes(module: Any, texts: Any) -> int:
    patterns = [getattr(headings, name) for name, _, _ in module.heading_patterns()]
    n = 0
    for text in texts:
        for i, compiled in enumerate(patterns):
            for search in (False, True):
                found = (compiled.search if search else compiled.match)(text)
                want = _spans(found, compiled.groups)
                assert module.heading_regex(i, text, search) == want, (compiled.pattern, text)
        found = headings.numbering(text)
        want = (
            None if found is None else (found.kind, found.depth, found.title),
            headings._url(text),
            bool(headings._MATH_FONT.match(text)),
            _python_shaped(text.strip()),
        )
        assert module.heading_numbering(text) == want, repr(text)
        n += 1
    return n


#: Alphabets that reach every branch of the patterns: numbers, Roman numerals, letters,
#: parentheses, the words of sections, captions and theorems, URLs and mail.
ALPHABETS = [
    "1.2 \t",
    "1.a)",
    "IVX-A1. ",
    "A.1): ",
    "(a1) ",
    "xN. ,Bc",
    "ab.? C",
    "a@.b \x1c",
]
#: Whole words, joined a few at a time.
WORDS = [
    "chapter",
    "Part",
    "SECTION",
    "Kapitel",
    "partie",
    "ii",
    "IV",
    "C",
    "one",
    "twelve",
    "2",
    "12",
    "3.1",
    ".",
    ":",
    "-",
    " ",
    "\t",
    "Figure",
    "fig.",
    "Tab.",
    "note",
    "Source",
    "Proof",
    "theorem",
    "Satz",
    "cmr1",
    "CMMI",
    "msbm",
    "www.",
    ".org",
    "a@b",
    "N.",
    "Dalal,",
    "Xyz",
    "ab",
    "...",
]


def test_every_short_text_for_the_patterns(module: Any) -> None:
    texts = (
        "".join(p)
        for alphabet in ALPHABETS
        for k in range(6)
        for p in itertools.product(alphabet, repeat=k)
    )
    assert _check_regexes(module, texts) > 90_000


def test_every_short_sequence_of_words_for_the_patterns(module: Any) -> None:
    texts = ("".join(p) for k in range(4) for p in itertools.product(WORDS, repeat=k))
    assert _check_regexes(module, texts) > 50_000


def test_random_texts_for_the_patterns(module: Any) -> None:
    rng = random.Random(11)
    pieces = [chr(c) for c in range(32, 127)] + ["\t", "\x1c", "\x0b", *WORDS, *TITLES[:32]]
    texts = ("".join(rng.choice(pieces) for _ in range(rng.randint(0, 12))) for _ in range(30_000))
    _check_regexes(module, (t for t in texts if t.isascii() and "\n" not in t))


@SETTINGS
@given(st.text(st.characters(min_codepoint=9, max_codepoint=126), max_size=60))
def test_hypothesis_texts_for_the_patterns(module: Any, text: str) -> None:
    if "\n" not in text:
        _check_regexes(module, [text])


# --- None: where Python must answer -----------------------------------------------------------


def _plain_document() -> list[PageLayout]:
    return [
        PageLayout(
            1,
            612.0,
            792.0,
            [
                _block([("1 Introduction", 12.0, True, False, "Times-Bold")], 72.0, 100.0),
                _block([(TITLES[42], 10.0, False, False, "Times-Roman")] * 3, 72.0, 120.0),
            ],
        )
    ]


@pytest.mark.parametrize(
    ("where", "name", "value"),
    [
        ("line", "size", 10),
        ("line", "size", float("inf")),
        ("line", "size", float("nan")),
        ("line", "bold", 1),
        ("line", "italic", None),
        ("line", "font", None),
        ("line", "text", b"bytes"),
        ("block", "size", 12),
        ("block", "bold", 0),
        ("block", "y0", float("nan")),
        ("block", "lines", ()),
        ("block", "kind", None),
        ("page", "height", 792),
        ("page", "blocks", ()),
    ],
)
def test_unusual_input_is_left_to_python(module: Any, where: str, name: str, value: Any) -> None:
    pages = _plain_document()
    target: Any = {
        "line": pages[0].blocks[0].lines[0],
        "block": pages[0].blocks[0],
        "page": pages[0],
    }[where]
    setattr(target, name, value)
    assert module.heading_context(pages, headings._HOOKS) is None


def test_a_tuple_of_pages_is_left_to_python(module: Any) -> None:
    assert module.heading_context(tuple(_plain_document()), headings._HOOKS) is None


def test_mark_headings_takes_the_native_path(module: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*args: Any) -> Any:
        raise AssertionError("Python's statistics ran")

    monkeypatch.setattr(headings, "_context", never)
    monkeypatch.setattr(headings, "body_size", never)
    pages = _plain_document()
    with engine(module):
        headings.mark_headings(pages)
    assert pages[0].blocks[0].kind == "heading"


def test_python_answers_when_native_cannot(module: Any) -> None:
    pages = _plain_document()
    pages[0].blocks[1].lines[0].size = 10  # an int: Python's way
    compare(module, pages, native_answers=False)


def _shapes(module: Any, pages: list[PageLayout]) -> dict[int, Any]:
    ctx, _ = headings._native_context(pages, module.heading_context(pages, headings._HOOKS))
    assert ctx.shapes is not None
    return ctx.shapes


def test_shapes_known_natively(module: Any) -> None:
    pages = _plain_document()
    shapes = _shapes(module, pages)
    assert shapes == {id(pages[0].blocks[0]): True}  # the paragraph: not of heading shape
    assert check_shapes(module, pages) == 2


@pytest.mark.parametrize(
    "change",
    [
        "non-ascii",
        "line feed",
        "x0 an int",
        "x1 a string",
        "twice on a page",
        "on two pages",
        "non-ascii font",
    ],
)
def test_shapes_left_to_python(module: Any, change: str) -> None:
    pages = _plain_document()
    title = pages[0].blocks[0]
    if change == "non-ascii":
        title.lines[0].text = "1 Einführung"
    elif change == "line feed":
        title.lines[0].text = "1 Introduction\n"
    elif change == "x0 an int":
        title.x0 = 72  # type: ignore[assignment]
    elif change == "x1 a string":
        title.x1 = "wide"  # type: ignore[assignment]
    elif change == "twice on a page":
        pages[0].blocks.append(title)
    elif change == "on two pages":
        pages.append(PageLayout(2, 612.0, 60.0, [title]))
    elif change == "non-ascii font":
        title.lines[0].font = "Ünïcode-Bold"
    shapes = _shapes(module, pages)
    assert id(title) in shapes and shapes[id(title)] is None
    assert check_shapes(module, copy.deepcopy(pages)) >= 1
    if change not in ("x1 a string",):
        compare(module, pages)


def test_split_blocks_are_shaped_by_python(module: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A first line split off its paragraph is a new block: Python tells its shape."""
    pages = _plain_document()
    para = pages[0].blocks[1]
    para.lines[0] = Line("Methods", 72.0, 120.0, 120.0, 132.0, 12.0, True, False, "Times-Bold")
    asked: list[str] = []
    plain_shape = headings._plain_shape

    def spy(ctx: Any, page: PageLayout, block: Block) -> bool:
        asked.append(block.text)
        return plain_shape(ctx, page, block)

    monkeypatch.setattr(headings, "_plain_shape", spy)
    with engine(module):
        headings.mark_headings(pages)
    assert asked == ["Methods", " ".join([TITLES[42]] * 2)]
    assert [b.kind for b in pages[0].blocks] == ["heading", "heading", "paragraph"]


@pytest.mark.parametrize("first", [*sorted(headings._BULLETS), "Ü", "a", "1", "(", "+", "→x"])
def test_texts_that_are_not_simple_rejected_natively(module: Any, first: str) -> None:
    """Tests that mean the same on any text reject a block natively; else Python tells."""
    pages = _plain_document()
    title = pages[0].blocks[0]
    title.lines[0].text = f"  {first} Überblick"
    known = _shapes(module, pages).get(id(title), False)
    assert known is (False if first[0] in headings._BULLETS else None)
    check_shapes(module, pages)


@pytest.mark.parametrize(
    "text",
    ["Über,", "Über;", "Ü" * 41 + ":", "Ü" * 40 + ":", "Ü" * 161, "Ü" * 160, "ü www.x", "ü.org"],
)
def test_the_ends_of_texts_that_are_not_simple(module: Any, text: str) -> None:
    pages = _plain_document()
    title = pages[0].blocks[0]
    title.lines[0].text = text
    title.lines[0].font = "CMR10"
    check_shapes(module, copy.deepcopy(pages))
    title.lines[0].font = "CMMI10"  # every line in a math font: never a heading
    assert _shapes(module, pages).get(id(title), False) is False
    check_shapes(module, pages)
