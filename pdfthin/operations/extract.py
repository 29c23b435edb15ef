"""``extract_schema``: a JSON Schema filled from a document deterministically, by form fields,
labels in the text and tables (:mod:`pdfthin.model.extraction`), each field with its page, box,
tier and confidence; a field not found is ``null`` and listed in ``missing`` with why.

The scope is the selected pages (all by default). Pages that could not be read (they need OCR,
or were read in part) are named in ``coverage`` as ``find_in_document`` names them: a field not
found then says it may stand there (``not_found_coverage_incomplete``), never that it is absent.
The answer fits ``max_chars``: fields that do not fit are left ``null`` in ``data`` and named in
``omitted`` (call again with a larger budget or fewer fields); there is no cursor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pdfthin.model.extraction import Extraction, Filled, compile_schema, extract
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.find import search_coverage
from pdfthin.operations.forms import form_fields
from pdfthin.operations.params import SCHEMA, budget
from pdfthin.operations.response import bbox, document_summary, size
from pdfthin.operations.unreadable import report
from pdfthin.pages import format_pages, parse_pages

if TYPE_CHECKING:
    from pdfthin.model.extraction.schema import SchemaSpec
    from pdfthin.operations.types import ExtractedField, ExtractMissing, ExtractResponse

__all__ = ["extract_schema"]

#: Room kept for ``omitted`` when fields are left out for the budget.
_RESERVE = 400
_XFA_NOTE = (
    "the document's form is XFA: values held only in its XFA data are not read (its pages "
    "are marked partial)"
)


def extract_schema(
    document: Source,
    *,
    schema: dict[str, Any] | str,
    pages: str | int | None = None,
    max_chars: int | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> ExtractResponse:
    """``schema`` filled from the selected pages: ``data`` (the schema's object, ``null``
    where nothing was found), ``fields`` (how each value was found), ``missing`` (why each
    null), ``coverage``."""
    context = context or default_context()
    limit = budget(max_chars, context)
    spec = compile_schema(SCHEMA.check(schema))
    doc = context.document(document, password)
    selection = parse_pages(pages, doc.page_count)
    chosen = set(selection)
    views = {
        n: {"status": p.status, "reason_code": p.reason_code}
        for n in selection
        for p in (doc.page(n),)
    }
    coverage, _ = search_coverage(selection, views, None, None, False, limit)
    readable = [doc.page(n) for n in selection if views[n]["status"] in ("text", "ocr")]
    form = [
        f
        for f in form_fields(document, context, password=password)
        if (f.page in chosen if f.page else pages is None)
    ]
    found = extract(spec, readable, form, coverage_complete=coverage["complete"])

    response: ExtractResponse = {
        "document": document_summary(doc),
        "pages": format_pages(selection),
        "data": _data(spec, {}),
        "fields": {},
        "missing": [_missing(m.path, m.reason, m.message) for m in found.missing],
        "coverage": coverage,
    }
    unreadable = report(doc, selection, limit)
    if unreadable:
        response["unreadable"] = unreadable
    notes = list(found.notes)
    if doc.facts.xfa:
        notes.append(_XFA_NOTE)
    if notes:
        response["notes"] = notes
    _fill(response, spec, found, limit)
    return response


def _data(spec: SchemaSpec, values: dict[str, Any]) -> dict[str, Any]:
    """The schema's object with ``values`` (by path) in place, ``null`` elsewhere."""

    def build(shape: Any, prefix: str) -> dict[str, Any]:
        return {
            name: build(inner, f"{prefix}{name}.")
            if isinstance(inner, dict)
            else values.get(prefix + name)
            for name, inner in shape.items()
        }

    return build(spec.shape, "")


def _missing(path: str, reason: str, message: str) -> ExtractMissing:
    return {"path": path, "reason": reason, "message": message}


def _entry(filled: Filled) -> ExtractedField:
    out: ExtractedField = {
        "value": filled.value,
        "raw": filled.raw,
        "page": filled.page,
        "bbox": bbox(filled.bbox) if filled.bbox else None,
        "tier": filled.tier,
        "confidence": filled.confidence,
        "label": filled.label,
        "match": filled.match,
    }
    if filled.rule:
        out["rule"] = filled.rule
    if filled.also_found:
        out["also_found"] = [[page, value] for page, value in filled.also_found]
    if filled.columns is not None:
        out["columns"] = filled.columns
    if filled.pages is not None:
        out["pages"] = format_pages(filled.pages)
    return out


def _fill(response: ExtractResponse, spec: SchemaSpec, found: Extraction, limit: int) -> None:
    """Each filled field into ``data`` and ``fields`` in the schema's order while the answer
    fits ``limit``; the rest named in ``omitted``."""
    room = limit - size(response) - _RESERVE
    values: dict[str, Any] = {}
    left_out: list[str] = []
    for spec_field in spec.fields:
        filled = found.filled.get(spec_field.path)
        if filled is None:
            continue
        entry = _entry(filled)
        # The entry and its value again in data.
        cost = size(entry) + size(filled.value) + 2 * len(spec_field.path) + 8
        if left_out or cost > room:
            left_out.append(spec_field.path)
            continue
        room -= cost
        values[spec_field.path] = filled.value
        response["fields"][spec_field.path] = entry
    response["data"] = _data(spec, values)
    if left_out:
        response["omitted"] = {
            "reason": "budget",
            "paths": left_out,
            "message": (
                f"{len(left_out)} field(s) were found but do not fit max_chars; they are null "
                "in data here: call again with a larger max_chars, or a schema of fewer fields"
            ),
        }
