"""A page read by the native interpreter: the same :class:`PageContent` as
:class:`~pdfthin.engine.content.interpreter.Interpreter` makes, faster.

The page crosses into native code once (``interpret``), with its content stream and a
resolver. The native side tokenizes and interprets everything; it asks the resolver for a
resource the first time a name is used in a resource dictionary (a font as a decoding table,
an image's placement fields, a Form XObject's decoded content, matrix, box and resources, a
property list's ``/ActualText`` and ``/MCID``) and keeps the answer for the rest of the page.
The resolver uses the very look-ups the Python interpreter uses, so both read the same
resources the same way. Fonts become native decoding tables once per document.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from pdfthin.engine import _native
from pdfthin.engine.content import interpreter
from pdfthin.engine.content.bidi import visual_cluster
from pdfthin.engine.content.interpreter import (
    FontCache,
    GStateParams,
    Matrix,
    actual_text_of,
    colour_components,
    decode_text_string,
    ext_gstate,
    font_for,
    form_bbox,
    form_key,
    form_matrix,
    image_info,
    image_opaque,
    inline_placement,
    lookup_xobject,
    mcid_of,
    missing_font,
    placement_orientation,
    property_list,
)
from pdfthin.engine.content.visibility import sort_runs
from pdfthin.engine.fonts.font import Font, _TextMap, _WidthMap
from pdfthin.engine.objects import get, resolve
from pdfthin.engine.types import ImagePlacement, PageContent, TextRun

if TYPE_CHECKING:
    from pdfthin.engine.content.layers import Layers

#: A CID font's ToUnicode map with more entries than this (CJK fonts carry tens of thousands)
#: is looked up where it is rather than copied into the native font: a copy would make the
#: native engine's peak memory higher than the pure engine's.
LARGE_TEXT_MAP = 2048

#: Native decoding tables by ``id()`` of the :class:`Font` they were made from (the fonts
#: themselves stay alive in the document's font cache).
NativeFonts = dict[int, Any]


def _translated(trans: Any, code: int) -> str:
    """What ``str.translate(trans)`` makes of the character ``chr(code)``."""
    try:
        value = trans[code]
    except LookupError:
        return chr(code)
    if value is None:
        return ""
    return chr(value) if isinstance(value, int) else str(value)


def native_font(native: Any, font: Font) -> Any:
    """The native decoding table of ``font``."""
    trans = font.trans
    # The usual dict of texts is read natively as trans.get(code, chr(code)); a native
    # TypeError means a value that is not text, read here as str.translate reads it.
    table: Any = trans if type(trans) is dict else _translation(trans)
    text_map: dict[int, str] | None = None
    codec_map: Any = None
    if not font.simple:
        if type(font.text_map) is _TextMap and len(font.text_map) <= LARGE_TEXT_MAP:
            text_map = font.text_map
        else:
            # A map that computes its entries (a codec, an Adobe collection, ...), or a large
            # one: the native side asks it for each code, so whatever it computes is used as
            # it is, and a large map is not held twice.
            codec_map = font.text_map
    try:
        return _native_font(native, font, table, text_map, codec_map)
    except TypeError:
        if table is not trans:
            raise
        return _native_font(native, font, _translation(trans), text_map, codec_map)


def _translation(trans: Any) -> list[str]:
    return [_translated(trans, code) for code in range(256)]


def _native_font(native: Any, font: Font, table: Any, text_map: Any, codec_map: Any) -> Any:
    return native.Font(
        font.name,
        font.bold,
        font.italic,
        font.vertical,
        font.ascent,
        font.size_scale,
        font.simple,
        table,
        list(font.widths),
        font.code_len,
        list(font.lead_lengths) if font.lead_lengths is not None else None,
        text_map,
        codec_map,
        font.width_map,
        font.width_map.default,
        font.space_is_single_byte,
        # A width map that computes its entries is asked per code, like a computed text map.
        None if type(font.width_map) is _WidthMap else font.width_map,
    )


class Resolver:
    """Answers the native interpreter's questions about one page's resources.

    Resource dictionaries are numbered (``scope``): 0 is the page's, a Form XObject with
    resources of its own gets the next number.
    """

    def __init__(
        self,
        native: Any,
        resources: Any,
        fonts: FontCache,
        keepalive: list[Any],
        native_fonts: NativeFonts,
        layers: Layers,
    ) -> None:
        self._native = native
        self._layers = layers
        self.scopes: list[Any] = [resources]
        self._scope_ids: dict[int, int] = {id(resources): 0}
        self._fonts = fonts
        self._keepalive = keepalive
        self._native_fonts = native_fonts
        self._form_keys: dict[Any, int] = {}
        self.images: list[dict[str, Any]] = []
        self.missing = self._table(missing_font(fonts))

    #: What the native side makes each text run with (its size rounded to two decimals).
    text_run = TextRun

    def _table(self, font: Font) -> Any:
        table = self._native_fonts.get(id(font))
        if table is None:
            table = native_font(self._native, font)
            self._native_fonts[id(font)] = table
        return table

    def _scope(self, resources: Any) -> int:
        index = self._scope_ids.get(id(resources))
        if index is None:
            index = len(self.scopes)
            self.scopes.append(resources)
            self._scope_ids[id(resources)] = index
        return index

    def font(self, scope: int, name: str) -> Any:
        font = font_for(self.scopes[scope], name, self._fonts, self._keepalive)
        return None if font is None else self._table(font)

    def xobject(self, scope: int, name: str) -> tuple[Any, ...] | None:
        found = lookup_xobject(self.scopes[scope], name)
        if found is None:
            return None
        xobj, ref = found
        subtype = get(xobj, "/Subtype")
        off = self._layers.hidden(dict.get(xobj, "/OC"))
        if subtype == "/Image":
            self.images.append(image_info(xobj, ref, name))
            return ("image", len(self.images) - 1, image_opaque(xobj), off)
        if subtype != "/Form":
            return None
        key = self._form_keys.setdefault(form_key(xobj, ref), len(self._form_keys))
        data: bytes | None = None
        error: str | None = None
        try:
            data = xobj.get_data()
        except Exception as exc:
            error = str(exc)[:120]
        resources = get(xobj, "/Resources")
        scope_id = self._scope(resources) if isinstance(resources, dict) else None
        return ("form", key, data, error, form_matrix(xobj), form_bbox(xobj), scope_id, off)

    def gstate(self, scope: int, name: str) -> GStateParams:
        return ext_gstate(self.scopes[scope], name)

    def colour_components(self, scope: int, name: str) -> int:
        return colour_components(self.scopes[scope], name)

    def properties(self, scope: int, name: str) -> tuple[str | None, bool, int]:
        """The property list's ``/ActualText``, whether the default view hides it as
        optional content (the interpreter applies that to ``/OC`` marked content only), and
        its ``/MCID`` (``-1``: none)."""
        raw = property_list(self.scopes[scope], name)
        props = resolve(raw)
        return actual_text_of(props), self._layers.hidden(raw), mcid_of(props)

    def layer_off(self, value: Any) -> bool:
        return self._layers.hidden(value)

    def text_string(self, raw: bytes) -> str:
        return visual_cluster(decode_text_string(raw))


def limits() -> tuple[
    int, int, int, int, int, float, float, int, int, int, float, tuple[float, float]
]:
    """The Python interpreter's limits and thresholds, as the native one takes them (the
    last two in a tuple of their own: the binding takes tuples of at most twelve)."""
    return (
        interpreter.MAX_OPERATIONS,
        interpreter.MAX_FORM_DEPTH,
        interpreter.MAX_FORM_INVOCATIONS,
        interpreter.MAX_RULES,
        interpreter.MAX_PROBLEMS,
        interpreter.SPACE_GAP_EM,
        interpreter.SPLIT_GAP_EM,
        interpreter.MAX_PAINTED,
        interpreter.MAX_PATH_RECTS,
        interpreter.MAX_UNMAPPED_BOXES,
        interpreter.PIECE_GAP_EM,
        (interpreter.SPACE_TOUCH_EM, interpreter.TAKEN_BACK_SHARE),
    )


def budget() -> tuple[int, int, int, int, int, int]:
    """The rest of the Python interpreter's work budget, as the native one takes it."""
    return (
        interpreter.MAX_CONTENT_BYTES,
        interpreter.MAX_GLYPHS,
        interpreter.MAX_RUNS,
        interpreter.MAX_IMAGES,
        interpreter.MAX_INLINE_BYTES,
        interpreter.MAX_INLINE_IMAGE,
    )


