"""``diff_documents`` (issue 26, "Diff of two versions"): two revisions of a generated document
with known edits report exactly those edits, each located in both versions; a re-saved copy is
identical; a page that could not be read is "not compared", never unchanged; budget and
cursors as everywhere."""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path
from typing import Any

import pytest
from pdfbuilder import PdfBuilder, inline_image
from statements import Canvas, paragraph, pdf, statement

from pdfthin.errors import PdfthinError
from pdfthin.model.diff import (
    DEFAULT_SETTINGS,
    Passage,
    alignment_pairs,
    cell_diff,
    diff_passages,
    equal_pairs,
    word_diff,
)
from pdfthin.operations import Context, diff_documents, resolve_anchor
from pdfthin.operations import diff as diff_operation
from pdfthin.operations.response import size

INTRO = "This report covers the accounts of the cooperative for the year under review. " * 2
STAFF = "Seven members of staff prepared the figures and two auditors checked them in May. " * 2
RISKS = "The main risks are the price of grain and the weather in the growing season. " * 2
OUTLOOK = "Next year the cooperative expects its turnover to grow by a small margin. " * 2
EXTRA = "A new warehouse opened in the autumn and doubled the storage on the main site. " * 2


def _section(canvas: Canvas, title: str, body: list[str], y: float) -> float:
    canvas.text(title, 72, y, size=14, bold=True)
    y += 30
    for text in body:
        y = paragraph(canvas, text, 72, y, 440) + 24
    return y + 10


def _version(
    *,
    staff: str = STAFF,
    extra: bool = False,
    risks: bool = True,
    swap: bool = False,
    cash: str = "$14,259",
    scan_second: bool = False,
    compress: bool = False,
) -> bytes:
    """Page 1: a title and the sections Overview (two paragraphs), Risks, Outlook (Risks after
    Outlook with ``swap``); page 2: a balance sheet (its first cash cell ``cash``) and a closing
    paragraph, or a scan without text (``scan_second``)."""
    one = Canvas()
    one.text("Annual Review", 72, 80, size=20, bold=True)
    y = _section(one, "1 Overview", [INTRO, staff, *([EXTRA] if extra else [])], 130)
    sections = [("2 Risks", [RISKS]) if risks else None, ("3 Outlook", [OUTLOOK])]
    if swap:
        sections.reverse()
    for item in sections:
        if item is not None:
            y = _section(one, item[0], item[1], y)
    two = Canvas()
    two.text("4 Balance sheet", 72, 80, size=14, bold=True)
    y = statement(two, 120, periods=2)
    # The statement's first cash figure (its "$" is drawn apart from the number).
    two.texts = [(cash[1:] if t[0] == "14,259" else t[0], *t[1:]) for t in two.texts]
    paragraph(two, "The balance sheet is unaudited for the last quarter.", 72, y + 40, 440)
    b = PdfBuilder(compress=compress)
    fonts = {
        "F1": b.font_standard("Helvetica", encoding="/WinAnsiEncoding"),
        "F2": b.font_standard("Helvetica-Bold", encoding="/WinAnsiEncoding"),
    }
    b.add_page(one.content(), {"Font": fonts})
    if scan_second:
        scan = inline_image(4, 3, bytes(range(0, 240, 20)))
        b.add_page(b"q 612 0 0 792 0 0 cm " + scan + b" Q")
    else:
        b.add_page(two.content(), {"Font": fonts})
    return b.build()


@pytest.fixture(scope="module")
def base() -> bytes:
    return _version()


def _diff(old: bytes, new: bytes, **kwargs: Any) -> dict[str, Any]:
    return dict(diff_documents(old, new=new, context=Context(), **kwargs))


def _all_changes(old: bytes, new: bytes, **kwargs: Any) -> list[dict[str, Any]]:
    context = Context()
    response = diff_documents(old, new=new, context=context, **kwargs)
    changes = list(response["changes"])
    while response["next_cursor"]:
        response = diff_documents(
            old, new=new, context=context, cursor=response["next_cursor"], **kwargs
        )
        changes.extend(response["changes"])
    return changes


