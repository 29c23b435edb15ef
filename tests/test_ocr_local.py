"""The OCR bindings, end to end: the package's poppler + Tesseract binding
(``pdfthin.ocr.tesseract``) on a scanned corpus file and on a generated image-only page, its
one-line error when a program is missing, and the example OpenAI-compatible recognizer against
a fake endpoint on 127.0.0.1. In CI the programs must be installed (``.ci/run`` installs
them); locally their absence skips these tests."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import threading
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
from cli_support import pdfthin_cli
from conftest import CORPUS, require_corpus
from pdfbuilder import PdfBuilder

from pdfthin.ocr import OcrBinding, tesseract
from pdfthin.ocr.loader import load_binding
from pdfthin.operations import Context, describe_document, find_in_document, read_pages

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
TESSERACT = "pdfthin.ocr.tesseract"
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
    assert isinstance(load_binding(TESSERACT), OcrBinding)
    binding = tesseract.make_binding()  # a binding of its own: the module's is shared
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
        [*run, "--ocr", TESSERACT],
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


#: The words drawn on the generated scan, and the resolution its picture is taken at (enough
#: for Tesseract to read 28-point type).
WORDS = "Quarterly invoice total"
SCAN_DPI = 150


def image_only_page(tmp_path: Path, crop_box: tuple[float, ...] | None = None) -> Path:
    """A one-page PDF whose only content is a picture of ``WORDS``: the words are drawn in
    Helvetica, the page is rendered to grey pixels by ``pdftoppm`` and the pixels are the
    page's one image, so no text layer is left; with ``crop_box``, the page shows that part
    of it."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    b.add_page(f"BT /F1 28 Tf 72 600 Td ({WORDS}) Tj ET".encode(), {"Font": {"F1": font}})
    text_pdf = tmp_path / "drawn.pdf"
    text_pdf.write_bytes(b.build())
    subprocess.run(
        ["pdftoppm", "-r", str(SCAN_DPI), "-gray", "-singlefile", str(text_pdf),
         str(tmp_path / "drawn")],
        check=True,
        timeout=120,
    )  # fmt: skip
    pgm = (tmp_path / "drawn.pgm").read_bytes()
    magic, width, height, depth, pixels = pgm.split(maxsplit=4)
    assert (magic, depth) == (b"P5", b"255")
    scan = PdfBuilder()
    image = scan.image_xobject(
        int(width), int(height), zlib.compress(pixels), filter="/FlateDecode"
    )
    scan.add_page(b"q 612 0 0 792 0 0 cm /Im1 Do Q", {"XObject": {"Im1": image}}, crop_box=crop_box)
    path = tmp_path / "scan.pdf"
    path.write_bytes(scan.build())
    return path


def test_the_packaged_binding_reads_a_generated_image_only_page(tmp_path: Path) -> None:
    require_programs("pdftoppm", "tesseract")
    scan = image_only_page(tmp_path)
    plain = pdfthin_cli("read", str(scan))
    assert plain.returncode == 0 and "needs_ocr" in plain.stdout and WORDS not in plain.stdout
    r = pdfthin_cli("read", str(scan), "--ocr", TESSERACT)
    assert r.returncode == 0, r.stderr
    assert "<!-- page 1: ocr" in r.stdout and WORDS in r.stdout
    found = pdfthin_cli("find", str(scan), "invoice total", "--ocr", TESSERACT)
    assert found.returncode == 0 and found.stdout.startswith("page 1 [ocr: tesseract-eng]: ")
    data = json.loads(pdfthin_cli("read", str(scan), "--ocr", TESSERACT, "--format", "json").stdout)
    (page,) = data["pages"]
    assert page["status"] == "ocr" and WORDS in page["markdown"]


