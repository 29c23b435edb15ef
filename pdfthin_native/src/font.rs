//! A font as a decoding table: the plain data of `pdfthin.engine.fonts.font.Font`, with its
//! `decode` reproduced (including the way CPython's `sum()` adds floats).

use std::collections::HashMap;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

pub const UNMAPPED: char = '\u{fffd}';

/// CPython's `sum()` of a non-empty run of floats (start value the int 0): a plain running
/// sum up to 3.11, Neumaier's compensated sum from 3.12 on. An empty run is the int 0, which
/// behaves as 0.0 in every use made of it here.
pub fn py_sum<I: Iterator<Item = f64>>(mut values: I, neumaier: bool) -> f64 {
    let Some(first) = values.next() else {
        return 0.0;
    };
    let mut total = 0.0 + first;
    if !neumaier {
        for x in values {
            total += x;
        }
        return total;
    }
    let mut c = 0.0;
    for x in values {
        let t = total + x;
        if total.abs() >= x.abs() {
            c += (total - t) + x;
        } else {
            c += (x - t) + total;
        }
        total = t;
    }
    if c != 0.0 && c.is_finite() {
        total += c;
    }
    total
}

/// A text with its U+FFFD removed, and how many there were.
#[derive(Clone, Debug, Default)]
pub struct Piece {
    pub text: String,
    pub unmapped: u32,
}

impl Piece {
    pub fn new(text: &str) -> Self {
        let unmapped = text.chars().filter(|&c| c == UNMAPPED).count() as u32;
        let text = if unmapped > 0 {
            text.chars().filter(|&c| c != UNMAPPED).collect()
        } else {
            text.to_owned()
        };
        Piece { text, unmapped }
    }
}

/// What `Font.decode` returns, with the text already cleaned of U+FFFD.
pub struct Decoded {
    pub unmapped: u64,
    pub width: f64,
    pub spaces: u64,
    pub glyphs: u64,
}

/// A simple font's decoding table: a list of 256 texts, or the font's own `trans` dict, read
/// as `trans.get(code, chr(code))` for each code. A value that is not exactly a `str` is a
/// `TypeError` (the caller then makes the list, as `str.translate` would read such values).
fn translation(trans: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let Ok(table) = trans.downcast::<PyDict>() else {
        return trans.extract();
    };
    let mut out = Vec::with_capacity(256);
    for code in 0u32..256 {
        match table.get_item(code)? {
            None => out.push(char::from_u32(code).map_or_else(String::new, String::from)),
            Some(value) if value.is_exact_instance_of::<PyString>() => out.push(value.extract()?),
            Some(_) => {
                return Err(pyo3::exceptions::PyTypeError::new_err(
                    "a translation that is not text",
                ))
            }
        }
    }
    Ok(out)
}

#[pyclass(frozen, module = "pdfthin_native")]
pub struct Font {
    pub name: Py<PyString>,
    pub bold: bool,
    pub italic: bool,
    pub vertical: bool,
    pub ascent: f64,
    pub size_scale: f64,
    simple: bool,
    trans: Vec<Piece>,
    widths: Vec<f64>,
    code_len: u8,
    lead_lengths: Vec<u8>,
    text_map: HashMap<u32, Piece>,
    codec_map: Option<Py<PyAny>>,
    width_map: HashMap<u32, f64>,
    width_default: f64,
    /// A width map that computes its entries: asked for each code.
    width_obj: Option<Py<PyAny>>,
    space_single: bool,
}

#[pymethods]
impl Font {
    /// Built by `pdfthin.engine.content.native_page.native_font` from a `Font`.
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (name, bold, italic, vertical, ascent, size_scale, simple, trans, widths,
                        code_len, lead_lengths, text_map, codec_map, width_map, width_default,
                        space_single, width_obj=None))]
    fn new(
        name: Bound<'_, PyString>,
        bold: bool,
        italic: bool,
        vertical: bool,
        ascent: f64,
        size_scale: f64,
        simple: bool,
        trans: Bound<'_, PyAny>,
        widths: Vec<f64>,
        code_len: u8,
        lead_lengths: Option<Vec<u8>>,
        text_map: Option<Bound<'_, PyDict>>,
        codec_map: Option<Py<PyAny>>,
        width_map: Bound<'_, PyDict>,
        width_default: f64,
        space_single: bool,
        width_obj: Option<Py<PyAny>>,
    ) -> PyResult<Self> {
        crate::boundary::guard("Font.__new__", || {
            let trans = translation(&trans)?;
            if trans.len() != 256 || widths.len() != 256 {
                return Err(pyo3::exceptions::PyValueError::new_err(
                    "trans and widths need 256 entries",
                ));
            }
            let mut text = HashMap::new();
            if let Some(map) = text_map {
                for (k, v) in map.iter() {
                    let (Ok(code), Ok(value)) = (k.extract::<i64>(), v.extract::<String>()) else {
                        continue;
                    };
                    if let Ok(code) = u32::try_from(code) {
                        text.insert(code, Piece::new(&value));
                    }
                }
            }
            let mut widths_by_code = HashMap::new();
            for (k, v) in width_map.iter() {
                let (Ok(code), Ok(value)) = (k.extract::<i64>(), v.extract::<f64>()) else {
                    continue;
                };
                if let Ok(code) = u32::try_from(code) {
                    widths_by_code.insert(code, value);
                }
            }
            let lead = match lead_lengths {
                Some(v) if v.len() == 256 => v.into_iter().map(|x| x.max(1)).collect(),
                _ => vec![1u8; 256],
            };
            Ok(Font {
                name: name.unbind(),
                bold,
                italic,
                vertical,
                ascent,
                size_scale,
                simple,
                trans: trans.iter().map(|t| Piece::new(t)).collect(),
                widths,
                code_len,
                lead_lengths: lead,
                text_map: text,
                codec_map,
                width_map: widths_by_code,
                width_default,
                width_obj,
                space_single,
            })
        })
    }

    /// `Font.decode` for testing: `(text, advance, spaces, glyphs)` with U+FFFD kept out of
    /// the text and counted in a fifth item.
    fn decode(&self, py: Python<'_>, data: &[u8]) -> PyResult<(String, f64, u64, u64, u64)> {
        crate::boundary::guard("Font.decode", || {
            let neumaier = py.version_info() >= (3, 12);
            let mut text = String::new();
            let d = self.decode_into(py, data, neumaier, &mut text)?;
            Ok((text, d.width, d.spaces, d.glyphs, d.unmapped))
        })
    }
}

