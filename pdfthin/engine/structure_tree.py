"""A tagged PDF's structure tree, read one page at a time.

The tree (``/StructTreeRoot``) says what each piece of marked content is (a heading, a
paragraph, a list item, a table cell...) and in which order the document is read. A page
finds its part through its ``/StructParents`` key: the tree's ``/ParentTree`` (a number tree)
maps it to an array whose item ``n`` is the element holding the page's marked content ``n``
(``TextRun.mcid``). From each such element the walk climbs ``/P`` to the top; an element's
place among its parent's ``/K`` gives the tree order. Nothing else of the tree is read, so a
page costs what its own content holds, whatever the size of the document. A tree without a
parent tree is walked once for the document instead, its elements' ``/Pg`` saying which page
holds each id.

Every step is bounded (docs/design.md, invariant 13): a step budget per page, a depth limit,
a loop of parents is cut; what is broken is a problem of the page's structure, never an
exception. Whether the tree is worth following is decided by the layout, against the page's
geometry (``pdfthin.layout.tagged``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pypdf.generic import IndirectObject

from pdfthin.engine.objects import get, resolve
from pdfthin.engine.types import PageStructure, StructElement
from pdfthin.engine.walk import Walk, depth_first

#: Values one page's slice of the tree may look at: many times what a dense page holds (a
#: few thousand marked-content ids, each a few ancestors deep), cheap to read.
MAX_PAGE_STEPS = 200_000
#: Marked-content ids of one page read from its parent-tree entry (beyond: not read).
MAX_PAGE_MCIDS = 50_000
#: Ancestors climbed from an element to the top of the tree (real trees are a dozen deep).
MAX_DEPTH = 64
#: Role-map steps from a custom type to a standard one (a longer chain is a loop).
MAX_ROLE_CHAIN = 8
#: Children positions kept for the whole document (``/K`` arrays indexed once).
MAX_CACHED_CHILDREN = 500_000

#: The standard structure types (PDF 1.7 and PDF 2.0), without the slash.
STANDARD_TYPES = frozenset(
    """Document DocumentFragment Part Art Sect Div BlockQuote Caption TOC TOCI Index
    NonStruct Private Aside Title FENote Sub P H H1 H2 H3 H4 H5 H6 L LI Lbl LBody Table TR TH
    TD THead TBody TFoot Span Quote Note Reference BibEntry Code Link Annot Ruby RB RT RP Warichu
    WT WP Em Strong Figure Formula Form Artifact""".split()
)

_Key = tuple[int, int]


def _key(value: Any, node: Any) -> _Key:
    """An object's identity: its reference, or (for a direct object) its ``id``."""
    if isinstance(value, IndirectObject):
        return (value.idnum, value.generation)
    return (-1, id(node))


