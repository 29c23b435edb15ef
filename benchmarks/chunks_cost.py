"""What chunks cost over the Markdown alone, on the whole corpus (issue 22: at most 15%).

    python -m benchmarks chunks-cost [--corpus PATH] [--repeat 3] [--name chunks_cost]
                                     [--sample N] [--pure-only]

For each corpus file, in one process: the CPU time to open it and build every page (what
``read_pages`` of the whole document costs: Markdown, plain text, block and line boxes), then
the CPU time to make its chunks from those pages (``model.chunks.chunk_pages``: what
``get_chunks`` adds once the pages are built) and to answer them as ``get_chunks`` does (JSON
included). Reported per corpus source and in total, pure and native (each in its own process,
``PDFTHIN_NATIVE``), the median of ``--repeat`` runs. Writes
``benchmarks/results/<name>.{json,md}``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"

_CHILD = r"""
import json, statistics, sys, time
import pdfthin
from pdfthin.errors import PdfthinError
from pdfthin.model.chunks import chunk_pages
from pdfthin.operations import Context, get_chunks

corpus, repeat = sys.argv[1], int(sys.argv[2])
rows = []
for line in sys.stdin:
    relpath, password = json.loads(line)
    data = open(f"{corpus}/{relpath}", "rb").read()
    pages_s, chunks_s, answer_s = [], [], []
    try:
        for _ in range(repeat):
            t0 = time.process_time()
            doc = pdfthin.open(data, password=password)
            pages = list(doc.pages)
            t1 = time.process_time()
            made = list(chunk_pages(pages))
            t2 = time.process_time()
            context = Context()
            for page in context.document(data, password).pages:  # built outside the timing
                pass
            t3 = time.process_time()
            r = get_chunks(data, password=password, max_chars=5_000_000, context=context)
            json.dumps(r)
            t4 = time.process_time()
            pages_s.append(t1 - t0)
            chunks_s.append(t2 - t1)
            answer_s.append(t4 - t3)
    except PdfthinError:
        continue
    rows.append({"relpath": relpath, "pages": len(pages), "chunks": len(made),
                 "pages_s": statistics.median(pages_s), "chunks_s": statistics.median(chunks_s),
                 "answer_s": statistics.median(answer_s)})
print(json.dumps(rows))
"""


def _files(corpus: Path, sample: int | None = None) -> list[tuple[str, str | None]]:
    """The corpus files (relpath, password); with ``sample``, that many spread evenly over
    the manifest's order (a quick look on a shared machine, not the benchmark's figure)."""
    sys.path.insert(0, str(ROOT / "tests"))
    os.environ.setdefault("PDFTHIN_CORPUS", str(corpus))
    from conftest import corpus_files

    files = [(f.relpath, f.password) for f in corpus_files()]
    if sample is not None and 0 < sample < len(files):
        step = len(files) / sample
        files = [files[int(i * step)] for i in range(sample)]
    return files


def measure(
    corpus: Path, repeat: int, native: bool, sample: int | None = None
) -> list[dict[str, Any]]:
    env = {**os.environ, "PDFTHIN_NATIVE": "require" if native else "off"}
    files = _files(corpus, sample)
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(corpus), str(repeat)],
        input="\n".join(json.dumps(f) for f in files),
        capture_output=True,
        text=True,
        env=env,
        check=True,
        cwd=ROOT,
    )
    rows: list[dict[str, Any]] = json.loads(done.stdout)
    return rows


def _sum(rows: list[dict[str, Any]], key: str) -> float:
    return sum(r[key] for r in rows)


def render(result: dict[str, Any]) -> str:
    lines = [
        f"# What chunks cost over the Markdown ({result['name']})",
        "",
        f"pdfthin {result['pdfthin']}, Python {result['python']}; {result['machine']}; "
        f"median of {result['repeat']} runs per file, CPU time.",
        "",
        "Pages = open the file and build every page (Markdown, text, boxes); chunks = make the "
        "chunks from the built pages; answer = `get_chunks` of the whole document as one JSON "
        "answer, pages already built. Cost = (chunks) / (pages); answer cost = (answer) / "
        "(pages).",
        "",
        "| path | source | files | pages | pages s | chunks s | cost | answer s | answer cost |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for mode, rows in result["paths"].items():
        by_source: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            by_source.setdefault(row["relpath"].split("/")[0], []).append(row)
        for name, group in [*sorted(by_source.items()), ("all", rows)]:
            pages_s = _sum(group, "pages_s")
            chunks_s = _sum(group, "chunks_s")
            answer_s = _sum(group, "answer_s")
            lines.append(
                f"| {mode} | {name} | {len(group)} | {int(_sum(group, 'pages'))} | "
                f"{pages_s:.2f} | {chunks_s:.3f} | {chunks_s / pages_s:.1%} | "
                f"{answer_s:.3f} | {answer_s / pages_s:.1%} |"
            )
    lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks chunks-cost", description=__doc__)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--name", default="chunks_cost")
    parser.add_argument("--pure-only", action="store_true")
    parser.add_argument(
        "--sample",
        type=int,
        metavar="N",
        help="only N files spread evenly over the corpus (a quick look, not the figure)",
    )
    args = parser.parse_args(argv)
    import pdfthin

    paths = {"pure": measure(args.corpus, args.repeat, native=False, sample=args.sample)}
    if not args.pure_only:
        paths["native"] = measure(args.corpus, args.repeat, native=True, sample=args.sample)
    result = {
        "name": args.name,
        "pdfthin": pdfthin.__version__,
        "python": platform.python_version(),
        "machine": f"{os.cpu_count()} CPUs, {platform.machine()}",
        "repeat": args.repeat,
        "paths": paths,
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{args.name}.json").write_text(json.dumps(result, indent=2) + "\n")
    report = render(result)
    (RESULTS / f"{args.name}.md").write_text(report)
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
