"""An image's file: the stored picture of one placement, turned into a file a client opens.

JPEG and JPEG 2000 as stored; Flate, LZW, RunLength, ASCII and unfiltered samples re-encoded as
PNG in pure Python (:mod:`pdfthin.images`); CCITT fax data as PNG when Pillow is installed,
else as a TIFF that wraps the stored bytes; JBIG2 as a JBIG2 file wrapping the stored segments.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pdfthin.engine import EngineDocument, ImagePlacement, StoredImage, load_image
from pdfthin.errors import PdfthinError
from pdfthin.images import jbig2, pillow
from pdfthin.images.convert import to_png
from pdfthin.images.tiff import ccitt_tiff
from pdfthin.images.types import MaskSamples, Raster

#: The signature box that starts a JPEG 2000 file (JP2); without it the data is a bare
#: codestream (J2C).
JP2_SIGNATURE = b"\x00\x00\x00\x0cjP  \r\n\x87\n"


@dataclass(frozen=True, slots=True)
class RenderedImage:
    """An image's file and what it is."""

    content: bytes
    media_type: str
    format: str
    extension: str
    stored_format: str
    width: int
    height: int
    #: approximations, and what was left out
    notes: list[str] = field(default_factory=list)


def render_image(engine: EngineDocument, placement: ImagePlacement, page: int) -> RenderedImage:
    """The file for one placement of an image on ``page``: what is stored where a viewer
    opens it as it is (JPEG, JPEG 2000), else PNG (or TIFF, JBIG2) made from its samples."""
    stored = load_image(engine, placement, page)
    notes = list(stored.problems)
    kind = stored.stored_format
    if kind in ("jpeg", "jpx"):
        content = stored.codec_data or b""
        if not content:
            raise PdfthinError("malformed", "the image has no data")
        if kind == "jpeg":
            media, fmt, ext = "image/jpeg", "jpeg", "jpg"
        elif content.startswith(JP2_SIGNATURE):
            media, fmt, ext = "image/jp2", "jp2", "jp2"
        else:
            media, fmt, ext = "image/j2c", "j2c", "j2c"  # a bare JPEG 2000 codestream
    elif kind == "ccitt":
        content, media, fmt, ext = _ccitt(engine, stored, placement, notes)
    elif kind == "jbig2":
        content = jbig2.jbig2_file(stored.codec_data or b"", stored.jbig2_globals)
        media, fmt, ext = "image/x-jbig2", "jbig2", "jb2"
        notes.append(
            "JBIG2 is returned as stored, in a JBIG2 file; few viewers open it (jbig2dec does)"
        )
    else:
        if stored.samples is None:
            raise PdfthinError("malformed", "the image has no data")
        soft_mask = _usable_mask(stored.soft_mask, "soft mask", notes)
        stencil_mask = _usable_mask(stored.stencil_mask, "mask", notes)
        raster = Raster(
            width=stored.width,
            height=stored.height,
            bits_per_component=stored.bits_per_component,
            samples=stored.samples,
            color_space=stored.color_space,
            decode=stored.decode,
            image_mask=stored.image_mask,
            soft_mask=soft_mask,
            stencil_mask=stencil_mask,
            color_key=stored.color_key,
            notes=notes,
        )
        content = to_png(raster, max_work_bytes=4 * engine.limits.max_stream_bytes)
        media, fmt, ext = "image/png", "png", "png"
    return RenderedImage(content, media, fmt, ext, kind, stored.width, stored.height, notes)


def _usable_mask(mask: MaskSamples | None, what: str, notes: list[str]) -> MaskSamples | None:
    """A mask with plain samples; one compressed as JPEG or JPEG 2000 is decoded by Pillow
    when it is installed, and otherwise left out (with a note)."""
    if mask is None or mask.codec is None:
        return mask
    grey = pillow.grey_samples(mask.samples, mask.width, mask.height)
    if grey is None:
        notes.append(
            f"the {what} is stored as {mask.codec.upper()}, which needs Pillow "
            "(pdfthin[images]); transparency is left out"
        )
        return None
    return replace(mask, samples=grey, bits_per_component=8, codec=None)


def _ccitt(
    engine: EngineDocument, stored: StoredImage, placement: ImagePlacement, notes: list[str]
) -> tuple[bytes, str, str, str]:
    params = stored.ccitt
    if params is None:
        raise PdfthinError("malformed", "the fax image has no parameters")
    decode = stored.decode
    invert = bool(decode and len(decode) >= 2 and decode[0] > decode[1])
    x0, y0, x1, y1 = placement.bbox
    dpi = (72.0, 72.0)
    if x1 - x0 > 1 and y1 - y0 > 1:
        # The resolution the page shows it at: keeps the aspect of non-square fax pixels.
        dpi = (params.columns * 72 / (x1 - x0), (params.rows or stored.height) * 72 / (y1 - y0))
    try:
        tiff = ccitt_tiff(
            stored.codec_data or b"", params, height=stored.height, invert=invert, dpi=dpi
        )
    except ValueError as exc:
        raise PdfthinError("malformed", f"the fax image cannot be wrapped: {exc}") from None
    png_bytes = pillow.tiff_to_png(tiff, max_pixels=8 * engine.limits.max_stream_bytes)
    if png_bytes is not None:
        return png_bytes, "image/png", "png", "png"
    if pillow.pillow() is not None:
        notes.append("Pillow could not decode the fax data; the stored data is returned as TIFF")
    return tiff, "image/tiff", "tiff", "tif"
