"""The document model: pages as Markdown with a status, built once and cached."""

from __future__ import annotations

from pdfthin.model.cache import DocumentCache
from pdfthin.model.document import Document, Page, build_document

__all__ = ["Document", "DocumentCache", "Page", "build_document"]
