"""``get_toc``: the section tree (from the outline, else from detected headings), paginated
inside the budget."""

from __future__ import annotations

from typing import Any

from ..model.sections import image_count, preview, section_tree
from . import cursor as cur
from .context import Context, Source, budget, default_context
from .response import TITLE_SOURCES, size
from .unreadable import attach, page_list, unreadable_in

#: Room for the quotes around the cursor (whose longest form is measured).
_RESERVE = 8


def get_toc(
    document: Source,
    *,
    max_chars: int | None = None,
    cursor: str | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> dict[str, Any]:
    context = context or default_context()
    limit = budget(max_chars, context)
    doc = context.document(document, password)
    tree = section_tree(doc)
    sections = tree.sections
    args = cur.args_digest(op="toc")
    start = 0
    if cursor is not None:
        c = cur.decode(cursor, context.cursor_key)
        cur.check(c, op="toc", fingerprint=doc.fingerprint, ocr=False, args=args)
        start = cur.resume_at(c, len(sections))
    response: dict[str, Any] = {
        "document": {"fingerprint": doc.fingerprint, "page_count": doc.page_count},
        "source": tree.source,
        "total_sections": len(sections),
        "sections": [],
        "next_cursor": None,
    }
    if doc.outline_problems and start == 0 and tree.source == "outline":
        response["problems"] = doc.outline_problems[:20]
    # The whole document: headings are sought on every page, and previews come from them.
    attach(response, doc, range(1, doc.page_count + 1))
    longest = cur.encode(
        cur.Cursor(
            op="toc",
            fingerprint=cur.fingerprint_prefix(doc.fingerprint),
            ocr=False,
            args=args,
            index=len(sections),
        ),
        context.cursor_key,
    )
    used = size(response) + len(longest) + _RESERVE
    index = start
    entries: list[dict[str, Any]] = response["sections"]
    title_source = TITLE_SOURCES[tree.source]
    while index < len(sections):
        section = sections[index]
        entry: dict[str, Any] = {
            "id": section.id,
            "title": section.title,
            "title_source": title_source,
            "level": section.level,
            "page": section.page,
        }
        if section.page is not None and section.end_page is not None:
            entry["end_page"] = section.end_page
            entry["preview"] = preview(doc, section)
            entry["images"] = image_count(doc, section)
            missing = unreadable_in(doc, section.page, section.end_page)
            if missing:
                entry["unreadable"] = page_list(missing)
        if section.problem:
            entry["problem"] = section.problem
        cost = size(entry) + 1
        if used + cost > limit and entries:
            break
        entries.append(entry)
        used += cost
        index += 1
    if index < len(sections):
        response["next_cursor"] = cur.encode(
            cur.Cursor(
                op="toc",
                fingerprint=cur.fingerprint_prefix(doc.fingerprint),
                ocr=False,
                args=args,
                index=index,
            ),
            context.cursor_key,
        )
    return response
