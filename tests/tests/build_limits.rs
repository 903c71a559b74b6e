//! Issue 15, through a C host and the CLI: what the build log says and how fast builds return.
//!
//! * private memory over the limit: `clEnqueueNDRangeKernel` returns `CL_OUT_OF_RESOURCES` at
//!   once (`private_limit` host), the build log and `fpgacl aoc` warn;
//! * the pathological-input corpus (deep nesting, huge unrolls, 20,000 statements / switch
//!   cases / initializer elements, absurd channel depths) built by `clBuildProgram` through
//!   the ICD loader: each returns within a bound with a useful build log (`build_log` host);
//! * printf format errors are diagnosed in the build log and by `fpgacl aoc`.

use std::path::{Path, PathBuf};
use std::process::Command;

use fpgacl_tests::{
    compile_example, example, example_command, fpgacl_cli, fpgacl_lib_dir, run_with_timeout,
    scratch_dir, Linkage, RunOutput, DEFAULT_TIMEOUT,
};

/// One file's result from the `build_log` host.
#[derive(Debug)]
struct Built {
    status: i32,
    seconds: f64,
    /// CPU time of the host process during clBuildProgram.
    cpu: f64,
    log: String,
}

/// Builds each file with clBuildProgram through the ICD loader (`build_log` host).
fn build_logs(files: &[PathBuf], options: &str) -> (Vec<Built>, RunOutput) {
    let _ = fpgacl_lib_dir();
    let ex = example("build_log").expect("example");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let mut cmd = example_command(&bin, "build_log", &Linkage::IcdLoader);
    cmd.args(files).env("BUILD_LOG_OPTIONS", options);
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT * 4).expect("run build_log");
    assert!(out.passed(), "{}", out.describe());
    let mut res = Vec::new();
    let mut lines = out.stdout.lines();
    while let Some(l) = lines.next() {
        if !l.starts_with("=== ") || l == "=== end" {
            continue;
        }
        let head = lines.next().unwrap_or_default();
        let field = |k: &str| {
            head.split_whitespace()
                .find_map(|f| f.strip_prefix(k))
                .unwrap_or_default()
                .to_string()
        };
        let mut log = String::new();
        for l in lines.by_ref() {
            if l == "=== end" {
                break;
            }
            log.push_str(l);
            log.push('\n');
        }
        res.push(Built {
            status: field("status=").parse().unwrap_or(i32::MIN),
            seconds: field("seconds=").parse().unwrap_or(f64::MAX),
            cpu: field("cpu=").parse().unwrap_or(f64::MAX),
            log,
        });
    }
    assert_eq!(res.len(), files.len(), "{}", out.describe());
    (res, out)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// `fpgacl aoc <file> -o <file>.aocx` in `dir`.
fn aoc(dir: &Path, file: &Path) -> RunOutput {
    let _ = fpgacl_lib_dir();
    let mut cmd = Command::new(fpgacl_cli());
    cmd.current_dir(dir)
        .arg("aoc")
        .arg(file)
        .arg("-o")
        .arg(file.with_extension("aocx"))
        .env_remove("OCL_ICD_VENDORS");
    run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run fpgacl aoc")
}

#[test]
fn private_memory_over_the_limit_fails_at_enqueue_and_is_warned() {
    let _ = fpgacl_lib_dir();
    let ex = example("private_limit").expect("example");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let mut cmd = example_command(&bin, "private_limit", &Linkage::IcdLoader);
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run private_limit");
    assert!(
        out.passed() && out.stdout.contains("PASS: private_limit"),
        "{}",
        out.describe()
    );
    // fpgacl aoc warns too.
    let dir = scratch_dir("build-limits-private");
    let k = dir.join("private_limit.cl");
    std::fs::copy(&ex.kernel_paths()[0], &k).unwrap();
    let a = aoc(&dir, &k);
    assert!(a.success(), "{}", a.describe());
    let all = format!("{}{}", a.stdout, a.stderr);
    assert!(
        all.contains("warning")
            && all.contains("private memory of kernel 'big'")
            && all.contains("1024 work-items"),
        "{}",
        a.describe()
    );
}

