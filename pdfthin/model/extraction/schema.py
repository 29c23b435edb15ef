"""The JSON Schema subset ``extract_schema`` fills, compiled into flat field specs.

Accepted: an object (``type: "object"`` with ``properties``) whose properties are strings
(``format: "date"`` for a date, normalised to ISO 8601; ``enum`` to choose among set
values), numbers, integers, booleans, objects of those (their fields are looked for as the
top level's, under a dotted path) and arrays of objects (line items: each item property is a
table column). A type may be given with ``"null"`` beside it (``["string", "null"]``), as
schemas written for language models often are. Labels to look for come from the property's
name (``invoice_number`` is "invoice number"), its ``title``, the pdfthin extension
``x-labels`` (a list of strings) and, for an exact match only, its ``description``; a date
may say ``x-date-order`` (``"DMY"`` or ``"MDY"``) to read ``03/02/2024`` one way.

Anything else is refused with ``invalid_argument`` naming the schema path: a reference, a
combinator (``anyOf`` ...), an array of scalars or of arrays, a type not listed. Annotations
(``$schema``, ``$id``, ``required``, ``additionalProperties``, ``examples``, ``default``) are
accepted and do not change what is looked for. The schema is bounded: its size, its depth and
its number of fields.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pdfthin.errors import PdfthinError

Kind = Literal["string", "date", "number", "integer", "boolean", "array", "object"]
DateOrder = Literal["DMY", "MDY"]

#: The schema's size as compact JSON: a schema is a form's description, not a document.
MAX_SCHEMA_CHARS = 20_000
#: Objects inside objects (the top level is 1; an array's item object counts one more).
MAX_DEPTH = 4
#: Fields looked for in all (each item property of an array counts once).
MAX_FIELDS = 200
#: Labels of one field, and the length of each.
MAX_LABELS = 16
MAX_LABEL_CHARS = 120

#: Keywords that annotate without changing what is looked for.
_ANNOTATIONS = frozenset(
    {
        "$schema",
        "$id",
        "$comment",
        "title",
        "description",
        "required",
        "additionalProperties",
        "examples",
        "default",
        "x-labels",
        "x-date-order",
        "format",
        "enum",
        "type",
        "properties",
        "items",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "maxLength",
        "minLength",
        "pattern",
    }
)
_SCALARS = {"string", "number", "integer", "boolean"}
#: ``invoiceNumber`` and ``invoice_number`` both read "invoice number".
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One field to fill: its path in the answer (``total``, ``buyer.name``, ``items``; an item
    property's path is relative to its item: ``amount``), what it holds, and its labels."""

    path: str
    kind: Kind
    #: Labels matched exactly or by token subset (name, title, x-labels), in that order.
    labels: tuple[str, ...]
    #: Labels matched exactly only (the description: often a sentence).
    exact_labels: tuple[str, ...] = ()
    date_order: DateOrder | None = None
    enum: tuple[str, ...] = ()
    #: An array's item properties.
    items: tuple[FieldSpec, ...] = ()


@dataclass(frozen=True, slots=True)
class SchemaSpec:
    #: The fields in the schema's order, nested objects flattened to dotted paths.
    fields: tuple[FieldSpec, ...]
    #: The object's shape for the answer's ``data``: property -> nested shape (``None`` for a
    #: field, which the path names).
    shape: Mapping[str, Any]


def _refuse(path: str, message: str) -> PdfthinError:
    return PdfthinError(
        "invalid_argument",
        f"schema{path and ' at ' + path}: {message}",
        argument="schema",
        path=path or "/",
    )


