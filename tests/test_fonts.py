"""Fonts: shown bytes -> text and advance, for simple, composite and Type 3 fonts."""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable
from typing import Any

import pypdf
import pytest
from fontprograms import cff_program, truetype_program, type1_header
from fontTools.encodings.MacRoman import MacRoman
from fontTools.encodings.StandardEncoding import StandardEncoding
from pdfbuilder import PdfBuilder, Raw, Ref, cid_cmap, to_unicode_cmap

from pdfthin.engine.fonts import encodings as enc
from pdfthin.engine.fonts.font import DECODED_BYTES, DECODED_ENTRIES, UNMAPPED, Font, load_font

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")


def load(make: Callable[[PdfBuilder], Ref]) -> Font:
    """Build a font with the builder, read it back with pypdf, load it."""
    b = PdfBuilder()
    ref = make(b)
    b.add_page(b"", {"Font": {"F1": ref}})
    reader = pypdf.PdfReader(io.BytesIO(b.build()))
    return load_font(reader.get_object(ref.num))


def text(font: Font, data: bytes) -> str:
    return font.decode(data)[0]


def advance(font: Font, data: bytes) -> float:
    return font.decode(data)[1]


# --- simple fonts: built-in encodings ---------------------------------------------------------


def test_winansi_encoding() -> None:
    font = load(lambda b: b.font_standard("Helvetica", encoding="/WinAnsiEncoding"))
    assert text(font, b"\x80\x93\x94\x96\x97\xe9\xfc\x9f A") == "€“”–—éüŸ A"
    assert text(font, b"\xa0\xad") == " -"  # Annex D: space and hyphen
    assert text(font, b"\x7f\x81\x8d\x8f\x90\x9d") == "•" * 6  # unused codes show as bullets


def test_mac_roman_encoding() -> None:
    font = load(lambda b: b.font_standard("Helvetica", encoding="/MacRomanEncoding"))
    assert text(font, b"\x8e\x87\xd2\xd3\xa5\xde\xdf\xd0") == "éá“”•ﬁﬂ–"


def test_standard_encoding_is_the_default_for_type1() -> None:
    font = load(lambda b: b.font_standard("Helvetica"))
    assert text(font, b"\x27\x60\xae\xaf\xe1\xb1\xd0\xa4") == "’‘ﬁﬂÆ–—⁄"


def test_standard_encoding_matches_the_adobe_table() -> None:
    # fontTools carries Adobe's StandardEncoding as glyph names, ".notdef" where undefined.
    # An undefined code draws no glyph: it is unmapped, never a Latin-1 guess ("É" for 0xC9)
    # nor a C1 control character (0x80-0x9F) that silently corrupts the text.
    font = load(lambda b: b.font_standard("Helvetica"))
    wrong = {}
    for code in range(32, 256):
        glyph = StandardEncoding[code]
        expected = UNMAPPED if glyph == ".notdef" else enc.glyph_to_unicode(glyph)
        got = text(font, bytes((code,)))
        if got != expected:
            wrong[hex(code)] = got
    assert wrong == {}


def test_mac_roman_matches_the_pdf_table() -> None:
    # PDF 32000-1, Annex D: MacRomanEncoding has "currency" at 0xDB (the pre-1998 Mac OS
    # Roman, which fontTools carries); the Euro sign is not in it.
    font = load(lambda b: b.font_standard("Helvetica", encoding="/MacRomanEncoding"))
    wrong = {}
    for code in [*range(32, 127), *range(128, 256)]:
        glyph = MacRoman[code]
        if glyph in ("Omega", "apple"):  # two Unicode spellings of the same glyph
            continue
        got = text(font, bytes((code,)))
        if got != enc.glyph_to_unicode(glyph):
            wrong[hex(code)] = got
    assert wrong == {}


@pytest.mark.parametrize(
    ("table", "label"),
    [(enc.SYMBOL, "symbol"), (enc.ZAPF_DINGBATS, "zapf")],
)
def test_builtin_tables_hold_no_control_characters(table: enc.Encoding, label: str) -> None:
    controls = [
        hex(code) for code, ch in enumerate(table) if ch and unicodedata.category(ch) == "Cc"
    ]
    assert controls == [], label


def test_symbol_font_uses_its_own_encoding() -> None:
    font = load(lambda b: b.font_standard("Symbol"))
    assert text(font, b"abgp") == "αβγπ"
    assert text(font, b"\xb3\xa3\xa5") == "≥≤∞"


def test_zapf_dingbats_uses_its_own_encoding() -> None:
    font = load(lambda b: b.font_standard("ZapfDingbats"))
    assert text(font, b"\x34\x6c") == "✔●"


