//! Issue 3, "what must be shown": a C host program (`host-examples/c/program_build.c`) builds
//! a program from source with `-D`/`-I` options and from an `.aocx` made by `fpgacl aoc`, and
//! reads the build log of a failing build; it also checks `-cl-kernel-arg-info`, program
//! binaries and `clCompileProgram`/`clLinkProgram`.
//!
//! The `.aocx` is made here with the real `fpgacl` command (built for the same cargo profile
//! and target directory as this test) and passed to the program as `argv[1]`. The program runs
//! through the ICD loader and linked directly against `libfpgacl.so`, and on PoCL (which has no
//! `.aocx`: that part is skipped there, and PoCL's known deviations are listed by id).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use fpgacl_host_examples::{kernels_dir, Compiler, Linkage};
use fpgacl_tests::{
    cargo_profile, compile_example, direct_linkage, example, example_command, hermetic_command,
    profile_dir, run_with_timeout, scratch_dir, workspace_root, Implementation, RunOutput,
    DEFAULT_TIMEOUT, LIB_DIR_ENV,
};

/// How long one `fpgacl aoc` run may take.
const AOC_TIMEOUT: Duration = Duration::from_secs(120);

/// The `fpgacl` command: `<dir>/fpgacl` when `FPGACL_TEST_LIB_DIR` names a directory holding
/// it, else built once per test process with `cargo build -p fpgacl-cli --bin fpgacl` for the
/// running test's profile and target directory (panics with cargo's output if that fails).
fn fpgacl_command() -> PathBuf {
    static BIN: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    match BIN.get_or_init(build_cli) {
        Ok(p) => p.clone(),
        Err(msg) => panic!("{msg}"),
    }
}

