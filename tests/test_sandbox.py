"""The sandbox in-process: path rules, the open without a check/use gap, listing and its cursor.

The same rules are driven end to end through the MCP server in ``test_mcp_sandbox.py``; here
the races are forced deterministically (a path swapped between the check and the open).
"""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from pdfthin.adapters.mcp import sandbox as sb
from pdfthin.adapters.mcp.sandbox import Sandbox
from pdfthin.errors import PdfthinError

PDF = b"%PDF-1.4\n%test\n" + b"x" * 100
SECRET = b"%PDF-1.4\nSECRET outside the root\n"


def code_of(call: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(PdfthinError) as info:
        call(*args, **kwargs)
    return info.value.code


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Sandbox, Path, Path]:
    root = tmp_path / "root"
    outside = tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret.pdf").write_bytes(SECRET)
    (root / "a.pdf").write_bytes(PDF)
    (root / "docs").mkdir()
    (root / "docs" / "b.pdf").write_bytes(PDF + b"b")
    (root / "docs" / "notes.txt").write_bytes(b"not listed")
    (root / "text.pdf").write_bytes(b"hello, I am not a PDF")
    (root / "folder.pdf").mkdir()
    (root / "folder.pdf" / "inner.pdf").write_bytes(PDF + b"inner")
    os.mkfifo(root / "fifo.pdf")
    (root / "in.pdf").symlink_to(root / "a.pdf")
    (root / "out.pdf").symlink_to(outside / "secret.pdf")
    (root / "outdir").symlink_to(outside)
    (root / "indir").symlink_to(root / "docs")
    (root / "loop.pdf").symlink_to(root / "loop.pdf")
    return Sandbox(root, max_file_bytes=1000), root, outside


# --- reading ---------------------------------------------------------------------------------


def test_reads_a_pdf_and_a_link_inside(tree: tuple[Sandbox, Path, Path]) -> None:
    box, _, _ = tree
    assert box.read("a.pdf") == PDF
    assert box.read("in.pdf") == PDF
    assert box.read("docs/b.pdf") == PDF + b"b"
    assert box.read("docs/../a.pdf") == PDF
    assert box.read("indir/b.pdf") == PDF + b"b"
    assert box.read("./docs//b.pdf") == PDF + b"b"


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("../outside/secret.pdf", "outside_root"),
        ("docs/../../outside/secret.pdf", "outside_root"),
        ("out.pdf", "outside_root"),
        ("outdir/secret.pdf", "outside_root"),
        ("/etc/passwd", "outside_root"),
        ("..", "outside_root"),
        ("missing.pdf", "not_found"),
        ("a.pdf\x00.txt", "invalid_argument"),
        ("docs\\..\\..\\outside\\secret.pdf", "not_found"),  # a backslash is a name character
        ("..%2foutside%2fsecret.pdf", "not_found"),  # nothing is URL-decoded
        ("%2e%2e/outside/secret.pdf", "not_found"),
        ("\uff0e\uff0e/outside/secret.pdf", "not_found"),  # fullwidth full stops
        ("..\u2215outside\u2215secret.pdf", "not_found"),  # division slash
        ("..\uff0foutside\uff0fsecret.pdf", "not_found"),  # fullwidth solidus
        ("\u2024\u2024/outside/secret.pdf", "not_found"),  # one-dot leaders
        ("~/secret.pdf", "not_found"),
        ("a.pdf/", "not_found"),
        ("a.pdf/x.pdf", "not_found"),
        ("loop.pdf", "not_found"),
        ("\ud800.pdf", "invalid_argument"),  # a lone surrogate
        ("n" * 256 + ".pdf", "not_found"),
        ("text.pdf", "not_a_pdf"),
        ("folder.pdf", "not_a_pdf"),
        ("fifo.pdf", "not_a_pdf"),
        (".", "not_a_pdf"),
        ("", "not_a_pdf"),
        ("d/" * 2100, "invalid_argument"),
    ],
)
def test_refusals(tree: tuple[Sandbox, Path, Path], path: str, code: str) -> None:
    box, _, _ = tree
    assert code_of(box.read, path) == code


