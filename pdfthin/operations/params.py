"""The arguments of the operations, each declared once: its type, range or choices, default,
description and check.

A :class:`Param` gives both the JSON schema a transport advertises (the MCP tool list) and the
check every surface applies to a value it received (:func:`arguments`), so an argument an agent
gets wrong is answered with an ``invalid_argument`` envelope that says what to fix. The
handlers check their options through the same declarations (:meth:`Param.value`), so the Python
API refuses what the transports refuse. Arguments whose meaning depends on the document (a page
selection, a section id, a cursor, an image id) are bound to it by their handler
(``invalid_pages``, ``not_found``, ``invalid_cursor``); the schema only bounds their form.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pdfthin.errors import PdfthinError, shown
from pdfthin.ocr.store import MAX_TRANSCRIPTION_CHARS
from pdfthin.operations.boxes import boxes_schema, parse_boxes
from pdfthin.operations.cursor import MAX_CURSOR_CHARS

if TYPE_CHECKING:
    from pdfthin.operations.context import Context

#: What a parameter holds: a page selection is a string like "1-3,7" or one page number;
#: boxes are one box or several on a page (:mod:`.boxes`: a string or JSON objects); an
#: object is a JSON object (its JSON text on the command line); a document is a second
#: document, given in the transport's own form as the first one is (a path under the MCP
#: server's root, a Lambda ``{"base64"|"s3"}`` object, a browser handle, a command-line FILE,
#: a path, bytes or opened source in Python), which each adapter resolves as it resolves the
#: first (:func:`documents`).
Kind = Literal["string", "integer", "boolean", "pages", "boxes", "object", "document"]

_SCHEMA_TYPES: dict[str, Any] = {
    "string": "string",
    "integer": "integer",
    "boolean": "boolean",
    "pages": ["string", "integer"],
    # An object, or its JSON text (the command line's form).
    "object": ["object", "string"],
    # What a transport takes in place of this schema is its own (adapters substitute it).
    "document": ["string", "object"],
}
#: Characters no text argument holds: NUL and the other controls but tab and line breaks.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

# --- the limits of the arguments --------------------------------------------------------------

#: ``max_chars``: the response budget in characters (the default is the context's).
MIN_MAX_CHARS = 1_000
MAX_MAX_CHARS = 5_000_000
#: The longest page selection a transport accepts (the parser's own bound is looser).
MAX_PAGES_CHARS = 1_000
#: ``max_pages`` of ``read_pages``: the default is no limit but the largest allowed.
MAX_MAX_PAGES = 1_000_000
MAX_PASSWORD_CHARS = 1_024
MAX_SECTION_CHARS = 64
#: ``find_in_document``.
MAX_QUERY = 1_000
MODES = ("phrase", "all_words", "any_words")
DEFAULT_MAX_RESULTS = 20
MAX_MAX_RESULTS = 1_000
DEFAULT_CONTEXT_CHARS = 80
MAX_CONTEXT_CHARS = 1_000
#: ``peek``: the seed's ceiling is where JSON numbers stop being exact (it comes back).
POSITIONS = ("beginning", "middle", "ending", "random")
DEFAULT_PEEK = 500
MAX_PEEK = 20_000
MAX_SEED = 2**53
#: ``get_image``: ``max_bytes`` bounds the base64 text sent.
MAX_IMAGE_ID_CHARS = 64
#: ``get_image(image_id="random", exclude=...)``: the ids left out, comma-separated.
MAX_EXCLUDE_CHARS = 20_000
DEFAULT_MAX_BYTES = 5 * 1024 * 1024
MAX_MAX_BYTES = 256 * 1024 * 1024


@dataclass(frozen=True)
class Param:
    name: str
    kind: Kind
    description: str
    required: bool = False
    enum: tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    default: Any = None
    #: Unicode text: not blank, no lone surrogate (no transport can encode it, and it would
    #: come back in the answer), no NUL or other control character but white space.
    text: bool = False
    #: Values a model can copy the form of (the schema's ``examples``); each one passes
    #: :meth:`check` (tests/test_registry.py).
    examples: tuple[Any, ...] = ()
    #: What the value must hold beyond its kind, checked with the rest (before any document
    #: is opened; the command line's exit 2): raises ``invalid_argument``.
    refine: Callable[[Any], object] | None = None

    def schema(self) -> dict[str, Any]:
        """The JSON schema of the argument."""
        if self.kind == "boxes":
            schema: dict[str, Any] = {**boxes_schema(), "description": self.description}
            if self.examples:
                schema["examples"] = list(self.examples)
            return schema
        schema = {"type": _SCHEMA_TYPES[self.kind], "description": self.description}
        if self.enum is not None:
            schema["enum"] = list(self.enum)
        if self.minimum is not None:
            schema["minimum"] = self.minimum
        if self.maximum is not None:
            schema["maximum"] = self.maximum
        if self.max_length is not None:
            schema["maxLength"] = self.max_length
        if self.pattern is not None:
            schema["pattern"] = self.pattern
        if self.default is not None:
            schema["default"] = self.default
        if self.examples:
            schema["examples"] = list(self.examples)
        return schema

    def check(self, value: Any) -> Any:
        """``value`` if it satisfies the schema (an integral float becomes an int: JSON does
        not tell 2 from 2.0); ``invalid_argument`` naming the argument otherwise."""

        def bad(expected: str) -> PdfthinError:
            return PdfthinError(
                "invalid_argument",
                f"{self.name} must be {expected}; got {shown(value)}",
                argument=self.name,
            )

        if self.kind in ("integer", "pages") and isinstance(value, float) and value.is_integer():
            value = int(value)
        if self.kind == "boxes":
            parse_boxes(value, self.name)  # the form only: the page is the handler's
            return value
        if self.kind == "document":
            # Its form is the transport's (a path, a handle, an object): the adapter that
            # resolves it says what is wrong with it; here only what no transport takes.
            if isinstance(value, str) and not value.strip():
                raise bad("a document")
            if isinstance(value, (bool, int, float, list)) or value is None:
                raise bad("a document (as the transport gives the first one)")
            return value
        if self.kind == "boolean":
            if not isinstance(value, bool):
                raise bad("true or false")
            return value
        if self.kind == "pages":
            if isinstance(value, bool) or not isinstance(value, (str, int)):
                raise bad('a page selection like "1-3,7,10-" or a page number')
            if isinstance(value, str) and len(value) > (self.max_length or MAX_PAGES_CHARS):
                raise bad(f"at most {self.max_length} characters")
            return value
        if self.kind == "object":
            value = self._object(value, bad)
            if self.refine is not None:
                self.refine(value)
            return value
        if self.kind == "integer":
            if isinstance(value, bool) or not isinstance(value, int):
                raise bad("an integer")
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                low = self.minimum if self.minimum is not None else "-"
                high = self.maximum if self.maximum is not None else "-"
                raise bad(f"an integer from {low} to {high}")
            return value
        if not isinstance(value, str):
            raise bad("a string")
        if self.text:
            return text_argument(value, self.name, self.max_length or len(value))
        if self.enum is not None and value not in self.enum:
            raise bad("one of " + ", ".join(self.enum))
        if self.max_length is not None and len(value) > self.max_length:
            raise bad(f"at most {self.max_length} characters")
        if self.pattern is not None and not re.search(self.pattern, value):
            raise bad(f"a string matching {self.pattern}")
        return value

    def _object(self, value: Any, bad: Any) -> dict[str, Any]:
        """An object argument: given as one or as its JSON text, at most ``max_length``
        characters as compact JSON (what it must hold is its handler's to check)."""
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                raise bad("a JSON object (or its text); the text is not JSON") from None
        if not isinstance(value, dict):
            raise bad("a JSON object")
        try:
            length = len(json.dumps(value, separators=(",", ":"), ensure_ascii=False))
        except (TypeError, ValueError, RecursionError):
            raise bad("plain JSON") from None
        if self.max_length is not None and length > self.max_length:
            raise bad(f"at most {self.max_length} characters as JSON")
        return value

    def value(self, value: Any) -> Any:
        """The default when ``value`` is ``None`` (absent), else ``value`` checked."""
        return self.default if value is None else self.check(value)


def arguments(
    name: str,
    params: Sequence[Param],
    raw: Mapping[str, Any] | None,
    takes: Sequence[str] = (),
) -> dict[str, Any]:
    """The arguments of a call to ``name``, checked against its ``params``: ``null`` counts as
    absent (many clients send it for an optional argument); an unknown or missing argument is
    ``invalid_argument``. ``takes`` names what the transport takes besides (``document``)."""
    raw = raw or {}
    known = {p.name: p for p in params}
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise PdfthinError(
            "invalid_argument",
            f"{name} has no argument {', '.join(unknown)}; it takes " + ", ".join([*takes, *known]),
            arguments=unknown,
        )
    out: dict[str, Any] = {}
    for param in params:
        value = raw.get(param.name)
        if value is None:
            if param.required:
                raise PdfthinError(
                    "invalid_argument",
                    f"{name} needs the argument {param.name}",
                    argument=param.name,
                )
            continue
        out[param.name] = param.check(value)
    return out


def text_argument(value: Any, name: str, maximum: int) -> str:
    """A non-empty string argument of at most ``maximum`` characters that is Unicode text: no
    lone surrogate and no NUL or other control character but white space."""
    if not isinstance(value, str) or not value.strip():
        raise PdfthinError("invalid_argument", f"{name} must be a non-empty string")
    if len(value) > maximum:
        raise PdfthinError("invalid_argument", f"{name} is longer than {maximum} characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise PdfthinError(
            "invalid_argument", f"{name} is not Unicode text (it holds a lone surrogate)"
        ) from None
    if _CONTROL.search(value):
        raise PdfthinError("invalid_argument", f"{name} holds a control character (NUL, ...)")
    return value


def documents(params: Sequence[Param]) -> tuple[Param, ...]:
    """The arguments among ``params`` that are documents besides the first (kind
    ``document``): the adapters resolve each one as they resolve the first."""
    return tuple(p for p in params if p.kind == "document")


def budget(max_chars: Any, context: Context) -> int:
    """The response budget of a call: ``max_chars`` checked, or the context's default."""
    if max_chars is None:
        return context.default_max_chars
    limit: int = MAX_CHARS.check(max_chars)
    return limit


# --- the arguments shared by several operations -------------------------------------------------

PAGES = Param(
    "pages",
    "pages",
    'Pages to cover, 1-based: "1-3,7,10-" (10- means to the end) or one page number. '
    "Default: the whole document. Out-of-range pages are an invalid_pages error naming the "
    "page count.",
    max_length=MAX_PAGES_CHARS,
    examples=("1-3,7,10-", 12),
)
MAX_CHARS = Param(
    "max_chars",
    "integer",
    "Budget of this response in characters of compact JSON (default set by the server, "
    "normally 40000, about 10k tokens). What does not fit is reachable through next_cursor.",
    minimum=MIN_MAX_CHARS,
    maximum=MAX_MAX_CHARS,
)
CURSOR = Param(
    "cursor",
    "string",
    "next_cursor of the previous response, to continue it. Pass the same document and the "
    "same other arguments; max_chars may change between calls.",
    max_length=MAX_CURSOR_CHARS,
)
PASSWORD = Param(
    "password",
    "string",
    "Password of an encrypted PDF (omit otherwise).",
    max_length=MAX_PASSWORD_CHARS,
)
MAX_TOKENS = Param(
    "max_tokens",
    "integer",
    "Size target of a chunk in estimated tokens (characters / 4; default 500). Headings stay "
    "with what follows them; a table is cut between rows and a paragraph at sentence ends "
    "only when longer than this.",
    minimum=50,
    maximum=8_000,
    default=500,
)
STITCH = Param(
    "stitch",
    "boolean",
    "Let a chunk go on across a page break, so that a paragraph or table continued on the next "
    "page is one chunk with a span on each page (default true); false keeps every chunk on one "
    "page.",
    default=True,
)
FULL = Param(
    "full",
    "boolean",
    "Read every page first, so that the page facts cover the whole document (default false: "
    "they come from the pages read so far, which 'read' names; slow on a long document).",
    default=False,
)
OCR = Param(
    "ocr",
    "boolean",
    "true to transcribe pages that need OCR with the server's OCR provider (slow; "
    "ocr_unavailable when none is bound). Default false.",
    default=False,
)
SECTION = Param(
    "section",
    "string",
    "A section id from get_toc, like 's-3' (sections are numbered in document order).",
    max_length=MAX_SECTION_CHARS,
    # s-{depth}-{index}: the ids of earlier releases, still accepted.
    pattern=r"^s-(\d{1,6}-)?\d{1,9}$",
    examples=("s-1", "s-12"),
)

# --- search_chunks ------------------------------------------------------------------------------

#: The most chunks one ranked search answers with.
MAX_TOP_K = 100
TOP_K = Param(
    "top_k",
    "integer",
    f"The best-ranked chunks to answer with (default 10, at most {MAX_TOP_K}).",
    minimum=1,
    maximum=MAX_TOP_K,
    default=10,
)

# --- read_pages ---------------------------------------------------------------------------------

MAX_PAGES = Param(
    "max_pages",
    "integer",
    "At most this many pages per response.",
    minimum=1,
    maximum=MAX_MAX_PAGES,
    default=MAX_MAX_PAGES,
)

# --- find_in_document ---------------------------------------------------------------------------

QUERY = Param(
    "query",
    "string",
    f"The text to find (1 to {MAX_QUERY} characters).",
    required=True,
    max_length=MAX_QUERY,
    text=True,
    examples=("net revenue", "Table 3"),
)
MATCH_MODE = Param(
    "match_mode",
    "string",
    "phrase | all_words | any_words (default phrase).",
    enum=MODES,
    default="phrase",
)
CASE_SENSITIVE = Param(
    "case_sensitive", "boolean", "Match case exactly (default false).", default=False
)
FOLD_ACCENTS = Param(
    "fold_accents",
    "boolean",
    "Treat accented letters as their base letter (default true).",
    default=True,
)
MAX_RESULTS = Param(
    "max_results",
    "integer",
    f"At most this many matches per response (default {DEFAULT_MAX_RESULTS}).",
    minimum=1,
    maximum=MAX_MAX_RESULTS,
    default=DEFAULT_MAX_RESULTS,
)
CONTEXT_CHARS = Param(
    "context_chars",
    "integer",
    "Characters of context on each side of a match in its snippet "
    f"(default {DEFAULT_CONTEXT_CHARS}).",
    minimum=1,
    maximum=MAX_CONTEXT_CHARS,
    default=DEFAULT_CONTEXT_CHARS,
)

# --- peek ---------------------------------------------------------------------------------------

POSITION = Param(
    "position",
    "string",
    "beginning | middle | ending | random (default beginning).",
    enum=POSITIONS,
    default="beginning",
)
LIMIT = Param(
    "limit",
    "integer",
    f"At most this many characters (default {DEFAULT_PEEK}).",
    minimum=1,
    maximum=MAX_PEEK,
    default=DEFAULT_PEEK,
)
SEED = Param(
    "seed",
    "integer",
    "Makes position 'random' reproducible.",
    minimum=0,
    maximum=MAX_SEED,
)

# --- get_image ----------------------------------------------------------------------------------

IMAGE_ID = Param(
    "image_id",
    "string",
    "An image id from list_images, like 'p3-x12' or 'p1-i1', its resource name as an alias "
    "('/Im1', or 'p3/Im1' on page 3), or 'random' for one chosen at random.",
    required=True,
    max_length=MAX_IMAGE_ID_CHARS,
    examples=("p3-x12", "p1-i1", "/Im1", "p3/Im1", "random"),
)
IMAGE_SECTION = Param(
    "section",
    "string",
    "With image_id 'random': choose among the images of this section (an id from get_toc).",
    max_length=MAX_SECTION_CHARS,
    pattern=SECTION.pattern,
    examples=SECTION.examples,
)
EXCLUDE = Param(
    "exclude",
    "string",
    "With image_id 'random': image ids not to choose, separated by commas.",
    max_length=MAX_EXCLUDE_CHARS,
    pattern=r"^[\w\-.]+(?:\s*,\s*[\w\-.]+)*$",
    examples=("p1-i1,p3-x12",),
)
IMAGE_SEED = Param(
    "seed",
    "integer",
    "With image_id 'random': makes the choice reproducible (the answer gives the seed used).",
    minimum=0,
    maximum=MAX_SEED,
)
MAX_BYTES = Param(
    "max_bytes",
    "integer",
    "Refuse images whose base64 text is larger than this (default 5 MB).",
    minimum=1,
    maximum=MAX_MAX_BYTES,
    default=DEFAULT_MAX_BYTES,
)

# --- inspect_layout -----------------------------------------------------------------------------

PAGE = Param(
    "page",
    "integer",
    "The page to inspect, 1-based. Out of range is an invalid_pages error naming the page count.",
    required=True,
)
SVG = Param(
    "svg",
    "boolean",
    "Include the SVG of the page with the boxes drawn and numbered (default true).",
    default=True,
)
#: Not :data:`MAX_CHARS`: the answer is one page, without a cursor; what does not fit is
#: left out and named in ``omitted``.
INSPECT_MAX_CHARS = Param(
    "max_chars",
    "integer",
    "Budget of this response in characters of compact JSON (default set by the server, "
    "normally 40000). What does not fit is left out and named in 'omitted': the SVG's run "
    "and line boxes first, then the SVG, then the lists' tails.",
    minimum=MIN_MAX_CHARS,
    maximum=MAX_MAX_CHARS,
)

# --- get_annotations ----------------------------------------------------------------------------

#: What ``kinds`` may name: the kinds of annotations, and the document's embedded files.
ANNOTATION_KINDS = (
    "link",
    "comment",
    "highlight",
    "underline",
    "strikeout",
    "squiggly",
    "free_text",
    "stamp",
    "ink",
    "file_attachment",
    "other",
    "embedded_file",
)
KINDS = Param(
    "kinds",
    "string",
    "Only these kinds, comma-separated: " + ", ".join(ANNOTATION_KINDS) + " (default all).",
    max_length=200,
    pattern=r"^\s*[a-z_]+(\s*,\s*[a-z_]+)*\s*$",
    examples=("link", "highlight,comment"),
)

# --- verify_quote and resolve_anchor ------------------------------------------------------------

#: The longest quote checked: a long paragraph (approximate matching is bounded apart, in words:
#: :data:`pdfthin.operations.quote_fuzzy.MAX_FUZZY_WORDS`).
MAX_QUOTE = 2_000
QUOTE = Param(
    "quote",
    "string",
    f"The text to check, as you mean to quote it (1 to {MAX_QUOTE} characters).",
    required=True,
    max_length=MAX_QUOTE,
    text=True,
)
CITED_PAGE = Param(
    "page",
    "integer",
    "The page you cite for it, 1-based (default: none, the whole document). Out of range is "
    "an invalid_pages error naming the page count.",
    minimum=1,
    maximum=MAX_MAX_PAGES,
)
IGNORE_CASE = Param(
    "ignore_case",
    "boolean",
    "Let a quote whose case differs count as normalized (default false: a difference of case "
    "is at best fuzzy).",
    default=False,
)
#: ``pdfthin:<64 hex>/p/<page>[-<end page>]#c=<start>-<end>``: at most about 110 characters.
MAX_ANCHOR_CHARS = 200
ANCHOR_PATTERN = (
    r"^pdfthin:[0-9a-f]{64}/p/[1-9][0-9]{0,6}(-[1-9][0-9]{0,6})?#c=[0-9]{1,9}-[0-9]{1,9}$"
)
ANCHOR = Param(
    "anchor",
    "string",
    "An anchor from verify_quote or a find_in_document match: "
    "pdfthin:<fingerprint>/p/<page>#c=<start>-<end>.",
    required=True,
    max_length=MAX_ANCHOR_CHARS,
    pattern=ANCHOR_PATTERN,
    examples=("pdfthin:" + "0f" * 32 + "/p/12#c=340-415",),
)

#: ``render_citation``: the passage to show by anchor, in place of page and bbox.
CITATION_ANCHOR = Param(
    "anchor",
    "string",
    "In place of page and bbox: a passage's anchor (from verify_quote, find_in_document or "
    "resolve_anchor: pdfthin:<fingerprint>/p/<page>#c=<start>-<end>); its line boxes are "
    "highlighted. A passage across a page break is shown on its first page (page chooses "
    "the other).",
    max_length=MAX_ANCHOR_CHARS,
    pattern=ANCHOR_PATTERN,
    examples=ANCHOR.examples,
)

# --- render_citation ----------------------------------------------------------------------------

CITATION_PAGE = Param(
    "page",
    "integer",
    "The page the boxes are on, 1-based (default: the page the boxes or the anchor name). "
    "Out of range is an invalid_pages error naming the page count.",
    minimum=1,
    maximum=MAX_MAX_PAGES,
)
BBOX = Param(
    "bbox",
    "boxes",
    "The passage's box or boxes, in points on the page as displayed (origin top left, y "
    'down: the bbox of chunks, matches and quotes): "x0,y0,x1,y1", several separated by ";", '
    "an object {x0, y0, x1, y1} (with its page, if any), or a list of them (verify_quote's "
    "match.bbox as it is). Each must lie on the page.",
    examples=(
        "72,90.5,540,104",
        "72,90.5,540,104;72,106,310,120",
        {"x0": 72, "y0": 90.5, "x1": 540, "y1": 104},
        [{"page": 3, "x0": 72, "y0": 90.5, "x1": 540, "y1": 104}],
    ),
)
#: The resolution range of a citation's image, and its default (a sharp image of a passage
#: that stays well inside an agent's image budget).
MIN_DPI = 36
MAX_DPI = 600
DEFAULT_DPI = 144
DPI = Param(
    "dpi",
    "integer",
    f"Resolution of the image in dots per inch (default {DEFAULT_DPI}; the image is the "
    "region's size in points x dpi / 72 pixels).",
    minimum=MIN_DPI,
    maximum=MAX_DPI,
    default=DEFAULT_DPI,
)
CITATION_MAX_BYTES = Param(
    "max_bytes",
    "integer",
    "Refuse an image whose base64 text is larger than this (default 5 MB): too_large; ask "
    "again with a lower dpi.",
    minimum=1,
    maximum=MAX_MAX_BYTES,
    default=DEFAULT_MAX_BYTES,
)

# --- get_page_image and submit_transcription --------------------------------------------------

IMAGE_PAGE = Param(
    "page",
    "integer",
    "The page to show, 1-based. Out of range is an invalid_pages error naming the page count.",
    required=True,
    minimum=1,
    maximum=MAX_MAX_PAGES,
)
REGION = Param(
    "region",
    "boxes",
    "A region of the page, one box in points on the page as displayed (origin top left, y "
    'down, as every bbox pdfthin answers): "x0,y0,x1,y1" or {x0, y0, x1, y1}. Default: the '
    "whole page. It must lie on the page.",
    examples=("72,600,300,720", {"x0": 72, "y0": 600, "x1": 300, "y1": 720}),
)
PAGE_DPI = Param(
    "dpi",
    "integer",
    f"Resolution when the page is drawn by the server's rasterizer (default {DEFAULT_DPI}: "
    "the image is the region's size in points x dpi / 72 pixels). A scanned page comes at "
    "its scan's own resolution.",
    minimum=MIN_DPI,
    maximum=MAX_DPI,
    default=DEFAULT_DPI,
)
PAGE_IMAGE_MAX_BYTES = Param(
    "max_bytes",
    "integer",
    "Refuse an image whose base64 text is larger than this (default 5 MB): too_large; ask "
    "again for a region of the page (or a lower dpi).",
    minimum=1,
    maximum=MAX_MAX_BYTES,
    default=DEFAULT_MAX_BYTES,
)
TRANSCRIBED_PAGE = Param(
    "page",
    "integer",
    "The page transcribed, 1-based. Out of range is an invalid_pages error naming the page count.",
    required=True,
    minimum=1,
    maximum=MAX_MAX_PAGES,
)
#: The longest transcription taken.
MAX_TRANSCRIPTION = MAX_TRANSCRIPTION_CHARS
TRANSCRIPTION = Param(
    "text",
    "string",
    f"What the page (or the region) says, as Markdown, 1 to {MAX_TRANSCRIPTION} characters: "
    "transcribe what you see on get_page_image's image, nothing else.",
    required=True,
    max_length=MAX_TRANSCRIPTION,
    text=True,
    examples=("# Invoice 1042\n\nTotal due: 310.00 EUR",),
)

#: ``ledger``: the read_pages cursors an agent has seen.
MAX_CURSORS = 64
CURSORS = Param(
    "cursors",
    "string",
    "read_pages cursors (next_cursor values) this agent was given for the document, separated "
    "by spaces or commas: the last cursor of each chain is enough, as each carries its chain's "
    "ledger so far. Without it, the ledger before anything was read.",
    max_length=MAX_CURSORS * (MAX_CURSOR_CHARS + 1),
    pattern=r"^[\s,]*[A-Za-z0-9_-]+(?:[\s,]+[A-Za-z0-9_-]+)*[\s,]*$",
    examples=(
        "eNqrVspUslIqzs9NVbJSSs7PS8tJTS1JLVGyUjI0MjA2MTYxNDEz",
        "eNqrVkosS1WyUjI0MjA2MTYxNDEz eNqrVsrJT8_MU7JSSs5IzcvLT1GyUjI0MjA2MTYxNDEz",
    ),
)

#: ``extract_schema``: the schema to fill (its checks: :mod:`pdfthin.model.extraction.schema`,
#: whose MAX_SCHEMA_CHARS this is).
MAX_SCHEMA_CHARS = 20_000


def _schema_subset(value: Any) -> object:
    """The schema's own checks (the subset extract_schema fills), imported when first used:
    the model is not loaded to declare arguments."""
    from pdfthin.model.extraction.schema import compile_schema

    return compile_schema(value)


SCHEMA = Param(
    "schema",
    "object",
    "A JSON Schema of the data to extract: type 'object' with properties of type string "
    "(format 'date' for a date, returned as YYYY-MM-DD; enum allowed), number, integer, "
    "boolean, object (nested), or array of objects (line items: one property per table "
    "column). Labels looked for: each property's name (invoice_number reads 'invoice "
    "number'), title, x-labels (a list of strings) and, matched exactly only, description. "
    "x-date-order 'DMY' or 'MDY' reads 03/02/2024 one way (else it is ambiguous and null). "
    "Given as an object or as its JSON text.",
    required=True,
    max_length=MAX_SCHEMA_CHARS,
    refine=_schema_subset,
    examples=(
        {
            "type": "object",
            "properties": {
                "invoice_number": {"type": "string", "x-labels": ["Invoice No"]},
                "date": {"type": "string", "format": "date"},
                "total": {"type": "number", "title": "Total due"},
                "items": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "description": {"type": "string"},
                            "amount": {"type": "number"},
                        },
                    },
                },
            },
        },
    ),
)

# --- diff_documents -----------------------------------------------------------------------------

NEW_DOCUMENT = Param(
    "new",
    "document",
    "The newer version of the PDF, given as the first one is (over MCP a path under the "
    "server's root, as path; on Lambda a document object, as document; in the browser a "
    "handle; on the command line the second FILE). The first document is the older version.",
    required=True,
)
NEW_PASSWORD = Param(
    "new_password",
    "string",
    "Password of the newer version when it is encrypted (omit otherwise; password is the "
    "older version's).",
    max_length=MAX_PASSWORD_CHARS,
)
