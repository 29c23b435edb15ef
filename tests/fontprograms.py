"""Tiny font programs for tests: TrueType and CFF built with fontTools, Type 1 clear-text
headers and cmap-only sfnt files written byte by byte."""

from __future__ import annotations

import io
import struct
from collections.abc import Mapping, Sequence

from fontTools.cffLib import CFFFontSet
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.pens.ttGlyphPen import TTGlyphPen


def truetype_program(cmap: Mapping[int, str], *, glyph_order: Sequence[str] | None = None) -> bytes:
    """A TrueType font whose ``cmap`` maps the given code points to glyph names; the glyph
    order is ``.notdef`` then the names sorted (or ``glyph_order``)."""
    names = list(glyph_order or [".notdef", *sorted(set(cmap.values()))])
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap(dict(cmap))
    pen = TTGlyphPen(None)
    pen.moveTo((0, 0))
    pen.lineTo((0, 500))
    pen.lineTo((500, 500))
    pen.closePath()
    glyph = pen.glyph()
    fb.setupGlyf({n: glyph for n in names})
    fb.setupHorizontalMetrics({n: (500, 0) for n in names})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupOS2()
    fb.setupPost()
    fb.setupNameTable({"familyName": "Tiny", "styleName": "Regular"})
    out = io.BytesIO()
    fb.save(out)
    return out.getvalue()


def cff_program(
    encoding: Mapping[int, str] | str,
    *,
    glyphs: Sequence[str] | None = None,
    cid: bool = False,
) -> bytes:
    """A bare CFF (``/FontFile3 /Subtype /Type1C``) font. ``encoding`` maps codes to glyph
    names, or is ``"StandardEncoding"``/``"ExpertEncoding"``. ``cid`` makes it CID-keyed."""
    names = list(glyphs or [])
    if isinstance(encoding, Mapping):
        names += [n for n in sorted(set(encoding.values())) if n not in names]
    names = [".notdef", *[n for n in names if n != ".notdef"]]
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(names)
    pen = T2CharStringPen(500, None)
    pen.moveTo((0, 0))
    pen.lineTo((0, 500))
    pen.lineTo((500, 500))
    pen.closePath()
    charstring = pen.getCharString()
    charstrings = {n: charstring for n in names}
    if cid:
        fb.setupCFF(
            "TestCID",
            {"FullName": "TestCID", "ROS": ("Adobe", "Identity", 0)},
            charstrings,
            {},
        )
    else:
        fb.setupCFF("TestCFF", {"FullName": "TestCFF"}, charstrings, {})
    cff = fb.font["CFF "].cff
    top = cff.topDictIndex[0]
    if isinstance(encoding, str):
        top.Encoding = encoding
    elif not cid:
        table = [".notdef"] * 256
        for code, glyph in encoding.items():
            table[code] = glyph
        top.Encoding = table
    out = io.BytesIO()
    cff.compile(out, fb.font)
    return out.getvalue()


def cff_encoding_format(program: bytes) -> int | None:
    """The format byte of a CFF font's encoding (``None`` for a predefined encoding)."""
    fontset = CFFFontSet()
    fontset.decompile(io.BytesIO(program), None)
    offset = fontset.topDictIndex[0].rawDict.get("Encoding", 0)
    return None if offset in (0, 1) else program[offset]


def type1_header(encoding: Mapping[int, str] | None, *, font_name: str = "TestType1") -> bytes:
    """The clear-text part of a Type 1 font program (what ``/Length1`` covers): a built-in
    ``/Encoding`` array, or ``StandardEncoding`` when ``encoding`` is ``None``."""
    lines = [
        b"%!PS-AdobeFont-1.0: " + font_name.encode() + b" 001.000",
        b"12 dict begin",
        b"/FontInfo 2 dict dup begin /FullName (" + font_name.encode() + b") readonly def end "
        b"readonly def",
        b"/FontName /" + font_name.encode() + b" def",
        b"/PaintType 0 def",
        b"/FontType 1 def",
        b"/FontMatrix [0.001 0 0 0.001 0 0] readonly def",
    ]
    if encoding is None:
        lines.append(b"/Encoding StandardEncoding def")
    else:
        lines.append(b"/Encoding 256 array")
        lines.append(b"0 1 255 {1 index exch /.notdef put} for")
        for code, glyph in sorted(encoding.items()):
            lines.append(b"dup %d /%s put" % (code, glyph.encode()))
        lines.append(b"readonly def")
    lines += [
        b"/FontBBox {0 -200 1000 900} readonly def",
        b"currentdict end",
        b"currentfile eexec",
    ]
    return b"\n".join(lines) + b"\n"


