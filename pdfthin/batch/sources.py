"""Which documents a batch reads, and the name each goes by.

A batch is given a folder (every ``*.pdf`` under it, any case, recursively) or a list file
(``@list.txt``: one path a line; ``@-`` reads the list from stdin). The ``@`` says "a list",
as compilers' response files do, so a list is never mistaken for a PDF, whatever its name.
Documents are sorted by name, so two runs over the same files go in the same order.

Each document's *name* is its path relative to the batch's root (the folder, or for a list
the deepest folder holding every listed file), with ``/`` between parts: its outputs mirror
that tree, and the manifest and the records key on it, so a batch moved elsewhere resumes.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pdfthin.errors import PdfthinError

#: What marks SRC as a list file rather than a folder or a PDF.
LIST_PREFIX = "@"


@dataclass(frozen=True, order=True)
class SourceFile:
    """One document of a batch: its name in the batch (the sort key) and where it is."""

    name: str
    path: str


def sources(src: str) -> list[SourceFile]:
    """The documents ``src`` names: ``@LIST`` (``@-``: stdin), a folder, or one PDF.
    A folder that does not exist, or an unreadable list, is ``not_found``."""
    if src.startswith(LIST_PREFIX):
        return listed(src[len(LIST_PREFIX) :])
    path = Path(src)
    if path.is_dir():
        return in_folder(path)
    if path.is_file():
        return named([path])
    raise PdfthinError("not_found", f"{src}: no such folder or file (a list file is @{src})")


def in_folder(folder: Path) -> list[SourceFile]:
    """Every ``*.pdf`` (any case) under ``folder``, sorted by name. Symlinked folders are
    not followed (a link cycle would never end); symlinked files are read."""
    found: list[SourceFile] = []
    for here, dirs, files in os.walk(folder):
        dirs.sort()
        for file in files:
            if file.lower().endswith(".pdf"):
                full = Path(here) / file
                found.append(SourceFile(full.relative_to(folder).as_posix(), str(full)))
    return sorted(found)


def listed(list_file: str) -> list[SourceFile]:
    """The paths of a list file, one a line: blank lines and lines starting with ``#`` are
    skipped; a relative path is relative to the list file's folder (to the working folder
    for ``-``). Each path once, in name order."""
    try:
        if list_file == "-":
            text, base = sys.stdin.read(), Path.cwd()
        else:
            text = Path(list_file).read_text(encoding="utf-8")
            base = Path(list_file).parent
    except (OSError, UnicodeDecodeError) as exc:
        raise PdfthinError("not_found", f"cannot read the list {list_file}: {exc}") from None
    lines = (line.strip() for line in text.splitlines())
    return named(base / line for line in lines if line and not line.startswith("#"))


def named(paths: Iterable[str | os.PathLike[str]]) -> list[SourceFile]:
    """``paths`` named relative to the deepest folder holding them all, each once, sorted.
    A path need not exist: the batch records it as ``not_found`` and goes on."""
    absolute = list(dict.fromkeys(Path(os.path.abspath(p)) for p in paths))
    if not absolute:
        return []
    root = Path(os.path.commonpath([p.parent for p in absolute]))
    return sorted(SourceFile(p.relative_to(root).as_posix(), str(p)) for p in absolute)
