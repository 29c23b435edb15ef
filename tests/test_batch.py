"""``pdfthin batch`` and :mod:`pdfthin.batch` (issue 27): a folder or a list of PDFs read in
worker processes into Markdown, chunks or one JSON Lines file, a bad document recorded with its
error code while the rest go on, a rerun that skips what is done (and redoes what changed),
the same outputs whatever ``--jobs``, a summary whose counts match, and no progress control
characters off a terminal."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from mcp_support import text_pdf
from pdfbuilder import PdfBuilder, encrypt

from pdfthin.adapters.cli import main
from pdfthin.exports import jsonl_line

ROOT = Path(__file__).resolve().parent.parent
#: The documents that read (name -> pages) and those that do not (name -> error code).
READ = {"a.pdf": 2, "scan.pdf": 1, "sub/b.PDF": 1}
FAILED = {"bad.pdf": "malformed", "enc.pdf": "encrypted"}


def scanned_pdf() -> bytes:
    b = PdfBuilder()
    image = b.image_xobject(8, 8)
    b.add_page(b"q 612 0 0 792 0 0 cm /Im1 Do Q", {"XObject": {"Im1": image}})
    return b.build()


@pytest.fixture(scope="module")
def src(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("batch") / "src"
    (root / "sub").mkdir(parents=True)
    (root / "a.pdf").write_bytes(text_pdf([["Alpha one"], ["Alpha two"]]))
    (root / "sub" / "b.PDF").write_bytes(text_pdf([["Beta"]]))
    (root / "scan.pdf").write_bytes(scanned_pdf())
    (root / "bad.pdf").write_bytes(b"%PDF-1.4\nnot a pdf at all")
    (root / "enc.pdf").write_bytes(encrypt(text_pdf([["Secret"]]), "pw"))
    (root / "notes.txt").write_text("not a PDF: never read")
    return root


def batch(*args: str) -> int:
    return main(["batch", *args])


def summary_of(out: Path) -> dict[str, object]:
    data = json.loads((out / "summary.json").read_text())
    data.pop("seconds")
    return dict(data)


def read_stdout(path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    assert main([*args, str(path)]) == 0
    return capsys.readouterr().out


def test_markdown_mirrors_the_tree_records_failures_and_counts(
    src: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert batch(str(src), "--out", str(out), "--jobs", "1") == 8  # some documents failed
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.md"))
    assert written == ["a.md", "scan.md", "sub/b.md"]
    # Each file is what `pdfthin read` prints.
    for name in READ:
        md = out / (name[:-4] + ".md")
        assert md.read_text() == read_stdout(src / name, capsys, "read")
    summary = summary_of(out)
    assert summary["documents"] == {"total": 5, "ok": 3, "skipped": 0, "failed": 2}
    assert {f["source"]: f["code"] for f in summary["failed"]} == FAILED  # type: ignore[attr-defined]
    assert summary["pages"] == {"needs_ocr": 1, "text": 3}
    assert summary["needs_ocr"] == {"scan.pdf": "1"}
    manifest = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert sorted(m["source"] for m in manifest) == sorted([*READ, *FAILED])
    assert {m["source"]: m["page_count"] for m in manifest if m["status"] == "ok"} == READ


def test_jobs_two_gives_the_same_outputs_as_one(src: Path, tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    assert batch(str(src), "--out", str(one), "--jobs", "1", "-q") == 8
    assert batch(str(src), "--out", str(two), "--jobs", "2", "-q") == 8
    files = sorted(p.relative_to(one) for p in one.rglob("*.md"))
    assert files == sorted(p.relative_to(two) for p in two.rglob("*.md"))
    for rel in files:
        assert (one / rel).read_bytes() == (two / rel).read_bytes()
    assert summary_of(one) == summary_of(two)


def test_a_rerun_skips_what_is_done_and_redoes_what_changed(src: Path, tmp_path: Path) -> None:
    import shutil

    here = tmp_path / "src"
    shutil.copytree(src, here)
    out = tmp_path / "out"
    assert batch(str(here), "--out", str(out), "-q", "--jobs", "1") == 8
    first = {p: p.stat().st_mtime_ns for p in out.rglob("*.md")}
    # Nothing changed: every document read before is skipped, the failed ones tried again.
    assert batch(str(here), "--out", str(out), "-q", "--jobs", "1") == 8
    assert summary_of(out)["documents"] == {"total": 5, "ok": 0, "skipped": 3, "failed": 2}
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*.md")} == first
    assert summary_of(out)["pages"] == {"needs_ocr": 1, "text": 3}  # the skipped still count
    # One source changed: that one is read again, and its output says so.
    (here / "a.pdf").write_bytes(text_pdf([["Gamma"]]))
    assert batch(str(here), "--out", str(out), "-q", "--jobs", "1") == 8
    assert summary_of(out)["documents"] == {"total": 5, "ok": 1, "skipped": 2, "failed": 2}
    assert "Gamma" in (out / "a.md").read_text()
    # Other options: everything is read again.
    assert batch(str(here), "--out", str(out), "-q", "--pages", "1", "--jobs", "1") == 8
    assert summary_of(out)["documents"] == {"total": 5, "ok": 3, "skipped": 0, "failed": 2}
    # An output deleted is written again.
    (out / "scan.md").unlink()
    assert batch(str(here), "--out", str(out), "-q", "--pages", "1", "--jobs", "1") == 8
    assert summary_of(out)["documents"] == {"total": 5, "ok": 1, "skipped": 2, "failed": 2}
    assert (out / "scan.md").is_file()


def test_chunks_are_what_pdfthin_chunks_gives(src: Path, tmp_path: Path) -> None:
    import pdfthin

    out = tmp_path / "chunks"
    assert batch(str(src), "--out", str(out), "--format", "chunks", "-q", "--jobs", "1") == 8
    for name in READ:
        written = (out / (name[:-4] + ".chunks.jsonl")).read_text()
        assert written == "".join(jsonl_line(c) for c in pdfthin.chunks(src / name))
        assert written  # every document has chunks (a scanned page is a chunk of its own)


def test_jsonl_is_one_record_a_document_then_the_summary(src: Path, tmp_path: Path) -> None:
    out = tmp_path / "all.jsonl"
    for _ in range(2):  # the rerun keeps each document once
        assert batch(str(src), "--out", str(out), "--format", "jsonl", "-q", "--jobs", "1") == 8
        records = [json.loads(line) for line in out.read_text().splitlines()]
        *docs, last = records
        assert sorted(d["source"] for d in docs) == sorted([*READ, *FAILED])
        assert {d["source"]: len(d["pages"]) for d in docs if d["status"] == "ok"} == READ
        assert {d["source"]: d["error"]["code"] for d in docs if "error" in d} == FAILED
        assert set(last) == {"summary"}
    assert last["summary"]["documents"]["skipped"] == 3


def test_a_list_file_names_the_documents(src: Path, tmp_path: Path) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text(f"# two of them\n{src / 'a.pdf'}\n\n{src / 'sub' / 'b.PDF'}\n")
    out = tmp_path / "out"
    assert batch(f"@{listing}", "--out", str(out), "-q", "--jobs", "1") == 0  # all read
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.md")) == ["a.md", "sub/b.md"]
    assert summary_of(out)["documents"] == {"total": 2, "ok": 2, "skipped": 0, "failed": 0}


def test_off_a_terminal_the_log_is_plain_lines(src: Path, tmp_path: Path) -> None:
    import os

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "pdfthin", "batch", str(src), "--out", str(tmp_path / "o")]

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            argv, capture_output=True, text=True, env=env, timeout=300, check=False
        )

    done = run(*command)
    assert done.returncode == 8, done.stderr
    assert "\r" not in done.stderr and "\x1b" not in done.stderr
    lines = done.stderr.splitlines()
    assert sum(line.startswith("pdfthin batch: [") for line in lines) == 5  # one a document
    assert any("failed: enc.pdf: encrypted" in line for line in lines)  # the summary
    quiet = run(*command, "-q")
    assert quiet.returncode == 8 and quiet.stderr == ""


def test_on_a_terminal_the_progress_line_is_erased() -> None:
    from pdfthin.adapters.batch_command import Progress
    from pdfthin.batch import DocumentResult

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Terminal()
    progress = Progress(stream, 2)
    progress.add(DocumentResult("a.pdf", "a.pdf", "ok", page_count=3))
    assert "\rpdfthin batch: 1/2 documents" in stream.getvalue()
    assert "pages/s" in stream.getvalue() and "ETA" in stream.getvalue()
    progress.end()
    assert stream.getvalue().endswith("\r" + " " * progress_width(stream) + "\r")


def progress_width(stream: io.StringIO) -> int:
    shown = stream.getvalue().split("\r")[1]
    return len(shown)


def test_the_python_api_yields_every_document_once(src: Path) -> None:
    from pdfthin.batch import iter_documents

    paths = sorted(p for p in src.rglob("*") if p.suffix.lower() == ".pdf")
    results = list(iter_documents(paths, format="chunks", jobs=2))
    assert sorted(r.name for r in results) == sorted([*READ, *FAILED])
    by_name = {r.name: r for r in results}
    for name, pages in READ.items():
        assert by_name[name].status == "ok" and by_name[name].page_count == pages
        assert by_name[name].content and by_name[name].content[0]["chunk_id"] == "p1-1"
    for name, code in FAILED.items():
        error = by_name[name].error
        assert by_name[name].status == "failed" and error is not None and error.code == code


def test_usage_is_checked_before_anything_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert batch(str(tmp_path), "--out", str(tmp_path / "o"), "--jobs", "0") == 2
    assert batch(str(tmp_path), "--out", str(tmp_path / "o"), "--max-tokens", "1") == 2
    assert "--max-tokens must be" in capsys.readouterr().err
    assert batch(str(tmp_path / "missing"), "--out", str(tmp_path / "o")) == 1
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())
