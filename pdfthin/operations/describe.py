"""``describe_document``: what a document is, before reading any of it."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from .context import Context, Source, default_context
from .response import compact, engine_versions
from .unreadable import attach

#: Rough characters per token for English-like text: an estimate, labelled as such.
CHARS_PER_TOKEN = 4


def describe_document(
    document: Source, *, password: str | None = None, context: Context | None = None
) -> dict[str, Any]:
    context = context or default_context()
    doc = context.document(document, password)
    statuses: dict[str, list[int]] = {}
    for page in doc.pages:
        statuses.setdefault(page.status, []).append(page.number)
    non_empty = doc.page_count - len(statuses.get("empty", []))
    needing = len(statuses.get("needs_ocr", []))
    if needing == 0:
        kind = "text"
    elif needing >= max(1, non_empty) * 0.9:
        kind = "scanned"
    else:
        kind = "mixed"
    tokens = [round(len(p.markdown) / CHARS_PER_TOKEN) for p in doc.pages]
    metadata = asdict(doc.metadata)
    labels = metadata.pop("page_labels")
    response: dict[str, Any] = {
        "document": {"fingerprint": doc.fingerprint, "page_count": doc.page_count},
        "type": kind,
        "pages": {status: compact(numbers) for status, numbers in sorted(statuses.items())},
        "metadata": {k: v for k, v in metadata.items() if v not in (None, "")},
        "has_outline": bool(doc.outline),
        "estimated_tokens": {
            "total": sum(tokens),
            "per_page_max": max(tokens, default=0),
            "per_page_mean": round(sum(tokens) / len(tokens)) if tokens else 0,
            "method": f"characters / {CHARS_PER_TOKEN}",
        },
        "capabilities": {
            "ocr": _ocr_capability(context),
            "engine": engine_versions(),
        },
    }
    if labels:
        response["page_labels"] = {"first": labels[0], "last": labels[-1]}
    hidden = sum(len(p.hidden) for p in doc.pages)
    if hidden:
        response["hidden_text"] = {
            "runs": hidden,
            "pages": compact([p.number for p in doc.pages if p.hidden]),
            "message": "text that a reader of the rendered page would not see was withheld",
        }
    if doc.recovered:
        response["recovered"] = doc.recovered
    if doc.problems:
        response["problems"] = doc.problems[:20]
    if needing:
        response["pages"]["needs_ocr_reasons"] = _reasons(doc, statuses["needs_ocr"])
    return attach(response, doc, range(1, doc.page_count + 1))


def _ocr_capability(context: Context) -> dict[str, Any]:
    binding = context.ocr
    if binding is None:
        return {"bound": False}
    return {"bound": True, "provider": binding.name, "dpi": binding.dpi}


def _reasons(doc: Any, pages: list[int]) -> dict[str, str]:
    """Pages needing OCR, grouped by why: ``{reason code: page list}``."""
    groups: dict[str, list[int]] = {}
    for n in pages:
        groups.setdefault(doc.page(n).reason_code, []).append(n)
    return {code: compact(nums) for code, nums in groups.items()}