def parse_schema(raw: Any) -> dict[str, Any]:
    """The schema as an object: given as one, or as JSON text (the command line's form)."""
    if isinstance(raw, str):
        if len(raw) > MAX_SCHEMA_CHARS:
            raise _refuse("", f"longer than {MAX_SCHEMA_CHARS} characters")
        try:
            raw = json.loads(raw)
        except ValueError as exc:
            raise _refuse("", f"not JSON ({exc.args[0]})") from None
    if not isinstance(raw, dict):
        raise _refuse("", "must be a JSON object with type 'object' and properties")
    try:
        text = json.dumps(raw, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        raise _refuse("", "must be plain JSON") from None
    if len(text) > MAX_SCHEMA_CHARS:
        raise _refuse("", f"longer than {MAX_SCHEMA_CHARS} characters as JSON")
    return raw


def compile_schema(raw: Any) -> SchemaSpec:
    """The fields of ``raw`` (an object, or its JSON text) to look for;
    ``invalid_argument`` naming the path of the first thing refused."""
    schema = parse_schema(raw)
    counter = [0]
    fields, shape = _object(schema, "", "", 1, counter, in_item=False)
    if not fields:
        raise _refuse("/properties", "names no field to fill")
    return SchemaSpec(tuple(fields), shape)


def _type_of(node: Mapping[str, Any], where: str) -> str:
    """The node's one type (beside an optional ``"null"``)."""
    kind = node.get("type")
    if isinstance(kind, list):
        named = [k for k in kind if k != "null"]
        if len(named) != 1 or not all(isinstance(k, str) for k in kind):
            raise _refuse(where + "/type", "one type (with 'null' beside it at most)")
        kind = named[0]
    if not isinstance(kind, str):
        raise _refuse(
            where + "/type", "a type is needed: string, number, integer, boolean, object or array"
        )
    if kind not in (*_SCALARS, "object", "array"):
        raise _refuse(where + "/type", f"type {kind!r} is not one pdfthin fills")
    return kind


def _check_keywords(node: Mapping[str, Any], where: str) -> None:
    for key in node:
        if key not in _ANNOTATIONS:
            raise _refuse(f"{where}/{key}", f"the keyword {key!r} is not supported")


def _object(
    node: Any, where: str, prefix: str, depth: int, counter: list[int], *, in_item: bool
) -> tuple[list[FieldSpec], dict[str, Any]]:
    if not isinstance(node, dict):
        raise _refuse(where, "must be an object")
    _check_keywords(node, where)
    if _type_of(node, where) != "object":
        raise _refuse(where + "/type", "must be 'object' here")
    if depth > MAX_DEPTH:
        raise _refuse(where, f"objects nest deeper than {MAX_DEPTH} levels")
    properties = node.get("properties")
    if not isinstance(properties, dict) or not properties:
        raise _refuse(where + "/properties", "an object needs properties (a non-empty object)")
    fields: list[FieldSpec] = []
    shape: dict[str, Any] = {}
    for name, child in properties.items():
        at = f"{where}/properties/{name}"
        if not name.strip() or len(name) > MAX_LABEL_CHARS or "." in name or "[" in name:
            raise _refuse(at, "a property name is 1 to 120 characters, without '.' or '['")
        if not isinstance(child, dict):
            raise _refuse(at, "must be an object")
        _check_keywords(child, at)
        kind = _type_of(child, at)
        path = f"{prefix}{name}"
        if kind == "object":
            inner, inner_shape = _object(child, at, path + ".", depth + 1, counter, in_item=in_item)
            if in_item:
                raise _refuse(
                    at, "an item of an array holds strings, numbers, dates and booleans only"
                )
            fields.extend(inner)
            shape[name] = inner_shape
            continue
        if kind == "array":
            if in_item:
                raise _refuse(at, "an array inside an array's items is not supported")
            items = child.get("items")
            if not isinstance(items, dict) or _type_of(items, at + "/items") != "object":
                raise _refuse(
                    at + "/items",
                    "an array's items must be objects (line items: one property per table column)",
                )
            inner, _ = _object(items, at + "/items", "", depth + 1, counter, in_item=True)
            fields.append(_spec(child, at, path, name, "array", tuple(inner)))
        else:
            fields.append(_spec(child, at, path, name, kind, ()))
        shape[name] = None
        counter[0] += 1
        if counter[0] > MAX_FIELDS:
            raise _refuse(at, f"more than {MAX_FIELDS} fields")
    return fields, shape


def _spec(
    node: Mapping[str, Any],
    where: str,
    path: str,
    name: str,
    kind: str,
    items: tuple[FieldSpec, ...],
) -> FieldSpec:
    labels = [" ".join(_CAMEL.sub(" ", name).replace("_", " ").replace("-", " ").split())]
    title = node.get("title")
    if title is not None:
        labels.append(_label(title, where + "/title"))
    extra = node.get("x-labels", [])
    if not isinstance(extra, list):
        raise _refuse(where + "/x-labels", "a list of strings")
    labels.extend(_label(x, f"{where}/x-labels/{i}") for i, x in enumerate(extra))
    description = node.get("description")
    exact = (_label(description, where + "/description", 400),) if description else ()
    if len(labels) > MAX_LABELS:
        raise _refuse(where + "/x-labels", f"at most {MAX_LABELS} labels")
    fmt = node.get("format")
    if fmt is not None and (kind != "string" or fmt != "date"):
        raise _refuse(where + "/format", "only a string's format 'date' is supported")
    order = node.get("x-date-order")
    if order is not None and (fmt is None or order not in ("DMY", "MDY")):
        raise _refuse(where + "/x-date-order", "'DMY' or 'MDY', on a string of format date")
    enum = node.get("enum", [])
    if not isinstance(enum, list) or not all(isinstance(e, str) for e in enum):
        raise _refuse(where + "/enum", "a list of strings (on a string field)")
    if enum and kind != "string":
        raise _refuse(where + "/enum", "a list of strings (on a string field)")
    final: Kind = "date" if fmt is not None else kind  # type: ignore[assignment]
    unique = tuple(dict.fromkeys(lb for lb in labels if lb))
    return FieldSpec(path, final, unique, exact, order, tuple(enum), items)


def _label(value: Any, where: str, maximum: int = MAX_LABEL_CHARS) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > maximum:
        raise _refuse(where, f"a label is a non-empty string of at most {maximum} characters")
    return value.strip()
