"""An OCR binding that asks a vision model behind an OpenAI-compatible chat endpoint (OpenAI,
a local Ollama at http://127.0.0.1:11434, vLLM, ...) to transcribe page images as Markdown.

Pages are rendered locally with poppler's ``pdftoppm``; page images are sent to the endpoint you
configure, so use a local server when documents must not leave the machine. It stays an example
rather than a module of the package because it speaks HTTP: the package never reaches the
network (docs/design.md, invariant 8). Configuration:

- ``PDFTHIN_OCR_URL``: base URL (default ``http://127.0.0.1:11434``, Ollama's);
- ``PDFTHIN_OCR_MODEL``: model name (default ``llama3.2-vision``);
- ``PDFTHIN_OCR_API_KEY``: bearer token, if the endpoint wants one.

It declares ``supports_regions``: asked for a region of a page
(:meth:`pdfthin.ocr.OcrBinding.transcribe_region`), it is given the image of that region
alone, rendered from a one-page PDF cut to it, and sends only that crop to the endpoint.
"""

from __future__ import annotations

import base64
import json
import os
import urllib.request
from typing import Any

from pdfthin.ocr import OcrBinding, Signal
from pdfthin.ocr.tesseract import PdftoppmRasterizer

PROMPT = (
    "Transcribe all text on this page image as Markdown: headings as #, lists, tables as pipe "
    "tables. Output only the transcription; output nothing if the page has no text."
)
REGION_PROMPT = (
    "This image is one region cut from a page. Transcribe all text in it as Markdown. Output "
    "only the transcription; output nothing if it holds no text."
)


class ChatRecognizer:
    def __init__(self, base_url: str, model: str, api_key: str | None = None) -> None:
        self.url = base_url.rstrip("/") + "/v1/chat/completions"
        self.model = model
        self.api_key = api_key
        self.name = f"chat-{model}"
        #: Region items carry the crop alone: only that crop is sent.
        self.supports_regions = True

    def recognize(self, pages: list[dict[str, Any]], signal: Signal) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for item in pages:
            if signal.cancelled:
                break
            data_uri = f"data:{item['media_type']};base64," + base64.b64encode(
                item["image"]
            ).decode("ascii")
            body = {
                "model": self.model,
                "temperature": 0,
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {
                                "type": "text",
                                "text": REGION_PROMPT if item.get("region") else PROMPT,
                            },
                            {"type": "image_url", "image_url": {"url": data_uri}},
                        ],
                    }
                ],
            }
            request = urllib.request.Request(
                self.url,
                data=json.dumps(body).encode(),
                headers={"Content-Type": "application/json"},
                method="POST",
            )
            if self.api_key:
                request.add_header("Authorization", f"Bearer {self.api_key}")
            with urllib.request.urlopen(request, timeout=120) as response:
                answer = json.loads(response.read())
            text = answer["choices"][0]["message"]["content"] or ""
            out.append({"page": item["page"], "markdown": text.strip()})
        return out


binding = OcrBinding(
    PdftoppmRasterizer(),
    ChatRecognizer(
        os.environ.get("PDFTHIN_OCR_URL", "http://127.0.0.1:11434"),
        os.environ.get("PDFTHIN_OCR_MODEL", "llama3.2-vision"),
        os.environ.get("PDFTHIN_OCR_API_KEY"),
    ),
    dpi=150,
    max_pages_per_call=2,
    timeout=600.0,
)
