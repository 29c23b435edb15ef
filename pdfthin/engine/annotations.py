"""A page's annotations (``/Annots``) and the document's embedded files, read as plain data:
links with their targets, comments, markup with the boxes it covers, stamps, free text, file
attachments (named and sized, never opened or decoded).

What an annotation holds (its ``/Contents``, ``/T`` author, a file name) is written by whoever
made or commented the file: it is not page text (invariant 15), and the layers above label it
so. Every walk is bounded (:mod:`.walk`): each annotation once per page (a cyclic or shared
``/Annots`` is read once), at most :data:`MAX_PAGE_ANNOTATIONS` per page, every text cut to
:data:`MAX_TEXT_CHARS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pypdf.generic import IndirectObject, StreamObject

from pdfthin.engine.catalog import Catalog, name_tree, pdf_date
from pdfthin.engine.content.interpreter import decode_text_string
from pdfthin.engine.objects import get, num, resolve
from pdfthin.engine.streams import stored_data
from pdfthin.engine.walk import Walk

#: Annotations read on one page: far more than any real page holds (a page of a
#: spreadsheet-like form has a few hundred); a longer array is cut and said so.
MAX_PAGE_ANNOTATIONS = 10_000
#: Characters kept of one annotation's text (a comment, a URI, a file name): room for a long
#: comment, not for a payload.
MAX_TEXT_CHARS = 4_000
#: Quadrilaterals read of one markup annotation or link (each is a line of text covered).
MAX_QUADS = 1_000
#: Values the annotation walks of one document may look at together (every page's /Annots
#: entries and quadrilateral numbers): as much as one walk (:data:`.walk.MAX_WALK_STEPS`),
#: many times what a heavily linked book holds. Without it, pages sharing one long /Annots
#: array cost pages x its length.
MAX_DOCUMENT_STEPS = 1_000_000
#: Embedded files listed from the document's name tree.
MAX_EMBEDDED_FILES = 1_000

#: ``/Subtype`` -> the kind pdfthin names it. Popups (a comment's window: its text is the
#: comment's) and widgets (form fields, read elsewhere) are not listed.
KINDS: dict[str, str] = {
    "/Link": "link",
    "/Text": "comment",
    "/Highlight": "highlight",
    "/Underline": "underline",
    "/StrikeOut": "strikeout",
    "/Squiggly": "squiggly",
    "/FreeText": "free_text",
    "/Stamp": "stamp",
    "/Ink": "ink",
    "/FileAttachment": "file_attachment",
}
SKIPPED = frozenset({"/Popup", "/Widget"})
#: Any other subtype (shapes, lines, carets, sound, redaction marks...).
OTHER = "other"
#: Markup whose covered text is what it is about.
MARKUP = frozenset({"highlight", "underline", "strikeout", "squiggly"})
#: The page a named navigation action goes to, from page ``n`` of ``count``.
_NAMED_PAGES: dict[str, Callable[[int, int], int]] = {
    "/NextPage": lambda n, count: n + 1,
    "/PrevPage": lambda n, count: n - 1,
    "/FirstPage": lambda n, count: 1,
    "/LastPage": lambda n, count: count,
}

Box = tuple[float, float, float, float]
Matrix = tuple[float, float, float, float, float, float]


@dataclass(frozen=True, slots=True)
class Annotation:
    """One annotation of a page. Boxes are in the page as displayed (top-left origin, y down,
    ``/Rotate`` applied), like the page's text runs."""

    page: int
    kind: str
    #: The ``/Subtype`` as written, without its slash (``Link``, ``Square``...).
    subtype: str
    #: ``None`` when ``/Rect`` is missing or not four numbers.
    rect: Box | None
    #: The ``/QuadPoints`` as boxes, one per quadrilateral (lines of text covered).
    quads: tuple[Box, ...] = ()
    contents: str | None = None
    author: str | None = None
    subject: str | None = None
    #: ``/M`` (last modified) and ``/CreationDate``, ISO 8601 where they parse.
    modified: str | None = None
    created: str | None = None
    #: A link's action: ``uri``, ``goto``, ``named``, ``remote_goto``, ``launch``,
    #: ``javascript``... (``/S`` in lower case); ``goto`` for a ``/Dest``.
    action: str | None = None
    uri: str | None = None
    target_page: int | None = None
    #: Why a go-to's target page is not known.
    target_problem: str | None = None
    #: A named action's name (``NextPage``...).
    named: str | None = None
    #: The file a launch, remote go-to or file attachment names; its size when stored.
    file: str | None = None
    file_size: int | None = None
    #: The icon of a note or a stamp (``/Name``: ``Comment``, ``Approved``...).
    icon: str | None = None
    #: Texts cut to :data:`MAX_TEXT_CHARS`.
    truncated: bool = False


@dataclass(frozen=True, slots=True)
class EmbeddedFile:
    """A file embedded in the document (``/Names /EmbeddedFiles``): named and sized only."""

    name: str
    size: int | None = None
    description: str | None = None
    truncated: bool = False


