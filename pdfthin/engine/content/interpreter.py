"""The content-stream interpreter: operators in, positioned text runs and image placements out.

It keeps just the state text extraction needs: the graphics state stack (CTM, clip box, text
state, colours and opacity as far as seeing text depends on them), the text and line matrices,
the marked-content stack (for ``/Artifact``, ``/ActualText`` and optional content) and the
current path (for clip boxes, ruling lines and painted areas). Glyph outlines are ignored. It
reports every run it draws with how it is drawn, and every area it paints, and leaves what a
reader would see to :mod:`~pdfthin.engine.content.visibility`.

Every limit that protects against hostile input lives here: Form XObject depth and cycles, the
page's work budget (operators, content bytes, glyphs, text runs, images, inline image bytes and
Form invocations, each counted as the work is done) and a wall-clock deadline. When one is hit
the page keeps what was read and is marked incomplete, with a problem naming the limit.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from typing import Any

from pypdf.generic import DictionaryObject, IndirectObject, StreamObject

from pdfthin.engine.content.bidi import visual_cluster
from pdfthin.engine.content.layers import NO_LAYERS, Layers
from pdfthin.engine.content.lexer import INLINE_NAMES, iter_operations
from pdfthin.engine.content.visibility import Look, Paint, Rgb, rgb, sort_runs
from pdfthin.engine.fonts.font import UNMAPPED, Font, load_font
from pdfthin.engine.objects import get, num, resolve, truthy
from pdfthin.engine.streams import read_once
from pdfthin.engine.types import ImagePlacement, PageContent, TextRun

Matrix = tuple[float, float, float, float, float, float]
Box = tuple[float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

#: The page's work budget (docs/design.md, invariant 13). Each is counted as the work is done,
#: a Form XObject's content each time the form is drawn, and stops the page where it is reached
#: (the native interpreter counts the same things at the same points). Operators interpreted:
MAX_OPERATIONS = 4_000_000
#: Bytes of content streams interpreted (the page's, and each form's each time it is drawn).
MAX_CONTENT_BYTES = 64 << 20
#: Glyphs shown (each code of a shown string).
MAX_GLYPHS = 1_000_000
#: Text runs made, seen or hidden (what layout and the hidden-text report get).
MAX_RUNS = 100_000
#: Images placed (XObjects and inline images).
MAX_IMAGES = 10_000
#: Bytes of inline images kept (each image's first MAX_INLINE_IMAGE bytes).
MAX_INLINE_BYTES = 16 << 20
#: Form XObjects drawn.
MAX_FORM_INVOCATIONS = 10_000
MAX_FORM_DEPTH = 16
MAX_RULES = 20_000
MAX_PROBLEMS = 20
#: Inline images are small by definition (the specification advises under 4 KB); keep at most
#: this much of one for ``get_image``.
MAX_INLINE_IMAGE = 1 << 20
#: A gap inside a TJ array wider than this many ems is a space; wider than the second, a
#: separate run (table columns set with one TJ).
SPACE_GAP_EM = 0.15
#: A gap inside a TJ array wider than this many ems may stand between two table cells (two
#: numbers set an em and a half apart; the gap is the blank advance between two inked glyphs,
#: trailing spaces of a simple font included): the interpreter cuts the run there and marks the
#: next one ``joined``; content/pieces.py joins the two back unless the gap stands between
#: two values. Wider than any word space of justified text, narrower than ``SPLIT_GAP_EM``.
PIECE_GAP_EM = 1.25
#: Painted areas remembered (what lies beneath and over text); past this many (a map, a
#: chart) what is painted where is not told, and text is read wherever it stands.
MAX_PAINTED = 10_000
SPLIT_GAP_EM = 2.5
#: Character spacing (``Tc``) wider than ``SPACE_GAP_EM`` that a ``TJ`` array's kerns take
#: back, by at least this share of it after some glyph, spaces only the glyphs it is not
#: taken back after: a producer that sets "1 Scope" as ``1.8 Tc [(1S)1806(c)1805(o)...]``.
#: Each glyph is then its own string and the spacing a displacement after it, so that the
#: gap shows (letter-spaced text, its spacing taken back nowhere, stays one word).
TAKEN_BACK_SHARE = 0.5
#: A blank string shown within this many ems of where the last run ended is that run's
#: trailing space (see ``Interpreter._blank``).
SPACE_TOUCH_EM = 0.25
#: A soft mask's group is looked at (to tell a mask that hides everything) up to this many
#: bytes of content and operators; a larger one is taken to let everything through.
MAX_MASK_BYTES = 64 * 1024
MAX_MASK_OPERATIONS = 10_000
#: Rectangles of one path kept as painted areas of their own; a path of more is one area.
MAX_PATH_RECTS = 64
#: Boxes of unmapped glyphs kept per page (``PageContent.unmapped_boxes``); past them, each
#: further box and its count go into the last one kept.
MAX_UNMAPPED_BOXES = 256


class LimitProblem(str):
    """A page's problem that is a limit reached, not damage in the file: reading again with a
    larger limit may read what it left out."""


class PageTimeout(Exception):
    pass


def mult(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n`` (row-vector convention of the PDF specification)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (
        a * a2 + b * c2,
        a * b2 + b * d2,
        c * a2 + d * c2,
        c * b2 + d * d2,
        e * a2 + f * c2 + e2,
        e * b2 + f * d2 + f2,
    )


#: How far a run's advance may lean off an axis and still run along it (the tangent: 0.05 is
#: about 3 degrees).
MAX_TILT = 0.05
#: How far its glyphs' "up" may lean off the normal of their baseline: an oblique or a
#: synthetic italic (a sheared text matrix, typically 10 to 20 degrees) is upright text on
#: its line, not turned text (tangent of 30 degrees). The kernel's ``quarter_turn`` uses the
#: same two numbers.
MAX_SLANT = 0.58


def quarter_turn(run_x: float, run_y: float, up_x: float, up_y: float) -> int:
    """The direction of a run from its advance and its glyphs' "up" (display space, y down):
    ``0`` upright (advancing right, tops up, slanted or not), ``3``/``4``/``5`` turned a
    quarter, a half or three quarters clockwise, ``2`` anything else (tilted, mirrored)."""
    if run_x > 0 and abs(run_y) <= MAX_TILT * run_x and up_y < 0 and abs(up_x) <= MAX_SLANT * -up_y:
        return 0
    if run_y > 0 and abs(run_x) <= MAX_TILT * run_y and up_x > 0 and abs(up_y) <= MAX_SLANT * up_x:
        return 3
    if run_x < 0 and abs(run_y) <= MAX_TILT * -run_x and up_y > 0 and abs(up_x) <= MAX_SLANT * up_y:
        return 4
    if (
        run_y < 0
        and abs(run_x) <= MAX_TILT * -run_y
        and up_x < 0
        and abs(up_y) <= MAX_SLANT * -up_x
    ):
        return 5
    return 2


def display_matrix(box: tuple[float, float, float, float], rotation: int) -> Matrix:
    """User space -> displayed page (top-left origin, y down, ``/Rotate`` applied)."""
    llx, lly, urx, ury = box
    if rotation == 90:
        return (0.0, 1.0, 1.0, 0.0, -lly, -llx)
    if rotation == 180:
        return (-1.0, 0.0, 0.0, 1.0, urx, -lly)
    if rotation == 270:
        return (0.0, -1.0, -1.0, 0.0, ury, urx)
    return (1.0, 0.0, 0.0, -1.0, -llx, ury)


#: What a graphics state parameter dictionary sets, as far as seeing depends on it: fill
#: and stroke opacity, the soft mask's estimated opacity (1.0 for ``/None``), and whether
#: it blends normally; ``None`` where it does not set that entry.
GStateParams = tuple[float | None, float | None, float | None, bool | None]

_NO_PARAMS: GStateParams = (None, None, None, None)
_NORMAL_BLENDS = ("/Normal", "/Compatible")


def _unit(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return min(max(float(value), 0.0), 1.0)
    return None


def ext_gstate(resources: Any, name: Any) -> GStateParams:
    """What the graphics state parameter dictionary ``name`` of ``resources`` sets."""
    if not isinstance(name, str):
        return _NO_PARAMS
    params = get(get(resources, "/ExtGState"), name)
    if not isinstance(params, dict):
        return _NO_PARAMS
    mask: float | None = None
    smask = get(params, "/SMask")
    if smask == "/None":
        mask = 1.0
    elif isinstance(smask, dict):
        mask = soft_mask_opacity(smask)
    blend = get(params, "/BM")
    if isinstance(blend, list) and blend:
        blend = resolve(blend[0])
    normal = None if blend is None else blend in _NORMAL_BLENDS
    return _unit(get(params, "/ca")), _unit(get(params, "/CA")), mask, normal


_LUMINANCE = (0.2126, 0.7152, 0.0722)
_FILLS = frozenset({b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"})
_STROKES = frozenset({b"S", b"s", b"B", b"B*", b"b", b"b*"})
_MASK_HARMLESS = frozenset({b"q", b"Q", b"cm", b"m", b"l", b"c", b"v", b"y", b"re", b"h", b"n"})
_MASK_HARMLESS |= frozenset({b"W", b"W*", b"w", b"J", b"j", b"M", b"d", b"ri", b"i"})


def add_problem(problems: list[str], message: str) -> None:
    """One more problem of a page, unless it is known or the page has MAX_PROBLEMS."""
    if len(problems) < MAX_PROBLEMS and message not in problems:
        problems.append(message)


def _luminance(colour: Rgb) -> float:
    return sum(w * c for w, c in zip(_LUMINANCE, colour, strict=True))


def soft_mask_opacity(smask: dict[str, Any]) -> float:
    """The most a soft mask lets through, as far as it can be told cheaply: 0 when its group
    paints nothing but black (a luminosity mask) or nothing at all, else the lightest colour
    it paints; 1.0 (everything shows) whenever the group does anything else."""
    kind = get(smask, "/S")
    group = get(smask, "/G")
    if get(smask, "/TR") not in (None, "/Identity") or not isinstance(group, StreamObject):
        return 1.0
    try:
        data = read_once(group)
    except Exception:
        return 1.0
    if len(data) > MAX_MASK_BYTES:
        return 1.0
    lightest = 0.0
    if kind == "/Luminosity":
        backdrop = get(smask, "/BC")
        if isinstance(backdrop, list) and backdrop:
            colour = rgb([resolve(v) for v in backdrop], len(backdrop))
            if colour is None:
                return 1.0
            lightest = _luminance(colour)
    elif kind != "/Alpha":
        return 1.0
    fill: Rgb = (0.0, 0.0, 0.0)
    stroke: Rgb = (0.0, 0.0, 0.0)
    try:
        for count, (op, operands) in enumerate(iter_operations(data)):
            if count >= MAX_MASK_OPERATIONS:
                return 1.0
            if op in (b"g", b"rg", b"k", b"G", b"RG", b"K"):
                colour = rgb(operands, {b"g": 1, b"rg": 3, b"k": 4}[op.lower()])
                if colour is None:
                    return 1.0
                if op.islower():
                    fill = colour
                else:
                    stroke = colour
                continue
            painted = [c for c, ops in ((fill, _FILLS), (stroke, _STROKES)) if op in ops]
            if painted:
                if kind == "/Alpha":
                    return 1.0  # a group's alpha where it paints is its own opacity: unknown
                for colour in painted:
                    lightest = max(lightest, _luminance(colour))
                continue
            if op not in _MASK_HARMLESS:
                return 1.0  # text, images, shadings, other colour spaces: cannot tell
    except Exception:
        return 1.0
    return lightest


_DEVICE_COMPONENTS = {"/DeviceGray": 1, "/DeviceRGB": 3, "/DeviceCMYK": 4}
_FAMILY_COMPONENTS = {"/CalGray": 1, "/CalRGB": 3, "/DeviceGray": 1, "/DeviceRGB": 3}


def colour_components(resources: Any, name: Any) -> int:
    """1, 3 or 4 for a grey, RGB or CMYK-like colour space named ``name``; 0 otherwise."""
    if not isinstance(name, str):
        return 0
    if name in _DEVICE_COMPONENTS:
        return _DEVICE_COMPONENTS[name]
    space = get(get(resources, "/ColorSpace"), name)
    if isinstance(space, str):
        return _DEVICE_COMPONENTS.get(space, 0)
    if not isinstance(space, list) or not space:
        return 0
    family = resolve(space[0])
    if family == "/ICCBased" and len(space) > 1:
        n = get(resolve(space[1]), "/N")
        return int(n) if isinstance(n, int) and not isinstance(n, bool) and n in (1, 3, 4) else 0
    if family == "/DeviceCMYK":
        return 4
    return _FAMILY_COMPONENTS.get(family, 0) if isinstance(family, str) else 0


def decode_text_string(raw: Any) -> str:
    """A PDF text string (``/ActualText``, titles): UTF-16 with BOM, UTF-8 with BOM, or
    PDFDocEncoding."""
    if isinstance(raw, str):
        return raw
    if not isinstance(raw, bytes):
        return ""
    if raw[:2] == b"\xfe\xff":
        return raw[2:].decode("utf-16-be", errors="replace")
    if raw[:2] == b"\xff\xfe":
        return raw[2:].decode("utf-16-le", errors="replace")
    if raw[:3] == b"\xef\xbb\xbf":
        return raw[3:].decode("utf-8", errors="replace")
    from pdfthin.engine.fonts.encodings import PDF_DOC

    return "".join(PDF_DOC[b] or "" for b in raw)


_BLACK: Rgb = (0.0, 0.0, 0.0)


class _GState:
    __slots__ = (
        "clip",
        "clip_exact",
        "ctm",
        "fill",
        "fill_alpha",
        "fill_n",
        "font",
        "fs",
        "lw",
        "mask",
        "normal",
        "stroke",
        "stroke_alpha",
        "stroke_n",
        "tc",
        "th",
        "tl",
        "tr",
        "ts",
        "tw",
    )

    def __init__(self, ctm: Matrix, clip: tuple[float, float, float, float] | None) -> None:
        self.ctm = ctm
        self.clip = clip
        # The clipping region is its box (clipped by rectangles square to the page only).
        self.clip_exact = True
        # Colour, as far as seeing text depends on it: an sRGB estimate (``None``: a colour
        # that cannot be told), and how many components the colour space takes (1, 3, 4:
        # grey, RGB, CMYK; 0: any other).
        self.fill: Rgb | None = _BLACK
        self.stroke: Rgb | None = _BLACK
        self.fill_n = 1
        self.stroke_n = 1
        self.lw = 1.0
        # Opacity (an ExtGState's /ca, /CA), a soft mask's estimated opacity, and whether
        # paint blends normally (a multiplied highlight does not hide what is beneath).
        self.fill_alpha = 1.0
        self.stroke_alpha = 1.0
        self.mask = 1.0
        self.normal = True
        self.font: Font | None = None
        self.fs = 0.0
        self.tc = 0.0
        self.tw = 0.0
        self.th = 1.0
        self.tl = 0.0
        self.ts = 0.0
        self.tr = 0

    def copy(self) -> _GState:
        g = _GState(self.ctm, self.clip)
        g.font = self.font
        g.fs = self.fs
        g.tc = self.tc
        g.tw = self.tw
        g.th = self.th
        g.tl = self.tl
        g.ts = self.ts
        g.tr = self.tr
        g.clip_exact = self.clip_exact
        g.fill = self.fill
        g.stroke = self.stroke
        g.fill_n = self.fill_n
        g.stroke_n = self.stroke_n
        g.lw = self.lw
        g.fill_alpha = self.fill_alpha
        g.stroke_alpha = self.stroke_alpha
        g.mask = self.mask
        g.normal = self.normal
        return g


class _Marked:
    __slots__ = ("actual", "artifact", "emitted", "layer_off", "mcid")

    def __init__(
        self, artifact: bool, actual: str | None, layer_off: bool = False, mcid: int = -1
    ) -> None:
        self.artifact = artifact
        self.actual = actual
        self.layer_off = layer_off
        self.mcid = mcid
        self.emitted = False


FontCache = dict[Any, Font]


def _font_key(ref: Any, obj: Any) -> Any:
    if isinstance(ref, IndirectObject):
        return (ref.idnum, ref.generation)
    return id(obj)


# --- resource look-ups shared with the native path (native_page.py) ----------------------


def font_for(resources: Any, name: Any, fonts: FontCache, keepalive: list[Any]) -> Font | None:
    """The font named ``name`` in ``resources`` (loaded once, kept in ``fonts``)."""
    font_dicts = get(resources, "/Font")
    if not isinstance(font_dicts, dict) or not isinstance(name, str):
        return None
    try:
        ref = dict.get(font_dicts, name)
    except Exception:
        return None
    obj = resolve(ref)
    if obj is None:
        return None
    key = _font_key(ref, obj)
    font = fonts.get(key)
    if font is None:
        font = load_font(obj)
        fonts[key] = font
        keepalive.append(obj)
    return font


def missing_font(fonts: FontCache) -> Font:
    """The stand-in for a font that is not there: every code unmapped."""
    font = fonts.get("__missing__")
    if font is None:
        font = Font("missing")
        font.trans = dict.fromkeys(range(256), UNMAPPED)
        fonts["__missing__"] = font
    return font


def lookup_xobject(resources: Any, name: Any) -> tuple[StreamObject, Any] | None:
    """The XObject stream named ``name`` in ``resources`` and its reference."""
    xobjects = get(resources, "/XObject")
    if not isinstance(xobjects, dict) or not isinstance(name, str):
        return None
    try:
        ref = dict.get(xobjects, name)
    except Exception:
        return None
    xobj = resolve(ref)
    if not isinstance(xobj, StreamObject):
        return None
    return xobj, ref


def form_key(xobj: Any, ref: Any) -> Any:
    return (ref.idnum, ref.generation) if isinstance(ref, IndirectObject) else id(xobj)


def form_matrix(xobj: Any) -> Matrix | None:
    matrix = get(xobj, "/Matrix")
    if isinstance(matrix, list) and len(matrix) == 6:
        return tuple(num(resolve(v), 0.0) for v in matrix)  # type: ignore[return-value]
    return None


def form_bbox(xobj: Any) -> tuple[float, float, float, float] | None:
    bbox = get(xobj, "/BBox")
    if isinstance(bbox, list) and len(bbox) == 4:
        return tuple(num(resolve(v), 0.0) for v in bbox)  # type: ignore[return-value]
    return None


def image_info(xobj: Any, ref: Any, name: str) -> dict[str, Any]:
    """An image XObject's placement fields, all but its box."""
    filters = get(xobj, "/Filter")
    if isinstance(filters, str):
        filter_names: tuple[str, ...] = (filters,)
    elif isinstance(filters, list):
        filter_names = tuple(str(resolve(f)) for f in filters[:8])
    else:
        filter_names = ()
    cs = get(xobj, "/ColorSpace")
    if isinstance(cs, list) and cs:
        cs_name = str(resolve(cs[0]))
    else:
        cs_name = str(cs) if cs is not None else ""
    return {
        "width": int(num(get(xobj, "/Width"), 0)),
        "height": int(num(get(xobj, "/Height"), 0)),
        "bits_per_component": int(num(get(xobj, "/BitsPerComponent"), 0)),
        "color_space": cs_name,
        "filters": filter_names,
        "ref": (ref.idnum, ref.generation) if isinstance(ref, IndirectObject) else None,
        "name": name,
        "image_mask": truthy(get(xobj, "/ImageMask")),
    }


