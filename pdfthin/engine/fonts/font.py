"""Fonts: turn a PDF font dictionary into a small decoder of shown strings.

A :class:`Font` answers one question fast: for the bytes of a shown string, what text do they
stand for and how far do they advance? Simple fonts decode with ``str.translate`` and a
256-entry width table; composite fonts split codes by their CMap and look them up in
dictionaries. Everything here is computed once per font object and cached by the caller.
"""

from __future__ import annotations

import sys
import unicodedata
from array import array
from typing import Any

from pypdf.generic import DictionaryObject, StreamObject

from pdfthin.engine import _native
from pdfthin.engine.content.bidi import visual_cluster
from pdfthin.engine.fonts import encodings as enc
from pdfthin.engine.fonts.cidmaps import CidTable, cid_to_unicode, python_table
from pdfthin.engine.fonts.cmap import (
    JIS_X0208,
    CMap,
    is_vertical_name,
    lead_byte_lengths,
    parse_cmap,
    predefined_codec,
)
from pdfthin.engine.fonts.program import cff_encoding, truetype_unicodes, type1_encoding
from pdfthin.engine.objects import get, num, resolve, stream_data

UNMAPPED = "\ufffd"
_BIG_ENDIAN = sys.byteorder == "big"
#: Bounds on hostile width arrays.
_MAX_WIDTH_ENTRIES = 65_536


class _TextMap(dict[int, str]):
    def __missing__(self, key: int) -> str:
        return UNMAPPED


#: A simple font keeps what it decoded of strings up to this many bytes, up to this many
#: of them: most strings shown are a glyph or a few (positioned one by one), and a page's
#: words and glyphs repeat. The widths and mapping are fixed once the font is loaded, so a
#: kept answer stays right.
DECODED_BYTES = 16
DECODED_ENTRIES = 4096


class _WidthMap(dict[int, float]):
    __slots__ = ("default",)

    def __init__(self, default: float) -> None:
        super().__init__()
        self.default = default

    def __missing__(self, key: int) -> float:
        return self.default


class Font:
    """Decoder for one font resource."""

    __slots__ = (
        "ascent",
        "bold",
        "code_len",
        "decoded",
        "dw",
        "italic",
        "lead_lengths",
        "name",
        "simple",
        "size_scale",
        "text_map",
        "trans",
        "vertical",
        "width_map",
        "widths",
    )

    def __init__(self, name: str) -> None:
        self.name = name
        self.bold = False
        self.italic = False
        self.vertical = False
        self.ascent = 0.8
        self.size_scale = 1.0
        self.simple = True
        self.trans: dict[int, str] = {}
        self.widths: list[float] = [0.5] * 256
        self.code_len = 2
        self.lead_lengths: list[int] | None = None
        self.text_map: _TextMap = _TextMap()
        self.width_map: _WidthMap = _WidthMap(1.0)
        self.dw = 1.0
        #: A simple font's short strings as :meth:`decode` read them (see DECODED_BYTES).
        self.decoded: dict[bytes, tuple[str, float, int, int]] = {}

    def decode(self, data: bytes) -> tuple[str, float, int, int]:
        """Return ``(text, advance, spaces, glyphs)`` for a shown string.

        ``advance`` is in text-space units for a font size of 1 (before character and word
        spacing); ``spaces`` counts single-byte code 32 (where word spacing applies). Codes
        without a Unicode mapping come out as U+FFFD.
        """
        if self.simple:
            known = self.decoded.get(data)
            if known is None:
                known = (
                    data.decode("latin-1").translate(self.trans),
                    sum(map(self.widths.__getitem__, data)),
                    data.count(32),
                    len(data),
                )
                if len(data) <= DECODED_BYTES and len(self.decoded) < DECODED_ENTRIES:
                    self.decoded[data] = known
            return known
        codes = self.split(data)
        return (
            "".join(map(self.text_map.__getitem__, codes)),
            sum(map(self.width_map.__getitem__, codes)),
            codes.count(32) if self.space_is_single_byte else 0,
            len(codes),
        )

    def trailing_spaces(self, data: bytes) -> int:
        """How many codes end ``data`` that are code 32 read as a space (simple fonts only:
        a composite font's codes are not split here)."""
        if not self.simple or self.trans.get(32, " ") != " ":
            return 0
        return len(data) - len(data.rstrip(b" "))

    @property
    def space_is_single_byte(self) -> bool:
        """Word spacing applies to code 32 only where the CMap makes it a one-byte code."""
        if self.code_len == 1:
            return True
        return self.code_len == 0 and self.lead_lengths is not None and self.lead_lengths[32] == 1

    def glyph_bytes(self, data: bytes) -> list[bytes]:
        """``data`` cut into its codes' bytes, one per glyph: the codes :meth:`split` reads
        (an odd last byte of two-byte codes, which it leaves out, is left out)."""
        if self.simple or self.code_len == 1:
            return [data[i : i + 1] for i in range(len(data))]
        if self.code_len == 2:
            return [data[i : i + 2] for i in range(0, len(data) - 1, 2)]
        return self._by_lead_byte(data)

    def split(self, data: bytes) -> list[int] | array[int]:
        if self.code_len == 2:
            n = len(data) // 2
            codes = array("H")
            codes.frombytes(data[: 2 * n])
            if not _BIG_ENDIAN:
                codes.byteswap()
            return codes
        if self.code_len == 1:
            return list(data)
        return [int.from_bytes(code, "big") for code in self._by_lead_byte(data)]

    def _by_lead_byte(self, data: bytes) -> list[bytes]:
        """Codes of a CMap's codespace, each as long as its first byte says."""
        out: list[bytes] = []
        lengths = self.lead_lengths or [1] * 256
        i = 0
        n = len(data)
        while i < n:
            step = lengths[data[i]]
            out.append(data[i : i + step])
            i += step
        return out


