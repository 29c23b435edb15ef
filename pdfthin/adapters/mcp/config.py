"""What ``pdfthin serve`` is started with, checked before the MCP SDK is imported. No MCP
import here."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Any

from pdfthin.operations.reads import DEFAULT_MAX_BYTES_IN_FLIGHT

DEFAULT_MAX_EXTRACTIONS = 2  # pure-Python extraction is CPU-bound: more threads do not help
DEFAULT_MAX_LISTINGS = 4
#: Seconds a document call may take before it answers ``timeout`` and the work it started
#: stops (an extraction goes on only while another call waiting for it has time left). Two
#: minutes: the pure engine reads a few hundred pages in that time; MCP clients themselves
#: often give up on a call after one to a few minutes.
DEFAULT_TIMEOUT_SECONDS = 120.0


@dataclass(frozen=True)
class ServeConfig:
    root: str
    ocr: str | None = None
    cache_size: int = 2
    max_extractions: int = DEFAULT_MAX_EXTRACTIONS
    max_listings: int = DEFAULT_MAX_LISTINGS
    max_chars: int | None = None
    max_file_bytes: int | None = None
    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS
    #: File bytes held in memory at once by all calls (pdfthin/operations/reads.py).
    max_bytes_in_flight: int = DEFAULT_MAX_BYTES_IN_FLIGHT
    #: ``(host, port)`` for Streamable HTTP on a loopback address; ``None`` for stdio.
    http: tuple[str, int] | None = None
    #: ``PDFTHIN_CURSOR_KEY``: the secret that keys cursors; ``None``: an unkeyed checksum.
    cursor_key: bytes | None = field(default=None, repr=False)


def parse_http(value: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) on a loopback address only: the server has no
    authentication, so it must not be reachable from another machine."""
    host, sep, port_text = value.rpartition(":")
    if (
        not sep
        or not host
        or not (port_text.isascii() and port_text.isdecimal())
        or not 0 < int(port_text) < 65536
    ):
        raise ValueError(f"--http needs HOST:PORT, e.g. 127.0.0.1:8765 (got {value!r})")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if host != "localhost":
        try:
            loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
        if not loopback:
            raise ValueError(
                f"--http serves only on a loopback address (127.0.0.1, ::1, localhost), "
                f"not {host!r}: the server has no authentication"
            )
    return host, int(port_text)


def load_ocr(spec: str) -> Any:
    """The OCR binding named by ``--ocr``: a module name or a ``.py`` file exporting
    ``binding`` (or ``ocr``, or ``make_binding()``); ``ocr_unavailable`` otherwise."""
    from pdfthin.ocr.loader import load_binding

    return load_binding(spec)
