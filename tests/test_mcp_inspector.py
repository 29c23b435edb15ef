"""A second, independent MCP client: the MCP Inspector's CLI mode (npm
``@modelcontextprotocol/inspector``, pinned in ``tests/mcp_inspector/package.json``; ``.ci/run``
installs it with ``npm ci``) lists the tools of ``pdfthin serve`` and calls them.

Locally, without Node or the installed inspector, these tests skip; in CI (``CI`` set) that is
a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from mcp_support import PYTHON, REPO, SAMPLE, WORKDIR

from pdfthin.operations.registry import BY_NAME

INSPECTOR = REPO / "tests" / "mcp_inspector" / "node_modules" / ".bin" / "mcp-inspector"


def require_inspector() -> str:
    node = shutil.which("node")
    if node and INSPECTOR.exists():
        return node
    message = (
        "the MCP Inspector is not installed: run `npm ci` in tests/mcp_inspector (.ci/run does)"
        if node
        else "node is not installed (the MCP Inspector needs Node 20)"
    )
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("inspector")
    shutil.copyfile(SAMPLE, root / "sample.pdf")
    return root


def inspect(root: Path, *arguments: str) -> dict[str, Any]:
    node = require_inspector()
    done = subprocess.run(
        [node, str(INSPECTOR), "--cli", PYTHON, "-m", "pdfthin", "serve", str(root), *arguments],
        check=False,
        cwd=WORKDIR,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def test_inspector_lists_the_tools(root: Path) -> None:
    answer = inspect(root, "--method", "tools/list")
    tools = {tool["name"]: tool for tool in answer["tools"]}
    # Every operation of the registry is a tool, and the server's own listing one more.
    assert set(tools) == {"list_documents", *BY_NAME}
    read = tools["read_pages"]
    assert read["annotations"]["readOnlyHint"] is True
    assert read["annotations"]["idempotentHint"] is True
    assert read["inputSchema"]["required"] == ["path"]
    assert "outputSchema" in read


def test_inspector_calls_a_tool(root: Path) -> None:
    answer = inspect(
        root,
        "--method",
        "tools/call",
        "--tool-name",
        "find_in_document",
        "--tool-arg",
        "path=sample.pdf",
        "--tool-arg",
        "query=sample",
    )
    assert not answer.get("isError")
    structured = answer["structuredContent"]
    assert [m["page"] for m in structured["matches"]] == [1]
    assert structured["coverage"]["pages_needing_ocr"] == "3"
    assert json.loads(answer["content"][0]["text"]) == structured


def test_inspector_sees_an_error_envelope(root: Path) -> None:
    answer = inspect(
        root,
        "--method",
        "tools/call",
        "--tool-name",
        "read_pages",
        "--tool-arg",
        "path=../../etc/passwd",
    )
    assert answer["isError"] is True
    assert answer["structuredContent"]["error"]["code"] == "outside_root"
