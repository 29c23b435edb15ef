"""The native text clean-up and word lists against the model's own (DESIGN.md invariant 10).

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

import sys
from typing import Any

import pytest
from conftest import CORPUS_FILES, require_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_support import engine, native_module

import pdfthin
from pdfthin.errors import PdfthinError
from pdfthin.layout import Block, Line, PageLayout
from pdfthin.model import document as model_document
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
    with engine(None):
        pure = model_document._vocabulary(layouts)
    with engine(module):
        native = model_document._vocabulary(layouts)
    assert native == pure
    assert (
        module.vocabulary(layouts, model_document._line_words, model_document._char_class) == pure
    )
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
                doc = pdfthin.open(f.path, password=f.password)
        except PdfthinError:
            continue
        layouts = [page.layout for page in doc.pages if page.layout is not None]
        documents += bool(_check_vocabulary(module, layouts))
    assert documents > 200
