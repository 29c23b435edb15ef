"""Pages that cost more work than any page should (issue 18, item 3; docs/design.md, invariant 13).

Each file is small (its streams compress to almost nothing) and each page, read as it asks,
would show billions of glyphs, run millions of operators, keep gigabytes of image bytes or
hand layout a million runs. Every page must stop at its work budget — marked incomplete, with
a problem saying which budget ran out, never ``empty`` — and the document as a whole must stop
at its own budget, on both engine paths.
"""

from __future__ import annotations

from collections.abc import Callable

from pdfbuilder import PdfBuilder, Ref, inline_image

from hostile import attack

#: A sentence each attack draws first, so the harness sees the text before the work survive.
VISIBLE = "Visible body text"
_FIRST = b"BT /F1 12 Tf 72 740 Td (" + VISIBLE.encode() + b") Tj ET\n"


def work(variant: str) -> Callable[[Callable[[], bytes]], Callable[[], bytes]]:
    """Register a ``page_work`` attack; the text drawn before the work must be read."""
    return attack("page_work", variant, must_show=(VISIBLE,))


def _builder() -> tuple[PdfBuilder, Ref]:
    b = PdfBuilder(compress=True)
    return b, b.font_standard("Helvetica")


def _tj(glyphs: int) -> bytes:
    """One TJ array showing ``glyphs`` glyphs, with a number between every ten."""
    return b"[" + b"(abcdefghij) -10 " * (glyphs // 10) + b"] TJ "


@work("form_long_tj_drawn_many_times")
def form_tj() -> bytes:
    """One form showing 100,000 glyphs, drawn 9,999 times: 10**9 glyphs."""
    b, font = _builder()
    form = b.form_xobject(
        b"BT /F1 1 Tf 10 10 Td " + _tj(100_000) + b" ET", resources={"Font": {"F1": font}}
    )
    b.add_page(_FIRST + b"/Fm Do " * 9_999, {"Font": {"F1": font}, "XObject": {"Fm": form}})
    return b.build()


@work("nested_forms_each_drawing_the_next")
def nested_forms() -> bytes:
    """Five levels of forms, each drawing the next ten times, the last showing text."""
    b, font = _builder()
    form = b.form_xobject(
        b"BT /F1 1 Tf 10 10 Td " + _tj(20_000) + b" ET", resources={"Font": {"F1": font}}
    )
    for _ in range(5):
        form = b.form_xobject(
            b"/Fm Do " * 10, resources={"Font": {"F1": font}, "XObject": {"Fm": form}}
        )
    b.add_page(_FIRST + b"/Fm Do " * 10, {"Font": {"F1": font}, "XObject": {"Fm": form}})
    return b.build()


@work("millions_of_tiny_operators")
def tiny_operators() -> bytes:
    """Twelve million operators, in a form drawn again and again."""
    b, font = _builder()
    form = b.form_xobject(b"0 0 m " * 600_000)
    b.add_page(_FIRST + b"/Fm Do " * 20, {"Font": {"F1": font}, "XObject": {"Fm": form}})
    return b.build()


@work("huge_number_of_runs_for_layout")
def many_runs() -> bytes:
    """A million separate runs scattered over the page: what layout is handed."""
    b, font = _builder()
    cells = b"".join(
        b"1 0 0 1 %d %d Tm (w%d) Tj " % (20 + (i * 37) % 560, 20 + (i * 53) % 700, i % 97)
        for i in range(50_000)
    )
    form = b.form_xobject(b"BT /F1 4 Tf " + cells + b" ET", resources={"Font": {"F1": font}})
    b.add_page(_FIRST + b"/Fm Do " * 20, {"Font": {"F1": font}, "XObject": {"Fm": form}})
    return b.build()


@work("many_pages_each_heavy")
def heavy_pages() -> bytes:
    """Hundreds of pages sharing one content stream that costs just under a page's budget:
    45 times a form of 100 lines of 200 glyphs."""
    b, font = _builder()
    lines = b"".join(b"1 0 0 1 20 %d Tm " % (20 + 7 * i) + _tj(200) for i in range(100))
    form = b.form_xobject(b"BT /F1 2 Tf " + lines + b" ET", resources={"Font": {"F1": font}})
    heavy = b.stream(b"/Fm Do " * 45)
    resources = {"Font": {"F1": font}, "XObject": {"Fm": form}}
    b.add_page(_FIRST, resources)
    for _ in range(300):
        page = b.add_page(None, resources)
        b.get(page)["Contents"] = heavy
    return b.build()


@work("many_pages_crowded_for_layout")
def crowded_pages() -> bytes:
    """Pages whose every run stands apart in a dense grid: layout compares each run with the
    lines open near it, the square of their number on each page."""
    b, font = _builder()
    cells = b"".join(
        b"1 0 0 1 %d %d Tm (w) Tj " % (4 + 4 * (i % 150), 4 + 5.5 * (i // 150))
        for i in range(20_000)
    )
    form = b.form_xobject(b"BT /F1 3 Tf " + cells + b" ET", resources={"Font": {"F1": font}})
    crowded = b.stream(b"/Fm Do")
    resources = {"Font": {"F1": font}, "XObject": {"Fm": form}}
    b.add_page(_FIRST, resources)
    for _ in range(100):
        page = b.add_page(None, resources)
        b.get(page)["Contents"] = crowded
    return b.build()


@work("dot_leaders_under_scattered_words")
def leader_pages() -> bytes:
    """Wide pages whose one baseline holds 4,800 words set apart, a leader dot under each:
    layout asks, for each dot, whether a phrase lies over it (every word a phrase of its
    own: compared with each, the square of their number on each page)."""
    b, font = _builder()
    cells = b"".join(
        b"1 0 0 1 %d 50 Tm (i) Tj 1 0 0 1 %d 50 Tm (.) Tj " % (x, x) for x in range(10, 14_400, 3)
    )
    form = b.form_xobject(
        b"BT /F1 3 Tf " + cells + b" ET",
        bbox=(0, 0, 14_400, 100),
        resources={"Font": {"F1": font}},
    )
    wide = b.stream(b"/Fm Do")
    resources = {"Font": {"F1": font}, "XObject": {"Fm": form}}
    b.add_page(_FIRST, resources)
    for _ in range(30):
        page = b.add_page(None, resources, media_box=(0, 0, 14_400, 100))
        b.get(page)["Contents"] = wide
    return b.build()


@work("many_pages_of_images")
def image_pages() -> bytes:
    """Pages each placing one small image just under the page's limit of images."""
    b, font = _builder()
    image = b.image_xobject(1, 1)
    placed = b"".join(
        b"q 3 0 0 3 %d %d cm /Im Do Q " % (i % 200 * 3, i // 200 * 3) for i in range(9_999)
    )
    form = b.form_xobject(placed, resources={"XObject": {"Im": image}})
    shared = b.stream(b"/Fm Do")
    resources = {"Font": {"F1": font}, "XObject": {"Fm": form}}
    b.add_page(_FIRST, resources)
    for _ in range(300):
        page = b.add_page(None, resources)
        b.get(page)["Contents"] = shared
    return b.build()


@work("many_pages_of_ruling_lines")
def ruled_pages() -> bytes:
    """Pages ruled into a grid of thousands of cells, with a word in many of them: table
    detection is handed the page's every ruling line."""
    b, font = _builder()
    grid = b"".join(
        b"%d %d 5 4 re S " % (20 + 5 * (i % 110), 20 + 4 * (i // 110)) for i in range(5_000)
    )
    words = b"".join(
        b"1 0 0 1 %d %d Tm (%d) Tj " % (21 + 5 * (i % 110), 21 + 4 * (i // 110), i % 10)
        for i in range(0, 5_000, 3)
    )
    form = b.form_xobject(
        b"0.1 w " + grid + b"BT /F1 3 Tf " + words + b"ET", resources={"Font": {"F1": font}}
    )
    shared = b.stream(b"/Fm Do")
    resources = {"Font": {"F1": font}, "XObject": {"Fm": form}}
    b.add_page(_FIRST, resources)
    for _ in range(100):
        page = b.add_page(None, resources)
        b.get(page)["Contents"] = shared
    return b.build()


@work("inline_image_in_a_form_drawn_many_times")
def inline_images() -> bytes:
    """A form holding a 1 MB inline image, drawn thousands of times: gigabytes kept."""
    b, font = _builder()
    image = inline_image(1024, 1024, b"\x80" * (1024 * 1024))
    form = b.form_xobject(b"q 10 0 0 10 0 0 cm " + image + b" Q")
    b.add_page(_FIRST + b"/Fm Do " * 5_000, {"Font": {"F1": font}, "XObject": {"Fm": form}})
    return b.build()


@work("content_array_repeating_one_stream")
def repeated_contents() -> bytes:
    """/Contents listing one 8 MB stream thousands of times."""
    b, font = _builder()
    big = b.stream(b"0 0 m " * ((8 << 20) // 6))
    page = b.add_page(_FIRST, {"Font": {"F1": font}})
    first = b.get(page)["Contents"]
    b.get(page)["Contents"] = [first, *[big] * 5_000]
    return b.build()


@work("white_text_against_many_painted_areas")
def white_text() -> bytes:
    """Thousands of painted areas, then a million white runs, each checked against them."""
    b, font = _builder()
    areas = b"".join(b"%d 5 1 1 re f " % (i % 600) for i in range(1_999))
    runs = b"1 0 0 1 300 400 Tm (w) Tj " * 100_000
    form = b.form_xobject(b"BT /F1 12 Tf 1 g " + runs + b" ET", resources={"Font": {"F1": font}})
    b.add_page(
        _FIRST + b"0 g " + areas + b"/Fm Do " * 10, {"Font": {"F1": font}, "XObject": {"Fm": form}}
    )
    return b.build()


@work("invisible_text_against_many_images")
def invisible_text() -> bytes:
    """Many small images away from the text, and many invisible runs checked against each
    (an OCR layer is invisible text over an image)."""
    b, font = _builder()
    image = b.image_xobject(1, 1)
    images = b"".join(b"q 1 0 0 1 %d 5 cm /Im Do Q " % (i % 600) for i in range(2_000))
    runs = b"1 0 0 1 300 400 Tm (w) Tj " * 50_000
    form = b.form_xobject(b"BT /F1 12 Tf 3 Tr " + runs + b" ET", resources={"Font": {"F1": font}})
    b.add_page(
        _FIRST + images + b"/Fm Do " * 10,
        {"Font": {"F1": font}, "XObject": {"Fm": form, "Im": image}},
    )
    return b.build()
