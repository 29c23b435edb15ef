"""``find_in_document``: search with page numbers, snippets and honest coverage.

Invariant 4 of docs/design.md: every response says which pages were searched and which could not
be (pages that need OCR); an empty match list with incomplete coverage says so instead of
implying the text is absent.

Match modes: ``phrase`` (the normalised query as a substring, across line, column and page
breaks), ``all_words`` (pages holding every word; one match per page, at the first word),
``any_words`` (every occurrence of any word). Words match whole words.
"""

from __future__ import annotations

import base64
import heapq
import itertools
import re
import zlib
from bisect import bisect_right
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, cast

from pdfthin.errors import PdfthinError
from pdfthin.ocr.store import AGENT
from pdfthin.operations import cursor as cur
from pdfthin.operations.anchors import anchor_of
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.locate import chunk_at, line_boxes, match_boxes
from pdfthin.operations.ocr import next_batch, page_view, pending, require_binding, transcribe
from pdfthin.operations.paging import DROP, Pager, fill, lean_first
from pdfthin.operations.params import (
    CASE_SENSITIVE,
    CONTEXT_CHARS,
    FOLD_ACCENTS,
    MATCH_MODE,
    MAX_RESULTS,
    OCR,
    QUERY,
    budget,
)
from pdfthin.operations.response import document_summary, size
from pdfthin.operations.search_index import SearchIndex, build_index, normalize_query
from pdfthin.operations.unreadable import page_list, within_share
from pdfthin.pages import format_pages, parse_pages

if TYPE_CHECKING:
    from pdfthin.model import Document
    from pdfthin.operations.types import Coverage, FindResponse, Match, PageBox

#: Room kept for the cursor (its OCR coverage included) and the "more" sentence.
_RESERVE = 800
#: What stands between a page's text and each region the agent transcribed in the text that
#: is searched; a match never runs from one into another (:func:`_hit`).
_REGION_BREAK = "\n\n"


