"""``get_info``: the facts of a document: metadata, page sizes and rotation, version,
encryption, tagging, page labels."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from .context import Context, Source, default_context
from .response import compact
from .unreadable import attach


def get_info(
    document: Source, *, password: str | None = None, context: Context | None = None
) -> dict[str, Any]:
    context = context or default_context()
    doc = context.document(document, password)
    metadata = asdict(doc.metadata)
    labels = metadata.pop("page_labels")
    # Page geometry, grouped: most documents have one or two page sizes.
    sizes: dict[tuple[float, float, int], list[int]] = {}
    for page in doc.pages:
        sizes.setdefault((page.width, page.height, page.rotation), []).append(page.number)
    response: dict[str, Any] = {
        "document": {"fingerprint": doc.fingerprint, "page_count": doc.page_count},
        "metadata": {k: v for k, v in metadata.items() if v not in (None, "")},
        "page_sizes": [
            {"pages": compact(nums), "width": w, "height": h, "rotation": r, "unit": "pt"}
            for (w, h, r), nums in sizes.items()
        ][:50],
        "outline_entries": len(doc.outline),
        "images": sum(len(p.images) for p in doc.pages),
        "forms": {"fields": doc.facts.form_fields, "xfa": doc.facts.xfa},
        "attachments": doc.facts.attachments[:100],
        "links": doc.facts.links,
        "annotations": doc.facts.annotations,
    }
    if labels:
        response["page_labels"] = labels if len(labels) <= 200 else [*labels[:200], "…"]
    if doc.recovered:
        response["recovered"] = doc.recovered
    if doc.problems:
        response["problems"] = doc.problems[:20]
    return attach(response, doc, range(1, doc.page_count + 1))
