"""Layout on synthetic runs: pure geometry, no PDF needed.

Each helper places words where a typesetter would (10 pt text, 12 pt leading) so a test can
state exactly the page it means: columns, headings, lists, tables, running furniture.
"""

from __future__ import annotations

import dataclasses
import gc
import random
import textwrap
import types
from collections.abc import Sequence

import pytest
from pdfbuilder import PdfBuilder

import pdfthin
import pdfthin.model.document
from pdfthin.engine.types import PageContent, TextRun
from pdfthin.layout import finish_document, layout_page
from pdfthin.layout.lines import _with_drop_caps, build_lines
from pdfthin.layout.orientation import from_frame
from pdfthin.layout.types import Block, Line, PageLayout
from pdfthin.model.markdown import render_blocks

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")

CHAR_W = 5.0  # a fixed advance per character keeps the arithmetic readable


def run(text: str, x: float, y: float, size: float = 10.0, bold: bool = False) -> TextRun:
    """A run whose baseline is at ``y`` (top-left origin, y down)."""
    width = len(text) * CHAR_W * size / 10.0
    return TextRun(text, x, y - 0.8 * size, x + width, y + 0.2 * size, size, "F", bold)


def words(line: str, x: float, y: float, size: float = 10.0, bold: bool = False) -> list[TextRun]:
    """One run per word, separated by a normal word space (0.3 em)."""
    out = []
    for word in line.split():
        out.append(run(word, x, y, size, bold))
        x += len(word) * CHAR_W * size / 10.0 + 0.3 * size
    return out


def page(runs: list[TextRun], number: int = 1, width: float = 612, height: float = 792):
    return PageContent(number=number, width=width, height=height, rotation=0, runs=runs)


def markdown(*pages: PageContent) -> list[str]:
    layouts = [layout_page(p) for p in pages]
    finish_document(layouts)
    return [render_blocks(lay.blocks) for lay in layouts]


LEFT = [f"left line {i} of the first column text" for i in range(12)]
RIGHT = [f"right line {i} of the second column" for i in range(12)]


def two_columns(y0: float = 100.0) -> list[TextRun]:
    runs: list[TextRun] = []
    for i, (a, b) in enumerate(zip(LEFT, RIGHT, strict=True)):
        y = y0 + 12 * i
        runs += words(a, 50, y)
        runs += words(b, 320, y)
    return runs


def test_words_get_spaces_from_gaps_and_not_inside_words() -> None:
    runs = [run("Hel", 10, 100), run("lo", 25, 100), run("world", 40, 100)]
    (line,) = build_lines(runs)
    # "Hel" ends at 25 (no gap: same word); "lo" ends at 35, "world" starts 5pt later.
    assert line.text == "Hello world"


def test_two_columns_read_left_column_first() -> None:
    (md,) = markdown(page(two_columns()))
    left_end = md.index(LEFT[-1])
    right_start = md.index(RIGHT[0])
    assert left_end < right_start
    # No line mixes the two columns.
    assert all(not ("left" in ln and "right" in ln) for ln in md.splitlines())


def test_blocks_set_left_and_right_in_turn_read_top_down() -> None:
    # A letter: the sender's address at the top right, the addressee's below it at the left,
    # then the letter across the page: no two columns, read from the top.
    runs = words("12 Mill Road", 400, 60) + words("Millbrook MB1 2CD", 400, 72)
    runs += words("1 December 2026", 400, 96)
    runs += words("Ms A. Smith", 50, 120) + words("The Council Offices", 50, 132)
    runs += words("Dear Ms Smith,", 50, 156)
    for i, text in enumerate(LEFT[:4]):
        runs += words(text + " and on across the whole page", 50, 180 + 12 * i)
    (md,) = markdown(page(runs))
    order = ["12 Mill Road", "1 December 2026", "Ms A. Smith", "Dear Ms Smith,", LEFT[0]]
    assert [md.index(t) for t in order] == sorted(md.index(t) for t in order)


def test_columns_whose_paragraphs_break_level_read_column_by_column() -> None:
    # Two columns, each of two paragraphs with the break at the same height: the page cuts
    # into rows, but each row holds both columns: still columns.
    runs: list[TextRun] = []
    for i, (a, b) in enumerate(zip(LEFT[:8], RIGHT[:8], strict=True)):
        y = 100 + 12 * i + (14 if i >= 4 else 0)
        runs += words(a, 50, y) + words(b, 320, y)
    (md,) = markdown(page(runs))
    assert md.index(LEFT[7]) < md.index(RIGHT[0])


def test_three_columns_in_order() -> None:
    runs: list[TextRun] = []
    # Lines fill their column, as set text does (35 characters x 5 pt in a 190 pt column).
    cols = [[f"col{c} row{i} with running text in it" for i in range(10)] for c in range(3)]
    for c, lines in enumerate(cols):
        for i, text in enumerate(lines):
            runs += words(text, 40 + 190 * c, 120 + 12 * i)
    (md,) = markdown(page(runs))
    positions = [md.index(cols[c][0]) for c in range(3)]
    assert positions == sorted(positions)
    assert md.index(cols[0][-1]) < md.index(cols[1][0])
    assert md.index(cols[1][-1]) < md.index(cols[2][0])


def test_full_width_title_over_two_columns() -> None:
    title = words("A Title Spanning Both Columns", 150, 60, size=20)
    (md,) = markdown(page(title + two_columns()))
    assert md.startswith("# A Title Spanning Both Columns")
    assert md.index(LEFT[-1]) < md.index(RIGHT[0])


CARD_TEXT = [
    "The valley was settled in the eighteenth",
    "century by farmers who came from the coast",
    "and built the first mill by the river.",
]


def _cards(titles: list[str], size: float = 12.0, bold: bool = True) -> list[TextRun]:
    """Cards in a grid two wide, each a title over a paragraph; titles of a row level."""
    runs: list[TextRun] = []
    for k, title in enumerate(titles):
        x, y = 50 + 270 * (k % 2), 100 + 90 * (k // 2)
        runs += words(title, x, y, size=size, bold=bold)
        for i, text in enumerate(CARD_TEXT):
            runs += words(text, x, y + 18 + 12 * i)
    return runs


def test_headings_set_level_side_by_side_are_headings() -> None:
    # Titles of a grid of cards, in one look, on one baseline: each opens its paragraph.
    (md,) = markdown(page(_cards(["Opening hours", "Getting there", "Tickets", "Access"])))
    for title in ("Opening hours", "Getting there", "Tickets", "Access"):
        assert f"# {title}\n" in md


def test_titles_of_narrow_cards_over_sentences_are_headings() -> None:
    # Cards three wide: each paragraph narrower than a page's measure, but sentences.
    runs: list[TextRun] = []
    text = ["Three quiet rooms on the", "first floor, with desks", "and lamps for forty."]
    for k, title in enumerate(["Reading rooms", "Local history", "Study help"]):
        runs += words(title, 50 + 180 * k, 100, size=12, bold=True)
        for i, line in enumerate(text):
            runs += words(line, 50 + 180 * k, 118 + 12 * i)
    (md,) = markdown(page(runs))
    for title in ("Reading rooms", "Local history", "Study help"):
        assert f"# {title}\n" in md, md


def test_labels_set_level_side_by_side_over_no_paragraph_are_no_headings() -> None:
    # The same titles, each over a short line (a figure's labels, cells of a row): no
    # headings, though they are set apart from the body of the page below them.
    runs = words("Opening hours", 50, 100, 12, True) + words("Getting there", 320, 100, 12, True)
    runs += words("Mon to Sat", 50, 118) + words("Bus 40", 320, 118)
    for i, text in enumerate(CARD_TEXT * 2):
        runs += words(text, 50, 200 + 12 * i)
    (md,) = markdown(page(runs))
    assert "# " not in md


def test_two_authors_names_over_their_addresses_are_no_headings() -> None:
    # Names set level, bold and larger, each over the short lines of an address: a paper's
    # authors, not two headings.
    runs: list[TextRun] = []
    for x, name, lines in [
        (50, "Jane Doe", ["Department of Computer Science", "University of Leeds"]),
        (320, "John Smith", ["School of Informatics", "University of Edinburgh"]),
    ]:
        runs += words(name, x, 100, 12, True)
        for i, text in enumerate(lines):
            runs += words(text, x, 118 + 12 * i)
    for i, text in enumerate(CARD_TEXT * 2):
        runs += words(text + " and on across the page", 50, 200 + 12 * i)
    (md,) = markdown(page(runs))
    assert "# " not in md


def test_lines_in_the_body_look_side_by_side_are_no_headings() -> None:
    # Numbered lines set like the body on one baseline, each over a paragraph: pieces of
    # running text broken on a row (a reference mark, a formula), not two headings.
    (md,) = markdown(
        page(_cards(["3. Assuming the rate of five", "4. Assuming the rate of ten"], 10.0, False))
    )
    assert "# " not in md


def test_heading_levels_follow_size_rank() -> None:
    runs = words("Big Title", 50, 60, size=24)
    runs += words("Section One", 50, 100, size=16)
    body = [f"body text line number {i} that is long enough" for i in range(8)]
    for i, text in enumerate(body):
        runs += words(text, 50, 130 + 12 * i)
    runs += words("Section Two", 50, 250, size=16)
    for i, text in enumerate(body):
        runs += words(text, 50, 280 + 12 * i)
    (md,) = markdown(page(runs))
    assert "# Big Title" in md.splitlines()
    assert "## Section One" in md.splitlines()
    assert "## Section Two" in md.splitlines()
    assert "body text line number 0" in md


def test_bullets_and_numbers_become_list_items() -> None:
    runs = []
    items = ["• first item", "• second item", "1. numbered item"]
    for i, text in enumerate(items):
        runs += words(text, 50, 100 + 12 * i)
    (md,) = markdown(page(runs))
    lines = md.splitlines()
    assert "- first item" in lines
    assert "- second item" in lines
    assert "1. numbered item" in lines


BODY_LINES = [
    "the paragraph under the section title runs across the column",
    "and goes on for a few lines set flush with the section number",
    "until it ends here.",
]


@pytest.mark.parametrize("title", ["1. INTRODUCTION", "B. SOLA INVERSIONS"])
def test_a_numbered_title_line_does_not_swallow_its_paragraph(title: str) -> None:
    """A numbered line that stops short, over a paragraph flush with its number: a line of
    its own (here a heading, by its capitals), and the paragraph stays a paragraph."""
    runs = words(title, 50, 100)
    for i, text in enumerate(BODY_LINES):
        runs += words(text, 50, 112 + 12 * i)
    (md,) = markdown(page(runs))
    blocks = md.split("\n\n")
    assert blocks[0] == f"# {title}"
    assert blocks[1].startswith("the paragraph under the section title")
    assert not blocks[1].startswith(("-", " "))


@pytest.mark.parametrize(
    "lines",
    [
        # A name wrapping to the start of a line, in a paragraph.
        [
            "The method was first described by the group in Zurich and it was later taken",
            "J. Smith and colleagues, who applied it to the data of the northern stations",
            "and found that it held there as well as in the south, within its error bars.",
        ],
        # References whose authors run over two lines.
        [
            "[1] A. Vaswani, N. Shazeer, N. Parmar, J. Uszkoreit, L. Jones, A. N. Gomez, and",
            "L. Kaiser, and I. Polosukhin. Attention is all you need. In NIPS, 2017, pp. 1-11.",
            "[2] K. He, X. Zhang, S. Ren, and J. Sun. Deep residual learning for the image",
            "recognition. In Proceedings of CVPR, pages 770-778, 2016, by the authors, and",
            "J. Sun. An afterword to the paper above it, in the proceedings, pages 779-780.",
        ],
        # A name in capitals, its initials before it.
        ["J. P. COOKE."],
    ],
)
def test_an_initial_opening_a_line_opens_no_list_item(lines: list[str]) -> None:
    runs = [w for i, text in enumerate(lines) for w in words(text, 50, 100 + 12 * i)]
    (md,) = markdown(page(runs))
    assert md == "\n".join(lines)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # The next letter set elsewhere (a quotation's indented lines).
        ((50, "J. Smith and colleagues took the method up and applied it"), (90, "K. Lee")),
        # The letters out of order: "K." above "J.".
        ((50, "K. Lee and colleagues took the method up and applied it"), (50, "J. Smith")),
    ],
)
def test_capital_letters_out_of_line_are_no_sequence(
    first: tuple[float, str], second: tuple[float, str]
) -> None:
    runs = words("The method was first described by the group in Zurich, later by", 50, 88)
    for i, (x, text) in enumerate([first, second]):
        runs += words(text, x, 100 + 12 * i)
    (md,) = markdown(page(runs))
    assert "- " not in md and first[1] in md and second[1] in md


def test_roman_numbered_titles_keep_their_lines() -> None:
    # "I. Introduction" ... "V. Conclusion" in the body's type: "I." and "V." are single
    # capitals whose neighbours are roman numerals of more letters ("II.", "IV.").
    titles = ["I. Introduction", "II. Related Work", "III. Method", "IV. Results", "V. End"]
    runs: list[TextRun] = []
    y = 100.0
    for title in titles:
        runs += words(title, 50, y)
        for i in range(2):
            runs += words(f"the text of the section runs on, line {i} of it", 50, y + 12 * (i + 1))
        y += 50
    (md,) = markdown(page(runs))
    for title in titles:
        assert f"# {title}" in md.splitlines(), md


def test_capital_letters_in_sequence_are_a_list() -> None:
    # "A." over "B." over "C.", each opening an item (the issue's "B. SOLA INVERSIONS", a
    # section's title in capitals, is one on its own: see above).
    items = ["A. The first of the cases, as set out", "B. The second of them", "C. The third"]
    runs = [w for i, text in enumerate(items) for w in words(text, 50, 100 + 12 * i)]
    (md,) = markdown(page(runs))
    assert md.splitlines() == [f"- {item}" for item in items]


@pytest.mark.parametrize("mark", ["(3)", "3)", "c)"])
def test_a_number_the_measure_carries_over_mid_sentence_opens_no_item(mark: str) -> None:
    # "... (1) infrared radiation, (2) line overlap, and" over "(3) collisional pumping.":
    # the sentence goes on; no list item swallows the rest of the paragraph.
    first = mark.replace("3", "1").replace("c", "a")
    second = mark.replace("3", "2").replace("c", "b")
    lines = [
        "Previous studies have suggested that there are three main pumping ways",
        f"to explain the lines: {first} infrared radiation, {second} line overlap, and",
        f"{mark} collisional pumping. The rest of the paragraph follows them here",
        "and ends on this line.",
    ]
    runs = [w for i, text in enumerate(lines) for w in words(text, 50, 100 + 12 * i)]
    (md,) = markdown(page(runs))
    assert md == "\n".join(lines), md


@pytest.mark.parametrize(
    "lines",
    [
        # A list's first mark, under a line the measure broke without a colon.
        [
            "The committee agreed on the steps that every member is to follow next",
            "1) report the findings to the board before the end of the week",
            "2) publish the findings.",
        ],
        # A later mark under a line that ends its clause.
        [
            "The committee agreed on the steps that every member is to follow now:",
            "3) report the findings to the board before the end of the week",
            "4) publish the findings.",
        ],
        # A later mark under a line that stops short.
        ["The steps agreed on", "2) report the findings", "3) publish the findings."],
        # ... under a long line that stops short of the measure the items set.
        [
            "The committee agreed on the steps that every",
            "2) report the findings to the board before the end of the week",
            "3) publish the findings to all members of the club at once",
        ],
    ],
)
def test_a_number_opening_a_list_still_opens_an_item(lines: list[str]) -> None:
    runs = [w for i, text in enumerate(lines) for w in words(text, 50, 100 + 12 * i)]
    layouts = [layout_page(page(runs))]
    finish_document(layouts)
    items = [b.text for b in layouts[0].blocks if b.kind == "list_item"]
    assert items == lines[1:], [(b.kind, b.text) for b in layouts[0].blocks]


def test_a_list_item_keeps_its_wrapped_lines() -> None:
    """What the rule above must not break: an item's text wraps at the column's edge, its
    next line flush with the marker or hanging under the item's text."""
    runs = words("1. the first item of the list runs on across the column and", 50, 100)
    runs += words("wraps to a second line flush with the marker.", 50, 112)
    runs += words("2. the second item runs on across the column as well, and", 50, 124)
    runs += words("its next line hangs under the item's text.", 62, 136)
    (md,) = markdown(page(runs))
    assert md.splitlines() == [
        "1. the first item of the list runs on across the column and",
        "  wraps to a second line flush with the marker.",
        "2. the second item runs on across the column as well, and",
        "  its next line hangs under the item's text.",
    ]


