"""The document's form fields with a label for each: the field's tooltip (``/TU``) when the
file gives one, else the page text that stands beside its widget, as a person filling the form
reads it.

Nearby text is looked for on the widget's page, among the lines the page itself draws (the
values the engine places in widgets are left out): on the widget's line just left of it (for a
checkbox, just right of it first, where a checkbox's label is set); then on the line just above
it, over its width. Every distance is in the font size of the text measured, so the rule holds
at any scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Literal

from pdfthin.engine.types import FormField
from pdfthin.layout.lines import build_lines

if TYPE_CHECKING:
    from pdfthin.engine import EngineDocument
    from pdfthin.layout.types import Line

Box = tuple[float, float, float, float]
Piece = tuple[float, float, str]
LabelSource = Literal["tooltip", "nearby_text"]

#: A label left of its widget ends at most this many of its font sizes before the widget:
#: forms align their boxes in a column after labels of different lengths, so the gap of the
#: shortest label is several ems; further away, the text belongs to something else.
LEFT_GAP_EMS = 10.0
#: A checkbox's label starts right beside it, within this many of its font sizes.
RIGHT_GAP_EMS = 2.0
#: A label above its widget ends at most this many of its font sizes above the widget's top
#: (a line's spacing and a little more).
ABOVE_GAP_EMS = 1.5
#: How far text may reach into the widget's box and still stand beside it (boxes are drawn
#: loosely), in font sizes.
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
class LabelledField(FormField):
    """A form field as the operations give it: ``label`` is the tooltip
    (``label_source`` ``"tooltip"``), else the page text beside its widget (``"nearby_text"``),
    else ``None``; ``page`` and ``bbox`` (displayed, points, top-left origin) are those of its
    first shown widget, else its first; ``None`` for a field without a widget."""

    label_source: LabelSource | None = None
    page: int | None = None
    bbox: Box | None = None


def labelled_fields(engine: EngineDocument) -> list[LabelledField]:
    """The document's terminal fields, each labelled, in the order their widgets stand
    (page, then top to bottom, then left to right); fields without a widget last, in the
    form's order. The pages that hold widgets of unlabelled fields are read once each."""
    lines: dict[int, list[Line]] = {}
    placed: list[LabelledField] = []
    loose: list[LabelledField] = []
    for f in engine.form_fields():
        home = next((w for w in f.widgets if w.shown), f.widgets[0] if f.widgets else None)
        label, source = f.label, "tooltip" if f.label else None
        if home is not None and label is None:
            if home.page not in lines:
                # What the page draws upright (its lines), not the values placed in widgets.
                runs = engine.page(home.page).runs
                lines[home.page] = build_lines(
                    r for r in runs if not r.form_field and r.direction == 0
                )
            label = nearby_label(lines[home.page], home.rect, f.kind == "checkbox")
            source = "nearby_text" if label else None
        own = {k.name: getattr(f, k.name) for k in fields(FormField)}
        own["label"] = label
        item = LabelledField(
            **own,
            label_source=source,  # type: ignore[arg-type]  # one of LabelSource or None
            page=home.page if home else None,
            bbox=home.rect if home else None,
        )
        (placed if home else loose).append(item)
    placed.sort(key=lambda f: (f.page, f.bbox[1], f.bbox[0]))  # type: ignore[index]
    return placed + loose


def nearby_label(lines: Sequence[Line], box: Box, right_first: bool = False) -> str | None:
    """The page text that labels a widget at ``box``: just left of it on its line (just
    right of it first for a checkbox), else on the line just above it."""
    found = (right_first and _beside(lines, box, 1)) or _beside(lines, box, -1)
    found = found or _above(lines, box)
    if not found:
        return None
    return found if len(found) <= MAX_LABEL_CHARS else found[: MAX_LABEL_CHARS - 1] + "…"


def _pieces(line: Line, box: Box) -> list[Piece]:
    """The line's pieces (horizontal extent, text) outside the widget, left to right."""
    across = box[1] <= (line.y0 + line.y1) / 2 <= box[3]
    return sorted(
        (x0, x1, text)
        for x0, x1, text in line.spans or [(line.x0, line.x1, line.text)]
        if text.strip() and not (across and box[0] <= (x0 + x1) / 2 <= box[2])
    )


def _phrase(pieces: Sequence[Piece], size: float) -> str:
    """Pieces next to each other joined as the layout joins a line's runs."""
    parts: list[str] = []
    right = pieces[0][0]
    for x0, x1, text in pieces:
        parts.append(" " + text if x0 - right > WORD_GAP_EMS * size else text)
        right = max(right, x1)
    return " ".join("".join(parts).split())


def _beside(lines: Sequence[Line], box: Box, side: int) -> str:
    """The words on the widget's line just left (``side`` -1) or right (1) of it, while they
    follow each other closely; the nearest line's when several qualify."""
    best: tuple[float, str] = (float("inf"), "")
    for line in lines:
        middle = (line.y0 + line.y1) / 2
        if not (box[1] <= middle <= box[3] or line.y0 <= (box[1] + box[3]) / 2 <= line.y1):
            continue
        size = max(line.size, 1.0)
        edge = box[2] if side > 0 else box[0]
        # Distances from the widget outwards: pieces on the far side, nearest first.
        out = [
            (d, p)
            for p in _pieces(line, box)
            if (d := (p[0] - edge if side > 0 else edge - p[1])) >= -OVERLAP_EMS * size
        ]
        out.sort()
        limit = (RIGHT_GAP_EMS if side > 0 else LEFT_GAP_EMS) * size
        if not out or out[0][0] > limit or out[0][0] >= best[0]:
            continue
        words = [out[0][1]]
        for _, p in out[1:]:
            near = words[-1]
            if (p[0] - near[1] if side > 0 else near[0] - p[1]) > PHRASE_GAP_EMS * size:
                break
            words.append(p)
        best = (out[0][0], _phrase(sorted(words), size))
    return best[1]


def _above(lines: Sequence[Line], box: Box) -> str:
    """The words of the nearest line just above the widget, over its width."""
    best: tuple[float, str] = (-float("inf"), "")
    for line in lines:
        size = max(line.size, 1.0)
        slack = OVERLAP_EMS * size
        if not -slack <= box[1] - line.y1 <= ABOVE_GAP_EMS * size or line.y1 <= best[0]:
            continue
        if (line.y0 + line.y1) / 2 >= box[1]:
            continue  # the widget's own line
        over = [p for p in _pieces(line, box) if p[1] > box[0] - slack and p[0] < box[2] + slack]
        if over:
            best = (line.y1, _phrase(over, size))
    return best[1]
