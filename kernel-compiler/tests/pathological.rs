//! Pathological-input corpus (issue 15 item 7): generated kernels that stress each pass by
//! nesting depth, unroll factor and size. Every input must build and be analysed within a
//! generous bound (it catches quadratic or exponential passes without being flaky on a loaded
//! 2-core machine), and must end with a module or a clear error, never a hang.
//!
//! `cargo nextest run -p fpgacl-kernel-compiler --test pathological -- --ignored scaling`
//! prints the build time of each generator at sizes 1k..8k (for finding super-linear passes).

use fpgacl_kernel_compiler::analysis::{self, BoardParams, Report};
use fpgacl_kernel_compiler::{build, SourceFile};
use std::time::{Duration, Instant};

/// Bound per input in the test profile (CPU time where the platform tells it, else wall time).
const BOUND: Duration = Duration::from_secs(10);

struct Outcome {
    elapsed: Duration,
    log: String,
    report: Option<Report>,
}

/// CPU time of this process (user + system) from `/proc/self/stat`, when readable: the bound
/// is on the work done, so a machine loaded by other processes does not make the test flaky
/// (nextest runs each test in its own process).
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may contain spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    // USER_HZ is 100 on Linux.
    Some(Duration::from_millis(ticks * 10))
}

fn run(text: &str) -> Outcome {
    let c0 = cpu_time();
    let t0 = Instant::now();
    let out = build(
        &[SourceFile {
            name: "k.cl".into(),
            text: text.into(),
        }],
        "",
    )
    .expect("build runs");
    let report = out
        .module
        .as_ref()
        .map(|m| analysis::analyze(m, &BoardParams::default()));
    let elapsed = match (c0, cpu_time()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => t0.elapsed(),
    };
    Outcome {
        elapsed,
        log: out.log,
        report,
    }
}

fn bounded(name: &str, text: &str) -> Outcome {
    let o = run(text);
    eprintln!("{name}: {:.3} s", o.elapsed.as_secs_f64());
    assert!(
        o.elapsed < BOUND,
        "{name} took {:.1} s (bound {:?}); log:\n{}",
        o.elapsed.as_secs_f64(),
        BOUND,
        o.log
    );
    o
}

/// `depth` loops nested in each other, each with an unknown trip count.
pub fn nested_loops(depth: usize) -> String {
    let mut s =
        String::from("__kernel void k(__global int *restrict out, int n) {\n int acc = 0;\n");
    for d in 0..depth {
        s += &format!(" for (int i{d} = 0; i{d} < n; i{d}++) {{\n");
    }
    s += "  acc += 1;\n";
    for _ in 0..depth {
        s += " }\n";
    }
    s += " out[0] = acc;\n}\n";
    s
}

/// A loop of unknown or constant trip count with an unroll pragma.
fn unrolled(pragma: &str, bound: &str) -> String {
    format!(
        "__kernel void k(__global int *restrict out, __global const int *restrict in, int n) {{\n\
         int acc = 0;\n\
         {pragma}\n\
         for (int i = 0; i < {bound}; i++) acc += in[i & 1023] * i;\n\
         out[0] = acc;\n}}\n"
    )
}

/// `n` straight-line statements.
pub fn straight_line(n: usize) -> String {
    let mut s = String::from(
        "__kernel void k(__global int *restrict out, __global const int *restrict in) {\n int x = in[0];\n",
    );
    for i in 0..n {
        s += &format!(" x = x * {} + in[{}];\n", i % 7 + 2, i % 64);
    }
    s += " out[0] = x;\n}\n";
    s
}

/// A switch of `n` cases inside a loop.
pub fn big_switch(n: usize) -> String {
    let mut s = String::from(
        "__kernel void k(__global int *restrict out, __global const int *restrict in, int m) {\n\
         for (int j = 0; j < m; j++) {\n int v = in[j];\n int r = 0;\n switch (v) {\n",
    );
    for i in 0..n {
        s += &format!("  case {i}: r = {}; break;\n", i * 3 + 1);
    }
    s += "  default: r = -1;\n }\n out[j] = r;\n }\n}\n";
    s
}

/// A private array with an `n`-element initializer, and a constant table of `n` elements.
pub fn big_initializer(n: usize) -> String {
    let items: Vec<String> = (0..n).map(|i| (i % 1000).to_string()).collect();
    format!(
        "__constant int tab[{n}] = {{{}}};\n\
         __kernel void k(__global int *restrict out, int i) {{\n\
         int p[{n}] = {{{}}};\n\
         out[0] = p[i] + tab[i];\n}}\n",
        items.join(","),
        items.join(",")
    )
}

#[test]
fn deep_loop_nest_builds_quickly() {
    for depth in [20, 94, 128] {
        let o = bounded(&format!("nested {depth}"), &nested_loops(depth));
        let r = o.report.unwrap_or_else(|| panic!("{}", o.log));
        assert_eq!(r.kernels[0].loops.len(), depth, "every loop is reported");
    }
}

#[test]
fn huge_unroll_factors_are_capped_with_a_warning() {
    for (name, text) in [
        (
            "unroll 4294967295, unknown trip",
            unrolled("#pragma unroll 4294967295", "n"),
        ),
        (
            "unroll 4294967295, trip 1e9",
            unrolled("#pragma unroll 4294967295", "1000000000"),
        ),
        (
            "full unroll, trip 1e9",
            unrolled("#pragma unroll", "1000000000"),
        ),
        (
            "unroll 100000, trip 1e6",
            unrolled("#pragma unroll 100000", "1000000"),
        ),
        (
            "unroll 65536, unknown trip",
            unrolled("#pragma unroll 65536", "n"),
        ),
    ] {
        let o = bounded(name, &text);
        let r = o.report.unwrap_or_else(|| panic!("{name}: {}", o.log));
        let k = &r.kernels[0];
        assert!(
            k.warnings.iter().any(|w| w.contains("capped")),
            "{name}: a warning says the unroll was capped: {:?}",
            k.warnings
        );
    }
}

#[test]
fn straight_line_code_builds_in_linear_time() {
    bounded("20000 statements", &straight_line(20_000));
}

#[test]
fn big_switch_builds_in_linear_time() {
    let o = bounded("20000-case switch", &big_switch(20_000));
    assert!(o.report.is_some(), "{}", o.log);
}

#[test]
fn big_initializer_builds_in_linear_time() {
    let o = bounded("20000-element initializer", &big_initializer(20_000));
    assert!(o.report.is_some(), "{}", o.log);
}

/// Timing of each generator at growing sizes (for profiling; not a pass/fail test).
#[test]
#[ignore]
fn scaling() {
    type Gen = fn(usize) -> String;
    let gens: [(&str, Gen, [usize; 4]); 4] = [
        ("nested", nested_loops, [10, 20, 40, 80]),
        ("straight", straight_line, [1000, 2000, 4000, 8000]),
        ("switch", big_switch, [1000, 2000, 4000, 8000]),
        ("init", big_initializer, [1000, 2000, 4000, 8000]),
    ];
    let only = std::env::var("PATHO").unwrap_or_default();
    for (name, g, sizes) in gens {
        if !only.is_empty() && !only.contains(name) {
            continue;
        }
        for n in sizes {
            let o = run(&g(n));
            eprintln!(
                "{name} {n}: {:.3} s ok={}",
                o.elapsed.as_secs_f64(),
                o.report.is_some()
            );
        }
    }
}
