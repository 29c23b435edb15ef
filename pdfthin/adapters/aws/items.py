"""One item of a Step Functions Distributed Map: one S3 document read into one output object.

The event (``{"batch_item": {...}}``, told apart from requests and HTTP events by that one
key: :func:`pdfthin.adapters.aws.events.kind_of`)::

    {"batch_item": {
        "source": {"bucket": "docs", "key": "in/a/b.pdf", "version_id": null,
                   "prefix": "in/", "key_encoding": null},
        "output": {"bucket": "results", "prefix": "run/"},
        "format": "chunks", "pages": null, "max_tokens": null, "stitch": null,
        "timeout_seconds": null}}

The document is read through the adapter's S3 sandbox (``PDFTHIN_S3_BUCKETS``) and done by
the batch's own work (:func:`pdfthin.batch.work.process`), so the object written is what
``pdfthin batch`` writes for that file: ``run/a/b.chunks.jsonl`` (or ``.md``), the name
relative to ``source.prefix`` with ``.pdf`` replaced. It may only be written inside
``PDFTHIN_S3_OUTPUT``. The answer is the document's manifest record (as in ``pdfthin
batch``'s ``manifest.jsonl``) with the object written::

    {"source": "a/b.pdf", "status": "ok", "fingerprint": "...", "options": "...",
     "page_count": 6, "page_statuses": {"text": 6}, "needs_ocr": "",
     "output": {"bucket": "results", "key": "run/a/b.chunks.jsonl", "bytes": 12345}}

A key that is not a ``*.pdf`` (any case; a folder marker), or not under ``source.prefix`` (an
inventory lists the whole bucket), is answered ``ignored`` without reading it, as a folder walk
passes it over. ``key_encoding: "url"``: the key is URL-encoded, as S3 inventory reports are.

A rerun skips a document whose output object was made from the same source object (its
version, or its ETag) with the same options (their digest, which names pdfthin's version):
the answer is the kept record with ``status: "skipped"``, as ``pdfthin batch`` resumes. The
output object carries both in its metadata (``pdfthin-source``, ``pdfthin-record``), so the
function reads (HEADs) its own output prefix too.

A failure is raised, not answered: Step Functions sees the exception's class name as the
``Error`` (:data:`ERROR_NAMES`; the message starts with the envelope's code), so the Map's
Retry retries :data:`RETRYABLE` only, and a bad document fails its item at once and counts
toward the tolerated failures.

Bounds: the item stops (``PdfthinTimeout``) a margin before Lambda's deadline, sooner with
``timeout_seconds``; the output is written to /tmp and refused past ``PDFTHIN_MAX_OUTPUT_BYTES``
(``PdfthinBadDocument``, ``too_large``); the document, past ``PDFTHIN_MAX_FILE_BYTES``; the
memory is the function's (the batch's worker holds one document at a time).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from pdfthin.errors import PdfthinError
from pdfthin.operations.params import text_argument

if TYPE_CHECKING:
    from pdfthin.adapters.aws.config import Bucket
    from pdfthin.batch.records import Format
    from pdfthin.deadline import Deadline

#: The event's one key.
ITEM_KEY = "batch_item"
#: The formats an item writes (one object per document; ``jsonl`` is ``pdfthin batch``'s
#: single-file form).
ITEM_FORMATS = ("chunks", "markdown")
#: Seconds kept back from the item's time for the upload after the document is read.
UPLOAD_RESERVE_SECONDS = 5.0
_CONTENT_TYPES = {"chunks": "application/x-ndjson", "markdown": "text/markdown; charset=utf-8"}

#: The ``Error`` Step Functions sees for each envelope code.
ERROR_NAMES: dict[str, str] = {
    # S3 throttled or unreachable, the object changed while read: retry.
    "busy": "PdfthinBusy",
    # The item's time ran out (a cold or crowded container may be why): retry, once.
    "timeout": "PdfthinTimeout",
    # The document itself: retrying cannot help.
    "not_a_pdf": "PdfthinBadDocument",
    "malformed": "PdfthinBadDocument",
    "encrypted": "PdfthinBadDocument",
    "unsupported": "PdfthinBadDocument",
    "too_large": "PdfthinBadDocument",
    "not_found": "PdfthinBadDocument",
    # The item or the deployment: the event or the settings are wrong for every document.
    "invalid_argument": "PdfthinBadItem",
    "invalid_pages": "PdfthinBadItem",
    "invalid_cursor": "PdfthinBadItem",
    "stale_cursor": "PdfthinBadItem",
    "outside_root": "PdfthinBadItem",
    # A fault of pdfthin or of a missing part: a bug report, not a retry.
    "internal": "PdfthinInternal",
    "ocr_unavailable": "PdfthinInternal",
    "renderer_unavailable": "PdfthinInternal",
}
#: The error names a Map's Retry should retry (deploy/statemachine/*.asl.json).
RETRYABLE = ("PdfthinBusy", "PdfthinTimeout")


class ItemError(Exception):
    """A failed item: ``code`` is the envelope's; the class name is the ``Error``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


