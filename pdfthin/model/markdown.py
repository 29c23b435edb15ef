"""Blocks -> Markdown."""

from __future__ import annotations

import re
from array import array
from collections.abc import Container, Sequence
from typing import NamedTuple

from pdfthin.layout import Block, list_marker
from pdfthin.layout.headings import MIN_MEASURE_EM
from pdfthin.layout.lines import monospace_share
from pdfthin.model.escaping import escape_heading, escape_inline, escape_line_start
from pdfthin.model.text import SOFT_BREAK, clean, join_hyphenated, join_soft_break

#: A line of code by its content: it opens or closes a bracketed body or ends a statement
#: (``{``, ``}``, ``;``), calls or declares (``name(``), assigns or compares (``=``), or
#: comments (``#``, ``//``, ``/*``). Prose in a typewriter face rarely does.
_CODE_LINE = re.compile(r"[{};]\s*$|^\s*[}#@]|\w\(|[^\s]\s*=|->|::|//|/\*|\+\+")
#: Indentation, in character widths, that sets a line of code inside a block.
CODE_INDENT_CHARS = 1.5


def join_lines(lines: list[str], known_words: Container[str] | None, sep: str = "\n") -> str:
    """Rejoin the lines of a paragraph, keeping the source line breaks (``sep``; a Markdown
    soft break) but undoing hyphenation: the rest of a broken word moves up to the line
    where it started. A real hyphen (``state-of-the-`` + ``art``) is kept, without a space."""
    return sep.join(_joined(lines, known_words)[0])


#: Where a block's plain text comes from: ``(offset in the block's plain text, source line)``
#: at each place the source line changes, in order.
LineMarks = list[tuple[int, int]]


def _joined(lines: list[str], known_words: Container[str] | None) -> tuple[list[str], LineMarks]:
    """The output lines of :func:`join_lines`, and where each source line's text landed in
    them joined by ``"\n"``: a word rejoined across a hyphen is marked as the next line's
    from where its rest was appended."""
    out: list[str] = []
    # Per output line: (offset in that line, source line index).
    marks: list[list[tuple[int, int]]] = []
    for index, line in enumerate(lines):
        line = line.strip()
        if not line:
            continue
        if out and out[-1].endswith(("-", SOFT_BREAK)):
            head, _, rest = line.partition(" ")
            if out[-1].endswith(SOFT_BREAK):
                joined: str | None = join_soft_break(out[-1], head)
            else:
                joined = _join_pair(out[-1], head, known_words)
            if joined is not None:
                if joined.endswith(head) and len(joined) > len(head):
                    marks[-1].append((len(joined) - len(head), index))
                out[-1] = joined
                if rest:
                    out.append(rest)
                    marks.append([(0, index)])
                continue
        out.append(line)
        marks.append([(0, index)])
    if out and out[-1].endswith(SOFT_BREAK):
        out[-1] = out[-1][: -len(SOFT_BREAK)] + "-"  # nothing after it to join: the hyphen shown
    flat: LineMarks = []
    at = 0
    for text, line_marks in zip(out, marks, strict=True):
        flat.extend((at + offset, index) for offset, index in line_marks)
        at += len(text) + 1
    return out, flat


def _join_pair(first: str, head: str, known_words: Container[str] | None) -> str | None:
    """``first`` (which ends with ``-``) and the first word of the next line joined, or
    ``None`` when they stay apart."""
    joined = join_hyphenated(first, head, known_words)
    if joined is None and first[-2:-1].isalnum() and head[:1].isalnum():
        joined = first + head
    return joined


def render_block(block: Block, known_words: Container[str] | None) -> str:
    return _render(block, known_words)[0]


#: A line of code is set in a monospaced face all but a few characters (a sentence naming
#: ``Pixmap.alpha`` and ``DeviceRGB`` in Courier between words of Calibri is prose).
CODE_FACE_SHARE = 0.9


def _is_code(block: Block, ocr_layer: bool = False) -> bool:
    """Several lines of code: all in a monospace face (``CODE_FACE_SHARE``), and code by their
    content (half the lines read as code) or their shape (an indented line among them, with
    one line of code). A monospace face alone is no evidence: typewritten letters and forms
    use it, and an OCR layer's font is the recognizer's choice, not the printed face."""
    lines = block.lines
    if (
        ocr_layer
        or len(lines) < 2
        or not all(monospace_share(line) >= CODE_FACE_SHARE for line in lines)
    ):
        return False
    code = sum(1 for line in lines if _CODE_LINE.search(line.text))
    if code * 2 >= len(lines):
        return True
    advance = min((line.x1 - line.x0) / max(len(line.text), 1) for line in lines)
    left = min(line.x0 for line in lines)
    indented = any(line.x0 > left + CODE_INDENT_CHARS * advance for line in lines)
    return indented and code >= 1