# --- identical ----------------------------------------------------------------------------------


def test_a_document_is_identical_to_itself(base: bytes) -> None:
    answer = _diff(base, base)
    assert answer["identical"] is True and answer["complete"] is True
    assert answer["changes"] == [] and set(answer["counts"].values()) == {0}


def test_a_resaved_and_recompressed_copy_is_identical(base: bytes) -> None:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(base)))
    for page in writer.pages:
        page.compress_content_streams()
    writer.add_metadata({"/Producer": "a re-saving program"})
    out = io.BytesIO()
    writer.write(out)
    copy = out.getvalue()
    assert copy != base
    compressed = _version(compress=True)
    assert compressed != base
    for other in (copy, compressed):
        answer = _diff(base, other)
        assert answer["document"]["fingerprint"] != answer["new"]["fingerprint"]
        assert answer["identical"] is True, answer["changes"]


# --- known edits --------------------------------------------------------------------------------


def test_a_word_changed_in_a_paragraph_is_a_word_level_change(base: bytes) -> None:
    edited = _version(staff=STAFF.replace("Seven members", "Eight members", 1))
    answer = _diff(base, edited)
    assert answer["identical"] is False and answer["complete"] is True
    assert answer["counts"] == {
        "added": 0,
        "removed": 0,
        "changed": 1,
        "moved": 0,
        "not_compared": 0,
    }
    (change,) = answer["changes"]
    assert change["kind"] == "changed"
    assert change["diff"].startswith("[-Seven-]{+Eight+} members of staff")
    assert change["diff"].count("[-") == 1
    for side in ("old", "new"):
        place = change[side]
        assert place["page"] == 1 and place["kind"] == "paragraph"
        assert place["breadcrumb"] == ["Annual Review", "1 Overview"]
        assert place["chunk_id"].startswith("p1-")
        assert 0 < place["bbox"]["x0"] < place["bbox"]["x1"]
    # Each anchor names the passage in its own version.
    old_text = resolve_anchor(base, anchor=change["old"]["anchor"], context=Context())["text"]
    new_text = resolve_anchor(edited, anchor=change["new"]["anchor"], context=Context())["text"]
    assert old_text.split()[:2] == ["Seven", "members"]
    assert new_text.split()[:2] == ["Eight", "members"]


def test_a_paragraph_added_and_a_section_removed(base: bytes) -> None:
    edited = _version(extra=True, risks=False)
    answer = _diff(base, edited)
    counts = answer["counts"]
    assert (counts["added"], counts["removed"], counts["changed"], counts["moved"]) == (1, 2, 0, 0)
    added = [c for c in answer["changes"] if c["kind"] == "added"]
    removed = [c for c in answer["changes"] if c["kind"] == "removed"]
    assert added[0]["text"].startswith("A new warehouse") and added[0]["old"] is None
    assert added[0]["new"]["breadcrumb"] == ["Annual Review", "1 Overview"]
    assert [c["text"].split()[:2] for c in removed] == [["2", "Risks"], ["The", "main"]]
    assert all(c["new"] is None and c["old"]["page"] == 1 for c in removed)


def test_a_moved_section_is_one_move_not_a_removal_and_an_addition(base: bytes) -> None:
    answer = _diff(base, _version(swap=True))
    assert answer["counts"]["moved"] == 1
    assert answer["counts"]["added"] == answer["counts"]["removed"] == 0
    (move,) = answer["changes"]
    assert move["old"]["passages"] == move["new"]["passages"] == 2  # the heading and its text
    assert move["old"]["kind"] == "heading" and move["text"] in ("2 Risks", "3 Outlook")
    assert move["old"]["bbox"] != move["new"]["bbox"]


