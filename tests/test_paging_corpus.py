"""Invariants 5 and 6 on real documents: paging through a corpus document with any budget, in
any number of steps, reproduces the unpaged output exactly (nothing lost, nothing repeated);
the same for search results; and search reports honest coverage on scanned files."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import CorpusFile, corpus_files, corpus_params, require_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdfthin.errors import PdfthinError
from pdfthin.operations import (
    Context,
    find_in_document,
    get_annotations,
    get_chunks,
    get_form_fields,
    get_toc,
    inspect_layout,
    list_images,
    read_pages,
    read_section,
    search_chunks,
)
from pdfthin.operations.response import dumps

# Text documents of different shapes: papers, a book, tables, forms, CJK, scans with OCR text.
PAGING_FILES = [
    "pypdf-benchmarks/1602.06541.pdf",
    "sample-files/GeoTopo-komprimiert.pdf",
    "pdfplumber/WARN-Report-for-7-1-2015-to-03-25-2016.pdf",
    "pdfjs/TAMReview.pdf",
    "olmocr-gnarly/gnarly/horribleocr.pdf",
]
_CONTEXT = Context()

#: Real documents read whole, many times over: a sweep (conftest.py; tox runs it on py311 and
#: py311-native).
pytestmark = pytest.mark.corpus


def _file(relpath: str) -> CorpusFile:
    require_corpus()
    found = [f for f in corpus_files() if f.relpath == relpath]
    assert found, f"{relpath} is not in the corpus manifest"
    return found[0]


def _pages(responses: list[dict[str, Any]]) -> dict[int, str]:
    out: dict[int, str] = {}
    for r in responses:
        for page in r["pages"]:
            out[page["page"]] = out.get(page["page"], "") + page["markdown"]
    return out


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    relpath=st.sampled_from(PAGING_FILES),
    budgets=st.lists(st.integers(min_value=1000, max_value=60_000), min_size=1, max_size=8),
    max_pages=st.one_of(st.none(), st.integers(min_value=1, max_value=5)),
)
def test_paging_any_corpus_document_reproduces_it(
    relpath: str, budgets: list[int], max_pages: int | None
) -> None:
    f = _file(relpath)
    whole = read_pages(f.path, max_chars=5_000_000, context=_CONTEXT)
    expected = {p["page"]: p["markdown"] for p in whole["pages"]}
    responses = []
    cursor = None
    for step in range(100_000):
        budget = budgets[step % len(budgets)]
        r = read_pages(
            f.path, max_chars=budget, max_pages=max_pages, cursor=cursor, context=_CONTEXT
        )
        assert len(dumps(r)) <= budget
        assert r["pages"], "a response must make progress"
        responses.append(r)
        cursor = r["next_cursor"]
        if cursor is None:
            break
    assert _pages(responses) == expected


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    relpath=st.sampled_from(PAGING_FILES),
    query=st.sampled_from(["the", "and", "a", "data", "of the"]),
    per_call=st.integers(min_value=1, max_value=40),
    budget=st.integers(min_value=1000, max_value=20_000),
)
def test_search_paging_reproduces_all_matches(
    relpath: str, query: str, per_call: int, budget: int
) -> None:
    f = _file(relpath)
    full = find_in_document(f.path, query, max_results=1000, max_chars=5_000_000, context=_CONTEXT)
    if full["next_cursor"] is not None:
        return  # over a thousand matches: the reference itself is paged
    got: list[dict[str, Any]] = []
    cursor = None
    while True:
        r = find_in_document(
            f.path, query, max_results=per_call, max_chars=budget, cursor=cursor, context=_CONTEXT
        )
        assert len(dumps(r)) <= budget
        assert r["coverage"] == full["coverage"]
        got += r["matches"]
        cursor = r["next_cursor"]
        if cursor is None:
            break
    # A match alone in a response too small for its whole entry comes with less context.
    assert [_without_snippet(m) for m in got] == [_without_snippet(m) for m in full["matches"]]
    for mine, whole in zip(got, full["matches"], strict=True):
        if mine["snippet"] != whole["snippet"]:
            assert budget < len(dumps(whole)) + 1_000
            # Less context, the same match: what it keeps is a piece of the whole snippet.
            bare = mine["snippet"].strip("…")
            assert "**" in bare and bare in whole["snippet"], (mine, whole)


def _without_snippet(match: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in match.items() if k != "snippet"}


@pytest.mark.parametrize("f", corpus_params(corpus_files(tag="image-only")))
def test_search_coverage_on_scanned_files(f: CorpusFile | None) -> None:
    require_corpus()
    assert f is not None
    r = find_in_document(f.path, "zzqxv unlikely", password=f.password, context=Context())
    assert r["matches"] == []
    assert r["coverage"]["complete"] is False
    assert r["coverage"]["pages_needing_ocr"]
    assert "note" in r


# Every answer of a walk keeps the smallest budget (invariant 6), on every corpus file:
# every operation that pages, following its cursors, and the one-shot ones. The first entry of
# an answer always goes in: it leaves out what another call gives (a section's preview, an
# annotation's page text, a chunk part's breadcrumb, the layout lists) rather than go over.
_SMALLEST = 1_000
_MAX_CALLS = 150


@pytest.mark.parametrize("f", corpus_params(corpus_files()))
def test_every_answer_keeps_the_smallest_budget(f: CorpusFile | None) -> None:
    require_corpus()
    assert f is not None
    context = Context()
    try:
        toc = get_toc(f.path, password=f.password, max_chars=5_000_000, context=context)
    except PdfthinError:
        return  # a document error is an envelope, tested elsewhere
    first = toc["sections"][0]["id"] if toc["sections"] else None
    kw: dict[str, Any] = {"password": f.password, "max_chars": _SMALLEST, "context": context}
    walks: dict[str, Any] = {
        "get_toc": lambda c: get_toc(f.path, cursor=c, **kw),
        "list_images": lambda c: list_images(f.path, cursor=c, **kw),
        "get_chunks": lambda c: get_chunks(f.path, cursor=c, **kw),
        "get_annotations": lambda c: get_annotations(f.path, cursor=c, **kw),
        "get_form_fields": lambda c: get_form_fields(f.path, cursor=c, **kw),
        "find_in_document": lambda c: find_in_document(f.path, "the", cursor=c, **kw),
    }
    if first is not None:
        walks["read_section"] = lambda c: read_section(f.path, first, cursor=c, **kw)
    for name, walk in walks.items():
        cursor = None
        for _ in range(_MAX_CALLS):
            try:
                answer = walk(cursor)
            except PdfthinError as error:  # e.g. a section with no place: an envelope
                assert error.code != "internal", name
                break
            assert len(dumps(answer)) <= _SMALLEST, name
            cursor = answer.get("next_cursor")
            if cursor is None:
                break
    for name, answer in (
        ("search_chunks", search_chunks(f.path, "the results", **kw)),
        ("inspect_layout", inspect_layout(f.path, page=1, **kw)),
    ):
        assert len(dumps(answer)) <= _SMALLEST, name
