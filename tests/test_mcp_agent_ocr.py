"""The MCP SDK's client acting as the model (issue 26): it reads a scanned document, sees the
page needs OCR and how to proceed, looks at the page's image, gives a fixed transcription back,
and then reads and finds it with provenance 'agent'."""

from __future__ import annotations

import base64
from pathlib import Path

import anyio
import pytest

pytest.importorskip("mcp")

from mcp_support import call, fail, session
from test_agent_ocr import H, W, expected, grey_rows, scan_pdf

#: What the "model" reads on the image: fixed, as a test's model must be.
TRANSCRIPTION = "# Delivery note 77\n\nReceived in good order."


def test_the_client_transcribes_a_scanned_page_through_tools(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "scan.pdf").write_bytes(scan_pdf(text_page=True))

    async def main() -> None:
        async with session(root) as s:
            tools = {tool.name for tool in (await s.list_tools()).tools}
            assert {"get_page_image", "submit_transcription"} <= tools
            page = (await call(s, "read_pages", path="scan.pdf", pages="1"))["pages"][0]
            assert page["status"] == "needs_ocr"
            assert "get_page_image" in page["next_steps"]
            assert "submit_transcription" in page["next_steps"]

            shown = await s.call_tool("get_page_image", {"path": "scan.pdf", "page": 1})
            assert not shown.is_error
            images = [c for c in shown.content if c.type == "image"]
            assert len(images) == 1 and images[0].mime_type == "image/png"
            assert grey_rows(base64.b64decode(images[0].data)) == expected(0, 0, W, H)
            assert shown.structured_content is not None
            assert shown.structured_content["source"] == "embedded_image"

            # A page with a text layer keeps it: a whole-page transcription is refused.
            error = await fail(s, "submit_transcription", path="scan.pdf", page=2, text="other")
            assert error["code"] == "invalid_argument"
            given = await call(
                s, "submit_transcription", path="scan.pdf", page=1, text=TRANSCRIPTION
            )
            assert (given["status"], given["provenance"]) == ("ocr", "agent")

            page = (await call(s, "read_pages", path="scan.pdf", pages="1"))["pages"][0]
            assert (page["status"], page["provenance"]) == ("ocr", "agent")
            assert page["markdown"] == TRANSCRIPTION
            found = await call(s, "find_in_document", path="scan.pdf", query="good order")
            assert [(m["page"], m["provenance"]) for m in found["matches"]] == [(1, "agent")]
            assert found["coverage"]["complete"] is True

    anyio.run(main)