def test_a_table_cell_changed_is_a_cell_level_change(base: bytes) -> None:
    answer = _diff(base, _version(cash="$15,001"))
    assert answer["counts"]["changed"] == 1 and sum(answer["counts"].values()) == 1
    (change,) = answer["changes"]
    assert change["old"]["kind"] == change["new"]["kind"] == "table"
    assert change["old"]["page"] == 2 and change["cells_changed"] == 1
    (cell,) = change["cells"]
    assert (cell["old"], cell["new"]) == ("$14,259", "$15,001")
    assert cell["header"] is not None or cell["column"] > 1
    assert cell["old_row"] == cell["new_row"] and cell["old_row"] > 1
    assert "diff" not in change


def test_a_scanned_page_is_not_compared_never_unchanged(base: bytes) -> None:
    scanned = _version(scan_second=True)
    for old, new, side in ((base, scanned, "new"), (scanned, base, "old")):
        answer = _diff(old, new)
        assert answer["identical"] is False and answer["complete"] is False
        assert answer["counts"]["not_compared"] == 1
        assert answer["counts"]["added"] == answer["counts"]["removed"] == 0
        (change,) = answer["changes"]
        assert change["kind"] == "not_compared"
        assert change[side]["kind"] == "unreadable" and change[side]["page"] == 2
        assert "page(s) 2" in change["reason"] and "image_only" in change["reason"]
        assert answer["unreadable"][side]["pages"] == "2"
    # A scan against the same scan: still not compared (both are only alike in being empty).
    same = _diff(scanned, scanned)
    assert same["identical"] is False and same["complete"] is False
    assert same["counts"]["not_compared"] == 1


# --- budget and cursors -------------------------------------------------------------------------


def test_cursors_walk_every_change_within_the_budget(base: bytes) -> None:
    edited = _version(
        staff=STAFF.replace("Seven", "Eight", 1), extra=True, swap=True, cash="$15,001"
    )
    whole = _diff(base, edited, max_chars=1_000_000)
    assert whole["next_cursor"] is None
    walked = _all_changes(base, edited, max_chars=3_000)
    assert walked == whole["changes"] and len(walked) == sum(whole["counts"].values()) >= 4
    # At the smallest budget a change larger than a response is cut, and says so.
    context = Context()
    answer = diff_documents(base, new=edited, context=context, max_chars=1_000)
    small = [answer]
    while small[-1]["next_cursor"]:
        cursor = small[-1]["next_cursor"]
        small.append(
            diff_documents(base, new=edited, context=context, cursor=cursor, max_chars=1_000)
        )
    assert all(size(r) <= 1_000 for r in small)
    assert all(r["counts"] == whole["counts"] for r in small)  # the whole diff's, every time
    cut = [c for r in small for c in r["changes"]]
    assert [c["kind"] for c in cut] == [c["kind"] for c in whole["changes"]]
    assert any(c.get("truncated") for c in cut)
    # A cursor belongs to its pair of files.
    with pytest.raises(Exception) as info:
        diff_documents(base, new=base, context=context, cursor=answer["next_cursor"])
    assert getattr(info.value, "code", None) == "invalid_cursor"


def test_the_answer_satisfies_its_schema(base: bytes) -> None:
    import jsonschema

    from pdfthin.operations.registry import BY_NAME

    schema = BY_NAME["diff_documents"].output_schema()
    answer = _diff(base, _version(extra=True, swap=True, cash="$1", scan_second=False))
    jsonschema.validate(json.loads(json.dumps(answer)), schema)
    jsonschema.validate(json.loads(json.dumps(_diff(base, _version(scan_second=True)))), schema)


# --- the rules, on plain passages ---------------------------------------------------------------


def test_word_diff_folds_the_old_words_into_the_new_text() -> None:
    assert word_diff("the quick brown fox", "the slow brown fox jumps") == (
        "the [-quick-]{+slow+} brown fox {+jumps+}"
    )
    assert word_diff("a b", "a b") == "a b"


