"""Loaders for retrieval frameworks, each behind its optional extra: a document's chunks
(:func:`pdfthin.exports.chunks`) as the framework's documents, one per chunk.

- :mod:`pdfthin.integrations.langchain`: ``PdfthinLoader``, a LangChain ``BaseLoader``
  (``pip install langchain-core``).
- :mod:`pdfthin.integrations.llamaindex`: ``PdfthinReader``, a LlamaIndex ``BaseReader``
  (``pip install llama-index-core``).

Each imports its framework when it is imported itself, never on ``import pdfthin``. Their
metadata is flat (strings and numbers only), which every vector store accepts.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pdfthin.operations.types import ChunkEntry

#: Metadata that locates a chunk rather than says what it is about: kept out of the text a
#: framework embeds or shows a model (LlamaIndex includes metadata there by default).
LOCATING_KEYS = (
    "chunk_id",
    "x0",
    "y0",
    "x1",
    "y1",
    "end_page",
    "kind",
    "status",
    "provenance",
    "token_estimate",
)


def source_name(source: str | os.PathLike[str] | bytes, name: str | None) -> str:
    """What a document's ``source`` metadata says: ``name`` when given, else the path."""
    if name is not None:
        return name
    if isinstance(source, bytes):
        return "<bytes>"
    return os.fspath(source)


def chunk_metadata(chunk: ChunkEntry, source: str) -> dict[str, str | int | float]:
    """A chunk's place and kind as flat metadata: the box of its first page (``x0``-``y1``,
    points, top-left origin), ``end_page`` (its last page; a chunk may go on across a page
    break), and ``breadcrumb`` as the heading titles joined with `` > ``."""
    box = chunk["bbox"]
    return {
        "source": source,
        "chunk_id": chunk["chunk_id"],
        "page": chunk["page"],
        "end_page": chunk["page_spans"][-1]["page"],
        "x0": box["x0"],
        "y0": box["y0"],
        "x1": box["x1"],
        "y1": box["y1"],
        "kind": chunk["kind"],
        "breadcrumb": " > ".join(chunk["breadcrumb"]),
        "status": chunk["status"],
        "provenance": chunk["provenance"],
        "token_estimate": chunk["token_estimate"],
    }


def document_id(source: str, chunk: ChunkEntry) -> str:
    """A stable id for a chunk's document: its source and chunk id (the same on every run)."""
    return f"{source}#{chunk['chunk_id']}"
