"""A small PDF writer for tests: every byte of the output is decided here.

Tests state exactly the content stream and the resources they need::

    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    b.add_page(b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET", resources={"Font": {"F1": font}})
    data = b.build()

Python values map to PDF objects like this:

- ``str`` starting with ``/`` is a name (``"/Type"``); any other ``str`` is a text string
  (PDFDocEncoding when it is Latin-1, else UTF-16BE with a BOM);
- ``bytes`` is a literal string ``(...)`` (escaped as needed), :class:`Hex` a hex string;
- ``int``/``float``/``bool``/``None`` are numbers, ``true``/``false`` and ``null``;
- ``list`` is an array, ``dict`` a dictionary (keys with or without the leading ``/``);
- :class:`Ref` is an indirect reference, :class:`Stream` a stream, :class:`Raw` verbatim bytes.

Object 1 is always the catalog and object 2 the page tree root; other objects are numbered in
the order they are added. ``build`` writes a classic xref table and trailer (or leaves them out,
to exercise recovery).
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# --- values -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ref:
    num: int
    gen: int = 0


@dataclass(frozen=True)
class Hex:
    data: bytes


@dataclass(frozen=True)
class Raw:
    """Bytes written verbatim where an object or value is expected."""

    data: bytes


@dataclass
class Stream:
    data: bytes
    dict: dict[str, Any] = field(default_factory=dict)
    #: Compress with FlateDecode (``None``: the builder's default).
    flate: bool | None = None


_DELIMITERS = b"()<>[]{}/%#"


def name(value: str) -> bytes:
    """``"/A B"`` -> ``b"/A#20B"``: a name with the characters that need it written as #xx."""
    raw = value[1:] if value.startswith("/") else value
    out = bytearray(b"/")
    for byte in raw.encode("utf-8"):
        if byte < 0x21 or byte > 0x7E or byte in _DELIMITERS:
            out += b"#%02X" % byte
        else:
            out.append(byte)
    return bytes(out)


def literal(data: bytes) -> bytes:
    """A literal string: ``\\``, parentheses and CR escaped, every other byte as is."""
    out = data.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
    return b"(" + out.replace(b"\r", b"\\r") + b")"


def text_string(value: str) -> bytes:
    """A PDF text string: PDFDocEncoding (Latin-1 subset) or UTF-16BE with a BOM."""
    try:
        return value.encode("latin-1")
    except UnicodeEncodeError:
        return b"\xfe\xff" + value.encode("utf-16-be")


def number(value: float) -> bytes:
    if float(value).is_integer() and abs(value) < 1e15:
        return b"%d" % int(value)
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return text.encode("ascii")


def serialize(value: Any) -> bytes:
    """The PDF syntax of ``value`` (see the module docstring)."""
    if isinstance(value, Raw):
        return value.data
    if isinstance(value, Ref):
        return b"%d %d R" % (value.num, value.gen)
    if value is True:
        return b"true"
    if value is False:
        return b"false"
    if value is None:
        return b"null"
    if isinstance(value, (int, float)):
        return number(value)
    if isinstance(value, Hex):
        return b"<" + value.data.hex().upper().encode("ascii") + b">"
    if isinstance(value, (bytes, bytearray)):
        return literal(bytes(value))
    if isinstance(value, str):
        return name(value) if value.startswith("/") else literal(text_string(value))
    if isinstance(value, (list, tuple)):
        return b"[" + b" ".join(serialize(v) for v in value) + b"]"
    if isinstance(value, dict):
        parts = [name(_key(k)) + b" " + serialize(v) for k, v in value.items()]
        return b"<<" + b" ".join(parts) + b">>"
    raise TypeError(f"cannot write {value!r} as PDF")


def _key(key: str) -> str:
    return key if key.startswith("/") else "/" + key


# --- CMaps ------------------------------------------------------------------------------------


