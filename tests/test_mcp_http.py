"""One session over Streamable HTTP (``pdfthin serve ROOT --http 127.0.0.1:PORT``) with the
SDK's own HTTP client, and the transport's guard against DNS rebinding."""

from __future__ import annotations

import http.client
import json

import anyio
import pytest
from mcp_support import (
    SAMPLE,
    Tree,
    build_tree,
    call,
    fail,
    free_port,
    http_session,
    start_http_server,
    stop,
)

from pdfthin.operations import OPERATIONS, Context, describe_document


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Tree:
    return build_tree(tmp_path_factory.mktemp("mcp-http"))


def test_one_session_over_http(tree: Tree) -> None:
    port = free_port()
    process = start_http_server(tree.root, port)
    try:

        async def main() -> None:
            async with http_session(f"http://127.0.0.1:{port}/mcp") as s:
                tools = (await s.list_tools()).tools
                # Every operation of the registry, and the server's own list_documents.
                assert {t.name for t in tools} == {op.name for op in OPERATIONS} | {
                    "list_documents"
                }
                got = await call(s, "describe_document", path="sample.pdf")
                assert got == describe_document(SAMPLE.read_bytes(), context=Context())
                error = await fail(s, "read_pages", path="../outside/secret.pdf")
                assert error["code"] == "outside_root"
                image = await s.call_tool("get_image", {"path": "sample.pdf", "image_id": "p3-x5"})
                assert image.content[0].type == "image"
                assert image.content[0].mime_type == "image/png"

        anyio.run(main)

        # A request naming another host (a DNS-rebinding page in a browser) is refused.
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        connection.request(
            "POST",
            "/mcp",
            body=body,
            headers={
                "Host": f"evil.example:{port}",
                "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream",
            },
        )
        response = connection.getresponse()
        assert 400 <= response.status < 500
        assert b"tools" not in response.read()
        connection.close()
    finally:
        stop(process)


def test_the_address_is_announced_and_a_busy_port_is_one_line() -> None:
    import socket
    import subprocess

    from mcp_support import PYTHON, WORKDIR, server_args

    root = SAMPLE.parent
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        busy = subprocess.run(
            [PYTHON, *server_args(root, "--http", f"127.0.0.1:{port}")],
            cwd=WORKDIR,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert busy.returncode == 2
    assert busy.stdout == ""
    assert (
        busy.stderr == f"pdfthin serve: cannot listen on 127.0.0.1:{port}: address already in use\n"
    )
    # Free, it listens and says where, on stderr (the first line), once it listens.
    process = start_http_server(root, port)
    try:
        assert process.stderr is not None
        line = process.stderr.readline().decode()
        assert line == f"pdfthin serve: listening on http://127.0.0.1:{port}/mcp\n"
    finally:
        stop(process)
