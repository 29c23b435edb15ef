//! Tables: `pdfthin/layout/tables.py`'s `find_tables` with what it uses of `table_cells.py`
//! and `table_columns.py`, step by step, with the same floating-point operations in the same
//! order (and `find_grids` of `grids.rs` for the ruled grids).
//!
//! The geometry runs here, and the text tests whose answer is certain for ASCII text
//! (`is_value`, `str.split()`, the thousands groups of `tokens`, `_continues`, `mostly_rtl`);
//! any other text goes to the Python module's own functions (its hooks), and so do the
//! tests of whole candidate tables (`_text_columns`, `_looks_tabular`). Lines are Python's
//! own objects (cut lines are made by `dataclasses.replace`), blocks are made with `Block`.
//! Where Python would raise, or the arithmetic might leave what `f64` mirrors (coordinates
//! that are not finite or huge, fields that are not floats, a line given twice), the answer
//! is `None` and Python finds the tables.

use std::cell::OnceCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::rc::Rc;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyList, PyString, PyTuple};

use crate::grids::grids_of;
use crate::pyops::{is_space, pmax, pmin, utf8};

/// Coordinates beyond this are left to Python.
const MAX_COORD: f64 = 1e15;

/// Why the native steps stop: a Python error, or an input they do not mirror exactly.
pub enum Stop {
    Py(PyErr),
    Inexact,
}

impl From<PyErr> for Stop {
    fn from(err: PyErr) -> Self {
        Stop::Py(err)
    }
}

type R<T> = Result<T, Stop>;
type SpanText = (f64, f64, String);
/// A line's text by cell, keyed by the cell's first column, in a dict's insertion order.
type Pieces = Vec<(usize, String)>;
type Record = Vec<(usize, Pieces)>;

/// `d[key] = value` of a Python dict kept as a list.
fn dict_set(d: &mut Pieces, key: usize, value: String) {
    match d.iter_mut().find(|(k, _)| *k == key) {
        Some(slot) => slot.1 = value,
        None => d.push((key, value)),
    }
}

fn fcmp(a: f64, b: f64) -> std::cmp::Ordering {
    // Keys are finite here, so this is the order Python's sort sees (equal for 0.0, -0.0).
    a.partial_cmp(&b).unwrap_or(std::cmp::Ordering::Equal)
}

/// Python's `x or 1.0`.
fn or_one(x: f64) -> f64 {
    if x == 0.0 {
        1.0
    } else {
        x
    }
}

/// `str.split()`: Python's white space, runs of it dropped.
fn split_ws(text: &str) -> Vec<&str> {
    text.split(is_space).filter(|w| !w.is_empty()).collect()
}

/// `str.strip()`.
fn strip(text: &str) -> &str {
    text.trim_matches(is_space)
}

/// `f"{a} {b}".strip()`
fn join_strip(a: &str, b: &str) -> String {
    strip(&format!("{a} {b}")).to_owned()
}

/// Where `words[1 - k:]` starts in a list of `len` words.
fn tail_start(len: usize, k: usize) -> usize {
    match k {
        0 => len.min(1),
        1 => 0,
        _ => len.saturating_sub(k - 1),
    }
}

/// `table_cells.is_value` of an ASCII text: the expression `_VALUE` (IGNORECASE) worked out
/// by hand for ASCII, where `\d` is `[0-9]`, `\s` is Python's ASCII white space, `[a-z]` is
/// `[a-zA-Z]`, and no stripped text ends in a newline for `$` to stop before.
pub fn ascii_is_value(text: &str) -> bool {
    let t = strip(text).as_bytes();
    if let Some(first) = t.first() {
        if first.is_ascii_alphabetic() && t.len() > 3 {
            return false;
        }
    }
    // ^[(\[]?[-+−–—~<>≤≥±]?[$€£¥]?\d[\d.,:/%\s]*[%‰*)\]a-z]{0,3}$ (each optional class is
    // disjoint from what may follow it, so taking it when present is the only way to match)
    let number = || {
        let mut i = 0;
        if matches!(t.get(i), Some(b'(' | b'[')) {
            i += 1;
        }
        if matches!(t.get(i), Some(b'-' | b'+' | b'~' | b'<' | b'>')) {
            i += 1;
        }
        if t.get(i) == Some(&b'$') {
            i += 1;
        }
        if !t.get(i).is_some_and(|c| c.is_ascii_digit()) {
            return false;
        }
        let rest = &t[i + 1..];
        let middle = |c: &u8| {
            c.is_ascii_digit()
                || matches!(c, b'.' | b',' | b':' | b'/' | b'%')
                || is_space(*c as char)
        };
        let tail = |c: &u8| c.is_ascii_alphabetic() || matches!(c, b'%' | b'*' | b')' | b']');
        let n = rest.len();
        (n.saturating_sub(3)..=n)
            .any(|p| rest[..p].iter().all(middle) && rest[p..].iter().all(tail))
    };
    // ^[-–—:.…x×*/]$ | ^n/?a$ | ^\.\d+%?$
    let mark = t.len() == 1 && matches!(t[0], b'-' | b':' | b'.' | b'x' | b'X' | b'*' | b'/');
    let na = t.eq_ignore_ascii_case(b"na") || t.eq_ignore_ascii_case(b"n/a");
    let fraction = || {
        let digits = match t.split_first() {
            Some((b'.', rest)) => rest.strip_suffix(b"%").unwrap_or(rest),
            _ => return false,
        };
        !digits.is_empty() && digits.iter().all(|c| c.is_ascii_digit())
    };
    mark || na || number() || fraction()
}

/// `_GROUP_HEAD.match` of an ASCII word: `^[-+−(]?\d{1,3}$`.
fn group_head(w: &str) -> bool {
    let b = w.as_bytes();
    let digits = match b.first() {
        Some(b'-' | b'+' | b'(') => &b[1..],
        _ => b,
    };
    (1..=3).contains(&digits.len()) && digits.iter().all(|c| c.is_ascii_digit())
}

/// `_GROUP_TAIL.match` of an ASCII word: `^\d{3}(?:[.,]\d+)?[%)]?$`.
fn group_tail(w: &str) -> bool {
    let b = w.as_bytes();
    if b.len() < 3 || !b[..3].iter().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let mut rest = &b[3..];
    if let Some((b'%' | b')', before)) = rest.split_last() {
        rest = before;
    }
    match rest.split_first() {
        None => true,
        Some((b'.' | b',', digits)) => {
            !digits.is_empty() && digits.iter().all(|c| c.is_ascii_digit())
        }
        _ => false,
    }
}

/// `_ADVANCE.get(ch, 556)`: Helvetica's advance widths.
fn advance(ch: char) -> i64 {
    match ch {
        ' ' | '!' | ',' | '.' | '/' | ':' | ';' | 'I' | '[' | '\\' | ']' | 'f' | 't' => 278,
        '"' => 355,
        '%' => 889,
        '&' | 'A' | 'B' | 'E' | 'K' | 'P' | 'S' | 'V' | 'X' | 'Y' => 667,
        '\'' => 191,
        '(' | ')' | '-' | 'r' => 333,
        '*' => 389,
        '+' | '<' | '=' | '>' | '~' => 584,
        '@' => 1015,
        'C' | 'D' | 'H' | 'N' | 'R' | 'U' | 'w' => 722,
        'F' | 'T' | 'Z' => 611,
        'G' | 'O' | 'Q' => 778,
        'J' => 500,
        'M' | 'm' => 833,
        'W' => 944,
        'c' | 'k' | 's' | 'v' | 'x' | 'y' | 'z' => 500,
        'i' | 'j' | 'l' => 222,
        '{' | '}' => 334,
        '|' => 260,
        _ => 556,
    }
}

