//! `inflate`: pypdf's `_decompress_with_limit` (`zlib.decompressobj().decompress(data,
//! max_length=limit)`) for the streams zlib decodes whole, with zlib-rs, zlib's inflate in
//! Rust. Inflating a valid zlib stream has one answer, so where zlib-rs reaches the stream's
//! end without an error the bytes are zlib's; anything else (an error, a stream cut short, a
//! preset dictionary, more output than the limits allow) is `None`, and pypdf decodes it
//! with its own fallbacks and errors.

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use zlib_rs::inflate::{uncompress, InflateConfig};
use zlib_rs::ReturnCode;

/// `inflate(data, limit, budget)`: the inflated `data` if it is a whole zlib stream (what
/// follows its end is ignored, as `decompressobj` leaves it in `unused_data`) of fewer than
/// `limit` bytes (`0`: no limit) and at most `budget` bytes; else `None`.
///
/// The GIL is released while zlib-rs inflates: `data` is an immutable `bytes` object's
/// buffer and the output is a Rust vector, so no Python object is touched until the answer
/// is made, and other threads (other pages) run meanwhile.
#[pyfunction]
pub fn inflate<'py>(
    py: Python<'py>,
    data: &[u8],
    limit: usize,
    budget: usize,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    crate::boundary::guard("inflate", || {
        let out = py.allow_threads(|| inflated(data, limit, budget, <[u8]>::to_vec));
        Ok(out.map(|bytes| PyBytes::new(py, &bytes)))
    })
}

/// What [`inflate`] answers, made by `make` from the inflated bytes (never more than the
/// limits allow: at most `budget`, and fewer than `limit` unless it is `0`).
pub fn inflated<T>(
    data: &[u8],
    limit: usize,
    budget: usize,
    make: impl FnOnce(&[u8]) -> T,
) -> Option<T> {
    let most = if limit == 0 {
        budget
    } else {
        budget.min(limit - 1)
    };
    let mut size = data.len().saturating_mul(4).saturating_add(4096).min(most);
    loop {
        // Each try inflates into fresh, unwritten capacity (pages the output never reaches
        // are never touched); one that cannot be had is pypdf's to decode.
        let mut out: Vec<u8> = Vec::new();
        out.try_reserve_exact(size).ok()?;
        let room = &mut out.spare_capacity_mut()[..size];
        let (got, code) = uncompress(room, data, InflateConfig::default());
        match code {
            ReturnCode::Ok => return Some(make(got)),
            // the output did not fit: a larger buffer, up to what the limits allow
            ReturnCode::BufError if size < most => {
                size = size.saturating_mul(2).min(most);
            }
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use zlib_rs::inflate::{uncompress_slice, InflateConfig};
    use zlib_rs::ReturnCode;

    // "hello hello hello" deflated by zlib (level 6)
    const HELLO: &[u8] = b"x\x9c\xcbH\xcd\xc9\xc9W\xc8@\x90\x00:.\x06}";

    #[test]
    fn whole_cut_and_trailing() {
        let mut out = vec![0u8; 64];
        let (got, code) = uncompress_slice(&mut out, HELLO, InflateConfig::default());
        assert_eq!(code, ReturnCode::Ok);
        assert_eq!(got, b"hello hello hello");
        let mut trailing = HELLO.to_vec();
        trailing.extend_from_slice(b"\r\n garbage");
        let (got, code) = uncompress_slice(&mut out, &trailing, InflateConfig::default());
        assert_eq!((got.len(), code), (17, ReturnCode::Ok));
        let (_, code) = uncompress_slice(
            &mut out,
            &HELLO[..HELLO.len() - 3],
            InflateConfig::default(),
        );
        assert_ne!(code, ReturnCode::Ok);
        let mut small = vec![0u8; 5];
        let (_, code) = uncompress_slice(&mut small, HELLO, InflateConfig::default());
        assert_eq!(code, ReturnCode::BufError);
    }
}
