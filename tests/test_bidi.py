"""Right-to-left text: lines drawn in visual order read back in logical order, and glyphs that
map to several characters (ligatures, shaped clusters) keep their characters' order."""

from __future__ import annotations

import random
import sys
import unicodedata

import pytest
from conftest import CORPUS, require_corpus
from hypothesis import given
from hypothesis import strategies as st
from pdfbuilder import PdfBuilder

import pdfthin
from pdfthin.engine.content.bidi import (
    RTL_AREAS,
    logical_order,
    mostly_rtl,
    visual_cluster,
    visual_to_logical,
)

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")

SALAM = "سلام"  # س ل ا م: drawn left to right as م, the lam-alef ligature, س


@pytest.mark.parametrize(
    ("visual", "logical"),
    [
        ("םולש", "שלום"),  # Hebrew, drawn left to right
        ("2024 תנש", "שנת 2024"),  # numbers keep their own order
        ("(ןחבמ)", "(מבחן)"),  # brackets turn with the text
        ("Python ב", "ב Python"),  # a Latin word stays readable
        ("ןט 47.500", "47.500 טן"),  # a decimal point stays inside its number
        ("1403/09/19 ךיראת", "תאריך 1403/09/19"),  # a separator between digits stays put
        ("3-2 קרפ", "פרק 3-2"),
        ("اضًيأ", "أيضًا"),  # a vowel mark drawn after its letter stays after it (Word's order)
    ],
)
def test_visual_to_logical(visual: str, logical: str) -> None:
    assert visual_to_logical(visual) == logical


# Letters (Arabic with vowel marks after them, Hebrew), digits, punctuation, a mark: what
# visual_cluster reorders (it leaves text with left-to-right letters alone).
_PIECES = [*"سلامשלום 123.,()[]-٣", "\u200f", "سَ", "بُّ", "לְ"]
_MIXED = st.lists(st.sampled_from(_PIECES), max_size=30).map("".join)


@given(_MIXED)
def test_visual_to_logical_undoes_itself(text: str) -> None:
    # The fonts rely on it: a cluster stored visually comes back logical.
    assert visual_to_logical(visual_to_logical(text)) == text


def test_visual_to_logical_is_not_its_own_inverse_beside_latin_letters() -> None:
    # A separator between a digit and a Latin letter in visual order lands between digits in
    # logical order ("1.a1" is "a1" "." "1" read right to left, then the number "1.1"):
    # right both ways, which is why visual_cluster leaves text with such letters alone.
    assert visual_to_logical("1.a1") == "a1.1"
    assert visual_to_logical("a1.1") == "a1.1"
    assert visual_cluster("1.a1") == "1.a1"


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("لا", "ال"),  # a lam-alef ligature
        ("بَ", "بَ"),  # a letter and its vowel mark stay together
        ("fi", "fi"),  # not right to left
        ("ب", "ب"),  # one character
        ("حَبيبي h", "حَبيبي h"),  # holds left-to-right letters: its line may not be reversed
        ("١٢", "١٢"),  # Arabic-Indic digits read left to right
    ],
)
def test_visual_cluster(text: str, stored: str) -> None:
    assert visual_cluster(text) == stored


@pytest.mark.parametrize(
    ("visual", "logical"),
    [
        ("Jeremy is يمرج in Arabic", "Jeremy is جرمي in Arabic"),  # tabula's arabic.pdf
        ("the words םולש םלוע here", "the words עולם שלום here"),  # a stretch, not each word
        ("plain text", "plain text"),
        ("name: سبَ here", "name: بَس here"),  # the mark on the stretch's last letter goes too
        ("םולש world", "שלום world"),
        ("םלוע םולש world", "world שלום עולם"),  # mostly right to left: the whole line turns
    ],
)
def test_logical_order_of_mixed_lines(visual: str, logical: str) -> None:
    assert logical_order(visual) == logical


def test_mostly_rtl() -> None:
    assert mostly_rtl("مرحبا بالعالم 2024")
    assert not mostly_rtl("hello مرحبا world")
    assert not mostly_rtl("plain ascii")


def _salam_pdf(content: bytes) -> bytes:
    b = PdfBuilder()
    # Glyph 1 is م, glyph 2 the lam-alef ligature, glyph 3 س; widths make them touch.
    font = b.font_type0("ArabicTest", w=[1, [400, 500, 400]], to_unicode={1: "م", 2: "لا", 3: "س"})
    b.add_page(content, {"Font": {"F1": font}})
    return b.build()


def test_a_ligature_glyph_keeps_its_letters_in_order() -> None:
    pdf = _salam_pdf(b"BT /F1 20 Tf 300 700 Td <000100020003> Tj ET")
    assert pdfthin.open(pdf).page(1).text == SALAM


