//! Issue 12 item 3: the channel ring (lock-free sides, batched wakes, adaptive fencing) does
//! not change simulated time. The C host `host-examples/c/channel_pair.c` (producer and
//! consumer single work-item kernels on two queues joined by one channel, through the ICD
//! loader) runs under `fpgacl profile` beside a CPU hog at depths 1, 16, 64 and 1024, with
//! `FPGACL_THREADS=1` and `2`: at each depth the two profiles (every kernel's counters, stall
//! figures and emulated times) are the same byte for byte after the header, and so are the
//! device times the host prints; the consumer's count, sum and order hash are checked by the
//! host itself. A second test runs depths 1, 16 and 1024 on both backends
//! (`FPGACL_BACKEND=interp` and `jit`, which share the channel fast path of `Machine::fifo_op`,
//! the ring's bound on read ticks and the counters held back per batch, which depth 1 does not
//! hold back): the profiles are the same byte for byte across backends and worker counts.

use std::path::Path;
use std::time::Duration;

use fpgacl_profile_format::read_profile;
use fpgacl_tests::{
    beside_cpu_hog, compile_example, example, fpgacl_lib_dir, profile_command, run_with_timeout,
    scratch_dir, Linkage,
};

const DEPTHS: [u32; 4] = [1, 16, 64, 1024];
const THREADS: [&str; 2] = ["1", "2"];
const VALUES: u32 = 20_000;

/// One profiled run: the profile's bytes after the header and the host's device-time lines.
fn profile_once(bin: &Path, dir: &Path, depth: u32, threads: &str) -> (Vec<u8>, Vec<String>) {
    profile_on(bin, dir, depth, threads, None)
}

/// [`profile_once`] on a backend (`None`: the default).
fn profile_on(
    bin: &Path,
    dir: &Path,
    depth: u32,
    threads: &str,
    backend: Option<&str>,
) -> (Vec<u8>, Vec<String>) {
    let out_file = dir.join(format!(
        "d{depth}-t{threads}-{}.mon",
        backend.unwrap_or("default")
    ));
    let _ = std::fs::remove_file(&out_file);
    let mut cmd = profile_command(bin, dir, &out_file, threads);
    match backend {
        Some(b) => cmd.env("FPGACL_BACKEND", b),
        None => cmd.env_remove("FPGACL_BACKEND"),
    };
    cmd.env("CHPAIR_DEPTH", depth.to_string())
        .env("CHPAIR_N", VALUES.to_string())
        .env("CHPAIR_RUNS", "2");
    let out = run_with_timeout(&mut cmd, Duration::from_secs(300)).expect("run fpgacl profile");
    assert!(out.success(), "depth {depth}: {}", out.describe());
    assert!(!out.stderr.contains("deadlock"), "{}", out.describe());
    // "channel_pair depth D: N values in X ms host wall = V values/s (device T ms)"
    let device: Vec<String> = out
        .stdout
        .lines()
        .filter_map(|l| l.split("(device ").nth(1))
        .map(str::to_string)
        .collect();
    assert_eq!(device.len(), 2, "{}", out.describe());
    let p = read_profile(&out_file).expect("profile reads");
    assert_eq!(
        p.kernel_runs().count(),
        4,
        "2 runs of producer and consumer"
    );
    let bytes = std::fs::read(&out_file).expect("profile written");
    // Host gaps are wall clock (documented nondeterministic field): zeroed.
    (fpgacl_tests::deterministic_body(&bytes), device)
}

#[test]
fn pair_profiles_are_identical_across_worker_counts_at_every_depth() {
    let _ = fpgacl_lib_dir();
    let ex = example("channel_pair").expect("example channel_pair");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let dir = scratch_dir("channel-ring");
    std::fs::create_dir_all(&dir).unwrap();
    let runs: Vec<Vec<(Vec<u8>, Vec<String>)>> = beside_cpu_hog(2, || {
        DEPTHS
            .iter()
            .map(|&d| {
                THREADS
                    .iter()
                    .map(|t| profile_once(&bin, &dir, d, t))
                    .collect()
            })
            .collect()
    });
    for (d, per_threads) in DEPTHS.iter().zip(&runs) {
        let (a, da) = &per_threads[0];
        let (b, db) = &per_threads[1];
        assert_eq!(
            da, db,
            "depth {d}: device times differ between 1 and 2 workers"
        );
        assert_eq!(
            da[0], da[1],
            "depth {d}: the two runs of one process differ in device time"
        );
        if a != b {
            let at = a.iter().zip(b).position(|(x, y)| x != y);
            panic!(
                "depth {d}: the profiles with 1 and 2 workers differ at byte {at:?} after the \
                 header ({} vs {} bytes)",
                a.len(),
                b.len()
            );
        }
    }
}

#[test]
fn pair_profiles_are_identical_across_backends_and_worker_counts() {
    let _ = fpgacl_lib_dir();
    let ex = example("channel_pair").expect("example channel_pair");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let dir = scratch_dir("channel-ring-backends");
    std::fs::create_dir_all(&dir).unwrap();
    for depth in [1, 16, 1024] {
        let mut runs = Vec::new();
        for backend in ["interp", "jit"] {
            for threads in THREADS {
                runs.push((
                    format!("FPGACL_BACKEND={backend} FPGACL_THREADS={threads}"),
                    profile_on(&bin, &dir, depth, threads, Some(backend)),
                ));
            }
        }
        let (name0, (p0, d0)) = &runs[0];
        assert_eq!(d0[0], d0[1], "depth {depth}, {name0}: the two runs differ");
        for (name, (p, d)) in &runs[1..] {
            assert_eq!(
                d, d0,
                "depth {depth}: device times of {name} and {name0} differ"
            );
            if p != p0 {
                let at = p.iter().zip(p0).position(|(x, y)| x != y);
                panic!(
                    "depth {depth}: the profiles of {name} and {name0} differ at byte {at:?} \
                     after the header ({} vs {} bytes)",
                    p.len(),
                    p0.len()
                );
            }
        }
    }
}
