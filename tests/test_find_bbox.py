"""``find`` matches carry the boxes of the lines they cover (one per line, across a page break
too, on a /Rotate page too) and the id of the chunk that holds them; ``get_toc`` sections
carry their heading's box. Checked against the engine's own run boxes, on both engine paths."""

from __future__ import annotations

import pytest
from pdfbuilder import PdfBuilder

from pdfthin.engine import open_pdf
from pdfthin.model.markdown import join_lines
from pdfthin.operations import Context, find_in_document, get_chunks, get_toc
from pdfthin.operations.types import PageBox

pytestmark = pytest.mark.usefixtures("implementation")

#: Rounding of the boxes (0.1 pt) and of the comparison.
_SLACK = 0.11

PARAGRAPH = [
    "The quick brown fox jumps over",
    "the lazy dog near the river and",
    "then sleeps under an old exam-",
    "ple of a tree in the garden.",
]


def _page(b: PdfBuilder, font: object, lines: list[str], rotate: int | None = None) -> None:
    """``lines`` drawn a word at a time (one run per word), 14 pt apart."""
    body = [b"BT /F1 11 Tf 72 700 Td 14 TL"]
    for line in lines:
        for word in line.split():
            body.append(f"({word} ) Tj".encode())
        body.append(b"T*")
    body.append(b"ET")
    b.add_page(b"\n".join(body), {"Font": {"F1": font}}, rotate=rotate)


def _pdf(pages: list[list[str]], rotate: int | None = None) -> bytes:
    b = PdfBuilder()
    font = b.font_standard("Helvetica", encoding="/WinAnsiEncoding")
    for lines in pages:
        _page(b, font, lines, rotate)
    return b.build()


def _runs(pdf: bytes, page: int, word: str) -> list[tuple[float, float, float, float]]:
    found = open_pdf(pdf).page(page).runs
    return [(r.x0, r.y0, r.x1, r.y1) for r in found if r.text.strip() == word]


def _inside(run: tuple[float, float, float, float], box: PageBox) -> bool:
    x0, y0, x1, y1 = run
    return (
        box["x0"] - _SLACK <= x0
        and x1 <= box["x1"] + _SLACK
        and box["y0"] - _SLACK <= y0
        and y1 <= box["y1"] + _SLACK
    )


def _only_match(pdf: bytes, query: str) -> dict[str, object]:
    matches = find_in_document(pdf, query, context=Context())["matches"]
    assert len(matches) == 1, matches
    return dict(matches[0])


def test_a_match_on_one_line_has_that_line_s_box() -> None:
    pdf = _pdf([PARAGRAPH])
    match = _only_match(pdf, "lazy dog")
    boxes = match["bbox"]
    assert isinstance(boxes, list) and len(boxes) == 1
    for word in ("lazy", "dog"):
        (run,) = _runs(pdf, 1, word)
        assert _inside(run, boxes[0])
    # The box is that line's, not the paragraph's: the words of the next line are outside it.
    (sleeps,) = _runs(pdf, 1, "sleeps")
    assert not _inside(sleeps, boxes[0])


def test_a_match_across_two_lines_has_two_boxes_in_order() -> None:
    pdf = _pdf([PARAGRAPH])
    boxes = _only_match(pdf, "jumps over the lazy")["bbox"]
    assert isinstance(boxes, list) and len(boxes) == 2
    (jumps,) = _runs(pdf, 1, "jumps")
    (lazy,) = _runs(pdf, 1, "lazy")
    assert _inside(jumps, boxes[0]) and not _inside(lazy, boxes[0])
    assert _inside(lazy, boxes[1]) and not _inside(jumps, boxes[1])
    assert boxes[0]["y0"] < boxes[1]["y0"]


