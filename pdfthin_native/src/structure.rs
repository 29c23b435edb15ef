//! Running furniture and list items: `pdfthin/layout/structure.py`'s `mark_furniture` and
//! `mark_lists`, step by step, over the document's pages in one call.
//!
//! Everything is read and decided before anything is changed, so the answer can be `None`
//! ("let Python do it") at any point before then: where a page's `number` is not an `int`
//! that fits `i64`, a height or a block's or line's coordinate not a `float`, a block not
//! exactly of the `Block` class, a `kind` or a line's text not a `str` (or one with no UTF-8
//! form), an `artifact` not a `bool`, a container not a `list`, or a hook's answer not what
//! it should be.
//!
//! The text tests are native for ASCII texts (the regexes over ASCII subjects, checked against
//! Python's on every short string over their alphabets): a candidate whose text is not ASCII
//! gets its key, letters, page-number match and decimal value from the `facts` hook. A line's
//! list marker is decided here where Python's `\d` cannot matter (see [`item_end`]), else by
//! the `is_item` hook.

use std::collections::{HashMap, HashSet};

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::pyops::{is_space, pmax, pmin, utf8};

/// `BAND`
const BAND: f64 = 0.12;

/// The list-marker characters of `_BULLET`.
fn bullet_char(c: char) -> bool {
    matches!(
        c,
        '•' | '◦'
            | '▪'
            | '▫'
            | '‣'
            | '⁃'
            | '●'
            | '○'
            | '■'
            | '□'
            | '►'
            | '▸'
            | '▹'
            | '–'
            | '—'
            | '*'
            | '·'
            | '✓'
            | '✔'
            | '➢'
            | '➤'
            | '→'
            | '-'
    )
}

/// `\s+(?=\S)` from byte `at`: the end of the white space (at least one character) when a
/// character that is not white space follows it.
fn spaces_then_text(s: &str, at: usize) -> Option<usize> {
    let rest = s.get(at..)?;
    let text = rest.trim_start_matches(is_space);
    let end = at + (rest.len() - text.len());
    (end > at && !text.is_empty()).then_some(end)
}

/// A list marker at the start of a text: `_BULLET.match` or `_ENUM.match` (byte offsets).
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub enum Marker {
    /// `_BULLET` matched, ending here.
    Bullet(usize),
    /// `_ENUM` matched: `group(1)` is `text[..marker]`, the match ends at `end`.
    Enum {
        marker: usize,
        end: usize,
    },
    None,
}

/// `_BULLET.match(text)` then `_ENUM.match(text)`, or `None` (the outer one) where Python's
/// `\d` would have to say whether a non-ASCII character is a digit. `_BULLET` is a set of
/// characters then `\s+(?=\S)`, read by `str.isspace` alone ([`is_space`], CPython's
/// table), exact on any text.
///
/// `_ENUM` is `^(\(?(?:\d{1,3}|[a-zA-Z]|[ivxIVX]{1,5})[.)])\s+(?=\S)`: none of its
/// alternatives matches `(`, `.` or `)`, so the `(` is taken when it is there, and the marker
/// ends at the first `.` or `)` after it; what lies between (the token) must be one of the
/// alternatives. Of those only `\d{1,3}` matches characters that are not ASCII, so a token
/// holding one is undecided only when it is at most three characters, its ASCII ones
/// digits, and white space then text follow the marker.
pub fn marker(text: &str) -> Option<Marker> {
    if let Some(c) = text.chars().next() {
        if bullet_char(c) {
            if let Some(end) = spaces_then_text(text, c.len_utf8()) {
                return Some(Marker::Bullet(end));
            }
        }
    }
    let p = usize::from(text.starts_with('('));
    let (mut q, mut n, mut ascii, mut closed) = (p, 0usize, true, false);
    for c in text[p..].chars() {
        if matches!(c, '.' | ')') {
            closed = true;
            break;
        }
        if n >= 5 {
            return Some(Marker::None); // longer than any alternative
        }
        n += 1;
        q += c.len_utf8();
        ascii &= c.is_ascii();
    }
    if !closed {
        return Some(Marker::None);
    }
    let token = &text.as_bytes()[p..q];
    if !ascii {
        // Only `\d{1,3}` can match a character that is not ASCII: whether it is a digit
        // is Python's to say, when nothing else rules the token out.
        let digits = n <= 3 && token.iter().all(|b| !b.is_ascii() || b.is_ascii_digit());
        if digits && spaces_then_text(text, q + 1).is_some() {
            return None;
        }
        return Some(Marker::None);
    }
    let fits = (1..=3).contains(&n) && token.iter().all(u8::is_ascii_digit)
        || n == 1 && token[0].is_ascii_alphabetic()
        || (1..=5).contains(&n) && token.iter().all(|b| b"ivxIVX".contains(b));
    if !fits {
        return Some(Marker::None);
    }
    Some(match spaces_then_text(text, q + 1) {
        Some(end) => Marker::Enum { marker: q + 1, end },
        None => Marker::None,
    })
}