def test_cell_diff_names_row_column_and_header() -> None:
    old = "| Item | Qty |\n| --- | --- |\n| Pens | 4 |\n| Ink | 2 |"
    new = "| Item | Qty |\n| --- | --- |\n| Pens | 5 |\n| Ink | 2 |\n| Pads | 1 |"
    edits = cell_diff(old, new)
    assert edits is not None
    assert [(e.old_row, e.new_row, e.column, e.header, e.old, e.new) for e in edits] == [
        (2, 2, 2, "Qty", "4", "5"),
        (None, 4, 1, "Item", None, "Pads"),
        (None, 4, 2, "Qty", None, "1"),
    ]


def test_short_repeated_lines_are_not_moves() -> None:
    old = [Passage("paragraph", "Total"), Passage("paragraph", "Net sum")]
    new = [Passage("paragraph", "Net sum"), Passage("paragraph", "Total")]
    kinds = sorted(c.kind for c in diff_passages(old, new))
    assert kinds == ["added", "removed"]


def test_equal_pairs_count_what_a_matcher_compares() -> None:
    assert equal_pairs("abc", "xyz") == 0
    assert equal_pairs("abc", "cba") == 3
    assert equal_pairs(["a"] * 30, ["a"] * 40) == 1_200  # one item repeated: the product


def test_versions_repeating_a_passage_too_often_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The alignment's work grows with the pairs of equal passages (a "Total" line a thousand
    # times in each version is a million): past the bound the answer is too_large, at once.
    def totals(seed: int) -> bytes:
        canvas = Canvas()
        for k in range(30):
            canvas.text("Total" if (k * seed) % 3 else "Net", 72, 60 + k * 24)
        return pdf(canvas)

    old, new = totals(1), totals(2)
    pairs = alignment_pairs(
        [Passage("paragraph", "Total" if k % 3 else "Net") for k in range(30)],
        [Passage("paragraph", "Total" if (2 * k) % 3 else "Net") for k in range(30)],
    )
    assert pairs == 20 * 20 + 10 * 10
    assert "changes" in _diff(old, new)  # within the default bound
    settings = dataclasses.replace(DEFAULT_SETTINGS, max_equal_pairs=pairs - 1)
    monkeypatch.setattr(diff_operation, "DEFAULT_SETTINGS", settings)
    with pytest.raises(PdfthinError) as raised:
        diff_documents(old, new=new, context=Context())
    assert raised.value.code == "too_large"
    assert raised.value.details["pairs"] == 500


def test_word_comparisons_past_the_budget_pair_by_word_counts_and_replace_whole() -> None:
    # Two passages repeating a few words: comparing them word by word costs the product of
    # their lengths. Within the diff's word-pair budget they are a word-level change; past
    # it they are still paired (by their words' counts) but replaced whole.
    old = [Passage("paragraph", "spam eggs " * 40 + "ham")]
    new = [Passage("paragraph", "spam eggs " * 40 + "jam")]
    cost = equal_pairs(old[0].text.split(), new[0].text.split())
    (within,) = diff_passages(old, new)
    assert within.kind == "changed" and within.diff is not None
    assert within.diff.endswith("[-ham-]{+jam+}")
    # Enough for the pairing, not for the word diff as well.
    tight = dataclasses.replace(DEFAULT_SETTINGS, max_word_pairs=cost)
    (past,) = diff_passages(old, new, tight)
    assert (
        past.kind == "changed"
        and past.diff == f"[-{old[0].text.strip()}-]{{+{new[0].text.strip()}+}}"
    )
    # Not even for the pairing: the similarity is the words' counts' (80 of 81 alike).
    (paired,) = diff_passages(old, new, dataclasses.replace(DEFAULT_SETTINGS, max_word_pairs=0))
    assert paired.kind == "changed" and paired.similarity == round(80 / 81, 3)


