"""The command line's conventions (issue 24), run as a user runs it, in a subprocess: find
follows its cursors, ``-q``, exit codes and defaults in ``--help``, usage errors before any
file is opened, ``FILE -``, the ``--password`` hint, the command line's own words in messages,
and the progress line on a terminal (a pseudo-terminal here), erased when the work is done."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import pdfthin_cli as run
from cli_support import pdfthin_cli_bytes as run_bytes
from pdfbuilder import PdfBuilder, encrypt, lined_pages, simple_pdf

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "examples" / "sample.pdf"
#: Pages and lines of the document where every line holds the searched word.
PAGES, LINES = 30, 40


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """1200 matches of "needle": more than one call answers (its budget and its 1000)."""
    path = tmp_path_factory.mktemp("conventions") / "many.pdf"
    path.write_bytes(lined_pages(PAGES, lambda n, i: f"page {n} line {i} needle here"))
    return path


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Page 1 has text; pages 2 and 3 are images only (they need OCR)."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(8, 8)
    b.add_page(b"BT /F1 12 Tf 72 700 Td (visible words) Tj ET", {"Font": {"F1": font}})
    for _ in range(2):
        b.add_page(b"q 612 0 0 792 0 0 cm /Im1 Do Q", {"XObject": {"Im1": image}})
    path = tmp_path_factory.mktemp("conventions") / "scanned.pdf"
    path.write_bytes(b.build())
    return path


def matched(stdout: str) -> list[tuple[int, int]]:
    """(page, line) of each match the text output lists, in order."""
    return [
        (int(m[1]), int(m[2]))
        for m in re.finditer(r"^page (\d+): .*?line (\d+) \*\*needle\*\*", stdout, re.M)
    ]


EVERY = [(n, i) for n in range(1, PAGES + 1) for i in range(LINES)]


# --- find follows its cursors ----------------------------------------------------------------


def test_find_without_a_budget_follows_the_cursors_to_every_match(many: Path) -> None:
    r = run("find", str(many), "needle")
    assert r.returncode == 0, r.stderr
    assert matched(r.stdout) == EVERY  # each match once, in order, across every page
    assert "--cursor" not in r.stderr  # nothing left to continue
    data = json.loads(run("find", str(many), "needle", "--format", "json").stdout)
    assert len(data["matches"]) == len(EVERY) and data["next_cursor"] is None


def test_max_results_caps_the_total_not_each_response(many: Path) -> None:
    # 500 matches take several responses (each fits the default budget of 40000 characters).
    r = run("find", str(many), "needle", "--max-results", "500")
    assert r.returncode == 0, r.stderr
    assert matched(r.stdout) == EVERY[:500]
    # What is left is one printed cursor away.
    (cursor,) = re.findall(r"--cursor (\S+)", r.stderr)
    rest = run("find", str(many), "needle", "--cursor", cursor)
    assert matched(rest.stdout) == EVERY[500:]


def test_a_tiny_max_chars_prints_one_response_and_the_cursors_walk_the_pages(many: Path) -> None:
    seen: list[tuple[int, int]] = []
    cursor: list[str] = []
    for _ in range(len(EVERY)):
        r = run("find", str(many), "needle", "--max-chars", "1000", "--max-results", "300", *cursor)
        assert r.returncode == 0, r.stderr
        got = matched(r.stdout)
        assert 0 < len(got) < 300  # the budget, not --max-results, ended the response
        seen += got
        cursors = re.findall(r"--cursor (\S+)", r.stderr)
        if not cursors or len(seen) > 60:
            break
        cursor = ["--cursor", cursors[0]]
    assert seen == EVERY[: len(seen)] and seen[-1][0] > 1  # on into the next page


# --- -q ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "pages", "code"),
    [("needle", "1-3", 0), ("zebra", "1", 1), ("visible", "1-3", 0), ("zebra", "1-3", 4)],
)
def test_quiet_prints_nothing_and_the_exit_code_answers(
    many: Path, scanned: Path, query: str, pages: str, code: int
) -> None:
    path = many if query == "needle" else scanned
    loud = run("find", str(path), query, "--pages", pages)
    assert loud.returncode == code
    assert loud.stdout or loud.stderr or code == 1  # not quiet: something is said
    quiet = run("find", str(path), query, "--pages", pages, "-q")
    assert quiet.returncode == code
    assert quiet.stdout == "" and quiet.stderr == ""
    also = run("find", str(path), query, "--pages", pages, "--quiet", "--format", "json")
    assert (also.returncode, also.stdout, also.stderr) == (code, "", "")


# --- --help -----------------------------------------------------------------------------------


def test_find_help_lists_every_exit_code() -> None:
    r = run("find", "--help")
    assert r.returncode == 0
    listed = dict(re.findall(r"^  (\d)  (.+)$", r.stdout, re.M))
    assert set(listed) == {"0", "1", "2", "3", "4", "5"}
    assert "found" in listed["0"] and "not found" in listed["1"] and "OCR" in listed["4"]
    top = run("--help")
    assert "Exit codes: 0 success, 1 document error, 2 usage" in " ".join(top.stdout.split())


@pytest.mark.parametrize(
    "command",
    ["read", "find", "describe", "info", "toc", "section", "peek", "images", "image", "inspect",
     "chunks", "serve"],
)  # fmt: skip
def test_every_option_in_help_says_its_default(command: str) -> None:
    r = run(command, "--help")
    assert r.returncode == 0
    text = r.stdout.split("options:", 1)[1].split("\n\n", 1)[0]
    # An option's entry starts at a line indented two spaces with a dash.
    entries = re.split(r"\n(?=  -)", text.strip("\n"))
    assert len(entries) > 3
    for entry in entries:
        flag = entry.split()[0]
        if flag in ("-h,", "-h"):
            continue
        said = " ".join(entry.split()).lower()
        assert "default" in said or "required" in said, f"{command} {flag}: {said}"


def test_max_chars_help_speaks_of_cursors_only_where_they_are_followed() -> None:
    from pdfthin.operations import OPERATIONS

    for op in OPERATIONS:
        names = [p.name for p in op.params]
        if "max_chars" not in names:
            continue
        said = " ".join(run(op.command, "--help").stdout.split())
        entry = said.split("--max-chars N", 2)[-1].split(" --", 1)[0]
        assert ("cursor" in entry) == ("cursor" in names), f"{op.command}: {entry}"


# --- usage before opening ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "flag", "fine"),
    [
        (["read", "{missing}", "--max-chars"], "5", "1000"),
        (["find", "{missing}", "x", "--max-chars"], "99999999", "5000"),
        (["find", "{missing}", "x", "--max-results"], "0", "1"),
        (["chunks", "{missing}", "--max-chars"], "10", "2000"),
    ],
)
def test_an_out_of_range_option_is_usage_before_the_file_is_opened(
    tmp_path: Path, args: list[str], flag: str, fine: str
) -> None:
    missing = str(tmp_path / "no-such.pdf")
    argv = [a.replace("{missing}", missing) for a in args]
    r = run(*argv, flag)
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith(f"pdfthin {args[0]}: {args[-1]} ") and "not_found" not in r.stderr
    assert len(r.stderr.splitlines()) == 1 and r.stdout == ""
    # The same option in range reaches the file, which is not there: a document error.
    reached = run(*argv, fine)
    assert reached.returncode in (1, 5) and "not_found" in reached.stderr


# --- FILE - -----------------------------------------------------------------------------------


def test_dash_reads_the_pdf_from_stdin() -> None:
    data = SAMPLE.read_bytes()
    for command in (["info"], ["read", "--pages", "1-2"], ["find", "mistake"]):
        by_path = run(command[0], str(SAMPLE), *command[1:])
        piped = run(command[0], "-", *command[1:], stdin=data)
        assert piped.returncode == by_path.returncode == 0, piped.stderr
        assert piped.stdout == by_path.stdout
    assert "pages: 3" in run("info", "-", stdin=data).stdout
    # Not a PDF on stdin is the document error it would be from a file.
    bad = run("info", "-", stdin=b"hello")
    assert bad.returncode == 1 and "not_a_pdf" in bad.stderr


def test_dash_with_a_terminal_on_stdin_is_usage() -> None:
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pdfthin", "info", "-"],
            stdin=follower,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        os.close(follower)
        os.close(leader)
    assert done.returncode == 2
    assert "stdin is a terminal" in done.stderr


# --- encrypted --------------------------------------------------------------------------------


def test_encrypted_without_a_password_names_the_option(tmp_path: Path) -> None:
    path = tmp_path / "locked.pdf"
    page = b"BT /F1 12 Tf 72 700 Td (secret words) Tj ET"
    path.write_bytes(encrypt(simple_pdf(page), "sesame"))
    r = run("read", str(path))
    assert r.returncode == 1
    assert "encrypted" in r.stderr and "give it with --password PASSWORD" in r.stderr
    wrong = run("read", str(path), "--password", "nope")
    assert wrong.returncode == 1 and "check --password" in wrong.stderr
    right = run("read", str(path), "--password", "sesame")
    assert right.returncode == 0 and "secret words" in right.stdout


# --- the command line's words -----------------------------------------------------------------


#: What the API calls things; a message on the command line must not.
API_WORDS = re.compile(r"ocr=true|next_cursor|max_chars|top_k|get_toc|read_pages|list_images")


def test_messages_use_the_command_line_words(scanned: Path, many: Path) -> None:
    r = run("find", str(scanned), "zebra")
    assert r.returncode == 4
    assert "--ocr MODULE" in r.stderr and not API_WORDS.search(r.stderr), r.stderr
    usage = run("read", str(many), "--max-chars", "1")
    assert "--max-chars" in usage.stderr and not API_WORDS.search(usage.stderr)
    budget = run("read", str(many), "--max-chars", "1000")
    assert "--cursor" in budget.stderr and not API_WORDS.search(budget.stderr), budget.stderr
    # The same answer as JSON keeps the API's words: it is the API's answer.
    as_json = json.loads(run("find", str(scanned), "zebra", "--format", "json").stdout)
    assert "ocr=true" in as_json["coverage"]["message"]


# --- progress on a terminal -------------------------------------------------------------------


def screen(raw: bytes) -> list[str]:
    """The lines a terminal shows for ``raw``: a carriage return goes back to the line's start
    and what follows overwrites it."""
    lines = []
    for line in raw.decode().replace("\r\n", "\n").split("\n"):
        shown: list[str] = []
        for piece in line.split("\r"):
            shown[: len(piece)] = piece
        lines.append("".join(shown).rstrip())
    return lines


#: Runs the command line with its progress delay set to 0 (the delay keeps quick work quiet;
#: these documents are quick), stderr on a pseudo-terminal.
PROBE = (
    "import sys\n"
    "from pdfthin.adapters import cli\n"
    "cli._Progress.DELAY = 0\n"
    "sys.exit(cli.main(sys.argv[1:]))\n"
)


def on_a_terminal(*args: str) -> tuple[int, str, list[str], bytes]:
    """Exit code, stdout, the terminal's lines and its raw bytes. Stdout goes to a file, so
    the child never waits on a full pipe while the terminal is read."""
    import tempfile

    leader, follower = pty.openpty()
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(
            [sys.executable, "-c", PROBE, *args],
            stdout=out,
            stderr=follower,
            stdin=subprocess.DEVNULL,
        )
        os.close(follower)
        raw = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the child closed its end
                break
            if not chunk:
                break
            raw += chunk
        os.close(leader)
        code = child.wait(timeout=60)
        out.seek(0)
        return code, out.read().decode(), screen(raw), raw


def test_progress_is_shown_on_a_terminal_and_erased(many: Path) -> None:
    code, out, shown, raw = on_a_terminal("read", str(many), "--pages", "1-5")
    assert code == 0
    assert re.search(rb"\rpdfthin: reading page 1/\d+", raw)  # it was shown ...
    assert [line for line in shown if line] == []  # ... and nothing of it is left
    assert out.count("<!-- page ") == 5  # stdout (a pipe) has the pages only
    # Not a terminal: no progress at all.
    piped = run("read", str(many), "--pages", "1-5")
    assert piped.stderr == ""


def test_each_ocr_batch_is_shown_and_erased(scanned: Path, tmp_path: Path) -> None:
    module = tmp_path / "fake_ocr.py"
    module.write_text(
        "from pdfthin.ocr import OcrBinding\n"
        "class Raster:\n"
        "    def render(self, pdf, pages, dpi, signal):\n"
        "        return [{'page': p, 'image': b'img', 'media_type': 'image/png'} for p in pages]\n"
        "class Reader:\n"
        "    name = 'fake'\n"
        "    def recognize(self, pages, signal):\n"
        "        return [{'page': i['page'], 'markdown': 'ocr text %d' % i['page']}\n"
        "                for i in pages]\n"
        "binding = OcrBinding(Raster(), Reader())\n",
        encoding="utf-8",
    )
    code, out, shown, raw = on_a_terminal("read", str(scanned), "--ocr", str(module))
    assert code == 0
    assert "ocr text 2" in out and "ocr text 3" in out
    assert b"pdfthin: OCR of page(s) 2-3 of 3" in raw
    assert [line for line in shown if line] == []


# --- image -o ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pictures(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes]:
    """A page with a JPEG (stored as it is) and a grey image (written as PNG), and the JPEG."""
    from io import BytesIO

    from PIL import Image

    out = BytesIO()
    Image.new("RGB", (30, 20), (200, 10, 10)).save(out, "JPEG")
    jpeg = out.getvalue()
    b = PdfBuilder()
    photo = b.image_xobject(30, 20, jpeg, color_space="/DeviceRGB", filter="/DCTDecode")
    grey = b.image_xobject(8, 8)
    content = b"q 300 0 0 200 72 500 cm /Im1 Do Q q 100 0 0 100 72 300 cm /Im2 Do Q"
    b.add_page(content, {"XObject": {"Im1": photo, "Im2": grey}})
    path = tmp_path_factory.mktemp("conventions") / "pictures.pdf"
    path.write_bytes(b.build())
    return path, jpeg


def image_ids(path: Path) -> dict[str, str]:
    """Stored format (``raw`` for plain samples) -> the id of the image stored in it."""
    listed = json.loads(run("images", str(path), "--format", "json").stdout)["images"]
    return {image["format"]: image["id"] for image in listed}


def test_image_output_keeps_the_format_its_extension_names(
    pictures: tuple[Path, bytes], tmp_path: Path
) -> None:
    path, jpeg = pictures
    ids = image_ids(path)
    assert set(ids) == {"jpeg", "raw"}
    for name in ("photo.jpg", "photo.JPEG"):
        r = run("image", str(path), ids["jpeg"], "-o", str(tmp_path / name))
        assert r.returncode == 0, r.stderr
        assert r.stdout == "image/jpeg\n" and (tmp_path / name).read_bytes() == jpeg
    r = run("image", str(path), ids["raw"], "-o", str(tmp_path / "grey.png"))
    assert r.returncode == 0 and (tmp_path / "grey.png").read_bytes().startswith(b"\x89PNG")
    # No extension, or one no image format has: written as it is.
    r = run("image", str(path), ids["jpeg"], "-o", str(tmp_path / "raw.bin"))
    assert r.returncode == 0 and (tmp_path / "raw.bin").read_bytes() == jpeg


@pytest.mark.parametrize(
    ("stored", "kind", "name", "fits"),
    [("jpeg", "jpeg", "a.png", "a.jpg"), ("raw", "png", "b.jpg", "b.png")],
)
def test_image_output_naming_another_format_is_refused(
    pictures: tuple[Path, bytes], tmp_path: Path, stored: str, kind: str, name: str, fits: str
) -> None:
    path, _ = pictures
    target = tmp_path / name
    r = run("image", str(path), image_ids(path)[stored], "-o", str(target))
    assert r.returncode == 2
    assert r.stderr.startswith("pdfthin image: ") and len(r.stderr.splitlines()) == 1
    assert f"is {kind.upper()}" in r.stderr and fits in r.stderr
    assert not target.exists() and r.stdout == ""


def test_image_output_dash_writes_the_bytes_to_stdout(pictures: tuple[Path, bytes]) -> None:
    path, jpeg = pictures
    ids = image_ids(path)
    r = run_bytes("image", str(path), ids["jpeg"], "-o", "-")
    assert r.returncode == 0 and r.stdout == jpeg and r.stderr == b""
    png = run_bytes("image", str(path), ids["raw"], "-o", "-")
    assert png.returncode == 0 and png.stdout.startswith(b"\x89PNG\r\n\x1a\n")
    # JSON would share stdout with the bytes: usage, before the file is opened.
    both = run("image", "no-such.pdf", ids["raw"], "-o", "-", "--format", "json")
    assert both.returncode == 2 and "choose one" in both.stderr


# --- the synopses -----------------------------------------------------------------------------


def synopsis(text: str) -> dict[str, set[str]]:
    """Command -> the flags its synopsis lines name (a line ``pdfthin COMMAND ...`` and the
    indented lines after it)."""
    out: dict[str, set[str]] = {}
    command = None
    for line in text.splitlines():
        head = re.match(r"pdfthin ([a-z][a-z-]*) ", line)
        if head:
            command = head[1]
            out.setdefault(command, set())
        elif not line.startswith(" "):
            command = None
        if command is not None:
            code = line.split("  #", 1)[0]  # not the comment
            out[command] |= set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", code))
    return out


#: Options every command takes, said once beside each synopsis rather than on every line.
EVERYWHERE = {"-h", "--help", "--native", "--password"}


@pytest.mark.parametrize(
    ("page", "start", "end"),
    [("docs/cli.md", "# The", "## Reading")],
)
def test_the_synopses_name_every_command_and_option(page: str, start: str, end: str) -> None:
    import argparse

    from pdfthin.adapters.cli import _parser

    text = (ROOT / page).read_text(encoding="utf-8")
    section = text.split(start, 1)[1].split(end, 1)[0]
    listed = synopsis(section)
    (sub,) = (a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert set(sub.choices) <= set(listed), set(sub.choices) - set(listed)
    for command, parser in sub.choices.items():
        flags = {flag for action in parser._actions for flag in action.option_strings}
        missing = flags - EVERYWHERE - listed[command]
        assert not missing, f"{page}: pdfthin {command} does not name {sorted(missing)}"
        unknown = listed[command] - flags
        assert not unknown, f"{page}: pdfthin {command} names {sorted(unknown)}, which it lacks"
    for flag in EVERYWHERE - {"-h", "--help"}:
        assert flag in section


# --- several files ----------------------------------------------------------------------------


def test_read_several_files_heads_each_with_its_name(many: Path) -> None:
    r = run("read", str(SAMPLE), str(many), "--pages", "1")
    assert r.returncode == 0, r.stderr
    first, second = run("read", str(SAMPLE), "--pages", "1"), run("read", str(many), "--pages", "1")
    assert r.stdout == (
        f"<!-- file: {SAMPLE} -->\n\n{first.stdout}\n<!-- file: {many} -->\n\n{second.stdout}"
    )
    # A file that cannot be read is named, and the others are still read.
    broken = run("read", str(many), "no-such.pdf", str(SAMPLE), "--pages", "1")
    assert broken.returncode == 1
    assert broken.stderr.startswith("pdfthin: no-such.pdf: not_found: ")
    assert broken.stdout.count("<!-- file: ") == 3 and "A Sample for pdfthin" in broken.stdout


def test_find_several_files_answers_each_with_its_coverage(many: Path, scanned: Path) -> None:
    r = run("find", str(many), str(scanned), "visible")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"{scanned}: page 1: **visible** words")
    assert r.stdout.count("\n") == 1
    # Each file's coverage, under its name: only scanned.pdf has pages left unsearched.
    assert r.stderr.startswith(f"pdfthin: {scanned}: 2 page(s) in scope have no readable text")
    assert str(many) not in r.stderr
    assert run("find", str(many), str(scanned), "zebra").returncode == 4
    assert run("find", str(many), str(scanned), "zebra", "--pages", "1").returncode == 1
    lines = run("find", str(many), str(scanned), "zebra", "--format", "json").stdout.splitlines()
    answers = [json.loads(line) for line in lines]
    assert [(a["file"], a["exit_code"]) for a in answers] == [(str(many), 1), (str(scanned), 4)]
    assert [a["answer"]["coverage"]["complete"] for a in answers] == [True, False]
    assert answers[1]["answer"]["coverage"]["pages_needing_ocr"] == "2-3"


def test_find_several_files_with_one_unreadable(many: Path, scanned: Path) -> None:
    found = run("find", "no-such.pdf", str(scanned), "visible")
    assert found.returncode == 0 and "pdfthin: no-such.pdf: not_found: " in found.stderr
    missed = run("find", "no-such.pdf", str(many), "zebra")
    assert missed.returncode == 5 and "pdfthin: no-such.pdf: not_found: " in missed.stderr
    quiet = run("find", str(many), str(scanned), "needle", "-q")
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")
    # A cursor belongs to one file's answer.
    cursor = run("find", str(many), str(scanned), "needle", "--cursor", "abc")
    assert cursor.returncode == 2 and "give one FILE" in cursor.stderr
