"""Document-wide structure: running headers and footers, headings and list items.

These look across pages: a header is a header because it repeats, and a heading is a heading
because it stands out from the body text of the document (see :mod:`.headings`). What they
learn from the pages they are given (:class:`FurnitureProfile`, the body size) can be kept and
applied to one more page alone: a document's profile (``pdfthin/layout/__init__.py``).
"""

from __future__ import annotations

import bisect
import dataclasses
import math
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from operator import itemgetter

from pdfthin.layout.blocks import ROW_BASELINE_EM
from pdfthin.layout.headings import NOTE_SIZE_RATIO, body_size, measure_right
from pdfthin.layout.lines import (
    BULLET_MARK,
    COLUMN_LINE_EM,
    ENUM_MARK,
    NOTE_SIGNS,
    measure_broke,
)
from pdfthin.layout.tables.values import row_words
from pdfthin.layout.types import Block, Line, PageLayout

#: Share of the page height, at the top and at the bottom, and of its width, at the left and
#: at the right, where running furniture lives (a landscape page's running head, turned with
#: its table, stands at a side; so does a publisher's "Downloaded from ..." stamp).
BAND = 0.12
#: A block at the top or bottom longer than this is text, whatever repeats: a running head is
#: short. (A block in a side band needs no such cap: the band's width bounds it.)
MAX_FURNITURE_CHARS = 120
#: A page number alone may stand further in than ``BAND``, down to this share of the page's
#: height from the top or bottom (LaTeX's default article sets it 15 % from the bottom), when
#: the document's numbering confirms it (the printed numbers of its pages agree). So may a
#: running head or foot told by its own page number (``RUNNING_SIZE_SHARE``): Springer's
#: LNCS running title stands 13 % from the top of a letter-size page.
NUMBER_BAND = 0.2
#: A line in a side band is turned text when it runs at least this many ems down the page.
TURNED_MIN_EM = 2.0
#: A running head or foot told on its page alone (a page of its own repeats nothing; a
#: chapter's running head changes too often to repeat): the outermost line at the top or
#: bottom edge, set smaller than the page's body text (at most this share of its size),
#: whose page number stands apart from its words...
RUNNING_SIZE_SHARE = 0.95
#: ... by at least this many ems of the line's size: "Title      9", a browser's
#: "https://...      1/34". A heading's number ("1 Introduction") and a footnote's mark
#: stand a space from their words; a line number beside body text is set at the body's size.
NUMBER_APART_EM = 3.0
#: ... or by one of these standing alone between them: "Annual Report 2023 | 17".
RUNNING_SEPARATORS = frozenset("|•·▪■◆—–")
#: A text that runs at the pages' edges, set at least this many times the size it has at
#: that edge on most pages, is the document's or a chapter's title that the running lines
#: repeat (a specification's title over its first page, its running head on every other
#: page): it stays in the page's text.
TITLE_OVER_RUNNING = 1.2
#: A footnote's first words: its mark, then its text ("1 See", "¹See", "* 21 CFR").
_NOTE_START = re.compile(r"^\s*(?:\d{1,3}|[" + re.escape(NOTE_SIGNS) + r"]+)(?:\s+\S|[^\W\d_])")
#: A page number: figures, a roman numeral as front matter numbers its pages (up to 399, in
#: its own order: "mix", "civil" and "mid" are words), or "3 / 12".
_NUMBER_TOKEN = re.compile(
    r"^(?:\d{1,4}|(?=[ivxlc])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})|\d{1,4}\s*/\s*\d{1,4})$",
    re.IGNORECASE,
)