def _render(
    block: Block, known_words: Container[str] | None, ocr_layer: bool = False
) -> tuple[str, str, LineMarks]:
    """The block as Markdown and as plain text (each line cleaned once for both), and where
    the plain text's lines come from (empty for a table: its rows are not lines)."""
    if block.kind == "table" and block.rows:
        cleaned = [[clean(c) for c in row] for row in block.rows]
        plain = "\n".join(
            " ".join(c for c, raw in zip(row, raw_row, strict=True) if raw)
            for row, raw_row in zip(cleaned, block.rows, strict=True)
        )
        return render_table(cleaned, cleaned=True), plain, []
    lines = [clean(line.text, soft_break=True) for line in block.lines]
    joined, marks = _joined(lines, known_words)
    plain = "\n".join(joined)
    if block.kind == "heading":
        text = " ".join(joined)
        hashes = "#" * max(1, min(block.level, 6))
        return (f"{hashes} {escape_heading(text)}" if text else ""), plain, marks
    if block.kind == "list_item":
        return _list_item("\n".join(joined)), plain, marks
    if _is_code(block, ocr_layer):
        body = "\n".join(line.replace(SOFT_BREAK, "-") for line in lines if line.strip())
        return (_fenced(body) if body else ""), plain, marks
    return escape_paragraph(plain), plain, marks


def escape_paragraph(text: str) -> str:
    """Plain text as a Markdown paragraph whose rendering shows that text: markup escaped
    inline and at the start of each line (a line "# On and from 16 March" or "- 5 mm" inside
    a paragraph would open a heading or a list; ``__init__`` would turn bold)."""
    lines = escape_inline(text).split("\n")
    return "\n".join(escape_line_start(line, continuation=i > 0) for i, line in enumerate(lines))


def _fenced(body: str) -> str:
    """A code block; its fence longer than any run of backticks in it."""
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{body}\n{fence}"


def _list_item(text: str) -> str:
    """A list item's joined lines (``\n`` between them) as a Markdown list item, its text
    escaped; its own marker, when it is not a bullet or a number, stays in its text."""
    found = list_marker(text)
    if found is None:
        head, rest = "- ", text
    else:
        marker, rest = found
        if marker == "-":
            head = "- "
        elif marker.rstrip(".)").isdigit():
            head = f"{marker.rstrip('.)')}. "
        else:
            head = "- "
            rest = f"{marker} {rest}"
    # Its lines are escaped as a paragraph's first lines: indented under a wide marker
    # ("12. "), a numbered line could start the next item of the list.
    return head + "\n  ".join(escape_line_start(line) for line in escape_inline(rest).split("\n"))


def render_plain(blocks: list[Block], known_words: Container[str] | None = None) -> str:
    """The same text as :func:`render_blocks`, without Markdown syntax: headings, list
    items and table rows as plain lines (cells separated by a space)."""
    return render_page(blocks, known_words)[2]


def _cell(text: str) -> str:
    return escape_inline(clean(text).strip(), cell=True)


def render_table(rows: list[list[str]], cleaned: bool = False) -> str:
    """A Markdown table of ``rows`` (the first one its header); ``cleaned`` when the cells
    have been through :func:`clean` already."""
    width = max(len(r) for r in rows)
    if cleaned:
        cells = [
            [escape_inline(c.strip(), cell=True) for c in r] + [""] * (width - len(r)) for r in rows
        ]
    else:
        cells = [[_cell(c) for c in r] + [""] * (width - len(r)) for r in rows]
    header = "| " + " | ".join(cells[0]) + " |"
    rule = "|" + "|".join(["---"] * width) + "|"
    body = ["| " + " | ".join(r) + " |" for r in cells[1:]]
    return "\n".join([header, rule, *body])


def render_blocks(blocks: list[Block], known_words: Container[str] | None = None) -> str:
    """Blocks separated by blank lines; consecutive list items stay one (tight) list."""
    return render_anchored(blocks, known_words)[0]


