"""``ledger``: what an agent has actually received of a document, from the ``read_pages``
cursors it was given (or only the last one of each chain: each cursor carries its chain's
ledger so far, :mod:`.ledger_state`).

The answer is the document's reading ledger (delivered, partial, not_delivered, unreadable as
compact page ranges, with counts), a one-line summary an agent can act on, a page selection of
what is left and the cursor to resume with. Without cursors it is the ledger before anything
was read (``describe_document`` gives the same template). Pages known to be unreadable from the
pages read so far (by any call) are named even when no chain reached them, so an agent does not
ask for them again expecting text.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pdfthin.errors import PdfthinError
from pdfthin.operations import cursor as cur
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.ledger_state import ChainLedger, from_cursor, view
from pdfthin.operations.params import CURSORS, MAX_CURSORS, budget
from pdfthin.operations.response import document_ref, size
from pdfthin.pages import format_pages

if TYPE_CHECKING:
    from pdfthin.model import Document
    from pdfthin.operations.types import Ledger, LedgerResponse

_SEPARATORS = re.compile(r"[\s,]+")
#: The longest ``next_pages`` selection (a valid selection: cut at a range, never with ``…``).
_MAX_NEXT_PAGES_CHARS = 60


def ledger(
    document: Source,
    *,
    cursors: str | None = None,
    max_chars: int | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> LedgerResponse:
    context = context or default_context()
    limit = budget(max_chars, context)
    tokens = _tokens(CURSORS.value(cursors))
    doc = context.document(document, password)
    chain = ChainLedger()
    resume: str | None = None
    for token in tokens:
        decoded = cur.decode(token, context.cursor_key)
        if decoded.op != "read":
            raise PdfthinError(
                "invalid_cursor",
                f"the ledger is kept by read_pages cursors; this one belongs to {decoded.op!r}",
            )
        if decoded.fingerprint != cur.fingerprint_prefix(doc.fingerprint):
            raise PdfthinError("invalid_cursor", "the cursor belongs to another document")
        chain.merge(from_cursor(decoded, doc.page_count))
        resume = token  # every read cursor has pages left to deliver: the last one given
    known = known_unreadable(doc)
    totals = {n: len(doc.page(n).markdown) for n in chain.partial if doc.is_cached(n)}
    response: LedgerResponse = {"document": document_ref(doc), "ledger": _empty(), "summary": ""}
    shown = view(chain, doc.page_count, limit, totals, known)
    next_pages = _next_pages(chain, doc.page_count, known)
    if next_pages:
        response["next_pages"] = next_pages
    if resume is not None:
        response["resume_cursor"] = resume
    response["summary"] = summary(shown, next_pages, resume is not None)
    # The page lists are cut to what the budget leaves (the counts and the summary stay).
    room = limit - size({**response, "ledger": _empty()})
    response["ledger"] = view(chain, doc.page_count, max(room, 0), totals, known)
    # A budget too small for what helps to act: the cursor given back (the agent holds it
    # already), then the selection of what is left (the counts say how much).
    for key in ("resume_cursor", "next_pages"):
        if size(response) > limit and key in response:
            del response[key]
            response["summary"] = summary(
                shown, response.get("next_pages", ""), "resume_cursor" in response
            )
    return response


def _tokens(text: str | None) -> list[str]:
    tokens = [t for t in _SEPARATORS.split(text or "") if t]
    if len(tokens) > MAX_CURSORS:
        raise PdfthinError(
            "invalid_argument",
            f"cursors holds {len(tokens)} cursors; give at most {MAX_CURSORS} (the last cursor "
            "of each chain is enough: it carries the chain's ledger so far)",
            argument="cursors",
        )
    return tokens


def known_unreadable(doc: Document) -> dict[int, str]:
    """The pages read so far (by any call) that could not be read, with their reason codes."""
    return {p.number: p.reason_code for p in doc.pages_at_hand() if p.unreadable}


def _empty() -> Ledger:
    return {
        "delivered": "",
        "not_delivered": "",
        "counts": {"delivered": 0, "partial": 0, "not_delivered": 0, "unreadable": 0},
        "exact": True,
    }


def _next_pages(chain: ChainLedger, page_count: int, known: dict[int, str]) -> str:
    """A selection of the first pages not delivered (cut at a range to stay short)."""
    reached = chain.delivered | set(chain.partial) | set(chain.unreadable) | set(known)
    left = [n for n in range(1, page_count + 1) if n not in reached]
    text = format_pages(left)
    if len(text) <= _MAX_NEXT_PAGES_CHARS:
        return text
    return text[: text.rfind(",", 0, _MAX_NEXT_PAGES_CHARS + 1)]


def summary(shown: Ledger, next_pages: str, can_resume: bool) -> str:
    """The ledger in one line, ending with what to call next."""
    counts = shown["counts"]
    said = [f"{counts['delivered']} page(s) delivered in full"]
    if counts["partial"]:
        cut = shown.get("partial", [])
        first = f" (page {cut[0]['page']} up to character {cut[0]['end']})" if cut else ""
        said.append(f"{counts['partial']} in part{first}")
    said.append(f"{counts['not_delivered']} not delivered")
    if counts["unreadable"]:
        said.append(
            f"{counts['unreadable']} could not be read (need OCR or read in part: "
            "read_pages with ocr=true, where OCR is available)"
        )
    line = "; ".join(said)
    if not shown["exact"]:
        line += "; some pages delivered could not be recorded and count as not delivered"
    if can_resume and (counts["partial"] or counts["not_delivered"]):
        line += (
            "; next: read_pages with resume_cursor (and the pages argument of the call that "
            "issued it)"
        )
        if next_pages:
            line += f", or with pages={next_pages!r}"
    elif next_pages:
        line += f"; next: read_pages with pages={next_pages!r}"
    elif counts["partial"]:
        line += "; next: read_pages on the partial pages"
    else:
        line += "; every page has been delivered or reported unreadable"
    return line
