"""Rasterizers for render_citation's tests: a fake one (a Python object that keeps the PDFs it
is given and answers a blank PNG), and PNG decoding through Pillow (a test dependency)."""

from __future__ import annotations

import io
import struct
import zlib
from typing import Any

from pdfthin.ocr import OcrBinding, Signal


def blank_png(width: int = 1, height: int = 1) -> bytes:
    """A white grey-scale PNG of ``width`` x ``height`` pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\xff" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


class FakeRasterizer:
    """Keeps every PDF it is asked to render; answers ``image`` (a blank PNG by default)."""

    def __init__(self, image: bytes | None = None, media_type: str = "image/png") -> None:
        self.image = blank_png() if image is None else image
        self.media_type = media_type
        self.calls: list[tuple[bytes, list[int], int]] = []

    def render(
        self, pdf: bytes, pages: list[int], dpi: int, signal: Signal
    ) -> list[dict[str, Any]]:
        self.calls.append((pdf, list(pages), dpi))
        return [{"page": p, "image": self.image, "media_type": self.media_type} for p in pages]


class NoRecognizer:
    name = "none"

    def recognize(self, pages: list[dict[str, Any]], signal: Signal) -> list[dict[str, Any]]:
        return []


def fake_binding(rasterizer: Any = None, timeout: float = 120.0) -> OcrBinding:
    return OcrBinding(rasterizer or FakeRasterizer(), NoRecognizer(), timeout=timeout)


def decoded(png: bytes) -> Any:
    """The PNG as an RGB Pillow image."""
    from PIL import Image

    return Image.open(io.BytesIO(png)).convert("RGB")
