"""Documents made as plain model data, without a PDF: thousands of pages in milliseconds, with
any status on any page, served to the operations by a context that answers every call with
them (the operations take whatever ``Context.document`` gives)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from pdfthin.engine import Metadata
from pdfthin.model import Document
from pdfthin.model.document import Page
from pdfthin.operations import Context

#: ``status -> (reason_code, reason)`` of the pages a synthetic document may hold.
REASONS = {
    "text": ("text_layer", "text layer"),
    "partial": ("partial", "text layer, read in part: the content stream cannot be read"),
    "needs_ocr": ("image_only", "no text layer; 1 image covers 100% of the page"),
    "unmapped": ("unmapped_glyphs", "12 glyphs have no Unicode mapping and no text was read"),
    "empty": ("blank", "nothing is drawn on the page"),
}


def page(number: int, kind: str, text: str | None = None) -> Page:
    code, reason = REASONS[kind]
    status = {"partial": "text", "unmapped": "needs_ocr"}.get(kind, kind)
    if text is None:
        text = f"words of page {number}" if status == "text" else ""
    return Page(
        number=number,
        status=status,
        reason=reason,
        reason_code=code,
        markdown=text,
        text=text,
        width=612.0,
        height=792.0,
        rotation=0,
    )


def document(kinds: list[str], texts: Callable[[int], str | None] | None = None) -> Document:
    pages = [page(n, kind, texts(n) if texts else None) for n, kind in enumerate(kinds, 1)]
    digest = hashlib.sha256(repr([(p.status, p.markdown) for p in pages]).encode()).hexdigest()
    return Document(
        fingerprint=digest,
        page_count=len(pages),
        metadata=Metadata(),
        outline=[],
        outline_problems=[],
        pages=pages,
    )


class SyntheticContext(Context):
    """A context whose every document is ``doc`` (whatever the source and password)."""

    def __init__(self, doc: Document, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.doc = doc

    def document(self, source: Any, password: Any = None, *args: Any, **kwargs: Any) -> Document:
        return self.doc


#: What the operations are given as the document: any bytes (the context ignores them).
SOURCE = b"%PDF-1.7 synthetic"