fn build_cli() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os(LIB_DIR_ENV).filter(|d| !d.is_empty()) {
        let bin = PathBuf::from(dir).join("fpgacl");
        if bin.is_file() {
            return Ok(bin);
        }
    }
    let profile_dir = profile_dir();
    let target_dir = profile_dir
        .parent()
        .ok_or("profile directory has no parent")?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let profile = cargo_profile();
    let output = Command::new(&cargo)
        .current_dir(workspace_root())
        .args([
            "build",
            "-p",
            "fpgacl-cli",
            "--bin",
            "fpgacl",
            "--profile",
            &profile,
        ])
        .env("CARGO_TARGET_DIR", target_dir)
        .output()
        .map_err(|e| format!("cannot run `{cargo} build -p fpgacl-cli`: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "`cargo build -p fpgacl-cli --bin fpgacl --profile {profile}` failed ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let bin = profile_dir.join("fpgacl");
    if bin.is_file() {
        Ok(bin)
    } else {
        Err(format!(
            "cargo built fpgacl-cli but {} does not exist",
            bin.display()
        ))
    }
}

/// Runs `fpgacl aoc <args>` in a scratch directory.
fn aoc(args: &[&Path], scratch: &str) -> RunOutput {
    let mut cmd = hermetic_command(&fpgacl_command(), scratch);
    cmd.arg("aoc").args(args);
    run_with_timeout(&mut cmd, AOC_TIMEOUT).unwrap_or_else(|e| panic!("cannot run fpgacl: {e}"))
}

/// `program_build.aocx`, made once per test process with
/// `fpgacl aoc kernels/program_build.cl -o <scratch>/program_build.aocx
/// -I kernels/program_build_inc -D SCALE=3` (the SCALE the C program expects).
fn program_build_aocx() -> PathBuf {
    static AOCX: OnceLock<PathBuf> = OnceLock::new();
    AOCX.get_or_init(|| {
        // One folder per test process: nextest runs tests in parallel processes, and a shared
        // folder let one process remove the file another had just written.
        let scratch = format!("program_build-aoc-{}", std::process::id());
        let out = scratch_dir(&scratch).join("program_build.aocx");
        let _ = std::fs::remove_file(&out);
        let run = aoc(
            &[
                &kernels_dir().join("program_build.cl"),
                Path::new("-o"),
                &out,
                Path::new("-I"),
                &kernels_dir().join("program_build_inc"),
                Path::new("-D"),
                Path::new("SCALE=3"),
            ],
            &scratch,
        );
        assert!(run.success(), "fpgacl aoc failed:\n{}", run.describe());
        let len = std::fs::metadata(&out)
            .unwrap_or_else(|e| panic!("fpgacl aoc wrote no {}: {e}", out.display()))
            .len();
        assert!(len > 0, "{} is empty", out.display());
        out
    })
    .clone()
}

/// Passed: exit 0, a `PASS:` line, no `FAIL:` line.
fn passed(out: &RunOutput) -> bool {
    out.passed()
        && out
            .stdout
            .lines()
            .any(|l| l.starts_with("PASS: program_build"))
}

/// Lines the program prints when a check passed, with the check id that suppresses the line.
const EXPECTED_LINES: &[(&str, Option<&str>)] = &[
    (
        "without -I: CL_BUILD_PROGRAM_FAILURE, log names params.h",
        None,
    ),
    (
        "without -D: CL_BUILD_PROGRAM_FAILURE, log holds the #error message",
        None,
    ),
    ("SCALE=3: scale_offset over 4096 elements correct", None),
    (
        "CL_PROGRAM_SOURCE kept; rebuild with a kernel attached: CL_INVALID_OPERATION",
        None,
    ),
    (
        "\"-DSCALE=11 -I<dir>\": scale_offset over 4096 elements correct",
        None,
    ),
    (
        "without -cl-kernel-arg-info: CL_KERNEL_ARG_INFO_NOT_AVAILABLE",
        Some("arg-info-not-available"),
    ),
    ("<source>:6:23: error: use of undeclared identifier", None),
    ("\"-cl-no-such-option\": CL_INVALID_BUILD_OPTIONS", None),
    (".aocx: scale_offset over 4096 elements correct", None),
    (
        "binary of the .aocx program: scale_offset over 4096 elements correct",
        None,
    ),
    ("first half of the .aocx rejected: CL_INVALID_BINARY", None),
    ("256 garbage bytes rejected: CL_INVALID_BINARY", None),
    ("linked objects: linked over 4096 elements correct", None),
    ("object + library: linked over 4096 elements correct", None),
    ("kernel unit alone: CL_LINK_PROGRAM_FAILURE", None),
    (
        "  log: <source>:8:14: error: undefined symbol: function 'add_bias' is called here but defined in none of the linked units",
        None,
    ),
    (
        "unit compiled with -D LINK_FACTOR=2, linked: scaled over 4096 elements correct",
        None,
    ),
    (
        "static adjust() of unit a: static_a over 4096 elements correct",
        None,
    ),
    (
        "static adjust() of unit b: static_b over 4096 elements correct",
        None,
    ),
    ("add_bias defined in two units: CL_LINK_PROGRAM_FAILURE", None),
    (
        "  log: <source of unit 2>:5:5: error: duplicate symbol: function 'add_bias' is defined in more than one linked unit (first definition at <source of unit 1>:5:5)",
        None,
    ),
    (
        "math link options, callback: linked over 4096 elements correct",
        None,
    ),
    (
        "link options and callbacks of clCompileProgram/clLinkProgram correct",
        None,
    ),
    (
        "object from its binary (-D LINK_FACTOR=2 kept), linked: scaled over 4096 elements correct",
        None,
    ),
    (
        "linked executable from its binary: scaled over 4096 elements correct",
        None,
    ),
    (
        "object + library from their binaries, linked: scaled over 4096 elements correct",
        None,
    ),
    (
        "object binary built with clBuildProgram: static_a over 4096 elements correct",
        None,
    ),
    ("syntax error on line 4: CL_COMPILE_PROGRAM_FAILURE", None),
    (
        "\"-cl-no-such-option\": CL_INVALID_COMPILER_OPTIONS / CL_INVALID_LINKER_OPTIONS",
        None,
    ),
];

/// Compiles program_build.c for `linkage`, runs it on fpgacl with the `.aocx` as argv[1]
/// (skipping the checks in `skips`) and checks that it passed, that it skipped exactly
/// those checks and that every check not skipped printed its line.
fn run_with_aocx(linkage: &Linkage, skips: &[&str]) {
    let aocx = program_build_aocx();
    let e = example("program_build").expect("program_build is in the catalogue");
    let bin = compile_example(e, linkage);
    let mut cmd = example_command(&bin, e.name, linkage);
    cmd.arg(&aocx);
    if !skips.is_empty() {
        cmd.env("EXAMPLE_SKIP_CHECKS", skips.join(","));
    }
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT)
        .unwrap_or_else(|err| panic!("cannot run {}: {err}", bin.display()));
    let ctx = format!(
        "program_build ({}) failed:\n{}",
        linkage.label(),
        out.describe()
    );
    assert!(passed(&out), "{ctx}");
    for line in out.stdout.lines().filter(|l| l.contains("skip:")) {
        assert!(
            skips
                .iter()
                .any(|id| line.contains(&format!("skip: {id} "))),
            "unexpected skip \"{line}\":\n{ctx}"
        );
    }
    for (line, skipped_by) in EXPECTED_LINES {
        if skipped_by.is_some_and(|id| skips.contains(&id)) {
            continue;
        }
        assert!(out.stdout.contains(line), "missing \"{line}\":\n{ctx}");
    }
}

