"""The operations layer: budget, cursors, search and coverage, the error envelope."""

from __future__ import annotations

import json
from typing import Any

import pytest
from counting import Calls
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pdfbuilder import Outline, PdfBuilder

from pdfthin.errors import PdfthinError
from pdfthin.operations import (
    Context,
    describe_document,
    error_envelope,
    find_in_document,
    get_info,
    get_toc,
    read_pages,
)
from pdfthin.operations import cursor as cur
from pdfthin.operations import find as find_operation
from pdfthin.operations.response import dumps

# --- fixtures ------------------------------------------------------------------------------


def text_pdf(pages: list[list[str]], scanned: set[int] | None = None) -> bytes:
    """Pages of Helvetica lines (12 pt, 14 pt leading); pages in ``scanned`` (1-based) carry
    only a full-page image."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica", encoding="/WinAnsiEncoding")
    image = b.image_xobject(8, 8)
    for number, lines in enumerate(pages, start=1):
        if scanned and number in scanned:
            b.add_page(b"q 612 0 0 792 0 0 cm /Im1 Do Q", {"XObject": {"Im1": image}})
            continue
        body = [b"BT /F1 12 Tf 72 720 Td 14 TL"]
        for line in lines:
            escaped = line.encode("latin-1").replace(b"(", b"\\(").replace(b")", b"\\)")
            body.append(b"(" + escaped + b") Tj T*")
        body.append(b"ET")
        b.add_page(b"\n".join(body), {"Font": {"F1": font}})
    return b.build()


LOREM = (
    "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt "
    "ut labore et dolore magna aliqua ut enim ad minim veniam quis nostrud exercitation"
).split()


def paragraph_lines(seed: int, count: int) -> list[str]:
    words = [LOREM[(seed * 7 + i * 3) % len(LOREM)] for i in range(count * 9)]
    return [" ".join(words[i : i + 9]) for i in range(0, len(words), 9)]


@pytest.fixture
def ctx() -> Context:
    return Context()


@pytest.fixture(scope="module")
def long_pdf() -> bytes:
    return text_pdf([[f"Page {n} begins here.", *paragraph_lines(n, 40)] for n in range(1, 9)])


# --- read_pages ----------------------------------------------------------------------------


def read_all(pdf: bytes, ctx: Context, budgets: list[int], **kwargs: Any) -> list[dict[str, Any]]:
    responses = []
    cursor = None
    for step in range(1000):
        budget = budgets[step % len(budgets)]
        r = read_pages(pdf, max_chars=budget, cursor=cursor, context=ctx, **kwargs)
        assert len(dumps(r)) <= budget
        responses.append(r)
        cursor = r["next_cursor"]
        if cursor is None:
            return responses
    raise AssertionError("paging did not end")


def joined(responses: list[dict[str, Any]]) -> dict[int, str]:
    out: dict[int, str] = {}
    for r in responses:
        for page in r["pages"]:
            out[page["page"]] = out.get(page["page"], "") + page["markdown"]
    return out


def test_read_whole_document_fits_default_budget(long_pdf: bytes, ctx: Context) -> None:
    r = read_pages(long_pdf, context=ctx)
    assert [p["page"] for p in r["pages"]] == list(range(1, 9))
    assert r["next_cursor"] is None
    assert "omitted" not in r
    assert r["pages"][0]["markdown"].startswith("Page 1 begins here.")


def test_budget_paging_loses_and_repeats_nothing(long_pdf: bytes, ctx: Context) -> None:
    whole = {p["page"]: p["markdown"] for p in read_pages(long_pdf, context=ctx)["pages"]}
    responses = read_all(long_pdf, ctx, [1500])
    assert joined(responses) == whole
    # Pages were split (each page is far over 1500 characters) and parts say where they are.
    parts = [p["part"] for r in responses for p in r["pages"] if "part" in p]
    assert parts and all(p["end"] <= p["total"] for p in parts)
    assert any(r.get("omitted", {}).get("reason") == "budget" for r in responses[:-1])


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(budgets=st.lists(st.integers(min_value=1000, max_value=12000), min_size=1, max_size=6))
def test_any_budget_sequence_reproduces_the_document(long_pdf: bytes, budgets: list[int]) -> None:
    ctx = Context()
    whole = {p["page"]: p["markdown"] for p in read_pages(long_pdf, context=ctx)["pages"]}
    assert joined(read_all(long_pdf, ctx, budgets)) == whole


def test_selection_is_kept_across_cursors(long_pdf: bytes, ctx: Context) -> None:
    responses = read_all(long_pdf, ctx, [3000], pages="2,5-6")
    seen = {p["page"] for r in responses for p in r["pages"]}
    assert seen == {2, 5, 6}


def test_max_pages(long_pdf: bytes, ctx: Context) -> None:
    r = read_pages(long_pdf, max_pages=2, context=ctx)
    assert [p["page"] for p in r["pages"]] == [1, 2]
    assert r["omitted"]["reason"] == "max_pages"
    r2 = read_pages(long_pdf, max_pages=2, cursor=r["next_cursor"], context=ctx)
    assert [p["page"] for p in r2["pages"]] == [3, 4]


@pytest.mark.parametrize("spec", ["0", "9", "3-2", "-1", "1,,2", "a", "1-100", "10-"])
def test_invalid_pages_name_the_page_count(long_pdf: bytes, ctx: Context, spec: str) -> None:
    with pytest.raises(PdfthinError) as info:
        read_pages(long_pdf, pages=spec, context=ctx)
    assert info.value.code == "invalid_pages"
    assert "8 pages" in info.value.message


def test_cursor_for_other_arguments_or_document_is_refused(long_pdf: bytes, ctx: Context) -> None:
    token = read_pages(long_pdf, max_chars=1500, context=ctx)["next_cursor"]
    with pytest.raises(PdfthinError) as info:
        read_pages(long_pdf, max_chars=1500, cursor=token, pages="1-3", context=ctx)
    assert info.value.code == "invalid_cursor"
    other = text_pdf([["another document"]])
    with pytest.raises(PdfthinError) as info:
        read_pages(other, cursor=token, context=ctx)
    assert info.value.code == "invalid_cursor"
    with pytest.raises(PdfthinError) as info:
        find_in_document(long_pdf, "lorem", cursor=token, context=ctx)
    assert info.value.code == "invalid_cursor"


@pytest.mark.parametrize(
    "token",
    ["", "x", "not-a-cursor!!", "A" * 5000, 42, None.__class__.__name__],
)
def test_garbage_cursors_are_invalid(long_pdf: bytes, ctx: Context, token: Any) -> None:
    with pytest.raises(PdfthinError) as info:
        read_pages(long_pdf, cursor=token, context=ctx)
    assert info.value.code == "invalid_cursor"


def test_tampered_cursor_fails_its_checksum(long_pdf: bytes, ctx: Context) -> None:
    token = read_pages(long_pdf, max_chars=1500, context=ctx)["next_cursor"]
    flipped = token[:10] + ("A" if token[10] != "A" else "B") + token[11:]
    with pytest.raises(PdfthinError) as info:
        read_pages(long_pdf, cursor=flipped, context=ctx)
    assert info.value.code == "invalid_cursor"


def test_forged_cursor_fields_are_validated(long_pdf: bytes, ctx: Context) -> None:
    doc = ctx.document(long_pdf)
    args = cur.args_digest(op="read", pages="1-8")
    forged = cur.Cursor(
        op="read",
        fingerprint=cur.fingerprint_prefix(doc.fingerprint),
        ocr=False,
        args=args,
        index=8,  # past the end of the 8-page selection
    )
    with pytest.raises(PdfthinError) as info:
        read_pages(long_pdf, cursor=cur.encode(forged), context=ctx)
    assert info.value.code == "invalid_cursor"


def test_changed_page_text_is_a_stale_cursor(long_pdf: bytes, ctx: Context) -> None:
    r = read_pages(long_pdf, max_chars=1500, context=ctx)
    token = r["next_cursor"]
    assert cur.decode(token).offset > 0  # resumes inside page 1
    doc = ctx.document(long_pdf)
    doc.pages[0].markdown = doc.pages[0].markdown + " changed"
    with pytest.raises(PdfthinError) as info:
        read_pages(long_pdf, max_chars=1500, cursor=token, context=ctx)
    assert info.value.code == "stale_cursor"


def test_cursor_does_not_depend_on_budget(long_pdf: bytes, ctx: Context) -> None:
    r = read_pages(long_pdf, max_pages=1, context=ctx)
    r2 = read_pages(long_pdf, max_pages=1, max_chars=20000, cursor=r["next_cursor"], context=ctx)
    assert r2["pages"][0]["page"] == 2


def test_a_fresh_process_continues_a_cursor(long_pdf: bytes) -> None:
    token = read_pages(long_pdf, max_chars=1500, context=Context())["next_cursor"]
    r = read_pages(long_pdf, max_chars=1500, cursor=token, context=Context())
    assert r["pages"][0]["page"] == 1 and r["pages"][0]["part"]["start"] > 0


def test_budget_bounds(long_pdf: bytes, ctx: Context) -> None:
    for bad in (0, 999, 10**9, "100", True):
        with pytest.raises(PdfthinError) as info:
            read_pages(long_pdf, max_chars=bad, context=ctx)  # type: ignore[arg-type]
        assert info.value.code == "invalid_argument"


# --- find_in_document ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def search_pdf() -> bytes:
    return text_pdf(
        [
            ["The quick brown fox", "jumps over the lazy dog.", "Caf\xe9 society meets."],
            ["Nothing about animals here.", "A phrase broken across"],
            ["lines and pages is found.", "The QUICK BROWN fox again."],
            [],
        ],
        scanned={4},
    )


def test_phrase_across_line_and_page_breaks(search_pdf: bytes, ctx: Context) -> None:
    r = find_in_document(search_pdf, "broken across lines and pages", context=ctx)
    (match,) = r["matches"]
    assert match["page"] == 2 and match["end_page"] == 3
    assert "**" in match["snippet"]


def test_case_and_accents(search_pdf: bytes, ctx: Context) -> None:
    r = find_in_document(search_pdf, "quick brown", context=ctx)
    assert [m["page"] for m in r["matches"]] == [1, 3]
    r = find_in_document(search_pdf, "quick brown", case_sensitive=True, context=ctx)
    assert [m["page"] for m in r["matches"]] == [1]
    assert find_in_document(search_pdf, "cafe", context=ctx)["matches"]
    assert not find_in_document(search_pdf, "cafe", fold_accents=False, context=ctx)["matches"]


def test_word_modes(search_pdf: bytes, ctx: Context) -> None:
    r = find_in_document(search_pdf, "fox dog", match_mode="all_words", context=ctx)
    assert [m["page"] for m in r["matches"]] == [1]
    r = find_in_document(search_pdf, "fox animals", match_mode="any_words", context=ctx)
    assert [(m["page"], m["word"]) for m in r["matches"]] == [
        (1, "fox"),
        (2, "animals"),
        (3, "fox"),
    ]


def test_coverage_is_reported_on_every_response(search_pdf: bytes, ctx: Context) -> None:
    r = find_in_document(search_pdf, "zebra", context=ctx)
    assert r["matches"] == []
    assert r["coverage"]["complete"] is False
    assert r["coverage"]["pages_needing_ocr"] == "4"
    assert "note" in r
    r = find_in_document(search_pdf, "fox", pages="1-3", context=ctx)
    assert r["coverage"] == {
        "complete": True,
        "pages_in_scope": "1-3",
        "pages_searched": "1-3",
        "pages_needing_ocr": "",
    }


def test_search_paging_reproduces_all_matches(long_pdf: bytes, ctx: Context) -> None:
    full = find_in_document(long_pdf, "lorem", max_results=1000, context=ctx)["matches"]
    assert len(full) > 30 and full == sorted(full, key=lambda m: (m["page"], m["start"]))
    got: list[dict[str, Any]] = []
    cursor = None
    while True:
        r = find_in_document(long_pdf, "lorem", max_results=7, cursor=cursor, context=ctx)
        assert "coverage" in r
        got += r["matches"]
        cursor = r["next_cursor"]
        if cursor is None:
            break
    assert got == full


@pytest.mark.parametrize(
    ("mode", "query"),
    [("phrase", "alpha"), ("any_words", "alpha gamma"), ("all_words", "alpha gamma")],
)
def test_following_cursors_looks_at_each_match_about_once(
    ctx: Context, monkeypatch: pytest.MonkeyPatch, mode: str, query: str
) -> None:
    # A cursor's search starts at its page: every call searched from the first page and
    # skipped what came before the cursor, so paging through a long document's matches cost
    # their square.
    pages, per_page = 40, 3
    pdf = text_pdf([[f"alpha beta gamma {n}.{k}" for k in range(per_page)] for n in range(pages)])
    full = find_in_document(
        pdf, query, match_mode=mode, max_results=1000, max_chars=5_000_000, context=ctx
    )
    assert full["next_cursor"] is None
    looked = Calls(monkeypatch, find_operation, "_hit")
    got: list[dict[str, Any]] = []
    cursor, calls = None, 0
    while True:
        r = find_in_document(pdf, query, match_mode=mode, max_results=2, cursor=cursor, context=ctx)
        got += r["matches"]
        calls += 1
        cursor = r["next_cursor"]
        if cursor is None:
            break
    assert got == full["matches"] and calls > 10
    words = len(query.split())
    raw = pages * per_page * words  # every word's every occurrence
    # Each call looks again at most at its page's occurrences and one more of each word.
    assert looked.count <= raw + calls * (per_page * words + words), (looked.count, raw, calls)


def test_ocr_without_binding_is_refused(search_pdf: bytes, ctx: Context) -> None:
    for call in (
        lambda: find_in_document(search_pdf, "fox", ocr=True, context=ctx),
        lambda: read_pages(search_pdf, ocr=True, context=ctx),
    ):
        with pytest.raises(PdfthinError) as info:
            call()
        assert info.value.code == "ocr_unavailable"


def test_find_arguments_are_validated(search_pdf: bytes, ctx: Context) -> None:
    for kwargs in ({"match_mode": "regex"}, {"max_results": 0}, {"context_chars": -1}):
        with pytest.raises(PdfthinError) as info:
            find_in_document(search_pdf, "fox", context=ctx, **kwargs)  # type: ignore[arg-type]
        assert info.value.code == "invalid_argument"
    with pytest.raises(PdfthinError):
        find_in_document(search_pdf, "   ", context=ctx)


# --- describe, info, toc, errors -----------------------------------------------------------


def test_describe_reports_types_and_statuses(search_pdf: bytes, ctx: Context) -> None:
    r = describe_document(search_pdf, context=ctx)
    assert r["document"]["page_count"] == 4
    assert r["type"] == "mixed"
    assert r["pages"]["text"] == "1-3"
    assert r["pages"]["needs_ocr"] == "4"
    assert r["pages"]["needs_ocr_reasons"] == {"image_only": "4"}
    assert r["capabilities"]["ocr"] == {"bound": False}
    # Which engine answered: native where the accelerator is loaded (docs/design.md, invariant 10).
    from pdfthin.engine import _native

    expected = "pure" if _native.NATIVE is None else "native"
    assert r["capabilities"]["engine"]["engine"] == expected
    scanned = text_pdf([[], []], scanned={1, 2})
    assert describe_document(scanned, context=ctx)["type"] == "scanned"


def test_info_and_toc(ctx: Context) -> None:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    for n in range(3):
        b.add_page(f"BT /F1 12 Tf 72 700 Td (page {n + 1}) Tj ET".encode(), {"Font": {"F1": font}})
    b.set_outline(
        [
            Outline("Intro", 0, children=[Outline("Detail", 1)]),
            Outline("End", 2),
        ]
    )
    pdf = b.build()
    info = get_info(pdf, context=ctx)
    assert info["page_sizes"] == [
        {"pages": "1-3", "width": 612.0, "height": 792.0, "rotation": 0, "unit": "pt"}
    ]
    toc = get_toc(pdf, context=ctx)
    assert toc["source"] == "outline"
    assert [(e["id"], e["title"], e["level"], e["page"]) for e in toc["sections"]] == [
        ("s-1", "Intro", 1, 1),
        ("s-2", "Detail", 2, 2),
        ("s-3", "End", 1, 3),
    ]


def test_error_envelope_shapes(ctx: Context) -> None:
    with pytest.raises(PdfthinError) as info:
        read_pages(b"not a pdf at all", context=ctx)
    envelope = error_envelope(info.value)
    assert envelope["error"]["code"] == "not_a_pdf"
    assert "\n" not in envelope["error"]["message"]
    assert json.loads(json.dumps(envelope)) == envelope
    bug = error_envelope(ValueError("boom"))
    assert bug["error"]["code"] == "internal"


def test_document_is_extracted_once_and_cached(long_pdf: bytes) -> None:
    ctx = Context()
    first = ctx.document(long_pdf)
    assert ctx.document(long_pdf) is first
    read_pages(long_pdf, context=ctx)
    find_in_document(long_pdf, "lorem", context=ctx)
    assert ctx.document(long_pdf) is first


def test_phrase_across_a_column_break(ctx: Context) -> None:
    """The last line of the left column and the first of the right one read as one text."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica", encoding="/WinAnsiEncoding")
    left = [f"left column filler line number {i} text" for i in range(10)] + ["ends with broken"]
    right = ["phrase continues here"] + [f"right column filler line {i} text" for i in range(10)]
    ops = [b"BT /F1 10 Tf"]
    for i, line in enumerate(left):
        ops.append(b"1 0 0 1 50 %d Tm (%s) Tj" % (700 - 12 * i, line.encode()))
    for i, line in enumerate(right):
        ops.append(b"1 0 0 1 320 %d Tm (%s) Tj" % (700 - 12 * i, line.encode()))
    ops.append(b"ET")
    b.add_page(b"\n".join(ops), {"Font": {"F1": font}})
    r = find_in_document(b.build(), "ends with broken phrase continues", context=ctx)
    assert [m["page"] for m in r["matches"]] == [1]


