"""Embedded font programs: the CFF encoding reader (checked against fontTools on every Type1C
font of the real corpus), the Type 1 clear-text encoding reader and the TrueType cmap reader."""

from __future__ import annotations

import io
import logging
import re
import warnings
from dataclasses import dataclass

import pypdf
import pytest
from conftest import CORPUS_FILES, CorpusFile, corpus_params, require_corpus
from fontprograms import (
    cff_encoding_format,
    cff_program,
    cmap_format0,
    cmap_format4,
    cmap_format4_glyph_array,
    cmap_format6,
    cmap_format12,
    cmap_only_sfnt,
    truetype_program,
    type1_header,
)
from fontTools.cffLib import CFFFontSet
from fontTools.misc.eexec import decrypt
from fontTools.ttLib import TTFont
from pypdf.generic import IndirectObject

from pdfthin.engine.fonts.program import (
    cff_encoding,
    truetype_cmaps,
    truetype_unicodes,
    type1_encoding,
)

# --- CFF: synthetic fonts ---------------------------------------------------------------------


def test_cff_standard_encoding_is_none() -> None:
    assert cff_encoding(cff_program("StandardEncoding", glyphs=["A", "B"])) is None


def test_cff_expert_encoding_is_none() -> None:
    assert cff_encoding(cff_program("ExpertEncoding", glyphs=["A"])) is None


def test_cff_custom_encoding_format0() -> None:
    program = cff_program({0x41: "alpha", 0x42: "beta", 0x80: "Euro", 0x20: "space"})
    assert cff_encoding_format(program) == 0
    assert cff_encoding(program) == {0x41: "alpha", 0x42: "beta", 0x80: "Euro", 0x20: "space"}


def test_cff_custom_encoding_format1() -> None:
    encoding = {code: f"g{code}" for code in range(60, 90)}
    program = cff_program(encoding)
    assert cff_encoding_format(program) == 1
    assert cff_encoding(program) == encoding


def test_cff_custom_names_go_through_the_string_index() -> None:
    # "alpha" is not a standard string; "A" is (SID 34).
    program = cff_program({0x41: "A", 0x61: "alpha", 0x62: "my.glyph"})
    assert cff_encoding(program) == {0x41: "A", 0x61: "alpha", 0x62: "my.glyph"}


def test_cff_cid_keyed_font_has_no_encoding() -> None:
    assert cff_encoding(cff_program({}, glyphs=["cid00001", "cid00002"], cid=True)) is None


@pytest.mark.parametrize(
    "program",
    [b"", b"\x01", b"\x02\x00\x04\x01", b"\x01\x00\x04\x01" + b"\xff" * 40, b"not a font at all"],
)
def test_cff_garbage_is_none(program: bytes) -> None:
    assert cff_encoding(program) is None


def test_cff_truncated_program_is_none_or_partial() -> None:
    program = cff_program({0x41: "alpha", 0x42: "beta"})
    for cut in range(0, len(program), 7):
        result = cff_encoding(program[:cut])
        assert result is None or isinstance(result, dict)


# --- Type 1 clear text ------------------------------------------------------------------------


def test_type1_standard_encoding_is_none() -> None:
    assert type1_encoding(type1_header(None)) is None


def test_type1_custom_encoding() -> None:
    header = type1_header({0x41: "alpha", 0x27: "quoteright", 0xE9: "eacute", 0x01: "f_f_i"})
    assert type1_encoding(header, len(header)) == {
        0x41: "alpha",
        0x27: "quoteright",
        0xE9: "eacute",
        0x01: "f_f_i",
    }


def test_type1_clear_length_limits_the_scan() -> None:
    header = type1_header({0x41: "alpha"})
    binary = b"\x80\x01 dup 66 /beta put junk"  # stands for the encrypted part
    assert type1_encoding(header + binary, len(header)) == {0x41: "alpha"}


def test_type1_encoding_written_on_one_line() -> None:
    program = (
        b"%!FontType1-1.0: Tiny\n/Encoding 256 array 0 1 255 {1 index exch /.notdef put} for "
        b"dup 32/space put dup 65 /A put dup 300 /toolarge put readonly def\ncurrentfile eexec"
    )
    assert type1_encoding(program) == {32: "space", 65: "A"}


def test_type1_without_encoding_is_none() -> None:
    assert type1_encoding(b"%!PS-AdobeFont-1.0: X\n/FontName /X def\ncurrentfile eexec") is None
    assert type1_encoding(b"") is None


# --- TrueType cmap ----------------------------------------------------------------------------


