"""The sandbox escape suite, through the real server: every trick answers ``outside_root``,
``not_found`` or ``not_a_pdf`` (or reaches the file inside the root it names), and nothing from
outside the root ever appears in an answer. The races are forced in-process in
``test_sandbox.py``; here a file is swapped for a link between two calls."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp_support import NFC, NFD, SAMPLE, SECRET, Tree, build_tree, call, fail, session

from pdfthin.operations import Context, describe_document


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Tree:
    return build_tree(tmp_path_factory.mktemp("mcp-sandbox"))


def escapes(tree: Tree) -> list[tuple[str, str]]:
    """(path, expected code) for every trick."""
    secret = tree.outside / "secret.pdf"
    relative_out = os.path.relpath(secret, tree.root)  # ../outside/secret.pdf
    return [
        # climbing
        ("..", "outside_root"),
        ("../outside/secret.pdf", "outside_root"),
        (relative_out, "outside_root"),
        ("docs/../../outside/secret.pdf", "outside_root"),
        ("docs/./../.././outside/secret.pdf", "outside_root"),
        ("./" * 40 + "../outside/secret.pdf", "outside_root"),
        ("../" * 30 + "etc/passwd", "outside_root"),
        ("linkdir-in/../../outside/secret.pdf", "outside_root"),
        # absolute paths outside the root, or leaving it on the way (an absolute path inside
        # it is walked from the root like a relative one: test_absolute_paths_inside_the_root)
        (str(secret), "outside_root"),
        ("/etc/passwd", "outside_root"),
        ("//etc/passwd", "outside_root"),
        (str(tree.root) + "/../outside/secret.pdf", "outside_root"),
        (str(tree.root) + "/docs/../../outside/secret.pdf", "outside_root"),
        (str(tree.root) + "/link-out.pdf", "outside_root"),
        (str(tree.root) + "/linkdir-out/secret.pdf", "outside_root"),
        (str(tree.root) + "-other/sample.pdf", "outside_root"),  # the root's name as a prefix
        (str(tree.root) + "/missing.pdf", "not_found"),
        # links leading out, directly or through a directory
        ("link-out.pdf", "outside_root"),
        ("linkdir-out/secret.pdf", "outside_root"),
        ("dev-zero.pdf", "outside_root"),
        # encoded separators and dots are names, never decoded
        ("..%2Foutside%2Fsecret.pdf", "not_found"),
        ("%2e%2e/outside/secret.pdf", "not_found"),
        ("..%252foutside%252fsecret.pdf", "not_found"),
        ("..\\outside\\secret.pdf", "not_found"),
        ("..%5coutside%5csecret.pdf", "not_found"),
        ("file:///etc/passwd", "not_found"),
        ("~/outside/secret.pdf", "not_found"),
        # Unicode look-alikes of '.' and '/' are ordinary characters
        ("\uff0e\uff0e/outside/secret.pdf", "not_found"),  # fullwidth full stop
        ("..\uff0foutside\uff0fsecret.pdf", "not_found"),  # fullwidth solidus
        ("..\u2215outside\u2215secret.pdf", "not_found"),  # division slash
        ("..\u2044outside\u2044secret.pdf", "not_found"),  # fraction slash
        ("\u2024\u2024/outside/secret.pdf", "not_found"),  # one-dot leader
        ("\u2025/outside/secret.pdf", "not_found"),  # two-dot leader
        (".\u200b./outside/secret.pdf", "not_found"),  # zero-width space between the dots
        ("\ufe52\ufe52/outside/secret.pdf", "not_found"),  # small full stop
        # normalisation: the NFKC or case-folded spelling is not looked up
        ("SAMPLE.PDF", "not_found"),
        ("ｓａｍｐｌｅ.pdf", "not_found"),  # fullwidth letters (NFKC: sample.pdf)
        # bytes no file name has, and names no file system allows (a lone surrogate cannot
        # even be sent as JSON by the SDK's client: test_sandbox.py checks it in-process)
        ("sample.pdf\x00", "invalid_argument"),  # no name holds a NUL
        ("\x00../outside/secret.pdf", "invalid_argument"),
        ("x" * 300 + ".pdf", "not_found"),
        # not regular files
        ("fifo.pdf", "not_a_pdf"),
        ("folder.pdf", "not_a_pdf"),
        ("docs", "not_a_pdf"),
        (".", "not_a_pdf"),
        ("text.pdf", "not_a_pdf"),
    ]


def test_escape_suite(tree: Tree) -> None:
    cases = escapes(tree)

    async def main() -> None:
        answers: list[Any] = []
        async with session(tree.root) as s:
            for path, expected in cases:
                for tool, extra in (
                    ("describe_document", {}),
                    ("read_pages", {"pages": "1"}),
                    ("list_images", {}),
                ):
                    error = await fail(s, tool, path=path, **extra)
                    assert error["code"] == expected, (tool, path, error)
                    answers.append(error)
            for subdirectory in ("..", "../outside", "linkdir-out", "/", str(tree.outside)):
                error = await fail(s, "list_documents", subdirectory=subdirectory)
                assert error["code"] == "outside_root", (subdirectory, error)
            for subdirectory in ("sample.pdf", "missing", "..%2F"):
                error = await fail(s, "list_documents", subdirectory=subdirectory)
                assert error["code"] == "not_found", (subdirectory, error)
            listing = await call(s, "list_documents", pattern="*")
            answers.append(listing)
            paths = [d["path"] for d in listing["documents"]]
            assert not any("secret" in p for p in paths)
            assert "fifo.pdf" not in paths and "folder.pdf" not in paths
            # Names come back exactly as stored, so an agent's copy reaches the same file.
            assert NFC in paths and NFD in paths and "\uff0e\uff0e/inside.pdf" in paths
            unreadable = ("big.pdf", "broken.pdf", "text.pdf", "locked.pdf")
            for path in paths:
                if path.endswith(".pdf") and path not in unreadable:
                    await call(s, "describe_document", path=path)
            # Look-alike dots and normalisation reach the file of that exact name, inside.
            inside = await call(s, "peek", path="\uff0e\uff0e/inside.pdf")
            assert inside["text"].startswith("Chapter 1 of dots")
            assert (await call(s, "peek", path=NFD))["text"].startswith("Chapter 1 of nfd")
            assert (await call(s, "peek", path="docs/../" + NFC))["text"].startswith(
                "Chapter 1 of nfc"
            )
        assert SECRET not in json.dumps(answers)

    anyio.run(main)


def test_absolute_paths_inside_the_root(tree: Tree) -> None:
    """An absolute path under the root reaches the same file as its relative spelling, as a
    document path and as a listing's subdirectory."""

    async def main() -> None:
        async with session(tree.root) as s:
            relative = await call(s, "describe_document", path="sample.pdf")
            absolute = await call(s, "describe_document", path=str(tree.root / "sample.pdf"))
            assert absolute == relative
            listed = await call(s, "list_documents", subdirectory=str(tree.root / "docs"))
            assert listed == await call(s, "list_documents", subdirectory="docs")
            assert listed["documents"]

    anyio.run(main)


