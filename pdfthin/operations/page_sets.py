"""Sets of page numbers as short text, for the reading ledger's cursors and answers.

A set is written as comma-separated runs: ``7`` (one page), ``1-40`` (consecutive pages) and
``1-9999/2`` (every second page from 1 to 9999: an arithmetic run, first-last/step). Runs with
a step keep a cursor short for the selections that defeat plain ranges (every other page of a
10,000-page document is ``1-9999/2``, not 5,000 numbers). Reading the text back is untrusted
input (a cursor is): every number is checked against the page count before a run is expanded,
so a forged run cannot make a large set.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: One run: ``a``, ``a-b`` or ``a-b/s``.
_RUN = re.compile(r"^([1-9][0-9]{0,8})(?:-([1-9][0-9]{0,8})(?:/([1-9][0-9]{0,8}))?)?$")
#: An arithmetic run is written with its step from this many pages (fewer: one by one).
_MIN_STEPPED_RUN = 3


def encode(pages: Iterable[int]) -> str:
    """``pages`` as runs, ascending (``""`` for none)."""
    nums = sorted(set(pages))
    parts: list[str] = []
    i = 0
    while i < len(nums):
        j = i
        if i + 1 < len(nums):
            step = nums[i + 1] - nums[i]
            while j + 1 < len(nums) and nums[j + 1] - nums[j] == step:
                j += 1
            if step == 1 and j > i:
                parts.append(f"{nums[i]}-{nums[j]}")
                i = j + 1
                continue
            if j - i + 1 >= _MIN_STEPPED_RUN:
                parts.append(f"{nums[i]}-{nums[j]}/{step}")
                i = j + 1
                continue
        parts.append(str(nums[i]))
        i += 1
    return ",".join(parts)


def decode(text: str, page_count: int) -> set[int]:
    """The pages ``text`` names; ``ValueError`` when it is malformed or names a page outside
    1..``page_count`` (checked before any run is expanded)."""
    pages: set[int] = set()
    if not text:
        return pages
    for part in text.split(","):
        found = _RUN.match(part)
        if found is None:
            raise ValueError(f"not a page run: {part[:20]!r}")
        first = int(found.group(1))
        last = int(found.group(2) or first)
        step = int(found.group(3) or 1)
        if not first <= last <= page_count:
            raise ValueError("a page run outside the document")
        if (last - first) % step:
            raise ValueError("a page run whose step does not reach its last page")
        pages.update(range(first, last + 1, step))
    return pages


def prefix_within(pages: Iterable[int], max_chars: int) -> tuple[str, set[int]]:
    """The longest run of ``pages`` (ascending) whose text is at most ``max_chars`` characters,
    and the pages it names: a subset, never more, for when a set cannot be carried whole."""
    text = encode(pages)
    if len(text) <= max_chars:
        return text, set(pages)
    cut = text.rfind(",", 0, max_chars + 1)
    kept = text[:cut] if cut > 0 else ""
    return kept, _expand(kept)


def _expand(text: str) -> set[int]:
    # Text this module wrote: no page count to check against.
    return decode(text, 10**9)
