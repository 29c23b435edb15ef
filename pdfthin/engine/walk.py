"""Bounded walks over PDF objects (docs/design.md, invariant 13).

PDF objects form a graph, not a tree: a node may list the same child many times, share it
with other nodes, or point back at an ancestor. A walk bounded by depth alone is exponential
on such a graph (a file of a kilobyte can hold 8**40 paths), so every walk of the engine goes
through a :class:`Walk`: each indirect object is visited at most once, and every value the
walk looks at, visited or skipped, spends one step of a budget. Past the budget the walk stops
and says so (``cut``); the caller keeps what it read and reports the cut as a problem.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from pypdf.generic import IndirectObject

from pdfthin.engine.objects import resolve

#: Values one walk may look at (visited or skipped as already seen): far more than any real
#: document tree holds, few enough to be read in about a second.
MAX_WALK_STEPS = 1_000_000


class Walk:
    """The bounds of one walk: the indirect objects it has visited and the steps it has
    spent. ``cut`` is the reason it stopped early (``None`` while it has not)."""

    __slots__ = ("_seen", "cut", "limit", "spent", "what")

    def __init__(self, what: str, limit: int | None = None) -> None:
        self.what = what
        self.limit = MAX_WALK_STEPS if limit is None else limit
        self.spent = 0
        self.cut: str | None = None
        self._seen: set[tuple[int, int]] = set()

    def step(self, count: int = 1) -> bool:
        """Spend ``count`` steps; ``False`` once the budget is spent (``cut`` then says so)."""
        self.spent += count
        if self.spent <= self.limit:
            return True
        if self.cut is None:
            self.cut = (
                f"{self.what}: more than {self.limit:,} objects to look at; the rest was not read"
            )
        return False

    def visit(self, value: Any) -> Any:
        """``value`` resolved, or ``None`` when it is broken, when the budget is spent, or when
        it is an indirect object this walk has visited already (shared or cyclic). A direct
        value lives inside one parent, so it can only be met again through that parent, which
        is an indirect object or itself inside one: it needs no entry of its own."""
        if not self.step():
            return None
        if isinstance(value, IndirectObject):
            key = (value.idnum, value.generation)
            if key in self._seen:
                return None
            self._seen.add(key)
        return resolve(value)

    def seen(self, value: Any) -> bool:
        """Has this walk visited ``value`` (an indirect object) already?"""
        return isinstance(value, IndirectObject) and (value.idnum, value.generation) in self._seen

    def entry(self, node: Any, key: str) -> Any:
        """``node[key]`` visited (see :meth:`visit`): ``None`` when absent, broken or seen."""
        if not isinstance(node, dict):
            return None
        try:
            raw = dict.get(node, key)
        except Exception:
            return None
        return None if raw is None else self.visit(raw)

    def items(self, node: Any, key: str) -> list[Any]:
        """The array ``node[key]`` (its items unresolved), or ``[]``; an array shared with a
        node visited before is ``[]`` too (its items were met there)."""
        value = self.entry(node, key)
        return value if isinstance(value, list) else []


def depth_first(
    walk: Walk, roots: list[Any], kids: Callable[[Any], list[Any]]
) -> Iterator[tuple[Any, dict[Any, Any]]]:
    """The dictionaries reachable from ``roots`` through ``kids(node)`` (each node's children,
    unresolved), each once, parents before children, in document order, as ``(value, node)``:
    the value it was reached by (a reference, or the node itself) and the node; until
    ``walk``'s budget is spent. Iterative: a deep graph costs no Python stack."""
    stack: list[Iterator[Any]] = [iter(roots)]
    while stack:
        for item in stack[-1]:
            node = walk.visit(item)
            if walk.cut is not None:
                return
            if not isinstance(node, dict):
                continue
            yield item, node
            children = kids(node)
            if children:
                stack.append(iter(children))
                break
        else:
            stack.pop()
