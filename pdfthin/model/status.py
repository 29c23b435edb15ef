"""Page status: ``text``, ``empty`` or ``needs_ocr``, each with a reason a person can read.

Invariant 3 of docs/design.md: a page that may hold text we could not read is never ``empty``. A
page is ``empty`` only when the engine read it completely and found nothing drawn that could
carry text: no text, no image, no more than a few vector strokes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
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

#: Runs of letters and digits: counted by their lengths (a list of runs, not of characters).
_ALNUM = re.compile(r"[^\W_]+", re.UNICODE)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def alnum_count(text: str) -> int:
    """How many letters and digits ``text`` holds."""
    return sum(map(len, _ALNUM.findall(text)))


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
    control = _control_chars(page)
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
        if page.incomplete and page.stopped_at_limit:
            # Not damage: a larger limit (or a rasterizer, which has its own) may read it.
            return (
                "needs_ocr",
                "limit_reached",
                "reading stopped at a limit before any text was read: "
                + "; ".join(page.problems[:2]),
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


def _control_chars(page: PageContent) -> int:
    """Glyphs mapped to control characters: they carry no text, like unmapped ones."""
    return len(_CONTROL.findall("".join(run.text for run in page.runs)))


def _visible_chars(layout: PageLayout) -> int:
    """Characters other than white space in the page's body (furniture left out)."""
    return sum(
        sum(1 for ch in line.text if ch.isprintable() and not ch.isspace())
        for block in layout.blocks
        for line in block.lines
    )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


# --- how sure the status is ---------------------------------------------------------------------

#: A page whose status is surer than this is clear-cut: no confidence is reported for it.
BORDERLINE_CONFIDENCE = 0.9
#: A page read only in part: how much is missing is not known, so its text layer is as likely
#: to be the whole page as not.
PARTIAL_CONFIDENCE = 0.5


@dataclass(frozen=True)
class Confidence:
    """How sure a page's status is (0.5: a coin toss; 1: certain) and what that rests on: the
    measurements beside the thresholds that decided."""

    value: float
    evidence: tuple[str, ...]


def status_confidence(
    page: PageContent, markdown: str, status: str, reason_code: str
) -> Confidence | None:
    """The confidence of a borderline status, ``None`` when the status is clear-cut.

    Each rule of :func:`page_status` compares a measurement with a threshold; the margin of a
    comparison is how far the measurement lies from its threshold, as a share of the way to
    the far end (0 at the threshold, 1 at the far end), and the confidence is ``0.5 + margin /
    2`` for the comparison that decided (for ``text``, the scan rule that came nearest to
    holding)."""
    if reason_code == "partial":
        return Confidence(
            PARTIAL_CONFIDENCE,
            (
                "part of the page could not be read: " + "; ".join(page.problems[:2]),
                "how much of its text is missing is not known",
            ),
        )
    if status == "needs_ocr" and reason_code == "scan_with_sparse_text":
        chars, coverage = alnum_count(markdown), image_coverage(page)
        rule = _scan_rule(chars, coverage)
        return _borderline(_scan_margin(chars, coverage, rule), _scan_evidence(chars, coverage))
    if status == "needs_ocr" and reason_code == "unmapped_glyphs":
        chars = alnum_count(markdown)
        unmapped = page.unmapped_glyphs + _control_chars(page)
        if not chars or not unmapped:
            return None
        margin = min(1.0, (unmapped - 2 * chars) / unmapped)
        return _borderline(margin, _unmapped_evidence(chars, unmapped))
    if status == "text" and reason_code == "text_layer":
        margins: list[tuple[float, tuple[str, ...]]] = []
        if page.images:
            chars, coverage = alnum_count(markdown), image_coverage(page)
            if coverage >= SCAN_COVERAGE_SPARSE:
                margins.append((_text_margin(chars, coverage), _scan_evidence(chars, coverage)))
        unmapped = page.unmapped_glyphs + (_control_chars(page) if page.unmapped_glyphs else 0)
        if unmapped:
            chars = alnum_count(markdown)
            margin = min(1.0, (2 * chars - unmapped) / (2 * chars))
            margins.append((margin, _unmapped_evidence(chars, unmapped)))
        if margins:
            return _borderline(*min(margins))
    return None


def _borderline(margin: float, evidence: tuple[str, ...]) -> Confidence | None:
    value = round(0.5 + max(0.0, min(1.0, margin)) / 2, 2)
    return Confidence(value, evidence) if value < BORDERLINE_CONFIDENCE else None


#: The two scan rules of :func:`page_status`: (least image coverage, fewest characters).
_SCAN_RULES = ((SCAN_COVERAGE, SCAN_TEXT_CHARS), (SCAN_COVERAGE_SPARSE, SPARSE_TEXT_CHARS))


def _scan_rule(chars: int, coverage: float) -> tuple[float, int]:
    """The scan rule that holds (the surer one when both do)."""
    holding = [r for r in _SCAN_RULES if coverage >= r[0] and chars < r[1]]
    return max(holding, key=lambda r: _scan_margin(chars, coverage, r))


def _scan_margin(chars: int, coverage: float, rule: tuple[float, int]) -> float:
    """How surely a scan rule holds: its nearer comparison's margin."""
    least, fewest = rule
    return min((fewest - chars) / fewest, (coverage - least) / (1 - least))


def _text_margin(chars: int, coverage: float) -> float:
    """How surely neither scan rule holds: for the rule nearest to holding, the margin of its
    comparison that fails by most."""
    fails = []
    for least, fewest in _SCAN_RULES:
        by_coverage = (least - coverage) / least if coverage < least else 0.0
        by_chars = min(1.0, (chars - fewest) / fewest) if chars >= fewest else 0.0
        fails.append(max(by_coverage, by_chars))
    return min(fails)


def _scan_evidence(chars: int, coverage: float) -> tuple[str, ...]:
    return (
        f"images cover {round(coverage * 100)}% of the page (a scan from "
        f"{round(SCAN_COVERAGE * 100)}%, or {round(SCAN_COVERAGE_SPARSE * 100)}% with almost no "
        "text)",
        f"the text layer has {chars} letters or digits (a scan below {SCAN_TEXT_CHARS}, or "
        f"{SPARSE_TEXT_CHARS})",
    )


def _unmapped_evidence(chars: int, unmapped: int) -> tuple[str, ...]:
    return (
        f"{unmapped} glyphs carry no text (no Unicode mapping) beside {chars} letters or "
        "digits read (OCR is needed above two such glyphs per character)",
    )
