"""The MCP server from Python (``pdfthin.mcp``): settings checked when it is made, an OCR
binding passed as an object, in-process calls, and ``run()`` serving a real client."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import get_default_environment, stdio_client
from test_ocr import binding, scanned_pdf

from pdfthin.errors import PdfthinError
from pdfthin.mcp import RANGES, Server
from pdfthin.model.figures import REFERENCE

pytestmark = pytest.mark.usefixtures("implementation")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "scan.pdf").write_bytes(scanned_pdf(2, frozenset({1})))
    return tmp_path


def test_an_ocr_binding_object_is_used(root: Path) -> None:
    ocr, _, recognizer = binding()
    server = Server(str(root), ocr=ocr)

    async def main() -> dict[str, Any]:
        return await server.call("read_pages", {"path": "scan.pdf", "pages": "2", "ocr": True})

    result = anyio.run(main)
    assert "scanned words on page 2" in result["pages"][0]["markdown"]
    assert recognizer.calls == [[2]]


def test_without_ocr_the_page_says_it_needs_it(root: Path) -> None:
    async def main() -> dict[str, Any]:
        return await Server(str(root)).call("read_pages", {"path": "scan.pdf", "pages": "2"})

    page = anyio.run(main)["pages"][0]
    # No text: only the reference to the page's scan, to fetch or to OCR.
    assert page["status"] == "needs_ocr"
    assert (
        REFERENCE.sub("", page["markdown"]).strip() == ""
        and "pdfthin:image/p2-" in page["markdown"]
    )


def test_a_failed_call_is_the_error_envelope(root: Path) -> None:
    async def main() -> dict[str, Any]:
        return await Server(str(root)).call("read_pages", {"path": "/etc/passwd"})

    assert anyio.run(main)["error"]["code"] == "outside_root"


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"cache_size": 0}, "cache_size"),
        ({"cache_size": 17}, "cache_size"),
        ({"max_chars": 10}, "max_chars"),
        ({"max_extractions": 0}, "max_extractions"),
        ({"timeout_seconds": 0}, "timeout_seconds"),
        ({"max_bytes_in_flight": True}, "max_bytes_in_flight"),
        ({"http": "0.0.0.0:8765"}, "http"),
        ({"http": ("192.168.1.10", 80)}, "http"),
        ({"http": "no-port"}, "http"),
        ({"ocr": 42}, "ocr"),
    ],
)
def test_settings_are_checked_when_the_server_is_made(
    root: Path, settings: dict[str, Any], field: str
) -> None:
    with pytest.raises(PdfthinError) as info:
        Server(str(root), **settings)
    assert info.value.code == "invalid_argument"
    assert info.value.details["field"] == field
    if field in RANGES and not isinstance(settings[field], bool):
        low, high = RANGES[field]
        assert f"from {low} to {high}" in info.value.message


def test_a_root_that_is_not_a_directory_fails_at_once(root: Path) -> None:
    with pytest.raises(PdfthinError) as info:
        Server(str(root / "scan.pdf"))
    assert "not a directory" in info.value.message
    with pytest.raises(PdfthinError) as info:
        Server(str(root), ocr="no_such_module_here")
    assert info.value.code == "ocr_unavailable"


def test_run_serves_a_client_over_stdio(
    root: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # A script that builds the server in Python with an OCR object and runs it: the client
    # sees the tools and gets the binding's transcription.
    script = tmp_path_factory.mktemp("script") / "serve.py"
    tests = Path(__file__).resolve().parent
    script.write_text(
        textwrap.dedent(
            f"""
            import sys
            sys.path.insert(0, {str(tests)!r})
            from test_ocr import binding
            from pdfthin.mcp import Server

            Server({str(root)!r}, ocr=binding()[0], max_chars=20_000).run()
            """
        )
    )
    env = get_default_environment()
    if "PDFTHIN_NATIVE" in os.environ:
        env["PDFTHIN_NATIVE"] = os.environ["PDFTHIN_NATIVE"]
    params = StdioServerParameters(command=sys.executable, args=[str(script)], env=env)

    async def main() -> tuple[list[str], str]:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            tools = [t.name for t in (await s.list_tools()).tools]
            result = await s.call_tool("read_pages", {"path": "scan.pdf", "ocr": True})
            assert not result.is_error, result.structured_content
            assert result.structured_content is not None
            return tools, result.structured_content["pages"][1]["markdown"]

    tools, markdown = anyio.run(main)
    assert "read_pages" in tools and "list_documents" in tools
    assert "scanned words on page 2" in markdown