/// Python's `str.split()` then `" ".join`, of an ASCII text.
fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split(is_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// `_key(text)` of an ASCII text: lower case, each run of digits one `#`, white space one
/// space.
fn key(s: &str) -> String {
    let mut lowered = String::with_capacity(s.len());
    let mut digits = false;
    for c in s.chars() {
        if c.is_ascii_digit() {
            if !digits {
                lowered.push('#');
            }
            digits = true;
        } else {
            lowered.push(c.to_ascii_lowercase());
            digits = false;
        }
    }
    collapse(&lowered)
}

/// Python's `str.strip()`.
fn strip(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// The positions `\s*` reaches from any of `at`.
fn spaces(s: &[u8], at: &mut [bool]) {
    for i in 0..s.len() {
        if at[i] && is_space(char::from(s[i])) {
            at[i + 1] = true;
        }
    }
}

/// The positions a literal (ASCII, case ignored) reaches from any of `from`.
fn literal(s: &[u8], from: &[bool], word: &str, to: &mut [bool]) {
    let w = word.as_bytes();
    for (i, _) in from.iter().enumerate().filter(|(_, &on)| on) {
        if s.len() - i >= w.len() && s[i..i + w.len()].eq_ignore_ascii_case(w) {
            to[i + w.len()] = true;
        }
    }
}

/// The positions `[class]{1,most}` reaches from any of `from`.
fn repeat(s: &[u8], from: &[bool], class: impl Fn(u8) -> bool, most: usize, to: &mut [bool]) {
    for (i, _) in from.iter().enumerate().filter(|(_, &on)| on) {
        let mut j = i;
        while j < s.len() && j - i < most && class(s[j]) {
            j += 1;
            to[j] = true;
        }
    }
}

/// The positions `[class]?` reaches from any of `at` (from those before, not chained).
fn optional(s: &[u8], at: &mut [bool], class: impl Fn(u8) -> bool) {
    for i in (0..s.len()).rev() {
        if at[i] && class(s[i]) {
            at[i + 1] = true;
        }
    }
}

fn union(a: &mut [bool], b: &[bool]) {
    for (x, &y) in a.iter_mut().zip(b) {
        *x |= y;
    }
}

/// `bool(_PAGE_NUMBER.match(s))` for an ASCII text: the set of positions each part of the
/// pattern can reach, part after part (what backtracking explores, without the order).
pub fn page_number(s: &[u8]) -> bool {
    let n = s.len();
    let empty = || vec![false; n + 1];
    let mut at = empty();
    at[0] = true;
    // (?:page|seite|página|pagina|p\.)?  -- página cannot match ASCII
    let start = at.clone();
    for word in ["page", "seite", "pagina", "p."] {
        literal(s, &start, word, &mut at);
    }
    spaces(s, &mut at);
    // [-–—(\[]?
    optional(s, &mut at, |b| matches!(b, b'-' | b'(' | b'['));
    spaces(s, &mut at);
    // (?:\d{1,4}|[ivxlcdm]{1,7})
    let mut number = empty();
    repeat(s, &at, |b| b.is_ascii_digit(), 4, &mut number);
    repeat(
        s,
        &at,
        |b| b"ivxlcdm".contains(&b.to_ascii_lowercase()),
        7,
        &mut number,
    );
    let mut at = number;
    spaces(s, &mut at);
    // [-–—)\]]?
    optional(s, &mut at, |b| matches!(b, b'-' | b')' | b']'));
    // (?:\s*(?:of|/|von|de)\s*\d{1,4})?
    let mut of = at.clone();
    spaces(s, &mut of);
    let mut word = empty();
    for w in ["of", "/", "von", "de"] {
        literal(s, &of, w, &mut word);
    }
    spaces(s, &mut word);
    let mut tail = empty();
    repeat(s, &word, |b| b.is_ascii_digit(), 4, &mut tail);
    union(&mut at, &tail);
    // $: the end, or just before a newline that ends the text
    at[n] || (n > 0 && s[n - 1] == b'\n' && at[n - 1])
}

/// `int(text)` of a decimal ASCII text (`None` when it is not one, or too large to equal any
/// page number plus offset).
fn decimal(s: &str) -> Option<Result<i128, ()>> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = s.trim_start_matches('0');
    if digits.len() > 36 {
        return Some(Err(()));
    }
    Some(Ok(digits
        .bytes()
        .fold(0i128, |v, b| v * 10 + i128::from(b - b'0'))))
}

/// What `mark_furniture` asks of a candidate's text.
struct Facts {
    key: String,
    words: bool,
    page_number: bool,
    /// `int(number)` when `number.isdecimal()` (`Err` when too large to matter).
    value: Option<Result<i128, ()>>,
    /// `number.isdecimal() and len(number) <= 4`
    short: bool,
}

fn ascii_facts(text: &str) -> Facts {
    let key = key(text);
    let number = strip(text);
    let value = decimal(number);
    Facts {
        words: key.bytes().any(|b| b.is_ascii_alphabetic()),
        key,
        page_number: page_number(number.as_bytes()),
        short: value.is_some() && number.len() <= 4,
        value,
    }
}

fn float(obj: &Bound<'_, PyAny>, name: &Bound<'_, PyString>) -> PyResult<Option<f64>> {
    Ok(obj
        .getattr(name)?
        .downcast_exact::<PyFloat>()
        .ok()
        .map(|f| f.value()))
}

fn list<'py>(
    obj: &Bound<'py, PyAny>,
    name: &Bound<'py, PyString>,
) -> PyResult<Option<Bound<'py, PyList>>> {
    Ok(obj.getattr(name)?.downcast_exact::<PyList>().ok().cloned())
}

