//! The text-state interpreter: a port of `pdfthin/engine/content/interpreter.py`'s `Interpreter`.
//!
//! One call reads a whole page (and the Form XObjects it draws). Resources are asked of a
//! Python resolver the first time a name is used in a resource dictionary, and kept for the
//! rest of the page. Everything whose result depends on Python itself stays Python's: the
//! conversion of a non-number operand by `float()` / `int()` (and the exact wording of its
//! error), `math.hypot`, decoding a text string, a font's codec.

use std::cell::Cell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::{Duration, Instant};

use pyo3::exceptions::{
    PyIndexError, PyOverflowError, PyTypeError, PyValueError, PyZeroDivisionError,
};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyList, PyString, PyTuple};

use crate::boundary::{copy, push};
use crate::font::{Font, Piece};
use crate::lexer::{dict_get, LexError, Lexer, Val};

type Matrix = [f64; 6];
/// An sRGB estimate of a colour (`interpreter.Rgb`).
type Rgb = [f64; 3];
/// What a graphics state parameter dictionary sets (`interpreter.ext_gstate`): fill and
/// stroke opacity, a soft mask's estimated opacity, normal blending (`None`: left alone).
type GParams = (Option<f64>, Option<f64>, Option<f64>, Option<bool>);
/// What a marked-content property list says (see `properties`): its `/ActualText`, whether
/// the default view hides it as optional content, and its `/MCID` (-1 when it has none).
type Marking = (Option<String>, bool, i64);
const IDENTITY: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
const BLACK: Rgb = [0.0, 0.0, 0.0];

const MISSING: usize = 0;

/// The interpreter's limits and thresholds, read from the Python module at each call so that
/// both engines always use the same values.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_operations: u64,
    pub max_form_depth: usize,
    pub max_form_invocations: u64,
    pub max_rules: usize,
    pub max_problems: usize,
    pub space_gap_em: f64,
    pub split_gap_em: f64,
    /// `interpreter.PIECE_GAP_EM`: a displacement inside one `TJ` array past this (and not
    /// past `split_gap_em`) cuts the run, the next one marked `joined`.
    pub piece_gap_em: f64,
    pub max_painted: usize,
    pub max_path_rects: usize,
    /// `interpreter.MAX_UNMAPPED_BOXES`: boxes of unmapped glyphs kept per page.
    pub max_unmapped_boxes: usize,
    /// `interpreter.SPACE_TOUCH_EM`: a blank string shown this close to where the last run
    /// ended is a word space after it.
    pub space_touch_em: f64,
    /// `interpreter.TAKEN_BACK_SHARE`: character spacing wider than `space_gap_em` that a
    /// `TJ` array's kerns take back by this share of it spaces only the glyphs it is not
    /// taken back after.
    pub taken_back_share: f64,
    /// The rest of the page's work budget (`interpreter.MAX_CONTENT_BYTES`, ...).
    pub budget: Budget,
}

/// The page's work budget beyond operators and Form invocations: the Python interpreter's
/// `MAX_CONTENT_BYTES`, `MAX_GLYPHS`, `MAX_RUNS`, `MAX_IMAGES` and `MAX_INLINE_BYTES` (with
/// `MAX_INLINE_IMAGE`, what is kept of one image), counted at the same points.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub max_content_bytes: u64,
    pub max_glyphs: u64,
    pub max_runs: u64,
    pub max_images: usize,
    pub max_inline_bytes: u64,
    pub max_inline_image: u64,
}

/// `mult`: `m` then `n`, with Python's operation order.
fn mult(m: &Matrix, n: &Matrix) -> Matrix {
    let [a, b, c, d, e, f] = *m;
    let [a2, b2, c2, d2, e2, f2] = *n;
    [
        a * a2 + b * c2,
        a * b2 + b * d2,
        c * a2 + d * c2,
        c * b2 + d * d2,
        e * a2 + f * c2 + e2,
        e * b2 + f * d2 + f2,
    ]
}

/// Python's `min(xs)`: the first item, replaced by any later one that is smaller.
fn py_min(xs: &[f64]) -> f64 {
    let mut cur = xs[0];
    for &x in &xs[1..] {
        if x < cur {
            cur = x;
        }
    }
    cur
}

fn py_max(xs: &[f64]) -> f64 {
    let mut cur = xs[0];
    for &x in &xs[1..] {
        if x > cur {
            cur = x;
        }
    }
    cur
}

/// `str.isspace()`.
fn py_isspace(text: &str) -> bool {
    !text.is_empty() && text.chars().all(is_space)
}

/// Python's `str.isspace()` of one character (what `str.strip()` and `str.split()` take for
/// white space): CPython's table of white-space code points, which a run's text is judged by.
fn is_space(c: char) -> bool {
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

pub fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

fn name_str(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() + 1);
    s.push('/');
    for &b in bytes {
        s.push(char::from(b));
    }
    s
}

/// The Python object the Python lexer makes for an operand.
pub fn to_py<'py>(py: Python<'py>, v: &Val) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Val::Num(x) => x.into_pyobject(py)?.into_any(),
        Val::Name(n) => PyString::new(py, &name_str(n)).into_any(),
        Val::Str(s) => PyBytes::new(py, s).into_any(),
        Val::Arr(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Val::Dict(items) => {
            let dict = PyDict::new(py);
            for (k, item) in items {
                dict.set_item(name_str(k), to_py(py, item)?)?;
            }
            dict.into_any()
        }
        Val::Bool(b) => pyo3::types::PyBool::new(py, *b).to_owned().into_any(),
        Val::Null => py.None().into_bound(py),
    })
}

/// Why a page stopped early.
pub enum Stop {
    /// `PageTimeout(message)`.
    Timeout(String),
    /// Any other exception, raised where the Python interpreter would raise it.
    Error(PyErr),
}

/// A handler's failure: bad operands (a problem, the page goes on) or a stop.
enum HErr {
    Bad(String),
    Stop(Stop),
}

impl From<Stop> for HErr {
    fn from(s: Stop) -> Self {
        HErr::Stop(s)
    }
}

type HResult<T> = Result<T, HErr>;

fn index_error() -> HErr {
    HErr::Bad("list index out of range".to_owned())
}

#[derive(Clone, Copy)]
struct GState {
    ctm: Matrix,
    clip: Option<[f64; 4]>,
    font: Option<usize>,
    fs: f64,
    tc: f64,
    tw: f64,
    th: f64,
    tl: f64,
    ts: f64,
    tr: i64,
    /// The clipping region is its box.
    clip_exact: bool,
    /// Colour and opacity, as far as seeing text depends on them (see `_GState` in Python).
    fill: Option<Rgb>,
    stroke: Option<Rgb>,
    fill_n: i64,
    stroke_n: i64,
    lw: f64,
    fill_alpha: f64,
    stroke_alpha: f64,
    mask: f64,
    normal: bool,
}

/// The largest marked-content id read (`interpreter.MAX_MCID`).
const MAX_MCID: f64 = 1_000_000_000.0;

/// A `/MCID` number as an id: a whole number from 0 to `MAX_MCID`, or -1
/// (`interpreter.mcid_of`).
fn mcid_of(value: f64) -> i64 {
    if (0.0..=MAX_MCID).contains(&value) && value.fract() == 0.0 {
        value as i64
    } else {
        -1
    }
}

struct Marked {
    artifact: bool,
    actual: Option<String>,
    layer_off: bool,
    /// Its `/MCID` (the page's), or -1.
    mcid: i64,
    emitted: bool,
}

/// How a run is drawn (`visibility.Look`).
struct Look {
    mode: i64,
    fill: Option<Rgb>,
    stroke: Option<Rgb>,
    fill_alpha: f64,
    stroke_alpha: f64,
    clip: Option<[f64; 4]>,
    layer_off: bool,
    advance: f64,
    glyphs: u64,
}

/// An area painted (`visibility.Paint`).
struct Paint {
    after: u64,
    bbox: [f64; 4],
    colour: Option<Rgb>,
    alpha: f64,
    normal: bool,
    solid: bool,
    exact: bool,
    kind: &'static str,
}

struct Run {
    text: String,
    bbox: [f64; 4],
    size: f64,
    font: usize,
    bold: bool,
    italic: bool,
    direction: u8,
    artifact: bool,
    seq: u64,
    mcid: i64,
    /// Drawn by the same `TJ` array as the run before it, past a `piece_gap_em` displacement.
    joined: bool,
    /// A blank string was shown where the run ends (`TextRun.space_after`).
    space_after: bool,
}

/// An image drawn: what it is, its box (`unit_square`) and the CTM's linear part `[a, b, c, d]`
/// when it was drawn (how the image is turned or mirrored on the page is Python's to decide,
/// `placement_orientation`).
enum Image {
    XObject(i64, [f64; 4], [f64; 4]),
    Inline(Vec<(Vec<u8>, Val)>, Vec<u8>, [f64; 4], [f64; 4]),
}

enum XObject {
    None,
    /// An image: its index in the resolver, whether it paints all of its box, and whether
    /// it is in a hidden layer.
    Image(i64, bool, bool),
    Form {
        key: i64,
        data: Option<Py<PyBytes>>,
        error: Option<String>,
        matrix: Option<Matrix>,
        bbox: Option<[f64; 4]>,
        scope: Option<i64>,
        off: bool,
    },
}

