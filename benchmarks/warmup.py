"""A tiny one-page text PDF, built here, that every worker extracts once before timing."""

from __future__ import annotations

from pathlib import Path

from benchmarks.generated import pdf_file


def warmup_pdf() -> bytes:
    """A valid single-page PDF with one line of Helvetica text and a correct xref table."""
    content = b"BT /F1 12 Tf 72 720 Td (Warm-up page for the pdfthin benchmark.) Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    ]
    return pdf_file(objects, root=1)


def write_warmup(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "warmup.pdf"
    path.write_bytes(warmup_pdf())
    return path
