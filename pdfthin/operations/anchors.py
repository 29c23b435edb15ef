"""Passage anchors (invariant 14): a string that names a passage of a document independently of
the surface that gave it, and ``resolve_anchor``, which answers it.

``pdfthin:<fingerprint>/p/<page>#c=<start>-<end>``: the document's fingerprint (SHA-256 of its
bytes, hex), the 1-based page, and the passage's character range in that page's plain text
(the offsets ``find_in_document`` answers with; end exclusive). A passage that runs on across a
page break names both pages, ``/p/<page>-<end_page>``, its start in the first page's text and
its end in the last's. The page texts are a function of the file (invariant 5), so an anchor
stays valid for as long as the file is the same, on every surface; a different file (another
fingerprint) makes it ``stale``, never a passage of the wrong document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdfthin.errors import PdfthinError
from pdfthin.operations.anchor_names import anchor_of
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.locate import chunk_holding, match_boxes
from pdfthin.operations.params import ANCHOR
from pdfthin.operations.response import document_summary

if TYPE_CHECKING:
    from pdfthin.model import Document
    from pdfthin.operations.types import ResolveResponse

__all__ = ["Anchor", "anchor_of", "parse_anchor", "passage_text", "resolve_anchor"]

_PARTS = re.compile(
    r"^pdfthin:(?P<fp>[0-9a-f]{64})/p/(?P<page>\d+)(?:-(?P<end_page>\d+))?"
    r"#c=(?P<start>\d+)-(?P<end>\d+)$"
)


@dataclass(frozen=True)
class Anchor:
    fingerprint: str
    page: int
    start: int
    end_page: int
    end: int


def parse_anchor(anchor: str) -> Anchor:
    """The parts of an anchor; ``invalid_argument`` (argument ``anchor``) when it is not one."""
    ANCHOR.check(anchor)
    m = _PARTS.match(anchor)
    if m is None:  # pragma: no cover - the declaration's pattern refused it already
        raise _bad(anchor, "it is not pdfthin:<fingerprint>/p/<page>#c=<start>-<end>")
    page = int(m["page"])
    end_page = int(m["end_page"]) if m["end_page"] else page
    start, end = int(m["start"]), int(m["end"])
    if m["end_page"] and end_page <= page:
        raise _bad(anchor, "its end page must come after its page (one page is /p/<page>)")
    if end_page == page and end <= start:
        raise _bad(anchor, "its range is empty or runs backwards (end must exceed start)")
    return Anchor(m["fp"], page, start, end_page, end)


def _bad(anchor: str, why: str) -> PdfthinError:
    return PdfthinError("invalid_argument", f"anchor is malformed: {why}", argument="anchor")


def check_passage(doc: Document, parts: Anchor, anchor: str) -> None:
    """Nothing when the passage ``parts`` (of ``anchor``, made on ``doc``'s file) lies in
    ``doc``: ``invalid_pages`` for a page past its last, ``invalid_argument`` for a range
    past its page's text."""
    for number in (parts.page, parts.end_page):
        if number > doc.page_count:
            raise PdfthinError(
                "invalid_pages",
                f"the anchor names page {number}; the document has {doc.page_count} pages",
                page_count=doc.page_count,
            )
    first, last = doc.page(parts.page), doc.page(parts.end_page)
    if parts.start > len(first.text) or parts.end > len(last.text):
        raise _bad(anchor, "its range is outside the page's text (this file never made it)")


def passage_text(doc: Document, page: int, start: int, end_page: int, end: int) -> str:
    """The passage as it stands in the document: page texts joined by a newline."""
    if end_page == page:
        return doc.page(page).text[start:end]
    middle = [doc.page(n).text for n in range(page + 1, end_page)]
    return "\n".join([doc.page(page).text[start:], *middle, doc.page(end_page).text[:end]])


def resolve_anchor(
    document: Source,
    anchor: str,
    *,
    password: str | None = None,
    context: Context | None = None,
) -> ResolveResponse:
    context = context or default_context()
    parts = parse_anchor(anchor)
    doc = context.document(document, password)
    response: ResolveResponse = {
        "document": document_summary(doc),
        "anchor": anchor,
        "status": "ok",
        "message": "",
    }
    if parts.fingerprint != doc.fingerprint:
        response["status"] = "stale"
        response["anchor_fingerprint"] = parts.fingerprint
        response["message"] = (
            "the anchor was made on another file (its fingerprint is not this document's): "
            "verify the quote again on this document"
        )
        return response
    check_passage(doc, parts, anchor)
    first = doc.page(parts.page)
    response["page"] = parts.page
    response["start"] = parts.start
    response["end"] = parts.end
    response["text"] = passage_text(doc, parts.page, parts.start, parts.end_page, parts.end)
    response["bbox"] = match_boxes(doc, parts.page, parts.start, parts.end, parts.end_page)
    response["breadcrumb"] = []
    response["message"] = f"the passage on page {parts.page}" + (
        f" to {parts.end_page}" if parts.end_page != parts.page else ""
    )
    if parts.end_page != parts.page:
        response["end_page"] = parts.end_page
    chunk = chunk_holding(doc, parts.page, parts.start)
    if chunk is not None:
        response["chunk_id"] = chunk.id
        response["breadcrumb"] = list(chunk.breadcrumb)
    if first.label:
        response["page_label"] = first.label  # the file's page label, not page text
    return response
