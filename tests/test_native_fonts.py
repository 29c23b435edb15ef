"""Fonts load the same with the native module as without it (docs/design.md, invariant 10).

``parse_cmap``, ``_parse_w``, a simple font's ``trans`` table, the CIDToGIDMap walk and the
Adobe CID -> Unicode tables have native mirrors (``pdfthin_native.parse_cmap``, ``parse_w``,
``simple_trans``, ``cid_gid_text``, ``cid_table``) that must build the very same objects:
every value, every float to the last bit, the insertion order of every dictionary, and the
same exception where Python raises (``load_font`` turns one into a broken-font placeholder,
so whether one happens is observable). Every font and every CMap of the corpus is loaded
both ways, and generated CMaps, width arrays and font dictionaries (junk included) too.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
import zlib
from collections.abc import Callable, Iterator
from importlib import resources
from typing import Any

import pytest
from conftest import CorpusFile, corpus_files, corpus_params, require_corpus
from fontprograms import (
    cmap_format0,
    cmap_format4,
    cmap_format4_glyph_array,
    cmap_format6,
    cmap_format12,
    cmap_only_sfnt,
    truetype_program,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_support import engine, native_module
from pypdf.generic import (
    ArrayObject,
    BooleanObject,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    IndirectObject,
    NameObject,
    NullObject,
    NumberObject,
    StreamObject,
    TextStringObject,
)

from pdfthin.engine import open_pdf
from pdfthin.engine.fonts import cidmaps
from pdfthin.engine.fonts import cmap as cmap_module
from pdfthin.engine.fonts import font as fonts
from pdfthin.engine.fonts import program as fontfile
from pdfthin.engine.fonts.font import Font, load_font
from pdfthin.engine.objects import get, resolve, stream_data
from pdfthin.errors import PdfthinError

SETTINGS = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)


# --- exact comparison ---------------------------------------------------------------------------


def difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where ``a`` and ``b`` differ: type, value (floats to the bit), length, dictionary key
    order, attributes of dictionary subclasses; ``None`` when they are the same."""
    if a is b:
        return None
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} != {type(b).__name__} ({a!r:.80} / {b!r:.80})"
    if isinstance(a, float):
        same = a.hex() == b.hex() or (math.isnan(a) and math.isnan(b))
        return None if same else f"{path}: {a!r} != {b!r}"
    if isinstance(a, (str, bytes, int, type(None))):
        return None if a == b else f"{path}: {a!r:.80} != {b!r:.80}"
    if isinstance(a, dict):
        found = difference(list(a), list(b), f"{path}.keys()")
        if found:
            return found
        for key in a:
            found = difference(
                dict.__getitem__(a, key), dict.__getitem__(b, key), f"{path}[{key!r}]"
            )
            if found:
                return found
        return _attributes(a, b, path)
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    if dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            found = difference(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}")
            if found:
                return found
        return None
    return _attributes(a, b, path)


def _attributes(a: Any, b: Any, path: str) -> str | None:
    names = [n for cls in type(a).__mro__ for n in getattr(cls, "__slots__", ())]
    names += list(getattr(a, "__dict__", {}))
    for name in names:
        found = difference(getattr(a, name, None), getattr(b, name, None), f"{path}.{name}")
        if found:
            return found
    return None


def outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    """What ``call`` returns, or the exception it raises (type and message)."""
    try:
        return "value", call()
    except Exception as exc:
        return "raised", (type(exc).__name__, str(exc))


def both_ways(call: Callable[[], Any]) -> tuple[tuple[str, Any], tuple[str, Any]]:
    module = native_module()
    with engine(None):
        pure = outcome(call)
    with engine(module):
        native = outcome(call)
    return pure, native


def assert_same(call: Callable[[], Any]) -> Any:
    pure, native = both_ways(call)
    found = difference(pure, native)
    assert found is None, found
    return native[1]


