"""A document as ordered chunks for retrieval, each tied to where it stands on its pages.

A chunk is a run of a page's rendered blocks (:class:`~.markdown.Anchor`) that belong together:
the headings that open a section stay with what follows them; paragraphs and list items of one
section are gathered up to a size target; a table or a code block is a chunk of its own, a
table too long for the target is cut between rows (its header repeated) and a paragraph too
long at sentence ends. A picture's reference stays in the flow of the text, unless a caption
stands beside it: then the two are a chunk of their own (kind ``figure``); a table's caption
above it goes with the table. With ``stitch`` (the default) a chunk goes on across a page break (a
paragraph or a table that continues on the next page lands in one chunk, with a span on each
page); without it every chunk stays on one page. A page that could not be read is a chunk of
its own (kind ``unreadable``) carrying the page marker, never a gap (invariant 3).

Boxes are in points, origin at the top left of the page as displayed (after its /Rotate and
crop box), y down: the union of the chunk's blocks on each page. A chunk's id is its first page
and its place among the chunks that start there (``p12-3``): the same for the same file and
arguments, on every run, surface and engine path.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING

from pdfthin.layout.headings import CAPTION_LABEL
from pdfthin.model.figures import REFERENCE
from pdfthin.model.markdown import Anchor, escape_paragraph
from pdfthin.model.markers import page_marker

if TYPE_CHECKING:
    from pdfthin.model.document import Page

#: The token estimate: characters / 4 (English-like text; an estimate, labelled as such).
CHARS_PER_TOKEN = 4
#: A chunk's size target, in estimated tokens.
DEFAULT_MAX_TOKENS = 500

Box = tuple[float, float, float, float]

_SENTENCE_END = re.compile(r"(?<=[.!?…:;])\s+")
#: A paragraph that opens with a caption's label and number set off by punctuation or the end
#: of its line ("Figure 3: ...", "Fig. 2. ...", "Table IV" on a line of its own), not prose
#: about a figure ("Figure 3 shows ...").
_CAPTION_START = re.compile(
    r"^\W{0,3}" + CAPTION_LABEL + r"(?:[.\-–]\d+)*\s*(?:[.:|—–]|-(?!\d)|$)",
    re.IGNORECASE | re.MULTILINE,
)


def estimate_tokens(text: str) -> int:
    return round(len(text) / CHARS_PER_TOKEN)


@dataclass(frozen=True, slots=True)
class Span:
    """Where a chunk stands on one of its pages."""

    page: int
    box: Box
    #: Where the chunk's Markdown on this page starts (its pieces on a page are one run): a
    #: part of a split chunk names the spans whose Markdown it shows.
    start: int = 0


@dataclass(frozen=True, slots=True)
class Chunk:
    id: str
    #: ``heading``, ``paragraph``, ``list``, ``table``, ``code`` or ``unreadable``.
    kind: str
    #: The titles of the headings the chunk stands under, outermost first.
    breadcrumb: tuple[str, ...]
    markdown: str
    #: The same text without Markdown syntax (what search runs over).
    text: str
    #: One span per page the chunk covers, in order; the first is the chunk's page.
    spans: tuple[Span, ...]
    #: The status and reason code of the chunk's first page.
    status: str
    reason_code: str
    #: ``text_layer``, or ``ocr`` for text from a scanner's invisible OCR layer.
    provenance: str
    #: Where its text starts: the page and the offset in that page's plain text (``None``
    #: when it has none); the chunk holds the text from there up to the next chunk's start.
    origin: tuple[int, int] | None = None

    @property
    def page(self) -> int:
        return self.spans[0].page

    @property
    def box(self) -> Box:
        return self.spans[0].box

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.markdown)


@dataclass(slots=True)
class _Piece:
    """One rendered block (or a part of one) waiting to be put in a chunk."""

    page: Page
    kind: str
    box: Box
    markdown: str
    text: str
    level: int = 0
    #: Where ``text`` starts in the page's plain text (-1: it has none).
    plain: int = -1


@dataclass(slots=True)
class _Chunker:
    max_tokens: int
    stitch: bool
    #: Open headings: ``(level, title)``, outermost first.
    trail: list[tuple[int, str]] = field(default_factory=list)
    pending: list[_Piece] = field(default_factory=list)
    #: The Markdown of ``pending`` in characters, each piece counted with its separator (kept
    #: as pieces come, so sizing the chunk being gathered does not go over it again).
    pending_chars: int = 0
    #: The breadcrumb of the chunk being gathered, fixed by its first piece of content.
    crumb: tuple[str, ...] | None = None
    #: Chunks started on each page so far (for ids).
    counts: dict[int, int] = field(default_factory=dict)

    def page(self, page: Page) -> Iterator[Chunk]:
        if not self.stitch:
            yield from self.flush()
        if page.status == "needs_ocr":
            yield from self.flush()
            yield self._unreadable(page)
            return
        for piece in _pieces(page):
            yield from self.piece(piece)

    def piece(self, piece: _Piece) -> Iterator[Chunk]:
        # The chunk being gathered ends with a figure: this piece may be its caption.
        if (
            self.pending
            and self.pending[-1].kind == "figure"
            and piece.kind == "caption"
            and _piece_tokens(piece) <= self.max_tokens
        ):
            figure = self.pending.pop()
            self.pending_chars -= len(figure.markdown) + 2
            yield from self._figure(figure, piece)
            return
        if piece.kind == "figure":
            caption = self._take_caption()
            if caption is not None:
                yield from self._figure(caption, piece)
                return
            # Without a caption a figure stays in the flow of the text, as in the page's
            # Markdown; the next piece may still be its caption.
            if self._has_content() and self._chars() + 2 + len(piece.markdown) > self._limit():
                yield from self.flush()
            self._add(piece)
            return
        if piece.kind == "heading":
            if self._has_content():
                yield from self.flush()
            while self.trail and self.trail[-1][0] >= piece.level:
                self.trail.pop()
            self.trail.append((piece.level, _title(piece.markdown)))
            self._push(piece)
            return
        if piece.kind in ("table", "code"):
            caption = self._take_caption() if piece.kind == "table" else None
            if self._has_content():
                yield from self.flush()
            for part in _table_parts(piece, self.max_tokens):
                if caption is not None:  # a table's caption above it goes with its first part
                    self._add(caption)
                    caption = None
                self._add(part)
                yield from self.flush()
            return
        parts = _sentence_parts(piece, self.max_tokens)
        for part in parts:
            grown = self._chars() + 2 + len(part.markdown)
            if self._has_content() and grown > self._limit():
                yield from self.flush()
            self._add(part)

    def _figure(self, *pieces: _Piece) -> Iterator[Chunk]:
        """A figure and its caption (in reading order): a chunk of their own."""
        if self._has_content():
            yield from self.flush()
        for piece in pieces:
            self._add(piece)
        yield from self.flush()

    def _take_caption(self) -> _Piece | None:
        """The last piece gathered when it is a caption (it goes with the figure or table
        that follows it), taken out of the chunk being gathered."""
        if not self.pending or self.pending[-1].kind != "caption":
            return None
        caption = self.pending.pop()
        self.pending_chars -= len(caption.markdown) + 2
        return caption

    def _add(self, piece: _Piece) -> None:
        if self.crumb is None:
            self.crumb = tuple(title for _, title in self.trail)
        self._push(piece)

    def _push(self, piece: _Piece) -> None:
        self.pending.append(piece)
        self.pending_chars += len(piece.markdown) + 2

    def _has_content(self) -> bool:
        return any(p.kind != "heading" for p in self.pending)

    def _chars(self) -> int:
        """The Markdown of the chunk being gathered, in characters, separators included."""
        return self.pending_chars - 2 if self.pending else 0

    def _limit(self) -> int:
        return self.max_tokens * CHARS_PER_TOKEN

    def flush(self) -> Iterator[Chunk]:
        pieces, self.pending, self.pending_chars = self.pending, [], 0
        crumb = self.crumb if self.crumb is not None else tuple(t for _, t in self.trail)
        self.crumb = None
        if not pieces:
            return
        first = pieces[0].page
        count = self.counts.get(first.number, 0) + 1
        self.counts[first.number] = count
        markdown = [pieces[0].markdown]
        starts = [0]  # where each piece starts in the chunk's Markdown
        length = len(pieces[0].markdown)
        for before, piece in pairwise(pieces):
            tight = before.kind == piece.kind == "list_item"
            joint = "\n" if tight else "\n\n"
            markdown.append(joint + piece.markdown)
            starts.append(length + len(joint))
            length += len(joint) + len(piece.markdown)
        yield Chunk(
            id=f"p{first.number}-{count}",
            kind=_kind(pieces),
            breadcrumb=crumb,
            markdown="".join(markdown),
            text="\n".join(p.text for p in pieces if p.text),
            spans=_spans(pieces, starts),
            status=first.status,
            reason_code=first.reason_code,
            provenance="ocr" if first.ocr_layer else "text_layer",
            origin=next(((p.page.number, p.plain) for p in pieces if p.plain >= 0), None),
        )

    def _unreadable(self, page: Page) -> Chunk:
        count = self.counts.get(page.number, 0) + 1
        self.counts[page.number] = count
        return Chunk(
            id=f"p{page.number}-{count}",
            kind="unreadable",
            breadcrumb=tuple(title for _, title in self.trail),
            markdown=page_marker(page),
            text="",
            spans=(Span(page.number, (0.0, 0.0, page.width, page.height)),),
            status=page.status,
            reason_code=page.reason_code,
            provenance="text_layer",
        )


def chunk_pages(
    pages: Iterable[Page], max_tokens: int = DEFAULT_MAX_TOKENS, stitch: bool = True
) -> Iterator[Chunk]:
    """The chunks of ``pages`` (in order), each built when the one before it is taken: a
    caller that stops early reads only the pages its chunks came from."""
    chunker = _Chunker(max_tokens, stitch)
    for page in pages:
        yield from chunker.page(page)
    yield from chunker.flush()


def _pieces(page: Page) -> list[_Piece]:
    """The page's blocks, and its figures (the references :mod:`.figures` placed between
    them, each with its image's box on the page), in reading order."""
    placed = [(a.offset, _piece(page, a)) for a in page.anchors]
    blocks = [(a.offset, a.offset + a.length) for a in page.anchors]
    for placement, offset in zip(page.images, page.image_offsets, strict=False):
        found = REFERENCE.match(page.markdown, offset)
        box = _clipped(placement.bbox, page.width, page.height)
        if found is None or box is None or any(a <= offset < b for a, b in blocks):
            continue  # a tiny image (no reference), one off the page, or one inside a block
        placed.append((offset, _Piece(page, "figure", box, found.group(0), "")))
    placed.sort(key=lambda item: item[0])  # stable: a block before a figure at its offset
    return [piece for _, piece in placed]


