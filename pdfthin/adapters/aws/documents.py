"""The ``document`` of a request: ``{"base64": "..."}`` or ``{"s3": {"bucket", "key",
"version_id"?}}``, turned into bytes.

S3 is this adapter's sandbox: only the configured buckets (and key prefixes) are read, an object
larger than the limit is refused from its HEAD before any byte is downloaded, and the download
itself asks for at most limit + 1 bytes and stops there. boto3 (part of the Lambda runtime, not a
dependency of pdfthin) is imported on the first S3 request only, so base64 requests and cold
starts never pay for it.

An S3 document is an opened source (``pdfthin/operations/source.py``) whose identity is its
bucket, key and version (or ETag): the operations look the document up by it and download the
object only when they need its bytes. A warm container keeps the bytes of the last few objects
too: a versioned request (``version_id``) is then answered without calling S3 at all, an
unversioned one with a HEAD whose ETag shows the object is unchanged.
"""

from __future__ import annotations

import base64
import binascii
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from pdfthin.deadline import current
from pdfthin.errors import PdfthinError
from pdfthin.operations.params import text_argument

if TYPE_CHECKING:
    from pdfthin.adapters.aws.config import Config

#: Retry hint when S3 is throttling or unreachable.
S3_RETRY_SECONDS = 1
_CHUNK = 1024 * 1024
_NOT_FOUND = frozenset(
    {"NoSuchKey", "NoSuchBucket", "NoSuchVersion", "NotFound", "AccessDenied", "Forbidden"}
)


