"""``inspect_layout``: what the engine and the layout decided on one page, as data and as an
SVG of the page with those boxes drawn and numbered (``pdfthin.model.inspect``).

The answer fits its budget (``max_chars``, compact JSON, as every answer): what does not fit
is left out in a fixed order and named in ``omitted`` — the SVG's run boxes, then its line
boxes, then the SVG itself, then the lists' tails (runs, lines, rules, gutters, furniture,
hidden pieces, blocks last) — never cut silently. Runs are listed up to :data:`MAX_RUNS`
whatever the budget: a dense page has thousands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pdfthin.model.inspect import PageInspection, inspect_page, trace_svg
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.params import INSPECT_MAX_CHARS, PAGE, SVG
from pdfthin.operations.response import bbox, document_summary, review_regions, size

if TYPE_CHECKING:
    from pdfthin.operations.types import BBox, InspectBlock, InspectOmitted, InspectResponse

#: Runs listed one by one (all are counted and drawn): enough to see how a few paragraphs
#: were pieced together; a dense page has thousands, each some 60 characters of JSON.
MAX_RUNS = 200
#: Characters of a block's (or header's) text shown: enough to recognise it.
PREVIEW_CHARS = 80
#: Decimals of the coordinates (a hundredth of a point; the SVG draws the same numbers).
_PLACES = 2
#: Room kept for ``omitted`` while cutting lists to the budget.
_OMITTED_RESERVE = 300
#: The lists cut to fit the budget, in the order they are given up (blocks last).
_CUT_ORDER = (
    "runs",
    "lines",
    "rules",
    "gutters",
    "furniture",
    "hidden_text",
    "blocks",
    "regions_needing_review",
)


def inspect_layout(
    document: Source,
    *,
    page: int,
    svg: bool | None = None,
    max_chars: int | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> InspectResponse:
    context = context or default_context()
    number: int = PAGE.check(page)
    with_svg: bool = SVG.value(svg)
    limit: int = (
        context.default_max_chars if max_chars is None else INSPECT_MAX_CHARS.check(max_chars)
    )
    doc = context.document(document, password)
    doc.page(number)  # invalid_pages before the file is read again
    with context.data(document, doc.fingerprint) as data, context.engine(data, password) as engine:
        found = inspect_page(doc, engine, number)
    response = _response(found, document_summary(doc))
    omitted: InspectOmitted = {}
    if found.trace.runs[MAX_RUNS:]:
        omitted["runs"] = len(found.trace.runs) - MAX_RUNS
    if with_svg:
        _fit_svg(response, found, limit, omitted)
    room = limit - _OMITTED_RESERVE
    # What was left out is said in the answer, and that note is measured in it: while the
    # answer with its note is over the budget, more is left out.
    while _fit_lists(response, room, omitted):
        omitted["message"] = _omitted_message(omitted, limit)
        response["omitted"] = omitted
        room -= max(size(response) - limit, 0)
        if size(response) <= limit:
            break
    if omitted:
        omitted["message"] = _omitted_message(omitted, limit)
        response["omitted"] = omitted
    if size(response) > limit:
        # Every list is cut and the answer is still over (the smallest budgets): its notes
        # say the same in fewer words.
        if "note" in response:
            response["note"] = _SHORT_NOTE
        if isinstance(response.get("tree"), str):
            response["tree"] = "tree not used"
        if omitted:
            omitted["message"] = "not in this answer: ask for a larger max_chars"
    return response


#: The note on blocks that do not render to read_pages' Markdown, in few words.
_SHORT_NOTE = "these blocks differ from read_pages' Markdown of this page"


def _box(box: tuple[float, float, float, float]) -> BBox:
    return bbox(box, _PLACES)


def _preview(text: str) -> str:
    return text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 1] + "…"


def _response(found: PageInspection, document: Any) -> InspectResponse:
    page, trace = found.page, found.trace
    blocks: list[InspectBlock] = []
    for block in trace.blocks:
        item: InspectBlock = {
            "order": block.order,
            "kind": block.kind,
            "level": block.level,
            "bbox": _box(block.box),
            "text": _preview(block.text),
            "chars": len(block.text),
        }
        if block.shape is not None:
            item["table"] = {"rows": block.shape[0], "columns": block.shape[1]}
        blocks.append(item)
    response: InspectResponse = {
        "document": document,
        "page": page.number,
        "width": round(trace.width, _PLACES),
        "height": round(trace.height, _PLACES),
        "rotation": page.rotation,
        "status": page.status,
        "reason": page.reason,
        "reason_code": page.reason_code,
        "matches_output": found.matches_output,
        "counts": {
            "runs": len(trace.runs),
            "lines": len(trace.lines),
            "blocks": len(trace.blocks),
            "furniture": len(trace.furniture),
            "gutters": len(trace.gutters),
            "rules": len(trace.rules),
            "hidden": len(trace.hidden),
        },
        "runs": [
            {"text": r.text, "bbox": _box(r.box), "size": round(r.size, _PLACES)}
            for r in trace.runs[:MAX_RUNS]
        ],
        "lines": [_box(b) for b in trace.lines],
        "blocks": blocks,
        "furniture": [
            {
                "band": "header" if f.band == "header" else "footer",
                "bbox": _box(f.box),
                "text": _preview(f.text),
            }
            for f in trace.furniture
        ],
        "gutters": [_box(b) for b in trace.gutters],
        "rules": [_box(b) for b in trace.rules],
        # Invariant 15: what a reader would not see is reported, never shown.
        "hidden_text": [
            {"reason": h.reason, "bbox": _box(h.box), "chars": h.chars} for h in trace.hidden
        ],
        "svg": None,
    }
    if page.label:
        response["page_label"] = page.label
    if trace.tree:
        response["tree"] = trace.tree
    if trace.turn:
        response["turned"] = trace.turn
    if page.regions:
        response["regions_needing_review"] = review_regions(page.regions)
    if not found.matches_output:
        response["note"] = (
            "these blocks do not render to the page's Markdown as read_pages answers it (the "
            "page was not read whole by the document, e.g. past its work budget, or it was "
            "finished differently); the status and reason are the document's"
        )
    return response


def _fit_svg(
    response: InspectResponse, found: PageInspection, limit: int, omitted: InspectOmitted
) -> None:
    """The SVG with as much drawn as the budget allows (the lists are cut only after it)."""
    trace = found.trace
    attempts: list[tuple[str | None, Callable[[], str]]] = [
        (None, lambda: trace_svg(trace)),
        ("runs", lambda: trace_svg(trace, runs=False)),
        ("runs and lines", lambda: trace_svg(trace, runs=False, lines=False)),
    ]
    base = size(response) + _OMITTED_RESERVE
    for left_out, draw in attempts:
        if left_out == "runs" and not trace.runs:
            continue
        drawn = draw()
        if base + size(drawn) <= limit:
            response["svg"] = drawn
            if left_out:
                omitted["svg"] = left_out
            return
    omitted["svg"] = "all"


def _fit_lists(response: InspectResponse, room: int, omitted: InspectOmitted) -> bool:
    """The lists' tails left out, in :data:`_CUT_ORDER`, until the answer is at most ``room``
    characters; whether anything was left out."""
    if size(response) <= room:
        return False
    dropped = False
    if response["svg"] is not None:
        response["svg"] = None
        omitted["svg"] = "all"
        dropped = True
    for key in _CUT_ORDER:
        items: list[Any] = response.get(key, [])  # type: ignore[assignment]
        while items and size(response) > room:
            # Halve what is over, then trim one by one: a long list is cut in few measures.
            over = size(response) - room
            drop = max(1, min(len(items), over // max(size(items[-1]) + 1, 1)))
            del items[len(items) - drop :]
            counted: dict[str, int] = omitted  # type: ignore[assignment]
            counted[key] = counted.get(key, 0) + drop
            dropped = True
        if size(response) <= room:
            break
    return dropped


def _omitted_message(omitted: InspectOmitted, limit: int) -> str:
    parts = [
        f"{omitted[key]} {key.replace('_', ' ')}"  # type: ignore[literal-required]
        for key in _CUT_ORDER
        if key in omitted
    ]
    svg = omitted.get("svg")
    if svg == "all":
        parts.append("the SVG")
    elif svg:
        parts.append(f"the SVG's {svg} boxes")
    return (
        "not in this answer: " + ", ".join(parts) + f" (runs are listed up to {MAX_RUNS}; the "
        f"budget is {limit} characters: ask for a larger max_chars, or svg false)"
    )
