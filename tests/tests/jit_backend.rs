//! Issue 12 item 1: the compiling backend (the default; `FPGACL_BACKEND=interp` selects the
//! reference interpreter) end to end, through the ICD loader and real C hosts.
//!
//! - Every case of the differential corpus (`host-examples/diff`) runs through the generic
//!   driver with `FPGACL_BACKEND=interp` and `=jit`, with profiling on: the output buffers
//!   (every bit), the printf output, and for every kernel run of the profile its site counters
//!   and its emulated duration in device cycles must be identical.
//! - The kernel examples of `kernel_examples.rs` (which run on the default backend, the JIT)
//!   also pass on the interpreter; kernels with barriers and local memory compile (debug log
//!   line); a kernel the JIT does not compile (images) runs on the interpreter and says so in
//!   one log line (`FPGACL_LOG=info`).

use fpgacl_host_examples::{diff_cases, DiffCase};
use fpgacl_profile_format::read_profile;
use fpgacl_tests::diff::run_case;
use fpgacl_tests::{
    compile_example, example, example_command, fpgacl_lib_dir, run_with_timeout, scratch_dir,
    Implementation, Linkage, RunOutput, DEFAULT_TIMEOUT,
};

/// One corpus case on one backend: (run, per kernel run: kernel, cycles, site counters).
fn corpus_run(case: &DiffCase, backend: &str) -> (fpgacl_tests::diff::DiffRun, Vec<String>) {
    let prof = scratch_dir(&format!("jit-backend/{}/{backend}", case.name)).join("profile.mon");
    let _ = std::fs::remove_file(&prof);
    let prof_s = prof.to_string_lossy().to_string();
    let run = run_case(
        case,
        Implementation::Fpgacl,
        &[
            ("FPGACL_BACKEND", backend),
            // One worker: with several, atomics return values in a run-dependent order (and
            // kernels that index with them touch run-dependent addresses) on either backend.
            ("FPGACL_THREADS", "1"),
            ("ACL_RUNTIME_PROFILING_ACTIVE", "1"),
            ("FPGACL_PROFILE_OUT", &prof_s),
        ],
    )
    .unwrap_or_else(|e| panic!("{} on {backend}: {e}", case.name));
    let p = read_profile(&prof).unwrap_or_else(|e| panic!("{}: {e}", prof.display()));
    let runs = p
        .kernel_runs()
        .map(|k| {
            format!(
                "{} {:?}/{:?} cycles {} sites {:?}",
                k.kernel,
                k.global_size,
                k.local_size,
                k.end_cycle - k.start_cycle,
                k.sites
            )
        })
        .collect();
    (run, runs)
}

#[test]
fn the_corpus_agrees_bit_for_bit_on_both_backends() {
    let _ = fpgacl_lib_dir();
    let cases = diff_cases();
    assert!(cases.len() >= 40);
    for case in &cases {
        let (a, pa) = corpus_run(case, "interp");
        let (b, pb) = corpus_run(case, "jit");
        assert_eq!(a.stdout, b.stdout, "{}: printf output differs", case.name);
        assert!(
            a.output == b.output,
            "{}: outputs differ between the backends:\n{}\n---\n{}",
            case.name,
            a.raw,
            b.raw
        );
        assert!(
            !pa.is_empty(),
            "{}: no kernel run in the profile",
            case.name
        );
        assert_eq!(pa, pb, "{}: counters or emulated cycles differ", case.name);
    }
}

fn run_example_with(name: &str, env: &[(&str, &str)]) -> RunOutput {
    let _ = fpgacl_lib_dir();
    let ex = example(name).unwrap_or_else(|| panic!("no example {name}"));
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let mut cmd = example_command(&bin, name, &Linkage::IcdLoader);
    // The default backend unless `env` names one (whatever the test run's environment).
    cmd.env_remove("FPGACL_BACKEND");
    for (k, v) in env {
        cmd.env(k, v);
    }
    run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("runs")
}

/// The examples `kernel_examples.rs` runs through the ICD loader (on the default backend).
const KERNEL_EXAMPLES: &[&str] = &[
    "vector_add",
    "accumulators",
    "task_loop",
    "grid_stride",
    "local_reduction",
    "channel_producer_consumer",
    "pipe_producer_consumer",
    "feed_forward",
    "autorun",
    "profile_autorun",
    "profile_snapshot",
    "profile_stream",
    "profile_host_pipes",
];

#[test]
fn kernel_examples_pass_on_the_interpreter() {
    for name in KERNEL_EXAMPLES {
        let out = run_example_with(name, &[("FPGACL_BACKEND", "interp")]);
        assert!(
            out.passed(),
            "{name} on the interpreter:\n{}",
            out.describe()
        );
    }
}

#[test]
fn the_example_list_matches_kernel_examples_rs() {
    // Every example kernel_examples.rs tests through the ICD loader is also run above.
    let src = include_str!("kernel_examples.rs");
    let list = &src[src.find("through_icd!(").expect("macro call")..];
    let list = &list[..list.find(");").expect("end of the list")];
    let names: Vec<&str> = list["through_icd!(".len()..]
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    assert!(names.len() >= 10, "{names:?}");
    assert_eq!(names, KERNEL_EXAMPLES);
}

#[test]
fn kernels_with_barriers_compile_and_images_fall_back_with_one_log_line() {
    // The default backend (no FPGACL_BACKEND) is the JIT. local_reduction's two kernels use
    // barriers and local memory (several launches each): both compile, none falls back.
    let out = run_example_with("local_reduction", &[("FPGACL_LOG", "debug")]);
    assert!(out.passed(), "{}", out.describe());
    for k in ["reduce_arg", "reduce_fixed"] {
        assert!(
            out.stderr
                .lines()
                .any(|l| l.starts_with(&format!("kernel {k}: compiled to"))),
            "{k} was not compiled:\n{}",
            out.stderr
        );
    }
    assert!(!out.stderr.contains("not compiled"), "{}", out.stderr);
    // Kernels with images still run on the interpreter: one note per kernel.
    let out = run_example_with("images", &[("FPGACL_LOG", "info")]);
    assert!(out.passed(), "{}", out.describe());
    let notes: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.contains("not compiled"))
        .collect();
    let mut kernels: Vec<&str> = notes
        .iter()
        .filter_map(|l| l.strip_prefix("kernel ")?.split(':').next())
        .collect();
    let n = kernels.len();
    kernels.sort_unstable();
    kernels.dedup();
    assert_eq!(kernels.len(), n, "not one note per kernel:\n{}", out.stderr);
    assert!(kernels.contains(&"blur"), "{}", out.stderr);
    assert!(
        notes
            .iter()
            .all(|l| l.contains("image") && l.contains("runs on the interpreter")),
        "{}",
        out.stderr
    );
    // The reference interpreter compiles nothing and says nothing about it.
    let out = run_example_with(
        "images",
        &[("FPGACL_BACKEND", "interp"), ("FPGACL_LOG", "info")],
    );
    assert!(out.passed(), "{}", out.describe());
    assert!(!out.stderr.contains("not compiled"), "{}", out.stderr);
    // A kernel that compiles says so at debug level (and the code generator's own pass logs
    // stay out of the output).
    let out = run_example_with("vector_add", &[("FPGACL_LOG", "debug")]);
    assert!(out.passed(), "{}", out.describe());
    assert!(
        out.stderr
            .lines()
            .any(|l| l.starts_with("kernel vector_add: compiled to")),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("timing: Starting"), "{}", out.stderr);
}