def test_encoding_dictionary_base_encoding() -> None:
    font = load(
        lambda b: b.font_standard(
            "Helvetica", differences=[0x41, "/B"], base_encoding="/WinAnsiEncoding"
        )
    )
    assert text(font, b"A\x80B") == "B€B"


def test_named_pdfdoc_encoding() -> None:
    font = load(lambda b: b.font_standard("Helvetica", encoding="/PDFDocEncoding"))
    assert text(font, b"\x84\x85") == "—–"


# --- simple fonts: Differences and glyph names ------------------------------------------------


def test_differences_with_glyph_names() -> None:
    diffs: list[int | str] = [
        65,
        "/Aacute",
        "/uni0416",
        "/f_f_i",
        "/a.sc",
        "/u1F600",
        "/g123",
        "/space",
        "/uni00410042",
        "/ff.alt",
        "/uniD800",
        "/f_x123",
    ]
    font = load(lambda b: b.font_standard("Times-Roman", differences=diffs))
    decoded = text(font, b"ABCDEFGHIJK")
    assert decoded in (
        "ÁЖﬃa\U0001f600" + UNMAPPED + " ABﬀ" + UNMAPPED + UNMAPPED,
        "ÁЖffia\U0001f600" + UNMAPPED + " ABﬀ" + UNMAPPED + UNMAPPED,
    )


def test_differences_restart_at_each_number() -> None:
    font = load(lambda b: b.font_standard("Helvetica", differences=[1, "/a", "/b", 100, "/c"]))
    # Code 3 is undefined in StandardEncoding; 0x65 keeps its StandardEncoding "e".
    assert text(font, b"\x01\x02\x03\x64\x65") == "ab" + UNMAPPED + "ce"


def test_differences_out_of_range_codes_are_ignored() -> None:
    font = load(lambda b: b.font_standard("Helvetica", differences=[255, "/a", "/b", -5, "/c"]))
    assert text(font, b"\xff") == "a"


def test_a_stale_identity_to_unicode_yields_to_the_glyphs_differences_name() -> None:
    # A ToUnicode map left over from the font's old encoding maps 0x21 to "!" though
    # /Differences put the ffi ligature there (docling/2206.01062_pg3.pdf: "di!culties").
    to_unicode = {0x21: "!", 0x22: '"', 0x23: "#", 0x41: "A", 0x61: "a"}
    font = load(
        lambda b: b.font_standard(
            "Test-Serif",
            differences=[33, "/f_f_i", "/f_i", "/eacute"],
            widths=[500] * 256,
            to_unicode=to_unicode,
        )
    )
    assert unicodedata.normalize("NFKC", text(font, b"di!culties")) == "difficulties"
    assert unicodedata.normalize("NFKC", text(font, b'"le')) == "file"
    assert text(font, b"caf#") == "café"


@pytest.mark.parametrize(
    ("mapped", "named", "expected"),
    [
        ("?", "/f_i", "?"),  # not the code's own sign: the map says something on purpose
        ("!", "/exclam", "!"),  # the names agree
        ("!", "/arrowright", "!"),  # the glyph is a sign too: nothing says the map is stale
        ("!", "/g17", "!"),  # a name without a meaning
    ],
)
def test_to_unicode_still_wins_unless_it_is_plainly_stale(
    mapped: str, named: str, expected: str
) -> None:
    font = load(
        lambda b: b.font_standard(
            "Test-Serif", differences=[33, named], widths=[500] * 256, to_unicode={0x21: mapped}
        )
    )
    assert text(font, b"!") == expected


@pytest.mark.parametrize(
    ("glyph", "expected"),
    [
        ("A", "A"),
        ("/A", "A"),
        ("Aacute", "Á"),
        ("uni20AC", "€"),
        ("uni00410301", "A\u0301"),
        ("u1F600", "\U0001f600"),
        ("u20AC", "€"),
        ("f_i", "fi"),  # AGL: a ligature name is its components
        ("a.sc", "a"),
        ("one.oldstyle", "1"),
        ("T_h", "Th"),
        ("uniD835", None),
        ("u110000", None),
        ("g42", None),
        (".notdef", None),
        ("", None),
        ("uni004", None),
    ],
)
def test_glyph_to_unicode(glyph: str, expected: str | None) -> None:
    assert enc.glyph_to_unicode(glyph) == expected


def test_glyph_to_unicode_ligature_names() -> None:
    # Either the ligature character or its components is a faithful reading.
    assert enc.glyph_to_unicode("f_f_i") in ("ﬃ", "ffi")
    assert enc.glyph_to_unicode("f_f_i.alt") in ("ﬃ", "ffi")


# --- ToUnicode --------------------------------------------------------------------------------


