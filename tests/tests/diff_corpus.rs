//! Issue 4: the differential test. Every kernel of the corpus
//! (`host-examples/diff/*.cl` with its `.spec`) runs through the generic
//! driver `diff_driver.c` on fpgacl and on PoCL (the reference, when
//! installed; otherwise with PoCL's outputs recorded in
//! `host-examples/diff/expected/`); integer outputs must be bit-exact, float outputs within the
//! OpenCL 1.2 ULP bounds (`fpgacl_tests::diff::Check`), and printf output
//! identical. The same NDRange programs give identical outputs with
//! `FPGACL_THREADS=1` and `FPGACL_THREADS=4` (every corpus kernel).
//!
//! The corpus itself is validated by running it on both references, PoCL
//! and Oclgrind: they agree except where Oclgrind 21.10 deviates from the
//! specification (listed below, each checked against the specification and
//! by hand).

use fpgacl_host_examples::{diff_cases, DiffCase};
use fpgacl_tests::diff::{
    compare_runs, record_reference, recorded_reference, run_case, DiffOutput, DiffRun,
};
use fpgacl_tests::Implementation;

/// Buffers (case, kernel argument index) where Oclgrind 21.10 is wrong.
const OCLGRIND_DEVIATIONS: &[(&str, u32, &str)] = &[
    (
        "math_round",
        7,
        "fract(+-inf) returns 0x1.fffffep-1 instead of +-0 (spec 7.5.1)",
    ),
    (
        "int_mul",
        7,
        "mad_sat on long does not saturate the full 128-bit a*b+c",
    ),
    (
        "int_minmax",
        4,
        "int4 clamp/min/max with scalar or literal-vector bounds give wrong lanes",
    ),
    (
        "convert_sat_round",
        1,
        "convert_int_rtn/_rtp round negative halves the wrong way; _sat of NaN is not 0",
    ),
    ("convert_sat_round", 2, "convert_char_sat* of NaN is not 0"),
    ("convert_sat_round", 4, "convert_short_sat* of NaN is not 0"),
    ("convert_sat_round", 6, "convert_long_sat* of NaN is not 0"),
];

/// The reference run: PoCL live when installed, else PoCL's recorded outputs.
fn reference(case: &DiffCase) -> (&'static str, DiffRun) {
    if let Err(why) = Implementation::Pocl.vendors() {
        eprintln!(
            "{}: {why}; comparing with the recorded PoCL outputs instead",
            case.name
        );
        return match recorded_reference(case) {
            Ok(run) => ("recorded pocl", run),
            Err(e) => panic!("{e}"),
        };
    }
    match run_case(case, Implementation::Pocl, &[]) {
        Ok(run) => ("pocl", run),
        Err(e) => panic!(
            "the reference PoCL cannot run corpus case {}:\n{e}",
            case.name
        ),
    }
}

/// fpgacl's outputs for `name` equal PoCL's within the rules.
fn fpgacl_matches_pocl(name: &str) {
    let case = DiffCase::named(name);
    assert!(case.source.is_file(), "no corpus kernel {name}");
    let (label, reference) = reference(&case);
    let actual = run_case(&case, Implementation::Fpgacl, &[])
        .unwrap_or_else(|e| panic!("fpgacl cannot run corpus case {name}:\n{e}"));
    if let Err(report) = compare_runs(&case, (label, &reference), ("fpgacl", &actual)) {
        panic!("{report}");
    }
}

/// fpgacl gives identical outputs (every bit, and printf in the same order)
/// with 1 and 4 worker threads. (Tasks run on one thread anyway; they are
/// included so that nothing depends on the variable.)
fn fpgacl_threads_agree(name: &str) {
    let case = DiffCase::named(name);
    let one = run_case(&case, Implementation::Fpgacl, &[("FPGACL_THREADS", "1")])
        .unwrap_or_else(|e| panic!("fpgacl (FPGACL_THREADS=1) cannot run {name}:\n{e}"));
    let four = run_case(&case, Implementation::Fpgacl, &[("FPGACL_THREADS", "4")])
        .unwrap_or_else(|e| panic!("fpgacl (FPGACL_THREADS=4) cannot run {name}:\n{e}"));
    assert_eq!(
        one.stdout, four.stdout,
        "{name}: printf output differs between 1 and 4 threads"
    );
    if one.output != four.output {
        panic!(
            "{name}: outputs differ between FPGACL_THREADS=1 and 4:\n{}",
            first_bit_differences(&one.output, &four.output)
        );
    }
}

