"""Per-source fidelity, camelot ground truth, row kept together, the plain-text guard, the page
tests and the before/after comparison, on small hand-made inputs."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from benchmarks import compare, corpus, engines, report, score
from benchmarks import sources as src
from benchmarks.metrics import camelot as cm
from benchmarks.metrics import rows as rw
from benchmarks.metrics import tables as tb
from benchmarks.metrics import texttests as tt

# --- sources ------------------------------------------------------------------------------------


def test_source_is_the_first_folder_and_roles_follow_the_tuned_table() -> None:
    assert src.source_of("camelot/health.pdf") == "camelot"
    assert src.role("tables", "tabula-icdar2013") == "tuned"
    assert src.role("tables", "camelot") == "held out"
    assert src.role("text", "pypdf-benchmarks") == "tuned"
    assert src.role("text", "sample-files") == "held out"


def test_mean_and_worst_source() -> None:
    by = score.mean_by_source({"a/1.pdf": 1.0, "a/2.pdf": 0.5, "b/1.pdf": 0.6, "c/1.pdf": None})
    assert by["a"] == {"files": 2, "value": 0.75}
    assert by["c"] == {"files": 0, "value": None}
    assert score.worst_source(by) == {"source": "b", "value": 0.6}


# --- camelot ground truth -----------------------------------------------------------------------

DATA = """
data_one = [["Name", "Total"], ["Andhra<s>a</s>", "1,234"]]
data_two = data_one[1:]
data_three = list(data_one)
data_three.extend([["Goa", "5"]])
data_bad = __import__("pathlib").Path(MARKER).write_text("ran")
data_one = [["Name", "Total"], ["Assam", "7"]]
"""


def test_camelot_data_is_read_without_running_it(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    env = cm.read_data(DATA.replace("MARKER", repr(str(marker))))
    assert not marker.exists()
    assert "data_bad" not in env
    # The last assignment wins, as in Python; derived values use the value at their line.
    assert env["data_one"] == [["Name", "Total"], ["Assam", "7"]]
    assert env["data_two"] == [["Andhra<s>a</s>", "1,234"]]
    assert env["data_three"][-1] == ["Goa", "5"] and len(env["data_three"]) == 3


def test_camelot_flag_tags_are_dropped() -> None:
    table = cm.table_from_rows([["Andhra<s>a</s>", "1"]])
    assert [c.text for c in table] == ["Andhraa", "1"]


def test_every_expectation_names_its_test_and_existing_data() -> None:
    for exp in cm.EXPECTATIONS:
        assert exp.file.endswith(".pdf") and exp.page >= 1
        assert "::test_" in exp.test and exp.data
    # The corpus where CI and tests/conftest.py find it: beside the repository.
    beside = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
    root = Path(os.environ.get("PDFTHIN_CORPUS", beside))
    data_file = root / cm.DATA_FILE
    if not data_file.exists():
        pytest.skip("corpus not available")
    env = cm.read_data(data_file.read_text(encoding="utf-8"))
    for exp in cm.EXPECTATIONS:
        assert all(name in env for name in exp.data), exp
        assert (root / exp.file).exists(), exp.file


def test_within_judges_only_relations_between_known_texts() -> None:
    truth = [cm.table_from_rows([["A", "1"], ["B", "2"]])]
    predicted = Counter({("a", "1", "h"): 1, ("a", "title", "v"): 1, ("b", "1", "h"): 1})
    kept = tb.within(predicted, truth)
    assert kept == Counter({("a", "1", "h"): 1, ("b", "1", "h"): 1})


def _run(
    tmp_path: Path,
    files: dict[str, list[str]],
    names: tuple[str, ...],
    outputs: dict[tuple[str, str], list[str]],
    truths: dict[str, str] | None = None,
) -> score.Run:
    truths = truths or {}
    entries = [
        corpus.Entry(f, len(p), 1, (truths[f],) if f in truths else (), frozenset())
        for f, p in files.items()
    ]
    raw = [
        {
            "engine": name,
            "file": f,
            "variant": "main",
            "outcome": "ok",
            "pages": [{"text": t} for t in pages],
        }
        for (name, f), pages in outputs.items()
    ]
    chosen = [engines.ENGINES[n] for n in names]
    return score.Run.build(raw, chosen, entries, corpus.Corpus(tmp_path, tuple(entries)))


def test_camelot_tables_are_scored_on_their_page_and_per_source(tmp_path: Path) -> None:
    (tmp_path / "camelot" / "gt").mkdir(parents=True)
    rows = [["State", "Revenue"], ["Goa", "4,055,567"], ["Assam", "14,874,821"]]
    (tmp_path / cm.DATA_FILE).write_text(f"data_stream = {rows!r}\n", encoding="utf-8")
    good = "| State | Revenue |\n|---|---|\n| Goa | 4,055,567 |\n| Assam | 14,874,821 |\n"
    # A table the truth does not cover (the page's title block) is not judged.
    extra = "| Report | 2012 |\n|---|---|\n| Page | 23 |\n"
    run = _run(
        tmp_path,
        {"camelot/health.pdf": ["", ""]},
        ("pdfthin", "pymupdf4llm"),
        {
            ("pdfthin", "camelot/health.pdf"): [extra + "\n" + good, ""],
            # Right table, wrong page: the expectation is for page 1.
            ("pymupdf4llm", "camelot/health.pdf"): ["", good],
        },
    )
    tables = score.table_fidelity(run)
    mine = tables["engines"]["pdfthin"]["files"]["camelot/health.pdf"]
    # 3 rows x 2 columns: 3 relations across, 4 down.
    assert (mine["correct"], mine["predicted"], mine["expected"]) == (7, 7, 7)
    assert tables["engines"]["pymupdf4llm"]["files"]["camelot/health.pdf"]["recall"] == 0.0
    assert tables["engines"]["pdfthin"]["by_source"]["camelot"]["value"] == 1.0
    assert tables["camelot_tests"]["camelot/health.pdf"] == "test_stream.py::test_stream"


# --- row kept together --------------------------------------------------------------------------


def test_labelled_rows_need_a_label_and_a_number() -> None:
    table = cm.table_from_rows(
        [
            ["", "2016", "2015"],  # header: no label
            ["Net asset value", "5,111,372", "4,000"],
            ["2014", "7", "8"],  # first cell is a number, not a label
            ["Class A", "", ""],  # no value
            ["Units (EUR)", "n/a", "(1,234)"],
        ]
    )
    found = rw.labelled_rows(table, page=2)
    assert [(r.label, r.value, r.page) for r in found] == [
        ("netassetvalue", "5,111,372", 2),
        ("units(eur)", "(1,234)", 2),
    ]


def test_row_kept_together_on_one_line_only() -> None:
    row = rw.LabelledRow("netassetvalueperunitat31december", "104.03")
    markdown = "| Net Asset Value per unit at 31 December | 104.03 |"
    assert rw.kept_together(row, rw.output_lines(markdown, markdown=True))
    plain = "N et Asset Value per unit at 31 December      104.03"
    assert rw.kept_together(row, rw.output_lines(plain, markdown=False))
    split = "Net Asset Value per unit at 31 December\n104.03"
    assert not rw.kept_together(row, rw.output_lines(split, markdown=False))
    # The value must follow the label: a number before it on the line is another cell.
    assert not rw.kept_together(row, ["104.03netassetvalueperunitat31december"])
    # A wrapped label: its last characters sit on the value's line.
    wrapped = "Net Asset Value per unit\nat 31 December 104.03"
    assert rw.kept_together(row, rw.output_lines(wrapped, markdown=False))


def test_count_kept_looks_on_the_row_page() -> None:
    rows = [rw.LabelledRow("goa", "5", page=2), rw.LabelledRow("assam", "7")]
    kept, total = rw.count_kept(rows, ["Goa 5\nAssam 7", "nothing"], markdown=False)
    assert (kept, total) == (1, 2)


# --- plain-text guard ---------------------------------------------------------------------------


def test_cause_names_the_difference() -> None:
    peer = "the quick brown fox jumps over the lazy dog " * 5
    assert score.cause(peer[: len(peer) // 2], peer).startswith("lost 5")
    assert score.cause(peer + peer, peer).startswith("100% more characters")
    split = peer.replace("quick", "qu ick").replace("brown", "br own").replace("lazy", "la zy")
    assert score.cause(split, peer).startswith("words split")
    reordered = " ".join(reversed(peer.split()))
    assert score.cause(reordered, peer) == "same words, order differs"


def test_guard_flags_pdfthin_only_below_both_plain_text_engines(tmp_path: Path) -> None:
    text = "Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi"
    lost = "Alpha beta gamma"
    outputs = {
        ("pdfthin", "a/bad.pdf"): [lost],
        ("pypdf", "a/bad.pdf"): [text],
        ("pypdfium2", "a/bad.pdf"): [text],
        # pdfthin agrees with one engine and the other is off: nobody is flagged.
        ("pdfthin", "a/split.pdf"): [text],
        ("pypdf", "a/split.pdf"): [lost],
        ("pypdfium2", "a/split.pdf"): [text],
        # A page that is only its page number is too short to rate.
        ("pdfthin", "a/number.pdf"): [""],
        ("pypdf", "a/number.pdf"): ["12"],
        ("pypdfium2", "a/number.pdf"): ["12"],
    }
    # With a ground truth, the truth decides: below pypdfium2 but above pypdf is not flagged.
    gt = "pypdf-benchmarks/gt/x.txt"
    (tmp_path / gt).parent.mkdir(parents=True)
    (tmp_path / gt).write_text(text, encoding="utf-8")
    outputs[("pdfthin", "pypdf-benchmarks/x.pdf")] = [text.rsplit(" ", 3)[0]]
    outputs[("pypdf", "pypdf-benchmarks/x.pdf")] = [lost]
    outputs[("pypdfium2", "pypdf-benchmarks/x.pdf")] = [text]
    run = _run(
        tmp_path,
        {
            "a/bad.pdf": [""],
            "a/split.pdf": [""],
            "a/number.pdf": [""],
            "pypdf-benchmarks/x.pdf": [""],
        },
        ("pdfthin", "pypdf", "pypdfium2"),
        outputs,
        {"pypdf-benchmarks/x.pdf": gt},
    )
    guard = score.plain_text_guard(run)
    assert guard["files"] == 3
    assert [f["file"] for f in guard["flagged"]] == ["a/bad.pdf"]
    assert guard["flagged"][0]["basis"] == "agreement"
    assert guard["flagged"][0]["cause"].startswith("lost ")
    lines = report.guard_section({"plain_text_guard": guard})
    assert any(line.startswith("| a/bad.pdf | agreement |") for line in lines)


# --- page tests ---------------------------------------------------------------------------------


def _t(kind: str, text: str, other: str = "") -> tt.TextTest:
    return tt.TextTest("f.pdf", 1, kind, text, "why", other)


def test_page_test_kinds() -> None:
    page = "# Title\n\nLeft column ends here.\nRight column\nstarts ﬁne.\n\n| Goa | 4,055 |\n"
    assert tt.passes(_t("present", "right column starts fine"), page, markdown=True)
    assert not tt.passes(_t("present", "Right column ends"), page, markdown=True)
    assert tt.passes(_t("absent", "Page 2 of 10"), page, markdown=True)
    assert not tt.passes(_t("absent", "title"), page, markdown=True)
    assert tt.passes(_t("order", "ends here.", "Right column"), page, markdown=True)
    assert not tt.passes(_t("order", "Right column", "ends here."), page, markdown=True)
    assert tt.passes(_t("row", "Goa", "4,055"), page, markdown=True)
    assert not tt.passes(_t("row", "Right column", "starts"), page, markdown=True)
    # In plain text the pipes are text: the row test still finds both on one line.
    assert tt.passes(_t("row", "Goa", "4,055"), "Goa    4,055", markdown=False)
    with pytest.raises(ValueError):
        tt.passes(_t("near", "a"), page, markdown=False)


def test_page_tests_with_the_markdown_syntax_kept() -> None:
    """olmOCR-bench's reading: emphasis markers out, every other character of the Markdown in."""
    page = "A **bold** claim and *this*.\nSee the [manual](https://x.org/m) now.\nName \\_\\_ here"
    assert tt.passes(_t("present", "a bold claim and this."), page, markdown=True, kept=True)
    assert tt.passes(_t("present", "see the manual now"), page, markdown=True)
    assert not tt.passes(_t("present", "see the manual now"), page, markdown=True, kept=True)
    assert tt.passes(_t("present", "name __ here"), page, markdown=True)
    assert not tt.passes(_t("present", "name __ here"), page, markdown=True, kept=True)
    # A plain-text engine's page is read as it is either way.
    assert tt.passes(_t("present", "[manual]"), page, markdown=False, kept=True)


