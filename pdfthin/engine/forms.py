"""The document's interactive form (AcroForm): its terminal fields with their values, and the
runs that put a field's value on the page where its widget stands.

The field tree is walked once, bounded (:mod:`.walk`: each object once, a step budget,
``MAX_FIELDS`` fields), with the inheritable entries (``/FT``, ``/V``, ``/Ff``, ``/DA``)
carried down from the parents. A widget's page is the page whose ``/Annots`` lists it (what a
viewer draws), else its ``/P``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pypdf.generic import IndirectObject, NameObject, StreamObject

from pdfthin.engine.catalog import MAX_ANNOTATED_PAGES, MAX_ANNOTATIONS, MAX_FIELDS
from pdfthin.engine.content.interpreter import Matrix, decode_text_string
from pdfthin.engine.objects import get, num, resolve, truthy
from pdfthin.engine.types import FieldValue, FormField, FormWidget, PageContent, TextRun
from pdfthin.engine.walk import Walk

if TYPE_CHECKING:
    from pdfthin.engine.page_tree import PageTree

#: Field flags (PDF 32000-1, 12.7.3.1 and 12.7.4): bit n is ``1 << (n - 1)``.
FF_READ_ONLY = 1 << 0
FF_REQUIRED = 1 << 1
FF_MULTILINE = 1 << 12
FF_PASSWORD = 1 << 13
FF_RADIO = 1 << 15
FF_PUSHBUTTON = 1 << 16
FF_MULTISELECT = 1 << 21
#: Annotation flags that keep a widget off the displayed page: Hidden (2) and NoView (6).
ANNOT_HIDDEN = (1 << 1) | (1 << 5)
#: Characters of one value or option kept (a value longer than a page holds is not a value a
#: reader of the page sees whole; the rest is cut with an ellipsis).
MAX_VALUE_CHARS = 10_000
#: Options of one choice field kept, and widgets of one field.
MAX_OPTIONS = 1_000
MAX_WIDGETS = 1_000
#: Appearance streams read to compare with values, and the seconds all of them may take:
#: reading one is interpreting a small content stream; a form of thousands is not worth more.
MAX_APPEARANCES = 2_000
APPEARANCE_SECONDS = 5.0
#: Signs a checkbox is shown with in the page text: ballot boxes, which read as checked and
#: unchecked to a person and to a model alike, and are not Markdown syntax.
CHECKED = "☒"
UNCHECKED = "☐"
#: A value run's font size when neither the field's /DA (auto size, 0) nor the page's text
#: gives one: this share of the widget's height, about what a viewer's auto size fills.
AUTO_SIZE_SHARE = 0.6
#: Line pitch of a multi-line value, in its font size.
LINE_PITCH = 1.2
#: Advance of one character, in font size (an average of the Latin faces forms use): the
#: width of a value run, which has no font program behind it.
CHAR_WIDTH = 0.5
_DA_SIZE = re.compile(rb"([-+]?\d*\.?\d+)\s+Tf")

#: Reads the text a Form XObject draws (its stream, an end time), or ``None``.
AppearanceReader = Callable[[Any, float], str | None]


@dataclass(slots=True)
class _Inherited:
    name: str
    ft: Any
    value: Any
    flags: int
    da: Any


def read_fields(
    acroform: Any,
    pages: PageTree,
    matrices: Callable[[int], Matrix],
    appearance_text: AppearanceReader,
    problem: Callable[[str | None], None],
) -> list[FormField]:
    """The terminal fields of ``acroform`` in tree order (bounded; a cut is a problem)."""
    if not isinstance(acroform, dict):
        return []
    on_page = _annotation_pages(pages, problem)
    need_appearances = truthy(get(acroform, "/NeedAppearances"))
    walk = Walk("form fields")
    fields: list[FormField] = []
    budget = _AppearanceBudget(time.monotonic() + APPEARANCE_SECONDS)
    top = _Inherited("", None, None, 0, get(acroform, "/DA"))
    stack: list[tuple[Any, _Inherited]] = [
        (item, top) for item in reversed(walk.items(acroform, "/Fields"))
    ]
    while stack and walk.cut is None:
        item, parent = stack.pop()
        node = walk.visit(item)
        if not isinstance(node, dict):
            continue
        ctx = _inherit(node, parent)
        kids = walk.items(node, "/Kids")
        if kids and not walk.step(len(kids)):
            break
        child_fields = [k for k in kids if get(resolve(k), "/T") is not None]
        if child_fields:
            stack.extend((k, ctx) for k in reversed(child_fields))
            continue
        if len(fields) >= MAX_FIELDS:
            problem(f"form fields: read up to {MAX_FIELDS}; any more were not")
            break
        widgets = _widgets(item, node, kids, walk, on_page, pages, matrices)
        fields.append(_field(node, ctx, widgets, need_appearances, appearance_text, budget))
    problem(walk.cut)
    return fields


def _inherit(node: Any, parent: _Inherited) -> _Inherited:
    partial = _text(get(node, "/T"))
    name = parent.name
    if partial is not None:
        name = f"{name}.{partial}" if name else partial
    flags = get(node, "/Ff")
    return _Inherited(
        name=name,
        ft=get(node, "/FT", parent.ft),
        value=get(node, "/V", parent.value),
        flags=int(num(flags)) if flags is not None else parent.flags,
        da=get(node, "/DA", parent.da),
    )


def _annotation_pages(pages: PageTree, problem: Callable[[str | None], None]) -> dict[Any, int]:
    """(object number, generation) of each annotation -> the first page whose /Annots lists
    it."""
    walk = Walk("annotations")
    out: dict[Any, int] = {}
    for number, page_obj in enumerate(pages.head(MAX_ANNOTATED_PAGES), start=1):
        annots = walk.items(page_obj, "/Annots")
        if not walk.step(len(annots)):
            break
        for annot in annots[:MAX_ANNOTATIONS]:
            if isinstance(annot, IndirectObject):
                out.setdefault((annot.idnum, annot.generation), number)
    problem(walk.cut)
    return out


def _widgets(
    item: Any,
    node: Any,
    kids: list[Any],
    walk: Walk,
    on_page: dict[Any, int],
    pages: PageTree,
    matrices: Callable[[int], Matrix],
) -> list[tuple[FormWidget, Any]]:
    """The field's widgets, with their dictionaries: the field itself when it has a /Rect (a
    field merged with its only widget), and its kids (which have no /T)."""
    out: list[tuple[FormWidget, Any]] = []
    candidates: list[tuple[Any, Any]] = []
    if get(node, "/Rect") is not None or get(node, "/Subtype") == "/Widget":
        candidates.append((item, node))
    for kid in kids[:MAX_WIDGETS]:
        widget = walk.visit(kid)
        if isinstance(widget, dict):
            candidates.append((kid, widget))
    for ref, widget in candidates:
        page = None
        if isinstance(ref, IndirectObject):
            page = on_page.get((ref.idnum, ref.generation))
        if page is None:
            target = dict.get(widget, "/P") if isinstance(widget, dict) else None
            if isinstance(target, IndirectObject):
                page = pages.number_of(target)
        rect = _rect(get(widget, "/Rect"))
        if page is None or rect is None:
            continue
        shown = not int(num(get(widget, "/F"))) & ANNOT_HIDDEN
        on = _on_state(widget)
        out.append((FormWidget(page, _displayed(rect, matrices(page)), shown, on), widget))
    return out


def _on_state(widget: Any) -> str | None:
    """The name of a button widget's appearance other than ``Off`` (its "on" state)."""
    normal = get(get(widget, "/AP"), "/N")
    if not isinstance(normal, dict) or isinstance(normal, StreamObject):
        return None
    for key in list(normal.keys())[:8]:
        if isinstance(key, str) and key not in ("/Off", "/"):
            return _cut(key[1:])
    return None


