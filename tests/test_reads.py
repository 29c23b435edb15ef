"""Memory under concurrent load (issue 18, item 5): a server finds a cached document by the
file's identity before reading a byte of it, concurrent callers of one file share one read (and
one hash), and the file bytes held by all calls at once stay under a named bound — past it a
call waits within its time, then answers ``busy``.

Reads are counted through the sandbox's one read primitive
(``pdfthin.adapters.mcp.sandbox._read_upto``), memory with ``tracemalloc`` (every bytes object
Python allocates)."""

from __future__ import annotations

import threading
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from pdfbuilder import PdfBuilder

from pdfthin.adapters.mcp import sandbox as sandbox_module
from pdfthin.adapters.mcp.sandbox import Sandbox
from pdfthin.deadline import Deadline, applied
from pdfthin.errors import PdfthinError
from pdfthin.model import document as document_module
from pdfthin.operations import Context, get_info
from pdfthin.operations.reads import Reads

MIB = 1024 * 1024
CALLS = 16


def padded_pdf(tag: str, size: int) -> bytes:
    """A two-page PDF of about ``size`` bytes: most of it a stream nothing refers to, which
    the engine never reads (the file is large, its extraction cheap)."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    for n in (1, 2):
        b.add_page(
            b"BT /F1 12 Tf 72 700 Td (%s page %d) Tj ET" % (tag.encode(), n), {"Font": {"F1": font}}
        )
    b.stream(b"%" * size, flate=False)
    return b.build()


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The bytes of every read the sandbox makes, as it makes them."""
    done: list[int] = []
    original = sandbox_module._read_upto

    def counting(fd: int, count: int, *args: Any) -> bytes:
        data = original(fd, count, *args)
        done.append(len(data))
        return data

    monkeypatch.setattr(sandbox_module, "_read_upto", counting)
    return done