def test_footnote_asterisk_and_dagger_are_not_bullets() -> None:
    runs = []
    for i in range(20):
        runs += words(f"body text line {i} of the page that goes on across", 50, 100 + 12 * i)
    runs += words("* Corresponding author: someone at some place.", 50, 700, size=8)
    runs += words("† Now at another university in some city.", 50, 710, size=8)
    (md,) = markdown(page(runs))
    assert "- Corresponding author" not in md
    assert "* Corresponding author: someone at some place.\n† Now at another" in md


def test_a_body_size_asterisk_list_is_still_a_list() -> None:
    runs = []
    for i, text in enumerate(["* first point", "* second point"]):
        runs += words(text, 50, 100 + 12 * i)
    runs += words("a paragraph after the list that runs on for a while", 50, 140)
    runs += words("and ends on its second line.", 50, 152)
    (md,) = markdown(page(runs))
    assert md.splitlines()[:2] == ["- first point", "- second point"]


def test_markup_at_the_start_of_any_paragraph_line_is_escaped() -> None:
    """In a paragraph, a line "# On and from 16 March" would open a heading and "+ 5 mm" a
    list: each is escaped, not only the paragraph's first line."""
    runs = words("# Note that the rates below apply to all loans", 50, 100)
    runs += words("# On and from 16 March the rates change for every", 50, 112)
    runs += words("+ 5 mm tolerance is allowed on each side of it.", 50, 124)
    (md,) = markdown(page(runs))
    assert md.splitlines() == [
        "\\# Note that the rates below apply to all loans",
        "\\# On and from 16 March the rates change for every",
        "\\+ 5 mm tolerance is allowed on each side of it.",
    ]


def test_table_from_aligned_cells() -> None:
    rows = [("Name", "Qty", "Price"), ("apple", "3", "1.20"), ("pear", "10", "0.50")]
    runs: list[TextRun] = []
    for i, cells in enumerate(rows):
        for c, cell in enumerate(cells):
            runs.append(run(cell, 60 + 150 * c, 200 + 14 * i))
    (md,) = markdown(page(runs))
    assert "| Name | Qty | Price |" in md
    assert "| apple | 3 | 1.20 |" in md
    assert "| pear | 10 | 0.50 |" in md


def test_a_total_row_set_apart_under_a_table_keeps_its_values_on_its_line() -> None:
    # The region's total, boxed apart three ems under the table, is no running footer (the
    # table stands above it): its label and values read as one line, not a paragraph each.
    rows = [("Name", "Qty", "Price"), ("apple", "3", "1.20"), ("pear", "10", "0.50")]
    rows += [("plum", "7", "0.90")]
    runs: list[TextRun] = []
    for i, cells in enumerate(rows):
        for c, cell in enumerate(cells):
            runs.append(run(cell, 60 + 150 * c, 200 + 14 * i))
    runs += [run("TOTAL", 30, 290), run("20", 210, 290), run("2.60", 360, 290)]
    runs += [run("52", 560, 770)]
    (md,) = markdown(page(runs))
    assert "| plum | 7 | 0.90 |" in md
    assert "TOTAL 20 2.60" in md.splitlines(), md


@pytest.mark.parametrize("label", ["EXAMPLE 1", "Age:", "†"])
def test_a_run_in_label_and_its_text_over_a_line_wrapped_under_it_are_one_line(
    label: str,
) -> None:
    # A standard's "EXAMPLE 1", set apart from its text by more than a word's space: the
    # next line starts back under the label and runs across the gap, as no column's can.
    runs = words(label, 40, 100)
    runs += words("For the malfunction of a high voltage system supplying power the", 110, 100)
    runs += words("operational situations combined are listed below in the order given.", 40, 112)
    (md,) = markdown(page(runs))
    assert (
        md.splitlines()[0]
        == f"{label} For the malfunction of a high voltage system supplying power the"
    )


@pytest.mark.parametrize(
    ("label", "below"),
    [
        # A column's short line beside the next column: the line under it stays in its column.
        ("Notes", "the column goes on"),
        # A formula's brace over its next line.
        ("{", "operational situations combined are listed below in the order"),
        # A left column's line too wide for a label.
        ("the left column runs on here", "operational situations combined are listed below"),
    ],
)
def test_a_piece_beside_words_stays_apart_without_a_line_wrapped_under_it(
    label: str, below: str
) -> None:
    runs = words(label, 40, 100)
    runs += words("the right column runs on with its own words", 250, 100)
    runs += words(below, 40, 112)
    (md,) = markdown(page(runs))
    assert not md.splitlines()[0].endswith("its own words"), md


def test_two_text_columns_are_not_a_table() -> None:
    (md,) = markdown(page(two_columns()))
    assert "|" not in md


def test_running_header_and_page_numbers_leave_the_body() -> None:
    pages = []
    for n in range(1, 6):
        runs = words("Journal of Examples", 200, 30)
        runs += words(f"body of page {n} with some words", 50, 200)
        runs += [run(str(n), 300, 770)]
        pages.append(page(runs, number=n))
    layouts = [layout_page(p) for p in pages]
    finish_document(layouts)
    for n, lay in enumerate(layouts, start=1):
        body = render_blocks(lay.blocks)
        assert "Journal of Examples" not in body
        assert f"body of page {n}" in body
        assert lay.header == ["Journal of Examples"]
        assert lay.footer == [str(n)]


def _titled_document(foot_size: float | None = None, odd_head: float = 9) -> list[PageLayout]:
    """Five pages laid out and finished: the first opens with the document's title at 24
    points, the others' running head repeats it at 9 (at ``odd_head`` on the last page;
    and, with ``foot_size``, their running foot too, at that size)."""
    pages = []
    for n in range(1, 6):
        runs = words("Shared Things Database", 150, 60, size=24) if n == 1 else []
        if n > 1:
            runs += words("Shared Things Database", 420, 40, size=9 if n < 5 else odd_head)
            if foot_size is not None:
                runs += words("Shared Things Database", 50, 770, size=foot_size)
        runs += [
            r for i in range(6) for r in words(f"page {n} line {i} of the body", 50, 120 + 12 * i)
        ]
        runs += [run(str(n), 300, 760)]
        pages.append(page(runs, number=n))
    layouts = [layout_page(p) for p in pages]
    finish_document(layouts)
    return layouts


def test_a_title_the_running_heads_repeat_stays_on_its_page() -> None:
    # The title over the first page, set far larger than the running head that repeats it
    # on every other page, is that page's title, not its running head.
    layouts = _titled_document()
    assert render_blocks(layouts[0].blocks).startswith("# Shared Things Database")
    assert layouts[0].header == []
    for lay in layouts[1:]:
        assert lay.header == ["Shared Things Database"]
        assert "Shared Things" not in render_blocks(lay.blocks)


@pytest.mark.parametrize(("foot_size", "odd_head"), [(6, 9), (None, 7)])
def test_a_running_head_set_larger_than_its_running_foot_stays_furniture(
    foot_size: float | None, odd_head: float
) -> None:
    # The same text at the foot in smaller type, or one page's head set smaller: a head is
    # measured against the size the head has on most pages, not the smallest it has anywhere.
    layouts = _titled_document(foot_size=foot_size, odd_head=odd_head)
    for lay in layouts[1:]:
        assert "Shared Things" not in render_blocks(lay.blocks), render_blocks(lay.blocks)
        assert lay.header == ["Shared Things Database"]


def _book(
    size: float = 7.5, bold: bool = False, y: float = 770, odd: str = "CHAPTER {chapter} {n}"
) -> list[PageLayout]:
    """Twelve pages of a book laid out and finished: the even pages' foot "N A BOOK" at 7.5
    points, the odd pages' foot its chapter and page number (``size``, ``bold``, at ``y``;
    ``odd``, on page 5): a chapter's running foot repeats only in its chapter."""
    pages = []
    for n in range(1, 13):
        body = [f"text of page {n} line {i} of the body" for i in range(6)]
        runs = [r for i, t in enumerate(body) for r in words(t, 50, 100 + 12 * i)]
        if n % 2 == 0:
            runs += words(f"{n} A BOOK", 50, 770, size=7.5)
        else:
            chapter = "ONE" if n < 5 else "TWO" if n < 9 else "THREE"
            text = odd if n == 5 else "CHAPTER {chapter} {n}"
            runs += words(text.format(chapter=chapter, n=n), 400, y, size, bold)
        pages.append(page(runs, number=n))
    layouts = [layout_page(p) for p in pages]
    finish_document(layouts)
    return layouts


def test_a_chapters_running_foot_set_like_the_books_leaves_the_body() -> None:
    layouts = _book()
    for lay in layouts:
        body = render_blocks(lay.blocks)
        assert "CHAPTER" not in body and "A BOOK" not in body
    assert layouts[4].footer == ["CHAPTER TWO 5"]


def test_a_numbered_line_alone_on_each_page_stays_their_content() -> None:
    # "slide 1", "slide 2": the same line at the top of pages holding nothing else is those
    # pages' content, not a running line (nor does it mark where running lines stand).
    layouts = [layout_page(page(words(f"slide title {n}", 72, 60), number=n)) for n in (1, 2)]
    finish_document(layouts)
    assert [render_blocks(lay.blocks) for lay in layouts] == ["slide title 1", "slide title 2"]


@pytest.mark.parametrize("size, bold, y", [(9.0, False, 770), (7.5, True, 770), (7.5, False, 750)])
def test_a_numbered_line_at_the_foot_set_or_placed_otherwise_stays(
    size: float, bold: bool, y: float
) -> None:
    # Larger, bolder or on another line than the running feet: a line of the page (a
    # caption's, a note's) that ends in a number.
    layouts = _book(size, bold, y)
    assert "CHAPTER TWO" in render_blocks(layouts[4].blocks)


@pytest.mark.parametrize("word", ["mid", "civil", "mix"])
def test_a_line_in_the_running_feet_place_ending_in_a_word_stays(word: str) -> None:
    # Letters that read as a roman numeral only loosely ("mid", "civil") are no page number.
    layouts = _book(odd="the valley was settled in the " + word)
    assert f"settled in the {word}" in render_blocks(layouts[4].blocks)


@pytest.mark.parametrize("numbers", [["①", "②", "③", "④", "⑤"], ["¹", "²", "³", "⁴", "⁵"]])
def test_digits_int_cannot_read_do_not_break_page_number_detection(numbers: list[str]) -> None:
    # "⑤".isdigit() is true, but int("⑤") fails: a fuzzed file stopped the whole document.
    pages = []
    for n, mark in enumerate(numbers, start=1):
        runs = [*words(f"body of page {n} with some words", 50, 200), run(mark, 300, 770)]
        pages.append(page(runs, number=n))
    for n, md in enumerate(markdown(*pages), start=1):
        assert f"body of page {n}" in md


def test_hyphenation_is_joined_but_real_hyphens_stay() -> None:
    runs = words("the infor-", 50, 100) + words("mation was state-of-the-", 50, 112)
    runs += words("art and n-", 50, 124) + words("tridecanal appears", 50, 136)
    (md,) = markdown(page(runs))
    text = md.replace("\n", " ")
    assert "information" in text
    assert "state-of-the-art" in text
    assert "n-tridecanal" in text


def test_soft_hyphens_drawn_on_the_page_are_hyphens() -> None:
    # A producer that maps its hyphen glyph to U+00AD (XeTeX with STIX): at a line's end a
    # break, joined without it when the word goes on in lower case, and kept before a
    # capital; between letters the hyphen it shows. A soft hyphen alone is nothing.
    runs = words("Florence: SISMEL \u2013 Edi\u00ad", 50, 100)
    runs += words("zioni del Galluzzo, on the pseudo\u00ad", 50, 112)
    runs += words("Avicenne of the Arabo\u00adIslamic world \u00ad and", 50, 124)
    runs += words("so on until it ends here.", 50, 136)
    runs += words("A paragraph of its own that breaks\u00ad", 50, 300)  # nothing to join
    (md,) = markdown(page(runs))
    text = md.replace("\n", " ")
    assert "that breaks-" in text
    assert "Edizioni del Galluzzo" in text
    assert "pseudo-Avicenne" in text
    assert "Arabo-Islamic world and" in text
    assert "\u00ad" not in md


def test_fullwidth_punctuation_stays_as_drawn_and_presentation_forms_are_read() -> None:
    # Chinese and Japanese text set their punctuation fullwidth ("，" "（" "："), as the text
    # a reader copies has it (NFKC made them ASCII); halfwidth katakana, an Arabic letter's
    # contextual form and a ligature are ways of drawing a letter, read as that letter.
    runs = words("稻種經選種後，任選下表（一種）藥劑：２０２４年", 50, 100)
    halfwidth, contextual = "\uff76\uff80\uff76\uff85", "\ufe8d\ufedf\ufecb\ufeae\ufe91\ufef4\ufe94"
    runs += words(f"{halfwidth} {contextual} \ufb01le", 50, 112)
    (md,) = markdown(page(runs))
    assert "稻種經選種後，任選下表（一種）藥劑：２０２４年" in md
    assert "カタカナ" in md and "ﺍﻟﻌﺮﺑﻴﺔ" not in md and "file" in md
    assert "العربية" in md or "ةيبرعلا" in md


@pytest.mark.parametrize(("opening", "goes_on"), [("be", True), ("Be", False)])
def test_a_sentence_broken_at_a_columns_foot_goes_on_at_the_next_columns_top(
    opening: str, goes_on: bool
) -> None:
    # Two columns: the left one's last line ends mid-sentence at the foot, the right one
    # opens in lower case at the top. One paragraph (a soft line break between them), each
    # still its own block; opening in capitals, the right column starts a paragraph.
    left = [f"left column line {i} of running text set in its" for i in range(30)]
    left[-1] = "individual functions. Since then, the intent can"
    right = [f"{opening} clearly marked by returning either one of two"]
    right += [f"right column line {i} of running text set in its" for i in range(29)]
    runs = [w for i, t in enumerate(left) for w in words(t, 50, 100 + 12 * i)]
    runs += [w for i, t in enumerate(right) for w in words(t, 320, 100 + 12 * i)]
    (md,) = markdown(page(runs))
    joined = f"the intent can\n{opening} clearly marked"
    assert (joined in md) is goes_on, md[-400:]
    assert (f"the intent can\n\n{opening} clearly marked" in md) is not goes_on


def test_short_pieces_in_two_columns_are_no_sentence_going_on() -> None:
    # Lines narrower than running text's measure (a form's fields, a list of names): the
    # left column's last line ends without a stop and the right one opens in lower case,
    # but neither is running text.
    runs = [w for i in range(8) for w in words(f"the form field {i} goes on", 50, 100 + 12 * i)]
    runs += [w for i in range(8) for w in words(f"and other fields {i} so on", 320, 100 + 12 * i)]
    (md,) = markdown(page(runs))
    assert "field 7 goes on\n\nand other fields 0" in md


def test_paragraph_split_at_short_line_then_indent() -> None:
    runs = words("first paragraph line one goes right to the end", 50, 100)
    runs += words("ends here.", 50, 112)
    runs += words("Second paragraph starts indented and runs on", 65, 124)
    runs += words("to the next line too.", 50, 136)
    (md,) = markdown(page(runs))
    assert "ends here.\n\nSecond paragraph" in md


def test_superscript_stays_on_its_line_next_to_another_column() -> None:
    runs = words("energy of 5 km s", 50, 100)
    sup = run("-1", 122, 97, size=7)  # right after "s", raised
    runs.append(sup)
    runs += words("other column text at this height", 320, 99)
    lines = build_lines(runs)
    texts = [ln.text for ln in lines]
    assert "energy of 5 km s-1" in texts
    assert "other column text at this height" in texts


SYMBOLS = [
    ("∂M", "Rand der Menge M"),
    ("P(M)", "Potenzmenge von M"),
    ("A × B", "Kreuzprodukt"),
    ("M", "Abschluss von M"),
    ("A ∪ B", "Vereinigung"),
]


def _symbol_list(x_label: float, x_text: float, y0: float) -> list[TextRun]:
    runs: list[TextRun] = []
    for i, (label, text) in enumerate(SYMBOLS):
        runs.append(run(label, x_label, y0 + 14 * i))
        runs += words(text, x_text, y0 + 14 * i)
    return runs


