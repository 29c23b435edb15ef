"""The document model: every page as Markdown with a status, built page by page on demand.

``build_document`` opens the work: it reads the document's metadata, outline and profile (a
fixed, bounded sample of pages laid out and finished together: ``profile_sample``; its other
facts are read when first asked for), and returns a
:class:`Document` whose pages are read, laid out, finished against the profile and rendered
when an operation asks for them, then kept in a page cache (:class:`~.pagecache.PageCache`, a
byte budget per process). A page's Markdown is a function of the page and the profile: the
same whether it is read alone, first, last or with every other page (docs/design.md,
invariant 5). Pages are plain data, safe to cache and to share between requests.
"""

from __future__ import annotations

import re
import threading
import time
import weakref
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from pdfthin.deadline import Stop, current
from pdfthin.engine import (
    DocumentFacts,
    EngineDocument,
    ImagePlacement,
    Metadata,
    OutlineEntry,
    PageContent,
)
from pdfthin.engine.gcpause import collect_if_due, collection_paused
from pdfthin.layout import (
    MAX_LAYOUT_RUNS,
    TITLE_PAGES,
    Block,
    DocumentProfile,
    Line,
    PageLayout,
    finish_document,
    finish_page,
    layout_page,
)
from pdfthin.layout.orientation import from_frame
from pdfthin.model.figures import with_figures
from pdfthin.model.footnotes import with_footnotes
from pdfthin.model.links import with_links
from pdfthin.model.markdown import LINE_FIELDS, Anchor, render_page
from pdfthin.model.markers import joined_pages
from pdfthin.model.pagecache import PageCache, default_page_cache
from pdfthin.model.regions import Region, find_regions
from pdfthin.model.status import Confidence, page_status, status_confidence
from pdfthin.pages import check_page

_WORD = re.compile(r"[^\W_][\w-]*[^\W_]|[^\W_]", re.UNICODE)

ProgressCallback = Callable[[int, int], None]

#: The profile's sample: the first pages (title page, front matter, where ``_title_pages``
#: looks: as many as it looks at) ...
PROFILE_HEAD = TITLE_PAGES
#: ... and this many more spread evenly over the rest, the last page included. Enough pages
#: for what repeats to show (a running head on a quarter of the pages shows on about four),
#: few enough that the first answer costs a bounded number of pages whatever the length.
PROFILE_SPREAD = 10
#: A document of at most this many pages is its own sample: its pages are finished together,
#: as a whole document always was.
PROFILE_PAGES = PROFILE_HEAD + PROFILE_SPREAD


def _spread(layouts: list[PageLayout], page_count: int) -> list[PageLayout] | None:
    """The sample's evenly spread pages, where a long document's running heads and footers
    are counted (its first pages are mostly front matter, which has none); ``None`` for a
    document that is its own sample."""
    if page_count <= PROFILE_PAGES:
        return None
    return layouts[PROFILE_HEAD:]