/// `text.index(word, pos)` in characters, `None` where Python raises.
fn index_of(text: &[char], word: &[char], pos: usize) -> Option<usize> {
    let n = text.len();
    let m = word.len();
    if pos > n || m > n - pos {
        return None;
    }
    (pos..=n - m).find(|&i| text[i..i + m] == *word)
}

struct Ln<'py> {
    obj: Bound<'py, PyAny>,
    text: String,
    ascii: bool,
    nchars: usize,
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
    size: f64,
    spans_src: Bound<'py, PyAny>,
    spans: OnceCell<Rc<Vec<SpanText>>>,
}

/// What a line's words are shared out over: its text and extent, and the spans of a line.
#[derive(Clone, Copy)]
struct View<'a> {
    text: &'a str,
    ascii: bool,
    x0: f64,
    x1: f64,
    line: usize,
}

struct Grid {
    xs: Vec<f64>,
    ys: Vec<f64>,
    vrule: Vec<Vec<bool>>,
    hrule: Vec<Vec<bool>>,
}

impl Grid {
    fn x0(&self) -> f64 {
        self.xs[0]
    }
    fn x1(&self) -> f64 {
        self.xs[self.xs.len() - 1]
    }
    fn y0(&self) -> f64 {
        self.ys[0]
    }
    fn y1(&self) -> f64 {
        self.ys[self.ys.len() - 1]
    }
}

struct Hooks<'py> {
    replace: Bound<'py, PyAny>,
    block: Bound<'py, PyAny>,
    is_value: Bound<'py, PyAny>,
    tokens: Bound<'py, PyAny>,
    mostly_rtl: Bound<'py, PyAny>,
    continues: Bound<'py, PyAny>,
    text_columns: Bound<'py, PyAny>,
    looks_tabular: Bound<'py, PyAny>,
}

struct Settings {
    min_rows: usize,
    row_gap_em: f64,
    prose_chars: usize,
    prose_ems: f64,
    max_header_lines: usize,
    max_tries: usize,
    min_fill: f64,
    crossing_share: f64,
    min_split_rows: f64,
    split_share: f64,
}

/// A table found: its rows of cells and its lines.
struct Table {
    rows: Vec<Vec<String>>,
    lines: Vec<usize>,
}

enum Aligned {
    Table(Table),
    Text,
    Nothing,
}

struct Tables<'py> {
    py: Python<'py>,
    lines: Vec<Ln<'py>>,
    hooks: Hooks<'py>,
    s: Settings,
    long: HashMap<usize, bool>,
}

fn number(obj: &Bound<'_, PyAny>) -> R<f64> {
    let value = obj
        .downcast_exact::<PyFloat>()
        .map_err(|_| Stop::Inexact)?
        .value();
    if value.is_finite() && value.abs() <= MAX_COORD {
        Ok(value)
    } else {
        Err(Stop::Inexact)
    }
}

impl<'py> Tables<'py> {
    fn read_line(&self, obj: Bound<'py, PyAny>) -> R<Ln<'py>> {
        // Whatever is not a line's usual shape (a field missing or of another type, a text
        // with lone surrogates) is left to Python.
        let py = self.py;
        let attr = |name: &Bound<'py, PyString>| obj.getattr(name).map_err(|_| Stop::Inexact);
        let text = utf8(&attr(pyo3::intern!(py, "text"))?)
            .ok()
            .flatten()
            .ok_or(Stop::Inexact)?;
        let get = |name: &Bound<'py, PyString>| -> R<f64> { number(&attr(name)?) };
        let x0 = get(pyo3::intern!(py, "x0"))?;
        let y0 = get(pyo3::intern!(py, "y0"))?;
        let x1 = get(pyo3::intern!(py, "x1"))?;
        let y1 = get(pyo3::intern!(py, "y1"))?;
        let size = get(pyo3::intern!(py, "size"))?;
        let spans_src = attr(pyo3::intern!(py, "spans"))?;
        Ok(Ln {
            ascii: text.is_ascii(),
            nchars: text.chars().count(),
            text,
            x0,
            y0,
            x1,
            y1,
            size,
            spans_src,
            spans: OnceCell::new(),
            obj,
        })
    }

    fn spans(&self, i: usize) -> R<Rc<Vec<SpanText>>> {
        let ln = &self.lines[i];
        if let Some(known) = ln.spans.get() {
            return Ok(known.clone());
        }
        let mut out = Vec::new();
        for item in ln.spans_src.try_iter().map_err(|_| Stop::Inexact)? {
            let item = item.map_err(|_| Stop::Inexact)?;
            let tuple = item
                .downcast_exact::<PyTuple>()
                .map_err(|_| Stop::Inexact)?;
            if tuple.len() != 3 {
                return Err(Stop::Inexact);
            }
            let a = number(&tuple.get_item(0)?)?;
            let b = number(&tuple.get_item(1)?)?;
            let text = utf8(&tuple.get_item(2)?)
                .ok()
                .flatten()
                .ok_or(Stop::Inexact)?;
            out.push((a, b, text));
        }
        let out = Rc::new(out);
        let _ = ln.spans.set(out.clone());
        Ok(out)
    }

    fn view(&self, i: usize) -> View<'_> {
        let ln = &self.lines[i];
        View {
            text: &ln.text,
            ascii: ln.ascii,
            x0: ln.x0,
            x1: ln.x1,
            line: i,
        }
    }

    // --- text tests -------------------------------------------------------------------

    fn is_value(&self, text: &str) -> R<bool> {
        if text.is_ascii() {
            return Ok(ascii_is_value(text));
        }
        Ok(self.hooks.is_value.call1((text,))?.is_truthy()?)
    }

