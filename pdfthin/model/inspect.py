"""What the layout decided on one page of a document, as the page's output was made: read by
the engine, laid out, finished against the document's profile (running headers and footers,
lists, heading levels) exactly as :mod:`pdfthin.model.document` finishes it, then checked
against the page's own Markdown.

The document keeps its pages' Markdown, not their layout, so the page is read again (from an
engine the caller opens on the same bytes) and the profile made again from the same sample of
pages (``profile_sample``; kept with the document after the first call). A page of the sample
is finished together with the sample, as it was when the document was opened. Should the
result not render to the page's Markdown (a page past the document's work budget, which the
document did not read but a fresh engine does), :attr:`PageInspection.matches_output` says so.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdfthin.deadline import current
from pdfthin.engine.gcpause import collection_paused
from pdfthin.layout import DocumentProfile, PageLayout, finish_document, finish_page
from pdfthin.layout.inspect import LayoutTrace, TracedRegion, trace_page, trace_svg
from pdfthin.model.document import (
    Document,
    Page,
    _layout,
    _spread,
    _vocabulary,
    profile_sample,
)
from pdfthin.model.figures import with_figures
from pdfthin.model.markdown import _is_code, render_page

if TYPE_CHECKING:
    from pdfthin.engine import EngineDocument, PageContent

__all__ = ["PageInspection", "inspect_page", "trace_svg"]

#: Where the document keeps the profile remade for inspection (``Document.derived``).
_DERIVED_KEY = "inspect_profile"


@dataclass(frozen=True)
class PageInspection:
    #: The page as the document answers it (status, reason, Markdown).
    page: Page
    trace: LayoutTrace
    #: The traced blocks render to the page's Markdown: they are the output's blocks.
    matches_output: bool


@dataclass(frozen=True)
class _Profile:
    profile: DocumentProfile | None
    known_words: frozenset[str]


def inspect_page(doc: Document, engine: EngineDocument, number: int) -> PageInspection:
    """Page ``number`` of ``doc`` traced (``engine`` reads the same bytes as ``doc``);
    ``invalid_pages`` for a page the document does not have."""
    page = doc.page(number)
    sample = profile_sample(doc.page_count)
    # Reading is bounded as the document's own build is: pages not started within the
    # document's time limit are not read (the engine labels them; matches_output then says
    # the trace is not the output).
    engine.document_deadline = time.monotonic() + engine.limits.document_seconds
    try:
        return _inspect(doc, engine, number, page, sample)
    finally:
        engine.document_deadline = None


def _inspect(
    doc: Document, engine: EngineDocument, number: int, page: Page, sample: list[int]
) -> PageInspection:
    with collection_paused(), engine.held():
        content = _read(engine, number)
        layout = _layout(content)
        laid_out = list(layout.blocks)
        if number in sample:
            # Finished together with the sample, as it was when the document was opened.
            made = _finish_sample(engine, sample, number, layout)
            doc.derived[_DERIVED_KEY] = made
            known = made.known_words
        else:
            found = doc.derived.get(_DERIVED_KEY)
            if not isinstance(found, _Profile):
                found = _finish_sample(engine, sample, None, None)
                doc.derived[_DERIVED_KEY] = found
            _finish_page(layout, found.profile)
            known = found.known_words | _vocabulary([layout])
    ocr_layer = any(r.ocr_layer for r in content.runs)
    markdown, anchors, _ = render_page(layout.blocks, known, ocr_layer)
    markdown = with_figures(markdown, anchors, number, content.images, bool(layout.turn))[0]
    trace = trace_page(content, layout, laid_out)
    # The regions the document judged on the page (what read_pages reports).
    trace.regions = [TracedRegion(r.reason, r.box, r.score, r.message) for r in page.regions]
    trace.blocks = [
        # The Markdown sets these lines as a code block: say so, as read_pages shows it.
        dataclasses.replace(traced, kind="code") if _is_code(block, ocr_layer) else traced
        for traced, block in zip(trace.blocks, layout.blocks, strict=True)
    ]
    return PageInspection(page, trace, markdown == page.markdown)


def _finish_sample(
    engine: EngineDocument, sample: list[int], number: int | None, layout: PageLayout | None
) -> _Profile:
    """The sample laid out and finished together (``layout`` is page ``number``'s, which is
    finished with them), as ``build_document`` does; the profile it gives."""
    layouts: list[PageLayout] = []
    for n in sample:
        layouts.append(layout if n == number and layout is not None else _layout(_read(engine, n)))
    try:
        profile: DocumentProfile | None = finish_document(
            layouts, _spread(layouts, engine.page_count)
        )
    except Exception:  # as the document does: the pages stay unfinished
        profile = None
    return _Profile(profile, frozenset(_vocabulary(layouts)))


def _read(engine: EngineDocument, number: int) -> PageContent:
    """Page ``number``, read within the call's time (``timeout`` past it)."""
    deadline = current()
    deadline.check()
    content = engine.page(number, deadline=deadline.at)
    deadline.check()
    return content


def _finish_page(layout: PageLayout, profile: DocumentProfile | None) -> None:
    if profile is None:
        return
    try:
        finish_page(layout, profile)
    except Exception:  # as the document does: a layout bug leaves the page unfinished
        return
