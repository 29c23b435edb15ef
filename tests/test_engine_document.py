"""Opening documents: sources, fingerprints, metadata, outlines, encryption, errors, recovery."""

from __future__ import annotations

import hashlib
import io
import logging
import os
from pathlib import Path
from typing import Any

import pypdf
import pytest
from conftest import CORPUS_FILES, require_corpus
from hypothesis import given, settings
from hypothesis import strategies as st
from pdfbuilder import Outline, PdfBuilder, Ref, encrypt

from pdfthin.engine import Limits, fingerprint, open_pdf, read_source, recovery
from pdfthin.engine.catalog import pdf_date
from pdfthin.engine.document import EngineDocument
from pdfthin.errors import PdfthinError
from pdfthin.model import build_document

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")


def numbered(pages: int = 3, **builder: Any) -> PdfBuilder:
    """A builder with ``pages`` pages showing "p1", "p2", ..."""
    b = PdfBuilder(**builder)
    font = b.font_standard("Helvetica")
    for i in range(pages):
        b.add_page(b"BT /F1 10 Tf 72 700 Td (p%d) Tj ET" % (i + 1), {"Font": {"F1": font}})
    return b


def texts(doc: EngineDocument) -> list[str]:
    return [" ".join(r.text for r in doc.page(n).runs) for n in range(1, doc.page_count + 1)]


def error_of(source: Any, **kwargs: Any) -> PdfthinError:
    with pytest.raises(PdfthinError) as info:
        open_pdf(source, **kwargs)
    return info.value


# --- sources and fingerprints -----------------------------------------------------------------


def test_open_bytes() -> None:
    data = numbered(3).build()
    doc = open_pdf(data)
    assert doc.page_count == 3
    assert texts(doc) == ["p1", "p2", "p3"]
    assert doc.recovered is None


def test_open_path_and_pathlike(tmp_path: Path) -> None:
    data = numbered(2).build()
    path = tmp_path / "two pages.pdf"
    path.write_bytes(data)
    for source in (path, str(path)):
        doc = open_pdf(source)
        assert doc.page_count == 2
        assert doc.fingerprint == hashlib.sha256(data).hexdigest()


def test_fingerprint_is_sha256_of_the_bytes() -> None:
    data = numbered(1).build()
    doc = open_pdf(data)
    assert doc.fingerprint == hashlib.sha256(data).hexdigest() == fingerprint(data)
    assert len(doc.fingerprint) == 64


def test_fingerprint_changes_with_one_byte() -> None:
    data = numbered(1).build()
    changed = data.replace(b"(p1)", b"(p2)")
    assert open_pdf(changed).fingerprint != open_pdf(data).fingerprint


def test_bytearray_and_memoryview_sources() -> None:
    data = numbered(1).build()
    assert open_pdf(bytearray(data)).page_count == 1  # type: ignore[arg-type]
    assert open_pdf(memoryview(data)).fingerprint == fingerprint(data)  # type: ignore[arg-type]


# --- errors -----------------------------------------------------------------------------------


def test_missing_file_is_not_found(tmp_path: Path) -> None:
    err = error_of(tmp_path / "nope.pdf")
    assert err.code == "not_found"
    assert "nope.pdf" in err.message


def test_directory_is_not_a_pdf(tmp_path: Path) -> None:
    assert error_of(tmp_path).code == "not_a_pdf"


@pytest.mark.parametrize(
    "data",
    [b"", b"hello world", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, b" " * 1100 + b"%PDF-1.4"],
)
def test_not_a_pdf(data: bytes) -> None:
    err = error_of(data)
    assert err.code == "not_a_pdf"


def test_text_file_on_disk_is_not_a_pdf(tmp_path: Path) -> None:
    path = tmp_path / "notes.pdf"
    path.write_text("just text\n")
    assert error_of(path).code == "not_a_pdf"


def test_header_after_some_junk_is_accepted() -> None:
    data = b"junk before the header\n" + numbered(1).build()
    doc = open_pdf(data)
    assert texts(doc) == ["p1"]


@pytest.mark.parametrize(
    "data",
    [
        b"%PDF-1.4\n" + b"garbage " * 200,
        b"%PDF-1.7\n%%EOF\n",
        b"%PDF-1.4\n1 0 obj << >> endobj\n",
        b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n%%EOF",
    ],
)
def test_garbage_after_the_header_is_malformed(data: bytes) -> None:
    err = error_of(data)
    assert err.code == "malformed"
    assert "\n" not in err.message


