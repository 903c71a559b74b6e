//! Build-option parsing on arbitrary text: never panics; accepted options round-trip `raw`.
#![no_main]
use fpgacl_kernel_compiler::options::BuildOptions;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    if let Ok(o) = BuildOptions::parse(&s) {
        assert_eq!(o.raw, s);
        let _ = o.pp_options();
    }
});