class StructureTree:
    """The document's structure tree; :meth:`page` reads one page's slice of it."""

    def __init__(self, catalog: Any) -> None:
        root = get(catalog, "/StructTreeRoot")
        self.root: dict[Any, Any] | None = root if isinstance(root, dict) else None
        role_map = get(self.root, "/RoleMap")
        self._role_map: dict[Any, Any] = role_map if isinstance(role_map, dict) else {}
        self._parent_tree = dict.get(self.root, "/ParentTree") if self.root else None
        # Positions of each parent's children (by parent), read once for the document.
        self._children: dict[_Key, dict[_Key, int]] = {}
        self._cached = 0
        # Each parent-tree node's ``/Nums``, indexed once (``number_tree_get``).
        self._indexes: dict[_Key, dict[Any, Any]] = {}
        # Without a parent tree: each page's marked-content ids and their elements, found by
        # one walk of the whole tree (``_by_page``), and why that walk stopped early.
        self._pages: dict[_Key, dict[int, Any]] | None = None
        self._pages_cut: str | None = None

    def page(self, page_obj: Any, page_ref: Any = None) -> PageStructure | None:
        """Page ``page_obj``'s slice of the tree; ``None`` when the document has no tree or
        the page is not in it. A page with ``/StructParents`` is looked up in the parent
        tree; without it (a tree with no parent tree), by ``page_ref`` in the elements'
        ``/Pg``."""
        if self.root is None:
            return None
        key = get(page_obj, "/StructParents")
        if isinstance(key, bool) or not isinstance(key, int):
            return self._page_by_reference(page_ref)
        walk = Walk("the page's structure tree", MAX_PAGE_STEPS)
        out = PageStructure()
        entry = resolve(number_tree_get(walk, self._parent_tree, key, self._indexes))
        if not isinstance(entry, list):
            if walk.cut is not None:
                out.problems.append(walk.cut)
            elif entry is not None:
                out.problems.append("the page's parent-tree entry is not an array")
            return out if out.problems else None
        _Slice(self, walk, out).read(enumerate(entry[:MAX_PAGE_MCIDS]))
        if walk.cut is not None:
            out.problems.append(walk.cut)
        return out

    def _page_by_reference(self, page_ref: Any) -> PageStructure | None:
        if not isinstance(page_ref, IndirectObject):
            return None
        found = self._by_page().get((page_ref.idnum, page_ref.generation))
        if not found and self._pages_cut is None:
            return None
        walk = Walk("the page's structure tree", MAX_PAGE_STEPS)
        out = PageStructure()
        if self._pages_cut is not None:
            out.problems.append(self._pages_cut)  # the page's part may be incomplete
        _Slice(self, walk, out).read(sorted((found or {}).items())[:MAX_PAGE_MCIDS])
        if walk.cut is not None:
            out.problems.append(walk.cut)
        return out

    def _by_page(self) -> dict[_Key, dict[int, Any]]:
        """Every page's marked-content ids and the elements holding them (by ``/Pg``, an
        element's own or a marked-content reference's), from one bounded walk of the tree,
        made the first time a page without ``/StructParents`` asks."""
        if self._pages is not None:
            return self._pages
        self._pages = {}
        walk = Walk("the structure tree")
        for value, node in depth_first(walk, _kids(self.root), _element_kids):
            page = dict.get(node, "/Pg")
            for kid in _kids(node):
                if isinstance(kid, int) and not isinstance(kid, bool):
                    self._record(page, kid, value)
                    continue
                reference = resolve(kid)
                mcid = get(reference, "/MCID")
                if isinstance(mcid, int) and not isinstance(mcid, bool):
                    self._record(dict.get(reference, "/Pg", page), mcid, value)
        self._pages_cut = walk.cut
        return self._pages

    def _record(self, page: Any, mcid: int, element: Any) -> None:
        if isinstance(page, IndirectObject) and 0 <= mcid <= MAX_PAGE_MCIDS:
            assert self._pages is not None
            ids = self._pages.setdefault((page.idnum, page.generation), {})
            ids.setdefault(mcid, element)

    def kind(self, node: dict[Any, Any]) -> str:
        """The element's standard type after the role map (its own type when none maps)."""
        kind = get(node, "/S")
        name = str(kind)[1:] if isinstance(kind, str) and kind.startswith("/") else ""
        for _ in range(MAX_ROLE_CHAIN):
            if name in STANDARD_TYPES:
                break
            mapped = get(self._role_map, "/" + name)
            if not (isinstance(mapped, str) and mapped.startswith("/")):
                break
            name = str(mapped)[1:]
        return name

    def children(self, walk: Walk, parent_key: _Key, parent: Any) -> dict[_Key, int]:
        """Positions of the elements listed in ``parent``'s ``/K`` (kept for the document)."""
        found = self._children.get(parent_key)
        if found is not None:
            return found
        kids = get(parent, "/K")
        items = kids if isinstance(kids, list) else [dict.get(parent, "/K")]
        found = {}
        for i, item in enumerate(items):
            if not walk.step():
                break
            if isinstance(item, IndirectObject):
                found.setdefault((item.idnum, item.generation), i)
            elif isinstance(item, dict):
                found.setdefault((-1, id(item)), i)
        # Kept for the other pages unless the budget cut it short, the cache is full, or the
        # parent is a direct object (known by ``id``, which a later object may take over).
        kept = walk.cut is None and parent_key[0] >= 0
        if kept and self._cached + len(found) <= MAX_CACHED_CHILDREN:
            self._cached += len(found)
            self._children[parent_key] = found
        return found


