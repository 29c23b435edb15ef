"""CPU time of the pure content-stream lexer over every page stream of the corpus.

    python -m benchmarks.lexer_speed [--corpus ../shared/corpus] [--ref REF] [--repeat 3]

Decodes each page's content streams of every readable corpus file once (pypdf), then times
``iter_operations`` over all of them in one process: the working tree's lexer, and with
``--ref`` also the lexer as committed at that git ref (loaded from ``git show``), the same
streams in the same process, the best of ``--repeat`` passes each. Both must yield the same
operations; the output says whether they do.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from benchmarks import corpus
from pdfthin.engine.content import lexer

REPO = Path(__file__).resolve().parent.parent
SKIP = {"malformed", "fuzzed", "bomb"}

Lex = Callable[[bytes], Iterator[tuple[bytes, list[Any]]]]


def _streams(root: Path) -> list[bytes]:
    from pypdf import PdfReader

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    out = []
    for entry in corpus.load(root).entries:
        if SKIP & entry.tags:
            continue
        try:
            for page in PdfReader(str(root / entry.relpath)).pages:
                contents = page.get_contents()
                if contents is not None:
                    out.append(contents.get_data())
        except Exception:  # a file pypdf cannot read has no streams here
            continue
    return out


def _at_ref(ref: str) -> ModuleType:
    source = subprocess.run(
        ["git", "show", f"{ref}:pdfthin/engine/content/lexer.py"],
        cwd=REPO,
        check=True,
        capture_output=True,
    ).stdout
    with tempfile.NamedTemporaryFile(suffix=".py", delete=False) as fh:
        fh.write(source)
    spec = importlib.util.spec_from_file_location("lexer_at_ref", fh.name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _time(lex: Lex, streams: list[bytes], repeat: int) -> tuple[float, int]:
    best, count = float("inf"), 0
    for _ in range(repeat):
        start = time.process_time()
        count = sum(1 for data in streams for _ in lex(data))
        best = min(best, time.process_time() - start)
    return best, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(REPO.parent / "shared" / "corpus"))
    parser.add_argument("--ref", help="also time the lexer as committed at this git ref")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    streams = _streams(Path(args.corpus))
    size = sum(map(len, streams))
    print(f"{len(streams)} page streams, {size / 1e6:.1f} MB")
    seconds, count = _time(lexer.iter_operations, streams, args.repeat)
    print(f"working tree: {seconds:.2f} s CPU, {count} operations")
    if args.ref:
        old = _at_ref(args.ref)
        old_seconds, old_count = _time(old.iter_operations, streams, args.repeat)
        same = all(list(old.iter_operations(d)) == list(lexer.iter_operations(d)) for d in streams)
        print(f"{args.ref}: {old_seconds:.2f} s CPU, {old_count} operations")
        print(f"time: x{seconds / old_seconds:.2f}; the same operations: {'yes' if same else 'NO'}")
        if not same:
            sys.exit(1)


if __name__ == "__main__":
    main()
