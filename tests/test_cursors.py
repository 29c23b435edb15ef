"""Cursors (issue 18, item 9): every cursor the server issues is one it accepts, whatever the
selection; cursors resume in any process with the same configuration; the checksum guards
against corruption only, and a deployment key (``PDFTHIN_CURSOR_KEY``) guards against forgery.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from synthetic import SOURCE, SyntheticContext, document

from pdfthin.errors import PdfthinError
from pdfthin.ocr import OcrBinding, Signal
from pdfthin.operations import Context, find_in_document, read_pages
from pdfthin.operations import cursor as cur
from pdfthin.pages import parse_pages

PAGES = 10_000


@pytest.fixture(scope="module")
def big() -> Any:
    return _BIG


def _every_other(start: int, limit: int = 10_000) -> str:
    """Every other page from ``start``, as many as a selection string may hold."""
    parts: list[str] = []
    size = 0
    for n in range(start, PAGES + 1, 2):
        size += len(str(n)) + 1
        if size > limit:
            break
        parts.append(str(n))
    return ",".join(parts)


ADVERSARIAL = {
    "every-other-page": _every_other(1),
    "every-other-page-from-the-end": ",".join(reversed(_every_other(2).split(","))),
    "every-third-page": ",".join(str(n) for n in range(1, PAGES, 3))[:9_990].rsplit(",", 1)[0],
    "ranges-cut-by-earlier-pages": ",".join(str(n) for n in range(2, 3_000, 2)) + ",1-10000",
    "one-page-then-the-rest": "10000,1-9999",
    "shuffled": ",".join(map(str, random.Random(18).sample(range(1, PAGES + 1), 1_900))),
}


def _follow_read(
    pages: str | None, make_context: Any, **kwargs: Any
) -> tuple[list[int], list[str]]:
    """Every page a read returns, following each cursor in a fresh context (another process),
    and every cursor issued."""
    seen: list[int] = []
    tokens: list[str] = []
    cursor = None
    for _ in range(10_000):
        r = read_pages(SOURCE, pages=pages, cursor=cursor, context=make_context(), **kwargs)
        seen.extend(p["page"] for p in r["pages"])
        cursor = r["next_cursor"]
        if cursor is None:
            return seen, tokens
        tokens.append(cursor)
    raise AssertionError("the cursors never ended")


@pytest.mark.parametrize("name", list(ADVERSARIAL))
def test_every_cursor_of_a_sparse_selection_is_short_and_resumes(big: Any, name: str) -> None:
    spec = ADVERSARIAL[name]
    selection = parse_pages(spec, PAGES)
    seen, tokens = _follow_read(spec, lambda: SyntheticContext(big), max_pages=400)
    assert seen == selection
    assert tokens
    longest = max(len(t) for t in tokens)
    assert longest <= cur.MAX_CURSOR_CHARS, longest


_BIG = document(["text"] * PAGES)


@settings(max_examples=40, deadline=None)
@given(
    pages=st.lists(st.integers(1, PAGES), min_size=1, max_size=1_500),
    step=st.integers(1, 700),
)
def test_any_selection_gives_cursors_the_server_accepts(pages: list[int], step: int) -> None:
    doc = _BIG
    spec = ",".join(map(str, pages))
    seen, tokens = _follow_read(spec, lambda: SyntheticContext(doc), max_pages=step)
    assert seen == list(dict.fromkeys(pages))
    assert all(len(t) <= cur.MAX_CURSOR_CHARS for t in tokens)


def test_the_largest_cursor_any_field_allows_fits() -> None:
    """Every field of a cursor is bounded, so no cursor can outgrow the limit (``encode``
    refuses to issue one that would)."""
    rng = random.Random(9)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    noise = "".join(rng.choice(alphabet) for _ in range(cur.MAX_EXTRA_CHARS))
    largest = cur.Cursor(
        op="images",
        fingerprint="f" * 16,
        ocr=True,
        args="f" * 12,
        index=10**9 - 1,
        offset=10**9 - 1,
        page_hash="f" * 12,
        extra={"u": noise},
    )
    for key in (None, b"k" * 64):
        token = cur.encode(largest, key)
        assert len(token) <= cur.MAX_CURSOR_CHARS
        assert cur.decode(token, key) == largest


@settings(max_examples=300, deadline=None)
@given(
    index=st.integers(0, 10**9 - 1),
    offset=st.integers(0, 10**9 - 1),
    page_hash=st.text("0123456789abcdef", min_size=12, max_size=12),
    keyed=st.booleans(),
)
def test_room_kept_for_the_cursor_holds_any_cursor(
    index: int, offset: int, page_hash: str, keyed: bool
) -> None:
    """The room a response keeps for its cursor (:meth:`Pager.longest`) is never shorter than
    the cursor issued, whatever its values do to its compression (the old estimate, made from
    repeated digits and letters that compress well, was up to 21 characters short)."""
    from pdfthin.operations.paging import Pager

    key = b"k" * 32 if keyed else None
    pager = Pager(
        "read", document(["text"] * 3), cur.args_digest(op="read", pages="1-3"), None, key
    )
    room = pager.longest(10**9 - 1, offset=True, page_hash=True)
    assert len(pager.cursor(index, offset, page_hash)) <= room


# --- OCR coverage carried in a find cursor ----------------------------------------------------


class _Raster:
    def __init__(self) -> None:
        self.calls: list[list[int]] = []

    def render(
        self, pdf: bytes, pages: list[int], dpi: int, signal: Signal
    ) -> list[dict[str, Any]]:
        self.calls.append(list(pages))
        return [{"page": p, "image": b"x", "media_type": "image/png"} for p in pages]


class _Recognizer:
    """Reads nothing on the pages of ``blind``; "needle" on the last pages, "hay" elsewhere."""

    name = "fake"

    def __init__(self, blind: set[int], last: int) -> None:
        self.blind = blind
        self.last = last

    def recognize(self, pages: list[dict[str, Any]], signal: Signal) -> list[dict[str, Any]]:
        out = []
        for item in pages:
            n = item["page"]
            text = "" if n in self.blind else ("needle" if n > self.last - 3 else "hay")
            out.append({"page": n, "markdown": text})
        return out


def _ocr_context(doc: Any, blind: set[int]) -> tuple[SyntheticContext, _Raster]:
    raster = _Raster()
    binding = OcrBinding(raster, _Recognizer(blind, doc.page_count), max_pages_per_call=10**6)
    return SyntheticContext(doc, ocr=binding), raster


@pytest.mark.parametrize("pages", [12_000, 18_000], ids=["bitmap-fits", "bitmap-too-long"])
def test_ocr_coverage_carried_in_a_find_cursor(pages: int) -> None:
    """A search with OCR over thousands of scanned pages, OCR failing on a random half: the
    cursor (after the first match, at the end) stays within the limit, and a fresh process
    resuming it reports the coverage the issuing process would, or, when the pages OCR could
    not read are too many to carry, less than it (never a page claimed searched that was not)."""
    doc = document(["needs_ocr"] * pages)
    blind = {n for n in range(1, pages + 1) if random.Random(n).random() < 0.5}
    blind -= {pages - 2, pages - 1, pages}
    warm, _ = _ocr_context(doc, blind)
    # A budget that holds the coverage's page lists whole (thousands of scattered pages; a
    # smaller one cuts them, tests/test_unreadable.py).
    budget = 1_000_000
    first = find_in_document(
        SOURCE, "needle", ocr=True, max_results=1, max_chars=budget, context=warm
    )
    token = first["next_cursor"]
    assert token and len(token) <= cur.MAX_CURSOR_CHARS
    assert cur.decode(token).index == pages - 1
    again = find_in_document(
        SOURCE, "needle", ocr=True, max_results=1, cursor=token, max_chars=budget, context=warm
    )
    cold_context, raster = _ocr_context(doc, blind)
    cold = find_in_document(
        SOURCE,
        "needle",
        ocr=True,
        max_results=1,
        cursor=token,
        max_chars=budget,
        context=cold_context,
    )
    assert raster.calls == [[pages - 1, pages]]  # only the pages from the cursor on
    assert cold["matches"] == again["matches"] and [m["page"] for m in cold["matches"]] == [
        pages - 1
    ]
    warm_searched = _expand(again["coverage"]["pages_searched"])
    cold_searched = _expand(cold["coverage"]["pages_searched"])
    warm_missing = _expand(again["coverage"]["pages_needing_ocr"])
    cold_missing = _expand(cold["coverage"]["pages_needing_ocr"])
    assert warm_missing == blind
    if pages == 12_000:
        assert cold["coverage"] == again["coverage"]
    else:
        assert cold_searched <= warm_searched and cold_missing >= warm_missing
        assert cold_missing == set(range(1, pages - 1))  # all before the cursor: under-claimed
    assert cold["coverage"]["complete"] is False


def _expand(spec: str) -> set[int]:
    out: set[int] = set()
    for part in filter(None, spec.split(",")):
        first, _, last = part.partition("-")
        out.update(range(int(first), int(last or first) + 1))
    return out


# --- the checksum and the key -----------------------------------------------------------------

KEY = b"a deployment secret of some length"


def _pdf_context(key: bytes | None) -> Context:
    return SyntheticContext(_BIG, cursor_key=key)


def _first_cursor(key: bytes | None) -> str:
    token = read_pages(SOURCE, pages="1-20", max_pages=2, context=_pdf_context(key))["next_cursor"]
    assert token
    return str(token)


def _code(call: Any) -> str:
    with pytest.raises(PdfthinError) as info:
        call()
    return info.value.code


def _reseal(token: str, key: bytes | None, **changes: Any) -> str:
    payload = cur.unseal(token, key)
    payload.update(changes)
    return cur.seal(payload, key)


def test_without_a_key_the_checksum_catches_corruption_not_forgery() -> None:
    token = _first_cursor(None)

    def read(t: str) -> dict[str, Any]:
        return read_pages(SOURCE, pages="1-20", max_pages=2, cursor=t, context=_pdf_context(None))

    assert [p["page"] for p in read(token)["pages"]] == [3, 4]
    for damaged in (token[:-1], token[:8] + ("A" if token[8] != "A" else "B") + token[9:]):
        assert _code(lambda d=damaged: read(d)) == "invalid_cursor"
    # Anyone can recompute the checksum: an edited cursor is a position in the same result set.
    edited = _reseal(token, None, i=10)
    assert [p["page"] for p in read(edited)["pages"]] == [11, 12]
    # Still only a position: past the end of the selection, or another document, is refused.
    assert _code(lambda: read(_reseal(token, None, i=20))) == "invalid_cursor"
    assert _code(lambda: read(_reseal(token, None, f="0" * 16))) == "invalid_cursor"


def test_with_a_key_an_edited_or_foreign_cursor_is_invalid() -> None:
    token = _first_cursor(KEY)

    def read(t: str, key: bytes | None = KEY) -> dict[str, Any]:
        return read_pages(SOURCE, pages="1-20", max_pages=2, cursor=t, context=_pdf_context(key))

    assert [p["page"] for p in read(token)["pages"]] == [3, 4]
    other_key = b"another deployment's secret!"
    forged = {
        "edited, resealed without a key": cur.seal({**cur.unseal(token, KEY), "i": 10}, None),
        "edited, resealed with another key": cur.seal(
            {**cur.unseal(token, KEY), "i": 10}, other_key
        ),
        "issued without a key": _first_cursor(None),
        "issued under another key": _first_cursor(other_key),
        "a flipped character": token[:8] + ("A" if token[8] != "A" else "B") + token[9:],
    }
    for what, bad in forged.items():
        assert _code(lambda b=bad: read(b)) == "invalid_cursor", what
    # And a keyed cursor is refused where no key is configured.
    assert _code(lambda: read(token, None)) == "invalid_cursor"
    # A process with the same key continues it (invariant 5).
    assert [p["page"] for p in read(_reseal(token, KEY, i=10))["pages"]] == [11, 12]


@pytest.mark.parametrize(
    ("value", "expected"),
    [("", None), ("   ", None), ("x" * 16, b"x" * 16), ("  " + "k" * 40 + "\n", b"k" * 40)],
)
def test_the_key_comes_from_the_environment(value: str, expected: bytes | None) -> None:
    assert cur.key_from_env({cur.KEY_ENV: value}) == expected
    assert cur.key_from_env({}) is None


def test_a_short_key_is_refused_where_configuration_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(ValueError, match=cur.KEY_ENV):
        cur.key_from_env({cur.KEY_ENV: "short"})
    from pdfthin.adapters.aws.config import Config

    with pytest.raises(ValueError, match=cur.KEY_ENV):
        Config.from_env({cur.KEY_ENV: "short"})
    assert Config.from_env({cur.KEY_ENV: "k" * 20}).cursor_key == b"k" * 20
    monkeypatch.setenv(cur.KEY_ENV, "k" * 20)
    assert Context().cursor_key == b"k" * 20
    from pdfthin.adapters.cli import main

    monkeypatch.setenv(cur.KEY_ENV, "short")
    assert main(["describe", "missing.pdf"]) == 2


def test_a_cursor_of_the_previous_version_is_refused_plainly() -> None:
    old = cur.seal({"v": 1, "o": "read", "f": "0" * 16, "r": 0, "a": "0" * 12, "p": "1-3"}, None)
    with pytest.raises(PdfthinError) as info:
        cur.decode(old)
    assert info.value.code == "invalid_cursor" and "version" in info.value.message


# --- listing cursors (the MCP server's list_documents) ----------------------------------------


def test_a_listing_cursor_at_the_deepest_longest_path_is_accepted(tmp_path: Any) -> None:
    """Names of 255 bytes of random three-byte characters, as deep as a listing descends: the
    cursor that stops there is within the limit the server (and its tool schema) accepts, and
    it resumes at the next file."""
    import os

    from pdfthin.adapters.mcp.sandbox import (
        MAX_DEPTH,
        MAX_LISTING_CURSOR_CHARS,
        MAX_NAME_BYTES,
        Sandbox,
    )
    from pdfthin.adapters.mcp.tools import BY_NAME

    rng = random.Random(11)

    def name(suffix: str = "") -> str:
        chars = (MAX_NAME_BYTES - len(suffix)) // 3
        return "".join(chr(rng.randrange(0x4E00, 0x9FFF)) for _ in range(chars)) + suffix

    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        for _ in range(MAX_DEPTH):  # beyond PATH_MAX: made one directory at a time
            child = name()
            os.mkdir(child, dir_fd=fd)
            next_fd = os.open(child, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = next_fd
        files = sorted(name(".pdf") for _ in range(2))
        for file in files:
            out = os.open(file, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
            os.write(out, b"%PDF-1.4\n")
            os.close(out)
    finally:
        os.close(fd)
    box = Sandbox(tmp_path, max_file_bytes=1000)
    first = box.list_documents(max_results=1)
    token = first["next_cursor"]
    assert token and len(token) <= MAX_LISTING_CURSOR_CHARS
    param = next(p for p in BY_NAME["list_documents"].params if p.name == "cursor")
    assert param.check(token) == token
    second = box.list_documents(max_results=1, cursor=token)
    paths = [d["path"].rsplit("/", 1)[-1] for d in first["documents"] + second["documents"]]
    assert paths == files


def test_an_adapter_decodes_a_cursor_once_and_leaves_a_bad_one_to_the_operation() -> None:
    """``paging.decoded``: what the MCP server and the Lambda handler do before running an
    operation more than once for one call. The decoded cursor resumes exactly where the token
    does; a token that does not decode stays a string, and the operation refuses it."""
    from pdfthin.operations.paging import decoded

    context = _pdf_context(KEY)
    token = _first_cursor(KEY)
    arguments = decoded({"pages": "1-20", "max_pages": 2, "cursor": token}, KEY)
    assert isinstance(arguments["cursor"], cur.Cursor)
    again = read_pages(SOURCE, **arguments, context=context)
    assert again == read_pages(SOURCE, pages="1-20", max_pages=2, cursor=token, context=context)
    assert [p["page"] for p in again["pages"]] == [3, 4]
    assert decoded({"cursor": "garbage"}, KEY) == {"cursor": "garbage"}
    with pytest.raises(PdfthinError) as info:
        read_pages(SOURCE, **decoded({"cursor": "garbage"}, KEY), context=context)
    assert info.value.code == "invalid_cursor"
