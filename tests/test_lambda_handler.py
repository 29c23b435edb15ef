"""The Lambda handler in process: event shapes, dispatch, status codes, every error code, the
payload limit, the deadline, configuration. (S3 is in test_lambda_s3.py; the real runtime client
in test_lambda_runtime.py.)"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from annotated import annotated_pdf
from lambda_support import (
    EVENT_SHAPES,
    b64,
    check_http_response,
    escaped_pdf,
    function_url_event,
    report_pdf,
    rest_api_event,
    text_pdf,
)
from pdfbuilder import PdfBuilder, encrypt

from pdfthin.adapters.aws import handler as handler_module
from pdfthin.adapters.aws.config import Bucket, Config, parse_buckets
from pdfthin.adapters.aws.events import DIRECT, HTTP_V1, HTTP_V2, kind_of, payload_bytes
from pdfthin.adapters.aws.handler import OPERATIONS, STATUS, LambdaApp
from pdfthin.errors import ERROR_CODES
from pdfthin.operations import (
    Context,
    describe_document,
    diff_documents,
    extract_schema,
    find_in_document,
    get_annotations,
    get_chunks,
    get_info,
    get_toc,
    ledger,
    list_images,
    peek,
    read_pages,
    read_section,
    resolve_anchor,
    search_chunks,
    verify_quote,
)
from pdfthin.operations import cursor as cur
from pdfthin.operations.response import dumps

REPORT = report_pdf("alpha")
OTHER = report_pdf("beta")


class FakeLambdaContext:
    """What awslambdaric passes: only the remaining time matters to the handler."""

    def __init__(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds

    def get_remaining_time_in_millis(self) -> int:
        return int((self.deadline - time.monotonic()) * 1000)


#: Documents with at least this many pages are "slow" in the deadline tests below.
SLOW_PAGES = 150


@pytest.fixture
def slow_extraction(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A document of SLOW_PAGES pages or more takes a second longer to extract, whichever
    engine reads it (the native one reads 150 pages within a short deadline): a second that
    nothing interrupts, as a step of the engine that checks no deadline."""
    from pdfthin.engine import gcpause
    from pdfthin.operations import context as context_module

    original = context_module.build_document

    def slowed(engine: Any, **kwargs: Any) -> Any:
        if engine.page_count >= SLOW_PAGES:
            time.sleep(1.0)
        return original(engine, **kwargs)

    monkeypatch.setattr(context_module, "build_document", slowed)
    yield
    # An extraction the test left at its deadline stops once the second is over, and the
    # collector it paused is back on (before the next test, which may count on it).
    end = time.monotonic() + 5
    while gcpause._depth and time.monotonic() < end:
        time.sleep(0.01)
    assert gcpause._depth == 0


@pytest.fixture
def app() -> LambdaApp:
    return LambdaApp(Config())


def image_pdf() -> bytes:
    """One page, two images: a Flate grey image and one with an unknown filter."""
    b = PdfBuilder()
    gray = b.image_xobject(8, 8, flate=True)
    odd = b.image_xobject(4, 4, b"xxxx", filter="/FooDecode")
    content = b"q 100 0 0 100 50 600 cm /A Do Q q 100 0 0 100 50 400 cm /B Do Q"
    b.add_page(content, {"XObject": {"A": gray, "B": odd}})
    return b.build()


def http(
    app: LambdaApp, shape: str, request: Any, lambda_context: Any = None, **kw: Any
) -> tuple[int, dict, dict]:
    return check_http_response(app(EVENT_SHAPES[shape](request, **kw), lambda_context))


#: Lambda's deadline 1.05 s away: the handler answers ``timeout`` after 0.05 s.
def nearly_out() -> FakeLambdaContext:
    return FakeLambdaContext(1.05)


# --- event shapes -------------------------------------------------------------------------------


def test_event_kinds() -> None:
    assert kind_of(function_url_event({})) == HTTP_V2
    assert kind_of(EVENT_SHAPES["http_api"]({})) == HTTP_V2
    assert kind_of(rest_api_event({})) == HTTP_V1
    assert kind_of({"operation": "read_pages"}) == DIRECT
    assert kind_of("text") == DIRECT