    fn all_values(&self, words: &[String]) -> R<bool> {
        for w in words {
            if !self.is_value(w)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn continues(&self, text: &str) -> R<bool> {
        match text.chars().next() {
            None => Ok(true),
            Some(c) if c.is_ascii() => Ok(c.is_ascii_lowercase() || c == '(' || c == '['),
            Some(_) => Ok(self.hooks.continues.call1((text,))?.is_truthy()?),
        }
    }

    /// `table_cells.tokens`
    fn tokens(&self, text: &str, ascii: bool, k: usize) -> R<Vec<String>> {
        if !ascii {
            return Ok(self.hooks.tokens.call1((text, k))?.extract()?);
        }
        let words: Vec<String> = split_ws(text).into_iter().map(str::to_owned).collect();
        let mut grouped: Vec<String> = Vec::new();
        for w in &words {
            if let Some(last) = grouped.last_mut() {
                let head = split_ws(last).first().copied().unwrap_or("");
                if group_tail(w) && group_head(head) {
                    last.push(' ');
                    last.push_str(w);
                    continue;
                }
            }
            grouped.push(w.clone());
        }
        if grouped.len() == words.len() || !self.fits(&grouped, k)? {
            return Ok(words);
        }
        Ok(grouped)
    }

    fn fits(&self, words: &[String], k: usize) -> R<bool> {
        if words.len() == k {
            return Ok(true);
        }
        Ok(words.len() > k && self.all_values(&words[tail_start(words.len(), k)..])?)
    }

    fn values(&self, text: &str) -> R<usize> {
        let words = split_ws(text);
        if words.is_empty() {
            return Ok(0);
        }
        for w in &words {
            if !self.is_value(w)? {
                return Ok(0);
            }
        }
        Ok(words.len())
    }

    fn long(&mut self, i: usize) -> R<bool> {
        if let Some(&known) = self.long.get(&i) {
            return Ok(known);
        }
        let ln = &self.lines[i];
        let answer = if ln.nchars <= self.s.prose_chars
            && (ln.x1 - ln.x0) / or_one(ln.size) <= self.s.prose_ems
        {
            false
        } else {
            let words = split_ws(&ln.text);
            let mut values = 0usize;
            for w in &words {
                if self.is_value(w)? {
                    values += 1;
                }
            }
            (values as f64) < 0.5 * words.len() as f64
        };
        self.long.insert(i, answer);
        Ok(answer)
    }

    // --- shared geometry ---------------------------------------------------------------

    /// `_rows`
    fn rows(&self, lines: &[usize]) -> Vec<Vec<usize>> {
        let l = &self.lines;
        let mut ordered = lines.to_vec();
        ordered.sort_by(|&a, &b| {
            fcmp((l[a].y0 + l[a].y1) / 2.0, (l[b].y0 + l[b].y1) / 2.0)
                .then_with(|| fcmp(l[a].x0, l[b].x0))
        });
        let mut rows: Vec<Vec<usize>> = Vec::new();
        let (mut top, mut bottom) = (0.0f64, 0.0f64);
        for i in ordered {
            let line = &l[i];
            if let Some(last) = rows.last_mut() {
                let overlap = pmin(bottom, line.y1) - pmax(top, line.y0);
                if overlap >= 0.5 * pmin(bottom - top, line.y1 - line.y0) {
                    last.push(i);
                    top = pmin(top, line.y0);
                    bottom = pmax(bottom, line.y1);
                    continue;
                }
            }
            rows.push(vec![i]);
            top = line.y0;
            bottom = line.y1;
        }
        for row in &mut rows {
            row.sort_by(|&a, &b| fcmp(l[a].x0, l[b].x0));
        }
        rows
    }

    fn median_size(&self, lines: &[usize]) -> f64 {
        or_one(self.median(lines))
    }

    fn median(&self, lines: &[usize]) -> f64 {
        let mut sizes: Vec<f64> = lines.iter().map(|&i| self.lines[i].size).collect();
        sizes.sort_by(|&a, &b| fcmp(a, b));
        sizes.get(sizes.len() / 2).copied().unwrap_or(0.0)
    }

    fn fold(&self, rows: &[Vec<usize>], f: fn(&Ln) -> f64, pick: fn(f64, f64) -> f64) -> f64 {
        let mut it = rows.iter().flatten().map(|&i| f(&self.lines[i]));
        let first = it.next().unwrap_or(0.0);
        it.fold(first, pick)
    }

    /// `table_columns.whitespace_boundaries`
    fn whitespace_boundaries(
        &self,
        rows: Vec<Vec<(f64, f64)>>,
        lo: f64,
        hi: f64,
        min_gap: f64,
    ) -> Vec<f64> {
        let rows: Vec<Vec<(f64, f64)>> = rows
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .filter(|&(a, b)| b > lo && a < hi)
                    .map(|(a, b)| (pmax(a, lo), pmin(b, hi)))
                    .collect::<Vec<_>>()
            })
            .filter(|row| !row.is_empty())
            .collect();
        let n = rows.len();
        if n < 2 {
            return Vec::new();
        }
        let allow = (self.s.crossing_share * n as f64) as i64;
        let mut events: Vec<(f64, i64)> = Vec::new();
        for row in &rows {
            for &(a, b) in row {
                events.push((a, 1));
                events.push((b, -1));
            }
        }
        events.sort_by(|x, y| fcmp(x.0, y.0).then(x.1.cmp(&y.1)));
        let mut gaps: Vec<(f64, f64)> = Vec::new();
        let mut depth = 0i64;
        let mut start: Option<f64> = None;
        let left = events[0].0;
        let mut bs = rows.iter().flatten().map(|s| s.1);
        let first = bs.next().unwrap_or(0.0);
        let right = bs.fold(first, pmax);
        for &(x, delta) in &events {
            let before = depth;
            depth += delta;
            if before > allow && allow >= depth && x < right {
                start = Some(x);
            } else if before <= allow && allow < depth {
                if let Some(s) = start {
                    if x - s >= min_gap && s > left {
                        gaps.push((s, x));
                    }
                    start = None;
                }
            }
        }
        let share = self.s.split_share * n as f64;
        let need = if share > self.s.min_split_rows {
            share
        } else {
            self.s.min_split_rows
        };
        let mut out = Vec::new();
        for (g0, g1) in gaps {
            let mid = (g0 + g1) / 2.0;
            let both = rows.iter().filter(|row| split_at(row, g0, g1)).count();
            if both as f64 >= need {
                out.push(mid);
            }
        }
        out
    }

    // --- sharing words out between cells ----------------------------------------------

    /// `table_cells.share_words`
    fn share_words(&self, line: View<'_>, cells: &[(f64, f64)]) -> R<Vec<String>> {
        let k = cells.len();
        if k <= 1 {
            return Ok(vec![line.text.to_owned()]);
        }
        let words = self.tokens(line.text, line.ascii, k)?;
        if self.spans_fit(line, cells)? {
            let places = self.places(line, &words)?;
            return Ok(by_place(&words, &places, cells));
        }
        if words.len() == k {
            return Ok(words);
        }
        let mut out = vec![String::new(); k];
        if words.len() < k && self.all_values(&words)? {
            let places = self.places(line, &words)?;
            let mut col: i64 = -1;
            for (i, (w, &(a, b))) in words.iter().zip(places.iter()).enumerate() {
                let est = cells[1..].iter().filter(|c| (a + b) / 2.0 >= c.0).count() as i64;
                col = if i > 0 {
                    (col + 1).max(est).min((k - words.len() + i) as i64)
                } else {
                    0
                };
                let slot = out.get_mut(col as usize).ok_or(Stop::Inexact)?;
                *slot = w.clone();
            }
            return Ok(out);
        }
        let tail = tail_start(words.len(), k);
        if words.len() > k && self.all_values(&words[tail..])? {
            out[0] = words[..words.len() - k + 1].join(" ");
            for (i, w) in words[tail..].iter().enumerate() {
                out[i + 1] = w.clone();
            }
            return Ok(out);
        }
        let places = self.places(line, &words)?;
        Ok(by_place(&words, &places, cells))
    }

    /// `table_cells.soft_split`
    fn soft_split(&self, line: View<'_>, cells: &[(f64, f64)]) -> R<Option<Vec<String>>> {
        let k = cells.len();
        let words = self.tokens(line.text, line.ascii, k)?;
        if words.len() < k || k < 2 {
            return Ok(None);
        }
        if self.all_values(&words[tail_start(words.len(), k)..])? {
            return Ok(Some(self.share_words(line, cells)?));
        }
        if words.len() != k {
            return Ok(None);
        }
        let places = self.places(line, &words)?;
        for (n, &(a, b)) in places.iter().enumerate() {
            let centre = (a + b) / 2.0;
            if cells[1..].iter().filter(|c| centre >= c.0).count() != n {
                return Ok(None);
            }
        }
        Ok(Some(words))
    }

    /// `_spans_fit`
    fn spans_fit(&self, line: View<'_>, cells: &[(f64, f64)]) -> R<bool> {
        let spans = self.spans(line.line)?;
        if spans.len() < 2 {
            return Ok(false);
        }
        Ok(!spans
            .iter()
            .any(|&(a, b, _)| cells[1..].iter().any(|&(x, _)| a < x && x < b)))
    }

