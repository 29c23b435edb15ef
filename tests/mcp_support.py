"""Shared by the ``test_mcp_*`` tests: the sandbox tree, and sessions with the real server.

The server runs as a subprocess (``python -m pdfthin serve ROOT``) driven by the MCP SDK's own
client. It is spawned with ``sys.executable`` as given (the venv's or tox's ``bin/python``), not
a resolved path, which would leave the virtual environment.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, get_default_environment, stdio_client
from mcp.client.streamable_http import streamable_http_client
from pdfbuilder import Outline, PdfBuilder, encrypt

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "examples" / "sample.pdf"
PYTHON = sys.executable
#: The size limit the fixture servers run with; ``big.pdf`` is over it.
MAX_FILE_BYTES = 400_000
NFC = unicodedata.normalize("NFC", "r\u00e9sum\u00e9.pdf")
NFD = unicodedata.normalize("NFD", "r\u00e9sum\u00e9.pdf")
SECRET = "SECRET-OUTSIDE-THE-ROOT"
#: The servers' working directory: an empty one, so ``python -m pdfthin`` imports the package
#: the tests run against (tox installs a wheel), not whatever sits in the repository root.
WORKDIR = Path(tempfile.gettempdir()) / "pdfthin-mcp-cwd"
WORKDIR.mkdir(exist_ok=True)


# --- fixture documents ----------------------------------------------------------------------


def text_pdf(pages: list[list[str]], title: str | None = None, outline: bool = False) -> bytes:
    """Pages of Helvetica lines; with ``outline``, one bookmark per page titled by its first
    line."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica", encoding="/WinAnsiEncoding")
    for lines in pages:
        body = [b"BT /F1 11 Tf 72 720 Td 14 TL"]
        for line in lines:
            escaped = line.encode("latin-1").replace(b"(", b"\\(").replace(b")", b"\\)")
            body.append(b"(" + escaped + b") Tj T*")
        body.append(b"ET")
        b.add_page(b"\n".join(body), {"Font": {"F1": font}})
    if title:
        b.set_info(Title=title)
    if outline:
        b.set_outline([Outline(lines[0], dest=i) for i, lines in enumerate(pages)])
    return b.build()


def report_pdf(name: str) -> bytes:
    """Six pages with an outline; ``name`` makes each file's text (and fingerprint) its own."""
    pages = []
    for n in range(1, 7):
        pages.append(
            [
                f"Chapter {n} of {name}",
                f"The {name} report says the quarterly figure {n * 17} was reached.",
                *[f"Line {i} of page {n} in {name}: alpha beta gamma delta." for i in range(30)],
            ]
        )
    return text_pdf(pages, title=f"Report {name}", outline=True)


def image_pdf() -> bytes:
    """One page with four images: Flate grey (PNG), JPEG, JPEG 2000, and an unknown filter."""
    b = PdfBuilder()
    gray = b.image_xobject(8, 8, flate=True)
    jpeg = b.image_xobject(4, 4, JPEG, filter="/DCTDecode", color_space="/DeviceRGB")
    jpx = b.image_xobject(4, 4, JP2, filter="/JPXDecode", color_space="/DeviceRGB")
    odd = b.image_xobject(4, 4, b"xxxx", filter="/FooDecode")
    content = (
        b"q 100 0 0 100 50 600 cm /A Do Q q 100 0 0 100 200 600 cm /B Do Q "
        b"q 100 0 0 100 350 600 cm /C Do Q q 100 0 0 100 50 400 cm /D Do Q"
    )
    b.add_page(content, {"XObject": {"A": gray, "B": jpeg, "C": jpx, "D": odd}})
    return b.build()


JPEG = b"\xff\xd8\xff\xe0fake-jpeg\xff\xd9"
JP2 = b"\x00\x00\x00\x0cjP  \r\n\x87\nfake-jp2"


def slow_pdf(tag: str, pages: int = 1200) -> bytes:
    """Dense pages that take seconds to extract (about 3 ms a page here with the native
    accelerator, 8 ms without)."""
    b = PdfBuilder(compress=True)
    font = b.font_standard("Helvetica", encoding="/WinAnsiEncoding")
    for n in range(pages):
        body = [b"BT /F1 9 Tf 36 760 Td 10 TL"]
        for i in range(70):
            body.append(
                b"(%s %d alpha beta gamma delta epsilon zeta eta theta iota kappa) Tj T*"
                % (tag.encode(), n * 70 + i)
            )
        body.append(b"ET")
        b.add_page(b"\n".join(body), {"Font": {"F1": font}})
    return b.build()


@dataclass(frozen=True)
class Tree:
    root: Path
    outside: Path


