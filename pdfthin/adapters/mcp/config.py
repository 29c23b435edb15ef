"""What ``pdfthin serve`` is started with, checked before the MCP SDK is imported. No MCP
import here."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field

from pdfthin.errors import PdfthinError
from pdfthin.ocr import OcrBinding
from pdfthin.operations.params import MAX_MAX_CHARS, MIN_MAX_CHARS
from pdfthin.operations.reads import DEFAULT_MAX_BYTES_IN_FLIGHT

DEFAULT_MAX_EXTRACTIONS = 2  # pure-Python extraction is CPU-bound: more threads do not help
DEFAULT_MAX_LISTINGS = 4
#: Seconds a document call may take before it answers ``timeout`` and the work it started
#: stops (an extraction goes on only while another call waiting for it has time left). Two
#: minutes: the pure engine reads a few hundred pages in that time; MCP clients themselves
#: often give up on a call after one to a few minutes.
DEFAULT_TIMEOUT_SECONDS = 120.0


#: The range each numeric setting must lie in (both ends included), checked when a
#: configuration is made, for ``pdfthin serve``'s flags and for :mod:`pdfthin.mcp` alike.
RANGES: dict[str, tuple[float, float]] = {
    "cache_size": (1, 16),
    "max_extractions": (1, 1024),
    "max_listings": (1, 1024),
    "max_chars": (MIN_MAX_CHARS, MAX_MAX_CHARS),
    "max_file_bytes": (1, 1 << 40),
    "timeout_seconds": (0.1, 86_400),
    "max_bytes_in_flight": (1, 1 << 44),
}


@dataclass(frozen=True)
class ServeConfig:
    """The server's settings. ``ocr`` is a module name or ``.py`` file exporting a binding
    (as ``--ocr`` takes it) or an :class:`~pdfthin.ocr.OcrBinding` itself. Raises
    ``invalid_argument`` for a setting out of its range (:data:`RANGES`)."""

    root: str
    ocr: str | OcrBinding | None = None
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

    def __post_init__(self) -> None:
        for name, (low, high) in RANGES.items():
            value = getattr(self, name)
            if value is None and name in ("max_chars", "max_file_bytes"):
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise PdfthinError("invalid_argument", f"{name} must be a number", field=name)
            if not low <= value <= high:
                raise PdfthinError(
                    "invalid_argument", f"{name} must be from {_n(low)} to {_n(high)}", field=name
                )
        if self.ocr is not None and not isinstance(self.ocr, (str, OcrBinding)):
            raise PdfthinError(
                "invalid_argument",
                "ocr must be a module name, a .py file or an OcrBinding, "
                f"not {type(self.ocr).__name__}",
                field="ocr",
            )
        if self.http is not None:
            try:  # loopback only, here too
                parse_http(f"{self.http[0]}:{self.http[1]}")
            except (ValueError, TypeError, IndexError) as exc:
                raise PdfthinError("invalid_argument", str(exc), field="http") from None


def _n(value: float) -> str:
    """A bound as written: ``1000``, ``0.1``."""
    return str(int(value)) if float(value).is_integer() else str(value)


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


def load_ocr(spec: str | OcrBinding) -> OcrBinding:
    """The OCR binding itself, or the one named by ``--ocr``: a module name or a ``.py`` file
    exporting ``binding`` (or ``ocr``, or ``make_binding()``); ``ocr_unavailable`` otherwise."""
    if isinstance(spec, OcrBinding):
        return spec
    from pdfthin.ocr.loader import load_binding

    return load_binding(spec)