def same_font(font_dict: Any) -> Any:
    """Every field of the font (``Font.__slots__``), the same both ways."""

    def fields(font: Font) -> dict[str, Any]:
        return {name: getattr(font, name) for name in Font.__slots__}

    return assert_same(lambda: fields(load_font(font_dict)))


# --- the corpus ---------------------------------------------------------------------------------


def _font_dicts(pages: list[Any]) -> Iterator[Any]:
    """Every font dictionary the pages name, through forms' and Type 3 fonts' resources."""
    seen: set[int] = set()
    fonts_seen: set[int] = set()
    todo: list[Any] = []
    for page in pages:
        try:
            todo.append(resolve(page.get("/Resources")))
        except Exception:  # a damaged page: its resources are unreadable to both engines
            continue
    while todo:
        resources = todo.pop()
        if not isinstance(resources, dict) or id(resources) in seen:
            continue
        seen.add(id(resources))
        font_table = get(resources, "/Font")
        if isinstance(font_table, dict):
            for value in font_table.values():
                font = resolve(value)
                if isinstance(font, dict) and id(font) not in fonts_seen:
                    fonts_seen.add(id(font))
                    yield font
                    todo.append(get(font, "/Resources"))
        xobjects = get(resources, "/XObject")
        if isinstance(xobjects, dict):
            for value in xobjects.values():
                xobj = resolve(value)
                if isinstance(xobj, StreamObject) and get(xobj, "/Subtype") == "/Form":
                    todo.append(get(xobj, "/Resources"))


FILES = [f for f in corpus_files() if "bomb" not in f.tags]


@pytest.mark.corpus
@pytest.mark.parametrize("f", corpus_params(FILES))
def test_corpus_fonts_and_cmaps(f: CorpusFile | None) -> None:
    """Every font of the file as pdfthin opens it (damaged files through its recovery); a
    file pdfthin refuses (encrypted without its password, not a PDF) has no fonts to read."""
    require_corpus()
    assert f is not None
    native_module()
    try:
        doc = open_pdf(f.path, password=f.password)
    except PdfthinError:
        return
    for font_dict in _font_dicts(doc._pages):
        same_font(font_dict)
        for key in ("/ToUnicode", "/Encoding"):
            try:
                data = stream_data(get(font_dict, key))
            except Exception:  # an optional decryption library missing
                continue
            if data:
                assert_same(functools.partial(cmap_module.parse_cmap, data))


def test_most_corpus_files_have_fonts_compared() -> None:
    require_corpus()
    with_fonts = 0
    for f in FILES:
        try:
            doc = open_pdf(f.path, password=f.password)
        except PdfthinError:
            continue
        with_fonts += any(True for _ in _font_dicts(doc._pages))
    assert with_fonts > 200


def same_cid_table(call: Callable[[], Any]) -> Any:
    """The pure ``dict`` and the native ``CidTable`` are the same mapping (or raise the same):
    as many CIDs, each with the same text, and nothing for a CID the ``dict`` lacks."""
    (pure_kind, pure), (native_kind, native_table) = both_ways(call)
    native: Any = native_table
    if pure_kind != "value" or native_kind != "value" or not isinstance(native, module_cid_table()):
        found = difference((pure_kind, pure), (native_kind, native))
        assert found is None, found
        return native
    assert type(pure) is dict
    assert len(native) == len(pure)
    assert sorted(native.keys()) == sorted(pure) == native.keys()
    for cid, text in pure.items():
        assert native.get(cid) == text and native[cid] == text and cid in native
    for cid in (min(pure, default=0) - 1, max(pure, default=0) + 1, 2**70):
        if cid not in pure:
            assert native.get(cid, "-") == "-" and native.get(cid) is None and cid not in native
            with pytest.raises(KeyError):
                native[cid]
    return native


def module_cid_table() -> Any:
    return native_module().CidTable


