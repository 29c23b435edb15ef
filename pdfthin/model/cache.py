"""A small LRU cache of built documents, keyed by fingerprint.

Invariant 5 of DESIGN.md: a document is extracted once, in full, and served from here after.
The cache is process-wide and thread-safe; building happens outside the lock so a slow
extraction never blocks cached reads of other documents.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from ..errors import PdfthinError
from .document import Document

DEFAULT_SIZE = 2
MAX_SIZE = 16


class DocumentCache:
    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= MAX_SIZE:
            raise PdfthinError(
                "invalid_argument", f"the cache holds 1 to {MAX_SIZE} documents", size=size
            )
        self.size = size
        self._items: OrderedDict[str, Document] = OrderedDict()
        self._lock = threading.Lock()
        self._building: dict[str, threading.Event] = {}

    def get(self, key: str) -> Document | None:
        with self._lock:
            doc = self._items.get(key)
            if doc is not None:
                self._items.move_to_end(key)
            return doc

    def put(self, key: str, doc: Document) -> None:
        with self._lock:
            self._items[key] = doc
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def get_or_build(self, key: str, build: Callable[[], Document]) -> Document:
        """The cached document, or ``build()``'s result; concurrent callers for the same key
        wait for one build instead of repeating it."""
        while True:
            with self._lock:
                doc = self._items.get(key)
                if doc is not None:
                    self._items.move_to_end(key)
                    return doc
                event = self._building.get(key)
                if event is None:
                    event = threading.Event()
                    self._building[key] = event
                    break
            event.wait()
        try:
            doc = build()
            self.put(key, doc)
            return doc
        finally:
            with self._lock:
                self._building.pop(key, None)
            event.set()

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