def _code_hex(code: int, length: int) -> bytes:
    length = max(length, (code.bit_length() + 7) // 8)
    return b"<" + code.to_bytes(length, "big").hex().upper().encode("ascii") + b">"


def _utf16_hex(text: str) -> bytes:
    return b"<" + text.encode("utf-16-be").hex().upper().encode("ascii") + b">"


def _code_length(code: int, codespace: Sequence[tuple[int, int, int]]) -> int:
    for lo, hi, length in codespace:
        if lo <= code <= hi:
            return length
    return codespace[0][2] if codespace else 2


def _codespace_section(codespace: Sequence[tuple[int, int, int]]) -> list[bytes]:
    lines = [b"%d begincodespacerange" % len(codespace)]
    for lo, hi, length in codespace:
        lines.append(_code_hex(lo, length) + b" " + _code_hex(hi, length))
    lines.append(b"endcodespacerange")
    return lines


def _cmap_wrapper(body: list[bytes], cmap_name: str, extra: Iterable[bytes] = ()) -> bytes:
    head = [
        b"/CIDInit /ProcSet findresource begin",
        b"12 dict begin",
        b"begincmap",
        *extra,
        b"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
        b"/CMapName " + name(cmap_name) + b" def",
        b"/CMapType 2 def",
    ]
    tail = [
        b"endcmap",
        b"CMapName currentdict /CMap defineresource pop",
        b"end",
        b"end",
    ]
    return b"\n".join(head + body + tail) + b"\n"


def to_unicode_cmap(
    bfchar: Mapping[int, str] | None = None,
    *,
    bfrange: Sequence[tuple[int, int, str | Sequence[str]]] = (),
    codespace: Sequence[tuple[int, int, int]] = ((0x0000, 0xFFFF, 2),),
    cmap_name: str = "/Adobe-Identity-UCS",
) -> bytes:
    """A ``/ToUnicode`` CMap.

    ``bfchar`` maps a code to its text (several characters for a ligature, a non-BMP character
    for a surrogate pair). ``bfrange`` entries are ``(low, high, start text)`` (the last UTF-16
    unit is incremented) or ``(low, high, [text, text, ...])`` (the array form). ``codespace``
    lists ``(low, high, byte length)``; each code is written with the length of the first range
    that holds it.
    """
    body = _codespace_section(codespace)
    chars = sorted((bfchar or {}).items())
    for start in range(0, len(chars), 100):
        chunk = chars[start : start + 100]
        body.append(b"%d beginbfchar" % len(chunk))
        for code, text in chunk:
            body.append(_code_hex(code, _code_length(code, codespace)) + b" " + _utf16_hex(text))
        body.append(b"endbfchar")
    if bfrange:
        body.append(b"%d beginbfrange" % len(bfrange))
        for lo, hi, dst in bfrange:
            length = _code_length(lo, codespace)
            if isinstance(dst, str):
                target = _utf16_hex(dst)
            else:
                target = b"[" + b" ".join(_utf16_hex(t) for t in dst) + b"]"
            body.append(_code_hex(lo, length) + b" " + _code_hex(hi, length) + b" " + target)
        body.append(b"endbfrange")
    return _cmap_wrapper(body, cmap_name)


def cid_cmap(
    cidchar: Mapping[int, int] | None = None,
    *,
    cidrange: Sequence[tuple[int, int, int]] = (),
    codespace: Sequence[tuple[int, int, int]] = ((0x0000, 0xFFFF, 2),),
    usecmap: str | None = None,
    wmode: int | None = None,
    cmap_name: str = "/Test-Encoding",
) -> bytes:
    """An encoding CMap for a Type 0 font: ``cidchar`` code -> CID, ``cidrange``
    ``(low, high, first CID)``, an optional parent (``usecmap``) and ``/WMode``."""
    extra: list[bytes] = []
    if wmode is not None:
        extra.append(b"/WMode %d def" % wmode)
    body: list[bytes] = []
    if usecmap is not None:
        body.append(name(usecmap) + b" usecmap")
    if codespace:
        body += _codespace_section(codespace)
    if cidchar:
        body.append(b"%d begincidchar" % len(cidchar))
        for code, cid in sorted(cidchar.items()):
            body.append(_code_hex(code, _code_length(code, codespace)) + b" %d" % cid)
        body.append(b"endcidchar")
    if cidrange:
        body.append(b"%d begincidrange" % len(cidrange))
        for lo, hi, first in cidrange:
            length = _code_length(lo, codespace)
            body.append(_code_hex(lo, length) + b" " + _code_hex(hi, length) + b" %d" % first)
        body.append(b"endcidrange")
    return _cmap_wrapper(body, cmap_name, extra)


# --- inline images ----------------------------------------------------------------------------


def inline_image(
    width: int,
    height: int,
    data: bytes,
    *,
    color_space: str = "/G",
    bpc: int = 8,
    filter: str | list[str] | None = None,
    length: bool = False,
    image_mask: bool = False,
    extra: Mapping[str, Any] | None = None,
) -> bytes:
    """``BI ... ID <data> EI`` with abbreviated keys; ``length=True`` adds ``/L``."""
    params: dict[str, Any] = {"W": width, "H": height}
    if image_mask:
        params["IM"] = True
    else:
        params["CS"] = color_space
        params["BPC"] = bpc
    if filter is not None:
        params["F"] = filter
    if length:
        params["L"] = len(data)
    params.update(extra or {})
    head = b" ".join(name(_key(k)) + b" " + serialize(v) for k, v in params.items())
    return b"BI " + head + b" ID " + data + b"\nEI"


# --- outlines ---------------------------------------------------------------------------------


@dataclass
class Outline:
    """One bookmark. ``dest`` is a 0-based page index (becomes ``[page /XYZ ...]``), a
    ``str``/``bytes`` named destination, or any raw value (a :class:`Ref`, a list, ...).
    ``action`` is written as ``/A`` verbatim; ``extra`` is merged into the item."""

    title: str | bytes
    dest: Any = None
    action: Any = None
    children: list[Outline] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    #: Children shown (a positive ``/Count``) or collapsed (negative).
    open: bool = True


# --- the builder ------------------------------------------------------------------------------

STANDARD_14 = (
    "Times-Roman",
    "Times-Bold",
    "Times-Italic",
    "Times-BoldItalic",
    "Helvetica",
    "Helvetica-Bold",
    "Helvetica-Oblique",
    "Helvetica-BoldOblique",
    "Courier",
    "Courier-Bold",
    "Courier-Oblique",
    "Courier-BoldOblique",
    "Symbol",
    "ZapfDingbats",
)


class PdfBuilder:
    """Collects objects and pages, then writes them out with :meth:`build`."""

    def __init__(self, version: str = "1.7", *, compress: bool = False) -> None:
        self.version = version
        self.compress = compress
        self.objects: list[Any] = [None, None]  # 1: catalog, 2: page tree root
        self.catalog_ref = Ref(1)
        self.pages_ref = Ref(2)
        self.page_refs: list[Ref] = []
        self.catalog: dict[str, Any] = {"Type": "/Catalog", "Pages": self.pages_ref}
        #: Extra entries of the page tree root (inheritable /Resources, /MediaBox, /Rotate).
        self.pages_extra: dict[str, Any] = {}
        #: The page tree root's whole dictionary, when a test shapes the tree itself (its
        #: nodes added as objects, its pages' /Parent given in ``extra``).
        self.pages_root: dict[str, Any] | None = None
        self.info: dict[str, Any] | None = None
        self.trailer_extra: dict[str, Any] = {}

    # objects

    def add(self, obj: Any) -> Ref:
        """Add an object (a value or a :class:`Stream`) and return its reference."""
        self.objects.append(obj)
        return Ref(len(self.objects))

    def reserve(self) -> Ref:
        """A number for an object given later with :meth:`set` (for cycles)."""
        return self.add(None)

    def set(self, ref: Ref, obj: Any) -> None:
        self.objects[ref.num - 1] = obj

    def get(self, ref: Ref) -> Any:
        return self.objects[ref.num - 1]

    def stream(self, data: bytes, flate: bool | None = None, **entries: Any) -> Ref:
        return self.add(Stream(data, dict(entries), flate))

    # pages

    def add_page(
        self,
        contents: bytes | Sequence[bytes] | None = b"",
        resources: Mapping[str, Any] | Ref | None = None,
        *,
        media_box: Sequence[float] | None = (0, 0, 612, 792),
        crop_box: Sequence[float] | None = None,
        rotate: int | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> Ref:
        """A page with one content stream, several (a list), or none (``None``)."""
        page: dict[str, Any] = {"Type": "/Page", "Parent": self.pages_ref}
        if media_box is not None:
            page["MediaBox"] = list(media_box)
        if crop_box is not None:
            page["CropBox"] = list(crop_box)
        if rotate is not None:
            page["Rotate"] = rotate
        if resources is not None:
            page["Resources"] = resources if isinstance(resources, Ref) else dict(resources)
        if isinstance(contents, (bytes, bytearray)):
            page["Contents"] = self.stream(bytes(contents))
        elif contents is not None:
            page["Contents"] = [self.stream(bytes(part)) for part in contents]
        page.update(extra or {})
        ref = self.add(page)
        self.page_refs.append(ref)
        return ref

    # fonts

    def _descriptor(self, base_font: str, flags: int, **extra: Any) -> Ref:
        desc: dict[str, Any] = {
            "Type": "/FontDescriptor",
            "FontName": _key(base_font),
            "Flags": flags,
            "FontBBox": [0, -200, 1000, 900],
            "ItalicAngle": 0,
            "Ascent": 800,
            "Descent": -200,
            "CapHeight": 700,
            "StemV": 80,
        }
        desc.update(extra)
        return self.add(desc)

    def _encoding_value(
        self, encoding: str | None, differences: Sequence[int | str] | None, base: str | None
    ) -> Any:
        if differences is None:
            return encoding
        enc: dict[str, Any] = {"Type": "/Encoding", "Differences": list(differences)}
        if base is not None:
            enc["BaseEncoding"] = base
        return enc

    def _to_unicode_ref(self, to_unicode: bytes | Mapping[int, str] | Ref | None) -> Ref | None:
        if to_unicode is None or isinstance(to_unicode, Ref):
            return to_unicode
        if isinstance(to_unicode, (bytes, bytearray)):
            return self.stream(bytes(to_unicode))
        return self.stream(to_unicode_cmap(to_unicode, codespace=((0, 0xFF, 1),)))

    def font_standard(
        self,
        base_font: str = "Helvetica",
        *,
        encoding: str | None = None,
        differences: Sequence[int | str] | None = None,
        base_encoding: str | None = None,
        first_char: int | None = None,
        widths: Sequence[float] | None = None,
        to_unicode: bytes | Mapping[int, str] | Ref | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> Ref:
        """A Type 1 font by name (standard 14 or not), no program embedded.

        ``encoding`` is a name (``"/WinAnsiEncoding"``); ``differences`` makes it an encoding
        dictionary (with ``base_encoding`` as ``/BaseEncoding``). A dict ``to_unicode`` is
        written as a one-byte ToUnicode CMap.
        """
        font: dict[str, Any] = {"Type": "/Font", "Subtype": "/Type1", "BaseFont": _key(base_font)}
        enc = self._encoding_value(encoding, differences, base_encoding)
        if enc is not None:
            font["Encoding"] = enc
        if widths is not None:
            font["FirstChar"] = first_char if first_char is not None else 0
            font["LastChar"] = font["FirstChar"] + len(widths) - 1
            font["Widths"] = list(widths)
            if base_font.lstrip("/") not in STANDARD_14:
                font["FontDescriptor"] = self._descriptor(base_font, 32)
        tu = self._to_unicode_ref(to_unicode)
        if tu is not None:
            font["ToUnicode"] = tu
        font.update(extra or {})
        return self.add(font)

    def font_truetype(
        self,
        base_font: str = "TestSans",
        *,
        first_char: int = 32,
        widths: Sequence[float] = (),
        encoding: str | None = "/WinAnsiEncoding",
        differences: Sequence[int | str] | None = None,
        flags: int = 32,
        missing_width: float | None = None,
        to_unicode: bytes | Mapping[int, str] | Ref | None = None,
        font_file: bytes | None = None,
        descriptor: Mapping[str, Any] | None = None,
    ) -> Ref:
        """A simple TrueType font with ``/FirstChar``/``/Widths`` (not embedded unless
        ``font_file`` is given, as ``/FontFile2``)."""
        desc_extra: dict[str, Any] = dict(descriptor or {})
        if missing_width is not None:
            desc_extra["MissingWidth"] = missing_width
        if font_file is not None:
            desc_extra["FontFile2"] = self.stream(font_file, Length1=len(font_file))
        font: dict[str, Any] = {
            "Type": "/Font",
            "Subtype": "/TrueType",
            "BaseFont": _key(base_font),
            "FirstChar": first_char,
            "LastChar": first_char + max(len(widths), 1) - 1,
            "Widths": list(widths),
            "FontDescriptor": self._descriptor(base_font, flags, **desc_extra),
        }
        enc = self._encoding_value(encoding, differences, None)
        if enc is not None:
            font["Encoding"] = enc
        tu = self._to_unicode_ref(to_unicode)
        if tu is not None:
            font["ToUnicode"] = tu
        return self.add(font)

    def font_type0(
        self,
        base_font: str = "TestCID",
        *,
        encoding: str | Ref = "/Identity-H",
        dw: float | None = None,
        w: Sequence[Any] | None = None,
        dw2: Sequence[float] | None = None,
        to_unicode: bytes | Mapping[int, str] | Ref | None = None,
        cid_subtype: str = "/CIDFontType2",
        font_file: bytes | None = None,
        cid_to_gid: bytes | str | None = None,
        descriptor: Mapping[str, Any] | None = None,
    ) -> Ref:
        """A composite font with one descendant CIDFont.

        A dict ``to_unicode`` is written as a two-byte ToUnicode CMap (use
        :func:`to_unicode_cmap` for other codespaces). ``font_file`` embeds a TrueType program
        (``/FontFile2``); ``cid_to_gid`` is ``"/Identity"`` or the bytes of a map stream.
        """
        desc_extra: dict[str, Any] = dict(descriptor or {})
        if font_file is not None:
            desc_extra["FontFile2"] = self.stream(font_file, Length1=len(font_file))
        cid_font: dict[str, Any] = {
            "Type": "/Font",
            "Subtype": cid_subtype,
            "BaseFont": _key(base_font),
            "CIDSystemInfo": {"Registry": b"Adobe", "Ordering": b"Identity", "Supplement": 0},
            "FontDescriptor": self._descriptor(base_font, 4, **desc_extra),
        }
        if dw is not None:
            cid_font["DW"] = dw
        if w is not None:
            cid_font["W"] = list(w)
        if dw2 is not None:
            cid_font["DW2"] = list(dw2)
        if isinstance(cid_to_gid, (bytes, bytearray)):
            cid_font["CIDToGIDMap"] = self.stream(bytes(cid_to_gid))
        elif cid_to_gid is not None:
            cid_font["CIDToGIDMap"] = cid_to_gid
        font: dict[str, Any] = {
            "Type": "/Font",
            "Subtype": "/Type0",
            "BaseFont": _key(base_font),
            "Encoding": encoding,
            "DescendantFonts": [self.add(cid_font)],
        }
        if isinstance(to_unicode, Mapping):
            font["ToUnicode"] = self.stream(to_unicode_cmap(to_unicode))
        elif to_unicode is not None:
            font["ToUnicode"] = self._to_unicode_ref(to_unicode)
        return self.add(font)

    def font_type3(
        self,
        *,
        char_procs: Mapping[str, bytes],
        differences: Sequence[int | str],
        first_char: int,
        widths: Sequence[float],
        font_matrix: Sequence[float] = (0.001, 0, 0, 0.001, 0, 0),
        font_bbox: Sequence[float] = (0, 0, 1000, 1000),
        resources: Mapping[str, Any] | None = None,
        to_unicode: bytes | Mapping[int, str] | Ref | None = None,
        name_: str | None = None,
    ) -> Ref:
        """A Type 3 font: glyph procedures by name, ``/Encoding`` with ``/Differences``,
        ``/Widths`` in glyph space (scaled by ``/FontMatrix``)."""
        procs = {_key(k): self.stream(v) for k, v in char_procs.items()}
        font: dict[str, Any] = {
            "Type": "/Font",
            "Subtype": "/Type3",
            "FontBBox": list(font_bbox),
            "FontMatrix": list(font_matrix),
            "CharProcs": procs,
            "Encoding": {"Type": "/Encoding", "Differences": list(differences)},
            "FirstChar": first_char,
            "LastChar": first_char + len(widths) - 1,
            "Widths": list(widths),
        }
        if name_ is not None:
            font["Name"] = _key(name_)
        if resources is not None:
            font["Resources"] = dict(resources)
        tu = self._to_unicode_ref(to_unicode)
        if tu is not None:
            font["ToUnicode"] = tu
        return self.add(font)

    # XObjects

    def form_xobject(
        self,
        content: bytes,
        *,
        bbox: Sequence[float] = (0, 0, 1000, 1000),
        matrix: Sequence[float] | None = None,
        resources: Mapping[str, Any] | None = None,
        ref: Ref | None = None,
    ) -> Ref:
        """A Form XObject; pass ``ref`` (from :meth:`reserve`) to fill a reserved number,
        which is how a form that draws itself is made."""
        entries: dict[str, Any] = {"Type": "/XObject", "Subtype": "/Form", "BBox": list(bbox)}
        if matrix is not None:
            entries["Matrix"] = list(matrix)
        if resources is not None:
            entries["Resources"] = dict(resources)
        stream = Stream(content, entries)
        if ref is None:
            return self.add(stream)
        self.set(ref, stream)
        return ref

    def image_xobject(
        self,
        width: int,
        height: int,
        data: bytes | None = None,
        *,
        color_space: Any = "/DeviceGray",
        bpc: int = 8,
        flate: bool = False,
        image_mask: bool = False,
        filter: str | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> Ref:
        """An image XObject. ``data`` defaults to mid-grey pixels; ``flate`` compresses it;
        ``filter`` names a filter for data given already encoded (e.g. ``"/DCTDecode"``)."""
        comps = 3 if color_space in ("/DeviceRGB",) else 4 if color_space == "/DeviceCMYK" else 1
        if data is None:
            bits = 1 if image_mask else bpc
            data = b"\x80" * (((width * comps * bits + 7) // 8) * height)
        entries: dict[str, Any] = {
            "Type": "/XObject",
            "Subtype": "/Image",
            "Width": width,
            "Height": height,
        }
        if image_mask:
            entries["ImageMask"] = True
            entries["BitsPerComponent"] = 1
        else:
            entries["ColorSpace"] = color_space
            entries["BitsPerComponent"] = bpc
        if filter is not None:
            entries["Filter"] = filter
        entries.update(extra or {})
        return self.add(Stream(data, entries, flate))

    # document-level structures

    def set_outline(
        self, items: Sequence[Outline], *, extra: Mapping[str, Any] | None = None
    ) -> Ref:
        """Write ``/Outlines`` with ``/First /Last /Next /Prev /Parent /Count``."""
        root = self.reserve()
        first, last, count = self._outline_level(items, root)
        root_dict: dict[str, Any] = {"Type": "/Outlines"}
        if first is not None:
            root_dict["First"] = first
            root_dict["Last"] = last
            root_dict["Count"] = count
        root_dict.update(extra or {})
        self.set(root, root_dict)
        self.catalog["Outlines"] = root
        return root

    def _outline_level(
        self, items: Sequence[Outline], parent: Ref
    ) -> tuple[Ref | None, Ref | None, int]:
        refs = [self.reserve() for _ in items]
        total = 0
        for i, (item, ref) in enumerate(zip(items, refs, strict=True)):
            node: dict[str, Any] = {"Title": item.title, "Parent": parent}
            if i > 0:
                node["Prev"] = refs[i - 1]
            if i + 1 < len(refs):
                node["Next"] = refs[i + 1]
            if item.dest is not None:
                node["Dest"] = self._dest_value(item.dest)
            if item.action is not None:
                node["A"] = item.action
            if item.children:
                first, last, count = self._outline_level(item.children, ref)
                node["First"] = first
                node["Last"] = last
                node["Count"] = count if item.open else -count
                if item.open:
                    total += count
            node.update(item.extra)
            self.set(ref, node)
            total += 1
        return (refs[0] if refs else None), (refs[-1] if refs else None), total

    def _dest_value(self, dest: Any) -> Any:
        if isinstance(dest, int) and not isinstance(dest, bool):
            return self.page_dest(dest)
        if isinstance(dest, str) and not dest.startswith("/"):
            return dest.encode("latin-1")  # a named destination as a string
        return dest

    def page_dest(self, index: int, top: float = 792) -> list[Any]:
        """``[page /XYZ 0 top 0]`` for the 0-based page ``index`` (which must exist by
        :meth:`build` time; pages added later are fine)."""
        return [_PageRef(self, index), "/XYZ", 0, top, 0]

    def set_dests_dict(self, dests: Mapping[str, Any]) -> Ref:
        """PDF 1.1 named destinations: the catalog's ``/Dests`` dictionary (keys are names)."""
        ref = self.add({_key(k): v for k, v in dests.items()})
        self.catalog["Dests"] = ref
        return ref

    def set_dests_name_tree(self, dests: Mapping[str, Any], *, leaves: int = 1) -> Ref:
        """Named destinations in the ``/Names`` tree's ``/Dests``, split into ``leaves``
        kids with ``/Limits`` (one leaf: the names sit in the root)."""
        keys = sorted(dests)
        if leaves <= 1:
            tree = self.add({"Names": _flat_names(keys, dests)})
        else:
            size = -(-len(keys) // leaves)
            kids = []
            for start in range(0, len(keys), size):
                chunk = keys[start : start + size]
                kids.append(
                    self.add(
                        {
                            "Limits": [chunk[0].encode(), chunk[-1].encode()],
                            "Names": _flat_names(chunk, dests),
                        }
                    )
                )
            tree = self.add({"Kids": kids})
        names = self.catalog.get("Names")
        if not isinstance(names, dict):
            names = {}
            self.catalog["Names"] = names
        names["Dests"] = tree
        return tree

    def set_page_labels(self, nums: Sequence[tuple[int, Mapping[str, Any]]]) -> None:
        """``/PageLabels << /Nums [index dict ...] >>``."""
        flat: list[Any] = []
        for index, label in nums:
            flat += [index, dict(label)]
        self.catalog["PageLabels"] = {"Nums": flat}

    def set_info(self, **entries: Any) -> None:
        self.info = dict(entries)

    def set_mark_info(self, marked: bool = True, **extra: Any) -> None:
        """``/MarkInfo << /Marked true >>`` in the catalog (a tagged PDF)."""
        self.catalog["MarkInfo"] = {"Marked": marked, **extra}

    def set_structure_tree(
        self,
        page: Ref,
        tree: StructNode,
        *,
        role_map: Mapping[str, str] | None = None,
        struct_parents: int = 0,
    ) -> dict[str, Ref]:
        """A structure tree (``/StructTreeRoot``) over ``page``'s marked content: ``tree`` is
        ``(type, kids)``, a kid being a nested node or an ``int`` (a marked-content id of the
        page). Gives the page ``/StructParents`` and the tree a ``/ParentTree`` mapping each
        id to its element, and a ``/RoleMap``. Returns the element references by
        ``"type#n"`` (``n`` counting that type's elements in tree order), so a test can
        break them."""
        root = self.reserve()
        refs: dict[str, Ref] = {}
        holder: dict[int, Ref] = {}

        def element(node: StructNode, parent: Ref) -> Ref:
            kind, kids = node
            ref = self.reserve()
            count = sum(1 for key in refs if key.split("#")[0] == kind)
            refs[f"{kind}#{count}"] = ref
            k: list[Any] = []
            for kid in kids:
                if isinstance(kid, int):
                    holder[kid] = ref
                    k.append(kid)
                else:
                    k.append(element(kid, ref))
            self.set(ref, {"Type": "/StructElem", "S": "/" + kind, "P": parent, "Pg": page,
                           "K": k})  # fmt: skip
            return ref

        top = element(tree, root)
        entry = [holder.get(i) for i in range(max(holder, default=-1) + 1)]
        parent_tree = self.add({"Nums": [struct_parents, self.add(entry)]})
        root_dict: dict[str, Any] = {"Type": "/StructTreeRoot", "K": [top],
                                     "ParentTree": parent_tree}  # fmt: skip
        if role_map:
            root_dict["RoleMap"] = {k: "/" + v for k, v in role_map.items()}
        self.set(root, root_dict)
        self.catalog["StructTreeRoot"] = root
        self.set_mark_info()
        self.get(page)["StructParents"] = struct_parents
        return refs

    def tag_every_page(self, pages: Sequence[Ref]) -> None:
        """A structure tree over ``pages`` as a word processor writes a long document's: each
        page's marked content 0 one ``P`` under one ``Document``, and the parent tree one
        ``/Nums`` array listing every page (page ``n``'s ``/StructParents`` is ``n``)."""
        root, document = self.reserve(), self.reserve()
        nums: list[Any] = []
        kids: list[Any] = []
        for n, page in enumerate(pages):
            self.get(page)["StructParents"] = n
            element = self.add({"Type": "/StructElem", "S": "/P", "P": document, "Pg": page,
                                "K": [0]})  # fmt: skip
            kids.append(element)
            nums += [n, self.add([element])]
        self.set(document, {"Type": "/StructElem", "S": "/Document", "P": root, "K": kids})
        self.set(root, {"Type": "/StructTreeRoot", "K": [document],
                        "ParentTree": self.add({"Nums": nums})})  # fmt: skip
        self.catalog["StructTreeRoot"] = root
        self.set_mark_info()

    # writing

    def build(
        self,
        *,
        xref: bool = True,
        trailer: bool = True,
        cyclic_page_tree: bool = False,
        header: bytes | None = None,
    ) -> bytes:
        """The file's bytes.

        ``xref=False`` leaves out the cross-reference table and ``startxref`` (``trailer=False``
        the trailer too): a file only a recovering reader opens. ``cyclic_page_tree`` hangs
        the pages under an intermediate node whose ``/Kids`` also point back to the root.
        """
        objects = list(self.objects)
        kids: list[Any] = list(self.page_refs)
        if cyclic_page_tree and kids:
            middle = Ref(len(objects) + 1)
            objects.append(
                {"Type": "/Pages", "Parent": self.pages_ref, "Kids": [*kids[1:], self.pages_ref]}
            )
            for page_ref in self.page_refs[1:]:
                page = dict(objects[page_ref.num - 1])
                page["Parent"] = middle
                objects[page_ref.num - 1] = page
            kids = [kids[0], middle]
        pages_dict: dict[str, Any] = {"Type": "/Pages", "Kids": kids, "Count": len(self.page_refs)}
        pages_dict.update(self.pages_extra)
        if self.pages_root is not None:
            pages_dict = self.pages_root
        objects[0] = self.catalog
        objects[1] = pages_dict
        info_ref: Ref | None = None
        if self.info is not None:
            objects.append(self.info)
            info_ref = Ref(len(objects))

        out = io.BytesIO()
        out.write(header if header is not None else b"%PDF-" + self.version.encode() + b"\n")
        out.write(b"%\xe2\xe3\xcf\xd3\n")
        offsets: list[int] = []
        for number, obj in enumerate(objects, start=1):
            offsets.append(out.tell())
            out.write(b"%d 0 obj\n" % number)
            out.write(self._object_bytes(self._resolve_page_refs(obj)))
            out.write(b"\nendobj\n")
        xref_at = out.tell()
        size = len(objects) + 1
        if xref:
            out.write(b"xref\n0 %d\n0000000000 65535 f \n" % size)
            for offset in offsets:
                out.write(b"%010d 00000 n \n" % offset)
        if trailer:
            entries: dict[str, Any] = {"Size": size, "Root": self.catalog_ref}
            if info_ref is not None:
                entries["Info"] = info_ref
            entries.update(self.trailer_extra)
            out.write(b"trailer\n" + serialize(entries) + b"\n")
        if xref:
            out.write(b"startxref\n%d\n" % xref_at)
        out.write(b"%%EOF\n")
        return out.getvalue()

    def _resolve_page_refs(self, obj: Any) -> Any:
        if isinstance(obj, _PageRef):
            return self.page_refs[obj.index]
        if isinstance(obj, Stream):
            return Stream(obj.data, self._resolve_page_refs(obj.dict), obj.flate)
        if isinstance(obj, dict):
            return {k: self._resolve_page_refs(v) for k, v in obj.items()}
        if isinstance(obj, (list, tuple)):
            return [self._resolve_page_refs(v) for v in obj]
        return obj

    def _object_bytes(self, obj: Any) -> bytes:
        if not isinstance(obj, Stream):
            return serialize(obj)
        data = obj.data
        entries = dict(obj.dict)
        if obj.flate if obj.flate is not None else self.compress:
            data = zlib.compress(data)
            previous = entries.get("Filter")
            if previous is None:
                entries["Filter"] = "/FlateDecode"
            else:
                before = previous if isinstance(previous, list) else [previous]
                entries["Filter"] = ["/FlateDecode", *before]
        entries["Length"] = len(data)
        return serialize(entries) + b"\nstream\n" + data + b"\nendstream"


@dataclass(frozen=True)
class _PageRef:
    """A reference to a page by index, resolved when the file is written."""

    builder: PdfBuilder
    index: int


def _flat_names(keys: Sequence[str], values: Mapping[str, Any]) -> list[Any]:
    flat: list[Any] = []
    for key in keys:
        flat += [key.encode("latin-1"), values[key]]
    return flat


# --- convenience ------------------------------------------------------------------------------


#: A structure tree node for :meth:`PdfBuilder.set_structure_tree`: ``(type, kids)``.
StructNode = tuple[str, "list[StructNode | int]"]


def marked_text(
    mcid: int | None, text: str, x: float, y: float, size: float = 10, font: str = "F1",
    tag: str = "P",
) -> bytes:  # fmt: skip
    """One line of text at baseline ``(x, y)`` (PDF units, y up) in marked content ``tag``
    with ``/MCID mcid`` (plain marked content ``BMC`` when ``mcid`` is ``None``)."""
    body = b"BT /%s %s Tf %s %s Td %s Tj ET" % (
        font.encode(), number(size), number(x), number(y), literal(text.encode("latin-1"))
    )  # fmt: skip
    if mcid is None:
        return b"/%s BMC %s EMC\n" % (tag.encode(), body)
    return b"/%s <</MCID %d>> BDC %s EMC\n" % (tag.encode(), mcid, body)


def simple_pdf(content: bytes, resources: Mapping[str, Any] | None = None, **page: Any) -> bytes:
    """One page with a Helvetica ``/F1`` (plus ``resources``) and ``content``."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    res: dict[str, Any] = {"Font": {"F1": font}}
    for key, value in (resources or {}).items():
        if key in res and isinstance(value, dict):
            res[key] = {**res[key], **value}
        else:
            res[key] = value
    b.add_page(content, res, **page)
    return b.build()


def lined_pages(pages: int, line: Callable[[int, int], str], lines: int = 40) -> bytes:
    """A ``pages``-page document in Helvetica 11: ``lines`` lines a page, line ``i`` of page
    ``n`` (both from 1 and 0) reading ``line(n, i)``."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    for n in range(1, pages + 1):
        shown = " ".join(f"0 -14 Td ({line(n, i)}) Tj" for i in range(lines))
        b.add_page(f"BT /F1 11 Tf 72 760 Td {shown} ET".encode(), {"Font": {"F1": font}})
    return b.build()


def object_stream_pdf(
    packed: Sequence[tuple[int, Any]],
    loose: Mapping[int, Any] | None = None,
    *,
    compress: bool = True,
) -> bytes:
    """A PDF 1.5 file whose objects ``packed`` (object number, value) are in one object stream
    and ``loose`` (values, or :class:`Stream` objects) outside it, found through a
    cross-reference stream (both streams compressed unless ``compress=False``); object 1 is
    the catalog. A number may come more than once in ``packed``: the cross-reference stream
    points at its first place (the others are there to be read, never asked for)."""
    loose = dict(loose or {})
    numbers = [num for num, _ in packed] + list(loose)
    stm_num = max(numbers) + 1
    xref_num = stm_num + 1
    offsets, parts, size = [], [], 0
    for _, value in packed:
        offsets.append(size)
        parts.append(serialize(value) + b"\n")
        size += len(parts[-1])
    index = b" ".join(b"%d %d" % (n, o) for (n, _), o in zip(packed, offsets, strict=True)) + b" "
    data = index + b"".join(parts)
    stm = Stream(data, {"Type": "/ObjStm", "N": len(packed), "First": len(index)}, compress)

    def stream_bytes(obj: Stream) -> bytes:
        raw = zlib.compress(obj.data) if obj.flate else obj.data
        entries = {**obj.dict, **({"Filter": "/FlateDecode"} if obj.flate else {})}
        return serialize({**entries, "Length": len(raw)}) + b"\nstream\n" + raw + b"\nendstream"

    out = io.BytesIO()
    out.write(b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n")
    at: dict[int, int] = {}
    for num, value in [*sorted(loose.items()), (stm_num, stm)]:
        at[num] = out.tell()
        text = stream_bytes(value) if isinstance(value, Stream) else serialize(value)
        out.write(b"%d 0 obj\n%s\nendobj\n" % (num, text))
    at[xref_num] = out.tell()
    place = {}
    for i, (num, _) in enumerate(packed):
        place.setdefault(num, i)
    rows = b""
    for num in range(xref_num + 1):
        if num in at:
            rows += struct.pack(">BIH", 1, at[num], 0)
        elif num in place:
            rows += struct.pack(">BIH", 2, stm_num, place[num])
        else:
            rows += struct.pack(">BIH", 0, 0, 65535)
    xref = Stream(
        rows,
        {"Type": "/XRef", "Size": xref_num + 1, "W": [1, 4, 2], "Root": Ref(1)},
        compress,
    )
    out.write(b"%d 0 obj\n%s\nendobj\n" % (xref_num, stream_bytes(xref)))
    out.write(b"startxref\n%d\n%%%%EOF\n" % at[xref_num])
    return out.getvalue()


def encrypt(
    data: bytes,
    user_password: str,
    owner_password: str | None = None,
    algorithm: str = "RC4-128",
) -> bytes:
    """``data`` encrypted by pypdf (``"RC4-40"``, ``"RC4-128"``, ``"AES-128"``,
    ``"AES-256"``)."""
    import logging

    import pypdf

    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.ERROR)  # cloning a deliberately broken file is noisy
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        writer = pypdf.PdfWriter(clone_from=reader)
        owner = owner_password if owner_password is not None else user_password + "-owner"
        writer.encrypt(user_password, owner, algorithm=algorithm)
        out = io.BytesIO()
        writer.write(out)
    finally:
        logger.setLevel(level)
    return out.getvalue()
