"""Image data: the pypdf-facing half of ``list_images`` and ``get_image``.

Given an :class:`~pdfthin.engine.types.ImagePlacement`, this module finds the image's bytes in
the file (or in the content stream, for inline images), runs the general-purpose filters
(Flate, LZW, RunLength, ASCIIHex, ASCII85) through pypdf's decoders under the document's
limits, stops in front of an image codec (DCT, JPX, CCITT, JBIG2) and resolves the colour space,
Decode array and masks into the plain data of :mod:`pdfthin.images.types`. Nothing it returns
holds a pypdf object.
"""

from __future__ import annotations

import hashlib
import math
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pypdf.errors import LimitReachedError
from pypdf.filters import (
    ASCII85Decode,
    ASCIIHexDecode,
    FlateDecode,
    LZWDecode,
    RunLengthDecode,
)
from pypdf.generic import (
    ArrayObject,
    BooleanObject,
    ByteStringObject,
    DictionaryObject,
    IndirectObject,
    StreamObject,
    TextStringObject,
)

from pdfthin.engine.content.lexer import INLINE_NAMES
from pdfthin.engine.document import EngineDocument, _pypdf_quiet, _short
from pdfthin.engine.objects import get, num, resolve, truthy
from pdfthin.engine.streams import stored_data
from pdfthin.engine.walk import Walk
from pdfthin.errors import PdfthinError
from pdfthin.images.tiff import CcittParams
from pdfthin.images.types import ColorSpace, MaskSamples
from pdfthin.pages import check_page

if TYPE_CHECKING:
    from pdfthin.engine.types import ImagePlacement

#: Filters that only change how bytes are stored; their output is more bytes.
_GENERIC = {
    "/FlateDecode": "flate",
    "/LZWDecode": "lzw",
    "/RunLengthDecode": "runlength",
    "/ASCIIHexDecode": "",
    "/ASCII85Decode": "",
    "/Crypt": "",
}
#: Filters whose output is an image: the data is handed over as stored.
CODECS = {
    "/DCTDecode": "jpeg",
    "/JPXDecode": "jpx",
    "/CCITTFaxDecode": "ccitt",
    "/JBIG2Decode": "jbig2",
}
_DEVICE = {
    "/DeviceGray": ("DeviceGray", 1),
    "/DeviceRGB": ("DeviceRGB", 3),
    "/DeviceCMYK": ("DeviceCMYK", 4),
    "/CalGray": ("DeviceGray", 1),
    "/CalRGB": ("DeviceRGB", 3),
    "/CalCMYK": ("DeviceCMYK", 4),
}
_BY_COMPONENTS = {1: "DeviceGray", 3: "DeviceRGB", 4: "DeviceCMYK"}
_ICC_NAMES = {1: "Gray", 3: "RGB", 4: "CMYK"}
_MAX_CS_DEPTH = 8
_MAX_FILTERS = 8
#: Values one image parameter (a /DecodeParms dictionary, an inline image's parameters) may
#: hold once copied as plain data: real ones hold a handful.
MAX_PLAIN_VALUES = 10_000


@dataclass(slots=True)
class ImageFacts:
    """What listing an image needs, read without decoding it."""

    stored_format: str
    stored_bytes: int
    color_space: str
    #: A digest of the stored bytes and the main parameters: the same picture stored twice
    #: (a logo written anew on every page) has the same key.
    content_key: str
    soft_mask: bool = False


@dataclass(slots=True)
class StoredImage:
    """One image's data as plain values (see the module docstring)."""

    width: int
    height: int
    bits_per_component: int
    color_space: ColorSpace | None
    filters: tuple[str, ...]
    #: One plain dictionary per filter (keys without the slash: ``{"K": -1, ...}``).
    decode_parms: tuple[dict[str, Any], ...]
    #: The bytes as stored in the file (decrypted, still filtered).
    stored: bytes
    #: ``jpeg``, ``jpx``, ``ccitt``, ``jbig2``, ``flate``, ``lzw``, ``runlength`` or ``raw``.
    stored_format: str
    #: For an image codec: its input (the stored bytes with any general filters before it
    #: undone). ``None`` otherwise.
    codec_data: bytes | None = None
    #: For everything else: the samples, all filters undone.
    samples: bytes | None = None
    decode: tuple[float, ...] | None = None
    image_mask: bool = False
    soft_mask: MaskSamples | None = None
    stencil_mask: MaskSamples | None = None
    color_key: tuple[int, ...] | None = None
    ccitt: CcittParams | None = None
    jbig2_globals: bytes | None = None
    problems: list[str] = field(default_factory=list)


