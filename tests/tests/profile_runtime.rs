//! Issue 6: `profile.mon` written by the runtime while real C hosts run through the ICD
//! loader, the Intel profiling environment, the Intel extension functions, and
//! `fpgacl profile`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use fpgacl_profile_format::{read_profile, AccessKind, Profile, Record};
use fpgacl_tests::{
    compile_example, example, example_command, fpgacl_cli, fpgacl_lib_dir, run_with_timeout,
    scratch_dir, workspace_root, Linkage, RunOutput, DEFAULT_TIMEOUT,
};

/// A compiled example (through the ICD loader) and a fresh scratch folder for its run.
fn prepare(name: &str, scratch: &str) -> (PathBuf, PathBuf) {
    let _ = fpgacl_lib_dir();
    let ex = example(name).unwrap_or_else(|| panic!("no example {name}"));
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let dir = scratch_dir(scratch);
    let _ = std::fs::remove_file(dir.join("profile.mon"));
    (bin, dir)
}

/// Runs `name` through the ICD loader with `env`, in its own scratch folder; asserts it
/// passed and returns its output and the profile it wrote there.
fn run_profiled(name: &str, scratch: &str, env: &[(&str, &str)]) -> (RunOutput, Profile) {
    let (bin, dir) = prepare(name, scratch);
    let mut cmd = example_command(&bin, name, &Linkage::IcdLoader);
    cmd.current_dir(&dir);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run example");
    assert!(out.success(), "{}", out.describe());
    let path = dir.join("profile.mon");
    let p = read_profile(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}\n{}", path.display(), out.describe()));
    assert!(!p.truncated, "{:?}", p.warnings);
    (out, p)
}

