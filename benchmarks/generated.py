"""Documents of any length, written by the benchmark itself: no corpus file is needed to ask
how the cost of a first answer grows with the page count.

Each page looks like a page of a report: a running header and a page number, a section heading
every few pages, and paragraphs of words drawn from a fixed vocabulary with a fixed seed, so the
same call always writes the same bytes. Text is drawn in the standard Helvetica fonts (no font
program embedded), one content stream per page, compressed like most real files.
"""

from __future__ import annotations

import random
import zlib
from pathlib import Path

#: Words of the generated paragraphs; common English, so de-hyphenation and search see words.
_VOCABULARY = (
    "the of and to in is that for it as was with be by on not he this are or his from at which "
    "but have an they you were her she there been one all we their has would when what if will "
    "more no out so said up about than into them can only other new some could time these two "
    "may then do first any my now such like our over man me even most made after also did many "
    "before must through back years where much your way well down should because each just "
    "those people how too little state good very make world still own see men work long get "
    "here between both life being under never day same another know while last might us great "
    "old year off come since against go came right used take three report measure section"
).split()

PAGE_WIDTH = 612
PAGE_HEIGHT = 792
_MARGIN = 72
_BODY_SIZE = 10
_LEADING = 12.5
_LINES_PER_PAGE = 46
_WORDS_PER_LINE = 13
#: A section heading opens every this many pages.
_SECTION_EVERY = 4


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _page_content(number: int, rng: random.Random) -> bytes:
    ops: list[str] = []

    def show(font: str, size: float, x: float, y: float, text: str) -> None:
        ops.append(f"BT /{font} {size} Tf {x:.2f} {y:.2f} Td ({_escape(text)}) Tj ET")

    # The body starts below the band where running headers are looked for, so that the
    # section headings are read as headings (a heading in that band that repeats with only its
    # number changed looks like a running header).
    top = PAGE_HEIGHT - _MARGIN - 3 * _LEADING
    show("F1", 8, _MARGIN, PAGE_HEIGHT - 40, "Generated report: first answers and page counts")
    show("F1", 8, PAGE_WIDTH / 2, 40, str(number))
    y = top
    if number % _SECTION_EVERY == 1:
        show("F2", 16, _MARGIN, y, f"{number // _SECTION_EVERY + 1}. Section on page {number}")
        y -= 2.5 * _LEADING
    line_in_paragraph = 0
    while y > _MARGIN:
        words = [rng.choice(_VOCABULARY) for _ in range(_WORDS_PER_LINE)]
        if line_in_paragraph == 0:
            words[0] = words[0].capitalize()
        line_in_paragraph += 1
        if line_in_paragraph == 9:
            show("F1", _BODY_SIZE, _MARGIN, y, " ".join(words) + ".")
            line_in_paragraph = 0
            y -= 2 * _LEADING
            continue
        show("F1", _BODY_SIZE, _MARGIN, y, " ".join(words))
        y -= _LEADING
    return "\n".join(ops).encode("latin-1")


def write_document(path: Path, pages: int, seed: int = 1) -> Path:
    """A ``pages``-page PDF at ``path`` (the same bytes for the same arguments)."""
    rng = random.Random(seed)
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # filled in once the page tree's number is known
    fonts = add(
        b"<< /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
        b" /F2 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold"
        b" /Encoding /WinAnsiEncoding >> >>"
    )
    tree = add(b"")
    kids: list[int] = []
    for number in range(1, pages + 1):
        data = zlib.compress(_page_content(number, rng))
        stream = add(
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream"
        )
        kids.append(
            add(
                b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %d %d] /Resources << /Font %d 0 R >>"
                b" /Contents %d 0 R >>" % (tree, PAGE_WIDTH, PAGE_HEIGHT, fonts, stream)
            )
        )
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % tree
    objects[tree - 1] = b"<< /Type /Pages /Count %d /Kids [%s] >>" % (
        pages,
        b" ".join(b"%d 0 R" % k for k in kids),
    )
    path.write_bytes(pdf_file(objects, root=catalog, version=b"1.7"))
    return path


def pdf_file(objects: list[bytes], root: int, version: bytes = b"1.4") -> bytes:
    """A PDF of ``objects`` (object ``i + 1`` is ``objects[i]``) with the catalog ``root``
    and a correct cross-reference table."""
    out = bytearray(b"%PDF-" + version + b"\n%\xe2\xe3\xcf\xd3\n")
    offsets: list[int] = []
    for index, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % index + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        root,
        xref,
    )
    return bytes(out)
