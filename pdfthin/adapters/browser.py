"""The browser bridge: the web worker's one way into pdfthin.

It holds the bytes of the documents the page opened and calls :mod:`pdfthin.operations` with
them, answering JSON text (a response, or the error envelope). The calls are the operations of
the registry (``pdfthin/operations/registry.py``) by their short names (``describe``, ``read``,
``find``, ... as the command line's), their arguments checked as it declares them. The same
module runs under Pyodide in the worker, under Pyodide in Node (``web/tests/parity.mjs``) and
under CPython (``tests/test_pyodide.py``), so the parity test compares exactly what the page
receives.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable

from pdfthin.errors import PdfthinError
from pdfthin.operations import Context, error_envelope
from pdfthin.operations.context import Limits
from pdfthin.operations.params import documents
from pdfthin.operations.registry import BY_COMMAND

#: The documents opened in this tab, by handle: bytes stay here, so each call does not copy
#: the file across from JavaScript again. Only the latest few are kept.
MAX_OPEN = 4
_documents: dict[str, bytes] = {}
_handles = itertools.count(1)
_context = Context()


def set_progress(callback: Callable[[int, int], None] | None) -> None:
    """Report ``callback(done, total)`` while a document is being extracted."""
    _context.progress = callback


def set_limits(page_seconds: float | None = None, document_seconds: float | None = None) -> None:
    """Give each page, and each whole document, this many seconds of reading (``None``: the
    default). A tab may wait longer than an agent's server should; the documents opened so far
    are read again under the new limits."""
    global _context
    for name, value in (("page_seconds", page_seconds), ("document_seconds", document_seconds)):
        if value is not None and (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
            or value <= 0
        ):
            raise PdfthinError("invalid_argument", f"{name} must be a positive number of seconds")
    defaults = Limits()
    limits = Limits(
        page_seconds=defaults.page_seconds if page_seconds is None else float(page_seconds),
        document_seconds=(
            defaults.document_seconds if document_seconds is None else float(document_seconds)
        ),
    )
    _context = Context(limits=limits, progress=_context.progress)


def open_document(data: bytes | bytearray | memoryview) -> str:
    """Keep ``data`` and answer a handle for :func:`call`."""
    handle = f"doc-{next(_handles)}"
    _documents[handle] = bytes(data)
    while len(_documents) > MAX_OPEN:
        del _documents[next(iter(_documents))]
    return handle


def close_document(handle: str) -> None:
    _documents.pop(handle, None)


def call(operation: str, handle: str, arguments: str = "{}") -> str:
    """Run ``operation`` on the document ``handle`` with ``arguments`` (a JSON object) and
    answer the response as JSON text; every failure is the error envelope."""
    try:
        op = BY_COMMAND.get(operation)
        if op is None:
            raise PdfthinError(
                "invalid_argument",
                f"unknown operation {operation!r}; the operations are {', '.join(BY_COMMAND)}",
            )
        data = _documents.get(handle)
        if data is None:
            raise PdfthinError("invalid_argument", f"no open document {handle!r}")
        try:
            raw = json.loads(arguments)
        except (ValueError, RecursionError):
            raise PdfthinError("invalid_argument", "arguments must be a JSON object") from None
        if not isinstance(raw, dict):
            raise PdfthinError("invalid_argument", "arguments must be a JSON object")
        kwargs = op.arguments(raw)
        for param in documents(op.params):  # a second document (diff's new): by its handle
            other = (
                _documents.get(kwargs[param.name]) if isinstance(kwargs[param.name], str) else None
            )
            if other is None:
                raise PdfthinError(
                    "invalid_argument",
                    f"{param.name} must be the handle of an open document",
                    argument=param.name,
                )
            kwargs[param.name] = other
        response = op.handler(data, **kwargs, context=_context)
    except Exception as exc:
        response = error_envelope(exc)
    return json.dumps(response, ensure_ascii=False, sort_keys=True)
