"""CID -> Unicode for Adobe's character collections (Japan1, GB1, CNS1, Korea1).

A CID font without ``/ToUnicode`` whose ``/CIDSystemInfo`` names one of these collections
still has well-defined text: its CIDs are Adobe's, and Adobe publishes their Unicode values
(cmap-resources, BSD-3-Clause). The tables are compact binaries made by
``tools/gen_cidmaps.py`` and loaded on first use.
"""

from __future__ import annotations

import functools
import os
import zlib
from typing import Any, Protocol

from pdfthin.engine import _native

ORDERINGS = frozenset({"Japan1", "GB1", "CNS1", "Korea1"})


class CidTable(Protocol):
    """CID -> Unicode text: a ``dict`` (pure), or ``pdfthin_native.CidTable``, the same
    mapping kept compact, whose strings are made when looked up."""

    def get(self, cid: int, default: Any = None, /) -> Any: ...

    def __getitem__(self, cid: int, /) -> str: ...

    def __contains__(self, cid: object, /) -> bool: ...

    def __len__(self) -> int: ...


def _varints(data: bytes) -> list[int]:
    out: list[int] = []
    value = shift = 0
    for byte in data:
        value |= (byte & 0x7F) << shift
        if byte & 0x80:
            shift += 7
        else:
            out.append(value)
            value = shift = 0
    return out


def _unzig(value: int) -> int:
    return value >> 1 if not value & 1 else -(value >> 1) - 1


@functools.lru_cache(maxsize=4)
def cid_to_unicode(ordering: str) -> CidTable | None:
    """The table for an Adobe ordering, or ``None`` for any other collection."""
    if ordering not in ORDERINGS:
        return None
    raw = _data_file(f"Adobe-{ordering}.bin")
    return _read_table(zlib.decompress(raw))


def python_table(ordering: str) -> dict[int, str]:
    """The table for an Adobe ordering (one of :data:`ORDERINGS`) read by Python alone: where
    a native table fails (``_native.Fault``), its user asks this instead."""
    return _read_python_table(zlib.decompress(_data_file(f"Adobe-{ordering}.bin")))


def _data_file(name: str) -> bytes:
    """A data file of this package, read by its loader (as ``pkgutil.get_data`` does): from a
    directory or a zip alike, without the first-time imports (``zipfile`` and more) that
    ``importlib.resources.files`` costs a fresh process."""
    spec: Any = __spec__
    data: bytes = spec.loader.get_data(os.path.join(os.path.dirname(__file__), name))
    return data


def _read_table(data: bytes) -> CidTable:
    """The table from its decompressed data: zig-zag varint deltas of CID and code point,
    then how many more code points the text has, and those."""
    native = _native.NATIVE
    if native is not None:
        try:
            built: CidTable | None = native.cid_table(data)  # None: Python reads it
        except _native.Fault:  # a failure of the native code: Python reads it
            built = None
        if built is not None:
            return built
    return _read_python_table(data)


def _read_python_table(data: bytes) -> dict[int, str]:
    numbers = _varints(data)
    table: dict[int, str] = {}
    cid = cp = 0
    i = 0
    while i + 2 < len(numbers) + 1 and i < len(numbers):
        cid += _unzig(numbers[i])
        cp += _unzig(numbers[i + 1])
        extra = numbers[i + 2]
        text = chr(cp) + "".join(chr(c) for c in numbers[i + 3 : i + 3 + extra])
        table[cid] = text
        i += 3 + extra
    return table