/// Python's `round(x, 2)`: the nearest number with two decimals, halves to even on the
/// exact binary value (Rust's fixed-precision formatting is exact and rounds the same way).
///
/// The fast path: when `x * 100` is clearly away from a half (by more than its rounding
/// error), the nearest integer `n` to the exact `x * 100` is that of the product, and the
/// nearest double to `n / 100` is what IEEE division of the two exact numbers gives, which is
/// what Python parses the rounded decimal text into.
pub fn round2(x: f64) -> f64 {
    let y = x * 100.0;
    if y.abs() < 35_184_372_088_832.0 {
        // |y| < 2^45: its rounding error is below 2^-8, far from the 0.01 margin.
        let n = y.round();
        if (y - n).abs() <= 0.49 {
            return n / 100.0;
        }
    }
    format!("{x:.2}").parse().unwrap_or(x)
}

pub struct Interp<'py> {
    py: Python<'py>,
    limits: Limits,
    resolver: Bound<'py, PyAny>,
    hypot: Bound<'py, PyAny>,
    float_fn: Bound<'py, PyAny>,
    int_fn: Bound<'py, PyAny>,
    neumaier: bool,
    width: f64,
    height: f64,
    deadline: Instant,
    /// The current graphics state. States are shared objects, as in Python: `Q` makes the
    /// popped state current, and a Form XObject's saved state is on the stack it may pop.
    gs: Rc<Cell<GState>>,
    stack: Vec<Rc<Cell<GState>>>,
    tm: Matrix,
    tlm: Matrix,
    marked: Vec<Marked>,
    artifact_depth: i64,
    actual_depth: i64,
    /// The page's marked-content id in effect (`TextRun.mcid`), kept current as marked
    /// content opens and closes.
    mcid: i64,
    ops: u64,
    forms: u64,
    form_stack: Vec<i64>,
    scope: i64,
    path_box: Option<[f64; 4]>,
    segments: Vec<[f64; 4]>,
    segment_count: usize,
    curved: bool,
    path_start: (f64, f64),
    path_point: (f64, f64),
    point_is_start: bool,
    pending_clip: bool,
    /// The current path's rectangles while it has nothing else (`path_rects` in Python).
    path_rects: Vec<[f64; 4]>,
    path_other: bool,
    paints: Vec<Paint>,
    painted_full: bool,
    /// Inside this many optional content groups the default view hides.
    layer_off: i64,
    colour_cache: HashMap<(i64, Vec<u8>), i64>,
    gstate_cache: HashMap<(i64, Vec<u8>), GParams>,
    seq: u64,
    fonts: Vec<Py<Font>>,
    font_cache: HashMap<(i64, Vec<u8>), Option<usize>>,
    xobject_cache: HashMap<(i64, Vec<u8>), Rc<XObject>>,
    property_cache: HashMap<(i64, Vec<u8>), Marking>,
    // the page
    drawn: Vec<(Run, Look)>,
    /// Where the last run drawn ends (device x, y) and its size (`Interpreter.last_end`).
    last_end: Option<(f64, f64, f64)>,
    images: Vec<Image>,
    rules: Vec<[f64; 4]>,
    paths: u64,
    glyphs: u64,
    unmapped: u64,
    /// Where unmapped glyphs were shown, with how many (`PageContent.unmapped_boxes`).
    unmapped_boxes: Vec<([f64; 4], u64)>,
    problems: Vec<String>,
    incomplete: bool,
    // the page's work budget, as counted so far
    content_bytes: u64,
    inline_bytes: u64,
}

/// `math.hypot`, `float` and `int`, looked up once (a page used to import them afresh).
#[allow(clippy::type_complexity)]
static PY_FUNCTIONS: GILOnceCell<(Py<PyAny>, Py<PyAny>, Py<PyAny>)> = GILOnceCell::new();