class Documents:
    def __init__(self, config: Config) -> None:
        self.config = config
        self._client: Any = None
        self._lock = threading.Lock()
        self._bytes: OrderedDict[tuple[str, str, str], bytes] = OrderedDict()

    def load(self, spec: Any) -> bytes | S3Object:
        if not isinstance(spec, dict) or len(spec) != 1 or not {"s3", "base64"} & set(spec):
            raise PdfthinError(
                "invalid_argument",
                'document must be {"base64": "<the PDF, base64-encoded>"} or '
                '{"s3": {"bucket": "...", "key": "...", "version_id": "..." (optional)}}',
            )
        if "base64" in spec:
            return self._base64(spec["base64"])
        return self._s3(spec["s3"])

    # --- base64 ---------------------------------------------------------------------------------

    def _base64(self, text: Any) -> bytes:
        if not isinstance(text, str):
            raise PdfthinError("invalid_argument", "document.base64 must be a string")
        # The text arrived in the request (at most 6 MB on Lambda), so decoding it costs little;
        # line-wrapped base64 (as `base64` prints it) is accepted.
        try:
            data = base64.b64decode("".join(text.split()), validate=True)
        except (binascii.Error, ValueError):
            raise PdfthinError("invalid_argument", "document.base64 is not valid base64") from None
        if len(data) > self.config.max_file_bytes:
            raise _too_large(len(data), self.config.max_file_bytes)
        return data

    # --- S3 -------------------------------------------------------------------------------------

    def _s3(self, spec: Any) -> S3Object:
        bucket, key, version = _s3_location(spec)
        if not self.config.buckets:
            raise PdfthinError(
                "outside_root",
                f"s3://{bucket}/{key}: this function reads no S3 bucket (PDFTHIN_S3_BUCKETS "
                "is empty; deploy it with DocumentBucket set), only documents sent as base64",
                bucket=bucket,
                key=key,
            )
        if not any(allowed.allows(bucket, key) for allowed in self.config.buckets):
            raise PdfthinError(
                "outside_root",
                f"s3://{bucket}/{key} is outside the buckets this function may read",
                bucket=bucket,
                key=key,
            )
        found = S3Object(self, bucket, key, version)
        if version is not None:
            cached = self._cached(found.cache_key)
            if cached is not None:
                found.size = len(cached)
                return found
        self._head(found)
        return found

    def _head(self, found: S3Object) -> None:
        """The object's size and ETag, from a HEAD; ``too_large`` before any download."""
        head = self._call(self._s3_client().head_object, found.bucket, found.key, found.version)
        found.size = int(head.get("ContentLength", 0))
        found.etag = str(head.get("ETag", ""))
        if found.size > self.config.max_file_bytes:
            raise _too_large(
                found.size, self.config.max_file_bytes, bucket=found.bucket, key=found.key
            )

    def _fetch(self, found: S3Object) -> bytes:
        """The object's bytes: kept from an earlier request, or downloaded (and, when the
        object changed since its HEAD, HEAD and download once more)."""
        for attempt in range(2):
            if attempt:
                self._head(found)
            cached = self._cached(found.cache_key)
            if cached is not None:
                return cached
            data = self._download(
                self._s3_client(), found.bucket, found.key, found.version, found.etag, found.size
            )
            if data is not None:
                self._remember(found.cache_key, data)
                return data
        raise PdfthinError(
            "busy",
            f"s3://{found.bucket}/{found.key} changed while it was being read; retry",
            retry_after_seconds=S3_RETRY_SECONDS,
        )

    def _download(
        self, client: Any, bucket: str, key: str, version: str | None, etag: str, size: int
    ) -> bytes | None:
        """The object's bytes, or ``None`` when it changed since its HEAD (ETag mismatch)."""
        if size == 0:
            return b""  # S3 refuses a range on an empty object; the engine says not_a_pdf
        limit = self.config.max_file_bytes
        # At most limit + 1 bytes are asked for, and the object read is the one whose size
        # was checked (If-Match on its ETag).
        extra: dict[str, Any] = {"Range": f"bytes=0-{limit}"}
        if etag:
            extra["IfMatch"] = etag
        chunks: list[bytes] = []
        total = 0
        try:
            with _s3_errors(bucket, key, version):
                body = self._call(client.get_object, bucket, key, version, **extra)["Body"]
                try:
                    while chunk := body.read(_CHUNK):
                        current().check()  # a request out of time stops downloading
                        total += len(chunk)
                        if total > limit:
                            # The object grew past the limit after its HEAD: stop reading.
                            raise _too_large(total, limit, bucket=bucket, key=key)
                        chunks.append(chunk)
                finally:
                    body.close()
        except _Changed:
            return None
        return b"".join(chunks)

    @staticmethod
    def _call(method: Any, bucket: str, key: str, version: str | None, **extra: Any) -> Any:
        kwargs: dict[str, Any] = {"Bucket": bucket, "Key": key, **extra}
        if version is not None:
            kwargs["VersionId"] = version
        with _s3_errors(bucket, key, version):
            return method(**kwargs)

    def _s3_client(self) -> Any:
        with self._lock:
            if self._client is None:
                try:
                    import boto3
                    from botocore.config import Config as BotoConfig
                except ImportError:
                    raise PdfthinError(
                        "unsupported",
                        "S3 documents need boto3, which the Lambda runtime provides; "
                        "it is not installed here",
                    ) from None
                self._client = boto3.client(
                    "s3",
                    config=BotoConfig(
                        retries={"max_attempts": 3, "mode": "standard"},
                        connect_timeout=5,
                        read_timeout=30,
                    ),
                )
            return self._client

    def _cached(self, key: tuple[str, str, str]) -> bytes | None:
        with self._lock:
            data = self._bytes.get(key)
            if data is not None:
                self._bytes.move_to_end(key)
            return data

    def _remember(self, key: tuple[str, str, str], data: bytes) -> None:
        with self._lock:
            self._bytes[key] = data
            while len(self._bytes) > self.config.cache_size:
                self._bytes.popitem(last=False)