def image_opaque(xobj: Any) -> bool:
    """Does the image hide what is beneath its box (no mask of any kind)?"""
    return not (
        truthy(get(xobj, "/ImageMask"))
        or dict.get(xobj, "/SMask") is not None
        or dict.get(xobj, "/Mask") is not None
    )


#: How far from zero, relative to the CTM's largest linear entry, an entry may be and still
#: count as zero for :func:`placement_orientation` (a writer's ``6.1e-17`` for cos 90°).
ORIENTATION_TOLERANCE = 1e-6

# Exif orientations by (sign of a, sign of d) when b and c are zero, and by (sign of b, sign
# of c) when a and d are: see placement_orientation.
_STRAIGHT = {(1, -1): 1, (-1, -1): 2, (-1, 1): 3, (1, 1): 4}
_ACROSS = {(1, -1): 5, (1, 1): 6, (-1, 1): 7, (-1, -1): 8}


def placement_orientation(a: float, b: float, c: float, d: float) -> int:
    """The Exif orientation (:attr:`ImagePlacement.orientation`) of an image drawn with a CTM
    whose linear part is ``a b c d``, the CTM mapping to the page as displayed (y down): the
    image's first row is the unit square's top (y = 1), so an upright picture has ``a > 0``
    and ``d < 0``. 0 when the square is not turned by a multiple of 90 degrees (or is flat)."""
    scale = max(abs(a), abs(b), abs(c), abs(d))
    if not math.isfinite(scale) or scale == 0:
        return 0
    zero = scale * ORIENTATION_TOLERANCE

    def sign(value: float) -> int:
        return 0 if abs(value) <= zero else (1 if value > 0 else -1)

    sa, sb, sc, sd = sign(a), sign(b), sign(c), sign(d)
    if sb == 0 and sc == 0:
        return _STRAIGHT.get((sa, sd), 0)
    if sa == 0 and sd == 0:
        return _ACROSS.get((sb, sc), 0)
    return 0


