"""``verify_quote``: whether a quote stands in a document, where, and how faithfully.

The quote is looked for at three levels, most faithful first: ``exact`` (as given, white space
aside), ``normalized`` (Unicode compatibility forms, ligatures, curly quotes and dashes, line-end
hyphenation; case when asked: :mod:`.quote_text`) and ``fuzzy`` (the nearest place, when it is
similar enough: :mod:`.quote_fuzzy`). With a cited page, a match on that page is the answer at
the best level it reaches there; a match only elsewhere is ``other_page``.

Invariant 3 and 4 of docs/design.md: a quote not found is ``not_found`` only when every page
could be read; when the cited page, or any page, needs OCR or was read only in part, the answer
is ``unverifiable`` (with any match found elsewhere), never ``not_found``.

Every found answer carries the passage as it stands, its page and offsets (the convention of
``find_in_document``), its line boxes, its chunk and its anchor (:mod:`.anchors`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pdfthin.operations.anchors import anchor_of, passage_text
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.find import search_coverage
from pdfthin.operations.locate import chunk_at, match_boxes
from pdfthin.operations.ocr import page_view
from pdfthin.operations.params import CITED_PAGE, IGNORE_CASE, QUOTE
from pdfthin.operations.quote_fuzzy import (
    MAX_FUZZY_WORDS,
    MIN_SIMILARITY,
    Approximate,
    nearest,
    words_of,
)
from pdfthin.operations.quote_text import fold_pages, fold_quote
from pdfthin.operations.response import document_summary
from pdfthin.operations.search_index import SearchIndex
from pdfthin.pages import parse_pages

if TYPE_CHECKING:
    from pdfthin.model import Document
    from pdfthin.operations.types import (
        QuoteDifference,
        QuoteMatch,
        QuoteResult,
        VerifyResponse,
    )

#: How faithfully a match stands for the quote.
Level = Literal["exact", "normalized", "fuzzy"]


@dataclass(frozen=True)
class _Place:
    """A match in the document: the start page and offset, the end page and offset."""

    page: int
    start: int
    end_page: int
    end: int

    def covers(self, page: int) -> bool:
        return self.page <= page <= self.end_page


def _place(doc: Document, index: SearchIndex, start: int, end: int) -> _Place:
    """The match of ``start``-``end`` of the folded text; its end takes in the combining
    marks after its last letter (folding joined them to it)."""
    end_page, stop = index.pages[end - 1], index.offsets[end - 1] + 1
    text = doc.page(end_page).text
    while stop < len(text) and unicodedata.combining(text[stop]):
        stop += 1
    return _Place(index.pages[start], index.offsets[start], end_page, stop)


def verify_quote(
    document: Source,
    quote: str,
    *,
    page: int | None = None,
    ignore_case: bool | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> VerifyResponse:
    context = context or default_context()
    quote = QUOTE.check(quote)
    cited: int | None = CITED_PAGE.value(page)
    casefold: bool = IGNORE_CASE.value(ignore_case)
    doc = context.document(document, password)
    if cited is not None:
        parse_pages(cited, doc.page_count)  # out of range: invalid_pages naming the count
    selection = list(range(1, doc.page_count + 1))
    views = {n: page_view(doc, n, False) for n in selection}
    coverage, unreadable = search_coverage(selection, views, None, None, False)
    if "message" in coverage:  # this operation takes no ocr argument: say where OCR is
        coverage["message"] = coverage["message"].replace(
            "retry with ocr=true if OCR is bound",
            "verify_quote reads no OCR; find_in_document with ocr=true searches them",
        )
    partial = {n for n in selection if views[n]["reason_code"] == "partial"}
    cited_unreadable = cited is not None and (cited in unreadable or cited in partial)
    texts = [(n, None if n in unreadable else str(views[n]["text"])) for n in selection]

    response: VerifyResponse = {
        "document": document_summary(doc),
        "result": "not_found",
        "message": "",
        "coverage": coverage,
    }
    if cited is not None:
        response["cited_page"] = cited

    def answer(result: QuoteResult, found: _Place, level: Level, message: str) -> VerifyResponse:
        response["result"] = result
        response["match"] = _entry(doc, views, found, level)
        response["message"] = message
        return response

    elsewhere: tuple[_Place, Level] | None = None
    level: Level
    for level in ("exact", "normalized"):
        normalized = level == "normalized"
        index = _folded(doc, texts, normalized, casefold and normalized)
        needle = fold_quote(quote, normalized, casefold and normalized)
        places = _occurrences(doc, index, needle)
        if not places:
            continue
        if cited is None:
            return answer(level, places[0], level, _FOUND[level].format(page=places[0].page))
        here = [p for p in places if p.covers(cited)]
        if here:
            return answer(level, here[0], level, _FOUND[level].format(page=cited))
        if elsewhere is None:
            elsewhere = (min(places, key=lambda p: (abs(p.page - cited), p.page)), level)

    if cited_unreadable:
        assert cited is not None
        return _unverifiable(response, doc, views, cited, elsewhere)
    if elsewhere is not None:
        found, level = elsewhere
        return answer("other_page", found, level, _OTHER_PAGE.format(page=found.page, cited=cited))

    index = _folded(doc, texts, True, casefold)
    folded_quote = fold_quote(quote, True, casefold)
    words = len(folded_quote.split(" "))
    response["min_similarity"] = MIN_SIMILARITY
    best: Approximate | None = None
    if words > MAX_FUZZY_WORDS:
        response["note"] = (
            f"approximate matching is bounded to quotes of at most {MAX_FUZZY_WORDS} words; "
            f"this one has {words}: check a shorter passage to find its nearest match"
        )
    else:
        spans = _words(doc, index, casefold)
        if cited is not None:
            # The cited page first (a passage may run on to the next page): its nearest match
            # is the answer when it is close enough, even if another page holds a closer one.
            near = [s for s in spans if cited <= index.pages[s[0]] <= cited + 1]
            on_page = nearest(folded_quote, index.text, near)
            if on_page is not None and on_page.similarity >= MIN_SIMILARITY:
                found = _place(doc, index, on_page.start, on_page.end)
                if found.covers(cited):
                    return _fuzzy(answer, doc, index, found, on_page, "fuzzy", cited)
        best = nearest(folded_quote, index.text, spans)
        if best is not None and best.similarity >= MIN_SIMILARITY:
            found = _place(doc, index, best.start, best.end)
            if cited is None or found.covers(cited):
                return _fuzzy(answer, doc, index, found, best, "fuzzy", found.page)
            return _fuzzy(answer, doc, index, found, best, "other_page", cited)
    if not coverage["complete"]:
        return _unverifiable(response, doc, views, cited, None)
    if best is not None:
        response["nearest_similarity"] = best.similarity
    response["message"] = (
        "not in the document: every page was read, and no place is similar enough "
        f"(similarity at least {MIN_SIMILARITY})"
    )
    return response


_FOUND = {
    "exact": "the quote stands on page {page} as given",
    "normalized": "the quote stands on page {page} once typography is normalised (ligatures, "
    "quotes, dashes, hyphenation, compatibility forms, or case when asked)",
}
_OTHER_PAGE = "the quote stands on page {page}, not on the cited page {cited}"


def _fuzzy(
    answer: Callable[[QuoteResult, _Place, Level, str], VerifyResponse],
    doc: Document,
    index: SearchIndex,
    found: _Place,
    near: Approximate,
    result: QuoteResult,
    page: int,
) -> VerifyResponse:
    if result == "fuzzy":
        message = (
            f"the nearest passage, on page {found.page}, differs from the quote "
            f"(similarity {near.similarity}); quote the document's text instead"
        )
    else:
        message = (
            f"a passage like the quote (similarity {near.similarity}) stands on page "
            f"{found.page}, not on the cited page {page}"
        )
    response: VerifyResponse = answer(result, found, "fuzzy", message)
    match = response["match"]
    match["similarity"] = near.similarity
    match["differences"] = [
        _difference(doc, index, d.quote, d.start, d.end) for d in near.differences
    ]
    return response


def _difference(
    doc: Document, index: SearchIndex, quote: str, start: int, end: int
) -> QuoteDifference:
    if end <= start:
        return {"quote": quote, "document": ""}
    at = _place(doc, index, start, end)
    return {"quote": quote, "document": passage_text(doc, at.page, at.start, at.end_page, at.end)}


def _unverifiable(
    response: VerifyResponse,
    doc: Document,
    views: dict[int, dict[str, Any]],
    cited: int | None,
    elsewhere: tuple[_Place, Level] | None,
) -> VerifyResponse:
    response["result"] = "unverifiable"
    if cited is not None and (
        views[cited]["status"] == "needs_ocr" or views[cited]["reason_code"] == "partial"
    ):
        why = f"the cited page {cited} could not be read ({views[cited]['reason_code']})"
    else:
        why = (
            "the quote is not in the pages that could be read, and some could not be "
            "(coverage.pages_needing_ocr, coverage.pages_read_in_part)"
        )
    response["message"] = why + "; it can be neither confirmed nor ruled out there"
    if elsewhere is not None:
        found, level = elsewhere
        response["match"] = _entry(doc, views, found, level)
        response["message"] += f"; it does stand on page {found.page}"
    return response


def _entry(
    doc: Document, views: dict[int, dict[str, Any]], found: _Place, level: Level
) -> QuoteMatch:
    entry: QuoteMatch = {
        "level": level,
        "page": found.page,
        "start": found.start,
        "end": found.end,
        "text": passage_text(doc, found.page, found.start, found.end_page, found.end),
        "bbox": match_boxes(doc, found.page, found.start, found.end, found.end_page),
        "anchor": anchor_of(doc.fingerprint, found.page, found.start, found.end, found.end_page),
    }
    if found.end_page != found.page:
        entry["end_page"] = found.end_page
    chunk = chunk_at(doc, found.page, found.start)
    if chunk is not None:
        entry["chunk_id"] = chunk
    label = views[found.page].get("label")
    if label:
        entry["page_label"] = label  # the file's page label, not page text
    return entry


def _occurrences(doc: Document, index: SearchIndex, needle: str) -> list[_Place]:
    """Every place of ``needle`` in the folded text, in order (overlapping ones too)."""
    out: list[_Place] = []
    if not needle:
        return out
    at = index.text.find(needle)
    while at >= 0:
        out.append(_place(doc, index, at, at + len(needle)))
        at = index.text.find(needle, at + 1)
    return out


def _folded(
    doc: Document, texts: list[tuple[int, str | None]], normalized: bool, casefold: bool
) -> SearchIndex:
    """The document folded to a level, made once per document (its pages do not change)."""
    key = ("quote", normalized, casefold)
    cache: dict[Any, Any] = doc.derived
    found = cache.get(key)
    if not isinstance(found, SearchIndex):
        found = fold_pages(texts, normalized, casefold)
        cache[key] = found
    return found


def _words(doc: Document, index: SearchIndex, casefold: bool) -> list[tuple[int, int]]:
    key = ("quote-words", casefold)
    cache: dict[Any, Any] = doc.derived
    found = cache.get(key)
    if not isinstance(found, list):
        found = words_of(index.text)
        cache[key] = found
    return found
