"""Headings: numbering, size, look and slides, on synthetic pages and on real papers.

The synthetic pages place words the way tests/test_layout.py does (10 pt body text, 12 pt
leading, a fixed advance per character), with a font name and italics where a test needs them.
The corpus checks name concrete headings of real PDFs and compare with their own bookmarks.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

import pytest
from conftest import CORPUS, CorpusFile, corpus_files, require_corpus

from pdfthin.engine.types import PageContent, TextRun
from pdfthin.layout import finish_document, layout_page
from pdfthin.layout.headings import is_caps, numbering
from pdfthin.model.markdown import render_blocks

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")

CHAR_W = 5.0
BODY = "Times-Roman"


def words(
    line: str,
    x: float,
    y: float,
    size: float = 10.0,
    bold: bool = False,
    italic: bool = False,
    font: str = BODY,
) -> list[TextRun]:
    """One run per word on the baseline ``y``, a normal word space apart."""
    out = []
    for word in line.split():
        width = len(word) * CHAR_W * size / 10.0
        out.append(
            TextRun(word, x, y - 0.8 * size, x + width, y + 0.2 * size, size, font, bold, italic)
        )
        x += width + 0.3 * size
    return out


def paragraph(y: float, lines: int = 4, x: float = 50) -> list[TextRun]:
    runs: list[TextRun] = []
    for i in range(lines):
        runs += words(f"Running text of the body line {i} that goes on and on", x, y + 12 * i)
    return runs


def page(
    runs: list[TextRun], number: int = 1, width: float = 612, height: float = 792
) -> PageContent:
    return PageContent(number=number, width=width, height=height, rotation=0, runs=runs)


def markdown(*pages: PageContent) -> list[str]:
    layouts = [layout_page(p) for p in pages]
    finish_document(layouts)
    return [render_blocks(lay.blocks) for lay in layouts]


def headings(md: str) -> list[tuple[int, str]]:
    out = []
    for line in md.splitlines():
        m = re.match(r"^(#{1,6}) (.*)$", line)
        if m:
            out.append((len(m.group(1)), m.group(2)))
    return out


# --- numbering --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "depth"),
    [
        ("3 Results", "arabic", 1),
        ("2.3 Methods", "arabic", 2),
        ("2.1. Effelsberg observations", "arabic", 2),
        ("4.2.1 Flächeninhalt", "arabic", 3),
        ("IV. TEXT DATA", "roman", 1),
        ("III-A Google DeepDream", "roman", 2),
        ("III-A1 Accuracy", "roman", 3),
        ("A. Allowed classes", "letter", 1),
        ("A.1 Proofs", "letter", 2),
        ("Chapter 3: Methods", "word", 1),
        ("PART II - OBLIGATIONS", "word", 0),
    ],
)
def test_numbering_kind_and_depth(text: str, kind: str, depth: int) -> None:
    found = numbering(text)
    assert found is not None
    assert (found.kind, found.depth) == (kind, depth)


@pytest.mark.parametrize(
    "text", ["A Survey of Segmentation", "In 1928, a cartoon", "IV drip", "Introduction"]
)
def test_not_numbered(text: str) -> None:
    assert numbering(text) is None


def test_small_caps_read_as_capitals() -> None:
    assert is_caps("I. INTRODUCTION")
    assert not is_caps("I. Introduction")


# --- synthetic pages ------------------------------------------------------------------------


def test_ieee_sections_small_caps_italic_subsections_and_run_ins() -> None:
    """Body-size headings told by numbering alone: Roman caps sections, italic lettered
    subsections, "1) Title:" run-ins; depth by numbering, not by size."""
    runs = words("I. INTRODUCTION", 120, 60, size=8)
    runs += paragraph(80)
    runs += words("II. RELATED WORK", 120, 150)
    runs += paragraph(170)
    runs += words("A. Allowed classes", 50, 240, italic=True)
    runs += paragraph(260)
    runs += words("1) Accuracy: Showing the correctness of the segmentation", 60, 330)
    runs += paragraph(342, lines=3)
    runs += words("2) Speed: A maximum upper bound on the execution time", 60, 390)
    runs += paragraph(402, lines=3)
    runs += words("REFERENCES", 140, 460, size=8)
    runs += words("[1] A. Author, a reference that runs on to the next line, 2016.", 50, 480)
    (md,) = markdown(page(runs))
    found = headings(md)
    assert (1, "I. INTRODUCTION") in found
    assert (1, "II. RELATED WORK") in found
    assert (2, "A. Allowed classes") in found
    assert (3, "1) Accuracy:") in found
    assert (3, "2) Speed:") in found
    # The look of the numbered sections makes "REFERENCES" one of them.
    assert (1, "REFERENCES") in found
    # The run-in's paragraph keeps its words.
    assert "Showing the correctness of the segmentation" in md


def test_numbered_depth_sets_levels_under_a_larger_title() -> None:
    runs = words("A Study of Things", 50, 60, size=20, bold=True)
    runs += words("1 Introduction", 50, 100, size=12, bold=True)
    runs += paragraph(120)
    runs += words("1.1 Background", 50, 190, bold=True)
    runs += paragraph(210)
    runs += words("2 Methods", 50, 280, size=12, bold=True)
    runs += paragraph(300)
    runs += words("Acknowledgments", 50, 370, size=12, bold=True)
    runs += paragraph(390)
    (md,) = markdown(page(runs))
    assert headings(md) == [
        (1, "A Study of Things"),
        (2, "1 Introduction"),
        (3, "1.1 Background"),
        (2, "2 Methods"),
        (2, "Acknowledgments"),  # unnumbered, in the look of the numbered sections
    ]


def test_numbered_line_then_paragraph_is_a_heading_but_a_numbered_run_is_a_list() -> None:
    runs = words("2.3 Methods", 50, 60)
    runs += paragraph(80)
    for i, item in enumerate(["1. Apples", "2. Pears", "3. Plums"]):
        runs += words(item, 50, 160 + 12 * i)
    runs += paragraph(210)
    (md,) = markdown(page(runs))
    assert headings(md) == [(1, "2.3 Methods")]
    assert "1. Apples" in md.splitlines()


@pytest.mark.parametrize(
    ("title", "heading"),
    [
        ("3.3 H.E.S.S.", True),  # an abbreviation's period ends the title
        ("2.1 e-MERLIN detection of the source", True),  # a name in lower case first
        ("4.2 mRNA stability", True),
        ("3.3 The dose was doubled.", False),  # a sentence's period
        ("2.1 each source was detected", False),  # a sentence's first word
        ("1 zMij cos tz", False),  # a formula's letters after an equation's number
    ],
)
def test_numbered_title_shape_names_and_abbreviations(title: str, heading: bool) -> None:
    runs = paragraph(60)
    runs += words(title, 50, 130, italic=True)
    runs += paragraph(150)
    (md,) = markdown(page(runs))
    assert [text for _, text in headings(md)] == ([title] if heading else [])


@pytest.mark.parametrize(
    "line",
    [
        # A formula's line set apart in TeX's bold face (under a sum, its vector in cmbx).
        "piEi(x). (2)",
        # A bold sentence that ends in an abbreviation.
        "All of it was made in the U.S.A.",
    ],
)
def test_an_unnumbered_line_opening_like_a_name_or_ending_in_capitals_is_no_heading(
    line: str,
) -> None:
    # Only after a section number does a first word with a capital inside read as a name,
    # and dotted capitals at the end as an abbreviation in a title.
    runs = paragraph(60)
    runs += words(line, 321 - 2.5 * len(line), 130, font="CMBX10")
    runs += paragraph(150)
    (md,) = markdown(page(runs))
    assert headings(md) == []


@pytest.mark.parametrize(
    ("label", "gap", "joined"),
    [
        ("Chapter 1", 40, True),  # over its title, two lines apart: one heading
        ("PART II", 60, True),
        ("Chapter 1", 200, False),  # far above: other things
    ],
)
def test_a_chapters_label_over_its_title_is_one_heading(
    label: str, gap: float, joined: bool
) -> None:
    # A book's chapter opening: "Chapter 1" in large type over "Introduction" in larger, the
    # sections under it numbered "1.1". One heading, at the chapter's depth, over "1.1".
    runs = words(label, 50, 100, size=20, bold=True)
    runs += words("Introduction", 50, 100 + gap, size=24, bold=True)
    runs += paragraph(100 + gap + 40)
    runs += words("1.1 What it is", 50, 100 + gap + 110, size=14, bold=True)
    runs += paragraph(100 + gap + 140)
    (md,) = markdown(page(runs))
    found = headings(md)
    if joined:
        assert found == [(1, f"{label} Introduction"), (2, "1.1 What it is")]
    else:
        assert (label in [t for _, t in found]) and ("Introduction" in [t for _, t in found])


def test_a_chapters_title_takes_the_chapters_depth_whatever_its_size() -> None:
    # Sphinx's PDF: "CHAPTER 1" over "Compilation" in 14 pt, its sections "1.1 ..." in 17:
    # the chapter still stands over its sections.
    runs = words("CHAPTER 1", 50, 100, size=14, bold=True)
    runs += words("Compilation", 50, 170, size=14, bold=True)
    runs += paragraph(210)
    runs += words("1.1 Compiling it", 50, 280, size=17, bold=True)
    runs += paragraph(310)
    runs += words("1.1.1 Options", 50, 380, size=12, bold=True)
    runs += paragraph(410)
    (md,) = markdown(page(runs))
    assert headings(md) == [
        (1, "CHAPTER 1 Compilation"),
        (2, "1.1 Compiling it"),
        (3, "1.1.1 Options"),
    ]


def test_a_chapters_label_over_a_numbered_heading_stays_apart() -> None:
    runs = words("Chapter 1", 50, 100, size=20, bold=True)
    runs += words("1.1 What it is", 50, 140, size=14, bold=True)
    runs += paragraph(180)
    (md,) = markdown(page(runs))
    assert [t for _, t in headings(md)] == ["Chapter 1", "1.1 What it is"]


def test_hanging_section_number_joins_its_title() -> None:
    runs = words("6.2.1.", 50, 100, bold=True)
    runs += words("Core subject teachers", 100, 100, bold=True)
    runs += paragraph(120)
    runs += words("6.2.2.", 50, 190, bold=True)
    runs += words("Vocational subject teachers", 100, 190, bold=True)
    runs += paragraph(210)
    (md,) = markdown(page(runs))
    assert headings(md) == [
        (1, "6.2.1. Core subject teachers"),
        (1, "6.2.2. Vocational subject teachers"),
    ]


def test_heading_line_kept_with_its_paragraph_is_split_off() -> None:
    """A heading line a little larger, or in another face, than the paragraph it sits on
    (close enough for the block builder to keep them together) is still a heading; the
    lines of the page stay as they were."""
    runs = words("5.1 Hyper Parameter Optimization", 50, 60, font="SFBX1000")
    runs += words("We have chosen the data set to perform the optimization, since it", 50, 72)
    runs += words("includes a highly diverse set of tables with many cell spans.", 50, 84)
    runs += words("Boots Self-Locking Nut", 50, 120, italic=True)
    runs += words("The Boots self-locking nut is of one piece, all-metal construction", 50, 132)
    runs += words("designed to hold tight despite severe vibration in service.", 50, 144)
    (md,) = markdown(page(runs))
    found = headings(md)
    assert (1, "5.1 Hyper Parameter Optimization") in found
    assert [t for _, t in found][-1] == "Boots Self-Locking Nut"
    assert "We have chosen the data set" in md


def test_a_paragraph_opening_in_another_face_stays_whole() -> None:
    runs = words("In this work we show", 50, 60, italic=True)
    runs += words("that the paragraph goes on in the body face for a while longer and", 50, 72)
    runs += words("ends here after two more lines of running text in the same face.", 50, 84)
    (md,) = markdown(page(runs))
    assert headings(md) == []
    assert "In this work we show\nthat the paragraph" in md


def _placed_title(x: float, font: str, title: str = "Recorded Music") -> list[TextRun]:
    """A paragraph, ``title`` at ``x`` in ``font`` at the body size, and a paragraph, with
    space between (the paragraphs' measure runs from x = 50 to 283: centred, "Recorded Music"
    starts at 132.5)."""
    runs = paragraph(60)  # lines at y = 60 ... 96
    runs += words(title, x, 124, font=font)
    runs += paragraph(150)
    return runs


def test_a_centred_line_in_another_face_set_apart_is_a_heading() -> None:
    """A book's section title at the body size: its own typeface, centred over the
    paragraph it opens, space above and below it (freeculture.pdf's "Film")."""
    (md,) = markdown(page(_placed_title(132.5, "Courier")))
    assert headings(md) == [(1, "Recorded Music")]


@pytest.mark.parametrize(
    ("x", "font", "title"),
    [
        (50, "Courier", "Recorded Music"),  # flush left: a label, a line of code
        (132.5, BODY, "Recorded Music"),  # the body's own face: a centred line of the text
        (71, "Courier", "Recorded Music of the Early Years in Town"),  # most of the measure
    ],
)
def test_a_line_short_of_a_placed_title_is_not_a_heading(x: float, font: str, title: str) -> None:
    (md,) = markdown(page(_placed_title(x, font, title)))
    assert headings(md) == []
    assert title in md


def test_theorem_labels_are_not_headings() -> None:
    runs: list[TextRun] = []
    # (a standard's "NOTE 2", opening its note's text)
    for i, label in enumerate(["Definition 2", "Satz 1.3", "Proof.", "NOTE 2"]):
        runs += words(label, 50, 60 + 80 * i, bold=True)
        runs += paragraph(75 + 80 * i)
    (md,) = markdown(page(runs))
    assert headings(md) == []


def test_labels_of_a_form_are_not_headings() -> None:
    """Many short blocks in one look on a page are the fields of a form, however large."""
    runs = words("Application for a Certificate", 50, 40, size=18, bold=True)
    labels = ["Surname", "Given name", "Date of Birth", "Postcode", "Suburb", "State"]
    labels += ["Country", "Phone", "Mobile", "Email Address"]
    for i, label in enumerate(labels):
        runs += words(label, 50, 100 + 30 * i, size=12)
    runs += paragraph(450, lines=12, x=50)
    (md,) = markdown(page(runs))
    assert headings(md) == [(1, "Application for a Certificate")]


def test_parenthesised_numbers_in_a_caseless_script() -> None:
    runs = words("1 이슈와 논점", 50, 40, size=14, bold=True)
    runs += paragraph(60)
    runs += words("(1) 감염병의 예방 및 관리에 관한 법률 개정", 50, 130, size=11)
    runs += paragraph(145)
    (md,) = markdown(page(runs))
    assert headings(md) == [(1, "1 이슈와 논점"), (2, "(1) 감염병의 예방 및 관리에 관한 법률 개정")]


def test_a_title_page_has_one_heading() -> None:
    """Title, author and publisher in three sizes on a page of their own: one heading."""
    cover = words("FREE CULTURE", 120, 150, size=34)
    cover += words("LAWRENCE LESSIG", 150, 300, size=17)
    cover += words("THE PENGUIN PRESS", 160, 500, size=13, bold=True)
    body = [
        page(words("Preface", 50, 100, size=15) + paragraph(130, lines=20), n) for n in (2, 3, 4)
    ]
    found = [headings(md) for md in markdown(page(cover, 1), *body)]
    assert found[0] == [(1, "FREE CULTURE")]
    assert found[1] == [(2, "Preface")]


def test_captions_table_cells_and_run_in_phrases_are_not_headings() -> None:
    runs = words("Figure 2: Distribution of pages across categories.", 50, 60, bold=True)
    runs += paragraph(80)
    # A bold header row of a table: short cells side by side.
    for x, cell in ((50, "Name"), (200, "Quantity"), (350, "Price")):
        runs += words(cell, x, 150, bold=True)
    for x, cell in ((50, "apple"), (200, "3"), (350, "1.20")):
        runs += words(cell, x, 164)
    runs += paragraph(200)
    # A bold phrase that opens a paragraph.
    runs += words("Type specialization. In JavaScript, names", 50, 270, bold=True)
    runs += paragraph(282)
    (md,) = markdown(page(runs))
    assert headings(md) == []


def _phrases(y: float, *parts: tuple[str, bool]) -> list[TextRun]:
    """One line made of phrases, bold or not, a word space apart."""
    x, out = 50.0, []
    for text, bold in parts:
        runs = words(text, x, y, bold=bold)
        out += runs
        x = runs[-1].x1 + 3.0
    return out


@pytest.mark.parametrize("head", ["Threat Model and Security Assumptions", "Threat Model."])
def test_a_bold_phrase_running_into_its_paragraph_is_not_a_heading(head: str) -> None:
    """A bold phrase opens the first line of a paragraph and the line fills the column: the
    sentence is text, not a heading (with or without a period after the phrase)."""
    runs = _phrases(60, (head, True), ("In this work, we consider an attacker", False))
    runs += words("who controls the network and can read and change all the messages", 50, 72)
    runs += words("that the parties send to each other over the course of a session.", 50, 84)
    runs += paragraph(120)
    (md,) = markdown(page(runs))
    assert headings(md) == []
    # One paragraph, as printed.
    assert f"{head} In this work, we consider an attacker\nwho controls the network" in md


def test_a_bold_line_set_apart_over_its_paragraph_is_still_a_heading() -> None:
    """The same bold words as a line of their own, with space below: a heading."""
    runs = words("Threat Model and Security Assumptions", 50, 60, bold=True)
    runs += words("In this work, we consider an attacker who controls the network and", 50, 80)
    runs += words("can read and change all the messages the parties send each other.", 50, 92)
    (md,) = markdown(page(runs))
    assert headings(md) == [(1, "Threat Model and Security Assumptions")]


@pytest.mark.parametrize("title", ["Summary Statistics", "Summary Statistics:"])
def test_a_bold_line_over_short_label_lines_is_still_a_heading(title: str) -> None:
    """Lines of labels and values give no measure of running text to run on into, and a
    line that ends its sentence was not cut by one."""
    runs = paragraph(40)
    runs += words(title, 50, 100, bold=True)
    runs += words("Total Cost: $4,287.50", 50, 112)
    runs += words("Critical Items: 1", 50, 124)
    (md,) = markdown(page(runs))
    assert headings(md) == [(1, title)]


@pytest.mark.parametrize(
    ("line", "size", "bold"),
    [
        ("f(x) = ax + b", 12, False),  # a display formula set a little larger
        ("x ← y + 1", 12, False),  # a pseudo-code assignment
        ("for i = 1 to n do", 12, False),
        ("Input: A graph G = (V, E)", 10, True),  # an algorithm's bold header line
    ],
)
def test_formulas_and_pseudo_code_are_not_headings(line: str, size: float, bold: bool) -> None:
    runs = paragraph(60)
    runs += words(line, 120, 125, size=size, bold=bold)
    runs += paragraph(145)
    (md,) = markdown(page(runs))
    assert headings(md) == []


@pytest.mark.parametrize(
    "title", ["The E = mc2 Story of Modern Physics", "x86 \u2192 ARM Migration"]
)
def test_a_title_with_an_operator_in_it_is_still_a_heading(title: str) -> None:
    runs = words(title, 50, 60, size=16, bold=True)
    runs += paragraph(90)
    (md,) = markdown(page(runs))
    assert headings(md) == [(1, title)]


@pytest.mark.parametrize(
    ("note", "bold"),
    [("1 EQUAL CONTRIBUTION", False), ("2 Department of Physics", True), ("* SEE APPENDIX", True)],
)
def test_footnotes_at_the_foot_of_the_page_are_not_headings(note: str, bold: bool) -> None:
    """Small text at the foot of the page opening with a note mark, nothing of body size
    below it: a footnote, however it is set."""
    runs = paragraph(60, lines=25) + words(note, 50, 680, size=8, bold=bold)
    md, _ = markdown(page(runs), page(paragraph(60, lines=25), number=2))
    assert headings(md) == []
    assert note in md


def test_sideways_margin_stamp_is_not_a_heading() -> None:
    stamp = TextRun("arXiv:2201.00021v3 [astro-ph.GA] 9 Apr 2022", 18, 245, 36, 635, 20, BODY)
    runs = [stamp, *words("1. Introduction", 50, 60, bold=True), *paragraph(80)]
    (md,) = markdown(page(runs))
    assert headings(md) == [(1, "1. Introduction")]


def test_running_head_in_the_margin_is_not_a_heading() -> None:
    pages = []
    for n in range(1, 5):
        runs = words("1.1. TOPOLOGICAL SPACES", 400, 30, size=9, bold=True)
        runs += paragraph(100, lines=8)
        pages.append(page(runs, number=n))
    for md in markdown(*pages):
        assert headings(md) == []


@pytest.mark.parametrize(("head", "heading"), [("1 INTRODUCTION", True), ("3 PREFACE", False)])
def test_a_section_number_at_the_top_is_no_folio_when_the_page_prints_another(
    head: str, heading: bool
) -> None:
    # Each page prints its number at its foot. A numbered title at the top of page 3 ("1
    # INTRODUCTION") is no running head next to its folio; one whose number is the page's
    # own ("3 PREFACE") is.
    pages = []
    for n in range(1, 5):
        runs = words(head, 50, 60) if n == 3 else []
        runs += paragraph(100, lines=8)
        runs += words(str(n), 300, 760)
        pages.append(page(runs, number=n))
    md = markdown(*pages)[2]
    assert [text for _, text in headings(md)] == ([head] if heading else []), md


def test_table_of_contents_lines_are_not_headings() -> None:
    toc = words("Contents", 50, 60, size=16, bold=True)
    for i, entry in enumerate(["1 Foo 3", "1.1 Bar 4", "2 Baz 7", "2.1 Qux 9", "3 Quux 12"]):
        toc += words(entry, 50, 100 + 14 * i, bold=i % 2 == 0)
    body = words("1 Foo", 50, 60, size=16, bold=True) + paragraph(90, lines=8)
    toc_md, body_md = markdown(page(toc, 1), page(body, 2))
    assert headings(toc_md) == [(1, "Contents")]
    assert headings(body_md) == [(1, "1 Foo")]


def test_slide_titles_are_one_level() -> None:
    """Slides: the largest short text near the top of each page, all at one level, whatever
    its size."""
    slides = []
    for n, (title, size) in enumerate([("Overview", 40), ("Unclear Risk Management", 34)], 1):
        runs = words(title, 60, 70, size=size, bold=True)
        for i in range(3):
            runs += words(f"• point number {i} on this slide", 40, 160 + 40 * i, size=28)
        slides.append(page(runs, n, width=720, height=540))
    found = [headings(md) for md in markdown(*slides)]
    assert found == [[(1, "Overview")], [(1, "Unclear Risk Management")]]


def test_a_page_of_large_sentences_has_no_slide_title() -> None:
    """A page set in large type with little text reads like a slide; its lines are
    sentences, not a title (the first shaped one near the top was taken for one)."""
    runs = words("Lorem ipsum dolor sit amet,", 40, 60, size=16)
    runs += words("sed eiusmod tempor incidunt ut labore et dolore.", 40, 100, size=16)
    runs += words("Ut enim ad minim veniam, quis nostrud.", 40, 120, size=16)
    (md,) = markdown(page(runs))
    assert headings(md) == []


# --- real papers --------------------------------------------------------------------------


@cache
def _markdown(relpath: str) -> tuple[str, ...]:
    import pdfthin

    f = next(f for f in corpus_files() if f.relpath == relpath)
    doc = pdfthin.open(f.path, password=f.password)
    return tuple(p.markdown for p in doc.pages)


def _headings_of(relpath: str) -> list[tuple[int, str]]:
    return [h for md in _markdown(relpath) for h in headings(md)]


def _level(found: list[tuple[int, str]], title: str) -> int:
    return next(level for level, text in found if text == title)


def test_a_books_section_titles_set_by_typeface_and_place() -> None:
    """freeculture.pdf sets its section titles at the body size in a monospaced face,
    centred: each is a heading under its chapter's, on pages outside the profile's sample."""
    require_corpus()
    import pdfthin

    doc = pdfthin.open(str(CORPUS / "pdfjs/freeculture.pdf"))
    chapter = headings(doc.page(67).markdown)
    assert [t for _, t in chapter] == ["CHAPTER FOUR: “Pirates”", "Film"]
    assert chapter[1][0] > chapter[0][0]
    assert headings(doc.page(69).markdown) == [(chapter[1][0], "Recorded Music")]
    assert "Law: Duration" in [t for _, t in headings(doc.page(145).markdown)]


def test_ieee_paper_headings_and_levels() -> None:
    require_corpus()
    found = _headings_of("pypdf-benchmarks/1601.03642.pdf")
    section = _level(found, "I. INTRODUCTION")
    assert _level(found, "III. IMAGE DATA") == section
    assert _level(found, "A. Google DeepDream") == section + 1
    assert _level(found, "B. Artistic Style Imitation") == section + 1
    assert _level(found, "REFERENCES") == section
    # The arXiv stamp in the margin and the figure captions are not headings.
    assert not [t for _, t in found if t.startswith(("arXiv:", "Fig."))]


def test_ieee_run_in_headings_are_third_level() -> None:
    require_corpus()
    found = _headings_of("pypdf-benchmarks/1602.06541.pdf")
    subsection = _level(found, "A. Quality measures for evaluation")
    assert _level(found, "III. EVALUATION AND DATASETS") == subsection - 1
    assert _level(found, "1) Accuracy:") == subsection + 1
    assert _level(found, "2) Histogram of oriented Gradients:") == subsection + 1
    # "1) If data is linearly separable, ..." is a list item, not a run-in heading.
    assert not [t for _, t in found if t.startswith("1) If data")]


def test_astronomy_paper_numbered_sections() -> None:
    require_corpus()
    found = _headings_of("pypdf-benchmarks/2201.00021.pdf")
    section = _level(found, "1. Introduction")
    assert _level(found, "2. Observations and data reduction") == section
    assert _level(found, "2.1. Effelsberg observations and data reduction") == section + 1
    titles = [t for _, t in found]
    assert (
        "4.3. Comparison of NH3 (9,6) masers with previously published (quasi-)thermal NH3 emission"
        in titles
    )


def test_numbered_clauses_arrive_as_list_items_and_leave_as_headings() -> None:
    require_corpus()
    found = _headings_of("docling/bookmark_sample.pdf")
    assert _level(found, "1. Interpretation") == _level(found, "PART I - DEFINITIONS") + 1
    assert _level(found, "3.1 Payment Schedule") == _level(found, "3. Payment Terms") + 1


# --- against the PDFs' own bookmarks ----------------------------------------------------------

#: Outline files whose titles are in the text (the others are junk on purpose), with the
#: recall (share of bookmarks found as headings) pdfthin reaches today, rounded down.
OUTLINE_RECALL = {
    "pypdf-benchmarks/1601.03642.pdf": 0.95,
    "pypdf-benchmarks/1602.06541.pdf": 0.95,
    "pypdf-benchmarks/2201.00021.pdf": 0.9,
    "docling/bookmark_sample.pdf": 1.0,
    "sample-files/GeoTopo-komprimiert.pdf": 0.95,
    "sample-files/pdflatex-outline.pdf": 1.0,
    "olmocr-gnarly/gnarly/slideshow_mostly_images.pdf": 0.7,
}


def _normalise(title: str) -> str:
    text = unicodedata.normalize("NFKD", title).casefold()
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(re.sub(r"[^\w\s]", " ", text).split())


#: Leading section numbers ("III-A1", "2.1.", "A.", "1)"), which bookmarks often leave out.
_NUMBER = re.compile(r"^\s*(\(?([0-9]+|[ivx]+|[a-z])([.\-)][0-9a-z]*)*[.:)]?\s+)+", re.I)


def _similar(a: str, b: str) -> bool:
    from rapidfuzz import fuzz

    bare_a, bare_b = _normalise(_NUMBER.sub("", a)), _normalise(_NUMBER.sub("", b))
    return fuzz.ratio(_normalise(a), _normalise(b)) >= 85 or (
        min(len(bare_a), len(bare_b)) >= 3 and fuzz.ratio(bare_a, bare_b) >= 85
    )


def _outline(f: CorpusFile) -> list[tuple[int, str]]:
    import json

    gt = next(g for g in f.ground_truth if g.endswith(".outline.json"))
    items = json.loads((CORPUS / gt).read_text(encoding="utf-8"))["items"]
    return [(int(i["level"]), str(i["title"])) for i in items if i.get("title")]


@pytest.mark.parametrize("relpath", sorted(OUTLINE_RECALL))
def test_bookmarks_are_found_as_headings(relpath: str) -> None:
    require_corpus()
    f = next((f for f in corpus_files(has_gt="/outline/") if f.relpath == relpath), None)
    assert f is not None
    outline = _outline(f)
    predicted = [t for _, t in _headings_of(relpath)]
    found = sum(1 for _, title in outline if any(_similar(title, p) for p in predicted))
    assert found / len(outline) >= OUTLINE_RECALL[relpath]
    # Precision: most headings are bookmarks (a paper's title and a book's front matter
    # are the usual extras).
    assert len(predicted) <= 1.5 * len(outline) + 2


# --- Bylines under a title ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "byline"),
    [
        ("Miguel M. Terradas, Antoine Asselin et David Poulin-Latulippe", True),
        ("Qwen Team, Alibaba Group∗", True),
        ("John Smith¹, Jane Doe²", True),
        ("Yunus Özen a,b,n, Nihan Akın a,b, Barış Kınacı c, Süleyman Özçelik a,b", True),
        ("Anna Berg a, Karl Ode b", True),
        ("Vitamin A, Vitamin B", False),
        ("Section a, Section b", False),
        ("Ludwig van Beethoven and Wolfgang Amadeus Mozart", True),
        ("Research Design and Data Collection", False),
        ("Machine Learning, Deep Learning and Reinforcement Learning", False),
        ("Materials and Methods", False),
        ("Results*", False),
    ],
)
def test_a_byline_is_told_from_a_sections_title(text: str, byline: bool) -> None:
    from pdfthin.layout.headings import _byline

    assert _byline(text) is byline