def test_label_list_keeps_each_label_with_its_description() -> None:
    # A symbol list in the left column (labels ragged, descriptions aligned 2.5 em to the
    # right of the widest label), prose in the right column a narrow gutter away.
    runs = _symbol_list(50, 90, 100)
    for i in range(len(SYMBOLS)):
        runs += words("prose of the right column goes here", 240, 100 + 14 * i)
    texts = [ln.text for ln in build_lines(runs)]
    for label, text in SYMBOLS:
        assert f"{label} {text}" in texts
    assert texts.count("prose of the right column goes here") == len(SYMBOLS)


def test_a_figure_alone_in_the_gap_is_no_label_of_the_column() -> None:
    # A contents page: entry numbers in a column before their titles, and a page number set
    # on a line of its own (its title ran too long), in the gap between the two columns but
    # sharing an edge with neither. It has no title beside it, yet the numbers are still a
    # column: each stays with its title.
    entries = ["CLIMAT ........ 175", "TOPOGRAPHIE ... 176", "EAUX .......... 178"]
    runs = words("3 IMPACTS SUR LE MILIEU PHYSIQUE ...... 175", 40, 80)
    for i, entry in enumerate(entries):
        runs.append(run(f"3.{i + 1}", 50, 100 + 20 * i))
        runs += words(f"IMPACTS SUR LE {entry}", 85, 100 + 20 * i)
    runs += words("4 IMPACTS ET MESURES SUR LE MILIEU NATUREL ....", 40, 160)
    runs.append(run("192", 62, 172))
    runs.append(run("4.1", 50, 192))
    runs += words("MESURES D'EVITEMENT ........ 192", 85, 192)
    (md,) = markdown(page(runs))
    for i, entry in enumerate(entries):
        assert f"3.{i + 1} IMPACTS SUR LE {entry.split()[0]}" in md
    assert "4.1 MESURES" in md


def test_label_columns_of_a_table_stay_cells() -> None:
    # The same shape with a third close column is a table: its cells stay apart.
    runs = _symbol_list(50, 90, 100)
    for i in range(len(SYMBOLS)):
        runs.append(run(f"{i}.5", 200, 100 + 14 * i))
    texts = [ln.text for ln in build_lines(runs)]
    assert "Rand der Menge M" in texts
    assert "∂M" in texts


def test_labels_aligned_on_both_edges_are_a_table_column() -> None:
    # Labels of one width (a right edge shared by every row) are a table's first column.
    runs: list[TextRun] = []
    for i, (_, text) in enumerate(SYMBOLS):
        runs.append(run(f"k{i}", 50, 100 + 14 * i))
        runs += words(text, 80, 100 + 14 * i)
    texts = [ln.text for ln in build_lines(runs)]
    assert "k0" in texts and "Rand der Menge M" in texts


def test_sub_caption_label_touching_the_neighbour_caption_stays_apart() -> None:
    # "(a)"'s caption and "(b) A visualization" side by side; "(b)" hangs into the gutter
    # and touches the end of the first caption's line.
    runs: list[TextRun] = []
    left = ["Example of one unit.", "with its weights here", "and the function", "too", "a", "b"]
    right = ["A visualization of", "a simple network", "with five inputs", "is blue.", "c", "d"]
    for i, (a, b) in enumerate(zip(left, right, strict=True)):
        runs += words(a, 50, 100 + 10 * i)
        runs += words(b, 162, 100 + 10 * i)
    runs.append(run("(b)", 143, 100))  # "unit." ends at 144; the gutter is 149-162
    texts = [ln.text for ln in build_lines(runs)]
    assert "Example of one unit." in texts
    assert "(b) A visualization of" in texts


def test_in_drawing_order_a_block_splits_where_other_text_was_drawn_between() -> None:
    # A matrix row (drawn 1st), an "=" to its right (drawn 2nd), the sentence just under the
    # row (drawn 3rd): the row and the sentence form one block by geometry, but the page
    # drew the "=" between them, and drawing order is kept.
    runs = [dataclasses.replace(r, seq=1) for r in words("one two three", 50, 100)] + [
        dataclasses.replace(run("= result", 300, 100), seq=2)
    ]
    runs += [dataclasses.replace(r, seq=3) for r in words("so the sentence follows", 50, 112)]
    (md,) = markdown(page(runs))
    assert md.index("one two three") < md.index("= result") < md.index("so the sentence")


def _turned(runs: list[TextRun], k: int, width: float = 612, height: float = 792):
    """``runs`` laid out upright on a ``width`` x ``height`` frame, drawn turned ``k``
    quarters clockwise on the displayed page (whose size is then swapped for odd ``k``)."""
    page_w, page_h = (height, width) if k % 2 else (width, height)
    out = []
    for r in runs:
        x0, y0, x1, y1 = from_frame((r.x0, r.y0, r.x1, r.y1), k, page_w, page_h)
        out.append(dataclasses.replace(r, x0=x0, y0=y0, x1=x1, y1=y1, direction=(0, 3, 4, 5)[k]))
    return out, page_w, page_h


@pytest.mark.parametrize("k", [1, 2, 3])
def test_a_page_of_turned_text_reads_as_if_upright(k: int) -> None:
    upright = two_columns()
    (expected,) = markdown(page(upright))
    runs, w, h = _turned(upright, k)
    (md,) = markdown(page(runs, width=w, height=h))
    assert md == expected


def test_turned_text_on_an_upright_page_keeps_its_words_together() -> None:
    # A column header turned a quarter counter-clockwise, drawn one glyph at a time, beside
    # upright text: one line of its own, its letters in reading order.
    runs = words("upright body text of the page", 50, 100)
    glyphs = [run(ch, 300 + 5 * i, 400) for i, ch in enumerate("Turned header")]
    turned, _, _ = _turned(glyphs, 3, 792, 612)
    (md,) = markdown(page(runs + turned))
    assert "upright body text of the page" in md
    assert "Turned header" in md


def _slanted(
    lines: list[str], x: float, y: float, degrees: float, *, by_glyph: bool | None = True
) -> list[TextRun]:
    """``lines`` set at ``degrees`` (counter-clockwise, on the page as seen), 12 points apart,
    drawn a glyph at a time (a word space shown as a blank string after its word: the run
    before it is ``space_after``), a word at a time (``False``) or a line at a time
    (``None``); each run's box upright around its turned glyphs, as the engine bounds them."""
    import math

    size, advance = 10.0, CHAR_W
    ux, uy = math.cos(math.radians(degrees)), -math.sin(math.radians(degrees))  # y down
    nx, ny = -uy, ux  # the next line, under this one
    out: list[TextRun] = []
    for i, text in enumerate(lines):
        ox, oy = x + 12 * i * nx, y + 12 * i * ny
        pieces = [(k, ch) for k, ch in enumerate(text)] if by_glyph else []
        if by_glyph is None:
            pieces = [(0, text)]
        elif not by_glyph:
            k = 0
            for word in text.split(" "):
                pieces.append((k, word))
                k += len(word) + 1
        for k, piece in pieces:
            if piece == " ":
                out[-1] = dataclasses.replace(out[-1], space_after=True)
                continue
            sx, sy = ox + k * advance * ux, oy + k * advance * uy
            ex, ey = sx + len(piece) * advance * ux, sy + len(piece) * advance * uy
            corners = [
                (px + h * nx, py + h * ny) for px, py in ((sx, sy), (ex, ey)) for h in (-8, 2)
            ]
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            out.append(
                TextRun(
                    piece, min(xs), min(ys), max(xs), max(ys), size, "F", direction=2, seq=len(out)
                )
            )
    return out


def test_slanted_text_drawn_a_glyph_at_a_time_reads_in_lines() -> None:
    # A leaflet's panel set at 30 degrees, each glyph a run of its own: one paragraph of three
    # lines in order, then the next paragraph (further down), not a letter a paragraph.
    first = ["Our support is given", "by a trained team of", "caseworkers each day."]
    runs = _slanted(first, 100, 300, 30) + _slanted(["The second part"], 80, 400, 30)
    runs = [dataclasses.replace(r, seq=i) for i, r in enumerate(runs)]  # drawn in this order
    layout = layout_page(page(runs))
    assert [b.text for b in layout.blocks] == [" ".join(first), "The second part"]
    assert [ln.text for ln in layout.blocks[0].lines] == first


def test_slanted_labels_set_one_under_another_are_lines_of_their_own() -> None:
    # A chart's labels along a slanted curve, each one run, the second 7 points under the
    # first (drawn right after it), a third drawn later near the second's end: three lines.
    first = _slanted(["Torque = 100%"], 100, 300, 40, by_glyph=None)
    second = _slanted(["b.m.p.e = 100%"], 104, 307, 40, by_glyph=None)
    upright = words("an upright caption drawn between them", 300, 600)
    third = _slanted(["curve"], 104 + 70 * 0.77, 307 - 70 * 0.64, 40, by_glyph=None)
    runs = [dataclasses.replace(r, seq=i) for i, r in enumerate(first + second + upright + third)]
    texts = [ln.text for b in layout_page(page(runs)).blocks for ln in b.lines]
    assert "Torque = 100%" in texts and "b.m.p.e = 100%" in texts and "curve" in texts, texts


def test_slanted_labels_drawn_a_word_at_a_time_keep_their_spaces() -> None:
    runs = _slanted(["Torque = 100% at full load"], 100, 300, 20, by_glyph=False)
    layout = layout_page(page(runs))
    assert [b.text for b in layout.blocks] == ["Torque = 100% at full load"]


@pytest.mark.parametrize("rotate", [90, 180, 270])
def test_a_rotated_page_drawn_word_by_word_reads_in_lines(rotate: int) -> None:
    # /Rotate turns everything drawn upright in user space: the text comes out turned, one
    # run per word; it still reads as two lines, in order.
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    body = [b"BT /F1 12 Tf 72 720 Td"]
    for line in ("The first line of words", "and the second line"):
        for word in line.split():
            body.append(f"({word} ) Tj".encode())
        body.append(b"ET BT /F1 12 Tf 72 704 Td")
    body.append(b"ET")
    b.add_page(b"\n".join(body), {"Font": {"F1": font}}, rotate=rotate)
    doc = pdfthin.open(b.build())
    assert doc.pages[0].markdown.splitlines() == ["The first line of words", "and the second line"]


@pytest.mark.parametrize("k", [1, 3])
def test_a_turned_stamp_at_a_side_of_every_page_leaves_the_body(k: int) -> None:
    # A publisher's notice set sideways along the right (k=1) or left (k=3) edge of every
    # page: running furniture like a footer, though it stands at neither the top nor the
    # bottom. It goes with the footer.
    stamp = "Downloaded from example.org on 1 May 2020"
    glyphs = [run(ch, 150 + 5 * i, 20) for i, ch in enumerate(stamp)]
    turned, _, _ = _turned(glyphs, k, 792, 612)
    body = [w for i in range(8) for w in words(f"line {i} of the body text here", 80, 200 + 12 * i)]
    pages = [
        page(words(f"body of page {n} with some words", 80, 180) + body + turned, number=n)
        for n in range(1, 6)
    ]
    layouts = [layout_page(p) for p in pages]
    finish_document(layouts)
    for n, lay in enumerate(layouts, start=1):
        body = render_blocks(lay.blocks)
        assert stamp not in body and f"body of page {n}" in body
        assert lay.footer == [stamp]


def test_upright_words_and_numbers_in_a_side_margin_stay_in_the_body() -> None:
    # A form's answers in the right margin of every page and a chart's ticks in the left one
    # repeat as a running head would, but stand upright: they are the page's content.
    pages = []
    for n in range(1, 6):
        runs = words(f"question {n} of the form asks something", 120, 200) + words("Yes", 560, 200)
        runs += [run(str(t), 30, 300 + 20 * t) for t in (0, 2, 4, 6)]
        pages.append(page(runs, number=n))
    for md in markdown(*pages):
        assert "Yes" in md and all(str(t) in md.split() for t in (0, 2, 4, 6))


BODY = [f"line {i} of the body text that runs on and on" for i in range(20)]


def _one_page(edge: list[TextRun], top: float = 120.0, bottom: float = 348.0) -> PageLayout:
    """A page of its own (nothing repeats): lines of body text at 10 pt, the first at
    ``top``, the last at ``bottom``, and ``edge``."""
    ys = [top + (bottom - top) * i / (len(BODY) - 1) for i in range(len(BODY))]
    runs = [w for text, y in zip(BODY, ys, strict=True) for w in words(text, 72, y)] + edge
    (lay,) = [layout_page(page(runs))]
    finish_document([lay])
    return lay


def test_a_running_foot_with_its_page_number_apart_leaves_a_page_of_its_own() -> None:
    # A browser's footer: the address, then "1/34" at the right margin, 8 pt, read as one
    # line below the body.
    foot = [*words("https://example.org/wiki/Page", 40, 770, 8.0), run("1/34", 540, 770, 8.0)]
    lay = _one_page(foot, bottom=750)
    assert lay.footer == ["https://example.org/wiki/Page 1/34"]
    body = render_blocks(lay.blocks)
    assert "example.org" not in body and "1/34" not in body and "line 19" in body
    # A running head: the title, then the page number at the right margin.
    head = [*words("The Siege of Examples", 200, 40, 8.0), run("49", 540, 40, 8.0)]
    assert _one_page(head, top=60).header == ["The Siege of Examples 49"]


def test_a_line_beside_a_number_on_its_own_needs_the_documents_numbering() -> None:
    # Far from the body, the number is a block of its own. A document of one page (a page
    # taken out of its document) has no numbering to agree with: the number found on its
    # own counts, and the line beside it leaves with it; a footnote beside it stays.
    foot = [*words("https://example.org/wiki/Page", 40, 770, 8.0), run("34", 540, 770, 8.0)]
    lay = _one_page(foot, bottom=348)
    assert lay.footer == ["https://example.org/wiki/Page", "34"]
    assert "example.org" not in render_blocks(lay.blocks)
    note = [*words("1 See the appendix for the proof.", 40, 770, 8.0), run("34", 540, 770, 8.0)]
    lay = _one_page(note, bottom=348)
    assert lay.footer == ["34"] and "See the appendix" in render_blocks(lay.blocks)
    # Over pages whose numbers disagree (a slide's or a form's numbers), only they leave.
    pages = []
    for n, (number, fruit) in enumerate([("7", "apples"), ("3", "pears"), ("12", "plums")], 1):
        runs = [*words(f"Notes on {fruit}", 40, 770, 8.0), run(number, 540, 770, 8.0)]
        runs += [w for i in range(20) for w in words(BODY[i], 72, 120 + 12 * i)]
        pages.append(page(runs, number=n))
    layouts = [layout_page(p) for p in pages]
    finish_document(layouts)
    for lay, fruit in zip(layouts, ["apples", "pears", "plums"], strict=True):
        assert f"Notes on {fruit}" in render_blocks(lay.blocks)
    # Over pages numbered alike, the line beside it leaves too (a chapter's running head,
    # changing from chapter to chapter, repeats too little to be found by repeats); a
    # footnote beside it (its mark, then its text) stays.
    titles = ["SPACES", "MANIFOLDS", "COVERINGS", "GEOMETRY", "CURVES", "SURFACES"]
    pages = []
    for n, title in enumerate(titles, start=1):
        runs = [*words(f"{n}.1. {title}", 72, 40, 8.0), run(str(n + 10), 540, 40, 8.0)]
        runs += [w for i in range(20) for w in words(BODY[i], 72, 120 + 12 * i)]
        runs += words(f"{n} See {title.lower()} in the appendix.", 72, 770, 8.0)
        runs += [run(str(n + 10), 540, 770, 8.0)]
        pages.append(page(runs, number=n))
    layouts = [layout_page(p) for p in pages]
    finish_document(layouts)
    for n, (title, lay) in enumerate(zip(titles, layouts, strict=True), start=1):
        assert lay.header == [f"{n}.1. {title}", str(n + 10)]
        assert f"See {title.lower()} in the appendix" in render_blocks(lay.blocks)


def test_a_running_line_with_its_page_number_after_a_separator_leaves_a_page_of_its_own() -> None:
    # "Annual Report 2023 | 17" set as one string: the number a bar from the words.
    lay = _one_page([run("Company Inc. | Annual Report 2023 | 17", 72, 770, 8.0)], bottom=750)
    assert lay.footer == ["Company Inc. | Annual Report 2023 | 17"]
    # A bar inside a line of text at the body's foot, with no number after it, stays.
    lay = _one_page([run("Company Inc. | Annual Report 2023", 72, 770, 8.0)], bottom=750)
    assert lay.footer == [] and "Annual Report 2023" in render_blocks(lay.blocks)