# --- loading ----------------------------------------------------------------------------------


def _style(font: Font, base_font: str, descriptor: Any) -> None:
    lowered = base_font.lower()
    flags = int(num(get(descriptor, "/Flags"), 0))
    weight = num(get(descriptor, "/FontWeight"), 0)
    font.bold = (
        any(w in lowered for w in ("bold", "black", "heavy", "semibd", "demi", "-medi"))
        or num(get(descriptor, "/StemV"), 0) >= 120
        or weight >= 600
        or bool(flags & (1 << 18))
    )
    font.italic = (
        any(w in lowered for w in ("italic", "oblique", "-it", ",it"))
        or bool(flags & (1 << 6))
        or num(get(descriptor, "/ItalicAngle"), 0) != 0
    )


def _metrics(font: Font, descriptor: Any, scale: float = 0.001) -> None:
    ascent = num(get(descriptor, "/Ascent"), 0) * scale
    font.ascent = ascent if 0.3 <= ascent <= 1.5 else 0.8


def _display_name(base_font: str) -> str:
    name = base_font.lstrip("/")
    if len(name) > 7 and name[6] == "+":
        name = name[7:]
    return name


def _font_program(descriptor: Any) -> tuple[str, bytes | None, int | None]:
    """``(kind, data, clear-text length)`` of the embedded font program, if any."""
    kind, font_file, clear = _font_file(descriptor)
    return kind, stream_data(font_file), clear


def _font_file(descriptor: Any) -> tuple[str, Any, int | None]:
    """``(kind, stream, clear-text length)`` of the embedded font program, not decoded."""
    for key, kind in (("/FontFile", "type1"), ("/FontFile2", "truetype"), ("/FontFile3", "")):
        obj = get(descriptor, key)
        if obj is None:
            continue
        if kind == "":
            subtype = get(obj, "/Subtype")
            kind = {"/Type1C": "cff", "/CIDFontType0C": "cff-cid", "/OpenType": "opentype"}.get(
                str(subtype), "cff"
            )
        clear = int(num(get(obj, "/Length1"), 0)) or None
        return kind, obj, clear
    return "", None, None


