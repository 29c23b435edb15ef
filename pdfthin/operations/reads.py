"""File bytes in memory: read once for concurrent callers, and bounded in total.

A server's calls hold the bytes of the files they read while they extract, verify a password
or decode an image. :class:`Reads` makes those bytes one shared read per source identity (a
call asking for a file another call is reading, or still holds, waits for that read and shares
its bytes and their fingerprint), and bounds the bytes held at once by all calls: a read that
would go past :data:`DEFAULT_MAX_BYTES_IN_FLIGHT` waits for others to let go — within the
call's time, at most :data:`MAX_WAIT_SECONDS` — then answers ``busy``. A single file larger
than the bound is read only while nothing else is held, so what is held never exceeds the
larger of the bound and one file.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pdfthin.engine import fingerprint
from pdfthin.errors import PdfthinError

if TYPE_CHECKING:
    from pdfthin.deadline import Deadline

#: File bytes held at once by the calls of one context (a server has one per process).
DEFAULT_MAX_BYTES_IN_FLIGHT = 1024 * 1024 * 1024
#: The longest a read waits for room in flight (less when its call has less time left).
MAX_WAIT_SECONDS = 30.0
#: Retry hint of the ``busy`` answer when no room was found in time.
BUSY_RETRY_SECONDS = 2


@dataclass(frozen=True)
class Bytes:
    data: bytes
    fingerprint: str


@dataclass
class _Flight:
    """One read: its bytes once done, and the calls holding them."""

    size: int
    done: threading.Event = field(default_factory=threading.Event)
    result: Bytes | None = None
    holders: int = 1


class Reads:
    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES_IN_FLIGHT) -> None:
        if isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1:
            raise PdfthinError("invalid_argument", "max_bytes_in_flight must be at least 1")
        self.max_bytes = max_bytes
        self._held = 0
        self._peak = 0
        self._lock = threading.Condition()
        self._flights: dict[Hashable, _Flight] = {}

    @property
    def held(self) -> int:
        """The bytes held now."""
        with self._lock:
            return self._held

    @property
    def peak(self) -> int:
        """The most bytes ever held at once."""
        with self._lock:
            return self._peak

    @contextmanager
    def read(
        self, key: Hashable | None, size: int, read: Callable[[], bytes], deadline: Deadline
    ) -> Iterator[Bytes]:
        """The bytes ``read()`` gives and their fingerprint, held in flight (``size`` bytes
        expected) until the block ends. With a ``key``, concurrent callers share one read."""
        flight = self._join(key, size, read, deadline)
        try:
            assert flight.result is not None
            yield flight.result
        finally:
            self._leave(key, flight)

    def _join(
        self, key: Hashable | None, size: int, read: Callable[[], bytes], deadline: Deadline
    ) -> _Flight:
        while True:
            with self._lock:
                flight = self._flights.get(key) if key is not None else None
                if flight is not None:
                    flight.holders += 1
                else:
                    flight = self._reserve(size, deadline)
                    if key is not None:
                        self._flights[key] = flight
                    break
            # Another call is reading (or holds) these bytes: share them.
            if not flight.done.wait(deadline.remaining()):
                self._leave(key, flight)
                deadline.check()
            if flight.result is not None:
                return flight
            self._leave(key, flight)  # that read failed: read again (its error may be its own)
            deadline.check()
        try:
            data = read()
            flight.result = Bytes(data, fingerprint(data))
        except BaseException:
            with self._lock:  # callers from now on read afresh; those waiting retry
                if key is not None and self._flights.get(key) is flight:
                    del self._flights[key]
            self._leave(key, flight)
            raise
        finally:
            flight.done.set()
        with self._lock:
            # Count what was read, not what was expected (a file may have grown).
            self._held += len(data) - flight.size
            flight.size = len(data)
            self._peak = max(self._peak, self._held)
        return flight

    def _reserve(self, size: int, deadline: Deadline) -> _Flight:
        """Room for ``size`` bytes (called with the lock held), waiting within the call's
        time; ``busy`` past it."""
        remaining = deadline.remaining()
        wait = MAX_WAIT_SECONDS if remaining is None else min(remaining, MAX_WAIT_SECONDS)

        def fits() -> bool:
            return self._held == 0 or self._held + size <= self.max_bytes

        if not self._lock.wait_for(fits, timeout=wait):
            raise PdfthinError(
                "busy",
                f"{self._held} bytes of files are being read or held by other calls (the limit "
                f"is {self.max_bytes}); retry shortly",
                retry_after_seconds=BUSY_RETRY_SECONDS,
            )
        self._held += size
        self._peak = max(self._peak, self._held)
        return _Flight(size)

    def _leave(self, key: Hashable | None, flight: _Flight) -> None:
        with self._lock:
            flight.holders -= 1
            if flight.holders > 0:
                return
            if key is not None and self._flights.get(key) is flight:
                del self._flights[key]
            self._held -= flight.size
            self._lock.notify_all()
