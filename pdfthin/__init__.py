"""pdfthin: read PDFs a piece at a time.

``import pdfthin`` is cheap: the engine (and pypdf) load on first use.

>>> import pdfthin
>>> doc = pdfthin.open("paper.pdf")          # doctest: +SKIP
>>> doc.page(1).status, doc.page(1).markdown  # doctest: +SKIP
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from pdfthin._version import __version__
from pdfthin.errors import PdfthinError

if TYPE_CHECKING:
    from pdfthin.engine import Limits
    from pdfthin.model import Document

__all__ = ["PdfthinError", "__version__", "open"]


def open(
    source: str | os.PathLike[str] | bytes,
    password: str | None = None,
    limits: Limits | None = None,
) -> Document:
    """Open a PDF (path or bytes) as a :class:`~pdfthin.model.Document`: its facts and
    profile now, each page when it is first asked for (the document keeps the file open)."""
    from pdfthin.engine import open_pdf
    from pdfthin.engine.gcpause import collection_paused
    from pdfthin.model import build_document

    with collection_paused():  # opening too, not only building (see engine/gcpause.py)
        engine = open_pdf(source, password=password, limits=limits)
        try:
            return build_document(engine)
        except BaseException:
            engine.close()  # the parsed PDF freed now, not by the cyclic collector
            raise
