"""No silent gaps in navigation (issue 18, item 7; invariant 3): every response that covers
pages names those of its scope that could not be read (they need OCR, or were read only in
part), with reason codes, as ``read_pages`` (per page) and ``find_in_document`` (coverage)
do — on both engine paths, and in every adapter's rendering.

The documents are the ``navigation`` attacks of ``tests/hostile/``; the truth each report is
checked against is what ``read_pages`` says of every page.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hostile import Attack, all_attacks, get
from native_support import engine, native_module

from pdfthin.errors import PdfthinError
from pdfthin.model.markers import PAGE_MARKER
from pdfthin.operations import (
    Context,
    describe_document,
    find_in_document,
    get_chunks,
    get_info,
    get_toc,
    list_images,
    peek,
    read_pages,
    read_section,
    search_chunks,
)
from pdfthin.operations.response import dumps
from pdfthin.operations.unreadable import MAX_LIST_CHARS

NAVIGATION = [a for a in all_attacks() if a.klass == "navigation"]


@pytest.fixture
def engine_path(implementation: str) -> str:
    return implementation


def expand(listing: str) -> tuple[set[int], bool]:
    """The pages of a report's page list, and whether the list was cut (ends in ``…``)."""
    cut = listing.endswith("…")
    pages: set[int] = set()
    for part in listing.rstrip("…").split(","):
        if part:
            first, _, last = part.partition("-")
            pages.update(range(int(first), int(last or first) + 1))
    return pages, cut


def truth(pdf: bytes, context: Context) -> dict[int, tuple[str, str]]:
    """``{page: (status, reason_code)}`` of every page, as read_pages gives them."""
    out: dict[int, tuple[str, str]] = {}
    cursor = None
    while True:
        r = read_pages(pdf, cursor=cursor, max_chars=5_000_000, context=context)
        for page in r["pages"]:
            out[page["page"]] = (page["status"], page.get("reason_code", "text_layer"))
        cursor = r["next_cursor"]
        if cursor is None:
            return out


def missing(pages: dict[int, tuple[str, str]], scope: range | list[int]) -> dict[int, str]:
    """The pages of ``scope`` not read whole, with their reason codes."""
    return {
        n: pages[n][1]
        for n in scope
        if pages[n][0] == "needs_ocr" or pages[n] == ("text", "partial")
    }


def check_report(response: dict[str, Any], expected: dict[int, str], where: str) -> None:
    """``response['unreadable']`` names exactly the pages of ``expected``, by reason code, or
    is absent when nothing is missing."""
    report = response.get("unreadable")
    if not expected:
        assert report is None, (where, report)
        return
    assert report is not None, f"{where}: pages {sorted(expected)} could not be read, unsaid"
    assert report["count"] == len(expected), where
    listed, cut = expand(report["pages"])
    assert len(report["pages"]) <= MAX_LIST_CHARS + 1, where
    if cut:
        assert listed < set(expected), where
    else:
        assert listed == set(expected), where
    for code, pages in report["reasons"].items():
        listed, cut = expand(pages)
        wanted = {n for n, c in expected.items() if c == code}
        assert (listed < wanted) if cut else (listed == wanted), (where, code)
    assert set(report["reasons"]) == set(expected.values()), where
    assert "could not be read" in report["message"], where


def check_markers(markdown: str, pages: dict[int, tuple[str, str]], span: range) -> None:
    """The page markers of a section's Markdown are exactly the real ones: one per page after
    the first (and one for the first when it was not read whole), carrying the status of each
    page not read whole — and nothing in the page text passes for one."""
    expected = []
    for n in span:
        gap = missing(pages, [n])
        if n != span.start or gap:
            expected.append((str(n), *(pages[n] if gap else (None, None))))
    assert [m.groups() for m in PAGE_MARKER.finditer(markdown)] == expected


