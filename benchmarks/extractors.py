"""What each engine does to one PDF, run inside a fresh worker or cold-start process.

Stdlib only at module level: this module is imported by every measured process, so its own
import cost must be negligible and identical for all engines. Each ``extract_*`` function
imports its library, opens ``path`` (with ``password`` when given) and returns one dict per
page: ``{"text": str}`` plus ``"status"`` (pdfthin) or ``"tables"`` (pdfplumber).
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing costs milliseconds to import; keep it out of measured processes
    from typing import Any

    Page = dict[str, Any]


def block_modules(names: list[str] | tuple[str, ...]) -> None:
    """Make ``import name`` fail, as if the optional package were not installed."""
    for name in names:
        sys.modules[name] = None  # type: ignore[assignment]


# --- imports (timed separately from extraction) -----------------------------------------------


def import_modules(names: list[str] | tuple[str, ...]) -> None:
    import importlib

    for name in names:
        importlib.import_module(name)


# --- pdfthin ----------------------------------------------------------------------------------


def extract_pdfthin(path: str, password: str | None) -> list[Page]:
    import pdfthin

    doc = pdfthin.open(path, password=password)
    return [
        {"text": page.markdown, "status": page.status, "reason": page.reason} for page in doc.pages
    ]


# --- pypdf ------------------------------------------------------------------------------------


def extract_pypdf(path: str, password: str | None) -> list[Page]:
    import logging

    from pypdf import PdfReader

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    reader = PdfReader(path, password=password)
    return [{"text": page.extract_text()} for page in reader.pages]


# --- pdfminer.six -----------------------------------------------------------------------------


def extract_pdfminer(path: str, password: str | None) -> list[Page]:
    from pdfminer.high_level import extract_text

    text = extract_text(path, password=password or "")
    # TextConverter ends every page with a form feed.
    pages = text.split("\f")
    if pages and pages[-1] == "":
        pages.pop()
    return [{"text": page} for page in pages]


# --- pdfplumber (text, plus its tables for the table metric) ---------------------------------


def extract_pdfplumber(path: str, password: str | None) -> list[Page]:
    import pdfplumber

    out: list[Page] = []
    with pdfplumber.open(path, password=password or "") as pdf:
        for page in pdf.pages:
            text = page.extract_text() or ""
            tables = [
                [[cell if cell is not None else "" for cell in row] for row in table]
                for table in page.extract_tables()
            ]
            out.append({"text": text, "tables": tables})
            page.close()
    return out


# --- pypdfium2 --------------------------------------------------------------------------------


def extract_pypdfium2(path: str, password: str | None) -> list[Page]:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(path, password=password)
    out: list[Page] = []
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            textpage = page.get_textpage()
            out.append({"text": textpage.get_text_range()})
            textpage.close()
            page.close()
    finally:
        pdf.close()
    return out


# --- PyMuPDF ----------------------------------------------------------------------------------


def _open_pymupdf(path: str, password: str | None) -> Any:
    import pymupdf

    doc = pymupdf.open(path)
    # PyMuPDF opens an encrypted file without complaint and reports it in ``needs_pass``, as
    # its documentation says to check; a caller that skips the check gets a ValueError later.
    if doc.needs_pass and (password is None or not doc.authenticate(password)):
        raise pymupdf.FileDataError(
            "document is encrypted" if password is None else "wrong password"
        )
    return doc


def extract_pymupdf(path: str, password: str | None) -> list[Page]:
    doc = _open_pymupdf(path, password)
    try:
        return [{"text": page.get_text()} for page in doc]
    finally:
        doc.close()


def extract_pymupdf4llm(path: str, password: str | None) -> list[Page]:
    """pymupdf4llm as installed: version 2 uses the PyMuPDF Layout model when present."""
    import pymupdf4llm

    doc = _open_pymupdf(path, password)
    try:
        chunks = pymupdf4llm.to_markdown(doc, page_chunks=True, use_ocr=False, show_progress=False)
        return [{"text": chunk["text"]} for chunk in chunks]
    finally:
        doc.close()


def extract_pymupdf4llm_legacy(path: str, password: str | None) -> list[Page]:
    """pymupdf4llm's rule-based converter (``use_layout(False)``), the pre-2.0 default."""
    import pymupdf4llm

    pymupdf4llm.use_layout(False)
    doc = _open_pymupdf(path, password)
    try:
        chunks = pymupdf4llm.to_markdown(doc, page_chunks=True, show_progress=False)
        return [{"text": chunk["text"]} for chunk in chunks]
    finally:
        doc.close()


# --- which exceptions count as a clean, documented error -------------------------------------


def is_clean_error(engine: str, exc: BaseException) -> bool:
    """A refusal in the library's own terms, as opposed to an unexpected traceback."""
    types = clean_error_types(engine)
    if types and isinstance(exc, types):
        return True
    # PyMuPDF surfaces MuPDF's own errors as RuntimeError("code=N: ...").
    return (
        engine.startswith("pymupdf") and type(exc) is RuntimeError and str(exc).startswith("code=")
    )


def clean_error_types(engine: str) -> tuple[type[BaseException], ...]:
    """The library's own error hierarchy: raising one of these is a clean refusal."""
    if engine.startswith("pdfthin"):
        import pdfthin

        return (pdfthin.PdfthinError,)
    if engine.startswith("pypdf") and not engine.startswith("pypdfium2"):
        import pypdf.errors

        # Every exception pypdf defines (DependencyError, for one, is not a PyPdfError).
        return tuple(
            value
            for value in vars(pypdf.errors).values()
            if isinstance(value, type)
            and issubclass(value, Exception)
            and value.__module__ == "pypdf.errors"
        )
    if engine == "pdfminer.six":
        from pdfminer.psexceptions import PSException

        return (PSException,)
    if engine == "pdfplumber":
        from pdfminer.psexceptions import PSException
        from pdfplumber.utils.exceptions import MalformedPDFException, PdfminerException

        return (PSException, PdfminerException, MalformedPDFException)
    if engine == "pypdfium2":
        import pypdfium2

        return (pypdfium2.PdfiumError,)
    if engine.startswith("pymupdf"):
        import pymupdf

        return (pymupdf.FileDataError, pymupdf.mupdf.FzErrorBase)
    return ()


EXTRACTORS = {
    "pdfthin": extract_pdfthin,
    "pdfthin-native": extract_pdfthin,
    "pypdf": extract_pypdf,
    "pypdf+fonttools": extract_pypdf,
    "pdfminer.six": extract_pdfminer,
    "pdfplumber": extract_pdfplumber,
    "pypdfium2": extract_pypdfium2,
    "pymupdf": extract_pymupdf,
    "pymupdf4llm": extract_pymupdf4llm,
    "pymupdf4llm-legacy": extract_pymupdf4llm_legacy,
}
