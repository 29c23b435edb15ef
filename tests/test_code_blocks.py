"""Code blocks: text fenced as code only on real evidence, a monospace face AND lines that
read as code (or are indented like it); never on a scanner's OCR layer, whose font is the
recognizer's choice."""

from __future__ import annotations

import pytest
from pdfbuilder import PdfBuilder

import pdfthin
from pdfthin.engine.types import PageContent, TextRun
from pdfthin.layout import finish_document, layout_page
from pdfthin.model.markdown import render_blocks

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")

MONO = "Courier"
CHAR_W = 6.0  # Courier's advance at 10 pt

CODE = ["int main(void) {", "    int x = 1;", "    return x;", "}"]
PROSE = [
    "Dear Sir, I write to ask whether the",
    "shipment we ordered in May has left",
    "the warehouse yet, as we have heard",
    "nothing from your office since then.",
]


def _line(text: str, y: float, x: float = 50.0) -> list[TextRun]:
    """A monospace line: each word where a typewriter puts it, leading spaces included."""
    out = []
    indent = len(text) - len(text.lstrip(" "))
    x += indent * CHAR_W
    for word in text.split():
        out.append(TextRun(word, x, y - 8, x + len(word) * CHAR_W, y + 2, 10.0, MONO))
        x += (len(word) + 1) * CHAR_W
    return out


def _markdown(lines: list[str]) -> str:
    runs = [r for i, text in enumerate(lines) for r in _line(text, 100 + 12 * i)]
    layout = layout_page(PageContent(number=1, width=612, height=792, rotation=0, runs=runs))
    finish_document([layout])
    return render_blocks(layout.blocks)


def test_code_in_a_monospace_face_is_fenced() -> None:
    md = _markdown(CODE)
    assert md.startswith("```\nint main(void) {")
    assert md.endswith("}\n```")


def test_prose_in_a_monospace_face_is_a_paragraph() -> None:
    """A typewritten letter: monospace, flush left, no line of code."""
    md = _markdown(PROSE)
    assert "```" not in md
    assert md.startswith("Dear Sir, I write")


def _pdf(lines: list[str], ocr_layer: bool) -> bytes:
    """``lines`` in Courier, drawn invisibly over a scanned page (an OCR layer) or visibly."""
    text = b"".join(
        b"1 0 0 1 72 %d Tm (%s) Tj " % (700 - 12 * i, line.encode()) for i, line in enumerate(lines)
    )
    return _courier_page(text, ocr_layer)


def _courier_page(shows: bytes, ocr_layer: bool) -> bytes:
    """A page showing ``shows`` in 10 pt Courier: invisibly over a scanned image (an OCR
    layer), or visibly."""
    b = PdfBuilder()
    font = b.font_standard(MONO)
    mode = b"3 Tr " if ocr_layer else b""
    content = b"BT /F1 10 Tf " + mode + shows + b"ET"
    resources: dict[str, object] = {"Font": {"F1": font}}
    if ocr_layer:
        content = b"q 612 0 0 792 0 0 cm /Im1 Do Q " + content
        resources["XObject"] = {"Im1": b.image_xobject(4, 4)}
    b.add_page(content, resources)
    return b.build()


def test_an_ocr_layer_is_never_fenced_as_code() -> None:
    """The same code-like lines: fenced when printed in Courier, a paragraph when they are
    the invisible OCR layer of a scan (set in Courier by the recognizer)."""
    printed = pdfthin.open(_pdf(CODE, ocr_layer=False)).pages[0]
    scanned = pdfthin.open(_pdf(CODE, ocr_layer=True)).pages[0]
    assert not printed.ocr_layer and printed.markdown.startswith("```")
    assert scanned.ocr_layer
    assert "```" not in scanned.markdown
    assert "int main(void) {" in scanned.markdown


def test_indented_monospace_lines_with_a_line_of_code_are_fenced() -> None:
    """Fewer than half the lines read as code, but the block is indented like code."""
    md = _markdown(["    start the engine", "    wait for it", "print(status)", "done with it"])
    assert md.startswith("```\nstart the engine")
    assert md.endswith("done with it\n```")


def test_flush_monospace_prose_with_one_call_is_a_paragraph() -> None:
    md = _markdown(["the form was sent", "on the first of May", "and returned(late)", "in June"])
    assert "```" not in md


def test_prose_naming_code_in_a_monospace_face_is_a_paragraph() -> None:
    """A sentence naming identifiers set in Courier between words of another face: most of
    a line's characters may be monospaced, and "=" reads as code, but it is prose."""
    rows = [
        [("Colorspace.name", MONO), ("naming it, one of", "Helvetica"), ("DeviceGray(),", MONO)],
        [("DeviceRGB", MONO), (", 3 = the count", "Helvetica"), ("Pixmap.alpha =", MONO)],
        [("Colorspace.nbytes", MONO), ("is the same as", "Helvetica"), ("Pixmap.n;", MONO)],
    ]
    runs: list[TextRun] = []
    for i, row in enumerate(rows):
        x, y = 50.0, 100.0 + 12 * i
        for text, font in row:
            runs.append(TextRun(text, x, y - 8, x + len(text) * CHAR_W, y + 2, 10.0, font))
            x += (len(text) + 1) * CHAR_W
    layout = layout_page(PageContent(number=1, width=612, height=792, rotation=0, runs=runs))
    finish_document([layout])
    md = render_blocks(layout.blocks)
    assert "```" not in md, md
    assert md.startswith("Colorspace.name naming it"), md


def _two_column_pdf(ocr_layer: bool) -> bytes:
    """Two columns of Courier words three ems apart, a word per show (as a recognizer
    places them), drawn invisibly over a scan (an OCR layer) or visibly."""
    shows = []
    # (word spaces at other places on every row, as in prose: no whitespace runs down a column)
    left = [
        "the scan of a book",
        "a page in two columns",
        "with its words set",
        "by the recognizer",
    ]
    right = ["in the right column", "then comes its text", "on the page beside", "the left column"]
    for i in range(8):
        y = 700 - 12 * i
        for x0, text in ((72, f"{left[i % 4]} {i}"), (246, f"{right[i % 4]} {i}")):
            x = x0
            for word in text.split():
                shows.append(b"1 0 0 1 %d %d Tm (%s) Tj " % (x, y, word.encode()))
                x += (len(word) + 1) * CHAR_W
    return _courier_page(b"".join(shows), ocr_layer)


def test_an_ocr_layer_in_courier_is_not_joined_across_its_gutter() -> None:
    """Printed in Courier, words on one baseline keep their alignment as one line (code's
    wide runs of spaces); a recognizer's Courier says nothing about the text, so a scanned
    page's two columns are read one after the other."""
    printed = pdfthin.open(_two_column_pdf(ocr_layer=False)).pages[0].markdown
    scanned = pdfthin.open(_two_column_pdf(ocr_layer=True)).pages[0].markdown
    assert "the scan of a book 0 in the right column 0" in printed
    assert "the scan of a book 0\n" in scanned
    assert scanned.index("by the recognizer 7") < scanned.index("in the right column 0")
