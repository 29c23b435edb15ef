//! Content-stream lexer: a port of `pdfthin/engine/content/lexer.py`, token for token.
//!
//! The Python lexer scans with one regular expression; this one reproduces what that
//! expression matches, including its failure cases (a byte no token can start with is skipped
//! after any white space, comments and all). Broken input never panics: every index is
//! checked, every structure is bounded the same way as in Python.

/// An operand, as the Python lexer builds it.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    /// A number (Python `float`).
    Num(f64),
    /// A name, `#xx` escapes decoded, without its leading `/` (Python `str` with the `/`).
    Name(Vec<u8>),
    /// A literal or hexadecimal string (Python `bytes`).
    Str(Vec<u8>),
    /// An array (Python `list`).
    Arr(Vec<Val>),
    /// A dictionary in insertion order, keys without `/` (Python `dict`).
    Dict(Vec<(Vec<u8>, Val)>),
    /// `true` / `false`.
    Bool(bool),
    /// `null`.
    Null,
}

/// Why lexing stopped with an error (the Python lexer raises there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LexError {
    /// `int(inf)` on an inline image's `/Length` or `/BitsPerComponent`: Python raises
    /// `OverflowError("cannot convert float infinity to integer")`.
    Overflow,
}

pub const MAX_OPERANDS: usize = 4096;
pub const MAX_NESTING: usize = 32;

#[inline]
pub fn is_ws(c: u8) -> bool {
    matches!(c, 0x00 | 0x09 | 0x0a | 0x0c | 0x0d | 0x20)
}

#[inline]
fn is_delim(c: u8) -> bool {
    matches!(
        c,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

#[inline]
fn is_regular(c: u8) -> bool {
    !is_ws(c) && !is_delim(c)
}

#[inline]
fn is_hex(c: u8) -> bool {
    c.is_ascii_hexdigit()
}

fn hex_val(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => 0,
    }
}

/// One token of the Python lexer's regular expression (`m.lastindex`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    /// Group 1: a number; `start..end` is its text.
    Number(usize, usize),
    /// Group 2: a name; `start..end` is its raw text after the `/`.
    Name(usize, usize),
    /// Group 3: an opening `(`; the literal string is read separately.
    Literal,
    /// Group 4: `<<`, `>>`, `[`, `]`, `{`, `}`.
    Struct(u8),
    /// Group 5: a hexadecimal string; `start..end` is the text between `<` and `>`.
    Hex(usize, usize),
    /// Group 6: a keyword or operator.
    Keyword(usize, usize),
}

const OPEN_DICT: u8 = b'<';
const CLOSE_DICT: u8 = b'>';

/// White space and comments from `p` on (the regex's leading `[WS]*(?:COMMENT[WS]*)*`).
fn skip_ws_comments(data: &[u8], mut p: usize) -> usize {
    let n = data.len();
    loop {
        while p < n && is_ws(data[p]) {
            p += 1;
        }
        if p < n && data[p] == b'%' {
            while p < n && data[p] != b'\r' && data[p] != b'\n' {
                p += 1;
            }
            continue;
        }
        return p;
    }
}

fn is_number(s: &[u8]) -> bool {
    let mut i = 0;
    let n = s.len();
    if i < n && (s[i] == b'+' || s[i] == b'-') {
        i += 1;
    }
    let ds = i;
    while i < n && s[i].is_ascii_digit() {
        i += 1;
    }
    if i > ds {
        if i < n && s[i] == b'.' {
            i += 1;
            while i < n && s[i].is_ascii_digit() {
                i += 1;
            }
        }
        return i == n;
    }
    if i < n && s[i] == b'.' {
        i += 1;
        let fs = i;
        while i < n && s[i].is_ascii_digit() {
            i += 1;
        }
        return i > fs && i == n;
    }
    false
}

/// Python's `float()` of a number token's text (`[+-]?(\d+(\.\d*)?|\.\d+)`).
fn parse_number(s: &[u8]) -> f64 {
    // The text is ASCII by construction; Rust's parser is correctly rounded like CPython's
    // and reads "5.", ".5", "+5" and over-long digit strings (to infinity) the same way.
    let text = std::str::from_utf8(s).unwrap_or("0");
    text.parse::<f64>().unwrap_or(0.0)
}

