"""CMaps: ToUnicode maps (bfchar, bfrange), encoding CMaps (cidchar, cidrange), bounds."""

from __future__ import annotations

import pytest
from pdfbuilder import cid_cmap, to_unicode_cmap

from pdfthin.engine.fonts.cmap import (
    MAX_CMAP_BYTES,
    MAX_ENTRIES,
    MAX_RANGE,
    is_vertical_name,
    lead_byte_lengths,
    parse_cmap,
    predefined_codec,
)

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")

# --- bfchar -----------------------------------------------------------------------------------


def test_bfchar_basic() -> None:
    cmap = parse_cmap(to_unicode_cmap({0x0001: "A", 0x0002: "é", 0x00FF: "€"}))
    assert cmap.unicode == {1: "A", 2: "é", 0xFF: "€"}
    assert cmap.codespaces == [(2, 0x0000, 0xFFFF)]
    assert cmap.code_lengths() == {2}


def test_bfchar_surrogate_pair_and_ligatures() -> None:
    cmap = parse_cmap(to_unicode_cmap({1: "\U0001d400", 2: "ffi", 3: "fl", 4: "\u0915\u094d"}))
    assert cmap.unicode == {1: "\U0001d400", 2: "ffi", 3: "fl", 4: "\u0915\u094d"}


def test_bfchar_written_by_hand() -> None:
    data = b"""/CIDInit /ProcSet findresource begin 12 dict begin begincmap
1 begincodespacerange <00> <FF> endcodespacerange
3 beginbfchar
<41> <0061>
<42><D835DC00>
<43> <00660069>
endbfchar
endcmap end end"""
    cmap = parse_cmap(data)
    assert cmap.unicode == {0x41: "a", 0x42: "\U0001d400", 0x43: "fi"}
    assert cmap.codespaces == [(1, 0x00, 0xFF)]


def test_bfchar_glyph_name_destination() -> None:
    cmap = parse_cmap(b"2 beginbfchar <01> /fi <02> /uni0041 endbfchar")
    assert cmap.unicode == {1: "\ufb01", 2: "A"}  # the Adobe Glyph List maps "fi" to U+FB01


def test_bfchar_lone_surrogate_is_replaced() -> None:
    cmap = parse_cmap(b"1 beginbfchar <01> <D835> endbfchar")
    assert cmap.unicode == {1: "\ufffd"}


def test_bfchar_across_several_blocks() -> None:
    mapping = {code: chr(0x4E00 + code) for code in range(250)}
    data = to_unicode_cmap(mapping)
    assert data.count(b"beginbfchar") == 3  # 100 entries per block
    assert parse_cmap(data).unicode == mapping


# --- bfrange ----------------------------------------------------------------------------------


def test_bfrange_hex_destination_increments() -> None:
    cmap = parse_cmap(to_unicode_cmap(bfrange=[(0x10, 0x13, "a")]))
    assert cmap.unicode == {0x10: "a", 0x11: "b", 0x12: "c", 0x13: "d"}


def test_bfrange_array_destination() -> None:
    cmap = parse_cmap(to_unicode_cmap(bfrange=[(0x20, 0x22, ["x", "yz", "\U0001f600"])]))
    assert cmap.unicode == {0x20: "x", 0x21: "yz", 0x22: "\U0001f600"}


def test_bfrange_array_shorter_than_range() -> None:
    cmap = parse_cmap(b"1 beginbfrange <0001> <0005> [<0041> <0042>] endbfrange")
    assert cmap.unicode == {1: "A", 2: "B"}


def test_bfrange_array_longer_than_range_is_cut() -> None:
    cmap = parse_cmap(b"1 beginbfrange <0001> <0002> [<0041> <0042> <0043>] endbfrange")
    assert cmap.unicode == {1: "A", 2: "B"}


def test_bfrange_surrogate_pair_increments_low_surrogate() -> None:
    cmap = parse_cmap(to_unicode_cmap(bfrange=[(0x30, 0x32, "\U0001d400")]))
    assert cmap.unicode == {0x30: "\U0001d400", 0x31: "\U0001d401", 0x32: "\U0001d402"}


def test_bfrange_ligature_destination_increments_last_unit() -> None:
    cmap = parse_cmap(b"1 beginbfrange <0010> <0011> <00660066> endbfrange")
    assert cmap.unicode == {0x10: "ff", 0x11: "fg"}


def test_bfrange_reversed_is_ignored() -> None:
    cmap = parse_cmap(b"2 beginbfrange <0005> <0001> <0041> <0007> <0007> <0042> endbfrange")
    assert cmap.unicode == {7: "B"}