def _title_page(byline: str, number: int = 1) -> PageContent:
    runs = words("Drawing as a Way of Knowing", 50, 80, 20.0, bold=True)
    runs += words(byline, 50, 110, 13.0)
    runs += words("Introduction", 50, 150, 13.0, bold=True)
    runs += paragraph(170)
    runs += words("Method", 50, 240, 13.0, bold=True)
    runs += paragraph(260)
    return page(runs, number)


def test_a_byline_under_the_title_is_no_heading() -> None:
    (md,) = markdown(_title_page("Miguel M. Terradas, Antoine Asselin et David Poulin-Latulippe"))
    found = [text for _, text in headings(md)]
    assert "Drawing as a Way of Knowing" in found[0]
    assert "Introduction" in found and "Method" in found
    assert not [t for t in found if "Terradas" in t]
    assert "Miguel M. Terradas, Antoine Asselin et David Poulin-Latulippe" in md


def test_names_on_a_later_page_are_not_judged_as_a_byline() -> None:
    # Past the first pages, a line of names set like a heading stays one (a chapter on two
    # composers): bylines stand under a document's title.
    (md,) = markdown(_title_page("Ludwig van Beethoven and Wolfgang Amadeus Mozart", number=7))
    assert any("Beethoven" in text for _, text in headings(md))


