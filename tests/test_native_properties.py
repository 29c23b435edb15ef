"""Random and corrupted input into both engines: any difference fails.

- content streams made of random bytes, and of a soup of real tokens (operators, operands of
  every type, broken strings, inline images, marked content, forms that draw themselves),
  interpreted on a page whose resources hold simple, composite, vertical and codec fonts,
  images, forms and property lists;
- real content streams of corpus pages, truncated and corrupted;
- the lexer alone on random bytes; font decoding on random tables; CPython's float ``sum()``.

``PDFTHIN_FUZZ_SECONDS`` makes :func:`test_fuzz_for_a_while` a bounded differential fuzz run
(CI runs it for a minute); without it the run is a few hundred streams.
"""

from __future__ import annotations

import math
import os
import random
import time
from typing import Any

import pytest
from conftest import CORPUS_FILES, require_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_support import both, content_stream, engine, first_difference, native_module
from pdfbuilder import PdfBuilder, cid_cmap
from test_native_differential import native_tokens, pure_tokens

from pdfthin.engine import open_pdf
from pdfthin.engine.content.interpreter import content_bytes
from pdfthin.engine.content.native_page import LARGE_TEXT_MAP, native_font
from pdfthin.engine.document import EngineDocument
from pdfthin.engine.fonts.font import UNMAPPED, Font, _CodecMap, _TextMap, _WidthMap
from pdfthin.errors import PdfthinError

SETTINGS = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    derandomize=True,
)


def _resource_pdf() -> bytes:
    b = PdfBuilder()
    helv = b.font_standard("Helvetica")
    times = b.font_standard("Times-Bold", differences=[65, "/Adieresis", "/fi", "/bogus"])
    cid = b.font_type0(
        "TestCID",
        w=[1, [500, 600, 700], 10, 20, 300, 32, [250]],
        to_unicode={1: "A", 2: "fi", 3: UNMAPPED, 32: " ", 0x4E00: "一"},
    )
    vertical = b.font_type0("Vert", encoding="/Identity-V", dw2=[880, -1000])
    codec = b.font_type0("Uni", encoding="/UniGB-UCS2-H")
    sjis = b.font_type0("Sjis", encoding="/90ms-RKSJ-H")
    mixed = b.font_type0(
        "Mixed",
        encoding=b.stream(cid_cmap({0x41: 1}, codespace=((0x00, 0x80, 1), (0x8140, 0xFFFF, 2)))),
        to_unicode={0x41: "a", 0x8140: "wide"},
        dw=800,
    )
    image = b.image_xobject(2, 2, b"\x00\x40\x80\xff")
    inner = b.form_xobject(
        b"BT /F1 9 Tf 1 0 0 1 5 5 Tm (inner) Tj ET 0 0 m 100 0 l S 3 Tr BT (ocr) Tj ET",
        resources={"Font": {"F1": helv}, "XObject": {"Im": image}},
        matrix=[1, 0, 0, 1, 20, 20],
    )
    selfish = b.reserve()
    b.form_xobject(
        b"q 0.5 0 0 0.5 0 0 cm /In Do Q /Self Do BT /F2 5 Tf (x) Tj ET Q Q 9 Tf",
        ref=selfish,
        bbox=(0, 0, 300, 300),
        resources={"XObject": {"Self": selfish, "In": inner}, "Font": {"F2": times}},
    )
    plain = b.form_xobject(b"BT /F1 7 Tf (no resources) Tj ET", bbox=(10, 10, 400, 400))
    fonts = (helv, times, cid, vertical, codec, sjis, mixed)
    b.add_page(
        b"",
        resources={
            "Font": dict(zip(("F1", "F2", "F3", "F4", "F5", "F6", "F7"), fonts, strict=True)),
            "XObject": {"Im1": image, "Fm1": inner, "Fm2": selfish, "Fm3": plain},
            "Properties": {
                "P1": {"ActualText": "replaced"},
                "P2": {"ActualText": b"\xfe\xff\x00Z"},
            },
            "ColorSpace": {
                "CS0": ["/ICCBased", b.stream(b"", N=3)],
                "CS1": "/DeviceGray",
                "CS2": ["/Separation", "/Spot", "/DeviceCMYK", {"FunctionType": 2}],
                "CS3": ["/ICCBased", b.stream(b"", N=4)],
                "CS4": ["/CalRGB", {"WhitePoint": [1, 1, 1]}],
            },
            "ExtGState": {"GS0": {"ca": 0}, "GS1": {"CA": 0.01, "ca": 1}, "GS2": {"LW": 2}},
        },
    )
    return b.build()


