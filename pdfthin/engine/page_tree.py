"""The document's pages, found one at a time.

pypdf counts a document's pages by reading every page object (its ``reader.pages`` flattens
the whole page tree), which is most of what opening a long document costs (the first-page
benchmark: docs/benchmarks.md). A
:class:`PageTree` instead takes the page count from the tree's ``/Count``, as pdf.js, pdfium
and MuPDF do, and finds page *n* by descending the tree by its nodes' counts, reading only the
nodes on the way (pdf.js's shortcut: a node with as many kids as its ``/Count`` holds only
pages). A page is built as pypdf builds it (``PageObject`` with the inherited attributes it
lacks), so it reads the same either way.

The counts are checked where they are read, and the tree is trusted only when they hold:

- at open, the first and the last page must be found by descent, and ``/Count`` must be a
  page count pdfthin reads at all (``MAX_TRUSTED_COUNT``); else pypdf's full walk is used,
  as before;
- a later page whose descent meets a count the tree does not hold is taken from pypdf's full
  walk (read once, then kept), so page *n* is always the same page whichever is read first.

A tree whose ``/Count`` is smaller than the pages it holds shows ``/Count`` pages, as those
viewers show it. :meth:`PageTree.eager` wraps a page list read some other way (pypdf's walk or
the recovery walks) behind the same interface.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pypdf
from pypdf.errors import DependencyError
from pypdf.generic import IndirectObject, NameObject

from pdfthin.engine.objects import resolve

#: Attributes a page inherits from the tree's nodes above it (ISO 32000-2, 7.7.3.4); a page's
#: own value wins. The same four pypdf copies into the pages it flattens.
INHERITABLE = tuple(NameObject(k) for k in ("/Resources", "/MediaBox", "/CropBox", "/Rotate"))
#: Levels descended before a tree is taken as broken (a balanced tree of a million pages with
#: two kids a node is 20 deep; deeper is a chain built to be walked).
MAX_DEPTH = 64
#: The largest ``/Count`` trusted without reading the pages it counts (the recovery walks'
#: page limit): past it, the page count is what pypdf's walk finds.
MAX_TRUSTED_COUNT = 100_000

PageKey = tuple[int, int]


class TreeMismatch(Exception):
    """The tree does not hold what its counts say (a wrong ``/Count``, a cycle, a kid that
    is neither a page nor a node)."""


@dataclass(frozen=True)
class _Kids:
    """A node's kids with where each one's pages start (read once per node)."""

    starts: list[int]
    kids: list[tuple[Any, IndirectObject | None, bool]]  # (object, reference, is a page)
    refs: dict[PageKey, int]  # a kid's reference -> its position


def _key(ref: Any) -> PageKey | None:
    if isinstance(ref, IndirectObject):
        return (ref.idnum, ref.generation)
    return None


def _kind(node: Any) -> str | None:
    """``"/Page"``, ``"/Pages"`` or ``None`` (not part of the tree), as pypdf's walk decides:
    by ``/Type``, else a node without ``/Kids`` is a page."""
    if not isinstance(node, dict) or not node:
        return None
    kind = resolve(dict.get(node, "/Type"))
    if kind is None:
        return "/Pages" if "/Kids" in node else "/Page"
    return kind if kind in ("/Page", "/Pages") else None


def _count(node: Any) -> int:
    count = resolve(dict.get(node, "/Count"))
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise TreeMismatch("a page-tree node without a valid /Count")
    return int(count)


def _kid_list(node: Any) -> list[Any]:
    kids = resolve(dict.get(node, "/Kids"))
    if kids is None:
        return []
    if not isinstance(kids, list):
        raise TreeMismatch("/Kids is not an array")
    if len(kids) > MAX_TRUSTED_COUNT:
        raise TreeMismatch("a node with more kids than pages are trusted unread")
    return list(kids)


class PageTree:
    """Pages by 0-based index, their references, and a reference's 1-based page number."""

    def __init__(
        self,
        count: int,
        find: Callable[[int], tuple[Any, IndirectObject | None]],
        number_of: Callable[[IndirectObject], int | None],
        lazy: bool,
    ) -> None:
        self._count = count
        self._find = find
        self._number_of = number_of
        #: Whether the pages are found on demand (``False``: read all at open).
        self.lazy = lazy
        self._found: dict[int, tuple[Any, IndirectObject | None]] = {}

    # --- construction ----------------------------------------------------------------------

    @classmethod
    def eager(cls, pages: list[Any], refs: list[IndirectObject | None]) -> PageTree:
        numbers: dict[PageKey, int] = {}
        for i, ref in enumerate(refs):
            key = _key(ref)
            if key is not None:
                numbers.setdefault(key, i + 1)

        def number_of(ref: IndirectObject) -> int | None:
            key = _key(ref)
            return None if key is None else numbers.get(key)

        return cls(len(pages), lambda i: (pages[i], refs[i]), number_of, lazy=False)

    @classmethod
    def lazy_or_none(
        cls, reader: pypdf.PdfReader, problem: Callable[[str], None]
    ) -> PageTree | None:
        """The tree read on demand, or ``None`` when its counts cannot be trusted at open
        (then the caller reads every page with pypdf). ``problem`` hears, once, that a later
        page's descent failed and how many pages pypdf's walk found instead."""
        try:
            root = resolve(reader.trailer.get("/Root"))
            top_ref = dict.get(root, "/Pages") if isinstance(root, dict) else None
            top = resolve(top_ref)
            if _kind(top) != "/Pages":
                return None
            count = _count(top)
            if not 1 <= count <= MAX_TRUSTED_COUNT:
                return None
            descent = _Descent(reader, top, _key(top_ref))
            fallback = _Fallback(reader, count, problem)

            def find(index: int) -> tuple[Any, IndirectObject | None]:
                try:
                    return descent.page(index)
                except DependencyError:
                    raise  # a missing library (AES), not a broken tree: the page says so
                except Exception:
                    # A count that does not hold, or damage pypdf raises for on the way (an
                    # inherited attribute it cannot parse): pypdf's walk, as before.
                    return fallback.page(index)

            def number_of(ref: IndirectObject) -> int | None:
                try:
                    number = descent.number_of(ref)
                    if number is None:
                        return None  # not a page
                    if _key(descent.locate(number - 1)[1]) == _key(ref):
                        return number
                except DependencyError:
                    raise
                except Exception:
                    pass
                return fallback.number_of(ref)

            descent.page(0)
            descent.page(count - 1)
        except TreeMismatch:
            return None
        except Exception:
            return None
        return cls(count, find, number_of, lazy=True)

    # --- reading ---------------------------------------------------------------------------

    def __len__(self) -> int:
        return self._count

    def _entry(self, index: int) -> tuple[Any, IndirectObject | None]:
        if not 0 <= index < self._count:
            raise IndexError(index)
        found = self._found.get(index)
        if found is None:
            found = self._found[index] = self._find(index)
        return found

    def __getitem__(self, index: int) -> Any:
        """Page ``index`` (0-based): a ``pypdf.PageObject``, or ``None`` for a page the
        tree's counts promise and no walk finds."""
        return self._entry(index)[0]

    def head(self, limit: int) -> list[Any]:
        """The first ``limit`` pages, in order (``None`` where a page is missing)."""
        return [self[i] for i in range(min(limit, self._count))]

    def ref(self, index: int) -> IndirectObject | None:
        return self._entry(index)[1]

    def number_of(self, ref: IndirectObject) -> int | None:
        """The 1-based number of the page ``ref`` points at; ``None`` when it is no page."""
        return self._number_of(ref)

    def close(self) -> None:
        self._found.clear()
        self._find = _closed
        self._number_of = _closed


