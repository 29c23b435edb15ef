"""The agent as OCR, through tools (issue 26): get_page_image, submit_transcription, the hint
read_pages gives for needs_ocr pages, the OCR cache directory and bindings that take regions.

Scans are generated here: one image XObject covering the page, its pixels a known function of
their column and row, so a crop can be checked pixel by pixel.
"""

from __future__ import annotations

import base64
import json
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from citation_support import FakeRasterizer, blank_png, fake_binding
from cli_support import pdfthin_cli
from pdfbuilder import PdfBuilder, inline_image

from pdfthin.errors import PdfthinError
from pdfthin.ocr import OcrBinding, Signal
from pdfthin.ocr.store import CACHE_DIR_ENV, MAX_TRANSCRIPTION_CHARS, ResultDir
from pdfthin.operations import (
    Context,
    describe_document,
    diff_documents,
    find_in_document,
    get_chunks,
    get_toc,
    peek,
    read_pages,
    read_section,
    search_chunks,
)
from pdfthin.operations.page_image import get_page_image
from pdfthin.operations.transcription import submit_transcription

W, H = 60, 80


def pixel(x: int, y: int) -> int:
    return (x * 3 + y * 7) % 256


def scan_pdf(rotate: int = 0, pages: int = 1, text_page: bool = False) -> bytes:
    """``pages`` scanned pages (a W x H grey image covering a 600 x 800 page); with
    ``text_page``, one more page with a text layer."""
    b = PdfBuilder()
    data = bytes(pixel(x, y) for y in range(H) for x in range(W))
    image = b.image_xobject(W, H, data, flate=True)
    for _ in range(pages):
        b.add_page(
            b"q 600 0 0 800 0 0 cm /Im1 Do Q",
            {"XObject": {"Im1": image}},
            media_box=(0, 0, 600, 800),
            rotate=rotate or None,
        )
    if text_page:
        font = b.font_standard("Helvetica")
        b.add_page(b"BT /F1 12 Tf 72 700 Td (text layer words) Tj ET", {"Font": {"F1": font}})
    return b.build()


def grey_rows(png: bytes) -> list[bytes]:
    """The rows of an 8-bit grey PNG written without filters (as pdfthin writes them)."""
    assert png.startswith(b"\x89PNG")
    width, height, depth, colour = struct.unpack(">IIBB", png[16:26])
    assert (depth, colour) == (8, 0)
    at, idat = 8, b""
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at : at + 8])
        if kind == b"IDAT":
            idat += png[at + 8 : at + 8 + length]
        at += 12 + length
    raw = zlib.decompress(idat)
    rows = [raw[r * (width + 1) : (r + 1) * (width + 1)] for r in range(height)]
    assert all(row[0] == 0 for row in rows)
    return [row[1:] for row in rows]


def expected(x0: int, y0: int, x1: int, y1: int) -> list[bytes]:
    return [bytes(pixel(x, y) for x in range(x0, x1)) for y in range(y0, y1)]


# --- get_page_image -----------------------------------------------------------------------------


def test_a_scanned_page_is_answered_as_its_own_picture_without_a_renderer() -> None:
    got = get_page_image(scan_pdf(), page=1, context=Context())
    assert got["source"] == "embedded_image" and got["media_type"] == "image/png"
    assert (got["width"], got["height"], got["rotation"]) == (W, H, 0)
    assert got["region"] == {"x0": 0.0, "y0": 0.0, "x1": 600.0, "y1": 800.0}
    assert grey_rows(base64.b64decode(got["data"])) == expected(0, 0, W, H)


def test_a_region_of_a_scan_is_cut_from_its_pixels() -> None:
    # 10 points a pixel: the region 100..300 x 200..400 is columns 10..30, rows 20..40.
    got = get_page_image(scan_pdf(), page=1, region="100,200,300,400", context=Context())
    assert got["pixels"] == {"x0": 10, "y0": 20, "x1": 30, "y1": 40}
    assert grey_rows(base64.b64decode(got["data"])) == expected(10, 20, 30, 40)
    assert got["dpi"] == pytest.approx(7.2)


