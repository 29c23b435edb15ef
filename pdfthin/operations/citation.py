"""``render_citation``: an image of a passage where it stands on its page, highlighted.

The boxes (given, or an anchor's line boxes) are checked against the page as displayed; the
region shown is their union padded by :data:`MARGIN_POINTS`, within the page. The engine
writes that region of the page as a one-page PDF with the boxes filled in a multiplied yellow
(:mod:`pdfthin.engine.citation`), and the rasterizer of the bound OCR binding renders it
(:meth:`pdfthin.ocr.OcrBinding.rasterize`: its slots, timeout and cancellation, as OCR has
them). pdfthin draws no pixels itself and depends on no image library; without a binding the
answer is ``renderer_unavailable``.
"""

from __future__ import annotations

import base64
import math
import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pdfthin.errors import PdfthinError
from pdfthin.operations.anchors import check_passage, parse_anchor
from pdfthin.operations.boxes import Rect, parse_boxes
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.locate import match_boxes
from pdfthin.operations.params import (
    BBOX,
    CITATION_ANCHOR,
    CITATION_MAX_BYTES,
    CITATION_PAGE,
    DPI,
)
from pdfthin.operations.response import bbox, document_ref
from pdfthin.pages import check_page

if TYPE_CHECKING:
    from pdfthin.model import Document
    from pdfthin.operations.types import CitationFile, CitationResponse

#: Points of the page shown around the highlighted boxes (their context: the words before and
#: after, the line above and below), cut at the page's edges.
MARGIN_POINTS = 24.0
#: A box may stand this far past the page's edge (points) and is cut to it: the boxes pdfthin
#: answers with are rounded, and glyphs may overhang the edge. Further out is a mistake.
EDGE_TOLERANCE = 1.0
#: The largest image asked of a rasterizer, in pixels (about 4000 x 4000).
MAX_PIXELS = 16_000_000
#: The image formats a citation comes in (what MCP clients display), by their first bytes.
_PNG = b"\x89PNG\r\n\x1a\n"
_JPEG = b"\xff\xd8\xff"
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Citation:
    """What to draw: the page, the boxes on it and the region around them (points, on the
    page as displayed)."""

    page: int
    highlights: tuple[Box, ...]
    region: Box


