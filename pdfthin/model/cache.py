"""A small LRU cache of built documents, keyed by fingerprint.

Invariant 5 of docs/design.md: a document is opened once (its facts and profile) and served from
here after; its pages are built on demand and kept in the page cache (:mod:`.pagecache`).
The cache is process-wide and thread-safe; building happens outside the lock so a slow
extraction never blocks cached reads of other documents.

An entry is the document and, when its file is encrypted, the :class:`~.keyring.Keyring` of
the passwords proven to unlock it (invariant 12): whoever takes a document from here checks
the caller's password against it first (``pdfthin/operations/context.py``).

Calls that want a document being built wait for that build instead of repeating it, each
within its own time (:mod:`pdfthin.deadline`); the build goes on while any of them still has
time and is stopped when none has.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdfthin.deadline import Deadline, Interest, Stop, timeout_error
from pdfthin.errors import PdfthinError
from pdfthin.model.pagecache import PageCache, default_page_cache

if TYPE_CHECKING:
    from pdfthin.model.document import Document
    from pdfthin.model.keyring import Keyring

DEFAULT_SIZE = 2
MAX_SIZE = 16


@dataclass(frozen=True)
class Cached:
    document: Document
    #: The passwords that unlock it; ``None`` when the file is not encrypted.
    keyring: Keyring | None = None


@dataclass
class _Build:
    done: threading.Event
    interest: Interest


class DocumentCache:
    """Built documents by fingerprint (at most ``size``), and their built pages (``pages``:
    by default the process's page cache, :mod:`.pagecache`)."""

    def __init__(self, size: int = DEFAULT_SIZE, pages: PageCache | None = None) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_SIZE:
            raise PdfthinError(
                "invalid_argument", f"the cache holds 1 to {MAX_SIZE} documents", size=size
            )
        self.size = size
        self.pages = pages if pages is not None else default_page_cache()
        self._items: OrderedDict[str, Cached] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[str, _Build] = {}

    def get(self, key: str) -> Cached | None:
        with self._lock:
            entry = self._items.get(key)
            if entry is not None:
                self._items.move_to_end(key)
            return entry

    def put(self, key: str, entry: Cached) -> None:
        with self._lock:
            self._items[key] = entry
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def get_or_build(
        self, key: str, build: Callable[[Stop], Cached], deadline: Deadline | None = None
    ) -> tuple[Cached, bool]:
        """The cached entry, or ``build(stop)``'s result, and whether this call built it.
        Concurrent callers for the same key wait for one build instead of repeating it, each
        until its own ``deadline`` (``timeout`` past it); ``stop`` tells the build when every
        caller waiting for it is out of time."""
        deadline = deadline or Deadline()
        while True:
            with self._lock:
                entry = self._items.get(key)
                if entry is not None:
                    self._items.move_to_end(key)
                    return entry, False
                running = self._building.get(key)
                if running is None:
                    running = _Build(threading.Event(), Interest())
                    running.interest.join(deadline)
                    self._building[key] = running
                    break
                running.interest.join(deadline)
            try:
                finished = running.done.wait(deadline.remaining())
            finally:
                running.interest.leave(deadline)
            if not finished:
                raise timeout_error()
            # Built (the loop finds it) or failed (this call builds, if it has time left).
            deadline.check()
        try:
            entry = build(running.interest)
            self.put(key, entry)
            return entry, True
        finally:
            running.interest.leave(deadline)
            with self._lock:
                self._building.pop(key, None)
            running.done.set()

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