# --- public entry points --------------------------------------------------------------------


def image_facts(doc: EngineDocument, placement: ImagePlacement, page: int) -> ImageFacts:
    """Format, stored size, colour space and content digest of one placed image on page
    ``page`` (1-based: anything else is ``invalid_pages``)."""
    page = check_page(page, doc.page_count)
    with _pypdf_quiet(doc.limits):
        try:
            return _facts(doc, placement, page)
        except PdfthinError:
            raise
        except Exception as exc:
            return ImageFacts(
                stored_format=stored_format(placement.filters),
                stored_bytes=0,
                color_space=_display_name(placement.color_space),
                content_key=f"broken:{page}:{placement.name}:{_short(exc)}",
            )


def load_image(
    doc: EngineDocument, placement: ImagePlacement, page: int, *, with_samples: bool = True
) -> StoredImage:
    """The image's data; with ``with_samples`` the general filters are run (bounded by the
    document's ``max_stream_bytes``). Raises ``malformed``, ``unsupported`` or
    ``too_large`` (``invalid_pages`` when ``page`` is not a page of the document)."""
    page = check_page(page, doc.page_count)
    with _pypdf_quiet(doc.limits):
        try:
            if placement.inline:
                return _load_inline(doc, placement, page, with_samples)
            return _load_xobject(doc, _xobject(doc, placement), page, with_samples)
        except PdfthinError:
            raise
        except (LimitReachedError, MemoryError):
            raise PdfthinError(
                "too_large",
                f"the image decodes to more than {doc.limits.max_stream_bytes} bytes",
                limit=doc.limits.max_stream_bytes,
            ) from None
        except RecursionError:
            raise PdfthinError("malformed", "the image's objects nest too deeply") from None
        except Exception as exc:
            raise PdfthinError("malformed", f"the image cannot be read: {_short(exc)}") from None


def stored_format(filters: tuple[str, ...]) -> str:
    """The format an image is stored in, named after its last meaningful filter."""
    name = "raw"
    for f in filters:
        f = INLINE_NAMES.get(f, f)
        if f in CODECS:
            return CODECS[f]
        if _GENERIC.get(f):
            name = _GENERIC[f]
        elif f not in _GENERIC:
            return f.lstrip("/") or "raw"
    return name


# --- XObjects ----------------------------------------------------------------------------


def _xobject(doc: EngineDocument, placement: ImagePlacement) -> StreamObject:
    if placement.ref is None:
        raise PdfthinError("malformed", "the image has no object reference")
    obj = resolve(IndirectObject(placement.ref[0], placement.ref[1], doc.reader))
    if not isinstance(obj, StreamObject):
        raise PdfthinError(
            "malformed", f"object {placement.ref[0]} {placement.ref[1]} is not an image stream"
        )
    return obj


def _facts(doc: EngineDocument, placement: ImagePlacement, page: int) -> ImageFacts:
    if placement.inline:
        params = _plain(placement.inline_params or {})
        data = placement.inline_data or b""
        filters = _filter_names(params.get("Filter"), inline=True)
        cs = _inline_color_space(doc, params, page)
        soft = False
    else:
        obj = _xobject(doc, placement)
        data = stored_data(obj)
        filters = _filter_names(get(obj, "/Filter"))
        cs = None if truthy(get(obj, "/ImageMask")) else _color_space(get(obj, "/ColorSpace"), {})
        soft = get(obj, "/SMask") is not None
    digest = hashlib.blake2b(digest_size=12)
    digest.update(data)
    digest.update(
        repr((placement.width, placement.height, placement.bits_per_component, filters)).encode()
    )
    if placement.image_mask:
        cs_name = "ImageMask"
    elif cs is not None:
        cs_name = cs.name
    else:
        cs_name = _display_name(placement.color_space)
    return ImageFacts(
        stored_format=stored_format(filters),
        stored_bytes=len(data),
        color_space=cs_name,
        content_key=digest.hexdigest(),
        soft_mask=soft,
    )