def render_citation(
    document: Source,
    *,
    page: int | None = None,
    bbox: Any = None,
    anchor: str | None = None,
    dpi: int | None = None,
    max_bytes: int | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> CitationResponse:
    """An image (PNG) of the region of ``page`` around ``bbox`` (or the passage ``anchor``
    names), the boxes highlighted; base64-encoded, as ``get_image`` answers."""
    content, info = citation_file(
        document,
        page=page,
        bbox=bbox,
        anchor=anchor,
        dpi=dpi,
        max_bytes=max_bytes,
        password=password,
        context=context,
    )
    return {**info, "encoding": "base64", "data": base64.b64encode(content).decode("ascii")}


def citation_file(
    document: Source,
    *,
    page: int | None = None,
    bbox: Any = None,
    anchor: str | None = None,
    dpi: int | None = None,
    max_bytes: int | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> tuple[bytes, CitationFile]:
    """The citation's image bytes and its description (what ``render_citation`` answers but
    the data). ``max_bytes`` bounds the image's base64 text."""
    context = context or default_context()
    page = CITATION_PAGE.value(page)
    rects = None if bbox is None else parse_boxes(bbox, BBOX.name)
    anchor = CITATION_ANCHOR.value(anchor)
    resolution: int = DPI.value(dpi)
    limit: int = CITATION_MAX_BYTES.value(max_bytes)
    if (rects is None) == (anchor is None):
        raise PdfthinError(
            "invalid_argument",
            "render_citation takes bbox (with the page it is on) or an anchor, one of them",
            argument="bbox",
        )
    binding = context.ocr
    if binding is None:
        raise PdfthinError(
            "renderer_unavailable",
            "no rasterizer is bound to render the citation (bind an OCR binding, e.g. "
            "pdfthin.ocr.tesseract, whose rasterizer draws pages); the boxes can be drawn "
            "over the page by the client instead",
        )
    doc = context.document(document, password)
    if anchor is not None:
        number, boxes = _anchored(doc, anchor, page)
    else:
        assert rects is not None
        number, boxes = _given(rects, page)
    check_page(number, doc.page_count)
    with context.data(document, doc.fingerprint) as data, context.engine(data, password) as engine:
        width, height, _ = engine.page_size(number)
        citation = _citation(number, boxes, width, height, clip=anchor is not None)
        check_pixels(citation.region, resolution)
        pdf = engine.citation_pdf(number, citation.region, list(citation.highlights))
    image = binding.rasterize(pdf, 1, resolution)
    content = image["image"]
    media_type, pixels = image_facts(content)
    encoded = 4 * math.ceil(len(content) / 3)
    if encoded > limit:
        raise PdfthinError(
            "too_large",
            f"the citation's image is {len(content)} bytes ({encoded} in base64); max_bytes is "
            f"{limit}: ask again with a lower dpi",
            bytes=len(content),
            base64_bytes=encoded,
            max_bytes=limit,
        )
    info: CitationFile = {
        "document": document_ref(doc),
        "page": number,
        "region": bbox_of(citation.region),
        "highlights": [bbox_of(box) for box in citation.highlights],
        "dpi": resolution,
        "media_type": media_type,
        "width": pixels[0],
        "height": pixels[1],
        "bytes": len(content),
    }
    if anchor is not None:
        info["anchor"] = anchor
    return content, info


def bbox_of(box: Box) -> Any:
    return bbox((round(box[0], 2), round(box[1], 2), round(box[2], 2), round(box[3], 2)))


def _given(rects: tuple[Rect, ...], page: int | None) -> tuple[int, list[Box]]:
    """The page of the boxes given (``page``, or the one the boxes name) and the boxes."""
    named = {rect.page for rect in rects if rect.page is not None}
    if page is None and len(named) == 1:
        page = next(iter(named))
    if page is None:
        why = "boxes on several pages: one image shows one page" if named else "no page"
        raise PdfthinError(
            "invalid_argument", f"bbox needs the page it is on ({why})", argument="page"
        )
    if named - {page}:
        raise PdfthinError(
            "invalid_argument",
            f"a box of bbox is on page {min(named - {page})}, not page {page}",
            argument="bbox",
        )
    return page, [rect.corners for rect in rects]


def _anchored(doc: Document, anchor: str, page: int | None) -> tuple[int, list[Box]]:
    """The page of the passage ``anchor`` names (its first, or ``page`` among its pages) and
    its line boxes on it."""
    parts = parse_anchor(anchor)
    if parts.fingerprint != doc.fingerprint:
        raise PdfthinError(
            "invalid_argument",
            "the anchor was made on another file (its fingerprint is not this document's): "
            "verify the quote again on this document",
            argument="anchor",
            stale=True,
        )
    check_passage(doc, parts, anchor)
    number = parts.page if page is None else page
    if not parts.page <= number <= parts.end_page:
        raise PdfthinError(
            "invalid_argument",
            f"the anchor's passage is on page {parts.page}"
            + (f" to {parts.end_page}" if parts.end_page != parts.page else "")
            + f", not page {number}",
            argument="page",
        )
    boxes = [
        (box["x0"], box["y0"], box["x1"], box["y1"])
        for box in match_boxes(doc, parts.page, parts.start, parts.end, parts.end_page)
        if box["page"] == number
    ]
    if not boxes:
        raise PdfthinError(
            "invalid_argument",
            f"the passage has no box on page {number} (the page has no text layer there)",
            argument="anchor",
        )
    return number, boxes


def on_page(
    box: Box, number: int, width: float, height: float, argument: str, clip: bool = False
) -> Box | None:
    """``box`` cut to page ``number`` (``width`` x ``height`` points as displayed); ``None``
    when nothing of it is left. A box further than :data:`EDGE_TOLERANCE` outside the page is
    ``invalid_argument`` (naming ``argument``), unless ``clip`` (pdfthin's own boxes)."""
    x0, y0, x1, y1 = box
    outside = x0 < -EDGE_TOLERANCE or y0 < -EDGE_TOLERANCE
    outside |= x1 > width + EDGE_TOLERANCE or y1 > height + EDGE_TOLERANCE
    if outside and not clip:
        raise PdfthinError(
            "invalid_argument",
            f"the {'box' if argument == 'bbox' else argument} {x0:g},{y0:g},{x1:g},{y1:g} does "
            f"not lie on page {number}, which is {width:g} x {height:g} points as displayed "
            "(origin top left)",
            argument=argument,
            page=number,
            width=width,
            height=height,
        )
    cut = (max(x0, 0.0), max(y0, 0.0), min(x1, width), min(y1, height))
    return cut if cut[2] > cut[0] and cut[3] > cut[1] else None


def _citation(number: int, boxes: list[Box], width: float, height: float, clip: bool) -> Citation:
    """The boxes checked against the page (:func:`on_page`; ``clip`` for pdfthin's own boxes:
    cut to the page, a box left empty dropped) and the region around them."""
    cuts = (on_page(box, number, width, height, "bbox", clip) for box in boxes)
    kept = [cut for cut in cuts if cut is not None]
    if not kept:
        raise PdfthinError(
            "invalid_argument", f"no box lies on page {number}", argument="bbox", page=number
        )
    region = (
        max(min(b[0] for b in kept) - MARGIN_POINTS, 0.0),
        max(min(b[1] for b in kept) - MARGIN_POINTS, 0.0),
        min(max(b[2] for b in kept) + MARGIN_POINTS, width),
        min(max(b[3] for b in kept) + MARGIN_POINTS, height),
    )
    return Citation(number, tuple(kept), region)


def check_pixels(region: Box, dpi: int) -> None:
    """``too_large`` when the region at ``dpi`` is more than :data:`MAX_PIXELS`."""
    width, height = region[2] - region[0], region[3] - region[1]
    pixels = math.ceil(width * dpi / 72) * math.ceil(height * dpi / 72)
    if pixels <= MAX_PIXELS:
        return
    fits = int(72 * math.sqrt(MAX_PIXELS / (width * height)))
    raise PdfthinError(
        "too_large",
        f"the region is {width:.0f} x {height:.0f} points: {pixels} pixels at {dpi} dpi, more "
        f"than {MAX_PIXELS}; ask with a dpi of at most {fits} or fewer boxes",
        pixels=pixels,
        max_pixels=MAX_PIXELS,
        dpi_that_fits=fits,
    )


def image_facts(content: Any) -> tuple[str, tuple[int, int]]:
    """The media type and pixel size of the rasterizer's image (PNG or JPEG);
    ``renderer_unavailable`` for anything else."""
    if isinstance(content, bytes):
        if content.startswith(_PNG) and content[12:16] == b"IHDR" and len(content) >= 24:
            width, height = struct.unpack(">II", content[16:24])
            return "image/png", (width, height)
        if content.startswith(_JPEG):
            size = _jpeg_size(content)
            if size is not None:
                return "image/jpeg", size
    raise PdfthinError(
        "renderer_unavailable",
        "the rasterizer's image is neither PNG nor JPEG (a citation is answered as one of them)",
    )


#: JPEG's start-of-frame markers (every SOFn but DHT, JPG and DAC), which hold the size.
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The width and height in a JPEG's frame header (``None`` when it has none)."""
    at = 2
    while at + 9 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill bytes
            at += 1
            continue
        length = struct.unpack(">H", data[at + 2 : at + 4])[0]
        if marker in _SOF:
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return (width, height)
        at += 2 + length
    return None
