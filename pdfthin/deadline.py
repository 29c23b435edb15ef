"""How long a call may take, and how work learns that its time is over.

Python threads cannot be killed, so stopping is cooperative: a :class:`Deadline` travels with
a call (a context variable the adapter sets around it, :func:`applied`), and the work the call
starts asks it whether to go on — while waiting for a slot, for another call's read or
extraction, and between the pages and layout stages of an extraction, whose page interpreter
gets the earlier of its own page limit and the call's deadline. Past it the work raises
``timeout`` and lets go of what it holds (its extraction slot, its thread, the paused garbage
collector).

An extraction can serve several calls at once (the first caller builds, the others wait for
it): :class:`Interest` is their common deadline. The extraction goes on while any of them still
has time, and stops when none has.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Protocol

from pdfthin.errors import PdfthinError


class Stop(Protocol):
    """What work asks of the deadline it runs under."""

    @property
    def at(self) -> float | None:
        """When (``time.monotonic()``) the work must have stopped; ``None``: no limit."""
        ...

    def expired(self) -> bool: ...

    def check(self) -> None:
        """Raise ``timeout`` once the time is over."""
        ...


def timeout_error() -> PdfthinError:
    return PdfthinError(
        "timeout",
        "the call did not finish within its time limit; the work it started was stopped",
    )


class Deadline:
    """One call's time limit (``seconds`` from now; ``None``: none), which :meth:`cancel`
    ends at once."""

    __slots__ = ("_at", "_cancelled")

    def __init__(self, seconds: float | None = None) -> None:
        self._at = None if seconds is None else time.monotonic() + seconds
        self._cancelled = threading.Event()

    @property
    def at(self) -> float | None:
        return time.monotonic() if self._cancelled.is_set() else self._at

    def cancel(self) -> None:
        self._cancelled.set()

    def expired(self) -> bool:
        return self._cancelled.is_set() or (self._at is not None and time.monotonic() >= self._at)

    def remaining(self) -> float | None:
        """Seconds left (never negative); ``None``: no limit."""
        if self._cancelled.is_set():
            return 0.0
        return None if self._at is None else max(self._at - time.monotonic(), 0.0)

    def check(self) -> None:
        if self.expired():
            raise timeout_error()


class Interest:
    """The deadlines of every call waiting for one piece of shared work: it may go on until
    the latest of them, and is over once every one has expired or left."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._members: list[Deadline] = []

    def join(self, deadline: Deadline) -> None:
        with self._lock:
            self._members.append(deadline)

    def leave(self, deadline: Deadline) -> None:
        with self._lock:
            if deadline in self._members:
                self._members.remove(deadline)

    @property
    def at(self) -> float | None:
        with self._lock:
            live = [m for m in self._members if not m.expired()]
        if not live:
            return time.monotonic()
        ends = [m.at for m in live]
        if any(end is None for end in ends):
            return None
        return max(end for end in ends if end is not None)

    def expired(self) -> bool:
        with self._lock:
            return all(m.expired() for m in self._members)

    def check(self) -> None:
        if self.expired():
            raise timeout_error()


_current: ContextVar[Deadline | None] = ContextVar("pdfthin_deadline", default=None)


def current() -> Deadline:
    """The deadline of the call running here; a call without one never expires."""
    deadline = _current.get()
    return deadline if deadline is not None else Deadline()


@contextmanager
def applied(deadline: Deadline) -> Iterator[Deadline]:
    """``deadline`` is the current call's inside the block (this thread or task only)."""
    token = _current.set(deadline)
    try:
        yield deadline
    finally:
        _current.reset(token)
