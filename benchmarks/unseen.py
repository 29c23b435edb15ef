"""Documents the rules never saw: other projects' test PDFs, fetched from PyPI, npm and
crates.io, read by pdfthin beside pypdfium2.

    python -m benchmarks.unseen [--src DIR ...] [--pages 40] [--list 15] [--markdown DIR]
                                [--corpus ../shared/corpus] [--only PROJECT ...]

The corpus (``../shared/corpus``) is what the rules are developed on; fidelity is also judged
on documents nobody tuned for. This fetches the packages named in ``SOURCES`` (pinned by
version and SHA-256, cached under ``benchmarks/.cache/unseen``), takes every PDF in them but
the ones the corpus holds too (by content), and for each checkout given by ``--src`` (default:
this one; a ``git worktree`` of another commit compares the two) reads its first ``--pages``
pages to Markdown in a fresh process. Reported per source: how many files read, how many failed
with an error, how many pages are flagged as needing OCR, and the mean agreement of pdfthin's
text (Markdown syntax stripped) with pypdfium2's (the indel similarity the benchmark's text
score uses; pypdfium2 is not ground truth: its reading order and its own misreadings count
against pdfthin too), and the files where the checkouts differ most. Agreement misses what
moves no words (a line becoming a heading, an item taking its next line back): ``--markdown
DIR`` keeps each checkout's Markdown of every file (``DIR/<n>/<project>/<file>.md``, ``n``
counting the checkouts from 0) and names the files whose Markdown differs between the first
checkout and the last, for ``diff -r`` to show. It needs the benchmark environment
(``benchmarks/setup.sh``: pypdfium2) and a network that reaches the three registries."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "benchmarks" / ".cache" / "unseen"

#: (project, version, SHA-256 of its package): projects whose tests carry real PDFs from their
#: users' bug reports, none of them in the corpus. A project is a PyPI source distribution, or
#: with ``npm:`` an npm package, with ``crates:`` a crate of crates.io.
SOURCES = (
    ("PyMuPDF", "2.1", "9ac95f98016e83eafb8f1d786396f9c60e400d559590596e5b2df9eb6384948b"),
    ("pikepdf", "10.18.0", "cb555ebff93482e8a6eb55881488b469bbb2b5675161c1b93a0510a8642d98d0"),
    ("ocrmypdf", "17.13.0", "151c35d810eb628fbc5cb9bbe80b834ecf094737efa0e7a2e9e1fac3c730ed49"),
    # Added 2026-12-07 (sixteenth session), after the rules above had been fitted to what the
    # first three showed: unseen by every rule written before that day.
    ("pypdfium2", "5.15.2", "0185193bbdf0cc39f0bf31954c25f12edb81048bcb628ea4fc3dccf8d2ce2aef"),
    ("marker-pdf", "2.0.0", "7f6f0ebd29908f7c7c66f61cc06a9c07a9e3cd612c00732016f6e6b6fc150f7c"),
    ("pdfreader", "0.1.15", "2ee1252cc5f21a2f8cadb458decd85c1313271abb5bac1e4363a3e0e17e2dd87"),
    ("pdfannots", "0.5", "75da28053efa64980763b7b4891f14887d3d316f8273fcf4d02b593bbf57089c"),
    ("pdfx", "1.4.1", "9f2e71e58c42a76f1900d79e9357e4fcee8dd4358086c94e6b95e1fb1f5aa434"),
    # Added 2026-12-07 (seventeenth session), measured before any rule was written from them:
    # election results and registration counts set as whitespace tables, merged documents,
    # the Universal Declaration of Human Rights, the PDF specification itself (its first pages).
    (
        "npm:pdf-data-parser",
        "1.2.22",
        "f652f3d6789d44ae8d746340bc43258f77d49de955ac376fd4cde63326ca7637",
    ),
    ("npm:pdf-parse", "1.1.1", "ebca13fce97da77fd529f570188aee0fa696d00aac335914cef87d62ac2ac1b1"),
    (
        "npm:pdf-merger-js",
        "5.1.2",
        "ab8952f03a5908663c3d81ecd53ebddb563a9a8c37f623df4930ee2c463e7177",
    ),
    (
        "npm:pdf-table-extractor",
        "1.0.3",
        "ba08a1c9e4f486010ef1458a9ee4ce8cd46abe14ba15f2c28aca05f386798c61",
    ),
    (
        "npm:pdf-to-text",
        "0.0.7",
        "7e65aa8f1993bc61174c5067e0f06433b5a66ee1a292e7f2f1790d60b437b45b",
    ),
    ("npm:pdf2pic", "3.2.0", "b0056c11f1aa352763000b60fb203936e1bbf84ddbddfb00de4d2a599060d242"),
    ("crates:lopdf", "0.34.0", "c5c8ecfc6c72051981c0459f75ccc585e7ff67c70829560cda8e647882a9abff"),
    (
        "crates:pdf_oxide",
        "0.1.0",
        "96a2c3bebab49ec5568c84bd12df790e5cd6a6e29196870bd48b1f748a39f40e",
    ),
)
#: Files smaller than this are fixtures of a single feature (an annotation, an image), not
#: documents.
MIN_BYTES = 8_000

_READ = r"""
import json, sys
import pdfthin
from pdfthin.errors import PdfthinError
from benchmarks.metrics.text import document_text
out = {}
pages = int(sys.argv[1])
for path in sys.argv[2:]:
    try:
        doc = pdfthin.open(path)
        read = [doc.page(i) for i in range(1, min(doc.page_count, pages) + 1)]
        out[path] = {
            "text": document_text([p.markdown for p in read], markdown=True),
            "ocr": sum(p.status == "needs_ocr" for p in read),
            "markdown": "\n\n".join(p.markdown for p in read),
        }
    except PdfthinError as exc:
        out[path] = {"error": exc.code}