def test_to_unicode_overrides_the_encoding() -> None:
    font = load(
        lambda b: b.font_standard(
            "Helvetica", encoding="/WinAnsiEncoding", to_unicode={0x41: "Z", 0x42: "ﬁ"}
        )
    )
    assert text(font, b"ABC") == "ZﬁC"  # C still comes from WinAnsi


def test_to_unicode_overrides_differences() -> None:
    font = load(
        lambda b: b.font_standard("Helvetica", differences=[0x41, "/g1"], to_unicode={0x41: "x"})
    )
    assert text(font, b"A") == "x"


def test_to_unicode_gives_text_to_unmapped_codes() -> None:
    font = load(lambda b: b.font_standard("Helvetica", differences=[1, "/g1", "/g2"]))
    assert text(font, b"\x01\x02") == UNMAPPED * 2
    mapped = load(
        lambda b: b.font_standard(
            "Helvetica", differences=[1, "/g1", "/g2"], to_unicode={1: "ab", 2: "\U0001d400"}
        )
    )
    assert text(mapped, b"\x01\x02") == "ab\U0001d400"


def test_empty_to_unicode_falls_back_to_the_encoding() -> None:
    font = load(lambda b: b.font_standard("Helvetica", to_unicode=to_unicode_cmap({})))
    assert text(font, b"Hi") == "Hi"


# --- widths -----------------------------------------------------------------------------------


def test_standard_14_metrics_without_widths() -> None:
    helvetica = load(lambda b: b.font_standard("Helvetica"))
    assert advance(helvetica, b"Hello") == pytest.approx((722 + 556 + 222 + 222 + 556) / 1000)
    courier = load(lambda b: b.font_standard("Courier"))
    assert advance(courier, b"iW  m") == pytest.approx(3.0)
    bold = load(lambda b: b.font_standard("Helvetica-Bold"))
    assert advance(bold, b"AW") == pytest.approx((722 + 944) / 1000)
    times = load(lambda b: b.font_standard("Times-Roman"))
    assert advance(times, b"a") == pytest.approx(0.444)


def test_widths_array_with_first_char() -> None:
    font = load(lambda b: b.font_truetype("NotStandard", first_char=65, widths=[600, 700]))
    assert font.widths[65] == pytest.approx(0.6)
    assert font.widths[66] == pytest.approx(0.7)
    assert advance(font, b"AB") == pytest.approx(1.3)


def test_a_simple_font_keeps_its_short_strings_decoded_and_no_more() -> None:
    font = load(lambda b: b.font_truetype("NotStandard", first_char=65, widths=[600, 700]))
    first = font.decode(b"AB")
    assert first == ("AB", pytest.approx(1.3), 0, 2)
    # Shown again, the string is answered from what was kept: the same tuple, not a new one.
    assert font.decode(b"AB") is first
    long = b"A" * (DECODED_BYTES + 1)
    assert font.decode(long) is not font.decode(long)
    assert long not in font.decoded
    for i in range(DECODED_ENTRIES + 10):
        font.decode(str(i).encode())
    assert len(font.decoded) == DECODED_ENTRIES
    # Past the bound a string is decoded all the same, only not kept.
    late = str(DECODED_ENTRIES + 5).encode()
    assert font.decode(late) == (late.decode(), pytest.approx(0.0), 0, len(late))
    assert late not in font.decoded


def test_missing_width_outside_widths() -> None:
    font = load(
        lambda b: b.font_truetype("NotStandard", first_char=65, widths=[600], missing_width=250)
    )
    assert advance(font, b"AZ") == pytest.approx(0.85)


def test_code_outside_widths_without_missing_width_is_zero() -> None:
    font = load(lambda b: b.font_truetype("NotStandard", first_char=65, widths=[600]))
    assert advance(font, b"AZ") == pytest.approx(0.6)


def test_widths_override_standard_metrics() -> None:
    font = load(lambda b: b.font_standard("Helvetica", first_char=65, widths=[500, 300]))
    # A and B from /Widths, C from the Helvetica metrics.
    assert advance(font, b"ABC") == pytest.approx(0.5 + 0.3 + 0.722)


def test_font_without_widths_or_metrics_gets_half_an_em() -> None:
    b = PdfBuilder()
    ref = b.add({"Type": "/Font", "Subtype": "/Type1", "BaseFont": "/Unknown"})
    b.add_page(b"", {"Font": {"F1": ref}})
    font = load_font(pypdf.PdfReader(io.BytesIO(b.build())).get_object(ref.num))
    assert advance(font, b"abc") == pytest.approx(1.5)


def test_spaces_are_counted_for_word_spacing() -> None:
    font = load(lambda b: b.font_standard("Helvetica"))
    decoded, _, spaces, glyphs = font.decode(b"a b  c")
    assert (decoded, spaces, glyphs) == ("a b  c", 3, 6)


