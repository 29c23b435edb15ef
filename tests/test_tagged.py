"""Tagged PDFs: marked-content ids on text runs (both engine paths), the page's slice of the
structure tree, and the layout that follows the tree when it is sane on the page and falls
back to geometry when it is not (pdfthin/layout/tagged.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from counting import Calls
from pdfbuilder import PdfBuilder, Ref, StructNode, marked_text

import pdfthin
from pdfthin.engine import open_pdf
from pdfthin.engine.walk import Walk
from pdfthin.layout import layout_page
from pdfthin.layout.inspect import trace_page, trace_svg
from pdfthin.layout.tagged import IGNORE_ENV

Line = tuple[str, float, float, float]  # text, x, baseline y (PDF units, y up), size


def _tagged_pdf(
    lines: list[Line], tree: StructNode, *, broken: Any = None, role_map: Any = None
) -> bytes:
    """One page: line ``i`` of ``lines`` drawn as marked content ``/MCID i``, under the
    structure ``tree``; ``broken(builder, refs, page)`` may damage the tree afterwards."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    content = b"".join(marked_text(i, t, x, y, size) for i, (t, x, y, size) in enumerate(lines))
    page = b.add_page(content, {"Font": {"F1": font}})
    refs = b.set_structure_tree(page, tree, role_map=role_map)
    if broken is not None:
        broken(b, refs, page)
    return b.build()


def _markdown(data: bytes) -> str:
    return pdfthin.open(data).pages[0].markdown


def _decision(data: bytes) -> str:
    return layout_page(open_pdf(data).page(1)).tree


def _paragraph(y: float, first: int, count: int = 3) -> list[Line]:
    words = "the quick brown fox jumps over the lazy dog and runs on through the field"
    return [(f"{words} {first + i}", 72, y - 12 * i, 10) for i in range(count)]


# --- the engine: marked-content ids and the page's slice of the tree --------------------------


@pytest.mark.usefixtures("implementation")  # the pure and the native interpreter alike
def test_runs_carry_the_innermost_marked_content_id() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    form = b.form_xobject(
        b"/P <</MCID 99>> BDC BT /F1 10 Tf 0 0 Td (in form) Tj ET EMC",
        resources={"Font": {"F1": font}},
        bbox=[0, 0, 200, 50],
    )
    content = (
        b"/Sect <</MCID 1>> BDC BT /F1 10 Tf 72 700 Td (outer) Tj ET "
        b"/Span <</MCID 2>> BDC BT /F1 10 Tf 72 680 Td (inner) Tj ET EMC "
        b"/Span BMC BT /F1 10 Tf 72 660 Td (plain) Tj ET EMC "
        b"BT /F1 10 Tf 72 640 Td (back) Tj ET "
        b"q 1 0 0 1 72 600 cm /Fm1 Do Q EMC "
        b"/P /MC0 BDC BT /F1 10 Tf 72 560 Td (named) Tj ET EMC "
        b"/P <</MCID 2.5>> BDC BT /F1 10 Tf 72 540 Td (fraction) Tj ET EMC "
        b"/P <</MCID -3>> BDC BT /F1 10 Tf 72 520 Td (negative) Tj ET EMC "
        b"BT /F1 10 Tf 72 500 Td (untagged) Tj ET"
    )
    b.add_page(
        content,
        {"Font": {"F1": font}, "XObject": {"Fm1": form}, "Properties": {"MC0": {"MCID": 7}}},
    )
    runs = open_pdf(b.build()).page(1).runs
    assert [(r.text, r.mcid) for r in runs] == [
        ("outer", 1),
        ("inner", 2),
        ("plain", 1),
        ("back", 1),
        ("in form", 1),  # a form's own ids are the form's structure, not the page's
        ("named", 7),
        ("fraction", -1),
        ("negative", -1),
        ("untagged", -1),
    ]


def test_the_page_slice_maps_ids_to_elements_in_tree_order() -> None:
    lines = [("Second", 72, 600, 10), ("First", 72, 700, 12)]
    tree: StructNode = ("Document", [("Chapter", [("Heading1", [1])]), ("P", [0])])
    data = _tagged_pdf(lines, tree, role_map={"Heading1": "H1", "Chapter": "Sect"})
    structure = open_pdf(data).page(1).structure
    assert structure is not None and not structure.problems
    kinds = [(e.kind, e.parent) for e in structure.elements]
    assert kinds == [("Document", -1), ("Sect", 0), ("H1", 1), ("P", 0)]
    assert structure.content == {1: 2, 0: 3}
    assert structure.order == [1, 0]  # the tree reads the heading first


