//! `scripts/bench.sh` keeps working: a smoke run at tiny sizes (no timing is
//! asserted; the benchmark itself is not a test) on fpgacl and whichever
//! references are installed. Every run must pass its own result checks and
//! the table and ratio lines must be printed.

use std::process::Command;
use std::time::Duration;

use fpgacl_tests::{fpgacl_lib_dir, profile_dir, run_with_timeout, workspace_root, Implementation};

#[test]
fn bench_script_runs_every_program_on_every_implementation() {
    let lib_dir = fpgacl_lib_dir();
    let mut impls = vec!["fpgacl"];
    for imp in [Implementation::Pocl, Implementation::Oclgrind] {
        match imp.vendors() {
            Ok(_) => impls.push(imp.label()),
            Err(why) => eprintln!("bench smoke run without {}: {why}", imp.label()),
        }
    }
    let target_dir = profile_dir()
        .parent()
        .expect("profile dir has a parent")
        .to_path_buf();
    let mut cmd = Command::new("bash");
    cmd.current_dir(workspace_root())
        .arg("scripts/bench.sh")
        .args(["--runs", "1", "--no-build", "--impls", &impls.join(",")])
        .env("VECTOR_N", "4096")
        .env("LOOP_N", "4096")
        .env("MATMUL_N", "16")
        .env("MANDEL_N", "16")
        .env("NBODY_N", "16")
        .env("ENQ_SIZES", "100 1000")
        .env("CHPAIR_N", "4096")
        .env("FPGACL_BENCH_LIB_DIR", &lib_dir)
        .env("CARGO_TARGET_DIR", &target_dir)
        .env_remove("HOST_PLATFORM")
        .env_remove("OCL_ICD_VENDORS");
    let out = run_with_timeout(&mut cmd, Duration::from_secs(600)).expect("run bench.sh");
    assert!(out.success(), "bench.sh failed:\n{}", out.describe());
    // The channel throughput case (fpgacl only): one values/s line per depth.
    assert!(
        out.stdout.contains("channel throughput on fpgacl")
            && out
                .stdout
                .lines()
                .any(|l| l.trim_start().starts_with("1024 ")),
        "{}",
        out.describe()
    );
    for program in [
        "vector_add",
        "task_loop",
        "matmul",
        "mandelbrot",
        "nbody",
        "tiled_matmul",
    ] {
        for imp in &impls {
            let row = out
                .stdout
                .lines()
                .find(|l| l.starts_with(program) && l.split_whitespace().nth(1) == Some(imp))
                .unwrap_or_else(|| panic!("no {program}/{imp} row:\n{}", out.describe()));
            assert!(!row.contains("FAILED"), "{row}\n{}", out.describe());
            let kernel_ms: f64 = row
                .split_whitespace()
                .nth(2)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("no kernel time in {row:?}"));
            assert!(kernel_ms >= 0.0, "{row}");
        }
        for imp in impls.iter().filter(|i| **i != "fpgacl") {
            let label = format!("fpgacl/{imp}");
            assert!(
                out.stdout.lines().any(|l| l.contains(program)
                    && l.contains(&label)
                    && l.contains("faster")
                    || l.contains(program) && l.contains(&label) && l.contains("slower")),
                "no {label} ratio for {program}:\n{}",
                out.describe()
            );
        }
    }
    // Enqueue scaling: a row per size on fpgacl (and PoCL when installed) with its ratio.
    for n in ["100", "1000"] {
        let row = out
            .stdout
            .lines()
            .find(|l| l.starts_with(n) && l.split_whitespace().nth(1) == Some("fpgacl"))
            .unwrap_or_else(|| panic!("no enqueue row for {n}:\n{}", out.describe()));
        assert!(!row.contains("FAILED"), "{row}");
        if impls.contains(&"pocl") {
            assert!(
                out.stdout
                    .lines()
                    .any(|l| l.contains(&format!("enqueue {n}")) && l.contains("fpgacl/pocl")),
                "no enqueue ratio for {n}:\n{}",
                out.describe()
            );
        }
    }
    // Thread scaling: both kernels measured with 1 and 2 threads on both backends, each row
    // with its speed-up, parallel efficiency and CPU ratio.
    for k in ["threads-matmul", "threads-mandelbrot"] {
        for backend in ["interp", "jit"] {
            let row = out
                .stdout
                .lines()
                .find(|l| l.starts_with(k) && l.split_whitespace().nth(1) == Some(backend))
                .unwrap_or_else(|| panic!("no {k} {backend} row:\n{}", out.describe()));
            let f: Vec<&str> = row.split_whitespace().collect();
            assert!(!row.contains("FAILED") && f.len() == 9, "{row}");
            assert!(f[6].ends_with('x') && f[7].ends_with('%'), "{row}");
        }
    }
}
