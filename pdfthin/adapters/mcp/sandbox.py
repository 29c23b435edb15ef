"""The sandbox of the servers: a root directory, and the only files a client may read.

Invariant 11 of docs/design.md. A client names a file by a path relative to the root. Before
anything is opened the path is resolved (symbolic links included) and the result must lie
inside the resolved root; then the resolved path is opened one component at a time from a
descriptor of the root, refusing to follow any symbolic link (``O_NOFOLLOW``), so a component
swapped for a link after the check fails to open instead of leading elsewhere: the file that
is opened is the file that was checked. Only regular files are opened (a FIFO, a device or a
socket is refused from its ``lstat``, before any ``open``), the size limit is checked from
``fstat`` before reading, and the ``%PDF-`` header before the rest of the file is read.

Names are taken exactly as given: no Unicode normalisation, case folding or look-alike mapping
is applied. Only ``/`` separates components and only ``..`` (two ASCII full stops) climbs, so a
fullwidth solidus, a division slash or a one-dot leader is an ordinary character of a name. On
Linux an NFC and an NFD spelling are two different names (each reaches its own file or
``not_found``); where the file system itself normalises names (macOS), it decides which file a
spelling means — either way the containment check runs on the path the OS resolved.

Listing never opens a file: it reads directories (each opened with ``O_NOFOLLOW`` from its
parent), reports sizes and times from ``stat``, skips links that resolve outside the root and
does not descend into linked directories (their files are listed under their real path).

This module knows nothing of MCP; the servers give the operations the bytes it returns, never a
path.
"""

from __future__ import annotations

import base64
import errno
import fnmatch
import hashlib
import json
import os
import stat
from collections.abc import Generator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, TypedDict

from pdfthin.errors import PdfthinError
from pdfthin.operations import cursor as cursors
from pdfthin.operations.params import Param

