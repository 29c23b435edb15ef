"""Region triage (pdfthin/model/regions.py): the parts of a text page that geometry cannot read
reliably, each with its box, reason, score and message, on generated pages, one per reason,
and a clean page with a small logo that reports none."""

from __future__ import annotations

from typing import Any

import pytest
from pdfbuilder import PdfBuilder

import pdfthin
from pdfthin.engine import open_pdf
from pdfthin.model.regions import REASONS, SETTINGS, Region
from pdfthin.operations import Context, get_chunks, inspect_layout, read_pages

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")

#: Body text down the left half of the page: a text page whatever else it draws.
BODY = b"".join(
    b"BT /F1 10 Tf 72 %d Td (Body text of the page, line number %d, set in ten point.) Tj ET\n"
    % (760 - 14 * i, i)
    for i in range(20)
)


def _page(
    extra: bytes, resources: dict[str, Any] | None = None, under: bytes = b"", **page: Any
) -> bytes:
    """The body text with ``extra`` drawn after it (``under`` before it), on one page."""
    b = PdfBuilder()
    fonts = {"F1": b.font_standard("Helvetica")}
    res: dict[str, Any] = {"Font": fonts}
    for key, value in (resources or {}).items():
        if key == "Font":
            fonts.update(value(b))
        else:
            res[key] = {name: make(b) for name, make in value.items()}
    b.add_page(under + b"\n" + BODY + extra, res, **page)
    return b.build()


def regions(pdf: bytes) -> tuple[Region, ...]:
    page = pdfthin.open(pdf).page(1)
    assert page.status == "text"
    return page.regions


def _only(found: tuple[Region, ...], reason: str) -> Region:
    assert [r.reason for r in found] == [reason], found
    region = found[0]
    assert 0.5 <= region.score <= 1
    assert region.message
    return region


def _near(box: tuple[float, ...], expected: tuple[float, ...], slack: float = 3.0) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(box, expected, strict=True))


def test_a_clean_text_page_with_a_small_logo_reports_nothing() -> None:
    # A 40 x 40 pt logo of 200 x 200 px in the top corner: under 1% of the page.
    logo = {"Im1": lambda b: b.image_xobject(200, 200, color_space="/DeviceRGB")}
    pdf = _page(b"q 40 0 0 40 500 740 cm /Im1 Do Q", {"XObject": logo})
    assert regions(pdf) == ()


def test_glyphs_without_unicode_make_an_unmapped_text_region() -> None:
    # A font whose ToUnicode map sends every code to the private-use area: mojibake.
    garbled = {
        "Font": lambda b: {
            "F9": b.font_standard(
                "Garbled", to_unicode={c: chr(0xE000 + c) for c in range(32, 127)}
            )
        }
    }
    line = b"BT /F9 10 Tf 330 %d Td (Signed by the parties below) Tj ET\n"
    pdf = _page(line % 500 + line % 486, garbled)
    region = _only(regions(pdf), "unmapped_text")
    x0, y0, x1, y1 = region.box
    # the two lines, 292 and 306 pt from the top (the page as displayed), on the right half
    assert 325 <= x0 <= 335 and 280 <= y0 <= 296 and 300 <= y1 <= 315 and x1 > 400
    assert "no Unicode mapping" in region.message


#: A font whose codes 1 to 8 are glyph names of no known character: no Unicode mapping at all.
NAMELESS = {
    "Font": lambda b: {
        "F9": b.font_standard("Helvetica", differences=[1, *(f"/g{i}" for i in range(1, 9))])
    }
}


def test_glyphs_mapped_to_no_character_make_an_unmapped_text_region() -> None:
    # Eight such glyphs at 12 pt on a line of their own, below the body text and right of it.
    pdf = _page(b"BT /F9 12 Tf 400 300 Td <0102030405060708> Tj ET\n", NAMELESS)
    region = _only(regions(pdf), "unmapped_text")
    x0, y0, x1, y1 = region.box
    # drawn from x 400 along the baseline 492 pt from the top (the page as displayed)
    assert 399 <= x0 <= 401 and x1 > 430 and 480 <= y0 < 492 < y1 <= 496
    # and not over the paragraph: its last line's baseline is 298 pt from the top
    body = [r for r in open_pdf(pdf).page(1).runs if r.text.startswith("Body")]
    assert len(body) == 20 and all(r.y1 < y0 or r.x1 < x0 for r in body)
    assert region.message.startswith("8 glyphs have no Unicode mapping")


def test_a_few_glyphs_mapped_to_no_character_are_no_region() -> None:
    pdf = _page(b"BT /F9 12 Tf 400 300 Td <010203> Tj ET\n", NAMELESS)
    assert regions(pdf) == ()


