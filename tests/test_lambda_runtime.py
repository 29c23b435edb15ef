"""The deployment zip run by the real Lambda runtime client (awslambdaric) against a local
stand-in for the Runtime API on 127.0.0.1 (deploy/local_runtime.py): each function is a fresh
process, as a cold container is, with only the zip's contents as its code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lambda_support import (
    EVENT_SHAPES,
    b64,
    build_zip,
    check_http_response,
    dense_pdf,
    local_runtime,
    moto_server,
    report_pdf,
    s3_client,
    s3_env,
)

from pdfthin.operations import get_toc, read_pages

ALPHA = report_pdf("alpha")
RUNTIME = f"python{sys.version_info.major}.{sys.version_info.minor}"


@pytest.fixture(scope="module")
def code(lambda_code: Path) -> Path:
    """The deployment zip, unpacked (built once a session: tests/conftest.py)."""
    return lambda_code


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    with moto_server() as url:
        s3 = s3_client(url)
        s3.create_bucket(Bucket="docs")
        s3.put_object(Bucket="docs", Key="alpha.pdf", Body=ALPHA)
        yield url


class Function:
    """One container: a runtime stand-in and the function process polling it."""

    def __init__(self, code: Path, env: dict[str, str] | None = None) -> None:
        self.runtime = local_runtime.LocalRuntime()
        # The zip has no native accelerator: one installed here must not stand in for it.
        env = {"PDFTHIN_NATIVE": "off", **(env or {})}
        self.process = local_runtime.FunctionProcess(self.runtime, code, env)

    def __enter__(self) -> Function:
        self.process.wait_ready()
        return self

    def __exit__(self, *exc: object) -> None:
        self.process.stop()
        self.runtime.close()

    def invoke(self, event: Any, **kw: Any) -> Any:
        invocation = self.runtime.invoke(event, **kw)
        assert invocation.error is None, (invocation.error, self.process.output)
        return invocation.result

    def http(self, shape: str, request: Any) -> tuple[int, dict[str, str], dict[str, Any]]:
        return check_http_response(self.invoke(EVENT_SHAPES[shape](request)))


def test_the_zip_holds_pdfthin_and_pypdf_only(code: Path) -> None:
    tops = {path.name for path in code.iterdir()}
    assert {"pdfthin", "pypdf"} <= tops
    assert tops - {"pdfthin", "pypdf"} == {
        name for name in tops if name.startswith("pypdf-") and name.endswith(".dist-info")
    }
    assert not list(code.rglob("*.py"))  # bytecode only
    assert (code / "pdfthin" / "adapters" / "aws" / "handler.pyc").is_file()


def test_every_event_shape_through_the_runtime_client(code: Path) -> None:
    expected = read_pages(ALPHA, pages="2")
    request = {"operation": "read_pages", "document": b64(ALPHA), "pages": "2"}
    with Function(code) as function:
        for shape in EVENT_SHAPES:
            status, _, body = function.http(shape, request)
            assert (status, body) == (200, expected)
        assert function.invoke(request) == expected  # direct invocation
        status, _, body = function.http("rest_api", {**request, "pages": "7"})
        assert (status, body["error"]["code"]) == (400, "invalid_pages")


def test_a_cursor_continues_in_a_new_process(code: Path, endpoint: str) -> None:
    """The warm container's second page and a cold container's answer to the same cursor are
    the same, for a document from S3."""
    env = {**s3_env(endpoint), "PDFTHIN_S3_BUCKETS": "docs"}
    request = {
        "operation": "read_pages",
        "document": {"s3": {"bucket": "docs", "key": "alpha.pdf"}},
        "max_chars": 1500,
    }
    with Function(code, env) as warm:
        status, _, first = warm.http("function_url", request)
        assert status == 200 and first["next_cursor"]
        status, _, second = warm.http("function_url", {**request, "cursor": first["next_cursor"]})
        assert status == 200
    with Function(code, env) as cold:
        status, _, again = cold.http("function_url", {**request, "cursor": first["next_cursor"]})
    assert status == 200
    assert again == second
    assert again["pages"][0]["page"] == 1 and again["pages"][0]["part"]["start"] > 0


def test_responses_stay_under_the_6_mb_payload_limit(code: Path) -> None:
    pdf = dense_pdf(40)
    whole = read_pages(pdf, max_chars=5_000_000)
    assert whole["next_cursor"] is None  # the budget alone would send it all at once
    request = {"operation": "read_pages", "document": b64(pdf), "max_chars": 5_000_000}
    with Function(code) as function:
        raw = function.runtime.invoke(request)
        assert raw.error is None
        assert len(json.dumps(raw.result)) <= local_runtime.RESPONSE_LIMIT
        status, _, first = function.http("function_url", request)
        assert status == 200 and first["next_cursor"]
        status, _, rest = function.http("function_url", {**request, "cursor": first["next_cursor"]})
        assert status == 200
    assert rest["next_cursor"] is None  # two answers hold the 40 pages
    texts = [p["markdown"] for p in first["pages"] + rest["pages"]]
    assert "".join(texts) == "".join(p["markdown"] for p in whole["pages"])
    # Without the handler's check the runtime would refuse the answer (as Lambda does).
    with Function(code, {"PDFTHIN_PAYLOAD_LIMIT": "100000000"}) as unchecked:
        invocation = unchecked.runtime.invoke(EVENT_SHAPES["function_url"](request))
    assert invocation.error["errorType"] == "Function.ResponseSizeTooLarge"


def test_the_lambda_deadline_answers_timeout_then_the_retry_is_served(code: Path) -> None:
    # Seconds of extraction (120 dense pages, every one read: full), well past the one second
    # the deadline leaves.
    request = {"operation": "describe_document", "document": b64(dense_pdf(120)), "full": True}
    with Function(code) as function:
        # 2 s left: the handler answers 1 s before Lambda's deadline.
        late = function.runtime.invoke(EVENT_SHAPES["function_url"](request), function_timeout=2)
        status, headers, body = check_http_response(late.result)
        assert (status, body["error"]["code"], headers["retry-after"]) == (504, "timeout", "5")
        assert late.seconds < 2  # before Lambda would have stopped it
        status, _, body = function.http("function_url", request)
        assert status == 200 and body["document"]["page_count"] == 120


def test_a_bad_setting_fails_the_init_with_its_name(code: Path) -> None:
    runtime = local_runtime.LocalRuntime()
    process = local_runtime.FunctionProcess(runtime, code, {"PDFTHIN_CACHE_SIZE": "99"})
    try:
        with pytest.raises(RuntimeError, match="PDFTHIN_CACHE_SIZE"):
            process.wait_ready()
        assert runtime.init_error["errorType"] == "ValueError"
    finally:
        process.stop()
        runtime.close()


def test_a_required_accelerator_that_cannot_load_fails_the_init(code: Path, tmp_path: Path) -> None:
    # A host without the module (a meta-path hook hides any installed one): "require" cannot
    # be met, so the container stops at init with one line that names the host and the
    # reason, instead of failing on each request.
    (tmp_path / "sitecustomize.py").write_text(
        "import sys\n"
        "class _NoNative:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'pdfthin_native':\n"
        "            raise ModuleNotFoundError('no pdfthin_native', name='pdfthin_native')\n"
        "sys.meta_path.insert(0, _NoNative())\n"
    )
    env = {"PDFTHIN_NATIVE": "require", "PYTHONPATH": f"{code}{os.pathsep}{tmp_path}"}
    runtime = local_runtime.LocalRuntime()
    process = local_runtime.FunctionProcess(runtime, code, env)
    try:
        with pytest.raises(RuntimeError):
            process.wait_ready()
        assert runtime.init_error["errorType"] == "NativeUnavailable"
        message = runtime.init_error["errorMessage"]
        assert "\n" not in message
        assert "required but cannot load on" in message and "not installed" in message
    finally:
        process.stop()
        runtime.close()


def test_the_local_runtime_command_runs_a_zip(tmp_path: Path) -> None:
    archive = build_zip.build(tmp_path / "fn.zip", sys.executable, runtime=RUNTIME)
    event = tmp_path / "event.json"
    request = {"operation": "get_toc", "document": b64(ALPHA)}
    event.write_text(json.dumps(EVENT_SHAPES["function_url"](request)), encoding="utf-8")
    script = Path(local_runtime.__file__)
    result = subprocess.run(
        [sys.executable, str(script), "--zip", str(archive), str(event)],
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    status, _, body = check_http_response(json.loads(result.stdout))
    assert status == 200
    assert body["sections"] == get_toc(ALPHA)["sections"]
    assert "init: " in result.stderr
