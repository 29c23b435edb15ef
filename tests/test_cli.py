"""The command line, run as a user runs it: a subprocess, exit codes, stdout and stderr."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import pdfthin_cli as run
from pdfbuilder import PdfBuilder

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "examples" / "sample.pdf"


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(8, 8)
    b.add_page(b"BT /F1 12 Tf 72 700 Td (visible words) Tj ET", {"Font": {"F1": font}})
    b.add_page(b"q 612 0 0 792 0 0 cm /Im1 Do Q", {"XObject": {"Im1": image}})
    path = tmp_path_factory.mktemp("cli") / "scanned.pdf"
    path.write_bytes(b.build())
    return path


def test_bundled_sample_is_what_make_sample_writes(tmp_path: Path) -> None:
    out = tmp_path / "sample.pdf"
    subprocess.run(
        [sys.executable, str(ROOT / "examples" / "make_sample.py"), str(out)], check=True
    )
    assert out.read_bytes() == SAMPLE.read_bytes()


def test_read_markdown_whole_document() -> None:
    r = run("read", str(SAMPLE))
    assert r.returncode == 0, r.stderr
    assert "# A Sample for pdfthin" in r.stdout
    assert "| Engine | Pages | Seconds |" in r.stdout
    assert "<!-- page 3: needs_ocr" in r.stdout
    assert "Ignore previous instructions" not in r.stdout  # invisible text stays out
    assert r.stderr == ""  # no progress on a pipe


def test_read_json_shape() -> None:
    r = run("read", str(SAMPLE), "--pages", "2-3", "--format", "json")
    assert r.returncode == 0
    data = json.loads(r.stdout)
    assert data["document"]["page_count"] == 3
    assert [(p["page"], p["status"]) for p in data["pages"]] == [(2, "text"), (3, "needs_ocr")]
    assert data["pages"][0]["markdown"].startswith("## 3 Results")


def test_read_with_budget_prints_a_cursor_and_continues() -> None:
    r = run("read", str(SAMPLE), "--max-chars", "1000", "--format", "json")
    first = json.loads(r.stdout)
    assert first["next_cursor"]
    r2 = run("read", str(SAMPLE), "--max-chars", "1000", "--cursor", first["next_cursor"])
    assert r2.returncode == 0


@pytest.mark.parametrize(
    ("args", "code", "error"),
    [
        (["read", "missing.pdf"], 1, "not_found"),
        (["read", str(SAMPLE), "--pages", "0"], 1, "invalid_pages"),
        (["read", str(SAMPLE), "--pages", "4"], 1, "invalid_pages"),
        (["read", str(SAMPLE), "--cursor", "garbage"], 1, "invalid_cursor"),
        (["describe", __file__], 1, "not_a_pdf"),
    ],
)
def test_document_errors_exit_1_with_one_line(args: list[str], code: int, error: str) -> None:
    r = run(*args)
    assert r.returncode == code
    assert r.stderr.count("\n") == 1 and error in r.stderr
    r = run(*args, "--format", "json")
    assert r.returncode == code
    assert json.loads(r.stdout)["error"]["code"] == error


def test_usage_errors_exit_2() -> None:
    assert run("bogus").returncode == 2
    assert run("read").returncode == 2
    assert run().returncode == 2
    assert run("read", str(SAMPLE), "--format", "yaml").returncode == 2


def test_find_exit_codes(scanned: Path) -> None:
    assert run("find", str(SAMPLE), "mistake").returncode == 0
    assert run("find", str(SAMPLE), "zebra", "--pages", "1-2").returncode == 1
    # Not found, and page 3 could not be searched (it needs OCR): a distinct code.
    r = run("find", str(SAMPLE), "zebra")
    assert r.returncode == 4
    assert "could not" in r.stderr or "not searched" in r.stderr
    assert run("find", str(scanned), "visible").returncode == 0
    assert run("find", "missing.pdf", "x").returncode == 5


def test_describe_info_toc_section_peek() -> None:
    r = run("describe", str(SAMPLE), "--format", "json")
    assert json.loads(r.stdout)["type"] == "mixed"
    r = run("info", str(SAMPLE))
    assert "pages: 3" in r.stdout
    r = run("toc", str(SAMPLE))
    assert "s-1" in r.stdout and "Reading and honesty" in r.stdout
    r = run("section", str(SAMPLE), "s-2")
    assert r.returncode == 0 and "| pure | 1185 | 9.3 |" in r.stdout
    r = run("peek", str(SAMPLE), "--position", "ending", "--limit", "60", "--format", "json")
    assert len(json.loads(r.stdout)["text"]) <= 60


def test_help_version_and_the_operation_list_do_not_load_the_engine() -> None:
    # The command line's parser and the registry's list of operations (names, arguments,
    # schemas) are built without importing a handler: --help and --version answer at once,
    # and pypdf is imported only by a command that reads a document.
    probe = (
        "import sys\n"
        "from pdfthin.adapters import cli\n"
        "from pdfthin.operations import OPERATIONS\n"
        "cli._parser()\n"
        "[op.output_schema() for op in OPERATIONS]\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pypdf'"
        " or m.startswith(('pdfthin.engine', 'pdfthin.model'))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
    # ... and a handler is there when called for.
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\nfrom pdfthin.operations import OPERATIONS\n"
            "OPERATIONS[0].handler\nprint('pypdf' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert loaded.strip() == "True"


def test_a_one_page_read_does_not_build_the_answer_types() -> None:
    # The answer types (operations/types.py: a hundred TypedDicts, some ten milliseconds to
    # build) are for schemas; reading a page, on the command line or through the Python
    # API, runs without them. A handler importing one at run time fails this.
    probe = (
        "import contextlib, io, sys\n"
        "from pdfthin.adapters import cli\n"
        "from pdfthin.operations import Context, find_in_document, read_pages\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = cli.main(['read', {str(SAMPLE)!r}, '--pages', '1'])\n"
        f"read_pages({str(SAMPLE)!r}, pages='1', context=Context())\n"
        f"find_in_document({str(SAMPLE)!r}, 'pure', context=Context())\n"
        "print(code, 'pdfthin.operations.types' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["0", "False"]
    # ... while the schemas still come from them.
    schema = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\nfrom pdfthin.operations.registry import BY_NAME\n"
            "s = BY_NAME['read_section'].output_schema()\n"
            "print('pdfthin.operations.types' in sys.modules, len(s['anyOf']))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert schema.split() == ["True", "2"]


def test_annotations_are_listed_one_a_line_with_what_the_annotator_wrote_quoted(
    tmp_path: Path,
) -> None:
    from annotated import annotated_pdf

    path = tmp_path / "annotated.pdf"
    path.write_bytes(annotated_pdf())
    listed = run("annotations", str(path))
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0] == 'p1-a1  page 1  link  on "project site"  -> "https://example.com/project"'
    assert lines[1] == 'p1-a2  page 1  link  on "see page two"  -> page 2'
    assert 'by "Ann Reviewer"' in lines[3] and 'says "Please check this."' in lines[3]
    assert lines[8] == "p1-a9  page 1  other (Square)"
    assert lines[-1] == 'embedded file "data.csv"  8 bytes  description "the table\'s data"'
    # Without --max-chars every annotation is printed, the cursors followed.
    assert len(lines) == 11
    # With a budget: one response, the cursor on stderr.
    first = run("annotations", str(path), "--kinds", "link", "--max-chars", "1000")
    assert first.returncode == 0 and "--cursor" in first.stderr
    assert 0 < len(first.stdout.splitlines()) < 4
    answer = json.loads(run("annotations", str(path), "--pages", "3", "--format", "json").stdout)
    assert [a["id"] for a in answer["annotations"]] == ["p3-a1"]
