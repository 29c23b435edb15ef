//! pdfthin_native: the optional engine kernel of pdfthin.
//!
//! It changes speed, never answers. It holds only what a specification or a small numeric
//! interface fixes: the content-stream lexer, the text-state interpreter (positioned glyph
//! runs, and the looks and paints that `pdfthin/engine/content/visibility.py` judges), font, CMap and
//! TrueType `cmap` decoding, and inflate. Every rule (what is a line, a heading, a table, hidden
//! text, a status) is written once, in Python; pdfthin's differential tests compare what the
//! kernel reads with the pure engine's, byte for byte.
//! No `unsafe` of its own: what PyO3's macros generate is all there is.

#![deny(unsafe_code)]

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};

mod boundary;
mod font;
pub mod fontload;
pub mod inflate;
mod interp;
pub mod lexer;
pub mod truetype;

use interp::{to_py, Budget, Interp, Limits};

/// `iter_operations(data)`, one operation at a time: an iterator of `(operator, operands)`
/// that raises the `OverflowError` the Python lexer raises where it raises it. Operations are
/// made as they are asked for, never all at once (a small compressed CMap can hold millions).
#[pyfunction]
fn tokenize(data: Bound<'_, PyBytes>) -> PyResult<Tokens> {
    boundary::guard("tokenize", || {
        Ok(Tokens {
            data: data.unbind(),
            pos: 0,
            done: false,
        })
    })
}

/// What [`tokenize`] answers: the lexer's state between two operations is only its position
/// (operands and open arrays are handed out with each operation), so each step is a lexer
/// resumed there.
#[pyclass(module = "pdfthin_native")]
struct Tokens {
    data: Py<PyBytes>,
    pos: usize,
    done: bool,
}

#[pymethods]
impl Tokens {
    fn __iter__(slf: PyRef<'_, Self>) -> PyResult<PyRef<'_, Self>> {
        boundary::guard("Tokens.__iter__", || Ok(()))?;
        Ok(slf)
    }

    fn __next__<'py>(
        mut slf: PyRefMut<'py, Self>,
        py: Python<'py>,
    ) -> PyResult<Option<Bound<'py, PyTuple>>> {
        boundary::guard("Tokens.__next__", || {
            if slf.done {
                return Ok(None);
            }
            let data = slf.data.clone_ref(py).into_bound(py);
            let mut lex = lexer::Lexer::resume(data.as_bytes(), slf.pos);
            let item = lex.next();
            slf.pos = lex.position();
            match item {
                None => {
                    slf.done = true;
                    Ok(None)
                }
                Some(Ok(op)) => {
                    let operands = PyList::empty(py);
                    for v in &op.operands {
                        operands.append(to_py(py, v)?)?;
                    }
                    let name = PyBytes::new(py, lex.op_bytes(&op.op));
                    Ok(Some(PyTuple::new(
                        py,
                        [name.into_any(), operands.into_any()],
                    )?))
                }
                Some(Err(lexer::LexError::Overflow)) => {
                    slf.done = true;
                    Err(PyOverflowError::new_err(
                        "cannot convert float infinity to integer",
                    ))
                }
            }
        })
    }
}

/// The `limits` argument of `interpret`, in the order `native_page.limits()` gives them.
type LimitsTuple = (
    u64,
    usize,
    u64,
    usize,
    usize,
    f64,
    f64,
    usize,
    usize,
    usize,
    f64,
    (f64, f64),
);

