"""The text ``verify_quote`` compares a quote with: a document's pages folded to one of two
levels, with a map from every folded character back to its page and its offset in that page's
plain text (the offsets ``find_in_document`` answers with).

- ``exact``: only white space folded (every run, line and page breaks included, is one space).
- ``normalized``: besides, Unicode compatibility forms (NFKC: ligatures such as ``ﬁ``, full-width
  letters), curly quotes and the dashes as their ASCII forms, soft hyphens and zero-width
  characters dropped, a word hyphenated at a line end joined (``exam- ple`` is ``example``), and
  case folded when asked.

A quote is folded the same way, so the two sides always agree on what a character is. Pages
that could not be read stand as a separator no quote can hold (a NUL), so that no match runs
across a page whose text is missing.
"""

from __future__ import annotations

import unicodedata
from array import array

from pdfthin.operations.search_index import SearchIndex

#: Typographic forms a quote and a page may disagree on, as their ASCII forms.
_TYPOGRAPHY = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u00b4": "'",
        "\u0060": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2015": "-",
        "\u2212": "-",
        "\ufe58": "-",
        "\ufe63": "-",
        "\uff0d": "-",
    }
)
#: Characters that are never text a reader sees: soft hyphen, zero-width space and joiners.
_INVISIBLE = frozenset("\u00ad\u200b\u200c\u200d\u2060\ufeff")
#: Between two pages that do not follow each other in the text (one between them could not
#: be read): a quote never holds a NUL (the argument check refuses control characters).
SEPARATOR = "\x00"


def fold_char(ch: str, normalized: bool, casefold: bool) -> str:
    """What one character becomes at a level (``""``: dropped; white space is handled by the
    caller)."""
    if not normalized:
        return ch
    if ch.isascii():
        return ch.lower() if casefold else ch
    if ch in _INVISIBLE:
        return ""
    out = unicodedata.normalize("NFKC", ch).translate(_TYPOGRAPHY)
    return out.casefold() if casefold else out


def fold_quote(quote: str, normalized: bool, casefold: bool) -> str:
    """The quote at a level: what :func:`fold_pages` makes of a page holding it."""
    return fold_pages([(1, quote)], normalized, casefold).text


def fold_pages(
    pages: list[tuple[int, str | None]], normalized: bool, casefold: bool
) -> SearchIndex:
    """The pages' texts (``None``: a page that could not be read) folded and joined, each
    character mapped to its page and offset."""
    chars: list[str] = []
    at_page = array("i")
    at_offset = array("i")
    starts: dict[int, int] = {}
    space: tuple[int, int] | None = None
    gap = False
    for number, text in pages:
        if text is None:
            gap = bool(chars)
            space = None
            continue
        if gap:
            chars.append(SEPARATOR)
            at_page.append(number)
            at_offset.append(0)
            gap = False
        elif chars:
            # The page break is white space, said to stand at the end of the previous page.
            space = (at_page[-1], at_offset[-1] + 1)
        starts[number] = len(chars)
        for i, ch in enumerate(text):
            if ch.isspace():
                if chars and chars[-1] != SEPARATOR:
                    space = space or (number, i)
                continue
            folded = fold_char(ch, normalized, casefold)
            if not folded:
                continue
            if normalized and space is None and chars and unicodedata.combining(folded[0]):
                # A combining mark joins the letter before it (e + ´ is é, as NFKC of the
                # two would write it), so composed and decomposed accents compare equal.
                joined = unicodedata.normalize("NFKC", chars[-1] + folded)
                if len(joined) == 1:
                    chars[-1] = joined  # mapped to the letter: a match's end is widened
                    continue  # over the marks after it (see ``verify._place``)
            if space is not None:
                if normalized and _hyphenated(chars, folded):
                    # A word broken at a line end: the hyphen and the break go.
                    chars.pop()
                    at_page.pop()
                    at_offset.pop()
                else:
                    chars.append(" ")
                    at_page.append(space[0])
                    at_offset.append(space[1])
                space = None
            for piece in folded:
                if piece.isspace():  # NFKC of a few characters holds a space
                    piece = " "
                chars.append(piece)
                at_page.append(number)
                at_offset.append(i)
    return SearchIndex("".join(chars), at_page, at_offset, starts)


def _hyphenated(chars: list[str], following: str) -> bool:
    """Whether the text so far ends in a letter and a hyphen and the next word starts in lower
    case: a word broken at a line end (a capital after it is a real hyphen: ``Jean- Paul``)."""
    return (
        len(chars) >= 2
        and chars[-1] == "-"
        and chars[-2].isalpha()
        and following[:1].isalpha()
        and following[:1].islower()
    )
