"""The work on one document, as a worker process does it: read it under its time limit,
write (or return) its output, and answer a :class:`DocumentResult` whatever happened — one bad
document is a record with its error code, never the end of the batch."""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from pdfthin.batch.records import DocumentError, DocumentResult, Options
from pdfthin.deadline import Deadline, applied
from pdfthin.pages import format_pages

if TYPE_CHECKING:
    from pdfthin.batch.sources import SourceFile

#: Each ``read_pages`` call's budget: some dozens of pages a response (as ``pdfthin.exports``
#: asks chunks), so a long document is never held as one answer.
RESPONSE_CHARS = 200_000


@dataclass(frozen=True)
class Task:
    """One document to do: where its output goes (``None``: returned in the result), and
    the document already opened when it is not a file at ``source.path`` (the Lambda
    handler's S3 object, read through its sandbox: ``pdfthin/adapters/aws/items.py``)."""

    source: SourceFile
    options: Options
    output: str | None = None
    document: Any = None


#: The worker's context, made on its first document: one document cached at a time (a batch
#: never asks for a document twice), cleared after each so a worker holds one document at most.
_context: Any = None


def _worker_context() -> Any:
    global _context
    if _context is None:
        from pdfthin.operations.context import Context, DocumentCache

        _context = Context(cache=DocumentCache(1))
    return _context


def process(task: Task) -> DocumentResult:
    """Do ``task``; every failure becomes a ``failed`` result with its error envelope's code
    (the time limit, a malformed file, an encrypted one without its password, a write that
    failed)."""
    from pdfthin.operations import error_envelope

    started = time.monotonic()
    context = _worker_context()
    source = task.source
    try:
        with applied(Deadline(task.options.timeout_seconds)):
            result = _do(task, context)
    except Exception as exc:  # every failure is a record, never the end of the batch
        error = error_envelope(exc)["error"]
        result = DocumentResult(
            source.name,
            source.path,
            "failed",
            error=DocumentError(error["code"], error["message"]),
        )
    finally:
        context.cache.clear()  # the next document starts with nothing held
    seconds = time.monotonic() - started
    return DocumentResult(**{**result.__dict__, "seconds": seconds})


def _do(task: Task, context: Any) -> DocumentResult:
    from pdfthin.exports import page_markdown

    options, source = task.options, task.source
    document = source.path if task.document is None else task.document
    statuses: Counter[str] = Counter()
    unread: list[int] = []
    summary: dict[str, Any] = {}

    def pages() -> Iterator[dict[str, Any]]:
        """Each page once, whole, counted as it goes by."""
        for page in _pages(document, options, context, summary):
            statuses[page["status"]] += 1
            if page["status"] == "needs_ocr":
                unread.append(page["page"])
            yield page

    content: Any = None
    if options.format == "markdown":
        parts = ("\n\n" * (i > 0) + page_markdown(p) for i, p in enumerate(pages()))
        content = _emit(task.output, parts, "\n")
    elif options.format == "chunks":
        for _ in pages():  # the statuses; the pages stay in the page cache for the chunks
            pass
        chunks = _chunks(document, options, context)
        if task.output is None:
            content = list(chunks)
        else:
            from pdfthin.exports import jsonl_line

            _emit(task.output, (jsonl_line(c) for c in chunks), "")
    else:  # jsonl: one record, written by the parent process into the one file
        content = {"pages": list(pages())}
    fingerprint = summary["document"]["fingerprint"]
    result = DocumentResult(
        source.name,
        source.path,
        "ok",
        fingerprint=fingerprint,
        page_count=sum(statuses.values()),
        page_statuses=dict(sorted(statuses.items())),
        needs_ocr=format_pages(unread),
        output=task.output,
        content=content,
    )
    if options.format == "jsonl":
        record = {**result.manifest_entry(options.digest()), "document": summary["document"]}
        record["pages"] = content["pages"]
        result = DocumentResult(**{**result.__dict__, "content": record})
    return result


def _pages(
    path: Any, options: Options, context: Any, summary: dict[str, Any]
) -> Iterator[dict[str, Any]]:
    """``read_pages`` followed through its cursors: each page whole; the document's summary
    (fingerprint, page count) put in ``summary``."""
    from pdfthin.exports import whole_pages
    from pdfthin.operations import read_pages

    def responses() -> Iterator[dict[str, Any]]:
        cursor: str | None = None
        while True:
            response = read_pages(
                path,
                pages=options.pages,
                max_chars=RESPONSE_CHARS,
                cursor=cursor,
                password=options.password,
                context=context,
            )
            summary["document"] = dict(response["document"])
            yield from (dict(page) for page in response["pages"])
            cursor = response["next_cursor"]
            if cursor is None:
                return

    return whole_pages(responses())


def _chunks(path: Any, options: Options, context: Any) -> Iterator[Any]:
    from pdfthin.exports import chunks

    return chunks(
        path,
        pages=options.pages,
        max_tokens=options.max_tokens,
        stitch=options.stitch,
        password=options.password,
        context=context,
    )


def _emit(output: str | None, parts: Iterator[str], end: str) -> str | None:
    """``parts`` (then ``end``) written to ``output`` as they come, or joined and returned
    when there is no file. The file is written beside its place and moved there once whole,
    so a batch stopped halfway never leaves a truncated output that looks done."""
    if output is None:
        return "".join(parts) + end
    target = Path(output)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    try:
        with open(partial, "w", encoding="utf-8", newline="\n") as fh:
            _write_all(fh, parts, end)
        os.replace(partial, target)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return None


def _write_all(fh: IO[str], parts: Iterator[str], end: str) -> None:
    for part in parts:
        fh.write(part)
    fh.write(end)
