"""Documents from S3: boto3 against moto in server mode on 127.0.0.1 (its own process)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest
from lambda_support import check_http_response, function_url_event, moto_server, report_pdf, s3_env
from lambda_support import s3_client as make_client

from pdfthin.adapters.aws.config import Bucket, Config
from pdfthin.adapters.aws.handler import LambdaApp
from pdfthin.operations import read_pages

ALPHA = report_pdf("alpha")
BETA = report_pdf("beta")


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    with moto_server() as url:
        s3 = make_client(url)
        s3.create_bucket(Bucket="docs")
        s3.create_bucket(Bucket="other")
        s3.create_bucket(Bucket="versioned")
        s3.put_bucket_versioning(Bucket="versioned", VersioningConfiguration={"Status": "Enabled"})
        s3.put_object(Bucket="docs", Key="alpha.pdf", Body=ALPHA)
        s3.put_object(Bucket="docs", Key="reports/beta.pdf", Body=BETA)
        s3.put_object(Bucket="docs", Key="big.pdf", Body=b"%PDF-1.4\n" + b"0" * 300_000)
        s3.put_object(Bucket="docs", Key="empty.pdf", Body=b"")
        s3.put_object(Bucket="other", Key="alpha.pdf", Body=ALPHA)
        yield url


@pytest.fixture
def s3(endpoint: str) -> Any:
    return make_client(endpoint)


@pytest.fixture
def app(endpoint: str, monkeypatch: pytest.MonkeyPatch) -> LambdaApp:
    for name, value in s3_env(endpoint).items():
        monkeypatch.setenv(name, value)
    return LambdaApp(Config(buckets=(Bucket("docs"), Bucket("versioned")), max_file_bytes=200_000))


def calls(app: LambdaApp) -> list[str]:
    """The S3 operations the app's client makes from now on (its client is created here)."""
    made: list[str] = []
    client = app.documents._s3_client()
    client.meta.events.register("before-call.s3.*", lambda model, **_: made.append(model.name))
    return made


def s3doc(bucket: str, key: str, version: str | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"bucket": bucket, "key": key}
    if version is not None:
        spec["version_id"] = version
    return {"s3": spec}


def test_boto3_is_imported_only_for_s3_requests() -> None:
    import subprocess

    code = (
        "import sys, base64\n"
        "from pdfthin.adapters.aws.handler import handler\n"
        "assert 'boto3' not in sys.modules and 'botocore' not in sys.modules\n"
        "pdf = open(sys.argv[1], 'rb').read()\n"
        "doc = {'base64': base64.b64encode(pdf).decode()}\n"
        "r = handler({'operation': 'get_info', 'document': doc}, None)\n"
        "assert r['document']['page_count'] == 3, r\n"
        "assert 'boto3' not in sys.modules and 'botocore' not in sys.modules\n"
        "r = handler({'operation': 'get_info', 'document': {'s3': {'bucket': 'nope', "
        "'key': 'x.pdf'}}}, None)\n"
        "assert r['error']['code'] == 'outside_root', r\n"
        "assert 'boto3' not in sys.modules\n"
    )
    from lambda_support import ROOT

    sample = ROOT / "examples" / "sample.pdf"
    subprocess.run([sys.executable, "-c", code, str(sample)], check=True, timeout=120)


def test_read_from_s3_equals_read_from_bytes(app: LambdaApp) -> None:
    response = app({"operation": "read_pages", "document": s3doc("docs", "alpha.pdf")}, None)
    assert response == read_pages(ALPHA)
    assert response["pages"][0]["markdown"].startswith("Chapter 1 of alpha")


def test_function_url_with_an_s3_document(app: LambdaApp) -> None:
    request = {
        "operation": "find_in_document",
        "document": s3doc("docs", "reports/beta.pdf"),
        "query": "page 4 in beta",
    }
    status, _, body = check_http_response(app(function_url_event(request), None))
    assert status == 200
    assert {m["page"] for m in body["matches"]} == {4}


def test_only_configured_buckets_and_prefixes(app: LambdaApp, endpoint: str) -> None:
    made = calls(app)
    error = app({"operation": "get_info", "document": s3doc("other", "alpha.pdf")}, None)
    assert error["error"]["code"] == "outside_root"
    assert made == []  # refused before any call to S3
    prefixed = LambdaApp(Config(buckets=(Bucket("docs", "reports/"),)))
    ok = prefixed({"operation": "get_info", "document": s3doc("docs", "reports/beta.pdf")}, None)
    assert ok["document"]["page_count"] == 6
    outside = prefixed({"operation": "get_info", "document": s3doc("docs", "alpha.pdf")}, None)
    assert outside["error"]["code"] == "outside_root"
    nothing = LambdaApp(Config())
    refused = nothing({"operation": "get_info", "document": s3doc("docs", "alpha.pdf")}, None)
    assert refused["error"]["code"] == "outside_root"


