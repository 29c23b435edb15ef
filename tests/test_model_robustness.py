"""A bug in layout must not cost a document its other pages (or a page its text)."""

from __future__ import annotations

import pytest
from pdfbuilder import PdfBuilder

import pdfthin
from pdfthin.layout import PageLayout
from pdfthin.model import document

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")


def three_pages() -> bytes:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    for n in (1, 2, 3):
        content = b"BT /F1 12 Tf 72 700 Td (page %d first) Tj 0 -20 Td (second line) Tj ET" % n
        b.add_page(content, {"Font": {"F1": font}})
    return b.build()


def test_a_page_whose_layout_fails_keeps_its_text_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = document.layout_page

    def broken(content: document.PageContent) -> PageLayout:
        if content.number == 2:
            raise ZeroDivisionError("a layout bug")
        return real(content)

    monkeypatch.setattr(document, "layout_page", broken)
    doc = pdfthin.open(three_pages())
    assert [p.status for p in doc.pages] == ["text", "text", "text"]
    assert [p.reason_code for p in doc.pages] == ["text_layer", "partial", "text_layer"]
    page = doc.page(2)
    assert page.markdown.split("\n\n") == ["page 2 first", "second line"]
    assert page.problems == ["layout failed (ZeroDivisionError); text kept in drawing order"]
    assert "page 3 first" in doc.page(3).markdown


def test_a_failing_document_pass_keeps_every_page(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(layouts: list[PageLayout], repeats: object = None) -> None:
        raise ValueError("a bug in furniture detection")

    monkeypatch.setattr(document, "finish_document", broken)
    doc = pdfthin.open(three_pages())
    for n, page in enumerate(doc.pages, start=1):
        assert f"page {n} first" in page.markdown
        assert page.problems == ["document structure not found (layout error: ValueError)"]
