//! The lexer on arbitrary text: never panics, locations are 1-based, ends with Eof.
#![no_main]
use fpgacl_kernel_compiler::lexer::lex;
use fpgacl_kernel_compiler::token::TokenKind;
use fpgacl_kernel_compiler::{Diagnostics, FileId};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut d = Diagnostics::default();
    let toks = lex(FileId(0), &text, &mut d);
    assert!(matches!(toks.last().map(|t| &t.kind), Some(TokenKind::Eof)));
    for t in &toks {
        assert!(t.loc.line >= 1 && t.loc.col >= 1);
    }
});
