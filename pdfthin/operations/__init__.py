"""Operations: stateless handlers, request in, JSON-ready response out.

Every adapter (CLI, MCP server, Lambda handler, browser) calls these and nothing else, so the
same request gets the same answer everywhere; each adapter derives its operations, their
arguments and their schemas from the one declaration of each in :mod:`.registry`. Failures are
:class:`~pdfthin.errors.PdfthinError` with a stable code; :func:`error_envelope` turns any
exception into the envelope.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pdfthin.errors import PdfthinError

if TYPE_CHECKING:
    from pdfthin.operations.anchors import resolve_anchor
    from pdfthin.operations.annotations import get_annotations
    from pdfthin.operations.chunks import get_chunks
    from pdfthin.operations.context import Context, default_context
    from pdfthin.operations.describe import describe_document
    from pdfthin.operations.diff import diff_documents
    from pdfthin.operations.extract import extract_schema
    from pdfthin.operations.find import find_in_document
    from pdfthin.operations.forms import form_fields, get_form_fields
    from pdfthin.operations.images import get_image, image_file, list_images
    from pdfthin.operations.info import get_info
    from pdfthin.operations.inspect import inspect_layout
    from pdfthin.operations.ranked import search_chunks
    from pdfthin.operations.read import read_pages
    from pdfthin.operations.reading_ledger import ledger
    from pdfthin.operations.registry import OPERATIONS, Operation
    from pdfthin.operations.sections import peek, read_section
    from pdfthin.operations.toc import get_toc
    from pdfthin.operations.verify import verify_quote

__all__ = [
    "OPERATIONS",
    "Context",
    "Operation",
    "default_context",
    "describe_document",
    "diff_documents",
    "error_envelope",
    "extract_schema",
    "find_in_document",
    "form_fields",
    "get_annotations",
    "get_chunks",
    "get_form_fields",
    "get_image",
    "get_info",
    "get_toc",
    "image_file",
    "inspect_layout",
    "ledger",
    "list_images",
    "peek",
    "read_pages",
    "read_section",
    "resolve_anchor",
    "search_chunks",
    "verify_quote",
]


def __getattr__(name: str) -> Any:
    # Imported on first use: the handlers import the engine (and pypdf with it), which a
    # command line answering --help or --version, or a server listing its tools, never needs.
    if name == "OPERATIONS" or name == "Operation":
        from pdfthin.operations import registry

        return getattr(registry, name)
    if name == "Context" or name == "default_context":
        from pdfthin.operations import context

        return getattr(context, name)
    if name == "describe_document":
        from pdfthin.operations.describe import describe_document

        return describe_document
    if name == "extract_schema":
        from pdfthin.operations.extract import extract_schema

        return extract_schema
    if name == "find_in_document":
        from pdfthin.operations.find import find_in_document

        return find_in_document
    if name in ("form_fields", "get_form_fields"):
        from pdfthin.operations import forms

        return getattr(forms, name)
    if name in ("get_image", "image_file", "list_images"):
        from pdfthin.operations import images

        return getattr(images, name)
    if name == "get_annotations":
        from pdfthin.operations.annotations import get_annotations

        return get_annotations
    if name == "get_chunks":
        from pdfthin.operations.chunks import get_chunks

        return get_chunks
    if name == "search_chunks":
        from pdfthin.operations.ranked import search_chunks

        return search_chunks
    if name == "get_info":
        from pdfthin.operations.info import get_info

        return get_info
    if name == "inspect_layout":
        from pdfthin.operations.inspect import inspect_layout

        return inspect_layout
    if name == "ledger":
        from pdfthin.operations.reading_ledger import ledger

        return ledger
    if name == "read_pages":
        from pdfthin.operations.read import read_pages

        return read_pages
    if name == "peek" or name == "read_section":
        from pdfthin.operations import sections

        return getattr(sections, name)
    if name == "verify_quote":
        from pdfthin.operations.verify import verify_quote

        return verify_quote
    if name == "resolve_anchor":
        from pdfthin.operations.anchors import resolve_anchor

        return resolve_anchor
    if name == "diff_documents":
        from pdfthin.operations.diff import diff_documents

        return diff_documents
    if name == "get_toc":
        from pdfthin.operations.toc import get_toc

        return get_toc
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def error_envelope(exc: BaseException) -> dict[str, Any]:
    """The error envelope for ``exc``; an unexpected exception is ``internal`` (a bug)."""
    if isinstance(exc, PdfthinError):
        return exc.envelope()
    if isinstance(exc, MemoryError):
        return PdfthinError("too_large", "the document needs more memory than allowed").envelope()
    if isinstance(exc, RecursionError):
        return PdfthinError("malformed", "the document nests too deeply to read").envelope()
    # Only the exception's type: its text may name files (an OSError's absolute path, the
    # server's root) that the caller never gave. Adapters log the exception itself.
    name = type(exc).__name__
    return PdfthinError(
        "internal", f"unexpected {name}: a bug in pdfthin, please report it", type=name
    ).envelope()