def render_anchored(
    blocks: list[Block], known_words: Container[str] | None = None
) -> tuple[str, list[Anchor]]:
    """:func:`render_blocks`, plus where each rendered block starts in the Markdown: its
    offset, its top on the page and its heading level (0 for other blocks)."""
    markdown, anchors, _ = render_page(blocks, known_words)
    return markdown, anchors


def render_page(
    blocks: list[Block], known_words: Container[str] | None = None, ocr_layer: bool = False
) -> tuple[str, list[Anchor], str]:
    """:func:`render_anchored` and :func:`render_plain` of the same blocks, in one pass;
    ``ocr_layer`` when the page's text is a scanner's OCR layer (no code blocks then)."""
    out: list[str] = []
    anchors: list[Anchor] = []
    length = 0
    previous = ""
    plain_out: list[str] = []
    plain_length = 0
    glue = ""
    nest = _Nesting()
    before: Block | None = None  # the paragraph rendered last, if the block rendered last is one
    for block in blocks:
        text, plain, marks = _render(block, known_words, ocr_layer)
        if block.kind == "list_item" and text:
            text = nest.indented(block, text)
        elif text:
            nest.close()
        plain_at = -1
        if plain:
            if plain_out:
                plain_out.append(glue)
                plain_length += len(glue)
            plain_at = plain_length
            plain_out.append(plain)
            plain_length += len(plain)
            glue = " " if block.run_in else "\n"
        if not text:
            continue
        if out:
            items = block.kind == "list_item" and previous == "list_item"
            sep = "\n" if items or _goes_on_in_next_column(before, block) else "\n\n"
            out.append(sep)
            length += len(sep)
        level = block.level if block.kind == "heading" else 0
        box = (_round(block.x0), _round(block.y0), _round(block.x1), _round(block.y1))
        kind = "code" if text.startswith("```") else block.kind
        lines = _line_boxes(block, marks)
        anchors.append(
            Anchor(length, box[1], level, kind, box, len(text), plain_at, len(plain), lines)
        )
        out.append(text)
        length += len(text)
        previous = block.kind
        before = block if kind == "paragraph" else None
    return "".join(out), anchors, "".join(plain_out)


#: A paragraph ending mid-sentence at a column's foot goes on at the top of the next column
#: when the text there starts in lower case at this size (within this many points) ...
COLUMN_SIZE_TOLERANCE = 0.5
#: ... and its last line fills the column's measure to within this many ems (both lines
#: running text: ``MIN_MEASURE_EM`` wide or more).
COLUMN_FULL_EM = 2.0
_MID_SENTENCE_END = re.compile(r"[\w,]$")


def _goes_on_in_next_column(before: Block | None, block: Block) -> bool:
    """``block`` carries on the paragraph ``before`` (the block rendered last) across a column
    break: both paragraphs of one size, ``before``'s last line filling its measure and
    ending mid-sentence, ``block`` standing higher up, right of it, and opening in lower
    case (a two-column paper's sentence "... the intent can" / "be clearly marked ...").
    Rendered as one Markdown paragraph: a soft line break between them, each keeping its
    own anchor."""
    if before is None or block.kind != "paragraph" or not block.lines or not before.lines:
        return False
    if abs(before.size - block.size) > COLUMN_SIZE_TOLERANCE:
        return False
    last, first = before.lines[-1], block.lines[0]
    if block.y0 >= last.y0 or block.x0 < before.x1 - COLUMN_FULL_EM * (before.size or 1.0):
        return False  # not higher up than its last line, in a column right of it
    em = last.size or 1.0
    if last.x1 < before.x1 - COLUMN_FULL_EM * em:
        return False  # a short last line: the paragraph's own end
    if min(last.x1 - last.x0, first.x1 - first.x0) < MIN_MEASURE_EM * em:
        return False  # no running text: a formula's pieces, a form's fields, an index
    opening = first.text.lstrip()
    return bool(_MID_SENTENCE_END.search(last.text.rstrip())) and opening[:1].islower()


#: A list item starting this many ems (of its text) or more right of the item above it, within
#: that item's width, is nested in it ...
NEST_EM = 1.0
#: ... when it follows it within this many ems, below it (not a list of the next column).
NEST_GAP_EM = 2.0


