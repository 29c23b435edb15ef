"""Many documents at once, on one machine: ``pdfthin batch`` and its Python API.

>>> from pdfthin.batch import iter_documents
>>> for result in iter_documents(["a.pdf", "b.pdf"], format="chunks", jobs=2):  # doctest: +SKIP
...     result.name, result.status, result.page_statuses, len(result.content or [])

Each document is read in a worker process under a time limit, and each result is given once,
as it completes; a document that cannot be read is a ``failed`` result with its error code
(docs/batch.md). :func:`run_batch` writes the outputs, resumes a previous run and writes its
summary, as ``pdfthin batch`` does.
"""

from __future__ import annotations

from pdfthin.batch.records import DocumentError, DocumentResult, Options
from pdfthin.batch.run import BatchRun, iter_documents, run_batch
from pdfthin.batch.sources import SourceFile, sources
from pdfthin.batch.summary import Summary

__all__ = [
    "BatchRun",
    "DocumentError",
    "DocumentResult",
    "Options",
    "SourceFile",
    "Summary",
    "iter_documents",
    "run_batch",
    "sources",
]