class PdfthinBusy(ItemError):
    pass


class PdfthinTimeout(ItemError):
    pass


class PdfthinBadDocument(ItemError):
    pass


class PdfthinBadItem(ItemError):
    pass


class PdfthinInternal(ItemError):
    pass


_CLASSES: dict[str, type[ItemError]] = {
    cls.__name__: cls
    for cls in (PdfthinBusy, PdfthinTimeout, PdfthinBadDocument, PdfthinBadItem, PdfthinInternal)
}


def item_error(code: str, message: str) -> ItemError:
    return _CLASSES[ERROR_NAMES.get(code, "PdfthinInternal")](code, message)


@dataclass(frozen=True)
class Item:
    """One item, checked: the object read, the name it goes by, where its output goes."""

    bucket: str
    key: str
    version_id: str | None
    prefix: str
    name: str
    output_bucket: str
    output_prefix: str
    format: Format
    pages: str | None
    max_tokens: int | None
    stitch: bool | None
    timeout_seconds: float | None


def parse_item(event: dict[str, Any]) -> Item:
    """The item of ``event``; a bad one is ``invalid_argument``."""
    body = event.get(ITEM_KEY)
    if not isinstance(body, dict) or set(event) != {ITEM_KEY}:
        raise PdfthinError(
            "invalid_argument",
            'a batch item is {"batch_item": {"source": {...}, "output": {...}, ...}} alone',
        )
    _known(
        body,
        "batch_item",
        ("source", "output", "format", "pages", "max_tokens", "stitch", "timeout_seconds"),
    )
    source = _object(body, "source")
    output = _object(body, "output")
    _known(source, "source", ("bucket", "key", "version_id", "prefix", "key_encoding"))
    _known(output, "output", ("bucket", "prefix"))
    bucket = _text(source, "source.bucket", 63, required=True) or ""
    key = _text(source, "source.key", 1024, required=True) or ""
    encoding = source.get("key_encoding")
    if encoding not in (None, "url"):
        raise PdfthinError("invalid_argument", 'source.key_encoding must be "url" or null')
    if encoding == "url":  # S3 inventory reports list keys URL-encoded
        key = _url_decoded(key)
    prefix = _text(source, "source.prefix", 1024) or ""
    name = key[len(prefix) :] if key.startswith(prefix) else key
    fmt = body.get("format") or "chunks"
    if fmt not in ITEM_FORMATS:
        raise PdfthinError("invalid_argument", f"format must be one of {', '.join(ITEM_FORMATS)}")
    from pdfthin.batch.run import check_options

    # An empty string is absent (a template parameter cannot be null).
    pages, max_tokens = body.get("pages") or None, body.get("max_tokens")
    stitch, seconds = body.get("stitch"), body.get("timeout_seconds")
    if pages is not None and not isinstance(pages, str):
        raise PdfthinError("invalid_argument", 'pages must be a string like "1-3,7" or null')
    if stitch is not None and not isinstance(stitch, bool):
        raise PdfthinError("invalid_argument", "stitch must be true, false or null")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int | float)):
        raise PdfthinError("invalid_argument", "timeout_seconds must be a number of seconds")
    check_options(fmt, pages, max_tokens, seconds)
    return Item(
        prefix=prefix,
        bucket=bucket,
        key=key,
        version_id=_text(source, "source.version_id", 1024),
        name=name,
        output_bucket=_text(output, "output.bucket", 63, required=True) or "",
        output_prefix=_text(output, "output.prefix", 1024) or "",
        format=cast("Format", fmt),
        pages=pages,
        max_tokens=max_tokens,
        stitch=stitch,
        timeout_seconds=None if seconds is None else float(seconds),
    )


