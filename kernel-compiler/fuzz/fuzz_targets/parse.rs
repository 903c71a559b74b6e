//! Preprocess, parse, type-check and lower arbitrary text (no `catch_unwind`, so a panic in
//! any stage is found). Enabled by the `parse` bin in ../Cargo.toml once the parser is in.
#![no_main]
use fpgacl_kernel_compiler::preprocess::{preprocess, MapResolver, PpOptions};
use fpgacl_kernel_compiler::{Diagnostics, SourceMap};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut sm = SourceMap::default();
    let main = sm.add("fuzz.cl", text.as_ref());
    let mut d = Diagnostics::default();
    let toks = preprocess(main, &mut sm, &PpOptions::default(), &MapResolver::default(), &mut d);
    if d.has_errors() {
        return;
    }
    let tu = fpgacl_kernel_compiler::parse::parse(&toks, &mut d);
    if !d.has_errors() {
        let _ = fpgacl_kernel_compiler::lower::lower(&tu, &mut d);
    }
    let _ = d.render(&sm);
});
