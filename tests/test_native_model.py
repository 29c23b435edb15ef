"""The native text clean-up and word lists against the model's own (DESIGN.md invariant 10).

``pdfthin_native.clean_text`` mirrors ``pdfthin.model.text.clean`` (ligatures, characters that
are never text, runs of spaces) and hands back ``None`` for what Python must normalise itself
(presentation forms, texts with lone surrogates). Every code point, and random mixtures of the
characters each rule is about, must come out the same.

``pdfthin_native.ascii_words`` gives the lower-cased words ``_WORD.findall`` finds in an ASCII
line (the document's vocabulary, which tells hyphenation from real hyphens), and ``None`` for
any other line.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_support import engine, native_module

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
