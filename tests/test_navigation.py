"""Navigation: the section tree (outline or headings), read_section, peek, info."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import CorpusFile, corpus_files, corpus_params, require_corpus
from pdfbuilder import Outline, PdfBuilder

from pdfthin.errors import PdfthinError
from pdfthin.operations import Context, get_info, get_toc, peek, read_section
from pdfthin.operations.response import dumps

#: Every test here reads pages: it runs on each engine path (conftest.py).
pytestmark = pytest.mark.usefixtures("implementation")


def _page_stream(lines: list[tuple[float, str]]) -> bytes:
    """Helvetica lines: (size, text) from the top of the page down."""
    out = [b"BT"]
    y = 740.0
    for size, text in lines:
        out.append(b"/F1 %g Tf 1 0 0 1 72 %g Tm (%s) Tj" % (size, y, text.encode("latin-1")))
        y -= size * 1.6
    out.append(b"ET")
    return b"\n".join(out)


BODY = [(10.0, f"Body sentence number {i} of this section runs along here.") for i in range(6)]


def sectioned_pdf(with_outline: bool) -> bytes:
    """Three pages: Chapter One (with a subsection) on pages 1-2, Chapter Two on page 3."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica", encoding="/WinAnsiEncoding")
    pages = [
        [(20.0, "Chapter One"), *BODY, (14.0, "Part A"), *BODY],
        [*BODY, (14.0, "Part B"), *BODY],
        [(20.0, "Chapter Two"), *BODY],
    ]
    # An image low on page 2, below "Part B": it belongs to Part B (and to Chapter One).
    image = b.image_xobject(4, 4)
    for number, lines in enumerate(pages, start=1):
        content = _page_stream(lines)
        if number == 2:
            content += b"\nq 50 0 0 50 72 100 cm /Im1 Do Q"
        b.add_page(content, {"Font": {"F1": font}, "XObject": {"Im1": image}})
    if with_outline:
        b.set_outline(
            [
                Outline("Chapter One", 0, children=[Outline("Part A", 0), Outline("Part B", 1)]),
                Outline("Chapter Two", 2),
                Outline("Broken", b"no-such-destination"),
            ]
        )
    return b.build()


@pytest.fixture(scope="module", params=[True, False], ids=["outline", "headings"])
def book(request: pytest.FixtureRequest) -> tuple[bytes, bool]:
    return sectioned_pdf(request.param), request.param


def _toc(pdf: bytes) -> dict[str, Any]:
    return get_toc(pdf, context=Context())


def test_toc_source_ids_and_pages(book: tuple[bytes, bool]) -> None:
    pdf, with_outline = book
    toc = _toc(pdf)
    assert toc["source"] == ("outline" if with_outline else "headings")
    got = [(s["id"], s["title"], s["level"], s["page"], s.get("end_page")) for s in toc["sections"]]
    expected = [
        ("s-1-1", "Chapter One", 1, 1, 2),
        # Page 2 opens with Part A's last paragraphs; Part B starts below them.
        ("s-2-2", "Part A", 2, 1, 2),
        ("s-2-3", "Part B", 2, 2, 2),
        ("s-1-4", "Chapter Two", 1, 3, 3),
    ]
    if with_outline:
        expected.append(("s-1-5", "Broken", 1, None, None))
    assert got == expected
    if with_outline:
        assert toc["sections"][-1]["problem"] == "named destination not found"
    assert [s.get("images") for s in toc["sections"][:4]] == [1, 0, 1, 0]


def test_section_runs_to_the_next_heading_of_its_level(book: tuple[bytes, bool]) -> None:
    pdf, _ = book
    ctx = Context()
    part_a = read_section(pdf, "s-2-2", context=ctx)
    assert part_a["section"]["breadcrumb"] == ["Chapter One"]
    assert "Part A" in part_a["markdown"]
    assert "Part B" not in part_a["markdown"]
    chapter = read_section(pdf, "s-1-1", context=ctx)
    assert chapter["section"]["pages"] == "1-2"
    text = chapter["markdown"]
    assert text.index("Part A") < text.index("<!-- page 2 -->") < text.index("Part B")
    assert "Chapter Two" not in text
    two = read_section(pdf, "s-1-4", context=ctx)["markdown"]
    assert "Chapter One" not in two and "Body sentence number 5" in two


def test_section_ids_are_stable_across_processes(book: tuple[bytes, bool]) -> None:
    pdf, _ = book
    assert _toc(pdf) == _toc(pdf)


def test_unknown_and_broken_sections(book: tuple[bytes, bool]) -> None:
    pdf, with_outline = book
    for bad in ("s-9-9", "x", "s-1-99"):
        with pytest.raises(PdfthinError) as info:
            read_section(pdf, bad, context=Context())
        assert info.value.code == "not_found"
    with pytest.raises(PdfthinError) as info:
        read_section(pdf, 42, context=Context())  # type: ignore[arg-type]
    assert info.value.code == "invalid_argument"
    if with_outline:
        with pytest.raises(PdfthinError) as info:
            read_section(pdf, "s-1-5", context=Context())
        assert info.value.code == "not_found"