def test_a_journals_imprint_leaves_a_page_of_its_own() -> None:
    # An article's first page: the journal's citation over the text, the DOI and the
    # copyright under it, a blank line or more away, set small; nothing repeats.
    head = [run("Physics Letters B 790 (2019) 12-20", 200, 40, 8.0)]
    foot = [
        run("https://doi.org/10.1016/j.physletb.2019.01.002", 72, 762, 7.0),
        run("0370-2693/(c) 2019 The Authors. Published by Elsevier B.V.", 72, 771, 7.0),
    ]
    lay = _one_page(head + foot, top=60, bottom=740)
    assert lay.header == ["Physics Letters B 790 (2019) 12-20"]
    assert len(lay.footer) == 1 and "doi.org" in lay.footer[0]
    body = render_blocks(lay.blocks)
    assert "doi.org" not in body and "Physics Letters" not in body and "line 19" in body


@pytest.mark.parametrize(
    ("foot", "bottom"),
    [
        # A reference at the column's foot, at the body's leading: the list's last entry.
        ("Smith J. Results. Phys Lett B. doi:10.1016/j.plb.2019.01.002", 750),
        # Footnotes, set apart from the text as an imprint is: their mark first.
        ("1 Data at doi:10.5281/zenodo.12345 and https://example.org", 730),
        ("[3] Data at doi:10.5281/zenodo.12345 and https://example.org", 730),
    ],
)
def test_an_imprint_like_line_that_is_text_stays(foot: str, bottom: float) -> None:
    lay = _one_page([run(foot, 72, 762, 8.0)], bottom=bottom)
    assert lay.footer == [] and foot.split()[1] in render_blocks(lay.blocks)


def test_a_journals_citation_stands_at_the_top_only() -> None:
    # At the foot, "Nature 567 (2019) 12-20" is a reference or a note as often.
    lay = _one_page([run("Nature 567 (2019) 12-20", 72, 770, 8.0)], bottom=750)
    assert lay.footer == [] and "Nature 567" in render_blocks(lay.blocks)


@pytest.mark.parametrize(
    ("stamp", "leaves"),
    [
        ("arXiv:1601.03642v1 [cs.CV] 12 Jan 2016", True),
        ("arXiv:hep-th/9901001v2 5 Feb 1999", True),
        # Any other line set sideways at a side, on one page alone: a map's title, a
        # vertical heading; nothing tells it from the page's text.
        ("Population density by county, 2010", False),
    ],
)
def test_an_arxiv_stamp_leaves_its_page_alone(stamp: str, leaves: bool) -> None:
    glyphs = [run(ch, 150 + 5 * i, 20, 14.0) for i, ch in enumerate(stamp)]
    turned, _, _ = _turned(glyphs, 3, 792, 612)
    lay = _one_page(turned, bottom=700)
    body = render_blocks(lay.blocks)
    assert (stamp not in body) is leaves and (lay.footer == [stamp]) is leaves
    assert "line 19" in body


def test_a_running_head_drawn_a_glyph_at_a_time_is_read_by_its_words() -> None:
    title = [run(ch, 200 + 4 * i, 40, 8.0) for i, ch in enumerate("Examples")]
    number = [run(ch, 540 + 4 * i, 40, 8.0) for i, ch in enumerate("1/34")]
    lay = _one_page(title + number, top=52)
    assert " ".join(lay.header) == "Examples 1/34"


@pytest.mark.parametrize(
    "edge",
    [
        # Set at the body's size: a line number beside a line of text, a chart's ticks.
        [*words("The Siege of Examples", 200, 770), run("49", 540, 770)],
        # The number a space from its words: a heading's, a footnote's mark, a caption's.
        words("Chapter 3", 200, 770, 8.0),
        words("1 http://www.example.org/", 72, 770, 8.0),
        # No number: a line of words only.
        [*words("The Siege of", 200, 770, 8.0), run("Examples", 540, 770, 8.0)],
    ],
)
@pytest.mark.parametrize("bottom", [348.0, 750.0])
def test_an_edge_line_without_the_marks_of_a_running_foot_stays(
    edge: list[TextRun], bottom: float
) -> None:
    lay = _one_page(edge, bottom=bottom)
    body = render_blocks(lay.blocks).split()
    assert all(r.text in body for r in edge if not r.text.isdecimal())


def test_a_small_line_with_a_number_apart_inside_the_body_stays() -> None:
    # Body text above it and below it: not the page's edge.
    line = [*words("Table of examples", 200, 40, 8.0), run("12", 540, 40, 8.0)]
    lay = _one_page(line + words("a line of text above it", 72, 24), top=56)
    assert lay.header == [] and "Table of examples 12" in render_blocks(lay.blocks)


@pytest.mark.parametrize(
    ("look", "above", "out"),
    [
        ((8.0, False), False, True),  # the footer's look: the print's header
        ((8.0, True), False, False),  # bold: another look
        ((9.0, False), False, False),  # another size
        ((8.0, False), True, False),  # text above it: not the page's outermost line
    ],
)
def test_the_running_foots_partner_in_its_look_leaves_with_it(
    look: tuple[float, bool], above: bool, out: bool
) -> None:
    # A browser's print: the footer carries the address and "1/34" (found by its number);
    # the header, the date and the page's title in the same small type, carries no number.
    size, bold = look
    head = words("10/1/24, 3:42 PM", 24, 30, size, bold) + words("Page - Wiki", 290, 30, size, bold)
    foot = [*words("https://example.org/wiki/Page", 40, 770, 8.0), run("1/34", 540, 770, 8.0)]
    extra = words("a line of text above it", 72, 16) if above else []
    lay = _one_page(head + foot + extra, top=60, bottom=750)
    assert lay.footer == ["https://example.org/wiki/Page 1/34"]
    assert lay.header == (["10/1/24, 3:42 PM", "Page - Wiki"] if out else [])
    body = render_blocks(lay.blocks)
    assert ("3:42 PM" in body) is not out and ("Page - Wiki" in body) is not out


def test_a_line_at_the_bottom_in_the_running_heads_look_stays() -> None:
    # A footnote (or an author's address) set in the running head's small type: at the
    # bottom, with nothing below it, but a page's text, not its furniture.
    head = [*words("The Siege of Examples", 200, 40, 8.0), run("9", 330, 40, 8.0)]
    note = words("Corresponding author: someone at example.org", 72, 760, 8.0)
    lay = _one_page(head + note, top=52)
    assert lay.header == ["The Siege of Examples 9"] and lay.footer == []
    assert "Corresponding author" in render_blocks(lay.blocks)


def test_a_line_on_the_running_foots_baseline_in_its_look_leaves_with_it() -> None:
    # A report's foot: its title at the left, "NNMB 3" at the right (found by its number).
    foot = [
        *words("Rural Survey 2011-12", 40, 770, 8.0),
        *words("NNMB", 480, 770, 8.0),
        run("3", 524, 770, 8.0),
    ]
    lay = _one_page(foot, bottom=752)
    assert lay.footer == ["Rural Survey 2011-12", "NNMB 3"]
    assert "Survey" not in render_blocks(lay.blocks)


def test_a_line_in_a_small_look_stays_when_no_running_line_was_found() -> None:
    # The same header over a footer without its page number: nothing found, nothing follows.
    head = words("10/1/24, 3:42 PM", 24, 30, 8.0) + words("Page - Wiki", 290, 30, 8.0)
    foot = words("https://example.org/wiki/Page", 40, 770, 8.0)
    lay = _one_page(head + foot, top=60, bottom=750)
    assert lay.header == [] and lay.footer == []
    assert "3:42 PM" in render_blocks(lay.blocks)


@pytest.mark.parametrize(
    ("y", "number", "out"),
    [
        (104.0, "9", True),  # 13 % of the page's height from the top, past BAND (12 %)
        (150.0, "9", True),  # 19 %: still within NUMBER_BAND (20 %)
        (170.0, "9", False),  # 21 %: further in than any running head is looked for
        (104.0, "", False),  # no page number: a line of words, like any other
    ],
)
def test_a_running_head_past_the_band_is_told_by_its_page_number(
    y: float, number: str, out: bool
) -> None:
    # Springer's LNCS running title on letter paper: the title, its page number 3.5 ems
    # after it, 13 % of the page's height from the top. A page of its own: nothing repeats.
    title = "Optimized Examples for Recognition"
    head = words(title, 200, y, 8.0)
    head += [run(number, head[-1].x1 + 3.5 * 8.0, y, 8.0)] if number else []
    lay = _one_page(head, top=y + 22)
    text = f"{title} {number}".strip()
    assert lay.header == ([text] if out else [])
    assert (title in render_blocks(lay.blocks)) is not out
    assert "line 0 of the body" in render_blocks(lay.blocks)


def test_a_small_line_past_the_band_with_text_above_it_stays() -> None:
    # The outermost line only: a table's caption with a number apart, under a line of text.
    line = [*words("Table of examples", 200, 120, 8.0), run("12", 540, 120, 8.0)]
    lay = _one_page(line + words("a line of text above it", 72, 100), top=140)
    assert lay.header == [] and "Table of examples 12" in render_blocks(lay.blocks)


@pytest.mark.parametrize(
    ("numbers", "out"),
    [
        ([1, 2, 3, 4], True),  # the document's numbering: page numbers
        ([7, 0, 3, 12], False),  # figures that agree on nothing: a chart's, a table's
        ([1], False),  # a page of its own: nothing confirms it
    ],
)
def test_a_page_number_further_in_than_the_band_needs_the_documents_numbering(
    numbers: list[int], out: bool
) -> None:
    # LaTeX's default article sets its page number 15 % of the page's height from the
    # bottom, past the furniture band, below the body.
    pages = []
    for n, number in enumerate(numbers, start=1):
        runs = [w for i in range(20) for w in words(BODY[i], 72, 120 + 12 * i)]
        runs.append(run(str(number), 300, 0.85 * 792))
        pages.append(page(runs, number=n))
    layouts = [layout_page(p) for p in pages]
    finish_document(layouts)
    for number, lay in zip(numbers, layouts, strict=True):
        assert lay.footer == ([str(number)] if out else [])
        assert (str(number) in render_blocks(lay.blocks).split("\n\n")) is not out


@pytest.mark.parametrize(
    ("feet", "shift", "out"),
    [
        (True, 0, True),  # the chapters' first pages number their feet: the numbering agrees
        (True, 5, False),  # the head's number is not the page's: a line of the text
        (False, 0, False),  # nothing confirms the number: a line at the body's size stays
    ],
)
def test_a_body_size_running_head_is_told_by_the_documents_numbering(
    feet: bool, shift: int, out: bool
) -> None:
    # A LaTeX book's running head: "CHAPTER 1. INTRODUCTION" and the page number far right,
    # at the body's size, 13 % of the page's height from the top (past BAND). The pages that
    # open a chapter carry their number at the foot instead.
    pages = []
    for n in range(1, 7):
        runs = [w for i in range(20) for w in words(BODY[i], 72, 130 + 12 * i)]
        if n in (1, 4):
            runs += [run(str(n), 300, 740)] if feet else []
        else:
            runs += words("CHAPTER 1. INTRODUCTION", 72, 104)
            runs.append(run(str(n + shift), 470, 104))
        pages.append(page(runs, number=n))
    layouts = [layout_page(p) for p in pages]
    finish_document(layouts)
    for n, lay in enumerate(layouts, start=1):
        if n in (1, 4):
            continue
        head = f"CHAPTER 1. INTRODUCTION {n + shift}"
        assert lay.header == ([head] if out else [])
        assert ("CHAPTER 1. INTRODUCTION" in render_blocks(lay.blocks)) is not out


def _block(text: str, x0: float, y0: float, x1: float, size: float = 10.0) -> Block:
    line = Line(text, x0, y0, x1, y0 + size, size)
    return Block([line], x0, y0, x1, y0 + size, size)


@pytest.mark.parametrize("shift", [0, 5])
def test_a_running_head_and_its_number_read_as_two_blocks_leave_together(shift: int) -> None:
    # The head's page number stands far right on its baseline, read as a block of its own
    # (code under the head makes a gutter there): the number agrees with the document's
    # numbering, so both leave, the head at the body's size too. A number that is not the
    # page's (shift) takes nothing with it.
    from pdfthin.layout.structure import mark_furniture

    pages = []
    for n in range(1, 7):
        body = [
            _block(
                f"Body text line {k} of page {n}, set at the body's size.", 134, 130 + 12 * k, 470
            )
            for k in range(20)
        ]
        if n in (1, 4):
            edge = [_block(str(n), 300, 740, 306)]
        else:
            edge = [
                _block("CHAPTER 5. THE CONTEXT", 134, 99, 279),
                _block(str(n + shift), 468, 99, 477),
            ]
        pages.append(PageLayout(n, 612, 792, edge + body))
    mark_furniture(pages)
    for n, lay in enumerate(pages, start=1):
        if n not in (1, 4):
            texts = [b.text for b in lay.blocks]
            assert ("CHAPTER 5. THE CONTEXT" in texts) is bool(shift), (n, lay.header)
            if not shift:
                assert lay.header == ["CHAPTER 5. THE CONTEXT", str(n)]


@pytest.mark.parametrize(
    ("left_head", "bold"),
    [
        ("2.1. SPACES", True),  # its section's head, set otherwise: known by its text
        ("2.9. APPENDIX", False),  # a head seen nowhere else, set alike: known by its look
    ],
)
def test_a_running_head_left_on_a_page_without_its_number_is_not_a_heading(
    left_head: str, bold: bool
) -> None:
    # Each section's head stands beside the page number on its pages (taken out: the numbers
    # agree; too few pages to repeat). Page 4 has no number, so its head stays in the body:
    # what the furniture pass took out elsewhere tells the heading pass it is a running head.
    titles = ["SPACES", "MANIFOLDS", "COVERINGS", "GEOMETRY", "CURVES"]
    pages = []
    for n in range(1, 21):
        head = f"2.{(n - 1) // 4 + 1}. {titles[(n - 1) // 4]}"
        if n == 4:
            runs = words(left_head, 300, 40, 8.0, bold)
        else:
            runs = [*words(head, 300, 40, 8.0), run(str(n + 30), 72, 40, 8.0)]
        runs += [w for i in range(20) for w in words(BODY[i], 72, 300 + 12 * i)]
        pages.append(page(runs, number=n))
    layouts = [layout_page(p) for p in pages]
    finish_document(layouts)
    assert layouts[0].header == ["31", "2.1. SPACES"]
    [left] = [b for b in layouts[3].blocks if b.text == left_head]
    assert left.kind == "paragraph"


def test_the_same_line_alone_on_every_page_is_content_not_a_header() -> None:
    pages = [page(words("Certificate of attendance", 200, 40), number=n) for n in range(1, 5)]
    mds = markdown(*pages)
    assert all("Certificate of attendance" in md for md in mds)


def _reachable_types(root: object) -> set[type]:
    """The types of everything ``root`` holds, through containers and pdfthin's own objects
    (not through classes, modules or functions, which reach the whole program)."""
    seen: set[int] = set()
    found: set[type] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        found.add(type(obj))
        if isinstance(obj, (dict, list, tuple, set, frozenset)) or type(obj).__module__.startswith(
            "pdfthin"
        ):
            stack.extend(
                o
                for o in gc.get_referents(obj)
                if not isinstance(o, (type, types.ModuleType, types.FunctionType))
            )
    return found


