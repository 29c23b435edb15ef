"""OCR through injected ports (invariant 9), each rule on fake ports."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from pdfbuilder import PdfBuilder

from pdfthin.errors import PdfthinError
from pdfthin.ocr import OcrBinding, Signal
from pdfthin.ocr.loader import load_binding
from pdfthin.operations import Context, describe_document, find_in_document, read_pages
from pdfthin.operations import cursor as cur


def scanned_pdf(pages: int, text_pages: frozenset[int] = frozenset()) -> bytes:
    """``pages`` pages; those in ``text_pages`` have a text layer ("text layer N"), the others
    only a full-page image."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(8, 8)
    for n in range(1, pages + 1):
        if n in text_pages:
            b.add_page(b"BT /F1 12 Tf 72 700 Td (text layer %d) Tj ET" % n, {"Font": {"F1": font}})
        else:
            b.add_page(b"q 612 0 0 792 0 0 cm /Im1 Do Q", {"XObject": {"Im1": image}})
    return b.build()


class FakeRasterizer:
    def __init__(self) -> None:
        self.calls: list[list[int]] = []

    def render(
        self, pdf: bytes, pages: list[int], dpi: int, signal: Signal
    ) -> list[dict[str, Any]]:
        assert pdf.startswith(b"%PDF-")
        self.calls.append(list(pages))
        return [{"page": p, "image": b"png-%d" % p, "media_type": "image/png"} for p in pages]


class FakeRecognizer:
    """Reads the page number out of the fake image; ``mangle`` lets a test misbehave."""

    name = "fake"

    def __init__(self, mangle: Any = None, delay: float = 0.0) -> None:
        self.mangle = mangle
        self.delay = delay
        self.calls: list[list[int]] = []
        self.finished = threading.Event()

    def recognize(self, pages: list[dict[str, Any]], signal: Signal) -> list[dict[str, Any]]:
        self.calls.append([p["page"] for p in pages])
        if self.delay:
            time.sleep(self.delay)
        out = [
            {"page": p["page"], "markdown": f"scanned words on page {p['page']}", "confidence": 0.9}
            for p in pages
        ]
        if self.mangle is not None:
            out = self.mangle(out)
        self.finished.set()
        return out


def binding(**kwargs: Any) -> tuple[OcrBinding, FakeRasterizer, FakeRecognizer]:
    raster = FakeRasterizer()
    recognizer = kwargs.pop("recognizer", None) or FakeRecognizer()
    return OcrBinding(raster, recognizer, **kwargs), raster, recognizer


def test_ocr_without_a_binding_is_unavailable() -> None:
    pdf = scanned_pdf(2)
    for call in (
        lambda: read_pages(pdf, ocr=True, context=Context()),
        lambda: find_in_document(pdf, "x", ocr=True, context=Context()),
    ):
        with pytest.raises(PdfthinError) as info:
            call()
        assert info.value.code == "ocr_unavailable"


def test_ocr_runs_only_when_asked_and_only_on_needs_ocr_pages() -> None:
    ocr, raster, _ = binding()
    ctx = Context(ocr=ocr)
    pdf = scanned_pdf(4, frozenset({1, 3}))
    r = read_pages(pdf, context=ctx)
    assert raster.calls == [] and [p["status"] for p in r["pages"]][1] == "needs_ocr"
    r = read_pages(pdf, ocr=True, context=ctx)
    assert raster.calls == [[2, 4]]
    assert [(p["page"], p["status"]) for p in r["pages"]] == [
        (1, "text"),
        (2, "ocr"),
        (3, "text"),
        (4, "ocr"),
    ]
    assert r["pages"][1]["markdown"] == "scanned words on page 2"
    assert r["pages"][0]["markdown"] == "text layer 1"


def test_describe_reports_the_binding() -> None:
    ocr, _, _ = binding(dpi=300)
    r = describe_document(scanned_pdf(1), context=Context(ocr=ocr))
    assert r["capabilities"]["ocr"] == {"bound": True, "provider": "fake", "dpi": 300}


