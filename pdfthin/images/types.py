"""Plain data the engine hands to the codecs: no PDF objects, only numbers and bytes."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class ColorSpace:
    """A PDF colour space resolved to what a converter needs.

    ``family`` is one of ``DeviceGray``, ``DeviceRGB``, ``DeviceCMYK``, ``Indexed``, ``Lab``,
    ``Separation``, ``DeviceN`` or ``Unknown``. Calibrated and ICC-based spaces arrive already
    mapped to the device family with the same number of components (their profile is not
    applied). ``name`` describes the original space for people (``ICCBased(RGB)``).
    """

    family: str
    components: int
    name: str
    #: ``Indexed``: the base space, the highest index and the palette (``components`` bytes of
    #: the base per entry). ``Separation``/``DeviceN``: the alternate space.
    base: ColorSpace | None = None
    hival: int = 0
    lookup: bytes = b""
    #: ``Lab``: white point ``(Xw, Yw, Zw)`` and ``Range`` ``(amin, amax, bmin, bmax)``.
    white_point: tuple[float, ...] = (0.9505, 1.0, 1.089)
    lab_range: tuple[float, ...] = (-100.0, 100.0, -100.0, 100.0)
    #: ``Separation``/``DeviceN`` with an exponential (type 2) tint transform: ``C0``, ``C1``
    #: and ``N`` (one-input functions only). ``None``: the transform is approximated.
    tint: tuple[tuple[float, ...], tuple[float, ...], float] | None = None


@dataclass(frozen=True, slots=True)
class MaskSamples:
    """A soft mask (``/SMask``, grey levels) or a stencil (``/Mask`` stream, 1 bit)."""

    width: int
    height: int
    bits_per_component: int
    samples: bytes
    decode: tuple[float, ...] | None = None
    #: Soft masks only: the colour the image was pre-multiplied with (``/Matte``).
    matte: tuple[float, ...] | None = None
    #: ``jpeg`` or ``jpx`` when ``samples`` still hold that codec's data (a mask compressed
    #: like a photograph); decoded only when Pillow is installed.
    codec: str | None = None


@dataclass(slots=True)
class Raster:
    """An image's decoded samples and everything needed to show them as PDF viewers do."""

    width: int
    height: int
    bits_per_component: int
    samples: bytes
    color_space: ColorSpace | None
    decode: tuple[float, ...] | None = None
    image_mask: bool = False
    #: ``/SMask``: grey levels become the alpha channel.
    soft_mask: MaskSamples | None = None
    #: ``/Mask`` as a stream: where its (decoded) sample is 1 the image is not painted.
    stencil_mask: MaskSamples | None = None
    #: ``/Mask`` as an array: colour-key ranges ``min0 max0 min1 max1 ...`` on raw samples.
    color_key: tuple[int, ...] | None = None
    notes: list[str] = field(default_factory=list)
