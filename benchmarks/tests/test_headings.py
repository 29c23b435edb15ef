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
    ],
)
def test_titles_match_despite_case_numbering_and_ligatures(a: str, b: str) -> None:
    assert hd.similarity(a, b) >= hd.THRESHOLD


def test_different_titles_do_not_match() -> None:
    assert hd.similarity("Mild cases", "Severe cases") < hd.THRESHOLD
    assert hd.similarity("Introduction", "Conclusion") < hd.THRESHOLD


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