def test_an_element_holding_thousands_of_the_pages_ids_is_read_whole() -> None:
    # One element listing every id of a dense page (a real form's tree: 5,356 ids in one
    # element): each id's place among its kids is looked up once, not by a scan per id,
    # which spent the page's step budget and dropped the tree.
    count = 2_000
    lines = [(f"w{i}", 72 + (i % 20) * 25, 760 - (i // 20) * 7, 5) for i in range(count)]
    tree: StructNode = ("Document", [("P", list(reversed(range(count))))])
    structure = open_pdf(_tagged_pdf(lines, tree)).page(1).structure
    assert structure is not None and not structure.problems
    assert structure.order == list(reversed(range(count)))  # the element's kids' order


# --- the layout: the tree followed when sane -------------------------------------------------


def _headed_page() -> tuple[list[Line], StructNode]:
    # Headings in the body's own size and weight: geometry has nothing to go by.
    lines = [("Results of the year", 72, 720, 10)]
    lines += _paragraph(700, 1)
    lines += [("Method used here", 72, 650, 10)]
    lines += _paragraph(630, 5)
    tree: StructNode = (
        "Document",
        [("H1", [0]), ("P", [1, 2, 3]), ("Sect", [("H2", [4]), ("P", [5, 6, 7])])],
    )
    return lines, tree


def test_heading_levels_come_from_the_tree() -> None:
    data = _tagged_pdf(*_headed_page())
    assert _decision(data) == "tree used"
    assert "tree used" in trace_svg(trace_page(open_pdf(data).page(1)))  # the decision, seen
    md = _markdown(data).splitlines()
    assert "# Results of the year" in md
    assert "## Method used here" in md


def test_the_setting_lays_the_page_out_by_geometry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(IGNORE_ENV, "1")
    data = _tagged_pdf(*_headed_page())
    assert _decision(data) == "tree ignored (setting)"
    assert "# Results of the year" not in _markdown(data).splitlines()


def _table_page() -> tuple[list[Line], StructNode]:
    # Two rows of a label and two values, whitespace between them, no rulings.
    lines = [
        ("Revenue", 72, 700, 10), ("100", 300, 700, 10), ("120", 400, 700, 10),
        ("Costs", 72, 686, 10), ("80", 300, 686, 10), ("90", 400, 686, 10),
    ]  # fmt: skip
    rows = [("TR", [("TD", [3 * r + c]) for c in range(3)]) for r in range(2)]
    return lines, ("Document", [("Table", list(rows))])


def test_a_table_without_rulings_comes_from_the_tree() -> None:
    data = _tagged_pdf(*_table_page())
    assert _decision(data) == "tree used"
    md = _markdown(data)
    assert "| Revenue | 100 | 120 |" in md
    assert "| Costs | 80 | 90 |" in md


def test_a_box_tagged_as_a_one_cell_table_reads_as_its_paragraphs() -> None:
    """A notice framed in a one-cell ``Table`` (the PDF specification's disclaimer page):
    its lines top to bottom (sorted by where they start, they were shuffled); a row of a
    centred cell and a value keeps each cell's lines top to bottom on one line."""
    notice = [("Disclaimer", 240, 720, 10)]
    notice += [(f"Notice line {i} of the first paragraph", 72 + (i % 2) * 6, 700 - 12 * i, 10)
               for i in range(3)]  # fmt: skip
    notice += [(f"Second paragraph line {i} here", 72, 640 - 12 * i, 10) for i in range(2)]
    centred = [("Centred", 90, 560, 10), ("label here", 84, 548, 10), ("42", 300, 560, 10)]
    tree: StructNode = (
        "Document",
        [
            ("Table", [("TR", [("TD", [("P", [0]), ("P", [1, 2, 3]), ("P", [4, 5])])])]),
            ("Table", [("TR", [("TD", [("P", [6, 7])]), ("TD", [("P", [8])])])]),
        ],
    )
    data = _tagged_pdf(notice + centred, tree)
    assert _decision(data) == "tree used"
    md = _markdown(data)
    order = ["Disclaimer", "Notice line 0", "Notice line 1", "Notice line 2", "Second paragraph"]
    assert [md.index(t) for t in order] == sorted(md.index(t) for t in order), md
    assert "of the first paragraph\nSecond paragraph line 0" in md  # not one line: a block
    assert "Centred label here 42" in md


@pytest.mark.parametrize("centred", [True, False])
def test_a_title_tagged_as_the_tables_first_row_is_read_over_it(centred: bool) -> None:
    """A report's producer tags the title centred over its table as one cell of the first
    row (the last one, in a voter-registration report): a paragraph over the table, not a
    header row of one filled cell. A first row's one cell that is not centred over the
    table stays its row."""
    title = ("District 1 totals", 250 if centred else 72, 720, 10)
    lines = [title] + [
        (text, x, 700 - 14 * r, 10)
        for r, row in enumerate([("County", "Active", "Total"), ("Cedar", "3069", "12794"),
                                 ("Clinton", "8526", "33680")])
        for text, x in zip(row, (72, 250, 450), strict=True)
    ]  # fmt: skip
    rows = [("TR", [("TD", []), ("TD", []), ("TD", [0])])]
    rows += [("TR", [("TD", [1 + 3 * r + c]) for c in range(3)]) for r in range(3)]
    data = _tagged_pdf(lines, ("Document", [("Table", rows)]))
    assert _decision(data) == "tree used"
    md = _markdown(data)
    assert "| County | Active | Total |" in md
    assert "| Cedar | 3069 | 12794 |" in md
    assert ("| District 1 totals |" in md) is not centred
    assert md.index("District 1 totals") < md.index("County")


def test_cells_the_tree_shifts_a_column_over_stand_where_the_page_shows_them() -> None:
    """A description merged down over two rows without ``/RowSpan``: the tree lists the
    second row with an empty kid first, shifting its cells a column right. The rows that
    fill every column show where the columns are; the second row's cells go there, the
    description's column left empty under it. A cell across columns is a merged one and
    stays."""
    header = [("Name", 72, 720, 10), ("Type", 200, 720, 10), ("Description", 300, 720, 10)]
    first = [("Feature ID", 72, 700, 10), ("Number", 200, 700, 10), ("A record id", 300, 700, 10)]
    second = [("Feature Name", 72, 686, 10), ("Character", 200, 686, 10)]
    third = [("State", 72, 666, 10), ("Character", 200, 666, 10), ("A state code", 300, 666, 10)]
    note = [("A note set across the whole table on one line of its own", 72, 646, 10)]
    lines = header + first + second + third + note
    rows = [("TR", [("TD", [3 * r + c]) for c in range(3)]) for r in range(2)]
    rows.append(("TR", [("TD", []), ("TD", [6]), ("TD", [7])]))
    rows.append(("TR", [("TD", [8 + c]) for c in range(3)]))
    rows.append(("TR", [("TD", [11])]))  # across the columns: stays where the tree has it
    data = _tagged_pdf(lines, ("Document", [("Table", rows)]))
    assert _decision(data) == "tree used"
    md = _markdown(data)
    assert "| Feature Name | Character |  |" in md
    assert "| State | Character | A state code |" in md
    assert "| A note set across the whole table on one line of its own |  |  |" in md


def test_a_one_cell_tables_pieces_on_one_baseline_are_one_line() -> None:
    """A framed entry whose number and title stand apart on one baseline ("3.1", then its
    title): one line, left to right, over the cell's next line."""
    lines = [("3.1", 72, 700, 10), ("Impacts on the climate", 120, 700, 10)]
    lines += [("and on the soil of the valley", 120, 688, 10)]
    tree: StructNode = ("Document", [("Table", [("TR", [("TD", [("P", [1, 0, 2])])])])])
    data = _tagged_pdf(lines, tree)
    assert _decision(data) == "tree used"
    assert "3.1 Impacts on the climate\nand on the soil of the valley" in _markdown(data)


def test_a_bold_label_and_its_plain_value_kept_as_one_line_are_no_heading() -> None:
    """A form's row tagged as a table row of two cells, a bold label and its plain value
    ("Case Tracking Number:", then the number), is kept as one line (not two rows of two
    cells: no grid): a line of the value's look, as the page's other rows joined from
    pieces are, not a bold heading."""
    b = PdfBuilder()
    fonts = {"F1": b.font_standard("Helvetica"), "F2": b.font_standard("Helvetica-Bold")}
    lines = [
        ("Case Tracking Number:", 72, 700, 10, "F2"),
        ("150109-DSP-Milw-505", 220, 700, 10, "F1"),
    ]
    lines += [(text, x, y, size, "F1") for text, x, y, size in _paragraph(660, 0)]
    content = b"".join(
        marked_text(i, text, x, y, size, font) for i, (text, x, y, size, font) in enumerate(lines)
    )
    page = b.add_page(content, {"Font": fonts})
    tree: StructNode = (
        "Document",
        [("Table", [("TR", [("TD", [0]), ("TD", [1])])]), ("P", [2, 3, 4])],
    )
    b.set_structure_tree(page, tree)
    data = b.build()
    assert _decision(data) == "tree used"
    md = _markdown(data)
    assert "Case Tracking Number: 150109-DSP-Milw-505" in md
    assert "#" not in md


def _contents_page(leader_x: float, number_x: float) -> bytes:
    """A tagged contents entry: its title and page number each a link of one paragraph, the
    leader dots between them drawn as an artifact (as a word processor tags them), over a
    tagged paragraph."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    content = marked_text(0, "Heading", 72, 500)
    content += marked_text(None, "." * 100, leader_x, 500, tag="Artifact")
    content += marked_text(1, "1", number_x, 500)
    for i, (text, x, y, size) in enumerate(_paragraph(460, 0)):
        content += marked_text(2 + i, text, x, y, size)
    page = b.add_page(content, {"Font": {"F1": font}})
    entry: StructNode = ("TOCI", [("P", [("Link", [0]), ("Link", [1])])])
    tree: StructNode = ("Document", [("TOC", [entry]), ("P", [2, 3, 4])])
    b.set_structure_tree(page, tree)
    return b.build()


@pytest.mark.usefixtures("implementation")
def test_an_artifact_between_an_elements_runs_is_part_of_its_line() -> None:
    """The leader dots a word processor tags as an artifact between a contents entry's
    title and its page number stay on the entry's line ("Heading.....1"): without them the
    line had a hole where they stood, split it in two ("Heading", "1"), and the dots came
    after the whole page, a line of their own."""
    data = _contents_page(110, 390)
    assert _decision(data) == "tree used"
    md = _markdown(data)
    assert re.search(r"^Heading ?\.{100} ?1$", md, re.M), md
    assert md.index("Heading") < md.index("the quick brown fox")


def test_an_artifact_reaching_back_over_an_elements_run_is_not_drawn_into_it() -> None:
    """Dots starting an em back over the title's end (twice ``BETWEEN_OVERLAP_EM``) do not
    stand between the title and its number: they are not taken into the entry's line."""
    title_end = 72 + 37.24  # "Heading" in 10 pt Helvetica
    md = _markdown(_contents_page(title_end - 10, 390))
    assert "Heading" + "." * 100 not in md.replace(" ", "")


def test_the_search_for_an_elements_artifacts_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page of many untagged runs on rows of many tagged ones compares at most
    ``MAX_BETWEEN_CHECKS`` runs; past that, the rest stay apart (laid out after the tree)."""
    from pdfthin.layout import tagged

    monkeypatch.setattr(tagged, "MAX_BETWEEN_CHECKS", 0)
    md = _markdown(_contents_page(110, 390))
    assert not re.search(r"^Heading ?\.{100}", md, re.M)
    assert "." * 100 in md


def _split_paragraph(second_x: float) -> bytes:
    """A paragraph a producer tagged as two ``P`` with a ``Link`` between them, the three
    siblings under a ``Div``, all on one line ("Write to", "the desk", "today."), over a
    tagged paragraph; ``second_x`` is where "today." starts."""
    lines = [("Write to", 72, 500, 10), ("the desk", 109, 500, 10), ("today.", second_x, 500, 10)]
    lines += _paragraph(460, 0)
    run = ("Div", [("P", [0]), ("Link", [1]), ("P", [2])])
    return _tagged_pdf(lines, ("Document", [run, ("P", [3, 4, 5])]))


@pytest.mark.usefixtures("implementation")
def test_pieces_of_running_text_on_one_line_are_one_paragraph() -> None:
    """Pieces of text the tree makes separate elements but the page sets on one line, a
    word space apart, are one paragraph (they were three: "Write to", "the desk",
    "today.")."""
    data = _split_paragraph(150)
    assert _decision(data) == "tree used"
    assert "Write to the desk today.\n\nthe quick brown fox" in _markdown(data)


def test_each_link_of_a_grouping_goes_with_the_text_beside_it() -> None:
    """Two such lines under one ``Div``, a link in each: each link goes with its own line's
    text (the grouping would make the two links one piece, standing on two lines, that
    could go with neither)."""
    lines = [("Write to", 72, 500, 10), ("the desk", 109, 500, 10), ("today.", 150, 500, 10)]
    lines += [("Write to", 72, 470, 10), ("the desk", 109, 470, 10), ("today.", 150, 470, 10)]
    lines += _paragraph(430, 0)
    first = [("P", [0]), ("Link", [1]), ("P", [2])]
    second = [("P", [3]), ("Link", [4]), ("P", [5])]
    data = _tagged_pdf(lines, ("Document", [("Div", first + second), ("P", [6, 7, 8])]))
    assert _decision(data) == "tree used"
    assert _markdown(data).count("Write to the desk today.") == 2


def test_links_one_after_another_in_a_grouping_stay_one_block() -> None:
    """An address broken over two lines as two links, one after the other under a ``Div``
    with nothing between them: one block of two lines, not two paragraphs."""
    lines = [("https://example.org/a-long-", 72, 500, 10), ("address.html", 72, 488, 10)]
    lines += _paragraph(440, 0)
    tree: StructNode = ("Document", [("Div", [("Link", [0]), ("Link", [1])]), ("P", [2, 3, 4])])
    data = _tagged_pdf(lines, tree)
    assert _decision(data) == "tree used"
    assert "https://example.org/a-long-address.html\n\nthe quick" in _markdown(data)


@pytest.mark.parametrize("second_x", [155, 300])
def test_pieces_a_gutter_apart_on_one_line_stay_apart(second_x: float) -> None:
    """The same pieces with a gutter before the last (more than ``GUTTER_GAP_EM`` of its
    type: 0.8 em, which one line's words may still stand apart by, or a column's width):
    that piece is not the line's."""
    md = _markdown(_split_paragraph(second_x))
    assert "Write to the desk" in md
    assert "the desk today." not in md


def test_two_addresses_side_by_side_stay_two_paragraphs() -> None:
    """Two addresses tagged one after the other, set side by side close together, the
    second starting a line higher: their lines meet on two baselines, but the second does
    not go on where the first ends (its first line is above the first's last), so each
    stays a paragraph of its own."""
    left = [("Naval Review Board", 72, 500, 10), ("720 Kennon Ave.", 72, 488, 10)]
    right = [("Air Force Board", 165, 512, 10), ("3351 Celmers Lane", 165, 500, 10)]
    right += [("Joint Base Andrews", 165, 488, 10)]
    lines = left + right + _paragraph(440, 0)
    tree: StructNode = ("Document", [("P", [0, 1]), ("P", [2, 3, 4]), ("P", [5, 6, 7])])
    data = _tagged_pdf(lines, tree)
    assert _decision(data) == "tree used"
    md = _markdown(data)
    assert "Naval Review Board\n720 Kennon Ave." in md
    assert "Air Force Board\n3351 Celmers Lane\nJoint Base Andrews" in md


def test_list_items_come_from_the_tree() -> None:
    lines = [("Apples", 72, 700, 10), ("Pears", 72, 686, 10)]
    tree: StructNode = ("Document", [("L", [("LI", [("LBody", [0])]), ("LI", [("LBody", [1])])])])
    assert _markdown(_tagged_pdf(lines, tree)).splitlines() == ["- Apples", "- Pears"]


def test_a_paragraph_going_on_in_the_next_column_is_read_in_order() -> None:
    """One ``P`` from the foot of the left column to the top of the right one: its left
    part, then its right part, then the paragraph after it there; each part its own block
    (a box across the gutter would sort the two columns' lines by height into one another)."""
    left = [(f"left column line {i} runs on", 72, 700 - 14 * i, 10) for i in range(8)]
    right = [(f"right column line {i} goes on", 330, 700 - 14 * i, 10) for i in range(6)]
    tree: StructNode = (
        "Document",
        [("P", [0, 1, 2, 3]), ("P", [4, 5, 6, 7, 8, 9]), ("P", [10, 11, 12, 13])],
    )
    data = _tagged_pdf(left + right, tree)
    layout = layout_page(open_pdf(data).page(1))
    assert layout.tree == "tree used"
    assert not [b for b in layout.blocks if b.x0 < 250 < b.x1]  # none across the gutter
    md = _markdown(data)
    assert md.index("left column line 7") < md.index("right column line 0")
    assert md.index("right column line 1") < md.index("right column line 2")


def test_an_element_with_two_pieces_on_one_row_stays_one_block() -> None:
    """A contents entry tagged as one ``P``: its number and its title far apart on one row
    are no column break (the title does not start above the number's line)."""
    lines = [("1", 72, 700, 10), ("Overview of the model", 300, 700, 10)]
    lines += [("2", 72, 680, 10), ("Linear reference system", 300, 680, 10)]
    tree: StructNode = ("Document", [("P", [0, 1]), ("P", [2, 3])])
    layout = layout_page(open_pdf(_tagged_pdf(lines, tree)).page(1))
    assert layout.tree == "tree used"
    assert [[ln.text for ln in b.lines] for b in layout.blocks] == [
        ["1", "Overview of the model"],
        ["2", "Linear reference system"],
    ]


# --- the layout: a tree that is not sane falls back to geometry ------------------------------


def test_a_tree_read_against_the_page_falls_back() -> None:
    # Six paragraphs of one column, the tree reading them bottom to top.
    lines: list[Line] = []
    for k in range(6):
        lines += _paragraph(720 - 60 * k, 3 * k)
    tree: StructNode = (
        "Document",
        [("P", [3 * k, 3 * k + 1, 3 * k + 2]) for k in range(5, -1, -1)],
    )
    data = _tagged_pdf(lines, tree)
    assert _decision(data).startswith("tree not used: the tree's order goes back up the page")
    md = _markdown(data)
    assert md.index("field 0") < md.index("field 15")  # top to bottom, as drawn


def test_a_page_tagged_as_one_paragraph_falls_back() -> None:
    lines, _ = _headed_page()
    lines = [("Results of the year", 72, 720, 16), *lines[1:]]
    tree: StructNode = ("Document", [("P", list(range(len(lines))))])
    data = _tagged_pdf(lines, tree)
    assert "elements spanning paragraphs" in _decision(data)
    # geometry's own heading (the larger type) is kept
    assert "# Results of the year" in _markdown(data).splitlines()


def test_table_cells_listed_out_of_order_fall_back() -> None:
    lines, tree = _table_page()
    # The tree lists each row's cells right to left but the label first: not the page's order.
    lines = [lines[0], lines[2], lines[1], lines[3], lines[5], lines[4]]
    assert "out of order" in _decision(_tagged_pdf(lines, tree))


def _cycle(b: PdfBuilder, refs: dict[str, Ref], page: Ref) -> None:
    # The paragraph's parent is its own child: a loop of /P.
    child = b.add({"Type": "/StructElem", "S": "/Span", "P": refs["P#0"], "K": []})
    b.get(refs["P#0"])["P"] = child


def _not_an_element(b: PdfBuilder, refs: dict[str, Ref], page: Ref) -> None:
    tree = b.get(b.catalog["StructTreeRoot"])
    entry = b.get(tree["ParentTree"])["Nums"][1]
    b.set(entry, [7, "text", None, refs["P#0"]])


def _entry_not_an_array(b: PdfBuilder, refs: dict[str, Ref], page: Ref) -> None:
    tree = b.get(b.catalog["StructTreeRoot"])
    b.get(tree["ParentTree"])["Nums"][1] = 12


@pytest.mark.parametrize("broken", [_cycle, _not_an_element, _entry_not_an_array])
def test_a_broken_tree_falls_back_without_an_error(broken: Any) -> None:
    lines, tree = _headed_page()
    data = _tagged_pdf(lines, tree, broken=broken)
    structure = open_pdf(data).page(1).structure
    assert structure is not None and structure.problems
    assert _decision(data).startswith("tree not used")
    md = _markdown(data)
    assert all(text in md for text, *_ in lines)


def test_a_table_the_tree_tags_as_lines_is_left_to_geometry() -> None:
    # A whitespace table of five rows, each row tagged as a paragraph.
    labels = ["Revenue", "Costs", "Margin", "Taxes", "Profit"]
    lines: list[Line] = []
    for r, label in enumerate(labels):
        y = 700 - 14 * r
        lines += [(label, 72, y, 10), (str(100 + r), 300, y, 10), (str(200 + r), 400, y, 10)]
    tree: StructNode = ("Document", [("P", [3 * r, 3 * r + 1, 3 * r + 2]) for r in range(5)])
    data = _tagged_pdf(lines, tree)
    assert "geometry finds a table" in _decision(data)
    assert "| Margin | 102 | 202 |" in _markdown(data)


def test_a_mostly_empty_tree_table_is_left_to_geometry() -> None:
    # Three rows of six cells; each row fills two cells, each in other columns (a form's grid).
    lines: list[Line] = []
    rows: list[StructNode | int] = []
    for r in range(3):
        cells: list[StructNode | int] = [("TD", []) for _ in range(6)]
        for c in (2 * r, 2 * r + 1):
            cells[c] = ("TD", [len(lines)])
            lines.append((f"cell{r}{c}", 72 + 80 * c, 700 - 14 * r, 10))
        rows.append(("TR", cells))
    data = _tagged_pdf(lines, ("Document", [("Table", rows)]))
    assert "mostly empty" in _decision(data)


def test_a_paragraph_tagged_as_a_heading_falls_back() -> None:
    lines, _ = _headed_page()
    # A paragraph of three lines (about fifty words) tagged as a heading.
    tree: StructNode = ("Document", [("P", [0]), ("H1", [1, 2, 3]), ("H2", [4]), ("P", [5, 6, 7])])
    data = _tagged_pdf(lines, tree)
    assert _decision(data).startswith("tree not used: a H1 of")
    assert not any(line.startswith("# ") for line in _markdown(data).splitlines())


def test_table_spans_place_cells_in_their_columns() -> None:
    lines = [
        ("Item", 72, 700, 10), ("Price", 300, 700, 10),
        ("Net", 300, 686, 10), ("Gross", 400, 686, 10),
        ("Tea", 72, 672, 10), ("3", 300, 672, 10), ("4", 400, 672, 10),
    ]  # fmt: skip
    tree: StructNode = (
        "Document",
        [("Table", [
            ("TR", [("TH", [0]), ("TH", [1])]),
            ("TR", [("TH", [2]), ("TH", [3])]),
            ("TR", [("TD", [4]), ("TD", [5]), ("TD", [6])]),
        ])],
    )  # fmt: skip

    def spans(b: PdfBuilder, refs: dict[str, Ref], page: Ref) -> None:
        b.get(refs["TH#0"])["A"] = {"O": "/Table", "RowSpan": 2}  # "Item" over two rows
        b.get(refs["TH#1"])["A"] = [{"O": "/Table", "ColSpan": 2}]  # "Price" over two columns

    data = _tagged_pdf(lines, tree, broken=spans)
    assert _decision(data) == "tree used"
    md = _markdown(data).splitlines()
    assert md[0] == "| Item | Price |  |"
    assert md[2:] == ["|  | Net | Gross |", "| Tea | 3 | 4 |"]


def test_a_long_documents_flat_parent_tree_is_indexed_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A word processor lists every page of a long document in one /Nums array: looking each
    # page up by a scan of it cost the square of the page count in steps.
    pages = 300
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    b.tag_every_page(
        [
            b.add_page(marked_text(0, f"page {n}", 72, 700, 10), {"Font": {"F1": font}})
            for n in range(pages)
        ]
    )
    steps = Calls(monkeypatch, Walk, "step", lambda walk, count=1: count)
    doc = open_pdf(b.build())
    for n in range(pages):
        structure = doc.page(n + 1).structure
        assert structure is not None and not structure.problems
        assert [e.kind for e in structure.elements] == ["Document", "P"]
        assert structure.elements[1].position == n  # the page's own element, in tree order
    assert steps.count < 20 * pages  # a scan per page: about pages**2 / 2


def test_a_parent_tree_whose_kids_loop_is_read_once() -> None:
    def loop(b: PdfBuilder, refs: dict[str, Ref], page: Ref) -> None:
        tree = b.get(b.catalog["StructTreeRoot"])
        b.set(tree["ParentTree"], {"Kids": [tree["ParentTree"], tree["ParentTree"]]})

    lines, tree = _headed_page()
    data = _tagged_pdf(lines, tree, broken=loop)
    assert open_pdf(data).page(1).structure is None  # the page's entry is nowhere
    assert _decision(data) == ""
    assert "Results of the year" in _markdown(data)


def test_a_list_inside_a_table_cell_stays_in_the_cell() -> None:
    lines = [
        ("Status", 72, 700, 10), ("Draft", 300, 700, 10), ("Final", 300, 688, 10),
        ("Owner", 72, 670, 10), ("Ann", 300, 670, 10),
    ]  # fmt: skip
    items: list[StructNode | int] = [("LI", [("LBody", [1])]), ("LI", [("LBody", [2])])]
    tree: StructNode = (
        "Document",
        [("Table", [
            ("TR", [("TD", [0]), ("TD", [("L", items)])]),
            ("TR", [("TD", [3]), ("TD", [4])]),
        ])],
    )  # fmt: skip
    md = _markdown(_tagged_pdf(lines, tree)).splitlines()
    assert md == ["| Status | Draft Final |", "|---|---|", "| Owner | Ann |"]


def test_h_headings_take_their_level_from_section_nesting() -> None:
    lines = [("Part one", 72, 720, 10), *_paragraph(700, 1)]
    lines += [("Detail of it", 72, 650, 10), *_paragraph(630, 5)]
    tree: StructNode = (
        "Document",
        [("Sect", [("H", [0]), ("P", [1, 2, 3]), ("Sect", [("H", [4]), ("P", [5, 6, 7])])])],
    )
    md = _markdown(_tagged_pdf(lines, tree)).splitlines()
    assert "# Part one" in md
    assert "## Detail of it" in md


def test_untagged_text_above_the_tree_comes_first() -> None:
    # A running head drawn last and not in the tree, above the tagged text.
    lines, tree = _headed_page()
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    content = b"".join(marked_text(i, t, x, y, size) for i, (t, x, y, size) in enumerate(lines))
    content += b"BT /F1 8 Tf 72 760 Td (Annual report 2024) Tj ET\n"
    page = b.add_page(content, {"Font": {"F1": font}})
    b.set_structure_tree(page, tree)
    data = b.build()
    assert _decision(data) == "tree used"
    md = _markdown(data).splitlines()
    assert md[0] == "Annual report 2024"
    assert md[2] == "# Results of the year"


def test_a_tree_without_a_parent_tree_is_found_through_its_pages() -> None:
    def no_parent_tree(b: PdfBuilder, refs: dict[str, Ref], page: Ref) -> None:
        del b.get(b.catalog["StructTreeRoot"])["ParentTree"]
        del b.get(page)["StructParents"]  # the elements' /Pg says which page they are on

    data = _tagged_pdf(*_headed_page(), broken=no_parent_tree)
    structure = open_pdf(data).page(1).structure
    assert structure is not None and structure.order == list(range(8))
    assert _decision(data) == "tree used"
    assert "## Method used here" in _markdown(data).splitlines()


def test_a_tree_walked_through_its_pages_survives_a_loop_of_kids() -> None:
    def loop(b: PdfBuilder, refs: dict[str, Ref], page: Ref) -> None:
        del b.get(b.catalog["StructTreeRoot"])["ParentTree"]
        del b.get(page)["StructParents"]
        b.get(refs["P#0"])["K"] = [1, 2, 3, refs["Document#0"], refs["P#0"]]

    lines, tree = _headed_page()
    data = _tagged_pdf(lines, tree, broken=loop)
    assert open_pdf(data).page(1).structure is not None
    assert "Method used here" in _markdown(data)


def _tagged_slide() -> tuple[list[Line], StructNode]:
    """A slide (large type, little text) whose title the tree tags; a subtitle near the top
    set larger than the body, and the points below it, are paragraphs."""
    lines: list[Line] = [
        ("Quarterly review", 72, 740, 30),
        ("Agenda for the morning", 72, 696, 22),
    ]
    points = ["Sales grew in every region", "Costs held flat", "Two new plants opened"]
    lines += [(text, 72, 640 - 36 * i, 18) for i, text in enumerate(points)]
    tree: StructNode = ("Document", [("H1", [0]), *[("P", [i]) for i in range(1, len(lines))]])
    return lines, tree


def test_a_tagged_slide_keeps_the_title_its_tree_gives() -> None:
    data = _tagged_pdf(*_tagged_slide())
    assert _decision(data) == "tree used"
    md = _markdown(data).splitlines()
    assert "# Quarterly review" in md
    # The slide-title rule looks for a title only on slides without one: the subtitle, the
    # largest text left near the top, stays a paragraph.
    assert "Agenda for the morning" in md
    assert not [line for line in md if line.startswith("#") and "Agenda" in line]