def test_a_region_of_a_rotated_scan_is_cut_where_the_page_shows_it() -> None:
    # /Rotate 90: the page is displayed 800 wide, 600 high; a displayed point (u, v) is the
    # stored picture's (v, 1 - u). The displayed top-left 200 x 150 points are the stored
    # picture's bottom-left: columns 0..15, rows 60..80.
    got = get_page_image(scan_pdf(rotate=90), page=1, region="0,0,200,150", context=Context())
    assert got["rotation"] == 90
    assert got["pixels"] == {"x0": 0, "y0": 60, "x1": 15, "y1": 80}
    assert grey_rows(base64.b64decode(got["data"])) == expected(0, 60, 15, 80)


def placed_scan_pdf(
    matrix: bytes, width: int, height: int, rotate: int = 0, inline: bool = False
) -> bytes:
    """A 600 x 800 page that is one grey picture of ``width`` x ``height`` (pixels as
    :func:`pixel`) drawn with ``matrix`` (an image XObject, or an inline image)."""
    b = PdfBuilder()
    data = bytes(pixel(x, y) for y in range(height) for x in range(width))
    if inline:
        draw = inline_image(width, height, data)
        resources = None
    else:
        draw = b"/Im1 Do"
        resources = {"XObject": {"Im1": b.image_xobject(width, height, data, flate=True)}}
    b.add_page(
        b"q " + matrix + b" cm " + draw + b" Q",
        resources,
        media_box=(0, 0, 600, 800),
        rotate=rotate or None,
    )
    return b.build()


def cut(pdf: bytes, region: str) -> dict[str, Any]:
    got = get_page_image(pdf, page=1, region=region, context=Context())
    assert got["source"] == "embedded_image"
    return got


@pytest.mark.parametrize("inline", [False, True], ids=["xobject", "inline"])
def test_a_scan_its_matrix_turns_is_cut_where_the_page_shows_it(
    implementation: str, inline: bool
) -> None:
    # An 80 x 60 picture turned 90 degrees anticlockwise by its matrix: a displayed point
    # (u, v) of it is the stored picture's (1 - v, u). The displayed top-left 300 x 200
    # points are its columns 60..80, rows 0..30; to see it as shown, turn it 270 clockwise.
    pdf = placed_scan_pdf(b"0 800 -600 0 600 0", 80, 60, inline=inline)
    got = cut(pdf, "0,0,300,200")
    assert (got["rotation"], "mirrored" in got) == (270, False)
    assert got["pixels"] == {"x0": 60, "y0": 0, "x1": 80, "y1": 30}
    assert grey_rows(base64.b64decode(got["data"])) == expected(60, 0, 80, 30)
    whole = get_page_image(pdf, page=1, context=Context())
    assert (whole["width"], whole["height"], whole["rotation"]) == (80, 60, 270)
    # Ten points a pixel either way: the scan's own resolution.
    assert got["dpi"] == pytest.approx(7.2) and whole["dpi"] == pytest.approx(7.2)


def test_a_scan_its_matrix_turns_180_is_cut_where_the_page_shows_it(implementation: str) -> None:
    # Displayed (u, v) is stored (1 - u, 1 - v): the top-left 200 x 200 points are the
    # stored picture's bottom-right, columns 40..60, rows 60..80.
    got = cut(placed_scan_pdf(b"-600 0 0 -800 600 800", W, H), "0,0,200,200")
    assert (got["rotation"], "mirrored" in got) == (180, False)
    assert got["pixels"] == {"x0": 40, "y0": 60, "x1": 60, "y1": 80}
    assert grey_rows(base64.b64decode(got["data"])) == expected(40, 60, 60, 80)


def test_a_scan_its_matrix_mirrors_is_cut_and_said_mirrored(implementation: str) -> None:
    # Mirrored left to right: displayed (u, v) is stored (1 - u, v), the top-left 200 x 200
    # points its columns 40..60, rows 0..20.
    pdf = placed_scan_pdf(b"-600 0 0 800 600 0", W, H)
    got = cut(pdf, "0,0,200,200")
    assert (got["rotation"], got["mirrored"]) == (0, True)
    assert got["pixels"] == {"x0": 40, "y0": 0, "x1": 60, "y1": 20}
    assert grey_rows(base64.b64decode(got["data"])) == expected(40, 0, 60, 20)
    assert get_page_image(pdf, page=1, context=Context())["mirrored"] is True