def profile_sample(page_count: int) -> list[int]:
    """The pages (1-based, ascending) a document's profile is made from: every page of a
    short document; else the first ``PROFILE_HEAD`` and ``PROFILE_SPREAD`` spread evenly
    from the next one to the last."""
    if page_count <= PROFILE_PAGES:
        return list(range(1, page_count + 1))
    first, last = PROFILE_HEAD + 1, page_count
    steps = PROFILE_SPREAD - 1
    spread = {first + round(i * (last - first) / steps) for i in range(PROFILE_SPREAD)}
    return [*range(1, PROFILE_HEAD + 1), *sorted(spread)]


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
    #: How sure ``status`` is, for a borderline page (:func:`.status.status_confidence`);
    #: ``None`` when it is clear-cut.
    confidence: Confidence | None = None
    #: Where each image (of ``images``) stands in ``markdown``: its reference's offset
    #: (:mod:`.figures`); what places it in a section.
    image_offsets: tuple[int, ...] = ()
    #: Parts of a text page that geometry cannot read reliably (:mod:`.regions`).
    regions: tuple[Region, ...] = ()

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
    #: Every page, in order: a list, or (built documents) a :class:`Pages` sequence that
    #: builds each page when it is first asked for.
    pages: Sequence[Page]
    recovered: str | None = None
    #: Seconds spent opening the document and making its profile.
    extraction_seconds: float = 0.0
    #: Reads :attr:`facts` when they are first asked for (a built document's engine);
    #: ``None``: the document has none to read.
    facts_reader: Callable[[], DocumentFacts] | None = field(
        default=None, repr=False, compare=False
    )
    #: Problems of the document as a whole: a walk over its objects or its work budget cut
    #: short (what was read is kept; these say what was not).
    problems: list[str] = field(default_factory=list)
    #: Data derived on demand and kept with the document (search index, OCR results).
    derived: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def facts(self) -> DocumentFacts:
        """Form fields, XFA, attachments, link and annotation counts (bounded walks), read
        when first asked for; a document with no reader has none."""
        reader = self.facts_reader
        return reader() if reader is not None else DocumentFacts()

    def page(self, number: int) -> Page:
        """Page ``number``, 1-based; anything else (0, a negative number counting from the end,
        a number past the last page) is ``invalid_pages`` naming the page count."""
        return self.pages[check_page(number, self.page_count) - 1]

    def markdown(self, pages: list[int] | None = None) -> str:
        """The Markdown of ``pages`` (1-based; all by default) joined by blank lines; a page not
        read whole is marked where its text would be (``<!-- page 7: needs_ocr (image_only)
        -->``, :mod:`.markers`), never passed over as if it were empty."""
        chosen = list(self.pages) if pages is None else [self.page(n) for n in pages]
        return joined_pages(chosen)[0]

    def is_cached(self, number: int) -> bool:
        """Whether page ``number`` is at hand without reading it (always, for a document
        whose pages are a plain list)."""
        pages = self.pages
        return pages.is_cached(number) if isinstance(pages, Pages) else True

    def pages_at_hand(self) -> list[Page]:
        """The pages read so far (the profile's and those still cached), in order: what the
        document knows without reading another page."""
        pages = self.pages
        if isinstance(pages, Pages):
            return pages.at_hand()
        return list(pages)

    def size(self, number: int) -> tuple[float, float, int]:
        """Page ``number``'s width, height (points, as displayed) and rotation, as its
        :class:`Page` has them, without reading the page."""
        pages = self.pages
        if isinstance(pages, Pages):
            return pages.size(check_page(number, self.page_count))
        page = self.page(number)
        return page.width, page.height, page.rotation


def build_document(
    engine: EngineDocument,
    progress: ProgressCallback | None = None,
    stop: Stop | None = None,
    cache: PageCache | None = None,
) -> Document:
    """The document's facts and profile, and its pages to be built on demand from ``engine``
    (which the document keeps open; pages are kept in ``cache``, by default the process's).
    ``stop`` (the calls waiting for this build, :mod:`pdfthin.deadline`) is asked between
    pages and between stages, and bounds each page's interpreter too: once it has expired the
    build raises ``timeout``, so a document cut short by a caller's deadline is never
    returned (nor cached). ``progress(done, total)`` follows the profile's pages, then
    ``progress(number, page count)`` each page built after."""
    # The collector would walk the pages' objects over and over while they pile up (see
    # pdfthin/engine/gcpause.py); it runs between documents, and between pages when due.
    # pypdf's bounds are set once for all the engine calls.
    with collection_paused(), engine.held():
        # Reading the pages is bounded as a whole: pages not started within the document's
        # time limit are not read (the engine labels them).
        engine.document_deadline = time.monotonic() + engine.limits.document_seconds
        try:
            return _build(engine, progress, stop or _NO_STOP, cache or default_page_cache())
        finally:
            engine.document_deadline = None


def _build(
    engine: EngineDocument, progress: ProgressCallback | None, stop: Stop, cache: PageCache
) -> Document:
    started = time.perf_counter()
    stop.check()
    metadata = engine.metadata()
    outline, outline_problems = engine.outline()
    sample = profile_sample(engine.page_count)
    contents: list[PageContent] = []
    layouts: list[PageLayout] = []
    regions: list[tuple[Region, ...]] = []
    for done, number in enumerate(sample, 1):
        stop.check()
        content, layout, found = _read_and_lay_out(engine, number, stop)
        contents.append(content)
        layouts.append(layout)
        regions.append(found)
        collect_if_due()
        if progress is not None:
            progress(done, len(sample))
    stop.check()
    try:
        profile = finish_document(layouts, _spread(layouts, engine.page_count))
    except Exception as exc:  # a layout bug must not cost the pages already read
        profile = None
        for content in contents:
            _problem(content, f"document structure not found (layout error: {_name(exc)})")
    stop.check()
    known_words = frozenset(_vocabulary(layouts))
    labels = metadata.page_labels
    profiled: dict[int, Page] = {}
    for content, layout, found in zip(contents, layouts, regions, strict=True):
        stop.check()
        profiled[content.number] = _page(content, layout, known_words, labels, found)
    stop.check()
    builder = _Builder(engine, profile, known_words, profiled, labels, cache)
    builder.progress = progress
    builder.seconds = time.perf_counter() - started
    doc = Document(
        fingerprint=engine.fingerprint,
        page_count=engine.page_count,
        metadata=metadata,
        outline=outline,
        outline_problems=outline_problems,
        pages=Pages(builder),
        recovered=engine.recovered,
        extraction_seconds=time.perf_counter() - started,
        facts_reader=builder.facts,
        problems=list(engine.problems),
    )
    builder.problems = doc.problems
    return doc


