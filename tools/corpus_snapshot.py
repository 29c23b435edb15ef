"""Every corpus document's answers, as one JSON line a document, to compare two trees.

    python tools/corpus_snapshot.py OUT.jsonl [--corpus DIR]          # this tree, this engine
    python tools/corpus_snapshot.py --compare A.jsonl B.jsonl          # what differs

A line holds what an agent can be answered for the file: every page (status, reason code,
Markdown, text, hidden pieces with their reasons, problems), and ``describe_document``,
``get_info``, ``get_toc`` (every section) and ``list_images`` as the operations answer them,
fingerprints included. A refactoring that must not change behaviour leaves the file equal, byte
for byte, on each engine path (``PDFTHIN_NATIVE=off`` / ``require``).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
#: A budget large enough that no operation of the corpus is paginated by it.
BUDGET = 5_000_000


def _passwords(corpus: Path) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    path = corpus / "PASSWORDS.tsv"
    if path.exists():
        with path.open(encoding="utf-8") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                value = row["password"]
                out[row["relpath"]] = None if value.startswith("(empty") else value
    return out


def snapshot(path: Path, password: str | None) -> dict[str, Any]:
    import pdfthin
    from pdfthin.errors import PdfthinError
    from pdfthin.operations import Context, describe_document, get_info, get_toc, list_images

    out: dict[str, Any] = {}
    try:
        doc = pdfthin.open(path, password=password)
    except PdfthinError as exc:
        return {"error": exc.envelope()}
    out["pages"] = [
        {
            "page": p.number,
            "status": p.status,
            "reason_code": p.reason_code,
            "markdown": p.markdown,
            "text": p.text,
            "hidden": [[h["text"], h["reason"]] for h in p.hidden],
            "problems": list(p.problems),
        }
        for p in doc.pages
    ]
    context = Context()
    data = path.read_bytes()
    for name, call in (
        # The whole document's facts (full), as the pages above are the whole document's.
        (
            "describe_document",
            lambda: describe_document(data, full=True, password=password, context=context),
        ),
        ("get_info", lambda: get_info(data, full=True, password=password, context=context)),
        ("get_toc", lambda: get_toc(data, password=password, max_chars=BUDGET, context=context)),
        (
            "list_images",
            lambda: list_images(data, password=password, max_chars=BUDGET, context=context),
        ),
    ):
        try:
            answer = call()
        except PdfthinError as exc:
            answer = exc.envelope()
        # Which engine answered differs by design between the two paths.
        answer.get("capabilities", {}).pop("engine", None)
        out[name] = answer
    return out


def write(out: Path, corpus: Path) -> int:
    passwords = _passwords(corpus)
    with (corpus / "MANIFEST.tsv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    with out.open("w", encoding="utf-8") as sink:
        for row in rows:
            rel = row["relpath"]
            line = {"file": rel, **snapshot(corpus / rel, passwords.get(rel))}
            sink.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
    return 0


def compare(a: Path, b: Path) -> int:
    left = {json.loads(x)["file"]: x for x in a.read_text(encoding="utf-8").splitlines()}
    right = {json.loads(x)["file"]: x for x in b.read_text(encoding="utf-8").splitlines()}
    differ = sorted(f for f in left.keys() | right.keys() if left.get(f) != right.get(f))
    for name in differ:
        one = json.loads(left.get(name, "{}"))
        two = json.loads(right.get(name, "{}"))
        keys = sorted(k for k in one.keys() | two.keys() if one.get(k) != two.get(k))
        print(f"{name}: {', '.join(keys)}")
    print(f"{len(differ)} of {len(left.keys() | right.keys())} documents differ")
    return 1 if differ else 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.paths[:2])
    return write(args.paths[0], args.corpus)


if __name__ == "__main__":
    sys.setrecursionlimit(10_000)
    raise SystemExit(main(sys.argv[1:]))
