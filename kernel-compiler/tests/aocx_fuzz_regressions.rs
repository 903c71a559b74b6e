//! `.aocx` inputs found by the `fuzz_aocx` loop (`runtime/examples/fuzz_aocx.rs`), kept in
//! `tests/corpus/aocx/`: each must read (or be refused with a message) without a panic, and
//! whatever reads must re-encode to a container that reads back the same.
//! `roundtrip-1/2.aocx` are remade in the shape the loop reported (the originals were lost to a
//! `.gitignore` rule): `fpgacl aoc -c` objects of a kernel with the literal `1.25f` / `3.5`
//! whose stored preprocessed float token was set to a NaN bit pattern, checksum recomputed.

use fpgacl_kernel_compiler::aocx;
use std::path::Path;

#[test]
fn fuzz_found_containers_read_and_reencode_the_same() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/aocx");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let bytes = std::fs::read(e.path()).unwrap();
        n += 1;
        let Ok(a) = aocx::read(&bytes) else { continue };
        let again = aocx::read(&aocx::write(&a)).expect("re-encoded container reads back");
        assert_eq!(
            format!("{a:?}"),
            format!("{again:?}"),
            "{}",
            e.path().display()
        );
        assert_eq!(
            aocx::write(&a),
            aocx::write(&again),
            "{}",
            e.path().display()
        );
    }
    assert!(n >= 2);
}

/// The two inputs the loop reported hold a floating-point literal token whose stored value is a
/// NaN bit pattern: `PartialEq` says NaN != NaN, the bytes and the contents round-trip exactly.
/// The loop's property now compares the re-encoded bytes.
#[test]
fn the_reported_differences_are_nan_literals() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/aocx");
    for name in ["roundtrip-1.aocx", "roundtrip-2.aocx"] {
        let a = aocx::read(&std::fs::read(dir.join(name)).unwrap()).expect(name);
        assert!(format!("{a:?}").contains("NaN"), "{name}");
    }
}
