"""One engine on one PDF in a fresh process: ``python -m benchmarks.worker < job.json``.

The job (JSON on stdin) names the engine, the file, the password, the modules to block and
the address-space cap. The process caps its own memory, imports the engine (timed), warms it
up on a tiny PDF (so one-time initialisation is not charged to the first real file), then
extracts the whole document (timed) and writes one JSON object to its original stdout.
Anything the library prints goes to stderr instead.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time

from benchmarks import extractors


def _limit_memory(nbytes: int) -> None:
    if nbytes > 0:
        resource.setrlimit(resource.RLIMIT_AS, (nbytes, nbytes))


def _maxrss_kib() -> int:
    """Peak resident set of this process image, in KiB.

    ``VmHWM`` belongs to the address space created by ``exec``; ``ru_maxrss`` is not used
    because Linux carries it over from the parent at fork, so every worker would report at
    least the harness's own size.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def run(job: dict[str, object]) -> dict[str, object]:
    engine = str(job["engine"])
    path = str(job["path"])
    password = job.get("password")
    password = None if password is None else str(password)
    extract = extractors.EXTRACTORS[engine]
    result: dict[str, object] = {"engine": engine}

    t0 = time.perf_counter()
    extractors.import_modules(list(job.get("modules", [])))  # type: ignore[call-overload]
    result["import_s"] = time.perf_counter() - t0

    warmup = job.get("warmup")
    if warmup:
        t0 = time.perf_counter()
        try:
            extract(str(warmup), None)
        except Exception as exc:  # a broken warm-up must not hide the real result
            result["warmup_error"] = f"{type(exc).__name__}: {exc}"[:300]
        result["warmup_s"] = time.perf_counter() - t0

    rss_before = _maxrss_kib()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    try:
        pages = extract(path, password)
    except MemoryError:
        result.update(outcome="memory", error_type="MemoryError")
        pages = []
    except RecursionError as exc:
        result.update(outcome="crash", error_type="RecursionError", message=str(exc)[:300])
        pages = []
    except Exception as exc:
        outcome = "error" if extractors.is_clean_error(engine, exc) else "crash"
        result.update(
            outcome=outcome,
            error_type=f"{type(exc).__module__}.{type(exc).__qualname__}",
            error_code=getattr(exc, "code", None) if engine.startswith("pdfthin") else None,
            message=str(exc)[:300],
        )
        pages = []
    else:
        result["outcome"] = "ok"
    result["extract_s"] = time.perf_counter() - wall0
    result["extract_cpu_s"] = time.process_time() - cpu0
    result["maxrss_kib"] = _maxrss_kib()
    result["rss_source"] = "VmHWM"
    result["maxrss_before_kib"] = rss_before
    result["pages"] = pages
    return result


def main() -> int:
    job = json.loads(sys.stdin.read())
    # Keep the result channel clean: the libraries' own prints go to stderr.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    extractors.block_modules(list(job.get("block", [])))
    _limit_memory(int(job.get("mem_bytes", 0)))
    try:
        result = run(job)
    except MemoryError:
        result = {"engine": job.get("engine"), "outcome": "memory", "error_type": "MemoryError"}
    json.dump(result, out, ensure_ascii=False)
    out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