/// `_TOKEN.match(data, pos)`: the token and where the match ends, or `None`.
fn match_at(data: &[u8], pos: usize) -> Option<(Tok, usize)> {
    let n = data.len();
    let q = skip_ws_comments(data, pos);
    if q >= n {
        return None;
    }
    let c = data[q];
    if is_regular(c) {
        let mut r = q;
        while r < n && is_regular(data[r]) {
            r += 1;
        }
        if is_number(&data[q..r]) {
            return Some((Tok::Number(q, r), r));
        }
        return Some((Tok::Keyword(q, r), r));
    }
    match c {
        b'/' => {
            let mut r = q + 1;
            while r < n && is_regular(data[r]) {
                r += 1;
            }
            Some((Tok::Name(q + 1, r), r))
        }
        b'(' => Some((Tok::Literal, q + 1)),
        b'<' => {
            if q + 1 < n && data[q + 1] == b'<' {
                return Some((Tok::Struct(OPEN_DICT), q + 2));
            }
            let mut r = q + 1;
            while r < n && (is_hex(data[r]) || is_ws(data[r])) {
                r += 1;
            }
            if r < n && data[r] == b'>' {
                Some((Tok::Hex(q + 1, r), r + 1))
            } else {
                None
            }
        }
        b'>' => {
            if q + 1 < n && data[q + 1] == b'>' {
                Some((Tok::Struct(CLOSE_DICT), q + 2))
            } else {
                None
            }
        }
        b'[' | b']' | b'{' | b'}' => Some((Tok::Struct(c), q + 1)),
        _ => None,
    }
}

/// `_ONLY_WS.match(data, pos)`: nothing but white space and comments to the end.
fn only_ws(data: &[u8], pos: usize) -> bool {
    skip_ws_comments(data, pos) >= data.len()
}

/// A name's raw text with `#xx` escapes decoded (the `/` is not part of it).
pub fn decode_name(raw: &[u8]) -> Vec<u8> {
    if !raw.contains(&b'#') {
        return raw.to_vec();
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'#' && i + 2 < raw.len() && is_hex(raw[i + 1]) && is_hex(raw[i + 2]) {
            out.push(hex_val(raw[i + 1]) * 16 + hex_val(raw[i + 2]));
            i += 3;
        } else {
            out.push(raw[i]);
            i += 1;
        }
    }
    out
}

fn hex_string(raw: &[u8]) -> Vec<u8> {
    let digits: Vec<u8> = raw.iter().copied().filter(|c| !is_ws(*c)).collect();
    let mut out = Vec::with_capacity(digits.len() / 2 + 1);
    let mut i = 0;
    while i < digits.len() {
        let hi = hex_val(digits[i]);
        let lo = if i + 1 < digits.len() {
            hex_val(digits[i + 1])
        } else {
            0
        };
        out.push(hi * 16 + lo);
        i += 2;
    }
    out
}

/// Appends a raw (unescaped) chunk: CR LF and lone CR become LF.
fn push_raw(out: &mut Vec<u8>, chunk: &[u8]) {
    let mut i = 0;
    while i < chunk.len() {
        let c = chunk[i];
        if c == b'\r' {
            out.push(b'\n');
            if i + 1 < chunk.len() && chunk[i + 1] == b'\n' {
                i += 1;
            }
        } else {
            out.push(c);
        }
        i += 1;
    }
}

