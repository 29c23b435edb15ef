"""Text at an angle that is no quarter turn (``TextRun.direction == 2``): a stamp across a page,
a leaflet's panel set at 30 degrees. Such text is often drawn a glyph at a time, each glyph a
run: the runs are chained, in the order the page draws them, into lines along their own
baseline, and consecutive lines one under another into blocks. The runs' boxes are upright
(the engine bounds each turned glyph), so only their middles and the gaps between boxes are
measured, in ems of the text's size.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from pdfthin.layout.lines import WORD_GAP_EM
from pdfthin.layout.types import Block, Line

if TYPE_CHECKING:
    from pdfthin.engine.types import TextRun

#: A run goes on the line of the run drawn right before it (the next in the page's drawing
#: order: a label drawn after other text is a label of its own) when their boxes are at
#: most this many ems apart (glyphs of one word touch; a word space is a fraction of an em) ...
CHAIN_GAP_EM = 1.0
#: ... and, once the line has a direction, the step between their middles turns from it by
#: at most this many degrees (the next line starts back at the left, far off the direction).
CHAIN_TURN_DEGREES = 30.0
#: Runs whose sizes differ by more than this share are not one line.
CHAIN_SIZE_SHARE = 0.12
#: Runs of one line follow each other along it: their middles stand at least this share of
#: their lengths apart (half each length, with slack for the lengths' estimate, ``_reach``).
#: Labels set one under another, each longer than the step between them, are two lines.
CHAIN_SPREAD = 0.5
#: How tall the engine makes a run's glyphs, in ems: its box spans the font's ascent (0.8 of
#: the size when the font does not say) and 0.22 below the baseline.
RUN_HEIGHT_EM = 1.02
#: A line goes on the block of the line drawn before it when it starts, across the lines'
#: direction, at most this many ems from that line's start (the next line of a paragraph) ...
BLOCK_PITCH_EM = 2.0
#: ... and, along it, at most this many (lines flush, or ragged at their start by a little).
BLOCK_SHIFT_EM = 3.0


def slanted_blocks(runs: list[TextRun]) -> list[Block]:
    """Blocks of slanted text, in the order the page draws it; each block's lines in order."""
    chains = _chains(sorted(runs, key=lambda r: r.seq))
    blocks: list[Block] = []
    previous: tuple[list[TextRun], tuple[float, float] | None] | None = None
    for chain, direction in chains:
        line = _line(chain, direction)
        if line is None:
            continue
        if previous is not None and blocks and _next_line(previous, chain, direction):
            block = blocks[-1]
            block.lines.append(line)
            block.x0, block.y0 = min(block.x0, line.x0), min(block.y0, line.y0)
            block.x1, block.y1 = max(block.x1, line.x1), max(block.y1, line.y1)
        else:
            blocks.append(Block([line], line.x0, line.y0, line.x1, line.y1, line.size, line.bold))
        previous = (chain, direction)
    return blocks


def _middle(run: TextRun) -> tuple[float, float]:
    return (run.x0 + run.x1) / 2, (run.y0 + run.y1) / 2


def _gap(a: TextRun, b: TextRun) -> float:
    """The distance between the runs' boxes (0 where they touch or overlap)."""
    dx = max(0.0, b.x0 - a.x1, a.x0 - b.x1)
    dy = max(0.0, b.y0 - a.y1, a.y0 - b.y1)
    return math.hypot(dx, dy)


def _reach(run: TextRun) -> float:
    """Least length of ``run`` along its baseline, whatever its angle: its upright box's
    diagonal less the glyphs' height (``RUN_HEIGHT_EM``)."""
    return max(math.hypot(run.x1 - run.x0, run.y1 - run.y0) - RUN_HEIGHT_EM * run.size, 0.0)


def _dot(a: tuple[float, float], b: tuple[float, float]) -> float:
    return a[0] * b[0] + a[1] * b[1]


def _unit(dx: float, dy: float) -> tuple[float, float] | None:
    length = math.hypot(dx, dy)
    return (dx / length, dy / length) if length > 0 else None


