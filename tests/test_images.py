"""Images: ``list_images`` and ``get_image`` on generated fixtures and on the corpus.

Every image that comes out is opened by an independent decoder (Pillow, a test-only
dependency) and checked for its size, and on generated fixtures for its pixels.
"""

from __future__ import annotations

import base64
import io
import json
import struct
import subprocess
import sys
import zlib
from typing import Any

import pytest
from cli_support import pdfthin_cli_bytes
from conftest import corpus_files, corpus_params, require_corpus
from pdfbuilder import Outline, PdfBuilder, Raw, inline_image

from pdfthin.adapters import cli
from pdfthin.errors import PdfthinError
from pdfthin.images import jbig2, pillow
from pdfthin.operations import Context, get_image, get_toc, image_file, list_images
from pdfthin.operations import cursor as cur
from pdfthin.operations.response import size

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")

Image = pytest.importorskip("PIL.Image")


# --- fixture helpers ------------------------------------------------------------------------------


def one_image(
    data: bytes | None,
    width: int,
    height: int,
    *,
    builder: PdfBuilder | None = None,
    **kwargs: Any,
) -> bytes:
    """A one-page PDF drawing one image XObject at 100 x 100 pt."""
    b = builder or PdfBuilder()
    ref = b.image_xobject(width, height, data, **kwargs)
    b.add_page(b"q 100 0 0 100 50 50 cm /Im1 Do Q", {"XObject": {"Im1": ref}})
    return b.build()


def fetch(pdf: bytes, image_id: str | None = None, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
    """The first (or the named) image decoded by Pillow, and the get_image response."""
    context = Context()
    if image_id is None:
        image_id = list_images(pdf, context=context)["images"][0]["id"]
    response = get_image(pdf, image_id, context=context, **kwargs)
    image = Image.open(io.BytesIO(base64.b64decode(response["data"])))
    image.load()
    assert image.size == (response["width"], response["height"])
    return image, response


def pixels(image: Any, mode: str) -> list[Any]:
    converted = image.convert(mode)
    return [converted.getpixel((x, y)) for y in range(image.height) for x in range(image.width)]


def lzw_encode(data: bytes) -> bytes:
    """A plain LZW encoder (early change 1, as PDF's default), for fixtures."""
    table = {bytes([i]): i for i in range(256)}
    next_code, width = 258, 9
    out, acc, used = bytearray(), 0, 0

    def emit(code: int) -> None:
        nonlocal acc, used
        acc = (acc << width) | code
        used += width
        while used >= 8:
            used -= 8
            out.append((acc >> used) & 0xFF)

    emit(256)
    word = b""
    for byte in data:
        candidate = word + bytes([byte])
        if candidate in table:
            word = candidate
            continue
        emit(table[word])
        table[candidate] = next_code
        next_code += 1
        if next_code + 1 > (1 << width) and width < 12:
            width += 1
        if next_code >= 4094:
            emit(256)
            table = {bytes([i]): i for i in range(256)}
            next_code, width = 258, 9
        word = bytes([byte])
    if word:
        emit(table[word])
    emit(257)
    if used:
        out.append((acc << (8 - used)) & 0xFF)
    return bytes(out)


def run_length_encode(data: bytes) -> bytes:
    out = bytearray()
    for start in range(0, len(data), 128):
        chunk = data[start : start + 128]
        out += bytes([len(chunk) - 1]) + chunk
    return bytes(out + b"\x80")


GRADIENT = bytes(range(0, 240, 20))  # 4 x 3 grey pixels


# --- PNG re-encoding: colour spaces, depths, Decode, masks ----------------------------------------


def test_grey_8_bit_flate_pixels() -> None:
    image, response = fetch(one_image(GRADIENT, 4, 3, flate=True))
    assert response["media_type"] == "image/png"
    assert response["stored_format"] == "flate"
    assert pixels(image, "L") == list(GRADIENT)


@pytest.mark.parametrize("bits", [1, 2, 4])
def test_grey_low_depths_are_scaled(bits: int) -> None:
    top = (1 << bits) - 1
    values = [i % (top + 1) for i in range(10)]
    row = int("".join(format(v, f"0{bits}b") for v in values).ljust(16 * bits, "0"), 2)
    data = row.to_bytes(2 * bits, "big")[: (10 * bits + 7) // 8]
    image, _ = fetch(one_image(data, 10, 1, bpc=bits, flate=True))
    assert [round(v * top / 255) for v in pixels(image, "L")] == values


def test_grey_16_bit_keeps_precision() -> None:
    data = struct.pack(">4H", 0, 1, 0x1234, 0xFFFF)
    image, _ = fetch(one_image(data, 4, 1, bpc=16, flate=True))
    assert pixels(image, "I") == [0, 1, 0x1234, 0xFFFF]


def test_rgb_8_and_16_bit() -> None:
    rgb = bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 99, 199])
    image, _ = fetch(one_image(rgb, 2, 2, color_space="/DeviceRGB", flate=True))
    assert pixels(image, "RGB") == [(255, 0, 0), (0, 255, 0), (0, 0, 255), (9, 99, 199)]
    deep = struct.pack(">6H", 0xFFFF, 0, 0x8000, 0, 0, 0)
    image, _ = fetch(one_image(deep, 2, 1, color_space="/DeviceRGB", bpc=16, flate=True))
    assert image.size == (2, 1)


def test_cmyk_follows_the_specification_formula() -> None:
    cmyk = bytes(
        [255, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0, 0, 128, 0, 0, 64, 200, 100, 0, 100, 0, 255, 255, 0]
    )
    image, _ = fetch(one_image(cmyk, 6, 1, color_space="/DeviceCMYK", flate=True))
    assert pixels(image, "RGB") == [
        (0, 255, 255),
        (0, 0, 0),
        (255, 255, 255),
        (63, 191, 191),
        (0, 55, 155),
        (255, 0, 0),
    ]


