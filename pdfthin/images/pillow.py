"""The optional Pillow path (``pip install Pillow``): CCITT fax images as PNG.

Pillow is imported lazily and only here; every caller has a pure-Python answer when it is
missing (the TIFF wrapper), so the core never needs it.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Callable
from typing import Any


def pillow() -> Any | None:
    """``PIL.Image`` when Pillow is installed, else ``None``."""
    try:
        from PIL import Image
    except ImportError:
        return None
    return Image


def _read(data: bytes, use: Callable[[Any], bytes | None]) -> bytes | None:
    """``use(image)`` of the image Pillow reads from ``data``; ``None`` when Pillow is missing,
    cannot read it, or fails on it (a damaged stream: the caller has another answer)."""
    image_module = pillow()
    if image_module is None:
        return None
    try:
        with warnings.catch_warnings():
            # Our own pixel bounds apply; Pillow's bomb warning would only be noise.
            warnings.simplefilter("ignore")
            with image_module.open(io.BytesIO(data)) as image:
                return use(image)
    except Exception:  # a decoder's error of any kind
        return None


def _png(image: Any) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def tiff_to_png(tiff: bytes, max_pixels: int) -> bytes | None:
    """Decode a TIFF (our CCITT wrapper) and write it as PNG; ``None`` when Pillow is missing
    or cannot read it (the caller then returns the TIFF itself)."""

    def convert(image: Any) -> bytes | None:
        width, height = image.size
        if width * height > max_pixels:
            return None
        image.load()
        return _png(image)

    return _read(tiff, convert)


def grey_samples(data: bytes, width: int, height: int) -> bytes | None:
    """8-bit grey samples of a JPEG or JPEG 2000 mask of the given size; ``None`` when
    Pillow is missing, cannot read it, or finds another size."""

    def samples(image: Any) -> bytes | None:
        if image.size != (width, height):
            return None
        return bytes(image.convert("L").tobytes())

    return _read(data, samples)


def crop_to_png(data: bytes, box: tuple[int, int, int, int], max_pixels: int) -> bytes | None:
    """The pixels of ``box`` (columns and rows, ends excluded) of an image Pillow reads (a
    JPEG), as a PNG; ``None`` when Pillow is missing or cannot read it."""

    def crop(image: Any) -> bytes | None:
        width, height = image.size
        if width * height > max_pixels:
            return None
        part = image.crop(box)
        if part.mode not in ("1", "L", "RGB", "RGBA"):
            part = part.convert("RGB")
        return _png(part)

    return _read(data, crop)