def find_in_document(
    document: Source,
    query: str,
    *,
    match_mode: str | None = None,
    case_sensitive: bool | None = None,
    fold_accents: bool | None = None,
    pages: str | int | None = None,
    max_results: int | None = None,
    context_chars: int | None = None,
    max_chars: int | None = None,
    ocr: bool | None = None,
    cursor: str | cur.Cursor | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> FindResponse:
    context = context or default_context()
    query = QUERY.check(query)
    mode: str = MATCH_MODE.value(match_mode)
    sensitive: bool = CASE_SENSITIVE.value(case_sensitive)
    accents: bool = FOLD_ACCENTS.value(fold_accents)
    limit = budget(max_chars, context)
    wanted: int = MAX_RESULTS.value(max_results)
    around: int = CONTEXT_CHARS.value(context_chars)
    use_ocr: bool = OCR.value(ocr)
    if use_ocr:
        require_binding(context)
    doc = context.document(document, password)
    selection = parse_pages(pages, doc.page_count)
    args = cur.args_digest(
        op="find",
        query=query,
        mode=mode,
        case=sensitive,
        accents=accents,
        pages=format_pages(selection),
    )
    pager = Pager("find", doc, args, cursor, context.cursor_key, ocr=use_ocr)
    token = pager.start
    start_page, start_offset = selection[0], 0
    if token is not None:
        if token.index not in set(selection):
            raise PdfthinError("invalid_cursor", "the cursor names a page outside the selection")
        start_page, start_offset = token.index, token.offset
    in_scope = [n for n in selection if n >= start_page] if token else selection
    horizon: int | None = None  # with OCR: the first page this call does not reach
    if use_ocr:
        # One batch of pages per call, after the cursor: a long scan is walked across calls.
        if token is not None and start_offset:
            transcribe(context, doc, document, [start_page])
        transcribe(context, doc, document, next_batch(context, doc, in_scope))
        waiting = pending(context, doc, in_scope)
        horizon = waiting[0] if waiting else None
    views = {n: page_view(doc, n, use_ocr, context) for n in selection}
    if (
        token is not None
        and start_offset
        and token.page_hash != cur.text_hash(_searched(views[start_page])[0])
    ):
        raise PdfthinError(
            "stale_cursor",
            f"the text of page {start_page} changed since the cursor was issued; "
            "search again without the cursor",
            page=start_page,
        )

    index, regions = _index(doc, views, use_ocr, context, sensitive, accents)
    carried = _carried(doc, selection, token) if use_ocr and token is not None else None
    coverage, unreadable = search_coverage(selection, views, carried, horizon, use_ocr, limit)

    response: FindResponse = {
        "document": document_summary(doc),
        "query": query,
        "match_mode": mode,
        "matches": [],
        "next_cursor": None,
        "coverage": coverage,
    }
    allowed_pages = set(selection)

    # A cursor's search starts at its page's text: the matches before it are not looked at
    # again (following cursors through a long document cost the square of its matches).
    begin = _page_start(index, start_page) if token is not None else 0

    def from_start() -> Iterator[dict[str, Any]]:
        found = _matches(index, query, mode, sensitive, accents, allowed_pages, regions, begin)
        for match in found:
            if (match["page"], match["start"]) < (start_page, start_offset):
                continue
            if horizon is not None and match.get("end_page", match["page"]) >= horizon:
                return  # beyond what this call could read: the next call continues from there
            yield match

    looked_at: list[dict[str, Any]] = []

    def entry(match: dict[str, Any]) -> Match:
        looked_at.append(match)
        return _entry(match, views, around, doc)

    room = limit - size(response) - _RESERVE
    stop = fill(response["matches"], from_start(), entry, room, max_items=wanted)
    next_at = (stop.item["page"], stop.item["start"]) if stop is not None else None
    if next_at is None and horizon is not None:
        next_at = (horizon, 0)
        response["more"] = (
            "the pages from "
            f"{horizon} on still need OCR; call again with next_cursor to read and search them"
        )
    elif next_at is not None:
        response["more"] = "more matches follow; call again with next_cursor"
    if next_at is not None:
        page, offset = next_at
        response["next_cursor"] = pager.cursor(
            page,
            offset,
            cur.text_hash(_searched(views[page])[0]) if offset else None,
            _carry(doc, selection, page, unreadable) if use_ocr else None,
        )
    if not response["matches"] and not coverage["complete"]:
        response["note"] = (
            "no match in the pages that could be searched; coverage is incomplete, so the "
            "text may still be on the pages listed in coverage.pages_needing_ocr "
            "(or coverage.pages_read_in_part)"
        )
    # The first match always goes in; when it is more than a small budget holds, its snippet
    # shows less context around it (the match itself is never cut), then it leaves out its
    # chunk id and its anchor (the anchor names the page and offsets it gives; a call with a
    # larger budget gives both).
    if size(response) > limit and len(response["matches"]) == 1:
        chars = around
        while size(response) > limit and chars > 0:
            chars //= 2
            response["matches"][0] = _entry(looked_at[0], views, chars, doc)
        steps = [("chunk_id", DROP), ("anchor", DROP)]
        lean_first(response, cast("dict[str, Any]", response["matches"][0]), limit, steps)
    return response


def search_coverage(
    selection: list[int],
    views: dict[int, dict[str, Any]],
    carried: tuple[set[int], set[int]] | None,
    horizon: int | None,
    use_ocr: bool,
    limit: int | None = None,
) -> tuple[Coverage, set[int]]:
    """Which pages of the scope were searched and which could not be (also returned as a
    set). With OCR the walk goes a batch at a time, so what earlier calls covered comes in
    the cursor (``carried``: the pages before it that OCR read, and those it could not).
    With the response's budget ``limit``, page lists too long for
    :data:`~.unreadable.REPORT_SHARE` of it are cut at a range, ending in ``…`` (``complete``
    and the counts in ``message`` stay exact)."""
    reached = [n for n in selection if horizon is None or n < horizon]
    searched = {n for n in reached if views[n]["status"] in ("text", "ocr")}
    unreadable = {n for n in reached if views[n]["status"] == "needs_ocr"}
    if carried is not None:
        # What this process read itself stands; the cursor tells what it cannot know.
        read, failed = carried
        searched |= read
        unreadable = (unreadable | failed) - searched
    not_reached = [n for n in selection if horizon is not None and n >= horizon]
    # Searched, but only the part of the page that could be read: a match in the rest cannot
    # be ruled out either.
    partial = [n for n in reached if views[n]["reason_code"] == "partial"]
    lists = {
        "pages_in_scope": selection,
        "pages_searched": sorted(searched),
        "pages_needing_ocr": sorted(unreadable),
    }
    if not_reached:
        lists["pages_not_yet_searched"] = not_reached
    if partial:
        lists["pages_read_in_part"] = partial
    coverage = cast("Coverage", {"complete": not unreadable and not not_reached and not partial})
    coverage.update({key: format_pages(pages) for key, pages in lists.items()})  # type: ignore[typeddict-item]
    if unreadable:
        coverage["message"] = (
            f"{len(unreadable)} page(s) in scope have no readable text and were not searched; "
            + (
                "OCR did not recover them"
                if use_ocr
                else "a match there cannot be ruled out (retry with ocr=true if OCR is bound)"
            )
        )
    elif not_reached:
        coverage["message"] = "the search continues with next_cursor through pages needing OCR"
    if partial:
        coverage["message"] = " ".join(
            [
                coverage.get("message", ""),
                f"{len(partial)} page(s) were read only in part, and searched in what could be "
                "read; a match in the rest cannot be ruled out",
            ]
        ).strip()

    def cut(longest: int | None) -> Coverage:
        cut_lists = {key: page_list(pages, longest) for key, pages in lists.items()}
        return cast("Coverage", {**coverage, **cut_lists})

    return within_share(cut, limit, None), unreadable


# With OCR, what earlier calls learnt about the pages before the cursor travels in the cursor:
# of the pages of the selection before it that need OCR (a list any process derives from the
# document alone), the ones OCR could not read, as a bitmap. The others were read by OCR.
# A bitmap too long for a cursor (tens of thousands of such pages) is replaced by "all of
# them": coverage then under-claims (pages OCR read reported as not searched), never over-claims.
_ALL = "*"


def _ocr_pages_before(doc: Document, selection: list[int], page: int) -> list[int]:
    return [n for n in selection if n < page and doc.page(n).status == "needs_ocr"]


def _carry(
    doc: Document, selection: list[int], page: int, failed: set[int]
) -> dict[str, str] | None:
    before = _ocr_pages_before(doc, selection, page)
    bits = bytearray((len(before) + 7) // 8)
    for i, n in enumerate(before):
        if n in failed:
            bits[i // 8] |= 1 << (i % 8)
    if not any(bits):
        return None
    packed = base64.urlsafe_b64encode(zlib.compress(bytes(bits), 9)).decode("ascii")
    return {"u": packed if len(packed) <= cur.MAX_EXTRA_CHARS else _ALL}


def _carried(doc: Document, selection: list[int], token: cur.Cursor) -> tuple[set[int], set[int]]:
    """The pages before the cursor that OCR read, and those it could not read."""
    before = _ocr_pages_before(doc, selection, token.index)
    packed = (token.extra or {}).get("u")
    if packed is None:
        return set(before), set()
    if packed == _ALL:
        return set(), set(before)
    size = (len(before) + 7) // 8
    try:
        inflate = zlib.decompressobj()
        bits = inflate.decompress(base64.urlsafe_b64decode(packed), size + 1)
    except (ValueError, zlib.error):
        raise PdfthinError("invalid_cursor", "the cursor's coverage is malformed") from None
    if len(bits) != size or not inflate.eof:
        raise PdfthinError("invalid_cursor", "the cursor's coverage is malformed")
    failed = {n for i, n in enumerate(before) if bits[i // 8] >> (i % 8) & 1}
    return set(before) - failed, failed


def _index(
    doc: Document,
    views: dict[int, dict[str, Any]],
    use_ocr: bool,
    context: Context,
    sensitive: bool,
    accents: bool,
) -> tuple[SearchIndex, dict[int, tuple[int, ...]]]:
    """The document's search index, and where the regions the agent transcribed start in each
    page's part of it."""
    ocr_key = context.ocr.cache_key if use_ocr and context.ocr is not None else None
    agent = context.transcriptions.generation(doc.fingerprint)
    key = ("search", sensitive, accents, use_ocr, ocr_key, agent)
    cache: dict[Any, Any] = doc.derived
    found = cache.get(key)
    ocr_pages = tuple(sorted(n for n, v in views.items() if v["status"] == "ocr"))
    if found is not None and found[0] == ocr_pages:
        return found[1], found[2]
    texts = []
    regions: dict[int, tuple[int, ...]] = {}
    for number in range(1, doc.page_count + 1):
        view = views.get(number) or page_view(doc, number, use_ocr, context)
        text, starts = _searched(view)
        texts.append((number, text))
        if starts:
            regions[number] = starts
    index = build_index(texts, casefold=not sensitive, accents=accents)
    cache[key] = (ocr_pages, index, regions)
    return index, regions


def _searched(view: dict[str, Any]) -> tuple[str, tuple[int, ...]]:
    """The text searched on a page: its text when it has one (a layer or a transcription),
    then each region the agent transcribed (``submit_transcription`` with a region), and where
    each region starts in it."""
    text = view["text"] if view["status"] in ("text", "ocr") else ""
    starts: list[int] = []
    for region in view.get("transcriptions", ()):
        text += _REGION_BREAK
        starts.append(len(text))
        text += region["markdown"]
    return text, tuple(starts)


def _part(regions: dict[int, tuple[int, ...]], page: int, offset: int) -> int:
    """Which part of a page's searched text ``offset`` is in: 0 its text, ``k`` its k-th
    region."""
    return bisect_right(regions.get(page, ()), offset)


def _page_start(index: SearchIndex, page: int) -> int:
    """Where the text of ``page`` (or of the first page after it that has text) starts in
    ``index`` (its pages in order): every match on that page or after it starts there or
    later; the text's end when no page from there on has text."""
    later = (at for number, at in index.starts.items() if number >= page)
    return min(later, default=len(index.text))


def _matches(
    index: SearchIndex,
    query: str,
    mode: str,
    sensitive: bool,
    accents: bool,
    allowed: set[int],
    regions: dict[int, tuple[int, ...]],
    begin: int = 0,
) -> Iterator[dict[str, Any]]:
    """The matches from ``begin`` (a page's start in ``index.text``) on, in page order."""
    needle = normalize_query(query, not sensitive, accents)
    text = index.text
    if mode == "phrase":
        at = text.find(needle, begin)
        while at >= 0:
            hit = _hit(index, at, at + len(needle), allowed, regions)
            if hit is not None:
                yield hit
            at = text.find(needle, at + 1)
        return
    words = [w for w in dict.fromkeys(needle.split(" ")) if w]
    patterns = {w: re.compile(r"(?<!\w)" + re.escape(w) + r"(?!\w)") for w in words}

    # Each word's matches come in page order; merged as they come (equal places in the
    # query's order), never all held at once: a word on every line of a long document.
    def of(word: str, pattern: re.Pattern[str]) -> Iterator[dict[str, Any]]:
        for m in pattern.finditer(text, begin):
            hit = _hit(index, m.start(), m.end(), allowed, regions)
            if hit is not None:
                hit["word"] = word
                yield hit

    merged = heapq.merge(
        *(of(word, pattern) for word, pattern in patterns.items()),
        key=lambda h: (h["page"], h["start"]),
    )
    if mode == "any_words":
        yield from merged
        return
    # all_words: one match per page that holds every word, at the earliest occurrence, a
    # page at a time. A region the agent transcribed is a part of its own: it holds every
    # word or it does not.
    for _, on_page in itertools.groupby(merged, key=lambda h: h["page"]):
        by_part: dict[int, dict[str, dict[str, Any]]] = {}
        for hit in on_page:
            word = hit.pop("word")
            by_part.setdefault(hit.get("region", -1), {}).setdefault(word, hit)
        for part in sorted(by_part):
            found = by_part[part]
            if len(found) == len(words):
                ordered = [(w, found[w]) for w in words]  # in the query's order
                first = min((h for _, h in ordered), key=lambda h: h["start"])
                hit = dict(first)
                hit["words"] = {w: h["start"] for w, h in ordered}
                yield hit


def _hit(
    index: SearchIndex,
    start: int,
    end: int,
    allowed: set[int],
    regions: dict[int, tuple[int, ...]],
) -> dict[str, Any] | None:
    page = index.pages[start]
    end_page = index.pages[end - 1]
    if page not in allowed or end_page not in allowed:
        return None
    hit: dict[str, Any] = {
        "page": page,
        "start": index.offsets[start],
        "end": index.offsets[end - 1] + 1,
    }
    # A region the agent transcribed stands apart: a match lies in it or outside it, and a
    # match across a page break joins two pages' texts, not a region.
    first = _part(regions, page, hit["start"])
    if end_page == page:
        if first != _part(regions, page, hit["end"] - 1):
            return None
        if first:
            hit["region"] = first - 1
    elif first or page in regions or _part(regions, end_page, hit["end"] - 1):
        return None
    if end_page != page:
        hit["end_page"] = end_page
    return hit


def _boxes(match: dict[str, Any], views: dict[int, dict[str, Any]], doc: Document) -> list[PageBox]:
    """The line boxes of a match, on the pages whose text is the text layer (text that OCR
    recognised has no boxes here)."""
    page, end_page = match["page"], match.get("end_page", match["page"])
    if views[page]["status"] != "text":
        return []
    if end_page != page and views[end_page]["status"] != "text":
        return line_boxes(doc, page, match["start"], len(views[page]["text"]))
    return match_boxes(doc, page, match["start"], match["end"], end_page)


def _entry(
    match: dict[str, Any], views: dict[int, dict[str, Any]], around: int, doc: Document
) -> Match:
    page = match["page"]
    text = views[page]["text"]
    start, end = match["start"], match["end"]
    end_page = match.get("end_page", page)
    region = match.get("region")
    if region is not None:
        # In a region the agent transcribed: offsets into its transcription.
        base = _searched(views[page])[1][region]
        transcribed = views[page]["transcriptions"][region]
        text = transcribed["markdown"]
        start, end = start - base, end - base
    if end_page == page:
        before = text[max(0, start - around) : start]
        hit = text[start:end]
        after = text[end : end + around]
    else:
        nxt = views[end_page]["text"]
        before = text[max(0, start - around) : start]
        hit = text[start:] + " " + nxt[:end]
        after = nxt[end : end + around]
    snippet = (
        ("…" if start > around else "")
        + " ".join(before.split())
        + (" " if before[-1:].isspace() else "")
        + "**"
        + " ".join(hit.split())
        + "**"
        + (" " if after[:1].isspace() else "")
        + " ".join(after.split())
        + ("…" if len(after) == around else "")
    )
    entry: Match = {
        "page": page,
        "snippet": snippet,
        "start": start,
        "end": end,
        "bbox": [] if region is not None else _boxes(match, views, doc),
    }
    if region is not None:
        box = transcribed["region"]
        entry["bbox"] = [
            {"page": page, "x0": box["x0"], "y0": box["y0"], "x1": box["x1"], "y1": box["y1"]}
        ]
        entry["region"] = box
        entry["provenance"] = AGENT
    elif views[page]["status"] == "text":
        chunk = chunk_at(doc, page, start)
        if chunk is not None:
            entry["chunk_id"] = chunk
    if region is None and views[page]["status"] == "text" and views[end_page]["status"] == "text":
        # Offsets into an OCR transcription are not the page's text: no anchor for those.
        entry["anchor"] = anchor_of(doc.fingerprint, page, start, match["end"], end_page)
    if page != end_page:
        entry["end_page"] = end_page
    if region is None and views[page].get("provenance"):
        entry["provenance"] = views[page]["provenance"]
    label = views[page].get("label")
    if label:
        entry["page_label"] = label  # the file's page label, not page text
    if "words" in match:
        entry["words"] = {w: at - (match["start"] - start) for w, at in match["words"].items()}
    if "word" in match:
        entry["word"] = match["word"]
    return entry