def test_an_absolute_path_inside_the_root_is_walked_from_the_root(
    tree: tuple[Sandbox, Path, Path], tmp_path: Path
) -> None:
    box, root, outside = tree
    assert box.read(str(root / "a.pdf")) == PDF
    assert box.read(str(root / "indir" / "b.pdf")) == PDF + b"b"
    assert box.resolve(str(root)) == []
    assert box.resolve(str(root) + "/") == []
    # The same containment check as a relative path: out and back in, or out through a link.
    for path in (
        f"{root}/../root/a.pdf",
        f"{root}/out.pdf",
        f"{root}/outdir/secret.pdf",
        f"{outside}/secret.pdf",
        f"{root}x/a.pdf",
        "/",
    ):
        assert code_of(box.read, path) == "outside_root", path
    # A root configured through a link answers to both of its spellings.
    alias = tmp_path / "alias"
    alias.symlink_to(root)
    linked = Sandbox(alias, max_file_bytes=1000)
    assert linked.read(str(alias / "a.pdf")) == PDF
    assert linked.read(str(root / "a.pdf")) == PDF


def test_not_a_string(tree: tuple[Sandbox, Path, Path]) -> None:
    box, _, _ = tree
    assert code_of(box.read, 3) == "invalid_argument"
    assert code_of(box.read, None) == "invalid_argument"


def test_size_limit_before_reading(tree: tuple[Sandbox, Path, Path]) -> None:
    box, root, _ = tree
    (root / "big.pdf").write_bytes(b"%PDF-1.4\n" + b"0" * 2000)
    (root / "edge.pdf").write_bytes(b"%PDF-1.4\n" + b"0" * (1000 - 9))
    assert code_of(box.read, "big.pdf") == "too_large"
    assert len(box.read("edge.pdf")) == 1000


def test_header_within_the_first_kilobyte(tmp_path: Path) -> None:
    (tmp_path / "late.pdf").write_bytes(b" " * 1024 + b"%PDF-1.4\n")
    (tmp_path / "junk.pdf").write_bytes(b" " * 1000 + b"%PDF-1.4\n")
    box = Sandbox(tmp_path, max_file_bytes=10_000)
    assert code_of(box.read, "late.pdf") == "not_a_pdf"
    assert box.read("junk.pdf").endswith(b"%PDF-1.4\n")


def test_device_files_are_never_opened() -> None:
    box = Sandbox("/dev", max_file_bytes=1 << 20)
    # /dev/zero would read forever and /dev/null is empty: both are refused from lstat.
    assert code_of(box.read, "zero") == "not_a_pdf"
    assert code_of(box.read, "null") == "not_a_pdf"


def test_root_must_be_a_directory(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"x")
    assert code_of(Sandbox, tmp_path / "f", 10) == "not_found"
    assert code_of(Sandbox, tmp_path / "missing", 10) == "not_found"


def test_a_linked_root_is_resolved(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "a.pdf").write_bytes(PDF)
    (tmp_path / "link").symlink_to(real)
    box = Sandbox(tmp_path / "link", max_file_bytes=1000)
    assert box.root == str(real)
    assert box.read("a.pdf") == PDF


# --- Unicode: no normalisation, no look-alikes -------------------------------------------------

NFC = unicodedata.normalize("NFC", "caf\u00e9.pdf")
NFD = unicodedata.normalize("NFD", "caf\u00e9.pdf")


def test_nfc_and_nfd_names_are_different_files(tmp_path: Path) -> None:
    (tmp_path / NFC).write_bytes(PDF + b"nfc")
    box = Sandbox(tmp_path, max_file_bytes=1000)
    assert box.read(NFC) == PDF + b"nfc"
    if os.path.exists(os.path.join(tmp_path, NFD)):  # pragma: no cover - normalising FS
        assert box.read(NFD) == PDF + b"nfc"
        return
    assert code_of(box.read, NFD) == "not_found"
    (tmp_path / NFD).write_bytes(PDF + b"nfd")
    assert box.read(NFC) == PDF + b"nfc"
    assert box.read(NFD) == PDF + b"nfd"
    listed = [d["path"] for d in box.list_documents()["documents"]]
    assert sorted(listed) == sorted([NFC, NFD])  # names exactly as stored


