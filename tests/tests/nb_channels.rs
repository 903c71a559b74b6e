//! Issue 5: non-blocking channel operations are decided in simulated time. The C host
//! `host-examples/c/nb_channels.c` (through the ICD loader) runs a poller with
//! `read_channel_nb_intel` against a producer that is slower in simulated time, and a writer
//! with `write_channel_nb_intel` against a slow reader, with the partner launched after a host
//! pause. Its printed counts of empty and full polls (and the emulated durations) must be the
//! same whatever the pause, the worker count and the load of the host.

use fpgacl_tests::{
    beside_cpu_hog, compile_example, example, example_command, fpgacl_lib_dir, run_with_timeout,
    Linkage, DEFAULT_TIMEOUT,
};

/// Runs the example once; returns its "nb reads:" and "nb writes:" lines.
fn run(pause_ms: u32, threads: u32, hogs: usize) -> Vec<String> {
    let _ = fpgacl_lib_dir();
    let ex = example("nb_channels").expect("example nb_channels");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let mut cmd = example_command(&bin, ex.name, &Linkage::IcdLoader);
    cmd.env("NB_PAUSE_MS", pause_ms.to_string())
        .env("FPGACL_THREADS", threads.to_string());
    let out = beside_cpu_hog(hogs, || run_with_timeout(&mut cmd, DEFAULT_TIMEOUT))
        .expect("runs nb_channels");
    assert!(out.passed(), "nb_channels failed:\n{}", out.describe());
    let lines: Vec<String> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("nb reads:") || l.starts_with("nb writes:"))
        .map(str::to_string)
        .collect();
    eprintln!("pause {pause_ms} ms, {threads} threads, {hogs} hogs: {lines:?}");
    assert_eq!(lines.len(), 2, "{}", out.describe());
    lines
}

#[test]
fn nb_poll_counts_are_identical_across_runs_pauses_and_host_load() {
    let first = run(20, 1, 0);
    for (pause, threads, hogs) in [(0, 4, 0), (60, 4, 2), (5, 1, 3)] {
        assert_eq!(
            run(pause, threads, hogs),
            first,
            "pause {pause} ms, FPGACL_THREADS={threads}, {hogs} busy threads"
        );
    }
}
