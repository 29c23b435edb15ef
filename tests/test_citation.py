"""render_citation: an image of a passage on its page, highlighted (issue 25).

With poppler's pdftoppm (the rasterizer of pdfthin.ocr.tesseract; CI installs poppler-utils)
the images are decoded and looked at: their size is the region's points x dpi / 72, the
yellow stands inside the highlighted boxes over the text they name, and nowhere else, on an
upright page, a page turned by /Rotate 90 and a page whose crop box does not start at the
origin. A fake rasterizer (a Python object) shows what the one-page PDF handed to it holds
without any program.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import math
import shutil
from pathlib import Path
from typing import Any

import pypdf
import pytest
from citation_support import FakeRasterizer, blank_png, decoded, fake_binding
from pdfbuilder import PdfBuilder, encrypt

from pdfthin.errors import PdfthinError
from pdfthin.ocr import OcrBinding
from pdfthin.ocr.tesseract import PdftoppmRasterizer, TesseractRecognizer
from pdfthin.operations import Context, verify_quote
from pdfthin.operations.citation import MARGIN_POINTS, MAX_PIXELS, render_citation

needs_pdftoppm = pytest.mark.skipif(
    shutil.which("pdftoppm") is None, reason="poppler's pdftoppm is not installed"
)
QUOTE = "Cited words here"
OTHER = "Elsewhere entirely"


def page_pdf(**page: Any) -> bytes:
    """One page: QUOTE in Helvetica 20 at (x, y) of user space, OTHER far from it."""
    x, y = page.pop("at", (100, 600))
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    content = (
        f"BT /F1 20 Tf {x} {y} Td ({QUOTE}) Tj ET BT /F1 20 Tf {x} {y - 300} Td ({OTHER}) Tj ET"
    )
    b.add_page(content.encode(), {"Font": {"F1": font}}, **page)
    return b.build()


def pdftoppm_context() -> Context:
    return Context(ocr=OcrBinding(PdftoppmRasterizer(), TesseractRecognizer()))


def yellow(pixel: tuple[int, int, int]) -> bool:
    r, g, b = pixel
    return r > 200 and g > 150 and b < 170


def dark(pixel: tuple[int, int, int]) -> bool:
    return sum(pixel) < 200


def look(image: Any, box: tuple[float, float, float, float], test: Any) -> float:
    """The share of the pixels in ``box`` (image pixels) that pass ``test``."""
    x0, y0, x1, y1 = (round(v) for v in box)
    pixels = [image.getpixel((x, y)) for x in range(x0, x1) for y in range(y0, y1)]
    return sum(1 for p in pixels if test(p)) / max(1, len(pixels))


def check_highlight(answer: dict[str, Any]) -> None:
    """The image is the region at the answer's dpi; the highlights are yellow over ink (the
    text they name), and there is no yellow outside them."""
    image = decoded(base64.b64decode(answer["data"]))
    region, scale = answer["region"], answer["dpi"] / 72
    width = (region["x1"] - region["x0"]) * scale
    height = (region["y1"] - region["y0"]) * scale
    assert abs(image.width - width) <= 1 and abs(image.height - height) <= 1
    assert (image.width, image.height) == (answer["width"], answer["height"])
    inside: list[tuple[float, float, float, float]] = []
    for h in answer["highlights"]:
        box = (
            (h["x0"] - region["x0"]) * scale,
            (h["y0"] - region["y0"]) * scale,
            (h["x1"] - region["x0"]) * scale,
            (h["y1"] - region["y0"]) * scale,
        )
        inside.append(box)
        inner = (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2)
        assert look(image, inner, yellow) > 0.4, h
        assert look(image, inner, dark) > 0.03, h  # the text is under it
    # Outside every highlight (2 pixels of antialiasing aside): no yellow.
    for x in range(image.width):
        for y in range(image.height):
            near = any(b[0] - 2 <= x <= b[2] + 2 and b[1] - 2 <= y <= b[3] + 2 for b in inside)
            if not near:
                assert not yellow(image.getpixel((x, y))), (x, y)


def quote_boxes(data: bytes, context: Context, password: str | None = None) -> dict[str, Any]:
    found = verify_quote(data, QUOTE, password=password, context=context)
    assert found["result"] == "exact"
    match: dict[str, Any] = found["match"]
    return match


# --- with pdftoppm ------------------------------------------------------------------------------


@needs_pdftoppm
def test_the_image_is_the_region_at_the_dpi_with_the_highlight_on_the_text() -> None:
    context = pdftoppm_context()
    data = page_pdf()
    match = quote_boxes(data, context)
    answer = render_citation(data, bbox=match["bbox"], dpi=144, context=context)
    box = match["bbox"][0]
    assert answer["page"] == 1 and answer["media_type"] == "image/png"
    assert answer["region"] == {
        "x0": round(box["x0"] - MARGIN_POINTS, 2),
        "y0": round(box["y0"] - MARGIN_POINTS, 2),
        "x1": round(box["x1"] + MARGIN_POINTS, 2),
        "y1": round(box["y1"] + MARGIN_POINTS, 2),
    }
    check_highlight(answer)
    # Twice the dpi, twice the pixels.
    double = render_citation(data, bbox=match["bbox"], dpi=288, context=context)
    assert abs(double["width"] - 2 * answer["width"]) <= 1
    check_highlight(double)


@needs_pdftoppm
@pytest.mark.parametrize(
    "page",
    [
        {"rotate": 90},
        {"rotate": 180},
        {"rotate": 270},
        {"crop_box": (60, 400, 420, 700)},
        {"media_box": (-200, 100, 412, 892), "at": (-100, 700)},
        {"rotate": 90, "media_box": (50, 50, 662, 842), "crop_box": (80, 500, 500, 800)},
    ],
    ids=["rotate90", "rotate180", "rotate270", "cropbox", "mediabox-offset", "rotate-crop"],
)
def test_turned_and_cropped_pages_highlight_the_right_text(page: dict[str, Any]) -> None:
    context = pdftoppm_context()
    data = page_pdf(**page)
    match = quote_boxes(data, context)
    answer = render_citation(data, anchor=match["anchor"], dpi=144, context=context)
    assert answer["highlights"] == [
        {k: round(v, 2) for k, v in b.items() if k != "page"} for b in match["bbox"]
    ]
    check_highlight(answer)


@needs_pdftoppm
def test_several_boxes_and_an_encrypted_document() -> None:
    context = pdftoppm_context()
    data = encrypt(page_pdf(), "secret", algorithm="RC4-128")
    match = quote_boxes(data, context, password="secret")
    box = match["bbox"][0]
    halves = (
        f"{box['x0']},{box['y0']},{(box['x0'] + box['x1']) / 2},{box['y1']};"
        f"{(box['x0'] + box['x1']) / 2 + 10},{box['y0']},{box['x1']},{box['y1']}"
    )
    answer = render_citation(data, page=1, bbox=halves, password="secret", context=context)
    assert len(answer["highlights"]) == 2
    check_highlight(answer)
    with pytest.raises(PdfthinError) as info:
        render_citation(data, page=1, bbox=halves, context=context)
    assert info.value.code == "encrypted"


@needs_pdftoppm
def test_the_command_line_writes_the_image(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pdfthin.adapters.cli import main

    source = tmp_path / "cited.pdf"
    source.write_bytes(page_pdf())
    out = tmp_path / "cite.png"
    argv = ["cite", str(source), "--page", "1", "--bbox", "90,180,300,210"]
    argv += ["--bbox", "90,212,200,230", "--dpi", "72"]
    assert main([*argv, "--ocr", "pdfthin.ocr.tesseract", "-o", str(out)]) == 0
    image = decoded(out.read_bytes())
    assert (image.width, image.height) == (300 + 24 - 66, 230 + 24 - 156)
    assert yellow(image.getpixel((10 + 24, 10 + 24)))
    assert not yellow(image.getpixel((3, 3)))
    capsys.readouterr()
    assert main([*argv, "-o", str(out)]) == 1  # nothing bound
    assert "renderer_unavailable" in capsys.readouterr().err
    # A name for another format is refused, as `pdfthin image` refuses it: nothing written.
    wrong = tmp_path / "cite.jpg"
    assert main([*argv, "--ocr", "pdfthin.ocr.tesseract", "-o", str(wrong)]) == 2
    assert not wrong.exists()
    said = capsys.readouterr().err
    assert said.startswith("pdfthin cite: the citation image is PNG") and "cite.png" in said


# --- what the rasterizer is given (no program) ----------------------------------------------


def written(rasterizer: FakeRasterizer) -> pypdf.PageObject:
    pdf, pages, _ = rasterizer.calls[-1]
    assert pages == [1]
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    assert not reader.is_encrypted and len(reader.pages) == 1
    return reader.pages[0]


def overlay_boxes(page: pypdf.PageObject) -> list[tuple[float, float, float, float]]:
    ops = page.get_contents().operations  # type: ignore[union-attr]
    return [
        (float(a[0]), float(a[1]), float(a[0]) + float(a[2]), float(a[1]) + float(a[3]))
        for a, op in ops
        if op == b"re"
    ]


@pytest.mark.parametrize(
    ("page", "displayed", "user"),
    [
        ({}, (100, 200, 300, 220), (100, 572, 300, 592)),
        ({"rotate": 90}, (100, 200, 300, 220), (200, 100, 220, 300)),
        ({"rotate": 180}, (100, 200, 300, 220), (312, 200, 512, 220)),
        ({"rotate": 270}, (100, 200, 300, 220), (392, 492, 412, 692)),
        ({"crop_box": (50, 100, 450, 700)}, (40, 40, 140, 60), (90, 640, 190, 660)),
    ],
    ids=["upright", "rotate90", "rotate180", "rotate270", "cropbox"],
)
def test_the_written_page_is_the_region_with_the_boxes_in_user_space(
    page: dict[str, Any],
    displayed: tuple[float, float, float, float],
    user: tuple[float, float, float, float],
) -> None:
    rasterizer = FakeRasterizer()
    context = Context(ocr=fake_binding(rasterizer))
    data = page_pdf(**page)
    answer = render_citation(
        data, page=1, bbox=",".join(map(str, displayed)), dpi=100, context=context
    )
    assert rasterizer.calls[-1][2] == 100
    got = written(rasterizer)
    assert overlay_boxes(got) == [pytest.approx(user)]
    m = MARGIN_POINTS
    region = (user[0] - m, user[1] - m, user[2] + m, user[3] + m)
    for key in ("/MediaBox", "/CropBox"):
        assert [float(v) for v in got[key]] == pytest.approx(region)
    assert got.get("/Rotate", 0) == page.get("rotate", 0)
    assert answer["region"] == {
        "x0": displayed[0] - m,
        "y0": displayed[1] - m,
        "x1": displayed[2] + m,
        "y1": displayed[3] + m,
    }
    # The highlight multiplies, so the text under it stays readable.
    states = got["/Resources"]["/ExtGState"]
    assert [s["/BM"] for s in states.values()] == ["/Multiply"]
    # The page's own content is drawn, as a form XObject, with its own resources.
    (form,) = got["/Resources"]["/XObject"].values()
    form = form.get_object()
    assert QUOTE.encode() in form.get_data() and "/F1" in form["/Resources"]["/Font"]
    assert answer["media_type"] == "image/png" and (answer["width"], answer["height"]) == (1, 1)


def test_the_region_stops_at_the_page_edge() -> None:
    context = Context(ocr=fake_binding())
    answer = render_citation(page_pdf(), page=1, bbox="0,0,50,10", context=context)
    assert answer["region"] == {"x0": 0, "y0": 0, "x1": 50 + MARGIN_POINTS, "y1": 34}


def test_an_encrypted_document_is_written_unencrypted() -> None:
    rasterizer = FakeRasterizer()
    context = Context(ocr=fake_binding(rasterizer))
    data = encrypt(page_pdf(), "secret", algorithm="AES-128")
    render_citation(data, page=1, bbox="90,180,300,210", password="secret", context=context)
    form = next(iter(written(rasterizer)["/Resources"]["/XObject"].values())).get_object()
    assert QUOTE.encode() in form.get_data()  # decrypted content, in a file without /Encrypt


def test_boxes_in_every_form_and_their_page() -> None:
    context = Context(ocr=fake_binding())
    data = page_pdf()
    one = {"x0": 90, "y0": 180, "x1": 300, "y1": 210}
    for bbox in ("90,180,300,210", one, [one], [{**one, "page": 1}], "90,180,300,210;"):
        answer = render_citation(data, page=1, bbox=bbox, context=context)
        assert answer["highlights"] == [one]
    # The boxes' page stands for page.
    assert render_citation(data, bbox=[{**one, "page": 1}], context=context)["page"] == 1


@pytest.mark.parametrize(
    ("arguments", "code", "argument"),
    [
        ({"page": 1, "bbox": "90,180,300,900"}, "invalid_argument", "bbox"),  # off the page
        ({"page": 1, "bbox": "-30,180,300,200"}, "invalid_argument", "bbox"),
        ({"page": 1, "bbox": "300,180,90,200"}, "invalid_argument", "bbox"),  # inside out
        ({"page": 1, "bbox": "90,180,300"}, "invalid_argument", "bbox"),
        ({"page": 1, "bbox": "1,2,3,nan"}, "invalid_argument", "bbox"),
        ({"page": 1, "bbox": []}, "invalid_argument", "bbox"),
        ({"page": 1, "bbox": {"x0": 1, "y0": 2, "x1": 3}}, "invalid_argument", "bbox"),
        ({"page": 1, "bbox": {"x0": 1, "y0": 2, "x1": 3, "y1": True}}, "invalid_argument", "bbox"),
        (
            {"page": 1, "bbox": {"x0": 1, "y0": 2, "x1": 3, "y1": 4, "z": 1}},
            "invalid_argument",
            "bbox",
        ),
        ({"page": 1, "bbox": ";".join(["1,2,3,4"] * 201)}, "invalid_argument", "bbox"),
        ({"bbox": "90,180,300,210"}, "invalid_argument", "page"),  # no page
        (
            {"page": 2, "bbox": [{"page": 1, "x0": 1, "y0": 2, "x1": 3, "y1": 4}]},
            "invalid_argument",
            "bbox",
        ),
        ({"page": 1}, "invalid_argument", "bbox"),  # neither boxes nor anchor
        ({"page": 2, "bbox": "90,180,300,210"}, "invalid_pages", None),
        ({"page": 0, "bbox": "90,180,300,210"}, "invalid_argument", "page"),
        ({"page": 1, "bbox": "90,180,300,210", "dpi": 20}, "invalid_argument", "dpi"),
        ({"page": 1, "bbox": "90,180,300,210", "dpi": 601}, "invalid_argument", "dpi"),
        ({"anchor": f"pdfthin:{'0' * 64}/p/1#c=0-3"}, "invalid_argument", "anchor"),  # stale
    ],
)
def test_bad_requests_are_typed_errors(
    arguments: dict[str, Any], code: str, argument: str | None
) -> None:
    rasterizer = FakeRasterizer()
    context = Context(ocr=fake_binding(rasterizer))
    with pytest.raises(PdfthinError) as info:
        render_citation(page_pdf(), **arguments, context=context)
    assert info.value.code == code, info.value.message
    if argument is not None:
        assert info.value.details["argument"] == argument
    assert rasterizer.calls == []  # refused before anything was drawn


def test_an_anchor_and_boxes_together_are_refused() -> None:
    context = Context(ocr=fake_binding())
    data = page_pdf()
    anchor = quote_boxes(data, context)["anchor"]
    with pytest.raises(PdfthinError) as info:
        render_citation(data, anchor=anchor, bbox="1,2,3,4", context=context)
    assert info.value.code == "invalid_argument"


def test_without_a_rasterizer_it_is_renderer_unavailable() -> None:
    with pytest.raises(PdfthinError) as info:
        render_citation(page_pdf(), page=1, bbox="90,180,300,210", context=Context())
    assert info.value.code == "renderer_unavailable"


def test_a_failing_or_odd_rasterizer_is_renderer_unavailable(monkeypatch: Any) -> None:
    class Broken(FakeRasterizer):
        def render(self, pdf: bytes, pages: list[int], dpi: int, signal: Any) -> Any:
            raise RuntimeError("the renderer fell over")

    class Silent(FakeRasterizer):
        def render(self, pdf: bytes, pages: list[int], dpi: int, signal: Any) -> Any:
            return [{"page": 2, "image": blank_png()}]  # not the page asked for

    for rasterizer in (Broken(), Silent(), FakeRasterizer(b"GIF89a...", "image/gif")):
        context = Context(ocr=fake_binding(rasterizer))
        with pytest.raises(PdfthinError) as info:
            render_citation(page_pdf(), page=1, bbox="90,180,300,210", context=context)
        assert info.value.code == "renderer_unavailable", rasterizer
    # pdftoppm missing: the binding's error, in the renderer's code.
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(PdfthinError) as info:
        render_citation(page_pdf(), page=1, bbox="90,180,300,210", context=pdftoppm_context())
    assert info.value.code == "renderer_unavailable" and "pdftoppm" in info.value.message


def test_the_image_is_bounded() -> None:
    context = Context(ocr=fake_binding(FakeRasterizer(blank_png(400, 400))))
    with pytest.raises(PdfthinError) as info:
        render_citation(page_pdf(), page=1, bbox="1,1,611,791", dpi=600, context=context)
    assert info.value.code == "too_large" and info.value.details["max_pixels"] == MAX_PIXELS
    assert info.value.details["dpi_that_fits"] <= 72 * math.sqrt(MAX_PIXELS / (612 * 792))
    with pytest.raises(PdfthinError) as info:
        render_citation(page_pdf(), page=1, bbox="90,180,300,210", max_bytes=100, context=context)
    assert info.value.code == "too_large"


# --- the surfaces -------------------------------------------------------------------------------


def test_the_mcp_tool_answers_image_content(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    from pdfthin.adapters.mcp.config import ServeConfig
    from pdfthin.adapters.mcp.server import PdfthinServer

    (tmp_path / "cited.pdf").write_bytes(page_pdf())
    server = PdfthinServer(ServeConfig(root=str(tmp_path), ocr=fake_binding()))
    box = {"x0": 90, "y0": 180, "x1": 300, "y1": 210}
    arguments = {"path": "cited.pdf", "page": 1, "bbox": [box]}
    result = asyncio.run(server.call("render_citation", arguments))
    assert not result.is_error
    image, text = result.content
    assert image.type == "image" and image.mime_type == "image/png"
    assert base64.b64decode(image.data) == blank_png()
    assert "data" not in result.structured_content
    assert json.loads(text.text)["highlights"] == arguments["bbox"]
    bare = PdfthinServer(ServeConfig(root=str(tmp_path)))
    failed = asyncio.run(bare.call("render_citation", arguments))
    assert failed.is_error
    assert failed.structured_content["error"]["code"] == "renderer_unavailable"


def test_the_lambda_and_the_bridge_answer_renderer_unavailable() -> None:
    from pdfthin.adapters import browser
    from pdfthin.adapters.aws.handler import STATUS

    assert STATUS["renderer_unavailable"] == 501
    handle = browser.open_document(page_pdf())
    raw = json.dumps({"page": 1, "bbox": "90,180,300,210"})
    answer = json.loads(browser.call("cite", handle, raw))
    assert answer["error"]["code"] == "renderer_unavailable"