    /// `_places`
    fn places(&self, line: View<'_>, words: &[String]) -> R<Vec<(f64, f64)>> {
        let spans = self.spans(line.line)?;
        if spans.len() >= 2 {
            let mut known: Vec<(f64, f64)> = Vec::new();
            for (sx0, sx1, stext) in spans.iter() {
                let swords: Vec<String> = split_ws(stext).into_iter().map(str::to_owned).collect();
                known.extend(word_positions(&swords.join(" "), &swords, *sx0, *sx1)?);
            }
            let counts: Vec<usize> = words.iter().map(|w| split_ws(w).len()).collect();
            if counts.iter().sum::<usize>() == known.len() {
                let mut out = Vec::with_capacity(words.len());
                let mut k = 0;
                for n in counts {
                    let last = (k + n).checked_sub(1).ok_or(Stop::Inexact)?;
                    let a = known.get(k).ok_or(Stop::Inexact)?.0;
                    let b = known.get(last).ok_or(Stop::Inexact)?.1;
                    out.push((a, b));
                    k += n;
                }
                return Ok(out);
            }
        }
        word_positions(line.text, words, line.x0, line.x1)
    }

    /// `_pieces`
    fn pieces(&self, i: usize, xs: &[f64], cells: &[(usize, usize)], hard: &[bool]) -> R<Pieces> {
        let ln = &self.lines[i];
        let em = or_one(ln.size);
        let mut touched: Vec<(usize, usize)> = cells
            .iter()
            .copied()
            .filter(|&(a, b)| pmin(ln.x1, xs[b]) - pmax(ln.x0, xs[a]) > 0.3 * em)
            .collect();
        if touched.is_empty() {
            let cx = (ln.x0 + ln.x1) / 2.0;
            let key = |&(a, b): &(usize, usize)| ((xs[a] + xs[b]) / 2.0 - cx).abs();
            let mut best = *cells.first().ok_or(Stop::Inexact)?;
            for cell in &cells[1..] {
                if key(cell) < key(&best) {
                    best = *cell;
                }
            }
            touched.push(best);
        }
        if touched.len() == 1 {
            return Ok(vec![(touched[0].0, ln.text.clone())]);
        }
        let mut groups: Vec<Vec<(usize, usize)>> = vec![vec![touched[0]]];
        for &cell in &touched[1..] {
            if hard[cell.0] {
                groups.push(vec![cell]);
            } else if let Some(last) = groups.last_mut() {
                last.push(cell);
            }
        }
        if groups.len() == 1 {
            let bounds: Vec<(f64, f64)> = touched.iter().map(|&(a, b)| (xs[a], xs[b])).collect();
            return Ok(match self.soft_split(self.view(i), &bounds)? {
                None => vec![(touched[0].0, ln.text.clone())],
                Some(split) => touched
                    .iter()
                    .zip(split)
                    .filter(|(_, t)| !t.is_empty())
                    .map(|(&(a, _), t)| (a, t))
                    .collect(),
            });
        }
        // Past the table's edge a line can only be stretched trailing space.
        let mut clipped = self.view(i);
        clipped.x1 = pmin(ln.x1, xs[xs.len() - 1]);
        let bounds: Vec<(f64, f64)> = groups
            .iter()
            .map(|g| (xs[g[0].0], xs[g[g.len() - 1].1]))
            .collect();
        let texts = self.share_words(clipped, &bounds)?;
        Ok(groups
            .iter()
            .zip(texts)
            .filter(|(_, t)| !t.is_empty())
            .map(|(g, t)| (g[0].0, t))
            .collect())
    }

    // --- ruled grids ------------------------------------------------------------------

    /// `_cut_between`
    fn cut_between(&mut self, grids: &[Grid], mut lines: Vec<usize>) -> R<Vec<usize>> {
        for (gi, grid) in grids.iter().enumerate() {
            for (oi, other) in grids.iter().enumerate() {
                if oi == gi || grid.x1() > other.x0() + 1.0 {
                    continue;
                }
                if pmin(grid.y1(), other.y1()) <= pmax(grid.y0(), other.y0()) {
                    continue;
                }
                lines = self.cut_at(lines, grid, other)?;
            }
        }
        Ok(lines)
    }

    fn cut_at(&mut self, lines: Vec<usize>, grid: &Grid, other: &Grid) -> R<Vec<usize>> {
        let mut out = Vec::with_capacity(lines.len());
        for i in lines {
            let ln = &self.lines[i];
            let cy = (ln.y0 + ln.y1) / 2.0;
            if grid.y0() <= cy
                && cy <= grid.y1()
                && ln.x0 < grid.x1()
                && ln.x1 > other.x0() + ln.size
            {
                if let Some((a, b)) = self.cut(i, grid.x1(), other.x0())? {
                    out.push(a);
                    out.push(b);
                    continue;
                }
            }
            out.push(i);
        }
        Ok(out)
    }

    fn cut(&mut self, i: usize, end: f64, start: f64) -> R<Option<(usize, usize)>> {
        let middle = (end + start) / 2.0;
        let (x0, x1) = (self.lines[i].x0, self.lines[i].x1);
        let texts = self.share_words(self.view(i), &[(x0, middle), (middle, x1)])?;
        let [left, right] = <[String; 2]>::try_from(texts).map_err(|_| Stop::Inexact)?;
        if left.is_empty() || right.is_empty() {
            return Ok(None);
        }
        let new_x1 = pmin(x1, end - 0.5);
        let new_x0 = pmax(x0, start + 0.5);
        let a = self.derived(i, left, x0, new_x1, "x1", new_x1)?;
        let b = self.derived(i, right, new_x0, x1, "x0", new_x0)?;
        Ok(Some((a, b)))
    }

    /// `replace(ln, text=text, <field>=value)`, added to the lines.
    fn derived(
        &mut self,
        i: usize,
        text: String,
        x0: f64,
        x1: f64,
        field: &str,
        value: f64,
    ) -> R<usize> {
        let py = self.py;
        let ln = &self.lines[i];
        let kwargs = PyDict::new(py);
        kwargs.set_item("text", &text)?;
        kwargs.set_item(field, value)?;
        let obj = self.hooks.replace.call((&ln.obj,), Some(&kwargs))?;
        let made = Ln {
            obj,
            ascii: text.is_ascii(),
            nchars: text.chars().count(),
            text,
            x0,
            y0: ln.y0,
            x1,
            y1: ln.y1,
            size: ln.size,
            spans_src: ln.spans_src.clone(),
            spans: OnceCell::new(),
        };
        self.lines.push(made);
        Ok(self.lines.len() - 1)
    }