impl<'py> Interp<'py> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        py: Python<'py>,
        resolver: Bound<'py, PyAny>,
        width: f64,
        height: f64,
        base: Matrix,
        seconds: f64,
        problems: Vec<String>,
        limits: Limits,
    ) -> PyResult<Self> {
        let (hypot, float_fn, int_fn) = PY_FUNCTIONS.get_or_try_init(py, || -> PyResult<_> {
            let builtins = py.import("builtins")?;
            Ok((
                py.import("math")?.getattr("hypot")?.unbind(),
                builtins.getattr("float")?.unbind(),
                builtins.getattr("int")?.unbind(),
            ))
        })?;
        let missing: Py<Font> = resolver.getattr("missing")?.extract()?;
        let seconds = if seconds.is_finite() {
            seconds.clamp(0.0, 1e9)
        } else {
            0.0
        };
        Ok(Interp {
            py,
            limits,
            hypot: hypot.bind(py).clone(),
            float_fn: float_fn.bind(py).clone(),
            int_fn: int_fn.bind(py).clone(),
            resolver,
            neumaier: py.version_info() >= (3, 12),
            width,
            height,
            deadline: {
                let now = Instant::now();
                now.checked_add(Duration::from_secs_f64(seconds))
                    .unwrap_or(now)
            },
            gs: Rc::new(Cell::new(GState {
                ctm: base,
                clip: Some([0.0, 0.0, width, height]),
                font: None,
                fs: 0.0,
                tc: 0.0,
                tw: 0.0,
                th: 1.0,
                tl: 0.0,
                ts: 0.0,
                tr: 0,
                clip_exact: true,
                fill: Some(BLACK),
                stroke: Some(BLACK),
                fill_n: 1,
                stroke_n: 1,
                lw: 1.0,
                fill_alpha: 1.0,
                stroke_alpha: 1.0,
                mask: 1.0,
                normal: true,
            })),
            stack: Vec::new(),
            tm: IDENTITY,
            tlm: IDENTITY,
            marked: Vec::new(),
            artifact_depth: 0,
            actual_depth: 0,
            mcid: -1,
            ops: 0,
            forms: 0,
            form_stack: Vec::new(),
            scope: 0,
            path_box: None,
            segments: Vec::new(),
            segment_count: 0,
            curved: false,
            path_start: (0.0, 0.0),
            path_point: (0.0, 0.0),
            point_is_start: true,
            pending_clip: false,
            path_rects: Vec::new(),
            path_other: false,
            paints: Vec::new(),
            painted_full: false,
            layer_off: 0,
            colour_cache: HashMap::new(),
            gstate_cache: HashMap::new(),
            seq: 0,
            fonts: vec![missing],
            font_cache: HashMap::new(),
            xobject_cache: HashMap::new(),
            property_cache: HashMap::new(),
            drawn: Vec::new(),
            last_end: None,
            images: Vec::new(),
            rules: Vec::new(),
            paths: 0,
            glyphs: 0,
            unmapped: 0,
            unmapped_boxes: Vec::new(),
            problems,
            incomplete: false,
            content_bytes: 0,
            inline_bytes: 0,
        })
    }

    fn set_gs(&self, change: impl FnOnce(&mut GState)) {
        let mut g = self.gs.get();
        change(&mut g);
        self.gs.set(g);
    }

    // --- Python's conversions ------------------------------------------------------------

    /// A Python exception raised where the Python interpreter's handler would raise it: the
    /// five types its `_execute` catches become a problem, anything else stops the page.
    fn py_error(&self, err: PyErr) -> HErr {
        let py = self.py;
        let caught = err.is_instance_of::<PyIndexError>(py)
            || err.is_instance_of::<PyTypeError>(py)
            || err.is_instance_of::<PyValueError>(py)
            || err.is_instance_of::<PyZeroDivisionError>(py)
            || err.is_instance_of::<PyOverflowError>(py);
        if caught {
            let text = err
                .value(py)
                .str()
                .map(|s| s.to_string())
                .unwrap_or_default();
            HErr::Bad(text)
        } else {
            HErr::Stop(Stop::Error(err))
        }
    }

    fn float_of(&self, v: &Val) -> HResult<f64> {
        match v {
            Val::Num(x) => Ok(*x),
            Val::Bool(b) => Ok(if *b { 1.0 } else { 0.0 }),
            _ => {
                let obj = to_py(self.py, v).map_err(|e| self.py_error(e))?;
                let out = self.float_fn.call1((obj,)).map_err(|e| self.py_error(e))?;
                out.extract::<f64>().map_err(|e| self.py_error(e))
            }
        }
    }

    fn int_of(&self, v: &Val) -> HResult<i64> {
        match v {
            Val::Num(x) if x.is_finite() => {
                let t = x.trunc();
                Ok(if t >= 9.2e18 {
                    i64::MAX
                } else if t <= -9.2e18 {
                    i64::MIN
                } else {
                    t as i64
                })
            }
            Val::Bool(b) => Ok(i64::from(*b)),
            _ => {
                let obj = to_py(self.py, v).map_err(|e| self.py_error(e))?;
                let out = self.int_fn.call1((obj,)).map_err(|e| self.py_error(e))?;
                Ok(out.extract::<i64>().unwrap_or(i64::MAX))
            }
        }
    }

    /// `f"{value}"` of an operand.
    fn display(&self, v: &Val) -> HResult<String> {
        if let Val::Name(n) = v {
            return Ok(name_str(n));
        }
        let obj = to_py(self.py, v).map_err(|e| self.py_error(e))?;
        let text = obj.str().map_err(|e| self.py_error(e))?;
        Ok(text.to_string())
    }

    fn floats(&self, items: &[Val], expected: usize) -> HResult<Vec<f64>> {
        let start = items.len().saturating_sub(expected);
        let mut out = Vec::with_capacity(expected);
        for v in &items[start..] {
            out.push(self.float_of(v)?);
        }
        Ok(out)
    }

    fn unpack(&self, items: &[Val], expected: usize) -> HResult<Vec<f64>> {
        let out = self.floats(items, expected)?;
        if out.len() < expected {
            return Err(HErr::Bad(format!(
                "not enough values to unpack (expected {expected}, got {})",
                out.len()
            )));
        }
        Ok(out)
    }

    fn hypot(&self, x: f64, y: f64) -> HResult<f64> {
        let out = self.hypot.call1((x, y)).map_err(|e| self.py_error(e))?;
        out.extract::<f64>().map_err(|e| self.py_error(e))
    }

    // --- driving -------------------------------------------------------------------------

    fn problem(&mut self, message: String) {
        if self.problems.len() < self.limits.max_problems && !self.problems.contains(&message) {
            self.problems.push(message);
        }
    }

    /// `Interpreter.run` up to `_finish`: the page's content, counted, then interpreted.
    pub fn run(&mut self, data: &[u8]) -> Result<(), Stop> {
        self.content(data.len())?;
        self.execute(data)
    }

    /// `_content`: `len` more bytes of content interpreted.
    fn content(&mut self, len: usize) -> Result<(), Stop> {
        self.content_bytes += len as u64;
        let max = self.limits.budget.max_content_bytes;
        if self.content_bytes > max {
            return Err(Stop::Timeout(format!(
                "more than {max} bytes of content on the page (Form XObjects counted each time \
                 they are drawn)"
            )));
        }
        Ok(())
    }

    /// `_count_image`: room for one more image?
    fn count_image(&self) -> HResult<()> {
        let max = self.limits.budget.max_images;
        if self.images.len() >= max {
            return Err(HErr::Stop(Stop::Timeout(format!(
                "more than {max} images on the page"
            ))));
        }
        Ok(())
    }

    pub fn execute(&mut self, data: &[u8]) -> Result<(), Stop> {
        let mut lexer = Lexer::new(data);
        loop {
            let op = match lexer.next() {
                None => return Ok(()),
                Some(Err(LexError::Overflow)) => {
                    return Err(Stop::Error(PyOverflowError::new_err(
                        "cannot convert float infinity to integer",
                    )))
                }
                Some(Ok(op)) => op,
            };
            self.ops += 1;
            if self.ops & 0x7ff == 0 {
                if Instant::now() > self.deadline {
                    return Err(Stop::Timeout(
                        "time limit reached while reading the page".to_owned(),
                    ));
                }
                if self.ops > self.limits.max_operations {
                    return Err(Stop::Timeout(format!(
                        "more than {} operators on the page",
                        self.limits.max_operations
                    )));
                }
            }
            let name = lexer.op_bytes(&op.op);
            match self.dispatch(name, &op.operands) {
                Ok(()) => {}
                Err(HErr::Bad(text)) => {
                    self.problem(format!("bad operands for {}: {}", latin1(name), text));
                }
                Err(HErr::Stop(stop)) => return Err(stop),
            }
        }
    }

    fn dispatch(&mut self, op: &[u8], ops: &[Val]) -> HResult<()> {
        match op {
            b"BT" => {
                self.tm = IDENTITY;
                self.tlm = IDENTITY;
                Ok(())
            }
            b"Tf" => self.tf(ops),
            b"Tj" => {
                let item = ops.last().ok_or_else(index_error)?;
                self.show(std::slice::from_ref(item))
            }
            b"TJ" => {
                let item = ops.last().ok_or_else(index_error)?;
                if let Val::Arr(items) = item {
                    self.show(items)?;
                }
                Ok(())
            }
            b"'" => {
                self.tstar();
                let item = ops.last().ok_or_else(index_error)?;
                self.show(std::slice::from_ref(item))
            }
            b"\"" => {
                if ops.len() < 3 {
                    return Err(index_error());
                }
                let value = self.float_of(&ops[ops.len() - 3])?;
                self.set_gs(|g| g.tw = value);
                let value = self.float_of(&ops[ops.len() - 2])?;
                self.set_gs(|g| g.tc = value);
                self.tstar();
                self.show(std::slice::from_ref(&ops[ops.len() - 1]))
            }
            b"Td" => self.td(ops),
            b"TD" => {
                let v = self.float_of(ops.last().ok_or_else(index_error)?)?;
                let value = -v;
                self.set_gs(|g| g.tl = value);
                self.td(ops)
            }
            b"Tm" => {
                let m = self.unpack(ops, 6)?;
                let m = [m[0], m[1], m[2], m[3], m[4], m[5]];
                self.tlm = m;
                self.tm = m;
                Ok(())
            }
            b"T*" => {
                self.tstar();
                Ok(())
            }
            b"Tc" => {
                let value = self.float_of(ops.last().ok_or_else(index_error)?)?;
                self.set_gs(|g| g.tc = value);
                Ok(())
            }
            b"Tw" => {
                let value = self.float_of(ops.last().ok_or_else(index_error)?)?;
                self.set_gs(|g| g.tw = value);
                Ok(())
            }
            b"Tz" => {
                let value = self.float_of(ops.last().ok_or_else(index_error)?)? / 100.0;
                self.set_gs(|g| g.th = value);
                Ok(())
            }
            b"TL" => {
                let value = self.float_of(ops.last().ok_or_else(index_error)?)?;
                self.set_gs(|g| g.tl = value);
                Ok(())
            }
            b"Ts" => {
                let value = self.float_of(ops.last().ok_or_else(index_error)?)?;
                self.set_gs(|g| g.ts = value);
                Ok(())
            }
            b"Tr" => {
                let value = self.int_of(ops.last().ok_or_else(index_error)?)?;
                self.set_gs(|g| g.tr = value);
                Ok(())
            }
            b"q" => {
                if self.stack.len() < 256 {
                    self.stack.push(Rc::new(Cell::new(self.gs.get())));
                }
                Ok(())
            }
            b"Q" => {
                if let Some(g) = self.stack.pop() {
                    self.gs = g;
                }
                Ok(())
            }
            b"cm" => {
                let m = self.floats(ops, 6)?;
                if m.len() == 6 {
                    let m = [m[0], m[1], m[2], m[3], m[4], m[5]];
                    let value = mult(&m, &self.gs.get().ctm);
                    self.set_gs(|g| g.ctm = value);
                }
                Ok(())
            }
            b"Do" => self.do_xobject(ops),
            b"BI" => self.inline_image(ops),
            b"BMC" => {
                let artifact = matches!(ops.last(), Some(Val::Name(n)) if n == b"Artifact");
                self.push_marked(artifact, None, false, -1);
                Ok(())
            }
            b"BDC" => self.bdc(ops),
            b"EMC" => {
                self.emc();
                Ok(())
            }
            b"m" => {
                self.path_other = true;
                let (x, y) = self.pair(ops)?;
                let p = self.point(x, y);
                self.path_start = p;
                self.path_point = p;
                self.point_is_start = true;
                self.extend(p.0, p.1);
                Ok(())
            }
            b"l" => {
                self.path_other = true;
                let (x, y) = self.pair(ops)?;
                let p = self.point(x, y);
                let (x0, y0) = self.path_point;
                if self.segment_count < 1000 {
                    self.segments.push([x0, y0, p.0, p.1]);
                    self.segment_count += 1;
                }
                self.path_point = p;
                self.point_is_start = false;
                self.extend(p.0, p.1);
                Ok(())
            }
            b"c" | b"v" | b"y" => {
                self.path_other = true;
                let n = ops.len();
                let mut i = 0;
                while i + 1 < n {
                    let x = self.float_of(&ops[i])?;
                    let y = self.float_of(&ops[i + 1])?;
                    let p = self.point(x, y);
                    self.extend(p.0, p.1);
                    i += 2;
                }
                if n >= 2 {
                    let x = self.float_of(&ops[n - 2])?;
                    let y = self.float_of(&ops[n - 1])?;
                    self.path_point = self.point(x, y);
                    self.point_is_start = false;
                }
                self.segment_count += 1;
                self.curved = true;
                Ok(())
            }
            b"re" => {
                let v = self.unpack(ops, 4)?;
                let (x, y, w, h) = (v[0], v[1], v[2], v[3]);
                let p0 = self.point(x, y);
                let p1 = self.point(x + w, y);
                let p2 = self.point(x + w, y + h);
                let p3 = self.point(x, y + h);
                for p in [p0, p1, p2, p3] {
                    self.extend(p.0, p.1);
                }
                if self.path_rects.len() < self.limits.max_path_rects {
                    let xs = [p0.0, p1.0, p2.0, p3.0];
                    let ys = [p0.1, p1.1, p2.1, p3.1];
                    self.path_rects
                        .push([py_min(&xs), py_min(&ys), py_max(&xs), py_max(&ys)]);
                } else {
                    self.path_other = true;
                }
                if self.segment_count < 1000 {
                    self.segments.push([p0.0, p0.1, p1.0, p1.1]);
                    self.segments.push([p1.0, p1.1, p2.0, p2.1]);
                    self.segments.push([p2.0, p2.1, p3.0, p3.1]);
                    self.segments.push([p3.0, p3.1, p0.0, p0.1]);
                    self.segment_count += 4;
                }
                self.path_start = p0;
                self.path_point = p0;
                self.point_is_start = true;
                Ok(())
            }
            b"h" => {
                let (x0, y0) = self.path_point;
                let (x1, y1) = self.path_start;
                let same = self.point_is_start || (x0 == x1 && y0 == y1);
                if !same && self.segment_count < 1000 {
                    self.segments.push([x0, y0, x1, y1]);
                    self.segment_count += 1;
                }
                self.path_point = self.path_start;
                self.point_is_start = true;
                Ok(())
            }
            b"W" | b"W*" => {
                self.pending_clip = true;
                Ok(())
            }
            b"n" => {
                self.paint(false, false, false);
                Ok(())
            }
            b"S" | b"s" => {
                self.paint(true, false, false);
                Ok(())
            }
            b"B" | b"B*" | b"b" | b"b*" => {
                self.paint(true, false, true);
                Ok(())
            }
            b"f" | b"F" | b"f*" => {
                self.paint(false, true, false);
                Ok(())
            }
            b"sh" => {
                self.shading();
                Ok(())
            }
            b"gs" => {
                let (fill, stroke, mask, normal) = self.ext_gstate(ops.last())?;
                self.set_gs(|g| {
                    if let Some(f) = fill {
                        g.fill_alpha = f;
                    }
                    if let Some(s) = stroke {
                        g.stroke_alpha = s;
                    }
                    if let Some(m) = mask {
                        g.mask = m;
                    }
                    if let Some(n) = normal {
                        g.normal = n;
                    }
                });
                Ok(())
            }
            b"w" => {
                if let Some(Val::Num(x)) = ops.last() {
                    let x = *x;
                    self.set_gs(|g| g.lw = x);
                }
                Ok(())
            }
            b"g" | b"rg" | b"k" | b"G" | b"RG" | b"K" => {
                let n: usize = match op[0] {
                    b'g' | b'G' => 1,
                    b'r' | b'R' => 3,
                    _ => 4,
                };
                let start = ops.len().saturating_sub(n);
                let colour = rgb(&ops[start..], n as i64);
                if op[0].is_ascii_lowercase() {
                    self.set_gs(|g| {
                        g.fill = colour;
                        g.fill_n = n as i64;
                    });
                } else {
                    self.set_gs(|g| {
                        g.stroke = colour;
                        g.stroke_n = n as i64;
                    });
                }
                Ok(())
            }
            b"cs" | b"CS" => {
                let n = self.colour_components(ops.last())?;
                // A new colour space starts at its initial colour: black, or full ink.
                let colour = if n != 0 { Some(BLACK) } else { None };
                if op[0] == b'c' {
                    self.set_gs(|g| {
                        g.fill_n = n;
                        g.fill = colour;
                    });
                } else {
                    self.set_gs(|g| {
                        g.stroke_n = n;
                        g.stroke = colour;
                    });
                }
                Ok(())
            }
            b"sc" | b"scn" => {
                let colour = rgb(ops, self.gs.get().fill_n);
                self.set_gs(|g| g.fill = colour);
                Ok(())
            }
            b"SC" | b"SCN" => {
                let colour = rgb(ops, self.gs.get().stroke_n);
                self.set_gs(|g| g.stroke = colour);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    // --- text state ----------------------------------------------------------------------

    fn pair(&self, ops: &[Val]) -> HResult<(f64, f64)> {
        if ops.len() < 2 {
            return Err(index_error());
        }
        let x = self.float_of(&ops[ops.len() - 2])?;
        let y = self.float_of(&ops[ops.len() - 1])?;
        Ok((x, y))
    }

    fn td(&mut self, ops: &[Val]) -> HResult<()> {
        let (tx, ty) = self.pair(ops)?;
        self.td_by(tx, ty);
        Ok(())
    }

    fn td_by(&mut self, tx: f64, ty: f64) {
        let [a, b, c, d, e, f] = self.tlm;
        let m = [a, b, c, d, e + tx * a + ty * c, f + tx * b + ty * d];
        self.tlm = m;
        self.tm = m;
    }

    fn tstar(&mut self) {
        let tl = self.gs.get().tl;
        self.td_by(0.0, -tl);
    }

    fn tf(&mut self, ops: &[Val]) -> HResult<()> {
        if ops.len() < 2 {
            return Err(index_error());
        }
        let name = &ops[ops.len() - 2];
        let value = self.float_of(&ops[ops.len() - 1])?;
        self.set_gs(|g| g.fs = value);
        let font = match name {
            Val::Name(n) => self.font(n)?,
            _ => None,
        };
        let font = match font {
            Some(f) => f,
            None => {
                let shown = self.display(name)?;
                self.problem(format!("font {shown} is missing from the page resources"));
                MISSING
            }
        };
        let value = Some(font);
        self.set_gs(|g| g.font = value);
        Ok(())
    }

    fn font(&mut self, name: &[u8]) -> HResult<Option<usize>> {
        let key = (self.scope, name.to_vec());
        if let Some(hit) = self.font_cache.get(&key) {
            return Ok(*hit);
        }
        let found = self
            .resolver
            .call_method1("font", (self.scope, name_str(name)))
            .map_err(|e| self.py_error(e))?;
        let index = if found.is_none() {
            None
        } else {
            let font: Py<Font> = found.extract().map_err(|e| self.py_error(e))?;
            self.fonts.push(font);
            Some(self.fonts.len() - 1)
        };
        self.font_cache.insert(key, index);
        Ok(index)
    }

    fn show(&mut self, items: &[Val]) -> HResult<()> {
        let py = self.py;
        let font_index = self.gs.get().font.unwrap_or(MISSING);
        let font_obj = self.fonts[font_index].clone_ref(py);
        let font = font_obj.get();
        let (fs, th, mut tc, tw) = (
            self.gs.get().fs,
            self.gs.get().th,
            self.gs.get().tc,
            self.gs.get().tw,
        );
        let vertical = font.vertical;
        let mut text = String::new();
        let mut parts = 0usize;
        let mut last_empty = false;
        let mut last_space = false;
        let start_tm = self.tm;
        let mut advance = 0.0f64;
        let mut run_start = 0.0f64;
        let mut run_glyphs = 0u64;
        let mut glyphs = 0u64;
        let mut unmapped = 0u64;
        // From the start of the first string holding an unmapped glyph to the end of the last.
        let (mut bad_from, mut bad_to) = (0.0f64, 0.0f64);
        let split_gap = self.limits.split_gap_em * fs;
        let space_gap = self.limits.space_gap_em * fs;
        // Under /ActualText the replacement text goes to the first run: no cut there.
        let piece_gap = if self.actual_depth != 0 {
            split_gap
        } else {
            self.limits.piece_gap_em * fs
        };
        // Wide character spacing that the kerns take back: glyph by glyph (see the Python
        // interpreter's `_glyph_by_glyph`).
        let spaced: Vec<Val>;
        let wide = tc > 0.0 && fs > 0.0 && (if vertical { tc } else { tc * th }) > space_gap;
        // The last glyph's spacing: it moves the pen, no gap, no part of a run.
        let mut spacing = 0.0f64;
        let items: &[Val] = if wide && takes_back(items, tc, fs, self.limits.taken_back_share) {
            let (cut, last) = glyph_by_glyph(items, font, -tc * 1000.0 / fs);
            spaced = cut;
            spacing = last;
            tc = 0.0;
            &spaced
        } else {
            items
        };
        let mut joined = false;
        // Blank advance since the last inked glyph or cut: trailing spaces count as gap.
        let mut blank = 0.0f64;
        // The run since the last cut shows a glyph other than a space.
        let mut inked = false;
        for item in items {
            match item {
                Val::Str(bytes) => {
                    if bytes.is_empty() {
                        continue;
                    }
                    let before = text.len();
                    let d = font
                        .decode_into(py, bytes, self.neumaier, &mut text)
                        .map_err(|e| self.py_error(e))?;
                    glyphs += d.glyphs;
                    run_glyphs += d.glyphs;
                    let count = d.glyphs as f64;
                    let spaces = d.spaces as f64;
                    let step = if vertical {
                        d.width * fs + tc * count + tw * spaces
                    } else {
                        (d.width * fs + tc * count + tw * spaces) * th
                    };
                    if d.unmapped > 0 {
                        if unmapped == 0 {
                            bad_from = advance;
                        }
                        bad_to = advance + step;
                        unmapped += d.unmapped;
                    }
                    let (trailing, space_width) = font.trailing_spaces(bytes);
                    if trailing == bytes.len() {
                        blank += step;
                    } else {
                        inked = true;
                        blank = if trailing > 0 {
                            (space_width * fs + tc + tw) * trailing as f64 * th
                        } else {
                            0.0
                        };
                    }
                    parts += 1;
                    last_empty = text.len() == before;
                    last_space = text[before..].ends_with(' ');
                    advance += step;
                }
                Val::Num(x) => {
                    let mut shift = -*x / 1000.0 * fs;
                    if !vertical {
                        shift *= th;
                    }
                    if parts == 0 {
                        advance += shift;
                        run_start = advance;
                        continue;
                    }
                    let tail = blank;
                    blank += shift;
                    // Spaces alone are no piece: cutting them off would break the array's chain.
                    if shift > piece_gap || (blank > piece_gap && inked) {
                        // Cut for its blank, a piece ends at its ink (see the Python interpreter).
                        let end = if shift > piece_gap {
                            advance
                        } else {
                            advance - tail
                        };
                        let shown = std::mem::take(&mut text);
                        let emitted = self.emit(
                            shown, start_tm, run_start, end, font_index, run_glyphs, joined,
                        )?;
                        joined = emitted && shift <= split_gap;
                        parts = 0;
                        run_glyphs = 0;
                        blank = 0.0;
                        inked = false;
                        advance += shift;
                        run_start = advance;
                        continue;
                    }
                    if shift > space_gap && !last_empty && !last_space {
                        text.push(' ');
                        parts += 1;
                        last_empty = false;
                        last_space = true;
                    }
                    advance += shift;
                }
                _ => {}
            }
        }
        if parts > 0 {
            self.emit(
                text, start_tm, run_start, advance, font_index, run_glyphs, joined,
            )?;
        }
        if spacing != 0.0 {
            // After the run: it ends at its last glyph, the pen past its spacing.
            advance += if vertical {
                -spacing / 1000.0 * fs
            } else {
                -spacing / 1000.0 * fs * th
            };
        }
        self.glyphs += glyphs;
        self.unmapped += unmapped;
        if unmapped > 0 && self.actual_depth == 0 {
            self.unmapped_box(start_tm, bad_from, bad_to, font_index, unmapped);
        }
        let [a, b, c, d, e, f] = start_tm;
        self.tm = if vertical {
            [a, b, c, d, e - advance * c, f - advance * d]
        } else {
            [a, b, c, d, e + advance * a, f + advance * b]
        };
        let max = self.limits.budget.max_glyphs;
        if self.glyphs > max {
            return Err(HErr::Stop(Stop::Timeout(format!(
                "more than {max} glyphs on the page"
            ))));
        }
        Ok(())
    }

    /// `Interpreter._unmapped_box`: the box `count` unmapped glyphs were shown in, from
    /// `start` to `end` along the baseline of `tm`, as `emit` boxes a run; one per show
    /// operation, past `max_unmapped_boxes` joined to the last kept.
    fn unmapped_box(&mut self, tm: Matrix, start: f64, end: f64, font_index: usize, count: u64) {
        let font_obj = self.fonts[font_index].clone_ref(self.py);
        let font = font_obj.get();
        let g = self.gs.get();
        let fs = g.fs;
        let [a, b, c, d, e, f] = mult(&tm, &g.ctm);
        let (xs, ys);
        if font.vertical {
            let (ox, oy) = (-start * c + e, -start * d + f);
            let (ex, ey) = (-end * c + e, -end * d + f);
            let half = 0.5 * fs.abs();
            let (sx, sy) = (a * half, b * half);
            xs = [ox - sx, ox + sx, ex - sx, ex + sx];
            ys = [oy - sy, oy + sy, ey - sy, ey + sy];
        } else {
            let ts = g.ts;
            let ox = start * a + ts * c + e;
            let oy = start * b + ts * d + f;
            let ex = end * a + ts * c + e;
            let ey = end * b + ts * d + f;
            let up = font.ascent * fs * font.size_scale;
            let down = 0.22 * fs * font.size_scale;
            let (ux, uy) = (c * up, d * up);
            let (dx, dy) = (-c * down, -d * down);
            xs = [ox + ux, ox + dx, ex + ux, ex + dx];
            ys = [oy + uy, oy + dy, ey + uy, ey + dy];
        }
        let bbox = [py_min(&xs), py_min(&ys), py_max(&xs), py_max(&ys)];
        if self.unmapped_boxes.len() < self.limits.max_unmapped_boxes {
            self.unmapped_boxes.push((bbox, count));
        } else if let Some((last, n)) = self.unmapped_boxes.last_mut() {
            *last = [
                py_min(&[last[0], bbox[0]]),
                py_min(&[last[1], bbox[1]]),
                py_max(&[last[2], bbox[2]]),
                py_max(&[last[3], bbox[3]]),
            ];
            *n += count;
        }
    }

    fn actual_text(&mut self, text: String) -> String {
        for marked in self.marked.iter_mut().rev() {
            if let Some(actual) = &marked.actual {
                if marked.emitted {
                    return String::new();
                }
                marked.emitted = true;
                return actual.clone();
            }
        }
        text
    }

    /// Keep a run of `text`; whether it was kept (not an empty or blank one).
    #[allow(clippy::too_many_arguments)]
    fn emit(
        &mut self,
        text: String,
        tm: Matrix,
        start: f64,
        end: f64,
        font_index: usize,
        glyphs: u64,
        joined: bool,
    ) -> HResult<bool> {
        let text = if self.actual_depth != 0 {
            self.actual_text(text)
        } else {
            text
        };
        let blank = text.is_empty() || py_isspace(&text);
        if blank && (text.is_empty() || self.last_end.is_none()) {
            return Ok(false);
        }
        let font_obj = self.fonts[font_index].clone_ref(self.py);
        let font = font_obj.get();
        let fs = self.gs.get().fs;
        let [a, b, c, d, e, f] = mult(&tm, &self.gs.get().ctm);
        let ts = self.gs.get().ts;
        if blank {
            if !font.vertical {
                self.blank(start * a + ts * c + e, start * b + ts * d + f);
            }
            return Ok(false);
        }
        let (ox, oy, ex, ey);
        if font.vertical {
            ox = -start * c + e;
            oy = -start * d + f;
            ex = -end * c + e;
            ey = -end * d + f;
        } else {
            ox = start * a + ts * c + e;
            oy = start * b + ts * d + f;
            ex = end * a + ts * c + e;
            ey = end * b + ts * d + f;
        }
        let scale_y = self.hypot(c, d)?;
        let size = fs.abs() * scale_y * font.size_scale;
        let up = font.ascent * fs * font.size_scale;
        let down = 0.22 * fs * font.size_scale;
        let (ux, uy) = (c * up, d * up);
        let (dx, dy) = (-c * down, -d * down);
        let (xs, ys, direction);
        if font.vertical {
            let half = 0.5 * fs.abs();
            let (sx, sy) = (a * half, b * half);
            xs = [ox - sx, ox + sx, ex - sx, ex + sx];
            ys = [oy - sy, oy + sy, ey - sy, ey + sy];
            direction = 1;
        } else {
            xs = [ox + ux, ox + dx, ex + ux, ex + dx];
            ys = [oy + uy, oy + dy, ey + uy, ey + dy];
            let (mut run_x, mut run_y) = (ex - ox, ey - oy);
            if run_x == 0.0 && run_y == 0.0 {
                run_x = a * fs * self.gs.get().th;
                run_y = b * fs * self.gs.get().th;
            }
            direction = quarter_turn(run_x, run_y, c * fs, d * fs);
        }
        self.seq += 1;
        let max = self.limits.budget.max_runs;
        if self.seq > max {
            return Err(HErr::Stop(Stop::Timeout(format!(
                "more than {max} text runs on the page"
            ))));
        }
        let g = self.gs.get();
        let run = Run {
            text,
            bbox: [py_min(&xs), py_min(&ys), py_max(&xs), py_max(&ys)],
            size,
            font: font_index,
            bold: font.bold || g.tr == 2,
            italic: font.italic,
            direction,
            artifact: self.artifact_depth > 0,
            seq: self.seq,
            mcid: self.mcid,
            joined,
            space_after: false,
        };
        // How far the glyphs advance on the page, along the baseline (negative: backwards).
        let scale = if font.vertical {
            scale_y
        } else {
            self.hypot(a, b)?
        };
        let look = Look {
            mode: g.tr,
            fill: g.fill,
            stroke: g.stroke,
            fill_alpha: g.fill_alpha * g.mask,
            stroke_alpha: g.stroke_alpha * g.mask,
            clip: g.clip,
            layer_off: self.layer_off > 0,
            advance: (end - start) * scale,
            glyphs,
        };
        push(&mut self.drawn, (run, look));
        self.last_end = if direction != 1 {
            Some((ex, ey, size))
        } else {
            None
        };
        Ok(true)
    }

    /// `_blank`: a blank string shown from `(x, y)`, where the last run ended, is a word space
    /// after that run.
    fn blank(&mut self, x: f64, y: f64) {
        if let Some((ex, ey, size)) = self.last_end.take() {
            let reach = self.limits.space_touch_em * size;
            if (x - ex) * (x - ex) + (y - ey) * (y - ey) <= reach * reach {
                if let Some((run, _)) = self.drawn.last_mut() {
                    run.space_after = true;
                }
            }
        }
    }

    // --- paths ---------------------------------------------------------------------------

    fn point(&self, x: f64, y: f64) -> (f64, f64) {
        let [a, b, c, d, e, f] = self.gs.get().ctm;
        (x * a + y * c + e, x * b + y * d + f)
    }

    fn extend(&mut self, px: f64, py: f64) {
        match &mut self.path_box {
            None => self.path_box = Some([px, py, px, py]),
            Some(b) => {
                if px < b[0] {
                    b[0] = px;
                } else if px > b[2] {
                    b[2] = px;
                }
                if py < b[1] {
                    b[1] = py;
                } else if py > b[3] {
                    b[3] = py;
                }
            }
        }
    }

    /// `_square`: does the current transformation keep rectangles square to the page?
    fn square(&self) -> bool {
        let [a, b, c, d, _, _] = self.gs.get().ctm;
        (b == 0.0 && c == 0.0) || (a == 0.0 && d == 0.0)
    }

    /// `_straight_bar`: is the current path one straight segment square to the page?
    fn straight_bar(&self) -> bool {
        if self.segments.len() != 1 || self.curved || !self.path_rects.is_empty() || !self.square()
        {
            return false;
        }
        let [x0, y0, x1, y1] = self.segments[0];
        x0 == x1 || y0 == y1
    }

    /// `_filled_areas`: what a fill of the current path paints exactly, or `None`.
    fn filled_areas(&self) -> Option<Vec<[f64; 4]>> {
        let rects = &self.path_rects;
        if self.path_other || rects.is_empty() || !self.square() {
            return None;
        }
        for (i, a) in rects.iter().enumerate() {
            for b in &rects[i + 1..] {
                if a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3] {
                    return None;
                }
            }
        }
        Some(rects.clone())
    }

    fn paint(&mut self, stroke: bool, fill: bool, filled: bool) {
        let path_box = self.path_box;
        let g = self.gs.get();
        let areas = self.filled_areas();
        let exact = matches!(&areas, Some(list) if list.len() == 1);
        if let (Some(b), 0) = (path_box, self.layer_off) {
            if fill || filled {
                match &areas {
                    None => self.paint_area([b[0], b[1], b[2], b[3]], g.fill, "fill", false, true),
                    Some(list) => {
                        for area in list {
                            self.paint_area(*area, g.fill, "fill", true, true);
                        }
                    }
                }
            }
            if stroke {
                // A stroke covers half its line width either side of the path; only a line
                // as wide as its box paints the box.
                let [a, bb, c, d, _, _] = g.ctm;
                let half = g.lw.abs() / 2.0 * (a * d - bb * c).abs().sqrt();
                if py_min(&[b[2] - b[0], b[3] - b[1]]) <= 2.0 * half {
                    let area = [b[0] - half, b[1] - half, b[2] + half, b[3] + half];
                    let bar = self.straight_bar();
                    self.paint_area(area, g.stroke, "stroke", bar, true);
                }
            }
        }
        if self.pending_clip {
            if let Some(b) = path_box {
                let current = self.gs.get();
                let (clip, clip_exact) = match current.clip {
                    None => (b, exact),
                    Some(c) => (
                        [
                            py_max(&[c[0], b[0]]),
                            py_max(&[c[1], b[1]]),
                            py_min(&[c[2], b[2]]),
                            py_min(&[c[3], b[3]]),
                        ],
                        current.clip_exact && exact,
                    ),
                };
                self.set_gs(|g| {
                    g.clip = Some(clip);
                    g.clip_exact = clip_exact;
                });
            }
        }
        if stroke || fill {
            if let (Some(b), 0) = (path_box, self.layer_off) {
                self.paths += 1;
                self.add_rules(b, stroke);
            }
        }
        self.pending_clip = false;
        self.path_box = None;
        self.segments.clear();
        self.segment_count = 0;
        self.curved = false;
        self.path_rects.clear();
        self.path_other = false;
    }

    /// `_paint_area`: remember an area painted in `colour`, as far as the clip lets it.
    fn paint_area(
        &mut self,
        area: [f64; 4],
        colour: Option<Rgb>,
        kind: &'static str,
        exact: bool,
        solid: bool,
    ) {
        if self.paints.len() >= self.limits.max_painted {
            self.painted_full = true;
            return;
        }
        let g = self.gs.get();
        let mut bbox = area;
        let mut exact = exact;
        if let Some(c) = g.clip {
            bbox = [
                py_max(&[area[0], c[0]]),
                py_max(&[area[1], c[1]]),
                py_min(&[area[2], c[2]]),
                py_min(&[area[3], c[3]]),
            ];
            if bbox[0] > bbox[2] || bbox[1] > bbox[3] {
                return;
            }
            exact = exact && g.clip_exact;
        }
        let alpha = if kind == "stroke" {
            g.stroke_alpha
        } else {
            g.fill_alpha
        } * g.mask;
        push(
            &mut self.paints,
            Paint {
                after: self.seq,
                bbox,
                colour,
                alpha,
                normal: g.normal,
                solid,
                exact,
                kind,
            },
        );
    }

    fn shading(&mut self) {
        if self.layer_off != 0 {
            return;
        }
        let g = self.gs.get();
        match g.clip {
            None => self.paint_area(
                [0.0, 0.0, self.width, self.height],
                None,
                "shading",
                true,
                true,
            ),
            Some(c) => self.paint_area(c, None, "shading", g.clip_exact, true),
        }
    }

    /// `colour_components`, asked of Python once per resource dictionary and name.
    fn colour_components(&mut self, name: Option<&Val>) -> HResult<i64> {
        let Some(Val::Name(name)) = name else {
            return Ok(0);
        };
        let key = (self.scope, name.clone());
        if let Some(hit) = self.colour_cache.get(&key) {
            return Ok(*hit);
        }
        let found = self
            .resolver
            .call_method1("colour_components", (self.scope, name_str(name)))
            .map_err(|e| self.py_error(e))?;
        let n: i64 = found.extract().map_err(|e| self.py_error(e))?;
        self.colour_cache.insert(key, n);
        Ok(n)
    }

    /// `ext_gstate`, asked of Python once per resource dictionary and name.
    fn ext_gstate(&mut self, name: Option<&Val>) -> HResult<GParams> {
        let Some(Val::Name(name)) = name else {
            return Ok((None, None, None, None));
        };
        let key = (self.scope, name.clone());
        if let Some(hit) = self.gstate_cache.get(&key) {
            return Ok(*hit);
        }
        let found = self
            .resolver
            .call_method1("gstate", (self.scope, name_str(name)))
            .map_err(|e| self.py_error(e))?;
        let params: GParams = found.extract().map_err(|e| self.py_error(e))?;
        self.gstate_cache.insert(key, params);
        Ok(params)
    }

    fn add_rules(&mut self, b: [f64; 4], stroke: bool) {
        if self.rules.len() >= self.limits.max_rules {
            return;
        }
        let w = b[2] - b[0];
        let h = b[3] - b[1];
        if !stroke {
            if h <= 2.5 && w > 2.5 {
                let y = (b[1] + b[3]) / 2.0;
                self.rules.push([b[0], y, b[2], y]);
            } else if w <= 2.5 && h > 2.5 {
                let x = (b[0] + b[2]) / 2.0;
                self.rules.push([x, b[1], x, b[3]]);
            }
            return;
        }
        if self.curved || self.segments.iter().any(|s| s[0].is_nan()) {
            return;
        }
        for &[x0, y0, x1, y1] in &self.segments {
            if (y0 - y1).abs() <= 0.5 && (x1 - x0).abs() > 2.5 {
                self.rules
                    .push([py_min(&[x0, x1]), y0, py_max(&[x0, x1]), y0]);
            } else if (x0 - x1).abs() <= 0.5 && (y1 - y0).abs() > 2.5 {
                self.rules
                    .push([x0, py_min(&[y0, y1]), x0, py_max(&[y0, y1])]);
            }
        }
    }

    // --- marked content ------------------------------------------------------------------

    fn bdc(&mut self, ops: &[Val]) -> HResult<()> {
        let artifact = matches!(ops.first(), Some(Val::Name(n)) if n == b"Artifact");
        let optional = matches!(ops.first(), Some(Val::Name(n)) if n == b"OC");
        let (actual, off, mcid) = match ops.get(1) {
            Some(Val::Name(n)) => self.properties(n)?,
            Some(Val::Dict(items)) => {
                let mcid = match dict_get(items, b"MCID") {
                    Some(Val::Num(v)) => mcid_of(*v),
                    _ => -1,
                };
                let actual = match dict_get(items, b"ActualText") {
                    None | Some(Val::Null) => None,
                    Some(Val::Name(n)) => Some(name_str(n)),
                    Some(Val::Str(raw)) => {
                        let text = self
                            .resolver
                            .call_method1("text_string", (PyBytes::new(self.py, raw),))
                            .and_then(|t| t.extract::<String>())
                            .map_err(|e| self.py_error(e))?;
                        Some(text)
                    }
                    Some(_) => Some(String::new()),
                };
                let off = if optional {
                    let value = to_py(self.py, &ops[1]).map_err(|e| self.py_error(e))?;
                    self.resolver
                        .call_method1("layer_off", (value,))
                        .and_then(|t| t.extract::<bool>())
                        .map_err(|e| self.py_error(e))?
                } else {
                    false
                };
                (actual, off, mcid)
            }
            _ => (None, false, -1),
        };
        // An id inside a Form XObject is the form's own (see `TextRun.mcid`).
        let mcid = if self.form_stack.is_empty() { mcid } else { -1 };
        self.push_marked(artifact, actual, optional && off, mcid);
        Ok(())
    }

    /// A property list's `/ActualText`, whether, as optional content, the default view
    /// hides it, and its `/MCID` (or -1); asked of Python once per resource dictionary and
    /// name.
    fn properties(&mut self, name: &[u8]) -> HResult<Marking> {
        let key = (self.scope, name.to_vec());
        if let Some(hit) = self.property_cache.get(&key) {
            return Ok(hit.clone());
        }
        let found = self
            .resolver
            .call_method1("properties", (self.scope, name_str(name)))
            .and_then(|t| t.extract::<Marking>())
            .map_err(|e| self.py_error(e))?;
        self.property_cache.insert(key, found.clone());
        Ok(found)
    }

    fn push_marked(&mut self, artifact: bool, actual: Option<String>, layer_off: bool, mcid: i64) {
        if self.marked.len() >= 256 {
            return;
        }
        if mcid >= 0 {
            self.mcid = mcid;
        }
        if artifact {
            self.artifact_depth += 1;
        }
        if actual.is_some() {
            self.actual_depth += 1;
        }
        if layer_off {
            self.layer_off += 1;
        }
        self.marked.push(Marked {
            artifact,
            actual,
            layer_off,
            mcid,
            emitted: false,
        });
    }

    fn emc(&mut self) {
        if let Some(marked) = self.marked.pop() {
            if marked.mcid >= 0 {
                self.mcid = self
                    .marked
                    .iter()
                    .rev()
                    .map(|m| m.mcid)
                    .find(|&m| m >= 0)
                    .unwrap_or(-1);
            }
            if marked.artifact {
                self.artifact_depth -= 1;
            }
            if marked.actual.is_some() {
                self.actual_depth -= 1;
            }
            if marked.layer_off {
                self.layer_off -= 1;
            }
        }
    }

    // --- XObjects and images -------------------------------------------------------------

    fn unit_square(&self) -> [f64; 4] {
        let [a, b, c, d, e, f] = self.gs.get().ctm;
        let xs = [e, a + e, c + e, a + c + e];
        let ys = [f, b + f, d + f, b + d + f];
        [py_min(&xs), py_min(&ys), py_max(&xs), py_max(&ys)]
    }

    /// The CTM's linear part `[a, b, c, d]`: how the image's unit square is turned.
    fn linear(&self) -> [f64; 4] {
        let [a, b, c, d, _, _] = self.gs.get().ctm;
        [a, b, c, d]
    }

    fn inline_image(&mut self, ops: &[Val]) -> HResult<()> {
        let params = match ops.first() {
            None => Vec::new(),
            Some(Val::Dict(items)) => items.clone(),
            Some(_) => return Ok(()),
        };
        if self.layer_off != 0 {
            return Ok(());
        }
        // `inline_placement` keeps `image[:MAX_INLINE_IMAGE]`: no more is copied (a Form
        // XObject drawn many times would otherwise hold its image's whole data each time).
        let keep = usize::try_from(self.limits.budget.max_inline_image).unwrap_or(usize::MAX);
        let data = match ops.get(1) {
            Some(Val::Str(bytes)) => copy(&bytes[..bytes.len().min(keep)]),
            _ => Vec::new(),
        };
        self.count_image()?;
        let budget = self.limits.budget;
        self.inline_bytes += (data.len() as u64).min(budget.max_inline_image);
        if self.inline_bytes > budget.max_inline_bytes {
            return Err(HErr::Stop(Stop::Timeout(format!(
                "more than {} bytes of inline images on the page",
                budget.max_inline_bytes
            ))));
        }
        let bbox = self.unit_square();
        let solid = !matches!(dict_get(&params, b"ImageMask"), Some(Val::Bool(true)));
        let linear = self.linear();
        push(&mut self.images, Image::Inline(params, data, bbox, linear));
        let square = self.square();
        self.paint_area(bbox, None, "image", square, solid);
        Ok(())
    }

    fn xobject(&mut self, name: &[u8]) -> HResult<Rc<XObject>> {
        let key = (self.scope, name.to_vec());
        if let Some(hit) = self.xobject_cache.get(&key) {
            return Ok(Rc::clone(hit));
        }
        let found = self
            .resolver
            .call_method1("xobject", (self.scope, name_str(name)))
            .map_err(|e| self.py_error(e))?;
        let value = Rc::new(self.read_xobject(&found).map_err(|e| self.py_error(e))?);
        self.xobject_cache.insert(key, Rc::clone(&value));
        Ok(value)
    }

    fn read_xobject(&self, found: &Bound<'py, PyAny>) -> PyResult<XObject> {
        if found.is_none() {
            return Ok(XObject::None);
        }
        let tuple = found.downcast::<PyTuple>()?;
        let kind: String = tuple.get_item(0)?.extract()?;
        if kind == "image" {
            return Ok(XObject::Image(
                tuple.get_item(1)?.extract()?,
                tuple.get_item(2)?.extract()?,
                tuple.get_item(3)?.extract()?,
            ));
        }
        let matrix: Option<Vec<f64>> = tuple.get_item(4)?.extract()?;
        let bbox: Option<Vec<f64>> = tuple.get_item(5)?.extract()?;
        Ok(XObject::Form {
            key: tuple.get_item(1)?.extract()?,
            data: tuple.get_item(2)?.extract()?,
            error: tuple.get_item(3)?.extract()?,
            matrix: matrix
                .filter(|m| m.len() == 6)
                .map(|m| [m[0], m[1], m[2], m[3], m[4], m[5]]),
            bbox: bbox
                .filter(|b| b.len() == 4)
                .map(|b| [b[0], b[1], b[2], b[3]]),
            scope: tuple.get_item(6)?.extract()?,
            off: tuple.get_item(7)?.extract()?,
        })
    }

    fn do_xobject(&mut self, ops: &[Val]) -> HResult<()> {
        let name = ops.last().ok_or_else(index_error)?;
        let Val::Name(name) = name else {
            return Ok(());
        };
        let found = self.xobject(name)?;
        match &*found {
            XObject::None => Ok(()),
            XObject::Image(info, solid, off) => {
                if *off || self.layer_off != 0 {
                    return Ok(());
                }
                self.count_image()?;
                let bbox = self.unit_square();
                let linear = self.linear();
                push(&mut self.images, Image::XObject(*info, bbox, linear));
                let square = self.square();
                self.paint_area(bbox, None, "image", square, *solid);
                Ok(())
            }
            XObject::Form {
                key,
                data,
                error,
                matrix,
                bbox,
                scope,
                off,
            } => {
                let data = data.as_ref().map(|d| d.bind(self.py).clone());
                let off = i64::from(*off);
                self.layer_off += off;
                let result = self.form(*key, data, error.clone(), *matrix, *bbox, *scope);
                self.layer_off -= off;
                result
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn form(
        &mut self,
        key: i64,
        data: Option<Bound<'py, PyBytes>>,
        error: Option<String>,
        matrix: Option<Matrix>,
        bbox: Option<[f64; 4]>,
        scope: Option<i64>,
    ) -> HResult<()> {
        if self.form_stack.contains(&key) {
            self.problem("a Form XObject draws itself (cycle skipped)".to_owned());
            return Ok(());
        }
        if self.form_stack.len() >= self.limits.max_form_depth {
            let depth = self.limits.max_form_depth;
            self.problem(format!("Form XObjects nested deeper than {depth}"));
            return Ok(());
        }
        self.forms += 1;
        if self.forms > self.limits.max_form_invocations {
            return Err(HErr::Stop(Stop::Timeout(format!(
                "more than {} Form XObjects on the page",
                self.limits.max_form_invocations
            ))));
        }
        if let Some(error) = error {
            self.problem(format!("a Form XObject cannot be decoded: {error}"));
            self.incomplete = true;
            return Ok(());
        }
        let Some(data) = data else {
            return Ok(());
        };
        let bytes = data.as_bytes();
        if bytes.is_empty() {
            return Ok(());
        }
        self.content(bytes.len())?;
        let saved_gs = Rc::clone(&self.gs);
        let saved_scope = self.scope;
        let (saved_tm, saved_tlm) = (self.tm, self.tlm);
        self.stack.push(Rc::clone(&saved_gs));
        self.gs = Rc::new(Cell::new(saved_gs.get()));
        if let Some(m) = matrix {
            let value = mult(&m, &self.gs.get().ctm);
            self.set_gs(|g| g.ctm = value);
        }
        if let Some([x0, y0, x1, y1]) = bbox {
            self.path_box = None;
            for (px, py) in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)] {
                let p = self.point(px, py);
                self.extend(p.0, p.1);
            }
            if let Some(b) = self.path_box {
                // The form's box clips it: a rectangle, as if drawn by `re`.
                self.path_rects = vec![b];
                self.path_other = false;
            }
            self.pending_clip = true;
            self.paint(false, false, false);
        }
        self.scope = scope.unwrap_or(saved_scope);
        self.form_stack.push(key);
        let depth = self.stack.len();
        let marked = self.marked.len();
        let result = self.execute(bytes);
        self.form_stack.pop();
        self.stack.truncate(depth - 1);
        while self.marked.len() > marked {
            self.emc();
        }
        self.gs = saved_gs;
        self.scope = saved_scope;
        self.tm = saved_tm;
        self.tlm = saved_tlm;
        result.map_err(HErr::Stop)
    }

    // --- the answer ----------------------------------------------------------------------

    /// `(runs, looks, paints, painted_full, images, rules, (paths, glyphs, unmapped, ops),
    /// unmapped_boxes, problems, incomplete, stop)`: every run drawn and how (`visibility.Look` fields),
    /// every area painted (`visibility.Paint` fields), for `visibility.sort_runs`.
    ///
    /// Each run, text and image is let go of once it is made a Python object, so the page is
    /// not held twice (a page of large inline images, or of much text, would be).
    pub fn into_py(mut self, stop: Option<Stop>) -> PyResult<Py<PyAny>> {
        let py = self.py;
        // The page's `TextRun`s, made here as `native_page` would make them from tuples.
        let text_run = self.resolver.getattr(pyo3::intern!(py, "text_run"))?;
        let runs = PyList::empty(py);
        let looks = PyList::empty(py);
        for (run, look) in std::mem::take(&mut self.drawn) {
            let font = self.fonts[run.font].get();
            let args = PyTuple::new(
                py,
                [
                    run.text.as_str().into_pyobject(py)?.into_any(),
                    PyFloat::new(py, run.bbox[0]).into_any(),
                    PyFloat::new(py, run.bbox[1]).into_any(),
                    PyFloat::new(py, run.bbox[2]).into_any(),
                    PyFloat::new(py, run.bbox[3]).into_any(),
                    PyFloat::new(py, round2(run.size)).into_any(),
                    font.name.bind(py).clone().into_any(),
                    PyBool::new(py, run.bold).to_owned().into_any(),
                    PyBool::new(py, run.italic).to_owned().into_any(),
                    run.direction.into_pyobject(py)?.into_any(),
                    PyBool::new(py, run.artifact).to_owned().into_any(),
                    PyBool::new(py, false).to_owned().into_any(),
                    run.seq.into_pyobject(py)?.into_any(),
                    run.mcid.into_pyobject(py)?.into_any(),
                    "".into_pyobject(py)?.into_any(),
                    PyBool::new(py, run.joined).to_owned().into_any(),
                    PyBool::new(py, run.space_after).to_owned().into_any(),
                ],
            )?;
            runs.append(text_run.call1(args)?)?;
            looks.append((
                look.mode,
                look.fill.map(|c| (c[0], c[1], c[2])),
                look.stroke.map(|c| (c[0], c[1], c[2])),
                look.fill_alpha,
                look.stroke_alpha,
                look.clip.map(|c| (c[0], c[1], c[2], c[3])),
                look.layer_off,
                look.advance,
                look.glyphs,
            ))?;
        }
        let paints = PyList::empty(py);
        for p in &self.paints {
            paints.append((
                p.after,
                (p.bbox[0], p.bbox[1], p.bbox[2], p.bbox[3]),
                p.colour.map(|c| (c[0], c[1], c[2])),
                p.alpha,
                p.normal,
                p.solid,
                p.exact,
                p.kind,
            ))?;
        }
        let images = PyList::empty(py);
        for image in std::mem::take(&mut self.images) {
            match image {
                Image::XObject(info, b, m) => {
                    images.append((
                        "x",
                        info,
                        (b[0], b[1], b[2], b[3]),
                        (m[0], m[1], m[2], m[3]),
                    ))?;
                }
                Image::Inline(params, data, b, m) => {
                    let params = to_py(py, &Val::Dict(params))?;
                    images.append((
                        "i",
                        (params, PyBytes::new(py, &data)),
                        (b[0], b[1], b[2], b[3]),
                        (m[0], m[1], m[2], m[3]),
                    ))?;
                }
            }
        }
        // One float object per distinct coordinate: rules share their ends (a rectangle's
        // four edges, a table's grid), and the Python interpreter's rule tuples share the
        // very objects, so its pages hold no more memory than these.
        let rules = PyList::empty(py);
        let mut floats: HashMap<u64, Bound<'_, PyFloat>> = HashMap::new();
        for r in &self.rules {
            let mut item = Vec::with_capacity(4);
            for v in r {
                let obj = floats
                    .entry(v.to_bits())
                    .or_insert_with(|| PyFloat::new(py, *v));
                item.push(obj.clone());
            }
            rules.append(PyTuple::new(py, item)?)?;
        }
        let unmapped_boxes = PyList::empty(py);
        for (b, n) in &self.unmapped_boxes {
            unmapped_boxes.append(((b[0], b[1], b[2], b[3]), *n))?;
        }
        let stop: Py<PyAny> = match stop {
            None => py.None(),
            Some(Stop::Timeout(message)) => {
                ("timeout", message).into_pyobject(py)?.into_any().unbind()
            }
            Some(Stop::Error(err)) => ("error", err.value(py).clone())
                .into_pyobject(py)?
                .into_any()
                .unbind(),
        };
        let out = (
            runs,
            looks,
            paints,
            self.painted_full,
            images,
            rules,
            (self.paths, self.glyphs, self.unmapped, self.ops),
            unmapped_boxes,
            self.problems,
            self.incomplete,
            stop,
        );
        Ok(out.into_pyobject(py)?.into_any().unbind())
    }
}

/// Piece re-exported for the tests of `font`.
#[allow(dead_code)]
fn _piece(text: &str) -> Piece {
    Piece::new(text)
}

/// `interpreter.MAX_TILT` and `interpreter.MAX_SLANT`: how far a run's advance may lean off an
/// axis, and its glyphs' "up" off the baseline's normal (an oblique or synthetic italic).
const MAX_TILT: f64 = 0.05;
const MAX_SLANT: f64 = 0.58;

/// `interpreter.quarter_turn`: 0 upright, 3/4/5 turned a quarter/half/three quarters
/// clockwise, 2 anything else.
fn quarter_turn(run_x: f64, run_y: f64, up_x: f64, up_y: f64) -> u8 {
    if run_x > 0.0
        && run_y.abs() <= MAX_TILT * run_x
        && up_y < 0.0
        && up_x.abs() <= MAX_SLANT * -up_y
    {
        0
    } else if run_y > 0.0
        && run_x.abs() <= MAX_TILT * run_y
        && up_x > 0.0
        && up_y.abs() <= MAX_SLANT * up_x
    {
        3
    } else if run_x < 0.0
        && run_y.abs() <= MAX_TILT * -run_x
        && up_y > 0.0
        && up_x.abs() <= MAX_SLANT * up_y
    {
        4
    } else if run_y < 0.0
        && run_x.abs() <= MAX_TILT * -run_y
        && up_x < 0.0
        && up_y.abs() <= MAX_SLANT * -up_x
    {
        5
    } else {
        2
    }
}

/// `visibility.rgb`: the sRGB estimate of `values` in a space of `components` (1 grey,
/// 3 RGB, 4 CMYK), each clamped to 0-1 as Python's `min(max(v, 0.0), 1.0)` clamps it.
fn rgb(values: &[Val], components: i64) -> Option<Rgb> {
    if !matches!(components, 1 | 3 | 4) || values.len() as i64 != components {
        return None;
    }
    let mut out = [0.0f64; 4];
    for (slot, v) in out.iter_mut().zip(values) {
        let Val::Num(x) = v else {
            return None;
        };
        *slot = py_min(&[py_max(&[*x, 0.0]), 1.0]);
    }
    Some(match components {
        1 => [out[0], out[0], out[0]],
        3 => [out[0], out[1], out[2]],
        _ => {
            let [c, m, y, k] = out;
            [
                (1.0 - c) * (1.0 - k),
                (1.0 - m) * (1.0 - k),
                (1.0 - y) * (1.0 - k),
            ]
        }
    })
}

/// Whether a kern of the `TJ` array takes back `share` of the character spacing `tc` or
/// more (font size `fs`): `interpreter._takes_back`.
fn takes_back(items: &[Val], tc: f64, fs: f64, share: f64) -> bool {
    items
        .iter()
        .any(|item| matches!(item, Val::Num(x) if *x * fs / 1000.0 >= share * tc))
}

/// The `TJ` array with each string cut into its glyphs and the displacement `gap` (a kern,
/// in thousandths of an em) after each glyph, added to the kern that follows; and the last
/// glyph's `gap` when no kern follows it: `interpreter._glyph_by_glyph`.
fn glyph_by_glyph(items: &[Val], font: &Font, gap: f64) -> (Vec<Val>, f64) {
    let mut out: Vec<Val> = Vec::with_capacity(items.len() * 2);
    // Whether `out` ends with a glyph's gap no kern was added to.
    let mut bare = false;
    for item in items {
        match item {
            Val::Str(bytes) => {
                for glyph in font.glyph_bytes(bytes) {
                    out.push(Val::Str(glyph.to_vec()));
                    out.push(Val::Num(gap));
                    bare = true;
                }
            }
            Val::Num(x) => {
                if let Some(Val::Num(last)) = out.last_mut() {
                    *last += *x;
                } else {
                    out.push(Val::Num(*x));
                }
                bare = false;
            }
            _ => {}
        }
    }
    if bare {
        if let Some(Val::Num(last)) = out.pop() {
            return (out, last);
        }
    }
    (out, 0.0)
}
