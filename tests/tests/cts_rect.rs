//! Issue 14 (`basic bufferreadwriterect`, "clEnqueueCopyBufferRect failed"): `tests/hosts/cts_rect.c`
//! re-creates the conformance test step for step (its MT19937 generator, seed 0 by default, its
//! shapes from `CL_DEVICE_MAX_MEM_ALLOC_SIZE`, its operations and checks), through the ICD
//! loader.
//!
//! What was found: the suite's newer versions pass pitches of 0 for the rect commands. With
//! fpgacl's 1 GiB allocation limit, seed 0 gives exactly the run of KhronosGroup/OpenCL-CTS#2765
//! (same 8 buffer shapes; operation 1 is a copy inside buffer 1 with row pitch 438 and slice
//! pitch 0). The suite's own overlap check is given the 0, so it lets the copy through, but
//! with the slice pitch resolved (5 x 438) the two rectangles share 41106 bytes: the
//! specification requires `CL_MEM_COPY_OVERLAP`, which fpgacl (and PoCL 3.1) return, and the
//! suite prints "clEnqueueCopyBufferRect failed between 1 and 1". That is the suite's bug
//! (upstream #2765, open; fix proposed in #2801), not fpgacl's. The replay tests pin both
//! upstream-reported calls; the zero-pitch variant checks that fpgacl refuses a copy inside one
//! buffer exactly when the rectangles share a byte.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use fpgacl_host_examples::Compiler;
use fpgacl_tests::{
    example_command, fpgacl_lib_dir, hermetic_command, profile_dir, run_with_timeout,
    workspace_root, Implementation, Linkage, RunOutput, DEFAULT_TIMEOUT,
};

/// The host, compiled once per test process.
fn host() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let _ = fpgacl_lib_dir();
        let src = workspace_root().join("tests/hosts/cts_rect.c");
        let out_dir = profile_dir().join("host-examples").join("cts-rect");
        Compiler::new()
            .flag("-O2")
            .compile_source(&src, "cts_rect", &out_dir, &Linkage::IcdLoader)
            .unwrap_or_else(|e| panic!("cannot compile {}: {e}", src.display()))
    })
    .clone()
}

fn run_on(imp: Implementation, env: &[(&str, String)]) -> RunOutput {
    let bin = host();
    let mut cmd: Command = match imp {
        Implementation::Fpgacl => example_command(&bin, "cts_rect", &Linkage::IcdLoader),
        other => {
            let mut c = hermetic_command(&bin, &format!("cts_rect-{}", other.label()));
            other.configure(&mut c).expect("implementation available");
            c
        }
    };
    for (k, v) in env {
        cmd.env(k, v);
    }
    run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run cts_rect")
}

fn run(env: &[(&str, String)]) -> RunOutput {
    run_on(Implementation::Fpgacl, env)
}

fn assert_passed(out: &RunOutput, what: &str) {
    assert!(
        out.passed() && out.stdout.contains("PASS: cts_rect"),
        "{what}:\n{}",
        out.describe()
    );
}

/// `name=<n>` from the host's summary line.
fn figure(out: &RunOutput, name: &str) -> u64 {
    out.stdout
        .split_whitespace()
        .find_map(|w| w.strip_prefix(&format!("{name}=")))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name}= in\n{}", out.describe()))
}

fn env(pairs: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    pairs.iter().map(|(k, v)| (*k, v.to_string())).collect()
}

/// The suite's own run: seed 0, the shapes its formula gives for a 1 GiB allocation limit (the
/// shapes of upstream #2765's log), 50 operations, every buffer mapped and checked at the end.
#[test]
fn the_suites_seed_0_run_passes() {
    let out = run(&env(&[("RECT_VERBOSE", "1")]));
    assert_passed(&out, "seed 0");
    for shape in [
        "buffer 0 is 107x225x86",
        "buffer 1 is 438x353x408",
        "buffer 7 is 335x36x315",
    ] {
        assert!(out.stdout.contains(shape), "{shape}:\n{}", out.describe());
    }
    // The suite's first operation, as upstream logged it.
    assert!(
        out.stdout
            .contains("0 Read 5 offset (182,170,5) -> 7 offset (26,14,29) region (3x17x3 = 153)"),
        "{}",
        out.describe()
    );
    assert_eq!(figure(&out, "cl_errors"), 0);
    assert!(figure(&out, "copies") > 0 && figure(&out, "writes") > 0);
}

