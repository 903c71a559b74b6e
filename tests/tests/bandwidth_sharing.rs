//! Issue 5, "concurrent kernels share the bandwidth" (timing rule B4), end to end: the C host
//! `concurrent_bandwidth` runs through the ICD loader; its kernel times come from
//! `CL_PROFILING_COMMAND_START/END` (emulated device time) on the default board (25600 MB/s,
//! 294 MHz).
//!
//! Expected figures (rule B4's fluid model, MODEL.md): a copy moves 128 bytes per cycle alone,
//! so it is memory bound (87.07 B/cycle). Two copies started together get half the board each
//! and take twice as long, using the whole board together. The scale kernel (II 1, 8 bytes
//! per cycle) gets all it wants; a copy beside it gets the rest, 87.07 - 8 B/cycle, so it takes
//! 87.07 / 79.07 = 1.10 times as long.

use std::collections::BTreeMap;

use fpgacl_profile_format::{read_profile, KernelRun};
use fpgacl_tests::{
    assert_within, compile_example, example, example_command, fpgacl_lib_dir, printed_figures,
    run_example, run_with_timeout, scratch_dir, Linkage, DEFAULT_TIMEOUT,
};

/// The default board's global memory bandwidth.
const BOARD_MBPS: f64 = 25600.0;

/// Runs the example once and returns its `key=value` figures.
fn run_once() -> BTreeMap<String, f64> {
    let ex = example("concurrent_bandwidth").expect("example listed");
    let out = run_example(ex, &Linkage::IcdLoader);
    assert!(
        out.passed(),
        "concurrent_bandwidth failed:\n{}",
        out.describe()
    );
    let figures = printed_figures(
        &out.stdout,
        &[
            "copy_bytes",
            "copy_alone_ns",
            "copy_after_ns",
            "pair_a_ns",
            "pair_b_ns",
            "pair_span_ns",
            "pair_mbps",
            "scale_alone_ns",
            "mixed_scale_ns",
            "mixed_copy_ns",
            "waited_copy_ns",
        ],
    );
    eprintln!("{figures:#?}");
    figures
}

#[test]
fn concurrent_kernels_share_the_global_memory_bandwidth() {
    let f = run_once();
    let alone = f["copy_alone_ns"];
    // A copy alone uses the whole board (memory bound), 1% for the fill and rounding.
    assert_within("copy alone MB/s", f["copy_alone_mbps"], BOARD_MBPS, 0.01);
    // A copy after another (no overlap in emulated time) is unaffected: the same time.
    assert_eq!(
        f["copy_after_ns"], alone,
        "a later copy took a different time"
    );
    // Two copies together: each about twice as long (2%), together at most the board.
    assert_within("copy A together / alone", f["pair_a_ns"] / alone, 2.0, 0.02);
    assert_within("copy B together / alone", f["pair_b_ns"] / alone, 2.0, 0.02);
    assert!(
        f["pair_mbps"] <= BOARD_MBPS * 1.001,
        "the two copies used {} MB/s, more than the board's {BOARD_MBPS}",
        f["pair_mbps"]
    );
    assert_within("two copies' MB/s", f["pair_mbps"], BOARD_MBPS, 0.02);
    // A compute-bound kernel is not slowed by a copy beside it (it gets the 8 B/cycle it
    // wants) and slows the copy only by that: 87.07 / (87.07 - 8).
    assert_eq!(
        f["mixed_scale_ns"], f["scale_alone_ns"],
        "the compute-bound kernel was slowed"
    );
    let cap = BOARD_MBPS / 294.0;
    assert_within(
        "copy beside scale / alone",
        f["mixed_copy_ns"] / alone,
        cap / (cap - 8.0),
        0.02,
    );
    assert!(f["mixed_copy_ns"] < f["pair_a_ns"]);
    // A copy that ends while a consumer started before it is blocked on a channel (its
    // producer is launched by the host after the copy ends) does not wait for it: the host's
    // wait returns, and the copy takes its time alone (the consumer moves nothing meanwhile).
    assert_eq!(f["waited_copy_ns"], alone);

    // Determinism: a second process gives the same durations, to the nanosecond.
    let g = run_once();
    for key in [
        "copy_alone_ns",
        "copy_after_ns",
        "pair_a_ns",
        "pair_b_ns",
        "pair_span_ns",
        "scale_alone_ns",
        "mixed_scale_ns",
        "mixed_copy_ns",
        "waited_copy_ns",
    ] {
        assert_eq!(f[key], g[key], "{key} differs between two runs");
    }
}