@pytest.mark.parametrize("bits", [1, 2, 4, 8])
def test_indexed_palettes(bits: int) -> None:
    entries = 1 << bits
    palette = b"".join(
        bytes((i * 40 % 256, 255 - i * 17 % 256, i * 3 % 256)) for i in range(entries)
    )
    values = [(i * 5) % entries for i in range(8)]
    row = int("".join(format(v, f"0{bits}b") for v in values), 2)
    data = row.to_bytes(bits, "big")
    cs = ["/Indexed", "/DeviceRGB", entries - 1, palette]
    image, response = fetch(one_image(data, 8, 1, color_space=cs, bpc=bits, flate=True))
    assert response["format"] == "png"
    assert pixels(image, "RGB") == [tuple(palette[3 * v : 3 * v + 3]) for v in values]


def test_indexed_with_cmyk_base_and_short_palette() -> None:
    cs = ["/Indexed", "/DeviceCMYK", 1, bytes([0, 0, 0, 0, 0, 255, 255, 0])]
    image, _ = fetch(one_image(bytes([0, 1, 2]), 3, 1, color_space=cs, flate=True))
    # Index 2 is past hival: shown black, as viewers do.
    assert pixels(image, "RGB") == [(255, 255, 255), (255, 0, 0), (0, 0, 0)]


def test_indexed_base_name_that_swallowed_hival() -> None:
    # Seen in the wild: "/DeviceRGB\x00255" (a NUL inside the name) instead of "/DeviceRGB 255".
    cs = ["/Indexed", Raw(b"/DeviceRGB#00" + b"1"), bytes([0, 0, 0, 255, 0, 0])]
    image, _ = fetch(one_image(bytes([1, 0]), 2, 1, color_space=cs))
    assert pixels(image, "RGB") == [(255, 0, 0), (0, 0, 0)]


def test_icc_based_uses_its_component_count() -> None:
    b = PdfBuilder()
    icc = b.stream(b"not a real profile", N=3)
    rgb = bytes([10, 20, 30, 40, 50, 60])
    pdf = one_image(rgb, 2, 1, builder=b, color_space=["/ICCBased", icc], flate=True)
    listing = list_images(pdf)["images"][0]
    assert listing["color_space"] == "ICCBased(RGB)"
    image, _ = fetch(pdf)
    assert pixels(image, "RGB") == [(10, 20, 30), (40, 50, 60)]


def test_decode_array_inverts() -> None:
    image, _ = fetch(one_image(GRADIENT, 4, 3, flate=True, extra={"Decode": [1, 0]}))
    assert pixels(image, "L") == [255 - v for v in GRADIENT]
    rgb = bytes([0, 128, 255])
    image, _ = fetch(
        one_image(rgb, 1, 1, color_space="/DeviceRGB", extra={"Decode": [1, 0, 0, 1, 0, 0.5]})
    )
    assert pixels(image, "RGB") == [(255, 128, 128)]


def test_soft_mask_becomes_alpha_and_is_resized() -> None:
    b = PdfBuilder()
    smask = b.image_xobject(2, 1, bytes([0, 200]), flate=True)
    rgb = bytes([255, 0, 0] * 4)
    pdf = one_image(rgb, 4, 1, builder=b, color_space="/DeviceRGB", extra={"SMask": smask})
    image, _ = fetch(pdf)
    assert image.mode == "RGBA"
    assert pixels(image, "RGBA") == [(255, 0, 0, 0)] * 2 + [(255, 0, 0, 200)] * 2
    assert list_images(pdf)["images"][0]["soft_mask"] is True


def test_jpeg_soft_mask_needs_pillow(monkeypatch: pytest.MonkeyPatch) -> None:
    b = PdfBuilder()
    alpha = Image.new("L", (4, 1), 0)
    alpha.putpixel((2, 0), 255)
    alpha.putpixel((3, 0), 255)
    jpeg = pillow_bytes(alpha, "JPEG", quality=100)
    smask = b.image_xobject(4, 1, jpeg, filter="/DCTDecode")
    pdf = one_image(
        bytes([9] * 12), 4, 1, builder=b, color_space="/DeviceRGB", extra={"SMask": smask}
    )
    image, response = fetch(pdf)
    alphas = [a for *_, a in pixels(image, "RGBA")]
    assert alphas[0] < 20 and alphas[3] > 235
    assert "notes" not in response
    monkeypatch.setattr(pillow, "pillow", lambda: None)
    image, response = fetch(pdf)
    assert image.mode == "RGB"
    assert any("needs Pillow" in note for note in response["notes"])


def test_jpeg_with_a_soft_mask_says_the_mask_is_not_applied() -> None:
    b = PdfBuilder()
    smask = b.image_xobject(8, 8, bytes(64))
    jpeg = pillow_bytes(Image.new("L", (8, 8), 99), "JPEG")
    pdf = one_image(jpeg, 8, 8, builder=b, filter="/DCTDecode", extra={"SMask": smask})
    content, info = image_file(pdf, list_images(pdf)["images"][0]["id"])
    assert content == jpeg
    assert any("without its transparency" in note for note in info["notes"])


def test_stencil_mask_stream_and_colour_key() -> None:
    b = PdfBuilder()
    mask = b.image_xobject(4, 1, bytes([0b01010000]), image_mask=True)
    pdf = one_image(GRADIENT[:4], 4, 1, builder=b, extra={"Mask": mask})
    image, _ = fetch(pdf)
    assert [a for _, a in pixels(image, "LA")] == [255, 0, 255, 0]
    pdf = one_image(GRADIENT[:4], 4, 1, extra={"Mask": [10, 30]})
    image, _ = fetch(pdf)
    assert [a for _, a in pixels(image, "LA")] == [255, 0, 255, 255]  # only 20 is in 10-30