class _Slice:
    """Reads one page's slice: each marked-content id's element and its ancestors."""

    def __init__(self, tree: StructureTree, walk: Walk, out: PageStructure) -> None:
        self.tree = tree
        self.walk = walk
        self.out = out
        # Each element met: its tree path (positions from the top) and its index in ``out``.
        self.paths: dict[_Key, tuple[int, ...]] = {}
        self.nodes: dict[_Key, tuple[dict[Any, Any], _Key | None]] = {}
        # Each element's marked-content ids and their places among its kids.
        self.positions: dict[_Key, dict[int, int]] = {}
        self.broken = 0
        self.cyclic = 0

    def read(self, entry: Iterable[tuple[int, Any]]) -> None:
        """Reads the elements holding the page's marked-content ids, ``(id, element)``."""
        leaves: list[tuple[tuple[int, ...], int, _Key]] = []
        for mcid, value in entry:
            if self.walk.cut is not None:
                break
            node = resolve(value)
            if node is None or not isinstance(node, dict):
                # null: an id the page does not use; anything else is damage
                self.broken += node is not None and not _is_null(node)
                continue
            leaf = _key(value, node)
            path = self._path(value, node)
            if path is None:
                continue
            position = self._mcid_positions(leaf, node).get(mcid, 0)
            leaves.append(((*path, position), mcid, leaf))
        self._emit(leaves)
        if self.broken:
            self.out.problems.append(
                f"{self.broken} of the page's structure elements are missing or broken"
            )
        if self.cyclic:
            self.out.problems.append(
                f"{self.cyclic} of the page's structure elements are their own ancestors "
                f"or nested deeper than {MAX_DEPTH}"
            )

    def _path(self, value: Any, node: dict[Any, Any]) -> tuple[int, ...] | None:
        """The element's tree path; ``None`` when its ancestry is broken or cyclic."""
        chain: list[tuple[_Key, dict[Any, Any], Any]] = []
        seen: set[_Key] = set()
        top: tuple[int, ...] = ()
        while True:
            key = _key(value, node)
            known = self.paths.get(key)
            if known is not None:
                top = known
                break
            if key in seen or len(chain) >= MAX_DEPTH:
                self.cyclic += 1
                return None
            if not self.walk.step():
                return None
            seen.add(key)
            parent_value = dict.get(node, "/P")
            parent = resolve(parent_value)
            chain.append((key, node, parent_value))
            if not isinstance(parent, dict) or parent is self.tree.root:
                break
            if get(parent, "/Type") == "/StructTreeRoot":
                break
            value, node = parent_value, parent
        for key, node, parent_value in reversed(chain):
            parent = resolve(parent_value)
            position = 0
            parent_key: _Key | None = None
            if isinstance(parent, dict):
                pk = _key(parent_value, parent)
                position = self.tree.children(self.walk, pk, parent).get(key, 0)
                if pk in self.paths:
                    parent_key = pk
            top = (*top, position)
            self.paths[key] = top
            self.nodes[key] = (node, parent_key)
        return top

    def _mcid_positions(self, key: _Key, node: dict[Any, Any]) -> dict[int, int]:
        """Where each marked-content id sits among the element's kids (an integer or a
        marked-content reference), its first place when listed twice; read once per element
        and page (an element may hold thousands of the page's ids: looking each one up in
        its kids again would cost their square)."""
        found = self.positions.get(key)
        if found is not None:
            return found
        found = {}
        kids = get(node, "/K")
        items = kids if isinstance(kids, list) else [kids]
        for i, item in enumerate(items[:MAX_PAGE_MCIDS]):
            if not self.walk.step():
                break
            value = resolve(item)
            if isinstance(value, dict):
                value = get(value, "/MCID")
            if isinstance(value, int) and not isinstance(value, bool):
                found.setdefault(value, i)
        self.positions[key] = found
        return found

    def _emit(self, leaves: list[tuple[tuple[int, ...], int, _Key]]) -> None:
        index: dict[_Key, int] = {}
        for key in sorted(self.paths, key=self.paths.__getitem__):
            node, parent_key = self.nodes[key]
            parent = index.get(parent_key, -1) if parent_key is not None else -1
            index[key] = len(self.out.elements)
            kind = self.tree.kind(node)
            colspan, rowspan = _spans(node) if kind in ("TD", "TH") else (1, 1)
            position = self.paths[key][-1] if self.paths[key] else 0
            self.out.elements.append(StructElement(kind, parent, position, colspan, rowspan))
        leaves.sort()
        for _, mcid, leaf in leaves:
            self.out.content[mcid] = index[leaf]
            self.out.order.append(mcid)


