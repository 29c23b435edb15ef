"""pdfthin on the corpus's tagged files with the structure tree followed and ignored.

For each file tagged ``tagged`` in the corpus manifest: heading F1 against the tree's own
headings (``metrics/tagged.py``) and against the file's outline where it has one (the
entries its pages show, as the main benchmark judges them: ``hd.outline_truth``), and the
adjacency F1 of the tree's trusted tables; once with the tree followed where it is sane
(pdfthin's default) and once with ``PDFTHIN_IGNORE_STRUCTURE_TREE=1`` (the geometric path,
what the main benchmark measures). Scores against the tree's own truth flatter the tree
(it is measured against itself); the outline is independent of it. Pooled per source.

    /work/bench-venv/bin/python -m benchmarks.tree_vs_geometry --corpus ../shared/corpus
"""

from __future__ import annotations

import argparse
import os
from collections import Counter, defaultdict
from collections.abc import Collection
from pathlib import Path

from benchmarks.metrics import headings as hd
from benchmarks.metrics import tables as tb
from benchmarks.metrics import tagged as tg
from benchmarks.sources import source_of

IGNORE_ENV = "PDFTHIN_IGNORE_STRUCTURE_TREE"  # pdfthin.layout.tagged.IGNORE_ENV
MODES = ("tree", "geometry")


def _tagged_files(corpus: Path) -> list[tuple[str, list[str]]]:
    lines = (corpus / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()
    rows = [line.split("\t") for line in lines[1:]]
    return [(r[0], r[6].split(";")) for r in rows if "tagged" in r[-1].split(",")]


def _markdown(path: Path, ignore: bool) -> list[str]:
    import pdfthin

    if ignore:
        os.environ[IGNORE_ENV] = "1"
    else:
        os.environ.pop(IGNORE_ENV, None)
    try:
        return [page.markdown for page in pdfthin.open(str(path)).pages]
    except Exception:
        return []


def _table_counts(md: list[str], truth: tg.TaggedTruth) -> Counter[str]:
    found = [tb.tables_from_markdown(page) for page in md]
    by_page: dict[int, list[tb.Table]] = defaultdict(list)
    for page, table in truth.tables:
        by_page[page].append(table)
    total: Counter[str] = Counter()
    for page, expected in by_page.items():
        mine = found[page - 1] if page <= len(found) else []
        predicted = tb.within(tb.document_relations(mine), expected)
        s = tb.score(predicted, tb.document_relations(expected))
        total.update(predicted=s.predicted, expected=s.expected, correct=s.correct)
    return total


def _plain_text(path: Path) -> list[str] | None:
    """pypdfium2's text of each page, the outline's check (``hd.outline_truth``), as the main
    benchmark's scoring makes it; ``None`` when pypdfium2 refuses the file."""
    from benchmarks.extractors import extract_pypdfium2

    try:
        return [str(page.get("text") or "") for page in extract_pypdfium2(str(path), None)]
    except Exception:
        return None


def _heading_counts(
    md: list[str], expected: list[hd.Heading], unjudged: Collection[int] = ()
) -> Counter[str]:
    found = [h for h in hd.headings_from_markdown(md) if h.page not in unjudged]
    s = hd.score(found, expected)
    return Counter(predicted=s.predicted, expected=s.expected, correct=s.matched)


def _f1(c: Counter[str]) -> str:
    if not c["expected"]:
        return "—"
    p = c["correct"] / c["predicted"] if c["predicted"] else 0.0
    r = c["correct"] / c["expected"]
    return f"{2 * p * r / (p + r):.3f}" if p + r else "0.000"


def measure(corpus: Path) -> dict[str, dict[str, dict[str, Counter[str]]]]:
    """measure -> source -> mode -> pooled counts."""
    out: dict[str, dict[str, dict[str, Counter[str]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(Counter))
    )
    for relpath, truths in _tagged_files(corpus):
        path = corpus / relpath
        truth = tg.read_tagged(path)
        outline = None
        for gt in truths:
            if gt.endswith(".outline.json"):
                items = hd.read_outline(corpus / gt)
                reference = _plain_text(path) if len(items) >= hd.MIN_ENTRIES else None
                outline = hd.outline_truth(items, reference)
        source = source_of(relpath)
        for mode in MODES:
            md = _markdown(path, mode == "geometry")
            if truth and len(truth.headings) >= hd.MIN_ENTRIES:
                out["heading F1 (tree's headings)"][source][mode] += _heading_counts(
                    md, truth.headings
                )
            if outline:
                out["heading F1 (outline)"][source][mode] += _heading_counts(md, *outline)
            if truth and truth.tables:
                out["table F1 (tree's tables)"][source][mode] += _table_counts(md, truth)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    args = parser.parse_args()
    os.environ.setdefault("PDFTHIN_NATIVE", "off")
    print("| measure | source | tree followed | tree ignored |")
    print("|---|---|---:|---:|")
    for name, sources in measure(args.corpus).items():
        for source, modes in sorted(sources.items()):
            print(f"| {name} | {source} | {_f1(modes['tree'])} | {_f1(modes['geometry'])} |")


if __name__ == "__main__":
    main()
