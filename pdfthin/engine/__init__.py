"""The engine: the only layer that imports pypdf and (in ``_native``) ``pdfthin_native``.

``open_pdf`` turns a path or bytes into an :class:`EngineDocument`, whose pages come out as
plain :mod:`~pdfthin.engine.types` data with 1-based numbers.
"""

from __future__ import annotations

import os
from pathlib import Path

from pdfthin.engine._native import NativeUnavailable
from pdfthin.engine._native import require as require_native
from pdfthin.engine._native import select as select_native
from pdfthin.engine.annotations import Annotation, EmbeddedFile, PageAnnotations
from pdfthin.engine.document import EngineDocument, Limits, fingerprint, password_refused
from pdfthin.engine.images import ImageFacts, StoredImage, image_facts, load_image
from pdfthin.engine.pypdf_version import pypdf_warning
from pdfthin.engine.types import (
    DocumentFacts,
    HiddenText,
    ImagePlacement,
    Metadata,
    OutlineEntry,
    PageContent,
    TextRun,
)
from pdfthin.errors import PdfthinError

__all__ = [
    "Annotation",
    "DocumentFacts",
    "EmbeddedFile",
    "EngineDocument",
    "HiddenText",
    "ImageFacts",
    "ImagePlacement",
    "Limits",
    "Metadata",
    "NativeUnavailable",
    "OutlineEntry",
    "PageAnnotations",
    "PageContent",
    "StoredImage",
    "TextRun",
    "engine_info",
    "fingerprint",
    "image_facts",
    "load_image",
    "open_pdf",
    "password_refused",
    "pypdf_warning",
    "read_source",
    "require_native",
    "select_native",
]


def read_source(source: str | os.PathLike[str] | bytes, limits: Limits | None = None) -> bytes:
    """The bytes of a path or of ``source`` itself, with the size limit checked first."""
    limits = limits or Limits()
    if isinstance(source, (bytes, bytearray, memoryview)):
        if len(source) > limits.max_file_bytes:
            raise PdfthinError(
                "too_large",
                f"the document is {len(source)} bytes; the limit is {limits.max_file_bytes}",
                size=len(source),
                limit=limits.max_file_bytes,
            )
        return bytes(source)
    path = Path(source)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise PdfthinError("not_found", f"no such file: {path}") from None
    except OSError as exc:
        raise PdfthinError("not_found", f"cannot read {path}: {exc.strerror}") from None
    if path.is_dir():
        raise PdfthinError("not_a_pdf", f"{path} is a directory")
    if size > limits.max_file_bytes:
        raise PdfthinError(
            "too_large",
            f"the file is {size} bytes; the limit is {limits.max_file_bytes}",
            size=size,
            limit=limits.max_file_bytes,
        )
    try:
        with path.open("rb") as fh:
            # As many bytes as the file has, and one more to see a file that grew since:
            # reading ``max_file_bytes + 1`` at once would make a buffer that large first.
            want = size + 1
            data = fh.read(want)
            if len(data) == want:
                data += fh.read(limits.max_file_bytes + 1 - want)
            return data
    except OSError as exc:
        raise PdfthinError("not_found", f"cannot read {path}: {exc.strerror}") from None


def open_pdf(
    source: str | os.PathLike[str] | bytes,
    password: str | None = None,
    limits: Limits | None = None,
) -> EngineDocument:
    """Open a PDF from a path or bytes. Raises :class:`PdfthinError` (``not_found``,
    ``not_a_pdf``, ``encrypted``, ``malformed``, ``too_large``)."""
    return EngineDocument(read_source(source, limits), password=password, limits=limits)


def engine_info() -> dict[str, str | bool]:
    """Which engine answers (``"native"`` or ``"pure"``) and the versions of what it runs
    on: pypdf's, with its tested range and whether it is inside it (``pypdf_version``)."""
    from pdfthin.engine import _native
    from pdfthin.engine.pypdf_version import pypdf_info

    info: dict[str, str | bool] = {**_native.info(), **pypdf_info()}
    return info
