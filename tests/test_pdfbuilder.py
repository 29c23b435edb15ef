"""The fixture builder itself: its files must be exact, so a test failure is never the
builder's fault. Checked with pypdf in strict mode (exact xref offsets, valid syntax)."""

from __future__ import annotations

import io
import re
import zlib

import pypdf
import pytest
from pdfbuilder import (
    Hex,
    Outline,
    PdfBuilder,
    Raw,
    Ref,
    Stream,
    cid_cmap,
    encrypt,
    inline_image,
    literal,
    name,
    object_stream_pdf,
    serialize,
    simple_pdf,
    to_unicode_cmap,
)


def strict_reader(data: bytes) -> pypdf.PdfReader:
    return pypdf.PdfReader(io.BytesIO(data), strict=True)


def test_serialize_values() -> None:
    assert serialize(None) == b"null"
    assert serialize(True) == b"true"
    assert serialize(False) == b"false"
    assert serialize(3) == b"3"
    assert serialize(-2.5) == b"-2.5"
    assert serialize(0.001) == b"0.001"
    assert serialize(1e-7) == b"0"
    assert serialize("/Type") == b"/Type"
    assert serialize("text") == b"(text)"
    assert serialize("中") == b"(\xfe\xff\x4e\x2d)"
    assert serialize(b"a(b)c\\") == b"(a\\(b\\)c\\\\)"
    assert serialize(Hex(b"\x00\xff")) == b"<00FF>"
    assert serialize(Ref(12, 3)) == b"12 3 R"
    assert serialize(Raw(b"anything")) == b"anything"
    assert serialize([1, "/N", [True]]) == b"[1 /N [true]]"
    assert serialize({"Type": "/Page", "/Count": 2}) == b"<</Type /Page /Count 2>>"


def test_names_are_escaped() -> None:
    assert name("/A B") == b"/A#20B"
    assert name("Lime/Green") == b"/Lime#2FGreen"
    assert name("/a#b") == b"/a#23b"
    assert name("/é") == b"/#C3#A9"


def test_literal_escapes_carriage_returns() -> None:
    assert literal(b"a\rb") == b"(a\\rb)"


def test_serialize_rejects_unknown_values() -> None:
    with pytest.raises(TypeError):
        serialize(object())


def test_minimal_file_is_exact() -> None:
    data = simple_pdf(b"BT /F1 12 Tf 72 700 Td (Hi) Tj ET")
    assert data.startswith(b"%PDF-1.7\n")
    assert data.endswith(b"%%EOF\n")
    reader = strict_reader(data)
    assert len(reader.pages) == 1
    assert reader.pages[0].get_contents().get_data() == b"BT /F1 12 Tf 72 700 Td (Hi) Tj ET"
    # Every xref entry points at its "N 0 obj" header.
    xref_at = int(data.rsplit(b"startxref\n", 1)[1].split(b"\n", 1)[0])
    assert data[xref_at:].startswith(b"xref\n")
    entries = re.findall(rb"(\d{10}) 00000 n ", data[xref_at:])
    for number, offset in enumerate(entries, start=1):
        assert data[int(offset) :].startswith(b"%d 0 obj\n" % number)


def test_build_is_deterministic() -> None:
    assert simple_pdf(b"q Q") == simple_pdf(b"q Q")


def test_page_options() -> None:
    b = PdfBuilder()
    b.add_page(b"", media_box=(0, 0, 300, 400), crop_box=(10, 10, 290, 390), rotate=90)
    b.add_page([b"q", b"Q"])
    reader = strict_reader(b.build())
    first, second = reader.pages
    assert list(first.mediabox) == [0, 0, 300, 400]
    assert list(first.cropbox) == [10, 10, 290, 390]
    assert first.rotation == 90
    assert len(second["/Contents"]) == 2


