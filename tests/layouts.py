"""A document built with its pages' layouts kept aside, for the tests that look at the lines
and blocks behind its Markdown: a built ``Document`` keeps none (they serve the build only)."""

from __future__ import annotations

import os

import pdfthin
from pdfthin.layout import PageLayout
from pdfthin.model import Document
from pdfthin.model import document as model_document


def open_with_layouts(
    source: str | os.PathLike[str] | bytes, password: str | None = None
) -> tuple[Document, list[PageLayout]]:
    """``pdfthin.open(source)`` and the layouts its pages were rendered from, one per page:
    those the document's vocabulary is taken from, after the document-wide pass."""
    captured: list[PageLayout] = []
    real = model_document._vocabulary

    def capture(layouts: list[PageLayout]) -> object:
        captured[:] = layouts
        return real(layouts)

    model_document._vocabulary = capture  # type: ignore[assignment]
    try:
        doc = pdfthin.open(source, password=password)
    finally:
        model_document._vocabulary = real
    assert len(captured) == len(doc.pages)
    return doc, captured
