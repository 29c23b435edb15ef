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


def _peaks(engine: str, file: str, before_kib: int, peak_kib: int) -> dict[str, object]:
    return {
        "engine": engine,
        "file": file,
        "variant": "main",
        "outcome": "ok",
        "rss_source": "VmHWM",
        "maxrss_before_kib": before_kib,
        "maxrss_kib": peak_kib,
        "pages": [],
    }


def test_native_memory_separates_the_process_from_the_document(tmp_path: Path) -> None:
    from benchmarks import engines, score

    entries = [
        corpus.Entry(f"{name}.pdf", 1, 1, (), frozenset()) for name in ("small", "large", "broken")
    ]
    raw = [
        # A small document: the native process is 1.5 MiB larger before it starts, and the
        # document adds 0.5 MiB in both engines.
        _peaks("pdfthin", "small.pdf", 40 * 1024, 40 * 1024 + 512),
        _peaks("pdfthin-native", "small.pdf", 41 * 1024 + 512, 42 * 1024),
        # A large one: the native engine needs 6 MiB less for the document itself.
        _peaks("pdfthin", "large.pdf", 40 * 1024, 75 * 1024),
        _peaks("pdfthin-native", "large.pdf", 41 * 1024 + 512, 70 * 1024 + 512),
        # A file one engine failed on is left out of the pairing.
        _peaks("pdfthin", "broken.pdf", 40 * 1024, 41 * 1024),
        {**_peaks("pdfthin-native", "broken.pdf", 41 * 1024, 42 * 1024), "outcome": "error"},
    ]
    run = score.Run.build(
        raw,
        [engines.ENGINES["pdfthin"], engines.ENGINES["pdfthin-native"]],
        entries,
        corpus.Corpus(tmp_path, tuple(entries)),
    )
    memory = score.native_identity(run)["memory"]  # type: ignore[index]
    assert memory["files"] == 2
    assert memory["warmed_mib_median"] == [40.0, 41.5]
    assert memory["document_mib_max"] == [35.0, 29.0]
    assert memory["document_mib_total"] == [35.5, 29.5]
    assert memory["document_mib_median"] == [17.75, 14.75]
    assert memory["document_native_not_higher"] == 2
    # Process peaks: +1.5 MiB for the small file, -4.5 MiB for the large one.
    assert memory["process_peak_difference_mib_median"] == -1.5
    assert memory["process_peak_native_not_higher"] == 1
    report_text = "\n".join(
        line for line in _report_lines(run) if line.startswith("Peak memory (`VmHWM`)")
    )
    assert "40.0 / 41.5 MiB" in report_text
    assert "no higher natively on 2 files" in report_text


def _report_lines(run: object) -> list[str]:
    from benchmarks import report, score

    evaluation = {"native_identity": score.native_identity(run)}  # type: ignore[arg-type]
    return report.native_section(evaluation)


def test_import_cost_reads_importtime_of_a_one_page_read() -> None:
    from benchmarks.import_cost import SAMPLE, _probe

    total, own, modules = _probe(ROOT, ["-m", "pdfthin", "read", str(SAMPLE), "--pages", "1"])
    # pdfthin's own modules are a part of all the imports, and a read loads the engine's,
    # the layout's and the model's, not a handful.
    assert 0 < own < total
    assert modules > 20