def _reverse_and_duplicate(out: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [*reversed(out), *out]


def _invent(out: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # A text-layer page, a page nobody asked for, a bogus page number, a non-dict.
    return [
        {"page": 1, "markdown": "overwritten!"},
        {"page": 99, "markdown": "invented"},
        {"page": "2", "markdown": "bad number"},
        "junk",
        *out[1:],
    ]


@pytest.mark.parametrize("mangle", [_reverse_and_duplicate, _invent])
def test_port_answers_are_matched_to_requested_pages(mangle: Any) -> None:
    ocr, _, _ = binding(recognizer=FakeRecognizer(mangle))
    pdf = scanned_pdf(3, frozenset({1}))
    r = read_pages(pdf, ocr=True, context=Context(ocr=ocr))
    pages = {p["page"]: p for p in r["pages"]}
    assert pages[1]["status"] == "text" and pages[1]["markdown"] == "text layer 1"
    if mangle is _invent:
        # Page 2's answer was dropped by the port: it still needs OCR; page 3 was answered.
        assert pages[2]["status"] == "needs_ocr"
        assert pages[3]["markdown"] == "scanned words on page 3"
    else:
        assert pages[2]["markdown"] == "scanned words on page 2"
        assert pages[3]["markdown"] == "scanned words on page 3"


def test_empty_transcription_leaves_needs_ocr() -> None:
    def blank(out: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**o, "markdown": "  \n "} for o in out]

    ocr, _, _ = binding(recognizer=FakeRecognizer(blank))
    r = read_pages(scanned_pdf(1), ocr=True, context=Context(ocr=ocr))
    (page,) = r["pages"]
    assert page["status"] == "needs_ocr"
    assert "found no text" in page["reason"]


def test_transcriptions_are_cached_by_fingerprint_page_provider_and_dpi() -> None:
    ocr, raster, _ = binding()
    pdf = scanned_pdf(2)
    read_pages(pdf, ocr=True, context=Context(ocr=ocr))
    read_pages(pdf, ocr=True, context=Context(ocr=ocr))  # a new context: same binding cache
    assert raster.calls == [[1, 2]]
    other = OcrBinding(raster, ocr.provider, dpi=300)
    read_pages(pdf, ocr=True, context=Context(ocr=other))
    assert raster.calls == [[1, 2], [1, 2]]  # another resolution is another cache entry


def test_batches_of_max_pages_per_call() -> None:
    ocr, raster, _ = binding(max_pages_per_call=2)
    read_pages(scanned_pdf(5), ocr=True, context=Context(ocr=ocr))
    assert raster.calls == [[1, 2], [3, 4], [5]]


def test_search_walks_a_long_scan_a_batch_per_call_carrying_coverage() -> None:
    ocr, raster, _ = binding(max_pages_per_call=2)
    ctx = Context(ocr=ocr)
    pdf = scanned_pdf(5)
    seen: list[int] = []
    cursor = None
    calls = 0
    while True:
        r = find_in_document(pdf, "scanned words on page", ocr=True, cursor=cursor, context=ctx)
        calls += 1
        seen += [m["page"] for m in r["matches"]]
        cursor = r["next_cursor"]
        if cursor is None:
            assert r["coverage"]["complete"] is True
            assert r["coverage"]["pages_searched"] == "1-5"
            break
        assert r["coverage"]["complete"] is False
        assert r["coverage"]["pages_not_yet_searched"]
        assert calls < 10
    assert seen == [1, 2, 3, 4, 5]
    assert raster.calls == [[1, 2], [3, 4], [5]]
    assert calls == 3


def test_search_sends_only_pages_after_the_cursor() -> None:
    ocr, raster, _ = binding(max_pages_per_call=1)
    ctx = Context(ocr=ocr)
    pdf = scanned_pdf(3)
    first = find_in_document(pdf, "page", ocr=True, context=ctx)
    assert raster.calls == [[1]]
    find_in_document(pdf, "page", ocr=True, cursor=first["next_cursor"], context=ctx)
    assert raster.calls == [[1], [2]]
    # Page 1 was read by OCR: nothing to carry (only the pages OCR could not read travel).
    assert cur.decode(first["next_cursor"]).extra is None


def test_timeout_answers_timeout_and_keeps_the_slot_until_the_port_returns() -> None:
    slow = FakeRecognizer(delay=1.0)
    ocr, _, _ = binding(recognizer=slow, timeout=0.2)
    ctx = Context(ocr=ocr)
    pdf = scanned_pdf(1)
    with pytest.raises(PdfthinError) as info:
        read_pages(pdf, ocr=True, context=ctx)
    assert info.value.code == "timeout"
    # The port is still working (so the call did not wait for it): its slot is held, so a
    # second call cannot start another.
    assert not slow.finished.is_set()
    assert ocr._slots.acquire(blocking=False) is False
    assert slow.finished.wait(5)
    time.sleep(0.05)
    assert ocr._slots.acquire(blocking=False) is True
    ocr._slots.release()
    # The late answer still landed in the cache.
    assert read_pages(pdf, ocr=True, context=ctx)["pages"][0]["status"] == "ocr"


def test_a_failing_port_is_an_error_envelope_not_a_crash() -> None:
    class Broken(FakeRecognizer):
        def recognize(self, pages: list[dict[str, Any]], signal: Signal) -> list[dict[str, Any]]:
            raise RuntimeError("model server down")

    ocr, _, _ = binding(recognizer=Broken())
    with pytest.raises(PdfthinError) as info:
        read_pages(scanned_pdf(1), ocr=True, context=Context(ocr=ocr))
    assert info.value.code == "ocr_unavailable"
    assert "model server down" in info.value.message


def test_binding_validation() -> None:
    with pytest.raises(TypeError):
        OcrBinding(object(), FakeRecognizer())  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        OcrBinding(FakeRasterizer(), FakeRecognizer(), dpi=5)


def test_load_binding_from_a_file(tmp_path: Any) -> None:
    module = tmp_path / "my_ocr.py"
    module.write_text(
        "from pdfthin.ocr import OcrBinding\n"
        "class R:\n"
        "    def render(self, pdf, pages, dpi, signal):\n"
        "        return []\n"
        "class T:\n"
        "    name = 'mine'\n"
        "    def recognize(self, pages, signal):\n"
        "        return []\n"
        "binding = OcrBinding(R(), T(), dpi=150)\n"
    )
    loaded = load_binding(str(module))
    assert loaded.name == "mine" and loaded.dpi == 150
    with pytest.raises(PdfthinError) as info:
        load_binding(str(tmp_path / "missing.py"))
    assert info.value.code == "ocr_unavailable"
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n")
    with pytest.raises(PdfthinError) as info:
        load_binding(str(empty))
    assert info.value.code == "ocr_unavailable"
