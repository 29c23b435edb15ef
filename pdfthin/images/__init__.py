"""Image codecs in pure Python: a PNG writer, a TIFF wrapper for CCITT fax data, and the
conversion of PDF image samples (any colour space, bit depth, Decode array and mask) to PNG.

Nothing here imports pypdf: the engine hands over plain data (:mod:`.types`). Pillow is an
optional extra (``pdfthin[images]``), imported lazily by :mod:`.pillow` and never required.
"""

from __future__ import annotations

from pdfthin.images.convert import to_png
from pdfthin.images.png import encode_png
from pdfthin.images.tiff import ccitt_tiff
from pdfthin.images.types import ColorSpace, MaskSamples, Raster

__all__ = [
    "ColorSpace",
    "MaskSamples",
    "Raster",
    "ccitt_tiff",
    "encode_png",
    "to_png",
]
