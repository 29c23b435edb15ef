//! The boundary between Python and this module: every function and method Python can call
//! runs its body inside [`guard`], which turns a Rust panic into the ordinary Python
//! exception [`NativeFault`] (an `Exception`), so that it never reaches Python as PyO3's
//! `PanicException` (a `BaseException` that `except Exception` does not catch, and that
//! would end a server). The Python side (`pdfthin/engine/_native.py`) catches it where it
//! calls, and lets its own code give the answer.
//!
//! An allocation Rust cannot make aborts the process instead of panicking; allocations whose
//! size comes from the input are bounded by the input or by the Python side's limits, and
//! those the input can multiply (a page's text, runs and images) or that are as large as a
//! stream are made with `try_reserve` ([`push`], [`push_text`], [`copy`]), which turns a
//! failure into a panic.
//!
//! [`_fail_at`] is for the tests: it arms a deliberate panic at the entry of guarded
//! functions, so that a test can prove that a panic anywhere becomes `NativeFault` there.
//! [`_panics`] counts the others: since the Python side answers in their place, the answer
//! stays right, and the differential tests ask this count to see that none happened.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use pyo3::prelude::*;

pyo3::create_exception!(
    pdfthin_native,
    NativeFault,
    pyo3::exceptions::PyException,
    "A failure inside the native code itself (a Rust panic), never the input's: the caller \
     lets the pure-Python code answer instead."
);

/// Whether a deliberate panic is armed (read on every call; the lock only when it is).
static ARMED: AtomicBool = AtomicBool::new(false);
/// The entry points armed, and those where a deliberate panic fired since [`_fail_at`] last
/// answered.
static PROBE: Mutex<(Vec<String>, Vec<String>)> = Mutex::new((Vec::new(), Vec::new()));

/// Panics caught that were not deliberate.
static PANICS: AtomicU64 = AtomicU64::new(0);

/// The payload of a deliberate panic.
struct Deliberate;

/// Panics, on purpose, when [`_fail_at`] armed `entry`.
fn probe(entry: &str) {
    if !ARMED.load(Ordering::Relaxed) {
        return;
    }
    let fire = {
        let mut state = PROBE.lock().unwrap_or_else(|e| e.into_inner());
        let fire = state.0.iter().any(|armed| armed == entry);
        if fire {
            state.1.push(entry.to_owned());
        }
        fire
    };
    if fire {
        std::panic::panic_any(Deliberate);
    }
}

/// What a panic said.
fn message(payload: &(dyn std::any::Any + Send)) -> &str {
    if payload.is::<Deliberate>() {
        "a deliberate panic (pdfthin_native._fail_at)"
    } else if let Some(text) = payload.downcast_ref::<&str>() {
        text
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text
    } else {
        "a panic"
    }
}

/// `body()`, with a panic inside it (at any depth) answered as `NativeFault("entry: ...")`.
pub fn guard<T>(entry: &'static str, body: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(|| {
        probe(entry);
        body()
    })) {
        Ok(answer) => answer,
        Err(payload) => {
            if !payload.is::<Deliberate>() {
                PANICS.fetch_add(1, Ordering::Relaxed);
            }
            Err(NativeFault::new_err(format!(
                "{entry}: {}",
                message(payload.as_ref())
            )))
        }
    }
}

/// `vec.push(item)`, its growth made a panic (which [`guard`] answers) where it cannot be had,
/// rather than the abort an infallible allocation would be: for what a page accumulates as
/// long as its operations go on (its runs, images, hidden text).
pub fn push<T>(vec: &mut Vec<T>, item: T) {
    if let Err(err) = vec.try_reserve(1) {
        panic!("cannot allocate room for {} more items: {err}", vec.len());
    }
    vec.push(item);
}

/// `bytes.to_vec()`, made a panic (which [`guard`] answers) where the room cannot be had: for
/// a copy as large as a stream (an inline image's data).
pub fn copy(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    if let Err(err) = out.try_reserve_exact(bytes.len()) {
        panic!("cannot allocate {} bytes: {err}", bytes.len());
    }
    out.extend_from_slice(bytes);
    out
}

