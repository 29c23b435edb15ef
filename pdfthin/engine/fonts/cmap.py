"""CMaps: ``/ToUnicode`` maps and the encodings of composite (Type 0) fonts.

A CMap is parsed with the content-stream lexer (it is PostScript of the same token shape).
Ranges are expanded into dictionaries up to a bound; a hostile CMap cannot make the reader
allocate without limit.
"""

from __future__ import annotations

import codecs
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pdfthin.engine import _native
from pdfthin.engine.content.lexer import iter_operations

#: Bounds on what one CMap may expand to.
MAX_RANGE = 65_536
MAX_ENTRIES = 400_000
#: The bytes of a CMap stream that are read. An embedded ToUnicode CMap of a 65,536-glyph font
#: written one ``bfchar`` line per code with ligature destinations is under 3 MiB; past this,
#: a stream can only be padding that costs time (about 3 µs per operation in Python).
MAX_CMAP_BYTES = 4 << 20


@dataclass
class CMap:
    #: ``(byte length, low, high)`` per codespace range; low/high as integers.
    codespaces: list[tuple[int, int, int]] = field(default_factory=list)
    #: code -> Unicode text (ToUnicode maps).
    unicode: dict[int, str] = field(default_factory=dict)
    #: code -> CID (encoding CMaps).
    cids: dict[int, int] = field(default_factory=dict)
    #: Ranges too large to expand: ``(low, high, first cid)``.
    cid_ranges: list[tuple[int, int, int]] = field(default_factory=list)
    #: Name of a CMap this one builds on (``usecmap``).
    parent: str | None = None
    vertical: bool = False

    def code_lengths(self) -> set[int]:
        return {length for length, _, _ in self.codespaces}

    def cid(self, code: int) -> int | None:
        hit = self.cids.get(code)
        if hit is not None:
            return hit
        for lo, hi, first in self.cid_ranges:
            if lo <= code <= hi:
                return first + code - lo
        return None


def _utf16(raw: bytes) -> str:
    if len(raw) % 2:
        return raw.decode("latin-1")
    text = raw.decode("utf-16-be", errors="surrogatepass")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: keep what is valid
        text = raw.decode("utf-16-be", errors="replace")
    return text


def _int(raw: object) -> int | None:
    if isinstance(raw, bytes) and 0 < len(raw) <= 4:
        return int.from_bytes(raw, "big")
    return None


def _operations(data: bytes) -> Iterator[tuple[bytes, list[Any]]]:
    """The stream's operations: tokenized natively when the accelerator is loaded (the same
    tokens, one at a time, and the same ``OverflowError`` where the Python lexer raises:
    tests/test_native_differential.py), else by :func:`iter_operations`."""
    native = _native.NATIVE
    if native is None:
        return iter_operations(data)
    return _tokenized(native, data)


def _tokenized(native: Any, data: bytes) -> Iterator[tuple[bytes, list[Any]]]:
    done = 0
    try:
        for operation in native.tokenize(data):
            yield operation
            done += 1
    except _native.Fault:  # a failure of the native lexer: Python's goes on from there
        yield from itertools.islice(iter_operations(data), done, None)


