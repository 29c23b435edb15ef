"""The server's tools: every operation of the registry (``pdfthin/operations/registry.py``),
its document given as a path under the server's root, and ``list_documents`` (the sandbox's
listing). No MCP import here: the specs are plain data, and :class:`Runner` is a plain
synchronous function of ``(tool, arguments)`` that the server runs in worker threads.

Arguments are validated here, against the same declarations that produce the advertised JSON
schemas, so an argument an agent gets wrong is answered with an ``invalid_argument`` envelope
that says what to fix (the SDK's own validation would answer with a pydantic dump and no
envelope).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from pdfthin.adapters.mcp.sandbox import LISTING_PARAMS, MAX_PATH_CHARS, Listing, Sandbox
from pdfthin.deadline import Deadline, applied
from pdfthin.operations import OPERATIONS, Context, Operation
from pdfthin.operations.params import Param, arguments, documents
from pdfthin.operations.schema import json_schema
from pdfthin.operations.source import CachedOnly
from pdfthin.operations.types import ErrorBody

PATH = Param(
    "path",
    "string",
    "The PDF, as a path relative to the server's root, exactly as list_documents gives it "
    "(e.g. 'reports/q3.pdf'). An absolute path is read only when it lies inside the root; "
    "paths leaving the root are refused.",
    required=True,
    max_length=MAX_PATH_CHARS,
    examples=("report.pdf", "reports/2024/q3.pdf"),
)

#: What a tool answering a file adds to its description: how MCP carries the file.
_FILE_CONTENT = (
    " Over MCP the file comes as image content (PNG, JPEG) or, for the types few clients "
    "display (JPEG 2000, TIFF, JBIG2), as an embedded resource blob; the structured result "
    "describes it."
)
#: Keys of a file answer that travel as a content block rather than in the structured result.
FILE_KEYS = ("encoding", "data")

ERROR_OUTPUT: dict[str, Any] = {
    **json_schema(ErrorBody),
    "description": "present only on a tool error (isError): the error envelope",
}


@dataclass(frozen=True)
class ToolSpec:
    name: str
    title: str
    description: str
    params: tuple[Param, ...]
    #: The answer's type (``pdfthin/operations/types.py``, or the sandbox's listing).
    response: Any
    #: The operation; ``None``: list_documents (the sandbox).
    operation: Operation | None

    @property
    def handler(self) -> Callable[..., Any] | None:
        return None if self.operation is None else self.operation.handler

    @property
    def documents(self) -> tuple[Param, ...]:
        """The documents the call names besides ``path``, each opened as ``path`` is."""
        return () if self.operation is None else documents(self.operation.params)

    def input_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {p.name: p.schema() for p in self.params},
            "required": [p.name for p in self.params if p.required],
            "additionalProperties": False,
        }

    def output_schema(self) -> dict[str, Any]:
        """The answer, or the error envelope: some clients (the MCP Inspector among them)
        validate the structured content of an error result against this schema too. An answer
        that may take several shapes (read_section without a section is read_pages) lists the
        properties of each and requires what one of them always has."""
        answer = json_schema(self.response)
        shapes = answer.get("anyOf", [answer])
        properties: dict[str, Any] = {}
        for shape in shapes:
            for name, schema in shape["properties"].items():
                if name in FILE_KEYS and self.operation is not None and self.operation.file:
                    continue  # sent as a content block
                known = properties.get(name)
                if known is None:
                    properties[name] = schema
                elif known != schema:
                    properties[name] = {"anyOf": [*known.get("anyOf", [known]), schema]}
        required = [[n for n in shape["required"] if n in properties] for shape in shapes]
        return {
            "type": "object",
            "properties": {**properties, "error": ERROR_OUTPUT},
            "anyOf": [*({"required": names} for names in required), {"required": ["error"]}],
        }

    def arguments(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        """The validated arguments; ``null`` counts as absent (many clients send it for an
        optional argument)."""
        return arguments(self.name, self.params, raw)


def _as_path(param: Param) -> Param:
    """A second document of an operation (``diff_documents``' ``new``), given over MCP as the
    first is: a path under the root."""
    if param.kind != "document":
        return param
    return Param(
        param.name,
        "string",
        param.description + " Here: a path relative to the server's root, as path.",
        required=param.required,
        max_length=MAX_PATH_CHARS,
        examples=PATH.examples,
    )


def _tool(op: Operation) -> ToolSpec:
    return ToolSpec(
        op.name,
        op.title,
        op.description + (_FILE_CONTENT if op.file else ""),
        (PATH, *(_as_path(p) for p in op.params)),
        op.response_type,
        op,
    )


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "list_documents",
        "List PDFs under the root",
        "List the PDFs under the server's root whose path matches a glob pattern (default "
        "'*.pdf', case-insensitive; '*' also matches '/', so it searches every subdirectory; "
        "only names ending in .pdf unless all_files is true). "
        "Returns documents as {path, size (bytes), modified (ISO 8601 UTC)} in path order; "
        "path is what every other tool takes. Files are never opened here (a listed file may "
        "still turn out not to be a PDF). Use this first to find what can be read. At most "
        "max_results entries per call; next_cursor continues. 'skipped' counts entries left "
        "out (links leading outside the root, unreadable directories).",
        LISTING_PARAMS,
        Listing,
        None,
    ),
    *(_tool(op) for op in OPERATIONS),
)

BY_NAME: dict[str, ToolSpec] = {tool.name: tool for tool in TOOLS}


class Runner:
    """Runs one validated tool call synchronously: the sandbox opens the file, the operation
    answers (reading it only if the cache cannot). Shared by every call, so the document cache
    in ``context`` is shared too."""

    def __init__(self, sandbox: Sandbox, context: Context) -> None:
        self.sandbox = sandbox
        self.context = context

    def __call__(
        self, tool: ToolSpec, arguments: dict[str, Any], deadline: Deadline | None = None
    ) -> dict[str, Any]:
        with applied(deadline or Deadline()):
            if tool.handler is None:
                return dict(self.sandbox.list_documents(**arguments))
            kwargs = dict(arguments)
            with ExitStack() as files:
                file = files.enter_context(self.sandbox.open(kwargs.pop("path")))
                for param in tool.documents:
                    kwargs[param.name] = files.enter_context(self.sandbox.open(kwargs[param.name]))
                return dict(tool.handler(file, **kwargs, context=self.context))

    def cached(
        self, tool: ToolSpec, arguments: dict[str, Any], deadline: Deadline | None = None
    ) -> dict[str, Any] | None:
        """The answer if the cache alone gives it (no read of the file, no extraction, no
        wait for either), else ``None``. Errors found on the way (a path outside the root, a
        wrong password) are answers too."""
        assert tool.handler is not None
        with applied(deadline or Deadline()):
            kwargs = dict(arguments)
            with ExitStack() as files:
                file = files.enter_context(self.sandbox.open(kwargs.pop("path"), cached_only=True))
                for param in tool.documents:
                    path = kwargs[param.name]
                    kwargs[param.name] = files.enter_context(
                        self.sandbox.open(path, cached_only=True)
                    )
                try:
                    return dict(tool.handler(file, **kwargs, context=self.context))
                except CachedOnly:
                    return None
