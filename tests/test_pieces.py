"""Runs cut inside one ``TJ`` array and joined back (``engine/content/pieces.py``): the cuts
of a row of figures stand, the label's included; any other array is one run again."""

from __future__ import annotations

from pdfthin.engine.content.pieces import rejoin
from pdfthin.engine.types import TextRun


def _array(*texts: str, start: int = 1, ocr: tuple[int, ...] = ()) -> list[TextRun]:
    """Runs of one array: each after the first ``joined``, ``seq`` counting up."""
    return [
        TextRun(t, 10.0 * i, 0.0, 10.0 * i + 8, 9.0, 9.0, "F1", seq=start + i, joined=i > 0,
                ocr_layer=i in ocr)
        for i, t in enumerate(texts)
    ]  # fmt: skip


def _texts(runs: list[TextRun]) -> list[str]:
    return [r.text for r in runs]


def test_a_row_of_figures_keeps_its_cuts_before_values() -> None:
    runs = rejoin(_array("Server closets", "1,505", "(86)", "-", "$1,580", "note"))
    assert _texts(runs) == ["Server closets", "1,505", "(86)", "-", "$1,580 note"]


def test_any_other_array_is_one_run_again_with_its_box() -> None:
    runs = rejoin(_array("published in", "Jul.", "2014.", "[Online]"))
    assert _texts(runs) == ["published in Jul. 2014. [Online]"]
    assert (runs[0].x0, runs[0].x1) == (0.0, 38.0)


def test_runs_of_different_arrays_are_never_joined() -> None:
    first = _array("Total", "12")
    second = _array("and more", "words", start=10)  # not the next run drawn
    second[0].joined = True
    runs = rejoin([*first, *second])
    assert _texts(runs) == ["Total 12", "and more words"]


def test_a_cut_between_the_page_text_and_its_ocr_layer_stands() -> None:
    runs = rejoin(_array("visible", "words", ocr=(1,)))
    assert _texts(runs) == ["visible", "words"]


def test_a_joined_run_keeps_the_space_shown_after_its_last_piece() -> None:
    runs = _array("published in", "Jul.")
    runs[-1].space_after = True  # a blank string was shown right after "Jul."
    [run] = rejoin(runs)
    assert run.text == "published in Jul." and run.space_after
    first = _array("published in", "Jul.")
    first[0].space_after = True  # the space before "Jul." is inside the joined text now
    [run] = rejoin(first)
    assert run.text == "published in Jul." and not run.space_after
