"""A page's own image: when a page is one embedded picture (a scan), that picture is the page,
and an agent can be shown it (or a region of it) without any renderer.

A page is *one image* when it draws a single image (not a stencil mask) covering at least
:data:`SCAN_COVER` of its area and has no visible text layer (its status is not ``text``, or
its text is a scanner's invisible OCR layer). A region of the page, in points on the page as
displayed, is mapped to the picture's pixels through the picture's box on the page and the
way it is placed there (:attr:`~pdfthin.engine.ImagePlacement.orientation`, which the
interpreter reads from the matrix the picture is drawn with, the page's ``/Rotate`` composed
in: the interpreter draws the page as displayed). On a page turned by ``/Rotate``, or for a
picture its own matrix places turned by a multiple of 90 degrees or mirrored (rare: scanners
and scanning programs place their pictures upright), the stored picture is turned or mirrored
on the page too, and the answer says how (``rotation``, and ``mirrored`` when it is): the
pixels are not turned, which would need per-pixel work. A picture placed skewed (turned by
other than a multiple of 90 degrees) is not cut or shown as stored: the page is the
rasterizer's to draw.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdfthin.images import pillow
from pdfthin.images.crop import MAX_PIXELS, crop_png
from pdfthin.model.images import render_image

if TYPE_CHECKING:
    from pdfthin.engine import EngineDocument, ImagePlacement
    from pdfthin.model.document import Page

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
    #: Degrees to turn the image clockwise to see it as the page is displayed (after
    #: flipping it left to right when :attr:`mirrored`).
    rotation: int
    #: The stored picture's size, in pixels.
    stored: tuple[int, int]
    notes: tuple[str, ...] = ()
    #: The picture is placed mirrored: flip it left to right, then turn it by :attr:`rotation`.
    mirrored: bool = False


#: Each orientation (:attr:`~pdfthin.engine.ImagePlacement.orientation`, an Exif orientation)
#: as a turn clockwise and whether to flip left to right first.
TURNS = {
    1: (0, False),
    2: (0, True),
    3: (180, False),
    4: (180, True),
    5: (270, True),
    6: (90, False),
    7: (90, True),
    8: (270, False),
}


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
    region: Box, placement: Box, orientation: int, width: int, height: int
) -> tuple[int, int, int, int] | None:
    """The pixels of a picture of ``width`` x ``height`` placed on ``placement`` (a box on the
    page as displayed) with ``orientation`` (see :data:`TURNS`) that show ``region`` (a box
    on the page as displayed); ``None`` when the region and the picture do not meet."""
    bx0, by0, bx1, by1 = placement
    if bx1 - bx0 <= 0 or by1 - by0 <= 0:
        return None
    u0 = (max(region[0], bx0) - bx0) / (bx1 - bx0)
    u1 = (min(region[2], bx1) - bx0) / (bx1 - bx0)
    v0 = (max(region[1], by0) - by0) / (by1 - by0)
    v1 = (min(region[3], by1) - by0) / (by1 - by0)
    if u1 <= u0 or v1 <= v0:
        return None
    corners = [_stored(u, v, orientation) for u in (u0, u1) for v in (v0, v1)]
    s0, s1 = min(c[0] for c in corners), max(c[0] for c in corners)
    t0, t1 = min(c[1] for c in corners), max(c[1] for c in corners)
    x0, x1 = math.floor(s0 * width), math.ceil(s1 * width)
    y0, y1 = math.floor(t0 * height), math.ceil(t1 * height)
    x0, y0 = max(0, min(x0, width - 1)), max(0, min(y0, height - 1))
    x1, y1 = max(x0 + 1, min(x1, width)), max(y0 + 1, min(y1, height))
    return x0, y0, x1, y1


def _stored(u: float, v: float, orientation: int) -> tuple[float, float]:
    """Where a point of the displayed picture (``u`` right, ``v`` down, 0..1) stands in the
    stored picture (its columns and rows, 0..1), the picture placed with ``orientation``
    (an Exif orientation: 6 is turned 90 degrees clockwise for display, as on a page of
    ``/Rotate 90``)."""
    if orientation == 2:
        return 1 - u, v
    if orientation == 3:
        return 1 - u, 1 - v
    if orientation == 4:
        return u, 1 - v
    if orientation == 5:
        return v, u
    if orientation == 6:
        return v, 1 - u
    if orientation == 7:
        return 1 - v, 1 - u
    if orientation == 8:
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
    to cut without Pillow, a region beside the picture, a picture placed skewed)."""
    if placement.orientation not in TURNS:
        return None
    rotation, mirrored = TURNS[placement.orientation]
    rendered = render_image(engine, placement, page.number)
    if rendered.media_type not in VIEWABLE:
        return None
    width, height = rendered.width, rendered.height
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
            mirrored,
        )
    box = pixel_box(region, placement.bbox, placement.orientation, width, height)
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
        mirrored,
    )
