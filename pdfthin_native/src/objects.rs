//! A fast path for pypdf's parsing of one indirect object (`N G obj ...`) of a PDF file.
//!
//! pypdf's `PdfReader.get_object` seeks to the offset the cross-reference table gives, reads
//! the object header and calls `read_object`. This module does the same for the plain cases and
//! builds the very objects pypdf would build, with pypdf's own classes (handed in by the
//! Python side). Everything else — anything pypdf would warn about, repair, or treat in a
//! special way, every input this parser is not sure about — gives `None`, and the caller lets
//! pypdf do it. The rule: for any input, the answer is `None` or exactly pypdf's.
//!
//! Parsing is in two steps: [`parse_indirect`] reads the bytes into a [`Value`] tree with no
//! Python involved (so it can be tested and fuzzed on its own), then [`to_py`] builds the
//! Python objects. Nothing here indexes the input unchecked, and nesting is bounded by
//! [`MAX_DEPTH`], so no input panics or overflows the stack.

use std::cell::Cell;
use std::collections::HashSet;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};

/// Deeper nesting than this is left to pypdf (whose own answer there may depend on Python's
/// recursion limit).
pub const MAX_DEPTH: usize = 32;
/// Longer names are left to pypdf (its `read_until_regex` has a 4096-byte limit).
const MAX_NAME: usize = 1024;
/// More consecutive comments than this are left to pypdf (its limit is 1000).
const MAX_COMMENTS: usize = 100;
/// pypdf peeks this many bytes to read a number or an indirect reference.
const PEEK: usize = 20;
/// Values (objects, and the items of their arrays and dictionaries, at any depth) read at most
/// from one object stream: pypdf reads the one object it is asked for, this reads them all at
/// once, so without a bound a small compressed stream of many large objects would make
/// gigabytes of objects pypdf never makes. Past it the stream is left to pypdf. Real streams
/// hold a few hundred objects of a few values each.
pub const MAX_OBJECT_STREAM_VALUES: usize = 1 << 16;

/// pypdf's limits (its `get_configuration()`), read by the caller at each call.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// `array_maximum_element_count`.
    pub max_array: usize,
    /// `dictionary_maximum_element_count`.
    pub max_dict: usize,
    /// `maximum_declared_stream_length`.
    pub max_stream: usize,
}

impl From<(usize, usize, usize)> for Limits {
    /// The `limits` tuple the Python side hands in: `(array_maximum_element_count,
    /// dictionary_maximum_element_count, maximum_declared_stream_length)`.
    fn from((max_array, max_dict, max_stream): (usize, usize, usize)) -> Self {
        Limits {
            max_array,
            max_dict,
            max_stream,
        }
    }
}

/// One parsed object.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Real(f64),
    /// A name with its `/`, `#xx` escapes resolved, decoded as UTF-8.
    Name(String),
    /// A literal or hex string's bytes (pypdf's `create_string_object` decodes them).
    Str(Vec<u8>),
    Ref(u64, u64),
    Array(Vec<Value>),
    Dict(Vec<(String, Value)>),
    /// A stream (only at the top): its dictionary and the byte range of its data.
    Stream(Vec<(String, Value)>, usize, usize),
}

/// pypdf's `WHITESPACES` (`read_non_whitespace`, `skip_over_whitespace`): no vertical tab.
fn is_ws(b: u8) -> bool {
    matches!(b, b'\0' | b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// What `ArrayObject.read_from_stream` skips: `bytes.isspace()` or `WHITESPACES`.
fn is_array_ws(b: u8) -> bool {
    is_ws(b) || b == b'\x0b'
}

/// `\s` of a bytes regular expression: no NUL.
fn is_re_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'\x0b')
}

/// The end of a name: `NameObject.delimiter_pattern`.
fn is_name_delimiter(b: u8) -> bool {
    is_re_space(b)
        || matches!(
            b,
            b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
        )
}

/// The characters `NumberObject.NumberPattern` does not stop at: `+`, `,`, `-`, `.`, digits.
fn is_number_char(b: u8) -> bool {
    matches!(b, b'+'..=b'.' | b'0'..=b'9')
}

struct Parser<'a> {
    data: &'a [u8],
    limits: Limits,
    /// Whether a dictionary at the top may be a stream (not in an object stream: there the
    /// stream keyword is left to pypdf).
    allow_stream: bool,
    /// Values still to be read before the parser leaves the rest to pypdf.
    values: Cell<usize>,
}

impl<'a> Parser<'a> {
    fn at(&self, p: usize) -> Option<u8> {
        self.data.get(p).copied()
    }

    fn starts(&self, p: usize, word: &[u8]) -> bool {
        self.data
            .get(p..)
            .is_some_and(|rest| rest.starts_with(word))
    }

    /// `read_non_whitespace` then one step back: the first byte at or after `p` that is not
    /// in `WHITESPACES` (`None` at the end of the file, where pypdf's step back misleads).
    fn skip_ws(&self, mut p: usize) -> Option<usize> {
        while is_ws(self.at(p)?) {
            p += 1;
        }
        Some(p)
    }

    /// `skip_over_comment` from the `%` at `p`: past the first CR or LF.
    fn skip_comment(&self, mut p: usize) -> Option<usize> {
        loop {
            let b = self.at(p)?;
            p += 1;
            if b == b'\n' || b == b'\r' {
                return Some(p);
            }
        }
    }

