"""Shared pieces of the Lambda adapter's tests: PDFs, real event shapes (checked against
aws-lambda-powertools' models), a moto S3 server on 127.0.0.1, and the deployment zip."""

from __future__ import annotations

import base64
import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from aws_lambda_powertools.utilities.parser.models import (
    APIGatewayProxyEventModel,
    APIGatewayProxyEventV2Model,
    LambdaFunctionUrlModel,
)
from pdfbuilder import PdfBuilder

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "deploy"))

import build_zip  # noqa: E402  (deploy/ is not a package)
import local_map  # noqa: E402
import local_runtime  # noqa: E402

#: What boto3 needs to talk to the local S3 and nothing else (no real credentials, no IMDS):
#: the local Map driver's own.
s3_env = local_map.s3_env

__all__ = ["build_zip", "local_runtime"]

# --- PDFs ---------------------------------------------------------------------------------------


def text_pdf(pages: list[list[str]], title: str | None = None) -> bytes:
    """Pages of Helvetica lines (WinAnsi: Latin-1 text)."""
    b = PdfBuilder()
    font = b.font_standard("Helvetica", encoding="/WinAnsiEncoding")
    for lines in pages:
        body = [b"BT /F1 10 Tf 50 760 Td 12 TL"]
        for line in lines:
            escaped = line.encode("latin-1").replace(b"\\", b"\\\\")
            escaped = escaped.replace(b"(", b"\\(").replace(b")", b"\\)")
            body.append(b"(" + escaped + b") Tj T*")
        body.append(b"ET")
        b.add_page(b"\n".join(body), {"Font": {"F1": font}})
    if title:
        b.set_info(Title=title)
    return b.build()


def report_pdf(name: str, pages: int = 6) -> bytes:
    """``pages`` pages of about 2,500 characters; ``name`` makes the text (and fingerprint)
    the file's own."""
    return text_pdf(
        [
            [
                f"Chapter {n} of {name}",
                *[
                    f"Line {i} of page {n} in {name}: alpha beta gamma delta epsilon zeta."
                    for i in range(40)
                ],
            ]
            for n in range(1, pages + 1)
        ],
        title=f"Report {name}",
    )


def escaped_pdf(pages: int) -> bytes:
    """Text that grows when JSON-escaped twice (quotes, backslashes) and when non-ASCII is
    escaped (Latin-1 letters): a response's bytes are well above its character count."""
    line = 'ÄÖÜ "quoted" é\\è ø ñ ' * 5
    return text_pdf([[f"page {n}", *[line] * 50] for n in range(1, pages + 1)])


def dense_pdf(pages: int) -> bytes:
    """Pages of 150 lines of 4 pt text full of quotes, backslashes and Latin-1 letters: read
    whole, 40 pages are about 2.3 million characters and 7 MB as Lambda sends them."""
    b = PdfBuilder(compress=True)
    font = b.font_standard("Helvetica", encoding="/WinAnsiEncoding")
    line = ('ÄÖÜ "q" é\\\\è ø ñ ' * 20).encode("latin-1")
    for n in range(1, pages + 1):
        body = [b"BT /F1 4 Tf 20 780 Td 5 TL (page %d) Tj T*" % n]
        body += [b"(" + line + b") Tj T*"] * 150
        body.append(b"ET")
        b.add_page(b"\n".join(body), {"Font": {"F1": font}})
    return b.build()


def b64(data: bytes) -> dict[str, str]:
    return {"base64": base64.b64encode(data).decode("ascii")}


# --- events -------------------------------------------------------------------------------------


