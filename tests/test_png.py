"""The pure-Python PNG writer and TIFF wrapper, checked by an independent decoder (Pillow)."""

from __future__ import annotations

import io
import random
import struct
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdfthin.images import png
from pdfthin.images.tiff import CcittParams, ccitt_tiff, compression

Image = pytest.importorskip("PIL.Image")


def decode(data: bytes) -> object:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def pack(values: list[int], bits: int) -> bytes:
    """One row of ``bits``-bit samples, most significant first, padded to a byte."""
    out = bytearray()
    acc = 0
    used = 0
    for v in values:
        acc = (acc << bits) | v
        used += bits
        while used >= 8:
            used -= 8
            out.append((acc >> used) & 0xFF)
    if used:
        out.append((acc << (8 - used)) & 0xFF)
    return bytes(out)


@pytest.mark.parametrize("bits", [1, 2, 4, 8])
def test_grey_low_depths_round_trip(bits: int) -> None:
    top = (1 << bits) - 1
    rows = [[(x + y) % (top + 1) for x in range(7)] for y in range(3)]
    data = b"".join(pack(r, bits) for r in rows)
    image = decode(png.encode_png(7, 3, bits, png.GRAY, data))
    assert image.size == (7, 3)
    scale = 255 // top
    for y, row in enumerate(rows):
        for x, v in enumerate(row):
            assert image.getpixel((x, y)) in (v, v * scale)  # mode "1"/"L" or "P"-like


def test_grey_16_bit_keeps_precision() -> None:
    values = [0, 1, 256, 65535]
    data = b"".join(struct.pack(">H", v) for v in values)
    image = decode(png.encode_png(4, 1, 16, png.GRAY, data))
    assert image.mode.startswith("I")
    assert [image.getpixel((x, 0)) for x in range(4)] == values


def test_rgb_and_rgba() -> None:
    rgb = bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30])
    image = decode(png.encode_png(2, 2, 8, png.RGB, rgb))
    assert image.mode == "RGB"
    assert image.getpixel((1, 1)) == (10, 20, 30)
    rgba = bytes([1, 2, 3, 4, 5, 6, 7, 8])
    image = decode(png.encode_png(2, 1, 8, png.RGBA, rgba))
    assert image.mode == "RGBA"
    assert image.getpixel((1, 0)) == (5, 6, 7, 8)


def test_grey_alpha_and_16_bit_rgb() -> None:
    image = decode(png.encode_png(2, 1, 8, png.GRAY_ALPHA, bytes([10, 20, 30, 40])))
    assert image.mode == "LA"
    assert image.getpixel((1, 0)) == (30, 40)
    data = struct.pack(">HHH", 65535, 0, 32768)
    image = decode(png.encode_png(1, 1, 16, png.RGB, data))
    assert image.size == (1, 1)


@pytest.mark.parametrize("bits", [1, 2, 4, 8])
def test_palette(bits: int) -> None:
    entries = 1 << bits
    palette = b"".join(bytes((i * 7 % 256, i * 13 % 256, i * 29 % 256)) for i in range(entries))
    values = [i % entries for i in range(9)]
    image = decode(png.encode_png(9, 1, bits, png.PALETTE, pack(values, bits), palette=palette))
    assert image.mode == "P"
    rgb = image.convert("RGB")
    for x, v in enumerate(values):
        assert rgb.getpixel((x, 0)) == tuple(palette[3 * v : 3 * v + 3])


def test_chunks_are_well_formed() -> None:
    data = png.encode_png(3, 2, 8, png.GRAY, bytes(range(6)))
    assert data.startswith(png.SIGNATURE)
    pos = len(png.SIGNATURE)
    kinds = []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert crc == zlib.crc32(kind + body)
        kinds.append(kind)
        pos += 12 + length
    assert kinds == [b"IHDR", b"IDAT", b"IEND"]


def test_large_image_spans_several_idat_chunks() -> None:
    width, height = 1000, 800
    noise = random.Random(1).randbytes(width * 3 * height)
    data = png.encode_png(width, height, 8, png.RGB, noise, level=1)
    assert data.count(b"IDAT") > 1
    image = decode(data)
    assert image.size == (width, height)
    assert image.getpixel((width - 1, height - 1)) == tuple(noise[-3:])


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((1, 1, 4, png.RGB, b"\x00\x00"), {}),  # RGB needs 8 or 16 bits
        ((1, 1, 16, png.PALETTE, b"\x00\x00"), {"palette": b"\x00\x00\x00"}),
        ((1, 1, 8, png.PALETTE, b"\x00"), {}),  # no palette
        ((0, 1, 8, png.GRAY, b""), {}),
        ((2, 2, 8, png.GRAY, b"\x00\x00\x00"), {}),  # too little data
        ((1, 1, 8, 5, b"\x00"), {}),
    ],
)
def test_impossible_combinations_are_refused(args: tuple, kwargs: dict) -> None:
    with pytest.raises(ValueError):
        png.encode_png(*args, **kwargs)


