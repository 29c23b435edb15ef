"""A call past its time stops the work it started (issue 18, item 2, the server half).

Python threads cannot be killed, so the deadline is cooperative (``pdfthin/deadline.py``): it
is carried from the call into the extraction, checked between pages and layout stages, and
handed to the page interpreter as the earlier of its own limit and the call's. Here: a build
whose callers are all out of time stops and lets go of its extraction slot, its thread and the
paused garbage collector; a call waiting for another call's build waits only within its own
time; a build goes on while one caller still has time; a page cut short by a caller's deadline
is never kept; the MCP server answers ``timeout`` at its per-call limit and serves cached
documents while every document thread is taken. (The Lambda handler's deadline is in
``test_lambda_handler.py``.)
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from lambda_support import report_pdf
from pdfbuilder import simple_pdf

from pdfthin.deadline import Deadline, Interest, applied, current
from pdfthin.engine import gcpause, open_pdf
from pdfthin.errors import PdfthinError
from pdfthin.model import document as document_module
from pdfthin.operations import Context, describe_document, get_info

PAGES = 200
#: Seconds each page of a slow document takes to lay out (so 200 pages take 2 s).
PAGE_DELAY = 0.01


@pytest.fixture(autouse=True)
def _collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    end = time.monotonic() + 5
    while gcpause._depth and time.monotonic() < end:
        time.sleep(0.01)
    assert gcpause._depth == 0, "a pause was left open"
    if not was:
        gc.disable()


@pytest.fixture
def laid_out(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Pages lay out slowly (PAGE_DELAY each, sleeping, as a busy page would take); the pages
    laid out are listed as they are."""
    pages: list[int] = []
    original = document_module._layout

    def slow(content: Any) -> Any:
        pages.append(content.number)
        time.sleep(PAGE_DELAY)
        return original(content)

    monkeypatch.setattr(document_module, "_layout", slow)
    return pages


SLOW = report_pdf("slow", pages=PAGES)
SMALL = report_pdf("small", pages=2)


def call(operation: Any, data: bytes, seconds: float | None, **kwargs: Any) -> Any:
    with applied(Deadline(seconds)):
        return operation(data, **kwargs)


def outcome(work: Any) -> str:
    try:
        work()
    except PdfthinError as exc:
        return exc.code
    return "ok"


# --- the deadline itself ------------------------------------------------------------------------


def test_a_deadline_expires_or_is_cancelled() -> None:
    unbounded = Deadline()
    assert not unbounded.expired() and unbounded.remaining() is None and unbounded.at is None
    soon = Deadline(0.05)
    assert not soon.expired() and 0 < (soon.remaining() or 0) <= 0.05
    time.sleep(0.06)
    assert soon.expired() and soon.remaining() == 0
    with pytest.raises(PdfthinError) as info:
        soon.check()
    assert info.value.code == "timeout"
    cancelled = Deadline()
    cancelled.cancel()
    assert cancelled.expired() and cancelled.remaining() == 0
    with applied(soon):
        assert current() is soon
    assert current() is not soon and not current().expired()


def test_an_interest_lasts_as_long_as_its_latest_member() -> None:
    interest = Interest()
    short, long = Deadline(0.05), Deadline(60)
    interest.join(short)
    interest.join(long)
    assert interest.at == long.at and not interest.expired()
    interest.leave(long)
    time.sleep(0.06)
    assert interest.expired()
    interest.join(Deadline())
    assert interest.at is None and not interest.expired()


# --- builds -------------------------------------------------------------------------------------