/// Many seeds of the suite's procedure on small shapes (width x height 1 makes slice pitch 0),
/// every buffer checked after every operation, and copies inside one buffer whose boxes share
/// bytes enqueued anyway: they must fail with `CL_MEM_COPY_OVERLAP`. Also non-blocking
/// commands with events, and `COPY_HOST_PTR` / `ALLOC_HOST_PTR` buffers.
#[test]
fn the_suites_procedure_over_many_small_seeds() {
    let mut probed = 0;
    for seed in 1..=30 {
        for dim in ["3", "8"] {
            let s = seed.to_string();
            let out = run(&env(&[
                ("RECT_SEED", &s),
                ("RECT_MAX_DIM", dim),
                ("RECT_TRIES", "200"),
                ("RECT_VERIFY_EACH", "1"),
                ("RECT_PROBE_OVERLAP", "1"),
            ]));
            assert_passed(&out, &format!("seed {seed}, dimension {dim}"));
            probed += figure(&out, "probed_overlaps");
        }
    }
    assert!(probed > 0, "no overlapping copy was probed");
    for (seed, extra) in [
        ("7", ("RECT_NONBLOCKING", "1")),
        ("8", ("RECT_FLAGS", "copy")),
        ("9", ("RECT_FLAGS", "alloc")),
    ] {
        let out = run(&env(&[
            ("RECT_SEED", seed),
            ("RECT_MAX_DIM", "24"),
            ("RECT_TRIES", "200"),
            extra,
        ]));
        assert_passed(&out, &format!("seed {seed}, {extra:?}"));
    }
}

/// Pitches of 0 on either side of copies, reads and writes (origins then lie beyond a row or a
/// slice): data right, and a copy inside one buffer refused exactly when the rectangles share a
/// byte (counted by the host on a byte map).
#[test]
fn zero_pitches_move_the_right_bytes_and_overlap_is_exact() {
    let mut refused = 0;
    let mut copies = 0;
    for seed in 1..=25 {
        for dim in ["3", "8", "24"] {
            let s = seed.to_string();
            let out = run(&env(&[
                ("RECT_SEED", &s),
                ("RECT_MAX_DIM", dim),
                ("RECT_TRIES", "200"),
                ("RECT_ZERO_PITCHES", "1"),
                ("RECT_VERIFY_EACH", "1"),
            ]));
            assert_passed(&out, &format!("zero pitches, seed {seed}, dimension {dim}"));
            refused += figure(&out, "refused_overlaps");
            copies += figure(&out, "copies");
        }
    }
    assert!(
        refused > 20 && copies > 1000,
        "{refused} refused of {copies}"
    );
    let out = run(&env(&[
        ("RECT_ZERO_PITCHES", "1"),
        ("RECT_NONBLOCKING", "1"),
        ("RECT_MAX_DIM", "64"),
    ]));
    assert_passed(&out, "zero pitches, non-blocking, seed 0");
}

/// The copy the suite's zero-pitch version makes at operation 1 of seed 0 (upstream #2765): the
/// rectangles share 41106 bytes, so `CL_MEM_COPY_OVERLAP` is the right answer, the buffer is left
/// as it was, and `FPGACL_LOG=info` explains the refusal.
#[test]
fn replay_of_the_suites_failing_copy_is_a_real_overlap() {
    let out = run(&env(&[("RECT_REPLAY", "cts2765"), ("FPGACL_LOG", "info")]));
    assert_passed(&out, "replay cts2765");
    assert!(
        out.stdout
            .contains("41106 shared bytes; returned CL_MEM_COPY_OVERLAP"),
        "{}",
        out.describe()
    );
    // With FPGACL_LOG=info the runtime says why, with the resolved slice pitch (5 x 438).
    assert!(
        out.stderr.lines().any(|l| l.contains("CL_MEM_COPY_OVERLAP")
            && l.contains("row pitch 438 and slice pitch 2190")
            && l.contains("given 438/0 and 438/0")),
        "{}",
        out.describe()
    );
}

/// The same-buffer copy pocl/pocl#2326 reports (row pitch 0, slice pitch 7620): no byte is
/// shared, so it must succeed, and the bytes land where the resolved pitches put them.
#[test]
fn replay_of_a_wrapping_copy_that_does_not_overlap_succeeds() {
    let out = run(&env(&[("RECT_REPLAY", "pocl2326")]));
    assert_passed(&out, "replay pocl2326");
    assert!(
        out.stdout.contains("0 shared bytes; returned CL_SUCCESS"),
        "{}",
        out.describe()
    );
}

/// The host itself on PoCL: the suite's procedure passes there too (small shapes), and the
/// replays compute the same shared-byte counts (PoCL's answers are printed, not asserted: PoCL
/// 3.1 refuses the non-overlapping pocl2326 copy, the known pocl/pocl#2326 behaviour). Skips
/// when PoCL is not installed.
#[test]
fn the_host_on_pocl() {
    if Implementation::Pocl.vendors().is_err() {
        eprintln!("SKIPPED: PoCL is not installed");
        return;
    }
    for seed in ["0", "1", "2"] {
        let out = run_on(
            Implementation::Pocl,
            &env(&[
                ("RECT_SEED", seed),
                ("RECT_MAX_DIM", "24"),
                ("RECT_TRIES", "100"),
            ]),
        );
        assert_passed(&out, &format!("PoCL, seed {seed}"));
    }
    for (which, shared) in [("cts2765", "41106"), ("pocl2326", "0")] {
        let out = run_on(Implementation::Pocl, &env(&[("RECT_REPLAY", which)]));
        let line = out
            .stdout
            .lines()
            .find(|l| l.starts_with("replay "))
            .unwrap_or_else(|| panic!("no replay line:\n{}", out.describe()));
        assert!(
            line.contains(&format!(": {shared} shared bytes;")),
            "{line}"
        );
        eprintln!("PoCL: {line}");
    }
}
