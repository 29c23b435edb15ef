//! Loading fonts: the loops of `pdfthin/engine/fonts/cmap.py` (`parse_cmap`),
//! `pdfthin/engine/fonts/font.py` (`_parse_w`, the simple font's `trans` table, the CIDToGIDMap
//! walk) and `pdfthin/engine/fonts/cidmaps/__init__.py` (the packed CID -> Unicode tables), mirrored
//! step by step.
//!
//! Each function builds what the Python builds, in the same order (dictionaries are filled by
//! the same sequence of assignments, so their insertion order is Python's), or answers `None`
//! (or `false`) where it is not sure to be exact, and Python does the work itself: a number
//! Python would turn into an unbounded integer or fail to convert, an operand of a kind Python
//! would ask more of (an indirect reference, a text that `float()` might read), the lexer's
//! error. Nothing is written into a dictionary the caller owns before that decision is made.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::lexer::{Lexer, Val};

/// `_utf16`: an odd-length string is Latin-1; an even one UTF-16BE, where a lone surrogate
/// becomes U+FFFD (`surrogatepass` then, on a lone surrogate, `errors="replace"`: either way
/// every surrogate pair is one character and every other surrogate one U+FFFD).
pub fn utf16(raw: &[u8]) -> String {
    if raw.len() % 2 == 1 {
        return raw.iter().map(|&b| char::from(b)).collect();
    }
    let units: Vec<u16> = raw
        .chunks_exact(2)
        .map(|p| u16::from_be_bytes([p[0], p[1]]))
        .collect();
    String::from_utf16_lossy(&units)
}

/// `_int`: a string of one to four bytes as a big-endian number.
fn as_int(v: &Val) -> Option<i64> {
    match v {
        Val::Str(b) if !b.is_empty() && b.len() <= 4 => {
            Some(b.iter().fold(0i64, |acc, &x| (acc << 8) | i64::from(x)))
        }
        _ => None,
    }
}

/// Python's `int(x)` of a float, where the answer is an integer this code can add to
/// exactly; `None` where Python raises (infinity) or makes a huge integer.
fn py_int(x: f64) -> Option<i64> {
    if !x.is_finite() {
        return None;
    }
    let t = x.trunc();
    if t.abs() < 9.0e15 {
        Some(t as i64)
    } else {
        None
    }
}

fn name_str(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() + 1);
    s.push('/');
    s.extend(bytes.iter().map(|&b| char::from(b)));
    s
}

/// `len(x).bit_length()` of a non-negative number.
fn bit_length(x: u128) -> u32 {
    128 - x.leading_zeros()
}

