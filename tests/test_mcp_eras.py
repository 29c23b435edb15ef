"""The server speaks both protocol eras of the MCP SDK it is built on, on both transports: the
initialize handshake of 2025-11-25 and the stateless requests of 2026-07-28 (no handshake;
each request carries its own version). Each is driven here by the SDK's client pinned to that
era, and must answer the same tools with the same answers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
import pytest
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp_support import (
    SAMPLE,
    Tree,
    build_tree,
    call,
    fail,
    free_port,
    server_parameters,
    start_http_server,
    stop,
)

from pdfthin.operations import OPERATIONS, Context, describe_document, read_pages

#: The client's mode for each era, and the version the session must end up speaking.
ERAS = {"2025-11-25": "legacy", "2026-07-28": "2026-07-28"}


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Tree:
    return build_tree(tmp_path_factory.mktemp("mcp-eras"))


@asynccontextmanager
async def _client(target: str | StdioServerParameters, era: str) -> AsyncIterator[Client]:
    async with Client(target, mode=ERAS[era]) as client:
        assert client.protocol_version == era
        yield client


async def _conversation(client: Client) -> None:
    s = client.session
    tools = (await s.list_tools()).tools
    assert {t.name for t in tools} == {op.name for op in OPERATIONS} | {"list_documents"}
    got = await call(s, "describe_document", path="sample.pdf")
    assert got == describe_document(SAMPLE.read_bytes(), context=Context())
    # A cursor made in one request is honoured in the next (nothing is kept between them).
    first = await call(s, "read_pages", path="sample.pdf", max_chars=1_000)
    assert first["next_cursor"]
    second = await call(s, "read_pages", path="sample.pdf", cursor=first["next_cursor"])
    assert second == read_pages(SAMPLE.read_bytes(), cursor=first["next_cursor"], context=Context())
    error = await fail(s, "read_pages", path="../outside/secret.pdf")
    assert error["code"] == "outside_root"


@pytest.mark.parametrize("era", ERAS)
def test_each_era_over_stdio(tree: Tree, era: str) -> None:
    async def main() -> None:
        async with _client(server_parameters(tree.root), era) as client:
            await _conversation(client)

    anyio.run(main)


@pytest.mark.parametrize("era", ERAS)
def test_each_era_over_http(tree: Tree, era: str) -> None:
    port = free_port()
    process = start_http_server(tree.root, port)
    try:

        async def main() -> None:
            async with _client(f"http://127.0.0.1:{port}/mcp", era) as client:
                await _conversation(client)

        anyio.run(main)
    finally:
        stop(process)


def test_a_client_that_asks_gets_the_newest_era(tree: Tree) -> None:
    """A client in the SDK's default mode discovers what the server speaks and picks the
    stateless era, and is answered in it."""

    async def main() -> None:
        async with Client(server_parameters(tree.root)) as client:
            assert client.protocol_version == "2026-07-28"
            await _conversation(client)

    anyio.run(main)
