"""Cell text from lines: splitting a line that runs across cells, recognising values.

A line may cover several cells when the PDF sets a whole table row as one string (word
spacing or wide kerning between the values); its words then have to be shared out between
the cells it crosses, with only the line's extent and its words to go on.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pdfthin.layout.types import Line

# (a value may carry a second in brackets after it: its share, "45,100 (8.4%)", or its
# deviation, "0.85 (0.02)")
_VALUE = re.compile(
    r"^[(\[]?[-+−–—~<>≤≥±]?[$€£¥]?\d[\d.,:/%\s]*"
    r"(?:[(\[][-+−–]?\d[\d.,:/%\s]*[)\]])?[%‰*)\]a-z]{0,3}$"
    r"|^[-–—:.…x×*/]$|^n/?a$|^\.\d+%?$",
    re.IGNORECASE,
)


#: Characters of scripts written without spaces between words (Han ideographs, kana, their
#: punctuation and full-width forms): a cell's lines wrapped between two of them join with
#: nothing between, as the reader's eye joins them.
_UNSPACED = re.compile(
    r"[\u2e80-\u2fdf\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]"
)


def join_wrapped(parts: Iterable[str]) -> str:
    """A cell's lines, top to bottom, as one text: a space between two lines, none between
    two characters of a script written without spaces (``_UNSPACED``: "受不利经济" over
    "环境的影响" is one phrase)."""
    out = ""
    for part in parts:
        if out and part and not (_UNSPACED.match(out[-1]) and _UNSPACED.match(part[0])):
            out += " "
        out += part
    return out


@functools.lru_cache(maxsize=4096)
def is_value(text: str) -> bool:
    """A number, a percentage or a placeholder (``-``, ``x``, ``n/a``): the content of a
    data cell, as opposed to words."""
    text = text.strip()
    first = text[:1]
    if first.isalpha() and len(text) > 3:
        return False  # a word (the common case, decided without the expression)
    return bool(_VALUE.match(text))


#: A piece of running text has at least this many words, most of them words of letters: the
#: lines of a newspaper's or a paper's columns are; a table's labels and values mostly are
#: not (a few long labels among short ones do not make their column running text).
PROSE_WORDS = 4
_LETTERS = re.compile(r"^[^\W\d_]{2,}\W{0,2}$")


def running_text(text: str) -> bool:
    """Whether ``text`` reads as a piece of running text (see ``PROSE_WORDS``)."""
    words = text.split()
    return len(words) >= PROSE_WORDS and sum(1 for w in words if _LETTERS.match(w)) * 2 > len(words)


#: A line of words (of a text column, as opposed to a table's values) has at least this many
#: words, fewer than half of them values.
WORDY_WORDS = 3


def wordy(text: str) -> bool:
    """Whether ``text`` is a line of words: running text, a reference, a long label; not a
    number, nor a row of numbers."""
    words = text.split()
    return len(words) >= WORDY_WORDS and sum(1 for w in words if is_value(w)) * 2 < len(words)


def values(text: str) -> bool:
    """Whether ``text`` is values only (numbers, currency signs, placeholders): a date
    ("April 6, 2016") or a measurement with words is not."""
    words = text.split()
    return bool(words) and all(is_value(w) or w in "$€£¥" for w in words)


def share_words(line: Line, cells: list[tuple[float, float]]) -> list[str]:
    """The words of ``line`` shared out between ``cells`` (x ranges, left to right, that the
    line crosses): one text per cell, possibly empty."""
    k = len(cells)
    if k <= 1:
        return [line.text]
    words = tokens(line.text, k)
    if _spans_fit(line, cells):
        return _by_place(words, _places(line, words), cells)
    values = [is_value(w) for w in words]
    if len(words) == k:
        # One word per cell: the rules say there are k cells, and there are k words.
        return words
    out = [""] * k
    if len(words) < k and all(values):
        # Values each fill a cell of their own, in order, where their estimated places fall
        # (the line's right end may be stretched by word spacing on trailing spaces).
        places = _places(line, words)
        col = -1
        for i, (w, (a, b)) in enumerate(zip(words, places, strict=True)):
            est = sum(1 for lo, _ in cells[1:] if (a + b) / 2 >= lo)
            col = min(max(col + 1, est), k - len(words) + i) if i else 0
            out[col] = w
        return out
    if len(words) > k and all(values[1 - k :]):
        # A label then one value per cell: "Number of member states 21 8".
        out[0] = " ".join(words[: len(words) - k + 1])
        for i, w in enumerate(words[1 - k :], start=1):
            out[i] = w
        return out
    # Otherwise place each word where it would sit if the line were set in a typical
    # proportional font stretched to the line's width, keeping the words in order.
    return _by_place(words, _places(line, words), cells)


def _by_place(
    words: list[str], places: list[tuple[float, float]], cells: list[tuple[float, float]]
) -> list[str]:
    """Each word in the cell under its middle, the words kept in order."""
    out = [""] * len(cells)
    col = 0
    for w, (a, b) in zip(words, places, strict=True):
        centre = (a + b) / 2
        while col + 1 < len(cells) and centre >= cells[col + 1][0]:
            col += 1
        out[col] = f"{out[col]} {w}".strip()
    return out


_GROUP_HEAD = re.compile(r"^[-+−(]?\d{1,3}$")
_GROUP_TAIL = re.compile(r"^\d{3}(?:[.,]\d+)?[%)]?$")


def tokens(text: str, k: int) -> list[str]:
    """The words of ``text``, with numbers whose thousands are set apart by a space
    ("29 300") kept whole when that makes the words fit ``k`` cells (a label then a value
    per cell, or a value per cell)."""
    words = text.split()
    grouped: list[str] = []
    for w in words:
        if grouped and _GROUP_TAIL.match(w) and _GROUP_HEAD.match(grouped[-1].split()[0]):
            grouped[-1] = f"{grouped[-1]} {w}"
        else:
            grouped.append(w)
    if len(grouped) == len(words) or not _fits(grouped, k):
        return words
    return grouped


def _fits(words: list[str], k: int) -> bool:
    if len(words) == k:
        return True
    return len(words) > k and all(is_value(w) for w in words[1 - k :])


def soft_split(line: Line, cells: list[tuple[float, float]]) -> list[str] | None:
    """``line``'s words shared out between ``cells`` where no rule divides them (whitespace
    columns, a grid's open rows), or ``None`` when the words do not clearly fit the cells:
    a label and one value per cell, or one word per cell with each word's estimated place in
    a different cell (a heading centred over the columns is none of these, nor a date set
    over them: a value that ends in a comma ends no cell)."""
    k = len(cells)
    words = tokens(line.text, k)
    if len(words) < k or k < 2 or any(w[-1] == "," and is_value(w) for w in words):
        # (a number then a comma is inside a phrase: "September 30," over two columns)
        return None
    values = [is_value(w) for w in words]
    if all(values[1 - k :]):
        return share_words(line, cells)
    if len(words) != k:
        return None
    places = _places(line, words)
    seen = []
    for a, b in places:
        centre = (a + b) / 2
        seen.append(sum(1 for lo, _ in cells[1:] if centre >= lo))
    return words if seen == list(range(k)) else None


def _spans_fit(line: Line, cells: list[tuple[float, float]]) -> bool:
    """The line records its pieces and none of them runs across a cell boundary: their
    places say exactly which cell each word is in."""
    if len(line.spans) < 2:
        return False
    bounds = [lo for lo, _ in cells[1:]]
    return not any(a < x < b for a, b, _ in line.spans for x in bounds)


def _places(line: Line, words: list[str]) -> list[tuple[float, float]]:
    """The x extent of each word (or token of several words) of ``line``: from the pieces
    the line was built from when it records them (each piece's own extent is exact, only
    words inside a piece are estimated), else estimated over the whole line."""
    if len(line.spans) >= 2:
        known: list[tuple[float, float]] = []
        for sx0, sx1, stext in line.spans:
            swords = stext.split()
            known.extend(_word_positions(" ".join(swords), swords, sx0, sx1))
        if sum(len(w.split()) for w in words) == len(known):
            out = []
            k = 0
            for w in words:
                n = len(w.split())
                out.append((known[k][0], known[k + n - 1][1]))
                k += n
            return out
    return _word_positions(line.text, words, line.x0, line.x1)


def _word_positions(text: str, words: list[str], x0: float, x1: float) -> list[tuple[float, float]]:
    """Estimated x extent of each word: Helvetica-like advances scaled to the line."""
    advances = [_ADVANCE.get(ch, 556) for ch in text]
    total = sum(advances) or 1
    scale = (x1 - x0) / total
    cumulative = [0]
    for adv in advances:
        cumulative.append(cumulative[-1] + adv)
    out = []
    pos = 0
    for w in words:
        start = text.index(w, pos)
        pos = start + len(w)
        out.append((x0 + cumulative[start] * scale, x0 + cumulative[pos] * scale))
    return out


# Advance widths (thousandths of an em) of Helvetica, the usual shape of table text; other
# characters count as a digit's width.
_ADVANCE: dict[str, int] = {
    " ": 278, "!": 278, '"': 355, "#": 556, "$": 556, "%": 889, "&": 667, "'": 191,
    "(": 333, ")": 333, "*": 389, "+": 584, ",": 278, "-": 333, ".": 278, "/": 278,
    ":": 278, ";": 278, "<": 584, "=": 584, ">": 584, "?": 556, "@": 1015,
    "A": 667, "B": 667, "C": 722, "D": 722, "E": 667, "F": 611, "G": 778, "H": 722,
    "I": 278, "J": 500, "K": 667, "L": 556, "M": 833, "N": 722, "O": 778, "P": 667,
    "Q": 778, "R": 722, "S": 667, "T": 611, "U": 722, "V": 667, "W": 944, "X": 667,
    "Y": 667, "Z": 611, "[": 278, "\\": 278, "]": 278, "_": 556,
    "a": 556, "b": 556, "c": 500, "d": 556, "e": 556, "f": 278, "g": 556, "h": 556,
    "i": 222, "j": 222, "k": 500, "l": 222, "m": 833, "n": 556, "o": 556, "p": 556,
    "q": 556, "r": 333, "s": 500, "t": 278, "u": 556, "v": 500, "w": 722, "x": 500,
    "y": 500, "z": 500, "{": 334, "|": 260, "}": 334, "~": 584,
}  # fmt: skip
