"""Footnotes in the page's Markdown: a raised note mark in the text becomes ``[^n]`` and the
note at the foot of the page becomes ``[^n]: text``, where the page's geometry makes it
certain; anything less stays as it was printed.

Certain means all of:

- the **mark** is a short number or symbol (1 to 3 digits, or one of ``*†‡§¶``) drawn as a run
  of its own right after a word of body-size text on the same line, and raised: its baseline
  above the word's by :attr:`FootnoteSettings.rise_em` of the word's size, or set smaller
  and top-aligned with it (a superscript either way). The word before it is a word (two
  letters or more, or closing punctuation), not a lone letter or a number: ``x²`` and
  ``10³`` are exponents;
- the **note** is a line at the foot of the page (in its lower part, set smaller than the
  page's body text, with no body-size text below it) that opens with the same mark (raised or
  not) followed by its text; a mark followed by ``.`` or ``)`` opens a numbered list (a list
  of references), not a note;
- each mark stands once in the text and opens one note; the numbered notes of the page run
  on without a gap, top to bottom, and every raised number after a word has its note (else
  none of the page's numbered notes is linked). A mark whose note is on another page, a note
  without its mark, a number used twice: all stay text.

The marks and notes are found on the page's runs and lines, a note by the rule headings use
to tell a footnote from a heading (:data:`pdfthin.layout.headings.NOTE_SIZE_RATIO`: smaller
than the body, low on the page, nothing of body size below it), and placed in the Markdown by
their words, as links are (:mod:`pdfthin.model.links`): a place that is not unique leaves the
note as text. The page's plain text does not change, so ``find``, chunks
and anchors read the page as printed.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdfthin.layout.headings import NOTE_SIZE_RATIO
from pdfthin.layout.lines import NOTE_SIGNS

if TYPE_CHECKING:
    from pdfthin.engine.types import TextRun
    from pdfthin.layout.types import Line, PageLayout
    from pdfthin.model.markdown import Anchor

#: A note mark: one to three digits, or one symbol.
_MARK = re.compile(r"^(?:\d{1,3}|[" + re.escape(NOTE_SIGNS) + r"])$")
#: A note line's first run holding its mark and text together ("1 The note").
_MARK_AND_TEXT = re.compile(r"^(\d{1,3}|[" + re.escape(NOTE_SIGNS) + r"])\s+(?=[^\s.)])")
#: Symbols as footnote labels (GitHub writes ``[^label]``); a number is its own label.
SYMBOL_LABELS = {"*": "ast", "†": "dagger", "‡": "ddagger", "§": "sect", "¶": "para"}
#: Blocks whose text never takes a footnote.
_LITERAL = frozenset({"code", "table"})
#: What may close the word before a mark ("end.¹", "(see below)²").
_CLOSERS = frozenset(".,;:!?)]”’\"'")


@dataclass(frozen=True, slots=True)
class FootnoteSettings:
    """The thresholds, in ems of the text the mark or note is measured against."""

    #: A raised mark's baseline stands at least this far above the baseline of the word
    #: before it (in that word's size).
    rise_em: float = 0.15
    #: A mark set this much smaller than its word, its top level with the word's top (within
    #: ``top_em``), is a superscript too, however little it is raised.
    small_ratio: float = 0.8
    top_em: float = 0.15
    #: The mark starts at most this far right of the word's end (and overlaps it by at most
    #: as much): it touches the word.
    gap_em: float = 0.35
    #: Notes are set smaller than the body text by this ratio (the headings' rule).
    note_size_ratio: float = NOTE_SIZE_RATIO
    #: Notes stand below this share of the page's height.
    foot_share: float = 0.5
    #: The engine's runs reach this far below their baseline (ems of their size):
    #: :mod:`pdfthin.engine.content.interpreter` sets a run's bottom there.
    descent_em: float = 0.22


@dataclass(frozen=True, slots=True)
class Footnote:
    """A note linked to its mark: its label, and the runs' places on the page."""

    label: str
    mark: str
    mark_box: tuple[float, float, float, float]
    note_box: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class _Mark:
    mark: str
    run: TextRun
    #: The word before the mark, as the line prints it (its last word).
    word: str