TOKENS = [
    *(
        t.encode()
        for t in "BT ET Tf Tj TJ ' \" Td TD Tm T* Tc Tw Tz TL Ts Tr q Q cm Do BI ID EI BMC BDC "
        "EMC m l c v y re h W W* n S s f F f* B B* b b* d0 d1 true false null gs rg k "
        "g G RG K cs CS sc scn SC SCN sh w".split()
    ),
    b"/DeviceRGB", b"/DeviceCMYK", b"/DeviceGray", b"/Pattern", b"/CS0", b"/CS1", b"/CS2",
    b"/CS3", b"/CS4", b"/CS9", b"0.95", b"0.97", b"0.04",
    b"1 g", b"1 1 1 rg", b"0 0 0 0 k", b"1 G", b"0.97 0.99 1 RG", b"0 0 0 0 K", b"0.5 g",
    b"/CS0 cs 1 1 1 scn", b"/CS1 cs 1 sc", b"/CS3 cs 0 0 0 0 scn", b"/CS2 cs 0 scn",
    b"/GS0 gs", b"/GS1 gs", b"/GS2 gs", b"/GS9 gs",
    b"/CS4 CS 1 1 1 SCN", b"12 w", b"/Sh1 sh", b"0 0 612 792 re f", b"100 100 200 30 re B",
    b"BT 1 g /F1 12 Tf 72 700 Td (white) Tj ET", b"BT 1 1 1 rg 1 Tr (edge) Tj ET",
    *(f"/F{i}".encode() for i in range(1, 9)),
    b"/Im1", b"/Fm1", b"/Fm2", b"/Fm3", b"/Nope", b"/Artifact", b"/Span", b"/P1", b"/P2", b"/P9",
    b"0", b"1", b"-1", b"12", b"-3.5", b".5", b"5.", b"+7", b"1e3", b"9" * 400, b"-" + b"9" * 400,
    b"0.001", b"1000", b"-2000", b"2", b"3", b"7", b"100", b"612", b"792",
    b"(abc)", b"(a\\(b\\))", b"(\\101\\12\\n\\r\\t\\\\x)", b"(line\r\nbreak\\\r\n)", b"(unclosed",
    b"(\x01\x41\x00\x20)", b"(\x8c\x82\x81\x40)", b"<48656c6c6f>", b"<4>", b"<>",
    b"<0001 0002 0003>",
    b"<4E00>", b"<zz>", b"[", b"]", b"<<", b">>", b"{", b"}", b")", b">", b"#", b"/A#41", b"%c\n",
    b"% Tj (x) 1 re\n",
    b"<</ActualText (zz)>>", b"<</ActualText <FEFF0041>>>", b"<</ActualText /N>>",
    b"<</ActualText 3>>", b"<</MCID 0>>",
    b"BI /W 2 /H 2 /CS /G /BPC 8 ID \x00\x01\x02\x03 EI",
    b"BI /W 1 /H 1 /L 999 ID x EI", b"BI /F /AHx ID 00> EI", b"BI /IM true /W 8 /H 1 ID \xff EI",
    b"BI /CS [/I /RGB 1 <00ff00>] /W 1 /H 1 ID \x00 EI", b"BI ID", b"BI /W 1 EI",
    b"[(Hello) -300 (World) 5000 (x) 120 ( ) -200] TJ", b"[(a) 0 Tc (b)] TJ",
    b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET", b"BT /F3 10 Tf 1 0 0 1 50 50 Tm <00010002> Tj ET",
    b"BT /F4 10 Tf 300 300 Td <0001 0002> Tj ET", b"BT /F5 10 Tf <4E00 0041> Tj ET",
    b"BT /F6 10 Tf <8140 41 82a0> Tj ET", b"BT /F7 10 Tf <41 8140 7f> Tj ET",
    b"0 0 100 2 re f", b"0 0 m 100 0 l S", b"10 10 m 10 200 l 300 200 l h S", b"0 0 50 50 re W n",
    b"1 0 0 -1 0 792 cm", b"0 1 -1 0 300 0 cm", b"3 Tr", b"7 Tr", b"2 Tr", b"-50 Ts", b"150 Tz",
    b"/Span <</ActualText (one)>> BDC", b"/Artifact BMC", b"/P1 BDC", b"/Fm2 Do", b"/Im1 Do",
]  # fmt: skip
SEPARATORS = [b" ", b" ", b"\n", b"", b"\r\n", b"\x00", b"\t"]