@dataclass(frozen=True, slots=True)
class PageAnnotations:
    annotations: list[Annotation]
    #: What could not be read (a cut array, a broken entry), for the page's account.
    problems: list[str]
    #: Steps of the document's budget (:data:`MAX_DOCUMENT_STEPS`) this page spent.
    spent: int = 0


def page_annotations(
    catalog: Catalog,
    page_obj: Any,
    number: int,
    matrix: Matrix,
    steps: int = MAX_DOCUMENT_STEPS,
) -> PageAnnotations:
    """The annotations of page ``number`` (its object ``page_obj``) in ``/Annots`` order,
    popups and widgets left out; ``matrix`` maps user space to the page as displayed;
    ``steps``: what is left of the document's budget."""
    if steps <= 0:
        return PageAnnotations([], [_SPENT])
    walk = Walk(f"annotations of page {number}", limit=steps)
    problems: list[str] = []
    items = walk.items(page_obj, "/Annots")
    if len(items) > MAX_PAGE_ANNOTATIONS:
        problems.append(
            f"the page lists {len(items)} annotations; the first {MAX_PAGE_ANNOTATIONS} were read"
        )
        items = items[:MAX_PAGE_ANNOTATIONS]
    out: list[Annotation] = []
    for item in items:
        again = walk.seen(item)
        node = walk.visit(item)
        if walk.cut is not None:
            break
        if node is None and isinstance(item, IndirectObject) and not again:
            # pypdf could not parse it (past its own limits, or damaged): said, not dropped.
            _note(problems, "an annotation cannot be read: its object is broken")
        if not isinstance(node, dict):
            continue
        subtype = get(node, "/Subtype")
        if not isinstance(subtype, str) or subtype in SKIPPED:
            continue
        try:
            out.append(_annotation(catalog, node, number, subtype, matrix))
        except Exception as exc:  # damage deep in an entry: the rest of the page is read
            _note(problems, f"an annotation cannot be read: {type(exc).__name__}")
            continue
        # Its quadrilaterals were numbers looked at too (a shared array of thousands).
        if out[-1].quads and not walk.step(8 * len(out[-1].quads)):
            break
    if walk.cut is not None:
        problems.append(_SPENT if steps < MAX_DOCUMENT_STEPS else walk.cut)
    return PageAnnotations(out, problems, min(walk.spent, steps))


_SPENT = (
    f"the document's annotations hold more than {MAX_DOCUMENT_STEPS:,} objects to look at; "
    "the rest of them was not read"
)


def _note(problems: list[str], problem: str) -> None:
    if problem not in problems:
        problems.append(problem)


def _annotation(
    catalog: Catalog, node: Any, number: int, subtype: str, matrix: Matrix
) -> Annotation:
    kind = KINDS.get(subtype, OTHER)
    cut: list[bool] = []

    def text(key: str, where: Any = node) -> str | None:
        return _text(get(where, key), cut)

    fields: dict[str, Any] = {
        "page": number,
        "kind": kind,
        "subtype": _bare(subtype)[:64],
        "rect": _rect(get(node, "/Rect"), matrix),
        "contents": text("/Contents"),
        "author": text("/T"),
        "subject": text("/Subj"),
        "modified": pdf_date(text("/M")),
        "created": pdf_date(text("/CreationDate")),
    }
    if kind in MARKUP or kind == "link":
        fields["quads"] = _quads(get(node, "/QuadPoints"), matrix)
    if kind in ("comment", "stamp", "file_attachment"):
        icon = get(node, "/Name")
        if isinstance(icon, str) and icon.startswith("/"):  # a name; a string is not an icon
            fields["icon"] = _bare(icon)[:64]
    if kind == "link":
        fields.update(_link_target(catalog, node, number, cut))
    if kind == "file_attachment":
        name, size = file_spec(get(node, "/FS"), cut)
        fields["file"] = name
        fields["file_size"] = size
    return Annotation(**fields, truncated=bool(cut))


def _link_target(catalog: Catalog, node: Any, number: int, cut: list[bool]) -> dict[str, Any]:
    """Where a link goes: its ``/Dest``, else its action ``/A``."""
    dest = get(node, "/Dest")
    if dest is not None:
        page, problem = catalog.destination_page(dest)
        return {"action": "goto", "target_page": page, "target_problem": problem}
    action = get(node, "/A")
    kind = get(action, "/S")
    if not isinstance(kind, str):
        return {}
    out: dict[str, Any] = {"action": _bare(kind).lower()[:32]}
    if kind == "/URI":
        out["uri"] = _text(get(action, "/URI"), cut)
    elif kind == "/GoTo":
        page, problem = catalog.destination_page(get(action, "/D"))
        out["target_page"], out["target_problem"] = page, problem
    elif kind == "/Named":
        name = get(action, "/N")
        if isinstance(name, str):
            out["named"] = _bare(name)[:64]
            to = _NAMED_PAGES.get(name)
            if to is not None:
                target = to(number, catalog.page_count)
                if 1 <= target <= catalog.page_count:
                    out["target_page"] = target
    elif kind in ("/GoToR", "/Launch", "/GoToE"):
        out["action"] = {"/GoToR": "remote_goto", "/GoToE": "embedded_goto"}.get(kind, "launch")
        out["file"], _ = file_spec(get(action, "/F"), cut, sized=False)
    return out


