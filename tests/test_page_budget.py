"""Every page has one work budget, and the document one as a whole (docs/design.md, invariant 13;
issue 18, item 3): past a limit the page keeps what it read, is marked incomplete with a
problem naming the limit, and is never ``empty``; past the document's budget the pages left
are not read and say so. The same limits stop the native interpreter at the same point
(tests/test_native_properties.py compares the two).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hostile import page_work
from hypothesis import given
from hypothesis import strategies as st
from pdfbuilder import PdfBuilder, inline_image, simple_pdf

import pdfthin
from pdfthin.engine import Limits, document, open_pdf
from pdfthin.engine.content import interpreter as interp
from pdfthin.engine.content import visibility
from pdfthin.engine.types import PageContent
from pdfthin.layout.order import _inversions
from pdfthin.model import document as model
from pdfthin.operations import Context, describe_document

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")


def _texts(page: PageContent) -> list[str]:
    return [r.text for r in page.runs]


def _form_page(form_content: bytes, draws: int, **resources: Any) -> PageContent:
    """``(first) Tj``, then a form holding ``form_content`` drawn ``draws`` times."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    form = b.form_xobject(form_content, resources={"Font": {"F1": font}, **resources})
    content = b"BT /F1 10 Tf 72 700 Td (first) Tj ET " + b"/Fm Do " * draws
    b.add_page(content, {"Font": {"F1": font}, "XObject": {"Fm": form}})
    return open_pdf(b.build()).page(1)


def _stopped_by(page: PageContent, problem: str) -> None:
    assert page.incomplete is True
    assert problem in page.problems, page.problems
    assert _texts(page)[0] == "first"  # what was read before the limit is kept


# --- the page's budget -----------------------------------------------------------------------


def test_glyphs_shown_by_a_form_drawn_again_and_again_are_counted_each_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(interp, "MAX_GLYPHS", 100)
    page = _form_page(b"BT /F1 10 Tf 72 600 Td (twenty glyphs here..) Tj ET", 50)
    _stopped_by(page, "more than 100 glyphs on the page")
    assert page.glyphs == 5 + 5 * 20  # stopped by the show that went past the limit


def test_the_default_glyph_budget_stops_a_billion_glyphs() -> None:
    """The attack of tests/hostile (one form of 20,480 glyphs drawn 9,999 times), read with
    the real limits: it stops right after a million glyphs."""
    page = open_pdf(page_work.form_tj()).page(1)
    assert page.incomplete is True
    assert f"more than {interp.MAX_GLYPHS} glyphs on the page" in page.problems
    assert interp.MAX_GLYPHS < page.glyphs <= interp.MAX_GLYPHS + 20_480 + 17


def test_text_runs_are_limited(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interp, "MAX_RUNS", 4)
    page = _form_page(b"BT /F1 10 Tf 72 600 Td (a) Tj 3 Tr (b) Tj 0 Tr (c) Tj ET", 5)
    _stopped_by(page, "more than 4 text runs on the page")
    assert len(page.runs) + len(page.hidden) == 4  # the hidden "b" counts too


def test_images_are_limited(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interp, "MAX_IMAGES", 3)
    b = PdfBuilder()
    image = b.image_xobject(1, 1)
    b.add_page(b"/Im Do " * 5, {"XObject": {"Im": image}})
    page = open_pdf(b.build()).page(1)
    assert len(page.images) == 3
    assert page.incomplete and "more than 3 images on the page" in page.problems


def test_inline_image_bytes_kept_are_limited(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interp, "MAX_INLINE_BYTES", 100)
    image = inline_image(8, 5, b"\x80" * 40)
    page = _form_page(b"q 9 0 0 9 0 0 cm " + image + b" Q", 5)
    _stopped_by(page, "more than 100 bytes of inline images on the page")
    assert [len(i.inline_data or b"") for i in page.images] == [40, 40]


