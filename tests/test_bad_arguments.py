"""Bad arguments on every surface (issue 18, item 8): page numbers with thousands of digits,
huge integers, lone surrogates, NUL bytes, deeply nested JSON and the like are answered with
``invalid_argument`` (``invalid_pages`` for a page selection, ``invalid_cursor`` for a cursor,
``not_found``/``outside_root`` for a path), never ``internal``, a 500 or a traceback, and every
answer is JSON any transport can encode. Fuzzed through the MCP tool runner and the Lambda
handler; the MCP stdio transport answers requests the SDK cannot even parse.
"""

from __future__ import annotations

import base64
import json
import select
import subprocess
from pathlib import Path
from typing import Any

import anyio
import pytest
from hostile import get
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp_support import PYTHON, WORKDIR, free_port, server_args, start_http_server, stop

from pdfthin.adapters.aws.config import Config
from pdfthin.adapters.aws.handler import OPERATIONS, LambdaApp
from pdfthin.adapters.mcp.config import ServeConfig
from pdfthin.adapters.mcp.server import PdfthinServer
from pdfthin.adapters.mcp.tools import BY_NAME
from pdfthin.errors import ERROR_CODES

PDF = get("navigation/scan_inside_a_section").build()
#: The codes a bad argument may be answered with (``not_a_pdf``: a path naming a non-PDF).
EXPECTED = frozenset(ERROR_CODES) - {"internal", "busy", "timeout"}


def nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


#: The classes of issue 18, item 8, as JSON values.
HOSTILE_VALUES: dict[str, Any] = {
    "thousands-of-digits": "9" * 5000,
    "huge-int": 10**5000,
    "huge-negative": -(10**5000),
    "big-int": 2**200,
    "lone-surrogate": "a\ud800b",
    "lone-low-surrogate": "\udcff.pdf",
    "nul": "a.pdf\x00",
    "controls": "\x01\x02\x1b[31m",
    "deep-list": nested(50_000),
    "deep-object": {"a": {"b": {"c": {"d": {"e": {"f": nested(100)}}}}}},
    "inf": float("inf"),
    "nan": float("nan"),
    "huge-float": 1e308,
    "empty": "",
    "long-string": "x" * 100_000,
    "bool": True,
    "null-ish": "null",
    "list": [1, 2, 3],
    "object": {"pages": "1"},
}


def transportable(payload: Any) -> None:
    """The answer is JSON every transport can send (no lone surrogate, no huge integer)."""
    json.dumps(payload, ensure_ascii=False, allow_nan=True).encode("utf-8")


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("bad-args")
    (root / "a.pdf").write_bytes(PDF)
    (root / "\udcff.pdf").write_bytes(b"not reachable by a JSON client")
    return root


@pytest.fixture(scope="module")
def server(root: Path) -> PdfthinServer:
    return PdfthinServer(ServeConfig(root=str(root)))