/// `parse_cmap(data)` as the contents of its `CMap`: `(codespaces, unicode, cids,
/// cid_ranges, parent, vertical)`, or `None` where Python must parse (it raises there, or
/// makes integers beyond this code's range). `glyph` is `encodings.glyph_to_unicode`, for
/// bfchar destinations given as glyph names; `max_range` and `max_entries` are the module's
/// bounds.
#[pyfunction]
pub fn parse_cmap<'py>(
    py: Python<'py>,
    data: &[u8],
    glyph: Bound<'py, PyAny>,
    max_range: i64,
    max_entries: i64,
) -> PyResult<Option<Bound<'py, PyTuple>>> {
    crate::boundary::guard("parse_cmap", || {
        let codespaces = PyList::empty(py);
        let unicode = PyDict::new(py);
        let cids = PyDict::new(py);
        let cid_ranges = PyList::empty(py);
        let mut parent: Option<String> = None;
        let mut vertical = false;
        let mut budget = max_entries;
        let mut lexer = Lexer::new(data);
        while let Some(item) = lexer.next() {
            let Ok(operation) = item else {
                return Ok(None); // the Python lexer raises here
            };
            let op = lexer.op_bytes(&operation.op);
            let operands = &operation.operands;
            let n = operands.len();
            match op {
                b"endbfchar" => {
                    let mut i = 0;
                    while i + 1 < n {
                        let code = as_int(&operands[i]);
                        let dst = &operands[i + 1];
                        i += 2;
                        let Some(code) = code else { continue };
                        match dst {
                            Val::Str(raw) => unicode.set_item(code, utf16(raw))?,
                            Val::Name(name) => {
                                let text = glyph.call1((name_str(name),))?;
                                if text.is_truthy()? {
                                    unicode.set_item(code, text)?;
                                }
                            }
                            _ => {}
                        }
                    }
                    budget -= (n / 2) as i64;
                }
                b"endbfrange" => {
                    let mut i = 0;
                    while i + 2 < n {
                        let (lo, hi, dst) = (
                            as_int(&operands[i]),
                            as_int(&operands[i + 1]),
                            &operands[i + 2],
                        );
                        i += 3;
                        let (Some(lo), Some(hi)) = (lo, hi) else {
                            continue;
                        };
                        if hi < lo {
                            continue;
                        }
                        let hi = hi
                            .min(lo.saturating_add(max_range).saturating_sub(1))
                            .min(lo.saturating_add(budget.max(0)).saturating_sub(1));
                        if hi < lo {
                            continue;
                        }
                        budget -= hi - lo + 1;
                        match dst {
                            Val::Str(raw) if !raw.is_empty() => {
                                if raw.len() > 8 {
                                    unicode.set_item(lo, utf16(raw))?;
                                    continue;
                                }
                                let base =
                                    raw.iter().fold(0u128, |acc, &x| (acc << 8) | u128::from(x));
                                let width = raw.len();
                                for k in 0..=(hi - lo) {
                                    let value = base + k as u128;
                                    if bit_length(value) as usize > width * 8 {
                                        break;
                                    }
                                    let bytes = value.to_be_bytes();
                                    unicode.set_item(lo + k, utf16(&bytes[16 - width..]))?;
                                }
                            }
                            Val::Arr(items) => {
                                let take = usize::try_from(hi - lo + 1).unwrap_or(0);
                                for (k, item) in items.iter().take(take).enumerate() {
                                    if let Val::Str(raw) = item {
                                        unicode.set_item(lo + k as i64, utf16(raw))?;
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                }
                b"endcidrange" => {
                    let mut i = 0;
                    while i + 2 < n {
                        let (lo, hi, first) = (
                            as_int(&operands[i]),
                            as_int(&operands[i + 1]),
                            &operands[i + 2],
                        );
                        i += 3;
                        let (Some(lo), Some(hi), Val::Num(first)) = (lo, hi, first) else {
                            continue;
                        };
                        if hi < lo {
                            continue;
                        }
                        let Some(first) = py_int(*first) else {
                            return Ok(None);
                        };
                        if hi - lo < 4096 && budget > hi - lo {
                            budget -= hi - lo + 1;
                            for k in 0..=(hi - lo) {
                                cids.set_item(lo + k, first + k)?;
                            }
                        } else {
                            cid_ranges.append((lo, hi, first))?;
                        }
                    }
                }
                b"endcidchar" => {
                    let mut i = 0;
                    while i + 1 < n {
                        let (code, cid) = (as_int(&operands[i]), &operands[i + 1]);
                        i += 2;
                        if let (Some(code), Val::Num(cid)) = (code, cid) {
                            let Some(cid) = py_int(*cid) else {
                                return Ok(None);
                            };
                            cids.set_item(code, cid)?;
                        }
                    }
                    budget -= (n / 2) as i64;
                }
                b"endcodespacerange" => {
                    let mut i = 0;
                    while i + 1 < n {
                        let (lo, hi) = (&operands[i], &operands[i + 1]);
                        if let (Val::Str(raw), Val::Str(_), Some(low)) = (lo, hi, as_int(lo)) {
                            codespaces.append((raw.len(), low, as_int(hi).unwrap_or(0)))?;
                        }
                        i += 2;
                    }
                }
                b"usecmap" => {
                    if let Some(Val::Name(name)) = operands.last() {
                        parent = Some(name_str(name));
                    }
                }
                b"def"
                    if n >= 2
                        && matches!(&operands[n - 2], Val::Name(k) if k.as_slice() == b"WMode") =>
                {
                    // `operands[-1] == 1.0`: the number one, or `True`.
                    vertical = matches!(operands[n - 1], Val::Num(x) if x == 1.0)
                        || matches!(operands[n - 1], Val::Bool(true));
                }
                _ => {}
            }
            if budget <= 0 {
                break;
            }
        }
        let out = PyTuple::new(
            py,
            [
                codespaces.into_any(),
                unicode.into_any(),
                cids.into_any(),
                cid_ranges.into_any(),
                parent.into_pyobject(py)?.into_any(),
                pyo3::types::PyBool::new(py, vertical).to_owned().into_any(),
            ],
        )?;
        Ok(Some(out))
    })
}

/// What `num(resolve(x))` can be sure of without Python: a number (`Some(Some(x))`, after
/// `num`'s NaN and range checks), a list (`Some(None)`: `float()` raises `TypeError`, so
/// `num` gives its default), or anything else (`None`: Python must look).
fn number_or_list(x: &Bound<'_, PyAny>) -> Option<Option<f64>> {
    let value = if x.is_instance_of::<PyFloat>() {
        x.downcast::<PyFloat>().ok()?.value()
    } else if x.is_instance_of::<PyInt>() && !x.is_instance_of::<pyo3::types::PyBool>() {
        x.extract::<i64>().ok()? as f64
    } else if x.is_instance_of::<PyList>() {
        return Some(None);
    } else {
        return None;
    };
    Some(Some(if !value.is_nan() && value.abs() < 1e12 {
        value
    } else {
        0.0
    }))
}

/// `num(resolve(x))` (default 0.0), or `None` where Python must look.
fn num(x: &Bound<'_, PyAny>) -> Option<f64> {
    number_or_list(x).map(|v| v.unwrap_or(0.0))
}

/// `_parse_w(w_array, width_map)` for a list `w_array`: fills `width_map` as Python does and
/// answers `True`, or answers `False` without touching it where Python must do it (an item
/// that is not a number or a list).
#[pyfunction]
pub fn parse_w(
    w_array: &Bound<'_, PyList>,
    width_map: &Bound<'_, PyDict>,
    max_entries: i64,
) -> PyResult<bool> {
    crate::boundary::guard("parse_w", || {
        let items: Vec<Bound<'_, PyAny>> = w_array.iter().collect();
        let n = items.len();
        let mut entries: Vec<(i64, f64)> = Vec::new();
        let mut i = 0;
        let mut count: i64 = 0;
        while i < n && count < max_entries {
            let Some(first) = num(&items[i]) else {
                return Ok(false);
            };
            let nxt = items.get(i + 1);
            if let Some(list) = nxt.and_then(|x| x.downcast::<PyList>().ok()) {
                let base = first.trunc() as i64;
                let cap = usize::try_from(max_entries).unwrap_or(0);
                for (k, w) in list.iter().take(cap).enumerate() {
                    let Some(w) = num(&w) else {
                        return Ok(false);
                    };
                    entries.push((base + k as i64, w / 1000.0));
                }
                count += list.len() as i64;
                i += 2;
            } else if i + 2 < n {
                let Some(nxt) = nxt.and_then(num) else {
                    return Ok(false);
                };
                let Some(w) = num(&items[i + 2]) else {
                    return Ok(false);
                };
                let (lo, hi) = (first.trunc() as i64, nxt.trunc() as i64);
                let w = w / 1000.0;
                if 0 <= hi - lo && hi - lo < max_entries {
                    entries.extend((lo..=hi).map(|cid| (cid, w)));
                    count += hi - lo + 1;
                }
                i += 3;
            } else {
                break;
            }
        }
        for (key, value) in entries {
            width_map.set_item(key, value)?;
        }
        Ok(true)
    })
}

/// The simple font's `trans` loop of `_load_simple`: for each code, the ToUnicode text
/// (`unicode`, or `None`) unless it is missing or stale (`_stale_mapping`, with `renamed`),
/// else `code_to_text[code]`; `unmapped` for none, else `visual_cluster(text)`. `None` where
/// Python must do it (an entry that is not a text).
#[pyfunction]
pub fn simple_trans<'py>(
    py: Python<'py>,
    code_to_text: &Bound<'py, PyList>,
    unicode: Option<Bound<'py, PyDict>>,
    renamed: &Bound<'py, PyDict>,
    visual_cluster: &Bound<'py, PyAny>,
    unmapped: &Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    crate::boundary::guard("simple_trans", || {
        if code_to_text.len() != 256 {
            return Ok(None);
        }
        let trans = PyDict::new(py);
        for code in 0..256usize {
            let mut text = match &unicode {
                Some(map) => map.get_item(code)?,
                None => None,
            };
            if let Some(mapped) = &text {
                let Ok(mapped) = mapped.downcast::<PyString>() else {
                    return Ok(None);
                };
                if stale(py, code, mapped, renamed.get_item(code)?)? {
                    text = None;
                }
            }
            let text = match text {
                Some(t) => Some(t),
                None => {
                    let t = code_to_text.get_item(code)?;
                    if t.is_none() {
                        None
                    } else {
                        Some(t)
                    }
                }
            };
            match text {
                None => trans.set_item(code, unmapped)?,
                Some(t) => {
                    if !t.is_instance_of::<PyString>() {
                        return Ok(None);
                    }
                    // visual_cluster leaves a text of fewer than two characters as it is.
                    if t.len()? < 2 {
                        trans.set_item(code, t)?;
                    } else {
                        trans.set_item(code, visual_cluster.call1((t,))?)?;
                    }
                }
            }
        }
        Ok(Some(trans))
    })
}

/// `_stale_mapping(code, mapped, named)`.
fn stale(
    py: Python<'_>,
    code: usize,
    mapped: &Bound<'_, PyString>,
    named: Option<Bound<'_, PyAny>>,
) -> PyResult<bool> {
    let Some(named) = named else { return Ok(false) };
    if named.is_none() || !(32 < code && code < 127) {
        return Ok(false);
    }
    let ch = char::from(code as u8);
    let own = PyString::new(py, ch.encode_utf8(&mut [0u8; 4]));
    if !mapped.as_any().eq(&own)? || ch.is_ascii_alphanumeric() {
        return Ok(false);
    }
    if named.eq(mapped)? {
        return Ok(false);
    }
    named.call_method0("isalpha")?.is_truthy()
}

/// The CIDToGIDMap walk of `_font_text_map`: `raw` is the map's data (big-endian glyph ids by
/// CID, at most `limit` bytes read); each CID whose nonzero glyph id `gid_text` knows gets
/// that text in `text_map`.
#[pyfunction]
pub fn cid_gid_text(
    raw: &[u8],
    limit: usize,
    gid_text: &Bound<'_, PyDict>,
    text_map: &Bound<'_, PyDict>,
) -> PyResult<()> {
    crate::boundary::guard("cid_gid_text", || {
        let end = raw.len().min(limit) / 2 * 2;
        for (cid, pair) in raw[..end].chunks_exact(2).enumerate() {
            let gid = u16::from_be_bytes([pair[0], pair[1]]);
            if gid == 0 {
                continue;
            }
            if let Some(text) = gid_text.get_item(gid)? {
                if !text.is_none() {
                    text_map.set_item(cid, text)?;
                }
            }
        }
        Ok(())
    })
}

/// `cid_to_unicode`'s table from the decompressed data: zig-zag varint deltas of CID and code
/// point, then the count and code points of further characters. `None` where Python would
/// raise or make what a Rust string cannot hold (a surrogate).
///
/// Python builds a `dict` of some 20,000 strings (a few MB, most of it never asked for); this
/// is the same mapping kept compact, a [`CidTable`], whose strings are made when looked up.
#[pyfunction]
pub fn cid_table(data: &[u8]) -> PyResult<Option<CidTable>> {
    crate::boundary::guard("cid_table", || Ok(read_cid_table(data)))
}

/// [`cid_table`]'s work.
pub fn read_cid_table(data: &[u8]) -> Option<CidTable> {
    let mut numbers: Vec<u64> = Vec::with_capacity(data.len());
    let (mut value, mut shift) = (0u64, 0u32);
    for &byte in data {
        if shift > 56 {
            return None;
        }
        value |= u64::from(byte & 0x7F) << shift;
        if byte & 0x80 != 0 {
            shift += 7;
        } else {
            numbers.push(value);
            value = 0;
            shift = 0;
        }
    }
    let unzig = |v: u64| -> i64 {
        let half = (v >> 1) as i64;
        if v & 1 == 0 {
            half
        } else {
            -half - 1
        }
    };
    // (cid, start, end) into `text`, in the order Python assigns them.
    let mut entries: Vec<(i64, u32, u32)> = Vec::new();
    let mut text = String::new();
    let (mut cid, mut cp) = (0i64, 0i64);
    let len = numbers.len();
    let mut i = 0usize;
    while i + 1 < len {
        let &extra = numbers.get(i + 2)?; // numbers[i + 2]: IndexError
        cid = cid.checked_add(unzig(numbers[i]))?;
        cp = cp.checked_add(unzig(numbers[i + 1]))?;
        let extra = usize::try_from(extra).ok()?;
        let start = i + 3;
        let stop = start.saturating_add(extra).min(len);
        let rest = if start < stop {
            &numbers[start..stop]
        } else {
            &[]
        };
        let first = u64::try_from(cp).ok()?; // chr() of a negative number: ValueError
        let at = u32::try_from(text.len()).ok()?;
        for &c in std::iter::once(&first).chain(rest) {
            // chr(): too large (ValueError), or a surrogate (not a Rust char).
            let ch = u32::try_from(c).ok().and_then(char::from_u32)?;
            text.push(ch);
        }
        entries.push((cid, at, u32::try_from(text.len()).ok()?));
        i = start.saturating_add(extra);
    }
    // A CID given twice keeps its last text, as the dict's assignment does.
    entries.reverse();
    entries.sort_by_key(|e| e.0); // stable: the last assignment first among equals
    entries.dedup_by_key(|e| e.0);
    Some(CidTable { entries, text })
}

/// An Adobe collection's CID -> Unicode table: for Python a read-only mapping of `int` to
/// `str` (`get`, `[]`, `in`, `len`), the same mapping as the `dict` `_read_table` builds.
#[pyclass(frozen, module = "pdfthin_native")]
pub struct CidTable {
    /// `(cid, start, end)` sorted by CID, one per CID; the text is `text[start..end]`.
    entries: Vec<(i64, u32, u32)>,
    text: String,
}

impl CidTable {
    fn text_of(&self, key: &Bound<'_, PyAny>) -> Option<&str> {
        let cid = key.downcast::<PyInt>().ok()?.extract::<i64>().ok()?;
        let at = self.entries.binary_search_by_key(&cid, |e| e.0).ok()?;
        let (_, start, end) = self.entries[at];
        self.text.get(start as usize..end as usize)
    }
}

#[pymethods]
impl CidTable {
    #[pyo3(signature = (cid, default=None))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        cid: &Bound<'py, PyAny>,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        crate::boundary::guard("CidTable.get", || {
            Ok(match self.text_of(cid) {
                Some(text) => PyString::new(py, text).into_any(),
                None => default.unwrap_or_else(|| py.None().into_bound(py)),
            })
        })
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        cid: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyString>> {
        crate::boundary::guard("CidTable.__getitem__", || match self.text_of(cid) {
            Some(text) => Ok(PyString::new(py, text)),
            None => Err(pyo3::exceptions::PyKeyError::new_err(cid.clone().unbind())),
        })
    }

    fn __contains__(&self, cid: &Bound<'_, PyAny>) -> PyResult<bool> {
        crate::boundary::guard("CidTable.__contains__", || Ok(self.text_of(cid).is_some()))
    }

    fn __len__(&self) -> PyResult<usize> {
        crate::boundary::guard("CidTable.__len__", || Ok(self.entries.len()))
    }

    /// The CIDs, in increasing order.
    fn keys(&self) -> PyResult<Vec<i64>> {
        crate::boundary::guard("CidTable.keys", || {
            Ok(self.entries.iter().map(|e| e.0).collect())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_like_python() {
        assert_eq!(utf16(b"\x00A"), "A");
        assert_eq!(utf16(b"\xd8\x35\xdc\x00"), "\u{1d400}");
        assert_eq!(utf16(b"\xd8\x35"), "\u{fffd}");
        assert_eq!(utf16(b"\xd8\x35\x00A"), "\u{fffd}A");
        assert_eq!(utf16(b"\xdc\x00\xd8\x35"), "\u{fffd}\u{fffd}");
        assert_eq!(utf16(b"\xe9"), "\u{e9}");
        assert_eq!(utf16(b"\x00A\xe9"), "\u{0}A\u{e9}");
    }

    #[test]
    fn ints() {
        assert_eq!(as_int(&Val::Str(vec![1, 2])), Some(258));
        assert_eq!(as_int(&Val::Str(vec![])), None);
        assert_eq!(as_int(&Val::Str(vec![1; 5])), None);
        assert_eq!(py_int(-1.5), Some(-1));
        assert_eq!(py_int(f64::INFINITY), None);
        assert_eq!(py_int(1e20), None);
        assert_eq!(bit_length(0), 0);
        assert_eq!(bit_length(255), 8);
        assert_eq!(bit_length(256), 9);
    }
}
