"""What an embedded font program says about its glyphs, read without fontTools.

Three small readers, each returning ``None`` on anything it does not understand:

- :func:`type1_encoding` — the ``/Encoding`` array in the clear-text part of a Type 1 font;
- :func:`cff_encoding` — the encoding and charset of a CFF (``Type1C``) font, as glyph names;
- :func:`truetype_unicodes` — glyph id -> Unicode from a TrueType ``cmap`` table, used to give
  text to CID fonts that came without a ``/ToUnicode`` map.

Only what text extraction needs is parsed; glyph outlines are never touched.
"""

from __future__ import annotations

import re
import struct

from pdfthin.engine import _native
from pdfthin.engine.fonts._cffdata import (
    EXPERT_CHARSET_SIDS,
    EXPERT_SUBSET_CHARSET_SIDS,
    STANDARD_STRINGS,
)

_T1_STANDARD = re.compile(rb"/Encoding\s+StandardEncoding\s+def")
_T1_DUP = re.compile(rb"dup\s+(\d+)\s*/([^\s/\[\]()<>{}%]+)\s+put")
_T1_ENCODING_START = re.compile(rb"/Encoding\s+\d+\s+array")

#: Bounds for hostile font programs.
_MAX_GLYPHS = 65_536
#: Codes read from a font's ``cmap`` subtables at most, all of them together: ranges may
#: overlap, and 65,536 format 12 groups of 65,537 codes would ask for four billion. Where the
#: next segment or group would pass it, the rest of that subtable is left out.
_MAX_CMAP_CODES = 1 << 20
#: Past the last Unicode code point no code is a character.
_MAX_UNICODE = 0x10FFFF


def type1_encoding(program: bytes, clear_length: int | None = None) -> dict[int, str] | None:
    """``code -> glyph name`` of a Type 1 font program's built-in encoding.

    ``None`` means "StandardEncoding or unknown": the caller falls back to StandardEncoding.
    """
    head = program[: clear_length if clear_length and clear_length > 0 else 65_536]
    if _T1_STANDARD.search(head):
        return None
    start = _T1_ENCODING_START.search(head)
    if start is None:
        return None
    body = head[start.end() :]
    end = body.find(b"readonly def")
    if end < 0:
        end = body.find(b" def")
    if end >= 0:
        body = body[:end]
    names: dict[int, str] = {}
    for m in _T1_DUP.finditer(body):
        code = int(m.group(1))
        if code < 256:
            names[code] = m.group(2).decode("latin-1")
    return names or None


# --- CFF --------------------------------------------------------------------------------------


class _CffError(Exception):
    pass


def _index(data: bytes, pos: int) -> tuple[list[bytes], int]:
    """Read a CFF INDEX at ``pos``: its items and the position after it."""
    (count,) = struct.unpack_from(">H", data, pos)
    if count == 0:
        return [], pos + 2
    off_size = data[pos + 2]
    if not 1 <= off_size <= 4 or count > _MAX_GLYPHS:
        raise _CffError("bad INDEX")
    base = pos + 3
    offsets = []
    for i in range(count + 1):
        raw = data[base + i * off_size : base + (i + 1) * off_size]
        if len(raw) != off_size:
            raise _CffError("truncated INDEX")
        offsets.append(int.from_bytes(raw, "big"))
    data_start = base + (count + 1) * off_size - 1
    items = [data[data_start + offsets[i] : data_start + offsets[i + 1]] for i in range(count)]
    return items, data_start + offsets[-1]


def _dict(data: bytes) -> dict[int, list[float]]:
    """Parse a CFF DICT into ``operator -> operands`` (escaped operators as ``1200 + b1``)."""
    out: dict[int, list[float]] = {}
    operands: list[float] = []
    i = 0
    n = len(data)
    while i < n:
        b0 = data[i]
        if b0 <= 21:
            if b0 == 12:
                if i + 1 >= n:
                    break
                op = 1200 + data[i + 1]
                i += 2
            else:
                op = b0
                i += 1
            out[op] = operands
            operands = []
        elif b0 == 28:
            operands.append(struct.unpack_from(">h", data, i + 1)[0])
            i += 3
        elif b0 == 29:
            operands.append(struct.unpack_from(">i", data, i + 1)[0])
            i += 5
        elif b0 == 30:  # real number: nibbles up to 0xf
            i += 1
            while i < n:
                b = data[i]
                i += 1
                if (b & 0x0F) == 0x0F or (b >> 4) == 0x0F:
                    break
            operands.append(0.0)
        elif 32 <= b0 <= 246:
            operands.append(b0 - 139)
            i += 1
        elif 247 <= b0 <= 250:
            operands.append((b0 - 247) * 256 + data[i + 1] + 108)
            i += 2
        elif 251 <= b0 <= 254:
            operands.append(-(b0 - 251) * 256 - data[i + 1] - 108)
            i += 2
        else:
            raise _CffError("bad DICT byte")
    return out