def test_a_column_of_bullets_mapped_to_no_character_is_no_region() -> None:
    # A list: each item's bullet (one such glyph) before its line of text.
    items = b"".join(
        b"BT /F9 10 Tf 400 %d Td <01> Tj /F1 10 Tf 10 0 Td (A list item) Tj ET\n" % (400 - 14 * i)
        for i in range(10)
    )
    assert regions(_page(items, NAMELESS)) == ()


def test_one_symbol_font_bullet_per_line_is_not_mojibake() -> None:
    bullets = {"Font": lambda b: {"F9": b.font_standard("Dings", to_unicode={0x6C: "\uf06c"})}}
    marks = b"".join(b"BT /F9 10 Tf 60 %d Td (l) Tj ET\n" % (760 - 14 * i) for i in range(20))
    pdf = _page(marks, bullets)
    assert regions(pdf) == ()


def test_dot_leaders_in_a_symbol_font_are_not_mojibake() -> None:
    # One private-use sign repeated along each line: leaders, drawn; no text is missing.
    dots = {"Font": lambda b: {"F9": b.font_standard("Leaders", to_unicode={0x2E: "\uf02e"})}}
    leaders = b"".join(
        b"BT /F9 10 Tf 330 %d Td (%s) Tj ET\n" % (760 - 14 * i, b"." * 30) for i in range(10)
    )
    assert regions(_page(leaders, dots)) == ()


def test_a_large_image_without_text_over_it_is_an_image_of_text() -> None:
    # A scanned signature block: 600 x 200 px drawn 300 x 100 pt under the text.
    scan = {"Im1": lambda b: b.image_xobject(600, 200, bpc=1)}
    pdf = _page(b"q 300 0 0 100 72 300 cm /Im1 Do Q", {"XObject": scan})
    region = _only(regions(pdf), "image_of_text")
    assert _near(region.box, (72, 792 - 400, 372, 792 - 300))
    assert "600×200 px" in region.message


def test_an_image_placed_again_over_itself_is_one_region() -> None:
    scan = {"Im1": lambda b: b.image_xobject(600, 200, bpc=1)}
    twice = b"q 300 0 0 100 72 300 cm /Im1 Do Q\nq 300 0 0 100 72 300 cm /Im1 Do Q"
    _only(regions(_page(twice, {"XObject": scan})), "image_of_text")


def test_a_large_image_with_its_text_layer_over_it_is_read() -> None:
    # A white image under lines of text (a letterhead's background): its text is read.
    scan = {"Im1": lambda b: b.image_xobject(600, 200, b"\xff" * (75 * 200), bpc=1)}
    pdf = _page(b"", {"XObject": scan}, under=b"q 300 0 0 200 60 560 cm /Im1 Do Q")
    assert regions(pdf) == ()


def test_a_background_band_from_edge_to_edge_is_not_an_image_of_text() -> None:
    # A strip of the page's ground, 1200 x 200 px, across the whole width under the footer.
    band = {"Im1": lambda b: b.image_xobject(1200, 200, bpc=8)}
    assert regions(_page(b"q 612 0 0 100 0 0 cm /Im1 Do Q", {"XObject": band})) == ()


def test_a_region_is_placed_on_the_page_as_displayed() -> None:
    # The signature image on a page turned a quarter (/Rotate 90): 792 x 612 as displayed.
    scan = {"Im1": lambda b: b.image_xobject(600, 200, bpc=1)}
    pdf = _page(b"q 300 0 0 100 72 300 cm /Im1 Do Q", {"XObject": scan}, rotate=90)
    region = _only(pdfthin.open(pdf).page(1).regions, "image_of_text")
    # user space (72, 300)-(372, 400) turned clockwise: x = y, y = x
    assert _near(region.box, (300, 72, 400, 372))


def _grid(x0: float, top: float, cols: int, rows: int, w: float, h: float) -> bytes:
    out = [b"0.5 w"]
    for r in range(rows + 1):
        y = top - r * h
        out.append(b"%g %g m %g %g l S" % (x0, y, x0 + cols * w, y))
    for c in range(cols + 1):
        x = x0 + c * w
        out.append(b"%g %g m %g %g l S" % (x, top, x, top - rows * h))
    return b"\n".join(out) + b"\n"


def test_a_ruled_grid_that_is_not_a_table_is_reported() -> None:
    # A 5 x 5 ruled grid with text in its first row only: a chart's gridlines or a form.
    labels = b"".join(b"BT /F1 9 Tf %d 385 Td (Q%d) Tj ET\n" % (80 + 60 * c, c) for c in range(5))
    pdf = _page(_grid(72, 400, 5, 5, 60, 30) + labels)
    region = _only(regions(pdf), "table_grid_failed")
    assert _near(region.box, (72, 392, 372, 542))
    assert "5×5" in region.message


