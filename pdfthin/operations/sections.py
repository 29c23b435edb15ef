"""``read_section`` and ``peek``: a section's Markdown, or a taste of it, inside the budget."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from pdfthin.errors import PdfthinError
from pdfthin.model.markers import PAGE_MARKER, escape_markers, joined_pages
from pdfthin.model.sections import Section, section_text, section_tree
from pdfthin.operations import cursor as cur
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.ocr import agent_texts
from pdfthin.operations.paging import Pager, fit_text
from pdfthin.operations.params import LIMIT, POSITION, SEED, budget
from pdfthin.operations.read import read_pages
from pdfthin.operations.response import TITLE_SOURCES, document_ref, size
from pdfthin.operations.unreadable import report
from pdfthin.pages import format_pages

if TYPE_CHECKING:
    from pdfthin.model import Document
    from pdfthin.operations.types import (
        PeekResponse,
        ReadPagesResponse,
        Scope,
        ScopeTitle,
        SectionAfter,
        SectionInfo,
        SectionPart,
        SectionResponse,
    )

# escape_markers: adapters render page Markdown beside their own markers with it.
__all__ = ["escape_markers", "peek", "read_section", "section_span"]

#: Room for ``part`` and ``omitted`` beside the cursor (whose longest form is measured).
_RESERVE = 300


def _section(doc: Document, section_id: Any) -> Section:
    if not isinstance(section_id, str):
        raise PdfthinError("invalid_argument", "section must be a section id like 's-3'")
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
    cursor: str | cur.Cursor | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> SectionResponse | ReadPagesResponse:
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
    # Pages the agent transcribed (submit_transcription) show its text, marked as its.
    agent = agent_texts(context, doc, range(first, last + 1))
    text = section_text(doc, found, agent)
    args = cur.args_digest(op="section", section=section)
    pager = Pager("section", doc, args, cursor, context.cursor_key)
    offset = 0
    if pager.start is not None:
        if pager.start.page_hash != cur.text_hash(text) or pager.start.offset > len(text):
            raise PdfthinError(
                "stale_cursor",
                f"the text of section {section!r} changed since the cursor was issued",
                section=section,
            )
        offset = pager.start.offset
    document_info = document_ref(doc)
    section_info: SectionInfo = {
        "id": found.id,
        "title": found.title,
        "title_source": TITLE_SOURCES[tree.source],
        "level": found.level,
        "pages": f"{first}-{last}" if last != first else str(first),
        "breadcrumb": tree.breadcrumb(found),
        "chars": len(text),
    }
    after: SectionAfter = {}
    unreadable = report(doc, [n for n in range(first, last + 1) if n not in agent], limit)
    if unreadable:
        after["unreadable"] = unreadable
    # The response without its text, measured with a place for "part" (room for its value is
    # kept with "omitted"'s).
    empty = {
        "document": document_info,
        "section": section_info,
        "markdown": "",
        "part": None,
        "next_cursor": None,
        **after,
    }
    room = limit - size(empty) - pager.longest(offset=True, page_hash=True) - _RESERVE
    end = fit_text(text, offset, lambda end: size(text[offset:end]) <= room)
    part: SectionPart = {}
    if offset or end < len(text):
        part["part"] = {"start": offset, "end": end, "total": len(text)}
    response: SectionResponse = {
        "document": document_info,
        "section": section_info,
        "markdown": text[offset:end],
        **part,
        "next_cursor": None,
        **after,
    }
    if end < len(text):
        response["next_cursor"] = pager.cursor(offset=end, page_hash=cur.text_hash(text))
        response["omitted"] = {
            "reason": "budget",
            "chars": len(text) - end,
            "message": f"{len(text) - end} more characters of this section; call again with "
            "next_cursor",
        }
    return response


def peek(
    document: Source,
    section: str | None = None,
    *,
    position: str | None = None,
    limit: int | None = None,
    seed: int | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> PeekResponse:
    """At most ``limit`` characters from the beginning, middle, ending or a random place
    (reproducible with ``seed``) of a section or of the document, with where they were taken
    and how long the whole scope is."""
    context = context or default_context()
    where: str = POSITION.value(position)
    size_limit: int = LIMIT.value(limit)
    chosen_seed: int | None = SEED.value(seed)
    doc = context.document(document, password)
    title: ScopeTitle
    scope_id: str | None = None
    if section is None:
        first, last = 1, doc.page_count
        agent = agent_texts(context, doc, range(first, last + 1))
        text, pages = joined_pages(doc.pages, agent)
        title = {"metadata": {"title": doc.metadata.title}}
    else:
        found = _section(doc, section)
        first, last = section_span(doc, section)
        agent = agent_texts(context, doc, range(first, last + 1))
        text = section_text(doc, found, agent)
        pages = _page_starts_in_section(doc, found, text)
        source = TITLE_SOURCES[section_tree(doc).source]
        scope_id, title = found.id, {"title": found.title, "title_source": source}
    total = len(text)
    if where == "beginning":
        start = 0
    elif where == "ending":
        start = max(0, total - size_limit)
    elif where == "middle":
        start = max(0, (total - size_limit) // 2)
    else:
        start = random.Random(chosen_seed).randint(0, max(0, total - size_limit))
    start, end = _word_bounds(text, start, min(total, start + size_limit))
    scope: Scope = {
        "section": scope_id,
        **title,
        "chars": total,
        "pages": format_pages(list(range(first, last + 1))),
    }
    response: PeekResponse = {
        "document": document_ref(doc),
        "scope": scope,
        "position": where,
        "seed": chosen_seed if where == "random" else None,
        "start": start,
        "end": end,
        "page": _page_at(pages, start),
        "text": text[start:end],
    }
    unreadable = report(doc, [n for n in range(first, last + 1) if n not in agent])
    if unreadable:
        response["unreadable"] = unreadable
    return response


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