def _piece(page: Page, anchor: Anchor) -> _Piece:
    markdown = page.markdown[anchor.offset : anchor.offset + anchor.length]
    text = page.text[anchor.plain : anchor.plain + anchor.plain_length] if anchor.plain >= 0 else ""
    kind = anchor.kind
    if kind == "paragraph" and _CAPTION_START.match(text or markdown):
        kind = "caption"
    return _Piece(page, kind, anchor.box, markdown, text, anchor.level, anchor.plain)


def _clipped(box: Box, width: float, height: float) -> Box | None:
    """``box`` cut to the page (``None`` when nothing of it is on the page)."""
    x0, y0, x1, y1 = max(box[0], 0.0), max(box[1], 0.0), min(box[2], width), min(box[3], height)
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def _piece_tokens(piece: _Piece) -> int:
    return estimate_tokens(piece.markdown)


def _title(markdown: str) -> str:
    return markdown.lstrip("#").strip()


def _kind(pieces: list[_Piece]) -> str:
    kinds = {p.kind for p in pieces}
    for kind in ("table", "code", "paragraph"):
        if kind in kinds:
            return kind
    if "list_item" in kinds:
        return "list"
    for kind in ("figure", "caption"):  # a figure (with its caption); a caption alone
        if kind in kinds:
            return kind
    return "heading"


