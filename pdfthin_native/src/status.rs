//! A page's status: `pdfthin/model/status.py`'s `page_status` (with `image_coverage` and
//! `alnum_count`) for a page with text, step by step.
//!
//! A page whose Markdown holds no letter or digit (the `empty` and `needs_ocr` reasons that
//! look further: images, paths, furniture, symbols, hidden text) is Python's, as is any page
//! where a value is not of the type Python gives it (`None` then): a width, height or image
//! corner not a finite `float`, a count not an `int` that fits `i64`, a flag not a `bool`, a
//! text not a `str` with a UTF-8 form, a container not a `list` (a `bbox` not a `tuple`).
//! Letters and digits that are not ASCII are counted by the `alnum` hook (Python's `[^\W_]`).

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::pyops::{pmax, pmin, utf8};

fn finite(obj: &Bound<'_, PyAny>) -> Option<f64> {
    let v = obj.downcast_exact::<PyFloat>().ok()?.value();
    v.is_finite().then_some(v)
}

fn int(obj: &Bound<'_, PyAny>) -> Option<i64> {
    obj.downcast_exact::<PyInt>().ok()?.extract().ok()
}

fn flag(obj: &Bound<'_, PyAny>) -> Option<bool> {
    Some(obj.downcast_exact::<PyBool>().ok()?.is_true())
}

/// Python's `round(x)` of a float, to an int: half to even.
fn round_even(x: f64) -> f64 {
    let f = x.floor();
    let d = x - f;
    if d > 0.5 || (d == 0.5 && f % 2.0 != 0.0) {
        f + 1.0
    } else {
        f
    }
}

/// `image_coverage(page)` from the page's size and its images' boxes (all finite).
pub fn image_coverage(width: f64, height: f64, boxes: &[[f64; 4]]) -> f64 {
    if boxes.is_empty() || width <= 0.0 || height <= 0.0 {
        return 0.0;
    }
    const GRID: i64 = 40;
    let cw = width / GRID as f64;
    let ch = height / GRID as f64;
    let mut columns = [0u64; GRID as usize];
    for &[x0, y0, x1, y1] in boxes {
        let (x0, x1) = (pmax(0.0, x0), pmin(width, x1));
        let (y0, y1) = (pmax(0.0, y0), pmin(height, y1));
        if x1 <= x0 || y1 <= y0 {
            continue;
        }
        // int() truncates; both quotients are finite and at least 0 here.
        let across = ((x0 / cw) as i64)..GRID.min((x1 / cw) as i64 + 1);
        if across.is_empty() {
            continue;
        }
        let mut rows = 0u64;
        for gy in ((y0 / ch) as i64)..GRID.min((y1 / ch) as i64 + 1) {
            let centre = (gy as f64 + 0.5) * ch;
            if y0 <= centre && centre <= y1 {
                rows |= 1 << gy;
            }
        }
        for gx in across {
            let centre = (gx as f64 + 0.5) * cw;
            if x0 <= centre && centre <= x1 {
                columns[gx as usize] |= rows;
            }
        }
    }
    let covered: u32 = columns.iter().map(|c| c.count_ones()).sum();
    f64::from(covered) / (GRID * GRID) as f64
}

/// `[x0, y0, x1, y1]` of each image, or `None`.
fn boxes(py: Python<'_>, images: &Bound<'_, PyList>) -> PyResult<Option<Vec<[f64; 4]>>> {
    let mut out = Vec::with_capacity(images.len());
    for image in images.iter() {
        let bbox = image.getattr(intern!(py, "bbox"))?;
        let Ok(bbox) = bbox.downcast_exact::<PyTuple>() else {
            return Ok(None);
        };
        if bbox.len() != 4 {
            return Ok(None);
        }
        let mut b = [0.0; 4];
        for (k, v) in b.iter_mut().enumerate() {
            match finite(&bbox.get_item(k)?) {
                Some(f) => *v = f,
                None => return Ok(None),
            }
        }
        out.push(b);
    }
    Ok(Some(out))
}

/// `_CONTROL`: `[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]`
fn control(c: char) -> bool {
    matches!(c, '\u{00}'..='\u{08}' | '\u{0b}' | '\u{0c}' | '\u{0e}'..='\u{1f}' | '\u{7f}'..='\u{9f}')
}