def _outside_the_sample(
    sample: list[PageContent], runs: list[TextRun]
) -> tuple[dict[str, int], list[tuple[int, str]]]:
    """The heading levels of ``sample``'s pages, finished together as a long document's
    sample is, and the headings (level, text) of one more page of ``runs`` finished against
    their profile alone, as a page outside the sample is."""
    from pdfthin.layout import finish_page

    layouts = [layout_page(p) for p in sample]
    profile = finish_document(layouts)
    levels = {text: level for lay in layouts for level, text in headings(render_blocks(lay.blocks))}
    lay = layout_page(page(runs, number=len(sample) + 1))
    finish_page(lay, profile)
    return levels, headings(render_blocks(lay.blocks))


def test_a_page_outside_the_sample_places_its_headings_on_the_profiles_scale() -> None:
    """A long document's page finished against its profile: a three-deep number sits at the
    level three-deep numbers have in the sample, although the page adds a heading of a look
    the sample never showed (ranked between two depths: it shares the deeper one's level
    instead of pushing the number a level down on this page alone)."""

    def sample_page(n: int) -> PageContent:
        runs = words(f"{n} Scope", 50, 140, size=14, bold=True) + paragraph(160)
        runs += words(f"{n}.1 General matters", 50, 230, size=12, bold=True) + paragraph(250)
        runs += words(f"{n}.1.1 Finer detail", 50, 320, size=10, bold=True) + paragraph(340)
        return page(runs, number=n)

    runs = words("4.1.2 Another detail", 50, 140, size=10, bold=True) + paragraph(160)
    runs += words("Remarks", 50, 230, size=11, bold=True, italic=True, font="Helvetica")
    runs += paragraph(250)
    levels, found = _outside_the_sample([sample_page(n) for n in (1, 2, 3)], runs)
    assert levels["1 Scope"] < levels["1.1 General matters"] < levels["1.1.1 Finer detail"]
    page_levels = {text: level for level, text in found}
    assert "Remarks" in page_levels  # (the page's own look is a heading: the case under test)
    assert page_levels["4.1.2 Another detail"] == levels["1.1.1 Finer detail"]