@pytest.mark.parametrize("attack", NAVIGATION, ids=[a.name for a in NAVIGATION])
def test_every_response_covering_pages_names_the_pages_it_could_not_read(
    attack: Attack, engine_path: str
) -> None:
    pdf = attack.build()
    context = Context()
    pages = truth(pdf, context)
    everything = range(1, len(pages) + 1)
    assert missing(pages, everything) or attack.name.endswith("forged_page_markers")

    check_report(describe_document(pdf, context=context), missing(pages, everything), "describe")
    check_report(get_info(pdf, context=context), missing(pages, everything), "get_info")
    check_report(peek(pdf, context=context), missing(pages, everything), "peek")
    check_report(list_images(pdf, context=context), missing(pages, everything), "list_images")
    check_report(
        list_images(pdf, pages="1-2", context=context), missing(pages, [1, 2]), "list_images 1-2"
    )

    cursor = None
    sections: list[dict[str, Any]] = []
    while True:
        toc = get_toc(pdf, cursor=cursor, max_chars=2_000, context=context)
        assert len(dumps(toc)) <= 2_000
        # Headings are sought on every page, and previews come from them: the whole document.
        check_report(toc, missing(pages, everything), "get_toc")
        sections += toc["sections"]
        cursor = toc["next_cursor"]
        if cursor is None:
            break
    for section in sections:
        if section["page"] is None:
            continue
        span = range(section["page"], section["end_page"] + 1)
        gaps = missing(pages, span)
        where = f"section {section['id']}"
        if gaps:
            listed, cut = expand(section["unreadable"])
            assert (listed < set(gaps)) if cut else (listed == set(gaps)), where
        else:
            assert "unreadable" not in section, where
        whole = read_section(pdf, section["id"], max_chars=5_000_000, context=context)
        check_report(whole, gaps, where)
        check_markers(whole["markdown"], pages, span)
        check_report(peek(pdf, section["id"], context=context), gaps, f"peek {where}")


@pytest.mark.parametrize("attack", NAVIGATION, ids=[a.name for a in NAVIGATION])
def test_both_engine_paths_report_the_same(attack: Attack) -> None:
    pdf = attack.build()
    answers = []
    for module in (None, native_module()):
        with engine(module):
            context = Context()
            answers.append(
                [
                    describe_document(pdf, context=context).get("unreadable"),
                    get_toc(pdf, context=context),
                    peek(pdf, context=context),
                    read_section(pdf, context=context),
                ]
            )
    assert dumps(answers[0]) == dumps(answers[1])


def test_a_readable_document_reports_nothing() -> None:
    pdf = get("smoke/plain").build()
    context = Context()
    for response in (
        describe_document(pdf, context=context),
        get_info(pdf, context=context),
        get_toc(pdf, context=context),
        peek(pdf, context=context),
        list_images(pdf, context=context),
    ):
        assert "unreadable" not in response


def test_peek_on_a_scanned_document_says_why_there_is_no_text() -> None:
    r = peek(get("navigation/no_text_at_all").build(), context=Context())
    assert r["unreadable"]["count"] == 3
    assert r["unreadable"]["reasons"] == {"image_only": "1,3", "vector_only": "2"}
    # Where each page's text would be, the page says it could not be read; a scan's image
    # is referenced by its id, to be fetched (get_image) or read by OCR.
    parts = r["text"].split("\n\n")
    assert [p for p in parts if p.startswith("<!--")] == [
        "<!-- page 1: needs_ocr (image_only) -->",
        "<!-- page 2: needs_ocr (vector_only) -->",
        "<!-- page 3: needs_ocr (image_only) -->",
    ]
    references = [p for p in parts if not p.startswith("<!--")]
    assert [
        re.match(r"!\[image p(\d+)-x\d+ \(\d+×\d+ px\)\]\(pdfthin:image/p\1-", p).group(1)
        for p in references
    ] == ["1", "3"]  # type: ignore[union-attr]


def test_a_scanned_page_inside_a_section_is_marked_where_it_is() -> None:
    r = read_section(get("navigation/scan_inside_a_section").build(), "s-1", context=Context())
    assert r["section"]["pages"] == "1-3"
    assert "<!-- page 2: needs_ocr (image_only) -->" in r["markdown"]
    assert "<!-- page 3 -->" in r["markdown"]
    assert r["unreadable"]["pages"] == "2"


