"""A citation's page: one page of a document, cut to a region and with passages highlighted,
written as a one-page PDF that a rasterizer (:class:`pdfthin.ocr.Rasterizer`) turns into an
image.

Nothing is drawn in pixels here. The page's content becomes a form XObject (so whatever
graphics state it leaves behind, an unbalanced ``q`` or a changed matrix, ends with it),
drawn first; over it, each highlighted box is filled in yellow under the ``/Multiply`` blend
mode (ink stays ink, paper turns yellow: the text stays readable). The page's boxes are all
set to the region, so a rasterizer renders the region alone whichever box it uses (pdftoppm
renders the media box unless told otherwise); ``/Rotate`` is kept, so the image shows the
region as the page is displayed. The file is written unencrypted, in memory: the caller hands
its bytes to the rasterizer, never to a shared path.

Boxes come in the page's displayed coordinates (points, origin top left, y down, after its
``/Rotate`` and crop box), the coordinates of every box pdfthin answers with; they are turned
back into user space by the inverse of :func:`~pdfthin.engine.content.interpreter.display_matrix`.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any, cast

from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, NameObject

from pdfthin.engine.content.interpreter import Matrix, display_matrix

#: A box ``(x0, y0, x1, y1)``.
Box = tuple[float, float, float, float]

#: The highlight's colour (RGB, 0-1): a marker yellow, multiplied into the page.
HIGHLIGHT_RGB = (1.0, 0.85, 0.0)
#: Its opacity: under /Multiply, white paper becomes a clear yellow and black ink stays black;
#: a renderer that ignores blend modes still shows the text through it.
HIGHLIGHT_OPACITY = 0.6
#: Annotations left out of a citation's page: links (invisible, and their destinations pull
#: other pages in) and pop-ups (the note windows of comments, which viewers show closed).
SKIPPED_ANNOTATIONS = ("/Link", "/Popup")
#: What an annotation keeps no reference to in the copy: its page, its parent field, its
#: pop-up, the annotation it replies to, its actions and destinations (each leads to other
#: pages or objects that drawing it never needs).
ANNOTATION_LINKS = ("/P", "/Parent", "/Popup", "/IRT", "/A", "/AA", "/Dest")
#: The most annotations copied: what a page can show is bounded anyway.
MAX_ANNOTATIONS = 500
_FORM = "/PdfthinPage"
_HIGHLIGHT = "/PdfthinHighlight"


def inverse(m: Matrix) -> Matrix:
    """The inverse of an affine matrix ``(a, b, c, d, e, f)`` (the display matrices are
    rotations and flips: never singular)."""
    a, b, c, d, e, f = m
    det = a * d - b * c
    ia, ib, ic, id_ = d / det, -b / det, -c / det, a / det
    return (ia, ib, ic, id_, -(e * ia + f * ic), -(e * ib + f * id_))


def to_user(box: Box, rotation: int, rect: Box) -> Box:
    """``rect`` on the displayed page (top-left origin) as a box in the page's user space."""
    a, b, c, d, e, f = inverse(display_matrix(box, rotation))
    x0, y0, x1, y1 = rect
    xs, ys = [], []
    for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
        xs.append(a * x + c * y + e)
        ys.append(b * x + d * y + f)
    return (min(xs), min(ys), max(xs), max(ys))


def _number(value: float) -> bytes:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return (text if text not in ("", "-0") else "0").encode("ascii")


def overlay(boxes: Sequence[Box]) -> bytes:
    """The content drawn over the page: each box (user space) filled with the highlight."""
    if not boxes:
        return b""  # the page alone (get_page_image): nothing to fill
    r, g, b = (_number(v) for v in HIGHLIGHT_RGB)
    parts = [b"q %s gs %s %s %s rg" % (_HIGHLIGHT.encode(), r, g, b)]
    for x0, y0, x1, y1 in boxes:
        parts.append(b"%s %s %s %s re" % tuple(_number(v) for v in (x0, y0, x1 - x0, y1 - y0)))
    parts.append(b"f Q")
    return b"\n".join(parts) + b"\n"


def _rectangle(box: Box) -> bytes:
    return b"[%s]" % b" ".join(_number(v) for v in box)


def skeleton(content: bytes, box: Box, rotation: int, region: Box, drawn: bytes) -> bytes:
    """A one-page PDF, written here byte for byte: the page shows ``region`` (user space) with
    ``/Rotate`` ``rotation``, and draws ``drawn`` over its form XObject, which holds the
    page's ``content`` (its resources are given in the writer: :func:`citation_pdf`)."""
    state = b"<< /Type /ExtGState /BM /Multiply /ca %s >>" % _number(HIGHLIGHT_OPACITY)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox %s /CropBox %s /Rotate %d "
        b"/Resources << /XObject << %s 5 0 R >> /ExtGState << %s %s >> >> /Contents 4 0 R >>"
        % (
            _rectangle(region),
            _rectangle(region),
            rotation,
            _FORM.encode(),
            _HIGHLIGHT.encode(),
            state,
        ),
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(drawn), drawn),
        b"<< /Type /XObject /Subtype /Form /BBox %s /Length %d >>\nstream\n%s\nendstream"
        % (_rectangle(box), len(content), content),
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\n" % (len(objects) + 1))
    out.write(b"startxref\n%d\n%%%%EOF\n" % xref)
    return out.getvalue()


def citation_pdf(
    content: bytes,
    resources: Any,
    annotations: Sequence[Any],
    box: Box,
    rotation: int,
    region: Box,
    highlights: Sequence[Box],
) -> bytes:
    """The one-page PDF of a citation: the page (its ``content`` bytes, its ``resources`` and
    its ``annotations``, pypdf objects of the source), showing ``region`` with ``highlights``
    filled; ``box`` is the page's displayed box in user space (its crop box, else its media
    box) and ``rotation`` its ``/Rotate``. ``region`` and ``highlights`` are on the displayed
    page."""
    user_boxes = [to_user(box, rotation, rect) for rect in highlights]
    drawn = b"q %s Do Q\n" % _FORM.encode() + overlay(user_boxes)
    base = skeleton(content, box, rotation, to_user(box, rotation, region), drawn)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(base)))
    page = writer.pages[0]
    if isinstance(resources, DictionaryObject):
        own = cast("DictionaryObject", page["/Resources"])
        form = cast(
            "DictionaryObject", cast("DictionaryObject", own["/XObject"])[_FORM].get_object()
        )
        form[NameObject("/Resources")] = resources.clone(writer)
    kept = ArrayObject()
    for annotation in annotations[:MAX_ANNOTATIONS]:
        if not isinstance(annotation, DictionaryObject):
            continue
        if annotation.get("/Subtype") in SKIPPED_ANNOTATIONS:
            continue
        copy = annotation.clone(writer, ignore_fields=ANNOTATION_LINKS)
        kept.append(copy.indirect_reference or copy)
    if kept:
        page[NameObject("/Annots")] = kept
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
