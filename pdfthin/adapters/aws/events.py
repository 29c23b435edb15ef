"""The event shapes a Lambda function receives, and the response each one expects.

- ``http_v2``: Lambda Function URLs and API Gateway HTTP APIs (payload format 2.0): the method in
  ``requestContext.http.method``;
- ``http_v1``: API Gateway REST API proxy integrations (and HTTP APIs with payload format 1.0):
  ``httpMethod`` at the top;
- ``direct``: ``aws lambda invoke`` / an SDK call / Step Functions: the event is the request;
- ``batch_item``: one item of a Step Functions Distributed Map, ``{"batch_item": {...}}``
  (:mod:`pdfthin.adapters.aws.items`): answered with the document's record, or a failure
  raised so that Step Functions sees its name as the ``Error``.

HTTP events carry the request as a JSON body (base64-encoded when the gateway decided the body
was binary) and get ``{statusCode, headers, body}`` back; a direct invocation gets the
operation's response, or the error envelope, as the payload itself.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from pdfthin.errors import PdfthinError
from pdfthin.operations.response import dumps

HTTP_V2 = "http_v2"
HTTP_V1 = "http_v1"
DIRECT = "direct"
ITEM = "batch_item"

_JSON = "application/json; charset=utf-8"


class MethodNotAllowed(PdfthinError):
    """An HTTP request with a method other than POST: ``invalid_argument`` answered as 405."""

    def __init__(self, method: str) -> None:
        super().__init__(
            "invalid_argument",
            f"send requests as POST with a JSON body, not {method}",
            method=method,
        )


def kind_of(event: Any) -> str:
    if isinstance(event, dict):
        context = event.get("requestContext")
        if isinstance(context, dict):
            if isinstance(context.get("http"), dict) and "httpMethod" not in event:
                return HTTP_V2
            if "httpMethod" in event:
                return HTTP_V1
        if ITEM in event:  # a request has "operation"; an item has this key and no other
            return ITEM
    return DIRECT


def request_of(kind: str, event: Any) -> dict[str, Any]:
    """The request object the event carries."""
    if kind == DIRECT:
        if not isinstance(event, dict):
            raise PdfthinError(
                "invalid_argument",
                'the payload must be a JSON object like {"operation": "read_pages", '
                '"document": {...}}',
            )
        return event
    if kind == HTTP_V2:
        method = str(event["requestContext"]["http"].get("method", "")).upper()
    else:
        method = str(event.get("httpMethod", "")).upper()
    if method != "POST":
        raise MethodNotAllowed(method)
    body = event.get("body")
    if not body:
        raise PdfthinError("invalid_argument", "the request body is empty; send a JSON object")
    if not isinstance(body, str):
        raise PdfthinError("invalid_argument", "the request body must be text")
    try:
        if event.get("isBase64Encoded"):
            body = base64.b64decode(body, validate=True).decode("utf-8")
        request = json.loads(body)
    except (binascii.Error, UnicodeDecodeError, ValueError) as exc:
        raise PdfthinError("invalid_argument", f"the request body is not JSON: {exc}") from None
    except RecursionError:  # nested deeper than Python's JSON reader goes
        raise PdfthinError("invalid_argument", "the request body nests too deeply") from None
    if not isinstance(request, dict):
        raise PdfthinError("invalid_argument", "the request body must be a JSON object")
    return request


def respond(kind: str, status: int, payload: dict[str, Any], headers: dict[str, str]) -> Any:
    """What the handler returns for this event kind."""
    if kind == DIRECT:
        return payload
    # The body is the compact JSON the budget measured, so max_chars holds for what the client
    # receives. The same shape serves v1 and v2 (both read statusCode, headers, body).
    return {
        "statusCode": status,
        "headers": {"content-type": _JSON, "cache-control": "no-store", **headers},
        "body": dumps(payload),
        "isBase64Encoded": False,
    }


def payload_bytes(response: Any) -> int:
    """An upper bound on the bytes Lambda sends for ``response``: the runtime's JSON with
    every non-ASCII character escaped (longer than its UTF-8) and its default separators."""
    return len(json.dumps(response))