def test_content_bytes_count_each_form_each_time_it_is_drawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(interp, "MAX_CONTENT_BYTES", 1000)
    form = b"0 0 m 10 10 l S " * 20  # 320 bytes
    page = _form_page(form, 5)
    _stopped_by(
        page,
        "more than 1000 bytes of content on the page (Form XObjects counted each time they "
        "are drawn)",
    )
    assert page.operators == 5 + 3 + 2 * 60  # the page's up to the third Do, two forms


def test_content_streams_past_the_limit_are_not_joined(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interp, "MAX_CONTENT_BYTES", 1000)
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    first = b"BT /F1 10 Tf 72 700 Td (first) Tj ET"
    big = b.stream(b"0 0 m " * 100)
    page_ref = b.add_page(first, {"Font": {"F1": font}})
    b.get(page_ref)["Contents"] = [b.get(page_ref)["Contents"], *[big] * 500]
    page = open_pdf(b.build()).page(1)
    _stopped_by(page, "the page's content streams hold more than 1000 bytes; the rest was not read")
    assert page.operators == 5 + 100  # the first stream and one of the 600-byte ones


_AREA_PROBLEM = "more than {} area tests for hidden text on the page"


def _covered_words(count: int) -> bytes:
    """``count`` words, each covered by a black box drawn after it (each hidden as covered
    while area tests are left)."""
    return b"".join(
        b"BT /F1 10 Tf 72 %d Td (word) Tj ET 0 g 60 %d 200 20 re f " % (700 - 40 * i, 695 - 40 * i)
        for i in range(count)
    )


def test_what_lies_over_text_is_judged_within_the_area_tests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    page = open_pdf(simple_pdf(_covered_words(6))).page(1)
    assert [h.reason for h in page.hidden] == ["covered"] * 6
    assert not any("area tests" in p for p in page.problems)
    monkeypatch.setattr(visibility, "MAX_AREA_TESTS", 40)
    page = open_pdf(simple_pdf(_covered_words(6))).page(1)
    # The first words are judged (and hidden); past the tests the rest is read as it stands.
    hidden = [h.reason for h in page.hidden]
    assert 0 < len(hidden) < 6 and set(hidden) == {"covered"}
    assert _texts(page) == ["word"] * (6 - len(hidden))
    assert any(p.startswith(_AREA_PROBLEM.format(40)) for p in page.problems), page.problems


def test_invisible_text_past_the_area_tests_is_withheld_unchecked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(visibility, "MAX_AREA_TESTS", 5)
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(1, 1)
    scans = b"".join(b"q 100 0 0 100 %d 0 cm /Im Do Q " % (110 * i) for i in range(3))
    # Each word lies over the last image: three tests each, of five.
    words = b"BT /F1 10 Tf 3 Tr " + b"1 0 0 1 230 40 Tm (w) Tj " * 3 + b"ET"
    content = b"BT /F1 10 Tf 72 700 Td (first) Tj ET " + scans + words
    b.add_page(content, {"Font": {"F1": font}, "XObject": {"Im": image}})
    page = open_pdf(b.build()).page(1)
    # While tests are left each word is found on a scan (its OCR layer); after, withheld.
    ocr = [(r.text, r.ocr_layer) for r in page.runs[1:]]
    assert page.runs[0].text == "first" and 0 < len(ocr) < 3 and set(ocr) == {("w", True)}
    assert [h.reason for h in page.hidden] == ["invisible"] * (3 - len(ocr))
    assert any(p.startswith(_AREA_PROBLEM.format(5)) for p in page.problems), page.problems


def test_a_page_cut_short_before_any_text_is_never_empty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(interp, "MAX_CONTENT_BYTES", 200)
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    form = b.form_xobject(b"q Q " * 100 + b"BT /F1 10 Tf 72 600 Td (late) Tj ET")
    b.add_page(b"/Fm Do", {"Font": {"F1": font}, "XObject": {"Fm": form}})
    doc = pdfthin.open(b.build())
    page = doc.page(1)
    assert (page.status, page.reason_code) == ("needs_ocr", "limit_reached")
    assert "more than 200 bytes of content" in page.reason