def test_size_is_checked_before_download(app: LambdaApp) -> None:
    made = calls(app)
    status, _, body = check_http_response(
        app(
            function_url_event({"operation": "get_info", "document": s3doc("docs", "big.pdf")}),
            None,
        )
    )
    assert status == 413
    assert body["error"]["code"] == "too_large"
    assert body["error"]["details"] == {
        "size": 300_009,
        "limit": 200_000,
        "bucket": "docs",
        "key": "big.pdf",
    }
    assert made == ["HeadObject"]  # no GetObject


def test_the_download_itself_stops_at_the_limit(app: LambdaApp) -> None:
    """An object that grew past the limit after its HEAD (here: a HEAD that understates the
    size) is cut off by the ranged GET and refused, not read whole."""
    client = app.documents._s3_client()

    def understate(parsed: dict[str, Any], **_: Any) -> None:
        parsed["ContentLength"] = 1000

    client.meta.events.register("after-call.s3.HeadObject", understate)
    got: list[int] = []
    client.meta.events.register(
        "after-call.s3.GetObject",
        lambda parsed, **_: got.append(int(parsed["ContentLength"])),
    )
    error = app({"operation": "get_info", "document": s3doc("docs", "big.pdf")}, None)["error"]
    assert error["code"] == "too_large"
    assert error["details"]["limit"] == 200_000
    assert got == [200_001]  # Range: bytes=0-200000


def test_missing_objects_and_buckets_are_not_found(app: LambdaApp) -> None:
    for doc in (s3doc("docs", "missing.pdf"), s3doc("versioned", "nothing-here.pdf")):
        status, _, body = check_http_response(
            app(function_url_event({"operation": "get_info", "document": doc}), None)
        )
        assert status == 404
        assert body["error"]["code"] == "not_found"
        assert body["error"]["details"]["s3_error"] == "404"
    gone = LambdaApp(Config(buckets=(Bucket("no-such-bucket"),)))
    error = gone({"operation": "get_info", "document": s3doc("no-such-bucket", "a.pdf")}, None)
    assert error["error"]["code"] == "not_found"


def test_an_empty_object_is_not_a_pdf(app: LambdaApp) -> None:
    error = app({"operation": "get_info", "document": s3doc("docs", "empty.pdf")}, None)
    assert error["error"]["code"] == "not_a_pdf"


def test_versions_and_the_warm_cache(app: LambdaApp, s3: Any) -> None:
    first = s3.put_object(Bucket="versioned", Key="doc.pdf", Body=ALPHA)["VersionId"]
    made = calls(app)
    v1 = s3doc("versioned", "doc.pdf", first)
    assert app({"operation": "get_info", "document": v1}, None)["document"]["page_count"] == 6
    assert made == ["HeadObject", "GetObject"]
    # A versioned object never changes: the warm container answers without S3.
    made.clear()
    title = app({"operation": "describe_document", "document": v1}, None)["metadata"]["title"]
    assert title == "Report alpha"
    assert made == []
    # Unversioned: a HEAD shows the object is unchanged, no second download.
    latest = s3doc("versioned", "doc.pdf")
    app({"operation": "get_info", "document": latest}, None)
    made.clear()
    app({"operation": "get_info", "document": latest}, None)
    assert made == ["HeadObject"]
    # The object changes: the latest is downloaded again, the old version still answers.
    s3.put_object(Bucket="versioned", Key="doc.pdf", Body=BETA)
    made.clear()
    peeked = app({"operation": "peek", "document": latest, "limit": 40}, None)
    assert peeked["text"].startswith("Chapter 1 of beta")
    assert made == ["HeadObject", "GetObject"]
    old = app({"operation": "peek", "document": v1, "limit": 40}, None)
    assert old["text"].startswith("Chapter 1 of alpha")
    missing = app(
        {"operation": "get_info", "document": s3doc("versioned", "doc.pdf", "nope")}, None
    )
    assert missing["error"]["code"] == "not_found"


