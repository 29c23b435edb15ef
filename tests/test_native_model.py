"""The native text clean-up and word lists against the model's own (docs/design.md, invariant 10).

``pdfthin_native.clean_text`` mirrors ``pdfthin.model.text.clean`` (ligatures, characters that
are never text, runs of spaces) and hands back ``None`` for what Python must normalise itself
(presentation forms, texts with lone surrogates). Every code point, and random mixtures of the
characters each rule is about, must come out the same.

``pdfthin_native.ascii_words`` gives the lower-cased words ``_WORD.findall`` finds in an ASCII
line, and ``None`` for any other line; ``pdfthin_native.vocabulary`` is the whole document's
vocabulary (which tells hyphenation from real hyphens) built with it, non-ASCII lines split by
Python: the same set as the model's own on every corpus document and on random pages.
"""

from __future__ import annotations

import copy
import itertools
import sys
from collections.abc import Container
from typing import Any

import pytest
from conftest import CORPUS_FILES, require_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from layouts import open_with_layouts
from native_support import engine, native_module

import pdfthin
from pdfthin.engine import ImagePlacement, PageContent, TextRun, open_pdf
from pdfthin.errors import PdfthinError
from pdfthin.layout import Block, Line, PageLayout
from pdfthin.model import document as model_document
from pdfthin.model import markdown as model_markdown
from pdfthin.model import status as model_status
from pdfthin.model import text as model_text

SETTINGS = settings(
    max_examples=500,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    derandomize=True,
)

#: One or more characters each rule of ``clean`` is about, and ordinary text around them.
PIECES = [
    *model_text.LIGATURES,
    "\ufb4f",
    "\ufb50",
    "\ufe33",
    "\uff21",
    "\uf900",
    "\ufeff",
    "\x00",
    "\x08",
    "\t",
    "\n",
    "\x0b",
    "\x1f",
    "\x7f",
    "\x9f",
    "\ufffd",
    "\ue000",
    "\uf8ff",
    "\ufffe",
    "\u200b",
    "\u2060",
    "\u00ad",
    " ",
    "  ",
    "\u00a0",
    "\u2000",
    "\u200a",
    "\u202f",
    "\u205f",
    "\u3000",
    "\u2028",
    "\ud800",
    "word",
    "é",
    "مرحبا",
    "一",
    "😀",
]


@pytest.fixture(scope="module")
def module() -> Any:
    return native_module()


def _check(module: Any, text: str) -> None:
    native = module.clean_text(text)
    with engine(None):
        pure = model_text.clean(text)
    presentation = any(
        model_text._PRESENTATION.match(ch) and ch not in model_text.LIGATURES for ch in text
    )
    surrogate = any(0xD800 <= ord(ch) <= 0xDFFF for ch in text)
    if presentation or surrogate:
        assert native is None
    else:
        assert native == pure, (text, native, pure)


@SETTINGS
@given(st.lists(st.sampled_from(PIECES), max_size=30))
def test_mixtures(module: Any, pieces: list[str]) -> None:
    _check(module, "".join(pieces))


@SETTINGS
@given(st.text(max_size=40))
def test_any_text(module: Any, text: str) -> None:
    _check(module, text)


def test_every_code_point(module: Any) -> None:
    """Each code point alone, between letters and between spaces."""
    for start in range(0, sys.maxunicode + 1, 256):
        chars = [chr(c) for c in range(start, min(start + 256, sys.maxunicode + 1))]
        for ch in chars:
            if 0xD800 <= ord(ch) <= 0xDFFF:
                continue
            _check(module, f"a{ch}b  {ch} ")


def test_clean_takes_the_native_path(module: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "The ﬁrst\x00 line\u00a0 of  text\ufffd"
    with engine(None):
        pure = model_text.clean(text)
    monkeypatch.setattr(model_text, "_LIGATURE_TABLE", None)  # the Python path would fail
    with engine(module):
        assert model_text.clean(text) == pure == "The first line of text"


def _check_words(module: Any, text: str) -> None:
    native = module.ascii_words(text)
    if not text.isascii():
        assert native is None
        return
    assert native == [w.lower() for w in model_document._WORD.findall(text)]


@SETTINGS
@given(st.text(alphabet="aZ09_- .,'\t\x00é", max_size=40))
def test_words(module: Any, text: str) -> None:
    _check_words(module, text)


@SETTINGS
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=60))
def test_words_of_any_ascii(module: Any, text: str) -> None:
    _check_words(module, text)


