"""The calls of the Pyodide parity test, run the same way under CPython and under Pyodide.

For each file of ``parity_cases.json``: open it through the browser bridge
(``pdfthin.adapters.browser``) and run describe, read, find, toc and images, each following
``next_cursor`` to the end. The result maps each file to its calls and the exact JSON text
the bridge answered, so the two interpreters' outputs can be compared byte for byte.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from pdfthin.adapters import browser as bridge


def plan(entry: dict[str, Any], budget: int) -> list[tuple[str, dict[str, Any]]]:
    """The calls for one file: every call follows its cursors."""
    password = {"password": entry["password"]} if entry.get("password") else {}
    query = entry["query"]
    return [
        ("describe", {**password}),
        ("read", {"max_chars": budget, **password}),
        ("find", {"query": query, "max_results": 25, "max_chars": budget, **password}),
        ("find", {"query": query, "match_mode": "any_words", "max_chars": budget, **password}),
        ("toc", {"max_chars": budget, **password}),
        ("images", {"max_chars": budget, **password}),
    ]


def run(cases_path: str, corpus: str) -> dict[str, Any]:
    # The same answers are compared under CPython and Pyodide: time limits far above either's
    # need on a loaded machine (a page left unread by the clock on one side only would
    # differ, and is not what this compares).
    bridge.set_limits(page_seconds=600, document_seconds=3_600)
    cases = json.loads(Path(cases_path).read_text(encoding="utf-8"))
    budget: int = cases["budget"]
    max_calls: int = cases["max_calls"]
    results: dict[str, Any] = {}
    for entry in cases["files"]:
        started = time.perf_counter()
        handle = bridge.open_document((Path(corpus) / entry["path"]).read_bytes())
        calls: list[dict[str, Any]] = []
        try:
            for operation, arguments in plan(entry, budget):
                args = dict(arguments)
                for _ in range(max_calls):
                    text = bridge.call(operation, handle, json.dumps(args))
                    calls.append({"op": operation, "args": dict(args), "response": text})
                    cursor = json.loads(text).get("next_cursor")
                    if not cursor:
                        break
                    args["cursor"] = cursor
        finally:
            bridge.close_document(handle)
        results[entry["path"]] = {
            "calls": calls,
            "seconds": round(time.perf_counter() - started, 3),
        }
    return results
