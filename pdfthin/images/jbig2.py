"""JBIG2 as a standalone file: the PDF's embedded stream behind the file header.

PDF stores JBIG2 in the "embedded" organisation (ITU-T T.88 annex D.3): segments without the
file header, with the shared segments in a separate ``/JBIG2Globals`` stream. Prefixing the
header of the sequential organisation (annex D.4) and the global segments gives a file that
JBIG2 decoders (jbig2dec, for one) read. No pixel is decoded here.
"""

from __future__ import annotations

import struct

MAGIC = b"\x97JB2\r\n\x1a\n"
_SEQUENTIAL = 0x01  # bit 0: sequential organisation; bit 1 clear: the page count follows
_PAGE_INFORMATION = 48


def jbig2_file(data: bytes, globals_data: bytes | None = None) -> bytes:
    """A one-page sequential JBIG2 file from an embedded stream and its globals."""
    if data.startswith(MAGIC):
        # Some writers embed a whole JBIG2 file: keep its segments, not its header.
        if len(data) < 9 or not data[8] & _SEQUENTIAL:
            return data  # random-access organisation: cannot be merged, hand it over as is
        data = data[9:] if data[8] & 0x02 else data[13:]
    return MAGIC + bytes([_SEQUENTIAL]) + struct.pack(">I", 1) + (globals_data or b"") + data


def page_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from the first page-information segment of an embedded stream
    (``None`` when none is found in the first segments). Height 0xFFFFFFFF means "striped,
    unknown until the end of the page"."""
    pos = 0
    for _ in range(64):
        if pos + 11 > len(data):
            return None
        flags = data[pos + 4]
        kind = flags & 0x3F
        wide_page = bool(flags & 0x40)
        refs = data[pos + 5]
        count = refs >> 5
        at = pos + 6
        if count == 7:  # long form: a 4-byte count and a retention bit field
            if at + 3 > len(data):
                return None
            count = struct.unpack(">I", data[pos + 5 : pos + 9])[0] & 0x1FFFFFFF
            at = pos + 9 + (count + 8) // 8
        number = struct.unpack(">I", data[pos : pos + 4])[0]
        ref_size = 1 if number <= 256 else 2 if number <= 65536 else 4
        at += count * ref_size
        at += 4 if wide_page else 1
        if at + 4 > len(data):
            return None
        length = struct.unpack(">I", data[at : at + 4])[0]
        at += 4
        if kind == _PAGE_INFORMATION:
            if at + 8 > len(data):
                return None
            width, height = struct.unpack(">II", data[at : at + 8])
            return width, height
        if length == 0xFFFFFFFF:
            return None  # unknown length (immediate generic region): cannot skip it
        pos = at + length
    return None