def build_tree(base: Path) -> Tree:
    """The sandbox every MCP test serves. Paths, by purpose:

    - documents: ``sample.pdf``, ``docs/alpha.pdf``, ``docs/beta.pdf``, ``images.pdf``,
      ``locked.pdf`` (password ``secret``), NFC and NFD spellings of ``résumé.pdf`` (two
      different files), ``．．/inside.pdf`` (a directory named with fullwidth dots);
    - refusals: ``broken.pdf`` (malformed), ``text.pdf`` (no header), ``big.pdf`` (over the
      size limit), ``folder.pdf/`` (a directory), ``fifo.pdf`` (a FIFO);
    - links: ``link-in.pdf`` → ``sample.pdf``; ``link-out.pdf`` → outside;
      ``linkdir-out`` → the outside directory; ``linkdir-in`` → ``docs``;
      ``dev-zero.pdf`` → ``/dev/zero``.
    """
    root = base / "root"
    outside = base / "outside"
    (root / "docs").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.pdf").write_bytes(text_pdf([[SECRET]]))
    shutil.copyfile(SAMPLE, root / "sample.pdf")
    (root / "docs" / "alpha.pdf").write_bytes(report_pdf("alpha"))
    (root / "docs" / "beta.pdf").write_bytes(report_pdf("beta"))
    (root / "images.pdf").write_bytes(image_pdf())
    (root / "locked.pdf").write_bytes(encrypt(report_pdf("locked"), "secret"))
    (root / "broken.pdf").write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >>\n%%EOF\n")
    (root / "text.pdf").write_bytes(b"Just some text, not a PDF at all.\n")
    (root / "big.pdf").write_bytes(b"%PDF-1.4\n" + b"%" * MAX_FILE_BYTES)
    (root / "folder.pdf").mkdir()
    (root / "folder.pdf" / "inner.pdf").write_bytes(report_pdf("inner"))
    os.mkfifo(root / "fifo.pdf")
    (root / NFC).write_bytes(report_pdf("nfc"))
    (root / NFD).write_bytes(report_pdf("nfd"))
    (root / "\uff0e\uff0e").mkdir()
    (root / "\uff0e\uff0e" / "inside.pdf").write_bytes(report_pdf("dots"))
    (root / "link-in.pdf").symlink_to(root / "sample.pdf")
    (root / "link-out.pdf").symlink_to(outside / "secret.pdf")
    (root / "linkdir-out").symlink_to(outside)
    (root / "linkdir-in").symlink_to(root / "docs")
    (root / "dev-zero.pdf").symlink_to("/dev/zero")
    return Tree(root, outside)


# --- sessions -------------------------------------------------------------------------------


def server_args(root: Path, *options: str) -> list[str]:
    return ["-m", "pdfthin", "serve", str(root), "--max-file-bytes", str(MAX_FILE_BYTES), *options]


def server_parameters(
    root: Path, *options: str, python_path: Path | None = None
) -> StdioServerParameters:
    """How a stdio client starts ``pdfthin serve`` on ``root``; ``python_path`` goes first on
    the server's ``PYTHONPATH`` (for a test's ``sitecustomize``)."""
    # The SDK passes a server only a minimal environment; the engine switch goes along, so a
    # native test run tests the native server (and answers match the in-process operations).
    env = get_default_environment()
    if "PDFTHIN_NATIVE" in os.environ:
        env["PDFTHIN_NATIVE"] = os.environ["PDFTHIN_NATIVE"]
    # A run against a checkout other than the installed one (PYTHONPATH) serves that checkout.
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    if python_path is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            [str(python_path), *filter(None, [os.environ.get("PYTHONPATH")])]
        )
    return StdioServerParameters(
        command=PYTHON, args=server_args(root, *options), cwd=WORKDIR, env=env
    )


@asynccontextmanager
async def session(
    root: Path, *options: str, python_path: Path | None = None
) -> AsyncIterator[ClientSession]:
    """A client session with ``pdfthin serve`` over stdio (see :func:`server_parameters`)."""
    params = server_parameters(root, *options, python_path=python_path)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
        await s.initialize()
        yield s


@asynccontextmanager
async def http_session(url: str) -> AsyncIterator[ClientSession]:
    async with streamable_http_client(url) as (read, write), ClientSession(read, write) as s:
        await s.initialize()
        yield s


async def call(s: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    """A successful call's structured content (and checks the text block says the same)."""
    result = await s.call_tool(tool, arguments)
    assert not result.is_error, result.structured_content
    assert result.structured_content is not None
    text = [c for c in result.content if c.type == "text"]
    assert len(text) == 1 and json.loads(text[0].text) == result.structured_content
    return result.structured_content


async def fail(s: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    """A failed call's error (``{code, message, details}``), checked to be a tool error with
    the envelope as structured content and as the text."""
    result = await s.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    envelope = result.structured_content
    assert envelope is not None and set(envelope) == {"error"}, envelope
    assert json.loads(result.content[0].text) == envelope
    error: dict[str, Any] = envelope["error"]
    assert set(error) == {"code", "message", "details"}
    assert "\n" not in error["message"] and "Traceback" not in error["message"]
    return error


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_http_server(root: Path, port: int, *options: str) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [PYTHON, *server_args(root, "--http", f"127.0.0.1:{port}", *options)],
        cwd=WORKDIR,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server exited: {process.stderr.read()!r}")  # type: ignore[union-attr]
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError("the HTTP server did not start listening within 30 s")


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
