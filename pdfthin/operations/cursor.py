"""Opaque, self-contained cursors.

A cursor is URL-safe base64 of a compressed, versioned JSON payload followed by a tag. It
carries what is needed to resume: the operation, the document fingerprint, the OCR mode, a
digest of the arguments that define the result set (the page selection among them) and the
position in that result set, so any process with the same configuration can continue it. The
selection itself is not carried: the caller passes the same arguments again (the digest binds
the cursor to them), so a cursor stays short whatever the selection (every other page of a
10,000-page selection included). It never carries a path: the caller passes the document again
and the fingerprint must match, so a cursor can never widen access.

The tag (:func:`seal`): without a key, a BLAKE2b checksum that catches accidental corruption
(a truncated or mistyped cursor), not forgery: anyone can recompute it, so an edited cursor
with a fresh checksum is read as a position in the same result set (it can only move where
reading resumes in the document the caller passed, and every field is validated as untrusted
input). With a deployment secret (``PDFTHIN_CURSOR_KEY``) the tag is HMAC-SHA256: an edited
cursor, or one issued under another key or none, is ``invalid_cursor``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pdfthin.errors import PdfthinError

VERSION = 2
#: The longest cursor accepted; every cursor issued is shorter (the tests check adversarial
#: selections), so a cursor the server issues is always one it accepts.
MAX_CURSOR_CHARS = 4096
#: The environment variable holding the deployment secret that keys cursors.
KEY_ENV = "PDFTHIN_CURSOR_KEY"
#: A secret shorter than this (bytes of UTF-8) is refused: it would be guessable.
MIN_KEY_BYTES = 16
#: Unkeyed: a BLAKE2b checksum of this many bytes (accidental corruption only).
_CHECK_BYTES = 6
#: Keyed: HMAC-SHA256 truncated to this many bytes (128 bits).
_TAG_BYTES = 16
#: What a key signs besides the payload, so the same secret keys nothing else the same way.
_HMAC_DOMAIN = b"pdfthin cursor\x00"
#: The largest decompressed payload read from a cursor.
_MAX_PAYLOAD_BYTES = 65_536
#: The largest position or offset a cursor may carry.
_MAX_POSITION = 10**9
#: An ``extra`` field: a few short keys, each with a string value of bounded length.
_MAX_EXTRA_KEYS = 4
MAX_EXTRA_CHARS = 2_600
_HEX = re.compile(r"^[0-9a-f]{8,64}$")
_EXTRA_KEY = re.compile(r"^[a-z]{1,4}$")
_OPS = frozenset(
    {"read", "find", "section", "toc", "images", "chunks", "annotations", "fields", "diff"}
)


@dataclass(frozen=True)
class Cursor:
    op: str
    fingerprint: str  # a prefix of the document's SHA-256 (hex)
    ocr: bool
    args: str  # digest of the arguments that define the result set (the selection included)
    #: Where the result set resumes: the position in the page selection (``read``,
    #: ``images``), the page number (``find``), the section's index (``toc``); 0 otherwise.
    index: int = 0
    offset: int = 0  # position inside that page or section (characters or match index)
    page_hash: str | None = None  # text fingerprint of that page when ``offset`` > 0
    extra: dict[str, str] | None = None  # operation-specific state (e.g. OCR coverage)


def fingerprint_prefix(fingerprint: str) -> str:
    return fingerprint[:16]


def args_digest(**args: Any) -> str:
    """A short digest of the arguments that define a result set."""
    raw = json.dumps(args, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.blake2b(raw.encode(), digest_size=6).hexdigest()


def text_hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=6).hexdigest()


# --- the deployment secret ------------------------------------------------------------------


def key_from_env(environ: Mapping[str, str] | None = None) -> bytes | None:
    """The cursor key ``PDFTHIN_CURSOR_KEY`` holds (surrounding white space ignored), or
    ``None`` when it is unset or empty. A key shorter than :data:`MIN_KEY_BYTES` raises
    ``ValueError`` naming the variable: a deployment must not run with a guessable key."""
    env = os.environ if environ is None else environ
    return parse_key(env.get(KEY_ENV, ""))


def parse_key(text: str | bytes | None) -> bytes | None:
    if text is None:
        return None
    key = text.strip() if isinstance(text, bytes) else text.strip().encode("utf-8")
    if not key:
        return None
    if len(key) < MIN_KEY_BYTES:
        raise ValueError(f"{KEY_ENV} must be at least {MIN_KEY_BYTES} bytes long")
    return key


# --- sealing ----------------------------------------------------------------------------------


def _tag(body: bytes, key: bytes | None) -> bytes:
    if key is None:
        return hashlib.blake2b(body, digest_size=_CHECK_BYTES).digest()
    return hmac.new(key, _HMAC_DOMAIN + body, hashlib.sha256).digest()[:_TAG_BYTES]


def seal(payload: Mapping[str, Any], key: bytes | None) -> str:
    """``payload`` as a cursor string: compact JSON, compressed, tagged, URL-safe base64."""
    raw = json.dumps(payload, separators=(",", ":"), sort_keys=True, ensure_ascii=True).encode()
    body = zlib.compress(raw, 9)
    return base64.urlsafe_b64encode(body + _tag(body, key)).decode("ascii").rstrip("=")


def unseal(token: Any, key: bytes | None, max_chars: int = MAX_CURSOR_CHARS) -> dict[str, Any]:
    """The payload of a cursor string; ``invalid_cursor`` for anything damaged, forged,
    issued under another key (or none), or not a JSON object."""
    if not isinstance(token, str) or not token or len(token) > max_chars:
        raise _bad("the cursor is not a cursor string")
    if not token.isascii():
        raise _bad("the cursor is not valid base64")
    try:
        blob = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (ValueError, TypeError):
        raise _bad("the cursor is not valid base64") from None
    size = _CHECK_BYTES if key is None else _TAG_BYTES
    if len(blob) <= size:
        raise _bad("the cursor is truncated")
    body, tag = blob[:-size], blob[-size:]
    if not hmac.compare_digest(_tag(body, key), tag):
        if key is None:
            raise _bad("the cursor is damaged (checksum mismatch)")
        raise _bad("the cursor was not issued by this deployment, or it was changed")
    try:
        decompressor = zlib.decompressobj()
        raw = decompressor.decompress(body, _MAX_PAYLOAD_BYTES)
        if decompressor.unconsumed_tail:
            raise ValueError("too long")
        payload = json.loads(raw)
    except (zlib.error, ValueError, UnicodeDecodeError, RecursionError):
        raise _bad("the cursor payload cannot be read") from None
    if not isinstance(payload, dict):
        raise _bad("the cursor payload is not an object")
    return payload


# --- document cursors -------------------------------------------------------------------------


#: What zlib adds to a payload it stores uncompressed: its header, one stored block's header
#: and the Adler-32 check. Deflate keeps a block stored when coding would make it longer, so a
#: compressed payload is never longer than this more than the payload.
_ZLIB_STORED_OVERHEAD = 2 + 5 + 4


def encode(cursor: Cursor, key: bytes | None = None) -> str:
    token = seal(_payload(cursor), key)
    if len(token) > MAX_CURSOR_CHARS:  # every field is bounded: a bug, never the input's fault
        raise ValueError(f"a cursor of {len(token)} characters was about to be issued")
    return token


def longest_encoding(cursor: Cursor, key: bytes | None = None) -> int:
    """The length of ``cursor`` encoded, at most, whatever its compression does: a bound
    for every cursor whose fields are no longer (a budget keeps room for it before the cursor
    is known; a field's compressed length depends on its value)."""
    raw = len(json.dumps(_payload(cursor), separators=(",", ":"), sort_keys=True).encode())
    sealed = raw + _ZLIB_STORED_OVERHEAD + (_CHECK_BYTES if key is None else _TAG_BYTES)
    return -(-sealed * 4 // 3)  # base64 without padding


def _payload(cursor: Cursor) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "v": VERSION,
        "o": cursor.op,
        "f": cursor.fingerprint,
        "r": 1 if cursor.ocr else 0,
        "a": cursor.args,
    }
    if cursor.index:
        payload["i"] = cursor.index
    if cursor.offset:
        payload["n"] = cursor.offset
    if cursor.page_hash:
        payload["h"] = cursor.page_hash
    if cursor.extra:
        payload["x"] = cursor.extra
    return payload


def _bad(message: str) -> PdfthinError:
    return PdfthinError("invalid_cursor", message)


def _position(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < _MAX_POSITION:
        raise _bad(f"the cursor's {what} is malformed")
    return value


def decode(token: Any, key: bytes | None = None) -> Cursor:
    """Parse and validate a cursor; ``invalid_cursor`` for anything damaged or forged."""
    payload = unseal(token, key)
    if payload.get("v") != VERSION:
        raise _bad("the cursor was issued by another version of pdfthin; start again without it")
    op = payload.get("o")
    fp = payload.get("f")
    ocr = payload.get("r")
    args = payload.get("a")
    page_hash = payload.get("h")
    extra = payload.get("x")
    if op not in _OPS:
        raise _bad("the cursor names an unknown operation")
    if not isinstance(fp, str) or not _HEX.match(fp):
        raise _bad("the cursor's document fingerprint is malformed")
    if ocr not in (0, 1) or isinstance(ocr, bool):
        raise _bad("the cursor's OCR mode is malformed")
    if not isinstance(args, str) or not _HEX.match(args):
        raise _bad("the cursor's argument digest is malformed")
    index = _position(payload.get("i", 0), "position")
    offset = _position(payload.get("n", 0), "offset")
    if page_hash is not None and (not isinstance(page_hash, str) or not _HEX.match(page_hash)):
        raise _bad("the cursor's page fingerprint is malformed")
    if extra is not None and (
        not isinstance(extra, dict)
        or len(extra) > _MAX_EXTRA_KEYS
        or not all(
            isinstance(k, str)
            and _EXTRA_KEY.match(k)
            and isinstance(v, str)
            and len(v) <= MAX_EXTRA_CHARS
            for k, v in extra.items()
        )
    ):
        raise _bad("the cursor's extra state is malformed")
    return Cursor(op, fp, ocr == 1, args, index, offset, page_hash, extra)


def check(cursor: Cursor, *, op: str, fingerprint: str, ocr: bool, args: str) -> None:
    """Refuse a cursor issued for another operation, document, OCR mode or arguments."""
    if cursor.op != op:
        raise _bad(f"the cursor belongs to the {cursor.op!r} operation, not {op!r}")
    if cursor.fingerprint != fingerprint_prefix(fingerprint):
        raise _bad("the cursor belongs to another document")
    if cursor.ocr != ocr:
        raise _bad("the cursor was issued with another OCR mode")
    if cursor.args != args:
        raise _bad("the cursor was issued for other arguments")


def resume_at(cursor: Cursor, length: int) -> int:
    """The cursor's position in a result set of ``length`` items, checked."""
    if not cursor.index < length:
        raise _bad("the cursor points past the end of the result set")
    return cursor.index