    /// `read_object` at `p`: the object and the position pypdf's stream is left at.
    fn object(&self, mut p: usize, depth: usize) -> Option<(Value, usize)> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.values.set(self.values.get().checked_sub(1)?);
        let mut tok = self.at(p)?;
        if tok == b'%' {
            // skip_over_comments: each comment, then the whitespace after it.
            let mut count = 0;
            while tok == b'%' {
                count += 1;
                if count > MAX_COMMENTS {
                    return None;
                }
                p = self.skip_ws(self.skip_comment(p)?)?;
                tok = self.at(p)?;
            }
        }
        match tok {
            b'/' => self.name(p).map(|(n, q)| (Value::Name(n), q)),
            b'<' => {
                if self.at(p + 1) == Some(b'<') {
                    self.dict(p, depth)
                } else {
                    self.hex_string(p)
                }
            }
            b'[' => self.array(p, depth),
            b't' if self.starts(p, b"true") => Some((Value::Bool(true), p + 4)),
            // "fals" and any one byte more
            b'f' if self.starts(p, b"fals") && p + 5 <= self.data.len() => {
                Some((Value::Bool(false), p + 5))
            }
            b'(' => self.literal_string(p),
            b'e' if self.starts(p, b"endobj") => Some((Value::Null, p + 6)),
            b'n' if self.starts(p, b"null") => Some((Value::Null, p + 4)),
            b'0'..=b'9' | b'+' | b'-' | b'.' => self.number_or_reference(p),
            _ => None,
        }
    }

    /// `NameObject.read_from_stream`: up to the delimiter, `#xx` resolved, UTF-8 only.
    fn name(&self, p: usize) -> Option<(String, usize)> {
        let start = p + 1;
        let mut q = start;
        // At the end of the data `read_until_regex` takes the rest, as here.
        while let Some(b) = self.at(q) {
            if is_name_delimiter(b) {
                break;
            }
            q += 1;
            if q - start >= MAX_NAME {
                return None;
            }
        }
        let raw = self.data.get(p..q)?;
        let bytes = if raw.contains(&b'#') {
            unnumber(raw)?
        } else {
            raw.to_vec()
        };
        // pypdf tries utf-8, then gbk, then latin1: only the first is done here.
        let name = String::from_utf8(bytes).ok()?;
        Some((name, q))
    }

    /// `DictionaryObject.read_from_stream` (and `_read_stream_data`) from the `<<` at `p`.
    fn dict(&self, p: usize, depth: usize) -> Option<(Value, usize)> {
        let (items, p) = self.dict_items(p, depth)?;
        // _read_stream_data: is the dictionary followed by "stream"? (At the end of the data
        // it is not, and pypdf goes back to `p`.)
        let Some(q) = self.skip_ws(p) else {
            return Some((Value::Dict(items), p));
        };
        if !self.starts(q, b"stream") {
            return Some((Value::Dict(items), p));
        }
        if depth > 0 || !self.allow_stream {
            return None;
        }
        self.stream(items, q + 6)
    }

    /// The entries of the dictionary whose `<<` is at `p` and the position after its `>>`.
    fn dict_items(&self, p: usize, depth: usize) -> Option<(Vec<(String, Value)>, usize)> {
        let mut p = p + 2;
        let mut items: Vec<(String, Value)> = Vec::new();
        let mut seen: Option<HashSet<String>> = None;
        loop {
            p = self.skip_ws(p)?;
            match self.at(p)? {
                b'%' => {
                    p = self.skip_comment(p)?;
                    continue;
                }
                // pypdf takes any byte after the first '>'; only '>>' is taken here.
                b'>' if self.at(p + 1)? == b'>' => {
                    p += 2;
                    break;
                }
                // pypdf skips keys that are not names (with a warning) and ends at a null.
                b'/' => {}
                _ => return None,
            }
            if items.len() >= self.limits.max_dict {
                return None;
            }
            let (key, q) = self.name(p)?;
            let q = self.skip_ws(q)?;
            let (value, q) = self.object(q, depth + 1)?;
            // pypdf warns about a key defined twice and keeps the first value.
            let twice = match &mut seen {
                Some(set) => !set.insert(key.clone()),
                None => items.iter().any(|(k, _)| *k == key),
            };
            if twice {
                return None;
            }
            items.push((key, value));
            if seen.is_none() && items.len() >= 16 {
                seen = Some(items.iter().map(|(k, _)| k.clone()).collect());
            }
            p = q;
        }
        Some((items, p))
    }

    /// The data of a stream whose keyword ends before `p`: only a direct /Length, followed
    /// by `endstream` where pypdf looks for it.
    fn stream(&self, items: Vec<(String, Value)>, p: usize) -> Option<(Value, usize)> {
        let (start, end) = self.stream_span(&items, p)?;
        if end > self.data.len() {
            return None;
        }
        let e = self.skip_ws(end)?;
        if !self.starts(e, b"endstream") {
            return None;
        }
        Some((Value::Stream(items, start, end), e + 9))
    }

    /// Where the data of a stream whose keyword ends before `p` starts (after the end of
    /// line, as pypdf takes it) and where its direct, non-negative `/Length` (no larger than
    /// pypdf's limit) ends it; the end may be past the end of the data.
    fn stream_span(&self, items: &[(String, Value)], mut p: usize) -> Option<(usize, usize)> {
        let mut eol = self.at(p)?;
        p += 1;
        while eol == b' ' {
            eol = self.at(p)?;
            p += 1;
        }
        match eol {
            b'\n' => {}
            b'\r' => {
                if self.at(p)? == b'\n' {
                    p += 1;
                }
            }
            _ => return None,
        }
        let length = items.iter().find(|(k, _)| k == "/Length").map(|(_, v)| v)?;
        let length = match length {
            Value::Int(n) if *n >= 0 => usize::try_from(*n).ok()?,
            _ => return None,
        };
        if length > self.limits.max_stream {
            return None;
        }
        Some((p, p.checked_add(length)?))
    }

    /// `ArrayObject.read_from_stream` from the `[` at `p`.
    fn array(&self, p: usize, depth: usize) -> Option<(Value, usize)> {
        let mut p = p + 1;
        let mut items = Vec::new();
        loop {
            // At the end of the file pypdf ends the array quietly; leave that to it.
            while is_array_ws(self.at(p)?) {
                p += 1;
            }
            match self.at(p)? {
                b'%' => {
                    p = self.skip_comment(p)?;
                    continue;
                }
                b']' => return Some((Value::Array(items), p + 1)),
                _ => {}
            }
            if items.len() >= self.limits.max_array {
                return None;
            }
            let (value, q) = self.object(p, depth + 1)?;
            items.push(value);
            p = q;
        }
    }

    /// `read_hex_string_from_stream` from the `<` at `p`.
    fn hex_string(&self, p: usize) -> Option<(Value, usize)> {
        let mut p = p + 1;
        let mut out = Vec::new();
        let mut high: Option<u8> = None;
        loop {
            p = self.skip_ws(p)?;
            let b = self.at(p)?;
            p += 1;
            if b == b'>' {
                break;
            }
            let digit = hex_value(b)?;
            match high.take() {
                None => high = Some(digit),
                Some(h) => out.push(h * 16 + digit),
            }
        }
        if let Some(h) = high {
            out.push(h * 16);
        }
        Some((Value::Str(out), p))
    }

    /// `read_string_from_stream` from the `(` at `p`. Escapes pypdf warns about, and octal
    /// escapes above 255, are left to pypdf.
    fn literal_string(&self, p: usize) -> Option<(Value, usize)> {
        let mut p = p + 1;
        let mut parens = 1usize;
        let mut out = Vec::new();
        loop {
            let b = self.at(p)?;
            p += 1;
            match b {
                b'(' => parens += 1,
                b')' => {
                    parens -= 1;
                    if parens == 0 {
                        break;
                    }
                }
                b'\\' => {
                    let e = self.at(p)?;
                    p += 1;
                    let mapped = match e {
                        b'n' => Some(b'\n'),
                        b'r' => Some(b'\r'),
                        b't' => Some(b'\t'),
                        b'b' => Some(b'\x08'),
                        b'f' => Some(b'\x0c'),
                        b'(' | b')' | b'/' | b'\\' | b' ' | b'%' | b'<' | b'>' | b'[' | b']'
                        | b'#' | b'_' | b'&' | b'$' => Some(e),
                        _ => None,
                    };
                    if let Some(m) = mapped {
                        out.push(m);
                        continue;
                    }
                    if (b'0'..=b'7').contains(&e) {
                        let mut value = u32::from(e - b'0');
                        for _ in 0..2 {
                            match self.at(p) {
                                Some(d @ b'0'..=b'7') => {
                                    value = value * 8 + u32::from(d - b'0');
                                    p += 1;
                                }
                                _ => break,
                            }
                        }
                        out.push(u8::try_from(value).ok()?);
                        continue;
                    }
                    if e == b'\n' || e == b'\r' {
                        // an escaped line break: nothing; a second CR or LF goes with it
                        if matches!(self.at(p)?, b'\n' | b'\r') {
                            p += 1;
                        }
                        continue;
                    }
                    return None;
                }
                _ => {}
            }
            out.push(b);
        }
        Some((Value::Str(out), p))
    }

    /// `read_object` at a digit, sign or dot: an indirect reference if
    /// `IndirectPattern` matches the next 20 bytes, else a number ending within them.
    fn number_or_reference(&self, p: usize) -> Option<(Value, usize)> {
        let end = p.checked_add(PEEK)?.min(self.data.len());
        let peek = self.data.get(p..end)?;
        if let Some((id, gen, len)) = match_reference(peek) {
            return Some((Value::Ref(id?, gen?), p + len));
        }
        // A number running to the end of the data is all of it (`read_until_regex` at the
        // end); one running past the peek is left to pypdf.
        let len = match peek.iter().position(|&b| !is_number_char(b)) {
            Some(len) => len,
            None if end == self.data.len() => peek.len(),
            None => return None,
        };
        let num = peek.get(..len)?;
        let value = if num.contains(&b'.') {
            Value::Real(parse_real(num)?)
        } else {
            Value::Int(parse_int(num)?)
        };
        Some((value, p + len))
    }
}