def output_key(item: Item) -> str:
    """Where the item's output goes: its name as ``pdfthin batch`` names the file."""
    from pdfthin.batch.outputs import output_names
    from pdfthin.batch.sources import SourceFile

    names = output_names([SourceFile(item.name, "")], item.format)
    return item.output_prefix + names[item.name]


def run_item(app: Any, event: dict[str, Any], deadline: Deadline | None) -> dict[str, Any]:
    """Do the item of ``event`` with ``app``'s S3 sandbox; its record, or an :class:`ItemError`
    raised."""
    try:
        return _run(app, event, deadline)
    except ItemError:
        raise
    except Exception as exc:
        from pdfthin.operations import error_envelope

        error = error_envelope(exc)["error"]
        raise item_error(error["code"], error["message"]) from None


def _run(app: Any, event: dict[str, Any], deadline: Deadline | None) -> dict[str, Any]:
    from pdfthin.batch.records import Options
    from pdfthin.batch.sources import SourceFile
    from pdfthin.batch.work import Task, process

    item = parse_item(event)
    # A listing names every object (folder markers too), an inventory every object of the
    # bucket: what a folder walk would pass over is passed over, not failed.
    if not item.key.startswith(item.prefix):
        return {"source": item.key, "status": "ignored", "reason": "outside source.prefix"}
    if not item.key.lower().endswith(".pdf"):
        return {"source": item.name, "status": "ignored", "reason": "not a .pdf key"}
    key = output_key(item)
    _check_output(app.config.outputs, item.output_bucket, key)
    document = app.documents.load(
        {"s3": {"bucket": item.bucket, "key": item.key}}
        if item.version_id is None
        else {"s3": {"bucket": item.bucket, "key": item.key, "version_id": item.version_id}}
    )
    options = Options(
        format=item.format,
        pages=item.pages,
        max_tokens=item.max_tokens,
        stitch=item.stitch,
        timeout_seconds=_seconds(item.timeout_seconds, deadline),
    )
    # The source object as its HEAD named it: its version, or its ETag.
    made_from = document.version or document.etag
    kept = _still_good(app.documents, item.output_bucket, key, made_from, options.digest())
    if kept is not None:
        return {"source": item.name, **kept, "status": "skipped"}
    folder = tempfile.mkdtemp(prefix="pdfthin-item-")
    try:
        local = os.path.join(folder, "output")
        source = SourceFile(item.name, f"s3://{item.bucket}/{item.key}")
        result = process(Task(source, options, output=local, document=document))
        if result.error is not None:
            raise item_error(result.error.code, result.error.message)
        size = os.path.getsize(local)
        limit = app.config.max_output_bytes
        if size > limit:
            raise item_error(
                "too_large",
                f"the {item.format} of s3://{item.bucket}/{item.key} is {size} bytes; this "
                f"function writes at most {limit} (PDFTHIN_MAX_OUTPUT_BYTES)",
            )
        entry = result.manifest_entry(options.digest())
        entry["output"] = {"bucket": item.output_bucket, "key": key, "bytes": size}
        if deadline is not None:
            # Finished as the time ran out: the item was answered ``timeout`` (or is about
            # to be), so its output is not written after that answer.
            deadline.check()
        _upload(app.documents, local, item.format, entry, made_from)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    entry["seconds"] = round(result.seconds, 3)
    return entry


#: The record's fields kept in the output object's metadata, for a rerun to answer from.
_KEPT = ("fingerprint", "options", "page_count", "page_statuses", "needs_ocr", "output")
#: S3 keeps at most 2 KB of user metadata: a longer record is not kept (the rerun redoes it).
_MAX_METADATA = 1800


