//! Issue 12 item 2: enqueuing is linear. The `enqueue_scaling` host enqueues N tiny kernels on
//! one in-order queue before a single `clFinish` (with and without profiling; its final
//! counter checks that every launch ran once and in order). Ten times the launches must cost
//! about ten times the time, not a hundred times (the run ledger once scanned every queued
//! launch per finished run: 8,000 launches took 5.8 s, 16,000 took 22.7 s).

use std::time::Duration;

use fpgacl_tests::{
    compile_example, example, example_command, fpgacl_lib_dir, run_with_timeout, Linkage,
};

/// Host wall time (ms) of the batch with profiling `on` (the program prints one line per mode).
fn run(n: u64) -> (f64, f64) {
    let _ = fpgacl_lib_dir();
    let ex = example("enqueue_scaling").expect("enqueue_scaling example");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let mut cmd = example_command(&bin, "enqueue_scaling", &Linkage::IcdLoader);
    cmd.env("ENQ_N", n.to_string());
    let out = run_with_timeout(&mut cmd, Duration::from_secs(600)).expect("run enqueue_scaling");
    assert!(out.passed(), "{}", out.describe());
    let wall = |mode: &str| -> f64 {
        out.stdout
            .lines()
            .find(|l| l.contains(&format!("profiling {mode}:")))
            .and_then(|l| l.split("host wall ").nth(1))
            .and_then(|r| r.split(" ms").next())
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {mode} line:\n{}", out.describe()))
    };
    (wall("off"), wall("on"))
}

#[test]
fn ten_times_the_launches_cost_about_ten_times_the_time() {
    let (small_off, small_on) = run(4_000);
    let (big_off, big_on) = run(40_000);
    // Linear: 10x. Quadratic (the old ledger): 100x. The bound leaves room for a loaded machine
    // (and for the fixed costs that weigh more in the small batch).
    for (what, small, big) in [("off", small_off, big_off), ("on", small_on, big_on)] {
        let ratio = big / small.max(1.0);
        assert!(
            ratio < 35.0,
            "profiling {what}: 40,000 launches took {big:.0} ms, 4,000 took {small:.0} ms \
             ({ratio:.1}x for 10x the launches)"
        );
    }
}