def _rect(raw: Any) -> tuple[float, float, float, float] | None:
    if not isinstance(raw, list) or len(raw) != 4:
        return None
    x0, y0, x1, y1 = (num(resolve(v)) for v in raw)
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _displayed(
    rect: tuple[float, float, float, float], m: Matrix
) -> tuple[float, float, float, float]:
    a, b, c, d, e, f = m
    xs: list[float] = []
    ys: list[float] = []
    for x, y in ((rect[0], rect[1]), (rect[2], rect[3]), (rect[0], rect[3]), (rect[2], rect[1])):
        xs.append(a * x + c * y + e)
        ys.append(b * x + d * y + f)
    return (round(min(xs), 2), round(min(ys), 2), round(max(xs), 2), round(max(ys), 2))


class _AppearanceBudget:
    def __init__(self, ends: float) -> None:
        self.ends = ends
        self.left = MAX_APPEARANCES

    def take(self) -> bool:
        if self.left <= 0 or time.monotonic() > self.ends:
            return False
        self.left -= 1
        return True


def _field(
    node: Any,
    ctx: _Inherited,
    widgets: list[tuple[FormWidget, Any]],
    need_appearances: bool,
    appearance_text: AppearanceReader,
    budget: _AppearanceBudget,
) -> FormField:
    flags = ctx.flags
    ft = ctx.ft if isinstance(ctx.ft, str) else None
    options: tuple[str, ...] = ()
    value: FieldValue
    appearance: str | None = None
    differs = False
    states = [get(w, "/AS") for _, w in widgets]
    if ft == "/Btn" and flags & FF_PUSHBUTTON:
        kind, value = "button", None
    elif ft == "/Btn" and flags & FF_RADIO:
        kind = "radio"
        chosen = _state(ctx.value)
        value = chosen
        shown = [s[1:] for s in states if isinstance(s, str) and s not in ("/Off", "/")]
        if shown and (chosen is None or chosen not in shown):
            differs, appearance = True, shown[0]
    elif ft == "/Btn":
        kind = "checkbox"
        value = _state(ctx.value) is not None
        shown_on = [s not in ("/Off",) for s in states if isinstance(s, str)]
        if shown_on and any(shown_on) != value:
            differs = True
            appearance = CHECKED if any(shown_on) else UNCHECKED
    elif ft == "/Sig":
        kind, value = "signature", ctx.value is not None
    elif ft == "/Ch":
        kind = "choice"
        pairs = _options(get(node, "/Opt"))
        options = tuple(display for _, display in pairs)
        shows = dict(pairs)
        raw = ctx.value
        if isinstance(raw, list):
            chosen_list = [v for v in (_text(resolve(x)) for x in raw[:MAX_OPTIONS]) if v]
            value = [shows.get(v, v) for v in chosen_list] or None
        else:
            one = _text(raw)
            value = shows.get(one, one) if one else None
        if flags & FF_MULTISELECT and isinstance(value, str):
            value = [value]
    else:
        kind = "text"
        value = _text(ctx.value) or None
    if kind in ("text", "choice") and not need_appearances and not flags & FF_PASSWORD:
        appearance = _appearance(widgets, appearance_text, budget)
        if appearance is not None:
            shown_text = " ".join(appearance.split())
            wanted = value if isinstance(value, list) else [value] if isinstance(value, str) else []
            differs = shown_text != " ".join(" ".join(wanted).split())
            if kind == "choice" and differs and isinstance(value, list):
                # A list box draws its options and marks the chosen ones: it differs only
                # when a chosen option is not drawn at all.
                differs = not all(" ".join(v.split()) in shown_text for v in value)
    return FormField(
        name=ctx.name,
        kind=kind,
        label=_text(get(node, "/TU")),
        value=value,
        options=options,
        read_only=bool(flags & FF_READ_ONLY),
        required=bool(flags & FF_REQUIRED),
        multiline=kind == "text" and bool(flags & FF_MULTILINE),
        password=kind == "text" and bool(flags & FF_PASSWORD),
        widgets=tuple(w for w, _ in widgets),
        appearance=appearance,
        appearance_differs=differs,
        font_size=_da_size(ctx.da),
    )