def test_look_alike_dots_are_an_ordinary_directory(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "\uff0e\uff0e").mkdir(parents=True)
    (root / "\uff0e\uff0e" / "x.pdf").write_bytes(PDF + b"inside")
    (tmp_path / "x.pdf").write_bytes(SECRET)
    box = Sandbox(root, max_file_bytes=1000)
    assert box.read("\uff0e\uff0e/x.pdf") == PDF + b"inside"
    assert code_of(box.read, "../x.pdf") == "outside_root"


# --- races: the file opened is the file checked --------------------------------------------------


class Swapping(Sandbox):
    """Runs ``swap`` after the path was resolved and checked, before it is opened."""

    swap: Any = None

    def resolve(self, path: Any, *, what: str = "path") -> list[str]:
        parts = super().resolve(path, what=what)
        if self.swap is not None:
            self.swap()
        return parts


def test_a_file_swapped_for_a_link_after_the_check(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "secret.pdf").write_bytes(SECRET)
    target = root / "a.pdf"
    target.write_bytes(PDF)
    box = Swapping(root, max_file_bytes=1000)

    def swap() -> None:
        target.unlink()
        target.symlink_to(tmp_path / "secret.pdf")

    box.swap = swap
    assert code_of(box.read, "a.pdf") == "not_found"
    box.swap = None
    assert code_of(box.read, "a.pdf") == "outside_root"  # the next call sees the link


def test_a_directory_swapped_for_a_link_after_the_check(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "d").mkdir(parents=True)
    (root / "d" / "a.pdf").write_bytes(PDF)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "a.pdf").write_bytes(SECRET)
    box = Swapping(root, max_file_bytes=1000)

    def swap() -> None:
        os.rename(root / "d", root / "old")
        (root / "d").symlink_to(tmp_path / "out")

    box.swap = swap
    assert code_of(box.read, "d/a.pdf") == "not_found"


def test_a_file_replaced_after_the_check_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.pdf").write_bytes(PDF)
    box = Swapping(root, max_file_bytes=1000)

    def swap() -> None:
        os.unlink(root / "a.pdf")
        os.mkfifo(root / "a.pdf")

    box.swap = swap
    assert code_of(box.read, "a.pdf") == "not_a_pdf"


# --- listing ---------------------------------------------------------------------------------


def test_listing(tree: tuple[Sandbox, Path, Path]) -> None:
    box, _, _ = tree
    r = box.list_documents()
    paths = [d["path"] for d in r["documents"]]
    # Regular files (and links to them inside the root) matching *.pdf, in path order; not the
    # FIFO, not the directory named like a PDF, not the link leading out, not the linked
    # directories' contents a second time.
    assert paths == ["a.pdf", "docs/b.pdf", "folder.pdf/inner.pdf", "in.pdf", "text.pdf"]
    assert r["skipped"] == {"link_outside_root": 1, "broken_link": 1}  # out.pdf, loop.pdf
    assert r["next_cursor"] is None
    first = r["documents"][0]
    assert first["size"] == len(PDF)
    assert first["modified"].endswith("Z") and first["modified"][4] == "-"