    /// `_from_grid`: `None`, or the members and (for a table, not a chart) the rows.
    #[allow(clippy::type_complexity)]
    fn grid_table(
        &self,
        grid: &Grid,
        lines: &[usize],
    ) -> R<Option<(Vec<usize>, Option<Vec<Vec<String>>>)>> {
        let (gx0, gx1, gy0, gy1) = (grid.x0(), grid.x1(), grid.y0(), grid.y1());
        let members: Vec<usize> = lines
            .iter()
            .copied()
            .filter(|&i| {
                let ln = &self.lines[i];
                let cy = (ln.y0 + ln.y1) / 2.0;
                gx0 - 1.0 <= ln.x0 && ln.x0 < gx1 - 1.0 && gy0 <= cy && cy <= gy1
            })
            .collect();
        if members.is_empty() {
            return Ok(None);
        }
        let (xs, ruled) = self.grid_columns(grid, &members);
        let nys = grid.ys.len();
        let mut bands: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for &i in &members {
            let ln = &self.lines[i];
            let cy = (ln.y0 + ln.y1) / 2.0;
            let r = (grid.ys.partition_point(|&y| y <= cy) as i64 - 1)
                .max(0)
                .min(nys as i64 - 2);
            bands
                .entry(usize::try_from(r).map_err(|_| Stop::Inexact)?)
                .or_default()
                .push(i);
        }
        if (bands.len() as f64) < 0.5 * (nys - 1) as f64 {
            return Ok(Some((members, None)));
        }
        let first = *bands.keys().next().ok_or(Stop::Inexact)?;
        let mut records: BTreeMap<usize, Vec<Record>> = BTreeMap::new();
        for (&r, band) in &bands {
            let baselines = self.rows(band);
            let vrule = grid.vrule.get(r).ok_or(Stop::Inexact)?;
            let mut hard = Vec::with_capacity(xs.len());
            for &k in &ruled {
                hard.push(k != 0 && *vrule.get(k - 1).ok_or(Stop::Inexact)?);
            }
            let cells = self.band_cells(&baselines, &xs, &hard)?;
            let mut items = Vec::with_capacity(band.len());
            for &i in band {
                items.push((i, self.pieces(i, &xs, &cells, &hard)?));
            }
            records.insert(r, self.records(items, r == first)?);
        }
        merge_down(grid, &xs, &mut records)?;
        let mut rows = Vec::new();
        for recs in records.values() {
            for rec in recs {
                rows.push(self.row_texts(rec, xs.len() - 1)?);
            }
        }
        match self.table_rows(rows)? {
            None => Ok(None),
            Some(rows) => {
                let filled = rows.iter().flatten().filter(|t| !t.is_empty()).count();
                let fill = filled as f64 / (rows.len() * rows[0].len()) as f64;
                if fill < self.s.min_fill {
                    Ok(Some((members, None)))
                } else {
                    Ok(Some((members, Some(rows))))
                }
            }
        }
    }

    /// `_grid_columns`
    fn grid_columns(&self, grid: &Grid, members: &[usize]) -> (Vec<f64>, Vec<usize>) {
        let mut xs = Vec::new();
        let mut ruled = Vec::new();
        let baselines = self.rows(members);
        let em = self.median_size(members);
        for c in 0..grid.xs.len() - 1 {
            xs.push(grid.xs[c]);
            ruled.push(c + 1);
            let (lo, hi) = (grid.xs[c], grid.xs[c + 1]);
            let spans: Vec<Vec<(f64, f64)>> = baselines
                .iter()
                .map(|base| {
                    base.iter()
                        .map(|&i| &self.lines[i])
                        .filter(|ln| {
                            let mid = (ln.x0 + ln.x1) / 2.0;
                            lo <= mid && mid <= hi
                        })
                        .map(|ln| (ln.x0, ln.x1))
                        .collect()
                })
                .collect();
            for x in self.whitespace_boundaries(spans, lo, hi, 0.8 * em) {
                xs.push(x);
                ruled.push(0);
            }
        }
        xs.push(grid.xs[grid.xs.len() - 1]);
        ruled.push(grid.xs.len());
        (xs, ruled)
    }

    /// `_band_cells`
    fn band_cells(
        &self,
        baselines: &[Vec<usize>],
        xs: &[f64],
        hard: &[bool],
    ) -> R<Vec<(usize, usize)>> {
        let ncols = xs.len() - 1;
        let mut split = false;
        for k in 1..ncols {
            if !hard[k] && self.divides(baselines, xs[k])? {
                split = true;
                break;
            }
        }
        let mut cells = Vec::new();
        let mut start = 0;
        for (k, &ruled) in hard.iter().enumerate().take(ncols + 1).skip(1) {
            if k == ncols || ruled || split {
                cells.push((start, k));
                start = k;
            }
        }
        Ok(cells)
    }

