//! Burst coalescing in the pipeline's issue order (rule M0, `device-model/src/timing/MODEL.md`)
//! end to end: the `grid_stride` C host runs through the ICD loader with the Intel profiling
//! environment; `profile.mon` must show the grid-stride copy (`for (i = gid; i < n; i +=
//! gsize)`) coalescing like the plain copy (100% efficiency, 16-word bursts), and the
//! grid-stride gather with a 64-byte stride across work-items wasting 15/16 of its words.

use fpgacl_profile_format::{read_profile, AccessKind, MemorySpace, Profile};
use fpgacl_tests::{
    compile_example, example, example_command, fpgacl_lib_dir, run_with_timeout, scratch_dir,
    Linkage, DEFAULT_TIMEOUT,
};

const N: u64 = 1 << 18;
const ITEMS: u64 = 4096;

fn run(scratch: &str) -> Profile {
    let _ = fpgacl_lib_dir();
    let ex = example("grid_stride").expect("grid_stride example");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let dir = scratch_dir(scratch);
    let _ = std::fs::remove_file(dir.join("profile.mon"));
    let mut cmd = example_command(&bin, "grid_stride", &Linkage::IcdLoader);
    cmd.current_dir(&dir)
        .env("GS_N", N.to_string())
        .env("GS_ITEMS", ITEMS.to_string())
        .env("ACL_RUNTIME_PROFILING_ACTIVE", "1");
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run grid_stride");
    assert!(out.success(), "{}", out.describe());
    let p = read_profile(dir.join("profile.mon")).unwrap_or_else(|e| panic!("{e}"));
    assert!(!p.truncated, "{:?}", p.warnings);
    p
}

/// Per kernel: (duration in cycles, [(efficiency %, average burst bytes, max burst bytes)] of
/// the global load, then the global store).
#[derive(Debug, PartialEq)]
struct Figures {
    cycles: u64,
    load: (f64, f64, u64),
    store: (f64, f64, u64),
}

fn figures(p: &Profile, kernel: &str) -> Figures {
    let runs: Vec<_> = p.kernel_runs().filter(|r| r.kernel == kernel).collect();
    assert_eq!(runs.len(), 1, "one run of {kernel}");
    let run = runs[0];
    let prog = p.program(run.program).expect("program");
    let site = |kind: AccessKind| {
        let s: Vec<_> = run
            .sites
            .iter()
            .filter(|s| {
                let a = prog.site(s.site).expect("site");
                a.kind == kind && a.memory == MemorySpace::Global
            })
            .collect();
        assert_eq!(s.len(), 1, "{kernel}: one global {kind:?}: {:?}", run.sites);
        let s = s[0];
        assert!(s.bursts > 0 && s.bytes_fetched > 0, "{s:?}");
        (
            100.0 * s.bytes_requested as f64 / s.bytes_fetched as f64,
            s.burst_bytes as f64 / s.bursts as f64,
            s.max_burst_bytes,
        )
    };
    Figures {
        cycles: run.end_cycle - run.start_cycle,
        load: site(AccessKind::Load),
        store: site(AccessKind::Store),
    }
}

#[test]
fn grid_stride_copy_coalesces_like_the_plain_copy() {
    let p = run("grid-stride");
    let plain = figures(&p, "copy_plain");
    let stride = figures(&p, "copy_stride");
    let gather = figures(&p, "gather_stride");
    eprintln!("plain {plain:?}\ngrid-stride {stride:?}\ngather {gather:?}");
    // Work-groups of 256 4-byte accesses: 16 whole 64-byte words per group and per
    // iteration, one 16-word burst (1024 B).
    let full = (100.0, 1024.0, 1024);
    assert_eq!((plain.load, plain.store), (full, full));
    assert_eq!((stride.load, stride.store), (full, full));
    // The same bytes at the same bandwidth: the grid-stride copy's loop adds at most 10%.
    assert!(
        stride.cycles >= plain.cycles && stride.cycles * 10 <= plain.cycles * 11,
        "{} vs {}",
        stride.cycles,
        plain.cycles
    );
    // 64 bytes between consecutive work-items' loads: one word per 4-byte load.
    assert_eq!(gather.load, (6.25, 1024.0, 1024));
    assert_eq!(gather.store, full);
    // Static coalescing (rule M0'): 16 unrolled copies per work-item are one 64-byte access;
    // consecutive work-items are consecutive words, as in the plain copy. One request per
    // work-item.
    let rows = figures(&p, "copy_rows");
    eprintln!("rows {rows:?}");
    assert_eq!((rows.load, rows.store), (full, full));
    let rows_run = p
        .kernel_runs()
        .find(|r| r.kernel == "copy_rows")
        .expect("copy_rows run");
    for s in &rows_run.sites {
        assert_eq!(s.requests, N / 16, "{s:?}");
    }
    // Memory bound: 2 x 1 MiB at 87.07 bytes/cycle = 24,085 cycles (+ at most the fill).
    assert!(
        rows.cycles >= 24_085 && rows.cycles < 24_085 + 400,
        "{}",
        rows.cycles
    );
    // Identical in a second process (determinism).
    let again = run("grid-stride-again");
    assert_eq!(figures(&again, "copy_stride"), stride);
    assert_eq!(figures(&again, "gather_stride"), gather);
}