def _closed(*_: Any) -> Any:
    raise ValueError("the document is closed")


class _Descent:
    """Finding pages by the tree's counts, reading only the nodes on the way."""

    def __init__(self, reader: pypdf.PdfReader, top: Any, top_key: PageKey | None) -> None:
        self._reader = reader
        self._top = top
        self._top_key = top_key
        self._kids: dict[int, _Kids] = {}
        # Where each kid stands in a node that lists its pages as kids (by the node's ``id``,
        # read once: a bookmark or link per page would scan a flat list of thousands again).
        self._positions: dict[int, dict[PageKey, int]] = {}

    def _page(self, node: Any, ref: IndirectObject | None, inherit: dict[Any, Any]) -> Any:
        # As pypdf's walk builds a page: its own entries, then what it lacks of its ancestors'.
        page = pypdf.PageObject(self._reader, ref)
        if ref is None:
            page.update(node)
        for attribute, value in inherit.items():
            if attribute not in page:
                page[attribute] = value
        return page

    def _kids_of(self, node: Any) -> _Kids:
        """A node's kids with their page counts, read once (a node whose kids' counts do not
        add up to its own is a mismatch)."""
        known = self._kids.get(id(node))
        if known is not None:
            return known
        starts: list[int] = []
        kids: list[tuple[Any, IndirectObject | None, bool]] = []
        refs: dict[PageKey, int] = {}
        total = 0
        for raw in _kid_list(node):
            kid = resolve(raw)
            kind = _kind(kid)
            if kind is None:
                continue  # pypdf's walk skips what is neither a page nor a node
            ref = raw if isinstance(raw, IndirectObject) else None
            key = _key(ref)
            if key is not None:
                refs.setdefault(key, len(kids))
            starts.append(total)
            kids.append((kid, ref, kind == "/Page"))
            total += 1 if kind == "/Page" else _count(kid)
        if total != _count(node):
            raise TreeMismatch("a page-tree node's kids do not add up to its /Count")
        known = self._kids[id(node)] = _Kids(starts, kids, refs)
        return known

    def page(self, index: int) -> tuple[Any, IndirectObject | None]:
        kid, ref, inherit = self.locate(index)
        return self._page(kid, ref, inherit), ref

    def locate(self, index: int) -> tuple[Any, IndirectObject | None, dict[Any, Any]]:
        """Page ``index``'s dictionary, its reference and the attributes it inherits, found
        by descending (what ``page`` builds a page from; ``number_of``'s check reads only the
        reference)."""
        node, path = self._top, set[int]()
        inherit: dict[Any, Any] = {}
        for _ in range(MAX_DEPTH):
            if id(node) in path:
                raise TreeMismatch("the page tree has a cycle")
            path.add(id(node))
            inherit = dict(inherit)
            for attribute in INHERITABLE:
                if attribute in node:
                    inherit[attribute] = node[attribute]
            count = _count(node)
            if not 0 <= index < count:
                raise TreeMismatch("a page past its node's /Count")
            raw_kids = _kid_list(node)
            if len(raw_kids) == count:
                # pdf.js's shortcut: as many kids as pages, so each kid is a page.
                raw = raw_kids[index]
                kid = resolve(raw)
                if _kind(kid) != "/Page":
                    raise TreeMismatch("a kid counted as a page is not one")
                ref = raw if isinstance(raw, IndirectObject) else None
                return kid, ref, inherit
            kids = self._kids_of(node)
            at = bisect_right(kids.starts, index) - 1
            kid, ref, is_page = kids.kids[at]
            index -= kids.starts[at]
            if is_page:
                return kid, ref, inherit
            node = kid
        raise TreeMismatch("the page tree is deeper than pdfthin descends")

    def _positions_in(self, node: Any, raw_kids: list[Any]) -> dict[PageKey, int]:
        """The position of each kid of ``node`` by its reference (its first, when listed
        twice), read once per node."""
        known = self._positions.get(id(node))
        if known is None:
            known = {}
            for position, raw in enumerate(raw_kids):
                key = _key(raw)
                if key is not None:
                    known.setdefault(key, position)
            self._positions[id(node)] = known
        return known

    def number_of(self, ref: IndirectObject) -> int | None:
        """Up the page's ``/Parent`` chain, adding the pages before it at each level; the
        caller checks the answer by descending to it."""
        node = resolve(ref)
        if _kind(node) != "/Page":
            return None
        index, child_key = 0, _key(ref)
        for _ in range(MAX_DEPTH):
            parent_ref = dict.get(node, "/Parent")
            parent = resolve(parent_ref)
            if _kind(parent) != "/Pages" or child_key is None:
                raise TreeMismatch("a page-tree node without its /Parent")
            raw_kids = _kid_list(parent)
            if len(raw_kids) == _count(parent):
                at = self._positions_in(parent, raw_kids).get(child_key)
                if at is None:
                    raise TreeMismatch("a node that is not among its parent's kids")
                index += at
            else:
                kids = self._kids_of(parent)
                at = kids.refs.get(child_key)
                if at is None:
                    raise TreeMismatch("a node that is not among its parent's kids")
                index += kids.starts[at]
            if parent is self._top:
                return index + 1
            node, child_key = parent, _key(parent_ref)
        raise TreeMismatch("the page tree is deeper than pdfthin descends")


