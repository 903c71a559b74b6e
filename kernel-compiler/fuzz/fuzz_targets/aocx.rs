//! `.aocx` reading on arbitrary bytes: never panics; whatever reads back re-encodes to a
//! container that encodes to the same bytes (compared as bytes: a stored float literal may be
//! a NaN, and NaN != NaN).
#![no_main]
use fpgacl_kernel_compiler::aocx;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(a) = aocx::read(data) {
        let bytes = aocx::write(&a);
        let again = aocx::read(&bytes).expect("re-encoded container reads back");
        assert!(aocx::write(&again) == bytes);
    }
});