def mcp_call(server: PdfthinServer, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = anyio.run(server.call, tool, arguments)
    content = result.structured_content
    assert content is not None
    transportable(content)
    if result.is_error:
        error = content["error"]
        assert error["code"] in EXPECTED, (tool, arguments, error)
        assert "\n" not in error["message"] and len(error["message"]) <= 1_000
        assert len(json.dumps(error)) < 5_000, error
    return dict(content)


def dumps_any(value: Any) -> str:
    """JSON text of ``value``, huge integers included (``json.dumps`` refuses to print them)."""
    huge: list[int] = []

    def swap(v: Any) -> Any:
        if isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > 10_000:
            huge.append(v)
            return f"__huge_{len(huge) - 1}__"
        if isinstance(v, list):
            return [swap(x) for x in v]
        if isinstance(v, dict):
            return {k: swap(x) for k, x in v.items()}
        return v

    text = json.dumps(swap(value), allow_nan=True)
    for i, number in enumerate(huge):
        sign = "-" if number < 0 else ""
        text = text.replace(f'"__huge_{i}__"', sign + "9" * 5000)
    return text


def lambda_call(app: LambdaApp, request: Any, http: bool) -> dict[str, Any]:
    if http:
        body = request if isinstance(request, str) else dumps_any(request)
        event = {
            "version": "2.0",
            "requestContext": {"http": {"method": "POST"}},
            "body": body,
            "isBase64Encoded": False,
        }
        response = app(event)
        assert response["statusCode"] != 500, response
        json.dumps(response)  # what the runtime sends
        payload: dict[str, Any] = json.loads(response["body"])
    else:
        payload = app(request)
        json.dumps(payload)
    transportable(payload)
    if "error" in payload:
        assert payload["error"]["code"] in EXPECTED, (request if http else "", payload)
    return payload


# --- every class, on every surface ------------------------------------------------------------

ARGUMENTS_BY_TOOL = {
    name: [p.name for p in spec.params] for name, spec in BY_NAME.items() if name != "get_image"
}


@pytest.mark.parametrize("value", list(HOSTILE_VALUES), ids=list(HOSTILE_VALUES))
def test_every_argument_of_every_tool_refuses_each_class(server: PdfthinServer, value: str) -> None:
    bad = HOSTILE_VALUES[value]
    for tool, names in {**ARGUMENTS_BY_TOOL, "get_image": ["image_id", "max_bytes"]}.items():
        for name in names:
            arguments: dict[str, Any] = {"path": "a.pdf", name: bad}
            if tool == "find_in_document" and name != "query":
                arguments["query"] = "words"
            if tool == "get_image" and name != "image_id":
                arguments["image_id"] = "p1-x1"
            if tool == "inspect_layout" and name != "page":
                arguments["page"] = 1
            mcp_call(server, tool, arguments)
    mcp_call(server, bad if isinstance(bad, str) else "describe_document", {"path": "a.pdf"})


@pytest.mark.parametrize("value", list(HOSTILE_VALUES), ids=list(HOSTILE_VALUES))
@pytest.mark.parametrize("http", [False, True], ids=["direct", "http"])
def test_every_argument_of_every_lambda_operation_refuses_each_class(
    value: str, http: bool
) -> None:
    app = LambdaApp(Config())
    document = {"base64": base64.b64encode(PDF).decode()}
    bad = HOSTILE_VALUES[value]
    if http and value == "deep-list":
        bad = nested(300)  # json.dumps itself cannot write the deeper one; see the raw bodies
    for operation, function in OPERATIONS.items():
        import inspect

        names = [p for p in inspect.signature(function).parameters if p != "context"][1:]
        for name in names:
            request: dict[str, Any] = {"operation": operation, "document": document, name: bad}
            if operation == "find_in_document" and name != "query":
                request["query"] = "words"
            if operation == "get_image" and name != "image_id":
                request["image_id"] = "p1-x1"
            if operation == "inspect_layout" and name != "page":
                request["page"] = 1
            lambda_call(app, request, http)
        lambda_call(app, {"operation": operation, "document": bad}, http)
        lambda_call(app, {"operation": operation, "document": {"s3": {"bucket": bad}}}, http)
    lambda_call(app, {"operation": bad, "document": document}, http)


@pytest.mark.parametrize(
    "body",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"operation": "read_pages", "pages": ' + "9" * 5000 + "}",
        '{"operation": "read_pages", "pages": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"operation": "find_in_document", "query": "\\ud800"}',
        '{"operation": "read_pages"' + "\x00" + "}",
        "\udcff",
    ],
    ids=["nested", "digits", "nested-argument", "surrogate", "nul", "raw-surrogate"],
)
def test_raw_lambda_bodies(body: str) -> None:
    payload = lambda_call(LambdaApp(Config()), body, http=True)
    assert payload["error"]["code"] == "invalid_argument", payload


def test_the_cases_of_the_issue_are_named_precisely(server: PdfthinServer) -> None:
    def code(tool: str, **arguments: Any) -> str:
        got = mcp_call(server, tool, {"path": "a.pdf", **arguments})
        return str(got.get("error", {}).get("code", "ok"))

    assert code("read_pages", pages="9" * 900) == "invalid_pages"
    assert code("read_pages", pages="9" * 5000) == "invalid_argument"  # past the schema's length
    assert code("read_pages", pages=10**5000) == "invalid_pages"
    assert code("find_in_document", query="a\ud800") == "invalid_argument"
    assert code("find_in_document", query="a\x00b") == "invalid_argument"
    assert code("peek", seed=10**5000) == "invalid_argument"
    assert code("read_pages", max_chars=nested(50_000)) == "invalid_argument"
    assert code("read_pages", cursor="\ud800") == "invalid_cursor"
    assert mcp_call(server, "describe_document", {"path": "\ud800.pdf"})["error"]["code"] == (
        "invalid_argument"
    )
    assert mcp_call(server, "describe_document", {"path": "a.pdf\x00"})["error"]["code"] == (
        "invalid_argument"
    )
    assert mcp_call(server, "list_documents", {"pattern": "*\ud800"})["error"]["code"] == (
        "invalid_argument"
    )


