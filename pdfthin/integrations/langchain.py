"""A LangChain document loader: one ``Document`` per chunk (``pip install langchain-core``).

>>> from pdfthin.integrations.langchain import PdfthinLoader
>>> docs = PdfthinLoader("paper.pdf", max_tokens=300).load()  # doctest: +SKIP
>>> docs[0].page_content, docs[0].metadata["page"], docs[0].metadata["x0"]  # doctest: +SKIP
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

try:
    from langchain_core.document_loaders import BaseLoader
    from langchain_core.documents import Document
except ImportError as exc:  # pragma: no cover - the message is the point
    raise ImportError(
        "pdfthin.integrations.langchain needs langchain-core: pip install langchain-core"
    ) from exc

from pdfthin.exports import chunks
from pdfthin.integrations import chunk_metadata, document_id, source_name

if TYPE_CHECKING:
    from pdfthin.operations.types import ChunkEntry


class PdfthinLoader(BaseLoader):
    """A PDF's chunks as LangChain documents: the chunk's Markdown as ``page_content``, its
    place as metadata (:func:`pdfthin.integrations.chunk_metadata`), ``id`` stable per chunk.
    The keyword arguments are those of ``get_chunks`` (``pages``, ``max_tokens``, ``stitch``,
    ``password``); ``source`` names the file in the metadata (default: its path)."""

    def __init__(
        self,
        file_path: str | os.PathLike[str] | bytes,
        *,
        pages: str | int | None = None,
        max_tokens: int | None = None,
        stitch: bool | None = None,
        password: str | None = None,
        source: str | None = None,
    ) -> None:
        self.file_path = file_path
        self.pages, self.max_tokens, self.stitch = pages, max_tokens, stitch
        self.password = password
        self.source = source_name(file_path, source)

    def lazy_load(self) -> Iterator[Document]:
        for chunk in self._chunks(self.file_path):
            yield Document(
                id=document_id(self.source, chunk),
                page_content=chunk["markdown"],
                metadata=chunk_metadata(chunk, self.source),
            )

    def _chunks(self, file: str | os.PathLike[str] | bytes) -> Iterator[ChunkEntry]:
        return chunks(
            file,
            pages=self.pages,
            max_tokens=self.max_tokens,
            stitch=self.stitch,
            password=self.password,
        )