/// `depth` loops nested in each other.
fn nested_loops(depth: usize) -> String {
    let mut s = String::from("__kernel void k(__global int *restrict out, int n) {\n int a = 0;\n");
    for d in 0..depth {
        s += &format!(" for (int i{d} = 0; i{d} < n; i{d}++) {{\n");
    }
    s += "  a += 1;\n";
    s += &" }\n".repeat(depth);
    s + " out[0] = a;\n}\n"
}

/// `depth` parenthesised expressions / blocks nested in each other.
fn nested_parens(depth: usize) -> String {
    format!(
        "__kernel void k(__global int *out) {{\n out[0] = {}1{};\n}}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    )
}

fn unrolled(pragma: &str, bound: &str) -> String {
    format!(
        "__kernel void k(__global int *restrict out, __global const int *restrict in, int n) {{\n\
         int acc = 0;\n{pragma}\n\
         for (int i = 0; i < {bound}; i++) acc += in[i & 1023] * i;\n\
         out[0] = acc;\n}}\n"
    )
}

fn straight_line(n: usize) -> String {
    let mut s = String::from(
        "__kernel void k(__global int *restrict out, __global const int *restrict in) {\n int x = in[0];\n",
    );
    for i in 0..n {
        s += &format!(" x = x * {} + in[{}];\n", i % 7 + 2, i % 64);
    }
    s + " out[0] = x;\n}\n"
}

fn big_switch(n: usize) -> String {
    let mut s = String::from(
        "__kernel void k(__global int *restrict out, __global const int *restrict in, int m) {\n\
         for (int j = 0; j < m; j++) {\n int r = 0;\n switch (in[j]) {\n",
    );
    for i in 0..n {
        s += &format!("  case {i}: r = {}; break;\n", i * 3 + 1);
    }
    s + "  default: r = -1;\n }\n out[j] = r;\n }\n}\n"
}

fn big_initializer(n: usize) -> String {
    let items: Vec<String> = (0..n).map(|i| (i % 1000).to_string()).collect();
    format!(
        "__constant int tab[{n}] = {{{0}}};\n\
         __kernel void k(__global int *restrict out, int i) {{\n\
         int p[{n}] = {{{0}}};\n out[0] = p[i] + tab[i];\n}}\n",
        items.join(",")
    )
}

/// Issue 15 item 7 through the ICD loader: every pathological input returns from
/// clBuildProgram within the bound, with the expected status and a build log that says what
/// happened (a warning for capped unrolls, a located error for what cannot be built).
#[test]
fn pathological_inputs_return_from_clbuildprogram_with_a_useful_log() {
    let dir = scratch_dir("build-limits-pathological");
    // (file, source, expected status, text the log must contain)
    let cases: Vec<(&str, String, i32, &str)> = vec![
        ("nested_94.cl", nested_loops(94), 0, ""),
        ("nested_128.cl", nested_loops(128), 0, ""),
        ("parens_20000.cl", nested_parens(20_000), -11, "nest"),
        (
            "unroll_u32max.cl",
            unrolled("#pragma unroll 4294967295", "n"),
            0,
            "capped",
        ),
        (
            "unroll_full_1e9.cl",
            unrolled("#pragma unroll", "1000000000"),
            0,
            "capped",
        ),
        ("statements_20000.cl", straight_line(20_000), 0, ""),
        ("switch_20000.cl", big_switch(20_000), 0, ""),
        ("initializer_20000.cl", big_initializer(20_000), 0, ""),
        (
            "channel_depth.cl",
            "#pragma OPENCL EXTENSION cl_intel_channels : enable\n\
             channel ulong16 c __attribute__((depth(2000000000)));\n\
             __kernel void k() { write_channel_intel(c, (ulong16)(1)); }\n"
                .to_string(),
            -11,
            "depth",
        ),
    ];
    let files: Vec<PathBuf> = cases
        .iter()
        .map(|(name, text, _, _)| write(&dir, name, text))
        .collect();
    let (built, out) = build_logs(&files, "");
    for ((name, _, status, needle), b) in cases.iter().zip(&built) {
        eprintln!(
            "{name}: status {} in {:.2} s ({:.2} s CPU)",
            b.status, b.seconds, b.cpu
        );
        assert_eq!(b.status, *status, "{name}: {b:?}\n{}", out.stderr);
        // CPU time (a loaded machine stretches wall time); the quadratic passes took 25 s to
        // minutes. Wall time only has to return.
        assert!(b.cpu < 15.0, "{name}: {b:?}");
        assert!(b.seconds < 180.0, "{name}: {b:?}");
        assert!(
            b.log.to_lowercase().contains(needle),
            "{name}: the log should mention '{needle}': {b:?}"
        );
        if *status != 0 {
            assert!(
                b.log.contains(name) || b.log.contains("<source>"),
                "{name}: a located error: {b:?}"
            );
        }
    }
}

/// Issue 15 item 9: printf format errors are diagnosed at build time, located at the format
/// or the argument, in clBuildProgram's build log (C host through the ICD loader) and by
/// `fpgacl aoc`; a correct printf gives no warning.
#[test]
fn printf_format_errors_are_warned_in_the_build_log_and_by_aoc() {
    let dir = scratch_dir("build-limits-printf");
    let src = "__kernel void k(__global int *p, float4 v, int2 w, long l) {\n\
               printf(\"ok %d %5.2f %v4hlf %s %ld\\n\", 1, 2.0f, v, \"s\", l);\n\
               printf(\"bad conversion %k\\n\", 1);\n\
               printf(\"vector length %v5hd\\n\", w);\n\
               printf(\"no length %v4f\\n\", v);\n\
               printf(\"hl alone %hld\\n\", 1);\n\
               printf(\"count %d %d\\n\", 1);\n\
               printf(\"extra %d\\n\", 1, 2);\n\
               printf(\"type %d\\n\", 2.5f);\n\
               printf(\"lanes %v4hld\\n\", w);\n\
               printf(\"scalar %d\\n\", v);\n\
               printf(\"long %d\\n\", l);\n\
               printf(\"string %s\\n\", 3);\n\
               printf(\"end %\");\n\
               }\n";
    let file = write(&dir, "printf_formats.cl", src);
    let (built, out) = build_logs(std::slice::from_ref(&file), "");
    let b = &built[0];
    assert_eq!(b.status, 0, "warnings only: {b:?}\n{}", out.stderr);
    // (line, column, text)
    let expect: &[(u32, u32, &str)] = &[
        (3, 8, "invalid conversion specifier 'k'"),
        (4, 8, "invalid vector length"),
        (5, 8, "needs a length modifier"),
        (6, 8, "'hl' in '%hld' is only valid with a vector specifier"),
        (7, 8, "more '%' conversions than data arguments"),
        (8, 25, "data argument not used by format string"),
        (
            9,
            21,
            "format '%d' expects an integer, but the argument has type 'float'",
        ),
        (
            10,
            26,
            "expects a vector of 4 elements, but the argument has type 'int2'",
        ),
        (11, 23, "use a vector specifier such as '%v4hlf'"),
        (
            12,
            21,
            "format '%d' expects a 32-bit integer ('int'), but the argument has type 'long'",
        ),
        (13, 23, "format '%s' expects a string"),
        (14, 8, "incomplete format specifier"),
    ];
    let check = |log: &str, what: &str| {
        for (line, col, text) in expect {
            let at = format!("printf_formats.cl:{line}:{col}: warning: printf: ");
            assert!(
                log.lines().any(|l| l.contains(&at) && l.contains(text)),
                "{what}: no '{at}...{text}' in:\n{log}"
            );
        }
        assert!(
            !log.contains(":2:"),
            "{what}: the correct printf is not warned:\n{log}"
        );
        assert_eq!(
            log.matches("warning: printf:").count(),
            expect.len(),
            "{what}:\n{log}"
        );
    };
    // clBuildProgram names the in-memory source "<source>".
    check(
        &b.log.replace("<source>", "printf_formats.cl"),
        "clBuildProgram",
    );
    let a = aoc(&dir, &file);
    assert!(a.success(), "{}", a.describe());
    let all = format!("{}{}", a.stdout, a.stderr);
    let all = all.replace(&format!("{}", file.display()), "printf_formats.cl");
    check(&all, "fpgacl aoc");
}
