"""Shared by the native tests: the native module (whatever the switch says), and reading the
same thing with each engine in one process."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

import pytest

from pdfthin.engine import _native, document

#: The engine paths, by the name a test id carries and the switch value that selects it
#: (``PDFTHIN_NATIVE``, for a child process); conftest's ``implementation`` fixture runs a
#: test on each.
IMPLEMENTATIONS = {"pure": "off", "native": "require"}


def native_module() -> ModuleType:
    """The native module, loaded whatever ``PDFTHIN_NATIVE`` says. Without it the test is
    skipped, except where the switch requires it (the native tox environment): there it
    fails."""
    module, reason = _native._load()
    if module is None:
        if os.environ.get(_native.ENV, "").strip().lower() == "require":
            pytest.fail(f"PDFTHIN_NATIVE=require but {reason}")
        pytest.skip(f"no native module: {reason}")
    return module


@contextmanager
def engine(module: ModuleType | None) -> Iterator[None]:
    """Read with ``module`` (``None``: pure Python) inside the block."""
    saved = _native.NATIVE, _native.mode
    _native.NATIVE, _native.mode = module, ("off" if module is None else "require")
    try:
        yield
    finally:
        _native.NATIVE, _native.mode = saved


@contextmanager
def content_stream(data: bytes) -> Iterator[None]:
    """Every page read inside the block has ``data`` as its content (resources unchanged)."""
    saved = document.content_bytes

    def replaced(page_obj: Any) -> tuple[bytes, list[str]]:
        return data, []

    document.content_bytes = replaced  # type: ignore[assignment]
    try:
        yield
    finally:
        document.content_bytes = saved  # type: ignore[assignment]


def both(doc: document.EngineDocument, number: int, module: ModuleType) -> tuple[str, str]:
    """``repr`` of the page as each engine reads it: every field, every float exactly."""
    with engine(None):
        pure = repr(doc.page(number))
    with engine(module):
        native = repr(doc.page(number))
    return pure, native


def first_difference(a: str, b: str) -> str:
    at = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
    left, right = a[max(0, at - 120) : at + 120], b[max(0, at - 120) : at + 120]
    return f"at {at}:\n  pure:   …{left}…\n  native: …{right}…"
