//! Any bytes: the lexer ends, never panics, and every operand structure stays bounded; a
//! lexer resumed where the last one stood after each operation (what `tokenize` does between
//! two of Python's `next()`) makes the same operations.
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
    let mut whole = Lexer::new(data);
    let mut pos = 0;
    while let Some(item) = whole.next() {
        let mut resumed = Lexer::resume(data, pos);
        let again = resumed.next().expect("the same operation");
        pos = resumed.position();
        assert_eq!(pos, whole.position());
        match (item, again) {
            (Ok(a), Ok(b)) => {
                assert_eq!(whole.op_bytes(&a.op), resumed.op_bytes(&b.op));
                assert_eq!(a.operands, b.operands);
            }
            (Err(a), Err(b)) => assert_eq!(a, b),
            _ => panic!("a resumed lexer disagrees"),
        }
    }
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
