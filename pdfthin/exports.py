"""Chunks for indexing pipelines: a document's chunks whole, as JSON Lines and as columns.

:func:`chunks` follows ``get_chunks``'s cursors and yields every chunk of the selection once,
whole: a chunk that a response's budget split (``part``) is joined back before it is given.
:func:`to_jsonl` writes chunks one compact JSON object a line (what ``pdfthin chunks FILE
--format jsonl`` prints); :func:`to_columns` turns them into one list per field, which
``polars.from_dict`` and ``pyarrow.table`` take as they are (neither is a dependency).

>>> from pdfthin.exports import chunks, to_columns, to_jsonl
>>> rows = list(chunks("paper.pdf", max_tokens=300))   # doctest: +SKIP
>>> to_jsonl(rows, "paper.jsonl")                      # doctest: +SKIP
>>> polars.from_dict(to_columns(rows))                 # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import IO, TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from pdfthin.operations.context import Context, Source
    from pdfthin.operations.types import ChunkEntry, ChunksResponse

#: The budget of each ``get_chunks`` call made here, in characters: a response covers some
#: dozens of pages, so the first chunks come before the last pages are read, and holds three
#: chunks of the largest size target (8,000 tokens: about 32,000 characters of Markdown and as
#: many of plain text), so few chunks come in parts (joined here).
RESPONSE_CHARS = 200_000

#: The columns of :func:`to_columns`, in order.
COLUMNS = (
    "chunk_id",
    "page",
    "x0",
    "y0",
    "x1",
    "y1",
    "kind",
    "breadcrumb",
    "markdown",
    "text",
    "token_estimate",
    "status",
    "reason_code",
    "provenance",
    "page_spans",
    "anchor",
)


def chunks(
    source: Source,
    *,
    pages: str | int | None = None,
    max_tokens: int | None = None,
    stitch: bool | None = None,
    password: str | None = None,
    max_chars: int = RESPONSE_CHARS,
    context: Context | None = None,
) -> Iterator[ChunkEntry]:
    """Every chunk of the document (or of ``pages``), in order, each whole: ``get_chunks``
    called again with each cursor (``max_chars`` per call, see :func:`chunk_responses`) as the
    chunks before it are taken. The arguments are ``get_chunks``'s; a failure raises
    :class:`~pdfthin.errors.PdfthinError`."""
    from pdfthin.operations.chunks import get_chunks
    from pdfthin.operations.context import default_context

    context = context or default_context()

    def call(cursor: str | None, max_chars: int) -> ChunksResponse:
        return get_chunks(
            source,
            pages=pages,
            max_tokens=max_tokens,
            stitch=stitch,
            max_chars=max_chars,
            cursor=cursor,
            password=password,
            context=context,
        )

    responses = chunk_responses(call, max_chars)
    return whole_chunks(entry for response in responses for entry in response["chunks"])


_Response = TypeVar("_Response", bound=Mapping[str, Any])
_T = TypeVar("_T")


def chunk_responses(
    call: Callable[[str | None, int], _Response], max_chars: int, cursor: str | None = None
) -> Iterator[_Response]:
    """The responses of ``call(cursor, max_chars)`` (``get_chunks`` with its other arguments
    bound), from ``cursor`` (the start when ``None``), each asked for with the cursor of the
    one before once it has been used. A chunk too long for ``max_chars`` comes in parts
    (``part``), each with its piece of the plain text: :func:`whole_chunks` joins them."""
    while True:
        response = call(cursor, max_chars)
        yield response
        cursor = response["next_cursor"]
        if cursor is None:
            return


def whole_chunks(entries: Iterable[ChunkEntry]) -> Iterator[ChunkEntry]:
    """Each chunk once its parts (a chunk split across responses) are joined, in order: its
    Markdown and its plain text, each the parts' pieces end to end."""
    held: ChunkEntry | None = None  # a chunk whose next part is still to come
    for entry in entries:
        if held is not None and "part" in entry and held["chunk_id"] == entry["chunk_id"]:
            held["markdown"] += entry["markdown"]
            held["text"] += entry["text"]
            held["part"] = {**held["part"], "end": entry["part"]["end"]}
            # A part carries the page spans its Markdown shows (and their regions): the
            # chunk's are the parts' together, each once.
            held["page_spans"] = _once(held["page_spans"] + entry["page_spans"])
            regions = held.get("regions_needing_review", []) + entry.get(
                "regions_needing_review", []
            )
            if regions:
                held["regions_needing_review"] = _once(regions)
            if "anchor" in entry:
                held.setdefault("anchor", entry["anchor"])
            if not held["breadcrumb"]:  # a part at the smallest budget may leave it out
                held["breadcrumb"] = entry["breadcrumb"]
            piece = held
        else:
            if held is not None:  # its other parts never came: given as it is
                yield held
            piece = entry.copy()  # the caller's entry is left as it was
        held = None
        _close_part(piece)
        if "part" in piece and piece["part"]["end"] < piece["part"]["total"]:
            held = piece
        else:
            yield piece
    if held is not None:
        yield held


