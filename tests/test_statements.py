"""Tables without rulings (financial statements) and the row safety net, on generated pages.

The pages come from ``statements.py``: a label column, one right-aligned column of numbers
per period, ``$`` signs in a narrow column of their own, no rules; a newspaper page of narrow
text columns that must stay text.
"""

from __future__ import annotations

import pytest
import statements as st

import pdfthin
from pdfthin.engine.content.interpreter import PIECE_GAP_EM
from pdfthin.engine.fonts._fontdata import CORE_METRICS
from pdfthin.layout.types import Line

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")


def markdown(canvas: st.Canvas) -> str:
    return pdfthin.open(st.pdf(canvas)).pages[0].markdown


def table_rows(md: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in md.splitlines()
        if line.startswith("|") and not line.startswith("|---")
    ]


def income(column_gap_em: float = 1.0) -> list[list[str]]:
    canvas = st.Canvas()
    st.income_statement(canvas, 100, column_gap_em=column_gap_em)
    return table_rows(markdown(canvas))


def test_a_dollar_sign_joins_the_number_it_precedes() -> None:
    rows = income()
    assert ["Product", "$178", "$152", "$1,023", "$876"] in rows
    assert ["Net income", "$93", "$91", "$629", "$549"] in rows
    assert not any(cell == "$" for row in rows for cell in row)


def test_period_names_and_years_are_one_header_row() -> None:
    canvas = st.Canvas()
    st.statement(canvas, 100, 3)
    rows = table_rows(markdown(canvas))
    assert rows[0] == ["", "March 31, 2024", "December 31, 2023", "March 31, 2023"]
    assert rows[1] == ["Current assets:", "", "", ""]


def test_number_columns_an_em_apart_stay_separate_cells() -> None:
    rows = income(column_gap_em=1.0)
    assert ["Research and development", "23.2", "10.3", "27.0", "19.8"] in rows
    assert ["Other income (expense), net", "(4)", "2", "(11)", "7"] in rows
    assert all(len(row) == 5 for row in rows)


def test_section_labels_keep_the_statement_one_table() -> None:
    # Two label-only rows in a row ("Costs and expenses:", "Operating expenses:") do not
    # cut the statement in two, and stay rows of their own.
    md = markdown(_income_canvas())
    assert sum(1 for line in md.splitlines() if line.startswith("|---")) == 1
    rows = table_rows(md)
    labels = [row[0] for row in rows]
    assert labels.index("Costs and expenses:") + 1 == labels.index("Operating expenses:")
    assert rows[labels.index("Costs and expenses:")][1:] == ["", "", "", ""]
    assert labels.index("Total revenues") < labels.index("Costs and expenses:")


def test_a_wrapped_label_takes_the_numbers_of_its_last_line() -> None:
    rows = income()
    assert [
        "Selling, general and administrative expenses, including stock-based compensation",
        "41",
        "39",
        "170",
        "158",
    ] in rows
    assert ["Research and development", "23.2", "10.3", "27.0", "19.8"] in rows


def _income_canvas() -> st.Canvas:
    canvas = st.Canvas()
    st.income_statement(canvas, 100)
    return canvas


@pytest.mark.parametrize("header_rules", [False, True])
def test_balance_sheet_rows_are_table_rows(header_rules: bool) -> None:
    canvas = st.Canvas()
    st.statement(canvas, 100, 4, header_rules=header_rules)
    rows = table_rows(markdown(canvas))
    assert ["Cash and cash equivalents", "$14,259", "$13,931", "$12,004", "$9,880"] in rows
    assert ["Other current assets", "1,052", "(338)", "976", "(1,204)"] in rows
    assert ["Total assets", "$57,890", "$53,960", "$49,129", "$42,513"] in rows


def test_a_statement_after_a_paragraph() -> None:
    canvas = st.Canvas()
    y = st.paragraph(canvas, st.PARAGRAPH, 72, 80, 460)
    st.statement(canvas, y + 24, 3)
    md = markdown(canvas)
    first, _, rest = md.partition("\n\n")
    assert first.startswith("The following table presents") and "|" not in first
    rows = table_rows(rest)
    assert ["Goodwill", "1,235", "1,235", "1,180"] in rows
    assert ["Cash and cash equivalents", "$14,259", "$13,931", "$12,004"] in rows


def test_newspaper_columns_are_not_a_table() -> None:
    canvas = st.Canvas()
    st.newspaper(canvas, columns=4)
    md = markdown(canvas)
    assert "|" not in md
    # Each column reads down before the next: the first column's first two lines follow
    # each other.
    lines = md.splitlines()
    assert lines[lines.index("City council members voted") + 1] == "on Tuesday to approve the"


