"""``get_toc``: the section tree (from the outline, else from detected headings), paginated
inside the budget."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pdfthin.model.sections import image_count, preview, section_tree
from pdfthin.operations import cursor as cur
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.paging import Pager, fill
from pdfthin.operations.params import budget
from pdfthin.operations.response import TITLE_SOURCES, bbox, document_ref, size
from pdfthin.operations.unreadable import page_list, report, unreadable_in

if TYPE_CHECKING:
    from pdfthin.operations.types import TocEntry, TocNode, TocResponse

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
        "tree": [],
        "next_cursor": None,
    }
    if start == 0 and doc.outline and tree.source != "outline":
        response["problems"] = [
            f"the outline's {len(doc.outline)} bookmarks lead nowhere and none of their titles "
            f"is a heading found; the sections are the {tree.source}"
        ]
    elif doc.outline_problems and start == 0:
        response["problems"] = doc.outline_problems[:MAX_PROBLEMS]
    # The whole document: headings are sought on every page, and previews come from them.
    unreadable = report(doc, range(1, doc.page_count + 1), limit)
    if unreadable:
        response["unreadable"] = unreadable
    title_source = TITLE_SOURCES[tree.source]

    def entry(index: int) -> tuple[TocEntry, TocNode]:
        section = sections[index]
        item: TocEntry = {
            "id": section.id,
            "title": section.title,
            "title_source": title_source,
            "level": section.level,
            "depth": section.depth,
            "page": section.page,
            "parent": None if section.parent is None else sections[section.parent].id,
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
        node: TocNode = {
            "id": section.id,
            "title": section.title,
            "title_source": title_source,
            "page": section.page,
            "children": [],
        }
        return item, node

    # Each section is measured with its node in the tree (a pair costs a few characters more
    # than the two apart, which keeps the sum on the safe side).
    room = limit - size(response) - pager.longest(len(sections)) - _RESERVE
    pairs: list[tuple[TocEntry, TocNode]] = []

    def lean(index: int, _room: int) -> tuple[tuple[TocEntry, TocNode], None]:
        """A section whose whole entry does not fit (a small budget, a long report): without
        its preview and its box (read_section, or a larger budget, gives them)."""
        item, node = entry(index)
        item.pop("preview", None)
        item.pop("bbox", None)
        return (item, node), None

    stop = fill(pairs, range(start, len(sections)), entry, room, split=lean)
    response["sections"] = [item for item, _ in pairs]
    response["tree"] = _nest(pairs)
    if stop is not None:
        response["next_cursor"] = pager.cursor(stop.item)
    # The outline's problems go with the first answer; at the smallest budgets the last of
    # them give way to one line that counts them (a larger budget lists them all).
    problems = response.get("problems", [])
    shown = len(problems)
    while size(response) > limit and shown > 1:
        shown -= 1
        more = f"{len(problems) - shown} more problem(s): ask with a larger max_chars"
        response["problems"] = [*problems[:shown], more]
    return response


def _nest(pairs: list[tuple[TocEntry, TocNode]]) -> list[TocNode]:
    """The nodes nested under their parents; a node whose parent is not among them is a root."""
    nodes = {item["id"]: node for item, node in pairs}
    roots: list[TocNode] = []
    for item, node in pairs:
        parent = nodes.get(item.get("parent") or "")
        (parent["children"] if parent is not None else roots).append(node)
    return roots