def _to_unicode(font_dict: Any) -> CMap | None:
    obj = get(font_dict, "/ToUnicode")
    data = stream_data(obj)
    if not data:
        return None
    cmap = parse_cmap(data)
    return cmap if cmap.unicode else None


def load_font(font_dict: Any) -> Font:
    """Build a :class:`Font` from a font dictionary. Never raises: a broken font decodes
    nothing (every glyph unmapped) rather than stopping the page."""
    if not isinstance(font_dict, DictionaryObject):
        return Font("unknown")
    subtype = str(get(font_dict, "/Subtype", ""))
    try:
        if subtype == "/Type0":
            return _load_type0(font_dict)
        return _load_simple(font_dict, subtype)
    except Exception:
        font = Font(_display_name(str(get(font_dict, "/BaseFont", "unknown"))))
        font.trans = dict.fromkeys(range(256), UNMAPPED)
        return font


def _load_simple(font_dict: DictionaryObject, subtype: str) -> Font:
    base_font = str(get(font_dict, "/BaseFont", "") or get(font_dict, "/Name", "") or "")
    font = Font(_display_name(base_font) or "Type3")
    descriptor = get(font_dict, "/FontDescriptor")
    _style(font, base_font, descriptor)
    is_type3 = subtype == "/Type3"
    std = None if is_type3 else enc.standard_font(base_font)
    kind, font_file, clear = _font_file(descriptor)
    # The program is decoded only where it is read (a Type 1 or CFF program's own encoding)
    # or where it matters whether it decodes at all: not for most TrueType fonts.
    decoded: list[bytes | None] = []

    def program() -> bytes | None:
        if not decoded:
            decoded.append(stream_data(font_file))
        return decoded[0]

    # 1. Base encoding: the font's own (embedded program, standard 14) unless the dictionary
    #    names one (then the program's own encoding is not read: it would be replaced).
    encoding = get(font_dict, "/Encoding")
    named = isinstance(encoding, str) and encoding in enc.NAMED_ENCODINGS
    builtin: dict[int, str | None] | None = None
    if kind in ("type1", "cff") and not named:
        data = program()
        if data is not None:
            names = type1_encoding(data, clear) if kind == "type1" else cff_encoding(data)
            if names:
                builtin = enc.encoding_from_names(names)
    flags = int(num(get(descriptor, "/Flags"), 0))
    symbolic = bool(flags & 4) and not flags & 32
    if std is not None and program() is None:
        base: tuple[str | None, ...] = enc.builtin_encoding_for_standard(std)
    elif subtype == "/TrueType":
        base = enc.WIN_ANSI
    else:
        base = enc.STANDARD
    code_to_text: list[str | None] = list(base)
    renamed: dict[int, str | None] = {}  # codes the /Differences array names
    if builtin is not None and (symbolic or encoding is None or isinstance(encoding, dict)):
        for code, text in builtin.items():
            if 0 <= code < 256:
                code_to_text[code] = text
    if named:
        code_to_text = list(enc.NAMED_ENCODINGS[encoding])
    elif isinstance(encoding, dict):
        base_name = get(encoding, "/BaseEncoding")
        if isinstance(base_name, str) and base_name in enc.NAMED_ENCODINGS:
            code_to_text = list(enc.NAMED_ENCODINGS[base_name])
        differences = get(encoding, "/Differences")
        if isinstance(differences, list):
            code = 0
            for item in differences[:4096]:
                item = resolve(item)
                if isinstance(item, (int, float)) and not isinstance(item, bool):
                    code = int(item)
                elif isinstance(item, str):
                    if 0 <= code < 256:
                        text = enc.glyph_to_unicode(item) or enc.self_named(item, code)
                        code_to_text[code] = text
                        renamed[code] = text
                    code += 1
    elif encoding is None and symbolic and builtin is None and std is None and not is_type3:
        # A symbolic font with no encoding at all: codes are glyph selectors. Reading them
        # as Latin-1 is what most viewers do for copy-paste, and right for common
        # "symbolic" TrueType subsets that really hold Latin text.
        code_to_text = [chr(c) if c >= 32 else None for c in range(256)]

    to_unicode = _to_unicode(font_dict)
    trans = _trans(code_to_text, to_unicode.unicode if to_unicode is not None else None, renamed)
    font.trans = trans

    # 2. Widths.
    if is_type3:
        matrix = get(font_dict, "/FontMatrix")
        sx = num(matrix[0], 0.001) if isinstance(matrix, list) and len(matrix) == 6 else 0.001
        sy = num(matrix[3], 0.001) if isinstance(matrix, list) and len(matrix) == 6 else 0.001
        width_scale = sx if sx else 0.001
        # The font size (Tf) scales text space, whatever FontMatrix does to glyph space: a
        # 100-unit design with FontMatrix 0.01 at 12 Tf is 12 pt text, like any other font.
        bbox = get(font_dict, "/FontBBox")
        if isinstance(bbox, list) and len(bbox) == 4:
            top = num(resolve(bbox[3])) * abs(sy)
            font.ascent = top if 0.3 <= top <= 1.5 else 0.8
    else:
        width_scale = 0.001
        _metrics(font, descriptor)
    missing = num(get(descriptor, "/MissingWidth"), 0) * width_scale
    widths = [missing] * 256
    std_metrics = enc.standard_metrics(std) if std is not None else None
    if std_metrics is not None:
        by_char, default, ascent, _descent = std_metrics
        font.ascent = ascent / 1000.0 if ascent > 0 else font.ascent
        for code in range(256):
            ch = trans[code]
            widths[code] = by_char.get(ch, default) * 0.001
    first = int(num(get(font_dict, "/FirstChar"), 0))
    width_list = get(font_dict, "/Widths")
    if isinstance(width_list, list):
        for i, w in enumerate(width_list[:256]):
            code = first + i
            if 0 <= code < 256:
                value = num(resolve(w), 0) * width_scale
                if value or std_metrics is None:
                    widths[code] = value
    if not isinstance(width_list, list) and std_metrics is None and not is_type3:
        widths = [0.5 if missing == 0 else missing] * 256
    font.widths = widths
    if not is_type3 and to_unicode is None and not isinstance(encoding, dict):
        # An East Asian Windows font's name first: most fonts are not one, and then whether
        # their program decodes (it is decoded to know) does not matter.
        codec = _ansi_code_page(base_font, get(descriptor, "/FontName"))
        if codec is not None and program() is None:
            _read_as_code_page(font, codec)
    return font