def inline_placement(
    params: dict[str, Any],
    image: bytes,
    bbox: tuple[float, float, float, float],
    linear: tuple[float, float, float, float],
) -> ImagePlacement:
    """An inline image's placement from its parameters (full key names) and bytes, its box
    and the CTM's linear part where it is drawn."""
    filters = params.get("/Filter")
    if isinstance(filters, str):
        filter_names: tuple[str, ...] = (INLINE_NAMES.get(filters, filters),)
    elif isinstance(filters, list):
        filter_names = tuple(INLINE_NAMES.get(str(f), str(f)) for f in filters)
    else:
        filter_names = ()
    cs = params.get("/ColorSpace", "")
    if isinstance(cs, list) and cs:
        cs = cs[0]
    return ImagePlacement(
        bbox=bbox,
        width=int(num(params.get("/Width"), 0)),
        height=int(num(params.get("/Height"), 0)),
        bits_per_component=int(num(params.get("/BitsPerComponent"), 0)),
        color_space=INLINE_NAMES.get(str(cs), str(cs)),
        filters=filter_names,
        ref=None,
        name="inline",
        inline=True,
        image_mask=params.get("/ImageMask") is True,
        inline_data=image[:MAX_INLINE_IMAGE],
        inline_params=params,
        orientation=placement_orientation(*linear),
    )


def property_list(resources: Any, name: str) -> Any:
    """The property list (or reference to it) named ``name`` in ``resources``."""
    properties = get(resources, "/Properties")
    return dict.get(properties, name) if isinstance(properties, dict) else None


#: The largest marked-content id read: ids index a page's entry of the structure tree's parent
#: tree, so a real one is small; a larger number is damage, read as no id.
MAX_MCID = 1_000_000_000


def mcid_of(props: Any) -> int:
    """A marked-content property list's ``/MCID``: a whole number from 0 to ``MAX_MCID``, or
    ``-1`` (none, or not such a number)."""
    if not isinstance(props, dict):
        return -1
    raw = props.get("/MCID")
    if raw is None:
        return -1
    value = resolve(raw)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return -1
    if not 0 <= value <= MAX_MCID or value != int(value):
        return -1
    return int(value)


def actual_text_of(props: Any) -> str | None:
    """A marked-content property list's ``/ActualText``, decoded (``None`` without one)."""
    if not isinstance(props, dict):
        return None
    raw = props.get("/ActualText")
    if raw is None:
        return None
    raw = resolve(raw)
    # Logical text for glyphs drawn in visual order: stored visually, like a glyph's mapping.
    return visual_cluster(decode_text_string(raw if isinstance(raw, (bytes, str)) else None))