def _spans(pieces: list[_Piece], starts: list[int]) -> tuple[Span, ...]:
    """The union of the pieces' boxes on each page, in page order, each with where the first
    of its pieces starts (``starts``: each piece's offset in the chunk's Markdown)."""
    boxes: dict[int, Box] = {}
    first: dict[int, int] = {}
    for piece, start in zip(pieces, starts, strict=True):
        number = piece.page.number
        box = boxes.get(number)
        boxes[number] = piece.box if box is None else _union(box, piece.box)
        first.setdefault(number, start)
    return tuple(Span(number, box, first[number]) for number, box in boxes.items())


def spans_shown(chunk: Chunk, start: int, end: int) -> tuple[Span, ...]:
    """The spans of ``chunk`` whose Markdown meets ``start``-``end`` (a part's; at least one)."""
    ends = [s.start for s in chunk.spans[1:]] + [len(chunk.markdown)]
    shown = tuple(
        s for s, stop in zip(chunk.spans, ends, strict=True) if s.start < end and start < stop
    )
    return shown or chunk.spans[:1]


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def text_cuts(markdown: str, text: str) -> Callable[[int], int]:
    """Where to cut ``text`` (a chunk's plain text) to match a cut of its ``markdown`` at an
    offset: ``cut(offset)`` is the end of the plain text that ``markdown[:offset]`` shows, so
    the pieces of the plain text between the cuts of the Markdown join to the whole (``0``
    gives 0, the Markdown's length the text's), and a later cut never comes before an earlier.

    The plain text's letters and digits are the Markdown's, in order, less its syntax (list
    marks, table pipes, escapes, link targets): each is placed at the first of the Markdown's
    after the one before it. A cut ends after the last letter or digit the Markdown before it
    shows, with the punctuation that follows it and the spaces after that (a Markdown cut
    falls between words), so the next piece starts where the next piece of Markdown does."""
    ends: list[int] = []  # where each placed letter stands in the Markdown
    places: list[int] = []  # the plain text's offset just after it
    at = 0
    for i, ch in enumerate(text):
        if not ch.isalnum():
            continue
        found = markdown.find(ch, at)
        if found < 0:  # not the Markdown's (never so far): the rest goes with the last piece
            break
        ends.append(found)
        places.append(i + 1)
        at = found + 1

    def cut(offset: int) -> int:
        if offset <= 0:
            return 0
        if offset >= len(markdown):
            return len(text)
        shown = bisect_left(ends, offset)
        if not shown:
            return 0
        end = places[shown - 1]
        while end < len(text) and not text[end].isspace() and not text[end].isalnum():
            end += 1
        while end < len(text) and text[end].isspace():
            end += 1
        return end

    return cut