#: Windows fonts of the East Asian ANSI code pages, by (normalised) family name. A producer that
#: leaves such a font unembedded can fill a simple font's strings with that code page's two-byte
#: characters, as Windows draws them; the viewers that render it (and pdfium, pdf.js) read
#: them so.
_CODE_PAGE_FONTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "gbk",
        (
            "宋体",
            "黑体",
            "楷体",
            "仿宋",
            "隶书",
            "幼圆",
            "华文",
            "方正",
            "微软雅黑",
            "simsun",
            "simhei",
            "simkai",
            "kaiti",
            "fangsong",
            "stsong",
            "stheiti",
            "stkaiti",
            "stfangsong",
            "microsoftyahei",
            "gb2312",
        ),
    ),
    (
        "cp950",
        ("細明體", "新細明體", "標楷體", "mingliu", "dfkai", "microsoftjhenghei"),
    ),
    (
        "cp932",
        (
            "ms明朝",
            "msp明朝",
            "msゴシック",
            "mspゴシック",
            "msmincho",
            "mspmincho",
            "msgothic",
            "mspgothic",
            "msuigothic",
            "meiryo",
            "メイリオ",
        ),
    ),
    (
        "cp949",
        (
            "바탕",
            "굴림",
            "돋움",
            "궁서",
            "맑은고딕",
            "batang",
            "gulim",
            "dotum",
            "gungsuh",
            "malgungothic",
        ),
    ),
)


