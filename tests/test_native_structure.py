"""The native running furniture and list items against the layout's own (docs/design.md
invariant 10).

``pdfthin_native.mark_structure`` does what ``pdfthin.layout.structure.mark_furniture`` and
``mark_lists`` do, on the same objects: the blocks it keeps are the very blocks given, the new
ones (list items and the paragraphs between them) are made with the ``Block`` class, and the
texts of running headers and footers are appended to the pages' own lists. Here both run on
copies of the same pages, and the pages must come out the same: every block's ``repr``, the
same objects where Python keeps them and new ones where it makes them, the same headers and
footers, and the same Markdown, plain text and anchors. On every corpus document, and on
random documents built to hit every rule (running heads and folios in several forms, roman
numerals, lines repeated on pages with and without body text, artifacts, bullets and
enumerations of every kind, non-ASCII and right-to-left text). The text tests done natively
(``_key``, ``_LETTERS``, ``_PAGE_NUMBER``, ``_BULLET``, ``_ENUM``) are compared with the
regular expressions on every short string over their alphabets and on many random ones.
Input the native side does not mirror comes back as ``None``, with nothing changed.
"""

from __future__ import annotations

import copy
import itertools
import random
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_support import corpus_documents, engine, native_module

from pdfthin.layout import layout_page, structure
from pdfthin.layout.types import Block, Line, PageLayout
from pdfthin.model.markdown import render_page

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
    """Where each block and line is (its last place), the objects kept alive with it (an
    object dropped and freed must not lend its ``id`` to a new one)."""
    blocks = {id(b): ((p, i), b) for p, page in enumerate(pages) for i, b in enumerate(page.blocks)}
    lines = {
        id(ln): ((p, i, j), ln)
        for p, page in enumerate(pages)
        for i, b in enumerate(page.blocks)
        for j, ln in enumerate(b.lines)
    }
    return blocks, lines


def _state(pages: list[PageLayout], before: tuple[dict[int, Any], dict[int, Any]]) -> Any:
    blocks, lines = before
    return (
        repr(pages),
        [[type(b) for b in page.blocks] for page in pages],
        [
            [
                (
                    blocks.get(id(b), ("new",))[0],
                    [lines.get(id(ln), ("new",))[0] for ln in b.lines],
                )
                for b in page.blocks
            ]
            for page in pages
        ],
        [(page.header, page.footer) for page in pages],
        [render_page(page.blocks) for page in pages],
    )


def _pure(pages: list[PageLayout]) -> None:
    with engine(None):
        structure.mark_furniture(pages)
        structure.mark_lists(pages)


def compare(module: Any, pages: list[PageLayout]) -> None:
    """Furniture and lists both ways on copies of ``pages``: the same pages out."""
    pure, native = copy.deepcopy(pages), copy.deepcopy(pages)
    pure_ids, native_ids = _identities(pure), _identities(native)
    headers = [(id(p.header), id(p.footer)) for p in native]
    _pure(pure)
    with engine(module):
        assert module.mark_structure(native, Block, structure._HOOKS, True, True) is not None
    assert [(id(p.header), id(p.footer)) for p in native] == headers
    with engine(None):
        assert _state(native, native_ids) == _state(pure, pure_ids)
    # One at a time, as mark_furniture and mark_lists do when called apart.
    apart = copy.deepcopy(pages)
    apart_ids = _identities(apart)
    with engine(module):
        structure.mark_furniture(apart)
        structure.mark_lists(apart)
    with engine(None):
        assert _state(apart, apart_ids) == _state(pure, pure_ids)


def test_every_corpus_document(module: Any) -> None:
    documents = 0
    for contents in corpus_documents():
        pages = [layout_page(content) for content in contents]
        compare(module, pages)
        documents += 1
    assert documents > 100


# --- random documents -------------------------------------------------------------------------