/// `read_literal`: a literal string whose `(` ends just before `pos`; returns its bytes and
/// the position after its closing `)` (or the end of the data).
pub fn read_literal(data: &[u8], mut pos: usize) -> (Vec<u8>, usize) {
    let n = data.len();
    let mut depth = 1usize;
    let mut out = Vec::new();
    loop {
        let found = data[pos.min(n)..]
            .iter()
            .position(|&c| c == b'(' || c == b')' || c == b'\\')
            .map(|k| pos + k);
        let Some(i) = found else {
            push_raw(&mut out, &data[pos.min(n)..]);
            return (out, n);
        };
        let ch = data[i];
        if ch == b'\\' {
            push_raw(&mut out, &data[pos..i]);
            if i + 1 >= n {
                return (out, n);
            }
            let nxt = data[i + 1];
            let esc = match nxt {
                b'n' => Some(b'\n'),
                b'r' => Some(b'\r'),
                b't' => Some(b'\t'),
                b'b' => Some(0x08),
                b'f' => Some(0x0c),
                b'(' => Some(b'('),
                b')' => Some(b')'),
                b'\\' => Some(b'\\'),
                _ => None,
            };
            if let Some(e) = esc {
                out.push(e);
                pos = i + 2;
            } else if (b'0'..=b'7').contains(&nxt) {
                let j = i + 1;
                let end = (j + 3).min(n);
                let mut k = j;
                let mut value: u32 = 0;
                while k < end && (b'0'..=b'7').contains(&data[k]) {
                    value = value * 8 + u32::from(data[k] - b'0');
                    k += 1;
                }
                out.push((value & 0xff) as u8);
                pos = k;
            } else if nxt == b'\r' {
                pos = if i + 2 < n && data[i + 2] == b'\n' {
                    i + 3
                } else {
                    i + 2
                };
            } else if nxt == b'\n' {
                pos = i + 2;
            } else {
                pos = i + 1;
            }
            continue;
        }
        if ch == b'(' {
            depth += 1;
            push_raw(&mut out, &data[pos..=i]);
            pos = i + 1;
            continue;
        }
        depth -= 1;
        if depth == 0 {
            push_raw(&mut out, &data[pos..i]);
            return (out, i + 1);
        }
        push_raw(&mut out, &data[pos..=i]);
        pos = i + 1;
    }
}

/// `d[key] = value` with Python's dict semantics: a repeated key keeps its first place.
pub fn dict_set(d: &mut Vec<(Vec<u8>, Val)>, key: Vec<u8>, value: Val) {
    if let Some(slot) = d.iter_mut().find(|(k, _)| *k == key) {
        slot.1 = value;
    } else {
        d.push((key, value));
    }
}

/// `_to_dict`: pairs of (name, value); other keys are dropped with their values.
fn to_dict(items: Vec<Val>) -> Val {
    let count = items.len();
    let mut out: Vec<(Vec<u8>, Val)> = Vec::new();
    let mut index: Option<std::collections::HashMap<Vec<u8>, usize>> = None;
    let mut iter = items.into_iter();
    let mut i = 0;
    while i + 1 < count {
        let key = iter.next();
        let value = iter.next();
        i += 2;
        if let (Some(Val::Name(k)), Some(v)) = (key, value) {
            if out.len() >= 32 && index.is_none() {
                let mut map = std::collections::HashMap::new();
                for (pos, (key, _)) in out.iter().enumerate() {
                    map.insert(key.clone(), pos);
                }
                index = Some(map);
            }
            match index.as_mut() {
                Some(map) => {
                    if let Some(&pos) = map.get(&k) {
                        out[pos].1 = v;
                    } else {
                        map.insert(k.clone(), out.len());
                        out.push((k, v));
                    }
                }
                None => dict_set(&mut out, k, v),
            }
        }
    }
    Val::Dict(out)
}

pub fn dict_get<'a>(d: &'a [(Vec<u8>, Val)], key: &[u8]) -> Option<&'a Val> {
    d.iter().find(|(k, _)| k.as_slice() == key).map(|(_, v)| v)
}

const KEYWORD_TRUE: &[u8] = b"true";
const KEYWORD_FALSE: &[u8] = b"false";
const KEYWORD_NULL: &[u8] = b"null";

fn keyword_value(word: &[u8]) -> Option<Val> {
    match word {
        KEYWORD_TRUE => Some(Val::Bool(true)),
        KEYWORD_FALSE => Some(Val::Bool(false)),
        KEYWORD_NULL => Some(Val::Null),
        _ => None,
    }
}