@pytest.mark.parametrize("ordering", sorted(cidmaps.ORDERINGS))
def test_adobe_collections(ordering: str) -> None:
    """The packed tables read natively (not the cached ones: each engine reads afresh)."""
    table: Any = same_cid_table(lambda: cidmaps.cid_to_unicode.__wrapped__(ordering))
    assert isinstance(table, module_cid_table()) and len(table) > 1000


# --- CMaps --------------------------------------------------------------------------------------

_UNITS = [0x0041, 0x00E9, 0x0000, 0x0021, 0x05D0, 0xD835, 0xDC00, 0xDBFF, 0xDFFF, 0xFFFF, 0x0644]


def _hex(data: bytes, odd: bool) -> bytes:
    digits = data.hex().upper().encode()
    if odd and digits:
        digits = digits[:-1]
    return b"<" + digits + b">"


_code = st.builds(
    _hex,
    st.one_of(
        st.integers(0, 0xFFFF).map(lambda v: v.to_bytes(2, "big")),
        st.binary(min_size=0, max_size=5),
    ),
    st.booleans(),
)
_text = st.builds(
    _hex,
    st.one_of(
        st.lists(st.sampled_from(_UNITS), min_size=1, max_size=4).map(
            lambda units: b"".join(u.to_bytes(2, "big") for u in units)
        ),
        st.binary(min_size=0, max_size=10),
    ),
    st.booleans(),
)
_number = st.one_of(
    st.integers(-5, 70_000).map(lambda v: str(v).encode()),
    st.sampled_from([b"1.5", b"-0.5", b".5", b"1e5", b"9" * 400, b"1" + b"0" * 20, b"65535"]),
)
_glyph = st.sampled_from([b"/fi", b"/A", b"/uni0041", b"/.notdef", b"/junk", b"/f_f_i", b"/u1D400"])
_garbage = st.sampled_from(
    [
        b"(lit)",
        b"<<",
        b">>",
        b"[",
        b"]",
        b"{",
        b"}",
        b"%comment\n",
        b"BI /L " + b"9" * 400 + b" ID xx EI",
        b"null",
        b"true",
        b"/N#41",
        b")",
        b"def",
        b"begincmap",
        b"/WMode 1 def",
        b"/WMode true def",
        b"/WMode 0 def",
        b"/Parent-H usecmap",
        b"/UniJIS-UCS2-V usecmap",
    ]
)


def _section(name: bytes, rows: list[list[bytes]]) -> bytes:
    body = b"\n".join(b" ".join(row) for row in rows)
    return b"%d begin%s\n%s\nend%s\n" % (len(rows), name, body, name)


_sections = st.one_of(
    st.lists(st.lists(_code, min_size=2, max_size=2), max_size=4).map(
        lambda rows: _section(b"codespacerange", rows)
    ),
    st.lists(st.tuples(_code, st.one_of(_text, _glyph)), max_size=6).map(
        lambda rows: _section(b"bfchar", [list(r) for r in rows])
    ),
    st.lists(
        st.tuples(
            _code,
            _code,
            st.one_of(
                _text,
                st.lists(st.one_of(_text, _number), max_size=5).map(
                    lambda items: b"[" + b" ".join(items) + b"]"
                ),
            ),
        ),
        max_size=4,
    ).map(lambda rows: _section(b"bfrange", [list(r) for r in rows])),
    st.lists(st.tuples(_code, _code, st.one_of(_number, _text)), max_size=4).map(
        lambda rows: _section(b"cidrange", [list(r) for r in rows])
    ),
    st.lists(st.tuples(_code, st.one_of(_number, _text)), max_size=6).map(
        lambda rows: _section(b"cidchar", [list(r) for r in rows])
    ),
    _garbage,
    st.lists(st.one_of(_code, _number, _glyph, _text), max_size=5).map(b" ".join),
)


@st.composite
def cmaps(draw: st.DrawFn) -> bytes:
    data = b"\n".join(draw(st.lists(_sections, max_size=8)))
    if draw(st.booleans()):
        data = data[: draw(st.integers(0, len(data)))]  # truncated
    return data


