"""Each operation is declared once (``pdfthin/operations/registry.py``), and every adapter exposes
exactly the registry's operations with the registry's arguments: the MCP tool list (as the SDK
serves it), the Lambda handler's routes and argument checks, the browser bridge and the command
line. A surface that keeps an operation or an argument of its own fails here."""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from pdfthin.errors import PdfthinError
from pdfthin.operations import OPERATIONS, Context, Operation
from pdfthin.operations.params import Param
from pdfthin.operations.registry import BY_COMMAND, BY_NAME

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "examples" / "sample.pdf"
IDS = [op.name for op in OPERATIONS]


def _names(op: Operation) -> list[str]:
    return [p.name for p in op.params]


def _bad_value(param: Param) -> Any:
    """A value the declaration refuses whatever the document."""
    return {
        "string": 12,
        "integer": "twelve",
        "boolean": "yes",
        "pages": [1],
        "boxes": 12,
        "object": 12,
        "document": 12,
    }[param.kind]


#: A schema extract_schema takes, whatever the document.
_SCHEMA = {"type": "object", "properties": {"title": {"type": "string"}}}


def _bad(op: Operation, param: Param) -> dict[str, Any]:
    """Arguments that are right but for ``param``'s value."""
    required = {
        "query": "the",
        "image_id": "p1-i1",
        "page": 1,
        "quote": "the",
        "anchor": f"pdfthin:{'0' * 64}/p/1#c=0-3",
        "schema": _SCHEMA,
        "new": "v2.pdf",
        "text": "words read on the page",
    }
    right = {p.name: required[p.name] for p in op.params if p.required}
    return {**right, param.name: _bad_value(param)}


def test_names_are_unique() -> None:
    assert len(BY_NAME) == len(OPERATIONS) == len(BY_COMMAND)
    for op in OPERATIONS:
        assert len(set(_names(op))) == len(op.params), op.name


def _all_params() -> list[Param]:
    from pdfthin.adapters.mcp import sandbox, tools

    listing = [sandbox.SUBDIRECTORY, sandbox.PATTERN, sandbox.MAX_RESULTS, sandbox.CURSOR]
    return [tools.PATH, *listing, *(p for op in OPERATIONS for p in op.params)]


def test_arguments_of_a_set_form_show_examples() -> None:
    """An argument whose form a model must get right (a page selection, a pattern, an id, a
    path) shows examples in its schema, and each example is a value the argument accepts."""
    pytest.importorskip("mcp")
    shaped = 0
    for param in _all_params():
        has_form = param.kind in ("pages", "boxes") or param.pattern is not None
        has_form |= param.name in ("path", "image_id", "subdirectory")
        if has_form:
            shaped += 1
            assert param.examples, param.name
        schema = param.schema()
        assert schema.get("examples", []) == list(param.examples)
        for example in param.examples:
            jsonschema.validate(example, schema)
            assert param.check(example) == example, (param.name, example)
    assert shaped >= 6


@pytest.mark.parametrize("op", OPERATIONS, ids=IDS)
def test_the_handler_takes_exactly_the_declared_arguments(op: Operation) -> None:
    params = list(inspect.signature(op.handler).parameters.values())
    assert params[0].name == "document"
    assert params[-1].name == "context"
    assert [p.name for p in params[1:-1]] == _names(op)
    for param, declared in zip(params[1:-1], op.params, strict=True):
        # Absent is the declaration's default: the handler fills it in from the declaration.
        if not declared.required:
            assert param.default is None, (op.name, param.name)


@pytest.mark.parametrize("op", OPERATIONS, ids=IDS)
def test_the_output_schema_comes_from_the_answer_type(op: Operation) -> None:
    schema = op.output_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    shapes = schema.get("anyOf", [schema])
    assert all("document" in shape["required"] for shape in shapes)
    if op.paginated:
        assert all("next_cursor" in shape["required"] for shape in shapes)