def test_rows_too_few_for_a_table_keep_label_and_values_on_one_line() -> None:
    # Two rows are no table; their labels must not be printed apart from their numbers.
    canvas = st.Canvas()
    for k, (label, a, b) in enumerate([("Net income", "93", "91"), ("Diluted", "0.41", "0.40")]):
        y = 100 + 13 * k
        canvas.text(label, 72, y)
        canvas.right(a, 360, y)
        canvas.right(b, 440, y)
    md = markdown(canvas)
    assert "|" not in md
    assert md.splitlines() == ["Net income 93 91", "Diluted 0.41 0.40"]


def _ln(text: str, x0: float, y: float, chars_per_pt: float = 0.2) -> Line:
    return Line(text, x0, y - 8, x0 + len(text) / chars_per_pt, y + 2, 10.0)


def test_pieces_across_a_gutter_of_running_text_stay_apart() -> None:
    # Two columns of running text: a short last line of a paragraph on the left does not
    # join the line of the right-hand column beside it.
    left = [
        "the first column carries its story down the page",
        "line after line in words of running text",
        "until the paragraph comes to its end",
        "here.",
    ]
    right = [
        "while the second column tells another story",
        "in lines of words just as long as these",
        "that have nothing to do with the left side",
        "and keep going on below the short line",
    ]
    lines = []
    for k, (a, b) in enumerate(zip(left, right, strict=True)):
        lines += [_ln(a, 50, 100 + 12 * k), _ln(b, 320, 100 + 12 * k)]
    from pdfthin.layout.blocks import rejoin_rows

    kept = rejoin_rows(lines)
    assert len(kept) == len(lines)
    assert "here." in [ln.text for ln in kept]


def test_pieces_of_a_row_join_left_to_right() -> None:
    lines = [_ln("Total assets", 50, 100), _ln("57,890", 300, 100), _ln("53,960", 380, 100)]
    from pdfthin.layout.blocks import rejoin_rows

    (joined,) = rejoin_rows(lines)
    assert joined.text == "Total assets 57,890 53,960"
    assert (joined.x0, joined.x1) == (50, lines[2].x1)


def test_a_row_joined_from_faces_keeps_its_monospaced_share() -> None:
    # A label in a proportional face and its value in Courier, joined into one line: the
    # line's monospaced share is the value's characters over the whole (a code block needs
    # nine in ten), not the first piece's face alone.
    import dataclasses

    from pdfthin.layout.blocks import rejoin_rows

    label = _ln("Total assets", 50, 100)
    value = dataclasses.replace(_ln("57,890", 300, 100), font="Courier")
    (joined,) = rejoin_rows([label, value])
    assert joined.monospace == pytest.approx(6 / 18)


def test_a_number_starting_the_next_text_column_stays_there() -> None:
    # Right of the gap runs a column of text; a line of it that is a bare number (a year
    # on its own line) is that column's, not a value of the short line beside it.
    from pdfthin.layout.blocks import rejoin_rows

    right = [
        "while the second column tells another story",
        "in lines of words just as long as these",
        "1984",
        "and keep going on below the short line",
    ]
    lines = [_ln("until the paragraph ends here.", 50, 136)]
    lines += [_ln(text, 320, 112 + 12 * k) for k, text in enumerate(right)]
    lines += [_ln("and the left column goes on below it", 50, 160)]
    kept = rejoin_rows(sorted(lines, key=lambda ln: ln.y0))
    assert sorted(ln.text for ln in kept) == sorted(ln.text for ln in lines)


def test_a_running_header_set_apart_keeps_its_page_number_apart() -> None:
    # The page number of a running header is recognised on its own across pages; the
    # header row, well above the body, is left as it is.
    from pdfthin.layout.blocks import rejoin_rows

    lines = [_ln("Chapter 1. Topology", 50, 40), _ln("17", 500, 40)]
    lines += [_ln(f"body line {k} of the page", 50, 100 + 12 * k) for k in range(3)]
    kept = rejoin_rows(lines)
    assert [ln.text for ln in kept][:2] == ["Chapter 1. Topology", "17"]