@pytest.mark.parametrize("shape", sorted(EVENT_SHAPES))
@pytest.mark.parametrize("base64_body", [False, True])
def test_every_http_shape_answers_as_the_operation_does(
    app: LambdaApp, shape: str, base64_body: bool
) -> None:
    request = {"operation": "read_pages", "document": b64(REPORT), "pages": "2-3"}
    status, headers, body = http(app, shape, request, base64_body=base64_body)
    assert status == 200
    assert headers["cache-control"] == "no-store"
    assert body == read_pages(REPORT, pages="2-3", context=Context())
    assert [p["page"] for p in body["pages"]] == [2, 3]
    assert body["pages"][0]["markdown"].startswith("Chapter 2 of alpha")


def test_direct_invocation_returns_the_response_itself(app: LambdaApp) -> None:
    request = {"operation": "describe_document", "document": b64(REPORT)}
    assert app(request, None) == describe_document(REPORT, context=Context())
    error = app({"operation": "describe_document", "document": b64(b"hello")}, None)
    assert error["error"]["code"] == "not_a_pdf"


def test_the_module_handler_is_one_app_per_container() -> None:
    request = {"operation": "get_info", "document": b64(REPORT)}
    first = handler_module.handler(request, None)
    assert first["document"]["page_count"] == 6
    # The warm container's cache now holds the document, under its fingerprint.
    assert handler_module.APP.context.cache.get(first["document"]["fingerprint"]) is not None
    assert handler_module.handler(request, None) == first


def test_every_operation_with_its_arguments(app: LambdaApp) -> None:
    doc = b64(REPORT)
    images = image_pdf()
    ctx = Context()
    cases = [
        ("describe_document", {}, describe_document(REPORT, context=ctx)),
        ("get_info", {}, get_info(REPORT, context=ctx)),
        (
            "read_pages",
            {"pages": 4, "max_chars": 2000},
            read_pages(REPORT, pages=4, max_chars=2000),
        ),
        (
            "find_in_document",
            {"query": "page 5 in alpha", "max_results": 3, "case_sensitive": True},
            find_in_document(REPORT, "page 5 in alpha", max_results=3, case_sensitive=True),
        ),
        ("get_toc", {"max_chars": 5000}, get_toc(REPORT, max_chars=5000)),
        ("read_section", {}, read_section(REPORT)),
        ("peek", {"position": "ending", "limit": 80}, peek(REPORT, position="ending", limit=80)),
        (
            "get_chunks",
            {"max_tokens": 60, "stitch": False, "max_chars": 3000},
            get_chunks(REPORT, max_tokens=60, stitch=False, max_chars=3000),
        ),
        (
            "search_chunks",
            {"query": "gamma delta page 3", "top_k": 2},
            search_chunks(REPORT, "gamma delta page 3", top_k=2),
        ),
    ]
    verified = verify_quote(REPORT, "page 5 in alpha", page=5, context=ctx)
    cases += [
        ("verify_quote", {"quote": "page 5 in alpha", "page": 5}, verified),
        (
            "resolve_anchor",
            {"anchor": verified["match"]["anchor"]},
            resolve_anchor(REPORT, verified["match"]["anchor"], context=ctx),
        ),
    ]
    cut = read_pages(REPORT, max_chars=1000, context=ctx)
    assert cut["next_cursor"]
    cases.append(
        (
            "ledger",
            {"cursors": cut["next_cursor"]},
            ledger(REPORT, cursors=cut["next_cursor"], context=ctx),
        )
    )
    schema = {"type": "object", "properties": {"alpha": {"type": "string"}}}
    cases.append(
        ("extract_schema", {"schema": schema}, extract_schema(REPORT, schema=schema, context=ctx))
    )
    # diff_documents: its second document is a document object too.
    differs = diff_documents(REPORT, new=OTHER, max_chars=3000, context=ctx)
    assert differs["counts"]["changed"]
    assert differs["document"]["fingerprint"] != differs["new"]["fingerprint"]
    cases.append(("diff_documents", {"new": b64(OTHER), "max_chars": 3000}, differs))
    for operation, arguments, expected in cases:
        assert app({"operation": operation, "document": doc, **arguments}, None) == expected
    listing = app({"operation": "list_images", "document": b64(images)}, None)
    assert listing == list_images(images)
    assert [i["id"] for i in listing["images"]] == ["p1-x3", "p1-x4"]
    image = app({"operation": "get_image", "document": b64(images), "image_id": "p1-x3"}, None)
    assert image["media_type"] == "image/png" and image["encoding"] == "base64"
    marked = annotated_pdf()
    request = {"operation": "get_annotations", "document": b64(marked), "kinds": "link"}
    links = app({**request, "max_chars": 1000}, None)
    assert links == get_annotations(marked, kinds="link", max_chars=1000, context=Context())
    assert links["annotations"][0]["uri"] == "https://example.com/project"
    assert set(OPERATIONS) == {
        "describe_document",
        "read_pages",
        "find_in_document",
        "get_toc",
        "read_section",
        "peek",
        "get_info",
        "list_images",
        "get_image",
        "get_chunks",
        "inspect_layout",
        "search_chunks",
        "get_annotations",
        "get_form_fields",
        "extract_schema",
        "verify_quote",
        "resolve_anchor",
        "ledger",
        "render_citation",
        "diff_documents",
        "get_page_image",
        "submit_transcription",
    }


