"""Headings: which blocks are section titles, and how deep each one sits.

A heading is told by what sets it apart from the body text of the whole document:

- **numbering** ("3.1 Methods", "IV. RESULTS", "III-A", "A. Allowed classes", "Chapter 2")
  marks a heading and gives its depth, whatever its size (IEEE section titles are body-size
  small caps);
- **size**: a block clearly larger than the body text;
- **look**: bold, ALL CAPS or another typeface, on a short block that stands alone and is
  followed by body text; a look that numbered headings use makes its unnumbered blocks
  ("REFERENCES") headings of the same depth;
- **place**: a short line in another typeface at the body size, centred over the paragraph
  it opens and set apart by space (a book's section titles);
- **slides**: each page's title.

Levels come from the numbering depth where there is one; unnumbered headings take the level of
the numbered headings that share their look, else a place by prominence (size, then weight).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from operator import itemgetter

from pdfthin.layout.blocks import size_weights, summarise
from pdfthin.layout.lines import NOTE_SIGNS, TOC_LEADER, is_bullet, measure_broke
from pdfthin.layout.tables.cells import wordy
from pdfthin.layout.types import Block, Line, PageLayout

#: A block this much larger than the body text (and at least a point larger) may be a heading.
HEADING_RATIO = 1.15
MAX_HEADING_CHARS = 160
MAX_LEVELS = 6
#: Share of the page height at the top and bottom where running heads and folios live.
FURNITURE_BAND = 0.12
#: Footnotes are set smaller than the body text (by a point or more at 10 pt); section
#: titles, however small, are not set below nine tenths of it without caps or bold.
NOTE_SIZE_RATIO = 0.9
#: What opens a footnote, besides its number.
_NOTE_MARKS = frozenset(NOTE_SIGNS + "¹²³⁴⁵⁶⁷⁸⁹")
_NO_MARKS = str.maketrans(dict.fromkeys(_NOTE_MARKS | {"⁰", "∗"}, None))
#: The first pages of a document, where a title page may stand (see ``_title_pages``).
TITLE_PAGES = 6
#: Unnumbered headings made of body-size bold or another typeface stay short.
MAX_STYLED_CHARS = 100
#: Extra space over a paragraph's own line pitch that still counts as no extra space
#: (rounding, a taller glyph on one line).
PITCH_TOLERANCE = 0.15
#: Two lines whose left edges differ by more than this (in ems) are not set flush.
INDENT_EM = 0.5
#: The narrowest measure of running text, in ems: a newspaper column is about 20; shorter
#: lines are labels, table cells or a list of names.
MIN_MEASURE_EM = 15.0
#: A title centred over the paragraph it opens: its centre within this many ems of the
#: centre of the paragraph's measure ...
CENTRE_EM = 1.0
#: ... and no wider than this share of the measure (a full line is centred by any measure).
CENTRED_MAX_SHARE = 0.7
#: Words of a title set at the body size and told only by its typeface and place.
MAX_PLACED_WORDS = 8
#: What ends a sentence or introduces what follows at the end of a line.
SENTENCE_END = (".", ":", "!", "?", ";")

_LETTERS = re.compile(r"[^\W\d_]")
#: A caption's label and number ("Figure 3", "Abb. 2", "Table IV"), matched ignoring case.
CAPTION_LABEL = (
    r"(fig\.?|figure|figura|abb\.?|abbildung|table|tab\.|tabelle|tableau|algorithm|listing|"
    r"chart|scheme|plate|exhibit|graph|diagram|photo|image)\s*(\d+|[ivxlc]+\b|[a-z]\b)"
)
_CAPTION = re.compile(
    r"^" + CAPTION_LABEL + r"|^(source|sources|quelle|quellen|note|notes|nota|remarque)\s*:",
    re.IGNORECASE,
)
#: Labels of theorem-like environments set on a line of their own: "Definition 2",
#: "Satz 1.3 (Heine-Borel)", "Proof." They open a paragraph, not a section.
_THEOREM = re.compile(
    r"^(definition|theorem|lemma|corollary|proposition|example|remark|proof|claim|conjecture|"
    r"notation|axiom|exercise|problem|solution|observation|assumption|hypothesis|note|"
    r"definición|teorema|ejemplo|satz|korollar|beispiel|bemerkung|beweis|aufgabe|lösung|"
    r"folgerung|théorème|lemme|exemple|remarque|preuve|démonstration)(\s+\d[\d.]*|\s*[.:])",
    re.IGNORECASE,
)
_LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬆ": "st"})
#: Bold cuts that the font flags may not tell: TeX's cmbx/sfbx, "Semibold", "Heavy".
_BOLD_FONT = re.compile(r"bold|black|heavy|demi|(cm|sf|ec|t1)bx|bx\d", re.IGNORECASE)
_MATH_FONT = re.compile(r"^(cm(mi|sy|ex|r\d)|msbm|msam|symbol|mtextra|euler|stix|rsfs)", re.I)
_EMAIL = re.compile(r"\S@\S+\.\w")
#: Relations, assignments and arithmetic set apart by spaces: the marks of a formula or of
#: pseudo-code, not of a title (a spaced hyphen is a title's dash: "Part No - 270").
_OPERATOR = re.compile(r"[=←→⇐⇒≤≥≠≈≡<>∈∉⊂⊆∑∏∫±×÷]|\s[+*/^]\s|:=")
#: A table-of-contents entry's page number, alone or after its title (its dot leaders:
#: ``lines.TOC_LEADER``).
_FOLIO = re.compile(r"^(\d{1,4}|[ivxlc]{1,6})$")
_TRAILING_NUMBER = re.compile(r"\s(\d{1,4}|[ivxlc]{1,6})$")

_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_ARABIC = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,4})(\.?)(?:\s+|$)")
_ROMAN = re.compile(r"^([IVX]{1,6})(?:-([A-Z])(\d{1,2})?)?(\.?)\s+")
_PAREN = re.compile(r"^\((\d{1,2}|[a-z])\)\s+")
_LETTER = re.compile(r"^([A-Z])((?:\.\d{1,2}){0,3})([.):]?)\s+")
_WORD_NUMBER = re.compile(
    r"^(chapter|section|part|appendix|annex|anhang|kapitel|teil|chapitre|partie|capítulo)"
    r"\s+(\d{1,3}(?:\.\d{1,2})*|[IVXLC]{1,7}|[A-Z]|one|two|three|four|five|six|seven|eight|"
    r"nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|"
    r"twenty)\b\s*[.:\-–—]?\s*",
    re.IGNORECASE,
)
_LINE_NUMBER = re.compile(r"(\d{1,2})\s")
_WORD_STARTS = frozenset({"ch", "se", "pa", "ap", "an", "ka", "te", "ca"})
#: IEEE third-level headings are run-ins: "1) Accuracy: Showing the correctness ...".
_RUN_IN = re.compile(r"^(\d{1,2}\)\s+([A-Z][^:.;]{1,60}?):)\s+(?=\S)")
#: A person's initial ("N. Dalal and B. Triggs,"): reference lists, not section titles.
_INITIALS = re.compile(r"\b[A-Z]\.\s?[A-Z]?\.?\s?[A-Z][a-z]+,")
_SENTENCE_BREAK = re.compile(r"[a-z]{2,}[.!?]\s+[A-Z]")
#: A name that starts in lower case: a short prefix, then a hyphen and a capital or two
#: capitals ("e-MERLIN", "mRNA", "iOS"; a sentence's first word is lower case throughout).
#: One capital after the prefix is as often a formula's letters ("zMij"): "iPhone" and
#: "pH" are not told.
_LOWER_NAME = re.compile(r"[a-z]{1,3}(?:-[A-Z]|[A-Z]{2})")
#: An abbreviation in dotted capitals ends a title with its period: "3.3 H.E.S.S.",
#: "Made in the U.S.A." (a sentence's period follows a word).
_DOTTED = re.compile(r"(?:^|\s)(?:[A-Z]\.){2,}$").search
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
    page: int = -1


@dataclass(frozen=True)
class HeadingProfile:
    """What the heading pass learns from the pages it is given (the whole document, or a
    document's sample of pages): enough to find and rank the headings of one more page alone,
    the same way whenever that page is read."""

    body: float
    body_look: Look
    total_chars: int
    size_chars: dict[float, int]
    margin_texts: Counter[str]
    running_looks: frozenset[Look]
    #: Looks of text no larger than the body in the margins of several pages, other than
    #: the body's and the headings': the running heads' look, for a page whose own running
    #: head the sample does not repeat (a book's section heads change with the section).
    margin_looks: frozenset[Look]
    #: Presentation slides (``_is_slide_deck``).
    slides: bool
    #: IEEE run-in headings are split off (sections are Roman-numbered).
    run_ins: bool
    #: Some numbered heading is Roman-numbered.
    roman: bool
    #: The deepest numbering other than "(1)".
    deepest: float
    #: The looks of numbered headings that differ from the body.
    numbered_looks: tuple[Look, ...]
    #: Each heading found: its look and numbering depth (``None``: unnumbered), for levels.
    headings: tuple[tuple[Look, float | None], ...]


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
    #: The looks of running heads found by repetition.
    running_looks: set[Look] = field(default_factory=set)
    #: See ``_margin_looks``.
    margin_looks: set[Look] = field(default_factory=set)
    #: Pages (by identity) that hold a table of contents.
    toc_pages: set[int] = field(default_factory=set)
    #: First lines split off their paragraphs (by identity), see _split_first_lines.
    split_heads: set[int] = field(default_factory=set)
    #: Blocks replaced by their run-in splits, kept alive while ``looks`` holds their ids
    #: (a new block must not inherit a dead one's look through a reused id).
    replaced: list[Block] = field(default_factory=list)
    #: Whether a block titles a section of a column of them (by identity, see
    #: ``_titles_a_column``): asked of a block once.
    column_titles: dict[int, bool] = field(default_factory=dict)
    #: What the pages are finished against: ``None`` when they are the whole sample.
    profile: HeadingProfile | None = None
    #: How many of the first pages may be title pages (none for a page outside the sample).
    title_pages: int = TITLE_PAGES

    def look(self, block: Block) -> Look:
        found = self.looks.get(id(block))
        if found is None:
            found = self.looks[id(block)] = block_look(block)
        return found


def mark_headings(
    pages: list[PageLayout], profile: HeadingProfile | None = None
) -> HeadingProfile | None:
    """Mark heading blocks (``kind = "heading"``) and give each a level from 1 to 6. What
    sets a heading apart is learnt from ``pages`` (and returned, ``None`` when they hold no
    text), or taken from ``profile``: then ``pages`` are pages outside the profile's sample
    (never among the first ``TITLE_PAGES``), each finished against it alone."""
    if profile is not None:
        body = profile.body
        slides = profile.slides
    else:
        body = body_size(pages)
        slides = _is_slide_deck(pages, body) if body > 0 else False
    if body <= 0:
        return None
    ctx = _context(pages, body, profile)
    if slides:
        _mark_slide_titles(ctx)
        return profile or _profile(ctx, slides=True, run_ins=False, numbered=[], found=[])
    run_ins = _split_run_ins(ctx)
    splits = _split_first_lines(ctx)
    numbered, found = _find_headings(ctx)
    found = _labels_over_titles(ctx, found)
    _assign_levels(found, profile.headings if profile is not None else ())
    joined: set[int] = set()
    for heading in found:
        heading.block.kind = "heading"
        if heading.label is not None and id(heading.label) not in joined:
            _join_label(heading.block, heading.label)
            joined.add(id(heading.label))
    _undo_splits(splits)
    _rejoin_run_ons(pages)
    if joined:
        for page in pages:
            page.blocks = [b for b in page.blocks if id(b) not in joined]
    return profile or _profile(ctx, slides=False, run_ins=run_ins, numbered=numbered, found=found)


def _profile(
    ctx: _Context, slides: bool, run_ins: bool, numbered: list[_Heading], found: list[_Heading]
) -> HeadingProfile:
    return HeadingProfile(
        body=ctx.body,
        body_look=ctx.body_look,
        total_chars=ctx.total_chars,
        size_chars=dict(ctx.size_chars),
        margin_texts=Counter(ctx.margin_texts),
        running_looks=frozenset(ctx.running_looks),
        margin_looks=frozenset(ctx.margin_looks),
        slides=slides,
        run_ins=run_ins,
        roman=any(h.kind == "roman" for h in numbered),
        deepest=_deepest(numbered),
        numbered_looks=tuple(_numbered_looks(ctx, numbered)),
        headings=tuple((h.look, h.depth) for h in found),
    )


def _rejoin_run_ons(pages: list[PageLayout]) -> None:
    """A paragraph's first line that opens with a bold phrase may come apart from the rest
    (the block builder parts lines of different weight); when it is no heading and runs on
    into the next block, the two are one paragraph again."""
    for page in pages:
        blocks = page.blocks
        i = 0
        while i + 1 < len(blocks):
            block, after = blocks[i], blocks[i + 1]
            if (
                block.kind == "paragraph"
                and after.kind == "paragraph"
                and len(block.lines) == 1
                and block.bold != after.bold
                and _runs_into(block, after)
            ):
                block.lines.extend(after.lines)
                block.x0 = min(block.x0, after.x0)
                block.x1 = max(block.x1, after.x1)
                block.y1 = max(block.y1, after.y1)
                summarise(block)
                del blocks[i + 1]
            i += 1


def _join_label(block: Block, label: Block) -> None:
    """Put a hanging section number back in front of its title."""
    block.lines = label.lines + block.lines
    block.x0 = min(block.x0, label.x0)
    block.y0 = min(block.y0, label.y0)


# --- document statistics --------------------------------------------------------------------


def size_bucket(size: float) -> float:
    return round(size * 2) / 2


#: Fewer characters than this outside tables are no body of text (a title over a table):
#: the body size is then the tables' own.
BODY_MIN_CHARS = 200


def body_size(pages: list[PageLayout]) -> float:
    """The most common text size, by characters (tables left out, unless little else is
    there: ``BODY_MIN_CHARS``)."""
    lines = (line for p in pages for b in p.blocks if b.kind != "table" for line in b.lines)
    weights = size_weights(lines, size_bucket)
    if sum(weights.values()) < BODY_MIN_CHARS:
        weights = size_weights((ln for p in pages for b in p.blocks for ln in b.lines), size_bucket)
    if not weights:
        return 0.0
    return max(weights.items(), key=lambda kv: (kv[1], -kv[0]))[0]


@lru_cache(maxsize=4096)
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
    if sum(1 for c in text[:24] if c.islower()) > 3:
        return False  # most text, at a glance
    letters = [c for c in text if c.isalpha()]
    if len(letters) < 3:
        return False
    upper = sum(1 for c in letters if c.isupper())
    return upper >= 0.9 * len(letters) and any(c.isupper() != c.islower() for c in letters)


def is_bold(line: Line) -> bool:
    """Bold by the engine's account or by the font's name (TeX's cmbx, sfbx)."""
    return line.bold or bool(_BOLD_FONT.search(line.font))


_count = itemgetter(1)


def block_look(block: Block) -> Look:
    lines = block.lines
    if len(lines) == 1:
        line = lines[0]
        total = len(line.text)
        italic = line.italic
        bold = is_bold(line)
        family = font_family(line.font)
    else:
        slanted = heavy = total = 0
        families: Counter[str] = Counter()
        for line in lines:
            n = len(line.text)
            total += n
            slanted += n if line.italic else 0
            heavy += n if is_bold(line) else 0
            families[font_family(line.font)] += n
        italic = slanted * 2 > total
        bold = block.bold or heavy * 2 > total
        # most_common(1) is this max (the first of equal counts), without its overhead
        family = max(families.items(), key=_count)[0] if families else ""
    # Capitals matter for headings only, which are short: spare the long paragraphs.
    caps = total <= 2 * MAX_HEADING_CHARS and is_caps(block.text)
    return Look(size_bucket(block.size), bold, italic, caps, family)


def _context(pages: list[PageLayout], body: float, profile: HeadingProfile | None) -> _Context:
    size_chars: dict[float, int] = defaultdict(int)
    # The body's look from its lines (by characters), without a look for every block.
    line_looks: Counter[tuple[float, bool, bool, str]] = Counter()
    ctx = _Context(pages, body, Look(body, False, False, False, ""), 0, size_chars)
    if profile is not None:
        ctx.profile = profile
        ctx.title_pages = 0
        ctx.margin_texts.update(profile.margin_texts)
        ctx.running_looks.update(profile.running_looks)
        ctx.margin_looks.update(profile.margin_looks)
    for page in pages:
        for block in page.blocks:
            if block.kind == "table":
                continue
            lines = block.lines
            chars = sum(len(line.text) for line in lines)
            if len(lines) >= 2:
                # A few lines of each paragraph are enough to tell the body's look.
                for line in lines[:4]:
                    size = round(line.size * 2) / 2
                    key = (size, line.bold, line.italic, font_family(line.font))
                    line_looks[key] += len(line.text)
            size_chars[size_bucket(block.size)] += chars
            ctx.total_chars += chars
        # (with the running heads and feet already taken out: the same text left in a margin
        # elsewhere, where nothing marked it, is one of them)
        margin = {_margin_key(b.text) for b in page.blocks if _in_margin(page, b)}
        ctx.margin_texts.update(margin | {_margin_key(t) for t in page.header + page.footer})
        if _toc_page(page):
            ctx.toc_pages.add(id(page))
    ctx.total_chars = ctx.total_chars or 1
    if line_looks:
        size, bold, italic, family = max(line_looks.items(), key=_count)[0]
        ctx.body_look = Look(size, bold, italic, False, family)
    if profile is not None:  # the document's statistics, not the page's own
        ctx.body_look = profile.body_look
        ctx.total_chars = profile.total_chars
        ctx.size_chars = defaultdict(int, profile.size_chars)
    for page in pages:
        for block in page.blocks:
            if not _in_margin(page, block) or block.size > ctx.body + 0.5:
                continue
            if ctx.margin_texts[_margin_key(block.text)] >= 2:
                ctx.running_looks.add(ctx.look(block))
        # The running heads the furniture pass took out (words, not page numbers alone).
        for block in page.furniture:
            if _in_margin(page, block) and block.size <= ctx.body + 0.5 and _wordy(block.text):
                ctx.running_looks.add(ctx.look(block))
    if profile is None:
        ctx.margin_looks.update(_margin_looks(ctx))
    return ctx


def _margin_looks(ctx: _Context) -> frozenset[Look]:
    """Looks of short text no larger than the body seen in the margins of two pages or more
    and nowhere else (the body's look aside): the running heads' look, whatever they say."""
    margin_pages: Counter[Look] = Counter()
    elsewhere: set[Look] = {ctx.body_look}
    for page in ctx.pages:
        seen: set[Look] = set()
        for block in page.blocks:
            if block.kind == "table" or len(block.lines) > 2 or block.chars > MAX_HEADING_CHARS:
                continue
            if not _in_margin(page, block):
                elsewhere.add(ctx.look(block))
            elif block.size <= ctx.body + 0.5:
                seen.add(ctx.look(block))
        margin_pages.update(seen)
    return frozenset(look for look, n in margin_pages.items() if n >= 2 and look not in elsewhere)


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
    first = text[:1]
    if not first:
        return None
    # Most text starts with neither a number nor a sectioning word: look at it once.
    if first.isdigit():
        m = _ARABIC.match(text)
        if m and text[m.end() :]:
            return Numbering("arabic", m.group(1).count(".") + 1, text[m.end() :])
        return None
    if first == "(":
        m = _PAREN.match(text)
        return Numbering("paren", 1, text[m.end() :]) if m else None
    if text[:2].lower() in _WORD_STARTS:
        m = _WORD_NUMBER.match(text)
        if m:
            depth = 0 if m.group(1).lower() in ("part", "teil", "partie") else 1
            return Numbering("word", depth + m.group(2).count("."), text[m.end() :])
    if not first.isupper():
        return None
    m = _ROMAN.match(text) if first in "IVX" else None
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


def _title_shape(title: str, numbered: bool = False) -> bool:
    """The words after a section number read like a title, not a sentence or a reference.
    Only after a number (``numbered``) may the first word be a name written in lower case
    first, or the last an abbreviation's dotted capitals: a line of its own, unnumbered, that
    opens that way is as often a formula's ("piEi(x)"), and one that ends that way a
    sentence's."""
    title = title.strip()
    if not title or len(title) > 120 or len(title.split()) > 14:
        return False
    first = title[0]
    # Capitalised, or in a script without case (CJK, Arabic, Hebrew ...).
    caseless = first.isalpha() and first.lower() == first.upper()
    opening = first.isupper() or caseless or first.isdigit() or first in "“\"'‘(«¿¡「『【〈《"
    if not (opening or (numbered and _LOWER_NAME.match(title))):
        return False
    if title.endswith((",", ";", "-")) or (
        title.endswith(".")
        and not title.endswith(("etc.", "..."))
        and not (numbered and _DOTTED(title))
    ):
        return False
    if _INITIALS.search(title) or _SENTENCE_BREAK.search(title):
        return False
    return len(_LETTERS.findall(title)) >= 2


# --- shapes and context ---------------------------------------------------------------------


def _shape(ctx: _Context, page: PageLayout, block: Block) -> bool:
    """What every heading must be: short text with letters, not a caption, a formula, a URL,
    a table-of-contents line, a running head or text set sideways."""
    if block.kind not in ("paragraph", "list_item") or len(block.lines) > 4:
        return False
    if sum(len(line.text) for line in block.lines) > MAX_HEADING_CHARS:
        return False
    text = block.text.strip()
    if not text or len(text) > MAX_HEADING_CHARS:
        return False
    if is_bullet(text[0]) or text.endswith((",", ";")):
        return False
    if (text.endswith(":") and len(text) > 40) or _sideways(block):
        return False
    if not _shaped_text(text):
        return False
    if all(_MATH_FONT.match(font_family(line.font)) for line in block.lines):
        return False
    if _footnote(ctx, page, block, text):
        return False
    if page.number <= BYLINE_PAGES and _byline(text):
        return False
    return not _running_head(ctx, page, block, text)


#: A byline stands on a document's first pages (under its title, a cover page before it).
BYLINE_PAGES = 2
# The parts of a byline: names apart by commas or "and" (in a few languages).
_BYLINE_SPLIT = re.compile(r"\s*(?:,|;|&|\band\b|\bet\b|\bund\b|\by\b|\be\b)\s*")
# A name's word: capitalised (hyphens and apostrophes inside: "Poulin-Latulippe",
# "O'Brien"), an initial ("M.", "J.-P."), or a particle ("van", "de", "von", "da").
_NAME_WORD = re.compile(
    r"^(?:[A-Z\u00c0-\u00de][^\W\d_]+(?:[-'’][A-Z\u00c0-\u00de]?[^\W\d_]+)*"
    r"|(?:[A-Z]\.-?)+|van|von|de|der|den|da|di|du|del|la|le)$"
)
_INITIAL = re.compile(r"^(?:[A-Z]\.-?)+$")
# Affiliation letters after a name, as set on the line when their superscript size is lost
# ("Yunus Özen a,b,n, Nihan Akın a,b"): single lower-case letters apart by commas, then the
# next name's comma or the line's end.
_AFFILIATIONS = re.compile(r"(?<=[^\W\d_])\s+[a-z](?:\s?,\s?[a-z])*(?=\s*,\s|\s*$)")


def _byline(text: str) -> bool:
    """Whether ``text`` is a byline: two or more names of two to four words each, apart by
    commas or "and", with an initial, a note mark, affiliation letters or a particle among
    them ("Miguel M. Terradas, Antoine Asselin et David Poulin-Latulippe", "Qwen Team,
    Alibaba Group∗", "Yunus Özen a,b,n, Nihan Akın a,b").
    Capitalised words apart by commas and nothing more are as likely a section's title
    ("Machine Learning, Deep Learning and Reinforcement Learning"): it stays one."""
    bare = _AFFILIATIONS.sub("", text.translate(_NO_MARKS))
    marked = len(bare) < len(text)
    parts = [part for part in _BYLINE_SPLIT.split(bare.strip()) if part]
    if len(parts) < 2:
        return False
    words = [part.split() for part in parts]
    if not all(2 <= len(name) <= 4 and all(_NAME_WORD.match(w) for w in name) for name in words):
        return False
    initial = any(_INITIAL.match(w) for name in words for w in name)
    particle = any(w.islower() for name in words for w in name)
    return marked or initial or particle


def _footnote(ctx: _Context, page: PageLayout, block: Block, text: str) -> bool:
    """A note at the foot of the page: set smaller than the body, opening with a note mark
    ("1", "*", "†"), in the lower half of the page with no body-size text below it."""
    if text[:1] not in _NOTE_MARKS and not text[:1].isdigit():
        return False
    if block.size >= NOTE_SIZE_RATIO * ctx.body or block.y0 < page.height / 2:
        return False
    return not any(
        other.y0 >= block.y1
        and other.size >= NOTE_SIZE_RATIO * ctx.body
        and other.x0 < block.x1
        and other.x1 > block.x0
        for other in page.blocks
    )


def _shaped_text(text: str) -> bool:
    """The tests of ``_shape`` on its (stripped) text alone: enough letters, not a
    caption, a URL, a table-of-contents line, a note in brackets or a theorem's label."""
    found = numbering(text)
    title = found.title if found is not None and found.title else text
    letters = len(_LETTERS.findall(title))
    if letters < 2 or letters < 0.4 * len(title.replace(" ", "")):
        return False
    if _CAPTION.match(text) or _url(text) or _toc_leader(text) or _symbolic(title):
        return False
    if _bracketed(text):
        return False  # a note in brackets: "(in millions)", "(As at end-March)"
    return not (
        _THEOREM.match(text)
        or (("ﬁ" in text or "ﬂ" in text) and _THEOREM.match(text.translate(_LIGATURES)))
    )


def _bracketed(text: str) -> bool:
    """The whole text is inside one pair of brackets ("(in millions)"; not "(p) Methods
    (AMOCs)", a numbered title)."""
    if text[:1] not in "(（" or text[-1:] not in ")）":
        return False
    depth = 0
    for k, char in enumerate(text):
        depth += (char in "(（") - (char in ")）")
        if depth == 0:
            return k == len(text) - 1
    return False


def _symbolic(text: str) -> bool:
    """A formula or a line of pseudo-code ("f(x) = ax + b", "x ← y + 1", "for i = 1 to n
    do"): an operator, and fewer words than symbols, single letters and numbers. A title is
    words; one with an operator in it ("The E = mc2 Story", "x86 → ARM Migration") is at
    least half words."""
    if not _OPERATOR.search(text):
        return False
    tokens = text.split()
    words = sum(1 for token in tokens if len(_LETTERS.findall(token)) >= 2)
    return words * 2 < len(tokens)


def _url(text: str) -> bool:
    if "://" in text or "www." in text or ("@" in text and _EMAIL.search(text)):
        return True
    return any(tld in text for tld in (".com", ".org", ".net", ".gov", ".edu"))


def _toc_leader(text: str) -> bool:
    if ". ." in text or ".." in text or "…" in text or "__" in text:
        return bool(TOC_LEADER.search(text))
    return False


def _in_margin(page: PageLayout, block: Block) -> bool:
    if page.height <= 0:
        return False
    band = FURNITURE_BAND * page.height
    return block.y1 <= band or block.y0 >= page.height - band


def _margin_key(text: str) -> str:
    """Page numbers aside, a running head reads the same on every page."""
    return " ".join(w for w in text.lower().split() if not _folio(w))


def _folio(word: str) -> bool:
    """A page number: "332", "xv"."""
    return bool(_FOLIO.match(word)) and (word.isdigit() or _roman_value(word.upper()) > 0)


def _running_head(ctx: _Context, page: PageLayout, block: Block, text: str) -> bool:
    """A running head that the furniture pass left (it repeats on only some pages): text no
    larger than the body in the top or bottom margin, next to a page number ("PREFACE xv",
    "332 ACKNOWLEDGMENTS") or seen there on more than one page ("1.1. TOPOLOGISCHE RÄUME")."""
    if block.size > ctx.body + 0.5 or not _in_margin(page, block):
        return False  # a chapter's "Exercises" at the top of several pages is no running head
    words = text.lower().split()
    if len(words) >= 2 and (_page_folio(words[0], page) or _page_folio(words[-1], page)):
        return True
    # A section's running head may show on one page only: known by its look.
    look = ctx.look(block)
    return (
        ctx.margin_texts[_margin_key(text)] >= 2
        or look in ctx.running_looks
        or look in ctx.margin_looks
    )


def _page_folio(word: str, page: PageLayout) -> bool:
    """``word`` (lower case) may be the page's own number: a folio, and the page number the
    furniture pass found on the page alone, if it found one (a page prints its number once:
    "1 INTRODUCTION" at the top of a page numbered 3 at its foot is a section's title)."""
    if not _folio(word):
        return False
    printed = [t.strip().lower() for t in (*page.header, *page.footer)]
    numbers = [t for t in printed if _folio(t)]
    return not numbers or word in numbers


def _toc_page(page: PageLayout) -> bool:
    """Many lines of the page are a title followed by a page number: a table of contents,
    whose entries repeat the headings without being them."""
    texts = [line.text for b in page.blocks if b.kind != "table" for line in b.lines]
    ends = [t for t in texts if t[-1:].isdigit() or t[-1:] in "ivxlc" or ". ." in t]
    # Cheap test first: few lines end in a digit or a leader on most pages.
    if len(ends) < 5:
        return False
    entries = sum(1 for text in ends if _toc_entry(text))
    if entries < 5:
        return False
    lines = sum(1 for t in texts if _wordy(t))  # lone page numbers aside
    return entries >= 0.4 * lines


def _wordy(text: str) -> bool:
    """At least three letters."""
    return len(_LETTERS.findall(text, 0, 40)) >= 3 or len(_LETTERS.findall(text)) >= 3


def _toc_entry(text: str) -> bool:
    return _toc_leader(text) or bool(_TRAILING_NUMBER.search(text) and _wordy(text))


def _neighbours(pages: list[PageLayout], p: int, i: int) -> tuple[Block | None, Block | None]:
    """The blocks before and after block ``i`` of page ``p`` in reading order (across a page
    break, when the next page is among ``pages``)."""
    blocks = pages[p].blocks
    before = blocks[i - 1] if i > 0 else None
    after = blocks[i + 1] if i + 1 < len(blocks) else None
    if (
        after is None
        and p + 1 < len(pages)
        and pages[p + 1].number == pages[p].number + 1
        and pages[p + 1].blocks
    ):
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
    a heading of the next column may sit level with it: in the same look too, when both are
    set apart from the body and each opens a paragraph right under it (cards of a grid, any
    number wide; the sections of a page set in columns), or either titles a column of
    sections (:func:`_titles_a_column`: a CV's sidebar beside its main column)."""
    look = ctx.look(block)
    beside = 0
    # Whether ``block`` is set apart from the body, opens a paragraph, titles a column of
    # sections: asked when needed, once.
    heads: bool | None = None
    opens = titles = False
    for other in page.blocks:
        if other is block or other.y0 >= block.y1 or other.y1 <= block.y0:
            continue
        if other.x0 < block.x1 and other.x1 > block.x0:
            continue
        if (headings and id(other) in headings) or _sideways(other):
            continue
        if len(_LETTERS.findall(other.text)) < 2:
            continue  # a symbol or number of a figure or formula in the next column
        if len(other.lines) <= 2 and other.chars < 60:
            if ctx.look(other) == look:
                if heads is None:
                    heads = _differs_from_body(ctx, look)
                    opens = heads and _heads_text(page, block)
                    titles = heads and _titles_a_column(ctx, page, block, look)
                if heads and (
                    titles
                    or (opens and _heads_text(page, other))
                    or _titles_a_column(ctx, page, other, look)
                ):
                    # Titles of cards over their text, or of a column's sections, side by side
                    continue
                return False  # cells or labels set alike, not headings side by side
            beside += 1
            if beside >= 2:
                return False
    return True


def _titles_a_column(ctx: _Context, page: PageLayout, block: Block, look: Look) -> bool:
    """Whether ``block`` titles a section of a column of them: lines of its own right under
    it (two or more, in another look, starting within an em of its start), and a block in
    its look further down, starting there too, with no block of that look level with it
    (a CV's "Contact" over its address lines and "Skills" under them in the sidebar, level
    with "Experience" over the main column). A table's cells alike on a row have more such
    rows under them; a form's label ends in a colon. Asked of a block once
    (``ctx.column_titles``), and of the ``SECTION_LOOK`` nearest blocks in its look below
    it only: a crowded page's work stays within its blocks squared."""
    found = ctx.column_titles.get(id(block))
    if found is None:
        found = ctx.column_titles[id(block)] = _titles_column(ctx, page, block, look)
    return found


#: How many of the blocks in a title's look below it are asked whether they stand alone.
SECTION_LOOK = 4


def _titles_column(ctx: _Context, page: PageLayout, block: Block, look: Look) -> bool:
    em = max(block.size, 1.0)
    if block.text.rstrip().endswith(":") or not any(
        0 <= o.y0 - block.y1 <= 2 * em
        and abs(o.x0 - block.x0) <= em
        and len(o.lines) >= 2
        and ctx.look(o) != look
        for o in page.blocks
    ):
        return False
    below = sorted(
        (
            o
            for o in page.blocks
            if o is not block
            and o.y0 >= block.y1
            and abs(o.x0 - block.x0) <= em
            and len(o.lines) <= 2
            and ctx.look(o) == look
        ),
        key=lambda o: o.y0,
    )
    return any(
        not any(
            x is not o and x.y0 < o.y1 and x.y1 > o.y0 and ctx.look(x) == look for x in page.blocks
        )
        for o in below[:SECTION_LOOK]
    )


def _heads_text(page: PageLayout, block: Block) -> bool:
    """A paragraph of running text starts right under ``block`` (within two of its line
    heights), at its start (within an em): lines of words at least ``MIN_MEASURE_EM`` wide, or
    narrower ending a sentence (a card's text in a grid three wide). What a heading opens;
    a table's header cell has cells under it, an author's name the short lines of an
    address."""
    for other in page.blocks:
        if (
            other.kind == "paragraph"
            and 0 <= other.y0 - block.y1 <= 2 * block.size
            and abs(other.x0 - block.x0) <= block.size
            and len(other.lines) >= 2
            and wordy(other.lines[0].text)
            and (
                other.x1 - other.x0 >= MIN_MEASURE_EM * max(other.size, 1.0)
                or other.lines[-1].text.rstrip().endswith((".", "!", "?"))
            )
        ):
            return True
    return False


def _runs_into(block: Block, after: Block | None) -> bool:
    """The block's last line runs on into the next block: that one follows at its own line
    pitch, and its first word would have fit in the room left at the end of the line. A
    heading line ends on purpose; a bold phrase that opens a paragraph ("Threat Model In
    this work, we") fills the measure like the rest of the paragraph."""
    if after is None or after.kind not in ("paragraph", "list_item") or len(after.lines) < 2:
        return False  # one line tells neither the pitch nor the measure
    last, nxt = block.lines[-1], after.lines[0]
    if last.text.endswith(SENTENCE_END):
        return False  # a line that ends its sentence was not cut by the measure
    em = max(nxt.size, 1.0)
    pitch = after.lines[1].y0 - nxt.y0
    if nxt.y0 - last.y0 > pitch * (1 + PITCH_TOLERANCE) or nxt.y0 <= last.y0:
        return False  # set apart by extra space, or not below it
    if nxt.x0 > last.x0 + INDENT_EM * em or last.x0 > nxt.x0 + INDENT_EM * em:
        return False  # not in the same column, or the next one opens with an indent
    right = measure_right(after)
    if right - min(line.x0 for line in after.lines) < MIN_MEASURE_EM * em:
        return False  # labels or a list of short entries, not running text
    return measure_broke(last, nxt, right)


def measure_right(block: Block) -> float:
    """Where the block's lines end when they are full: the upper median of their right
    edges (a short last line, or a line run on into the next column, does not move it)."""
    ends = sorted(line.x1 for line in block.lines)
    return ends[len(ends) // 2]


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


def _find_headings(ctx: _Context) -> tuple[list[_Heading], list[_Heading]]:
    """The numbered headings, and every heading found (numbered, run-in, unnumbered)."""
    numbered: list[_Heading] = []
    run_ins: list[_Heading] = []
    others: list[tuple[int, int, Block]] = []
    for p, page in enumerate(ctx.pages):
        toc = id(page) in ctx.toc_pages
        labels = [
            b
            for b in page.blocks
            if len(b.lines) == 1 and len(b.lines[0].text) <= 16 and _LABEL.match(b.text.strip())
        ]
        line_numbers = _line_numbered(page)
        busy = _busy_looks(page)
        for i, block in enumerate(page.blocks):
            if block.kind == "heading":
                # A run-in split off by _split_run_ins: depth already known.
                run_ins.append(_Heading(block, ctx.look(block), float(block.level)))
                continue
            if len(block.lines) > 4 or not _shape(ctx, page, block):
                continue
            if toc and (_toc_entry(block.lines[-1].text) or numbering(block.text) is not None):
                continue  # an entry of the table of contents, not the heading it names
            label = _hanging_label(block, labels)
            text = f"{label.text.strip()} {block.text}" if label is not None else block.text
            # A table of contents repeats the numbered headings; a transcript numbers lines.
            numbered_ok = not (toc or line_numbers)
            heading = _numbered_heading(ctx, p, i, block, text) if numbered_ok else None
            if heading is not None:
                heading.label = label
                numbered.append(heading)
            elif (size_bucket(block.size), block.bold) not in busy or block.size >= 1.5 * ctx.body:
                others.append((p, i, block))
    profile = ctx.profile
    if any(h.kind == "roman" for h in numbered) or (profile is not None and profile.roman):
        # IEEE: "II." sections hold "A." subsections, which hold "1)" run-ins.
        for h in numbered:
            if h.kind == "letter" and h.depth is not None:
                h.depth += 1
    # "(1)" sits under whatever other numbering the document has.
    deepest = max(_deepest(numbered), profile.deepest if profile is not None else 0)
    for h in numbered:
        if h.kind == "paren":
            h.depth = deepest + 1
    numbered_looks = _numbered_looks(ctx, numbered)
    if profile is not None:
        numbered_looks.extend(profile.numbered_looks)
    taken = {id(h.block) for h in numbered}
    found = numbered + run_ins
    unnumbered: list[_Heading] = []
    for p, i, block in others:
        heading = _unnumbered_heading(ctx, p, i, block, numbered_looks, taken)
        if heading is not None:
            heading.page = p
            unnumbered.append(heading)
    return numbered, found + _title_pages(ctx, unnumbered)


#: A chapter's label and its title set on lines of their own ("Chapter 1" over
#: "Introduction"): the title starts within this many of the larger one's ems below the label
#: (a chapter opening sets them a few lines apart: LaTeX's book class about two ems, Sphinx's
#: about five; further apart they are other things).
LABEL_TITLE_GAP_EM = 6.0


def _labels_over_titles(ctx: _Context, found: list[_Heading]) -> list[_Heading]:
    """A heading that is a sectioning word and its number alone ("Chapter 1", "Part II",
    "Appendix A") right over a heading of words ("Introduction"), the next block of its
    page, is that title's label: one heading, "Chapter 1 Introduction", at the label's
    depth in the title's look (a book's chapter opening, set on two lines)."""
    where = {id(b): (p, i) for p, page in enumerate(ctx.pages) for i, b in enumerate(page.blocks)}
    by_block = {id(h.block): h for h in found}
    dropped: set[int] = set()
    for heading in found:
        label = heading.block
        found_number = numbering(label.text)
        if found_number is None or found_number.kind != "word" or found_number.title.strip():
            continue
        p, i = where.get(id(label), (-1, -1))
        blocks = ctx.pages[p].blocks if p >= 0 else []
        title = by_block.get(id(blocks[i + 1])) if 0 <= i < len(blocks) - 1 else None
        if title is None or title.label is not None or numbering(title.block.text) is not None:
            continue
        em = max(label.size, title.block.size, 1.0)
        below = title.block.y0 - label.y1
        overlap = min(label.x1, title.block.x1) - max(label.x0, title.block.x0)
        if not (-0.5 * em <= below <= LABEL_TITLE_GAP_EM * em) or overlap <= 0:
            continue
        title.label = label
        title.depth = float(found_number.depth)
        title.kind = found_number.kind
        dropped.add(id(heading))
    return [h for h in found if id(h) not in dropped]


def _deepest(numbered: list[_Heading]) -> float:
    return max((h.depth or 0 for h in numbered if h.kind != "paren"), default=0)


def _numbered_looks(ctx: _Context, numbered: list[_Heading]) -> list[Look]:
    """Looks that numbered headings use, unless it is the body's own look."""
    return [h.look for h in numbered if _differs_from_body(ctx, h.look)]


def _title_pages(ctx: _Context, found: list[_Heading]) -> list[_Heading]:
    """A title page (the first pages of a longer document; little text in several sizes:
    title, author, publisher) has one heading, its largest text."""
    by_page: dict[int, list[_Heading]] = defaultdict(list)
    for heading in found:
        by_page[heading.page].append(heading)
    keep: list[_Heading] = []
    for p, headings in by_page.items():
        front = p < ctx.title_pages and len(ctx.pages) >= 4
        sizes = {h.look.size for h in headings}
        if front and len(sizes) >= 2 and sum(b.chars for b in ctx.pages[p].blocks) < 400:
            headings = [max(headings, key=lambda h: h.look.size)]
        keep.extend(headings)
    return keep


def _shared_look(look: Look, others: list[Look]) -> int:
    """How many of ``others`` look like ``look``, give or take a little size (small caps
    measure differently from line to line)."""
    style = (look.bold, look.italic, look.caps, look.family)
    return sum(
        1
        for other in others
        if (other.bold, other.italic, other.caps, other.family) == style
        and abs(other.size - look.size) <= 2.5
    )


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


def _busy_looks(page: PageLayout) -> set[tuple[float, bool]]:
    """Size and weight of the labels of a form or a diagram: many short blocks on one
    page. There they mark fields and boxes, not sections."""
    counts = Counter(
        (size_bucket(b.size), b.bold) for b in page.blocks if len(b.lines) <= 2 and b.chars < 60
    )
    return {key for key, n in counts.items() if n >= 8}


def _line_numbered(page: PageLayout) -> bool:
    """A transcript or legal page numbers its lines 1, 2, 3 ...: not section numbers. The
    layout found lines starting with the left margin's numbers (``linenumbers.py``), or its
    lines count up. (Numbers in a right margin end their lines: a heading's own number stays
    one there.)"""
    numbers = []
    for block in page.blocks:
        for line in block.lines:
            if line.text_start is not None:
                return True
            m = _LINE_NUMBER.match(line.text) if line.text[:1].isdigit() else None
            if m:
                numbers.append(int(m.group(1)))
    rising = sum(1 for a, b in pairwise(numbers) if b == a + 1)
    return len(numbers) >= 8 and rising >= 0.6 * len(numbers)


def _numbered_heading(ctx: _Context, p: int, i: int, block: Block, text: str) -> _Heading | None:
    found = numbering(text)
    if found is None or not _title_shape(found.title, numbered=True):
        return None
    look = ctx.look(block)
    large = look.size >= ctx.body * HEADING_RATIO and look.size >= ctx.body + 1.0
    if len(block.lines) > (3 if large else 2):
        return None
    if look.size < 0.7 * ctx.body:
        return None  # footnotes, figure labels
    if look.size < ctx.body - 0.5 and not (look.caps or look.bold):
        return None  # numbered notes; small section titles are small caps or bold
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
    numbered_looks: list[Look],
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
        if len(block.lines) > max_lines or not _alone_on_its_row(ctx, page, block):
            return None
        return _Heading(block, look)
    if len(block.lines) > 2 or len(block.text) > MAX_STYLED_CHARS:
        return None
    if _runs_on(block.text):
        return None
    if (
        id(block) in ctx.split_heads
        and _differs_from_body(ctx, look)
        and _title_shape(block.text)
        and len(block.text) <= 80
        and not block.text.rstrip().endswith(":")  # "Editors:" over a list of names
        and not _runs_into(block, after)
        and _alone_on_its_row(ctx, page, block)
    ):
        # A line in its own face over the paragraph it opens: "Boots Self-Locking Nut".
        return _Heading(block, look)
    if (
        len(block.lines) == 1
        and _shared_look(look, numbered_looks) >= 2
        and _title_shape(block.text)
        and _alone_on_its_row(ctx, page, block, taken)
    ):
        # The look of the numbered headings: "REFERENCES" beside "IV. RESULTS".
        return _Heading(block, look)
    if size < ctx.body - 1.0:
        return None
    if _centred_in_its_own_face(ctx, page, i, block, after):
        # A book's section title: one line in another typeface at the body size, centred
        # over the paragraph it opens and set apart by space ("Film", "Recorded Music").
        return _Heading(block, look)
    if look.bold and not ctx.body_look.bold:
        if after is not None and after.bold and after.kind != "table" and after.size >= size - 0.5:
            return None  # (a bold block after it in a smaller size: a heading under this one)
        if _runs_into(block, after):
            return None
        text = block.text.strip()
        # A bold sentence ("σ heißt Möbiustransformation.") is emphasis.
        if not _title_shape(text) or len(_LETTERS.findall(text)) < 3:
            return None
        return _Heading(block, look) if _alone_on_its_row(ctx, page, block) else None
    return None


def _centred_in_its_own_face(
    ctx: _Context, page: PageLayout, i: int, block: Block, after: Block | None
) -> bool:
    """One short title-shaped line in a typeface other than the body's, no smaller than the
    body text by more than a point, centred on the measure of the running text that follows
    it, with more space above and below it than that text's own line pitch. Each of these
    alone is weak (a label, a line of code, a centred formula); together they are how a
    book sets its section titles when it sets them at the body size."""
    look = ctx.look(block)
    if len(block.lines) != 1 or not look.family or look.family == ctx.body_look.family:
        return False
    text = block.text.strip()
    if not _title_shape(text) or len(text.split()) > MAX_PLACED_WORDS or text.endswith(":"):
        return False
    if after is None or not _is_body_text(ctx, after) or len(after.lines) < 2:
        return False
    line, first = block.lines[0], after.lines[0]
    em = max(first.size, 1.0)
    pitch = after.lines[1].y0 - first.y0
    if pitch <= 0 or first.y0 - line.y0 <= pitch * (1 + PITCH_TOLERANCE):
        return False  # not set apart from the text below
    left = min(ln.x0 for ln in after.lines)
    right = measure_right(after)
    width = right - left
    if width < MIN_MEASURE_EM * em or block.x1 - block.x0 > CENTRED_MAX_SHARE * width:
        return False
    if abs((block.x0 + block.x1) / 2 - (left + right) / 2) > CENTRE_EM * em:
        return False  # not centred on the measure
    before = page.blocks[i - 1] if i > 0 else None
    if (
        before is not None
        and before.x0 < right
        and before.x1 > left
        and before.y1 <= line.y0
        and line.y0 - before.lines[-1].y0 <= pitch * (1 + PITCH_TOLERANCE)
    ):
        return False  # the text above runs on at its pitch: a centred line of it
    return _alone_on_its_row(ctx, page, block)


# --- run-in headings ------------------------------------------------------------------------


def _split_run_ins(ctx: _Context) -> bool:
    """IEEE third-level headings run into their paragraph ("1) Accuracy: Showing ...");
    in a document whose sections are Roman-numbered, split them off as headings. Whether
    they were (the profile's answer, for a page finished against one)."""
    if ctx.profile is not None:
        if not ctx.profile.run_ins:
            return False
    elif _roman_sections(ctx.pages) < 2:
        return False
    for page in ctx.pages:
        out: list[Block] = []
        for block in page.blocks:
            split = _split_run_in(block)
            if split[0] is not block:
                ctx.replaced.append(block)
            out.extend(split)
        page.blocks = out
    return True


def _roman_sections(pages: list[PageLayout]) -> int:
    roman = 0
    for page in pages:
        for block in page.blocks:
            if len(block.lines) > 2 or block.lines[0].text[:1] not in "IVX":
                continue
            found = numbering(block.text)
            if found is not None and found.kind == "roman" and found.depth == 1:
                roman += 1
    return roman


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
        run_in=True,
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


# --- a heading line at the top of its paragraph --------------------------------------------


@dataclass
class _Split:
    page: PageLayout
    whole: Block
    head: Block
    rest: Block


def _split_first_lines(ctx: _Context) -> list[_Split]:
    """A heading line that the block builder kept with the paragraph below it (its size or
    weight differ only a little) becomes a block of its own for the heading tests; the
    lines of the page do not change, so neither does its plain text."""
    splits: list[_Split] = []
    for page in ctx.pages:
        out: list[Block] = []
        toc = id(page) in ctx.toc_pages
        for block in page.blocks:
            split = None if toc else _split_first_line(block)
            if split is None:
                out.append(block)
                continue
            head, rest = split
            splits.append(_Split(page, block, head, rest))
            ctx.split_heads.add(id(head))
            out.extend(split)
        page.blocks = out
    return splits


def _split_first_line(block: Block) -> tuple[Block, Block] | None:
    if block.kind not in ("paragraph", "list_item") or len(block.lines) < 2:
        return None
    first, second = block.lines[0], block.lines[1]
    text = first.text.strip()
    if len(text) > 100 or _runs_on(text) or text.endswith((",", ";")):
        return None
    if second.text[:1].islower():
        return None  # "Note 1 to paragraph (g): Guidance for" / "operators ...": one sentence
    larger = first.size >= second.size + 0.5
    heavier = is_bold(first) and not is_bold(second)
    # Another face (italic, a TeX bold) on a line that stops short of the column's edge.
    short = first.x1 < block.x1 - 0.15 * (block.x1 - block.x0)
    restyled = short and (
        (first.italic and not second.italic) or font_family(first.font) != font_family(second.font)
    )
    if not (larger or heavier or restyled):
        return None
    head = Block([first], first.x0, first.y0, first.x1, first.y1, first.size, is_bold(first))
    lines = block.lines[1:]
    rest = Block(
        lines,
        min(line.x0 for line in lines),
        min(line.y0 for line in lines),
        max(line.x1 for line in lines),
        max(line.y1 for line in lines),
        max(
            (line.size for line in lines),
            key=lambda size: sum(len(line.text) for line in lines if line.size == size),
        ),
        sum(len(line.text) for line in lines if line.bold) * 2
        > sum(len(line.text) for line in lines),
    )
    return head, rest


def _undo_splits(splits: list[_Split]) -> None:
    """A split-off line that did not turn out a heading goes back to its paragraph."""
    for split in splits:
        if split.head.kind == "heading":
            continue
        blocks = split.page.blocks
        i = next(i for i, b in enumerate(blocks) if b is split.head)
        j = next((j for j, b in enumerate(blocks) if b is split.rest), -1)
        if j == i + 1:
            blocks[i : j + 1] = [split.whole]


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
    """Each slide's title, the largest short text near its top, is a heading, and so is
    other short text set as large as a title larger than the body; slide titles are all
    one level (a deck's outline is flat). The title reads like one (``_title_shape``: a
    page of large text in sentences has none). A slide whose title its structure tree gave
    already (a tagged deck) keeps it: its next-largest lines are not titles."""
    for page in ctx.pages:
        if any(b.kind == "heading" for b in page.blocks):
            continue
        candidates = [b for b in page.blocks if _shape(ctx, page, b) and len(b.lines) <= 3]
        best: Block | None = None
        for block in candidates:
            if block.y0 > 0.4 * page.height or block.size < ctx.body - 0.5:
                continue
            if not _title_shape(block.text):
                continue  # a sentence ("sed eiusmod tempor ... aliqua."), not a title
            key = (size_bucket(block.size), -block.y0)
            if best is None or key > (size_bucket(best.size), -best.y0):
                best = block
        if best is None:
            continue
        title = ctx.look(best)
        for block in candidates:
            same = ctx.look(block) == title and title.size >= ctx.body + 1.0
            if block is best or (same and len(block.lines) == 1):
                block.kind = "heading"
                block.level = 1


# --- levels -----------------------------------------------------------------------------------


def _assign_levels(
    found: list[_Heading], reference: tuple[tuple[Look, float | None], ...] = ()
) -> None:
    """Numbered headings sit at their depth; unnumbered ones at the depth of the numbered
    headings that share their look, else above, between or below them by prominence.

    With ``reference`` (the looks and depths of a document's profile: a page finished
    outside its sample) the looks are ranked as the profile's headings rank them, and a
    level is a place among the ranks those headings take: a look or depth only the page has
    shares the level of the next deeper rank. So "7.3.5" sits where every other three-deep
    number sits, whatever else its page holds (ranking the page's headings together with
    the profile's let them move the profile's own looks: a section's subsections went a
    level deeper on some pages than on others)."""
    if reference:
        basis = [_Heading(Block([], 0, 0, 0, 0, 0), look, depth) for look, depth in reference]
        _rank(basis, basis)
        _rank(found, basis)
        # A depth the profile never saw (its sample held no chapter's opening page) is no
        # rank of its scale: where its look is one of the profile's, it ranks as that look
        # does ("CHAPTER 1." set as the sample's unnumbered chapter-like titles are).
        depths = {h.depth for h in basis if h.depth is not None}
        look_ranks: dict[Look, float] = {}
        for h in basis:
            look_ranks[h.look] = min(look_ranks.get(h.look, h.rank), h.rank)
        for heading in found:
            known = heading.depth is None or heading.depth in depths
            if not known and heading.look in look_ranks:
                heading.rank = look_ranks[heading.look]
    else:
        basis = found
        _rank(found, basis)
    scale = sorted({h.rank for h in basis})
    for heading in found:
        heading.block.level = min(bisect.bisect_left(scale, heading.rank) + 1, MAX_LEVELS)


def _rank(found: list[_Heading], basis: list[_Heading]) -> None:
    """Each of ``found``'s rank among the looks of ``basis``: its numbering depth, else the
    depth of the numbered headings of its look, else a place by prominence among them
    (fractions between depths). A look ``basis`` does not have falls between its looks."""
    by_look: dict[Look, list[float]] = defaultdict(list)
    for heading in basis:
        if heading.depth is not None:
            by_look[heading.look].append(heading.depth)
    # The most common depth, the first of equal counts (``most_common(1)``, which imports
    # ``heapq`` the first time: a fresh process pays for that import).
    look_rank = {
        look: max(Counter(depths).items(), key=_count)[0] for look, depths in by_look.items()
    }
    depths = sorted({d for found_depths in by_look.values() for d in found_depths})
    if look_rank:
        top = min(look_rank.values())
        biggest = max(look.size for look in look_rank)
        above = sorted(
            {h.look.size for h in basis if h.depth is None and h.look.size > biggest},
            reverse=True,
        )
        for heading in found:
            if heading.depth is not None:
                heading.rank = heading.depth
            elif heading.look in look_rank:
                heading.rank = look_rank[heading.look]
            elif heading.look.size > biggest:
                # (larger sizes first, each half a rank apart; a size between two of them
                # halfway between their ranks)
                larger = sum(size > heading.look.size for size in above)
                between = 0.0 if heading.look.size in above else 0.5
                heading.rank = top - len(above) + larger - 0.5 - between
            else:
                heading.rank = _between(heading.look, look_rank, depths, top)
    else:
        prominence = sorted({h.look.prominence()[:2] for h in basis}, reverse=True)
        for heading in found:
            key = heading.look.prominence()[:2]
            heading.rank = sum(p > key for p in prominence) - (0.0 if key in prominence else 0.5)


def _between(look: Look, look_rank: dict[Look, float], depths: list[float], top: float) -> float:
    """Rank of an unnumbered look among the numbered ones: level with a look as prominent,
    else just below the least prominent look that outranks it: at the next depth the
    numbering has (``depths``, ascending; a level of its own would push every deeper number
    a level down, and six levels are all Markdown has), below the deepest when there is
    none."""
    key = look.prominence()
    same = [r for other, r in look_rank.items() if other.prominence() == key]
    if same:
        return min(same)
    higher = [r for other, r in look_rank.items() if other.prominence() > key]
    if not higher:
        return top - 0.25
    after = max(higher)
    deeper = [d for d in depths if d > after]
    return deeper[0] if deeper else after + 0.5