def function_url_event(body: Any, *, method: str = "POST", base64_body: bool = False) -> dict:
    """A Lambda Function URL request (payload format 2.0), as in the AWS documentation."""
    text, encoded = _body(body, base64_body)
    event = {
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": "/",
        "rawQueryString": "",
        "headers": {
            "content-type": "application/json",
            "host": "abcdefghijklmnopqrstuvwxyz012345.lambda-url.us-east-1.on.aws",
            "user-agent": "agent/1.0",
            "x-amzn-trace-id": "Root=1-5e723db6-1b5c7d2e0e3d4c6a8b3f6e12",
            "x-forwarded-for": "203.0.113.7",
            "x-forwarded-port": "443",
            "x-forwarded-proto": "https",
        },
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "abcdefghijklmnopqrstuvwxyz012345",
            "authorizer": {
                "iam": {
                    "accessKey": "AKIAIOSFODNN7EXAMPLE",
                    "accountId": "111122223333",
                    "callerId": "AIDACKCEVSQ6C2EXAMPLE",
                    "cognitoIdentity": None,
                    "principalOrgId": None,
                    "userArn": "arn:aws:iam::111122223333:user/example-user",
                    "userId": "AIDACKCEVSQ6C2EXAMPLE",
                }
            },
            "domainName": "abcdefghijklmnopqrstuvwxyz012345.lambda-url.us-east-1.on.aws",
            "domainPrefix": "abcdefghijklmnopqrstuvwxyz012345",
            "http": {
                "method": method,
                "path": "/",
                "protocol": "HTTP/1.1",
                "sourceIp": "203.0.113.7",
                "userAgent": "agent/1.0",
            },
            "requestId": "c6af9ac6-7b61-11e6-9a41-93e8deadbeef",
            "routeKey": "$default",
            "stage": "$default",
            "time": "30/Nov/2026:19:03:58 +0000",
            "timeEpoch": 1796065438390,
        },
        "body": text,
        "isBase64Encoded": encoded,
    }
    LambdaFunctionUrlModel.model_validate(event)
    return event


def http_api_event(body: Any, *, method: str = "POST", base64_body: bool = False) -> dict:
    """An API Gateway HTTP API request (payload format 2.0) on the route ``POST /pdfthin``."""
    text, encoded = _body(body, base64_body)
    event = {
        "version": "2.0",
        "routeKey": "POST /pdfthin",
        "rawPath": "/pdfthin",
        "rawQueryString": "",
        "cookies": [],
        "headers": {
            "content-length": str(len(text or "")),
            "content-type": "application/json",
            "host": "r3pmxmplak.execute-api.us-east-1.amazonaws.com",
            "user-agent": "curl/8.5.0",
            "x-amzn-trace-id": "Root=1-5e6722a7-cc56xmpl46db7ae02d4da47e",
            "x-forwarded-for": "205.255.255.176",
            "x-forwarded-port": "443",
            "x-forwarded-proto": "https",
        },
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "r3pmxmplak",
            "domainName": "r3pmxmplak.execute-api.us-east-1.amazonaws.com",
            "domainPrefix": "r3pmxmplak",
            "http": {
                "method": method,
                "path": "/pdfthin",
                "protocol": "HTTP/1.1",
                "sourceIp": "205.255.255.176",
                "userAgent": "curl/8.5.0",
            },
            "requestId": "JKJaXmPLvHcESHA=",
            "routeKey": "POST /pdfthin",
            "stage": "$default",
            "time": "30/Nov/2026:05:16:23 +0000",
            "timeEpoch": 1796015783000,
        },
        "body": text,
        "isBase64Encoded": encoded,
    }
    APIGatewayProxyEventV2Model.model_validate(event)
    return event