def parse_cmap(data: bytes) -> CMap:
    """Parse a CMap stream. Never raises: what cannot be read is left out, and so is what lies
    past its first MAX_CMAP_BYTES (codes it would have mapped count as unmapped)."""
    data = data[:MAX_CMAP_BYTES]
    native = _native.NATIVE
    if native is not None:
        from pdfthin.engine.fonts.encodings import glyph_to_unicode

        # The same CMap, or None where Python must parse it (tests/test_native_fonts.py).
        try:
            parsed = native.parse_cmap(data, glyph_to_unicode, MAX_RANGE, MAX_ENTRIES)
        except _native.Fault:  # a failure of the native code: Python parses
            parsed = None
        if parsed is not None:
            return CMap(*parsed)
    cmap = CMap()
    budget = MAX_ENTRIES
    for op, operands in _operations(data):
        if op == b"endbfchar":
            for i in range(0, len(operands) - 1, 2):
                code = _int(operands[i])
                dst = operands[i + 1]
                if code is None:
                    continue
                if isinstance(dst, bytes):
                    cmap.unicode[code] = _utf16(dst)
                elif isinstance(dst, str):  # a glyph name
                    from pdfthin.engine.fonts.encodings import glyph_to_unicode

                    text = glyph_to_unicode(dst)
                    if text:
                        cmap.unicode[code] = text
            budget -= len(operands) // 2
        elif op == b"endbfrange":
            for i in range(0, len(operands) - 2, 3):
                lo, hi, dst = _int(operands[i]), _int(operands[i + 1]), operands[i + 2]
                if lo is None or hi is None or hi < lo:
                    continue
                hi = min(hi, lo + MAX_RANGE - 1, lo + max(budget, 0) - 1)
                if hi < lo:
                    continue
                budget -= hi - lo + 1
                if isinstance(dst, bytes) and dst:
                    if len(dst) > 8:  # a ligature-like destination: the range is one entry
                        cmap.unicode[lo] = _utf16(dst)
                        continue
                    base = int.from_bytes(dst, "big")
                    width = len(dst)
                    for k in range(hi - lo + 1):
                        value = base + k
                        if value.bit_length() > width * 8:
                            break
                        cmap.unicode[lo + k] = _utf16(value.to_bytes(width, "big"))
                elif isinstance(dst, list):
                    for k, item in enumerate(dst[: hi - lo + 1]):
                        if isinstance(item, bytes):
                            cmap.unicode[lo + k] = _utf16(item)
        elif op == b"endcidrange":
            for i in range(0, len(operands) - 2, 3):
                lo, hi, first = _int(operands[i]), _int(operands[i + 1]), operands[i + 2]
                if lo is None or hi is None or hi < lo or not isinstance(first, float):
                    continue
                if hi - lo < 4096 and budget > hi - lo:
                    budget -= hi - lo + 1
                    for k in range(hi - lo + 1):
                        cmap.cids[lo + k] = int(first) + k
                else:
                    cmap.cid_ranges.append((lo, hi, int(first)))
        elif op == b"endcidchar":
            for i in range(0, len(operands) - 1, 2):
                code, cid = _int(operands[i]), operands[i + 1]
                if code is not None and isinstance(cid, float):
                    cmap.cids[code] = int(cid)
            budget -= len(operands) // 2
        elif op == b"endcodespacerange":
            for i in range(0, len(operands) - 1, 2):
                lo, hi = operands[i], operands[i + 1]
                if isinstance(lo, bytes) and isinstance(hi, bytes) and 0 < len(lo) <= 4:
                    cmap.codespaces.append((len(lo), int.from_bytes(lo, "big"), _int(hi) or 0))
        elif op == b"usecmap" and operands and isinstance(operands[-1], str):
            cmap.parent = operands[-1]
        elif op == b"def" and len(operands) >= 2 and operands[-2] == "/WMode":
            cmap.vertical = operands[-1] == 1.0
        if budget <= 0:
            break
    return cmap


# --- predefined CMaps -----------------------------------------------------------------------

#: Predefined CMap name prefixes whose codes are text in a known Python codec. Used to give
#: text to composite fonts that have no ``/ToUnicode``, and to split their codes.
_CODECS = (
    ("UniJIS-UTF16", "utf-16-be"),
    ("UniGB-UTF16", "utf-16-be"),
    ("UniCNS-UTF16", "utf-16-be"),
    ("UniKS-UTF16", "utf-16-be"),
    ("UniJIS-UCS2", "utf-16-be"),
    ("UniGB-UCS2", "utf-16-be"),
    ("UniCNS-UCS2", "utf-16-be"),
    ("UniKS-UCS2", "utf-16-be"),
    ("UniJIS-UTF8", "utf-8"),
    ("UniJIS-UTF32", "utf-32-be"),
    ("90ms-RKSJ", "cp932"),
    ("90msp-RKSJ", "cp932"),
    ("83pv-RKSJ", "cp932"),
    ("90pv-RKSJ", "cp932"),
    ("Add-RKSJ", "cp932"),
    ("Ext-RKSJ", "cp932"),
    ("RKSJ", "cp932"),
    ("EUC", "euc_jp"),
    ("GBK-EUC", "gbk"),
    ("GBKp-EUC", "gbk"),
    ("GBK2K", "gb18030"),
    ("GBpc-EUC", "gb2312"),
    ("GB-EUC", "gb2312"),
    ("B5pc", "big5"),
    ("ETen-B5", "cp950"),
    ("ETenms-B5", "cp950"),
    ("HKscs-B5", "big5hkscs"),
    ("KSC-EUC", "euc_kr"),
    ("KSCms-UHC", "cp949"),
    ("KSCpc-EUC", "euc_kr"),
)


#: Pseudo-codec for the predefined CMaps ``H``/``V``: JIS X 0208 codes as two 7-bit bytes.
JIS_X0208 = "jis-x0208"


def predefined_codec(name: str) -> str | None:
    """The Python codec that decodes codes of the predefined CMap ``name``, if any."""
    bare = name.lstrip("/")
    if bare in ("H", "V"):
        return JIS_X0208  # the original ISO-2022-JP two-byte codes, no escape sequences
    for suffix in ("-H", "-V"):
        if bare.endswith(suffix):
            bare = bare[: -len(suffix)]
            break
    for prefix, codec in _CODECS:
        if bare == prefix or bare.startswith(prefix + "-") or bare.startswith(prefix):
            return codec
    return None


def is_vertical_name(name: str) -> bool:
    return name.endswith("-V") or name.lstrip("/") == "V"


def lead_byte_lengths(codec: str) -> list[int] | None:
    """Code length by first byte for the multi-byte legacy encodings (``None``: fixed 2)."""
    try:
        decoder = codecs.getincrementaldecoder(codec)
    except LookupError:
        return None
    lengths = []
    for lead in range(256):
        dec = decoder()
        if dec.decode(bytes((lead,))):
            lengths.append(1)
        else:
            lengths.append(2)
    return lengths