def _once(items: list[_T]) -> list[_T]:
    """``items`` in order, each equal one once."""
    out: list[_T] = []
    for item in items:
        if item not in out:
            out.append(item)
    return out


def _close_part(entry: ChunkEntry) -> None:
    """Drop ``part`` once the joined pieces hold the chunk's whole Markdown."""
    part = entry.get("part")
    if part is not None and part["start"] == 0 and part["end"] >= part["total"]:
        del entry["part"]


def jsonl_line(chunk: ChunkEntry) -> str:
    """One chunk as one line of JSON Lines: compact, UTF-8 text as is, no newline inside."""
    return json.dumps(chunk, ensure_ascii=False, separators=(",", ":")) + "\n"


def to_jsonl(chunks: Iterable[ChunkEntry], file: str | os.PathLike[str] | IO[str]) -> int:
    """Write ``chunks`` (parts joined first) to ``file`` (a path, written as UTF-8, or an open
    text file), one compact JSON object a line; the number of lines written."""
    if isinstance(file, (str, os.PathLike)):
        with open(file, "w", encoding="utf-8", newline="\n") as out:
            return to_jsonl(chunks, out)
    count = 0
    for chunk in whole_chunks(chunks):
        file.write(jsonl_line(chunk))
        count += 1
    return count


def to_columns(chunks: Iterable[ChunkEntry]) -> dict[str, list[Any]]:
    """``chunks`` (parts joined first) as one list per field, each as long as the others, in
    the order of :data:`COLUMNS`: ``polars.from_dict(...)`` and ``pyarrow.table(...)`` take it
    as it is. The box of the chunk's first page is flat (``x0``, ``y0``, ``x1``, ``y1``);
    ``breadcrumb`` is a list of titles (a title may hold any text, so they are not joined);
    ``page_spans`` a list of ``{page, x0, y0, x1, y1}``; ``reason_code`` is ``text_layer``
    where the chunk leaves it out; ``anchor`` is ``None`` for an unreadable page's chunk.
    A chunk whose parts are not all there is a ``ValueError``."""
    columns: dict[str, list[Any]] = {name: [] for name in COLUMNS}
    for chunk in whole_chunks(chunks):
        if "part" in chunk:
            raise ValueError(
                f"chunk {chunk['chunk_id']} is incomplete (a part of it is missing): "
                "pass the chunks of every response, or use pdfthin.exports.chunks()"
            )
        for name, value in _row(chunk).items():
            columns[name].append(value)
    return columns


def _row(chunk: ChunkEntry) -> dict[str, Any]:
    box = chunk["bbox"]
    return {
        "chunk_id": chunk["chunk_id"],
        "page": chunk["page"],
        "x0": box["x0"],
        "y0": box["y0"],
        "x1": box["x1"],
        "y1": box["y1"],
        "kind": chunk["kind"],
        "breadcrumb": list(chunk["breadcrumb"]),
        "markdown": chunk["markdown"],
        "text": chunk["text"],
        "token_estimate": chunk["token_estimate"],
        "status": chunk["status"],
        "reason_code": chunk.get("reason_code", "text_layer"),
        "provenance": chunk["provenance"],
        "page_spans": [{"page": s["page"], **s["bbox"]} for s in chunk["page_spans"]],
        "anchor": chunk.get("anchor"),
    }


# --- pages as Markdown, as ``pdfthin read`` prints them ---------------------------------------


def whole_pages(pages: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Each page once its parts (a page split across responses) are joined, in order."""
    held: dict[str, Any] | None = None
    for page in pages:
        if held is not None and "part" in page and held["page"] == page["page"]:
            held["markdown"] += page["markdown"]
            if page["part"]["end"] >= page["part"]["total"]:
                held.pop("part", None)
            continue
        if held is not None:
            yield held
        held = dict(page)
        part = held.get("part")
        if part and part["start"] == 0 and part["end"] >= part["total"]:
            held.pop("part")
    if held is not None:
        yield held


def page_markdown(page: Mapping[str, Any]) -> str:
    """A page as ``pdfthin read`` prints it: a comment naming its number and status (and the
    reason, for a page that could not be read), then its Markdown, whose own text can never
    pass for such a comment."""
    from pdfthin.operations.sections import escape_markers

    head = f"<!-- page {page['page']}: {page['status']}"
    if page.get("reason"):
        head += f" ({page['reason']})"
    head += " -->"
    body = escape_markers(page["markdown"])
    return head + "\n\n" + body if body else head