def _undeclared(value: Any, schema: dict[str, Any], where: str = "") -> list[str]:
    """The keys of ``value`` that ``schema`` does not declare (its objects are open, so a
    validator would let a key the answer type forgot pass)."""
    if "anyOf" in schema:
        options = [_undeclared(value, option, where) for option in schema["anyOf"]]
        valid = [
            o
            for o, s in zip(options, schema["anyOf"], strict=True)
            if jsonschema.Draft202012Validator(s).is_valid(value)
        ]
        return min(valid or options, key=len)
    if isinstance(value, dict) and "properties" in schema:
        out = []
        for key, item in value.items():
            if key not in schema["properties"]:
                out.append(f"{where}.{key}")
            else:
                out.extend(_undeclared(item, schema["properties"][key], f"{where}.{key}"))
        return out
    if isinstance(value, dict) and isinstance(schema.get("additionalProperties"), dict):
        inner = schema["additionalProperties"]
        return [k for key, v in value.items() for k in _undeclared(v, inner, f"{where}.{key}")]
    if isinstance(value, list) and "items" in schema:
        return [k for i, v in enumerate(value) for k in _undeclared(v, schema["items"], where)]
    return []


def _sample_arguments(op: Operation, context: Context) -> dict[str, Any]:
    if op.name in ("find_in_document", "search_chunks"):
        return {"query": "the"}
    if op.name == "inspect_layout":
        return {"page": 1}
    if op.name == "extract_schema":
        return {"schema": _SCHEMA}
    if op.name == "diff_documents":
        return {"new": SAMPLE}
    if op.name == "verify_quote":
        return {"quote": "the"}
    if op.name == "resolve_anchor":
        found = BY_NAME["verify_quote"].handler(SAMPLE, quote="the", context=context)
        return {"anchor": found["match"]["anchor"]}
    if op.name == "render_citation":
        return {"page": 1, "bbox": "72,72,200,100"}
    if op.name == "get_page_image":
        return {"page": 1, "region": "72,72,200,100"}
    if op.name == "submit_transcription":
        # The sample has a text layer: a region's transcription (kept apart) is taken.
        return {"page": 1, "text": "a signature", "region": "72,600,300,720"}
    if op.name == "get_image":
        listed = BY_NAME["list_images"].handler(SAMPLE, context=context)
        if not listed["images"]:
            pytest.skip("the sample has no image")
        return {"image_id": listed["images"][0]["id"]}
    return {}


@pytest.mark.parametrize("op", OPERATIONS, ids=IDS)
def test_answers_satisfy_their_schema(op: Operation) -> None:
    from citation_support import fake_binding

    # A rasterizer that answers a blank PNG (render_citation's image; no program needed).
    context = Context(ocr=fake_binding())
    answers = [op.handler(SAMPLE, **_sample_arguments(op, context), context=context)]
    if op.budgeted:  # a small budget: the answer with its cursor (or what it left out) too
        answers.append(
            op.handler(SAMPLE, **_sample_arguments(op, context), max_chars=1_000, context=context)
        )
    for answer in answers:
        plain = json.loads(json.dumps(answer))
        jsonschema.validate(plain, op.output_schema())
        assert _undeclared(plain, op.output_schema()) == []


@pytest.mark.parametrize("op", OPERATIONS, ids=IDS)
def test_the_handlers_check_their_options_as_declared(op: Operation) -> None:
    """The Python API (and the command line, which calls it) refuses a number out of range or a
    choice not offered, as the transports do."""
    context = Context()
    for param in op.params:
        if param.kind == "integer" and param.maximum is not None:
            bad: Any = param.maximum + 1
        elif param.enum is not None:
            bad = "none of these"
        else:
            continue
        arguments = {**_sample_arguments(op, context), param.name: bad}
        with pytest.raises(PdfthinError) as info:
            op.handler(SAMPLE, **arguments, context=context)
        assert info.value.code == "invalid_argument"
        assert info.value.details["argument"] == param.name


# --- MCP ----------------------------------------------------------------------------------------


def _served_tools(root: Path) -> dict[str, Any]:
    pytest.importorskip("mcp")
    from pdfthin.adapters.mcp.config import ServeConfig
    from pdfthin.adapters.mcp.server import PdfthinServer

    server = PdfthinServer(ServeConfig(root=str(root))).mcp()
    return {tool.name: tool for tool in asyncio.run(server.list_tools())}


