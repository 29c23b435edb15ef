//! `truetype_unicodes` of `pdfthin/engine/fonts/program.py`: glyph id -> Unicode from a TrueType
//! program's `cmap` table, mirrored step by step.
//!
//! Python reads every subtable (`_truetype_cmaps`; any read past the end of the program is a
//! `struct.error` and the whole answer is `{}`), keeps the last non-empty mapping of each
//! (platform, encoding), picks the first of (3, 10), (3, 1), (0, 3), (0, 4) and inverts it
//! in code order. This does the same reads in the same order, and answers `None` (Python does
//! the work) where it would not be exact or could be slow: a code that is not a Rust `char`
//! (a surrogate). Both read at most [`MAX_CODES`] codes of segments and groups in all: where
//! the next one would pass that, the rest of its subtable is left out.

use std::collections::HashMap;

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// `_MAX_CMAP_CODES`: codes of format 4 segments and format 12 groups read at most, over all
/// the subtables.
pub const MAX_CODES: u64 = 1 << 20;
/// `_MAX_UNICODE`: no code past it is a character.
const MAX_UNICODE: u64 = 0x10FFFF;
/// `_MAX_GLYPHS`: the widest range a segment or group may cover.
const MAX_GLYPHS: u64 = 65_536;

/// `struct.unpack_from(">H", data, at)` etc.: `None` is the `struct.error`.
fn u16_at(data: &[u8], at: usize) -> Option<u16> {
    let b = data.get(at..at.checked_add(2)?)?;
    Some(u16::from_be_bytes([b[0], b[1]]))
}

fn u32_at(data: &[u8], at: usize) -> Option<u32> {
    let b = data.get(at..at.checked_add(4)?)?;
    Some(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
}

/// `f">{n}H"` at `at`: the whole array must be there (read only to check it is).
fn check_array(data: &[u8], at: usize, n: usize) -> Option<()> {
    let end = at.checked_add(n.checked_mul(2)?)?;
    (end <= data.len()).then_some(())
}

/// Which of the wanted (platform, encoding) keys a subtable is, in preference order.
fn wanted(platform: u16, encoding: u16) -> Option<usize> {
    match (platform, encoding) {
        (3, 10) => Some(0),
        (3, 1) => Some(1),
        (0, 3) => Some(2),
        (0, 4) => Some(3),
        _ => None,
    }
}

/// One subtable's `code -> glyph id` assignments in Python's order (`keep`), or only checked
/// for the reads that could fail (`!keep`). `Err(())`: a `struct.error`.
#[allow(clippy::result_unit_err)]
fn subtable(
    data: &[u8],
    at: usize,
    fmt: u16,
    keep: bool,
    budget: &mut u64,
) -> Result<Vec<(u64, u64)>, ()> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    let e = |x: Option<u16>| x.ok_or(());
    match fmt {
        4 => {
            let seg_x2 = usize::from(e(u16_at(data, at + 6))?);
            let segs = seg_x2 / 2;
            let ends_at = at + 14;
            let starts_at = at + 16 + seg_x2;
            let deltas_at = at + 16 + 2 * seg_x2;
            let ro_at = at + 16 + 3 * seg_x2;
            for base in [ends_at, starts_at, deltas_at, ro_at] {
                check_array(data, base, segs).ok_or(())?;
            }
            for s in 0..segs {
                let start = u64::from(e(u16_at(data, starts_at + 2 * s))?);
                let end = u64::from(e(u16_at(data, ends_at + 2 * s))?);
                let delta = i64::from(e(u16_at(data, deltas_at + 2 * s))? as i16);
                let range_offset = usize::from(e(u16_at(data, ro_at + 2 * s))?);
                if end < start || end - start > MAX_GLYPHS {
                    continue;
                }
                let count = (end.min(0xFFFE) + 1).saturating_sub(start);
                if count > *budget {
                    break;
                }
                *budget -= count;
                for code in start..=end.min(0xFFFE) {
                    let gid = if range_offset == 0 {
                        ((code as i64 + delta) & 0xFFFF) as u64
                    } else {
                        let gpos = ro_at + 2 * s + range_offset + 2 * (code - start) as usize;
                        let gid = i64::from(e(u16_at(data, gpos))?);
                        if gid != 0 {
                            ((gid + delta) & 0xFFFF) as u64
                        } else {
                            0
                        }
                    };
                    if gid != 0 && keep {
                        out.push((code, gid));
                    }
                }
            }
        }
        12 => {
            let n_groups = u64::from(u32_at(data, at + 12).ok_or(())?);
            for g in 0..n_groups.min(MAX_GLYPHS) as usize {
                let p = at + 16 + 12 * g;
                let (start, end, gid) = (
                    u64::from(u32_at(data, p).ok_or(())?),
                    u64::from(u32_at(data, p + 4).ok_or(())?),
                    u64::from(u32_at(data, p + 8).ok_or(())?),
                );
                if end < start || end - start > MAX_GLYPHS {
                    continue;
                }
                let count = end - start + 1;
                if count > *budget {
                    break;
                }
                *budget -= count;
                if keep {
                    for code in start..=end {
                        let value = gid + code - start;
                        if value != 0 {
                            out.push((code, value));
                        }
                    }
                }
            }
        }
        6 => {
            let first = u64::from(e(u16_at(data, at + 6))?);
            let n = usize::from(e(u16_at(data, at + 8))?);
            check_array(data, at + 10, n).ok_or(())?;
            if keep {
                for k in 0..n {
                    let gid = u64::from(e(u16_at(data, at + 10 + 2 * k))?);
                    if gid != 0 {
                        out.push((first + k as u64, gid));
                    }
                }
            }
        }
        0 if keep => {
            let from = (at + 6).min(data.len());
            let to = (at + 6 + 256).min(data.len());
            for (code, &gid) in data[from..to].iter().enumerate() {
                if gid != 0 {
                    out.push((code as u64, u64::from(gid)));
                }
            }
        }
        _ => {}
    }
    Ok(out)
}