def _load_xobject(
    doc: EngineDocument, obj: StreamObject, page: int, with_samples: bool
) -> StoredImage:
    stored = stored_data(obj)
    filters = _filter_names(get(obj, "/Filter"))
    parms = _parms_list(get(obj, "/DecodeParms"), len(filters))
    image_mask = truthy(get(obj, "/ImageMask"))
    width = int(num(get(obj, "/Width"), 0))
    height = int(num(get(obj, "/Height"), 0))
    bpc = 1 if image_mask else int(num(get(obj, "/BitsPerComponent"), 0))
    cs = None if image_mask else _color_space(get(obj, "/ColorSpace"), {})
    walk = Walk("the image's decode parameters", MAX_PLAIN_VALUES)
    image = StoredImage(
        width=width,
        height=height,
        bits_per_component=bpc,
        color_space=cs,
        filters=filters,
        decode_parms=tuple(_plain(p, walk) for p in parms),
        stored=stored,
        stored_format=stored_format(filters),
        decode=_numbers(get(obj, "/Decode")),
        image_mask=image_mask,
    )
    if walk.cut is not None:
        image.problems.append(walk.cut)
    _check_size(doc, image)
    if image.stored_format == "jbig2":
        globals_stream = get(_codec_parms(filters, parms), "/JBIG2Globals")
        if isinstance(globals_stream, StreamObject):
            image.jbig2_globals = _decode_generic(
                doc,
                stored_data(globals_stream),
                _filter_names(get(globals_stream, "/Filter")),
                _parms_list(get(globals_stream, "/DecodeParms"), 8),
            )[0]
    if with_samples:
        _decode_into(doc, image, parms)
        if image.samples is not None and not image_mask:
            _masks(doc, obj, image)
        elif get(obj, "/SMask") is not None or isinstance(get(obj, "/Mask"), (StreamObject, list)):
            image.problems.append(
                f"the image has a mask; the {image.stored_format.upper()} data is returned as "
                "stored, without its transparency"
            )
    if image.stored_format == "ccitt":
        image.ccitt = _ccitt_params(_plain(_codec_parms(filters, parms)), width, height)
    return image


def _masks(doc: EngineDocument, obj: StreamObject, image: StoredImage) -> None:
    smask = get(obj, "/SMask")
    if isinstance(smask, StreamObject):
        image.soft_mask = _mask_samples(doc, smask, image, "soft mask", stencil=False)
        if image.soft_mask is not None:
            return  # /Mask is ignored when /SMask is present
    mask = get(obj, "/Mask")
    if isinstance(mask, StreamObject):
        image.stencil_mask = _mask_samples(doc, mask, image, "mask", stencil=True)
    elif isinstance(mask, list):
        values = [int(num(resolve(v), -1)) for v in mask[:64]]
        if values and all(v >= 0 for v in values):
            image.color_key = tuple(values)


def _mask_samples(
    doc: EngineDocument, obj: StreamObject, image: StoredImage, what: str, *, stencil: bool
) -> MaskSamples | None:
    filters = _filter_names(get(obj, "/Filter"))
    kind = stored_format(filters)
    if kind in ("ccitt", "jbig2"):
        image.problems.append(
            f"the {what} is stored as {kind.upper()}, which is not decoded here; "
            "transparency is left out"
        )
        return None
    data, codec = _decode_generic(
        doc, stored_data(obj), filters, _parms_list(get(obj, "/DecodeParms"), 8)
    )
    matte = _numbers(get(obj, "/Matte"))
    return MaskSamples(
        codec=CODECS[codec] if codec is not None else None,
        width=int(num(get(obj, "/Width"), 0)),
        height=int(num(get(obj, "/Height"), 0)),
        bits_per_component=1 if stencil else int(num(get(obj, "/BitsPerComponent"), 8)),
        samples=data,
        decode=_numbers(get(obj, "/Decode")),
        matte=matte,
    )


# --- inline images -----------------------------------------------------------------------