def _table_parts(piece: _Piece, max_tokens: int) -> list[_Piece]:
    """A table cut between rows into parts within ``max_tokens`` (each with the header row
    again), or whole when it fits or its rows cannot be matched to its plain text."""
    if piece.kind != "table" or _piece_tokens(piece) <= max_tokens:
        return [piece]
    rows = piece.markdown.split("\n")
    plain = piece.text.split("\n")
    if len(rows) < 3 or len(plain) != len(rows) - 1:
        return [piece]
    header, rule, body = rows[0], rows[1], rows[2:]
    parts: list[_Piece] = []
    start = 0
    budget = max_tokens * CHARS_PER_TOKEN - len(header) - len(rule) - 2
    while start < len(body):
        end, used = start, 0
        while end < len(body) and (end == start or used + len(body[end]) + 1 <= budget):
            used += len(body[end]) + 1
            end += 1
        markdown = "\n".join([header, rule, *body[start:end]])
        text = "\n".join([plain[0], *plain[1 + start : 1 + end]])
        # A part's text starts where its first row does (the first part: at the header).
        at = piece.plain + (sum(len(row) + 1 for row in plain[: 1 + start]) if start else 0)
        parts.append(_Piece(piece.page, piece.kind, piece.box, markdown, text, plain=at))
        start = end
    return parts


def _sentence_parts(piece: _Piece, max_tokens: int) -> list[_Piece]:
    """A paragraph cut at sentence ends into parts within ``max_tokens`` (at a space when a
    sentence alone is longer), or whole when it fits. The parts are paragraphs of the block's
    plain text (a long list item's keeps its own marker as text) and share the block's box."""
    if _piece_tokens(piece) <= max_tokens or not piece.text:
        return [piece]
    limit = max_tokens * CHARS_PER_TOKEN
    pieces: list[str] = []
    for sentence in _SENTENCE_END.split(piece.text):
        while len(sentence) > limit:
            cut = sentence.rfind(" ", 0, limit)
            cut = cut if cut > 0 else limit
            pieces.append(sentence[:cut])
            sentence = sentence[cut:].lstrip()
        if pieces and len(pieces[-1]) + 1 + len(sentence) <= limit:
            pieces[-1] += " " + sentence
        elif sentence:
            pieces.append(sentence)
    starts = _part_starts(piece.text, pieces)
    page, box, origin = piece.page, piece.box, piece.plain
    return [
        _Piece(page, "paragraph", box, escape_paragraph(text), text, plain=origin + at)
        for text, at in zip(pieces, starts, strict=True)
    ]


def _part_starts(text: str, parts: list[str]) -> list[int]:
    """Where each part starts in ``text``: the parts are its words in order, only the
    whitespace between them changed, so a part starts after as many non-space characters
    as the parts before it hold."""
    starts: list[int] = []
    at = 0
    for part in parts:
        while at < len(text) and text[at].isspace():
            at += 1
        starts.append(at)
        remaining = sum(1 for ch in part if not ch.isspace())
        while at < len(text) and remaining:
            if not text[at].isspace():
                remaining -= 1
            at += 1
    return starts
