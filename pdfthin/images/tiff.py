"""A baseline TIFF file around CCITT Group 3 / Group 4 fax data, in pure Python.

PDF's ``CCITTFaxDecode`` stores the same bit stream TIFF calls compression 2, 3 or 4; wrapping
it in a one-strip TIFF with the right tags makes a file any TIFF reader decodes, without
decoding a single pixel here.

Photometric interpretation: the fax coding has black and white runs. With ``BlackIs1`` false
(the default) a black run becomes sample 0, which ``DeviceGray`` paints black; that is TIFF's
``WhiteIsZero`` (0) reading of the decoded bits. ``BlackIs1`` true turns black runs into 1s,
painted white, i.e. ``BlackIsZero`` (1). A ``/Decode [1 0]`` array flips the result again.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

_SHORT = 3
_LONG = 4
_RATIONAL = 5

#: TIFF compression codes.
CCITT_RLE = 2  # Modified Huffman, rows byte-aligned, no EOL codes
CCITT_T4 = 3  # Group 3 (1-D, or 2-D with T4Options bit 0)
CCITT_T6 = 4  # Group 4

_MAX_LONG = 0xFFFFFFFF


@dataclass(frozen=True, slots=True)
class CcittParams:
    """The ``/DecodeParms`` of ``CCITTFaxDecode`` (PDF 32000-1, table 11) as plain values."""

    k: int = 0
    columns: int = 1728
    rows: int = 0
    black_is_1: bool = False
    encoded_byte_align: bool = False
    end_of_line: bool = False


def compression(params: CcittParams) -> tuple[int, int]:
    """TIFF ``Compression`` and the T4Options/T6Options value for ``params``."""
    if params.k < 0:
        return CCITT_T6, 0
    if params.k == 0 and params.encoded_byte_align and not params.end_of_line:
        # Byte-aligned rows of 1-D codes without EOLs: exactly TIFF's "CCITT RLE".
        return CCITT_RLE, 0
    options = 0
    if params.k > 0:
        options |= 1  # 2-D coding
    if params.encoded_byte_align:
        options |= 4  # fill bits before each EOL make rows end on byte boundaries
    return CCITT_T4, options


def ccitt_tiff(
    data: bytes,
    params: CcittParams,
    *,
    height: int,
    invert: bool = False,
    dpi: tuple[float, float] = (72.0, 72.0),
) -> bytes:
    """A little-endian TIFF with one strip holding ``data`` as stored in the PDF.

    ``height`` is used when ``params.rows`` is 0 (unknown). ``invert`` is a ``/Decode [1 0]``
    array. ``dpi`` only affects how a viewer sizes the page (fax data often has different
    horizontal and vertical resolutions).
    """
    width = params.columns
    rows = params.rows or height
    if not (1 <= width <= _MAX_LONG and 1 <= rows <= _MAX_LONG):
        raise ValueError(f"a {width} x {rows} fax image cannot be written as TIFF")
    comp, options = compression(params)
    photometric = 1 if params.black_is_1 != invert else 0

    entries: list[tuple[int, int, int, bytes]] = []  # tag, type, count, value or offset data

    def short(tag: int, value: int) -> None:
        entries.append((tag, _SHORT, 1, struct.pack("<HH", value, 0)))

    def long(tag: int, value: int) -> None:
        entries.append((tag, _LONG, 1, struct.pack("<I", value)))

    count = 14 + (1 if comp != CCITT_RLE else 0)
    ifd_size = 2 + 12 * count + 4
    rationals_at = 8 + ifd_size
    data_at = rationals_at + 16

    long(256, width)  # ImageWidth
    long(257, rows)  # ImageLength
    short(258, 1)  # BitsPerSample
    short(259, comp)  # Compression
    short(262, photometric)  # PhotometricInterpretation
    short(266, 1)  # FillOrder: most significant bit first, as in PDF
    long(273, data_at)  # StripOffsets
    short(274, 1)  # Orientation: top-left
    short(277, 1)  # SamplesPerPixel
    long(278, rows)  # RowsPerStrip
    long(279, len(data))  # StripByteCounts
    entries.append((282, _RATIONAL, 1, struct.pack("<I", rationals_at)))  # XResolution
    entries.append((283, _RATIONAL, 1, struct.pack("<I", rationals_at + 8)))  # YResolution
    if comp == CCITT_T4:
        long(292, options)  # T4Options
    elif comp == CCITT_T6:
        long(293, options)  # T6Options
    short(296, 2)  # ResolutionUnit: inch
    entries.sort()
    assert len(entries) == count

    out = bytearray(b"II*\x00" + struct.pack("<I", 8))
    out += struct.pack("<H", count)
    for tag, kind, n, value in entries:
        out += struct.pack("<HHI", tag, kind, n) + value
    out += struct.pack("<I", 0)  # no further IFD
    for resolution in dpi:
        # Resolution as a fraction with a fixed denominator keeps two decimals.
        out += struct.pack("<II", max(1, round(resolution * 100)), 100)
    out += data
    return bytes(out)
