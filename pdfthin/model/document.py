"""The document model: every page as Markdown with a status, built once per document.

``build_document`` runs the engine over every page, lays the pages out, finds the document-wide
structure and renders Markdown. The result is plain data, safe to cache and to share between
requests.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pdfthin.deadline import Stop
from pdfthin.engine import (
    DocumentFacts,
    EngineDocument,
    ImagePlacement,
    Metadata,
    OutlineEntry,
    PageContent,
)
from pdfthin.engine.gcpause import collect_if_due, collection_paused
from pdfthin.layout import MAX_LAYOUT_RUNS, Block, Line, PageLayout, finish_document, layout_page
from pdfthin.model.markdown import Anchor, render_page
from pdfthin.model.markers import joined_pages
from pdfthin.model.status import page_status
from pdfthin.pages import check_page

_WORD = re.compile(r"[^\W_][\w-]*[^\W_]|[^\W_]", re.UNICODE)

ProgressCallback = Callable[[int, int], None]


@dataclass
class Page:
    number: int
    status: str
    reason: str
    #: A stable code for ``reason`` (``text_layer``, ``image_only``, ``unmapped_glyphs``, ...).
    reason_code: str
    markdown: str
    #: The body as plain text (no Markdown syntax); what search runs over.
    text: str
    width: float
    height: float
    rotation: int
    label: str | None = None
    header: list[str] = field(default_factory=list)
    footer: list[str] = field(default_factory=list)
    #: Text that would not be seen on the rendered page: ``{"text", "reason"}``.
    hidden: list[dict[str, Any]] = field(default_factory=list)
    images: list[ImagePlacement] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    #: Set when the text came from the scanner's invisible OCR layer.
    ocr_layer: bool = False
    #: Where each block starts in ``markdown``, its top on the page and its heading level.
    anchors: list[Anchor] = field(default_factory=list)

    @property
    def chars(self) -> int:
        return len(self.markdown)

    @property
    def unreadable(self) -> bool:
        """Whether the page holds text no answer can show: it needs OCR, or its text layer was
        read only in part (invariant 3: such a page is reported, never shown as empty)."""
        return self.status == "needs_ocr" or self.reason_code == "partial"

    def full_text(self) -> str:
        """Everything readable on the page: running header, body, running footer."""
        return "\n".join(part for part in (*self.header, self.text, *self.footer) if part)


@dataclass
class Document:
    fingerprint: str
    page_count: int
    metadata: Metadata
    outline: list[OutlineEntry]
    outline_problems: list[str]
    pages: list[Page]
    recovered: str | None = None
    extraction_seconds: float = 0.0
    facts: DocumentFacts = field(default_factory=DocumentFacts)
    #: Problems of the document as a whole: a walk over its objects or its work budget cut
    #: short (what was read is kept; these say what was not).
    problems: list[str] = field(default_factory=list)
    #: Data derived on demand and kept with the document (search index, OCR results).
    derived: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def page(self, number: int) -> Page:
        """Page ``number``, 1-based; anything else (0, a negative number counting from the end,
        a number past the last page) is ``invalid_pages`` naming the page count."""
        return self.pages[check_page(number, self.page_count) - 1]

    def markdown(self, pages: list[int] | None = None) -> str:
        """The Markdown of ``pages`` (1-based; all by default) joined by blank lines; a page not
        read whole is marked where its text would be (``<!-- page 7: needs_ocr (image_only)
        -->``, :mod:`.markers`), never passed over as if it were empty."""
        chosen = self.pages if pages is None else [self.page(n) for n in pages]
        return joined_pages(chosen)[0]


def build_document(
    engine: EngineDocument, progress: ProgressCallback | None = None, stop: Stop | None = None
) -> Document:
    """Every page of ``engine`` read, laid out and rendered. ``stop`` (the calls waiting for
    this build, :mod:`pdfthin.deadline`) is asked between pages and between stages, and
    bounds each page's interpreter too: once it has expired the build raises ``timeout``, so
    a document cut short by a caller's deadline is never returned (nor cached)."""
    # The collector would walk the pages' objects over and over while they pile up (see
    # pdfthin/engine/gcpause.py); it runs between documents, and between pages when due.
    # pypdf's bounds are set once for all the engine calls.
    with collection_paused(), engine.held():
        # Reading every page and laying it out is bounded as a whole: pages not started
        # within the document's time limit are not read (the engine labels them).
        engine.document_deadline = time.monotonic() + engine.limits.document_seconds
        try:
            return _build(engine, progress, stop or _NO_STOP)
        finally:
            engine.document_deadline = None


