//! The document statistics of `pdfthin/layout/headings.py`: `body_size`, `_context` (sizes by
//! characters, the body's look, margin texts, table-of-contents pages, the looks of running
//! heads) and `_is_slide_deck`, step by step, in one pass that reads and changes nothing.
//!
//! Text tests are done here for "simple" texts only: ASCII without a line feed (Python's `$`
//! also matches before a final `\n`), where `\w`, `\d`, `\s`, `isalpha`, `isupper`,
//! `islower`, `lower()` and IGNORECASE all mean their ASCII selves (`\s` and `split()` with
//! CPython's white space, `\x1c`-`\x1f` included). Any other text goes to a Python hook, the
//! module's own function. `None` (Python runs) where a size or coordinate is not a `float`,
//! a flag not a `bool`, a text or font not a `str`, a container not a `list`, or a size that
//! Python's `round` would refuse (infinite or NaN).

use std::collections::HashMap;

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyList, PyString, PyTuple};

use std::sync::OnceLock;

use crate::pyops::{is_space, pmax, utf8};
use crate::pyre::{Caps, Re};

/// A text the native tests read as Python does: ASCII, no line feed.
pub fn simple(s: &str) -> bool {
    s.is_ascii() && !s.contains('\n')
}

/// Python's `round(x * 2) / 2` (`size_bucket`): halves to even, on a finite `x`.
pub fn size_bucket(size: f64) -> f64 {
    let x = size * 2.0;
    let f = x.floor();
    let d = x - f;
    let up = d > 0.5 || (d == 0.5 && f % 2.0 != 0.0);
    let r = if up { f + 1.0 } else { f };
    // `round` gives an int: 0, never -0.
    (r + 0.0) / 2.0
}

// --- fonts ------------------------------------------------------------------------------------

/// The longest suffix of `name` in `words`, by the leftmost start where it matches:
/// `re.sub(r"(a|b|...)$", "", name)` (one match at most, there being no line feed).
fn strip_suffix<'a>(name: &'a str, words: &[&str]) -> &'a str {
    for i in 0..=name.len() {
        if name.is_char_boundary(i) && words.contains(&&name[i..]) {
            return &name[..i];
        }
    }
    name
}

/// `re.sub(r"(a|b|...)+$", "", name)`: cut at the leftmost start from which the rest is one
/// or more of `words` in a row.
fn strip_repeated_suffix<'a>(name: &'a str, words: &[&str]) -> &'a str {
    let n = name.len();
    // tail[i]: name[i..] is made of one or more words (or empty, at i == n).
    let mut tail = vec![false; n + 1];
    tail[n] = true;
    for i in (0..n).rev() {
        tail[i] = words
            .iter()
            .any(|w| name[i..].starts_with(w) && tail.get(i + w.len()).copied().unwrap_or(false));
    }
    match (0..n).find(|&i| tail[i]) {
        Some(i) => &name[..i],
        None => name,
    }
}

/// `font_family(font)` of an ASCII font name without a line feed.
pub fn font_family(font: &str) -> String {
    let name = match font.split_once('+') {
        Some((_, rest)) => rest,
        None => font,
    };
    let name = name.to_ascii_lowercase();
    let name = name.split(['-', ',', '_']).next().unwrap_or("");
    let name = strip_suffix(name, &["psmt", "mt", "ps", "std", "pro"]);
    let name = strip_repeated_suffix(
        name,
        &[
            "bold", "italic", "oblique", "regular", "roman", "medium", "light", "semibold", "black",
        ],
    );
    if name.is_empty() {
        font.to_owned()
    } else {
        name.to_owned()
    }
}

/// `bool(_BOLD_FONT.search(font))` of an ASCII font name:
/// `bold|black|heavy|demi|(cm|sf|ec|t1)bx|bx\d`, ignoring case.
pub fn bold_font(font: &str) -> bool {
    let f = font.to_ascii_lowercase();
    let b = f.as_bytes();
    if ["bold", "black", "heavy", "demi"]
        .iter()
        .any(|w| f.contains(w))
    {
        return true;
    }
    for i in 0..b.len() {
        if b[i..].starts_with(b"bx") {
            if i >= 2 && matches!(&b[i - 2..i], b"cm" | b"sf" | b"ec" | b"t1") {
                return true;
            }
            if b.get(i + 2).is_some_and(|c| c.is_ascii_digit()) {
                return true;
            }
        }
    }
    false
}

// --- small text tests -------------------------------------------------------------------------

/// `is_caps(text)` of a simple text.
pub fn is_caps(text: &str) -> bool {
    let b = text.as_bytes();
    if b.iter().take(24).filter(|c| c.is_ascii_lowercase()).count() > 3 {
        return false;
    }
    let letters = b.iter().filter(|c| c.is_ascii_alphabetic()).count();
    if letters < 3 {
        return false;
    }
    let upper = b.iter().filter(|c| c.is_ascii_uppercase()).count();
    upper as f64 >= 0.9 * letters as f64
}

/// `_roman_value(text)`: the value of a well-formed Roman numeral of I V X L C, else 0.
pub fn roman_value(text: &str) -> i64 {
    let mut values = Vec::with_capacity(text.len());
    for c in text.chars() {
        values.push(match c {
            'I' => 1,
            'V' => 5,
            'X' => 10,
            'L' => 50,
            'C' => 100,
            _ => return -1, // Python raises KeyError: never asked here
        });
    }
    let mut total: i64 = 0;
    for (i, &v) in values.iter().enumerate() {
        if values.get(i + 1).is_some_and(|&next| next > v) {
            total -= v;
        } else {
            total += v;
        }
    }
    if to_roman(total) == text {
        total
    } else {
        0
    }
}

fn to_roman(mut n: i64) -> String {
    let mut out = String::new();
    for (value, glyph) in [
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ] {
        while n >= value {
            out.push_str(glyph);
            n -= value;
        }
    }
    out
}

