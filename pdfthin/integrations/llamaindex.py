"""A LlamaIndex reader: one ``Document`` per chunk (``pip install llama-index-core``).

>>> from pdfthin.integrations.llamaindex import PdfthinReader
>>> docs = PdfthinReader(max_tokens=300).load_data("paper.pdf")  # doctest: +SKIP
>>> docs[0].text, docs[0].metadata["page"], docs[0].metadata["x0"]  # doctest: +SKIP
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

try:
    from llama_index.core.readers.base import BaseReader
    from llama_index.core.schema import Document
except ImportError as exc:  # pragma: no cover - the message is the point
    raise ImportError(
        "pdfthin.integrations.llamaindex needs llama-index-core: pip install llama-index-core"
    ) from exc

from pdfthin.exports import chunks
from pdfthin.integrations import LOCATING_KEYS, chunk_metadata, document_id, source_name

if TYPE_CHECKING:
    from pdfthin.operations.types import ChunkEntry


class PdfthinReader(BaseReader):
    """PDFs' chunks as LlamaIndex documents: the chunk's Markdown as ``text``, its place as
    metadata (:func:`pdfthin.integrations.chunk_metadata`; the box, id and kind are kept out
    of what is embedded and shown to a model), ``id_`` stable per chunk. The keyword arguments
    are those of ``get_chunks`` (``pages``, ``max_tokens``, ``stitch``, ``password``)."""

    def __init__(
        self,
        *,
        pages: str | int | None = None,
        max_tokens: int | None = None,
        stitch: bool | None = None,
        password: str | None = None,
    ) -> None:
        super().__init__()
        self.pages, self.max_tokens, self.stitch = pages, max_tokens, stitch
        self.password = password

    def lazy_load_data(
        self,
        file: str | os.PathLike[str] | bytes,
        extra_info: dict[str, Any] | None = None,
        source: str | None = None,
    ) -> Iterator[Document]:
        """The chunks of ``file``; ``extra_info`` is added to every document's metadata and
        ``source`` names the file there (default: its path)."""
        name = source_name(file, source)
        for chunk in self._chunks(file):
            yield Document(
                id_=document_id(name, chunk),
                text=chunk["markdown"],
                metadata={**chunk_metadata(chunk, name), **(extra_info or {})},
                excluded_embed_metadata_keys=list(LOCATING_KEYS),
                excluded_llm_metadata_keys=list(LOCATING_KEYS),
            )

    def load_data(
        self,
        file: str | os.PathLike[str] | bytes,
        extra_info: dict[str, Any] | None = None,
        source: str | None = None,
    ) -> list[Document]:
        return list(self.lazy_load_data(file, extra_info, source))

    def _chunks(self, file: str | os.PathLike[str] | bytes) -> Iterator[ChunkEntry]:
        return chunks(
            file,
            pages=self.pages,
            max_tokens=self.max_tokens,
            stitch=self.stitch,
            password=self.password,
        )
