"""``python -m benchmarks run --corpus ../shared/corpus [--quick] [--engines a,b]``.

Runs every engine on every file (each in its own process, timed, capped), measures cold
start, import time and installed size, scores the outputs against the corpus' ground truth and
writes ``benchmarks/results/<name>.json`` and ``<name>.md`` (name: ``quick`` or ``full``).
``python -m benchmarks report NAME`` re-renders the Markdown from the JSON;
``python -m benchmarks compare A B`` shows, per corpus source and fidelity metric, what changed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks import coldstart, compare, corpus, engines, report, runner, score, source
from benchmarks.warmup import write_warmup

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
CACHE = HERE / ".cache"


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) / (1 << 20)
    except OSError:
        pass
    return None


def _meta(
    args: argparse.Namespace,
    src: source.Source,
    raw: list[dict[str, Any]],
    chosen: list[engines.Engine],
    skipped: list[str],
    entries: list[corpus.Entry],
    runs: int,
) -> dict[str, Any]:
    mem = _memory_gib()
    loads = sorted(r["loadavg"] for r in raw if r.get("loadavg") is not None)
    return {
        "mode": args.name,
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{_cpu_model()}, {os.cpu_count()} cores"
        + (f", {mem:.0f} GiB" if mem else "")
        + f", {platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "pdfthin_version": src.version,
        "git_commit": src.label,
        "pdfthin_source": "working tree"
        if src.workdir == source.REPO_ROOT
        else f"git snapshot {src.label}",
        "loadavg_median": loads[len(loads) // 2] if loads else None,
        "loadavg_max": loads[-1] if loads else None,
        "command": "python -m benchmarks " + " ".join(shlex.quote(a) for a in sys.argv[1:]),
        "engines": [e.name for e in chosen],
        "skipped": skipped,
        "files": len(entries),
        "runs": runs,
        "workers": args.workers,
        "timeout_s": args.timeout,
        "timeout_per_page_s": args.timeout_per_page,
        "mem_bytes": args.mem_mib << 20,
    }


def cmd_run(args: argparse.Namespace) -> int:
    if args.workers > 2:
        _log("note: this benchmark is sized for 2 cores; more workers make timings meaningless")
    args.name = args.name or ("quick" if args.quick else ("files" if args.files else "full"))
    corp = corpus.load(args.corpus)
    entries = corpus.subset(corp, args.quick, args.files)
    names = [n.strip() for n in args.engines.split(",")] if args.engines else None
    chosen, skipped = engines.select(names)
    for note in skipped:
        _log(f"skipped {note}")
    if engines.REFERENCE not in [e.name for e in chosen]:
        _log("note: pdfthin is not among the engines: ratios to pdfthin will be n/a")

    src = source.snapshot(args.pdfthin_ref, CACHE) if args.pdfthin_ref else source.working_tree()
    _log(f"pdfthin from {src.workdir} ({src.label})")
    raw_path = CACHE / f"{args.name}.jsonl"
    jobs = runner.plan(chosen, entries)
    limits = runner.Limits(args.timeout, args.timeout_per_page, args.mem_mib << 20)
    started = time.perf_counter()
    out_json = RESULTS / f"{args.name}.json"
    kept: list[dict[str, Any]] = []
    reused: dict[str, Any] | None = None
    if args.rerun:
        rerun = {n.strip() for n in args.rerun.split(",")}
        if not raw_path.exists() or not out_json.exists():
            raise SystemExit(f"--rerun needs a previous run named {args.name!r}")
        chosen_names = {e.name for e in chosen}
        kept = [
            r
            for r in runner.load_raw(raw_path)
            if r["engine"] not in rerun and r["engine"] in chosen_names
        ]
        previous = json.loads(out_json.read_text(encoding="utf-8"))["meta"]
        kept_engines = sorted({r["engine"] for r in kept})
        # Kept outputs may themselves have been kept from an earlier run.
        origin = previous.get("reused") or {}
        if not set(kept_engines) <= set(origin.get("engines", [])):
            origin = previous
        reused = {
            "engines": kept_engines,
            "date": origin["date"],
            "loadavg_median": origin.get("loadavg_median"),
        }
        jobs = [j for j in jobs if j.engine.name in rerun]
    if args.reuse_raw and raw_path.exists():
        _log(f"re-scoring {raw_path} (no extraction)")
        raw = runner.load_raw(raw_path)
        present = {r["engine"] for r in raw}
        chosen = [e for e in chosen if e.name in present]
    else:
        warmup = write_warmup(CACHE)
        _log(
            f"{len(jobs)} runs: {len(chosen)} engines x {len(entries)} files, "
            f"{args.workers} worker(s)"
        )
        raw = runner.run_all(
            jobs, corp, limits, warmup, raw_path, src, args.workers, _log, keep=kept
        )
    cold: dict[str, Any] | None = None
    if args.reuse_cold and out_json.exists():
        cold = json.loads(out_json.read_text(encoding="utf-8")).get("coldstart")
    elif args.cold_repeat > 0:
        cold = coldstart.measure(
            chosen, corp.path(coldstart.COLD_FILE), src, args.cold_repeat, _log
        )

    _log("scoring")
    run = score.Run.build(raw, chosen, entries, corp)
    results: dict[str, Any] = {
        "meta": _meta(args, src, raw, chosen, skipped, entries, len(jobs)),
        "engine_info": {
            e.name: {
                "description": e.description,
                "versions": coldstart.versions(e),
                "installed": coldstart.installed_size(e),
            }
            for e in chosen
        },
        "coldstart": cold,
        "evaluation": score.evaluate(run),
    }
    results["meta"]["elapsed_s"] = round(time.perf_counter() - started, 1)
    if reused:
        results["meta"]["reused"] = reused
    if args.reuse_raw and out_json.exists():
        # Re-scored outputs: the run itself (date, command, load, pdfthin commit) is the old one.
        previous = json.loads(out_json.read_text(encoding="utf-8"))["meta"]
        previous["rescored"] = {
            "date": results["meta"]["date"],
            "command": results["meta"]["command"],
        }
        results["meta"] = previous
    results["targets"] = report.targets(results)
    RESULTS.mkdir(parents=True, exist_ok=True)
    out_json.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    out_md = RESULTS / f"{args.name}.md"
    out_md.write_text(report.render(results), encoding="utf-8")
    _log(
        f"wrote {out_json.relative_to(source.REPO_ROOT)} and {out_md.relative_to(source.REPO_ROOT)}"
        f" in {results['meta']['elapsed_s']:.0f} s"
    )
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    path = Path(args.results)
    if not path.exists():
        path = RESULTS / f"{args.results}.json"
    results = json.loads(path.read_text(encoding="utf-8"))
    results["targets"] = report.targets(results)
    text = report.render(results)
    path.with_suffix(".md").write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    return 0


def _load_results(name: str) -> dict[str, Any]:
    path = Path(name)
    if not path.exists():
        path = RESULTS / f"{name}.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def cmd_compare(args: argparse.Namespace) -> int:
    before, after = _load_results(args.before), _load_results(args.after)
    text, held_out_worse = compare.render(before, after, args.engine, (args.before, args.after))
    sys.stdout.write(text)
    return 1 if held_out_worse else 0


def cmd_engines(_: argparse.Namespace) -> int:
    for engine in engines.ENGINES.values():
        state = "available" if engine.available() else "not installed"
        print(f"{engine.name:<20} {state:<14} {engine.description}")
    return 0


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else argv
    if given[:1] == ["chunks-cost"]:  # its own options: benchmarks/chunks_cost.py
        from benchmarks.chunks_cost import main as chunks_cost

        return chunks_cost(given[1:])
    if given[:1] == ["batch"]:  # its own options: benchmarks/batch_scaling.py
        from benchmarks.batch_scaling import main as batch_scaling

        return batch_scaling(given[1:])
    if given[:1] == ["first-page"]:  # its own options: benchmarks/first_page.py
        from benchmarks.first_page import main as first_page

        return first_page(given[1:])
    if given[:1] == ["growth"]:  # its own options: benchmarks/growth.py
        from benchmarks.growth import main as growth

        return growth(given[1:])
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="run the benchmark and write benchmarks/results/")
    run.add_argument(
        "--corpus",
        default=str(source.REPO_ROOT.parent / "shared" / "corpus"),
        help="the real-PDF corpus (default: ../shared/corpus)",
    )
    run.add_argument("--quick", action="store_true", help="the fixed quick subset (< 5 min)")
    run.add_argument("--engines", help="comma-separated engine names (default: all installed)")
    run.add_argument("--files", nargs="+", help="explicit corpus relpaths instead of a subset")
    run.add_argument("--name", help="results file name (default: quick / full / files)")
    run.add_argument(
        "--workers",
        type=int,
        default=1,
        help="parallel worker processes (default 1: clean timings)",
    )
    run.add_argument("--timeout", type=float, default=60.0, help="seconds per file (base)")
    run.add_argument(
        "--timeout-per-page", type=float, default=1.0, help="extra seconds per page of the file"
    )
    run.add_argument("--mem-mib", type=int, default=2048, help="address-space cap per run")
    run.add_argument(
        "--cold-repeat", type=int, default=7, help="cold-start runs per engine (0: skip cold start)"
    )
    run.add_argument(
        "--pdfthin-ref",
        help="measure pdfthin/ as committed at this git ref (e.g. HEAD) instead of the "
        "working tree",
    )
    run.add_argument(
        "--rerun",
        help="comma-separated engines to measure again; the other engines' outputs are kept "
        "from the last run of the same name (e.g. after a pdfthin change)",
    )
    run.add_argument(
        "--reuse-raw",
        action="store_true",
        help="re-score the cached raw outputs of the last run of this name",
    )
    run.add_argument(
        "--reuse-cold",
        action="store_true",
        help="keep the cold-start numbers of the last results of this name",
    )
    run.set_defaults(func=cmd_run)

    rep = sub.add_parser("report", help="re-render the Markdown of a results JSON")
    rep.add_argument("results", help="quick, full, or a path to a results JSON")
    rep.set_defaults(func=cmd_report)

    cmp = sub.add_parser(
        "compare",
        help="per source and metric, before/after of two results files; exit 1 when a "
        "held-out source got worse",
    )
    cmp.add_argument("before", help="results name or JSON path (e.g. base20)")
    cmp.add_argument("after", help="results name or JSON path (e.g. mybranch)")
    cmp.add_argument("--engine", default=engines.REFERENCE, help="engine to compare (pdfthin)")
    cmp.set_defaults(func=cmd_compare)

    sub.add_parser(
        "chunks-cost",
        help="what chunks cost over the Markdown on the corpus (chunks-cost --help)",
    )
    sub.add_parser(
        "first-page",
        help="time and memory to the first page against page count (first-page --help)",
    )
    sub.add_parser("batch", help="pdfthin batch throughput against --jobs (batch --help)")
    sub.add_parser("growth", help="how the cost grows with what a document holds (growth --help)")
    eng = sub.add_parser("engines", help="list the engines and whether they are installed")
    eng.set_defaults(func=cmd_engines)

    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