def _ansi_code_page(*names: Any) -> str | None:
    """The East Asian code page a font's name implies (``None`` for any other font)."""
    candidates: list[str] = []
    for name in names:
        if not isinstance(name, str):
            continue
        bare = name.lstrip("/")
        candidates.append(bare)
        if not bare.isascii():
            # A name written in the code page's bytes that was read as Latin-1.
            for codec, _ in _CODE_PAGE_FONTS:
                try:
                    candidates.append(bare.encode("latin-1").decode(codec))
                except (UnicodeEncodeError, UnicodeDecodeError):
                    pass
    for candidate in candidates:
        key = unicodedata.normalize("NFKC", candidate.split("+", 1)[-1]).lower()
        key = "".join(ch for ch in key if ch not in " _-,")
        for codec, families in _CODE_PAGE_FONTS:
            if any(family in key for family in families):
                return codec
    return None


class _PairWidths(_WidthMap):
    """Widths of one- and two-byte codes of a simple font read in a code page: a two-byte
    character advances by the widths of both its bytes."""

    __slots__ = ("byte_widths",)

    def __init__(self, byte_widths: list[float]) -> None:
        super().__init__(0.0)
        self.byte_widths = byte_widths

    def __missing__(self, key: int) -> float:
        if key > 0xFF:
            width = self.byte_widths[(key >> 8) & 0xFF] + self.byte_widths[key & 0xFF]
        else:
            width = self.byte_widths[key & 0xFF]
        if len(self) < 65_536:
            self[key] = width
        return width


def _read_as_code_page(font: Font, codec: str) -> None:
    lengths = lead_byte_lengths(codec)
    if lengths is None:
        return
    font.simple = False
    font.code_len = 0
    font.lead_lengths = lengths
    font.text_map = _CodecMap(codec, 0)
    font.width_map = _PairWidths(font.widths)


def _trans(
    code_to_text: list[str | None], unicode: dict[int, str] | None, renamed: dict[int, str | None]
) -> dict[int, str]:
    """A simple font's ``str.translate`` table: the ToUnicode text of each code unless it is
    missing or stale, else the encoding's."""
    native = _native.NATIVE
    if native is not None:
        try:
            built: dict[int, str] | None = native.simple_trans(
                code_to_text, unicode, renamed, visual_cluster, UNMAPPED
            )
        except _native.Fault:  # a failure of the native code: Python builds the table
            built = None
        if built is not None:  # the same table (None: Python builds it)
            return built
    trans: dict[int, str] = {}
    for code in range(256):
        text = unicode.get(code) if unicode is not None else None
        if text is None or _stale_mapping(code, text, renamed.get(code)):
            text = code_to_text[code]
        trans[code] = UNMAPPED if text is None else visual_cluster(text)
    return trans


def _stale_mapping(code: int, mapped: str, named: str | None) -> bool:
    """A ToUnicode entry written for the font's old encoding, before ``/Differences`` gave the
    code another glyph: the map sends the code to its own ASCII sign (``!`` for 0x21) while
    the glyph the encoding names there is letters (``/f_f_i``, ``/eacute``). The glyph name
    is what is drawn."""
    return (
        named is not None
        and mapped == chr(code)
        and 32 < code < 127
        and not mapped.isalnum()
        and named != mapped
        and named.isalpha()
    )


def _parse_w(w_array: Any, width_map: _WidthMap) -> None:
    if not isinstance(w_array, list):
        return
    native = _native.NATIVE
    if native is not None:
        try:
            if native.parse_w(w_array, width_map, _MAX_WIDTH_ENTRIES):
                return  # filled natively (False: nothing done, Python must)
        except _native.Fault:  # a failure of the native code (before it fills anything)
            pass
    i = 0
    n = len(w_array)
    count = 0
    while i < n and count < _MAX_WIDTH_ENTRIES:
        first = resolve(w_array[i])
        nxt = resolve(w_array[i + 1]) if i + 1 < n else None
        if isinstance(nxt, list):
            for k, w in enumerate(nxt[:_MAX_WIDTH_ENTRIES]):
                width_map[int(num(first)) + k] = num(resolve(w)) / 1000.0
            count += len(nxt)
            i += 2
        elif i + 2 < n:
            lo, hi = int(num(first)), int(num(nxt))
            w = num(resolve(w_array[i + 2])) / 1000.0
            if 0 <= hi - lo < _MAX_WIDTH_ENTRIES:
                for cid in range(lo, hi + 1):
                    width_map[cid] = w
                count += hi - lo + 1
            i += 3
        else:
            break