/// `_folio(word)` of a simple word without white space: `^(\d{1,4}|[ivxlc]{1,6})$` and a
/// number or a Roman numeral.
pub fn folio(word: &str) -> bool {
    let b = word.as_bytes();
    if (1..=4).contains(&b.len()) && b.iter().all(u8::is_ascii_digit) {
        return true;
    }
    (1..=6).contains(&b.len())
        && b.iter().all(|c| b"ivxlc".contains(c))
        && roman_value(&word.to_ascii_uppercase()) > 0
}

/// Python's `text.split()` of a simple text.
pub fn split_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| is_space(c)).filter(|w| !w.is_empty())
}

/// `_margin_key(text)` of a simple text.
pub fn margin_key(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let words: Vec<&str> = split_words(&lower).filter(|w| !folio(w)).collect();
    words.join(" ")
}

/// Letters (`[^\W\d_]`) in a simple text.
pub fn letters(text: &str) -> usize {
    text.bytes().filter(u8::is_ascii_alphabetic).count()
}

/// `_toc_leader(text)` of a simple text: `(\.\s?){4,}|_{4,}` where a leader may be.
pub fn toc_leader(text: &str) -> bool {
    if !(text.contains(". .") || text.contains("..") || text.contains("__")) {
        return false;
    }
    let b = text.as_bytes();
    let mut dots = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'.' {
            dots += 1;
            if dots >= 4 {
                return true;
            }
            i += 1;
            if i < b.len() && is_space(char::from(b[i])) {
                i += 1;
            }
        } else {
            dots = 0;
            i += 1;
        }
    }
    b.windows(4).any(|w| w == b"____")
}

/// `_TRAILING_NUMBER.search(text)` of a simple text: `\s(\d{1,4}|[ivxlc]{1,6})$`.
fn trailing_number(text: &str) -> bool {
    let b = text.as_bytes();
    let run = |ok: &dyn Fn(u8) -> bool| b.iter().rev().take_while(|&&c| ok(c)).count();
    let digits = run(&|c: u8| c.is_ascii_digit());
    let roman = run(&|c: u8| b"ivxlc".contains(&c));
    for (r, most) in [(digits, 4), (roman, 6)] {
        if (1..=most).contains(&r) && r < b.len() && is_space(char::from(b[b.len() - r - 1])) {
            return true;
        }
    }
    false
}

/// The first test of `_toc_page` on a line whose last character (if any) is ASCII: it is a
/// digit or one of "ivxlc", or there is none, or the line holds a leader.
pub fn toc_end(text: &str) -> bool {
    match text.as_bytes().last() {
        None => true,
        Some(c) => c.is_ascii_digit() || b"ivxlc".contains(c) || text.contains(". ."),
    }
}

/// `_toc_entry(text)` of a simple text.
pub fn toc_entry(text: &str) -> bool {
    toc_leader(text) || (trailing_number(text) && letters(text) >= 3)
}

// --- numbering and the shape of a heading -------------------------------------------------

/// The patterns of `headings.py` that the native tests use, by name: `(name, pattern,
/// IGNORECASE)`, checked against the module's own by the tests.
pub const PATTERNS: [(&str, &str, bool); 13] = [
    (
        "_ARABIC",
        r"^(\d{1,2}(?:\.\d{1,2}){0,4})(\.?)(?:\s+|$)",
        false,
    ),
    (
        "_ROMAN",
        r"^([IVX]{1,6})(?:-([A-Z])(\d{1,2})?)?(\.?)\s+",
        false,
    ),
    ("_PAREN", r"^\((\d{1,2}|[a-z])\)\s+", false),
    ("_LETTER", r"^([A-Z])((?:\.\d{1,2}){0,3})([.):]?)\s+", false),
    (
        "_WORD_NUMBER",
        concat!(
            r"^(chapter|section|part|appendix|annex|anhang|kapitel|teil|chapitre|partie|capítulo)",
            r"\s+(\d{1,3}(?:\.\d{1,2})*|[IVXLC]{1,7}|[A-Z]|one|two|three|four|five|six|seven|eight|",
            r"nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|",
            r"twenty)\b\s*[.:\-–—]?\s*",
        ),
        true,
    ),
    (
        "_CAPTION",
        concat!(
            r"^(fig\.?|figure|figura|abb\.?|abbildung|table|tab\.|tabelle|tableau|algorithm|listing|",
            r"chart|scheme|plate|exhibit|graph|diagram|photo|image)\s*(\d+|[ivxlc]+\b|[a-z]\b)",
            r"|^(source|sources|quelle|quellen|note|notes|nota|remarque)\s*:",
        ),
        true,
    ),
    ("_EMAIL", r"\S@\S+\.\w", false),
    (
        "_THEOREM",
        concat!(
            r"^(definition|theorem|lemma|corollary|proposition|example|remark|proof|claim|conjecture|",
            r"notation|axiom|exercise|problem|solution|observation|assumption|hypothesis|",
            r"definición|teorema|ejemplo|satz|korollar|beispiel|bemerkung|beweis|aufgabe|lösung|",
            r"folgerung|théorème|lemme|exemple|remarque|preuve|démonstration)(\s+\d[\d.]*|\s*[.:])",
        ),
        true,
    ),
    (
        "_MATH_FONT",
        r"^(cm(mi|sy|ex|r\d)|msbm|msam|symbol|mtextra|euler|stix|rsfs)",
        true,
    ),
    (
        "_LABEL",
        r"^(\d{1,2}(?:\.\d{1,2}){0,4}\.?|[IVXLC]{1,6}\.?|[A-Z]\.|§\s*\d{1,3})$",
        false,
    ),
    ("_LINE_NUMBER", r"(\d{1,2})\s", false),
    ("_SENTENCE_BREAK", r"[a-z]{2,}[.!?]\s+[A-Z]", false),
    ("_INITIALS", r"\b[A-Z]\.\s?[A-Z]?\.?\s?[A-Z][a-z]+,", false),
];