def _load_inline(
    doc: EngineDocument, placement: ImagePlacement, page: int, with_samples: bool
) -> StoredImage:
    params = _plain(placement.inline_params or {})
    data = placement.inline_data or b""
    filters = _filter_names(params.get("Filter"), inline=True)
    raw_parms = params.get("DecodeParms")
    if isinstance(raw_parms, list):
        parms = [p if isinstance(p, dict) else {} for p in raw_parms]
    else:
        parms = [raw_parms if isinstance(raw_parms, dict) else {}]
    parms = (parms + [{}] * len(filters))[: max(1, len(filters))]
    image_mask = params.get("ImageMask") is True
    width = _int(params.get("Width"))
    height = _int(params.get("Height"))
    bpc = 1 if image_mask else _int(params.get("BitsPerComponent"))
    image = StoredImage(
        width=width,
        height=height,
        bits_per_component=bpc,
        color_space=None if image_mask else _inline_color_space(doc, params, page),
        filters=filters,
        decode_parms=tuple(parms),
        stored=data,
        stored_format=stored_format(filters),
        decode=_numbers(params.get("Decode")),
        image_mask=image_mask,
    )
    _check_size(doc, image)
    pdf_parms = [{"/" + k: v for k, v in p.items()} for p in parms]
    if with_samples:
        _decode_into(doc, image, pdf_parms)
    if image.stored_format == "ccitt":
        image.ccitt = _ccitt_params(_codec_parms(filters, parms, plain=True), width, height)
    return image


def _inline_color_space(
    doc: EngineDocument, params: dict[str, Any], page: int
) -> ColorSpace | None:
    raw = params.get("ColorSpace")
    if isinstance(raw, str) and not raw.startswith("/"):
        raw = "/" + raw
    if isinstance(raw, list):
        raw = [("/" + v if isinstance(v, str) and not v.startswith("/") else v) for v in raw]
        if raw and raw[0] in ("/I", "/Indexed") and len(raw) < 4:
            # The content-stream reader keeps names and numbers of inline arrays only; the
            # palette string is not among them.
            return ColorSpace("Unknown", 1, "Indexed (palette not available)")
    resources: Any = {}
    if 1 <= page <= doc.page_count:
        resources = get(doc.page_resources(page), "/ColorSpace") or {}
    return _color_space(raw, resources)


# --- filters -----------------------------------------------------------------------------


def _filter_names(raw: Any, *, inline: bool = False) -> tuple[str, ...]:
    raw = resolve(raw)
    if raw is None:
        return ()
    items = raw if isinstance(raw, list) else [raw]
    names = []
    for item in items[:_MAX_FILTERS]:
        value = str(resolve(item))
        if not value.startswith("/"):
            value = "/" + value
        names.append(INLINE_NAMES.get(value, value) if inline or value in INLINE_NAMES else value)
    return tuple(names)


def _parms_list(raw: Any, count: int) -> list[Any]:
    raw = resolve(raw)
    items = list(raw) if isinstance(raw, list) else [raw]
    out = [resolve(p) if isinstance(resolve(p), dict) else {} for p in items[: max(count, 1)]]
    return out + [{}] * (count - len(out))


def _codec_parms(filters: tuple[str, ...], parms: list[Any], plain: bool = False) -> Any:
    for f, p in zip(filters, parms, strict=False):
        if f in CODECS:
            return p
    return {}


def _check_size(doc: EngineDocument, image: StoredImage) -> None:
    if image.width < 1 or image.height < 1:
        raise PdfthinError("malformed", f"the image is {image.width} x {image.height} pixels")
    if image.width > 1 << 20 or image.height > 1 << 20:
        raise PdfthinError("malformed", f"the image claims {image.width} x {image.height} pixels")
    if len(image.stored) > doc.limits.max_stream_bytes:
        raise PdfthinError(
            "too_large",
            f"the image is {len(image.stored)} bytes as stored; the limit is "
            f"{doc.limits.max_stream_bytes}",
            limit=doc.limits.max_stream_bytes,
        )


def _decode_into(doc: EngineDocument, image: StoredImage, parms: list[Any]) -> None:
    data, codec = _decode_generic(doc, image.stored, image.filters, parms)
    if codec is None:
        image.samples = data
    else:
        image.codec_data = data


def _decode_generic(
    doc: EngineDocument, data: bytes, filters: tuple[str, ...], parms: list[Any]
) -> tuple[bytes, str | None]:
    """Undo the general filters in order; stop in front of an image codec and name it."""
    limit = doc.limits.max_stream_bytes
    parms = parms + [{}] * (len(filters) - len(parms))
    for index, name in enumerate(filters):
        if name in CODECS:
            rest = [f for f in filters[index + 1 :] if f not in ("/Crypt",)]
            if rest:
                raise PdfthinError(
                    "unsupported", f"filters after {name[1:]} ({', '.join(rest)}) are not supported"
                )
            return data, name
        data = _generic(name, data, parms[index])
        if len(data) > limit:
            raise PdfthinError(
                "too_large",
                f"the image decodes to more than {limit} bytes",
                limit=limit,
            )
    return data, None


