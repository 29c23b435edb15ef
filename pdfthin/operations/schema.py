"""JSON schemas from the answer types of :mod:`.types`: the output schemas a transport advertises
are derived, never written by hand, so they say what the handlers build.

Objects are open (no ``additionalProperties: false``): a client that validates an answer
against an older schema keeps working when a later version adds a key.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, Union, get_args, get_origin

_SCALARS: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


def json_schema(tp: Any) -> dict[str, Any]:
    """The JSON schema of ``tp``: a TypedDict, a list or ``dict[str, T]`` of them, a scalar, a
    ``Literal``, ``T | None``, or any of these ``Annotated`` with a description."""
    origin = get_origin(tp)
    if origin is typing.Annotated:
        inner, *notes = get_args(tp)
        schema = json_schema(inner)
        described = [n for n in notes if isinstance(n, str)]
        if described:
            schema["description"] = " ".join(described)
        return schema
    if tp is type(None):
        return {"type": "null"}
    if tp in _SCALARS:
        return {"type": _SCALARS[tp]}
    if tp is object:
        return {}
    if origin is Literal:
        values = list(get_args(tp))
        kinds = sorted({_SCALARS[type(v)] for v in values})
        return {"type": kinds[0] if len(kinds) == 1 else kinds, "enum": values}
    if origin in (Union, types.UnionType):
        options = [json_schema(arg) for arg in get_args(tp)]
        if all(set(o) == {"type"} and isinstance(o["type"], str) for o in options):
            return {"type": [o["type"] for o in options]}
        return {"anyOf": options}
    if origin is list:
        (item,) = get_args(tp)
        return {"type": "array", "items": json_schema(item)}
    if origin is dict:
        key, value = get_args(tp)
        if key is not str:
            raise TypeError(f"JSON object keys are strings, not {key!r}")
        return {"type": "object", "additionalProperties": json_schema(value)}
    if typing.is_typeddict(tp):
        return _object(tp)
    raise TypeError(f"no JSON schema for {tp!r}")


def _object(tp: type) -> dict[str, Any]:
    hints = typing.get_type_hints(tp, include_extras=True)
    required: frozenset[str] = tp.__required_keys__  # type: ignore[attr-defined]
    names = sorted(hints, key=lambda name: name not in required)  # the keys always there first
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {name: json_schema(hints[name]) for name in names},
        "required": [name for name in names if name in required],
    }
    if tp.__doc__:
        schema["description"] = " ".join(tp.__doc__.split())
    return schema
