"""The document's form fields with a label for each: the field's tooltip (``/TU``) when the
file gives one, else the page text that stands beside its widget, as a person filling the form
reads it.

Nearby text is looked for on the widget's page, among the lines the page itself draws (the
values the engine places in widgets are left out): on the widget's line just left of it; for a
checkbox, just right of it, where a checkbox's label is set; then on the line just above it,
over its width. Every distance is in the font size of the text measured, so the rule holds at
any scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pdfthin.engine import EngineDocument
from pdfthin.engine.types import FieldValue, FormField, FormWidget
from pdfthin.layout.lines import build_lines
from pdfthin.layout.types import Line

Box = tuple[float, float, float, float]
LabelSource = Literal["tooltip", "nearby_text"]

#: A label left of its widget ends at most this many of its font sizes before the widget:
#: forms align their boxes in a column after labels of different lengths, so the gap of the
#: shortest label is several ems; further away, the text belongs to something else.
LEFT_GAP_EMS = 10.0
#: A checkbox's label starts right beside it, within this many of its font sizes.
RIGHT_GAP_EMS = 2.0
#: A label above its widget ends at most this many of its font sizes above the widget's top
#: (a line's spacing and a little more); it may reach this far into it (boxes drawn loosely).
ABOVE_GAP_EMS = 1.5
OVERLAP_EMS = 0.25
#: Between two words of one label the gap is at most this many font sizes; a wider gap ends
#: the label (the text beyond it is the previous field's, or another column's).
PHRASE_GAP_EMS = 1.5
#: A gap wider than this share of the font size is a space between two pieces of a label
#: (as the layout's lines join their runs).
WORD_GAP_EMS = 0.13
#: Characters of a label kept: a label is a few words; more is a paragraph, cut.
MAX_LABEL_CHARS = 200


@dataclass(frozen=True, slots=True)
class LabelledField:
    """A form field as the operations give it: its value, where it stands and what it is
    called."""

    #: The qualified name (partial names joined by dots): the file's, not page text.
    name: str
    kind: str
    #: The tooltip, or the page text beside the widget; ``None`` when neither was found.
    label: str | None
    label_source: LabelSource | None
    value: FieldValue
    options: tuple[str, ...]
    #: The page and the displayed box (points, top-left origin) of the widget the field is
    #: listed at: its first shown widget, else its first; ``None`` for a field with none.
    page: int | None
    bbox: Box | None
    widgets: tuple[FormWidget, ...]
    read_only: bool
    required: bool
    multiline: bool
    password: bool
    #: No widget of the field is shown (hidden, or with no widget at all).
    hidden: bool
    appearance: str | None
    appearance_differs: bool


def labelled_fields(engine: EngineDocument) -> list[LabelledField]:
    """The document's terminal fields, each labelled, in the order their widgets stand
    (page, then top to bottom, then left to right); fields without a widget last, in the
    form's order. The pages that hold widgets of unlabelled fields are read once each."""
    fields = engine.form_fields()
    homes = [_home(f) for f in fields]
    wanted = sorted({w.page for f, w in zip(fields, homes, strict=True) if w and not f.label})
    lines: dict[int, list[Line]] = {}
    for number in wanted:
        content = engine.page(number)
        # What the page draws upright (its lines of text), not the values placed in widgets.
        lines[number] = build_lines(
            r for r in content.runs if not r.form_field and r.direction == 0
        )
    out: list[LabelledField] = []
    for f, home in zip(fields, homes, strict=True):
        label = f.label
        source: LabelSource | None = "tooltip" if label else None
        if label is None and home is not None:
            label = nearby_label(lines.get(home.page, []), home.rect, f.kind == "checkbox")
            source = "nearby_text" if label else None
        out.append(
            LabelledField(
                name=f.name,
                kind=f.kind,
                label=label,
                label_source=source,
                value=f.value,
                options=f.options,
                page=home.page if home else None,
                bbox=home.rect if home else None,
                widgets=f.widgets,
                read_only=f.read_only,
                required=f.required,
                multiline=f.multiline,
                password=f.password,
                hidden=not any(w.shown for w in f.widgets),
                appearance=f.appearance,
                appearance_differs=f.appearance_differs,
            )
        )
    placed = [f for f in out if f.bbox is not None]
    placed.sort(key=lambda f: (f.page or 0, f.bbox[1] if f.bbox else 0, f.bbox[0] if f.bbox else 0))
    return placed + [f for f in out if f.bbox is None]


