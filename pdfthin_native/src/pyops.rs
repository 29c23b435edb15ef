//! Small operations as Python does them, where Rust's own differ: what the native mirrors of
//! pure-Python code (lines, grids, the interpreter) need to give the very same answers.

use pyo3::prelude::*;
use pyo3::types::PyString;

/// Python's `str.isspace()` of one character (what `str.strip()` and `str.split()` take for
/// white space): CPython's table of white-space code points.
pub fn is_space(c: char) -> bool {
    matches!(
        c,
        '\u{9}'..='\u{d}'
            | '\u{1c}'..='\u{20}'
            | '\u{85}'
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
    )
}

/// Python's `min(a, b)`: `a` unless `b < a` (so the first of equals, `0.0` or `-0.0`).
pub fn pmin(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

/// Python's `max(a, b)`: `a` unless `b > a`.
pub fn pmax(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// A Python text as UTF-8, or `None` when it has none (lone surrogates). Encoded afresh each
/// time: `PyString::to_cow` would leave a UTF-8 copy inside every non-ASCII string it reads,
/// and line texts live as long as their document.
pub fn utf8(text: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    let text = text.downcast::<PyString>()?;
    match text.encode_utf8() {
        Ok(bytes) => Ok(String::from_utf8(bytes.as_bytes().to_vec()).ok()),
        Err(_) => Ok(None),
    }
}
