"""``get_chunks``: the document (or some pages) as ordered chunks with their boxes, for
retrieval and citations (:mod:`pdfthin.model.chunks`), paginated inside the budget.

Chunks are made as they are taken: a response reads the pages its chunks come from, not the
whole selection. What a document's chunking produced is kept with the document (per selection
and arguments), so a cursor resumes without making them again; in a fresh process it makes
them again up to where it resumes (the same chunks: they depend only on the pages).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from pdfthin.errors import PdfthinError
from pdfthin.model.chunks import Chunk, Span, chunk_pages, spans_shown, text_cuts
from pdfthin.ocr.store import AGENT, AgentTranscriptions
from pdfthin.operations import cursor as cur
from pdfthin.operations.anchor_names import chunk_anchor
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.paging import Pager, fill, fit_text
from pdfthin.operations.params import MAX_TOKENS, STITCH, budget
from pdfthin.operations.response import bbox, document_summary, review_regions, size
from pdfthin.operations.unreadable import report
from pdfthin.pages import format_pages, parse_pages

if TYPE_CHECKING:
    from pdfthin.model import Document
    from pdfthin.model.regions import Region
    from pdfthin.operations.types import ChunkEntry, ChunksResponse

#: Room for the `unreadable` report of the pages the chunks cover (the longest cursor is
#: measured).
_RESERVE = 300
#: A chunk index as large as any (room is kept for the longest cursor before the count of
#: chunks is known).
_LONGEST_INDEX = 10**9 - 1


class ChunkStream:
    """A selection's chunks, made on demand and kept: ``upto(n)`` makes the first ``n``."""

    def __init__(
        self,
        doc: Document,
        pages: list[int],
        max_tokens: int,
        stitch: bool,
        transcriptions: AgentTranscriptions | None = None,
    ) -> None:
        made = chunk_pages((doc.page(n) for n in pages), max_tokens, stitch)
        self._source: Iterator[Chunk] | None = (
            made if transcriptions is None else _transcribed(made, doc, transcriptions)
        )
        self.made: list[Chunk] = []
        self._lock = threading.Lock()

    @property
    def complete(self) -> bool:
        return self._source is None

    def upto(self, count: int) -> list[Chunk]:
        """The first ``count`` chunks (fewer when the selection has fewer)."""
        with self._lock:
            while len(self.made) < count and self._source is not None:
                chunk = next(self._source, None)
                if chunk is None:
                    self._source = None
                else:
                    self.made.append(chunk)
            return self.made[:count]

    def get(self, index: int) -> Chunk | None:
        made = self.upto(index + 1)
        return made[index] if index < len(made) else None


def chunk_stream(
    doc: Document,
    pages: list[int],
    max_tokens: int,
    stitch: bool,
    transcriptions: AgentTranscriptions | None = None,
) -> ChunkStream:
    """The document's stream of chunks for these arguments, kept with it; with
    ``transcriptions``, a page the agent transcribed whole is a chunk of its transcription
    (status ``ocr``, provenance ``agent``) instead of an ``unreadable`` one."""
    key = f"chunks:{format_pages(pages)}:{max_tokens}:{stitch}"
    if transcriptions is not None:
        key += f":agent{id(transcriptions)}.{transcriptions.generation(doc.fingerprint)}"
    with _STREAMS_LOCK:
        found = doc.derived.get(key)
        if not isinstance(found, ChunkStream):
            found = ChunkStream(doc, pages, max_tokens, stitch, transcriptions)
            doc.derived[key] = found
    return found


def _transcribed(
    chunks: Iterator[Chunk], doc: Document, transcriptions: AgentTranscriptions
) -> Iterator[Chunk]:
    for chunk in chunks:
        if chunk.kind == "unreadable" and chunk.status == "needs_ocr":
            text = transcriptions.whole_text(doc.fingerprint, chunk.page)
            if text is not None:
                chunk = replace(
                    chunk,
                    kind="paragraph",
                    markdown=text,
                    text=text,
                    status="ocr",
                    reason_code="ocr",
                    provenance=AGENT,
                )
        yield chunk