def test_cache_is_lru_with_bounded_size() -> None:
    from pdfthin.model import DocumentCache

    for bad in (0, 17, -1, True):
        with pytest.raises(PdfthinError) as info:
            DocumentCache(bad)
        assert info.value.code == "invalid_argument"
    ctx = Context(cache=DocumentCache(2))
    pdfs = [text_pdf([[f"document {n}"]]) for n in range(3)]
    first = ctx.document(pdfs[0])
    ctx.document(pdfs[1])
    assert ctx.document(pdfs[0]) is first  # touched: now the most recent
    ctx.document(pdfs[2])  # evicts pdfs[1], the least recently used
    assert len(ctx.cache) == 2
    assert ctx.document(pdfs[0]) is first


def test_extraction_limit_answers_busy_but_serves_the_cache(long_pdf: bytes) -> None:
    import threading

    ctx = Context(max_extractions=1)
    ctx.document(long_pdf)  # cached now
    gate = threading.Event()
    release = threading.Event()
    original = ctx.limits

    # Hold the only extraction slot with a build that waits.
    from pdfthin.model import document as model_document

    real_build = model_document.build_document

    def slow_build(*args: Any, **kwargs: Any) -> Any:
        gate.set()
        release.wait(10)
        return real_build(*args, **kwargs)

    model_document_build = "pdfthin.operations.context.build_document"
    import unittest.mock

    with unittest.mock.patch(model_document_build, slow_build):
        worker = threading.Thread(target=ctx.document, args=(text_pdf([["slow one"]]),))
        worker.start()
        assert gate.wait(10)
        with pytest.raises(PdfthinError) as info:
            ctx.document(text_pdf([["another one"]]))
        assert info.value.code == "busy"
        assert info.value.details["retry_after_seconds"] > 0
        # The cached document is served while the slot is held.
        assert read_pages(long_pdf, context=ctx)["pages"]
        release.set()
        worker.join(10)
    assert ctx.limits is original


