"""The content-stream lexer: tokens, strings, names, structures, inline images, damage."""

from __future__ import annotations

import zlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pdfbuilder import inline_image

from pdfthin.engine.content.lexer import MAX_NESTING, MAX_OPERANDS, iter_operations, read_literal


def ops(data: bytes) -> list[tuple[bytes, list[Any]]]:
    return list(iter_operations(data))


def only(data: bytes) -> list[Any]:
    """The operands of the one operation in ``data``."""
    result = ops(data)
    assert len(result) == 1, result
    return result[0][1]


# --- operators and operands -------------------------------------------------------------------


def test_operators_and_numbers() -> None:
    assert ops(b"1 0 0 1 72.5 -3 cm q Q") == [
        (b"cm", [1.0, 0.0, 0.0, 1.0, 72.5, -3.0]),
        (b"q", []),
        (b"Q", []),
    ]


@pytest.mark.parametrize(
    ("token", "value"),
    [
        (b"0", 0.0),
        (b"-2.5", -2.5),
        (b".5", 0.5),
        (b"-.25", -0.25),
        (b"+3", 3.0),
        (b"4.", 4.0),
        (b"007", 7.0),
    ],
)
def test_number_forms(token: bytes, value: float) -> None:
    assert only(token + b" w") == [value]
    assert isinstance(only(token + b" w")[0], float)


def test_operators_with_quote_characters_and_stars() -> None:
    result = ops(b"(a) ' 1 2 (b) \" T* f* W* B* b*")
    assert [op for op, _ in result] == [b"'", b'"', b"T*", b"f*", b"W*", b"B*", b"b*"]
    assert result[1][1] == [1.0, 2.0, b"b"]


def test_keywords_true_false_null_are_operands() -> None:
    assert only(b"true false null op") == [True, False, None]


def test_tokens_need_no_whitespace_between_delimiters() -> None:
    assert ops(b"/Span<</ActualText(x)>>BDC[(a)-20(b)]TJ/F1 9 Tf") == [
        (b"BDC", ["/Span", {"/ActualText": b"x"}]),
        (b"TJ", [[b"a", -20.0, b"b"]]),
        (b"Tf", ["/F1", 9.0]),
    ]


def test_number_glued_to_a_word_is_a_word() -> None:
    # "1.2.3" and "--5" are not numbers; they must not leak into the next operator's operands.
    assert ops(b"1.2.3 x") == [(b"1.2.3", []), (b"x", [])]
    assert ops(b"--5 0 Td") == [(b"--5", []), (b"Td", [0.0])]


# --- literal strings --------------------------------------------------------------------------


def test_literal_nested_parentheses() -> None:
    assert only(b"(a(b(c))d) Tj") == [b"a(b(c))d"]


def test_literal_unbalanced_escaped_parentheses() -> None:
    assert only(rb"(a\(b\)\)c) Tj") == [b"a(b))c"]


def test_literal_every_named_escape() -> None:
    assert only(rb"(\n\r\t\b\f\(\)\\) Tj") == [b"\n\r\t\b\f()\\"]


@pytest.mark.parametrize(
    ("escape", "value"),
    [
        (rb"\101", b"A"),
        (rb"\7", b"\x07"),
        (rb"\07", b"\x07"),
        (rb"\0053", b"\x053"),  # at most three octal digits
        (rb"\377", b"\xff"),
        (rb"\777", b"\xff"),  # overflow keeps the low byte
        (rb"\18", b"\x018"),
    ],
)
def test_literal_octal_escapes(escape: bytes, value: bytes) -> None:
    assert only(b"(" + escape + b") Tj") == [value]


def test_literal_unknown_escape_drops_the_backslash() -> None:
    assert only(rb"(\q\8) Tj") == [b"q8"]


def test_literal_line_continuations() -> None:
    assert only(b"(one\\\ntwo\\\r\nthree\\\rfour) Tj") == [b"onetwothreefour"]


def test_literal_end_of_line_is_a_single_newline() -> None:
    # PDF 32000-1, 7.3.4.2: an unescaped CR, LF or CR LF inside a literal string is read as
    # one LF byte.
    assert only(b"(a\r\nb\rc\nd) Tj") == [b"a\nb\nc\nd"]


def test_literal_binary_bytes_pass_through() -> None:
    assert only(b"(\x00\xff\x80) Tj") == [b"\x00\xff\x80"]


def test_read_literal_returns_end_position() -> None:
    data = b"(ab(c)d) rest"
    value, end = read_literal(data, 1)
    assert value == b"ab(c)d"
    assert data[end:] == b" rest"