def test_listing_never_opens_a_file(
    tree: tuple[Sandbox, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    box, _, _ = tree
    real_open = os.open
    opened: list[str] = []

    def spy(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if not flags & os.O_DIRECTORY:
            opened.append(str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(sb.os, "open", spy)
    assert box.list_documents(pattern="*")["documents"]
    assert opened == []


def test_listing_pattern_and_subdirectory(tree: tuple[Sandbox, Path, Path]) -> None:
    box, _, _ = tree

    def listed(**arguments: object) -> list[str]:
        return [d["path"] for d in box.list_documents(**arguments)["documents"]]

    # A pattern keeps the PDF filter unless every file is asked for.
    assert listed(subdirectory="docs", pattern="*") == ["docs/b.pdf"]
    assert listed(subdirectory="docs", pattern="*notes*") == []
    assert listed(subdirectory="docs", pattern="*", all_files=True) == [
        "docs/b.pdf",
        "docs/notes.txt",
    ]
    assert listed(subdirectory="docs", pattern="*notes*", all_files=True) == ["docs/notes.txt"]
    # A cursor is bound to the filter it was issued with.
    token = box.list_documents(pattern="*", max_results=1)["next_cursor"]
    assert token is not None
    assert code_of(box.list_documents, pattern="*", all_files=True, cursor=token) == (
        "invalid_cursor"
    )
    assert [d["path"] for d in box.list_documents(pattern="*B.PDF")["documents"]] == ["docs/b.pdf"]
    assert box.list_documents(subdirectory="indir")["documents"] == [
        {**box.list_documents(subdirectory="docs")["documents"][0]}
    ]
    assert code_of(box.list_documents, subdirectory="../") == "outside_root"
    assert code_of(box.list_documents, subdirectory="outdir") == "outside_root"
    assert code_of(box.list_documents, subdirectory="nope") == "not_found"
    assert code_of(box.list_documents, subdirectory="a.pdf") == "not_found"
    assert code_of(box.list_documents, max_results=0) == "invalid_argument"
    assert code_of(box.list_documents, pattern="") == "invalid_argument"


def test_listing_cursor_walks_everything_once(tmp_path: Path) -> None:
    for d in ("a", "a/b", "c", "d"):
        (tmp_path / d).mkdir()
    names = ["0.pdf", "a/1.pdf", "a/b/2.pdf", "a/b/3.pdf", "a/z.pdf", "c/4.pdf", "d/5.pdf", "e.pdf"]
    for name in names:
        (tmp_path / name).write_bytes(PDF)
    box = Sandbox(tmp_path, max_file_bytes=1000)
    for page_size in (1, 2, 3, 7, 8, 100):
        seen: list[str] = []
        cursor = None
        for _ in range(20):
            r = box.list_documents(max_results=page_size, cursor=cursor)
            assert len(r["documents"]) <= page_size
            seen += [d["path"] for d in r["documents"]]
            cursor = r["next_cursor"]
            if cursor is None:
                break
        assert seen == names, page_size


def test_listing_scan_budget_continues_through_the_cursor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sub").mkdir()
    names = [f"sub/{i:02}.txt" for i in range(10)] + ["sub/x.pdf", "z.pdf"]
    for name in names:
        (tmp_path / name).write_bytes(PDF)
    monkeypatch.setattr(sb, "MAX_SCAN", 4)
    box = Sandbox(tmp_path, max_file_bytes=1000)
    seen: list[str] = []
    cursor = None
    calls = 0
    while True:
        calls += 1
        r = box.list_documents(cursor=cursor)
        seen += [d["path"] for d in r["documents"]]
        cursor = r["next_cursor"]
        if cursor is None:
            break
    assert seen == ["sub/x.pdf", "z.pdf"]
    assert calls >= 3  # empty pages with a cursor while the scan budget runs out


def test_listing_cursor_is_checked(tree: tuple[Sandbox, Path, Path]) -> None:
    box, _, _ = tree
    token = box.list_documents(max_results=1)["next_cursor"]
    assert token
    assert code_of(box.list_documents, cursor=token, pattern="*") == "invalid_cursor"
    assert code_of(box.list_documents, cursor=token, subdirectory="docs") == "invalid_cursor"
    assert code_of(box.list_documents, cursor=token[:-2] + "AA") == "invalid_cursor"
    assert code_of(box.list_documents, cursor="%%%") == "invalid_cursor"
    assert code_of(box.list_documents, cursor=12) == "invalid_cursor"
    forged = sb._encode_cursor(
        "", "*.pdf\0pdf", ("..", "..", "etc")
    )  # as the default listing keys it
    # A forged position only moves where the walk resumes; it never leaves the root.
    assert [d["path"] for d in box.list_documents(cursor=forged)["documents"]] == [
        "a.pdf",
        "docs/b.pdf",
        "folder.pdf/inner.pdf",
        "in.pdf",
        "text.pdf",
    ]


def test_undecodable_names_are_skipped(tmp_path: Path) -> None:
    raw = os.fsencode(str(tmp_path)) + b"/bad\xff.pdf"
    with open(raw, "wb") as fh:
        fh.write(PDF)
    (tmp_path / "good.pdf").write_bytes(PDF)
    r = Sandbox(tmp_path, max_file_bytes=1000).list_documents()
    assert [d["path"] for d in r["documents"]] == ["good.pdf"]
    assert r["skipped"] == {"undecodable_name": 1}