json.dump(out, sys.stdout)
"""


def _fetch(project: str, version: str, sha256: str) -> Path:
    """The package, downloaded once and checked against its hash."""
    target = CACHE / f"{_slug(project)}-{version}.tar.gz"
    if not target.exists():
        url = _package_url(project, version)
        CACHE.mkdir(parents=True, exist_ok=True)
        with urllib.request.urlopen(url, timeout=300) as resp:
            target.write_bytes(resp.read())
    digest = hashlib.sha256(target.read_bytes()).hexdigest()
    if digest != sha256:
        target.unlink()
        raise SystemExit(f"{target.name}: SHA-256 {digest}, expected {sha256}")
    return target


def _slug(project: str) -> str:
    """``project`` as a file name (``npm:@scope/name`` as ``npm-@scope-name``)."""
    return project.replace(":", "-").replace("/", "-")


def _package_url(project: str, version: str) -> str:
    """Where the registry keeps the version's package (npm tarballs and crates are
    gzipped tar archives at addresses the registries fix)."""
    registry, _, name = project.rpartition(":")
    if registry == "npm":
        return f"https://registry.npmjs.org/{name}/-/{name.rpartition('/')[2]}-{version}.tgz"
    if registry == "crates":
        return f"https://static.crates.io/crates/{name}/{name}-{version}.crate"
    if registry:
        raise SystemExit(f"{project}: unknown registry {registry!r}")
    return _sdist_url(name, version)


def _sdist_url(project: str, version: str) -> str:
    """Where PyPI keeps the version's source distribution: the version's JSON, else the
    project's (a mirror may serve only the latest), which must then be that version."""
    for meta_url in (
        f"https://pypi.org/pypi/{project}/{version}/json",
        f"https://pypi.org/pypi/{project}/json",
    ):
        try:
            with urllib.request.urlopen(meta_url, timeout=60) as resp:
                meta = json.load(resp)
        except urllib.error.HTTPError:
            continue
        if meta["info"]["version"] != version:
            continue
        url = str(next(u["url"] for u in meta["urls"] if u["packagetype"] == "sdist"))
        return urllib.parse.urljoin(meta_url, url)  # (a mirror's addresses are relative)
    raise SystemExit(f"{project} {version}: no source distribution found on PyPI")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def known_pdfs(corpus: Path) -> frozenset[str]:
    """The SHA-256 of every PDF under ``corpus`` (none when it is missing): a package may
    ship a file the corpus holds too (npm's pdf-parse ships pdf.js's tracemonkey paper)."""
    if not corpus.is_dir():
        return frozenset()
    return frozenset(_digest(p) for p in corpus.rglob("*") if p.suffix.lower() == ".pdf")


def _pdfs(archive: Path, known: frozenset[str] = frozenset()) -> list[Path]:
    """The archive's PDFs of ``MIN_BYTES`` or more, extracted beside it, but those whose
    content is in ``known``."""
    where = archive.with_suffix("").with_suffix("")
    if not where.exists():
        with tarfile.open(archive) as tar:
            members = [
                m for m in tar.getmembers() if m.isfile() and m.name.lower().endswith(".pdf")
            ]
            tar.extractall(where, members=members, filter="data")
    return sorted(
        p
        for p in where.rglob("*")
        if p.suffix.lower() == ".pdf"
        and p.is_file()
        and p.stat().st_size >= MIN_BYTES
        and _digest(p) not in known
    )


def _pdfium(paths: list[Path], pages: int) -> dict[str, str]:
    import pypdfium2 as pdfium

    from benchmarks.metrics.text import document_text

    out = {}
    for path in paths:
        try:
            doc = pdfium.PdfDocument(str(path))
            texts = [doc[i].get_textpage().get_text_range() for i in range(min(len(doc), pages))]
        except Exception:  # a file pypdfium2 cannot read is left out
            continue
        out[str(path)] = document_text(texts)
    return out


