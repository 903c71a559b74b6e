//! Issue 15 item 1: a correct program never fails because the machine is busy. The C host
//! `host-examples/c/channel_pair.c` (through the ICD loader) joins a producer and a consumer
//! (single work-item kernels on two queues) by `channel int ch __attribute__((depth(16)))`;
//! it runs 30 times beside a CPU hog (busy-loop threads on every core, started here) and
//! must pass every time: no false "deadlock" while a partner is merely descheduled (the
//! deadlock diagnosis is decided from state, `Activity::quiescence`), the consumer's count,
//! sum and order hash right, and the emulated time the same in every run.

use std::time::{Duration, Instant};

use fpgacl_tests::{
    beside_cpu_hog, compile_example, example, example_command, fpgacl_lib_dir, run_with_timeout,
    Linkage,
};

/// Values per run: with a hog on each of 2 cores the 30 runs take well under a minute.
const VALUES: u32 = 1 << 17;
const RUNS: usize = 30;

#[test]
fn channel_pair_never_fails_beside_a_cpu_hog() {
    let _ = fpgacl_lib_dir();
    let ex = example("channel_pair").expect("example channel_pair");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let t0 = Instant::now();
    let outs = beside_cpu_hog(cores, || {
        (0..RUNS)
            .map(|_| {
                let mut cmd = example_command(&bin, ex.name, &Linkage::IcdLoader);
                cmd.env("CHPAIR_N", VALUES.to_string())
                    .env("CHPAIR_DEPTH", "16");
                run_with_timeout(&mut cmd, Duration::from_secs(120))
            })
            .collect::<Vec<_>>()
    });
    let mut failures = Vec::new();
    let mut device_times = Vec::new();
    for (i, out) in outs.into_iter().enumerate() {
        let out = out.expect("runs channel_pair");
        if !out.passed() || out.stderr.contains("deadlock") {
            failures.push(format!("run {i}:\n{}", out.describe()));
            continue;
        }
        // "channel_pair depth 16: N values in X ms host wall = V values/s (device D ms)"
        let device = out
            .stdout
            .lines()
            .find_map(|l| l.split("(device ").nth(1))
            .map(|d| d.trim_end_matches(" ms)").to_string());
        device_times.push(device.unwrap_or_else(|| panic!("no device time in\n{}", out.stdout)));
    }
    eprintln!(
        "{RUNS} runs of {VALUES} values beside {cores} hog threads: {} failures, {:.1} s",
        failures.len(),
        t0.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} of {RUNS} runs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    device_times.dedup();
    assert_eq!(
        device_times.len(),
        1,
        "emulated times differ: {device_times:?}"
    );
}

/// Issue 15 item 2: a channel deeper than the documented limit (2^24 elements) is refused by
/// `clBuildProgram` with CL_BUILD_PROGRAM_FAILURE and a log line naming the limit (it used to
/// allocate the whole FIFO when the program was loaded and abort the host).
#[test]
fn a_channel_deeper_than_the_limit_is_a_build_error() {
    let _ = fpgacl_lib_dir();
    let ex = example("channel_pair").expect("example channel_pair");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let mut cmd = example_command(&bin, ex.name, &Linkage::IcdLoader);
    cmd.env("CHPAIR_DEPTH", "2000000000");
    let out = run_with_timeout(&mut cmd, Duration::from_secs(120)).expect("runs channel_pair");
    assert!(!out.success(), "{}", out.describe());
    assert!(
        out.stdout.contains("CL_BUILD_PROGRAM_FAILURE")
            && out
                .stdout
                .contains("'depth(2000000000)' exceeds the deepest supported channel"),
        "{}",
        out.describe()
    );
}

/// Issue 15 items 2 and 8: `fpgacl aoc` refuses the same channel, and an autorun kernel with
/// `num_compute_units(4000)` (over the limit of 256), promptly, with the limit in the error.
#[test]
fn aoc_refuses_oversized_channels_and_compute_units_promptly() {
    let dir = fpgacl_tests::scratch_dir("channel_load-aoc");
    // Built (if need be) before any time is taken.
    let cli = fpgacl_tests::fpgacl_cli();
    let cases = [
        (
            "deep.cl",
            "#pragma OPENCL EXTENSION cl_intel_channels : enable\n\
             channel ulong16 c __attribute__((depth(2000000000)));\n\
             __kernel void k(__global ulong16 *o) { o[0] = read_channel_intel(c); }\n",
            "exceeds the deepest supported channel or pipe (16777216 elements)",
        ),
        (
            "cus.cl",
            "#pragma OPENCL EXTENSION cl_intel_channels : enable\n\
             channel int c __attribute__((depth(4)));\n\
             __attribute__((max_global_work_dim(0))) __attribute__((autorun))\n\
             __attribute__((num_compute_units(4000)))\n\
             __kernel void k(void) { int x = read_channel_intel(c); (void)x; }\n",
            "asks for 4000 compute units; at most 256 are supported",
        ),
    ];
    for (file, src, want) in cases {
        let path = dir.join(file);
        std::fs::write(&path, src).expect("writes the kernel");
        let t0 = Instant::now();
        let mut cmd = fpgacl_tests::hermetic_command(&cli, "channel_load-aoc");
        cmd.arg("aoc")
            .arg(&path)
            .arg("-o")
            .arg(dir.join("out.aocx"));
        let out = run_with_timeout(&mut cmd, Duration::from_secs(120)).expect("runs fpgacl aoc");
        assert!(!out.success(), "{file}: {}", out.describe());
        assert!(out.stderr.contains(want), "{file}: {}", out.describe());
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "{file}: {:?}",
            t0.elapsed()
        );
    }
}
