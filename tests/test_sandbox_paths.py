"""The sandbox's path resolution under attack (issue 18, item 8): a path never climbs out of the
root and back in (no oracle for the root's name), a link swapped while a path is resolved is a
typed error, and no error names anything the caller did not give — the root's absolute path
above all."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdfthin.adapters.mcp.config import ServeConfig
from pdfthin.adapters.mcp.sandbox import Sandbox
from pdfthin.adapters.mcp.server import PdfthinServer
from pdfthin.errors import PdfthinError

PDF = b"%PDF-1.4\n%test\n" + b"x" * 100


def error_of(call: Any, *args: Any) -> PdfthinError:
    with pytest.raises(PdfthinError) as info:
        call(*args)
    return info.value


def assert_nothing_leaks(error: PdfthinError | dict[str, Any], *secrets: Path) -> None:
    """Neither the message nor the details name ``secrets`` (absolute paths)."""
    envelope = error.envelope() if isinstance(error, PdfthinError) else error
    text = json.dumps(envelope, ensure_ascii=False)
    for secret in secrets:
        assert str(secret) not in text, text
        assert str(secret.resolve()) not in text, text


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "library"
    (root / "docs").mkdir(parents=True)
    (root / "a.pdf").write_bytes(PDF)
    (root / "docs" / "b.pdf").write_bytes(PDF)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "a.pdf").write_bytes(PDF)
    return root


# --- climbing out and back in -------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "../library/a.pdf",  # the root's own name: it would reach a.pdf if normalised
        "../LIBRARY/a.pdf",
        "../elsewhere/a.pdf",
        "../nothing/a.pdf",
        "docs/../../library/a.pdf",
        "docs/../../library/docs/b.pdf",
        "./../library",
        "..",
        "../",
    ],
)
def test_a_path_that_climbs_out_is_refused_whatever_it_comes_back_to(root: Path, path: str) -> None:
    """Whether the guess names the root or not, the answer is the same: a path is never
    normalised through the root's parent, so it cannot tell the root's name."""
    box = Sandbox(root, max_file_bytes=1000)
    error = error_of(box.read, path)
    assert error.code == "outside_root"
    assert error.message == f"{path!r} leads outside the server's root"
    assert_nothing_leaks(error, root)


def test_links_that_climb_out_and_back_in_are_refused_and_not_listed(root: Path) -> None:
    (root / "up").symlink_to("..")  # a relative link to the root's parent
    (root / "again.pdf").symlink_to("../library/a.pdf")  # out and back in, to a file inside
    (root / "docs" / "inner.pdf").symlink_to("../a.pdf")  # stays inside: fine
    box = Sandbox(root, max_file_bytes=1000)
    for path in ("up/library/a.pdf", "again.pdf", "up/elsewhere/a.pdf"):
        error = error_of(box.read, path)
        assert error.code == "outside_root", path
        assert_nothing_leaks(error, root)
    assert box.read("docs/inner.pdf") == PDF
    listing = box.list_documents()
    assert [d["path"] for d in listing["documents"]] == ["a.pdf", "docs/b.pdf", "docs/inner.pdf"]
    assert listing["skipped"] == {"link_outside_root": 1}  # again.pdf (up is a directory)


def test_an_absolute_link_into_the_root_still_works(root: Path) -> None:
    (root / "abs.pdf").symlink_to(root / "docs" / "b.pdf")
    (root / "absdir").symlink_to(root / "docs")
    box = Sandbox(root, max_file_bytes=1000)
    assert box.read("abs.pdf") == PDF
    assert box.read("absdir/b.pdf") == PDF


# --- races ------------------------------------------------------------------------------------


def test_a_link_swapped_while_the_path_is_resolved(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the lstat that saw a link and the readlink of it, the link becomes a
    directory: the OS answers EINVAL with the link's absolute path. That is a ``not_found``
    naming the caller's path only — over MCP too, never ``internal``."""
    (root / "real").mkdir()
    (root / "real" / "c.pdf").write_bytes(PDF)
    link = root / "d"
    link.symlink_to("real")
    real_readlink = os.readlink

    def swapped(path: Any, *args: Any, **kwargs: Any) -> str:
        if os.path.islink(link):
            link.unlink()
            link.mkdir()
        return real_readlink(path, *args, **kwargs)

    monkeypatch.setattr(os, "readlink", swapped)
    error = error_of(Sandbox(root, max_file_bytes=1000).read, "d/c.pdf")
    assert error.code == "not_found"
    assert_nothing_leaks(error, root)

    link.rmdir()
    link.symlink_to("real")
    server = PdfthinServer(ServeConfig(root=str(root)))
    result = anyio.run(server.call, "describe_document", {"path": "d/c.pdf"})
    assert result.is_error and result.structured_content is not None
    assert result.structured_content["error"]["code"] == "not_found"
    assert_nothing_leaks(result.structured_content, root)


def test_the_root_removed_under_a_running_server(tmp_path: Path) -> None:
    root = tmp_path / "gone"
    root.mkdir()
    box = Sandbox(root, max_file_bytes=1000)
    root.rmdir()
    for call, args in ((box.read, ("a.pdf",)), (box.list_documents, ())):
        error = error_of(call, *args)
        assert error.code == "not_found"
        assert_nothing_leaks(error, root)


# --- any path ---------------------------------------------------------------------------------

_SEGMENTS = st.sampled_from(
    ["..", ".", "", "library", "docs", "a.pdf", "b.pdf", "up", "loop", "x" * 256, "\x00", "\ud800"]
)


@pytest.fixture(scope="module")
def rich_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("paths")
    root = base / "library"
    (root / "docs").mkdir(parents=True)
    (root / "a.pdf").write_bytes(PDF)
    (root / "docs" / "b.pdf").write_bytes(PDF)
    (root / "up").symlink_to("..")
    (root / "loop").symlink_to("loop")
    os.mkfifo(root / "fifo.pdf")
    return root


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(parts=st.lists(_SEGMENTS, min_size=1, max_size=8))
def test_any_path_is_read_inside_the_root_or_refused_with_nothing_leaked(
    rich_root: Path, parts: list[str]
) -> None:
    path = "/".join(parts)
    box = Sandbox(rich_root, max_file_bytes=1000)
    try:
        assert box.read(path) == PDF
    except PdfthinError as error:
        assert error.code in {"outside_root", "not_found", "not_a_pdf", "invalid_argument"}
        assert_nothing_leaks(error, rich_root)
        effective = [p for p in parts if p not in ("", ".")]
        plain = not any(p in ("\x00", "\ud800", "x" * 256) for p in parts)
        if plain and effective[:1] == [".."]:  # climbs out first: refused, never looked up
            assert error.code == "outside_root"
