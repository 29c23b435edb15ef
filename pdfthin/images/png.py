"""A PNG writer (ISO/IEC 15948) in pure Python: zlib for the pixels, crc32 for the chunks.

Rows come in packed the way PDF stores image samples (each row starts on a byte boundary,
big-endian 16-bit samples), which is also how PNG lays them out, so most PDF images go
through without touching a single pixel. Every row gets filter type 0 (None): choosing
filters per row would need per-pixel arithmetic, which pure Python cannot afford on large
images, and zlib alone already compresses typical document images well.
"""

from __future__ import annotations

import struct
import zlib

GRAY = 0
RGB = 2
PALETTE = 3
GRAY_ALPHA = 4
RGBA = 6

#: Channels per pixel and the bit depths PNG allows, per colour type.
_CHANNELS = {GRAY: 1, RGB: 3, PALETTE: 1, GRAY_ALPHA: 2, RGBA: 4}
_DEPTHS = {
    GRAY: (1, 2, 4, 8, 16),
    RGB: (8, 16),
    PALETTE: (1, 2, 4, 8),
    GRAY_ALPHA: (8, 16),
    RGBA: (8, 16),
}
SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: Rows are handed to zlib in batches of about this many bytes; IDAT chunks are this large.
_BATCH = 1 << 20
#: PNG's own limit on width and height (2^31 - 1).
MAX_DIMENSION = (1 << 31) - 1


def row_bytes(width: int, channels: int, bit_depth: int) -> int:
    """Bytes in one packed row of ``width`` pixels."""
    return (width * channels * bit_depth + 7) // 8


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(
    width: int,
    height: int,
    bit_depth: int,
    color_type: int,
    data: bytes | bytearray | memoryview,
    *,
    palette: bytes | None = None,
    transparency: bytes | None = None,
    level: int = 6,
) -> bytes:
    """A complete PNG file of ``height`` packed rows taken from ``data``.

    ``palette`` (RGB triples, at most 256) is required for colour type 3; ``transparency`` is
    written as a ``tRNS`` chunk as given. ``data`` must hold at least ``height`` rows; extra
    bytes are ignored. Raises :class:`ValueError` for a combination PNG does not allow.
    """
    if color_type not in _CHANNELS:
        raise ValueError(f"PNG has no colour type {color_type}")
    if bit_depth not in _DEPTHS[color_type]:
        raise ValueError(f"PNG colour type {color_type} does not allow bit depth {bit_depth}")
    if not (1 <= width <= MAX_DIMENSION and 1 <= height <= MAX_DIMENSION):
        raise ValueError(f"PNG cannot hold a {width} x {height} image")
    if color_type == PALETTE and (not palette or len(palette) % 3 or len(palette) > 768):
        raise ValueError("a palette image needs 1 to 256 RGB entries")
    stride = row_bytes(width, _CHANNELS[color_type], bit_depth)
    view = memoryview(data).cast("B")
    if len(view) < stride * height:
        raise ValueError(f"{len(view)} bytes of pixels; {stride * height} are needed")

    out = [SIGNATURE]
    header = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0)
    out.append(_chunk(b"IHDR", header))
    if palette is not None and color_type in (PALETTE, RGB, RGBA):
        out.append(_chunk(b"PLTE", bytes(palette)))
    if transparency is not None:
        out.append(_chunk(b"tRNS", bytes(transparency)))

    compressor = zlib.compressobj(level)
    pending = bytearray()
    rows_per_batch = max(1, _BATCH // (stride + 1))
    for first in range(0, height, rows_per_batch):
        last = min(height, first + rows_per_batch)
        rows = [view[y * stride : (y + 1) * stride] for y in range(first, last)]
        # Filter byte 0 before every row: b"\0" + b"\0".join(rows) does it in one C call.
        pending += compressor.compress(b"\x00" + b"\x00".join(rows))
        while len(pending) >= _BATCH:
            out.append(_chunk(b"IDAT", bytes(pending[:_BATCH])))
            del pending[:_BATCH]
    pending += compressor.flush()
    for start in range(0, len(pending), _BATCH):
        out.append(_chunk(b"IDAT", bytes(pending[start : start + _BATCH])))
    out.append(_chunk(b"IEND", b""))
    return b"".join(out)