def test_a_built_document_keeps_no_layout() -> None:
    """Runs, lines and blocks serve the build only: a built document holds none of them (its
    pages keep their Markdown, text and anchors), so a cached document takes only what it
    serves, and the collector has little to walk when the build's pause ends."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    for n in (1, 2):
        b.add_page(
            b"BT /F1 18 Tf 72 720 Td (Heading %d) Tj /F1 10 Tf 0 -30 Td (Body text of page) Tj"
            b" 0 -12 Td (and its second line.) Tj ET" % n,
            {"Font": {"F1": font}},
        )
    doc = pdfthin.open(b.build())
    assert [p.status for p in doc.pages] == ["text", "text"]
    assert "Body text of page" in doc.pages[1].markdown
    held = _reachable_types(doc)
    assert pdfthin.model.document.Page in held  # the walk reaches the pages
    assert not held & {TextRun, Line, Block, PageLayout, PageContent}


def test_laid_out_lines_let_go_of_their_word_spans() -> None:
    """Word spans serve table detection only: a laid-out page keeps none (a built document
    does not hold a list and a tuple per word) but those of lines near its top and bottom
    edges, which the furniture pass reads (``structure.release_spans``)."""
    runs = two_columns(300) + words("A closing paragraph under both columns", 50, 500)
    lines = build_lines(list(runs))
    assert any(len(line.spans) > 1 for line in lines)  # made with them
    layout = layout_page(page(runs))
    laid_out = [line for block in layout.blocks for line in block.lines]
    assert laid_out and all(line.spans == () for line in laid_out)


# --- Justified text whose wide word spaces line up by chance (issue 20) -------------------

_COLUMN_WORDS = "the data model we show that these results are from each method over time".split()
_OTHER_WORDS = "alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega".split()


def _proportional(word: str, x: float, y: float) -> TextRun:
    """A 10 pt word in a proportional face (narrow and wide letters), as real text is."""
    width = sum(3.0 if ch in "ilt" else 8.0 if ch in "mw" else 5.0 for ch in word)
    return TextRun(word, x, y - 8.0, x + width, y + 2.0, 10.0, "F")


def _justified_texts(vocabulary: list[str], n: int, seed: int, measure: float) -> list[str]:
    """``n`` lines of words filling ``measure`` points with spaces of at least 0.5 em."""
    rng = random.Random(seed)
    texts = []
    for _ in range(n):
        words_: list[str] = []
        width = 0.0
        while True:
            word = rng.choice(vocabulary)
            add = _proportional(word, 0, 0).x1 + (5.0 if words_ else 0.0)
            if width + add > measure:
                break
            words_.append(word)
            width += add
        texts.append(" ".join(words_))
    return texts


def _justified(text: str, x: float, y: float, measure: float) -> list[TextRun]:
    """One run per word, the spaces stretched evenly to fill ``measure`` points."""
    pieces = [_proportional(word, 0.0, y) for word in text.split()]
    space = (measure - sum(p.x1 for p in pieces)) / max(len(pieces) - 1, 1)
    out = []
    for piece in pieces:
        out.append(dataclasses.replace(piece, x0=x, x1=x + piece.x1))
        x = out[-1].x1 + space
    return out


def _justified_columns(left: list[str], right: list[str], gutter_em: float) -> list[TextRun]:
    """Two justified columns 150 points wide, drawn row by row."""
    runs: list[TextRun] = []
    for i, (a, b) in enumerate(zip(left, right, strict=True)):
        y = 100 + 12 * i
        runs += _justified(a, 50, y, 150.0)
        runs += _justified(b, 200 + gutter_em * 10.0, y, 150.0)
    return runs


def test_wide_word_spaces_lining_up_do_not_split_lines() -> None:
    # Narrow justified columns stretch their spaces to 0.5-1.5 ems, which line up over several
    # rows by chance; they used to pass for a gutter and cut the lines into pieces.
    left = _justified_texts(_COLUMN_WORDS, 10, 1, 150.0)
    right = _justified_texts(_OTHER_WORDS, 10, 2, 150.0)
    lines = build_lines(_justified_columns(left, right, 2.0))
    assert sorted(line.text for line in lines) == sorted(left + right)


def _ragged(text: str, x: float, y: float) -> list[TextRun]:
    """One run per word, spaces of 0.3 em; a double space ("end.  Next") is a sentence space of
    0.7 em."""
    out: list[TextRun] = []
    for word in text.split(" "):
        if not word:
            x += 4.0
            continue
        out.append(_proportional(word, x, y))
        x = out[-1].x1 + 3.0
    return out


def test_a_ragged_column_line_keeps_its_hyphen_beside_a_narrow_gutter() -> None:
    # A ragged left column, a one-em gutter, a justified right column. The longest left line
    # has a sentence space (0.7 em) where the shorter lines leave the gutter's region open:
    # that space is not the gutter, so "infor-" stays on its line and joins its continuation
    # on the next one, not the right column's "kappa" and not a block of its own.
    left = _justified_texts(_COLUMN_WORDS, 10, 1, 150.0)
    right = _justified_texts(_OTHER_WORDS, 10, 2, 150.0)
    left = [
        " ".join(text.split()[: max(2, len(text.split()) - i % 3)]) for i, text in enumerate(left)
    ]
    left[3] += ".  infor-"
    left[4] = "mation " + left[4]
    right[3] = "kappa " + right[3]
    lefts = [_ragged(text, 50, 100 + 12 * i) for i, text in enumerate(left)]
    start = max(line[-1].x1 for line in lefts) + 10.0
    runs: list[TextRun] = []
    for i, text in enumerate(right):
        runs += lefts[i] + _justified(text, start, 100 + 12 * i, 150.0)
    (md,) = markdown(page(runs))
    flat = " ".join(md.split())
    assert "information" in flat
    assert "infor-kappa" not in flat and "inforkappa" not in flat
    assert flat.index(left[-1]) < flat.index(right[0])


def test_unevenly_justified_lines_stay_whole() -> None:
    # Justification that widens some spaces more than others (about 0.8 to 2 ems here): no
    # whitespace runs down the paragraph, so each line is one line, not pieces of one.
    rng = random.Random(7)
    texts = [" ".join(rng.choice(_COLUMN_WORDS) for _ in range(10)) for _ in range(6)]
    runs: list[TextRun] = []
    for i, text in enumerate(texts):
        pieces = [_proportional(w, 0.0, 100 + 12 * i) for w in text.split()]
        weights = [rng.uniform(0.6, 1.4) for _ in pieces[1:]]
        free = 300.0 - sum(p.x1 - p.x0 for p in pieces)
        x = 50.0
        for k, piece in enumerate(pieces):
            runs.append(dataclasses.replace(piece, x0=x, x1=x + piece.x1 - piece.x0))
            if k < len(weights):
                x = runs[-1].x1 + free * weights[k] / sum(weights)
    assert [line.text for line in build_lines(runs)] == texts


def test_card_grid_under_a_title_drawn_row_by_row_keeps_its_cards_apart() -> None:
    # A 2x2 grid of justified cards, one em apart, under a title across the page, every row
    # drawn across the page. Each card's lines stay together, across the cards' stretched
    # spaces (wider than 1.25 em, they cut "delta" off its line) but not across the gutter.
    cards = [
        _justified_texts(_COLUMN_WORDS if k % 2 else _OTHER_WORDS, 3, k, 150.0) for k in range(4)
    ]
    runs = list(words("A Title Over The Page", 50, 80, 16))
    for row in range(2):
        for i in range(3):
            for col in range(2):
                text = cards[2 * row + col][i]
                runs += _justified(text, 50 + 160 * col, 100 + 60 * row + 12 * i, 150.0)
    (md,) = markdown(page(runs))
    flat = " ".join(md.split())
    for card in cards:
        assert " ".join(card) in flat


def test_two_columns_drawn_row_by_row_are_read_column_by_column() -> None:
    # Some producers draw a two-column page row by row, across the gutter. That drawing order
    # is not the reading order: each column is read whole, left first.
    body = [dataclasses.replace(r, seq=i) for i, r in enumerate(two_columns())]
    (md,) = markdown(page(body))
    assert md.index(LEFT[-1]) < md.index(RIGHT[0])
    assert all(not ("left" in ln and "right" in ln) for ln in md.splitlines())


def test_a_synthetic_italic_stays_in_its_sentence(implementation: str) -> None:
    """A title set in a sheared text matrix (a synthetic italic) inside a sentence: one line of
    one paragraph, not a heading moved to the end of the page."""
    b = PdfBuilder()
    font = b.font_standard("Courier")
    content = (
        b"BT /F1 12 Tf 1 0 0 1 61 680 Tm (This PDF version of ) Tj "
        b"1 0 0.21 1 205 680 Tm (Free Culture) Tj "
        b"1 0 0 1 292 680 Tm ( is licensed) Tj "
        b"1 0 0 1 61 666 Tm (under a Creative Commons license.) Tj ET"
    )
    b.add_page(content, {"Font": {"F1": font}})
    page = pdfthin.open(b.build()).page(1)
    assert page.markdown.split("\n")[0] == "This PDF version of Free Culture is licensed"
    assert "#" not in page.markdown


# --- dot leaders drawn as a layer of their own --------------------------------------------------


def _leader(x0: float, x1: float, y: float, step: float = 6.0) -> list[TextRun]:
    """A leader of single-dot runs from ``x0`` to ``x1``, ``step`` apart (each 5 wide)."""
    return [run(".", x0 + step * i, y) for i in range(int((x1 - x0) // step))]


def test_dot_leaders_drawn_under_words_stay_out_of_them() -> None:
    """A table's leaders drawn as one layer and its labels drawn over them (untable.pdf):
    the dots under a word are not read into it; the leader around the words stays."""
    runs = _leader(50, 350, 100) + words("Cabo Verde", 62, 100) + words("523", 400, 100)
    (line,) = [ln for ln in build_lines(runs) if "Cabo" in ln.text]
    assert "Cabo Verde" in line.text
    assert line.text.startswith(".") and "Verde." in line.text


@pytest.mark.parametrize("dots", [1, 3])
def test_a_few_dots_under_a_letter_are_punctuation(dots: int) -> None:
    """Astronomy's "17s.972" sets its decimal point under the "s": fewer dots than a
    leader's are read where they stand, whatever lies over them."""
    runs = [*words("position 22h56m17s", 50, 100), run("." * dots, 136, 100)]
    runs += words("972", 145, 100)
    (line,) = build_lines(runs)
    assert line.text.count(".") == dots


# --- Drop caps ----------------------------------------------------------------------------------

PARAGRAPH = [
    "he history of the valley begins long before the first",
    "settlers came over the mountains in search of land",
    "and water for their cattle and their growing families.",
    "Later the railway brought trade and a small town grew.",
]


def _drop_cap(letter: str, first: str = PARAGRAPH[0], size: float = 36.0) -> list[TextRun]:
    """A paragraph of 10 pt lines 12 pt apart whose first letter is set ``size`` large over
    its first three lines (its baseline on the third's), the lines beside it indented."""
    cap = run(letter, 50, 124, size)
    runs = [cap]
    for i, text in enumerate([first, *PARAGRAPH[1:]]):
        line = words(text, cap.x1 + 3 if i < 3 else 50, 100 + 12 * i)
        if text.startswith(" "):  # the word space drawn as the run's first character
            line[0] = dataclasses.replace(line[0], text=" " + line[0].text)
        runs += line
    return runs


@pytest.mark.parametrize(
    ("letter", "first", "reads"),
    [
        ("T", PARAGRAPH[0], "The history of the valley"),
        ("“T", PARAGRAPH[0], "“The history of the valley"),  # an opening quote before it
        ("T", "HE HISTORY OF THE VALLEY begins long before the first", "THE HISTORY OF"),
        ("A", " long time ago the valley began long before the", "A long time ago"),
    ],
)
def test_a_drop_cap_starts_its_paragraphs_first_line(letter: str, first: str, reads: str) -> None:
    (md,) = markdown(page(_drop_cap(letter, first)))
    lines = md.splitlines()
    assert lines[0].startswith(reads)
    # ... and the paragraph reads on in order, the letter on no other line.
    assert lines[1].startswith("settlers came") and lines[2].startswith("and water")
    assert lines[3].startswith("Later the railway") and len(lines) == 4


@pytest.mark.parametrize(
    "runs",
    [
        # A large letter beside one line: a label, a grade, an initial on a card.
        [run("A", 50, 124, 36.0), *words("Excellent work this term", 72, 112)],
        # Text beginning further right: a figure's large letter and its notes.
        [run("B", 50, 124, 36.0), *words("note one", 140, 100), *words("note two", 140, 112)],
        # The lines beside it at more than half its size (small text elsewhere on the page):
        # a large heading's letter, not a cap.
        [
            run("C", 50, 150, 36.0),
            *words("one line", 75, 135, 20.0),
            *words("two lines", 75, 155, 20.0),
            *(w for i in range(8) for w in words("body text of the page", 50, 300 + 12 * i)),
        ],
        # Below its top half only: the letter's top is not the paragraph's first line.
        [run("D", 50, 124, 36.0), *words("one line", 72, 118), *words("two", 72, 124)],
        # Beside it, something other than a word going on: a formula's scripts.
        [run("E", 50, 124, 36.0), *words("2", 72, 100), *words("i", 72, 124)],
        # A capitalised word right after it: a question's label, not a word's first letter.
        [
            run("Q", 50, 124, 36.0),
            *words("How do I reset the password of", 72, 100),
            *words("my account when it has expired?", 72, 112),
        ],
    ],
)
def test_a_large_letter_that_is_not_a_drop_cap_stays_itself(runs: list[TextRun]) -> None:
    assert _with_drop_caps(runs) == runs


def _caps(n: int) -> list[TextRun]:
    runs: list[TextRun] = []
    for k in range(n):
        y = 100 + 60 * k
        cap = run("ABCDEFGHI"[k], 50, y + 24, 36.0)
        runs += [cap, *words("he first line", cap.x1 + 3, y)]
        runs += words("and the second", cap.x1 + 3, y + 12)
    return runs


def test_more_large_letters_than_drop_caps_are_none() -> None:
    # A chart's labels, a title set letter by letter: no letter joins a line (and the work
    # stays linear: each candidate looks at every run).
    assert len(_with_drop_caps(_caps(8))) == len(_caps(8)) - 8  # each joined its line
    assert _with_drop_caps(_caps(9)) == _caps(9)


def test_a_drop_cap_in_a_pdf_reads_with_its_word() -> None:
    # Times at 11 pt, 13 pt apart; the "T" at 50 pt stands over three lines, its baseline on
    # the third's, its cap height at the first's.
    b = PdfBuilder()
    font = b.font_standard("Times-Roman")
    ops = [b"BT /F1 50 Tf 66 664 Td (T) Tj ET"]
    for i, text in enumerate(PARAGRAPH):
        ops.append(
            b"BT /F1 11 Tf %d %d Td (%s) Tj ET"
            % (100 if i < 3 else 66, 690 - 13 * i, text.encode())
        )
    b.add_page(b"\n".join(ops), {"Font": {"F1": font}})
    md = pdfthin.open(b.build()).pages[0].markdown
    assert md.splitlines() == ["T" + PARAGRAPH[0], *PARAGRAPH[1:]]


def test_a_drop_cap_and_the_blank_string_after_it_read_as_a_word() -> None:
    # "A" then a word space shown as a string of its own ("( ) Tj"): the letter is a word,
    # the first line beside it the next ("A long time ago", not "Along time ago").
    b = PdfBuilder()
    font = b.font_standard("Times-Roman")
    ops = [b"BT /F1 50 Tf 66 664 Td (A) Tj ( ) Tj ET"]
    first = "long time ago the valley began long before the"
    for i, text in enumerate([first, *PARAGRAPH[1:]]):
        ops.append(
            b"BT /F1 11 Tf %d %d Td (%s) Tj ET"
            % (106 if i < 3 else 66, 690 - 13 * i, text.encode())
        )
    b.add_page(b"\n".join(ops), {"Font": {"F1": font}})
    md = pdfthin.open(b.build()).pages[0].markdown
    assert md.splitlines() == ["A " + first, *PARAGRAPH[1:]]


def test_a_smaller_large_letter_beside_a_drop_cap_is_not_its_text() -> None:
    # An "A" of 72 pt, and beside it a "B" of 36 pt set over three lines of its own, with a
    # line further down level with the "A": the "B" joins its own first line, and no letter
    # is read twice.
    big = run("A", 50, 160, 72.0)
    small = run("B", big.x1 + 3, 124, 36.0)
    runs = [big, small, *words("and more text below", big.x1 + 3, 160)]
    for i, text in enumerate(PARAGRAPH[:3]):
        runs += words(text, small.x1 + 3, 100 + 12 * i)
    texts = [r.text for r in _with_drop_caps(runs)]
    assert "B" + PARAGRAPH[0].split()[0] in texts
    assert "A" in texts and "".join(texts).count("B") == 1


# --- List markers set apart from their text --------------------------------------------------

ITEMS = [
    ["The first part covers the history of the valley and the people", "who came to live there."],
    ["The second part is short."],
    ["The third part looks at trade and the railway."],
]


def _list(marks: list[str], text_x: float = 110.0) -> list[TextRun]:
    """A sentence, then ``ITEMS`` each behind its mark at x 80 and its text at ``text_x``
    (a hanging indent: the mark in a column of its own), then a paragraph."""
    runs = words("The plan has three parts:", 72, 100)
    y = 112.0
    for mark, item in zip(marks, ITEMS, strict=True):
        runs.append(run(mark, 80, y))
        for line in item:
            runs += words(line, text_x, y)
            y += 12
    return runs + words("After the list comes a plain paragraph.", 72, y + 6)