def test_a_file_swapped_for_a_link_between_calls(tree: Tree, tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "dir").mkdir(parents=True)
    shutil.copyfile(SAMPLE, root / "swap.pdf")
    shutil.copyfile(SAMPLE, root / "dir" / "a.pdf")
    expected = describe_document(SAMPLE.read_bytes(), context=Context())

    async def main() -> None:
        async with session(root) as s:
            assert await call(s, "describe_document", path="swap.pdf") == expected
            assert await call(s, "describe_document", path="dir/a.pdf") == expected
            # The file becomes a link out of the root: refused, though its bytes are cached.
            (root / "swap.pdf").unlink()
            (root / "swap.pdf").symlink_to(tree.outside / "secret.pdf")
            assert (await fail(s, "describe_document", path="swap.pdf"))["code"] == "outside_root"
            # A directory on the path becomes a link out.
            (root / "dir").rename(root / "old")
            (root / "dir").symlink_to(tree.outside)
            error = await fail(s, "describe_document", path="dir/secret.pdf")
            assert error["code"] == "outside_root"
            # The link now leads inside again: it reads its target.
            (root / "swap.pdf").unlink()
            (root / "swap.pdf").symlink_to(root / "old" / "a.pdf")
            assert await call(s, "describe_document", path="swap.pdf") == expected
            # And a FIFO swapped in is refused without hanging.
            (root / "swap.pdf").unlink()
            os.mkfifo(root / "swap.pdf")
            with anyio.fail_after(10):
                assert (await fail(s, "describe_document", path="swap.pdf"))["code"] == "not_a_pdf"

    anyio.run(main)


def test_device_files_are_refused_without_being_read() -> None:
    async def main() -> None:
        async with session(Path("/dev")) as s:
            with anyio.fail_after(20):
                for device in ("zero", "null", "urandom"):
                    error = await fail(s, "describe_document", path=device)
                    assert error["code"] == "not_a_pdf", (device, error)

    anyio.run(main)