/// The compiled `PATTERNS`, in their order.
pub fn pattern(index: usize) -> &'static Re {
    static COMPILED: OnceLock<Vec<Re>> = OnceLock::new();
    &COMPILED.get_or_init(|| PATTERNS.iter().map(|&(_, p, i)| Re::new(p, i)).collect())[index]
}

const ARABIC: usize = 0;
const ROMAN: usize = 1;
const PAREN: usize = 2;
const LETTER: usize = 3;
const WORD_NUMBER: usize = 4;
const CAPTION: usize = 5;
const EMAIL: usize = 6;
const THEOREM: usize = 7;
const MATH_FONT: usize = 8;

/// Python's `text.strip()` of a simple text.
pub fn strip(text: &str) -> &str {
    text.trim_matches(is_space)
}

/// `Numbering`: kind, depth and title.
pub struct Numbering<'a> {
    pub kind: &'static str,
    pub depth: usize,
    pub title: &'a str,
}

/// A group's text ("" when it did not take part).
fn group<'a>(text: &'a str, caps: &Caps, g: usize) -> &'a str {
    caps.get(g)
        .copied()
        .flatten()
        .map_or("", |(a, b)| &text[a..b])
}

fn after<'a>(text: &'a str, caps: &Caps) -> &'a str {
    let end = caps.first().copied().flatten().map_or(0, |(_, b)| b);
    &text[end..]
}

fn dots(s: &str) -> usize {
    s.bytes().filter(|&c| c == b'.').count()
}

/// `numbering(text)` of a simple text.
pub fn numbering(text: &str) -> Option<Numbering<'_>> {
    let text = strip(text);
    let b = text.as_bytes();
    let first = *b.first()?;
    let found = |kind, depth, caps: &Caps| {
        Some(Numbering {
            kind,
            depth,
            title: after(text, caps),
        })
    };
    if first.is_ascii_digit() {
        let m = pattern(ARABIC).matches(b)?;
        if after(text, &m).is_empty() {
            return None;
        }
        return found("arabic", dots(group(text, &m, 1)) + 1, &m);
    }
    if first == b'(' {
        let m = pattern(PAREN).matches(b)?;
        return found("paren", 1, &m);
    }
    let start = b[..b.len().min(2)].to_ascii_lowercase();
    if [b"ch", b"se", b"pa", b"ap", b"an", b"ka", b"te", b"ca"]
        .iter()
        .any(|w| w[..] == start[..])
    {
        if let Some(m) = pattern(WORD_NUMBER).matches(b) {
            let word = group(text, &m, 1).to_ascii_lowercase();
            let depth = usize::from(!matches!(word.as_str(), "part" | "teil" | "partie"));
            return found("word", depth + dots(group(text, &m, 2)), &m);
        }
    }
    if !first.is_ascii_uppercase() {
        return None;
    }
    if b"IVX".contains(&first) {
        if let Some(m) = pattern(ROMAN).matches(b) {
            let (g2, g3, g4) = (group(text, &m, 2), group(text, &m, 3), group(text, &m, 4));
            if roman_value(group(text, &m, 1)) != 0 && (!g2.is_empty() || !g4.is_empty()) {
                let depth = 1 + usize::from(!g2.is_empty()) + usize::from(!g3.is_empty());
                return found("roman", depth, &m);
            }
        }
    }
    let m = pattern(LETTER).matches(b)?;
    let (g2, g3) = (group(text, &m, 2), group(text, &m, 3));
    if g2.is_empty() && g3.is_empty() {
        return None;
    }
    found("letter", 1 + dots(g2), &m)
}

/// `_url(text)` of a simple text.
pub fn url(text: &str) -> bool {
    if text.contains("://")
        || text.contains("www.")
        || (text.contains('@') && pattern(EMAIL).search(text.as_bytes()).is_some())
    {
        return true;
    }
    [".com", ".org", ".net", ".gov", ".edu"]
        .iter()
        .any(|tld| text.contains(tld))
}

/// What `_plain_shape` asks of the text alone (a simple text, stripped and not empty), after
/// its tests of the block's kind, size and length: the bullet, the trailing `,` `;` or `:`
/// (`sideways` the block's own test), the letters, captions, URLs, leaders and theorems.
/// `true`: the text may be a heading's.
pub fn shaped_text(text: &str, sideways: bool) -> bool {
    let b = text.as_bytes();
    let (Some(&first), Some(&last)) = (b.first(), b.last()) else {
        return false;
    };
    if first == b'*' || first == b'-' || last == b',' || last == b';' {
        return false;
    }
    if (last == b':' && b.len() > 40) || sideways {
        return false;
    }
    let title = match numbering(text) {
        Some(found) if !found.title.is_empty() => found.title,
        _ => text,
    };
    let n = letters(title);
    let spaced = title.bytes().filter(|&c| c != b' ').count();
    if n < 2 || (n as f64) < 0.4 * spaced as f64 {
        return false;
    }
    if pattern(CAPTION).matches(b).is_some() || url(text) || toc_leader(text) {
        return false;
    }
    pattern(THEOREM).matches(b).is_none()
}

/// `_BULLETS`.
const BULLETS: &str = "•◦▪▫‣⁃●○■□►▸▹–—*·✓✔➢➤→-";

/// `bool(_MATH_FONT.match(family))` of an ASCII family.
pub fn math_font(family: &str) -> bool {
    pattern(MATH_FONT).matches(family.as_bytes()).is_some()
}

// --- reading the document ---------------------------------------------------------------------

/// A finite `float`, exactly that type.
fn finite(obj: &Bound<'_, PyAny>) -> Option<f64> {
    let v = obj.downcast_exact::<PyFloat>().ok()?.value();
    v.is_finite().then_some(v)
}