    /// `_divides`
    fn divides(&self, baselines: &[Vec<usize>], x: f64) -> R<bool> {
        for base in baselines {
            let lines: Vec<&Ln> = base.iter().map(|&i| &self.lines[i]).collect();
            let crossing: Vec<&&Ln> = lines.iter().filter(|ln| ln.x0 < x && x < ln.x1).collect();
            if !crossing.is_empty() {
                for ln in crossing {
                    if self.values(&ln.text)? >= 2 {
                        return Ok(true);
                    }
                }
            } else if lines.iter().any(|ln| ln.x1 <= x) && lines.iter().any(|ln| ln.x0 >= x) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// `_records`
    fn records(&self, items: Vec<(usize, Pieces)>, header: bool) -> R<Vec<Record>> {
        let lines: Vec<usize> = items.iter().map(|(i, _)| *i).collect();
        let baselines = self.rows(&lines);
        let by_line: HashMap<usize, &Pieces> = items.iter().map(|(i, p)| (*i, p)).collect();
        let mut texts: Vec<Pieces> = Vec::with_capacity(baselines.len());
        for base in &baselines {
            let mut cols: Pieces = Vec::new();
            for i in base {
                for (c, t) in by_line.get(i).ok_or(Stop::Inexact)?.iter() {
                    dict_set(&mut cols, *c, t.clone());
                }
            }
            texts.push(cols);
        }
        let keys = |p: &Pieces| -> Vec<usize> {
            let mut k: Vec<usize> = p.iter().map(|(c, _)| *c).collect();
            k.sort_unstable();
            k
        };
        let first = texts.first().ok_or(Stop::Inexact)?;
        let first_keys = keys(first);
        let uniform = !header && first.len() >= 2 && texts.iter().all(|t| keys(t) == first_keys);
        let mut records: Vec<Record> = Vec::new();
        let mut values: HashMap<usize, bool> = HashMap::new();
        for (base, cols) in baselines.iter().zip(&texts) {
            let mut clash = false;
            for (c, t) in cols {
                if values.get(c).copied().unwrap_or(false) && self.is_value(t)? {
                    clash = true;
                    break;
                }
            }
            let mut full = false;
            if uniform {
                full = true;
                for (_, t) in cols {
                    if !self.continues(t)? {
                        full = false;
                        break;
                    }
                }
                full = !full;
            }
            if records.is_empty() || clash || full {
                records.push(Vec::new());
                values.clear();
            }
            if let Some(last) = records.last_mut() {
                for i in base {
                    last.push((*i, (*by_line.get(i).ok_or(Stop::Inexact)?).clone()));
                }
            }
            for (c, t) in cols {
                let before = values.get(c).copied().unwrap_or(false);
                let now = before || self.is_value(t)?;
                values.insert(*c, now);
            }
        }
        Ok(records)
    }

    /// `_row_texts`
    fn row_texts(&self, record: &Record, ncols: usize) -> R<Vec<String>> {
        let mut cells: Vec<Vec<(f64, f64, &str)>> = vec![Vec::new(); ncols];
        for (i, pieces) in record {
            let ln = &self.lines[*i];
            for (c, t) in pieces {
                cells
                    .get_mut(*c)
                    .ok_or(Stop::Inexact)?
                    .push((ln.y0, ln.x0, t));
            }
        }
        Ok(cells
            .into_iter()
            .map(|mut cell| {
                cell.sort_by(|a, b| fcmp(a.0, b.0).then(fcmp(a.1, b.1)).then(a.2.cmp(b.2)));
                cell.iter().map(|c| c.2).collect::<Vec<_>>().join(" ")
            })
            .collect())
    }

    /// `_table_block`'s rows: `None` when they are not a table.
    fn table_rows(&self, rows: Vec<Vec<String>>) -> R<Option<Vec<Vec<String>>>> {
        let rows: Vec<Vec<String>> = rows
            .into_iter()
            .filter(|r| r.iter().any(|t| !t.is_empty()))
            .collect();
        let Some(first) = rows.first() else {
            return Ok(None);
        };
        let width = first.len();
        if rows.iter().any(|r| r.len() < width) {
            return Err(Stop::Inexact);
        }
        let keep: Vec<usize> = (0..width)
            .filter(|&c| rows.iter().any(|r| !r[c].is_empty()))
            .collect();
        let mut rows: Vec<Vec<String>> = rows
            .into_iter()
            .map(|r| keep.iter().map(|&c| r[c].clone()).collect())
            .collect();
        let full_rows = rows
            .iter()
            .filter(|r| r.iter().filter(|t| !t.is_empty()).count() >= 2)
            .count();
        if keep.len() < 2 || full_rows < 2 {
            return Ok(None);
        }
        if !rows.iter().flatten().all(|t| t.is_ascii()) {
            let joined = rows
                .iter()
                .flatten()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(" ");
            if self.hooks.mostly_rtl.call1((joined,))?.is_truthy()? {
                for r in &mut rows {
                    r.reverse();
                }
            }
        }
        Ok(Some(rows))
    }

    /// `Block(lines, x0, y0, x1, y1, size, kind="table", rows=rows)`
    fn block(&self, table: &Table) -> R<Bound<'py, PyAny>> {
        let py = self.py;
        let lines = &table.lines;
        let l = |i: &usize| &self.lines[*i];
        let fold = |f: fn(&Ln) -> f64, pick: fn(f64, f64) -> f64| {
            let mut it = lines.iter().map(|i| f(l(i)));
            let first = it.next().unwrap_or(0.0);
            it.fold(first, pick)
        };
        let objs = PyList::new(py, lines.iter().map(|i| &l(i).obj))?;
        let rows = PyList::empty(py);
        for row in &table.rows {
            rows.append(PyList::new(py, row)?)?;
        }
        let kwargs = PyDict::new(py);
        kwargs.set_item("kind", "table")?;
        kwargs.set_item("rows", rows)?;
        let args = (
            objs,
            fold(|ln| ln.x0, pmin),
            fold(|ln| ln.y0, pmin),
            fold(|ln| ln.x1, pmax),
            fold(|ln| ln.y1, pmax),
            self.median(lines),
        );
        Ok(self.hooks.block.call(args, Some(&kwargs))?)
    }

    // --- aligned text -----------------------------------------------------------------

    /// `_aligned_tables`
    fn aligned_tables(&mut self, lines: &[usize], rules: &[(f64, f64, f64, f64)]) -> R<Vec<Table>> {
        let rows = self.rows(lines);
        let mut tables = Vec::new();
        let mut i = 0;
        let mut tries = 0;
        while i < rows.len() {
            if rows[i].len() < 2 {
                i += 1;
                continue;
            }
            let end = self.run_end(&rows, i);
            let table = if end > i {
                self.aligned_table(rows[i..=end].to_vec(), rules)?
            } else {
                Aligned::Nothing
            };
            match table {
                Aligned::Table(t) => tables.push(t),
                Aligned::Nothing if tries < self.s.max_tries => {
                    i += 1;
                    tries += 1;
                    continue;
                }
                _ => {}
            }
            i = end + 1;
            tries = 0;
        }
        Ok(tables)
    }

    /// `_run_end`
    fn run_end(&self, rows: &[Vec<usize>], i: usize) -> usize {
        let mut j = i + 1;
        let mut last_multi = i;
        while j < rows.len() {
            let prev_bottom = self.fold(&rows[j - 1..j], |ln| ln.y1, pmax);
            let top = self.fold(&rows[j..=j], |ln| ln.y0, pmin);
            let em = self.fold(&rows[j..=j], |ln| ln.size, pmax);
            if top - prev_bottom > self.s.row_gap_em * em {
                break;
            }
            if rows[j].len() >= 2 {
                last_multi = j;
            } else if j - last_multi > 1 {
                break;
            }
            j += 1;
        }
        last_multi
    }

    /// `_aligned_table`
    fn aligned_table(
        &mut self,
        mut rows: Vec<Vec<usize>>,
        rules: &[(f64, f64, f64, f64)],
    ) -> R<Aligned> {
        let lines: Vec<usize> = rows.iter().flatten().copied().collect();
        let em = self.median_size(&lines);
        let lo = self.fold(&rows, |ln| ln.x0, pmin);
        let hi = self.fold(&rows, |ln| ln.x1, pmax);
        let spans: Vec<Vec<(f64, f64)>> = rows
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&i| (self.lines[i].x0, self.lines[i].x1))
                    .collect()
            })
            .collect();
        let mut xs = vec![lo];
        xs.extend(self.whitespace_boundaries(spans, lo, hi, em));
        xs.push(hi);
        if xs.len() < 3 {
            return Ok(Aligned::Nothing);
        }
        let mut prose = self.prose_columns(&rows, &xs)?;
        while xs.len() > 2 && prose.first() == Some(&0) {
            let edge = xs[1];
            for row in &mut rows {
                row.retain(|&i| self.lines[i].x1 > edge);
            }
            xs.remove(0);
            prose = prose[1..].iter().map(|k| k - 1).collect();
        }
        while xs.len() > 2 && prose.last() == Some(&(xs.len() - 2)) {
            let edge = xs[xs.len() - 2];
            for row in &mut rows {
                row.retain(|&i| self.lines[i].x0 < edge);
            }
            xs.pop();
            prose.pop();
        }
        rows.retain(|row| !row.is_empty());
        let multi = rows.iter().filter(|r| r.len() >= 2).count();
        if xs.len() < 3 {
            return Ok(Aligned::Nothing);
        }
        let need = self.s.min_rows as i64 - i64::from(self.ruled(&rows, rules)?);
        if (multi as i64) < need || multi < 2 {
            return Ok(Aligned::Nothing);
        }
        if prose.len() >= 2 {
            return Ok(Aligned::Text);
        }
        if self.drawing(&rows, rules) {
            return Ok(Aligned::Nothing);
        }
        if !prose.is_empty() && multi < 5 {
            return Ok(Aligned::Nothing);
        }
        let ncols = xs.len() - 1;
        let cells: Vec<(usize, usize)> = (0..ncols).map(|k| (k, k + 1)).collect();
        let hard = vec![false; xs.len()];
        let mut grid: Vec<Vec<String>> = Vec::new();
        for row in &rows {
            let mut values = vec![String::new(); ncols];
            let mut ordered = row.clone();
            ordered.sort_by(|&a, &b| fcmp(self.lines[a].x0, self.lines[b].x0));
            for i in ordered {
                for (c, t) in self.pieces(i, &xs, &cells, &hard)? {
                    let slot = values.get_mut(c).ok_or(Stop::Inexact)?;
                    *slot = join_strip(slot, &t);
                }
            }
            if row.len() == 1 && values.iter().filter(|t| !t.is_empty()).count() == 1 {
                if let Some(last) = grid.last_mut() {
                    for (c, t) in values.iter().enumerate() {
                        if !t.is_empty() {
                            last[c] = join_strip(&last[c], t);
                        }
                    }
                    continue;
                }
            }
            grid.push(values);
        }
        let grid = self.merge_header(grid)?;
        let py = self.py;
        let columns = PyList::empty(py);
        for c in 0..ncols {
            let col: Vec<&str> = grid
                .iter()
                .map(|row| row[c].as_str())
                .filter(|t| !t.is_empty())
                .collect();
            columns.append(PyList::new(py, col)?)?;
        }
        if self.hooks.text_columns.call1((columns,))?.is_truthy()? {
            return Ok(Aligned::Text);
        }
        let table = PyList::empty(py);
        for row in &grid {
            table.append(PyList::new(py, row)?)?;
        }
        if !self
            .hooks
            .looks_tabular
            .call1((table, !prose.is_empty()))?
            .is_truthy()?
        {
            return Ok(Aligned::Nothing);
        }
        let lines: Vec<usize> = rows.iter().flatten().copied().collect();
        Ok(match self.table_rows(grid)? {
            Some(rows) => Aligned::Table(Table { rows, lines }),
            None => Aligned::Nothing,
        })
    }

    /// `_merge_header`
    fn merge_header(&self, grid: Vec<Vec<String>>) -> R<Vec<Vec<String>>> {
        let mut first = 0;
        'rows: for (n, row) in grid.iter().enumerate() {
            for t in row {
                if !t.is_empty() && self.is_value(t)? {
                    first = n;
                    break 'rows;
                }
            }
        }
        if !(2..=self.s.max_header_lines).contains(&first) {
            return Ok(grid);
        }
        let width = grid[0].len();
        let header: Vec<String> = (0..width)
            .map(|c| {
                grid[..first]
                    .iter()
                    .map(|row| row[c].as_str())
                    .filter(|t| !t.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let mut out = vec![header];
        out.extend(grid.into_iter().skip(first));
        Ok(out)
    }

    /// `_prose_columns`
    fn prose_columns(&mut self, rows: &[Vec<usize>], xs: &[f64]) -> R<Vec<usize>> {
        let mut out = Vec::new();
        for k in 0..xs.len() - 1 {
            let pieces: Vec<usize> = rows
                .iter()
                .flatten()
                .copied()
                .filter(|&i| {
                    let mid = (self.lines[i].x0 + self.lines[i].x1) / 2.0;
                    xs[k] <= mid && mid < xs[k + 1]
                })
                .collect();
            let chars: usize = pieces.iter().map(|&i| self.lines[i].nchars).sum();
            let mut in_long = 0usize;
            for &i in &pieces {
                if self.long(i)? {
                    in_long += self.lines[i].nchars;
                }
            }
            if chars > 0 && in_long as f64 >= 0.6 * chars as f64 {
                out.push(k);
            }
        }
        Ok(out)
    }

    /// `_ruled`
    fn ruled(&self, rows: &[Vec<usize>], rules: &[(f64, f64, f64, f64)]) -> R<bool> {
        if rules.is_empty() {
            return Ok(false);
        }
        if rows.iter().all(|r| r.is_empty()) {
            return Err(Stop::Inexact); // min() of nothing: Python raises
        }
        let top = self.fold(rows, |ln| ln.y0, pmin) - 4.0;
        let bottom = self.fold(rows, |ln| ln.y1, pmax) + 4.0;
        let x0 = self.fold(rows, |ln| ln.x0, pmin) - 4.0;
        let x1 = self.fold(rows, |ln| ln.x1, pmax) + 4.0;
        let across = rules
            .iter()
            .filter(|&&(rx0, ry0, rx1, ry1)| {
                ry0 == ry1
                    && top <= ry0
                    && ry0 <= bottom
                    && pmin(rx1, x1) - pmax(rx0, x0) >= 0.5 * (x1 - x0)
            })
            .count();
        Ok(across >= 2)
    }

    /// `_drawing`
    fn drawing(&self, rows: &[Vec<usize>], rules: &[(f64, f64, f64, f64)]) -> bool {
        let x0 = self.fold(rows, |ln| ln.x0, pmin) + 2.0;
        let x1 = self.fold(rows, |ln| ln.x1, pmax) - 2.0;
        let y0 = self.fold(rows, |ln| ln.y0, pmin);
        let y1 = self.fold(rows, |ln| ln.y1, pmax);
        let inside = rules
            .iter()
            .filter(|&&(rx0, ry0, rx1, ry1)| {
                rx0 == rx1
                    && x0 < rx0
                    && rx0 < x1
                    && pmin(y1, ry1) - pmax(y0, ry0) >= 0.5 * pmin(y1 - y0, ry1 - ry0)
            })
            .count();
        inside >= 2
    }
}

/// `_split_at`
fn split_at(row: &[(f64, f64)], g0: f64, g1: f64) -> bool {
    let mid = (g0 + g1) / 2.0;
    row.iter().any(|&(_, b)| b <= mid)
        && row.iter().any(|&(a, _)| a >= mid)
        && !row.iter().any(|&(a, b)| a < mid && mid < b)
}

/// `_by_place`
fn by_place(words: &[String], places: &[(f64, f64)], cells: &[(f64, f64)]) -> Vec<String> {
    let mut out = vec![String::new(); cells.len()];
    let mut col = 0;
    for (w, &(a, b)) in words.iter().zip(places) {
        let centre = (a + b) / 2.0;
        while col + 1 < cells.len() && centre >= cells[col + 1].0 {
            col += 1;
        }
        out[col] = join_strip(&out[col], w);
    }
    out
}

/// `_word_positions`; `Inexact` where `text.index` raises.
fn word_positions<S: AsRef<str>>(text: &str, words: &[S], x0: f64, x1: f64) -> R<Vec<(f64, f64)>> {
    let chars: Vec<char> = text.chars().collect();
    let mut cumulative: Vec<i64> = Vec::with_capacity(chars.len() + 1);
    cumulative.push(0);
    let mut total = 0i64;
    for &ch in &chars {
        total += advance(ch);
        cumulative.push(total);
    }
    let total = if total == 0 { 1 } else { total };
    let scale = (x1 - x0) / total as f64;
    let mut out = Vec::with_capacity(words.len());
    let mut pos = 0;
    for w in words {
        let w: Vec<char> = w.as_ref().chars().collect();
        let start = index_of(&chars, &w, pos).ok_or(Stop::Inexact)?;
        pos = start + w.len();
        out.push((
            x0 + cumulative[start] as f64 * scale,
            x0 + cumulative[pos] as f64 * scale,
        ));
    }
    Ok(out)
}

/// `_merge_down`
fn merge_down(grid: &Grid, xs: &[f64], records: &mut BTreeMap<usize, Vec<Record>>) -> R<()> {
    let keys: Vec<usize> = records.keys().copied().collect();
    let ngx = grid.xs.len() as i64;
    for c in 0..xs.len() - 1 {
        let at = (xs[c] + xs[c + 1]) / 2.0;
        let gc = (grid.xs.partition_point(|&x| x <= at) as i64 - 1)
            .max(0)
            .min(ngx - 2);
        let gc = usize::try_from(gc).map_err(|_| Stop::Inexact)?;
        for &r in &keys {
            let mut top = r;
            while top > 0
                && !*grid
                    .hrule
                    .get(top)
                    .and_then(|h| h.get(gc))
                    .ok_or(Stop::Inexact)?
            {
                top -= 1;
            }
            if top == r || !records.contains_key(&top) {
                continue;
            }
            let mut moved: Vec<(usize, Pieces)> = Vec::new();
            for rec in records.get_mut(&r).ok_or(Stop::Inexact)? {
                for (ln, pieces) in rec.iter_mut() {
                    if let Some(pos) = pieces.iter().position(|(k, _)| *k == c) {
                        let (_, text) = pieces.remove(pos);
                        moved.push((*ln, vec![(c, text)]));
                    }
                }
            }
            let target = records
                .get_mut(&top)
                .and_then(|recs| recs.first_mut())
                .ok_or(Stop::Inexact)?;
            target.extend(moved);
        }
    }
    Ok(())
}

fn settings(s: &Bound<'_, PyTuple>) -> PyResult<Settings> {
    Ok(Settings {
        min_rows: s.get_item(0)?.extract()?,
        row_gap_em: s.get_item(1)?.extract()?,
        prose_chars: s.get_item(2)?.extract()?,
        prose_ems: s.get_item(3)?.extract()?,
        max_header_lines: s.get_item(4)?.extract()?,
        max_tries: s.get_item(5)?.extract()?,
        min_fill: s.get_item(6)?.extract()?,
        crossing_share: s.get_item(7)?.extract()?,
        min_split_rows: s.get_item(8)?.extract()?,
        split_share: s.get_item(9)?.extract()?,
    })
}

type HookTuple<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
);

