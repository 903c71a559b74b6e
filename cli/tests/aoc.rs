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

const VADD: &str =
    "__kernel void vadd(__global const float *restrict x, __global float *restrict z) {\n\
                    \x20 int i = get_global_id(0);\n  z[i] = x[i] * 2.0f;\n}\n";

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Issue 13 item 2 / issue 17 item 8: Intel's whole flag set in Intel's spelling is accepted;
/// hardware-only flags get a one-line note each; `-o` without `.aocx` gets it appended and its
/// folder is created; `-clock=` and the emulation flags are recorded in the binary's options;
/// `-opt-arg=...` is not read as `-o`.
#[test]
fn intel_flag_set_is_accepted_and_recorded() {
    let dir = scratch("aoc_intel_flags");
    let src = dir.join("k.cl");
    std::fs::write(&src, VADD).unwrap();
    let hardware = [
        "-high-effort",
        "-seed=7",
        "-rtl",
        "-incremental",
        "-fast-compile",
        "-O3",
        "-save-temps",
        "-no-accessor-aliasing",
        "-opt-arg=-nocfg",
        "-legacy-emulator",
        "-emulator-channel-depth-model=strict",
        "-board-package=/opt/bsp",
    ];
    let out = fpgacl()
        .arg("aoc")
        .args([
            "-march=emulator",
            "-board=fpgacl_a10",
            "-clock=300",
            "-fp-relaxed",
            "-fpc",
            "-ffp-contract=fast",
            "-profile=all",
            "-no-interleaving=default",
            "-W",
            "-g",
            "-v",
            "-v",
            "-DN=4",
            "-I",
            "inc",
        ])
        .args(hardware)
        .arg(&src)
        .arg("-o")
        .arg(dir.join("new/bin/k"))
        .output()
        .unwrap();
    let err = stderr_of(&out);
    assert!(out.status.success(), "{err}");
    for h in hardware {
        assert_eq!(
            err.lines()
                .filter(|l| l.contains(h) && l.contains("note"))
                .count(),
            1,
            "one note for {h}: {err}"
        );
    }
    let aocx = dir.join("new/bin/k.aocx");
    let container =
        fpgacl_kernel_compiler::aocx::read(&std::fs::read(&aocx).expect("bin/k.aocx written"))
            .unwrap();
    for opt in [
        "-clock=300",
        "-fp-relaxed",
        "-fpc",
        "-profile=all",
        "-no-interleaving=default",
        "-board=fpgacl_a10",
        "-DN=4",
        "-w",
        "-g",
    ] {
        assert!(
            container.options.split(' ').any(|w| w == opt),
            "{opt} not in {}",
            container.options
        );
    }
    // -v said what it did.
    assert!(err.contains("Selected target board fpgacl_a10"), "{err}");
    assert!(!dir.join("new/bin/k").exists());
}

/// `-high-effort` was read as `-h` (help, exit 0, nothing built); unknown flags name
/// themselves; `-h`/`-help` only for exactly those.
#[test]
fn flags_are_not_mistaken_and_rejected_ones_name_themselves() {
    let dir = scratch("aoc_flag_names");
    let src = dir.join("k.cl");
    std::fs::write(&src, VADD).unwrap();
    let out = fpgacl()
        .args(["aoc", "-high-effort"])
        .arg(&src)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(dir.join("k.aocx").exists(), "-high-effort built nothing");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("Usage"));
    for bad in [
        "-frobnicate",
        "-hx",
        "-profile=everything",
        "-seed=abc",
        "--nope=1",
    ] {
        let out = fpgacl().args(["aoc", bad]).arg(&src).output().unwrap();
        let err = stderr_of(&out);
        assert!(!out.status.success(), "{bad} accepted");
        let name = bad.trim_start_matches('-').split('=').next().unwrap();
        assert!(err.contains(name), "{bad}: {err}");
    }
    for help in ["-h", "-help", "--help"] {
        let out = fpgacl().args(["aoc", help]).output().unwrap();
        assert!(out.status.success());
        assert!(String::from_utf8_lossy(&out.stdout).contains("Usage: aoc"));
    }
    for v in ["-version", "--version"] {
        let out = fpgacl().args(["aoc", v]).output().unwrap();
        assert!(out.status.success());
        assert!(String::from_utf8_lossy(&out.stdout).contains(env!("CARGO_PKG_VERSION")));
    }
    let out = fpgacl().args(["aoc", "-list-boards"]).output().unwrap();
    assert!(out.status.success());
    let listed = String::from_utf8_lossy(&out.stdout);
    // Every board of the device model's registry.
    for b in fpgacl_device_model::BoardSet::default().boards {
        assert!(listed.contains(&b.name), "{} not listed: {listed}", b.name);
    }
}