def test_a_cursor_on_a_replaced_object_is_invalid(app: LambdaApp, s3: Any) -> None:
    s3.put_object(Bucket="docs", Key="moving.pdf", Body=ALPHA)
    doc = s3doc("docs", "moving.pdf")
    first = app({"operation": "read_pages", "document": doc, "max_chars": 1500}, None)
    assert first["next_cursor"]
    s3.put_object(Bucket="docs", Key="moving.pdf", Body=BETA)
    request = {"operation": "read_pages", "document": doc, "cursor": first["next_cursor"]}
    error = app(request, None)["error"]
    assert error["code"] == "invalid_cursor"  # never silently the other document's pages


def test_s3_outage_is_busy_with_a_retry_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in s3_env("http://127.0.0.1:9").items():  # nothing listens on port 9
        monkeypatch.setenv(name, value)
    app = LambdaApp(Config(buckets=(Bucket("docs"),)))
    import boto3
    from botocore.config import Config as BotoConfig

    app.documents._client = boto3.client(
        "s3", config=BotoConfig(retries={"max_attempts": 1}, connect_timeout=1)
    )
    request = {"operation": "get_info", "document": s3doc("docs", "alpha.pdf")}
    status, headers, body = check_http_response(app(function_url_event(request), None))
    assert status == 503
    assert body["error"]["code"] == "busy"
    assert headers["retry-after"] == "1"


def test_an_object_replaced_between_head_and_get_is_read_again(app: LambdaApp, s3: Any) -> None:
    """The GET is bound to the HEAD's ETag: a replacement in between fails it (412) and the
    object is checked and read again, so the bytes read are the bytes whose size was checked."""
    s3.put_object(Bucket="docs", Key="racing.pdf", Body=ALPHA)
    client = app.documents._s3_client()
    replaced: list[bool] = []

    def replace_once(**_: Any) -> None:
        if not replaced:
            replaced.append(True)
            s3.put_object(Bucket="docs", Key="racing.pdf", Body=BETA)

    client.meta.events.register("after-call.s3.HeadObject", replace_once)
    made = calls(app)
    response = app({"operation": "peek", "document": s3doc("docs", "racing.pdf")}, None)
    assert response["text"].startswith("Chapter 1 of beta")
    assert made == ["HeadObject", "GetObject", "HeadObject", "GetObject"]


def test_a_cached_s3_document_is_neither_downloaded_nor_hashed_again(
    app: LambdaApp, s3: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The document is looked up by the object's identity (version, or the ETag of a HEAD):
    even when the container no longer keeps the object's bytes, a cached document needs no
    GET, and its bytes are not hashed again."""
    from pdfthin.operations import context as context_module

    version = s3.put_object(Bucket="versioned", Key="same.pdf", Body=ALPHA)["VersionId"]
    hashed: list[int] = []
    for module in (context_module, sys.modules.get("pdfthin.operations.reads")):
        real = getattr(module, "fingerprint", None)
        if real is not None:
            monkeypatch.setattr(
                module, "fingerprint", lambda d, real=real: hashed.append(1) or real(d)
            )
    made = calls(app)
    for doc in (s3doc("versioned", "same.pdf"), s3doc("versioned", "same.pdf", version)):
        assert app({"operation": "get_info", "document": doc}, None)["document"]
        app.documents._bytes.clear()  # the object's bytes are no longer kept
        made.clear()
        hashed.clear()
        assert app({"operation": "peek", "document": doc}, None)["text"]
        assert "GetObject" not in made and hashed == []


def test_an_encrypted_s3_object_needs_its_password_in_a_warm_container(
    app: LambdaApp, s3: Any
) -> None:
    from pdfbuilder import encrypt

    s3.put_object(Bucket="docs", Key="locked.pdf", Body=encrypt(ALPHA, "pw", "owner"))
    doc = s3doc("docs", "locked.pdf")
    opened = app({"operation": "read_pages", "document": doc, "password": "pw"}, None)
    assert opened["pages"][0]["markdown"].startswith("Chapter 1 of alpha")
    for extra, given in (({}, False), ({"password": "wrong"}, True)):
        status, _, body = check_http_response(
            app(function_url_event({"operation": "read_pages", "document": doc, **extra}), None)
        )
        assert (status, body["error"]["code"]) == (403, "encrypted")
        assert body["error"]["details"]["password_given"] is given
    owner = app({"operation": "peek", "document": doc, "password": "owner"}, None)
    assert owner["text"].startswith("Chapter 1 of alpha")