def test_image_mask_paints_black() -> None:
    pdf = one_image(bytes([0b00001111]), 8, 1, image_mask=True)
    image, _ = fetch(pdf)
    assert pixels(image, "L") == [0] * 4 + [255] * 4
    assert list_images(pdf)["images"][0]["image_mask"] is True
    pdf = one_image(bytes([0b00001111]), 8, 1, image_mask=True, extra={"Decode": [1, 0]})
    image, _ = fetch(pdf)
    assert pixels(image, "L") == [255] * 4 + [0] * 4


@pytest.mark.parametrize(
    ("filters", "encode"),
    [
        ("/LZWDecode", lzw_encode),
        ("/RunLengthDecode", run_length_encode),
        ("/ASCIIHexDecode", lambda d: d.hex().encode() + b">"),
        ("/ASCII85Decode", lambda d: base64.a85encode(d) + b"~>"),
        (["/ASCIIHexDecode", "/FlateDecode"], lambda d: zlib.compress(d).hex().encode() + b">"),
        (None, lambda d: d),
    ],
)
def test_general_filters(filters: Any, encode: Any) -> None:
    data = bytes(range(0, 250, 2)) * 8  # 1000 bytes: 40 x 25
    pdf = one_image(encode(data), 40, 25, extra={"Filter": filters} if filters else {})
    image, _ = fetch(pdf)
    assert bytes(pixels(image, "L")) == data


def test_png_predictors_after_flate_and_lzw() -> None:
    rows = [bytes([10, 20, 30, 40]), bytes([11, 22, 33, 44])]
    # Row 1 with filter None, row 2 with filter Up (difference to the row above).
    predicted = (
        b"\x00" + rows[0] + b"\x02" + bytes((b - a) % 256 for a, b in zip(*rows, strict=True))
    )
    parms = {"Predictor": 12, "Colors": 1, "Columns": 4, "BitsPerComponent": 8}
    for name, encoded in (
        ("/FlateDecode", zlib.compress(predicted)),
        ("/LZWDecode", lzw_encode(predicted)),
    ):
        pdf = one_image(encoded, 4, 2, extra={"Filter": name, "DecodeParms": parms})
        image, _ = fetch(pdf)
        assert bytes(pixels(image, "L")) == b"".join(rows), name


def test_lab_and_separation_with_a_tint_transform() -> None:
    b = PdfBuilder()
    lab = ["/Lab", {"WhitePoint": [0.9505, 1.0, 1.089], "Range": [-128, 127, -128, 127]}]
    # L* 100 with a*, b* at 0 is white; L* 0 is black.
    data = bytes([255, 128, 128, 0, 128, 128])
    image, _ = fetch(one_image(data, 2, 1, builder=b, color_space=lab))
    white, black = pixels(image, "RGB")
    assert min(white) >= 250 and max(black) <= 5
    b = PdfBuilder()
    tint = b.add({"FunctionType": 2, "Domain": [0, 1], "C0": [1, 1, 1], "C1": [1, 0, 0], "N": 1})
    cs = ["/Separation", "/Spot", "/DeviceRGB", tint]
    image, _ = fetch(one_image(bytes([0, 255]), 2, 1, builder=b, color_space=cs))
    assert pixels(image, "RGB") == [(255, 255, 255), (255, 0, 0)]


def test_separation_without_a_usable_function_is_inverted_grey_with_a_note() -> None:
    b = PdfBuilder()
    fn = b.stream(b"{ pop 0 0 0 }", FunctionType=4, Domain=[0, 1], Range=[0, 1, 0, 1, 0, 1])
    cs = ["/Separation", "/Spot", "/DeviceRGB", fn]
    image, response = fetch(one_image(bytes([0, 255]), 2, 1, builder=b, color_space=cs))
    assert pixels(image, "L") == [255, 0]
    assert any("approximated" in note for note in response["notes"])


def test_short_data_is_padded_and_said() -> None:
    image, response = fetch(one_image(GRADIENT[:6], 4, 3))
    assert image.size == (4, 3)
    assert any("short" in note for note in response["notes"])


def test_inline_indexed_image_uses_its_palette() -> None:
    # The palette string of "/CS [/I /RGB 1 <...>]" reaches get_image: black, then red.
    b = PdfBuilder()
    lookup = "<000000ff0000>"
    b.add_page(
        b"q 10 0 0 10 0 0 cm BI /W 2 /H 1 /BPC 8 /CS [/I /RGB 1 "
        + lookup.encode()
        + b"] ID \x00\x01\nEI Q"
    )
    image, _response = fetch(b.build(), "p1-i1")
    assert image.size == (2, 1)
    rgb = image.convert("RGB")
    assert rgb.getpixel((0, 0)) == (0, 0, 0)
    assert rgb.getpixel((1, 0)) == (255, 0, 0)


def test_inline_images() -> None:
    b = PdfBuilder()
    plain = inline_image(4, 3, GRADIENT)
    packed = inline_image(4, 3, zlib.compress(GRADIENT), filter="/Fl")
    rgb = inline_image(1, 1, b"\x01\x02\x03", color_space="/RGB")
    b.add_page(
        b"q 10 0 0 10 0 0 cm " + plain + b" Q q 10 0 0 10 20 0 cm " + packed + b" Q "
        b"q 10 0 0 10 40 0 cm " + rgb + b" Q"
    )
    pdf = b.build()
    listing = list_images(pdf)["images"]
    assert [i["id"] for i in listing] == ["p1-i1", "p1-i2", "p1-i3"]
    assert all(i["inline"] for i in listing)
    for image_id in ("p1-i1", "p1-i2"):
        image, _ = fetch(pdf, image_id)
        assert pixels(image, "L") == list(GRADIENT)
    image, _ = fetch(pdf, "p1-i3")
    assert pixels(image, "RGB") == [(1, 2, 3)]


