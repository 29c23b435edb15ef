"""A password unlocks one call, over MCP (docs/design.md, invariant 12): after one call opens
``locked.pdf`` (password ``secret``) and caches it, every tool asked without the password or
with a wrong one answers ``encrypted`` — in the same session, and from another HTTP client of
the same server — and a cursor issued to the call with the password does not let a call without
it resume."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp_support import (
    Tree,
    build_tree,
    call,
    fail,
    free_port,
    http_session,
    session,
    start_http_server,
    stop,
)

#: Every tool that reads a document, with the arguments it needs besides path and password.
TOOLS: dict[str, dict[str, Any]] = {
    "describe_document": {},
    "read_pages": {},
    "find_in_document": {"query": "quarterly"},
    "get_toc": {},
    "read_section": {"section": "s-1"},
    "peek": {},
    "get_info": {},
    "list_images": {},
}


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Tree:
    return build_tree(tmp_path_factory.mktemp("mcp-passwords"))


async def refused(s: ClientSession, tool: str, **arguments: Any) -> None:
    """``tool`` answers ``encrypted`` without the password and with a wrong one."""
    error = await fail(s, tool, path="locked.pdf", **arguments)
    assert (error["code"], error["details"]) == ("encrypted", {"password_given": False}), tool
    error = await fail(s, tool, path="locked.pdf", password="wrong", **arguments)
    assert (error["code"], error["details"]) == ("encrypted", {"password_given": True}), tool


def test_every_tool_asks_every_call_for_the_password(tree: Tree) -> None:
    async def main() -> None:
        async with session(tree.root) as s:
            for tool, arguments in TOOLS.items():
                await call(s, tool, path="locked.pdf", password="secret", **arguments)
                await refused(s, tool, **arguments)
            first = await call(
                s, "read_pages", path="locked.pdf", password="secret", max_chars=1000
            )
            cursor = first["next_cursor"]
            assert cursor
            await refused(s, "read_pages", cursor=cursor)
            more = await call(s, "read_pages", path="locked.pdf", password="secret", cursor=cursor)
            assert more["pages"]

    anyio.run(main)


def test_one_http_client_opens_it_and_another_cannot_read_it(tree: Tree) -> None:
    port = free_port()
    process = start_http_server(tree.root, port)
    url = f"http://127.0.0.1:{port}/mcp"
    try:

        async def main() -> None:
            async with http_session(url) as owner, http_session(url) as other:
                opened = await call(owner, "read_pages", path="locked.pdf", password="secret")
                assert "locked report" in opened["pages"][0]["markdown"]
                for tool, arguments in TOOLS.items():
                    await refused(other, tool, **arguments)
                # Both at once: each call is answered for its own password.
                answers: dict[str, Any] = {}

                async def ask(name: str, s: ClientSession, password: str | None) -> None:
                    extra = {} if password is None else {"password": password}
                    result = await s.call_tool("peek", {"path": "locked.pdf", **extra})
                    answers[name] = result.structured_content

                async with anyio.create_task_group() as tg:
                    for n in range(5):
                        tg.start_soon(ask, f"owner{n}", owner, "secret")
                        tg.start_soon(ask, f"other{n}", other, None)
                for name, answer in answers.items():
                    assert answer is not None
                    if name.startswith("owner"):
                        assert "locked report" in answer["text"]
                    else:
                        assert answer["error"]["code"] == "encrypted"

        anyio.run(main)
    finally:
        stop(process)
