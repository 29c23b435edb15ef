"""The corpus reader, the warm-up PDF and the worker's outcome classes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from benchmarks import corpus
from benchmarks.warmup import warmup_pdf

ROOT = Path(__file__).resolve().parents[2]


def test_warmup_pdf_has_a_valid_xref() -> None:
    data = warmup_pdf()
    assert data.startswith(b"%PDF-1.4")
    start = int(data.rsplit(b"startxref\n", 1)[1].split(b"\n", 1)[0])
    assert data[start:].startswith(b"xref\n0 6\n")
    for line in data[start:].split(b"\n")[3:8]:
        offset = int(line[:10])
        assert data[offset:].split(b" ", 1)[0].isdigit()
        assert data[offset:].split(b"\n", 1)[0].endswith(b" 0 obj")


def test_corpus_reads_manifest_and_passwords(tmp_path: Path) -> None:
    (tmp_path / "MANIFEST.tsv").write_text(
        "relpath\tsource_repo\tsource_path\tlicense\tpages\tbytes\tground_truth_relpath\ttags\n"
        "a/x.pdf\tr\tp\tl\t3*\t10\ta/gt/x.txt;a/gt/outline/x.outline.json\tencrypted,outline\n"
        "a/y.pdf\tr\tp\tl\t?\t10\t-\tmalformed\n"
        "a/z.pdf\tr\tp\tl\t1\t10\t-\tencrypted\n",
        encoding="utf-8",
    )
    (tmp_path / "PASSWORDS.tsv").write_text(
        "relpath\tpassword\tdecrypted_by_pypdf\na/x.pdf\t\tyes\na/z.pdf\t(empty/none known)\tyes\n",
        encoding="utf-8",
    )
    c = corpus.load(tmp_path)
    x, y, z = c.entries
    assert (x.pages, x.password, x.encrypted) == (3, "", True)
    assert x.gt(".outline.json") == ["a/gt/outline/x.outline.json"]
    assert (y.pages, y.password, y.ground_truth) == (None, None, ())
    assert z.password is None
    assert corpus.subset(c, False, ["a/y.pdf"]) == [y]


def test_worker_reports_a_clean_error_for_a_missing_file(tmp_path: Path) -> None:
    job = {"engine": "pdfthin", "path": str(tmp_path / "missing.pdf"), "modules": ["pdfthin"]}
    proc = subprocess.run(
        [sys.executable, "-m", "benchmarks.worker"],
        check=False,
        input=json.dumps(job),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    result = json.loads(proc.stdout)
    assert result["outcome"] == "error"
    assert result["error_code"] == "not_found"
