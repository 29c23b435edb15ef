"""Runs -> lines: runs sharing a baseline are joined left to right, gaps become spaces, and a
gap wide enough to be a column gutter or a table cell boundary splits the line in two."""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable

from ..engine.types import TextRun
from .types import Line

#: A gap wider than this (in ems of the smaller neighbour) is a word space.
WORD_GAP_EM = 0.13
#: A gap wider than this separates two lines on the same baseline (columns, table cells).
SPLIT_GAP_EM = 1.25
#: A narrower gap (down to this many ems) splits a line too when it lines up with the same
#: gap on at least GUTTER_MIN_ROWS other rows: a column gutter.
GUTTER_GAP_EM = 0.6
GUTTER_MIN_ROWS = 3
#: Two runs whose boxes overlap vertically by this share of the smaller one share a line.
SAME_LINE_OVERLAP = 0.5


def build_lines(runs: Iterable[TextRun]) -> list[Line]:
    """Group horizontal runs into lines (top to bottom, left to right)."""
    ordered = sorted(runs, key=lambda r: ((r.y0 + r.y1) / 2, r.x0))
    rows: list[list[TextRun]] = []
    row_boxes: list[list[float]] = []  # [top, bottom, center] per row
    for run in ordered:
        height = run.y1 - run.y0
        if height <= 0:
            continue
        placed = False
        # Only the last few rows can overlap this run (runs come sorted by centre).
        for k in range(len(rows) - 1, max(-1, len(rows) - 6), -1):
            top, bottom, _center = row_boxes[k]
            overlap = min(bottom, run.y1) - max(top, run.y0)
            if overlap >= SAME_LINE_OVERLAP * min(height, bottom - top):
                rows[k].append(run)
                box = row_boxes[k]
                # A row keeps the box of its tallest text so sub/superscripts join it.
                if height > box[1] - box[0]:
                    box[0], box[1] = run.y0, run.y1
                placed = True
                break
            if bottom < run.y0:
                break
        if not placed:
            rows.append([run])
            row_boxes.append([run.y0, run.y1, (run.y0 + run.y1) / 2])
    for row in rows:
        row.sort(key=lambda r: r.x0)
    gutters = _gutters(rows)
    lines: list[Line] = []
    for row in rows:
        lines.extend(_split_row(row, gutters))
    lines.sort(key=lambda ln: (ln.y0, ln.x0))
    return lines


def _row_gaps(row: list[TextRun]) -> list[tuple[float, float, float]]:
    """``(start, end, em)`` of every gap between neighbouring runs of a row."""
    gaps = []
    right = row[0].x1
    for prev, run in zip(row, row[1:]):
        if run.x0 > right:
            gaps.append((right, run.x0, min(prev.size, run.size) or 1.0))
        right = max(right, run.x1)
    return gaps


def _gutters(rows: list[list[TextRun]]) -> list[tuple[float, float]]:
    """x ranges that are inside a wide-ish gap on many rows: column gutters and table
    column boundaries, which a single row's gap size cannot tell from a wide word space."""
    events: list[tuple[float, int]] = []
    gapped_rows = 0
    for row in rows:
        wide = [(a, b) for a, b, em in _row_gaps(row) if b - a >= GUTTER_GAP_EM * em]
        if wide:
            gapped_rows += 1
        for a, b in wide:
            events.append((a, 1))
            events.append((b, -1))
    if not events:
        return []
    need = max(GUTTER_MIN_ROWS, int(0.1 * gapped_rows))
    events.sort()
    out: list[tuple[float, float]] = []
    depth = 0
    start = None
    for x, delta in events:
        depth += delta
        if depth >= need and start is None:
            start = x
        elif depth < need and start is not None:
            if x > start:
                out.append((start, x))
            start = None
    return out


def _split_row(row: list[TextRun], gutters: list[tuple[float, float]]) -> list[Line]:
    out: list[Line] = []
    current: list[TextRun] = []
    right = 0.0
    for run in row:
        if current:
            last = current[-1]
            if _duplicate(last, run):
                continue
            em = min(last.size, run.size) or 1.0
            gap = run.x0 - right
            if gap > SPLIT_GAP_EM * em or (
                gap >= GUTTER_GAP_EM * em
                and any(right <= g1 and run.x0 >= g0 for g0, g1 in gutters)
            ):
                out.append(_make_line(current))
                current = []
        right = run.x1 if not current else max(right, run.x1)
        current.append(run)
    if current:
        out.append(_make_line(current))
    return out


def _duplicate(a: TextRun, b: TextRun) -> bool:
    """Fake bold: the same text drawn twice a fraction of a point apart."""
    return a.text == b.text and abs(a.x0 - b.x0) < 1.0 and abs(a.y0 - b.y0) < 1.0


def _make_line(runs: list[TextRun]) -> Line:
    parts: list[str] = []
    prev: TextRun | None = None
    right = 0.0
    weights: dict[float, int] = defaultdict(int)
    fonts: dict[str, int] = defaultdict(int)
    bold = italic = 0
    total = 0
    for run in runs:
        text = run.text
        if prev is not None:
            gap = run.x0 - right
            em = min(prev.size, run.size) or 1.0
            if (
                gap > WORD_GAP_EM * em
                and parts
                and not parts[-1].endswith(" ")
                and not text.startswith(" ")
            ):
                parts.append(" ")
        parts.append(text)
        n = len(text.strip()) or 1
        total += n
        weights[run.size] += n
        fonts[run.font] += n
        if run.bold:
            bold += n
        if run.italic:
            italic += n
        right = run.x1 if prev is None else max(right, run.x1)
        prev = run
    text = " ".join("".join(parts).split())
    if _mostly_rtl(text):
        text = _visual_to_logical(text)
    size = max(weights.items(), key=lambda kv: (kv[1], kv[0]))[0]
    return Line(
        text=text,
        x0=min(r.x0 for r in runs),
        y0=min(r.y0 for r in runs),
        x1=max(r.x1 for r in runs),
        y1=max(r.y1 for r in runs),
        size=size,
        bold=bold * 2 > total,
        italic=italic * 2 > total,
        font=max(fonts.items(), key=lambda kv: kv[1])[0],
        artifact=all(r.artifact for r in runs),
    )


def _is_rtl(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("R", "AL")


def _mostly_rtl(text: str) -> bool:
    rtl = ltr = 0
    for ch in text:
        bidi = unicodedata.bidirectional(ch)
        if bidi in ("R", "AL"):
            rtl += 1
        elif bidi == "L":
            ltr += 1
    return rtl > ltr


def _visual_to_logical(text: str) -> str:
    """Glyphs of a right-to-left line come in visual (left-to-right) order: reverse the
    line, but keep runs of left-to-right text (numbers, Latin words) in their own order."""
    reversed_text = text[::-1]
    out: list[str] = []
    chunk: list[str] = []
    for ch in reversed_text:
        if _is_rtl(ch) or ch.isspace() or unicodedata.bidirectional(ch) in ("ON", "CS", "ES"):
            if chunk:
                out.append("".join(reversed(chunk)))
                chunk = []
            out.append(_MIRROR.get(ch, ch))
        else:
            chunk.append(ch)
    if chunk:
        out.append("".join(reversed(chunk)))
    return "".join(out)


_MIRROR = {"(": ")", ")": "(", "[": "]", "]": "[", "{": "}", "}": "{", "<": ">", ">": "<"}
