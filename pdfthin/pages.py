"""Page selections: the one place where ``"1-3,7,10-"`` is parsed and checked.

Invariant 2 of docs/design.md: a selection is validated against the page count before the engine
sees it. Nothing is clamped; an impossible selection is an ``invalid_pages`` error that names
the page count.
"""

from __future__ import annotations

import operator
import re
from typing import Any

from pdfthin.errors import PdfthinError

#: Digits a page number may have: more than any document's page count, few enough that no
#: number is ever too long to convert or to print (Python refuses past 4,300 digits).
MAX_PAGE_DIGITS = 9
_PART = re.compile(r"^\s*([0-9]+)\s*(?:(-)\s*([0-9]*)\s*)?$")
#: How much of a bad part a message quotes.
_QUOTED_CHARS = 40
#: Refuse absurd selections before doing arithmetic on them.
_MAX_SPEC_LENGTH = 10_000
#: A page number larger than this is not shown in a message (only said to be out of range).
_SHOWN_LIMIT = 10**MAX_PAGE_DIGITS


def check_page(number: Any, page_count: int) -> int:
    """``number`` when it is a page of a document of ``page_count`` pages (1-based), else
    ``invalid_pages`` naming the page count: 0, negative numbers (no counting from the end),
    numbers past the last page and anything that is not an integer."""
    try:
        if isinstance(number, bool):
            raise TypeError
        value = operator.index(number)
    except TypeError:
        raise _invalid(
            f"a page number must be an integer, not {type(number).__name__}", page_count
        ) from None
    if 1 <= value <= page_count:
        return value
    if value < 1:
        shown = str(value) if value > -_SHOWN_LIMIT else "a negative number"
        raise _invalid(f"pages start at 1, got {shown}", page_count, page=_capped(value))
    shown = f"page {value}" if value < _SHOWN_LIMIT else "the page number"
    raise _invalid(
        f"{shown} is out of range: the document has {page_count} pages",
        page_count,
        page=_capped(value),
    )


def _capped(value: int) -> int | None:
    """The page number for an error's details, when it can be shown at all."""
    return value if -_SHOWN_LIMIT < value < _SHOWN_LIMIT else None


def parse_pages(spec: str | int | None, page_count: int) -> list[int]:
    """Return the selected 1-based pages in order, without duplicates.

    ``None`` or ``""`` selects every page. Accepted parts: ``N``, ``N-M``, ``N-`` (to the
    end), separated by commas. Raises ``invalid_pages`` for zero, negative, out-of-range,
    reversed, empty or malformed parts.
    """
    if spec is None:
        return list(range(1, page_count + 1))
    if isinstance(spec, bool) or not isinstance(spec, (str, int)):
        raise _invalid(
            "page selection must be a string like '1-3,7,10-' or one page number, "
            f"not {type(spec).__name__}",
            page_count,
        )
    if isinstance(spec, int):
        return [check_page(spec, page_count)]
    if len(spec) > _MAX_SPEC_LENGTH:
        raise _invalid("page selection is too long", page_count)
    if not spec.strip():
        return list(range(1, page_count + 1))
    if page_count <= 0:
        raise _invalid("the document has no pages", page_count)
    seen: set[int] = set()
    out: list[int] = []
    for raw in spec.split(","):
        match = _PART.match(raw)
        if match is None:
            raise _invalid(f"malformed page selection part {_quote(raw)}", page_count, spec)
        first = _number(match.group(1))
        last = first if match.group(2) is None else _number(match.group(3) or str(page_count))
        if first < 1 or last < 1:
            raise _invalid(f"pages start at 1, got {_quote(raw)}", page_count, spec)
        if first > page_count or last > page_count:
            high = max(first, last)
            shown = str(high) if high < _SHOWN_LIMIT else _quote(raw)
            raise _invalid(
                f"page {shown} is out of range: the document has {page_count} pages",
                page_count,
                spec,
            )
        if last < first:
            raise _invalid(f"reversed page range {_quote(raw)}", page_count, spec)
        for page in range(first, last + 1):
            if page not in seen:
                seen.add(page)
                out.append(page)
    return out


def _number(digits: str) -> int:
    """The value of a run of ASCII digits; any number too long to be a page is returned as
    _SHOWN_LIMIT (out of range for every document), never converted."""
    significant = digits.lstrip("0")
    return int(significant or "0") if len(significant) <= MAX_PAGE_DIGITS else _SHOWN_LIMIT


def _quote(part: str) -> str:
    part = part.strip()
    return repr(part if len(part) <= _QUOTED_CHARS else part[: _QUOTED_CHARS - 1] + "…")


def format_pages(pages: list[int] | tuple[int, ...]) -> str:
    """Compact form of a page list: ``[1, 2, 3, 7]`` -> ``"1-3,7"`` (order kept)."""
    parts: list[str] = []
    i = 0
    while i < len(pages):
        j = i
        while j + 1 < len(pages) and pages[j + 1] == pages[j] + 1:
            j += 1
        parts.append(str(pages[i]) if i == j else f"{pages[i]}-{pages[j]}")
        i = j + 1
    return ",".join(parts)


def _invalid(
    message: str, page_count: int, spec: str | None = None, **extra: object
) -> PdfthinError:
    details: dict[str, object] = {"page_count": page_count}
    if spec is not None:
        details["pages"] = spec
    details.update({k: v for k, v in extra.items() if v is not None})
    if f"has {page_count} pages" not in message:
        message = f"{message} (the document has {page_count} pages)"
    return PdfthinError("invalid_pages", message, **details)
