"""Overviews answer from the pages read so far (issue 21): ``describe_document`` and ``get_info``
do not read a long document whole, say which pages their page facts come from (``read``), and
read every page only when asked (``full``); ``read_pages`` does not read the pages it leaves
for later to count their characters."""

from __future__ import annotations

from typing import Any

import pytest
from layouts import count_layouts
from pdfbuilder import PdfBuilder, inline_image

from pdfthin.model.document import profile_sample
from pdfthin.operations import Context, describe_document, get_info, read_pages
from pdfthin.pages import format_pages

pytestmark = pytest.mark.usefixtures("implementation")

PAGES = 60
#: A scanned page (an image, no text) and a landscape page, both outside the profile's sample.
SCANNED = 23
LANDSCAPE = 37
#: A page rotated a quarter turn, in the sample.
ROTATED = 3


def _document() -> bytes:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    for n in range(1, PAGES + 1):
        if n == SCANNED:
            scan = inline_image(4, 3, bytes(range(0, 240, 20)))
            b.add_page(b"q 612 0 0 792 0 0 cm " + scan + b" Q")
            continue
        ops = [
            b"BT /F1 10 Tf 72 %d Td (line %d of page %d, some words to read) Tj ET"
            % (560 - 14 * i, i, n)
            for i in range(n % 7 + 3)
        ]
        box = (0, 0, 792, 612) if n == LANDSCAPE else (0, 0, 612, 792)
        b.add_page(
            b"\n".join(ops),
            {"Font": {"F1": font}},
            media_box=box,
            rotate=90 if n == ROTATED else None,
        )
    return b.build()


@pytest.fixture(scope="module")
def pdf() -> bytes:
    data = _document()
    assert SCANNED not in profile_sample(PAGES) and LANDSCAPE not in profile_sample(PAGES)
    assert ROTATED in profile_sample(PAGES)
    return data


def test_describe_answers_from_the_pages_read_and_names_the_rest(
    pdf: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    laid_out = count_layouts(monkeypatch)
    context = Context()
    described = describe_document(pdf, context=context)
    sample = profile_sample(PAGES)
    assert sorted(laid_out) == sample  # opening the document, nothing more
    read = described["read"]
    assert (read["pages"], read["count"], read["complete"]) == (
        format_pages(sample),
        len(sample),
        False,
    )
    assert "full=true" in read["message"]
    rest = [n for n in range(1, PAGES + 1) if n not in sample]
    assert described["pages"] == {"text": format_pages(sample), "not_read": format_pages(rest)}
    # The scanned page is not read, so it is not claimed either way.
    assert described["type"] == "text" and "unreadable" not in described
    tokens = described["estimated_tokens"]
    assert "scaled to all 60" in tokens["method"]
    assert tokens["total"] == round(tokens_of(context, sample) / len(sample) * PAGES)

    # A page read since is known to the next description.
    read_pages(pdf, pages=str(SCANNED), context=context)
    again = describe_document(pdf, context=context)
    assert again["read"]["count"] == len(sample) + 1
    assert again["pages"]["needs_ocr"] == str(SCANNED)
    assert again["type"] == "mixed" and again["unreadable"]["pages"] == str(SCANNED)
    assert str(SCANNED) not in again["pages"]["not_read"].split(",")
    assert len(laid_out) == len(sample) + 1


def tokens_of(context: Context, pages: list[int]) -> int:
    doc = next(entry.document for entry in context.cache._items.values())
    return sum(round(len(doc.page(n).markdown) / 4) for n in pages)


def test_describe_in_full_reads_every_page(pdf: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    laid_out = count_layouts(monkeypatch)
    context = Context()
    described = describe_document(pdf, full=True, context=context)
    assert sorted(laid_out) == list(range(1, PAGES + 1))
    assert described["read"] == {"pages": f"1-{PAGES}", "count": PAGES, "complete": True}
    others = [n for n in range(1, PAGES + 1) if n != SCANNED]
    assert described["pages"] == {
        "text": format_pages(others),
        "needs_ocr": str(SCANNED),
        "needs_ocr_reasons": {"image_only": str(SCANNED)},
    }
    assert described["type"] == "mixed"
    assert described["estimated_tokens"]["method"] == "characters / 4"
    assert described["estimated_tokens"]["total"] == tokens_of(context, list(range(1, PAGES + 1)))
    # Once every page is read, a description without full knows them all too.
    assert describe_document(pdf, context=context)["read"]["complete"]


def test_info_gives_every_pages_size_without_reading_it(
    pdf: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    laid_out = count_layouts(monkeypatch)
    context = Context()
    info = get_info(pdf, context=context)
    assert sorted(laid_out) == profile_sample(PAGES)
    assert not info["read"]["complete"] and info["images"] == 0
    # The sizes the pages have once read: every page read, the same groups.
    full = get_info(pdf, full=True, context=Context())
    assert info["page_sizes"] == full["page_sizes"]
    by_size = {(s["width"], s["height"], s["rotation"]): s["pages"] for s in info["page_sizes"]}
    assert by_size[(792.0, 612.0, 90)] == str(ROTATED)
    assert by_size[(792.0, 612.0, 0)] == str(LANDSCAPE)
    assert full["images"] == 1 and full["read"]["complete"]
    assert full["unreadable"]["pages"] == str(SCANNED)


def test_read_pages_counts_the_characters_left_only_when_they_were_read(
    pdf: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    laid_out = count_layouts(monkeypatch)
    context = Context()
    first = read_pages(pdf, max_pages=2, context=context)
    assert [p["page"] for p in first["pages"]] == [1, 2]
    omitted = first["omitted"]
    assert omitted["pages"] == PAGES - 2 and "chars" not in omitted
    # Pages 1-2 and the one the cursor was hashed for are read; nothing past the sample else.
    assert set(laid_out) <= set(profile_sample(PAGES)) | {3}
    describe_document(pdf, full=True, context=context)
    again = read_pages(pdf, max_pages=2, context=context)
    chars = sum(len(p.markdown) for p in _doc(context).pages[2:])
    assert again["omitted"]["chars"] == chars
    assert f"{chars} characters" in again["omitted"]["message"]


def _doc(context: Context) -> Any:
    return next(entry.document for entry in context.cache._items.values())