def test_section_paging_reproduces_the_section(book: tuple[bytes, bool]) -> None:
    pdf, _ = book
    ctx = Context()
    whole = read_section(pdf, "s-1-1", context=ctx)["markdown"]
    parts: list[str] = []
    cursor = None
    while True:
        r = read_section(pdf, "s-1-1", max_chars=1000, cursor=cursor, context=ctx)
        assert len(dumps(r)) <= 1000
        parts.append(r["markdown"])
        cursor = r["next_cursor"]
        if cursor is None:
            break
    assert len(parts) > 1
    assert "".join(parts) == whole


def test_read_section_without_id_is_the_whole_document(book: tuple[bytes, bool]) -> None:
    pdf, _ = book
    r = read_section(pdf, context=Context())
    assert [p["page"] for p in r["pages"]] == [1, 2, 3]


def test_peek_positions(book: tuple[bytes, bool]) -> None:
    pdf, _ = book
    ctx = Context()
    start = peek(pdf, "s-1-1", position="beginning", limit=80, context=ctx)
    assert start["text"].startswith("# Chapter One") or start["text"].startswith("Chapter One")
    assert len(start["text"]) <= 80 and start["start"] == 0 and start["page"] == 1
    end = peek(pdf, "s-1-1", position="ending", limit=80, context=ctx)
    assert end["end"] == end["scope"]["chars"] and end["page"] == 2
    middle = peek(pdf, position="middle", limit=100, context=ctx)
    assert 0 < middle["start"] < middle["scope"]["chars"] - 100
    a = peek(pdf, position="random", seed=7, limit=60, context=ctx)
    b = peek(pdf, position="random", seed=7, limit=60, context=ctx)
    assert a == b
    with pytest.raises(PdfthinError) as info:
        peek(pdf, position="somewhere", context=ctx)
    assert info.value.code == "invalid_argument"


def test_long_outline_is_paginated_within_the_budget() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    for n in range(20):
        b.add_page(b"BT /F1 12 Tf 72 700 Td (page %d) Tj ET" % (n + 1), {"Font": {"F1": font}})
    items = [Outline(f"Entry number {i} with a title", i % 20) for i in range(600)]
    b.set_outline(items)
    pdf = b.build()
    ctx = Context()
    seen: list[str] = []
    cursor = None
    while True:
        r = get_toc(pdf, max_chars=2000, cursor=cursor, context=ctx)
        assert len(dumps(r)) <= 2000
        seen += [s["title"] for s in r["sections"]]
        cursor = r["next_cursor"]
        if cursor is None:
            break
    assert seen == [f"Entry number {i} with a title" for i in range(600)]


def test_info_counts_forms_links_and_attachments() -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    link = b.add({"Type": "/Annot", "Subtype": "/Link", "Rect": [0, 0, 10, 10]})
    field = b.add({"FT": "/Tx", "T": "name", "Rect": [0, 0, 10, 10]})
    b.add_page(
        b"BT /F1 12 Tf 72 700 Td (x) Tj ET", {"Font": {"F1": font}}, extra={"Annots": [link]}
    )
    b.catalog["AcroForm"] = {"Fields": [field]}
    spec = b.add({"Type": "/Filespec", "F": "notes.txt"})
    b.catalog["Names"] = {"EmbeddedFiles": {"Names": ["notes.txt", spec]}}
    info = get_info(b.build(), context=Context())
    assert info["forms"] == {"fields": 1, "xfa": False}
    assert info["links"] == 1
    assert info["attachments"] == ["notes.txt"]


def _outline_files() -> list[CorpusFile]:
    return [f for f in corpus_files(has_gt="/outline/")]


@pytest.mark.parametrize("f", corpus_params(_outline_files()))
def test_corpus_outlines_give_stable_sections_on_the_right_pages(f: CorpusFile | None) -> None:
    require_corpus()
    assert f is not None
    first = get_toc(f.path, password=f.password, max_chars=5_000_000, context=Context())
    second = get_toc(f.path, password=f.password, max_chars=5_000_000, context=Context())
    assert first == second
    import pdfthin

    doc = pdfthin.open(f.path, password=f.password)
    if not any(e.page is not None for e in doc.outline):
        # An outline none of whose destinations resolves locates nothing: headings it is.
        assert first["source"] == "headings"
        return
    assert first["source"] == "outline"
    assert [(s["title"], s["level"], s["page"]) for s in first["sections"]] == [
        (e.title, e.level, e.page) for e in doc.outline
    ]
    for s in first["sections"]:
        if s["page"] is not None:
            assert s["page"] <= s["end_page"] <= doc.page_count