def test_truetype_cmaps_from_a_fonttools_font() -> None:
    program = truetype_program({0x41: "A", 0x42: "B", 0x1F600: "smile"})
    cmaps = truetype_cmaps(program)
    assert cmaps[(3, 1)] == {0x41: 1, 0x42: 2}
    assert cmaps[(3, 10)] == {0x41: 1, 0x42: 2, 0x1F600: 3}
    assert truetype_unicodes(program) == {1: "A", 2: "B", 3: "\U0001f600"}


def test_truetype_cmap_format0() -> None:
    program = cmap_only_sfnt([(1, 0, cmap_format0({0x41: 3, 0x42: 4}))])
    assert truetype_cmaps(program) == {(1, 0): {0x41: 3, 0x42: 4}}


def test_truetype_cmap_format4_deltas() -> None:
    program = cmap_only_sfnt([(3, 1, cmap_format4([(0x41, 0x43, -0x40), (0x61, 0x61, 100)]))])
    assert truetype_cmaps(program) == {(3, 1): {0x41: 1, 0x42: 2, 0x43: 3, 0x61: 0xC5}}
    assert truetype_unicodes(program) == {1: "A", 2: "B", 3: "C", 0xC5: "a"}


def test_truetype_cmap_format4_glyph_id_array() -> None:
    program = cmap_only_sfnt([(3, 1, cmap_format4_glyph_array(0x30, [7, 0, 9]))])
    # The zero entry is "no glyph" and is left out.
    assert truetype_cmaps(program) == {(3, 1): {0x30: 7, 0x32: 9}}


def test_truetype_cmap_format6() -> None:
    program = cmap_only_sfnt([(3, 1, cmap_format6(0x20, [5, 0, 6]))])
    assert truetype_cmaps(program) == {(3, 1): {0x20: 5, 0x22: 6}}


def test_truetype_cmap_format12() -> None:
    program = cmap_only_sfnt([(3, 10, cmap_format12([(0x1F600, 0x1F602, 10)]))])
    assert truetype_cmaps(program) == {(3, 10): {0x1F600: 10, 0x1F601: 11, 0x1F602: 12}}


def test_truetype_cmap_format12_group_on_glyph_zero_maps_nothing_there() -> None:
    # Glyph 0 is .notdef: a group that starts on it maps its first code to nothing (as in
    # formats 0, 4 and 6, and in fontTools and HarfBuzz), so no code is read as "\x00".
    program = cmap_only_sfnt([(3, 10, cmap_format12([(0x00, 0x00, 0), (0x41, 0x42, 0)]))])
    assert truetype_cmaps(program) == {(3, 10): {0x42: 1}}
    assert truetype_unicodes(program) == {1: "B"}


def test_truetype_unicodes_prefers_windows_unicode_and_real_characters() -> None:
    program = cmap_only_sfnt(
        [
            (1, 0, cmap_format0({0x41: 9})),
            (3, 1, cmap_format4([(0x41, 0x41, 1 - 0x41), (0xF041, 0xF041, 1 - 0xF041)])),
        ]
    )
    # Glyph 1 is reached from U+0041 and from the private-use alias U+F041: "A" wins.
    assert truetype_unicodes(program) == {1: "A"}


def test_truetype_private_use_only_glyph_keeps_its_alias() -> None:
    program = cmap_only_sfnt([(3, 0, cmap_format4([(0xF020, 0xF021, 3 - 0xF020)]))])
    assert truetype_cmaps(program) == {(3, 0): {0xF020: 3, 0xF021: 4}}
    assert truetype_unicodes(program) == {}  # (3, 0) is the symbol cmap, not Unicode


@pytest.mark.parametrize("program", [b"", b"\x00\x01\x00\x00", b"true" + b"\x00" * 8, b"x" * 100])
def test_truetype_garbage(program: bytes) -> None:
    assert truetype_cmaps(program) == {}
    assert truetype_unicodes(program) == {}


def test_truetype_truncated_program_never_raises() -> None:
    program = truetype_program({0x41: "A", 0x42: "B"})
    for cut in range(0, len(program), 11):
        assert isinstance(truetype_cmaps(program[:cut]), dict)


# --- the real corpus --------------------------------------------------------------------------


@dataclass
class EmbeddedFont:
    obj: int
    key: str  # /FontFile, /FontFile2 or /FontFile3
    subtype: str | None
    data: bytes
    length1: int | None
    length2: int | None


