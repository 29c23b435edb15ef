"""The report of the pages a response covers but could not read (invariant 3: an unreadable
page is never presented as empty).

``read_pages`` gives each page's status and reason, ``find_in_document`` its coverage; every
other response that covers pages (``describe_document``, ``get_info``, ``get_toc`` and each of
its sections, ``read_section``, ``peek``, ``list_images``) carries ``unreadable`` when any page
of its scope was not read whole: a page that needs OCR (no usable text layer) or a page whose
text layer was read only in part. Absent when every page in scope was read::

    "unreadable": {"count": 3, "pages": "2,5-6",
                   "reasons": {"image_only": "2", "partial": "5-6"}, "message": "..."}

The reason codes are the pages' ``reason_code`` (docs/api.md, "Page statuses"): ``partial`` is a
``text`` page read in part, every other code a ``needs_ocr`` page. Page lists are compact
ranges, cut at :data:`MAX_LIST_CHARS` (ending in ``…``); in a response of a small budget they
are cut shorter still (to :data:`MIN_LIST_CHARS` at the least), so that the report takes at
most :data:`REPORT_SHARE` of the budget where it can and leaves room for what the response is
for. ``count`` is always the whole number, every reason
code is named, and ``read_pages`` (or the reading ledger) gives each page's status.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, TypeVar

from pdfthin.operations.response import size
from pdfthin.pages import format_pages

if TYPE_CHECKING:
    from pdfthin.model import Document
    from pdfthin.operations.types import UnreadableReport

#: The longest page list a report carries (characters); a longer one is cut at a range.
MAX_LIST_CHARS = 80
#: The share of a response's budget a report may take: its page lists are cut shorter (to
#: half, then less) until it does ... A document with many reasons for
#: scattered pages otherwise fills a small budget with its report.
REPORT_SHARE = 0.25
#: ... but a list is never cut shorter than this (a short list, "1-300", stays whole).
MIN_LIST_CHARS = 12
_DERIVED_KEY = "unreadable.pages"

_Made = TypeVar("_Made", bound=Mapping[str, object])


def all_unreadable(doc: Document) -> list[int]:
    """Every page of the document not read whole, in order (kept with the document)."""
    found = doc.derived.get(_DERIVED_KEY)
    if not isinstance(found, list):
        found = [p.number for p in doc.pages if p.unreadable]
        doc.derived[_DERIVED_KEY] = found
    return found


def _unreadable_among(doc: Document, pages: Iterable[int]) -> list[int]:
    """The pages of ``pages`` not read whole, in order: from the document's list when it was
    made, else asking only these pages (pages are built on demand: a response about a few
    pages does not build the others)."""
    known = doc.derived.get(_DERIVED_KEY)
    if isinstance(known, list):
        return sorted(set(known).intersection(pages))
    return [n for n in sorted(set(pages)) if doc.page(n).unreadable]


def unreadable_in(doc: Document, first: int, last: int) -> list[int]:
    """The pages from ``first`` to ``last`` not read whole (cheap for many spans)."""
    pages = all_unreadable(doc)
    return pages[bisect_left(pages, first) : bisect_right(pages, last)]


def page_list(pages: list[int], longest: int | None = MAX_LIST_CHARS) -> str:
    """``pages`` (sorted) as compact ranges, cut to at most ``longest`` characters at a range
    boundary, ending in ``…`` when cut (``…`` alone when not even one range fits); whole when
    ``longest`` is ``None``."""
    text = format_pages(pages)
    if longest is None or len(text) <= longest:
        return text
    cut = text.rfind(",", 0, longest - 1) if longest > 1 else -1
    return text[:cut] + ",…" if cut > 0 else "…"


def report(
    doc: Document, pages: Iterable[int], limit: int | None = None
) -> UnreadableReport | None:
    """The ``unreadable`` report of a response whose scope is ``pages``; ``None`` when every
    page was read. With the response's budget ``limit``, its page lists are cut so that it
    takes at most :data:`REPORT_SHARE` of it (as far as cutting lists can)."""
    missing = _unreadable_among(doc, pages)
    if not missing:
        return None
    by_reason: dict[str, list[int]] = {}
    for n in missing:
        by_reason.setdefault(doc.page(n).reason_code, []).append(n)
    needing_ocr = sum(1 for n in missing if doc.page(n).status == "needs_ocr")
    partial = len(missing) - needing_ocr
    said = [f"{needing_ocr} need OCR"] if needing_ocr else []
    if partial:
        said.append(f"{partial} read in part")

    def made(longest: int | None) -> UnreadableReport:
        return {
            "count": len(missing),
            "pages": page_list(missing, longest),
            "reasons": {code: page_list(nums, longest) for code, nums in by_reason.items()},
            "message": (
                f"{len(missing)} page(s) in scope could not be read ({', '.join(said)}): "
                "their text is missing here, not absent from the document"
            ),
        }

    return within_share(made, limit, MAX_LIST_CHARS)


def within_share(
    make: Callable[[int | None], _Made], limit: int | None, first: int | None
) -> _Made:
    """What ``make(longest)`` makes with its page lists cut at ``longest`` characters (``None``:
    not cut), first at ``first``, then cut to half, and less (to :data:`MIN_LIST_CHARS` at the
    least), until it takes at most :data:`REPORT_SHARE` of the budget ``limit``."""
    longest = first
    while True:
        made = make(longest)
        if limit is None or longest == MIN_LIST_CHARS or size(made) <= limit * REPORT_SHARE:
            return made
        longest = MAX_LIST_CHARS if longest is None else max(MIN_LIST_CHARS, longest // 2)
