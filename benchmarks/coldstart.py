"""What a new process pays: interpreter start, ``import`` time, first page; and disk footprint.

Every probe is a fresh ``python -c`` process timed from the parent (spawn to exit), run
``repeat`` times, interleaved across engines so that drifts in machine speed fall on all of
them; the median is reported. Probes run one at a time, never in parallel.
"""

from __future__ import annotations

import importlib.metadata as md
import importlib.util
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement

from benchmarks.engines import Engine
from benchmarks.source import Source

#: A one-page text file for the cold-start probe ("import + first page of a small file").
COLD_FILE = "pypdf/crazyones.pdf"


def _code(engine: Engine, path: str | None) -> str:
    lines = ["import benchmarks.extractors as x"]
    if engine.block:
        lines.append(f"x.block_modules({list(engine.block)!r})")
    lines.append(f"x.import_modules({list(engine.modules)!r})")
    if path is not None:
        lines.append(f"x.EXTRACTORS[{engine.name!r}]({path!r}, None)")
    return "; ".join(lines)


def _time(
    argv: list[str], source: Source, env: dict[str, str], limit_s: float = 120.0
) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one process from spawn to exit.

    Waits with a blocking ``wait4``: ``subprocess.run(timeout=...)`` polls with sleeps of up
    to 50 ms, which would quantise the measurement; ``wait4`` also gives the child's CPU time,
    which other load on the machine disturbs less than wall time.
    """
    started = time.perf_counter()
    proc = subprocess.Popen(
        argv,
        env=env,
        cwd=str(source.workdir),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    killer = threading.Timer(limit_s, proc.kill)
    killer.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        killer.cancel()
    elapsed = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"cold-start probe failed ({proc.returncode}): {argv[-1]}")
    return elapsed, usage.ru_utime + usage.ru_stime


def _importtime_us(module: str, source: Source, env: dict[str, str]) -> int | None:
    """Cumulative microseconds of ``import module`` from ``python -X importtime``."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"],
        check=False,
        env=env,
        cwd=str(source.workdir),
        capture_output=True,
        text=True,
        timeout=120,
    )
    for line in proc.stderr.splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 3 and parts[2] == module:
            cumulative = re.sub(r"\D", "", parts[1])
            return int(cumulative) if cumulative else None
    return None


def measure(
    engines: list[Engine],
    cold_file: Path,
    source: Source,
    repeat: int = 7,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Median wall and CPU times (ms) of bare start, import only, import + first page."""
    bare_env = source.env()
    python = [sys.executable, "-c"]
    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    importtime: list[int] = []

    def sample(key: str, code: str, env: dict[str, str]) -> None:
        w, c = _time([*python, code], source, env)
        wall.setdefault(key, []).append(w)
        cpu.setdefault(key, []).append(c)

    for round_ in range(repeat):
        sample("bare", "pass", bare_env)
        sample("import pdfthin", "import pdfthin", bare_env)
        us = _importtime_us("pdfthin", source, bare_env)
        if us is not None:
            importtime.append(us)
        for engine in engines:
            env = source.env(engine.env)
            sample(f"{engine.name}/import", _code(engine, None), env)
            sample(f"{engine.name}/cold", _code(engine, str(cold_file)), env)
        if progress:
            progress(f"cold start: round {round_ + 1}/{repeat} done")

    def ms(samples: dict[str, list[float]], key: str) -> float:
        return 1000 * statistics.median(samples[key])

    bare_ms = ms(wall, "bare")
    per_engine = {
        e.name: {
            "import_ms": ms(wall, f"{e.name}/import") - bare_ms,
            "cold_start_ms": ms(wall, f"{e.name}/cold"),
            "cold_start_net_ms": ms(wall, f"{e.name}/cold") - bare_ms,
            "cold_start_cpu_ms": ms(cpu, f"{e.name}/cold"),
        }
        for e in engines
    }
    return {
        "repeat": repeat,
        "file": COLD_FILE,
        "interpreter_start_ms": bare_ms,
        "interpreter_start_cpu_ms": ms(cpu, "bare"),
        "pdfthin_import_ms": ms(wall, "import pdfthin") - bare_ms,
        "pdfthin_import_cpu_ms": ms(cpu, "import pdfthin") - ms(cpu, "bare"),
        "pdfthin_importtime_ms": statistics.median(importtime) / 1000 if importtime else None,
        "engines": per_engine,
    }


# --- installed size ---------------------------------------------------------------------------


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _closure(roots: tuple[str, ...]) -> list[md.Distribution]:
    """The distributions ``roots`` need (no extras), found in this environment."""
    seen: dict[str, md.Distribution] = {}
    todo = list(roots)
    while todo:
        name = _canonical(todo.pop())
        if name in seen:
            continue
        try:
            dist = md.distribution(name)
        except md.PackageNotFoundError:
            continue
        seen[name] = dist
        for raw in dist.requires or []:
            req = Requirement(raw)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return list(seen.values())


def _dist_bytes(dist: md.Distribution) -> int:
    """Bytes on disk of a distribution's files, plus the bytecode of its modules."""
    total = 0
    counted: set[Path] = set()
    for file in dist.files or []:
        path = Path(str(dist.locate_file(file)))
        if path in counted or not path.is_file():
            continue
        if path.suffix == ".py":
            cache = path.parent / "__pycache__"
            for pyc in cache.glob(f"{path.stem}.*.pyc") if cache.is_dir() else []:
                if pyc not in counted:
                    counted.add(pyc)
                    total += pyc.stat().st_size
        counted.add(path)
        total += path.stat().st_size
    return total


def _package_dir_bytes(module: str) -> int | None:
    """Bytes of an importable package's directory (for editable installs, whose RECORD lists
    only a path hook)."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    total = 0
    for location in spec.submodule_search_locations:
        for path in Path(location).rglob("*"):
            if path.is_file() and path.suffix in {".py", ".pyc", ".pyi", ".typed", ".so", ".pyd"}:
                total += path.stat().st_size
    return total


def _editable(dist: md.Distribution) -> bool:
    return (
        any(str(f).startswith("__editable__") for f in dist.files or [])
        or (dist.read_text("direct_url.json") or "").find('"editable": true') >= 0
    )


def installed_size(engine: Engine) -> dict[str, Any]:
    dists = _closure(engine.dists)
    total = 0
    for dist in dists:
        name = _canonical(dist.metadata["Name"])
        own = _package_dir_bytes(name.replace("-", "_")) if _editable(dist) else None
        total += own if own is not None else _dist_bytes(dist)
    return {
        "bytes": total,
        "dists": sorted(f"{d.metadata['Name']}=={d.version}" for d in dists),
    }


def versions(engine: Engine) -> dict[str, str]:
    out: dict[str, str] = {}
    for name in engine.dists:
        try:
            out[name] = md.version(name)
        except md.PackageNotFoundError:
            out[name] = "not installed"
    return out
