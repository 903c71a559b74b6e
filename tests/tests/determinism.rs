//! Issue 16 item 1: bit-identical profiles. The `determinism` C host (producer -> autorun
//! scaler -> consumer over channels, a single work-item and an NDRange kernel; through the ICD
//! loader) runs 5 times under `fpgacl profile` beside a CPU hog, each time with a different
//! `FPGACL_THREADS`. The profiles must be the same byte for byte once the header's documented
//! nondeterministic fields (date, pid, host command line; README "Reproducible profiles") are
//! set aside and the host gaps' wall-clock `gap_ns` (`HostGap` records, the one
//! nondeterministic record field) zeroed, and every event's emulated timestamps (QUEUED, SUBMIT, START, END) the host
//! prints must be the same run after run.
//!
//! Item 2 (the report header's "Emulated time" is JSON `total_time_ns`) is checked on the same
//! profiles through the CLI.

use std::path::{Path, PathBuf};
use std::process::Command;

use fpgacl_profile_format::{read_profile, Header};
use fpgacl_tests::{
    beside_cpu_hog, compile_example, deterministic_body, example, fpgacl_cli, fpgacl_lib_dir,
    profile_command, run_with_timeout, scratch_dir, Linkage, DEFAULT_TIMEOUT,
};

const THREADS: [&str; 5] = ["1", "2", "3", "4", "8"];

fn host() -> PathBuf {
    let _ = fpgacl_lib_dir();
    let ex = example("determinism").expect("determinism example");
    compile_example(ex, &Linkage::IcdLoader)
}

/// One `fpgacl profile` run: the profile's bytes and the host's `t_*` lines.
fn profile_once(bin: &Path, dir: &Path, i: usize, threads: &str) -> (Vec<u8>, Vec<String>) {
    let out_file = dir.join(format!("run{i}.mon"));
    let _ = std::fs::remove_file(&out_file);
    let mut cmd = profile_command(bin, dir, &out_file, threads);
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run fpgacl profile");
    assert!(out.success(), "{}", out.describe());
    let times: Vec<String> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("t_"))
        .map(str::to_string)
        .collect();
    assert_eq!(times.len(), 3 * 4 * 4, "{}", out.describe());
    let bytes = std::fs::read(&out_file).expect("profile written");
    (bytes, times)
}

/// The header without its documented nondeterministic fields.
fn deterministic_header(path: &Path) -> Header {
    let mut h = read_profile(path).expect("profile reads").header;
    h.pid = 0;
    h.start_time.clear();
    h.start_unix_ns = 0;
    h.command_line.clear();
    h
}

fn report(args: &[&str], file: &Path) -> String {
    let out = Command::new(fpgacl_cli())
        .arg("report")
        .args(args)
        .arg(file)
        .output()
        .expect("run fpgacl report");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn five_runs_under_load_write_the_same_profile_and_event_times() {
    let bin = host();
    let dir = scratch_dir("determinism");
    std::fs::create_dir_all(&dir).unwrap();
    let runs: Vec<(Vec<u8>, Vec<String>)> = beside_cpu_hog(2, || {
        THREADS
            .iter()
            .enumerate()
            .map(|(i, t)| profile_once(&bin, &dir, i, t))
            .collect()
    });
    let first_header = deterministic_header(&dir.join("run0.mon"));
    let (first_bytes, first_times) = &runs[0];
    for (i, (bytes, times)) in runs.iter().enumerate().skip(1) {
        assert_eq!(
            times, first_times,
            "run {i} (FPGACL_THREADS={}): event times differ from run 0",
            THREADS[i]
        );
        assert_eq!(
            deterministic_header(&dir.join(format!("run{i}.mon"))),
            first_header,
            "run {i}: header differs beyond date, pid and command line"
        );
        let (a, b) = (deterministic_body(first_bytes), deterministic_body(bytes));
        let (a, b) = (a.as_slice(), b.as_slice());
        if a != b {
            let at = a
                .iter()
                .zip(b)
                .position(|(x, y)| x != y)
                .unwrap_or(a.len().min(b.len()));
            panic!(
                "run {i} (FPGACL_THREADS={}): profile differs from run 0 at byte {at} after \
                 the header ({} vs {} bytes)\nrun 0:\n{}\nrun {i}:\n{}",
                THREADS[i],
                a.len(),
                b.len(),
                report(&["--text"], &dir.join("run0.mon")),
                report(&["--text"], &dir.join(format!("run{i}.mon")))
            );
        }
    }
    // The design did what it says: 3 rounds of 4 kernels, one autorun capture of the scaler
    // whose channel read stalled (it waits for the producer) and moved every value.
    let p = read_profile(dir.join("run0.mon")).unwrap();
    assert_eq!(p.kernel_runs().count(), 12);
    // Each run follows its host gap (so the filter above had something to set aside).
    assert_eq!(p.host_gaps().count(), 12);
    assert!(p.host_gaps().all(|g| g.run_id.is_some()));
    let caps: Vec<_> = p.autorun_captures().collect();
    assert_eq!(caps.len(), 1);
    assert_eq!(caps[0].kernel, "scaler");
    let read = caps[0]
        .sites
        .iter()
        .find(|s| s.fired_cycles > 0 && s.stall_cycles > 0)
        .expect("the scaler's channel read stalled");
    assert_eq!(read.fired_cycles, 3 * 2048);
    // Event times are on the device timeline: QUEUED of the first round's commands is the
    // host's position when it enqueued them (the end of its blocking writes), START follows
    // the dependencies, and the in-order saxpy starts where prefix ends.
    let t = |name: &str| -> u64 {
        first_times
            .iter()
            .find_map(|l| l.strip_prefix(&format!("{name}=")))
            .unwrap_or_else(|| panic!("no {name}"))
            .parse()
            .unwrap()
    };
    assert_eq!(t("t_1_saxpy_start"), t("t_1_prefix_end"));
    assert_eq!(t("t_1_consumer_start"), t("t_1_producer_start"));
    assert!(t("t_2_consumer_queued") >= t("t_1_saxpy_end"));
}

#[test]
fn the_report_header_emulated_time_is_json_total_time() {
    let bin = host();
    let dir = scratch_dir("determinism-total");
    std::fs::create_dir_all(&dir).unwrap();
    let (_, times) = profile_once(&bin, &dir, 0, "2");
    let file = dir.join("run0.mon");
    let json = report(&["--json"], &file);
    let total: u64 = json
        .split("\"total_time_ns\":")
        .nth(1)
        .and_then(|s| s.split([',', '\n']).next())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or_else(|| panic!("no total_time_ns in the JSON report"));
    // Emulated time runs from the session's start (device time 1 ns, the origin of the
    // records) to the last thing on the device timeline: at least the last kernel's END.
    let last_end: u64 = times
        .iter()
        .find_map(|l| l.strip_prefix("t_3_saxpy_end="))
        .unwrap()
        .parse()
        .unwrap();
    assert!(total >= last_end - 1, "{total} vs {last_end}");
    let text = report(&["--text"], &file);
    let header = text.lines().next().unwrap_or_default();
    let shown = header
        .split("Emulated time: ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .unwrap_or_else(|| panic!("no emulated time in {header:?}"));
    assert_eq!(
        shown,
        format_time(total),
        "header {header:?} vs JSON total_time_ns {total}"
    );
}

/// The report's time format (profiler-tui `fmt::time`).
fn format_time(ns: u64) -> String {
    fpgacl_profiler_tui::fmt::time(ns)
}