def test_a_scan_turned_by_its_matrix_and_the_page_rotate(implementation: str) -> None:
    # Turned 90 anticlockwise by its matrix, 90 clockwise by /Rotate 90: upright as shown,
    # on a page displayed 800 wide, 600 high. The top-left 200 x 150 points are the stored
    # picture's top-left columns 0..20, rows 0..15.
    got = cut(placed_scan_pdf(b"0 800 -600 0 600 0", 80, 60, rotate=90), "0,0,200,150")
    assert (got["rotation"], "mirrored" in got) == (0, False)
    assert got["pixels"] == {"x0": 0, "y0": 0, "x1": 20, "y1": 15}
    assert grey_rows(base64.b64decode(got["data"])) == expected(0, 0, 20, 15)
    # Mirrored by its matrix on a page of /Rotate 90: displayed (u, v) is stored
    # (1 - v, 1 - u); flipped left to right then turned 90 clockwise it is as shown.
    got = cut(placed_scan_pdf(b"-600 0 0 800 600 0", W, H, rotate=90), "0,0,200,150")
    assert (got["rotation"], got["mirrored"]) == (90, True)
    assert got["pixels"] == {"x0": 45, "y0": 60, "x1": 60, "y1": 80}
    assert grey_rows(base64.b64decode(got["data"])) == expected(45, 60, 60, 80)


# The eight ways a matrix places a 600 x 800 (or 800 x 600) picture on the page, in user space.
PLACEMENTS = [
    ((600, 0, 0, 800, 0, 0), (W, H)),  # upright
    ((-600, 0, 0, 800, 600, 0), (W, H)),  # mirrored left to right
    ((-600, 0, 0, -800, 600, 800), (W, H)),  # turned 180
    ((600, 0, 0, -800, 0, 800), (W, H)),  # mirrored top to bottom
    ((0, -800, -600, 0, 600, 800), (H, W)),  # transposed
    ((0, -800, 600, 0, 0, 800), (H, W)),  # turned 90 clockwise
    ((0, 800, 600, 0, 0, 0), (H, W)),  # mirrored across the other diagonal
    ((0, 800, -600, 0, 600, 0), (H, W)),  # turned 90 anticlockwise
]


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
@pytest.mark.parametrize(("matrix", "size"), PLACEMENTS)
def test_every_placement_cuts_the_pixels_the_page_shows_in_the_region(
    matrix: tuple[int, ...], size: tuple[int, int], rotate: int
) -> None:
    # Checked by mapping forward: the pixels cut are those whose centres the matrix and the
    # page's /Rotate put in the region (a box of whole pixels: 10 points a pixel).
    width, height = size
    a, b, c, d, e, f = matrix
    pdf = placed_scan_pdf(" ".join(map(str, matrix)).encode(), width, height, rotate=rotate)
    shown_width, shown_height = (800, 600) if rotate in (90, 270) else (600, 800)
    region = (shown_width * 0.25, shown_height * 0.5, shown_width * 0.5, shown_height)

    def displayed(col: int, row: int) -> tuple[float, float]:
        x, y = (col + 0.5) / width, 1 - (row + 0.5) / height
        ux, uy = a * x + c * y + e, b * x + d * y + f
        return {0: (ux, 800 - uy), 90: (uy, ux), 180: (600 - ux, uy), 270: (800 - uy, 600 - ux)}[
            rotate
        ]

    inside = [
        (col, row)
        for col in range(width)
        for row in range(height)
        if region[0] < displayed(col, row)[0] < region[2]
        and region[1] < displayed(col, row)[1] < region[3]
    ]
    cols, rows = [p[0] for p in inside], [p[1] for p in inside]
    got = cut(pdf, ",".join(f"{v:g}" for v in region))
    box = (min(cols), min(rows), max(cols) + 1, max(rows) + 1)
    assert len(inside) == (box[2] - box[0]) * (box[3] - box[1])
    assert got["pixels"] == dict(zip(("x0", "y0", "x1", "y1"), box, strict=True))
    assert grey_rows(base64.b64decode(got["data"])) == expected(*box)
    # Where the stored picture's rows and columns run as shown: mirrored when they turn the
    # other way round; the turn is where its columns run (once flipped back, if mirrored).
    (x0, y0), (x1, y1), (x2, y2) = displayed(0, 0), displayed(1, 0), displayed(0, 1)
    across, down = (x1 - x0, y1 - y0), (x2 - x0, y2 - y0)
    mirrored = across[0] * down[1] - across[1] * down[0] < 0
    runs = (-across[0], -across[1]) if mirrored else across
    # Ten points a pixel: a step of one column is a step of (+-10, 0) or (0, +-10) as shown.
    key = (round(runs[0] / 10), round(runs[1] / 10))
    turn = {(1, 0): 0, (0, 1): 90, (-1, 0): 180, (0, -1): 270}[key]
    assert (got["rotation"], got.get("mirrored", False)) == (turn, mirrored)


