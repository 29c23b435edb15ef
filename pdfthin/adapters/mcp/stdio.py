"""The stdio transport, with an answer for every request the SDK cannot read.

The SDK's stdio transport parses each line; a line it cannot parse (a lone surrogate escape, a
number of thousands of digits, JSON nested past its limit) or that is not a JSON-RPC message
reaches the server as an exception, which the SDK only logs: the client waits forever for an
answer. The SDK's HTTP transport answers the same request with a JSON-RPC parse error (HTTP
400). Here the stdio server answers it the same way, with the request's id when it can be found
in the line (else ``null``, as JSON-RPC says) and pdfthin's ``invalid_argument`` envelope as the
error's data. A notification (no id) gets no answer, as JSON-RPC says.
"""

from __future__ import annotations

import json
import logging
from types import TracebackType
from typing import TYPE_CHECKING, Any

import anyio
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError

from pdfthin.errors import PdfthinError, safe_text

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

log = logging.getLogger("pdfthin.adapters.mcp")

#: A request id longer than this is not looked for in an unreadable line.
MAX_ID_CHARS = 200
#: How much of a line is scanned for its id.
MAX_SCAN_CHARS = 1 << 20


async def run_stdio(app: MCPServer[Any]) -> None:
    """``app.run_stdio_async()``, answering the lines the SDK cannot read."""
    server = getattr(app, "_lowlevel_server", None)
    if server is None:  # pragma: no cover - an SDK without it: its own loop, unanswered lines
        await app.run_stdio_async()
        return
    async with stdio_server() as (read_stream, write_stream):
        reader = _AnsweringReader(read_stream, write_stream)
        await server.run(reader, write_stream, server.create_initialization_options())


class _AnsweringReader:
    """The transport's read stream, minus the exceptions: each is answered on the write
    stream instead of reaching the server (which would drop it)."""

    def __init__(self, inner: Any, writer: Any) -> None:
        self._inner = inner
        self._writer = writer

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            reply = unreadable_reply(item)
            if reply is not None:
                await self._writer.send(SessionMessage(reply))

    def __aiter__(self) -> _AnsweringReader:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _AnsweringReader:
        await self._inner.__aenter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> bool | None:
        result: bool | None = await self._inner.__aexit__(exc_type, exc_val, exc_tb)
        return result


def unreadable_reply(exc: Exception) -> JSONRPCError | None:
    """The JSON-RPC error answering the line ``exc`` (the SDK's parse failure) was raised
    for, or ``None`` for a notification."""
    line, message, reason, parse_error = _line_and_reason(exc)
    if message is not None:  # JSON, but not a JSON-RPC message: its id, if it has a usable one
        if "id" not in message:
            if "method" in message:
                return None  # a notification
            found, request_id = False, None
        else:
            found, request_id = _usable_id(message["id"])
    else:
        found, request_id = _find_id(line) if line is not None else (False, None)
        if line is not None and not found and _is_notification(line):
            return None
    envelope = PdfthinError(
        "invalid_argument", f"the request could not be read: {reason}"
    ).envelope()
    log.info("pdfthin: answered an unreadable request: %s", reason)
    return JSONRPCError(
        jsonrpc="2.0",
        id=request_id,
        error=ErrorData(
            code=PARSE_ERROR if parse_error else INVALID_REQUEST,
            message=("Parse error: " if parse_error else "Invalid request: ") + reason,
            data=envelope,
        ),
    )


def _line_and_reason(exc: Exception) -> tuple[str | None, dict[str, Any] | None, str, bool]:
    """The line the SDK could not read (pydantic keeps it as the error's input) or, when it
    was JSON, the message it parsed to; why it could not be read; whether it was not JSON."""
    errors: list[dict[str, Any]] = []
    listed = getattr(exc, "errors", None)
    try:
        errors = list(listed()) if callable(listed) else []
    except Exception:  # an exception of another kind: no line to look at
        errors = []
    line = None
    message = None
    for error in errors:
        value = error.get("input")
        if error.get("type") == "json_invalid" and isinstance(value, (str, bytes)):
            line = value.decode("utf-8", "replace") if isinstance(value, bytes) else value
            break
        if message is None and isinstance(value, dict) and "jsonrpc" in value:
            message = value  # the whole message, as a union's "missing field" errors give it
    if errors:
        first = errors[0]
        reason = safe_text(str(first.get("msg", "invalid message")), 200)
        return line, message, reason, first.get("type") == "json_invalid"
    return line, message, safe_text(f"{type(exc).__name__}", 200), False


def _find_id(line: str) -> tuple[bool, int | str | None]:
    """``(found, id)`` of the top-level ``"id"`` of a JSON-RPC line that may not parse as a
    whole: the top-level object is scanned (strings skipped, depth counted) without decoding
    anything but the id's own value. An id that is not a short string or a small integer is
    ``(False, None)``."""
    text = line[:MAX_SCAN_CHARS]
    depth = 0
    i = 0
    key_expected = False
    while i < len(text):
        ch = text[i]
        if ch == '"':
            end = _string_end(text, i)
            if end < 0:
                return False, None
            if depth == 1 and key_expected:
                key = text[i : end + 1]
                rest = text[end + 1 :].lstrip()
                if key == '"id"' and rest.startswith(":"):
                    start = len(text) - len(rest) + 1
                    return _scalar(text, start)
                key_expected = False
            i = end + 1
            continue
        if ch in "{[":
            depth += 1
            key_expected = ch == "{" and depth == 1
        elif ch in "}]":
            depth -= 1
        elif ch == "," and depth == 1:
            key_expected = True
        i += 1
    return False, None


def _string_end(text: str, start: int) -> int:
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i
        i += 1
    return -1


def _scalar(text: str, start: int) -> tuple[bool, int | str | None]:
    head = text[start : start + MAX_ID_CHARS + 8].lstrip()
    try:
        value, _ = json.JSONDecoder(parse_int=_small_int).raw_decode(head)
    except ValueError:
        return False, None
    return _usable_id(value)


def _usable_id(value: Any) -> tuple[bool, int | str | None]:
    """``(True, id)`` for an id JSON-RPC allows and an answer can carry back."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return True, value
    if isinstance(value, str) and len(value) <= MAX_ID_CHARS:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False, None
        return True, value
    return False, None


def _small_int(digits: str) -> Any:
    # Python refuses to convert more than 4,300 digits; an id that long is no id anyway.
    return int(digits) if len(digits) <= 18 else None


def _is_notification(line: str) -> bool:
    """Whether the line is a well-formed message without an id (a notification)."""
    try:
        message = json.loads(line, parse_int=_small_int)
    except (ValueError, RecursionError):
        return False
    return isinstance(message, dict) and "method" in message and "id" not in message
