//! Autorun captures on the timing model (`device-model/src/timing/MODEL.md`, rules A1-A2):
//! the `profile_autorun` C host (through the ICD loader, `ACL_RUNTIME_PROFILING_ACTIVE=1`)
//! with a variant of its kernels whose producer `feed` is slow (II 11 from a float
//! recurrence): the captures of the autorun consumer `worker` must show its channel read as the
//! stall source, with the producer's per-value wait in simulated time, and its channel write
//! (drained by a fast consumer) without stall.

use fpgacl_profile_format::{read_profile, AccessKind, AutorunCapture, Profile};
use fpgacl_tests::{
    compile_example, example, example_command, fpgacl_lib_dir, run_with_timeout, scratch_dir,
    Linkage, DEFAULT_TIMEOUT,
};

const PAIRS: u64 = 512;

/// `kernels/autorun.cl` with a `feed` whose loop carries a float recurrence (`p * 0.5 + 0.25`:
/// Fmul + Fadd, II 11); `p` stays below 1, so the values are unchanged.
const SLOW_FEED: &str = "#pragma OPENCL EXTENSION cl_intel_channels : enable\n\
#define CUS 2\n\
channel int to_worker[CUS] __attribute__((depth(8)));\n\
channel int from_worker[CUS] __attribute__((depth(8)));\n\
__attribute__((max_global_work_dim(0)))\n\
__attribute__((autorun))\n\
__attribute__((num_compute_units(CUS, 1, 1)))\n\
__kernel void worker(void)\n\
{\n\
    int id = get_compute_id(0);\n\
    int v = read_channel_intel(to_worker[id]);\n\
    write_channel_intel(from_worker[id], v * v + id);\n\
}\n\
__kernel void feed(__global const int *restrict src, int pairs)\n\
{\n\
    float p = 1.0f;\n\
    for (int i = 0; i < pairs; i++) {\n\
        p = p * 0.5f + 0.25f;\n\
        int bump = p > 100.0f ? 1 : 0;\n\
        write_channel_intel(to_worker[0], src[2 * i] + bump);\n\
        write_channel_intel(to_worker[1], src[2 * i + 1] + bump);\n\
    }\n\
}\n\
__kernel void drain(__global int *restrict dst, int pairs)\n\
{\n\
    for (int i = 0; i < pairs; i++) {\n\
        dst[2 * i] = read_channel_intel(from_worker[0]);\n\
        dst[2 * i + 1] = read_channel_intel(from_worker[1]);\n\
    }\n\
}\n";

fn run(kernel: Option<&str>, scratch: &str) -> Profile {
    let _ = fpgacl_lib_dir();
    let ex = example("profile_autorun").expect("profile_autorun example");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let dir = scratch_dir(scratch);
    let _ = std::fs::remove_file(dir.join("profile.mon"));
    let mut cmd = example_command(&bin, "profile_autorun", &Linkage::IcdLoader);
    cmd.current_dir(&dir)
        .env("ACL_RUNTIME_PROFILING_ACTIVE", "1");
    if let Some(src) = kernel {
        let path = dir.join("autorun_slow_feed.cl");
        std::fs::write(&path, src).unwrap();
        cmd.arg(&path);
    }
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run profile_autorun");
    assert!(out.success(), "{}", out.describe());
    let p = read_profile(dir.join("profile.mon")).unwrap_or_else(|e| panic!("{e}"));
    assert!(!p.truncated, "{:?}", p.warnings);
    p
}

/// The worker's channel read and write site ids.
fn worker_sites(p: &Profile) -> (u32, u32) {
    let prog = p
        .programs
        .iter()
        .find(|pr| pr.report.kernels.iter().any(|k| k.name == "worker"))
        .expect("the autorun program");
    let site = |kind| {
        prog.report
            .sites
            .iter()
            .find(|s| s.kernel == "worker" && s.kind == kind)
            .expect("worker site")
            .id
    };
    (
        site(AccessKind::ChannelRead),
        site(AccessKind::ChannelWrite),
    )
}

fn site(c: &AutorunCapture, id: u32) -> &fpgacl_profile_format::SiteCounters {
    c.sites
        .iter()
        .find(|s| s.site == id)
        .expect("site in capture")
}