def _home(field: FormField) -> FormWidget | None:
    shown = [w for w in field.widgets if w.shown] or list(field.widgets)
    return shown[0] if shown else None


def nearby_label(lines: Sequence[Line], box: Box, right_first: bool = False) -> str | None:
    """The page text that labels a widget at ``box``: just left of it on its line (just
    right of it first for a checkbox), else on the line just above it."""
    same = [ln for ln in lines if _same_line(ln, box)]
    found = None
    if right_first:
        found = _right(same, box)
    found = found or _left(same, box) or _above(lines, box)
    if not found:
        return None
    return found if len(found) <= MAX_LABEL_CHARS else found[: MAX_LABEL_CHARS - 1] + "…"


def _same_line(line: Line, box: Box) -> bool:
    """The line's middle lies within the widget's height, or the widget's within the line's."""
    middle = (line.y0 + line.y1) / 2
    widget_middle = (box[1] + box[3]) / 2
    return box[1] <= middle <= box[3] or line.y0 <= widget_middle <= line.y1


def _pieces(line: Line, box: Box) -> list[tuple[float, float, str]]:
    """The line's pieces (horizontal extent, text) outside the widget, left to right."""
    across = box[1] <= (line.y0 + line.y1) / 2 <= box[3]
    out = []
    for x0, x1, text in line.spans or [(line.x0, line.x1, line.text)]:
        if text.strip() and not (across and box[0] <= (x0 + x1) / 2 <= box[2]):
            out.append((x0, x1, text))
    out.sort()
    return out


def _phrase(pieces: list[tuple[float, float, str]], size: float) -> str:
    """Pieces next to each other joined as the layout joins a line's runs."""
    parts: list[str] = []
    right: float | None = None
    for x0, x1, text in pieces:
        if right is not None and x0 - right > WORD_GAP_EMS * size:
            parts.append(" ")
        parts.append(text)
        right = x1 if right is None else max(right, x1)
    return " ".join("".join(parts).split())


def _left(lines: list[Line], box: Box) -> str | None:
    best: tuple[float, str] | None = None
    for line in lines:
        size = max(line.size, 1.0)
        before = [p for p in _pieces(line, box) if p[1] <= box[0] + OVERLAP_EMS * size]
        if not before or box[0] - before[-1][1] > LEFT_GAP_EMS * size:
            continue
        # Words back from the widget while they follow each other closely.
        start = len(before) - 1
        while start > 0 and before[start][0] - before[start - 1][1] <= PHRASE_GAP_EMS * size:
            start -= 1
        text = _phrase(before[start:], size)
        if text and (best is None or before[-1][1] > best[0]):
            best = (before[-1][1], text)
    return best[1] if best else None


def _right(lines: list[Line], box: Box) -> str | None:
    best: tuple[float, str] | None = None
    for line in lines:
        size = max(line.size, 1.0)
        after = [p for p in _pieces(line, box) if p[0] >= box[2] - OVERLAP_EMS * size]
        if not after or after[0][0] - box[2] > RIGHT_GAP_EMS * size:
            continue
        end = 1
        while end < len(after) and after[end][0] - after[end - 1][1] <= PHRASE_GAP_EMS * size:
            end += 1
        text = _phrase(after[:end], size)
        if text and (best is None or after[0][0] < best[0]):
            best = (after[0][0], text)
    return best[1] if best else None


def _above(lines: Sequence[Line], box: Box) -> str | None:
    best: tuple[float, str] | None = None
    for line in lines:
        size = max(line.size, 1.0)
        gap = box[1] - line.y1
        if not -OVERLAP_EMS * size <= gap <= ABOVE_GAP_EMS * size or _same_line(line, box):
            continue
        over = [
            p
            for p in _pieces(line, box)
            if p[1] > box[0] - OVERLAP_EMS * size and p[0] < box[2] + OVERLAP_EMS * size
        ]
        if not over:
            continue
        text = _phrase(over, size)
        if text and (best is None or line.y1 > best[0]):
            best = (line.y1, text)
    return best[1] if best else None
