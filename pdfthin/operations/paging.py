"""Filling a response to its budget, and the cursor that continues it: written once for every
paginated operation (``read_pages``, ``find_in_document``, ``get_toc``, ``read_section``,
``list_images``).

A call's cursor is decoded once (:class:`Pager`), checked against the call (operation,
document, OCR mode, arguments), and the next one is issued by the same object. The budget counts
the compact JSON of the whole response (:func:`~.response.size`): the parts already built, room
kept for the longest cursor the call could issue (:meth:`Pager.longest`) and what the handler
reserves for its own account of what was left out. :func:`fill` then takes a list's entries
while they fit; :func:`fit_text` finds how much of one text fits; :func:`lean_first` makes the
one entry an answer always holds smaller when it alone outgrows the budget.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pdfthin.errors import PdfthinError
from pdfthin.operations import cursor as cur
from pdfthin.operations.response import cut_point, size

if TYPE_CHECKING:
    from pdfthin.model import Document

T = TypeVar("T")
E = TypeVar("E")

#: The largest offset a cursor carries: measured when room is kept for the longest cursor.
_LONGEST_OFFSET = 10**9 - 1
#: A page or section text fingerprint (``cursor.text_hash``) as long as any.
_LONGEST_HASH = "f" * 12
#: What an ``extra`` of up to four short keys adds to a cursor's JSON besides its values.
_EXTRA_KEYS_CHARS = 40


class Pager:
    """One call's place in its result set: where it resumes (from the cursor it was given,
    decoded once), and the cursor that continues it."""

    def __init__(
        self,
        op: str,
        doc: Document,
        args: str,
        token: str | cur.Cursor | None,
        key: bytes | None,
        *,
        ocr: bool = False,
    ) -> None:
        self.op = op
        self.fingerprint = cur.fingerprint_prefix(doc.fingerprint)
        self.args = args
        self.key = key
        self.ocr = ocr
        #: The cursor this call resumes from, checked against it; ``None``: from the start.
        self.start: cur.Cursor | None = None
        if token is not None:
            # A decoded cursor is taken as it is (an adapter that answers one request with
            # several calls decodes it once); anything else is a token to decode.
            start = token if isinstance(token, cur.Cursor) else cur.decode(token, key)
            cur.check(start, op=op, fingerprint=doc.fingerprint, ocr=ocr, args=args)
            self.start = start

    def resume_at(self, length: int) -> int:
        """The index the call resumes at in a result set of ``length`` items (0 without a
        cursor); ``invalid_cursor`` past its end."""
        return 0 if self.start is None else cur.resume_at(self.start, length)

    def cursor(
        self,
        index: int = 0,
        offset: int = 0,
        page_hash: str | None = None,
        extra: dict[str, str] | None = None,
    ) -> str:
        """The cursor that resumes at ``index`` (and ``offset`` inside it)."""
        return cur.encode(self._at(index, offset, page_hash, extra), self.key)

    def _at(
        self, index: int, offset: int, page_hash: str | None, extra: dict[str, str] | None
    ) -> cur.Cursor:
        return cur.Cursor(
            op=self.op,
            fingerprint=self.fingerprint,
            ocr=self.ocr,
            args=self.args,
            index=index,
            offset=offset,
            page_hash=page_hash,
            extra=extra,
        )

    def longest(
        self, index: int = 0, *, offset: bool = False, page_hash: bool = False, extra: int = 0
    ) -> int:
        """A bound on the length of any cursor this call could issue: ``index`` as large as the
        result set, and an offset or page fingerprint as long as any, where the operation's
        cursors carry them, and ``extra`` characters of operation state at most, each counted
        as if it did not compress (:func:`.cursor.longest_encoding`: how well a cursor
        compresses depends on its values). Room for it is kept before filling, so the response
        stays within its budget whatever the cursor turns out to be."""
        bare = cur.longest_encoding(
            self._at(
                index,
                _LONGEST_OFFSET if offset else 0,
                _LONGEST_HASH if page_hash else None,
                None,
            ),
            self.key,
        )
        if not extra:
            return bare
        # The state's text, its keys and quoting, grown by base64 (4/3) and by what zlib adds
        # to incompressible input (a few bytes per block).
        return bare + (extra + _EXTRA_KEYS_CHARS) * 4 // 3 + 16


def decoded(arguments: Mapping[str, Any], key: bytes | None) -> dict[str, Any]:
    """``arguments`` with their cursor decoded, for an adapter that may run the handler more
    than once for one call (a cache-only attempt first, a smaller budget after): the token is
    decoded once, here. One that does not decode is left as it is, for the handler to refuse
    where it always has, after the document is opened (which error a call with two faults
    gets does not change)."""
    out = dict(arguments)
    token = out.get("cursor")
    if isinstance(token, str):
        try:
            out["cursor"] = cur.decode(token, key)
        except PdfthinError:
            pass
    return out


@dataclass(frozen=True)
class Stop(Generic[T]):
    """Where filling stopped: the first item not wholly in the response."""

    item: T
    #: How much of the item is in the response (where its text was cut); 0: none of it.
    offset: int
    #: ``"budget"`` or ``"max_items"``.
    reason: str


def fill(
    entries: list[E],
    items: Iterable[T],
    entry: Callable[[T], E],
    room: int,
    *,
    max_items: int | None = None,
    split: Callable[[T, int], tuple[E, int | None]] | None = None,
) -> Stop[T] | None:
    """Append the entry of each item to ``entries`` while it fits in ``room`` characters (its
    JSON and a comma) and ``entries`` holds fewer than ``max_items``; the first entry always
    goes in, whole, or, with ``split``, the part of it that fits (``split(item, room)`` gives
    that part and where it ends, ``None`` when it is the whole item). ``None`` when every item
    went in; otherwise where to resume. Entries are built only for the items looked at."""
    used = 0
    whole_after_split = False
    for item in items:
        if whole_after_split:  # the split item fitted whole after all: resume at the next one
            return Stop(item, 0, "budget")
        if max_items is not None and len(entries) >= max_items:
            return Stop(item, 0, "max_items")
        piece = entry(item)
        cost = size(piece) + 1
        if used + cost <= room or (not entries and split is None):
            entries.append(piece)
            used += cost
            continue
        if entries:
            return Stop(item, 0, "budget")
        assert split is not None
        part, end = split(item, room - used)
        entries.append(part)
        if end is not None:
            return Stop(item, end, "budget")
        whole_after_split = True
    return None


def fit_text(text: str, offset: int, fits: Callable[[int], bool]) -> int:
    """The end of the longest piece of ``text`` from ``offset`` for which ``fits(end)`` holds,
    moved back to a natural break (paragraph, line, space) and never inside a surrogate pair;
    at least one character. ``fits`` must grow false as ``end`` grows (a JSON size does)."""
    if fits(len(text)):
        return len(text)
    lo, hi, best = offset + 1, len(text), offset + 1
    # Binary search on the raw length; JSON escaping makes the size non-linear.
    while lo <= hi:
        mid = (lo + hi) // 2
        if fits(mid):
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    end = offset + cut_point(text[offset:], best - offset)
    if end > offset and 0xD800 <= ord(text[end - 1]) <= 0xDBFF:
        end -= 1
    return max(end, offset + 1)


#: A step of :func:`lean_first` that removes its key.
DROP: Any = object()


def lean_first(
    response: Mapping[str, Any],
    entry: MutableMapping[str, Any],
    limit: int,
    steps: Sequence[tuple[str, Any]],
    cut: Sequence[str] = (),
) -> None:
    """Make ``entry``, the one entry of ``response`` (which always goes in whole), leave room
    for the rest of the answer while the whole answer is over ``limit`` characters: first
    each step in order, ``(key, value)``, while still over (``value`` replaces the key's;
    :data:`DROP` removes it; a callable is given the old value), then each text of ``cut``,
    cut shorter and ending in ``…``, until the answer fits or the text is gone. What each
    operation leaves out, and in which order, is its own (what another call, or a larger
    budget, gives); an entry whose texts were cut says ``truncated``."""
    for key, value in steps:
        if size(response) <= limit:
            return
        if value is DROP:
            entry.pop(key, None)
        elif key in entry:
            entry[key] = value(entry[key]) if callable(value) else value
    for key in cut:
        text = entry.get(key)
        while isinstance(text, str) and text and size(response) > limit:
            keep = max(0, len(text.rstrip("…")) - (size(response) - limit) - 1)
            text = text[:keep] + "…" if keep else ""
            entry[key] = text
            entry["truncated"] = True
