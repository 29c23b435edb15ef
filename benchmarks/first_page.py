"""How long the first answer takes, against the document's page count.

    python -m benchmarks first-page [--corpus PATH] [--repeat 3] [--name first_page]

For generated documents of 1, 10, 100 and 1,000 pages (:mod:`benchmarks.generated`) and the
longest real files of the corpus, each probe is a fresh process (pure, then native when the
kernel is installed) that imports pdfthin and asks ``read_pages(pages="1")`` — what an agent
or a CLI user waits for — or ``describe_document`` (an agent's usual first call), or reads every
page (the cost of a whole read, for comparison).
The parent takes each child's wall time from spawn to exit; the child reports its import and
answer times, its CPU time and its peak resident memory (``ru_maxrss``, Linux). Probes run one
at a time, interleaved across documents and paths so that drifts in machine speed fall on all
of them; medians are reported. Writes ``benchmarks/results/<name>.{json,md}``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.generated import write_document

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"

#: Generated documents, by page count: the goal is read off the first and the last.
GENERATED_PAGES = (1, 10, 100, 1000)
#: Long real files of the corpus (relative paths), measured when the corpus is there.
REAL_FILES = (
    "pdfjs/freeculture.pdf",
    "sample-files/GeoTopo-komprimiert.pdf",
    "pypdf-benchmarks/2201.00021.pdf",
    "pdfjs/tracemonkey.pdf",
)

_PROBE = """
import json, resource, sys, time
wall0, cpu0 = time.perf_counter(), time.process_time()
from pdfthin.operations import Context, describe_document, read_pages
wall1, cpu1 = time.perf_counter(), time.process_time()
path, what = sys.argv[1], sys.argv[2]
context = Context()
if what == "first":
    r = read_pages(path, pages="1", context=context)
    chars = len(r["pages"][0]["markdown"])
elif what == "describe":
    r = describe_document(path, context=context)
    chars = r["estimated_tokens"]["total"]
else:
    r = read_pages(path, max_chars=1_000_000, context=context)
    chars = sum(len(p["markdown"]) for p in r["pages"])
    while r["next_cursor"]:
        r = read_pages(path, max_chars=1_000_000, cursor=r["next_cursor"], context=context)
        chars += sum(len(p["markdown"]) for p in r["pages"])