def test_the_agent_as_ocr_on_lambda(app: LambdaApp) -> None:
    from test_agent_ocr import scan_pdf

    scan = b64(scan_pdf())
    shown = app({"operation": "get_page_image", "document": scan, "page": 1}, None)
    assert shown["source"] == "embedded_image" and shown["encoding"] == "base64"
    given = app(
        {"operation": "submit_transcription", "document": scan, "page": 1, "text": "words"}, None
    )
    assert (given["status"], given["provenance"]) == ("ocr", "agent")


def test_null_arguments_count_as_absent(app: LambdaApp) -> None:
    request = {"operation": "read_pages", "document": b64(REPORT), "pages": None, "cursor": None}
    assert len(app(request, None)["pages"]) == 6


def test_line_wrapped_base64_is_accepted(app: LambdaApp) -> None:
    text = b64(REPORT)["base64"]
    wrapped = "\n".join(text[i : i + 76] for i in range(0, len(text), 76))
    request = {"operation": "get_info", "document": {"base64": wrapped}}
    assert app(request, None)["document"]["page_count"] == 6


# --- cursors ------------------------------------------------------------------------------------


def test_a_cursor_continues_in_a_cold_container() -> None:
    """Two apps share nothing (as two containers): the second one continues the first one's
    cursor, and the pages come out exactly as one container reading on gives them."""
    doc = b64(REPORT)
    warm = LambdaApp(Config())

    def walk(apps: list[LambdaApp]) -> list[dict[str, Any]]:
        responses, cursor, step = [], None, 0
        while True:
            request = {"operation": "read_pages", "document": doc, "max_chars": 1500}
            if cursor:
                request["cursor"] = cursor
            response = apps[step % len(apps)](request, None)
            responses.append(response)
            cursor = response["next_cursor"]
            step += 1
            if not cursor:
                return responses

    one = walk([warm])
    alternating = walk([LambdaApp(Config()), LambdaApp(Config())])
    assert alternating == one
    assert len(one) > 6  # pages came in parts
    text = "".join(p["markdown"] for r in one for p in r["pages"])
    whole = "".join(p["markdown"] for p in read_pages(REPORT, max_chars=100_000)["pages"])
    assert text == whole


def test_a_cursor_for_another_document_is_invalid(app: LambdaApp) -> None:
    token = app({"operation": "read_pages", "document": b64(REPORT), "max_chars": 1500}, None)[
        "next_cursor"
    ]
    request = {"operation": "read_pages", "document": b64(OTHER), "cursor": token}
    status, _, body = http(app, "function_url", request)
    assert (status, body["error"]["code"]) == (400, "invalid_cursor")


# --- errors and status codes --------------------------------------------------------------------