impl Font {
    /// `data` cut into its codes' bytes, one per glyph (`Font.glyph_bytes`: a composite
    /// font's partial last two-byte code is left out, as `split` leaves it out).
    pub fn glyph_bytes<'a>(&self, data: &'a [u8]) -> Vec<&'a [u8]> {
        if self.simple || self.code_len == 1 {
            return data.chunks(1).collect();
        }
        if self.code_len == 2 {
            return data.chunks_exact(2).collect();
        }
        self.by_lead_byte(data)
    }

    /// Codes of a CMap's codespace, each as long as its first byte says (the last one cut
    /// short where the data ends).
    fn by_lead_byte<'a>(&self, data: &'a [u8]) -> Vec<&'a [u8]> {
        let mut out = Vec::with_capacity(data.len());
        let mut i = 0;
        while i < data.len() {
            let step = usize::from(self.lead_lengths[usize::from(data[i])]);
            let end = (i + step).min(data.len());
            out.push(&data[i..end]);
            i += step;
        }
        out
    }

    fn split(&self, data: &[u8]) -> Vec<u32> {
        match self.code_len {
            2 => data
                .chunks_exact(2)
                .map(|p| (u32::from(p[0]) << 8) | u32::from(p[1]))
                .collect(),
            1 => data.iter().map(|&b| u32::from(b)).collect(),
            _ => self
                .by_lead_byte(data)
                .into_iter()
                .map(|code| code.iter().fold(0u32, |acc, &b| (acc << 8) | u32::from(b)))
                .collect(),
        }
    }

    /// How many codes end `data` that are code 32 read as a space (simple fonts only: a
    /// composite font's codes are not split here), and the width of that space (size 1).
    pub fn trailing_spaces(&self, data: &[u8]) -> (usize, f64) {
        if !self.simple || self.trans[32].text != " " {
            return (0, 0.0);
        }
        let count = data.iter().rev().take_while(|&&b| b == 32).count();
        (count, self.widths[32])
    }

    /// Appends the text of `data` to `text` (without U+FFFD) and returns the rest.
    pub fn decode_into(
        &self,
        py: Python<'_>,
        data: &[u8],
        neumaier: bool,
        text: &mut String,
    ) -> PyResult<Decoded> {
        if self.simple {
            let mut unmapped = 0u64;
            for &b in data {
                let piece = &self.trans[usize::from(b)];
                crate::boundary::push_text(text, &piece.text);
                unmapped += u64::from(piece.unmapped);
            }
            let width = py_sum(data.iter().map(|&b| self.widths[usize::from(b)]), neumaier);
            return Ok(Decoded {
                unmapped,
                width,
                spaces: data.iter().filter(|&&b| b == 32).count() as u64,
                glyphs: data.len() as u64,
            });
        }
        let codes = self.split(data);
        let mut unmapped = 0u64;
        match &self.codec_map {
            Some(map) => {
                let map = map.bind(py);
                for &code in &codes {
                    let value: String = map.get_item(code)?.extract()?;
                    let piece = Piece::new(&value);
                    crate::boundary::push_text(text, &piece.text);
                    unmapped += u64::from(piece.unmapped);
                }
            }
            None => {
                for code in &codes {
                    match self.text_map.get(code) {
                        Some(piece) => {
                            crate::boundary::push_text(text, &piece.text);
                            unmapped += u64::from(piece.unmapped);
                        }
                        None => unmapped += 1,
                    }
                }
            }
        }
        let default = self.width_default;
        let width = match &self.width_obj {
            Some(map) => {
                let map = map.bind(py);
                let mut widths = Vec::with_capacity(codes.len());
                for &code in &codes {
                    widths.push(map.get_item(code)?.extract::<f64>()?);
                }
                py_sum(widths.into_iter(), neumaier)
            }
            None => py_sum(
                codes
                    .iter()
                    .map(|c| *self.width_map.get(c).unwrap_or(&default)),
                neumaier,
            ),
        };
        let spaces = if self.space_single {
            codes.iter().filter(|&&c| c == 32).count() as u64
        } else {
            0
        };
        Ok(Decoded {
            unmapped,
            width,
            spaces,
            glyphs: codes.len() as u64,
        })
    }
}