fn flag(obj: &Bound<'_, PyAny>) -> Option<bool> {
    Some(obj.downcast_exact::<PyBool>().ok()?.is_true())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Table,
    /// `paragraph` or `list_item`: what may be a heading.
    Text,
    Other,
}

struct LineD<'py> {
    obj: Bound<'py, PyAny>,
    /// The text when simple.
    text: Option<String>,
    /// The text when it has a UTF-8 form, simple or not.
    full: Option<String>,
    chars: usize,
    size: f64,
    bold: bool,
    italic: bool,
    font: usize,
}

struct BlockD<'py> {
    obj: Bound<'py, PyAny>,
    kind: Kind,
    lines: Vec<LineD<'py>>,
    /// `x0` and `x1` when they are floats (of any value).
    x0: Option<f64>,
    x1: Option<f64>,
    y0: f64,
    y1: f64,
    size: f64,
    bold: bool,
}

impl BlockD<'_> {
    fn chars(&self) -> usize {
        self.lines.iter().map(|l| l.chars).sum()
    }

    /// `block.text` when every line is simple.
    fn simple_text(&self) -> Option<String> {
        let mut out = String::new();
        for (i, line) in self.lines.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(line.text.as_deref()?);
        }
        Some(out)
    }

    /// `block.text`, simple or not, when every line has a UTF-8 form.
    fn full_text(&self) -> Option<String> {
        let mut out = String::new();
        for (i, line) in self.lines.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(line.text.as_deref().or(line.full.as_deref())?);
        }
        Some(out)
    }
}

struct PageD<'py> {
    width: f64,
    height: f64,
    blocks: Vec<BlockD<'py>>,
}

/// A font's family and whether its name says bold.
struct FontD {
    family: String,
    bold: bool,
}

struct Hooks<'py> {
    font_family: Bound<'py, PyAny>,
    bold_font: Bound<'py, PyAny>,
    is_caps: Bound<'py, PyAny>,
    margin_key: Bound<'py, PyAny>,
    toc_end: Bound<'py, PyAny>,
    toc_entry: Bound<'py, PyAny>,
    wordy: Bound<'py, PyAny>,
}

struct Reader<'py> {
    py: Python<'py>,
    hooks: Hooks<'py>,
    font_index: HashMap<String, usize>,
    fonts: Vec<FontD>,
    /// The last font name read and its index: lines in a row mostly share the very object.
    last_font: Option<(Bound<'py, PyAny>, usize)>,
}

impl<'py> Reader<'py> {
    fn font(&mut self, font: &Bound<'py, PyAny>) -> PyResult<Option<usize>> {
        if let Some((last, i)) = &self.last_font {
            if last.is(font) {
                return Ok(Some(*i));
            }
        }
        let found = self.read_font(font)?;
        if let Some(i) = found {
            self.last_font = Some((font.clone(), i));
        }
        Ok(found)
    }

    fn read_font(&mut self, font: &Bound<'py, PyAny>) -> PyResult<Option<usize>> {
        if font.downcast_exact::<PyString>().is_err() {
            return Ok(None);
        }
        let Some(s) = utf8(font)? else {
            return Ok(None);
        };
        if let Some(&i) = self.font_index.get(&s) {
            return Ok(Some(i));
        }
        let found = if simple(&s) {
            FontD {
                family: font_family(&s),
                bold: bold_font(&s),
            }
        } else {
            let family = self.hooks.font_family.call1((font,))?;
            let Some(family) = utf8(&family)? else {
                return Ok(None);
            };
            FontD {
                family,
                bold: self.hooks.bold_font.call1((font,))?.is_truthy()?,
            }
        };
        self.fonts.push(found);
        self.font_index.insert(s, self.fonts.len() - 1);
        Ok(Some(self.fonts.len() - 1))
    }

    fn line(&mut self, obj: Bound<'py, PyAny>) -> PyResult<Option<LineD<'py>>> {
        let py = self.py;
        let text = obj.getattr(intern!(py, "text"))?;
        if text.downcast_exact::<PyString>().is_err() {
            return Ok(None);
        }
        let chars = text.len()?;
        let full = utf8(&text)?;
        let (text, full) = match full {
            Some(s) if simple(&s) => (Some(s), None),
            other => (None, other),
        };
        let Some(size) = finite(&obj.getattr(intern!(py, "size"))?) else {
            return Ok(None);
        };
        let Some(bold) = flag(&obj.getattr(intern!(py, "bold"))?) else {
            return Ok(None);
        };
        let Some(italic) = flag(&obj.getattr(intern!(py, "italic"))?) else {
            return Ok(None);
        };
        let Some(font) = self.font(&obj.getattr(intern!(py, "font"))?)? else {
            return Ok(None);
        };
        Ok(Some(LineD {
            obj,
            text,
            full,
            chars,
            size,
            bold,
            italic,
            font,
        }))
    }

    fn block(&mut self, obj: Bound<'py, PyAny>) -> PyResult<Option<BlockD<'py>>> {
        let py = self.py;
        let kind = obj.getattr(intern!(py, "kind"))?;
        let Ok(kind) = kind.downcast_exact::<PyString>() else {
            return Ok(None);
        };
        let kind = match &*kind.to_cow()? {
            "table" => Kind::Table,
            "paragraph" | "list_item" => Kind::Text,
            _ => Kind::Other,
        };
        let lines_obj = obj.getattr(intern!(py, "lines"))?;
        let Ok(lines_list) = lines_obj.downcast_exact::<PyList>() else {
            return Ok(None);
        };
        let mut lines = Vec::with_capacity(lines_list.len());
        for line in lines_list.iter() {
            match self.line(line)? {
                Some(l) => lines.push(l),
                None => return Ok(None),
            }
        }
        let f = |name: &Bound<'py, PyString>| -> PyResult<Option<f64>> {
            Ok(finite(&obj.getattr(name)?))
        };
        let (Some(y0), Some(y1), Some(size)) = (
            f(intern!(py, "y0"))?,
            f(intern!(py, "y1"))?,
            f(intern!(py, "size"))?,
        ) else {
            return Ok(None);
        };
        let Some(bold) = flag(&obj.getattr(intern!(py, "bold"))?) else {
            return Ok(None);
        };
        let any_float = |name: &Bound<'py, PyString>| -> PyResult<Option<f64>> {
            let v = obj.getattr(name)?;
            Ok(v.downcast_exact::<PyFloat>().ok().map(|f| f.value()))
        };
        let x0 = any_float(intern!(py, "x0"))?;
        let x1 = any_float(intern!(py, "x1"))?;
        Ok(Some(BlockD {
            obj,
            kind,
            lines,
            x0,
            x1,
            y0,
            y1,
            size,
            bold,
        }))
    }

