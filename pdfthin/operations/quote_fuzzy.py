"""The nearest approximate occurrence of a quote in a folded text (:mod:`.quote_text`), in
bounded time, with pure Python (``difflib``; the core depends on pypdf only).

Words are the unit: the quote's words are aligned with the words of a few candidate places,
and the similarity counts the characters of the words that agree (a changed word still earns
the characters it shares with the one it replaced). The candidates are the windows of the
quote's length holding most of its words, found in one pass over the text.

Every bound is here, once, in the text's own units (words and characters).
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass
from itertools import pairwise

from pdfthin.operations.quote_text import SEPARATOR

#: Below this similarity (0..1) the nearest place is not the quote: ``not_found``. 0.8 keeps a
#: quote with one word in five changed (or a misspelling in most of its words) and refuses two
#: changed words of a five-word quote, which are another sentence.
MIN_SIMILARITY = 0.8
#: The longest quote matched approximately, in words. The alignment (difflib) costs up to the
#: cube of the words on adversarial text (one repeated word): 150 words stay under a fifth of
#: a second per candidate; a longer quote is looked up exactly and normalised only.
MAX_FUZZY_WORDS = 150
#: The candidate places aligned with the quote: the windows holding most of its words. Five
#: keeps a paraphrase found where the words recur (a quote from an abstract also in the
#: conclusion) within a second in the worst case (5 x the alignment above).
MAX_CANDIDATES = 5
#: A changed word earns the characters it shares with the word it replaced, when both sides
#: of the change are at most this many characters (a sentence's worth); longer runs of change
#: earn nothing, so comparing them never costs more than this squared.
MAX_CHANGED_CHARS = 200
#: The differing words listed in an answer (all count in the similarity).
MAX_DIFFERENCES = 20


@dataclass(frozen=True)
class Difference:
    #: The quote's words at this place (empty: the document has words the quote lacks).
    quote: str
    #: Where the document's words at this place are in the folded text (start, end; equal
    #: when the quote has words the document lacks there).
    start: int
    end: int


@dataclass(frozen=True)
class Approximate:
    #: Where the match starts and ends in the folded text (end exclusive).
    start: int
    end: int
    similarity: float
    differences: tuple[Difference, ...]


def words_of(text: str) -> list[tuple[int, int]]:
    """The (start, end) of every word of a folded text (words are separated by one space;
    a page separator is a word of its own, which no quote word equals)."""
    out: list[tuple[int, int]] = []
    start = 0
    for i, ch in enumerate(text):
        if ch == " " or ch == SEPARATOR:
            if i > start:
                out.append((start, i))
            if ch == SEPARATOR:
                out.append((i, i + 1))
            start = i + 1
    if len(text) > start:
        out.append((start, len(text)))
    return out


def nearest(
    quote: str, text: str, spans: list[tuple[int, int]] | None = None
) -> Approximate | None:
    """The place of ``text`` most like ``quote`` (both folded alike), or ``None`` when the text
    is empty or the quote is longer than :data:`MAX_FUZZY_WORDS` words. ``spans`` is
    ``words_of(text)`` when the caller has it."""
    wanted = quote.split(" ")
    if not wanted or len(wanted) > MAX_FUZZY_WORDS:
        return None
    spans = words_of(text) if spans is None else spans
    if not spans:
        return None
    words = [text[a:b] for a, b in spans]
    best: Approximate | None = None
    for first in _candidates(wanted, words):
        found = _align(wanted, words, spans, first)
        if found is not None and (best is None or found.similarity > best.similarity):
            best = found
    return best


def _candidates(wanted: list[str], words: list[str]) -> list[int]:
    """The starts of the windows of ``len(wanted)`` words holding most of the quote's words
    (counted with their multiplicity), best first, at most :data:`MAX_CANDIDATES`, apart by
    half a window at least. One pass over the text."""
    size = min(len(wanted), len(words))
    need = Counter(wanted)
    have: Counter[str] = Counter()
    shared = 0
    scores: list[tuple[int, int]] = []
    for i, word in enumerate(words):
        if word in need:
            have[word] += 1
            if have[word] <= need[word]:
                shared += 1
        if i >= size:
            gone = words[i - size]
            if gone in need:
                if have[gone] <= need[gone]:
                    shared -= 1
                have[gone] -= 1
        if i >= size - 1 and shared:
            scores.append((-shared, i - size + 1))
    scores.sort()
    chosen: list[int] = []
    for _, start in scores:
        if all(abs(start - c) * 2 >= size for c in chosen):
            chosen.append(start)
            if len(chosen) == MAX_CANDIDATES:
                break
    return chosen


def _align(
    wanted: list[str], words: list[str], spans: list[tuple[int, int]], first: int
) -> Approximate | None:
    """The quote aligned with the words around the window starting at ``first`` (a quarter
    of the quote's length of slack on each side), cut to the words that line up with it."""
    slack = len(wanted) // 4 + 2
    lo = max(0, first - slack)
    hi = min(len(words), first + len(wanted) + slack)
    if SEPARATOR in words[lo:hi]:
        # A page that could not be read stands in the window: the passage lies on one side of
        # it, the side holding more of the quote's words.
        cuts = [lo - 1, *(k for k in range(lo, hi) if words[k] == SEPARATOR), hi]
        wanted_words = set(wanted)
        lo, hi = max(
            ((a + 1, b) for a, b in pairwise(cuts) if b > a + 1),
            key=lambda seg: sum(w in wanted_words for w in words[seg[0] : seg[1]]),
            default=(lo, lo),
        )
        if hi == lo:
            return None
    place = words[lo:hi]
    ops = difflib.SequenceMatcher(None, wanted, place, autojunk=False).get_opcodes()
    # The document's words the quote has no counterpart for, at either end, are not part of
    # the match.
    while ops and ops[0][0] == "insert":
        ops = ops[1:]
    while ops and ops[-1][0] == "insert":
        ops = ops[:-1]
    if not any(tag == "equal" for tag, *_ in ops):
        return None
    # A change at either end takes no more of the document's words than the quote has there
    # (difflib pairs "accident" with "mistake, and never loses its" at the end of a window).
    tag, i1, i2, j1, j2 = ops[0]
    if tag == "replace" and j2 - j1 > i2 - i1:
        ops[0] = (tag, i1, i2, j2 - (i2 - i1), j2)
    tag, i1, i2, j1, j2 = ops[-1]
    if tag == "replace" and j2 - j1 > i2 - i1:
        ops[-1] = (tag, i1, i2, j1, j1 + (i2 - i1))
    j_first = next(j1 for tag, _, _, j1, j2 in ops if j2 > j1)
    j_last = max(j2 for tag, _, _, j1, j2 in ops if j2 > j1)
    if SEPARATOR in place[j_first:j_last]:
        return None  # it would run across a page that could not be read
    matched = 0
    differences: list[Difference] = []
    for tag, i1, i2, j1, j2 in ops:
        ours, theirs = " ".join(wanted[i1:i2]), " ".join(place[j1:j2])
        if tag == "equal":
            matched += len(ours.replace(" ", ""))
            continue
        if tag == "replace":
            matched += _shared_chars(ours, theirs)
        if len(differences) < MAX_DIFFERENCES:
            if j2 > j1:
                at, to = spans[lo + j1][0], spans[lo + j2 - 1][1]
            else:  # the quote's words are missing before the document's word j1
                at = to = spans[lo + j1][0] if lo + j1 < len(spans) else spans[-1][1]
            differences.append(Difference(ours, at, to))
    total = sum(map(len, wanted)) + sum(map(len, place[j_first:j_last]))
    similarity = 2 * matched / total if total else 0.0
    return Approximate(
        spans[lo + j_first][0],
        spans[lo + j_last - 1][1],
        round(min(similarity, 1.0), 4),
        tuple(differences),
    )


def _shared_chars(ours: str, theirs: str) -> int:
    """The characters (spaces aside) two runs of changed words share, in order; none when
    either is longer than :data:`MAX_CHANGED_CHARS`."""
    a, b = ours.replace(" ", ""), theirs.replace(" ", "")
    if len(a) > MAX_CHANGED_CHARS or len(b) > MAX_CHANGED_CHARS:
        return 0
    blocks = difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks()
    return sum(block.size for block in blocks)