def read_page(
    native: Any,
    content: PageContent,
    data: bytes,
    resources: Any,
    base: Matrix,
    deadline: float,
    fonts: FontCache,
    keepalive: list[Any],
    native_fonts: NativeFonts,
    layers: Layers,
) -> BaseException | str | None:
    """Interpret ``data`` into ``content`` natively. Returns what stopped the page early, as
    the Python interpreter raises it: a ``PageTimeout`` message or an exception. A failure of
    the native code itself, there or in a native call the resolver made (``_native.Fault``),
    is raised before ``content`` is changed."""
    resolver = Resolver(native, resources, fonts, keepalive, native_fonts, layers)
    result = native.interpret(
        data,
        resolver,
        content.width,
        content.height,
        base,
        # Never negative: a deadline already past stops at the first check, as in Python (and
        # a negative duration would panic in Rust).
        max(deadline - time.monotonic(), 0.0),
        content.problems,
        limits(),
        budget(),
    )
    (runs, looks, paints, painted_full, images, rules, counts, unmapped_boxes, problems,
     incomplete, stop) = result  # fmt: skip
    if stop is not None and isinstance(stop[1], _native.Fault):
        raise stop[1]
    paths, glyphs, unmapped, ops = counts
    content.operators += ops
    placements: list[ImagePlacement] = []
    for kind, payload, bbox, linear in images:
        if kind == "x":
            orientation = placement_orientation(*linear)
            info = resolver.images[payload]
            placements.append(ImagePlacement(bbox=bbox, orientation=orientation, **info))
        else:
            params, image = payload
            placements.append(inline_placement(params, image, bbox, linear))
    content.images.extend(placements)
    # The looks and paints as the native side made them: tuples in Look's and Paint's field
    # order, which sort_runs reads by position (no named tuple made for each).
    problem = sort_runs(content, zip(runs, looks, strict=True), paints, not painted_full)
    content.rules.extend(rules)
    content.paths += paths
    content.glyphs += glyphs
    content.unmapped_glyphs += unmapped
    content.unmapped_boxes.extend(unmapped_boxes)
    content.problems[:] = problems
    if problem is not None:
        interpreter.add_problem(content.problems, problem)
    if incomplete:
        content.incomplete = True
    if stop is None:
        return None
    kind, what = stop
    return str(what) if kind == "timeout" else what
