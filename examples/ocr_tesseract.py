"""The local Tesseract binding now ships in the package: ``pdfthin.ocr.tesseract``.

    pdfthin read scan.pdf --ocr pdfthin.ocr.tesseract

This file stays so that ``--ocr examples/ocr_tesseract.py`` keeps working; it is the same
binding (poppler's ``pdftoppm`` renders, Tesseract reads, nothing leaves the machine).
"""

from __future__ import annotations

from pdfthin.ocr.tesseract import PdftoppmRasterizer, TesseractRecognizer, binding

__all__ = ["PdftoppmRasterizer", "TesseractRecognizer", "binding"]
