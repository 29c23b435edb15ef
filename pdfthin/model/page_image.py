"""A page's own image: when a page is one embedded picture (a scan), that picture is the page,
and an agent can be shown it (or a region of it) without any renderer.

A page is *one image* when it draws a single image (not a stencil mask) covering at least
:data:`SCAN_COVER` of its area and has no visible text layer (its status is not ``text``, or
its text is a scanner's invisible OCR layer). A region of the page, in points on the page as
displayed, is mapped to the picture's pixels through the picture's box on the page and the
page's ``/Rotate``: the picture's rows are stored as the page's user space holds them, so on a
page turned by ``/Rotate`` the stored picture is turned too, and the answer says by how much
(the pixels are not turned: that would need per-pixel work). The picture is taken to be placed
upright by its own matrix, as scanners and every scanning program place it; a picture placed
turned or mirrored (rare) is cut as though upright.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pdfthin.engine import EngineDocument, ImagePlacement
from pdfthin.images import pillow
from pdfthin.images.crop import MAX_PIXELS, crop_png
from pdfthin.model.document import Page
from pdfthin.model.images import render_image

#: The share of a page's area one image must cover for the page to be that image.
SCAN_COVER = 0.9
#: The formats an agent's client shows (as image content): the picture is answered as it is
#: only in one of them.
VIEWABLE = ("image/png", "image/jpeg")

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class PageImage:
    """The picture of a page (or of a region of it) and where it came from."""

    content: bytes
    media_type: str
    width: int
    height: int
    #: The pixels of the stored picture shown: ``(x0, y0, x1, y1)``.
    pixels: tuple[int, int, int, int]
    #: Degrees to turn the image clockwise to see it as the page is displayed.
    rotation: int
    #: The stored picture's size, in pixels.
    stored: tuple[int, int]
    notes: tuple[str, ...] = ()


def scan_placement(page: Page) -> ImagePlacement | None:
    """The picture the page is, when it is one (see the module's docstring)."""
    if len(page.images) != 1 or (page.status == "text" and not page.ocr_layer):
        return None
    placement = page.images[0]
    if placement.image_mask or placement.width < 1 or placement.height < 1:
        return None
    x0, y0, x1, y1 = placement.bbox
    shown = max(0.0, min(x1, page.width) - max(x0, 0.0)) * max(
        0.0, min(y1, page.height) - max(y0, 0.0)
    )
    if shown < SCAN_COVER * page.width * page.height:
        return None
    return placement


def pixel_box(
    region: Box, placement: Box, rotation: int, width: int, height: int
) -> tuple[int, int, int, int] | None:
    """The pixels of a picture of ``width`` x ``height`` placed upright on ``placement`` (a
    box on the page as displayed) that show ``region`` (a box on the page as displayed) of a
    page turned by ``rotation``; ``None`` when the region and the picture do not meet."""
    bx0, by0, bx1, by1 = placement
    if bx1 - bx0 <= 0 or by1 - by0 <= 0:
        return None
    u0 = (max(region[0], bx0) - bx0) / (bx1 - bx0)
    u1 = (min(region[2], bx1) - bx0) / (bx1 - bx0)
    v0 = (max(region[1], by0) - by0) / (by1 - by0)
    v1 = (min(region[3], by1) - by0) / (by1 - by0)
    if u1 <= u0 or v1 <= v0:
        return None
    corners = [_stored(u, v, rotation) for u in (u0, u1) for v in (v0, v1)]
    s0, s1 = min(c[0] for c in corners), max(c[0] for c in corners)
    t0, t1 = min(c[1] for c in corners), max(c[1] for c in corners)
    x0, x1 = math.floor(s0 * width), math.ceil(s1 * width)
    y0, y1 = math.floor(t0 * height), math.ceil(t1 * height)
    x0, y0 = max(0, min(x0, width - 1)), max(0, min(y0, height - 1))
    x1, y1 = max(x0 + 1, min(x1, width)), max(y0 + 1, min(y1, height))
    return x0, y0, x1, y1


def _stored(u: float, v: float, rotation: int) -> tuple[float, float]:
    """Where a point of the displayed picture (``u`` right, ``v`` down, 0..1) stands in the
    stored picture (its columns and rows, 0..1), the page being turned by ``rotation``
    degrees clockwise for display."""
    if rotation == 90:
        return v, 1 - u
    if rotation == 180:
        return 1 - u, 1 - v
    if rotation == 270:
        return 1 - v, u
    return u, v


def embedded_page_image(
    engine: EngineDocument,
    page: Page,
    placement: ImagePlacement,
    region: Box | None,
) -> PageImage | None:
    """The page's own picture, or the part of it that shows ``region``; ``None`` when it
    cannot be answered without a renderer (a format an agent's client does not show, a JPEG
    to cut without Pillow, a region beside the picture)."""
    rendered = render_image(engine, placement, page.number)
    if rendered.media_type not in VIEWABLE:
        return None
    width, height = rendered.width, rendered.height
    rotation = page.rotation % 360
    full = (0, 0, width, height)
    if region is None:
        return PageImage(
            rendered.content,
            rendered.media_type,
            width,
            height,
            full,
            rotation,
            (width, height),
            tuple(rendered.notes),
        )
    box = pixel_box(region, placement.bbox, rotation, width, height)
    if box is None:
        return None
    if rendered.media_type == "image/png":
        try:
            content, box = crop_png(rendered.content, box)
        except ValueError:
            return None
    else:
        cut = pillow.crop_to_png(rendered.content, box, MAX_PIXELS)
        if cut is None:
            return None
        content = cut
    return PageImage(
        content,
        "image/png",
        box[2] - box[0],
        box[3] - box[1],
        box,
        rotation,
        (width, height),
        tuple(rendered.notes),
    )