class Interpreter:
    """Interprets one page (and the Form XObjects it draws)."""

    def __init__(
        self,
        page: PageContent,
        base: Matrix,
        fonts: FontCache,
        deadline: float,
        keepalive: list[Any],
        layers: Layers = NO_LAYERS,
    ) -> None:
        self.page = page
        self.layers = layers
        self.fonts = fonts
        self.deadline = deadline
        self._keepalive = keepalive  # objects whose id() keys the font cache
        self.gs = _GState(base, (0.0, 0.0, page.width, page.height))
        self.stack: list[_GState] = []
        self.tm: Matrix = IDENTITY
        self.tlm: Matrix = IDENTITY
        self.marked: list[_Marked] = []
        self.artifact_depth = 0
        # The page's marked-content id in effect (TextRun.mcid): kept current as marked
        # content opens and closes, so a run reads it without looking at the stack.
        self.mcid = -1
        self.actual_depth = 0
        self.ops = 0
        self.forms = 0
        # the rest of the page's work budget, as counted so far
        self.content_bytes = 0
        self.inline_bytes = 0
        self.form_stack: list[Any] = []
        self.resources: Any = None
        # current path: device-space bounding box and candidate ruling segments
        self.path_box: list[float] | None = None
        self.path_segments: list[tuple[float, float, float, float]] = []
        self.path_start: tuple[float, float] = (0.0, 0.0)
        self.path_point: tuple[float, float] = (0.0, 0.0)
        self.pending_clip = False
        # The current path's rectangles (device boxes), while it has nothing but rectangles:
        # what a fill of it paints, when they are square to the page and do not overlap.
        self.path_rects: list[tuple[float, float, float, float]] = []
        self.path_other = False
        # Every text run drawn, with how it is drawn, and every area painted, in order: what
        # a reader sees is decided from them at the end (visibility.sort_runs).
        self.drawn: list[tuple[TextRun, Look]] = []
        # Where the last run drawn ends on the page (device x, y) and its size: a blank string
        # shown there is its trailing space (_blank).
        self.last_end: tuple[float, float, float] | None = None
        self.paints: list[Paint] = []
        self.painted_full = False
        # Inside this many optional content groups that the default view hides.
        self.layer_off = 0
        self._gstates: dict[tuple[int, str], GStateParams] = {}
        # Fonts found by (resources, name) on this page: a page sets its fonts thousands of
        # times, and each look-up would ask pypdf again for the same dictionaries.
        self._page_fonts: dict[tuple[int, str], Font] = {}
        # Colour spaces' components by (resources, name), for the same reason.
        self._spaces: dict[tuple[int, str], int] = {}
        self.seq = 0
        self.ops_table: dict[bytes, Callable[[list[Any]], None]] = {
            b"BT": self._bt,
            b"ET": self._et,
            b"Tf": self._tf,
            b"Tj": self._tj,
            b"TJ": self._tj_array,
            b"'": self._quote,
            b'"': self._dquote,
            b"Td": self._td,
            b"TD": self._td_leading,
            b"Tm": self._tm,
            b"T*": self._tstar,
            b"Tc": self._tc,
            b"Tw": self._tw,
            b"Tz": self._tz,
            b"TL": self._tl,
            b"Ts": self._ts,
            b"Tr": self._tr,
            b"q": self._q,
            b"Q": self._Q,
            b"cm": self._cm,
            b"Do": self._do,
            b"BI": self._inline_image,
            b"BMC": self._bmc,
            b"BDC": self._bdc,
            b"EMC": self._emc,
            b"m": self._moveto,
            b"l": self._lineto,
            b"c": self._curveto,
            b"v": self._curveto,
            b"y": self._curveto,
            b"re": self._rect,
            b"h": self._closepath,
            b"W": self._clip,
            b"W*": self._clip,
            b"n": self._endpath,
            b"S": self._stroke,
            b"s": self._stroke,
            b"f": self._fill,
            b"F": self._fill,
            b"f*": self._fill,
            b"B": self._fill_stroke,
            b"B*": self._fill_stroke,
            b"b": self._fill_stroke,
            b"b*": self._fill_stroke,
            b"sh": self._shading,
            b"w": self._line_width,
            b"gs": self._ext_gstate,
            b"g": functools.partial(self._device_colour, 1, True),
            b"G": functools.partial(self._device_colour, 1, False),
            b"rg": functools.partial(self._device_colour, 3, True),
            b"RG": functools.partial(self._device_colour, 3, False),
            b"k": functools.partial(self._device_colour, 4, True),
            b"K": functools.partial(self._device_colour, 4, False),
            b"cs": self._colour_space,
            b"CS": self._colour_space_stroke,
            b"sc": self._colour,
            b"scn": self._colour,
            b"SC": self._colour_stroke,
            b"SCN": self._colour_stroke,
            b"d0": self._type3_glyph,
            b"d1": self._type3_glyph,
        }

    # --- driving -------------------------------------------------------------------------

    def run(self, data: bytes, resources: Any) -> None:
        self.resources = resources
        self._content(data)
        self._execute(data)
        self._finish()

    def _content(self, data: bytes) -> None:
        self.content_bytes += len(data)
        if self.content_bytes > MAX_CONTENT_BYTES:
            raise PageTimeout(
                f"more than {MAX_CONTENT_BYTES} bytes of content on the page (Form XObjects "
                "counted each time they are drawn)"
            )

    def _execute(self, data: bytes) -> None:
        table = self.ops_table
        for op, operands in iter_operations(data):
            self.ops += 1
            if not self.ops & 0x7FF:
                if time.monotonic() > self.deadline:
                    raise PageTimeout("time limit reached while reading the page")
                if self.ops > MAX_OPERATIONS:
                    raise PageTimeout(f"more than {MAX_OPERATIONS} operators on the page")
            handler = table.get(op)
            if handler is None:
                continue
            try:
                handler(operands)
            except (IndexError, TypeError, ValueError, ZeroDivisionError, OverflowError) as exc:
                self._problem(f"bad operands for {op.decode('latin-1')}: {exc}")

    def _problem(self, message: str) -> None:
        add_problem(self.page.problems, message)

    def _finish(self) -> None:
        """What a reader would see of the runs drawn (visibility.sort_runs)."""
        problem = sort_runs(self.page, self.drawn, self.paints, not self.painted_full)
        if problem is not None:
            self._problem(problem)
        self.drawn = []
        self.last_end = None
        self.paints = []

    # --- text state ----------------------------------------------------------------------

    def _bt(self, _: list[Any]) -> None:
        self.tm = IDENTITY
        self.tlm = IDENTITY

    def _et(self, _: list[Any]) -> None:
        pass

    def _tf(self, operands: list[Any]) -> None:
        name, size = operands[-2], operands[-1]
        self.gs.fs = float(size)
        font = self._font(name)
        if font is None:
            # Without its font the codes mean nothing: count them as unmapped glyphs rather
            # than guessing (a guess would put garbage in front of the reader as text).
            font = self._missing_font()
            self._problem(f"font {name} is missing from the page resources")
        self.gs.font = font

    def _font(self, name: Any) -> Font | None:
        if not isinstance(name, str):
            return None  # as font_for answers it
        key = (id(self.resources), name)
        font = self._page_fonts.get(key)
        if font is None:
            font = font_for(self.resources, name, self.fonts, self._keepalive)
            if font is not None:  # a missing font is looked for again: it is reported each time
                self._page_fonts[key] = font
        return font

    def _tc(self, operands: list[Any]) -> None:
        self.gs.tc = float(operands[-1])

    def _tw(self, operands: list[Any]) -> None:
        self.gs.tw = float(operands[-1])

    def _tz(self, operands: list[Any]) -> None:
        self.gs.th = float(operands[-1]) / 100.0

    def _tl(self, operands: list[Any]) -> None:
        self.gs.tl = float(operands[-1])

    def _ts(self, operands: list[Any]) -> None:
        self.gs.ts = float(operands[-1])

    def _tr(self, operands: list[Any]) -> None:
        self.gs.tr = int(operands[-1])

    def _td(self, operands: list[Any]) -> None:
        tx, ty = float(operands[-2]), float(operands[-1])
        a, b, c, d, e, f = self.tlm
        self.tlm = self.tm = (a, b, c, d, e + tx * a + ty * c, f + tx * b + ty * d)

    def _td_leading(self, operands: list[Any]) -> None:
        self.gs.tl = -float(operands[-1])
        self._td(operands)

    def _tm(self, operands: list[Any]) -> None:
        a, b, c, d, e, f = (float(x) for x in operands[-6:])
        self.tlm = self.tm = (a, b, c, d, e, f)

    def _tstar(self, _: list[Any]) -> None:
        self._td([0.0, -self.gs.tl])

    def _quote(self, operands: list[Any]) -> None:
        self._tstar(operands)
        self._show([operands[-1]])

    def _dquote(self, operands: list[Any]) -> None:
        self.gs.tw = float(operands[-3])
        self.gs.tc = float(operands[-2])
        self._tstar(operands)
        self._show([operands[-1]])

    def _tj(self, operands: list[Any]) -> None:
        self._show([operands[-1]])

    def _tj_array(self, operands: list[Any]) -> None:
        items = operands[-1]
        if isinstance(items, list):
            self._show(items)

    # --- showing text --------------------------------------------------------------------

    def _show(self, items: list[Any]) -> None:
        gs = self.gs
        font = gs.font
        if font is None:  # text before any Tf: no font to decode it with
            font = self._missing_font()
        fs = gs.fs
        th = gs.th
        tc = gs.tc
        tw = gs.tw
        vertical = font.vertical
        parts: list[str] = []
        start_tm = self.tm
        advance = 0.0  # along the writing direction, text space, since start_tm
        run_start = 0.0
        run_glyphs = 0
        glyphs = 0
        unmapped = 0
        # Along the writing direction: from the start of the first string holding an unmapped
        # glyph to the end of the last one (one box per show operation, see _unmapped_box).
        bad_from = bad_to = 0.0
        split_gap = SPLIT_GAP_EM * fs
        space_gap = SPACE_GAP_EM * fs
        # Under /ActualText the replacement text goes to the first run: no cut there.
        piece_gap = split_gap if self.actual_depth else PIECE_GAP_EM * fs
        wide = tc > 0.0 and fs > 0.0 and (tc if vertical else tc * th) > space_gap
        spacing = 0.0  # the last glyph's spacing: it moves the pen, no gap, no part of a run
        if wide and _takes_back(items, tc, fs):
            items, spacing = _glyph_by_glyph(items, font, -tc * 1000.0 / fs)
            tc = 0.0
        joined = False
        # Blank advance since the last inked glyph or cut: trailing spaces count as gap, so
        # "18.9 " then 1 em apart is as far from the next figure as its ink shows.
        blank = 0.0
        inked = False  # the run since the last cut shows a glyph other than a space
        for item in items:
            if isinstance(item, bytes):
                if not item:
                    continue
                text, width, spaces, count = font.decode(item)
                glyphs += count
                run_glyphs += count
                if vertical:
                    step = width * fs + tc * count + tw * spaces
                else:
                    step = (width * fs + tc * count + tw * spaces) * th
                # (only a string ending in byte 32 can end in spaces: most do not)
                trailing = font.trailing_spaces(item) if item[-1] == 32 else 0
                if trailing == len(item):
                    blank += step
                else:
                    inked = True
                    blank = (font.widths[32] * fs + tc + tw) * trailing * th if trailing else 0.0
                if UNMAPPED in text:
                    if not unmapped:
                        bad_from = advance
                    bad_to = advance + step
                    unmapped += text.count(UNMAPPED)
                    text = text.replace(UNMAPPED, "")
                parts.append(text)
                advance += step
            elif isinstance(item, (int, float)) and not isinstance(item, bool):
                shift = -float(item) / 1000.0 * fs
                if not vertical:
                    shift *= th
                if not parts:  # a leading displacement moves where the run starts
                    advance += shift
                    run_start = advance
                    continue
                tail = blank
                blank += shift
                # Spaces alone are no piece: cutting them off would break the array's chain.
                if shift > piece_gap or (blank > piece_gap and inked):
                    # Cut for its blank, a piece ends at its ink: word spacing may make a
                    # trailing space many ems wide. Cut for the displacement, it keeps the
                    # extent a cut has always had.
                    end = advance if shift > piece_gap else advance - tail
                    emitted = self._emit(
                        "".join(parts), start_tm, run_start, end, font, run_glyphs, joined
                    )
                    joined = emitted and shift <= split_gap
                    parts = []
                    run_glyphs = 0
                    blank = 0.0
                    inked = False
                    advance += shift
                    run_start = advance
                    continue
                if shift > space_gap and parts and parts[-1] and not parts[-1].endswith(" "):
                    parts.append(" ")
                advance += shift
        if parts:
            self._emit("".join(parts), start_tm, run_start, advance, font, run_glyphs, joined)
        if spacing:  # (after the run: it ends at its last glyph, the pen past its spacing)
            advance += -spacing / 1000.0 * fs if vertical else -spacing / 1000.0 * fs * th
        self.page.glyphs += glyphs
        self.page.unmapped_glyphs += unmapped
        if unmapped and not self.actual_depth:  # under /ActualText the glyphs are read
            self._unmapped_box(start_tm, bad_from, bad_to, font, unmapped)
        a, b, c, d, e, f = start_tm
        if vertical:
            self.tm = (a, b, c, d, e - advance * c, f - advance * d)
        else:
            self.tm = (a, b, c, d, e + advance * a, f + advance * b)
        if self.page.glyphs > MAX_GLYPHS:
            raise PageTimeout(f"more than {MAX_GLYPHS} glyphs on the page")

    def _missing_font(self) -> Font:
        return missing_font(self.fonts)

    def _emit(
        self,
        text: str,
        tm: Matrix,
        start: float,
        end: float,
        font: Font,
        glyphs: int,
        joined: bool = False,
    ) -> bool:
        """Keep a run of ``text`` (whether it was kept: not an empty or blank one)."""
        if self.actual_depth:
            text = self._actual_text(text)
        blank = not text or text.isspace()
        if blank and (not text or self.last_end is None):
            return False
        gs = self.gs
        fs = gs.fs
        # Text space -> device: [fs*th 0 0 fs 0 ts] x Tm x CTM, applied to the baseline points.
        m = mult(tm, gs.ctm)
        a, b, c, d, e, f = m
        ts = gs.ts
        if blank:
            if not font.vertical:
                self._blank(start * a + ts * c + e, start * b + ts * d + f)
            return False
        if font.vertical:
            ox, oy = -start * c + e, -start * d + f
            ex, ey = -end * c + e, -end * d + f
        else:
            ox = start * a + ts * c + e
            oy = start * b + ts * d + f
            ex = end * a + ts * c + e
            ey = end * b + ts * d + f
        scale_y = math.hypot(c, d)
        size = abs(fs) * scale_y * font.size_scale
        # The glyphs' "up" is text-space y scaled by the (signed) font size: a negative size
        # turns them upside down.
        up = font.ascent * fs * font.size_scale
        down = 0.22 * fs * font.size_scale
        ux, uy = c * up, d * up
        dx, dy = -c * down, -d * down
        if font.vertical:
            # A vertical line of glyphs is centred on its baseline: half an em either side.
            half = 0.5 * abs(fs)
            sx, sy = a * half, b * half
            xs = (ox - sx, ox + sx, ex - sx, ex + sx)
            ys = (oy - sy, oy + sy, ey - sy, ey + sy)
            direction = 1
        else:
            xs = (ox + ux, ox + dx, ex + ux, ex + dx)
            ys = (oy + uy, oy + dy, ey + uy, ey + dy)
            run_x, run_y = ex - ox, ey - oy
            if run_x == 0 and run_y == 0:
                run_x, run_y = a * fs * gs.th, b * fs * gs.th
            direction = quarter_turn(run_x, run_y, c * fs, d * fs)
        self.seq += 1
        if self.seq > MAX_RUNS:
            raise PageTimeout(f"more than {MAX_RUNS} text runs on the page")
        run = TextRun(
            text,
            min(xs),
            min(ys),
            max(xs),
            max(ys),
            round(size, 2),
            font.name,
            font.bold or gs.tr == 2,
            font.italic,
            direction,
            self.artifact_depth > 0,
            seq=self.seq,
            mcid=self.mcid,
            joined=joined,
        )
        # How far the glyphs advance on the page, along the baseline (negative: backwards).
        scale = math.hypot(c, d) if font.vertical else math.hypot(a, b)
        look = Look(
            gs.tr,
            gs.fill,
            gs.stroke,
            gs.fill_alpha * gs.mask,
            gs.stroke_alpha * gs.mask,
            gs.clip,
            self.layer_off > 0,
            (end - start) * scale,
            glyphs,
        )
        self.drawn.append((run, look))
        self.last_end = (ex, ey, size) if direction != 1 else None
        return True

    def _blank(self, x: float, y: float) -> None:
        """A blank string shown from ``(x, y)``: where the last run ended, it is a word space
        after that run, however narrow the gap to the next glyph (a writer that shows glyphs
        or words one at a time shows its spaces as strings of their own)."""
        assert self.last_end is not None
        ex, ey, size = self.last_end
        reach = SPACE_TOUCH_EM * size
        # (squared: the same comparison, to the bit, in the native interpreter)
        if (x - ex) * (x - ex) + (y - ey) * (y - ey) <= reach * reach:
            self.drawn[-1][0].space_after = True
        self.last_end = None

    def _unmapped_box(self, tm: Matrix, start: float, end: float, font: Font, count: int) -> None:
        """Keep where ``count`` unmapped glyphs were shown, from ``start`` to ``end`` along
        the baseline of text matrix ``tm``: the box a run of them would have (see _emit),
        in ``PageContent.unmapped_boxes``. One box per show operation, from its first string
        holding an unmapped glyph to its last: simple to make the same in the native
        interpreter, and tight enough to point at the glyphs."""
        gs = self.gs
        fs = gs.fs
        a, b, c, d, e, f = mult(tm, gs.ctm)
        if font.vertical:
            ox, oy = -start * c + e, -start * d + f
            ex, ey = -end * c + e, -end * d + f
            half = 0.5 * abs(fs)
            sx, sy = a * half, b * half
            xs = (ox - sx, ox + sx, ex - sx, ex + sx)
            ys = (oy - sy, oy + sy, ey - sy, ey + sy)
        else:
            ts = gs.ts
            ox = start * a + ts * c + e
            oy = start * b + ts * d + f
            ex = end * a + ts * c + e
            ey = end * b + ts * d + f
            up = font.ascent * fs * font.size_scale
            down = 0.22 * fs * font.size_scale
            ux, uy = c * up, d * up
            dx, dy = -c * down, -d * down
            xs = (ox + ux, ox + dx, ex + ux, ex + dx)
            ys = (oy + uy, oy + dy, ey + uy, ey + dy)
        box = (min(xs), min(ys), max(xs), max(ys))
        boxes = self.page.unmapped_boxes
        if len(boxes) < MAX_UNMAPPED_BOXES:
            boxes.append((box, count))
            return
        (x0, y0, x1, y1), n = boxes[-1]  # past the bound: joined to the last box kept
        boxes[-1] = (
            (min(x0, box[0]), min(y0, box[1]), max(x1, box[2]), max(y1, box[3])),
            n + count,
        )

    def _actual_text(self, text: str) -> str:
        # Inside /ActualText the glyphs are replaced by that text, once.
        for marked in reversed(self.marked):
            if marked.actual is not None:
                if marked.emitted:
                    return ""
                marked.emitted = True
                return marked.actual
        return text

    def _type3_glyph(self, _: list[Any]) -> None:
        pass

    # --- graphics state ------------------------------------------------------------------

    def _q(self, _: list[Any]) -> None:
        if len(self.stack) < 256:
            self.stack.append(self.gs.copy())

    def _Q(self, _: list[Any]) -> None:
        if self.stack:
            self.gs = self.stack.pop()

    def _cm(self, operands: list[Any]) -> None:
        m: Matrix = tuple(float(x) for x in operands[-6:])  # type: ignore[assignment]
        if len(m) == 6:
            self.gs.ctm = mult(m, self.gs.ctm)

    # --- paths, clipping and ruling lines ------------------------------------------------

    def _point(self, x: float, y: float) -> tuple[float, float]:
        a, b, c, d, e, f = self.gs.ctm
        return x * a + y * c + e, x * b + y * d + f

    def _extend(self, px: float, py: float) -> None:
        box = self.path_box
        if box is None:
            self.path_box = [px, py, px, py]
        else:
            if px < box[0]:
                box[0] = px
            elif px > box[2]:
                box[2] = px
            if py < box[1]:
                box[1] = py
            elif py > box[3]:
                box[3] = py

    def _moveto(self, operands: list[Any]) -> None:
        self.path_other = True
        p = self._point(float(operands[-2]), float(operands[-1]))
        self.path_start = self.path_point = p
        self._extend(*p)

    def _lineto(self, operands: list[Any]) -> None:
        self.path_other = True
        p = self._point(float(operands[-2]), float(operands[-1]))
        x0, y0 = self.path_point
        if len(self.path_segments) < 1000:
            self.path_segments.append((x0, y0, p[0], p[1]))
        self.path_point = p
        self._extend(*p)

    def _curveto(self, operands: list[Any]) -> None:
        self.path_other = True
        for i in range(0, len(operands) - 1, 2):
            self._extend(*self._point(float(operands[i]), float(operands[i + 1])))
        if len(operands) >= 2:
            self.path_point = self._point(float(operands[-2]), float(operands[-1]))
        self.path_segments.append((math.nan, 0.0, 0.0, 0.0))  # marks a curved path

    def _rect(self, operands: list[Any]) -> None:
        x, y, w, h = (float(v) for v in operands[-4:])
        p0 = self._point(x, y)
        p1 = self._point(x + w, y)
        p2 = self._point(x + w, y + h)
        p3 = self._point(x, y + h)
        for p in (p0, p1, p2, p3):
            self._extend(*p)
        if len(self.path_rects) < MAX_PATH_RECTS:
            xs = (p0[0], p1[0], p2[0], p3[0])
            ys = (p0[1], p1[1], p2[1], p3[1])
            self.path_rects.append((min(xs), min(ys), max(xs), max(ys)))
        else:
            self.path_other = True
        if len(self.path_segments) < 1000:
            self.path_segments.extend(
                (
                    (p0[0], p0[1], p1[0], p1[1]),
                    (p1[0], p1[1], p2[0], p2[1]),
                    (p2[0], p2[1], p3[0], p3[1]),
                    (p3[0], p3[1], p0[0], p0[1]),
                )
            )
        self.path_start = self.path_point = p0

    def _closepath(self, _: list[Any]) -> None:
        x0, y0 = self.path_point
        x1, y1 = self.path_start
        if (x0, y0) != (x1, y1) and len(self.path_segments) < 1000:
            self.path_segments.append((x0, y0, x1, y1))
        self.path_point = self.path_start

    def _clip(self, _: list[Any]) -> None:
        self.pending_clip = True

    def _endpath(self, _: list[Any]) -> None:
        self._paint(stroke=False, fill=False)

    def _stroke(self, _: list[Any]) -> None:
        self._paint(stroke=True, fill=False)

    def _fill(self, _: list[Any]) -> None:
        self._paint(stroke=False, fill=True)

    def _fill_stroke(self, _: list[Any]) -> None:
        self._paint(stroke=True, fill=False, filled=True)

    def _square(self) -> bool:
        """Does the current transformation keep rectangles square to the page?"""
        a, b, c, d, _, _ = self.gs.ctm
        return (b == 0 and c == 0) or (a == 0 and d == 0)

    def _straight_bar(self) -> bool:
        """Is the current path one straight segment square to the page (a stroked bar)?"""
        segments = self.path_segments
        if len(segments) != 1 or self.path_rects or not self._square():
            return False
        x0, y0, x1, y1 = segments[0]
        return not math.isnan(x0) and (x0 == x1 or y0 == y1)  # NaN: a curve's marker

    def _path_is_its_box(self) -> None:
        box = self.path_box
        if box is not None:
            self.path_rects, self.path_other = [(box[0], box[1], box[2], box[3])], False

    def _filled_areas(self) -> list[tuple[float, float, float, float]] | None:
        """The areas a fill of the current path paints exactly, or ``None`` when its box only
        bounds them (curves, slanted or overlapping shapes: overlaps may be holes)."""
        rects = self.path_rects
        if self.path_other or not rects or not self._square():
            return None
        for i, a in enumerate(rects):
            for b in rects[i + 1 :]:
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    return None
        return rects

    def _paint(self, *, stroke: bool, fill: bool, filled: bool = False) -> None:
        box = self.path_box
        gs = self.gs
        areas = self._filled_areas()
        exact = areas is not None and len(areas) == 1
        if box is not None and not self.layer_off:
            if fill or filled:
                if areas is None:
                    self._paint_area((box[0], box[1], box[2], box[3]), gs.fill, "fill", False)
                else:
                    for area in areas:
                        self._paint_area(area, gs.fill, "fill", True)
            if stroke:
                # A stroke covers half its line width either side of the path. Only a line
                # as wide as its box paints the box (a thick line is a common caption or
                # heading background, or a redaction bar); an outline paints its edges.
                a, b, c, d, _, _ = gs.ctm
                half = abs(gs.lw) / 2 * math.sqrt(abs(a * d - b * c))
                if min(box[2] - box[0], box[3] - box[1]) <= 2 * half:
                    area = (box[0] - half, box[1] - half, box[2] + half, box[3] + half)
                    self._paint_area(area, gs.stroke, "stroke", self._straight_bar())
        if self.pending_clip and box is not None:
            clip = self.gs.clip
            if clip is None:
                self.gs.clip = (box[0], box[1], box[2], box[3])
                self.gs.clip_exact = exact
            else:
                self.gs.clip = (
                    max(clip[0], box[0]),
                    max(clip[1], box[1]),
                    min(clip[2], box[2]),
                    min(clip[3], box[3]),
                )
                self.gs.clip_exact = self.gs.clip_exact and exact
        if (stroke or fill) and box is not None and not self.layer_off:
            self.page.paths += 1
            self._rules(box, stroke)
        self.pending_clip = False
        self.path_box = None
        self.path_segments = []
        self.path_rects = []
        self.path_other = False

    def _paint_area(
        self,
        box: tuple[float, float, float, float],
        colour: Rgb | None,
        kind: str,
        exact: bool,
        solid: bool = True,
    ) -> None:
        """Remember an area painted in ``colour`` (``None``: a picture, a shading...), as far
        as the clipping region lets it be painted."""
        if len(self.paints) >= MAX_PAINTED:
            self.painted_full = True
            return
        gs = self.gs
        clip = gs.clip
        if clip is not None:
            box = (
                max(box[0], clip[0]),
                max(box[1], clip[1]),
                min(box[2], clip[2]),
                min(box[3], clip[3]),
            )
            if box[0] > box[2] or box[1] > box[3]:
                return
            exact = exact and gs.clip_exact
        alpha = (gs.stroke_alpha if kind == "stroke" else gs.fill_alpha) * gs.mask
        self.paints.append(Paint(self.seq, box, colour, alpha, gs.normal, solid, exact, kind))

    def _ext_gstate(self, operands: list[Any]) -> None:
        name = operands[-1] if operands else None
        if not isinstance(name, str):
            return
        key = (id(self.resources), name)
        params = self._gstates.get(key)
        if params is None:
            params = ext_gstate(self.resources, name)
            self._gstates[key] = params
        fill, stroke, mask, normal = params
        if fill is not None:
            self.gs.fill_alpha = fill
        if stroke is not None:
            self.gs.stroke_alpha = stroke
        if mask is not None:
            self.gs.mask = mask
        if normal is not None:
            self.gs.normal = normal

    def _line_width(self, operands: list[Any]) -> None:
        value = operands[-1] if operands else None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            self.gs.lw = float(value)

    def _shading(self, _: list[Any]) -> None:
        # A shading fills the clipping region (the page when nothing is clipped).
        if self.layer_off:
            return
        clip = self.gs.clip
        if clip is None:
            self._paint_area((0.0, 0.0, self.page.width, self.page.height), None, "shading", True)
        else:
            self._paint_area(clip, None, "shading", self.gs.clip_exact)

    # --- colour (as far as seeing text depends on it) ------------------------------------

    def _device_colour(self, components: int, fill: bool, operands: list[Any]) -> None:
        """``g rg k`` (fill) and ``G RG K`` (stroke): a grey, RGB or CMYK colour."""
        colour = rgb(operands[-components:], components)
        if fill:
            self.gs.fill, self.gs.fill_n = colour, components
        else:
            self.gs.stroke, self.gs.stroke_n = colour, components

    def _components(self, name: Any) -> int:
        """``colour_components`` of the space ``name``, looked up once per resources."""
        if not isinstance(name, str):
            return 0  # as colour_components answers it
        key = (id(self.resources), name)
        n = self._spaces.get(key)
        if n is None:
            n = self._spaces[key] = colour_components(self.resources, name)
        return n

    def _colour_space(self, operands: list[Any]) -> None:
        # A new colour space starts at its initial colour: black, or full ink.
        n = self._components(operands[-1] if operands else None)
        self.gs.fill_n = n
        self.gs.fill = _BLACK if n else None

    def _colour_space_stroke(self, operands: list[Any]) -> None:
        n = self._components(operands[-1] if operands else None)
        self.gs.stroke_n = n
        self.gs.stroke = _BLACK if n else None

    def _colour(self, operands: list[Any]) -> None:
        self.gs.fill = rgb(operands, self.gs.fill_n)

    def _colour_stroke(self, operands: list[Any]) -> None:
        self.gs.stroke = rgb(operands, self.gs.stroke_n)

    def _rules(self, box: list[float], stroke: bool) -> None:
        page = self.page
        if len(page.rules) >= MAX_RULES:
            return
        w = box[2] - box[0]
        h = box[3] - box[1]
        if not stroke:
            # A filled thin rectangle is a rule; a filled large one is a background.
            if h <= 2.5 and w > 2.5:
                y = (box[1] + box[3]) / 2
                page.rules.append((box[0], y, box[2], y))
            elif w <= 2.5 and h > 2.5:
                x = (box[0] + box[2]) / 2
                page.rules.append((x, box[1], x, box[3]))
            return
        if any(math.isnan(seg[0]) for seg in self.path_segments):
            return  # a curve: not a ruling path
        for x0, y0, x1, y1 in self.path_segments:
            if abs(y0 - y1) <= 0.5 and abs(x1 - x0) > 2.5:
                page.rules.append((min(x0, x1), y0, max(x0, x1), y0))
            elif abs(x0 - x1) <= 0.5 and abs(y1 - y0) > 2.5:
                page.rules.append((x0, min(y0, y1), x0, max(y0, y1)))

    # --- marked content ------------------------------------------------------------------

    def _bmc(self, operands: list[Any]) -> None:
        tag = operands[-1] if operands else None
        self._push_marked(tag == "/Artifact", None)

    def _bdc(self, operands: list[Any]) -> None:
        tag = operands[0] if operands else None
        props = operands[1] if len(operands) > 1 else None
        raw = props
        if isinstance(props, str):  # a name in the /Properties resource
            raw = property_list(self.resources, props)
            props = resolve(raw)
        off = tag == "/OC" and self.layers.hidden(raw)
        # An id inside a Form XObject is the form's own (see TextRun.mcid).
        mcid = -1 if self.form_stack else mcid_of(props)
        self._push_marked(tag == "/Artifact", actual_text_of(props), off, mcid)

    def _push_marked(
        self, artifact: bool, actual: str | None, layer_off: bool = False, mcid: int = -1
    ) -> None:
        if len(self.marked) >= 256:
            return
        self.marked.append(_Marked(artifact, actual, layer_off, mcid))
        if mcid >= 0:
            self.mcid = mcid
        if artifact:
            self.artifact_depth += 1
        if actual is not None:
            self.actual_depth += 1
        if layer_off:
            self.layer_off += 1

    def _emc(self, _: list[Any]) -> None:
        if not self.marked:
            return
        marked = self.marked.pop()
        if marked.mcid >= 0:
            self.mcid = next((m.mcid for m in reversed(self.marked) if m.mcid >= 0), -1)
        if marked.artifact:
            self.artifact_depth -= 1
        if marked.actual is not None:
            self.actual_depth -= 1
        if marked.layer_off:
            self.layer_off -= 1

    # --- XObjects and images -------------------------------------------------------------

    def _do(self, operands: list[Any]) -> None:
        name = operands[-1]
        found = lookup_xobject(self.resources, name)
        if found is None:
            return
        xobj, ref = found
        subtype = get(xobj, "/Subtype")
        off = self.layers.hidden(dict.get(xobj, "/OC"))
        if subtype == "/Image":
            if not off and not self.layer_off:
                self._image(xobj, ref, name)
        elif subtype == "/Form":
            self.layer_off += off
            try:
                self._form(xobj, ref)
            finally:
                self.layer_off -= off

    def _unit_square(self) -> tuple[float, float, float, float]:
        a, b, c, d, e, f = self.gs.ctm
        xs = (e, a + e, c + e, a + c + e)
        ys = (f, b + f, d + f, b + d + f)
        return (min(xs), min(ys), max(xs), max(ys))

    def _linear(self) -> tuple[float, float, float, float]:
        a, b, c, d, _, _ = self.gs.ctm
        return a, b, c, d

    def _image(self, xobj: DictionaryObject, ref: Any, name: str) -> None:
        self._count_image()
        box = self._unit_square()
        orientation = placement_orientation(*self._linear())
        self.page.images.append(
            ImagePlacement(bbox=box, orientation=orientation, **image_info(xobj, ref, name))
        )
        self._paint_area(box, None, "image", self._square(), image_opaque(xobj))

    def _inline_image(self, operands: list[Any]) -> None:
        params = operands[0] if operands else {}
        image = operands[1] if len(operands) > 1 and isinstance(operands[1], bytes) else b""
        if not isinstance(params, dict) or self.layer_off:
            return
        self._count_image()
        self.inline_bytes += min(len(image), MAX_INLINE_IMAGE)
        if self.inline_bytes > MAX_INLINE_BYTES:
            raise PageTimeout(f"more than {MAX_INLINE_BYTES} bytes of inline images on the page")
        placement = inline_placement(params, image, self._unit_square(), self._linear())
        self.page.images.append(placement)
        self._paint_area(placement.bbox, None, "image", self._square(), not placement.image_mask)

    def _count_image(self) -> None:
        if len(self.page.images) >= MAX_IMAGES:
            raise PageTimeout(f"more than {MAX_IMAGES} images on the page")

    def _form(self, xobj: StreamObject, ref: Any) -> None:
        key = form_key(xobj, ref)
        if key in self.form_stack:
            self._problem("a Form XObject draws itself (cycle skipped)")
            return
        if len(self.form_stack) >= MAX_FORM_DEPTH:
            self._problem(f"Form XObjects nested deeper than {MAX_FORM_DEPTH}")
            return
        self.forms += 1
        if self.forms > MAX_FORM_INVOCATIONS:
            raise PageTimeout(f"more than {MAX_FORM_INVOCATIONS} Form XObjects on the page")
        try:
            data = xobj.get_data()
        except Exception as exc:
            self._problem(f"a Form XObject cannot be decoded: {str(exc)[:120]}")
            self.page.incomplete = True
            return
        if not data:
            return
        self._content(data)
        matrix = form_matrix(xobj)
        saved_gs = self.gs
        saved_resources = self.resources
        saved_tm, saved_tlm = self.tm, self.tlm
        self.stack.append(saved_gs)
        self.gs = saved_gs.copy()
        if matrix is not None:
            self.gs.ctm = mult(matrix, self.gs.ctm)
        bbox = form_bbox(xobj)
        if bbox is not None:
            x0, y0, x1, y1 = bbox
            self.path_box = None
            for px, py in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
                self._extend(*self._point(px, py))
            self._path_is_its_box()  # the form's box clips it: a rectangle, as if drawn by re
            self.pending_clip = True
            self._paint(stroke=False, fill=False)
        resources = get(xobj, "/Resources")
        self.resources = resources if isinstance(resources, dict) else saved_resources
        self.form_stack.append(key)
        depth = len(self.stack)
        marked = len(self.marked)
        try:
            self._execute(data)
        finally:
            self.form_stack.pop()
            del self.stack[depth - 1 :]
            # Marked content left open inside the form ends with it.
            while len(self.marked) > marked:
                self._emc([])
            self.gs = saved_gs
            self.resources = saved_resources
            self.tm, self.tlm = saved_tm, saved_tlm


