"""A batch from start to end: :func:`iter_documents` (the documents done, each result given
as it completes) and :func:`run_batch` (the same into an output folder or JSON Lines file,
resuming a previous run, ending with its summary), on which ``pdfthin batch`` is built."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from pdfthin.batch.outputs import FolderOutput, JsonlOutput
from pdfthin.batch.pool import DEFAULT_PER_CHILD, run_tasks
from pdfthin.batch.records import DEFAULT_TIMEOUT_SECONDS, FORMATS, DocumentResult, Format, Options
from pdfthin.batch.sources import SourceFile, named
from pdfthin.batch.summary import Summary
from pdfthin.batch.work import Task
from pdfthin.errors import PdfthinError


def iter_documents(
    paths: Iterable[str | os.PathLike[str] | SourceFile],
    *,
    format: Format = "markdown",
    jobs: int = 1,
    pages: str | None = None,
    max_tokens: int | None = None,
    stitch: bool | None = None,
    password: str | None = None,
    timeout_seconds: float | None = DEFAULT_TIMEOUT_SECONDS,
    per_child: int = DEFAULT_PER_CHILD,
) -> Iterator[DocumentResult]:
    """Every document of ``paths`` read in ``jobs`` worker processes, each result given once,
    as it completes (not in order), its output in ``content``: the document's Markdown as
    ``pdfthin read`` prints it, its list of chunks as ``pdfthin.chunks`` gives them, or its
    JSON Lines record. A document that cannot be read is a ``failed`` result with its error
    code, and the others go on. ``timeout_seconds`` bounds each document; each worker is
    replaced after ``per_child`` documents (memory stays bounded)."""
    options = _options(format, pages, max_tokens, stitch, password, timeout_seconds)
    sources = _sources(paths)
    return run_tasks((Task(s, options) for s in sources), jobs, per_child)


@dataclass
class BatchRun:
    """The results of :func:`run_batch`, then (once they have all been taken) its summary."""

    results: Iterator[DocumentResult]
    summary: Summary


def run_batch(
    sources: list[SourceFile],
    out: str | os.PathLike[str],
    options: Options,
    *,
    jobs: int = 1,
    per_child: int = DEFAULT_PER_CHILD,
) -> BatchRun:
    """``sources`` done into ``out`` (a folder for ``markdown`` and ``chunks``, a file for
    ``jsonl``): the documents a previous run did with the same file and options are given
    first as ``skipped``, then the others as they complete; the manifest is written as they
    come and the summary once the last is taken (see :mod:`pdfthin.batch.outputs`)."""
    check_options(options.format, options.pages, options.max_tokens, options.timeout_seconds)
    target = Path(out)
    if options.format == "jsonl":
        if target.is_dir():
            raise PdfthinError("invalid_argument", f"{out} is a folder; jsonl writes one file")
        output: FolderOutput | JsonlOutput = JsonlOutput(target, sources, options)
    else:
        if target.exists() and not target.is_dir():
            raise PdfthinError(
                "invalid_argument", f"{out} is a file; {options.format} writes a folder"
            )
        output = FolderOutput(target, sources, options)
    summary = Summary(len(sources))
    return BatchRun(_results(output, sources, options, jobs, per_child, summary), summary)


def _results(
    output: FolderOutput | JsonlOutput,
    sources: list[SourceFile],
    options: Options,
    jobs: int,
    per_child: int,
    summary: Summary,
) -> Iterator[DocumentResult]:
    todo: list[Task] = []
    try:
        for source in sources:
            done = output.done_before(source)
            if done is None:
                todo.append(Task(source, options, output.output_of(source)))
            else:
                summary.add(done)
                yield done
        for result in run_tasks(todo, jobs, per_child):
            output.record(result)
            summary.add(result)
            yield _without_content(result)
        output.finish(summary.as_json())
    finally:
        output.close()


def _without_content(result: DocumentResult) -> DocumentResult:
    """A result whose output was written: its content is in the file, not held here too."""
    if result.content is None:
        return result
    return DocumentResult(**{**result.__dict__, "content": None})


def _sources(paths: Iterable[str | os.PathLike[str] | SourceFile]) -> list[SourceFile]:
    given = list(paths)
    files = [p for p in given if isinstance(p, SourceFile)]
    files += named(p for p in given if not isinstance(p, SourceFile))
    return sorted(files)


def _options(
    format: Format,
    pages: str | None,
    max_tokens: int | None,
    stitch: bool | None,
    password: str | None,
    timeout_seconds: float | None,
) -> Options:
    check_options(format, pages, max_tokens, timeout_seconds)
    return Options(format, pages, max_tokens, stitch, timeout_seconds, password)


def check_options(
    format: str, pages: str | None, max_tokens: int | None, timeout_seconds: float | None
) -> None:
    """The options, checked before any worker starts (a bad one is ``invalid_argument``)."""
    if format not in FORMATS:
        raise PdfthinError("invalid_argument", f"format must be one of {', '.join(FORMATS)}")
    if timeout_seconds is not None and not timeout_seconds > 0:
        raise PdfthinError("invalid_argument", "timeout_seconds must be positive")
    from pdfthin.operations.registry import BY_COMMAND

    # The page selection and the chunk size are checked by their declarations, as on every
    # surface (a bad one is refused before any document is opened).
    for name, value in (("pages", pages), ("max_tokens", max_tokens)):
        if value is not None:
            (param,) = (p for p in BY_COMMAND["chunks"].params if p.name == name)
            param.check(value)