def _baseline(run: TextRun, s: FootnoteSettings) -> float:
    return run.y1 - s.descent_em * run.size


def body_size(layout: PageLayout) -> float:
    """The size most of the page's text is set in (by characters)."""
    sizes: Counter[float] = Counter()
    for block in layout.blocks:
        for line in block.lines:
            sizes[round(line.size, 1)] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def _note_lines(layout: PageLayout, body: float, s: FootnoteSettings) -> list[Line]:
    """Lines at the foot of the page set smaller than the body, nothing of body size below."""
    lines = [line for block in layout.blocks for line in block.lines]
    small = body * s.note_size_ratio
    out = []
    for line in lines:
        if line.size >= small or line.y0 < layout.height * s.foot_share:
            continue
        if any(
            other.size >= small
            and other.y0 >= line.y1
            and other.x0 < line.x1
            and other.x1 > line.x0
            for other in lines
        ):
            continue
        out.append(line)
    return out


def _runs_of(line: Line, runs: Sequence[TextRun]) -> list[TextRun]:
    """The runs drawn on ``line`` (their middles inside its box), left to right."""
    inside = [
        r
        for r in runs
        if r.direction == 0
        and line.y0 <= (r.y0 + r.y1) / 2 <= line.y1
        and line.x0 - 0.5 <= (r.x0 + r.x1) / 2 <= line.x1 + 0.5
        and r.text.strip()
    ]
    return sorted(inside, key=lambda r: r.x0)


def _note_mark(line: Line, runs: Sequence[TextRun]) -> tuple[str, TextRun] | None:
    """The mark a note line opens with, and its first run."""
    mine = _runs_of(line, runs)
    if len(mine) < 1:
        return None
    first = mine[0].text.strip()
    if _MARK.match(first):
        rest = mine[1].text.lstrip() if len(mine) > 1 else ""
        if not rest or rest[0] in ".)":
            return None
        return first, mine[0]
    opened = _MARK_AND_TEXT.match(mine[0].text.lstrip())
    return (opened.group(1), mine[0]) if opened else None


def _marks(
    runs: Sequence[TextRun], body: float, notes: Sequence[Line], s: FootnoteSettings
) -> list[_Mark]:
    """The raised marks after a word of body-size text."""
    small = body * s.note_size_ratio
    in_notes = {id(r) for line in notes for r in _runs_of(line, runs)}
    upright = [r for r in runs if r.direction == 0 and not r.artifact and r.text.strip()]
    beside = _Bands(upright, body)
    out: list[_Mark] = []
    for run in upright:
        mark = run.text.strip()
        if not _MARK.match(mark) or id(run) in in_notes:
            continue
        hosts = [
            h
            for h in beside.across(run)
            if h is not run
            and h.size >= small
            and h.size > run.size * 0.99
            and h.y0 < run.y1
            and run.y0 < h.y1
            and -s.gap_em * h.size <= run.x0 - h.x1 <= s.gap_em * h.size
        ]
        if not hosts:
            continue
        host = max(hosts, key=lambda h: h.x1)
        raised = _baseline(run, s) <= _baseline(host, s) - s.rise_em * host.size
        superscript = run.size <= s.small_ratio * host.size and run.y0 <= host.y0 + s.top_em * (
            host.size
        )
        if not (raised or superscript):
            continue
        words = host.text.split()
        if not words or not _wordlike(words[-1]):
            continue
        out.append(_Mark(mark, run, words[-1]))
    return out


