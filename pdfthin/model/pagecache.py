"""The page cache: built pages of every open document, within a byte budget per process.

Pages are built on demand (:mod:`.document`) and kept here, least recently used first out,
while their estimated size stays within the budget. A page the budget cannot hold at all is
still answered, only not kept. The cache is thread-safe; the composition root
(``pdfthin/operations/context.py``) sets its budget.
"""

from __future__ import annotations

import os
import sys
import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import TYPE_CHECKING

from pdfthin.errors import PdfthinError

if TYPE_CHECKING:
    from pdfthin.model.document import Page

#: Bytes of built pages kept per process by default: some thousands of pages of a text
#: document (a page of running text takes 10 to 30 kB here), small beside the memory a
#: server or a Lambda function has.
DEFAULT_PAGE_CACHE_BYTES = 64 * 1024 * 1024
#: A Python string of ASCII text takes about its length in bytes plus this.
_STR_OVERHEAD = 49
#: What a page's other fields, its anchors, images and hidden texts take, roughly, each.
_PAGE_OVERHEAD = 1_000
_ITEM_OVERHEAD = 200


def page_bytes(page: Page) -> int:
    """About how much memory ``page`` holds (its texts, and a fixed share per item)."""
    texts = (page.markdown, page.text, page.reason, *page.header, *page.footer, *page.problems)
    size = _PAGE_OVERHEAD + sum(sys.getsizeof(t) for t in texts)
    items = len(page.anchors) + len(page.images) + len(page.hidden)
    # Each block's lines are in a compact array: exactly its size.
    lines = sum(sys.getsizeof(a.lines) for a in page.anchors)
    hidden = sum(len(h.get("text", "")) for h in page.hidden)
    return size + _ITEM_OVERHEAD * items + lines + hidden


class PageCache:
    """Built pages by key (a document's token and the page number), within ``max_bytes``."""

    def __init__(self, max_bytes: int = DEFAULT_PAGE_CACHE_BYTES) -> None:
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 0:
            raise PdfthinError(
                "invalid_argument", "the page cache budget is a number of bytes (0 or more)"
            )
        self.max_bytes = max_bytes
        self.bytes = 0
        self._items: OrderedDict[Hashable, tuple[Page, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Page | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            self._items.move_to_end(key)
            return item[0]

    def put(self, key: Hashable, page: Page) -> None:
        size = page_bytes(page)
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            if size > self.max_bytes:
                return  # more than the whole budget: answered, not kept
            self._items[key] = (page, size)
            self.bytes += size
            while self.bytes > self.max_bytes:
                _, (_, dropped) = self._items.popitem(last=False)
                self.bytes -= dropped

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.bytes = 0

    def __len__(self) -> int:
        return len(self._items)


_default: PageCache | None = None
_default_lock = threading.Lock()


def default_page_cache() -> PageCache:
    """The process's page cache, made on first use with the budget ``PDFTHIN_PAGE_CACHE_BYTES``
    (by default ``DEFAULT_PAGE_CACHE_BYTES``)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = PageCache(_budget_from_env())
        return _default


def _budget_from_env() -> int:
    value = os.environ.get("PDFTHIN_PAGE_CACHE_BYTES", "").strip()
    if not value:
        return DEFAULT_PAGE_CACHE_BYTES
    try:
        return max(int(value), 0)
    except ValueError:
        raise PdfthinError(
            "invalid_argument", "PDFTHIN_PAGE_CACHE_BYTES must be a number of bytes"
        ) from None