def _still_good(
    documents: Any, bucket: str, key: str, made_from: str, digest: str
) -> dict[str, Any] | None:
    """The record kept with the output at ``key`` when it was made from the same source
    object (version or ETag) with the same options: a rerun skips the document, as ``pdfthin
    batch`` skips a document whose output still stands. ``None``: (re)do it."""
    from pdfthin.adapters.aws.documents import _s3_errors

    if not made_from:
        return None
    client = documents._s3_client()
    try:
        with _s3_errors(bucket, key, None):
            head = client.head_object(Bucket=bucket, Key=key)
    except PdfthinError as exc:
        if exc.code == "not_found":  # nothing made yet (or not readable): make it
            return None
        raise
    meta = head.get("Metadata", {})
    if meta.get("pdfthin-source") != made_from:
        return None
    try:
        record = json.loads(meta.get("pdfthin-record", ""))
    except ValueError:
        return None
    if not isinstance(record, dict) or record.get("options") != digest:
        return None
    return {k: record[k] for k in _KEPT if k in record}


def _seconds(asked: float | None, deadline: Deadline | None) -> float | None:
    """The document's time: the item's own limit, and the invocation's time less the
    upload's reserve (at least a second)."""
    left = None if deadline is None else deadline.remaining()
    if left is not None:
        left = max(left - UPLOAD_RESERVE_SECONDS, 1.0)
    if asked is None:
        return left
    return asked if left is None else min(asked, left)


def _check_output(outputs: tuple[Bucket, ...], bucket: str, key: str) -> None:
    if not any(allowed.allows(bucket, key) for allowed in outputs):
        raise PdfthinError(
            "outside_root",
            f"s3://{bucket}/{key} is outside where this function may write (PDFTHIN_S3_OUTPUT"
            + (" is empty)" if not outputs else ")"),
        )


def _upload(documents: Any, path: str, fmt: str, entry: dict[str, Any], made_from: str) -> None:
    """The output written, with what a rerun needs to skip it (:func:`_still_good`): the
    source object it was made from and the document's record (ASCII JSON, as S3 metadata
    must be)."""
    from pdfthin.adapters.aws.documents import _s3_errors

    bucket, key = entry["output"]["bucket"], entry["output"]["key"]
    record = json.dumps({k: entry[k] for k in _KEPT}, separators=(",", ":"))
    meta = {"pdfthin-source": made_from}
    if len(record) <= _MAX_METADATA and made_from.isascii():
        meta["pdfthin-record"] = record
    client = documents._s3_client()
    with open(path, "rb") as body, _s3_errors(bucket, key, None):
        client.put_object(
            Bucket=bucket, Key=key, Body=body, ContentType=_CONTENT_TYPES[fmt], Metadata=meta
        )


def _known(spec: dict[str, Any], where: str, fields: tuple[str, ...]) -> None:
    unknown = sorted(set(spec) - set(fields))
    if unknown:
        raise PdfthinError(
            "invalid_argument",
            f"{where} has no field {', '.join(unknown)}; it takes {', '.join(fields)}",
        )


def _object(body: dict[str, Any], name: str) -> dict[str, Any]:
    value = body.get(name)
    if not isinstance(value, dict):
        raise PdfthinError("invalid_argument", f"batch_item.{name} must be an object")
    return value


def _text(spec: dict[str, Any], name: str, limit: int, *, required: bool = False) -> str | None:
    value = spec.get(name.rsplit(".", 1)[-1])
    if value is None or (value == "" and not required):
        if required:
            raise PdfthinError("invalid_argument", f"{name} is required")
        return None
    if not isinstance(value, str) or not value:
        raise PdfthinError("invalid_argument", f"{name} must be a non-empty string")
    text_argument(value, name, limit)
    return value


def _url_decoded(text: str) -> str:
    """``text`` with ``+`` as a space and ``%XX`` as its byte (UTF-8), as S3 inventory reports
    encode keys (``urllib.parse.unquote_plus``, which pdfthin may not import: invariant 8)."""
    raw = text.replace("+", " ").encode("utf-8")
    out = bytearray()
    i = 0
    while i < len(raw):
        hexa = raw[i + 1 : i + 3]
        if raw[i] == 0x25 and len(hexa) == 2 and all(c in b"0123456789abcdefABCDEF" for c in hexa):
            out.append(int(hexa, 16))
            i += 3
        else:
            out.append(raw[i])
            i += 1
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        raise PdfthinError("invalid_argument", "source.key is not URL-encoded UTF-8") from None