def test_mcp_serves_exactly_the_registry(tmp_path: Path) -> None:
    tools = _served_tools(tmp_path)
    assert set(tools) == {"list_documents", *BY_NAME}
    for op in OPERATIONS:
        tool = tools[op.name]
        schema = tool.input_schema
        assert list(schema["properties"]) == ["path", *_names(op)]
        for param in op.params:
            if param.kind == "document":  # a second document: a path under the root, as path
                assert schema["properties"][param.name]["type"] == "string"
                assert (
                    schema["properties"][param.name]["maxLength"]
                    == (schema["properties"]["path"]["maxLength"])
                )
                continue
            assert schema["properties"][param.name] == param.schema()
        assert schema["required"] == ["path", *(p.name for p in op.params if p.required)]
        assert schema["additionalProperties"] is False
        assert tool.description.startswith(op.description)
        assert tool.title == op.title
        # The answer's properties, as the type declares them (a file's bytes travel apart).
        answer = op.output_schema()
        declared = {k for shape in answer.get("anyOf", [answer]) for k in shape["properties"]}
        if op.file:
            declared -= {"encoding", "data"}
        advertised = tool.output_schema["properties"]
        assert set(advertised) == declared | {"error"}


def test_mcp_checks_arguments_as_declared() -> None:
    pytest.importorskip("mcp")
    from pdfthin.adapters.mcp.tools import BY_NAME as TOOLS

    for op in OPERATIONS:
        for param in op.params:
            with pytest.raises(PdfthinError) as info:
                TOOLS[op.name].arguments({"path": "a.pdf", **_bad(op, param)})
            assert info.value.code == "invalid_argument"
            assert info.value.details["argument"] == param.name


# --- Lambda -------------------------------------------------------------------------------------


def test_lambda_routes_exactly_the_registry() -> None:
    from pdfthin.adapters.aws import handler

    assert {op.name: op.handler for op in OPERATIONS} == handler.OPERATIONS


@pytest.mark.parametrize("op", OPERATIONS, ids=IDS)
def test_lambda_checks_arguments_as_declared(op: Operation) -> None:
    from pdfthin.adapters.aws.handler import _parse

    with pytest.raises(PdfthinError) as info:
        _parse({"operation": op.name, "document": {}, "bogus": 1})
    assert info.value.message.endswith("it takes " + ", ".join(["document", *_names(op)]))
    for param in op.params:
        with pytest.raises(PdfthinError) as info:
            _parse({"operation": op.name, "document": {}, **_bad(op, param)})
        assert info.value.code == "invalid_argument"
        assert info.value.details["argument"] == param.name


# --- the browser bridge -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bridge() -> Any:
    from pdfthin.adapters import browser

    return browser


def test_the_bridge_calls_exactly_the_registry(bridge: Any) -> None:
    handle = bridge.open_document(SAMPLE.read_bytes())
    unknown = json.loads(bridge.call("nothing", handle))["error"]["message"]
    assert unknown.endswith("the operations are " + ", ".join(BY_COMMAND))
    for op in OPERATIONS:
        answer = json.loads(bridge.call(op.command, handle, json.dumps({"bogus": 1})))
        assert answer["error"]["code"] == "invalid_argument"
        assert answer["error"]["message"].endswith("it takes " + ", ".join(_names(op)))
        for param in op.params:
            raw = json.dumps(_bad(op, param))
            error = json.loads(bridge.call(op.command, handle, raw))["error"]
            assert error["code"] == "invalid_argument", (op.name, param.name)
            assert error["details"]["argument"] == param.name


def test_the_bridge_takes_time_limits(bridge: Any) -> None:
    try:
        bridge.set_limits(document_seconds=1e-9)
        handle = bridge.open_document(SAMPLE.read_bytes())
        pages = json.loads(bridge.call("read", handle))["pages"]
        assert pages and all("time limit" in page["reason"] for page in pages)
        for bad in (0, -1, float("nan"), float("inf"), True, "5"):
            with pytest.raises(PdfthinError) as info:
                bridge.set_limits(page_seconds=bad)
            assert info.value.code == "invalid_argument"
    finally:
        bridge.set_limits()
    handle = bridge.open_document(SAMPLE.read_bytes())
    pages = json.loads(bridge.call("read", handle))["pages"]
    assert not any("time limit" in page.get("reason", "") for page in pages)


