"""The real-PDF corpus: MANIFEST.tsv, PASSWORDS.tsv, ground-truth lookups, the quick subset."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

#: Tags whose files are scored for robustness (ok / clean error / crash / timeout / memory).
ROBUSTNESS_TAGS = frozenset({"malformed", "fuzzed", "bomb", "encrypted"})

#: Ground truths of the py-pdf/benchmarks text set outside ``pypdf-benchmarks/gt/``.
TEXT_BENCHMARK_EXTRA = frozenset({"sample-files/gt/GeoTopo-book.txt", "pypdf/gt/crazyones.txt"})

#: The fixed ``--quick`` subset: a few files of every kind that a metric needs, chosen so that
#: all engines finish in a few minutes on 2 cores.
QUICK: tuple[str, ...] = (
    # text ground truth
    "pypdf/crazyones.pdf",
    "pypdf-benchmarks/1601.03642.pdf",
    "pypdf-benchmarks/2201.00029.pdf",
    # outlines (heading ground truth)
    "pypdf-benchmarks/2201.00021.pdf",
    "docling/2206.01062_pg3.pdf",
    # ICDAR 2013 tables
    "tabula-icdar2013/competition-dataset-eu/eu-001.pdf",
    "tabula-icdar2013/competition-dataset-eu/eu-002.pdf",
    "tabula-icdar2013/competition-dataset-eu/eu-003.pdf",
    "tabula-icdar2013/competition-dataset-eu/eu-018.pdf",
    # image-only (OCR signal)
    "pypdf/jpeg.pdf",
    "pdfjs/scan-bad.pdf",
    "docling/ocr/ocr_test.pdf",
    "markitdown/ocr/pdf_scanned_invoice.pdf",
    # malformed, fuzzed, bomb
    "pdfminer/simple1.pdf",
    "pdfjs/Pages-tree-refs.pdf",
    "pdfjs/poppler-742-0-fuzzed.pdf",
    "pdfjs/REDHAT-1531897-0.pdf",
    "pdfjs/operator-in-TJ-array.pdf",
    "pdfjs/bomb_giant.pdf",
    # encrypted (run with and without the password)
    "pypdf/encrypted-file.pdf",
    "pdfminer/encryption/aes-256-r6.pdf",
    "pdfjs/empty_protected.pdf",
    # ordinary text pages
    "pdfjs/tracemonkey.pdf",
    "pdfplumber/federal-register-2020-17221.pdf",
)


@dataclass(frozen=True)
class Entry:
    relpath: str
    pages: int | None
    size: int
    ground_truth: tuple[str, ...]
    tags: frozenset[str]
    #: The user password from PASSWORDS.tsv ("" is a real empty password), or None.
    password: str | None = None

    @property
    def encrypted(self) -> bool:
        return "encrypted" in self.tags

    def gt(self, suffix: str) -> list[str]:
        """Ground-truth relpaths ending with ``suffix`` (e.g. ``.outline.json``)."""
        return [g for g in self.ground_truth if g.endswith(suffix)]


@dataclass(frozen=True)
class Corpus:
    root: Path
    entries: tuple[Entry, ...]

    def path(self, relpath: str) -> Path:
        return self.root / relpath

    def by_relpath(self) -> dict[str, Entry]:
        return {e.relpath: e for e in self.entries}

    def text_ground_truth(self, entry: Entry) -> Path | None:
        """The py-pdf/benchmarks plain-text ground truth of a file, if it has one (other
        ``.txt`` files in the corpus are expected strings of other test suites, not this)."""
        for g in entry.gt(".txt"):
            if g.startswith("pypdf-benchmarks/gt/") or g in TEXT_BENCHMARK_EXTRA:
                return self.root / g
        return None

    def icdar_structure(self, entry: Entry) -> Path | None:
        """``<stem>-str.xml`` of an ICDAR 2013 file (only the one matching the PDF's name)."""
        stem = Path(entry.relpath).stem
        for g in entry.gt("-str.xml"):
            if Path(g).name == f"{stem}-str.xml":
                return self.root / g
        return None


def _parse_pages(raw: str) -> int | None:
    raw = raw.strip().rstrip("*")
    return int(raw) if raw.isdigit() else None


def _read_passwords(path: Path) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    if not path.exists():
        return out
    with path.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            password = row.get("password") or ""
            out[row["relpath"]] = None if password.startswith("(") else password
    return out


def load(root: str | Path) -> Corpus:
    root = Path(root).resolve()
    manifest = root / "MANIFEST.tsv"
    if not manifest.exists():
        raise SystemExit(f"no MANIFEST.tsv in {root}: pass --corpus PATH/TO/corpus")
    passwords = _read_passwords(root / "PASSWORDS.tsv")
    entries: list[Entry] = []
    with manifest.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            gt = row["ground_truth_relpath"]
            entries.append(
                Entry(
                    relpath=row["relpath"],
                    pages=_parse_pages(row["pages"]),
                    size=int(row["bytes"]),
                    ground_truth=tuple(g for g in gt.split(";") if g and g != "-"),
                    tags=frozenset(t for t in row["tags"].split(",") if t),
                    password=passwords.get(row["relpath"]),
                )
            )
    return Corpus(root, tuple(entries))


def subset(corpus: Corpus, quick: bool, files: list[str] | None = None) -> list[Entry]:
    """The entries to run: all, the quick subset, or an explicit list of relpaths."""
    index = corpus.by_relpath()
    if files:
        missing = [f for f in files if f not in index]
        if missing:
            raise SystemExit(f"not in the manifest: {', '.join(missing)}")
        return [index[f] for f in files]
    if quick:
        return [index[f] for f in QUICK if f in index]
    return list(corpus.entries)
