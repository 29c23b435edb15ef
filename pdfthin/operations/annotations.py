"""``get_annotations``: a document's links, comments, markup, stamps and attachments.

Each annotation of the selected pages is listed in page order and, on a page, in the order of
its ``/Annots`` (popups and form widgets left out), with an id ``p{page}-a{n}``; then, when the
whole document is asked for, the files embedded in it (``/EmbeddedFiles``), named and sized,
never opened. A link or markup annotation carries the page text under it (``text``: the anchor
of a link, the words a highlight covers); everything else it carries (``contents``, ``author``,
a URI, a file name) was written into the file by whoever annotated it, and is labelled so
(invariant 15).

The page's annotations are read from the file when a call first needs them (cheap: no content
stream), and the text under them when an entry of that page is first answered (one read of the
page's text); both are kept with the cached document.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from pdfthin.errors import PdfthinError, shown
from pdfthin.model.annotations import CoveredTexts, covered_texts
from pdfthin.operations import cursor as cur
from pdfthin.operations.context import Context, Source, default_context
from pdfthin.operations.paging import DROP, Pager, fill, lean_first
from pdfthin.operations.params import ANNOTATION_KINDS, KINDS, budget
from pdfthin.operations.response import bbox, document_summary, size
from pdfthin.pages import format_pages, parse_pages

if TYPE_CHECKING:
    from pdfthin.engine import Annotation, EmbeddedFile, EngineDocument
    from pdfthin.model import Document
    from pdfthin.operations.types import (
        AnnotationEntry,
        AnnotationsAfter,
        AnnotationsResponse,
        EmbeddedFileEntry,
    )

#: Room for ``omitted`` beside the cursor.
_RESERVE = 240
_DERIVED_KEY = "annotations.catalogue"
_EMBEDDED = "embedded_file"
#: Problems named in one answer (a hostile file may have one per page).
_MAX_PROBLEMS = 20


@dataclass(slots=True)
class _Catalogue:
    """What has been read of the document's annotations, kept with the cached document."""

    pages: dict[int, list[Annotation]] = field(default_factory=dict)
    texts: dict[int, CoveredTexts] = field(default_factory=dict)
    problems: dict[int, list[str]] = field(default_factory=dict)
    embedded: list[EmbeddedFile] | None = None
    embedded_problems: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def get_annotations(
    document: Source,
    *,
    pages: str | int | None = None,
    kinds: str | None = None,
    max_chars: int | None = None,
    cursor: str | cur.Cursor | None = None,
    password: str | None = None,
    context: Context | None = None,
) -> AnnotationsResponse:
    """The annotations of the selected pages (all pages by default) of the ``kinds`` asked for
    (comma-separated; all by default), then the document's embedded files when the whole
    document is asked for, inside the character budget; ``next_cursor`` continues the list."""
    context = context or default_context()
    limit = budget(max_chars, context)
    wanted = _kinds(kinds)
    doc = context.document(document, password)
    selection = parse_pages(pages, doc.page_count)
    with_embedded = pages is None and _EMBEDDED in wanted
    catalogue = _catalogue(doc)
    args = cur.args_digest(op="annotations", pages=format_pages(selection), kinds=sorted(wanted))
    pager = Pager("annotations", doc, args, cursor, context.cursor_key)
    # One position past the pages: the embedded files.
    at = pager.resume_at(len(selection) + 1)
    offset = pager.start.offset if pager.start is not None else 0

    with ExitStack() as stack:
        engine: EngineDocument | None = None

        def open_engine() -> EngineDocument:
            nonlocal engine
            if engine is None:
                data = stack.enter_context(context.data(document, doc.fingerprint))
                engine = stack.enter_context(context.engine(data, password))
            return engine

        listed = {n: _listed(catalogue, n, wanted, open_engine) for n in selection}
        embedded: list[EmbeddedFile] = []
        if with_embedded:
            embedded = _embedded(catalogue, open_engine)
        if at == len(selection) and not with_embedded:
            raise PdfthinError("invalid_cursor", "the cursor points past the end of the list")
        length = len(embedded) if at == len(selection) else len(listed[selection[at]])
        if offset > length:
            raise PdfthinError("invalid_cursor", "the cursor points past the page's annotations")

        by_kind: dict[str, int] = {}
        for n in selection:
            for _, a in listed[n]:
                by_kind[a.kind] = by_kind.get(a.kind, 0) + 1
        problems = [p for n in selection for p in catalogue.problems.get(n, [])]
        if with_embedded:
            problems.extend(catalogue.embedded_problems)
        after: AnnotationsAfter = {}
        if problems:
            after["problems"] = list(dict.fromkeys(problems))[:_MAX_PROBLEMS]
        response: AnnotationsResponse = {
            "document": document_summary(doc),
            "pages": format_pages(selection),
            "kinds": [k for k in ANNOTATION_KINDS if k in wanted],
            "total_annotations": sum(by_kind.values()),
            "by_kind": by_kind,
            "total_embedded_files": len(embedded) if with_embedded else 0,
            "annotations": [],
            "embedded_files": [],
            "next_cursor": None,
            **after,
        }

        def items() -> Iterator[tuple[int, int]]:
            """(position in ``selection``, or its length for the embedded files; index in
            that list), from the cursor on."""
            for position in range(at, len(selection)):
                first = offset if position == at else 0
                for index in range(first, len(listed[selection[position]])):
                    yield position, index
            first = offset if at == len(selection) else 0
            for index in range(first, len(embedded)):
                yield len(selection), index

        def entry(item: tuple[int, int]) -> AnnotationEntry | EmbeddedFileEntry:
            position, index = item
            if position == len(selection):
                return _embedded_entry(embedded[index])
            number = selection[position]
            ordinal, annotation = listed[number][index]
            return _entry(catalogue, number, ordinal, annotation, open_engine)

        entries: list[AnnotationEntry | EmbeddedFileEntry] = []
        room = limit - size(response) - pager.longest(len(selection), offset=True) - _RESERVE
        stop = fill(entries, items(), entry, room)
    for e in entries:
        if "page" in e:
            response["annotations"].append(cast("AnnotationEntry", e))
        else:
            response["embedded_files"].append(e)
    if stop is not None:
        position, index = stop.item
        left = sum(len(listed[n]) for n in selection[position:]) - (
            index if position < len(selection) else 0
        )
        files = len(embedded) - (index if position == len(selection) else 0)
        response["next_cursor"] = pager.cursor(position, index)
        response["omitted"] = {
            "reason": "budget",
            "annotations": left,
            "embedded_files": files,
            "message": (
                f"{left} more annotation(s) and {files} embedded file(s) not in this response; "
                "call again with next_cursor to continue"
            ),
        }
    # The first entry always goes in; one longer than the whole answer's budget leaves out
    # the page's text under it, its boxes and dates (read_pages and a larger budget give
    # them), then cuts its texts, what it says last.
    if len(entries) == 1:
        listed_in = cast("list[Any]", response["annotations"] or response["embedded_files"])
        lean_first(response, listed_in[0], limit, _LEAN_STEPS, _LEAN_CUT)
    return response


