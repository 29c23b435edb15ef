"""Turned text: runs set a quarter, a half or three quarters clockwise (a page whose content is
drawn sideways, a landscape table on a portrait page, a rotated column header) are laid out in
their own upright frame, where lines, columns and tables look as they do on an upright page.

A frame is named by its number of clockwise quarter turns ``k`` (1, 2 or 3). Mapping a box into
the frame of ``k`` turns it back by ``k`` quarters and keeps coordinates positive, so a run of
direction ``3`` (one quarter) becomes upright in frame 1.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pdfthin.engine.types import PageContent, TextRun

#: Run direction -> clockwise quarter turns (upright 0; 3, 4, 5 are one to three quarters).
QUARTERS = {0: 0, 3: 1, 4: 2, 5: 3}
_DIRECTION = {0: 0, 1: 3, 2: 4, 3: 5}

Box = tuple[float, float, float, float]


def dominant_turn(runs: list[TextRun]) -> int:
    """The quarter turns of most of the page's (upright or turned) text, by characters."""
    if not any(run.direction in (3, 4, 5) for run in runs):
        return 0  # nothing turned (almost every page)
    chars = [0, 0, 0, 0]
    for run in runs:
        k = QUARTERS.get(run.direction)
        if k is not None:
            chars[k] += len(run.text.strip())
    best = max(range(4), key=lambda k: (chars[k], k == 0))
    return best if chars[best] > chars[0] else 0


def frame_size(k: int, width: float, height: float) -> tuple[float, float]:
    return (height, width) if k % 2 else (width, height)


def to_frame(box: Box, k: int, width: float, height: float) -> Box:
    """A display-space box (``width`` x ``height`` page) in the frame of ``k`` turns."""
    x0, y0, x1, y1 = box
    if k == 1:
        return (y0, width - x1, y1, width - x0)
    if k == 2:
        return (width - x1, height - y1, width - x0, height - y0)
    if k == 3:
        return (height - y1, x0, height - y0, x1)
    return box


def from_frame(box: Box, k: int, width: float, height: float) -> Box:
    """The inverse of :func:`to_frame` (``width`` x ``height`` is the display page)."""
    x0, y0, x1, y1 = box
    if k == 1:
        return (width - y1, x0, width - y0, x1)
    if k == 2:
        return (width - x1, height - y1, width - x0, height - y0)
    if k == 3:
        return (y0, height - x1, y1, height - x0)
    return box


def turn_run(run: TextRun, k: int, width: float, height: float) -> TextRun:
    """``run`` in the frame of ``k`` turns, its direction counted in that frame."""
    x0, y0, x1, y1 = to_frame((run.x0, run.y0, run.x1, run.y1), k, width, height)
    direction = run.direction
    if direction in QUARTERS:
        direction = _DIRECTION[(QUARTERS[direction] - k) % 4]
    return dataclasses.replace(run, x0=x0, y0=y0, x1=x1, y1=y1, direction=direction)


def turn_page(page: PageContent, k: int) -> PageContent:
    """The page's text and rules in the frame of ``k`` turns (the rest is not laid out)."""
    width, height = frame_size(k, page.width, page.height)
    return dataclasses.replace(
        page,
        width=width,
        height=height,
        runs=[turn_run(r, k, page.width, page.height) for r in page.runs],
        rules=[to_frame(rule, k, page.width, page.height) for rule in page.rules],
    )
