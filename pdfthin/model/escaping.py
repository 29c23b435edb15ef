"""Page text as Markdown text: what would be read as markup is escaped, so that a CommonMark
(or GitHub) renderer shows the page's characters, and only them.

Escapes are added only where the character could act: ``2 * 3`` and ``snake_case`` stay as
they are, ``*new*`` and ``__init__`` do not become emphasis. The rules follow CommonMark's:
emphasis needs a ``*`` or ``_`` next to a non-space (``_`` not between two letters or digits),
a link or image needs ``](`` / ``][``, raw HTML and autolinks ``<`` before a letter, ``/``,
``!`` or ``?``, an entity ``&name;``; GitHub adds tables (``|``), strikethrough (``~``) and
footnote references (``[^``).
At the start of a line: headings, quotes, list items, thematic breaks and setext underlines.
"""

from __future__ import annotations

import re

#: Characters that may need an escape somewhere in a line (the fast path skips the rest).
_SPECIAL = re.compile(r"[\\`*_\[\]<&|~]")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
#: Block markup at the start of a line that a leading backslash disarms: a heading, a block
#: quote, a bullet, a setext underline or a thematic break of ``-``, ``=``, ``+``.
_LEADING = re.compile(r"^(?:#{1,6}(?:\s|$)|>|[-+*](?:\s|$)|=+\s*$|-(?:\s*-){1,}\s*$)")
#: An ordered list item: its delimiter (``1.``, ``12)``) is escaped, not its digits.
_ORDERED = re.compile(r"^(\d{1,9})([.)])(?=\s|$)")
#: A heading's closing sequence (``# C #`` would lose its last ``#``).
_CLOSING = re.compile(r"(\s)(#+)\s*$")


def escape_inline(text: str) -> str:
    """``text`` with the characters that would start inline markup escaped."""
    if not _SPECIAL.search(text):
        return text
    out: list[str] = []
    n = len(text)
    tildes = text.count("~") >= 2
    for i, ch in enumerate(text):
        before = text[i - 1] if i else " "
        after = text[i + 1] if i + 1 < n else " "
        if ch == "\\":
            escape = after in _ASCII_PUNCTUATION or i + 1 == n
        elif ch in "`|":
            escape = True
        elif ch == "*":
            escape = not (before.isspace() and after.isspace())
        elif ch == "_":
            escape = not (before.isalnum() and after.isalnum())
        elif ch == "~":
            escape = tildes
        elif ch == "[":  # opens a footnote reference only before ^ (``[^1]``)
            escape = after == "^"
        elif ch == "]":  # closes a link's or an image's text only before these
            escape = after in "([:"
        elif ch == "<":
            escape = after.isascii() and (after.isalpha() or after in "/!?")
        else:  # "&"
            escape = _ENTITY.match(text, i) is not None
        out.append("\\" + ch if escape else ch)
    return "".join(out)


def escape_line_start(line: str) -> str:
    """``line`` (already escaped inline) with block markup at its start escaped."""
    ordered = _ORDERED.match(line)
    if ordered:
        return f"{ordered.group(1)}\\{line[ordered.end(1) :]}"
    if _LEADING.match(line):
        return "\\" + line
    return line


def escape_heading(text: str) -> str:
    """A heading's text: inline markup escaped, and a trailing run of ``#`` kept as text."""
    return _CLOSING.sub(lambda m: m.group(1) + "\\" + m.group(2), escape_inline(text))