def test_read_literal_unterminated_runs_to_the_end() -> None:
    assert read_literal(b"(abc", 1) == (b"abc", 4)
    assert read_literal(b"(abc\\", 1) == (b"abc", 5)


# --- hex strings ------------------------------------------------------------------------------


def test_hex_string_with_whitespace_and_mixed_case() -> None:
    assert only(b"<48 65\n6c6C\t6F> Tj") == [b"Hello"]


def test_hex_string_odd_length_pads_with_zero() -> None:
    assert only(b"<414> Tj") == [b"A@"]


def test_empty_hex_string() -> None:
    assert only(b"<> Tj") == [b""]


def test_invalid_hex_string_does_not_swallow_the_stream() -> None:
    result = ops(b"<zz> Tj (ok) Tj")
    assert result[-1] == (b"Tj", [b"ok"])


# --- names ------------------------------------------------------------------------------------


def test_names_keep_their_slash_and_decode_hash_escapes() -> None:
    assert only(b"/F1 /A#20B /#41#42 /Lime#2fGreen op") == ["/F1", "/A B", "/AB", "/Lime/Green"]


def test_name_with_bad_hash_escape_is_kept_verbatim() -> None:
    assert only(b"/x#zz op") == ["/x#zz"]


def test_empty_name() -> None:
    assert only(b"/ 1 op") == ["/", 1.0]


# --- arrays and dictionaries ------------------------------------------------------------------


def test_arrays_and_dictionaries_nest() -> None:
    assert only(b"[1 (s) /N [true false null] << /K 1 /L [2] /D << /E 3 >> >>] op") == [
        [1.0, b"s", "/N", [True, False, None], {"/K": 1.0, "/L": [2.0], "/D": {"/E": 3.0}}]
    ]


def test_dictionary_with_odd_item_count_drops_the_dangling_key() -> None:
    assert only(b"<< /A 1 /B >> op") == [{"/A": 1.0}]


def test_unbalanced_closing_brackets_are_ignored() -> None:
    assert ops(b"] >> 1 2 m") == [(b"m", [1.0, 2.0])]


def test_unclosed_array_is_closed_by_an_operator() -> None:
    # A damaged stream: the array never closes; the operator still comes out with it.
    assert ops(b"[(a) (b) Tj 1 2 m") == [(b"Tj", [[b"a", b"b"]]), (b"m", [1.0, 2.0])]


def test_nesting_is_bounded() -> None:
    deep = b"[" * (MAX_NESTING + 50) + b"1" + b"]" * (MAX_NESTING + 50) + b" op"
    result = ops(deep)
    assert result[-1][0] == b"op"
    depth = 0
    value: Any = result[-1][1]
    while isinstance(value, list) and value:
        depth += 1
        value = value[0]
    assert depth <= MAX_NESTING + 1


def test_operand_count_is_bounded() -> None:
    result = ops(b"1 " * (MAX_OPERANDS + 100) + b"op")
    assert result == [(b"op", [1.0] * MAX_OPERANDS)]


def test_braces_of_calculator_functions_are_ignored() -> None:
    assert ops(b"{ 1 2 } 3 w") == [(b"w", [1.0, 2.0, 3.0])]


# --- comments and whitespace ------------------------------------------------------------------


def test_comments_run_to_the_end_of_line() -> None:
    assert ops(b"% a comment (not a string\n1 2 m % trailing ) too\r3 4 l %x\r\n5 w") == [
        (b"m", [1.0, 2.0]),
        (b"l", [3.0, 4.0]),
        (b"w", [5.0]),
    ]


def test_all_pdf_whitespace_separates_tokens() -> None:
    assert only(b"1\x002\t3\n4\x0c5\r6 7 op") == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]


def test_percent_inside_a_string_is_not_a_comment() -> None:
    assert only(b"(100%) Tj") == [b"100%"]


def test_empty_and_whitespace_only_streams() -> None:
    assert ops(b"") == []
    assert ops(b" \n\t") == []


@pytest.mark.parametrize(
    ("stream", "expected"),
    [
        (b" \n\t% only a comment\n", []),
        (b"1 2 m % trailing comment", [b"m"]),
        (b"0 0 m 10 0 l % then stroke: S", [b"m", b"l"]),
        (b"BT /F1 12 Tf ET\n%%EOF", [b"BT", b"Tf", b"ET"]),
    ],
)
def test_a_comment_at_the_end_of_a_stream_yields_no_operator(
    stream: bytes, expected: list[bytes]
) -> None:
    # The comment's last characters must never come out as an operator ("t", "S", "F"...).
    assert [op for op, _ in ops(stream)] == expected


