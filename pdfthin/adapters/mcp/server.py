"""``pdfthin serve``: the MCP server, on the official SDK's ``MCPServer``.

Each tool is registered with the schema built from its spec in :mod:`.tools` and a pass-through
argument model, so the arguments reach pdfthin's own validation and every failure — a bad
argument included — answers as a tool error (``isError``) carrying the envelope as structured
content, never as a protocol error or a crashed server.

Concurrency: operations are synchronous and CPU-bound, so each call runs in a worker thread
and the event loop stays free. Listings run on their own thread limiter, so they never queue
behind extractions; at most ``max_listings`` run at once, one more is ``busy``. Extractions are
bounded by the shared :class:`~pdfthin.operations.Context` (``busy`` past the bound).

A document call is first tried from the cache alone, on threads of its own
(:data:`CACHED_THREADS`): the file is opened and its identity looked up, but nothing is read
and nothing waits for an extraction, so a cached document is answered even when every document
thread is taken. Only a call that needs more (a read, an extraction, a password not seen yet)
goes on to the document threads. Every document call has a time limit
(``ServeConfig.timeout_seconds``): past it the call answers ``timeout`` and the work it started
stops (:mod:`pdfthin.deadline`), letting go of its thread and its extraction slot.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import re
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import (
    BlobResourceContents,
    CallToolResult,
    ContentBlock,
    EmbeddedResource,
    ImageContent,
    InputRequiredResult,
    TextContent,
    ToolAnnotations,
)
from pydantic import ConfigDict

from pdfthin._version import __version__
from pdfthin.adapters.mcp.config import ServeConfig, load_ocr
from pdfthin.adapters.mcp.sandbox import Sandbox
from pdfthin.adapters.mcp.stdio import run_stdio
from pdfthin.adapters.mcp.tools import BY_NAME, FILE_KEYS, TOOLS, Runner, ToolSpec
from pdfthin.deadline import Deadline, timeout_error
from pdfthin.errors import PdfthinError
from pdfthin.operations import Context, error_envelope
from pdfthin.operations.context import BUSY_RETRY_SECONDS, DocumentCache, Limits
from pdfthin.operations.paging import decoded
from pdfthin.operations.response import dumps

#: Worker threads for document calls that need more than the cache: a call waiting for
#: another call's extraction of the same file holds one (within its time limit).
DOCUMENT_THREADS = 64
#: Worker threads for document calls answered from the cache alone (they never wait on a read
#: or an extraction, so a few suffice).
CACHED_THREADS = 8
#: How long past a call's time limit the server waits for its thread to notice it before
#: answering ``timeout`` itself (the thread stops at its next check: a page, a layout stage).
TIMEOUT_GRACE_SECONDS = 1.0
#: Image types MCP clients display; others travel as an embedded resource blob.
_DISPLAYABLE = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})

INSTRUCTIONS = (
    "pdfthin reads PDFs under one root directory, a piece at a time. Start with list_documents "
    "to find files, describe_document to see what a file is (pages, type, which pages need "
    "OCR, token estimate), get_toc for its sections, then read_section, read_pages or "
    "find_in_document. Pages are 1-based. Every response fits a character budget (max_chars); "
    "when next_cursor is not null, call again with it to continue. Errors are tool errors "
    "whose structured content is {error: {code, message, details}}; 'busy' carries "
    "retry_after_seconds."
)

log = logging.getLogger("pdfthin.adapters.mcp")


class _PassThrough(ArgModelBase):
    """Accepts any arguments and hands them on untouched: pdfthin validates them against the
    tool's spec and answers a bad one with an envelope."""

    model_config = ConfigDict(extra="allow", arbitrary_types_allowed=True)

    def model_dump_one_level(self) -> dict[str, Any]:
        return dict(self.__pydantic_extra__ or {})


class _MCPServer(MCPServer[Any]):
    """``MCPServer`` whose unknown tool names also answer with an envelope."""

    def __init__(self, pdfthin: PdfthinServer, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._pdfthin = pdfthin

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Any = None
    ) -> CallToolResult | InputRequiredResult:
        if name not in BY_NAME:
            return await self._pdfthin.call(name, arguments)
        return await super().call_tool(name, arguments, context)


def build_context(config: ServeConfig) -> Context:
    limits = Limits()
    if config.max_file_bytes is not None:
        limits = dataclasses.replace(limits, max_file_bytes=config.max_file_bytes)
    context = Context(
        cache=DocumentCache(config.cache_size),
        limits=limits,
        max_extractions=config.max_extractions,
        max_bytes_in_flight=config.max_bytes_in_flight,
        ocr=load_ocr(config.ocr) if config.ocr else None,
        cursor_key=config.cursor_key,
    )
    if config.max_chars is not None:
        context.default_max_chars = config.max_chars
    return context


