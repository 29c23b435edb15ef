"""A plain document: the harness itself must pass it on every path."""

from __future__ import annotations

from pdfbuilder import simple_pdf

from hostile import attack


@attack("smoke", "plain", must_show=("Hello hostile world",))
def plain() -> bytes:
    return simple_pdf(b"BT /F1 12 Tf 72 700 Td (Hello hostile world) Tj ET")