class _Nesting:
    """The list items open above the one being rendered, outermost first, each with where
    its text starts in the Markdown (the spaces before it and its marker): a list item set
    further in under another item is nested in it, indented to its text (CommonMark)."""

    def __init__(self) -> None:
        self.open: list[tuple[Block, int]] = []
        self.last: Block | None = None

    def close(self) -> None:
        self.open = []
        self.last = None

    def indented(self, block: Block, text: str) -> str:
        """``text`` (a rendered list item) indented to the item it is nested in, if any."""
        em = block.size or 1.0
        last = self.last
        if last is None or not -0.5 * em <= block.y0 - last.y1 <= NEST_GAP_EM * em:
            self.open = []  # the first item of a list
        while self.open and not _nested(self.open[-1][0], block, em):
            self.open.pop()
        pad = self.open[-1][1] if self.open else 0
        head = text.index(" ") + 1  # "- " or "12. "
        self.open.append((block, pad + head))
        self.last = block
        if not pad:
            return text
        return "\n".join(" " * pad + line for line in text.split("\n"))


def _nested(parent: Block, block: Block, em: float) -> bool:
    return parent.x0 + NEST_EM * em <= block.x0 < parent.x1


#: Numbers kept per line of a block in :attr:`Anchor.lines`: where its text starts in the
#: block's plain text, then its box ``x0, y0, x1, y1``.
LINE_FIELDS = 5


def _line_boxes(block: Block, marks: LineMarks) -> Sequence[float]:
    """The block's lines, flat (:data:`LINE_FIELDS` numbers each, in a compact array: a page
    keeps them as long as it is cached), each from where its text starts in the block's plain
    text (:func:`_joined`); none for a table (its block box stands for every row)."""
    if not marks:
        return ()
    out = array("d")
    for offset, index in marks:
        line = block.lines[index]
        out.extend((offset, _round(line.x0), _round(line.y0), _round(line.x1), _round(line.y1)))
    return out


def line_boxes_between(
    anchor: Anchor, start: int, end: int
) -> list[tuple[float, float, float, float]]:
    """The boxes of the lines that the block's plain text ``start``-``end`` (offsets in the
    block's plain text) covers, in order; the block's box when its lines are not known (a
    table). A hyphenated word's rest counts on the line it was printed on."""
    lines = anchor.lines
    if not lines:
        return [anchor.box]
    out: list[tuple[float, float, float, float]] = []
    for i in range(0, len(lines), LINE_FIELDS):
        following = i + LINE_FIELDS
        stop = lines[following] if following < len(lines) else anchor.plain_length
        if lines[i] < end and stop > start:
            box = (lines[i + 1], lines[i + 2], lines[i + 3], lines[i + 4])
            if not out or out[-1] != box:
                out.append(box)
    return out or [anchor.box]


def _round(value: float) -> float:
    return round(value, 1)


class Anchor(NamedTuple):
    """A rendered block: where it stands in the page's Markdown and plain text, and on the
    page (points, origin at the top left of the page as displayed: after its /Rotate and crop
    box, y down)."""

    offset: int
    #: The block's top in the frame the page was read in (``box[1]``, unless the page was laid
    #: out turned: ``PageLayout.turn``); what orders a page's sections.
    y: float
    #: The heading level; 0 for any other block.
    level: int
    #: ``paragraph``, ``heading``, ``list_item``, ``table`` or ``code``.
    kind: str = "paragraph"
    #: ``(x0, y0, x1, y1)``.
    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    #: Characters of the block's Markdown, from ``offset``.
    length: int = 0
    #: Where the block's text starts in the page's plain text (-1: it has none), and its
    #: length there.
    plain: int = -1
    plain_length: int = 0
    #: Where each of its lines starts in its plain text, with the line's box
    #: flat (:data:`LINE_FIELDS` numbers a line); empty for a table.
    lines: Sequence[float] = ()

    def moved(self, offset: int) -> Anchor:
        """The same block at ``offset`` of the page's Markdown (text inserted before it)."""
        return self._replace(offset=offset)

    def spanning(self, offset: int, length: int) -> Anchor:
        """The same block at ``offset`` with ``length`` characters (text inserted into it)."""
        return self._replace(offset=offset, length=length)

    def placed(self, box: tuple[float, float, float, float], lines: Sequence[float]) -> Anchor:
        """The same block with its box and line boxes given (mapped onto the displayed page)."""
        return self._replace(box=box, lines=lines)