def _sid_name(sid: int, strings: list[bytes]) -> str:
    if sid < len(STANDARD_STRINGS):
        return STANDARD_STRINGS[sid]
    j = sid - len(STANDARD_STRINGS)
    return strings[j].decode("latin-1") if j < len(strings) else ""


def _charset(data: bytes, offset: int, n_glyphs: int) -> list[int]:
    """SIDs (or CIDs) of glyphs 0..n-1."""
    if offset == 0:
        return list(range(n_glyphs))  # ISOAdobe: SID == GID
    if offset == 1:
        return [0, *EXPERT_CHARSET_SIDS][:n_glyphs]
    if offset == 2:
        return [0, *EXPERT_SUBSET_CHARSET_SIDS][:n_glyphs]
    sids = [0]
    fmt = data[offset]
    pos = offset + 1
    while len(sids) < n_glyphs:
        if fmt == 0:
            sids.append(struct.unpack_from(">H", data, pos)[0])
            pos += 2
        elif fmt in (1, 2):
            (first,) = struct.unpack_from(">H", data, pos)
            if fmt == 1:
                n_left = data[pos + 2]
                pos += 3
            else:
                (n_left,) = struct.unpack_from(">H", data, pos + 2)
                pos += 4
            sids.extend(range(first, first + n_left + 1))
        else:
            raise _CffError("bad charset format")
    return sids[:n_glyphs]


def cff_encoding(program: bytes) -> dict[int, str] | None:
    """``code -> glyph name`` from a CFF font's own encoding; ``None`` for StandardEncoding
    or when the program cannot be read."""
    try:
        return _cff_encoding(program)
    except (_CffError, struct.error, IndexError, ValueError):
        return None


def _cff_encoding(data: bytes) -> dict[int, str] | None:
    if len(data) < 4 or data[0] != 1:
        return None
    pos = data[2]  # header size
    _names, pos = _index(data, pos)
    top_dicts, pos = _index(data, pos)
    strings, pos = _index(data, pos)
    if not top_dicts:
        return None
    top = _dict(top_dicts[0])
    if 1230 in top:  # ROS: a CID-keyed font has no encoding of its own
        return None
    charstrings_at = int(top.get(17, [0])[0])
    if not charstrings_at:
        return None
    (n_glyphs,) = struct.unpack_from(">H", data, charstrings_at)
    n_glyphs = min(n_glyphs, _MAX_GLYPHS)
    encoding_at = int(top.get(16, [0])[0])
    if encoding_at == 0:
        return None  # StandardEncoding
    charset = _charset(data, int(top.get(15, [0])[0]), n_glyphs)
    names = [_sid_name(sid, strings) for sid in charset]
    if encoding_at == 1:
        return None  # ExpertEncoding: small caps etc.; Standard is the better guess for text
    fmt = data[encoding_at]
    pos = encoding_at + 1
    out: dict[int, str] = {}
    if fmt & 0x7F == 0:
        n_codes = data[pos]
        pos += 1
        for gid in range(1, n_codes + 1):
            if gid < len(names):
                out[data[pos]] = names[gid]
            pos += 1
    elif fmt & 0x7F == 1:
        n_ranges = data[pos]
        pos += 1
        gid = 1
        for _ in range(n_ranges):
            first, n_left = data[pos], data[pos + 1]
            pos += 2
            for code in range(first, min(first + n_left + 1, 256)):
                if gid < len(names):
                    out[code] = names[gid]
                gid += 1
    else:
        return None
    if fmt & 0x80:  # supplements: extra codes for glyphs already encoded
        n_sups = data[pos]
        pos += 1
        for _ in range(n_sups):
            code = data[pos]
            (sid,) = struct.unpack_from(">H", data, pos + 1)
            pos += 3
            out[code] = _sid_name(sid, strings)
    return out or None


# --- TrueType ----------------------------------------------------------------------------------


def _tables(data: bytes) -> dict[bytes, tuple[int, int]]:
    (num,) = struct.unpack_from(">H", data, 4)
    out = {}
    for i in range(min(num, 64)):
        tag, _checksum, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        out[tag] = (offset, length)
    return out