def rest_api_event(body: Any, *, method: str = "POST", base64_body: bool = False) -> dict:
    """An API Gateway REST API proxy integration request on ``/pdfthin`` (stage ``prod``)."""
    text, encoded = _body(body, base64_body)
    headers = {
        "Accept": "*/*",
        "Content-Type": "application/json",
        "Host": "70ixmpl4fl.execute-api.us-east-1.amazonaws.com",
        "User-Agent": "curl/8.5.0",
        "X-Amzn-Trace-Id": "Root=1-5e66d96f-7491f09xmpl79d18acf3d050",
        "X-Forwarded-For": "52.255.255.12",
        "X-Forwarded-Port": "443",
        "X-Forwarded-Proto": "https",
    }
    event = {
        "resource": "/pdfthin",
        "path": "/pdfthin",
        "httpMethod": method,
        "headers": headers,
        "multiValueHeaders": {name: [value] for name, value in headers.items()},
        "queryStringParameters": None,
        "multiValueQueryStringParameters": None,
        "pathParameters": None,
        "stageVariables": None,
        "requestContext": {
            "resourceId": "2gxmpl",
            "resourcePath": "/pdfthin",
            "httpMethod": method,
            "extendedRequestId": "JJbxmplHYosFVYQ=",
            "requestTime": "30/Nov/2026:00:03:59 +0000",
            "path": "/prod/pdfthin",
            "accountId": "123456789012",
            "protocol": "HTTP/1.1",
            "stage": "prod",
            "domainPrefix": "70ixmpl4fl",
            "requestTimeEpoch": 1796006639000,
            "requestId": "77375676-xmpl-4b79-853a-f982474efe18",
            "identity": {
                "cognitoIdentityPoolId": None,
                "accountId": None,
                "cognitoIdentityId": None,
                "caller": None,
                "sourceIp": "52.255.255.12",
                "principalOrgId": None,
                "accessKey": None,
                "cognitoAuthenticationType": None,
                "cognitoAuthenticationProvider": None,
                "userArn": None,
                "userAgent": "curl/8.5.0",
                "user": None,
            },
            "domainName": "70ixmpl4fl.execute-api.us-east-1.amazonaws.com",
            "apiId": "70ixmpl4fl",
        },
        "body": text,
        "isBase64Encoded": encoded,
    }
    APIGatewayProxyEventModel.model_validate(event)
    return event


def _body(body: Any, base64_body: bool) -> tuple[str | None, bool]:
    if body is None:
        return None, False
    text = body if isinstance(body, str) else json.dumps(body)
    if base64_body:
        return base64.b64encode(text.encode("utf-8")).decode("ascii"), True
    return text, False


EVENT_SHAPES = {
    "function_url": function_url_event,
    "http_api": http_api_event,
    "rest_api": rest_api_event,
}


#: The sample events under examples/lambda-events/ (the README's and docs/lambda.md's commands
#: use them): one request, ``describe_document`` of examples/sample.pdf sent as base64, in each
#: shape a function receives it. tests/test_lambda_handler.py keeps the files equal to these.
EXAMPLE_EVENTS = ROOT / "examples" / "lambda-events"


def example_events() -> dict[str, Any]:
    """File name -> event, built from examples/sample.pdf."""
    pdf = (ROOT / "examples" / "sample.pdf").read_bytes()
    request = {
        "operation": "describe_document",
        "document": {"base64": base64.b64encode(pdf).decode("ascii")},
    }
    return {
        "direct.json": request,
        "function-url.json": function_url_event(request),
        "http-api.json": http_api_event(request),
        "rest-api.json": rest_api_event(request),
    }


def check_http_response(response: Any) -> tuple[int, dict[str, str], dict[str, Any]]:
    """The status, headers and parsed body of a proxy response, checked for its shape."""
    assert set(response) == {"statusCode", "headers", "body", "isBase64Encoded"}, response
    assert response["isBase64Encoded"] is False
    assert response["headers"]["content-type"] == "application/json; charset=utf-8"
    return response["statusCode"], response["headers"], json.loads(response["body"])


# --- S3 -----------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def moto_server() -> Iterator[str]:
    """moto's S3 in server mode on 127.0.0.1, in its own process; yields its endpoint URL."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    endpoint = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(endpoint + "/moto-api/", timeout=2):
                    break
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError(
                        "moto server did not start: " + process.stderr.read().decode()  # type: ignore[union-attr]
                    ) from None
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield endpoint
    finally:
        process.kill()
        process.wait(timeout=30)


def s3_client(endpoint: str) -> Any:
    import boto3

    env = s3_env(endpoint)
    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"],
        aws_session_token=env["AWS_SESSION_TOKEN"],
    )
