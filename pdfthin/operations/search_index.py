"""The search index of a document: its pages' plain text, normalised and concatenated, with a
map from every normalised character back to its page and offset.

Normalisation makes a phrase broken across lines, columns or a page break still match:
whitespace runs become one space, a word hyphenated across a page break is joined, case is
folded (unless the search is case-sensitive) and accents are removed (unless asked not to).
Ligatures and hyphenation inside a page were already resolved when the page was built.
"""

from __future__ import annotations

import unicodedata
from array import array
from dataclasses import dataclass


@dataclass
class SearchIndex:
    text: str
    #: For each character of ``text``: the page it came from and its offset in that page's
    #: plain text.
    pages: array[int]
    offsets: array[int]
    #: Where each page starts in ``text`` (page number -> index).
    starts: dict[int, int]


def _fold(ch: str, casefold: bool, accents: bool) -> str:
    if casefold:
        ch = ch.casefold()
    if accents and not ch.isascii():
        decomposed = unicodedata.normalize("NFKD", ch)
        ch = "".join(c for c in decomposed if not unicodedata.combining(c)) or ch
    return ch


def normalize_query(query: str, casefold: bool, accents: bool) -> str:
    out: list[str] = []
    space = False
    for ch in query:
        if ch.isspace():
            space = True
            continue
        if space and out:
            out.append(" ")
        space = False
        out.append(_fold(ch, casefold, accents))
    return "".join(out)


def build_index(page_texts: list[tuple[int, str]], casefold: bool, accents: bool) -> SearchIndex:
    chars: list[str] = []
    pages = array("i")
    offsets = array("i")
    starts: dict[int, int] = {}
    pending_space: tuple[int, int] | None = None
    for number, text in page_texts:
        # A word hyphenated across the page break: drop the hyphen and the space.
        if chars and chars[-1] == "-" and text[:1].islower() and len(chars) > 1:
            if chars[-2].isalpha():
                chars.pop()
                pages.pop()
                offsets.pop()
                pending_space = None
        elif chars:
            pending_space = (pages[-1], offsets[-1] + 1)
        starts[number] = len(chars)
        for i, ch in enumerate(text):
            if ch.isspace():
                if chars:
                    pending_space = (number, i)
                continue
            if pending_space is not None:
                chars.append(" ")
                pages.append(pending_space[0])
                offsets.append(pending_space[1])
                pending_space = None
                if starts[number] == len(chars) - 1 and pages[-1] != number:
                    starts[number] = len(chars)
            if ch.isascii():
                folded = ch.lower() if casefold else ch
            else:
                folded = _fold(ch, casefold, accents)
            for piece in folded:
                chars.append(piece)
                pages.append(number)
                offsets.append(i)
    return SearchIndex("".join(chars), pages, offsets, starts)
