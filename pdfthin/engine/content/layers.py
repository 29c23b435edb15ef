"""Optional content (layers): which groups the document's default view hides.

A viewer shows a document in its default configuration (``/OCProperties /D``): every optional
content group is on unless ``/BaseState`` says otherwise, and the ``/ON`` and ``/OFF`` arrays
name the exceptions. Content marked with a group (``/OC /name BDC``) or drawn by an XObject that
names one (``/OC``) shows only when the group, or the membership dictionary's policy or
visibility expression, is on. Text in a hidden layer is withheld as ``layer_off``.
"""

from __future__ import annotations

from typing import Any

from pypdf.generic import IndirectObject

from pdfthin.engine.objects import get, resolve

#: Groups read from the configuration's arrays, and operands of a visibility expression
#: looked at, at most: beyond them the rest is not read (a hostile document may list
#: millions).
MAX_GROUPS = 10_000
#: Nesting of a visibility expression (``/VE``) followed, at most.
MAX_DEPTH = 16


def _key(ref: Any) -> Any:
    if isinstance(ref, IndirectObject):
        return (ref.idnum, ref.generation)
    return id(ref)


class Layers:
    """The default view of a document's optional content."""

    def __init__(self, catalog: Any) -> None:
        self.off: set[Any] = set()
        self.on: set[Any] = set()
        self.base_on = True
        self.active = False
        properties = get(catalog, "/OCProperties")
        if not isinstance(properties, dict):
            return
        self.active = True
        config = get(properties, "/D")
        if not isinstance(config, dict):
            return
        self.base_on = get(config, "/BaseState") != "/OFF"
        for name, target in (("/OFF", self.off), ("/ON", self.on)):
            entries = get(config, name)
            if isinstance(entries, list):
                target.update(_key(ref) for ref in entries[:MAX_GROUPS])

    def hidden(self, ref: Any) -> bool:
        """Does the default view hide content marked with ``ref`` (a group, a membership
        dictionary, or a reference to either)? Anything else hides nothing."""
        if not self.active:
            return False
        try:
            return not self._visible(ref, 0)
        except Exception:  # a damaged group or membership dictionary: shown
            return False

    def _group_on(self, ref: Any) -> bool:
        key = _key(ref)
        if self.base_on:
            return key not in self.off
        return key in self.on

    def _visible(self, ref: Any, depth: int) -> bool:
        obj = resolve(ref)
        if not isinstance(obj, dict):
            return True
        kind = get(obj, "/Type")
        if kind == "/OCG":
            return self._group_on(ref)
        if kind != "/OCMD":
            return True
        expression = get(obj, "/VE")
        if isinstance(expression, list) and expression:
            return self._expression(expression, depth, [MAX_GROUPS])
        groups = dict.get(obj, "/OCGs")
        refs = resolve(groups)
        members = refs[:MAX_GROUPS] if isinstance(refs, list) else [groups]
        states = [self._group_on(m) for m in members if isinstance(resolve(m), dict)]
        if not states:
            return True
        policy = get(obj, "/P")
        if policy == "/AllOn":
            return all(states)
        if policy == "/AnyOff":
            return not all(states)
        if policy == "/AllOff":
            return not any(states)
        return any(states)  # /AnyOn, the default

    def _expression(self, expression: list[Any], depth: int, budget: list[int]) -> bool:
        """``[/And e1 e2 ...]``, ``[/Or ...]``, ``[/Not e]``; an operand is a group or an
        expression. Too deep, too large or malformed: shown (nothing hidden without
        evidence). ``budget`` counts the operands left to look at in the whole expression,
        shared sub-expressions each time they are met."""
        if depth > MAX_DEPTH or not expression:
            return True
        op = resolve(expression[0])
        values: list[bool] = []
        for operand in expression[1:]:
            budget[0] -= 1
            if budget[0] < 0:
                return True
            item = resolve(operand)
            if isinstance(item, list):
                values.append(self._expression(item, depth + 1, budget))
            elif isinstance(item, dict):
                values.append(self._group_on(operand))
        if not values:
            return True
        if op == "/And":
            return all(values)
        if op == "/Or":
            return any(values)
        if op == "/Not":
            return not values[0]
        return True


#: A document without optional content.
NO_LAYERS = Layers(None)