def _load_type0(font_dict: DictionaryObject) -> Font:
    base_font = str(get(font_dict, "/BaseFont", ""))
    font = Font(_display_name(base_font))
    font.simple = False
    descendants = get(font_dict, "/DescendantFonts")
    cid_font = resolve(descendants[0]) if isinstance(descendants, list) and descendants else None
    descriptor = get(cid_font, "/FontDescriptor")
    _style(font, base_font, descriptor)
    _metrics(font, descriptor)

    encoding = get(font_dict, "/Encoding")
    codec: str | None = None
    enc_cmap: CMap | None = None
    if isinstance(encoding, str):
        font.vertical = is_vertical_name(encoding)
        if encoding not in ("/Identity-H", "/Identity-V"):
            codec = predefined_codec(encoding)
    elif isinstance(encoding, StreamObject):
        data = stream_data(encoding)
        enc_cmap = parse_cmap(data) if data else None
        if enc_cmap is not None:
            font.vertical = enc_cmap.vertical
            if enc_cmap.parent:
                font.vertical = font.vertical or is_vertical_name(enc_cmap.parent)
                if enc_cmap.parent not in ("/Identity-H", "/Identity-V"):
                    codec = predefined_codec(enc_cmap.parent)

    # How codes are split.
    if enc_cmap is not None and enc_cmap.codespaces:
        lengths = enc_cmap.code_lengths()
        if lengths == {2}:
            font.code_len = 2
        elif lengths == {1}:
            font.code_len = 1
        else:
            font.code_len = 0
            by_lead = [1] * 256
            for length, lo, hi in sorted(enc_cmap.codespaces, reverse=True):
                shift = 8 * (length - 1)
                for lead in range(lo >> shift, min((hi >> shift), 255) + 1):
                    by_lead[lead] = length
            font.lead_lengths = by_lead
    elif codec is not None and codec not in ("utf-16-be", JIS_X0208):
        if codec == "utf-8":
            font.code_len = 1
        elif codec == "utf-32-be":
            font.code_len = 0
            font.lead_lengths = [4] * 256
        else:
            font.code_len = 0
            font.lead_lengths = lead_byte_lengths(codec)

    # Widths by CID, then re-keyed by code.
    dw = num(get(cid_font, "/DW"), 1000.0) / 1000.0
    cid_widths = _WidthMap(dw)
    _parse_w(get(cid_font, "/W"), cid_widths)
    if font.vertical:
        dw2 = get(cid_font, "/DW2")
        vy = num(dw2[1], -1000.0) if isinstance(dw2, list) and len(dw2) == 2 else -1000.0
        font.dw = abs(vy) / 1000.0 or 1.0
        font.width_map = _WidthMap(font.dw)
    else:
        font.dw = dw
        width_map = _WidthMap(dw)
        if enc_cmap is None or not (enc_cmap.cids or enc_cmap.cid_ranges):
            width_map.update(cid_widths)
        else:
            for code, cid in enc_cmap.cids.items():
                if cid in cid_widths:
                    width_map[code] = cid_widths[cid]
        font.width_map = width_map

    # Text: what the font itself can tell (a predefined Unicode CMap reads directly; CIDs of
    # an Adobe collection have published Unicode values; an embedded TrueType program knows
    # which character each glyph draws), overlaid by the document's own /ToUnicode wherever
    # that map speaks (some cover only the first 256 codes).
    text_map = _font_text_map(cid_font, descriptor, codec, enc_cmap, font.code_len)
    to_unicode = _to_unicode(font_dict)
    if to_unicode is not None:
        text_map.update((code, visual_cluster(text)) for code, text in to_unicode.unicode.items())
    font.text_map = text_map
    return font