@pytest.fixture
def slow_layout(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    original = document_module._layout

    def slow(content: Any) -> Any:
        time.sleep(0.3)
        return original(content)

    monkeypatch.setattr(document_module, "_layout", slow)
    yield


def server(root: Path, **config: Any) -> Any:
    from pdfthin.adapters.mcp.config import ServeConfig
    from pdfthin.adapters.mcp.server import PdfthinServer

    return PdfthinServer(ServeConfig(root=str(root), **config))


def concurrently(srv: Any, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    results: list[Any] = [None] * len(calls)

    async def one(i: int, name: str, arguments: dict[str, Any]) -> None:
        results[i] = await srv.call(name, arguments)

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            for i, (name, arguments) in enumerate(calls):
                tg.start_soon(one, i, name, arguments)

    anyio.run(main)
    return results


def test_concurrent_calls_on_a_cached_large_file_do_not_read_it(
    tmp_path: Path, reads: list[int]
) -> None:
    size = 8 * MIB
    (tmp_path / "large.pdf").write_bytes(padded_pdf("large", size))
    srv = server(tmp_path)
    first = concurrently(srv, [("describe_document", {"path": "large.pdf"})])[0]
    assert not first.is_error, first.structured_content
    reads.clear()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        results = concurrently(srv, [("read_pages", {"path": "large.pdf", "pages": "2"})] * CALLS)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert all(not r.is_error for r in results)
    assert {r.structured_content["pages"][0]["page"] for r in results} == {2}
    assert sum(reads) == 0, reads  # not one byte: the identity found the cached document
    print(f"{CALLS} calls on a cached {size // MIB} MiB file: peak {peak / MIB:.1f} MiB")
    assert peak < size / 2


def test_concurrent_first_calls_share_one_read(
    tmp_path: Path, reads: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pdfthin.operations import context as context_module

    size = 4 * MIB
    data = padded_pdf("shared", size)
    (tmp_path / "shared.pdf").write_bytes(data)
    hashed: list[int] = []
    original = context_module.fingerprint

    def counting(data: bytes) -> str:
        hashed.append(len(data))
        return original(data)

    monkeypatch.setattr("pdfthin.operations.reads.fingerprint", counting)
    srv = server(tmp_path)
    results = concurrently(srv, [("get_info", {"path": "shared.pdf"})] * CALLS)
    assert all(not r.is_error for r in results), [r.structured_content for r in results]
    # One whole read (and the header peek before it), one hash.
    assert sum(reads) <= len(data) + 1024, reads
    assert hashed == [len(data)]


def test_the_bytes_in_flight_stay_under_the_bound(tmp_path: Path, slow_layout: None) -> None:
    size = 4 * MIB
    bound = 10 * MIB  # room for two of these files at once, not three
    names = [f"file{n}.pdf" for n in range(6)]
    for name in names:
        (tmp_path / name).write_bytes(padded_pdf(name, size))
    srv = server(tmp_path, max_bytes_in_flight=bound, max_extractions=6)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base, _ = tracemalloc.get_traced_memory()
        results = concurrently(srv, [("get_info", {"path": name}) for name in names])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert all(not r.is_error for r in results), [r.structured_content for r in results]
    grown = (peak - base) / MIB
    print(f"6 files of {size // MIB} MiB, bound {bound // MIB} MiB: peak {grown:.1f} MiB")
    assert srv.context.reads.peak <= bound
    # The file bytes, and the little the rest takes (up to about 2 MiB, depending on how the
    # six calls overlap): pypdf reads the file without copying it (engine/document.py,
    # _FileBytes), on either engine; a copy per call would add 4 MiB for each of the two files
    # in flight. A cached document keeps its file open (its pages are built on demand): the
    # server's cache holds the bytes of up to ``cache_size`` of them besides.
    assert peak - base < bound + srv.context.cache.size * size + 3 * MIB


def test_past_the_bound_a_call_waits_within_its_time_then_is_busy(
    tmp_path: Path, slow_layout: None
) -> None:
    size = 2 * MIB
    sandbox = Sandbox(tmp_path, 64 * MIB)
    for name in ("a.pdf", "b.pdf"):
        (tmp_path / name).write_bytes(padded_pdf(name, size))
    context = Context(max_bytes_in_flight=3 * MIB)
    holding = threading.Thread(target=lambda: get_info(sandbox.open("a.pdf"), context=context))
    holding.start()
    while context.reads.held == 0:
        time.sleep(0.01)
    started = time.monotonic()
    with applied(Deadline(0.4)), pytest.raises(PdfthinError) as info:
        get_info(sandbox.open("b.pdf"), context=context)
    waited = time.monotonic() - started
    assert info.value.code == "busy" and info.value.details["retry_after_seconds"] > 0
    assert 0.35 < waited < 1.0, waited
    # With time enough, it waits for the room and is answered.
    with applied(Deadline(30)):
        assert get_info(sandbox.open("b.pdf"), context=context)["document"]["page_count"] == 2
    holding.join()
    assert context.reads.held == 0 and context.reads.peak <= 3 * MIB


def test_one_file_larger_than_the_bound_is_read_alone() -> None:
    reads = Reads(max_bytes=10)
    deadline = Deadline(0.2)
    with reads.read("big", 100, lambda: b"x" * 100, deadline) as got:
        assert got.data == b"x" * 100 and reads.held == 100
        with (  # nothing else while it is held
            pytest.raises(PdfthinError) as info,
            reads.read("small", 1, lambda: b"y", Deadline(0.1)),
        ):
            pass
        assert info.value.code == "busy"
        # The same key is shared, not read again.
        with reads.read("big", 100, lambda: pytest.fail("read twice"), deadline) as again:
            assert again is got
    assert reads.held == 0


def test_a_failed_read_is_not_shared() -> None:
    reads = Reads()
    attempts: list[int] = []

    def failing() -> bytes:
        attempts.append(1)
        raise PdfthinError("not_found", "gone")

    for _ in range(2):
        with pytest.raises(PdfthinError), reads.read("k", 5, failing, Deadline(1)):
            pass
    assert attempts == [1, 1] and reads.held == 0


def test_a_file_changed_after_it_was_read_is_read_again(tmp_path: Path, reads: list[int]) -> None:
    path = tmp_path / "doc.pdf"
    path.write_bytes(padded_pdf("first", 1000))
    srv = server(tmp_path)
    first = concurrently(srv, [("peek", {"path": "doc.pdf"})])[0]
    assert "first page 1" in first.structured_content["text"]
    path.write_bytes(padded_pdf("again", 1000))  # the same size
    reads.clear()
    second = concurrently(srv, [("peek", {"path": "doc.pdf"})])[0]
    assert "again page 1" in second.structured_content["text"]
    assert sum(reads) > 1000
