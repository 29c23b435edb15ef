"""How the handlers see a page: the model's page, or its OCR transcription when a call asks
for OCR and the bound provider has transcribed it.

Transcriptions live in the binding's cache, keyed by document fingerprint, page, provider name
and resolution (:class:`pdfthin.ocr.OcrBinding`). Only ``needs_ocr`` pages are ever sent, and a
transcription is only ever shown for the page it was requested for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from pdfthin.errors import PdfthinError
from pdfthin.ocr.store import AGENT, AgentText, PageTexts
from pdfthin.operations.response import bbox, review_regions

if TYPE_CHECKING:
    from pdfthin.model import Document
    from pdfthin.operations.context import Context, Source


def require_binding(context: Context) -> Any:
    if context.ocr is None:
        raise PdfthinError(
            "ocr_unavailable", "OCR was requested but no OCR provider is bound to this server"
        )
    return context.ocr


#: Hidden pieces listed one by one per page (all are counted).
MAX_HIDDEN_PIECES = 20
#: Decimals of a hidden piece's box (a tenth of a point, as the page's other boxes).
BOX_PLACES = 1


def hidden_report(hidden: list[dict[str, Any]]) -> dict[str, Any]:
    """What a page withholds (invariant 15): how many pieces, by reason, and each piece's
    reason, box (points, top-left origin) and length — never its text, which is what was
    hidden from a reader and may be an instruction."""
    reasons = Counter(h["reason"] for h in hidden)
    pieces = [
        {
            "reason": h["reason"],
            "bbox": bbox(h["bbox"], BOX_PLACES),
            "chars": len(h["text"]),
        }
        for h in hidden[:MAX_HIDDEN_PIECES]
    ]
    report: dict[str, Any] = {"runs": len(hidden), "reasons": dict(reasons), "pieces": pieces}
    if len(hidden) > MAX_HIDDEN_PIECES:
        report["more_pieces"] = len(hidden) - MAX_HIDDEN_PIECES
    return report


def region_box(text: AgentText) -> tuple[float, float, float, float]:
    assert text.region is not None
    return text.region


def next_steps(context: Context | None) -> str:
    """What an agent can do about a page that needs OCR: a short hint, in every such page's
    answer."""
    steps = (
        "this page has no text layer: look at it with get_page_image, then give its text "
        "with submit_transcription (the page is then read and searched as status 'ocr', "
        "provenance 'agent')"
    )
    if context is not None and context.ocr is not None:
        steps += f"; or call again with ocr=true (OCR provider {context.ocr.name!r} is bound)"
    return steps


def agent_texts(context: Context, doc: Document, pages: Iterable[int]) -> dict[int, str]:
    """The agent's transcriptions of the pages among ``pages`` that need OCR and have one
    (:func:`~pdfthin.operations.transcription.submit_transcription`), by page number."""
    out: dict[int, str] = {}
    for number in pages:
        if doc.page(number).status == "needs_ocr":
            text = context.transcriptions.whole_text(doc.fingerprint, number)
            if text is not None:
                out[number] = text
    return out


def page_view(
    doc: Document, number: int, use_ocr: bool, context: Context | None = None
) -> dict[str, Any]:
    page = doc.page(number)
    view: dict[str, Any] = {
        "page": number,
        "status": page.status,
        "reason": page.reason,
        "reason_code": page.reason_code,
        "markdown": page.markdown,
        "text": page.text,
        "label": page.label,
    }
    if page.hidden:
        view["hidden"] = hidden_report(page.hidden)
    if page.regions:
        view["regions"] = review_regions(page.regions)
    agent = (
        context.transcriptions.page(doc.fingerprint, number)
        if context is not None
        else PageTexts(None, ())
    )
    if agent.regions:
        view["transcriptions"] = [
            {
                "region": bbox(region_box(t)),
                "markdown": t.markdown,
                "provenance": AGENT,
            }
            for t in agent.regions
        ]
    if page.status == "needs_ocr" and agent.whole is not None:
        # The agent's transcription of the whole page (submit_transcription): only ever of a
        # page without a text layer, and always labelled as the agent's.
        text = agent.whole.markdown.strip()
        view.update(
            status="ocr",
            reason_code="ocr",
            reason="text transcribed by the agent from the page image (submit_transcription)",
            markdown=text,
            text=text,
            provenance=AGENT,
        )
        return view
    if page.status == "needs_ocr" and view["reason_code"] != "ocr":
        view["next_steps"] = next_steps(context)
    if use_ocr and page.status == "needs_ocr" and context is not None and context.ocr is not None:
        done = context.ocr.cached(doc.fingerprint, number)
        if done is not None and not done.empty:
            view.update(
                status="ocr",
                reason_code="ocr",
                reason=f"text recognised by OCR provider {done.provider!r} at {done.dpi} dpi",
                markdown=done.markdown.strip(),
                text=done.markdown.strip(),
                provenance=done.provider,
            )
            view.pop("next_steps", None)
        elif done is not None:
            view["reason"] = (
                f"{page.reason}; OCR provider {done.provider!r} found no text on the page image"
            )
    return view


def pending(context: Context, doc: Document, pages: list[int]) -> list[int]:
    """The pages among ``pages`` that need OCR and have no transcription yet."""
    binding = context.ocr
    if binding is None:
        return []
    return [
        n
        for n in pages
        if doc.page(n).status == "needs_ocr"
        and binding.cached(doc.fingerprint, n) is None
        and context.transcriptions.whole_text(doc.fingerprint, n) is None
    ]


def transcribe(context: Context, doc: Document, source: Source, pages: list[int]) -> None:
    """Send ``pages`` (which must need OCR) to the bound provider; results land in its cache."""
    todo = pending(context, doc, pages)
    if not todo:
        return
    binding = require_binding(context)
    if context.ocr_progress is not None:
        context.ocr_progress(todo, doc.page_count)
    with context.data(source, doc.fingerprint) as data:
        binding.transcribe(data, doc.fingerprint, todo)


def next_batch(context: Context, doc: Document, pages: list[int]) -> list[int]:
    """The next pages to send, in order: at most one batch of the binding."""
    binding = require_binding(context)
    return pending(context, doc, pages)[: binding.max_pages_per_call]