def _da_size(da: Any) -> float:
    """The font size the last ``Tf`` of a default appearance string sets (0 when none)."""
    raw = da.encode("latin-1", "replace") if isinstance(da, str) else da
    if not isinstance(raw, bytes):
        return 0.0
    sizes = _DA_SIZE.findall(raw[:1000])
    return max(num(sizes[-1]), 0.0) if sizes else 0.0


def _appearance(
    widgets: list[tuple[FormWidget, Any]],
    appearance_text: AppearanceReader,
    budget: _AppearanceBudget,
) -> str | None:
    """The text the first widget's normal appearance draws; ``None`` when it has none or it
    was not read (past the budget, or unreadable)."""
    for _, widget in widgets[:1]:
        normal = get(get(widget, "/AP"), "/N")
        if not isinstance(normal, StreamObject) or not budget.take():
            return None
        return appearance_text(normal, budget.ends)
    return None


def _state(raw: Any) -> str | None:
    """A button's value: its state's name without the slash; ``None`` for Off or none."""
    if isinstance(raw, NameObject) or (isinstance(raw, str) and raw.startswith("/")):
        name = str(raw)[1:]
        return None if name in ("Off", "") else _cut(name)
    text = _text(raw)
    return None if text in (None, "Off") else text


def _options(raw: Any) -> list[tuple[str, str]]:
    """A choice field's options as (export value, display text)."""
    out: list[tuple[str, str]] = []
    if not isinstance(raw, list):
        return out
    for item in raw[:MAX_OPTIONS]:
        item = resolve(item)
        if isinstance(item, list) and len(item) >= 2:
            export, display = _text(resolve(item[0])), _text(resolve(item[1]))
            if export is not None or display is not None:
                out.append((export or display or "", display or export or ""))
        else:
            text = _text(item)
            if text is not None:
                out.append((text, text))
    return out


