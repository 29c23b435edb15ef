"""Text clean-up shared by the layout and the Markdown writer.

- ligatures expanded (ﬁ ﬂ ﬀ ﬃ ﬄ ﬅ ﬆ), compatibility presentation forms normalised (NFKC on the
  presentation-form blocks only, so superscripts and fractions keep their meaning, and not on
  the fullwidth forms: "，" and "（" are Chinese and Japanese text's own punctuation);
- control characters, U+FFFD and private-use code points removed: they are never text;
- a soft hyphen drawn on the page is the hyphen it shows (a producer that maps its hyphen
  glyph to U+00AD: "Arabo-Islamic"; at a line's end, hyphenation, joined below);
- line-end hyphenation joined only where it is hyphenation.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Container

LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
    "\ua732": "AA",
    "\ua733": "aa",
    "\u0132": "IJ",
    "\u0133": "ij",
}

# Presentation-form blocks whose NFKC form is the same text: Alphabetic Presentation Forms,
# Arabic Presentation Forms A and B, CJK Compatibility Forms (vertical forms), Small Form
# Variants, the halfwidth forms (katakana, Hangul, signs), CJK Compatibility Ideographs.
# The fullwidth forms (U+FF01-FF60, U+FFE0-FFE6) are left as drawn: CJK text sets its
# punctuation fullwidth, as the text a reader copies from the page has it (search and quote
# matching fold them, :mod:`pdfthin.operations.search_index`).
_PRESENTATION = re.compile(
    "[\ufb00-\ufb4f\ufb50-\ufdff\ufe30-\ufe4f\ufe50-\ufe6f\ufe70-\ufeff\uff61-\uffdc"
    "\uffe8-\uffee\uf900-\ufaff]+"
)
# Controls (except tab and newline), U+FFFD, private use, unassigned surrogates, and the
# zero-width characters that only confuse search.
_NOT_TEXT = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffd\ue000-\uf8ff\ufffe\uffff\u200b\u2060\ufeff]"
)
#: A soft hyphen between letters: a drawn hyphen ...
_SOFT_HYPHEN = re.compile("(?<=\\w)\u00ad(?=\\w)")
#: ... and after a letter at the end of a line, a break's hyphen (``SOFT_BREAK`` marks it for
#: the caller that joins lines; a hyphen for any other). One anywhere else carries no letter
#: to join: left out.
_SOFT_END = re.compile("(?<=\\w)\u00ad\\s*$")
SOFT_BREAK = "\u00ad"
_SPACES = re.compile(r"[ \t\u00a0\u2000-\u200a\u202f\u205f\u3000]+")

_LIGATURE_TABLE = str.maketrans(LIGATURES)


def _nfkc(m: re.Match[str]) -> str:
    return unicodedata.normalize("NFKC", m.group(0))


def clean(text: str, soft_break: bool = False) -> str:
    """Normalise one line of extracted text (``soft_break``: a soft hyphen ending it stays
    :data:`SOFT_BREAK`, for :func:`join_soft_break`)."""
    text = text.translate(_LIGATURE_TABLE)
    if _PRESENTATION.search(text):
        text = _PRESENTATION.sub(_nfkc, text)
    if "\u00ad" in text:
        end = _SOFT_END.search(text)
        if end is not None:
            text = text[: end.start()]
        text = _SOFT_HYPHEN.sub("-", text).replace("\u00ad", "")
        if end is not None:
            text += SOFT_BREAK if soft_break else "-"
    if _NOT_TEXT.search(text):
        text = _NOT_TEXT.sub("", text)
    return _SPACES.sub(" ", text)


def join_soft_break(first: str, second: str) -> str:
    """``first`` (ending in :data:`SOFT_BREAK`) and the next line's first word: a word the
    line's end broke, joined without its hyphen when it goes on in lower case (``Edi`` +
    ``zioni``); a hyphen kept before a capital, a figure or a sign (a producer that sets
    every hyphen as a soft one: ``pseudo-`` + ``Avicenne``)."""
    head = first[: -len(SOFT_BREAK)]
    return head + second if second[:1].islower() else f"{head}-{second}"


def not_text_count(text: str) -> int:
    """How many characters of ``text`` :func:`clean` would drop as non-text."""
    return len(_NOT_TEXT.findall(text))


# Words that mostly join others with a hyphen in running English text ("community-oriented",
# "self-replication"): a line break after their hyphen keeps the hyphen.
COMPOUND_TAILS = frozenset(
    "based oriented level like wise specific dependent independent driven related aware "
    "free scale grained known product products friendly defined made sized shaped called "
    "art ended style term time".split()
)
COMPOUND_HEADS = frozenset("self non well by cross multi semi quasi ill".split())

_HYPHEN_END = re.compile(r"(\w+)-$")
_WORD_START = re.compile(r"^([a-zß-ÿ]\w*)")


def join_hyphenated(
    first: str, second: str, known_words: Container[str] | None = None
) -> str | None:
    """If ``first`` ends with a word broken by hyphenation and ``second`` continues it, the
    joined text; ``None`` when the hyphen is a real one.

    A hyphen is real when the part before it is a single letter (``n-``) or itself holds a
    hyphen (``state-of-the-``), when the continuation does not start in lower case, or when
    the hyphenated form appears elsewhere in the document (``known_words``) and the joined
    one does not.
    """
    m = _HYPHEN_END.search(first)
    if m is None:
        return None
    n = _WORD_START.match(second)
    if n is None:
        return None
    head = m.group(1)
    start = m.start(1)
    if len(head) < 2 or head.isdigit():
        return None
    if start > 0 and first[start - 1] == "-":
        return None  # a compound: state-of-the-art
    tail = n.group(1)
    if known_words is not None:
        hyphenated = f"{head}-{tail}".lower()
        joined = f"{head}{tail}".lower()
        if joined in known_words:
            return first[: m.end(1)] + second
        if hyphenated in known_words:
            return None
        # Both halves are words of their own in this document: a compound broken at its
        # hyphen (well-known, use-cases); hyphenation splits inside a word (infor-mation).
        if head.lower() in known_words and tail.lower() in known_words:
            return None
    if tail.lower().rstrip(".,;:") in COMPOUND_TAILS or head.lower() in COMPOUND_HEADS:
        return None
    return first[: m.end(1)] + second
