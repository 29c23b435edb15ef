"""The reading ledger: which pages a chain of ``read_pages`` cursors has delivered, carried in
the cursors themselves (no server state), and shown compactly in each answer.

A chain reads its page selection in order, so what it delivered before a cursor is the
selection up to the cursor's position (``index``), plus the first ``offset`` characters of the
page it resumes in. The cursor does not carry the selection (the caller passes it again), so it
carries the ledger: the pages whose entry came whole (``lr``), those of them whose text could
not be read, by reason code (``lu``; the others were delivered), and the page cut by the budget
(``lp``; delivered up to the cursor's ``offset``). Page sets are runs with steps
(:mod:`.page_sets`), so a chain over 10,000 pages with scattered scans is still ``1-9856`` and
one stepped run or a few ranges of reasons.

Honesty over completeness: what a cursor carries is bounded (:func:`carry_limit`, so a cursor
stays short at any budget and on documents of 10,000+ pages); when the exact ledger does not
fit, pages are dropped from it, never added, and the pages the chain reached but could not
record (``index`` minus those carried) make the ledger inexact: they count as not delivered.
Reading a ledger back is untrusted input: every page must lie in the document, and, for
``read_pages``, inside the part of its selection the cursor has passed; otherwise the cursor is
``invalid_cursor``. Without a deployment key a cursor is only checksummed (see
:mod:`.cursor`): whoever holds one can rewrite its ledger, so the ledger is the caller's own
record, not a proof; with ``PDFTHIN_CURSOR_KEY`` an edited cursor is refused.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pdfthin.errors import PdfthinError
from pdfthin.operations import page_sets
from pdfthin.operations.response import size
from pdfthin.pages import format_pages

if TYPE_CHECKING:
    from pdfthin.operations.cursor import Cursor
    from pdfthin.operations.types import Ledger, LedgerCounts, PartialPage

#: The cursor's ``extra`` keys: pages whose entry came whole, those unreadable by reason, the
#: page cut by the budget.
_REACHED, _UNREADABLE, _PARTIAL = "lr", "lu", "lp"
#: Characters of ledger text a cursor carries at most (a fraction of a small budget).
MAX_CARRIED_CHARS = 1_000
#: Page lists shown in an answer are cut to these lengths in turn until the ledger fits.
_LIST_STEPS = (80, 40, 16, 0)
#: Partial pages listed in an answer (counts are whole).
_MAX_PARTIAL_SHOWN = 5
#: A reason code as the engine writes them.
_CODE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz_0123456789")
#: The reason codes of pages that could not be read, as a cursor writes them (one capital
#: letter: a small budget's cursor has room for a few dozen characters); any other code is
#: written whole, in lower case, so the two never meet.
_SHORT = {
    "image_only": "I",
    "vector_only": "V",
    "unmapped_glyphs": "U",
    "symbols_only": "S",
    "scan_with_sparse_text": "W",
    "hidden_only": "H",
    "partial": "P",
}
_LONG = {short: code for code, short in _SHORT.items()}


def carry_limit(max_chars: int) -> int:
    """How many characters of ledger text a cursor of a response of ``max_chars`` carries: 24
    at the minimum budget (``1-9999,10001`` and a reason), growing with the budget to at most
    :data:`MAX_CARRIED_CHARS`, so the cursor leaves the response room for page text."""
    return max(24, min(MAX_CARRIED_CHARS, (max_chars - 1_000) // 8 + 24))


def display_room(max_chars: int) -> int:
    """Room kept in a response for its ``ledger`` object (its lists are cut to fit)."""
    return max(200, min(800, max_chars // 15))


@dataclass
class ChainLedger:
    """What one chain (or several, merged) has delivered."""

    delivered: set[int] = field(default_factory=set)
    #: page -> reason code, for pages whose entry came but whose text could not be read.
    unreadable: dict[int, str] = field(default_factory=dict)
    #: page -> characters delivered from its start (the budget cut it).
    partial: dict[int, int] = field(default_factory=dict)
    #: Pages reached that the cursor could not record (they count as not delivered).
    unrecorded: int = 0
    #: Read from a cursor that carries no ledger (issued before there was one).
    legacy: bool = False

    def copy(self) -> ChainLedger:
        return ChainLedger(
            set(self.delivered),
            dict(self.unreadable),
            dict(self.partial),
            self.unrecorded,
            self.legacy,
        )

    def add_entry(self, entry: dict[str, Any]) -> None:
        """Record one ``read_pages`` page entry."""
        number = entry["page"]
        part = entry.get("part")
        if part is not None and part["end"] < part["total"]:
            self.partial[number] = max(self.partial.get(number, 0), part["end"])
            return
        self.partial.pop(number, None)
        if entry["status"] == "needs_ocr" or entry.get("reason_code") == "partial":
            self.unreadable[number] = entry.get("reason_code") or "needs_ocr"
        else:
            self.delivered.add(number)
            self.unreadable.pop(number, None)

    def merge(self, other: ChainLedger) -> None:
        """Add another chain's ledger: a page delivered anywhere is delivered; cut pages keep
        the longest part; a page unreadable in one chain (without OCR) but read in another
        (with it) is delivered."""
        self.delivered |= other.delivered
        for number, end in other.partial.items():
            self.partial[number] = max(self.partial.get(number, 0), end)
        for number, code in other.unreadable.items():
            self.unreadable.setdefault(number, code)
        self.unrecorded += other.unrecorded
        self.settle()

    def settle(self) -> None:
        """Keep each page in one list: delivered, then partial, then unreadable."""
        for number in self.delivered:
            self.partial.pop(number, None)
            self.unreadable.pop(number, None)
        for number in self.partial:
            self.unreadable.pop(number, None)

    @property
    def exact(self) -> bool:
        return self.unrecorded == 0


# --- carrying it in a cursor ------------------------------------------------------------------


def to_extra(chain: ChainLedger, reached: int, limit: int) -> dict[str, str]:
    """The cursor fields of ``chain`` in at most ``limit`` characters (``reached``: how many
    pages of the selection the chain has passed). Carried: the pages whose entry came whole
    (``lr``, delivered or unreadable: usually one run, whatever the statuses), those of them
    that could not be read, by reason (``lu``), and the page the budget cut (``lp``). When it
    does not fit, it is cut to the pages up to some page number: pages dropped, never added
    (an unreadable page is never dropped from ``lu`` while kept in ``lr``, which would make it
    delivered); the chain's position says how many went unrecorded."""
    extra: dict[str, str] = {}
    cut_page = next(iter(chain.partial), None)
    if cut_page is not None:
        extra[_PARTIAL] = str(cut_page)
        limit -= len(extra[_PARTIAL])
    whole = sorted(chain.delivered | set(chain.unreadable))

    def fields(count: int) -> tuple[str, str]:
        kept = whole[:count]
        by_code: dict[str, list[int]] = {}
        for number in kept:
            if number in chain.unreadable:
                by_code.setdefault(chain.unreadable[number], []).append(number)
        groups = ";".join(
            f"{_SHORT.get(code, code)}={page_sets.encode(nums)}" for code, nums in by_code.items()
        )
        return page_sets.encode(kept), groups

    def fits(count: int) -> bool:
        runs, groups = fields(count)
        return len(runs) + len(groups) <= limit

    best = len(whole)
    if not fits(best):
        low, high, best = 1, len(whole) - 1, 0
        while low <= high:  # the most pages, from the first, whose record fits
            mid = (low + high) // 2
            if fits(mid):
                best, low = mid, mid + 1
            else:
                high = mid - 1
    extra[_REACHED], extra[_UNREADABLE] = fields(best)
    return extra


