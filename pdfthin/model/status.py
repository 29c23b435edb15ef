"""Page status: ``text``, ``empty`` or ``needs_ocr``, each with a reason a person can read.

Invariant 3 of docs/design.md: a page that may hold text we could not read is never ``empty``. A
page is ``empty`` only when the engine read it completely and found nothing drawn that could
carry text: no text, no image, no more than a few vector strokes.
"""

from __future__ import annotations

import re

from pdfthin.engine import PageContent
from pdfthin.layout import PageLayout

#: Fewer letters or digits than this is "no usable text".
MIN_TEXT_CHARS = 1
#: A page whose images cover this share of it and that has fewer characters than
#: SCAN_TEXT_CHARS reads as a scan (a caption or stamp over a scanned page).
SCAN_COVERAGE = 0.5
SCAN_TEXT_CHARS = 40
#: Smaller images count when the page has almost no text at all: a short caption under a
#: picture that may hold the page's real content (a slide's title over a chart does not).
SCAN_COVERAGE_SPARSE = 0.1
SPARSE_TEXT_CHARS = 25
#: More painted paths than this, and no text: text may be drawn as outlines.
OUTLINE_PATHS = 30

_ALNUM = re.compile(r"[^\W_]", re.UNICODE)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def alnum_count(text: str) -> int:
    """How many letters and digits ``text`` holds."""
    return len(_ALNUM.findall(text))


def image_coverage(page: PageContent) -> float:
    """Share of the page area covered by images (overlaps counted once, on a coarse grid:
    a cell is covered when its centre lies in an image)."""
    if not page.images or page.width <= 0 or page.height <= 0:
        return 0.0
    grid = 40
    cw = page.width / grid
    ch = page.height / grid
    # A cell's centre is inside an image when its column's and its row's are: per column,
    # the covered rows as the bits of an int.
    columns = [0] * grid
    for image in page.images:
        x0, y0, x1, y1 = image.bbox
        x0, x1 = max(0.0, x0), min(page.width, x1)
        y0, y1 = max(0.0, y0), min(page.height, y1)
        if x1 <= x0 or y1 <= y0:
            continue
        across = range(int(x0 / cw), min(grid, int(x1 / cw) + 1))
        if not across:
            continue
        rows = 0
        for gy in range(int(y0 / ch), min(grid, int(y1 / ch) + 1)):
            if y0 <= (gy + 0.5) * ch <= y1:
                rows |= 1 << gy
        for gx in across:
            if x0 <= (gx + 0.5) * cw <= x1:
                columns[gx] |= rows
    return sum(bin(rows).count("1") for rows in columns) / (grid * grid)


def page_status(page: PageContent, layout: PageLayout, markdown: str) -> tuple[str, str, str]:
    """``(status, reason code, reason)`` for one page."""
    chars = alnum_count(markdown)
    coverage = image_coverage(page)
    images = len(page.images)
    control = len(_CONTROL.findall("".join(run.text for run in page.runs)))
    unmapped = page.unmapped_glyphs + control
    # Glyphs a font maps to control characters carry no text either (they never reach the
    # Markdown), and say as little as glyphs without a mapping.
    unreadable = "have no Unicode mapping" + (" or map to control characters" if control else "")
    if chars < MIN_TEXT_CHARS:
        if unmapped:
            return (
                "needs_ocr",
                "unmapped_glyphs",
                f"{unmapped} glyphs {unreadable} and no text was read",
            )
        if images:
            return (
                "needs_ocr",
                "image_only",
                (
                    f"no text layer; {_count(images, 'image')} "
                    f"{'covers' if images == 1 else 'cover'} {round(coverage * 100)}% of the page"
                ),
            )
        if page.paths > OUTLINE_PATHS:
            return (
                "needs_ocr",
                "vector_only",
                (f"no text layer; {page.paths} vector paths may draw text as outlines"),
            )
        if page.incomplete:
            return (
                "needs_ocr",
                "unreadable",
                "the page could not be read completely: " + "; ".join(page.problems[:2]),
            )
        symbols = _visible_chars(layout)
        if symbols:
            # Arrows, dingbats, math or box-drawing signs with no letter beside them are still
            # what the page says: read, not empty.
            return (
                "text",
                "symbols_only",
                f"the text layer holds {_count(symbols, 'symbol')} and no letters or digits",
            )
        if layout.header or layout.footer:
            return "empty", "furniture_only", "only a running header, footer or page number"
        if page.hidden:
            return (
                "empty",
                "hidden_only",
                f"no visible text ({len(page.hidden)} hidden text runs withheld)",
            )
        return (
            "empty",
            "blank",
            ("nothing is drawn on the page" if not page.paths else "only a few vector lines"),
        )
    if unmapped and unmapped > 2 * chars:
        return (
            "needs_ocr",
            "unmapped_glyphs",
            (
                f"most glyphs ({unmapped} of {page.glyphs}) {unreadable}; "
                f"only {chars} characters read"
            ),
        )
    if (coverage >= SCAN_COVERAGE and chars < SCAN_TEXT_CHARS) or (
        coverage >= SCAN_COVERAGE_SPARSE and chars < SPARSE_TEXT_CHARS
    ):
        return (
            "needs_ocr",
            "scan_with_sparse_text",
            (
                f"an image covers {round(coverage * 100)}% of the page and the text layer has "
                f"only {chars} characters"
            ),
        )
    if any(r.ocr_layer for r in page.runs):
        return "text", "ocr_layer", "text from the scanner's invisible OCR layer"
    if page.incomplete:
        return "text", "partial", "text layer, read in part: " + "; ".join(page.problems[:2])
    return "text", "text_layer", "text layer"


def _visible_chars(layout: PageLayout) -> int:
    """Characters other than white space in the page's body (furniture left out)."""
    return sum(
        sum(1 for ch in line.text if ch.isprintable() and not ch.isspace())
        for block in layout.blocks
        for line in block.lines
    )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