@settings(max_examples=40, deadline=None)
@given(
    width=st.integers(1, 40),
    height=st.integers(1, 12),
    kind=st.sampled_from(
        [(png.GRAY, 1), (png.GRAY, 2), (png.GRAY, 4), (png.GRAY, 8), (png.RGB, 8)]
    ),
    seed=st.integers(0, 1 << 30),
)
def test_any_size_decodes(width: int, height: int, kind: tuple[int, int], seed: int) -> None:
    color_type, bits = kind
    channels = 3 if color_type == png.RGB else 1
    stride = png.row_bytes(width, channels, bits)
    data = bytes((seed * (i + 1) * 2654435761 >> 7) & 0xFF for i in range(stride * height))
    image = decode(png.encode_png(width, height, bits, color_type, data))
    assert image.size == (width, height)


# --- TIFF ------------------------------------------------------------------------------------


def g4_strip(image: object) -> tuple[bytes, bool, object]:
    """Group 4 bytes of a 1-bit image made by Pillow (libtiff), whether Pillow marked them
    black-is-zero (PDF's ``BlackIs1``), and Pillow's own decoding of its file."""
    out = io.BytesIO()
    image.save(out, format="TIFF", compression="group4")  # type: ignore[attr-defined]
    tiff = Image.open(io.BytesIO(out.getvalue()))
    tags = tiff.tag_v2
    offset = tags[273][0] if isinstance(tags[273], tuple) else tags[273]
    count = tags[279][0] if isinstance(tags[279], tuple) else tags[279]
    tiff.load()
    return out.getvalue()[offset : offset + count], tags[262] == 1, tiff


def sample_bitmap() -> object:
    image = Image.new("1", (37, 21), 1)
    for x in range(37):
        image.putpixel((x, x % 21), 0)
    for y in range(21):
        image.putpixel((3, y), 0)
    return image


def test_ccitt_g4_wrapped_as_tiff_decodes_to_the_same_pixels() -> None:
    original = sample_bitmap()
    strip, black_is_1, reference = g4_strip(original)
    params = CcittParams(k=-1, columns=37, rows=21, black_is_1=black_is_1)
    decoded = decode(ccitt_tiff(strip, params, height=21)).convert("L")  # type: ignore[attr-defined]
    assert decoded.size == (37, 21)
    assert decoded.tobytes() == reference.convert("L").tobytes()  # type: ignore[attr-defined]
    assert decoded.tobytes() == original.convert("L").tobytes()  # type: ignore[attr-defined]


def test_black_is_1_and_decode_flip_the_photometric() -> None:
    strip, black_is_1, reference = g4_strip(sample_bitmap())
    params = CcittParams(k=-1, columns=37, rows=21, black_is_1=not black_is_1)
    flipped = decode(ccitt_tiff(strip, params, height=21)).convert("L")  # type: ignore[attr-defined]
    assert flipped.getpixel((3, 5)) == 255  # the black line shows white
    back = decode(ccitt_tiff(strip, params, height=21, invert=True)).convert("L")  # type: ignore[attr-defined]
    assert back.tobytes() == reference.convert("L").tobytes()  # type: ignore[attr-defined]


def test_compression_codes() -> None:
    assert compression(CcittParams(k=-1)) == (4, 0)
    assert compression(CcittParams(k=0)) == (3, 0)
    assert compression(CcittParams(k=4)) == (3, 1)
    assert compression(CcittParams(k=0, encoded_byte_align=True)) == (2, 0)
    assert compression(CcittParams(k=2, encoded_byte_align=True)) == (3, 5)


def test_tiff_rows_fall_back_to_height_and_bad_sizes_raise() -> None:
    strip, black_is_1, _ = g4_strip(sample_bitmap())
    params = CcittParams(k=-1, columns=37, rows=0, black_is_1=black_is_1)
    assert decode(ccitt_tiff(strip, params, height=21)).size == (37, 21)  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        ccitt_tiff(strip, CcittParams(k=-1, columns=0), height=5)