def from_cursor(token: Cursor, page_count: int, passed: Iterable[int] | None = None) -> ChainLedger:
    """The ledger a ``read_pages`` cursor carries, checked: ``invalid_cursor`` when it names a
    page outside the document, outside ``passed`` (the selection the cursor has passed, when
    known), more pages than the cursor has passed, or an unreadable page it does not say came.
    A cursor without a ledger (issued before there was one) gives an inexact ledger of its
    position alone."""
    extra = token.extra or {}
    chain = ChainLedger()
    if _REACHED not in extra:
        # Its position alone: the pages passed, and the page it resumes in when it resumes
        # inside one, are unrecorded (read_pages, knowing the selection, names that page).
        chain.unrecorded = token.index + (1 if token.offset else 0)
        chain.legacy = True
        return chain
    try:
        whole = page_sets.decode(extra[_REACHED], page_count)
        for group in filter(None, extra.get(_UNREADABLE, "").split(";")):
            written, _, runs = group.partition("=")
            code = _LONG.get(written, written)
            if not code or not set(code) <= _CODE_CHARS or len(code) > 32:
                raise ValueError("a malformed reason code")
            for number in page_sets.decode(runs, page_count):
                if number in chain.unreadable:
                    raise ValueError("a page with two reasons")
                chain.unreadable[number] = code
        if _PARTIAL in extra:
            cut = page_sets.decode(extra[_PARTIAL], page_count)
            if len(cut) != 1 or not token.offset:
                raise ValueError("a malformed partial page")
            chain.partial[cut.pop()] = token.offset
    except ValueError:
        raise _bad("the cursor's reading ledger is malformed") from None
    if not set(chain.unreadable) <= whole or set(chain.partial) & whole:
        raise _bad("the cursor's reading ledger contradicts itself")
    if len(whole) > token.index or (token.offset and not chain.partial):
        raise _bad("the cursor's reading ledger does not match its position")
    if passed is not None and not whole <= set(passed):
        raise _bad("the cursor's reading ledger names pages its selection has not passed")
    chain.delivered = whole - set(chain.unreadable)
    chain.unrecorded = token.index - len(whole)
    return chain