struct SLine<'py> {
    obj: Bound<'py, PyAny>,
    /// `None` when the text is not needed (and was not read).
    text: Option<String>,
}

struct SBlock<'py> {
    obj: Bound<'py, PyAny>,
    kind: String,
    y0: f64,
    y1: f64,
    lines: Vec<SLine<'py>>,
}

struct SPage<'py> {
    obj: Bound<'py, PyAny>,
    number: i64,
    height: f64,
    blocks: Vec<SBlock<'py>>,
    header: Bound<'py, PyList>,
    footer: Bound<'py, PyList>,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Band {
    Top,
    Bottom,
}

fn band(block: &SBlock<'_>, height: f64) -> Option<Band> {
    if height <= 0.0 {
        return None;
    }
    if block.y1 <= BAND * height {
        return Some(Band::Top);
    }
    if block.y0 >= (1.0 - BAND) * height {
        return Some(Band::Bottom);
    }
    None
}

struct Candidate {
    block: usize,
    band: Band,
    text: String,
    facts: Facts,
}

struct Reader<'py> {
    py: Python<'py>,
    block_cls: Bound<'py, PyAny>,
}

impl<'py> Reader<'py> {
    /// The pages as far as they can be read, or `None`.
    fn pages(&self, pages: &Bound<'py, PyAny>) -> PyResult<Option<Vec<SPage<'py>>>> {
        let py = self.py;
        let Ok(pages) = pages.downcast_exact::<PyList>() else {
            return Ok(None);
        };
        let mut out = Vec::with_capacity(pages.len());
        let mut seen: HashSet<usize> = HashSet::new();
        for page in pages.iter() {
            let number = page.getattr(intern!(py, "number"))?;
            let Some(number) = number
                .downcast_exact::<PyInt>()
                .ok()
                .and_then(|n| n.extract::<i64>().ok())
            else {
                return Ok(None);
            };
            if !seen.insert(page.as_ptr() as usize) {
                return Ok(None); // a page twice: Python's second pass sees the first's changes
            }
            let Some(height) = float(&page, intern!(py, "height"))? else {
                return Ok(None);
            };
            let (Some(blocks), Some(header), Some(footer)) = (
                list(&page, intern!(py, "blocks"))?,
                list(&page, intern!(py, "header"))?,
                list(&page, intern!(py, "footer"))?,
            ) else {
                return Ok(None);
            };
            if header.is(&footer) {
                return Ok(None); // one list: the order of the appends would show
            }
            let mut read = Vec::with_capacity(blocks.len());
            for block in blocks.iter() {
                match self.block(block)? {
                    Some(b) => read.push(b),
                    None => return Ok(None),
                }
            }
            out.push(SPage {
                obj: page,
                number,
                height,
                blocks: read,
                header,
                footer,
            });
        }
        Ok(Some(out))
    }

    fn block(&self, block: Bound<'py, PyAny>) -> PyResult<Option<SBlock<'py>>> {
        let py = self.py;
        if !block.get_type().is(&self.block_cls) {
            return Ok(None);
        }
        let kind = block.getattr(intern!(py, "kind"))?;
        let (Ok(kind), Some(y0), Some(y1), Some(lines)) = (
            kind.downcast_exact::<PyString>(),
            float(&block, intern!(py, "y0"))?,
            float(&block, intern!(py, "y1"))?,
            list(&block, intern!(py, "lines"))?,
        ) else {
            return Ok(None);
        };
        // Kinds are short ASCII names: read in place (a UTF-8 form cached in any other).
        let Ok(kind) = kind.to_str().map(str::to_owned) else {
            return Ok(None);
        };
        let mut read = Vec::with_capacity(lines.len());
        for line in lines.iter() {
            read.push(SLine {
                obj: line,
                text: None,
            });
        }
        Ok(Some(SBlock {
            obj: block,
            kind,
            y0,
            y1,
            lines: read,
        }))
    }
}

/// A line's text, read once; `None` when it is not a `str` with a UTF-8 form.
fn line_text<'a>(py: Python<'_>, line: &'a mut SLine<'_>) -> PyResult<Option<&'a str>> {
    if line.text.is_none() {
        let text = line.obj.getattr(intern!(py, "text"))?;
        if !text.is_exact_instance_of::<PyString>() {
            return Ok(None);
        }
        line.text = utf8(&text)?;
    }
    Ok(line.text.as_deref())
}