class Pages(Sequence[Page]):
    """A document's pages, each built when first asked for (:class:`_Builder`)."""

    def __init__(self, builder: _Builder) -> None:
        self._builder = builder

    def __len__(self) -> int:
        return self._builder.engine.page_count

    @overload
    def __getitem__(self, index: int) -> Page: ...

    @overload
    def __getitem__(self, index: slice) -> list[Page]: ...

    def __getitem__(self, index: int | slice) -> Page | list[Page]:
        count = len(self)
        if isinstance(index, slice):
            return [self._builder.page(i + 1) for i in range(*index.indices(count))]
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError("page index out of range")
        return self._builder.page(index + 1)

    def __iter__(self) -> Iterator[Page]:
        for number in range(1, len(self) + 1):
            yield self._builder.page(number)

    def is_cached(self, number: int) -> bool:
        return self._builder.cached(number) is not None

    def at_hand(self) -> list[Page]:
        """The pages built and still kept, in order; none is built."""
        found = (self._builder.cached(n) for n in range(1, len(self) + 1))
        return [page for page in found if page is not None]

    def size(self, number: int) -> tuple[float, float, int]:
        return self._builder.size(number)

    def __repr__(self) -> str:
        """Every page's, as a list's (so building every page)."""
        return repr(list(self))

    def __eq__(self, other: object) -> bool:
        """The same pages as ``other`` (any sequence of pages), in order."""
        if not isinstance(other, Sequence):
            return NotImplemented
        return len(self) == len(other) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value, as a list

    @property
    def built(self) -> int:
        """Pages laid out so far, the profile's included (each build counts)."""
        return self._builder.built


class _Builder:
    """Builds a document's pages from its open engine, one at a time (pypdf is not
    thread-safe): read, laid out, finished against the profile, rendered, then cached.

    The profile's own pages were finished together with it and are kept with it. The
    document's time and work budgets (invariant 13) cover every page built for it, whenever
    and by whichever call: its time budget is the time spent building its pages (the
    profile's included), its work budget the engine's (a page built again counts once). Past
    either, pages are not read and say so; such a page is cached like any other (the budgets are
    spent for the document's life: a document of thousands of pages past its budget would
    otherwise lay every one out again on every call). Per call instead, every call on a
    hostile document could spend the budget again."""

    def __init__(
        self,
        engine: EngineDocument,
        profile: DocumentProfile | None,
        known_words: frozenset[str],
        profiled: dict[int, Page],
        labels: list[str] | None,
        cache: PageCache,
    ) -> None:
        self.engine = engine
        self.profile = profile
        self.known_words = known_words
        self.profiled = profiled
        self.labels = labels
        self.cache = cache
        self.problems: list[str] = []
        #: Told ``(page number, page count)`` after each page built (a terminal's progress
        #: while a whole-document operation reads its way through).
        self.progress: ProgressCallback | None = None
        #: Pages laid out, the profile's included.
        self.built = len(profiled)
        self._token = object()  # this document's pages in the shared cache
        self._facts: DocumentFacts | None = None
        self._lock = threading.Lock()
        #: Seconds spent building the document's pages, the profile's included.
        self.seconds = 0.0
        # The engine is closed once nothing can build a page any more (the document dropped,
        # no build running): pypdf's objects, which all point back at their reader, are then
        # freed at once rather than left to the cyclic collector.
        weakref.finalize(self, engine.close)

    def cached(self, number: int) -> Page | None:
        page = self.profiled.get(number)
        return page if page is not None else self.cache.get((self._token, number))

    def page(self, number: int) -> Page:
        found = self.cached(number)
        if found is not None:
            return found
        with self._lock:
            found = self.cached(number)
            if found is not None:
                return found
            return self._build(number, current())

    def facts(self) -> DocumentFacts:
        """The document's facts, read once, when first asked for: counting its annotations
        reads every page object, which a call about a few pages does not need."""
        with self._lock:
            if self._facts is None:
                self._facts = self.engine.facts()
                self._note_problems()
            return self._facts

    def _note_problems(self) -> None:
        """The engine's problems of the document as a whole, each once, in the document's."""
        for problem in self.engine.problems:
            if problem not in self.problems:
                self.problems.append(problem)

    def size(self, number: int) -> tuple[float, float, int]:
        """Page ``number``'s size and rotation: its page's when built, else from the page
        tree (rounded as a built page's are)."""
        found = self.cached(number)
        if found is not None:
            return found.width, found.height, found.rotation
        with self._lock, self.engine.held():
            width, height, rotation = self.engine.page_size(number)
        return round(width, 2), round(height, 2), rotation

    def _build(self, number: int, deadline: Stop) -> Page:
        engine = self.engine
        started = time.monotonic()
        # What is left of the document's time budget bounds this page (the engine's check).
        engine.document_deadline = started + engine.limits.document_seconds - self.seconds
        try:
            with collection_paused(), engine.held():
                page, _ = self._built(number, deadline)
        finally:
            engine.document_deadline = None
            self.seconds += time.monotonic() - started
        self._note_problems()
        self.cache.put((self._token, number), page)
        if self.progress is not None:
            self.progress(number, engine.page_count)
        return page

    def _built(self, number: int, deadline: Stop) -> tuple[Page, PageContent]:
        """Page ``number`` read, laid out, finished and rendered, and what the engine read."""
        deadline.check()
        # A page laid out is finished and kept even if the deadline passes meanwhile.
        content, layout, found = _read_and_lay_out(self.engine, number, deadline)
        self.built += 1
        if self.profile is not None:
            try:
                finish_page(layout, self.profile)
            except Exception as exc:  # a layout bug must not cost the page
                _problem(content, f"document structure not found (layout error: {_name(exc)})")
        known = self.known_words | _vocabulary([layout])
        return _page(content, layout, known, self.labels, found), content


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


