"""The OpenAI-compatible OCR binding against a REAL vision endpoint: run only when
``PDFTHIN_LIVE_OCR_URL`` names one (docs/ocr.md, "Testing against a live endpoint"); never in
CI here, where no such endpoint is reachable. With ``PDFTHIN_LIVE_OCR_MODEL`` (and
``PDFTHIN_LIVE_OCR_API_KEY`` when it wants one), e.g. a local Ollama::

    PDFTHIN_LIVE_OCR_URL=http://127.0.0.1:11434 PDFTHIN_LIVE_OCR_MODEL=llama3.2-vision \\
        python -m pytest tests/test_ocr_live.py

The pages are generated (words drawn, rendered by pdftoppm, kept only as pixels), so what
the model must read is known; the checks are on words, not exact Markdown, as models differ
in layout."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from test_ocr_local import EXAMPLES, WORDS, image_only_page, require_programs

from pdfthin.ocr.loader import load_binding
from pdfthin.operations import Context, find_in_document, read_pages

URL = os.environ.get("PDFTHIN_LIVE_OCR_URL")

pytestmark = pytest.mark.skipif(
    not URL, reason="no live endpoint: set PDFTHIN_LIVE_OCR_URL (see docs/ocr.md)"
)


@pytest.fixture
def live(monkeypatch: pytest.MonkeyPatch) -> Context:
    require_programs("pdftoppm")
    assert URL is not None
    monkeypatch.setenv("PDFTHIN_OCR_URL", URL)
    monkeypatch.setenv("PDFTHIN_OCR_MODEL", os.environ.get("PDFTHIN_LIVE_OCR_MODEL", ""))
    key = os.environ.get("PDFTHIN_LIVE_OCR_API_KEY")
    if key:
        monkeypatch.setenv("PDFTHIN_OCR_API_KEY", key)
    if not os.environ.get("PDFTHIN_LIVE_OCR_MODEL"):
        pytest.fail("PDFTHIN_LIVE_OCR_MODEL must name the endpoint's vision model")
    return Context(ocr=load_binding(str(EXAMPLES / "ocr_openai.py")))


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


def test_a_live_model_reads_a_generated_scan(live: Context, tmp_path: Path) -> None:
    scan = image_only_page(tmp_path).read_bytes()
    r = read_pages(scan, ocr=True, context=live)
    (page,) = r["pages"]
    assert page["status"] == "ocr", page
    assert _words(WORDS) <= _words(page["markdown"]), page["markdown"]


def test_a_live_transcription_is_searchable_and_cached(live: Context, tmp_path: Path) -> None:
    scan = image_only_page(tmp_path).read_bytes()
    found = find_in_document(scan, "invoice", ocr=True, context=live)
    assert [m["page"] for m in found["matches"]] == [1]
    assert found["coverage"]["complete"] is True
    # The page is not sent again: the transcription is cached by fingerprint and provider.
    binding = live.ocr
    assert binding is not None
    assert binding.cached(found["document"]["fingerprint"], 1) is not None
