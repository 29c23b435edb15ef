"""A file named by path is recognised by what ``stat`` says of it: calls after the first, a
cursor loop included, neither read nor hash it again until it changes
(``pdfthin/operations/source.py``)."""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest
from pdfbuilder import lined_pages

from pdfthin.adapters.cli import main as cli
from pdfthin.operations import Context, read_pages, source


def _document(path: Path, pages: int, word: str) -> Path:
    path.write_bytes(lined_pages(pages, lambda n, i: f"{word} {n} line {i}"))
    return path


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths whose bytes were read, in order."""
    seen: list[str] = []
    original = source.read_source

    def counting(path: str, limits: object) -> bytes:
        seen.append(os.fspath(path))
        return original(path, limits)  # type: ignore[arg-type]

    monkeypatch.setattr(source, "read_source", counting)
    return seen


def test_a_path_is_read_once_while_it_is_unchanged(tmp_path: Path, reads: list[str]) -> None:
    path = _document(tmp_path / "a.pdf", 3, "alpha")
    context = Context()
    first = read_pages(str(path), pages="1", context=context)
    again = read_pages(str(path), pages="2", context=context)
    assert reads == [str(path)]
    assert first["document"]["fingerprint"] == again["document"]["fingerprint"]


def test_a_changed_file_is_read_again_and_answers_its_new_text(
    tmp_path: Path, reads: list[str]
) -> None:
    path = _document(tmp_path / "a.pdf", 2, "alpha")
    context = Context()
    before = read_pages(str(path), pages="1", context=context)
    _document(path, 2, "omega")
    stat = path.stat()  # same size is possible: make sure the change shows in the times
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    after = read_pages(str(path), pages="1", context=context)
    assert len(reads) == 2
    assert before["document"]["fingerprint"] != after["document"]["fingerprint"]
    assert "omega 1" in after["pages"][0]["markdown"]
    assert "alpha" not in after["pages"][0]["markdown"]


def test_the_cli_follows_its_cursors_without_reading_the_file_again(
    tmp_path: Path, reads: list[str]
) -> None:
    path = _document(tmp_path / "long.pdf", 60, "beta")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli(["read", str(path)]) == 0
    text = out.getvalue()
    # The whole document was printed, which took more than one response...
    assert "beta 1 line 0" in text and "beta 60 line 39" in text
    assert len(text) > 30_000
    # ...and the file was read once for all of them.
    assert reads == [str(path)]