def test_a_word_rejoined_across_a_hyphen_keeps_both_lines() -> None:
    # "exam-" + "ple" is one word in the text; the rest of it was printed on the next line.
    assert "example" in join_lines(PARAGRAPH, None)
    pdf = _pdf([PARAGRAPH])
    halves = _only_match(pdf, "example")["bbox"]
    assert isinstance(halves, list) and len(halves) == 2
    (exam,) = _runs(pdf, 1, "exam-")
    (ple,) = _runs(pdf, 1, "ple")
    assert _inside(exam, halves[0]) and not _inside(ple, halves[0])
    assert _inside(ple, halves[1]) and not _inside(exam, halves[1])
    boxes = _only_match(pdf, "old example of")["bbox"]
    assert isinstance(boxes, list) and len(boxes) == 2
    (old,) = _runs(pdf, 1, "old")
    (of,) = _runs(pdf, 1, "of")
    assert _inside(old, boxes[0]) and _inside(of, boxes[1])
    # A match wholly after the rejoined word is on the second line only.
    (tree,) = _only_match(pdf, "of a tree")["bbox"]  # type: ignore[misc]
    assert _inside(of, tree) and not _inside(old, tree)


def test_a_match_across_a_page_break_has_a_box_on_each_page() -> None:
    pdf = _pdf([["Nothing here but a phrase broken"], ["across the page and more."]])
    match = _only_match(pdf, "phrase broken across the page")
    boxes = match["bbox"]
    assert isinstance(boxes, list)
    assert [b["page"] for b in boxes] == [1, 2]
    (broken,) = _runs(pdf, 1, "broken")
    (across,) = _runs(pdf, 2, "across")
    assert _inside(broken, boxes[0]) and _inside(across, boxes[1])


@pytest.mark.parametrize("rotate", [90, 270])
def test_boxes_on_a_rotated_page_hold_the_turned_words(rotate: int) -> None:
    pdf = _pdf([PARAGRAPH], rotate=rotate)
    match = _only_match(pdf, "brown fox jumps over the lazy")
    boxes = match["bbox"]
    assert isinstance(boxes, list) and len(boxes) == 2
    (fox,) = _runs(pdf, 1, "fox")
    (lazy,) = _runs(pdf, 1, "lazy")
    assert _inside(fox, boxes[0]) and _inside(lazy, boxes[1])
    assert not _inside(lazy, boxes[0])
    # The page is displayed turned: 792 wide and 612 high.
    assert all(b["x1"] <= 792 and b["y1"] <= 612 for b in boxes)


def test_a_match_names_the_chunk_that_holds_it() -> None:
    # Pages of long paragraphs: several chunks, some stitched across a page break.
    lines = [f"Line {i} says alpha beta gamma delta epsilon {i}." for i in range(45)]
    pages = [[*lines[:10], f"Marker{n} sits here.", *lines[10:]] for n in range(1, 4)]
    pdf = _pdf(pages)
    chunks = get_chunks(pdf, max_chars=1_000_000, context=Context())["chunks"]
    assert len(chunks) >= 4
    for n in range(1, 4):
        match = _only_match(pdf, f"Marker{n} sits")
        holding = [c["chunk_id"] for c in chunks if f"Marker{n} sits" in c.get("text", "")]
        assert match["chunk_id"] == holding[0]


def test_a_long_paragraph_cut_at_sentences_names_the_right_part() -> None:
    # One paragraph far over the 500-token target: its sentence parts are chunks of their own.
    sentence = "This sentence is filler text about nothing much at all."
    lines = [sentence] * 40 + ["The needle hides in the last sentence."]
    pdf = _pdf([lines])
    chunks = get_chunks(pdf, max_chars=1_000_000, context=Context())["chunks"]
    assert len(chunks) >= 2
    match = _only_match(pdf, "needle hides")
    assert match["chunk_id"] == chunks[-1]["chunk_id"]
    first = find_in_document(pdf, "filler", max_results=1, context=Context())["matches"][0]
    assert first.get("chunk_id") == chunks[0]["chunk_id"]


def test_toc_sections_carry_their_heading_box() -> None:
    b = PdfBuilder()
    body = b"\n".join(
        [
            b"BT /F2 20 Tf 72 720 Td (A Large Title) Tj ET",
            b"BT /F1 10 Tf 72 690 Td 12 TL",
            *[b"(Body text of the first part, plain and long enough.) Tj T*"] * 6,
            b"ET",
        ]
    )
    regular = b.font_standard("Helvetica", encoding="/WinAnsiEncoding")
    bold = b.font_standard("Helvetica-Bold", encoding="/WinAnsiEncoding")
    b.add_page(body, {"Font": {"F1": regular, "F2": bold}})
    pdf = b.build()
    sections = get_toc(pdf, context=Context())["sections"]
    (title,) = [s for s in sections if s["title"] == "A Large Title"]
    box = title["bbox"]
    (run,) = [(r.x0, r.y0, r.x1, r.y1) for r in open_pdf(pdf).page(1).runs if "Large" in r.text]
    assert _inside(run, {"page": 1, **box})
    # The heading's box, not the section's: the body below it is outside.
    assert box["y1"] < 792 - 690


