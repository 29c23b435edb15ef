"""The composition root: the one module of the operations that opens documents (the engine,
then the model), and what the handlers share: the document cache, the OCR binding, limits
and defaults. The adapters configure the layers below through it (its ``__all__``) and
nothing else (``tests/test_layers.py``).

Handlers are stateless functions of ``(context, request)``; the context holds only caches and
configuration, so any process given the same request (cursor included) gives the same answer.

Getting a call's document (:meth:`Context.document`), in order:

1. an opened source (:mod:`.source`) is looked up by its identity, without reading a byte; any
   other source, or an identity not seen yet, is read — once for all the calls that want it at
   that moment, within the bytes allowed in flight (:mod:`.reads`) — and hashed;
2. the cache is asked by fingerprint; on a miss the document is opened and its profile made
   (once for every call that wants it, under an extraction slot, stopped when no caller has
   time left: :mod:`pdfthin.deadline`); its pages are built later, when a call asks for them
   (:mod:`pdfthin.model.document`), and kept in the page cache;
3. the caller's password is checked against the entry's keyring (docs/design.md, invariant 12,
   ``pdfthin/model/keyring.py``): a password the keyring does not know is tried on the file
   itself, exactly as a first call would open it, and remembered only if it opens it. So what
   a call gets never depends on what earlier calls gave.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from pdfthin.deadline import Deadline, Stop, current
from pdfthin.engine import (
    EngineDocument,
    Limits,
    NativeUnavailable,
    fingerprint,
    open_pdf,
    password_refused,
    pypdf_warning,
    read_source,
    require_native,
    select_native,
)
from pdfthin.engine.gcpause import collection_paused
from pdfthin.errors import PdfthinError
from pdfthin.model import Document, DocumentCache, build_document
from pdfthin.model.cache import MAX_SIZE as MAX_CACHE_SIZE
from pdfthin.model.cache import Cached
from pdfthin.model.keyring import Keyring
from pdfthin.model.pagecache import DEFAULT_PAGE_CACHE_BYTES, PageCache
from pdfthin.ocr.store import AgentTranscriptions, ResultDir
from pdfthin.operations.cursor import key_from_env
from pdfthin.operations.reads import DEFAULT_MAX_BYTES_IN_FLIGHT, Bytes, Reads
from pdfthin.operations.source import CachedOnly, Opened, PathFile

#: What the adapters configure of the layers below, through the composition root only
#: (tests/test_layers.py): the engine's limits and native switch, the cache.
__all__ = [
    "DEFAULT_PAGE_CACHE_BYTES",
    "MAX_CACHE_SIZE",
    "Context",
    "DocumentCache",
    "Limits",
    "NativeUnavailable",
    "PageCache",
    "Source",
    "default_context",
    "pypdf_warning",
    "require_native",
    "select_native",
]

#: Default response budget in characters: about 10k tokens, well under the 25k-token limit
#: many agent hosts put on one tool result.
DEFAULT_MAX_CHARS = 40_000
DEFAULT_CACHE_SIZE = 2
BUSY_RETRY_SECONDS = 2
#: Source identities remembered with their fingerprints (a few hundred bytes each).
MAX_IDENTITIES = 1024

Source = str | os.PathLike[str] | bytes | Opened


@dataclass
class Context:
    cache: DocumentCache = field(default_factory=lambda: DocumentCache(DEFAULT_CACHE_SIZE))
    limits: Limits = field(default_factory=Limits)
    default_max_chars: int = DEFAULT_MAX_CHARS
    #: An :class:`pdfthin.ocr.OcrBinding`, or ``None`` (OCR unavailable).
    ocr: Any = None
    #: The transcriptions agents submitted (``submit_transcription``): in memory, and in the
    #: directory ``PDFTHIN_OCR_CACHE_DIR`` names when it is set (:mod:`pdfthin.ocr.store`).
    transcriptions: AgentTranscriptions = field(
        default_factory=lambda: AgentTranscriptions(ResultDir.from_env())
    )
    #: Called as ``progress(done, total)`` while a document is being extracted.
    progress: Callable[[int, int], None] | None = None
    #: Called as ``ocr_progress(pages, page_count)`` before each batch of pages is sent to the
    #: OCR provider (a batch can take minutes: a terminal says which pages it waits on).
    ocr_progress: Callable[[list[int], int], None] | None = None
    #: At most this many documents opened (their profile made) at once (servers); one more is
    #: refused with ``busy``. Pages asked for later are built by the calls asking, one at a
    #: time per document.
    #: Cached documents are served whatever the extractions in flight.
    max_extractions: int | None = None
    #: File bytes held at once by this context's calls (see :mod:`.reads`).
    max_bytes_in_flight: int = DEFAULT_MAX_BYTES_IN_FLIGHT
    #: The deployment secret that keys cursors (HMAC-SHA256), or ``None`` for a checksum that
    #: only catches corruption; by default ``PDFTHIN_CURSOR_KEY`` (see operations/cursor.py).
    #: Processes that continue each other's cursors need the same key.
    cursor_key: bytes | None = field(default_factory=key_from_env, repr=False)
    _slots: threading.BoundedSemaphore | None = field(default=None, repr=False)
    _reads: Reads = field(init=False, repr=False)
    _identities: OrderedDict[Hashable, str] = field(default_factory=OrderedDict, repr=False)
    _identities_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        if self.max_extractions is not None:
            if self.max_extractions < 1:
                raise PdfthinError("invalid_argument", "max_extractions must be at least 1")
            self._slots = threading.BoundedSemaphore(self.max_extractions)
        self._reads = Reads(self.max_bytes_in_flight)

    @property
    def reads(self) -> Reads:
        return self._reads

    def document(self, source: Source, password: str | None = None) -> Document:
        """The opened document for ``source``, if ``password`` opens it: from the cache when
        its bytes were seen before, otherwise opened once, its pages built when asked for (see
        the module docstring)."""
        deadline = current()
        deadline.check()
        with self._held(source, deadline) as held:
            try:
                return self._document(held, held.fingerprint(), password, deadline)
            except _Changed as changed:
                # The file changed since its identity was taken: this call reads what it
                # holds now (its bytes are read, so this happens once at most).
                return self._document(held, changed.fingerprint, password, deadline)

    @contextmanager
    def data(self, source: Source, fingerprint: str) -> Iterator[bytes]:
        """The bytes of ``source`` (for work on the file itself: images, OCR), held in flight
        for the block; ``busy`` if they are no longer those of the document ``fingerprint``
        (the file changed since the call found its document)."""
        if type(source) is bytes:  # immutable: the bytes the call's document was found by
            yield source
            return
        with self._held(source, current()) as held:
            got = held.bytes()
            if got.fingerprint != fingerprint:
                raise PdfthinError(
                    "busy",
                    "the document changed while it was being read; retry",
                    retry_after_seconds=BUSY_RETRY_SECONDS,
                )
            yield got.data

    def _document(
        self, held: _Held, key: str, password: str | None, deadline: Deadline
    ) -> Document:
        entry = self.cache.get(key)
        if entry is None:
            if held.cached_only:
                raise CachedOnly
            entry, built = self.cache.get_or_build(
                key, partial(self._build, held, key, password), deadline
            )
            if built:  # this call opened the file with its own password
                return entry.document
        self._unlock(entry, held, key, password)
        return entry.document

    # --- inside -------------------------------------------------------------------------

    @contextmanager
    def _held(self, source: Source, deadline: Deadline) -> Iterator[_Held]:
        if isinstance(source, (str, os.PathLike)):
            source = PathFile(source, self.limits)
        with ExitStack() as stack:
            yield _Held(self, source, deadline, stack)

    def _build(self, held: _Held, key: str, password: str | None, stop: Stop) -> Cached:
        data = held.bytes_of(key)
        with self._slot(), collection_paused():  # see pdfthin/engine/gcpause.py
            engine = open_pdf(data, password=password, limits=self.limits)
            try:
                # The document keeps its engine open: its pages are built when asked for.
                doc = build_document(
                    engine, progress=self.progress, stop=stop, cache=self.cache.pages
                )
            except BaseException:
                engine.close()
                raise
        keyring = None
        if doc.metadata.encrypted:
            keyring = Keyring()
            keyring.remember(password)
        return Cached(doc, keyring)

    @contextmanager
    def engine(self, data: bytes, password: str | None) -> Iterator[EngineDocument]:
        """``data`` opened by the engine with this context's limits, closed after the block:
        for what the cached document does not keep (an image's stored bytes)."""
        engine = open_pdf(data, password=password, limits=self.limits)
        try:
            yield engine
        finally:
            engine.close()

    def _unlock(self, entry: Cached, held: _Held, key: str, password: str | None) -> None:
        """Nothing when ``password`` may read ``entry`` (the document ``key``); the error a
        first call would get (``encrypted``) when it may not."""
        keyring = entry.keyring
        if keyring is None:
            return
        verdict = keyring.verdict(password)
        if verdict is True:
            return
        if verdict is False:  # refused before: the same answer, without asking the file
            raise password_refused(password)
        # Not a password seen before: ask the file, as a first call would (the file itself,
        # not whatever lies at its path now).
        data = held.bytes_of(key)
        try:
            with self._slot():
                open_pdf(data, password=password, limits=self.limits).close()
        except PdfthinError as exc:
            if exc.code == "encrypted" and "password_given" in exc.details:
                keyring.remember(password, opens=False)
            raise
        keyring.remember(password)

    @contextmanager
    def _slot(self) -> Iterator[None]:
        slots = self._slots
        if slots is not None and not slots.acquire(blocking=False):
            raise PdfthinError(
                "busy",
                f"{self.max_extractions} documents are being extracted already; retry shortly",
                retry_after_seconds=BUSY_RETRY_SECONDS,
            )
        try:
            yield
        finally:
            if slots is not None:
                slots.release()

    def _known(self, identity: Hashable | None) -> str | None:
        if identity is None:
            return None
        with self._identities_lock:
            key = self._identities.get(identity)
            if key is not None:
                self._identities.move_to_end(identity)
            return key

    def _remember(self, identity: Hashable | None, key: str) -> None:
        if identity is None:
            return
        with self._identities_lock:
            self._identities[identity] = key
            self._identities.move_to_end(identity)
            while len(self._identities) > MAX_IDENTITIES:
                self._identities.popitem(last=False)


class _Changed(Exception):
    """The source's bytes are another document's than its identity said."""

    def __init__(self, fingerprint: str) -> None:
        super().__init__(fingerprint)
        self.fingerprint = fingerprint


class _Held:
    """One call's view of its source: the fingerprint, from the identity when it is known,
    and the bytes, read (or shared) on first need and held until the call lets go."""

    def __init__(
        self, context: Context, source: bytes | Opened, deadline: Deadline, stack: ExitStack
    ) -> None:
        self.context = context
        self.source = source
        self.deadline = deadline
        self.stack = stack
        self._bytes: Bytes | None = None

    @property
    def cached_only(self) -> bool:
        return isinstance(self.source, Opened) and self.source.cached_only

    def fingerprint(self) -> str:
        if self._bytes is not None:
            return self._bytes.fingerprint
        if isinstance(self.source, Opened):
            known = self.context._known(self.source.identity)
            if known is not None:
                return known
        return self.bytes().fingerprint

    def bytes_of(self, key: str) -> bytes:
        """The bytes, which must be those of the document ``key`` (:class:`_Changed` when
        the source holds others now)."""
        got = self.bytes()
        if got.fingerprint != key:
            raise _Changed(got.fingerprint)
        return got.data

    def bytes(self) -> Bytes:
        if self._bytes is not None:
            return self._bytes
        source = self.source
        if not isinstance(source, Opened):
            data = read_source(source, self.context.limits)
            self._bytes = Bytes(data, fingerprint(data))
            return self._bytes
        if source.cached_only:
            raise CachedOnly
        identity = source.identity
        expected = min(source.size, self.context.limits.max_file_bytes + 1)
        self._bytes = self.stack.enter_context(
            self.context.reads.read(identity, expected, source.read, self.deadline)
        )
        # Remembered only if the source is still what it was when read.
        if source.identity == identity:
            self.context._remember(identity, self._bytes.fingerprint)
        return self._bytes


_default: Context | None = None
_default_lock = threading.Lock()


def default_context() -> Context:
    global _default
    with _default_lock:
        if _default is None:
            _default = Context()
        return _default
