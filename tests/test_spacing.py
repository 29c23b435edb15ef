"""Pages set one and a half or double spaced: a paragraph's lines stay one paragraph
(``blocks.wide_spacing``), and what is not a paragraph stays apart at any spacing."""

from __future__ import annotations

import textwrap

import pytest

from pdfthin.engine.types import PageContent, TextRun
from pdfthin.layout import blocks, finish_document, layout_page
from pdfthin.layout.lines import build_lines
from pdfthin.model.markdown import render_blocks

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")

SIZE = 10.0
CHAR_W = 5.0  # a fixed advance per character: half an em at 10 pt
LEFT = 72.0
MEASURE_CHARS = 92  # a line of about 46 em

FIRST = (
    "The overview is structured around twelve tables whose objective is to draw together an "
    "opening picture of some of the salient features of the market, the result of a trawl of "
    "existing studies which are extremely disparate in coverage and variable in the quality of "
    "their estimates, so that considerable judgement was exercised in selecting and reporting "
    "only those estimates which we judge to be reliable and not internally inconsistent."
)
SECOND = (
    "Plaintiff requests a sum which a jury decides is fair for her injuries but not to exceed "
    "the sum claimed, together with the costs and disbursements incurred herein and such other "
    "relief as the court deems just, for the reasons given in the paragraphs above and in the "
    "exhibits attached hereto and marked as the parties agreed when the complaint was filed."
)


def _line(text: str, x: float, baseline: float) -> list[TextRun]:
    """One run per word, a normal word space apart (top-left origin, y down)."""
    runs = []
    for word in text.split():
        width = len(word) * CHAR_W
        runs.append(
            TextRun(word, x, baseline - 0.8 * SIZE, x + width, baseline + 0.2 * SIZE, SIZE, "F")
        )
        x += width + 0.3 * SIZE
    return runs


def _paragraphs(texts: list[str], pitch: float, indent: float = 3.0 * SIZE) -> list[TextRun]:
    """``texts`` set as paragraphs at ``pitch`` (baseline to baseline), each first line
    indented by ``indent``, no extra space between paragraphs (as double-spaced filings are)."""
    runs: list[TextRun] = []
    baseline = 100.0
    for text in texts:
        # (the first line's indent takes its room in the measure)
        first = " " * round(indent / CHAR_W)
        for i, line in enumerate(textwrap.wrap(text, MEASURE_CHARS, initial_indent=first)):
            runs += _line(line.strip(), LEFT + (indent if i == 0 else 0.0), baseline)
            baseline += pitch
    return runs


def _markdown(runs: list[TextRun]) -> str:
    layout = layout_page(PageContent(number=1, width=612, height=792, rotation=0, runs=runs))
    finish_document([layout])
    return render_blocks(layout.blocks)


def _paras(markdown: str) -> list[str]:
    return [" ".join(p.split()) for p in markdown.split("\n\n") if p.strip()]


@pytest.mark.parametrize("pitch", [18.0, 20.0, 24.0, 28.0])
def test_a_widely_spaced_paragraph_reads_as_one(pitch: float) -> None:
    # 1.8, 2, 2.4 and 2.8 times the size: gaps of 0.8 to 1.8 em, past LINE_GAP_EM.
    assert (pitch - SIZE) / SIZE > blocks.LINE_GAP_EM
    paras = _paras(_markdown(_paragraphs([FIRST, SECOND], pitch)))
    assert paras == [" ".join(FIRST.split()), " ".join(SECOND.split())]
    # The same as the paragraphs set single spaced.
    assert paras == _paras(_markdown(_paragraphs([FIRST, SECOND], 12.0)))


def test_the_page_spacing_is_measured_on_its_full_lines() -> None:
    lines = build_lines(_paragraphs([FIRST, SECOND], 24.0))
    found = blocks.wide_spacing(sorted(lines, key=lambda ln: ln.y0))
    assert found is not None
    size, gap = found
    assert size == SIZE
    assert gap == pytest.approx((24.0 - SIZE) / SIZE + blocks.WIDE_SLACK_EM)
    # Single spaced, nothing to measure: the page is read as it always was.
    assert blocks.wide_spacing(build_lines(_paragraphs([FIRST, SECOND], 12.0))) is None


def test_too_few_full_lines_tell_no_spacing() -> None:
    short = " ".join(FIRST.split()[:40])  # two full lines and a short one
    lines = build_lines(_paragraphs([short, short], 24.0))
    assert blocks.wide_spacing(sorted(lines, key=lambda ln: ln.y0)) is None


def test_short_lines_at_wide_spacing_stay_apart() -> None:
    # A list of abbreviations under double-spaced paragraphs: its lines fill no measure.
    runs = _paragraphs([FIRST, SECOND], 24.0)
    entries = ["Def. Definition", "etc. et cetera", "ex. existieren", "Prop. Proposition"]
    for i, entry in enumerate(entries):
        runs += _line(entry, LEFT, 400.0 + 24.0 * i)
    paras = _paras(_markdown(runs))
    assert paras == [" ".join(FIRST.split()), " ".join(SECOND.split()), *entries]


def test_sparse_rows_tell_no_spacing() -> None:
    # A table's rows, a label far from its figures: as wide as running text, not as dense.
    names = ["Alcona", "Caledonia", "Greenbush", "Harrisville", "Mikado", "Millen", "Hawes"]
    runs: list[TextRun] = []
    for i, name in enumerate(names):
        runs += _line(f"{name} county totals", LEFT, 100.0 + 24.0 * i)
        runs += _line(f"{i + 3} {2 * i + 1}", 500.0, 100.0 + 24.0 * i)
    pieces = build_lines(runs)
    lines = sorted(blocks.rejoin_rows(pieces, pieces), key=lambda ln: ln.y0)  # as in layout_page
    assert len(lines) == len(names)
    assert all(ln.x1 - ln.x0 >= blocks.WIDE_MIN_MEASURE_EM * SIZE for ln in lines)
    assert blocks.wide_spacing(lines) is None


def test_contents_entries_at_wide_spacing_stay_apart() -> None:
    # A contents page: every entry fills the measure with its leader, at double spacing.
    titles = [f"Annex {c} (normative) Character Sets and Encodings" for c in "ABCDEFGH"]
    runs: list[TextRun] = []
    for i, title in enumerate(titles):
        entry = title + " " + ". " * ((MEASURE_CHARS - len(title) - 6) // 2) + str(600 + i)
        runs += _line(entry, LEFT, 100.0 + 24.0 * i)
    lines = build_lines(runs)
    assert blocks.wide_spacing(sorted(lines, key=lambda ln: ln.y0)) is None
    assert len(_paras(_markdown(runs))) == len(titles)


def test_labels_over_short_fields_tell_no_spacing() -> None:
    # A form: each label a full measure's width of words, the field under it one word.
    labels = [
        "Medical Staff Coordinator (include the title and the department)",
        "Chief Medical Officer of the system named above, or the deputy",
    ]
    runs: list[TextRun] = []
    baseline = 100.0
    for _ in range(4):
        for label in labels:
            runs += _line(label, LEFT, baseline)
            runs += _line("Email", LEFT, baseline + 24.0)
            baseline += 48.0
    lines = sorted(build_lines(runs), key=lambda ln: ln.y0)
    assert blocks.wide_spacing(lines) is None
    assert len(_paras(_markdown(runs))) == len(lines)