/// The first few elements whose bit patterns differ, per buffer.
fn first_bit_differences(a: &DiffOutput, b: &DiffOutput) -> String {
    if a.buffers.len() != b.buffers.len() {
        return format!("{} vs {} output buffers", a.buffers.len(), b.buffers.len());
    }
    let mut out = String::new();
    for (x, y) in a.buffers.iter().zip(&b.buffers) {
        let diffs: Vec<String> = x
            .values
            .iter()
            .zip(&y.values)
            .enumerate()
            .filter(|(_, (p, q))| p != q)
            .take(8)
            .map(|(i, (p, q))| format!("    [{i}] {} vs {}", x.ty.render(*p), x.ty.render(*q)))
            .collect();
        if !diffs.is_empty() || x.values.len() != y.values.len() {
            out.push_str(&format!(
                "argument {} ({} x{} vs x{}):\n{}\n",
                x.arg,
                x.ty,
                x.values.len(),
                y.values.len(),
                diffs.join("\n")
            ));
        }
    }
    out
}

macro_rules! corpus {
    ($($name:ident),* $(,)?) => {
        mod fpgacl_vs_pocl {
            $(
                #[test]
                fn $name() {
                    super::fpgacl_matches_pocl(stringify!($name));
                }
            )*
        }

        mod fpgacl_threads_1_vs_4 {
            $(
                #[test]
                fn $name() {
                    super::fpgacl_threads_agree(stringify!($name));
                }
            )*
        }

        /// Every corpus file has a test above, and every test a corpus file.
        #[test]
        fn every_corpus_case_is_tested() {
            let listed = [$(stringify!($name)),*];
            let cases: Vec<String> = diff_cases().into_iter().map(|c| c.name).collect();
            for c in &cases {
                assert!(listed.contains(&c.as_str()), "corpus case {c} is not in diff_corpus.rs");
                assert!(
                    DiffCase::named(c).expected_output().is_file(),
                    "corpus case {c} has no recorded PoCL output (DIFF_BLESS=1 cargo test \
                     -p fpgacl-tests --test diff_corpus recorded)"
                );
            }
            for l in listed {
                assert!(cases.iter().any(|c| c == l), "{l} is listed but has no corpus file");
            }
            assert!(cases.len() >= 40, "the corpus must hold at least 40 kernels");
        }
    };
}

corpus!(
    as_type,
    async_copy,
    atomics_global,
    atomics_local,
    barrier_global,
    cf_loops,
    cf_switch,
    cf_ternary_if,
    common_fns,
    constant_tables,
    convert_sat_round,
    convert_to_float,
    geometric,
    half_conv,
    helper_functions,
    implicit_conv,
    int_bits,
    int_edge,
    int_long,
    int_minmax,
    int_mul,
    int_sat,
    local_reduce,
    local_scan,
    local_transpose,
    math_erf_gamma,
    math_exp_log,
    math_hyper,
    math_inv_trig,
    math_misc,
    math_native_half,
    math_pow,
    math_round,
    math_sqrt_div,
    math_trig,
    math_vector,
    printf_groups,
    printf_ndrange,
    printf_task,
    private_arrays,
    relational,
    select_bits,
    small_int_vec,
    structs,
    task_accumulate,
    vec3,
    vec8_16,
    vec_int_ops,
    vec_swizzle,
    vload_vstore,
    work_item_fns,
);

/// Drop the buffers listed in [`OCLGRIND_DEVIATIONS`] for `case` from both outputs.
fn without_known_deviations(case: &str, out: &DiffOutput) -> DiffOutput {
    let mut out = out.clone();
    out.buffers.retain(|b| {
        !OCLGRIND_DEVIATIONS
            .iter()
            .any(|(c, arg, _)| *c == case && *arg == b.arg)
    });
    out
}