_STREAMS_LOCK = threading.Lock()


def get_chunks(
    document: Source,
    *,
    pages: str | int | None = None,
    max_tokens: int | None = None,
    stitch: bool | None = None,
    max_chars: int | None = None,
    cursor: str | cur.Cursor | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> ChunksResponse:
    context = context or default_context()
    limit = budget(max_chars, context)
    tokens: int = MAX_TOKENS.value(max_tokens)
    stitched: bool = STITCH.value(stitch)
    doc = context.document(document, password)
    selection = parse_pages(pages, doc.page_count)
    args = cur.args_digest(
        op="chunks", pages=format_pages(selection), max_tokens=tokens, stitch=stitched
    )
    pager = Pager("chunks", doc, args, cursor, context.cursor_key)
    stream = chunk_stream(doc, selection, tokens, stitched, context.transcriptions)
    start, offset = 0, 0
    if pager.start is not None:
        made = stream.upto(pager.start.index + 1)
        start = pager.resume_at(len(made))
        offset = pager.start.offset
        if offset and (
            pager.start.page_hash != cur.text_hash(made[start].markdown)
            or offset > len(made[start].markdown)
        ):
            raise PdfthinError(
                "stale_cursor",
                "the chunk the cursor resumes inside changed since it was issued; "
                "ask again without the cursor",
            )
    response: ChunksResponse = {
        "document": document_summary(doc),
        "chunks": [],
        "next_cursor": None,
    }
    cursor_chars = pager.longest(_LONGEST_INDEX, offset=True, page_hash=True)
    room = limit - size({**response, "complete": True}) - cursor_chars - _RESERVE

    def items() -> Iterator[int]:
        index = start
        while stream.get(index) is not None:
            yield index
            index += 1

    def entry(index: int) -> ChunkEntry:
        chunk = stream.get(index)
        assert chunk is not None
        return _entry(chunk, offset if index == start else 0, anchor=anchor(index), doc=doc)

    def anchor(index: int) -> str | None:
        chunk = stream.get(index)
        assert chunk is not None
        return chunk_anchor(doc, chunk, stream.get(index + 1))

    def split(index: int, _room: int) -> tuple[ChunkEntry, int | None]:
        # A part is the response's only entry (fill splits only its first): it is measured
        # in the whole answer it would be, with the longest cursor and the unreadable report
        # of its chunk's pages, not against the room kept for entries in general.
        chunk = stream.get(index)
        assert chunk is not None
        first = offset if index == start else 0
        named = anchor(index)
        cuts = text_cuts(chunk.markdown, chunk.text)
        unread = (
            None if chunk.provenance == AGENT else report(doc, [s.page for s in chunk.spans], limit)
        )
        frame = {**response, "next_cursor": "-" * cursor_chars, "complete": False}
        if unread:
            frame["unreadable"] = unread

        def part(end: int, lean: int) -> ChunkEntry:
            # ``lean`` 1: without its regions needing review, 2: without its anchor too, 3:
            # without its breadcrumb too.
            made = _entry(
                chunk,
                first,
                end,
                anchor=named if lean < 2 else None,
                doc=doc if lean < 1 else None,
                cuts=cuts,
            )
            if lean >= 3:
                made["breadcrumb"] = []
            return made

        def fits(entry: ChunkEntry) -> bool:
            return size({**frame, "chunks": [entry]}) <= limit

        # A part that would not fit with its regions needing review leaves them out, then its
        # anchor, then its breadcrumb (the smallest budgets, a chunk with a long breadcrumb or
        # a plain text longer than its Markdown; read_pages leaves out its hints alike): all
        # are the whole chunk's, in its other parts or at a larger budget.
        lean = next((n for n in (0, 1, 2) if fits(part(first + 1, n))), 3)
        end = fit_text(chunk.markdown, first, lambda end: fits(part(end, lean)))
        return part(end, lean), end if end < len(chunk.markdown) else None

    stop = fill(response["chunks"], items(), entry, room, split=split)
    if stop is not None:
        resumed = stream.get(stop.item)
        assert resumed is not None
        response["next_cursor"] = pager.cursor(
            stop.item, stop.offset, cur.text_hash(resumed.markdown) if stop.offset else None
        )
    response["complete"] = stop is None
    _report(response, doc, limit)
    # The room kept for the report is an estimate: a report longer than it (many reasons for
    # scattered pages) gives back whole chunks from the end, the cursor resuming at the first.
    while size(response) > limit and len(response["chunks"]) > 1:
        response["chunks"].pop()
        response["next_cursor"] = pager.cursor(start + len(response["chunks"]))
        response["complete"] = False
        _report(response, doc, limit)
    return response


def _report(response: ChunksResponse, doc: Document, limit: int) -> None:
    """The report of the pages the response's chunks cover that could not be read."""
    covered = sorted({s["page"] for e in response["chunks"] for s in e["page_spans"]})
    # A page the agent transcribed whole is read (its chunk says so, provenance agent).
    transcribed = {e["page"] for e in response["chunks"] if e["provenance"] == AGENT}
    unreadable = report(doc, [n for n in covered if n not in transcribed], limit)
    response.pop("unreadable", None)
    if unreadable:
        response["unreadable"] = unreadable


def _entry(
    chunk: Chunk,
    start: int = 0,
    end: int | None = None,
    *,
    anchor: str | None = None,
    doc: Document | None = None,
    cuts: Callable[[int], int] | None = None,
) -> ChunkEntry:
    """A chunk as the answer gives it; a part of its Markdown (``start``-``end``) when it does
    not fit whole, with the piece of its plain text that part shows (``cuts``: the chunk's
    :func:`~pdfthin.model.chunks.text_cuts`, made here when not given), so the parts' texts
    join to the chunk's, and the page spans whose Markdown it shows. Its ``anchor`` (the whole
    chunk's, :func:`.anchor_names.chunk_anchor`) when it has one; the regions needing review of
    ``doc``'s pages that its spans' boxes meet."""
    whole = start == 0 and (end is None or end >= len(chunk.markdown))
    stop = len(chunk.markdown) if end is None else end
    spans = chunk.spans if whole else spans_shown(chunk, start, stop)
    if whole:
        text = chunk.text
    else:
        cut = cuts or text_cuts(chunk.markdown, chunk.text)
        text = chunk.text[cut(start) : cut(stop)]
    item: ChunkEntry = {
        "chunk_id": chunk.id,
        "page": chunk.page,
        "bbox": bbox(chunk.box),
        "kind": chunk.kind,
        "breadcrumb": list(chunk.breadcrumb),
        "markdown": chunk.markdown if whole else chunk.markdown[start:stop],
        "text": text,
        "token_estimate": chunk.tokens,
        "status": chunk.status,
        "provenance": chunk.provenance,
        "page_spans": [{"page": s.page, "bbox": bbox(s.box)} for s in spans],
    }
    if anchor is not None:
        item["anchor"] = anchor
    if not whole:
        item["part"] = {"start": start, "end": stop, "total": len(chunk.markdown)}
    if chunk.reason_code != "text_layer":
        item["reason_code"] = chunk.reason_code
    met = _regions_met(spans, doc) if doc is not None else []
    if met:
        item["regions_needing_review"] = review_regions(met)
    return item


def _regions_met(spans: tuple[Span, ...], doc: Document) -> list[Region]:
    """The regions needing review of the spans' pages that the span's box on each meets."""
    out: list[Region] = []
    for span in spans:
        x0, y0, x1, y1 = span.box
        out.extend(
            r
            for r in doc.page(span.page).regions
            if r.box[0] <= x1 and x0 <= r.box[2] and r.box[1] <= y1 and y0 <= r.box[3]
        )
    return out
