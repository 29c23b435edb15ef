//! Any bytes: the lexer ends, never panics, and every operand structure stays bounded.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdfthin_native::lexer::{Lexer, Val, MAX_NESTING};

fn depth(v: &Val) -> usize {
    match v {
        Val::Arr(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Val::Dict(items) => 1 + items.iter().map(|(_, v)| depth(v)).max().unwrap_or(0),
        _ => 0,
    }
}

fuzz_target!(|data: &[u8]| {
    let mut count = 0usize;
    for op in Lexer::new(data).flatten() {
        count += 1;
        assert!(count <= data.len() + 1);
        for v in &op.operands {
            assert!(depth(v) <= MAX_NESTING + 1);
            if let Val::Arr(items) = v {
                assert!(items.len() <= data.len());
            }
        }
    }
});
