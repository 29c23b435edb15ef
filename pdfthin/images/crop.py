"""Cutting a rectangle of pixels out of a PNG that :mod:`pdfthin.images.png` wrote, in pure
Python.

That writer gives every row filter type 0 (None) and never interlaces, so its rows are the
samples as they are: a crop is a slice of each row, with no per-pixel arithmetic. A PNG that
is not of that kind (another writer's) is refused with :class:`ValueError`; the caller then
finds another way.
"""

from __future__ import annotations

import struct
import zlib

from pdfthin.images import png

#: Pixels a PNG may hold to be cut here (its rows are inflated in memory at once).
MAX_PIXELS = 100_000_000

PixelBox = tuple[int, int, int, int]


def png_size(data: bytes) -> tuple[int, int] | None:
    """The width and height of a PNG, or ``None`` when ``data`` is not one."""
    if not data.startswith(png.SIGNATURE) or data[12:16] != b"IHDR" or len(data) < 24:
        return None
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def crop_png(data: bytes, box: PixelBox) -> tuple[bytes, PixelBox]:
    """The pixels of ``box`` (``x0, y0, x1, y1``: columns and rows, ends excluded) of the PNG
    ``data``, as a PNG of the same kind, and the box actually cut: within the image, and,
    for images of less than a byte per pixel, widened to whole bytes of each row."""
    header, palette, transparency, pixels = _read(data)
    width, height, depth, kind = header
    channels = png._CHANNELS[kind]
    x0, y0, x1, y1 = box
    x0, x1 = max(0, min(x0, width)), max(0, min(x1, width))
    y0, y1 = max(0, min(y0, height)), max(0, min(y1, height))
    if x1 <= x0 or y1 <= y0:
        raise ValueError("the box holds no pixel of the image")
    bits = channels * depth
    if bits < 8:
        per_byte = 8 // bits
        x0 -= x0 % per_byte
        x1 = min(width, x1 + (-x1) % per_byte)
    stride = png.row_bytes(width, channels, depth)
    first = x0 * bits // 8
    last = png.row_bytes(x1, channels, depth)
    rows = bytearray()
    for row in range(y0, y1):
        start = row * (stride + 1)
        if pixels[start] != 0:
            raise ValueError("the PNG's rows are filtered (not written by pdfthin)")
        rows += pixels[start + 1 + first : start + 1 + last]
    out = png.encode_png(
        x1 - x0, y1 - y0, depth, kind, rows, palette=palette, transparency=transparency
    )
    return out, (x0, y0, x1, y1)


def _read(data: bytes) -> tuple[tuple[int, int, int, int], bytes | None, bytes | None, bytes]:
    """The header (width, height, bit depth, colour type), palette, transparency and inflated
    rows of a PNG that is neither interlaced nor too large; :class:`ValueError` otherwise."""
    if not data.startswith(png.SIGNATURE):
        raise ValueError("not a PNG")
    at = len(png.SIGNATURE)
    header: tuple[int, int, int, int] | None = None
    palette = transparency = None
    compressed = bytearray()
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        body = data[at + 8 : at + 8 + length]
        at += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body[:13])
            if interlace:
                raise ValueError("the PNG is interlaced")
            if colour not in png._CHANNELS or width * height > MAX_PIXELS:
                raise ValueError("the PNG is of a kind or size not cut here")
            header = (width, height, depth, colour)
        elif kind == b"PLTE":
            palette = bytes(body)
        elif kind == b"tRNS":
            transparency = bytes(body)
        elif kind == b"IDAT":
            compressed += body
        elif kind == b"IEND":
            break
    if header is None:
        raise ValueError("the PNG has no header")
    width, height, depth, colour = header
    expected = (png.row_bytes(width, png._CHANNELS[colour], depth) + 1) * height
    inflater = zlib.decompressobj()
    pixels = inflater.decompress(bytes(compressed), expected)
    if len(pixels) < expected:
        raise ValueError("the PNG's pixels are cut short")
    return header, palette, transparency, pixels
