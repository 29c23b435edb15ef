"""Labels compared as a reader compares them: case, accents, punctuation and spacing aside.

Two ways a label on the page answers a field's label, and nothing looser:

- ``exact``: the same words once normalised ("Invoice No." and "invoice no");
- ``subset``: every word of the field's label stands in the page's label, which has at most
  :data:`MAX_EXTRA_WORDS` words more ("Total" answers "Total amount due"). Used only where the
  page says where its label ends (a colon, a form field's label, a table's key cell), and only
  when one page label answers: two different ones ("Total tax", "Total due") are ambiguous,
  and an ambiguous field stays ``null``.

No edit distance, no synonyms: a near miss is a different label as far as pdfthin can justify.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from typing import Literal

Match = Literal["exact", "subset"]

#: Words a page's label may hold beyond the field's label for a subset match: a qualifier
#: ("Total amount due" for "total"), not a different phrase that happens to contain the word.
MAX_EXTRA_WORDS = 2
#: Folded texts kept, and the longest text kept: each field of a schema compares its labels
#: with every line of the pages, which were folded again for each field. Labels are short:
#: only texts of at most that many characters are kept, so what a process keeps is bounded
#: whatever the lines of the documents it reads.
NORMALISED_KEPT = 16_384
NORMALISED_KEPT_CHARS = 200
_NOT_WORD = re.compile(r"[^0-9a-z]+")


def normalise(text: str) -> str:
    """``text`` folded for comparison: accents removed, case folded, every run of
    punctuation and white space one space ("N°" and "No" stay apart: ° is not a letter)."""
    return _kept(text) if len(text) <= NORMALISED_KEPT_CHARS else _folded(text)


@functools.lru_cache(maxsize=NORMALISED_KEPT)
def _kept(text: str) -> str:
    return _folded(text)


def _folded(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
    return " ".join(_NOT_WORD.sub(" ", plain).split())


def words(text: str) -> tuple[str, ...]:
    return tuple(normalise(text).split())


def match(page_label: str, labels: Iterable[str], exact_only: Iterable[str] = ()) -> Match | None:
    """How ``page_label`` answers a field with ``labels`` (and ``exact_only`` labels):
    ``exact``, ``subset`` or ``None``."""
    seen = normalise(page_label)
    if not seen:
        return None
    wanted = [normalise(lb) for lb in labels]
    if seen in wanted or seen in (normalise(lb) for lb in exact_only):
        return "exact"
    have = set(seen.split())
    extra = len(have)
    for label in wanted:
        need = set(label.split())
        if need and need <= have and extra - len(need) <= MAX_EXTRA_WORDS:
            return "subset"
    return None


def starts_with(text: str, labels: Iterable[str]) -> str | None:
    """The field label that ``text`` starts with, whole words only (for "Label value" on a
    line, where nothing marks the label's end: an exact label only), the longest first."""
    have = words(text)
    best: tuple[str, ...] = ()
    for label in labels:
        need = words(label)
        if need and have[: len(need)] == need and len(need) > len(best):
            best = need
    return " ".join(best) if best else None


_RAW_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def end_of_words(text: str, count: int) -> int:
    """Where the first ``count`` words of ``text`` (as :func:`words` counts them) end in it;
    ``-1`` when it has fewer."""
    seen = 0
    for m in _RAW_WORD.finditer(text):
        seen += len(normalise(m.group()).split())
        if seen >= count:
            return m.end()
    return -1