def test_text_tests_rate_per_engine_file_and_kind(tmp_path: Path, monkeypatch: Any) -> None:
    cases = (
        tt.TextTest("a/x.pdf", 1, "present", "hello * world", "r"),
        tt.TextTest("a/x.pdf", 1, "absent", "Page 1", "r"),
        tt.TextTest("b/y.pdf", 2, "order", "first", "r", "second"),
    )
    monkeypatch.setattr(score, "TEXT_TESTS", cases)
    run = _run(
        tmp_path,
        {"a/x.pdf": [""], "b/y.pdf": ["", ""]},
        ("pdfthin", "pypdf"),
        {
            ("pdfthin", "a/x.pdf"): ["# Hello  \\* world"],
            ("pdfthin", "b/y.pdf"): ["", "first then second"],
            ("pypdf", "a/x.pdf"): ["hello *\nworld Page 1"],
            ("pypdf", "b/y.pdf"): ["second first"],
        },
    )
    result = score.text_tests(run)
    assert result["engines"]["pdfthin"]["rate"] == 1.0
    # Read with its syntax kept, the escape before "*" hides "hello * world".
    assert result["engines"]["pdfthin"]["rate_syntax_kept"] == 2 / 3
    pypdf = result["engines"]["pypdf"]
    assert pypdf["passed"] == 1
    assert pypdf["kinds"] == {"present": 1.0, "absent": 0.0, "order": 0.0}
    assert pypdf["by_source"]["a"]["value"] == 0.5
    assert pypdf["failed"][0].startswith("a/x.pdf#1 absent")