def test_a_scan_placed_skewed_is_left_to_the_rasterizer(implementation: str) -> None:
    # Turned a little (not by a multiple of 90 degrees): its pixels cannot be cut as a box of
    # the page, nor said how to turn; the page is drawn by the rasterizer, or not at all.
    pdf = placed_scan_pdf(b"600 10 -10 800 5 -5", W, H)
    for region in (None, "0,0,200,200"):
        with pytest.raises(PdfthinError) as info:
            get_page_image(pdf, page=1, region=region, context=Context())
        assert info.value.code == "renderer_unavailable"
        assert "skewed" in info.value.message
    raster = FakeRasterizer(blank_png(3, 2))
    got = get_page_image(pdf, page=1, context=Context(ocr=fake_binding(raster)))
    assert got["source"] == "rasterizer" and len(raster.calls) == 1


def test_a_page_that_is_not_a_scan_needs_the_rasterizer() -> None:
    pdf = scan_pdf(text_page=True)
    with pytest.raises(PdfthinError) as info:
        get_page_image(pdf, page=2, context=Context())
    assert info.value.code == "renderer_unavailable"
    raster = FakeRasterizer(blank_png(3, 2))
    got = get_page_image(
        pdf, page=2, region="72,72,144,144", dpi=72, context=Context(ocr=fake_binding(raster))
    )
    assert got["source"] == "rasterizer" and (got["width"], got["height"]) == (3, 2)
    drawn, pages, dpi = raster.calls[0]
    assert drawn.startswith(b"%PDF-") and pages == [1] and dpi == 72


def test_bad_regions_and_pages_are_typed_errors() -> None:
    pdf = scan_pdf()
    for region, code in (("0,0,700,100", "invalid_argument"), ("5,5,1,1", "invalid_argument")):
        with pytest.raises(PdfthinError) as info:
            get_page_image(pdf, page=1, region=region, context=Context())
        assert info.value.code == code
    with pytest.raises(PdfthinError) as info:
        get_page_image(pdf, page=2, context=Context())
    assert info.value.code == "invalid_pages"
    with pytest.raises(PdfthinError) as info:
        get_page_image(pdf, page=1, max_bytes=10, context=Context())
    assert info.value.code == "too_large"


# --- read_pages' hint and submit_transcription --------------------------------------------------


def test_read_pages_says_how_to_proceed_on_a_page_that_needs_ocr() -> None:
    pdf = scan_pdf(text_page=True)
    pages = read_pages(pdf, context=Context())["pages"]
    assert pages[0]["status"] == "needs_ocr"
    assert "get_page_image" in pages[0]["next_steps"]
    assert "submit_transcription" in pages[0]["next_steps"]
    assert "next_steps" not in pages[1]
    bound = read_pages(pdf, pages="1", context=Context(ocr=fake_binding()))["pages"][0]
    assert "ocr=true" in bound["next_steps"] and "'none'" in bound["next_steps"]


