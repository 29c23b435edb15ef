"""``read_pages``: pages as Markdown, paginated by cursor, inside a character budget.

Whole pages are returned while they fit. A page is split only when it alone does not fit in
what is left of an otherwise empty response; reading then continues inside that page, and the
cursor carries that page's text fingerprint so a changed page is ``stale_cursor``, never
silently skipped content.

Every answer carries the reading ledger of its chain of cursors (:mod:`.ledger_state`): which
pages of the document have been delivered whole, in part, not at all, or could not be read,
from the first call of the chain to this one, carried in the cursor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pdfthin.errors import PdfthinError
from pdfthin.operations import cursor as cur
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.ledger_state import (
    ChainLedger,
    carry_limit,
    display_room,
    from_cursor,
    to_extra,
)
from pdfthin.operations.ledger_state import (
    view as ledger_view,
)
from pdfthin.operations.ocr import next_batch, page_view, pending, require_binding, transcribe
from pdfthin.operations.paging import Pager, fill, fit_text
from pdfthin.operations.params import MAX_PAGES, OCR, budget
from pdfthin.operations.response import document_summary, size
from pdfthin.pages import format_pages, parse_pages

if TYPE_CHECKING:
    from pdfthin.operations.types import (
        PageEntry,
        PageExtras,
        PagesOmitted,
        PageWhy,
        ReadPagesResponse,
    )

#: Room kept for the ``omitted`` object (its message and counts) while filling a response.
_OMITTED_RESERVE = 240
#: A response with more room left than this is filled again with it; the second filling
#: keeps this margin for the digits its cursor, ledger and "omitted" may gain.
_REFILL_MIN_SLACK = 64
_REFILL_MARGIN = 32


#: A page's keys (as ``page_view`` names them) left out, in this order, of a part that would
#: not fit with them: what to do about the page and where to look again, which a larger
#: budget (or ``inspect_layout``) gives; never its text, status or hidden-text report.
_HINTS = ("next_steps", "regions", "transcriptions")


def read_pages(
    document: Source,
    *,
    pages: str | int | None = None,
    max_pages: int | None = None,
    max_chars: int | None = None,
    ocr: bool | None = None,
    cursor: str | cur.Cursor | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> ReadPagesResponse:
    context = context or default_context()
    limit = budget(max_chars, context)
    page_limit: int = MAX_PAGES.value(max_pages)
    use_ocr: bool = OCR.value(ocr)
    if use_ocr:
        require_binding(context)
    doc = context.document(document, password)
    selection = parse_pages(pages, doc.page_count)
    args = cur.args_digest(op="read", pages=format_pages(selection))
    pager = Pager("read", doc, args, cursor, context.cursor_key, ocr=use_ocr)
    position = pager.resume_at(len(selection))
    remaining = selection[position:]
    # Where reading resumes inside the first page (a cursor issued when a page was split).
    offset = pager.start.offset if pager.start is not None else 0

    def view(number: int) -> dict[str, Any]:
        return page_view(doc, number, use_ocr, context)

    if offset:
        if use_ocr:
            # A cursor resuming inside a page is checked against that page's transcription.
            transcribe(context, doc, document, [remaining[0]])
        text = view(remaining[0])["markdown"]
        assert pager.start is not None
        if pager.start.page_hash != cur.text_hash(text) or offset > len(text):
            raise PdfthinError(
                "stale_cursor",
                f"the text of page {remaining[0]} changed since the cursor was issued; "
                "read the page again without the cursor",
                page=remaining[0],
            )

    # The chain's ledger so far (checked after the page text, so that a changed page is
    # stale_cursor whatever the cursor carries).
    prior = ChainLedger()
    if pager.start is not None:
        prior = from_cursor(pager.start, doc.page_count, selection[:position])
        if prior.legacy and offset:  # a cursor without a ledger: the page it resumes in
            prior.partial[remaining[0]] = offset
            prior.unrecorded -= 1
        if offset and set(prior.partial) != {remaining[0]}:
            raise PdfthinError(
                "invalid_cursor", "the cursor's reading ledger does not match its position"
            )

    base: ReadPagesResponse = {
        "document": document_summary(doc),
        "pages": [],
        "next_cursor": None,
    }
    # Room for the cursor and the account of what was left out: the largest cursor this
    # selection can produce (its ledger at most ``carried`` characters), the "omitted" object
    # and the ledger shown.
    carried = carry_limit(limit)
    ledger_room = display_room(limit)
    longest_cursor = pager.longest(len(selection), offset=True, page_hash=True, extra=carried)
    room = (
        limit
        - size({**base, "omitted": None, "ledger": None})
        - longest_cursor
        - _OMITTED_RESERVE
        - ledger_room
    )

    def start_of(index: int) -> int:
        return offset if index == 0 else 0

    def entry(index: int) -> PageEntry:
        if use_ocr and pending(context, doc, [remaining[index]]):
            # OCR in batches, just ahead of reading: only the pages this call reaches.
            transcribe(context, doc, document, next_batch(context, doc, remaining[index:]))
        page = view(remaining[index])
        start = start_of(index)
        return _entry(page, page["markdown"][start:], start, len(page["markdown"]))

    def split(index: int, room: int) -> tuple[PageEntry, int | None]:
        # This page alone does not fit: as much of it as the budget allows, without its hints
        # when even a character of it would not fit with them (the smallest budgets).
        page = view(remaining[index])
        text, start = page["markdown"], start_of(index)
        for hint in _HINTS:
            if size(_entry(page, text[start : start + 1], start, len(text))) + 1 <= room:
                break
            page = {key: value for key, value in page.items() if key != hint}

        def fits(end: int) -> bool:
            return size(_entry(page, text[start:end], start, len(text))) + 1 <= room

        end = fit_text(text, start, fits)
        return _entry(page, text[start:end], start, len(text)), end if end < len(text) else None

    def build(room: int) -> tuple[ReadPagesResponse, str | None]:
        """The answer filled to ``room``, and why it stopped (``None``: nothing was left)."""
        response: ReadPagesResponse = {**base, "pages": []}
        chain = prior.copy()
        stop = fill(
            response["pages"], range(len(remaining)), entry, room, max_items=page_limit, split=split
        )
        for delivered in response["pages"]:
            chain.add_entry(dict(delivered))
        totals = {n: len(view(n)["markdown"]) for n in chain.partial}
        response["ledger"] = ledger_view(chain, doc.page_count, ledger_room, totals)
        if stop is not None:
            rest = remaining[stop.item :]
            resume = stop.offset
            first_text = view(rest[0])["markdown"]
            reached = len(selection) - len(rest)
            page_hash = cur.text_hash(first_text) if resume else None
            carrying = carried
            token = pager.cursor(reached, resume, page_hash, to_extra(chain, reached, carrying))
            while len(token) > longest_cursor and carrying:
                # The room kept assumed the ledger would not compress; should it ever grow past
                # that room, it is carried shorter (pages dropped, never added) until it fits.
                carrying //= 2
                token = pager.cursor(reached, resume, page_hash, to_extra(chain, reached, carrying))
            response["next_cursor"] = token
            omitted: PagesOmitted = {
                "reason": "max_pages" if stop.reason == "max_items" else "budget",
                "pages": len(rest),
                "message": (
                    f"{len(rest)} more page(s) not in this response; call again with next_cursor "
                    "to continue"
                ),
            }
            # The pages left are counted in characters only when all of them were read already:
            # pages are read on demand, and a call answers with what it returns, not the rest.
            if all(doc.is_cached(n) for n in rest[1:]):
                chars_left = sum(len(view(n)["markdown"]) for n in rest) - resume
                omitted["chars"] = chars_left
                omitted["message"] = (
                    f"{len(rest)} more page(s), {chars_left} characters, not in this response; "
                    "call again with next_cursor to continue"
                )
            response["omitted"] = omitted
        return response, stop.reason if stop is not None else None

    # The room kept for the cursor, the ledger and "omitted" is their likely largest; once they
    # are known, a response cut by the budget is filled again with what they left (a page cut
    # at the smallest budget gets several times the text) and kept if it fits. A ledger
    # larger than its room (many reason codes at a small budget) makes the filling give back
    # the difference instead.
    response, stopped = build(room)
    excess = size(response) - limit
    for _ in range(3):
        if excess <= 0:
            break
        room -= excess + _REFILL_MARGIN
        response, stopped = build(room)
        excess = size(response) - limit
    if stopped == "budget" and -excess > _REFILL_MIN_SLACK:
        again, _ = build(room - excess - _REFILL_MARGIN)
        if size(again) <= limit:
            return again
    return response


def _entry(page: dict[str, Any], text: str, offset: int, total: int) -> PageEntry:
    why: PageWhy = {}
    # Why, for every page that is not plainly a text layer read whole (a page read in part
    # says so, even though its status is text).
    if page["status"] != "text" or page["reason_code"] != "text_layer":
        why["reason"] = page["reason"]
        why["reason_code"] = page["reason_code"]
    if page.get("label"):
        why["page_label"] = page["label"]  # the file's page label, not page text
    extras: PageExtras = {}
    if offset or offset + len(text) < total:
        extras["part"] = {"start": offset, "end": offset + len(text), "total": total}
    if page.get("hidden"):
        extras["hidden_text"] = page["hidden"]
    if page.get("provenance"):
        extras["provenance"] = page["provenance"]
    if page.get("next_steps"):
        extras["next_steps"] = page["next_steps"]
    if page.get("transcriptions"):
        extras["transcriptions"] = page["transcriptions"]
    if page.get("regions"):
        extras["regions_needing_review"] = page["regions"]
    return {"page": page["page"], "status": page["status"], **why, "markdown": text, **extras}
