"""The content-stream interpreter: operators in, positioned text runs and image placements out.

It keeps just the state text extraction needs: the graphics state stack (CTM, clip box, text
state), the text and line matrices, the marked-content stack (for ``/Artifact`` and
``/ActualText``) and the current path (for clip boxes and ruling lines). Colours, shading
and glyph outlines are ignored.

Every limit that protects against hostile input lives here: Form XObject depth and cycles, the
page's work budget (operators, content bytes, glyphs, text runs, images, inline image bytes,
Form invocations and area tests, each counted as the work is done) and a wall-clock deadline.
When one is hit the page keeps what was read and is marked incomplete, with a problem naming
the limit.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from typing import Any

from pypdf.generic import DictionaryObject, IndirectObject, StreamObject

from .bidi import visual_cluster
from .fonts import UNMAPPED, Font, get, load_font, num, resolve, truthy
from .lexer import INLINE_NAMES, iter_operations
from .streams import read_once
from .types import HiddenText, ImagePlacement, PageContent, TextRun

Matrix = tuple[float, float, float, float, float, float]
Box = tuple[float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

#: The page's work budget (DESIGN.md, invariant 13). Each is counted as the work is done, a
#: Form XObject's content each time the form is drawn, and stops the page where it is reached
#: (the native interpreter counts the same things at the same points). Operators interpreted:
MAX_OPERATIONS = 4_000_000
#: Bytes of content streams interpreted (the page's, and each form's each time it is drawn).
MAX_CONTENT_BYTES = 64 << 20
#: Glyphs shown (each code of a shown string).
MAX_GLYPHS = 1_000_000
#: Text runs made: read, hidden or invisible (what layout and the hidden-text report get).
MAX_RUNS = 100_000
#: Images placed (XObjects and inline images).
MAX_IMAGES = 10_000
#: Bytes of inline images kept (each image's first MAX_INLINE_IMAGE bytes).
MAX_INLINE_BYTES = 16 << 20
#: Form XObjects drawn.
MAX_FORM_INVOCATIONS = 10_000
#: Tests of a point against a painted area or an image, made to decide whether hidden text
#: (white, invisible) has something beneath it.
MAX_AREA_TESTS = 10_000_000
MAX_FORM_DEPTH = 16
MAX_RULES = 20_000
MAX_PROBLEMS = 20
#: Inline images are small by definition (the specification advises under 4 KB); keep at most
#: this much of one for ``get_image``.
MAX_INLINE_IMAGE = 1 << 20
#: Minimum font size (points) of text a reader can see.
MIN_VISIBLE_SIZE = 1.0
#: A gap inside a TJ array wider than this many ems is a space; wider than the second, a
#: separate run (table columns set with one TJ).
SPACE_GAP_EM = 0.15
#: Colour components at least this light (grey, RGB; CMYK at most 1 minus it) are white.
WHITE = 0.95
#: Painted areas remembered as a background for white text; past this many (a map, a chart)
#: every place on the page counts as painted, so white text is read, and checking each white
#: run against the areas stays cheap.
MAX_PAINTED = 2_000
#: Paint at most this opaque (an ExtGState's /ca, /CA) shows nothing.
CLEAR = 0.05
SPLIT_GAP_EM = 2.5


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


def quarter_turn(run_x: float, run_y: float, up_x: float, up_y: float) -> int:
    """The direction of a run from its advance and its glyphs' "up" (display space, y down):
    ``0`` upright (advancing right, tops up), ``3``/``4``/``5`` turned a quarter, a half or
    three quarters clockwise, ``2`` anything else (slanted, mirrored)."""
    if run_x > 0 and abs(run_y) <= 0.05 * run_x and up_y < 0 and abs(up_x) <= 0.05 * -up_y:
        return 0
    if run_y > 0 and abs(run_x) <= 0.05 * run_y and up_x > 0 and abs(up_y) <= 0.05 * up_x:
        return 3
    if run_x < 0 and abs(run_y) <= 0.05 * -run_x and up_y > 0 and abs(up_x) <= 0.05 * up_y:
        return 4
    if run_y < 0 and abs(run_x) <= 0.05 * -run_y and up_x < 0 and abs(up_y) <= 0.05 * -up_x:
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


def _paints(gs: _GState, fill: bool, stroke: bool) -> bool:
    """Does text in ``gs``'s render mode paint only with what ``fill`` and ``stroke`` say of
    the fill and stroke colours (both, when it fills and strokes)?"""
    tr = gs.tr
    if tr in (0, 4):
        return fill
    if tr in (1, 5):
        return stroke
    return tr in (2, 6) and fill and stroke


def ext_alpha(resources: Any, name: Any) -> tuple[bool | None, bool | None]:
    """Whether the graphics state parameter dictionary ``name`` makes fill and stroke paint
    transparent (``None``: it does not set that alpha)."""
    if not isinstance(name, str):
        return None, None
    params = get(get(resources, "/ExtGState"), name)
    out: list[bool | None] = []
    for key in ("/ca", "/CA"):
        alpha = get(params, key)
        if isinstance(alpha, (int, float)) and not isinstance(alpha, bool):
            out.append(float(alpha) <= CLEAR)
        else:
            out.append(None)
    return out[0], out[1]


def is_white(values: list[Any], components: int) -> bool:
    """Are ``values`` white in a colour space of ``components`` (1 grey, 3 RGB, 4 CMYK)?
    Anything else (a pattern, a separation, too few numbers) is not."""
    if components not in (1, 3, 4) or len(values) != components:
        return False
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        if components == 4:
            if not value <= 1.0 - WHITE:
                return False
        elif not value >= WHITE:
            return False
    return True


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
    from .encodings import PDF_DOC

    return "".join(PDF_DOC[b] or "" for b in raw)


class _GState:
    __slots__ = (
        "clip",
        "ctm",
        "fill_clear",
        "fill_n",
        "fill_white",
        "font",
        "fs",
        "lw",
        "stroke_clear",
        "stroke_n",
        "stroke_white",
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
        # Colour, as far as hidden text needs it: is the fill (stroke) colour white, and how
        # many components its colour space takes (1, 3, 4: grey, RGB, CMYK; 0: any other).
        self.fill_white = False
        self.stroke_white = False
        self.fill_n = 1
        self.stroke_n = 1
        self.lw = 1.0
        # Transparent paint (an ExtGState's /ca or /CA near zero): nothing shows.
        self.fill_clear = False
        self.stroke_clear = False
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
        g.fill_white = self.fill_white
        g.stroke_white = self.stroke_white
        g.fill_n = self.fill_n
        g.stroke_n = self.stroke_n
        g.lw = self.lw
        g.fill_clear = self.fill_clear
        g.stroke_clear = self.stroke_clear
        return g


class _Marked:
    __slots__ = ("actual", "artifact", "emitted")

    def __init__(self, artifact: bool, actual: str | None) -> None:
        self.artifact = artifact
        self.actual = actual
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


def inline_placement(
    params: dict[str, Any], image: bytes, bbox: tuple[float, float, float, float]
) -> ImagePlacement:
    """An inline image's placement from its parameters (full key names) and bytes."""
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
    )


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
    ) -> None:
        self.page = page
        self.fonts = fonts
        self.deadline = deadline
        self._keepalive = keepalive  # objects whose id() keys the font cache
        self.gs = _GState(base, (0.0, 0.0, page.width, page.height))
        self.stack: list[_GState] = []
        self.tm: Matrix = IDENTITY
        self.tlm: Matrix = IDENTITY
        self.marked: list[_Marked] = []
        self.artifact_depth = 0
        self.actual_depth = 0
        self.ops = 0
        self.forms = 0
        # the rest of the page's work budget, as counted so far
        self.content_bytes = 0
        self.inline_bytes = 0
        self.area_tests = 0
        self.form_stack: list[Any] = []
        self.resources: Any = None
        # current path: device-space bounding box and candidate ruling segments
        self.path_box: list[float] | None = None
        self.path_segments: list[tuple[float, float, float, float]] = []
        self.path_start: tuple[float, float] = (0.0, 0.0)
        self.path_point: tuple[float, float] = (0.0, 0.0)
        self.pending_clip = False
        # Text no reader would see unless a scan lies over it (then it is the scanner's OCR
        # layer): invisible (render mode 3 or 7) or white where nothing is painted beneath.
        self.invisible: list[tuple[TextRun, str]] = []
        # Areas painted in a colour other than white (fills, shadings): where white text
        # can be read. Images count too (page.images).
        self.painted: list[tuple[float, float, float, float]] = []
        self.painted_full = False
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
        problems = self.page.problems
        if len(problems) < MAX_PROBLEMS and message not in problems:
            problems.append(message)

    def _finish(self) -> None:
        """Invisible text over a scanned image is the scanner's OCR layer: keep it. Once the
        area tests are spent, the rest of the invisible text is withheld unchecked."""
        page = self.page
        boxes = [img.bbox for img in page.images]
        for run, reason in self.invisible:
            cx = (run.x0 + run.x1) / 2
            cy = (run.y0 + run.y1) / 2
            over = self.area_tests <= MAX_AREA_TESTS and self._inside_any(boxes, cx, cy)
            if over:
                run.ocr_layer = True
                page.runs.append(run)
            else:
                page.hidden.append(HiddenText(run.text, reason, (run.x0, run.y0, run.x1, run.y1)))
        if self.invisible and self.area_tests > MAX_AREA_TESTS:
            self._problem(
                f"more than {MAX_AREA_TESTS} area tests for hidden text on the page; "
                "invisible text past them was withheld unchecked"
            )
            page.incomplete = True
        self.invisible = []

    def _inside_any(
        self, boxes: list[tuple[float, float, float, float]], x: float, y: float
    ) -> bool:
        """Is (x, y) inside one of ``boxes``? Each box looked at is an area test."""
        for i, b in enumerate(boxes):
            if b[0] <= x <= b[2] and b[1] <= y <= b[3]:
                self.area_tests += i + 1
                return True
        self.area_tests += len(boxes)
        return False

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
        return font_for(self.resources, name, self.fonts, self._keepalive)

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
        glyphs = 0
        unmapped = 0
        split_gap = SPLIT_GAP_EM * fs
        space_gap = SPACE_GAP_EM * fs
        for item in items:
            if isinstance(item, bytes):
                if not item:
                    continue
                text, width, spaces, count = font.decode(item)
                glyphs += count
                if UNMAPPED in text:
                    bad = text.count(UNMAPPED)
                    unmapped += bad
                    text = text.replace(UNMAPPED, "")
                if vertical:
                    step = width * fs + tc * count + tw * spaces
                else:
                    step = (width * fs + tc * count + tw * spaces) * th
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
                if shift > split_gap:
                    self._emit("".join(parts), start_tm, run_start, advance, font)
                    parts = []
                    advance += shift
                    run_start = advance
                    continue
                if shift > space_gap and parts and parts[-1] and not parts[-1].endswith(" "):
                    parts.append(" ")
                advance += shift
        if parts:
            self._emit("".join(parts), start_tm, run_start, advance, font)
        self.page.glyphs += glyphs
        self.page.unmapped_glyphs += unmapped
        a, b, c, d, e, f = start_tm
        if vertical:
            self.tm = (a, b, c, d, e - advance * c, f - advance * d)
        else:
            self.tm = (a, b, c, d, e + advance * a, f + advance * b)
        if self.page.glyphs > MAX_GLYPHS:
            raise PageTimeout(f"more than {MAX_GLYPHS} glyphs on the page")

    def _missing_font(self) -> Font:
        return missing_font(self.fonts)

    def _emit(self, text: str, tm: Matrix, start: float, end: float, font: Font) -> None:
        if self.actual_depth:
            text = self._actual_text(text)
        if not text or text.isspace():
            return
        gs = self.gs
        fs = gs.fs
        # Text space -> device: [fs*th 0 0 fs 0 ts] x Tm x CTM, applied to the baseline points.
        m = mult(tm, gs.ctm)
        a, b, c, d, e, f = m
        ts = gs.ts
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
        )
        page = self.page
        if gs.tr in (3, 7):
            self.invisible.append((run, "invisible"))
            return
        if (gs.fill_clear or gs.stroke_clear) and _paints(gs, gs.fill_clear, gs.stroke_clear):
            self.invisible.append((run, "transparent"))
            return
        cx = (run.x0 + run.x1) / 2
        cy = (run.y0 + run.y1) / 2
        reason = None
        if size < MIN_VISIBLE_SIZE:
            reason = "tiny"
        elif not (0 <= cx <= page.width and 0 <= cy <= page.height):
            reason = "off_page"
        else:
            clip = gs.clip
            if clip is not None and not (clip[0] <= cx <= clip[2] and clip[1] <= cy <= clip[3]):
                reason = "clipped"
            elif (
                (gs.fill_white or gs.stroke_white)
                and self._white_text(gs)
                and not self._painted_at(cx, cy)
            ):
                self.invisible.append((run, "white"))
                return
        if reason is not None:
            page.hidden.append(HiddenText(text, reason, (run.x0, run.y0, run.x1, run.y1)))
            return
        page.runs.append(run)

    @staticmethod
    def _white_text(gs: _GState) -> bool:
        return _paints(gs, gs.fill_white, gs.stroke_white)

    def _painted_at(self, x: float, y: float) -> bool:
        """Is anything but white painted under (x, y) so far: a fill, a shading, an image?"""
        if self.painted_full or len(self.page.images) > MAX_PAINTED:
            return True
        found = self._inside_any(self.painted, x, y) or self._inside_any(
            [image.bbox for image in self.page.images], x, y
        )
        if self.area_tests > MAX_AREA_TESTS:
            raise PageTimeout(f"more than {MAX_AREA_TESTS} area tests for hidden text on the page")
        return found

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
        p = self._point(float(operands[-2]), float(operands[-1]))
        self.path_start = self.path_point = p
        self._extend(*p)

    def _lineto(self, operands: list[Any]) -> None:
        p = self._point(float(operands[-2]), float(operands[-1]))
        x0, y0 = self.path_point
        if len(self.path_segments) < 1000:
            self.path_segments.append((x0, y0, p[0], p[1]))
        self.path_point = p
        self._extend(*p)

    def _curveto(self, operands: list[Any]) -> None:
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

    def _paint(self, *, stroke: bool, fill: bool, filled: bool = False) -> None:
        box = self.path_box
        gs = self.gs
        if box is not None:
            if (fill or filled) and not gs.fill_white:
                self._paint_area(box[0], box[1], box[2], box[3])
            if stroke and not gs.stroke_white:
                # A stroke covers half its line width either side of the path (a thick
                # line is a common caption or heading background).
                a, b, c, d, _, _ = gs.ctm
                half = abs(gs.lw) / 2 * math.sqrt(abs(a * d - b * c))
                self._paint_area(box[0] - half, box[1] - half, box[2] + half, box[3] + half)
        if self.pending_clip and box is not None:
            clip = self.gs.clip
            if clip is None:
                self.gs.clip = (box[0], box[1], box[2], box[3])
            else:
                self.gs.clip = (
                    max(clip[0], box[0]),
                    max(clip[1], box[1]),
                    min(clip[2], box[2]),
                    min(clip[3], box[3]),
                )
        if (stroke or fill) and box is not None:
            self.page.paths += 1
            self._rules(box, stroke)
        self.pending_clip = False
        self.path_box = None
        self.path_segments = []

    def _paint_area(self, x0: float, y0: float, x1: float, y1: float) -> None:
        if len(self.painted) < MAX_PAINTED:
            self.painted.append((x0, y0, x1, y1))
        else:
            self.painted_full = True

    def _ext_gstate(self, operands: list[Any]) -> None:
        fill, stroke = ext_alpha(self.resources, operands[-1] if operands else None)
        if fill is not None:
            self.gs.fill_clear = fill
        if stroke is not None:
            self.gs.stroke_clear = stroke

    def _line_width(self, operands: list[Any]) -> None:
        value = operands[-1] if operands else None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            self.gs.lw = float(value)

    def _shading(self, _: list[Any]) -> None:
        # A shading fills the clipping region (the page when nothing is clipped).
        clip = self.gs.clip
        if clip is None:
            self._paint_area(0.0, 0.0, self.page.width, self.page.height)
        else:
            self._paint_area(*clip)

    # --- colour (only: is it white?) -------------------------------------------------

    def _device_colour(self, components: int, fill: bool, operands: list[Any]) -> None:
        """``g rg k`` (fill) and ``G RG K`` (stroke): a grey, RGB or CMYK colour."""
        white = is_white(operands[-components:], components)
        if fill:
            self.gs.fill_white, self.gs.fill_n = white, components
        else:
            self.gs.stroke_white, self.gs.stroke_n = white, components

    def _colour_space(self, operands: list[Any]) -> None:
        # A new colour space starts at its initial colour: black, or full ink.
        self.gs.fill_n = colour_components(self.resources, operands[-1] if operands else None)
        self.gs.fill_white = False

    def _colour_space_stroke(self, operands: list[Any]) -> None:
        self.gs.stroke_n = colour_components(self.resources, operands[-1] if operands else None)
        self.gs.stroke_white = False

    def _colour(self, operands: list[Any]) -> None:
        self.gs.fill_white = is_white(operands, self.gs.fill_n)

    def _colour_stroke(self, operands: list[Any]) -> None:
        self.gs.stroke_white = is_white(operands, self.gs.stroke_n)

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
        if isinstance(props, str):  # a name in the /Properties resource
            props = get(get(self.resources, "/Properties"), props)
        self._push_marked(tag == "/Artifact", actual_text_of(props))

    def _push_marked(self, artifact: bool, actual: str | None) -> None:
        if len(self.marked) >= 256:
            return
        self.marked.append(_Marked(artifact, actual))
        if artifact:
            self.artifact_depth += 1
        if actual is not None:
            self.actual_depth += 1

    def _emc(self, _: list[Any]) -> None:
        if not self.marked:
            return
        marked = self.marked.pop()
        if marked.artifact:
            self.artifact_depth -= 1
        if marked.actual is not None:
            self.actual_depth -= 1

    # --- XObjects and images -------------------------------------------------------------

    def _do(self, operands: list[Any]) -> None:
        name = operands[-1]
        found = lookup_xobject(self.resources, name)
        if found is None:
            return
        xobj, ref = found
        subtype = get(xobj, "/Subtype")
        if subtype == "/Image":
            self._image(xobj, ref, name)
        elif subtype == "/Form":
            self._form(xobj, ref)

    def _unit_square(self) -> tuple[float, float, float, float]:
        a, b, c, d, e, f = self.gs.ctm
        xs = (e, a + e, c + e, a + c + e)
        ys = (f, b + f, d + f, b + d + f)
        return (min(xs), min(ys), max(xs), max(ys))

    def _image(self, xobj: DictionaryObject, ref: Any, name: str) -> None:
        self._count_image()
        self.page.images.append(
            ImagePlacement(bbox=self._unit_square(), **image_info(xobj, ref, name))
        )

    def _inline_image(self, operands: list[Any]) -> None:
        params = operands[0] if operands else {}
        image = operands[1] if len(operands) > 1 and isinstance(operands[1], bytes) else b""
        if not isinstance(params, dict):
            return
        self._count_image()
        self.inline_bytes += min(len(image), MAX_INLINE_IMAGE)
        if self.inline_bytes > MAX_INLINE_BYTES:
            raise PageTimeout(f"more than {MAX_INLINE_BYTES} bytes of inline images on the page")
        self.page.images.append(inline_placement(params, image, self._unit_square()))

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
    total = 0
    for item in items:
        obj = resolve(item)
        if not isinstance(obj, StreamObject):
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
                    f"the page's content streams hold more than {MAX_CONTENT_BYTES} bytes; "
                    "the rest was not read"
                )
                break
            parts.append(data)
    return b"\n".join(parts), problems