def test_too_large_bytes() -> None:
    data = numbered(1).build()
    err = error_of(data, limits=Limits(max_file_bytes=len(data) - 1))
    assert err.code == "too_large"
    assert err.details == {"size": len(data), "limit": len(data) - 1}
    assert open_pdf(data, limits=Limits(max_file_bytes=len(data))).page_count == 1


def test_too_large_path_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "big.pdf"
    path.write_bytes(numbered(1).build())
    err = error_of(path, limits=Limits(max_file_bytes=100))
    assert err.code == "too_large"
    assert err.details["limit"] == 100


def _stat_says(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    """The file's size as ``stat`` reports it before the read (as if it grew since)."""
    real = Path.stat

    def stat(self: Path, **kwargs: Any) -> Any:
        found = real(self, **kwargs)
        return os.stat_result((*found[:6], size, *found[7:]))

    monkeypatch.setattr(Path, "stat", stat)


def test_a_file_is_read_whole_and_up_to_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = numbered(2).build()
    path = tmp_path / "doc.pdf"
    path.write_bytes(data)
    assert read_source(path) == data
    # A file that grew after its size was taken is still read whole, up to one byte past
    # the limit (which the opening then refuses).
    _stat_says(monkeypatch, 10)
    assert read_source(path) == data
    assert read_source(path, Limits(max_file_bytes=len(data))) == data
    assert read_source(path, Limits(max_file_bytes=100)) == data[:101]
    err = error_of(path, limits=Limits(max_file_bytes=100))
    assert err.code == "too_large"
    _stat_says(monkeypatch, 0)
    assert read_source(path) == data


def _broken_xref(pages: int) -> bytes:
    """A document whose startxref points nowhere: pypdf warns and rebuilds."""
    data = numbered(pages).build()
    at = data.rindex(b"startxref")
    return data[:at] + b"startxref\n12\n%%EOF\n"


def test_pypdf_is_quiet_and_bounded_while_reading_and_restored_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """pypdf's warnings stay off the log and its limits are ours while a document is read;
    both are back as they were afterwards. A whole document sets them once, not per page."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logger = logging.getLogger("pypdf")
    logger.addHandler(handler)
    applied: list[dict[str, Any]] = []
    apply = pypdf.apply_configuration

    def counting(*args: Any, **overwrites: Any) -> Any:
        applied.append(overwrites)
        return apply(*args, **overwrites)

    monkeypatch.setattr(pypdf, "apply_configuration", counting)
    seen: list[int] = []
    page = EngineDocument.page

    def spy(self: EngineDocument, number: int) -> Any:
        seen.append(pypdf.get_configuration().zlib_maximum_output_length)
        return page(self, number)

    monkeypatch.setattr(EngineDocument, "page", spy)
    before = pypdf.get_configuration()
    try:
        limits = Limits(max_stream_bytes=1_234_567)
        doc = build_document(open_pdf(_broken_xref(5), limits=limits))
        assert [p.markdown for p in doc.pages] == [f"p{n}" for n in range(1, 6)]
    finally:
        logger.removeHandler(handler)
    assert records == []
    assert seen == [1_234_567] * 5
    assert len(applied) == 2  # the opening, then the whole build
    assert logger.level == logging.NOTSET
    assert pypdf.get_configuration() is before
    # Without pdfthin around it, pypdf does warn about this file.
    logger.addHandler(handler)
    try:
        pypdf.PdfReader(io.BytesIO(_broken_xref(1)))
    finally:
        logger.removeHandler(handler)
    assert records


def test_a_closed_document_cannot_be_read() -> None:
    doc = open_pdf(numbered(2).build())
    assert not doc.closed
    assert texts(doc) == ["p1", "p2"]
    doc.close()
    doc.close()  # again: nothing more to do
    assert doc.closed
    for read in (lambda: doc.page(1), doc.metadata, doc.outline, doc.facts):
        with pytest.raises(ValueError, match="closed"):
            read()


def test_error_envelope_shape() -> None:
    env = error_of(b"nope").envelope()
    assert set(env) == {"error"}
    assert env["error"]["code"] == "not_a_pdf"
    assert isinstance(env["error"]["message"], str)


# --- encryption -------------------------------------------------------------------------------

ALGORITHMS = ["RC4-40", "RC4-128", "AES-128", "AES-256"]


@pytest.fixture(scope="module")
def plain_pdf() -> bytes:
    b = numbered(2)
    b.set_info(Title="Secret plans")
    b.set_outline([Outline("Chapter", dest=1)])
    return b.build()


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_encrypted_without_password(plain_pdf: bytes, algorithm: str) -> None:
    err = error_of(encrypt(plain_pdf, "secret", algorithm=algorithm))
    assert err.code == "encrypted"
    assert err.details.get("password_given") is False


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_encrypted_with_wrong_password(plain_pdf: bytes, algorithm: str) -> None:
    err = error_of(encrypt(plain_pdf, "secret", algorithm=algorithm), password="wrong")
    assert err.code == "encrypted"
    assert err.details.get("password_given") is True


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_encrypted_with_right_password(plain_pdf: bytes, algorithm: str) -> None:
    data = encrypt(plain_pdf, "secret", algorithm=algorithm)
    doc = open_pdf(data, password="secret")
    assert texts(doc) == ["p1", "p2"]
    meta = doc.metadata()
    assert meta.encrypted is True
    assert meta.title == "Secret plans"
    entries, problems = doc.outline()
    assert [(e.title, e.page) for e in entries] == [("Chapter", 2)]
    assert problems == []
    assert doc.fingerprint == fingerprint(data)


def test_owner_password_opens_too(plain_pdf: bytes) -> None:
    data = encrypt(plain_pdf, "user", "owner", algorithm="AES-256")
    assert texts(open_pdf(data, password="owner")) == ["p1", "p2"]


def test_empty_user_password_opens_without_asking(plain_pdf: bytes) -> None:
    data = encrypt(plain_pdf, "", "owner", algorithm="RC4-128")
    doc = open_pdf(data)
    assert texts(doc) == ["p1", "p2"]
    assert doc.metadata().encrypted is True


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize(("user", "password", "opens"), [("", None, True), ("secret", None, False)])
def test_the_empty_password_is_tried_once(
    plain_pdf: bytes,
    monkeypatch: pytest.MonkeyPatch,
    algorithm: str,
    user: str,
    password: str | None,
    opens: bool,
) -> None:
    """Without a password, pypdf's own try of the empty one while opening is the answer: the
    key derivation (milliseconds for AES-256) is not done a second time."""
    data = encrypt(plain_pdf, user, "owner", algorithm=algorithm)
    calls: list[object] = []
    verify = pypdf._encryption.Encryption.verify

    def counted(self: Any, pwd: Any, **kwargs: Any) -> Any:
        calls.append(pwd)
        return verify(self, pwd, **kwargs)

    monkeypatch.setattr(pypdf._encryption.Encryption, "verify", counted)
    if opens:
        assert texts(open_pdf(data, password=password)) == ["p1", "p2"]
    else:
        assert error_of(data, password=password).details.get("password_given") is False
    assert calls == [b""]


def test_unencrypted_file_ignores_a_password(plain_pdf: bytes) -> None:
    assert open_pdf(plain_pdf, password="whatever").metadata().encrypted is False


# --- metadata ---------------------------------------------------------------------------------


def test_metadata_fields() -> None:
    b = numbered(1)
    b.set_info(
        Title="Héllo wörld",
        Author="中文 作者",
        Subject="A  subject\nwith\tspaces",
        Keywords="pdf, test",
        Creator="pdfbuilder",
        Producer="  padded  ",
        CreationDate=b"D:20200131120000+01'00'",
        ModDate="D:20211224",
    )
    meta = open_pdf(b.build()).metadata()
    assert meta.title == "Héllo wörld"
    assert meta.author == "中文 作者"
    assert meta.subject == "A subject with spaces"
    assert meta.keywords == "pdf, test"
    assert meta.creator == "pdfbuilder"
    assert meta.producer == "padded"
    assert meta.created == "2020-01-31T12:00:00+01:00"
    assert meta.modified == "2021-12-24"
    assert meta.pdf_version == "1.7"
    assert (meta.encrypted, meta.tagged, meta.page_labels) == (False, False, None)


def test_metadata_absent() -> None:
    meta = open_pdf(numbered(1).build()).metadata()
    assert (meta.title, meta.author, meta.created, meta.modified) == (None, None, None, None)


def test_empty_and_whitespace_titles_are_none() -> None:
    b = numbered(1)
    b.set_info(Title="   ", Author="", Subject="\x00")
    meta = open_pdf(b.build()).metadata()
    assert (meta.title, meta.author, meta.subject) == (None, None, None)


def test_utf16_little_endian_title() -> None:
    b = numbered(1)
    b.set_info(Title=b"\xff\xfe" + "Ünïcode".encode("utf-16-le"))
    assert open_pdf(b.build()).metadata().title == "Ünïcode"


@pytest.mark.parametrize(
    ("header", "catalog_version", "expected"),
    [("1.4", None, "1.4"), ("1.4", "/1.7", "1.7"), ("1.7", "/1.5", "1.7"), ("2.0", None, "2.0")],
)
def test_pdf_version(header: str, catalog_version: str | None, expected: str) -> None:
    b = numbered(1, version=header)
    if catalog_version is not None:
        b.catalog["Version"] = catalog_version
    assert open_pdf(b.build()).metadata().pdf_version == expected


def test_tagged_by_mark_info() -> None:
    b = numbered(1)
    b.set_mark_info()
    assert open_pdf(b.build()).metadata().tagged is True


def test_mark_info_false_is_not_tagged() -> None:
    b = numbered(1)
    b.set_mark_info(False)
    assert open_pdf(b.build()).metadata().tagged is False


def test_tagged_by_struct_tree_root() -> None:
    b = numbered(1)
    b.catalog["StructTreeRoot"] = b.add({"Type": "/StructTreeRoot"})
    assert open_pdf(b.build()).metadata().tagged is True


def test_page_labels() -> None:
    b = numbered(6)
    b.set_page_labels(
        [
            (0, {"S": "/r"}),
            (2, {"S": "/D"}),
            (4, {"S": "/A", "P": "App-"}),
        ]
    )
    labels = open_pdf(b.build()).metadata().page_labels
    assert labels == ["i", "ii", "1", "2", "App-A", "App-B"]


def test_page_labels_with_start_and_prefix_only() -> None:
    b = numbered(3)
    b.set_page_labels([(0, {"S": "/D", "St": 10}), (2, {"P": "Cover"})])
    assert open_pdf(b.build()).metadata().page_labels == ["10", "11", "Cover"]


@pytest.mark.parametrize(
    ("raw", "iso"),
    [
        ("D:20200131120000+01'00'", "2020-01-31T12:00:00+01:00"),
        ("D:20200131120000-05'30'", "2020-01-31T12:00:00-05:30"),
        ("D:20200131120000Z", "2020-01-31T12:00:00Z"),
        ("D:20200131120000Z00'00'", "2020-01-31T12:00:00Z"),
        ("D:20200131120000+01", "2020-01-31T12:00:00+01:00"),
        ("D:202001311200", "2020-01-31T12:00:00"),
        ("D:2020013112", "2020-01-31T12:00:00"),
        ("D:20200131", "2020-01-31"),
        ("D:202001", "2020-01-01"),
        ("D:2020", "2020-01-01"),
        ("20200131093000", "2020-01-31T09:30:00"),
        ("  D:20200131  ", "2020-01-31"),
        ("yesterday", "yesterday"),
        ("", None),
        (None, None),
    ],
)
def test_pdf_date(raw: str | None, iso: str | None) -> None:
    assert pdf_date(raw) == iso


# --- outline ----------------------------------------------------------------------------------


def outline_doc() -> EngineDocument:
    b = numbered(5)
    b.set_outline(
        [
            Outline(
                "1 Introduction",
                dest=0,
                children=[
                    Outline("1.1 Scope", dest=1, children=[Outline("1.1.1 Detail", dest=1)]),
                    Outline("1.2 Named (tree)", dest="sec-1.2"),
                ],
            ),
            Outline("2 Old-style named", dest="/Chapter2"),
            Outline("3 GoTo action", action={"S": "/GoTo", "D": b.page_dest(3)}),
            Outline("4 GoTo named", action={"S": "/GoTo", "D": b"appendix"}),
            Outline("5 Page index", dest=[4, "/Fit"]),
        ]
    )
    b.set_dests_dict({"Chapter2": b.page_dest(1)})
    b.set_dests_name_tree(
        {
            "sec-1.2": {"D": b.page_dest(2)},
            "appendix": b.page_dest(4),
            "alpha": b.page_dest(0),
            "zeta": b.page_dest(0),
        },
        leaves=2,
    )
    return open_pdf(b.build())


def test_outline_levels_titles_and_pages() -> None:
    entries, problems = outline_doc().outline()
    assert [(e.level, e.title, e.page) for e in entries] == [
        (1, "1 Introduction", 1),
        (2, "1.1 Scope", 2),
        (3, "1.1.1 Detail", 2),
        (2, "1.2 Named (tree)", 3),
        (1, "2 Old-style named", 2),
        (1, "3 GoTo action", 4),
        (1, "4 GoTo named", 5),
        (1, "5 Page index", 5),
    ]
    assert all(e.problem is None for e in entries)
    assert problems == []


def test_broken_destinations_keep_their_entries() -> None:
    b = numbered(2)
    not_a_page = b.add({"Type": "/Annot"})
    b.set_outline(
        [
            Outline("Good", dest=1),
            Outline("Dangling ref", dest=[Ref(999), "/Fit"]),
            Outline("Not a page", dest=[not_a_page, "/Fit"]),
            Outline("Unknown name", dest="no-such-name"),
            Outline("URI action", action={"S": "/URI", "URI": b"https://example.com"}),
            Outline("GoTo without D", action={"S": "/GoTo"}),
            Outline("Nothing"),
            Outline("Empty array", dest=[]),
            Outline("Index too big", dest=[7, "/Fit"]),
            Outline("After", dest=0),
        ]
    )
    entries, problems = open_pdf(b.build()).outline()
    assert [(e.title, e.page) for e in entries] == [
        ("Good", 2),
        ("Dangling ref", None),
        ("Not a page", None),
        ("Unknown name", None),
        ("URI action", None),
        ("GoTo without D", None),
        ("Nothing", None),
        ("Empty array", None),
        ("Index too big", None),
        ("After", 1),
    ]
    assert all(e.problem for e in entries if e.page is None)
    assert all(e.problem is None for e in entries if e.page is not None)
    assert len(problems) == 8
    assert any("Unknown name" in p for p in problems)


def test_outline_cycle_is_cut() -> None:
    b = numbered(2)
    root = b.set_outline([Outline("A", dest=0), Outline("B", dest=1)])
    first, second = Ref(root.num + 1), Ref(root.num + 2)
    assert b.get(first)["Title"] == "A"
    b.get(second)["Next"] = first  # B -> A -> B -> ...
    entries, problems = open_pdf(b.build()).outline()
    assert [e.title for e in entries] == ["A", "B"]
    assert any("cycle" in p for p in problems)


def test_outline_child_pointing_to_an_ancestor_is_cut() -> None:
    b = numbered(1)
    root = b.set_outline([Outline("Parent", dest=0, children=[Outline("Child", dest=0)])])
    parent, child = Ref(root.num + 1), Ref(root.num + 2)
    assert b.get(child)["Title"] == "Child"
    b.get(child)["First"] = parent
    entries, problems = open_pdf(b.build()).outline()
    assert [(e.title, e.level) for e in entries] == [("Parent", 1), ("Child", 2)]
    assert any("cycle" in p for p in problems)


def test_outline_titles_are_normalised() -> None:
    b = numbered(1)
    b.set_outline(
        [
            Outline("  Spaced\n\tout  ", dest=0),
            Outline(b"\xfe\xff" + "Ünïcode".encode("utf-16-be"), dest=0),
            Outline("Nul\x00byte", dest=0),
        ]
    )
    entries, _ = open_pdf(b.build()).outline()
    assert [e.title for e in entries] == ["Spaced out", "Ünïcode", "Nulbyte"]


def test_no_outline() -> None:
    assert open_pdf(numbered(1).build()).outline() == ([], [])


def test_outline_with_no_children() -> None:
    b = numbered(1)
    b.set_outline([])
    assert open_pdf(b.build()).outline() == ([], [])


def test_named_destination_loop_is_bounded() -> None:
    b = numbered(1)
    b.set_outline([Outline("Loop", dest="a")])
    b.set_dests_name_tree({"a": b"b", "b": b"a"})
    entries, _ = open_pdf(b.build()).outline()
    assert entries[0].page is None
    assert entries[0].problem


# --- recovery ---------------------------------------------------------------------------------


def test_file_without_xref_opens_by_recovery() -> None:
    b = numbered(3)
    b.set_info(Title="Recovered title")
    doc = open_pdf(b.build(xref=False))
    assert doc.recovered is not None
    assert texts(doc) == ["p1", "p2", "p3"]
    assert doc.metadata().title == "Recovered title"


def test_file_without_xref_or_trailer_opens_by_recovery() -> None:
    b = numbered(2)
    b.set_info(Title="Found by scanning")
    doc = open_pdf(b.build(xref=False, trailer=False))
    assert doc.recovered is not None
    assert texts(doc) == ["p1", "p2"]
    assert doc.metadata().title == "Found by scanning"


def test_wrong_xref_offsets_still_open() -> None:
    data = numbered(2).build()
    at = data.rindex(b"startxref\n") + len(b"startxref\n")
    end = data.index(b"\n", at)
    broken = data[:at] + b"%d" % (int(data[at:end]) + 7) + data[end:]
    assert texts(open_pdf(broken)) == ["p1", "p2"]


def test_cyclic_page_tree_still_gives_its_pages() -> None:
    doc = open_pdf(numbered(4).build(cyclic_page_tree=True))
    assert doc.page_count == 4
    assert texts(doc) == ["p1", "p2", "p3", "p4"]
    assert doc.recovered is not None


def test_outline_resolves_pages_after_recovery() -> None:
    b = numbered(3)
    b.set_outline([Outline("Third", dest=2)])
    doc = open_pdf(b.build(cyclic_page_tree=True))
    entries, _ = doc.outline()
    assert [(e.title, e.page) for e in entries] == [("Third", 3)]


def test_missing_page_tree_falls_back_to_scanning_pages() -> None:
    b = numbered(3)
    b.catalog["Pages"] = Ref(999)
    doc = open_pdf(b.build())
    assert doc.page_count == 3
    assert texts(doc) == ["p1", "p2", "p3"]
    assert doc.recovered is not None


def test_kids_that_are_not_an_array() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    page = b.add_page(b"BT /F1 10 Tf 72 700 Td (only) Tj ET", {"Font": {"F1": font}})
    b.pages_extra["Kids"] = page  # a reference instead of an array
    doc = open_pdf(b.build())
    assert texts(doc) == ["only"]


def test_document_without_pages_is_malformed() -> None:
    err = error_of(PdfBuilder().build())
    assert err.code == "malformed"


@pytest.mark.parametrize(
    "stream",
    [
        {"data": b"not zlib data at all", "Filter": "/FlateDecode"},
        {"data": b"xyz", "Filter": "/NoSuchFilter"},
    ],
)
def test_undecodable_content_stream_is_reported_not_empty(stream: dict[str, Any]) -> None:
    # Invariant 3: a page whose content cannot be decoded is never presented as empty.
    b = PdfBuilder()
    entries = dict(stream)
    content = b.stream(entries.pop("data"), **entries)
    b.add_page(None, extra={"Contents": content})
    b.add_page(b"")
    doc = open_pdf(b.build())
    page = doc.page(1)
    assert page.runs == []
    assert page.incomplete is True
    assert page.problems
    assert doc.page(2).incomplete is False


_HEADER_SOUP = st.lists(
    st.sampled_from(
        [
            b"0",
            b"7",
            b"12",
            b"12345678901",
            b"123456",
            b" ",
            b"\n",
            b"\r\n",
            b"\x00",
            b"\x0b",
            b"\t",
            b"obj",
            b"endobj",
            b"xobj",
            b"obj_",
            b"objx",
            b"R",
            b"<<",
            b"%",
            b"stream",
        ]
    ),
    max_size=40,
).map(b"".join)


@settings(max_examples=400, deadline=None)
@given(_HEADER_SOUP)
def test_object_headers_are_the_patterns_matches(data: bytes) -> None:
    """The recovery scan finds exactly the ``N G obj`` headers the pattern finds, in order,
    with the same spans and numbers."""
    expected = [(m.span(), m.groups()) for m in recovery._OBJ.finditer(data)]
    assert [(m.span(), m.groups()) for m in recovery._object_headers(data)] == expected


def test_object_headers_of_the_corpus() -> None:
    require_corpus()
    compared = 0
    for f in CORPUS_FILES[::4]:
        data = f.path.read_bytes()
        expected = [(m.span(), m.groups()) for m in recovery._OBJ.finditer(data)]
        assert [(m.span(), m.groups()) for m in recovery._object_headers(data)] == expected
        compared += len(expected)
    assert compared > 1000
