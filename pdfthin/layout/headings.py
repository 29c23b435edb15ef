"""Headings: which blocks are section titles, and how deep each one sits.

A heading is told by what sets it apart from the body text of the whole document:

- **numbering** ("3.1 Methods", "IV. RESULTS", "III-A", "A. Allowed classes", "Chapter 2")
  marks a heading and gives its depth, whatever its size (IEEE section titles are body-size
  small caps);
- **size**: a block clearly larger than the body text;
- **look**: bold, ALL CAPS or another typeface, on a short block that stands alone and is
  followed by body text; a look that numbered headings use makes its unnumbered blocks
  ("REFERENCES") headings of the same depth;
- **slides**: each page's title.

Levels come from the numbering depth where there is one; unnumbered headings take the level of
the numbered headings that share their look, else a place by prominence (size, then weight).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import pairwise

from .types import Block, Line, PageLayout

#: A block this much larger than the body text (and at least a point larger) may be a heading.
HEADING_RATIO = 1.15
MAX_HEADING_CHARS = 160
MAX_LEVELS = 6
#: Share of the page height at the top and bottom where running heads and folios live.
FURNITURE_BAND = 0.12
#: Unnumbered headings made of body-size bold or another typeface stay short.
MAX_STYLED_CHARS = 100

_LETTERS = re.compile(r"[^\W\d_]")
_CAPTION = re.compile(
    r"^(fig\.?|figure|figura|abb\.?|abbildung|table|tab\.|tabelle|tableau|algorithm|listing|"
    r"chart|scheme|plate|exhibit|graph|diagram|photo|image)\s*(\d+|[ivxlc]+\b|[a-z]\b)"
    r"|^(source|sources|quelle|quellen|note|notes|nota|remarque)\s*:",
    re.IGNORECASE,
)
_MATH_FONT = re.compile(r"^(cm(mi|sy|ex|r\d)|msbm|msam|symbol|mtextra|euler|stix|rsfs)", re.I)
_URL = re.compile(r"https?://|www\.|\S@\S+\.\w|\w\.(com|org|net|gov|edu)\b", re.IGNORECASE)
#: A table-of-contents entry: dot leaders, or a title followed by its page number.
_TOC_LEADER = re.compile(r"(\.\s?){4,}|…{2,}|_{4,}")
_TRAILING_NUMBER = re.compile(r"\s(\d{1,4}|[ivxlc]{1,6})$")

_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_ARABIC = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,4})(\.?)(?:\s+|$)")
_ROMAN = re.compile(r"^([IVXLC]{1,7})(?:-([A-Z])(\d{1,2})?)?(\.?)\s+")
_LETTER = re.compile(r"^([A-Z])((?:\.\d{1,2}){0,3})([.):]?)\s+")
_WORD_NUMBER = re.compile(
    r"^(chapter|section|part|appendix|annex|anhang|kapitel|teil|chapitre|partie|capítulo)"
    r"\s+(\d{1,3}(?:\.\d{1,2})*|[IVXLC]{1,7}|[A-Z]|one|two|three|four|five|six|seven|eight|"
    r"nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|"
    r"twenty)\b\s*[.:\-–—]?\s*",
    re.IGNORECASE,
)
#: IEEE third-level headings are run-ins: "1) Accuracy: Showing the correctness ...".
_RUN_IN = re.compile(r"^(\d{1,2}\)\s+([A-Z][^:.;]{1,60}?):)\s+(?=\S)")
#: A person's initial ("N. Dalal and B. Triggs,"): reference lists, not section titles.
_INITIALS = re.compile(r"\b[A-Z]\.\s?[A-Z]?\.?\s?[A-Z][a-z]+,")
_SENTENCE_BREAK = re.compile(r"[a-z]{2,}[.!?]\s+[A-Z]")
#: A section number standing alone: "6.2.1.", "IV.", "A.", "§ 3".
_LABEL = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,4}\.?|[IVXLC]{1,6}\.?|[A-Z]\.|§\s*\d{1,3})$")


@dataclass(frozen=True)
class Look:
    """How a block is set: what a reader sees before reading a word."""

    size: float  # to the half point
    bold: bool
    italic: bool
    caps: bool
    family: str

    def prominence(self) -> tuple[float, int, int, int]:
        return (self.size, int(self.bold), int(self.caps), int(self.italic))


@dataclass(frozen=True)
class Numbering:
    """A section number at the start of a title: its kind and depth ("3.1" is 2 deep)."""

    kind: str  # "arabic", "roman", "letter", "word"
    depth: int
    title: str


@dataclass
class _Heading:
    block: Block
    look: Look
    depth: float | None = None  # from the numbering, before the document-wide ranking
    rank: float = 0.0
    kind: str = ""  # of numbering
    #: A section number set apart to the left of the title, to join the heading.
    label: Block | None = None


@dataclass
class _Context:
    pages: list[PageLayout]
    body: float
    body_look: Look
    total_chars: int
    size_chars: dict[float, int]
    looks: dict[int, Look] = field(default_factory=dict)
    #: Texts in the top or bottom margin, with the number of pages they appear on.
    margin_texts: Counter[str] = field(default_factory=Counter)

    def look(self, block: Block) -> Look:
        found = self.looks.get(id(block))
        if found is None:
            found = self.looks[id(block)] = block_look(block)
        return found


def mark_headings(pages: list[PageLayout]) -> None:
    """Mark heading blocks (``kind = "heading"``) and give each a level from 1 to 6."""
    body = body_size(pages)
    if body <= 0:
        return
    ctx = _context(pages, body)
    if _is_slide_deck(pages, body):
        _mark_slide_titles(ctx)
        return
    _split_run_ins(ctx)
    found = _find_headings(ctx)
    _assign_levels(found)
    joined: set[int] = set()
    for heading in found:
        heading.block.kind = "heading"
        if heading.label is not None and id(heading.label) not in joined:
            _join_label(heading.block, heading.label)
            joined.add(id(heading.label))
    if joined:
        for page in pages:
            page.blocks = [b for b in page.blocks if id(b) not in joined]


def _join_label(block: Block, label: Block) -> None:
    """Put a hanging section number back in front of its title."""
    block.lines = label.lines + block.lines
    block.x0 = min(block.x0, label.x0)
    block.y0 = min(block.y0, label.y0)


# --- document statistics --------------------------------------------------------------------


def size_bucket(size: float) -> float:
    return round(size * 2) / 2


def body_size(pages: list[PageLayout]) -> float:
    """The most common text size, by characters (tables left out)."""
    weights: dict[float, int] = defaultdict(int)
    for page in pages:
        for block in page.blocks:
            if block.kind == "table":
                continue
            for line in block.lines:
                weights[size_bucket(line.size)] += len(line.text)
    if not weights:
        return 0.0
    return max(weights.items(), key=lambda kv: (kv[1], -kv[0]))[0]


def font_family(font: str) -> str:
    """``ABCDEF+TimesNewRomanPS-BoldMT`` -> ``timesnewroman``: the typeface without its
    subset tag, weight and slant, so that bold and regular cuts compare equal."""
    name = font.split("+", 1)[-1].lower()
    name = re.split(r"[-,_]", name, maxsplit=1)[0]
    name = re.sub(r"(psmt|mt|ps|std|pro)$", "", name)
    name = re.sub(r"(bold|italic|oblique|regular|roman|medium|light|semibold|black)+$", "", name)
    return name or font


def is_caps(text: str) -> bool:
    """ALL CAPS (or small caps drawn as capitals): at least 3 letters, nearly all upper."""
    letters = [c for c in text if c.isalpha()]
    if len(letters) < 3:
        return False
    upper = sum(1 for c in letters if c.isupper())
    return upper >= 0.9 * len(letters) and any(c.isupper() != c.islower() for c in letters)


def block_look(block: Block) -> Look:
    italic = total = 0
    families: Counter[str] = Counter()
    for line in block.lines:
        n = len(line.text)
        total += n
        italic += n if line.italic else 0
        families[font_family(line.font)] += n
    family = families.most_common(1)[0][0] if families else ""
    return Look(
        size_bucket(block.size), block.bold, italic * 2 > total, is_caps(block.text), family
    )


def _context(pages: list[PageLayout], body: float) -> _Context:
    size_chars: dict[float, int] = defaultdict(int)
    look_chars: Counter[Look] = Counter()
    ctx = _Context(pages, body, Look(body, False, False, False, ""), 0, size_chars)
    for page in pages:
        for block in page.blocks:
            if block.kind == "table":
                continue
            size_chars[size_bucket(block.size)] += block.chars
            ctx.total_chars += block.chars
            if len(block.lines) >= 2:
                look_chars[ctx.look(block)] += block.chars
    ctx.total_chars = ctx.total_chars or 1
    for page in pages:
        ctx.margin_texts.update({_margin_key(b.text) for b in page.blocks if _in_margin(page, b)})
    if look_chars:
        ctx.body_look = look_chars.most_common(1)[0][0]
    return ctx


# --- numbering --------------------------------------------------------------------------------


def _roman_value(text: str) -> int:
    values = [_ROMAN_VALUES[c] for c in text]
    total = 0
    for i, v in enumerate(values):
        total += -v if i + 1 < len(values) and values[i + 1] > v else v
    return total if _to_roman(total) == text else 0


def _to_roman(n: int) -> str:
    out = []
    for value, glyph in ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX")):
        while n >= value:
            out.append(glyph)
            n -= value
    for value, glyph in ((5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out.append(glyph)
            n -= value
    return "".join(out)


def numbering(text: str) -> Numbering | None:
    """The section number that starts ``text``, if any."""
    text = text.strip()
    m = _WORD_NUMBER.match(text)
    if m:
        depth = 0 if m.group(1).lower() in ("part", "teil", "partie") else 1
        return Numbering("word", depth + m.group(2).count("."), text[m.end() :])
    m = _ARABIC.match(text)
    if m and text[m.end() :]:
        return Numbering("arabic", m.group(1).count(".") + 1, text[m.end() :])
    m = _ROMAN.match(text)
    if m and _roman_value(m.group(1)) and (m.group(2) or m.group(4)):
        depth = 1 + (1 if m.group(2) else 0) + (1 if m.group(3) else 0)
        return Numbering("roman", depth, text[m.end() :])
    m = _LETTER.match(text)
    if m and (m.group(2) or m.group(3)):
        return Numbering("letter", 1 + m.group(2).count("."), text[m.end() :])
    return None


def numbered_depth(text: str) -> int:
    """``2`` for "3.1 Methods", ``1`` for "3 Results", ``0`` when not numbered."""
    found = numbering(text)
    return found.depth if found is not None and found.kind == "arabic" else 0


def _title_shape(title: str) -> bool:
    """The words after a section number read like a title, not a sentence or a reference."""
    title = title.strip()
    if not title or len(title) > 120 or len(title.split()) > 14:
        return False
    first = title[0]
    if not (first.isupper() or first.isdigit() or first in "“\"'‘(«¿¡"):
        return False
    if title.endswith((",", ";", ".", "-")) and not title.endswith(("etc.", "...")):
        return False
    if _INITIALS.search(title) or _SENTENCE_BREAK.search(title):
        return False
    return len(_LETTERS.findall(title)) >= 2


# --- shapes and context ---------------------------------------------------------------------


def _plain_shape(ctx: _Context, page: PageLayout, block: Block) -> bool:
    """What every heading must be: short text with letters, not a caption, a formula, a URL,
    a table-of-contents line, a running head or text set sideways."""
    if block.kind not in ("paragraph", "list_item"):
        return False
    text = block.text.strip()
    if not text or len(text) > MAX_HEADING_CHARS:
        return False
    found = numbering(text)
    title = found.title if found is not None and found.title else text
    letters = len(_LETTERS.findall(title))
    if letters < 2 or letters < 0.4 * len(title.replace(" ", "")):
        return False
    if text.endswith((",", ";")) or (text.endswith(":") and len(text) > 40):
        return False
    if _CAPTION.match(text) or _URL.search(text) or _TOC_LEADER.search(text):
        return False
    if all(_MATH_FONT.match(font_family(line.font)) for line in block.lines):
        return False
    if _sideways(block):
        return False
    return not _running_head(ctx, page, block, text)


def _in_margin(page: PageLayout, block: Block) -> bool:
    if page.height <= 0:
        return False
    band = FURNITURE_BAND * page.height
    return block.y1 <= band or block.y0 >= page.height - band


def _margin_key(text: str) -> str:
    """Page numbers aside, a running head reads the same on every page."""
    return " ".join(re.sub(r"\d+", "#", text.lower()).split())


def _running_head(ctx: _Context, page: PageLayout, block: Block, text: str) -> bool:
    """A running head that the furniture pass left (it repeats on only some pages): seen in
    the top or bottom margin on more than one page ("INTRODUCTION 3", "5 INTRODUCTION",
    "1.1. TOPOLOGISCHE RÄUME")."""
    if block.size > ctx.body + 0.5:
        return False  # a chapter's "Exercises" at the top of several pages is no running head
    return _in_margin(page, block) and ctx.margin_texts[_margin_key(text)] >= 2


def _toc_page(page: PageLayout) -> bool:
    """Many lines of the page are a title followed by a page number: a table of contents,
    whose entries repeat the headings without being them."""
    lines = [line.text for b in page.blocks if b.kind != "table" for line in b.lines]
    entries = sum(1 for text in lines if _toc_entry(text))
    return entries >= 5 and entries >= 0.4 * len(lines)


def _toc_entry(text: str) -> bool:
    return bool(
        _TOC_LEADER.search(text)
        or (_TRAILING_NUMBER.search(text) and len(_LETTERS.findall(text)) >= 3)
    )


def _neighbours(pages: list[PageLayout], p: int, i: int) -> tuple[Block | None, Block | None]:
    """The blocks before and after block ``i`` of page ``p`` in reading order (across a page
    break)."""
    blocks = pages[p].blocks
    before = blocks[i - 1] if i > 0 else None
    after = blocks[i + 1] if i + 1 < len(blocks) else None
    if after is None and p + 1 < len(pages) and pages[p + 1].blocks:
        after = pages[p + 1].blocks[0]
    return before, after


def _is_body_text(ctx: _Context, block: Block | None) -> bool:
    """Running text: a paragraph or list item of a couple of lines near the body size."""
    if block is None or block.kind not in ("paragraph", "list_item"):
        return False
    if block.size < 0.7 * ctx.body or block.size > 1.3 * ctx.body:
        return False
    return len(block.lines) >= 2 or block.chars >= 60


def _alone_on_its_row(
    ctx: _Context, page: PageLayout, block: Block, headings: set[int] | None = None
) -> bool:
    """No short blocks beside it: cells of a table or labels of a figure share a row. One
    short block in another look may be the last line of a paragraph in the next column, and
    a heading of the next column may sit level with it."""
    look = ctx.look(block)
    beside = 0
    for other in page.blocks:
        if other is block or other.y0 >= block.y1 or other.y1 <= block.y0:
            continue
        if other.x0 < block.x1 and other.x1 > block.x0:
            continue
        if (headings and id(other) in headings) or _sideways(other):
            continue
        if len(other.lines) <= 2 and other.chars < 60:
            beside += 1
            if beside >= 2 or ctx.look(other) == look:
                return False
    return True


def _sideways(block: Block) -> bool:
    """Text set sideways (the arXiv stamp in a margin): taller than wide, on one line."""
    width, height = block.x1 - block.x0, block.y1 - block.y0
    return len(block.lines) == 1 and height > max(width, 3 * block.size)


def _differs_from_body(ctx: _Context, look: Look) -> bool:
    body = ctx.body_look
    return (
        (look.bold and not body.bold)
        or (look.caps and not body.caps)
        or look.size >= ctx.body + 0.5
        or (look.family != body.family and bool(look.family))
        or (look.italic and not body.italic)
    )


# --- finding headings -----------------------------------------------------------------------


def _find_headings(ctx: _Context) -> list[_Heading]:
    numbered: list[_Heading] = []
    run_ins: list[_Heading] = []
    others: list[tuple[int, int, Block]] = []
    for p, page in enumerate(ctx.pages):
        toc = _toc_page(page)
        labels = [b for b in page.blocks if len(b.lines) == 1 and _LABEL.match(b.text.strip())]
        line_numbers = _line_numbered(page)
        for i, block in enumerate(page.blocks):
            if block.kind == "heading":
                # A run-in split off by _split_run_ins: depth already known.
                run_ins.append(_Heading(block, ctx.look(block), float(block.level)))
                continue
            if not _plain_shape(ctx, page, block) or (toc and _toc_entry(block.lines[-1].text)):
                continue
            label = _hanging_label(block, labels)
            text = f"{label.text.strip()} {block.text}" if label is not None else block.text
            heading = None if line_numbers else _numbered_heading(ctx, p, i, block, text)
            if heading is not None:
                heading.label = label
                numbered.append(heading)
            else:
                others.append((p, i, block))
    if any(h.kind == "roman" for h in numbered):
        # IEEE: "II." sections hold "A." subsections, which hold "1)" run-ins.
        for h in numbered:
            if h.kind == "letter" and h.depth is not None:
                h.depth += 1
    # Looks that numbered headings use, unless it is the body's own look.
    numbered_looks = Counter(_style(h.look) for h in numbered if _differs_from_body(ctx, h.look))
    taken = {id(h.block) for h in numbered}
    found = numbered + run_ins
    for p, i, block in others:
        heading = _unnumbered_heading(ctx, p, i, block, numbered_looks, taken)
        if heading is not None:
            found.append(heading)
    return found


def _style(look: Look) -> tuple[bool, bool, bool, str]:
    """A look without its size: small caps measure differently from line to line."""
    return (look.bold, look.italic, look.caps, look.family)


def _hanging_label(block: Block, labels: list[Block]) -> Block | None:
    """A section number set apart to the left of its title, on the same baseline."""
    first = block.lines[0]
    for label in labels:
        if label is block or label.y0 >= first.y1 or label.y1 <= first.y0:
            continue
        gap = first.x0 - label.x1
        if -1.0 <= gap <= 8 * block.size:
            return label
    return None


def _line_numbered(page: PageLayout) -> bool:
    """A transcript or legal page numbers its lines 1, 2, 3 ...: not section numbers."""
    numbers = []
    for block in page.blocks:
        for line in block.lines:
            m = re.match(r"^(\d{1,2})\s", line.text)
            if m:
                numbers.append(int(m.group(1)))
    rising = sum(1 for a, b in pairwise(numbers) if b == a + 1)
    return len(numbers) >= 8 and rising >= 0.6 * len(numbers)


def _numbered_heading(ctx: _Context, p: int, i: int, block: Block, text: str) -> _Heading | None:
    found = numbering(text)
    if found is None or not _title_shape(found.title):
        return None
    look = ctx.look(block)
    large = look.size >= ctx.body * HEADING_RATIO and look.size >= ctx.body + 1.0
    if len(block.lines) > (3 if large else 2):
        return None
    if look.size < 0.7 * ctx.body:
        return None  # footnotes, figure labels
    before, after = _neighbours(ctx.pages, p, i)
    if any(
        other is not None and other.kind != "table" and _list_sibling(ctx, found, look, other)
        for other in (before, after)
    ):
        return None
    styled = _differs_from_body(ctx, look)
    if not styled:
        # Set like the body: only a short line that a paragraph follows, alone on its row.
        if len(block.lines) > 1 or len(found.title) > 60:
            return None
        if not _is_body_text(ctx, after) or numbering(after.text if after else "") is not None:
            return None
        if not _alone_on_its_row(ctx, ctx.pages[p], block):
            return None
    if found.kind == "letter" and not styled:
        return None
    return _Heading(block, look, float(found.depth), kind=found.kind)


def _list_sibling(ctx: _Context, found: Numbering, look: Look, after: Block) -> bool:
    """ "1. Apples" then "2. Pears", short and in the same look: a list, not two headings."""
    sibling = numbering(after.text)
    return (
        sibling is not None
        and sibling.kind == found.kind
        and sibling.depth == found.depth
        and ctx.look(after) == look
        and len(after.lines) <= 2
    )


def _runs_on(text: str) -> bool:
    """A bold phrase that opens a paragraph ("Type specialization. In JavaScript, ..."),
    or a line broken mid-word: the start of running text, not a title."""
    return bool(_SENTENCE_BREAK.search(text)) or text.rstrip().endswith("-")


def _unnumbered_heading(
    ctx: _Context,
    p: int,
    i: int,
    block: Block,
    numbered_looks: Counter[tuple[bool, bool, bool, str]],
    taken: set[int],
) -> _Heading | None:
    look = ctx.look(block)
    size = look.size
    page = ctx.pages[p]
    after = _neighbours(ctx.pages, p, i)[1]
    if block.kind == "list_item":
        return None
    if size >= ctx.body * HEADING_RATIO and size >= ctx.body + 1.0:
        # A size used by much of the text is a body size, not a heading size.
        if ctx.size_chars[size] > 0.2 * ctx.total_chars and block.chars > 60:
            return None
        max_lines = 4 if size >= 1.5 * ctx.body else 3
        return _Heading(block, look) if len(block.lines) <= max_lines else None
    if len(block.lines) > 2 or len(block.text) > MAX_STYLED_CHARS:
        return None
    if _runs_on(block.text):
        return None
    if (
        numbered_looks[_style(look)] >= 2
        and _title_shape(block.text)
        and _alone_on_its_row(ctx, page, block, taken)
    ):
        # The look of the numbered headings: "REFERENCES" beside "IV. RESULTS".
        return _Heading(block, look)
    if size < ctx.body - 1.0:
        return None
    if look.bold and not ctx.body_look.bold:
        if after is not None and after.bold and after.kind != "table":
            return None
        return _Heading(block, look) if _alone_on_its_row(ctx, page, block) else None
    return None


# --- run-in headings ------------------------------------------------------------------------


def _split_run_ins(ctx: _Context) -> None:
    """IEEE third-level headings run into their paragraph ("1) Accuracy: Showing ...");
    in a document whose sections are Roman-numbered, split them off as headings."""
    roman = 0
    for page in ctx.pages:
        for block in page.blocks:
            found = numbering(block.text) if len(block.lines) <= 2 else None
            if found is not None and found.kind == "roman" and found.depth == 1:
                roman += 1
    if roman < 2:
        return
    for page in ctx.pages:
        out: list[Block] = []
        for block in page.blocks:
            out.extend(_split_run_in(block))
        page.blocks = out


def _split_run_in(block: Block) -> list[Block]:
    if block.kind not in ("paragraph", "list_item") or len(block.lines) < 2:
        return [block]
    first = block.lines[0]
    m = _RUN_IN.match(first.text)
    if m is None or len(m.group(2).split()) > 8:
        return [block]
    head_text = m.group(1)
    rest_text = first.text[m.end() :]
    cut = first.x0 + (first.x1 - first.x0) * len(head_text) / max(1, len(first.text))
    head_line = _piece(first, head_text, first.x0, cut)
    rest_line = _piece(first, rest_text, cut, first.x1)
    heading = Block(
        [head_line],
        head_line.x0,
        head_line.y0,
        head_line.x1,
        head_line.y1,
        block.size,
        block.bold,
        kind="heading",
        level=3,
    )
    lines = [rest_line, *block.lines[1:]]
    paragraph = Block(
        lines,
        min(line.x0 for line in lines),
        block.y0,
        max(line.x1 for line in lines),
        block.y1,
        block.size,
        block.bold,
    )
    return [heading, paragraph]


def _piece(line: Line, text: str, x0: float, x1: float) -> Line:
    return Line(
        text,
        x0,
        line.y0,
        x1,
        line.y1,
        line.size,
        line.bold,
        line.italic,
        line.font,
        line.artifact,
        line.seq,
    )


# --- slides -----------------------------------------------------------------------------------


def _is_slide_deck(pages: list[PageLayout], body: float) -> bool:
    """Presentation slides: landscape pages or a large body size, and little text a page."""
    with_text = [p for p in pages if p.blocks]
    if not with_text:
        return False
    chars = sum(b.chars for p in with_text for b in p.blocks) / len(with_text)
    landscape = sum(1 for p in with_text if p.width > 1.15 * p.height)
    wide = landscape * 2 > len(with_text) and body >= 12
    return (wide or body >= 16) and chars < 1500


def _mark_slide_titles(ctx: _Context) -> None:
    """Each slide's title, the largest short text near its top, is a heading; slide titles
    are all one level (a deck's outline is flat)."""
    for page in ctx.pages:
        best: Block | None = None
        for block in page.blocks:
            if not _plain_shape(ctx, page, block) or len(block.lines) > 3:
                continue
            if block.y0 > 0.4 * page.height or block.size < ctx.body - 0.5:
                continue
            key = (size_bucket(block.size), -block.y0)
            if best is None or key > (size_bucket(best.size), -best.y0):
                best = block
        if best is not None:
            best.kind = "heading"
            best.level = 1


# --- levels -----------------------------------------------------------------------------------


def _assign_levels(found: list[_Heading]) -> None:
    """Numbered headings sit at their depth; unnumbered ones at the depth of the numbered
    headings that share their look, else above, between or below them by prominence."""
    by_look: dict[Look, list[float]] = defaultdict(list)
    for heading in found:
        if heading.depth is not None:
            by_look[heading.look].append(heading.depth)
    look_rank = {look: Counter(depths).most_common(1)[0][0] for look, depths in by_look.items()}
    if look_rank:
        top = min(look_rank.values())
        biggest = max(look.size for look in look_rank)
        above = sorted(
            {h.look.size for h in found if h.depth is None and h.look.size > biggest},
            reverse=True,
        )
        for heading in found:
            if heading.depth is not None:
                heading.rank = heading.depth
            elif heading.look in look_rank:
                heading.rank = look_rank[heading.look]
            elif heading.look.size > biggest:
                heading.rank = top - len(above) + above.index(heading.look.size) - 0.5
            else:
                heading.rank = _between(heading.look, look_rank, top)
    else:
        prominence = sorted({h.look.prominence()[:2] for h in found}, reverse=True)
        for heading in found:
            heading.rank = prominence.index(heading.look.prominence()[:2])
    ranks = sorted({h.rank for h in found})
    for heading in found:
        heading.block.level = min(ranks.index(heading.rank) + 1, MAX_LEVELS)


def _between(look: Look, look_rank: dict[Look, float], top: float) -> float:
    """Rank of an unnumbered look among the numbered ones: level with a look as prominent,
    just below the least prominent look that outranks it."""
    key = look.prominence()
    same = [r for other, r in look_rank.items() if other.prominence() == key]
    if same:
        return min(same)
    higher = [r for other, r in look_rank.items() if other.prominence() > key]
    return max(higher) + 0.5 if higher else top - 0.25