def test_every_error_code_has_a_status() -> None:
    assert set(STATUS) == ERROR_CODES
    assert STATUS["encrypted"] == 403  # a request argument, not HTTP authentication


def test_every_error_code_over_http(monkeypatch: pytest.MonkeyPatch, slow_extraction: None) -> None:
    app = LambdaApp(Config(max_file_bytes=1_000_000, buckets=(Bucket("docs"),)))
    doc = b64(REPORT)
    fingerprint = describe_document(REPORT)["document"]["fingerprint"]
    stale = cur.encode(
        cur.Cursor(
            op="read",
            fingerprint=cur.fingerprint_prefix(fingerprint),
            ocr=False,
            args=cur.args_digest(op="read", pages="1-6"),
            offset=5,
            page_hash="0" * 12,
        )
    )
    seen: dict[str, int] = {}

    def expect(code: str, request: Any, shape: str = "function_url", **kw: Any) -> dict:
        status, headers, body = http(app, shape, request, **kw)
        assert body["error"]["code"] == code, (request, body)
        assert set(body["error"]) == {"code", "message", "details"}
        assert "\n" not in body["error"]["message"]
        assert status == STATUS[code], (code, status)
        seen[code] = status
        return {"headers": headers, **body["error"]}

    images = b64(image_pdf())
    expect("invalid_pages", {"operation": "read_pages", "document": doc, "pages": "0"})
    error = expect("invalid_pages", {"operation": "read_pages", "document": doc, "pages": "5-9"})
    assert "6 pages" in error["message"]
    for request in (
        {"operation": "read_pages", "document": doc, "bogus": 1},
        {"operation": "no_such_operation", "document": doc},
        {"document": doc},
        {"operation": "read_pages"},
        {"operation": "read_pages", "document": {"path": "/etc/passwd"}},
        {"operation": "read_pages", "document": {"base64": "%%%"}},
        {"operation": "read_pages", "document": {"base64": 12}},
        {"operation": "read_pages", "document": doc, "max_chars": 10},
        {"operation": "read_pages", "document": doc, "max_chars": "lots"},
        {"operation": "read_pages", "document": doc, "password": 5},
        {"operation": "read_pages", "document": doc, "context": {}},
        {"operation": "find_in_document", "document": doc},
        {"operation": "find_in_document", "document": doc, "query": "x", "match_mode": "regex"},
        {"operation": "peek", "document": doc, "position": "top"},
        {"operation": "get_image", "document": images, "image_id": "picture"},
        {"operation": "read_pages", "document": {"s3": {"bucket": "docs"}}},
        {"operation": "read_pages", "document": {"s3": {"bucket": "docs", "key": "a", "x": 1}}},
        "not json",
        "[1, 2]",
    ):
        expect("invalid_argument", request)
    expect("invalid_cursor", {"operation": "read_pages", "document": doc, "cursor": "garbage"})
    error = expect("stale_cursor", {"operation": "read_pages", "document": doc, "cursor": stale})
    assert error["details"] == {"page": 1}
    expect("not_found", {"operation": "read_section", "document": doc, "section": "s-9"})
    expect("not_found", {"operation": "get_image", "document": images, "image_id": "p1-x99"})
    error = expect(
        "outside_root",
        {"operation": "get_info", "document": {"s3": {"bucket": "secrets", "key": "a.pdf"}}},
    )
    assert "secrets" in error["message"]
    expect("not_a_pdf", {"operation": "get_info", "document": b64(b"hello, not a PDF")})
    locked = b64(encrypt(text_pdf([["secret text"]]), "pw", algorithm="RC4-128"))
    expect("encrypted", {"operation": "read_pages", "document": locked})
    expect("encrypted", {"operation": "read_pages", "document": locked, "password": "wrong"})
    unlocked = app({"operation": "read_pages", "document": locked, "password": "pw"}, None)
    assert unlocked["pages"][0]["markdown"] == "secret text"
    expect("malformed", {"operation": "get_info", "document": b64(b"%PDF-1.4\n" + b"junk " * 50)})
    expect("unsupported", {"operation": "get_image", "document": images, "image_id": "p1-x4"})
    error = expect(
        "too_large", {"operation": "get_info", "document": b64(b"%PDF" + b" " * 1_000_000)}
    )
    assert error["details"] == {"size": 1_000_004, "limit": 1_000_000}
    expect("ocr_unavailable", {"operation": "read_pages", "document": doc, "ocr": True})
    cite = {"operation": "render_citation", "document": doc, "page": 1, "bbox": "72,72,200,100"}
    expect("renderer_unavailable", cite)

    # busy and timeout: a step of the extraction that checks no deadline holds the one slot
    # until it ends, after the answer.
    slow = report_pdf("slow", pages=SLOW_PAGES)
    request = {"operation": "describe_document", "document": b64(slow)}
    error = expect("timeout", request, lambda_context=nearly_out())
    assert error["headers"]["retry-after"] == "5"
    error = expect("busy", {"operation": "describe_document", "document": b64(OTHER)})
    assert error["headers"]["retry-after"] == "2"

    def explode(*args: Any, **kwargs: Any) -> dict[str, Any]:
        raise RuntimeError("a bug")

    monkeypatch.setitem(OPERATIONS, "get_toc", explode)
    error = expect("internal", {"operation": "get_toc", "document": doc})
    # Only the exception's type: its text could name files the caller never gave.
    assert error["message"] == "unexpected RuntimeError: a bug in pdfthin, please report it"
    assert set(seen) == ERROR_CODES


