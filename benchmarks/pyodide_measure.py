"""The measurements of ``benchmarks/pyodide_bench.mjs``, run unchanged under Pyodide and CPython.

    python benchmarks/pyodide_measure.py --repeat 3 FILE... > out.json

For each file and repeat, on a fresh :class:`~pdfthin.operations.Context` (empty cache):
``first_page_s``, the time until ``read_pages(pages="1")`` answers (what a user waits for after
dropping a file: the document's profile and the page);
``cached_page_s``, the same call again (served from the cache); ``all_pages_s``, reading every
page by following cursors afterwards. Medians are reported; ``per_page_ms`` is the first-page
time divided by the page count (the extraction cost per page).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from typing import Any

_started = time.perf_counter()
from pdfthin.operations import Context, read_pages  # noqa: E402

IMPORT_S = time.perf_counter() - _started


def measure_file(path: str, repeat: int) -> dict[str, Any]:
    with open(path, "rb") as fh:
        data = fh.read()
    first: list[float] = []
    cached: list[float] = []
    everything: list[float] = []
    pages = 0
    for _ in range(repeat):
        context = Context()
        t = time.perf_counter()
        response = read_pages(data, pages="1", context=context)
        first.append(time.perf_counter() - t)
        pages = response["document"]["page_count"]
        t = time.perf_counter()
        read_pages(data, pages="1", context=context)
        cached.append(time.perf_counter() - t)
        t = time.perf_counter()
        response = read_pages(data, max_chars=100_000, context=context)
        while response["next_cursor"]:
            response = read_pages(
                data, max_chars=100_000, cursor=response["next_cursor"], context=context
            )
        everything.append(time.perf_counter() - t)
    first_s = statistics.median(first)
    return {
        "pages": pages,
        "bytes": len(data),
        "first_page_s": round(first_s, 4),
        "per_page_ms": round(1000 * first_s / max(pages, 1), 2),
        "cached_page_s": round(statistics.median(cached), 5),
        "all_pages_s": round(statistics.median(everything), 4),
    }


def measure(paths: list[str], repeat: int) -> dict[str, Any]:
    import pypdf

    import pdfthin

    return {
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "pdfthin": pdfthin.__version__,
        "pypdf": pypdf.__version__,
        "import_s": round(IMPORT_S, 4),
        "files": {path: measure_file(path, repeat) for path in paths},
    }


if __name__ == "__main__":
    args = sys.argv[1:]
    count = 3
    if args[:1] == ["--repeat"]:
        count, args = int(args[1]), args[2:]
    print(json.dumps(measure(args, count)))
