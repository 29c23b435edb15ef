"""The server under concurrency: 20 clients making mixed calls (every answer checked against the
operation called in-process), a slow extraction that blocks neither listings nor cached reads,
``busy`` with a retry hint past the bound on extractions, and the cache shared across calls."""

from __future__ import annotations

import random
import shutil
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp_support import (
    NFC,
    SAMPLE,
    Tree,
    build_tree,
    call,
    fail,
    free_port,
    http_session,
    report_pdf,
    session,
    slow_pdf,
    start_http_server,
    stop,
)

from pdfthin.operations import (
    Context,
    describe_document,
    find_in_document,
    get_toc,
    peek,
    read_pages,
    read_section,
)

CLIENTS = 20


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Tree:
    return build_tree(tmp_path_factory.mktemp("mcp-concurrency"))


Call = tuple[str, dict[str, Any], Callable[[dict[str, Any]], bool]]


def plan(tree: Tree) -> list[Call]:
    """Mixed calls with their expected answers (computed in-process, on fresh contexts)."""
    docs = {
        "sample.pdf": SAMPLE.read_bytes(),
        "docs/alpha.pdf": (tree.root / "docs" / "alpha.pdf").read_bytes(),
        "docs/beta.pdf": (tree.root / "docs" / "beta.pdf").read_bytes(),
        NFC: (tree.root / NFC).read_bytes(),
        "folder.pdf/inner.pdf": (tree.root / "folder.pdf" / "inner.pdf").read_bytes(),
    }

    def same(
        operation: Any, path: str, *args: Any, **kwargs: Any
    ) -> Callable[[dict[str, Any]], bool]:
        expected = operation(docs[path], *args, context=Context(), **kwargs)
        return lambda got: got == expected

    calls: list[Call] = []
    for path in docs:
        calls.append(("describe_document", {"path": path}, same(describe_document, path)))
        calls.append(("get_toc", {"path": path}, same(get_toc, path)))
        calls.append(
            ("peek", {"path": path, "position": "middle"}, same(peek, path, position="middle"))
        )
    for n in range(1, 7):
        for path in ("docs/alpha.pdf", "docs/beta.pdf"):
            calls.append(
                (
                    "read_pages",
                    {"path": path, "pages": str(n)},
                    same(read_pages, path, pages=str(n)),
                )
            )
            calls.append(
                (
                    "read_section",
                    {"path": path, "section": f"s-1-{n}"},
                    same(read_section, path, f"s-1-{n}"),
                )
            )
        query = f"quarterly figure {17 * n}"
        calls.append(
            (
                "find_in_document",
                {"path": "docs/alpha.pdf", "query": query},
                same(find_in_document, "docs/alpha.pdf", query),
            )
        )
    calls.append(
        (
            "list_documents",
            {"subdirectory": "docs"},
            lambda got: (
                [d["path"] for d in got["documents"]] == ["docs/alpha.pdf", "docs/beta.pdf"]
            ),
        )
    )
    # Errors are answers too.
    calls.append(
        (
            "describe_document",
            {"path": "../outside/secret.pdf"},
            lambda got: got["error"]["code"] == "outside_root",
        )
    )
    calls.append(
        (
            "read_pages",
            {"path": "docs/alpha.pdf", "pages": "7"},
            lambda got: got["error"]["code"] == "invalid_pages",
        )
    )
    calls.append(
        ("describe_document", {"path": "fifo.pdf"}, lambda got: got["error"]["code"] == "not_a_pdf")
    )
    return calls