def _takes_back(items: list[Any], tc: float, fs: float) -> bool:
    """Whether a kern of the ``TJ`` array takes back ``TAKEN_BACK_SHARE`` of the character
    spacing ``tc`` or more (font size ``fs``)."""
    return any(_number(x) and float(x) * fs / 1000.0 >= TAKEN_BACK_SHARE * tc for x in items)


def _number(item: Any) -> bool:
    return isinstance(item, (int, float)) and not isinstance(item, bool)


def _glyph_by_glyph(items: list[Any], font: Font, gap: float) -> tuple[list[Any], float]:
    """The ``TJ`` array with each string cut into its glyphs and the displacement ``gap``
    (a kern, in thousandths of an em) after each glyph, added to the kern that follows; and
    the last glyph's ``gap`` when no kern follows it (an advance only: the string's end is
    no gap before a word)."""
    out: list[Any] = []
    bare = False  # whether ``out`` ends with a glyph's gap no kern was added to
    for item in items:
        if isinstance(item, bytes):
            for glyph in font.glyph_bytes(item):
                out.append(glyph)
                out.append(gap)
                bare = True
        elif _number(item):
            if out and isinstance(out[-1], float):
                out[-1] = out[-1] + float(item)
            else:
                out.append(float(item))
            bare = False
    if bare:
        return out[:-1], out[-1]
    return out, 0.0


