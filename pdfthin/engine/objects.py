"""Helpers that read pypdf's objects defensively: a broken reference, a wrong type or
a runaway number reads as absent, never as an exception in the middle of a page."""

from __future__ import annotations

import math
from typing import Any

from pypdf.errors import DependencyError
from pypdf.generic import BooleanObject, IndirectObject, StreamObject

#: References followed from one to the next before giving up: an object may be nothing but
#: a reference to another (rare, legal), and a loop of them must not spin forever.
MAX_REFERENCE_CHAIN = 32


def resolve(obj: Any) -> Any:
    """Resolve an indirect object; a broken reference (or a chain of references longer than
    ``MAX_REFERENCE_CHAIN``, a loop) becomes ``None``. A missing optional library (AES
    decryption without ``cryptography``) is not a broken reference: it is raised, so the page
    that needed the object is reported unread instead of empty."""
    if not isinstance(obj, IndirectObject):
        return obj  # most objects asked for are direct: no loop to set up
    try:
        for _ in range(MAX_REFERENCE_CHAIN):
            if not isinstance(obj, IndirectObject):
                return obj
            obj = obj.get_object()
    except DependencyError:
        raise
    except Exception:
        return None
    return None if isinstance(obj, IndirectObject) else obj


def get(d: Any, key: str, default: Any = None) -> Any:
    """``d[key]`` resolved, or ``default`` when absent, broken or ``d`` is not a dictionary."""
    if not isinstance(d, dict):
        return default
    try:
        value = dict.get(d, key)
    except Exception:
        return default
    if value is None:
        return default
    value = resolve(value)
    return default if value is None else value


def truthy(value: Any) -> bool:
    """A PDF ``true`` (pypdf's ``BooleanObject`` is not the ``True`` singleton)."""
    if isinstance(value, BooleanObject):
        return bool(value.value)
    return value is True


def num(value: Any, default: float = 0.0) -> float:
    try:
        out = float(value)
    except (TypeError, ValueError):
        return default
    return out if not math.isnan(out) and abs(out) < 1e12 else default


def stream_data(obj: Any) -> bytes | None:
    obj = resolve(obj)
    if not isinstance(obj, StreamObject):
        return None
    try:
        return obj.get_data()
    except Exception:
        return None
