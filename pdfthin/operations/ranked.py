"""``search_chunks``: ranked search, Okapi BM25 over the chunks of a selection.

The chunks are the default chunking's (:mod:`pdfthin.model.chunks`: ``max_tokens`` 500,
stitched), so a result's ``chunk_id`` is the one ``get_chunks`` gives. Text is tokenised as
``find`` normalises it (:mod:`.search_index`): case folded, accents removed, words are runs of
letters and digits. A chunk's score, for the query's distinct words ``t``::

    idf(t) * tf * (K1 + 1) / (tf + K1 * (1 - B + B * len / avg_len))

summed, with ``tf`` the word's count in the chunk, ``len`` the chunk's words and ``avg_len``
the mean over the searched chunks, and Lucene's IDF, ``ln(1 + (N - n + 0.5) / (n + 0.5))``
(``N`` chunks searched, ``n`` of them holding the word), which stays positive for a word in most
chunks. A chunk that holds the query's words in order, adjacent (a phrase of two words or more),
scores :data:`PHRASE_BONUS` more.

Ranking needs every chunk of the selection, so the first query reads every page of it; the
index is kept with the document (per selection), so later queries are cheap. Pages that could
not be read (unreadable chunks) are named in ``coverage``, as ``find`` does.
"""

from __future__ import annotations

import math
import re
import threading
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from pdfthin.model.chunks import DEFAULT_MAX_TOKENS, Chunk
from pdfthin.operations.anchor_names import chunk_anchor, chunk_range
from pdfthin.operations.chunks import chunk_stream
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.find import search_coverage
from pdfthin.operations.locate import match_boxes
from pdfthin.operations.paging import DROP, fill, lean_first
from pdfthin.operations.params import QUERY, TOP_K, budget
from pdfthin.operations.response import bbox, document_summary, size
from pdfthin.operations.search_index import build_index, normalize_query
from pdfthin.pages import format_pages, parse_pages

if TYPE_CHECKING:
    from pdfthin.model import Document
    from pdfthin.ocr.store import AgentTranscriptions
    from pdfthin.operations.types import ChunkHit, PageBox, SearchChunksResponse

#: BM25's term-frequency saturation: a word's tenth occurrence adds far less than its second.
K1 = 1.2
#: BM25's length normalisation: how much a long chunk's counts are discounted (0: not at all,
#: 1: fully in proportion to its length).
B = 0.75
#: A chunk holding the whole query as a phrase scores this fraction more: words side by side
#: are better evidence than the same words scattered, but not so much that a phrase in a chunk
#: about something else outranks a chunk about the query.
PHRASE_BONUS = 0.5
#: Characters of context either side of a snippet's match.
SNIPPET_CONTEXT = 80
#: Scores are given to this many decimals.
SCORE_DECIMALS = 4
#: Line boxes given with a result, at most: a phrase across a few lines and a handful of the
#: query's words; a longer query's other words stand in the chunk's box (``chunk_bbox``).
MAX_HIT_BOXES = 12
#: Room kept for ``omitted`` and the note beside the results.
_RESERVE = 400

_WORD = re.compile(r"\w+")


def fold(text: str) -> str:
    """Text folded as ``find`` folds it by default: case folded, accents removed."""
    text = text.casefold()
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def words(text: str) -> list[str]:
    """The words of ``text``, folded."""
    return _WORD.findall(fold(text))


