"""Corpus sources, and which of them each metric's rules were developed on.

A source is the first folder of a corpus relpath (``camelot/health.pdf`` -> ``camelot``).
Rules are accepted only if the sources they were *not* tuned on do not get worse
(``python -m benchmarks compare A B``), so the split between "tuned on" and "held out" is
named here, once.
"""

from __future__ import annotations

from collections.abc import Iterable

#: For each fidelity metric, the sources pdfthin's rules were developed against. Every other
#: source is held out for that metric.
TUNED_ON: dict[str, frozenset[str]] = {
    "text": frozenset({"pypdf-benchmarks"}),
    "agreement": frozenset({"pypdf-benchmarks"}),
    "headings": frozenset({"pypdf-benchmarks"}),
    "tables": frozenset({"tabula-icdar2013"}),
    "row_kept": frozenset({"tabula-icdar2013"}),
    "text_tests": frozenset({"pypdf-benchmarks"}),
}


def source_of(relpath: str) -> str:
    """The corpus source of a file: the first folder of its relpath."""
    return relpath.split("/", 1)[0]


def is_tuned_on(metric: str, source: str) -> bool:
    return source in TUNED_ON.get(metric, frozenset())


def role(metric: str, source: str) -> str:
    """``"tuned"`` or ``"held out"``: how a source's number for ``metric`` is to be read."""
    return "tuned" if is_tuned_on(metric, source) else "held out"


def group(relpaths: Iterable[str]) -> dict[str, list[str]]:
    """Relpaths grouped by source, sources sorted by name."""
    out: dict[str, list[str]] = {}
    for relpath in sorted(relpaths):
        out.setdefault(source_of(relpath), []).append(relpath)
    return dict(sorted(out.items()))