class _Fallback:
    """pypdf's full walk, read the first time a descent fails, then kept."""

    def __init__(self, reader: pypdf.PdfReader, count: int, problem: Callable[[str], None]) -> None:
        self._reader = reader
        self._count = count
        self._problem = problem
        self._pages: list[Any] | None = None
        self._numbers: dict[PageKey, int] = {}

    def _walk(self) -> list[Any]:
        if self._pages is None:
            try:
                self._pages = list(self._reader.pages)
            except Exception:
                self._pages = []
            self._problem(
                f"the page tree does not hold what its counts say: pages whose descent "
                f"failed are taken from a walk of the whole tree, which finds "
                f"{len(self._pages)} pages; /Count says {self._count}, and pdfthin reads "
                f"{self._count}"
            )
            for i, page in enumerate(self._pages):
                key = _key(getattr(page, "indirect_reference", None))
                if key is not None:
                    self._numbers.setdefault(key, i + 1)
        return self._pages

    def page(self, index: int) -> tuple[Any, IndirectObject | None]:
        pages = self._walk()
        if index >= len(pages):
            return None, None
        return pages[index], getattr(pages[index], "indirect_reference", None)

    def number_of(self, ref: IndirectObject) -> int | None:
        self._walk()
        number = self._numbers.get((ref.idnum, ref.generation))
        return number if number is not None and number <= self._count else None
