//! `fpgacl aoc` end to end: the real binary on real files.

use std::path::PathBuf;
use std::process::Command;

fn fpgacl() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fpgacl"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn compiles_to_aocx_with_intel_flags_and_prints_the_report() {
    let dir = scratch("aoc_ok");
    std::fs::write(dir.join("params.h"), "#define SCALE 3\n").unwrap();
    std::fs::write(
        dir.join("k.cl"),
        "#include \"params.h\"\n\
         __kernel void scaled(__global const int *restrict a, __global int *restrict b) {\n\
         \x20 float acc = 1.0f;\n\
         \x20 for (int i = 0; i < N; i++) acc *= a[i] * SCALE;\n\
         \x20 *b = (int)acc;\n}\n",
    )
    .unwrap();
    let out_file = dir.join("out.aocx");
    let out = fpgacl()
        .args([
            "aoc",
            "-march=emulator",
            "-board=fpgacl_a10",
            "-report",
            "-DN=64",
            "-o",
        ])
        .arg(&out_file)
        .arg(dir.join("k.cl"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "aoc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Kernel: scaled"), "{stdout}");
    assert!(stdout.contains("single work-item"), "{stdout}");
    // The float multiply recurrence is the guide's II 6 case.
    assert!(stdout.contains("every 6 cycles"), "{stdout}");
    let bytes = std::fs::read(&out_file).unwrap();
    let container = fpgacl_kernel_compiler::aocx::read(&bytes).expect("a readable .aocx");
    assert_eq!(container.board, "fpgacl_a10");
    assert!(container.options.contains("-DN=64"));
    // The include is stored so the binary rebuilds without the file system.
    assert!(container
        .sources
        .files
        .iter()
        .any(|f| f.name.ends_with("params.h")));
    assert!(!container.report.is_empty());
}

#[test]
fn a_broken_kernel_fails_with_file_line_column() {
    let dir = scratch("aoc_bad");
    let src = dir.join("bad.cl");
    std::fs::write(
        &src,
        "__kernel void k(__global int *a) {\n  a[0] = undeclared;\n}\n",
    )
    .unwrap();
    let out = fpgacl().arg("aoc").arg(&src).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad.cl:2:10: error:"), "{stderr}");
    assert!(stderr.contains("undeclared"), "{stderr}");
    assert!(!dir.join("bad.aocx").exists());
}

#[test]
fn json_report_and_ir_dump() {
    let dir = scratch("aoc_json");
    let src = dir.join("v.cl");
    std::fs::write(
        &src,
        "__kernel void vadd(__global const float *x, __global const float *y, __global float *z) {\n\
         \x20 int i = get_global_id(0);\n  z[i] = x[i] + y[i];\n}\n",
    )
    .unwrap();
    let out = fpgacl().args(["aoc", "--json"]).arg(&src).output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let text = v.to_string();
    assert!(text.contains("vadd"), "{text}");
    let out = fpgacl()
        .args(["aoc", "--dump-ir"])
        .arg(&src)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("vadd"));
}

#[test]
fn missing_source_is_a_clear_error() {
    let out = fpgacl()
        .args(["aoc", "/nonexistent/k.cl"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/k.cl"));
}