# --- formats returned as stored -------------------------------------------------------------------


def pillow_bytes(image: Any, fmt: str, **kwargs: Any) -> bytes:
    out = io.BytesIO()
    image.save(out, format=fmt, **kwargs)
    return out.getvalue()


def test_jpeg_is_returned_as_stored() -> None:
    jpeg = pillow_bytes(Image.new("RGB", (30, 20), (200, 10, 10)), "JPEG")
    pdf = one_image(jpeg, 30, 20, color_space="/DeviceRGB", filter="/DCTDecode")
    content, info = image_file(pdf, "p1-x3")
    assert content == jpeg
    assert (info["media_type"], info["extension"]) == ("image/jpeg", "jpg")
    assert list_images(pdf)["images"][0]["format"] == "jpeg"


def test_jpeg_behind_flate_is_unwrapped() -> None:
    jpeg = pillow_bytes(Image.new("L", (8, 8), 99), "JPEG")
    pdf = one_image(jpeg, 8, 8, filter="/DCTDecode", flate=True)
    content, _ = image_file(pdf, "p1-x3")
    assert content == jpeg


def test_jpeg_2000_is_returned_as_stored() -> None:
    jp2 = pillow_bytes(Image.new("RGB", (17, 9), (1, 2, 3)), "JPEG2000", irreversible=False)
    pdf = one_image(jp2, 17, 9, color_space="/DeviceRGB", filter="/JPXDecode")
    _, response = fetch(pdf)
    assert response["media_type"] == "image/jp2"
    assert base64.b64decode(response["data"]) == jp2


def ccitt_pdf() -> tuple[bytes, Any]:
    """A page with a Group 4 fax image made by Pillow (libtiff marks it black-is-zero)."""
    bitmap = Image.new("1", (40, 16), 1)
    for x in range(40):
        bitmap.putpixel((x, 8), 0)
    tiff = Image.open(io.BytesIO(pillow_bytes(bitmap, "TIFF", compression="group4")))
    offset, count = tiff.tag_v2[273], tiff.tag_v2[279]
    offset = offset[0] if isinstance(offset, tuple) else offset
    count = count[0] if isinstance(count, tuple) else count
    strip = pillow_bytes(bitmap, "TIFF", compression="group4")[offset : offset + count]
    parms = {"K": -1, "Columns": 40, "Rows": 16, "BlackIs1": tiff.tag_v2[262] == 1}
    pdf = one_image(strip, 40, 16, bpc=1, filter="/CCITTFaxDecode", extra={"DecodeParms": parms})
    return pdf, bitmap


def test_ccitt_as_png_with_pillow() -> None:
    pdf, bitmap = ccitt_pdf()
    image, response = fetch(pdf)
    assert response["media_type"] == "image/png"
    assert pixels(image, "L") == pixels(bitmap, "L")


def test_ccitt_as_tiff_without_pillow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pillow, "pillow", lambda: None)
    pdf, bitmap = ccitt_pdf()
    image, response = fetch(pdf)
    assert (response["media_type"], response["extension"]) == ("image/tiff", "tif")
    assert pixels(image, "L") == pixels(bitmap, "L")


def jbig2_page_segment(width: int, height: int) -> bytes:
    """A page-information segment (T.88 7.4.8), as an embedded JBIG2 stream starts."""
    header = struct.pack(">IBBBI", 1, 48, 0, 1, 19)
    return header + struct.pack(">IIIIBH", width, height, 0, 0, 0, 0)


def test_jbig2_is_wrapped_with_its_globals_and_named() -> None:
    b = PdfBuilder()
    global_segment = struct.pack(">IBBBI", 0, 0, 0, 0, 2) + b"\x00\x00"
    globals_ref = b.stream(global_segment)
    data = jbig2_page_segment(64, 32)
    pdf = one_image(
        data,
        64,
        32,
        builder=b,
        bpc=1,
        filter="/JBIG2Decode",
        extra={"DecodeParms": {"JBIG2Globals": globals_ref}},
    )
    content, info = image_file(pdf, "p1-x4")
    assert info["format"] == "jbig2"
    assert info["media_type"] == "image/x-jbig2"
    assert content.startswith(jbig2.MAGIC)
    assert content.endswith(global_segment + data)
    assert jbig2.page_size(content[13:]) == (64, 32)


# --- ids, listing, decorative images --------------------------------------------------------------


def test_ids_name_objects_and_repeat_placements() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    ref = b.image_xobject(4, 3, GRADIENT)
    b.add_page(
        b"BT /F1 12 Tf 72 700 Td (Text) Tj ET "
        b"q 10 0 0 10 0 0 cm /Im1 Do Q q 10 0 0 10 30 0 cm /Im1 Do Q",
        {"XObject": {"Im1": ref}, "Font": {"F1": font}},
    )
    pdf = b.build()
    ids = [i["id"] for i in list_images(pdf)["images"]]
    assert ids == [f"p1-x{ref.num}", f"p1-x{ref.num}-2"]
    # Stable across contexts (a fresh process sees the same ids).
    assert [i["id"] for i in list_images(pdf, context=Context())["images"]] == ids
    for image_id in ids:
        image, _ = fetch(pdf, image_id)
        assert image.size == (4, 3)