def test_bfrange_stops_at_destination_overflow() -> None:
    # <FFFE> + 1 is still two bytes; + 2 would need three: the range ends there.
    cmap = parse_cmap(b"1 beginbfrange <0001> <0005> <FFFE> endbfrange")
    assert sorted(cmap.unicode) == [1, 2]


def test_bfchar_and_bfrange_together() -> None:
    cmap = parse_cmap(to_unicode_cmap({0x05: "Z"}, bfrange=[(0x01, 0x03, "A")]))
    assert cmap.unicode == {1: "A", 2: "B", 3: "C", 5: "Z"}


# --- codespaces -------------------------------------------------------------------------------


def test_multi_byte_codespaces() -> None:
    codespace = ((0x00, 0x80, 1), (0x8140, 0x9FFC, 2), (0xE040, 0xFCFC, 2))
    data = to_unicode_cmap({0x41: "A", 0x8140: "\u3000", 0x889F: "亜"}, codespace=codespace)
    assert b"<41> <0041>" in data
    assert b"<8140> <3000>" in data
    cmap = parse_cmap(data)
    assert cmap.codespaces == [(1, 0x00, 0x80), (2, 0x8140, 0x9FFC), (2, 0xE040, 0xFCFC)]
    assert cmap.code_lengths() == {1, 2}
    assert cmap.unicode == {0x41: "A", 0x8140: "\u3000", 0x889F: "亜"}


def test_four_byte_codespace() -> None:
    cmap = parse_cmap(
        b"1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange "
        b"1 beginbfchar <00010203> <0041> endbfchar"
    )
    assert cmap.codespaces == [(4, 0, 0xFFFFFFFF)]
    assert cmap.unicode == {0x00010203: "A"}


def test_codes_longer_than_four_bytes_are_ignored() -> None:
    cmap = parse_cmap(b"1 beginbfchar <0001020304> <0041> endbfchar")
    assert cmap.unicode == {}


# --- encoding CMaps ---------------------------------------------------------------------------


def test_cidchar_and_small_cidrange() -> None:
    cmap = parse_cmap(cid_cmap({0x41: 5, 0x42: 9}, cidrange=[(0x8140, 0x817F, 100)]))
    assert cmap.cid(0x41) == 5
    assert cmap.cid(0x42) == 9
    assert cmap.cid(0x8140) == 100
    assert cmap.cid(0x817F) == 163
    assert cmap.cid(0x8180) is None
    assert cmap.cid(0x43) is None
    assert cmap.cids[0x8141] == 101  # small ranges are expanded


def test_large_cidrange_is_kept_as_a_range() -> None:
    cmap = parse_cmap(cid_cmap(cidrange=[(0x0000, 0xFFFF, 0)], cmap_name="/Big"))
    assert cmap.cids == {}
    assert cmap.cid_ranges == [(0, 0xFFFF, 0)]
    assert cmap.cid(0x1234) == 0x1234


def test_usecmap_and_wmode() -> None:
    cmap = parse_cmap(cid_cmap({0x01: 1}, usecmap="/Identity-V", wmode=1))
    assert cmap.parent == "/Identity-V"
    assert cmap.vertical is True
    horizontal = parse_cmap(cid_cmap({0x01: 1}, wmode=0))
    assert horizontal.vertical is False
    assert horizontal.parent is None


def test_cmap_name_and_system_info_are_not_mappings() -> None:
    cmap = parse_cmap(to_unicode_cmap({1: "A"}))
    assert cmap.parent is None
    assert cmap.unicode == {1: "A"}
    assert cmap.cids == {}


# --- bounds -----------------------------------------------------------------------------------


def test_huge_bfrange_is_bounded() -> None:
    cmap = parse_cmap(b"1 beginbfrange <00000000> <FFFFFFFF> <0041> endbfrange")
    assert 0 < len(cmap.unicode) <= MAX_RANGE
    assert cmap.unicode[0] == "A"
    assert cmap.unicode[1] == "B"


def test_many_huge_bfranges_stay_within_the_entry_budget() -> None:
    """Two hundred ranges of 65,536 codes: the entries made stop at the budget (the work is
    bounded by it; speed is the benchmarks' to measure)."""
    ranges = b"".join(b"<%08X> <%08X> <0041> " % (i << 16, (i << 16) + 0xFFFF) for i in range(200))
    cmap = parse_cmap(b"200 beginbfrange " + ranges + b"endbfrange")
    assert MAX_ENTRIES - MAX_RANGE < len(cmap.unicode) <= MAX_ENTRIES


def test_huge_cidranges_are_not_expanded() -> None:
    ranges = b"".join(b"<%08X> <%08X> %d " % (i << 24, (i << 24) + 0xFFFFFF, i) for i in range(100))
    cmap = parse_cmap(b"100 begincidrange " + ranges + b"endcidrange")
    assert cmap.cids == {}
    assert len(cmap.cid_ranges) == 100
    assert cmap.cid((5 << 24) + 7) == 12


