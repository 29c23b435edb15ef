"""Chunk ids are the same on every surface: ``get_chunks`` through the MCP server's tool, the
Lambda handler and the browser bridge gives the chunks the Python API gives (ids, pages, boxes,
page spans, text, parts), following each surface's own cursors."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from statements import Canvas, paragraph, pdf

from pdfthin.operations import Context, get_chunks

#: Small chunks and a small budget: several chunks a page, several responses, cursors followed.
MAX_TOKENS = 100
MAX_CHARS = 2_000


def _document() -> bytes:
    """Three pages: a title, a section heading and paragraphs, the last of which runs from the
    foot of page 1 onto page 2 (a chunk with two spans); a second section on page 2; a last
    paragraph on page 3."""
    sentence = "The survey counted the birds of the marsh at dawn and again at dusk. "
    one = Canvas()
    one.text("Marsh Survey", 72, 80, size=20, bold=True)
    one.text("1 Counts", 72, 130, size=14, bold=True)
    y = paragraph(one, sentence * 4, 72, 160, 440)
    paragraph(one, sentence * 3, 72, y + 24, 440)
    paragraph(
        one, "This paragraph starts near the foot of the first page and runs on", 72, 740, 440
    )
    two = Canvas()
    y = paragraph(
        two, "to the top of the second page without a break in its sentence.", 72, 60, 440
    )
    two.text("2 Results", 72, y + 40, size=14, bold=True)
    paragraph(two, sentence * 5, 72, y + 70, 440)
    three = Canvas()
    paragraph(three, sentence * 4, 72, 60, 440)
    return pdf(one, two, three)


def _follow(ask: Callable[[str | None], dict[str, Any]]) -> list[dict[str, Any]]:
    """Every chunk entry, following the cursors of ``ask(cursor)``."""
    entries: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        response = ask(cursor)
        entries += response["chunks"]
        cursor = response["next_cursor"]
        if cursor is None:
            return entries


def _places(entries: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (e["chunk_id"], e["page"], e["bbox"], e["page_spans"], e["text"], e.get("part"))
        for e in entries
    ]


@pytest.fixture(scope="module")
def document() -> bytes:
    return _document()


@pytest.fixture(scope="module")
def expected(document: bytes) -> list[tuple[Any, ...]]:
    context = Context()
    cursors: list[str | None] = []

    def ask(cursor: str | None) -> dict[str, Any]:
        cursors.append(cursor)
        return dict(
            get_chunks(
                document,
                max_tokens=MAX_TOKENS,
                max_chars=MAX_CHARS,
                cursor=cursor,
                context=context,
            )
        )

    entries = _follow(ask)
    ids = [e["chunk_id"] for e in entries]
    # The premise: several pages, a chunk across the page break, several responses.
    assert {"p1-1", "p2-1", "p3-1"} <= set(ids)
    assert any(len(e["page_spans"]) == 2 for e in entries)
    assert len(cursors) > 2
    return _places(entries)


def test_the_lambda_handler_gives_the_same_chunks(
    document: bytes, expected: list[tuple[Any, ...]]
) -> None:
    from lambda_support import b64

    from pdfthin.adapters.aws.config import Config
    from pdfthin.adapters.aws.handler import LambdaApp

    app = LambdaApp(Config())
    base = {"operation": "get_chunks", "document": b64(document), "max_tokens": MAX_TOKENS}

    def ask(cursor: str | None) -> dict[str, Any]:
        answer: dict[str, Any] = app({**base, "max_chars": MAX_CHARS, "cursor": cursor}, None)
        return answer

    assert _places(_follow(ask)) == expected


def test_the_browser_bridge_gives_the_same_chunks(
    document: bytes, expected: list[tuple[Any, ...]]
) -> None:
    from pdfthin.adapters import browser

    handle = browser.open_document(document)
    try:

        def ask(cursor: str | None) -> dict[str, Any]:
            arguments = {"max_tokens": MAX_TOKENS, "max_chars": MAX_CHARS, "cursor": cursor}
            answer: dict[str, Any] = json.loads(
                browser.call("chunks", handle, json.dumps(arguments))
            )
            return answer

        assert _places(_follow(ask)) == expected
    finally:
        browser.close_document(handle)


def test_the_mcp_server_gives_the_same_chunks(
    document: bytes, expected: list[tuple[Any, ...]], tmp_path: Path
) -> None:
    """The MCP server's tool, in process (``pdfthin.mcp.Server``: the sandbox, the tool's
    argument checks and its structured content as a client receives it; the stdio transport
    is tests/test_mcp_server.py's)."""
    pytest.importorskip("mcp")
    from pdfthin.mcp import Server

    (tmp_path / "survey.pdf").write_bytes(document)
    server = Server(str(tmp_path))

    def ask(cursor: str | None) -> dict[str, Any]:
        arguments: dict[str, Any] = {
            "path": "survey.pdf",
            "max_tokens": MAX_TOKENS,
            "max_chars": MAX_CHARS,
        }
        if cursor is not None:
            arguments["cursor"] = cursor

        async def main() -> dict[str, Any]:
            return await server.call("get_chunks", arguments)

        answer: dict[str, Any] = anyio.run(main)
        assert "error" not in answer, answer
        return answer

    assert _places(_follow(ask)) == expected