def test_a_transcription_is_read_searched_and_chunked_as_the_agents() -> None:
    pdf = scan_pdf(pages=2)
    ctx = Context()
    answer = submit_transcription(pdf, page=2, text="Invoice 1042\n\nTotal due 310", context=ctx)
    assert (answer["status"], answer["provenance"], answer["persisted"]) == ("ocr", "agent", False)
    pages = read_pages(pdf, context=ctx)["pages"]
    assert pages[0]["status"] == "needs_ocr"
    assert pages[1]["status"] == "ocr" and pages[1]["provenance"] == "agent"
    assert pages[1]["markdown"] == "Invoice 1042\n\nTotal due 310"
    assert "next_steps" not in pages[1]
    found = find_in_document(pdf, "total due", context=ctx)
    assert [(m["page"], m["provenance"]) for m in found["matches"]] == [(2, "agent")]
    assert found["coverage"]["pages_needing_ocr"] == "1"
    chunked = get_chunks(pdf, context=ctx)
    assert chunked["unreadable"]["pages"] == "1"
    chunks = chunked["chunks"]
    assert [(c["page"], c["status"], c["provenance"]) for c in chunks] == [
        (1, "needs_ocr", "text_layer"),
        (2, "ocr", "agent"),
    ]
    hits = search_chunks(pdf, "invoice", context=ctx)
    assert [h["page"] for h in hits["results"]] == [2]
    # A later transcription replaces it; other contexts (servers) do not see it.
    submit_transcription(pdf, page=2, text="Invoice 1043", context=ctx)
    assert find_in_document(pdf, "1043", context=ctx)["matches"][0]["page"] == 2
    assert read_pages(pdf, pages="2", context=Context())["pages"][0]["status"] == "needs_ocr"


def test_sections_and_peek_show_a_transcription_marked_as_the_agents() -> None:
    pdf = scan_pdf(pages=2)
    ctx = Context()
    submit_transcription(pdf, page=2, text="Invoice 1042\n\nTotal due 310", context=ctx)
    second = get_toc(pdf, context=ctx)["sections"][1]
    assert second["page"] == 2
    section = read_section(pdf, second["id"], context=ctx)
    assert section["markdown"] == "<!-- page 2: ocr (agent) -->\n\nInvoice 1042\n\nTotal due 310"
    assert "unreadable" not in section  # the page was read, by the agent
    whole = peek(pdf, limit=2_000, context=ctx)
    assert whole["text"].startswith("<!-- page 1: needs_ocr (image_only) -->")
    assert whole["text"].endswith("<!-- page 2: ocr (agent) -->\n\nInvoice 1042\n\nTotal due 310")
    assert whole["unreadable"]["pages"] == "1"
    # Another context (server) has no transcription: the page still needs OCR there.
    elsewhere = read_section(pdf, second["id"], context=Context())
    assert elsewhere["markdown"].startswith("<!-- page 2: needs_ocr (image_only) -->")
    assert elsewhere["unreadable"]["pages"] == "2"


def test_describe_counts_a_transcribed_page_as_read_by_the_agent() -> None:
    pdf = scan_pdf(pages=3)
    ctx = Context()
    before = describe_document(pdf, context=ctx)
    assert before["pages"]["needs_ocr"] == "1-3" and "transcribed" not in before
    submit_transcription(pdf, page=2, text="Invoice 1042\n\nTotal due 310", context=ctx)
    after = describe_document(pdf, context=ctx)
    assert after["type"] == "scanned"  # what the file is
    assert after["pages"]["needs_ocr"] == "1,3"
    assert after["pages"]["ocr"] == "2"
    assert after["pages"]["needs_ocr_reasons"] == {"image_only": "1,3"}
    assert "pages" not in after["transcribed"]  # pages.ocr names them once
    assert after["transcribed"]["provenance"] == "agent"
    assert after["unreadable"]["pages"] == "1,3"
    assert before["ledger"]["unreadable"] == {"image_only": "1-3"}
    assert after["ledger"]["unreadable"] == {"image_only": "1,3"}
    assert after["ledger"]["not_delivered"] == "2"
    # The transcription's length counts in place of the page's marker.
    marker = before["estimated_tokens"]["total"] // 3
    text = "Invoice 1042\n\nTotal due 310"
    assert after["estimated_tokens"]["total"] == 2 * marker + round(len(text) / 4)
    # Another context (server) has no transcription.
    assert describe_document(pdf, context=Context())["pages"]["needs_ocr"] == "1-3"


