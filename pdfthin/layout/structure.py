"""Document-wide structure: running headers and footers, headings and list items.

These need every page: a header is a header because it repeats, and a heading is a heading
because its size stands out from the body text of the whole document.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict

from .types import Block, PageLayout

#: Share of the page height, at the top and at the bottom, where running furniture lives.
BAND = 0.12
HEADING_RATIO = 1.15
MAX_HEADING_CHARS = 160
MAX_LEVELS = 6

_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(
    r"^(?:page|seite|página|pagina|p\.)?\s*[-–—(\[]?\s*"
    r"(?:\d{1,4}|[ivxlcdm]{1,7})\s*[-–—)\]]?"
    r"(?:\s*(?:of|/|von|de)\s*\d{1,4})?$",
    re.IGNORECASE,
)
_BULLET = re.compile(r"^([•◦▪▫‣⁃●○■□►▸▹–—*·✓✔➢➤→-])\s+(?=\S)")
_ENUM = re.compile(r"^(\(?(?:\d{1,3}|[a-zA-Z]|[ivxIVX]{1,5})[.)])\s+(?=\S)")
_NUMBERED_HEADING = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+\S")
_LETTERS = re.compile(r"[^\W\d_]")


def _key(text: str) -> str:
    return " ".join(_DIGITS.sub("#", text.lower()).split())


def mark_furniture(pages: list[PageLayout]) -> None:
    """Move running headers, footers and page numbers out of each page's blocks."""
    n = len(pages)
    counts: Counter[tuple[str, str]] = Counter()
    candidates: list[list[tuple[Block, str, str]]] = []
    for page in pages:
        found: list[tuple[Block, str, str]] = []
        seen: set[tuple[str, str]] = set()
        for block in page.blocks:
            band = _band(block, page)
            if band is None or block.kind == "table" or len(block.lines) > 2:
                continue
            text = block.text
            if len(text) > 120:
                continue
            key = _key(text)
            found.append((block, band, key))
            if (band, key) not in seen:
                seen.add((band, key))
                counts[(band, key)] += 1
        candidates.append(found)
    repeat_min = 2 if n <= 3 else max(3, math.ceil(0.25 * n))
    for page, found in zip(pages, candidates, strict=True):
        furniture: list[tuple[Block, str]] = []
        for block, band, key in found:
            text = block.text
            if (
                (n >= 2 and counts[(band, key)] >= repeat_min and _LETTERS.search(key) is not None)
                or _PAGE_NUMBER.match(text.strip())
                or all(line.artifact for line in block.lines)
                or (n >= 4 and counts[(band, key)] >= repeat_min)
            ):
                furniture.append((block, band))
        if not furniture:
            continue
        drop = {id(b) for b, _ in furniture}
        page.blocks = [b for b in page.blocks if id(b) not in drop]
        for block, band in sorted(furniture, key=lambda fb: fb[0].y0):
            (page.header if band == "top" else page.footer).append(block.text)


def _band(block: Block, page: PageLayout) -> str | None:
    if page.height <= 0:
        return None
    if block.y1 <= BAND * page.height:
        return "top"
    if block.y0 >= (1 - BAND) * page.height:
        return "bottom"
    return None


def body_size(pages: list[PageLayout]) -> float:
    weights: dict[float, int] = defaultdict(int)
    for page in pages:
        for block in page.blocks:
            if block.kind == "table":
                continue
            for line in block.lines:
                weights[round(line.size * 2) / 2] += len(line.text)
    if not weights:
        return 0.0
    return max(weights.items(), key=lambda kv: (kv[1], -kv[0]))[0]


def mark_headings(pages: list[PageLayout]) -> None:
    """Blocks whose size stands out from the body become headings, levels by size rank."""
    body = body_size(pages)
    if body <= 0:
        return
    total_chars = sum(b.chars for p in pages for b in p.blocks) or 1
    size_chars: dict[float, int] = defaultdict(int)
    for page in pages:
        for block in page.blocks:
            size_chars[round(block.size * 2) / 2] += block.chars
    candidates: list[Block] = []
    bold_candidates: list[Block] = []
    for page in pages:
        for index, block in enumerate(page.blocks):
            if not _heading_shape(block):
                continue
            size = round(block.size * 2) / 2
            if size >= body * HEADING_RATIO and size >= body + 1.0:
                # A size used by much of the text is a body size, not a heading size.
                if size_chars[size] > 0.2 * total_chars and block.chars > 60:
                    continue
                max_lines = 4 if size >= 1.5 * body else 3
                if len(block.lines) <= max_lines:
                    candidates.append(block)
            elif block.bold and abs(size - body) <= 1.0 and len(block.lines) <= 2:
                following = page.blocks[index + 1] if index + 1 < len(page.blocks) else None
                if following is None or not following.bold or following.kind == "table":
                    bold_candidates.append(block)
    sizes = sorted({round(b.size * 2) / 2 for b in candidates}, reverse=True)
    # Sizes within half a point are one level.
    levels: dict[float, int] = {}
    level = 0
    previous = None
    for size in sizes:
        if previous is None or previous - size > 0.6:
            level += 1
        levels[size] = min(level, MAX_LEVELS)
        previous = size
    for block in candidates:
        block.kind = "heading"
        block.level = levels[round(block.size * 2) / 2]
    bold_level = min(level + 1, MAX_LEVELS)
    for block in bold_candidates:
        block.kind = "heading"
        block.level = bold_level


def _heading_shape(block: Block) -> bool:
    if block.kind != "paragraph":
        return False
    text = block.text.strip()
    if not text or len(text) > MAX_HEADING_CHARS:
        return False
    letters = len(_LETTERS.findall(text))
    if letters < 2 or letters < 0.4 * len(text.replace(" ", "")):
        return False
    if text.endswith((",", ";", ":")) and len(text) > 40:
        return False
    return not _BULLET.match(text)


def mark_lists(pages: list[PageLayout]) -> None:
    """Split blocks at lines that start with a bullet or an enumeration marker."""
    for page in pages:
        out: list[Block] = []
        for block in page.blocks:
            if block.kind not in ("paragraph",) or not any(
                _BULLET.match(line.text) or _ENUM.match(line.text) for line in block.lines
            ):
                out.append(block)
                continue
            current: Block | None = None
            for line in block.lines:
                if _BULLET.match(line.text) or _ENUM.match(line.text) or current is None:
                    is_item = bool(_BULLET.match(line.text) or _ENUM.match(line.text))
                    current = Block(
                        [line],
                        line.x0,
                        line.y0,
                        line.x1,
                        line.y1,
                        line.size,
                        line.bold,
                        kind="list_item" if is_item else "paragraph",
                    )
                    out.append(current)
                else:
                    current.lines.append(line)
                    current.x0 = min(current.x0, line.x0)
                    current.x1 = max(current.x1, line.x1)
                    current.y1 = max(current.y1, line.y1)
        page.blocks = out


def list_marker(text: str) -> tuple[str, str] | None:
    """``(marker, rest)`` when ``text`` starts with a list marker."""
    m = _BULLET.match(text)
    if m:
        return "-", text[m.end() :]
    m = _ENUM.match(text)
    if m:
        return m.group(1), text[m.end() :]
    return None


def numbered_depth(text: str) -> int:
    """``2`` for "3.1 Methods", ``1`` for "3 Results", ``0`` when not numbered."""
    m = _NUMBERED_HEADING.match(text)
    return m.group(1).count(".") + 1 if m else 0