def soup(rng: random.Random, size: int) -> bytes:
    parts = []
    for _ in range(size):
        if rng.random() < 0.05:
            parts.append(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 6))))
        else:
            parts.append(rng.choice(TOKENS))
        parts.append(rng.choice(SEPARATORS))
    return b"".join(parts)


def mutate(rng: random.Random, data: bytes) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randrange(1, 4)):
        if not data:
            break
        kind = rng.randrange(6)
        at = rng.randrange(len(data))
        if kind == 0:  # truncate
            del data[at:]
        elif kind == 1:  # flip bytes
            for i in range(at, min(len(data), at + rng.randrange(1, 8))):
                data[i] = rng.randrange(256)
        elif kind == 2:  # delete a span
            del data[at : at + rng.randrange(1, 64)]
        elif kind == 3:  # duplicate a span
            data[at:at] = data[at : at + rng.randrange(1, 200)]
        elif kind == 4:  # insert tokens
            data[at:at] = b" " + soup(rng, rng.randrange(1, 6)) + b" "
        else:  # a structural byte
            data[at:at] = rng.choice([b"(", b")", b"[", b"]", b"<", b">", b"<<", b"\\", b"%"])
    return bytes(data)


@pytest.fixture(scope="module")
def module() -> Any:
    return native_module()


@pytest.fixture(scope="module")
def doc() -> EngineDocument:
    return open_pdf(_resource_pdf())


def check_stream(doc: EngineDocument, module: Any, data: bytes) -> None:
    with content_stream(data):
        pure, native = both(doc, 1, module)
    assert pure == native, f"{data!r}\n" + first_difference(pure, native)
    pure_ops, pure_error = pure_tokens(data)
    native_ops, native_error = native_tokens(module, data)
    assert (repr(native_ops), native_error) == (repr(pure_ops), pure_error), data


def test_the_resource_page_exercises_every_path(doc: EngineDocument, module: Any) -> None:
    data = b" ".join(t for t in TOKENS if b" " in t and not t.startswith(b"BI ID"))
    with content_stream(data):
        page = doc.page(1)
    assert page.runs and page.images and page.rules and page.hidden
    check_stream(doc, module, data)


@SETTINGS
@given(st.binary(max_size=400))
def test_random_bytes(doc: EngineDocument, module: Any, data: bytes) -> None:
    check_stream(doc, module, data)


@SETTINGS
@given(st.integers(0, 2**32), st.integers(1, 120))
def test_token_soup(doc: EngineDocument, module: Any, seed: int, size: int) -> None:
    check_stream(doc, module, soup(random.Random(seed), size))


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32), st.integers(2_000, 6_000))
def test_long_token_soup(doc: EngineDocument, module: Any, seed: int, size: int) -> None:
    # Long enough for the pure lexer's windows to end inside strings, comments and images.
    check_stream(doc, module, soup(random.Random(seed), size))