def test_an_unnumbered_look_between_two_depths_takes_no_level_of_its_own() -> None:
    """Chapters ("1 Basics"), their sections ("1.1 Spaces") and an unnumbered look set
    between the two ("Exercises", larger than a section's title, smaller than a chapter's):
    sections sit one level under their chapter, and the unnumbered titles with them (a level
    of their own pushed every section two levels down, a level left empty between)."""
    runs = words("1 Basics", 50, 80, size=16, bold=True) + paragraph(100)
    runs += words("1.1 Spaces", 50, 170, size=12, bold=True) + paragraph(190)
    runs += words("1.2 Maps", 50, 260, size=12, bold=True) + paragraph(280)
    runs += words("Exercises", 50, 350, size=14, bold=True) + paragraph(370)
    runs += words("2 Shapes", 50, 440, size=16, bold=True) + paragraph(460)
    runs += words("2.1 Knots", 50, 530, size=12, bold=True) + paragraph(550)
    (md,) = markdown(page(runs))
    found = {text: level for level, text in headings(md)}
    assert found["1 Basics"] == found["2 Shapes"]
    assert found["1.1 Spaces"] == found["2.1 Knots"] == found["1 Basics"] + 1
    assert found["Exercises"] == found["1.1 Spaces"]


def test_a_pages_own_headings_do_not_move_the_profiles_looks() -> None:
    """One look (10 pt bold) serves the sample's many one-deep titles ("4 Notation") and a
    three-deep one, under a part's title set large. A page outside the sample holding more
    three-deep titles than the sample had one-deep ones, and a part's title, finds each
    where the sample put its kind: which depth a look stands for, and so where the looks
    without numbers rank, is the profile's, not recounted with each page."""

    def sample_page(n: int) -> PageContent:
        runs = words(f"{2 * n} Notation", 50, 140, bold=True) + paragraph(160)
        runs += words(f"{2 * n}.1 General matters", 50, 230, size=12, bold=True)
        runs += paragraph(250)
        runs += words(f"{2 * n + 1} Versions", 50, 320, bold=True) + paragraph(340)
        if n == 1:
            runs += words("3.1.1 Finer detail", 50, 410, bold=True) + paragraph(430)
            runs += words("Part One", 50, 500, size=16, bold=True) + paragraph(520)
        return page(runs, number=n)

    runs = words("Part Two", 50, 60, size=16, bold=True) + paragraph(80, lines=2)
    for i in range(8):
        y = 140 + 75 * i
        runs += words(f"9.1.{i + 1} Detail", 50, y, bold=True) + paragraph(y + 20, lines=3)
    levels, found = _outside_the_sample([sample_page(n) for n in (1, 2, 3)], runs)
    assert levels["Part One"] < levels["2 Notation"] < levels["2.1 General matters"]
    assert levels["2.1 General matters"] < levels["3.1.1 Finer detail"]
    assert found[0] == (levels["Part One"], "Part Two")
    assert len(found) == 9
    assert {level for level, _ in found[1:]} == {levels["3.1.1 Finer detail"]}


