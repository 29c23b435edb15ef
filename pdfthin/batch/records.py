"""The typed records at the batch's boundaries: what a batch is asked to do (:class:`Options`)
and what it answers for each document (:class:`DocumentResult`)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Literal

from pdfthin._version import __version__

Format = Literal["markdown", "chunks", "jsonl"]
FORMATS: tuple[Format, ...] = ("markdown", "chunks", "jsonl")
Status = Literal["ok", "failed", "skipped"]

#: Seconds one document may take (reading, laying out, writing) before it is stopped and
#: recorded as ``timeout``; the MCP server's default for one call.
DEFAULT_TIMEOUT_SECONDS = 120.0


@dataclass(frozen=True)
class Options:
    """What is done to every document of a batch. ``password`` is tried on every encrypted
    document; it is never written anywhere (not even in the digest)."""

    format: Format = "markdown"
    pages: str | None = None
    max_tokens: int | None = None
    stitch: bool | None = None
    timeout_seconds: float | None = DEFAULT_TIMEOUT_SECONDS
    password: str | None = field(default=None, repr=False)

    def digest(self) -> str:
        """What makes one output differ from another made of the same file: the format, the
        page selection, the chunk options and pdfthin's version (a newer pdfthin may read a
        page better). The time limit and the password change no output that was made."""
        key = {
            "format": self.format,
            "pages": self.pages,
            "max_tokens": self.max_tokens,
            "stitch": self.stitch,
            "pdfthin": __version__,
        }
        text = json.dumps(key, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class DocumentError:
    """Why a document was not read: the error envelope's stable code and its message."""

    code: str
    message: str


@dataclass(frozen=True)
class DocumentResult:
    """One document's outcome, given once per document as it completes.

    ``page_statuses`` counts the pages read by status (``text``, ``empty``, ``needs_ocr``,
    ``ocr``); ``needs_ocr`` names the pages that need OCR (``"2-3"``; empty when none).
    ``output`` is the file written (with an output folder); ``content`` is the answer itself
    when nothing is written: the Markdown (``markdown``), the list of chunks (``chunks``) or
    the JSON record (``jsonl``). ``skipped``: a previous run's output is still good."""

    name: str
    path: str
    status: Status
    fingerprint: str | None = None
    page_count: int = 0
    page_statuses: dict[str, int] = field(default_factory=dict)
    needs_ocr: str = ""
    error: DocumentError | None = None
    output: str | None = None
    content: Any = field(default=None, repr=False)
    seconds: float = 0.0

    def manifest_entry(self, options_digest: str) -> dict[str, Any]:
        """What the manifest (and a JSON Lines record) keeps of this result to resume by."""
        entry: dict[str, Any] = {
            "source": self.name,
            "status": self.status,
            "fingerprint": self.fingerprint,
            "options": options_digest,
            "page_count": self.page_count,
            "page_statuses": self.page_statuses,
            "needs_ocr": self.needs_ocr,
        }
        if self.output is not None:
            entry["output"] = self.output
        if self.error is not None:
            entry["error"] = {"code": self.error.code, "message": self.error.message}
        return entry