def _chains(runs: list[TextRun]) -> list[tuple[list[TextRun], tuple[float, float] | None]]:
    """The runs cut into lines, each with its direction (a unit vector; ``None`` for a line
    of one run)."""
    cos_turn = math.cos(math.radians(CHAIN_TURN_DEGREES))
    out: list[tuple[list[TextRun], tuple[float, float] | None]] = []
    chain: list[TextRun] = []
    direction: tuple[float, float] | None = None
    for run in runs:
        if chain:
            prev = chain[-1]
            em = max(prev.size, run.size, 1.0)
            (px, py), (x, y) = _middle(prev), _middle(run)
            step = _unit(x - px, y - py)
            fits = (
                run.seq == prev.seq + 1
                and abs(prev.size - run.size) <= CHAIN_SIZE_SHARE * em
                and _gap(prev, run) <= CHAIN_GAP_EM * em
                and math.hypot(x - px, y - py) >= CHAIN_SPREAD * (_reach(prev) + _reach(run)) / 2
                and step is not None
                and (direction is None or _dot(step, direction) >= cos_turn)
            )
            if fits:
                if direction is None:
                    sx, sy = _middle(chain[0])
                    direction = _unit(x - sx, y - sy)
                chain.append(run)
                continue
            out.append((chain, direction))
        chain, direction = [run], None
    if chain:
        out.append((chain, direction))
    return out


def _next_line(
    previous: tuple[list[TextRun], tuple[float, float] | None],
    chain: list[TextRun],
    direction: tuple[float, float] | None,
) -> bool:
    """Whether ``chain`` is the line under ``previous`` in one block: the same direction and
    size, starting a line's pitch across from the previous line's start."""
    before, along = previous
    if along is None or direction is None:
        return False
    if _dot(along, direction) < math.cos(math.radians(CHAIN_TURN_DEGREES)):
        return False
    em = max(before[0].size, chain[0].size, 1.0)
    if abs(before[0].size - chain[0].size) > CHAIN_SIZE_SHARE * em:
        return False
    (sx, sy), (x, y) = _middle(before[0]), _middle(chain[0])
    dx, dy = x - sx, y - sy
    shift = dx * along[0] + dy * along[1]
    across = abs(-dx * along[1] + dy * along[0])
    return across <= BLOCK_PITCH_EM * em and abs(shift) <= BLOCK_SHIFT_EM * em


def _along(run: TextRun, direction: tuple[float, float]) -> tuple[float, float]:
    """Where ``run`` starts and ends along ``direction``: its upright box is its glyphs (a
    size tall, some length long) turned, so the length is what the box's width, or height,
    leaves once the turned height is taken out (whichever the angle keeps better measured)."""
    ux, uy = direction
    cos, sin = abs(ux), abs(uy)
    width, height, tall = run.x1 - run.x0, run.y1 - run.y0, RUN_HEIGHT_EM * run.size
    length = (width - tall * sin) / cos if cos >= sin else (height - tall * cos) / sin
    x, y = _middle(run)
    middle = x * ux + y * uy
    half = max(length, 0.0) / 2
    return middle - half, middle + half


def _line(chain: list[TextRun], direction: tuple[float, float] | None) -> Line | None:
    """The chain's runs as one line, ``None`` when it holds no text. A space stands between
    two runs where the page showed one, or where, along the line, the next starts more than
    a word gap (``WORD_GAP_EM``) after the end of the one before."""
    parts: list[str] = []
    end = -math.inf
    for i, run in enumerate(chain):
        start, stop = _along(run, direction) if direction is not None else (0.0, 0.0)
        if i and (
            chain[i - 1].space_after
            or start - end > WORD_GAP_EM * max(chain[i - 1].size, run.size, 1.0)
        ):
            parts.append(" ")
        parts.append(run.text)
        end = stop
    text = " ".join("".join(parts).split())
    if not text:
        return None
    first = chain[0]
    return Line(
        text,
        min(r.x0 for r in chain),
        min(r.y0 for r in chain),
        max(r.x1 for r in chain),
        max(r.y1 for r in chain),
        first.size,
        sum(len(r.text) for r in chain if r.bold) * 2 > sum(len(r.text) for r in chain),
        first.italic,
        first.font,
        seq=first.seq,
    )
