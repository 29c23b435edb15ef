"""Page Markdown, rendered by a CommonMark parser (markdown-it-py, with GitHub's tables and
strikethrough), shows the page's text: text that only looks like Markdown syntax is escaped,
and nothing else is. Checked block by block against the page's plain text, on generated pages
made of such text and on the first pages of every corpus file."""

from __future__ import annotations

import re
import textwrap
from html.parser import HTMLParser

import pytest
from conftest import CorpusFile, corpus_files, corpus_params, deadline, open_corpus_file
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from pdfbuilder import PdfBuilder

import pdfthin
from pdfthin.layout import list_marker
from pdfthin.model.escaping import escape_heading, escape_inline, escape_line_start
from pdfthin.model.footnotes import SYMBOL_LABELS
from pdfthin.model.markdown import escape_paragraph, render_table

RENDERER = MarkdownIt("commonmark").enable("table").enable("strikethrough")
#: Tags a block of page text may render to: its own kind's, and nothing another kind of
#: markup (emphasis, links, raw HTML...) would add.
BLOCK_TAGS = {
    "paragraph": {"p"},
    "heading": {"h1", "h2", "h3", "h4", "h5", "h6"},
    "list_item": {"ul", "ol", "li", "p"},
    "table": {"table", "thead", "tbody", "tr", "th", "td"},
}
#: A link pdfthin writes: text between brackets and a web or mail address.
_WRITTEN_LINK = re.compile(r"\]\((?:https?|mailto):", re.IGNORECASE)
#: Lines of running text that a renderer would otherwise read as markup.
TRICKY = [
    "*new* rules and __init__ methods, but snake_case and 2 * 3 stay as written",
    "0. is where the count starts",
    "1) and so on",
    "# of units shipped",
    "> 5 mm is too wide",
    "+ plus sign first",
    "- minus sign first",
    "a | b | c",
    "--- | ---",
    "see [the note](below) and [1]",
    "<div> tags & &amp; entities</div>",
    "a `code` span and ~~struck~~ words",
    "C:\\path\\* and a trailing backslash \\",
    "===",
    "***",
    "___",
    "_ _ _",
    "```",
    "~~~",
    ":---",
    "-:",
    "|---|",
]


#: Tags a browser shows inline: no space is seen at their edges.
_INLINE = frozenset({"a", "em", "strong", "code", "span"})


class _Visible(HTMLParser):
    """The text a browser would show, and the tags it met."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        if tag not in _INLINE:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag not in _INLINE:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def rendered(markdown: str) -> tuple[str, set[str]]:
    parser = _Visible()
    parser.feed(RENDERER.render(markdown))
    parser.close()
    return " ".join("".join(parser.parts).split()), parser.tags


def expected_text(kind: str, plain: str) -> str:
    """The block's plain text as the rendering shows it: a list item's bullet or number is
    the list's decoration, not text."""
    if kind == "list_item":
        first, _, rest = plain.strip().partition("\n")
        found = list_marker(first)
        if found and (found[0] == "-" or found[0].rstrip(".)").isdigit()):
            plain = found[1] + "\n" + rest
    return " ".join(plain.split())


_FOOTNOTE = re.compile(r"\[\^([^\]\s]+)\](?:: ?)?")
#: A footnote's label -> its mark as Markdown text.
_MARKS = {label: "\\*" if mark == "*" else mark for mark, label in SYMBOL_LABELS.items()}


def mismatches(doc: pdfthin.Document, pages: int) -> list[str]:
    out = []
    for page in doc.pages[:pages]:
        for a in page.anchors:
            if a.kind == "code" or a.plain < 0:
                continue
            markdown = page.markdown[a.offset : a.offset + a.length]
            if a.kind == "list_item":
                # A nested item is indented to its parent's text: alone, without that
                # indentation, it renders as the item it is.
                markdown = textwrap.dedent(markdown)
            plain = page.text[a.plain : a.plain + a.plain_length]
            footnotes = _FOOTNOTE.search(markdown) is not None
            if footnotes:  # [^1] and [^1]: (pdfthin/model/footnotes.py) as their marks
                markdown = _FOOTNOTE.sub(lambda m: _MARKS.get(m.group(1), m.group(1)), markdown)
            visible, tags = rendered(markdown)
            extra = tags - BLOCK_TAGS.get(a.kind, set())
            if _WRITTEN_LINK.search(markdown):
                extra.discard("a")  # the PDF's own links (pdfthin/model/links.py)
            expected = expected_text(a.kind, plain)
            if footnotes:  # a note's definition is a paragraph, its mark apart from its text
                visible, expected = visible.replace(" ", ""), expected.replace(" ", "")
            if visible != expected or extra:
                shown = f"{markdown[:120]!r} shows {visible[:120]!r}"
                out.append(f"page {page.number} {a.kind} {shown}")
    return out