/// `IndirectPattern` (`[+-]?(\d+)\s+(\d+)\s+R[^a-zA-Z]`) matched at the start of `peek`:
/// the two numbers (`None` for a signed or oversized one: left to pypdf) and the length up
/// to and including the `R`.
#[allow(clippy::type_complexity)]
fn match_reference(peek: &[u8]) -> Option<(Option<u64>, Option<u64>, usize)> {
    let digits = |from: usize| {
        peek.get(from..)
            .map_or(0, |s| s.iter().take_while(|b| b.is_ascii_digit()).count())
    };
    let spaces = |from: usize| {
        peek.get(from..)
            .map_or(0, |s| s.iter().take_while(|&&b| is_re_space(b)).count())
    };
    let signed = matches!(peek.first(), Some(b'+' | b'-'));
    let a = usize::from(signed);
    let a_len = digits(a);
    if a_len == 0 {
        return None;
    }
    let s1 = a + a_len;
    let s1_len = spaces(s1);
    if s1_len == 0 {
        return None;
    }
    let g = s1 + s1_len;
    let g_len = digits(g);
    if g_len == 0 {
        return None;
    }
    let s2 = g + g_len;
    let s2_len = spaces(s2);
    if s2_len == 0 {
        return None;
    }
    let r = s2 + s2_len;
    if peek.get(r) != Some(&b'R') {
        return None;
    }
    match peek.get(r + 1) {
        Some(b) if !b.is_ascii_alphabetic() => {}
        _ => return None,
    }
    let id = if signed {
        None
    } else {
        parse_digits(peek.get(a..s1)?)
    };
    let gen = parse_digits(peek.get(g..s2)?);
    Some((id, gen, r + 1))
}

fn parse_digits(s: &[u8]) -> Option<u64> {
    std::str::from_utf8(s).ok()?.parse::<u64>().ok()
}

