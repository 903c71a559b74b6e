//! Issue 14 (`basic bufferreadwriterect`): the conformance suite's procedure as a C host
//! (`buffer_rect_random`) through the ICD loader: random rectangular copies (also inside one
//! buffer), reads and writes over 8 `CL_MEM_USE_HOST_PTR` buffers of random shapes, a host
//! mirror of each, every buffer mapped and compared at the end. Tiny shapes make width x height
//! 1 (slice pitch passed as 0); a large run uses shapes up to the suite's 511 per dimension.

use fpgacl_tests::{
    compile_example, example, example_command, fpgacl_lib_dir, run_with_timeout, Linkage,
    DEFAULT_TIMEOUT,
};

fn run(seed: u32, max_dim: u32, ops: u32) {
    let _ = fpgacl_lib_dir();
    let ex = example("buffer_rect_random").expect("example");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let mut cmd = example_command(&bin, "buffer_rect_random", &Linkage::IcdLoader);
    cmd.env("RECT_SEED", seed.to_string())
        .env("RECT_MAX_DIM", max_dim.to_string())
        .env("RECT_OPS", ops.to_string());
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run buffer_rect_random");
    assert!(
        out.passed() && out.stdout.contains("PASS: buffer_rect_random"),
        "seed {seed}, max dim {max_dim}: {}",
        out.describe()
    );
    // Every kind of operation ran.
    for what in ["copies=", "reads=", "writes="] {
        let n: u32 = out
            .stdout
            .split_whitespace()
            .find_map(|w| w.strip_prefix(what))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        assert!(n > 0, "no {what} in {}", out.stdout);
    }
}

#[test]
fn random_rect_transfers_match_the_host_mirror() {
    for seed in 1..=4 {
        run(seed, 48, 200);
    }
}

#[test]
fn tiny_shapes_with_slice_pitch_zero() {
    for seed in 1..=4 {
        run(seed, 2, 200);
    }
}

#[test]
fn shapes_as_large_as_the_conformance_suite_uses() {
    run(11, 511, 40);
}
