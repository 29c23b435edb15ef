"""Content-stream lexer: bytes in, ``(operator, operands)`` pairs out.

Operand types: numbers are ``float``, names are ``str`` with their leading ``/`` (as pypdf
spells dictionary keys), strings are ``bytes``, arrays are ``list``, dictionaries are ``dict``,
and ``true``/``false``/``null`` are ``True``/``False``/``None``.

One compiled regular expression does the scanning so that the per-token work stays in C; only
literal strings with escapes and inline image data need Python-level loops. Broken input never
raises: stray bytes are skipped and the lexer moves on, so a damaged stream still yields the
operators around the damage.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

_WS = rb"\x00\t\n\x0c\r "
_DELIM = rb"()<>\[\]{}/%"
_REGULAR = rb"[^" + _WS + _DELIM + rb"]"

# A comment runs to the end of its line; the lookahead stops the regex engine from
# backtracking into it and reading its tail as an operator.
_COMMENT = rb"%[^\r\n]*(?=[\r\n]|\Z)"
_TOKEN = re.compile(
    rb"[" + _WS + rb"]*(?:" + _COMMENT + rb"[" + _WS + rb"]*)*"
    rb"(?:"
    rb"([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?!" + _REGULAR + rb")|"  # 1 number
    rb"/(" + _REGULAR + rb"*)|"  # 2 name
    # 3 a literal string without escapes, nested parentheses or CRs (most of them): its
    # bytes as they stand, read at once; 4 the start of any other, for read_literal's loop
    rb"\(([^()\\\r]*)\)|(\()|"
    rb"(<<|>>|\[|\]|\{|\})|"  # 5 structure
    rb"<([0-9A-Fa-f" + _WS + rb"]*)>|"  # 6 hex string
    rb"(" + _REGULAR + rb"+)"  # 7 keyword / operator
    rb")"
)
_LITERAL_SPECIAL = re.compile(rb"[()\\]")
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
_EI = re.compile(rb"[" + _WS + rb"]EI(?=[" + _WS + rb"]|\Z)")
_PRINTABLE_TAIL = re.compile(rb"[\x09\x0a\x0d\x20-\x7e]*\Z")

_ESCAPES = {
    ord("n"): b"\n",
    ord("r"): b"\r",
    ord("t"): b"\t",
    ord("b"): b"\b",
    ord("f"): b"\f",
    ord("("): b"(",
    ord(")"): b")",
    ord("\\"): b"\\",
}
_IGNORED_IN_ARRAY = frozenset(
    b"Tc Tw Tz TL Ts Tr g G rg RG k K cs CS sc SC scn SCN gs w d i j J M ri".split()
)
_KEYWORD_VALUES: dict[bytes, Any] = {b"true": True, b"false": False, b"null": None}

#: Bounds that keep a hostile stream from building huge operand structures.
MAX_OPERANDS = 4096
MAX_NESTING = 32

#: Abbreviated inline-image keys (PDF 32000-1, table 93) and their full names.
INLINE_IMAGE_KEYS = {
    "/BPC": "/BitsPerComponent",
    "/CS": "/ColorSpace",
    "/D": "/Decode",
    "/DP": "/DecodeParms",
    "/F": "/Filter",
    "/H": "/Height",
    "/IM": "/ImageMask",
    "/I": "/Interpolate",
    "/W": "/Width",
    "/L": "/Length",
}
#: Abbreviated names of inline images' colour spaces and filters (PDF 32000-1, tables 93, 94).
INLINE_NAMES = {
    "/G": "/DeviceGray",
    "/RGB": "/DeviceRGB",
    "/CMYK": "/DeviceCMYK",
    "/I": "/Indexed",
    "/AHx": "/ASCIIHexDecode",
    "/A85": "/ASCII85Decode",
    "/LZW": "/LZWDecode",
    "/Fl": "/FlateDecode",
    "/RL": "/RunLengthDecode",
    "/CCF": "/CCITTFaxDecode",
    "/DCT": "/DCTDecode",
}
_CS_COMPONENTS = {
    "/G": 1,
    "/DeviceGray": 1,
    "/RGB": 3,
    "/DeviceRGB": 3,
    "/CMYK": 4,
    "/DeviceCMYK": 4,
    "/I": 1,
    "/Indexed": 1,
}


def _name(raw: bytes) -> str:
    if b"#" in raw:
        raw = _NAME_ESCAPE.sub(lambda m: bytes((int(m.group(1), 16),)), raw)
    return "/" + raw.decode("latin-1")


class _LiteralBuffer(bytearray):
    """Collects a literal string; raw (unescaped) end-of-line markers CR, LF and CR LF are
    all read as LF (PDF 32000-1, 7.3.4.2)."""

    def __iadd__(self, chunk: bytes) -> _LiteralBuffer:  # type: ignore[override,misc]
        if b"\r" in chunk:
            chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        self.extend(chunk)
        return self

    def escaped(self, chunk: bytes) -> None:
        self.extend(chunk)


def read_literal(data: bytes, pos: int) -> tuple[bytes, int]:
    """Read a literal string whose opening ``(`` ends just before ``pos``.

    Returns the string's bytes and the position after its closing ``)`` (or the end of the
    data when it is never closed).
    """
    depth = 1
    out = _LiteralBuffer()
    search = _LITERAL_SPECIAL.search
    n = len(data)
    while True:
        m = search(data, pos)
        if m is None:
            out += data[pos:]
            return bytes(out), n
        i = m.start()
        ch = data[i]
        if ch == 0x5C:  # backslash
            out += data[pos:i]
            if i + 1 >= n:
                return bytes(out), n
            nxt = data[i + 1]
            esc = _ESCAPES.get(nxt)
            if esc is not None:
                out.escaped(esc)
                pos = i + 2
            elif 0x30 <= nxt <= 0x37:
                j = i + 1
                end = min(j + 3, n)
                k = j
                while k < end and 0x30 <= data[k] <= 0x37:
                    k += 1
                out.append(int(data[j:k], 8) & 0xFF)
                pos = k
            elif nxt == 0x0D:  # line continuation: \<CR> or \<CR><LF>
                pos = i + 3 if i + 2 < n and data[i + 2] == 0x0A else i + 2
            elif nxt == 0x0A:
                pos = i + 2
            else:  # unknown escape: the backslash is ignored
                pos = i + 1
            continue
        if ch == 0x28:  # (
            depth += 1
            out += data[pos : i + 1]
            pos = i + 1
            continue
        depth -= 1  # )
        if depth == 0:
            out += data[pos:i]
            return bytes(out), i + 1
        out += data[pos : i + 1]
        pos = i + 1


def _hex(raw: bytes) -> bytes:
    digits = raw.translate(None, _SPACE)
    if len(digits) % 2:
        digits += b"0"
    return bytes.fromhex(digits.decode("ascii"))


def _search_ei(data: bytes, pos: int) -> re.Match[bytes] | None:
    # A declared length can put ``pos`` far past the data (or before it): search from where
    # the data is, instead of overflowing the regex engine's index.
    return _EI.search(data, min(max(pos, 0), len(data) + 1))


def _inline_image_end(data: bytes, start: int, params: dict[str, Any]) -> int:
    """Return where the image data starting at ``start`` ends (the offset of ``EI``)."""
    length = params.get("/Length")
    if isinstance(length, float) and length >= 0:
        end = start + int(length)
        m = _search_ei(data, end - 1 if end > start else end)
        if m is not None and m.start() - end < 16:
            return m.start() + 1
    if params.get("/Filter") in (None, []):
        # Unfiltered data has a computable size: trust it over a scan for "EI", which may
        # occur inside the pixels.
        width = params.get("/Width")
        height = params.get("/Height")
        bpc = 1.0 if params.get("/ImageMask") is True else params.get("/BitsPerComponent", 8.0)
        comps = _CS_COMPONENTS.get(str(params.get("/ColorSpace", "/G")), 1)
        if (
            isinstance(width, float)
            and isinstance(height, float)
            and isinstance(bpc, float)
            and 0 < width < 1e6
            and 0 < height < 1e6
        ):
            size = ((int(width) * comps * int(bpc) + 7) // 8) * int(height)
            m = _search_ei(data, start + size - 1 if size else start)
            if m is not None and m.start() - (start + size) < 16:
                return m.start() + 1
    pos = start
    while True:
        m = _EI.search(data, pos)
        if m is None:
            return len(data)
        # "EI" can occur inside compressed pixels; the real one is followed by operators.
        tail = data[m.end() : m.end() + 48]
        if _PRINTABLE_TAIL.match(tail):
            return m.start() + 1
        pos = m.end()


#: The lexer scans the stream a window at a time: one ``findall`` per window keeps the per-token
#: work in C, and the window bounds the token list a hostile stream can build. A window ends
#: just after a white-space byte at least ``size`` bytes on; ``size`` starts at WINDOW_MIN,
#: doubles up to WINDOW_MAX while windows are read through, and shrinks to twice the distance
#: read when a string or inline image makes the lexer restart mid-window, so that restarts
#: never rescan more than they read.
WINDOW_MIN = 16
WINDOW_MAX = 1 << 16
#: Within one stream, tokens up to this long are classified once and remembered (numbers,
#: names, operators: most tokens of a stream repeat), up to this many of them.
_MEMO_TOKEN_BYTES = 24
_MEMO_ENTRIES = 1 << 16

# Every byte belongs to one token, and a token carries the white space after it, so the
# tokens of a window add up to the window and a token's offset is the sum of the ones
# before it. The tokens are _TOKEN's, but a number is read as the run of regular bytes it
# is (_classify tells it by its shape): _TOKEN's number must have no regular byte after
# it, so it always spans that run, and a run no number spans is a keyword either way.
# Matched first, the run (numbers and operators, most of a stream) tries no other
# alternative. A literal string may hold escapes here (read_literal decodes them), and
# "[\s\S]" is a byte no token starts with: a stray one, or the "(" of a string with nested
# parentheses or one that runs past the window.
_SCAN = re.compile(
    rb"(?:" + _REGULAR + rb"+|"
    rb"\((?:[^()\\]|\\[\s\S])*\)|"
    rb"/" + _REGULAR + rb"*|"
    rb"<<|>>|[\[\]{}]|"
    rb"<[0-9A-Fa-f" + _WS + rb"]*>|"
    rb"%[^\r\n]*|"
    rb"[\s\S]"
    rb")[" + _WS + rb"]*"
)
_CUT = re.compile(rb"[" + _WS + rb"]")
_LINE_END = re.compile(rb"[\r\n]")
_HEX_STRING = re.compile(rb"<([0-9A-Fa-f" + _WS + rb"]*)>")
_NUMBER = re.compile(rb"[+-]?(?:\d+(?:\.\d*)?|\.\d+)\Z")
_SPACE = b"\x00\t\n\x0c\r "
# What a token is, by type: a float (number), a str (name), bytes (a keyword or an
# operator) or one of these (structure).
_OPEN_ARRAY, _OPEN_DICT, _CLOSE_ARRAY, _CLOSE_DICT, _BRACE = range(5)
_STRUCTURE = {b"[": _OPEN_ARRAY, b"<<": _OPEN_DICT, b"]": _CLOSE_ARRAY, b">>": _CLOSE_DICT}


def _classify(token: bytes) -> Any:
    """A number, name, keyword or structure token (its white space stripped), or ``None``
    for strings, comments and stray bytes."""
    word = token.rstrip(_SPACE)
    if not word:
        return None  # white space a window cut from the token before it
    first = word[0]
    if first in b"+-.0123456789" and _NUMBER.match(word):
        return float(word)
    if first in b"()<>%[]{}":
        return _STRUCTURE.get(word, _BRACE) if first in b"[]{}" or word in _STRUCTURE else None
    if first == 0x2F:  # /
        return _name(word[1:])
    return word


def _skip_to(
    data: bytes,
    tokens: list[bytes],
    walk: Iterator[tuple[int, bytes]],
    i: int,
    at: int,
    resume: int,
) -> tuple[int, int] | None:
    """Where the window's tokens go on after token ``i`` (at offset ``at``), read on from the
    data to ``resume``: the token that starts there, or after white space from there. Skips
    ``walk`` to just before it and returns its index and offset; ``None`` when no token
    starts there (the lexer scans again from ``resume``)."""
    j, stop = i, at
    while stop < resume and j < len(tokens):
        stop += len(tokens[j])
        j += 1
    if stop < resume or data[resume:stop].strip(_SPACE):
        return None
    for _ in range(i + 1, j):
        next(walk)
    return j, stop


def iter_operations(data: bytes) -> Iterator[tuple[bytes, list[Any]]]:
    """Yield ``(operator, operands)`` for each operator in the content stream ``data``.

    Inline images come out as one ``(b"BI", [params])`` operation whose ``params`` use full
    key names; their binary data is skipped.
    """
    operands: list[Any] = []
    stack: list[tuple[list[Any], bool]] = []  # (outer operands, is_dict)
    memo: dict[bytes, Any] = {}
    pos = 0
    n = len(data)
    size = WINDOW_MIN
    while pos < n:
        cut = _CUT.search(data, pos + size) if pos + size < n else None
        end = cut.end() if cut is not None else n
        tokens = _SCAN.findall(data, pos, end)
        resume = end
        # The offset of token ``i`` is ``pos`` plus the lengths before it; asked only for
        # the rare tokens that need it, counted on from the last one asked.
        known, at = 0, pos
        walk = enumerate(tokens)
        for i, token in walk:
            kind = memo.get(token)
            if kind is None:
                first = token[0]
                if first == 0x28:  # ( a string (strings are never remembered: they vary)
                    word = token.rstrip(_SPACE)
                    if len(word) > 1:
                        body = word[1:-1]
                        if b"\\" in body or b"\r" in body:
                            body = read_literal(word, 1)[0]
                        if len(operands) < MAX_OPERANDS:
                            operands.append(body)
                        continue
                    # Nested parentheses, or a string the window cut: read from the data.
                    at += sum(map(len, tokens[known:i]))
                    known = i
                    value, close = read_literal(data, at + 1)
                    if len(operands) < MAX_OPERANDS:
                        operands.append(value)
                    after = _skip_to(data, tokens, walk, i, at, close)
                    if after is None:
                        resume = close
                        break
                    known, at = after
                    continue
                if first == 0x3C and token[1:2] != b"<":  # < a hex string, not "<<"
                    word = token.rstrip(_SPACE)
                    if len(word) > 1:
                        if len(operands) < MAX_OPERANDS:
                            operands.append(_hex(word[1:-1]))
                        continue
                    # A hex string the window cut, or a stray "<".
                    at += sum(map(len, tokens[known:i]))
                    known = i
                    m = _HEX_STRING.match(data, at)
                    if m is None:
                        continue
                    if len(operands) < MAX_OPERANDS:
                        operands.append(_hex(m.group(1)))
                    resume = m.end()
                    break
                kind = _classify(token)
                if kind is None:
                    if first == 0x25 and end < n and _LINE_END.search(token) is None:  # %
                        # A comment the window cut (only the last token can be one without
                        # its line end) runs on to the end of its line.
                        m = _LINE_END.search(data, end)
                        resume = m.start() if m is not None else n
                    continue  # a comment, or a stray byte
                if len(token) <= _MEMO_TOKEN_BYTES and len(memo) < _MEMO_ENTRIES:
                    memo[token] = kind
            cls = kind.__class__
            if cls is float:
                if len(operands) < MAX_OPERANDS:
                    operands.append(kind)
            elif cls is bytes:
                if kind in _KEYWORD_VALUES:
                    operands.append(_KEYWORD_VALUES[kind])
                elif stack:
                    # An operator inside an array or dictionary: the stream is damaged. A
                    # state setter (``[(a) 0 Tc (b)] TJ``, seen in real files) is dropped and
                    # the array goes on; anything else closes the open structures so nothing
                    # is lost.
                    if kind in _IGNORED_IN_ARRAY:
                        continue
                    while stack:
                        outer, is_dict = stack.pop()
                        outer.append(_to_dict(operands) if is_dict else operands)
                        operands = outer
                    yield kind, operands
                    operands = []
                elif kind == b"BI":
                    at += sum(map(len, tokens[known:i]))
                    known = i
                    params, image, close = _read_inline_image(data, at + 2)
                    yield b"BI", [params, image]
                    operands = []
                    after = _skip_to(data, tokens, walk, i, at, close)
                    if after is None:
                        resume = close
                        break
                    known, at = after
                else:
                    yield kind, operands
                    operands = []
            elif cls is str:
                if len(operands) < MAX_OPERANDS:
                    operands.append(kind)
            elif kind in (_OPEN_ARRAY, _OPEN_DICT):
                if len(stack) >= MAX_NESTING:
                    continue
                stack.append((operands, kind == _OPEN_DICT))
                operands = []
            elif kind in (_CLOSE_ARRAY, _CLOSE_DICT):
                if not stack:
                    continue
                outer, is_dict = stack.pop()
                outer.append(_to_dict(operands) if is_dict else operands)
                operands = outer
            # "{" and "}" only occur in PostScript calculator functions: ignored.
        else:
            size = min(size * 2, WINDOW_MAX)
            pos = resume
            continue
        size = max(WINDOW_MIN, min(2 * (resume - pos), WINDOW_MAX))
        pos = resume


def _to_dict(items: list[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i in range(0, len(items) - 1, 2):
        key = items[i]
        if isinstance(key, str):
            out[key] = items[i + 1]
    return out


def _read_inline_image(data: bytes, pos: int) -> tuple[dict[str, Any], bytes, int]:
    """Parse an inline image dictionary after ``BI`` and skip its data up to ``EI``.

    Returns the parameters (full key names), the image's bytes and the position after
    ``EI``."""
    items: list[Any] = []
    n = len(data)
    while pos < n:
        value, pos, word = _read_value(data, pos, 0)
        if word == b"ID":
            break
        if word == b"EI":  # no data at all
            return _inline_params(items), b"", pos
        if word is _END:
            return {}, b"", n
        if word is None:
            items.append(value)
    params = _inline_params(items)
    start = pos + 1 if pos < n and data[pos] in b"\x00\t\n\x0c\r " else pos
    end = _inline_image_end(data, start, params)
    # ``end`` is where "EI" starts; the white-space byte before it separates, it is not data.
    # Without any "EI" the data runs to the end of the stream.
    stop = end - 1 if end < n else n
    return params, data[start : max(start, stop)], min(n, end + 2)


_END = b"\x00end"
_CLOSE = b"\x00close"


def _read_value(data: bytes, pos: int, depth: int) -> tuple[Any, int, bytes | None]:
    """One value of an inline image dictionary: ``(value, position after it, keyword)``.

    ``keyword`` is set (and ``value`` is None) for an operator-like word (``ID``, ``EI``), for
    the end of an array or dictionary (``_CLOSE``) and for the end of the data (``_END``).
    Arrays and dictionaries are read recursively, strings with their escapes, so a palette
    written as a string (which may hold any byte, "]" included) survives."""
    m = _TOKEN.match(data, pos)
    if m is None:
        return None, len(data), _END
    pos = m.end()
    kind = m.lastindex
    if kind == 1:
        return float(m.group(1)), pos, None
    if kind == 2:
        return _name(m.group(2)), pos, None
    if kind == 3:
        return m.group(3), pos, None
    if kind == 4:
        value, pos = read_literal(data, pos)
        return value, pos, None
    if kind == 6:
        return _hex(m.group(6)), pos, None
    if kind == 7:
        word = m.group(7)
        if word in _KEYWORD_VALUES:
            return _KEYWORD_VALUES[word], pos, None
        return None, pos, word
    sym = m.group(5)
    if sym in (b"]", b">>"):
        return None, pos, _CLOSE
    if sym in (b"[", b"<<") and depth < MAX_NESTING:
        inner: list[Any] = []
        while True:
            value, pos, word = _read_value(data, pos, depth + 1)
            if word is None:
                inner.append(value)
            elif word is _CLOSE or word is _END or word in (b"ID", b"EI"):
                # An unclosed array stops at ID rather than swallowing the image data.
                if word in (b"ID", b"EI"):
                    return (_to_dict(inner) if sym == b"<<" else inner), pos - 2, None
                break
        return (_to_dict(inner) if sym == b"<<" else inner), pos, None
    return None, pos, None


def _inline_params(items: list[Any]) -> dict[str, Any]:
    raw = _to_dict(items)
    return {INLINE_IMAGE_KEYS.get(k, k): v for k, v in raw.items()}