async def client(s: ClientSession, calls: list[Call], seed: int, busy: list[int]) -> int:
    """Makes ``calls`` in a shuffled order; a ``busy`` answer is retried as an agent would
    (after a short wait), every other answer must be right. Returns the number of checks."""
    order = list(calls)
    random.Random(seed).shuffle(order)
    checked = 0
    for name, arguments, check in order[: len(order) // 2 + seed % 7]:
        for _attempt in range(200):
            result = await s.call_tool(name, arguments)
            got = result.structured_content
            assert got is not None
            if result.is_error and got["error"]["code"] == "busy":
                assert got["error"]["details"]["retry_after_seconds"] > 0
                busy.append(1)
                await anyio.sleep(0.1)
                continue
            assert check(got), (name, arguments, got)
            checked += 1
            break
        else:
            raise AssertionError(f"{name} {arguments} stayed busy")
    return checked


def test_twenty_clients_over_http_share_one_server(tree: Tree) -> None:
    calls = plan(tree)
    port = free_port()
    process = start_http_server(tree.root, port, "--cache-size", "8")
    busy: list[int] = []
    counts: list[int] = []
    try:

        async def one(i: int) -> None:
            async with http_session(f"http://127.0.0.1:{port}/mcp") as s:
                counts.append(await client(s, calls, i, busy))

        async def main() -> None:
            async with anyio.create_task_group() as tg:
                for i in range(CLIENTS):
                    tg.start_soon(one, i)

        anyio.run(main)
    finally:
        stop(process)
    assert len(counts) == CLIENTS and sum(counts) > CLIENTS * len(calls) // 2


def test_twenty_concurrent_calls_in_one_stdio_session(tree: Tree) -> None:
    calls = plan(tree)
    busy: list[int] = []
    counts: list[int] = []

    async def main() -> None:
        # Two extraction slots for five documents requested at once: some answers are busy,
        # retried, and every final answer is right.
        async with (
            session(tree.root, "--max-concurrent-extractions", "2") as s,
            anyio.create_task_group() as tg,
        ):
            for i in range(CLIENTS):

                async def run(i: int = i) -> None:
                    counts.append(await client(s, calls, 100 + i, busy))

                tg.start_soon(run)

    anyio.run(main)
    print(f"busy answers retried: {len(busy)}")
    assert len(counts) == CLIENTS


#: Loaded by the server (``sitecustomize``): each page of a document of 1,000 pages or more
#: takes 2 ms more CPU to read (busy, holding the GIL as reading does), so "slow.pdf" is slow
#: whatever the engine's speed.
SLOWER_PAGES = """
import time

from pdfthin.engine import document

_page = document.EngineDocument.page


def _slower_page(self, number, *args, **kwargs):
    if self.page_count >= 1000:
        end = time.perf_counter() + 0.1
        while time.perf_counter() < end:
            pass
    return _page(self, number, *args, **kwargs)


document.EngineDocument.page = _slower_page
"""


@pytest.fixture(scope="module")
def slower_pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("slower-pages")
    (folder / "sitecustomize.py").write_text(SLOWER_PAGES, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def slow_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mcp-slow")
    (root / "slow.pdf").write_bytes(slow_pdf("slow"))
    (root / "small.pdf").write_bytes(report_pdf("small"))
    shutil.copyfile(SAMPLE, root / "sample.pdf")
    return root


async def timed(make: Callable[[], Awaitable[Any]]) -> tuple[Any, float]:
    started = time.monotonic()
    result = await make()
    return result, time.monotonic() - started


def test_a_slow_extraction_blocks_neither_listings_nor_cached_reads(
    slow_root: Path, slower_pages: Path
) -> None:
    async def main() -> None:
        # (the slow document is over the fixture servers' usual size limit)
        options = ("--max-concurrent-extractions", "1", "--max-file-bytes", "4000000")
        async with session(slow_root, *options, python_path=slower_pages) as s:
            await call(s, "describe_document", path="sample.pdf")  # now cached
            slow: dict[str, Any] = {}

            # Opening the slow document (its profile: 16 pages, 0.1 s each) holds the slot;
            # its other pages are built by the calls that ask for them.
            async def extract() -> None:
                slow["answer"], slow["seconds"] = await timed(
                    lambda: call(s, "read_pages", path="slow.pdf", pages="1")
                )

            async with anyio.create_task_group() as tg:
                tg.start_soon(extract)
                await anyio.sleep(0.5)  # the extraction holds the only slot now
                listing, listed_in = await timed(lambda: call(s, "list_documents"))
                page, read_in = await timed(
                    lambda: call(s, "read_pages", path="sample.pdf", pages="1")
                )
                error = await fail(s, "describe_document", path="small.pdf")
                assert "answer" not in slow, "the slow extraction finished too early to test"
            assert [d["path"] for d in listing["documents"]] == [
                "sample.pdf",
                "slow.pdf",
                "small.pdf",
            ]
            assert page["pages"][0]["markdown"].startswith("# A Sample for pdfthin")
            # An uncached document past the bound is busy, with a hint.
            assert error["code"] == "busy" and error["details"]["retry_after_seconds"] > 0
            assert slow["answer"]["document"]["page_count"] == 1200
            assert listed_in < slow["seconds"] / 3 and read_in < slow["seconds"] / 3
            # The slot is free again, and the slow document is served from the shared cache.
            assert (await call(s, "describe_document", path="small.pdf"))["document"][
                "page_count"
            ] == 6
            again, seconds = await timed(lambda: call(s, "read_pages", path="slow.pdf", pages="1"))
            assert again == slow["answer"]
            assert seconds < slow["seconds"] / 5
            print(
                f"extraction {slow['seconds']:.2f} s; listing {listed_in:.3f} s, cached read "
                f"{read_in:.3f} s during it; cached again {seconds:.3f} s"
            )

    anyio.run(main)