def test_other_methods_are_405(app: LambdaApp) -> None:
    for shape in EVENT_SHAPES:
        request = {"operation": "get_info", "document": b64(REPORT)}
        status, headers, body = http(app, shape, request, method="GET")
        assert (status, headers["allow"], body["error"]["code"]) == (
            405,
            "POST",
            "invalid_argument",
        )


def test_an_empty_body_is_invalid(app: LambdaApp) -> None:
    status, _, body = check_http_response(app(function_url_event(None), None))
    assert (status, body["error"]["code"]) == (400, "invalid_argument")
    assert "empty" in body["error"]["message"]


def test_a_direct_payload_that_is_not_an_object(app: LambdaApp) -> None:
    assert app(["read_pages"], None)["error"]["code"] == "invalid_argument"


def test_unknown_argument_names_what_the_operation_takes(app: LambdaApp) -> None:
    error = app({"operation": "peek", "document": b64(REPORT), "path": "x.pdf"}, None)["error"]
    assert error["message"] == (
        "peek has no argument path; it takes document, section, position, limit, seed, password"
    )


# --- deadline, busy, cache ----------------------------------------------------------------------


def test_a_timed_out_extraction_stops_and_lets_go(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the deadline the extraction stops at its next page: it frees the extraction slot,
    turns the garbage collector back on and caches nothing (a frozen container must not carry
    it into the next invocation); the retry starts over."""
    import gc

    from pdfthin.engine import gcpause
    from pdfthin.model import document as document_module

    laid_out: list[int] = []
    original = document_module._layout

    def slow_layout(content: Any) -> Any:
        laid_out.append(content.number)
        time.sleep(0.02)  # 150 pages: 3 s
        return original(content)

    monkeypatch.setattr(document_module, "_layout", slow_layout)
    assert gc.isenabled()
    slow = b64(report_pdf("late", pages=SLOW_PAGES))
    app = LambdaApp(Config())
    request = {"operation": "describe_document", "document": slow, "full": True}
    # Lambda says 1.3 s remain: the handler keeps a second for its answer.
    error = app(request, FakeLambdaContext(1.3))["error"]
    assert error == {
        "code": "timeout",
        "message": "the request did not finish in time; the work it started was stopped",
        "details": {"retry_after_seconds": 5},
    }
    stopped_at = time.monotonic() + 1.0
    while gcpause._depth and time.monotonic() < stopped_at:
        time.sleep(0.01)
    assert gcpause._depth == 0 and gc.isenabled()
    pages = len(laid_out)
    time.sleep(0.2)
    assert len(laid_out) == pages < SLOW_PAGES  # stopped, not going on unseen
    assert len(app.context.cache) == 0
    # The one slot is free: another document is extracted at once.
    assert app({"operation": "get_info", "document": b64(OTHER)}, None)["document"]
    laid_out.clear()
    answer = app(request, FakeLambdaContext(120))
    assert answer["document"]["page_count"] == SLOW_PAGES
    # All over again, each page once (the profile's sample first: model/document.py).
    assert sorted(laid_out) == list(range(1, SLOW_PAGES + 1))


def test_busy_for_another_document_while_one_is_extracted(slow_extraction: None) -> None:
    app = LambdaApp(Config())
    assert app({"operation": "get_info", "document": b64(OTHER)}, None)["document"]
    slow = b64(report_pdf("busy", pages=SLOW_PAGES))
    late = app({"operation": "get_info", "document": slow}, nearly_out())
    assert late["error"]["code"] == "timeout"
    third = b64(report_pdf("third"))
    status, headers, body = check_http_response(
        app(function_url_event({"operation": "get_info", "document": third}), None)
    )
    assert (status, body["error"]["code"], headers["retry-after"]) == (503, "busy", "2")
    # A cached document is served whatever is being extracted.
    cached = app({"operation": "get_info", "document": b64(OTHER)}, None)
    assert cached["document"]["page_count"] == 6
    # The slow one is waited for, not extracted again; then the slot is free.
    assert (
        app({"operation": "get_info", "document": slow}, None)["document"]["page_count"]
        == SLOW_PAGES
    )
    assert app({"operation": "get_info", "document": third}, None)["document"]["page_count"] == 6


def test_max_extractions_is_configurable(slow_extraction: None) -> None:
    app = LambdaApp(Config(max_extractions=2))
    first = app(
        {"operation": "get_info", "document": b64(report_pdf("one", SLOW_PAGES))}, nearly_out()
    )
    assert first["error"]["code"] == "timeout"
    assert (
        app({"operation": "get_info", "document": b64(OTHER)}, None)["document"]["page_count"] == 6
    )


def test_without_a_deadline_the_work_runs_in_the_calling_thread(app: LambdaApp) -> None:
    seen: list[str] = []

    def spy(document: bytes, **kwargs: Any) -> dict[str, Any]:
        seen.append(threading.current_thread().name)
        return {"ok": True}

    app_ops = dict(OPERATIONS)
    try:
        OPERATIONS["get_info"] = spy
        assert app({"operation": "get_info", "document": b64(REPORT)}, None) == {"ok": True}
        app({"operation": "get_info", "document": b64(REPORT)}, FakeLambdaContext(30))
    finally:
        OPERATIONS.clear()
        OPERATIONS.update(app_ops)
    assert seen == [threading.current_thread().name, "pdfthin-request"]


# --- payload limit ------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", ["direct", "function_url", "rest_api"])
def test_responses_fit_the_payload_limit_and_the_rest_follows_the_cursor(shape: str) -> None:
    """Escaped quotes and non-ASCII letters make the payload far larger than the budget's
    character count; the handler answers with a smaller budget and the cursor goes on."""
    pdf = escaped_pdf(8)
    limit = 40_000
    app = LambdaApp(Config(payload_limit=limit))
    pages: list[str] = []
    cursor = None
    calls = 0
    while True:
        request = {"operation": "read_pages", "document": b64(pdf), "max_chars": 5_000_000}
        if cursor:
            request["cursor"] = cursor
        raw = app(request, None) if shape == "direct" else app(EVENT_SHAPES[shape](request), None)
        assert payload_bytes(raw) <= limit
        response = raw if shape == "direct" else check_http_response(raw)[2]
        assert "error" not in response, response
        pages.extend(p["markdown"] for p in response["pages"])
        cursor = response["next_cursor"]
        calls += 1
        if not cursor:
            break
    assert calls > 2
    whole = read_pages(pdf, max_chars=5_000_000)
    assert "".join(pages) == "".join(p["markdown"] for p in whole["pages"])
    # Without the limit the first answer would not have fitted.
    assert payload_bytes(function_url_event(whole)) > limit


def test_a_response_that_cannot_shrink_is_too_large() -> None:
    app = LambdaApp(Config(payload_limit=10_000))
    pdf = image_pdf()
    small = app({"operation": "get_image", "document": b64(pdf), "image_id": "p1-x3"}, None)
    assert small["media_type"] == "image/png"  # a small image fits
    big = PdfBuilder()
    noise = random.Random(7).randbytes(120 * 120)  # incompressible: about 19 kB as base64
    image = big.image_xobject(120, 120, noise, flate=False)
    big.add_page(b"q 100 0 0 100 50 600 cm /A Do Q", {"XObject": {"A": image}})
    request = {"operation": "get_image", "document": b64(big.build()), "image_id": "p1-x3"}
    error = app(request, None)["error"]
    assert error["code"] == "too_large"
    assert error["details"]["limit"] == 10_000 and error["details"]["payload_bytes"] > 10_000


def test_payload_bytes_is_an_upper_bound_of_what_the_runtime_sends() -> None:
    response = {"text": 'é "ü" \\ 漢字 \U0001f600', "n": [1, 2]}
    for ensure_ascii in (True, False):
        sent = json.dumps(response, ensure_ascii=ensure_ascii).encode("utf-8")
        assert len(sent) <= payload_bytes(response)
    assert len(dumps(response).encode("utf-8")) <= payload_bytes(response)


# --- configuration ------------------------------------------------------------------------------


def test_config_from_the_environment() -> None:
    config = Config.from_env(
        {
            "PDFTHIN_S3_BUCKETS": "docs, archive/reports/",
            "PDFTHIN_MAX_FILE_BYTES": "10_000_000",
            "PDFTHIN_DEFAULT_MAX_CHARS": "5000",
            "PDFTHIN_CACHE_SIZE": "4",
            "PDFTHIN_MAX_EXTRACTIONS": "2",
            "PDFTHIN_TIMEOUT_SECONDS": "28.5",
            "PDFTHIN_PAYLOAD_LIMIT": "5000000",
        }
    )
    assert config == Config(
        buckets=(Bucket("docs"), Bucket("archive", "reports/")),
        max_file_bytes=10_000_000,
        default_max_chars=5_000,
        cache_size=4,
        max_extractions=2,
        timeout_seconds=28.5,
        payload_limit=5_000_000,
    )
    assert Config.from_env({}) == Config()
    app = LambdaApp(config)
    assert app.context.default_max_chars == 5_000
    assert app.context.limits.max_file_bytes == 10_000_000
    assert app.context.cache.size == 4
    response = app({"operation": "read_pages", "document": b64(REPORT)}, None)
    assert len(dumps(response)) <= 5_000 and response["next_cursor"]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("PDFTHIN_MAX_FILE_BYTES", "lots"),
        ("PDFTHIN_DEFAULT_MAX_CHARS", "10"),
        ("PDFTHIN_CACHE_SIZE", "17"),
        ("PDFTHIN_TIMEOUT_SECONDS", "-1"),
        ("PDFTHIN_S3_BUCKETS", "ab/x"),
    ],
)
def test_a_bad_setting_names_its_variable(name: str, value: str) -> None:
    with pytest.raises(ValueError, match=name):
        Config.from_env({name: value})


def test_bucket_prefixes() -> None:
    docs, archive = parse_buckets("docs archive/reports/")
    assert docs.allows("docs", "any/key.pdf")
    assert archive.allows("archive", "reports/q3.pdf")
    assert not archive.allows("archive", "other/q3.pdf")
    assert not docs.allows("docs2", "a.pdf")


def test_an_ocr_binding_from_the_environment(tmp_path: Any) -> None:
    module = tmp_path / "fake_ocr.py"
    module.write_text(
        "from pdfthin.ocr import OcrBinding\n"
        "class Raster:\n"
        "    def render(self, pdf, pages, dpi, signal):\n"
        "        return [{'page': p, 'image': b'x', 'media_type': 'image/png'} for p in pages]\n"
        "class Reader:\n"
        "    name = 'fake'\n"
        "    def recognize(self, images, signal):\n"
        "        return [{'page': i['page'], 'markdown': 'scanned %d' % i['page']}\n"
        "                for i in images]\n"
        "binding = OcrBinding(Raster(), Reader())\n"
    )
    b = PdfBuilder()
    image = b.image_xobject(8, 8)
    b.add_page(b"q 612 0 0 792 0 0 cm /Im1 Do Q", {"XObject": {"Im1": image}})
    scan = b64(b.build())
    app = LambdaApp(Config.from_env({"PDFTHIN_OCR": str(module)}))
    plain = app({"operation": "read_pages", "document": scan}, None)
    assert plain["pages"][0]["status"] == "needs_ocr"
    read = app({"operation": "read_pages", "document": scan, "ocr": True}, None)
    assert read["pages"][0]["status"] == "ocr"
    assert read["pages"][0]["markdown"] == "scanned 1"


def test_a_cursor_is_decoded_once_however_often_the_answer_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The answer is made again with smaller budgets until it fits the payload; the request's
    cursor is decoded once for all of them."""
    pdf = escaped_pdf(8)
    app = LambdaApp(Config(payload_limit=40_000))
    request: dict[str, Any] = {"operation": "read_pages", "document": b64(pdf), "max_chars": 1_000}
    cursor = app(request, None)["next_cursor"]
    calls: list[str] = []
    decode = cur.decode
    monkeypatch.setattr(cur, "decode", lambda token, key: calls.append(token) or decode(token, key))
    made: list[int] = []
    run = handler_module.OPERATIONS["read_pages"]

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(kwargs["max_chars"])
        return run(*args, **kwargs)

    monkeypatch.setitem(handler_module.OPERATIONS, "read_pages", counted)
    answer = app({**request, "max_chars": 5_000_000, "cursor": cursor}, None)
    assert "error" not in answer and answer["pages"]
    assert len(made) > 1  # made again with a smaller budget
    assert calls == [cursor]


def test_a_cursor_that_does_not_decode_is_refused_after_the_document() -> None:
    """Which error a request with two faults gets is what the operation decides: the document
    first (as before the cursor was decoded once up front)."""
    app = LambdaApp(Config())
    bad = {"operation": "read_pages", "cursor": "garbage"}
    assert app({**bad, "document": {"base64": "bm90IGEgcGRm"}}, None)["error"]["code"] == (
        "not_a_pdf"
    )
    assert app({**bad, "document": b64(REPORT)}, None)["error"]["code"] == "invalid_cursor"


def test_an_s3_request_to_a_function_without_buckets_says_so() -> None:
    # Deployed for base64 documents only (no DocumentBucket): an S3 document is refused with
    # what to change, not as if the bucket were merely the wrong one.
    from pdfthin.adapters.aws.config import parse_buckets

    assert parse_buckets("") == ()
    app = LambdaApp(Config(buckets=()))
    r = app({"operation": "get_info", "document": {"s3": {"bucket": "docs", "key": "a.pdf"}}}, None)
    error = r["error"]
    assert error["code"] == "outside_root"
    assert "reads no S3 bucket" in error["message"] and "DocumentBucket" in error["message"]
    with_one = LambdaApp(Config(buckets=(Bucket("docs"),)))
    r = with_one(
        {"operation": "get_info", "document": {"s3": {"bucket": "other", "key": "a.pdf"}}}, None
    )
    assert "outside the buckets" in r["error"]["message"]


def test_the_example_events_are_current_and_each_is_answered() -> None:
    # examples/lambda-events/ holds what example_events() builds (regenerate them with it
    # when a shape changes), and each is answered by the handler as a function receives it.
    import json

    from lambda_support import EXAMPLE_EVENTS, example_events

    built = example_events()
    assert sorted(p.name for p in EXAMPLE_EVENTS.glob("*.json")) == sorted(built)
    app = LambdaApp(Config())
    for name, event in built.items():
        on_disk = json.loads((EXAMPLE_EVENTS / name).read_text(encoding="utf-8"))
        assert on_disk == event, f"examples/lambda-events/{name} is stale"
        answer = app(on_disk, None)
        if name != "direct.json":
            status, _, answer = check_http_response(answer)
            assert status == 200
        assert answer["type"] == "mixed" and answer["document"]["page_count"] == 3