def _read_and_lay_out(
    engine: EngineDocument, number: int, stop: Stop
) -> tuple[PageContent, PageLayout, tuple[Region, ...]]:
    """The page read and laid out, and its regions needing review (:mod:`.regions`)."""
    content = _read_page(engine, number, stop)
    stop.check()
    layout = _layout(content)
    found = _regions(content, layout)
    # Ruling lines and drawings are read by layout and regions alone: a long document's
    # build need not hold them.
    content.rules = []
    content.drawings = []
    return content, layout, found


def _regions(content: PageContent, layout: PageLayout) -> tuple[Region, ...]:
    """The page's regions needing review; none should finding them fail (a bug, never the
    input's fault: the page is read without them, and says so)."""
    try:
        return find_regions(content, layout)
    except Exception as exc:
        _problem(content, f"regions needing review not found (error: {_name(exc)})")
        return ()


def _page(
    content: PageContent,
    layout: PageLayout,
    known_words: frozenset[str],
    labels: list[str] | None,
    regions: tuple[Region, ...] = (),
) -> Page:
    """The finished page rendered: Markdown, plain text, status; its regions needing review
    when its status is ``text`` (a page that needs OCR needs it whole)."""
    ocr_layer = any(r.ocr_layer for r in content.runs)
    markdown, anchors, text = render_page(layout.blocks, known_words, ocr_layer)
    if layout.turn:  # laid out upright in the frame of its turned text: boxes as displayed
        anchors = [_displayed(a, layout.turn, content.width, content.height) for a in anchors]
    status, reason_code, reason = page_status(content, layout, markdown)
    confidence = status_confidence(content, markdown, status, reason_code)
    # The status is the text's: references to images come after it is judged.
    markdown, anchors, image_offsets = with_figures(
        markdown, anchors, content.number, content.images, bool(layout.turn)
    )
    if content.links:
        markdown, anchors, image_offsets = with_links(
            markdown, anchors, image_offsets, content.links, content.runs
        )
    markdown, anchors, image_offsets, _ = with_footnotes(
        markdown, anchors, image_offsets, layout, content.runs
    )
    return Page(
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
        hidden=[{"text": h.text, "reason": h.reason, "bbox": h.bbox} for h in content.hidden],
        images=content.images,
        problems=content.problems,
        ocr_layer=ocr_layer,
        anchors=anchors,
        confidence=confidence,
        image_offsets=image_offsets,
        regions=regions if status == "text" else (),
    )


def _displayed(anchor: Anchor, turn: int, width: float, height: float) -> Anchor:
    """``anchor`` with its block and line boxes mapped from the frame of ``turn`` quarter
    turns onto the page as displayed (``width`` x ``height``); its ``y`` stays the frame's
    (reading order)."""

    def mapped(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = (round(v, 1) for v in from_frame(box, turn, width, height))
        return x0, y0, x1, y1

    lines = array("d", anchor.lines)
    for i in range(0, len(lines), LINE_FIELDS):
        box = mapped((lines[i + 1], lines[i + 2], lines[i + 3], lines[i + 4]))
        lines[i + 1 : i + LINE_FIELDS] = array("d", box)
    return anchor.placed(mapped(anchor.box), lines if anchor.lines else anchor.lines)


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