fn ignored_in_array(word: &[u8]) -> bool {
    matches!(
        word,
        b"Tc"
            | b"Tw"
            | b"Tz"
            | b"TL"
            | b"Ts"
            | b"Tr"
            | b"g"
            | b"G"
            | b"rg"
            | b"RG"
            | b"k"
            | b"K"
            | b"cs"
            | b"CS"
            | b"sc"
            | b"SC"
            | b"scn"
            | b"SCN"
            | b"gs"
            | b"w"
            | b"d"
            | b"i"
            | b"j"
            | b"J"
            | b"M"
            | b"ri"
    )
}

/// Full key names of inline images' abbreviated keys (`INLINE_IMAGE_KEYS`).
fn inline_key(key: &[u8]) -> &[u8] {
    match key {
        b"BPC" => b"BitsPerComponent",
        b"CS" => b"ColorSpace",
        b"D" => b"Decode",
        b"DP" => b"DecodeParms",
        b"F" => b"Filter",
        b"H" => b"Height",
        b"IM" => b"ImageMask",
        b"I" => b"Interpolate",
        b"W" => b"Width",
        b"L" => b"Length",
        other => other,
    }
}

fn cs_components(name: &[u8]) -> i128 {
    match name {
        b"G" | b"DeviceGray" | b"I" | b"Indexed" => 1,
        b"RGB" | b"DeviceRGB" => 3,
        b"CMYK" | b"DeviceCMYK" => 4,
        _ => 1,
    }
}

/// `_EI.search(data, pos)`: white space, `EI`, then white space or the end. Returns where the
/// match starts (the white-space byte). A negative `pos` reads as 0, as in `re`.
fn search_ei(data: &[u8], pos: i128) -> Option<usize> {
    let n = data.len();
    let start = if pos < 0 { 0usize } else { pos as usize };
    if pos > n as i128 {
        return None;
    }
    let mut p = start;
    while p + 3 <= n {
        if is_ws(data[p])
            && data[p + 1] == b'E'
            && data[p + 2] == b'I'
            && (p + 3 == n || is_ws(data[p + 3]))
        {
            return Some(p);
        }
        p += 1;
    }
    None
}

fn printable_tail(tail: &[u8]) -> bool {
    tail.iter()
        .all(|&c| c == 0x09 || c == 0x0a || c == 0x0d || (0x20..=0x7e).contains(&c))
}

/// Python `int()` of a float already known to be finite, clamped far beyond any offset the
/// data could hold (the clamp never changes an outcome: both sides stay out of reach).
fn trunc_clamped(x: f64) -> i128 {
    let t = x.trunc();
    if t > 1e20 {
        100_000_000_000_000_000_000
    } else if t < -1e20 {
        -100_000_000_000_000_000_000
    } else {
        t as i128
    }
}

/// `_inline_image_end`: where the image data starting at `start` ends (the offset of `EI`).
fn inline_image_end(
    data: &[u8],
    start: usize,
    params: &[(Vec<u8>, Val)],
) -> Result<usize, LexError> {
    let n = data.len();
    if let Some(Val::Num(length)) = dict_get(params, b"Length") {
        let length = *length;
        if length >= 0.0 {
            if length.is_infinite() {
                return Err(LexError::Overflow);
            }
            let end = start as i128 + trunc_clamped(length);
            let from = if end > start as i128 { end - 1 } else { end };
            if let Some(m) = search_ei(data, from) {
                if (m as i128) - end < 16 {
                    return Ok(m + 1);
                }
            }
        }
    }
    let filter = dict_get(params, b"Filter");
    let unfiltered = match filter {
        None | Some(Val::Null) => true,
        Some(Val::Arr(items)) => items.is_empty(),
        _ => false,
    };
    if unfiltered {
        let width = dict_get(params, b"Width");
        let height = dict_get(params, b"Height");
        let bpc = if matches!(dict_get(params, b"ImageMask"), Some(Val::Bool(true))) {
            Some(&Val::Num(1.0))
        } else {
            Some(dict_get(params, b"BitsPerComponent").unwrap_or(&Val::Num(8.0)))
        };
        let comps = match dict_get(params, b"ColorSpace") {
            None => 1,
            Some(Val::Name(name)) => cs_components(name),
            Some(_) => 1,
        };
        if let (Some(Val::Num(w)), Some(Val::Num(h)), Some(Val::Num(b))) = (width, height, bpc) {
            let (w, h, b) = (*w, *h, *b);
            if 0.0 < w && w < 1e6 && 0.0 < h && h < 1e6 {
                if b.is_infinite() {
                    return Err(LexError::Overflow);
                }
                // b is never NaN: the lexer makes no NaN.
                let bits = (w.trunc() as i128) * comps * trunc_clamped(b);
                let size = (bits + 7).div_euclid(8) * (h.trunc() as i128);
                let from = if size != 0 {
                    start as i128 + size - 1
                } else {
                    start as i128
                };
                if let Some(m) = search_ei(data, from) {
                    if (m as i128) - (start as i128 + size) < 16 {
                        return Ok(m + 1);
                    }
                }
            }
        }
    }
    let mut pos = start;
    loop {
        let Some(m) = search_ei(data, pos as i128) else {
            return Ok(n);
        };
        let tail_start = m + 3;
        let tail_end = (tail_start + 48).min(n);
        if printable_tail(&data[tail_start.min(n)..tail_end]) {
            return Ok(m + 1);
        }
        pos = m + 3;
    }
}