def _kids(node: Any) -> list[Any]:
    """A structure node's ``/K`` as a list (it may be one kid), unresolved."""
    if not isinstance(node, dict):
        return []
    kids = dict.get(node, "/K")
    resolved = resolve(kids)
    return list(resolved) if isinstance(resolved, list) else [kids] if kids is not None else []


def _element_kids(node: dict[Any, Any]) -> list[Any]:
    """The kids of a structure element that may be elements (not ids, not references)."""
    if "/MCID" in node or "/Obj" in node:
        return []
    return [kid for kid in _kids(node) if not isinstance(kid, (int, float))]


def _is_null(value: Any) -> bool:
    return type(value).__name__ == "NullObject"


def _spans(node: dict[Any, Any]) -> tuple[int, int]:
    """A table cell's ``/ColSpan`` and ``/RowSpan`` from its attributes (1 when absent)."""
    attributes = get(node, "/A")
    items = attributes[:16] if isinstance(attributes, list) else [attributes]
    colspan = rowspan = 1
    for item in items:
        attr = resolve(item)
        if not isinstance(attr, dict):
            continue
        colspan = max(colspan, _span(get(attr, "/ColSpan")))
        rowspan = max(rowspan, _span(get(attr, "/RowSpan")))
    return colspan, rowspan


def _span(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        return 1
    return min(max(value, 1), 1000)


def number_tree_get(
    walk: Walk, tree: Any, wanted: int, indexes: dict[_Key, dict[Any, Any]] | None = None
) -> Any:
    """The value of key ``wanted`` in the number tree ``tree`` (unresolved), or ``None``.
    Descends only into kids whose ``/Limits`` hold the key (all of them when a kid has
    none), each node once. With ``indexes`` (kept by the caller for the document), each
    node's ``/Nums`` is indexed the first time it is looked in and its index kept: a
    producer may list a long document's every page in one ``/Nums`` array, which a scan per
    page would read again for every page (the square of the page count)."""
    stack = [tree]
    while stack:
        value = stack.pop()
        node = walk.visit(value)
        if not isinstance(node, dict):
            continue
        nums = get(node, "/Nums")
        if isinstance(nums, list):
            # Kept only for nodes known by reference, or the tree itself (which the caller
            # holds): a direct node's ``id`` may be taken over by a later object.
            key = _key(value, node) if isinstance(value, IndirectObject) or value is tree else None
            index = indexes.get(key) if indexes is not None and key is not None else None
            if index is None:
                index = _nums_index(walk, nums)
                if index is None:
                    return None  # the walk's budget is spent
                if indexes is not None and key is not None:
                    indexes[key] = index
            if wanted in index:
                return index[wanted]
        kids = get(node, "/Kids")
        if isinstance(kids, list):
            for kid in reversed(kids):
                if walk.cut is not None:
                    return None
                if _within(get(resolve(kid), "/Limits"), wanted):
                    stack.append(kid)
    return None


def _nums_index(walk: Walk, nums: list[Any]) -> dict[Any, Any] | None:
    """A ``/Nums`` array's values by key (the first of a key listed twice; keys that are not
    numbers are left out), or ``None`` when ``walk``'s budget runs out."""
    index: dict[Any, Any] = {}
    for i in range(0, len(nums) - 1, 2):
        if not walk.step():
            return None
        number = nums[i]
        if isinstance(number, (int, float)) and not isinstance(number, bool):
            index.setdefault(number, nums[i + 1])
    return index


def _within(limits: Any, wanted: int) -> bool:
    if not (isinstance(limits, list) and len(limits) == 2):
        return True
    low, high = limits
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high)):
        return True
    return bool(low <= wanted <= high)