def test_words_examples(module: Any) -> None:
    assert module.ascii_words("State-of-the-art _x_ -a- 3D-printing co-") == [
        "state-of-the-art",
        "x",
        "a",
        "3d-printing",
        "co",
    ]
    assert module.ascii_words("naïve") is None


@SETTINGS
@given(st.text(max_size=60))
def test_letter_and_digit_count(module: Any, text: str) -> None:
    """What the page status counts as read text: the same with either engine."""
    with engine(None):
        pure = model_status.alnum_count(text)
    with engine(module):
        native = model_status.alnum_count(text)
    assert native == pure == len(model_status._ALNUM.findall(text))
    assert module.alnum_split(text) is not None or any(0xD800 <= ord(c) <= 0xDFFF for c in text)


# --- the document's vocabulary ------------------------------------------------------------------


def _layouts(texts: list[list[list[str]]]) -> list[PageLayout]:
    """Pages of blocks of lines with these texts (the vocabulary reads nothing else)."""
    return [
        PageLayout(
            n,
            612.0,
            792.0,
            [
                Block([Line(t, 0.0, 0.0, 1.0, 1.0, 10.0) for t in block], 0, 0, 1, 1, 10)
                for block in page
            ],
        )
        for n, page in enumerate(texts, start=1)
    ]


def _check_vocabulary(module: Any, layouts: list[PageLayout]) -> set[str]:
    """The same words both ways; the native set (``pdfthin_native.Vocabulary``) answers ``in``
    as the Python set does, for its words and for others."""
    with engine(None):
        pure = model_document._vocabulary(layouts)
    assert isinstance(pure, set)
    with engine(module):
        native = model_document._vocabulary(layouts)
    assert isinstance(native, module.Vocabulary)
    assert set(native) == pure and len(native) == len(pure)
    direct = module.vocabulary(layouts, model_document._line_words, model_document._char_class)
    assert set(direct) == pure
    for word in pure:
        assert word in native
        for other in (word + "x", word.upper(), "-" + word):
            assert (other in native) == (other in pure)
    assert "\ud800" not in native and 3 not in native
    return pure


LINE_PIECES = [
    "co-",
    "op",
    "state-of-the-art",
    "naïve",
    "Über-",
    " ",
    "-",
    "\u00a0",
    "\x1c",
    "\x85",
]


@SETTINGS
@given(
    st.lists(
        st.lists(
            st.lists(
                st.lists(
                    st.one_of(
                        st.sampled_from(LINE_PIECES),
                        st.text(alphabet="aZ09_- .\t\x1fé\u3000", max_size=8),
                        st.text(max_size=4),
                    ),
                    max_size=5,
                ).map("".join),
                max_size=4,
            ),
            max_size=3,
        ),
        max_size=3,
    )
)
def test_vocabulary(module: Any, texts: list[list[list[str]]]) -> None:
    """ASCII lines split natively, the others by Python, hyphen-broken halves left out across
    both kinds, trailing white space of either kind before the hyphen test."""
    _check_vocabulary(module, _layouts(texts))


def test_vocabulary_examples(module: Any) -> None:
    found = _check_vocabulary(
        module,
        _layouts(
            [
                [["A state-of-the-art co-", "operation of the naïve", "Über-", "gang ok\u3000"]],
                [["end of a hyphen-\x1c", "ated line", "unbroken"], ["fresh", "block"]],
            ]
        ),
    )
    assert {"state-of-the-art", "naïve", "ok", "unbroken", "fresh", "block"} <= found
    assert not {"co", "operation", "über", "gang", "hyphen", "ated"} & found


def test_vocabulary_falls_back_for_a_text_that_is_not_a_str(module: Any) -> None:
    layouts = _layouts([[["a line"]]])
    layouts[0].blocks[0].lines[0].text = b"bytes"  # type: ignore[assignment]
    assert (
        module.vocabulary(layouts, model_document._line_words, model_document._char_class) is None
    )


