//! `fpgacl aoc` end to end: the real binary on real files.

mod common;
use common::{fpgacl, scratch};

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

/// `-board=` selects a board model as `FPGACL_BOARD` does (built-in name, `file.json`,
/// `file.json:name`): an unknown board is an error naming the known ones instead of a report
/// silently made for the default board under another name; a board file's latency changes
/// the II of a global memory dependency.
#[test]
fn board_flag_selects_a_real_board_and_rejects_unknown_ones() {
    let dir = scratch("aoc_board");
    // The guide's unoptimized4: II from the global load + store latency.
    let src = dir.join("k.cl");
    std::fs::write(
        &src,
        "__kernel void unoptimized4(__global int *restrict A) {\n\
         \x20 for (int i = 0; i < 1024; i++) A[1024 - i] = A[i];\n}\n",
    )
    .unwrap();
    let out = fpgacl()
        .args(["aoc", "-board=no_such_board", "-o"])
        .arg(dir.join("x.aocx"))
        .arg(&src)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "unknown board accepted: {stderr}");
    assert!(stderr.contains("no_such_board"), "{stderr}");
    assert!(
        stderr.contains("fpgacl_a10"),
        "the known boards are named: {stderr}"
    );
    assert!(!dir.join("x.aocx").exists());

    let ii = |board: &str| -> (String, String) {
        let aocx = dir.join("k.aocx");
        let out = fpgacl()
            .args(["aoc", &format!("-board={board}"), "-report", "-o"])
            .arg(&aocx)
            .arg(&src)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            out.status.success(),
            "{board}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let container = fpgacl_kernel_compiler::aocx::read(&std::fs::read(&aocx).unwrap()).unwrap();
        (container.board, stdout)
    };
    let (name, report) = ii("fpgacl_a10");
    assert_eq!(name, "fpgacl_a10");
    assert!(report.contains("every 324 cycles"), "{report}");

    let mut slow = fpgacl_device_model::Board::default_board();
    slow.name = "slow_ddr".into();
    slow.global_memory[0].latency_cycles += 100;
    let file = dir.join("boards.json");
    std::fs::write(
        &file,
        serde_json::to_string(&serde_json::json!({ "boards": [slow] })).unwrap(),
    )
    .unwrap();
    let (name, report) = ii(&format!("{}:slow_ddr", file.display()));
    assert_eq!(name, "slow_ddr");
    assert!(
        !report.contains("every 324 cycles") && report.contains("Memory dependency"),
        "a 100-cycle slower memory must change the II: {report}"
    );
}

/// An empty source, or one with only helper functions, compiles (it is legal OpenCL C) but
/// the user is told that the `.aocx` holds no kernels.
#[test]
fn a_source_without_kernels_is_warned_about() {
    let dir = scratch("aoc_no_kernels");
    for (name, text) in [
        ("empty.cl", ""),
        ("helpers.cl", "int twice(int x) { return 2 * x; }\n"),
    ] {
        let src = dir.join(name);
        std::fs::write(&src, text).unwrap();
        let out = fpgacl()
            .args(["aoc", "-o"])
            .arg(dir.join("out.aocx"))
            .arg(&src)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{name}: {stderr}");
        assert!(stderr.contains("defines no kernels"), "{name}: {stderr}");
    }
    // A source with a kernel is not warned about.
    let src = dir.join("k.cl");
    std::fs::write(&src, "__kernel void k(__global int *a) { a[0] = 1; }\n").unwrap();
    let out = fpgacl()
        .args(["aoc", "-o"])
        .arg(dir.join("out.aocx"))
        .arg(&src)
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("no kernels"));
}

/// Intel's `-no-interleaving=<memory type>` is accepted (also inside `--cl-options`), recorded
/// in the `.aocx` options the runtime reads back (rule B5), and checked against the board: a
/// memory type the board does not have is an error naming the ones it has.
#[test]
fn no_interleaving_is_recorded_and_checked_against_the_board() {
    let dir = scratch("aoc_no_interleaving");
    let src = dir.join("copy.cl");
    std::fs::write(
        &src,
        "__kernel void copy(__global const int *restrict a, __global int *restrict b) {\n\
         \x20 b[get_global_id(0)] = a[get_global_id(0)];\n}\n",
    )
    .unwrap();
    let aocx = dir.join("copy.aocx");
    let run = |args: &[&str]| {
        let _ = std::fs::remove_file(&aocx);
        fpgacl()
            .arg("aoc")
            .args(args)
            .arg("-o")
            .arg(&aocx)
            .arg(&src)
            .output()
            .unwrap()
    };
    for ok in [
        &["-no-interleaving=default"][..],
        &["-no-interleaving=DDR4"][..],
        &["--cl-options", "-no-interleaving=default"][..],
    ] {
        let out = run(ok);
        assert!(
            out.status.success(),
            "{ok:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let container = fpgacl_kernel_compiler::aocx::read(&std::fs::read(&aocx).unwrap()).unwrap();
        assert!(
            container.options.contains("-no-interleaving="),
            "{ok:?}: {}",
            container.options
        );
    }
    for bad in [
        &["-no-interleaving=QDR9"][..],
        &["--cl-options", "-no-interleaving=QDR9"][..],
    ] {
        let out = run(bad);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{bad:?} accepted");
        assert!(
            stderr.contains("QDR9") && stderr.contains("DDR4"),
            "{bad:?}: {stderr}"
        );
        assert!(!aocx.exists(), "{bad:?} wrote an .aocx");
    }
}
