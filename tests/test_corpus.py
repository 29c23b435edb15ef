"""The real-PDF corpus at ../shared/corpus: every file reads or fails cleanly, scanned pages
are never empty, outlines match their ground truth, and text is at least as faithful as
pypdf's on every ground-truth text file.

In CI a missing corpus fails these tests (``require_corpus``); locally it skips them.
"""

from __future__ import annotations

import json
import logging
import os
import resource
import subprocess
import sys
import textwrap

import pytest
from conftest import CORPUS, CorpusFile, corpus_files, corpus_params, deadline, require_corpus

import pdfthin
from pdfthin.engine import Limits
from pdfthin.errors import ERROR_CODES, PdfthinError

STATUSES = {"text", "empty", "needs_ocr", "ocr"}
#: Bad input must end within this time and memory (issue 2).
TIME_LIMIT = 30
MEMORY_LIMIT = 1024**3


#: Limits for comparisons of what is read, not of how fast.
UNHURRIED = Limits(page_seconds=600, document_seconds=3_600)


def _open(f: CorpusFile, password: str | None) -> pdfthin.model.Document:
    with deadline(60):
        return pdfthin.open(f.path, password=password)


@pytest.mark.parametrize("f", corpus_params(corpus_files()))
def test_every_file_reads_or_fails_cleanly(f: CorpusFile | None) -> None:
    require_corpus()
    assert f is not None
    try:
        doc = _open(f, f.password)
    except PdfthinError as exc:
        assert exc.code in ERROR_CODES - {"internal"}
        assert exc.message and "\n" not in exc.message
        # Only damaged or dependency-needing files may fail to open at all.
        assert f.tags & {"malformed", "fuzzed", "bomb", "needs-dependency"}, exc
        return
    assert doc.page_count == len(doc.pages) >= 1
    for page in doc.pages:
        assert page.status in STATUSES
        assert page.reason
        assert "\ufffd" not in page.markdown
        assert not any(0 < ord(c) < 32 and c not in "\n\t" for c in page.markdown)


@pytest.mark.parametrize("f", corpus_params(corpus_files(tag="image-only")))
def test_scanned_pages_are_flagged_never_empty(f: CorpusFile | None) -> None:
    require_corpus()
    assert f is not None
    doc = _open(f, f.password)
    statuses = [p.status for p in doc.pages]
    assert "needs_ocr" in statuses, statuses
    empty = [p.number for p in doc.pages if p.status == "empty" and p.images]
    assert not empty, f"pages with images reported empty: {empty}"


def _encrypted_with_password() -> list[CorpusFile]:
    return [f for f in corpus_files(tag="encrypted") if f.password]


@pytest.mark.parametrize("f", corpus_params(_encrypted_with_password()))
def test_encrypted_files_need_their_password(f: CorpusFile | None) -> None:
    require_corpus()
    assert f is not None
    with pytest.raises(PdfthinError) as info:
        _open(f, None)
    assert info.value.code == "encrypted"
    with pytest.raises(PdfthinError) as info:
        _open(f, f.password + "-wrong")
    assert info.value.code == "encrypted"
    doc = _open(f, f.password)
    assert doc.page_count >= 1


_ROBUST_SCRIPT = textwrap.dedent(
    """
    import json, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, ({mem}, {mem}))
    import pdfthin
    from pdfthin.operations import error_envelope
    try:
        doc = pdfthin.open(sys.argv[1], password=sys.argv[2] or None)
        print(json.dumps({{"ok": [p.status for p in doc.pages]}}))
    except BaseException as exc:
        print(json.dumps(error_envelope(exc)))
    """
)


def _bad_files() -> list[CorpusFile]:
    return [f for f in corpus_files() if f.tags & {"malformed", "fuzzed", "bomb"}]


