"""Footnotes in the page Markdown (pdfthin/model/footnotes.py): a raised note mark becomes
``[^n]`` and its note at the page foot ``[^n]: text`` where the geometry is certain; exponents,
marks without notes, notes without marks and lists of references stay as printed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pdfbuilder import PdfBuilder

import pdfthin
from pdfthin.engine.types import TextRun
from pdfthin.model.escaping import escape_inline
from pdfthin.model.footnotes import FootnoteSettings, _Bands
from pdfthin.operations import Context, find_in_document

pytestmark = pytest.mark.usefixtures("implementation")

HEIGHT = 792.0
BODY = 10.0
NOTE = 8.0
#: A raised piece: (text, rise in points, size).
Raised = tuple[str, float, float]
Piece = str | Raised


def mark(text: str) -> Raised:
    """A superscript note mark after body text."""
    return (text, 3.5, 6.5)


def note_mark(text: str) -> Raised:
    return (text, 2.5, 5.5)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def page(lines: list[tuple[float, float, list[Piece]]]) -> bytes:
    """One page of Helvetica lines ``(baseline from the top, size, pieces)`` at x = 72; a
    raised piece is set with a text rise (``Ts``) in its own size, as word processors do."""
    parts = []
    for y, size, pieces in lines:
        ops = [f"BT 1 0 0 1 72 {HEIGHT - y:.2f} Tm"]
        for piece in pieces:
            text, rise, at = (piece, 0.0, size) if isinstance(piece, str) else piece
            ops.append(f"/F1 {at:g} Tf {rise:g} Ts ({_escape(text)}) Tj")
        ops.append("ET")
        parts.append(" ".join(ops))
    b = PdfBuilder()
    font = b.font_standard("Helvetica", encoding="/WinAnsiEncoding")
    b.add_page("\n".join(parts).encode("cp1252"), {"Font": {"F1": font}})
    return b.build()


BODY_LINES: list[tuple[float, float, list[Piece]]] = [
    (100, BODY, ["The first claim of this paper is stated here and", mark("1"), " it"]),
    (114, BODY, ["continues on the next line of the body text with"]),
    (128, BODY, ["a second claim after it", mark("2"), ", here on this line of text."]),
]
NOTES: list[tuple[float, float, list[Piece]]] = [
    (712, NOTE, [note_mark("1"), "The first note says this."]),
    (722, NOTE, ["2 The second note."]),  # its mark not raised, in the note's own run
]


def _page(data: bytes) -> pdfthin.Page:
    return pdfthin.open(data).pages[0]


def test_two_marks_and_their_notes_become_footnotes_and_the_plain_text_stays() -> None:
    data = page(BODY_LINES + NOTES)
    first = _page(data)
    md = first.markdown
    assert "stated here and[^1] it" in md
    assert "claim after it[^2], here" in md
    # The second definition on the line after the first (GitHub reads both); a space after
    # each mark: the raised 1 is a word of its own, the 2 is followed by one as printed.
    assert "\n\n[^1]: The first note says this.\n[^2]: The second note." in md
    assert md.count("[^1]") == 2 and md.count("[^2]") == 2
    # Plain text, search and anchors read the page as printed.
    assert "[^" not in first.text
    assert "The first note says this." in first.text
    found = find_in_document(data, "The second note", context=Context())
    assert [m["bbox"][0]["y0"] > 700 for m in found["matches"]] == [True]
    for anchor in first.anchors:
        block = md[anchor.offset : anchor.offset + anchor.length]
        assert block == block.strip() and block  # anchors moved with the edits


def test_a_raised_number_without_a_note_stays_text() -> None:
    md = _page(page(BODY_LINES + NOTES[1:])).markdown  # note 1 missing
    assert "[^" not in md  # mark 1 has no note: the page's numbered notes are not certain
    md = _page(page(BODY_LINES)).markdown
    assert "[^" not in md and "stated here and1 it" in md


def test_a_note_without_its_mark_stays_text() -> None:
    lines = [(100, BODY, ["The first claim of this paper is stated here and it"])]
    lines += BODY_LINES[1:2]
    lines.append((128, BODY, ["a second claim after it", mark("2"), ", here on this line."]))
    md = _page(page(lines + NOTES)).markdown
    assert "[^1]" not in md and "The first note says this." in md
    assert "after it[^2]" in md and "\n[^2]: The second note." in md


def test_exponents_stay_text() -> None:
    lines: list[tuple[float, float, list[Piece]]] = [
        (100, BODY, ["The area grows as x", mark("2"), " when the side doubles, and"]),
        (114, BODY, ["the count reaches 10", mark("3"), " in the end, as stated above."]),
    ]
    notes: list[tuple[float, float, list[Piece]]] = [
        (712, NOTE, [note_mark("2"), "A note numbered two."]),
        (722, NOTE, [note_mark("3"), "A note numbered three."]),
    ]
    md = _page(page(lines + notes)).markdown
    assert "[^" not in md
    assert "grows as x2 when" in md and "reaches 103 in" in md


def test_superscript_citations_of_a_reference_list_are_not_footnotes() -> None:
    """Vancouver style: raised numbers cite a numbered list of references at the foot."""
    lines: list[tuple[float, float, list[Piece]]] = [
        (100, BODY, ["Earlier work found the same effect in mice", mark("1"), " and"]),
        (114, BODY, ["later in a larger trial of adult patients", mark("2"), "."]),
    ]
    refs: list[tuple[float, float, list[Piece]]] = [
        (712, NOTE, ["1. Smith J, Doe A. Effects in mice. J Biol. 2001;4:1-9."]),
        (722, NOTE, ["2. Roe R. A larger trial. Lancet. 2003;7:10-19."]),
    ]
    md = _page(page(lines + refs)).markdown
    assert "[^" not in md
    assert "in mice1 and" in md


def test_a_number_used_twice_stays_text() -> None:
    lines = [*BODY_LINES[:2], (128, BODY, ["a second claim after it", mark("1"), ", here."])]
    md = _page(page(lines + NOTES[:1])).markdown
    assert "[^" not in md


def test_a_literal_footnote_reference_in_page_text_is_escaped() -> None:
    assert escape_inline("see [^1] here") == "see \\[^1] here"
    assert escape_inline("a [b] c") == "a [b] c"  # a bracket alone needs nothing
    lines: list[tuple[float, float, list[Piece]]] = [(100, BODY, ["Plain [^1] in the text."])]
    md = _page(page(lines + NOTES[:1])).markdown
    assert "Plain \\[^1] in the text." in md


def test_the_thresholds_are_in_the_text_own_units() -> None:
    """A mark raised by less than the rise (and not smaller than its word) is not a mark."""
    s = FootnoteSettings()
    assert 0 < s.rise_em < 0.5 and 0 < s.small_ratio < 1 and s.note_size_ratio < 1
    lines: list[tuple[float, float, list[Piece]]] = [
        (100, BODY, ["The first claim of this paper is stated here and", ("1", 0.5, BODY), " it"]),
    ]
    md = _page(page(lines + NOTES[:1])).markdown
    assert "[^" not in md


# --- the bands that find a mark's host ----------------------------------------------------------

_coordinate = st.one_of(
    st.floats(-2_000, 2_000, allow_nan=False),
    st.sampled_from([float("nan"), float("inf"), -float("inf"), 1e300]),
)


@settings(max_examples=200, deadline=None)
@given(
    boxes=st.lists(st.tuples(_coordinate, _coordinate), min_size=1, max_size=40),
    height=st.one_of(st.floats(0.1, 50), st.sampled_from([0.0, -1.0, float("nan")])),
)
def test_the_bands_find_every_run_level_with_one_in_order(
    boxes: list[tuple[float, float]], height: float
) -> None:
    """What a scan of every run finds level with a run, the bands find too, in the runs' own
    order (the host is the first of the rightmost), whatever the heights, even not finite."""
    runs = [TextRun("1", 0, y0, 5, y1, 10, "F") for y0, y1 in boxes]
    bands = _Bands(runs, height)
    at = {id(r): i for i, r in enumerate(runs)}
    for run in runs:
        level = [at[id(h)] for h in runs if h.y0 < run.y1 and run.y0 < h.y1]
        found = [at[id(h)] for h in bands.across(run)]
        assert [i for i in found if runs[i].y0 < run.y1 and run.y0 < runs[i].y1] == level
        assert found == sorted(set(found))
