//! Any bytes at any offset: the indirect-object parser ends, never panics, and what it
//! returns is bounded by its input (nesting by MAX_DEPTH, the end within the data).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdfthin_native::objects::{parse_indirect, Limits, Value, MAX_DEPTH};

fn depth(v: &Value) -> usize {
    match v {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Dict(items) | Value::Stream(items, _, _) => {
            1 + items.iter().map(|(_, v)| depth(v)).max().unwrap_or(0)
        }
        _ => 0,
    }
}

fuzz_target!(|data: &[u8]| {
    let limits = Limits {
        max_array: 64,
        max_dict: 64,
        max_stream: 1 << 20,
    };
    // the first byte chooses the offset, the header asked for is "1 0"
    let offset = usize::from(data.first().copied().unwrap_or(0)) % (data.len() + 2);
    if let Some((value, end)) = parse_indirect(data, offset, 1, 0, limits) {
        assert!(end <= data.len());
        assert!(depth(&value) <= MAX_DEPTH + 2);
        if let Value::Stream(_, start, stop) = value {
            assert!(start <= stop && stop <= end);
        }
    }
});
