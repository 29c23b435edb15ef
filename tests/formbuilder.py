"""Form fixtures for tests: pages with label text and an AcroForm whose fields and widgets are
stated object by object (:class:`pdfbuilder.PdfBuilder`), so a test decides every entry, also
the wrong ones an attacker writes (cycles, wrong types, huge arrays)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pdfbuilder import PdfBuilder, Ref

#: The page's text size: labels are set in it.
SIZE = 12


class FormBuilder:
    def __init__(self) -> None:
        self.pdf = PdfBuilder()
        self.font = self.pdf.font_standard("Helvetica")
        self.fields: list[Any] = []
        self.acroform: dict[str, Any] = {"DA": b"/Helv 0 Tf 0 g"}

    def page(
        self, texts: Sequence[tuple[float, float, str]] = (), *, rotate: int | None = None
    ) -> Ref:
        """A page drawing each ``(x, y, text)`` (PDF user space: y up) in 12 pt Helvetica."""
        ops = b"".join(
            b"BT /F1 %d Tf %g %g Td (%s) Tj ET\n" % (SIZE, x, y, text.encode("latin-1"))
            for x, y, text in texts
        )
        return self.pdf.add_page(ops, {"Font": {"F1": self.font}}, rotate=rotate)

    def widget(self, page: Ref, rect: Any, **entries: Any) -> Ref:
        """A widget annotation on ``page`` (listed in its /Annots), with ``entries``; ``rect``
        as given (a test may give a wrong one)."""
        box = list(rect) if isinstance(rect, (list, tuple)) else rect
        ref = self.pdf.add(
            {"Type": "/Annot", "Subtype": "/Widget", "Rect": box, "P": page, **entries}
        )
        self.pdf.get(page).setdefault("Annots", []).append(ref)
        return ref

    def field(self, page: Ref | None, rect: Any, **entries: Any) -> Ref:
        """A top-level field merged with its widget (``page`` and ``rect``), or a field with
        no widget (``None``)."""
        if page is None or rect is None:
            ref = self.pdf.add(dict(entries))
        else:
            ref = self.widget(page, rect, **entries)
        self.fields.append(ref)
        return ref

    def appearance(self, text: str, width: float, height: float) -> Ref:
        """A normal appearance stream drawing ``text`` (what a viewer shows in the box)."""
        return self.pdf.stream(
            b"/Tx BMC BT /F1 10 Tf 2 4 Td (%s) Tj ET EMC" % text.encode("latin-1"),
            Type="/XObject",
            Subtype="/Form",
            BBox=[0, 0, width, height],
            Resources={"Font": {"F1": self.font}},
        )

    def check_states(self, on: str) -> dict[str, Any]:
        """A button's normal appearances: ``on`` and ``Off`` (empty boxes)."""
        box = self.pdf.stream(b"", Type="/XObject", Subtype="/Form", BBox=[0, 0, 10, 10])
        return {"N": {on: box, "Off": box}}

    def build(self, fields: Any = None, **acroform: Any) -> bytes:
        self.acroform.update(acroform)
        self.acroform.setdefault("Fields", self.fields if fields is None else fields)
        self.pdf.catalog["AcroForm"] = self.pdf.add(self.acroform)
        return self.pdf.build()