def test_what_lies_past_the_byte_bound_is_not_read() -> None:
    """Ten million operations of padding cost minutes in Python: only the first MAX_CMAP_BYTES
    of a stream are read, on both engine paths."""
    first = b"1 beginbfchar <01> <0041> endbfchar\n"
    later = b"1 beginbfchar <02> <0042> endbfchar\n"
    padding = b"0 a " * (MAX_CMAP_BYTES // 4)
    assert parse_cmap(first + padding + later).unicode == {1: "A"}
    assert parse_cmap(first + later + padding).unicode == {1: "A", 2: "B"}


def test_huge_array_destination_is_bounded() -> None:
    data = b"1 beginbfrange <0000> <FFFF> [" + b"<0041> " * 70_000 + b"] endbfrange"
    cmap = parse_cmap(data)
    assert 0 < len(cmap.unicode) <= MAX_RANGE


# --- damage -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"garbage",
        b"1 beginbfchar <01> endbfchar",
        b"1 beginbfrange <01> <02> endbfrange",
        b"1 beginbfrange <01> <02> 5 endbfrange",
        b"1 begincidrange <01> <02> (x) endcidrange",
        b"1 begincodespacerange <> <FF> endcodespacerange",
    ],
)
def test_damaged_cmaps_never_raise(data: bytes) -> None:
    cmap = parse_cmap(data)
    assert cmap.unicode == {}
    assert cmap.cids == {}


def test_literal_string_codes_are_accepted() -> None:
    # Some producers write codes as literal strings.
    cmap = parse_cmap(b"1 beginbfchar (A) <0042> endbfchar")
    assert cmap.unicode == {0x41: "B"}


# --- predefined CMaps -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "codec"),
    [
        ("/UniJIS-UCS2-H", "utf-16-be"),
        ("/UniJIS-UCS2-HW-V", "utf-16-be"),
        ("/UniGB-UTF16-V", "utf-16-be"),
        ("/UniJIS-UTF8-H", "utf-8"),
        ("/UniJIS-UTF32-H", "utf-32-be"),
        ("/90ms-RKSJ-H", "cp932"),
        ("/90msp-RKSJ-V", "cp932"),
        ("/EUC-H", "euc_jp"),
        ("/GBK-EUC-H", "gbk"),
        ("/GB-EUC-H", "gb2312"),
        ("/GBK2K-H", "gb18030"),
        ("/B5pc-H", "big5"),
        ("/ETen-B5-V", "cp950"),
        ("/KSC-EUC-H", "euc_kr"),
        ("/KSCms-UHC-H", "cp949"),
        ("/Identity-H", None),
        ("/Identity-V", None),
        ("/H", "jis-x0208"),
        ("/V", "jis-x0208"),
        ("/Adobe-Japan1-6", None),
    ],
)
def test_predefined_codec(name: str, codec: str | None) -> None:
    assert predefined_codec(name) == codec


def test_cns_euc_is_not_read_as_japanese() -> None:
    # CNS-EUC-H/V is EUC-TW (CNS 11643, Traditional Chinese). Python has no codec for it;
    # decoding its bytes as EUC-JP puts Japanese characters in front of the reader
    # (0xC4E3, "中" in EUC-TW, is "低" in EUC-JP). No codec is better than a wrong one.
    assert predefined_codec("/CNS-EUC-H") != "euc_jp"


def test_vertical_names() -> None:
    assert is_vertical_name("/Identity-V")
    assert is_vertical_name("/UniJIS-UCS2-V")
    assert not is_vertical_name("/Identity-H")
    assert not is_vertical_name("/WinAnsiEncoding")


def test_lead_byte_lengths_shift_jis() -> None:
    lengths = lead_byte_lengths("cp932")
    assert lengths is not None
    assert len(lengths) == 256
    assert lengths[0x41] == 1  # ASCII
    assert lengths[0xA1] == 1  # half-width katakana
    assert lengths[0x81] == 2
    assert lengths[0xE0] == 2


def test_lead_byte_lengths_euc_jp() -> None:
    # Adobe's EUC-H: one byte up to 0x80, two bytes from 0x8E (half-width kana) and 0xA1.
    lengths = lead_byte_lengths("euc_jp")
    assert lengths is not None
    assert lengths[0x41] == 1
    assert lengths[0x8E] == 2
    assert lengths[0xA4] == 2


def test_lead_byte_lengths_unknown_codec() -> None:
    assert lead_byte_lengths("no-such-codec") is None