class _Bands:
    """The runs by horizontal band of the page, so that the runs level with one are found
    without looking at every run (a page of tables holds thousands of numbers that could be
    marks). ``across`` answers in the runs' own order, as a scan of them all would."""

    #: A run across more bands than this is looked at for every run (the index stays small
    #: whatever a run's height).
    MAX_BANDS = 64

    def __init__(self, runs: Sequence[TextRun], height: float) -> None:
        self.runs = runs
        self.height = height if math.isfinite(height) and height > 0 else 1.0
        self.bands: dict[int, list[int]] = {}
        self.tall: list[int] = []
        for i, run in enumerate(runs):
            span = self._span(run.y0, run.y1)
            if span is None:
                self.tall.append(i)
                continue
            for band in range(span[0], span[1] + 1):
                self.bands.setdefault(band, []).append(i)

    def _span(self, y0: float, y1: float) -> tuple[int, int] | None:
        if not (math.isfinite(y0) and math.isfinite(y1)):
            return None
        first, last = math.floor(y0 / self.height), math.floor(y1 / self.height)
        return (first, last) if 0 <= last - first <= self.MAX_BANDS else None

    def across(self, run: TextRun) -> list[TextRun]:
        """Every run that may overlap ``run`` vertically (and some that do not)."""
        span = self._span(run.y0, run.y1)
        if span is None:
            return list(self.runs)
        found = set(self.tall)
        for band in range(span[0], span[1] + 1):
            found.update(self.bands.get(band, ()))
        return [self.runs[i] for i in sorted(found)]


def _wordlike(word: str) -> bool:
    """A word a note mark may follow: two letters or more, or closing punctuation at its
    end; not a lone letter (``x²``) nor a number (``10³``)."""
    if word[-1] in _CLOSERS:
        return True
    return sum(ch.isalpha() for ch in word) >= 2 and word[-1].isalpha()


def _label(mark: str) -> str:
    return SYMBOL_LABELS.get(mark, mark)


def _box(run: TextRun) -> tuple[float, float, float, float]:
    return (round(run.x0, 1), round(run.y0, 1), round(run.x1, 1), round(run.y1, 1))


def _contains(box: Sequence[float], run: TextRun) -> bool:
    x, y = (run.x0 + run.x1) / 2, (run.y0 + run.y1) / 2
    return box[0] - 0.5 <= x <= box[2] + 0.5 and box[1] - 0.5 <= y <= box[3] + 0.5


def _escaped(text: str) -> str:
    """``text`` as the Markdown may show it: ASCII punctuation possibly escaped."""
    return "".join(
        ("\\\\?" + re.escape(ch)) if not ch.isalnum() and ch.isascii() else re.escape(ch)
        for ch in text
    )


def find_footnotes(
    layout: PageLayout, runs: Sequence[TextRun], settings: FootnoteSettings | None = None
) -> list[tuple[_Mark, Line, TextRun]]:
    """The page's marks paired with their notes where the geometry is certain (before they
    are placed in the Markdown): ``(mark, note line, the note's first run)``."""
    s = settings or FootnoteSettings()
    if layout.turn or not runs:
        return []
    body = body_size(layout)
    if body <= 0:
        return []
    notes = _note_lines(layout, body, s)
    if not notes:
        return []
    opened: dict[str, list[tuple[Line, TextRun]]] = {}
    numbers: list[int] = []
    for line in sorted(notes, key=lambda ln: (ln.y0, ln.x0)):
        found = _note_mark(line, runs)
        if found is None:
            continue
        opened.setdefault(found[0], []).append((line, found[1]))
        if found[0].isdigit():
            numbers.append(int(found[0]))
    # Numbered notes run on, top to bottom, without a gap (a second column of notes goes on
    # from the first: sorted by place, they may not; such pages keep their notes as text).
    if numbers and numbers != list(range(numbers[0], numbers[0] + len(numbers))):
        return []
    marks = _marks(runs, body, notes, s)
    counted = Counter(m.mark for m in marks)
    # A numbered mark used twice or without its note: the page's numbers are not certain.
    if any(m.isdigit() and (n > 1 or len(opened.get(m, ())) != 1) for m, n in counted.items()):
        marks = [m for m in marks if not m.mark.isdigit()]
    out = []
    for m in marks:
        bodies = opened.get(m.mark, [])
        if counted[m.mark] == 1 and len(bodies) == 1:
            out.append((m, bodies[0][0], bodies[0][1]))
    return out