def test_the_packaged_binding_reads_the_page_as_displayed_within_its_crop_box(
    tmp_path: Path,
) -> None:
    """The words stand above the crop box: a reader of the page does not see them, and OCR
    must not read them either (pdftoppm draws the media box unless told otherwise)."""
    require_programs("pdftoppm", "tesseract")
    scan = image_only_page(tmp_path, crop_box=(0, 0, 612, 500))
    r = pdfthin_cli("read", str(scan), "--ocr", TESSERACT, "--format", "json")
    assert r.returncode == 0, r.stderr
    (page,) = json.loads(r.stdout)["pages"]
    assert "invoice" not in page["markdown"].lower()
    # The same page with the words inside its crop box reads them.
    (tmp_path / "shown").mkdir()
    shown = image_only_page(tmp_path / "shown", crop_box=(0, 400, 612, 792))
    r = pdfthin_cli("read", str(shown), "--ocr", TESSERACT, "--format", "json")
    (page,) = json.loads(r.stdout)["pages"]
    assert page["status"] == "ocr" and WORDS in page["markdown"]


def stripped_path(tmp_path: Path, *keep: str) -> dict[str, str]:
    """The environment with PATH holding only ``keep`` (links to the real programs)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in keep:
        real = shutil.which(name)
        assert real is not None
        (bin_dir / name).symlink_to(real)
    return {**os.environ, "PATH": str(bin_dir)}


@pytest.mark.parametrize(("keep", "missing"), [((), "pdftoppm"), (("pdftoppm",), "tesseract")])
def test_a_missing_program_is_one_line_naming_it(
    tmp_path: Path, keep: tuple[str, ...], missing: str
) -> None:
    require_programs("pdftoppm", "tesseract")
    scan = image_only_page(tmp_path)
    env = stripped_path(tmp_path, *keep)
    r = pdfthin_cli("read", str(scan), "--ocr", TESSERACT, env=env)
    assert r.returncode == 1
    assert r.stderr.startswith("pdfthin: ocr_unavailable: ") and len(r.stderr.splitlines()) == 1
    assert f"{missing!r} is not installed" in r.stderr and "Traceback" not in r.stderr
    f = pdfthin_cli("find", str(scan), "invoice", "--ocr", TESSERACT, "--format", "json", env=env)
    assert f.returncode == 5
    error = json.loads(f.stdout)["error"]
    assert error["code"] == "ocr_unavailable" and missing in error["message"]
    # Loading the binding does not look for the programs: a call that needs no OCR works.
    described = pdfthin_cli("describe", str(scan), "--ocr", TESSERACT, env=env)
    assert described.returncode == 0 and "needs_ocr" in described.stdout


def test_the_example_file_is_the_packaged_binding() -> None:
    example = load_binding(str(EXAMPLES / "ocr_tesseract.py"))
    assert example is tesseract.binding
    assert isinstance(example.rasterizer, tesseract.PdftoppmRasterizer)
    assert example.name == "tesseract-eng"


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


def test_the_openai_compatible_example_sends_only_a_regions_crop(
    fake_chat_server: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, requests = fake_chat_server
    monkeypatch.setenv("PDFTHIN_OCR_URL", url)
    example = load_binding(str(EXAMPLES / "ocr_openai.py"))
    assert example.supports_regions

    class Raster:
        """Draws the page PDF and the region PDF as images one can tell apart."""

        def render(self, pdf: bytes, pages: list[int], dpi: int, signal: Any) -> Any:
            return [
                {"page": p, "image": b"\x89PNG " + pdf, "media_type": "image/png"} for p in pages
            ]

    binding = OcrBinding(Raster(), example.provider, store=None)
    got = binding.transcribe_region(b"%PDF-page", b"%PDF-region", "0" * 64, 2, (1, 2, 30, 40))
    assert got is not None and got.markdown == "# Scanned heading\n\nRecognised text"
    (request,) = requests
    text, image = request["body"]["messages"][0]["content"]
    assert "region" in text["text"]
    sent = base64.b64decode(image["image_url"]["url"].split(",", 1)[1])
    assert sent == b"\x89PNG %PDF-region"
