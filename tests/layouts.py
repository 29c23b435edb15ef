"""A document built with its pages' layouts kept aside, for the tests that look at the lines
and blocks behind its Markdown: a built ``Document`` keeps none (they serve the build only)."""

from __future__ import annotations

import os
from typing import Any

import pytest

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


def count_layouts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The numbers of the pages laid out from now on (for the rest of the test), in order: what
    a call read, since a page is laid out when it is built."""
    laid_out: list[int] = []
    real = model_document.layout_page

    def counting(content: Any) -> Any:
        laid_out.append(content.number)
        return real(content)

    monkeypatch.setattr(model_document, "layout_page", counting)
    return laid_out
