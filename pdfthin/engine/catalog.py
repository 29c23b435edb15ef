"""The document's facts apart from its pages, read from the catalog and the trailer:
metadata, page labels, the outline and its destinations, name trees, form fields,
attachments and annotation counts (pdf.js keeps these in ``catalog.js`` for the same reason:
reading a page never needs them).

Every walk here is bounded (:mod:`.walk`): each object once, a step budget, and a cut is said
as one of the document's problems.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from pypdf.generic import IndirectObject

from pdfthin.engine import page_labels
from pdfthin.engine.content.interpreter import decode_text_string
from pdfthin.engine.objects import get, resolve, truthy
from pdfthin.engine.page_labels import MAX_LABEL_CHARS
from pdfthin.engine.page_tree import PageTree
from pdfthin.engine.types import DocumentFacts, Metadata, OutlineEntry
from pdfthin.engine.walk import Walk, depth_first

if TYPE_CHECKING:
    import pypdf

MAX_OUTLINE_ENTRIES = 20_000
MAX_OUTLINE_DEPTH = 64
MAX_FIELDS = 100_000
MAX_NAMES = 1_000
MAX_ANNOTATED_PAGES = 100_000
MAX_ANNOTATIONS = 10_000
_DATE = re.compile(
    r"^D?:?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*([Zz+\-])?(\d{2})?'?(\d{2})?"
)


def _ignore(_: str | None) -> None:
    """The problem callback of a closed catalog."""


class Catalog:
    """What a document says about itself, read when asked (each method is called inside the
    engine document's quiet, open state: :class:`~.document.EngineDocument`)."""

    def __init__(
        self,
        reader: pypdf.PdfReader,
        header_version: str,
        pages: PageTree,
        problem: Callable[[str | None], None],
    ) -> None:
        self.reader = reader
        self.header_version = header_version
        #: The pages, and a page reference's 1-based number.
        self._pages = pages
        self.page_count = len(pages)
        #: Notes a problem of the document as a whole (a walk cut short).
        self._problem = problem
        self._dest_names: dict[str, Any] | None = None
        self._dest_problem: str | None = None

    def close(self) -> None:
        """Let go of the pages and destinations read (the document is closed), and of the
        document's problem callback: a bound method of the engine document, which holds this
        catalog, so that the two (and the reader behind them) are freed at once, not left to
        the cyclic collector."""
        self._pages = PageTree.eager([], [])
        self._dest_names = None
        self._problem = _ignore

    def metadata(self) -> Metadata:
        info: Any = None
        try:
            info = self.reader.trailer.get("/Info")
            info = resolve(info)
        except Exception:
            info = None

        def text(key: str) -> str | None:
            raw = get(info, key)
            if raw is None:
                return None
            if isinstance(raw, bytes):
                value = decode_text_string(raw)
            else:
                value = str(raw)
            value = " ".join(value.replace("\x00", "").split())
            return value or None

        root = resolve(self.reader.trailer.get("/Root"))
        version = self.header_version
        catalog_version = get(root, "/Version")
        if isinstance(catalog_version, str) and re.fullmatch(r"/\d\.\d", catalog_version):
            version = max(version, catalog_version[1:])
        mark_info = get(root, "/MarkInfo")
        tagged = truthy(get(mark_info, "/Marked")) or get(root, "/StructTreeRoot") is not None
        return Metadata(
            title=text("/Title"),
            author=text("/Author"),
            subject=text("/Subject"),
            keywords=text("/Keywords"),
            creator=text("/Creator"),
            producer=text("/Producer"),
            created=pdf_date(text("/CreationDate")),
            modified=pdf_date(text("/ModDate")),
            pdf_version=version,
            encrypted=bool(self.reader.is_encrypted),
            tagged=bool(tagged),
            page_labels=self._labels(),
        )

    def _labels(self) -> list[str] | None:
        """Every page's label from the ``/PageLabels`` number tree (page_labels.py), read by
        a bounded walk; ``None`` without labels, or when the walk was cut or a prefix is
        longer than a label (said as a problem)."""
        root = resolve(self.reader.trailer.get("/Root"))
        tree = get(root, "/PageLabels")
        if tree is None:
            return None
        walk = Walk("page labels")
        try:
            spans = page_labels.ranges(tree, walk)
        except page_labels.LabelsTooLong:
            self._problem(
                f"page labels: a prefix is longer than {MAX_LABEL_CHARS} characters; "
                "labels were not read"
            )
            return None
        if walk.cut is not None:
            self._problem(walk.cut)
            return None
        return page_labels.labels(spans, self.page_count)

    def outline(self) -> tuple[list[OutlineEntry], list[str]]:
        root = resolve(self.reader.trailer.get("/Root"))
        outlines = get(root, "/Outlines")
        if not isinstance(outlines, dict):
            return [], []
        walk = Walk("the outline", MAX_OUTLINE_ENTRIES)
        problems: list[str] = []
        entries = self._outline_subtree(dict.get(outlines, "/First"), 1, walk, problems)
        if walk.cut is not None:
            problems.append(walk.cut)
        if self._dest_problem is not None:
            problems.append(self._dest_problem)
        for entry in entries:
            if entry.problem and entry.problem not in problems:
                problems.append(f"{entry.title!r}: {entry.problem}")
        return entries, problems

    def _outline_subtree(
        self, first: Any, level: int, walk: Walk, problems: list[str]
    ) -> list[OutlineEntry]:
        """The items from ``first`` along its ``/Next`` chain, each followed by its children:
        every item once (a loop, or an item listed twice, is cut and said so)."""
        entries: list[OutlineEntry] = []
        ref = first
        while ref is not None:
            if walk.seen(ref):
                problem = "the outline contains a cycle; it was cut"
                if problem not in problems:
                    problems.append(problem)
                break
            node = walk.visit(ref)
            if not isinstance(node, dict):
                break
            entries.append(self._outline_entry(node, level))
            child = dict.get(node, "/First")
            if child is not None and level < MAX_OUTLINE_DEPTH:
                entries.extend(self._outline_subtree(child, level + 1, walk, problems))
            ref = dict.get(node, "/Next")
        return entries

    def _outline_entry(self, node: Any, level: int) -> OutlineEntry:
        title_raw = get(node, "/Title")
        if isinstance(title_raw, bytes):
            title = decode_text_string(title_raw)
        else:
            title = str(title_raw) if title_raw is not None else ""
        # Whitespace of any kind (PowerPoint writes line breaks as \x0b) becomes one space.
        title = " ".join(title.replace("\x00", "").split())
        page, problem = self._resolve_destination(node)
        return OutlineEntry(title=title, level=level, page=page, problem=problem)

    def _resolve_destination(self, node: Any) -> tuple[int | None, str | None]:
        dest = get(node, "/Dest")
        if dest is None:
            action = get(node, "/A")
            if action is None:
                return None, "no destination"
            if get(action, "/S") != "/GoTo":
                return None, "the action is not a go-to within the document"
            dest = get(action, "/D")
            if dest is None:
                return None, "the go-to action has no destination"
        return self._destination_page(dest, depth=0)

    def destination_page(self, dest: Any) -> tuple[int | None, str | None]:
        """The 1-based page a destination (an array, a name, a dictionary with ``/D``) goes
        to, or ``None`` with the reason."""
        if dest is None:
            return None, "no destination"
        return self._destination_page(dest, depth=0)

    def _destination_page(self, dest: Any, depth: int) -> tuple[int | None, str | None]:
        if depth > 8:
            return None, "destination chain too long"
        if isinstance(dest, (str, bytes)):
            target = self._named_destination(dest)
            if target is None:
                return None, "named destination not found"
            return self._destination_page(target, depth + 1)
        if isinstance(dest, dict):
            inner = get(dest, "/D")
            if inner is None:
                return None, "destination dictionary without /D"
            return self._destination_page(inner, depth + 1)
        if isinstance(dest, list):
            if not dest:
                return None, "empty destination"
            target = dest[0]
            if isinstance(target, IndirectObject):
                page = self._pages.number_of(target)
                if page is not None:
                    return page, None
                return None, "destination points to an object that is not a page"
            if isinstance(target, (int, float)) and not isinstance(target, bool):
                # Remote-style destinations use a 0-based page index.
                index = int(target)
                if 0 <= index < self.page_count:
                    return index + 1, None
                return None, "destination page index out of range"
            return None, "destination does not name a page"
        return None, "unrecognised destination"

    def _named_destination(self, name: Any) -> Any:
        if isinstance(name, bytes):
            key = name.decode("latin-1")
        else:
            key = str(name)
        bare = key[1:] if key.startswith("/") else key
        root = resolve(self.reader.trailer.get("/Root"))
        dests = get(root, "/Dests")
        if isinstance(dests, dict):
            for candidate in (key, "/" + bare):
                hit = get(dests, candidate)
                if hit is not None:
                    return hit
        return resolve(self._destination_names().get(bare))

    def _destination_names(self) -> dict[str, Any]:
        """The ``/Dests`` name tree as one mapping (the first value of each name, in tree
        order), read once by a bounded walk: a lookup per bookmark would walk the tree once
        per bookmark."""
        if self._dest_names is None:
            root = resolve(self.reader.trailer.get("/Root"))
            walk = Walk("named destinations")
            names: dict[str, Any] = {}
            for name, value in name_tree(get(get(root, "/Names"), "/Dests"), walk):
                names.setdefault(name, value)
            self._dest_names = names
            self._dest_problem = walk.cut
        return self._dest_names

    def facts(self) -> DocumentFacts:
        root = resolve(self.reader.trailer.get("/Root"))
        facts = DocumentFacts()
        acroform = get(root, "/AcroForm")
        if isinstance(acroform, dict):
            facts.xfa = get(acroform, "/XFA") is not None
            walk = Walk("form fields")
            facts.form_fields = _count_fields(acroform, walk)
            self._problem(walk.cut)
            if facts.form_fields >= MAX_FIELDS:
                self._problem(f"form fields: counted up to {MAX_FIELDS}; any more were not")
        files = get(get(root, "/Names"), "/EmbeddedFiles")
        if isinstance(files, dict):
            walk = Walk("attachments")
            for name, _ in name_tree(files, walk):
                facts.attachments.append(name)
                if len(facts.attachments) >= MAX_NAMES:
                    break
            self._problem(walk.cut)
        # Each annotation once, however many pages list it (or the array holding it).
        walk = Walk("annotations")
        for page_obj in self._pages.head(MAX_ANNOTATED_PAGES):
            for annot in walk.items(page_obj, "/Annots")[:MAX_ANNOTATIONS]:
                node = walk.visit(annot)
                if walk.cut is not None:
                    break
                if not isinstance(node, dict):
                    continue
                subtype = get(node, "/Subtype")
                facts.annotations += 1
                if subtype == "/Link":
                    facts.links += 1
                elif subtype == "/FileAttachment":
                    name = get(get(node, "/FS"), "/F")
                    if isinstance(name, str) and len(facts.attachments) < MAX_NAMES:
                        facts.attachments.append(name)
            if walk.cut is not None:
                break
        self._problem(walk.cut)
        return facts


def _count_fields(acroform: Any, walk: Walk) -> int:
    """Terminal form fields (those without /Kids that are fields themselves), each once."""
    count = 0

    def kids(field_obj: Any) -> list[Any]:
        nonlocal count
        items = walk.items(field_obj, "/Kids")
        # Kids without a /T of their own are its widgets: the field is terminal.
        fields = items and walk.step(len(items))
        if fields and any(get(resolve(k), "/T") is not None for k in items):
            return items
        count += 1
        return []

    for _ in depth_first(walk, walk.items(acroform, "/Fields"), kids):
        if count >= MAX_FIELDS:
            break
    return min(count, MAX_FIELDS)


def name_tree(root: Any, walk: Walk) -> Iterator[tuple[str, Any]]:
    """A name tree's ``(key, value)`` pairs in tree order (values unresolved), each node
    once."""
    for _, node in depth_first(walk, [root], lambda n: walk.items(n, "/Kids")):
        names = walk.items(node, "/Names")
        if not walk.step(len(names) // 2):
            return
        for i in range(0, len(names) - 1, 2):
            key = resolve(names[i])
            yield (key.decode("latin-1") if isinstance(key, bytes) else str(key)), names[i + 1]


def pdf_date(raw: str | None) -> str | None:
    """``D:20200131120000+01'00'`` -> ``2020-01-31T12:00:00+01:00`` (ISO 8601); other text
    is returned as found."""
    if not raw:
        return None
    m = _DATE.match(raw.strip())
    if m is None:
        return raw
    year, month, day, hour, minute, second, tz, tzh, tzm = m.groups()
    out = f"{year}-{month or '01'}-{day or '01'}"
    if hour:
        out += f"T{hour}:{minute or '00'}:{second or '00'}"
        if tz in ("Z", "z"):
            out += "Z"
        elif tz in ("+", "-") and tzh:
            out += f"{tz}{tzh}:{tzm or '00'}"
    return out