@pytest.mark.parametrize(
    ("marks", "reads"),
    [
        (["-"] * 3, "- "),
        (["–"] * 3, "- "),
        (["*"] * 3, "- "),
        (["·"] * 3, "- "),
        (["1)", "2)", "3)"], "{n}. "),
        (["a)", "b)", "c)"], "- {m} "),
        (["(a)", "(b)", "(c)"], "- {m} "),
        (["i.", "ii.", "iii."], "- {m} "),
    ],
)
def test_a_list_marker_in_a_column_of_its_own_starts_its_items_line(
    marks: list[str], reads: str
) -> None:
    # Left apart, the marks line up like a column beside the items' text and were read as
    # one: "-", "-", "-" and then the three items as a paragraph.
    (md,) = markdown(page(_list(marks)))
    lines = md.splitlines()
    starts = [
        reads.format(n=n, m=m) + item[0]
        for n, (m, item) in enumerate(zip(marks, ITEMS, strict=True), 1)
    ]
    for start in starts:
        assert start in lines
    assert lines.index(starts[0]) < lines.index(starts[1]) < lines.index(starts[2])


@pytest.mark.parametrize(
    "runs",
    [
        # One mark alone (a formula's dot before a letter): no column of marks.
        [*words("the product", 72, 100), run("·", 80, 124), *words("a times b", 100, 124)],
        # Marks in a column, but what follows each starts elsewhere: not a list's indent.
        [run("-", 80, 100), *words("left", 100, 100), run("-", 80, 112), *words("far", 125, 112)],
    ],
)
def test_a_dash_or_dot_without_a_list_around_it_does_not_take_the_next_text(
    runs: list[TextRun],
) -> None:
    lines = build_lines(runs)
    assert not any(ln.text[:1] in "-·" and len(ln.text) > 1 for ln in lines)


def test_a_dash_in_a_table_does_not_join_the_figure_after_it() -> None:
    # A nil figure ("—") then a figure: the dashes line up, but a number is no item's text.
    runs: list[TextRun] = []
    for i, row in enumerate([("Revenue", "—", "1,234"), ("Other", "—", "55"), ("Net", "3", "9")]):
        runs += [run(row[0], 72, 100 + 14 * i), run(row[1], 200, 100 + 14 * i)]
        runs.append(run(row[2], 230, 100 + 14 * i))
    texts = [ln.text for ln in build_lines(runs)]
    assert texts.count("—") == 2 and "1,234" in texts and "55" in texts


def test_a_list_in_the_second_column_starts_its_items_lines() -> None:
    # Column one's lines end before the gutter; column two's list marks follow them on the
    # same rows, yet start their rows in their column. (Left apart, the marks and the items
    # were read as a table.)
    runs: list[TextRun] = []
    for i in range(6):
        runs += words("the first column of the page runs on here", 72, 100 + 12 * i)
    runs += words("The plan has three parts:", 312, 100)
    y = 112.0
    for item in ITEMS:
        runs.append(run("-", 316, y))
        for line in item:
            runs += words(line[:40], 330, y)
            y += 12
    (md,) = markdown(page(runs))
    assert "|" not in md
    for item in ITEMS:
        assert "- " + item[0][:40] in md.splitlines()


@pytest.mark.parametrize("short", ["-", "0"])
def test_a_short_cell_in_a_tables_middle_column_stays_its_own_cell(short: str) -> None:
    # A narrow column ("-" or a figure, ragged) between the labels and a column of words:
    # neither a list's marks nor a label list's labels, since a cell stands before each.
    runs = [*words("Project", 72, 100, bold=True), run("Cost", 200, 100, bold=True)]
    runs.append(run("Status", 240, 100, bold=True))
    rows = [("Water supply", short, "Pending"), ("Railway", short, "Complete")]
    rows += [
        ("Town hall", "12", "Complete"),
        ("Mill road", short, "Planned"),
        ("Bridge", "4", "Done"),
    ]
    for i, (label, cost, status) in enumerate(rows, 1):
        y = 100 + 14 * i
        runs += [*words(label, 72, y), run(cost, 205, y), run(status, 240, y)]
    (md,) = markdown(page(runs))
    assert "| Project | Cost | Status |" in md
    assert f"| Water supply | {short} | Pending |" in md and "| Town hall | 12 | Complete |" in md


# --- Labels in a column of their own, beside a column of words ------------------------------

TERMS = [
    ("Valley", ["the low land between hills, often with a river", "running through it"]),
    ("Mill", ["a building with machinery for grinding grain"]),
    ("Station", ["a place where trains stop for their passengers"]),
]


def _glossary(text_x: float = 150.0, terms: list[tuple[str, list[str]]] = TERMS) -> list[TextRun]:
    """A paragraph, then each term in bold at x 72 with its definition at ``text_x`` (lines
    12 pt apart, a term on the baseline of its definition's first line)."""
    runs = words("Some body text before the terms, set as a paragraph of", 72, 100)
    runs += words("two lines to give the page its body size.", 72, 112)
    y = 130.0
    for term, lines in terms:
        runs.append(run(term, 72, y, bold=True))
        for text in lines:
            runs += words(text, text_x, y)
            y += 12
        y += 4
    return runs


def test_a_glossarys_terms_read_with_their_definitions() -> None:
    # The gap after each term is wider than a label list's (LABEL_GAP_EM): left alone, the
    # terms read as a column of their own ("Valley", then "Mill Station" as a heading), then
    # the definitions.
    (md,) = markdown(page(_glossary()))
    lines = md.splitlines()
    for term, definition in TERMS:
        assert f"{term} {definition[0]}" in lines


def test_a_tables_rows_stay_whole_when_it_is_not_found() -> None:
    # Row labels, a column of wrapped descriptions and a column of figures with one missing,
    # no header titling them (no grid is sure of it: with one, they are a table): each row's
    # label reads with its description and figure.
    runs: list[TextRun] = []
    y = 116.0
    rows = [
        ("Water", ["share of samples within the limits", "set by the regional authority"], "97%"),
        ("Floods", ["homes in the hundred-year flood", "zone, by parish"], ""),
        ("Rail", ["passengers per day at the station"], "3,310"),
    ]
    for label, lines, value in rows:
        runs.append(run(label, 72, y))
        if value:
            runs.append(run(value, 400, y))
        for text in lines:
            runs += words(text, 200, y)
            y += 11
        y += 6
    (md,) = markdown(page(runs))
    assert "Water share of samples within the limits 97%" in md
    assert "Floods homes in the hundred-year flood" in md
    assert "Rail passengers per day at the station 3,310" in md


BODY_TEXT = [
    "Details of the order are given below for your records and for your reference.",
    "Please keep this page until the goods have been delivered to your address.",
]


def _form(pairs: list[tuple[str, str]], x: float, value_x: float, y: float) -> list[TextRun]:
    """A form's labels (a bold face, ending in a colon) at ``x``, their values at
    ``value_x``."""
    runs: list[TextRun] = []
    for k, (label, value) in enumerate(pairs):
        bold = [
            dataclasses.replace(r, font="Helvetica-Bold")
            for r in words(label, x, y + 12 * k, bold=True)
        ]
        runs += bold + words(value, value_x, y + 12 * k)
    return runs


def test_a_forms_labels_read_with_their_values() -> None:
    # Two rows of a form ("Order Number:  SO-1182"), too few for a table: each label reads
    # with its value, on one line, and a bold label with its plain value is no heading.
    runs = [w for k, t in enumerate(BODY_TEXT) for w in words(t, 72, 100 + 12 * k)]
    runs += _form([("Order Number:", "SO-1182"), ("Order Date:", "May 2, 2024")], 72, 160, 150)
    (md,) = markdown(page(runs))
    assert "Order Number: SO-1182\nOrder Date: May 2, 2024" in md
    assert "#" not in md


def test_an_invoices_details_keep_their_values() -> None:
    # An invoice's details at the top right (labels of three widths, the values lined up a
    # gap after the widest), the addressee below at the left: each row on one line.
    runs = words("INVOICE", 72, 60, 20.0, bold=True)
    for k, text in enumerate(["Bill To:", "Jane Doe", "400 Market Street"]):
        runs += words(text, 72, 150 + 12 * k)
    runs += _form(
        [
            ("Invoice Number:", "INV-2024-0042"),
            ("Invoice Date:", "March 3, 2024"),
            ("Due Date:", "April 2, 2024"),
        ],
        360,
        460,
        100,
    )
    runs += [w for k, t in enumerate(BODY_TEXT) for w in words(t, 72, 200 + 12 * k)]
    (md,) = markdown(page(runs))
    for pair in ("Invoice Number: INV-2024-0042", "Invoice Date: March 3", "Due Date: April 2"):
        assert pair in md


def test_an_invoices_details_beside_its_address_are_no_table() -> None:
    # The details level with the sender's address at the left: the rows line up in three
    # columns, but the middle one is a form's labels, with none left of them. The address
    # reads whole, and each label with its value.
    address = ["Acme Widgets Ltd.", "12 High Street", "Springfield, IL 62701"]
    runs: list[TextRun] = []
    for k, text in enumerate(address):
        runs += words(text, 72, 100 + 12 * k)
    pairs = [
        ("Invoice Number:", "INV-2024-0042"),
        ("Invoice Date:", "March 3, 2024"),
        ("Due Date:", "April 2, 2024"),
    ]
    runs += _form(pairs, 360, 460, 100)
    runs += [w for k, t in enumerate(BODY_TEXT) for w in words(t, 72, 200 + 12 * k)]
    (md,) = markdown(page(runs))
    assert "|" not in md
    assert "\n".join(address) in md
    assert "\n".join(f"{label} {value}" for label, value in pairs) in md


def test_a_short_line_ending_in_a_colon_beside_a_column_is_no_label() -> None:
    # A page in two columns: a paragraph of the left column ends "as follows:" level with a
    # line of the right column; a form's label it is not, and the columns stay apart.
    runs = two_columns()
    runs += words("as follows:", 50, 100 + 12 * len(LEFT))
    runs += words("right line after the others", 320, 100 + 12 * len(LEFT))
    (md,) = markdown(page(runs))
    assert "as follows: right" not in md and "as follows:" in md


@pytest.mark.parametrize(
    "runs",
    [
        # An index: turnover lines indented under their entries, the next column beside them.
        [
            w
            for i, (a, b) in enumerate(
                [
                    ("Statute of Monopolies (1656), 88,", "Star Wars (the films), 98"),
                    ("  155-56", "Stationers' Company of London, 87"),
                    ("Steamboat Willie (film), 21,", "Stallman, Richard M., 184"),
                    ("  23, 80", "Stanford University Press, 110"),
                    ("Stern, Howard, 22, 105,", "Steinbeck, John, the writer, 207"),
                    ("  124, 131", "Stevens, Wallace, the poet, 12"),
                ]
            )
            for w in (
                words(a.strip(), 72 + (12 if a.startswith(" ") else 0), 100 + 12 * i)
                + words(b, 280, 100 + 12 * i)
            )
        ],
        # Short lines of a sidebar in its own leading beside the body's lines.
        [
            *(w for i in range(6) for w in words(f"Fact {i} here", 72, 100 + 9 * i)),
            *(
                w
                for i in range(5)
                for w in words("the body text of the page runs on", 200, 100 + 13 * i)
            ),
        ],
        # ... or in the body's leading, running on below the body's paragraph.
        [
            *(w for i in range(6) for w in words(f"Fact {i} here", 72, 100 + 12 * i)),
            *(
                w
                for i in range(3)
                for w in words("the body text of the page runs on", 200, 100 + 12 * i)
            ),
        ],
    ],
)
def test_a_column_of_short_lines_is_not_a_column_of_labels(runs: list[TextRun]) -> None:
    (md,) = markdown(page(runs))
    assert not any(
        ln.startswith(("155-56 St", "23, 80 St", "124, 131 St", "Fact 0 here the"))
        for ln in md.splitlines()
    )


@pytest.mark.parametrize("floods", ["1,204", ""])
def test_a_small_table_with_a_column_of_descriptions_is_a_table(floods: str) -> None:
    # Three rows under a header, the middle column prose: a table when every row fills the
    # three columns, or, one value missing, when the header titles them (a few rows pairing
    # prose with other pieces, untitled and unfilled, are a formula or a figure's label).
    runs = [run("Measure", 72, 100, bold=True), run("Description", 200, 100, bold=True)]
    runs.append(run("Value", 400, 100, bold=True))
    rows = [
        ("Water", "share of samples within the limits", "97%"),
        ("Floods", "homes in the hundred-year flood zone", floods),
        ("Rail", "passengers per day at the station", "3,310"),
    ]
    for i, (label, text, value) in enumerate(rows, 1):
        runs += [run(label, 72, 100 + 14 * i), *words(text, 200, 100 + 14 * i)]
        runs += [run(value, 400, 100 + 14 * i)] if value else []
    (md,) = markdown(page(runs))
    assert "| Measure | Description | Value |" in md
    assert f"| Floods | homes in the hundred-year flood zone | {floods} |" in md


def test_a_bold_header_ends_at_the_first_row_set_in_regular_weight() -> None:
    # The first row holding a figure is the third: the rows of words above it would be one
    # header wrapped over two lines, but only the first is bold.
    runs = [run(t, x, 100, bold=True) for t, x in (("Tag", 72), ("Type", 130), ("Width", 200))]
    rows = [("xx1", "number", "word"), ("000", "object", "64"), ("010", "double", "64")]
    rows += [("100", "string", "32"), ("110", "boolean", "8")]
    for i, row in enumerate(rows, 1):
        runs += [run(t, x, 100 + 12 * i) for t, x in zip(row, (72, 130, 200), strict=True)]
    (md,) = markdown(page(runs))
    assert "| Tag | Type | Width |" in md and "| xx1 | number | word |" in md


DESCRIBED = [
    ("xx1", "number", "31-bit integer representation"),
    ("000", "object", "pointer to the object's handle"),
    ("010", "number", "pointer to a double's handle"),
    ("100", "string", "pointer to the string's handle"),
    ("110", "boolean", "enumeration for null, undefined, true, false"),
]


def _described_table(x: float, y: float, heading: tuple[float, bool] = (10.0, True)) -> list:
    """A table titled "Tag | Type | Description" at ``x``, its last column prose; the titles
    set at ``heading`` (size, bold) from the third on."""
    size, bold = heading
    runs = [run("Tag", x, y, bold=True), run("Type", x + 40, y, bold=True)]
    runs.append(run("Description", x + 100, y, size, bold))
    for i, row in enumerate(DESCRIBED, 1):
        runs += [run(row[0], x, y + 12 * i), run(row[1], x + 40, y + 12 * i)]
        runs += words(row[2], x + 100, y + 12 * i)
    return runs


def test_a_column_of_descriptions_titled_with_the_others_is_the_tables_own() -> None:
    # Prose at a table's side is the page's other column, and is trimmed from the table:
    # not when a header row titles it with the table's other columns.
    runs = _described_table(72, 100)
    runs += words("The tags above are the low bits of each value as it is stored.", 72, 190)
    (md,) = markdown(page(runs))
    assert "| Tag | Type | Description |" in md
    assert "| 110 | boolean | enumeration for null, undefined, true, false |" in md


def test_a_titled_column_of_descriptions_in_the_pages_right_column_is_the_tables() -> None:
    # The same table in the right column of a page, the left column's running text beside
    # its rows: that column is left out, and the descriptions stay the table's.
    text = (
        "The valley was settled in the eighteenth century by farmers who came from the coast "
        "and built the first mill by the river; their houses stood along the road that led "
        "from the ford to the church, and the market was held in the square in front of it."
    )
    runs = _described_table(330, 100)
    for i, line in enumerate(textwrap.wrap(text, 44)):
        runs += words(line, 50, 96 + 11 * i)
    (md,) = markdown(page(runs))
    assert "| Tag | Type | Description |" in md
    assert "| 110 | boolean | enumeration for null, undefined, true, false |" in md
    assert textwrap.wrap(text, 44)[3] in md


def test_a_heading_of_the_page_s_other_column_does_not_title_a_tables_column() -> None:
    # The same rows, the third piece of the top row larger: a heading of the page's other
    # column standing on the table's header line, its running text beside the rows.
    runs = _described_table(72, 100, heading=(14.0, True))
    (md,) = markdown(page(runs))
    assert "| Tag | Type |" in md and "Description |" not in md
    assert "| 110 | boolean |" in md


