"""Blocks -> Markdown."""

from __future__ import annotations

import re
from typing import NamedTuple

from ..layout import Block, list_marker
from ..layout.lines import is_monospace
from .text import clean, join_hyphenated

_LEADING_MARKUP = re.compile(r"^(#{1,6}\s|>|[-+*]\s)")


def join_lines(lines: list[str], known_words: set[str] | None, sep: str = "\n") -> str:
    """Rejoin the lines of a paragraph, keeping the source line breaks (``sep``; a Markdown
    soft break) but undoing hyphenation: the rest of a broken word moves up to the line
    where it started. A real hyphen (``state-of-the-`` + ``art``) is kept, without a space."""
    out: list[str] = []
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if out and out[-1].endswith("-"):
            head, _, rest = line.partition(" ")
            joined = join_hyphenated(out[-1], head, known_words)
            if joined is None and out[-1][-2:-1].isalnum() and head[:1].isalnum():
                joined = out[-1] + head
            if joined is not None:
                out[-1] = joined
                if rest:
                    out.append(rest)
                continue
        out.append(line)
    return sep.join(out)


def render_block(block: Block, known_words: set[str] | None) -> str:
    if block.kind == "table" and block.rows:
        return render_table(block.rows)
    lines = [clean(line.text) for line in block.lines]
    if block.kind == "heading":
        text = join_lines(lines, known_words, " ")
        return "#" * max(1, min(block.level, 6)) + " " + text if text else ""
    if block.kind == "list_item":
        text = join_lines(lines, known_words, "\n  ")
        found = list_marker(text)
        if found is None:
            return "- " + text
        marker, rest = found
        if marker == "-":
            return "- " + rest
        if marker.rstrip(".)").isdigit():
            return f"{marker.rstrip('.)')}. {rest}"
        return f"- {marker} {rest}"
    if len(block.lines) >= 2 and all(is_monospace(line.font) for line in block.lines):
        body = "\n".join(line for line in lines if line.strip())
        return f"```\n{body}\n```" if body else ""
    text = join_lines(lines, known_words)
    if _LEADING_MARKUP.match(text):
        text = "\\" + text
    return text


def render_plain(blocks: list[Block], known_words: set[str] | None = None) -> str:
    """The same text as :func:`render_blocks`, without Markdown syntax: headings, list
    items and table rows as plain lines (cells separated by a space)."""
    out: list[str] = []
    glue = ""
    for block in blocks:
        if block.kind == "table" and block.rows:
            text = "\n".join(" ".join(clean(c) for c in row if c) for row in block.rows)
        else:
            text = join_lines([clean(line.text) for line in block.lines], known_words)
        if not text:
            continue
        if out:
            out.append(glue)
        out.append(text)
        glue = " " if block.run_in else "\n"
    return "".join(out)


def _cell(text: str) -> str:
    return clean(text).replace("|", "\\|").strip()


def render_table(rows: list[list[str]]) -> str:
    width = max(len(r) for r in rows)
    cells = [[_cell(c) for c in r] + [""] * (width - len(r)) for r in rows]
    header = "| " + " | ".join(cells[0]) + " |"
    rule = "|" + "|".join(["---"] * width) + "|"
    body = ["| " + " | ".join(r) + " |" for r in cells[1:]]
    return "\n".join([header, rule, *body])


def render_blocks(blocks: list[Block], known_words: set[str] | None = None) -> str:
    """Blocks separated by blank lines; consecutive list items stay one (tight) list."""
    return render_anchored(blocks, known_words)[0]


def render_anchored(
    blocks: list[Block], known_words: set[str] | None = None
) -> tuple[str, list[Anchor]]:
    """:func:`render_blocks`, plus where each rendered block starts in the Markdown: its
    offset, its top on the page and its heading level (0 for other blocks)."""
    out: list[str] = []
    anchors: list[Anchor] = []
    length = 0
    previous = ""
    for block in blocks:
        text = render_block(block, known_words)
        if not text:
            continue
        if out:
            sep = "\n" if block.kind == "list_item" and previous == "list_item" else "\n\n"
            out.append(sep)
            length += len(sep)
        level = block.level if block.kind == "heading" else 0
        anchors.append(Anchor(length, round(block.y0, 1), level))
        out.append(text)
        length += len(text)
        previous = block.kind
    return "".join(out), anchors


class Anchor(NamedTuple):
    offset: int
    y: float
    level: int