# --- compare ------------------------------------------------------------------------------------


def _results(tables: dict[str, float], text: dict[str, float]) -> dict[str, Any]:
    def section(values: dict[str, float]) -> dict[str, Any]:
        by = {s: {"files": 1, "value": v} for s, v in values.items()}
        return {"engines": {"pdfthin": {"by_source": by}}}

    return {
        "evaluation": {
            "tables": section(tables),
            "text": section(text),
            "plain_text_guard": {"flagged": []},
        }
    }


def test_compare_flags_every_source_that_got_worse() -> None:
    before = _results({"tabula-icdar2013": 0.9, "camelot": 0.6}, {"pypdf-benchmarks": 0.99})
    # Tuned source better, held-out source worse: rejected.
    after = _results({"tabula-icdar2013": 0.95, "camelot": 0.5}, {"pypdf-benchmarks": 0.99})
    rows = compare.compare(before, after, "pdfthin")
    worse = [(r["metric"], r["source"], r["role"]) for r in rows if r["worse"]]
    assert worse == [("table F1", "camelot", "held out")]
    text, reject = compare.render(before, after, "pdfthin", ("main", "branch"))
    assert reject and "**WORSE**" in text
    # A drop within the tolerance is not a regression.
    same = _results({"tabula-icdar2013": 0.9, "camelot": 0.5995}, {"pypdf-benchmarks": 0.99})
    assert not compare.render(before, same, "pdfthin", ("a", "b"))[1]