def truetype_cmaps(program: bytes) -> dict[tuple[int, int], dict[int, int]]:
    """``(platform, encoding) -> {code: glyph id}`` for the usable ``cmap`` subtables."""
    try:
        return _truetype_cmaps(program)
    except (struct.error, IndexError, ValueError):
        return {}


def _truetype_cmaps(data: bytes) -> dict[tuple[int, int], dict[int, int]]:
    tables = _tables(data)
    if b"cmap" not in tables:
        return {}
    base, _length = tables[b"cmap"]
    _version, count = struct.unpack_from(">HH", data, base)
    out: dict[tuple[int, int], dict[int, int]] = {}
    budget = _MAX_CMAP_CODES
    for i in range(min(count, 32)):
        platform, encoding, offset = struct.unpack_from(">HHI", data, base + 4 + 8 * i)
        at = base + offset
        (fmt,) = struct.unpack_from(">H", data, at)
        mapping: dict[int, int] = {}
        if fmt == 4:
            (seg_x2,) = struct.unpack_from(">H", data, at + 6)
            segs = seg_x2 // 2
            ends = struct.unpack_from(f">{segs}H", data, at + 14)
            starts = struct.unpack_from(f">{segs}H", data, at + 16 + seg_x2)
            deltas = struct.unpack_from(f">{segs}h", data, at + 16 + 2 * seg_x2)
            ro_at = at + 16 + 3 * seg_x2
            range_offsets = struct.unpack_from(f">{segs}H", data, ro_at)
            for s in range(segs):
                start, end = starts[s], ends[s]
                if end < start or end - start > _MAX_GLYPHS:
                    continue
                codes = max(0, min(end, 0xFFFE) + 1 - start)
                if codes > budget:
                    break
                budget -= codes
                for code in range(start, min(end, 0xFFFE) + 1):
                    if range_offsets[s] == 0:
                        gid = (code + deltas[s]) & 0xFFFF
                    else:
                        gpos = ro_at + 2 * s + range_offsets[s] + 2 * (code - start)
                        (gid,) = struct.unpack_from(">H", data, gpos)
                        if gid:
                            gid = (gid + deltas[s]) & 0xFFFF
                    if gid:
                        mapping[code] = gid
        elif fmt == 12:
            (n_groups,) = struct.unpack_from(">I", data, at + 12)
            for g in range(min(n_groups, _MAX_GLYPHS)):
                start, end, gid = struct.unpack_from(">III", data, at + 16 + 12 * g)
                if end < start or end - start > _MAX_GLYPHS:
                    continue
                if end - start + 1 > budget:
                    break
                budget -= end - start + 1
                for code in range(start, end + 1):
                    if gid + code - start:  # glyph 0 is .notdef: no character maps there
                        mapping[code] = gid + code - start
        elif fmt == 6:
            first, n = struct.unpack_from(">HH", data, at + 6)
            gids = struct.unpack_from(f">{n}H", data, at + 10)
            for k, gid in enumerate(gids):
                if gid:
                    mapping[first + k] = gid
        elif fmt == 0:
            for code, gid in enumerate(data[at + 6 : at + 6 + 256]):
                if gid:
                    mapping[code] = gid
        else:
            continue
        if mapping:
            out[(platform, encoding)] = mapping
    return out


def truetype_unicodes(program: bytes) -> dict[int, str]:
    """``glyph id -> Unicode`` from the font's Unicode ``cmap`` (the inverse of it)."""
    native = _native.NATIVE
    if native is not None and type(program) is bytes:
        try:
            found: dict[int, str] | None = native.truetype_unicodes(program)  # None: Python's
        except _native.Fault:  # a failure of the native code: Python reads the table
            found = None
        if found is not None:
            return found
    cmaps = truetype_cmaps(program)
    unicode_map = cmaps.get((3, 10)) or cmaps.get((3, 1)) or cmaps.get((0, 3)) or cmaps.get((0, 4))
    if not unicode_map:
        return {}
    out: dict[int, str] = {}
    for code in sorted(unicode_map):
        if code > _MAX_UNICODE:
            break  # not a character (and ``chr`` would refuse it)
        gid = unicode_map[code]
        if 0xE000 <= code <= 0xF8FF:  # prefer a real character over a private-use alias
            out.setdefault(gid, chr(code))
            continue
        current = out.get(gid)
        if current is None or 0xE000 <= ord(current[0]) <= 0xF8FF:
            out[gid] = chr(code)
    return out