def test_a_table_of_contents_is_not_a_table() -> None:
    # Page numbers flush right line up like a column of numbers; dot leaders say what
    # they are: the end of a table of contents' entry, not a column of values.
    from pdfthin.layout.tables.find import find_tables

    entries = [("1", "OVERVIEW", "6"), ("2", "MODEL", "8"), ("2.1", "LOGICAL VIEW", "9")]
    entries += [("2.2", "NETWORK", "10"), ("2.3", "EVENTS", "11"), ("3", "METADATA", "19")]
    lines = []
    for k, (number, title, page) in enumerate(entries):
        y = 100 + 14 * k
        entry = f"{title}{'.' * 40}"
        right = 500 - 5 * len(page)
        lines.append(_ln(number, 72, y))
        line = Line(f"{entry} {page}", 110, y - 8, 500, y + 2, 10.0)
        line.spans = [(110, right - 5, entry), (right, 500, page)]
        lines.append(line)
    tables, _ = find_tables(lines, [])
    cells = [cell for table in tables for row in table.rows or [] for cell in row]
    assert not {page for _, _, page in entries} & set(cells)  # never a column of their own


POPULATION = [
    ("Algeria - Algérie", ["33 003", "33 461", "33 961"]),
    ("Angola", ["15 421", "15 977", "16 544"]),
    ("Benin - Bénin", ["7 606", "7 823", "8 042"]),
    ("Botswana", ["1 833", "1 855", "1 876"]),
    ("Burkina Faso", ["12 829", "13 034", "13 222"]),
    ("Cabo Verde", ["467", "474", "479"]),
]