@pytest.mark.parametrize("f", corpus_params(_bad_files()))
def test_bad_input_ends_in_bounded_time_and_memory(f: CorpusFile | None) -> None:
    """A separate process with a 1 GiB address-space cap and a 30 s limit: a result or a typed
    error, never a crash, a hang or an unbounded allocation."""
    require_corpus()
    assert f is not None
    script = _ROBUST_SCRIPT.format(mem=MEMORY_LIMIT)
    proc = subprocess.run(
        [sys.executable, "-c", script, str(f.path), f.password or ""],
        capture_output=True,
        text=True,
        timeout=TIME_LIMIT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout)
    if "error" in result:
        assert result["error"]["code"] in ERROR_CODES - {"internal"}, result
    else:
        assert all(s in STATUSES for s in result["ok"])


# --- outlines ------------------------------------------------------------------------------


def _outline_files() -> list[tuple[CorpusFile, str]]:
    out = []
    for f in corpus_files(has_gt="/outline/"):
        for gt in f.ground_truth:
            if "/outline/" in gt:
                out.append((f, gt))
    return out


@pytest.mark.parametrize(
    "case",
    [pytest.param(c, id=c[0].relpath) for c in _outline_files()] or [None],
)
def test_outline_matches_ground_truth(case: tuple[CorpusFile, str] | None) -> None:
    require_corpus()
    assert case is not None
    f, gt_path = case
    expected = json.loads((CORPUS / gt_path).read_text(encoding="utf-8"))["items"]
    doc = _open(f, f.password)
    got = [{"level": e.level, "title": e.title, "page": e.page} for e in doc.outline]
    # Titles compare with whitespace normalised (the ground truth keeps trailing spaces and a
    # PowerPoint line break as \x0b; pdfthin gives one space for any run of whitespace).
    want = [
        {"level": i["level"], "title": " ".join(i["title"].split()), "page": i["page"]}
        for i in expected
    ]
    assert got == want


# --- text fidelity -------------------------------------------------------------------------

