"""How the cost of an answer grows with what a document holds.

    python -m benchmarks growth [--src DIR ...] [--only CASE ...] [--name growth]

Each case writes a document (``tests/pdfbuilder.py``, no corpus file) at a size ``n`` and at
``4 n`` and times one operation on each, CPU seconds in a fresh process: a cost that grows with
the document grows about 4 times, one that grows with its square about 16 times. With several
``--src`` (checkouts, such as ``git worktree`` of two commits) each case runs on each, in
order, so the two can be read side by side. Writes ``benchmarks/results/<name>.{json,md}``.

The cases are the shapes that once cost the square of their size: a bookmark per page of a
page tree listing every page under its root, a table of linked words, a tagged page whose one
element holds every marked piece, a tagged document whose parent tree lists every page in one
array, following ``find_in_document``'s cursors through a word on every line, and
``diff_documents`` of two versions whose long passages repeat a few words; and
``extract_schema``, whose cost is its fields times the pages' lines.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
RESULTS = HERE / "results"


@dataclass(frozen=True)
class Case:
    name: str
    what: str
    #: What ``n`` counts.
    unit: str
    n: int


CASES = (
    Case("bookmarks", "open: a bookmark per page, every page under the root", "pages", 1_000),
    Case("links", "read one page: a table of linked words", "links", 1_200),
    Case("marked ids", "read a tagged page: one element holds every marked piece", "ids", 2_000),
    Case("parent tree", "read every page: one /Nums array lists every page", "pages", 500),
    Case("find cursors", "follow find's cursors: a word on every line", "pages", 20),
    Case("diff repeats", "diff two versions: long passages of a few words", "pages", 15),
    Case("extract", "extract_schema: 100 fields over pages of labelled lines", "pages", 4),
)


# --- the documents (built in the measuring process, by this checkout's test builder) -------


def _bookmarks(n: int) -> bytes:
    from pdfbuilder import Outline, PdfBuilder

    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    for i in range(n):
        b.add_page(b"BT /F1 10 Tf 72 700 Td (page %d) Tj ET" % i, {"Font": {"F1": font}})
    b.set_outline([Outline(f"Entry {i}", dest=i) for i in range(n)])
    return b.build()


def _links(n: int) -> bytes:
    from pdfbuilder import PdfBuilder

    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    cols = 40
    parts, annots = [], []
    for i in range(n):
        row, col = divmod(i, cols)
        x, y = 10 + col * 14.5, 780 - row * 3.0
        parts.append(b"1 0 0 1 %.1f %.1f Tm (w%d) Tj" % (x, y, i % 97))
        link: dict[str, Any] = {"Type": "/Annot", "Subtype": "/Link"}
        link["Rect"] = [x, y - 0.4, x + 9, y + 2.2]
        link["A"] = {"S": "/URI", "URI": b"https://example.org/%d" % i}
        annots.append(b.add(link))
    page = b.add_page(b"BT /F1 2.5 Tf " + b" ".join(parts) + b" ET", {"Font": {"F1": font}})
    b.get(page)["Annots"] = annots
    return b.build()


def _marked_ids(n: int) -> bytes:
    from pdfbuilder import PdfBuilder, marked_text

    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    content = b"".join(
        marked_text(i, f"w{i}", 20 + (i % 25) * 23, 780 - (i // 25) * 6, 4) for i in range(n)
    )
    page = b.add_page(content, {"Font": {"F1": font}})
    b.set_structure_tree(page, ("Document", [("P", list(range(n)))]))
    return b.build()


def _parent_tree(n: int) -> bytes:
    from pdfbuilder import PdfBuilder, marked_text

    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    pages = [
        b.add_page(marked_text(0, f"page {i}", 72, 700, 10), {"Font": {"F1": font}})
        for i in range(n)
    ]
    b.tag_every_page(pages)
    return b.build()


def _lines(n: int, words: list[str], seed: int) -> bytes:
    """``n`` pages of 40 lines, each line 11 words drawn from ``words``."""
    import random

    from pdfbuilder import PdfBuilder

    rng = random.Random(seed)
    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    for _ in range(n):
        lines = [
            b"BT /F1 10 Tf 72 %d Td (%s) Tj ET"
            % (760 - k * 14, " ".join(rng.choice(words) for _ in range(11)).encode())
            for k in range(40)
        ]
        b.add_page(b" ".join(lines), {"Font": {"F1": font}})
    return b.build()


def _labelled(n: int) -> bytes:
    """``n`` pages of 60 lines "Field k: value number k"."""
    from pdfbuilder import PdfBuilder

    b = PdfBuilder()
    font = b.font_standard("Helvetica")
    for page in range(n):
        lines = [
            b"BT /F1 8 Tf 72 %d Td (Field %d: value number %d) Tj ET"
            % (760 - k * 12, 60 * page + k, k)
            for k in range(60)
        ]
        b.add_page(b" ".join(lines), {"Font": {"F1": font}})
    return b.build()


_PROSE = "the quick brown fox jumps over a lazy dog and runs into the field".split()


def _measure(case: str, n: int) -> tuple[float, str]:
    """CPU seconds of the case's operation on its document of size ``n`` (built first), and
    what the answer says where a budget may have cut it short."""
    import pdfthin
    from pdfthin.engine import open_pdf
    from pdfthin.operations import Context, diff_documents, extract_schema, find_in_document

    if case == "bookmarks":
        data = _bookmarks(n)
        return _cpu(lambda: pdfthin.open(data)), ""
    if case == "links":
        data = _links(n)
        return _cpu(lambda: pdfthin.open(data).page(1).markdown), ""
    if case in ("marked ids", "parent tree"):
        # The engine's reading of the pages, structure tree included (no layout).
        data = _marked_ids(n) if case == "marked ids" else _parent_tree(n)
        engine = open_pdf(data)
        pages: list[Any] = []
        seconds = _cpu(lambda: pages.extend(engine.page(k + 1) for k in range(engine.page_count)))
        cut = sum(1 for page in pages if page.structure is None or page.structure.problems)
        return seconds, f"tree cut on {cut} pages" if cut else "tree read"
    if case == "find cursors":
        data = _lines(n, _PROSE, 1)
        context = Context()
        find_in_document(data, "fox", context=context)  # the pages read: only paging is timed

        def follow() -> None:
            cursor = None
            while True:
                found = find_in_document(data, "fox", cursor=cursor, context=context)
                cursor = found["next_cursor"]
                if cursor is None:
                    return

        return _cpu(follow), ""
    if case == "diff repeats":
        few = ["spam", "eggs", "ham"]
        old, new = _lines(n, few, 1), _lines(n, few, 2)
        context = Context()
        for version in (old, new):  # the pages read first: only the comparison is timed
            [page.markdown for page in context.document(version).pages]
        return _cpu(lambda: diff_documents(old, new=new, context=context)), ""
    if case == "extract":
        data = _labelled(n)
        schema = {
            "type": "object",
            "properties": {f"field_{i}": {"type": "string"} for i in range(100)},
        }
        context = Context()
        [page.markdown for page in context.document(data).pages]  # read first: not timed
        return _cpu(lambda: extract_schema(data, schema=schema, context=context)), ""
    raise ValueError(f"no case {case!r}")


def _cpu(call: Callable[[], object]) -> float:
    started = time.process_time()
    call()
    return time.process_time() - started


def _child(case: str, n: int) -> None:
    # The documents come from this checkout's builder, whichever checkout is measured: every
    # one reads the same bytes.
    sys.path.insert(0, str(REPO / "tests"))
    seconds, note = _measure(case, n)
    print(json.dumps({"seconds": seconds, "note": note}))


def _run(src: Path, case: str, n: int) -> tuple[float, str] | None:
    """The case measured in a fresh process that imports pdfthin from ``src`` (this script
    runs there as a file, so nothing else of ``src`` is needed)."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, str(Path(__file__)), "--child", case, str(n)]
    done = subprocess.run(command, check=False, cwd=src, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        print(done.stderr[-2000:], file=sys.stderr)
        return None
    answer = json.loads(done.stdout.splitlines()[-1])
    return float(answer["seconds"]), str(answer["note"])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks growth")
    parser.add_argument("--src", action="append", help="a checkout to measure (default: this)")
    parser.add_argument("--only", action="append", help="a case's name (default: every case)")
    parser.add_argument("--name", default="growth")
    args = parser.parse_args(argv)
    sources = [Path(s).resolve() for s in (args.src or [str(REPO)])]
    cases = [c for c in CASES if not args.only or c.name in args.only]
    rows: list[dict[str, Any]] = []
    for case in cases:
        for src in sources:
            at_n, at_4n = _run(src, case.name, case.n), _run(src, case.name, 4 * case.n)
            small = at_n[0] if at_n else None
            large = at_4n[0] if at_4n else None
            growth = round(large / small, 1) if small and large is not None else None
            notes = " / ".join(dict.fromkeys(x[1] for x in (at_n, at_4n) if x and x[1]))
            row = {"case": case.name, "src": str(src), "n": case.n, "small": small}
            rows.append({**row, "large": large, "growth": growth, "note": notes})
            print(
                f"{case.name:14s} {src.name:12s} {small} {large} x{growth} {notes}", file=sys.stderr
            )
    meta = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "python": platform.python_version(),
        "cores": os.cpu_count(),
        "load": os.getloadavg()[0],
        "command": "python -m benchmarks growth " + " ".join(argv),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{args.name}.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=1))
    (RESULTS / f"{args.name}.md").write_text(_markdown(meta, rows, cases))
    print(_markdown(meta, rows, cases))
    return 0


def _markdown(meta: dict[str, Any], rows: list[dict[str, Any]], cases: list[Case]) -> str:
    what = {c.name: c for c in cases}
    out = [
        "# How the cost grows with the document",
        "",
        f"{meta['date']}, Python {meta['python']}, {meta['cores']} cores, load "
        f"{meta['load']:.1f}: `{meta['command'].strip()}`. CPU seconds of one operation on a "
        "generated document of size n and of size 4 n, each in a fresh process; growth 4 is "
        "linear, 16 the square.",
        "",
        "| case | what is timed | checkout | n | CPU s at n | at 4 n | growth | note |",
        "|---|---|---|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        case = what[row["case"]]
        small = "–" if row["small"] is None else f"{row['small']:.2f}"
        large = "–" if row["large"] is None else f"{row['large']:.2f}"
        growth = "–" if row["growth"] is None else f"{row['growth']:.1f}"
        out.append(
            f"| {case.name} | {case.what} | {Path(row['src']).name} | {row['n']:,} {case.unit} "
            f"| {small} | {large} | {growth} | {row['note']} |"
        )
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2], int(sys.argv[3]))
    else:
        raise SystemExit(main(sys.argv[1:]))
