"""How the handlers see a page: the model's page, or its OCR transcription when a call asks
for OCR and the bound provider has transcribed it.

Transcriptions live with the cached document (``doc.derived["ocr"]``), keyed by provider
and resolution, so a page is sent to a provider at most once per binding.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..model import Document
from .context import Context


def _transcriptions(doc: Document, context: Context | None) -> dict[int, dict[str, Any]]:
    store: dict[Any, dict[int, dict[str, Any]]] = doc.derived.setdefault("ocr", {})
    binding = context.ocr if context is not None else None
    key = binding.cache_key if binding is not None else None
    return store.setdefault(key, {})


def page_view(
    doc: Document, number: int, use_ocr: bool, context: Context | None = None
) -> dict[str, Any]:
    page = doc.page(number)
    view: dict[str, Any] = {
        "page": number,
        "status": page.status,
        "reason": page.reason,
        "markdown": page.markdown,
        "text": page.text,
        "label": page.label,
    }
    if page.hidden:
        reasons = Counter(h["reason"] for h in page.hidden)
        view["hidden"] = {"runs": len(page.hidden), "reasons": dict(reasons)}
    if use_ocr and page.status == "needs_ocr":
        done = _transcriptions(doc, context).get(number)
        if done is not None and done["markdown"].strip():
            view.update(
                status="ocr",
                reason=f"text recognised by OCR provider {done['provider']!r}",
                markdown=done["markdown"],
                text=done["markdown"],
            )
    return view


def apply_ocr(context: Context, doc: Document, pages: list[int]) -> None:
    """Transcribe the ``needs_ocr`` pages among ``pages`` with the bound provider (issue 7
    wires the ports; until a binding exists, callers are refused before reaching here)."""
    binding = context.ocr
    if binding is None:
        return
    binding.transcribe(doc, [n for n in pages if doc.page(n).status == "needs_ocr"])
