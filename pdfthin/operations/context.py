"""What the handlers share: the document cache, the OCR binding, limits and defaults.

Handlers are stateless functions of ``(context, request)``; the context holds only caches and
configuration, so any process given the same request (cursor included) gives the same answer.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..engine import Limits, fingerprint, open_pdf, read_source
from ..engine.gcpause import collection_paused
from ..errors import PdfthinError
from ..model import Document, DocumentCache, build_document
from .cursor import key_from_env

#: Default response budget in characters: about 10k tokens, well under the 25k-token limit
#: many agent hosts put on one tool result.
DEFAULT_MAX_CHARS = 40_000
MIN_MAX_CHARS = 1_000
MAX_MAX_CHARS = 5_000_000
DEFAULT_CACHE_SIZE = 2
BUSY_RETRY_SECONDS = 2

Source = str | os.PathLike[str] | bytes
#: Characters no text argument holds: NUL and the other controls but tab and line breaks.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


@dataclass
class Context:
    cache: DocumentCache = field(default_factory=lambda: DocumentCache(DEFAULT_CACHE_SIZE))
    limits: Limits = field(default_factory=Limits)
    default_max_chars: int = DEFAULT_MAX_CHARS
    #: An :class:`pdfthin.ocr.OcrBinding`, or ``None`` (OCR unavailable).
    ocr: Any = None
    #: Called as ``progress(done, total)`` while a document is being extracted.
    progress: Callable[[int, int], None] | None = None
    #: At most this many extractions at once (servers); one more is refused with ``busy``.
    #: Cached documents are served whatever the extractions in flight.
    max_extractions: int | None = None
    #: The deployment secret that keys cursors (HMAC-SHA256), or ``None`` for a checksum that
    #: only catches corruption; by default ``PDFTHIN_CURSOR_KEY`` (see operations/cursor.py).
    #: Processes that continue each other's cursors need the same key.
    cursor_key: bytes | None = field(default_factory=key_from_env, repr=False)
    _slots: threading.BoundedSemaphore | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.max_extractions is not None:
            if self.max_extractions < 1:
                raise PdfthinError("invalid_argument", "max_extractions must be at least 1")
            self._slots = threading.BoundedSemaphore(self.max_extractions)

    def document(self, source: Source, password: str | None = None) -> Document:
        """The built document for ``source``: from the cache when its bytes were seen before,
        otherwise extracted once, in full."""
        data = read_source(source, self.limits)
        key = fingerprint(data)

        def build() -> Document:
            slots = self._slots
            if slots is not None and not slots.acquire(blocking=False):
                raise PdfthinError(
                    "busy",
                    f"{self.max_extractions} documents are being extracted already; retry shortly",
                    retry_after_seconds=BUSY_RETRY_SECONDS,
                )
            try:
                with collection_paused():  # see pdfthin/engine/gcpause.py
                    engine = open_pdf(data, password=password, limits=self.limits)
                    try:
                        return build_document(engine, progress=self.progress)
                    finally:
                        engine.close()
            finally:
                if slots is not None:
                    slots.release()

        doc = self.cache.get(key)
        if doc is not None:
            return doc
        return self.cache.get_or_build(key, build)


_default: Context | None = None
_default_lock = threading.Lock()


def default_context() -> Context:
    global _default
    with _default_lock:
        if _default is None:
            _default = Context()
        return _default


def budget(max_chars: Any, context: Context) -> int:
    if max_chars is None:
        return context.default_max_chars
    if isinstance(max_chars, bool) or not isinstance(max_chars, int):
        raise PdfthinError("invalid_argument", "max_chars must be an integer")
    if not MIN_MAX_CHARS <= max_chars <= MAX_MAX_CHARS:
        raise PdfthinError(
            "invalid_argument",
            f"max_chars must be between {MIN_MAX_CHARS} and {MAX_MAX_CHARS}",
            max_chars=max_chars,
        )
    return max_chars


def positive_int(value: Any, name: str, default: int, maximum: int) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise PdfthinError(
            "invalid_argument", f"{name} must be an integer from 1 to {maximum}", **{name: value}
        )
    return value


def text_argument(value: Any, name: str, maximum: int) -> str:
    """A non-empty string argument of at most ``maximum`` characters that is Unicode text: no
    lone surrogate (no transport can encode it, and it would come back in the answer) and no
    NUL or other control character but white space."""
    if not isinstance(value, str) or not value.strip():
        raise PdfthinError("invalid_argument", f"{name} must be a non-empty string")
    if len(value) > maximum:
        raise PdfthinError("invalid_argument", f"{name} is longer than {maximum} characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise PdfthinError(
            "invalid_argument", f"{name} is not Unicode text (it holds a lone surrogate)"
        ) from None
    if _CONTROL.search(value):
        raise PdfthinError("invalid_argument", f"{name} holds a control character (NUL, ...)")
    return value


def flag(value: Any, name: str, default: bool = False) -> bool:
    if value is None:
        return default
    if not isinstance(value, bool):
        raise PdfthinError("invalid_argument", f"{name} must be true or false")
    return value
