//! `pdfthin/model/text.py`'s `clean`: ligatures expanded, characters that are never text
//! dropped, runs of spaces made one. A text with a character of the presentation-form blocks
//! (which `clean` normalises with Python's own NFKC tables) is left to Python (`None`).

use std::collections::{HashMap, HashSet};

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyIterator, PyList, PySet, PyString};

use crate::pyops::{is_space, utf8};

/// `LIGATURES`
fn ligature(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{fb00}' => "ff",
        '\u{fb01}' => "fi",
        '\u{fb02}' => "fl",
        '\u{fb03}' => "ffi",
        '\u{fb04}' => "ffl",
        '\u{fb05}' | '\u{fb06}' => "st",
        '\u{a732}' => "AA",
        '\u{a733}' => "aa",
        '\u{0132}' => "IJ",
        '\u{0133}' => "ij",
        _ => return None,
    })
}

/// `_PRESENTATION`
fn presentation(c: char) -> bool {
    matches!(c, '\u{fb00}'..='\u{fdff}' | '\u{fe30}'..='\u{feff}' | '\u{ff00}'..='\u{ffef}' | '\u{f900}'..='\u{faff}')
}

/// `_NOT_TEXT`
fn not_text(c: char) -> bool {
    matches!(
        c,
        '\u{00}'..='\u{08}'
            | '\u{0b}'..='\u{1f}'
            | '\u{7f}'..='\u{9f}'
            | '\u{fffd}'
            | '\u{e000}'..='\u{f8ff}'
            | '\u{fffe}'
            | '\u{ffff}'
            | '\u{200b}'
            | '\u{2060}'
            | '\u{feff}'
            | '\u{00ad}'
    )
}

/// `_SPACES`
fn space(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\u{a0}' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
    )
}

/// The cleaned text, or `None` when `clean` must run in Python.
pub fn clean(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut in_spaces = false;
    for c in text.chars() {
        if let Some(expanded) = ligature(c) {
            out.push_str(expanded);
            in_spaces = false;
            continue;
        }
        if presentation(c) {
            return None;
        }
        if not_text(c) {
            continue; // dropped before spaces are collapsed: "a \x01 b" is "a b"
        }
        if space(c) {
            if !in_spaces {
                out.push(' ');
                in_spaces = true;
            }
            continue;
        }
        out.push(c);
        in_spaces = false;
    }
    Some(out)
}

/// `clean_text(text)`: `pdfthin.model.text.clean(text)`, or `None` where Python must clean
/// it (presentation forms, or a text with no UTF-8 form).
#[pyfunction]
pub fn clean_text<'py>(text: &Bound<'py, PyString>) -> PyResult<Option<Bound<'py, PyString>>> {
    crate::boundary::guard("clean_text", || {
        let Some(s) = utf8(text)? else {
            return Ok(None);
        };
        Ok(clean(&s).map(|cleaned| PyString::new(text.py(), &cleaned)))
    })
}

/// The words `_WORD.findall` finds in an ASCII text, as they are (not lower-cased). On ASCII,
/// `[^\W_][\w-]*[^\W_]|[^\W_]` finds, in each stretch of letters, digits, `_` and `-`, the
/// part from its first letter or digit to its last.
fn ascii_word_spans(s: &[u8]) -> Vec<&[u8]> {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if !word(s[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < s.len() && word(s[i]) {
            i += 1;
        }
        let stretch = &s[start..i];
        if let (Some(a), Some(b)) = (
            stretch.iter().position(|c| c.is_ascii_alphanumeric()),
            stretch.iter().rposition(|c| c.is_ascii_alphanumeric()),
        ) {
            out.push(&stretch[a..=b]);
        }
    }
    out
}

fn lower(word: &[u8]) -> String {
    word.iter()
        .map(|&c| char::from(c.to_ascii_lowercase()))
        .collect()
}

/// `[w.lower() for w in _WORD.findall(text)]` of `pdfthin/model/document.py` for an ASCII
/// text, or `None` for any other (Python's own `\w` then).
#[pyfunction]
pub fn ascii_words<'py>(text: &Bound<'py, PyString>) -> PyResult<Option<Vec<String>>> {
    crate::boundary::guard("ascii_words", || {
        let Some(s) = utf8(text)? else {
            return Ok(None);
        };
        if !s.is_ascii() {
            return Ok(None);
        }
        Ok(Some(
            ascii_word_spans(s.as_bytes())
                .into_iter()
                .map(lower)
                .collect(),
        ))
    })
}

