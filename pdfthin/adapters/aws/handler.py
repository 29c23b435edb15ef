"""The Lambda handler: ``pdfthin.adapters.aws.handler.handler`` (Function URL, API Gateway HTTP
API and REST proxy events, or a direct invocation with the request as its payload).

A request is ``{"operation": "read_pages", "document": {"s3": {...}} | {"base64": "..."},
...arguments}``: the operations of the registry (``pdfthin/operations/registry.py``: the MCP
tools' names, with ``document`` instead of ``path``), their arguments checked as the registry
declares them, the same cursors, the same error envelope; over HTTP the envelope's code also sets
the status (:data:`STATUS`).

The container is created once (:data:`APP`, at init) and keeps a small document cache keyed by
fingerprint for warm invocations (an encrypted document in it is served only to a request
whose password opens it: ``pdfthin/operations/context.py``); nothing a request depends on lives
there, because a cursor carries everything needed to resume, so a cold container answers it
exactly as the warm one that issued it. An S3 object is looked up by its identity (bucket, key,
version or ETag) before it is downloaded, so a cached document costs a HEAD at most.

Every response fits Lambda's payload limit: a paginated operation whose answer would not fit
(its budget counts characters; the payload counts bytes after JSON escaping) is answered again
with a smaller budget (the request's cursor decoded once for all the attempts), the rest
reachable through its cursor; any other is ``too_large``. An
invocation that would run past Lambda's deadline answers ``timeout`` shortly before it, and the
work it started stops (:mod:`pdfthin.deadline`): a frozen container must not carry it into the
next invocation, holding the extraction slot and the paused garbage collector.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from functools import partial
from typing import Any

from pdfthin.adapters.aws.config import DEADLINE_MARGIN_SECONDS, Config
from pdfthin.adapters.aws.documents import Documents
from pdfthin.adapters.aws.events import (
    ITEM,
    MethodNotAllowed,
    kind_of,
    payload_bytes,
    request_of,
    respond,
)
from pdfthin.deadline import Deadline, applied
from pdfthin.errors import PdfthinError, shown
from pdfthin.operations import OPERATIONS as REGISTRY
from pdfthin.operations import Context, error_envelope
from pdfthin.operations.context import DocumentCache, Limits, pypdf_warning, require_native
from pdfthin.operations.paging import decoded
from pdfthin.operations.params import MIN_MAX_CHARS, documents
from pdfthin.operations.registry import BY_NAME
from pdfthin.operations.response import dumps

log = logging.getLogger("pdfthin.adapters.aws")

#: The routes: every operation of the registry, by name, to its handler (S3 has no listing
#: here; the caller names the object).
OPERATIONS: dict[str, Callable[..., Any]] = {op.name: op.handler for op in REGISTRY}

#: HTTP status for each error code. ``encrypted`` is 403, not 401: the password is an argument
#: of the request, not HTTP authentication (401 obliges a WWW-Authenticate challenge, and
#: clients answer it by prompting for HTTP credentials).
STATUS: dict[str, int] = {
    "invalid_pages": 400,
    "invalid_argument": 400,
    "invalid_cursor": 400,
    "encrypted": 403,
    "outside_root": 403,
    "not_found": 404,
    "stale_cursor": 409,
    "too_large": 413,
    "not_a_pdf": 422,
    "malformed": 422,
    "unsupported": 422,
    "internal": 500,
    "ocr_unavailable": 501,
    "renderer_unavailable": 501,
    "busy": 503,
    "timeout": 504,
}

#: Suggested wait after ``timeout`` (the stopped work lets go of the container meanwhile).
TIMEOUT_RETRY_SECONDS = 5


class LambdaApp:
    """One container's handler: its configuration, document cache and S3 client."""

    def __init__(self, config: Config) -> None:
        ocr = None
        if config.ocr:
            from pdfthin.ocr.loader import load_binding

            ocr = load_binding(config.ocr)
        self.config = config
        self.context = Context(
            cache=DocumentCache(config.cache_size),
            limits=Limits(max_file_bytes=config.max_file_bytes),
            default_max_chars=config.default_max_chars,
            max_extractions=config.max_extractions,
            ocr=ocr,
            cursor_key=config.cursor_key,
        )
        self.documents = Documents(config)

    def __call__(self, event: Any, lambda_context: Any = None) -> Any:
        kind = kind_of(event)
        if kind == ITEM:
            return self._item(event, self._deadline(lambda_context))
        try:
            request = request_of(kind, event)
            return self._answer(kind, request, self._deadline(lambda_context))
        except Exception as exc:
            payload = error_envelope(exc)
            error = payload["error"]
            status = STATUS[error["code"]]
            headers: dict[str, str] = {}
            if isinstance(exc, MethodNotAllowed):
                status, headers["allow"] = 405, "POST"
            retry = error["details"].get("retry_after_seconds")
            if retry is not None:
                headers["retry-after"] = str(retry)
            if error["code"] == "internal":
                log.error("internal error: %s", error["message"], exc_info=exc)
            return respond(kind, status, payload, headers)

    # --- one request ----------------------------------------------------------------------------

    def _answer(self, kind: str, request: dict[str, Any], deadline: Deadline | None) -> Any:
        """The response to send: the operation's answer, inside the payload limit."""
        name, arguments = _parse(request)
        operation = OPERATIONS[name]
        document = request.get("document")
        loaded: list[Any] = []
        arguments = decoded(arguments, self.context.cursor_key)  # once, for every attempt

        others = documents(BY_NAME[name].params)

        def run(max_chars: int | None) -> dict[str, Any]:
            if not loaded:  # once, even when the answer is made again with a smaller budget
                loaded.append(self.documents.load(document))
                # A second document (diff_documents' new) is given and loaded as the first.
                loaded.append({p.name: self.documents.load(arguments[p.name]) for p in others})
            kwargs = {**arguments, **loaded[1]}
            if max_chars is not None:
                kwargs["max_chars"] = max_chars
            return dict(operation(loaded[0], **kwargs, context=self.context))

        result = _within(deadline, partial(run, None))
        limit = self.config.payload_limit
        budgeted = BY_NAME[name].budgeted
        for _attempt in range(4):
            response = respond(kind, 200, result, {})
            size = payload_bytes(response)
            if size <= limit:
                return response
            # The budget counts characters of compact JSON; the payload counts bytes after the
            # runtime's escaping (and the HTTP body's second escaping). Answer again with a
            # budget scaled from this answer's ratio of bytes to characters: the rest stays
            # reachable through the cursor.
            smaller = int(len(dumps(result)) * limit / size * 0.9)
            if not budgeted or smaller < MIN_MAX_CHARS:
                break
            result = _within(deadline, partial(run, smaller))
        raise PdfthinError(
            "too_large",
            f"the {name} response is {size} bytes as Lambda sends it; the payload limit is "
            f"{limit}" + (" (ask for a smaller max_bytes)" if BY_NAME[name].file else ""),
            payload_bytes=size,
            limit=limit,
        )

    def _item(self, event: dict[str, Any], deadline: Deadline | None) -> dict[str, Any]:
        """One Distributed Map item (:mod:`pdfthin.adapters.aws.items`, imported for items
        only): its record, or its failure raised for Step Functions' Retry and Catch."""
        from pdfthin.adapters.aws.items import item_error, run_item

        try:
            return _within(deadline, partial(run_item, self, event, deadline))
        except PdfthinError as exc:  # the deadline passed before the item answered
            raise item_error(exc.code, exc.message) from None

    def _deadline(self, lambda_context: Any) -> Deadline | None:
        """When this invocation answers ``timeout``: a second before Lambda's deadline, or
        sooner with ``PDFTHIN_TIMEOUT_SECONDS``; ``None``: no deadline."""
        seconds = self.config.timeout_seconds
        remaining = getattr(lambda_context, "get_remaining_time_in_millis", None)
        if callable(remaining):
            left = max(remaining() / 1000 - DEADLINE_MARGIN_SECONDS, 0.1)
            seconds = left if seconds is None else min(seconds, left)
        return None if seconds is None else Deadline(seconds)