_LEAN_STEPS = [(key, DROP) for key in ("quads", "text", "text_problem", "modified", "created")]
_LEAN_CUT = ("subject", "author", "file", "name", "uri", "contents")


def _kinds(kinds: str | None) -> frozenset[str]:
    if kinds is None:
        return frozenset(ANNOTATION_KINDS)
    checked: str = KINDS.check(kinds)
    asked = {k.strip() for k in checked.split(",")}
    unknown = sorted(asked - set(ANNOTATION_KINDS))
    if unknown:
        raise PdfthinError(
            "invalid_argument",
            f"kinds names no kind {shown(', '.join(unknown))}; the kinds are "
            + ", ".join(ANNOTATION_KINDS),
            argument="kinds",
        )
    return frozenset(asked)


def _catalogue(doc: Document) -> _Catalogue:
    with _LOCK:
        found = doc.derived.get(_DERIVED_KEY)
        if not isinstance(found, _Catalogue):
            found = _Catalogue()
            doc.derived[_DERIVED_KEY] = found
        return found


def _page(
    catalogue: _Catalogue, number: int, open_engine: Callable[[], EngineDocument]
) -> list[Annotation]:
    with catalogue.lock:
        found = catalogue.pages.get(number)
        if found is None:
            read = open_engine().annotations(number)
            found = read.annotations
            catalogue.pages[number] = found
            catalogue.problems[number] = [f"page {number}: {p}" for p in read.problems]
        return found


def _listed(
    catalogue: _Catalogue,
    number: int,
    wanted: frozenset[str],
    open_engine: Callable[[], EngineDocument],
) -> list[tuple[int, Annotation]]:
    """The page's annotations of the kinds wanted, with their ordinals among all the page's
    annotations (their ids do not depend on the filter)."""
    return [
        (i, a)
        for i, a in enumerate(_page(catalogue, number, open_engine), start=1)
        if a.kind in wanted
    ]


def _embedded(
    catalogue: _Catalogue, open_engine: Callable[[], EngineDocument]
) -> list[EmbeddedFile]:
    with catalogue.lock:
        if catalogue.embedded is None:
            engine = open_engine()
            before = len(engine.problems)
            catalogue.embedded = engine.embedded_files()
            catalogue.embedded_problems = engine.problems[before:]
        return catalogue.embedded


def _texts(
    catalogue: _Catalogue, number: int, open_engine: Callable[[], EngineDocument]
) -> CoveredTexts:
    with catalogue.lock:
        found = catalogue.texts.get(number)
        if found is None:
            found = covered_texts(open_engine(), number, catalogue.pages[number])
            catalogue.texts[number] = found
        return found


def _entry(
    catalogue: _Catalogue,
    number: int,
    ordinal: int,
    a: Annotation,
    open_engine: Callable[[], EngineDocument],
) -> AnnotationEntry:
    item: AnnotationEntry = {"id": f"p{number}-a{ordinal}", "page": number, "kind": a.kind}
    if a.kind == "other":
        item["subtype"] = a.subtype
    if a.rect is not None:
        item["bbox"] = bbox(a.rect)
    if a.quads:
        item["quads"] = [bbox(q) for q in a.quads]
    texts = _texts(catalogue, number, open_engine)
    text = texts.texts[ordinal - 1]
    if text is not None:
        item["text"] = text
        if texts.problem is not None:
            item["text_problem"] = texts.problem
    for key in (
        "contents",
        "author",
        "subject",
        "modified",
        "created",
        "action",
        "uri",
        "target_page",
        "target_problem",
        "named",
        "file",
        "file_size",
        "icon",
    ):
        value = getattr(a, key)
        if value is not None:
            item[key] = value
    if a.truncated:
        item["truncated"] = True
    return item


def _embedded_entry(f: EmbeddedFile) -> EmbeddedFileEntry:
    item: EmbeddedFileEntry = {"name": f.name}
    if f.size is not None:
        item["size"] = f.size
    if f.description is not None:
        item["description"] = f.description
    if f.truncated:
        item["truncated"] = True
    return item


_LOCK = threading.Lock()
