"""How two versions of a document are compared: the alignment rules of ``diff_documents``.

Plain data in, plain data out: each version is a list of :class:`Passage` (a rendered block
in reading order: a heading, a paragraph, a list item, a table, a code block, or a page that
could not be read), and :func:`diff_passages` answers the list of :class:`Change` that turns
the old list into the new one. The stages, in order:

1. **align** (:func:`_align`): a sequence matcher over the passages' normalised texts (white
   space collapsed, compatibility forms folded: what a re-saved or re-compressed copy may
   change without changing a word), so identical text is identical whatever the bytes;
2. **not compared** (:func:`_not_compared`): a stretch that differs and holds a passage that
   could not be read (its page needs OCR, or was read only in part) in either version is one
   ``not_compared`` change, never an addition, a removal or "unchanged";
3. **moves** (:func:`_moves`): a run of passages removed in one place and added unchanged in
   another is one ``moved`` change (a section that moved: its heading and its content);
4. **pairing** (:func:`_pair`): in a stretch replaced by another, a removed and an added
   passage of the same family (a table with a table, text with text) that are similar enough
   are one ``changed`` passage, with its word-level edits (:func:`word_diff`) or, for a table,
   its cell-level edits (:func:`cell_diff`); what is left is ``removed`` or ``added``.

The work is bounded by :class:`DiffSettings`: passages per version and the pairs of equal
passages the alignment meets (both checked by the caller, :func:`alignment_pairs`), words per
passage for a word diff, the pairs of equal words all word-by-word comparisons meet, and cells
per table.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Literal

ChangeKind = Literal["added", "removed", "changed", "moved", "not_compared"]
#: A table row: its cells.
Row = tuple[str, ...]

#: The kinds of passage that are tables (compared cell by cell).
_TABLE = "table"
_SPACE = re.compile(r"\s+")
#: A table's rule line, ``| --- | :-: |``.
_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$")
#: A cell separator: a pipe the Markdown did not escape.
_PIPE = re.compile(r"(?<!\\)\|")


@dataclass(frozen=True)
class DiffSettings:
    """The bounds of one comparison."""

    #: Passages per version (beyond it the comparison is refused: the matcher's work grows
    #: with the product of the two lengths in the worst case).
    max_passages: int = 20_000
    #: Words per passage compared word by word; a longer passage that changed is reported
    #: as replaced whole.
    max_words: int = 2_000
    #: Cells reported per changed table (the count covers them all).
    max_cells: int = 200
    #: How similar (0..1, over words) a removed and an added passage must be to be one
    #: passage that changed rather than one removed and one added.
    pair_ratio: float = 0.5
    #: Passages compared with each other to pair them, per replaced stretch (past it the
    #: remaining passages are removed and added without being paired).
    max_pairings: int = 10_000
    #: The fewest characters a moved run holds: a short line ("Total", a page number) that
    #: happens to stand elsewhere is not reported as moved.
    min_move_chars: int = 12
    #: Pairs of equal passages across the two versions (a passage once in each is one pair;
    #: one repeated a thousand times in each, a million): the alignment's work grows with
    #: them, so past it the comparison is refused. Real documents repeat few passages (a
    #: "Total" line a hundred times in each version is ten thousand pairs).
    max_equal_pairs: int = 1_000_000
    #: Pairs of equal words that the word-by-word comparisons of one diff may look at in all
    #: (pairing passages, word diffs, table rows): a comparison's work grows with them (two
    #: passages that repeat a few words thousands of times cost their product). Past it the
    #: passages left are paired by their words' counts alone and reported replaced whole.
    max_word_pairs: int = 20_000_000


DEFAULT_SETTINGS = DiffSettings()


@dataclass(frozen=True, slots=True)
class Passage:
    #: ``heading``, ``paragraph``, ``list_item``, ``table``, ``code`` or ``unreadable``.
    kind: str
    #: The text compared: the plain text, or a table's Markdown (its cells).
    text: str
    #: ``False`` for a page that could not be read (needs OCR, read in part): whatever
    #: differs around it is not compared.
    compared: bool = True


@dataclass(frozen=True, slots=True)
class CellEdit:
    """One table cell that differs: its row in each version (1-based, the header row is 1;
    ``None`` where the row is not in that version), its column (1-based) and header."""

    old_row: int | None
    new_row: int | None
    column: int
    header: str | None
    old: str | None
    new: str | None


@dataclass(frozen=True, slots=True)
class Change:
    kind: ChangeKind
    #: The passages concerned in each version: ``[start, end)`` indices (empty where the
    #: version has none: an added passage has no old ones).
    old: tuple[int, int]
    new: tuple[int, int]
    #: For a ``changed`` text passage: the passage in the word-diff form of
    #: :func:`word_diff` (``[-removed-]{+added+}``).
    diff: str | None = None
    #: For a ``changed`` table: its cells that differ (at most ``max_cells``).
    cells: tuple[CellEdit, ...] = ()
    cells_changed: int = 0
    similarity: float | None = None


@dataclass
class _State:
    old: list[Passage]
    new: list[Passage]
    okeys: list[str]
    nkeys: list[str]
    settings: DiffSettings
    changes: list[Change] = field(default_factory=list)
    #: What is left of ``settings.max_word_pairs``.
    word_pairs: int = 0

    def afford(self, a: Sequence[Hashable], b: Sequence[Hashable]) -> bool:
        """Whether comparing ``a`` and ``b`` item by item fits what is left of the word-pair
        budget (spent when it does)."""
        cost = equal_pairs(a, b)
        if cost > self.word_pairs:
            return False
        self.word_pairs -= cost
        return True


def normalise(text: str) -> str:
    """The text two versions are compared by: compatibility forms folded (ligatures, full-width
    forms), white space collapsed."""
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", text)).strip()


def diff_passages(
    old: list[Passage], new: list[Passage], settings: DiffSettings = DEFAULT_SETTINGS
) -> list[Change]:
    """The changes from ``old`` to ``new``, in the order of the new version (a removal where
    it would have stood). Empty when every passage is the same text, in the same order."""
    okeys, nkeys = [_key(p) for p in old], [_key(p) for p in new]
    state = _State(old, new, okeys, nkeys, settings, word_pairs=settings.max_word_pairs)
    ops = _align(state)
    ops = _not_compared(state, ops)
    removed = [
        i for tag, i1, i2, _, _ in ops if tag in ("delete", "replace") for i in range(i1, i2)
    ]
    added = [j for tag, _, _, j1, j2 in ops if tag in ("insert", "replace") for j in range(j1, j2)]
    moved_old, moved_new = _moves(state, removed, added)
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            continue
        olds = [i for i in range(i1, i2) if i not in moved_old]
        news = [j for j in range(j1, j2) if j not in moved_new]
        _pair(state, olds, news, j1)
    return sorted(state.changes, key=_order)


def equal_pairs(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """The pairs ``(i, j)`` with ``a[i] == b[j]``: what a sequence matcher's work grows with
    (few for text, the product of the lengths for two runs of one repeated item)."""
    counts = Counter(b)
    return sum(counts[item] for item in a if item in counts)


def alignment_pairs(old: list[Passage], new: list[Passage]) -> int:
    """:func:`equal_pairs` of two versions' passages as the alignment compares them (the
    figure ``DiffSettings.max_equal_pairs`` bounds)."""
    return equal_pairs([_key(p) for p in old], [_key(p) for p in new])


def _key(passage: Passage) -> str:
    # Every unreadable page is alike to the matcher, so the pages around one still align.
    return "\x00unreadable" if passage.kind == "unreadable" else normalise(passage.text)


def _order(change: Change) -> tuple[int, int, int]:
    """Changes by where they stand in the new version; a removal before an addition at the
    same place (as ``diff -u`` prints them)."""
    return (change.new[0], 0 if change.kind == "removed" else 1, change.old[0])


Opcode = tuple[str, int, int, int, int]


def _align(state: _State) -> list[Opcode]:
    matcher = difflib.SequenceMatcher(None, state.okeys, state.nkeys, autojunk=False)
    return [(tag, i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes()]


def _not_compared(state: _State, ops: list[Opcode]) -> list[Opcode]:
    """Stage 2: the stretches that involve a passage that could not be read become
    ``not_compared`` changes (and are left out of the opcodes the later stages see). Two
    unreadable pages aligned with each other are not compared either: they are alike only
    in having no text."""
    kept: list[Opcode] = []
    for op in ops:
        tag, i1, i2, j1, j2 = op
        olds, news = state.old[i1:i2], state.new[j1:j2]
        if tag == "equal":
            # Aligned one to one: only the unreadable pages themselves, run by run.
            k = 0
            while k < i2 - i1:
                if olds[k].kind != "unreadable":
                    k += 1
                    continue
                end = k
                while end < i2 - i1 and olds[end].kind == "unreadable":
                    end += 1
                state.changes.append(Change("not_compared", (i1 + k, i1 + end), (j1 + k, j1 + end)))
                k = end
            kept.append(op)
        elif any(not p.compared for p in (*olds, *news)):
            state.changes.append(Change("not_compared", (i1, i2), (j1, j2)))
            kept.append(("equal", i1, i1, j1, j1))  # nothing left to compare there
        else:
            kept.append(op)
    return kept


def _moves(state: _State, removed: list[int], added: list[int]) -> tuple[set[int], set[int]]:
    """Stage 3: runs of removed passages that stand, unchanged and in the same order, among the
    added ones elsewhere: each run is one ``moved`` change."""
    where: dict[str, list[int]] = {}
    for j in added:
        where.setdefault(state.nkeys[j], []).append(j)
    free_new = set(added)
    removed_set = set(removed)
    moved_old: set[int] = set()
    moved_new: set[int] = set()
    # Many alike short passages ("Total") could make this quadratic: candidates are bounded.
    budget = state.settings.max_pairings
    for i in removed:
        if i in moved_old:
            continue
        for j in where.get(state.okeys[i], []):
            budget -= 1
            if budget < 0:
                return moved_old, moved_new
            if j not in free_new:
                continue
            # The longest run from (i, j) on, both sides removed/added and alike.
            length = 0
            while (
                i + length in removed_set
                and i + length not in moved_old
                and j + length in free_new
                and state.okeys[i + length] == state.nkeys[j + length]
            ):
                length += 1
            chars = sum(len(state.okeys[k]) for k in range(i, i + length))
            if chars < state.settings.min_move_chars:
                continue
            moved_old.update(range(i, i + length))
            moved_new.update(range(j, j + length))
            free_new.difference_update(range(j, j + length))
            state.changes.append(Change("moved", (i, i + length), (j, j + length)))
            break
    return moved_old, moved_new


def _family(passage: Passage) -> str:
    return "table" if passage.kind == _TABLE else "text"


def _pair(state: _State, olds: list[int], news: list[int], at: int) -> None:
    """Stage 4: in one replaced stretch, pair removed and added passages that are similar
    enough, in order (a changed passage); the rest are removed or added."""
    settings = state.settings
    paired: list[tuple[int, int, float]] = []
    budget = settings.max_pairings
    start = 0
    for i in olds:
        best: tuple[float, int] | None = None
        for position in range(start, len(news)):
            if budget <= 0:
                break
            budget -= 1
            j = news[position]
            if _family(state.old[i]) != _family(state.new[j]):
                continue
            ratio = _similarity(state, state.okeys[i], state.nkeys[j], settings.pair_ratio)
            if ratio >= settings.pair_ratio and (best is None or ratio > best[0]):
                best = (ratio, position)
        if best is not None:
            paired.append((i, news[best[1]], best[0]))
            start = best[1] + 1
    old_paired = {i for i, _, _ in paired}
    new_paired = {j for _, j, _ in paired}
    for i, j, ratio in paired:
        state.changes.append(_changed(state, i, j, ratio))
    # A removal stands where the next passage of the new version kept after it would.
    for i in olds:
        if i not in old_paired:
            after = next((j for oi, j, _ in paired if oi > i), news[-1] + 1 if news else at)
            state.changes.append(Change("removed", (i, i + 1), (after, after)))
    for j in news:
        if j not in new_paired:
            state.changes.append(Change("added", (0, 0), (j, j + 1)))


def _similarity(state: _State, a: str, b: str, floor: float) -> float:
    """How alike two texts are, over their words (0..1); cheap bounds first. Past the
    word-pair budget, by their words' counts alone (an upper bound of the word-order
    similarity)."""
    wa, wb = a.split(), b.split()
    matcher = difflib.SequenceMatcher(None, wa, wb, autojunk=False)
    if matcher.real_quick_ratio() < floor:
        return 0.0
    quick = matcher.quick_ratio()
    if quick < floor:
        return 0.0
    if not state.afford(wa, wb):
        return quick
    return matcher.ratio()


def _changed(state: _State, i: int, j: int, ratio: float) -> Change:
    old, new = state.old[i], state.new[j]
    similarity = round(ratio, 3)
    if old.kind == _TABLE and new.kind == _TABLE:
        edits = cell_diff(old.text, new.text, state.afford)
        if edits is not None:
            return Change(
                "changed",
                (i, i + 1),
                (j, j + 1),
                cells=tuple(edits[: state.settings.max_cells]),
                cells_changed=len(edits),
                similarity=similarity,
            )
    text = word_diff(state.okeys[i], state.nkeys[j], state.settings.max_words, state.afford)
    return Change("changed", (i, i + 1), (j, j + 1), diff=text, similarity=similarity)


def word_diff(
    old: str,
    new: str,
    max_words: int = DEFAULT_SETTINGS.max_words,
    afford: Callable[[list[str], list[str]], bool] | None = None,
) -> str:
    """The new text with the old one's words folded in: ``[-removed words-]`` and ``{+added
    words+}`` where they differ (``wdiff``'s form), words separated by single spaces. Texts
    longer than ``max_words`` words, or whose comparison ``afford`` refuses (the diff's
    word-pair budget), are not compared word by word: the whole old text is removed and the
    new one added."""
    a, b = old.split(), new.split()
    if len(a) > max_words or len(b) > max_words or (afford is not None and not afford(a, b)):
        return f"[-{old}-]{{+{new}+}}"
    out: list[str] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.append(" ".join(a[i1:i2]))
            continue
        piece = ""
        if i2 > i1:
            piece += "[-" + " ".join(a[i1:i2]) + "-]"
        if j2 > j1:
            piece += "{+" + " ".join(b[j1:j2]) + "+}"
        out.append(piece)
    return " ".join(out)


def table_rows(markdown: str) -> list[list[str]]:
    """A Markdown table's rows as lists of cells (the rule line left out), cells stripped."""
    rows: list[list[str]] = []
    for line in markdown.splitlines():
        line = line.strip()
        if not line or _RULE.match(line):
            continue
        if line.startswith("|"):
            line = line[1:]
        if line.endswith("|") and not line.endswith("\\|"):
            line = line[:-1]
        rows.append([cell.strip() for cell in _PIPE.split(line)])
    return rows


def cell_diff(
    old: str, new: str, afford: Callable[[list[Row], list[Row]], bool] | None = None
) -> list[CellEdit] | None:
    """The cells that differ between two versions of a table (rows aligned by their cells,
    then cells compared column by column); ``None`` when either is not a table, or when
    ``afford`` refuses to align their rows (the diff's word-pair budget)."""
    a, b = table_rows(old), table_rows(new)
    if not a or not b:
        return None
    rows_a, rows_b = [tuple(r) for r in a], [tuple(r) for r in b]
    if afford is not None and not afford(rows_a, rows_b):
        return None
    header = b[0]
    edits: list[CellEdit] = []

    def named(column: int) -> str | None:
        return header[column] if column < len(header) and header[column] else None

    matcher = difflib.SequenceMatcher(None, rows_a, rows_b, False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        for k in range(max(i2 - i1, j2 - j1)):
            i, j = i1 + k, j1 + k
            row_a = a[i] if i < i2 else None
            row_b = b[j] if j < j2 else None
            width = max(len(row_a or ()), len(row_b or ()))
            for column in range(width):
                cell_a = row_a[column] if row_a is not None and column < len(row_a) else None
                cell_b = row_b[column] if row_b is not None and column < len(row_b) else None
                if cell_a == cell_b:
                    continue
                edits.append(
                    CellEdit(
                        i + 1 if row_a is not None else None,
                        j + 1 if row_b is not None else None,
                        column + 1,
                        named(column),
                        cell_a,
                        cell_b,
                    )
                )
    return edits
