"""``diff_documents``: what changed between two versions of a document, passage by passage
(the rules: :mod:`pdfthin.model.diff`), each change anchored in both versions.

A passage is a rendered block of a page (a heading, a paragraph, a list item, a table, a code
block) or a page that could not be read. Each is located by its page, its box, the chunk that
holds it (as ``get_chunks`` gives them with its defaults: the same for the same file) and its
own anchor (the passage's range of the page's plain text, which ``resolve_anchor`` answers).

Both versions are read whole (a diff covers every page); the comparison is made once per pair
of files and kept with the older document, so a cursor resumes without comparing again. The
cursor runs over the list of changes; every response carries the counts of the whole diff.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from pdfthin.errors import PdfthinError
from pdfthin.model.diff import (
    DEFAULT_SETTINGS,
    Change,
    Passage,
    alignment_pairs,
    diff_passages,
)
from pdfthin.ocr.store import AGENT, AgentTranscriptions
from pdfthin.operations import cursor as cur
from pdfthin.operations.anchor_names import anchor_of
from pdfthin.operations.chunks import chunk_stream
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.ocr import agent_texts
from pdfthin.operations.paging import Pager, fill
from pdfthin.operations.params import MAX_TOKENS, NEW_PASSWORD, PASSWORD, STITCH, budget
from pdfthin.operations.response import bbox, document_summary, size
from pdfthin.operations.unreadable import all_unreadable, report
from pdfthin.pages import format_pages

if TYPE_CHECKING:
    from pdfthin.model import Document
    from pdfthin.model.chunks import Chunk
    from pdfthin.operations.types import (
        DiffChange,
        DiffCounts,
        DiffPlace,
        DiffResponse,
        DiffUnreadable,
    )

#: Room for the longest cursor's index (changes are counted before filling, but the room is
#: kept as for any).
_LONGEST_INDEX = 10**9 - 1
#: The characters of a passage's text an added, removed or moved change carries at most
#: beyond a paragraph's worth; what is longer ends in ``…`` (its anchor names it whole).
MAX_TEXT_CHARS = 2_000
#: A moved run names its first passage only, shorter still.
MAX_MOVED_TEXT_CHARS = 300
_KINDS = ("added", "removed", "changed", "moved", "not_compared")


@dataclass(frozen=True, slots=True)
class Located:
    """A passage and where it stands in its version."""

    passage: Passage
    page: int
    box: tuple[float, float, float, float]
    chunk: Chunk
    anchor: str | None
    #: Read from the agent's transcription of a page without a text layer.
    agent: bool = False


@dataclass(frozen=True)
class Compared:
    """The diff of one pair of files, kept with the older document."""

    old: list[Located]
    new: list[Located]
    changes: list[Change]


def diff_documents(
    document: Source,
    *,
    new: Source,
    max_chars: int | None = None,
    cursor: str | cur.Cursor | None = None,
    password: str | None = None,
    new_password: str | None = None,
    context: Context | None = None,
) -> DiffResponse:
    context = context or default_context()
    limit = budget(max_chars, context)
    PASSWORD.value(password)
    NEW_PASSWORD.value(new_password)
    old_doc = context.document(document, password)
    new_doc = context.document(new, new_password)
    args = cur.args_digest(op="diff", new=new_doc.fingerprint)
    pager = Pager("diff", old_doc, args, cursor, context.cursor_key)
    compared = _compared(old_doc, new_doc, context.transcriptions)
    changes = compared.changes
    start = pager.resume_at(len(changes))
    counts: DiffCounts = {kind: 0 for kind in _KINDS}  # type: ignore[assignment]
    for change in changes:
        counts[change.kind] += 1
    complete = counts["not_compared"] == 0
    response: DiffResponse = {
        "document": document_summary(old_doc),
        "new": document_summary(new_doc),
        "identical": complete and not changes,
        "complete": complete,
        "counts": counts,
        "changes": [],
        "next_cursor": None,
    }
    unreadable: DiffUnreadable = {}
    for side, doc in (("old", old_doc), ("new", new_doc)):
        read = agent_texts(context, doc, all_unreadable(doc))
        found = report(doc, [n for n in all_unreadable(doc) if n not in read], limit // 2)
        if found is not None:
            unreadable[side] = found  # type: ignore[literal-required]
    if unreadable:
        response["unreadable"] = unreadable
    room = limit - size(response) - pager.longest(_LONGEST_INDEX)

    def entry(index: int) -> DiffChange:
        return _entry(changes[index], compared, old_doc, new_doc)

    def split(index: int, room: int) -> tuple[DiffChange, int | None]:
        return _shortened(entry(index), room), None

    stop = fill(response["changes"], range(start, len(changes)), entry, room, split=split)
    if stop is not None:
        response["next_cursor"] = pager.cursor(stop.item)
    return response


# --- the comparison, once per pair of files -----------------------------------------------------

_LOCK = threading.Lock()


def _compared(old: Document, new: Document, transcriptions: AgentTranscriptions) -> Compared:
    # Kept per transcriptions store and its state for both versions: a page the agent
    # transcribes since is compared from then on.
    key = (
        f"diff:{new.fingerprint}:agent{id(transcriptions)}."
        f"{transcriptions.generation(old.fingerprint)}.{transcriptions.generation(new.fingerprint)}"
    )
    with _LOCK:
        found = old.derived.get(key)
    if isinstance(found, Compared):
        return found
    before, after = passages(old, transcriptions), passages(new, transcriptions)
    settings = DEFAULT_SETTINGS
    for doc, located in ((old, before), (new, after)):
        if len(located) > settings.max_passages:
            raise PdfthinError(
                "too_large",
                f"the document {doc.fingerprint[:12]} has {len(located)} passages; a diff "
                f"compares at most {settings.max_passages} per version",
                passages=len(located),
                limit=settings.max_passages,
            )
    olds, news = [p.passage for p in before], [p.passage for p in after]
    pairs = alignment_pairs(olds, news)
    if pairs > settings.max_equal_pairs:
        raise PdfthinError(
            "too_large",
            f"the two versions repeat passages too often to be compared: {pairs} pairs of "
            f"equal passages, at most {settings.max_equal_pairs}",
            pairs=pairs,
            limit=settings.max_equal_pairs,
        )
    changes = diff_passages(olds, news, settings)
    result = Compared(before, after, changes)
    with _LOCK:
        old.derived[key] = result
    return result


def passages(doc: Document, transcriptions: AgentTranscriptions | None = None) -> list[Located]:
    """Every passage of the document in reading order, located: each page's rendered blocks, a
    page that needs OCR as one passage of kind ``unreadable`` (with ``transcriptions``, a page
    the agent transcribed whole as the paragraphs of its transcription)."""
    pages = list(range(1, doc.page_count + 1))
    stream = chunk_stream(doc, pages, MAX_TOKENS.default, STITCH.default, transcriptions)
    chunks = stream.upto(_LONGEST_INDEX)
    # A chunk holds the text from its origin to the next chunk's: a block belongs to the last
    # chunk that starts at or before it.
    starts = [(c.origin, n) for n, c in enumerate(chunks) if c.origin is not None]
    origins = [origin for origin, _ in starts]
    unreadable_chunks = {c.page: c for c in chunks if c.status in ("needs_ocr", "ocr")}
    out: list[Located] = []
    for number in pages:
        page = doc.page(number)
        whole = (
            transcriptions.whole_text(doc.fingerprint, number)
            if transcriptions is not None and page.status == "needs_ocr"
            else None
        )
        if whole is not None:
            # Its paragraphs, each over the whole page: a transcription has no boxes.
            chunk = unreadable_chunks[number]
            for paragraph in whole.split("\n\n"):
                if paragraph.strip():
                    passage = Passage("paragraph", paragraph.strip(), compared=True)
                    box = (0.0, 0.0, page.width, page.height)
                    out.append(Located(passage, number, box, chunk, None, agent=True))
            continue
        if page.status == "needs_ocr":
            chunk = unreadable_chunks[number]
            passage = Passage("unreadable", "", compared=False)
            box = (0.0, 0.0, page.width, page.height)
            out.append(Located(passage, number, box, chunk, None))
            continue
        for block in page.anchors:
            if block.kind == "table":
                text = page.markdown[block.offset : block.offset + block.length]
            elif block.plain >= 0:
                text = page.text[block.plain : block.plain + block.plain_length]
            else:
                text = page.markdown[block.offset : block.offset + block.length]
            if not text.strip():
                continue
            chunk = _chunk_of(chunks, starts, origins, number, block.plain, out)
            anchor = (
                anchor_of(doc.fingerprint, number, block.plain, block.plain + block.plain_length)
                if block.plain >= 0 and block.plain_length > 0
                else None
            )
            passage = Passage(block.kind, text, compared=not page.unreadable)
            out.append(Located(passage, number, block.box, chunk, anchor))
    return out


def _chunk_of(
    chunks: list[Chunk],
    starts: list[tuple[tuple[int, int], int]],
    origins: list[tuple[int, int]],
    page: int,
    plain: int,
    before: list[Located],
) -> Chunk:
    if plain < 0:  # no plain text of its own: the chunk of the block before it on the page
        if before and before[-1].page == page:
            return before[-1].chunk
        plain = 0
    at = bisect_right(origins, (page, plain)) - 1
    if at < 0:
        return chunks[0]
    return chunks[starts[at][1]]


# --- the answer ---------------------------------------------------------------------------------


def _place(located: list[Located], span: tuple[int, int]) -> DiffPlace | None:
    first, last = span
    if last <= first:
        return None
    head = located[first]
    pages = sorted({p.page for p in located[first:last]})
    place: DiffPlace = {
        "page": head.page,
        "pages": format_pages(pages),
        "bbox": bbox(head.box),
        "chunk_id": head.chunk.id,
        "breadcrumb": list(head.chunk.breadcrumb),
        "kind": head.passage.kind,
        "passages": last - first,
    }
    if head.anchor is not None:
        place["anchor"] = head.anchor
    if head.agent:
        place["provenance"] = AGENT
    return place


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _entry(change: Change, compared: Compared, old: Document, new: Document) -> DiffChange:
    item: DiffChange = {
        "kind": change.kind,
        "old": _place(compared.old, change.old),
        "new": _place(compared.new, change.new),
    }
    if change.kind in ("added", "removed"):
        side = (
            compared.new[change.new[0]] if change.kind == "added" else compared.old[change.old[0]]
        )
        item["text"] = _cut(side.passage.text, MAX_TEXT_CHARS)
    elif change.kind == "moved":
        item["text"] = _cut(compared.new[change.new[0]].passage.text, MAX_MOVED_TEXT_CHARS)
    elif change.kind == "changed":
        if change.diff is not None:
            item["diff"] = change.diff
        else:
            item["cells"] = [
                {
                    "old_row": c.old_row,
                    "new_row": c.new_row,
                    "column": c.column,
                    "header": c.header,
                    "old": c.old,
                    "new": c.new,
                }
                for c in change.cells
            ]
            item["cells_changed"] = change.cells_changed
        if change.similarity is not None:
            item["similarity"] = change.similarity
    else:
        item["reason"] = _reason(compared, change, old, new)
    return item


def _shortened(item: DiffChange, room: int) -> DiffChange:
    """A change too large for a response of its own, cut to fit (``truncated``): its text,
    diff and cells first, then, at the smallest budgets, its breadcrumbs and anchors (page,
    box and chunk id stay). The passages are whole in the documents."""
    cut: dict[str, Any] = {**item, "truncated": True}

    def over() -> int:
        return size(cut) + 1 - room

    cells = cut.get("cells")
    while cells and over() > 0:
        cells = cells[: len(cells) // 2]
        cut["cells"] = cells
    for key in ("diff", "text"):
        text = cut.get(key)
        if isinstance(text, str) and over() > 0:
            cut[key] = text[: max(0, len(text) - over() - 1)] + "…"
    for field in ("breadcrumb", "anchor"):
        for side in ("old", "new"):
            place = cut[side]
            if over() > 0 and place is not None and field in place:
                place = dict(place)
                if field == "breadcrumb":
                    place["breadcrumb"] = []
                else:
                    del place["anchor"]
                cut[side] = place
    return cast("DiffChange", cut)


def _reason(compared: Compared, change: Change, old: Document, new: Document) -> str:
    said = []
    for name, located, span, doc in (
        ("older", compared.old, change.old, old),
        ("newer", compared.new, change.new, new),
    ):
        pages = sorted({p.page for p in located[span[0] : span[1]] if not p.passage.compared})
        if pages:
            codes = sorted({doc.page(n).reason_code for n in pages})
            said.append(f"page(s) {format_pages(pages)} of the {name} version ({', '.join(codes)})")
    return (
        " and ".join(said) + " could not be read (they need OCR, or were read only in part): "
        "what stands there was not compared, and is neither changed nor unchanged"
    )