def _parse(request: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The operation's name and its arguments (``null`` counts as absent), checked as the
    registry declares them: an unknown name or argument, or a bad value, is
    ``invalid_argument``."""
    name = request.get("operation")
    if not isinstance(name, str) or name not in OPERATIONS:
        raise PdfthinError(
            "invalid_argument",
            f"operation must be one of {', '.join(OPERATIONS)}"
            + (f"; got {shown(name)}" if name is not None else ""),
            operations=list(OPERATIONS),
        )
    if "document" not in request:
        raise PdfthinError("invalid_argument", f"{name} needs a document")
    rest = {key: value for key, value in request.items() if key not in ("operation", "document")}
    return name, BY_NAME[name].arguments(rest, takes=("document",))


def _within(deadline: Deadline | None, work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``work()``'s result, or ``timeout`` at ``deadline``. The work runs on its own thread
    under ``deadline`` and stops at its next check once the deadline is over (or cancelled
    here, when the answer could not wait for that check)."""
    if deadline is None:
        return work()
    future: Future[dict[str, Any]] = Future()

    def run() -> None:
        try:
            with applied(deadline):
                future.set_result(work())
        except BaseException as exc:
            future.set_exception(exc)

    threading.Thread(target=run, name="pdfthin-request", daemon=True).start()
    try:
        return future.result(timeout=deadline.remaining())
    except FutureTimeout:
        deadline.cancel()
        raise _timeout() from None
    except PdfthinError as exc:
        if exc.code == "timeout" and deadline.expired():  # the work noticed it first
            raise _timeout() from None
        raise


def _timeout() -> PdfthinError:
    return PdfthinError(
        "timeout",
        "the request did not finish in time; the work it started was stopped",
        retry_after_seconds=TIMEOUT_RETRY_SECONDS,
    )


# PDFTHIN_NATIVE=require where the accelerator cannot load stops the container at init with
# one line naming the host and the reason (docs/design.md, invariant 10), as a bad setting does.
require_native()
# A pypdf outside the tested range is one warning in the log at init (and in every
# describe_document answer's capabilities), never a silent change.
if (_pypdf_warning := pypdf_warning()) is not None:
    log.warning("%s", _pypdf_warning)

#: The container's application, created at init so that warm invocations share its caches.
APP = LambdaApp(Config.from_env())


def handler(event: Any, context: Any) -> Any:
    """The Lambda entry point."""
    return APP(event, context)