def _page_of(lines: list[str]) -> bytes:
    """One line per paragraph (a blank line's height apart), in Helvetica."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica", encoding="/WinAnsiEncoding")
    body = [b"BT /F1 11 Tf 72 740 Td 30 TL"]
    for line in lines:
        escaped = line.encode("cp1252").replace(b"\\", b"\\\\")
        escaped = escaped.replace(b"(", b"\\(").replace(b")", b"\\)")
        body.append(b"(" + escaped + b") Tj T*")
    body.append(b"ET")
    b.add_page(b"\n".join(body), {"Font": {"F1": font}})
    return b.build()


def test_text_that_looks_like_markup_shows_as_text() -> None:
    doc = pdfthin.open(_page_of(TRICKY))
    page = doc.pages[0]
    assert all(line in page.text for line in TRICKY)
    assert mismatches(doc, 1) == []
    # And the page as a whole: nothing but paragraphs and the list items the layout found.
    _, tags = rendered(page.markdown)
    assert tags <= {"p", "ul", "ol", "li"}


def test_lines_inside_one_paragraph_are_escaped_too() -> None:
    """The same lines, close together: one paragraph whose lines are soft breaks."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica", encoding="/WinAnsiEncoding")
    lines = [
        "Counting goes on",
        "# second",
        "=== third",
        "> fourth",
        "| fifth |",
        "--- sixth",
        "2014. seventh",
        "*eighth and",
        "ninth* pair across lines",
        "--- | ---",
        ":---",
    ]
    body = b"BT /F1 11 Tf 72 740 Td 13 TL " + b" ".join(b"(%s) Tj T*" % x.encode() for x in lines)
    b.add_page(body + b" ET", {"Font": {"F1": font}})
    doc = pdfthin.open(b.build())
    assert [a.kind for a in doc.pages[0].anchors] == ["paragraph"]
    assert mismatches(doc, 1) == []
    visible, tags = rendered(doc.pages[0].markdown)
    assert (visible, tags) == (" ".join(lines), {"p"})


@pytest.mark.parametrize(
    "text",
    ["2 * 3 = 6", "snake_case_name", "~5 mm", "see [1] and [2]", "a < b and c > d", "R&D costs"],
)
def test_plain_prose_is_left_alone(text: str) -> None:
    """Escapes only where a character could act: prose keeps its characters unescaped."""
    assert escape_line_start(escape_inline(text)) == text
    assert rendered(text)[0] == text


@pytest.mark.parametrize(
    "text",
    [
        "Name ______________ Date ________",
        "(Please specify)___________",
        "C.I* is the confidence interval",
        "*CHANGE authority is needed",
        "grant *USE rights, not *ALL of them",
        "a | b | c, with no row of dashes under it",
        "a lone ` backtick, and `` two",
        "in a paragraph\n2014. The year begins a line but starts no list",
    ],
)
def test_markup_without_a_partner_is_written_as_it_is(text: str) -> None:
    """A ``*`` or ``_`` run that nothing could pair with, a pipe with no table's delimiter
    row, a backtick run with no run of its length: a renderer shows them as they are, so
    they are not escaped (a form's blanks read ``______``, not ``\\_\\_\\_``)."""
    assert escape_paragraph(text) == text
    assert rendered(text)[0] == " ".join(text.split())


def test_a_partner_anywhere_in_the_paragraph_brings_the_escapes_back() -> None:
    text = "a *star on one line\nand its pair* on the next, a `tick and\nanother` one"
    markdown = escape_paragraph(text)
    assert markdown.count("\\*") == 2 and markdown.count("\\`") == 2
    assert rendered(markdown) == (" ".join(text.split()), {"p"})
    # The same characters in a table's cell: a pipe there always ends the cell.
    assert render_table([["h"], ["a | b"]]).splitlines()[-1] == "| a \\| b |"


_MARKUP = st.sampled_from(
    [
        *list("ab1 *_`|~[]()<>&#:;-+=.!\\^/é“"),
        "\n",
        "**",
        "__",
        "***",
        "___",
        "```",
        "1. ",
        "2014. ",
        "---",
        "|---|",
        ":--",
        "&amp;",
    ]
)


def _paragraph_lines(pieces: list[str]) -> str:
    lines = (" ".join(line.split()) for line in "".join(pieces).split("\n"))
    return "\n".join(line for line in lines if line)


@settings(max_examples=3000, deadline=None)
@given(st.lists(_MARKUP, min_size=1, max_size=24).map(_paragraph_lines).filter(bool))
def test_any_text_renders_as_itself(text: str) -> None:
    """Text made of markup characters, as a paragraph, a heading, a list item and a table
    cell, renders to its own characters with no markup but its block's."""
    flat = " ".join(text.split())
    assert rendered(escape_paragraph(text)) == (flat, {"p"})
    assert rendered("## " + escape_heading(flat)) == (flat, {"h2"})
    table = rendered(render_table([["h", flat], [flat, "z"]]))
    assert table[0] == f"h {flat} {flat} z"
    assert table[1] <= BLOCK_TAGS["table"]


@pytest.mark.parametrize(
    "line",
    [
        "-|" * 500_000 + "x",  # could be a delimiter row up to its last character
        ":-" * 500_000 + "x",
        "* " * 500_000 + "x",  # a thematic break up to its last character
        "_ " * 500_000 + "x",
        "` " * 500_000,
        "a*" * 500_000,
        "\n".join(["-|-"] * 300_000) + "\nx",
    ],
)
def test_a_hostile_line_is_escaped_in_one_pass(line: str) -> None:
    """A page can hold a line of a million characters built to make a pattern backtrack over
    it (a row of "-|" that is almost a table's delimiter row): the escapes are found in time
    proportional to the line, a second or so here, where a pattern that backtracks would take
    hours. Bounded time is the invariant; the deadline is a hang guard, not a speed claim."""
    with deadline(60):
        escape_paragraph(line)
        escape_heading(line.replace("\n", " "))
        render_table([[line.replace("\n", " ")]])


@pytest.mark.parametrize("f", corpus_params(corpus_files()))
def test_corpus_pages_render_to_their_text(f: CorpusFile | None) -> None:
    doc = open_corpus_file(f)
    assert mismatches(doc, 4) == []
