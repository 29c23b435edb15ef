"""``get_toc``: the document outline (bookmarks), paginated inside the budget."""

from __future__ import annotations

from typing import Any

from ..errors import PdfthinError
from . import cursor as cur
from .context import Context, Source, budget, default_context
from .response import size

_RESERVE = 400


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
    args = cur.args_digest(op="toc")
    start = 0
    if cursor is not None:
        c = cur.decode(cursor)
        cur.check(
            c,
            op="toc",
            fingerprint=doc.fingerprint,
            ocr=False,
            args=args,
            page_count=doc.page_count,
        )
        start = c.offset
        if start > len(doc.outline):
            raise PdfthinError("invalid_cursor", "the cursor points past the end of the outline")
    response: dict[str, Any] = {
        "document": {"fingerprint": doc.fingerprint, "page_count": doc.page_count},
        "source": "outline",
        "total_entries": len(doc.outline),
        "entries": [],
        "next_cursor": None,
    }
    if doc.outline_problems and start == 0:
        response["problems"] = doc.outline_problems[:20]
    used = size(response) + _RESERVE
    index = start
    while index < len(doc.outline):
        item = doc.outline[index]
        entry: dict[str, Any] = {"title": item.title, "level": item.level, "page": item.page}
        if item.problem:
            entry["problem"] = item.problem
        cost = size(entry) + 1
        if used + cost > limit and response["entries"]:
            break
        response["entries"].append(entry)
        used += cost
        index += 1
    if index < len(doc.outline):
        response["next_cursor"] = cur.encode(
            cur.Cursor(
                op="toc",
                fingerprint=cur.fingerprint_prefix(doc.fingerprint),
                ocr=False,
                args=args,
                remaining=(1,),
                offset=index,
            )
        )
    return response
