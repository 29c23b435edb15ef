"""The page text under a page's links and markup annotations (a link's anchor text, the words
a highlight covers), from the page's visible text runs (:mod:`pdfthin.layout.covered`).

Text the page hides (invisible, white, clipped...) is not in the runs the engine hands over,
so it is never given as an anchor: only what a reader of the page would see under the box.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdfthin.engine.annotations import MARKUP
from pdfthin.layout.covered import Covering

if TYPE_CHECKING:
    from pdfthin.engine import Annotation, EngineDocument

#: The kinds whose covered text is given.
WITH_TEXT = frozenset({"link", *MARKUP})


@dataclass(frozen=True, slots=True)
class CoveredTexts:
    #: Per annotation (in the order given): the text under it; ``None`` for kinds without.
    texts: list[str | None]
    #: Why a text may be missing or partial (the page needs OCR, or was read in part).
    problem: str | None


def needs_text(annotations: list[Annotation]) -> bool:
    return any(a.kind in WITH_TEXT and (a.quads or a.rect) for a in annotations)


def covered_texts(
    engine: EngineDocument, number: int, annotations: list[Annotation]
) -> CoveredTexts:
    """The text under each of ``annotations`` of page ``number`` (one read of the page, only
    when one of them is a link or markup)."""
    if not needs_text(annotations):
        return CoveredTexts([None] * len(annotations), None)
    content = engine.page(number)
    problem: str | None = None
    if content.incomplete:
        problem = "the page was read only in part; the text under it may be missing"
    elif content.glyphs and content.unmapped_glyphs * 2 > content.glyphs:
        problem = "the page's text cannot be decoded (it needs OCR); the text under it is missing"
    texts: list[str | None] = []
    covering = Covering(content.runs)
    for a in annotations:
        if a.kind not in WITH_TEXT:
            texts.append(None)
            continue
        boxes = list(a.quads) if a.quads else ([a.rect] if a.rect is not None else [])
        texts.append(covering.text(boxes))
    return CoveredTexts(texts, problem)
