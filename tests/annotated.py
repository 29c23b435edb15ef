"""A generated PDF with one of each annotation pdfthin lists (tests/test_annotations.py), its
words drawn at known places so that the text under each box is known."""

from __future__ import annotations

from typing import Any

from pdfbuilder import PdfBuilder, Stream

#: (text, x, baseline) of page 1, Helvetica 12: each piece its own run, far from the others.
PAGE_ONE = [
    ("Visit the", 72, 700),
    ("project site", 200, 700),
    ("for details.", 330, 700),
    ("Also", 72, 650),
    ("see page two", 200, 650),
    ("and the", 330, 650),
    ("chapter", 400, 650),
    ("Some", 72, 600),
    ("highlighted words", 200, 600),
    ("here.", 330, 600),
]
SIZE = 12
#: Helvetica's widths are under 0.6 em a character for these words.
CHAR_WIDTH = 0.6 * SIZE
ATTACHED = b"hello"
EMBEDDED = b"a,b\n1,2\n"


def _content(pieces: list[tuple[str, float, float]]) -> bytes:
    out = b""
    for text, x, y in pieces:
        out += b"BT /F1 %d Tf %g %g Td (%s) Tj ET\n" % (SIZE, x, y, text.encode("latin-1"))
    return out


def rect_of(text: str, pieces: list[tuple[str, float, float]] = PAGE_ONE) -> list[float]:
    """A link rectangle around ``text`` as drawn (user space), a little loose as writers draw."""
    for piece, x, y in pieces:
        if piece == text:
            return [x - 1, y - 3, x + len(text) * CHAR_WIDTH * 0.85, y + SIZE - 1]
    raise KeyError(text)


def quads_of(text: str) -> list[float]:
    x0, y0, x1, y1 = rect_of(text)
    return [x0, y1, x1, y1, x0, y0, x1, y0]


def annotated_pdf(*, rotate_third: bool = True) -> bytes:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    res: dict[str, Any] = {"Font": {"F1": font}}
    page1 = b.add_page(_content(PAGE_ONE), res)
    b.add_page(_content([("Chapter two", 72, 700)]), res)
    third = [("Turned link", 100, 500)]
    b.add_page(_content(third), res, rotate=90 if rotate_third else None)
    b.set_dests_name_tree({"chapter": b.page_dest(1)})

    attached = b.add(Stream(ATTACHED, {"Type": "/EmbeddedFile", "Params": {"Size": 5}}))
    popup = b.add({"Type": "/Annot", "Subtype": "/Popup", "Rect": [0, 0, 10, 10]})
    annots = [
        {
            "Subtype": "/Link",
            "Rect": rect_of("project site"),
            "A": {"S": "/URI", "URI": b"https://example.com/project"},
        },
        {
            "Subtype": "/Link",
            "Rect": rect_of("see page two"),
            "A": {"S": "/GoTo", "D": b.page_dest(1)},
        },
        {"Subtype": "/Link", "Rect": rect_of("chapter"), "Dest": "chapter"},
        {
            "Subtype": "/Text",
            "Rect": [500, 700, 520, 720],
            "T": "Ann Reviewer",
            "Contents": "Please check this.",
            "M": "D:20240131120000+01'00'",
            "Name": "/Comment",
            "Popup": popup,
        },
        popup,
        {
            "Subtype": "/Highlight",
            "Rect": rect_of("highlighted words"),
            "QuadPoints": quads_of("highlighted words"),
            "T": "Ann Reviewer",
        },
        {
            "Subtype": "/FreeText",
            "Rect": [72, 500, 300, 520],
            "Contents": "A typed remark",
            "DA": "/Helv 10 Tf 0 g",
        },
        {"Subtype": "/Stamp", "Rect": [400, 400, 500, 450], "Name": "/Approved"},
        {
            "Subtype": "/FileAttachment",
            "Rect": [72, 300, 90, 320],
            "FS": {"Type": "/Filespec", "F": "notes.txt", "UF": "notes.txt", "EF": {"F": attached}},
        },
        {"Subtype": "/Widget", "Rect": [72, 200, 200, 220], "FT": "/Tx", "T": "field"},
        {"Subtype": "/Square", "Rect": [300, 200, 350, 250]},
    ]
    page = b.get(page1)
    page["Annots"] = [b.add({"Type": "/Annot", **a}) if isinstance(a, dict) else a for a in annots]
    turned = b.get(b.page_refs[2])
    turned["Annots"] = [
        b.add(
            {
                "Type": "/Annot",
                "Subtype": "/Link",
                "Rect": rect_of("Turned link", third),
                "A": {"S": "/URI", "URI": b"http://example.org/"},
            }
        )
    ]
    embedded = b.add(Stream(EMBEDDED, {"Type": "/EmbeddedFile", "Length": len(EMBEDDED)}))
    spec = b.add(
        {
            "Type": "/Filespec",
            "F": "data.csv",
            "UF": "data.csv",
            "Desc": "the table's data",
            "EF": {"F": embedded},
        }
    )
    names = b.catalog.setdefault("Names", {})
    names["EmbeddedFiles"] = b.add({"Names": ["data.csv", spec]})
    return b.build()