def test_a_ruled_table_is_read_not_reported() -> None:
    cells = b"".join(
        b"BT /F1 9 Tf %d %d Td (%d) Tj ET\n" % (80 + 60 * c, 385 - 30 * r, 10 * r + c)
        for r in range(5)
        for c in range(5)
    )
    pdf = _page(_grid(72, 400, 5, 5, 60, 30) + cells)
    assert regions(pdf) == ()
    assert "| 10 | 11 |" in pdfthin.open(pdf).page(1).markdown


def test_a_dense_vector_drawing_with_labels_is_reported() -> None:
    # A bar chart: 60 thin filled bars over 300 x 150 pt, two axis labels.
    bars = b"".join(
        b"0.2 0.4 0.8 rg %g 300 4 %g re f\n" % (72 + 5 * i, 20 + (i * 37) % 120) for i in range(60)
    )
    labels = b"BT /F1 8 Tf 72 290 Td (2019) Tj ET BT /F1 8 Tf 340 290 Td (2024) Tj ET\n"
    pdf = _page(bars + labels)
    region = _only(regions(pdf), "vector_drawing")
    x0, y0, x1, y1 = region.box
    assert 70 <= x0 <= 74 and x1 >= 370 and y1 >= 792 - 301 and y0 <= 792 - 400
    assert "60 painted shapes" in region.message


def test_a_few_vector_rules_are_not_a_drawing() -> None:
    rules = b"".join(b"%g 300 m %g 300 l S\n" % (72 + 30 * i, 90 + 30 * i) for i in range(10))
    assert regions(_page(rules)) == ()


def test_a_page_that_needs_ocr_reports_no_regions() -> None:
    b = PdfBuilder()
    img = b.image_xobject(1000, 1300, bpc=1)
    b.add_page(b"q 612 0 0 792 0 0 cm /Im1 Do Q", {"XObject": {"Im1": img}})
    page = pdfthin.open(b.build()).page(1)
    assert page.status == "needs_ocr"
    assert page.regions == ()


def test_the_reasons_are_a_closed_set_and_settings_name_every_threshold() -> None:
    assert len(set(REASONS)) == 4
    assert all(v > 0 for v in vars(SETTINGS).values())


# --- what the operations answer ------------------------------------------------------------------


def _signature_pdf() -> bytes:
    scan = {"Im1": lambda b: b.image_xobject(600, 200, bpc=1)}
    return _page(b"q 300 0 0 100 72 300 cm /Im1 Do Q", {"XObject": scan})


def test_read_pages_reports_the_regions_of_a_page_and_only_when_there_are_some() -> None:
    ctx = Context()
    (entry,) = read_pages(_signature_pdf(), context=ctx)["pages"]
    (region,) = entry["regions_needing_review"]
    assert region["reason"] == "image_of_text"
    assert region["bbox"] == {"x0": 72.0, "y0": 392.0, "x1": 372.0, "y1": 492.0}
    assert 0.5 <= region["score"] <= 1 and region["message"]
    (plain,) = read_pages(_page(b""), context=ctx)["pages"]
    assert "regions_needing_review" not in plain


def test_a_chunk_reports_the_regions_its_box_meets() -> None:
    # The body's chunks stand above the image; a caption set on its lower edge meets it.
    caption = b"BT /F1 10 Tf 80 296 Td (Figure 1: the signatures, scanned.) Tj ET\n"
    scan = {"Im1": lambda b: b.image_xobject(600, 200, bpc=1)}
    pdf = _page(b"q 300 0 0 100 72 300 cm /Im1 Do Q\n" + caption, {"XObject": scan})
    chunks = get_chunks(pdf, max_tokens=50, context=Context())["chunks"]
    met = [c for c in chunks if "regions_needing_review" in c]
    assert met and all("Figure 1" in c["markdown"] for c in met)
    assert [r["reason"] for r in met[0]["regions_needing_review"]] == ["image_of_text"]
    assert any("regions_needing_review" not in c for c in chunks)


def test_inspect_layout_lists_and_draws_the_regions() -> None:
    answer = inspect_layout(_signature_pdf(), page=1, svg=True, context=Context())
    (region,) = answer["regions_needing_review"]
    svg = answer["svg"]
    assert svg is not None
    assert 'class="review" data-reason="image_of_text"' in svg
    assert 'x="72.00" y="392.00" width="300.00" height="100.00"' in svg
    assert region["reason"] == "image_of_text"
