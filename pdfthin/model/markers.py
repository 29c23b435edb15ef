"""Page markers: where Markdown joined from several pages crosses onto a page.

``<!-- page 7 -->``, or, for a page that was not read whole (it needs OCR, or its text layer
was read only in part), with its status and reason code: ``<!-- page 7: needs_ocr
(image_only) -->``, so the gap shows where the page's text would be (invariant 3). Text on a
page that imitates a marker is escaped (``&lt;!--``, the same text once rendered), so a
document can never forge a page break or a gap.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # document.py imports this module
    from pdfthin.model.document import Page

PAGE_MARKER = re.compile(r"<!-- page (\d+)(?:: ([a-z_]+) \(([a-z_]+)\))? -->")


def escape_markers(markdown: str) -> str:
    """Page Markdown to place beside page markers: an HTML comment opener in the page's own
    text becomes ``&lt;!--``."""
    return markdown.replace("<!--", "&lt;!--")


#: The reason a transcribed page's marker gives: who read it (``<!-- page 7: ocr (agent) -->``).
AGENT_READ = "agent"


def page_marker(page: Page, transcribed: bool = False) -> str:
    """``transcribed``: the page (which needs OCR) is shown as the agent transcribed it."""
    if transcribed:
        return f"<!-- page {page.number}: ocr ({AGENT_READ}) -->"
    if page.unreadable:
        return f"<!-- page {page.number}: {page.status} ({page.reason_code}) -->"
    return f"<!-- page {page.number} -->"


def joined_pages(
    pages: Iterable[Page], transcribed: Mapping[int, str] | None = None
) -> tuple[str, list[tuple[int, int]]]:
    """The pages' Markdown joined by blank lines, each page not read whole marked where its
    text would be (a page read whole and empty adds nothing), and where each page starts:
    ``[(offset, page number)]``. A page in ``transcribed`` (one that needs OCR, with the
    agent's transcription) shows that text, after a marker that says so."""
    parts: list[str] = []
    starts: list[tuple[int, int]] = []
    length = 0
    agent = transcribed or {}
    for page in pages:
        text = escape_markers(agent.get(page.number, page.markdown))
        if page.number in agent:
            text = f"{page_marker(page, True)}\n\n{text}"
        elif page.unreadable:
            text = f"{page_marker(page)}\n\n{text}" if text else page_marker(page)
        if not text:
            continue
        if parts:
            parts.append("\n\n")
            length += 2
        starts.append((length, page.number))
        parts.append(text)
        length += len(text)
    return "".join(parts), starts
