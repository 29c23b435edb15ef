"""``pdfthin read`` without a budget prints each page as soon as it is read whole, and prints
the same bytes as one response holding every page would."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import pytest
from pdfbuilder import lined_pages

from pdfthin.adapters import cli


def _long(path: Path, pages: int) -> Path:
    path.write_bytes(lined_pages(pages, lambda n, i: f"page {n} line {i} of the stream", 45))
    return path


class _Screen(io.StringIO):
    """Stdout that notes how many responses had been asked for at its first write."""

    def __init__(self, calls: list[int]) -> None:
        super().__init__()
        self.calls = calls
        self.at_first_write: int | None = None

    def write(self, s: str) -> int:
        if self.at_first_write is None and s:
            self.at_first_write = len(self.calls)
        return super().write(s)


def test_the_first_page_is_printed_before_the_next_response_is_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _long(tmp_path / "long.pdf", 60)
    calls: list[int] = []
    original = cli._run

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(cli, "_run", counting)
    screen = _Screen(calls)
    with contextlib.redirect_stdout(screen):
        assert cli.main(["read", str(path)]) == 0
    assert len(calls) > 2  # the document took several responses...
    assert screen.at_first_write == 1  # ...and page 1 was on screen after the first
    text = screen.getvalue()
    assert text.startswith("<!-- page 1: text -->\n\npage 1 line 0")
    assert "page 60 line 44" in text


def test_streamed_output_is_what_one_response_prints(tmp_path: Path) -> None:
    path = _long(tmp_path / "long.pdf", 30)
    streamed = io.StringIO()
    with contextlib.redirect_stdout(streamed):
        assert cli.main(["read", str(path)]) == 0
    whole = io.StringIO()
    with contextlib.redirect_stdout(whole), contextlib.redirect_stderr(io.StringIO()):
        assert cli.main(["read", str(path), "--max-chars", "5000000"]) == 0
    assert streamed.getvalue() == whole.getvalue()
    assert streamed.getvalue().count("<!-- page ") == 30