def _embedded_fonts(path: str, password: str | None) -> list[EmbeddedFont]:
    """Every font program reachable from a font descriptor in the file, found by walking all
    objects (not only those the pages use)."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.CRITICAL)  # restored after: other tests check pypdf's logger
    try:
        return _walk_embedded_fonts(path, password)
    finally:
        logger.setLevel(level)


def _walk_embedded_fonts(path: str, password: str | None) -> list[EmbeddedFont]:
    out: list[EmbeddedFont] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            reader = pypdf.PdfReader(path, strict=False)
            if reader.is_encrypted:
                reader.decrypt(password or "")
            refs = [(i, g) for g, table in reader.xref.items() for i in table]
            refs += [(i, 0) for i in reader.xref_objStm]
        except Exception:
            return out
        for idnum, generation in refs:
            try:
                obj = reader.get_object(IndirectObject(idnum, generation, reader))
            except Exception:
                continue
            if not isinstance(obj, dict):
                continue
            for key in ("/FontFile", "/FontFile2", "/FontFile3"):
                if key not in obj:
                    continue
                try:
                    stream = obj[key].get_object()
                    data = stream.get_data()
                except Exception:
                    continue
                subtype = stream.get("/Subtype")
                lengths = [stream.get(k) for k in ("/Length1", "/Length2")]
                length1, length2 = (int(v.get_object()) if v is not None else None for v in lengths)
                out.append(
                    EmbeddedFont(
                        idnum, key, str(subtype) if subtype else None, data, length1, length2
                    )
                )
    return out


def _check_cff(font: EmbeddedFont) -> str | None:
    """``None`` when our reader agrees with fontTools, else a description."""
    ours = cff_encoding(font.data)
    fontset = CFFFontSet()
    fontset.decompile(io.BytesIO(font.data), None)
    top = fontset.topDictIndex[0]
    if hasattr(top, "ROS"):
        return None if ours is None else f"obj {font.obj}: a CID-keyed font got {ours}"
    theirs = top.Encoding
    if theirs in ("StandardEncoding", "ExpertEncoding"):
        return None if ours is None else f"obj {font.obj}: {theirs} read as {ours}"
    expected = {code: name for code, name in enumerate(theirs) if name != ".notdef"}
    got = {code: name for code, name in (ours or {}).items() if name != ".notdef"}
    # fontTools drops code 0 of format-0 encodings on purpose (parseEncoding0 skips it); TeX
    # fonts really encode a glyph there (Gamma in cmr). Check it against the charset instead.
    zero = got.pop(0, None)
    expected.pop(0, None)
    if zero is not None and zero not in top.charset:
        return f"obj {font.obj}: code 0 is {zero!r}, which is not in the charset"
    if got != expected:
        diff = {c: (expected.get(c), got.get(c)) for c in set(got) | set(expected)}
        diff = {c: v for c, v in diff.items() if v[0] != v[1]}
        return f"obj {font.obj}: (fontTools, ours) differ at {diff}"
    return None


_DUP_PUT = re.compile(rb"dup\s+(\d+)\s*/([^\s/\[\]()<>{}%]+)\s+put")
_CHARSTRING_NAME = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s+\d+\s+(?:RD|-\|)\s")


def _check_type1(font: EmbeddedFont) -> str | None:
    """Every glyph our reader puts in the encoding must be a glyph of the font (its
    ``/CharStrings`` in the eexec-encrypted part); ``None`` only for StandardEncoding."""
    clear = font.length1 or 65_536
    ours = type1_encoding(font.data, font.length1)
    if ours is None:
        if b"StandardEncoding" in font.data[:clear]:
            return None
        return f"obj {font.obj}: no encoding read and the font does not say StandardEncoding"
    end = clear + font.length2 if font.length2 else len(font.data)
    encrypted = font.data[clear:end]
    if re.fullmatch(rb"[0-9A-Fa-f\s]+", encrypted[:64] or b"x"):
        encrypted = bytes.fromhex(re.sub(rb"\s", b"", encrypted).decode())
    plain, _ = decrypt(encrypted, 55665)
    glyphs = {m.group(1).decode("latin-1") for m in _CHARSTRING_NAME.finditer(plain)}
    # A program may name a glyph it lacks in its own encoding (camelot/assam.pdf's Corel font
    # puts /CharA0 at 160 and draws no such glyph): reading that is right, inventing it is not.
    declared = {
        (int(m.group(1)), m.group(2).decode("latin-1"))
        for m in _DUP_PUT.finditer(font.data[:clear])
    }
    missing = {
        code: name
        for code, name in ours.items()
        if name not in glyphs and (code, name) not in declared
    }
    if missing:
        return f"obj {font.obj}: encoded glyphs not in /CharStrings: {missing}"
    if any(not 0 <= code < 256 for code in ours):
        return f"obj {font.obj}: codes out of range"
    return None


def _check_truetype(font: EmbeddedFont) -> str | None:
    ours = truetype_cmaps(font.data)
    try:
        tt = TTFont(io.BytesIO(font.data), lazy=True)
        if "cmap" not in tt:
            return None if ours == {} else f"obj {font.obj}: no cmap table, read {ours.keys()}"
        theirs: dict[tuple[int, int], dict[int, int]] = {}
        for table in tt["cmap"].tables:
            if table.format not in (0, 4, 6, 12):
                continue
            mapping = {code: tt.getGlyphID(name) for code, name in table.cmap.items()}
            mapping = {code: gid for code, gid in mapping.items() if gid}
            if mapping:
                theirs[(table.platformID, table.platEncID)] = mapping
    except Exception:
        return None  # not a font fontTools can read: only "never raises" is checked
    if ours != theirs:
        diff = {}
        for key in set(ours) | set(theirs):
            a, b = theirs.get(key, {}), ours.get(key, {})
            delta = {c: (a.get(c), b.get(c)) for c in set(a) | set(b) if a.get(c) != b.get(c)}
            if delta:
                diff[key] = dict(list(delta.items())[:5])
        return f"obj {font.obj}: (fontTools, ours) differ: {diff}"
    return None


#: Files known to hold embedded fonts of each kind: the checks below must not be vacuous.
_KNOWN = {
    "sample-files/GeoTopo-komprimiert.pdf": ("/FontFile3", 50),
    "pdfjs/pr4922.pdf": ("/FontFile3", 20),
    "pypdf-benchmarks/1601.03642.pdf": ("/FontFile", 10),
    "pdfminer/contrib/issue-598-cmap-other-fonts.pdf": ("/FontFile2", 5),
}


@pytest.mark.corpus
@pytest.mark.parametrize("item", corpus_params(CORPUS_FILES))
def test_embedded_font_readers_agree_on_corpus(item: CorpusFile | None) -> None:
    require_corpus()
    assert item is not None
    fonts = _embedded_fonts(str(item.path), item.password)
    problems: list[str] = []
    counts: dict[str, int] = {}
    for font in fonts:
        if font.key == "/FontFile3" and font.subtype == "/Type1C":
            problem = _check_cff(font)
        elif font.key == "/FontFile":
            problem = _check_type1(font)
        elif font.key == "/FontFile2":
            problem = _check_truetype(font)
        else:
            continue
        counts[font.key] = counts.get(font.key, 0) + 1
        if problem:
            problems.append(problem)
    known = _KNOWN.get(item.relpath)
    if known is not None:
        key, minimum = known
        assert counts.get(key, 0) >= minimum, counts
    assert problems == []


@pytest.mark.corpus
def test_corpus_has_the_fonts_these_checks_rely_on() -> None:
    require_corpus()
    relpaths = {f.relpath for f in CORPUS_FILES}
    assert set(_KNOWN) <= relpaths


def test_truetype_cmap_overlapping_ranges_are_bounded() -> None:
    """Overlapping ranges cannot make the cmap reader loop billions of times: it reads at most
    ``_MAX_CMAP_CODES`` codes in all, and leaves out the rest of a subtable past that."""
    from pdfthin.engine.fonts import program as fontfile

    groups = [(0x20, 0x20 + 65_536, 1)] * 65_536  # four billion codes as written
    segments = [(0x20, 0xFFFE, 1)] * 2_000  # 130 million
    program = cmap_only_sfnt([(3, 10, cmap_format12(groups)), (3, 1, cmap_format4(segments))])
    cmaps = truetype_cmaps(program)
    assert len(cmaps[(3, 10)]) == 65_537  # the first group; the rest of the budget is spent
    assert (3, 1) not in cmaps or len(cmaps[(3, 1)]) <= fontfile._MAX_CMAP_CODES
    assert len(truetype_unicodes(program)) > 60_000


def test_truetype_codes_past_unicode_are_not_characters() -> None:
    program = cmap_only_sfnt([(3, 10, cmap_format12([(0x10FFFE, 0x110002, 5), (0x41, 0x41, 1)]))])
    assert truetype_cmaps(program)[(3, 10)][0x110001] == 8
    assert truetype_unicodes(program) == {1: "A", 5: "\U0010fffe", 6: "\U0010ffff"}
