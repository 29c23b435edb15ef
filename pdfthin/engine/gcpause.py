"""Python's cyclic garbage collector paused while a document is read.

Reading a document allocates objects by the hundred thousand (pypdf objects, text runs, lines,
blocks) that live until the document is built: almost none of them is garbage, and none in a
cycle until the reader itself is dropped. The collector, triggered every 700 allocations,
walks them again and again all the same, and, as they pile up, the whole heap now and then
(``gc.callbacks`` timing a corpus run shows it). So the collector is paused while a document
is opened and built, and runs as usual between documents.

Garbage made in cycles during a pause (an exception's traceback, say) is not lost, only kept
until the pause ends; :func:`collect_if_due`, called between pages, collects once that many
objects have been allocated, so a document of any length keeps its garbage bounded.

The pause is counted: concurrent and nested pauses share it, the last one out turns the
collector back on, and only if it was on when the first one came in (a program that runs with
the collector off keeps it off).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: Net allocations (the collector's young-generation count) after which a paused collector
#: still collects, between pages.
MAX_PENDING = 1_000_000

_lock = threading.Lock()
_depth = 0
_resume = False


@contextmanager
def collection_paused() -> Iterator[None]:
    """Automatic garbage collection off inside the block (see the module's docstring)."""
    global _depth, _resume
    with _lock:
        if _depth == 0:
            _resume = gc.isenabled()
            if _resume:
                gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _resume:
                gc.enable()


def collect_if_due() -> None:
    """A full collection when a pause has let :data:`MAX_PENDING` allocations pile up."""
    if _depth and gc.get_count()[0] > MAX_PENDING:
        gc.collect()