#[test]
fn aoc_compiles_with_d_and_i_and_rejects_the_broken_kernel() {
    let aocx = program_build_aocx();
    assert!(aocx.is_file());

    // Without -I, params.h is not found (aoc adds only the source's own folder).
    let out = aoc(
        &[
            &kernels_dir().join("program_build.cl"),
            Path::new("-o"),
            &scratch_dir("program_build-aoc-noinc").join("x.aocx"),
            Path::new("-D"),
            Path::new("SCALE=3"),
        ],
        "program_build-aoc-noinc",
    );
    assert!(
        !out.success() && out.stderr.contains("params.h"),
        "fpgacl aoc without -I must fail naming params.h:\n{}",
        out.describe()
    );

    // The broken kernel: non-zero exit and a file:line:col diagnostic for line 6.
    let bad = kernels_dir().join("program_build_bad.cl");
    let out = aoc(
        &[
            &bad,
            Path::new("-o"),
            &scratch_dir("program_build-aoc-bad").join("bad.aocx"),
        ],
        "program_build-aoc-bad",
    );
    let want = format!("{}:6:23: error:", bad.display());
    assert!(
        !out.success() && out.stderr.contains(&want) && out.stderr.contains("undeclared_value"),
        "fpgacl aoc on the broken kernel must fail with \"{want}\":\n{}",
        out.describe()
    );
}

/// Every check, through the ICD loader.
#[test]
fn through_the_icd_loader() {
    run_with_aocx(&Linkage::IcdLoader, &[]);
}

/// Every check, linked directly against `libfpgacl.so`.
#[test]
fn linked_directly() {
    run_with_aocx(&direct_linkage(), &[]);
}

/// Without argv[1] the program still checks everything but the `fpgacl aoc` file, and says so.
#[test]
fn without_an_aocx_argument() {
    let e = example("program_build").expect("program_build is in the catalogue");
    let linkage = Linkage::IcdLoader;
    let bin = compile_example(e, &linkage);
    let mut cmd = example_command(&bin, "program_build-noarg", &linkage);
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT)
        .unwrap_or_else(|err| panic!("cannot run {}: {err}", bin.display()));
    assert!(passed(&out), "{}", out.describe());
    assert!(
        out.stdout
            .contains("skip: aocx (no .aocx path given as argv[1])"),
        "{}",
        out.describe()
    );
}

/// PoCL 3 deviations (check ids of `EXAMPLE_SKIP_CHECKS`): its build log puts "error:" before
/// the location; it crashes on a truncated binary; clCreateKernel on a compiled object or a
/// library returns CL_INVALID_KERNEL_NAME instead of CL_INVALID_PROGRAM_EXECUTABLE; its link
/// errors are worded its own way (`link-log-details` checks fpgacl's wording and locations);
/// clLinkProgram rejects the program linking options `-cl-fast-relaxed-math` and
/// `-cl-denorms-are-zero` with CL_INVALID_LINKER_OPTIONS; clBuildProgram of a compiled object's
/// binary succeeds but gives no kernel (CL_INVALID_KERNEL_NAME).
const POCL_SKIPS: &str =
    "log-location-first,binary-truncated,kernel-from-object,link-log-details,link-math-options,build-object-binary";

/// The program itself is right: it passes on PoCL (steps 1-3 and 5, and the binary checks
/// that do not need an `.aocx`).
#[test]
fn on_pocl() {
    let e = example("program_build").expect("program_build is in the catalogue");
    let out_dir = profile_dir().join("host-examples").join("pocl");
    let bin = Compiler::new()
        .compile(e, &out_dir, &Linkage::IcdLoader)
        .unwrap_or_else(|err| panic!("{err}"));
    let mut cmd = hermetic_command(&bin, "program_build-pocl");
    Implementation::Pocl
        .configure(&mut cmd)
        .unwrap_or_else(|msg| panic!("{msg}"));
    cmd.env("EXAMPLE_SKIP_CHECKS", POCL_SKIPS);
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT)
        .unwrap_or_else(|err| panic!("cannot run {}: {err}", bin.display()));
    assert!(
        passed(&out),
        "program_build fails on PoCL (so the program, not fpgacl, may be wrong):\n{}",
        out.describe()
    );
    assert!(
        out.stdout.contains("skip: aocx (not an FPGA platform)"),
        "{}",
        out.describe()
    );
}
