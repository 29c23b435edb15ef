"""Run one hostile attack in this process, through every operation, and print one JSON line.

``python -m hostile.run NAME`` (from ``tests/``), with ``PDFTHIN_NATIVE`` set to
``off`` or ``require`` to choose the engine path. The parent (``tests/test_hostile.py``) caps
this process's address space and wall-clock time and reads the line::

    {"name": ..., "engine": ..., "seconds": ..., "cpu_seconds": ..., "peak_rss_mib": ...,
     "outcomes": {"describe_document": "ok" | "<error code>", ...},
     "shown": [...], "leaked": [...], "traceback": null | "..."}

``shown`` lists the attack's ``must_show`` strings that reached page text, ``leaked`` its
``must_not_show`` strings that did (Markdown of every page, or a search hit), ``withheld``
the number of hidden pieces ``read_pages`` reported.
"""

from __future__ import annotations

import json
import resource
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

#: Cursors followed per paginated operation before the child stops asking (a hostile
#: document may be long; the point is to exercise pagination, not to read it all).
MAX_CURSORS = 50


def _outcome(call: Callable[[], dict[str, Any]]) -> tuple[str, dict[str, Any] | None]:
    from pdfthin.errors import PdfthinError

    try:
        return "ok", call()
    except PdfthinError as exc:
        return exc.code, None


def run(name: str) -> dict[str, Any]:
    from hostile import get
    from pdfthin.engine import engine_info
    from pdfthin.operations import (
        Context,
        describe_document,
        find_in_document,
        get_annotations,
        get_form_fields,
        get_image,
        get_info,
        get_toc,
        inspect_layout,
        list_images,
        peek,
        read_pages,
        read_section,
    )

    spec = get(name)
    data = spec.build()
    context = Context()
    pw = spec.password
    outcomes: dict[str, str] = {}
    page_text: list[str] = []
    withheld = 0
    found: set[str] = set()

    def follow(op: str, first: Callable[[str | None], dict[str, Any]]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        cursor: str | None = None
        for _ in range(MAX_CURSORS):
            code, response = _outcome(lambda c=cursor: first(c))
            outcomes[op] = code
            if response is None:
                break
            out.append(response)
            cursor = response.get("next_cursor")
            if not cursor:
                break
        return out

    outcomes["describe_document"], _ = _outcome(
        lambda: describe_document(data, password=pw, context=context)
    )
    outcomes["get_info"], _ = _outcome(lambda: get_info(data, password=pw, context=context))
    for response in follow(
        "read_pages", lambda c: read_pages(data, cursor=c, password=pw, context=context)
    ):
        for page in response.get("pages", []):
            page_text.append(page.get("markdown", ""))
            withheld += int(page.get("hidden_text", {}).get("runs", 0))
    follow("get_toc", lambda c: get_toc(data, cursor=c, password=pw, context=context))
    for response in follow(
        "read_section", lambda c: read_section(data, cursor=c, password=pw, context=context)
    ):
        page_text.append(str(response.get("markdown", "")))
    outcomes["peek"], _ = _outcome(lambda: peek(data, password=pw, context=context))
    images = follow(
        "list_images", lambda c: list_images(data, cursor=c, password=pw, context=context)
    )
    ids = [i["id"] for r in images for i in r.get("images", [])][:5]
    for image_id in ids:
        code, _ = _outcome(lambda i=image_id: get_image(data, i, password=pw, context=context))
        if code != "ok" or "get_image" not in outcomes:
            outcomes["get_image"] = code
    follow(
        "get_form_fields",
        lambda c: get_form_fields(data, cursor=c, password=pw, context=context),
    )
    # What the layout inspection of page 1 shows: its runs' and blocks' text is page text too.
    code, inspected = _outcome(lambda: inspect_layout(data, page=1, password=pw, context=context))
    outcomes["inspect_layout"] = code
    if inspected is not None:
        shown = [*inspected["runs"], *inspected["blocks"], *inspected["furniture"]]
        page_text.append(" ".join(item["text"] for item in shown))
        page_text.append(inspected["svg"] or "")
    # The page text under links and markup is page text too; what the annotations say
    # (contents, authors) is not, and is not checked here.
    for response in follow(
        "get_annotations",
        lambda c: get_annotations(data, cursor=c, password=pw, context=context),
    ):
        page_text.extend(a.get("text", "") for a in response.get("annotations", []))
    for query in (*spec.must_show, *spec.must_not_show, "the"):
        code, hits = _outcome(
            lambda q=query: find_in_document(data, q, password=pw, context=context)
        )
        outcomes[f"find:{query[:20]}"] = code
        if hits and hits.get("matches"):
            found.add(query)
    joined = "\n".join(page_text)
    normal = " ".join(joined.split())
    return {
        "name": name,
        "engine": engine_info()["engine"],
        "outcomes": outcomes,
        "shown": [s for s in spec.must_show if s in normal or s in found],
        "leaked": [s for s in spec.must_not_show if s in normal or s in found],
        # Hidden text is withheld from page text but reported, with its reason.
        "withheld": withheld,
    }


def peak_kib() -> int:
    """This process's peak resident memory. Linux's ``ru_maxrss`` keeps the parent's peak
    across ``fork`` and ``exec`` (a child of a large pytest worker would report the worker's);
    ``VmHWM`` is this program's own."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def main(argv: list[str]) -> int:
    start, cpu_start = time.monotonic(), time.process_time()
    result: dict[str, Any] = {"name": argv[0], "traceback": None}
    try:
        result.update(run(argv[0]))
    except BaseException:  # the parent reports it; nothing may escape as a crash
        result["traceback"] = traceback.format_exc()
    result["seconds"] = round(time.monotonic() - start, 3)
    result["cpu_seconds"] = round(time.process_time() - cpu_start, 3)
    result["peak_rss_mib"] = round(peak_kib() / 1024, 1)
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
