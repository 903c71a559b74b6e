//! Issue 11 item 4 end to end (timing rules D1-D7, `-clock=<MHz>`): the C host `dram_streams`
//! runs through the ICD loader on the BittWare 385A (`FPGACL_BOARD=p385a_sch_ax115`: two
//! DDR4-2133 banks, 34,128 MB/s peak, burst-interleaved) and times memory-bound kernels with
//! 1, 2 and 5 streams with event profiling (`CL_PROFILING_COMMAND_START/END`).
//!
//! Hand-computed figures (`device-model/src/timing/MODEL.md`, rules D1-D7; per bank, per
//! round of one 1 KiB chunk per stream; tCK = 0.93765 ns, a 64-byte word 3.7506 ns):
//! - read1 (1 read stream): refresh only, 1 - 260/7800 = 96.67% of peak = 32,990 MB/s;
//! - copy (read + write): 120.02 ns of data + 23.44 ns turnaround + 2/4 x 28.12 ns row
//!   conflicts per round, x 0.96667: 73.65% = 25,135 MB/s, 12,568 MB/s per stream;
//! - add4 (4 reads + 1 write): 300.05 + 23.44 + 5/4 x 28.12 ns per round: 80.87% = 27,600
//!   MB/s, 5,520 MB/s per stream.
//!
//! With `-clock=<MHz>` (no `FPGACL_KERNEL_CLOCK_MHZ`) the program runs at that clock: read1's
//! kernel-side port moves one 64-byte word per bank per cycle (rule D6), 2 x 64 x f MB/s, so
//! at 150 MHz it gets 19,200 MB/s and at 300 MHz the DRAM's 32,990; the board's own 250 MHz
//! gives 32,000. `FPGACL_KERNEL_CLOCK_MHZ` overrides the option. Tolerance 1% (pipeline fill
//! and whole-cycle rounding).

use std::collections::BTreeMap;

use fpgacl_profile_format::read_profile;
use fpgacl_tests::{
    assert_within, compile_example, example, example_command, fpgacl_lib_dir, printed_figures,
    run_with_timeout, scratch_dir, Linkage, DEFAULT_TIMEOUT,
};

const KEYS: &[&str] = &[
    "read1_ns",
    "read1_bytes",
    "copy_ns",
    "copy_bytes",
    "add4_ns",
    "add4_bytes",
    "bin_read1_ns",
];

/// Runs the host on the 385A with the build options and kernel clock given; returns its
/// figures and, when `profile` is set, the directory holding its `profile.mon`.
fn run(
    tag: &str,
    options: &str,
    env_clock: Option<&str>,
    profile: bool,
) -> (BTreeMap<String, f64>, std::path::PathBuf) {
    let _ = fpgacl_lib_dir();
    let ex = example("dram_streams").expect("example listed");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let dir = scratch_dir(&format!("dram-streams-{tag}"));
    let _ = std::fs::remove_file(dir.join("profile.mon"));
    let mut cmd = example_command(&bin, "dram_streams", &Linkage::IcdLoader);
    cmd.current_dir(&dir)
        .env("FPGACL_BOARD", "p385a_sch_ax115")
        .env("DS_OPTIONS", options)
        .env_remove("FPGACL_KERNEL_CLOCK_MHZ");
    if let Some(c) = env_clock {
        cmd.env("FPGACL_KERNEL_CLOCK_MHZ", c);
    }
    if profile {
        cmd.env("ACL_RUNTIME_PROFILING_ACTIVE", "1");
    }
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run dram_streams");
    assert!(out.passed(), "dram_streams {tag}:\n{}", out.describe());
    let f = printed_figures(&out.stdout, KEYS);
    eprintln!("{tag}: {f:#?}");
    (f, dir)
}

/// MB/s of a kernel: bytes / ns x 1000.
fn mbps(f: &BTreeMap<String, f64>, k: &str) -> f64 {
    f[&format!("{k}_bytes")] / f[&format!("{k}_ns")] * 1e3
}

#[test]
fn streams_sharing_interleaved_banks_get_less_bandwidth_each() {
    let (f, _) = run("streams", "", Some("341.06"), false);
    let (r, c, a) = (mbps(&f, "read1"), mbps(&f, "copy"), mbps(&f, "add4"));
    assert_within("read1 MB/s (96.67% of peak)", r, 32990.4, 0.01);
    assert_within("copy MB/s (73.65% of peak)", c, 25135.0, 0.01);
    assert_within("add4 MB/s (80.87% of peak)", a, 27600.0, 0.01);
    // Per stream: 32,990 > 12,568 > 5,520 MB/s; in total never the peak.
    assert!(r > c / 2.0 && c / 2.0 > a / 5.0, "{r} {c} {a}");
    for x in [r, c, a] {
        assert!(x < 0.97 * 34128.0, "{x} MB/s is above 97% of the peak");
    }
}

#[test]
fn the_clock_a_program_was_built_for_sets_its_emulated_time() {
    // The board's own clock (250 MHz): the port allows 32,000 MB/s, below the DRAM's 32,990.
    let (base, _) = run("clock-none", "", None, false);
    assert_within("250 MHz MB/s", mbps(&base, "read1"), 32000.0, 0.01);
    // -clock=150: 19,200 MB/s, the emulated time scales by 32,000 / 19,200.
    let (slow, dir) = run("clock-150", "-clock=150", None, true);
    assert_within("-clock=150 MB/s", mbps(&slow, "read1"), 19200.0, 0.01);
    assert_within(
        "time ratio 150 / 250 MHz",
        slow["read1_ns"] / base["read1_ns"],
        32000.0 / 19200.0,
        0.01,
    );
    // The option travels in the binary (.aocx).
    assert_eq!(slow["bin_read1_ns"], slow["read1_ns"], "binary lost -clock");
    // -clock=300: the DRAM side limits (32,990 MB/s), not the port (38,400).
    let (fast, _) = run("clock-300", "-clock=300", None, false);
    assert_within("-clock=300 MB/s", mbps(&fast, "read1"), 32990.4, 0.01);
    // FPGACL_KERNEL_CLOCK_MHZ overrides the option.
    let (env, _) = run("clock-env", "-clock=150", Some("300"), false);
    assert_eq!(
        env["read1_ns"], fast["read1_ns"],
        "the environment did not win"
    );
    // The profile counts the device's clock (its header, 250 MHz): the run's cycles are its
    // emulated time at 250 MHz, whatever clock the program ran at.
    let p = read_profile(dir.join("profile.mon")).expect("profile.mon");
    assert_eq!(p.header.board.fmax_mhz, 250.0);
    let run = p
        .kernel_runs()
        .find(|r| r.kernel == "read1")
        .expect("read1 in the profile");
    let cycles = (run.end_cycle - run.start_cycle) as f64;
    assert_within(
        "profile cycles at 250 MHz",
        cycles,
        slow["read1_ns"] * 0.25,
        0.01,
    );
}
