"""The Lambda function's settings, from environment variables (read once, at init).

A bad value stops the container at init with a message naming the variable: a misconfigured
deployment should fail loudly on its first request, not answer wrongly for weeks.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from pdfthin.operations.context import DEFAULT_MAX_CHARS, MAX_CACHE_SIZE
from pdfthin.operations.cursor import key_from_env
from pdfthin.operations.params import MAX_MAX_CHARS, MIN_MAX_CHARS

#: Lambda's limit on a synchronous response is 6 MB (6,291,456 bytes); the runtime frames the
#: payload, so keep some room.
DEFAULT_PAYLOAD_LIMIT = 6_000_000
#: Documents larger than this are refused (S3 objects before download). Lower than the core's
#: 512 MiB default: a Lambda container has a fixed memory size and a time limit.
DEFAULT_MAX_FILE_BYTES = 100 * 1024 * 1024
#: Answer ``timeout`` this long before Lambda would kill the invocation, so the client gets an
#: envelope instead of a bare gateway error.
DEADLINE_MARGIN_SECONDS = 1.0
#: A batch item's output (one document's Markdown or chunks) larger than this is refused
#: (``too_large``) rather than uploaded: it is written to /tmp first, whose default size on
#: Lambda is 512 MB.
DEFAULT_MAX_OUTPUT_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class Bucket:
    """An S3 bucket documents may be read from, optionally only under a key prefix."""

    name: str
    prefix: str = ""

    def allows(self, bucket: str, key: str) -> bool:
        return bucket == self.name and key.startswith(self.prefix)


@dataclass(frozen=True)
class Config:
    buckets: tuple[Bucket, ...] = ()
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    default_max_chars: int = DEFAULT_MAX_CHARS
    cache_size: int = 2
    max_extractions: int = 1
    #: Answer ``timeout`` after this many seconds even if Lambda would allow more (API Gateway
    #: stops waiting after 29-30 s); ``None``: only Lambda's own deadline.
    timeout_seconds: float | None = None
    payload_limit: int = DEFAULT_PAYLOAD_LIMIT
    #: An OCR binding module or ``.py`` file (as ``pdfthin read --ocr``); ``None``: no OCR.
    ocr: str | None = None
    #: ``PDFTHIN_CURSOR_KEY``: the secret that keys cursors (every container of a function
    #: needs the same one to continue each other's cursors); ``None``: an unkeyed checksum.
    cursor_key: bytes | None = field(default=None, repr=False)
    #: ``PDFTHIN_S3_OUTPUT``: where batch items may write their outputs (bucket/prefix, as
    #: ``PDFTHIN_S3_BUCKETS``); empty: this function writes nothing.
    outputs: tuple[Bucket, ...] = ()
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Config:
        env = os.environ if environ is None else environ
        timeout = env.get("PDFTHIN_TIMEOUT_SECONDS", "").strip()
        return cls(
            buckets=parse_buckets(env.get("PDFTHIN_S3_BUCKETS", "")),
            max_file_bytes=_int(env, "PDFTHIN_MAX_FILE_BYTES", DEFAULT_MAX_FILE_BYTES, 1, 2**40),
            default_max_chars=_int(
                env, "PDFTHIN_DEFAULT_MAX_CHARS", DEFAULT_MAX_CHARS, MIN_MAX_CHARS, MAX_MAX_CHARS
            ),
            cache_size=_int(env, "PDFTHIN_CACHE_SIZE", 2, 1, MAX_CACHE_SIZE),
            max_extractions=_int(env, "PDFTHIN_MAX_EXTRACTIONS", 1, 1, 64),
            timeout_seconds=_seconds(timeout) if timeout else None,
            payload_limit=_int(env, "PDFTHIN_PAYLOAD_LIMIT", DEFAULT_PAYLOAD_LIMIT, 10_000, 2**31),
            ocr=env.get("PDFTHIN_OCR", "").strip() or None,
            cursor_key=key_from_env(env),
            outputs=parse_buckets(env.get("PDFTHIN_S3_OUTPUT", ""), "PDFTHIN_S3_OUTPUT"),
            max_output_bytes=_int(
                env, "PDFTHIN_MAX_OUTPUT_BYTES", DEFAULT_MAX_OUTPUT_BYTES, 1, 2**40
            ),
        )


def parse_buckets(value: str, variable: str = "PDFTHIN_S3_BUCKETS") -> tuple[Bucket, ...]:
    """``"docs, archive/reports/"``: bucket names, each optionally followed by ``/prefix``."""
    buckets = []
    for item in value.replace(",", " ").split():
        name, _, prefix = item.partition("/")
        if not 3 <= len(name) <= 63:
            raise ValueError(f"{variable}: {item!r} does not start with a bucket name")
        buckets.append(Bucket(name, prefix))
    return tuple(buckets)


def _int(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    text = env.get(name, "").strip().replace("_", "")
    if not text:
        return default
    if not (text.isascii() and text.isdecimal()) or not low <= int(text) <= high:
        raise ValueError(f"{name} must be an integer from {low} to {high}, not {text!r}")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 900:
        raise ValueError(f"PDFTHIN_TIMEOUT_SECONDS must be a number of seconds up to 900: {text!r}")
    return value