def test_text_recognised_by_ocr_has_no_boxes_and_no_chunk() -> None:
    # Page 2 is scanned; OCR's text is not laid out, so nothing there has a box or a chunk.
    from test_ocr import binding, scanned_pdf

    ocr, _, _ = binding()
    pdf = scanned_pdf(2, frozenset({1}))
    r = find_in_document(pdf, "scanned words", ocr=True, context=Context(ocr=ocr))
    (match,) = r["matches"]
    assert match["page"] == 2 and match["bbox"] == [] and "chunk_id" not in match
    text = find_in_document(pdf, "text layer", ocr=True, context=Context(ocr=ocr))["matches"]
    assert text[0]["page"] == 1 and len(text[0]["bbox"]) == 1 and "chunk_id" in text[0]


def test_a_bookmark_gets_the_box_of_the_heading_found_for_it() -> None:
    from pdfbuilder import Outline

    b = PdfBuilder()
    regular = b.font_standard("Helvetica", encoding="/WinAnsiEncoding")
    bold = b.font_standard("Helvetica-Bold", encoding="/WinAnsiEncoding")
    body = b"\n".join(
        [
            b"BT /F1 10 Tf 72 720 Td 12 TL",
            *[b"(Opening words of the page, plain and long enough to be body.) Tj T*"] * 4,
            b"ET",
            b"BT /F2 16 Tf 72 640 Td (Methods Used) Tj ET",
            b"BT /F1 10 Tf 72 620 Td 12 TL",
            *[b"(What was done, told at length in plain words here.) Tj T*"] * 4,
            b"ET",
        ]
    )
    b.add_page(body, {"Font": {"F1": regular, "F2": bold}})
    b.set_outline([Outline("Methods Used", 0), Outline("Nowhere To Be Seen", 0)])
    pdf = b.build()
    r = get_toc(pdf, context=Context())
    assert r["source"] == "outline"
    found, missing = r["sections"]
    (run,) = [(x.x0, x.y0, x.x1, x.y1) for x in open_pdf(pdf).page(1).runs if "Methods" in x.text]
    assert _inside(run, {"page": 1, **found["bbox"]})
    assert found["bbox"]["y0"] > 792 - 720  # the heading's box, below the opening lines
    assert "bbox" not in missing


def test_rendered_lines_map_plain_text_to_line_boxes_and_a_table_to_its_box() -> None:
    from pdfthin.layout.types import Block, Line
    from pdfthin.model.markdown import line_boxes_between, render_page

    def line(text: str, y: float) -> Line:
        return Line(text, 72.0, y, 72.0 + 5 * len(text), y + 10.0, 10.0)

    lines = [line("a broken exam-", 100.0), line("ple ends here", 112.0)]
    paragraph = Block(lines, 72.0, 100.0, 142.0, 122.0, 10.0)
    table = Block(
        [line("x 1", 140.0), line("y 2", 152.0)],
        72.0,
        140.0,
        200.0,
        162.0,
        10.0,
        kind="table",
        rows=[["x", "1"], ["y", "2"]],
    )
    _, anchors, text = render_page([paragraph, table])
    first, grid = anchors
    assert text[first.plain : first.plain + first.plain_length] == "a broken example\nends here"
    at = text.index("example") - first.plain
    # "exam" was printed on the first line, "ple" on the second.
    assert line_boxes_between(first, at, at + 4) == [(72.0, 100.0, 142.0, 110.0)]
    assert line_boxes_between(first, at + 4, at + 7) == [(72.0, 112.0, 137.0, 122.0)]
    assert len(line_boxes_between(first, at, at + 7)) == 2
    assert line_boxes_between(first, first.plain_length - 4, first.plain_length) == [
        (72.0, 112.0, 137.0, 122.0)
    ]
    # A table's rows are not lines: a match in it gets the table's box.
    assert line_boxes_between(grid, 0, 3) == [grid.box] == [(72.0, 140.0, 200.0, 162.0)]