#: The identifier arXiv stamps sideways along the left edge of a preprint's first page
#: ("arXiv:1601.03642v1 [cs.CV] 12 Jan 2016", "arXiv:hep-th/9901001v2 ..."): on one page of
#: its document only, so nothing repeats to tell it from the page's text.
_ARXIV_STAMP = re.compile(r"^arXiv:\s?(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?\b")
#: A publisher's imprint: a DOI, a copyright, an ISSN.
_IMPRINT = re.compile(
    r"\bdoi(?:\.org)?\s*[:/]\s*10\.\d{4,9}/|©|\(c\)\s*(?:19|20)\d\d|\bcopyright\b|\bISSN\b",
    re.IGNORECASE,
)
#: A journal's citation of the article: "Physics Letters B 790 (2019) 12-20",
#: "Vol. 12, No. 3, pp. 45-67".
_CITATION_HEAD = re.compile(
    r"\b\d{1,4}\s*\((?:19|20)\d\d\)\s*,?\s*\d+\s*[-–]\s*\d+|"
    r"\bvol(?:ume)?\.?\s*\d+\b.*\b(?:no|issue|pp?)\.?\s*\d+",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(
    r"^(?:page|seite|página|pagina|p\.)?\s*[-–—(\[]?\s*"
    r"(?:\d{1,4}|[ivxlcdm]{1,7})\s*[-–—)\]]?"
    r"(?:\s*(?:of|/|von|de)\s*\d{1,4})?$",
    re.IGNORECASE,
)
_LETTERS = re.compile(r"[^\W\d_]")
#: A capital letter and a period opening a line: an enumeration's mark, or an initial ...
_CAPITAL_MARK = re.compile(r"^([A-Z])\.\s")
#: ... and a roman numeral of two letters or more, the neighbour of "I.", "V." or "X."
#: (kept with them under a key no letter is).
_ROMAN_MARK = re.compile(r"^[IVX]{2,5}\.\s")
_ROMAN = "roman"
#: Marks that open footnotes as well as list items.
_NOTE_MARKS = frozenset("*")
#: A continuation line starting this many ems right of its item's marker hangs under the
#: item's text (a hanging indent): it belongs to the item.
HANG_EM = 0.5


def release_spans(lines: list[Line], height: float) -> None:
    """Let go of the lines' pieces (``Line.spans``, read by table detection) but those of
    lines at the page's top and bottom edges, which :func:`mark_furniture` reads
    (:func:`_number_apart`)."""
    top, bottom = NUMBER_BAND * height, (1 - NUMBER_BAND) * height
    for line in lines:
        if top < line.y1 and line.y0 < bottom:
            line.spans = ()


def _key(text: str) -> str:
    return " ".join(_DIGITS.sub("#", text.lower()).split())


@dataclass(frozen=True)
class FurnitureProfile:
    """What the furniture pass learns from the pages it is given (the whole document, or the
    sample of pages a document's profile is made from): how often each short text recurs in
    each band, on how many pages beside other text, and the printed page numbering."""

    #: Pages looked at.
    pages: int
    #: key -> pages on which a text with that key stands in a band, any band (a page turned
    #: landscape has its running head at a side).
    counts: Counter[str]
    #: The same, counting only pages that hold other text too.
    with_body: Counter[str]
    #: ``printed - position`` of the page numbers, when the pages agree on it.
    offset: int | None
    #: Where and how the running lines that repeat stand: band, look (see ``_look``) and
    #: line (its bottom, to the point) of each (``_place``). A chapter's running head
    #: repeats only in its chapter; set like the book's and on its line, it is one too
    #: ("“PROPERTY” 87" where the facing pages read "88 FREE CULTURE").
    places: frozenset[tuple[str, tuple[str, float, bool, bool], int]] = frozenset()
    #: (band, key) -> the size a text that repeats has there on most pages (the smaller of
    #: two as common), to the tenth of a point (see ``TITLE_OVER_RUNNING``).
    sizes: Mapping[tuple[str, str], float] = dataclasses.field(default_factory=dict)


def mark_structure(pages: list[PageLayout]) -> None:
    """:func:`mark_furniture`, then :func:`mark_lists`."""
    mark_furniture(pages)
    mark_lists(pages)


def mark_furniture(
    pages: list[PageLayout], profile: FurnitureProfile | None = None
) -> FurnitureProfile:
    """Move running headers, footers and page numbers out of each page's blocks: what
    repeats over ``profile``'s pages (by default, over ``pages`` themselves)."""
    candidates = [_candidates(page) for page in pages]
    if profile is None:
        profile = _furniture_profile(pages, candidates)
    for page, found in zip(pages, candidates, strict=True):
        _move_furniture(page, found, profile)
    return profile


def furniture_profile(pages: list[PageLayout]) -> FurnitureProfile:
    """What repeats at the edges of ``pages`` (laid out, not finished yet)."""
    return _furniture_profile(pages, [_candidates(page) for page in pages])


def _candidates(page: PageLayout) -> list[tuple[Block, str, str]]:
    """The page's short blocks at its top or bottom edge, with their band and key."""
    found: list[tuple[Block, str, str]] = []
    for block in page.blocks:
        band = _band(block, page) or _number_band(block, page)
        if band is None or block.kind == "table" or len(block.lines) > 2:
            continue
        text = block.text
        if band in ("left", "right"):
            if not _turned(block):
                continue
        elif len(text) > MAX_FURNITURE_CHARS:
            continue
        found.append((block, band, _key(text)))
    return found


def _furniture_profile(
    pages: list[PageLayout], candidates: list[list[tuple[Block, str, str]]]
) -> FurnitureProfile:
    counts: Counter[str] = Counter()
    # A line that repeats on pages that hold nothing else (the same short text on every page
    # of a small document) is those pages' content, not their furniture.
    with_body: Counter[str] = Counter()
    for page, found in zip(pages, candidates, strict=True):
        keys = {key for _, _, key in found}
        counts.update(keys)
        if len(page.blocks) > len(found):
            with_body.update(keys)
    offset = _page_number_offset(pages, candidates)
    profile = FurnitureProfile(len(pages), counts, with_body, offset)
    seen: dict[tuple[str, str], Counter[float]] = {}
    for found in candidates:
        for block, band, key in found:
            if _repeated(key, profile):
                seen.setdefault((band, key), Counter())[round(block.size, 1)] += 1
    sizes = {at: min(counts, key=lambda s: (-counts[s], s)) for at, counts in seen.items()}
    profile = dataclasses.replace(profile, sizes=sizes)
    places = frozenset(
        _place(block, band)
        for found in candidates
        for block, band, key in found
        if len(pages) >= 2
        and _repeated(key, profile)
        and not _title_of_running(block, band, key, profile)
        and len(block.lines) == 1
        and _LETTERS.search(key)
    )
    return dataclasses.replace(profile, places=places)


def _title_of_running(block: Block, band: str, key: str, profile: FurnitureProfile) -> bool:
    """``block`` is set far larger than the running lines that repeat its text at its edge
    do: a title (``TITLE_OVER_RUNNING``)."""
    return block.size >= TITLE_OVER_RUNNING * profile.sizes.get((band, key), math.inf)


def _repeated(key: str, profile: FurnitureProfile) -> bool:
    """Whether a text of ``key`` recurs in a band as running furniture does: on enough of the
    profile's pages, and on pages holding other text (the same short text on every page of
    a small document, and nothing else, is those pages' content). A title the running
    lines repeat is counted with them (:func:`_title_of_running` keeps it)."""
    n, count = profile.pages, profile.counts[key]
    repeat_min = 2 if n <= 3 else max(3, math.ceil(0.25 * n))
    return count >= repeat_min and 2 * profile.with_body[key] >= count


def _place(block: Block, band: str) -> tuple[str, tuple[str, float, bool, bool], int]:
    """A one-line block's band, look and line (its bottom, to the point; one look, one
    descent): where a running line stands."""
    return band, _look(block), round(block.lines[0].y1)


def _move_furniture(
    page: PageLayout, found: list[tuple[Block, str, str]], profile: FurnitureProfile
) -> None:
    n = profile.pages
    offset = profile.offset
    furniture: list[tuple[Block, str]] = []
    edges = _body_edges(page, found)
    rest: list[tuple[Block, str]] = []
    for block, band, key in found:
        number = block.text.strip()
        if _band(block, page) is None:  # a number past the band (_number_band)
            if (
                offset is not None
                and _fits(number, page, offset)
                # (or beyond it once the lines on its baseline are left out: a page number
                # beside its running head, the head read as a block of its own)
                and (
                    _at_edge(block, band, edges)
                    or _at_edge(block, band, _body_edges(page, found, level_with=block))
                )
            ):
                furniture.append((block, band))
            continue
        repeated = _repeated(key, profile) and not _title_of_running(block, band, key, profile)
        words = _LETTERS.search(key) is not None
        # (a number at a side is a chart's tick as often as a page's number)
        page_number = band in ("top", "bottom") and bool(_PAGE_NUMBER.match(number))
        if (
            (words and n >= 2 and repeated)
            or (band in ("left", "right") and _ARXIV_STAMP.match(number) is not None)
            or (page_number and _at_edge(block, band, edges) and _fits(number, page, offset))
            or (words and _numbered_in_place(block, band, profile))
            or all(line.artifact for line in block.lines)
            or (not words and not page_number and n >= 4 and repeated)
        ):
            furniture.append((block, band))
        elif band in ("top", "bottom") and _at_edge(block, band, edges):
            rest.append((block, band))
    # Past BAND, only a line carrying its page number apart from its words may be a running
    # head or foot, and only _running_lines can take it (nothing counts it as repeating).
    rest += _running_band(page, found)
    if rest:
        furniture += _running_lines(page, rest, furniture, offset, alone=n == 1)
    if not furniture:
        return
    drop = {id(b) for b, _ in furniture}
    page.blocks = [b for b in page.blocks if id(b) not in drop]
    page.furniture.extend(b for b, _ in furniture)
    # A side's furniture goes with the footer: stamps and notices, not running heads, mostly.
    # (top to bottom, a row left to right: a running line and its page number found apart)
    for block, band in sorted(furniture, key=lambda fb: (round(fb[0].y1), fb[0].x0)):
        (page.header if band == "top" else page.footer).append(block.text)


def _numbered_in_place(block: Block, band: str, profile: FurnitureProfile) -> bool:
    """A line opening or ending with a number that stands where the document's repeated
    running lines stand, set like them (``FurnitureProfile.places``): a running line that
    changes with its chapter."""
    if len(block.lines) != 1 or _place(block, band) not in profile.places:
        return False
    words = block.text.split()
    return len(words) >= 2 and bool(_NUMBER_TOKEN.match(words[0]) or _NUMBER_TOKEN.match(words[-1]))


def _running_lines(
    page: PageLayout,
    edge: list[tuple[Block, str]],
    furniture: list[tuple[Block, str]],
    offset: int | None,
    *,
    alone: bool = False,
) -> list[tuple[Block, str]]:
    """Running heads and feet told on the page itself (a page of its own repeats nothing):
    lines of ``edge`` (top and bottom blocks beyond the body, not furniture yet) with no other
    text beyond them, set smaller than the body (``RUNNING_SIZE_SHARE``; at any size when the
    document's numbering confirms their number), with a page number
    :data:`NUMBER_APART_EM` or more away on their baseline: in the line itself, or a page
    number found on its own that agrees with the document's numbering (a number on its own
    is a slide's or a form's as often; and a line beside it that opens with a note mark is
    a footnote). A document of one page (``alone``: a page taken out of its document) has no
    numbering to agree with: there the page number found on its own counts as it stands.
    With one found, the other outermost lines set in its look go with it: at the top, or on
    its baseline at the bottom."""
    numbers = [
        b
        for b, band in furniture
        if band in ("top", "bottom")
        and (offset is not None or alone)
        and _PAGE_NUMBER.match(b.text.strip())
        and _fits(b.text.strip(), page, offset)
    ]
    if len(numbers) > 2:
        numbers = []  # a page prints its number once, twice at most: these are something else
    found: list[tuple[Block, str]] = []
    body: float | None = None  # measured when a line needs it
    clearance: _Clearance | None = None  # (likewise)
    moved = {id(b) for b, _ in furniture}
    staying = [o for o in page.blocks if id(o) not in moved]
    # Nothing of the page beyond a line: it starts above every other block's bottom (top),
    # ends below every other block's top (bottom). Two numbers, however many lines ask.
    first_bottom = min((o.y1 for o in staying), default=math.inf)
    last_top = max((o.y0 for o in staying), default=-math.inf)
    for block, band in edge:
        if (block.y0 >= first_bottom) if band == "top" else (block.y1 <= last_top):
            continue  # text beyond it: not the page's outermost line
        number = _number_apart(block)
        next_to = [n for n in numbers if _beside(block, n)] if number is None else []
        beside = bool(next_to) and _NOTE_START.match(block.text) is None
        imprint = number is None and not beside and _imprint(block, band)
        if imprint:
            if clearance is None:
                clearance = _Clearance(staying)
            imprint = clearance.set_apart(block, band)
        if number is None and not beside and not imprint:
            continue
        if body is None:
            body = body_size([page])
        fits = beside or imprint or (number is not None and _fits(number, page, offset))
        # The size is the evidence where nothing else is: a number the document's own
        # numbering confirms (a LaTeX book's running head, set at the body's size) is
        # evidence enough.
        confirmed = _confirmed(number, page, offset) or (
            beside and any(_confirmed(n.text.strip(), page, offset) for n in next_to)
        )
        if fits and (block.size <= RUNNING_SIZE_SHARE * body or confirmed):
            found.append((block, band))
    if not found:
        return found
    # Running lines come in a set, set alike: a browser's printed header ("10/1/24, 3:42
    # PM", the page's title) over the footer found by its "1/34", a journal's head over its
    # foot. Another outermost line at the top in the look of one found (font, size, weight,
    # slant) is one of them, number or not. At the bottom only on a found line's baseline
    # (a report's title left of its "NNMB 3"): a footnote is set in a running head's small
    # type as often, and stands at the bottom with nothing below it.
    looks = {_look(b) for b, _ in found}
    feet = sorted((b for b, band in found if band == "bottom"), key=lambda b: b.y1)
    baselines = [b.y1 for b in feet]  # (a hostile row of thousands: each line asks a few)
    taken = {id(b) for b, _ in found}
    for block, band in edge:
        if id(block) in taken or len(block.lines) != 1 or _look(block) not in looks:
            continue
        if band == "bottom":
            reach = ROW_BASELINE_EM * max(block.size, 1.0)  # _level's, at its widest
            lo = bisect.bisect_left(baselines, block.y1 - reach)
            hi = bisect.bisect_right(baselines, block.y1 + reach)
            if not any(_level(block, foot) for foot in feet[lo:hi]):
                continue
        if (block.y0 >= first_bottom) if band == "top" else (block.y1 <= last_top):
            continue  # text beyond it
        found.append((block, band))
    return found


def _imprint(block: Block, band: str) -> bool:
    """A publisher's line: a DOI, a copyright or an ISSN at either edge, the journal's
    citation (volume, year, pages) at the top; what a journal prints on an article's first
    page alone, so nothing repeats to tell it. Not a footnote or a reference (a mark first)."""
    text = block.text
    if _NOTE_START.match(text) or text.lstrip().startswith("["):
        return False
    return _IMPRINT.search(text) is not None or (
        band == "top" and _CITATION_HEAD.search(text) is not None
    )


class _Clearance:
    """The page's other blocks, sorted to tell how far the nearest one above or below a line
    stands from it in a logarithmic look each (a hostile page's thousands of edge lines)."""

    def __init__(self, blocks: list[Block]) -> None:
        by_top = sorted(blocks, key=lambda b: b.y0)
        self.tops = [b.y0 for b in by_top]
        self.lowest_bottom: list[float] = []  # of the blocks starting up to each
        low = -math.inf
        for b in by_top:
            low = max(low, b.y1)
            self.lowest_bottom.append(low)
        by_bottom = sorted(blocks, key=lambda b: b.y1)
        self.bottoms = [b.y1 for b in by_bottom]
        self.highest_top: list[float] = [0.0] * len(by_bottom)  # of the blocks ending from each
        high = math.inf
        for k in range(len(by_bottom) - 1, -1, -1):
            high = min(high, by_bottom[k].y0)
            self.highest_top[k] = high

    def set_apart(self, block: Block, band: str) -> bool:
        """Whether a blank line's height (``block``'s size) or more parts ``block`` from the
        nearest other block on the body's side: a journal's imprint stands clear of the
        text, a reference or a note at the column's foot follows its neighbours at their
        leading. (Blocks level with it, a running line's other parts, are beside it, not
        before it.)"""
        clear = max(block.size, 1.0)
        if band == "bottom":
            k = bisect.bisect_left(self.tops, block.y0 - clear / 2)  # those starting above
            return k == 0 or block.y0 - self.lowest_bottom[k - 1] >= clear
        k = bisect.bisect_right(self.bottoms, block.y1 + clear / 2)  # those ending below
        return k == len(self.bottoms) or self.highest_top[k] - block.y1 >= clear


def _look(block: Block) -> tuple[str, float, bool, bool]:
    """A one-line block's typeface, size (to a tenth of a point), weight and slant."""
    line = block.lines[0]
    return (line.font, round(line.size, 1), line.bold, line.italic)


def _level(a: Block, b: Block) -> bool:
    """``a`` and ``b`` stand on one baseline."""
    return abs(a.y1 - b.y1) <= ROW_BASELINE_EM * max(min(a.size, b.size), 1.0)


def _beside(block: Block, number: Block) -> bool:
    """``number`` stands on ``block``'s baseline, :data:`NUMBER_APART_EM` or more away."""
    em = max(block.size, 1.0)
    gap = max(number.x0 - block.x1, block.x0 - number.x1)
    return abs(block.y1 - number.y1) <= ROW_BASELINE_EM * em and gap >= NUMBER_APART_EM * em


def _number_apart(block: Block) -> str | None:
    """The page number a one-line block starts or ends with, when it stands
    :data:`NUMBER_APART_EM` or more from the line's words (see ``RUNNING_SIZE_SHARE``), or
    one of :data:`RUNNING_SEPARATORS` stands between them."""
    if len(block.lines) != 1:
        return None
    line = block.lines[0]
    tokens = line.text.split()
    if len(tokens) > 2:
        if tokens[1] in RUNNING_SEPARATORS and _NUMBER_TOKEN.match(tokens[0]):
            return tokens[0]
        if tokens[-2] in RUNNING_SEPARATORS and _NUMBER_TOKEN.match(tokens[-1]):
            return tokens[-1]
    words = row_words([line], line.size)  # a head drawn a glyph at a time is read by its words
    if len(words) < 2:
        return None
    apart = NUMBER_APART_EM * max(line.size, 1.0)
    first, after = words[0], words[1]
    if _NUMBER_TOKEN.match(first[2]) and after[0] - first[1] >= apart:
        return first[2]
    before, last = words[-2], words[-1]
    if _NUMBER_TOKEN.match(last[2]) and last[0] - before[1] >= apart:
        return last[2]
    return None


def _page_number_offset(
    pages: list[PageLayout], candidates: list[list[tuple[Block, str, str]]]
) -> int | None:
    """How printed page numbers relate to page positions (``printed - position``), when the
    document agrees on it: then a "0" on page 1 is a figure label, not a page number."""
    offsets: Counter[int] = Counter()
    for page, found in zip(pages, candidates, strict=True):
        for block, _, _ in found:
            text = block.text.strip()
            if text.isdecimal() and len(text) <= 4:
                offsets[int(text) - page.number] += 1
    if not offsets:
        return None
    # ``most_common(2)`` (ties in first-seen order), without its first-time import of heapq
    ranked = [*sorted(offsets.items(), key=itemgetter(1), reverse=True)[:2], (0, 0)]
    (best, count), (_, runner_up) = ranked[0], ranked[1]
    return best if count >= 2 and count > 2 * runner_up else None


def _fits(number: str, page: PageLayout, offset: int | None) -> bool:
    """A printed number agrees with the document's numbering (or nothing says otherwise)."""
    return offset is None or not number.isdecimal() or int(number) - page.number == offset


def _confirmed(number: str | None, page: PageLayout, offset: int | None) -> bool:
    """``number`` is the page's printed number by the document's own numbering (the printed
    numbers of its pages agree on ``offset``), not only not contradicted by it (``_fits``)."""
    return (
        number is not None
        and offset is not None
        and number.isdecimal()
        and _fits(number, page, offset)
    )


def _body_edges(
    page: PageLayout, found: list[tuple[Block, str, str]], level_with: Block | None = None
) -> tuple[float, float]:
    """Top of the highest and bottom of the lowest block that is not a furniture candidate
    (nor on ``level_with``'s baseline, when given)."""
    candidates = {id(block) for block, _, _ in found}
    body = [
        b
        for b in page.blocks
        if id(b) not in candidates and (level_with is None or not _level(b, level_with))
    ]
    if not body:
        return page.height, 0.0
    return min(b.y0 for b in body), max(b.y1 for b in body)


def _at_edge(block: Block, band: str, edges: tuple[float, float]) -> bool:
    """A lone number is a page number only beyond the body text: a "0" inside a figure near
    the top of the page is a figure label. (Only the top and bottom bands hold page
    numbers.)"""
    top, bottom = edges
    if band == "top":
        return block.y1 <= top + 2.0
    return block.y0 >= bottom - 2.0


def _turned(block: Block) -> bool:
    """One line of text set across the page's lines: taller than it is wide, and at least
    :data:`TURNED_MIN_EM` long (a letter or a digit alone is taller than wide too). In a side
    band only such a line can be furniture: what stands upright in a margin is a form's
    answers, a list's bullets, a chart's ticks."""
    tall = block.y1 - block.y0
    return (
        len(block.lines) == 1
        and tall > block.x1 - block.x0
        and tall >= TURNED_MIN_EM * max(block.size, 1.0)
    )


def _number_band(block: Block, page: PageLayout) -> str | None:
    """A short number within :data:`NUMBER_BAND` of the top or bottom: which edge."""
    if not (block.text.strip().isdecimal() and len(block.text.strip()) <= 4):
        return None
    return _edge(block, page, NUMBER_BAND)


def _edge(block: Block, page: PageLayout, share: float) -> str | None:
    """``top`` or ``bottom`` when the whole block lies within ``share`` of the page's height
    from that edge."""
    if page.height <= 0:
        return None
    if block.y1 <= share * page.height:
        return "top"
    if block.y0 >= (1 - share) * page.height:
        return "bottom"
    return None


def _running_band(page: PageLayout, found: list[tuple[Block, str, str]]) -> list[tuple[Block, str]]:
    """The one-line blocks past ``BAND`` but within :data:`NUMBER_BAND` of the top or bottom
    (not candidates already) whose page number stands apart from their words, in the line or
    on its baseline as a block of its own (a candidate), with their edge: what
    :func:`_running_lines` is asked about beside the band's lines."""
    known = {id(block) for block, _, _ in found}
    numbers = [b for b, _, _ in found if _PAGE_NUMBER.match(b.text.strip())]
    if len(numbers) > 2:
        numbers = []  # a page prints its number once, twice at most (as _running_lines asks)
    out: list[tuple[Block, str]] = []
    for block in page.blocks:
        if len(block.lines) != 1 or block.kind == "table" or id(block) in known:
            continue
        band = _edge(block, page, NUMBER_BAND)
        if not band or _band(block, page) is not None:
            continue
        if _number_apart(block) is not None or any(_beside(block, n) for n in numbers):
            out.append((block, band))
    return out


def _band(block: Block, page: PageLayout) -> str | None:
    """Which edge's band holds the whole block: the top and bottom first."""
    if page.height <= 0 or page.width <= 0:
        return None
    edge = _edge(block, page, BAND)
    if edge:
        return edge
    if block.x1 <= BAND * page.width:
        return "left"
    if block.x0 >= (1 - BAND) * page.width:
        return "right"
    return None


def mark_lists(pages: list[PageLayout], body: float | None = None) -> None:
    """Split blocks at lines that start with a bullet or an enumeration marker.

    An item goes on over the lines below it while they continue its text; a line that stops
    short on purpose (the next line's first word would have fit) ends it, unless the next
    line hangs under the item's text: "1. INTRODUCTION" over a paragraph set flush with the
    number is a heading line and its paragraph, not an item that swallows the paragraph.
    ``body`` is the body text's size (by default, that of ``pages``)."""
    if body is None:
        body = body_size(pages)
    for page in pages:
        out: list[Block] = []
        letters = _capital_marks(page)
        for block in page.blocks:
            starts = [
                block.kind == "paragraph" and _item_start(line, body, letters)
                for line in block.lines
            ]
            if not any(starts):
                out.append(block)
                continue
            current: Block | None = None
            right = measure_right(block)
            for k, (line, is_item) in enumerate(zip(block.lines, starts, strict=True)):
                if (
                    is_item
                    and k
                    and (current is None or current.kind != "list_item")
                    and _sentence_goes_on(block.lines[k - 1], line, right)
                ):
                    is_item = False  # "... in Figures 2 and" over "3) is offset by ..."
                if current is None or is_item or _item_ends(current, line, right):
                    current = Block(
                        [line],
                        line.x0,
                        line.y0,
                        line.x1,
                        line.y1,
                        line.size,
                        line.bold,
                        kind="list_item" if is_item else "paragraph",
                    )
                    out.append(current)
                else:
                    current.lines.append(line)
                    current.x0 = min(current.x0, line.x0)
                    current.x1 = max(current.x1, line.x1)
                    current.y1 = max(current.y1, line.y1)
        page.blocks = out


#: How many of the lines opening with a letter, nearest above (or below) a line, are asked
#: whether they are its neighbour in a sequence: an item's neighbour is near it, and a page of
#: such lines stays linear.
SEQUENCE_LOOK = 8


def _capital_marks(page: PageLayout) -> dict[str, tuple[list[float], list[Line]]]:
    """The page's lines opening with a capital letter and a period ("B. "), by letter, top
    to bottom (with their baselines, to search): an enumeration's marks or a name's
    initials; and those opening with a roman numeral of two letters or more ("II. "), under
    ``_ROMAN``."""
    found: dict[str, list[Line]] = {}
    for block in page.blocks:
        if block.kind == "paragraph":
            for line in block.lines:
                m = _CAPITAL_MARK.match(line.text)
                if m is not None:
                    found.setdefault(m.group(1), []).append(line)
                elif _ROMAN_MARK.match(line.text):
                    found.setdefault(_ROMAN, []).append(line)
    out: dict[str, tuple[list[float], list[Line]]] = {}
    for letter, lines in found.items():
        lines.sort(key=lambda ln: ln.y1)
        out[letter] = ([ln.y1 for ln in lines], lines)
    return out


def _item_start(
    line: Line, body: float, letters: dict[str, tuple[list[float], list[Line]]]
) -> bool:
    """A line that opens a list item. An asterisk on text set smaller than the body opens a
    footnote ("* Corresponding author"), not a bullet. A capital letter and a period open
    a name as often ("J. Smith and colleagues", a reference's authors over two lines): an
    item only before words in capitals ("B. SOLA INVERSIONS", a section's title) or in a
    sequence, the letter before it on a line above or the letter after it on a line below
    (for "I.", "V." and "X.", a roman numeral either way), starting within an em of it
    (``letters``, :func:`_capital_marks`)."""
    m = BULLET_MARK.match(line.text)
    if m is not None:
        return not (m.group(1) in _NOTE_MARKS and line.size < NOTE_SIZE_RATIO * body)
    if ENUM_MARK.match(line.text) is None:
        return False
    capital = _CAPITAL_MARK.match(line.text)
    if capital is None:
        return True
    rest = line.text[capital.end() :]
    if rest.isupper() and _CAPITAL_MARK.match(rest) is None:
        return True  # (a name in capitals has more initials: "J. P. COOKE.")
    letter = capital.group(1)
    em = max(line.size, 1.0)
    # The letters before and after it; a roman numeral's neighbours ("I." over "II.", "V."
    # under "IV.") are roman numerals of more letters.
    neighbours = [(chr(ord(letter) - 1), chr(ord(letter) + 1))]
    if letter in "IVX":
        neighbours.append((_ROMAN, _ROMAN))
    for above, below in neighbours:
        ys, lines = letters.get(above, ((), ()))
        at = bisect.bisect_left(ys, line.y1)
        before = lines[max(0, at - SEQUENCE_LOOK) : at]  # (the nearest above)
        ys, lines = letters.get(below, ((), ()))
        at = bisect.bisect_right(ys, line.y1)
        after = lines[at : at + SEQUENCE_LOOK]  # (the nearest below)
        if any(abs(o.x0 - line.x0) <= em for o in (*before, *after)):
            return True
    return False


#: The marks a list opens with: a number or letter past these, opening a line of running
#: text, may be a sentence's words that the measure carried over ("Figures 2 and" over
#: "3) is offset by ...").
FIRST_MARKS = frozenset({"0", "1", "a", "A", "i", "I"})
#: A line ending in one of these ends its sentence or clause: a list may start under it.
_CLAUSE_END = frozenset(".:;!?")


def _sentence_goes_on(before: Line, line: Line, right: float) -> bool:
    """Whether ``line``, opening with a number or letter that opens no list (not one of
    ``FIRST_MARKS``), carries on the sentence of ``before``, a line of running text above it
    (not a list item's; at least ``COLUMN_LINE_EM`` long) that the measure broke
    mid-sentence (no stop, colon or semicolon at its end; the mark had no room there)."""
    m = ENUM_MARK.match(line.text)
    if m is None or m.group(1).strip("().") in FIRST_MARKS:
        return False
    if before.x1 - before.x0 < COLUMN_LINE_EM * max(before.size, 1.0):
        return False  # short lines: a list's, or labels', with no measure to break them
    return before.text.rstrip()[-1:] not in _CLAUSE_END and measure_broke(before, line, right)


def _item_ends(item: Block, line: Line, right: float) -> bool:
    """Whether ``line`` starts after the end of list item ``item`` (within a block whose
    full lines end at ``right``): the item's last line stopped short although the first word of
    ``line`` would have fit after it, and ``line`` does not hang under the item's text."""
    if item.kind != "list_item":
        return False
    last = item.lines[-1]
    if last.text.endswith("-") or measure_broke(last, line, right):
        return False  # a word broken across the lines, or a line the measure ended
    hangs = line.x0 > item.lines[0].x0 + HANG_EM * max(line.size, 1.0)
    return not hangs


def list_marker(text: str) -> tuple[str, str] | None:
    """``(marker, rest)`` when ``text`` starts with a list marker."""
    m = BULLET_MARK.match(text)
    if m:
        return "-", text[m.end() :]
    m = ENUM_MARK.match(text)
    if m:
        return m.group(1), text[m.end() :]
    return None
