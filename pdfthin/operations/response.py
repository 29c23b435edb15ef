"""Response helpers shared by the handlers: size accounting and the document summary.

Budgets are measured on the compact JSON form of a response (``ensure_ascii=False``), the
form every adapter sends, so "fits the budget" means exactly what the client receives.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

from pdfthin._version import __version__
from pdfthin.pages import format_pages

if TYPE_CHECKING:
    from pdfthin.model import Document
    from pdfthin.model.regions import Region
    from pdfthin.operations.types import (
        BBox,
        DocumentRef,
        DocumentSummary,
        EngineCapability,
        ReviewRegion,
        TitleSource,
    )


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def size(obj: Any) -> int:
    return len(dumps(obj))


#: A title longer than this is cut in response summaries (the budget is for content).
TITLE_CHARS = 160


#: Where a section's title comes from: the PDF's bookmarks (written by whoever made the file,
#: not page text), a heading found in the page text, or the page's number.
TITLE_SOURCES: dict[str, TitleSource] = {
    "outline": "outline",
    "headings": "heading",
    "pages": "page",
}


def document_ref(doc: Document) -> DocumentRef:
    """The document's fingerprint and page count."""
    return {"fingerprint": doc.fingerprint, "page_count": doc.page_count}


def document_summary(doc: Document) -> DocumentSummary:
    """The document's fingerprint, page count and metadata title. The title is the file's own
    metadata, not page text, and is labelled so (invariant 15): it sits under ``metadata``."""
    title = doc.metadata.title
    if title and len(title) > TITLE_CHARS:
        title = title[: TITLE_CHARS - 1] + "…"
    return {
        "fingerprint": doc.fingerprint,
        "page_count": doc.page_count,
        "metadata": {"title": title},
    }


def pages_with_status(doc: Document, status: str, pages: list[int] | None = None) -> list[int]:
    chosen = range(1, doc.page_count + 1) if pages is None else pages
    return [n for n in chosen if doc.page(n).status == status]


def bbox(box: tuple[float, float, float, float], places: int | None = None) -> BBox:
    """A box ``(x0, y0, x1, y1)`` as every answer gives one: ``{x0, y0, x1, y1}``, in points
    on the page as displayed (origin at the top left of the crop box, y down, after /Rotate),
    rounded to ``places`` decimals when given. The one place a box takes its answer's shape."""
    x0, y0, x1, y1 = box if places is None else (round(v, places) for v in box)
    return {"x0": x0, "y0": y0, "x1": x1, "y1": y1}


def review_regions(regions: Iterable[Region]) -> list[ReviewRegion]:
    """Regions needing review as the answers give them (``regions_needing_review``)."""
    return [
        cast(
            "ReviewRegion",
            {"bbox": bbox(r.box), "reason": r.reason, "score": r.score, "message": r.message},
        )
        for r in regions
    ]


def compact(pages: list[int]) -> str:
    return format_pages(sorted(pages))


def engine_versions() -> EngineCapability:
    from pdfthin.engine import engine_info

    # engine_info's keys are EngineCapability's (tests/test_registry.py checks answers
    # against the schema derived from it)
    return cast("EngineCapability", {**engine_info(), "pdfthin": __version__})


def cut_point(text: str, limit: int) -> int:
    """Where to cut ``text`` so that at most ``limit`` characters stay before the cut:
    at a paragraph break, else a line break, else a space, else anywhere (never inside a
    surrogate pair, never leaving nothing)."""
    if limit >= len(text):
        return len(text)
    limit = max(limit, 1)
    floor = int(limit * 0.6)
    for sep in ("\n\n", "\n", " "):
        at = text.rfind(sep, floor, limit)
        if at > 0:
            return at + len(sep)
    return limit