def test_listing_fields() -> None:
    pdf = one_image(GRADIENT, 4, 3, flate=True)
    item = list_images(pdf)["images"][0]
    assert item["page"] == 1
    assert item["bbox"] == {"x0": 50.0, "y0": 642.0, "x1": 150.0, "y1": 742.0}
    assert (item["width"], item["height"], item["bits_per_component"]) == (4, 3, 8)
    assert (item["color_space"], item["format"]) == ("DeviceGray", "flate")
    assert item["bytes"] == len(zlib.compress(GRADIENT))
    assert "decorative" not in item


def pages_pdf(
    pages: int, draw: dict[int, list[bytes]], *, text: bool = True, shared: bool = True
) -> bytes:
    """``pages`` pages with text; ``draw[page]`` lists the content placing images."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    logo = b.image_xobject(4, 3, GRADIENT)
    for number in range(1, pages + 1):
        image = logo if shared else b.image_xobject(4, 3, GRADIENT)
        body = b"BT /F1 12 Tf 72 700 Td (Page text here) Tj ET " if text else b""
        body += b" ".join(draw.get(number, []))
        b.add_page(body, {"XObject": {"Logo": image}, "Font": {"F1": font}})
    return b.build()


LOGO = b"q 40 0 0 30 20 750 cm /Logo Do Q"


def test_repeated_logo_is_decorative() -> None:
    pdf = pages_pdf(5, {n: [LOGO] for n in (1, 3, 5)})
    response = list_images(pdf)
    assert response["decorative_images"] == 3
    for item in response["images"]:
        assert item["decorative"] is True
        assert item["pages_with_image"] == 3
        assert "3 pages" in item["decorative_reason"]


def test_same_bytes_in_separate_objects_count_as_repeated() -> None:
    pdf = pages_pdf(4, {n: [LOGO] for n in (1, 2, 3)}, shared=False)
    items = list_images(pdf)["images"]
    assert len({i["id"].split("-")[1] for i in items}) == 3  # three objects
    assert all(i["decorative"] for i in items)


def test_image_on_two_of_five_pages_is_not_decorative() -> None:
    items = list_images(pages_pdf(5, {1: [LOGO], 4: [LOGO]}))["images"]
    assert [i.get("decorative") for i in items] == [None, None]
    assert all(i["pages_with_image"] == 2 for i in items)


def test_on_every_page_of_a_two_page_document_is_decorative() -> None:
    items = list_images(pages_pdf(2, {1: [LOGO], 2: [LOGO]}))["images"]
    assert all(i["decorative"] for i in items)


def test_tiny_images_are_decorative() -> None:
    items = list_images(pages_pdf(1, {1: [b"q 300 0 0 1 20 400 cm /Logo Do Q"]}))["images"]
    assert items[0]["decorative_reason"] == "tiny on the page"


def test_repeated_full_page_scan_is_not_decorative() -> None:
    scan = b"q 612 0 0 792 0 0 cm /Logo Do Q"
    items = list_images(pages_pdf(4, {n: [scan] for n in range(1, 5)}, text=False))["images"]
    assert len(items) == 4
    assert not any(i.get("decorative") for i in items)


# --- budget, cursors, sections --------------------------------------------------------------------


def many_images_pdf(pages: int = 30, per_page: int = 4) -> bytes:
    b = PdfBuilder()
    for _ in range(pages):
        refs = {f"Im{i}": b.image_xobject(4, 3, bytes([i]) * 12) for i in range(per_page)}
        body = b" ".join(b"q 20 0 0 20 %d 100 cm /Im%d Do Q" % (30 * i, i) for i in range(per_page))
        b.add_page(body, {"XObject": refs})
    return b.build()


def test_budget_and_cursor_walk_the_whole_list() -> None:
    pdf = many_images_pdf()
    context = Context()
    full = list_images(pdf, context=context, max_chars=5_000_000)
    assert full["total_images"] == 120
    assert full["next_cursor"] is None
    seen: list[str] = []
    token = None
    calls = 0
    while True:
        response = list_images(pdf, context=context, max_chars=1000, cursor=token)
        calls += 1
        assert size(response) <= 1000
        assert response["total_images"] == 120
        seen += [i["id"] for i in response["images"]]
        token = response["next_cursor"]
        if token is None:
            assert "omitted" not in response
            break
        assert response["omitted"]["images"] == 120 - len(seen)
    assert calls > 5
    assert seen == [i["id"] for i in full["images"]]


def test_cursor_resumes_in_another_context_and_checks_its_arguments() -> None:
    pdf = many_images_pdf(pages=6)
    first = list_images(pdf, max_chars=1000, pages="2-6", context=Context())
    token = first["next_cursor"]
    assert token
    again = list_images(pdf, max_chars=1000, pages="2-6", cursor=token, context=Context())
    assert again["images"][0]["id"] not in {i["id"] for i in first["images"]}
    with pytest.raises(PdfthinError) as err:
        list_images(pdf, max_chars=1000, pages="1-6", cursor=token)
    assert err.value.code == "invalid_cursor"
    read_token = cur.encode(cur.Cursor("read", cur.fingerprint_prefix("0" * 64), False, "0" * 12))
    with pytest.raises(PdfthinError) as err:
        list_images(pdf, cursor=read_token)
    assert err.value.code == "invalid_cursor"


def test_pages_selection() -> None:
    pdf = many_images_pdf(pages=5, per_page=2)
    response = list_images(pdf, pages="2,4")
    assert {i["page"] for i in response["images"]} == {2, 4}
    assert response["total_images"] == 4
    with pytest.raises(PdfthinError) as err:
        list_images(pdf, pages="9")
    assert err.value.code == "invalid_pages"


def test_section_selection() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(4, 3, GRADIENT)
    for n in range(4):
        b.add_page(
            b"BT /F1 12 Tf 72 700 Td (Chapter page %d) Tj ET q 20 0 0 20 0 0 cm /Im1 Do Q" % n,
            {"XObject": {"Im1": image}, "Font": {"F1": font}},
        )
    b.set_outline([Outline("One", 0), Outline("Two", 2)])
    pdf = b.build()
    sections = get_toc(pdf)["sections"]
    second = next(s for s in sections if s["title"] == "Two")
    response = list_images(pdf, section=second["id"])
    assert {i["page"] for i in response["images"]} == {3, 4}
    assert response["section"] == second["id"]
    with pytest.raises(PdfthinError) as err:
        list_images(pdf, section=second["id"], pages="1")
    assert err.value.code == "invalid_argument"
    with pytest.raises(PdfthinError) as err:
        list_images(pdf, section="s-9")
    assert err.value.code == "not_found"


def test_a_section_lists_the_images_get_toc_counts_and_each_image_names_its_section() -> None:
    # Two sections share page 2: an image above "Two"'s heading is One's, one below is Two's.
    # get_toc's counts and list_images --section agree, and each image names its section.
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(4, 3, GRADIENT)
    resources = {"XObject": {"Im1": image}, "Font": {"F1": font}}
    body = b"".join(
        b"BT /F1 10 Tf 72 %d Td (Body words of the section run along here.) Tj ET " % y
        for y in (640, 620, 600)
    )
    b.add_page(b"BT /F1 20 Tf 72 720 Td (One) Tj ET " + body, resources)
    b.add_page(
        b"BT /F1 10 Tf 72 740 Td (The last words of section One.) Tj ET "
        b"q 40 0 0 40 72 640 cm /Im1 Do Q "  # above Two's heading, after One's text
        b"BT /F1 20 Tf 72 500 Td (Two) Tj ET "
        + body.replace(b"72 6", b"72 4")
        + b"q 40 0 0 40 72 100 cm /Im1 Do Q q 40 0 0 40 200 100 cm /Im1 Do Q",  # below it
        resources,
    )
    pdf = b.build()
    ctx = Context()
    toc = get_toc(pdf, context=ctx)
    counts = {s["title"]: s["images"] for s in toc["sections"]}
    assert counts == {"One": 1, "Two": 2}
    for s in toc["sections"]:
        listed = list_images(pdf, section=s["id"], context=ctx)
        assert listed["total_images"] == len(listed["images"]) == s["images"]
        assert {i["section"]["id"] for i in listed["images"]} == {s["id"]}
        assert all(i["section"]["title"] == s["title"] for i in listed["images"])
    whole = list_images(pdf, context=ctx)
    assert [i["section"]["title"] for i in whole["images"]] == ["One", "Two", "Two"]
    # Paged one image at a time, a section's listing still gives each of its images once.
    two = next(s["id"] for s in toc["sections"] if s["title"] == "Two")
    seen, cursor = [], None
    while True:
        part = list_images(pdf, section=two, max_chars=1000, cursor=cursor, context=ctx)
        seen += [i["id"] for i in part["images"]]
        cursor = part["next_cursor"]
        if cursor is None:
            break
    assert len(seen) == len(set(seen)) == 2


def test_a_figure_above_the_heading_that_begins_a_page_is_that_sections() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(4, 3, GRADIENT)
    resources = {"XObject": {"Im1": image}, "Font": {"F1": font}}
    body = b"BT /F1 10 Tf 72 400 Td (Body words of the section run along here.) Tj ET"
    b.add_page(b"BT /F1 20 Tf 72 720 Td (One) Tj ET " + body, resources)
    b.add_page(
        b"q 40 0 0 40 72 700 cm /Im1 Do Q BT /F1 20 Tf 72 500 Td (Two) Tj ET " + body, resources
    )
    pdf = b.build()
    toc = get_toc(pdf, context=Context())
    assert {s["title"]: s["images"] for s in toc["sections"]} == {"One": 0, "Two": 1}
    listed = list_images(pdf, context=Context())["images"]
    assert [i["section"]["title"] for i in listed] == ["Two"]


def test_a_resource_name_is_an_alias_of_the_id() -> None:
    b = PdfBuilder()
    logo = b.image_xobject(4, 3, GRADIENT)
    photo = b.image_xobject(4, 3, bytes(range(12)))
    # /Logo is the same picture on both pages; /Fig is a different picture on each.
    for n in range(2):
        figure = b.image_xobject(4, 3, bytes([n]) * 12)
        b.add_page(
            b"q 20 0 0 20 30 700 cm /Logo Do Q q 200 0 0 150 72 300 cm /Fig Do Q"
            + (b" q 50 0 0 50 300 100 cm /Photo Do Q" if n == 1 else b""),
            {"XObject": {"Logo": logo, "Fig": figure, "Photo": photo}},
        )
    pdf = b.build()
    ctx = Context()
    listed = list_images(pdf, context=ctx)["images"]
    assert [i["name"] for i in listed] == ["/Logo", "/Fig", "/Logo", "/Fig", "/Photo"]
    by_id = {i["id"]: i for i in listed}
    photo_id = next(i["id"] for i in listed if i["name"] == "/Photo")
    # Unique in the document, and on its page.
    for alias in ("/Photo", "p2/Photo", " /Photo "):
        got = get_image(pdf, alias, context=ctx)
        assert got["id"] == photo_id and got["page"] == 2
        assert got["data"] == get_image(pdf, photo_id, context=ctx)["data"]
    # The same picture placed twice: the first placement.
    assert get_image(pdf, "/Logo", context=ctx)["id"] == listed[0]["id"]
    # Different pictures under one name: the page tells them apart; alone it is ambiguous.
    assert by_id[get_image(pdf, "p2/Fig", context=ctx)["id"]]["page"] == 2
    with pytest.raises(PdfthinError) as err:
        get_image(pdf, "/Fig", context=ctx)
    assert err.value.code == "invalid_argument"
    assert listed[1]["id"] in err.value.message and listed[3]["id"] in err.value.message
    for missing in ("/Nothing", "p1/Photo", "p9/Logo"):
        with pytest.raises(PdfthinError) as err:
            get_image(pdf, missing, context=ctx)
        assert err.value.code == "not_found", missing
    for bad in ("Im1", "/a b", "p1/Im1/x", "/" + "x" * 200):
        with pytest.raises(PdfthinError) as err:
            get_image(pdf, bad, context=ctx)
        assert err.value.code == "invalid_argument", bad


def test_random_chooses_a_figure_reproducibly_within_a_section_leaving_out_ids() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    logo = b.image_xobject(4, 3, GRADIENT)
    for n in range(4):
        figures = {f"F{i}": b.image_xobject(4, 3, bytes([n * 4 + i]) * 12) for i in range(3)}
        body = b" ".join(b"q 90 0 0 90 %d 300 cm /F%d Do Q" % (72 + 100 * i, i) for i in range(3))
        b.add_page(
            b"BT /F1 20 Tf 72 720 Td (Chapter %d) Tj ET q 20 0 0 20 30 760 cm /Logo Do Q " % n
            + body,
            {"XObject": {"Logo": logo, **figures}, "Font": {"F1": font}},
        )
    b.set_outline([Outline(f"Chapter {n}", n) for n in range(4)])
    pdf = b.build()
    ctx = Context()
    listed = list_images(pdf, context=ctx)["images"]
    figures = {i["id"] for i in listed if not i.get("decorative")}
    assert len(figures) == 12  # the logo on every page is decorative
    first = get_image(pdf, "random", seed=7, context=ctx)
    assert first["id"] in figures
    assert first["selection"] == {"random": True, "seed": 7, "candidates": 12}
    assert get_image(pdf, "random", seed=7, context=Context())["id"] == first["id"]
    # Without a seed one is drawn, and given back: it chooses the same image again.
    drawn = get_image(pdf, "random", context=ctx)
    again = get_image(pdf, "random", seed=drawn["selection"]["seed"], context=ctx)
    assert again["id"] == drawn["id"]
    # Many seeds reach many figures, never a decorative one.
    chosen = {get_image(pdf, "random", seed=s, context=ctx)["id"] for s in range(60)}
    assert chosen <= figures and len(chosen) > 6
    # Within a section, leaving ids out.
    toc = get_toc(pdf, context=ctx)["sections"]
    third = toc[2]["id"]
    in_third = {i["id"] for i in listed if i["page"] == 3 and not i.get("decorative")}
    left_out = sorted(in_third)[:2]
    for s in range(20):
        got = get_image(
            pdf, "random", section=third, exclude=",".join(left_out), seed=s, context=ctx
        )
        assert got["id"] in in_third - set(left_out)
        assert got["selection"]["candidates"] == 1
    with pytest.raises(PdfthinError) as err:
        get_image(pdf, "random", section=third, exclude=",".join(sorted(in_third)), context=ctx)
    assert err.value.code == "not_found"
    for bad in ({"seed": 1}, {"section": third}, {"exclude": "p1-x4"}):
        with pytest.raises(PdfthinError) as err:
            get_image(pdf, listed[0]["id"], context=ctx, **bad)  # type: ignore[arg-type]
        assert err.value.code == "invalid_argument"
    with pytest.raises(PdfthinError) as err:
        get_image(pdf, "random", exclude="p1-x4;rm", context=ctx)
    assert err.value.code == "invalid_argument"


def test_the_cli_chooses_at_random_and_prints_base64_without_a_file(tmp_path: Any) -> None:
    path = tmp_path / "many.pdf"
    path.write_bytes(many_images_pdf(pages=1, per_page=3))

    def run(*args: str) -> subprocess.CompletedProcess[bytes]:
        return pdfthin_cli_bytes("image", str(path), *args)

    direct = get_image(path.read_bytes(), "p1-x4", context=Context())
    shown = run("p1-x4")
    assert shown.returncode == 0
    assert shown.stdout.decode().strip() == direct["data"]
    picked = run("-r", "--seed", "3", "--format", "json")
    answer = json.loads(picked.stdout)
    assert answer["selection"]["seed"] == 3 and answer["data"]
    assert answer["id"] == get_image(path.read_bytes(), "random", seed=3, context=Context())["id"]
    said = run("--random", "--seed", "3", "-o", str(tmp_path / "x.png"))
    assert said.returncode == 0 and f"chose {answer['id']}" in said.stderr.decode()
    for bad in ((), ("p1-x4", "--random")):
        r = run(*bad)
        assert r.returncode == 2 and b"ID or --random" in r.stderr


# --- errors ---------------------------------------------------------------------------------------


def error_code(call: Any) -> str:
    with pytest.raises(PdfthinError) as err:
        call()
    return err.value.code


def test_error_codes() -> None:
    pdf = one_image(GRADIENT, 4, 3, flate=True)
    assert error_code(lambda: get_image(pdf, "p1-x99")) == "not_found"
    assert error_code(lambda: get_image(pdf, "p7-x3")) == "not_found"
    assert error_code(lambda: get_image(pdf, "image 1")) == "invalid_argument"
    assert error_code(lambda: get_image(pdf, 3)) == "invalid_argument"  # type: ignore[arg-type]
    assert error_code(lambda: get_image(pdf, "p1-x3", max_bytes=0)) == "invalid_argument"
    assert error_code(lambda: get_image(pdf, "p1-x3", max_bytes="5")) == "invalid_argument"  # type: ignore[arg-type]
    assert error_code(lambda: list_images(pdf, max_chars=10)) == "invalid_argument"


def test_too_large_counts_base64() -> None:
    noise = bytes((i * 7919) % 251 for i in range(64 * 64))
    pdf = one_image(noise, 64, 64)
    content, _ = image_file(pdf, "p1-x3")
    encoded = len(base64.b64encode(content))
    assert get_image(pdf, "p1-x3", max_bytes=encoded)["bytes"] == len(content)
    with pytest.raises(PdfthinError) as err:
        get_image(pdf, "p1-x3", max_bytes=encoded - 1)
    assert err.value.code == "too_large"
    assert err.value.details["base64_bytes"] == encoded
    assert len(content) < encoded  # the raw file alone would have fitted


def test_broken_and_unsupported_images_are_clean_errors() -> None:
    broken = one_image(b"this is not zlib data at all", 4, 3, filter="/FlateDecode")
    code = error_code(lambda: get_image(broken, "p1-x3"))
    assert code in ("malformed", "unsupported")
    odd = one_image(b"abc", 4, 3, filter="/MadeUpDecode")
    assert error_code(lambda: get_image(odd, "p1-x3")) == "unsupported"
    assert list_images(odd)["images"][0]["format"] == "MadeUpDecode"
    zero = one_image(b"", 0, 3)
    assert error_code(lambda: get_image(zero, list_images(zero)["images"][0]["id"])) == "malformed"
    deep = one_image(GRADIENT, 4, 3, bpc=7)
    assert error_code(lambda: get_image(deep, "p1-x3")) == "malformed"


# --- CLI ------------------------------------------------------------------------------------------


def test_cli_images_and_image(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    pdf_path = tmp_path / "doc.pdf"
    pdf_path.write_bytes(pages_pdf(3, {n: [LOGO] for n in (1, 2, 3)}))
    assert cli.main(["images", str(pdf_path)]) == 0
    out = capsys.readouterr().out
    assert out.count("decorative") == 3
    first_id = out.split()[0]
    assert cli.main(["images", str(pdf_path), "--pages", "2", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [i["page"] for i in data["images"]] == [2]
    target = tmp_path / "out.png"
    assert cli.main(["image", str(pdf_path), first_id, "--output", str(target)]) == 0
    assert capsys.readouterr().out.strip() == "image/png"
    assert Image.open(target).size == (4, 3)
    assert cli.main(["image", str(pdf_path), "p1-x999", "-o", str(target)]) == 1
    assert "not_found" in capsys.readouterr().err
    assert cli.main(["image", str(pdf_path), first_id, "-o", str(target), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["output"] == str(target)


# --- corpus ---------------------------------------------------------------------------------------

IMAGE_FILES = [f for f in corpus_files() if any(t.startswith("img-") for t in f.tags)]
#: JPEG 2000 data Pillow's OpenJPEG reads the header of but cannot decode (returned as stored).
UNDECODABLE_BY_PILLOW = {("tabula-icdar2013/competition-dataset-eu/eu-012.pdf", "p1-x15")}


@pytest.mark.corpus
@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")
@pytest.mark.parametrize("entry", corpus_params(IMAGE_FILES))
def test_corpus_images_open_with_the_right_size(entry: Any) -> None:
    require_corpus()
    context = Context()
    listing = list_images(entry.path, password=entry.password, context=context, max_chars=5_000_000)
    assert listing["next_cursor"] is None
    assert listing["images"], "a file tagged with an image format lists no image"
    done: set[str] = set()
    for item in listing["images"]:
        picture = item["id"].split("-")[1]
        if picture in done:
            continue
        done.add(picture)
        content, info = image_file(
            entry.path, item["id"], password=entry.password, context=context, max_bytes=256 << 20
        )
        assert (info["width"], info["height"]) == (item["width"], item["height"])
        if info["format"] == "jbig2":
            assert content.startswith(jbig2.MAGIC)
            size_found = jbig2.page_size(content[13:])
            assert size_found is not None and size_found[0] == info["width"]
            continue
        with Image.open(io.BytesIO(content)) as image:
            assert image.size == (info["width"], info["height"]), item["id"]
            if (entry.relpath, item["id"]) in UNDECODABLE_BY_PILLOW:
                continue
            image.load()


#: Fax images of text pages: mostly white paper once decoded (``BlackIs1`` false and true).
SCANNED_FAX = [
    ("pdfplumber/federal-register-2020-17221.pdf", 7),
    ("pdfminer/encryption/encrypted_doc_no_id.pdf", 2),
    ("pypdf/indirect-rotation.pdf", 1),
]


@pytest.mark.corpus
@pytest.mark.parametrize(("relpath", "page"), SCANNED_FAX)
def test_corpus_fax_pages_come_out_as_dark_text_on_white(relpath: str, page: int) -> None:
    require_corpus()
    entry = next(f for f in IMAGE_FILES if f.relpath == relpath)
    context = Context()
    items = list_images(entry.path, pages=str(page), password=entry.password, context=context)
    fax = next(i for i in items["images"] if i["format"] == "ccitt")
    content, _ = image_file(entry.path, fax["id"], password=entry.password, context=context)
    with Image.open(io.BytesIO(content)) as image:
        histogram = image.convert("L").histogram()
    assert sum(histogram[128:]) / sum(histogram) > 0.8


def test_the_codecs_do_not_import_pypdf() -> None:
    code = (
        "import sys, pdfthin.images, pdfthin.images.convert, pdfthin.images.pillow; "
        "print('pypdf' in sys.modules, 'PIL' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
