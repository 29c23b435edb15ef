"""The "what we promise under hostile input" table of docs/security.md, from a hostile run.

    PDFTHIN_HOSTILE_REPORT=/tmp/hostile.jsonl pytest tests/test_hostile.py
    python tools/hostile_table.py /tmp/hostile.jsonl

Each line of the report is one child process: one attack on one engine path (see
tests/hostile/run.py). The table gives, per attack class and engine path, how many attacks ran,
the slowest and the largest child (wall-clock seconds for every operation together, peak
resident memory), and what the operations answered.
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any


def table(lines: list[dict[str, Any]]) -> str:
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for line in lines:
        groups[(str(line["klass"]), "pure" if line["mode"] == "off" else "native")].append(line)
    out = [
        "| class | engine | attacks | slowest (s) | largest (MiB) | answers |",
        "|---|---|---:|---:|---:|---|",
    ]
    for (klass, engine), runs in sorted(groups.items()):
        answers: Counter[str] = Counter()
        for run in runs:
            for code in run.get("outcomes", {}).values():
                answers["result" if code == "ok" else str(code)] += 1
        shown = ", ".join(f"{code} {n}" for code, n in answers.most_common())
        slowest = max(float(r["seconds"]) for r in runs)
        largest = max(float(r["peak_rss_mib"]) for r in runs)
        out.append(
            f"| {klass} | {engine} | {len(runs)} | {slowest:.1f} | {largest:.0f} | {shown} |"
        )
    return "\n".join(out)


def main(argv: list[str]) -> int:
    lines = [json.loads(x) for x in Path(argv[0]).read_text().splitlines() if x.strip()]
    print(table(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