class PdfthinServer:
    """The tools of one server process; all calls share one sandbox and one context."""

    def __init__(self, config: ServeConfig) -> None:
        if config.max_listings < 1:
            raise PdfthinError("invalid_argument", "max_listings must be at least 1")
        if not config.timeout_seconds > 0:
            raise PdfthinError("invalid_argument", "timeout_seconds must be positive")
        self.config = config
        self.context = build_context(config)
        self.sandbox = Sandbox(
            config.root, self.context.limits.max_file_bytes, self.context.cursor_key
        )
        self.runner = Runner(self.sandbox, self.context)
        self._listings = 0  # touched only on the event loop thread
        self._limiters: _Limiters | None = None

    def _threads(self) -> _Limiters:
        # Created on first use: anyio primitives belong to the running event loop.
        if self._limiters is None:
            self._limiters = _Limiters(
                anyio.CapacityLimiter(DOCUMENT_THREADS),
                anyio.CapacityLimiter(self.config.max_listings),
                anyio.CapacityLimiter(CACHED_THREADS),
            )
        return self._limiters

    async def call(self, name: str, arguments: dict[str, Any] | None) -> CallToolResult:
        """One tool call; never raises."""
        try:
            tool = BY_NAME.get(name)
            if tool is None:
                raise PdfthinError(
                    "invalid_argument",
                    f"there is no tool {name!r}; the tools are {', '.join(BY_NAME)}",
                    tool=name,
                )
            validated = tool.arguments(arguments)
            if tool.operation is None:
                result = await self._listing(tool, validated)
            else:
                result = await self._document(tool, validated)
            return _success(tool, result)
        except Exception as exc:
            envelope = error_envelope(exc)
            if envelope["error"]["code"] == "internal":
                log.error("pdfthin: %s failed", name, exc_info=exc)
            return CallToolResult(
                content=[TextContent(type="text", text=dumps(envelope))],
                structured_content=envelope,
                is_error=True,
            )

    async def _document(self, tool: ToolSpec, arguments: dict[str, Any]) -> dict[str, Any]:
        """A document call: from the cache alone if it can be, else on a document thread,
        within the call's time limit."""
        deadline = Deadline(self.config.timeout_seconds)
        limiters = self._threads()
        # Once, for both attempts below (from the cache alone, then reading the file).
        arguments = decoded(arguments, self.runner.context.cursor_key)
        cached = await anyio.to_thread.run_sync(
            functools.partial(self.runner.cached, tool, arguments, deadline),
            limiter=limiters.cached,
        )
        if cached is not None:
            return cached
        # Waiting for a document thread counts against the call's time too; once the thread
        # runs, it stops by itself at the deadline (the grace covers its last page or stage).
        with anyio.move_on_after((deadline.remaining() or 0.0) + TIMEOUT_GRACE_SECONDS) as scope:
            result = await anyio.to_thread.run_sync(
                functools.partial(self.runner, tool, arguments, deadline),
                limiter=limiters.documents,
            )
        if scope.cancelled_caught:
            deadline.cancel()
            raise timeout_error()
        return result

    async def _listing(self, tool: ToolSpec, arguments: dict[str, Any]) -> dict[str, Any]:
        listings = self._threads().listings
        if self._listings >= self.config.max_listings:
            raise PdfthinError(
                "busy",
                f"{self.config.max_listings} listings are running already; retry shortly",
                retry_after_seconds=BUSY_RETRY_SECONDS,
            )
        self._listings += 1
        try:
            return await anyio.to_thread.run_sync(
                functools.partial(self.runner, tool, arguments), limiter=listings
            )
        finally:
            self._listings -= 1

    def mcp(self) -> MCPServer[Any]:
        return _MCPServer(
            self,
            name="pdfthin",
            title="pdfthin",
            description="Read PDFs a piece at a time: pages and sections as Markdown, search "
            "with page numbers, images; read-only, inside one root directory.",
            instructions=INSTRUCTIONS,
            version=__version__,
            tools=[self._tool(spec) for spec in TOOLS],
            log_level="WARNING",
        )

    def _tool(self, spec: ToolSpec) -> Tool:
        async def run(**arguments: Any) -> CallToolResult:
            return await self.call(spec.name, arguments)

        return Tool(
            fn=run,
            name=spec.name,
            title=spec.title,
            description=spec.description,
            parameters=spec.input_schema(),
            fn_metadata=FuncMetadata(arg_model=_PassThrough, output_schema=spec.output_schema()),
            is_async=True,
            context_kwarg=None,
            annotations=ToolAnnotations(
                title=spec.title,
                read_only_hint=True,
                destructive_hint=False,
                idempotent_hint=True,
                open_world_hint=False,
            ),
        )