    fn pages(&mut self, pages: &Bound<'py, PyAny>) -> PyResult<Option<Vec<PageD<'py>>>> {
        let py = self.py;
        let Ok(pages) = pages.downcast_exact::<PyList>() else {
            return Ok(None);
        };
        let mut out = Vec::with_capacity(pages.len());
        for page in pages.iter() {
            let (Some(width), Some(height)) = (
                finite(&page.getattr(intern!(py, "width"))?),
                finite(&page.getattr(intern!(py, "height"))?),
            ) else {
                return Ok(None);
            };
            let blocks_obj = page.getattr(intern!(py, "blocks"))?;
            let Ok(blocks_list) = blocks_obj.downcast_exact::<PyList>() else {
                return Ok(None);
            };
            let mut blocks = Vec::with_capacity(blocks_list.len());
            for block in blocks_list.iter() {
                match self.block(block)? {
                    Some(b) => blocks.push(b),
                    None => return Ok(None),
                }
            }
            out.push(PageD {
                width,
                height,
                blocks,
            });
        }
        Ok(Some(out))
    }

    /// `block.text` as Python makes it.
    fn py_text(&self, block: &BlockD<'py>) -> PyResult<Bound<'py, PyAny>> {
        block.obj.getattr(intern!(self.py, "text"))
    }

    fn margin_key(&self, block: &BlockD<'py>) -> PyResult<Option<String>> {
        match block.simple_text() {
            Some(text) => Ok(Some(margin_key(&text))),
            None => {
                let key = self.hooks.margin_key.call1((self.py_text(block)?,))?;
                utf8(&key)
            }
        }
    }

    /// `block_look(block)`.
    fn look(&self, block: &BlockD<'py>) -> PyResult<Look> {
        let lines = &block.lines;
        let (total, italic, bold, family) = if let [line] = &lines[..] {
            let font = &self.fonts[line.font];
            (
                line.chars,
                line.italic,
                line.bold || font.bold,
                font.family.clone(),
            )
        } else {
            let (mut slanted, mut heavy, mut total) = (0usize, 0usize, 0usize);
            // A Counter: insertion order, the first of the most common.
            let mut families: Vec<(usize, usize)> = Vec::new();
            for line in lines {
                let n = line.chars;
                total += n;
                if line.italic {
                    slanted += n;
                }
                if line.bold || self.fonts[line.font].bold {
                    heavy += n;
                }
                let fam = &self.fonts[line.font].family;
                match families
                    .iter_mut()
                    .find(|(f, _)| &self.fonts[*f].family == fam)
                {
                    Some(entry) => entry.1 += n,
                    None => families.push((line.font, n)),
                }
            }
            let mut best: Option<(usize, usize)> = None;
            for &(f, n) in &families {
                if best.map_or(true, |(_, m)| n > m) {
                    best = Some((f, n));
                }
            }
            let family = best.map_or(String::new(), |(f, _)| self.fonts[f].family.clone());
            (
                total,
                slanted * 2 > total,
                block.bold || heavy * 2 > total,
                family,
            )
        };
        let caps = total <= 2 * MAX_HEADING_CHARS
            && match block.simple_text() {
                Some(text) => is_caps(&text),
                None => self
                    .hooks
                    .is_caps
                    .call1((self.py_text(block)?,))?
                    .is_truthy()?,
            };
        Ok(Look {
            size: size_bucket(block.size),
            bold,
            italic,
            caps,
            family,
        })
    }

    /// `_plain_shape(ctx, page, block)`, or `None` where Python must tell: a text that is not
    /// simple, a font family that is not ASCII, a block's `x0` or `x1` not a float.
    fn plain_shape(
        &self,
        page: &PageD<'py>,
        block: &BlockD<'py>,
        doc: &Doc<'_>,
    ) -> PyResult<Option<bool>> {
        if block.kind != Kind::Text || block.lines.len() > 4 {
            return Ok(Some(false));
        }
        if block.chars() > MAX_HEADING_CHARS {
            return Ok(Some(false));
        }
        let Some(whole) = block.simple_text() else {
            return Ok(self.rejected(block));
        };
        let text = strip(&whole);
        if text.is_empty() || text.len() > MAX_HEADING_CHARS {
            return Ok(Some(false));
        }
        let Some(sideways) = sideways(block) else {
            return Ok(None);
        };
        if !shaped_text(text, sideways) {
            return Ok(Some(false));
        }
        let mut all_math = true;
        for line in &block.lines {
            let family = &self.fonts[line.font].family;
            if !family.is_ascii() {
                return Ok(None);
            }
            if !math_font(family) {
                all_math = false;
                break;
            }
        }
        if all_math {
            return Ok(Some(false));
        }
        Ok(Some(!self.running_head(page, block, text, doc)?))
    }

    /// `Some(false)` where a text that is not simple fails one of the tests of `_plain_shape`
    /// that mean the same on any text (its length, a bullet, the last character, the block
    /// set sideways, a web address, math fonts), else `None`: each test must pass for
    /// `True`, and none changes anything.
    fn rejected(&self, block: &BlockD<'py>) -> Option<bool> {
        let whole = block.full_text()?;
        let text = whole.trim_matches(is_space);
        let n = text.chars().count();
        let last = text.chars().next_back();
        let reject = match text.chars().next() {
            None => true,
            Some(first) => {
                n > MAX_HEADING_CHARS
                    || BULLETS.contains(first)
                    || matches!(last, Some(',' | ';'))
                    || (last == Some(':') && n > 40)
                    || sideways(block) == Some(true)
                    || text.contains("://")
                    || text.contains("www.")
                    || [".com", ".org", ".net", ".gov", ".edu"]
                        .iter()
                        .any(|tld| text.contains(tld))
                    || block.lines.iter().all(|line| {
                        let family = &self.fonts[line.font].family;
                        family.is_ascii() && math_font(family)
                    })
            }
        };
        reject.then_some(false)
    }

    /// `_running_head(ctx, page, block, text)` of a simple text.
    fn running_head(
        &self,
        page: &PageD<'py>,
        block: &BlockD<'py>,
        text: &str,
        doc: &Doc<'_>,
    ) -> PyResult<bool> {
        if block.size > doc.body + 0.5 || !in_margin(page, block) {
            return Ok(false);
        }
        let lower = text.to_ascii_lowercase();
        let words: Vec<&str> = split_words(&lower).collect();
        if let (Some(first), Some(last)) = (words.first(), words.last()) {
            if words.len() >= 2 && (folio(first) || folio(last)) {
                return Ok(true);
            }
        }
        if doc
            .margin_texts
            .get(&margin_key(text))
            .copied()
            .unwrap_or(0)
            >= 2
        {
            return Ok(true);
        }
        let look = self.look(block)?;
        Ok(doc.running.contains(&look))
    }

    fn py_line(&self, line: &LineD<'py>) -> PyResult<Bound<'py, PyAny>> {
        line.obj.getattr(intern!(self.py, "text"))
    }

    /// `_toc_page(page)`, each test as lazy as Python's: the ends of lines first, entries
    /// among them, wordy lines last.
    fn toc_page(&self, page: &PageD<'py>) -> PyResult<bool> {
        let lines = || {
            page.blocks
                .iter()
                .filter(|b| b.kind != Kind::Table)
                .flat_map(|b| b.lines.iter())
        };
        let mut ends = Vec::new();
        for line in lines() {
            let end = match (&line.text, &line.full) {
                (Some(t), _) => toc_end(t),
                (None, Some(t)) if t.chars().last().is_some_and(|c| c.is_ascii()) => toc_end(t),
                _ => self
                    .hooks
                    .toc_end
                    .call1((self.py_line(line)?,))?
                    .is_truthy()?,
            };
            if end {
                ends.push(line);
            }
        }
        if ends.len() < 5 {
            return Ok(false);
        }
        let mut entries = 0usize;
        for line in ends {
            let entry = match &line.text {
                Some(t) => toc_entry(t),
                None => self
                    .hooks
                    .toc_entry
                    .call1((self.py_line(line)?,))?
                    .is_truthy()?,
            };
            entries += usize::from(entry);
        }
        if entries < 5 {
            return Ok(false);
        }
        let mut wordy = 0usize;
        for line in lines() {
            let w = match &line.text {
                Some(t) => letters(t) >= 3,
                None => self
                    .hooks
                    .wordy
                    .call1((self.py_line(line)?,))?
                    .is_truthy()?,
            };
            wordy += usize::from(w);
        }
        Ok(entries as f64 >= 0.4 * wordy as f64)
    }
}

/// A line's size bucket, weight, slant and font (its index).
type LineLook = (f64, bool, bool, usize);

const MAX_HEADING_CHARS: usize = 160;
const FURNITURE_BAND: f64 = 0.12;

#[derive(Clone, PartialEq)]
pub struct Look {
    size: f64,
    bold: bool,
    italic: bool,
    caps: bool,
    family: String,
}

impl Look {
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (
            self.size,
            self.bold,
            self.italic,
            self.caps,
            self.family.as_str(),
        )
            .into_pyobject(py)
    }
}

fn in_margin(page: &PageD<'_>, block: &BlockD<'_>) -> bool {
    if page.height <= 0.0 {
        return false;
    }
    let band = FURNITURE_BAND * page.height;
    block.y1 <= band || block.y0 >= page.height - band
}

/// What `_plain_shape` needs of the whole document.
struct Doc<'a> {
    body: f64,
    margin_texts: &'a HashMap<String, usize>,
    running: &'a [Look],
}

/// `_sideways(block)`, or `None` when `x0` or `x1` is not a float.
fn sideways(block: &BlockD<'_>) -> Option<bool> {
    let width = block.x1? - block.x0?;
    let height = block.y1 - block.y0;
    Some(block.lines.len() == 1 && height > pmax(width, 3.0 * block.size))
}

/// `body_size(pages)`.
fn body_size(pages: &[PageD<'_>]) -> f64 {
    let mut weights: Vec<(f64, usize)> = Vec::new();
    for page in pages {
        for block in &page.blocks {
            if block.kind == Kind::Table {
                continue;
            }
            for line in &block.lines {
                let key = size_bucket(line.size);
                match weights.iter_mut().find(|kv| kv.0 == key) {
                    Some(kv) => kv.1 += line.chars,
                    None => weights.push((key, line.chars)),
                }
            }
        }
    }
    let mut best: Option<(f64, usize)> = None;
    for &(size, n) in &weights {
        if best.map_or(true, |(s, m)| n > m || (n == m && size < s)) {
            best = Some((size, n));
        }
    }
    best.map_or(0.0, |(s, _)| s)
}

/// `_is_slide_deck(pages, body)`.
fn slide_deck(pages: &[PageD<'_>], body: f64) -> bool {
    let with_text: Vec<&PageD<'_>> = pages.iter().filter(|p| !p.blocks.is_empty()).collect();
    if with_text.is_empty() {
        return false;
    }
    let total: usize = with_text
        .iter()
        .flat_map(|p| p.blocks.iter())
        .map(BlockD::chars)
        .sum();
    let chars = total as f64 / with_text.len() as f64;
    let landscape = with_text
        .iter()
        .filter(|p| p.width > 1.15 * p.height)
        .count();
    let wide = landscape * 2 > with_text.len() && body >= 12.0;
    (wide || body >= 16.0) && chars < 1500.0
}

/// `heading_context(pages, hooks)`: what `mark_headings` learns of the whole document before
/// it changes anything, or `None` where Python must (see the module's comment). `hooks` is
/// `(font_family, bold_font, is_caps, margin_key, toc_end, toc_entry, wordy)`, Python's answers for texts
/// that are not simple. Returns `(body, slide_deck, body_look, total_chars, size_chars,
/// margin_texts, toc_pages, running)`: `body_look` a `Look`'s fields or `None` (no paragraph
/// of two lines), `size_chars` and `margin_texts` dicts, `toc_pages` page indices,
/// `running` `(page, block, look)` of every running-head block `_context` looks at,
/// `shapes` `(page, block, answer)` of the blocks whose `_plain_shape` is not known false:
/// `True`, or `None` where Python must tell.
#[pyfunction]
pub fn heading_context<'py>(
    py: Python<'py>,
    pages: &Bound<'py, PyAny>,
    hooks: &Bound<'py, PyTuple>,
) -> PyResult<Option<Bound<'py, PyTuple>>> {
    crate::boundary::guard("heading_context", || {
        let mut reader = Reader {
            py,
            hooks: Hooks {
                font_family: hooks.get_item(0)?,
                bold_font: hooks.get_item(1)?,
                is_caps: hooks.get_item(2)?,
                margin_key: hooks.get_item(3)?,
                toc_end: hooks.get_item(4)?,
                toc_entry: hooks.get_item(5)?,
                wordy: hooks.get_item(6)?,
            },
            font_index: HashMap::new(),
            fonts: Vec::new(),
            last_font: None,
        };
        let Some(pages) = reader.pages(pages)? else {
            return Ok(None);
        };
        let body = body_size(&pages);
        let size_chars = PyDict::new(py);
        let mut sizes: Vec<(f64, usize)> = Vec::new();
        let mut total_chars = 0usize;
        let mut line_looks: Vec<(LineLook, usize)> = Vec::new();
        let mut margin_texts: HashMap<String, usize> = HashMap::new();
        let mut margin_order: Vec<String> = Vec::new();
        let toc_pages = PyList::empty(py);
        for (p, page) in pages.iter().enumerate() {
            for block in &page.blocks {
                if block.kind == Kind::Table {
                    continue;
                }
                let chars = block.chars();
                if block.lines.len() >= 2 {
                    for line in block.lines.iter().take(4) {
                        let family = line.font;
                        let key = (size_bucket(line.size), line.bold, line.italic, family);
                        let same = |k: &LineLook| {
                            k.0 == key.0
                                && k.1 == key.1
                                && k.2 == key.2
                                && reader.fonts[k.3].family == reader.fonts[key.3].family
                        };
                        match line_looks.iter_mut().find(|(k, _)| same(k)) {
                            Some(entry) => entry.1 += line.chars,
                            None => line_looks.push((key, line.chars)),
                        }
                    }
                }
                let bucket = size_bucket(block.size);
                match sizes.iter_mut().find(|kv| kv.0 == bucket) {
                    Some(kv) => kv.1 += chars,
                    None => sizes.push((bucket, chars)),
                }
                total_chars += chars;
            }
            let mut keys: Vec<String> = Vec::new();
            for block in &page.blocks {
                if in_margin(page, block) {
                    let Some(key) = reader.margin_key(block)? else {
                        return Ok(None);
                    };
                    if !keys.contains(&key) {
                        keys.push(key);
                    }
                }
            }
            for key in keys {
                match margin_texts.get_mut(&key) {
                    Some(n) => *n += 1,
                    None => {
                        margin_order.push(key.clone());
                        margin_texts.insert(key, 1);
                    }
                }
            }
            if reader.toc_page(page)? {
                toc_pages.append(p)?;
            }
        }
        for (size, n) in sizes {
            size_chars.set_item(size, n)?;
        }
        let mut best: Option<&(LineLook, usize)> = None;
        for entry in &line_looks {
            if best.map_or(true, |b| entry.1 > b.1) {
                best = Some(entry);
            }
        }
        let body_look = match best {
            Some(&((size, bold, italic, font), _)) => Some(
                Look {
                    size,
                    bold,
                    italic,
                    caps: false,
                    family: reader.fonts[font].family.clone(),
                }
                .to_py(py)?,
            ),
            None => None,
        };
        let running = PyList::empty(py);
        let mut running_looks: Vec<Look> = Vec::new();
        for (p, page) in pages.iter().enumerate() {
            for (i, block) in page.blocks.iter().enumerate() {
                if !in_margin(page, block) || block.size > body + 0.5 {
                    continue;
                }
                let Some(key) = reader.margin_key(block)? else {
                    return Ok(None);
                };
                if margin_texts.get(&key).copied().unwrap_or(0) >= 2 {
                    let look = reader.look(block)?;
                    running.append((p, i, look.to_py(py)?))?;
                    running_looks.push(look);
                }
            }
        }
        let doc = Doc {
            body,
            margin_texts: &margin_texts,
            running: &running_looks,
        };
        // A block object met twice (its shape may differ by page) is left to Python.
        let mut seen: HashMap<usize, usize> = HashMap::new();
        for page in &pages {
            for block in &page.blocks {
                *seen.entry(block.obj.as_ptr() as usize).or_insert(0) += 1;
            }
        }
        let shapes = PyList::empty(py);
        for (p, page) in pages.iter().enumerate() {
            for (i, block) in page.blocks.iter().enumerate() {
                let known = if seen.get(&(block.obj.as_ptr() as usize)) == Some(&1) {
                    reader.plain_shape(page, block, &doc)?
                } else {
                    None
                };
                if known != Some(false) {
                    shapes.append((p, i, known))?;
                }
            }
        }
        let margins = PyDict::new(py);
        for key in margin_order {
            let n = margin_texts.get(&key).copied().unwrap_or(0);
            margins.set_item(key, n)?;
        }
        let out = (
            body,
            slide_deck(&pages, body),
            body_look,
            total_chars.max(1),
            size_chars,
            margins,
            toc_pages,
            running,
            shapes,
        )
            .into_pyobject(py)?;
        Ok(Some(out))
    })
}

/// `heading_text_tests(text)`: the native answers for a simple text (for the tests, against
/// the Python functions): `(font_family, bold_font, is_caps, margin_key, toc_end, toc_entry,
/// folio, letters, toc_leader)`, or `None` for a text that is not simple.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn heading_text_tests(
    text: &Bound<'_, PyString>,
) -> PyResult<Option<(String, bool, bool, String, bool, bool, bool, usize, bool)>> {
    crate::boundary::guard("heading_text_tests", || {
        let Some(s) = utf8(text)?.filter(|s| simple(s)) else {
            return Ok(None);
        };
        let word = !s.chars().any(is_space);
        Ok(Some((
            font_family(&s),
            bold_font(&s),
            is_caps(&s),
            margin_key(&s),
            toc_end(&s),
            toc_entry(&s),
            word && folio(&s),
            letters(&s),
            toc_leader(&s),
        )))
    })
}

