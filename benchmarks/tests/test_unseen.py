"""The unseen-documents benchmark's offline parts: finding a release's package (PyPI's source
distribution: the version's page, else the project's when it is that version; npm's tarball,
a crate) and taking the PDFs out of it, but the ones the corpus holds."""

from __future__ import annotations

import io
import json
import tarfile
import urllib.error
from pathlib import Path
from typing import Any

import pytest

from benchmarks import unseen


class _Response(io.BytesIO):
    def __enter__(self) -> _Response:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _pypi(pages: dict[str, Any]) -> Any:
    def urlopen(url: str, timeout: float = 0) -> _Response:
        if url not in pages:
            raise urllib.error.HTTPError(url, 404, "Not Found", None, None)  # type: ignore[arg-type]
        return _Response(json.dumps(pages[url]).encode())

    return urlopen


def _meta(version: str, url: str) -> dict[str, Any]:
    return {
        "info": {"version": version},
        "urls": [
            {"packagetype": "bdist_wheel", "url": "x.whl"},
            {"packagetype": "sdist", "url": url},
        ],
    }


def test_the_versions_page_gives_the_source_distribution(monkeypatch: pytest.MonkeyPatch) -> None:
    page = "https://pypi.org/pypi/demo/1.0/json"
    monkeypatch.setattr(
        unseen.urllib.request,
        "urlopen",
        _pypi({page: _meta("1.0", "https://files.example/demo-1.0.tar.gz")}),
    )
    assert unseen._sdist_url("demo", "1.0") == "https://files.example/demo-1.0.tar.gz"


def test_a_mirror_serving_the_latest_only_is_used_when_it_is_that_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    project = "https://pypi.org/pypi/demo/json"
    relative = "../../packages/demo-1.0.tar.gz"
    monkeypatch.setattr(unseen.urllib.request, "urlopen", _pypi({project: _meta("1.0", relative)}))
    assert unseen._sdist_url("demo", "1.0") == "https://pypi.org/packages/demo-1.0.tar.gz"
    with pytest.raises(SystemExit):
        unseen._sdist_url("demo", "2.0")  # the latest is not the pinned version


def test_the_pdfs_of_a_source_distribution_are_taken_out(tmp_path: Path) -> None:
    archive = tmp_path / "demo-1.0.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        members = [("tests/big.pdf", unseen.MIN_BYTES), ("tests/tiny.pdf", 10), ("a.txt", 99)]
        for name, size in members:
            info = tarfile.TarInfo(f"demo-1.0/{name}")
            info.size = size
            tar.addfile(info, io.BytesIO(b"%" * size))
    assert [p.name for p in unseen._pdfs(archive)] == ["big.pdf"]


def test_npm_packages_and_crates_are_found_at_their_registries_addresses() -> None:
    assert (
        unseen._package_url("npm:pdf-parse", "1.1.1")
        == "https://registry.npmjs.org/pdf-parse/-/pdf-parse-1.1.1.tgz"
    )
    assert (
        unseen._package_url("npm:@scope/demo", "2.0")
        == "https://registry.npmjs.org/@scope/demo/-/demo-2.0.tgz"
    )
    assert (
        unseen._package_url("crates:lopdf", "0.34.0")
        == "https://static.crates.io/crates/lopdf/lopdf-0.34.0.crate"
    )
    with pytest.raises(SystemExit):
        unseen._package_url("cpan:demo", "1.0")
    assert unseen._slug("npm:@scope/demo") == "npm-@scope-demo"


def test_a_pdf_the_corpus_holds_too_is_left_out(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus" / "pdfjs"
    corpus.mkdir(parents=True)
    shared = b"%PDF-1.4 shared" + b"%" * unseen.MIN_BYTES
    (corpus / "tracemonkey.pdf").write_bytes(shared)
    archive = tmp_path / "npm-demo-1.0.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for name, data in (("01-valid.pdf", shared), ("02-valid.PDF", b"%" * unseen.MIN_BYTES)):
            info = tarfile.TarInfo(f"package/test/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    known = unseen.known_pdfs(tmp_path / "corpus")
    assert [p.name for p in unseen._pdfs(archive, known)] == ["02-valid.PDF"]
    assert unseen.known_pdfs(tmp_path / "missing") == frozenset()


def test_files_whose_markdown_or_error_differs_are_named() -> None:
    first = {
        "a.pdf": {"markdown": "# Title\n\ntext"},
        "b.pdf": {"markdown": "same"},
        "c.pdf": {"error": "encrypted"},
        "d.pdf": {"markdown": "gone"},
    }
    last = {
        "a.pdf": {"markdown": "Title\n\ntext"},  # the same words, no longer a heading
        "b.pdf": {"markdown": "same"},
        "c.pdf": {"markdown": "read now"},
    }
    assert unseen.markdown_changed(first, last) == ["a.pdf", "c.pdf", "d.pdf"]


def test_each_checkouts_markdown_is_kept_and_read_from_a_fresh_process(tmp_path: Path) -> None:
    from benchmarks.generated import write_document

    pdf = write_document(tmp_path / "two.pdf", pages=2)
    read = unseen._pdfthin(unseen.ROOT, [pdf], pages=1)
    got = read[str(pdf)]
    assert got["ocr"] == 0 and "<!-- page" not in str(got["markdown"])
    # the Markdown as read (a heading's marks and all); the text, its words
    assert str(got["markdown"]).startswith("# ")
    assert str(got["markdown"])[2:].split()[:3] == str(got["text"]).split()[:3]
    unseen._keep_markdown(tmp_path / "out" / "demo", read)
    assert (tmp_path / "out" / "demo" / "two.pdf.md").read_text() == got["markdown"]


def test_a_source_with_nothing_to_compare_shows_no_agreement(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A package whose one PDF has too little text in pypdfium2's reading to compare with
    # (an annotation demo): its agreement is "–", not 0.000.
    pdf = tmp_path / "demo.pdf"
    monkeypatch.setattr(unseen, "SOURCES", (("npm:demo", "1.0", "0" * 64),))
    monkeypatch.setattr(unseen, "_fetch", lambda *a: tmp_path / "demo.tar.gz")
    monkeypatch.setattr(unseen, "_pdfs", lambda *a: [pdf])
    monkeypatch.setattr(unseen, "_pdfium", lambda paths, pages: {str(pdf): "few words"})
    read = {str(pdf): {"text": "few words", "ocr": 0, "markdown": "few words"}}
    monkeypatch.setattr(unseen, "_pdfthin", lambda src, paths, pages: read)
    assert unseen.main(["--corpus", str(tmp_path / "none")]) == 0
    assert "| npm:demo 1.0 | agreement | – |" in capsys.readouterr().out