def test_a_build_past_every_callers_time_stops_and_lets_go(laid_out: list[int]) -> None:
    context = Context(max_extractions=1)
    assert (
        outcome(lambda: call(describe_document, SLOW, 0.3, full=True, context=context)) == "timeout"
    )
    assert gc.isenabled() and gcpause._depth == 0
    pages = len(laid_out)
    time.sleep(0.2)
    assert len(laid_out) == pages < PAGES  # it stopped: nothing goes on unseen
    # The document opened (its profile made) may be cached; its pages are built on demand
    # and a page cut short is never cached: it holds only pages laid out whole.
    for doc in _cached_documents(context):
        assert sum(doc.is_cached(n) for n in range(1, PAGES + 1)) <= pages
    # The one extraction slot is free at once.
    assert call(get_info, SMALL, None, context=context)["document"]["page_count"] == 2


def _cached_documents(context: Context) -> list[Any]:
    return [entry.document for entry in context.cache._items.values()]


def test_a_caller_waits_for_another_callers_build_only_within_its_own_time(
    laid_out: list[int],
) -> None:
    context = Context()
    first: dict[str, str] = {}
    thread = threading.Thread(
        target=lambda: first.update(
            code=outcome(lambda: call(describe_document, SLOW, None, full=True, context=context))
        )
    )
    thread.start()
    while not laid_out:
        time.sleep(0.01)
    assert (
        outcome(lambda: call(describe_document, SLOW, 0.3, full=True, context=context)) == "timeout"
    )
    # It came back while the build went on (the clock of a loaded machine aside: the pages
    # laid out by then say it did not wait for the whole build).
    assert len(laid_out) < PAGES
    thread.join()
    assert first == {"code": "ok"} and len(laid_out) == PAGES  # the first caller's build went on


def test_a_build_goes_on_while_a_waiting_caller_has_time(
    laid_out: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pdfthin.operations import context as context_module

    opened: list[int] = []
    real_open = context_module.open_pdf

    def counting_open(*args: Any, **kwargs: Any) -> Any:
        opened.append(1)
        return real_open(*args, **kwargs)

    monkeypatch.setattr(context_module, "open_pdf", counting_open)
    context = Context()
    first: dict[str, str] = {}
    thread = threading.Thread(
        target=lambda: first.update(
            code=outcome(lambda: call(describe_document, SLOW, 0.5, full=True, context=context))
        )
    )
    thread.start()
    while not laid_out:
        time.sleep(0.01)
    # Joins the first call's build, with time to see it through.
    answer = call(describe_document, SLOW, 30, full=True, context=context)
    thread.join()
    assert answer["document"]["page_count"] == PAGES
    assert opened == [1]  # one build served both
    assert first["code"] in ("ok", "timeout")
    # Every page once, but a page the first caller's deadline may have cut short (read again).
    assert sorted(set(laid_out)) == list(range(1, PAGES + 1)) and len(laid_out) <= PAGES + 1


def test_the_gc_pause_ends_after_an_error_in_a_build() -> None:
    def broken(done: int, total: int) -> None:
        raise RuntimeError("a progress callback that fails")

    context = Context(progress=broken)
    with pytest.raises(RuntimeError):
        describe_document(SMALL, context=context)
    assert gc.isenabled() and gcpause._depth == 0
    gc.disable()
    with pytest.raises(RuntimeError):
        describe_document(SMALL, context=context)
    assert not gc.isenabled()  # what it was
    gc.enable()


# --- pages ---------------------------------------------------------------------------------------


def busy_page() -> bytes:
    """One page of 100,000 path operators: far more than the interpreter's check interval."""
    return simple_pdf(b"BT /F1 12 Tf 72 700 Td (Busy page) Tj ET\n" + b"0 0 m 1 1 l S\n" * 33_000)


def test_the_page_interpreter_stops_at_the_earlier_deadline() -> None:
    engine = open_pdf(busy_page())
    try:
        whole = engine.page(1)
        assert not whole.incomplete, whole.problems
        later = engine.page(1, deadline=time.monotonic() + 60)
        assert not later.incomplete
        # A deadline already past: stopped at the first check (never a negative duration).
        cut = engine.page(1, deadline=time.monotonic() - 1)
        assert cut.incomplete and "time limit reached while reading the page" in cut.problems
    finally:
        engine.close()


class _FakeEngine:
    """Records the deadline each page read is given; pages take ``seconds`` each."""

    class limits:  # stands for the engine's Limits
        page_seconds = 10.0

    def __init__(self, seconds: float, during_first: Callable[[], None] | None = None) -> None:
        self.seconds = seconds
        self.deadlines: list[float | None] = []
        self.during_first = during_first

    def page(self, number: int, deadline: float | None = None) -> str:
        self.deadlines.append(deadline)
        if self.during_first is not None and len(self.deadlines) == 1:
            self.during_first()  # while the first read runs, whatever the machine's load
        time.sleep(self.seconds)
        return f"page {number}"


def test_a_page_a_callers_deadline_may_have_cut_is_never_kept() -> None:
    # The caller's deadline comes first: passed to the page, which ends past it: timeout.
    engine = _FakeEngine(0.05)
    with pytest.raises(PdfthinError) as info:
        document_module._read_page(engine, 1, Deadline(0.02))  # type: ignore[arg-type]
    assert info.value.code == "timeout" and engine.deadlines[0] is not None
    # Extended meanwhile by a caller with more time: the page is read again.
    interest = Interest()
    short = Deadline(0.02)
    interest.join(short)
    engine = _FakeEngine(0.05, lambda: interest.join(Deadline(5)))
    assert document_module._read_page(engine, 1, interest) == "page 1"  # type: ignore[arg-type]
    assert len(engine.deadlines) == 2
    # Far away (later than the page's own limit): the page keeps its own limit.
    engine = _FakeEngine(0)
    document_module._read_page(engine, 1, Deadline(60))  # type: ignore[arg-type]
    assert engine.deadlines == [None]


# --- the MCP server ------------------------------------------------------------------------------


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "slow.pdf").write_bytes(SLOW)
    (tmp_path / "small.pdf").write_bytes(SMALL)
    return tmp_path