# --- inline images ----------------------------------------------------------------------------


def test_inline_image_uses_full_key_names_and_skips_data() -> None:
    image = inline_image(2, 2, b"\x00\x01\x02\x03")
    assert ops(b"q " + image + b" Q") == [
        (b"q", []),
        (
            b"BI",
            [
                {
                    "/Width": 2.0,
                    "/Height": 2.0,
                    "/ColorSpace": "/G",
                    "/BitsPerComponent": 8.0,
                },
                b"\x00\x01\x02\x03",
            ],
        ),
        (b"Q", []),
    ]


def test_inline_image_abbreviations() -> None:
    data = b"BI /W 1 /H 1 /BPC 8 /CS /G /D [1 0] /DP << /K -1 >> /F /AHx /I true ID 00>\nEI n"
    params = ops(data)[0][1][0]
    assert params == {
        "/Width": 1.0,
        "/Height": 1.0,
        "/BitsPerComponent": 8.0,
        "/ColorSpace": "/G",
        "/Decode": [1.0, 0.0],
        "/DecodeParms": {"/K": -1.0},
        "/Filter": "/AHx",
        "/Interpolate": True,
    }
    assert ops(data)[1] == (b"n", [])


def test_inline_image_with_computable_size_and_ei_inside_data() -> None:
    # Unfiltered 4x1 grey: exactly four bytes, which here spell "a EI". The lexer must trust
    # the size and not stop at the first "EI".
    image = inline_image(4, 1, b"a EI")
    assert ops(image + b" 1 0 0 1 5 5 cm") == [
        (
            b"BI",
            [
                {"/Width": 4.0, "/Height": 1.0, "/ColorSpace": "/G", "/BitsPerComponent": 8.0},
                b"a EI",
            ],
        ),
        (b"cm", [1.0, 0.0, 0.0, 1.0, 5.0, 5.0]),
    ]


def test_inline_image_rgb_size_with_ei_inside() -> None:
    pixels = b" EI Q\n EI q\n"  # 12 bytes = 2 x 2 x RGB, printable like operators
    image = inline_image(2, 2, pixels, color_space="/RGB")
    assert ops(image + b" (x) Tj")[1:] == [(b"Tj", [b"x"])]


def test_inline_image_mask_has_one_bit_per_pixel() -> None:
    # A 16x2 mask is 4 bytes at one bit per pixel; here they spell " EI ", which a scan for
    # "EI" would take for the end of the data.
    image = inline_image(16, 2, b" EI ", image_mask=True)
    result = ops(image + b" (y) Tj")
    assert result == [
        (b"BI", [{"/Width": 16.0, "/Height": 2.0, "/ImageMask": True}, b" EI "]),
        (b"Tj", [b"y"]),
    ]


def test_inline_image_with_length_key() -> None:
    pixels = zlib.compress(b"\x00" * 50 + b" EI " + b"\x00" * 50)
    image = inline_image(10, 10, pixels, filter="/Fl", length=True)
    result = ops(image + b" (after) Tj")
    assert result[0][1][0]["/Length"] == float(len(pixels))
    assert result[0][1][0]["/Filter"] == "/Fl"
    assert result[1] == (b"Tj", [b"after"])


def test_inline_image_filtered_data_with_binary_ei_is_skipped() -> None:
    # Filtered data without /L: the real EI is the one followed by operators, not one inside
    # binary pixels.
    pixels = b"\x8f\x01 EI \x00\x9c\xfe\x00\x10" + bytes(range(200, 256))
    image = inline_image(4, 4, pixels, filter="/DCT")
    result = ops(image + b" (after) Tj")
    assert [op for op, _ in result] == [b"BI", b"Tj"]
    assert result[1][1] == [b"after"]


def test_inline_image_array_filter() -> None:
    image = inline_image(2, 1, b"0000>", filter=["/AHx"])
    result = ops(image + b" Q")
    assert result[0][1][0]["/Filter"] == ["/AHx"]
    assert result[1] == (b"Q", [])


def test_inline_image_without_id() -> None:
    assert ops(b"BI /W 1 /H 1 EI (z) Tj") == [
        (b"BI", [{"/Width": 1.0, "/Height": 1.0}, b""]),
        (b"Tj", [b"z"]),
    ]


