"""``read_section`` and ``peek``: a section's Markdown, or a taste of it, inside the budget."""

from __future__ import annotations

import random
from typing import Any

from ..errors import PdfthinError
from ..model import Document
from ..model.markers import PAGE_MARKER, escape_markers, joined_pages
from ..model.sections import Section, section_text, section_tree
from ..pages import format_pages
from . import cursor as cur
from .context import Context, Source, budget, default_context, positive_int
from .read import read_pages
from .response import TITLE_SOURCES, cut_point, size
from .unreadable import attach

# escape_markers: adapters render page Markdown beside their own markers with it.
__all__ = ["escape_markers", "peek", "read_section", "section_span"]

#: Room for ``part`` and ``omitted`` beside the cursor (whose longest form is measured).
_RESERVE = 300
POSITIONS = ("beginning", "middle", "ending", "random")
DEFAULT_PEEK = 500
MAX_PEEK = 20_000
#: The largest seed (JSON numbers are exact up to 2**53); it comes back in the answer.
MAX_SEED = 2**53


def _section(doc: Document, section_id: Any) -> Section:
    if not isinstance(section_id, str):
        raise PdfthinError("invalid_argument", "section must be a section id like 's-1-3'")
    section = section_tree(doc).by_id(section_id)
    if section is None:
        raise PdfthinError(
            "not_found",
            f"no section {section_id!r} in this document; get the ids from the table of contents",
            section=section_id,
        )
    return section


def section_span(doc: Document, section_id: str) -> tuple[int, int]:
    """First and last page of a section (``not_found`` for an unknown id, and for an outline
    entry whose destination is broken)."""
    section = _section(doc, section_id)
    if section.page is None or section.end_page is None:
        raise PdfthinError(
            "not_found",
            f"section {section_id!r} has no location in the document: {section.problem}",
            section=section_id,
        )
    return section.page, section.end_page