# --- fuzzing ----------------------------------------------------------------------------------

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**17, max_value=10**40),
    st.sampled_from([5000, -5000, 63]).map(
        lambda n: 10**n if n > 63 else -(10**-n) if n < 0 else 2**n
    ),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.text(alphabet=st.characters(codec=None, categories=["Cs", "Cc"]), max_size=5),
    st.sampled_from(["1-3", "0", "9" * 5000, "s-1", "p1-x1", "a.pdf", "../a.pdf", "*"]),
)
JSON_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
) | st.sampled_from([nested(20_000), {"k": nested(3_000)}])


@st.composite
def tool_calls(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    tool = draw(st.sampled_from(sorted(BY_NAME)))
    names = [p.name for p in BY_NAME[tool].params]
    keys = draw(st.lists(st.one_of(st.sampled_from(names), st.text(max_size=6)), max_size=4))
    arguments = {key: draw(JSON_VALUES) for key in keys}
    if draw(st.booleans()):
        arguments["path"] = "a.pdf"
    return tool, arguments


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(call=tool_calls())
def test_fuzz_the_mcp_tool_runner(server: PdfthinServer, call: tuple[str, dict[str, Any]]) -> None:
    tool, arguments = call
    mcp_call(server, tool, arguments)


@st.composite
def lambda_requests(draw: st.DrawFn) -> Any:
    operation = draw(st.one_of(st.sampled_from(sorted(OPERATIONS)), JSON_VALUES))
    request: dict[str, Any] = {"operation": operation}
    if draw(st.booleans()):
        request["document"] = {"base64": base64.b64encode(PDF).decode()}
    else:
        request["document"] = draw(JSON_VALUES)
    names = ["pages", "query", "section", "cursor", "max_chars", "seed", "position", "password"]
    for key in draw(st.lists(st.one_of(st.sampled_from(names), st.text(max_size=6)), max_size=4)):
        request[key] = draw(JSON_VALUES)
    return draw(st.one_of(st.just(request), JSON_VALUES))


_APP = LambdaApp(Config())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(request=lambda_requests(), http=st.booleans())
def test_fuzz_the_lambda_handler(request: Any, http: bool) -> None:
    if http:
        try:
            dumps_any(request)
        except RecursionError:
            http = False  # json.dumps cannot write it; the raw bodies above cover those
    lambda_call(_APP, request, http)


# --- the CLI ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "exit_code", "code"),
    [
        # A query no operation accepts is usage (exit 2), refused before the file is opened.
        (["find", "{file}", "a\udcffb"], 2, "QUERY"),  # argv's undecodable bytes
        (["find", "{file}", "a\x01b"], 2, "QUERY"),
        (["read", "{file}", "--pages", "9" * 5000], 2, "--pages"),
        (["read", "{file}", "--pages", "\udcff"], 1, "invalid_pages"),
        (["section", "{file}", "s-1\udcff"], 2, "ID"),
        (["image", "{file}", "p1-\udcff", "-o", "/dev/null"], 1, "invalid_argument"),
        (["read", "{file}", "--cursor", "\udcff" * 10], 1, "invalid_cursor"),
    ],
)
def test_the_cli_answers_bad_arguments_in_one_line(
    root: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    exit_code: int,
    code: str,
) -> None:
    from pdfthin.adapters.cli import main

    args = [a.replace("{file}", str(root / "a.pdf")) for a in argv]
    assert main(args) == exit_code
    err = capsys.readouterr().err
    lead = f"pdfthin {argv[0]}: {code} " if exit_code == 2 else f"pdfthin: {code}: "
    assert err.startswith(lead), err
    assert "Traceback" not in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(
    "argv",
    [["read", "{file}", "--max-chars", "9" * 5000], ["peek", "{file}", "--seed", "9" * 5000]],
)
def test_the_cli_refuses_huge_numbers_as_usage(
    root: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    from pdfthin.adapters.cli import main

    with pytest.raises(SystemExit) as info:
        main([a.replace("{file}", str(root / "a.pdf")) for a in argv])
    assert info.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


# --- what the MCP SDK cannot parse ------------------------------------------------------------

_UNREADABLE = {
    "surrogate": b'{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":'
    b'"find_in_document","arguments":{"path":"a.pdf","query":"a\\ud800"}}}',
    "digits": b'{"jsonrpc":"2.0","id":"twelve","method":"tools/call","params":{"name":"read_pages",'
    b'"arguments":{"path":"a.pdf","pages":' + b"9" * 5000 + b"}}}",
    "nested": b'{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"read_pages",'
    b'"arguments":{"path":"a.pdf","pages":' + b"[" * 100_000 + b"]" * 100_000 + b"}}}",
    "id-in-arguments-first": b'{"jsonrpc":"2.0","method":"tools/call","params":{"name":"peek",'
    b'"arguments":{"id":99,"path":"\\udcff"}},"id":14}',
    "not-json-rpc": b'{"jsonrpc":"2.0","id":15,"method":7}',
    "huge-id": b'{"jsonrpc":"2.0","id":' + b"9" * 5000 + b',"method":"tools/list"}',
    "not-json": b"this is not JSON",
}
#: The id each unreadable request is answered with (JSON-RPC: null where it cannot be told).
_IDS = {
    "surrogate": 11,
    "digits": "twelve",
    "nested": 13,
    "id-in-arguments-first": 14,
    "not-json-rpc": 15,
    "huge-id": None,
    "not-json": None,
}


def _read_line(process: subprocess.Popen[bytes], timeout: float = 15.0) -> dict[str, Any]:
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    assert ready, "no answer"
    return dict(json.loads(process.stdout.readline()))


def test_the_stdio_server_answers_what_the_sdk_cannot_parse(root: Path) -> None:
    """The SDK's stdio transport drops a line it cannot parse without an answer (the client
    would wait forever); pdfthin's answers it as the SDK's HTTP transport does: a JSON-RPC
    parse error, here with the request's id where the line still tells it, and the
    invalid_argument envelope as data. The server goes on serving."""
    process = subprocess.Popen(
        [PYTHON, *server_args(root)],
        cwd=WORKDIR,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None

    def send(line: bytes) -> None:
        assert process.stdin is not None
        process.stdin.write(line + b"\n")
        process.stdin.flush()

    try:
        init = {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "test", "version": "1"},
            },
        }
        send(json.dumps(init).encode())
        assert _read_line(process)["id"] == 0
        send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        for name, line in _UNREADABLE.items():
            send(line)
            answer = _read_line(process)
            assert answer["id"] == _IDS[name], (name, answer)
            error = answer["error"]
            assert error["code"] in (-32700, -32600), (name, error)
            assert error["data"]["error"]["code"] == "invalid_argument", (name, error)
        # A malformed notification gets no answer; the next request is answered as usual.
        send(b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":7}')
        call = {
            "jsonrpc": "2.0",
            "id": 20,
            "method": "tools/call",
            "params": {"name": "describe_document", "arguments": {"path": "a.pdf"}},
        }
        send(json.dumps(call).encode())
        answer = _read_line(process)
        assert answer["id"] == 20 and answer["result"]["structuredContent"]["unreadable"]
    finally:
        process.stdin.close()
        process.wait(timeout=15)


def test_the_http_transport_answers_what_it_cannot_parse_itself(root: Path) -> None:
    """Documented behaviour of the SDK's Streamable HTTP transport (not pdfthin's code): an
    unparsable body is HTTP 400 with a JSON-RPC parse error (id null), never a 500 or no
    answer."""
    import http.client

    port = free_port()
    process = start_http_server(root, port)
    try:
        for name in ("surrogate", "digits", "nested", "not-json"):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
            conn.request(
                "POST",
                "/mcp",
                body=_UNREADABLE[name],
                headers={
                    "content-type": "application/json",
                    "accept": "application/json, text/event-stream",
                },
            )
            response = conn.getresponse()
            body = json.loads(response.read())
            conn.close()
            assert response.status == 400, (name, body)
            assert body["error"]["code"] == -32700 and body["id"] is None, (name, body)
    finally:
        stop(process)