def test_inline_image_truncated() -> None:
    assert ops(b"BI /W 100 /H 100 /CS /G /BPC 8 ID \x00\x01") == [
        (
            b"BI",
            [
                {"/Width": 100.0, "/Height": 100.0, "/ColorSpace": "/G", "/BitsPerComponent": 8.0},
                b"\x00\x01",
            ],
        )
    ]


# --- damaged streams --------------------------------------------------------------------------


def test_stray_closing_parenthesis_and_angle_are_skipped() -> None:
    assert ops(b") (x) Tj ) > 1 0 0 1 0 0 cm") == [
        (b"Tj", [b"x"]),
        (b"cm", [1.0, 0.0, 0.0, 1.0, 0.0, 0.0]),
    ]


@pytest.mark.parametrize("setter", [b"0 Tc", b"2 Tw", b"100 Tz", b"0.5 g", b"1 0 0 rg", b"0 Tr"])
def test_text_state_operator_inside_tj_array_is_dropped(setter: bytes) -> None:
    result = ops(b"[(a) " + setter + b" (b)] TJ (c) Tj")
    assert [op for op, _ in result] == [b"TJ", b"Tj"]
    strings = [item for item in result[0][1][0] if isinstance(item, bytes)]
    assert strings == [b"a", b"b"]


def test_other_operator_inside_array_closes_it() -> None:
    result = ops(b"[(a) 0 Td (b)] TJ")
    assert result[0] == (b"Td", [[b"a", 0.0]])
    assert result[-1][0] == b"TJ"


def test_unterminated_string_at_end() -> None:
    assert ops(b"(x) Tj (abc") == [(b"Tj", [b"x"])]


def test_control_and_high_bytes_between_operators() -> None:
    result = ops(b"\x01\x02 1 w \xff\xfe 2 w")
    assert (b"w", [1.0]) in result
    assert result[-1] == (b"w", [2.0])


# --- properties -------------------------------------------------------------------------------

_VALUE = (float, bytes, str, bool, type(None), list, dict)


def _check_value(value: Any) -> None:
    assert isinstance(value, _VALUE), value
    if isinstance(value, str):
        assert value.startswith("/")
    if isinstance(value, list):
        for item in value:
            _check_value(item)
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str) and key.startswith("/")
            _check_value(item)


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=400))
def test_iter_operations_never_raises_on_arbitrary_bytes(data: bytes) -> None:
    for op, operands in iter_operations(data):
        assert isinstance(op, bytes) and op
        assert isinstance(operands, list)
        assert len(operands) <= MAX_OPERANDS
        for value in operands:
            _check_value(value)


_TOKENS = st.sampled_from(
    [
        b"(",
        b")",
        b"<",
        b">",
        b"<<",
        b">>",
        b"[",
        b"]",
        b"{",
        b"}",
        b"/",
        b"%",
        b"\\",
        b"\n",
        b" ",
        b"BI",
        b"ID",
        b"EI",
        b"Tj",
        b"TJ",
        b"1",
        b"-.5",
        b"/N#4",
        b"<4F",
        b"(a\\",
        b"\x00",
        b"\xff",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_TOKENS, max_size=60))
def test_iter_operations_never_raises_on_token_soup(tokens: list[bytes]) -> None:
    data = b" ".join(tokens)
    for op, operands in iter_operations(data):
        assert isinstance(op, bytes)
        for value in operands:
            _check_value(value)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=60))
def test_literal_string_round_trip(payload: bytes) -> None:
    escaped = payload.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
    escaped = escaped.replace(b"\r", b"\\r")
    assert only(b"(" + escaped + b") Tj") == [payload]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=60))
def test_hex_string_round_trip(payload: bytes) -> None:
    assert only(b"<" + payload.hex().encode() + b"> Tj") == [payload]


def test_inline_image_palette_string_survives_with_any_byte() -> None:
    # An indexed colour space's palette is a string that may hold "]" and ">>" bytes.
    data = b"BI /W 2 /H 1 /CS [/I /RGB 1 (\x00]\xff>>\x02\x03)] /BPC 8 ID \x00\x01 EI Q"
    result = ops(data)
    params, image = result[0][1]
    assert params["/ColorSpace"] == ["/I", "/RGB", 1.0, b"\x00]\xff>>\x02\x03"]
    assert image == b"\x00\x01"
    assert result[1] == (b"Q", [])


def test_inline_image_unclosed_array_stops_at_id() -> None:
    result = ops(b"BI /W 2 /H 1 /D [1 0 ID \x00\x01 EI Q")
    assert result[0][1] == [{"/Width": 2.0, "/Height": 1.0, "/Decode": [1.0, 0.0]}, b"\x00\x01"]
    assert result[1] == (b"Q", [])


