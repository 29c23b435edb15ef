"""ICDAR 2013 adjacency relations from Markdown tables and from -str.xml ground truth."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from benchmarks.metrics import tables as tb

MARKDOWN = """Intro text

| Name | **Qty** |
|---|---:|
| Apple | 1<br>2 |
|  | 3 |

after
| x | y |
"""

STR_XML = """<?xml version="1.0" encoding="UTF-8"?>
<document filename="t-str.xml">
  <table id="1">
    <region col-increment="0" id="1" page="1" row-increment="0">
      <cell id="1" start-col="1" end-col="2" start-row="0"><content>Head</content></cell>
      <cell id="2" start-col="0" start-row="1"><content>a</content></cell>
      <cell id="3" start-col="1" start-row="1"><content>b</content></cell>
      <cell id="4" start-col="2" start-row="1"><content>c</content></cell>
    </region>
  </table>
</document>
"""


def test_tables_from_markdown() -> None:
    tables = tb.tables_from_markdown(MARKDOWN)
    assert len(tables) == 2
    first = tables[0]
    assert [(c.row, c.col, c.text) for c in first] == [
        (0, 0, "Name"),
        (0, 1, "Qty"),
        (1, 0, "Apple"),
        (1, 1, "1 2"),
        (2, 0, ""),
        (2, 1, "3"),
    ]


def test_relations_skip_empty_cells() -> None:
    rels = tb.relations(tb.tables_from_markdown(MARKDOWN)[0])
    assert rels == Counter(
        {
            ("name", "qty", "h"): 1,
            ("apple", "12", "h"): 1,
            ("name", "apple", "v"): 1,
            ("qty", "12", "v"): 1,
            ("12", "3", "v"): 1,
        }
    )


def test_icdar_structure_with_a_spanning_cell(tmp_path: Path) -> None:
    path = tmp_path / "t-str.xml"
    path.write_text(STR_XML, encoding="utf-8")
    tables = tb.read_icdar_structure(path)
    assert len(tables) == 1
    rels = tb.relations(tables[0])
    # The header spans columns 1-2: it is above both b and c.
    assert rels == Counter(
        {
            ("head", "b", "v"): 1,
            ("head", "c", "v"): 1,
            ("a", "b", "h"): 1,
            ("b", "c", "h"): 1,
        }
    )


def test_score_counts_multiset_overlap(tmp_path: Path) -> None:
    path = tmp_path / "t-str.xml"
    path.write_text(STR_XML, encoding="utf-8")
    expected = tb.document_relations(tb.read_icdar_structure(path))
    predicted = tb.document_relations(
        tb.tables_from_markdown("| | Head | |\n|---|---|---|\n| a | b | c |")
    )
    s = tb.score(predicted, expected)
    # Predicted: a-b, b-c, head-b: 3 relations, all correct; head-c is missed.
    assert (s.predicted, s.expected, s.correct) == (3, 4, 3)
    assert s.precision == 1.0
    assert s.recall == pytest.approx(0.75)
    assert s.f1 == pytest.approx(2 * 0.75 / 1.75)


def test_rows_from_pdfplumber_become_tables() -> None:
    tables = tb.tables_from_rows([[["a", None], ["b", "c"]]])  # type: ignore[list-item]
    assert tb.relations(tables[0]) == Counter({("a", "b", "v"): 1, ("b", "c", "h"): 1})


def test_normalise_ignores_case_whitespace_and_dash_variants() -> None:
    assert tb.normalise(" 1 000 – Ton ") == tb.normalise("1000 - ton")


def test_a_group_title_scores_best_as_a_header_row_of_its_own() -> None:
    """The figures docs/engine.md and docs/benchmarks.md give for a statement whose period
    titles span two year columns each: ICDAR 2013 adjacency F1 of the title copied into each
    year's cell (0.70), left out of the table (0.92), and in a header row of its own, in its
    group's first column (0.97)."""
    truth = [tb.Cell(0, 1, "September 30,", end_col=2), tb.Cell(0, 3, "June 30,", end_col=4)]
    truth += [tb.Cell(1, c, year) for c, year in enumerate(["2024", "2023"] * 2, start=1)]
    body = [
        ["Revenue", "1,234", "1,100", "3,700", "3,300"],
        ["Cost of revenue", "734", "690", "2,180", "2,010"],
        ["Net income", "500", "410", "1,520", "1,290"],
    ]
    truth += [
        tb.Cell(r, c, text) for r, row in enumerate(body, start=2) for c, text in enumerate(row)
    ]
    years = ["", "2024", "2023", "2024", "2023"]
    readings = {
        "copied": [
            ["", *(f"{t} {y}" for t in ("September 30,", "June 30,") for y in ("2024", "2023"))]
        ],
        "left out": [years],
        "own row": [["", "September 30,", "", "June 30,", ""], years],
    }
    scores = {}
    for name, header in readings.items():
        (read,) = tb.tables_from_rows([[*header, *body]])
        scores[name] = round(tb.score(tb.relations(read), tb.relations(truth)).f1, 2)
    assert scores == {"copied": 0.70, "left out": 0.92, "own row": 0.97}
