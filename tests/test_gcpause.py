"""The garbage collector paused while documents are opened and built (pdfthin/engine/gcpause.py):
off inside, back on after (also after an error, across nested and concurrent pauses), left
off for a program that turned it off, and garbage made during a long pause still collected."""

from __future__ import annotations

import gc
import threading
import weakref
from collections.abc import Iterator
from typing import Any

import pytest
from pdfbuilder import PdfBuilder

import pdfthin
from pdfthin.engine import EngineDocument, gcpause, open_pdf
from pdfthin.errors import PdfthinError
from pdfthin.model import build_document
from pdfthin.operations.context import Context


@pytest.fixture(autouse=True)
def _collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    assert gcpause._depth == 0, "a pause was left open"
    if was:
        gc.enable()
    else:
        gc.disable()


def _pdf(pages: int = 3) -> bytes:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    for n in range(pages):
        content = b"BT /F1 12 Tf 72 700 Td (Page %d of the test) Tj ET" % n
        b.add_page(content, {"Font": {"F1": font}})
    return b.build()


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def _cyclic_garbage() -> weakref.ref[_Cycle]:
    """A reference cycle that nothing else holds: only the collector can free it."""
    return weakref.ref(_Cycle())


def test_off_inside_and_back_on_after() -> None:
    with gcpause.collection_paused():
        assert not gc.isenabled()
        with gcpause.collection_paused():
            assert not gc.isenabled()
        assert not gc.isenabled(), "the inner pause ended the outer one"
    assert gc.isenabled()


def test_back_on_after_an_exception() -> None:
    with pytest.raises(ZeroDivisionError), gcpause.collection_paused():
        1 / 0  # noqa: B018
    assert gc.isenabled()


def test_a_program_that_turned_the_collector_off_keeps_it_off() -> None:
    gc.disable()
    with gcpause.collection_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_concurrent_pauses_end_with_the_last_one() -> None:
    first_in = threading.Event()
    release_first = threading.Event()
    seen: dict[str, bool] = {}

    def first() -> None:
        with gcpause.collection_paused():
            first_in.set()
            release_first.wait(10)
        seen["after first"] = gc.isenabled()

    thread = threading.Thread(target=first)
    thread.start()
    assert first_in.wait(10)
    with gcpause.collection_paused():
        release_first.set()
        thread.join(10)
        assert not gc.isenabled(), "the first thread's exit ended this thread's pause"
    assert seen["after first"] is False
    assert gc.isenabled()


def test_garbage_of_a_pause_is_collected_when_due(monkeypatch: pytest.MonkeyPatch) -> None:
    with gcpause.collection_paused():
        ref = _cyclic_garbage()
        gcpause.collect_if_due()  # far from MAX_PENDING: nothing happens
        assert ref() is not None
        monkeypatch.setattr(gcpause, "MAX_PENDING", -1)
        gcpause.collect_if_due()
        assert ref() is None
    assert gc.isenabled()


def test_not_collecting_outside_a_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gcpause, "MAX_PENDING", -1)
    calls: list[Any] = []
    monkeypatch.setattr(gc, "collect", lambda *a: calls.append(a))
    gcpause.collect_if_due()
    assert calls == []


def _record_while_reading(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    states: list[bool] = []
    page = EngineDocument.page

    def spy(self: EngineDocument, number: int) -> Any:
        states.append(gc.isenabled())
        return page(self, number)

    monkeypatch.setattr(EngineDocument, "page", spy)
    return states


def test_documents_are_built_with_the_collector_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    states = _record_while_reading(monkeypatch)
    doc = pdfthin.open(_pdf(3))
    assert [p.markdown for p in doc.pages] == [f"Page {n} of the test" for n in range(3)]
    assert states == [False, False, False]
    assert gc.isenabled()
    states.clear()
    build_document(open_pdf(_pdf(2)))
    assert states == [False, False]
    assert gc.isenabled()
    states.clear()
    Context().document(_pdf(2))
    assert states == [False, False]
    assert gc.isenabled()


def test_the_collector_is_back_on_after_a_failed_open() -> None:
    with pytest.raises(PdfthinError):
        pdfthin.open(b"%PDF-1.4\nnothing else")
    assert gc.isenabled()


def test_a_long_document_collects_between_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Garbage made while one page is read is gone before the next page when due, not kept
    until the whole document is built."""
    refs: list[weakref.ref[_Cycle]] = []
    alive_at_next_page: list[bool] = []
    page = EngineDocument.page

    def leaky(self: EngineDocument, number: int) -> Any:
        if refs:
            alive_at_next_page.append(refs[-1]() is not None)
        refs.append(_cyclic_garbage())
        return page(self, number)

    monkeypatch.setattr(EngineDocument, "page", leaky)
    pdfthin.open(_pdf(3))
    assert alive_at_next_page == [True, True], "collected without being due"
    refs.clear()
    alive_at_next_page.clear()
    monkeypatch.setattr(gcpause, "MAX_PENDING", -1)
    pdfthin.open(_pdf(3))
    assert alive_at_next_page == [False, False]


def test_an_opened_document_leaves_no_cycles_for_the_collector() -> None:
    """pdfthin.open and the operations' documents close their engine: pypdf's objects, which
    all point back at their reader, are freed at once rather than left to the collector."""
    gc.collect()
    doc = pdfthin.open(_pdf(30))
    assert len(doc.pages) == 30
    left = gc.collect()
    assert left < 100, f"{left} objects were left for the cyclic collector"
    Context().document(_pdf(30))
    assert gc.collect() < 100
    # A document keeps its engine open while it lives (its pages are built on demand) and
    # closes it when dropped.
    doc = pdfthin.open(_pdf(30))
    assert [p.number for p in doc.pages] == list(range(1, 31))
    del doc
    assert gc.collect() < 100
    # Without closing, the reader's objects are all cyclic garbage.
    engine = open_pdf(_pdf(30))
    for number in range(1, 31):
        engine.page(number)
    del engine
    assert gc.collect() > 300


def test_the_engine_is_closed_when_building_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    engines: list[EngineDocument] = []
    real = EngineDocument.__init__

    def init(self: EngineDocument, *args: Any, **kwargs: Any) -> None:
        real(self, *args, **kwargs)
        engines.append(self)

    def broken(engine: EngineDocument, progress: Any = None) -> Any:
        raise RuntimeError("a bug while building")

    monkeypatch.setattr(EngineDocument, "__init__", init)
    monkeypatch.setattr(pdfthin.model, "build_document", broken)
    with pytest.raises(RuntimeError):
        pdfthin.open(_pdf(2))
    assert [e.closed for e in engines] == [True]