/// `block.text`, or `None` (see [`line_text`]).
fn block_text(py: Python<'_>, block: &mut SBlock<'_>) -> PyResult<Option<String>> {
    let mut out = String::new();
    for (i, line) in block.lines.iter_mut().enumerate() {
        let Some(text) = line_text(py, line)? else {
            return Ok(None);
        };
        if i > 0 {
            out.push(' ');
        }
        out.push_str(text);
    }
    Ok(Some(out))
}

/// What `mark_furniture` decides for one page: the blocks it drops, and the texts it adds
/// to the header and to the footer.
struct Furniture {
    drop: HashSet<usize>,
    header: Vec<String>,
    footer: Vec<String>,
}

fn furniture(
    py: Python<'_>,
    pages: &mut [SPage<'_>],
    facts_hook: &Bound<'_, PyAny>,
) -> PyResult<Option<Vec<Furniture>>> {
    let n = pages.len();
    let mut counts: HashMap<(Band, String), usize> = HashMap::new();
    let mut candidates: Vec<Vec<Candidate>> = Vec::with_capacity(n);
    for page in pages.iter_mut() {
        let mut found = Vec::new();
        let mut seen: HashSet<(Band, String)> = HashSet::new();
        let height = page.height;
        for (b, block) in page.blocks.iter_mut().enumerate() {
            let Some(band) = band(block, height) else {
                continue;
            };
            if block.kind == "table" || block.lines.len() > 2 {
                continue;
            }
            let Some(text) = block_text(py, block)? else {
                return Ok(None);
            };
            if text.chars().count() > 120 {
                continue;
            }
            let facts = if text.is_ascii() {
                ascii_facts(&text)
            } else {
                match hook_facts(facts_hook, &text)? {
                    Some(f) => f,
                    None => return Ok(None),
                }
            };
            let band_key = (band, facts.key.clone());
            if seen.insert(band_key.clone()) {
                *counts.entry(band_key).or_insert(0) += 1;
            }
            found.push(Candidate {
                block: b,
                band,
                text,
                facts,
            });
        }
        candidates.push(found);
    }
    let repeat_min = if n <= 3 {
        2
    } else {
        // max(3, math.ceil(0.25 * n))
        3usize.max((0.25 * n as f64).ceil() as usize)
    };
    let mut with_body: HashMap<(Band, String), usize> = HashMap::new();
    for (page, found) in pages.iter().zip(&candidates) {
        if page.blocks.len() > found.len() {
            let keys: HashSet<(Band, &String)> =
                found.iter().map(|c| (c.band, &c.facts.key)).collect();
            for (band, key) in keys {
                *with_body.entry((band, key.clone())).or_insert(0) += 1;
            }
        }
    }
    let offset = page_number_offset(pages, &candidates);
    let mut out = Vec::with_capacity(n);
    for (page, found) in pages.iter().zip(&candidates) {
        let mut chosen: Vec<&Candidate> = Vec::new();
        let (top, bottom) = body_edges(page, found);
        for c in found {
            let band_key = (c.band, c.facts.key.clone());
            let count = counts.get(&band_key).copied().unwrap_or(0);
            let body = with_body.get(&band_key).copied().unwrap_or(0);
            let repeated = count >= repeat_min && 2 * body >= count;
            let words = c.facts.words;
            let page_number = c.facts.page_number;
            let block = &page.blocks[c.block];
            let at_edge = match c.band {
                Band::Top => block.y1 <= top + 2.0,
                Band::Bottom => block.y0 >= bottom - 2.0,
            };
            let fits = match (offset, &c.facts.value) {
                (None, _) | (_, None) => true,
                (Some(o), Some(Ok(v))) => *v - i128::from(page.number) == o,
                (Some(_), Some(Err(()))) => false,
            };
            let artifact = all_artifacts(py, block)?;
            let Some(artifact) = artifact else {
                return Ok(None);
            };
            if (words && n >= 2 && repeated)
                || (page_number && at_edge && fits)
                || artifact
                || (!words && !page_number && n >= 4 && repeated)
            {
                chosen.push(c);
            }
        }
        // sorted(furniture, key=lambda fb: fb[0].y0): stable; a NaN would make the order
        // timsort's own.
        if chosen.len() > 1 && chosen.iter().any(|c| page.blocks[c.block].y0.is_nan()) {
            return Ok(None);
        }
        chosen.sort_by(|a, b| {
            let (ya, yb) = (page.blocks[a.block].y0, page.blocks[b.block].y0);
            ya.partial_cmp(&yb).unwrap_or(std::cmp::Ordering::Equal)
        });
        let mut f = Furniture {
            drop: chosen.iter().map(|c| c.block).collect(),
            header: Vec::new(),
            footer: Vec::new(),
        };
        for c in chosen {
            match c.band {
                Band::Top => f.header.push(c.text.clone()),
                Band::Bottom => f.footer.push(c.text.clone()),
            }
        }
        out.push(f);
    }
    Ok(Some(out))
}

/// `all(line.artifact for line in block.lines)`, or `None` when an `artifact` read (up to
/// the first false one) is not a `bool`.
fn all_artifacts(py: Python<'_>, block: &SBlock<'_>) -> PyResult<Option<bool>> {
    for line in &block.lines {
        let a = line.obj.getattr(intern!(py, "artifact"))?;
        let Ok(a) = a.downcast_exact::<PyBool>() else {
            return Ok(None);
        };
        if !a.is_true() {
            return Ok(Some(false));
        }
    }
    Ok(Some(true))
}

fn hook_facts(hook: &Bound<'_, PyAny>, text: &str) -> PyResult<Option<Facts>> {
    let answer = hook.call1((text,))?;
    let Ok(t) = answer.downcast_exact::<PyTuple>() else {
        return Ok(None);
    };
    if t.len() != 5 {
        return Ok(None);
    }
    let key = t.get_item(0)?;
    let Ok(key) = key.downcast_exact::<PyString>() else {
        return Ok(None);
    };
    let Some(key) = utf8(key)? else {
        return Ok(None);
    };
    let value = t.get_item(3)?;
    let value = if value.is_none() {
        None
    } else {
        let Ok(v) = value.downcast_exact::<PyInt>() else {
            return Ok(None);
        };
        Some(v.extract::<i128>().map_err(|_| ()))
    };
    Ok(Some(Facts {
        key,
        words: t.get_item(1)?.is_truthy()?,
        page_number: t.get_item(2)?.is_truthy()?,
        value,
        short: t.get_item(4)?.is_truthy()?,
    }))
}

/// `_page_number_offset(pages, candidates)`.
fn page_number_offset(pages: &[SPage<'_>], candidates: &[Vec<Candidate>]) -> Option<i128> {
    // Counter keeps first-seen order; only a clear winner is answered, so order is moot.
    let mut offsets: Vec<(i128, usize)> = Vec::new();
    for (page, found) in pages.iter().zip(candidates) {
        for c in found {
            if !c.facts.short {
                continue;
            }
            let Some(Ok(v)) = c.facts.value else {
                continue;
            };
            let o = v - i128::from(page.number);
            match offsets.iter_mut().find(|e| e.0 == o) {
                Some(e) => e.1 += 1,
                None => offsets.push((o, 1)),
            }
        }
    }
    if offsets.is_empty() {
        return None;
    }
    // most_common(2): the two largest counts, first seen first among equals.
    let mut ranked = offsets.clone();
    ranked.sort_by_key(|e| std::cmp::Reverse(e.1));
    let (best, count) = ranked[0];
    let runner_up = ranked.get(1).map_or(0, |e| e.1);
    (count >= 2 && count > 2 * runner_up).then_some(best)
}

/// `_body_edges(page, found)`.
fn body_edges(page: &SPage<'_>, found: &[Candidate]) -> (f64, f64) {
    let candidates: HashSet<usize> = found.iter().map(|c| c.block).collect();
    let mut body = page
        .blocks
        .iter()
        .enumerate()
        .filter(|(i, _)| !candidates.contains(i))
        .map(|(_, b)| b);
    let Some(first) = body.next() else {
        return (page.height, 0.0);
    };
    let (mut top, mut bottom) = (first.y0, first.y1);
    for b in body {
        top = pmin(top, b.y0);
        bottom = pmax(bottom, b.y1);
    }
    (top, bottom)
}

/// One block of `mark_lists`' answer: a block kept, or a new one of some lines of a block.
enum Out {
    Kept(usize),
    New {
        block: usize,
        lines: Vec<usize>,
        item: bool,
    },
}

/// Whether each line of a paragraph block starts a list item, or `None`.
fn items(
    py: Python<'_>,
    block: &mut SBlock<'_>,
    is_item: &Bound<'_, PyAny>,
) -> PyResult<Option<Vec<bool>>> {
    let mut out = Vec::with_capacity(block.lines.len());
    for line in block.lines.iter_mut() {
        let Some(text) = line_text(py, line)? else {
            return Ok(None);
        };
        let item = match marker(text) {
            Some(m) => m != Marker::None,
            None => {
                let answer = is_item.call1((text,))?;
                let Ok(answer) = answer.downcast_exact::<PyBool>() else {
                    return Ok(None);
                };
                answer.is_true()
            }
        };
        out.push(item);
    }
    Ok(Some(out))
}

/// `mark_lists` over the blocks each page keeps.
fn lists(
    py: Python<'_>,
    pages: &mut [SPage<'_>],
    kept: &[Vec<usize>],
    is_item: &Bound<'_, PyAny>,
) -> PyResult<Option<Vec<Vec<Out>>>> {
    let mut all = Vec::with_capacity(pages.len());
    for (page, kept) in pages.iter_mut().zip(kept) {
        let mut out = Vec::new();
        for &b in kept {
            let block = &mut page.blocks[b];
            if block.kind != "paragraph" {
                out.push(Out::Kept(b));
                continue;
            }
            let Some(marks) = items(py, block, is_item)? else {
                return Ok(None);
            };
            if !marks.iter().any(|&m| m) {
                out.push(Out::Kept(b));
                continue;
            }
            for (i, &m) in marks.iter().enumerate() {
                match out.last_mut() {
                    Some(Out::New {
                        block: owner,
                        lines,
                        ..
                    }) if !m && *owner == b => lines.push(i),
                    _ => out.push(Out::New {
                        block: b,
                        lines: vec![i],
                        item: m,
                    }),
                }
            }
        }
        all.push(out);
    }
    Ok(Some(all))
}

/// The new block of `lines` of `block` (the first line's box, widened and lowered by the
/// others', as `mark_lists` grows it), or `None` when a coordinate is not a `float`.
fn new_block<'py>(
    py: Python<'py>,
    block_cls: &Bound<'py, PyAny>,
    block: &SBlock<'py>,
    lines: &[usize],
    item: bool,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let first = &block.lines[lines[0]].obj;
    let (Some(mut x0), Some(_), Some(mut x1), Some(mut y1)) = (
        float(first, intern!(py, "x0"))?,
        float(first, intern!(py, "y0"))?,
        float(first, intern!(py, "x1"))?,
        float(first, intern!(py, "y1"))?,
    ) else {
        return Ok(None);
    };
    for &i in &lines[1..] {
        let line = &block.lines[i].obj;
        let (Some(lx0), Some(lx1), Some(ly1)) = (
            float(line, intern!(py, "x0"))?,
            float(line, intern!(py, "x1"))?,
            float(line, intern!(py, "y1"))?,
        ) else {
            return Ok(None);
        };
        x0 = pmin(x0, lx0);
        x1 = pmax(x1, lx1);
        y1 = pmax(y1, ly1);
    }
    let members = PyList::new(py, lines.iter().map(|&i| &block.lines[i].obj))?;
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item(
        intern!(py, "kind"),
        if item { "list_item" } else { "paragraph" },
    )?;
    let made = block_cls.call(
        (
            members,
            x0,
            first.getattr(intern!(py, "y0"))?,
            x1,
            y1,
            first.getattr(intern!(py, "size"))?,
            first.getattr(intern!(py, "bold"))?,
        ),
        Some(&kwargs),
    )?;
    Ok(Some(made))
}

/// `mark_structure(pages, Block, hooks, furniture, lists)`: `mark_furniture(pages)` when
/// `furniture`, then `mark_lists(pages)` when `lists`, done on the very objects (the blocks
/// kept are the same objects, new ones are made with `Block`, the texts of headers and footers
/// appended to the pages' own lists). `hooks` is `(facts, is_item)`: `facts(text)` answers
/// `(key, has letters, page-number match, int value or None, short decimal)` of a candidate's
/// non-ASCII text, `is_item(text)` whether a line starts a list item where `\d` decides.
/// `None`, with nothing changed, where Python must do it (see the module's comment).
#[pyfunction]
pub fn mark_structure<'py>(
    py: Python<'py>,
    pages: &Bound<'py, PyAny>,
    block_cls: &Bound<'py, PyAny>,
    hooks: &Bound<'py, PyTuple>,
    do_furniture: bool,
    do_lists: bool,
) -> PyResult<Option<bool>> {
    crate::boundary::guard("mark_structure", || {
        let reader = Reader {
            py,
            block_cls: block_cls.clone(),
        };
        let Some(mut pages) = reader.pages(pages)? else {
            return Ok(None);
        };
        let facts_hook = hooks.get_item(0)?;
        let is_item = hooks.get_item(1)?;
        let furniture = if do_furniture {
            match furniture(py, &mut pages, &facts_hook)? {
                Some(f) => Some(f),
                None => return Ok(None),
            }
        } else {
            None
        };
        let kept: Vec<Vec<usize>> = pages
            .iter()
            .enumerate()
            .map(|(p, page)| {
                (0..page.blocks.len())
                    .filter(|b| furniture.as_ref().map_or(true, |f| !f[p].drop.contains(b)))
                    .collect()
            })
            .collect();
        let listed = if do_lists {
            match lists(py, &mut pages, &kept, &is_item)? {
                Some(l) => Some(l),
                None => return Ok(None),
            }
        } else {
            None
        };
        // Every page's new list of blocks, made before any page is changed.
        let mut new_lists: Vec<Option<Bound<'py, PyList>>> = Vec::with_capacity(pages.len());
        for (p, page) in pages.iter().enumerate() {
            let new = match &listed {
                Some(listed) => {
                    let out = PyList::empty(py);
                    for o in &listed[p] {
                        match o {
                            Out::Kept(b) => out.append(&page.blocks[*b].obj)?,
                            Out::New { block, lines, item } => {
                                let Some(made) =
                                    new_block(py, block_cls, &page.blocks[*block], lines, *item)?
                                else {
                                    return Ok(None);
                                };
                                out.append(made)?;
                            }
                        }
                    }
                    Some(out)
                }
                None => match &furniture {
                    Some(f) if !f[p].drop.is_empty() => Some(PyList::new(
                        py,
                        kept[p].iter().map(|&b| &page.blocks[b].obj),
                    )?),
                    _ => None,
                },
            };
            new_lists.push(new);
        }
        for (p, page) in pages.iter().enumerate() {
            if let Some(f) = &furniture {
                for text in &f[p].header {
                    page.header.append(text)?;
                }
                for text in &f[p].footer {
                    page.footer.append(text)?;
                }
            }
            if let Some(new) = &new_lists[p] {
                page.obj.setattr(intern!(py, "blocks"), new)?;
            }
        }
        Ok(Some(true))
    })
}

/// The native text tests, for the tests: `(marker, key, has letters, page-number match)` of an
/// ASCII text, `marker` being `None` (decided by Python), `()` (no marker), `("-", end)` or
/// `(group(1), end)`; `None` for a text that is not ASCII.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn structure_text_tests(
    text: &Bound<'_, PyString>,
) -> PyResult<Option<(Option<(String, usize)>, bool, String, bool, bool)>> {
    crate::boundary::guard("structure_text_tests", || {
        let Some(s) = utf8(text)? else {
            return Ok(None);
        };
        let found = marker(&s);
        let decided = found.is_some();
        let chars = |end: usize| s[..end].chars().count();
        let m = match found {
            Some(Marker::Bullet(end)) => Some(("-".to_owned(), chars(end))),
            Some(Marker::Enum { marker, end }) => Some((s[..marker].to_owned(), chars(end))),
            _ => None,
        };
        if !s.is_ascii() {
            return Ok(Some((m, decided, String::new(), false, false)));
        }
        let f = ascii_facts(&s);
        Ok(Some((
            m,
            decided,
            f.key,
            f.words,
            page_number(s.as_bytes()),
        )))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers() {
        assert_eq!(marker("• a"), Some(Marker::Bullet(4)));
        assert_eq!(marker("(iv) a"), Some(Marker::Enum { marker: 4, end: 5 }));
        assert_eq!(marker("12. "), Some(Marker::None));
        assert_eq!(marker("1é. a"), None);
        assert_eq!(marker("abcé. a"), Some(Marker::None));
        assert_eq!(marker("é."), Some(Marker::None));
        assert_eq!(marker("ab. x"), Some(Marker::None));
    }

    #[test]
    fn page_numbers() {
        for s in ["12", "Page 3 of 10", "- 4 -", "xiv", "p. 7", "3/9", "[12]"] {
            assert!(page_number(s.as_bytes()), "{s}");
        }
        for s in ["12345", "page", "chapter 1", "ivxlcdmi"] {
            assert!(!page_number(s.as_bytes()), "{s}");
        }
    }

    #[test]
    fn keys() {
        assert_eq!(key("  Page 12  of 3x4 "), "page # of #x#");
        assert_eq!(decimal("0012"), Some(Ok(12)));
        assert_eq!(decimal(""), None);
    }
}