@dataclasses.dataclass(frozen=True)
class _Limiters:
    documents: anyio.CapacityLimiter
    listings: anyio.CapacityLimiter
    cached: anyio.CapacityLimiter


def _success(tool: ToolSpec, result: dict[str, Any]) -> CallToolResult:
    content: list[ContentBlock] = []
    if tool.operation is not None and tool.operation.file:
        data = result.pop("data")
        for key in FILE_KEYS:
            result.pop(key, None)
        media = result["media_type"]
        if media in _DISPLAYABLE:
            content.append(ImageContent(type="image", data=data, mime_type=media))
        else:
            uri = f"pdfthin:image/{result['document']['fingerprint'][:16]}/{result['id']}"
            content.append(
                EmbeddedResource(
                    type="resource",
                    resource=BlobResourceContents(uri=uri, mime_type=media, blob=data),
                )
            )
    content.append(TextContent(type="text", text=dumps(result)))
    return CallToolResult(content=content, structured_content=result)


#: How long a thread may hold the GIL while another waits for it (Python's default: 5 ms).
#: An extraction is CPU-bound; a listing or a cached read beside it waits for the GIL at every
#: system call, so with the default a listing took about a second during a long extraction.
SWITCH_INTERVAL = 0.0005


def serve(server: PdfthinServer) -> None:
    """Run until the client disconnects (stdio) or the process is stopped (HTTP)."""
    config = server.config
    sys.setswitchinterval(SWITCH_INTERVAL)
    app = server.mcp()
    run: Callable[[], Awaitable[None]]
    if config.http is None:
        run = functools.partial(run_stdio, app)
    else:
        host, port = config.http
        netloc = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=[netloc, f"localhost:{port}"],
            allowed_origins=[f"http://{netloc}", f"http://localhost:{port}"],
        )
        starlette_app = app.streamable_http_app(transport_security=security, host=host)
        run = functools.partial(_serve_http, starlette_app, host, port, netloc)
    anyio.run(run)


_ERRNO_PREFIX = re.compile(r"^\[errno \d+\]\s*", re.IGNORECASE)


class _BindFailure(logging.Filter):
    """Keeps uvicorn's "error while attempting to bind" record, so that a port another
    process holds is one line of ours, not its log line and then an exit."""

    def __init__(self) -> None:
        super().__init__()
        self.reason: str | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "error while attempting to bind" in message:
            reason = message.rpartition(": ")[2] or message
            # Python 3.13's asyncio puts the errno in the text ("[errno 98] address already in
            # use"); the line says what happened, the same on every version.
            self.reason = _ERRNO_PREFIX.sub("", reason)
            return False
        return True


def _exits(exc: BaseException) -> bool:
    """Whether ``exc`` is, or groups, a ``SystemExit``."""
    if isinstance(exc, SystemExit):
        return True
    inner = getattr(exc, "exceptions", None)
    return isinstance(inner, tuple) and any(_exits(e) for e in inner)


async def _serve_http(starlette_app: Any, host: str, port: int, netloc: str) -> None:
    """uvicorn on ``host:port``; once it listens, the address on stderr (stdout is not the
    protocol's here, but logs go to stderr). A port that cannot be bound is
    ``invalid_argument`` (the command line's exit 2)."""
    import uvicorn

    server = uvicorn.Server(
        uvicorn.Config(starlette_app, host=host, port=port, log_level="warning")
    )
    failure = _BindFailure()
    logger = logging.getLogger("uvicorn.error")
    logger.addFilter(failure)

    async def announce() -> None:
        while not server.started and not server.should_exit:
            await anyio.sleep(0.05)
        if server.started:
            print(f"pdfthin serve: listening on http://{netloc}/mcp", file=sys.stderr, flush=True)

    try:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(announce)
            await server.serve()
    except BaseException as exc:  # uvicorn's exit comes wrapped in the task group's group
        if not _exits(exc):
            raise
        raise PdfthinError(
            "invalid_argument",
            f"cannot listen on {netloc}: {failure.reason or 'the server could not start'}",
            port=port,
        ) from None
    finally:
        logger.removeFilter(failure)
