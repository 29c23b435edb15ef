"""The py-pdf/benchmarks text score and Markdown stripping."""

from __future__ import annotations

import pytest

from benchmarks.metrics import text as tx


def test_indel_similarity_of_known_strings() -> None:
    # "abc" -> "abd": delete c, insert d = 2 edits over 6 characters.
    assert tx.indel_similarity("abc", "abd") == pytest.approx(1 - 2 / 6)
    assert tx.indel_similarity("same", "same") == 1.0
    assert tx.indel_similarity("", "") == 1.0
    assert tx.indel_similarity("abc", "") == 0.0
    # Insertions only: "ab" inside "abcd" is 2 edits over 6 characters.
    assert tx.indel_similarity("ab", "abcd") == pytest.approx(1 - 2 / 6)


def test_ligatures_are_expanded_before_scoring() -> None:
    assert tx.expand_ligatures("ﬁnd the ﬂow, oﬀer, eﬃcient") == "find the flow, offer, efficient"
    assert tx.text_score(["ﬁsh"], "fish") == 1.0


def test_pages_are_joined_by_newlines() -> None:
    assert tx.document_text(["one", "two"]) == "one\ntwo"
    assert tx.text_score(["one", "two"], "one\ntwo") == 1.0


def test_strip_markdown_removes_syntax_and_keeps_text() -> None:
    md = "\n".join(
        [
            "# **Title** #",
            "",
            "Some *emphasis*, __strong__, `code` and [a link](http://x) ![img](a.png).",
            "- a bullet",
            "> quoted",
            "1\\. not a list, 2 \\* 3",
            "---",
            "| A | B<br>c |",
            "|---|:--:|",
            "| 1 | \\| 2 |",
            "**==> picture [10 x 10] intentionally omitted <==**",
            "snake_case_name stays",
        ]
    )
    assert tx.strip_markdown(md).split("\n") == [
        "Title",
        "Some emphasis, strong, code and a link .",
        "a bullet",
        "quoted",
        "1. not a list, 2 * 3",
        "A B c",
        "1 | 2",
        "snake_case_name stays",
    ]


def test_markdown_engines_are_scored_on_stripped_text() -> None:
    # The blank line between Markdown paragraphs is syntax: the plain text has one line break.
    assert tx.text_score(["## Heading\n\nBody **bold**"], "Heading\nBody bold", True) == 1.0
    assert tx.text_score(["## Heading"], "Heading", False) < 1.0


def test_footnotes_are_read_as_their_marks() -> None:
    """pdfthin's footnotes (pdfthin/model/footnotes.py) score as the marks printed."""
    from pdfthin.model.footnotes import SYMBOL_LABELS

    md = "A claim[^1] and another[^ast].\n\n[^1]: The note.\n\n[^ast]:Its note.\nOn \\[^2] here."
    assert tx.strip_markdown(md).split("\n") == [
        "A claim1 and another*.",
        "1 The note.",
        "*Its note.",
        "On [^2] here.",
    ]
    assert {v: k for k, v in tx._FOOTNOTE_SYMBOLS.items()} == SYMBOL_LABELS
