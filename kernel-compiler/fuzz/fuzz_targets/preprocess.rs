//! The preprocessor on arbitrary text. The input is split at NUL bytes: the first part is the
//! main file, the others are includable files `a.h`, `b.h`, ... Checks: no panic, output ends
//! with Eof, every token and diagnostic points into a file of the source map.
#![no_main]
use fpgacl_kernel_compiler::preprocess::{preprocess, MapResolver, PpOptions};
use fpgacl_kernel_compiler::token::TokenKind;
use fpgacl_kernel_compiler::{Diagnostics, SourceMap};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.split('\0');
    let main_text = parts.next().unwrap_or("");
    let mut resolver = MapResolver::default();
    for (i, p) in parts.take(8).enumerate() {
        let name = format!("{}.h", (b'a' + i as u8) as char);
        resolver.files.insert(name, p.to_string());
    }
    let mut sm = SourceMap::default();
    let main = sm.add("fuzz.cl", main_text);
    let mut d = Diagnostics::default();
    let toks = preprocess(main, &mut sm, &PpOptions::default(), &resolver, &mut d);
    assert!(matches!(toks.last().map(|t| &t.kind), Some(TokenKind::Eof)));
    let n = sm.files.len();
    for t in &toks {
        assert!((t.loc.file.0 as usize) < n && t.loc.line >= 1 && t.loc.col >= 1);
    }
    for x in &d.list {
        assert!((x.loc.file.0 as usize) < n, "{x:?}");
    }
    let _ = d.render(&sm);
});
