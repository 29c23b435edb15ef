"""The document model: pages as Markdown with a status, built once and cached."""

from __future__ import annotations

from .cache import DocumentCache
from .document import Document, Page, build_document

__all__ = ["Document", "DocumentCache", "Page", "build_document"]