PARAMETERS = [
    ("timeout", "float", ["seconds to wait for the server before", "the call fails"]),
    ("retries", "int", ["how many times a failed call is tried"]),
    (
        "verify",
        "bool",
        # (broken where the next word has no room, as a typesetter breaks them)
        [
            "whether the server's certificate is",
            "checked and trusted, so turn it off",
            "only for local testing",
        ],
    ),
    ("proxy", "str", ["the proxy's address, or none"]),
]


def _parameters(after: tuple[str, float, float] | None = None) -> list[TextRun]:
    """A table titled "Parameter | Type | Description", a description wrapped over three
    lines; ``after``: a line (text, left, gap in ems) under the last row."""
    runs = [run("Parameter", 72, 100, bold=True), run("Type", 160, 100, bold=True)]
    runs.append(run("Description", 220, 100, bold=True))
    y = 100.0
    for name, kind, lines in PARAMETERS:
        y += 16
        runs += [run(name, 72, y), run(kind, 160, y)]
        for k, text in enumerate(lines):
            runs += words(text, 220, y + 12 * k)
        y += 12 * (len(lines) - 1)
    if after is not None:
        text, x, gap = after
        runs += words(text, x, y + 10 + gap * 10)
    return runs


def test_a_cells_words_wrapped_over_several_lines_stay_in_their_row() -> None:
    # Two lines alone on their rows in a row used to end the table (one was a wrapped cell).
    (md,) = markdown(page(_parameters()))
    assert (
        "| verify | bool | whether the server's certificate is checked and trusted, so turn it "
        "off only for local testing |" in md
    )
    assert "| proxy | str | the proxy's address, or none |" in md


@pytest.mark.parametrize(
    "after",
    [
        ("12.5", 220, 0.2),  # a figure does not wrap
        ("- another item", 72, 0.2),  # a list after the table, at its left
        ("note", 220, 0.2),  # its word had room on the line above: a line of its own
        ("address of the proxy server itself", 220, 1.0),  # set apart: no wrapped line
    ],
)
def test_a_line_under_a_tables_last_cell_is_not_always_its_words_going_on(
    after: tuple[str, float, float],
) -> None:
    (md,) = markdown(page(_parameters(after)))
    assert "| proxy | str | the proxy's address, or none |" in md
    assert after[0] in md.split("| proxy |", 1)[1].split("\n", 1)[1]


def _o_items(
    gap: float, font: str = "CourierNewPSMT", after: str = "TimesNewRomanPSMT", size: float = 10.0
) -> list:
    """Two second-level items under a bulleted one, each opened by the letter "o" in
    ``font``, its words ``gap`` points after it in ``after`` at ``size``."""
    runs = [run("•", 72, 100), *words("the valley's history", 90, 100)]
    for i, text in enumerate(["its first settlers", "its mills"]):
        y = 112 + 12 * i
        o = TextRun("o", 108, y - 8, 114, y + 2, 10.0, font)
        runs.append(o)
        runs += [dataclasses.replace(r, font=after, size=size) for r in words(text, 114 + gap, y)]
    return runs


@pytest.mark.parametrize("gap", [8.0, 16.0, 30.0])
def test_words_second_level_bullet_the_letter_o_opens_an_item(gap: float) -> None:
    # Word sets its second-level bullet as "o" in Courier New, a tab before the words: joined
    # to its words (a tab's width) or left apart (a wider one), it opens a nested item.
    (md,) = markdown(page(_o_items(gap)))
    assert "  - its first settlers" in md and "  - its mills" in md
    assert "o its" not in md


def test_words_letter_o_bullet_before_code_in_its_own_font() -> None:
    # Items that are code ("Pixmap.alpha"), set in the bullet's own monospaced font but
    # smaller: the change of size sets the "o" apart as the change of font does.
    (md,) = markdown(page(_o_items(12.0, after="CourierNewPSMT", size=8.0)))
    assert "  - its first settlers" in md and "  - its mills" in md


@pytest.mark.parametrize(
    "gap, font, after",
    [
        (2.5, "CourierNewPSMT", "TimesNewRomanPSMT"),  # a word space after it: a word
        (8.0, "TimesNewRomanPSMT", "TimesNewRomanPSMT"),  # the text's own letter
        (8.0, "TimesNewRomanPS-ItalicMT", "TimesNewRomanPSMT"),  # a letter in italics
        (8.0, "CourierNewPSMT", "CourierNewPSMT"),  # code: "o  its" in one monospaced font
    ],
)
def test_a_letter_o_opening_a_line_is_not_always_a_bullet(
    gap: float, font: str, after: str
) -> None:
    (md,) = markdown(page(_o_items(gap, font, after)))
    assert "its first settlers" in md and "  - its first settlers" not in md


# --- Nested lists ----------------------------------------------------------------------------


def _nested_list(
    items: list[tuple[int, str, str]], x: float = 90.0, y: float = 112.0
) -> list[TextRun]:
    runs = words("The work has these parts:", 72, 100) if x == 90.0 else []
    for level, mark, text in items:
        left = x + 24 * level
        runs += [run(mark, left, y), *words(text, left + 18, y)]
        y += 12
    return runs


NESTED = [
    (0, "1.", "Survey the valley and its streets."),
    (1, "a.", "Count the houses in each street."),
    (1, "b.", "Count the people in each house."),
    (0, "2.", "Write the report for the council."),
    (1, "•", "Draw the maps of the valley."),
    (2, "•", "One map for each parish."),
    (0, "3.", "Present the report at the meeting."),
]


def test_a_list_item_set_further_in_under_another_is_nested_in_it() -> None:
    (md,) = markdown(page(_nested_list(NESTED)))
    assert md.splitlines()[2:] == [
        "1. Survey the valley and its streets.",
        "   - a. Count the houses in each street.",
        "   - b. Count the people in each house.",
        "2. Write the report for the council.",
        "   - Draw the maps of the valley.",
        "     - One map for each parish.",
        "3. Present the report at the meeting.",
    ]


def test_a_list_in_the_next_column_is_not_nested_in_the_last() -> None:
    # The second column's list starts right below the level of the first's last item, but
    # beyond its end: a list of its own.
    first = _nested_list([(0, "•", "left item one"), (0, "•", "left item two")])
    second = _nested_list([(0, "•", "right item one"), (0, "•", "right item two")], x=330, y=136)
    (md,) = markdown(page(first + second))
    assert "- right item one" in md.splitlines() and "  - right item one" not in md


def test_a_list_far_below_another_is_not_nested_in_it() -> None:
    # Two lists with nothing drawn between them but space (a figure's image), the second set
    # further in: each is a list of its own.
    first = _nested_list([(0, "•", "first list item one"), (0, "•", "first list item two")])
    second = _nested_list([(1, "•", "later item one"), (1, "•", "later item two")], y=400)
    (md,) = markdown(page(first + second))
    assert "- later item one" in md.splitlines()


def _raised(mark: str, text: str) -> list[TextRun]:
    """A 7 pt ``mark`` raised 3 pt at x 72, then ``text`` in 10 pt half a point after it."""
    first = run(mark, 72, 97, 7.0)
    return [first, run(text, first.x1 + 0.5, 100)]


@pytest.mark.parametrize(
    ("mark", "text", "reads"),
    [
        ("1", "Parish records, volume 3.", "1 Parish records, volume 3."),
        ("†", "Developmental Endocrinology", "† Developmental Endocrinology"),
        # Before a sign or a figure, a formula's raised piece: no space.
        ("1", "/2", "1/2"),
        ("2", "−n", "2−n"),
        ("3", ". Assuming", "3. Assuming"),
    ],
)
def test_a_raised_mark_at_a_lines_start_is_a_word_of_its_own(
    mark: str, text: str, reads: str
) -> None:
    (line,) = build_lines(_raised(mark, text))
    assert line.text == reads


def test_a_forms_label_reads_with_its_blank() -> None:
    # "Name of applicant:" and its blank to fill in, several ems apart: one line, not the
    # label and then a paragraph of underscores.
    runs: list[TextRun] = []
    for i, label in enumerate(["Name of applicant:", "Date of birth:", "Parish:"]):
        runs += [*words(label, 72, 100 + 15 * i), run("_" * 28, 200, 100 + 15 * i)]
    (md,) = markdown(page(runs))
    assert md.splitlines()[0] == "Name of applicant: " + "_" * 28
    assert "Date of birth: ____" in md


# --- Bullets of a symbol font mapped to the private use area ---------------------------------


@pytest.mark.parametrize("apart", [True, False])
def test_a_symbol_fonts_bullet_in_the_private_use_area_opens_a_list_item(apart: bool) -> None:
    # Word sets its bullets in Symbol, mapped to U+F0B7: set apart at a hanging indent, or
    # followed by a space in the same string. Markdown leaves the glyph out: the items were
    # read as the lines of one paragraph.
    b = PdfBuilder()
    text = b.font_standard("Times-Roman", encoding="/WinAnsiEncoding")
    symbol = b.font_standard("Symbol", to_unicode={0xB7: "\uf0b7"})
    ops = [b"BT /F1 10 Tf 72 720 Td (The plan has three parts:) Tj ET"]
    items = [b"Survey the valley and its streets.", b"Write the report.", b"Present it."]
    for i, item in enumerate(items):
        y = 706 - 12 * i
        if apart:
            ops.append(b"BT /F2 10 Tf 80 %d Td (\\267) Tj ET" % y)
            ops.append(b"BT /F1 10 Tf 98 %d Td (%s) Tj ET" % (y, item))
        else:
            ops.append(b"BT /F2 10 Tf 80 %d Td (\\267) Tj /F1 10 Tf ( %s) Tj ET" % (y, item))
    b.add_page(b"\n".join(ops), {"Font": {"F1": text, "F2": symbol}})
    md = pdfthin.open(b.build()).pages[0].markdown
    assert md.splitlines()[2:] == ["- " + item.decode() for item in items]


def test_a_private_use_glyph_before_signs_opens_no_list_item() -> None:
    # A formula's large brace (a math font's glyph in the private use area) opens lines of
    # signs and figures: no item.
    runs = [run("\uf8f1", 72, 100), *words(". 2 = x", 84, 100)]
    runs += [run("\uf8f2", 72, 112), *words("∂x ∂u", 84, 112)]
    (md,) = markdown(page(runs))
    assert not any(line.startswith("- ") for line in md.splitlines())


def test_a_list_item_goes_on_under_its_text_after_a_short_line() -> None:
    # The item's third line stops short (a word broken at the line's end), the next line
    # goes on under the item's text, not under its bullet: the same item.
    runs = [run("•", 72, 100), *words("Powerful, since its technology speeds the backup", 85, 100)]
    runs += words("process up in a network, giving you a reliable", 85, 112)
    runs += words("backup in a short time. Its multi-", 85, 124)
    runs += words("threaded feature allows many backups at once.", 85, 136)
    (md,) = markdown(page(runs))
    assert md.count("- ") == 1 and "multi-threaded" in md and "\n\n" not in md


@pytest.mark.parametrize("mark", ["1.", "A.", "(b)", "•"])
def test_a_numbered_item_keeps_its_ragged_lines(mark: str) -> None:
    """Ragged lines of an item hanging from its mark: the first stops two ems and more short
    of the next, whose first word had no room there (the measure broke it), and a middle
    line stops short of the ones around it. One item, whatever its mark."""
    lines = [
        "the first line of the item stops short of the next",  # 51 characters
        "mainframe computers and their terminals share a line of",  # 56, "mainframe" 9
        "copper between them all,",
        "spelled out in a long line under the item's text again.",
    ]
    runs = [run(mark, 50, 100)]
    for i, text in enumerate(lines):
        runs += words(text, 68, 100 + 12 * i)
    (md,) = markdown(page(runs))
    assert md.count("\n\n") == 0, md
    first = md.splitlines()[0]
    assert first.endswith(lines[0]) and first.startswith(("- ", mark)), md


@pytest.mark.parametrize("mark", ["1.", "•"])
def test_a_later_items_ragged_first_line_keeps_its_next(mark: str) -> None:
    # Items set one under another (one block): the second item's first line stops short,
    # the measure broke it (its next word had no room), and its next line hangs under its
    # text. That line is the second item's, as it would be the first's.
    first = [
        "the first item runs across the whole measure of the list",
        "and its second line goes on under its text to the end.",
    ]
    second = [
        "the second item stops short of its next word",  # 44 characters
        "characteristics, which had no room at its end above.",
    ]
    runs = [run(mark, 50, 100)]
    runs += words(first[0], 68, 100) + words(first[1], 68, 112)
    runs += [run("2." if mark == "1." else mark, 50, 124)]
    runs += words(second[0], 68, 124) + words(second[1], 68, 136)
    (md,) = markdown(page(runs))
    assert md.endswith(f"{second[0]}\n  {second[1]}"), md


def test_a_numbered_line_the_author_ended_keeps_its_indented_paragraph_apart() -> None:
    # "1. Scope" stops where the next line's first word had room: the author ended it, and
    # the indented lines under it are a paragraph of their own, not the item's.
    runs = words("1. Scope", 50, 100)
    runs += words("the paragraph opens with an indent, as this one does,", 68, 112)
    runs += words("and runs on across the whole column for a few lines until", 50, 124)
    runs += words("it ends here.", 50, 136)
    (md,) = markdown(page(runs))
    head, paragraph = md.split("\n\n")
    assert head.endswith("1. Scope") and paragraph.startswith("the paragraph opens"), md


def test_a_nested_item_after_a_short_line_keeps_what_hangs_under_it() -> None:
    # "i)" and "ii)" nested under "3." (a short line before each), the lines of an equation
    # hanging under "ii)"'s text: they go on with "ii)", not with the item above it.
    runs = words("3. the group acts on itself by conjugation, and so on", 50, 100)
    runs += words("i) the unit acts as the identity", 80, 112)
    runs += words("ii) the product acts as the two in turn =", 80, 124)
    runs += words("= the first applied to the second", 110, 136)
    runs += words("= the composition of the two maps", 110, 148)
    (md,) = markdown(page(runs))
    lines = md.splitlines()
    at = next(i for i, ln in enumerate(lines) if "ii)" in ln)
    assert lines[at + 1 : at + 3] == [
        "  = the first applied to the second",
        "  = the composition of the two maps",
    ] or [ln.strip() for ln in lines[at + 1 : at + 3]] == [
        "= the first applied to the second",
        "= the composition of the two maps",
    ], md
    assert "\n\n" not in "\n".join(lines[at:]), md


def test_a_signed_number_is_no_bullet_for_the_lines_under_it() -> None:
    # A chart's axis: "-50" is a minus sign, not a bullet, so the label indented under it
    # is no line of an item, although "-50" leaves no room for its first word.
    runs = [run("-50", 50, 100), run("Jan-08", 57, 112)]
    layout = layout_page(page(runs))
    assert [b.text for b in layout.blocks] == ["-50", "Jan-08"]


def test_two_markers_before_an_items_text_read_with_it() -> None:
    # "-" then "a)" then the words, each set apart, on three rows: one line each, whatever
    # order the runs come in.
    runs: list[TextRun] = []
    for i, mark in enumerate(["a)", "b)", "c)"]):
        y = 100 + 12 * i
        runs += [run("-", 72, y), run(mark, 90, y), *words("the item text goes here", 110, y)]
    for ordered in (runs, runs[::-1]):
        texts = [ln.text for ln in build_lines(ordered)]
        assert texts == [f"- {m} the item text goes here" for m in ("a)", "b)", "c)")]


# --- A page's head drawn after its body -------------------------------------------------------


def _drawn(runs: list[TextRun], first: int = 0) -> list[TextRun]:
    """``runs`` in drawing order from ``first`` on (their ``seq``)."""
    return [dataclasses.replace(r, seq=first + k) for k, r in enumerate(runs)]


PARAGRAPHS = [
    [f"paragraph {p} line {i} of the body text of this page, set as prose" for i in range(3)]
    for p in range(3)
]


def _body(y: float = 140.0) -> list[TextRun]:
    runs: list[TextRun] = []
    for lines in PARAGRAPHS:
        for text in lines:
            runs += words(text, 72, y)
            y += 12
        y += 10
    return runs


def test_a_title_drawn_after_the_text_it_heads_comes_first() -> None:
    # The page draws its body, then its title and byline above it: read as drawn, the title
    # came last.
    body = _drawn(_body())
    head = _drawn([*words("A History of the Valley", 72, 100, 18.0)], len(body))
    byline = _drawn(words("Jane Doe, Valley Historical Society", 72, 120), len(body) + 9)
    (md,) = markdown(page(body + head + byline))
    lines = [ln for ln in md.splitlines() if ln]
    assert lines[0] == "# A History of the Valley"
    assert lines[1] == "Jane Doe, Valley Historical Society"
    assert lines[2].startswith("paragraph 0 line 0")


