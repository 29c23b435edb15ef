"""The reading ledger (issue 25): every ``read_pages`` answer says which pages of the document
its chain of cursors has delivered in full, in part, not at all, or could not read; the
``ledger`` operation answers the same from the cursors an agent holds; ``describe_document``
gives the template. The truth each ledger is checked against is what the responses actually
carried, accumulated here; the ledger may say less (``exact`` false), never more.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pdfbuilder import PdfBuilder
from synthetic import SOURCE, SyntheticContext, document

from pdfthin.errors import PdfthinError
from pdfthin.operations import (
    Context,
    describe_document,
    find_in_document,
    ledger,
    page_sets,
    read_pages,
)
from pdfthin.operations import cursor as cur
from pdfthin.operations.ledger_state import from_cursor
from pdfthin.operations.response import size
from pdfthin.pages import format_pages, parse_pages

# --- what the responses carried -----------------------------------------------------------------


class Received:
    """What an agent received, page by page: characters of Markdown and whether whole."""

    def __init__(self) -> None:
        self.chars: dict[int, int] = {}
        self.whole: set[int] = set()
        self.unreadable: dict[int, str] = {}

    def add(self, response: dict[str, Any]) -> None:
        for entry in response["pages"]:
            n = entry["page"]
            part = entry.get("part")
            end = part["end"] if part else len(entry["markdown"])
            total = part["total"] if part else len(entry["markdown"])
            # Parts come in order: a page is whole once its last part came.
            self.chars[n] = max(self.chars.get(n, 0), end)
            if end == total:
                if entry["status"] == "needs_ocr" or entry.get("reason_code") == "partial":
                    self.unreadable[n] = entry["reason_code"]
                else:
                    self.whole.add(n)


def expand(listing: str) -> set[int]:
    assert "…" not in listing, listing
    return set(parse_pages(listing, 10**6)) if listing else set()


def check_against(shown: dict[str, Any], got: Received, page_count: int) -> None:
    """``shown`` (a ledger object, its lists whole) says exactly what ``got`` received."""
    partial = {n: c for n, c in got.chars.items() if n not in got.whole | set(got.unreadable)}
    assert expand(shown["delivered"]) == got.whole
    assert {p["page"]: p["end"] for p in shown.get("partial", [])} == partial
    unreadable = {n: code for code, ls in shown.get("unreadable", {}).items() for n in expand(ls)}
    assert unreadable == got.unreadable
    rest = set(range(1, page_count + 1)) - got.whole - set(partial) - set(got.unreadable)
    assert expand(shown["not_delivered"]) == rest
    assert shown["counts"] == {
        "delivered": len(got.whole),
        "partial": len(partial),
        "not_delivered": len(rest),
        "unreadable": len(got.unreadable),
    }
    assert shown["exact"] is True


# --- a generated PDF: text pages long enough to be cut, scanned pages between ---------------------

#: Page kinds: text, or a scanned page (a full-page image, no text layer).
KINDS = ["text", "text", "scan", "text", "text", "scan", "scan", "text"]


def _pdf(kinds: list[str]) -> bytes:
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    image = b.image_xobject(8, 8)
    for n, kind in enumerate(kinds, 1):
        if kind == "scan":
            b.add_page(b"q 612 0 0 792 0 0 cm /Im1 Do Q", {"XObject": {"Im1": image}})
            continue
        lines = " ".join(
            f"0 -14 Td (Line {i} of page {n} says something worth reading.) Tj"
            for i in range(12 + 4 * n)
        )
        b.add_page(f"BT /F1 11 Tf 72 760 Td {lines} ET".encode(), {"Font": {"F1": font}})
    return b.build()


@pytest.fixture(scope="module")
def mixed() -> bytes:
    return _pdf(KINDS)


@pytest.mark.parametrize("max_chars", [1000, 1700, 4000])
def test_every_answer_s_ledger_is_what_the_chain_received(mixed: bytes, max_chars: int) -> None:
    got = Received()
    token = None
    cut = False
    for _ in range(500):
        r = dict(read_pages(mixed, max_chars=max_chars, cursor=token, context=Context()))
        assert size(r) <= max_chars
        got.add(r)
        cut = cut or any("part" in e for e in r["pages"])
        shown = r["ledger"]
        if "…" not in json.dumps(shown, ensure_ascii=False):
            check_against(shown, got, len(KINDS))
        else:  # cut to the budget: the counts still say it all
            assert shown["counts"]["delivered"] == len(got.whole)
        token = r["next_cursor"]
        if token is None:
            break
        # The ledger operation answers the same from the last cursor, and, knowing every page
        # of this short document, names the scanned pages not reached yet as unreadable.
        answer = ledger(mixed, cursors=token, context=Context())
        assert expand(answer["ledger"]["delivered"]) == got.whole
        assert answer["resume_cursor"] == token
        unreadable = answer["ledger"].get("unreadable", {}).get("image_only", "")
        assert expand(unreadable) == {n for n, k in enumerate(KINDS, 1) if k == "scan"}
    else:
        raise AssertionError("the cursors never ended")
    assert token is None
    if max_chars < 4000:
        assert cut, "the budget was meant to cut pages"
    check_against(r["ledger"], got, len(KINDS))
    assert expand(r["ledger"]["unreadable"]["image_only"]) == {3, 6, 7}


def test_a_cut_page_is_partial_up_to_what_was_delivered(mixed: bytes) -> None:
    r = read_pages(mixed, pages="8", max_chars=1000, context=Context())
    (entry,) = r["pages"]
    assert entry["part"]["end"] < entry["part"]["total"]
    assert r["ledger"]["partial"] == [
        {"page": 8, "end": entry["part"]["end"], "total": entry["part"]["total"]}
    ]
    assert r["ledger"]["counts"]["delivered"] == 0
    answer = ledger(mixed, cursors=r["next_cursor"], context=Context())
    assert answer["ledger"]["partial"][0]["end"] == entry["part"]["end"]
    assert "page 8 up to character" in answer["summary"]


def test_several_chains_are_merged(mixed: bytes) -> None:
    first = read_pages(mixed, pages="1-2", max_pages=1, context=Context())
    second = read_pages(mixed, pages="4-8", max_pages=2, context=Context())
    tokens = f"{first['next_cursor']}, {second['next_cursor']}"
    answer = ledger(mixed, cursors=tokens, context=Context())
    assert answer["ledger"]["delivered"] == "1,4-5"
    assert answer["resume_cursor"] == second["next_cursor"]
    assert answer["next_pages"] == "2,8"
    assert "pages='2,8'" in answer["summary"]


def test_describe_gives_the_template_and_ledger_without_cursors_agrees(mixed: bytes) -> None:
    described = describe_document(mixed, context=Context())["ledger"]
    assert described["counts"] == {
        "delivered": 0,
        "partial": 0,
        "not_delivered": 5,
        "unreadable": 3,
    }
    assert described["not_delivered"] == "1-2,4-5,8"
    assert described["unreadable"] == {"image_only": "3,6-7"}
    assert size(described) <= 400
    answer = ledger(mixed, context=Context())
    assert answer["ledger"] == described
    assert answer["next_pages"] == "1-2,4-5,8"
    assert "resume_cursor" not in answer


# --- a long synthetic document ------------------------------------------------------------------

PAGES = 10_000
#: Every 97th page is scanned.
_LONG = document(["needs_ocr" if n % 97 == 0 else "text" for n in range(1, PAGES + 1)])


def _follow(spec: str | None, **kwargs: Any) -> tuple[Received, list[str]]:
    got = Received()
    tokens: list[str] = []
    token = None
    for _ in range(5_000):
        r = read_pages(SOURCE, pages=spec, cursor=token, context=SyntheticContext(_LONG), **kwargs)
        if "max_chars" in kwargs:
            assert size(r) <= kwargs["max_chars"]
        got.add(dict(r))
        token = r["next_cursor"]
        if token is None:
            return got, tokens
        assert len(token) <= cur.MAX_CURSOR_CHARS
        tokens.append(token)
        carried = from_cursor(cur.decode(token), PAGES)
        # Never more than was received: delivered pages came whole, unreadable ones came.
        assert carried.delivered <= got.whole
        assert set(carried.unreadable) <= set(got.unreadable)
        assert carried.unrecorded == len(got.whole | set(got.unreadable)) - len(
            carried.delivered | set(carried.unreadable)
        )
    raise AssertionError("the cursors never ended")


@pytest.mark.parametrize(
    "spec",
    [
        None,
        ",".join(map(str, range(1, PAGES + 1, 2)))[:990].rsplit(",", 1)[0],
        "9000-10000,1-500",
    ],
)
def test_a_long_document_is_carried_exactly(spec: str | None) -> None:
    got, tokens = _follow(spec, max_pages=100 if spec else 700)
    assert len(tokens) >= 1
    for token in tokens:
        assert from_cursor(cur.decode(token), PAGES).exact
    last = ledger(SOURCE, cursors=tokens[-1], context=SyntheticContext(_LONG))
    assert last["ledger"]["exact"] is True
    assert last["ledger"]["counts"]["delivered"] <= len(got.whole)


def test_a_shuffled_selection_at_the_smallest_budget_is_inexact_never_wrong() -> None:
    picked = random.Random(25).sample(range(1, PAGES + 1), 150)
    got, tokens = _follow(",".join(map(str, picked)), max_chars=1000)
    last = from_cursor(cur.decode(tokens[-1]), PAGES)
    assert not last.exact  # a random set does not fit the few characters a small cursor has
    small = ledger(SOURCE, cursors=tokens[-1], context=SyntheticContext(_LONG), max_chars=1000)
    assert size(small) <= 1000
    assert small["ledger"]["exact"] is False
    assert small["ledger"]["counts"]["delivered"] == len(last.delivered) < len(got.whole)
    answer = ledger(SOURCE, cursors=tokens[-1], context=SyntheticContext(_LONG))
    assert answer["ledger"]["note"].startswith(f"{last.unrecorded} page(s) delivered could not")
    assert expand(answer["ledger"]["delivered"]) == last.delivered


def test_stepped_runs_round_trip_and_refuse_what_is_outside() -> None:
    rng = random.Random(7)
    for _ in range(200):
        pages = set(rng.sample(range(1, 500), rng.randint(0, 60)))
        pages |= set(range(rng.randint(1, 400), 500, rng.randint(1, 9)))
        assert page_sets.decode(page_sets.encode(pages), 500) == pages
    assert page_sets.encode(range(1, 10_000, 2)) == "1-9999/2"
    for bad in ("0", "5-3", "1-10001", "1-10/4", "x", "1,,2", "1-2/0", "-1"):
        with pytest.raises(ValueError):
            page_sets.decode(bad, 10_000)


# --- forged and foreign cursors -----------------------------------------------------------------

KEY = b"a deployment secret of some length"


def _reseal(token: str, key: bytes | None, reseal_key: bytes | None = None, **extra: str) -> str:
    """``token`` with its ledger fields edited, sealed again with ``reseal_key`` (an attacker's
    key, or none)."""
    payload = cur.unseal(token, key)
    payload["x"] = {**payload.get("x", {}), **extra}
    return cur.seal(payload, reseal_key)


def _code(call: Any) -> str:
    with pytest.raises(PdfthinError) as info:
        call()
    return info.value.code


def test_a_forged_ledger_is_invalid_cursor() -> None:
    def context(key: bytes | None = None) -> Context:
        return SyntheticContext(_LONG, cursor_key=key)

    def read(token: str, key: bytes | None = None) -> Any:
        return read_pages(SOURCE, pages="1-50", max_pages=5, cursor=token, context=context(key))

    token = str(read_pages(SOURCE, pages="1-50", max_pages=5, context=context())["next_cursor"])
    assert read(token)["ledger"]["delivered"] == "1-10"
    forged = {
        "more pages than the position": {"lr": "1-6"},
        "a page outside the document": {"lr": "1-4,10001"},
        "a malformed run": {"lr": "1-5/0"},
        "an unreadable page that did not come": {"lu": "image_only=7"},
        "a page with two reasons": {"lu": "image_only=3;blank=3"},
        "a malformed reason": {"lu": "Image Only=3"},
        "an unknown short reason": {"lu": "Q=3"},
        "a partial page without an offset": {"lp": "6"},
    }
    for why, fields in forged.items():
        bad = _reseal(token, None, **fields)
        assert _code(lambda b=bad: read(b)) == "invalid_cursor", why
        assert _code(lambda b=bad: ledger(SOURCE, cursors=b, context=context())) == (
            "invalid_cursor"
        ), why
    # read_pages knows the selection: a page it has not passed is refused there too.
    outside = _reseal(token, None, lr="1-4,60")
    assert _code(lambda: read(outside)) == "invalid_cursor"
    # With a key, any edit is refused, even one that would be consistent.
    keyed = str(read_pages(SOURCE, pages="1-50", max_pages=5, context=context(KEY))["next_cursor"])
    assert read(keyed, KEY)["ledger"]["delivered"] == "1-10"
    edited = _reseal(keyed, KEY, lr="1-4")
    assert _code(lambda: read(edited, KEY)) == "invalid_cursor"
    assert _code(lambda: ledger(SOURCE, cursors=edited, context=context(KEY))) == "invalid_cursor"
    other_key = _reseal(keyed, KEY, b"another deployment's secret!", lr="1-4")
    assert _code(lambda: read(other_key, KEY)) == "invalid_cursor"


def test_a_cursor_of_another_document_or_operation_is_refused(mixed: bytes) -> None:
    token = read_pages(SOURCE, pages="1-50", max_pages=5, context=SyntheticContext(_LONG))
    other = token["next_cursor"]
    assert other
    assert _code(lambda: ledger(mixed, cursors=other, context=Context())) == "invalid_cursor"
    found = find_in_document(mixed, "Line", max_results=1, context=Context())
    assert found["next_cursor"]
    refused = found["next_cursor"]
    assert _code(lambda: ledger(mixed, cursors=refused, context=Context())) == "invalid_cursor"
    assert _code(lambda: ledger(mixed, cursors="not a cursor!", context=Context())) == (
        "invalid_argument"
    )
    many = " ".join([str(other)] * 65)
    assert _code(lambda: ledger(mixed, cursors=many, context=Context())) == "invalid_argument"


# --- the other surfaces -------------------------------------------------------------------------


def test_the_command_line_prints_the_ledger(
    mixed: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pdfthin.adapters.cli import main

    path = tmp_path / "mixed.pdf"
    path.write_bytes(mixed)
    token = read_pages(mixed, max_pages=2, context=Context())["next_cursor"]
    assert token
    assert main(["ledger", str(path), "--cursors", token]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 page(s) delivered in full;")
    assert "delivered: 2 (1-2)" in out
    assert "unreadable (image_only): 3,6-7" in out
    assert f"or continue: --cursor {token}" in out
    assert main(["ledger", str(path), "--cursors", token, "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(json.dumps(ledger(mixed, cursors=token, context=Context())))
    assert main(["ledger", str(path), "--cursors", token[:-2] + "AA"]) == 1
    assert "cursor" in capsys.readouterr().err


def test_the_browser_bridge_answers_as_the_operation(mixed: bytes) -> None:
    from pdfthin.adapters import browser

    handle = browser.open_document(mixed)
    first = json.loads(browser.call("read", handle, json.dumps({"max_pages": 3})))
    token = first["next_cursor"]
    answer = json.loads(browser.call("ledger", handle, json.dumps({"cursors": token})))
    expected = json.loads(json.dumps(ledger(mixed, cursors=token, context=Context())))
    assert answer == expected
    assert answer["ledger"]["delivered"] == first["ledger"]["delivered"] == "1-2"


def test_the_ledger_is_never_more_than_what_format_pages_names() -> None:
    # The lists an answer shows are plain selections (no stepped runs) an agent can pass back.
    r = read_pages(SOURCE, pages="1-3", context=SyntheticContext(_LONG))
    assert r["ledger"]["delivered"] == format_pages([1, 2, 3])


def test_a_cursor_without_a_ledger_gives_an_inexact_one_never_a_claim() -> None:
    """A cursor issued before cursors carried a ledger: its position is all there is."""
    doc = SyntheticContext(_LONG).document(SOURCE, None)
    token = cur.encode(
        cur.Cursor(
            op="read",
            fingerprint=cur.fingerprint_prefix(doc.fingerprint),
            ocr=False,
            args=cur.args_digest(op="read", pages="1-50"),
            index=4,
        )
    )
    r = read_pages(SOURCE, pages="1-50", max_pages=2, cursor=token, context=SyntheticContext(_LONG))
    assert r["ledger"]["delivered"] == "5-6"
    assert r["ledger"]["exact"] is False
    assert r["ledger"]["note"].startswith("4 page(s) delivered could not be recorded")
    answer = ledger(SOURCE, cursors=r["next_cursor"], context=SyntheticContext(_LONG))
    assert answer["ledger"]["delivered"] == "5-6" and answer["ledger"]["exact"] is False


#: Every reason code a page that could not be read may carry (docs/api.md, "Page statuses").
_CODES = [
    ("needs_ocr", "image_only"),
    ("needs_ocr", "vector_only"),
    ("needs_ocr", "unmapped_glyphs"),
    ("needs_ocr", "symbols_only"),
    ("needs_ocr", "scan_with_sparse_text"),
    ("needs_ocr", "hidden_only"),
    ("needs_ocr", "limit_reached"),
    ("text", "partial"),
]


def test_many_reason_codes_and_cut_pages_keep_the_smallest_budget() -> None:
    """A ledger naming every reason code, with a page cut, at the smallest budget: the page
    lists give way (counts stay), and the page text gives way to the ledger, never the budget."""
    doc = document(["text"] * 120, lambda n: f"words of page {n} " * (4 + n % 50))
    for n, (status, code) in zip(range(5, 120, 9), _CODES * 3, strict=False):
        doc.pages[n - 1].status, doc.pages[n - 1].reason_code = status, code
    got = Received()
    exact_to = 0
    token = None
    for _ in range(2_000):
        r = read_pages(SOURCE, cursor=token, max_chars=1000, context=SyntheticContext(doc))
        assert size(r) <= 1000
        got.add(dict(r))
        counts = r["ledger"]["counts"]
        # Never more than came; exactly what came while the cursor could record it all.
        assert counts["delivered"] <= len(got.whole)
        assert counts["unreadable"] <= len(got.unreadable)
        if r["ledger"]["exact"]:
            assert counts["delivered"] == len(got.whole)
            assert counts["unreadable"] == len(got.unreadable)
            exact_to = max(got.whole | set(got.unreadable))
        token = r["next_cursor"]
        if token is None:
            break
    assert token is None
    assert len(set(got.unreadable.values())) == len(_CODES)
    # Short reason codes keep a small budget's ledger exact past five pages of five codes
    # (written whole, the second code would not have fitted).
    assert exact_to >= 41


@settings(max_examples=25, deadline=None)
@given(
    kinds=st.lists(
        st.sampled_from(["text", "text", "needs_ocr", "unmapped", "partial", "empty"]),
        min_size=1,
        max_size=40,
    ),
    lengths=st.lists(st.integers(0, 3_000), min_size=40, max_size=40),
    budget=st.integers(1_000, 3_000),
    seed=st.integers(0, 10**6),
)
def test_any_document_and_budget_keep_the_budget_and_never_overclaim(
    kinds: list[str], lengths: list[int], budget: int, seed: int
) -> None:
    def text(n: int) -> str | None:
        return ("é\\n" + "w" * lengths[n - 1]) if kinds[n - 1] in ("text", "partial") else None

    doc = document(kinds, text)
    pages = list(range(1, len(kinds) + 1))
    random.Random(seed).shuffle(pages)
    spec = ",".join(map(str, pages[: max(1, len(pages) // 2 + seed % len(pages))]))
    got = Received()
    token = None
    for _ in range(2_000):
        r = read_pages(
            SOURCE, pages=spec, cursor=token, max_chars=budget, context=SyntheticContext(doc)
        )
        assert size(r) <= budget
        got.add(dict(r))
        counts = r["ledger"]["counts"]
        assert counts["delivered"] <= len(got.whole)
        assert counts["unreadable"] <= len(got.unreadable)
        if r["ledger"]["exact"]:
            assert counts["delivered"] == len(got.whole)
        token = r["next_cursor"]
        if token is None:
            break
        carried = from_cursor(cur.decode(token), len(kinds))
        assert carried.delivered <= got.whole
        assert set(carried.unreadable) <= set(got.unreadable)
    assert token is None


# --- with OCR -----------------------------------------------------------------------------------


class _Raster:
    def render(self, pdf: bytes, pages: list[int], dpi: int, signal: Any) -> list[dict[str, Any]]:
        return [{"page": p, "image": b"x", "media_type": "image/png"} for p in pages]


class _Recognizer:
    """Reads "recognised words" on every page but those of ``blind``."""

    name = "fake"

    def __init__(self, blind: set[int]) -> None:
        self.blind = blind

    def recognize(self, pages: list[dict[str, Any]], signal: Any) -> list[dict[str, Any]]:
        return [
            {"page": i["page"], "markdown": "" if i["page"] in self.blind else "recognised words"}
            for i in pages
        ]


def test_pages_read_by_ocr_are_delivered_and_pages_it_could_not_read_are_not() -> None:
    from pdfthin.ocr import OcrBinding

    doc = document(["text", "needs_ocr", "needs_ocr", "text", "needs_ocr"])
    binding = OcrBinding(_Raster(), _Recognizer({3}), max_pages_per_call=10)

    def context() -> Context:
        return SyntheticContext(doc, ocr=binding)

    first = read_pages(SOURCE, ocr=True, max_pages=2, context=context())
    second = read_pages(
        SOURCE, ocr=True, max_pages=2, cursor=first["next_cursor"], context=context()
    )
    assert [e["status"] for e in first["pages"] + second["pages"]] == [
        "text",
        "ocr",
        "needs_ocr",
        "text",
    ]
    assert second["ledger"]["delivered"] == "1-2,4"
    assert second["ledger"]["unreadable"] == {"image_only": "3"}
    # The same pages read without OCR: page 2 could not be read there; merged, OCR's reading
    # stands (a page delivered anywhere is delivered).
    plain = read_pages(SOURCE, max_pages=4, context=SyntheticContext(doc))
    tokens = f"{plain['next_cursor']} {second['next_cursor']}"
    merged = ledger(SOURCE, cursors=tokens, context=context())["ledger"]
    assert merged["delivered"] == "1-2,4"
    assert merged["unreadable"] == {"image_only": "3,5"}
