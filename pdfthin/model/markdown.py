"""Blocks -> Markdown."""

from __future__ import annotations

import re

from ..layout import Block, list_marker
from .text import clean, join_hyphenated

_MONO = re.compile(r"mono|courier|consol|menlo|code|typewriter|cmtt|inconsolata", re.IGNORECASE)
_LEADING_MARKUP = re.compile(r"^(#{1,6}\s|>|[-+*]\s)")


def join_lines(lines: list[str], known_words: set[str] | None) -> str:
    """Rejoin the lines of a paragraph: spaces between lines, hyphenation undone where it is
    hyphenation, real hyphens kept without a space (``state-of-the-`` + ``art``)."""
    out = ""
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if not out:
            out = line
            continue
        if out.endswith("-"):
            joined = join_hyphenated(out, line, known_words)
            if joined is not None:
                out = joined
                continue
            if out[-2:-1].isalnum() and line[:1].isalnum():
                out += line
                continue
        out += " " + line
    return out


def render_block(block: Block, known_words: set[str] | None) -> str:
    if block.kind == "table" and block.rows:
        return render_table(block.rows)
    lines = [clean(line.text) for line in block.lines]
    if block.kind == "heading":
        text = join_lines(lines, known_words)
        return "#" * max(1, min(block.level, 6)) + " " + text if text else ""
    if block.kind == "list_item":
        text = join_lines(lines, known_words)
        found = list_marker(text)
        if found is None:
            return "- " + text
        marker, rest = found
        if marker == "-":
            return "- " + rest
        if marker.rstrip(".)").isdigit():
            return f"{marker.rstrip('.)')}. {rest}"
        return f"- {marker} {rest}"
    if len(block.lines) >= 2 and all(_MONO.search(line.font) for line in block.lines):
        body = "\n".join(line for line in lines if line.strip())
        return f"```\n{body}\n```" if body else ""
    text = join_lines(lines, known_words)
    if _LEADING_MARKUP.match(text):
        text = "\\" + text
    return text


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
    parts = [render_block(b, known_words) for b in blocks]
    return "\n\n".join(p for p in parts if p)
