"""The docs a user reads resolve in a clone, and the README stays short and true.

- Every relative link in README.md, CHANGELOG.md and docs/*.md names a file or folder inside the
  repository that a clone has (not outside the checkout, not an absolute path, not a file git
  ignores), and every ``#anchor`` names a heading of its page (GitHub's heading ids).
- README.md stays under a size bound, starts with the two commands CI and newcomers run, names
  no commit, and its Python and command-line examples run as written on the bundled sample.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = sorted([README, ROOT / "CHANGELOG.md", *(ROOT / "docs").glob("*.md")])

#: The README is for users: what pdfthin is, install, one example per surface, links (issue 19
#: asks for about 10 KB). The reference lives in docs/.
README_MAX_BYTES = 12_000

#: The README's first lines: the command that sets up and runs pdfthin on the bundled sample, and
#: the command that sets up a fresh machine and runs the whole suite (CI runs it).
FIRST_COMMANDS = [
    "python3 -m venv .venv && .venv/bin/pip install -q . && "
    ".venv/bin/pdfthin read examples/sample.pdf",
    "bash .ci/run    # sets up a fresh machine and runs the whole test suite (the command CI runs)",
]

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_HTML_ANCHOR = re.compile(r"<a\s[^>]*(?:id|name)=\"([^\"]+)\"", re.I)
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def _prose(text: str) -> str:
    """The text outside fenced code blocks and inline code (links there are not links)."""
    kept: list[str] = []
    fence: str | None = None
    for line in text.splitlines():
        m = _FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)[0] * len(m.group(1))
            kept.append("")
        elif fence is not None:
            if m and m.group(1).startswith(fence):
                fence = None
            kept.append("")
        else:
            kept.append(line)
    return _INLINE_CODE.sub(" ", "\n".join(kept))


def _code_blocks(text: str, info: str) -> list[str]:
    """The fenced code blocks of ``text`` whose info string is ``info``, in order."""
    return re.findall(rf"^```{re.escape(info)}\n(.*?)^```", text, re.S | re.M)


def slug(heading: str) -> str:
    """GitHub's id for a heading: its text, lower-cased, without punctuation, spaces as '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text stays
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").replace("*", "")
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every id a link may name in ``path``: its headings' (numbered when repeated), HTML ids."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in _prose_lines_with_code(path.read_text(encoding="utf-8")):
        m = _HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    found.update(_HTML_ANCHOR.findall(path.read_text(encoding="utf-8")))
    return found


def _prose_lines_with_code(text: str) -> Iterator[str]:
    """The lines outside fenced code blocks, inline code kept (a heading's code is its text)."""
    fence: str | None = None
    for line in text.splitlines():
        m = _FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)[0] * len(m.group(1))
        elif fence is not None:
            if m and m.group(1).startswith(fence):
                fence = None
        else:
            yield line


def links(path: Path) -> list[str]:
    prose = _prose(path.read_text(encoding="utf-8"))
    return _LINK.findall(prose) + _REFERENCE.findall(prose)