def _font_text_map(
    cid_font: Any, descriptor: Any, codec: str | None, enc_cmap: CMap | None, code_len: int
) -> _TextMap:
    if codec is not None:
        return _CodecMap(codec, code_len)
    info = get(cid_font, "/CIDSystemInfo")
    ordering = str(get(info, "/Ordering", ""))
    collection = cid_to_unicode(ordering)
    if collection is not None and str(get(info, "/Registry", "")) == "Adobe":
        return _CollectionMap(collection, enc_cmap, ordering)
    text_map = _TextMap()
    kind, program, _clear = _font_program(descriptor)
    if program is None or kind not in ("truetype", "opentype"):
        return text_map
    gid_text = truetype_unicodes(program)
    if not gid_text:
        return text_map
    cid_to_gid = get(cid_font, "/CIDToGIDMap")
    if not isinstance(cid_to_gid, StreamObject):  # /Identity: CID = glyph id
        text_map.update(gid_text)
        return text_map
    _texts_by_cid(stream_data(cid_to_gid) or b"", gid_text, text_map)
    return text_map


def _texts_by_cid(raw: bytes, gid_text: dict[int, str], text_map: _TextMap) -> None:
    """``text_map[cid]`` for each CID of a CIDToGIDMap (``raw``) whose glyph has a text."""
    native = _native.NATIVE
    if native is not None:
        try:
            native.cid_gid_text(raw, 131_072, gid_text, text_map)
            return
        except _native.Fault:
            # A failure of the native code: Python makes every assignment again, in the
            # same order (those made natively already are the same, in the same places).
            pass
    gid_of = array("H")
    gid_of.frombytes(raw[: min(len(raw), 131_072) // 2 * 2])
    if not _BIG_ENDIAN:
        gid_of.byteswap()
    for cid, gid in enumerate(gid_of):
        text = gid_text.get(gid) if gid else None
        if text is not None:
            text_map[cid] = text


class _CollectionMap(_TextMap):
    """code -> CID (identity, or the font's own CMap) -> Unicode by an Adobe collection."""

    def __init__(self, table: CidTable, cmap: CMap | None, ordering: str) -> None:
        super().__init__()
        self.table = table
        self.ordering = ordering
        self.cmap = cmap if cmap is not None and (cmap.cids or cmap.cid_ranges) else None

    def __missing__(self, key: int) -> str:
        cid = self.cmap.cid(key) if self.cmap is not None else key
        text = self._get(cid) if cid is not None else UNMAPPED
        if len(self) < 65_536:
            self[key] = text
        return text

    def _get(self, cid: int) -> str:
        try:
            text: str = self.table.get(cid, UNMAPPED)
        except _native.Fault:  # a failure of the native table: Python's own from here on
            self.table = python_table(self.ordering)
            text = self.table.get(cid, UNMAPPED)
        return text


class _CodecMap(_TextMap):
    """code -> text for predefined CMaps that are a known character encoding."""

    def __init__(self, codec: str, code_len: int) -> None:
        super().__init__()
        self.codec = codec
        self.code_len = code_len

    def __missing__(self, key: int) -> str:
        length = 2 if key > 0xFF or self.codec == "utf-16-be" else 1
        if key > 0xFFFF:
            length = 4
        try:
            if self.codec == JIS_X0208:
                raw = b"\x1b$B" + key.to_bytes(2, "big") + b"\x1b(B"
                text = raw.decode("iso2022_jp")
            else:
                text = key.to_bytes(length, "big").decode(self.codec)
        except (UnicodeDecodeError, OverflowError):
            text = UNMAPPED
        if len(self) < 65_536:
            self[key] = text
        return text
