"""``pdfthin batch``: many documents into a folder or a JSON Lines file, on
:func:`pdfthin.batch.run_batch` (the command shapes its options and its output on stderr,
nothing more)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, TextIO

#: Some documents could not be read (each is in the summary with its error code); the others
#: were written. Distinct from 1, where the batch itself could not run.
EXIT_SOME_FAILED = 8

HELP = (
    "Read many PDFs (a folder, or @LIST) in worker processes into a folder of Markdown or "
    "chunks, or one JSON Lines file; a rerun resumes."
)
EPILOG = """SRC is a folder (every *.pdf under it, any case, in name order), @LIST (a file of
paths, one a line; # comments; relative to the list's folder; @- reads stdin) or one PDF.

outputs (--out):
  markdown  DIR/<name>.md, what `pdfthin read` prints, mirroring SRC's tree
  chunks    DIR/<name>.chunks.jsonl, what `pdfthin chunks --format jsonl` prints
  jsonl     FILE.jsonl: one record a document (its pages), the summary the last line
DIR also gets manifest.jsonl (what was done, to resume by) and summary.json. A rerun skips
each document already done from the same file (SHA-256) with the same options.

exit codes:
  0  every document was read (or was already done)
  8  some documents could not be read: each is in the summary with its error code
  1  the batch could not run (SRC not found, --out not writable)
  2  usage (a bad option; nothing was opened)
  3  --native require where the native accelerator cannot load"""


def add_parser(sub: Any) -> None:
    """The ``batch`` subcommand on ``sub`` (the command line's subparsers)."""
    p = sub.add_parser(
        "batch",
        help=HELP,
        description=HELP,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("src", metavar="SRC", help="a folder, @LIST (@- for stdin) or a PDF")
    p.add_argument(
        "--out",
        "-o",
        required=True,
        metavar="DIR|FILE.jsonl",
        help="the output folder (markdown, chunks) or file (jsonl) (required)",
    )
    p.add_argument(
        "--format",
        choices=("markdown", "chunks", "jsonl"),
        default="markdown",
        help="what to write (default: markdown)",
    )
    p.add_argument(
        "--jobs",
        "-j",
        type=int,
        metavar="N",
        help="worker processes (default: the machine's cores)",
    )
    p.add_argument("--pages", metavar="SPEC", help="these pages of every document (default: all)")
    p.add_argument(
        "--max-tokens",
        type=int,
        metavar="N",
        help="chunks: the size target of a chunk in tokens (default: get_chunks's)",
    )
    p.add_argument(
        "--no-stitch",
        dest="stitch",
        action="store_false",
        default=None,
        help="chunks: keep every chunk on one page (default: off)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        default=120.0,
        help="time limit of one document; past it the document is recorded as `timeout` "
        "and the batch goes on (default: 120)",
    )
    p.add_argument(
        "--password", metavar="PW", help="tried on every encrypted document (default: none)"
    )
    p.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="print nothing on stderr; the exit code and summary.json answer (default: a "
        "progress line on a terminal, else a line a document, then a summary)",
    )


def usage_error(args: argparse.Namespace) -> str | None:
    if args.jobs is not None and args.jobs < 1:
        return f"--jobs must be at least 1; got {args.jobs}"
    if not args.timeout > 0:
        return f"--timeout must be positive; got {args.timeout}"
    if args.format == "jsonl" and os.path.isdir(args.out):
        return f"--out {args.out} is a folder; --format jsonl writes one file"
    if args.format != "jsonl" and os.path.isfile(args.out):
        return f"--out {args.out} is a file; --format {args.format} writes a folder"
    from pdfthin.batch.run import check_options
    from pdfthin.errors import PdfthinError

    try:
        check_options(args.format, args.pages, args.max_tokens, args.timeout)
    except PdfthinError as exc:
        return exc.message.replace("max_tokens", "--max-tokens").replace("pages", "--pages", 1)
    return None


def run(args: argparse.Namespace) -> int:
    from pdfthin.batch import Options, run_batch, sources
    from pdfthin.errors import PdfthinError

    if getattr(args, "native", None):  # the workers are new processes: they read the switch
        os.environ["PDFTHIN_NATIVE"] = args.native
    try:
        found = sources(args.src)
        options = Options(
            args.format, args.pages, args.max_tokens, args.stitch, args.timeout, args.password
        )
        jobs = args.jobs or os.cpu_count() or 1
        batch = run_batch(found, args.out, options, jobs=jobs)
        progress = Progress(sys.stderr, len(found), quiet=args.quiet)
        for result in batch.results:
            progress.add(result)
        progress.end()
    except (PdfthinError, OSError) as exc:
        message = exc.message if isinstance(exc, PdfthinError) else str(exc)
        print(f"pdfthin batch: {message}", file=sys.stderr)
        return 1
    if not args.quiet:
        for line in batch.summary.lines():
            print(f"pdfthin batch: {line}", file=sys.stderr)
    return EXIT_SOME_FAILED if batch.summary.documents.get("failed") else 0


class Progress:
    """On a terminal, one line (documents done, documents/s, pages/s, ETA), rewritten as
    documents complete and erased at the end, so the terminal keeps only the summary; on a
    pipe, a plain line a document (what a log keeps); with ``quiet``, nothing."""

    def __init__(self, stream: TextIO, total: int, quiet: bool = False) -> None:
        self.stream = stream
        self.total = total
        self.quiet = quiet
        self.tty = stream.isatty()
        self.done = self.read = self.pages = 0
        self.width = 0
        self.started = time.monotonic()

    def add(self, result: object) -> None:
        from pdfthin.batch import DocumentResult

        assert isinstance(result, DocumentResult)
        self.done += 1
        if result.status != "skipped":
            self.read += 1
            self.pages += result.page_count
        if self.quiet:
            return
        if not self.tty:
            outcome = (
                f"failed: {result.error.code}: {result.error.message}"
                if result.error is not None
                else f"{result.status}, {result.page_count} page(s)"
            )
            self.stream.write(
                f"pdfthin batch: [{self.done}/{self.total}] {result.name}: {outcome}\n"
            )
            self.stream.flush()
            return
        self._show(self.line())

    def line(self) -> str:
        elapsed = max(time.monotonic() - self.started, 1e-6)
        rate = self.read / elapsed
        left = self.total - self.done
        eta = f"{left / rate:.0f} s" if rate > 0 else "?"
        return (
            f"pdfthin batch: {self.done}/{self.total} documents, {rate:.1f} documents/s, "
            f"{self.pages / elapsed:.1f} pages/s, ETA {eta}"
        )

    def _show(self, text: str) -> None:
        self.stream.write("\r" + text.ljust(self.width))
        self.stream.flush()
        self.width = max(self.width, len(text))

    def end(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0