def read_section(
    document: Source,
    section: str | None = None,
    *,
    max_chars: int | None = None,
    cursor: str | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> dict[str, Any]:
    """One section's Markdown, from its heading to the next heading at the same or a higher
    level; without ``section``, the whole document, paginated as :func:`read_pages` does."""
    context = context or default_context()
    if section is None:
        return read_pages(
            document, max_chars=max_chars, cursor=cursor, password=password, context=context
        )
    limit = budget(max_chars, context)
    doc = context.document(document, password)
    found = _section(doc, section)
    first, last = section_span(doc, section)
    tree = section_tree(doc)
    text = section_text(doc, found)
    args = cur.args_digest(op="section", section=section)
    offset = 0
    if cursor is not None:
        c = cur.decode(cursor, context.cursor_key)
        cur.check(c, op="section", fingerprint=doc.fingerprint, ocr=False, args=args)
        if c.page_hash != cur.text_hash(text) or c.offset > len(text):
            raise PdfthinError(
                "stale_cursor",
                f"the text of section {section!r} changed since the cursor was issued",
                section=section,
            )
        offset = c.offset
    response: dict[str, Any] = {
        "document": {"fingerprint": doc.fingerprint, "page_count": doc.page_count},
        "section": {
            "id": found.id,
            "title": found.title,
            "title_source": TITLE_SOURCES[tree.source],
            "level": found.level,
            "pages": f"{first}-{last}" if last != first else str(first),
            "breadcrumb": tree.breadcrumb(found),
            "chars": len(text),
        },
        "markdown": "",
        "part": None,
        "next_cursor": None,
    }
    attach(response, doc, range(first, last + 1))
    longest = cur.encode(
        cur.Cursor(
            op="section",
            fingerprint=cur.fingerprint_prefix(doc.fingerprint),
            ocr=False,
            args=args,
            offset=10**9 - 1,
            page_hash="f" * 12,
        ),
        context.cursor_key,
    )
    room = limit - size(response) - len(longest) - _RESERVE
    end = _fit(text, offset, room)
    response["markdown"] = text[offset:end]
    if offset or end < len(text):
        response["part"] = {"start": offset, "end": end, "total": len(text)}
    else:
        del response["part"]
    if end < len(text):
        response["next_cursor"] = cur.encode(
            cur.Cursor(
                op="section",
                fingerprint=cur.fingerprint_prefix(doc.fingerprint),
                ocr=False,
                args=args,
                offset=end,
                page_hash=cur.text_hash(text),
            ),
            context.cursor_key,
        )
        response["omitted"] = {
            "reason": "budget",
            "chars": len(text) - end,
            "message": f"{len(text) - end} more characters of this section; call again with "
            "next_cursor",
        }
    return response


def _fit(text: str, offset: int, room: int) -> int:
    """The end of the largest piece after ``offset`` whose JSON fits in ``room``."""
    if size(text[offset:]) <= room:
        return len(text)
    lo, hi, best = offset + 1, len(text), offset + 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if size(text[offset:mid]) <= room:
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    end = offset + cut_point(text[offset:], best - offset)
    if end > offset and 0xD800 <= ord(text[end - 1]) <= 0xDBFF:
        end -= 1
    return max(end, offset + 1)


def peek(
    document: Source,
    section: str | None = None,
    *,
    position: str = "beginning",
    limit: int | None = None,
    seed: int | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> dict[str, Any]:
    """At most ``limit`` characters from the beginning, middle, ending or a random place
    (reproducible with ``seed``) of a section or of the document, with where they were taken
    and how long the whole scope is."""
    context = context or default_context()
    if position not in POSITIONS:
        raise PdfthinError(
            "invalid_argument", f"position must be one of {', '.join(POSITIONS)}", position=position
        )
    size_limit = positive_int(limit, "limit", DEFAULT_PEEK, MAX_PEEK)
    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED
    ):
        raise PdfthinError("invalid_argument", f"seed must be an integer from 0 to {MAX_SEED}")
    doc = context.document(document, password)
    if section is None:
        text, pages = joined_pages(doc.pages)
        scope: dict[str, Any] = {"section": None, "metadata": {"title": doc.metadata.title}}
        first, last = 1, doc.page_count
    else:
        found = _section(doc, section)
        first, last = section_span(doc, section)
        text = section_text(doc, found)
        pages = _page_starts_in_section(doc, found, text)
        source = TITLE_SOURCES[section_tree(doc).source]
        scope = {"section": found.id, "title": found.title, "title_source": source}
    total = len(text)
    if position == "beginning":
        start = 0
    elif position == "ending":
        start = max(0, total - size_limit)
    elif position == "middle":
        start = max(0, (total - size_limit) // 2)
    else:
        start = random.Random(seed).randint(0, max(0, total - size_limit))
    start, end = _word_bounds(text, start, min(total, start + size_limit))
    page = _page_at(pages, start)
    scope["chars"] = total
    scope["pages"] = format_pages(list(range(first, last + 1)))
    response = {
        "document": {"fingerprint": doc.fingerprint, "page_count": doc.page_count},
        "scope": scope,
        "position": position,
        "seed": seed if position == "random" else None,
        "start": start,
        "end": end,
        "page": page,
        "text": text[start:end],
    }
    return attach(response, doc, range(first, last + 1))


def _page_starts_in_section(doc: Document, section: Section, text: str) -> list[tuple[int, int]]:
    starts = [(0, section.page or 1)]
    starts.extend((m.start(), int(m.group(1))) for m in PAGE_MARKER.finditer(text))
    return starts


def _page_at(starts: list[tuple[int, int]], offset: int) -> int | None:
    page = None
    for start, number in starts:
        if start <= offset:
            page = number
        else:
            break
    return page


def _word_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """Move ``start`` forward and ``end`` back to word boundaries (within 40 characters)."""
    if 0 < start < len(text) and not text[start - 1].isspace():
        space = text.find(" ", start, start + 40)
        if space > 0:
            start = space + 1
    if end < len(text) and not text[end].isspace():
        space = text.rfind(" ", max(start, end - 40), end)
        if space > start:
            end = space
    return start, max(start, end)