def test_a_diff_compares_pages_the_agent_transcribed() -> None:
    old, new = scan_pdf(pages=1), scan_pdf(pages=2)
    ctx = Context()
    unread = diff_documents(old, new=new, context=ctx)
    assert not unread["complete"] and unread["counts"]["not_compared"] >= 1
    submit_transcription(old, page=1, text="Invoice 1042\n\nTotal due 310", context=ctx)
    submit_transcription(new, page=1, text="Invoice 1042\n\nTotal due 320", context=ctx)
    submit_transcription(new, page=2, text="Paid in full", context=ctx)
    diff = diff_documents(old, new=new, context=ctx)
    assert diff["complete"] and "unreadable" not in diff
    assert diff["counts"]["not_compared"] == 0
    kinds = [(c["kind"], c.get("text")) for c in diff["changes"]]
    assert ("added", "Paid in full") in kinds
    changed = [c for c in diff["changes"] if c["kind"] == "changed"]
    assert len(changed) == 1
    assert "310" in changed[0]["diff"] and "320" in changed[0]["diff"]
    assert changed[0]["old"]["provenance"] == "agent" and changed[0]["new"]["page"] == 1
    assert "anchor" not in changed[0]["old"]  # a transcription is not the page's text


def test_a_text_layer_is_never_replaced_but_a_region_is_kept_apart() -> None:
    pdf = scan_pdf(text_page=True)
    ctx = Context()
    with pytest.raises(PdfthinError) as info:
        submit_transcription(pdf, page=2, text="something else", context=ctx)
    assert info.value.code == "invalid_argument" and info.value.details["status"] == "text"
    kept = submit_transcription(
        pdf,
        page=2,
        text="signed J. Doe",
        region={"x0": 72, "y0": 600, "x1": 300, "y1": 700},
        context=ctx,
    )
    assert kept["status"] == "text" and kept["regions_transcribed"] == 1
    page = read_pages(pdf, pages="2", context=ctx)["pages"][0]
    assert page["status"] == "text" and "signed" not in page["markdown"]
    assert page["transcriptions"] == [
        {
            "region": {"x0": 72.0, "y0": 600.0, "x1": 300.0, "y1": 700.0},
            "markdown": "signed J. Doe",
            "provenance": "agent",
        }
    ]
    # The region's transcription is searched apart from the page's text: a match in it names
    # the region and offsets into the transcription, and no phrase runs from one into the other.
    match = find_in_document(pdf, "J. Doe", context=ctx)["matches"]
    region = {"x0": 72.0, "y0": 600.0, "x1": 300.0, "y1": 700.0}
    assert match == [
        {
            "page": 2,
            "snippet": "signed **J. Doe**",
            "start": 7,
            "end": 13,
            "bbox": [{"page": 2, **region}],
            "region": region,
            "provenance": "agent",
        }
    ]
    assert find_in_document(pdf, "words signed", context=ctx)["matches"] == []
    assert (
        find_in_document(pdf, "layer signed", match_mode="all_words", context=ctx)["matches"] == []
    )
    both = find_in_document(pdf, "doe signed", match_mode="all_words", context=ctx)["matches"]
    assert [(m["page"], m["start"], m["words"]) for m in both] == [(2, 0, {"doe": 10, "signed": 0})]
    text = find_in_document(pdf, "layer", context=ctx)["matches"]
    assert [(m["page"], m["start"], "region" in m, "anchor" in m) for m in text] == [
        (2, 5, False, True)
    ]
    # A cursor walks from the page's text into its regions.
    ink = {"x0": 72.0, "y0": 100.0, "x1": 200.0, "y1": 150.0}
    submit_transcription(pdf, page=2, text="a layer of ink", region=ink, context=ctx)
    first = find_in_document(pdf, "layer", max_results=1, context=ctx)
    assert [("region" in m, m["start"]) for m in first["matches"]] == [(False, 5)]
    rest = find_in_document(pdf, "layer", cursor=first["next_cursor"], context=ctx)
    assert [(m.get("region"), m["start"], m["snippet"]) for m in rest["matches"]] == [
        (ink, 2, "a **layer** of ink")
    ]
    assert rest["next_cursor"] is None


