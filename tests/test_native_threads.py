"""The kernel lets go of the GIL where it computes on Rust data alone, so that pages can be read
in parallel threads (free-threaded Python; or another thread's Python code, meanwhile).

The proof is concurrency, not speed: with the interpreter's switch interval made very long, the
thread calling ``inflate`` keeps the GIL unless the call itself releases it, so a counter that
another thread advances can only move during the call if the GIL was released inside it.
"""

from __future__ import annotations

import sys
import threading
import time
import zlib
from types import ModuleType

import pytest
from native_support import native_module

#: Inflated size of the test stream: long enough that another thread is scheduled during it.
BIG = 16 * 1024 * 1024
#: Calls made before the test gives up waiting for the other thread to run during one.
TRIES = 20
#: The counting thread's pause between counts, seconds.
PAUSE = 0.0001


@pytest.fixture(scope="module")
def module() -> ModuleType:
    return native_module()


@pytest.mark.skipif(
    not getattr(sys, "_is_gil_enabled", lambda: True)(),
    reason="no GIL to release on a free-threaded interpreter",
)
def test_inflate_releases_the_gil(module: ModuleType) -> None:
    data = zlib.compress(bytes(BIG), 9)
    count = [0]
    stop = threading.Event()
    started = threading.Event()

    def counter() -> None:
        started.set()
        while not stop.is_set():
            count[0] += 1
            # Gives the GIL back for a moment each time (so the calling thread always gets it
            # back without a forced switch): only a caller that keeps it stops the count.
            time.sleep(PAUSE)

    saved = sys.getswitchinterval()
    thread = threading.Thread(target=counter, daemon=True)
    try:
        # No forced switch for the test's length: the calling thread keeps the GIL between
        # the two reads of the counter unless ``inflate`` releases it.
        sys.setswitchinterval(1000.0)
        thread.start()
        started.wait()
        moved = False
        for _ in range(TRIES):
            before = count[0]
            out = module.inflate(data, 0, BIG + 1)
            after = count[0]
            assert out is not None and len(out) == BIG
            if after > before:
                moved = True
                break
        assert moved, "no other thread ran while inflate was working: the GIL was held"
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(saved)