@SETTINGS
@given(cmaps(), st.sampled_from([None, (3, 10), (300, 20), (1, 1)]), st.sampled_from([0, 1, 2]))
def test_generated_cmaps(data: bytes, bounds: tuple[int, int] | None, _: int) -> None:
    saved = cmap_module.MAX_RANGE, cmap_module.MAX_ENTRIES
    if bounds is not None:
        cmap_module.MAX_RANGE, cmap_module.MAX_ENTRIES = bounds
    try:
        assert_same(lambda: cmap_module.parse_cmap(data))
    finally:
        cmap_module.MAX_RANGE, cmap_module.MAX_ENTRIES = saved


@pytest.mark.parametrize(
    "data",
    [
        b"1 beginbfrange <0000> <FFFF> <0041> endbfrange",
        b"1 beginbfrange <00000000> <FFFFFFFF> <D800> endbfrange",
        b"1 beginbfrange <0000> <FFFF> <FFF0> endbfrange",
        b"1 beginbfrange <00> <FF> <FFFFFFFFFFFFFFF0> endbfrange",
        b"1 beginbfrange <00> <FF> <FFFFFFFFFFFFFFFFF0> endbfrange",
        b"1 beginbfrange <00> <10> <F> endbfrange",
        b"1 beginbfrange <00> <FF> <0041 0042> endbfrange",
        b"1 beginbfrange <0000> <0003> [<0041> 5 <D835DC00> <DC00>] endbfrange",
        b"1 begincidrange <0000> <FFFF> 1 endcidrange 1 begincidrange <00> <10> 1 endcidrange",
        b"1 begincidrange <00> <10> " + b"9" * 400 + b" endcidrange",
        b"1 begincidrange <00> <10> 1" + b"0" * 20 + b" endcidrange",
        b"1 begincidchar <00> " + b"9" * 400 + b" endcidchar",
        b"BI /L " + b"9" * 400 + b" ID x EI 1 beginbfchar <01> <0041> endbfchar",
        b"1 beginbfchar <01> /fi <02> /.notdef <03> (lit) endbfchar /WMode true def",
        b"\n".join(b"100 beginbfrange <0000> <FFFF> <4E00> endbfrange" for _ in range(8))
        + b" 1 begincidchar <00> "
        + b"9" * 400
        + b" endcidchar",
    ],
)
def test_cmap_edges(data: bytes) -> None:
    assert_same(lambda: cmap_module.parse_cmap(data))


# --- widths (/W) ----------------------------------------------------------------------------------

_scalar = st.one_of(
    st.integers(-2000, 70_000).map(NumberObject),
    st.floats(allow_nan=True, allow_infinity=True, width=64).map(FloatObject),
    st.sampled_from(
        [
            NumberObject(10**20),
            NumberObject(10**400),
            FloatObject(1e12),
            FloatObject(-1e12 + 1),
            NameObject("/W"),
            TextStringObject("12"),
            TextStringObject("nan"),
            NullObject(),
            BooleanObject(True),
            DictionaryObject(),
        ]
    ),
)
_w_item = st.one_of(
    _scalar,
    _scalar,
    _scalar,
    st.lists(st.one_of(_scalar, st.just(ArrayObject())), max_size=6).map(ArrayObject),
)


@SETTINGS
@given(st.lists(_w_item, max_size=12).map(ArrayObject), st.sampled_from([None, 5, 100]))
def test_parse_w(w_array: ArrayObject, cap: int | None) -> None:
    saved = fonts._MAX_WIDTH_ENTRIES
    if cap is not None:
        fonts._MAX_WIDTH_ENTRIES = cap
    try:

        def parse() -> fonts._WidthMap:
            width_map = fonts._WidthMap(0.25)
            fonts._parse_w(w_array, width_map)
            return width_map

        assert_same(parse)
    finally:
        fonts._MAX_WIDTH_ENTRIES = saved


