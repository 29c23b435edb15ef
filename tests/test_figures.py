"""Images in context: page and section Markdown carry a reference where each image stands in
reading order (``![image p1-x4 (8×6 px)](pdfthin:image/p1-x4)``), and a section's images are
the same wherever they are counted: the references in its Markdown, ``get_toc``'s count and
``list_images --section``."""

from __future__ import annotations

import re

import pytest
from conftest import CorpusFile, corpus_files, corpus_params, open_corpus_file
from pdfbuilder import PdfBuilder

import pdfthin
from pdfthin.model.figures import REFERENCE, is_tiny, placement_ids
from pdfthin.model.sections import holds, image_offset, section_text, section_tree
from pdfthin.operations import Context, get_image, get_toc, list_images, read_pages, read_section

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")

PIXELS = bytes(range(48))  # 8 x 6, grey


def _ids(markdown: str) -> list[str]:
    return [m.group(0).rsplit("/", 1)[1].rstrip(")") for m in REFERENCE.finditer(markdown)]


def _text(x: float, y: float, words: str, size: int = 10) -> bytes:
    return b"BT /F1 %d Tf %g %g Td (%s) Tj ET " % (size, x, y, words.encode())


def _draw(x: float, y: float, w: float, h: float) -> bytes:
    return b"q %g 0 0 %g %g %g cm /Im1 Do Q " % (w, h, x, y)


def _pdf(*pages: bytes) -> bytes:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(8, 6, PIXELS)
    for content in pages:
        b.add_page(content, {"Font": {"F1": font}, "XObject": {"Im1": image}})
    return b.build()


def test_a_reference_stands_between_the_text_above_and_below() -> None:
    pdf = _pdf(
        _text(72, 700, "The paragraph above the figure.")
        + _draw(72, 450, 200, 150)
        + _text(72, 400, "The paragraph below the figure.")
    )
    markdown = read_pages(pdf, context=Context())["pages"][0]["markdown"]
    above, reference, below = markdown.split("\n\n")
    assert "above" in above and "below" in below
    (image_id,) = _ids(reference)
    assert reference == f"![image {image_id} (8×6 px)](pdfthin:image/{image_id})"
    listed = list_images(pdf, context=Context())["images"]
    assert [i["id"] for i in listed] == [image_id]
    assert get_image(pdf, image_id, context=Context())["width"] == 8


def test_in_two_columns_the_reference_follows_its_column() -> None:
    """The figure in the right column, under that column's first paragraph: after the whole
    left column in reading order, before the right column's second paragraph."""
    left = b"".join(_text(72, 700 - 14 * i, f"Left column line {i} of words.") for i in range(20))
    right = _text(320, 700, "Right column opening words.") + _text(
        320, 686, "Right column second line."
    )
    below = b"".join(_text(320, 420 - 14 * i, f"Right column after {i} words.") for i in range(5))
    pdf = _pdf(left + right + _draw(320, 480, 200, 150) + below)
    markdown = read_pages(pdf, context=Context())["pages"][0]["markdown"]
    at = markdown.index("![image")
    assert markdown.index("Left column line 19") < markdown.index("Right column second") < at
    assert at < markdown.index("Right column after 0")


def test_a_tiny_image_gets_no_reference_but_is_listed() -> None:
    pdf = _pdf(_text(72, 700, "A rule follows.") + _draw(72, 690, 400, 0.5))
    markdown = read_pages(pdf, context=Context())["pages"][0]["markdown"]
    assert "![image" not in markdown
    (listed,) = list_images(pdf, context=Context())["images"]
    assert listed["decorative_reason"] == "tiny on the page"


def test_a_sections_images_are_the_same_wherever_counted() -> None:
    """Two sections on a page, the figure under the second heading; a page later, a figure
    above the heading that opens its page belongs to that heading's section."""
    page1 = (
        _text(72, 720, "First Heading", 20)
        + _text(72, 690, "Words of the first section run along here.")
        + _text(72, 500, "Second Heading", 20)
        + _text(72, 470, "Words of the second section run along here.")
        + _draw(72, 250, 200, 150)
    )
    page2 = _draw(72, 600, 200, 150) + _text(72, 500, "Third Heading", 20)
    page2 += _text(72, 470, "Words of the third section run along here.")
    pdf = _pdf(page1, page2)
    context = Context()
    toc = get_toc(pdf, context=context)["sections"]
    assert [(s["title"], s["images"]) for s in toc] == [
        ("First Heading", 0),
        ("Second Heading", 1),
        ("Third Heading", 1),
    ]
    for entry in toc:
        shown = _ids(read_section(pdf, entry["id"], context=context)["markdown"])
        listed = list_images(pdf, section=entry["id"], context=context)["images"]
        assert shown == [i["id"] for i in listed]
        assert all(i["section"]["id"] == entry["id"] for i in listed)
    third = read_section(pdf, toc[2]["id"], context=context)["markdown"]
    assert third.index("![image") < third.index("Third Heading")


def test_a_scanned_page_references_its_scan() -> None:
    pdf = _pdf(_draw(0, 0, 612, 792))
    page = read_pages(pdf, context=Context())["pages"][0]
    assert page["status"] == "needs_ocr"
    assert _ids(page["markdown"]) == [list_images(pdf, context=Context())["images"][0]["id"]]


@pytest.mark.parametrize("f", corpus_params(corpus_files()))
def test_corpus_sections_show_the_images_they_hold(f: CorpusFile | None) -> None:
    """On every corpus file, each section's Markdown references exactly the images that are
    placed in it and not tiny, each once, and every page references each of its images that
    is not tiny."""
    doc = open_corpus_file(f)
    if doc.page_count > 60:
        pytest.skip("long: its sections are checked on the shorter files")
    for page in doc.pages:
        ids = placement_ids(page.number, page.images)
        wanted = [i for i, p in zip(ids, page.images, strict=True) if not is_tiny(p)]
        assert sorted(_ids(page.markdown)) == sorted(wanted), page.number
    for section in section_tree(doc).sections:
        if not section.located:
            continue
        assert section.page is not None and section.end_page is not None
        held = [
            image_id
            for number in range(section.page, section.end_page + 1)
            for index, (image_id, placement) in enumerate(
                zip(
                    placement_ids(number, doc.page(number).images),
                    doc.page(number).images,
                    strict=True,
                )
            )
            if not is_tiny(placement) and holds(section, number, image_offset(doc, number, index))
        ]
        # (in reading order there, in drawing order here)
        assert sorted(_ids(section_text(doc, section))) == sorted(held), section.id


def test_references_are_not_page_text() -> None:
    """Search and the plain text do not see references."""
    pdf = _pdf(_text(72, 700, "Only words here.") + _draw(72, 450, 200, 150))
    doc = pdfthin.open(pdf)
    assert "![image" in doc.page(1).markdown
    assert re.search(r"image|pdfthin", doc.page(1).text) is None