HEADS = [
    "Journal of Things, Vol. 3",
    "PREFACE",
    "Chapter {n}",
    "{n}",
    "- {n} -",
    "Page {n}",
    "Page {n} of 9",
    "page {n}/9",
    "Seite {n} von 9",
    "página {n} de 9",
    "p. {n}",
    "[{n}]",
    "({n})",
    "{roman}",
    "{ROMAN}",
    "– {n} –",
    "© 2021 Example Corp.",
    "0",
    "{n}{n}{n}{n}{n}",
    "٣",
    "{n}   ",
    "  Draft  ",
    "Überblick",
    "مقدمة البحث",
    "第{n}页",
    "ⅳ",
    "12345678901234567890123456789012345678901234567890",
]
BODY = [
    "Running text of the body line that goes on and on, as prose does.",
    "• a bullet item",
    "◦ a sub item",
    "- a dash item",
    "* star item",
    "– en dash item",
    "→ arrow item",
    "✓ done",
    "1. First point",
    "12) Twelfth point",
    "(a) lettered",
    "(iv) roman",
    "IV. Roman upper",
    "xii. small roman",
    "a) letter",
    "123. too",
    "1234. not an item",
    "ab. not one",
    "1.not an item",
    "1.  ",
    "•",
    "•\u2003spaced",
    "١. Arabic-Indic digit",
    "(٣) digit",
    "1٣. mixed",
    "é. accented",
    "Überblick und Ausblick",
    "מבוא לנושא",
    "第一章 概要",
    "the rest of a sentence that started above and ends here.",
    "A line broken mid-",
    "",
    "   ",
    "x = y + 2",
]
ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"]


def _text(template: str, n: int) -> str:
    return template.format(n=n, roman=ROMAN[(n - 1) % 10], ROMAN=ROMAN[(n - 1) % 10].upper())


def _random_document(rng: random.Random) -> list[PageLayout]:
    width, height = (612.0, 792.0)
    if rng.random() < 0.05:
        height = rng.choice([0.0, -10.0, 1e-3])
    heads = rng.sample(HEADS, 3)
    offset = rng.choice([0, 0, 2, -1, 10])
    pages = []
    for number in range(1, rng.randint(1, 9) + 1):
        blocks: list[Block] = []
        if rng.random() < 0.7:
            text = _text(rng.choice(heads), number + offset)
            blocks.append(_block([text], 72.0, rng.choice([20.0, 30.0, 90.0]), rng))
        body = rng.random() < 0.8
        y = 120.0
        for _ in range(rng.randint(0, 8) if body else 0):
            n = rng.choice([1, 1, 2, 2, 3, 4, 6])
            texts = [rng.choice(BODY) for _ in range(n)]
            block = _block(texts, rng.choice([72.0, 320.0]), y, rng)
            block.kind = rng.choice(["paragraph"] * 8 + ["list_item", "table", "code", "heading"])
            if block.kind == "table":
                block.rows = [[t] for t in texts]
            blocks.append(block)
            y = block.y1 + rng.choice([2.0, 6.0, 14.0])
        if rng.random() < 0.7:
            text = _text(rng.choice(heads), number + offset)
            blocks.append(_block([text], 300.0, height - rng.choice([30.0, 60.0, 200.0]), rng))
        if rng.random() < 0.2:
            two = [_text(rng.choice(heads), number), _text(rng.choice(HEADS), number)]
            blocks.append(_block(two, 72.0, height - 40.0, rng))
        if blocks and rng.random() < 0.1:
            blocks.append(copy.copy(blocks[-1]))
        if blocks and rng.random() < 0.05:
            blocks.append(blocks[0])  # the same object twice
        if rng.random() < 0.2:
            rng.shuffle(blocks)
        pages.append(PageLayout(number, width, height, blocks))
    return pages


def _block(texts: list[str], x: float, y: float, rng: random.Random) -> Block:
    made = []
    for text in texts:
        w = 5.0 * len(text)
        artifact = rng.random() < 0.05
        made.append(Line(text, x, y, x + w, y + 10.0, 10.0, rng.random() < 0.1, artifact=artifact))
        y += 12.0
    return Block(
        made,
        min(ln.x0 for ln in made),
        min(ln.y0 for ln in made),
        max(ln.x1 for ln in made),
        max(ln.y1 for ln in made),
        10.0,
    )


@pytest.mark.parametrize("seed", range(300))
def test_random_documents(module: Any, seed: int) -> None:
    compare(module, _random_document(random.Random(seed)))


@SETTINGS
@given(st.integers(0, 2**32 - 1))
def test_random_documents_hypothesis(module: Any, seed: int) -> None:
    compare(module, _random_document(random.Random(seed)))


# --- the text tests ---------------------------------------------------------------------------


def _python_marker(text: str) -> tuple[str, int] | None:
    m = structure._BULLET.match(text)
    if m:
        return "-", m.end()
    m = structure._ENUM.match(text)
    if m:
        return m.group(1), m.end()
    return None