@SETTINGS
@given(st.lists(st.sampled_from(TOKENS), max_size=60), st.sampled_from(SEPARATORS))
def test_token_lists(doc: EngineDocument, module: Any, tokens: list[bytes], sep: bytes) -> None:
    check_stream(doc, module, sep.join(tokens))


def test_limits_stop_both_engines_alike(
    doc: EngineDocument, module: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pdfthin.engine.content import interpreter

    monkeypatch.setattr(interpreter, "MAX_OPERATIONS", 4096)
    monkeypatch.setattr(interpreter, "MAX_FORM_INVOCATIONS", 3)
    monkeypatch.setattr(interpreter, "MAX_PROBLEMS", 2)
    monkeypatch.setattr(interpreter, "MAX_RULES", 5)
    check_stream(doc, module, b"BT /F1 9 Tf (a) Tj ET " + b"q Q " * 5000)
    check_stream(doc, module, b"/Fm1 Do " * 5 + b"BT /F1 9 Tf (late) Tj ET")
    check_stream(doc, module, b"/X1 Tf /X2 Tf /X3 Tf 1 Tf Tm" + b" 0 0 m 100 0 l S" * 9)


def _small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from pdfthin.engine.content import interpreter, visibility

    monkeypatch.setattr(interpreter, "MAX_CONTENT_BYTES", 1_000)
    monkeypatch.setattr(interpreter, "MAX_GLYPHS", 40)
    monkeypatch.setattr(interpreter, "MAX_RUNS", 6)
    monkeypatch.setattr(interpreter, "MAX_IMAGES", 4)
    monkeypatch.setattr(interpreter, "MAX_INLINE_BYTES", 9)
    monkeypatch.setattr(interpreter, "MAX_INLINE_IMAGE", 3)
    monkeypatch.setattr(visibility, "MAX_AREA_TESTS", 12)


def test_the_page_budget_stops_both_engines_alike(
    doc: EngineDocument, module: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each limit of the page's work budget (issue 18), reached in each engine at the same
    point: the same runs, images, problems and counts."""
    from pdfthin.engine.content import interpreter

    _small_budget(monkeypatch)
    text = b"BT /F1 9 Tf 72 700 Td (first) Tj ET "
    inline = b"BI /W 2 /H 2 /CS /G /BPC 8 ID \x00\x01\x02\x03 EI "
    areas = b"0 0 5 5 re f 20 0 5 5 re f 40 0 5 5 re f "
    for limit, data in (
        ("glyphs", text + b"BT /F1 9 Tf (abcdefghij) Tj [(ab) -50 (cdefghij)] TJ ET" * 3),
        ("text runs", text + b"BT /F1 9 Tf (a) Tj 3 Tr (b) Tj 0 Tr 1 g (c) Tj (d) ' ET" * 2),
        ("images", text + b"/Im1 Do /Fm1 Do " + b"/Im1 Do " * 5),
        ("inline images", text + inline * 4),
        ("bytes of content", text + b"/Fm3 Do " * 30),
        ("area tests", text + areas + b"BT 1 g /F1 9 Tf 1 1 Td " + b"(w) Tj " * 5 + b"ET"),
        ("area tests", text + b"/Im1 Do " * 3 + b"BT 3 Tr /F1 9 Tf " + b"(w) Tj " * 5 + b"ET"),
        ("text runs", text + b"/Fm2 Do " * 10),
    ):
        with pytest.MonkeyPatch.context() as wider:
            if limit == "bytes of content":  # the forms' text would stop the page first
                wider.setattr(interpreter, "MAX_RUNS", 100)
                wider.setattr(interpreter, "MAX_GLYPHS", 1000)
            with content_stream(data):
                page = doc.page(1)
            assert any(f" {limit} " in p for p in page.problems), (limit, page.problems)
            check_stream(doc, module, data)


@SETTINGS
@given(st.integers(0, 2**32), st.integers(1, 200))
def test_token_soup_within_a_small_budget(
    doc: EngineDocument, module: Any, seed: int, size: int
) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        _small_budget(monkeypatch)
        check_stream(doc, module, soup(random.Random(seed), size))


# --- corrupted real streams ------------------------------------------------------------------


def _corpus_pages(count: int) -> list[tuple[EngineDocument, int, bytes]]:
    out: list[tuple[EngineDocument, int, bytes]] = []
    for f in CORPUS_FILES[:: max(1, len(CORPUS_FILES) // count)]:
        try:
            doc = open_pdf(f.path, password=f.password)
        except PdfthinError:
            continue
        number = 1 + len(out) % doc.page_count
        data, _problems = content_bytes(doc._pages[number - 1])
        if data:
            out.append((doc, number, data))
    return out


def test_rules_hold_no_more_objects_than_pure(module: Any) -> None:
    """The native page is not heavier than the pure one: a table grid's ruling lines share
    their coordinates' float objects, as the Python interpreter's rule tuples do."""
    cells = b"".join(
        b"%d %d 60 14 re S " % (40 + 60 * col, 700 - 14 * row)
        for row in range(40)
        for col in range(8)
    )
    b = PdfBuilder()
    b.add_page(b"0.5 w " + cells)
    doc = open_pdf(b.build())

    def objects(rules: list[tuple[float, ...]]) -> int:
        return len({id(x) for rule in rules for x in (rule, *rule)})

    with engine(None):
        pure = doc.page(1).rules
    with engine(module):
        native = doc.page(1).rules
    assert repr(native) == repr(pure) and len(pure) > 600
    assert objects(native) <= objects(pure)


@pytest.mark.corpus
def test_corrupted_corpus_streams(module: Any) -> None:
    require_corpus()
    rng = random.Random(20261130)
    pages = _corpus_pages(24)
    assert len(pages) >= 10
    for doc, number, data in pages:
        for _ in range(12):
            bad = mutate(rng, data)
            with content_stream(bad):
                pure, native = both(doc, number, module)
            assert pure == native, first_difference(pure, native)


def test_fuzz_for_a_while(doc: EngineDocument, module: Any) -> None:
    """A differential fuzz run: ``PDFTHIN_FUZZ_SECONDS`` long (default: 300 streams)."""
    seconds = float(os.environ.get("PDFTHIN_FUZZ_SECONDS", "0") or 0)
    rng = random.Random(int(os.environ.get("PDFTHIN_FUZZ_SEED", "1")))
    corpus = _corpus_pages(40) if seconds and CORPUS_FILES else []
    end = time.monotonic() + seconds
    runs = 0
    while runs < 300 or time.monotonic() < end:
        if corpus and runs % 3 == 2:
            target, number, data = rng.choice(corpus)
            data = mutate(rng, data)
            with content_stream(data):
                pure, native = both(target, number, module)
            assert pure == native, first_difference(pure, native)
        else:
            data = soup(rng, rng.randrange(1, 200))
            if rng.random() < 0.3:
                data = mutate(rng, data)
            check_stream(doc, module, data)
        runs += 1
    print(f"native fuzz: {runs} streams, no difference")


# --- parts ---------------------------------------------------------------------------------------


@SETTINGS
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=40))
def test_float_sum_is_cpythons(module: Any, values: list[float]) -> None:
    assert repr(module.float_sum(values)) == repr(float(sum(values)))


texts = st.lists(
    st.sampled_from(["a", "fi", " ", UNMAPPED, "é", "一", "", "\U0001f600"]), max_size=4
).map("".join)


def _beside(x: float, step: int) -> float:
    return x if step == 0 else math.nextafter(x, math.inf if step > 0 else -math.inf)


@SETTINGS
@given(
    st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.floats(0, 100),
        st.integers(0, 100_000).map(lambda n: n / 1000),
        st.integers(-2000, 2000).map(lambda n: n / 8),
        # Halves of a hundredth and the doubles right beside them (the fast path's edge).
        st.tuples(st.integers(-(10**7), 10**7), st.sampled_from([-1, 0, 1])).map(
            lambda t: _beside(t[0] / 200, t[1])
        ),
        st.floats(2.0**43, 2.0**50) | st.floats(-(2.0**50), -(2.0**43)),
    )
)
def test_size_rounding_is_pythons(module: Any, value: float) -> None:
    """A run's size is rounded to two decimals as Python's ``round(x, 2)`` does (halves to
    even on the exact binary value)."""
    assert repr(module.round2(value)) == repr(round(value, 2))


@SETTINGS
@given(
    st.dictionaries(
        st.integers(0, 255),
        # (the engine's tables hold text; str.translate also takes None and code points)
        st.one_of(texts, texts, st.none(), st.integers(0, 0xD7FF)),
        max_size=40,
    ),
    st.lists(st.floats(-2, 2, allow_nan=False), min_size=256, max_size=256),
    st.binary(max_size=60),
)
def test_simple_font_decoding(
    module: Any, trans: dict[int, Any], widths: list[float], data: bytes
) -> None:
    font = Font("f")
    font.trans = trans
    font.widths = widths
    _compare_decode(module, font, data)


@SETTINGS
@given(
    st.sampled_from([0, 1, 2]),
    st.one_of(st.none(), st.lists(st.integers(1, 4), min_size=256, max_size=256)),
    st.dictionaries(st.integers(0, 2**32), texts, max_size=30),
    st.dictionaries(st.integers(-5, 2**32), st.floats(-2, 2, allow_nan=False), max_size=30),
    st.floats(0, 2, allow_nan=False),
    st.binary(max_size=60),
    st.sampled_from(["plain", "codec", "computed"]),
)
def test_composite_font_decoding(
    module: Any,
    code_len: int,
    lead: list[int] | None,
    text_map: dict[int, str],
    width_map: dict[int, float],
    default: float,
    data: bytes,
    kind: str,
) -> None:
    font = Font("c")
    font.simple = False
    font.code_len = code_len
    font.lead_lengths = lead
    if kind == "codec":
        font.text_map = _CodecMap("cp932" if code_len == 0 else "utf-16-be", code_len)
    elif kind == "computed":
        font.text_map = _Computed(text_map)
    else:
        font.text_map = _TextMap(text_map)
    font.width_map = _HalfWidths(default) if kind == "computed" else _WidthMap(default)
    font.width_map.update(width_map)
    _compare_decode(module, font, data)


@SETTINGS
@given(st.integers(0, 2**16), st.binary(max_size=80))
def test_large_text_map_decoding(module: Any, seed: int, data: bytes) -> None:
    """A map too large to copy into the native font is looked up where it is."""
    rng = random.Random(seed)
    font = Font("cjk")
    font.simple = False
    font.code_len = 2
    font.text_map = _TextMap(
        {
            code: rng.choice(["一", "fi", "", " ", UNMAPPED, chr(0x4E00 + code)])
            for code in range(6000)
        }
    )
    assert len(font.text_map) > LARGE_TEXT_MAP
    font.width_map = _WidthMap(0.5)
    font.width_map.update({code: rng.random() for code in range(0, 6000, 7)})
    _compare_decode(module, font, data)


class _Computed(_TextMap):
    """A text map that computes missing entries (as the Adobe collection maps do)."""

    def __missing__(self, key: int) -> str:
        return chr(0x4E00 + key % 50) if key % 3 else UNMAPPED


class _HalfWidths(_WidthMap):
    """A width map that computes missing entries."""

    def __missing__(self, key: int) -> float:
        return (key % 7) / 7


def _compare_decode(module: Any, font: Font, data: bytes) -> None:
    text, width, spaces, count = font.decode(data)
    native = module_font(module, font).decode(data)
    expected = (text.replace(UNMAPPED, ""), float(width), spaces, count, text.count(UNMAPPED))
    assert repr(native) == repr(expected)
    assert not math.isnan(native[1]) or math.isnan(width)


def module_font(module: Any, font: Font) -> Any:
    return native_font(module, font)
