"""The page text under a box: what a link's rectangle or a highlight's quadrilaterals cover.

Geometry only. A word of a run belongs to a box when its centre lies inside the box grown by
:data:`MARGIN_EM` of the word's size; a word's extent is estimated from its place in the run
(characters of one run share its width evenly), which is exact enough at word granularity:
link and highlight boxes are drawn around whole words, give or take a fraction of an em.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pdfthin.layout.lines import WORD_GAP_EM

if TYPE_CHECKING:
    from pdfthin.engine.types import TextRun

Box = tuple[float, float, float, float]

#: A box is grown by this many ems of the text's size before a word's centre is tested:
#: writers draw link rectangles a little inside or outside the glyphs' extent.
MARGIN_EM = 0.25
#: Two words whose centres are less than this many ems apart vertically share a line.
SAME_LINE_EM = 0.5
#: The text under one box is cut here (a link over a whole page of text is not an anchor).
MAX_COVERED_CHARS = 2_000
_WORD = re.compile(r"\S+")


class Covering:
    """A page's runs indexed by their middles, for the text under many boxes: a page of
    thousands of links asks once per link, and each asks only about the runs level with its
    boxes (looking at every run for every link cost their product)."""

    def __init__(self, runs: Sequence[TextRun]) -> None:
        self.runs = runs
        entries: list[tuple[float, int]] = []
        self._margins: dict[int, float] = {}
        reach = 0.0
        for i, run in enumerate(runs):
            if not run.text.strip() or run.x1 <= run.x0:
                continue
            cy = (run.y0 + run.y1) / 2
            if math.isnan(cy):
                continue  # level with no box
            size = run.size if run.size > 0 else run.y1 - run.y0
            entries.append((cy, i))
            self._margins[i] = MARGIN_EM * size
            reach = max(reach, MARGIN_EM * size)
        entries.sort()
        self._middles = [cy for cy, _ in entries]
        self._order = [i for _, i in entries]
        #: The widest margin of any run: the runs a box can take have their middles within
        #: it of the box's bottom and top.
        self._reach = reach

    def text(self, boxes: Sequence[Box]) -> str:
        """:func:`covered_text` of the page's runs."""
        if not boxes:
            return ""
        near: set[int] = set()
        runs, margins = self.runs, self._margins
        for box in boxes:
            low = bisect.bisect_left(self._middles, box[1] - self._reach)
            high = bisect.bisect_right(self._middles, box[3] + self._reach)
            # Of the runs level with the box, those that reach across it (a word's middle
            # lies within its run): a row of a thousand linked words asks about one or two.
            for i in self._order[low:high]:
                run, margin = runs[i], margins[i]
                if run.x1 >= box[0] - margin and run.x0 <= box[2] + margin:
                    near.add(i)
        # In the page's order, as a scan of every run meets them (equal places keep it).
        return covered_text([runs[i] for i in sorted(near)], boxes)


def covered_text(runs: Sequence[TextRun], boxes: Sequence[Box]) -> str:
    """The words of ``runs`` whose centres lie inside any of ``boxes``, in line order (top to
    bottom, then left to right), joined by single spaces where the page has a gap or shows a
    space (``TextRun.space_after``)."""
    if not boxes:
        return ""
    # (y, x0, x1, size, text, a space shown after it)
    words: list[tuple[float, float, float, float, str, bool]] = []
    for run in runs:
        text = run.text
        if not text.strip() or run.x1 <= run.x0:
            continue
        size = run.size if run.size > 0 else run.y1 - run.y0
        margin = MARGIN_EM * size
        cy = (run.y0 + run.y1) / 2
        # The run's words share its middle: the boxes level with it are the only ones to test
        # (most runs of a page are level with none, and are not cut into words).
        level = [b for b in boxes if b[1] - margin <= cy <= b[3] + margin]
        if not level:
            continue
        if run.direction != 0:
            # Turned text: the run is the finest unit whose place is known.
            pieces = [(run.x0, run.x1, " ".join(text.split()))]
        else:
            per_char = (run.x1 - run.x0) / len(text)
            pieces = [
                (run.x0 + per_char * m.start(), run.x0 + per_char * m.end(), m.group())
                for m in _WORD.finditer(text)
            ]
        last = len(pieces) - 1
        for k, (x0, x1, word) in enumerate(pieces):
            cx = (x0 + x1) / 2
            if any(b[0] - margin <= cx <= b[2] + margin for b in level):
                words.append((cy, x0, x1, size, word, k == last and run.space_after))
    if not words:
        return ""
    words.sort(key=lambda w: (w[0], w[1]))
    lines: list[list[tuple[float, float, float, float, str, bool]]] = []
    for placed in words:
        if lines and abs(placed[0] - lines[-1][0][0]) < SAME_LINE_EM * placed[3]:
            lines[-1].append(placed)
        else:
            lines.append([placed])
    parts: list[str] = []
    for line in lines:
        line.sort(key=lambda w: w[1])
        joined = line[0][4]
        for before, after in itertools.pairwise(line):
            gap = after[1] - before[2]
            space = before[5] or gap > WORD_GAP_EM * min(before[3], after[3])
            joined += (" " if space else "") + after[4]
        parts.append(joined)
    out = " ".join(parts)
    return out if len(out) <= MAX_COVERED_CHARS else out[: MAX_COVERED_CHARS - 1] + "…"
