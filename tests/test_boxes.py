"""One box shape across the API: every box an answer gives is ``{x0, y0, x1, y1}`` (made by
``operations.response.bbox``), in points on the page as displayed: origin at the top left of
the crop box, y down, after /Rotate."""

from __future__ import annotations

from typing import Any

import pytest
from pdfbuilder import PdfBuilder

from pdfthin.operations import (
    OPERATIONS,
    get_chunks,
    inspect_layout,
    list_images,
    read_pages,
)

CORNERS = ("x0", "y0", "x1", "y1")


def _number_lists(schema: Any, where: str) -> list[str]:
    """Where ``schema`` holds an array of numbers (the old ``[x0, y0, x1, y1]`` shape)."""
    found: list[str] = []
    if isinstance(schema, dict):
        items = schema.get("items")
        numbers = isinstance(items, dict) and items.get("type") in ("number", "integer")
        if schema.get("type") == "array" and numbers:
            found.append(where)
        for key, value in schema.items():
            found += _number_lists(value, f"{where}/{key}")
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            found += _number_lists(value, f"{where}[{i}]")
    return found


def test_no_answer_gives_a_box_as_a_list_of_numbers() -> None:
    found = [where for op in OPERATIONS for where in _number_lists(op.output_schema(), op.name)]
    assert found == []


# A page whose crop box is offset from the media box and which /Rotate turns a quarter: the
# displayed page is the crop box (520 x 680) turned clockwise, 680 wide and 520 high. A point
# (x, y) of user space is shown at (y - CROP_Y0, x - CROP_X0), counted from the top left.
CROP = (40, 60, 560, 740)
IMAGE_CM = (100, 50, 140, 300)  # width, height, x, y of the image in user space
BODY_X, BODY_TOP, PITCH, LINES = 60, 700, 14, 6
SECRET_X, SECRET_Y = 300, 500


def _shown(x: float, y: float) -> tuple[float, float]:
    return y - CROP[1], x - CROP[0]


def _turned_cropped_page() -> bytes:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(4, 3)
    w, h, x, y = IMAGE_CM
    ops = [b"q %d 0 0 %d %d %d cm /Im1 Do Q" % (w, h, x, y)]
    for i in range(LINES):
        ops.append(
            b"BT /F1 10 Tf %d %d Td (words of line %d in the body of the turned page) Tj ET"
            % (BODY_X, BODY_TOP - PITCH * i, i)
        )
    ops.append(b"1 g BT /F1 10 Tf %d %d Td (white secret) Tj ET" % (SECRET_X, SECRET_Y))
    b.add_page(
        b"\n".join(ops),
        {"Font": {"F1": font}, "XObject": {"Im1": image}},
        crop_box=CROP,
        rotate=90,
    )
    return b.build()


def _corners(box: dict[str, float]) -> tuple[float, float, float, float]:
    assert set(box) == set(CORNERS), box
    return box["x0"], box["y0"], box["x1"], box["y1"]


def _holds(outer: dict[str, float], inner: dict[str, float], slack: float = 0.2) -> bool:
    o, i = _corners(outer), _corners(inner)
    return (
        o[0] - slack <= i[0]
        and o[1] - slack <= i[1]
        and i[2] <= o[2] + slack
        and i[3] <= o[3] + slack
    )


@pytest.fixture(scope="module")
def turned() -> bytes:
    return _turned_cropped_page()


def test_an_image_box_is_on_the_page_as_displayed(turned: bytes, implementation: str) -> None:
    (image,) = list_images(turned)["images"]
    w, h, x, y = IMAGE_CM
    (x0, y0), (x1, y1) = _shown(x, y), _shown(x + w, y + h)
    assert _corners(image["bbox"]) == pytest.approx((x0, y0, x1, y1), abs=0.05)


def test_a_hidden_piece_box_is_on_the_page_as_displayed(turned: bytes, implementation: str) -> None:
    page = read_pages(turned)["pages"][0]
    (piece,) = page["hidden_text"]["pieces"]
    assert piece["reason"] == "white"
    x0, y0, x1, y1 = _corners(piece["bbox"])
    left, top = _shown(SECRET_X, SECRET_Y)  # the start of its baseline
    # Turned: the text runs down the displayed page, from its start, across its baseline.
    assert top - 0.5 <= y0 <= top + 0.5 and y1 > top + 40
    assert x0 < left + 1 < x1 <= left + 12
    inspected = inspect_layout(turned, page=1)
    (same,) = inspected["hidden_text"]
    assert _corners(same["bbox"]) == pytest.approx(_corners(piece["bbox"]), abs=0.051)


def test_layout_and_chunk_boxes_agree_on_the_page_as_displayed(
    turned: bytes, implementation: str
) -> None:
    answer = inspect_layout(turned, page=1)
    assert (answer["width"], answer["height"]) == (680, 520)
    (block,) = [b for b in answer["blocks"] if b["kind"] == "paragraph"]
    (chunk,) = get_chunks(turned)["chunks"]
    # The chunk holds the paragraph and the picture's reference: its box is both boxes'.
    (image,) = list_images(turned)["images"]
    assert f"](pdfthin:image/{image['id']})" in chunk["markdown"]
    both = [_corners(block["bbox"]), _corners(image["bbox"])]
    union = (*(min(b[i] for b in both) for i in (0, 1)), *(max(b[i] for b in both) for i in (2, 3)))
    assert _corners(chunk["bbox"]) == pytest.approx(union, abs=0.051)
    assert chunk["page_spans"] == [{"page": 1, "bbox": chunk["bbox"]}]
    for line in answer["lines"]:
        assert _holds(block["bbox"], line)
    for run in answer["runs"]:
        assert _holds(block["bbox"], run["bbox"])
    # Each line's baseline start, mapped by hand, stands in the block.
    x0, y0, x1, y1 = _corners(block["bbox"])
    for i in range(LINES):
        left, top = _shown(BODY_X, BODY_TOP - PITCH * i)
        assert x0 <= left <= x1 and abs(y0 - top) < 1
    assert 0 <= x0 < x1 <= 680 and 0 <= y0 < y1 <= 520
