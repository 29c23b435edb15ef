"""``get_info``: the facts of a document: metadata, page sizes and rotation, version,
encryption, tagging, page labels."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.describe import metadata_of
from pdfthin.operations.pages_read import pages_read
from pdfthin.operations.params import FULL
from pdfthin.operations.response import compact, document_ref
from pdfthin.operations.unreadable import report

if TYPE_CHECKING:
    from pdfthin.operations.types import InfoResponse, PageSize

#: Page-size groups and attachment names listed (the rest are counted elsewhere or cut).
MAX_PAGE_SIZES = 50
MAX_ATTACHMENTS = 100
#: Page labels listed before the list ends in "…".
MAX_LABELS = 200


def get_info(
    document: Source,
    *,
    full: bool | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> InfoResponse:
    context = context or default_context()
    doc = context.document(document, password)
    # The images placed are counted on the pages read (``read`` says which); every page's
    # size comes from the page tree, without reading the page.
    known, read = pages_read(doc, FULL.value(full))
    # Page geometry, grouped: most documents have one or two page sizes.
    sizes: dict[tuple[float, float, int], list[int]] = {}
    for number in range(1, doc.page_count + 1):
        sizes.setdefault(doc.size(number), []).append(number)
    page_sizes: list[PageSize] = [
        {"pages": compact(nums), "width": w, "height": h, "rotation": r, "unit": "pt"}
        for (w, h, r), nums in sizes.items()
    ]
    facts = doc.facts  # read once (a property: the first call reads them)
    response: InfoResponse = {
        "document": document_ref(doc),
        "metadata": metadata_of(doc),
        "page_sizes": page_sizes[:MAX_PAGE_SIZES],
        "outline_entries": len(doc.outline),
        "images": sum(len(p.images) for p in known),
        "forms": {"fields": facts.form_fields, "xfa": facts.xfa},
        "attachments": facts.attachments[:MAX_ATTACHMENTS],
        "links": facts.links,
        "annotations": facts.annotations,
        "read": read,
    }
    labels = doc.metadata.page_labels
    if labels:
        listed = labels[:MAX_LABELS]  # a copy: no list of the cached document leaves it
        response["page_labels"] = listed if len(labels) <= MAX_LABELS else [*listed, "…"]
    if doc.recovered:
        response["recovered"] = doc.recovered
    if doc.problems:
        response["problems"] = doc.problems[:20]
    unreadable = report(doc, [p.number for p in known])
    if unreadable:
        response["unreadable"] = unreadable
    return response