@dataclass(frozen=True, slots=True)
class Bm25Index:
    """The searchable chunks of a selection, as word counts."""

    chunks: tuple[Chunk, ...]
    counts: tuple[Counter[str], ...]
    #: Each chunk's words joined by single spaces, between spaces (for phrases).
    joined: tuple[str, ...]
    lengths: tuple[int, ...]
    #: Chunks holding each word.
    frequency: dict[str, int]
    average: float

    @classmethod
    def of(cls, chunks: list[Chunk]) -> Bm25Index:
        searchable = tuple(c for c in chunks if c.text)
        tokens = [words(c.text) for c in searchable]
        counts = tuple(Counter(t) for t in tokens)
        frequency: Counter[str] = Counter()
        for count in counts:
            frequency.update(count.keys())
        lengths = tuple(len(t) for t in tokens)
        average = sum(lengths) / len(lengths) if lengths else 0.0
        joined = tuple(" " + " ".join(t) + " " for t in tokens)
        return cls(searchable, counts, joined, lengths, dict(frequency), average)

    def idf(self, word: str) -> float:
        """Lucene's IDF: positive however common the word."""
        n = self.frequency.get(word, 0)
        total = len(self.chunks)
        return math.log(1 + (total - n + 0.5) / (n + 0.5))

    def score(self, index: int, query: list[str]) -> float:
        """The chunk's BM25 score for the query's distinct words, with the phrase bonus."""
        count = self.counts[index]
        norm = K1 * (1 - B + B * self.lengths[index] / self.average) if self.average else K1
        total = 0.0
        for word in dict.fromkeys(query):
            tf = count.get(word, 0)
            if tf:
                total += self.idf(word) * tf * (K1 + 1) / (tf + norm)
        if total and len(query) > 1 and " " + " ".join(query) + " " in self.joined[index]:
            total *= 1 + PHRASE_BONUS
        return total

    def rank(self, query: list[str]) -> list[tuple[float, int]]:
        """``(score, chunk index)`` of the chunks holding a query word, best first (ties in
        document order)."""
        wanted = set(query)
        scored = [
            (self.score(i, query), i)
            for i, count in enumerate(self.counts)
            if not wanted.isdisjoint(count)
        ]
        scored.sort(key=lambda pair: (-pair[0], pair[1]))
        return scored


def bm25_index(
    doc: Document, selection: list[int], transcriptions: AgentTranscriptions | None = None
) -> Bm25Index:
    """The index of the selection's default chunks, built once and kept with the document
    (pages the agent transcribed whole are indexed with their transcription)."""
    key = f"bm25:{format_pages(selection)}"
    if transcriptions is not None:
        key += f":agent{id(transcriptions)}.{transcriptions.generation(doc.fingerprint)}"
    with _LOCK:
        found = doc.derived.get(key)
    if isinstance(found, Bm25Index):
        return found
    stream = chunk_stream(doc, selection, DEFAULT_MAX_TOKENS, True, transcriptions)
    while not stream.complete:
        stream.upto(len(stream.made) + 64)
    index = Bm25Index.of(stream.made)
    with _LOCK:
        doc.derived[key] = index
    return index


_LOCK = threading.Lock()


