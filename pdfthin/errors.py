"""The error envelope: one exception type with a stable code, used by every layer.

Adapters turn a :class:`PdfthinError` into ``{"error": {"code", "message", "details"}}``;
anything else escaping an operation is a bug and is reported as ``internal``.
"""

from __future__ import annotations

from typing import Any

#: Every code an adapter may see. Stable: clients switch on these strings.
ERROR_CODES: frozenset[str] = frozenset(
    {
        "invalid_pages",
        "invalid_argument",
        "not_found",
        "outside_root",
        "not_a_pdf",
        "encrypted",
        "malformed",
        "too_large",
        "timeout",
        "ocr_unavailable",
        "stale_cursor",
        "invalid_cursor",
        "busy",
        "unsupported",
        "internal",
    }
)


class PdfthinError(Exception):
    """A failure a caller can act on: a stable ``code``, a one-line ``message``, ``details``."""

    def __init__(self, code: str, message: str, **details: Any) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown error code {code!r}")
        # One line: an agent reads this, and a multi-line message breaks CLI output.
        message = " ".join(message.split())
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def envelope(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, "details": self.details}}

    def __repr__(self) -> str:
        return f"PdfthinError({self.code!r}, {self.message!r})"