def _generic(name: str, data: bytes, parms: Any) -> bytes:
    if name == "/FlateDecode":
        return FlateDecode.decode(data, _pypdf_parms(parms))
    if name == "/LZWDecode":
        out = LZWDecode.decode(data, _pypdf_parms(parms))
        if int(num(get(parms, "/Predictor"), 1)) > 1:
            # pypdf applies predictors only after Flate: hand it the LZW output as Flate data.
            out = FlateDecode.decode(zlib.compress(out, 1), _pypdf_parms(parms))
        return out
    if name == "/RunLengthDecode":
        return RunLengthDecode.decode(data)
    if name == "/ASCIIHexDecode":
        return ASCIIHexDecode.decode(data)
    if name == "/ASCII85Decode":
        return ASCII85Decode.decode(data)
    if name == "/Crypt":
        return data  # the identity crypt filter; real crypt filters were applied by pypdf
    raise PdfthinError("unsupported", f"the image filter {name[1:]} is not supported")


def _pypdf_parms(parms: Any) -> DictionaryObject | None:
    """pypdf's decoders read ``/Predictor`` and friends with ``.get``; plain inline values
    (floats from the content-stream lexer) become integers first."""
    if not isinstance(parms, dict) or not parms:
        return None
    if isinstance(parms, DictionaryObject):
        return parms
    out: dict[str, Any] = {}
    for key, value in parms.items():
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        out[key] = value
    return out  # type: ignore[return-value]  # a dict is what the decoders need


def _ccitt_params(parms: dict[str, Any], width: int, height: int) -> CcittParams:
    def flag(key: str) -> bool:
        return parms.get(key) is True

    columns = _int(parms.get("Columns")) or width or 1728
    return CcittParams(
        k=_int(parms.get("K")),
        columns=columns,
        rows=_int(parms.get("Rows")) or height,
        black_is_1=flag("BlackIs1"),
        encoded_byte_align=flag("EncodedByteAlign"),
        end_of_line=flag("EndOfLine"),
    )


# --- colour spaces -----------------------------------------------------------------------


def _color_space(raw: Any, resources: Any, depth: int = 0) -> ColorSpace | None:
    """A colour space object (name or array) resolved to plain data; ``None`` when unknown."""
    raw = resolve(raw)
    if depth > _MAX_CS_DEPTH or raw is None:
        return None
    if isinstance(raw, str):
        name = INLINE_NAMES.get(raw, raw)
        if name in _DEVICE:
            family, n = _DEVICE[name]
            return ColorSpace(family, n, name[1:])
        named = get(resources, name) if isinstance(resources, dict) else None
        if named is not None:
            return _color_space(named, resources, depth + 1)
        return None
    if not isinstance(raw, list) or not raw:
        return None
    head = str(resolve(raw[0]))
    head = INLINE_NAMES.get(head, head)
    if head in _DEVICE:
        family, n = _DEVICE[head]
        return ColorSpace(family, n, head[1:])
    if head == "/ICCBased" and len(raw) > 1:
        stream = resolve(raw[1])
        n = int(num(get(stream, "/N"), 0))
        alternate = _color_space(get(stream, "/Alternate"), resources, depth + 1)
        label = f"ICCBased({_ICC_NAMES.get(n, n)})"
        if alternate is not None and alternate.components == n:
            return _renamed(alternate, label)
        if n in _BY_COMPONENTS:
            return ColorSpace(_BY_COMPONENTS[n], n, label)
        return None
    if head == "/Indexed" and len(raw) == 3:
        # A writer that put a NUL in the base's name swallowed the highest index into it
        # ("/DeviceRGB\x00255"): split it back out.
        base_name, _, hival_text = str(resolve(raw[1])).partition("\x00")
        if hival_text.strip().isdecimal():
            raw = [raw[0], base_name, int(hival_text.strip()), raw[2]]
    if head == "/Indexed" and len(raw) >= 4:
        base = _color_space(raw[1], resources, depth + 1)
        hival = max(0, min(255, int(num(resolve(raw[2]), 0))))
        lookup = _string_bytes(resolve(raw[3]))
        if base is None:
            return None
        label = f"Indexed({base.name}, {hival + 1} colours)"
        return ColorSpace("Indexed", 1, label, base=base, hival=hival, lookup=lookup)
    if head == "/Lab":
        params = resolve(raw[1]) if len(raw) > 1 else {}
        white = _numbers(get(params, "/WhitePoint")) or (0.9505, 1.0, 1.089)
        lab_range = _numbers(get(params, "/Range")) or (-100.0, 100.0, -100.0, 100.0)
        return ColorSpace("Lab", 3, "Lab", white_point=white, lab_range=lab_range)
    if head == "/Separation" and len(raw) >= 4:
        alternate = _color_space(raw[2], resources, depth + 1)
        colorant = str(resolve(raw[1])).lstrip("/")
        return ColorSpace(
            "Separation", 1, f"Separation({colorant})", base=alternate, tint=_tint(raw[3])
        )
    if head == "/DeviceN" and len(raw) >= 4:
        names = resolve(raw[1])
        n = len(names) if isinstance(names, list) else 0
        if n < 1:
            return None
        alternate = _color_space(raw[2], resources, depth + 1)
        tint = _tint(raw[3]) if n == 1 else None
        return ColorSpace("DeviceN", n, f"DeviceN({n})", base=alternate, tint=tint)
    return None


