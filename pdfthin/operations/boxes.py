"""Boxes an agent gives back: the form of a ``boxes`` argument (``render_citation``'s ``bbox``).

A box is four numbers in points on the page as displayed (origin top left, y down, after its
``/Rotate`` and crop box): the ``bbox`` every answer names a place with. One argument holds
one box or several (a quote across lines has a box per line), in the forms an agent has at
hand:

- a string ``"x0,y0,x1,y1"``, boxes separated by ``;`` (the command line's ``--bbox``);
- an object ``{"x0", "y0", "x1", "y1"}``, with the ``page`` it is on when it has one (a
  ``bbox`` of ``get_chunks``, one of the line boxes of ``verify_quote``);
- a list of such objects (``verify_quote``'s ``match.bbox`` as it is).

The form is checked here, whatever the document (``invalid_argument``); whether the boxes lie
on the page is the handler's check.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from pdfthin.errors import PdfthinError, shown

#: The most boxes one argument holds: a long quote's lines, with room to spare.
MAX_BOXES = 200
#: The longest string form (about 25 characters a box).
MAX_BOXES_CHARS = MAX_BOXES * 60
#: No coordinate lies further from a page's corner than this (pages are at most 14 400 points
#: wide, user units aside): a larger number is a mistake, refused before any work.
MAX_COORDINATE = 1_000_000.0

_NUMBER = r"-?(?:\d+(?:\.\d*)?|\.\d+)"
_BOX = rf"\s*{_NUMBER}\s*,\s*{_NUMBER}\s*,\s*{_NUMBER}\s*,\s*{_NUMBER}\s*"
#: The string form: boxes separated by semicolons (one may end the list).
BOXES_PATTERN = rf"^{_BOX}(?:;{_BOX})*;?\s*$"
_CORNERS = ("x0", "y0", "x1", "y1")


@dataclass(frozen=True)
class Rect:
    """A box on a page as displayed, in points; ``page`` when the box said which."""

    x0: float
    y0: float
    x1: float
    y1: float
    page: int | None = None

    @property
    def corners(self) -> tuple[float, float, float, float]:
        return (self.x0, self.y0, self.x1, self.y1)


def _object_schema() -> dict[str, Any]:
    corner = {"type": "number"}
    return {
        "type": "object",
        "properties": {
            **{name: corner for name in _CORNERS},
            "page": {"type": "integer", "minimum": 1},
        },
        "required": list(_CORNERS),
        "additionalProperties": False,
    }


def boxes_schema() -> dict[str, Any]:
    """The JSON schema of a ``boxes`` argument: its three forms."""
    box = _object_schema()
    return {
        "anyOf": [
            {"type": "string", "pattern": BOXES_PATTERN, "maxLength": MAX_BOXES_CHARS},
            box,
            {"type": "array", "items": box, "minItems": 1, "maxItems": MAX_BOXES},
        ]
    }


def parse_boxes(value: Any, name: str) -> tuple[Rect, ...]:
    """The boxes ``value`` holds, in its order; ``invalid_argument`` naming ``name`` when it
    is not one of the forms, or a box is empty or turned inside out (x1 must exceed x0, y1
    exceed y0)."""

    def bad(why: str) -> PdfthinError:
        return PdfthinError(
            "invalid_argument",
            f'{name} must be a box or boxes: "x0,y0,x1,y1;x0,y0,x1,y1", '
            f"{{x0, y0, x1, y1}} or a list of those, in points on the page as displayed; {why}",
            argument=name,
        )

    if isinstance(value, str):
        if len(value) > MAX_BOXES_CHARS:
            raise bad(f"got more than {MAX_BOXES_CHARS} characters")
        if not re.match(BOXES_PATTERN, value):
            raise bad(f"got {shown(value)}")
        parts = [part for part in value.split(";") if part.strip()]
        rects = [_rect([float(v) for v in part.split(",")], None, bad) for part in parts]
    elif isinstance(value, dict):
        rects = [_from_object(value, bad)]
    elif isinstance(value, list):
        if not value:
            raise bad("got an empty list")
        rects = [_from_object(item, bad) for item in value[: MAX_BOXES + 1]]
    else:
        raise bad(f"got {shown(value)}")
    if len(rects) > MAX_BOXES:
        raise bad(f"at most {MAX_BOXES} boxes")
    return tuple(rects)


def _from_object(item: Any, bad: Any) -> Rect:
    if not isinstance(item, dict):
        raise bad(f"a box is {shown(item)}")
    extra = sorted(str(key) for key in item if key not in (*_CORNERS, "page"))
    if extra:
        raise bad(f"a box has {', '.join(extra)} besides x0, y0, x1, y1 and page")
    missing = [key for key in _CORNERS if key not in item]
    if missing:
        raise bad(f"a box lacks {', '.join(missing)}")
    values = [item[key] for key in _CORNERS]
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise bad(f"a corner is {shown(v)}, not a number")
    page = item.get("page")
    if page is not None and (isinstance(page, bool) or not isinstance(page, int) or page < 1):
        raise bad(f"a box's page is {shown(page)}, not a page number")
    return _rect([float(v) for v in values], page, bad)


def _rect(values: list[float], page: int | None, bad: Any) -> Rect:
    if not all(math.isfinite(v) and abs(v) <= MAX_COORDINATE for v in values):
        raise bad(f"a corner lies beyond {MAX_COORDINATE:g} points")
    x0, y0, x1, y1 = values
    if x1 <= x0 or y1 <= y0:
        raise bad(f"the box {x0:g},{y0:g},{x1:g},{y1:g} is empty (x1 must exceed x0, y1 y0)")
    return Rect(x0, y0, x1, y1, page)
