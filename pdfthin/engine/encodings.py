"""Character encodings and glyph names: code -> Unicode for simple fonts.

The tables themselves (the PDF built-in encodings, the Adobe Glyph List, the 14 standard font
metrics) come from pypdf, which already ships them; this module is the one place that reaches
into pypdf's private ``_codecs`` package, so a change there breaks one import, not the engine.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from pypdf._codecs import adobe_glyphs
from pypdf._codecs.pdfdoc import _pdfdoc_encoding
from pypdf._codecs.symbol import _symbol_encoding
from pypdf._codecs.zapfding import _zapfding_encoding

#: An encoding maps each of the 256 codes to a string, or to ``None`` when undefined.
Encoding = tuple["str | None", ...]

_UNI = re.compile(r"^uni((?:[0-9A-F]{4})+)$")
_U = re.compile(r"^u([0-9A-F]{4,6})$")


@functools.lru_cache(maxsize=8192)
def glyph_to_unicode(name: str) -> str | None:
    """Unicode for a glyph name (Adobe Glyph List rules), or ``None`` when it has none.

    Handles ``uniXXXX[XXXX...]``, ``uXXXX[XX]``, suffixes (``a.sc``) and ligature names made
    of components (``f_f_i``).
    """
    if name.startswith("/"):
        name = name[1:]
    if not name or name == ".notdef":
        return None
    hit = adobe_glyphs.get("/" + name)
    if hit is not None:
        return hit
    base = name.split(".", 1)[0]
    if base != name:
        return glyph_to_unicode(base) if base else None
    if "_" in name:
        parts = [glyph_to_unicode(part) for part in name.split("_")]
        if all(parts):
            return "".join(p for p in parts if p)
        return None
    m = _UNI.match(name)
    if m:
        digits = m.group(1)
        chars = [int(digits[i : i + 4], 16) for i in range(0, len(digits), 4)]
        if all(c < 0xD800 or c > 0xDFFF for c in chars):
            return "".join(map(chr, chars))
        return None
    m = _U.match(name)
    if m:
        value = int(m.group(1), 16)
        if value <= 0x10FFFF and not 0xD800 <= value <= 0xDFFF:
            return chr(value)
    return None


def _from_table(table: list[str], *, printable_identity: bool = False) -> Encoding:
    # pypdf fills undefined codes with control characters; an undefined code draws no glyph.
    out: list[str | None] = [None if unicodedata.category(char) == "Cc" else char for char in table]
    if printable_identity:
        for code in range(32, 127):
            if out[code] is None:
                out[code] = chr(code)
    return tuple(out)


def _win_ansi() -> Encoding:
    out: list[str | None] = [None] * 256
    raw = bytes(range(256)).decode("cp1252", errors="replace")
    for code in range(32, 256):
        char = raw[code]
        out[code] = None if char == "\ufffd" else char
    # PDF 32000-1 Annex D: in WinAnsiEncoding 0xA0 is "space" and 0xAD "hyphen", and every
    # unused code above octal 40 (DEL included) shows as a bullet.
    out[0xA0] = " "
    out[0xAD] = "-"
    for code in (0x7F, 0x81, 0x8D, 0x8F, 0x90, 0x9D):
        out[code] = "\u2022"
    return tuple(out)


def _mac_roman() -> Encoding:
    raw = bytes(range(256)).decode("mac_roman")
    out = [None if code < 32 or code == 0x7F else raw[code] for code in range(256)]
    out[0xDB] = "\u00a4"  # PDF 32000-1 annex D: "currency" (Python's codec has the later Euro)
    return tuple(out)


def _standard() -> Encoding:
    from ._cffdata import STANDARD_ENCODING

    return tuple(
        None if name == ".notdef" else glyph_to_unicode(name) for name in STANDARD_ENCODING
    )


STANDARD: Encoding = _standard()
WIN_ANSI: Encoding = _win_ansi()
MAC_ROMAN: Encoding = _mac_roman()
PDF_DOC: Encoding = _from_table(_pdfdoc_encoding)
SYMBOL: Encoding = _from_table(_symbol_encoding)
ZAPF_DINGBATS: Encoding = _from_table(_zapfding_encoding)

NAMED_ENCODINGS: dict[str, Encoding] = {
    "/StandardEncoding": STANDARD,
    "/WinAnsiEncoding": WIN_ANSI,
    "/MacRomanEncoding": MAC_ROMAN,
    # MacExpertEncoding holds small caps and old-style figures; its letters read as Standard.
    "/MacExpertEncoding": STANDARD,
    "/PDFDocEncoding": PDF_DOC,
}


def encoding_from_names(names: dict[int, str]) -> dict[int, str | None]:
    """Turn ``code -> glyph name`` into ``code -> Unicode`` (``None`` where unknown)."""
    return {code: glyph_to_unicode(name) for code, name in names.items()}


# --- the standard 14 fonts -------------------------------------------------------------------

_STD14_ALIASES = {
    "arial": "Helvetica",
    "helvetica": "Helvetica",
    "arialmt": "Helvetica",
    "timesnewroman": "Times",
    "timesnewromanps": "Times",
    "timesnewromanpsmt": "Times",
    "times": "Times",
    "timesroman": "Times",
    "courier": "Courier",
    "couriernew": "Courier",
    "couriernewpsmt": "Courier",
    "symbol": "Symbol",
    "zapfdingbats": "ZapfDingbats",
}


def standard_font(base_font: str) -> str | None:
    """The standard-14 font that ``base_font`` names or aliases (``Arial,Bold`` ->
    ``Helvetica-Bold``), or ``None``."""
    name = base_font.lstrip("/")
    if "+" in name[:7]:
        name = name.split("+", 1)[1]
    lowered = name.lower().replace(" ", "")
    family, _, style = lowered.replace(",", "-").partition("-")
    std = _STD14_ALIASES.get(family)
    if std is None:
        return None
    if std in ("Symbol", "ZapfDingbats"):
        return std
    bold = "bold" in style or "black" in style
    italic = "italic" in style or "oblique" in style
    if std == "Times":
        if bold and italic:
            return "Times-BoldItalic"
        if bold:
            return "Times-Bold"
        return "Times-Italic" if italic else "Times-Roman"
    suffix = "Oblique" if std in ("Helvetica", "Courier") else "Italic"
    if bold and italic:
        return f"{std}-Bold{suffix}"
    if bold:
        return f"{std}-Bold"
    return f"{std}-{suffix}" if italic else std


@functools.lru_cache(maxsize=32)
def standard_metrics(std_name: str) -> tuple[dict[str, float], float, float, float] | None:
    """``(widths by character, default width, ascent, descent)`` of a standard-14 font."""
    from pypdf._codecs.core_font_metrics import CORE_FONT_METRICS

    metrics = CORE_FONT_METRICS.get(std_name)
    if metrics is None:
        return None
    widths = dict(metrics.character_widths)
    default = float(widths.pop("default", 500.0))
    desc = metrics.font_descriptor
    return widths, default, float(desc.ascent), float(desc.descent)


def builtin_encoding_for_standard(std_name: str) -> Encoding:
    if std_name == "Symbol":
        return SYMBOL
    if std_name == "ZapfDingbats":
        return ZAPF_DINGBATS
    return STANDARD


def is_unicode_text(char: str) -> bool:
    """False for characters that never stand for text: controls, U+FFFD, private use."""
    cat = unicodedata.category(char)
    return not (cat in ("Cc", "Co", "Cs", "Cn") or char == "\ufffd")