def _renamed(cs: ColorSpace, name: str) -> ColorSpace:
    return ColorSpace(
        cs.family,
        cs.components,
        name,
        base=cs.base,
        hival=cs.hival,
        lookup=cs.lookup,
        white_point=cs.white_point,
        lab_range=cs.lab_range,
        tint=cs.tint,
    )


def _tint(raw: Any) -> tuple[tuple[float, ...], tuple[float, ...], float] | None:
    """An exponential (type 2) tint transform as ``(C0, C1, N)``; other types: ``None``."""
    function = resolve(raw)
    if int(num(get(function, "/FunctionType"), -1)) != 2:
        return None
    c0 = _numbers(get(function, "/C0")) or (0.0,)
    c1 = _numbers(get(function, "/C1")) or (1.0,)
    if len(c0) != len(c1):
        return None
    return c0, c1, num(get(function, "/N"), 1.0)


def _string_bytes(value: Any) -> bytes:
    if isinstance(value, StreamObject):
        try:
            return bytes(value.get_data()[: 768 * 2])
        except Exception:
            return b""
    if isinstance(value, TextStringObject):
        return bytes(value.original_bytes)
    if isinstance(value, (bytes, ByteStringObject)):
        return bytes(value)
    if isinstance(value, str):
        return value.encode("latin-1", "replace")
    return b""


def _display_name(name: str) -> str:
    name = INLINE_NAMES.get(name, name)
    return name.lstrip("/") or "unknown"


# --- plain values ------------------------------------------------------------------------


def _plain(value: Any, walk: Walk | None = None, depth: int = 0) -> Any:
    """pypdf objects (or lexer values) as plain Python: names lose their slash in keys. The
    result is a tree, so shared parts are copied: ``walk`` (one per value converted) bounds
    how many values the copy may hold; past it the rest is ``None``."""
    walk = walk or Walk("image parameters", MAX_PLAIN_VALUES)
    if not walk.step():
        return None
    value = resolve(value)
    if depth > 8:
        return None
    if isinstance(value, BooleanObject):
        return bool(value.value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, StreamObject):
        return None  # streams (JBIG2Globals) are read separately
    if isinstance(value, dict):
        return {str(k).lstrip("/"): _plain(v, walk, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, ArrayObject)):
        return [_plain(v, walk, depth + 1) for v in value[:1024]]
    if isinstance(value, (int, float)):
        return int(value) if float(value).is_integer() else float(value)
    if isinstance(value, TextStringObject):
        return bytes(value.original_bytes)
    if isinstance(value, bytes):
        return bytes(value)
    return str(value)


def _numbers(raw: Any) -> tuple[float, ...] | None:
    raw = resolve(raw)
    if not isinstance(raw, list) or not raw:
        return None
    out = []
    for item in raw[:64]:
        value = num(resolve(item), float("nan"))
        if math.isnan(value):
            return None
        out.append(value)
    return tuple(out)


def _int(value: Any) -> int:
    return int(num(value, 0))