def test_a_tables_rows_past_the_budget_are_not_aligned() -> None:
    old = "| Item | Qty |\n| --- | --- |\n" + "| Pens | 4 |\n" * 50
    new = "| Item | Qty |\n| --- | --- |\n" + "| Pens | 4 |\n" * 49 + "| Pens | 5 |"
    assert cell_diff(old, new, lambda a, b: True) is not None
    assert cell_diff(old, new, lambda a, b: False) is None  # then compared as words


# --- a real pair from the corpus ----------------------------------------------------------------

CORPUS = Path("/work/shared/corpus")


def test_a_scan_against_itself_is_not_compared_on_its_page_only() -> None:
    scanned = _version(scan_second=True)
    (change,) = _diff(scanned, scanned)["changes"]
    assert change["kind"] == "not_compared"
    assert change["old"]["pages"] == change["new"]["pages"] == "2"


#: Real files diffed against a copy pypdf re-saves with its streams re-compressed (made in a
#: temporary directory: corpus files are never copied into the repository).
_RESAVED = (
    "tabula-icdar2013/competition-dataset-eu/eu-005.pdf",
    "tabula-icdar2013/competition-dataset-eu/eu-001.pdf",
    "pdfminer/simple2.pdf",
)


@pytest.mark.parametrize("relpath", _RESAVED)
def test_a_real_file_and_its_resaved_copy_diff_as_identical(relpath: str) -> None:
    from conftest import CORPUS
    from pypdf import PdfReader, PdfWriter

    path = CORPUS / relpath
    if not path.exists():
        pytest.skip(f"the corpus file {relpath} is missing")
    original = path.read_bytes()
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(original)))
    for page in writer.pages:
        page.compress_content_streams(level=9)
    out = io.BytesIO()
    writer.write(out)
    answer = _diff(original, out.getvalue())
    assert answer["document"]["fingerprint"] != answer["new"]["fingerprint"]
    assert answer["changes"] == [] and answer["identical"] is True, relpath


# --- the other surfaces -------------------------------------------------------------------------


def test_the_browser_bridge_takes_the_new_version_by_handle(base: bytes) -> None:
    from pdfthin.adapters import browser

    old = browser.open_document(base)
    new = browser.open_document(_version(swap=True))
    answer = json.loads(browser.call("diff", old, json.dumps({"new": new})))
    assert answer["counts"]["moved"] == 1
    error = json.loads(browser.call("diff", old, json.dumps({"new": "doc-0"})))["error"]
    assert (error["code"], error["details"]["argument"]) == ("invalid_argument", "new")


def test_the_command_line_prints_hunks_and_answers_with_its_exit_code(
    base: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pdfthin.adapters.cli import main

    old, new, scan = tmp_path / "old.pdf", tmp_path / "new.pdf", tmp_path / "scan.pdf"
    old.write_bytes(base)
    new.write_bytes(_version(staff=STAFF.replace("Seven", "Eight", 1), cash="$15,001"))
    scan.write_bytes(_version(scan_second=True))
    assert main(["diff", str(old), str(old)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "identical"
    assert main(["diff", str(old), str(new)]) == 1
    out = capsys.readouterr().out
    assert "~ [-Seven-]{+Eight+} members" in out and "$14,259 -> $15,001" in out
    assert out.splitlines()[-1] == "2 changed"
    assert main(["diff", str(scan), str(scan)]) == 4
    assert "could not be compared" in capsys.readouterr().err
    assert main(["diff", str(old), str(new), "--format", "json", "--max-chars", "1000"]) == 1
    first = json.loads(capsys.readouterr().out)
    assert first["next_cursor"] and first["counts"]["changed"] == 2
    assert main(["diff", str(old), str(tmp_path / "none.pdf")]) == 5
    with pytest.raises(SystemExit) as usage:
        main(["diff", str(old)])
    assert usage.value.code == 2