/// Stall% of a run's most stalled site, and the run's global memory bandwidth (MB/s).
fn stall_and_mbps(r: &KernelRun, mhz: f64) -> (f64, f64) {
    let stall = r
        .sites
        .iter()
        .filter_map(|s| s.stall_pct())
        .fold(0.0, f64::max);
    let mbps = r
        .sites
        .iter()
        .filter_map(|s| s.bandwidth_mbps(mhz))
        .sum::<f64>();
    (stall, mbps)
}

/// Rule B3 applies to the shared duration: the profiler's counters of a copy that shared the
/// board show more memory stall and half the bandwidth, and its LSUs are still the stall
/// source (stall% + occupancy% ~ 100%); the compute-bound kernel beside it shows no stall.
#[test]
fn profiled_counters_follow_the_shared_duration() {
    let _ = fpgacl_lib_dir();
    let ex = example("concurrent_bandwidth").expect("example listed");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let dir = scratch_dir("bandwidth-sharing-profiled");
    let _ = std::fs::remove_file(dir.join("profile.mon"));
    let mut cmd = example_command(&bin, ex.name, &Linkage::IcdLoader);
    cmd.current_dir(&dir)
        .env("ACL_RUNTIME_PROFILING_ACTIVE", "1")
        .env_remove("ACL_PROFILE_TIMER");
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run example");
    assert!(out.success(), "{}", out.describe());
    let p = read_profile(dir.join("profile.mon")).expect("profile.mon");
    let mhz = 294.0;
    let runs: Vec<&KernelRun> = p.kernel_runs().collect();
    let copies: Vec<&KernelRun> = runs
        .iter()
        .copied()
        .filter(|r| r.kernel == "copy")
        .collect();
    let scales: Vec<&KernelRun> = runs
        .iter()
        .copied()
        .filter(|r| r.kernel == "scale")
        .collect();
    assert_eq!((copies.len(), scales.len()), (6, 2), "{runs:#?}");
    // In time order: alone, after, the pair (same start), beside scale.
    let mut copies = copies;
    copies.sort_by_key(|r| (r.start_ns, r.end_ns));
    let (alone_stall, alone_mbps) = stall_and_mbps(copies[0], mhz);
    eprintln!("copy alone: stall {alone_stall:.1}%, {alone_mbps:.0} MB/s");
    assert!(
        (alone_mbps - 25600.0).abs() < 0.01 * 25600.0,
        "{alone_mbps}"
    );
    assert!(
        alone_stall > 20.0,
        "a memory-bound copy stalls: {alone_stall}"
    );
    assert_eq!(copies[2].start_ns, copies[3].start_ns);
    for r in &copies[2..4] {
        let (stall, mbps) = stall_and_mbps(r, mhz);
        eprintln!("copy of the pair: stall {stall:.1}%, {mbps:.0} MB/s");
        assert!((mbps - 12800.0).abs() < 0.02 * 12800.0, "{mbps}");
        assert!(stall > alone_stall + 20.0, "{stall} vs {alone_stall}");
        // the LSU moving the most data is the source: stall% + occupancy% ~ 100%
        let source = r
            .sites
            .iter()
            .max_by_key(|s| s.stall_cycles)
            .expect("sites");
        let sum = source.stall_pct().unwrap() + source.occupancy_pct().unwrap();
        assert!((sum - 100.0).abs() < 1.0, "stall + occupancy = {sum}");
    }
    for r in &scales {
        let (stall, _) = stall_and_mbps(r, mhz);
        assert_eq!(stall, 0.0, "the compute-bound kernel stalls: {r:#?}");
    }
    let (beside_stall, beside_mbps) = stall_and_mbps(copies[4], mhz);
    eprintln!("copy beside scale: stall {beside_stall:.1}%, {beside_mbps:.0} MB/s");
    assert!(beside_stall > alone_stall && beside_stall < stall_and_mbps(copies[2], mhz).0);
    assert!(
        (beside_mbps - (25600.0 - 8.0 * mhz)).abs() < 0.02 * 25600.0,
        "{beside_mbps}"
    );
}