class S3Object:
    """An S3 document before its download (an opened source): its identity is the version,
    or the ETag of its last HEAD."""

    cached_only = False

    def __init__(self, documents: Documents, bucket: str, key: str, version: str | None) -> None:
        self._documents = documents
        self.bucket = bucket
        self.key = key
        self.version = version
        self.etag = ""
        self.size = 0

    @property
    def cache_key(self) -> tuple[str, str, str]:
        marker = "v:" + self.version if self.version is not None else "e:" + self.etag
        return (self.bucket, self.key, marker)

    @property
    def identity(self) -> tuple[str, str, str] | None:
        if self.version is None and not self.etag:
            return None  # nothing names these bytes
        return self.cache_key

    def read(self) -> bytes:
        return self._documents._fetch(self)


class _Changed(Exception):
    """The object's ETag no longer matches its HEAD."""


@contextmanager
def _s3_errors(bucket: str, key: str, version: str | None) -> Iterator[None]:
    """S3's failures as envelope codes: missing or forbidden is ``not_found`` (without
    s3:ListBucket, S3 answers 403 for a missing key), throttling and outages are ``busy``."""
    from botocore.exceptions import BotoCoreError, ClientError, HTTPClientError
    from botocore.exceptions import ConnectionError as BotoConnectionError

    where = f"s3://{bucket}/{key}" + (f" (version {version})" if version else "")
    try:
        yield
    except ClientError as exc:
        code = str(exc.response.get("Error", {}).get("Code", ""))
        status = int(exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0))
        if code in ("PreconditionFailed", "412") or status == 412:
            raise _Changed from None
        if code in _NOT_FOUND or (400 <= status < 500 and status != 429):
            raise PdfthinError(
                "not_found",
                f"cannot read {where}: {code or status} (missing, or not readable by this "
                "function)",
                bucket=bucket,
                key=key,
                s3_error=code or str(status),
            ) from None
        raise PdfthinError(
            "busy",
            f"S3 did not answer for {where}: {code or status}; retry shortly",
            retry_after_seconds=S3_RETRY_SECONDS,
            s3_error=code or str(status),
        ) from None
    except (BotoConnectionError, HTTPClientError) as exc:
        raise PdfthinError(
            "busy",
            f"S3 is unreachable for {where} ({type(exc).__name__}); retry shortly",
            retry_after_seconds=S3_RETRY_SECONDS,
        ) from None
    except BotoCoreError as exc:
        # No credentials, no region, a bad endpoint: the deployment, not the request. Only
        # the type: botocore's text may name the deployment's files and endpoints.
        raise PdfthinError("internal", f"S3 is not usable here: {type(exc).__name__}") from None


def _s3_location(spec: Any) -> tuple[str, str, str | None]:
    if not isinstance(spec, dict) or not {"bucket", "key"} <= set(spec):
        raise PdfthinError(
            "invalid_argument", 'document.s3 must be {"bucket", "key", "version_id" (optional)}'
        )
    unknown = sorted(set(spec) - {"bucket", "key", "version_id"})
    if unknown:
        raise PdfthinError(
            "invalid_argument",
            f"document.s3 has no field {', '.join(unknown)}; it takes bucket, key, version_id",
        )
    bucket, key, version = spec["bucket"], spec["key"], spec.get("version_id")
    if not isinstance(bucket, str) or not 3 <= len(bucket) <= 63:
        raise PdfthinError("invalid_argument", "document.s3.bucket must be a bucket name")
    if not isinstance(key, str) or not 1 <= len(key) <= 1024:
        raise PdfthinError("invalid_argument", "document.s3.key must be 1 to 1024 characters")
    if version is not None and (not isinstance(version, str) or not 1 <= len(version) <= 1024):
        raise PdfthinError("invalid_argument", "document.s3.version_id must be a string")
    # Unicode text without controls: S3 could not be asked for anything else.
    text_argument(bucket, "document.s3.bucket", 63)
    text_argument(key, "document.s3.key", 1024)
    if version is not None:
        text_argument(version, "document.s3.version_id", 1024)
    return bucket, key, version


def _too_large(size: int, limit: int, **details: Any) -> PdfthinError:
    return PdfthinError(
        "too_large",
        f"the document is {size} bytes; this function reads at most {limit}",
        size=size,
        limit=limit,
        **details,
    )