def _ignored_by_git(paths: list[Path]) -> set[Path]:
    """Those of ``paths`` that git ignores and does not track: they exist here, not in a clone."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return set()
    proc = subprocess.run(
        ["git", "check-ignore", "--stdin"],
        cwd=ROOT,
        input="\n".join(str(p.relative_to(ROOT)) for p in paths),
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode in (0, 1), proc.stderr
    return {ROOT / line for line in proc.stdout.splitlines() if line}


def test_the_pages_are_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in PAGES}
    for page in ("README.md", "CHANGELOG.md", "docs/design.md", "docs/security.md", "docs/api.md"):
        assert page in names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_and_anchor_resolves_in_a_clone(page: Path) -> None:
    problems: list[str] = []
    targets: list[Path] = []
    for link in links(page):
        if not link or _SCHEME.match(link):
            continue  # an external address (https:, mailto:) is not the clone's to resolve
        path_part, _, anchor = link.partition("#")
        if path_part.startswith("/"):
            problems.append(f"{link}: an absolute path resolves nowhere in a clone")
            continue
        target = (page.parent / path_part).resolve() if path_part else page
        if not target.is_relative_to(ROOT):
            problems.append(f"{link}: leaves the repository")
            continue
        if not target.exists():
            problems.append(f"{link}: no such file")
            continue
        targets.append(target)
        if anchor:
            if target.is_dir() or target.suffix != ".md":
                problems.append(f"{link}: an anchor into something that is not a Markdown page")
            elif anchor not in anchors(target):
                problems.append(f"{link}: no heading with that id in {target.name}")
    problems += [f"{t.relative_to(ROOT)}: ignored by git" for t in _ignored_by_git(targets)]
    assert not problems, f"{page.relative_to(ROOT)}:\n" + "\n".join(problems)


def test_the_link_checker_sees_broken_links(tmp_path: Path) -> None:
    # The checker itself: links in code are not links, every other shape is found.
    page = tmp_path / "page.md"
    page.write_text(
        "# A *title* with `code`\n\n## Same\n\n## Same\n\n"
        "[a](x.md#y) ![b](img.png) [c [d]](../up.md)\n[e\nf](#a-title-with-code) `[g](h.md)`\n\n"
        "```\n[i](j.md)\n# not a heading\n```\n\n[k]: ref.md\n",
        encoding="utf-8",
    )
    assert links(page) == ["x.md#y", "img.png", "../up.md", "#a-title-with-code", "ref.md"]
    assert anchors(page) == {"a-title-with-code", "same", "same-1"}
    assert slug("A password unlocks one call (invariant 12 of [design.md](design.md))") == (
        "a-password-unlocks-one-call-invariant-12-of-designmd"
    )
    assert slug("Bounded work: walks over the file's objects") == (
        "bounded-work-walks-over-the-files-objects"
    )


def test_readme_is_short() -> None:
    size = len(README.read_bytes())
    assert size <= README_MAX_BYTES, (
        f"README.md is {size} bytes (at most {README_MAX_BYTES}): move reference text to docs/"
    )


def test_readme_starts_with_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    first = text.split("\n```", 1)[0]
    assert first.strip() == "# pdfthin", "the two commands come right after the title"
    assert _code_blocks(text, "bash")[0].splitlines() == FIRST_COMMANDS


def test_readme_names_no_commit() -> None:
    # Hex words of 7 or more characters with a digit and a letter: how a commit is named.
    words = re.findall(r"\b[0-9a-f]{7,40}\b", README.read_text(encoding="utf-8"))
    hashes = [w for w in words if re.search(r"\d", w) and re.search(r"[a-f]", w)]
    assert not hashes


@pytest.fixture
def user_dir(tmp_path: Path) -> Path:
    """A working directory holding the checkout's ``examples/`` and no ``pdfthin/`` folder, so
    the examples import the installed package, as a user's would."""
    (tmp_path / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    return tmp_path


def test_readme_python_example_runs(user_dir: Path) -> None:
    blocks = _code_blocks(README.read_text(encoding="utf-8"), "python")
    assert blocks, "the README shows the Python API"
    for code in blocks:
        script = user_dir / "example.py"
        script.write_text(code, encoding="utf-8")
        proc = subprocess.run(
            [sys.executable, str(script)],
            cwd=user_dir,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        # A print's comment says what it prints: the README's word is checked.
        said = [
            line.split("  # ", 1)[1]
            for line in code.splitlines()
            if line.startswith("print(") and "  # " in line
        ]
        assert said, "the example says what it prints"
        assert proc.stdout.splitlines() == said


def test_readme_command_line_examples_run(user_dir: Path) -> None:
    commands = [
        shlex.split(line, comments=True)
        for block in _code_blocks(README.read_text(encoding="utf-8"), "bash")
        for line in block.splitlines()
        if line.startswith("pdfthin ") and "examples/sample.pdf" in line
    ]
    assert len(commands) >= 3, "the README shows the command line on the bundled sample"
    for command in commands:
        proc = subprocess.run(
            [sys.executable, "-m", "pdfthin", *command[1:]],
            cwd=user_dir,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 0, (command, proc.stderr)
        assert proc.stdout.strip(), command
        if "--format" in command and "json" in command:
            answer = json.loads(proc.stdout)
            assert [p["page"] for p in answer["pages"]] == [1, 2]