def check_text(module: Any, text: str) -> None:
    answer = module.structure_text_tests(text)
    assert answer is not None, text
    marker, decided, key, words, page_number = answer
    if decided:
        assert marker == _python_marker(text), text
    else:  # left to Python's \d, which only _ENUM asks
        assert not structure._BULLET.match(text), text
    if text.isascii():
        assert key == structure._key(text), text
        assert words == (structure._LETTERS.search(key) is not None), text
        assert page_number == bool(structure._PAGE_NUMBER.match(text)), text


MARKER_ALPHABET = "(1).iIvVxXaZ •-* \t\x1c١é"
PAGE_ALPHABET = "pP1.- /([)]ivxlcdmM\nof"
KEY_ALPHABET = "aA1 \t\x1f#_"


@pytest.mark.parametrize(
    ("alphabet", "longest"),
    [(MARKER_ALPHABET, 5), (PAGE_ALPHABET, 5), (KEY_ALPHABET, 6)],
)
def test_every_short_string(module: Any, alphabet: str, longest: int) -> None:
    for n in range(longest + 1):
        for chars in itertools.product(alphabet, repeat=n):
            check_text(module, "".join(chars))


WORDS = [
    "page", "PAGE", "Seite", "pagina", "p.", "of", "OF", "von", "de", "/", "-", "(", ")", "[",
    "]", "12", "1234", "12345", "0", "iv", "MCM", "xiv", "ivxlcdmi", " ", "  ", "\t", "•", "◦",
    "*", "–", "—", "→", "1.", "a)", "(b)", "iii.", "IV)", "١", "é", "\u2003", "\x1c", "\n",
    "word", "x", "Z", "#", "_",
]  # fmt: skip


@SETTINGS
@given(st.lists(st.sampled_from(WORDS), max_size=8))
def test_random_texts(module: Any, words: list[str]) -> None:
    check_text(module, "".join(words))


@SETTINGS
@given(st.text(max_size=12))
def test_any_text(module: Any, text: str) -> None:
    check_text(module, text)


# --- the fallbacks ---------------------------------------------------------------------------


def _unusual(pages: list[PageLayout], how: int) -> None:
    page = pages[0]
    block = page.blocks[0]
    if how == 0:
        page.number = 1.0  # type: ignore[assignment]
    elif how == 1:
        page.height = 792
    elif how == 2:
        block.y0 = 1
    elif how == 3:
        block.lines[0].text = b"x"  # type: ignore[assignment]
    elif how == 4:
        block.lines[0].artifact = 1  # type: ignore[assignment]
    elif how == 5:
        page.footer = page.header
    elif how == 6:
        pages.append(page)
    elif how == 7:
        page.blocks = tuple(page.blocks)  # type: ignore[assignment]
    elif how == 8:
        block.kind = None  # type: ignore[assignment]
    elif how == 9:
        block.lines[0].text = "\ud800 lone"
    elif how == 10:
        page.blocks[1].lines[0].x0 = 3


@pytest.mark.parametrize("how", range(11))
def test_fallbacks(module: Any, how: int) -> None:
    """Input the native side does not mirror: ``None``, and the pages untouched."""
    pages = [
        PageLayout(
            n,
            612.0,
            792.0,
            [
                Block(
                    [Line("Journal", 72.0, 20.0, 90.0, 30.0, 10.0)], 72.0, 20.0, 90.0, 30.0, 10.0
                ),
                Block(
                    [Line("• body", 72.0, 200.0, 90.0, 210.0, 10.0)], 72.0, 200.0, 90.0, 210.0, 10.0
                ),
            ],
        )
        for n in (1, 2, 3)
    ]
    _unusual(pages, how)
    before = repr(pages)
    assert module.mark_structure(pages, Block, structure._HOOKS, True, True) is None
    assert repr(pages) == before


def test_other_block_class(module: Any) -> None:
    class Other(Block):
        pass

    pages = [PageLayout(1, 612.0, 792.0, [Other([], 0.0, 0.0, 1.0, 1.0, 10.0)])]
    assert module.mark_structure(pages, Block, structure._HOOKS, True, True) is None


def test_white_space_of_every_code_point(module: Any) -> None:
    """``\\s`` and ``\\S`` of the patterns (and ``str.strip``) are ``str.isspace`` natively:
    the same on every code point."""
    for c in range(sys.maxunicode + 1):
        if 0xD800 <= c < 0xE000:
            continue
        text = f"•{chr(c)}x"
        marker = module.structure_text_tests(text)[0]
        assert (marker is not None) == bool(structure._BULLET.match(text)), hex(c)
        text = f"• {chr(c)}"
        marker = module.structure_text_tests(text)[0]
        assert (marker is not None) == bool(structure._BULLET.match(text)), hex(c)