def file_spec(spec: Any, cut: list[bool], sized: bool = True) -> tuple[str | None, int | None]:
    """A file specification's name (``/UF``, else ``/F``; or the string it is) and, when it
    embeds the file, its size: ``/Params /Size``, else, for a file stored without a filter,
    its stored length. The stream is never decoded."""
    if isinstance(spec, (str, bytes)):
        return _text(spec, cut), None
    if not isinstance(spec, dict):
        return None, None
    name = _text(get(spec, "/UF"), cut) or _text(get(spec, "/F"), cut)
    if not sized:
        return name, None
    embedded = get(spec, "/EF")
    stream = get(embedded, "/F") or get(embedded, "/UF")
    size: int | None = None
    raw = get(get(stream, "/Params"), "/Size")
    if isinstance(raw, int) and not isinstance(raw, bool) and raw >= 0:
        size = int(raw)
    elif isinstance(stream, StreamObject) and get(stream, "/Filter") is None:
        # Stored as is: its stored bytes (already read with the file) are the file.
        size = len(stored_data(stream))
    return name, size


def embedded_files(catalog: Catalog, problem: Callable[[str | None], None]) -> list[EmbeddedFile]:
    """The document's embedded files (``/Names /EmbeddedFiles``), in name-tree order."""
    root = resolve(catalog.reader.trailer.get("/Root"))
    names = get(root, "/Names")
    # The tree's root as written (a reference, unresolved), so that the walk counts it as
    # visited and a kid pointing back at it is not read again.
    tree = dict.get(names, "/EmbeddedFiles") if isinstance(names, dict) else None
    if not isinstance(resolve(tree), dict):
        return []
    walk = Walk("embedded files")
    out: list[EmbeddedFile] = []
    for key, value in name_tree(tree, walk):
        cut: list[bool] = []
        spec = resolve(value)
        name, size = file_spec(spec, cut)
        description = _text(get(spec, "/Desc"), cut) if isinstance(spec, dict) else None
        out.append(
            EmbeddedFile(
                name=name or _clip(key, cut) or "",
                size=size,
                description=description,
                truncated=bool(cut),
            )
        )
        if len(out) >= MAX_EMBEDDED_FILES:
            problem(f"embedded files: the first {MAX_EMBEDDED_FILES} were listed")
            break
    problem(walk.cut)
    return out


def _bare(name: str) -> str:
    return name[1:] if name.startswith("/") else name


def _clip(value: str, cut: list[bool]) -> str | None:
    value = value.replace("\x00", "").strip()
    if len(value) > MAX_TEXT_CHARS:
        cut.append(True)
        value = value[: MAX_TEXT_CHARS - 1] + "…"
    return value or None


def _text(raw: Any, cut: list[bool]) -> str | None:
    """A text string of the file, decoded, cut to :data:`MAX_TEXT_CHARS` (``cut`` records
    the cut); ``None`` when absent, empty or not text."""
    if isinstance(raw, bytes):
        value = decode_text_string(raw[: 4 * MAX_TEXT_CHARS + 4])
    elif isinstance(raw, str) and not raw.startswith("/"):
        value = raw
    else:
        return None
    return _clip(value, cut)


def _apply(matrix: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = matrix
    return a * x + c * y + e, b * x + d * y + f


def _numbers(raw: Any, limit: int) -> list[float] | None:
    """The array ``raw`` as at most ``limit`` numbers; ``None`` when it is not one, or holds
    anything else."""
    if not isinstance(raw, list):
        return None
    out: list[float] = []
    for value in raw[:limit]:
        value = resolve(value)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        out.append(num(value, float("nan")))
        if out[-1] != out[-1]:  # NaN or a runaway number
            return None
    return out


def _bounds(matrix: Matrix, points: list[float]) -> Box:
    xs: list[float] = []
    ys: list[float] = []
    for i in range(0, len(points) - 1, 2):
        x, y = _apply(matrix, points[i], points[i + 1])
        xs.append(x)
        ys.append(y)
    return (
        round(min(xs), 2),
        round(min(ys), 2),
        round(max(xs), 2),
        round(max(ys), 2),
    )


def _rect(raw: Any, matrix: Matrix) -> Box | None:
    values = _numbers(raw, 5)
    if values is None or len(values) != 4:
        return None
    x0, y0, x1, y1 = values
    return _bounds(matrix, [x0, y0, x1, y0, x1, y1, x0, y1])


def _quads(raw: Any, matrix: Matrix) -> tuple[Box, ...]:
    values = _numbers(raw, 8 * MAX_QUADS)
    if not values or len(values) % 8:
        return ()
    return tuple(_bounds(matrix, values[i : i + 8]) for i in range(0, len(values), 8))