def test_vocabulary_of_every_character(module: Any) -> None:
    """Every code point inside a word, beside one, between two, alone, and before a final
    hyphen: the native split (Python asked once per character) gives Python's words."""
    chars = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]
    texts: list[list[str]] = []
    for start in range(0, len(chars), 64):
        group = chars[start : start + 64]
        texts.append(
            [
                "".join(f"a{c}b " for c in group),
                "".join(f"{c}x-{c} " for c in group) + group[0] + "-",
                "".join(f"Σ{c}Σ " for c in group),
                "next " + "".join(group),
            ]
        )
    _check_vocabulary(module, _layouts([texts]))


@pytest.mark.corpus
def test_vocabulary_of_every_corpus_document(module: Any) -> None:
    require_corpus()
    documents = 0
    for f in CORPUS_FILES:
        try:
            with engine(module):
                _, layouts = open_with_layouts(f.path, password=f.password)
        except PdfthinError:
            continue
        documents += bool(_check_vocabulary(module, layouts))
    assert documents > 200


# --- page rendering ---------------------------------------------------------------------------


def _render_both(module: Any, blocks: list[Block], known: Container[str] | None) -> Any:
    """``render_page`` both ways: the same Markdown, anchors and plain text."""
    with engine(None):
        pure = model_markdown.render_page(blocks, known)
    native = module.render_page(blocks, known, Block, model_markdown._HOOKS)
    assert native is not None
    assert repr(native) == repr(pure)
    assert [type(a) for a in native[1]] == [type(a) for a in pure[1]]
    with engine(module):  # and through the model's own dispatch
        assert repr(model_markdown.render_page(blocks, known)) == repr(pure)
    return pure


def _lines_block(texts: list[str], kind: str = "paragraph", font: str = "Times") -> Block:
    lines = [
        Line(t, 72.0, 100.0 + 12 * k, 300.0, 110.0 + 12 * k, 10.0, font=font)
        for k, t in enumerate(texts)
    ]
    return Block(lines, 72.0, 100.0, 300.0, 100.0 + 12 * len(texts), 10.0, kind=kind)


@pytest.mark.corpus
def test_rendering_of_every_corpus_document(module: Any) -> None:
    require_corpus()
    documents = 0
    for f in CORPUS_FILES:
        try:
            with engine(module):
                doc, layouts = open_with_layouts(f.path, password=f.password)
        except PdfthinError:
            continue
        with engine(None):
            known = model_document._vocabulary(layouts)
        with engine(module):
            native_known = model_document._vocabulary(layouts)
        for page, layout in zip(doc.pages, layouts, strict=True):
            pure = _render_both(module, layout.blocks, known)
            assert (page.markdown, page.anchors, page.text) == pure
            # The native vocabulary, read by the native writer and by Python's.
            assert _render_both(module, layout.blocks, native_known) == pure
            _render_both(module, layout.blocks, None)
        documents += 1
    assert documents > 200


TEXTS = [
    "Running text of the body line that goes on and on, as prose does.",
    "infor-",
    "mation retrieval",
    "state-of-the-",
    "art methods",
    "self-",
    "replication",
    "community-",
    "oriented work.",
    "well-",
    "known",
    "use-",
    "cases",
    "n-",
    "gram",
    "12-",
    "34",
    "A-",
    "Bcd",
    "x-",
    "-",
    "--",
    "word -",
    "  padded   ",
    "",
    "   ",
    "café-",
    "über",
    "naïve-",
    "ßtraße",
    "éa-",
    "a_b-",
    "c_d",
    "e-",
    "ÿes",
    "# not a heading",
    "####### seven",
    "> quoted",
    "- dash",
    "+ plus",
    "* star",
    "-nospace",
    "• bullet",
    "1. first",
    "12) twelfth",
    "(a) letter",
    "(iv) roman",
    "IV. upper",
    "١. Arabic-Indic",
    "(٣) digit",
    "a|b",
    "ﬁnal ﬂow",
    "ｆｕｌｌ width",
    "x\u00ady",
    "\u200bzero",
    "مقدمة البحث",
    "מבוא לנושא",
    "第一章 概要",
    "line\nbreak",
    "tab\there",
]
FONTS = ["Times-Roman", "Courier", "CMTT10", "ABCDEF+Menlo-Regular", "ſmono", "Consolas", ""]
KNOWN = [
    "information",
    "infor-mation",
    "well",
    "known",
    "use",
    "cases",
    "a_bc_d",
    "selfreplication",
    "self-replication",
    "x",
]


