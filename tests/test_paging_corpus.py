"""Invariants 5 and 6 on real documents: paging through a corpus document with any budget, in
any number of steps, reproduces the unpaged output exactly (nothing lost, nothing repeated);
the same for search results; and search reports honest coverage on scanned files."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import CorpusFile, corpus_files, corpus_params, require_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdfthin.operations import Context, find_in_document, read_pages
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
