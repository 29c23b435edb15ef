"""Right-to-left text drawn in visual order: the one reordering pdfthin does.

PDF producers draw Arabic and Hebrew glyphs left to right as they appear, so a line read in
drawing order is backwards. The layout reverses such lines (``visual_to_logical``), keeping
left-to-right pieces (numbers, Latin words) in their own order. A glyph whose Unicode mapping
is several characters (a lam-alef ligature, a shaped cluster) already holds them in logical
order; the fonts store such mappings in visual order (``visual_cluster``) so that the line's
reversal puts them back.
"""

from __future__ import annotations

import re
import unicodedata


def is_rtl(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("R", "AL")


def mostly_rtl(text: str) -> bool:
    if text.isascii():
        return False
    rtl = ltr = 0
    for ch in text:
        bidi = unicodedata.bidirectional(ch)
        if bidi in ("R", "AL"):
            rtl += 1
        elif bidi == "L":
            ltr += 1
    return rtl > ltr


def visual_to_logical(text: str) -> str:
    """Glyphs of a right-to-left line come in visual (left-to-right) order: reverse the
    line, but keep runs of left-to-right text (numbers, Latin words) in their own order, and
    each letter with the marks drawn after it (vowel signs follow their letter in both
    orders). Applied twice it gives back its input when every mark follows a letter and the
    text holds no left-to-right letters (what :func:`visual_cluster` applies it to); beside
    Latin letters a separator between digits can move, as the bidirectional rules move it."""
    units: list[str] = []
    for ch in text:
        if units and unicodedata.bidirectional(ch) == "NSM" and is_rtl(units[-1][0]):
            units[-1] += ch
        else:
            units.append(ch)
    units.reverse()
    out: list[str] = []
    chunk: list[str] = []
    last = len(units) - 1
    for i, unit in enumerate(units):
        ch = unit[0]
        bidi = unicodedata.bidirectional(ch)
        if bidi in ("CS", "ES") and 0 < i < last and _digits(units[i - 1][0], units[i + 1][0]):
            # A separator between digits belongs to the number ("47.500", "1403/09/19").
            chunk.append(unit)
        elif bidi in ("R", "AL", "ON", "CS", "ES") or ch.isspace():
            if chunk:
                out.append("".join(reversed(chunk)))
                chunk = []
            out.append(_MIRROR.get(unit, unit) if len(unit) == 1 else unit)
        else:
            chunk.append(unit)
    if chunk:
        out.append("".join(reversed(chunk)))
    return "".join(out)


def _digits(a: str, b: str) -> bool:
    return unicodedata.bidirectional(a) in _NUMBER and unicodedata.bidirectional(b) in _NUMBER


_NUMBER = ("EN", "AN")

_MIRROR = {"(": ")", ")": "(", "[": "]", "]": "[", "{": "}", "}": "{", "<": ">", ">": "<"}


#: Where Unicode puts right-to-left letters: the areas it keeps for right-to-left scripts (the
#: R and AL default ranges of DerivedBidiClass.txt) and the right-to-left mark. A line with no
#: character in them has no right-to-left letter, which one regex search tells;
#: tests/test_bidi.py checks against every code point that this Python's Unicode has none
#: elsewhere.
RTL_AREAS = re.compile(
    "[\u0590-\u08ff\u200f\ufb1d-\ufeff\U00010800-\U00010fff\U0001e800-\U0001efff]"
)


def logical_order(text: str) -> str:
    """A line's text from drawing (visual) order to reading order: a mostly right-to-left line
    is reversed as a whole; in a left-to-right line each right-to-left stretch (an Arabic name
    in an English sentence) is."""
    if text.isascii() or RTL_AREAS.search(text) is None:
        return text  # no right-to-left letter: nothing to reorder
    if mostly_rtl(text):
        return visual_to_logical(text)
    if not any(is_rtl(ch) for ch in text):
        return text
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        if not is_rtl(text[i]):
            out.append(text[i])
            i += 1
            continue
        # The stretch runs to the last right-to-left letter before a left-to-right one;
        # spaces, marks, punctuation and numbers inside it go with it.
        end = i + 1
        k = end
        while k < n:
            bidi = unicodedata.bidirectional(text[k])
            if bidi == "L":
                break
            if bidi in ("R", "AL") or (bidi == "NSM" and k == end):
                end = k + 1  # a letter, or a mark on the stretch's last letter
            k += 1
        out.append(visual_to_logical(text[i:end]))
        i = end
    return "".join(out)


def visual_cluster(text: str) -> str:
    """One glyph's logical right-to-left text (``"لا"``), in the visual order of the glyphs
    around it; anything else unchanged. Text with left-to-right letters is left alone: the
    line it ends up in may not be reversed."""
    if len(text) < 2 or text.isascii():
        return text
    rtl = False
    for ch in text:
        bidi = unicodedata.bidirectional(ch)
        if bidi == "L":
            return text
        if bidi in ("R", "AL"):
            rtl = True
    return visual_to_logical(text) if rtl else text
