"""``describe_document``: what a document is, before reading any of it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pdfthin.ocr.store import AGENT
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.ledger_state import ChainLedger
from pdfthin.operations.ledger_state import view as ledger_view
from pdfthin.operations.ocr import agent_texts
from pdfthin.operations.pages_read import pages_read
from pdfthin.operations.params import FULL
from pdfthin.operations.response import compact, document_ref, engine_versions
from pdfthin.operations.types import (
    BorderlinePage,
    DescribeResponse,
    Metadata,
    OcrCapability,
    PageStatuses,
)
from pdfthin.operations.unreadable import report

if TYPE_CHECKING:
    from pdfthin.model import Document, Page

#: Rough characters per token for English-like text: an estimate, labelled as such.
CHARS_PER_TOKEN = 4
#: Borderline pages listed (the least sure first); ``count`` says how many there are.
MAX_BORDERLINE = 20
#: The most the ledger template takes of the answer (its page lists are cut to fit).
LEDGER_TEMPLATE_CHARS = 400


def describe_document(
    document: Source,
    *,
    full: bool | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> DescribeResponse:
    context = context or default_context()
    doc = context.document(document, password)
    # Page facts come from the pages read so far (a long document is not read whole to be
    # described), or from every page with ``full``; ``read`` says which.
    known, read = pages_read(doc, FULL.value(full))
    # Pages the agent transcribed (submit_transcription) read as status ``ocr``, as read_pages
    # shows them; the document's type stays what the file is.
    transcribed = agent_texts(context, doc, (p.number for p in known))
    statuses: dict[str, list[int]] = {}
    for page in known:
        statuses.setdefault(page.status, []).append(page.number)
    non_empty = len(known) - len(statuses.get("empty", []))
    needing = len(statuses.get("needs_ocr", []))
    kind: Literal["text", "scanned", "mixed"]
    if needing == 0:
        kind = "text"
    elif needing >= max(1, non_empty) * 0.9:
        kind = "scanned"
    else:
        kind = "mixed"
    if transcribed:
        statuses["ocr"] = sorted(transcribed)
        statuses["needs_ocr"] = [n for n in statuses["needs_ocr"] if n not in transcribed]
        if not statuses["needs_ocr"]:
            del statuses["needs_ocr"]
    tokens = [round(len(transcribed.get(p.number, p.markdown)) / CHARS_PER_TOKEN) for p in known]
    mean = sum(tokens) / len(tokens) if tokens else 0
    pages: PageStatuses = {}
    for status, numbers in sorted(statuses.items()):
        pages[status] = compact(numbers)  # type: ignore[literal-required]  # a page status
    if not read["complete"]:
        seen = {p.number for p in known}
        pages["not_read"] = compact([n for n in range(1, doc.page_count + 1) if n not in seen])
    method = f"characters / {CHARS_PER_TOKEN}"
    if not read["complete"]:
        method += f" on the {len(known)} pages read, scaled to all {doc.page_count}"
    response: DescribeResponse = {
        "document": document_ref(doc),
        "type": kind,
        "pages": pages,
        "metadata": metadata_of(doc),
        "has_outline": bool(doc.outline),
        "estimated_tokens": {
            "total": sum(tokens) if read["complete"] else round(mean * doc.page_count),
            "per_page_max": max(tokens, default=0),
            "per_page_mean": round(mean),
            "method": method,
        },
        "capabilities": {
            "ocr": _ocr_capability(context),
            "engine": engine_versions(),
        },
        "read": read,
    }
    labels = doc.metadata.page_labels
    if labels:
        response["page_labels"] = {"first": labels[0], "last": labels[-1]}
    hidden = sum(len(p.hidden) for p in known)
    if hidden:
        response["hidden_text"] = {
            "runs": hidden,
            "pages": compact([p.number for p in known if p.hidden]),
            "message": "text that a reader of the rendered page would not see was withheld",
        }
    if doc.recovered:
        response["recovered"] = doc.recovered
    if doc.problems:
        response["problems"] = doc.problems[:20]
    if statuses.get("needs_ocr"):
        pages["needs_ocr_reasons"] = _reasons(doc, statuses["needs_ocr"])
    if transcribed:
        response["transcribed"] = {
            "provenance": AGENT,
            "message": "the pages under pages.ocr have no text layer: the agent transcribed "
            "them (submit_transcription), and read_pages, read_section, get_chunks and "
            "find_in_document give their transcription",
        }
    unreadable = report(doc, [p.number for p in known if p.number not in transcribed])
    if unreadable:
        response["unreadable"] = unreadable
    # The reading ledger before anything is read: every page not delivered, those already
    # known to be unreadable apart (read_pages and ``ledger`` keep it from here).
    response["ledger"] = ledger_view(
        ChainLedger(),
        doc.page_count,
        LEDGER_TEMPLATE_CHARS,
        known_unreadable={
            p.number: p.reason_code for p in known if p.unreadable and p.number not in transcribed
        },
    )
    borderline = [p for p in known if p.confidence is not None]
    if borderline:
        borderline.sort(key=lambda p: (p.confidence.value if p.confidence else 1.0, p.number))
        response["borderline"] = {
            "count": len(borderline),
            "pages": [_borderline(p) for p in borderline[:MAX_BORDERLINE]],
        }
    return response


def _borderline(page: Page) -> BorderlinePage:
    assert page.confidence is not None
    return {
        "page": page.number,
        "status": page.status,
        "reason_code": page.reason_code,
        "confidence": page.confidence.value,
        "evidence": list(page.confidence.evidence),
    }


def metadata_of(doc: Document) -> Metadata:
    """The file's metadata fields that are given (page labels apart)."""
    found = doc.metadata
    fields: Metadata = {}
    for key in Metadata.__annotations__:
        value = getattr(found, key)
        if value not in (None, ""):
            fields[key] = value  # type: ignore[literal-required]
    return fields


def _ocr_capability(context: Context) -> OcrCapability:
    binding = context.ocr
    if binding is None:
        return {"bound": False}
    return {"bound": True, "provider": binding.name, "dpi": binding.dpi}


def _reasons(doc: Document, pages: list[int]) -> dict[str, str]:
    """Pages needing OCR, grouped by why: ``{reason code: page list}``."""
    groups: dict[str, list[int]] = {}
    for n in pages:
        groups.setdefault(doc.page(n).reason_code, []).append(n)
    return {code: compact(nums) for code, nums in groups.items()}