def test_actual_text_over_a_ligature_keeps_its_letters_in_order() -> None:
    span = "لا".encode("utf-16-be").hex().upper().encode()
    pdf = _salam_pdf(
        b"BT /F1 20 Tf 300 700 Td <0001> Tj /Span <</ActualText <FEFF"
        + span
        + b">>> BDC <0002> Tj EMC <0003> Tj ET"
    )
    assert pdfthin.open(pdf).page(1).text == SALAM


def test_arabic_ligatures_on_a_real_page() -> None:
    # docling's right_to_left_01.pdf maps lam-alef ligatures to two characters; reversing
    # them with the line gave "اإلنتاجية" for "الإنتاجية" (pdfium reads it that way too).
    require_corpus()
    doc = pdfthin.open(CORPUS / "docling" / "right_to_left_01.pdf")
    text = "\n".join(p.markdown for p in doc.pages)
    for word in ("الإنتاجية", "المشكلات", "خلال", "الأدوات", "علاوة"):
        assert word in text
    for wrong in ("اإلنتاجية", "المشكالت", "خالل"):
        assert wrong not in text


def test_a_right_to_left_table_starts_at_its_right_hand_column() -> None:
    from pdfthin.engine.types import PageContent, TextRun
    from pdfthin.layout import layout_page

    # Visual order: values on the left, labels on the right, as a Persian form lays them out.
    rows = [("1403/09/19", "ךיראת"), ("436", "רפסמ"), ("ןוכנ", "בצמ")]
    runs = []
    for i, (value, label) in enumerate(rows):
        y = 100 + 20 * i
        runs.append(TextRun(value, 100, y, 100 + 6 * len(value), y + 10, 10, "F"))
        runs.append(TextRun(label, 400, y, 400 + 6 * len(label), y + 10, 10, "F"))
    page = PageContent(number=1, width=612, height=792, rotation=0, runs=runs)
    (table,) = [b for b in layout_page(page).blocks if b.kind == "table"]
    assert table.rows == [["תאריך", "1403/09/19"], ["מספר", "436"], ["מצב", "נכון"]]


def test_every_right_to_left_letter_of_this_unicode_is_in_rtl_areas() -> None:
    # The quick test logical_order makes before reordering must miss no right-to-left letter:
    # every R or AL character of this Python's Unicode is in the areas.
    missed = [
        f"U+{code:04X}"
        for code in range(sys.maxunicode + 1)
        if unicodedata.bidirectional(chr(code)) in ("R", "AL")
        and RTL_AREAS.match(chr(code)) is None
    ]
    assert not missed
    assert RTL_AREAS.search("naïve “quoted” – text ∑") is None


# --- Justified right-to-left text (issue 20) ----------------------------------------------

_PERSIAN_LETTERS = "بریناکتسمدهلو"
_PERSIAN_WORDS = ["این", "کتاب", "برای", "مردم", "است", "که", "در", "ایران", "کار", "کنند", "و"]
#: Relative widths of the spaces of a line, left to right: justification stretches some more
#: than others.
_UNEVEN = [0.6, 1.5, 0.9, 1.3, 0.7, 1.1, 1.4, 0.8, 1.0, 1.2]


def _justified_persian(lines: list[list[str]]) -> bytes:
    """Each line set right to left between x = 100 and 400 at 10 pt, one glyph run a word
    (glyphs in visual order, as producers draw them), its spaces stretched unevenly."""
    code = {ch: i + 1 for i, ch in enumerate(_PERSIAN_LETTERS)}
    b = PdfBuilder()
    font = b.font_type0(
        "Persian",
        w=[1, [500] * len(_PERSIAN_LETTERS)],
        to_unicode={v: k for k, v in code.items()},
    )
    ops = [b"BT /F1 10 Tf"]
    for i, words in enumerate(lines):
        widths = [5.0 * len(word) for word in words]
        weights = [_UNEVEN[(i + j) % len(_UNEVEN)] for j in range(len(words) - 1)]
        free = 300.0 - sum(widths)
        x = 400.0
        for j, word in enumerate(words):  # logical order: from the right edge leftwards
            x -= widths[j]
            glyphs = b"".join(b"%04X" % code[ch] for ch in reversed(word))
            ops.append(b"1 0 0 1 %.2f %d Tm <%s> Tj" % (x, 700 - 14 * i, glyphs))
            if j < len(weights):
                x -= free * weights[j] / sum(weights)
    ops.append(b"ET")
    b.add_page(b"\n".join(ops), {"Font": {"F1": font}})
    return b.build()


def test_justified_right_to_left_lines_keep_their_words_together() -> None:
    # Spaces of 0.7 to 2 ems, lining up here and there from line to line: each line is still
    # one line, its words in reading order (they were cut into lines of a word or two).
    rng = random.Random(20)
    lines = [[rng.choice(_PERSIAN_WORDS) for _ in range(10)] for _ in range(8)]
    text = pdfthin.open(_justified_persian(lines)).page(1).text
    assert text.split("\n") == [" ".join(words) for words in lines]