@st.composite
def _blocks(draw: Any) -> list[Block]:
    blocks = []
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(["paragraph", "heading", "list_item", "table", "code"]))
        texts = draw(st.lists(st.sampled_from(TEXTS) | st.text(max_size=12), max_size=5))
        font = draw(st.sampled_from(FONTS))
        block = _lines_block(texts, kind, font)
        if draw(st.booleans()):
            for line in block.lines:
                line.font = draw(st.sampled_from(FONTS))
        block.level = draw(st.integers(-2, 9))
        block.run_in = draw(st.booleans())
        block.y0 = draw(
            st.floats(allow_nan=False, allow_infinity=False, width=64)
            | st.sampled_from([0.25, 0.75, 1.25, 2.35, -0.04, -0.05, 0.05, 1e300, 123.45])
            | st.integers(-10000, 10000).map(lambda n: n / 4)
        )
        if kind == "table" and draw(st.booleans()):
            block.rows = draw(
                st.lists(
                    st.lists(st.sampled_from(TEXTS) | st.text(max_size=6), max_size=4),
                    min_size=0,
                    max_size=4,
                )
            )
        blocks.append(block)
    return blocks


@SETTINGS
@given(_blocks(), st.none() | st.sets(st.sampled_from(KNOWN)))
def test_rendering_of_random_blocks(
    module: Any, blocks: list[Block], known: set[str] | None
) -> None:
    _render_both(module, blocks, known)


JOIN_FIRST = "a1_é -"
JOIN_SECOND = "aA1_ é-."


def test_every_short_line_end(module: Any) -> None:
    """A line ending in ``-`` and the next line, on every short pair over the characters
    ``_HYPHEN_END``, ``_WORD_START`` and ``isalnum`` are about: the same joins."""
    firsts = ["".join(p) + "-" for n in range(4) for p in itertools.product(JOIN_FIRST, repeat=n)]
    seconds = ["".join(p) for n in range(1, 4) for p in itertools.product(JOIN_SECOND, repeat=n)]
    for known in (None, {"aa", "a-a", "a1", "a_"}):
        for first in firsts:
            blocks = [_lines_block([first, second]) for second in seconds]
            _render_both(module, blocks, known)


def test_every_short_list_item_and_markup(module: Any) -> None:
    alphabet = "(1).iIvVxXaZ •-* \t١é#>+"
    for n in range(1, 5):
        texts = ["".join(p) for p in itertools.product(alphabet, repeat=n)]
        for kind in ("list_item", "paragraph"):
            _render_both(module, [_lines_block([t], kind) for t in texts], None)


def test_rendering_falls_back(module: Any) -> None:
    """Input the native side does not mirror: ``None``, and Python renders."""
    good = _lines_block(["text"])
    cases: list[Any] = []
    for attr, value in [
        ("kind", None),
        ("level", 1.0),
        ("level", 2**70),
        ("run_in", 0),
        ("y0", 1),
        ("lines", (Line("x", 0.0, 0.0, 1.0, 1.0, 10.0),)),
    ]:
        block = copy.deepcopy(good)
        setattr(block, attr, value)
        cases.append([block])
    table = _lines_block(["a"], "table")
    table.rows = [("a",)]  # type: ignore[list-item]
    cases.append([table])
    bytes_line = _lines_block(["a"])
    bytes_line.lines[0].text = b"a"  # type: ignore[assignment]
    cases.append([bytes_line])
    surrogate = _lines_block(["\ud800"])
    cases.append([surrogate])

    class Other(Block):
        pass

    cases.append([Other([], 0.0, 0.0, 1.0, 1.0, 10.0)])
    cases.append((good,))
    for blocks in cases:
        assert module.render_page(blocks, None, Block, model_markdown._HOOKS) is None


# --- page status ------------------------------------------------------------------------------


def _status_both(module: Any, page: PageContent, markdown: str) -> Any:
    layout = PageLayout(page.number, page.width, page.height)
    with engine(None):
        pure = model_status.page_status(page, layout, markdown)
    native = module.page_status(page, markdown, model_status._HOOKS, model_status._SETTINGS)
    if native is not None:
        assert native == pure
    with engine(module):
        assert model_status.page_status(page, layout, markdown) == pure
    return native


