"""Page selections: the one place where ``"1-3,7,10-"`` is parsed and checked.

Invariant 2 of DESIGN.md: a selection is validated against the page count before the engine
sees it. Nothing is clamped; an impossible selection is an ``invalid_pages`` error that names
the page count.
"""

from __future__ import annotations

import re

from .errors import PdfthinError

_PART = re.compile(r"^\s*(\d+)\s*(?:(-)\s*(\d*)\s*)?$")
#: Refuse absurd selections before doing arithmetic on them.
_MAX_SPEC_LENGTH = 10_000


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
            f"page selection must be a string like '1-3,7,10-', not {spec!r}", page_count
        )
    if isinstance(spec, int):
        spec = str(spec)
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
            raise _invalid(f"malformed page selection part {raw.strip()!r}", page_count, spec)
        first = int(match.group(1))
        last = first if match.group(2) is None else int(match.group(3) or page_count)
        if first < 1 or last < 1:
            raise _invalid(f"pages start at 1, got {raw.strip()!r}", page_count, spec)
        if first > page_count or last > page_count:
            raise _invalid(
                f"page {max(first, last)} is out of range: the document has {page_count} pages",
                page_count,
                spec,
            )
        if last < first:
            raise _invalid(f"reversed page range {raw.strip()!r}", page_count, spec)
        for page in range(first, last + 1):
            if page not in seen:
                seen.add(page)
                out.append(page)
    return out


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


def _invalid(message: str, page_count: int, spec: str | None = None) -> PdfthinError:
    details: dict[str, object] = {"page_count": page_count}
    if spec is not None:
        details["pages"] = spec
    if f"has {page_count} pages" not in message:
        message = f"{message} (the document has {page_count} pages)"
    return PdfthinError("invalid_pages", message, **details)
