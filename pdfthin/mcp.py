"""pdfthin's MCP server, built and run from Python (needs the extra ``pdfthin[mcp]``).

``pdfthin serve ROOT`` is this, from the command line. From Python::

    from pdfthin.mcp import Server

    server = Server("/srv/pdfs", ocr=my_binding, timeout_seconds=60)
    server.run()                             # stdio, until the client disconnects
    Server("/srv/pdfs", http="127.0.0.1:8765").run()  # Streamable HTTP, loopback only

    result = await server.call("read_pages", {"path": "a.pdf", "pages": "1"})  # in process

Every setting is checked when the server is made (``invalid_argument``, or ``not_found`` for a
root that is not a directory), not when the first client calls. See docs/mcp.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pdfthin.adapters.mcp import INSTALL_HINT
from pdfthin.adapters.mcp.config import (
    DEFAULT_MAX_EXTRACTIONS,
    DEFAULT_MAX_LISTINGS,
    DEFAULT_TIMEOUT_SECONDS,
    RANGES,
    ServeConfig,
    parse_http,
)
from pdfthin.errors import PdfthinError
from pdfthin.operations.reads import DEFAULT_MAX_BYTES_IN_FLIGHT

if TYPE_CHECKING:
    from pdfthin.adapters.mcp.server import PdfthinServer
    from pdfthin.ocr import OcrBinding

__all__ = ["RANGES", "ServeConfig", "Server"]


class Server:
    """One server over the PDFs under ``root``.

    - ``ocr``: an :class:`~pdfthin.ocr.OcrBinding`, or a module name / ``.py`` file exporting
      one (as ``--ocr`` takes it); ``None``: pages that need OCR say so.
    - ``http``: ``"HOST:PORT"`` or ``(host, port)`` on a loopback address for Streamable HTTP;
      ``None``: stdio.
    - the limits, as ``pdfthin serve``'s flags (their ranges: :data:`RANGES`):
      ``cache_size`` documents kept, ``max_extractions`` and ``max_listings`` calls at once
      (one more is ``busy``), ``max_chars`` the default response budget, ``max_file_bytes``
      the largest file read, ``timeout_seconds`` of one document call,
      ``max_bytes_in_flight`` file bytes held by all calls at once;
    - ``cursor_key``: the secret that keys cursors (``PDFTHIN_CURSOR_KEY`` for the CLI).
    """

    def __init__(
        self,
        root: str,
        *,
        ocr: OcrBinding | str | None = None,
        http: str | tuple[str, int] | None = None,
        cache_size: int = 2,
        max_extractions: int = DEFAULT_MAX_EXTRACTIONS,
        max_listings: int = DEFAULT_MAX_LISTINGS,
        max_chars: int | None = None,
        max_file_bytes: int | None = None,
        timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS,
        max_bytes_in_flight: int = DEFAULT_MAX_BYTES_IN_FLIGHT,
        cursor_key: bytes | None = None,
    ) -> None:
        if isinstance(http, str):
            try:
                http = parse_http(http)
            except ValueError as exc:
                raise PdfthinError("invalid_argument", str(exc), field="http") from None
        self.config = ServeConfig(
            root=root,
            ocr=ocr,
            cache_size=cache_size,
            max_extractions=max_extractions,
            max_listings=max_listings,
            max_chars=max_chars,
            max_file_bytes=max_file_bytes,
            timeout_seconds=timeout_seconds,
            max_bytes_in_flight=max_bytes_in_flight,
            http=http,
            cursor_key=cursor_key,
        )
        try:
            from pdfthin.adapters.mcp.server import PdfthinServer
        except ImportError as exc:
            raise ImportError(INSTALL_HINT) from exc
        self._server: PdfthinServer = PdfthinServer(self.config)

    @property
    def app(self) -> Any:
        """The MCP SDK's server object with pdfthin's tools registered, to embed elsewhere."""
        return self._server.mcp()

    def run(self) -> None:
        """Serve until the client disconnects (stdio) or the process is stopped (HTTP)."""
        from pdfthin.adapters.mcp.server import serve

        serve(self._server)

    async def call(self, tool: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """One tool call in this process, answered as a client receives it: the tool's
        structured result, or the error envelope (``{"error": {...}}``). Never raises."""
        result = await self._server.call(tool, arguments)
        content = result.structured_content
        return dict(content) if isinstance(content, dict) else {}