def test_a_title_drawn_after_a_footer_keeps_the_columns_under_it_in_order() -> None:
    # Word draws the page number first, then the title and the two columns, each in reading
    # order: everything after the title lies above the footer, and goes first in the order
    # of the columns (not by height, which read the right column's top before the left
    # column's second paragraph).
    folio = _drawn(words("1", 300, 760))
    head = _drawn(words("Title of the Paper", 72, 90, 24.0), len(folio))
    left: list[TextRun] = []
    for p, top in ((0, 130.0), (1, 200.0)):
        for i in range(4):
            left += words(f"left paragraph {p} line {i} runs on here", 72, top + 12 * i)
    right: list[TextRun] = []
    for i in range(8):
        right += words(f"right paragraph line {i} runs on here", 330, 130 + 12 * i)
    body = _drawn(left + right, len(folio) + len(head))
    (md,) = markdown(page(folio + head + body))
    at = md.index
    assert at("# Title of the Paper") < at("left paragraph 0 line 0")
    assert at("left paragraph 0 line 3") < at("left paragraph 1 line 0")
    assert at("left paragraph 1 line 3") < at("right paragraph line 0")


def test_a_heading_beside_text_drawn_before_it_stays_where_it_is_read() -> None:
    # Two columns: the first begins with a short line level with the second's heading, drawn
    # first. The heading is not moved before the first column.
    left = words("ning of a word", 72, 100)
    left += [
        w for i in range(9) for w in words(f"the first column line {i} runs on", 72, 112 + 12 * i)
    ]
    left = _drawn(left)
    right = [*words("II. A Heading", 330, 100, 14.0)]
    right += [
        w for i in range(6) for w in words("the second column's text runs on", 330, 116 + 12 * i)
    ]
    (md,) = markdown(page(left + _drawn(right, len(left))))
    lines = [ln for ln in md.splitlines() if ln]
    assert lines[0] == "ning of a word"


# --- A form's labels with their values a tab after them -----------------------------------------

_FORM = [
    ("Name:", "Adaeze Okafor"),
    ("Date of birth:", "14 March 1991"),
    ("Next of kin:", "Chidi Okafor"),
]


@pytest.mark.parametrize("tab", [True, False])
def test_a_label_and_its_value_a_tab_after_it_are_one_line(tab: bool) -> None:
    # Each value 2 ems after its own label (ragged): one line each. The same values set at
    # one place down the rows are a column: the pieces stay apart for the table rules.
    runs: list[TextRun] = []
    for i, (label, value) in enumerate(_FORM):
        start = 72 + len(label) * CHAR_W + 20 if tab else 160
        runs += [*words(label, 72, 100 + 14 * i, bold=True), *words(value, start, 100 + 14 * i)]
    texts = [ln.text for ln in build_lines(runs)]
    joined = [f"{label} {value}" in texts for label, value in _FORM]
    assert joined == [tab] * len(_FORM), texts


def test_running_text_before_a_colon_does_not_take_what_follows_on_its_row() -> None:
    # A sentence ending in a colon, a displayed formula two ems after it: no form's label.
    runs = [*words("and for every index set I and all sets U in T we have:", 72, 100)]
    runs += words("U1 ∪ U2 ∈ T", runs[-1].x1 + 20, 100)
    texts = [ln.text for ln in build_lines(runs)]
    assert "U1 ∪ U2 ∈ T" in texts, texts


# --- The body size of a page that is mostly a table -------------------------------------------


def test_a_title_over_a_table_is_a_heading() -> None:
    # The title is the only text outside the table: the body size is the table's, and the
    # larger bold title is a heading (its year is no page number).
    runs = words("Annual report 2024", 72, 60, size=14, bold=True)
    runs += words("(in thousands of euros)", 72, 80, size=12)  # a note in brackets: no heading
    rows = [("Revenue", "1,234"), ("Costs", "734"), ("Profit", "500"), ("Staff", "12")]
    for i, (item, value) in enumerate(rows):
        runs += [run(item, 72, 100 + 14 * i), run("ACME", 200, 100 + 14 * i)]
        runs.append(run(value, 300, 100 + 14 * i))
    (md,) = markdown(page(runs))
    assert md.startswith("# Annual report 2024\n\n(in thousands of euros)\n"), md


def test_a_bold_heading_over_a_smaller_bold_heading_is_a_heading() -> None:
    # "Experience" (bold, 11 pt) over an entry's bold title (10 pt) over body text: two
    # levels of headings (a bold block after a bold line vetoed it at any size).
    runs = words("Experience", 72, 80, size=11, bold=True)
    runs += words("Senior Typesetter", 72, 100, bold=True)
    body = "Set forty books a year for the academic presses of the town and the country"
    for i in range(3):
        runs += words(body, 72, 116 + 12 * i)
    (md,) = markdown(page(runs))
    assert md.startswith("# Experience\n\n## Senior Typesetter\n"), md


def _cv(titles: tuple[str, str, str], under: int) -> list[TextRun]:
    """A CV: a sidebar of sections (``titles[0]`` and ``titles[1]``, bold, each over
    ``under`` short lines) level at the top with the main column's first title
    (``titles[2]``) over an entry and its text."""
    runs: list[TextRun] = []
    y = 100.0
    for title in titles[:2]:
        runs += words(title, 40, y, size=11, bold=True)
        for k in range(under):
            runs += words(f"short line {k} of it", 40, y + 14 + 12 * k, size=9)
        y += 14 + 12 * under + 20
    runs += words(titles[2], 200, 100, size=11, bold=True)
    body = "Built and ran the data platform of the company for five years, with a team of"
    for i in range(3):
        runs += words(body, 200, 114 + 12 * i, size=9)
    return runs


def test_titles_of_a_sidebars_sections_level_with_the_main_columns_are_headings() -> None:
    # "CONTACT" over the sidebar's lines, "SKILLS" under them, level with "EXPERIENCE" over
    # the main column: set alike on one row, they are no table's cells.
    (md,) = markdown(page(_cv(("CONTACT", "SKILLS", "EXPERIENCE"), 3)))
    headings = [ln for ln in md.splitlines() if ln.startswith("#")]
    assert [h.lstrip("# ") for h in headings] == ["CONTACT", "SKILLS", "EXPERIENCE"], md


@pytest.mark.parametrize(
    ("titles", "under"),
    [
        # A form's labels: ending in a colon.
        (("Agency:", "County:", "Report:"), 3),
        # Labels alike with nothing of their own under them (a form's "You" and "Spouse").
        (("You", "Spouse", "Dependents"), 0),
    ],
)
def test_labels_alike_on_a_row_are_no_sidebars_headings(
    titles: tuple[str, str, str], under: int
) -> None:
    # The two level with each other stay labels (the one under the first stands alone).
    (md,) = markdown(page(_cv(titles, under)))
    lines = md.splitlines()
    assert titles[0] in lines and titles[2] in lines, md


@pytest.mark.parametrize(
    "title, heading",
    [("(p) Methods of Compliance (AMOCs)", True), ("(Please select all that apply)", False)],
)
def test_a_bold_line_wholly_in_brackets_is_no_heading(title: str, heading: bool) -> None:
    runs = words(title, 72, 80, bold=True)
    body = "Set forty books a year for the academic presses of the town and the country"
    for i in range(3):
        runs += words(body, 72, 98 + 12 * i)
    (md,) = markdown(page(runs))
    assert md.startswith(f"# {title}\n") is heading, md


def test_labels_level_over_one_paragraph_beside_them_are_no_headings() -> None:
    # A form's "You" and "Spouse" level over one paragraph that starts under the first:
    # the paragraph is no card's text for the second (each card's text starts under its
    # title).
    runs = words("You", 50, 100, 12, True) + words("Spouse", 200, 100, 12, True)
    text = ["Check here if you or your spouse want three dollars", "to go to this fund."]
    for i, line in enumerate(text):
        runs += words(line, 50, 118 + 12 * i)
    (md,) = markdown(page(runs))
    assert "# " not in md, md


# --- Line numbers in the margin (layout/linenumbers.py) -----------------------------------------

PLEADING = [
    "The plaintiff entered into a loan agreement with the defendant",
    "and true copies of the loan documents are attached hereto.",
    "Funds were disbursed pursuant to the terms of the agreement",
    "as requested by the defendant on the dates shown there.",
    "The defendant defaulted on the terms of the agreement when",
    "the defendant failed to make the payments it required.",
]


def _numbered_page(
    pitch: float = 24.0, numbers_x: float = 40.0, extra: Sequence[TextRun] = ()
) -> list[TextRun]:
    """Ruled legal paper: lines numbered 1 to 24 down the left margin at one pitch; the text,
    double-spaced, on every other numbered line but the last few (left blank)."""
    runs: list[TextRun] = []
    for n in range(1, 25):
        y = 100 + pitch * (n - 1)
        text = f"{n}"
        runs.append(run(text, numbers_x + (2 - len(text)) * CHAR_W, y))
    for k, line in enumerate(PLEADING):
        runs += words(line, 72, 100 + pitch * 2 * k)
    return runs + list(extra)


def test_margin_line_numbers_join_their_lines_and_blank_lines_numbers_go() -> None:
    # Set apart in the margin, each number was a paragraph of its own: it joins the line of
    # text on its baseline; the numbers of blank lines are left out.
    layout = layout_page(page(_numbered_page()))
    (md,) = markdown(page(_numbered_page()))
    lines = [ln for ln in md.splitlines() if ln]
    assert [ln for ln in lines if ln.strip().isdigit()] == []
    assert lines[0] == "1 " + PLEADING[0]
    assert lines[1] == "3 " + PLEADING[1]
    assert lines[5] == "11 " + PLEADING[5]
    left_out = [*range(2, 13, 2), *range(13, 25)]
    assert [ln.text for ln in layout.line_numbers] == [str(n) for n in left_out]


def test_a_margin_number_goes_before_its_rows_list_marker() -> None:
    # "a)" and its item's text are one line once the row is read: the number goes before
    # the marker, not between it and its text.
    runs = _numbered_page()
    for k, (marker, item) in enumerate([("a)", "the first particular"), ("b)", "the second one")]):
        y = 100 + 24 * (13 + 2 * k)
        runs += [run(marker, 110, y), *words(f"{item} of the list", 130, y)]
    lines = markdown(page(runs))[0].splitlines()
    assert "14 a) the first particular of the list" in lines
    assert "16 b) the second one of the list" in lines


def test_line_numbers_that_start_their_lines_stay() -> None:
    # The numbers a space before the text (a transcript): each starts its line; the blank
    # numbered lines after the text go.
    runs: list[TextRun] = []
    for n in range(1, 25):
        runs.append(run(f"{n}", 50 + (2 - len(str(n))) * CHAR_W, 100 + 24 * (n - 1)))
    for k, line in enumerate(PLEADING):
        runs += words(line, 64, 100 + 24 * k)
    (md,) = markdown(page(runs))
    lines = [ln for ln in md.splitlines() if ln]
    assert lines[0] == "1 " + PLEADING[0]
    assert lines[5] == "6 " + PLEADING[5]
    assert "7" not in lines and "24" not in lines


def test_line_numbers_in_the_right_margin_end_their_lines() -> None:
    runs: list[TextRun] = []
    for n in range(1, 25):
        runs.append(run(f"{n}", 520, 100 + 24 * (n - 1)))
    for k, line in enumerate(PLEADING):
        runs += words(line, 72, 100 + 48 * k)
    # Each number on a line of text is that row's last piece, at its end; those of blank
    # lines go, and only those are reported as left out.
    lines = [ln for ln in markdown(page(runs))[0].splitlines() if ln]
    assert lines[0] == PLEADING[0] + " 1"
    assert lines[5] == PLEADING[5] + " 11"
    assert [ln for ln in lines if ln.strip().isdigit()] == []
    left_out = [ln.text for ln in layout_page(page(runs)).line_numbers]
    assert left_out == [str(n) for n in [*range(2, 13, 2), *range(13, 25)]]


def test_numbers_with_text_further_out_stay() -> None:
    # A form's numbered lines: its title starts left of them, in the margin they would have.
    title = words("Form 160 certificate of salary", 5, 60)
    (md,) = markdown(page(_numbered_page(extra=title)))
    assert [ln for ln in md.splitlines() if ln.strip() == "2"]


def test_numbers_at_an_uneven_pitch_stay() -> None:
    runs = _numbered_page()
    runs = [
        dataclasses.replace(r, y0=r.y0 + 3 * (k % 3), y1=r.y1 + 3 * (k % 3)) if k < 24 else r
        for k, r in enumerate(runs)
    ]
    (md,) = markdown(page(runs))
    assert [ln for ln in md.splitlines() if ln.strip() == "3"]


# A paragraph of a filing, set on every numbered line of ruled paper (double-spaced).
FILING = textwrap.wrap(
    "On or about the date of the collision the plaintiff was a passenger in a vehicle that "
    "was stopped at the intersection when the defendant, who was driving directly behind "
    "it at full speed while using a handheld telephone, collided with the vehicle and "
    "caused extensive damage to its front and rear and injuries to the plaintiff which "
    "have required medical care and therapy for many months and may be permanent in "
    "nature as the physicians who treated her have stated in their reports to the court "
    "and to the insurer of the defendant in the months since the collision occurred.",
    70,
)


def _filing_page(text: dict[int, str], last: int = 24) -> list[TextRun]:
    """Ruled paper numbered 1 to ``last`` at a pitch of 24 (2.4 ems of the text): ``text``
    on the numbered lines it names, the others left blank."""
    runs: list[TextRun] = []
    for n in range(1, last + 1):
        y = 100 + 24 * (n - 1)
        runs.append(run(f"{n}", 40 + (2 - len(str(n))) * CHAR_W, y))
        if n in text:
            runs += words(text[n], 72, y)
    return runs


def test_a_double_spaced_paragraph_on_numbered_lines_reads_whole() -> None:
    # Each line starts with its margin number: whether the measure broke the line above is
    # asked of the word after the number ("the" had no room), not of the number ("7" had).
    assert len(FILING) >= 8
    (md,) = markdown(page(_filing_page(dict(enumerate(FILING, start=1)))))
    paragraphs = [p for p in md.split("\n\n") if p.strip()]
    expected = "\n".join(f"{n} {line}" for n, line in enumerate(FILING, start=1))
    assert expected in paragraphs


def test_a_numbered_lines_capitals_are_no_numbered_heading() -> None:
    # Only a few lines of a caption carry text (the rest of the page's numbers are blank
    # lines): the page still numbers its lines, and "6 IN THE CIRCUIT COURT" is line 6,
    # not section 6.
    caption = {6: "IN THE CIRCUIT COURT OF THE STATE OF OREGON", 9: "ASHLEY MARTIN, Plaintiff,"}
    caption |= {11: "vs.", 13: "P. & C. CONSTRUCTION CO., Defendants."}
    body = dict(enumerate(FILING[:4], start=16))
    (md,) = markdown(page(_filing_page(caption | body)))
    assert "6 IN THE CIRCUIT COURT OF THE STATE OF OREGON" in md.splitlines()
    assert not [ln for ln in md.splitlines() if ln.startswith("#")]


def test_a_paragraph_indented_after_its_margin_number_starts_a_block() -> None:
    # Single-spaced numbered lines (a transcript): every line starts at the numbers, so the
    # indent that opens a paragraph is the text's, after its number.
    runs: list[TextRun] = []
    first, second = FILING[:3], FILING[3:6]
    texts = [*first[:-1], first[-1][:30], *second]
    for n, text in enumerate(texts, start=1):
        y = 100 + 12 * (n - 1)
        runs.append(run(f"{n}", 40 + (2 - len(str(n))) * CHAR_W, y))
        runs += words(text, 102 if n == len(first) + 1 else 72, y)
    for n in range(len(texts) + 1, 25):  # blank numbered lines
        runs.append(run(f"{n}", 40 + (2 - len(str(n))) * CHAR_W, 100 + 12 * (n - 1)))
    (md,) = markdown(page(runs))
    paragraphs = [p for p in md.split("\n\n") if p.strip()]
    assert paragraphs[0].splitlines()[-1] == f"3 {first[-1][:30]}"
    assert paragraphs[1].splitlines()[0] == f"4 {second[0]}"