def test_a_depth_the_sample_never_saw_ranks_as_its_look_does() -> None:
    """The sample of a long report holds its summaries (large capitals, unnumbered) and
    numbered sections two and three deep, but no chapter's first page. A page outside it
    opens "CHAPTER 1. INTRODUCTION" in the summaries' look: the chapter sits at their level,
    above its sections, not at the sections' level (a depth the profile has no rank for)."""

    def sample_page(n: int) -> PageContent:
        title = ["EXECUTIVE SUMMARY", "KEY FINDINGS", "ABBREVIATIONS"][n - 1]
        runs = words(title, 50, 140, size=25, bold=True) + paragraph(180)
        runs += words(f"{n}.1 General matters", 50, 250, size=13, bold=True) + paragraph(270)
        runs += words(f"{n}.1.1 Finer detail", 50, 340, size=11, bold=True) + paragraph(360)
        return page(runs, number=n)

    runs = words("CHAPTER 1. INTRODUCTION", 50, 140, size=25, bold=True) + paragraph(180)
    runs += words("1.1 Objectives", 50, 250, size=13, bold=True) + paragraph(270)
    levels, found = _outside_the_sample([sample_page(n) for n in (1, 2, 3)], runs)
    assert levels["EXECUTIVE SUMMARY"] < levels["1.1 General matters"]
    page_levels = {text: level for level, text in found}
    assert page_levels["CHAPTER 1. INTRODUCTION"] == levels["EXECUTIVE SUMMARY"]
    assert page_levels["1.1 Objectives"] == levels["1.1 General matters"]
