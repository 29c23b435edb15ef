"""A model page's text as extraction reads it: its lines with their boxes, and its tables
with their cells, exactly as ``read_pages`` renders them (hidden text withheld, running
headers and footers left out), from what the page keeps (:class:`~pdfthin.model.markdown.Anchor`),
without reading the page again.

A line's box is the box of the whole line (points, origin top-left of the page as displayed);
a value that shares its line with its label gets the part of the line its characters take
(:func:`span_box`, estimated from typical advance widths: the page keeps lines, not glyphs). A
table keeps one box for all its cells, so a value found in a table points at its table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdfthin.engine.fonts._fontdata import CORE_METRICS
from pdfthin.model.markdown import LINE_FIELDS

if TYPE_CHECKING:
    from pdfthin.model.document import Page

Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class TextLine:
    page: int
    text: str
    box: Box

    @property
    def em(self) -> float:
        """The line's height: the size of its text, near enough, the unit of every distance
        measured from it."""
        return max(self.box[3] - self.box[1], 1.0)


@dataclass(frozen=True, slots=True)
class Table:
    page: int
    box: Box
    #: Cells row by row, the header first, unescaped.
    rows: tuple[tuple[str, ...], ...]


#: Advance widths (thousandths of an em) of a typical proportional font, Helvetica's (the
#: standard 14 metrics), for characters it lacks its default; what a part of a line spans is
#: estimated with them.
_CHARS, _ADVANCES, _DEFAULT_ADVANCE, _, _ = CORE_METRICS["Helvetica"]
_ADVANCE = dict(zip(_CHARS, _ADVANCES, strict=False))


def _advance(text: str) -> int:
    return sum(_ADVANCE.get(ch, _DEFAULT_ADVANCE) for ch in text)


#: The estimate is widened by this many ems of the line (its height) on each side, for fonts
#: whose advances differ from the typical ones; less than a word space and a colon, so the
#: label before a value stays out.
SPAN_SLACK_EM = 0.15


def span_box(line: TextLine, start: int, end: int) -> Box:
    """The part of ``line``'s box that its characters ``start``-``end`` take: the line's width
    shared by the characters' typical advances, widened by :data:`SPAN_SLACK_EM` (the whole
    box when the span is the line). An estimate: a monospaced or condensed font's glyphs may
    stand a little off it."""
    text = line.text
    start, end = max(0, start), min(len(text), end)
    total = _advance(text)
    if total <= 0 or (start == 0 and end == len(text)) or start >= end:
        return line.box
    x0, y0, x1, y1 = line.box
    width = x1 - x0
    slack = SPAN_SLACK_EM * line.em
    left = max(x0, x0 + width * _advance(text[:start]) / total - slack)
    right = min(x1, x0 + width * _advance(text[:end].rstrip()) / total + slack)
    return (round(left, 1), y0, round(right, 1), y1)


_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
_RULE_ROW = re.compile(r"^\|(?:\s*:?-+:?\s*\|)+$")


def page_lines(page: Page) -> list[TextLine]:
    """The page's lines outside tables, in reading order."""
    out: list[TextLine] = []
    for anchor in page.anchors:
        if anchor.kind == "table" or anchor.plain < 0:
            continue
        text = page.text[anchor.plain : anchor.plain + anchor.plain_length]
        marks = anchor.lines
        if not marks:
            out.extend(TextLine(page.number, t, anchor.box) for t in text.split("\n") if t)
            continue
        for i in range(0, len(marks), LINE_FIELDS):
            start = int(marks[i])
            nxt = i + LINE_FIELDS
            end = int(marks[nxt]) if nxt < len(marks) else len(text)
            piece = text[start:end].strip()
            if piece:
                box = (marks[i + 1], marks[i + 2], marks[i + 3], marks[i + 4])
                out.append(TextLine(page.number, piece, box))
    return out


def page_tables(page: Page) -> list[Table]:
    """The page's tables, each with its cells as its Markdown gives them."""
    out: list[Table] = []
    for anchor in page.anchors:
        if anchor.kind != "table":
            continue
        markdown = page.markdown[anchor.offset : anchor.offset + anchor.length]
        rows: list[tuple[str, ...]] = []
        for line in markdown.splitlines():
            line = line.strip()
            if not line.startswith("|") or _RULE_ROW.match(line):
                continue
            cells = _CELL_SPLIT.split(line[1:-1])  # the row's outer pipes off
            rows.append(tuple(_ESCAPED.sub(r"\1", c).strip() for c in cells))
        if rows:
            out.append(Table(page.number, anchor.box, tuple(rows)))
    return out