/// `heading_patterns()`: the patterns the native side matches, `(name, pattern, ignorecase)`
/// (for the tests, against the module's own).
#[pyfunction]
pub fn heading_patterns() -> PyResult<Vec<(&'static str, &'static str, bool)>> {
    crate::boundary::guard("heading_patterns", || Ok(PATTERNS.to_vec()))
}

/// `heading_regex(index, text, search)`: the spans of the groups (0 the whole match, `None`
/// for a group that took no part) of `PATTERNS[index]` matched (or searched) in a simple
/// text, `[]` if it does not match; `None` for a text that is not simple (for the tests).
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn heading_regex(
    index: usize,
    text: &Bound<'_, PyString>,
    search: bool,
) -> PyResult<Option<Vec<Option<(usize, usize)>>>> {
    crate::boundary::guard("heading_regex", || {
        let Some(s) = utf8(text)?.filter(|s| simple(s) && s.len() <= 1000) else {
            return Ok(None);
        };
        if index >= PATTERNS.len() {
            return Ok(None);
        }
        let re = pattern(index);
        let found = if search {
            re.search(s.as_bytes())
        } else {
            re.matches(s.as_bytes())
        };
        Ok(Some(found.unwrap_or_default()))
    })
}

/// `heading_numbering(text)`: `(numbering, _url, _MATH_FONT matches, shaped_text)` of a simple
/// text, `numbering` as `(kind, depth, title)` or `None`, `shaped_text` of the stripped
/// text (not sideways) or `None` where it is empty; `None` for a text that is not simple (for
/// the tests).
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn heading_numbering(
    text: &Bound<'_, PyString>,
) -> PyResult<
    Option<(
        Option<(&'static str, usize, String)>,
        bool,
        bool,
        Option<bool>,
    )>,
> {
    crate::boundary::guard("heading_numbering", || {
        let Some(s) = utf8(text)?.filter(|s| simple(s) && s.len() <= 1000) else {
            return Ok(None);
        };
        let found = numbering(&s).map(|n| (n.kind, n.depth, n.title.to_owned()));
        let stripped = strip(&s);
        let shaped = (!stripped.is_empty()).then(|| shaped_text(stripped, false));
        Ok(Some((found, url(&s), math_font(&s), shaped)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_round_half_to_even() {
        assert_eq!(size_bucket(10.25), 10.0);
        assert_eq!(size_bucket(10.75), 11.0);
        assert_eq!(size_bucket(-0.1), 0.0);
        assert!(size_bucket(-0.1).is_sign_positive());
        assert_eq!(size_bucket(9.9), 10.0);
    }

    #[test]
    fn families() {
        assert_eq!(font_family("ABCDEF+TimesNewRomanPS-BoldMT"), "timesnew");
        assert_eq!(font_family("Arial,Bold"), "arial");
        assert_eq!(font_family("BoldItalic"), "BoldItalic");
        assert_eq!(font_family("CMBX10"), "cmbx10");
        assert!(bold_font("CMBX10"));
        assert!(bold_font("xbx1"));
        assert!(!bold_font("cmr10"));
    }

    #[test]
    fn every_pattern_compiles() {
        for i in 0..PATTERNS.len() {
            pattern(i);
        }
        let n = numbering("III-A1. Setup").map(|n| (n.kind, n.depth, n.title));
        assert_eq!(n, Some(("roman", 3, "Setup")));
        assert!(shaped_text("2.1 Related Work", false));
        assert!(!shaped_text("Figure 3: Accuracy", false));
    }

    #[test]
    fn folios_and_leaders() {
        assert!(folio("xv"));
        assert!(!folio("vx"));
        assert!(folio("332"));
        assert!(!folio("12345"));
        assert!(toc_leader("Intro . . . . 3"));
        assert!(!toc_leader("Intro .. 3"));
        assert!(toc_end("Introduction 12") && toc_entry("Introduction 12"));
        assert_eq!(margin_key("PREFACE  xv"), "preface");
    }
}