def _pdfthin(src: Path, paths: list[Path], pages: int) -> dict[str, dict[str, object]]:
    env = dict(os.environ, PYTHONPATH=f"{src}{os.pathsep}{ROOT}", PDFTHIN_NATIVE="off")
    proc = subprocess.run(
        [sys.executable, "-c", _READ, str(pages), *map(str, paths)],
        env=env,
        cwd=str(src),
        capture_output=True,
        text=True,
        check=True,
        timeout=3600,
    )
    result: dict[str, dict[str, object]] = json.loads(proc.stdout)
    return result


def markdown_changed(
    first: dict[str, dict[str, object]], last: dict[str, dict[str, object]]
) -> list[str]:
    """The files (by path) whose Markdown, or whose error, differs between two readings."""
    return sorted(
        path
        for path in first.keys() | last.keys()
        if first.get(path, {}).get("markdown", first.get(path, {}).get("error"))
        != last.get(path, {}).get("markdown", last.get(path, {}).get("error"))
    )


def _keep_markdown(where: Path, read: dict[str, dict[str, object]]) -> None:
    where.mkdir(parents=True, exist_ok=True)
    for path, got in read.items():
        text = got.get("markdown", f"error: {got.get('error')}")
        (where / (Path(path).name + ".md")).write_text(str(text), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.unseen", description=__doc__)
    parser.add_argument("--src", type=Path, action="append", help="a checkout to measure")
    parser.add_argument("--pages", type=int, default=40, help="pages read per file")
    parser.add_argument("--list", type=int, default=15, help="files listed that differ most")
    parser.add_argument(
        "--markdown", type=Path, help="keep each checkout's Markdown of every file under DIR"
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        default=ROOT.parent / "shared" / "corpus",
        help="files also in this corpus are left out (default: ../shared/corpus)",
    )
    parser.add_argument(
        "--only", action="append", help="measure this project of SOURCES only (repeatable)"
    )
    args = parser.parse_args(argv)
    from benchmarks.metrics.text import indel_similarity

    srcs = [s.resolve() for s in (args.src or [ROOT])]
    rows: dict[str, dict[str, list[float]]] = {}
    per_file: dict[str, list[float]] = {}
    changed: list[str] = []
    known = known_pdfs(args.corpus)
    for project, version, sha256 in SOURCES:
        if args.only and project not in args.only:
            continue
        paths = _pdfs(_fetch(project, version, sha256), known)
        reference = _pdfium(paths, args.pages)
        first: dict[str, dict[str, object]] = {}
        for k, src in enumerate(srcs):
            read = _pdfthin(src, paths, args.pages)
            if args.markdown is not None:
                _keep_markdown(args.markdown / str(k) / _slug(project), read)
            if k == 0:
                first = read
            elif k == len(srcs) - 1:
                changed += [f"{project}: {Path(p).name}" for p in markdown_changed(first, read)]
            stats = rows.setdefault(f"{project} {version}", {})
            for path in paths:
                got = read.get(str(path), {})
                key = str(path)
                stats.setdefault("files", [0.0] * len(srcs))[k] += 1
                if "error" in got:
                    stats.setdefault("errors", [0.0] * len(srcs))[k] += 1
                    continue
                stats.setdefault("needs OCR pages", [0.0] * len(srcs))[k] += float(str(got["ocr"]))
                truth = reference.get(key, "")
                if len(truth.split()) < 30:
                    continue  # too little text in pypdfium2's reading to compare with
                score = indel_similarity(str(got["text"]), truth)
                stats.setdefault("agreement", [0.0] * len(srcs))[k] += score
                stats.setdefault("compared", [0.0] * len(srcs))[k] += 1
                per_file.setdefault(f"{project}: {Path(key).name}", [0.0] * len(srcs))[k] = score
    heads = " | ".join(str(s) for s in srcs)
    print(f"| source | measure | {heads} |")
    print("|---|---|" + "---:|" * len(srcs))
    for source, stats in rows.items():
        compared = stats.get("compared", [0.0] * len(srcs))
        for measure in ("files", "errors", "needs OCR pages", "agreement"):
            values = stats.get(measure, [0.0] * len(srcs))
            if measure == "agreement":  # ("–": no file with enough text to compare)
                cells = [
                    f"{v / n:.3f}" if n else "–" for v, n in zip(values, compared, strict=True)
                ]
            else:
                cells = [f"{v:.0f}" for v in values]
            print(f"| {source} | {measure} | {' | '.join(cells)} |")
    if len(srcs) > 1:
        print(f"\nFiles whose Markdown differs (first checkout, last): {len(changed)}")
        for name in changed:
            print(f"- {name}")
        moved = sorted(per_file.items(), key=lambda kv: -abs(kv[1][-1] - kv[1][0]))
        print("\nFiles that moved most (first checkout, last):")
        for name, scores in moved[: args.list]:
            if abs(scores[-1] - scores[0]) > 0.001:
                print(f"- {name}: {scores[0]:.3f} -> {scores[-1]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
