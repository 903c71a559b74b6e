//! `.aocx` reading on arbitrary bytes: never panics; whatever reads back re-encodes to a
//! container that reads back equal.
#![no_main]
use fpgacl_kernel_compiler::aocx;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(a) = aocx::read(data) {
        let again = aocx::read(&aocx::write(&a)).expect("re-encoded container reads back");
        assert_eq!(a, again);
    }
});