def search_chunks(
    document: Source,
    query: str,
    *,
    top_k: int | None = None,
    pages: str | int | None = None,
    max_chars: int | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> SearchChunksResponse:
    context = context or default_context()
    query = QUERY.check(query)
    wanted: int = TOP_K.value(top_k)
    limit = budget(max_chars, context)
    doc = context.document(document, password)
    selection = parse_pages(pages, doc.page_count)
    index = bm25_index(doc, selection, context.transcriptions)
    views = {n: _status(doc, n, context) for n in selection}
    coverage, _ = search_coverage(selection, views, None, None, False, limit)
    terms = words(query)
    ranked = index.rank(terms)
    response: SearchChunksResponse = {
        "document": document_summary(doc),
        "query": query,
        "results": [],
        "total_hits": len(ranked),
        "coverage": coverage,
    }

    def entry(pair: tuple[float, int]) -> ChunkHit:
        score, i = pair
        chunk = index.chunks[i]
        following = index.chunks[i + 1] if i + 1 < len(index.chunks) else None
        hit: ChunkHit = {
            "chunk_id": chunk.id,
            "page": chunk.page,
            "bbox": hit_boxes(doc, chunk, following, query, terms),
            "chunk_bbox": bbox(chunk.box),
            "score": round(score, SCORE_DECIMALS),
            "snippet": snippet(chunk.text, query, terms),
            "breadcrumb": list(chunk.breadcrumb),
        }
        named = chunk_anchor(doc, chunk, following)
        if named is not None:
            hit["anchor"] = named
        return hit

    room = limit - size(response) - _RESERVE
    stop = fill(response["results"], ranked[:wanted], entry, room)
    if stop is not None:
        left = min(wanted, len(ranked)) - len(response["results"])
        response["omitted"] = (
            f"{left} more of the top {wanted} did not fit max_chars; raise max_chars or lower top_k"
        )
    if not ranked and not coverage["complete"]:
        response["note"] = (
            "no chunk holds a query word in the pages that could be searched; coverage is "
            "incomplete, so the text may still be on the pages listed in "
            "coverage.pages_needing_ocr (or coverage.pages_read_in_part)"
        )
    # The first hit always goes in; over a small budget it leaves out its anchor, then its
    # hit boxes (the chunk's box stays), then its breadcrumb: get_chunks or a larger budget
    # gives them.
    if len(response["results"]) == 1:
        steps = [("anchor", DROP), ("bbox", []), ("breadcrumb", [])]
        lean_first(response, cast("dict[str, Any]", response["results"][0]), limit, steps)
    return response


def _status(doc: Document, number: int, context: Context) -> dict[str, Any]:
    """The page's status for coverage: ``ocr`` once the agent transcribed it whole."""
    page = doc.page(number)
    if page.status == "needs_ocr" and (
        context.transcriptions.whole_text(doc.fingerprint, number) is not None
    ):
        return {"status": "ocr", "reason_code": "ocr"}
    return {"status": page.status, "reason_code": page.reason_code}


def occurrences(folded: str, query: str, terms: list[str]) -> list[tuple[int, int]]:
    """Where the query stands in ``folded`` (text folded as ``find`` folds it), as ``(start,
    end)`` pairs in order: the query as a phrase (its first occurrence), else the first
    occurrence of each of its words found; each match whole words."""
    needle = normalize_query(query, True, True)
    phrase = _whole(needle).search(folded) if needle else None
    if phrase is not None:
        return [phrase.span()]
    found = [m.span() for term in dict.fromkeys(terms) if (m := _whole(term).search(folded))]
    return sorted(found)


def _whole(needle: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + re.escape(needle) + r"(?!\w)")


def hit_boxes(
    doc: Document, chunk: Chunk, following: Chunk | None, query: str, terms: list[str]
) -> list[PageBox]:
    """The boxes of the lines where the query stands in the chunk (:func:`occurrences`, in
    the page text the chunk stands in), in order, each line once, at most
    :data:`MAX_HIT_BOXES`; the chunk's own boxes when they cannot be placed (its words found
    in its text but not in its pages', which a chunk's text and its pages' share)."""
    place = chunk_range(doc, chunk, following)
    boxes: list[PageBox] = []
    if place is not None:
        page, start, end_page, end = place
        slices: list[tuple[int, str]] = []
        shift: dict[int, int] = {}
        for number in range(page, end_page + 1):
            text = doc.page(number).text
            lo = start if number == page else 0
            hi = end if number == end_page else len(text)
            slices.append((number, text[lo:hi]))
            shift[number] = lo
        found = build_index(slices, casefold=True, accents=True)
        for at, stop in occurrences(found.text, query, terms):
            first, last = found.pages[at], found.pages[stop - 1]
            begin = found.offsets[at] + shift[first]
            finish = found.offsets[stop - 1] + shift[last] + 1
            for box in match_boxes(doc, first, begin, finish, last):
                if box not in boxes:
                    boxes.append(box)
    if not boxes:
        boxes = [{"page": s.page, **bbox(s.box)} for s in chunk.spans]
    return boxes[:MAX_HIT_BOXES]


def snippet(text: str, query: str, terms: list[str]) -> str:
    """The chunk's text around the query (:func:`occurrences`: the phrase, else the first of
    its words found), the match in **bold**, whitespace runs as single spaces."""
    found = build_index([(1, text)], casefold=True, accents=True)
    folded = found.text
    places = occurrences(folded, query, terms)
    if not places or not folded:
        return " ".join(text[: 2 * SNIPPET_CONTEXT].split())
    at, end = places[0]
    start, stop = found.offsets[at], found.offsets[end - 1] + 1
    before = text[max(0, start - SNIPPET_CONTEXT) : start]
    after = text[stop : stop + SNIPPET_CONTEXT]
    return (
        ("…" if start > SNIPPET_CONTEXT else "")
        + " ".join(before.split())
        + (" " if before[-1:].isspace() else "")
        + "**"
        + " ".join(text[start:stop].split())
        + "**"
        + (" " if after[:1].isspace() else "")
        + " ".join(after.split())
        + ("…" if stop + SNIPPET_CONTEXT < len(text) else "")
    )