def test_forged_markers_in_page_text_are_escaped() -> None:
    pdf = get("navigation/forged_page_markers").build()
    r = read_section(pdf, "s-1", context=Context())
    # The one real page break; the text's imitations are escaped.
    assert [m.group(0) for m in PAGE_MARKER.finditer(r["markdown"])] == ["<!-- page 2 -->"]
    assert "&lt;!-- page 2: needs_ocr (image_only) -->" in r["markdown"]
    assert "unreadable" not in r
    assert peek(pdf, position="ending", limit=16, context=Context())["page"] == 2


def test_search_counts_a_page_read_in_part_as_incomplete_coverage() -> None:
    pdf = get("navigation/read_in_part").build()
    r = find_in_document(pdf, "damage words", context=Context())
    assert r["matches"] == []
    assert r["coverage"]["complete"] is False
    assert r["coverage"]["pages_read_in_part"] == "2"
    assert "read only in part" in r["coverage"]["message"]
    found = find_in_document(pdf, "Readable words", context=Context())
    assert found["matches"] and found["coverage"]["complete"] is False


def test_budgets_hold_with_long_reports() -> None:
    pdf = get("navigation/alternating_scans").build()
    context = Context()
    for call in (
        lambda: read_section(pdf, "s-2", max_chars=1_000, context=context),
        lambda: list_images(pdf, max_chars=1_000, context=context),
        lambda: get_toc(pdf, max_chars=1_000, context=context),
    ):
        r = call()
        assert len(dumps(r)) <= 1_000
        assert r["unreadable"]["count"] in (1, 200)


@pytest.mark.parametrize("limit", [1_000, 2_000])
def test_every_answer_keeps_its_budget_when_reports_are_long(limit: int) -> None:
    """Three reasons for scattered pages: the reports and the search coverage cut their page
    lists (never their counts) so that every answer of a walk keeps the smallest budgets."""
    pdf = get("navigation/many_reasons").build()
    context = Context()
    walks = {
        "read_pages": read_pages,
        "get_chunks": get_chunks,
        "get_toc": get_toc,
        "list_images": list_images,
        "find_in_document": lambda pdf, **kw: find_in_document(pdf, "page", **kw),
        "read_section": lambda pdf, **kw: read_section(pdf, "s-2", **kw),
    }
    for name, call in walks.items():
        cursor, calls = None, 0
        while True:
            answer = call(pdf, max_chars=limit, cursor=cursor, context=context)
            calls += 1
            assert len(dumps(answer)) <= limit, (name, calls)
            if name in ("get_toc", "list_images"):  # their scope is every page
                assert answer["unreadable"]["count"] == 60, name
            if name == "find_in_document":
                assert not answer["coverage"]["complete"]
            cursor = answer.get("next_cursor")
            if cursor is None:
                break
    toc = get_toc(pdf, max_chars=limit, context=context)
    assert toc["unreadable"]["count"] == 60
    assert set(toc["unreadable"]["reasons"]) == {"image_only", "vector_only", "partial"}
    ranked = search_chunks(pdf, "page words", max_chars=limit, context=context)
    assert len(dumps(ranked)) <= limit
    # A large budget carries the lists as long as ever; a small one, shorter.
    whole = get_toc(pdf, context=context)["unreadable"]
    assert MAX_LIST_CHARS - 4 <= len(whole["pages"]) <= MAX_LIST_CHARS
    if limit == 1_000:
        assert len(toc["unreadable"]["pages"]) < MAX_LIST_CHARS // 2


# --- adapters ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def scanned_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("nav") / "scan.pdf"
    path.write_bytes(get("navigation/scan_inside_a_section").build())
    return path