def _text(raw: Any) -> str | None:
    if raw is None or isinstance(raw, (dict, list, bool, int, float)):
        return None
    if isinstance(raw, NameObject):
        return _cut(str(raw)[1:])
    text = decode_text_string(raw) if isinstance(raw, bytes) else str(raw)
    text = text.replace("\x00", "").replace("\r\n", "\n").replace("\r", "\n")
    return _cut(text) if text.strip() else None


def _cut(text: str) -> str:
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 1] + "…"


# --- values on the page ------------------------------------------------------------------


def shown_text(field: FormField) -> str | None:
    """What the page text shows of ``field``'s value: text as typed, a checkbox as ☒ or ☐,
    the chosen radio option, the chosen options of a list; ``None`` for an empty field, a
    password, a signature or a push button (whose appearance the page draws, if any)."""
    if field.kind == "checkbox":
        return CHECKED if field.value else UNCHECKED
    if field.kind == "radio" and field.value is None:
        return UNCHECKED
    if field.kind in ("signature", "button") or field.password:
        return None
    if isinstance(field.value, list):
        return ", ".join(field.value) or None
    if isinstance(field.value, str):
        return field.value
    return None


def add_value_runs(content: PageContent, fields: list[FormField]) -> None:
    """Put each field's value on ``content`` where its widget stands, as runs marked with the
    field's name, so layout reads them in order beside their labels. A value the page's own
    content already shows inside the widget (a flattened form) is not added again."""
    if not any(w.page == content.number for f in fields for w in f.widgets):
        return  # most pages: nothing to place, and the page's runs are not looked at
    body = [r.size for r in content.runs if not r.form_field and r.size > 0]
    body.sort()
    # A value is set no larger than the page's middle text size: the widget's size says how
    # big the box is, not that the value is a heading.
    ceiling = body[len(body) // 2] if body else None
    seq = max((r.seq for r in content.runs), default=0)
    for field in fields:
        text = shown_text(field)
        if text is None:
            continue
        for i, widget in enumerate(field.widgets):
            if widget.page != content.number or not widget.shown:
                continue
            shown = text
            if field.kind == "radio":
                # Each button of the group as a box, checked at the chosen option, beside its
                # label; a group whose buttons do not name their option shows the value once.
                if all(w.state is not None for w in field.widgets):
                    shown = CHECKED if widget.state == field.value else UNCHECKED
                elif i > 0:
                    continue
            if _already_drawn(content, widget.rect, shown):
                continue
            for run in _runs(field, widget.rect, shown, ceiling):
                seq += 1
                run.seq = seq
                content.runs.append(run)


def _runs(
    field: FormField, rect: tuple[float, float, float, float], text: str, ceiling: float | None
) -> list[TextRun]:
    x0, y0, x1, y1 = rect
    height = max(y1 - y0, 1.0)
    lines = text.split("\n") if field.multiline else [" ".join(text.split())]
    # The size the field asks for; else (auto size) the page's middle text size, which its
    # labels are set in; else a share of the box. A box drawn smaller than its text says
    # little: producers size widgets loosely.
    size = field.font_size or ceiling or height * AUTO_SIZE_SHARE
    if ceiling is not None:
        size = min(size, ceiling)
    size = max(round(size, 2), 1.0)
    out: list[TextRun] = []
    # One line: centred in the box, as a viewer draws it; several: from the top down.
    top = y0 + (height - size) / 2 if len(lines) == 1 else y0
    for i, line in enumerate(lines):
        line = " ".join(line.split())
        if not line:
            continue
        ly0 = top + i * size * LINE_PITCH
        width = min(max(x1 - x0, size), CHAR_WIDTH * size * len(line))
        out.append(
            TextRun(
                line, x0, ly0, x0 + width, ly0 + size, size, "form-field", form_field=field.name
            )
        )
    return out


def _already_drawn(
    content: PageContent, rect: tuple[float, float, float, float], text: str
) -> bool:
    """Does the page's own content draw ``text`` inside ``rect`` (a flattened value)?"""
    x0, y0, x1, y1 = rect
    inside = [
        r.text
        for r in content.runs
        if not r.form_field and x0 <= (r.x0 + r.x1) / 2 <= x1 and y0 <= (r.y0 + r.y1) / 2 <= y1
    ]
    if not inside:
        return False
    drawn = "".join("".join(inside).split())
    return "".join(text.split()) in drawn
