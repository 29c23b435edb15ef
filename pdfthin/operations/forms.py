"""``get_form_fields``: the fields of a PDF's interactive form (AcroForm), their values and
where they stand, each with a label.

A field's label is its tooltip (``/TU``: the file's words, not page text, and labelled so:
``label_source`` ``"tooltip"``), else the page text beside its widget (``"nearby_text"``; see
:mod:`pdfthin.model.forms`), else ``null``. Fields are listed in the order their widgets stand
(page, top to bottom, left to right), each once, at its first shown widget; a field without a
widget comes last, and only when no page selection is given. The list is read once per
document and kept with it; a cursor continues it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from pdfthin.model.forms import LabelledField, labelled_fields
from pdfthin.operations import cursor as cur
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.paging import Pager, fill, lean_first
from pdfthin.operations.params import budget
from pdfthin.operations.response import bbox, document_summary, size
from pdfthin.operations.unreadable import report
from pdfthin.pages import format_pages, parse_pages

if TYPE_CHECKING:
    from pdfthin.operations.types import (
        FieldKind,
        FormFieldEntry,
        FormFieldsAfter,
        FormFieldsResponse,
    )

__all__ = ["LabelledField", "form_fields", "get_form_fields"]

#: Room for ``omitted`` beside the cursor (whose longest form is measured).
_RESERVE = 240
_DERIVED_KEY = "forms.fields"
#: Widgets of one field listed in its entry (a field repeated on every page of a long
#: document names its first ones; ``widget_count`` says how many there are).
MAX_LISTED_WIDGETS = 20
_XFA_NOTE = (
    "the document's form is XFA: fields held only in its XFA data are not read (their pages "
    "are marked partial)"
)


def form_fields(
    document: Source, context: Context | None = None, *, password: str | None = None
) -> list[LabelledField]:
    """The document's form fields, labelled, in the order their widgets stand (read once and
    kept with the cached document): each with ``.name``, ``.kind``, ``.label``,
    ``.label_source``, ``.value``, ``.page`` and ``.bbox`` (a displayed box in points,
    top-left origin, as a tuple; ``None`` for a field without a widget)."""
    context = context or default_context()
    doc = context.document(document, password)
    cached = doc.derived.get(_DERIVED_KEY)
    if isinstance(cached, list):
        return cached
    with context.data(document, doc.fingerprint) as data, context.engine(data, password) as engine:
        fields = labelled_fields(engine)
    doc.derived[_DERIVED_KEY] = fields
    return fields


def get_form_fields(
    document: Source,
    *,
    pages: str | int | None = None,
    max_chars: int | None = None,
    cursor: str | cur.Cursor | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> FormFieldsResponse:
    """The form's fields whose widget stands on the selected pages (all fields, also those
    without a widget, when no pages are given), inside the character budget; ``next_cursor``
    continues the list."""
    context = context or default_context()
    limit = budget(max_chars, context)
    doc = context.document(document, password)
    selection = parse_pages(pages, doc.page_count)
    chosen = set(selection)
    everything = form_fields(document, context, password=password)
    listed = [f for f in everything if (f.page in chosen if f.page else pages is None)]
    args = cur.args_digest(op="fields", pages=format_pages(selection), whole=pages is None)
    pager = Pager("fields", doc, args, cursor, context.cursor_key)
    start = pager.resume_at(len(listed))

    after: FormFieldsAfter = {}
    xfa = bool(doc.facts.xfa)
    # The pages the listed fields stand on, whose text gave their labels; every selected
    # page of an XFA form, whose fields may stand on any of them unread.
    scope = selection if xfa else sorted({f.page for f in listed if f.page})
    unreadable = report(doc, scope, limit)
    if unreadable:
        after["unreadable"] = unreadable
    if xfa:
        after["note"] = _XFA_NOTE
    response: FormFieldsResponse = {
        "document": document_summary(doc),
        "pages": format_pages(selection),
        "xfa": xfa,
        "total_fields": len(listed),
        "fields": [],
        "next_cursor": None,
        **after,
    }
    room = limit - size(response) - pager.longest(len(listed)) - _RESERVE
    stop = fill(response["fields"], range(start, len(listed)), lambda i: entry(listed[i]), room)
    if stop is not None:
        left = len(listed) - stop.item
        response["next_cursor"] = pager.cursor(stop.item)
        response["omitted"] = {
            "reason": "budget",
            "fields": left,
            "message": (
                f"{left} more field(s) not in this response; call again with next_cursor "
                "to continue"
            ),
        }
    # The first field always goes in; one longer than the whole answer's budget leaves out
    # its widgets past the first (widget_count counts them all), then its options (a larger
    # budget gives both).
    if len(response["fields"]) == 1:
        steps = [("widgets", lambda widgets: widgets[:1]), ("options", [])]
        lean_first(response, cast("dict[str, Any]", response["fields"][0]), limit, steps)
    return response


def entry(field: LabelledField) -> FormFieldEntry:
    """One field as the answer lists it."""
    value = None if field.password else field.value  # what a viewer masks is not handed on
    out: FormFieldEntry = {
        "name": field.name,
        "kind": cast("FieldKind", field.kind),
        "label": field.label,
        "label_source": field.label_source,
        "value": list(value) if isinstance(value, list) else value,
        "options": list(field.options),
        "page": field.page,
        "bbox": bbox(field.bbox) if field.bbox else None,
        "read_only": field.read_only,
        "required": field.required,
        "appearance_differs": field.appearance_differs,
    }
    if field.appearance_differs and field.appearance is not None and not field.password:
        out["appearance"] = field.appearance
    for flag in ("multiline", "password"):
        if getattr(field, flag):
            out[flag] = True
    if field.widgets and not any(w.shown for w in field.widgets):
        out["hidden"] = True
    if len(field.widgets) > 1:
        out["widgets"] = [
            {"page": w.page, "bbox": bbox(w.rect)} for w in field.widgets[:MAX_LISTED_WIDGETS]
        ]
        out["widget_count"] = len(field.widgets)
    return out
