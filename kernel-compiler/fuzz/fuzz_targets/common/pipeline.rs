//! The front end as `build()` runs it, minus `catch_unwind`: shared by the parse targets.
use fpgacl_kernel_compiler::lower::lower;
use fpgacl_kernel_compiler::parse::parse;
use fpgacl_kernel_compiler::preprocess::{preprocess, MapResolver, PpOptions};
use fpgacl_kernel_compiler::{Diagnostics, SourceMap};

/// Same stack as the compiler thread in `build()`.
const STACK: usize = 256 << 20;

/// Preprocesses, parses, type-checks and lowers `data` on a large-stack thread; a panic in
/// any stage propagates (libFuzzer reports it as a crash).
pub fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data).into_owned();
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let mut sm = SourceMap::default();
            let main = sm.add("fuzz.cl", text.as_str());
            let mut d = Diagnostics::default();
            let pp = PpOptions::default();
            let toks = preprocess(main, &mut sm, &pp, &MapResolver::default(), &mut d);
            if d.has_errors() {
                return;
            }
            let tu = parse(&toks, &mut d);
            if !d.has_errors() {
                let _ = lower(&tu, &mut d);
            }
            let _ = d.render(&sm);
        })
        .expect("spawn")
        .join()
        .expect("compiler thread panicked");
}
