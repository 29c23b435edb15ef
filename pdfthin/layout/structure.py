"""Document-wide structure: running headers and footers, headings and list items.

These need every page: a header is a header because it repeats, and a heading is a heading
because it stands out from the body text of the whole document (see :mod:`.headings`).
"""

from __future__ import annotations

import math
import re
from collections import Counter

from .types import Block, PageLayout

#: Share of the page height, at the top and at the bottom, where running furniture lives.
BAND = 0.12

_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(
    r"^(?:page|seite|página|pagina|p\.)?\s*[-–—(\[]?\s*"
    r"(?:\d{1,4}|[ivxlcdm]{1,7})\s*[-–—)\]]?"
    r"(?:\s*(?:of|/|von|de)\s*\d{1,4})?$",
    re.IGNORECASE,
)
_BULLET = re.compile(r"^([•◦▪▫‣⁃●○■□►▸▹–—*·✓✔➢➤→-])\s+(?=\S)")
_ENUM = re.compile(r"^(\(?(?:\d{1,3}|[a-zA-Z]|[ivxIVX]{1,5})[.)])\s+(?=\S)")
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