/// What ended a value of an inline image dictionary (`_read_value`'s third item).
enum Word {
    /// A value was read.
    Value,
    /// `]` or `>>`.
    Close,
    /// The end of the data (no token matched).
    End,
    /// Any other keyword.
    Keyword(usize, usize),
}

/// `_read_value`: one value of an inline image dictionary, arrays and dictionaries read
/// recursively. A bare `{`, `}` or a structure nested too deep is a `None` value.
fn read_value(data: &[u8], pos: usize, depth: usize) -> (Val, usize, Word) {
    let Some((tok, end)) = match_at(data, pos) else {
        return (Val::Null, data.len(), Word::End);
    };
    match tok {
        Tok::Number(s, e) => (Val::Num(parse_number(&data[s..e])), end, Word::Value),
        Tok::Name(s, e) => (Val::Name(decode_name(&data[s..e])), end, Word::Value),
        Tok::Literal => {
            let (value, next) = read_literal(data, end);
            (Val::Str(value), next, Word::Value)
        }
        Tok::Hex(s, e) => (Val::Str(hex_string(&data[s..e])), end, Word::Value),
        Tok::Keyword(s, e) => match keyword_value(&data[s..e]) {
            Some(v) => (v, end, Word::Value),
            None => (Val::Null, end, Word::Keyword(s, e)),
        },
        Tok::Struct(b']') | Tok::Struct(CLOSE_DICT) => (Val::Null, end, Word::Close),
        Tok::Struct(sym @ (b'[' | OPEN_DICT)) if depth < MAX_NESTING => {
            let mut inner = Vec::new();
            let mut pos = end;
            let container = |items: Vec<Val>| {
                if sym == OPEN_DICT {
                    to_dict(items)
                } else {
                    Val::Arr(items)
                }
            };
            loop {
                let (value, next, word) = read_value(data, pos, depth + 1);
                pos = next;
                match word {
                    Word::Value => inner.push(value),
                    Word::Close | Word::End => break,
                    Word::Keyword(s, e) => {
                        // An unclosed array stops at ID rather than swallowing the image data.
                        if &data[s..e] == b"ID" || &data[s..e] == b"EI" {
                            return (container(inner), pos - 2, Word::Value);
                        }
                    }
                }
            }
            (container(inner), pos, Word::Value)
        }
        Tok::Struct(_) => (Val::Null, end, Word::Value),
    }
}

fn inline_params(items: Vec<Val>) -> Vec<(Vec<u8>, Val)> {
    let Val::Dict(raw) = to_dict(items) else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(raw.len());
    for (k, v) in raw {
        let key = inline_key(&k).to_vec();
        dict_set(&mut out, key, v);
    }
    out
}

/// An inline image: its parameters (full key names) and its bytes.
pub struct InlineImage {
    pub params: Vec<(Vec<u8>, Val)>,
    pub data: Vec<u8>,
}