def test_parse_w_large_ranges() -> None:
    def parse(w: list[Any]) -> Callable[[], fonts._WidthMap]:
        def run() -> fonts._WidthMap:
            width_map = fonts._WidthMap(1.0)
            fonts._parse_w(ArrayObject(w), width_map)
            return width_map

        return run

    n = NumberObject
    assert_same(parse([n(0), n(65_535), n(500), n(1), n(70_000), n(3), n(5), n(4), n(1)]))
    assert_same(parse([n(0), ArrayObject([n(500)] * 70_000), n(7), ArrayObject([n(1)])]))
    assert_same(parse([n(5), ArrayObject([n(1)]), n(5), ArrayObject([n(2), n(3)])]))
    assert_same(parse([n(0), IndirectObject(1, 0, None), n(3)]))


# --- simple fonts' trans tables ---------------------------------------------------------------

_TEXTS = ["A", "!", "a", "fi", "\ufb01", "لا", "ab", "é", "\ud800", "", "ffi", "א", "1", " ", "."]
_maybe_text = st.one_of(st.none(), st.sampled_from(_TEXTS), st.text(max_size=3))


@SETTINGS
@given(
    st.lists(_maybe_text, min_size=256, max_size=256),
    st.one_of(
        st.none(),
        st.dictionaries(st.integers(-3, 300), st.sampled_from([*_TEXTS, "!", "."])),
    ),
    st.dictionaries(st.integers(0, 255), _maybe_text),
)
def test_trans(
    code_to_text: list[str | None], unicode: dict[int, str] | None, renamed: dict[int, str | None]
) -> None:
    assert_same(lambda: fonts._trans(code_to_text, unicode, renamed))


def test_trans_stale_identity() -> None:
    code_to_text: list[str | None] = [chr(c) if c >= 32 else None for c in range(256)]
    unicode = {c: chr(c) for c in range(256)}
    renamed: dict[int, str | None] = {0x21: "ff", 0x22: "\u00e9", 0x23: "!", 0x24: "1", 0x41: "B"}
    for code, text in renamed.items():
        code_to_text[code] = text
    trans = assert_same(lambda: fonts._trans(code_to_text, unicode, renamed))
    assert trans[0x21] == "ff" and trans[0x23] == "#"


# --- CIDToGIDMap and the collection tables ----------------------------------------------------


@SETTINGS
@given(
    st.binary(max_size=64),
    st.dictionaries(st.integers(0, 0x1FF), st.sampled_from(_TEXTS), max_size=40),
)
def test_texts_by_cid(raw: bytes, gid_text: dict[int, str]) -> None:
    def run() -> fonts._TextMap:
        text_map = fonts._TextMap({7: "x"})
        fonts._texts_by_cid(raw, gid_text, text_map)
        return text_map

    assert_same(run)


def test_texts_by_cid_is_bounded() -> None:
    raw = bytes(range(256)) * 1200
    gid_text = {gid: chr(0x4E00 + gid) for gid in range(1, 0x10000, 3)}

    def run() -> fonts._TextMap:
        text_map = fonts._TextMap()
        fonts._texts_by_cid(raw, gid_text, text_map)
        return text_map

    assert len(assert_same(run)) > 1000


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


_varint_value = st.one_of(
    st.integers(0, 300),
    st.integers(0, 0x22_0000),
    st.sampled_from([0xD800 * 2, 0x11_0000 * 2, 1, 3, 2**70, 2**62, 2**63 + 1]),
)


@SETTINGS
@given(
    st.one_of(
        st.lists(_varint_value, max_size=30).map(lambda v: b"".join(map(_varint, v))),
        st.binary(max_size=40),
    )
)
def test_cid_table(data: bytes) -> None:
    same_cid_table(lambda: cidmaps._read_table(data))


