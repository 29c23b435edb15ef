"""Where a document's bytes come from.

An operation takes its document as bytes, as a path, or as an :class:`Opened` source: a file
opened but not yet read (a file under a server's root, an S3 object). An opened source has an
*identity* (what it is: device, inode, size and change times, or bucket, key and version) that
names the same bytes for as long as it holds, so the document cache can be asked by it before a
byte is read (``pdfthin/operations/context.py``): a cached document then costs neither a read
nor a hash.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Hashable
from typing import Protocol, runtime_checkable

from pdfthin.engine import Limits, read_source


@runtime_checkable
class Opened(Protocol):
    """A document opened where it lies, read only when its bytes are needed."""

    @property
    def identity(self) -> Hashable | None:
        """What names these bytes (``None``: nothing does, e.g. the file changed while it was
        read); two sources with one identity have the same bytes."""
        ...

    @property
    def size(self) -> int:
        """The bytes :meth:`read` is expected to give (counted in flight before reading)."""
        ...

    @property
    def cached_only(self) -> bool:
        """When true the call may answer only from what is cached: a read or a build raises
        :class:`CachedOnly` instead (a server's fast path for cached documents)."""
        ...

    def read(self) -> bytes: ...


class CachedOnly(Exception):
    """The call needs more than the cache holds (a read of the file, an extraction)."""


class PathFile:
    """A file named by a local path (the Python API, the CLI): its identity is its ``stat``,
    and :func:`~pdfthin.engine.read_source` reads it (with its checks and errors)."""

    cached_only = False

    def __init__(self, path: str | os.PathLike[str], limits: Limits) -> None:
        self.path = os.fspath(path)
        self.limits = limits
        self._info = _stat(self.path)
        self.identity: Hashable | None = _identity(self.path, self._info)
        self.size = self._info.st_size if self._info is not None else 0

    def read(self) -> bytes:
        data = read_source(self.path, self.limits)
        if _identity(self.path, _stat(self.path)) != self.identity:
            self.identity = None  # changed while read: these bytes are named by nothing
        return data


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None  # reading it reports why


def _identity(path: str, info: os.stat_result | None) -> Hashable | None:
    if info is None or not stat.S_ISREG(info.st_mode):
        return None
    return (
        os.path.realpath(path),
        info.st_dev,
        info.st_ino,
        info.st_size,
        info.st_mtime_ns,
        info.st_ctime_ns,
    )
