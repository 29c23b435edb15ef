"""Runs -> lines: runs sharing a baseline are joined left to right, gaps become spaces, and a
gap wide enough to be a column gutter or a table cell boundary splits the line in two."""

from __future__ import annotations

import bisect
import dataclasses
import functools
import itertools
import operator
import re
from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from pdfthin.engine.content.bidi import logical_order
from pdfthin.layout.types import Line

if TYPE_CHECKING:
    from pdfthin.engine.types import TextRun

#: A gap wider than this (in ems of the smaller neighbour) is a word space.
WORD_GAP_EM = 0.13
#: Closing punctuation after italic or math letters sits a little away from them; only a
#: clearly wider gap before it is a space.
PUNCT_GAP_EM = 0.3
_CLOSING = frozenset(",.;:)]}!?%")
#: A gap wider than this separates two lines on the same baseline (columns, table cells).
SPLIT_GAP_EM = 1.25
#: A narrower gap (down to this many ems) splits a line too when it lines up with the same
#: gap on at least GUTTER_MIN_ROWS other rows: a column gutter.
GUTTER_GAP_EM = 0.6
GUTTER_MIN_ROWS = 3
#: Monospaced runs on one baseline join across gaps up to this many ems (code indentation).
CODE_GAP_EM = 12.0
_WORDISH = re.compile(r"^[^\W\d_][\w’'.,;:()-]*(?: [^\W\d_][\w’'.,;:()-]*){0,3}$")
#: Quotation marks and brackets around a word.
_WRAP = "\"'“”‘’«»()[]{}"
_NUMBERISH = re.compile(r"^[-+−–(]?[\d.,%/:]+[)]?[.,;]?$")
#: Evenly spaced pieces of one row up to this many ems apart are a stretched justified line.
STRETCHED_GAP_EM = 5.0
#: A reference label or list marker may sit this far (in ems) before its line's text.
LABEL_GAP_EM = 4.0
#: Two runs whose boxes overlap vertically by this share of the smaller one share a line.
SAME_LINE_OVERLAP = 0.5
#: A run of leader dots drawn under a word, more than this share of its width under it, is
#: a leader the word was set over (a table's dot leaders drawn as a layer of their own), not
#: text of the line: read in with the word, its dots would land between the word's letters.
BURIED_LEADER_SHARE = 0.5
#: Words this close (in ems) are one phrase: a leader's dots between them are under it too.
PHRASE_GAP_EM = 0.5
#: What a leader is made of ...
_LEADER_CHARS = frozenset(".·…")
#: ... and how many dots it has at least, in one run or in a chain of runs each within an em
#: of the last: fewer is punctuation (a period kerned under a letter, "17s.972").
MIN_LEADER_DOTS = 4
#: A contents entry's leader between its title and its page number, in a line's text.
TOC_LEADER = re.compile(r"(\.\s?){4,}|…{2,}|_{4,}")


def build_lines(runs: Iterable[TextRun]) -> list[Line]:
    """Group horizontal runs into lines (top to bottom, left to right).

    Two passes: page-wide rows (runs sharing a baseline anywhere on the page) give the gap
    statistics that reveal column gutters; then lines grow left to right from runs that are
    close, on the same baseline, and not across a gutter. Growing by proximity keeps a
    superscript with its own line even when a line of the next column sits at its height.
    """
    usable = _with_drop_caps(_without_buried_leaders([r for r in runs if r.y1 > r.y0]))
    lines = [_make_line(group) for group in _group(usable)]
    lines.sort(key=lambda ln: (ln.y0, ln.x0))
    return lines


#: A drop cap: a paragraph's first letter set large, its top at the first line's, beside two
#: lines or more of the paragraph's text (which run on under it). Its size is at least this
#: many times the size of the text beside it (two lines of text and their leading) ...
DROP_CAP_RATIO = 2.0
#: ... and that text starts within this many ems (of its own size) right of the letter.
DROP_CAP_GAP_EM = 2.0
#: A page showing more large single letters than this is not setting drop caps (a chart's
#: labels, a letter-by-letter title): none is read as one, and the search stays linear.
MAX_DROP_CAPS = 8


