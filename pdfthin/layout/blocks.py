"""Lines -> blocks: consecutive lines of one paragraph (close below each other, overlapping
horizontally, same size and weight) become one block."""

from __future__ import annotations

from pdfthin.layout.types import Block, Line

#: Largest vertical gap between two lines of one block, in ems of the text size.
LINE_GAP_EM = 0.75
#: Font sizes within this ratio belong to the same block.
SIZE_TOLERANCE = 0.12


def build_blocks(lines: list[Line]) -> list[Block]:
    """Group lines (sorted top to bottom) into blocks."""
    blocks: list[Block] = []
    open_blocks: list[Block] = []
    for line in lines:
        best: Block | None = None
        best_gap = float("inf")
        still_open: list[Block] = []
        for block in open_blocks:
            last = block.lines[-1]
            em = max(last.size, line.size)
            gap = line.y0 - last.y1
            if gap > LINE_GAP_EM * em + 2.0:
                continue  # too far above: this block is finished
            still_open.append(block)
            if _joins(block, last, line, gap) and gap < best_gap:
                best, best_gap = block, gap
        open_blocks = still_open
        if best is None:
            block = Block([line], line.x0, line.y0, line.x1, line.y1, line.size, line.bold)
            blocks.append(block)
            open_blocks.append(block)
        else:
            best.lines.append(line)
            best.x0 = min(best.x0, line.x0)
            best.x1 = max(best.x1, line.x1)
            best.y1 = max(best.y1, line.y1)
    for block in blocks:
        summarise(block)
    return blocks


def _joins(block: Block, last: Line, line: Line, gap: float) -> bool:
    em = max(last.size, line.size)
    if gap < -0.5 * em or gap > LINE_GAP_EM * em:
        return False
    if abs(last.size - line.size) > SIZE_TOLERANCE * em:
        return False
    if last.bold != line.bold and (len(last.text) < 120 or len(line.text) < 120):
        return False
    overlap = min(block.x1, line.x1) - max(block.x0, line.x0)
    if overlap <= 0.3 * min(block.x1 - block.x0, line.x1 - line.x0):
        return False
    # A short line followed by an indented one ends a paragraph (or a run-in heading line).
    right = max(block.x1, line.x1)
    short = last.x1 < right - 2.0 * em
    indented = line.x0 > block.x0 + 0.5 * em and line.x0 > last.x0 - 0.5 * em
    return not (short and indented)


def summarise(block: Block) -> None:
    weights: dict[float, int] = {}
    bold = total = 0
    for line in block.lines:
        n = len(line.text)
        weights[line.size] = weights.get(line.size, 0) + n
        total += n
        if line.bold:
            bold += n
    block.size = max(weights.items(), key=lambda kv: (kv[1], kv[0]))[0]
    block.bold = bold * 2 > total