#: A client path longer than this (characters) is refused before it reaches the OS.
MAX_PATH_CHARS = 4096
#: The longest name one component may have (bytes, UTF-8), as on most file systems.
MAX_NAME_BYTES = 255
#: The ``%PDF-`` header must start within this many bytes (as in the engine).
HEADER_WINDOW = 1024
DEFAULT_MAX_RESULTS = 100
MAX_MAX_RESULTS = 1000
DEFAULT_PATTERN = "*.pdf"
MAX_PATTERN_CHARS = 1000
#: Directory entries examined per listing call; a larger tree continues through the cursor.
MAX_SCAN = 20_000
MAX_DEPTH = 64
#: Symbolic links followed while resolving one path (as the kernel's own bound, ELOOP).
MAX_LINKS = 40
_CURSOR_VERSION = 2
#: The longest position a listing cursor carries (bytes of UTF-8: a path of MAX_DEPTH + 1
#: names), base64-encoded in the payload.
_MAX_POSITION_BYTES = (MAX_DEPTH + 1) * (MAX_NAME_BYTES + 1)
_MAX_PACKED_POSITION = 4 * -(-_MAX_POSITION_BYTES // 3)
#: The longest listing cursor accepted: what the deepest, longest position seals to at worst
#: (the payload around it, zlib's worst-case growth, a 16-byte tag, base64), so every cursor a
#: listing issues is one it accepts.
MAX_LISTING_CURSOR_CHARS = 4 * -(
    -(_MAX_PACKED_POSITION + 100 + _MAX_PACKED_POSITION // 1000 + 64 + 16) // 3
)

_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO opened anyway must not hang the open
_O_NOCTTY = getattr(os, "O_NOCTTY", 0)
_O_BINARY = getattr(os, "O_BINARY", 0)
#: Descriptor-relative walking needs ``dir_fd`` and ``scandir(fd)`` (POSIX); elsewhere the
#: sandbox falls back to paths and re-checks the file's identity after opening it.
_FD_WALK = (
    os.open in os.supports_dir_fd
    and os.stat in os.supports_dir_fd
    and os.scandir in os.supports_fd
    and os.readlink in os.supports_dir_fd
    and bool(_O_NOFOLLOW and _O_DIRECTORY)
)


# --- the listing: its arguments and its answer (the MCP tool list_documents) ------------------

SUBDIRECTORY = Param(
    "subdirectory",
    "string",
    "List only under this directory (relative to the root). Paths in the answer stay relative "
    "to the root.",
    max_length=MAX_PATH_CHARS,
    examples=("reports", "reports/2024"),
)
PATTERN = Param(
    "pattern",
    "string",
    "fnmatch pattern on the path relative to the root, case-insensitive: '*.pdf', "
    "'reports/2024*', '*invoice*'.",
    max_length=MAX_PATTERN_CHARS,
    default=DEFAULT_PATTERN,
    text=True,  # it comes back in the answer: Unicode text only
    examples=("reports/2024*", "*invoice*"),
)
MAX_RESULTS = Param(
    "max_results",
    "integer",
    f"At most this many documents (default {DEFAULT_MAX_RESULTS}).",
    minimum=1,
    maximum=MAX_MAX_RESULTS,
    default=DEFAULT_MAX_RESULTS,
)
CURSOR = Param(
    "cursor",
    "string",
    "next_cursor of the previous list_documents call (same subdirectory and pattern).",
    max_length=MAX_LISTING_CURSOR_CHARS,
)
ALL_FILES = Param(
    "all_files",
    "boolean",
    "List every file the pattern matches, not only those whose name ends in .pdf (default "
    "false: a pattern such as '*invoice*' still lists PDFs only).",
)
LISTING_PARAMS = (SUBDIRECTORY, PATTERN, ALL_FILES, MAX_RESULTS, CURSOR)


class ListedDocument(TypedDict):
    path: str
    size: int
    modified: str


class _Listing(TypedDict):
    subdirectory: str
    pattern: str
    documents: list[ListedDocument]
    next_cursor: str | None


class Listing(_Listing, total=False):
    skipped: dict[str, int]


def _not_found(message: str, path: str) -> PdfthinError:
    return PdfthinError("not_found", message, path=path)


def _outside(path: str) -> PdfthinError:
    return PdfthinError("outside_root", f"{path!r} leads outside the server's root", path=path)


def _changed(path: str) -> PdfthinError:
    return _not_found(f"{path!r} changed while it was being opened; try again", path)


class Sandbox:
    """Reads and lists files under ``root`` and nowhere else."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        max_file_bytes: int,
        cursor_key: bytes | None = None,
    ) -> None:
        resolved = os.path.realpath(os.fspath(root))
        if not os.path.isdir(resolved):
            raise PdfthinError("not_found", f"the root {os.fspath(root)!r} is not a directory")
        if max_file_bytes < 1:
            raise PdfthinError("invalid_argument", "max_file_bytes must be at least 1")
        self.root = resolved
        self.max_file_bytes = max_file_bytes
        #: Keys listing cursors as the context's key keys document cursors.
        self.cursor_key = cursor_key
        self._prefix = resolved if resolved.endswith(os.sep) else resolved + os.sep
        # An absolute path names a file under the root when it begins with the root as
        # configured or as resolved (the two differ when the root's path goes through a link).
        given = os.path.abspath(os.fspath(root))
        self._absolute_prefixes = tuple(
            dict.fromkeys(p if p.endswith(os.sep) else p + os.sep for p in (given, resolved))
        )

    # --- resolving ----------------------------------------------------------------------------

    def resolve(self, path: Any, *, what: str = "path") -> list[str]:
        """The components, relative to the root, of the real path ``path`` names; the empty
        list for the root itself. ``outside_root`` when it leaves the root at any step, even
        to come back (``../root/x.pdf``): a path is never normalised through the root's
        parent, so no answer depends on the root's name or on anything outside it."""
        if not isinstance(path, str):
            raise PdfthinError("invalid_argument", f"{what} must be a string")
        if len(path) > MAX_PATH_CHARS:
            raise PdfthinError(
                "invalid_argument", f"{what} is longer than {MAX_PATH_CHARS} characters"
            )
        if "\x00" in path:
            raise PdfthinError(
                "invalid_argument", f"{what} contains a NUL character, which no name holds"
            )
        try:
            encoded = path.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates: not a name a client can mean
            raise PdfthinError(
                "invalid_argument", f"{what} is not valid Unicode text (a lone surrogate)"
            ) from None
        if any(len(part) > MAX_NAME_BYTES for part in encoded.split(b"/")):
            raise _not_found(f"a name in {path!r} is longer than {MAX_NAME_BYTES} bytes", path)
        if os.path.isabs(path) or os.path.splitdrive(path)[0]:
            return self._walk(self._under_root(path).split("/"), path)
        return self._walk(path.split("/"), path)

    def _under_root(self, path: str) -> str:
        """The rest of absolute ``path`` after the root's own path, to be walked from the root
        like any relative path (so ``/root/../x`` leaves it at its first step and a link on
        the way is followed and checked as usual); ``outside_root`` when it does not begin
        with the root. Only the text is compared here: nothing outside the root is looked at."""
        for prefix in self._absolute_prefixes:
            if path.startswith(prefix):
                return path[len(prefix) :]
            if path == prefix.rstrip(os.sep) or path + os.sep == prefix:
                return ""
        raise PdfthinError(
            "outside_root",
            f"{path!r} is absolute and not under the server's root",
            path=path,
        )

    def _walk(self, names: list[str], path: str) -> list[str]:
        """Resolve ``names`` from the root one component at a time, following links as the
        OS would, and refuse the walk as soon as it would stand outside the root. Each
        directory is opened from its parent's descriptor without following links, so a
        component swapped meanwhile fails instead of leading elsewhere, and a path longer than
        the OS's own limit resolves as the reading does.

        Every failure names only ``path``, the caller's own text: never the root, a link's
        target or an OS error's file name (an ``OSError`` of a component swapped meanwhile
        is a ``not_found`` like any other)."""
        resolved: list[str] = []
        pending = names[::-1]  # a stack: a link's target is pushed in place of its name
        links = 0
        directory = self._open_directory([], path)
        try:
            while pending:
                name = pending.pop()
                if name in ("", "."):
                    continue
                if name == "..":
                    if not resolved:
                        raise _outside(path)
                    resolved.pop()
                    directory = self._reopen(directory, resolved, path)
                    continue
                if len(name.encode("utf-8", "surrogateescape")) > MAX_NAME_BYTES:
                    raise _not_found(f"{path!r} does not name a file under the root", path)
                info = _lstat(directory, name, path)
                if stat.S_ISLNK(info.st_mode):
                    links += 1
                    if links > MAX_LINKS:
                        raise _not_found(f"{path!r} goes through too many symbolic links", path)
                    target = _readlink(directory, name, path)
                    if os.path.isabs(target):
                        resolved = self._inside(target, path)
                        if pending:  # the link was a directory on the way
                            directory = self._reopen(directory, resolved, path)
                    else:
                        pending.extend(target.split(os.sep)[::-1])
                    continue
                if pending:
                    if not stat.S_ISDIR(info.st_mode):
                        raise _not_found(f"{path!r} does not name a file under the root", path)
                    directory = self._descend(directory, name, path)
                resolved.append(name)
        finally:
            if isinstance(directory, int):
                os.close(directory)
        return resolved

    def _reopen(self, directory: int | str, parts: list[str], path: str) -> int | str:
        if isinstance(directory, int):
            os.close(directory)
        return self._open_directory(parts, path)

    def _descend(self, directory: int | str, name: str, path: str) -> int | str:
        if isinstance(directory, str):  # pragma: no cover - non-POSIX
            return os.path.join(directory, name)
        try:
            child = os.open(
                name, os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW | _O_CLOEXEC, dir_fd=directory
            )
        except OSError as exc:
            raise _open_error(exc, path) from None
        os.close(directory)
        return child

    def _inside(self, target: str, path: str) -> list[str]:
        """The components under the root of an absolute link target (a link made by whoever
        keeps the root's files, not by the client), or ``outside_root``."""
        try:
            real = os.path.realpath(target)
        except OSError:  # a loop of links, or one swapped meanwhile
            raise _not_found(f"{path!r} does not name a file under the root", path) from None
        if real == self.root:
            return []
        if not real.startswith(self._prefix):
            raise _outside(path)
        return real[len(self._prefix) :].split(os.sep)

    # --- reading ------------------------------------------------------------------------------

    def read(self, path: Any) -> bytes:
        """The bytes of the PDF at ``path`` (relative to the root)."""
        with self.open(path) as file:
            return file.read()

    def open(self, path: Any, *, cached_only: bool = False) -> SandboxFile:
        """The regular file at ``path`` (relative to the root), opened but not read: its
        identity (path, device, inode, size, change times) comes from ``fstat``, so a server
        can find its document in the cache without reading it. Close it (``with``)."""
        parts = self.resolve(path)
        if not parts:
            raise PdfthinError("not_a_pdf", "the root is a directory, not a PDF", path=path)
        fd = self._open(parts, path) if _FD_WALK else self._open_by_path(parts, path)
        try:
            info = os.fstat(fd)
            if stat.S_ISDIR(info.st_mode):
                raise PdfthinError("not_a_pdf", f"{path!r} is a directory", path=path)
            if not stat.S_ISREG(info.st_mode):
                raise PdfthinError("not_a_pdf", f"{path!r} is not a regular file", path=path)
            if path.endswith(("/", os.sep)):
                raise _not_found(f"{path!r} is a file, not a directory", path)
            if info.st_size > self.max_file_bytes:
                raise self._too_large(path, info.st_size)
        except BaseException:
            os.close(fd)
            raise
        return SandboxFile(self, fd, path, tuple(parts), info, cached_only)

    def _too_large(self, path: str, size: int) -> PdfthinError:
        return PdfthinError(
            "too_large",
            f"{path!r} is {size} bytes; this server reads files up to {self.max_file_bytes}",
            path=path,
            size=size,
            limit=self.max_file_bytes,
        )

    def _read_pdf(self, fd: int, path: str, size: int) -> bytes:
        """The file's bytes, from its start, once its header is seen. ``size`` (from
        ``fstat``) sizes the one buffer the bytes are read into; one more byte is asked for,
        to see a file that grew since."""
        os.lseek(fd, 0, os.SEEK_SET)
        head = _read_upto(fd, min(HEADER_WINDOW, self.max_file_bytes + 1))
        if b"%PDF-" not in head:
            raise PdfthinError(
                "not_a_pdf", f"{path!r} has no %PDF- header in its first 1024 bytes", path=path
            )
        os.lseek(fd, 0, os.SEEK_SET)
        want = min(size, self.max_file_bytes) + 1
        data = _read_upto(fd, want, want)
        if len(data) > size:  # it grew since fstat: the rest, up to the limit
            data += _read_upto(fd, self.max_file_bytes + 1 - len(data))
        if len(data) > self.max_file_bytes:
            raise self._too_large(path, len(data))
        return data

    def _open(self, parts: list[str], path: str) -> int:
        """Open the checked path component by component, never following a link."""
        directory = self._open_root()
        try:
            for name in parts[:-1]:
                try:
                    child = os.open(
                        name,
                        os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW | _O_CLOEXEC,
                        dir_fd=directory,
                    )
                except OSError as exc:
                    raise _open_error(exc, path) from None
                os.close(directory)
                directory = child
            name = parts[-1]
            try:
                # Refuse FIFOs, devices and sockets from lstat: opening some devices has side
                # effects, and nothing but a regular file or a directory is opened at all.
                before = os.stat(name, dir_fd=directory, follow_symlinks=False)
            except OSError as exc:
                raise _open_error(exc, path) from None
            _check_kind(before, path)
            try:
                fd = os.open(
                    name,
                    os.O_RDONLY | _O_NOFOLLOW | _O_NONBLOCK | _O_NOCTTY | _O_CLOEXEC,
                    dir_fd=directory,
                )
            except OSError as exc:
                raise _open_error(exc, path) from None
            after = os.fstat(fd)
            if (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino):
                os.close(fd)
                raise _not_found(f"{path!r} changed while it was being opened; try again", path)
            return fd
        finally:
            os.close(directory)

    def _open_by_path(self, parts: list[str], path: str) -> int:  # pragma: no cover - non-POSIX
        full = os.path.join(self.root, *parts)
        try:
            before = os.lstat(full)
            _check_kind(before, path)
            fd = os.open(full, os.O_RDONLY | _O_BINARY | _O_NONBLOCK | _O_CLOEXEC)
        except OSError as exc:
            raise _open_error(exc, path) from None
        after = os.fstat(fd)
        if (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino):
            os.close(fd)
            raise _not_found(f"{path!r} changed while it was being opened; try again", path)
        return fd

    # --- listing ------------------------------------------------------------------------------

    def list_documents(
        self,
        subdirectory: Any = None,
        pattern: Any = None,
        all_files: Any = None,
        max_results: Any = None,
        cursor: Any = None,
    ) -> Listing:
        """Files under the root (or ``subdirectory``) whose path relative to the root matches
        ``pattern`` (fnmatch, case-insensitive, ``*`` also matches ``/``) and, unless
        ``all_files``, whose name ends in ``.pdf``, in path order, at most ``max_results``;
        ``next_cursor`` continues. Never opens a file."""
        pattern = PATTERN.value(pattern)
        pdf_only = not ALL_FILES.value(all_files)
        max_results = MAX_RESULTS.value(max_results)
        start = (
            []
            if subdirectory in (None, "", ".")
            else self.resolve(subdirectory, what="subdirectory")
        )
        sub = "/".join(start)
        key = self.cursor_key
        # A cursor is bound to what it lists: the PDF filter is part of the pattern it keys.
        scope = pattern + ("\0pdf" if pdf_only else "")
        after = _decode_cursor(cursor, sub, scope, key) if cursor is not None else None

        walk = _Walk(self, pattern.casefold(), after, pdf_only)
        handle = self._open_directory(start, subdirectory)
        documents: list[ListedDocument] = []
        files = walk.files(handle, start)
        position: tuple[str, ...] | None = None
        walk_position: tuple[str, ...] = ()
        try:
            for entry in files:
                if len(documents) == max_results:  # one more exists: offer a cursor
                    position = walk_position
                    break
                documents.append(entry)
                walk_position = walk.position
        finally:
            files.close()
            if isinstance(handle, int):
                os.close(handle)
        if position is None and walk.stopped:
            position = walk.position
        response: Listing = {
            "subdirectory": sub,
            "pattern": pattern,
            "documents": documents,
            "next_cursor": (
                None if position is None else _encode_cursor(sub, scope, position, key)
            ),
        }
        if walk.skipped:
            response["skipped"] = dict(walk.skipped)
        return response

    def _open_root(self) -> int:
        try:
            return os.open(self.root, os.O_RDONLY | _O_DIRECTORY | _O_CLOEXEC)
        except OSError:  # the root itself went away: say so without naming it
            raise PdfthinError(
                "not_found", "the server's root directory cannot be opened"
            ) from None

    def _open_directory(self, parts: list[str], path: Any) -> int | str:
        if not _FD_WALK:  # pragma: no cover - non-POSIX
            full = os.path.join(self.root, *parts)
            if not os.path.isdir(full):
                raise _not_found(f"no directory {path!r} under the root", str(path))
            return full
        fd = self._open_root()
        for name in parts:
            try:
                child = os.open(
                    name, os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW | _O_CLOEXEC, dir_fd=fd
                )
            except OSError as exc:
                os.close(fd)
                if exc.errno == errno.ENOTDIR:
                    raise _not_found(f"{path!r} is not a directory", str(path)) from None
                raise _open_error(exc, str(path)) from None
            os.close(fd)
            fd = child
        return fd


class SandboxFile:
    """A file of the sandbox, open and checked, read on demand (an opened source of
    ``pdfthin/operations/source.py``). Its identity holds while the file is unchanged: a write
    changes its size or change time, a replacement its inode."""

    def __init__(
        self,
        sandbox: Sandbox,
        fd: int,
        path: str,
        parts: tuple[str, ...],
        info: os.stat_result,
        cached_only: bool = False,
    ) -> None:
        self._sandbox = sandbox
        self._fd = fd
        self._parts = parts
        self.path = path
        self.size = info.st_size
        self.cached_only = cached_only
        self.identity: tuple[Any, ...] | None = _identity(parts, info)

    def read(self) -> bytes:
        """The file's bytes, checked as :meth:`Sandbox.read` checks them; the identity is
        dropped if the file changed while it was read."""
        data = self._sandbox._read_pdf(self._fd, self.path, self.size)
        if _identity(self._parts, os.fstat(self._fd)) != self.identity:
            self.identity = None
        return data

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> SandboxFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _identity(parts: tuple[str, ...], info: os.stat_result) -> tuple[Any, ...]:
    return (parts, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


@dataclass
class _Walk:
    """A depth-first walk in name order, resumable after a position (a component tuple)."""

    sandbox: Sandbox
    pattern: str
    after: tuple[str, ...] | None
    #: Only names ending in ``.pdf`` (case-insensitive), whatever the pattern.
    pdf_only: bool = True
    position: tuple[str, ...] = ()
    scanned: int = 0
    stopped: bool = False  # the scan budget ran out: the cursor continues from ``position``
    skipped: dict[str, int] = field(default_factory=dict)

    def _skip(self, reason: str) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + 1

    def files(self, handle: int | str, prefix: list[str]) -> Generator[ListedDocument, None, None]:
        if len(prefix) > MAX_DEPTH:
            self._skip("too_deep")
            return
        try:
            with os.scandir(handle) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            self._skip("unreadable_directory")
            return
        for entry in entries:
            parts = (*prefix, entry.name)
            if self.after is not None and parts < self.after[: len(parts)]:
                continue  # wholly before the cursor
            if self.after is not None and parts == self.after:
                continue  # the entry the cursor stopped at (a file, or a finished directory)
            if self.scanned >= MAX_SCAN:
                self.stopped = True
                return
            self.scanned += 1
            self.position = parts
            try:
                entry.name.encode("utf-8")
            except UnicodeEncodeError:  # not UTF-8 on disk: no JSON path can name it
                self._skip("undecodable_name")
                continue
            if entry.is_dir(follow_symlinks=False):
                child = self._child(handle, entry.name)
                if child is None:
                    self._skip("unreadable_directory")
                    continue
                try:
                    yield from self.files(child, list(parts))
                finally:
                    if isinstance(child, int):
                        os.close(child)
                if self.stopped:
                    return
                self.position = parts
                continue
            found = self._file(entry, parts)
            if found is not None:
                yield found

    def _child(self, handle: int | str, name: str) -> int | str | None:
        if isinstance(handle, str):  # pragma: no cover - non-POSIX
            return os.path.join(handle, name)
        try:
            return os.open(
                name, os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW | _O_CLOEXEC, dir_fd=handle
            )
        except OSError:
            return None

    def _file(self, entry: os.DirEntry[str], parts: tuple[str, ...]) -> ListedDocument | None:
        relative = "/".join(parts)
        folded = relative.casefold()
        if not fnmatch.fnmatchcase(folded, self.pattern):
            return None
        if self.pdf_only and not folded.endswith(".pdf"):
            return None
        try:
            if entry.is_symlink():
                # Resolved as a read resolves it: a link listed is a link that can be read.
                try:
                    target = self.sandbox._walk(list(parts), relative)
                    info = os.stat(os.path.join(self.sandbox.root, *target))
                except PdfthinError as exc:
                    self._skip("link_outside_root" if exc.code == "outside_root" else "broken_link")
                    return None
                except OSError:
                    self._skip("broken_link")
                    return None
                if not stat.S_ISREG(info.st_mode):
                    return None  # a link to a directory or a special file
            else:
                info = entry.stat(follow_symlinks=False)
                if not stat.S_ISREG(info.st_mode):
                    return None  # FIFOs, devices, sockets
        except OSError:
            self._skip("unreadable")
            return None
        modified = datetime.fromtimestamp(info.st_mtime, tz=timezone.utc)
        return {
            "path": relative,
            "size": info.st_size,
            "modified": modified.strftime("%Y-%m-%dT%H:%M:%SZ"),
        }


def _lstat(directory: int | str, name: str, path: str) -> os.stat_result:
    try:
        if isinstance(directory, str):  # pragma: no cover - non-POSIX
            return os.lstat(os.path.join(directory, name))
        return os.stat(name, dir_fd=directory, follow_symlinks=False)
    except OSError as exc:
        raise _open_error(exc, path) from None


def _readlink(directory: int | str, name: str, path: str) -> str:
    try:
        if isinstance(directory, str):  # pragma: no cover - non-POSIX
            return os.readlink(os.path.join(directory, name))
        return os.readlink(name, dir_fd=directory)
    except OSError:  # swapped for something else since the lstat
        raise _changed(path) from None


def _check_kind(info: os.stat_result, path: str) -> None:
    if stat.S_ISLNK(info.st_mode):  # resolved paths hold no links: it was swapped in
        raise _not_found(f"{path!r} changed while it was being opened; try again", path)
    if stat.S_ISDIR(info.st_mode):
        raise PdfthinError("not_a_pdf", f"{path!r} is a directory", path=path)
    if not stat.S_ISREG(info.st_mode):
        raise PdfthinError(
            "not_a_pdf", f"{path!r} is not a regular file (a FIFO, device or socket)", path=path
        )


def _open_error(exc: OSError, path: str) -> PdfthinError:
    if exc.errno == errno.ENOENT:
        return _not_found(f"no such file under the root: {path!r}", path)
    if exc.errno in (errno.ELOOP, errno.ENOTDIR, getattr(errno, "EMLINK", -1)):
        # A component is a link (swapped in after the check) or not a directory.
        return _not_found(f"{path!r} does not name a file under the root", path)
    if exc.errno == errno.EACCES:
        return _not_found(f"{path!r} cannot be read (permission denied)", path)
    return _not_found(f"{path!r} cannot be opened: {exc.strerror}", path)


def _read_upto(fd: int, count: int, step: int = 1 << 20) -> bytes:
    """Up to ``count`` bytes (fewer at the end of the file), read ``step`` at a time (a buffer
    of ``step`` bytes is made for each read). With ``step`` = ``count`` a regular file gives
    them in one read, into one buffer, and nothing is joined."""
    chunks: list[bytes] = []
    while count > 0:
        chunk = os.read(fd, min(count, step))
        if not chunk:
            break
        chunks.append(chunk)
        count -= len(chunk)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


# --- listing cursors ---------------------------------------------------------------------------
# A listing cursor is a position in the walk (the last entry examined), bound to the
# subdirectory and pattern it was issued for by their digest (the caller passes them again). It
# cannot widen access: the walk always starts inside the subdirectory, and a forged position
# only moves where it resumes. It is sealed as the document cursors are (a checksum, or an
# HMAC with the deployment's key: pdfthin/operations/cursor.py).


def _encode_cursor(
    sub: str, pattern: str, position: tuple[str, ...], key: bytes | None = None
) -> str:
    path = "/".join(position).encode("utf-8")
    payload = {
        "v": _CURSOR_VERSION,
        "a": _listing_digest(sub, pattern),
        "p": base64.urlsafe_b64encode(path).decode("ascii"),
    }
    return cursors.seal(payload, key)


def _listing_digest(sub: str, pattern: str) -> str:
    raw = json.dumps([sub, pattern], ensure_ascii=True).encode("ascii")
    return hashlib.blake2b(raw, digest_size=8).hexdigest()


def _decode_cursor(token: Any, sub: str, pattern: str, key: bytes | None = None) -> tuple[str, ...]:
    def bad(message: str) -> PdfthinError:
        return PdfthinError("invalid_cursor", message)

    payload = cursors.unseal(token, key, MAX_LISTING_CURSOR_CHARS)
    if payload.get("v") != _CURSOR_VERSION:
        raise bad("the cursor is not a listing cursor of this version")
    if payload.get("a") != _listing_digest(sub, pattern):
        raise bad("the cursor was issued for another subdirectory or pattern")
    packed = payload.get("p")
    try:
        if not isinstance(packed, str) or len(packed) > _MAX_PACKED_POSITION:
            raise ValueError("not a position")
        position = tuple(base64.urlsafe_b64decode(packed).decode("utf-8").split("/"))
    except (ValueError, UnicodeDecodeError):
        raise bad("the cursor's position is malformed") from None
    if len(position) > MAX_DEPTH + 1 or not all(position):
        raise bad("the cursor's position is malformed")
    return position