def test_cid_table_of_real_data() -> None:
    for ordering in sorted(cidmaps.ORDERINGS):
        raw = (resources.files(cidmaps.__name__) / f"Adobe-{ordering}.bin").read_bytes()
        data = zlib.decompress(raw)
        same_cid_table(functools.partial(cidmaps._read_table, data[: len(data) // 2]))


# --- whole fonts --------------------------------------------------------------------------------


def _stream(data: bytes) -> DecodedStreamObject:
    stream = DecodedStreamObject()
    stream.set_data(data)
    return stream


def _name(value: str) -> NameObject:
    return NameObject(value)


_differences_item = st.one_of(
    st.integers(-3, 300).map(NumberObject),
    st.sampled_from([FloatObject(33.7), FloatObject(-1.0)]),
    st.sampled_from(
        [
            "/A",
            "/fi",
            "/f_f_i",
            "/eacute",
            "/exclam",
            "/.notdef",
            "/junk",
            "/uni0041",
            "/alef",
            "/one",
            "/space",
        ]
    ).map(_name),
    st.sampled_from([TextStringObject("x"), NullObject(), BooleanObject(False)]),
)
_widths = st.one_of(
    st.lists(_scalar, max_size=40).map(ArrayObject),
    st.lists(st.integers(0, 1000).map(NumberObject), min_size=200, max_size=260).map(ArrayObject),
    st.sampled_from([NameObject("/W"), NumberObject(3)]),
)
_simple_to_unicode = st.one_of(
    cmaps(),
    st.dictionaries(st.integers(0, 255), st.sampled_from([*_TEXTS[:9], "#", "$"])).map(
        lambda m: (
            b"1 begincodespacerange <00> <FF> endcodespacerange "
            + _section(
                b"bfchar",
                [
                    [_hex(bytes([c]), False), _hex(t.encode("utf-16-be", "surrogatepass"), False)]
                    for c, t in m.items()
                ],
            )
        )
    ),
)


@st.composite
def simple_fonts(draw: st.DrawFn) -> DictionaryObject:
    font = DictionaryObject()
    font[_name("/Type")] = _name("/Font")
    subtype = draw(st.sampled_from(["/Type1", "/TrueType", "/Type3", "/MMType1"]))
    font[_name("/Subtype")] = _name(subtype)
    base = draw(
        st.sampled_from(
            [
                None,
                "/Helvetica",
                "/Times-Bold",
                "/Symbol",
                "/ZapfDingbats",
                "/ABCDEF+Foo",
                "/SimSun",
                "/MSMincho",
            ]
        )
    )
    if base is not None:
        font[_name("/BaseFont")] = _name(base)
    descriptor = DictionaryObject()
    descriptor[_name("/Flags")] = NumberObject(draw(st.sampled_from([0, 4, 32, 36, 1 << 18])))
    if draw(st.booleans()):
        descriptor[_name("/MissingWidth")] = draw(_scalar)
    descriptor[_name("/Ascent")] = NumberObject(draw(st.sampled_from([0, 700, 2000])))
    if draw(st.booleans()):
        font[_name("/FontDescriptor")] = descriptor
    encoding = draw(st.sampled_from(["none", "name", "dict", "junk"]))
    if encoding == "name":
        font[_name("/Encoding")] = _name(
            draw(
                st.sampled_from(
                    [
                        "/WinAnsiEncoding",
                        "/MacRomanEncoding",
                        "/StandardEncoding",
                        "/PDFDocEncoding",
                        "/X",
                    ]
                )
            )
        )
    elif encoding == "dict":
        enc = DictionaryObject()
        if draw(st.booleans()):
            enc[_name("/BaseEncoding")] = _name(draw(st.sampled_from(["/WinAnsiEncoding", "/X"])))
        enc[_name("/Differences")] = ArrayObject(draw(st.lists(_differences_item, max_size=20)))
        font[_name("/Encoding")] = enc
    elif encoding == "junk":
        font[_name("/Encoding")] = NumberObject(3)
    if draw(st.booleans()):
        font[_name("/FirstChar")] = draw(
            st.one_of(st.integers(-300, 300).map(NumberObject), _scalar)
        )
    if draw(st.booleans()):
        font[_name("/Widths")] = draw(_widths)
    if draw(st.booleans()):
        font[_name("/ToUnicode")] = _stream(draw(_simple_to_unicode))
    if subtype == "/Type3":
        if draw(st.booleans()):
            font[_name("/FontMatrix")] = ArrayObject([draw(_scalar) for _ in range(6)])
        if draw(st.booleans()):
            font[_name("/FontBBox")] = ArrayObject([draw(_scalar) for _ in range(4)])
    return font


@SETTINGS
@given(simple_fonts())
def test_simple_fonts(font_dict: DictionaryObject) -> None:
    same_font(font_dict)


@st.composite
def type0_fonts(draw: st.DrawFn) -> DictionaryObject:
    font = DictionaryObject()
    font[_name("/Subtype")] = _name("/Type0")
    font[_name("/BaseFont")] = _name(draw(st.sampled_from(["/ABCDEF+Mincho", "/Arial-Bold"])))
    cid_font = DictionaryObject()
    cid_font[_name("/Subtype")] = _name("/CIDFontType2")
    info = DictionaryObject()
    info[_name("/Registry")] = TextStringObject(draw(st.sampled_from(["Adobe", "X"])))
    info[_name("/Ordering")] = TextStringObject(
        draw(st.sampled_from(["Japan1", "GB1", "Identity", "Korea1"]))
    )
    cid_font[_name("/CIDSystemInfo")] = info
    if draw(st.booleans()):
        cid_font[_name("/DW")] = draw(_scalar)
    if draw(st.booleans()):
        cid_font[_name("/W")] = ArrayObject(draw(st.lists(_w_item, max_size=12)))
    font[_name("/DescendantFonts")] = ArrayObject([cid_font])
    encoding = draw(st.sampled_from(["identity", "vertical", "stream", "codec"]))
    if encoding == "identity":
        font[_name("/Encoding")] = _name("/Identity-H")
    elif encoding == "vertical":
        font[_name("/Encoding")] = _name("/Identity-V")
    elif encoding == "codec":
        font[_name("/Encoding")] = _name("/UniJIS-UCS2-H")
    else:
        font[_name("/Encoding")] = _stream(draw(cmaps()))
    if draw(st.booleans()):
        font[_name("/ToUnicode")] = _stream(draw(cmaps()))
    return font


@SETTINGS
@given(type0_fonts())
def test_type0_fonts(font_dict: DictionaryObject) -> None:
    font = same_font(font_dict)
    assert isinstance(font, dict)


# --- TrueType cmaps -----------------------------------------------------------------------------


def _sfnt_programs() -> list[bytes]:
    """Each subtable format, a choice between subtables, private-use aliases, overlapping
    segments, and a font written by fontTools."""
    return [
        cmap_only_sfnt([(1, 0, cmap_format0({0x41: 3, 0x42: 4}))]),
        cmap_only_sfnt([(3, 1, cmap_format4([(0x41, 0x43, -0x40), (0x61, 0x61, 100)]))]),
        cmap_only_sfnt([(3, 1, cmap_format4_glyph_array(0x30, [7, 0, 9]))]),
        cmap_only_sfnt([(3, 1, cmap_format6(0x20, [5, 0, 6]))]),
        cmap_only_sfnt([(3, 10, cmap_format12([(0x1F600, 0x1F602, 10), (0x41, 0x42, 0)]))]),
        cmap_only_sfnt(
            [
                (1, 0, cmap_format0({0x41: 9})),
                (3, 1, cmap_format4([(0x41, 0x41, 1 - 0x41), (0xF041, 0xF041, 1 - 0xF041)])),
                (0, 3, cmap_format6(0x20, [5, 0, 6])),
                (3, 1, cmap_format4([(0xF020, 0xF030, 5 - 0xF020), (0x20, 0x25, -0x1B)])),
            ]
        ),
        cmap_only_sfnt([(3, 1, cmap_format4([(0x20, 0x40, 0), (0x30, 0x50, 1)]))]),
        cmap_only_sfnt([(3, 0, cmap_format4([(0xF020, 0xF021, 3 - 0xF020)]))]),
        cmap_only_sfnt([(0, 4, cmap_format12([(0xD7FE, 0xD801, 4)]))]),  # surrogates
        truetype_program({0x41: "A", 0x42: "B", 0x1F600: "smile"}),
        cmap_only_sfnt([(3, 10, cmap_format12([(0x10FFFE, 0x110002, 5), (0x41, 0x41, 1)]))]),
    ]


def test_truetype_unicodes_of_overlapping_ranges() -> None:
    """Both ways stop at the same code budget (the rest of a subtable left out)."""
    groups = [(0xE000, 0xE000 + 65_536, 1)] * 40  # no surrogate code: answered natively
    segments = [(0x20, 0xD7FF, 1)] * 40
    for program in (
        cmap_only_sfnt([(3, 10, cmap_format12(groups)), (3, 1, cmap_format4(segments))]),
        cmap_only_sfnt([(3, 1, cmap_format4(segments)), (3, 10, cmap_format12(groups))]),
        cmap_only_sfnt([(0, 3, cmap_format4(segments[:15])), (3, 1, cmap_format4(segments))]),
    ):
        found = assert_same(lambda program=program: fontfile.truetype_unicodes(program))
        assert native_module().truetype_unicodes(program) == found and len(found) > 50_000


def test_truetype_unicodes_natively() -> None:
    """Each format read natively, the same as Python's (a surrogate code is Python's)."""
    module = native_module()
    for program in _sfnt_programs():
        found = assert_same(lambda program=program: fontfile.truetype_unicodes(program))
        native = module.truetype_unicodes(program)
        if any(0xD800 <= ord(text) <= 0xDFFF for text in found.values()):
            assert native is None
        else:
            assert native == found and list(native) == list(found)


def test_truetype_unicodes_of_damaged_programs() -> None:
    """Every cut and many byte changes of each program: the same answer both ways."""
    rng = random.Random(7)
    for program in _sfnt_programs():
        for cut in range(0, len(program), 3):
            assert_same(lambda p=program[:cut]: fontfile.truetype_unicodes(p))
        for _ in range(150):
            changed = bytearray(program)
            for _ in range(rng.randint(1, 4)):
                changed[rng.randrange(len(changed))] = rng.choice(
                    (0, 1, 0x7F, 0xFF, rng.randrange(256))
                )
            assert_same(lambda p=bytes(changed): fontfile.truetype_unicodes(p))


@SETTINGS
@given(st.binary(max_size=300), st.integers(0, 3), st.integers(0, 40))
def test_truetype_unicodes_soup(tail: bytes, which: int, at: int) -> None:
    program = _sfnt_programs()[which]
    assert_same(lambda: fontfile.truetype_unicodes(program[: 12 + at] + tail))
    assert_same(lambda: fontfile.truetype_unicodes(program + tail))


def test_truetype_unicodes_of_the_corpus() -> None:
    """Every embedded TrueType program of the corpus (``/FontFile2``) both ways."""
    require_corpus()
    read = answered = 0
    for f in FILES:
        try:
            doc = open_pdf(f.path, password=f.password)
        except PdfthinError:
            continue
        for font_dict in _font_dicts(doc._pages):
            for cid_font in [font_dict, *(get(font_dict, "/DescendantFonts") or [])]:
                descriptor = get(resolve(cid_font), "/FontDescriptor")
                program = stream_data(get(descriptor, "/FontFile2")) if descriptor else None
                if program:
                    assert_same(lambda program=program: fontfile.truetype_unicodes(program))
                    read += 1
                    answered += native_module().truetype_unicodes(program) is not None
    assert read > 50
    assert answered >= 0.95 * read  # natively, not handed back to Python