def content_bytes(page_obj: Any) -> tuple[bytes, list[str]]:
    """The page's content streams joined (a stream may end mid-token; joining with a newline
    is what the specification asks readers to do), and the problems met decoding them: a
    stream that cannot be decoded, or that declares a filter but holds no data, means the
    page was not read completely."""
    contents = get(page_obj, "/Contents")
    if contents is None:
        return b"", []
    items = contents[:10_000] if isinstance(contents, list) else [contents]
    parts: list[bytes] = []
    problems: list[str] = []
    missing = 0
    total = 0
    for item in items:
        obj = resolve(item)
        if not isinstance(obj, StreamObject):
            missing += 1
            if missing == 1:
                problems.append("a content stream is missing or is not a stream")
            continue
        try:
            data = read_once(obj)
        except Exception as exc:
            problems.append(f"a content stream cannot be decoded: {str(exc)[:120]}")
            continue
        if not data and get(obj, "/Filter") is not None:
            problems.append("a content stream declares a filter but holds no data")
        if data:
            total += len(data) + (1 if parts else 0)
            if total > MAX_CONTENT_BYTES:
                problems.append(
                    LimitProblem(
                        f"the page's content streams hold more than {MAX_CONTENT_BYTES} bytes; "
                        "the rest was not read"
                    )
                )
                break
            parts.append(data)
    if missing > 1:  # (said once, with the count: a damaged file may list thousands)
        where = problems.index("a content stream is missing or is not a stream")
        problems[where] = (
            f"{missing} of the page's {len(items)} content streams are missing or are not streams"
        )
    return b"\n".join(parts), problems
