"""Opaque, self-contained cursors.

A cursor is URL-safe base64 of a compact, versioned JSON payload followed by a checksum. It
carries everything needed to resume (the operation, the document fingerprint, the OCR mode,
a digest of the arguments that define the result set, the remaining page selection and the
position), so any process can continue it. It never carries a path: the caller passes the
document again and the fingerprint must match, so a cursor can never widen access.

Every field is validated on decode as untrusted input.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import zlib
from dataclasses import dataclass
from typing import Any

from ..errors import PdfthinError
from ..pages import format_pages

VERSION = 1
_CHECK_BYTES = 6
_MAX_CURSOR_CHARS = 4096
_SPEC = re.compile(r"^(?:\d{1,7}(?:-\d{1,7})?)(?:,\d{1,7}(?:-\d{1,7})?)*$")
_HEX = re.compile(r"^[0-9a-f]{8,64}$")
_OPS = frozenset({"read", "find", "section", "toc", "images"})


@dataclass(frozen=True)
class Cursor:
    op: str
    fingerprint: str  # a prefix of the document's SHA-256 (hex)
    ocr: bool
    args: str  # digest of the arguments that define the result set
    remaining: tuple[int, ...]  # pages still to visit, in order; the first is ``page``
    offset: int = 0  # position inside the first remaining page (characters or match index)
    page_hash: str | None = None  # text fingerprint of that page when ``offset`` > 0
    extra: dict[str, Any] | None = None  # operation-specific state (e.g. OCR coverage)

    @property
    def page(self) -> int:
        return self.remaining[0]


def fingerprint_prefix(fingerprint: str) -> str:
    return fingerprint[:16]


def args_digest(**args: Any) -> str:
    """A short digest of the arguments that define a result set."""
    raw = json.dumps(args, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.blake2b(raw.encode(), digest_size=6).hexdigest()


def text_hash(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


def expand_pages(spec: str) -> tuple[int, ...]:
    pages: list[int] = []
    for part in spec.split(","):
        first, _, last = part.partition("-")
        lo = int(first)
        hi = int(last) if last else lo
        if lo < 1 or hi < lo or hi - lo > 1_000_000 or len(pages) > 1_000_000:
            raise ValueError("bad range")
        pages.extend(range(lo, hi + 1))
    return tuple(pages)


def encode(cursor: Cursor) -> str:
    payload: dict[str, Any] = {
        "v": VERSION,
        "o": cursor.op,
        "f": cursor.fingerprint,
        "r": 1 if cursor.ocr else 0,
        "a": cursor.args,
        "p": format_pages(list(cursor.remaining)),
    }
    if cursor.offset:
        payload["n"] = cursor.offset
    if cursor.page_hash:
        payload["h"] = cursor.page_hash
    if cursor.extra:
        payload["x"] = cursor.extra
    raw = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
    body = zlib.compress(raw, 9)
    check = hashlib.blake2b(body, digest_size=_CHECK_BYTES).digest()
    return base64.urlsafe_b64encode(body + check).decode().rstrip("=")


def _bad(message: str) -> PdfthinError:
    return PdfthinError("invalid_cursor", message)


def decode(token: Any) -> Cursor:
    """Parse and validate a cursor; ``invalid_cursor`` for anything damaged or forged."""
    if not isinstance(token, str) or not token or len(token) > _MAX_CURSOR_CHARS:
        raise _bad("the cursor is not a cursor string")
    try:
        blob = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (ValueError, TypeError):
        raise _bad("the cursor is not valid base64") from None
    if len(blob) <= _CHECK_BYTES:
        raise _bad("the cursor is truncated")
    body, check = blob[:-_CHECK_BYTES], blob[-_CHECK_BYTES:]
    if hashlib.blake2b(body, digest_size=_CHECK_BYTES).digest() != check:
        raise _bad("the cursor is damaged (checksum mismatch)")
    try:
        decompressor = zlib.decompressobj()
        raw = decompressor.decompress(body, 65_536)
        if decompressor.unconsumed_tail:
            raise ValueError("too long")
        payload = json.loads(raw)
    except (zlib.error, ValueError, UnicodeDecodeError):
        raise _bad("the cursor payload cannot be read") from None
    if not isinstance(payload, dict):
        raise _bad("the cursor payload is not an object")
    if payload.get("v") != VERSION:
        raise _bad(f"unsupported cursor version {payload.get('v')!r}")
    op = payload.get("o")
    fp = payload.get("f")
    ocr = payload.get("r")
    args = payload.get("a")
    spec = payload.get("p")
    offset = payload.get("n", 0)
    page_hash = payload.get("h")
    extra = payload.get("x")
    if op not in _OPS:
        raise _bad("the cursor names an unknown operation")
    if not isinstance(fp, str) or not _HEX.match(fp):
        raise _bad("the cursor's document fingerprint is malformed")
    if ocr not in (0, 1):
        raise _bad("the cursor's OCR mode is malformed")
    if not isinstance(args, str) or not _HEX.match(args):
        raise _bad("the cursor's argument digest is malformed")
    if not isinstance(spec, str) or not _SPEC.match(spec):
        raise _bad("the cursor's page selection is malformed")
    if not isinstance(offset, int) or isinstance(offset, bool) or not 0 <= offset < 10**9:
        raise _bad("the cursor's offset is malformed")
    if page_hash is not None and (not isinstance(page_hash, str) or not _HEX.match(page_hash)):
        raise _bad("the cursor's page fingerprint is malformed")
    if extra is not None and not isinstance(extra, dict):
        raise _bad("the cursor's extra state is malformed")
    try:
        remaining = expand_pages(spec)
    except ValueError:
        raise _bad("the cursor's page selection is malformed") from None
    if not remaining:
        raise _bad("the cursor has no pages left")
    return Cursor(op, fp, ocr == 1, args, remaining, offset, page_hash, extra)


def check(
    cursor: Cursor, *, op: str, fingerprint: str, ocr: bool, args: str, page_count: int
) -> None:
    """Refuse a cursor issued for another operation, document, OCR mode or arguments."""
    if cursor.op != op:
        raise _bad(f"the cursor belongs to the {cursor.op!r} operation, not {op!r}")
    if cursor.fingerprint != fingerprint_prefix(fingerprint):
        raise _bad("the cursor belongs to another document")
    if cursor.ocr != ocr:
        raise _bad("the cursor was issued with another OCR mode")
    if cursor.args != args:
        raise _bad("the cursor was issued for other arguments")
    if max(cursor.remaining) > page_count:
        raise _bad("the cursor names pages beyond the end of the document")