def _build(engine: EngineDocument, progress: ProgressCallback | None, stop: Stop) -> Document:
    started = time.perf_counter()
    stop.check()
    metadata = engine.metadata()
    outline, outline_problems = engine.outline()
    contents: list[PageContent] = []
    layouts: list[PageLayout] = []
    for number in range(1, engine.page_count + 1):
        stop.check()
        content = _read_page(engine, number, stop)
        contents.append(content)
        stop.check()
        layouts.append(_layout(content))
        # Ruling lines are read by layout alone: a long document's build need not hold them.
        content.rules = []
        collect_if_due()
        if progress is not None:
            progress(number, engine.page_count)
    stop.check()
    try:
        finish_document(layouts)
    except Exception as exc:  # a layout bug must not cost the pages already read
        for content in contents:
            _problem(content, f"document structure not found (layout error: {_name(exc)})")
    stop.check()
    known_words = _vocabulary(layouts)
    labels = metadata.page_labels
    pages: list[Page] = []
    for content, layout in zip(contents, layouts, strict=True):
        stop.check()
        ocr_layer = any(r.ocr_layer for r in content.runs)
        markdown, anchors, text = render_page(layout.blocks, known_words, ocr_layer)
        status, reason_code, reason = page_status(content, layout, markdown)
        pages.append(
            Page(
                number=content.number,
                status=status,
                reason=reason,
                reason_code=reason_code,
                markdown=markdown,
                text=text,
                width=round(content.width, 2),
                height=round(content.height, 2),
                rotation=content.rotation,
                label=labels[content.number - 1] if labels else None,
                header=layout.header,
                footer=layout.footer,
                hidden=[
                    {"text": h.text, "reason": h.reason, "bbox": h.bbox} for h in content.hidden
                ],
                images=content.images,
                problems=content.problems,
                ocr_layer=ocr_layer,
                anchors=anchors,
            )
        )
    stop.check()
    facts = engine.facts()
    return Document(
        fingerprint=engine.fingerprint,
        page_count=engine.page_count,
        metadata=metadata,
        outline=outline,
        outline_problems=outline_problems,
        pages=pages,
        recovered=engine.recovered,
        extraction_seconds=time.perf_counter() - started,
        facts=facts,
        problems=list(engine.problems),
    )


class _NoStop:
    """The deadline of a build nobody limits."""

    at = None

    def expired(self) -> bool:
        return False

    def check(self) -> None:
        return None


_NO_STOP = _NoStop()


def _read_page(engine: EngineDocument, number: int, stop: Stop) -> PageContent:
    """Page ``number``, its interpreter stopped by the earlier of its own time limit and
    ``stop``. A page that may have been cut short by ``stop`` rather than by its own limit is
    never kept: past ``stop`` the build ends (``timeout``); if a caller still waiting has
    extended it meanwhile, the page is read again."""
    while True:
        at = stop.at
        own = time.monotonic() + engine.limits.page_seconds
        if at is None or at >= own:
            return engine.page(number)  # the page's own limit comes first
        content = engine.page(number, deadline=at)
        if time.monotonic() < at:
            return content  # finished before the caller's deadline: not cut by it
        stop.check()


def _layout(content: PageContent) -> PageLayout:
    """The page's layout; should laying it out fail (a bug, never the input's fault), its
    runs in drawing order, one line each, and the page marked as read in part. A page with
    more runs than layout takes is laid out with the first it drew, and says so."""
    if len(content.runs) > MAX_LAYOUT_RUNS:
        content.runs = sorted(content.runs, key=lambda r: r.seq)[:MAX_LAYOUT_RUNS]
        _problem(
            content,
            f"more than {MAX_LAYOUT_RUNS} text runs to lay out; the runs drawn after them "
            "were left out",
        )
        content.incomplete = True
    try:
        return layout_page(content)
    except Exception as exc:
        _problem(content, f"layout failed ({_name(exc)}); text kept in drawing order")
        content.incomplete = True
        blocks = []
        for run in sorted(content.runs, key=lambda r: r.seq):
            text = " ".join(run.text.split())
            if text:
                line = Line(text, run.x0, run.y0, run.x1, run.y1, run.size, seq=run.seq)
                blocks.append(Block([line], run.x0, run.y0, run.x1, run.y1, run.size))
        return PageLayout(content.number, content.width, content.height, blocks)


def _problem(content: PageContent, message: str) -> None:
    if message not in content.problems:
        content.problems.append(message)


def _name(exc: BaseException) -> str:
    return type(exc).__name__


def _vocabulary(layouts: list[PageLayout]) -> set[str]:
    """Every whole word of the document, lower-cased, hyphenated forms included: the
    evidence for telling hyphenation from a real hyphen at a line end. The two halves of a
    word broken at a line end are left out (they are not words of their own)."""
    words: set[str] = set()
    for layout in layouts:
        for block in layout.blocks:
            broken = False
            for line in block.lines:
                line_words, ends_broken = _line_words(line.text)
                if broken and line_words:
                    line_words = line_words[1:]
                broken = ends_broken
                if broken and line_words:
                    line_words = line_words[:-1]
                words.update(line_words)
    return words


def _line_words(text: str) -> tuple[list[str], bool]:
    """A line's lower-cased words, and whether it ends in a hyphen (a word broken there)."""
    return [w.lower() for w in _WORD.findall(text)], text.rstrip().endswith("-")
