"""Run (engine, file) jobs, each in its own worker process with a timeout and a memory cap.

A hang, a segfault, a MemoryError or a Python traceback ends one job, never the run: it is
recorded as ``timeout``, ``crash`` or ``memory``. Results stream to a JSONL file as they
finish, so a run can be re-scored (``python -m benchmarks report``) without re-running.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.corpus import Corpus, Entry
from benchmarks.engines import Engine
from benchmarks.source import Source

#: Substrings of a dead worker's stderr that mean it ran out of memory, not that it crashed.
_MEMORY_HINTS = ("MemoryError", "bad_alloc", "out of memory", "Cannot allocate memory")


@dataclass(frozen=True)
class Job:
    engine: Engine
    entry: Entry
    #: "main" (password given when one is known) or "nopw" (encrypted file, no password).
    variant: str
    password: str | None

    @property
    def key(self) -> str:
        return f"{self.engine.name}\t{self.entry.relpath}\t{self.variant}"


@dataclass(frozen=True)
class Limits:
    timeout_s: float = 60.0
    timeout_per_page_s: float = 1.0
    mem_bytes: int = 2 << 30

    def timeout_for(self, entry: Entry) -> float:
        return self.timeout_s + self.timeout_per_page_s * (entry.pages or 0)


def plan(engines: list[Engine], entries: list[Entry]) -> list[Job]:
    """File-major order (every engine on a file, then the next file), so that slow drifts in
    machine speed fall on all engines alike. Encrypted files run twice: with the known password
    and without any."""
    jobs: list[Job] = []
    for entry in entries:
        for engine in engines:
            jobs.append(Job(engine, entry, "main", entry.password))
        if entry.encrypted and entry.password is not None:
            for engine in engines:
                jobs.append(Job(engine, entry, "nopw", None))
    return jobs


def _signal_name(returncode: int) -> str:
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"


def run_job(
    job: Job, corpus: Corpus, limits: Limits, warmup: Path | None, source: Source
) -> dict[str, Any]:
    payload = {
        "engine": job.engine.name,
        "path": str(corpus.path(job.entry.relpath)),
        "password": job.password,
        "modules": list(job.engine.modules),
        "block": list(job.engine.block),
        "mem_bytes": limits.mem_bytes,
        "warmup": str(warmup) if warmup else None,
    }
    env = source.env(job.engine.env)
    env.setdefault("PYTHONHASHSEED", "0")
    timeout = limits.timeout_for(job.entry)
    base: dict[str, Any] = {
        "engine": job.engine.name,
        "file": job.entry.relpath,
        "variant": job.variant,
        "password_given": job.password is not None,
    }
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=str(source.workdir),
        env=env,
        start_new_session=True,
    )
    try:
        stdout, stderr = proc.communicate(json.dumps(payload).encode(), timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return {
            **base,
            "outcome": "timeout",
            "wall_s": time.perf_counter() - started,
            "message": f"no result within {timeout:.0f} s",
        }
    wall = time.perf_counter() - started
    tail = stderr.decode("utf-8", "replace")[-600:]
    if proc.returncode == 0 and stdout:
        try:
            result: dict[str, Any] = json.loads(stdout)
        except ValueError:
            return {**base, "outcome": "crash", "wall_s": wall, "message": "unreadable result"}
        result.update(base)
        result["wall_s"] = wall
        return result
    if any(hint in tail for hint in _MEMORY_HINTS):
        outcome = "memory"
    else:
        outcome = "crash"
    what = _signal_name(proc.returncode) if proc.returncode < 0 else f"exit {proc.returncode}"
    return {
        **base,
        "outcome": outcome,
        "wall_s": wall,
        "error_type": what,
        "message": tail.strip().splitlines()[-1][:300] if tail.strip() else what,
    }


def run_all(
    jobs: Iterable[Job],
    corpus: Corpus,
    limits: Limits,
    warmup: Path | None,
    raw_path: Path,
    source: Source,
    workers: int = 1,
    progress: Callable[[str], None] | None = None,
    keep: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Run every job with at most ``workers`` processes at a time; append results to JSONL."""
    jobs = list(jobs)
    raw_path.parent.mkdir(parents=True, exist_ok=True)
    lock = threading.Lock()
    results: list[dict[str, Any]] = list(keep or [])
    done = 0
    with raw_path.open("w", encoding="utf-8") as sink:
        for result in results:  # outputs of an earlier run, kept as they were
            sink.write(json.dumps(result, ensure_ascii=False) + "\n")

        def one(job: Job) -> None:
            nonlocal done
            result = run_job(job, corpus, limits, warmup, source)
            result["loadavg"] = load_average()
            with lock:
                results.append(result)
                sink.write(json.dumps(result, ensure_ascii=False) + "\n")
                sink.flush()
                done += 1
                if progress:
                    progress(
                        f"[{done}/{len(jobs)}] {job.engine.name:<18} {result['outcome']:<8}"
                        f" {result.get('extract_s', result.get('wall_s', 0)):7.2f}s"
                        f" {job.entry.relpath} ({job.variant})"
                    )

        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            for future in [pool.submit(one, job) for job in jobs]:
                future.result()
    return results


def load_average() -> float | None:
    """The 1-minute load average: how busy the machine was while a result was measured."""
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def load_raw(raw_path: Path) -> list[dict[str, Any]]:
    with raw_path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]
