"""Serve the built demo (``web/dist``) on 127.0.0.1: a plain static file server.

    python web/serve.py [--port 8000] [DIR]

Any static host works; this one only makes sure ``.mjs`` and ``.wasm`` get their media types
(some systems' tables lack them) and binds to the loopback address. The browser test starts it
in a thread with :func:`start`.
"""

from __future__ import annotations

import argparse
import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer  # noqa: TID251
from pathlib import Path
from typing import Any, ClassVar

DIST = Path(__file__).resolve().parent / "dist"
TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".py": "text/plain; charset=utf-8",
    ".whl": "application/zip",
    ".zip": "application/zip",
}


class Handler(SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {**SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.verbose:  # type: ignore[attr-defined]
            super().log_message(format, *args)


def start(
    directory: Path = DIST, port: int = 0, *, verbose: bool = False
) -> tuple[ThreadingHTTPServer, str]:
    """Serve ``directory`` from a daemon thread; answer the server and its base URL."""
    handler = functools.partial(Handler, directory=str(directory))
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.verbose = verbose  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, name="pdfthin-web", daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", type=Path, default=DIST)
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    if not (args.directory / "index.html").is_file():
        parser.error(f"{args.directory} has no index.html: build it first (node web/build.mjs)")
    server, url = start(args.directory, args.port, verbose=True)
    print(f"serving {args.directory} at {url} (Ctrl-C to stop)")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()


if __name__ == "__main__":
    main()