/// `_read_inline_image`: the dictionary after `BI`, then the data up to `EI`.
fn read_inline_image(data: &[u8], mut pos: usize) -> Result<(InlineImage, usize), LexError> {
    let n = data.len();
    let mut items: Vec<Val> = Vec::new();
    let empty = |end| {
        Ok((
            InlineImage {
                params: Vec::new(),
                data: Vec::new(),
            },
            end,
        ))
    };
    while pos < n {
        let (value, next, word) = read_value(data, pos, 0);
        pos = next;
        match word {
            Word::Keyword(s, e) if &data[s..e] == b"ID" => break,
            Word::Keyword(s, e) if &data[s..e] == b"EI" => {
                return Ok((
                    InlineImage {
                        params: inline_params(items),
                        data: Vec::new(),
                    },
                    pos,
                ));
            }
            Word::End => return empty(n),
            Word::Value => items.push(value),
            Word::Close | Word::Keyword(..) => {}
        }
    }
    let params = inline_params(items);
    let start = if pos < n && is_ws(data[pos]) {
        pos + 1
    } else {
        pos
    };
    let end = inline_image_end(data, start, &params)?;
    let stop = if end < n { end - 1 } else { n };
    let stop = stop.max(start);
    let bytes = if start <= n {
        crate::boundary::copy(&data[start..stop.min(n)])
    } else {
        Vec::new()
    };
    Ok((
        InlineImage {
            params,
            data: bytes,
        },
        (end + 2).min(n),
    ))
}

/// An operator: a slice of the stream, or `BI` for an inline image.
pub enum OpName {
    Span(usize, usize),
    InlineImage,
}

/// One operation: the operator and its operands. For an inline image read at top level the
/// operands are `[params, data]` (as in Python: `[dict, bytes]`).
pub struct Operation {
    pub op: OpName,
    pub operands: Vec<Val>,
}

/// `iter_operations`, as an iterator.
pub struct Lexer<'a> {
    data: &'a [u8],
    pos: usize,
    operands: Vec<Val>,
    stack: Vec<(Vec<Val>, bool)>,
    failed: bool,
}

impl<'a> Lexer<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self::resume(data, 0)
    }

    /// A lexer at `pos`, which must be where an earlier one stood after an operation (or 0):
    /// between operations a lexer holds nothing but its position.
    pub fn resume(data: &'a [u8], pos: usize) -> Self {
        Lexer {
            data,
            pos,
            operands: Vec::new(),
            stack: Vec::new(),
            failed: false,
        }
    }

    /// Where the next operation starts (after the one handed out last).
    pub fn position(&self) -> usize {
        self.pos
    }

    pub fn op_bytes(&self, op: &OpName) -> &'a [u8] {
        match op {
            OpName::Span(s, e) => &self.data[*s..*e],
            OpName::InlineImage => b"BI",
        }
    }

    fn close(&mut self, items: Vec<Val>, is_dict: bool) -> Val {
        if is_dict {
            to_dict(items)
        } else {
            Val::Arr(items)
        }
    }
}