@pytest.mark.parametrize(
    "entry", [b"/L " + b"9" * 80, b"/L 1e25", b"/BPC " + b"9" * 80, b"/BPC -" + b"9" * 80]
)
def test_an_absurd_declared_image_size_does_not_stop_the_page(entry: bytes) -> None:
    # A length or bit depth far past the data used to overflow the search for EI.
    ops = list(iter_operations(b"BI /W 1 /H 1 " + entry + b" ID x EI BT (after) Tj ET"))
    assert ops[0][0] == b"BI" and ops[0][1][1] == b"x"
    assert ops[1:] == [(b"BT", []), (b"Tj", [b"after"]), (b"ET", [])]


# --- scanning by windows ----------------------------------------------------------------------


def test_a_comment_before_a_stray_byte_is_skipped_whole() -> None:
    # A stray byte after a comment once sent the lexer back to the comment's second byte, and
    # the comment's words came out as operators.
    assert ops(b"(a) Tj % x (y) re\n) (b) Tj %z\r> 1 w") == [
        (b"Tj", [b"a"]),
        (b"Tj", [b"b"]),
        (b"w", [1.0]),
    ]


# Every kind of token that may hold white space (and so may run past the end of a window),
# with the other kinds between them.
_STRADDLING = (
    b"q 1 0 0 1 72 720 cm /F1 12 Tf (a string with spaces) Tj "
    b"[(nested (paren) string) -250 (x\\) y) 120 <48 65 6c 6c 6f>] TJ "
    b"% a comment with words Tj re\n"
    b"BI /W 2 /H 1 /CS /G /BPC 8 ID \x00 \x01 EI "
    b"<</MCID 3 /ActualText (a b)>> BDC (z) ' EMC Q\r\n"
)


def _scanned(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int, int]]:
    """Records each window the lexer scans: ``(start, end, tokens)``."""
    from pdfthin.engine.content import lexer

    seen: list[tuple[int, int, int]] = []
    pattern = lexer._SCAN

    class Recording:
        def findall(self, data: bytes, pos: int, end: int) -> list[bytes]:
            found = pattern.findall(data, pos, end)
            seen.append((pos, end, len(found)))
            return found

    monkeypatch.setattr(lexer, "_SCAN", Recording())
    return seen


@pytest.mark.parametrize("window", [(1, 2), (4, 16), (64, 1 << 16)])
def test_where_the_windows_end_does_not_change_the_operations(
    window: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    from pdfthin.engine.content import lexer

    data = _STRADDLING * 40
    monkeypatch.setattr(lexer, "WINDOW_MIN", 1 << 30)
    monkeypatch.setattr(lexer, "WINDOW_MAX", 1 << 30)
    whole = ops(data)
    assert len(whole) == 40 * 10 and (b"Tj", [b"a string with spaces"]) in whole
    assert (b"re", []) not in whole  # the comment's words are no operator
    monkeypatch.setattr(lexer, "WINDOW_MIN", window[0])
    monkeypatch.setattr(lexer, "WINDOW_MAX", window[1])
    seen = _scanned(monkeypatch)
    assert ops(data) == whole
    assert len(seen) > 1


def test_a_window_holds_a_bounded_number_of_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    from pdfthin.engine.content import lexer

    seen = _scanned(monkeypatch)
    data = b"1 " * 500_000 + b"w"
    result = ops(data)
    assert len(result) == 1 and len(result[0][1]) == MAX_OPERANDS
    assert max(tokens for _, _, tokens in seen) <= lexer.WINDOW_MAX // 2 + 1


@pytest.mark.parametrize(
    "unit",
    [
        b")",  # stray bytes (each once cost a copy of the rest of the stream)
        b"<ab ",  # a "<" that starts no hex string
        b"(a(b)c) ",  # strings read again from the data
        b"(x(y)% z)w\n",  # ... which end inside a token of the window: scanned again
        b"BI /W 1 /H 1 ID %x EI ",  # inline images read past
        b"BI /W 1 /H 1 ID x EI ",  # inline images read past
        b"% c\n)",  # comments before stray bytes
    ],
)
def test_damage_is_scanned_a_bounded_number_of_times(
    unit: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Work, not time: every byte is scanned at most a few times however often the lexer has
    # to read on from the data itself.
    seen = _scanned(monkeypatch)
    data = unit * (200_000 // len(unit))
    list(iter_operations(data + b" Q"))
    assert sum(end - start for start, end, _ in seen) <= 3 * len(data)
