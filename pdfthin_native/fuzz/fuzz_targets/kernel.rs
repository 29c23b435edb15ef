//! Any bytes into the font and stream kernels that need no Python: a TrueType program's
//! `cmap` (never more codes than its bound), an Adobe collection's packed table, UTF-16
//! text, and inflate (never more output than its limits). None of them panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdfthin_native::fontload::{read_cid_table, utf16};
use pdfthin_native::inflate::inflated;
use pdfthin_native::truetype::{read_cmaps, MAX_CODES};

fuzz_target!(|data: &[u8]| {
    if let Some(mapping) = read_cmaps(data) {
        // one subtable's codes: its segments and groups within the bound, or a format 0
        // or 6 table (at most 65,536 codes)
        assert!(mapping.len() as u64 <= MAX_CODES.max(1 << 16));
    }
    let _ = read_cid_table(data);
    let _ = utf16(data);
    // the first two bytes choose the limits
    let limit = usize::from(data.first().copied().unwrap_or(0)) * 64;
    let budget = usize::from(data.get(1).copied().unwrap_or(0)) * 256;
    let rest = data.get(2..).unwrap_or_default();
    if let Some(n) = inflated(rest, limit, budget, <[u8]>::len) {
        assert!(n <= budget && (limit == 0 || n < limit));
    }
});
