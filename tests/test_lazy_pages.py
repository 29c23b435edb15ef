"""Pages on demand (issue 21, docs/design.md invariant 5): a document is opened with its profile
(a fixed sample of pages finished together), and every other page is built when asked for,
against that profile alone. A page's Markdown is the same whether it is read alone, first,
last or with the whole document; the first page costs the profile and itself, not the file.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from conftest import CorpusFile, corpus_files, corpus_params, require_corpus
from layouts import count_layouts
from pdfbuilder import PdfBuilder

import pdfthin
from pdfthin.deadline import Deadline, applied
from pdfthin.engine import EngineDocument, Limits, open_pdf
from pdfthin.errors import PdfthinError
from pdfthin.model import document as model
from pdfthin.model.document import PROFILE_PAGES, Page, profile_sample
from pdfthin.model.pagecache import PageCache, page_bytes
from pdfthin.operations import Context, get_info, read_pages

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")

TITLE = b"A Study of Reading Documents Lazily"
#: A page outside the profile's sample of a 200-page document.
PART = 123


#: The names of a book's sections, in its running heads.
SECTIONS = (
    b"ALPHA BEGINNINGS",
    b"BRAVO METHODS",
    b"CHARLIE RESULTS",
    b"DELTA LIMITS",
    b"ECHO REPLIES",
    b"FOXTROT SIGNS",
    b"GOLF COURSES",
    b"HOTEL ROOMS",
    b"INDIA MAPS",
    b"JULIET LETTERS",
    b"KILO WEIGHTS",
    b"LIMA BEANS",
    b"MIKE CHECKS",
    b"NOVEMBER RAIN",
    b"OSCAR NIGHTS",
    b"PAPA WORDS",
    b"QUEBEC ROADS",
    b"ROMEO NOTES",
    b"SIERRA PEAKS",
    b"TANGO STEPS",
)


def _book(count: int, section_heads: bool = False) -> bytes:
    """``count`` pages of running text under a running head and over a page number, with a
    numbered section heading (set larger) on every fifth page, and a part title in a size of
    its own on page ``PART``."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    bold = b.font_standard("Helvetica-Bold")
    heads = b.font_standard("Times-Roman")
    for n in range(1, count + 1):
        ops = [b"BT /F1 9 Tf 72 760 Td (%s) Tj ET" % TITLE]
        if section_heads and n > 6:  # a head that changes with the section, every ten pages
            section = (n - 1) // 10
            ops.append(b"BT /F3 9 Tf 72 745 Td (%d. %s) Tj ET" % (section + 1, SECTIONS[section]))
        y = 700
        if n == PART:
            ops.append(b"BT /F2 20 Tf 72 %d Td (Part Two) Tj ET" % y)
            y -= 36
        if n % 5 == 0:
            ops.append(b"BT /F2 14 Tf 72 %d Td (%d Section number %d) Tj ET" % (y, n // 5, n // 5))
            y -= 28
        for i in range(20):
            words = b"words of running text on line %d of page %d in the body" % (i + 1, n)
            ops.append(b"BT /F1 10 Tf 72 %d Td (%s) Tj ET" % (y, words))
            y -= 12
        ops.append(b"BT /F1 9 Tf 300 40 Td (%d) Tj ET" % n)
        b.add_page(b"\n".join(ops), {"Font": {"F1": font, "F2": bold, "F3": heads}})
    return b.build()


@pytest.fixture(scope="module")
def book() -> bytes:
    return _book(200)


def test_the_first_page_costs_the_profile_and_itself(
    book: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    laid_out = count_layouts(monkeypatch)
    doc = pdfthin.open(book)
    doc.page(1)
    assert sorted(laid_out) == profile_sample(200)
    doc.page(150)  # outside the sample
    assert 150 not in profile_sample(200)
    assert len(laid_out) == PROFILE_PAGES + 1
    doc.page(150)  # cached
    assert len(laid_out) == PROFILE_PAGES + 1


def test_the_documents_facts_are_read_once_and_only_when_asked_for(
    book: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counting a document's annotations reads every page object: a call about one page
    does not, the first call that needs the facts does, once."""
    read: list[int] = []
    facts = EngineDocument.facts

    def counted(self: EngineDocument) -> Any:
        read.append(self.page_count)
        return facts(self)

    monkeypatch.setattr(EngineDocument, "facts", counted)
    context = Context()
    read_pages(book, pages="1", context=context)
    assert read == []
    first = get_info(book, context=context)
    assert read == [200]
    assert get_info(book, context=context) == first
    assert read == [200]
    assert first["annotations"] == 0 and first["forms"] == {"fields": 0, "xfa": False}


def test_the_profile_sample_is_bounded_and_covers_short_documents() -> None:
    assert profile_sample(5) == [1, 2, 3, 4, 5]
    assert profile_sample(PROFILE_PAGES) == list(range(1, PROFILE_PAGES + 1))
    for count in (PROFILE_PAGES + 1, 200, 10_000):
        sample = profile_sample(count)
        assert len(sample) == PROFILE_PAGES
        assert sample == sorted(set(sample))
        assert sample[0] == 1 and sample[-1] == count


def test_a_page_reads_the_same_alone_in_order_and_in_reverse(book: bytes) -> None:
    whole = [p.markdown for p in pdfthin.open(book).pages]
    backwards = pdfthin.open(book)
    reverse = [backwards.page(n).markdown for n in range(200, 0, -1)][::-1]
    assert reverse == whole
    for number in (1, 3, 57, 150, 200):
        assert pdfthin.open(book).page(number).markdown == whole[number - 1]


def test_a_page_outside_the_sample_is_finished_against_the_profile(book: bytes) -> None:
    doc = pdfthin.open(book)
    page = doc.page(155)  # outside the sample; its running head and number come off
    assert 155 not in profile_sample(200)
    assert page.header == [TITLE.decode()]
    assert page.footer == ["155"]
    assert TITLE.decode() not in page.markdown
    # Its section heading ranks with the headings of the sample.
    assert page.markdown.splitlines()[0] == "# 31 Section number 31"
    assert doc.page(5).markdown.splitlines()[0] == "# 1 Section number 1"


def test_a_size_the_sample_never_shows_is_a_heading_outside_it(book: bytes) -> None:
    assert PART not in profile_sample(200)
    page = pdfthin.open(book).page(PART)
    assert page.problems == []
    assert page.markdown.startswith("# Part Two\n\n")


def test_a_running_head_that_changes_with_the_section_is_known_by_its_look() -> None:
    """Page 123's running head ("13. MIKE CHECKS") shows on no page of the sample, nor does
    any other twice (the front matter has none): its look, seen in the margins of the
    sample's pages and nowhere else, tells it is no heading."""
    doc = pdfthin.open(_book(200, section_heads=True))
    assert not {121, 122, 123, 124, 125, 126, 127, 128, 129, 130} & set(profile_sample(200))
    headings = [line for line in doc.page(PART).markdown.splitlines() if line.startswith("#")]
    assert headings == ["# Part Two"]


def _page(number: int, chars: int) -> Page:
    text = "x" * chars
    return Page(number, "text", "text layer", "text_layer", text, text, 612.0, 792.0, 0)


def test_the_page_cache_evicts_the_least_recently_used_by_bytes() -> None:
    size = page_bytes(_page(1, 1000))
    cache = PageCache(max_bytes=3 * size)
    for n in (1, 2, 3):
        cache.put(n, _page(n, 1000))
    assert cache.bytes == 3 * size
    assert cache.get(1) is not None  # now the most recently used
    cache.put(4, _page(4, 1000))
    assert cache.get(2) is None  # the least recently used went first
    assert [n for n in (1, 3, 4) if cache.get(n) is not None] == [1, 3, 4]
    cache.put(5, _page(5, 2500))  # larger: two pages go to make room
    assert cache.bytes <= 3 * size
    assert cache.get(5) is not None and cache.get(1) is None and cache.get(3) is None
    cache.put(6, _page(6, 10 * 1000))  # more than the whole budget: not kept
    assert cache.get(6) is None and cache.bytes <= 3 * size


def test_a_page_pushed_out_of_the_cache_is_built_again_the_same(book: bytes) -> None:
    engine_doc = pdfthin.open(book)
    pages = engine_doc.pages
    assert isinstance(pages, model.Pages)
    first = engine_doc.page(150).markdown
    builder = pages._builder
    builder.cache = PageCache(max_bytes=0)  # keeps nothing
    built = pages.built
    assert engine_doc.page(151).markdown != first
    assert engine_doc.page(150).markdown == first
    assert pages.built == built + 2


def test_concurrent_reads_of_one_document_build_one_page_at_a_time(
    book: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = {n: pdfthin.open(book).page(n).markdown for n in (20, 40, 60, 80, 100, 120)}
    doc = pdfthin.open(book)  # the profile built before counting starts
    inside = 0
    most = 0
    guard = threading.Lock()
    real = model.layout_page

    def slow(content: Any) -> Any:
        nonlocal inside, most
        with guard:
            inside += 1
            most = max(most, inside)
        time.sleep(0.01)  # long enough for another thread to come in, were it let
        try:
            return real(content)
        finally:
            with guard:
                inside -= 1

    monkeypatch.setattr(model, "layout_page", slow)
    got: dict[int, str] = {}
    errors: list[BaseException] = []

    def read(number: int) -> None:
        try:
            got[number] = doc.page(number).markdown
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=read, args=(n,)) for n in expected for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert got == expected
    assert most == 1


def test_a_page_cut_short_by_the_callers_deadline_is_not_cached(book: bytes) -> None:
    doc = pdfthin.open(book)
    with applied(Deadline(0)), pytest.raises(PdfthinError) as info:
        doc.page(150)
    assert info.value.code == "timeout"
    assert not doc.is_cached(150)
    assert doc.page(150).markdown.startswith("# 30 Section number 30")
    assert doc.is_cached(150)


# --- every corpus file: the same page whatever the order --------------------------------------

#: Pages read alone in a fresh document, per file: the first, the last, and up to this many
#: pages outside the profile's sample, spread evenly (a short document is its own sample).
ALONE_OUTSIDE = 3


def _alone_pages(page_count: int) -> list[int]:
    sample = set(profile_sample(page_count))
    outside = [n for n in range(1, page_count + 1) if n not in sample]
    step = max(1, len(outside) // ALONE_OUTSIDE)
    return sorted({1, page_count, *outside[::step][:ALONE_OUTSIDE]})


def _open(data: bytes, f: CorpusFile) -> model.Document | None:
    try:
        return pdfthin.open(data, password=f.password)
    except PdfthinError:
        return None  # files that do not open are test_corpus.py's


@pytest.mark.parametrize("f", corpus_params(corpus_files()))
def test_corpus_pages_read_the_same_in_any_order(f: CorpusFile | None) -> None:
    require_corpus()
    assert f is not None
    data = f.path.read_bytes()
    doc = _open(data, f)
    if doc is None:
        return
    whole = [p.markdown for p in doc.pages]
    # Finishing a page against the profile never fails (it would cost the page its structure).
    assert not [p.number for p in doc.pages if any("layout error" in q for q in p.problems)]
    backwards = _open(data, f)
    assert backwards is not None
    reverse = [backwards.page(n).markdown for n in range(doc.page_count, 0, -1)][::-1]
    assert reverse == whole
    for number in _alone_pages(doc.page_count):
        alone = _open(data, f)
        assert alone is not None
        assert alone.page(number).markdown == whole[number - 1], number


# --- the document's budgets cover every page built for it --------------------------------------


def _numbered_pages(count: int) -> bytes:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    for n in range(1, count + 1):
        content = b"BT /F1 10 Tf 72 700 Td (page %d of the document) Tj ET" % n
        b.add_page(content, {"Font": {"F1": font}})
    return b.build()


def test_the_documents_work_budget_covers_every_call_and_what_it_refused_stays_refused() -> None:
    data = _numbered_pages(30)
    probe = open_pdf(data)
    probe.page(11)
    page_work = probe.work_spent  # every page from 10 to 99 costs the same
    for number in profile_sample(30):
        probe.page(number)
    profile_work = probe.work_spent - page_work
    doc = pdfthin.open(data, limits=Limits(document_work=profile_work + 2 * page_work))
    outside = [11, 13, 14]  # outside the sample
    assert not set(outside) & set(profile_sample(30))
    with applied(Deadline(None)):  # one call: what the profile left, two pages' work
        statuses = [doc.page(n).status for n in outside]
    assert statuses == ["text", "text", "needs_ocr"]
    assert doc.is_cached(13) and doc.is_cached(14)
    with applied(Deadline(None)):  # another call: the same document, its budget spent
        again = doc.page(14)
    assert again.status == "needs_ocr" and "work budget" in again.problems[0]
    assert doc.page(11).markdown == "page 11 of the document"  # built before: still there


def test_progress_follows_the_pages_a_whole_document_search_builds(book: bytes) -> None:
    from pdfthin.operations import Context, find_in_document

    told: list[tuple[int, int]] = []
    context = Context()
    context.progress = lambda done, total: told.append((done, total))
    find_in_document(book, "no such phrase anywhere", context=context)
    sample = profile_sample(200)
    # The profile's pages while the document opens, then each page the search built.
    assert told[: len(sample)] == [(i, len(sample)) for i in range(1, len(sample) + 1)]
    built = [done for done, total in told[len(sample) :] if total == 200]
    assert built == [n for n in range(1, 201) if n not in sample]


def test_pages_past_the_documents_budget_are_not_laid_out_again_by_each_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = _numbered_pages(40)
    probe = open_pdf(data)
    for number in profile_sample(40):
        probe.page(number)
    doc = pdfthin.open(data, limits=Limits(document_work=probe.work_spent))
    laid_out = count_layouts(monkeypatch)
    first = [page.status for page in doc.pages]  # a whole-document call
    assert "needs_ocr" in first  # the budget refused the pages outside the profile
    count = len(laid_out)
    again = [page.status for page in doc.pages]  # the next whole-document call
    assert again == first
    assert len(laid_out) == count  # nothing laid out again
