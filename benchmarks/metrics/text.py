"""Text fidelity: the py-pdf/benchmarks score, and Markdown stripping for Markdown engines.

Score = Indel normalised similarity ``1 - indel(a, b) / (len(a) + len(b))`` (what
python-Levenshtein's ``ratio`` computes) of the whole document, after ligature expansion, with
pages joined by ``"\\n"``.
"""

from __future__ import annotations

import html
import re

from rapidfuzz.distance import Indel

LIGATURES: dict[str, str] = {
    "ﬀ": "ff",
    "ﬁ": "fi",
    "ﬂ": "fl",
    "ﬃ": "ffi",
    "ﬄ": "ffl",
    "ﬅ": "ft",
    "ﬆ": "st",
    "ꜳ": "aa",
}
_LIGATURE_RE = re.compile("|".join(map(re.escape, LIGATURES)))


def expand_ligatures(text: str) -> str:
    return _LIGATURE_RE.sub(lambda m: LIGATURES[m.group(0)], text)


def indel_similarity(a: str, b: str) -> float:
    """``1 - indel/(len(a)+len(b))``; two empty strings are identical (1.0)."""
    if not a and not b:
        return 1.0
    return float(Indel.normalized_similarity(a, b))


def document_text(pages: list[str], markdown: bool = False) -> str:
    """The text the score compares: pages (Markdown stripped if needed) joined by newlines."""
    if markdown:
        pages = [strip_markdown(p) for p in pages]
    return expand_ligatures("\n".join(pages))


def text_score(pages: list[str], ground_truth: str, markdown: bool = False) -> float:
    return indel_similarity(expand_ligatures(ground_truth), document_text(pages, markdown))


# --- Markdown to plain text -------------------------------------------------------------------

_FENCE = re.compile(r"^\s*(```|~~~)")
_HRULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)(\s+#+)?\s*$")
_BULLET = re.compile(r"^(\s*)[-*+]\s+")
_QUOTE = re.compile(r"^\s{0,3}>\s?")
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
#: Footnotes (``[^1]`` and a line's ``[^1]:``, the space after it as printed), read as the
#: marks they were printed as; pdfthin's labels for symbol marks (pdfthin/model/footnotes.py)
#: back to the symbols.
_FOOTNOTE_DEFINITION = re.compile(r"^\[\^([^\]\s]+)\]:")
_FOOTNOTE = re.compile(r"(?<!\\)\[\^([^\]\s]+)\]")
_FOOTNOTE_SYMBOLS = {"ast": "*", "dagger": "†", "ddagger": "‡", "sect": "§", "para": "¶"}
_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(\s[^<>]*)?/?>")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1", re.DOTALL)
_EMPHASIS = re.compile(r"(?<![\w*\\])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w*])")
_CODE = re.compile(r"`([^`]*)`")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~=])")
_ENTITY = re.compile(r"&(#\d+|#x[0-9a-fA-F]+|[A-Za-z]+);")
#: pymupdf4llm's placeholders for images it did not convert.
_PLACEHOLDER = re.compile(
    r"^\s*(\*\*)?"
    r"(==> picture \[.*?\] intentionally omitted <==|-{5} (Start|End) of picture text -{5})"
    r"(\*\*)?\s*(<br>)?\s*$"
)


def split_row(line: str) -> list[str]:
    """Cells of a pipe-table row; ``\\|`` is a literal bar inside a cell."""
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    cells = re.split(r"(?<!\\)\|", body)
    return [c.strip().replace("\\|", "|") for c in cells]


def is_table_row(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith("|") and stripped.count("|") >= 2


def _footnote_mark(match: re.Match[str]) -> str:
    return _FOOTNOTE_SYMBOLS.get(match.group(1), match.group(1))


def strip_inline(text: str) -> str:
    """Remove inline Markdown/HTML: images, links, emphasis, code spans, tags, escapes."""
    text = _IMAGE.sub("", text)
    text = _LINK.sub(r"\1", text)
    text = _BR.sub(" ", text)
    text = _TAG.sub("", text)
    for _ in range(2):  # nested **_x_**
        text = _STRONG.sub(r"\2", text)
        text = _EMPHASIS.sub(r"\2", text)
    text = _CODE.sub(r"\1", text)
    text = _ESCAPE.sub(r"\1", text)
    if "&" in text:
        text = _ENTITY.sub(lambda m: html.unescape(m.group(0)), text)
    return text


def strip_markdown(markdown: str) -> str:
    """Markdown to the plain text a reader sees: no markers, tables as space-joined cells,
    paragraphs one line break apart (the blank line between them is Markdown's separator, not
    text: plain-text engines and the ground truths end a paragraph with one line break)."""
    out: list[str] = []
    for line in markdown.split("\n"):
        if not line.strip() or _FENCE.match(line) or _PLACEHOLDER.match(line):
            continue
        if is_table_row(line):
            if TABLE_SEPARATOR.match(line):
                continue
            cells = [strip_inline(c) for c in split_row(line)]
            out.append(" ".join(c for c in cells if c))
            continue
        if _HRULE.match(line):
            continue
        heading = _HEADING.match(line)
        if heading:
            line = heading.group(1)
        else:
            line = _QUOTE.sub("", line)
            line = _BULLET.sub(r"\1", line)
        line = _FOOTNOTE_DEFINITION.sub(_footnote_mark, line)
        line = _FOOTNOTE.sub(_footnote_mark, line)
        out.append(strip_inline(line))
    return "\n".join(out)