/// `find_tables(lines, rules, hooks, settings)`: `(tables, rest)` as
/// `pdfthin.layout.tables.find_tables` gives them, or `None` where these steps would not be
/// exact (then Python finds the tables). `hooks` is `(replace, Block, is_value, tokens,
/// mostly_rtl, _continues, _text_columns, _looks_tabular)`; `settings` is `(MIN_ROWS,
/// ROW_GAP_EM, PROSE_CHARS, PROSE_EMS, MAX_HEADER_LINES, MAX_TRIES, MIN_FILL,
/// CROSSING_SHARE, MIN_SPLIT_ROWS, SPLIT_SHARE, grid_settings)` with `grid_settings` what
/// `find_grids` takes.
#[pyfunction]
pub fn find_tables<'py>(
    py: Python<'py>,
    lines: Vec<Bound<'py, PyAny>>,
    rules: Vec<Bound<'py, PyAny>>,
    hooks: HookTuple<'py>,
    settings_tuple: Bound<'py, PyTuple>,
) -> PyResult<Option<(Bound<'py, PyList>, Bound<'py, PyList>)>> {
    crate::boundary::guard("find_tables", || {
        let s = settings(&settings_tuple)?;
        let grid_settings: (f64, f64, f64, f64, usize) = settings_tuple.get_item(10)?.extract()?;
        let mut numbers: Vec<(f64, f64, f64, f64)> = Vec::with_capacity(rules.len());
        for rule in &rules {
            match rule.extract::<(f64, f64, f64, f64)>() {
                Ok(r)
                    if [r.0, r.1, r.2, r.3]
                        .iter()
                        .all(|v| v.is_finite() && v.abs() <= MAX_COORD) =>
                {
                    numbers.push(r)
                }
                _ => return Ok(None),
            }
        }
        let mut t = Tables {
            py,
            lines: Vec::with_capacity(lines.len()),
            hooks: Hooks {
                replace: hooks.0,
                block: hooks.1,
                is_value: hooks.2,
                tokens: hooks.3,
                mostly_rtl: hooks.4,
                continues: hooks.5,
                text_columns: hooks.6,
                looks_tabular: hooks.7,
            },
            s,
            long: HashMap::new(),
        };
        match run(&mut t, lines, &numbers, grid_settings) {
            Ok(found) => Ok(Some(found)),
            Err(Stop::Inexact) => Ok(None),
            Err(Stop::Py(err)) => Err(err),
        }
    })
}

