"""``python -m benchmarks compare A B``: per source and per metric, before (A) and after (B).

A rule change is accepted only if the sources it was not tuned on do not get worse
(:data:`benchmarks.sources.TUNED_ON`). Both results files must come from runs of the same
engines over the same files (e.g. main's run, and the same run with pdfthin measured again
from a branch: see ``benchmarks/README.md``).
"""

from __future__ import annotations

from typing import Any

from benchmarks import sources as src

#: The fidelity metrics with per-source numbers: (key in the evaluation, label, higher is
#: better). All are shares or similarities in 0..1.
METRICS: tuple[tuple[str, str], ...] = (
    ("text", "text score"),
    ("agreement", "agreement with pypdfium2"),
    ("headings", "heading F1"),
    ("tables", "table F1"),
    ("row_kept", "row kept together"),
    ("text_tests", "text unit tests"),
)
#: A source "got worse" when its number dropped by more than this: below it, differences are
#: rounding and the odd file changing by a character.
TOLERANCE = 0.002


def _by_source(results: dict[str, Any], metric: str, engine: str) -> dict[str, Any]:
    section = results["evaluation"].get(metric) or {}
    row = section.get("engines", {}).get(engine) or {}
    by_source: dict[str, Any] = row.get("by_source") or {}
    return by_source


def compare(before: dict[str, Any], after: dict[str, Any], engine: str) -> list[dict[str, Any]]:
    """One row per metric and source present in either run."""
    rows: list[dict[str, Any]] = []
    for metric, label in METRICS:
        old, new = _by_source(before, metric, engine), _by_source(after, metric, engine)
        for source in sorted(set(old) | set(new)):
            a = (old.get(source) or {}).get("value")
            b = (new.get(source) or {}).get("value")
            worse = a is not None and (b is None or b < a - TOLERANCE)
            rows.append(
                {
                    "metric": label,
                    "source": source,
                    "role": src.role(metric, source),
                    "before": a,
                    "after": b,
                    "files": (new.get(source) or old.get(source) or {}).get("files"),
                    "worse": worse,
                }
            )
    return rows


def guard_changes(before: dict[str, Any], after: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Files newly on / newly off the plain-text guard list."""

    def files(results: dict[str, Any]) -> set[str]:
        guard = results["evaluation"].get("plain_text_guard") or {}
        return {f["file"] for f in guard.get("flagged", [])}

    a, b = files(before), files(after)
    return sorted(b - a), sorted(a - b)


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def render(
    before: dict[str, Any], after: dict[str, Any], engine: str, names: tuple[str, str]
) -> tuple[str, bool]:
    """The comparison as Markdown, and whether a held-out source got worse."""
    rows = compare(before, after, engine)
    out = [
        f"# {engine}: {names[0]} (before) vs {names[1]} (after)",
        "",
        f"A source is WORSE when it dropped by more than {TOLERANCE}; 'held out' sources are "
        "the ones the metric's rules were not developed on (benchmarks/sources.py).",
        "",
        "| metric | source | role | files | before | after | change | |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        change = (
            f"{r['after'] - r['before']:+.3f}"
            if r["before"] is not None and r["after"] is not None
            else "n/a"
        )
        out.append(
            f"| {r['metric']} | {r['source']} | {r['role']} | {r['files']} | "
            f"{_fmt(r['before'])} | {_fmt(r['after'])} | {change} | "
            f"{'**WORSE**' if r['worse'] else ''} |"
        )
    new, gone = guard_changes(before, after)
    out += [
        "",
        f"Plain-text guard: newly below both plain-text engines: {', '.join(new) or 'none'};"
        f" no longer: {', '.join(gone) or 'none'}.",
    ]
    held_out_worse = [r for r in rows if r["worse"] and r["role"] == "held out"]
    out += [
        "",
        f"{len([r for r in rows if r['worse']])} source(s) worse, {len(held_out_worse)} of them "
        "held out"
        + (
            ": " + ", ".join(f"{r['metric']} / {r['source']}" for r in held_out_worse)
            if held_out_worse
            else "."
        ),
    ]
    return "\n".join(out) + "\n", bool(held_out_worse) or bool(new)