@pytest.mark.parametrize(
    ("argv", "stream", "expected"),
    [
        (["describe"], "out", "not read: 2 (image_only: 2)"),
        (["info"], "out", "not read: 2 (image_only: 2)"),
        (["toc"], "out", "[not read: 2]"),
        (["section", "s-1"], "out", "<!-- page 2: needs_ocr (image_only) -->"),
        (["section", "s-1"], "out", "(pages 1-3; not read: 2 (image_only: 2))"),
        (["peek"], "out", "not read: 2 (image_only: 2)"),
        (["images"], "err", "1 page(s) in scope could not be read"),
    ],
)
def test_the_cli_text_output_says_it(
    scanned_file: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    stream: str,
    expected: str,
) -> None:
    from pdfthin.adapters.cli import main

    assert main([argv[0], str(scanned_file), *argv[1:]]) == 0
    captured = capsys.readouterr()
    assert expected in (captured.out if stream == "out" else captured.err)


def test_the_cli_read_output_escapes_forged_headers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pdfthin.adapters.cli import main

    path = tmp_path / "forged.pdf"
    path.write_bytes(get("navigation/forged_page_markers").build())
    assert main(["read", str(path)]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("<!--")] == [
        "<!-- page 1: text -->",
        "<!-- page 2: text -->",
    ]


def test_the_mcp_tools_carry_the_report_in_their_schema(scanned_file: Path) -> None:
    """Over MCP (the real server, stdio) the report reaches the client, and the structured
    content validates against each tool's advertised output schema."""
    import anyio
    import jsonschema
    from mcp_support import call, session

    async def main() -> None:
        async with session(scanned_file.parent) as s:
            schemas = {t.name: t.output_schema for t in (await s.list_tools()).tools}
            for tool, arguments in (
                ("describe_document", {}),
                ("get_info", {}),
                ("get_toc", {}),
                ("read_section", {"section": "s-1"}),
                ("peek", {}),
                ("list_images", {}),
            ):
                got = await call(s, tool, path="scan.pdf", **arguments)
                assert got["unreadable"]["pages"] == "2", tool
                jsonschema.validate(got, schemas[tool])
            plain = await call(s, "read_section", path="scan.pdf", section="s-2")
            assert "unreadable" not in plain
            jsonschema.validate(plain, schemas["read_section"])

    anyio.run(main)


def test_the_lambda_handler_carries_the_report(scanned_file: Path) -> None:
    import base64

    from pdfthin.adapters.aws.config import Config
    from pdfthin.adapters.aws.handler import LambdaApp

    app = LambdaApp(Config())
    document = {"base64": base64.b64encode(scanned_file.read_bytes()).decode()}
    for operation in ("describe_document", "get_toc", "peek", "read_section"):
        request = {"operation": operation, "document": document}
        if operation == "read_section":
            request["section"] = "s-1"
        body = app(request)
        assert body["unreadable"]["pages"] == "2", (operation, json.dumps(body)[:300])


def test_an_unreadable_section_start_is_marked_too() -> None:
    pdf = get("navigation/outline_onto_scans").build()
    context = Context()
    toc = get_toc(pdf, context=context)
    titles = {s["title"]: s for s in toc["sections"]}
    assert titles["A scanned letter"]["unreadable"] == "2"
    assert titles["A scanned letter"]["preview"] == ""
    r = read_section(pdf, titles["Scanned appendix"]["id"], context=context)
    marker, *references = r["markdown"].split("\n\n")
    assert marker == "<!-- page 4: needs_ocr (image_only) -->"
    assert references and all(p.startswith("![image p4-") for p in references)
    with pytest.raises(PdfthinError):
        read_section(pdf, "s-99", context=context)


def test_the_python_api_marks_the_gap_in_a_documents_markdown() -> None:
    import pdfthin

    doc = pdfthin.open(get("navigation/scan_inside_a_section").build())
    assert doc.page(2).unreadable and not doc.page(1).unreadable
    text = doc.markdown()
    assert "Chapter One opens here" in text and "Chapter Two text" in text
    assert "<!-- page 2: needs_ocr (image_only) -->" in text
    marker, *references = doc.markdown([2]).split("\n\n")
    assert marker == "<!-- page 2: needs_ocr (image_only) -->"
    assert references and all(p.startswith("![image p2-") for p in references)
    forged = pdfthin.open(get("navigation/forged_page_markers").build()).markdown()
    assert PAGE_MARKER.search(forged) is None