def test_labels_led_by_dots_to_their_rows_of_figures_stay_with_them() -> None:
    """A statistical table leads each label to its figures with dots (a UN yearbook): the
    leaders are fill, and do not make the labels long lines of running text beside the
    table (``untable.pdf`` lost its label column that way)."""
    canvas = st.Canvas()
    for row, (label, values) in enumerate(POPULATION):
        y = 100.0 + 12.0 * row
        dots = int((230.0 - 72.0 - st.width(label + " ", 8.0)) // st.width(".", 8.0))
        canvas.text(f"{label} {'.' * dots}", 72.0, y, 8.0)
        for k, value in enumerate(values):
            canvas.right(value, 280.0 + 50.0 * k, y, 8.0)
    rows = table_rows(markdown(canvas))
    by_label = {row[0].rstrip(". "): row[1:] for row in rows}
    for label, values in POPULATION:
        assert by_label.get(label) == values


# --- rows drawn as one TJ array (engine/content/pieces.py) --------------------------------------

FIGURES = [
    ("Server closets", ["1,505", "1,580", "1,643", "1,673"]),
    ("Server rooms", ["1,512", "1,586", "-", "1,677"]),
    ("Localized data centers", ["1,512", "(86)", "1,646", "1,677"]),
    ("Enterprise-class data centers", ["1,495", "1,572", "1,585", "1,424"]),
]


def _array_rows(canvas: st.Canvas, size: float = 9.0) -> None:
    """The rows of ``FIGURES``: a label, then the row's figures in one ``TJ`` array,
    right-aligned on columns 45 points apart (gaps of about 2 ems at 9 points: past
    ``PIECE_GAP_EM``, short of ``SPLIT_GAP_EM``)."""
    for row, (label, values) in enumerate(FIGURES):
        y = 100.0 + 14.0 * row
        canvas.text(label, 72.0, y, size)
        pieces = [
            (value, 260.0 + 45.0 * k - st.width(value, size)) for k, value in enumerate(values)
        ]
        canvas.array(pieces, y, size)


def test_a_row_of_figures_set_as_one_array_is_a_table_row() -> None:
    canvas = st.Canvas()
    _array_rows(canvas)
    rows = table_rows(markdown(canvas))
    assert [[label, *values] for label, values in FIGURES] == [r for r in rows if r[0]]


def test_figures_with_trailing_spaces_are_cut_where_their_ink_is_apart() -> None:
    # Each figure is shown with a trailing space ("48.1 "), then moved about 1.06 em on: the
    # displacement alone is short of PIECE_GAP_EM, the blank between the inks (1.33 em) is not.
    size = 9.0
    rows = [
        ("Lowest", ["48.1", "40.4", "12.7", "30.2"]),
        ("Second", ["51.9", "38.0", "14.5", "29.6"]),
        ("Highest", ["60.3", "27.2", "19.8", "22.1"]),
    ]
    ink_gap = 12.0  # points: 1.33 em at 9 points
    canvas = st.Canvas()
    for row, (label, values) in enumerate(rows):
        y = 100.0 + 14.0 * row
        canvas.text(label, 72.0, y, size)
        pitch = st.width("00.0", size) + ink_gap  # every figure is as wide
        canvas.array([(f"{value} ", 200.0 + pitch * k) for k, value in enumerate(values)], y)
    displacement = ink_gap - st.width(" ", size)
    assert displacement < PIECE_GAP_EM * size < ink_gap
    assert [[label, *values] for label, values in rows] == [
        r for r in table_rows(markdown(canvas)) if r[0]
    ]


def test_figures_set_apart_by_word_spacing_and_pulled_back_keep_their_columns() -> None:
    # Some producers set a row's figures as one array with huge word spacing: each trailing
    # space overshoots the next column by ems and a negative displacement pulls the next
    # figure back. The pieces are cut for their blank and end at their ink, not at the far
    # end of their stretched trailing space (which would reach past the next figure).
    size, spacing = 9.0, 100.0
    rows = [("Germany", ["17", "58", "25"]), ("Italy", ["49", "39", "13"])]
    columns = [230.0, 290.0, 350.0]  # where each figure starts
    canvas = st.Canvas()
    canvas.text("Country", 72.0, 86.0, size)
    for x, head in zip(columns, ["Lower", "Middle", "Upper"], strict=True):
        canvas.text(head, x, 86.0, size)
    for row, (label, values) in enumerate(rows):
        y = 100.0 + 14.0 * row
        canvas.text(label, 72.0, y, size)
        canvas.array([(f"{v} ", x) for v, x in zip(values, columns, strict=True)], y, size, spacing)
    assert spacing > columns[1] - columns[0]  # the displacements are negative
    assert table_rows(markdown(canvas)) == [
        ["Country", "Lower", "Middle", "Upper"],
        *([label, *values] for label, values in rows),
    ]


def test_a_legend_spaced_by_strings_of_spaces_stays_one_line() -> None:
    # A legend line pads between its entries with strings of spaces, each kerned a hair: the
    # blank between "low," and "I" is two ems. Words on both sides: the array is one line.
    size = 9.0
    pieces, x = [], 72.0
    for text in [
        "H = High,",
        "   ",
        "  ",
        "   ",
        "  ",
        "HH = High high,",
        "   ",
        "  ",
        "   ",
        "I = alarm",
    ]:
        pieces.append((text, x))
        x += st.width(text, size) + 0.06
    canvas = st.Canvas()
    canvas.array(pieces, 100.0, size)
    assert markdown(canvas).strip() == "H = High, HH = High high, I = alarm"


def test_stretched_words_set_as_one_array_stay_one_line() -> None:
    canvas = st.Canvas()
    prose = "A paragraph of running text above the stretched line, set ragged right. " * 3
    st.paragraph(canvas, prose, 72, 80, 440, size=9.0)
    # A justified line stretched past the cut: its words (a year among them) stay one line.
    words = ["Curtis,", "“Now", "then,”", "BBC,", "Jul.", "2014.", "[Online]"]
    gaps = [13.0, 19.0, 14.0, 20.0, 15.0, 18.0]  # 1.4 to 2.2 em, uneven: no evenness to go by
    x, pieces = 72.0, []
    for word, gap in zip(words, [*gaps, 0.0], strict=True):
        pieces.append((word, x))
        x += st.width(word, 9.0) + gap
    canvas.array(pieces, 200.0)
    md = markdown(canvas)
    assert " ".join(words) in md
    assert not table_rows(md)


def test_a_stretched_line_of_quoted_words_drawn_word_by_word_is_one_line() -> None:
    # Evenly stretched (1.7 em), each word its own string: a word in quotes or brackets is a
    # word when the row is judged prose.
    canvas = st.Canvas()
    words = ["A.", "Curtis,", "“Now", "then,”", "BBC,", "Jul.", "2014.", "[Online]."]
    chars, widths, default, _, _ = CORE_METRICS["Helvetica"]
    advance = dict(zip(chars, widths, strict=True))
    x = 72.0
    for word in words:
        canvas.text(word, x, 200.0)
        x += sum(advance.get(ch, default) for ch in word) * 9.0 / 1000 + 15.0
    assert " ".join(words) in markdown(canvas)


# --- rows drawn twice ------------------------------------------------------------------------


def test_a_table_drawn_twice_reads_once() -> None:
    # Some producers draw every row twice (a bold effect, a second pass over the same
    # text): a label several ems long, drawn again at the same place once the row's other
    # cells are drawn, is the same run, not a second line over the first.
    size = 9.0
    rows = [
        ("Enterprise-class centres", ["1,495", "1,572"]),
        ("Localized data centres", ["1,512", "1,646"]),
        ("Server closets", ["1,505", "1,643"]),
    ]
    canvas = st.Canvas()
    for row, (label, values) in enumerate(rows):
        y = 100.0 + 14.0 * row
        for _ in range(2):
            canvas.text(label, 72.0, y, size)
            for k, value in enumerate(values):
                canvas.right(value, 300.0 + 60.0 * k, y, size)
    assert table_rows(markdown(canvas)) == [[label, *values] for label, values in rows]