# --- names and style --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "name", "bold", "italic"),
    [
        ("Helvetica", "Helvetica", False, False),
        ("Helvetica-Bold", "Helvetica-Bold", True, False),
        ("Helvetica-Oblique", "Helvetica-Oblique", False, True),
        ("Times-BoldItalic", "Times-BoldItalic", True, True),
        ("ABCDEF+Minion-Regular", "Minion-Regular", False, False),
        ("ABCDEF+Minion-Semibold", "Minion-Semibold", True, False),
        ("ABCDEF+Arial-BoldMT", "Arial-BoldMT", True, False),
        ("Arial,Italic", "Arial,Italic", False, True),
    ],
)
def test_font_name_and_style(base: str, name: str, bold: bool, italic: bool) -> None:
    font = load(lambda b: b.font_standard(base))
    assert (font.name, font.bold, font.italic) == (name, bold, italic)


def test_style_from_descriptor_flags_and_weight() -> None:
    bold = load(lambda b: b.font_truetype("Plain", widths=[500], descriptor={"FontWeight": 700}))
    assert bold.bold and not bold.italic
    italic = load(lambda b: b.font_truetype("Plain", widths=[500], flags=32 | 64))
    assert italic.italic and not italic.bold
    angle = load(lambda b: b.font_truetype("Plain", widths=[500], descriptor={"ItalicAngle": -12}))
    assert angle.italic


@pytest.mark.parametrize(
    ("base", "std"),
    [
        ("Arial", "Helvetica"),
        ("Arial,Bold", "Helvetica-Bold"),
        ("ArialMT", "Helvetica"),
        ("TimesNewRoman,BoldItalic", "Times-BoldItalic"),
        ("TimesNewRomanPSMT", "Times-Roman"),
        ("CourierNew-Italic", "Courier-Oblique"),
        ("ABCDEF+Helvetica-Bold", "Helvetica-Bold"),
        ("Symbol", "Symbol"),
        ("Verdana", None),
    ],
)
def test_standard_font_aliases(base: str, std: str | None) -> None:
    assert enc.standard_font(base) == std


# --- embedded programs ------------------------------------------------------------------------


def test_embedded_type1_encoding_is_the_builtin_encoding() -> None:
    program = type1_header({0x41: "alpha", 0x42: "Eacute"})

    def make(b: PdfBuilder) -> Ref:
        stream = b.stream(program, Length1=len(program), Length2=0, Length3=0)
        desc = b.add(
            {"Type": "/FontDescriptor", "FontName": "/Greek", "Flags": 4, "FontFile": stream}
        )
        return b.add(
            {"Type": "/Font", "Subtype": "/Type1", "BaseFont": "/Greek", "FontDescriptor": desc}
        )

    assert text(load(make), b"AB") == "αÉ"


def test_embedded_cff_encoding_is_the_builtin_encoding() -> None:
    program = cff_program({0x41: "alpha", 0x42: "beta"})

    def make(b: PdfBuilder) -> Ref:
        stream = b.stream(program, Subtype="/Type1C")
        desc = b.add(
            {"Type": "/FontDescriptor", "FontName": "/Greek", "Flags": 4, "FontFile3": stream}
        )
        return b.add(
            {"Type": "/Font", "Subtype": "/Type1", "BaseFont": "/Greek", "FontDescriptor": desc}
        )

    assert text(load(make), b"AB") == "αβ"


def test_named_encoding_wins_over_a_nonsymbolic_builtin_encoding() -> None:
    program = cff_program({0x41: "alpha"})

    def make(b: PdfBuilder) -> Ref:
        stream = b.stream(program, Subtype="/Type1C")
        desc = b.add(
            {"Type": "/FontDescriptor", "FontName": "/Greek", "Flags": 32, "FontFile3": stream}
        )
        return b.add(
            {
                "Type": "/Font",
                "Subtype": "/Type1",
                "BaseFont": "/Greek",
                "FontDescriptor": desc,
                "Encoding": "/WinAnsiEncoding",
            }
        )

    assert text(load(make), b"A") == "A"