/// The corpus is sound: PoCL and Oclgrind, two independent implementations,
/// run every kernel and agree within the same rules (minus Oclgrind's
/// listed deviations, which must still be real differences).
#[test]
fn corpus_agrees_between_pocl_and_oclgrind() {
    for imp in [Implementation::Pocl, Implementation::Oclgrind] {
        if let Err(why) = imp.vendors() {
            eprintln!("SKIP corpus validation: {why}");
            return;
        }
    }
    let mut failures = Vec::new();
    let mut compared = 0usize;
    for case in diff_cases() {
        let runs = (
            run_case(&case, Implementation::Pocl, &[]),
            run_case(&case, Implementation::Oclgrind, &[]),
        );
        let (pocl, ogr) = match runs {
            (Ok(p), Ok(o)) => (p, o),
            (p, o) => {
                for e in [p.err(), o.err()].into_iter().flatten() {
                    failures.push(e);
                }
                continue;
            }
        };
        for (c, arg, why) in OCLGRIND_DEVIATIONS.iter().filter(|d| d.0 == case.name) {
            let keep = |o: &DiffOutput| DiffOutput {
                kernel: o.kernel.clone(),
                buffers: o
                    .buffers
                    .iter()
                    .filter(|b| b.arg == *arg)
                    .cloned()
                    .collect(),
            };
            let diff = fpgacl_tests::diff::compare(&keep(&pocl.output), &keep(&ogr.output));
            if diff.is_match() {
                failures.push(format!(
                    "{c} argument {arg}: listed as an Oclgrind deviation ({why}) but now agrees"
                ));
            }
        }
        let p = DiffRun {
            output: without_known_deviations(&case.name, &pocl.output),
            ..pocl
        };
        let o = DiffRun {
            output: without_known_deviations(&case.name, &ogr.output),
            ..ogr
        };
        match compare_runs(&case, ("pocl", &p), ("oclgrind", &o)) {
            Ok(n) => compared += n,
            Err(report) => failures.push(report),
        }
    }
    assert!(
        failures.is_empty(),
        "the corpus does not agree between PoCL and Oclgrind:\n{}",
        failures.join("\n")
    );
    assert!(compared > 50_000, "only {compared} elements compared");
}

/// The recorded PoCL outputs (used when PoCL is not installed) agree with a
/// live PoCL run under the same rules. `DIFF_BLESS=1` (re)records them.
#[test]
fn recorded_reference_outputs_match_pocl() {
    if let Err(why) = Implementation::Pocl.vendors() {
        eprintln!("SKIP recorded-output check: {why}");
        return;
    }
    let bless = std::env::var("DIFF_BLESS").is_ok_and(|v| !v.is_empty() && v != "0");
    let mut failures = Vec::new();
    for case in diff_cases() {
        let live = match run_case(&case, Implementation::Pocl, &[]) {
            Ok(run) => run,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        if bless {
            if let Err(e) = record_reference(&case, &live) {
                failures.push(e);
            }
            continue;
        }
        match recorded_reference(&case) {
            Ok(recorded) => {
                if let Err(report) =
                    compare_runs(&case, ("recorded pocl", &recorded), ("pocl", &live))
                {
                    failures.push(report);
                }
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "recorded reference outputs are stale or missing (re-record with \
         DIFF_BLESS=1 cargo test -p fpgacl-tests --test diff_corpus recorded):\n{}",
        failures.join("\n")
    );
}

/// The driver rejects a malformed spec before touching any platform, naming
/// the spec line.
#[test]
fn driver_reports_spec_errors_with_their_line() {
    let dir = fpgacl_tests::scratch_dir("diff/bad-spec");
    let kernel = dir.join("k.cl");
    std::fs::write(&kernel, "__kernel void k(__global int *o) { o[0] = 1; }\n").expect("write");
    let cases = [
        (
            "kernel k\nglobal 4\narg buffer int 4 in gen=range:1\n",
            "spec:3: range needs",
        ),
        (
            "kernel k\nglobal 4\narg buffer quad 4 out\n",
            "spec:3: unknown type",
        ),
        (
            "kernel k\nglobal 4\narg buffer int 4 sideways\n",
            "spec:3: direction must be",
        ),
        (
            "kernel k\n# no global\narg buffer int 4 out\n",
            "no `global` line",
        ),
        ("global 4\narg buffer int 4 out\n", "no `kernel NAME` line"),
        (
            "kernel k\nglobal 4\nwibble 3\n",
            "spec:3: unknown directive",
        ),
        (
            "kernel k\nglobal 4\narg value int:x\n",
            "spec:3: bad integer",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let spec = dir.join(format!("bad{i}.spec"));
        std::fs::write(&spec, text).expect("write spec");
        let mut cmd =
            fpgacl_tests::hermetic_command(&fpgacl_tests::diff::diff_driver(), "diff/bad-spec");
        cmd.arg(&kernel).arg(&spec).arg(dir.join("out.txt"));
        let out = fpgacl_tests::run_with_timeout(&mut cmd, std::time::Duration::from_secs(60))
            .expect("run driver");
        assert!(!out.success(), "spec {i} accepted:\n{}", out.describe());
        assert!(
            out.fail_lines().iter().any(|l| l.contains(want)),
            "spec {i}: expected a FAIL line containing {want:?}:\n{}",
            out.describe()
        );
    }
}