# --- layout ----------------------------------------------------------------------------------


def test_layout_gets_at_most_its_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model, "MAX_LAYOUT_RUNS", 3)
    words = b"".join(b"1 0 0 1 72 %d Tm (word%d) Tj " % (700 - 20 * i, i) for i in range(6))
    page = pdfthin.open(simple_pdf(b"BT /F1 10 Tf " + words + b"ET")).page(1)
    assert page.text.split() == ["word0", "word1", "word2"]
    assert "more than 3 text runs to lay out; the runs drawn after them were left out" in (
        page.problems
    )
    assert (page.status, page.reason_code) == ("text", "partial")


@given(st.lists(st.integers(-5, 5), max_size=60))
def test_inversions_are_counted_as_pair_by_pair(values: list[int]) -> None:
    pairs = sum(
        1 for i in range(len(values)) for j in range(i + 1, len(values)) if values[i] > values[j]
    )
    assert _inversions(values) == pairs


def test_inversions_of_a_large_shuffle() -> None:
    values = list(range(3000))
    random.Random(7).shuffle(values)
    pairs = sum(1 for i, a in enumerate(values) for b in values[i + 1 :] if a > b)
    assert _inversions(values) == pairs


# --- the document's budget -------------------------------------------------------------------


def _pages(count: int) -> bytes:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    for i in range(count):
        text = b"BT /F1 10 Tf 72 700 Td (page %d of the document) Tj ET" % (i + 1)
        b.add_page(text, {"Font": {"F1": font}})
    return b.build()


def _page_work() -> int:
    """What each page of ``_pages`` costs: 5 operators, 22 glyphs, one run, the page."""
    return 5 + 22 + document.KEPT_WORK + document.PAGE_OVERHEAD_WORK


def test_pages_past_the_documents_work_budget_are_not_read() -> None:
    page_work = _page_work()
    doc = open_pdf(_pages(6), limits=Limits(document_work=3 * page_work))
    pages = [doc.page(n) for n in range(1, 7)]
    assert [bool(p.runs) for p in pages] == [True, True, True, False, False, False]
    assert doc.work_spent == 3 * page_work
    assert pages[3].incomplete
    assert pages[3].problems == [
        f"not read: the document's work budget ({3 * page_work} work units) was spent on the pages "
        "before it"
    ]
    assert doc.problems == [
        f"the document's work budget ({3 * page_work} work units) was spent before page 4; it and "
        "the pages after it were not read"
    ]
    # A page read before is read again: it counts once.
    assert _texts(doc.page(2)) == ["page 2 of the document"]
    assert doc.work_spent == 3 * page_work


def test_the_documents_work_budget_reaches_the_agent() -> None:
    page_work = _page_work()
    context = Context(limits=Limits(document_work=2 * page_work))
    described = describe_document(_pages(5), context=context)
    assert described["pages"]["text"] == "1-2"
    assert described["pages"]["needs_ocr_reasons"] == {"limit_reached": "3-5"}
    assert described["problems"] == [
        f"the document's work budget ({2 * page_work} work units) was spent before page 3; "
        "it and the pages after it were not read"
    ]


def test_pages_past_the_documents_time_limit_are_not_read() -> None:
    doc = pdfthin.open(_pages(3), limits=Limits(document_seconds=0.0))
    assert [p.status for p in doc.pages] == ["needs_ocr"] * 3
    assert doc.pages[0].problems == [
        "not read: the document's time limit (0 s) ran out on the pages before it"
    ]
    # Read one page at a time, through the engine, the document has no time limit.
    assert _texts(open_pdf(_pages(3), limits=Limits(document_seconds=0.0)).page(3)) == [
        "page 3 of the document"
    ]