/// Read one page: `interpret(data, resolver, width, height, base, seconds, problems, limits,
/// budget)`.
///
/// `resolver` answers `font(scope, name)`, `xobject(scope, name)`, `properties(scope, name)`,
/// `layer_off(value)`, `colour_components(scope, name)`, `gstate(scope, name)` and
/// `text_string(raw)`, and holds the `missing` font and the `text_run` class; see
/// `pdfthin/engine/content/native_page.py`. Returns `(runs, looks, paints, painted_full, images,
/// rules, (paths, glyphs, unmapped, ops), unmapped_boxes, problems, incomplete, stop)`, the runs made with
/// `text_run`: every run drawn, what a reader sees of them is Python's to decide
/// (`pdfthin/engine/content/visibility.py`); each image `(kind, payload, bbox, (a, b, c, d))`,
/// the last the CTM's linear part where it was drawn. `limits` is `(max_operations, max_form_depth,
/// max_form_invocations, max_rules, max_problems, space_gap_em, split_gap_em, max_painted,
/// max_path_rects, max_unmapped_boxes, piece_gap_em, (space_touch_em, taken_back_share))` (a
/// tuple in the last place: pyo3 takes tuples of at most twelve) and `budget` `(max_content_bytes, max_glyphs, max_runs, max_images,
/// max_inline_bytes, max_inline_image)`, the values of the Python interpreter's module.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn interpret(
    py: Python<'_>,
    data: &[u8],
    resolver: Bound<'_, PyAny>,
    width: f64,
    height: f64,
    base: (f64, f64, f64, f64, f64, f64),
    seconds: f64,
    problems: Vec<String>,
    limits: LimitsTuple,
    budget: (u64, u64, u64, usize, u64, u64),
) -> PyResult<Py<PyAny>> {
    boundary::guard("interpret", || {
        let base = [base.0, base.1, base.2, base.3, base.4, base.5];
        let limits = Limits {
            max_operations: limits.0,
            max_form_depth: limits.1,
            max_form_invocations: limits.2,
            max_rules: limits.3,
            max_problems: limits.4,
            space_gap_em: limits.5,
            split_gap_em: limits.6,
            max_painted: limits.7,
            max_path_rects: limits.8,
            max_unmapped_boxes: limits.9,
            piece_gap_em: limits.10,
            space_touch_em: limits.11 .0,
            taken_back_share: limits.11 .1,
            budget: Budget {
                max_content_bytes: budget.0,
                max_glyphs: budget.1,
                max_runs: budget.2,
                max_images: budget.3,
                max_inline_bytes: budget.4,
                max_inline_image: budget.5,
            },
        };
        let mut interp = Interp::new(py, resolver, width, height, base, seconds, problems, limits)?;
        let stop = interp.run(data).err();
        interp.into_py(stop)
    })
}

/// Python's `round(x, 2)` as the interpreter computes a run's size (for the tests).
#[pyfunction]
fn round2(x: f64) -> PyResult<f64> {
    boundary::guard("round2", || Ok(interp::round2(x)))
}

/// CPython's `sum()` of floats as this interpreter computes it (for the tests).
#[pyfunction]
fn float_sum(py: Python<'_>, values: Vec<f64>) -> PyResult<f64> {
    boundary::guard("float_sum", || {
        Ok(font::py_sum(
            values.into_iter(),
            py.version_info() >= (3, 12),
        ))
    })
}

#[pymodule]
fn pdfthin_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("NativeFault", m.py().get_type::<boundary::NativeFault>())?;
    m.add_function(wrap_pyfunction!(boundary::_fail_at, m)?)?;
    m.add_function(wrap_pyfunction!(boundary::_panics, m)?)?;
    m.add_class::<Tokens>()?;
    m.add_class::<font::Font>()?;
    m.add_class::<fontload::CidTable>()?;
    m.add_function(wrap_pyfunction!(tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(interpret, m)?)?;
    m.add_function(wrap_pyfunction!(float_sum, m)?)?;
    m.add_function(wrap_pyfunction!(round2, m)?)?;
    m.add_function(wrap_pyfunction!(fontload::parse_cmap, m)?)?;
    m.add_function(wrap_pyfunction!(fontload::parse_w, m)?)?;
    m.add_function(wrap_pyfunction!(fontload::simple_trans, m)?)?;
    m.add_function(wrap_pyfunction!(fontload::cid_gid_text, m)?)?;
    m.add_function(wrap_pyfunction!(fontload::cid_table, m)?)?;
    m.add_function(wrap_pyfunction!(truetype::truetype_unicodes, m)?)?;
    m.add_function(wrap_pyfunction!(inflate::inflate, m)?)?;
    Ok(())
}