/// `text.push_str(more)`, growing `text` with [`reserve_text`]: for text whose size the input
/// multiplies (one glyph may map to a long text).
pub fn push_text(text: &mut String, more: &str) {
    reserve_text(text, more.len());
    text.push_str(more);
}

/// Room for `additional` more bytes in `text`; a failure is made a panic (which [`guard`]
/// answers) rather than the abort an infallible allocation would be.
pub fn reserve_text(text: &mut String, additional: usize) {
    if let Err(err) = text.try_reserve(additional) {
        panic!("cannot allocate {additional} more bytes of text: {err}");
    }
}

/// `_fail_at(*entries)`: arm a deliberate panic at the entry of each guarded function or
/// method named (`"tokenize"`, `"Font.__new__"`, ...; none disarms); answers the entry points
/// where one fired since the last call, in order. For the tests only.
#[pyfunction]
#[pyo3(signature = (*entries))]
pub fn _fail_at(entries: Vec<String>) -> Vec<String> {
    let mut state = PROBE.lock().unwrap_or_else(|e| e.into_inner());
    ARMED.store(!entries.is_empty(), Ordering::Relaxed);
    state.0 = entries;
    std::mem::take(&mut state.1)
}

/// `_panics()`: how many panics that were not deliberate were answered as `NativeFault`
/// since the module was loaded. For the tests only.
#[pyfunction]
pub fn _panics() -> u64 {
    PANICS.load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_at_any_depth_is_a_fault() {
        pyo3::prepare_freethreaded_python();
        Python::with_gil(|py| {
            fn deep(n: usize) -> usize {
                if n == 0 {
                    let v: Vec<usize> = Vec::new();
                    // an index past the end, computed so the compiler cannot see it
                    return v[std::hint::black_box(3)];
                }
                deep(n - 1) + 1
            }
            let before = _panics();
            let err = guard("deep", || Ok(deep(10))).unwrap_err();
            assert!(_panics() > before);
            assert!(err.is_instance_of::<NativeFault>(py));
            let text = err.value(py).to_string();
            assert!(text.starts_with("deep: index out of bounds"), "{text}");
            assert_eq!(guard("fine", || Ok(7)).unwrap(), 7);
            let err = guard("error", || -> PyResult<()> {
                Err(pyo3::exceptions::PyValueError::new_err("bad"))
            })
            .unwrap_err();
            assert!(err.is_instance_of::<pyo3::exceptions::PyValueError>(py));
        });
    }

    #[test]
    fn the_probe_fires_where_armed() {
        pyo3::prepare_freethreaded_python();
        Python::with_gil(|py| {
            _fail_at(vec!["armed".to_owned(), "also".to_owned()]);
            assert_eq!(guard("other", || Ok(1)).unwrap(), 1);
            let err = guard("armed", || Ok(1)).unwrap_err();
            assert!(err.is_instance_of::<NativeFault>(py));
            assert_eq!(
                err.value(py).to_string(),
                "armed: a deliberate panic (pdfthin_native._fail_at)"
            );
            assert!(guard("also", || Ok(1)).is_err());
            assert_eq!(
                _fail_at(Vec::new()),
                vec!["armed".to_owned(), "also".to_owned()]
            );
            assert_eq!(guard("armed", || Ok(2)).unwrap(), 2);
            assert!(_fail_at(Vec::new()).is_empty());
        });
    }

    #[test]
    fn a_failed_reservation_is_a_fault() {
        pyo3::prepare_freethreaded_python();
        Python::with_gil(|py| {
            let mut text = String::from("abc");
            push_text(&mut text, "def");
            assert_eq!(text, "abcdef");
            let err = guard("huge", || {
                reserve_text(&mut text, usize::MAX / 2);
                Ok(())
            })
            .unwrap_err();
            assert!(err.is_instance_of::<NativeFault>(py));
            assert_eq!(text, "abcdef");
        });
    }
}
