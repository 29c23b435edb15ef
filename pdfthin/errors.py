"""The error envelope: one exception type with a stable code, used by every layer.

Adapters turn a :class:`PdfthinError` into ``{"error": {"code", "message", "details"}}``;
anything else escaping an operation is a bug and is reported as ``internal``.
"""

from __future__ import annotations

import math
from typing import Any

#: An error's message is cut to this many characters (it may quote an argument).
MAX_MESSAGE_CHARS = 1_000
#: Error details are plain JSON kept small: strings cut to MAX_DETAIL_CHARS, at most
#: MAX_DETAIL_ITEMS items per list or object, MAX_DETAIL_DEPTH levels deep, integers up to
#: MAX_DETAIL_DIGITS digits; anything else (or deeper, or longer) is summarised.
MAX_DETAIL_CHARS = 500
MAX_DETAIL_ITEMS = 50
MAX_DETAIL_DEPTH = 4
MAX_DETAIL_DIGITS = 18

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
        "renderer_unavailable",
        "stale_cursor",
        "invalid_cursor",
        "busy",
        "unsupported",
        "internal",
    }
)


class PdfthinError(Exception):
    """A failure a caller can act on: a stable ``code``, a one-line ``message``, ``details``.

    Whatever a message or a detail quotes (an argument as the caller sent it, possibly huge,
    deeply nested or holding lone surrogates), the envelope stays small, one line and plain
    JSON that every transport can encode: see :func:`safe_text` and :func:`safe_value`."""

    def __init__(self, code: str, message: str, **details: Any) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown error code {code!r}")
        # One line: an agent reads this, and a multi-line message breaks CLI output.
        message = safe_text(" ".join(message.split()), MAX_MESSAGE_CHARS)
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = {_key(k): safe_value(v) for k, v in details.items()}

    def envelope(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, "details": self.details}}

    def __repr__(self) -> str:
        return f"PdfthinError({self.code!r}, {self.message!r})"


def safe_text(text: str, limit: int = MAX_DETAIL_CHARS) -> str:
    """``text`` cut to ``limit`` characters (with ``…``), lone surrogates written as ``\\udXXX``
    escapes: no transport can encode them, and an error must always reach the caller."""
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def safe_value(value: Any, depth: int = 0) -> Any:
    """``value`` as small, plain JSON (see the module's limits)."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if value.bit_length() <= MAX_DETAIL_DIGITS * 3:  # about 18 digits: printable
            return value
        return "an integer too long to show"
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, str):
        return safe_text(value)
    if depth >= MAX_DETAIL_DEPTH:
        return f"a {type(value).__name__} nested too deeply to show"
    if isinstance(value, (list, tuple)):
        items = [safe_value(v, depth + 1) for v in value[:MAX_DETAIL_ITEMS]]
        return items + (["…"] if len(value) > MAX_DETAIL_ITEMS else [])
    if isinstance(value, dict):
        pairs = list(value.items())[:MAX_DETAIL_ITEMS]
        return {_key(k): safe_value(v, depth + 1) for k, v in pairs}
    return f"a value of type {safe_text(type(value).__name__, 64)}"


def _key(key: Any) -> str:
    return safe_text(key if isinstance(key, str) else f"a {type(key).__name__} key", 64)


def shown(value: Any, limit: int = 80) -> str:
    """How a message quotes a value a caller sent: ``repr`` of a short string or number, and
    a description of anything else (never ``repr`` of a structure, which may nest too deeply,
    nor ``str`` of a huge integer, which Python refuses to convert)."""
    if isinstance(value, str):
        quoted = repr(value if len(value) <= limit else value[: limit - 1] + "…")
        return safe_text(quoted, limit + 8)
    if value is None or isinstance(value, (bool, float)):
        return repr(value)
    if isinstance(value, int):
        return str(value) if value.bit_length() <= MAX_DETAIL_DIGITS * 3 else "a huge integer"
    if isinstance(value, (list, tuple, dict)):
        return f"a {'list' if isinstance(value, (list, tuple)) else 'object'} of {len(value)} items"
    return f"a value of type {safe_text(type(value).__name__, 64)}"