def cmap_only_sfnt(subtables: Sequence[tuple[int, int, bytes]]) -> bytes:
    """An sfnt file with nothing but a ``cmap`` table holding ``(platform, encoding,
    subtable bytes)`` entries (see the ``cmap_format*`` helpers)."""
    header = struct.pack(">HH", 0, len(subtables))
    offset = 4 + 8 * len(subtables)
    records = b""
    body = b""
    for platform, encoding, data in subtables:
        records += struct.pack(">HHI", platform, encoding, offset + len(body))
        body += data
    cmap = header + records + body
    table_offset = 12 + 16
    directory = struct.pack(">IHHHH", 0x00010000, 1, 16, 0, 0)
    directory += struct.pack(">4sIII", b"cmap", 0, table_offset, len(cmap))
    return directory + cmap


def cmap_format0(glyph_ids: Mapping[int, int]) -> bytes:
    table = bytearray(256)
    for code, gid in glyph_ids.items():
        table[code] = gid
    return struct.pack(">HHH", 0, 262, 0) + bytes(table)


def cmap_format4(segments: Sequence[tuple[int, int, int]]) -> bytes:
    """``(start, end, delta)`` segments (idRangeOffset 0); the final 0xFFFF segment is added."""
    segs = [*segments, (0xFFFF, 0xFFFF, 1)]
    n = len(segs)
    ends = struct.pack(f">{n}H", *(end for _, end, _ in segs))
    starts = struct.pack(f">{n}H", *(start for start, _, _ in segs))
    deltas = struct.pack(f">{n}h", *(_signed16(delta) for _, _, delta in segs))
    offsets = struct.pack(f">{n}H", *([0] * n))
    body = ends + b"\x00\x00" + starts + deltas + offsets
    length = 14 + len(body)
    return struct.pack(">HHHHHHH", 4, length, 0, 2 * n, 0, 0, 0) + body


def cmap_format4_glyph_array(start: int, glyph_ids: Sequence[int]) -> bytes:
    """One segment that uses ``idRangeOffset`` into a glyph id array, plus the final one."""
    n = 2
    end = start + len(glyph_ids) - 1
    ends = struct.pack(">2H", end, 0xFFFF)
    starts = struct.pack(">2H", start, 0xFFFF)
    deltas = struct.pack(">2h", 0, 1)
    # idRangeOffset of segment 0 points just past the idRangeOffset array.
    offsets = struct.pack(">2H", 2 * n, 0)
    array = struct.pack(f">{len(glyph_ids)}H", *glyph_ids)
    body = ends + b"\x00\x00" + starts + deltas + offsets + array
    length = 14 + len(body)
    return struct.pack(">HHHHHHH", 4, length, 0, 2 * n, 0, 0, 0) + body


def cmap_format6(first: int, glyph_ids: Sequence[int]) -> bytes:
    body = struct.pack(f">HH{len(glyph_ids)}H", first, len(glyph_ids), *glyph_ids)
    return struct.pack(">HHH", 6, 6 + len(body), 0) + body


def cmap_format12(groups: Sequence[tuple[int, int, int]]) -> bytes:
    """``(start code, end code, start glyph id)`` groups."""
    body = b"".join(struct.pack(">III", *g) for g in groups)
    return struct.pack(">HHIII", 12, 0, 16 + len(body), 0, len(groups)) + body


def _signed16(value: int) -> int:
    value &= 0xFFFF
    return value - 0x10000 if value >= 0x8000 else value