fn run<'py>(
    t: &mut Tables<'py>,
    lines: Vec<Bound<'py, PyAny>>,
    rules: &[(f64, f64, f64, f64)],
    grid_settings: (f64, f64, f64, f64, usize),
) -> R<(Bound<'py, PyList>, Bound<'py, PyList>)> {
    let py = t.py;
    let mut seen = HashSet::with_capacity(lines.len());
    for obj in lines {
        if !seen.insert(obj.as_ptr() as usize) {
            return Err(Stop::Inexact); // one line twice: Python's sets of ids would differ
        }
        let ln = t.read_line(obj)?;
        t.lines.push(ln);
    }
    let mut rest: Vec<usize> = (0..t.lines.len()).collect();
    let mut grids: Vec<Grid> = grids_of(rules, grid_settings, py.version_info() >= (3, 12))
        .into_iter()
        .map(|(xs, ys, vrule, hrule)| Grid {
            xs,
            ys,
            vrule,
            hrule,
        })
        .collect();
    if grids.len() > 1 {
        rest = t.cut_between(&grids, rest)?;
    }
    let every = rest.clone();
    let area = |g: &Grid| (g.x1() - g.x0()) * (g.y1() - g.y0());
    grids.sort_by(|a, b| fcmp(area(a), area(b)));
    let mut tables: Vec<Table> = Vec::new();
    for grid in &grids {
        let Some((members, rows)) = t.grid_table(grid, &rest)? else {
            continue;
        };
        let inside: HashSet<usize> = members.iter().copied().collect();
        rest.retain(|i| !inside.contains(i));
        if let Some(rows) = rows {
            tables.push(Table {
                rows,
                lines: members,
            });
        }
    }
    tables.extend(t.aligned_tables(&rest, rules)?);
    let used: HashSet<usize> = tables
        .iter()
        .flat_map(|b| b.lines.iter().copied())
        .collect();
    let blocks = PyList::empty(py);
    for table in &tables {
        blocks.append(t.block(table)?)?;
    }
    let kept: Vec<&Bound<'py, PyAny>> = every
        .iter()
        .filter(|i| !used.contains(i))
        .map(|&i| &t.lines[i].obj)
        .collect();
    let out = PyList::new(py, kept)?;
    Ok((blocks, out))
}

/// `table_cells.is_value` of an ASCII text as the native steps decide it, `None` for other
/// texts (for the tests).
#[pyfunction]
pub fn table_is_value(text: &str) -> PyResult<Option<bool>> {
    crate::boundary::guard("table_is_value", || {
        Ok(text.is_ascii().then(|| ascii_is_value(text)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values() {
        for yes in [
            "12", "(1.5)", "-3%", "$4", "1 234", "n/a", "N/A", "x", ".5%", "12ab", "[3]",
        ] {
            assert!(ascii_is_value(yes), "{yes}");
        }
        for no in ["word", "a1", "12abcd", "", "1.2.3 four"] {
            assert!(!ascii_is_value(no), "{no}");
        }
        assert!(ascii_is_value("."));
        assert!(!ascii_is_value(""));
    }

    #[test]
    fn groups() {
        assert!(group_head("29") && group_head("-1") && !group_head("1234") && !group_head("-"));
        assert!(
            group_tail("300") && group_tail("300.5") && group_tail("300%") && group_tail("300,5)")
        );
        assert!(!group_tail("3000") && !group_tail("300.") && !group_tail("30"));
    }

    #[test]
    fn positions() {
        let words = ["ab", "c"];
        let out = word_positions("ab c", &words, 0.0, 10.0)
            .ok()
            .unwrap_or_default();
        assert_eq!(out.len(), 2);
        assert!(word_positions("ab", &["x"], 0.0, 1.0).is_err());
        assert_eq!(index_of(&['a'], &['a', 'b'], 0), None);
        assert_eq!(tail_start(5, 3), 3);
        assert_eq!(tail_start(5, 1), 0);
        assert_eq!(tail_start(5, 0), 1);
    }
}