# --- the command line ---------------------------------------------------------------------------

#: What a command takes that is the command line's own, not an argument of its operation.
_CLI_ONLY = {"help", "file", "format", "native"}
_CLI_EXTRA = {
    "describe": {"ocr"},
    "find": {"quiet"},
    "image": {"output", "random"},
    "cite": {"output", "ocr"},
    "page-image": {"output", "ocr"},
    "inspect": {"output"},
}


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    from pdfthin.adapters.cli import _parser

    parser = _parser()
    (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_the_cli_has_a_command_for_each_operation_with_its_arguments() -> None:
    commands = _subcommands()
    assert set(commands) == {*BY_COMMAND, "serve", "batch"}
    for op in OPERATIONS:
        actions = {a.dest: a for a in commands[op.command]._actions}
        extra = _CLI_ONLY | _CLI_EXTRA.get(op.command, set())
        assert set(actions) - extra == set(_names(op)), op.command
        for param in op.params:
            action = actions[param.name]
            if param.enum is not None:
                assert tuple(action.choices or ()) == param.enum
                assert action.default == param.default
            if param.kind == "integer":
                assert action.type is int
            if param.kind == "boolean" and param.name != "ocr":
                assert action.default == param.default


def test_the_cli_checks_through_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    from pdfthin.adapters.cli import main

    # Each number is range-checked by the declaration, as on every other surface; on the
    # command line that is usage (exit 2), before the file is opened, in the flag's name.
    for op in OPERATIONS:
        for param in op.params:
            if param.kind != "integer" or param.maximum is None:
                continue
            flag = "--" + param.name.replace("_", "-")
            argv = [op.command, str(SAMPLE), flag, str(param.maximum + 1)]
            if op.name in ("find_in_document", "search_chunks", "verify_quote"):
                argv.insert(2, "the")
            if op.name == "get_image":
                argv[2:2] = ["p1-i1", "-o", "/dev/null"]
            if op.name == "inspect_layout" or (op.name == "get_page_image" and flag != "--page"):
                argv += ["--page", "1"]
            if op.name == "extract_schema":
                argv += ["--schema", json.dumps(_SCHEMA)]
            if op.name == "diff_documents":
                argv.insert(2, str(SAMPLE))
            if op.name == "submit_transcription":
                argv += ["--page", "1", "--text", "words"] if flag != "--page" else ["--text", "w"]
            assert main(argv) == 2, argv
            assert f"{flag} must be an integer from" in capsys.readouterr().err


def test_an_operation_without_a_command_of_its_own_is_one_on_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Adding an operation is its declaration and its handler: the command line gives it a
    command (its answer as JSON), with its arguments as options."""
    import pdfthin.operations
    from pdfthin.adapters.cli import main

    bound_param = Param("at_least", "integer", "A bound.", minimum=1, maximum=10, default=1)

    def count_pages(
        document: Any, *, at_least: int | None = None, password: str | None = None, context: Any
    ) -> dict[str, Any]:
        bound: int = bound_param.value(at_least)  # a handler checks through its declarations
        doc = context.document(document, password)
        return {"pages": doc.page_count, "enough": doc.page_count >= bound}

    op = Operation(
        "count_pages",
        "count",
        "Count pages",
        "...",
        (bound_param,),
        lambda: count_pages,
        dict[str, object],
    )
    monkeypatch.setattr(pdfthin.operations, "OPERATIONS", (*OPERATIONS, op))
    monkeypatch.setitem(BY_COMMAND, "count", op)
    assert main(["count", str(SAMPLE), "--at-least", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["enough"] in (True, False)
    assert main(["count", str(SAMPLE), "--at-least", "11"]) == 2  # usage, by the declaration
    assert "--at-least must be an integer from 1 to 10" in capsys.readouterr().err