/// `int(num)` for `[+-]?[0-9]+` (anything else makes pypdf warn and use 0).
fn parse_int(num: &[u8]) -> Option<i64> {
    let digits = match num.first()? {
        b'+' | b'-' => num.get(1..)?,
        _ => num,
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(num).ok()?.parse::<i64>().ok()
}

/// `float(num)` for `[+-]?([0-9]+\.[0-9]*|\.[0-9]+)` (anything else makes pypdf warn and
/// use 0.0). Both languages round correctly, so the values are the same.
fn parse_real(num: &[u8]) -> Option<f64> {
    let body = match num.first()? {
        b'+' | b'-' => num.get(1..)?,
        _ => num,
    };
    let dot = body.iter().position(|&b| b == b'.')?;
    let (int_part, frac_part) = (body.get(..dot)?, body.get(dot + 1..)?);
    if !int_part.iter().all(u8::is_ascii_digit) || !frac_part.iter().all(u8::is_ascii_digit) {
        return None;
    }
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    std::str::from_utf8(num).ok()?.parse::<f64>().ok()
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// `NameObject.unnumber`, for names whose every `#` is followed by two hex digits (pypdf's
/// `int(..., 16)` accepts more, such as a sign or one digit at the end: left to it).
fn unnumber(raw: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&b) = raw.get(i) {
        if b == b'#' {
            let hi = hex_value(*raw.get(i + 1)?)?;
            let lo = hex_value(*raw.get(i + 2)?)?;
            out.push(hi * 16 + lo);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    Some(out)
}

/// `read_object_header` at `offset` then `read_object`, for the object `idnum generation`:
/// the object and the position after it, or `None` wherever pypdf might do anything but
/// the plain thing.
pub fn parse_indirect(
    data: &[u8],
    offset: usize,
    idnum: u64,
    generation: u64,
    limits: Limits,
) -> Option<(Value, usize)> {
    let parser = Parser {
        data,
        limits,
        allow_stream: true,
        values: Cell::new(usize::MAX),
    };
    // The header: [ws] digits ws [ws] digits ws [ws] "obj" [ws]. pypdf skips a comment
    // first and reads any three bytes for "obj"; those cases are left to it.
    let mut p = parser.skip_ws(offset)?;
    let mut numbers = [0u64; 2];
    for number in &mut numbers {
        let start = p;
        while parser.at(p)?.is_ascii_digit() {
            p += 1;
            if p - start > 19 {
                return None;
            }
        }
        *number = parse_digits(data.get(start..p)?)?;
        // read_until_whitespace stops at (and consumes) any whitespace, vertical tab too
        if !is_array_ws(parser.at(p)?) {
            return None;
        }
        p = parser.skip_ws(p + 1)?;
    }
    if numbers != [idnum, generation] || !parser.starts(p, b"obj") {
        return None;
    }
    let p = parser.skip_ws(p + 3)?;
    parser.object(p, 0)
}

/// pypdf's `PdfReader.read_object_header` (non-strict) at `offset`: the object number, the
/// generation and the position the stream is left at, for the plain case only: no comment
/// first, both numbers plain digits (at most 19), each ended by whitespace, then any three
/// bytes (pypdf does not check them for "obj") and whitespace, none of it running into the
/// end of the data. `None` for anything else (pypdf then reads the header itself: a
/// `ValueError`, a warning or a step back at the end of the data are all its own).
pub fn parse_object_header(data: &[u8], offset: usize) -> Option<(u64, u64, usize)> {
    let parser = Parser {
        data,
        limits: Limits {
            max_array: 0,
            max_dict: 0,
            max_stream: 0,
        },
        allow_stream: false,
        values: Cell::new(usize::MAX),
    };
    // skip_over_comment: nothing unless a '%' (left to pypdf), then skip_over_whitespace
    // and a step back
    if parser.at(offset)? == b'%' {
        return None;
    }
    let mut p = parser.skip_ws(offset)?;
    let mut numbers = [0u64; 2];
    for number in &mut numbers {
        // read_until_whitespace: up to (and past) a byte that is `isspace()` or NUL
        let start = p;
        while parser.at(p)?.is_ascii_digit() {
            p += 1;
            if p - start > 19 {
                return None;
            }
        }
        if p == start || !is_array_ws(parser.at(p)?) {
            return None;
        }
        *number = parse_digits(data.get(start..p)?)?;
        p = parser.skip_ws(p + 1)?;
    }
    // stream.read(3), then read_non_whitespace and a step back
    let p = parser.skip_ws(p.checked_add(3)?)?;
    Some((numbers[0], numbers[1], p))
}

/// One entry of a cross-reference stream that pypdf records: `(object number, type, field 2,
/// field 3)`, of type 1 (in use: offset, generation) or 2 (in an object stream: its number,
/// the index there).
pub type XrefEntry = (i64, u64, u64, u64);

/// pypdf's `_read_xref_subsections` with the `get_entry` of `_read_pdf15_xref_stream`: the
/// entries of the subsections `pairs` (`[start, count, ...]`, as pypdf's `_pairs` reads them),
/// read from `data` at `pos` with the field widths `widths`, and the position after them.
/// A width of 0 or less reads nothing and gives the default (1 for the type, else 0); one of
/// 1 to 8 reads that many bytes (fewer at the end of the data, none past it) as a big-endian
/// number. An entry of type 0 is read and dropped, one of another type has only its type
/// read (pypdf ignores it without strict mode). `None` for a width above 8 (pypdf raises) and
/// for more entries than the data could hold (left to pypdf).
pub fn parse_xref_entries(
    data: &[u8],
    pos: usize,
    widths: [i64; 3],
    pairs: &[i64],
) -> Option<(Vec<XrefEntry>, usize)> {
    if widths.iter().any(|&w| w > 8) {
        return None;
    }
    let mut total: usize = 0;
    for pair in pairs.chunks_exact(2) {
        if let [_, count] = pair {
            total = total.checked_add(usize::try_from((*count).max(0)).ok()?)?;
        }
    }
    if total > data.len().saturating_sub(pos).saturating_add(16) {
        return None;
    }
    let mut p = pos;
    let mut field = |i: usize| -> u64 {
        let w = widths.get(i).copied().unwrap_or(0);
        if w <= 0 {
            return u64::from(i == 0);
        }
        let w = usize::try_from(w).unwrap_or(0);
        let start = p.min(data.len());
        let end = p.saturating_add(w).min(data.len());
        p = p.max(end);
        data.get(start..end)
            .unwrap_or_default()
            .iter()
            .fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
    };
    let mut out = Vec::new();
    for pair in pairs.chunks_exact(2) {
        let [start, count] = pair else {
            continue;
        };
        for k in 0..(*count).max(0) {
            let num = start.checked_add(k)?;
            match field(0) {
                0 => {
                    field(1);
                    field(2);
                }
                t @ (1 | 2) => {
                    let f1 = field(1);
                    let f2 = field(2);
                    out.push((num, t, f1, f2));
                }
                _ => {}
            }
        }
    }
    Some((out, p))
}

/// One subsection of a classic cross-reference table: the number of its first object and
/// its entries `(offset, generation, kind)`, kind 1 for `n`, 2 for `f`, 0 for anything else
/// in the entry's type column (pypdf records such an entry as neither in use nor free).
pub type XrefSubsection = (i64, Vec<(u64, u64, u8)>);

/// pypdf's `_read_standard_xref_table` (non-strict) from `pos` (just after the `x` of
/// `xref`): the subsections in order and the position after the `trailer` keyword, for the
/// plain case only. `None` wherever pypdf would warn, repair, raise or read anything this
/// parser is not sure about: no `ref`, a first number or a count that is not a plain integer
/// (pypdf rebuilds the table), a count above the data's length / 20 (pypdf raises), an entry
/// line short or running into the end of the data, one whose offset and generation are not
/// two runs of digits split by one space in its first 16 bytes (pypdf's recovery), a comment
/// before `trailer`, a repeated position, the end of the data anywhere.
pub fn parse_xref_table(data: &[u8], pos: usize) -> Option<(Vec<XrefSubsection>, usize)> {
    let parser = Parser {
        data,
        limits: Limits {
            max_array: 0,
            max_dict: 0,
            max_stream: 0,
        },
        allow_stream: false,
        values: Cell::new(usize::MAX),
    };
    if !parser.starts(pos, b"ref") {
        return None;
    }
    let size_limit = i64::try_from(data.len() / 20).ok()?;
    let mut p = parser.skip_ws(pos + 3)?;
    let mut previous: Option<usize> = None;
    let mut out: Vec<XrefSubsection> = Vec::new();
    loop {
        // read_object for the first number and the count: plain integers only
        let (Value::Int(first), q) = parser.object(p, 0)? else {
            return None;
        };
        p = parser.skip_ws(q)?;
        let (Value::Int(size), q) = parser.object(p, 0)? else {
            return None;
        };
        if size > size_limit {
            return None;
        }
        p = parser.skip_ws(q)?;
        let count = usize::try_from(size.max(0)).ok()?;
        first.checked_add(i64::try_from(count).ok()?)?;
        let mut entries = Vec::with_capacity(count);
        for _ in 0..count {
            let mut line = data.get(p..p.checked_add(20)?)?;
            // CR or LF first: one byte on, read again (20 bytes or pypdf raises)
            while matches!(line.first(), Some(b'\r' | b'\n')) {
                p += 1;
                line = data.get(p..p.checked_add(20)?)?;
            }
            let (head, last) = (line.get(..16)?, *line.get(19)?);
            let space = head.iter().position(|&b| b == b' ')?;
            let (offset_b, generation_b) = (head.get(..space)?, head.get(space + 1..)?);
            let plain = |s: &[u8]| !s.is_empty() && s.iter().all(u8::is_ascii_digit);
            if !plain(offset_b) || !plain(generation_b) {
                return None;
            }
            let kind = match line.get(17) {
                Some(b'n') => 1,
                Some(b'f') => 2,
                _ => 0,
            };
            entries.push((parse_digits(offset_b)?, parse_digits(generation_b)?, kind));
            p += if matches!(last, b'0'..=b'9' | b't') {
                19
            } else {
                20
            };
        }
        out.push((first, entries));
        p = parser.skip_ws(p)?;
        // comments before "trailer" are left to pypdf, and so is the end of the data
        if parser.at(p)? == b'%' || p.checked_add(7)? > data.len() {
            return None;
        }
        if parser.starts(p, b"trailer") {
            return Some((out, p + 7));
        }
        if previous == Some(p) {
            return None;
        }
        previous = Some(p);
    }
}

/// `read_object` at `pos` after whitespace (`read_non_whitespace` and a step back, the end of
/// the data left to pypdf): the object and the position after it, or `None` where pypdf must
/// read it. A dictionary followed by `stream` is read as a stream, as `read_object` does.
pub fn parse_object_at(data: &[u8], pos: usize, limits: Limits) -> Option<(Value, usize)> {
    let parser = Parser {
        data,
        limits,
        allow_stream: true,
        values: Cell::new(usize::MAX),
    };
    let p = parser.skip_ws(pos)?;
    parser.object(p, 0)
}

/// A stream whose data, as long as its direct `/Length` says, is not followed by `endstream`
/// (pypdf's `_read_stream_data` then looks one byte back, or reads up to the next object),
/// from its dictionary's `<<` at `pos`: the dictionary's entries, where the data
/// starts, where the declared length ends it (at most at the end of the data) and the first
/// byte that is not whitespace from there (the end of the data if there is none): all that
/// `_read_stream_data` has read when it finds no `endstream`. `None` for anything else
/// (a stream read whole by [`parse_object_at`], or anything pypdf must read).
pub fn parse_stream_head(data: &[u8], pos: usize, limits: Limits) -> Option<StreamHead> {
    let parser = Parser {
        data,
        limits,
        allow_stream: true,
        values: Cell::new(usize::MAX),
    };
    // read_object dispatches on the byte at `pos`: a dictionary's `<<` (a comment first is
    // left to pypdf).
    if !parser.starts(pos, b"<<") {
        return None;
    }
    let (items, p) = parser.dict_items(pos, 0)?;
    let q = parser.skip_ws(p)?;
    if !parser.starts(q, b"stream") {
        return None;
    }
    let (start, end) = parser.stream_span(&items, q + 6)?;
    let end = end.min(data.len());
    // read_non_whitespace: at the end of the data it answers b"" there.
    let e = data
        .get(end..)?
        .iter()
        .position(|&b| !is_ws(b))
        .map_or(data.len(), |i| end + i);
    if parser.starts(e, b"endstream") {
        return None;
    }
    Some(StreamHead {
        items,
        start,
        end,
        after_whitespace: e,
    })
}

/// What [`parse_stream_head`] answers.
#[derive(Debug, PartialEq)]
pub struct StreamHead {
    /// The stream dictionary's entries.
    pub items: Vec<(String, Value)>,
    /// Where its data starts.
    pub start: usize,
    /// Where its declared length ends it, at most at the end of the data.
    pub end: usize,
    /// The first byte from `end` on that is not whitespace, or the end of the data.
    pub after_whitespace: usize,
}

/// `NumberObject.read_from_stream` in the index of an object stream, at `p` (not
/// whitespace): a non-negative integer ended by a byte that is not a number character within
/// the first chunk `read_until_regex` reads (16 bytes). Anything else is left to pypdf (a
/// float, a sign pypdf warns about, a number at the end of the data or a longer one).
fn index_number(parser: &Parser<'_>, p: usize) -> Option<(u64, usize)> {
    let end = p.checked_add(16)?.min(parser.data.len());
    let chunk = parser.data.get(p..end)?;
    let len = chunk.iter().position(|&b| !is_number_char(b))?;
    let n = parse_int(chunk.get(..len)?)?;
    Some((u64::try_from(n).ok()?, p + len))
}

/// pypdf's `_get_object_from_stream` on the decompressed data of an object stream with
/// `/N n` and `/First first`: phase 1 (the index of `(object number, offset)` pairs) and
/// phase 2 (`read_object` at `first + offset`, after whitespace) for every entry, in the
/// index's order. `None` wherever pypdf would warn, raise, hit a limit or read anything this
/// parser is not sure about (a stream keyword among them), and for a stream of more than
/// [`MAX_OBJECT_STREAM_VALUES`] values in all.
pub fn parse_object_stream(
    data: &[u8],
    n: usize,
    first: usize,
    limits: Limits,
) -> Option<Vec<(u64, Value)>> {
    let len = data.len();
    // pypdf warns about a /First outside the stream and about /N above len // 3; every
    // object is one value at least.
    if first > len || n > len / 3 || n > MAX_OBJECT_STREAM_VALUES {
        return None;
    }
    let parser = Parser {
        data,
        limits,
        allow_stream: false,
        values: Cell::new(MAX_OBJECT_STREAM_VALUES),
    };
    let mut index = Vec::with_capacity(n);
    let mut p = 0;
    let mut last: Option<u64> = None;
    for _ in 0..n {
        // read_non_whitespace and a step back before each number (at the end of the data
        // pypdf's step back misleads: left to it)
        p = parser.skip_ws(p)?;
        let (objnum, q) = index_number(&parser, p)?;
        p = parser.skip_ws(q)?;
        let (offset, q) = index_number(&parser, p)?;
        p = q;
        // An offset past the end is skipped with a warning, one not increasing raises.
        let at = first.checked_add(usize::try_from(offset).ok()?)?;
        if at > len || last.is_some_and(|l| offset <= l) {
            return None;
        }
        last = Some(offset);
        index.push((objnum, at));
    }
    let mut out = Vec::with_capacity(index.len());
    for (objnum, at) in index {
        let p = parser.skip_ws(at)?;
        let (value, _) = parser.object(p, 0)?;
        out.push((objnum, value));
    }
    Some(out)
}

/// The Python side's classes and functions, in this order: `DictionaryObject`,
/// `ArrayObject`, `NameObject`, a `NumberObject` maker, a `FloatObject` maker,
/// `BooleanObject`, `NullObject`, `IndirectObject`, `create_string_object`, and a stream
/// maker called with the dictionary (a `dict`) and the span `start, end` of the file's data
/// the stream's data is (`pdfthin.engine.native_reader.factory`).
pub struct Factory<'py> {
    dict: Bound<'py, PyAny>,
    array: Bound<'py, PyAny>,
    name: Bound<'py, PyAny>,
    number: Bound<'py, PyAny>,
    float: Bound<'py, PyAny>,
    boolean: Bound<'py, PyAny>,
    null: Bound<'py, PyAny>,
    reference: Bound<'py, PyAny>,
    string: Bound<'py, PyAny>,
    stream: Bound<'py, PyAny>,
}

impl<'py> Factory<'py> {
    pub fn new(factory: &Bound<'py, PyTuple>) -> PyResult<Self> {
        let item = |i: usize| factory.get_item(i);
        Ok(Factory {
            dict: item(0)?,
            array: item(1)?,
            name: item(2)?,
            number: item(3)?,
            float: item(4)?,
            boolean: item(5)?,
            null: item(6)?,
            reference: item(7)?,
            string: item(8)?,
            stream: item(9)?,
        })
    }
}

fn dict_to_py<'py>(
    f: &Factory<'py>,
    data: &[u8],
    reader: &Bound<'py, PyAny>,
    items: &[(String, Value)],
    into: &Bound<'py, PyDict>,
) -> PyResult<()> {
    for (k, v) in items {
        let key = f.name.call1((PyString::new(into.py(), k),))?;
        into.set_item(key, to_py(f, data, reader, v)?)?;
    }
    Ok(())
}

/// The Python object pypdf would have built for `v`.
pub fn to_py<'py>(
    f: &Factory<'py>,
    data: &[u8],
    reader: &Bound<'py, PyAny>,
    v: &Value,
) -> PyResult<Bound<'py, PyAny>> {
    let py = reader.py();
    Ok(match v {
        Value::Null => f.null.call0()?,
        Value::Bool(b) => f.boolean.call1((*b,))?,
        Value::Int(n) => f.number.call1((*n,))?,
        Value::Real(x) => f.float.call1((*x,))?,
        Value::Name(n) => f.name.call1((PyString::new(py, n),))?,
        Value::Str(s) => f.string.call1((PyBytes::new(py, s),))?,
        Value::Ref(id, gen) => f.reference.call1((*id, *gen, reader))?,
        Value::Array(items) => {
            let out = f.array.call0()?;
            {
                let list = out.downcast::<PyList>()?;
                for item in items {
                    list.append(to_py(f, data, reader, item)?)?;
                }
            }
            out
        }
        Value::Dict(items) => {
            let out = f.dict.call0()?;
            dict_to_py(f, data, reader, items, out.downcast::<PyDict>()?)?;
            out
        }
        Value::Stream(items, start, end) => {
            // pypdf's dictionary and the span of `data` its "__streamdata__" would be (empty
            // where the span is not in `data`), made into a stream object
            let raw = PyDict::new(py);
            dict_to_py(f, data, reader, items, &raw)?;
            let (start, end) = if data.get(*start..*end).is_some() {
                (*start, *end)
            } else {
                (0, 0)
            };
            f.stream.call1((raw, start, end))?
        }
    })
}

