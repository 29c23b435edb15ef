"""Native memory (issue 18, item 4): small files that made the native engine hold far more than
the pure one reads them with — where the native code made at once, or kept, what Python makes
one piece at a time or cuts short. On the native build before the fix each one passed the
harness's memory cap (or ended the child) while the pure engine read it in a few hundred MiB;
the figures are peak RSS of a child reading the whole document, pure against native.
"""

from __future__ import annotations

from pdfbuilder import PdfBuilder, Raw, Ref, Stream, object_stream_pdf

from hostile import attack

#: Operations in the CMap of :func:`cmap_left_to_python` (4 bytes each): 40 MB inflated from
#: a 40 KB stream.
CMAP_OPERATIONS = 10_000_000
#: The inline image of :func:`inline_image_drawn_again` (bytes) and how often it is drawn.
INLINE_IMAGE_BYTES = 8 << 20
INLINE_IMAGE_DRAWS = 120
#: The object stream of :func:`object_stream_of_large_arrays`: arrays of zeros.
ARRAYS = 3_000
ARRAY_ITEMS = 9_000


def _page(b: PdfBuilder, content: bytes, resources: dict[str, object]) -> None:
    """A page whose content stream is compressed (whatever the builder's default)."""
    page = {
        "Type": "/Page",
        "Parent": b.pages_ref,
        "MediaBox": [0, 0, 612, 792],
        "Resources": resources,
        "Contents": b.add(Stream(content, {}, True)),
    }
    b.page_refs.append(b.add(page))


@attack("native", "cmap_left_to_python", must_show=("A visible sentence",))
def cmap_left_to_python() -> bytes:
    """A ToUnicode CMap the native parser leaves to Python (a CID beyond what it reads
    exactly), followed by ten million operations. Python's CMap parser then asks the native
    tokenizer for the operations, which made all of them at once: 2024 MiB natively against
    118 MiB pure (tokenize is now an iterator: 120 MiB). Python then spent 28 s of CPU on each
    reading of the font; only the first MAX_CMAP_BYTES of a CMap are now read (3 s)."""
    head = b"1 begincidrange <00> <01> 100000000000000000000 endcidrange\n"
    cmap = head + b"0 a " * CMAP_OPERATIONS
    b = PdfBuilder()
    font = b.font_standard("Helvetica", to_unicode=b.add(Stream(cmap, {}, True)))
    _page(b, b"BT /F1 12 Tf 72 700 Td (A visible sentence) Tj ET", {"Font": {"F1": font}})
    return b.build()


@attack("native", "inline_image_drawn_again", must_show=("A visible sentence",))
def inline_image_drawn_again() -> bytes:
    """A Form XObject holding an 8 MB inline image (zeros: 9 KB compressed), drawn 120
    times. A placement keeps the first MAX_INLINE_IMAGE bytes of an image; the native
    interpreter kept all of them for each drawing until the page was done (and copied them
    once more for Python): about 2 GB natively against 240 MiB pure."""
    image = b"BI /W 4096 /H 2048 /CS /G /BPC 8 ID " + b"\0" * INLINE_IMAGE_BYTES + b"\nEI"
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    form = b.add(
        Stream(image, {"Type": "/XObject", "Subtype": "/Form", "BBox": [0, 0, 10, 10]}, True)
    )
    draws = b"".join(b"q 1 0 0 1 %d 0 cm /Fm Do Q\n" % i for i in range(INLINE_IMAGE_DRAWS))
    content = b"BT /F1 12 Tf 72 700 Td (A visible sentence) Tj ET\n" + draws
    _page(b, content, {"Font": {"F1": font}, "XObject": {"Fm": form}})
    return b.build()


@attack("native", "object_stream_of_large_arrays", must_show=("A visible sentence",))
def object_stream_of_large_arrays() -> bytes:
    """An object stream (77 KB compressed) holding the page and 3,000 arrays of 9,000 zeros
    each, none of them used. pypdf reads the one object it is asked for; the native reader read
    them all at once, 27 million objects: 3006 MiB natively against 145 MiB pure (now at most
    MAX_OBJECT_STREAM_VALUES values are read natively from one stream, pypdf reads the rest)."""
    font = {"Type": "/Font", "Subtype": "/Type1", "BaseFont": "/Helvetica"}
    page = {"Type": "/Page", "Parent": Ref(2), "MediaBox": [0, 0, 612, 792]}
    page.update({"Contents": Ref(4), "Resources": {"Font": {"F1": font}}})
    zeros = Raw(b"[" + b"0 " * ARRAY_ITEMS + b"]")
    return object_stream_pdf(
        [
            (1, {"Type": "/Catalog", "Pages": Ref(2)}),
            (2, {"Type": "/Pages", "Kids": [Ref(3)], "Count": 1}),
            (3, page),
            *((5, zeros) for _ in range(ARRAYS)),
        ],
        {4: Stream(b"BT /F1 12 Tf 72 700 Td (A visible sentence) Tj ET", {}, True)},
    )