LIGATURES = str.maketrans(
    {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl"}
)


def _score(text: str, truth: str) -> float:
    from rapidfuzz.distance import Indel

    return float(Indel.normalized_similarity(text.translate(LIGATURES), truth.translate(LIGATURES)))


def _text_files() -> list[tuple[CorpusFile, str]]:
    """The full-document plain-text ground truths (the py-pdf/benchmarks set, as the corpus
    README defines the text score). ``*.layout.txt`` files are page renderings with their
    whitespace laid out in columns, a different target that the README does not score."""
    out = []
    for f in corpus_files():
        for gt in f.ground_truth:
            if gt.endswith(".txt") and not gt.endswith(".layout.txt"):
                out.append((f, gt))
    return out


def _scores(case: tuple[CorpusFile, str]) -> tuple[float, float]:
    """The py-pdf/benchmarks score (Indel similarity of the whole text, ligatures expanded,
    pages joined by newlines) of pdfthin's plain text (running headers and footers included,
    since the ground truth has them) and of pypdf's extract_text, on the same file."""
    import pypdf

    f, gt_path = case
    truth = (CORPUS / gt_path).read_text(encoding="utf-8")
    # Time limits far above need: a page the clock left unread on a loaded machine would
    # score as missing text, which is not what this compares (the bounds have their tests).
    doc = pdfthin.open(f.path, password=f.password, limits=UNHURRIED)
    ours = _score("\n".join(p.full_text() for p in doc.pages), truth)
    logging.disable(logging.CRITICAL)
    try:
        reader = pypdf.PdfReader(str(f.path))
        theirs = _score("\n".join(p.extract_text() for p in reader.pages), truth)
    finally:
        logging.disable(logging.NOTSET)
    return ours, theirs


#: "Never below pypdf" on every file, exactly.
PER_FILE_MARGIN = 0.0


@pytest.mark.parametrize(
    "case", [pytest.param(c, id=c[0].relpath) for c in _text_files()] or [None]
)
def test_text_faithful_per_file(case: tuple[CorpusFile, str] | None) -> None:
    require_corpus()
    assert case is not None
    ours, theirs = _scores(case)
    assert ours >= theirs - PER_FILE_MARGIN, f"pdfthin {ours:.4f} < pypdf {theirs:.4f}"


def test_text_at_least_as_faithful_as_pypdf_on_the_set() -> None:
    """The benchmark's text score, the mean over the ground-truth set: not below pypdf's."""
    require_corpus()
    cases = _text_files()
    assert len(cases) >= 6
    pairs = [_scores(c) for c in cases]
    ours = sum(o for o, _ in pairs) / len(pairs)
    theirs = sum(t for _, t in pairs) / len(pairs)
    assert ours >= theirs, f"pdfthin {ours:.5f} < pypdf {theirs:.5f}"


def test_corpus_is_present_in_ci() -> None:
    if os.environ.get("CI"):
        assert CORPUS.is_dir(), f"CI needs the corpus at {CORPUS}"
        assert len(corpus_files()) >= 250
    else:
        require_corpus()


def test_memory_cap_helper_is_usable() -> None:
    # The robustness test relies on RLIMIT_AS being settable on this platform.
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    assert hard == resource.RLIM_INFINITY or hard >= MEMORY_LIMIT


# --- pdfminer's expected strings ---------------------------------------------------------


def _pdfminer_expected() -> list[tuple[str, str]]:
    path = CORPUS / "pdfminer" / "gt" / "pdfminer_expected_strings.json"
    if not path.exists():
        return []
    expected = json.loads(path.read_text(encoding="utf-8"))["expected"]
    return [(k, v) for k, v in expected.items() if not k.endswith("_no_boxes_flow")]


def _squash(text: str) -> str:
    # (no compatibility folding: fullwidth colons and brackets are read as drawn)
    return "".join(text.split())


@pytest.mark.parametrize("case", [pytest.param(c, id=c[0]) for c in _pdfminer_expected()] or [None])
def test_pdfminer_expected_strings_appear(case: tuple[str, str] | None) -> None:
    """pdfminer.six's own expected outputs, scored as its corpus README says: each line of
    them appears in pdfthin's text after whitespace normalisation. Its drawing
    (issue_495_pdfobjref) stacks tolerances whose reading order is pdfminer's own: most
    lines there, not all."""
    require_corpus()
    assert case is not None
    relpath, expected = case
    doc = pdfthin.open(CORPUS / "pdfminer" / relpath)
    text = _squash("".join(p.full_text() for p in doc.pages))
    lines = [_squash(line) for line in expected.split("\n")]
    lines = [line for line in lines if len(line) >= 2 and "(cid:" not in line]
    missing = [line for line in lines if line not in text]
    if relpath == "contrib/issue_495_pdfobjref.pdf":
        assert len(missing) <= 0.1 * len(lines), missing
    else:
        assert missing == []


# --- single files whose fix a test keeps ------------------------------------------------------


@pytest.mark.parametrize(
    ("relpath", "password", "present", "absent"),
    [
        # A ToUnicode left from the font's old encoding: /Differences names f_f_i, f_i, f_f.
        (
            "docling/2206.01062_pg3.pdf",
            "1234",
            ["difficulties", "Scientific", "different", "filenames", "flip side"],
            ["di!culties", "di#erent", '"les'],
        ),
        # Unembedded SimSun filled with GBK bytes, as Windows draws them.
        (
            "pdfjs/XiaoBiaoSong.pdf",
            None,
            ["关 于 红 军 作 战 的 原 则", "一 九 三 七 年 八 月 一 日"],
            ["¹Ø", "Ä¿"],
        ),
        # Only signs on the page (a Type3 font's squares and triangles): read, not empty.
        ("pdfjs/simpletype3font.pdf", None, ["□∆□∆□∆"], []),
    ],
)
def test_known_files_read_as_expected(
    relpath: str, password: str | None, present: list[str], absent: list[str]
) -> None:
    require_corpus()
    import unicodedata

    doc = pdfthin.open(CORPUS / relpath, password=password)
    text = unicodedata.normalize("NFKC", "\n".join(p.markdown for p in doc.pages))
    assert all(p.status == "text" for p in doc.pages), [p.reason for p in doc.pages]
    for piece in present:
        assert piece in text
    for piece in absent:
        assert piece not in text
