//! Any bytes at any offset: the indirect-object parser ends, never panics, and what it
//! returns is bounded by its input (nesting by MAX_DEPTH, the end within the data). The same
//! bytes as an object stream's data: its parser ends, never panics, never answers more
//! objects than /N, and never a stream. An object header there ends within the data, and
//! so do the entries of a cross-reference stream, never more than its subsections hold. A
//! classic cross-reference table ends within the data with at most one entry per 19 bytes,
//! an object read at any offset ends within the data, and so does the head of a stream whose
//! `endstream` is missing (its data's start, end and the whitespace after it in order).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdfthin_native::objects::{
    parse_indirect, parse_object_at, parse_object_header, parse_object_stream, parse_stream_head,
    parse_xref_entries, parse_xref_table, Limits, Value, MAX_DEPTH,
};

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
    // the second and third bytes choose /N and /First
    let n = usize::from(data.get(1).copied().unwrap_or(0)) % 8;
    let first = usize::from(data.get(2).copied().unwrap_or(0));
    if let Some(objects) = parse_object_stream(data, n, first, limits) {
        assert_eq!(objects.len(), n);
        for (_, value) in &objects {
            assert!(depth(value) <= MAX_DEPTH + 2);
            assert!(!matches!(value, Value::Stream(..)));
        }
    }
    if let Some((_, _, end)) = parse_object_header(data, offset) {
        assert!(end < data.len());
    }
    let widths = [
        i64::from(data.get(3).copied().unwrap_or(1) % 10) - 1,
        i64::from(data.get(4).copied().unwrap_or(2) % 10) - 1,
        i64::from(data.get(5).copied().unwrap_or(1) % 10) - 1,
    ];
    let pairs: Vec<i64> = data
        .iter()
        .skip(6)
        .take(5)
        .map(|&b| i64::from(b) - 8)
        .collect();
    if let Some((entries, end)) = parse_xref_entries(data, offset, widths, &pairs) {
        assert!(end <= data.len().max(offset));
        let held: i64 = pairs.chunks_exact(2).map(|p| p[1].max(0)).sum();
        assert!(entries.len() as i64 <= held);
    }
    if let Some((subsections, end)) = parse_xref_table(data, offset) {
        assert!(end <= data.len());
        let entries: usize = subsections.iter().map(|(_, e)| e.len()).sum();
        assert!(entries <= data.len() / 19);
    }
    if let Some((value, end)) = parse_object_at(data, offset, limits) {
        assert!(end <= data.len());
        assert!(depth(&value) <= MAX_DEPTH + 2);
    }
    if let Some(head) = parse_stream_head(data, offset, limits) {
        assert!(offset < head.start && head.start <= head.end);
        assert!(head.end <= head.after_whitespace && head.after_whitespace <= data.len());
        assert!(!data[head.after_whitespace..].starts_with(b"endstream"));
        assert!(depth(&Value::Dict(head.items)) <= MAX_DEPTH + 2);
    }
});
