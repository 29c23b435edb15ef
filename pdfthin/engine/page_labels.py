"""Page labels (ISO 32000-2, 12.4.2) from the catalog's ``/PageLabels`` number tree.

pypdf's ``reader.page_labels`` asks for ``len(reader.pages)``, which walks the whole page
tree and reads every page object: the cost that finding pages by the tree's counts saves
(page_tree.py). The labels need only the page count, so they are made here from the number
tree, read by a bounded walk, with pypdf's answers for what the specification leaves open:

- a page takes the range with the largest start at or before it; a page before every range
  (a tree that does not start at 0) is labelled by its number, 1-based;
- a range's label is its prefix ``/P`` and its numeral: ``/D`` decimal, ``/R`` ``/r`` Roman,
  ``/A`` ``/a`` letters (A to Z, then AA to ZZ, ...), none without ``/S``; counting starts at
  ``/St`` (1 when absent);
- a range pdfthin cannot number (an unknown style, a Roman numeral past 3,999, a start below
  1, a label past ``MAX_LABEL_CHARS``) labels its pages by their numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pdfthin.engine.objects import get, resolve
from pdfthin.engine.walk import Walk, depth_first

#: Characters of a page label (a prefix longer than this is not a label a reader can use,
#: and the labels are not read at all; a longer label is cut, ending in "…").
MAX_LABEL_CHARS = 128
#: Roman numerals are written up to 3,999 (MMMCMXCIX); past that there is no standard form.
MAX_ROMAN = 3_999

_ROMAN = (
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)


def _roman(number: int) -> str | None:
    if number > MAX_ROMAN:
        return None
    out = []
    for value, symbol in _ROMAN:
        count, number = divmod(number, value)
        out.append(symbol * count)
    return "".join(out)


def _letters(number: int) -> str | None:
    repeats, position = divmod(number - 1, 26)
    if repeats + 1 > MAX_LABEL_CHARS:
        return None
    return chr(ord("A") + position) * (repeats + 1)


def _lower(style: Callable[[int], str | None]) -> Callable[[int], str | None]:
    def lower(number: int) -> str | None:
        numeral = style(number)
        return None if numeral is None else numeral.lower()

    return lower


_STYLES: dict[str | None, Callable[[int], str | None]] = {
    None: lambda _: "",
    "/D": str,
    "/R": _roman,
    "/r": _lower(_roman),
    "/A": _letters,
    "/a": _lower(_letters),
}


class LabelsTooLong(Exception):
    """A prefix longer than a label: the labels are not read."""


def ranges(tree: Any, walk: Walk) -> list[tuple[int, Any]]:
    """The number tree's ``(start, label dictionary)`` pairs, by start (a start given twice:
    the later one), read by ``walk``; raises :class:`LabelsTooLong` for a prefix past
    ``MAX_LABEL_CHARS``."""
    found: dict[int, Any] = {}
    for _, node in depth_first(walk, [tree], lambda n: walk.items(n, "/Kids")):
        nums = walk.items(node, "/Nums")
        if not walk.step(len(nums)):
            break
        for i in range(0, len(nums) - 1, 2):
            start, value = resolve(nums[i]), resolve(nums[i + 1])
            prefix = get(value, "/P")
            if isinstance(prefix, (str, bytes)) and len(prefix) > MAX_LABEL_CHARS:
                raise LabelsTooLong
            if isinstance(start, int) and not isinstance(start, bool) and start >= 0:
                found[int(start)] = value
    return sorted(found.items())


def labels(spans: list[tuple[int, Any]], page_count: int) -> list[str]:
    """Every page's label (see the module's rules)."""
    out = [str(i + 1) for i in range(page_count)]
    for k, (start, value) in enumerate(spans):
        end = spans[k + 1][0] if k + 1 < len(spans) else page_count
        for index in range(start, min(end, page_count)):
            out[index] = _label(value, index - start, index)
    return out


def _label(value: Any, offset: int, index: int) -> str:
    fallback = str(index + 1)
    if not isinstance(value, dict):
        return fallback
    first = get(value, "/St", 1)
    style = _STYLES.get(get(value, "/S"))
    prefix = get(value, "/P", "")
    if style is None or not isinstance(first, int) or isinstance(first, bool):
        return fallback
    number = int(first) + offset
    if get(value, "/S") is None:
        numeral: str | None = ""  # a prefix alone
    else:
        numeral = style(number) if number >= 1 else None
    if numeral is None:
        return fallback
    text = (prefix.decode("latin-1") if isinstance(prefix, bytes) else str(prefix)) + numeral
    return text if len(text) <= MAX_LABEL_CHARS else text[: MAX_LABEL_CHARS - 1] + "…"
