"""Heading detection against a PDF's own outline (bookmarks).

Predicted headings are the Markdown ``#`` lines of each page. A predicted heading matches an
outline entry when their normalised titles are similar enough (rapidfuzz ratio, also tried
with leading section numbers removed from both); each entry matches at most one heading,
best similarity first, nearer page first on ties. Level agreement compares the dense rank of
levels among matched pairs, so a document whose title is ``#`` and sections ``##`` agrees
with an outline whose sections are level 1.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from rapidfuzz import fuzz

from benchmarks.metrics.text import expand_ligatures, strip_inline

#: Minimum similarity (0-100) of two normalised titles to count as the same heading.
THRESHOLD = 85.0
#: Outlines with fewer entries are not used as heading ground truth.
MIN_ENTRIES = 3

_HEADING_LINE = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)(\s+#+)?\s*$")
#: Numbers a book spells out after "Chapter" ("CHAPTER TWO: Mere Copyists").
_NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    "fifteen|sixteen|seventeen|eighteen|nineteen|twenty"
)
#: Leading section numbers: "1.2", "III-A", "A.", "(a)", "Chapter 3:", "Chapter Two:" stay out
#: of the match.
_NUMBERING = re.compile(
    r"^\s*(?:"
    r"(chapter|section|part|appendix)\s+(" + _NUMBER_WORDS + r")[.:)]?\s+|"
    r"((chapter|section|part|appendix)\s+)?"
    r"(\(?([0-9]+|(?=[ivx])x{0,3}(ix|iv|v?i{0,3})|[a-z])([.\-–)][0-9a-z]*)*[.:)]?\s+)+"
    r")",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Heading:
    level: int
    title: str
    page: int


def read_outline(path: Path) -> list[Heading]:
    data = json.loads(path.read_text(encoding="utf-8"))
    items = data.get("items", data) if isinstance(data, dict) else data
    out: list[Heading] = []
    for item in items:
        title = str(item.get("title") or "").strip()
        if title:
            out.append(Heading(int(item.get("level") or 1), title, int(item.get("page") or 0)))
    return out


def headings_from_markdown(pages: list[str]) -> list[Heading]:
    out: list[Heading] = []
    for number, page in enumerate(pages, start=1):
        for line in page.split("\n"):
            match = _HEADING_LINE.match(line)
            if match:
                title = strip_inline(match.group(2)).strip()
                if title:
                    out.append(Heading(len(match.group(1)), title, number))
    return out


def normalise(title: str) -> str:
    """Case-, accent-, punctuation- and spacing-insensitive form of a title."""
    text = unicodedata.normalize("NFKD", expand_ligatures(title))
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    text = re.sub(r"[^\w\s]", " ", text)
    return " ".join(text.split())


def _unnumbered(title: str) -> str:
    return normalise(_NUMBERING.sub("", title, count=1))


def similarity(a: str, b: str) -> float:
    full = fuzz.ratio(normalise(a), normalise(b))
    bare_a, bare_b = _unnumbered(a), _unnumbered(b)
    bare = fuzz.ratio(bare_a, bare_b) if len(bare_a) >= 3 and len(bare_b) >= 3 else 0.0
    return float(max(full, bare))


def shown(items: list[Heading], pages: list[str]) -> list[Heading]:
    """The outline entries whose title the document shows as text: some line of the entry's
    page or the next (any page when the entry has none), or two lines joined (a title that
    wraps), is similar to the title (:func:`similarity`) or begins with it (a run-in
    heading). ``pages`` is a plain-text reading of the document, one string per page.

    An outline is written for navigation, and some name what no page shows: "Blank Page" for
    each blank page, titles naming test cases, bookmarks renamed by hand. No engine can find
    those as headings; judging engines on them measures the outline, not the engines."""
    lines = [
        [" ".join(line.split()) for line in page.splitlines() if line.strip()] for page in pages
    ]
    kept: list[Heading] = []
    for item in items:
        where = (item.page - 1, item.page) if item.page else range(len(lines))
        if any(_shows(item.title, lines[i]) for i in where if 0 <= i < len(lines)):
            kept.append(item)
    return kept


def unjudged_pages(items: list[Heading], kept: list[Heading]) -> set[int]:
    """Pages where the outline marks a heading whose title the page does not show, and no
    shown entry: a heading found there ("Approved for Adults?" where the bookmark says "Slide
    Number 7") can be judged neither right nor wrong, so it is not counted."""
    return {h.page for h in items if h.page} - {h.page for h in kept if h.page}


def outline_truth(
    items: list[Heading], pages: list[str] | None
) -> tuple[list[Heading], set[int]] | None:
    """An outline as heading truth: the entries the document shows (:func:`shown`, all of
    them when there is no plain-text reading, ``pages`` ``None``) and the pages whose headings
    are not judged (:func:`unjudged_pages`); ``None`` when fewer than :data:`MIN_ENTRIES`
    entries are left."""
    if len(items) < MIN_ENTRIES:
        return None
    kept = shown(items, pages) if pages is not None else items
    if len(kept) < MIN_ENTRIES:
        return None
    return kept, unjudged_pages(items, kept)


def _shows(title: str, lines: list[str]) -> bool:
    bare = _unnumbered(title)
    starts = [t for t in (normalise(title), bare) if len(t) >= 3]
    for i, line in enumerate(lines):
        for text in (line, f"{line} {lines[i + 1]}" if i + 1 < len(lines) else None):
            if text is None:
                continue
            if similarity(title, text) >= THRESHOLD:
                return True
            plain = normalise(text)
            if any(plain.startswith(t) or _unnumbered(text).startswith(t) for t in starts):
                return True
    return False


@dataclass(frozen=True)
class HeadingScore:
    predicted: int
    expected: int
    matched: int
    level_agreed: int

    @property
    def precision(self) -> float:
        return self.matched / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.matched / self.expected if self.expected else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def level_agreement(self) -> float | None:
        return self.level_agreed / self.matched if self.matched else None

    def as_dict(self) -> dict[str, float | int | None]:
        return {
            "predicted": self.predicted,
            "expected": self.expected,
            "matched": self.matched,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "level_agreement": self.level_agreement,
        }


def _dense_rank(levels: list[int]) -> dict[int, int]:
    return {level: rank for rank, level in enumerate(sorted(set(levels)), start=1)}


def match(predicted: list[Heading], expected: list[Heading]) -> list[tuple[Heading, Heading]]:
    """One-to-one pairs (predicted, expected), best similarity first."""
    candidates: list[tuple[float, int, int, int]] = []
    for i, p in enumerate(predicted):
        for j, e in enumerate(expected):
            score = similarity(p.title, e.title)
            if score >= THRESHOLD:
                distance = abs(p.page - e.page) if p.page and e.page else 0
                candidates.append((-score, distance, i, j))
    candidates.sort()
    used_p: set[int] = set()
    used_e: set[int] = set()
    pairs: list[tuple[Heading, Heading]] = []
    for _, _, i, j in candidates:
        if i not in used_p and j not in used_e:
            used_p.add(i)
            used_e.add(j)
            pairs.append((predicted[i], expected[j]))
    return pairs


def score(predicted: list[Heading], expected: list[Heading]) -> HeadingScore:
    pairs = match(predicted, expected)
    p_rank = _dense_rank([p.level for p, _ in pairs])
    e_rank = _dense_rank([e.level for _, e in pairs])
    agreed = sum(1 for p, e in pairs if p_rank[p.level] == e_rank[e.level])
    return HeadingScore(len(predicted), len(expected), len(pairs), agreed)