/// `read_indirect(data, offset, idnum, generation, reader, factory, limits)`: the object
/// `idnum generation` at `offset` of the file `data`, as pypdf's `get_object` would read it
/// there, with the position its stream would be left at; `None` where pypdf must do it.
/// `factory` is described at [`Factory`]; `limits` is `(array_maximum_element_count,
/// dictionary_maximum_element_count, maximum_declared_stream_length)`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn read_indirect<'py>(
    data: &[u8],
    offset: usize,
    idnum: u64,
    generation: u64,
    reader: Bound<'py, PyAny>,
    factory: Bound<'py, PyTuple>,
    limits: (usize, usize, usize),
) -> PyResult<Option<(Bound<'py, PyAny>, usize)>> {
    crate::boundary::guard("read_indirect", || {
        let limits = Limits::from(limits);
        let Some((value, end)) = parse_indirect(data, offset, idnum, generation, limits) else {
            return Ok(None);
        };
        let factory = Factory::new(&factory)?;
        Ok(Some((to_py(&factory, data, &reader, &value)?, end)))
    })
}

/// `read_object_stream(data, n, first, reader, factory, limits)`: the objects of the object
/// stream whose decompressed data is `data`, `/N n`, `/First first`, as a list of
/// `(object number, object)` in the order of its index, every one as pypdf's
/// `_get_object_from_stream` would read it; `None` where pypdf must do it (see
/// [`parse_object_stream`]). `factory` and `limits` are those of [`read_indirect`].
#[pyfunction]
pub fn read_object_stream<'py>(
    data: &[u8],
    n: usize,
    first: usize,
    reader: Bound<'py, PyAny>,
    factory: Bound<'py, PyTuple>,
    limits: (usize, usize, usize),
) -> PyResult<Option<Bound<'py, PyList>>> {
    crate::boundary::guard("read_object_stream", || {
        let limits = Limits::from(limits);
        let Some(objects) = parse_object_stream(data, n, first, limits) else {
            return Ok(None);
        };
        let factory = Factory::new(&factory)?;
        let py = reader.py();
        let out = PyList::empty(py);
        for (objnum, value) in &objects {
            let obj = to_py(&factory, data, &reader, value)?;
            out.append(PyTuple::new(
                py,
                [objnum.into_pyobject(py)?.into_any(), obj],
            )?)?;
        }
        Ok(Some(out))
    })
}