def test_bytes_over_the_size_limit_are_too_large() -> None:
    from pdfthin.engine import Limits

    pdf = text_pdf([["small"]])
    ctx = Context(limits=Limits(max_file_bytes=len(pdf) - 1))
    with pytest.raises(PdfthinError) as info:
        read_pages(pdf, context=ctx)
    assert info.value.code == "too_large"


def test_read_pages_says_why_whenever_a_page_is_not_a_text_layer_read_whole(
    search_pdf: bytes, ctx: Context
) -> None:
    pages = read_pages(search_pdf, context=ctx)["pages"]
    assert "reason" not in pages[0] and "reason_code" not in pages[0]
    assert (pages[3]["status"], pages[3]["reason_code"]) == ("needs_ocr", "image_only")
    assert "covers" in pages[3]["reason"]
    # Text read in part (the page's second content stream cannot be decoded): still text, but
    # the agent is told it has not read all of it.
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    good = b.stream(b"BT /F1 12 Tf 72 700 Td (what could be read) Tj ET")
    bad = b.stream(b"not zlib data", Filter="/FlateDecode")
    b.add_page(None, {"Font": {"F1": font}}, extra={"Contents": [good, bad]})
    (page,) = read_pages(b.build(), context=ctx)["pages"]
    assert (page["status"], page["reason_code"]) == ("text", "partial")
    assert page["reason"].startswith("text layer, read in part")
    assert "what could be read" in page["markdown"]


def test_a_lone_match_fits_the_smallest_budget_with_less_context(ctx: Context) -> None:
    """A long title and a long line around the match: the first match always goes in, and
    when its whole entry is more than the budget holds, its snippet keeps less context."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    lines = [b"(some words of the line %d) Tj T*" % i for i in range(30)]
    lines.insert(15, b"(the needle in its line) Tj T*")
    b.add_page(b"BT /F1 10 Tf 72 720 Td 12 TL " + b" ".join(lines) + b" ET", {"Font": {"F1": font}})
    b.set_info(Title="A title long enough to crowd the response " * 12)
    pdf = b.build()
    whole = find_in_document(pdf, "needle", context_chars=400, context=ctx)
    small = find_in_document(pdf, "needle", context_chars=400, max_chars=1_000, context=ctx)
    assert len(dumps(whole)) > 1_000 >= len(dumps(small))
    (mine,), (full,) = small["matches"], whole["matches"]
    assert {**mine, "snippet": ""} == {**full, "snippet": ""}
    assert "**needle**" in mine["snippet"] and len(mine["snippet"]) < len(full["snippet"])