def test_flate_streams() -> None:
    b = PdfBuilder(compress=True)
    b.add_page(b"BT ET")
    data = b.build()
    assert zlib.compress(b"BT ET") in data
    assert strict_reader(data).pages[0].get_contents().get_data() == b"BT ET"


def test_flate_on_top_of_an_existing_filter() -> None:
    b = PdfBuilder()
    ref = b.add(Stream(b"48656C6C6F>", {"Filter": "/ASCIIHexDecode"}, flate=True))
    b.add_page(b"")
    obj = strict_reader(b.build()).get_object(ref.num)
    assert obj["/Filter"] == ["/FlateDecode", "/ASCIIHexDecode"]
    assert obj.get_data() == b"Hello"


def test_fonts_read_back() -> None:
    b = PdfBuilder()
    fonts = {
        "F1": b.font_standard(
            "Helvetica", differences=[65, "/B"], base_encoding="/WinAnsiEncoding"
        ),
        "F2": b.font_truetype("Arial", first_char=32, widths=[278, 278]),
        "F3": b.font_type0(to_unicode={1: "A"}, w=[1, [500]], dw=900),
        "F4": b.font_type3(
            char_procs={"a": b"0 0 d0"}, differences=[97, "/a"], first_char=97, widths=[500]
        ),
    }
    b.add_page(b"", {"Font": fonts})
    reader = strict_reader(b.build())
    res = reader.pages[0]["/Resources"]["/Font"]
    assert res["/F1"]["/Encoding"]["/Differences"] == [65, "/B"]
    assert res["/F2"]["/Widths"] == [278, 278]
    assert res["/F2"]["/LastChar"] == 33
    cid_font = res["/F3"]["/DescendantFonts"][0].get_object()
    assert cid_font["/W"] == [1, [500]]
    assert cid_font["/DW"] == 900
    assert b"beginbfchar" in res["/F3"]["/ToUnicode"].get_data()
    assert res["/F4"]["/CharProcs"]["/a"].get_data() == b"0 0 d0"


def test_cmaps_text() -> None:
    cmap = to_unicode_cmap(
        {0x41: "A", 0x8140: "\u3000"},
        bfrange=[(0x01, 0x03, "a"), (0x10, 0x11, ["x", "yz"])],
        codespace=((0x00, 0x80, 1), (0x8140, 0xFEFE, 2)),
    )
    assert b"<00> <80>" in cmap
    assert b"<41> <0041>" in cmap
    assert b"<8140> <3000>" in cmap
    assert b"<01> <03> <0061>" in cmap
    assert b"<10> <11> [<0078> <0079007A>]" in cmap
    enc = cid_cmap({0x41: 5}, cidrange=[(0x8140, 0x817F, 100)], usecmap="/Identity-H", wmode=1)
    assert b"/WMode 1 def" in enc
    assert b"/Identity-H usecmap" in enc
    assert b"<0041> 5" in enc
    assert b"<8140> <817F> 100" in enc


def test_inline_image_bytes() -> None:
    assert inline_image(2, 1, b"\x00\xff") == b"BI /W 2 /H 1 /CS /G /BPC 8 ID \x00\xff\nEI"
    assert inline_image(8, 1, b"\x0f", image_mask=True, length=True) == (
        b"BI /W 8 /H 1 /IM true /L 1 ID \x0f\nEI"
    )


def test_outline_links() -> None:
    b = PdfBuilder()
    b.add_page(b"")
    b.add_page(b"")
    root = b.set_outline(
        [Outline("A", dest=0, children=[Outline("A1", dest=1)]), Outline("B", dest=1)]
    )
    reader = strict_reader(b.build())
    outline = reader.trailer["/Root"]["/Outlines"]
    assert outline.indirect_reference.idnum == root.num
    assert outline["/Count"] == 3
    first = outline["/First"]
    assert first["/Title"] == "A"
    assert first["/First"]["/Title"] == "A1"
    assert first["/First"]["/Parent"]["/Title"] == "A"
    assert first["/Next"]["/Title"] == "B"
    assert first["/Next"]["/Prev"]["/Title"] == "A"
    assert outline["/Last"]["/Title"] == "B"
    assert [o.title for o in reader.outline if not isinstance(o, list)] == ["A", "B"]
    assert reader.get_destination_page_number(reader.outline[0]) == 0