/// `read_object_header(data, offset)`: `(idnum, generation, end)`, what pypdf's
/// `read_object_header` answers at `offset` of `data` and the position it leaves its stream
/// at, or `None` where pypdf must read it (see [`parse_object_header`]).
#[pyfunction]
pub fn read_object_header(data: &[u8], offset: usize) -> PyResult<Option<(u64, u64, usize)>> {
    crate::boundary::guard("read_object_header", || {
        Ok(parse_object_header(data, offset))
    })
}

/// `read_xref_entries(data, pos, widths, pairs)`: `(entries, end)` as
/// [`parse_xref_entries`] reads them, or `None` where pypdf must.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn read_xref_entries(
    data: &[u8],
    pos: usize,
    widths: (i64, i64, i64),
    pairs: Vec<i64>,
) -> PyResult<Option<(Vec<XrefEntry>, usize)>> {
    crate::boundary::guard("read_xref_entries", || {
        Ok(parse_xref_entries(
            data,
            pos,
            [widths.0, widths.1, widths.2],
            &pairs,
        ))
    })
}

/// `read_xref_table(data, pos)`: `(subsections, end)` as [`parse_xref_table`] reads them,
/// or `None` where pypdf must.
#[pyfunction]
pub fn read_xref_table(data: &[u8], pos: usize) -> PyResult<Option<(Vec<XrefSubsection>, usize)>> {
    crate::boundary::guard("read_xref_table", || Ok(parse_xref_table(data, pos)))
}

/// `read_object_at(data, pos, reader, factory, limits)`: the object `read_object` reads at
/// `pos` after whitespace and the position after it, or `None` where pypdf must (see
/// [`parse_object_at`]); `factory` and `limits` are those of [`read_indirect`].
#[pyfunction]
pub fn read_object_at<'py>(
    data: &[u8],
    pos: usize,
    reader: Bound<'py, PyAny>,
    factory: Bound<'py, PyTuple>,
    limits: (usize, usize, usize),
) -> PyResult<Option<(Bound<'py, PyAny>, usize)>> {
    crate::boundary::guard("read_object_at", || {
        let limits = Limits::from(limits);
        let Some((value, end)) = parse_object_at(data, pos, limits) else {
            return Ok(None);
        };
        let factory = Factory::new(&factory)?;
        Ok(Some((to_py(&factory, data, &reader, &value)?, end)))
    })
}