/// `page_status(page, layout, markdown)` for a page whose Markdown holds a letter or digit:
/// `(status, reason code, reason)`, or `None` where Python must answer (see the module's
/// comment). `hooks` is `(alnum,)`, `alnum(text)` counting the letters and digits of a text
/// of non-ASCII characters; `settings` is `(MIN_TEXT_CHARS, SCAN_COVERAGE, SCAN_TEXT_CHARS,
/// SCAN_COVERAGE_SPARSE, SPARSE_TEXT_CHARS)`.
#[pyfunction]
pub fn page_status(
    py: Python<'_>,
    page: &Bound<'_, PyAny>,
    markdown: &Bound<'_, PyAny>,
    hooks: &Bound<'_, PyTuple>,
    settings: (i64, f64, i64, f64, i64),
) -> PyResult<Option<(String, String, String)>> {
    crate::boundary::guard("page_status", || {
        let (min_text, scan_coverage, scan_chars, sparse_coverage, sparse_chars) = settings;
        if !markdown.is_exact_instance_of::<PyString>() {
            return Ok(None);
        }
        let Some(markdown) = utf8(markdown)? else {
            return Ok(None);
        };
        let mut chars: i64 = 0;
        let mut rest = String::new();
        for c in markdown.chars() {
            if c.is_ascii() {
                chars += i64::from(c.is_ascii_alphanumeric());
            } else {
                rest.push(c);
            }
        }
        if !rest.is_empty() {
            let Some(n) = int(&hooks.get_item(0)?.call1((rest,))?) else {
                return Ok(None);
            };
            chars += n;
        }
        if chars < min_text {
            return Ok(None); // the reasons of a page without text look further: Python's
        }
        let (Some(width), Some(height)) = (
            finite(&page.getattr(intern!(py, "width"))?),
            finite(&page.getattr(intern!(py, "height"))?),
        ) else {
            return Ok(None);
        };
        let images = page.getattr(intern!(py, "images"))?;
        let runs = page.getattr(intern!(py, "runs"))?;
        let (Ok(images), Ok(runs)) = (
            images.downcast_exact::<PyList>(),
            runs.downcast_exact::<PyList>(),
        ) else {
            return Ok(None);
        };
        let Some(boxes) = boxes(py, images)? else {
            return Ok(None);
        };
        let coverage = image_coverage(width, height, &boxes);
        let mut controls: i64 = 0;
        let mut ocr_layer = false;
        for run in runs.iter() {
            let text = run.getattr(intern!(py, "text"))?;
            if !text.is_exact_instance_of::<PyString>() {
                return Ok(None);
            }
            let Some(text) = utf8(&text)? else {
                return Ok(None);
            };
            controls += text.chars().filter(|&c| control(c)).count() as i64;
            let Some(ocr) = flag(&run.getattr(intern!(py, "ocr_layer"))?) else {
                return Ok(None);
            };
            ocr_layer |= ocr;
        }
        let Some(unmapped) = int(&page.getattr(intern!(py, "unmapped_glyphs"))?) else {
            return Ok(None);
        };
        let Some(unmapped) = unmapped.checked_add(controls) else {
            return Ok(None);
        };
        let unreadable = if controls > 0 {
            "have no Unicode mapping or map to control characters"
        } else {
            "have no Unicode mapping"
        };
        let answer = |status: &str, code: &str, reason: String| {
            Some((status.to_owned(), code.to_owned(), reason))
        };
        if unmapped != 0 && i128::from(unmapped) > 2 * i128::from(chars) {
            let Some(glyphs) = int(&page.getattr(intern!(py, "glyphs"))?) else {
                return Ok(None);
            };
            return Ok(answer(
                "needs_ocr",
                "unmapped_glyphs",
                format!(
                    "most glyphs ({unmapped} of {glyphs}) {unreadable}; only {chars} characters read"
                ),
            ));
        }
        if (coverage >= scan_coverage && chars < scan_chars)
            || (coverage >= sparse_coverage && chars < sparse_chars)
        {
            let percent = round_even(coverage * 100.0) as i64;
            return Ok(answer(
                "needs_ocr",
                "scan_with_sparse_text",
                format!(
                    "an image covers {percent}% of the page and the text layer has only {chars} \
                     characters"
                ),
            ));
        }
        if ocr_layer {
            return Ok(answer(
                "text",
                "ocr_layer",
                "text from the scanner's invisible OCR layer".to_owned(),
            ));
        }
        let Some(incomplete) = flag(&page.getattr(intern!(py, "incomplete"))?) else {
            return Ok(None);
        };
        if incomplete {
            let problems = page.getattr(intern!(py, "problems"))?;
            let Ok(problems) = problems.downcast_exact::<PyList>() else {
                return Ok(None);
            };
            let mut first = Vec::new();
            for p in problems.iter().take(2) {
                if !p.is_exact_instance_of::<PyString>() {
                    return Ok(None);
                }
                match utf8(&p)? {
                    Some(s) => first.push(s),
                    None => return Ok(None),
                }
            }
            return Ok(answer(
                "text",
                "partial",
                format!("text layer, read in part: {}", first.join("; ")),
            ));
        }
        Ok(answer("text", "text_layer", "text layer".to_owned()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_half_to_even() {
        assert_eq!(round_even(2.5), 2.0);
        assert_eq!(round_even(3.5), 4.0);
        assert_eq!(round_even(0.49), 0.0);
        assert_eq!(round_even(99.5), 100.0);
    }

    #[test]
    fn coverage() {
        assert_eq!(image_coverage(100.0, 100.0, &[]), 0.0);
        assert_eq!(
            image_coverage(100.0, 100.0, &[[0.0, 0.0, 100.0, 100.0]]),
            1.0
        );
        assert_eq!(
            image_coverage(100.0, 100.0, &[[0.0, 0.0, 50.0, 100.0]]),
            0.5
        );
    }
}