/// `truetype_unicodes(program)`: `{glyph id: text}`, or `None` where Python must answer.
#[pyfunction]
pub fn truetype_unicodes<'py>(
    py: Python<'py>,
    program: &[u8],
) -> PyResult<Option<Bound<'py, PyDict>>> {
    crate::boundary::guard("truetype_unicodes", || {
        let out = PyDict::new(py);
        let Some(mut map) = read_cmaps(program) else {
            return Ok(Some(out)); // no usable subtable, or a struct.error: {}
        };
        // A dict's assignments: the last one of each code stands; then the codes in order.
        map.reverse();
        map.sort_by_key(|e| e.0); // stable: the last assignment first among equals
        map.dedup_by_key(|e| e.0);
        // gid -> its text so far, in the order gids are first given one (the dict's order).
        let mut order: Vec<(u64, char)> = Vec::new();
        let mut index: HashMap<u64, usize> = HashMap::new();
        map.retain(|&(code, _)| code <= MAX_UNICODE); // past it: not a character
        for &(code, _) in &map {
            // chr(code) of a surrogate: a Python string, not a Rust char
            if u32::try_from(code).ok().and_then(char::from_u32).is_none() {
                return Ok(None);
            }
        }
        let private = |c: u64| (0xE000..=0xF8FF).contains(&c);
        for (code, gid) in map {
            let ch = u32::try_from(code)
                .ok()
                .and_then(char::from_u32)
                .unwrap_or('\u{fffd}');
            match index.get(&gid) {
                None => {
                    index.insert(gid, order.len());
                    order.push((gid, ch));
                }
                Some(&i) => {
                    // a private-use code only fills a gap; a real one replaces a private-use text
                    if !private(code) && private(u64::from(order[i].1)) {
                        order[i].1 = ch;
                    }
                }
            }
        }
        for (gid, ch) in order {
            out.set_item(gid, ch.to_string())?;
        }
        Ok(Some(out))
    })
}

/// `_truetype_cmaps` reduced to the mapping `truetype_unicodes` picks: `None` for `{}` (no
/// cmap, no wanted subtable, or a `struct.error` anywhere).
pub fn read_cmaps(data: &[u8]) -> Option<Vec<(u64, u64)>> {
    // _tables
    let num = u16_at(data, 4)?;
    let mut cmap: Option<usize> = None;
    for i in 0..usize::from(num).min(64) {
        let p = 12 + 16 * i;
        let tag = data.get(p..p + 4)?;
        let offset = u32_at(data, p + 8)?;
        u32_at(data, p + 12)?; // the length, read (and checked) as ">4sIII" reads it
        if tag == b"cmap" {
            cmap = Some(offset as usize);
        }
    }
    let base = cmap?;
    u16_at(data, base)?; // the version
    let count = u16_at(data, base + 2)?;
    let mut best: [Option<Vec<(u64, u64)>>; 4] = [None, None, None, None];
    let mut budget = MAX_CODES;
    for i in 0..usize::from(count).min(32) {
        let p = base + 4 + 8 * i;
        let (platform, encoding) = (u16_at(data, p)?, u16_at(data, p + 2)?);
        let at = base + u32_at(data, p + 4)? as usize;
        let fmt = u16_at(data, at)?;
        let slot = wanted(platform, encoding);
        let mapping = subtable(data, at, fmt, slot.is_some(), &mut budget).ok()?;
        if let Some(slot) = slot {
            if !mapping.is_empty() {
                best[slot] = Some(mapping);
            }
        }
    }
    best.into_iter().flatten().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_past_the_end_are_errors() {
        assert_eq!(u16_at(b"\x01", 0), None);
        assert_eq!(u16_at(b"\x01\x02", 0), Some(0x0102));
        assert_eq!(u32_at(b"\x00\x00\x01\x02", 0), Some(0x0102));
        assert_eq!(u32_at(b"\x00\x00\x01", 0), None);
        assert_eq!(check_array(b"\x00\x00", 0, 1), Some(()));
        assert_eq!(check_array(b"\x00\x00", 1, 1), None);
        assert_eq!(read_cmaps(b""), None);
    }
}