@pytest.mark.parametrize(
    ("arguments", "code"),
    [
        ({"page": 1, "text": "   "}, "invalid_argument"),
        ({"page": 1, "text": "x" * (MAX_TRANSCRIPTION_CHARS + 1)}, "invalid_argument"),
        ({"page": 0, "text": "words"}, "invalid_argument"),
        ({"page": 3, "text": "words"}, "invalid_pages"),
        ({"page": 1, "text": "words", "region": "1,1,0,0"}, "invalid_argument"),
        ({"page": 1, "text": "words", "region": "0,0,10,10;0,0,5,5"}, "invalid_argument"),
    ],
)
def test_bad_transcriptions_are_typed_errors(arguments: dict[str, Any], code: str) -> None:
    with pytest.raises(PdfthinError) as info:
        submit_transcription(scan_pdf(), **arguments, context=Context())
    assert info.value.code == code


# --- the cache directory ------------------------------------------------------------------------


def test_an_agents_transcription_persists_in_the_cache_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path))
    pdf = scan_pdf()
    assert submit_transcription(pdf, page=1, text="kept words", context=Context())["persisted"]
    # A fresh context (another process: nothing in memory) reads it from the directory.
    page = read_pages(pdf, context=Context())["pages"][0]
    assert (page["status"], page["provenance"], page["markdown"]) == ("ocr", "agent", "kept words")
    # A corrupt entry is ignored, never trusted: the page needs OCR again.
    for entry in tmp_path.rglob("*.json"):
        entry.write_text(json.dumps({"key": "another", "record": {"page": {"text": "forged"}}}))
    assert read_pages(pdf, context=Context())["pages"][0]["status"] == "needs_ocr"


