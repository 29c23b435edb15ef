"""The ``pdfthin`` command line: a thin adapter over :mod:`pdfthin.operations`.

Exit codes: 0 success; 1 document error (one line on stderr; with ``--format json`` the error
envelope on stdout); 2 usage (checked before any document is opened); 3 ``--native require``
where the accelerator cannot load. ``find``: 0 found, 1 not found with complete coverage, 4 not
found while some pages in scope could not be searched (they need OCR), 5 document error.
``verify`` (the same codes where they mean the same): 0 exact or normalized, 1 not_found, 4
unverifiable, 5 document error, 6 fuzzy, 7 other_page. ``resolve``: 0 resolved, 6 stale.
``batch``: 0 every document read, 8 some could not be (each in the summary with its code), 1
the batch could not run (``pdfthin/adapters/batch_command.py``).
"""

from __future__ import annotations

import argparse
import base64
import functools
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TextIO

if TYPE_CHECKING:
    from pdfthin.operations import Operation

EXIT_OK = 0
EXIT_DOCUMENT = 1
EXIT_USAGE = 2
EXIT_NATIVE = 3
EXIT_NOT_FOUND_INCOMPLETE = 4
EXIT_FIND_ERROR = 5
#: ``verify``: a similar passage only (``fuzzy``); ``resolve``: the anchor is ``stale``.
EXIT_FUZZY = 6
EXIT_STALE = 6
#: ``verify``: found on another page than the one cited.
EXIT_OTHER_PAGE = 7
#: ``verify``'s answer -> its exit code (EXIT_DOCUMENT is 1, EXIT_NOT_FOUND_INCOMPLETE 4, as
#: for ``find``): CI checks a report's quotes by these.
VERIFY_EXITS = {
    "exact": EXIT_OK,
    "normalized": EXIT_OK,
    "not_found": EXIT_DOCUMENT,
    "unverifiable": EXIT_NOT_FOUND_INCOMPLETE,
    "fuzzy": EXIT_FUZZY,
    "other_page": EXIT_OTHER_PAGE,
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # usage errors: one line, exit 2
        self.print_usage(sys.stderr)
        print(f"pdfthin: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


#: What each command does, for --help.
_HELP = {
    "read": "Print pages as Markdown (the whole document unless --pages).",
    "find": "Search the document; exit 0 when found, 1 when not (see --help).",
    "describe": "Summarise the document: type, page statuses, metadata, token estimate.",
    "info": "Metadata, page sizes, version, encryption, forms, attachments, links, labels.",
    "toc": "The sections: from the outline, else from detected headings, with ids.",
    "section": "Print one section's Markdown (ids from `pdfthin toc`).",
    "peek": "A taste of a section or of the document.",
    "images": "List the images: ids, pages, boxes, pixel sizes, formats, sizes.",
    "image": "Write one image to a file (ids from `pdfthin images`).",
    "fields": "List the form fields: names, kinds, labels, values, pages, boxes.",
    "extract": "Fill a JSON Schema (--schema) from form fields, labels in the text and tables; "
    "print the data, where each value was found, and what was not.",
    "inspect": "What the layout decided on one page; -o writes it drawn as an SVG.",
    "chunks": "The document as chunks with page boxes, for retrieval; --format jsonl streams "
    "one chunk a line.",
    "annotations": "List the links (with where they go and their anchor text), comments, "
    "highlights, stamps, attachments and embedded files.",
    "verify": "Check that QUOTE stands in the document (on --page when given); the exit code "
    "answers (see --help).",
    "resolve": "The passage an anchor (from `pdfthin verify`) names; exit 6 when stale.",
    "cite": "Write an image of a passage on its page, highlighted (--bbox with --page, or "
    "--anchor); drawn by the rasterizer of --ocr MODULE.",
    "page-image": "Write a page (or --region of it) as an image: a scanned page's own picture, "
    "else drawn by the rasterizer of --ocr MODULE.",
    "transcribe": "Keep your transcription (--text) of a page that needs OCR (or of --region) "
    "in the cache directory PDFTHIN_OCR_CACHE_DIR, where later reads find it.",
    "ledger": "Which pages the `pdfthin read` cursors given (--cursors) delivered in full, in "
    "part, not at all, or could not read, and what to read next.",
    "diff": "Compare two versions of a PDF, OLD and NEW, passage by passage: added, removed, "
    "changed (words, table cells), moved; the exit code answers (see --help).",
}
#: What ``pdfthin find --help`` ends with: every exit code (also in docs/cli.md).
_FIND_EXITS = """exit codes:
  0  found (in at least one file)
  1  not found, and every page in scope was searched
  4  not found, but some pages could not be searched (they need OCR: --ocr MODULE)
  5  a document error (one line on stderr)
  2  usage (a bad option; nothing was opened)
  3  --native require where the native accelerator cannot load"""
#: What ``pdfthin verify --help`` ends with: every exit code (also in docs/cli.md).
_VERIFY_EXITS = """exit codes:
  0  exact or normalized: the quote stands there (as given, or once typography is normalised)
  6  fuzzy: only a similar passage stands there (printed with the words that differ)
  7  other_page: found, but not on the cited --page (the page is printed)
  1  not_found: every page was read, and the quote is not there
  4  unverifiable: the cited page, or a page, needs OCR or was read only in part
  5  a document error (one line on stderr)
  2  usage (a bad option or a malformed anchor; nothing was opened)
  3  --native require where the native accelerator cannot load"""
_RESOLVE_EXITS = """exit codes:
  0  the passage (text, page, offsets, boxes, breadcrumb)
  6  stale: the file is not the one the anchor was made on
  1  a document error, or a range the file never made (one line on stderr)
  2  usage (a malformed anchor; nothing was opened)
  3  --native require where the native accelerator cannot load"""
#: What ``pdfthin diff --help`` ends with: every exit code (also in docs/cli.md).
_DIFF_EXITS = """exit codes:
  0  identical: every page of both was read and their text is the same (whatever the bytes)
  1  differences: passages added, removed, changed or moved (also when some pages could not
     be compared: the output says which)
  4  no difference found, but some pages could not be compared (they need OCR, or were read
     only in part): not identical
  5  a document error (one line on stderr)
  2  usage (a bad option; nothing was opened)
  3  --native require where the native accelerator cannot load

Changes print as `diff -u` hunks per passage: `-` the old text, `+` the new, a changed
paragraph as its words with [-removed-]{+added+}, a changed table as its cells."""
_CITE_EXAMPLES = """examples:
  pdfthin cite report.pdf --page 3 --bbox 72,90,540,104 --ocr pdfthin.ocr.tesseract -o cite.png
  pdfthin cite report.pdf --page 3 --bbox 72,90,540,104 --bbox 72,106,310,120 -o - > cite.png
  pdfthin cite report.pdf --anchor 'pdfthin:<fingerprint>/p/3#c=340-415' -o cite.png

Boxes are in points on the page as displayed (origin top left), as `pdfthin verify --format
json`, `pdfthin chunks` and `pdfthin find --format json` give them. Without --ocr (a binding
whose rasterizer draws pages, e.g. pdfthin.ocr.tesseract with poppler's pdftoppm), the answer
is renderer_unavailable."""
_EPILOGS = {
    "find": _FIND_EXITS,
    "verify": _VERIFY_EXITS,
    "resolve": _RESOLVE_EXITS,
    "diff": _DIFF_EXITS,
    "cite": _CITE_EXAMPLES,
}
#: The --format choices of a command, its default first (else text or json).
_FORMATS = {
    "read": ("markdown", "json"),
    "section": ("markdown", "json"),
    "chunks": ("text", "jsonl", "json"),
}

_OCR_HELP = (
    "read pages that need OCR with this binding: a module name or .py file exporting an "
    "OcrBinding, e.g. pdfthin.ocr.tesseract (default: none; such pages are reported, not read)"
)
#: The API's words in help and messages, as the command line spells them.
_CLI_WORDS = (
    # A response's "more follows" message: the command line prints the cursor after it.
    ("; call again with next_cursor to continue", ""),
    ("retry with ocr=true if OCR is bound", "retry with --ocr MODULE"),
    ("find_in_document with ocr=true", "`pdfthin find --ocr MODULE`"),
    ("ocr=true", "--ocr MODULE"),
    ("call again with next_cursor", "continue with --cursor"),
    ("continues with next_cursor", "continues with --cursor"),
    ("next_cursor of the previous response", "the cursor printed by the previous run"),
    ("next_cursor", "--cursor"),
    ("list_images", "`pdfthin images`"),
    ("get_toc", "`pdfthin toc`"),
    ("read_pages", "`pdfthin read`"),
    ("max_chars", "--max-chars"),
    ("top_k", "--top-k"),
)
#: What an option defaults to on the command line where that is not what the API says (no
#: budget on the command line means "print it all": the cursors are followed).
_CLI_HELP: dict[str, str] = {
    "max_chars": "Budget of one response in characters (1000-5000000); the response and its "
    "cursor are printed. Default: no budget, everything is printed (the cursors are followed).",
    "max_pages": "At most this many pages per response; the response and its cursor are "
    "printed. Default: no limit, everything is printed.",
    "cursor": "Continue from the cursor a previous run printed (with the same file and "
    "options). Default: from the start.",
    "password": "Password of an encrypted PDF. Default: none.",
    "seed": "Makes position 'random' reproducible. Default: a new position each run.",
    "max_results": "At most this many matches in all (the cursors are followed; with "
    "--max-chars, in the one response printed). Default: every match.",
}


#: ``--max-chars`` of a command that answers once (no cursor to follow: search, ledger).
_ONE_ANSWER_MAX_CHARS = (
    "Budget of the answer in characters (1000-5000000): what does not fit is left out and "
    "named in it. Default: 40000."
)
#: An option whose meaning on one command is not the one ``_CLI_HELP`` gives: (command,
#: argument) -> help (``ledger`` answers once; it has no cursors to follow).
_COMMAND_HELP: dict[tuple[str, str], str] = {
    ("ledger", "max_chars"): "Budget of the answer in characters (1000-5000000); page lists "
    "are cut to fit, counts never. Default: 40000.",
}


def _cli_words(text: str) -> str:
    for api, cli in _CLI_WORDS:
        text = text.replace(api, cli)
    return text


def _parser() -> argparse.ArgumentParser:
    from pdfthin._version import __version__
    from pdfthin.operations import OPERATIONS

    parser = _Parser(
        prog="pdfthin",
        description="Read PDFs a piece at a time: pages as Markdown, search with page numbers.",
        epilog="FILE may be - to read the PDF from stdin. Exit codes: 0 success, 1 document "
        "error, 2 usage, 3 native accelerator unavailable (find, verify, batch: see their "
        "--help).",
    )
    parser.add_argument("--version", action="version", version=f"pdfthin {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    # A command per operation, in the order of _HELP (an operation it does not name yet comes
    # after, printing its answer as JSON): the operation's arguments, then the command's own.
    order = list(_HELP)
    for op in sorted(
        OPERATIONS, key=lambda o: order.index(o.command) if o.command in order else 99
    ):
        help_text = _HELP.get(op.command, op.title + ".")
        p = sub.add_parser(
            op.command,
            help=help_text,
            description=help_text,
            epilog=_EPILOGS.get(op.command),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        if op.command in _SEVERAL_FILES:
            p.add_argument(
                "file",
                metavar="FILE",
                nargs="+",
                help="the PDF(s) to read, one after the other (- reads one from stdin)",
            )
        elif op.command == "diff":
            p.add_argument("file", metavar="OLD", help="the older version (- reads it from stdin)")
        else:
            p.add_argument("file", metavar="FILE", help="the PDF to read (- reads it from stdin)")
        _add_params(p, op)
        formats = _FORMATS.get(op.command, ("text", "json"))
        p.add_argument(
            "--format",
            choices=formats,
            default=formats[0],
            help=f"what to print (default: {formats[0]})",
        )
        if op.command == "describe":
            p.add_argument(
                "--ocr", metavar="MODULE", help="report this OCR binding as bound (default: none)"
            )
        if op.command == "find":
            p.add_argument(
                "-q",
                "--quiet",
                action="store_true",
                help="print nothing; only the exit code answers (default: print the matches)",
            )
        if op.command == "image":
            p.add_argument(
                "--output",
                "-o",
                metavar="FILE",
                help="where to write it. The image is written in its own format "
                "(stored JPEG and JPEG 2000 as they are, others as PNG, TIFF or JBIG2): an "
                "extension naming another format (.png for a JPEG) is refused, exit 2; - "
                "writes the bytes to stdout (default: its base64 text on stdout, as the MCP "
                "tool answers it)",
            )
            p.add_argument(
                "-r",
                "--random",
                action="store_true",
                help="an image chosen at random in place of ID (not a decorative one; with "
                "-s/--section, --exclude, --seed) (default: off)",
            )
        if op.command == "cite":
            p.add_argument(
                "--output",
                "-o",
                metavar="FILE.png",
                help="where to write the image; - writes its bytes to stdout (default: its "
                "base64 text on stdout, as the MCP tool answers it)",
            )
            p.add_argument(
                "--ocr",
                metavar="MODULE",
                help="the OCR binding whose rasterizer draws the image: a module name or .py "
                "file, e.g. pdfthin.ocr.tesseract (default: none: renderer_unavailable)",
            )
        if op.command == "page-image":
            p.add_argument(
                "--output",
                "-o",
                metavar="FILE",
                help="where to write the image (PNG, or JPEG when the scan is one); - writes "
                "its bytes to stdout (default: its base64 text on stdout, as the MCP tool "
                "answers it)",
            )
            p.add_argument(
                "--ocr",
                metavar="MODULE",
                help="the OCR binding whose rasterizer draws a page that is not one scanned "
                "picture, e.g. pdfthin.ocr.tesseract (default: none: renderer_unavailable)",
            )
        if op.command == "inspect":
            p.add_argument(
                "--output",
                "-o",
                metavar="FILE.svg",
                help="write the page's SVG here (default: no file)",
            )

    serve = sub.add_parser(
        "serve",
        help="Run the read-only MCP server over the PDFs under ROOT (needs pdfthin[mcp]).",
        description="Run the read-only, sandboxed MCP server over the PDFs under ROOT: stdio "
        "by default, Streamable HTTP on a loopback address with --http.",
    )
    serve.add_argument("root", metavar="ROOT", help="the directory clients may read")
    serve.add_argument(
        "--ocr",
        metavar="MODULE",
        help="module or .py file exporting `binding`, e.g. pdfthin.ocr.tesseract (default: none)",
    )
    serve.add_argument(
        "--cache-size", type=int, default=2, metavar="N", help="documents kept (1-16, default 2)"
    )
    serve.add_argument(
        "--max-concurrent-extractions",
        type=int,
        default=2,
        metavar="N",
        help="documents extracted at once; one more is `busy` (default 2)",
    )
    serve.add_argument(
        "--max-concurrent-listings",
        type=int,
        default=4,
        metavar="N",
        help="list_documents calls at once; one more is `busy` (default 4)",
    )
    serve.add_argument(
        "--max-chars",
        type=int,
        metavar="N",
        help="default response budget (1000-5000000; default 40000)",
    )
    serve.add_argument(
        "--max-file-bytes", type=int, metavar="N", help="largest file read (default 512 MiB)"
    )
    serve.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="time limit of one document call; past it the call answers `timeout` and its "
        "work stops (default 120)",
    )
    serve.add_argument(
        "--max-bytes-in-flight",
        type=int,
        metavar="N",
        help="file bytes held in memory by all calls at once; past it a call waits, then is "
        "`busy` (default 1 GiB)",
    )
    serve.add_argument(
        "--http",
        metavar="HOST:PORT",
        help="Streamable HTTP on a loopback address (default: stdio)",
    )
    from pdfthin.adapters import batch_command

    batch_command.add_parser(sub)
    _native_option(parser, sub)
    return parser


_NATIVE_HELP = (
    "the native accelerator: auto (use it when it loads), require (exit 3 where it cannot "
    "load), off (pure Python); default: $PDFTHIN_NATIVE, else auto"
)


def _native_option(parser: argparse.ArgumentParser, sub: Any) -> None:
    """``--native`` before or after the command, for every command (``serve`` included)."""
    modes = ("auto", "require", "off")
    parser.add_argument("--native", choices=modes, help=_NATIVE_HELP)
    for command in sub.choices.values():
        command.add_argument(
            "--native", choices=modes, default=argparse.SUPPRESS, help=_NATIVE_HELP
        )


#: Where a command's flag is not ``--`` and the argument's name: (command, argument) -> flag.
#: An argument a command takes as a positional has its metavar here instead.
_FLAGS: dict[tuple[str, str], str] = {("find", "match_mode"): "--mode"}
#: Further spellings of a flag: (command, argument) -> flags (``--pages`` as read has it).
_ALIASES: dict[tuple[str, str], tuple[str, ...]] = {
    ("inspect", "page"): ("--pages",),
    ("image", "section"): ("-s",),
    ("images", "section"): ("-s",),
    ("peek", "position"): ("-p",),
    ("peek", "limit"): ("-l",),
}
_POSITIONAL: dict[tuple[str, str], str] = {
    ("find", "query"): "QUERY",
    ("search", "query"): "QUERY",
    ("section", "section"): "ID",
    ("peek", "section"): "ID",
    ("image", "image_id"): "ID",
    ("verify", "quote"): "QUOTE",
    ("resolve", "anchor"): "ANCHOR",
    ("diff", "new"): "NEW",
}
#: A flag that switches a default-true argument off: argument -> (flag, help).
_NEGATED = {
    "fold_accents": ("--keep-accents", "do not fold accents"),
    "stitch": ("--no-stitch", "keep every chunk on one page (no chunk across a page break)"),
    "svg": ("--no-svg", "leave the SVG out of the answer"),
}


def _add_params(parser: argparse.ArgumentParser, op: Operation) -> None:
    """The command's options, one per argument the registry declares for its operation: the
    same names (``--max-chars`` for ``max_chars``), choices and defaults. Values are checked
    by the operation itself, through the same declarations, so a bad one is the operation's
    ``invalid_argument`` (an integer too long to parse is argparse's usage error). An integer's
    default stays ``None`` on the command line: no budget asked for means "print it all"."""
    for param in op.params:
        key = (op.command, param.name)
        helps = _COMMAND_HELP.get(key) or _cli_help(param)
        answers_once = "cursor" not in (p.name for p in op.params)
        if param.name == "max_chars" and key not in _COMMAND_HELP and answers_once:
            helps = helps if "cursors" not in helps else _ONE_ANSWER_MAX_CHARS
        if key in _POSITIONAL:
            # ``image``'s ID may be left out for --random.
            optional = "?" if not param.required or key == ("image", "image_id") else None
            parser.add_argument(
                param.name,
                metavar=_POSITIONAL[key],
                nargs=optional,
                help=helps + (" Omit for the whole document." if not param.required else ""),
            )
        elif param.name == "ocr":  # the command line binds a provider, not a flag
            parser.add_argument("--ocr", metavar="MODULE", help=_OCR_HELP)
        elif param.name in _NEGATED:
            flag, negated_help = _NEGATED[param.name]
            parser.add_argument(
                flag,
                dest=param.name,
                action="store_false",
                help=f"{negated_help} (default: off)",
            )
        elif param.kind == "boolean":
            parser.add_argument(_flag(key), dest=param.name, action="store_true", help=helps)
        elif param.kind == "boxes":  # given again for each box
            parser.add_argument(
                _flag(key),
                dest=param.name,
                action="append",
                metavar="X0,Y0,X1,Y1",
                help=helps + " Repeat the option for each box.",
            )
        elif param.kind == "integer":
            flags = (_flag(key), *_ALIASES.get(key, ()))
            parser.add_argument(
                *flags,
                dest=param.name,
                type=int,
                metavar="N",
                required=param.required,
                help=helps + (" (required)" if param.required else ""),
            )
        else:
            parser.add_argument(
                _flag(key),
                *_ALIASES.get(key, ()),
                dest=param.name,
                choices=param.enum,
                default=param.default,
                help=helps,
            )


def _cli_help(param: Any) -> str:
    """The help of ``param`` on the command line: in its words, saying its default."""
    # Overrides are per argument name; another argument of that name keeps its own words.
    override = _CLI_HELP.get(param.name)
    helps = override if override and _same_words(param) else _cli_words(param.description)
    if param.required or "default" in helps.lower():
        return helps
    if param.kind == "boolean":
        return helps + " Default: off."
    if param.default is not None:
        return helps + f" Default: {param.default}."
    return helps + " Default: none."


def _same_words(param: Any) -> bool:
    """Whether ``param`` is the argument its name's help override was written for (``seed``
    is peek's position seed and get_image's choice seed)."""
    from pdfthin.operations import params

    return param is getattr(params, param.name.upper(), None)


def _flag(key: tuple[str, str]) -> str:
    return _FLAGS.get(key, "--" + key[1].replace("_", "-"))


def _arguments(op: Operation, args: argparse.Namespace, **given: Any) -> dict[str, Any]:
    """The keyword arguments of ``op`` from the command line (``given`` replaces some); the
    ``--ocr`` module becomes ``ocr=True`` (its binding is in the context)."""
    out = {p.name: _value(p, args) for p in op.params}
    if "ocr" in out:
        out["ocr"] = bool(out["ocr"])
    if getattr(args, "random", False):
        out["image_id"] = "random"
    out.update(given)
    return out


def _value(param: Any, args: argparse.Namespace) -> Any:
    """The value of ``param`` on the command line: a repeated option's values (boxes) joined
    into the one string the declaration takes."""
    value = getattr(args, param.name, None)
    if param.kind == "boxes" and isinstance(value, list):
        return ";".join(value)
    return value


def _usage_error(args: argparse.Namespace) -> str | None:
    """What is wrong with the options, checked against the registry's declarations before
    any document is opened (an out-of-range ``--max-chars`` is usage, exit 2), in the command
    line's names; ``None`` when nothing is."""
    from pdfthin.errors import PdfthinError
    from pdfthin.ocr.store import CACHE_DIR_ENV, ResultDir
    from pdfthin.operations.registry import BY_COMMAND

    if args.command == "batch":
        from pdfthin.adapters import batch_command

        return batch_command.usage_error(args)
    op = BY_COMMAND.get(args.command)
    if op is None:
        return None
    for param in op.params:
        value = _value(param, args)
        if value is None or param.name == "ocr":  # --ocr names a module, not a boolean
            continue
        try:
            param.check(value)
        except PdfthinError as exc:
            key = (op.command, param.name)
            name = _POSITIONAL.get(key) or _NEGATED.get(param.name, (_flag(key),))[0]
            return exc.message.replace(param.name, name, 1)
    files = getattr(args, "file", None)
    if isinstance(files, list) and len(files) > 1 and args.cursor is not None:
        return "--cursor continues one file's answer; give one FILE with it"
    if args.command == "transcribe" and ResultDir.from_env() is None:
        # Without a directory the transcription would end with the process: pointless.
        return (
            f"a transcription is kept only where later commands find it: set {CACHE_DIR_ENV} "
            "to a directory"
        )
    if (
        args.command in ("image", "cite", "page-image")
        and args.output == "-"
        and args.format == "json"
    ):
        return "--format json and -o - would both write to stdout; choose one"
    if args.command == "image" and args.random == (args.image_id is not None):
        return "give an image ID or --random, one of them"
    if args.command == "resolve":
        from pdfthin.operations.anchors import parse_anchor

        try:
            parse_anchor(args.anchor)
        except PdfthinError as exc:
            return exc.message
    return None


def _select_engine(args: argparse.Namespace) -> int | None:
    """Startup: choose the engine; a required accelerator that cannot load is one line on
    stderr and exit 3 (docs/design.md, invariant 10). A pypdf outside the tested range is a
    one-line warning, and the command goes on."""
    from pdfthin.operations.context import (
        NativeUnavailable,
        pypdf_warning,
        require_native,
        select_native,
    )

    if args.native is not None:
        select_native(args.native)
    try:
        require_native()
    except NativeUnavailable as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_NATIVE
    warning = pypdf_warning()
    if warning is not None:
        print(warning, file=sys.stderr)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    handler: Callable[[argparse.Namespace], int] = _COMMANDS.get(args.command, _cmd_json)
    refused = _usage_error(args)
    if refused is not None:
        print(f"pdfthin {args.command}: {refused}", file=sys.stderr)
        return EXIT_USAGE
    failed_native = _select_engine(args)
    if failed_native is not None:
        return failed_native
    files = args.file if isinstance(getattr(args, "file", None), list) else None
    try:
        if files is not None and len(files) > 1:
            return _several(handler, args, files)
        if files is not None:
            args.file = files[0]
        return handler(args)
    except _Failed as failed:
        return failed.code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    finally:
        _Progress.end_all()


# --- several files -------------------------------------------------------------------------

#: The commands that take several files, each answered in turn.
_SEVERAL_FILES = frozenset({"read", "find"})
#: The file being answered when a command was given several (its lines and messages name it).
_current_label = ""


def _label_prefix() -> str:
    return f"{_current_label}: " if _current_label else ""


def _say(text: str) -> None:
    """One line on stderr, naming the file when a command was given several."""
    print(f"pdfthin: {_label_prefix()}{text}", file=sys.stderr)


def _several(
    handler: Callable[[argparse.Namespace], int], args: argparse.Namespace, files: list[str]
) -> int:
    """Each file answered in turn, as if given alone. As text, ``read`` heads each file's
    pages with its name and ``find`` starts each match line with it; as JSON, one line a file:
    ``{"file", "exit_code", "answer"}`` (the answer, or the error envelope). A document error
    does not stop the files after it."""
    global _current_label
    codes: list[int] = []
    json_mode = args.format == "json"
    try:
        for name in files:
            one = argparse.Namespace(**vars(args))
            one.file = name
            _current_label = name
            if json_mode:
                import contextlib
                import io

                captured = io.StringIO()
                with contextlib.redirect_stdout(captured):
                    code = _answer(handler, one)
                text = captured.getvalue().strip()
                answer = json.loads(text) if text else None
                line = {"file": name, "exit_code": code, "answer": answer}
                print(json.dumps(line, ensure_ascii=False))
            else:
                if args.command == "read":
                    sys.stdout.write(
                        ("\n" if codes else "") + f"<!-- file: {_comment(name)} -->\n\n"
                    )
                code = _answer(handler, one)
            sys.stdout.flush()
            codes.append(code)
    finally:
        _current_label = ""
    return _combined(args.command, codes)


def _answer(handler: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    try:
        return handler(args)
    except _Failed as failed:
        return failed.code


def _comment(text: str) -> str:
    """``text`` inside an HTML comment: it cannot close it."""
    return text.replace("--", "- -")


def _combined(command: str, codes: list[int]) -> int:
    """The exit code of a command given several files. ``find``: found in one is found (0);
    else a file that could not be read (5), else a file not searched in full (4), else not
    found (1). Others: 0 when every file was answered, else the first failure's code."""
    if command == "find":
        if EXIT_OK in codes:
            return EXIT_OK
        for code in (EXIT_FIND_ERROR, EXIT_NOT_FOUND_INCOMPLETE):
            if code in codes:
                return code
        return max(codes)
    return next((code for code in codes if code != EXIT_OK), EXIT_OK)


# --- helpers ------------------------------------------------------------------------------


def _context(args: argparse.Namespace) -> Any:
    from pdfthin.operations import Context
    from pdfthin.operations.cursor import key_from_env

    try:
        key = key_from_env()
    except ValueError as exc:  # a configuration error: usage, one line
        print(f"pdfthin: {exc}", file=sys.stderr)
        raise _Failed(EXIT_USAGE) from None
    context = Context(cursor_key=key)
    if getattr(args, "file", None) == "-":
        args.file = _stdin_pdf(context.limits.max_file_bytes)
    if sys.stderr.isatty():
        progress = _Progress(sys.stderr)
        context.progress = progress
        context.ocr_progress = progress.ocr
    spec = getattr(args, "ocr", None)
    if spec:
        from pdfthin.ocr.loader import load_binding

        context.ocr = _run(args, lambda: load_binding(spec), getattr(args, "format", "") == "json")
    return context


def _stdin_pdf(limit: int) -> bytes:
    """The PDF piped in for ``FILE -``: at most one byte past ``limit`` is read (the engine
    refuses a document past it, as ``too_large``)."""
    if sys.stdin is None or sys.stdin.isatty():
        print("pdfthin: FILE is - but stdin is a terminal; pipe a PDF in", file=sys.stderr)
        raise _Failed(EXIT_USAGE)
    return sys.stdin.buffer.read(limit + 1)


class _Progress:
    """Progress on a terminal's stderr for work on more than one page that takes more than a
    second; nothing on pipes. The line is erased when the work is done (or the command ends),
    so what is left on the terminal is the command's output."""

    #: Seconds of work before the line shows: quicker work leaves the terminal alone.
    DELAY = 1.0

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.shown = False
        self.width = 0
        import time

        self._time = time.monotonic
        self.started = time.monotonic()

    #: Progress lines left open (shown, not erased yet): erased when the command ends.
    _open: ClassVar[list[_Progress]] = []

    def __call__(self, done: int, total: int) -> None:
        if done >= total:
            self.erase()
        elif total > 1 and self._time() - self.started >= self.DELAY:
            self.show(f"pdfthin: reading page {done}/{total}")

    def ocr(self, pages: list[int], total: int) -> None:
        """Each OCR batch is shown at once: one can take minutes."""
        from pdfthin.pages import format_pages

        self.show(f"pdfthin: OCR of page(s) {format_pages(pages)} of {total}")

    def show(self, text: str) -> None:
        self.stream.write("\r" + text.ljust(self.width))
        self.stream.flush()
        self.width = max(self.width, len(text))
        self.shown = True
        if self not in self._open:
            self._open.append(self)

    def erase(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0
        self._open[:] = [p for p in self._open if p is not self]

    @classmethod
    def end_all(cls) -> None:
        for progress in list(cls._open):
            progress.erase()
        cls._open.clear()


def _fail(exc: BaseException, json_mode: bool, code: int = EXIT_DOCUMENT) -> int:
    from pdfthin.operations import error_envelope

    envelope = error_envelope(exc)
    if json_mode:
        print(json.dumps(envelope, ensure_ascii=False))
    error = envelope["error"]
    message = _cli_words(error["message"])
    details = error.get("details", {})
    if error["code"] == "encrypted" and "password_given" in details:  # not AES lacking its module
        given = details["password_given"]
        message += "; check --password" if given else "; give it with --password PASSWORD"
    _say(f"{error['code']}: {message}")
    if error["code"] == "internal":  # the local user sees what the envelope leaves out
        _say(f"{type(exc).__name__}: {exc}")
    return code


def _run(args: argparse.Namespace, call: Callable[[], Any], json_mode: bool) -> Any:
    """Run an operation; document errors become (exit code, None)."""
    try:
        return call()
    except Exception as exc:  # every failure leaves as an envelope, never a traceback
        raise _Failed(_fail(exc, json_mode, _error_code(args))) from None


def _error_code(args: argparse.Namespace) -> int:
    return EXIT_FIND_ERROR if args.command in ("find", "verify", "diff") else EXIT_DOCUMENT


class _Failed(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


def _print_json(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False, indent=2))


# --- commands -----------------------------------------------------------------------------


def _operation(
    command: str, args: argparse.Namespace, context: Any
) -> Callable[..., dict[str, Any]]:
    """The call of the registry's operation ``command`` with the command line's arguments;
    keywords given to the call replace them (a cursor, for instance)."""
    from pdfthin.operations.registry import BY_COMMAND

    op = BY_COMMAND[command]

    def call(**given: Any) -> dict[str, Any]:
        return dict(op.handler(args.file, **_arguments(op, args, **given), context=context))

    return call


def _cmd_read(args: argparse.Namespace) -> int:
    context = _context(args)
    json_mode = args.format == "json"
    read = _operation("read", args, context)
    streamed = args.max_chars is None and args.max_pages is None and not json_mode
    if streamed and sys.stdout.isatty():
        context.progress = None  # the pages printed as they are read are the progress
    try:
        response = _run(args, read, json_mode)
        if args.max_chars is not None or args.max_pages is not None:
            if json_mode:
                _print_json(response)
            else:
                _print_markdown(response)
            return EXIT_OK
        # No budget asked for: follow the cursors and print the whole selection; as
        # Markdown, each page as soon as it is read whole (pages are read on demand, so the
        # first is on screen long before the last is read).
        responses = _following(args, read, response, json_mode)
        if json_mode:
            pages = [page for r in responses for page in r["pages"]]
            _print_json({"document": response["document"], "pages": _merge_parts(pages)})
        else:
            _stream_markdown(page for r in responses for page in r["pages"])
        return EXIT_OK
    except _Failed as failed:
        return failed.code


def _following(
    args: argparse.Namespace,
    call: Callable[..., dict[str, Any]],
    first: dict[str, Any],
    json_mode: bool,
) -> Iterator[dict[str, Any]]:
    """``first`` and every response after it, each asked for when the one before has been
    used, following the cursors to the end."""
    response = first
    yield response
    while token := response.get("next_cursor"):
        response = _run(args, functools.partial(call, cursor=token), json_mode)
        yield response


def _merge_parts(pages: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Join the parts of a page that was split across responses."""
    return list(_whole_pages(pages))


def _whole_pages(pages: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    from pdfthin.exports import whole_pages

    return whole_pages(pages)


def _page_chunk(page: Mapping[str, Any]) -> str:
    from pdfthin.exports import page_markdown

    return page_markdown(page)


def _print_markdown(response: dict[str, Any]) -> None:
    sys.stdout.write("\n\n".join(_page_chunk(page) for page in response["pages"]) + "\n")
    if response.get("next_cursor"):
        message = _cli_words((response.get("omitted") or {}).get("message", "more follows"))
        _say(f"{message}; --cursor {response['next_cursor']}")


def _stream_markdown(pages: Iterable[dict[str, Any]]) -> None:
    """What :func:`_print_markdown` prints for all of ``pages`` at once, written page by page."""
    separator = ""
    for page in _whole_pages(pages):
        sys.stdout.write(separator + _page_chunk(page))
        sys.stdout.flush()
        separator = "\n\n"
    sys.stdout.write("\n")


def _cmd_find(args: argparse.Namespace) -> int:
    """Without ``--max-chars``, follow the cursors (as ``read`` does) until ``--max-results``
    matches are printed or the document ends, so the exit code answers for the whole scope;
    with it, print one response and its cursor."""
    from pdfthin.operations.params import MAX_MAX_RESULTS

    context = _context(args)
    json_mode = args.format == "json"
    find = _operation("find", args, context)
    wanted = args.max_results
    try:
        if args.max_chars is not None:
            response = _run(args, find, json_mode)
        else:
            response = _find_all(args, find, wanted, MAX_MAX_RESULTS, json_mode)
    except _Failed as failed:
        return failed.code
    if args.quiet:
        pass
    elif json_mode:
        _print_json(response)
    else:
        for match in response["matches"]:
            print(f"{_label_prefix()}{_match_place(match)}: {match['snippet']}")
        coverage = response["coverage"]
        if not coverage["complete"]:
            _say(f"{_cli_words(coverage['message'])}")
        if response.get("next_cursor"):
            _say(f"more matches; --cursor {response['next_cursor']}")
    if response["matches"]:
        return EXIT_OK
    return EXIT_DOCUMENT if response["coverage"]["complete"] else EXIT_NOT_FOUND_INCOMPLETE


def _match_place(match: dict[str, Any]) -> str:
    """Where a match stands, as the text output names it: its page, the region the agent
    transcribed when it is in one, and who read text that is not the page's own (OCR)."""
    place = f"page {match['page']}"
    region = match.get("region")
    if region is not None:
        place += " region {x0:g},{y0:g},{x1:g},{y1:g}".format(**region)
    if match.get("provenance"):
        place += f" [ocr: {match['provenance']}]"
    return place


def _find_all(
    args: argparse.Namespace,
    find: Callable[..., dict[str, Any]],
    wanted: int | None,
    per_call: int,
    json_mode: bool,
) -> dict[str, Any]:
    """Every match (at most ``wanted``) in one answer: each call asks for what is still
    wanted, and the last call's coverage (a cursor carries what earlier calls covered) and
    cursor (set when ``wanted`` stopped the walk) stand for all."""
    matches: list[dict[str, Any]] = []
    cursor = args.cursor
    while True:
        ask = per_call if wanted is None else min(per_call, wanted - len(matches))
        call = functools.partial(find, cursor=cursor, max_results=ask)
        response: dict[str, Any] = _run(args, call, json_mode)
        matches.extend(response["matches"])
        cursor = response.get("next_cursor")
        if cursor is None or (wanted is not None and len(matches) >= wanted):
            break
    response = {**response, "matches": matches}
    if cursor is None:
        response.pop("more", None)
    return response


def _cmd_verify(args: argparse.Namespace) -> int:
    """The answer as a few lines (or JSON); the exit code says which (:data:`VERIFY_EXITS`)."""
    return _simple(args, _verify_text, lambda r: VERIFY_EXITS[r["result"]])


def _verify_text(response: dict[str, Any]) -> str:
    lines = [f"{response['result']}: {response['message']}"]
    match = response.get("match")
    if match is not None:
        lines.append(_passage_lines(match))
        for difference in match.get("differences", []):
            quote = _quoted(difference["quote"])
            theirs = _quoted(" ".join(difference["document"].split()))
            lines.append(f"  quote {quote} / document {theirs}")
    # Why it could not be told, on stderr.
    if response["result"] == "unverifiable":
        _say(_cli_words(response["coverage"].get("message", "")))
    if response.get("note"):
        _say(response["note"])
    return "\n".join(lines)


def _cmd_diff(args: argparse.Namespace) -> int:
    """The changes as ``diff -u``-like hunks, one per passage (or JSON); without
    ``--max-chars`` every change, following the cursors. The exit code: :data:`_DIFF_EXITS`."""
    context = _context(args)
    json_mode = args.format == "json"
    diff = _operation("diff", args, context)
    try:
        response = _run(args, diff, json_mode)
        if args.max_chars is None:
            changes = [c for r in _following(args, diff, response, json_mode) for c in r["changes"]]
            response = {**response, "changes": changes, "next_cursor": None}
    except _Failed as failed:
        return failed.code
    if json_mode:
        _print_json(response)
    else:
        _print_diff(response)
    counts = response["counts"]
    if any(counts[kind] for kind in ("added", "removed", "changed", "moved")):
        return EXIT_DOCUMENT
    return EXIT_OK if response["identical"] else EXIT_NOT_FOUND_INCOMPLETE


def _where(place: Mapping[str, Any] | None) -> str:
    if place is None:
        return "-"
    return f"page {place['pages']} ({place['chunk_id']})"


def _print_diff(response: Mapping[str, Any]) -> None:
    old, new = response["document"], response["new"]
    print(f"--- {old['fingerprint'][:16]} ({old['page_count']} pages)")
    print(f"+++ {new['fingerprint'][:16]} ({new['page_count']} pages)")
    for change in response["changes"]:
        kind = change["kind"].replace("_", " ")
        place = change["new"] or change["old"]
        trail = " > ".join(place["breadcrumb"]) if place else ""
        print(
            f"@@ {kind}: {_where(change['old'])} -> {_where(change['new'])}"
            + (f"  [{trail}]" if trail else "")
            + " @@"
        )
        if change["kind"] == "removed":
            print(_prefixed("-", change["text"]))
        elif change["kind"] == "added":
            print(_prefixed("+", change["text"]))
        elif change["kind"] == "moved":
            print(_prefixed(" ", change["text"]))
        elif change["kind"] == "not_compared":
            print(f"  {_cli_words(change['reason'])}")
        elif "diff" in change:
            print(_prefixed("~", change["diff"]))
        else:
            for cell in change.get("cells", []):
                row = cell["new_row"] if cell["new_row"] is not None else cell["old_row"]
                header = f" ({cell['header']})" if cell["header"] else ""
                print(
                    f"~ row {row}, column {cell['column']}{header}: "
                    f"{cell['old'] if cell['old'] is not None else '(none)'} -> "
                    f"{cell['new'] if cell['new'] is not None else '(none)'}"
                )
    counts = response["counts"]
    said = ", ".join(f"{counts[k]} {k.replace('_', ' ')}" for k in counts if counts[k])
    print("identical" if response["identical"] else said or "no differences")
    if not response["complete"]:
        _say("some pages could not be compared (they need OCR, or were read only in part)")
    if response.get("next_cursor"):
        _say(f"more changes; --cursor {response['next_cursor']}")


def _prefixed(mark: str, text: str) -> str:
    return "\n".join(f"{mark} {line}" for line in text.splitlines() or [""])


def _passage_lines(passage: Mapping[str, Any]) -> str:
    """A passage's place, text and anchor, as ``verify`` and ``resolve`` print them."""
    pages = f"{passage['page']}" + (f"-{passage['end_page']}" if "end_page" in passage else "")
    where = f"  page {pages}, characters {passage['start']}-{passage['end']}"
    if "similarity" in passage:
        where += f", similarity {passage['similarity']}"
    text = " ".join(passage["text"].split())
    return f"{where}: {_quoted(text)}\n  {passage['anchor']}"


def _cmd_resolve(args: argparse.Namespace) -> int:
    return _simple(args, _resolve_text, lambda r: EXIT_STALE if r["status"] == "stale" else EXIT_OK)


def _resolve_text(response: dict[str, Any]) -> str:
    if response["status"] == "stale":
        return f"stale: {response['message']}"
    crumbs = " > ".join(response.get("breadcrumb", []))
    head = f"{response['message']}" + (f" (in {crumbs})" if crumbs else "")
    return f"{head}\n{_passage_lines(response)}"


def _cmd_ledger(args: argparse.Namespace) -> int:
    return _simple(args, _ledger_text)


def _ledger_text(r: dict[str, Any]) -> str:
    """The summary, then each list of the ledger on a line (page lists as the API cuts them)."""
    ledger = r["ledger"]
    counts = ledger["counts"]
    lines = [_cli_words(r["summary"])]
    lines.append(f"delivered: {counts['delivered']} ({ledger['delivered'] or 'none'})")
    for part in ledger.get("partial", []):
        total = f" of {part['total']}" if "total" in part else ""
        lines.append(f"partial: page {part['page']}, characters 0-{part['end']}{total}")
    lines.append(f"not delivered: {counts['not_delivered']} ({ledger['not_delivered'] or 'none'})")
    for code, pages in ledger.get("unreadable", {}).items():
        lines.append(f"unreadable ({code}): {pages}")
    if not ledger["exact"]:
        lines.append(f"! {ledger.get('note', 'the ledger is not exact')}")
    if "next_pages" in r:
        lines.append(f"next: pdfthin read FILE --pages {r['next_pages']}")
    if "resume_cursor" in r:
        lines.append(f"or continue: --cursor {r['resume_cursor']}")
    return "\n".join(lines)


def _cmd_describe(args: argparse.Namespace) -> int:
    return _simple(args, _describe_text)


def _cmd_info(args: argparse.Namespace) -> int:
    return _simple(args, _info_text)


def _cmd_toc(args: argparse.Namespace) -> int:
    return _simple(args, _toc_text)


def _cmd_section(args: argparse.Namespace) -> int:
    if args.section is None:  # the whole document: the same as `read`
        args.pages = args.max_pages = None
        args.format = "json" if args.format == "json" else "markdown"
        return _cmd_read(args)
    context = _context(args)
    json_mode = args.format == "json"
    read_section = _operation("section", args, context)
    try:
        response = _run(args, read_section, json_mode)
        if args.max_chars is None:
            parts = list(_following(args, read_section, response, json_mode))
            response = parts[-1]
            response["markdown"] = "".join(part["markdown"] for part in parts)
            response.pop("part", None)
            response.pop("omitted", None)
    except _Failed as failed:
        return failed.code
    if json_mode:
        _print_json(response)
    else:
        info = response["section"]
        # Titles from the outline are the file's bookmarks, not page text: said so, and kept
        # from closing the comment they are printed in.
        crumbs = " > ".join([*info["breadcrumb"], info["title"]]).replace("--", "- -")
        source = info["title_source"]
        gaps = _unreadable_note(response, "; ")
        print(f"<!-- {info['id']} ({source}): {crumbs} (pages {info['pages']}{gaps}) -->\n")
        print(response["markdown"])
        if response.get("next_cursor"):
            print(f"pdfthin: more follows; --cursor {response['next_cursor']}", file=sys.stderr)
    return EXIT_OK


def _cmd_peek(args: argparse.Namespace) -> int:
    def as_text(r: dict[str, Any]) -> str:
        where = f"page {r['page']}, characters {r['start']}-{r['end']} of {r['scope']['chars']}"
        return f"<!-- {r['position']}: {where}{_unreadable_note(r, '; ')} -->\n{r['text']}"

    return _simple(args, as_text)


def _simple(
    args: argparse.Namespace,
    as_text: Callable[[dict[str, Any]], str],
    exit_code: Callable[[dict[str, Any]], int] = lambda _: EXIT_OK,
) -> int:
    """A command that prints one response: as JSON, or as ``as_text`` renders it; the exit
    code is ``exit_code``'s for the response."""
    context = _context(args)
    json_mode = args.format == "json"
    try:
        response = _run(args, _operation(args.command, args, context), json_mode)
    except _Failed as failed:
        return failed.code
    if json_mode:
        _print_json(response)
    else:
        print(as_text(response))
    return exit_code(response)


def _cmd_json(args: argparse.Namespace) -> int:
    """An operation without a command of its own: its answer, as JSON (also with --format
    text)."""
    return _simple(args, lambda r: json.dumps(r, ensure_ascii=False, indent=2))


def _unreadable_note(r: dict[str, Any], lead: str = "") -> str:
    """What ``r['unreadable']`` says, in one line: the pages not read, and why."""
    report = r.get("unreadable")
    if not report:
        return ""
    reasons = "; ".join(f"{code}: {pages}" for code, pages in report["reasons"].items())
    return f"{lead}not read: {report['pages']} ({reasons})"


def _describe_text(r: dict[str, Any]) -> str:
    lines = [
        f"pages: {r['document']['page_count']}  type: {r['type']}",
        "status: " + "  ".join(f"{k}={v}" for k, v in r["pages"].items() if isinstance(v, str)),
    ]
    for key, value in r["metadata"].items():
        lines.append(f"metadata {key}: {value}")  # the file's metadata, not page text
    lines.append(f"outline: {'yes' if r['has_outline'] else 'no'}")
    lines.append(f"estimated tokens: {r['estimated_tokens']['total']}")
    lines.extend(_read_so_far(r))
    if "hidden_text" in r:
        lines.append(f"hidden text withheld: {r['hidden_text']['runs']} runs")
    if r.get("unreadable"):
        lines.append(_unreadable_note(r))
    lines.extend(f"! {problem}" for problem in r.get("problems", []))
    return "\n".join(lines)


def _read_so_far(r: dict[str, Any]) -> list[str]:
    """The line saying which pages an overview's page facts come from, unless all."""
    read = r["read"]
    if read["complete"]:
        return []
    total = r["document"]["page_count"]
    return [f"read so far: {read['count']} of {total} pages ({read['pages']}); --full reads all"]


def _info_text(r: dict[str, Any]) -> str:
    lines = [f"pages: {r['document']['page_count']}", f"sha256: {r['document']['fingerprint']}"]
    for key, value in r["metadata"].items():
        lines.append(f"metadata {key}: {value}")  # the file's metadata, not page text
    for size in r["page_sizes"]:
        lines.append(
            f"pages {size['pages']}: {size['width']} x {size['height']} pt, "
            f"rotation {size['rotation']}"
        )
    forms = r["forms"]
    lines.append(f"form fields: {forms['fields']}{' (XFA)' if forms['xfa'] else ''}")
    lines.append(f"attachments: {', '.join(r['attachments']) or 'none'}")
    lines.append(
        f"links: {r['links']}  images: {r['images']}  outline entries: {r['outline_entries']}"
    )
    lines.extend(_read_so_far(r))
    if r.get("page_labels"):
        lines.append(f"page labels: {', '.join(map(str, r['page_labels'][:20]))}")
    if r.get("unreadable"):
        lines.append(_unreadable_note(r))
    lines.extend(f"! {problem}" for problem in r.get("problems", []))
    return "\n".join(lines)


def _toc_text(r: dict[str, Any]) -> str:
    lines = [f"(from the {r['source']})"] if r["sections"] else []
    for entry in r["sections"]:
        page = entry["page"] if entry["page"] is not None else "?"
        indent = "  " * (entry["depth"] - 1)
        gaps = f"  [not read: {entry['unreadable']}]" if entry.get("unreadable") else ""
        lines.append(f"{entry['id']:>8}  {indent}{entry['title']}  .... {page}{gaps}")
    for problem in r.get("problems", []):
        lines.append(f"! {problem}")
    if r.get("next_cursor"):
        lines.append(f"(more sections: --cursor {r['next_cursor']})")
    if not lines:
        lines.append("(no outline and no headings found)")
    if r.get("unreadable"):
        # Headings on these pages could not be looked for.
        lines.append(f"! {_unreadable_note(r)}")
    return "\n".join(lines)


def _listing(
    args: argparse.Namespace, command: str, keys: tuple[str, ...], empty: str
) -> tuple[int, dict[str, Any] | None]:
    """Run a listing command (``images``, ``annotations``, ``fields``): without a budget the
    cursors are followed and the lists under ``keys`` joined, so every entry is printed;
    ``--format json`` prints the answer. ``(exit code, the answer for the text lines)``, the
    answer ``None`` when nothing is left to print. The notes a listing answers with (``note``,
    ``problems``, ``unreadable``, the cursor) go to stderr after the lines."""
    context = _context(args)
    json_mode = args.format == "json"
    operation = _operation(command, args, context)
    try:
        response = _run(args, operation, json_mode)
        if args.max_chars is None:
            # No budget asked for: follow the cursors and print every entry.
            parts = list(_following(args, operation, response, json_mode))
            joined = {key: [item for part in parts for item in part[key]] for key in keys}
            response = {**parts[-1], **joined, "next_cursor": None}
            response.pop("omitted", None)
    except _Failed as failed:
        return failed.code, None
    if json_mode:
        _print_json(response)
        return EXIT_OK, None
    if not any(response[key] for key in keys):
        print(empty)
    return EXIT_OK, response


def _listing_notes(response: dict[str, Any]) -> None:
    """A listing's notes, problems, unreadable pages and cursor, on stderr."""
    if response.get("note"):
        print(f"pdfthin: {response['note']}", file=sys.stderr)
    for problem in response.get("problems", []):
        print(f"pdfthin: {problem}", file=sys.stderr)
    if response.get("unreadable"):
        print(f"pdfthin: {response['unreadable']['message']}", file=sys.stderr)
    if response.get("next_cursor"):
        message = _cli_words((response.get("omitted") or {}).get("message", "more follows"))
        print(f"pdfthin: {message}; --cursor {response['next_cursor']}", file=sys.stderr)


def _cmd_images(args: argparse.Namespace) -> int:
    code, response = _listing(args, "images", ("images",), "(no images)")
    if response is not None:
        for item in response["images"]:
            print(_image_line(item))
        _listing_notes(response)
    return code


def _cmd_annotations(args: argparse.Namespace) -> int:
    keys = ("annotations", "embedded_files")
    code, response = _listing(args, "annotations", keys, "(no annotations)")
    if response is not None:
        for item in response["annotations"]:
            print(_annotation_line(item))
        for item in response["embedded_files"]:
            line = f"embedded file {_quoted(item['name'])}"
            if "size" in item:
                line += f"  {item['size']} bytes"
            if "description" in item:
                line += f"  description {_quoted(item['description'])}"
            print(line)
        _listing_notes(response)
    return code


def _quoted(text: str) -> str:
    """Text written into the file by whoever annotated it, quoted as JSON: one line, its
    control characters escaped, never mistaken for pdfthin's own words."""
    return json.dumps(text, ensure_ascii=False)


def _annotation_line(item: Mapping[str, Any]) -> str:
    """An annotation in the text listing: id, page, kind, the page text under it, where a
    link goes, then what the annotator wrote (quoted)."""
    kind = f"other ({item['subtype']})" if "subtype" in item else item["kind"]
    parts = [item["id"], f"page {item['page']}", kind]
    if "text" in item:
        parts.append(f"on {_quoted(item['text'])}")
    if "uri" in item:
        parts.append(f"-> {_quoted(item['uri'])}")
    elif "target_page" in item:
        parts.append(f"-> page {item['target_page']}")
    elif "named" in item:
        parts.append(f"-> {item['named']}")
    elif item.get("action") and item["kind"] == "link":
        parts.append(f"-> {item['action']}")
    if "file" in item:
        size = f" ({item['file_size']} bytes)" if "file_size" in item else ""
        parts.append(f"file {_quoted(item['file'])}{size}")
    if "icon" in item:
        parts.append(f"icon {item['icon']}")
    if "author" in item:
        parts.append(f"by {_quoted(item['author'])}")
    if "modified" in item:
        parts.append(f"at {item['modified']}")
    if "contents" in item:
        parts.append(f"says {_quoted(item['contents'])}")
    return "  ".join(parts)


def _box_text(box: Mapping[str, float], separator: str = ",") -> str:
    """A box of an answer (``{x0, y0, x1, y1}``) as the text listings show it: ``x0,y0,x1,y1``
    (what ``--bbox`` takes back)."""
    return separator.join(f"{box[corner]:g}" for corner in ("x0", "y0", "x1", "y1"))


def _image_line(item: dict[str, Any]) -> str:
    box = _box_text(item["bbox"])
    line = (
        f"{item['id']}  page {item['page']}  {item['width']}x{item['height']} px  "
        f"{item['bits_per_component']}-bit {item['color_space']}  {item['format']}  "
        f"{item['bytes']} bytes  at {box}"
    )
    if item.get("decorative"):
        line += f"  [decorative: {item['decorative_reason']}]"
    return line


def _cmd_extract(args: argparse.Namespace) -> int:
    return _simple(args, _extract_text)


def _extract_text(r: dict[str, Any]) -> str:
    """The filled schema, a field a line in the schema's order: ``path: value`` (as JSON, the
    document's words quoted), where it was found (page, tier, confidence); each line item on
    a line of its own; then the fields left null with why, and the answer's notes."""
    lines: list[str] = []
    for path, entry in r["fields"].items():
        where = f"page {entry['page']}" if entry["page"] is not None else "no page"
        if "pages" in entry:
            where = f"pages {entry['pages']}"
        found = f"({where}, tier {entry['tier']}, confidence {entry['confidence']:g})"
        value = entry["value"]
        if isinstance(value, list):
            lines.append(f"{path}: {len(value)} item(s)  {found}")
            lines.extend(f"  [{i}] {_quoted_value(item)}" for i, item in enumerate(value, 1))
        else:
            lines.append(f"{path}: {_quoted_value(value)}  {found}")
    for missing in r["missing"]:
        lines.append(f"{missing['path']}: null  ({missing['reason']}: {missing['message']})")
    if "omitted" in r:
        lines.append(f"omitted: {', '.join(r['omitted']['paths'])}  ({r['omitted']['message']})")
    lines.extend(f"note: {note}" for note in r.get("notes", []))
    note = _unreadable_note(r)
    if note:
        lines.append(note)
    return "\n".join(lines) if lines else "(no fields)"


def _quoted_value(value: Any) -> str:
    """A value read from the document, as JSON on one line."""
    return json.dumps(value, ensure_ascii=False)


def _cmd_fields(args: argparse.Namespace) -> int:
    code, response = _listing(args, "fields", ("fields",), "(no form fields)")
    if response is not None:
        for item in response["fields"]:
            print(_field_line(item))
        _listing_notes(response)
    return code


def _field_line(item: dict[str, Any]) -> str:
    """One field: where it stands, its name and kind, its label (and whence), its value."""
    where = "no widget"
    if item["page"] is not None:
        where = f"page {item['page']} at {_box_text(item['bbox'])}"
    value = item["value"]
    shown = json.dumps(value, ensure_ascii=False)
    line = f"{item['name']}  [{item['kind']}]  = {shown}  ({where})"
    if item["label"] is not None:
        # A tooltip is the file's words about the field, not page text: said so.
        line += f"  label ({item['label_source']}): {json.dumps(item['label'], ensure_ascii=False)}"
    flags = [f for f in ("read_only", "required", "password", "hidden") if item.get(f)]
    if item["appearance_differs"]:
        flags.append(f"shows {json.dumps(item.get('appearance'), ensure_ascii=False)}")
    if flags:
        line += f"  [{', '.join(flags)}]"
    return line


#: What an image command's file function answers: the image's bytes and its description.
_ImageFile = Callable[..., tuple[bytes, Any]]


def _image_command(
    args: argparse.Namespace,
    fetch: _ImageFile,
    fmt: Callable[[Any], str],
    name: Callable[[Any], str],
    announce: Callable[[Any, bool], None] | None = None,
) -> tuple[int, Any]:
    """An image command: the operation's ``*_file`` function (the file itself rather than the
    base64 answer, from the same arguments), ``announce`` on stderr, then :func:`_write_image`.
    The exit code and the image's description (``None`` when the operation failed)."""
    from pdfthin.operations.registry import BY_COMMAND

    context = _context(args)
    json_mode = args.format == "json"
    arguments = _arguments(BY_COMMAND[args.command], args)
    try:
        content, info = _run(
            args, lambda: fetch(args.file, **arguments, context=context), json_mode
        )
    except _Failed as failed:
        return failed.code, None
    if announce is not None:
        announce(info, json_mode)
    return _write_image(args, content, info, fmt(info), name(info), json_mode), info


def _printed_file(args: argparse.Namespace, code: int) -> bool:
    """Whether an image command wrote a file and may say what it wrote on stdout."""
    return code == EXIT_OK and bool(args.output) and args.output != "-" and args.format != "json"


def _stored_format(info: Any) -> str:
    return "jpeg" if info["media_type"] == "image/jpeg" else "png"


def _cmd_image(args: argparse.Namespace) -> int:
    from pdfthin.operations import image_file

    code, info = _image_command(
        args,
        image_file,
        lambda info: str(info["format"]),
        lambda info: str(info["id"]),
        announce=_say_choice,
    )
    if info is None:
        return code
    if _printed_file(args, code):
        print(info["media_type"])
    for note in [] if args.format == "json" or code != EXIT_OK else info.get("notes", []):
        print(f"pdfthin: {note}", file=sys.stderr)
    return code


def _cmd_cite(args: argparse.Namespace) -> int:
    from pdfthin.operations.citation import citation_file

    code, info = _image_command(args, citation_file, _stored_format, lambda _: "the citation image")
    if info is not None and _printed_file(args, code):
        print(f"{info['media_type']} {info['width']}x{info['height']} page {info['page']}")
    return code


def _cmd_page_image(args: argparse.Namespace) -> int:
    from pdfthin.operations.page_image import page_image_file

    code, info = _image_command(args, page_image_file, _stored_format, lambda _: "the page image")
    if info is not None and _printed_file(args, code):
        print(
            f"{info['media_type']} {info['width']}x{info['height']} page {info['page']} "
            f"({info['source']})"
        )
    return code


def _write_image(
    args: argparse.Namespace,
    content: bytes,
    info: Mapping[str, Any],
    fmt: str,
    name: str,
    json_mode: bool,
) -> int:
    """An image command's output: without ``-o`` the base64 text (the whole answer with
    ``--format json``), with ``-o -`` the bytes on stdout, else the file, refused when its
    extension names another format than ``fmt``. The exit code."""
    from pdfthin.errors import PdfthinError

    output: str | None = args.output
    if output is None:
        data = base64.b64encode(content).decode("ascii")
        if json_mode:
            _print_json({**info, "encoding": "base64", "data": data})
        else:
            print(data)
        return EXIT_OK
    refused = _extension_mismatch(output, fmt, name)
    if refused is not None:
        print(f"pdfthin {args.command}: {refused}", file=sys.stderr)
        return EXIT_USAGE
    if output == "-":
        sys.stdout.buffer.write(content)
        sys.stdout.buffer.flush()
        return EXIT_OK
    try:
        with open(output, "wb") as fh:
            fh.write(content)
    except OSError as exc:
        return _fail(
            PdfthinError("invalid_argument", f"cannot write {output}: {exc.strerror}"), json_mode
        )
    if json_mode:
        _print_json({**info, "output": output})
    return EXIT_OK


def _say_choice(info: Mapping[str, Any], json_mode: bool) -> None:
    """Which image --random chose, on stderr (JSON answers carry ``selection``)."""
    chosen = info.get("selection")
    if chosen and not json_mode:
        print(
            f"pdfthin: chose {info['id']} among {chosen['candidates']} images "
            f"(--seed {chosen['seed']} chooses it again)",
            file=sys.stderr,
        )


#: The file extensions of each format an image is written in (``image`` gives the stored
#: JPEG and JPEG 2000 as they are, the rest as PNG, TIFF or JBIG2): what ``-o`` may end with.
_EXTENSIONS = {
    "png": (".png",),
    "jpeg": (".jpg", ".jpeg", ".jpe", ".jfif"),
    "jp2": (".jp2", ".jpf", ".jpx"),
    "j2c": (".j2c", ".j2k", ".jpc"),
    "tiff": (".tif", ".tiff"),
    "jbig2": (".jb2", ".jbig2"),
}


def _extension_mismatch(output: str, fmt: str, name: str) -> str | None:
    """Why ``output`` cannot hold ``name``, an image in format ``fmt``: its extension names
    another image format (converting would need an image library the package does not depend
    on). ``-``, no extension or one no image format uses (``/dev/null``, ``out.bin``) are
    fine."""
    from pathlib import PurePath

    suffix = PurePath(output).suffix.lower() if output != "-" else ""
    known = {ext: form for form, exts in _EXTENSIONS.items() for ext in exts}
    if suffix not in known or known[suffix] == fmt:
        return None
    fits = _EXTENSIONS.get(fmt, ("." + fmt,))
    return (
        f"{name} is {fmt.upper()}, not {known[suffix].upper()}, and is written as it is: name "
        f"the file {PurePath(output).stem}{fits[0]} (or -o - for stdout); nothing was written"
    )


def _cmd_chunks(args: argparse.Namespace) -> int:
    """``--format jsonl`` and ``text`` follow the cursors (``--max-chars`` sizes each request;
    a chunk longer than that comes in parts, joined before it is written) and write each
    chunk as its response arrives; ``json`` prints one response with
    ``--max-chars``, else every chunk in one answer."""
    from pdfthin.exports import RESPONSE_CHARS, chunk_responses, jsonl_line, whole_chunks
    from pdfthin.operations.params import MAX_MAX_CHARS

    context = _context(args)
    json_mode = args.format == "json"
    get_chunks = _operation("chunks", args, context)

    def call(cursor: str | None, max_chars: int) -> dict[str, Any]:
        ask = functools.partial(get_chunks, cursor=cursor, max_chars=max_chars)
        response: dict[str, Any] = _run(args, ask, json_mode)
        return response

    try:
        if json_mode and args.max_chars is not None:
            _print_json(call(args.cursor, args.max_chars))
            return EXIT_OK
        if json_mode:  # one answer: every chunk, in one call where they fit
            _print_json(_merged_chunks(list(chunk_responses(call, MAX_MAX_CHARS, args.cursor))))
            return EXIT_OK
        context.progress = None  # the chunks printed as they come are the progress
        write = jsonl_line if args.format == "jsonl" else _chunk_line
        budget = RESPONSE_CHARS if args.max_chars is None else args.max_chars
        responses = chunk_responses(call, budget, args.cursor)
        for chunk in whole_chunks(c for r in responses for c in r["chunks"]):
            sys.stdout.write(write(chunk))
            sys.stdout.flush()
    except _Failed as failed:
        return failed.code
    return EXIT_OK


def _merged_chunks(responses: list[dict[str, Any]]) -> dict[str, Any]:
    """One answer holding the chunks of every response: the one response itself when there
    was one; else its chunks, whole, with the first response's document summary (every chunk
    carries its page's status; an unreadable page is a chunk of its own)."""
    from pdfthin.exports import whole_chunks

    if len(responses) == 1:
        return responses[0]
    chunks = list(whole_chunks(c for r in responses for c in r["chunks"]))
    return {
        "document": responses[0]["document"],
        "chunks": chunks,
        "next_cursor": None,
        "complete": True,
    }


#: The longest first line the text listing shows of a chunk (characters).
_LISTED_CHARS = 80


def _chunk_line(chunk: Mapping[str, Any]) -> str:
    """A chunk in the text listing: id, pages, kind, heading trail and its first line."""
    pages = [span["page"] for span in chunk["page_spans"]]
    where = f"page {pages[0]}" if len(pages) == 1 else f"pages {pages[0]}-{pages[-1]}"
    first = next((line.strip() for line in chunk["markdown"].splitlines() if line.strip()), "")
    if len(first) > _LISTED_CHARS:
        first = first[: _LISTED_CHARS - 1] + "…"
    crumb = " > ".join(chunk["breadcrumb"])
    trail = f"  [{crumb}]" if crumb else ""
    return f"{chunk['chunk_id']}  {where}  {chunk['kind']}{trail}  {first}\n"


def _cmd_inspect(args: argparse.Namespace) -> int:
    """The answer as JSON, or a short summary; the SVG written to ``--output``. Without
    ``--max-chars`` nothing is left out (the command line prints it all)."""
    from pdfthin.errors import PdfthinError
    from pdfthin.operations.params import MAX_MAX_CHARS

    context = _context(args)
    json_mode = args.format == "json"
    given: dict[str, Any] = {}
    if args.max_chars is None:
        given["max_chars"] = MAX_MAX_CHARS
    if args.output:
        given["svg"] = True
    try:
        response = _run(args, lambda: _operation("inspect", args, context)(**given), json_mode)
    except _Failed as failed:
        return failed.code
    svg = response.get("svg")
    if args.output:
        if svg is None:
            error = PdfthinError("too_large", "the SVG does not fit --max-chars; raise it")
            return _fail(error, json_mode)
        try:
            with open(args.output, "w", encoding="utf-8") as fh:
                fh.write(svg)
        except OSError as exc:
            error = PdfthinError("invalid_argument", f"cannot write {args.output}: {exc.strerror}")
            return _fail(error, json_mode)
        response = {**response, "svg": None, "output": args.output}
    if json_mode:
        _print_json(response)
    else:
        print(_inspect_text(response))
    return EXIT_OK


def _inspect_text(r: dict[str, Any]) -> str:
    counts = r["counts"]
    status = r["status"] + (f" ({r['reason']})" if r["reason_code"] != "text_layer" else "")
    lines = [
        f"page {r['page']}: {status}; {r['width']} x {r['height']} pt, rotation {r['rotation']}",
        f"{counts['runs']} runs, {counts['lines']} lines, {counts['blocks']} blocks, "
        f"{counts['furniture']} header/footer, {counts['gutters']} gutters, "
        f"{counts['rules']} rules, {counts['hidden']} hidden",
    ]
    for block in r["blocks"]:
        kind = block["kind"] + (f" h{block['level']}" if block["kind"] == "heading" else "")
        if "table" in block:
            kind += f" {block['table']['rows']}x{block['table']['columns']}"
        box = _box_text(block["bbox"], ", ")
        lines.append(f"  {block['order']:>3} {kind:<14} [{box}] {block['text']}")
    for piece in r["hidden_text"]:
        lines.append(f"  hidden: {piece['reason']}, {piece['chars']} characters (withheld)")
    if not r["matches_output"]:
        lines.append(f"note: {r['note']}")
    if "omitted" in r:
        lines.append(f"omitted: {_cli_words(r['omitted']['message'])}")
    if r.get("output"):
        lines.append(f"wrote {r['output']}")
    return "\n".join(lines)


#: The flag of each server setting, for messages about them.
_SERVE_FLAGS = {
    "cache_size": "--cache-size",
    "max_extractions": "--max-concurrent-extractions",
    "max_listings": "--max-concurrent-listings",
    "max_chars": "--max-chars",
    "max_file_bytes": "--max-file-bytes",
    "timeout_seconds": "--timeout",
    "max_bytes_in_flight": "--max-bytes-in-flight",
}


def _cmd_serve(args: argparse.Namespace) -> int:
    """Startup problems are one line on stderr and exit 2; stdout belongs to the protocol."""
    from pdfthin.adapters.mcp import INSTALL_HINT

    try:
        import mcp.server.mcpserver  # noqa: F401  (the extra; kept out of every other command)
    except ImportError:
        print(INSTALL_HINT, file=sys.stderr)
        return EXIT_USAGE
    from pdfthin.adapters.mcp.config import ServeConfig, parse_http
    from pdfthin.errors import PdfthinError

    def usage(message: str) -> int:
        print(f"pdfthin serve: {message}", file=sys.stderr)
        return EXIT_USAGE

    from pdfthin.operations.cursor import key_from_env

    try:
        http = parse_http(args.http) if args.http else None
        cursor_key = key_from_env()
    except ValueError as exc:
        return usage(str(exc))
    limits: dict[str, Any] = {}
    if args.timeout is not None:
        limits["timeout_seconds"] = args.timeout
    if args.max_bytes_in_flight is not None:
        limits["max_bytes_in_flight"] = args.max_bytes_in_flight
    try:  # the ranges are the configuration's own (config.RANGES)
        config = ServeConfig(
            root=args.root,
            ocr=args.ocr,
            cache_size=args.cache_size,
            max_extractions=args.max_concurrent_extractions,
            max_listings=args.max_concurrent_listings,
            max_chars=args.max_chars,
            max_file_bytes=args.max_file_bytes,
            http=http,
            **limits,
            cursor_key=cursor_key,
        )
    except PdfthinError as exc:
        field = str(exc.details.get("field", ""))
        return usage(exc.message.replace(field, _SERVE_FLAGS.get(field, field), 1))
    from pdfthin.adapters.mcp.server import PdfthinServer, serve

    try:
        server = PdfthinServer(config)  # the root, the OCR module: fail here, in one line
        serve(server)  # a port another process holds: one line too
    except PdfthinError as exc:
        return usage(exc.message)
    return EXIT_OK


def _cmd_batch(args: argparse.Namespace) -> int:
    from pdfthin.adapters import batch_command

    return batch_command.run(args)


_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "read": _cmd_read,
    "find": _cmd_find,
    "describe": _cmd_describe,
    "info": _cmd_info,
    "toc": _cmd_toc,
    "section": _cmd_section,
    "peek": _cmd_peek,
    "images": _cmd_images,
    "image": _cmd_image,
    "fields": _cmd_fields,
    "extract": _cmd_extract,
    "inspect": _cmd_inspect,
    "chunks": _cmd_chunks,
    "annotations": _cmd_annotations,
    "verify": _cmd_verify,
    "resolve": _cmd_resolve,
    "cite": _cmd_cite,
    "page-image": _cmd_page_image,
    "ledger": _cmd_ledger,
    "diff": _cmd_diff,
    "serve": _cmd_serve,
    "batch": _cmd_batch,
}


if __name__ == "__main__":
    sys.exit(main())
