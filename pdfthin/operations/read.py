"""``read_pages``: pages as Markdown, paginated by cursor, inside a character budget.

Whole pages are returned while they fit. A page is split only when it alone does not fit in
what is left of an otherwise empty response; reading then continues inside that page, and the
cursor carries that page's text fingerprint so a changed page is ``stale_cursor``, never
silently skipped content.
"""

from __future__ import annotations

from typing import Any

from ..errors import PdfthinError
from ..model import Document
from ..pages import format_pages, parse_pages
from . import cursor as cur
from .context import Context, Source, budget, default_context, flag, positive_int
from .ocr import next_batch, page_view, pending, require_binding, transcribe
from .response import cut_point, document_summary, size

#: Room kept for the ``omitted`` object (its message and counts) while filling a response.
_OMITTED_RESERVE = 240


def read_pages(
    document: Source,
    *,
    pages: str | int | None = None,
    max_pages: int | None = None,
    max_chars: int | None = None,
    ocr: bool | None = None,
    cursor: str | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> dict[str, Any]:
    context = context or default_context()
    limit = budget(max_chars, context)
    page_limit = positive_int(max_pages, "max_pages", 1_000_000, 1_000_000)
    use_ocr = flag(ocr, "ocr")
    if use_ocr:
        require_binding(context)
    doc = context.document(document, password)
    selection = parse_pages(pages, doc.page_count)
    args = cur.args_digest(op="read", pages=format_pages(selection))

    def view(number: int) -> dict[str, Any]:
        return page_view(doc, number, use_ocr, context)

    key = context.cursor_key
    remaining, offset, page_hash = _resume(cursor, key, doc, selection, use_ocr, args)
    if offset:
        if use_ocr:
            # A cursor resuming inside a page is checked against that page's transcription.
            transcribe(context, doc, document, [remaining[0]])
        text = view(remaining[0])["markdown"]
        if page_hash != cur.text_hash(text) or offset > len(text):
            raise PdfthinError(
                "stale_cursor",
                f"the text of page {remaining[0]} changed since the cursor was issued; "
                "read the page again without the cursor",
                page=remaining[0],
            )

    response: dict[str, Any] = {
        "document": document_summary(doc),
        "pages": [],
        "next_cursor": None,
        "omitted": None,
    }
    # Room for the cursor and the account of what was left out: the largest cursor this
    # selection can produce, plus the "omitted" object.
    longest = cur.encode(
        cur.Cursor(
            op="read",
            fingerprint=cur.fingerprint_prefix(doc.fingerprint),
            ocr=use_ocr,
            args=args,
            index=len(selection),
            offset=10**9 - 1,
            page_hash="f" * 12,
        ),
        key,
    )
    used = size(response) + len(longest) + _OMITTED_RESERVE
    entries: list[dict[str, Any]] = response["pages"]
    index = 0
    stop_reason = None
    while index < len(remaining):
        if len(entries) >= page_limit:
            stop_reason = "max_pages"
            break
        if use_ocr and pending(context, doc, [remaining[index]]):
            # OCR in batches, just ahead of reading: only the pages this call reaches.
            transcribe(context, doc, document, next_batch(context, doc, remaining[index:]))
        page = view(remaining[index])
        text = page["markdown"]
        entry = _entry(page, text[offset:], offset, len(text))
        cost = size(entry) + 1
        if used + cost <= limit:
            entries.append(entry)
            used += cost
            index += 1
            offset = 0
            continue
        if entries:
            stop_reason = "budget"
            break
        # This page alone does not fit: return as much of it as the budget allows.
        end = _fit(page, text, offset, limit - used)
        entries.append(_entry(page, text[offset:end], offset, len(text)))
        offset = end
        if offset >= len(text):  # the rest of the page fitted after all
            index += 1
            offset = 0
        stop_reason = "budget"
        break

    if index < len(remaining):
        rest = remaining[index:]
        first_text = view(rest[0])["markdown"]
        response["next_cursor"] = cur.encode(
            cur.Cursor(
                op="read",
                fingerprint=cur.fingerprint_prefix(doc.fingerprint),
                ocr=use_ocr,
                args=args,
                index=len(selection) - len(rest),
                offset=offset,
                page_hash=cur.text_hash(first_text) if offset else None,
            ),
            key,
        )
        chars_left = sum(len(view(n)["markdown"]) for n in rest) - offset
        response["omitted"] = {
            "reason": stop_reason,
            "pages": len(rest),
            "chars": chars_left,
            "message": (
                f"{len(rest)} more page(s), {chars_left} characters, not in this response; "
                "call again with next_cursor to continue"
            ),
        }
    else:
        del response["omitted"]
    return response


def _resume(
    token: str | None,
    key: bytes | None,
    doc: Document,
    selection: list[int],
    use_ocr: bool,
    args: str,
) -> tuple[list[int], int, str | None]:
    """The pages left to read, the offset inside the first and that page's text fingerprint
    when the cursor resumes inside it."""
    if token is None:
        return selection, 0, None
    c = cur.decode(token, key)
    cur.check(c, op="read", fingerprint=doc.fingerprint, ocr=use_ocr, args=args)
    return selection[cur.resume_at(c, len(selection)) :], c.offset, c.page_hash


def _entry(page: dict[str, Any], text: str, offset: int, total: int) -> dict[str, Any]:
    entry: dict[str, Any] = {"page": page["page"], "status": page["status"]}
    # Why, for every page that is not plainly a text layer read whole (a page read in part
    # says so, even though its status is text).
    if page["status"] != "text" or page["reason_code"] != "text_layer":
        entry["reason"] = page["reason"]
        entry["reason_code"] = page["reason_code"]
    if page.get("label"):
        entry["page_label"] = page["label"]  # the file's page label, not page text
    entry["markdown"] = text
    if offset or offset + len(text) < total:
        entry["part"] = {"start": offset, "end": offset + len(text), "total": total}
    if page.get("hidden"):
        entry["hidden_text"] = page["hidden"]
    return entry


def _fit(page: dict[str, Any], text: str, offset: int, room: int) -> int:
    """The largest end (cut at a natural break) such that the entry fits in ``room``."""
    lo, hi = offset + 1, len(text)
    best = offset + 1
    # Binary search on the raw length; JSON escaping makes the size non-linear.
    while lo <= hi:
        mid = (lo + hi) // 2
        if size(_entry(page, text[offset:mid], offset, len(text))) + 1 <= room:
            best = mid
            lo = mid + 1
        else:
            hi = mid - 1
    end = offset + cut_point(text[offset:], best - offset)
    if end > offset and 0xD800 <= ord(text[end - 1]) <= 0xDBFF:
        end -= 1
    return max(end, offset + 1)