wall2, cpu2 = time.perf_counter(), time.process_time()
print(json.dumps({
    "pages": r["document"]["page_count"], "chars": chars,
    "import_s": wall1 - wall0, "answer_s": wall2 - wall1, "answer_cpu_s": cpu2 - cpu1,
    "cpu_s": time.process_time(),
    "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""


def _probe(path: Path, what: str, native: bool, limit_s: float = 900.0) -> dict[str, Any]:
    """One fresh process: its own report plus the parent's wall, CPU and peak memory."""
    env = {**os.environ, "PDFTHIN_NATIVE": "require" if native else "off"}
    # Imports are measured as an installed package runs them, from its compiled bytecode
    # (pip compiles at install; a warm-up probe writes the cache of an editable checkout).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", _PROBE, str(path), what],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = proc.communicate(timeout=limit_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        raise RuntimeError(f"probe failed on {path} ({what}): {err.strip()[-400:]}")
    report: dict[str, Any] = json.loads(out)
    report["process_s"] = elapsed
    return report


def _native_available() -> bool:
    env = {**os.environ, "PDFTHIN_NATIVE": "require"}
    done = subprocess.run(
        [sys.executable, "-c", "import pdfthin.engine"], env=env, capture_output=True, check=False
    )
    return done.returncode == 0


def measure(
    documents: dict[str, Path], repeat: int, native: bool, whole: bool
) -> dict[str, dict[str, Any]]:
    """Median figures per document and path: ``first`` always, ``all`` when ``whole``."""
    paths = ["pure", "native"] if native else ["pure"]
    samples: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    kinds = ["first", "describe", "all"] if whole else ["first", "describe"]
    warm_up = next(iter(documents.values()))
    for mode in paths:  # bytecode written, files in the page cache: not measured
        _probe(warm_up, "first", mode == "native")
    for _ in range(repeat):
        for name, path in documents.items():
            for mode in paths:
                for kind in kinds:
                    got = _probe(path, kind, mode == "native")
                    samples.setdefault((name, mode, kind), []).append(got)
    out: dict[str, dict[str, Any]] = {}
    for (name, mode, kind), runs in samples.items():
        row = out.setdefault(name, {}).setdefault(mode, {})
        row["pages"] = runs[0]["pages"]
        row[kind] = {
            key: round(statistics.median(r[key] for r in runs), 4)
            for key in ("import_s", "answer_s", "answer_cpu_s", "process_s", "cpu_s")
        }
        row[kind]["peak_mib"] = round(max(r["peak_mib"] for r in runs), 1)
    return out


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def render(result: dict[str, Any]) -> str:
    rows = result["documents"]
    lines = [
        f"# First answer against page count ({result['name']})",
        "",
        f"pdfthin {result['pdfthin']}, Python {result['python']}, pypdf {result['pypdf']}; "
        f"{result['machine']}; median of {result['repeat']} fresh processes per cell, load "
        f"average {result['load'][0]:.1f} → {result['load'][1]:.1f}.",
        "",
        'Answer = `read_pages(pages="1")` after import (CPU time of the call in brackets); '
        "process = spawn to exit, import included; peak = the process's peak resident memory. "
        "× 1-page = the answer's time over the 1-page document's on the same path. "
        "Describe = `describe_document` in a fresh process, after import.",
        "",
        "| document | pages | path | import | first answer | × 1-page | process | peak | "
        "describe | whole read per page |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, by_mode in rows.items():
        for mode, row in by_mode.items():
            first = row["first"]
            base = rows.get("generated-1", {}).get(mode, {}).get("first")
            times = (
                f"{first['answer_s'] / base['answer_s']:.1f}"
                if base and name.startswith("generated") and base["answer_s"] > 0
                else "—"
            )
            whole = row.get("all")
            per_page = _ms(whole["answer_s"] / row["pages"]) if whole else "—"
            described = _ms(row["describe"]["answer_s"]) if "describe" in row else "—"
            lines.append(
                f"| {name} | {row['pages']} | {mode} | {_ms(first['import_s'])} | "
                f"{_ms(first['answer_s'])} ({_ms(first['answer_cpu_s'])}) | {times} | "
                f"{_ms(first['process_s'])} | {first['peak_mib']:.0f} MiB | {described} | "
                f"{per_page} |"
            )
    lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks first-page", description=__doc__)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--name", default="first_page")
    parser.add_argument("--no-whole", action="store_true", help="skip the whole-read probes")
    parser.add_argument("--pages", type=int, nargs="*", default=list(GENERATED_PAGES))
    args = parser.parse_args(argv)
    import pypdf

    import pdfthin

    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="pdfthin-first-") as tmp:
        documents = {
            f"generated-{n}": write_document(Path(tmp) / f"generated-{n}.pdf", n)
            for n in args.pages
        }
        for rel in REAL_FILES:
            if (args.corpus / rel).is_file():
                documents[rel] = args.corpus / rel
        native = _native_available()
        rows = measure(documents, args.repeat, native, not args.no_whole)
    result = {
        "name": args.name,
        "pdfthin": pdfthin.__version__,
        "pypdf": pypdf.__version__,
        "python": platform.python_version(),
        "machine": f"{os.cpu_count()} CPUs, {platform.machine()}",
        "load": [load_before, os.getloadavg()[0]],
        "repeat": args.repeat,
        "documents": rows,
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{args.name}.json").write_text(json.dumps(result, indent=2) + "\n")
    report = render(result)
    (RESULTS / f"{args.name}.md").write_text(report)
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
