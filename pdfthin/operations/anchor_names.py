"""How an anchor names a passage (:mod:`.anchors` parses and answers them): its string form,
and the range a chunk's anchor names.

Kept apart from :mod:`.anchors`, which answers anchors through the chunk locator, so the
operations that make chunks can name them without importing what reads them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pdfthin.model import Document
    from pdfthin.model.chunks import Chunk


def anchor_of(
    fingerprint: str, page: int, start: int, end: int, end_page: int | None = None
) -> str:
    """The anchor of a passage (``end`` in ``end_page``'s text when it is another page)."""
    pages = str(page) if end_page is None or end_page == page else f"{page}-{end_page}"
    return f"pdfthin:{fingerprint}/p/{pages}#c={start}-{end}"


def chunk_range(
    doc: Document, chunk: Chunk, following: Chunk | None
) -> tuple[int, int, int, int] | None:
    """The page text a chunk stands in, ``(page, start, end_page, end)``: from where its text
    starts to where the next chunk's starts, or to the end of its last page when the next
    starts on a later page (or there is none); ``end`` is an offset in ``end_page``'s text.
    ``None`` for a chunk with no text on a page (an unreadable page)."""
    if chunk.origin is None:
        return None
    page, start = chunk.origin
    last = chunk.spans[-1].page
    after = following.origin if following is not None else None
    if after is not None and after[0] <= last and after > chunk.origin:
        end_page, end = after
        if end == 0:  # it starts a page: this chunk ends with the page before
            end_page -= 1
            end = len(doc.page(end_page).text)
    else:
        end_page, end = last, len(doc.page(last).text)
    if (end_page, end) <= (page, start):
        return None
    return page, start, end_page, end


def chunk_anchor(doc: Document, chunk: Chunk, following: Chunk | None) -> str | None:
    """The anchor of the page text a chunk stands in (:func:`chunk_range`); ``None`` for a
    chunk with no text on a page (an unreadable page)."""
    found = chunk_range(doc, chunk, following)
    if found is None:
        return None
    page, start, end_page, end = found
    return anchor_of(doc.fingerprint, page, start, end, end_page)
