"""CPU time per stage, pure Python against the native accelerator, in one process.

    python -m benchmarks.native_stages [--corpus ../shared/corpus] [--largest N]

Reads every readable corpus file (or the N largest by page count) with ``pdfthin.open`` twice,
first with pure Python, then natively, and splits the CPU time into the engine (reading pages:
content streams, fonts, the interpreter) and the rest (layout and the document model). Needs
``pdfthin-native`` installed.
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path
from typing import Any

import pdfthin
from pdfthin.engine import _native, document, open_pdf
from pdfthin.errors import PdfthinError

SKIP = {"malformed", "fuzzed", "bomb"}


def _files(corpus: Path) -> list[tuple[Path, str | None]]:
    passwords: dict[str, str | None] = {}
    if (corpus / "PASSWORDS.tsv").exists():
        with (corpus / "PASSWORDS.tsv").open(encoding="utf-8") as fh:
            for row in csv.DictReader(fh, delimiter="\t"):
                value = row["password"]
                passwords[row["relpath"]] = None if value.startswith("(empty") else value
    out = []
    with (corpus / "MANIFEST.tsv").open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            if not SKIP & set(row["tags"].split(",")):
                out.append((corpus / row["relpath"], passwords.get(row["relpath"])))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="../shared/corpus")
    parser.add_argument("--largest", type=int, help="only the N files with the most pages")
    args = parser.parse_args()
    module, reason = _native._load()
    if module is None:
        raise SystemExit(f"pdfthin-native is needed: {reason}")
    files = _files(Path(args.corpus))
    spent = {"engine": 0.0}
    read_page = document.EngineDocument.page

    def timed(self: Any, number: int) -> Any:
        start = time.process_time()
        try:
            return read_page(self, number)
        finally:
            spent["engine"] += time.process_time() - start

    document.EngineDocument.page = timed  # type: ignore[method-assign]
    if args.largest:
        sizes = []
        for path, password in files:
            try:
                sizes.append((open_pdf(path, password=password).page_count, path, password))
            except PdfthinError:
                continue
        files = [(p, pw) for _, p, pw in sorted(sizes, key=lambda s: -s[0])[: args.largest]]
    results = {}
    for label, chosen in (("pure", None), ("native", module)):
        _native.NATIVE = chosen
        spent["engine"] = 0.0
        total = 0.0
        pages = 0
        for path, password in files:
            start = time.process_time()
            try:
                pages += pdfthin.open(path, password=password).page_count
            except PdfthinError:
                pass
            total += time.process_time() - start
        results[label] = (total, spent["engine"])
        print(
            f"{label:6s}  {len(files)} files, {pages} pages: total {total:6.2f} s CPU = "
            f"engine {spent['engine']:6.2f} s + layout and model {total - spent['engine']:6.2f} s"
        )
    (pt, pe), (nt, ne) = results["pure"], results["native"]
    print(
        f"speed-up  total {pt / nt:.2f}x, engine {pe / ne:.2f}x, "
        f"layout and model {(pt - pe) / (nt - ne):.2f}x"
    )


if __name__ == "__main__":
    main()