def test_report_shows_each_source_and_the_worst() -> None:
    ev = {
        "tables": {
            "engines": {
                "pdfthin": {
                    "by_source": {
                        "camelot": {"files": 3, "value": 0.4},
                        "tabula-icdar2013": {"files": 2, "value": 0.9},
                    },
                    "worst_source": {"source": "camelot", "value": 0.4},
                }
            }
        }
    }
    lines = report.generalisation_section(ev, ["pdfthin", "pypdf"])
    assert "| camelot | held out | 3 | 0.400 |" in lines
    assert "| tabula-icdar2013 | tuned | 2 | 0.900 |" in lines
    assert "| **worst source** |  |  | camelot 0.400 |" in lines


def test_compare_command_exits_1_when_a_held_out_source_got_worse(
    tmp_path: Path, capsys: Any
) -> None:
    import json

    from benchmarks.__main__ import main

    before, after = tmp_path / "main.json", tmp_path / "branch.json"
    before.write_text(json.dumps(_results({"camelot": 0.6}, {})), encoding="utf-8")
    after.write_text(json.dumps(_results({"camelot": 0.5}, {})), encoding="utf-8")
    assert main(["compare", str(before), str(after)]) == 1
    assert "| table F1 | camelot | held out | 1 | 0.600 | 0.500 | -0.100 | **WORSE** |" in (
        capsys.readouterr().out
    )
    assert main(["compare", str(before), str(before)]) == 0