impl Iterator for Lexer<'_> {
    type Item = Result<Operation, LexError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let data = self.data;
        let n = data.len();
        while self.pos < n {
            let Some((tok, end)) = match_at(data, self.pos) else {
                if only_ws(data, self.pos) {
                    self.pos = n;
                    break;
                }
                // A byte no token can start with: skip the white space and comments before
                // it, then it.
                self.pos = skip_ws_comments(data, self.pos) + 1;
                continue;
            };
            self.pos = end;
            match tok {
                Tok::Number(s, e) => {
                    if self.operands.len() < MAX_OPERANDS {
                        self.operands.push(Val::Num(parse_number(&data[s..e])));
                    }
                }
                Tok::Keyword(s, e) => {
                    let word = &data[s..e];
                    if let Some(v) = keyword_value(word) {
                        self.operands.push(v);
                    } else if !self.stack.is_empty() {
                        if ignored_in_array(word) {
                            continue;
                        }
                        while let Some((outer, is_dict)) = self.stack.pop() {
                            let inner = std::mem::replace(&mut self.operands, outer);
                            let value = self.close(inner, is_dict);
                            self.operands.push(value);
                        }
                        let operands = std::mem::take(&mut self.operands);
                        return Some(Ok(Operation {
                            op: OpName::Span(s, e),
                            operands,
                        }));
                    } else if word == b"BI" {
                        match read_inline_image(data, self.pos) {
                            Ok((image, next)) => {
                                self.pos = next;
                                self.operands.clear();
                                return Some(Ok(Operation {
                                    op: OpName::InlineImage,
                                    operands: vec![Val::Dict(image.params), Val::Str(image.data)],
                                }));
                            }
                            Err(err) => {
                                self.failed = true;
                                return Some(Err(err));
                            }
                        }
                    } else {
                        let operands = std::mem::take(&mut self.operands);
                        return Some(Ok(Operation {
                            op: OpName::Span(s, e),
                            operands,
                        }));
                    }
                }
                Tok::Name(s, e) => {
                    if self.operands.len() < MAX_OPERANDS {
                        self.operands.push(Val::Name(decode_name(&data[s..e])));
                    }
                }
                Tok::Literal => {
                    let (value, next) = read_literal(data, self.pos);
                    self.pos = next;
                    if self.operands.len() < MAX_OPERANDS {
                        self.operands.push(Val::Str(value));
                    }
                }
                Tok::Hex(s, e) => {
                    if self.operands.len() < MAX_OPERANDS {
                        self.operands.push(Val::Str(hex_string(&data[s..e])));
                    }
                }
                Tok::Struct(sym) => match sym {
                    b'[' | OPEN_DICT => {
                        if self.stack.len() >= MAX_NESTING {
                            continue;
                        }
                        let outer = std::mem::take(&mut self.operands);
                        self.stack.push((outer, sym == OPEN_DICT));
                    }
                    b']' | CLOSE_DICT => {
                        if let Some((outer, is_dict)) = self.stack.pop() {
                            let inner = std::mem::replace(&mut self.operands, outer);
                            let value = self.close(inner, is_dict);
                            self.operands.push(value);
                        }
                    }
                    _ => {}
                },
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops(data: &[u8]) -> Vec<(Vec<u8>, Vec<Val>)> {
        let mut lexer = Lexer::new(data);
        let mut out = Vec::new();
        while let Some(item) = lexer.next() {
            let op = item.expect("no error");
            out.push((lexer.op_bytes(&op.op).to_vec(), op.operands));
        }
        out
    }

    #[test]
    fn numbers_and_keywords() {
        let got = ops(b"1 -2.5 .5 5. 12abc Tf");
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].0, b"12abc");
        assert_eq!(
            got[0].1,
            vec![Val::Num(1.0), Val::Num(-2.5), Val::Num(0.5), Val::Num(5.0)]
        );
    }

    #[test]
    fn strings_and_names() {
        let got = ops(b"/A#41 (a\\(b\\)\r\nc\\101) <41 4> Tj");
        assert_eq!(
            got[0].1,
            vec![
                Val::Name(b"AA".to_vec()),
                Val::Str(b"a(b)\ncA".to_vec()),
                Val::Str(b"A@".to_vec())
            ]
        );
    }

    #[test]
    fn inline_image() {
        let got = ops(b"BI /W 2 /H 1 /BPC 8 /CS /G ID \x00\x01 EI Q");
        assert_eq!(got[0].0, b"BI");
        assert_eq!(got[1].0, b"Q");
    }

    #[test]
    fn infinite_length_is_an_error() {
        let digits = "9".repeat(400);
        let data = format!("BI /L {digits} ID xx EI");
        let mut lexer = Lexer::new(data.as_bytes());
        assert!(matches!(lexer.next(), Some(Err(LexError::Overflow))));
        assert!(lexer.next().is_none());
    }

    #[test]
    fn garbage_never_panics() {
        let mut seed: u64 = 1;
        for _ in 0..2000 {
            let mut data = Vec::new();
            for _ in 0..64 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let pick = (seed >> 33) as usize;
                let alphabet = b"()<>[]{}/%\\ \r\n0123456789.+-BIEDTjf#aZ";
                data.push(alphabet[pick % alphabet.len()]);
            }
            for item in Lexer::new(&data) {
                let _ = item;
            }
        }
    }
}