fn kernel_file(name: &str) -> String {
    let path = fpgacl_tests::EXAMPLES[0]
        .source_path()
        .parent()
        .expect("c dir")
        .join("kernels")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const VECTOR_N: u64 = 65536;

/// Runs vector_add under `fpgacl profile` (with `extra` options) and returns the CLI's
/// output and the profile.
fn vector_add_under_cli(scratch: &str, extra: &[&str]) -> (RunOutput, Profile) {
    let (bin, dir) = prepare("vector_add", scratch);
    let out_path = dir.join("profile.mon");
    let mut cmd = Command::new(fpgacl_cli());
    cmd.arg("profile")
        .args(extra)
        .arg("-o")
        .arg(&out_path)
        .arg("--")
        .arg(&bin)
        .current_dir(&dir)
        .env("VECTOR_N", VECTOR_N.to_string())
        .env("FPGACL_LIB_DIR", fpgacl_lib_dir())
        .env_remove("ACL_PROFILE_TIMER")
        .env_remove("ACL_RUNTIME_PROFILING_ACTIVE")
        .env_remove("OCL_ICD_VENDORS");
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run fpgacl profile");
    assert!(out.success(), "{}", out.describe());
    let p = read_profile(&out_path).unwrap_or_else(|e| panic!("{e}\n{}", out.describe()));
    (out, p)
}

#[test]
fn fpgacl_profile_records_runs_counters_and_sources() {
    let (out, p) = vector_add_under_cli("profile-cli-vector-add", &[]);
    // header
    assert_eq!(p.header.board.name, "fpgacl_a10");
    assert!(
        p.header.command_line[0].ends_with("vector_add"),
        "{:?}",
        p.header.command_line
    );
    assert!(p.header.start_unix_ns > 0);
    // the program with its source and static report
    assert_eq!(p.programs.len(), 1, "{:?}", p.programs);
    let prog = &p.programs[0];
    assert_eq!(prog.sources.len(), 1);
    assert_eq!(prog.sources[0].text, kernel_file("vector_add.cl"));
    let sites: Vec<_> = prog
        .report
        .sites
        .iter()
        .filter(|s| s.kernel == "vector_add")
        .collect();
    assert_eq!(sites.len(), 3, "{sites:?}");
    assert!(sites.iter().all(|s| s.line == 7 && !s.lsu.is_empty()));
    // the kernel run with its counters
    let runs: Vec<_> = p.kernel_runs().collect();
    assert_eq!(runs.len(), 1, "{:?}", p.records);
    let run = runs[0];
    assert_eq!(run.kernel, "vector_add");
    assert_eq!(run.program, prog.id);
    assert_eq!(run.global_size, [VECTOR_N, 1, 1]);
    assert!(run.end_ns >= run.start_ns);
    assert_eq!(run.sites.len(), 3);
    for s in &run.sites {
        let a = prog.site(s.site).expect("site in the static report");
        assert_eq!(s.requests, VECTOR_N, "{a:?}");
        assert_eq!(s.bytes_requested, 4 * VECTOR_N, "{a:?}");
        assert!(s.bytes_fetched >= s.bytes_requested, "{s:?}");
        assert_eq!(s.predicated_cycles, 0);
    }
    assert_eq!(
        run.sites
            .iter()
            .filter(|s| prog.site(s.site).unwrap().kind == AccessKind::Load)
            .count(),
        2
    );
    // no ACL_PROFILE_TIMER: no transfers
    assert_eq!(p.transfers().count(), 0);
    // the CLI says where the profile went and summarises it
    assert!(
        out.stderr.contains("profile written to"),
        "{}",
        out.describe()
    );
    assert!(out.stderr.contains("vector_add"), "{}", out.describe());
    assert!(out.stderr.contains("1 kernel run(s)"), "{}", out.describe());
}

#[test]
fn fpgacl_profile_timer_adds_transfers() {
    let (out, p) = vector_add_under_cli("profile-cli-vector-add-timer", &["--timer"]);
    let t: Vec<_> = p.transfers().collect();
    assert_eq!(t.len(), 1, "{:?}\n{}", p.records, out.describe());
    assert_eq!(t[0].bytes, 4 * VECTOR_N);
    assert_eq!(t[0].direction.as_str(), "read");
    assert!(t[0].end_ns >= t[0].start_ns);
    // the read waits for the kernel: it starts after the kernel ends
    let run = p.kernel_runs().next().expect("kernel run");
    assert!(t[0].start_ns >= run.end_ns, "{t:?} {run:?}");
    assert!(!run.sites.is_empty());
    assert!(
        out.stderr.contains("memory transfers: 1"),
        "{}",
        out.describe()
    );
}

#[test]
fn fpgacl_profile_passes_exit_status_through() {
    let dir = scratch_dir("profile-cli-exit");
    let out_path = dir.join("never.mon");
    let _ = std::fs::remove_file(&out_path);
    let mut cmd = Command::new(fpgacl_cli());
    cmd.args(["profile", "-o"])
        .arg(&out_path)
        .args(["--", "sh", "-c", "exit 7"])
        .env("FPGACL_LIB_DIR", fpgacl_lib_dir());
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run");
    assert_eq!(
        out.status.and_then(|s| s.code()),
        Some(7),
        "{}",
        out.describe()
    );
    assert!(
        out.stderr.contains("no profile was written"),
        "{}",
        out.describe()
    );
    // a profile left by an earlier run is not mistaken for this run's
    let stale = fpgacl_profile_format::ProfileWriter::create(
        &out_path,
        &fpgacl_profile_format::sample::header(),
    )
    .expect("write a stale profile");
    drop(stale);
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run");
    assert_eq!(out.status.and_then(|s| s.code()), Some(7));
    assert!(
        out.stderr.contains("no profile was written"),
        "{}",
        out.describe()
    );
    // a host killed by a signal: 128 + the signal number
    let mut cmd = Command::new(fpgacl_cli());
    cmd.args(["profile", "-o"])
        .arg(&out_path)
        .args(["--", "sh", "-c", "kill -9 $$"])
        .env("FPGACL_LIB_DIR", fpgacl_lib_dir());
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run");
    assert_eq!(out.status.and_then(|s| s.code()), Some(128 + 9));
    assert!(
        out.stderr.contains("killed by a signal"),
        "{}",
        out.describe()
    );
}

#[test]
fn timer_alone_records_runs_without_counters() {
    let (_, p) = run_profiled(
        "profile_stream",
        "profile-timer-only",
        &[("ACL_PROFILE_TIMER", "1"), ("PROFILE_ROUNDS", "3")],
    );
    let runs: Vec<_> = p.kernel_runs().collect();
    assert_eq!(runs.len(), 3);
    assert!(runs
        .iter()
        .all(|r| r.sites.is_empty() && r.kernel == "scale"));
    // 3 writes and 3 reads of 16 KiB, in order per round
    let t: Vec<_> = p.transfers().collect();
    assert_eq!(t.len(), 6);
    assert!(t.iter().all(|t| t.bytes == 4096 * 4));
    assert_eq!(
        t.iter().filter(|t| t.direction.as_str() == "write").count(),
        3
    );
    assert!(p.snapshots().next().is_none() && p.autorun_captures().next().is_none());
}

#[test]
fn counting_window_and_invalid_variables() {
    // a window far in the future: runs are recorded, nothing is counted
    let (_, p) = run_profiled(
        "profile_stream",
        "profile-window",
        &[
            ("ACL_RUNTIME_PROFILING_ACTIVE", "1"),
            ("ACL_PROFILE_START_CYCLE", "1000000000000000"),
            ("PROFILE_ROUNDS", "2"),
        ],
    );
    let runs: Vec<_> = p.kernel_runs().collect();
    assert_eq!(runs.len(), 2);
    assert!(runs.iter().all(|r| r.sites.is_empty()));
    // invalid values: reported once on stderr, ignored, never fatal
    let (out, p) = run_profiled(
        "profile_stream",
        "profile-invalid-env",
        &[
            ("ACL_RUNTIME_PROFILING_ACTIVE", "1"),
            ("ACL_PROFILE_TIMER", "perhaps"),
            ("ACL_PROFILE_STOP_CYCLE", "soon"),
            ("PROFILE_ROUNDS", "2"),
        ],
    );
    assert_eq!(
        out.stderr.matches("ACL_PROFILE_TIMER=\"perhaps\"").count(),
        1,
        "{}",
        out.stderr
    );
    assert_eq!(
        out.stderr
            .matches("ACL_PROFILE_STOP_CYCLE=\"soon\"")
            .count(),
        1,
        "{}",
        out.stderr
    );
    assert_eq!(p.transfers().count(), 0);
    let runs: Vec<_> = p.kernel_runs().collect();
    assert_eq!(runs.len(), 2);
    assert!(runs.iter().all(|r| !r.sites.is_empty()));
}

#[test]
fn later_contexts_of_a_process_append_to_the_same_profile() {
    // a stale file from an earlier run is replaced by the first context
    let (bin, dir) = prepare("profile_stream", "profile-two-contexts");
    std::fs::write(dir.join("profile.mon"), b"old junk").unwrap();
    let mut cmd = example_command(&bin, "profile_stream", &Linkage::IcdLoader);
    cmd.current_dir(&dir)
        .env("ACL_RUNTIME_PROFILING_ACTIVE", "1")
        .env("PROFILE_ROUNDS", "2")
        .env("PROFILE_CONTEXTS", "2");
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run");
    assert!(out.success(), "{}", out.describe());
    let p = read_profile(dir.join("profile.mon")).expect("profile");
    assert!(!p.truncated);
    // one header, the program of each context, the runs of both
    assert_eq!(p.programs.len(), 2);
    assert_ne!(p.programs[0].id, p.programs[1].id);
    let runs: Vec<_> = p.kernel_runs().collect();
    assert_eq!(runs.len(), 4);
    assert_eq!(runs[0].program, p.programs[0].id);
    assert_eq!(runs[3].program, p.programs[1].id);
    let ids: std::collections::BTreeSet<u64> = runs.iter().map(|r| r.run_id).collect();
    assert_eq!(ids.len(), 4, "run ids are unique in the session");
    assert!(runs.windows(2).all(|w| w[0].start_ns <= w[1].start_ns));
}

#[test]
fn unwritable_output_is_reported_and_not_fatal() {
    let (bin, dir) = prepare("profile_stream", "profile-unwritable");
    let mut cmd = example_command(&bin, "profile_stream", &Linkage::IcdLoader);
    cmd.current_dir(&dir)
        .env("ACL_RUNTIME_PROFILING_ACTIVE", "1")
        .env("FPGACL_PROFILE_OUT", dir.join("no-such-dir").join("p.mon"))
        .env("PROFILE_ROUNDS", "2")
        .env("PROFILE_CONTEXTS", "2");
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run");
    assert!(out.success(), "{}", out.describe());
    assert_eq!(
        out.stderr.matches("profiling disabled").count(),
        1,
        "{}",
        out.describe()
    );
    assert!(!dir.join("no-such-dir").exists());
}

#[test]
fn profiling_off_writes_nothing() {
    let (bin, dir) = prepare("profile_stream", "profile-off");
    let mut cmd = example_command(&bin, "profile_stream", &Linkage::IcdLoader);
    cmd.current_dir(&dir).env("PROFILE_ROUNDS", "1");
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run");
    assert!(out.success(), "{}", out.describe());
    assert!(!dir.join("profile.mon").exists());
}

#[test]
fn autorun_captures_on_demand_with_clear_after_readback() {
    let (out, p) = run_profiled(
        "profile_autorun",
        "profile-autorun",
        &[
            ("ACL_RUNTIME_PROFILING_ACTIVE", "1"),
            // The cumulative view (the default restarts the counters on every read).
            ("FPGACL_AUTORUN_CUMULATIVE", "1"),
        ],
    );
    const PAIRS: u64 = 512;
    let prog = p
        .programs
        .iter()
        .find(|pr| {
            pr.report
                .kernels
                .iter()
                .any(|k| k.name == "worker" && k.autorun)
        })
        .expect("the autorun program");
    let read_site = prog
        .report
        .sites
        .iter()
        .find(|s| s.kernel == "worker" && s.kind == AccessKind::ChannelRead)
        .expect("worker's channel read")
        .id;
    let caps: Vec<_> = p.autorun_captures().collect();
    assert_eq!(
        caps.len(),
        8,
        "4 calls x 2 compute units\n{}",
        out.describe()
    );
    // one capture per compute unit per call, call times strictly increasing
    let mut times = Vec::new();
    for call in caps.chunks(2) {
        assert_eq!(call[0].capture_ns, call[1].capture_ns);
        let mut units: Vec<_> = call.iter().map(|c| c.compute_unit).collect();
        units.sort();
        assert_eq!(units, vec![[0, 0, 0], [1, 0, 0]]);
        assert!(call
            .iter()
            .all(|c| c.kernel == "worker" && c.program == prog.id));
        times.push(call[0].capture_ns);
    }
    assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
    let cleared: Vec<bool> = caps.chunks(2).map(|c| c[0].cleared).collect();
    assert_eq!(cleared, vec![false, true, false, false]);
    // values read per compute unit: cumulative until the clear, then restarted
    for cu in [[0, 0, 0], [1, 0, 0]] {
        let reads: Vec<u64> = caps
            .iter()
            .filter(|c| c.compute_unit == cu)
            .map(|c| {
                c.sites
                    .iter()
                    .find(|s| s.site == read_site)
                    .map_or(0, |s| s.requests)
            })
            .collect();
        assert_eq!(
            reads,
            vec![PAIRS, 2 * PAIRS, 0, PAIRS],
            "compute unit {cu:?}"
        );
    }
    // the profiler's overall view: the cleared window plus the last one
    let total = p.aggregate_autorun_sites(0, "worker");
    let read_total = total.iter().find(|s| s.site == read_site).unwrap();
    assert_eq!(read_total.requests, 2 * 3 * PAIRS);
}

#[test]
fn snapshot_of_a_running_kernel() {
    let (_, p) = run_profiled(
        "profile_snapshot",
        "profile-snapshot",
        &[("ACL_RUNTIME_PROFILING_ACTIVE", "1")],
    );
    // clGetProfileInfoIntelFPGA, then clGetProfileDataDeviceIntelFPGA(read_enqueue_kernels)
    let snaps: Vec<_> = p.snapshots().collect();
    assert_eq!(snaps.len(), 2, "{:?}", p.records);
    assert!(snaps[0].taken_ns <= snaps[1].taken_ns);
    let consumer = p
        .kernel_runs()
        .find(|r| r.kernel == "consumer")
        .expect("consumer run");
    const N: u64 = 2000;
    let prog = p.program(consumer.program).expect("program");
    let read = prog
        .report
        .sites
        .iter()
        .find(|a| a.kernel == "consumer" && a.kind == AccessKind::ChannelRead)
        .expect("consumer's channel read")
        .id;
    let requests = |sites: &[fpgacl_profile_format::SiteCounters]| {
        sites
            .iter()
            .find(|c| c.site == read)
            .map(|c| c.requests)
            .expect("counters of the channel read")
    };
    for s in &snaps {
        assert_eq!(s.run.kernel, "consumer");
        assert_eq!(s.run.run_id, consumer.run_id);
        assert_eq!(s.run.end_ns, s.taken_ns);
        assert!(s.run.start_ns <= s.taken_ns);
        // on the emulated timeline the snapshot lies inside the run
        assert!(s.taken_ns >= consumer.start_ns && s.taken_ns <= consumer.end_ns);
        // live counters: after the first producer launch the consumer has read N values,
        // except the few still in the channel (depth 4) or being counted
        let at_snapshot = requests(&s.run.sites);
        assert!((N - 6..=N).contains(&at_snapshot), "{at_snapshot}");
    }
    assert_eq!(requests(&consumer.sites), 2 * N);
    // the first producer run ended before the snapshots, the second one after them
    let producers: Vec<_> = p.kernel_runs().filter(|r| r.kernel == "producer").collect();
    assert_eq!(producers.len(), 2);
    assert!(producers[0].end_ns <= snaps[0].taken_ns && producers[1].end_ns >= snaps[1].taken_ns);
    // file order is the order things happened
    let pos = |pred: &dyn Fn(&Record) -> bool| p.records.iter().position(pred).unwrap();
    assert!(
        pos(&|r| matches!(r, Record::Snapshot(_)))
            < pos(&|r| matches!(r, Record::KernelRun(k) if k.kernel == "consumer"))
    );
}

/// Reads `path` until it holds at least `n` kernel runs or `timeout` passes.
fn wait_for_runs(path: &Path, n: usize, timeout: Duration) -> usize {
    let t0 = Instant::now();
    loop {
        let have = read_profile(path).map_or(0, |p| p.kernel_runs().count());
        if have >= n || t0.elapsed() > timeout {
            return have;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn host_killed_mid_run_leaves_a_readable_profile() {
    let (bin, dir) = prepare("profile_stream", "profile-sigkill");
    let path = dir.join("profile.mon");
    let mut cmd = example_command(&bin, "profile_stream", &Linkage::IcdLoader);
    cmd.current_dir(&dir)
        .env("PROFILE_ROUNDS", "0")
        .env("ACL_RUNTIME_PROFILING_ACTIVE", "1")
        .env("ACL_PROFILE_TIMER", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut child = cmd.spawn().expect("spawn host");
    let have = wait_for_runs(&path, 25, Duration::from_secs(120));
    child.kill().expect("SIGKILL the host");
    let status = child.wait().expect("reap host");
    assert!(
        status.code().is_none(),
        "the host should have been killed: {status}"
    );
    assert!(have >= 25, "only {have} kernel runs before the timeout");
    let p = read_profile(&path).expect("a killed host's profile reads back");
    let runs = p.kernel_runs().count();
    assert!(runs >= have, "{runs} < {have}");
    assert_eq!(p.programs.len(), 1);
    // every whole record is there: per round a write, a kernel run and a read, in order (each
    // after its host gap)
    let kinds: Vec<&str> = p
        .records
        .iter()
        .filter(|r| !matches!(r, Record::HostGap(_)))
        .map(|r| match r {
            Record::KernelRun(_) => "k",
            Record::MemTransfer(t) => t.direction.as_str(),
            _ => "?",
        })
        .collect();
    for (i, round) in kinds.chunks(3).enumerate() {
        if round.len() == 3 {
            assert_eq!(round, ["write", "k", "read"], "round {i}");
        }
    }
    assert!(p.kernel_runs().all(|r| r.sites.len() == 2));
}

/// A host linked directly against libfpgacl.so calls the extension functions by name,
/// declared by the project's header (`-I<workspace>/include`, `#include <CL/fpgacl_intel_ext.h>`).
#[test]
fn extension_functions_by_name_with_the_header() {
    const SRC: &str = r#"
#define CL_TARGET_OPENCL_VERSION 200
#include "common.h"
#include <CL/fpgacl_intel_ext.h>

int main(void)
{
    cl_platform_id platform = select_platform();
    cl_device_id dev = select_device(platform);
    cl_context ctx = create_context(platform, dev);
    cl_int err = 0, v = 0;
    STEP("profiler calls");
    EXPECT_CODE(clGetProfileInfoIntelFPGA(NULL), CL_INVALID_EVENT);
    EXPECT_CODE(clGetProfileDataDeviceIntelFPGA(dev, NULL, CL_TRUE, CL_TRUE, CL_TRUE, 0, NULL,
                                                NULL, &err), CL_SUCCESS);
    EXPECT_CODE(clGetProfileDataDeviceIntelFPGA(NULL, NULL, CL_TRUE, CL_TRUE, CL_FALSE, 0, NULL,
                                                NULL, &err), CL_INVALID_DEVICE);
    EXPECT(err == CL_INVALID_DEVICE, "errcode_ret %d", (int)err);
    STEP("host pipe calls");
    EXPECT_CODE(clReadPipeIntelFPGA(NULL, &v), CL_INVALID_MEM_OBJECT);
    cl_mem p = clCreatePipe(ctx, CL_MEM_HOST_READ_ONLY, 4, 2, NULL, &err);
    CHECK_ERR(err, "clCreatePipe");
    EXPECT_CODE(clReadPipeIntelFPGA(p, &v), CL_PIPE_EMPTY);
    cl_mem b = create_buffer(ctx, CL_MEM_READ_WRITE, 64, NULL);
    EXPECT_CODE(clWritePipeIntelFPGA(b, &v), CL_INVALID_MEM_OBJECT);
    STEP("buffer location");
    cl_mem_properties_intel props[] = {CL_MEM_CHANNEL_INTEL, 2, 0};
    cl_mem c = clCreateBufferWithPropertiesINTEL(ctx, props, CL_MEM_READ_WRITE, 256, NULL, &err);
    CHECK_ERR(err, "clCreateBufferWithPropertiesINTEL");
    CHECK(clReleaseMemObject(c));
    CHECK(clReleaseMemObject(b));
    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseContext(ctx));
    return pass("extension functions by name");
}
"#;
    let lib_dir = fpgacl_lib_dir();
    let dir = scratch_dir("profile-ext-direct");
    let src = dir.join("ext_direct.c");
    std::fs::write(&src, SRC).expect("write source");
    let linkage = Linkage::Direct {
        lib_dir: lib_dir.clone(),
    };
    let bin = fpgacl_host_examples::Compiler::new()
        .flag(format!("-I{}", workspace_root().join("include").display()))
        .flag("-Werror")
        .compile_source(&src, "ext_direct", &dir, &linkage)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut cmd = fpgacl_tests::hermetic_command(&bin, "profile-ext-direct");
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run");
    assert!(out.success(), "{}", out.describe());
    assert!(out.stdout.contains("PASS"), "{}", out.describe());
}