/// gcc refuses `-o` naming an input; so does aoc (the source would be overwritten).
#[test]
fn output_equal_to_the_source_is_refused() {
    let dir = scratch("aoc_o_is_input");
    let src = dir.join("k.cl");
    std::fs::write(&src, VADD).unwrap();
    let out = fpgacl()
        .arg("aoc")
        .arg(&src)
        .arg("-o")
        .arg(&src)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        stderr_of(&out).contains("refusing to overwrite"),
        "{}",
        stderr_of(&out)
    );
    assert_eq!(std::fs::read_to_string(&src).unwrap(), VADD);
}

/// `fpgacl aoc --report x.aocx` (and `aoc x.aocx`) print the report stored in a binary
/// instead of "stream did not contain valid UTF-8".
#[test]
fn report_of_an_existing_binary() {
    let dir = scratch("aoc_report_binary");
    let src = dir.join("v.cl");
    std::fs::write(&src, VADD).unwrap();
    let aocx = dir.join("v.aocx");
    let out = fpgacl().arg("aoc").arg(&src).output().unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    for flag in ["--report", "-report"] {
        let out = fpgacl().args(["aoc", flag]).arg(&aocx).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}", stderr_of(&out));
        assert!(stdout.contains("Kernel: vadd"), "{stdout}");
        assert!(!stderr_of(&out).contains("UTF-8"));
    }
    let out = fpgacl()
        .args(["aoc", "--json"])
        .arg(&aocx)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    assert!(v.to_string().contains("vadd"));
}

/// Source bytes that are not UTF-8 (a Latin-1 comment) are accepted as `clBuildProgram`
/// accepts them; `-board=` defines `AOCL_BOARD_<name>` and Intel's compiler macros.
#[test]
fn latin1_source_and_intel_predefined_macros() {
    let dir = scratch("aoc_latin1");
    let src = dir.join("k.cl");
    let mut bytes =
        b"// caf\xe9 \xff\n#ifndef AOCL_BOARD_fpgacl_a10\n#error no board macro\n#endif\n\
#if !defined(INTELFPGA_CL)\n#error no INTELFPGA_CL\n#endif\n"
            .to_vec();
    bytes.extend_from_slice(VADD.as_bytes());
    std::fs::write(&src, bytes).unwrap();
    let out = fpgacl()
        .args(["aoc", "-board=fpgacl_a10"])
        .arg(&src)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    // Without -board the default board's macro is defined (fpgacl_a10 is the default).
    let out = fpgacl().arg("aoc").arg(&src).output().unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
}

/// Several `.cl` files on one command line form one program, linked by symbol; `-c` makes an
/// object that a later `aoc` links; `-c -o x.aoclib` makes a library that `-l`/`-L` link.
#[test]
fn several_sources_objects_and_libraries_link() {
    let dir = scratch("aoc_link");
    std::fs::write(
        dir.join("main.cl"),
        "int helper(int x);\n\
         __kernel void k(__global int *p) { p[get_global_id(0)] = helper(3); }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("helper.cl"),
        "int helper(int x) { return x * 7; }\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        fpgacl()
            .current_dir(&dir)
            .arg("aoc")
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["main.cl", "helper.cl", "-o", "both"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let both =
        fpgacl_kernel_compiler::aocx::read(&std::fs::read(dir.join("both.aocx")).unwrap()).unwrap();
    assert_eq!(both.units.len(), 2);
    assert!(!both.report.is_empty());

    let out = run(&["-c", "helper.cl"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(dir.join("helper.aoco").is_file());
    let out = run(&["main.cl", "helper.aoco", "-o", "objs.aocx"]);
    assert!(out.status.success(), "{}", stderr_of(&out));

    let out = run(&["-c", "helper.cl", "-o", "lib/helpers.aoclib"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let lib =
        fpgacl_kernel_compiler::aocx::read(&std::fs::read(dir.join("lib/helpers.aoclib")).unwrap())
            .unwrap();
    assert_eq!(lib.kind, fpgacl_kernel_compiler::aocx::BinaryKind::Library);
    let out = run(&[
        "main.cl",
        "-l",
        "helpers.aoclib",
        "-L",
        "lib",
        "-o",
        "withlib",
    ]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(dir.join("withlib.aocx").is_file());
    // Without the library, the call is an undefined symbol.
    let out = run(&["main.cl", "-c", "-o", "alone.aoco"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let out = run(&["alone.aoco", "-o", "alone.aocx"]);
    assert!(!out.status.success());
    assert!(stderr_of(&out).contains("helper"), "{}", stderr_of(&out));
    let out = run(&["main.cl", "-l", "missing.aoclib"]);
    assert!(!out.status.success());
    assert!(stderr_of(&out).contains("missing.aoclib"));
}

/// The binary answers to the name `aoc` (a symlink, as in `$(fpgacl sdk-root)/bin`).
#[test]
fn answers_to_the_name_aoc() {
    let dir = scratch("aoc_symlink");
    let link = dir.join("aoc");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_fpgacl"), &link).unwrap();
    std::fs::write(dir.join("k.cl"), VADD).unwrap();
    let out = std::process::Command::new(&link)
        .current_dir(&dir)
        .args(["-march=emulator", "k.cl", "-o", "out/k"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert!(dir.join("out/k.aocx").is_file());
}
