"""``get_toc``: the section tree (from the outline, else from detected headings), paginated
inside the budget."""

from __future__ import annotations

from pdfthin.model.sections import image_count, preview, section_tree
from pdfthin.operations import cursor as cur
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.paging import Pager, fill
from pdfthin.operations.params import budget
from pdfthin.operations.response import TITLE_SOURCES, bbox, document_ref, size
from pdfthin.operations.types import TocEntry, TocResponse
from pdfthin.operations.unreadable import page_list, report, unreadable_in

#: Room for the quotes around the cursor (whose longest form is measured).
_RESERVE = 8
#: Outline problems listed (on the first response only).
MAX_PROBLEMS = 20


def get_toc(
    document: Source,
    *,
    max_chars: int | None = None,
    cursor: str | cur.Cursor | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> TocResponse:
    context = context or default_context()
    limit = budget(max_chars, context)
    doc = context.document(document, password)
    tree = section_tree(doc)
    sections = tree.sections
    pager = Pager("toc", doc, cur.args_digest(op="toc"), cursor, context.cursor_key)
    start = pager.resume_at(len(sections))
    response: TocResponse = {
        "document": document_ref(doc),
        "source": tree.source,
        "total_sections": len(sections),
        "sections": [],
        "next_cursor": None,
    }
    if doc.outline_problems and start == 0 and tree.source == "outline":
        response["problems"] = doc.outline_problems[:MAX_PROBLEMS]
    # The whole document: headings are sought on every page, and previews come from them.
    unreadable = report(doc, range(1, doc.page_count + 1))
    if unreadable:
        response["unreadable"] = unreadable
    title_source = TITLE_SOURCES[tree.source]

    def entry(index: int) -> TocEntry:
        section = sections[index]
        item: TocEntry = {
            "id": section.id,
            "title": section.title,
            "title_source": title_source,
            "level": section.level,
            "page": section.page,
        }
        if section.page is not None and section.end_page is not None:
            item["end_page"] = section.end_page
            item["preview"] = preview(doc, section)
            item["images"] = image_count(doc, section)
            missing = unreadable_in(doc, section.page, section.end_page)
            if missing:
                item["unreadable"] = page_list(missing)
        if section.box is not None:
            item["bbox"] = bbox(section.box)
        if section.problem:
            item["problem"] = section.problem
        return item

    room = limit - size(response) - pager.longest(len(sections)) - _RESERVE
    stop = fill(response["sections"], range(start, len(sections)), entry, room)
    if stop is not None:
        response["next_cursor"] = pager.cursor(stop.item)
    return response
