"""A local OCR binding: poppler's ``pdftoppm`` renders a page, Tesseract reads it.

Nothing leaves the machine (invariant 8): both are programs run as child processes on
temporary files. Neither is a dependency of the package; they come from the system (Debian:
``poppler-utils`` and ``tesseract-ocr``). A missing one is a one-line ``ocr_unavailable``
error naming it, raised when a page needs it (a command that needs no OCR never looks).
Use it with::

    pdfthin read scan.pdf --ocr pdfthin.ocr.tesseract
    pdfthin serve ./docs --ocr pdfthin.ocr.tesseract

or in Python: ``Context(ocr=load_binding("pdfthin.ocr.tesseract"))``, or build an
:class:`~pdfthin.ocr.OcrBinding` from :class:`PdftoppmRasterizer` and
:class:`TesseractRecognizer` with limits of your own.
Environment: ``PDFTHIN_OCR_LANG`` (Tesseract languages, default ``eng``), ``PDFTHIN_OCR_DPI``
(default 200).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from pdfthin.errors import PdfthinError
from pdfthin.ocr import OcrBinding, Signal

__all__ = ["PdftoppmRasterizer", "TesseractRecognizer", "binding", "make_binding"]

#: Seconds one external program may run for one page.
PROGRAM_SECONDS = 120
#: The Debian package that carries each program, for the error that names a missing one.
PACKAGES = {"pdftoppm": "poppler-utils", "tesseract": "tesseract-ocr"}
#: Characters of a failing program's stderr quoted in the error (its last line says why).
QUOTED_STDERR = 200


def missing_program(program: str) -> PdfthinError:
    return PdfthinError(
        "ocr_unavailable",
        f"the OCR program {program!r} is not installed or not on PATH "
        f"(Debian: apt-get install {PACKAGES.get(program, program)})",
        program=program,
    )


def run_program(args: list[str]) -> bytes:
    """``args`` run with a time limit; its stdout. A missing program or a failure is an
    ``ocr_unavailable`` error naming the program."""
    program = args[0]
    if shutil.which(program) is None:
        raise missing_program(program)
    try:
        done = subprocess.run(args, check=False, capture_output=True, timeout=PROGRAM_SECONDS)
    except FileNotFoundError:  # removed between the look and the start
        raise missing_program(program) from None
    except subprocess.TimeoutExpired:
        raise PdfthinError(
            "ocr_unavailable",
            f"the OCR program {program!r} ran past {PROGRAM_SECONDS} s on one page",
            program=program,
        ) from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", errors="replace").strip().splitlines()
        why = said[-1][:QUOTED_STDERR] if said else "no message"
        raise PdfthinError(
            "ocr_unavailable",
            f"the OCR program {program!r} failed (exit {done.returncode}): {why}",
            program=program,
        )
    return done.stdout


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
                n = str(page)
                # The page as displayed: its crop box (pdftoppm draws the media box unless
                # told), as pdfthin's boxes and a reader of the page see it.
                options = ["-r", str(dpi), "-f", n, "-l", n, "-cropbox", "-png", "-singlefile"]
                run_program(["pdftoppm", *options, str(source), str(prefix)])
                image = prefix.with_suffix(".png")
                out.append({"page": page, "image": image.read_bytes(), "media_type": "image/png"})
        return out


class TesseractRecognizer:
    """Page images to text with the ``tesseract`` command; paragraphs become Markdown
    paragraphs, and the mean word confidence is reported."""

    def __init__(self, languages: str = "eng") -> None:
        self.languages = languages
        self.name = f"tesseract-{languages}"
        #: A region's image is its crop (rendered from a PDF cut to it): read as a page is.
        self.supports_regions = True

    def recognize(self, pages: list[dict[str, Any]], signal: Signal) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        with tempfile.TemporaryDirectory(prefix="pdfthin-ocr-") as tmp:
            for item in pages:
                if signal.cancelled:
                    break
                image = Path(tmp) / f"page-{item['page']}.png"
                image.write_bytes(item["image"])
                text = self._run(image, "txt")
                confidence = mean_confidence(self._run(image, "tsv"))
                out.append(
                    {"page": item["page"], "markdown": paragraphs(text), "confidence": confidence}
                )
        return out

    def _run(self, image: Path, config: str) -> str:
        args = ["tesseract", str(image), "stdout", "-l", self.languages, config]
        return run_program(args).decode("utf-8", errors="replace")


def paragraphs(text: str) -> str:
    """Tesseract's text as Markdown paragraphs: its blank lines part them, its line breaks
    inside one are spaces."""
    blocks = [" ".join(block.split()) for block in re.split(r"\n\s*\n", text)]
    return "\n\n".join(block for block in blocks if block)


#: Columns of Tesseract's TSV output; the 11th is a word's confidence (0-100, -1 for a
#: non-word row) and the 12th its text.
_TSV_COLUMNS = 12


def mean_confidence(tsv: str) -> float | None:
    """The mean confidence (0-1) of the words in Tesseract's TSV output."""
    values = []
    for line in tsv.splitlines()[1:]:
        fields = line.split("\t")
        if len(fields) == _TSV_COLUMNS and fields[11].strip():
            try:
                value = float(fields[10])
            except ValueError:
                continue
            if value >= 0:
                values.append(value / 100.0)
    return round(sum(values) / len(values), 3) if values else None


def make_binding() -> OcrBinding:
    """The binding with the environment's languages and resolution."""
    dpi = os.environ.get("PDFTHIN_OCR_DPI", "200")
    if not dpi.isdigit():
        raise PdfthinError("ocr_unavailable", f"PDFTHIN_OCR_DPI must be a number; got {dpi!r}")
    return OcrBinding(
        PdftoppmRasterizer(),
        TesseractRecognizer(os.environ.get("PDFTHIN_OCR_LANG", "eng")),
        dpi=int(dpi),
        max_pages_per_call=4,
        timeout=300.0,
    )


binding = make_binding()