@pytest.mark.corpus
def test_status_of_every_corpus_page(module: Any) -> None:
    require_corpus()
    answered = 0
    for f in CORPUS_FILES:
        try:
            with engine(module):
                doc = pdfthin.open(f.path, password=f.password)
                read = open_pdf(f.path, password=f.password)
        except PdfthinError:
            continue
        for page in doc.pages:
            content = read.page(page.number)
            found = _status_both(module, content, page.markdown)
            with engine(None):
                without_text = model_status.alnum_count(page.markdown) < 1
            assert (found is None) == without_text
            answered += found is not None
    assert answered > 1000


_COORDINATE = st.floats(-100.0, 900.0, allow_nan=False) | st.sampled_from(
    [0.0, 15.3, 15.30000001, 612.0, 792.0, 306.0, 45.9, -0.0]
)


@st.composite
def _pages(draw: Any) -> tuple[PageContent, str]:
    width = draw(st.sampled_from([612.0, 792.0, 100.0, 0.0, -5.0, 1e-3]))
    height = draw(st.sampled_from([792.0, 612.0, 100.0, 0.0, 1e-3]))
    images = [
        ImagePlacement(
            (draw(_COORDINATE), draw(_COORDINATE), draw(_COORDINATE), draw(_COORDINATE)),
            10,
            10,
            8,
            "DeviceRGB",
            (),
            None,
            "Im1",
        )
        for _ in range(draw(st.integers(0, 4)))
    ]
    if draw(st.booleans()) and images:  # one covering the page, or half of it
        images[0].bbox = (0.0, 0.0, width, draw(st.sampled_from([height, height / 2])))
    runs = [
        TextRun(
            draw(st.text(alphabet="ab\x00\x07\t\n\r\x0b\x1f\x7f\x85\x9f é", max_size=6)),
            0.0,
            0.0,
            1.0,
            1.0,
            10.0,
            "Times",
            ocr_layer=draw(st.booleans()) and draw(st.booleans()),
        )
        for _ in range(draw(st.integers(0, 4)))
    ]
    page = PageContent(
        1,
        width,
        height,
        0,
        runs=runs,
        images=images,
        paths=draw(st.integers(0, 50)),
        glyphs=draw(st.integers(0, 200)),
        unmapped_glyphs=draw(st.integers(0, 100) | st.just(0)),
        problems=draw(st.lists(st.sampled_from(["a limit", "bad font", "x"]), max_size=3)),
        incomplete=draw(st.booleans()),
    )
    letters = st.sampled_from(["a", "Z", "9", "_", " ", "é", "١", "一", "²", "→", "\u0301", "-"])
    markdown = "".join(draw(st.lists(letters, max_size=60)))
    return page, markdown


@SETTINGS
@given(_pages())
def test_status_of_random_pages(module: Any, drawn: tuple[PageContent, str]) -> None:
    _status_both(module, *drawn)


def test_status_falls_back(module: Any) -> None:
    """A page without text, and values not of the usual type: ``None``."""
    image = ImagePlacement((0.0, 0.0, 10.0, 10.0), 1, 1, 8, "DeviceGray", (), None, "Im")
    run = TextRun("a", 0.0, 0.0, 1.0, 1.0, 10.0, "Times")
    changes: list[dict[str, Any]] = [
        {"width": 612},
        {"height": float("inf")},
        {"unmapped_glyphs": 1.0},
        {"incomplete": 1},
        {"runs": (run,)},
        {"images": [ImagePlacement((0, 0, 10, 10), 1, 1, 8, "DeviceGray", (), None, "Im")]},
        {"images": [ImagePlacement([0.0, 0.0, 1.0, 1.0], 1, 1, 8, "G", (), None, "Im")]},  # type: ignore[arg-type]
        {"problems": ("x",)},
    ]
    for change in changes:
        fields: dict[str, Any] = {"runs": [run], "images": [image], "incomplete": True}
        fields.update(change)
        page = PageContent(1, fields.pop("width", 612.0), fields.pop("height", 792.0), 0, **fields)
        assert module.page_status(page, "abc", model_status._HOOKS, model_status._SETTINGS) is None
        _status_both(module, page, "abc")
    page = PageContent(1, 612.0, 792.0, 0)
    assert module.page_status(page, " → ", model_status._HOOKS, model_status._SETTINGS) is None
    assert module.page_status(page, b"ab", model_status._HOOKS, model_status._SETTINGS) is None
