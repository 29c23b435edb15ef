"""What a one-page read imports, and what that costs.

    python -m benchmarks.import_cost [--src DIR ...] [--repeat 12] [--file PDF]

For each checkout given by ``--src`` (default: this one; a ``git worktree`` of another commit
compares the two), fresh processes run ``python -X importtime`` of a one-page read, on the
command line (``pdfthin read FILE --pages 1``) and through the Python API
(``read_pages(FILE, pages="1")``). Reported per checkout and way in: the median, over
``--repeat`` processes interleaved across checkouts (so that drifts in machine speed fall on
all of them), of the summed self time of every module imported, of pdfthin's own modules, and
the number of pdfthin modules loaded. The pure engine is used (``PDFTHIN_NATIVE=off``) and
bytecode may be cached, as in an installed package.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "examples" / "sample.pdf"

_API = (
    "from pdfthin.operations import Context, read_pages\n"
    "read_pages({!r}, pages='1', context=Context())"
)


def _probe(src: Path, argv: list[str]) -> tuple[float, float, int]:
    """(all modules' self time, pdfthin's, pdfthin modules loaded), in ms, of one process."""
    env = dict(os.environ, PYTHONPATH=str(src), PDFTHIN_NATIVE="off")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", *argv],
        env=env,
        cwd=str(src),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    total = own = 0
    modules = 0
    for line in proc.stderr.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) != 3 or not parts[0].strip().isdigit():
            continue  # the header line
        self_us, name = int(parts[0]), parts[2].strip()
        total += self_us
        if name == "pdfthin" or name.startswith("pdfthin."):
            own += self_us
            modules += 1
    return total / 1000, own / 1000, modules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path, action="append", help="a checkout (repeatable)")
    parser.add_argument("--repeat", type=int, default=12)
    parser.add_argument("--file", type=Path, default=SAMPLE)
    args = parser.parse_args(argv)
    sources = [s.resolve() for s in (args.src or [ROOT])]
    pdf = str(args.file.resolve())
    ways = {
        "cli": ["-m", "pdfthin", "read", pdf, "--pages", "1"],
        "api": ["-c", _API.format(pdf)],
    }
    for src in sources:  # a first run writes the bytecode the measured ones read
        for way in ways.values():
            _probe(src, way)
    samples: dict[tuple[Path, str], list[tuple[float, float, int]]] = {}
    for _ in range(args.repeat):
        for src in sources:
            for name, way in ways.items():
                samples.setdefault((src, name), []).append(_probe(src, way))
    print("| checkout | way in | all imports, ms | pdfthin's, ms | pdfthin modules |")
    print("|---|---|---:|---:|---:|")
    for (src, name), runs in samples.items():
        total = statistics.median(r[0] for r in runs)
        own = statistics.median(r[1] for r in runs)
        count = statistics.median(r[2] for r in runs)
        print(f"| {src} | {name} | {total:.1f} | {own:.1f} | {count:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
