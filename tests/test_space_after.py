"""A word space shown as a blank string of its own (``TextRun.space_after``, set by the
interpreters: tests/test_interpreter.py) is kept by every step that joins runs into words,
however narrow the gap: a line's text, its pieces, the text under a link, a table row's
words, a form field's label."""

from __future__ import annotations

import pytest

from pdfthin.engine.types import TextRun
from pdfthin.layout.covered import covered_text
from pdfthin.layout.lines import build_lines
from pdfthin.layout.tables.values import row_words
from pdfthin.model.forms import _phrase

SIZE = 10.0


def _any_liability(spaced: bool) -> list[TextRun]:
    """ "any" then "liability" 0.09 em after it: no word space by the gap alone."""
    first = TextRun("any", 72.0, 100.0, 88.1, 110.0, SIZE, "F1", seq=1, space_after=spaced)
    return [first, TextRun("liability", 89.0, 100.0, 122.0, 110.0, SIZE, "F1", seq=2)]


@pytest.mark.parametrize(("spaced", "text"), [(True, "any liability"), (False, "anyliability")])
def test_a_line_keeps_the_space(spaced: bool, text: str) -> None:
    [line] = build_lines(_any_liability(spaced))
    assert line.text == text
    # Its pieces say so too (tables and form labels read them).
    assert [t.endswith(" ") for _, _, t in line.spans] == [spaced, False]


@pytest.mark.parametrize(("spaced", "text"), [(True, "any liability"), (False, "anyliability")])
def test_the_text_under_a_link_keeps_the_space(spaced: bool, text: str) -> None:
    assert covered_text(_any_liability(spaced), [(70.0, 95.0, 130.0, 115.0)]) == text


def test_a_space_shown_after_a_run_of_many_words_follows_its_last_word() -> None:
    runs = _any_liability(True)
    runs[0].text = "free of any"  # one run, three words: the space follows "any"
    runs[0].x0 = 30.0
    assert covered_text(runs, [(20.0, 95.0, 130.0, 115.0)]) == "free of any liability"


@pytest.mark.parametrize(
    ("spaced", "words"), [(True, ["any", "liability"]), (False, ["anyliability"])]
)
def test_a_table_row_keeps_the_words_apart(spaced: bool, words: list[str]) -> None:
    # Pieces that touch are one word drawn in pieces, unless a space was shown between them.
    [line] = build_lines(_any_liability(spaced))
    assert [t for _, _, t in row_words([line], SIZE)] == words


@pytest.mark.parametrize(("spaced", "text"), [(True, "any liability"), (False, "anyliability")])
def test_a_form_label_keeps_the_space(spaced: bool, text: str) -> None:
    [line] = build_lines(_any_liability(spaced))
    assert _phrase(sorted(line.spans), SIZE) == text
