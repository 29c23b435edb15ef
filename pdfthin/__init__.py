"""pdfthin: read PDFs a piece at a time.

``import pdfthin`` is cheap: the engine (and pypdf) load on first use.

>>> import pdfthin
>>> doc = pdfthin.open("paper.pdf")          # doctest: +SKIP
>>> doc.page(1).status, doc.page(1).markdown  # doctest: +SKIP
>>> for chunk in pdfthin.chunks("paper.pdf"):  # doctest: +SKIP
...     chunk["chunk_id"], chunk["page"], chunk["bbox"], chunk["markdown"]
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

from pdfthin._version import __version__
from pdfthin.errors import PdfthinError

if TYPE_CHECKING:
    from pdfthin.engine import Limits
    from pdfthin.model import Document
    from pdfthin.operations.types import ChunkEntry

__all__ = ["PdfthinError", "__version__", "chunks", "open"]


def __dir__() -> list[str]:
    """The public API only (``dir(pdfthin)`` in a REPL): not the modules and names the
    package itself imports."""
    return sorted(__all__)


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


def chunks(
    source: str | os.PathLike[str] | bytes,
    *,
    pages: str | int | None = None,
    max_tokens: int | None = None,
    stitch: bool | None = None,
    password: str | None = None,
) -> Iterator[ChunkEntry]:
    """Every chunk of the document (or of ``pages``), in order and whole, as ``get_chunks``
    gives them (docs/api.md, "Chunks and exports"); made as they are taken. For JSON Lines
    and columns, see :mod:`pdfthin.exports`."""
    from pdfthin.exports import chunks as export_chunks

    return export_chunks(
        source, pages=pages, max_tokens=max_tokens, stitch=stitch, password=password
    )
