"""``submit_transcription``: the agent as OCR, through a plain tool.

An agent that looked at a page's image (``get_page_image``) gives its text back here. It is
kept in the server's cache of transcriptions (:class:`pdfthin.ocr.store.AgentTranscriptions`:
in memory, and in ``PDFTHIN_OCR_CACHE_DIR`` when that is configured, nowhere else), per
document fingerprint and page (and region), and shown from then on with provenance
``agent``.

The OCR rules hold (docs/ocr.md):

- a page's text layer is never replaced: a whole-page transcription is taken only for a page
  whose status is ``needs_ocr`` (any other page is ``invalid_argument``, naming its status);
  a page with a text layer takes transcriptions of regions (a scanned signature, a chart's
  words), which are kept apart from its text (read_pages lists them under
  ``transcriptions``) and never merged into it;
- a page transcribed whole reads as status ``ocr`` with provenance ``agent`` in read_pages,
  find_in_document, get_chunks and search_chunks;
- the text is bounded (:data:`~pdfthin.ocr.store.MAX_TRANSCRIPTION_CHARS`) and must hold
  something besides white space.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pdfthin.errors import PdfthinError
from pdfthin.ocr.store import AgentText
from pdfthin.operations.boxes import parse_boxes
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.page_image import check_region
from pdfthin.operations.params import REGION, TRANSCRIBED_PAGE, TRANSCRIPTION
from pdfthin.operations.response import bbox, document_ref
from pdfthin.pages import check_page

if TYPE_CHECKING:
    from pdfthin.operations.types import TranscriptionResponse


def submit_transcription(
    document: Source,
    *,
    page: int,
    text: str,
    region: Any = None,
    password: str | None = None,
    context: Context | None = None,
) -> TranscriptionResponse:
    """Keep ``text`` as the agent's transcription of ``page`` (or of ``region`` of it)."""
    context = context or default_context()
    number: int = TRANSCRIBED_PAGE.check(page)
    body: str = TRANSCRIPTION.check(text)
    rect = None if region is None else parse_boxes(REGION.check(region), REGION.name)
    if rect is not None and len(rect) != 1:
        raise PdfthinError("invalid_argument", "region must be one box", argument="region")
    doc = context.document(document, password)
    check_page(number, doc.page_count)
    the_page = doc.page(number)
    box = None
    if rect is not None:
        box = check_region(rect[0], number, the_page.width, the_page.height)
    elif the_page.status != "needs_ocr":
        raise PdfthinError(
            "invalid_argument",
            f"page {number} has status {the_page.status!r}, not 'needs_ocr': a transcription "
            "never replaces a page's text layer; transcribe a region of it instead (region)",
            argument="page",
            status=the_page.status,
        )
    texts = context.transcriptions.add(doc.fingerprint, AgentText(number, box, body))
    response: TranscriptionResponse = {
        "document": document_ref(doc),
        "page": number,
        "region": None if box is None else bbox(box),
        "chars": len(body),
        "provenance": "agent",
        "status": "ocr" if box is None else the_page.status,
        "regions_transcribed": len(texts.regions),
        "persisted": context.transcriptions.directory is not None,
        "message": (
            f"page {number} now reads as status 'ocr', provenance 'agent'"
            if box is None
            else f"kept apart from page {number}'s text: read_pages lists it under transcriptions"
        ),
    }
    return response