def test_the_cli_names_who_read_a_match_and_the_region_it_is_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Transcriptions kept in the cache directory by ``pdfthin transcribe`` (one process) are
    searched by ``pdfthin find`` (another), whose text output says the agent read them."""
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path / "cache"))
    path = tmp_path / "scan.pdf"
    path.write_bytes(scan_pdf(text_page=True))

    def cli(*args: str) -> str:
        done = pdfthin_cli(*args)
        assert done.returncode == 0, done.stderr
        return done.stdout

    cli(
        "transcribe",
        str(path),
        "--page",
        "2",
        "--text",
        "signed J. Doe",
        "--region",
        "72,600,300,700",
    )
    cli("transcribe", str(path), "--page", "1", "--text", "kept words")
    assert cli("find", str(path), "J. Doe") == (
        "page 2 region 72,600,300,700 [ocr: agent]: signed **J. Doe**\n"
    )
    assert cli("find", str(path), "kept") == "page 1 [ocr: agent]: **kept** words\n"
    assert cli("find", str(path), "layer") == "page 2: text **layer** words\n"


class CountingRecognizer:
    name = "counting"
    version = "1"

    def __init__(self, regions: bool = False) -> None:
        self.calls: list[list[dict[str, Any]]] = []
        self.supports_regions = regions

    def recognize(self, pages: list[dict[str, Any]], signal: Signal) -> list[dict[str, Any]]:
        self.calls.append(pages)
        return [{"page": p["page"], "markdown": f"read {p.get('region')}"} for p in pages]


def test_a_bindings_results_are_read_back_without_calling_it(tmp_path: Path) -> None:
    pdf = scan_pdf()
    first = CountingRecognizer()
    ctx = Context(ocr=OcrBinding(FakeRasterizer(), first, store=ResultDir(tmp_path)))
    assert read_pages(pdf, ocr=True, context=ctx)["pages"][0]["markdown"] == "read None"
    assert len(first.calls) == 1
    second = CountingRecognizer()
    fresh = Context(ocr=OcrBinding(FakeRasterizer(), second, store=ResultDir(tmp_path)))
    page = read_pages(pdf, ocr=True, context=fresh)["pages"][0]
    assert (page["status"], page["markdown"], page["provenance"]) == (
        "ocr",
        "read None",
        "counting",
    )
    assert second.calls == []
    # Another version of the provider is another key: it reads the page again.
    third = CountingRecognizer()
    third.version = "2"
    again = Context(ocr=OcrBinding(FakeRasterizer(), third, store=ResultDir(tmp_path)))
    read_pages(pdf, ocr=True, context=again)
    assert len(third.calls) == 1
    # Entries that cannot be trusted are ignored.
    for entry in tmp_path.rglob("*.json"):
        entry.write_bytes(b"\xff not json")
    fourth = CountingRecognizer()
    broken = Context(ocr=OcrBinding(FakeRasterizer(), fourth, store=ResultDir(tmp_path)))
    read_pages(pdf, ocr=True, context=broken)
    assert len(fourth.calls) == 1


# --- bindings that take regions -----------------------------------------------------------------


def test_a_binding_that_supports_regions_is_sent_the_region_alone() -> None:
    region = (10.0, 20.0, 110.0, 220.0)
    raster = FakeRasterizer()
    reader = CountingRecognizer(regions=True)
    binding = OcrBinding(raster, reader, store=None)
    got = binding.transcribe_region(b"%PDF-page", b"%PDF-region", "f" * 64, 3, region)
    assert got is not None and got.region == region
    assert raster.calls[0][0] == b"%PDF-region"
    sent = reader.calls[0][0]
    assert sent["page"] == 3 and sent["region"] == {
        "x0": 10.0,
        "y0": 20.0,
        "x1": 110.0,
        "y1": 220.0,
    }
    assert binding.cached("f" * 64, 3, region) is got
    # One without region support still gets the whole page.
    whole_raster = FakeRasterizer()
    whole = OcrBinding(whole_raster, CountingRecognizer(), store=None)
    got = whole.transcribe_region(b"%PDF-page", b"%PDF-region", "f" * 64, 3, region)
    assert got is not None and got.region is None and got.markdown == "read None"
    assert whole_raster.calls[0][0] == b"%PDF-page"


def test_a_region_of_a_page_that_needs_ocr_leaves_it_needing_ocr() -> None:
    pdf = scan_pdf()
    ctx = Context()
    kept = submit_transcription(pdf, page=1, text="a stamp", region="0,0,100,100", context=ctx)
    assert kept["status"] == "needs_ocr"
    page = read_pages(pdf, context=ctx)["pages"][0]
    # Part of a page is not the page: it still needs OCR, and says how to proceed.
    assert page["status"] == "needs_ocr" and "next_steps" in page
    assert [t["markdown"] for t in page["transcriptions"]] == ["a stamp"]
    assert find_in_document(pdf, "stamp", context=ctx)["coverage"]["complete"] is False


def test_a_jpeg_scan_is_answered_as_stored_and_cut_with_pillow() -> None:
    image_module = pytest.importorskip("PIL.Image")
    import io

    picture = image_module.new("L", (W, H))
    picture.putdata([pixel(x, y) for y in range(H) for x in range(W)])
    stored = io.BytesIO()
    picture.save(stored, format="JPEG", quality=95)
    b = PdfBuilder()
    image = b.image_xobject(W, H, stored.getvalue(), filter="/DCTDecode")
    b.add_page(
        b"q 600 0 0 800 0 0 cm /Im1 Do Q", {"XObject": {"Im1": image}}, media_box=(0, 0, 600, 800)
    )
    pdf = b.build()
    whole = get_page_image(pdf, page=1, context=Context())
    assert whole["media_type"] == "image/jpeg"
    assert base64.b64decode(whole["data"]) == stored.getvalue()
    cut = get_page_image(pdf, page=1, region="100,200,300,400", context=Context())
    assert (cut["media_type"], cut["width"], cut["height"]) == ("image/png", 20, 20)
    with image_module.open(io.BytesIO(base64.b64decode(cut["data"]))) as shown:
        got = shown.convert("L").tobytes()

    def error(x0: int, y0: int) -> float:
        want = b"".join(expected(x0, y0, x0 + 20, y0 + 20))
        return sum(abs(a - b) for a, b in zip(got, want, strict=True)) / len(want)

    # JPEG is lossy: the cut is nearly the stored picture's columns 10..30, rows 20..40, and
    # far from the same square a few pixels off.
    assert error(10, 20) < 8 < min(error(12, 20), error(10, 22))
