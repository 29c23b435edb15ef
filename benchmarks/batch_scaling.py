"""Throughput of ``pdfthin batch`` against its number of worker processes.

    python -m benchmarks batch [--corpus PATH] [--files N] [--jobs 1,2] [--name batch]

The first N readable files of the corpus (name order, encrypted ones left out) are read into a
fresh output folder by ``python -m pdfthin batch --format markdown`` with ``--jobs 1``, ``2``,
… up to the core count; each run is a new process, timed from spawn to exit (pool start-up
included, as a user waits for it). Documents/s and pages/s come from the run's summary.
Writes ``benchmarks/results/<name>.{json,md}`` with the machine it ran on.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import corpus

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
REPO = HERE.parent


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks batch")
    parser.add_argument("--corpus", default=str(REPO.parent / "shared" / "corpus"))
    parser.add_argument("--files", type=int, default=40, help="corpus files read (default 40)")
    parser.add_argument("--jobs", help="job counts, e.g. 1,2 (default: 1 up to the core count)")
    parser.add_argument("--name", default="batch")
    args = parser.parse_args(argv)
    cores = os.cpu_count() or 1
    counts = [int(j) for j in args.jobs.split(",")] if args.jobs else list(range(1, cores + 1))
    entries = [e for e in corpus.load(args.corpus).entries if not e.encrypted][: args.files]
    runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "list.txt"
        listing.write_text(
            "".join(f"{corpus.load(args.corpus).path(e.relpath)}\n" for e in entries)
        )
        for jobs in counts:
            out = Path(tmp) / f"out-{jobs}"
            env = {**os.environ, "PYTHONPATH": str(REPO)}
            command = [sys.executable, "-m", "pdfthin", "batch", f"@{listing}", "--out", str(out)]
            started = time.monotonic()
            subprocess.run([*command, "-j", str(jobs), "-q"], env=env, check=False)
            seconds = time.monotonic() - started
            summary = json.loads((out / "summary.json").read_text())
            pages = sum(summary["pages"].values())
            docs = summary["documents"]["ok"] + summary["documents"]["failed"]
            runs.append(
                {
                    "jobs": jobs,
                    "seconds": round(seconds, 2),
                    "documents": docs,
                    "pages": pages,
                    "documents_per_second": round(docs / seconds, 2),
                    "pages_per_second": round(pages / seconds, 1),
                }
            )
            print(f"jobs {jobs}: {seconds:.1f} s, {pages / seconds:.1f} pages/s", file=sys.stderr)
    from benchmarks.__main__ import _cpu_model, _memory_gib

    mem = _memory_gib()
    meta = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": f"{_cpu_model()}, {cores} cores" + (f", {mem:.0f} GiB" if mem else ""),
        "loadavg_at_start": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        "files": len(entries),
        "command": "python -m benchmarks batch " + " ".join(argv),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{args.name}.json").write_text(json.dumps({"meta": meta, "runs": runs}, indent=2))
    lines = [
        f"# pdfthin batch: throughput against --jobs ({meta['date']})",
        "",
        f"{meta['machine']}; {meta['files']} corpus files; load average at start "
        f"{meta['loadavg_at_start']}; `{meta['command']}`. Wall time of the whole command "
        "(pool start-up included).",
        "",
        "| --jobs | seconds | documents | pages | documents/s | pages/s |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for r in runs:
        lines.append(
            f"| {r['jobs']} | {r['seconds']} | {r['documents']} | {r['pages']} | "
            f"{r['documents_per_second']} | {r['pages_per_second']} |"
        )
    (RESULTS / f"{args.name}.md").write_text("\n".join(lines) + "\n")
    return 0