def _with_drop_caps(runs: list[TextRun]) -> list[TextRun]:
    """``runs`` with each drop cap joined to the start of the first line beside it ("T" and
    "he history of ..." read "The history of ..."): left as a run of its own, the letter's
    box, as tall as several lines, takes whichever of them lies nearest as its line. The
    letter is one alphabetic character (an opening quote may precede it), upright; beside it
    lie runs on two baselines or more, each starting within ``DROP_CAP_GAP_EM`` of its right
    edge, their middles inside its height, set at most ``1 / DROP_CAP_RATIO`` of its size; the
    first line is the highest of them, level with the letter's top half, and goes on with the
    rest of the letter's word or, after a space, the next word (``_goes_on``)."""
    if len(runs) < 3:
        return runs
    sizes = sorted(r.size for r in runs)
    median = sizes[len(sizes) // 2]
    caps = [
        r
        for r in runs
        if r.direction == 0
        and r.size >= DROP_CAP_RATIO * median
        and 1 <= len(text := r.text.strip()) <= 2
        and text[-1].isalpha()
        and (len(text) == 1 or text[0] in "\"'“‘«")
    ]
    if not caps or len(caps) > MAX_DROP_CAPS:
        return runs
    joined: dict[int, TextRun] = {}  # the first run beside a cap -> it with the cap
    dropped: set[int] = set()
    letters = {id(cap) for cap in caps}  # (a smaller cap beside a larger one is not its text)
    for cap in caps:
        beside = [
            r
            for r in runs
            if id(r) not in letters
            and r.direction == 0
            and id(r) not in joined
            and 0 < r.size * DROP_CAP_RATIO <= cap.size
            and cap.x1 - 0.1 * r.size <= r.x0 <= cap.x1 + DROP_CAP_GAP_EM * r.size
            and cap.y0 <= (r.y0 + r.y1) / 2 <= cap.y1
        ]
        baselines = {round(r.y1 / (r.size * SAME_LINE_OVERLAP)) for r in beside}
        if len(baselines) < 2:
            continue
        first = min(beside, key=lambda r: (r.y1, r.x0))
        level = (first.y0 + first.y1) / 2 <= (cap.y0 + cap.y1) / 2  # the letter's top half
        # A word space shown as a blank string after the letter ("A", " ", "long time")
        # stands between them as if the line's run began with it.
        text = " " + first.text.lstrip() if cap.space_after else first.text
        if not level or not _goes_on(text):
            continue  # not the paragraph's first line, or no word goes on from the letter
        joined[id(first)] = dataclasses.replace(
            first, text=cap.text.strip() + text, x0=min(cap.x0, first.x0)
        )
        dropped.add(id(cap))
    if not joined:
        return runs
    return [joined.get(id(r), r) for r in runs if id(r) not in dropped]


def _goes_on(text: str) -> bool:
    """Whether ``text`` can follow a drop cap: the rest of its word ("he", or "HE" set in
    small capitals), or, after a space, the next word ("A" and " long time"). A capitalised
    word right after the letter ("Q" and "How do I ...") is a label's text, not its word's."""
    if text[:1].isspace():
        return text.lstrip()[:1].isalpha()
    word = text.split(maxsplit=1)[0] if text.strip() else ""
    return word[:1].isalpha() and (word[:1].islower() or word.isupper())


def _is_leader(text: str) -> bool:
    if text.lstrip(" ")[:1] not in _LEADER_CHARS:
        return False  # (most runs, at their first character)
    stripped = text.replace(" ", "")
    return all(c in _LEADER_CHARS for c in stripped)


def _leader_chains(dots: list[TextRun]) -> list[TextRun]:
    """The runs of ``dots`` (leader characters only) that make a leader: a chain of runs on
    one line, each within an em of the last, with ``MIN_LEADER_DOTS`` dots or more."""
    by_line: dict[int, list[TextRun]] = defaultdict(list)
    for r in dots:
        by_line[int((r.y0 + r.y1) / 2 // _BUCKET)].append(r)
    out: list[TextRun] = []
    for line in by_line.values():
        line.sort(key=_start)
        chain = [line[0]]
        for run in line[1:]:
            if run.x0 - chain[-1].x1 <= (run.size or 1.0):
                chain.append(run)
                continue
            out.extend(_if_leader(chain))
            chain = [run]
        out.extend(_if_leader(chain))
    return out


def _if_leader(chain: list[TextRun]) -> list[TextRun]:
    return chain if sum(len(r.text.replace(" ", "")) for r in chain) >= MIN_LEADER_DOTS else []


def _without_buried_leaders(runs: list[TextRun]) -> list[TextRun]:
    """``runs`` without the runs of a leader (``_leader_chains``) that lie under the text of
    the same line (``BURIED_LEADER_SHARE``): under a word, or under the space between two
    words of a phrase (set at most ``PHRASE_GAP_EM`` apart). Horizontal text only."""
    leaders = _leader_chains([r for r in runs if r.direction == 0 and _is_leader(r.text)])
    if not leaders:
        return runs
    # The phrases, by the bucket of their middle height: a leader is compared with its
    # neighbours only.
    words = sorted(
        (
            r
            for r in runs
            if r.direction == 0 and not _is_leader(r.text) and any(c.isalnum() for c in r.text)
        ),
        key=_start,
    )
    # Each word extends the last phrase of its bucket or opens one: one comparison a word,
    # and a bucket's phrases start left to right (the words are sorted by their start).
    phrases: dict[int, list[list[float]]] = defaultdict(list)  # [x0, y0, x1, y1]
    for w in words:
        row = phrases[int((w.y0 + w.y1) / 2 // _BUCKET)]
        last = row[-1] if row else None
        if (
            last is not None
            and w.x0 - last[2] <= PHRASE_GAP_EM * (w.size or 1.0)
            and min(last[3], w.y1) - max(last[1], w.y0)
            >= SAME_LINE_OVERLAP * min(last[3] - last[1], w.y1 - w.y0)
        ):
            last[1], last[2], last[3] = min(last[1], w.y0), max(last[2], w.x1), max(last[3], w.y1)
        else:
            row.append([w.x0, w.y0, w.x1, w.y1])
    starts = {k: [ph[0] for ph in row] for k, row in phrases.items()}
    buried: set[int] = set()
    for d in leaders:
        width = d.x1 - d.x0
        if width <= 0:
            continue
        key = int((d.y0 + d.y1) / 2 // _BUCKET)
        for k in (key - 1, key, key + 1):
            near = phrases.get(k)
            if not near:
                continue
            # The two phrases starting last before the dot ends: the ones that can lie over it.
            j = bisect.bisect_right(starts[k], d.x1)
            if any(
                min(x1, d.x1) - max(x0, d.x0) > BURIED_LEADER_SHARE * width
                and min(y1, d.y1) - max(y0, d.y0) >= SAME_LINE_OVERLAP * min(y1 - y0, d.y1 - d.y0)
                for x0, y0, x1, y1 in near[max(j - 2, 0) : j]
            ):
                buried.add(id(d))
                break
    return [r for r in runs if id(r) not in buried] if buried else runs


def _group(usable: list[TextRun]) -> list[list[TextRun]]:
    """The runs of each line, in the order the lines were opened."""
    rows = _rows(usable)
    gutters = _gutters(rows)
    beside = _beside_gutters(rows, gutters)
    buckets: dict[int, list[_Open]] = defaultdict(list)
    opened: list[_Open] = []
    nearby = buckets.get
    for run in sorted(usable, key=_start):
        x0, y0, y1, size = run.x0, run.y0, run.y1, run.size
        height = y1 - y0
        key = int((y0 + y1) / 2 // _BUCKET)
        # No line ending further left than this can take the run (see _REACH_EM).
        reach = _REACH_EM * (size if size > 1.0 else 1.0)
        leader = LEADER_GAP_EM * (size or 1.0)
        reach = reach if reach > leader else leader
        # What the run itself is, asked once and only when a candidate needs it.
        sublabel: bool | None = None
        mono: bool | None = None
        page_ref: bool | None = None
        best: _Open | None = None
        best_score = 0.0
        for k in range(key - 2, key + 3):
            for cand in nearby(k, ()):
                # (min and max spelled out: this loop is the layout's hottest)
                bottom = cand.bottom if cand.bottom < y1 else y1
                top = cand.top if cand.top > y0 else y0
                if bottom <= top:
                    continue  # no vertical overlap at all
                tall = cand.bottom - cand.top
                share = (bottom - top) / (height if height < tall else tall)
                if share < SAME_LINE_OVERLAP:
                    continue
                em = (cand.size if cand.size < size else size) or 1.0
                gap = x0 - cand.right
                # Far back over the line: another line's, unless it is the line's last run
                # drawn again (fake bold, a whole row drawn twice), which add() drops.
                if gap < -3.0 * em and not _duplicate(cand.runs[-1], run):
                    continue
                if gap >= GUTTER_GAP_EM * em:
                    if gap > reach:
                        continue
                    # Code keeps its alignment with wide runs of spaces: monospaced text on
                    # one baseline stays one line.
                    if mono is None:
                        mono = _code_face(run)
                    code = mono and _code_face(cand.runs[-1])
                    if page_ref is None:
                        page_ref = _PAGE_REF.match(run.text.strip()) is not None
                    if (
                        gap > SPLIT_GAP_EM * em
                        and not (gap <= LABEL_GAP_EM * em and _hanging_label(cand.runs, run))
                        and not (code and gap <= CODE_GAP_EM * em)
                        and not (page_ref and _leader_to_number(cand.runs, cand.right, run))
                    ):
                        continue
                    if (
                        not code
                        and id(run) not in beside
                        and any(cand.right <= g1 and x0 >= g0 for g0, g1 in gutters)
                        and not (page_ref and _leader_to_number(cand.runs, cand.right, run))
                        and not _hanging_label(cand.runs, run)
                    ):
                        continue
                # A label set in the gutter before the next column's text ("(b)" of a second
                # sub-caption) may touch the end of this column's line: still not one line.
                if gap < 0 and gutters:
                    if sublabel is None:
                        sublabel = _sublabel(run.text)
                    if sublabel and any(cand.right <= (g0 + g1) / 2 < run.x1 for g0, g1 in gutters):
                        continue
                score = share - (0.0 if gap < 0.0 else gap) / (10.0 * em)
                if score > best_score:
                    best, best_score = cand, score
        if best is None:
            best = _Open(run)
            buckets[key].append(best)
            opened.append(best)
        else:
            best.add(run)
    _join_stretched_rows(opened, gutters)
    _join_justified_rows(opened, gutters)
    _join_label_rows(opened, gutters)
    _join_marker_rows(opened, gutters)
    _join_colon_labels(opened)
    return [o.runs for o in opened if o.runs]


def _beside_gutters(rows: list[list[TextRun]], gutters: list[tuple[float, float]]) -> set[int]:
    """The runs (by ``id``) after a gap that reaches into a gutter's region while a wider gap
    of the same row does too: a gutter is one strip of whitespace, crossed by a row at its
    widest gap there. The region of deep gaps around it spreads past the longest lines' ends
    (ragged lines leave wide gaps before the next column), and a word space of such a line
    inside that region is no gutter."""
    beside: set[int] = set()
    for row in rows:
        for g0, g1 in gutters:
            gaps: list[tuple[float, TextRun]] = []
            right = row[0].x1
            for i in range(1, len(row)):
                run = row[i]
                if right <= g1 and run.x0 >= g0:
                    gaps.append((run.x0 - right, run))
                right = run.x1 if run.x1 > right else right
            if len(gaps) > 1:
                widest = max(gaps, key=lambda g: g[0])[1]
                beside.update(id(run) for _, run in gaps if run is not widest)
    return beside


def _join_stretched_rows(opened: list[_Open], gutters: list[tuple[float, float]]) -> None:
    """A justified line with few words stretches its spaces until they look like column gaps.
    Pieces of one row separated by gaps of (nearly) the same width, none of them a gutter,
    are one line: columns and table cells do not space themselves evenly and line up with
    the rows around them instead."""
    rows: dict[tuple[int, int], list[_Open]] = defaultdict(list)
    for line in opened:
        first = line.runs[0]
        rows[(round(first.y1), round(first.size))].append(line)
    for pieces in rows.values():
        if len(pieces) < 3:
            continue
        pieces.sort(key=_first_start)
        gaps = [b.runs[0].x0 - a.right for a, b in itertools.pairwise(pieces)]
        em = pieces[0].size or 1.0
        mean = sum(gaps) / len(gaps)
        if not 0 < mean <= STRETCHED_GAP_EM * em:
            continue
        if any(abs(g - mean) > 0.2 * mean for g in gaps):
            continue
        # (after the gaps: reading the pieces' words costs more than measuring them)
        if not _prose_row([piece.runs for piece in pieces]):
            continue
        if any(
            a.right <= g1 and b.runs[0].x0 >= g0
            for a, b in itertools.pairwise(pieces)
            for g0, g1 in gutters
        ):
            continue
        head = pieces[0]
        for piece in pieces[1:]:
            for run in piece.runs:
                head.add(run)
            piece.runs = []


#: A stretched row is compared with up to this many rows of its paragraph above and below it:
#: a column's whitespace runs down the whole paragraph, and the more rows it must run
#: through, the less a chance alignment of stretched spaces passes for one; a bound keeps a
#: long table's work linear.
STACK_WINDOW = 12
#: Rows of one paragraph are at most this many ems apart, baseline to baseline.
PARAGRAPH_PITCH_EM = 2.0
#: Whitespace running down a paragraph at least this many ems wide is a column's or a table's
#: (their gaps are an em or more); the stretched spaces of justified lines, lining up by
#: chance here and there, leave a narrower channel.
CHANNEL_EM = 1.0


def _join_justified_rows(opened: list[_Open], gutters: list[tuple[float, float]]) -> None:
    """A justified line stretched unevenly (right-to-left text especially: its justification
    widens some spaces more than others) is split at its widest spaces, which
    :func:`_join_stretched_rows` cannot tell by evenness. Rows set to one measure (starting
    and ending where the rows next to them do) form a paragraph; a row's pieces are one line
    when they are prose, no whitespace runs from the space between them down through the
    paragraph's rows around it, and the other rows' text does not start or end right at that
    space (on half of them or more): such whitespace and such edges are a column's or a
    table's, a stretched space has neither."""
    rows = _open_rows([o for o in opened if o.runs])
    for paragraph in _measured_stacks(rows):
        for k, row in enumerate(paragraph):
            if len(row) < 2:
                continue
            em = min(piece.size for piece in row) or 1.0
            if not any(
                0 < b.runs[0].x0 - a.right <= STRETCHED_GAP_EM * em
                for a, b in itertools.pairwise(row)
            ):
                continue  # no space narrow enough to be a stretched one
            if not _prose_row([piece.runs for piece in row]):
                continue
            others = (
                paragraph[max(0, k - STACK_WINDOW) : k] + paragraph[k + 1 : k + 1 + STACK_WINDOW]
            )
            head = row[0]
            for a, b in itertools.pairwise(row):
                start, end = a.right, b.runs[0].x0
                if (
                    0 < end - start <= STRETCHED_GAP_EM * em
                    and not any(start <= g1 and end >= g0 for g0, g1 in gutters)
                    and not _channel(start, end, others, CHANNEL_EM * em)
                    and not _cell_edge(start, end, others, EDGE_ALIGN_EM * em)
                ):
                    for run in b.runs:
                        head.add(run)
                    b.runs = []
                else:
                    head = b


def _measured_stacks(rows: list[list[_Open]]) -> list[list[list[_Open]]]:
    """Runs of consecutive rows (at least two) that each start and end where the one before
    does: the full lines of a justified paragraph, or the rows of a grid."""
    stacks: list[list[list[_Open]]] = []
    current: list[list[_Open]] = []
    for row in rows:
        em = min(piece.size for piece in row) or 1.0
        if current and _same_measure(row, current[-1], em):
            current.append(row)
            continue
        if len(current) >= 2:
            stacks.append(current)
        current = [row]
    if len(current) >= 2:
        stacks.append(current)
    return stacks


def _same_measure(row: list[_Open], other: list[_Open], em: float) -> bool:
    """Whether ``other``, just above or below ``row``, starts and ends where ``row`` does."""
    pitch = abs((other[0].top + other[0].bottom) - (row[0].top + row[0].bottom)) / 2
    tolerance = EDGE_ALIGN_EM * em
    return (
        pitch <= PARAGRAPH_PITCH_EM * em
        and abs(other[0].runs[0].x0 - row[0].runs[0].x0) <= tolerance
        and abs(max(o.right for o in other) - max(o.right for o in row)) <= tolerance
    )


def _cell_edge(start: float, end: float, rows: list[list[_Open]], tolerance: float) -> bool:
    """Whether on half of ``rows`` or more (two at least), text ends where this gap starts or
    starts where it ends: a table's column, its cells aligned (words after stretched spaces
    start anywhere)."""
    aligned = sum(
        1
        for row in rows
        if any(
            abs(r.x1 - start) <= tolerance or abs(r.x0 - end) <= tolerance
            for piece in row
            for r in piece.runs
        )
    )
    # Two rows at least: the last words of two justified lines, equally wide, start at one x.
    return aligned >= 2 and aligned * 2 >= len(rows)


def _channel(start: float, end: float, rows: list[list[_Open]], width: float) -> bool:
    """Whether whitespace at least ``width`` wide runs from the gap ``start``-``end`` through
    every one of ``rows`` (a column's or a cell's edge; the stretched spaces of justified
    lines do not line up all the way down a paragraph)."""
    free = [(start, end)]
    for row in rows:
        for run in (r for piece in row for r in piece.runs):
            free = [
                part
                for lo, hi in free
                for part in ((lo, min(hi, run.x0)), (max(lo, run.x1), hi))
                if part[1] - part[0] >= width
            ]
            if not free:
                return False
    return True


#: A label of a label list (symbol lists, glossaries, "Step 1  Do this") is at most this many
#: ems wide and this many characters long.
LABEL_MAX_EM = 7.0
LABEL_MAX_CHARS = 16
#: Rows of one label list: labels and descriptions start within this many points of each other.
LABEL_ALIGN = 1.5
_PROSE = re.compile(r"[^\W\d_]{3,}")


def _join_label_rows(opened: list[_Open], gutters: list[tuple[float, float]]) -> None:
    """A short label and its description on one row ("∂M    Rand der Menge M") are one line
    when the rows around them repeat the pattern: labels starting at one x, descriptions at
    another, labels of differing widths (ragged, unlike a table's aligned column), no
    further cell close after the description and none before the label (a table has more
    columns; the next or last column of a column page, across a gutter between long lines,
    does not count)."""
    pieces = [o for o in opened if o.runs]
    columns = _column_gutters(gutters, pieces)
    # (label, description, label start, description start, label end, crowded)
    candidates: list[tuple[_Open, _Open, float, float, float, bool]] = []
    for row in _open_rows(pieces):
        described = -1  # the piece of the row last found to be a label's description
        for i in range(len(row) - 1):
            a, b = row[i], row[i + 1]
            em = min(a.size, b.size) or 1.0
            left, start = a.runs[0].x0, b.runs[0].x0
            if not 0 < start - a.right <= LABEL_GAP_EM * em or a.right - left > LABEL_MAX_EM * em:
                continue
            beside = described == i - 1  # the cell before ``a`` is a label's value
            described = i + 1  # ``b`` is ``a``'s value, whatever its words
            if not _label_pair(a.runs, b.runs):
                continue
            crowded = (
                i + 2 < len(row)
                and row[i + 2].runs[0].x0 - b.right <= LABEL_GAP_EM * em
                and not any(b.right <= g1 and row[i + 2].runs[0].x0 >= g0 for g0, g1 in columns)
            ) or (
                # A cell before the label in its column: the pair is a table's middle cells
                # ("Town hall  12  Complete"), not a label list's row; unless that cell is
                # the description of a label before it (label lists side by side, a form's).
                i > 0
                and not beside
                and not any(row[i - 1].right <= g1 and left >= g0 for g0, g1 in columns)
            )
            candidates.append((a, b, left, start, a.right, crowded))
    if len(candidates) < GUTTER_MIN_ROWS:
        return
    by_key: dict[tuple[int, int], list[int]] = defaultdict(list)
    for k, c in enumerate(candidates):
        by_key[(round(c[2]), round(c[3]))].append(k)
    joins: list[tuple[_Open, _Open]] = []
    for a, b, ax, bx, _, _ in candidates:
        group = [
            candidates[k]
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            for k in by_key.get((round(ax) + dx, round(bx) + dy), ())
            if abs(candidates[k][2] - ax) <= LABEL_ALIGN
            and abs(candidates[k][3] - bx) <= LABEL_ALIGN
        ]
        if len(group) < GUTTER_MIN_ROWS or sum(1 for g in group if g[5]) * 4 > len(group):
            continue
        ends = [g[4] for g in group]
        if max(ends) - min(ends) > LABEL_ALIGN:
            joins.append((a, b))
    for a, b in joins:
        if a.runs and b.runs:
            for run in b.runs:
                a.add(run)
            b.runs = []


def _join_marker_rows(opened: list[_Open], gutters: list[tuple[float, float]]) -> None:
    """A list marker (``_MARKER``) left as a line of its own and the words after it (within
    ``LABEL_GAP_EM``) are one line when the marker starts its row in its column and another
    such pair on another row starts within ``MARKER_ALIGN_EM`` of both the marker and its
    words: a list's marks and its text's indent repeat; a formula's operator, an initial or
    a table's empty cell ("Town hall  -  Complete") does not start its row."""
    pieces = [o for o in opened if o.runs]
    if not any(len(o.runs) == 1 and _mark_alone(o.runs[0].text) for o in pieces):
        return  # (most pages)
    columns: list[tuple[float, float]] | None = None
    pairs: list[tuple[float, float, float, _Open, _Open]] = []  # marker, words: starts, em
    for row in _open_rows(pieces):
        for i in range(len(row) - 1):
            a, b = row[i], row[i + 1]
            if len(a.runs) != 1 or not (
                is_marker(a.runs[0].text) or _letter_bullet(a.runs[0], b.runs[0])
            ):
                continue
            em = min(a.size, b.size) or 1.0
            left, start = a.runs[0].x0, b.runs[0].x0
            if not 0 < start - a.right <= LABEL_GAP_EM * em:
                continue
            if not b.runs[0].text.lstrip()[:1].isalpha():
                continue  # "– 12": a table's empty cell, then a figure
            before = row[i - 1] if i > 0 else None
            if before is not None and not (
                len(before.runs) == 1 and is_marker(before.runs[0].text)
            ):
                if columns is None:
                    columns = _column_gutters(gutters, pieces)
                if not any(row[i - 1].right <= g1 and left >= g0 for g0, g1 in columns):
                    continue  # a cell before it in its column (a marker may be: "-", "a)")
            pairs.append((left, start, em, a, b))
    pairs.sort(key=operator.itemgetter(0, 1))
    joined: set[int] = set()
    for i, (x, start, em, _, _) in enumerate(pairs):
        # The next few in order suffice: a list's items are neighbours in this order, and
        # a page of markers stacked at one place stays linear.
        for j in range(i + 1, min(i + 1 + _MARKER_LOOK, len(pairs))):
            x2, start2, em2 = pairs[j][:3]
            align = MARKER_ALIGN_EM * min(em, em2)
            if x2 - x > align:
                break
            if abs(start2 - start) <= align:
                joined.update((i, j))
                break
    # Right to left: a marker before another ("-" then "a)") takes it with its words.
    for k in sorted(joined, key=lambda k: -pairs[k][0]):
        a, b = pairs[k][3], pairs[k][4]
        if a.runs and b.runs:
            for run in b.runs:
                a.add(run)
            b.runs = []


#: A form's label has at most this many words ("Name and address of employer:").
FORM_LABEL_WORDS = 5


def form_label(text: str) -> bool:
    """A form's label: ending in a colon, at most ``FORM_LABEL_WORDS`` words ("Invoice
    Number:"; a sentence introducing a list has more)."""
    stripped = text.rstrip()
    return stripped.endswith(":") and len(stripped.split()) <= FORM_LABEL_WORDS


def _join_colon_labels(opened: list[_Open]) -> None:
    """A label ending in a colon (``FORM_LABEL_WORDS`` at most) and the words after it on its
    row (within ``LABEL_GAP_EM``) are one line ("Date of birth:   14 March 1991", a tab
    after the label) when those words line up with no piece of another row, by start,
    middle or end (within ``LABEL_ALIGN``): values set at one place are a column (a
    table's, a label list's, the next column of a page's text: the rules for those decide),
    values set just after their labels are not."""
    pieces = [o for o in opened if o.runs]
    if not any(o.runs[-1].text.rstrip().endswith(":") for o in pieces):
        return  # (most pages)
    places: dict[tuple[int, int], int] = defaultdict(int)  # (edge, bucket): pieces there
    for o in pieces:
        for edge, x in enumerate(_edges(o)):
            places[(edge, int(x // LABEL_ALIGN))] += 1
    for row in _open_rows(pieces):
        for a, b in itertools.pairwise(row):
            # (longer: running text before a displayed formula or a list)
            if not (a.runs and b.runs and form_label(" ".join(r.text for r in a.runs))):
                continue
            em = min(a.size, b.size) or 1.0
            if not 0 < b.runs[0].x0 - a.right <= LABEL_GAP_EM * em:
                continue
            if any(
                places[(edge, int(x // LABEL_ALIGN) + d)] > (d == 0)
                for edge, x in enumerate(_edges(b))
                for d in (-1, 0, 1)
            ):
                continue  # its words line up with another row's: a column
            for run in b.runs:
                a.add(run)
            b.runs = []


def _edges(o: _Open) -> tuple[float, float, float]:
    """A piece's start, middle and end."""
    x0 = o.runs[0].x0
    return x0, (x0 + o.right) / 2, o.right


def _mark_alone(text: str) -> bool:
    """A marker, or Word's "o" bullet (``_letter_bullet`` asks the rest)."""
    return is_marker(text) or text.strip() == "o"


def is_marker(text: str) -> bool:
    """Whether ``text`` is a list item's mark alone: a bullet, "2)", "a)", "(b)", "iv."."""
    return len(text) <= 8 and _MARKER.match(text.strip()) is not None


#: How many pairs after a marker (in order of their starts) are asked whether they line up.
_MARKER_LOOK = 8


#: A gutter between text columns has lines at least this many ems long on both sides.
COLUMN_LINE_EM = 12.0


def _column_gutters(
    gutters: list[tuple[float, float]], pieces: list[_Open]
) -> list[tuple[float, float]]:
    """The gutters that separate columns of text rather than table cells."""
    out = []
    near = 3.0 * max((p.size for p in pieces), default=10.0)
    for g0, g1 in gutters:
        left = right = False
        for p in pieces:
            width = p.right - p.runs[0].x0
            if width < COLUMN_LINE_EM * (p.size or 1.0):
                continue
            left = left or g0 - near <= p.right <= g1
            right = right or g0 <= p.runs[0].x0 <= g1 + near
        if left and right:
            out.append((g0, g1))
    return out


def _open_rows(pieces: list[_Open]) -> list[list[_Open]]:
    """Lines being grown, grouped into rows that share a baseline, each left to right."""
    rows: list[list[_Open]] = []
    last: _Open | None = None
    for piece in sorted(pieces, key=_middle):
        if last is not None:
            # (min and max spelled out: called twice a page on every line being grown)
            bottom = piece.bottom if piece.bottom < last.bottom else last.bottom
            top = piece.top if piece.top > last.top else last.top
            tall, high = last.bottom - last.top, piece.bottom - piece.top
            if bottom - top >= SAME_LINE_OVERLAP * (high if high < tall else tall):
                rows[-1].append(piece)
                last = piece
                continue
        rows.append([piece])
        last = piece
    for row in rows:
        row.sort(key=_first_start)
    return rows


def _middle(o: _Open) -> float:
    return (o.top + o.bottom) / 2


def _first_start(o: _Open) -> float:
    return o.runs[0].x0


_BUCKET = 6.0
_start = operator.attrgetter("x0")
_SUBLABEL = re.compile(r"^\(?[a-z0-9]{1,3}\)$", re.IGNORECASE)


# Not "(1)": equation numbers look like that, and sit right before the next column.
_MONOSPACE = re.compile(
    r"mono|nimbusmon|courier|consol|menlo|typewriter|cmtt|inconsolata|lucidaconsole", re.IGNORECASE
)


@functools.lru_cache(maxsize=256)
def is_monospace(font: str) -> bool:
    return bool(_MONOSPACE.search(font))


def _code_face(run: TextRun) -> bool:
    """Whether ``run`` is set in a monospaced face that says it is code. A scanner's OCR
    layer is set in whatever face the OCR tool draws its invisible words in (often Courier,
    each word scaled to its box on the scan): that face says nothing about the text."""
    return not run.ocr_layer and is_monospace(run.font)


def monospace_share(line: Line) -> float:
    """The share of ``line``'s characters set in a monospaced face (``Line.monospace``)."""
    if line.monospace is not None:
        return line.monospace
    return 1.0 if is_monospace(line.font) else 0.0


#: The signs that mark a note, besides its number (the asterisk, the dagger, the double
#: dagger, the section and paragraph signs): one place for every rule that tells a note.
NOTE_SIGNS = "*†‡§¶"
#: The characters that open a list item as its bullet ("-" included: a list typed with
#: hyphens is one), for lines and for the blocks made of them (structure, headings) ...
LIST_BULLETS = "•◦▪▫‣⁃●○■□►▸▹–—*·✓✔➢➤→-"
#: ... and a character class of them with the private use area, where a symbol font's
#: glyphs are often mapped (Symbol's and Wingdings' bullets, U+F0B7, U+F0A7, U+F0D8 ...):
#: such a glyph opening a line is no letter of any script (Markdown leaves it out).
BULLET_CLASS = "[" + re.escape(LIST_BULLETS) + "\ue000-\uf8ff]"


#: An enumerated item's number and letter (a roman numeral counts as letters), before its
#: "." or ")" and after an optional "(": the one vocabulary of enumeration marks.
ENUM_NUMBER = r"\d{1,3}"
ENUM_LETTER = r"(?:[a-zA-Z]|[ivxIVX]{1,5})"
#: A line opening with a bullet and a space (a private-use glyph only before a letter: a
#: symbol font's bullet, not a formula's symbol), the bullet in group 1 when it is one of
#: LIST_BULLETS ...
BULLET_MARK = re.compile(
    r"^(?:([" + re.escape(LIST_BULLETS) + r"])\s+(?=\S)|[\ue000-\uf8ff]\s+(?=[^\W\d_]))"
)
#: ... or with an enumerated item's mark ("3. ", "(b) ", "iv) "), the mark in group 1.
ENUM_MARK = re.compile(r"^(\(?(?:" + ENUM_NUMBER + "|" + ENUM_LETTER + r")[.)])\s+(?=\S)")


#: Word's second-level bullet is the letter "o" of a monospaced font (Courier New), set
#: apart from its item's words by a tab: read as the white bullet it shows ...
LETTER_BULLET = "◦"
#: ... when the words start at least this many ems after it (a word space is a quarter em;
#: a Portuguese "o" opening a line stands a word space from the next word).
LETTER_BULLET_GAP_EM = 0.6
#: ... and the words are in another font, or set in another size: differing by more than
#: this share of the bullet's (items of code in the bullet's own monospaced font).
LETTER_BULLET_SIZE = 0.1


def _letter_bullet(run: TextRun, nxt: TextRun) -> bool:
    """Whether ``run`` (opening its line, ``nxt`` after it) is Word's "o" bullet: a lone
    monospaced "o" before words in another font or size, a tab's width away."""
    return (
        run.text.strip() == "o"
        and nxt.x0 - run.x1 >= LETTER_BULLET_GAP_EM * (run.size or 1.0)
        and (nxt.font != run.font or abs(nxt.size - run.size) > LETTER_BULLET_SIZE * run.size)
        and is_monospace(run.font)
        and nxt.text.lstrip()[:1].isalpha()
    )


#: Slack, in ems, for a word space and justification when asking whether a word would have
#: fit at the end of the line above.
FIT_SLACK_EM = 1.0


def measure_broke(last: Line, nxt: Line, right: float) -> bool:
    """The first word of ``nxt`` had no room at the end of ``last`` in a measure ending at
    ``right``: the break between them was made by the measure, not by the author. The word's
    width is guessed from ``nxt``'s own advance per character; a line starting with its
    margin number (``Line.text_start``) is asked about the word after it."""
    em = max(nxt.size, 1.0)
    numbered = nxt.text_start is not None
    words = nxt.text.split(" ", 2 if numbered else 1)
    first_word = words[1] if numbered and len(words) > 1 else words[0]
    advance = (nxt.x1 - nxt.x0) / max(len(nxt.text), 1)
    return right - last.x1 <= advance * len(first_word) + FIT_SLACK_EM * em


def is_bullet(char: str) -> bool:
    """Whether ``char`` (one character) is a list item's bullet (``BULLET_CLASS``)."""
    return char in LIST_BULLETS or "\ue000" <= char <= "\uf8ff"


# A label hanging before its line's text, always: a reference's "[12]", a number "3.", a
# round bullet. Not "(1)": equation numbers look like that, and sit right before the next
# column.
_LABEL = re.compile(r"^(?:\[[^\]]{1,24}\]|\d{1,3}\.|[•◦▪‣●○■□►])$")
# Other list markers ("-", "–", "*", "2)", "a)", "(b)", "iv."): a dash, a dot or a lone
# letter is also a table's empty cell, an operator or an initial, so one hangs only before a
# word ("– 12" is two cells) and in a column of markers (see _join_marker_rows).
_MARKER = re.compile(
    r"^(?:" + BULLET_CLASS + r"|" + ENUM_NUMBER + r"\)|\(?" + ENUM_LETTER + r"[.)])$"
)
#: List markers line up: one counts when another starts within this many ems of its start
#: (of the smaller size), on another line.
MARKER_ALIGN_EM = 1.0


def _leader_to_number(runs: list[TextRun], right: float, run: TextRun) -> bool:
    """A table-of-contents entry: dot leaders, then its page number at the right margin (the
    numbers line up like a column, but they belong to their entries). ``runs`` and ``right``:
    the line so far and its right edge."""
    tail = runs[-1].text.rstrip()
    return (
        tail.endswith(".")
        and tail[-12:].count(".") >= 3
        and _PAGE_REF.match(run.text.strip()) is not None
        and run.x0 - right <= LEADER_GAP_EM * (run.size or 1.0)
    )


_PAGE_REF = re.compile(r"^(?:\d{1,4}|[ivxlcdm]{1,7})$", re.IGNORECASE)
#: A page number after dot leaders is at most this many ems from its entry's text.
LEADER_GAP_EM = 40.0


#: The widest gap (in ems of the smaller size of the two runs) after which a run can still
#: join a line (a hanging label, monospaced code), besides a page number after dot leaders
#: (``LEADER_GAP_EM`` of the run's own size). Any wider gap splits the line, so a line ending
#: further left need not be looked at; the smaller size is at most ``max(size, 1)``.
_REACH_EM = max(SPLIT_GAP_EM, LABEL_GAP_EM, CODE_GAP_EM)


def _hanging_label(runs: list[TextRun], run: TextRun) -> bool:
    """A reference label or list marker set in its own column ("[CS10]  Author, Title"), or
    a raised note number before an affiliation ("¹ Max-Planck-Institut"): the gap after it
    lines up on every row like a gutter, but it starts the line (``runs``, the line so far).
    Other list markers are joined after grouping (``_join_marker_rows``)."""
    if len(runs) > 3:
        return False
    text = "".join(r.text for r in runs).strip()
    if _LABEL.match(text):
        return True
    first = runs[0]
    return (
        len(runs) == 1
        and _NOTE_MARK.match(text) is not None
        and first.size <= 0.85 * run.size
        and first.y1 < run.y1 - 0.1 * run.size  # raised above the text's baseline
    )


_NOTE_MARK = re.compile(r"^(?:\d{1,3}|[" + re.escape(NOTE_SIGNS) + r"#]|[a-z])$")


def _raised_mark(mark: TextRun, run: TextRun) -> bool:
    """A note's mark raised before its text at the start of a line ("¹" and "Parish records,
    ..."): a word of its own, however close it is set. Not before a sign or a figure (a
    formula's "2" and "−n", a fraction's "1" and "/2")."""
    return (
        run.text[:1].isalpha()
        and mark.size <= 0.85 * run.size
        and mark.y1 < run.y1 - 0.1 * run.size
        and _NOTE_MARK.match(mark.text.strip()) is not None
    )


def _sublabel(text: str) -> bool:
    """A sub-caption label: "(b)", "b)", "12)"."""
    return _SUBLABEL.match(text.strip()) is not None


def _prose_row(pieces: list[list[TextRun]]) -> bool:
    """Pieces of one row that read as prose: mostly words, few bare numbers (table cells and
    formula pieces are not)."""
    # A word in quotes or brackets ("“Now", "[Online]") is still a word.
    texts = [
        (runs[0].text if len(runs) == 1 else "".join(r.text for r in runs)).strip().strip(_WRAP)
        for runs in pieces
    ]
    words = sum(1 for t in texts if _WORDISH.match(t))
    numbers = sum(1 for t in texts if _NUMBERISH.match(t))
    return not (words < 0.6 * len(texts) or numbers > len(texts) // 3)


def _label_pair(label_runs: list[TextRun], description_runs: list[TextRun]) -> bool:
    """A short label, and a description with a word in it."""
    label = "".join(r.text for r in label_runs).strip()
    description = "".join(r.text for r in description_runs).strip()
    return bool(label) and len(label) <= LABEL_MAX_CHARS and _PROSE.search(description) is not None


class _Open:
    """A line being grown: its runs, the box of its tallest run, its right edge."""

    __slots__ = ("bottom", "right", "runs", "size", "top")

    def __init__(self, run: TextRun) -> None:
        self.runs = [run]
        self.top = run.y0
        self.bottom = run.y1
        self.right = run.x1
        self.size = run.size

    def add(self, run: TextRun) -> None:
        last = self.runs[-1]
        if _duplicate(last, run):
            return
        self.runs.append(run)
        self.right = max(self.right, run.x1)
        if run.y1 - run.y0 > self.bottom - self.top:
            self.top, self.bottom, self.size = run.y0, run.y1, run.size


def _rows(runs: list[TextRun]) -> list[list[TextRun]]:
    """Page-wide rows of runs sharing a baseline, each sorted left to right."""
    ordered = sorted(runs, key=lambda r: ((r.y0 + r.y1) / 2, r.x0))
    rows: list[list[TextRun]] = []
    boxes: list[tuple[float, float]] = []
    for run in ordered:
        y0, y1 = run.y0, run.y1
        height = y1 - y0
        n = len(rows)
        for k in range(n - 1, n - 6 if n > 5 else -1, -1):
            top, bottom = boxes[k]
            # (min and max spelled out: every run of the page comes here)
            tall = bottom - top
            overlap = (y1 if y1 < bottom else bottom) - (y0 if y0 > top else top)
            if overlap >= SAME_LINE_OVERLAP * (tall if tall < height else height):
                rows[k].append(run)
                if height > tall:
                    boxes[k] = (y0, y1)
                break
            if bottom < y0:
                rows.append([run])
                boxes.append((y0, y1))
                break
        else:
            rows.append([run])
            boxes.append((y0, y1))
    for row in rows:
        row.sort(key=_start)
    return rows


def _row_gaps(row: list[TextRun]) -> list[tuple[float, float, float]]:
    """``(start, end, em)`` of every gap between neighbouring runs of a row."""
    gaps = []
    right = row[0].x1
    for prev, run in itertools.pairwise(row):
        if run.x0 > right:
            gaps.append((right, run.x0, (run.size if run.size < prev.size else prev.size) or 1.0))
        right = run.x1 if run.x1 > right else right
    return gaps


def _gutters(rows: list[list[TextRun]]) -> list[tuple[float, float]]:
    """x ranges that are inside a wide-ish gap on many rows: column gutters and table
    column boundaries, which a single row's gap size cannot tell from a wide word space."""
    events: list[tuple[float, int]] = []
    gapped_rows = 0
    for row in rows:
        # The wide gaps of ``_row_gaps(row)``, without making the list of all its gaps.
        right = row[0].x1
        prev_size = row[0].size
        wide = False
        for i in range(1, len(row)):
            run = row[i]
            x0 = run.x0
            if x0 > right and x0 - right >= GUTTER_GAP_EM * (
                (prev_size if prev_size < run.size else run.size) or 1.0
            ):
                events.append((right, 1))
                events.append((x0, -1))
                wide = True
            right = run.x1 if run.x1 > right else right
            prev_size = run.size
        if wide:
            gapped_rows += 1
    if not events:
        return []
    need = max(GUTTER_MIN_ROWS, int(0.1 * gapped_rows))
    events.sort()
    # Depth profile: how many rows have a wide gap at each x. A candidate is the core of a
    # region above ``need``: where the depth is near its peak (gaps of short lines widen the
    # region well beyond the gutter itself).
    segments: list[tuple[float, float, int]] = []
    depth = 0
    for (x, delta), (nxt, _) in itertools.pairwise(events):
        depth += delta
        if nxt > x:
            segments.append((x, nxt, depth))
    candidates: list[tuple[float, float]] = []
    i = 0
    while i < len(segments):
        if segments[i][2] < need:
            i += 1
            continue
        j = i
        while j + 1 < len(segments) and segments[j + 1][2] >= need:
            j += 1
        region = segments[i : j + 1]
        peak = max(seg[2] for seg in region)
        core = [seg for seg in region if seg[2] >= 0.8 * peak]
        candidates.append((core[0][0], core[-1][1]))
        i = j + 1
    if not candidates:
        return []
    index = _RowIndex.of(rows)
    return [g for g in candidates if _clear(g, rows, index)]


class _RowIndex(NamedTuple):
    """What ``_clear`` asks of every row for each gutter candidate, worked out once: the
    row's middle height, its runs' starts (ascending, as the row is sorted) and the running
    maximum of their ends, so that whether text crosses an x range is two look-ups."""

    ys: list[float]
    starts: list[list[float]]
    reach: list[list[float]]

    @classmethod
    def of(cls, rows: list[list[TextRun]]) -> _RowIndex:
        return cls(
            [(row[0].y0 + row[0].y1) / 2 for row in rows],
            [[r.x0 for r in row] for row in rows],
            [list(itertools.accumulate((r.x1 for r in row), max)) for row in rows],
        )

    def crossed(self, k: int, g0: float, g1: float) -> bool:
        """Whether a run of row ``k`` has text inside ``g0``-``g1`` (starts before ``g1``,
        ends after ``g0``)."""
        n = bisect.bisect_left(self.starts[k], g1)
        return n > 0 and self.reach[k][n - 1] > g0


def _clear(
    gutter: tuple[float, float], rows: list[list[TextRun]], index: _RowIndex | None = None
) -> bool:
    """A real gutter stays clear: over the height where rows have a gap there, few rows
    have text across it (coincidental gaps in formulas or tables do not)."""
    if index is None:
        index = _RowIndex.of(rows)
    # Only the middle of the gutter must stay clear: line ends protrude a little (italic
    # overhang, hanging punctuation) into its edges.
    mid = (gutter[0] + gutter[1]) / 2
    half = max((gutter[1] - gutter[0]) / 4, 0.5)
    g0, g1 = mid - half, mid + half
    support: list[float] = []
    crossing: list[float] = []
    for k, (row, y) in enumerate(zip(rows, index.ys, strict=True)):
        if index.crossed(k, g0, g1):
            crossing.append(y)
        elif row[0].x0 < g0 and row[-1].x1 > g1:
            support.append(y)
    if len(support) < GUTTER_MIN_ROWS:
        return False
    top, bottom = min(support), max(support)
    inside = sum(1 for y in crossing if top <= y <= bottom)
    if inside > 0.25 * len(support):
        return False
    return not _word_gaps_lined_up(mid, rows, top, bottom, index.ys)


#: A gutter's gap is wider than the word spaces of the lines beside it: a gap at most this
#: many times the row's wider word spaces (the upper quartile: justification may stretch
#: some spaces more than others) is a word space.
GUTTER_WORD_RATIO = 1.4
#: A row of prose has at least this many word spaces (five words); a table's row of a few
#: cells, its gaps as wide as one another, is not doubted.
PROSE_MIN_SPACES = 4
#: Wide word spaces of justified text line up by chance over a few rows; whitespace clear over
#: this many consecutive rows, with a column's edge on one side of it, is a gutter however
#: narrow (the chance of a coincidence shrinks with every row, so this is far beyond it).
GUTTER_CLEAR_ROWS = 6
#: The lines of a column start (or, right-aligned or justified, end) within this many ems of
#: one another (a typesetter sets them at one x); the words beside a coincidental gap do not.
EDGE_ALIGN_EM = 0.05


class _OpenRow(NamedTuple):
    """A row with a gap at a gutter candidate: its ends, the gap's edges, whether the gap is
    no wider than the row's word spaces."""

    start: float
    end: float
    gap_start: float
    gap_end: float
    word_like: bool


def _word_gaps_lined_up(
    mid: float,
    rows: list[list[TextRun]],
    top: float,
    bottom: float,
    ys: list[float] | None = None,
) -> bool:
    """Whether the gap at ``mid`` is, on most of the justified rows where it is open, no
    wider than those rows' word spaces (justified prose, whose wide spaces line up now and
    then), and the whitespace there is not a column's edge clear over many consecutive rows.
    Justified rows are the ones that start and end where most open rows do: only there is a
    gap doubted (a table's rows, ragged at one end, keep the gaps between their cells)."""
    opened: list[_OpenRow] = []
    run_length = longest = 0
    em = 0.0
    if ys is None:
        ys = [(row[0].y0 + row[0].y1) / 2 for row in rows]
    for row, y in zip(rows, ys, strict=True):
        if not top <= y <= bottom:
            continue
        left: list[TextRun] = []
        right: list[TextRun] = []
        for r in row:
            (left if (r.x0 + r.x1) / 2 < mid else right).append(r)
        if not left or not right or left[-1].x1 > mid or right[0].x0 < mid:
            run_length = 0
            continue
        run_length += 1
        longest = max(longest, run_length)
        end = max(r.x1 for r in left)
        gap = right[0].x0 - end
        em = min(left[-1].size, right[0].size) or 1.0
        if gap > STRETCHED_GAP_EM * em:
            continue  # wider than any word space: a short line's end, telling nothing here
        # A side of n runs has at most n - 1 gaps: a row of too few runs has too few spaces
        # to be doubted, without measuring them.
        word_like = False
        if len(row) - 2 >= PROSE_MIN_SPACES:
            spaces = sorted(
                b - a for a, b, e in _row_gaps(left) + _row_gaps(right) if b - a > WORD_GAP_EM * e
            )
            word_like = (
                len(spaces) >= PROSE_MIN_SPACES
                and gap <= GUTTER_WORD_RATIO * spaces[3 * len(spaces) // 4]
                and _prose_row([[r] for r in row])
            )
        opened.append(_OpenRow(row[0].x0, max(r.x1 for r in row), end, right[0].x0, word_like))
    if not opened:
        return False
    tolerance = EDGE_ALIGN_EM * em
    first = _median([o.start for o in opened])
    last = _median([o.end for o in opened])
    justified = [
        o for o in opened if abs(o.start - first) <= tolerance and abs(o.end - last) <= tolerance
    ]
    if sum(1 for o in justified if o.word_like) * 2 <= len(opened):
        return False
    edge = _aligned([o.gap_end for o in opened], tolerance) or _aligned(
        [o.gap_start for o in opened], tolerance
    )
    return not (edge and longest >= GUTTER_CLEAR_ROWS)


def _median(xs: list[float]) -> float:
    return sorted(xs)[len(xs) // 2]


def _aligned(xs: list[float], tolerance: float) -> bool:
    """Whether nearly all of ``xs`` (four in five) lie within ``tolerance`` of their median."""
    if not xs:
        return False
    middle = _median(xs)
    return sum(1 for x in xs if abs(x - middle) <= tolerance) * 5 >= 4 * len(xs)


def _duplicate(a: TextRun, b: TextRun) -> bool:
    """Fake bold: the same text drawn twice a fraction of a point apart."""
    return a.text == b.text and abs(a.x0 - b.x0) < 1.0 and abs(a.y0 - b.y0) < 1.0


def _make_line(runs: list[TextRun]) -> Line:
    if len(runs) == 1:
        return _one_run_line(runs[0])
    first = runs[0]
    parts: list[str] = []
    prev: TextRun | None = None
    right = 0.0
    weights: dict[float, int] = defaultdict(int)
    fonts: dict[str, int] = defaultdict(int)
    bold = italic = 0
    total = 0
    # The box, the earliest position and whether all are artifacts, in the same pass (the
    # comparisons are the ones ``min``, ``max`` and ``all`` make).
    x0, y0, x1, y1, seq = first.x0, first.y0, first.x1, first.y1, first.seq
    artifact = True
    for run in runs:
        text = run.text
        if prev is not None:
            gap = run.x0 - right
            em = min(prev.size, run.size) or 1.0
            threshold = PUNCT_GAP_EM if text[:1] in _CLOSING else WORD_GAP_EM
            if (
                (
                    gap > threshold * em
                    or prev.space_after
                    or (prev is first and _raised_mark(prev, run))
                )
                and parts
                and not parts[-1].endswith(" ")
                and not text.startswith(" ")
            ):
                parts.append(" ")
            right = max(right, run.x1)
            x0 = run.x0 if run.x0 < x0 else x0
            y0 = run.y0 if run.y0 < y0 else y0
            x1 = run.x1 if run.x1 > x1 else x1
            y1 = run.y1 if run.y1 > y1 else y1
            seq = run.seq if run.seq < seq else seq
        else:
            right = run.x1
            if _letter_bullet(run, runs[1]):
                text = LETTER_BULLET
        parts.append(text)
        n = len(text.strip()) or 1
        total += n
        weights[run.size] += n
        fonts[run.font] += n
        if run.bold:
            bold += n
        if run.italic:
            italic += n
        if artifact and not run.artifact:
            artifact = False
        prev = run
    text = " ".join("".join(parts).split())
    text = logical_order(text)
    size = max(weights.items(), key=_weight_then_size)[0]
    return Line(
        text,
        x0,
        y0,
        x1,
        y1,
        size,
        bold * 2 > total,
        italic * 2 > total,
        max(fonts.items(), key=_weight)[0],
        artifact,
        seq,
        [(r.x0, r.x1, r.text + " " if r.space_after else r.text) for r in runs],
        # (per face, not per run: the faces' counts hold it)
        sum(n for f, n in fonts.items() if is_monospace(f)) / total if len(fonts) > 1 else None,
    )


def _weight_then_size(item: tuple[float, int]) -> tuple[int, float]:
    return item[1], item[0]


_weight = operator.itemgetter(1)


def _one_run_line(run: TextRun) -> Line:
    """``_make_line`` of a single run (most lines), without the bookkeeping of many."""
    text = logical_order(" ".join(run.text.split()))
    return Line(
        text,
        run.x0,
        run.y0,
        run.x1,
        run.y1,
        run.size,
        run.bold,
        run.italic,
        run.font,
        run.artifact,
        run.seq,
        [(run.x0, run.x1, run.text + " " if run.space_after else run.text)],
    )
