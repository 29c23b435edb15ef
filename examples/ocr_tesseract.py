"""A local OCR binding for pdfthin: poppler's ``pdftoppm`` renders, Tesseract reads.

Nothing leaves the machine. Needs the Debian packages ``poppler-utils`` and ``tesseract-ocr``
(or the same programs on PATH). Use it with::

    pdfthin read scan.pdf --ocr examples/ocr_tesseract.py
    pdfthin serve ./docs --ocr examples/ocr_tesseract.py

or in Python: ``Context(ocr=load_binding("examples/ocr_tesseract.py"))``.
Environment: ``PDFTHIN_OCR_LANG`` (Tesseract languages, default ``eng``), ``PDFTHIN_OCR_DPI``.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from pdfthin.ocr import OcrBinding, Signal

#: Seconds one external program may run for one page.
PROGRAM_SECONDS = 120


class PdftoppmRasterizer:
    """Pages to PNG with ``pdftoppm`` (one call per page, so a cancel stops between pages)."""

    def render(
        self, pdf: bytes, pages: list[int], dpi: int, signal: Signal
    ) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        with tempfile.TemporaryDirectory(prefix="pdfthin-ocr-") as tmp:
            source = Path(tmp) / "document.pdf"
            source.write_bytes(pdf)
            for page in pages:
                if signal.cancelled:
                    break
                prefix = Path(tmp) / f"page-{page}"
                subprocess.run(
                    [
                        "pdftoppm",
                        "-r",
                        str(dpi),
                        "-f",
                        str(page),
                        "-l",
                        str(page),
                        "-png",
                        "-singlefile",
                        str(source),
                        str(prefix),
                    ],
                    check=True,
                    capture_output=True,
                    timeout=PROGRAM_SECONDS,
                )
                image = prefix.with_suffix(".png")
                out.append({"page": page, "image": image.read_bytes(), "media_type": "image/png"})
        return out


class TesseractRecognizer:
    """Page images to text with the ``tesseract`` command; paragraphs become Markdown
    paragraphs, and the mean word confidence is reported."""

    def __init__(self, languages: str = "eng") -> None:
        self.languages = languages
        self.name = f"tesseract-{languages}"

    def recognize(self, pages: list[dict[str, Any]], signal: Signal) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        with tempfile.TemporaryDirectory(prefix="pdfthin-ocr-") as tmp:
            for item in pages:
                if signal.cancelled:
                    break
                image = Path(tmp) / f"page-{item['page']}.png"
                image.write_bytes(item["image"])
                text = self._run(image, "txt")
                confidence = _mean_confidence(self._run(image, "tsv"))
                out.append(
                    {"page": item["page"], "markdown": _paragraphs(text), "confidence": confidence}
                )
        return out

    def _run(self, image: Path, config: str) -> str:
        done = subprocess.run(
            ["tesseract", str(image), "stdout", "-l", self.languages, config],
            check=True,
            capture_output=True,
            timeout=PROGRAM_SECONDS,
        )
        return done.stdout.decode("utf-8", errors="replace")


def _paragraphs(text: str) -> str:
    blocks = [" ".join(block.split()) for block in re.split(r"\n\s*\n", text)]
    return "\n\n".join(block for block in blocks if block)


def _mean_confidence(tsv: str) -> float | None:
    values = []
    for line in tsv.splitlines()[1:]:
        fields = line.split("\t")
        if len(fields) == 12 and fields[11].strip():
            try:
                value = float(fields[10])
            except ValueError:
                continue
            if value >= 0:
                values.append(value / 100.0)
    return round(sum(values) / len(values), 3) if values else None


binding = OcrBinding(
    PdftoppmRasterizer(),
    TesseractRecognizer(os.environ.get("PDFTHIN_OCR_LANG", "eng")),
    dpi=int(os.environ.get("PDFTHIN_OCR_DPI", "200")),
    max_pages_per_call=4,
    timeout=300.0,
)
