"""Where a piece of a page's plain text stands: the boxes of the lines it covers, and the chunk
(of the default chunking) that holds it. Shared by ``find`` and ``search_chunks``.

The chunk of a place comes from the document's default chunking (``max_tokens``
:data:`~pdfthin.model.chunks.DEFAULT_MAX_TOKENS`, stitched, every page), made lazily and kept
with the document: asking about page ``n`` makes the chunks up to the first one past it, so
it lays out the pages up to ``n`` (and one page beyond, at most, for a chunk stitched across).
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from typing import TYPE_CHECKING

from pdfthin.model.chunks import DEFAULT_MAX_TOKENS, Chunk
from pdfthin.model.markdown import line_boxes_between
from pdfthin.operations.chunks import ChunkStream, chunk_stream
from pdfthin.operations.response import bbox

if TYPE_CHECKING:
    from pdfthin.model import Document
    from pdfthin.operations.types import PageBox


def line_boxes(doc: Document, page: int, start: int, end: int) -> list[PageBox]:
    """The boxes of the lines that ``start``-``end`` of the page's plain text covers, in
    reading order (a table's box for a match in a table); none on a page without a text
    layer."""
    found = doc.page(page)
    out: list[PageBox] = []
    for anchor in found.anchors:
        if anchor.plain < 0:
            continue
        lo = max(start, anchor.plain)
        hi = min(end, anchor.plain + anchor.plain_length)
        if lo >= hi:
            continue
        for box in line_boxes_between(anchor, lo - anchor.plain, hi - anchor.plain):
            out.append({"page": page, **bbox(box)})
    return out


def match_boxes(
    doc: Document, page: int, start: int, end: int, end_page: int | None = None
) -> list[PageBox]:
    """:func:`line_boxes` of a match, which may run on across a page break (``end_page``,
    ``end`` then an offset in that page's text)."""
    if end_page is None or end_page == page:
        return line_boxes(doc, page, start, end)
    first = line_boxes(doc, page, start, len(doc.page(page).text))
    return first + line_boxes(doc, end_page, 0, end)


class _Locator:
    """The chunks' starts, in order, grown from the document's chunk stream as asked."""

    def __init__(self, stream: ChunkStream) -> None:
        self.stream = stream
        self.origins: list[tuple[int, int]] = []
        self.chunks: list[Chunk] = []
        self.taken = 0
        self.lock = threading.Lock()

    def chunk_at(self, page: int, offset: int) -> Chunk | None:
        place = (page, offset)
        with self.lock:
            while not self.origins or self.origins[-1] <= place:
                chunk = self.stream.get(self.taken)
                if chunk is None:
                    break
                self.taken += 1
                if chunk.origin is not None:
                    self.origins.append(chunk.origin)
                    self.chunks.append(chunk)
            at = bisect_right(self.origins, place) - 1
            return self.chunks[at] if at >= 0 else None


def chunk_at(doc: Document, page: int, offset: int) -> str | None:
    """The id of the default chunking's chunk whose text holds ``offset`` of the page's plain
    text (``None`` when no chunk does: a page without a text layer)."""
    chunk = chunk_holding(doc, page, offset)
    return None if chunk is None else chunk.id


def chunk_holding(doc: Document, page: int, offset: int) -> Chunk | None:
    """The default chunking's chunk whose text holds ``offset`` of the page's plain text (its
    id and breadcrumb), as :func:`chunk_at`."""
    if doc.page(page).status == "needs_ocr":
        return None
    with _LOCK:
        locator = doc.derived.get("chunk_locator")
        if not isinstance(locator, _Locator):
            every = list(range(1, doc.page_count + 1))
            locator = _Locator(chunk_stream(doc, every, DEFAULT_MAX_TOKENS, True))
            doc.derived["chunk_locator"] = locator
    return locator.chunk_at(page, offset)


_LOCK = threading.Lock()