/// Python's `text.rstrip().endswith("-")` for an ASCII text.
fn ascii_ends_broken(s: &[u8]) -> bool {
    let end = s
        .iter()
        .rposition(|&b| !is_space(char::from(b)))
        .map_or(0, |i| i + 1);
    end > 0 && s[end - 1] == b'-'
}

/// What `vocabulary` needs of a character: Python's `isalnum()` (with `_`, `\w` of `re`),
/// its `lower()`, and `isspace()`.
struct CharInfo {
    alnum: bool,
    lower: String,
    space: bool,
}

/// A line's words as `_line_words` finds them (`_WORD`, lower-cased), and whether it ends
/// in a hyphen, for a line of any characters: the classes of its non-ASCII ones asked of
/// Python once each (`char_class`). A word holding a capital sigma is lower-cased by Python
/// itself (its final form depends on the word).
fn line_words<'py>(
    py: Python<'py>,
    s: &str,
    cache: &mut HashMap<char, CharInfo>,
    char_class: &Bound<'py, PyAny>,
) -> PyResult<(Vec<String>, bool)> {
    let chars: Vec<char> = s.chars().collect();
    for &c in &chars {
        if !c.is_ascii() && !cache.contains_key(&c) {
            let (alnum, lower, space): (bool, String, bool) =
                char_class.call1((c.to_string(),))?.extract()?;
            cache.insert(
                c,
                CharInfo {
                    alnum,
                    lower,
                    space,
                },
            );
        }
    }
    let alnum = |c: char| {
        if c.is_ascii() {
            c.is_ascii_alphanumeric()
        } else {
            cache.get(&c).is_some_and(|i| i.alnum)
        }
    };
    let space = |c: char| {
        if c.is_ascii() {
            is_space(c)
        } else {
            cache.get(&c).is_some_and(|i| i.space)
        }
    };
    let mut words = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let in_word = |c: char| alnum(c) || c == '_' || c == '-';
        if !in_word(chars[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && in_word(chars[i]) {
            i += 1;
        }
        let stretch = &chars[start..i];
        if let (Some(a), Some(b)) = (
            stretch.iter().position(|&c| alnum(c)),
            stretch.iter().rposition(|&c| alnum(c)),
        ) {
            let word = &stretch[a..=b];
            if word.contains(&'\u{3a3}') {
                let text: String = word.iter().collect();
                let lowered = PyString::new(py, &text).call_method0(intern!(py, "lower"))?;
                words.push(lowered.extract::<String>()?);
            } else {
                let mut lowered = String::with_capacity(word.len());
                for &c in word {
                    if c.is_ascii() {
                        lowered.push(c.to_ascii_lowercase());
                    } else if let Some(info) = cache.get(&c) {
                        lowered.push_str(&info.lower);
                    }
                }
                words.push(lowered);
            }
        }
    }
    let end = chars.iter().rposition(|&c| !space(c)).map_or(0, |k| k + 1);
    Ok((words, end > 0 && chars[end - 1] == '-'))
}

/// `vocabulary(layouts, line_words, char_class)`: `pdfthin.model.document._vocabulary(layouts)`,
/// the set of the document's lower-cased words, the halves of words broken at a line end left
/// out. Lines are split here, the classes of non-ASCII characters asked of `char_class(c)`
/// (Python's `(c.isalnum(), c.lower(), c.isspace())`) once per character; a line with no
/// UTF-8 form (lone surrogates) is split by `line_words(text)`, which answers Python's
/// `(words, text.rstrip().endswith("-"))`. The words come back as a [`Vocabulary`], a set
/// the Markdown writer asks without making Python strings; `None` when a line's text is not a
/// `str`.
#[pyfunction]
pub fn vocabulary<'py>(
    py: Python<'py>,
    layouts: &Bound<'py, PyAny>,
    line_words_hook: &Bound<'py, PyAny>,
    char_class: &Bound<'py, PyAny>,
) -> PyResult<Option<Vocabulary>> {
    crate::boundary::guard("vocabulary", || {
        let mut found_words: HashSet<String> = HashSet::new();
        let mut word = String::new();
        let mut cache: HashMap<char, CharInfo> = HashMap::new();
        let others = PySet::empty(py)?;
        for layout in layouts.try_iter()? {
            for block in layout?.getattr(intern!(py, "blocks"))?.try_iter()? {
                let mut broken = false;
                for line in block?.getattr(intern!(py, "lines"))?.try_iter()? {
                    let text = line?.getattr(intern!(py, "text"))?;
                    if !text.is_instance_of::<PyString>() {
                        return Ok(None);
                    }
                    let encoded = text.downcast::<PyString>()?.encode_utf8();
                    if let Ok(bytes) = &encoded {
                        let bytes = bytes.as_bytes();
                        // (first, end) of the words kept: the halves of a word broken at a line
                        // end are left out.
                        let keep = |count: usize, ends: bool, broken: &mut bool| {
                            let first = usize::from(*broken && count > 0);
                            *broken = ends;
                            let end = if ends && count > first {
                                count - 1
                            } else {
                                count
                            };
                            (first, end)
                        };
                        if bytes.is_ascii() {
                            let spans = ascii_word_spans(bytes);
                            let (first, end) =
                                keep(spans.len(), ascii_ends_broken(bytes), &mut broken);
                            for span in &spans[first..end] {
                                word.clear();
                                word.extend(
                                    span.iter().map(|&c| char::from(c.to_ascii_lowercase())),
                                );
                                if !found_words.contains(word.as_str()) {
                                    found_words.insert(word.clone());
                                }
                            }
                        } else {
                            let Ok(s) = std::str::from_utf8(bytes) else {
                                return Ok(None);
                            };
                            let (mut words, ends) = line_words(py, s, &mut cache, char_class)?;
                            let (first, end) = keep(words.len(), ends, &mut broken);
                            found_words.extend(words.drain(first..end));
                        }
                        continue;
                    }
                    let (words, ends): (Bound<'py, PyList>, bool) =
                        line_words_hook.call1((text,))?.extract()?;
                    let mut first = 0;
                    let mut last = words.len();
                    if broken && last > first {
                        first += 1;
                    }
                    broken = ends;
                    if broken && last > first {
                        last -= 1;
                    }
                    for i in first..last {
                        others.add(words.get_item(i)?)?;
                    }
                }
            }
        }
        Ok(Some(Vocabulary {
            words: found_words,
            others: others.unbind(),
        }))
    })
}

/// `alnum_split(text)`: how many ASCII letters and digits `text` holds, and its non-ASCII
/// characters (whose letters and digits Python counts with its own Unicode classes); `None`
/// for a text with no UTF-8 form.
#[pyfunction]
pub fn alnum_split(text: &Bound<'_, PyString>) -> PyResult<Option<(usize, String)>> {
    crate::boundary::guard("alnum_split", || {
        let Some(s) = utf8(text)? else {
            return Ok(None);
        };
        let mut count = 0;
        let mut rest = String::new();
        for c in s.chars() {
            if c.is_ascii() {
                count += usize::from(c.is_ascii_alphanumeric());
            } else {
                rest.push(c);
            }
        }
        Ok(Some((count, rest)))
    })
}

/// The document's vocabulary as `vocabulary` makes it: the words split natively, kept as
/// Rust strings, and those of lines with lone surrogates (split by Python) in a Python set.
/// For Python it is a read-only set of `str` (`in`, `len`, iteration).
#[pyclass(frozen, module = "pdfthin_native")]
pub struct Vocabulary {
    words: HashSet<String>,
    others: Py<PySet>,
}

impl Vocabulary {
    /// Whether `word` (a text with a UTF-8 form) is one of the document's words.
    pub fn has(&self, py: Python<'_>, word: &str) -> PyResult<bool> {
        Ok(self.words.contains(word) || self.others.bind(py).contains(word)?)
    }

    fn all<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PySet>> {
        let all = PySet::empty(py)?;
        for word in &self.words {
            all.add(word.as_str())?;
        }
        for word in self.others.bind(py).iter() {
            all.add(word)?;
        }
        Ok(all)
    }
}

#[pymethods]
impl Vocabulary {
    fn __contains__(&self, py: Python<'_>, word: &Bound<'_, PyAny>) -> PyResult<bool> {
        crate::boundary::guard("Vocabulary.__contains__", || {
            if let Ok(text) = word.downcast::<PyString>() {
                if let Ok(bytes) = text.encode_utf8() {
                    if let Ok(s) = std::str::from_utf8(bytes.as_bytes()) {
                        if self.words.contains(s) {
                            return Ok(true);
                        }
                    }
                }
            }
            self.others.bind(py).contains(word)
        })
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        crate::boundary::guard("Vocabulary.__len__", || Ok(self.all(py)?.len()))
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        crate::boundary::guard("Vocabulary.__iter__", || self.all(py)?.try_iter())
    }
}
