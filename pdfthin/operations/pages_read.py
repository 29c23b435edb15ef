"""The pages an overview answers from (``describe_document``, ``get_info``).

Pages are read on demand (docs/design.md, invariant 5): opening a document reads its profile's
sample of pages, and every later call reads what it returns. An overview does not read the rest
of a long document to count statuses or images: it answers from the pages read so far and says
which those are (``read``), or, with ``full``, reads every page first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pdfthin.operations.unreadable import page_list

if TYPE_CHECKING:
    from pdfthin.model import Document, Page
    from pdfthin.operations.types import PagesRead


def pages_read(doc: Document, full: bool) -> tuple[list[Page], PagesRead]:
    """The pages to answer from (every page when ``full``, else those at hand), and the
    ``read`` field that names them."""
    pages = list(doc.pages) if full else doc.pages_at_hand()
    read: PagesRead = {
        "pages": page_list([p.number for p in pages]),
        "count": len(pages),
        "complete": len(pages) == doc.page_count,
    }
    if not read["complete"]:
        read["message"] = (
            f"{len(pages)} of {doc.page_count} pages read so far: page statuses, counts and "
            "estimates cover these pages only; call again with full=true to read every page"
        )
    return pages, read