/// `read_stream_head(data, pos, reader, factory, limits)`: `(dictionary, start, end, e)` of a
/// stream whose data is not followed by `endstream` (see [`parse_stream_head`]), the
/// dictionary a `DictionaryObject` of its entries; `None` otherwise. `factory` and `limits`
/// are those of [`read_indirect`].
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn read_stream_head<'py>(
    data: &[u8],
    pos: usize,
    reader: Bound<'py, PyAny>,
    factory: Bound<'py, PyTuple>,
    limits: (usize, usize, usize),
) -> PyResult<Option<(Bound<'py, PyAny>, usize, usize, usize)>> {
    crate::boundary::guard("read_stream_head", || {
        let limits = Limits::from(limits);
        let Some(head) = parse_stream_head(data, pos, limits) else {
            return Ok(None);
        };
        let factory = Factory::new(&factory)?;
        let dictionary = to_py(&factory, data, &reader, &Value::Dict(head.items))?;
        Ok(Some((
            dictionary,
            head.start,
            head.end,
            head.after_whitespace,
        )))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits {
        max_array: 100_000,
        max_dict: 100_000,
        max_stream: 75_000_000,
    };

    fn parse(s: &[u8]) -> Option<Value> {
        parse_indirect(s, 0, 1, 0, LIMITS).map(|(v, _)| v)
    }

    #[test]
    fn plain_objects() {
        assert_eq!(
            parse(b"1 0 obj << /A 1 /B [2 0 R 1.5 -.5] /C (x\\(y) /D <616> >> endobj"),
            Some(Value::Dict(vec![
                ("/A".into(), Value::Int(1)),
                (
                    "/B".into(),
                    Value::Array(vec![Value::Ref(2, 0), Value::Real(1.5), Value::Real(-0.5)])
                ),
                ("/C".into(), Value::Str(b"x(y".to_vec())),
                ("/D".into(), Value::Str(b"a`".to_vec())),
            ]))
        );
        assert_eq!(
            parse(b"1 0 obj /A#20B endobj"),
            Some(Value::Name("/A B".into()))
        );
        assert_eq!(parse(b"1 0 obj true endobj"), Some(Value::Bool(true)));
    }

    #[test]
    fn left_to_pypdf() {
        assert_eq!(parse(b"2 0 obj 1 endobj"), None); // another object
        assert_eq!(parse(b"1 0 obj << /A 1 /A 2 >> endobj"), None); // a key twice
        assert_eq!(parse(b"1 0 obj (\\q) endobj"), None); // an unknown escape
        assert_eq!(parse(b"1 0 obj 1,5 endobj"), None); // pypdf warns
        assert_eq!(parse(b"1 0 obj /A#2 endobj"), None);
        assert_eq!(parse(b"1 0 obj [1 2"), None); // the end of the file
        assert_eq!(parse(b"1 0 obj -3 0 R endobj"), None);
        let deep = [b"1 0 obj ".as_slice(), &[b'['; 100], &[b']'; 100]].concat();
        assert_eq!(parse(&deep), None);
    }

    fn objstm(s: &[u8], n: usize, first: usize) -> Option<Vec<(u64, Value)>> {
        parse_object_stream(s, n, first, LIMITS)
    }

    #[test]
    fn object_streams() {
        let data = b"10 0 11 11 12 17 << /A 1 >>\n[1 2]\n(a\\)b)";
        assert_eq!(
            objstm(data, 3, 17),
            Some(vec![
                (10, Value::Dict(vec![("/A".into(), Value::Int(1))])),
                (11, Value::Array(vec![Value::Int(1), Value::Int(2)])),
                (12, Value::Str(b"a)b".to_vec())),
            ])
        );
        // at the end of the data: a dictionary, a name, a number
        assert_eq!(
            objstm(b"1 0 <</A 1>>", 1, 4),
            Some(vec![(1, Value::Dict(vec![("/A".into(), Value::Int(1))]))])
        );
        assert_eq!(
            objstm(b"1 0 /Name", 1, 4),
            Some(vec![(1, Value::Name("/Name".into()))])
        );
        assert_eq!(
            objstm(b"1 0 2 3 12 -3.5", 2, 8),
            Some(vec![(1, Value::Int(12)), (2, Value::Real(-3.5))])
        );
        assert_eq!(objstm(b"", 0, 0), Some(vec![]));
    }

    #[test]
    fn object_streams_left_to_pypdf() {
        let data = b"1 0 2 2 12 13";
        assert_eq!(objstm(data, 2, 14), None); // /First past the end
        assert_eq!(objstm(data, 5, 6), None); // /N above len // 3
        assert_eq!(objstm(b"1 2 2 0 12 13", 2, 6), None); // offsets not increasing
        assert_eq!(objstm(b"1 0 2 9 12 13", 2, 6), None); // an offset past the end
        assert_eq!(objstm(b"1 0 -2 2 12 13", 2, 6), None); // negative
        assert_eq!(objstm(b"1 0 2.0 2 12 13", 2, 6), None); // a float
        assert_eq!(objstm(b"1 0 x 2 12 13", 2, 6), None); // not a number
        assert_eq!(objstm(b"1 0 [1 2", 1, 4), None); // truncated
        assert_eq!(objstm(b"1 0 <</Length 1>>stream\nx\nendstream", 1, 4), None);
        assert_eq!(objstm(b"1 0 (\\q)", 1, 4), None); // pypdf warns
        assert_eq!(objstm(b"1 4    ", 1, 4), None); // only whitespace there
    }

    #[test]
    fn object_streams_of_too_many_values_are_left_to_pypdf() {
        // one object, an array of `items` zeros: the array and its items are values
        let stream = |items: usize| {
            let mut s = b"1 0 [".to_vec();
            s.extend(b"0 ".repeat(items));
            s.push(b']');
            s
        };
        let most = MAX_OBJECT_STREAM_VALUES - 1;
        let fits = objstm(&stream(most), 1, 4).expect("within the bound");
        assert!(matches!(&fits[0].1, Value::Array(items) if items.len() == most));
        assert_eq!(objstm(&stream(most + 1), 1, 4), None);
        // as many objects as values allowed, and one more
        let many = |n: usize| {
            let index: Vec<u8> = (0..n)
                .flat_map(|k| format!("1 {} ", 2 * k).into_bytes())
                .collect();
            let first = index.len();
            ([index, b"0 ".repeat(n)].concat(), first)
        };
        let (s, first) = many(MAX_OBJECT_STREAM_VALUES);
        assert!(objstm(&s, MAX_OBJECT_STREAM_VALUES, first).is_some());
        let (s, first) = many(MAX_OBJECT_STREAM_VALUES + 1);
        assert_eq!(objstm(&s, MAX_OBJECT_STREAM_VALUES + 1, first), None);
    }

    #[test]
    fn object_streams_never_panic() {
        let s = b"10 0 11 8 12 14 << /A [1 2.5 (a\\101) <41> /N#41 true false null 3 0 R] >>\nstream\r\nxy\nendstream 5";
        for end in 0..s.len() {
            for n in 0..5 {
                for first in [0, 1, 15, 16, 17, end, end + 1, usize::MAX] {
                    let _ = parse_object_stream(&s[..end], n, first, LIMITS);
                }
            }
        }
        let _ = parse_object_stream(s, usize::MAX, usize::MAX, LIMITS);
    }

    #[test]
    fn object_headers() {
        assert_eq!(parse_object_header(b"12 0 obj\n<<", 0), Some((12, 0, 9)));
        assert_eq!(
            parse_object_header(b"\r\n 7\x0b3  xyz  [", 0),
            Some((7, 3, 13))
        );
        assert_eq!(parse_object_header(b"x 1 0 obj 5", 1), Some((1, 0, 10)));
        for left in [
            b"%c\n1 0 obj 5".as_slice(),
            b"1 0 obj",
            b"1 0 obj   ",
            b"1 0",
            b"-1 0 obj 5",
            b"1_0 0 obj 5",
            b"1 +0 obj 5",
            b"1\x1c0 obj 5",
            b"99999999999999999999 0 obj 5",
            b"",
        ] {
            assert_eq!(parse_object_header(left, 0), None, "{left:?}");
        }
        let s = b"  12 0 obj\r\n<< >>";
        for end in 0..s.len() {
            for start in 0..=end + 1 {
                let _ = parse_object_header(&s[..end], start);
            }
        }
        let _ = parse_object_header(s, usize::MAX);
    }

    #[test]
    fn xref_entries() {
        let data = [0u8, 0, 0, 0, 1, 0, 16, 0, 2, 0, 3, 1, 9, 0, 5, 0, 0];
        assert_eq!(
            parse_xref_entries(&data, 0, [1, 2, 1], &[0, 4]),
            Some((vec![(1, 1, 16, 0), (2, 2, 3, 1)], 13))
        );
        // type 9: only its type read; widths of 0: the defaults; the end of the data
        assert_eq!(
            parse_xref_entries(&[9, 7, 2, 5], 0, [1, 0, 0], &[5, 3, 7]),
            Some((vec![(7, 2, 0, 0)], 3))
        );
        assert_eq!(
            parse_xref_entries(&[1, 0, 16, 0], 0, [1, 2, 2], &[10, 2]),
            Some((vec![(10, 1, 16, 0)], 4))
        );
        assert_eq!(
            parse_xref_entries(&[1, 0, 16, 0], 0, [-1, 2, 2], &[-3, 1]),
            Some((vec![(-3, 1, 256, 4096)], 4))
        );
        assert_eq!(parse_xref_entries(&data, 0, [1, 9, 1], &[0, 4]), None);
        assert_eq!(parse_xref_entries(&data, 0, [1, 2, 1], &[0, 1000]), None);
        assert_eq!(
            parse_xref_entries(&data, 0, [1, 2, 1], &[i64::MAX, 2]),
            None
        );
        for end in 0..data.len() {
            for pos in 0..=end + 1 {
                for w in [[1, 2, 1], [0, 0, 0], [8, 8, 8], [-5, 3, 0]] {
                    let _ = parse_xref_entries(&data[..end], pos, w, &[0, 5, 3, 2, 1]);
                }
            }
        }
        let _ = parse_xref_entries(&data, usize::MAX, [1, 2, 1], &[0, 5]);
    }

    #[test]
    fn xref_tables() {
        let t = b"xref\n0 3\n0000000000 65535 f \n0000000017 00000 n \n0000000081 00001 n \ntrailer\n<<>>";
        assert_eq!(
            parse_xref_table(t, 1),
            Some((
                vec![(0, vec![(0, 65535, 2), (17, 0, 1), (81, 1, 1)])],
                t.len() - 5
            ))
        );
        // a CR before a line, a 19-byte line, two subsections, another type
        let t = b"xref\r4 2\r0000000017 00000 n\r\n\r0000000018 00000 n\n7 1\n0000000019 00002 x \n  trailer";
        assert_eq!(
            parse_xref_table(t, 1),
            Some((
                vec![(4, vec![(17, 0, 1), (18, 0, 1)]), (7, vec![(19, 2, 0)])],
                t.len()
            ))
        );
        for left in [
            b"xref\n0 1\n000000000a 65535 f \ntrailer".as_slice(), // not digits
            b"xref\n0 1\n0000000000  65535 f \ntrailer",           // two spaces
            b"xref\n0 1\n0000000000 65535 f",                      // short
            b"xref\n0 1.0\n0000000000 65535 f \ntrailer",          // a float count
            b"xref\n0 9\n0000000000 65535 f \ntrailer",            // above len / 20
            b"xref\n0 1\n0000000000 65535 f \n%c\ntrailer",        // a comment
            b"xref\n0 1\n0000000000 65535 f \ntrail",              // the end
            b"xref\n0 0\nfoo 0 0\n",                               // garbage
            b"xref\n0 0\n0 0\n0 0\n0 0\n0 0\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", // garbage
            b"xre",
        ] {
            assert_eq!(parse_xref_table(left, 1), None, "{left:?}");
        }
        let t = b"xref\r\n0 2\r\n0000000000 65535 f\r\n0000000017 00000 n\r\n3 1\n0000000019 00002 n \ntrailer<<>>";
        for end in 0..=t.len() {
            for start in 0..=end + 1 {
                let _ = parse_xref_table(&t[..end], start);
                let _ = parse_object_at(&t[..end], start, LIMITS);
            }
        }
        let _ = parse_xref_table(t, usize::MAX);
        let _ = parse_object_at(t, usize::MAX, LIMITS);
    }

    #[test]
    fn never_panics_on_prefixes() {
        let s = b"1 0 obj << /A [1 2.5 (a\\101) <41> /N#41 true false null 3 0 R] >>\nstream\r\nxy\nendstream endobj";
        for end in 0..s.len() {
            for start in 0..end {
                let _ = parse_indirect(&s[..end], start, 1, 0, LIMITS);
            }
        }
    }

    #[test]
    fn stream_heads() {
        let head = |s: &[u8]| {
            parse_stream_head(s, 0, LIMITS).map(|h| (h.start, h.end, h.after_whitespace))
        };
        // endstream where the length puts it: read whole elsewhere, not here
        assert_eq!(head(b"<< /Length 2 >>stream\nxy\nendstream"), None);
        // a length one too long (pypdf then looks one byte back)
        assert_eq!(
            head(b"<< /Length 4 >>stream\nxy\nendstream"),
            Some((22, 26, 26))
        );
        // a run of NULs after the data, then something else
        let mut s = b"<</Length 2>>stream\r\nxy".to_vec();
        s.extend([0u8; 1000]);
        s.extend(b" \n1 0 obj");
        assert_eq!(head(&s), Some((21, 23, 1025)));
        // whitespace up to the end of the data, or a length past it
        assert_eq!(head(b"<</Length 2>>stream\nxy\0\0"), Some((20, 22, 24)));
        assert_eq!(head(b"<</Length 50>>stream\nxy"), Some((21, 23, 23)));
        // the entries come along
        let h = parse_stream_head(b"<</Length 1/F/X>>stream\nab", 0, LIMITS).unwrap();
        assert_eq!(
            h.items,
            vec![
                ("/Length".to_string(), Value::Int(1)),
                ("/F".to_string(), Value::Name("/X".to_string()))
            ]
        );
        // what pypdf reads otherwise: whitespace or a comment first, no stream, an indirect
        // or negative length, over the limit, a bad end of line
        for left in [
            &b" << /Length 4 >>stream\nxy\nendstream"[..],
            b"%c\n<< /Length 4 >>stream\nxy\nendstream",
            b"<< /Length 4 >> 1 0 obj",
            b"<< /Length 4 0 R >>stream\nxy\nendstream",
            b"<< /Length -1 >>stream\nxy\nendstream",
            b"<< /Length 75000001 >>stream\nxy\nendstream",
            b"<< /Length 4 >>streamxy\nendstream",
            b"<< /Length 4 /Length 5 >>stream\nxy\nendstream",
        ] {
            assert_eq!(head(left), None, "{left:?}");
        }
        let s = b"<< /Length 9 /A [1 (x)] >>\nstream \r\nxy\nendstream endobj";
        for end in 0..=s.len() {
            for start in 0..=end {
                let _ = parse_stream_head(&s[..end], start, LIMITS);
            }
        }
    }
}
