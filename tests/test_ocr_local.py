"""The example OCR bindings, end to end: poppler + Tesseract on a scanned corpus file, and the
OpenAI-compatible recognizer against a fake endpoint on 127.0.0.1. In CI the programs must be
installed (``.ci/run`` installs them); locally their absence skips these tests."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, require_corpus

from pdfthin.ocr.loader import load_binding
from pdfthin.operations import Context, describe_document, find_in_document, read_pages

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SCAN = "docling/ocr/ocr_test.pdf"  # one scanned page: "Docling bundles PDF document conversion..."


def require_programs(*names: str) -> None:
    missing = [n for n in names if shutil.which(n) is None]
    if not missing:
        return
    message = f"not installed: {', '.join(missing)} (.ci/run installs them)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


class Counting:
    """Wraps a port to count its calls."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls = 0

    def render(self, pdf: bytes, pages: list[int], dpi: int, signal: Any) -> Any:
        self.calls += 1
        return self.inner.render(pdf, pages, dpi, signal)


def test_tesseract_binding_end_to_end() -> None:
    require_corpus()
    require_programs("pdftoppm", "tesseract")
    binding = load_binding(str(EXAMPLES / "ocr_tesseract.py"))
    counting = Counting(binding.rasterizer)
    binding.rasterizer = counting  # type: ignore[assignment]
    ctx = Context(ocr=binding)
    path = CORPUS / SCAN

    described = describe_document(path, context=ctx)
    assert described["pages"]["needs_ocr"] == "1"
    assert described["capabilities"]["ocr"]["bound"] is True

    plain = find_in_document(path, "document conversion", context=ctx)
    assert plain["matches"] == [] and plain["coverage"]["complete"] is False

    found = find_in_document(path, "document conversion", ocr=True, context=ctx)
    assert [m["page"] for m in found["matches"]] == [1]
    assert found["coverage"]["complete"] is True

    read = read_pages(path, ocr=True, context=ctx)
    (page,) = read["pages"]
    assert page["status"] == "ocr"
    assert "Docling bundles PDF document conversion" in page["markdown"]

    again = read_pages(path, ocr=True, context=Context(ocr=binding))
    assert again["pages"][0]["markdown"] == page["markdown"]
    assert counting.calls == 1  # the later calls were served from the transcription cache


def test_cli_ocr_option() -> None:
    require_corpus()
    require_programs("pdftoppm", "tesseract")
    path = str(CORPUS / SCAN)
    run = [sys.executable, "-m", "pdfthin", "find", path, "document conversion"]
    assert subprocess.run(run, capture_output=True, check=False).returncode == 4
    done = subprocess.run(
        [*run, "--ocr", str(EXAMPLES / "ocr_tesseract.py")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "**document conversion**" in done.stdout
    bad = subprocess.run(
        [*run, "--ocr", "no_such_module_anywhere"], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 5 and "ocr_unavailable" in bad.stderr


@pytest.fixture
def fake_chat_server() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    requests: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            requests.append(
                {"path": self.path, "body": body, "auth": self.headers["Authorization"]}
            )
            reply = {"choices": [{"message": {"content": "# Scanned heading\n\nRecognised text"}}]}
            data = json.dumps(reply).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", requests
    finally:
        server.shutdown()


def test_openai_compatible_recognizer_against_a_local_fake(
    fake_chat_server: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    require_corpus()
    require_programs("pdftoppm")
    url, requests = fake_chat_server
    monkeypatch.setenv("PDFTHIN_OCR_URL", url)
    monkeypatch.setenv("PDFTHIN_OCR_MODEL", "test-vision")
    monkeypatch.setenv("PDFTHIN_OCR_API_KEY", "secret")
    binding = load_binding(str(EXAMPLES / "ocr_openai.py"))
    r = read_pages(CORPUS / SCAN, ocr=True, context=Context(ocr=binding))
    assert r["pages"][0]["status"] == "ocr"
    assert r["pages"][0]["markdown"] == "# Scanned heading\n\nRecognised text"
    (request,) = requests
    assert request["path"] == "/v1/chat/completions"
    assert request["auth"] == "Bearer secret"
    body = request["body"]
    assert body["model"] == "test-vision"
    image = body["messages"][0]["content"][1]["image_url"]["url"]
    assert image.startswith("data:image/png;base64,")
    assert base64.b64decode(image.split(",", 1)[1]).startswith(b"\x89PNG")
