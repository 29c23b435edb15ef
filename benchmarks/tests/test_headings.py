"""Heading titles from Markdown against an outline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.metrics import headings as hd


def test_headings_from_markdown_with_levels_and_pages() -> None:
    pages = [
        "# **Paper title**\n\ntext\n## I. INTRODUCTION",
        "text ## not a heading\n### A. Detail",
    ]
    assert hd.headings_from_markdown(pages) == [
        hd.Heading(1, "Paper title", 1),
        hd.Heading(2, "I. INTRODUCTION", 1),
        hd.Heading(3, "A. Detail", 2),
    ]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("I Introduction", "I. INTRODUCTION"),
        ("III-A Google DeepDream", "A. Google DeepDream"),
        ("2.1 Related work", "Related Work"),
        ("Eﬃcient Methods", "Efficient methods"),
        # a book's outline numbers its chapters; the page spells the number out
        ('2: "Mere Copyists"', "CHAPTER TWO: “Mere Copyists”"),
        ("14: Eldred II", "CHAPTER FOURTEEN: Eldred II"),
    ],
)
def test_titles_match_despite_case_numbering_and_ligatures(a: str, b: str) -> None:
    assert hd.similarity(a, b) >= hd.THRESHOLD


def test_different_titles_do_not_match() -> None:
    assert hd.similarity("Mild cases", "Severe cases") < hd.THRESHOLD
    assert hd.similarity("Introduction", "Conclusion") < hd.THRESHOLD
    # A number word is numbering only after "Chapter" (and the like): "One Idea" is a title.
    assert hd.similarity("One Idea", "Idea") < hd.THRESHOLD


def test_score_precision_recall_and_level_agreement() -> None:
    expected = [
        hd.Heading(1, "Introduction", 1),
        hd.Heading(2, "Background", 1),
        hd.Heading(1, "Method", 2),
        hd.Heading(1, "Results", 3),
    ]
    # Title as "#", sections one level deeper: levels agree after dense ranking.
    predicted = [
        hd.Heading(1, "A Paper", 1),
        hd.Heading(2, "1 Introduction", 1),
        hd.Heading(3, "1.1 Background", 1),
        hd.Heading(3, "2 Method", 2),  # wrong level
    ]
    s = hd.score(predicted, expected)
    assert (s.predicted, s.expected, s.matched) == (4, 4, 3)
    assert s.precision == pytest.approx(0.75)
    assert s.recall == pytest.approx(0.75)
    assert s.f1 == pytest.approx(0.75)
    assert s.level_agreement == pytest.approx(2 / 3)


def test_each_outline_entry_matches_once_nearest_page_first() -> None:
    expected = [hd.Heading(1, "Summary", 2), hd.Heading(1, "Summary", 9)]
    predicted = [hd.Heading(1, "Summary", 9)]
    pairs = hd.match(predicted, expected)
    assert pairs == [(predicted[0], expected[1])]


def test_no_predictions_scores_zero() -> None:
    s = hd.score([], [hd.Heading(1, "A title", 1)])
    assert (s.precision, s.recall, s.f1, s.level_agreement) == (0.0, 0.0, 0.0, None)


def test_read_outline(tmp_path: Path) -> None:
    path = tmp_path / "x.outline.json"
    path.write_text(json.dumps({"items": [{"level": 2, "title": " T ", "page": 3}, {"title": ""}]}))
    assert hd.read_outline(path) == [hd.Heading(2, "T", 3)]


def test_outline_entries_the_document_does_not_show_are_not_truth() -> None:
    pages = [
        "",  # a blank page its outline calls "Blank Page"
        "CHAPTER TWO: “Mere Copyists”\nSome text of the chapter.\nThe\nLong Title\n",
        "Threat Model In this work, we assume\n",
    ]
    items = [
        hd.Heading(1, "Blank Page", 1),
        hd.Heading(1, '2: "Mere Copyists"', 2),  # numbered in the outline, spelled out
        hd.Heading(1, "The Long Title", 2),  # wraps over two lines
        hd.Heading(1, "Threat Model", 3),  # run in: the line begins with it
        hd.Heading(1, "Valid Destination: Named", 3),  # names a test case, not a heading
        hd.Heading(1, "Some text of the chapter", 0),  # no page: looked for on every page
        hd.Heading(1, "Threat Model", 2),  # on the page before the one that shows it
        hd.Heading(1, "Copyists", 3),  # shown, but two pages before
    ]
    assert hd.shown(items, pages) == [items[1], items[2], items[3], items[5], items[6]]


def test_headings_on_pages_whose_entries_are_not_shown_are_not_judged() -> None:
    items = [hd.Heading(1, "Slide Number 2", 2), hd.Heading(1, "Results", 3)]
    kept = [items[1]]
    assert hd.unjudged_pages(items, kept) == {2}
    # A page that also has a shown entry is judged.
    items.append(hd.Heading(1, "Slide Number 3", 3))
    assert hd.unjudged_pages(items, kept) == {2}


def test_outline_truth_keeps_what_pages_show_or_nothing() -> None:
    items = [
        hd.Heading(1, t, i)
        for i, t in enumerate(["Welcome", "Slide Number 2", "Method", "Results"], 1)
    ]
    pages = ["Welcome", "Approved for Adults?", "Method", "Results"]
    assert hd.outline_truth(items, pages) == ([items[0], items[2], items[3]], {2})
    # Without a plain-text reading every entry stands; too few shown entries are no truth.
    assert hd.outline_truth(items, None) == (items, set())
    assert hd.outline_truth(items, ["Welcome", "", "", ""]) is None
    assert hd.outline_truth(items[:2], pages) is None


def test_heading_fidelity_checks_outlines_against_the_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scoring's own use of the check: an entry no page shows is not expected, and a
    heading on its page is not counted against the engine."""
    from benchmarks import corpus, engines, score

    relpath, gt = "deck/slides.pdf", "deck/gt/outline/slides.outline.json"
    (tmp_path / "deck/gt/outline").mkdir(parents=True)
    titles = ["Welcome", "Slide Number 2", "Method", "Results"]
    items = [{"level": 1, "title": t, "page": i} for i, t in enumerate(titles, 1)]
    (tmp_path / gt).write_text(json.dumps({"items": items}), encoding="utf-8")
    entry = corpus.Entry(relpath, 4, 1, (gt,), frozenset({"outline"}))
    shown = ["Welcome\ntext", "Approved for Adults?\ntext", "Method\ntext", "Results\ntext"]
    monkeypatch.setattr(score, "_plain_text", lambda run, entry: shown)
    markdown = [f"# {line.splitlines()[0]}\n\ntext" for line in shown]
    raw = [
        {
            "engine": "pdfthin",
            "file": relpath,
            "variant": "main",
            "outcome": "ok",
            "pages": [{"text": md} for md in markdown],
        }
    ]
    run = score.Run.build(
        raw, [engines.ENGINES["pdfthin"]], [entry], corpus.Corpus(tmp_path, (entry,))
    )
    result = score.heading_fidelity(run)["engines"]["pdfthin"]["files"][relpath]
    # "Slide Number 2" is not expected, and page 2's real title is not an extra.
    assert (result["expected"], result["predicted"], result["matched"]) == (3, 3, 3)
