"""PDF image samples to PNG, in pure Python.

The samples arrive decoded from their filters (Flate, LZW, RunLength, ASCII) but otherwise as
stored: packed rows of ``bits_per_component``-bit samples in the image's colour space, before
the ``/Decode`` array. This module shows them as a PDF viewer would: Decode arrays applied,
palettes looked up, CMYK and Lab converted to RGB, soft masks, stencil masks and colour-key
masks turned into an alpha channel.

Speed comes from staying in C: common images (grey or RGB with the default Decode, indexed
with a palette, 1 to 16 bits) are written without touching a pixel, per-component mappings
are ``bytes.translate`` tables, channels are split and merged with extended slices, and the
one two-input operation (CMYK to RGB) adds whole channels as big integers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pdfthin.errors import PdfthinError
from pdfthin.images import png
from pdfthin.images.types import ColorSpace, MaskSamples, Raster

#: Working buffers (8 bits per channel, alpha included) larger than this are refused.
DEFAULT_MAX_WORK_BYTES = 256 * 1024 * 1024

_ALLOWED_BPC = (1, 2, 4, 8, 16)
_INVERT = bytes(255 - v for v in range(256))
_ZERO_TO_FF = bytes([255] + [0] * 255)


def to_png(raster: Raster, *, max_work_bytes: int = DEFAULT_MAX_WORK_BYTES) -> bytes:
    """The image as a PNG file. Notes about approximations are appended to ``raster.notes``.

    Raises :class:`~pdfthin.errors.PdfthinError`: ``malformed`` for impossible parameters,
    ``unsupported`` for what PNG cannot express, ``too_large`` past ``max_work_bytes``.
    """
    width, height = raster.width, raster.height
    if width < 1 or height < 1:
        raise PdfthinError("malformed", f"the image is {width} x {height} pixels")
    if raster.image_mask:
        return _stencil_png(raster)
    bpc = raster.bits_per_component
    if bpc not in _ALLOWED_BPC:
        raise PdfthinError("malformed", f"{bpc} bits per component is not a PDF image depth")
    cs = raster.color_space or _guess_space(raster)
    n = cs.components
    if n < 1:
        raise PdfthinError("unsupported", f"the colour space {cs.name} has no components")
    if width * height * max(n, 4) > max_work_bytes:
        raise PdfthinError(
            "too_large",
            f"the {width} x {height} image needs more than {max_work_bytes} bytes to convert",
            limit=max_work_bytes,
        )
    samples = _fit_samples(raster, n)
    masked = raster.soft_mask or raster.stencil_mask or raster.color_key
    default = _default_decode(raster.decode, cs, bpc)

    # Fast paths: the stored rows are already PNG rows.
    if not masked and default:
        if cs.family == "DeviceGray":
            return png.encode_png(width, height, bpc, png.GRAY, samples)
        if cs.family == "DeviceRGB" and bpc in (8, 16):
            return png.encode_png(width, height, bpc, png.RGB, samples)
        if cs.family == "Indexed" and bpc <= 8:
            palette = _palette_rgb(cs, raster.notes)
            size = 3 * (1 << bpc)
            palette = (palette + bytes(size))[:size]  # out-of-range indices show black
            return png.encode_png(width, height, bpc, png.PALETTE, samples, palette=palette)

    if bpc == 16:
        raster.notes.append("16-bit samples were reduced to 8 bits for the conversion")
    levels = unpack(samples, width, height, n, bpc)
    alpha = _alpha(raster, levels, n, cs)
    rgb_or_gray, channels = _colours(levels, n, cs, raster.decode, bpc, raster.notes)
    if alpha is None:
        kind = png.GRAY if channels == 1 else png.RGB
        return png.encode_png(width, height, 8, kind, rgb_or_gray)
    kind = png.GRAY_ALPHA if channels == 1 else png.RGBA
    return png.encode_png(width, height, 8, kind, _append_alpha(rgb_or_gray, channels, alpha))


# --- samples ------------------------------------------------------------------------------


def _guess_space(raster: Raster) -> ColorSpace:
    """No usable colour space: infer grey, RGB or CMYK from the amount of data."""
    per_pixel = len(raster.samples) * 8 / max(1, raster.width * raster.height)
    n = 1
    for candidate in (4, 3):
        if per_pixel >= candidate * raster.bits_per_component:
            n = candidate
            break
    family = {1: "DeviceGray", 3: "DeviceRGB", 4: "DeviceCMYK"}[n]
    raster.notes.append(f"the image names no usable colour space; shown as {family}")
    return ColorSpace(family, n, family)


def _fit_samples(raster: Raster, n: int) -> bytes:
    """Exactly ``height`` rows: short data is padded with zeros (as viewers show it)."""
    stride = png.row_bytes(raster.width, n, raster.bits_per_component)
    need = stride * raster.height
    data = raster.samples
    if not data:
        raise PdfthinError("malformed", "the image has no data")
    if len(data) < need:
        missing = need - len(data)
        raster.notes.append(f"the image data is {missing} bytes short; the rest is shown black")
        return bytes(data) + bytes(missing)
    return bytes(data[:need]) if len(data) > need else bytes(data)


def _unpack_table(bpc: int) -> list[bytes]:
    per_byte = 8 // bpc
    top = (1 << bpc) - 1
    return [bytes((b >> (8 - bpc * (i + 1))) & top for i in range(per_byte)) for b in range(256)]


_UNPACK = {bpc: _unpack_table(bpc) for bpc in (1, 2, 4)}


def unpack(data: bytes, width: int, height: int, n: int, bpc: int) -> bytes:
    """One byte per sample, rows without padding. Values are the raw levels (0 to 2^bpc-1)
    for 1 to 8 bits; 16-bit samples keep their high byte."""
    if bpc == 8:
        return data
    if bpc == 16:
        return data[0::2]
    table = _UNPACK[bpc]
    per_row = width * n
    stride = png.row_bytes(width, n, bpc)
    if per_row * bpc == stride * 8:  # no padding at row ends: one pass over everything
        return b"".join(map(table.__getitem__, data))
    view = memoryview(data)
    rows = (
        b"".join(map(table.__getitem__, view[y * stride : (y + 1) * stride]))[:per_row]
        for y in range(height)
    )
    return b"".join(rows)


def _max_level(bpc: int) -> int:
    return 255 if bpc == 16 else (1 << bpc) - 1


def _default_decode(decode: Sequence[float] | None, cs: ColorSpace, bpc: int) -> bool:
    if not decode:
        return True
    if cs.family == "Indexed":
        default: list[float] = [0.0, float((1 << bpc) - 1)]
    elif cs.family == "Lab":
        default = [0.0, 100.0, *cs.lab_range[:4]]
    else:
        default = [0.0, 1.0] * cs.components
    if len(decode) < len(default):
        return True  # a short Decode array is ignored, as viewers do
    return all(abs(a - b) < 1e-6 for a, b in zip(decode, default, strict=False))


def _level_table(lo: float, hi: float, bpc: int) -> bytes:
    """Raw level -> 0..255 through ``Decode [lo hi]`` (values outside [0, 1] clamp)."""
    top = _max_level(bpc)
    out = bytearray(256)
    for s in range(min(256, top + 1)):
        v = lo + s * (hi - lo) / top
        out[s] = round(min(1.0, max(0.0, v)) * 255)
    return bytes(out)


def _pairs(decode: Sequence[float] | None, n: int) -> list[tuple[float, float]]:
    if decode and len(decode) >= 2 * n:
        return [(float(decode[2 * i]), float(decode[2 * i + 1])) for i in range(n)]
    return [(0.0, 1.0)] * n


def _split(data: bytes, n: int) -> list[bytes]:
    return [data[i::n] for i in range(n)] if n > 1 else [data]


def _interleave(channels: Sequence[bytes]) -> bytes:
    n = len(channels)
    if n == 1:
        return bytes(channels[0])
    out = bytearray(len(channels[0]) * n)
    for i, channel in enumerate(channels):
        out[i::n] = channel
    return bytes(out)


# --- colour -------------------------------------------------------------------------------


def _colours(
    levels: bytes,
    n: int,
    cs: ColorSpace,
    decode: Sequence[float] | None,
    bpc: int,
    notes: list[str],
) -> tuple[bytes, int]:
    """8-bit grey (1 channel) or RGB (3 channels) pixels from raw levels."""
    family = cs.family
    if family == "Indexed":
        return _indexed(levels, cs, decode, bpc, notes), 3
    if family in ("Separation", "DeviceN") and cs.tint is not None and n == 1:
        return _tinted(levels, cs, decode, bpc, notes), 3
    pairs = _pairs(decode, n)
    if family == "Lab":
        return _lab_pixels(levels, cs, decode, bpc), 3
    if family in ("Separation", "DeviceN"):
        pairs, family = _approximate_ink(cs, pairs, notes)
        n_used = {"DeviceGray": 1, "DeviceRGB": 3, "DeviceCMYK": 4}[family]
        if n_used != n:
            # Keep the first colorant only: show it as grey ink.
            levels = levels[0::n]
            n = 1
    channels = [
        ch.translate(_level_table(lo, hi, bpc))
        for ch, (lo, hi) in zip(_split(levels, n), pairs, strict=False)
    ]
    if family == "DeviceCMYK" and len(channels) == 4:
        return _interleave(cmyk_to_rgb(*channels)), 3
    if family == "DeviceRGB" and len(channels) == 3:
        return _interleave(channels), 3
    if len(channels) != 1:
        notes.append(f"{cs.name} has {n} components; the first is shown as grey")
    elif family == "Unknown":
        notes.append(f"{cs.name}: the samples are shown as grey levels")
    return channels[0], 1


def _approximate_ink(
    cs: ColorSpace, pairs: list[tuple[float, float]], notes: list[str]
) -> tuple[list[tuple[float, float]], str]:
    """Spot colours without a usable tint transform: a colorant is ink, so more of it is
    darker. One colorant shows as inverted grey; four as CMYK."""
    notes.append(f"{cs.name} is approximated (its tint transform is not evaluated)")
    if cs.components == 4:
        return pairs, "DeviceCMYK"
    return [(hi, lo) for lo, hi in pairs], "DeviceGray"


def cmyk_to_rgb(c: bytes, m: bytes, y: bytes, k: bytes) -> tuple[bytes, bytes, bytes]:
    """PDF 32000-1 §10.3.5: red = 1 - min(1, cyan + black), and so on, per channel."""
    return _inverse_saturated_sum(c, k), _inverse_saturated_sum(m, k), _inverse_saturated_sum(y, k)


def _inverse_saturated_sum(x: bytes, k: bytes) -> bytes:
    """``255 - min(255, x + k)`` for every byte, with whole-channel integer arithmetic:
    the channels are spread over 16-bit lanes of two big integers and added at once."""
    n = len(x)
    if n == 0:
        return b""
    wide_x = bytearray(2 * n)
    wide_x[1::2] = x
    wide_k = bytearray(2 * n)
    wide_k[1::2] = k
    total = int.from_bytes(wide_x, "big") + int.from_bytes(wide_k, "big")
    lanes = total.to_bytes(2 * n, "big")
    inverted = lanes[1::2].translate(_INVERT)
    keep = lanes[0::2].translate(_ZERO_TO_FF)  # a carry means the sum passed 255: black
    return (int.from_bytes(inverted, "big") & int.from_bytes(keep, "big")).to_bytes(n, "big")


def _indexed(
    levels: bytes, cs: ColorSpace, decode: Sequence[float] | None, bpc: int, notes: list[str]
) -> bytes:
    if bpc > 8:
        raise PdfthinError("malformed", "an indexed image cannot have 16 bits per component")
    if not _default_decode(decode, cs, bpc) and decode:
        top = (1 << bpc) - 1
        lo, hi = float(decode[0]), float(decode[1])
        table = bytes(
            min(cs.hival, max(0, round(lo + s * (hi - lo) / top))) if s <= top else 0
            for s in range(256)
        )
        levels = levels.translate(table)
    palette = (_palette_rgb(cs, notes) + bytes(768))[:768]
    return _gather(levels, palette)


def _gather(indices: bytes, palette: bytes) -> bytes:
    """RGB pixels for 8-bit indices into a 256-entry RGB palette, one channel at a time."""
    return _interleave([indices.translate(palette[i::3]) for i in range(3)])


def _palette_rgb(cs: ColorSpace, notes: list[str]) -> bytes:
    """The palette of an indexed space as RGB triples (``hival + 1`` of them)."""
    base = cs.base or ColorSpace("DeviceRGB", 3, "DeviceRGB")
    entries = min(256, cs.hival + 1)
    need = entries * base.components
    lookup = cs.lookup[:need]
    if len(lookup) < need:
        notes.append("the palette is shorter than its highest index; missing colours are black")
        lookup += bytes(need - len(lookup))
    if base.family == "Indexed":
        raise PdfthinError("malformed", "an indexed colour space cannot have an indexed base")
    rgb, channels = _colours(lookup, base.components, base, None, 8, notes)
    if channels == 1:
        rgb = _interleave([rgb, rgb, rgb])
    return rgb


def _tinted(
    levels: bytes, cs: ColorSpace, decode: Sequence[float] | None, bpc: int, notes: list[str]
) -> bytes:
    """One colorant with an exponential tint transform: 256 tints become a palette."""
    assert cs.tint is not None
    c0, c1, exponent = cs.tint
    base = cs.base or ColorSpace("DeviceGray", 1, "DeviceGray")
    lookup = bytearray()
    for level in range(256):
        t = (level / 255) ** exponent if exponent > 0 else 1.0
        for a, b in zip(c0, c1, strict=False):
            value = a + t * (b - a)
            if base.family == "Lab":
                lookup.append(max(0, min(255, round(value))))  # approximate: rarely used
            else:
                lookup.append(max(0, min(255, round(value * 255))))
    lo, hi = _pairs(decode, 1)[0]
    tints = levels.translate(_level_table(lo, hi, bpc))
    palette_space = ColorSpace("Indexed", 1, cs.name, base=base, hival=255, lookup=bytes(lookup))
    return _gather(tints, (_palette_rgb(palette_space, notes) + bytes(768))[:768])


def _lab_pixels(levels: bytes, cs: ColorSpace, decode: Sequence[float] | None, bpc: int) -> bytes:
    """CIE L*a*b* to sRGB, pixel by pixel (rare in PDFs; results are memoised)."""
    amin, amax, bmin, bmax = [*cs.lab_range, -100.0, 100.0, -100.0, 100.0][:4]
    if decode and len(decode) >= 6:
        ranges = [(float(decode[2 * i]), float(decode[2 * i + 1])) for i in range(3)]
    else:
        ranges = [(0.0, 100.0), (amin, amax), (bmin, bmax)]
    top = _max_level(bpc)
    scales = [[lo + s * (hi - lo) / top for s in range(256)] for lo, hi in ranges]
    cache: dict[bytes, bytes] = {}
    out = bytearray()
    for i in range(0, len(levels) - 2, 3):
        key = levels[i : i + 3]
        rgb = cache.get(key)
        if rgb is None:
            rgb = lab_to_srgb(scales[0][key[0]], scales[1][key[1]], scales[2][key[2]])
            if len(cache) < 1 << 16:
                cache[key] = rgb
        out += rgb
    return bytes(out)


def lab_to_srgb(lightness: float, a: float, b: float) -> bytes:
    """One L*a*b* colour in sRGB. The space's white point maps to D65 white (a plain
    scaling, no chromatic adaptation: close enough to show a picture), so it drops out."""

    def finv(t: float) -> float:
        return t**3 if t > 6 / 29 else 3 * (6 / 29) ** 2 * (t - 4 / 29)

    fy = (lightness + 16) / 116
    x = finv(fy + a / 500) * 0.9505
    y = finv(fy) * 1.0
    z = finv(fy - b / 200) * 1.089
    r = 3.2406 * x - 1.5372 * y - 0.4986 * z
    g = -0.9689 * x + 1.8758 * y + 0.0415 * z
    bl = 0.0557 * x - 0.2040 * y + 1.0570 * z

    def gamma(v: float) -> int:
        v = min(1.0, max(0.0, v))
        v = 12.92 * v if v <= 0.0031308 else 1.055 * math.pow(v, 1 / 2.4) - 0.055
        return round(v * 255)

    return bytes((gamma(r), gamma(g), gamma(bl)))


# --- masks --------------------------------------------------------------------------------


def _stencil_png(raster: Raster) -> bytes:
    """An image mask: painted pixels (sample 0, or 1 under ``Decode [1 0]``) are black."""
    stride = png.row_bytes(raster.width, 1, 1)
    need = stride * raster.height
    data = raster.samples
    if not data:
        raise PdfthinError("malformed", "the image mask has no data")
    if len(data) < need:
        raster.notes.append("the image mask data is short; the rest is left unpainted")
        data = bytes(data) + b"\xff" * (need - len(data))
    data = bytes(data[:need])
    if raster.decode and len(raster.decode) >= 2 and raster.decode[0] > raster.decode[1]:
        data = data.translate(_INVERT)
    return png.encode_png(raster.width, raster.height, 1, png.GRAY, data)


def _alpha(raster: Raster, levels: bytes, n: int, cs: ColorSpace) -> bytes | None:
    """8-bit alpha for every pixel, or ``None`` when the image is opaque."""
    if raster.soft_mask is not None:
        if raster.soft_mask.matte is not None:
            raster.notes.append("the soft mask's /Matte pre-multiplication is not undone")
        return _mask_levels(raster.soft_mask, raster.width, raster.height, stencil=False)
    if raster.stencil_mask is not None:
        return _mask_levels(raster.stencil_mask, raster.width, raster.height, stencil=True)
    if raster.color_key is not None:
        return _color_key_alpha(raster.color_key, levels, n, raster.bits_per_component)
    return None


def _mask_levels(mask: MaskSamples, width: int, height: int, *, stencil: bool) -> bytes:
    bpc = 1 if stencil else mask.bits_per_component
    if bpc not in _ALLOWED_BPC or mask.width < 1 or mask.height < 1:
        raise PdfthinError("malformed", "the image's mask has impossible dimensions or depth")
    need = png.row_bytes(mask.width, 1, bpc) * mask.height
    samples = (bytes(mask.samples) + bytes(max(0, need - len(mask.samples))))[:need]
    levels = unpack(samples, mask.width, mask.height, 1, bpc)
    lo, hi = _pairs(mask.decode, 1)[0]
    table = _level_table(lo, hi, bpc)
    if stencil:
        # A stencil's sample 1 (after Decode) marks where the image is not painted.
        table = table.translate(_INVERT)
    return resize(levels.translate(table), mask.width, mask.height, width, height)


def _color_key_alpha(ranges: Sequence[int], levels: bytes, n: int, bpc: int) -> bytes | None:
    if len(ranges) < 2 * n:
        return None
    shift = 8 if bpc == 16 else 0
    hidden: int | None = None
    for i, channel in enumerate(_split(levels, n)):
        lo, hi = ranges[2 * i] >> shift, ranges[2 * i + 1] >> shift
        inside = bytes(255 if lo <= v <= hi else 0 for v in range(256))
        flags = int.from_bytes(channel.translate(inside), "big")
        hidden = flags if hidden is None else hidden & flags
    assert hidden is not None
    count = len(levels) // n
    return hidden.to_bytes(count, "big").translate(_INVERT)


def resize(data: bytes, src_w: int, src_h: int, width: int, height: int) -> bytes:
    """Nearest-neighbour resampling of one 8-bit channel (masks may differ in size)."""
    if (src_w, src_h) == (width, height):
        return data
    columns = [x * src_w // width for x in range(width)]
    out = bytearray()
    last_source = -1
    row = b""
    for y in range(height):
        source = y * src_h // height
        if source != last_source:
            src_row = data[source * src_w : (source + 1) * src_w]
            row = bytes(map(src_row.__getitem__, columns))
            last_source = source
        out += row
    return bytes(out)


def _append_alpha(pixels: bytes, channels: int, alpha: bytes) -> bytes:
    return _interleave([*_split(pixels, channels), alpha])