def test_an_embedded_program_is_decoded_only_where_it_can_change_the_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Decoding a font program costs time and memory: a named /Encoding replaces a Type 1 or
    CFF program's own, and a font without /ToUnicode is read in an East Asian code page only
    when its name says so, so only then does it matter whether its program decodes."""
    from pdfthin.engine.fonts import font as fonts

    decoded: list[bytes] = []

    def recording(obj: Any) -> bytes | None:
        data = real(obj)
        if data is not None:
            decoded.append(data)
        return data

    real = fonts.stream_data
    monkeypatch.setattr(fonts, "stream_data", recording)
    cff = cff_program({0x41: "alpha"})
    truetype = truetype_program({0x41: "A"})

    def cff_font(encoding: str | None) -> Callable[[PdfBuilder], Ref]:
        def make(b: PdfBuilder) -> Ref:
            stream = b.stream(cff, Subtype="/Type1C")
            desc = b.add(
                {"Type": "/FontDescriptor", "FontName": "/Greek", "Flags": 4, "FontFile3": stream}
            )
            font = {"Type": "/Font", "Subtype": "/Type1", "BaseFont": "/Greek"}
            font["FontDescriptor"] = desc
            if encoding is not None:
                font["Encoding"] = encoding
            return b.add(font)

        return make

    # Symbolic, but the named encoding wins: the program's encoding is not read.
    assert text(load(cff_font("/WinAnsiEncoding")), b"A") == "A" and decoded == []
    assert text(load(cff_font(None)), b"A") == "α" and decoded == [cff]
    decoded.clear()
    plain = load(lambda b: b.font_truetype("Plain", widths=[500], font_file=truetype))
    assert text(plain, b"A") == "A" and decoded == []
    # An East Asian font's name: whether the program decodes decides the code page.
    east = load(lambda b: b.font_truetype("SimSun", widths=[500], font_file=truetype))
    assert text(east, b"A") == "A" and decoded == [truetype]


def test_symbolic_font_without_encoding_reads_codes_as_latin1() -> None:
    font = load(lambda b: b.font_truetype("Wingish", widths=[500] * 200, encoding=None, flags=4))
    assert text(font, b"Hi\xe9") == "Hié"


# --- composite fonts --------------------------------------------------------------------------


def test_identity_h_text_and_w_array_widths() -> None:
    font = load(
        lambda b: b.font_type0(
            to_unicode={1: "A", 2: "B", 3: "ﬁ"}, dw=800, w=[1, [500, 600], 10, 20, 300]
        )
    )
    data = b"\x00\x01\x00\x02\x00\x03\x00\x0f\x00\x63"
    decoded, width, spaces, glyphs = font.decode(data)
    assert decoded == "ABﬁ" + UNMAPPED * 2
    # CIDs 1, 2 from the array form; 3 and 99 take /DW; 15 the range form.
    assert width == pytest.approx(0.5 + 0.6 + 0.8 + 0.3 + 0.8)
    assert (spaces, glyphs) == (0, 5)
    assert font.vertical is False
    assert font.simple is False


def test_type0_default_width_is_1000() -> None:
    font = load(lambda b: b.font_type0(to_unicode={1: "A"}))
    assert advance(font, b"\x00\x01\x00\x01") == pytest.approx(2.0)


def test_type0_odd_trailing_byte_is_dropped() -> None:
    font = load(lambda b: b.font_type0(to_unicode={1: "A"}))
    assert font.decode(b"\x00\x01\x00") == ("A", 1.0, 0, 1)


def test_type0_identity_v_is_vertical() -> None:
    font = load(lambda b: b.font_type0(encoding="/Identity-V", to_unicode={1: "縦"}))
    assert font.vertical is True
    assert font.decode(b"\x00\x01\x00\x01") == ("縦縦", 2.0, 0, 2)


def test_type0_vertical_advance_from_dw2() -> None:
    font = load(
        lambda b: b.font_type0(encoding="/Identity-V", to_unicode={1: "縦"}, dw2=[880, -900])
    )
    assert advance(font, b"\x00\x01\x00\x01") == pytest.approx(1.8)


def test_type0_embedded_cmap_with_mixed_code_lengths() -> None:
    codespace = ((0x00, 0x80, 1), (0x8140, 0xFEFE, 2))

    def make(b: PdfBuilder) -> Ref:
        encoding = b.stream(
            cid_cmap({0x41: 5}, cidrange=[(0x8140, 0x817F, 100)], codespace=codespace)
        )
        tounicode = b.stream(to_unicode_cmap({0x41: "A", 0x8141: "亜"}, codespace=codespace))
        return b.font_type0(
            encoding=encoding, to_unicode=tounicode, w=[5, [400], 101, [900]], dw=1000
        )

    font = load(make)
    decoded, width, _, glyphs = font.decode(b"A\x81\x41A\x81\x40")
    assert decoded == "A亜A" + UNMAPPED
    assert glyphs == 4
    # Widths are looked up by CID: 0x41 -> CID 5, 0x8141 -> 101, 0x8140 -> 100 (default).
    assert width == pytest.approx(0.4 + 0.9 + 0.4 + 1.0)


def test_type0_embedded_cmap_wmode_and_usecmap_make_it_vertical() -> None:
    by_wmode = load(
        lambda b: b.font_type0(encoding=b.stream(cid_cmap({1: 1}, wmode=1)), to_unicode={1: "x"})
    )
    assert by_wmode.vertical is True
    by_parent = load(
        lambda b: b.font_type0(
            encoding=b.stream(cid_cmap({1: 1}, usecmap="/Identity-V")), to_unicode={1: "x"}
        )
    )
    assert by_parent.vertical is True


def test_type0_predefined_unicode_cmap_without_to_unicode() -> None:
    font = load(lambda b: b.font_type0(encoding="/UniJIS-UCS2-H"))
    assert text(font, "日本語".encode("utf-16-be")) == "日本語"


def test_type0_predefined_shift_jis_cmap_splits_mixed_codes() -> None:
    font = load(lambda b: b.font_type0(encoding="/90ms-RKSJ-H"))
    decoded, _, _, glyphs = font.decode("日本abc".encode("cp932"))
    assert (decoded, glyphs) == ("日本abc", 5)


def test_type0_single_byte_space_gets_word_spacing() -> None:
    # PDF 32000-1, 9.3.3: word spacing applies to the single-byte code 32 of a composite
    # font whose CMap defines 32 as a one-byte code (90ms-RKSJ-H does).
    font = load(lambda b: b.font_type0(encoding="/90ms-RKSJ-H"))
    assert font.decode("日 本 a".encode("cp932"))[2] == 2


def test_type0_two_byte_code_32_gets_no_word_spacing() -> None:
    font = load(lambda b: b.font_type0(to_unicode={0x20: " ", 0x41: "A"}))
    assert font.decode(b"\x00\x20\x00\x41\x00\x20") == (" A ", 3.0, 0, 3)


def test_type0_without_to_unicode_reads_the_truetype_cmap() -> None:
    program = truetype_program({0x41: "A", 0x42: "B", 0x1F600: "smile"})
    font = load(lambda b: b.font_type0(font_file=program, cid_to_gid="/Identity"))
    # Glyph order: .notdef, A, B, smile -> CIDs 1, 2, 3 with an identity CIDToGIDMap.
    assert text(font, b"\x00\x01\x00\x02\x00\x03\x00\x07") == "AB\U0001f600" + UNMAPPED


def test_type0_cid_to_gid_map_stream() -> None:
    program = truetype_program({0x41: "A", 0x42: "B"})
    # CID 0 -> 0, CID 1 -> glyph 2 ("B"), CID 2 -> glyph 1 ("A").
    cid_to_gid = b"\x00\x00\x00\x02\x00\x01"
    font = load(lambda b: b.font_type0(font_file=program, cid_to_gid=cid_to_gid))
    assert text(font, b"\x00\x01\x00\x02\x00\x05") == "BA" + UNMAPPED


def test_type0_to_unicode_wins_over_the_font_program() -> None:
    program = truetype_program({0x41: "A"})
    font = load(lambda b: b.font_type0(font_file=program, to_unicode={1: "Q"}))
    assert text(font, b"\x00\x01") == "Q"


def test_type0_broken_descendant_decodes_as_unmapped() -> None:
    b = PdfBuilder()
    ref = b.add(
        {"Type": "/Font", "Subtype": "/Type0", "BaseFont": "/Broken", "Encoding": "/Identity-H"}
    )
    b.add_page(b"", {"Font": {"F1": ref}})
    font = load_font(pypdf.PdfReader(io.BytesIO(b.build())).get_object(ref.num))
    assert font.decode(b"\x00\x01\x00\x02") == (UNMAPPED * 2, 2.0, 0, 2)


def test_w_array_bounds() -> None:
    # A range far wider than the bound is skipped; the entries after it still count.
    font = load(
        lambda b: b.font_type0(to_unicode={1: "a", 2: "b"}, w=[0, 10_000_000, 123, 2, [250]])
    )
    assert advance(font, b"\x00\x02") == pytest.approx(0.25)
    assert advance(font, b"\x00\x01") == pytest.approx(1.0)


# --- Type 3 -----------------------------------------------------------------------------------


def type3(b: PdfBuilder, matrix: list[float], widths: list[float]) -> Ref:
    return b.font_type3(
        char_procs={"square": b"100 0 0 0 100 100 d1 0 0 100 100 re f", "bar": b"50 0 d0"},
        differences=[97, "/square", "/bar"],
        first_char=97,
        widths=widths,
        font_matrix=matrix,
        font_bbox=[0, 0, 100, 100],
    )


def test_type3_widths_are_scaled_by_the_font_matrix() -> None:
    font = load(lambda b: type3(b, [0.01, 0, 0, 0.01, 0, 0], [100, 50]))
    assert advance(font, b"ab") == pytest.approx(1.5)
    thousandth = load(lambda b: type3(b, [0.001, 0, 0, 0.001, 0, 0], [1000, 500]))
    assert advance(thousandth, b"ab") == pytest.approx(1.5)


def test_type3_text_from_differences() -> None:
    font = load(lambda b: type3(b, [0.01, 0, 0, 0.01, 0, 0], [100, 50]))
    # "square" and "bar" are Adobe Glyph List names (U+25A1, U+007C).
    assert text(font, b"ab") == "□|"
    assert font.name == "Type3"


def test_type3_glyphs_named_by_their_own_codes_read_as_those_characters() -> None:
    # Some writers name a Type 3 font's glyphs by their codes' decimal numbers: "/65" at 65,
    # "/232" at 232 (an Italian "è"). Viewers read them as the codes' Latin-1 characters; a
    # control code, or a number that is not the glyph's own code (a glyph index), stays
    # unmapped.
    codes = [65, 98, 232, 5, 67]
    names = ["/65", "/98", "/232", "/5", "/66"]
    differences: list[int | str] = []
    for code, name in zip(codes, names, strict=True):
        differences += [code, name]
    font = load(
        lambda b: b.font_type3(
            char_procs={name[1:]: b"500 0 d0" for name in names},
            differences=differences,
            first_char=0,
            widths=[500] * 256,
        )
    )
    assert text(font, bytes([65, 98, 232])) == "Abè"
    assert text(font, bytes([5, 67])) == UNMAPPED * 2


def test_type3_to_unicode() -> None:
    font = load(
        lambda b: b.font_type3(
            char_procs={"g1": b"0 0 d0"},
            differences=[1, "/g1"],
            first_char=1,
            widths=[500],
            to_unicode={1: "Q"},
        )
    )
    assert text(font, b"\x01") == "Q"


def test_type3_size_scale_follows_the_glyph_em_not_a_1000_unit_em() -> None:
    # A font drawn in a 100-unit em with FontMatrix 0.01 is as big as a 1000-unit font with
    # 0.001: at 12 Tf its glyphs are 12 pt tall. TeX's Type 3 fonts look like this (corpus
    # pdfjs/french_diacritics.pdf, FontMatrix 0.011 at 10.9 pt, is read as 120 pt text).
    font = load(lambda b: type3(b, [0.01, 0, 0, 0.01, 0, 0], [100, 50]))
    assert font.size_scale == pytest.approx(1.0)


# --- robustness -------------------------------------------------------------------------------


def test_not_a_dictionary_gives_an_unknown_font() -> None:
    font = load_font(None)
    assert font.name == "unknown"


def test_unmapped_codes_yield_replacement_characters() -> None:
    font = load(lambda b: b.font_standard("Helvetica", differences=[0x41, "/g7"]))
    decoded, _, _, glyphs = font.decode(b"AB")
    assert decoded == UNMAPPED + "B"
    assert glyphs == 2


def test_hostile_differences_array_is_bounded() -> None:
    diffs: list[int | str] = [0, *(["/a"] * 20_000)]
    font = load(lambda b: b.font_standard("Helvetica", differences=diffs))
    assert text(font, b"\x00\xff") == "aa"


def test_cid_font_of_an_adobe_collection_reads_without_to_unicode() -> None:
    from pdfthin.engine.fonts.cidmaps import cid_to_unicode

    japan1 = cid_to_unicode("Japan1")
    assert japan1 is not None
    # Japan1 CIDs 1-95 are ASCII; CID 843 is the hiragana "a".
    assert japan1[34] == "A" and japan1[843] == "あ"
    assert cid_to_unicode("Identity") is None

    def japanese(b: PdfBuilder) -> Ref:
        ref = b.font_type0(encoding="/Identity-H", cid_subtype="/CIDFontType0")
        cid_font = b.get(b.get(ref)["DescendantFonts"][0])
        cid_font["CIDSystemInfo"] = {"Registry": b"Adobe", "Ordering": b"Japan1", "Supplement": 2}
        return ref

    assert text(load(japanese), b"\x00\x22\x03\x4b") == "Aあ"


def test_cid_tables_load_from_a_zipped_package(tmp_path: Any) -> None:
    """The Adobe CID tables are read through the package's loader, so a zipped pdfthin (a
    zip import) has them too; in a fresh interpreter, reading one imports nothing more."""
    import subprocess
    import sys
    import zipfile
    from pathlib import Path

    import pdfthin

    root = Path(pdfthin.__file__).parent
    archive = tmp_path / "pdfthin.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in root.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                zf.write(path, Path("pdfthin") / path.relative_to(root))
    probe = (
        "import sys\n"
        f"sys.path.insert(0, {str(archive)!r})\n"
        "from pdfthin.engine.fonts import cidmaps\n"
        "assert cidmaps.__file__.startswith(sys.path[0]), cidmaps.__file__\n"
        "before = set(sys.modules)\n"
        "table = cidmaps.cid_to_unicode('GB1')\n"
        "print(table[34], sorted(set(sys.modules) - before))\n"
    )
    env = {"PDFTHIN_NATIVE": "off", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.split() == ["A", "[]"]


def test_predefined_jis_cmaps_h_and_v() -> None:
    from pdfthin.engine.fonts.cmap import JIS_X0208, is_vertical_name, predefined_codec

    assert predefined_codec("/H") == predefined_codec("/V") == JIS_X0208
    assert is_vertical_name("/V") and not is_vertical_name("/H")
    font = load(lambda b: b.font_type0(encoding="/H"))
    assert text(font, b"\x24\x22\x24\x24") == "あい"


# --- unembedded East Asian Windows fonts read in their code page ------------------------------


def _code_page_font(b: PdfBuilder, base_font: str, **kw: Any) -> Ref:
    return b.font_truetype(base_font, first_char=0, widths=[500] * 256, flags=4, **kw)


@pytest.mark.parametrize(
    ("base_font", "codec", "words"),
    [
        ("SimSun", "gbk", "关于红军作战的原则"),
        ("宋体", "gbk", "目录"),
        ("仿宋_GB2312", "gbk", "一九三七年"),
        ("MingLiU", "cp950", "繁體中文"),
        ("MS-Mincho", "cp932", "日本語のテキスト"),
        ("ＭＳ ゴシック", "cp932", "東京"),
        ("Batang", "cp949", "한국어"),
    ],
)
def test_unembedded_east_asian_font_reads_its_code_page(
    base_font: str, codec: str, words: str
) -> None:
    font = load(lambda b: _code_page_font(b, base_font))
    data = ("A " + words + " 1").encode(codec)
    decoded, width, spaces, glyphs = font.decode(data)
    assert decoded == "A " + words + " 1"
    assert glyphs == len(words) + 4
    assert spaces == 2  # word spacing still applies to the one-byte space
    assert width == pytest.approx(0.5 * len(data))  # a two-byte character: both bytes' widths


def test_a_code_page_font_name_written_in_its_own_bytes_is_recognised() -> None:
    # The descriptor's /FontName in GBK bytes (pypdf reads them as Latin-1: "ËÎÌå").
    raw_name = Raw(b"/#CB#CE#CC#E5")
    font = load(lambda b: _code_page_font(b, "F1", descriptor={"FontName": raw_name}))
    assert text(font, "红军".encode("gbk")) == "红军"


@pytest.mark.parametrize(
    "make",
    [
        # A Latin font: the bytes are WinAnsi.
        lambda b: _code_page_font(b, "Arial"),
        # Embedded: its own program and encoding say what the codes draw.
        lambda b: _code_page_font(b, "SimSun", font_file=truetype_program({0xE9: "eacute"})),
        # The document's own ToUnicode speaks.
        lambda b: _code_page_font(b, "SimSun", to_unicode={0xE9: "é", 0x63: "c"}),
        # A /Differences array re-encodes it: single bytes.
        lambda b: _code_page_font(b, "SimSun", differences=[0xE9, "/eacute"]),
    ],
)
def test_other_fonts_keep_single_byte_codes(make: Callable[[PdfBuilder], Ref]) -> None:
    font = load(make)
    assert text(font, b"caf\xe9") == "café"


@pytest.mark.parametrize("kind", ["simple", "one", "two", "lead"])
def test_glyph_bytes_cut_a_string_where_split_reads_its_codes(kind: str) -> None:
    # The interpreter shows a string glyph by glyph when wide spacing is taken back (see
    # interpreter._glyph_by_glyph): the pieces are the codes split() reads, in order.
    from pdfthin.engine.fonts.font import Font

    font = Font("test")
    font.simple = kind == "simple"
    font.code_len = {"simple": 1, "one": 1, "two": 2, "lead": 0}[kind]
    if kind == "lead":  # a codespace of one-byte codes below 0x80, two-byte ones above
        font.lead_lengths = [1] * 128 + [2] * 128
    data = bytes([0x41, 0x81, 0x42, 0x43, 0x90, 0x01, 0x44])
    pieces = font.glyph_bytes(data)
    codes = [int.from_bytes(p, "big") for p in pieces]
    if kind == "simple":
        assert pieces == [data[i : i + 1] for i in range(len(data))]
    else:
        assert codes == list(font.split(data))
    if kind == "two":
        assert b"".join(pieces) == data[:6]  # the odd last byte is no code
    else:
        assert b"".join(pieces) == data