def test_named_destinations_and_labels() -> None:
    b = PdfBuilder()
    for _ in range(3):
        b.add_page(b"")
    b.set_dests_name_tree({"a": b.page_dest(0), "b": b.page_dest(2), "c": b.page_dest(1)}, leaves=2)
    b.set_page_labels([(0, {"S": "/r"}), (1, {"S": "/D"})])
    reader = strict_reader(b.build())
    pages = {k: reader.get_destination_page_number(v) for k, v in reader.named_destinations.items()}
    assert pages == {"a": 0, "b": 2, "c": 1}
    assert list(reader.page_labels) == ["i", "1", "2"]
    kids = reader.trailer["/Root"]["/Names"]["/Dests"]["/Kids"]
    assert [k.get_object()["/Limits"] for k in kids] == [["a", "b"], ["c", "c"]]


def test_dests_dictionary() -> None:
    b = PdfBuilder()
    for _ in range(2):
        b.add_page(b"")
    b.set_dests_dict({"old": b.page_dest(1)})
    reader = strict_reader(b.build())
    pages = {k: reader.get_destination_page_number(v) for k, v in reader.named_destinations.items()}
    assert pages == {"/old": 1}


def test_info_and_trailer() -> None:
    b = PdfBuilder()
    b.add_page(b"")
    b.set_info(Title="T", CreationDate=b"D:20200101")
    meta = strict_reader(b.build()).metadata
    assert meta is not None
    assert meta.title == "T"


def test_without_xref() -> None:
    b = PdfBuilder()
    b.add_page(b"")
    data = b.build(xref=False)
    assert b"xref" not in data
    assert b"trailer" in data
    assert b"xref" not in b.build(xref=False, trailer=False)
    assert b"trailer" not in b.build(xref=False, trailer=False)


@pytest.mark.parametrize("compress", [True, False])
def test_object_stream_file(compress: bool) -> None:
    page = {
        "Type": "/Page",
        "Parent": Ref(2),
        "MediaBox": [0, 0, 612, 792],
        "Contents": Ref(4),
        "Resources": {
            "Font": {"F1": {"Type": "/Font", "Subtype": "/Type1", "BaseFont": "/Courier"}}
        },
    }
    data = object_stream_pdf(
        [
            (1, {"Type": "/Catalog", "Pages": Ref(2)}),
            (2, {"Type": "/Pages", "Kids": [Ref(3)], "Count": 1}),
            (3, page),
            (3, [1, 2, 3]),  # a second object 3, never asked for
        ],
        {4: Stream(b"BT /F1 9 Tf 9 9 Td (packed) Tj ET")},
        compress=compress,
    )
    reader = strict_reader(data)
    assert reader.xref_objStm == {1: (5, 0), 2: (5, 1), 3: (5, 2)}
    assert "packed" in reader.pages[0].extract_text()
    assert (b"/FlateDecode" in data) == compress


def test_cyclic_page_tree_really_is_cyclic() -> None:
    b = PdfBuilder()
    for _ in range(3):
        b.add_page(b"")
    data = b.build(cyclic_page_tree=True)
    with pytest.raises(pypdf.errors.PdfReadError):
        list(strict_reader(data).pages)


def test_encrypt_round_trip() -> None:
    data = encrypt(simple_pdf(b"BT /F1 9 Tf 9 9 Td (x) Tj ET"), "pw", algorithm="AES-256")
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert reader.is_encrypted
    assert reader.decrypt("pw")
    assert "x" in reader.pages[0].extract_text()
