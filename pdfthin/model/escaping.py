"""Page text as Markdown text: what would be read as markup is escaped, so that a CommonMark
(or GitHub) renderer shows the page's characters, and only them.

Escapes are added only where the character could act: ``2 * 3`` and ``snake_case`` stay as
they are, ``*new*`` and ``__init__`` do not become emphasis. The rules follow CommonMark's:
emphasis needs a ``*`` or ``_`` next to a non-space (``_`` not between two letters or digits),
a link or image needs ``](`` / ``][``, raw HTML and autolinks ``<`` before a letter, ``/``,
``!`` or ``?``, an entity ``&name;``; GitHub adds tables (``|``), strikethrough (``~``) and
footnote references (``[^``).
At the start of a line: headings, quotes, list items, thematic breaks and setext underlines.

Some markup needs a partner in the same paragraph, and without one its characters are text:
emphasis an opening ``*`` or ``_`` run and a closing one after it, a code span two backtick
runs of one length, a table a delimiter row (``--- | ---``) among the lines. So a form's
blanks (``Name ______``), a footnote's lone ``*``, ``a | b`` and a stray backtick are written
as they are; where a partner could exist, every such character is escaped as before. The
test that decides is generous (a run could open when a non-space follows it, close when one
precedes it), so it may escape where CommonMark would not act, never the other way round.
"""

from __future__ import annotations

import re
import unicodedata

#: Characters that may need an escape somewhere in a line (the fast path skips the rest).
_SPECIAL = re.compile(r"[\\`*_\[\]<&|~]")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
#: Block markup at the start of a line that a leading backslash disarms: a heading, a block
#: quote, a bullet, a setext underline, a thematic break (``---``, ``***``, ``___``), a table's
#: delimiter row (``:---``, ``-:``: GitHub makes the line above it a table of one column).
_LEADING = re.compile(
    r"^(?:#{1,6}(?:\s|$)|>|[-+*](?:\s|$)|=+\s*$|-(?:\s*-){1,}\s*$|(?=[^\n]*-)[-:][ \t|:-]*$"
    r"|\*(?:[ \t]*\*){2,}[ \t]*$|_(?:[ \t]*_){2,}[ \t]*$)"
)
#: An ordered list item: its delimiter (``1.``, ``12)``) is escaped, not its digits.
_ORDERED = re.compile(r"^(\d{1,9})([.)])(?=\s|$)")
#: A heading's closing sequence (``# C #`` would lose its last ``#``).
_CLOSING = re.compile(r"(^|\s)(#+)\s*$")


#: A line that is a thematic break of ``*`` or ``_`` (``***``, ``_ _ _``).
_BREAK = {
    "*": re.compile(r"^\*(?:[ \t]*\*){2,}[ \t]*$", re.MULTILINE),
    "_": re.compile(r"^_(?:[ \t]*_){2,}[ \t]*$", re.MULTILINE),
}
#: Lines that make a backtick or a pipe act however it is paired: a code fence, a GitHub
#: table's delimiter row.
_FENCE = re.compile(r"^[ \t]*```", re.MULTILINE)
# (the lookahead finds the row's first hyphen without backtracking: a long line of "-|" that
# ends in a letter costs one pass, not one per hyphen)
_DELIMITER_ROW = re.compile(r"^(?=[ \t|:]*-)[ \t|:-]*$", re.MULTILINE)
_RUNS = {"*": re.compile(r"\*+"), "_": re.compile(r"_+"), "`": re.compile(r"`+")}


def _blank(ch: str) -> bool:
    """CommonMark's Unicode whitespace (a line's start and end count as such too)."""
    return ch in " \t\n\r\f" or unicodedata.category(ch) == "Zs"


def _may_emphasise(text: str, mark: str) -> bool:
    """Whether some run of ``mark`` in ``text`` could open emphasis and a later one close it
    (the first followed by a non-space, the second preceded by one): else none can act. A
    thematic break's first character is escaped at the line's start, and the rest of its
    run, after a character, could close."""
    breaks = {found.start() for found in _BREAK[mark].finditer(text)}
    opened = False
    for run in _RUNS[mark].finditer(text):
        start, end = run.span()
        closes = start in breaks or (start > 0 and not _blank(text[start - 1]))
        if opened and closes:
            return True
        if end < len(text) and not _blank(text[end]):
            opened = True
    return False


def _may_quote_code(text: str) -> bool:
    """Whether two backtick runs of one length (a code span) or a fence could form."""
    if _FENCE.search(text):
        return True
    lengths = [len(run) for run in _RUNS["`"].findall(text)]
    return len(set(lengths)) < len(lengths)


def escape_inline(text: str, *, cell: bool = False) -> str:
    """``text`` (a line, or a paragraph's lines joined by ``\\n``) with the characters that
    would start inline markup escaped; in a table ``cell`` every ``|`` is escaped."""
    if not _SPECIAL.search(text):
        return text
    stars = "*" in text and _may_emphasise(text, "*")
    lows = "_" in text and _may_emphasise(text, "_")
    ticks = "`" in text and _may_quote_code(text)
    pipes = "|" in text and (cell or _DELIMITER_ROW.search(text) is not None)
    tildes = text.count("~") >= 2
    n = len(text)
    out: list[str] = []
    done = 0
    for found in _SPECIAL.finditer(text):
        i = found.start()
        ch = text[i]
        before = text[i - 1] if i else " "
        after = text[i + 1] if i + 1 < n else " "
        if ch == "\\":
            escape = after in _ASCII_PUNCTUATION or after == "\n" or i + 1 == n
        elif ch == "`":
            escape = ticks
        elif ch == "|":
            escape = pipes
        elif ch == "*":
            escape = stars and not (before.isspace() and after.isspace())
        elif ch == "_":
            escape = lows and not (before.isalnum() and after.isalnum())
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
        if escape:
            out.append(text[done:i])
            out.append("\\")
            done = i
    out.append(text[done:])
    return "".join(out)


def escape_line_start(line: str, *, continuation: bool = False) -> str:
    """``line`` (already escaped inline) with block markup at its start escaped. On a
    paragraph's ``continuation`` line an ordered list item can start only from 1: CommonMark
    lets no other number interrupt a paragraph ("... in\\n2014. The ..." is one paragraph)."""
    ordered = _ORDERED.match(line)
    if ordered:
        if continuation and int(ordered.group(1)) != 1:
            return line
        return f"{ordered.group(1)}\\{line[ordered.end(1) :]}"
    if _LEADING.match(line):
        return "\\" + line
    return line


def escape_heading(text: str) -> str:
    """A heading's text: inline markup escaped, and a trailing run of ``#`` kept as text."""
    return _CLOSING.sub(lambda m: m.group(1) + "\\" + m.group(2), escape_inline(text))
