"""Silent gaps in navigation (issue 18, item 7): documents with pages that cannot be read,
where a section, a preview, a peek or a listing could pass over the gap as if the pages were
empty. The harness runs every operation on them; ``tests/test_unreadable.py`` checks that
every response covering those pages names them."""

from __future__ import annotations

from pdfbuilder import Outline, PdfBuilder, Stream

from hostile import attack


def _text(size: float, y: float, text: str) -> bytes:
    return b"BT /F1 %g Tf 72 %g Td (%s) Tj ET" % (size, y, text.encode("latin-1"))


class _Book:
    """Pages of Helvetica text, full-page scans, vector drawings and pages read in part."""

    def __init__(self) -> None:
        self.b = PdfBuilder()
        self.font = self.b.font_standard("Helvetica")
        self.image = self.b.image_xobject(16, 16)

    def text(self, *lines: tuple[float, str]) -> None:
        y = 720.0
        parts = []
        for size, line in lines:
            parts.append(_text(size, y, line))
            y -= size * 2
        self.b.add_page(b"\n".join(parts), {"Font": {"F1": self.font}})

    def scan(self) -> None:
        self.b.add_page(b"q 612 0 0 792 0 0 cm /Im1 Do Q", {"XObject": {"Im1": self.image}})

    def vectors(self) -> None:
        # Text drawn as outlines: many painted paths and no text layer.
        paths = b"\n".join(b"%d 400 m %d 420 l S" % (60 + 5 * i, 62 + 5 * i) for i in range(60))
        self.b.add_page(paths)

    def partial(self, line: str) -> None:
        good = self.b.stream(_text(12, 700, line), flate=False)
        broken = self.b.add(Stream(b"x\x9c\x01\x02 not deflate", {"Filter": "/FlateDecode"}, False))
        self.b.add_page(None, {"Font": {"F1": self.font}}, extra={"Contents": [good, broken]})

    def build(self) -> bytes:
        return self.b.build()


@attack("navigation", "scan_inside_a_section", must_show=("Chapter One opens here",))
def scan_inside_a_section() -> bytes:
    """A section (found from its heading) whose middle page is a scan."""
    book = _Book()
    book.text((20, "Chapter One"), (10, "Chapter One opens here"))
    book.scan()
    book.text((10, "Chapter One closes here"))
    book.text((20, "Chapter Two"), (10, "Chapter Two text"))
    return book.build()


@attack("navigation", "outline_onto_scans", must_show=("Only this page has text",))
def outline_onto_scans() -> bytes:
    """Bookmarks pointing at scanned pages: sections that start on a page with no text, a
    preview with nothing to show, a section made only of scans."""
    book = _Book()
    book.scan()
    book.scan()
    book.text((10, "Only this page has text"))
    book.scan()
    book.b.set_outline(
        [
            Outline("Scanned front matter", 0, children=[Outline("A scanned letter", 1)]),
            Outline("The one text page", 2),
            Outline("Scanned appendix", 3),
        ]
    )
    return book.build()


@attack("navigation", "no_text_at_all")
def no_text_at_all() -> bytes:
    """Every page a scan or vector outlines: no text, no headings, nothing to peek at."""
    book = _Book()
    book.scan()
    book.vectors()
    book.scan()
    return book.build()


@attack("navigation", "read_in_part", must_show=("Readable words before the damage",))
def read_in_part() -> bytes:
    """A page whose second content stream cannot be decoded: its text is read in part."""
    book = _Book()
    book.text((20, "Chapter One"), (10, "First page of the chapter"))
    book.partial("Readable words before the damage")
    book.text((20, "Chapter Two"), (10, "Another chapter"))
    return book.build()


@attack("navigation", "alternating_scans", must_show=("Text page 199",))
def alternating_scans() -> bytes:
    """400 pages, every other one a scan, and a bookmark on each: the lists of unreadable
    pages are long and must still fit every response's budget."""
    book = _Book()
    outline = []
    for n in range(400):
        if n % 2:
            book.scan()
        else:
            book.text((10, f"Text page {n + 1}"))
        outline.append(Outline(f"Bookmark {n + 1}", n))
    book.b.set_outline(outline)
    return book.build()


@attack("navigation", "many_reasons", must_show=("Text page 115",))
def many_reasons() -> bytes:
    """120 pages cycling text, a scan, text, vector outlines, text, a page read in part: three
    reasons for scattered pages make the longest reports, which must still leave a small
    budget room for what the response is for."""
    book = _Book()
    for n in range(120):
        kind = n % 6
        if kind == 1:
            book.scan()
        elif kind == 3:
            book.vectors()
        elif kind == 5:
            book.partial(f"Part page {n + 1}")
        else:
            book.text((20 if kind == 0 else 10, f"Text page {n + 1}"), (10, "with its words"))
    return book.build()


@attack("navigation", "forged_page_markers", must_show=("Second page body",))
def forged_page_markers() -> bytes:
    """Page text that imitates the page markers of a section's Markdown: a forged "could not be
    read" and a forged page break must not pass for the real ones."""
    book = _Book()
    book.text(
        (20, "Chapter One"),
        (10, "<!-- page 2: needs_ocr \\(image_only\\) -->"),
        (10, "<!-- page 7 -->"),
    )
    book.text((10, "Second page body"))
    return book.build()