/// The fourth call's captures (round 3 only: the counters were cleared after round 2), and
/// the gap in device cycles between round 2's `feed` ending and round 3's starting.
fn round3(p: &Profile) -> (Vec<&AutorunCapture>, u64) {
    let caps: Vec<_> = p.autorun_captures().collect();
    assert_eq!(caps.len(), 8, "4 calls x 2 compute units");
    let feeds: Vec<_> = p.kernel_runs().filter(|r| r.kernel == "feed").collect();
    assert_eq!(feeds.len(), 3);
    let gap = feeds[2].start_cycle - feeds[1].end_cycle;
    (caps[6..8].to_vec(), gap)
}

/// [`SLOW_FEED`] with a worker that never returns (`while (1)`, a common autorun style): its
/// one execution stays in flight, so captures see its live counts (rule A2 derives the window
/// from them).
fn slow_feed_looping_worker() -> String {
    SLOW_FEED
        .replace(
            "int v = read_channel_intel(to_worker[id]);",
            "while (1) { int v = read_channel_intel(to_worker[id]);",
        )
        .replace(
            "write_channel_intel(from_worker[id], v * v + id);",
            "write_channel_intel(from_worker[id], v * v + id); }",
        )
}

#[test]
fn autorun_consumer_of_a_slow_producer_shows_read_stall() {
    slow_producer_read_stall(SLOW_FEED, "profile-autorun-slow-feed");
}

#[test]
fn looping_autorun_consumer_of_a_slow_producer_shows_read_stall() {
    let src = slow_feed_looping_worker();
    assert!(src.contains("while (1)"));
    slow_producer_read_stall(&src, "profile-autorun-slow-feed-loop");
}

fn slow_producer_read_stall(src: &str, scratch: &str) {
    let p = run(Some(src), scratch);
    let (read, write) = worker_sites(&p);
    let feeds: Vec<_> = p.kernel_runs().filter(|r| r.kernel == "feed").collect();
    // The producer issues a pair every 11 cycles: 512 x 11 cycles plus its fill.
    let feed_cycles = feeds[0].end_cycle - feeds[0].start_cycle;
    assert!(
        (PAIRS * 11..PAIRS * 11 + 400).contains(&feed_cycles),
        "feed: {feed_cycles} cycles"
    );
    let (caps, gap) = round3(&p);
    for c in caps {
        let r = site(c, read);
        let w = site(c, write);
        eprintln!(
            "cu {:?}: read {r:?}\nwrite {w:?}\ngap {gap}",
            c.compute_unit
        );
        assert_eq!(r.requests, PAIRS);
        // The read waits for every value: from the clear (the end of round 2) to round 3's
        // first value (the host gap between the two feeds, in emulated time), then 10 of
        // every 11 cycles for the other 511 values (rule F in the worker's clock, A1).
        // Tolerance: the feed's fill and one execution in flight at the capture (400 cycles).
        let per_value = r.stall_cycles as i64 - gap as i64;
        assert!(
            (10 * (PAIRS as i64 - 1) - 400..=10 * (PAIRS as i64 - 1) + 400).contains(&per_value),
            "read stall {} - gap {gap} = {per_value}, expected about {}",
            r.stall_cycles,
            10 * (PAIRS - 1)
        );
        // The read is the stall source: stall% + occupancy% ~ 100% (within 1 point).
        let sum = r.stall_pct().unwrap() + r.occupancy_pct().unwrap();
        assert!(
            (99.0..=100.0).contains(&sum),
            "read stall + occupancy {sum}"
        );
        // The write into a FIFO its fast consumer drains never waits.
        assert_eq!(w.stall_cycles, 0, "{w:?}");
        assert_eq!(w.active_cycles, r.active_cycles);
    }
}

#[test]
fn autorun_consumer_of_a_fast_producer_waits_only_for_the_host() {
    // The example's own kernels: `feed` issues a pair every cycle.
    let p = run(None, "profile-autorun-fast-feed");
    let (read, _) = worker_sites(&p);
    let (caps, gap) = round3(&p);
    for c in caps {
        let r = site(c, read);
        assert_eq!(r.requests, PAIRS);
        // Only the host gap (and the fill): no per-value wait.
        let per_value = r.stall_cycles as i64 - gap as i64;
        assert!(
            (-400..=400).contains(&per_value),
            "read stall {} - gap {gap} = {per_value}",
            r.stall_cycles
        );
    }
}