def _bad(message: str) -> PdfthinError:
    return PdfthinError("invalid_cursor", message)


# --- showing it -------------------------------------------------------------------------------


def _cut(pages: list[int], max_chars: int) -> str:
    """``pages`` (sorted) as compact ranges of at most ``max_chars`` characters, cut at a range
    and ending in ``…`` when cut (``…`` alone when nothing fits)."""
    text = format_pages(pages)
    if len(text) <= max_chars:
        return text
    cut = text.rfind(",", 0, max(0, max_chars - 1))
    return (text[:cut] + ",…") if cut > 0 else "…"


def view(
    chain: ChainLedger,
    page_count: int,
    room: int,
    totals: dict[int, int] | None = None,
    known_unreadable: dict[int, str] | None = None,
) -> Ledger:
    """The ``ledger`` object of an answer, in at most ``room`` characters of JSON when it can
    be (page lists are cut, counts never). ``known_unreadable``: pages known to be unreadable
    that the chain has not reached (``describe_document``, ``ledger``)."""
    unreadable = dict(known_unreadable or {})
    for number in (*chain.delivered, *chain.partial):
        unreadable.pop(number, None)
    unreadable.update(chain.unreadable)
    reached = chain.delivered | set(chain.partial) | set(unreadable)
    delivered = sorted(chain.delivered)
    missing = [n for n in range(1, page_count + 1) if n not in reached]
    by_code: dict[str, list[int]] = {}
    for number, code in sorted(unreadable.items()):
        by_code.setdefault(code, []).append(number)
    counts: LedgerCounts = {
        "delivered": len(delivered),
        "partial": len(chain.partial),
        "not_delivered": len(missing),
        "unreadable": len(unreadable),
    }
    partial: list[PartialPage] = []
    for number, end in sorted(chain.partial.items())[:_MAX_PARTIAL_SHOWN]:
        entry: PartialPage = {"page": number, "end": end}
        if totals and number in totals:
            entry["total"] = totals[number]
        partial.append(entry)
    shown: Ledger = {"delivered": "", "not_delivered": "", "counts": counts, "exact": True}
    # Widest lists first; the last form is the counts alone (the ledger operation, and each
    # page entry of the same answer, give the details).
    for width in (*_LIST_STEPS, None):
        shown = {
            "delivered": _cut(delivered, width or 0),
            "not_delivered": _cut(missing, width or 0),
            "counts": counts,
            "exact": chain.exact,
        }
        if width is None:
            break
        if partial:
            shown["partial"] = partial if width else partial[:1]
        if by_code:
            shown["unreadable"] = {code: _cut(nums, width) for code, nums in by_code.items()}
        if not chain.exact and width:  # the smaller forms leave it to exact: false
            shown["note"] = (
                f"{chain.unrecorded} page(s) delivered could not be recorded in the cursor: "
                "counted as not delivered"
            )
        if size(shown) <= room:
            break
    return shown