def test_the_server_answers_timeout_and_frees_the_slot(root: Path, laid_out: list[int]) -> None:
    from pdfthin.adapters.mcp.config import ServeConfig
    from pdfthin.adapters.mcp.server import PdfthinServer

    server = PdfthinServer(ServeConfig(root=str(root), timeout_seconds=0.5, max_extractions=1))

    async def main() -> None:
        started = time.monotonic()
        slow = await server.call("describe_document", {"path": "slow.pdf", "full": True})
        took = time.monotonic() - started
        assert slow.is_error and slow.structured_content is not None
        assert slow.structured_content["error"]["code"] == "timeout"
        assert took < 0.5 + 1.0, took
        small = await server.call("describe_document", {"path": "small.pdf"})
        assert not small.is_error, small.structured_content

    anyio.run(main)
    assert len(laid_out) < PAGES + 2 and gc.isenabled()


def test_cached_documents_are_served_while_every_document_thread_is_taken(
    root: Path, laid_out: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pdfthin.adapters.mcp import server as server_module
    from pdfthin.adapters.mcp.config import ServeConfig
    from pdfthin.adapters.mcp.server import PdfthinServer

    monkeypatch.setattr(server_module, "DOCUMENT_THREADS", 3)
    server = PdfthinServer(ServeConfig(root=str(root)))

    async def main() -> None:
        assert not (await server.call("read_pages", {"path": "small.pdf"})).is_error
        laid_out.clear()
        async with anyio.create_task_group() as tg:
            for _ in range(5):  # one builds, the others wait for it: every thread is taken
                tg.start_soon(server.call, "describe_document", {"path": "slow.pdf"})
            while not laid_out:
                await anyio.sleep(0.01)
            with anyio.fail_after(1.5):
                cached = await server.call("read_pages", {"path": "small.pdf", "pages": "2"})
            assert len(laid_out) < PAGES  # answered while the slow build still ran
        assert not cached.is_error and cached.structured_content is not None
        assert cached.structured_content["pages"][0]["page"] == 2

    anyio.run(main)
