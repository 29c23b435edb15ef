"""``get_page_image``: a page, or a region of it, as an image an agent's model can see, so
that the agent can read what the text layer does not hold (and give it back with
``submit_transcription``).

When the page is one scanned picture (:func:`pdfthin.model.page_image.scan_placement`), the
answer is that picture's own pixels, in pure Python: as stored (PNG re-encoded from its
samples, or JPEG as stored) for the whole page, cut to the region for a region (a JPEG is cut
with Pillow when it is installed). Otherwise (a page drawn from text and vectors, a picture in
a format a client does not show) the page is drawn by the rasterizer of the bound OCR binding
(:meth:`pdfthin.ocr.OcrBinding.rasterize`, as ``render_citation`` draws), and without one the
answer is ``renderer_unavailable``.
"""

from __future__ import annotations

import base64
import math
from typing import TYPE_CHECKING, Any

from pdfthin.errors import PdfthinError
from pdfthin.model.figures import placement_ids
from pdfthin.model.page_image import embedded_page_image, scan_placement
from pdfthin.operations.boxes import Rect, parse_boxes
from pdfthin.operations.citation import bbox_of, check_pixels, image_facts, on_page
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.params import IMAGE_PAGE, PAGE_DPI, PAGE_IMAGE_MAX_BYTES, REGION
from pdfthin.operations.response import bbox, document_ref
from pdfthin.pages import check_page

if TYPE_CHECKING:
    from pdfthin.operations.types import PageImageFile, PageImageResponse

Box = tuple[float, float, float, float]

#: What the answer suggests doing with the image.
NEXT_STEPS = (
    "read the image; if the page needs OCR, give its text with submit_transcription (same "
    "page, and the same region if you asked for one)"
)


def get_page_image(
    document: Source,
    *,
    page: int,
    region: Any = None,
    dpi: int | None = None,
    max_bytes: int | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> PageImageResponse:
    """The image of ``page`` (or of ``region`` of it), base64-encoded, as ``get_image``
    answers."""
    content, info = page_image_file(
        document,
        page=page,
        region=region,
        dpi=dpi,
        max_bytes=max_bytes,
        password=password,
        context=context,
    )
    return {**info, "encoding": "base64", "data": base64.b64encode(content).decode("ascii")}


def check_region(rect: Rect, number: int, width: float, height: float) -> Box:
    """``rect`` checked against page ``number`` (``width`` x ``height`` points as displayed)
    and cut to it; ``invalid_argument`` when it does not lie on the page."""
    if rect.page is not None and rect.page != number:
        raise PdfthinError(
            "invalid_argument",
            f"the region is on page {rect.page}, not page {number}",
            argument="region",
        )
    cut = on_page(rect.corners, number, width, height, "region")
    if cut is None:
        x0, y0, x1, y1 = rect.corners
        raise PdfthinError(
            "invalid_argument",
            f"the region {x0:g},{y0:g},{x1:g},{y1:g} does not lie on page {number}, which is "
            f"{width:g} x {height:g} points as displayed (origin top left)",
            argument="region",
            page=number,
            width=width,
            height=height,
        )
    return cut


def page_image_file(
    document: Source,
    *,
    page: int,
    region: Any = None,
    dpi: int | None = None,
    max_bytes: int | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> tuple[bytes, PageImageFile]:
    """The image's bytes and its description (what ``get_page_image`` answers but the
    data). ``max_bytes`` bounds the image's base64 text."""
    context = context or default_context()
    number: int = IMAGE_PAGE.check(page)
    rects = None if region is None else parse_boxes(REGION.check(region), REGION.name)
    if rects is not None and len(rects) != 1:
        raise PdfthinError("invalid_argument", "region must be one box", argument="region")
    resolution: int = PAGE_DPI.value(dpi)
    limit: int = PAGE_IMAGE_MAX_BYTES.value(max_bytes)
    doc = context.document(document, password)
    check_page(number, doc.page_count)
    the_page = doc.page(number)
    box = None if rects is None else check_region(rects[0], number, the_page.width, the_page.height)
    shown = box if box is not None else (0.0, 0.0, the_page.width, the_page.height)
    placement = scan_placement(the_page)
    info: PageImageFile
    with context.data(document, doc.fingerprint) as data, context.engine(data, password) as engine:
        picture = None
        if placement is not None:
            picture = embedded_page_image(engine, the_page, placement, box)
        if picture is not None:
            assert placement is not None
            content = picture.content
            image_id = placement_ids(number, the_page.images)[0]
            # Pixels per inch of the page: the stored picture's across the region shown.
            turned = picture.rotation in (90, 270)
            span = (shown[3] - shown[1]) if turned else (shown[2] - shown[0])
            info = {
                "document": document_ref(doc),
                "page": number,
                "region": bbox_of(shown),
                "source": "embedded_image",
                "media_type": picture.media_type,
                "width": picture.width,
                "height": picture.height,
                "dpi": round(picture.width * 72 / span, 1) if span > 0 else 0.0,
                "rotation": picture.rotation,
                "bytes": len(content),
                "next_steps": NEXT_STEPS,
                "image_id": image_id,
                "pixels": bbox(picture.pixels),
            }
            if picture.mirrored:
                info["mirrored"] = True
            if picture.notes:
                info["notes"] = list(picture.notes)
        else:
            binding = context.ocr
            if binding is None:
                why = (
                    "the page is not one scanned picture this server can show as it is"
                    if placement is None
                    else "the page's scan is stored in a form this server cannot show or cut "
                    "without a renderer, or placed skewed (not turned by a multiple of 90 "
                    "degrees)"
                )
                raise PdfthinError(
                    "renderer_unavailable",
                    f"{why}, and no rasterizer is bound to draw it (bind an OCR binding, e.g. "
                    "pdfthin.ocr.tesseract); read_pages gives its text layer, list_images and "
                    "get_image its pictures",
                    page=number,
                )
            check_pixels(shown, resolution)
            pdf = engine.citation_pdf(number, shown, [])
            content = b""
            info = _rasterized(doc, number, shown, resolution)
    if picture is None:
        image = context.ocr.rasterize(pdf, 1, resolution)
        content = image["image"]
        media_type, pixels = image_facts(content)
        info["media_type"] = media_type
        info["width"], info["height"] = pixels
        info["bytes"] = len(content)
    encoded = 4 * math.ceil(len(content) / 3)
    if encoded > limit:
        raise PdfthinError(
            "too_large",
            f"the page's image is {len(content)} bytes ({encoded} in base64); max_bytes is "
            f"{limit}: ask for a region of the page"
            + (" or a lower dpi" if info["source"] == "rasterizer" else ""),
            bytes=len(content),
            base64_bytes=encoded,
            max_bytes=limit,
        )
    return content, info


def _rasterized(doc: Any, number: int, shown: Box, resolution: int) -> PageImageFile:
    return {
        "document": document_ref(doc),
        "page": number,
        "region": bbox_of(shown),
        "source": "rasterizer",
        "media_type": "",
        "width": 0,
        "height": 0,
        "dpi": float(resolution),
        "rotation": 0,
        "bytes": 0,
        "next_steps": NEXT_STEPS,
    }