def with_footnotes(
    markdown: str,
    anchors: list[Anchor],
    image_offsets: tuple[int, ...],
    layout: PageLayout,
    runs: Sequence[TextRun],
    settings: FootnoteSettings | None = None,
) -> tuple[str, list[Anchor], tuple[int, ...], list[Footnote]]:
    """The page's Markdown with its certain footnotes written as ``[^n]`` and ``[^n]: text``,
    its anchors and image offsets moved along, and the footnotes linked."""
    pairs = find_footnotes(layout, runs, settings)
    edits: list[tuple[int, int, str]] = []
    #: (where the note's mark starts, its end, its block's start, its label)
    notes: list[tuple[int, int, int, str]] = []
    linked: list[Footnote] = []
    for mark, line, first in pairs:
        label = _label(mark.mark)
        at_mark = _place_mark(markdown, anchors, mark)
        at_note = _place_note(markdown, anchors, mark.mark, first)
        if at_mark is None or at_note is None:
            continue
        start, end = at_mark
        edits.append((start, end, f"[^{label}]"))
        notes.append((*at_note, label))
        linked.append(
            Footnote(label, mark.mark, _box(mark.run), (line.x0, line.y0, line.x1, line.y1))
        )
    for start, end, block, label in notes:
        # A definition starts a line: a block's first, or one after a line break that follows
        # another definition; else it is made a block of its own.
        after_note = any(b == block and s < start for s, _, b, _ in notes)
        lead = "" if start == block else "\n" if after_note else "\n\n"
        edits.append((start, end, f"{lead}[^{label}]:"))
    if not edits:
        return markdown, anchors, image_offsets, []
    edits.sort()
    if any(a[1] > b[0] for a, b in itertools.pairwise(edits)):
        return markdown, anchors, image_offsets, []  # two edits over the same characters
    out: list[str] = []
    done = 0
    for start, end, text in edits:
        out.append(markdown[done:start])
        out.append(text)
        done = end
    out.append(markdown[done:])

    def shift(offset: int) -> int:
        return offset + sum(len(t) - (e - s) for s, e, t in edits if e <= offset and s < offset)

    moved = [
        a.spanning(shift(a.offset), shift(a.offset + a.length) - shift(a.offset)) for a in anchors
    ]
    return "".join(out), moved, tuple(shift(at) for at in image_offsets), linked


def _place_mark(markdown: str, anchors: Sequence[Anchor], mark: _Mark) -> tuple[int, int] | None:
    """Where the mark stands in the Markdown, right after its word: once, in the block that
    holds it."""
    pattern = re.compile(
        r"(?<![\w\\])"
        + _escaped(mark.word)
        + r"(?:\*{1,3}|_{1,3})? ?("
        + _escaped(mark.mark)
        + r")(?![\w*†‡§¶])"
    )
    found: list[tuple[int, int]] = []
    for anchor in anchors:
        if anchor.kind in _LITERAL or not _contains(anchor.box, mark.run):
            continue
        block = markdown[anchor.offset : anchor.offset + anchor.length]
        found.extend(
            (anchor.offset + m.start(1), anchor.offset + m.end(1)) for m in pattern.finditer(block)
        )
    return found[0] if len(found) == 1 else None


def _place_note(
    markdown: str, anchors: Sequence[Anchor], mark: str, first: TextRun
) -> tuple[int, int, int] | None:
    """Where the note's mark stands in the Markdown, at the start of a line of the block that
    holds the note: ``(start, end, the block's start)``; the start of a line within a block is
    its line break. The space after the mark, if any, stays as printed (``[^1]:Text`` is a
    definition too)."""
    pattern = re.compile(r"(^|\n)" + _escaped(mark) + r"(?![\d.)])(?=[^\S\n]*\S)")
    found: list[tuple[int, int, int]] = []
    for anchor in anchors:
        if anchor.kind in _LITERAL or not _contains(anchor.box, first):
            continue
        block = markdown[anchor.offset : anchor.offset + anchor.length]
        found.extend(
            (anchor.offset + m.start(), anchor.offset + m.end(), anchor.offset)
            for m in pattern.finditer(block)
        )
    return found[0] if len(found) == 1 else None
