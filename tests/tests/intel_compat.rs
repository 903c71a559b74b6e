//! Existing Intel FPGA OpenCL projects, unchanged, against fpgacl (issues 13, 14 item 1 and
//! 17 items 5, 7, 8):
//!
//! * `aocl` (compile-config, link-config, ldflags, ldlibs, list-devices, diagnose, version,
//!   library create, the rest "not applicable"), `fpgacl sdk-root` (an Intel SDK-like folder)
//!   and `fpgacl.pc`;
//! * Intel's headers: a host that includes only `CL/opencl.h` uses `CL_MEM_BANK_n_ALTERA` and
//!   calls `clGetProfileDataDeviceIntelFPGA` directly, and links with `aocl link-config`;
//! * a program from an executable binary runs without `clBuildProgram`;
//! * an Intel-built `.aocx` (ELF with `.acl.source*` and `.acl.compilation_env`) is rebuilt;
//! * RTL libraries modelled in OpenCL C (`aoc -l lib.aoclib -L dir`, `-include`);
//! * the Intel-style project in `host-examples/intel_project` built by `make` with only PATH
//!   changed and run under `fpgacl profile`, whose profile is checked.

use fpgacl_host_examples::Compiler;
use fpgacl_profile_format::read_profile;
use fpgacl_tests::{
    fpgacl_cli, fpgacl_lib_dir, hermetic_command, run_with_timeout, scratch_dir, workspace_root,
    Linkage, RunOutput, DEFAULT_TIMEOUT,
};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `fpgacl <args>` in `dir` (hermetic environment).
fn fpgacl_in(dir: &Path, args: &[&str]) -> RunOutput {
    let _ = fpgacl_lib_dir();
    let mut cmd = Command::new(fpgacl_cli());
    cmd.current_dir(dir)
        .args(args)
        .env_remove("OCL_ICD_VENDORS")
        .env_remove("FPGACL_SDK_ROOT");
    run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run fpgacl")
}

fn ok(out: &RunOutput, what: &str) {
    assert!(out.success(), "{what} failed:\n{}", out.describe());
}

/// `fpgacl sdk-root`.
fn sdk_root() -> PathBuf {
    let dir = scratch_dir("intel-sdk-root");
    let out = fpgacl_in(&dir, &["sdk-root"]);
    ok(&out, "fpgacl sdk-root");
    PathBuf::from(out.stdout.trim())
}

/// A fresh scratch folder.
fn fresh(name: &str) -> PathBuf {
    let dir = scratch_dir(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn binaries_dir() -> PathBuf {
    workspace_root().join("host-examples/binaries")
}

/// Compiles `host-examples/binaries/aocx_ready.c` through the ICD loader.
fn aocx_ready_host() -> PathBuf {
    let out_dir = fpgacl_tests::profile_dir().join("host-examples/intel-compat");
    Compiler::new()
        .compile_source(
            &binaries_dir().join("aocx_ready.c"),
            "aocx_ready",
            &out_dir,
            &Linkage::IcdLoader,
        )
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `aocx_ready <aocx> <scale> <offset> <mode>` through the ICD loader.
fn run_aocx_ready(aocx: &Path, scale: i32, offset: i32, mode: &str, scratch: &str) -> RunOutput {
    let host = aocx_ready_host();
    let mut cmd = hermetic_command(&host, scratch);
    cmd.env("OCL_ICD_VENDORS", fpgacl_tests::vendors_dir())
        .arg(aocx)
        .arg(scale.to_string())
        .arg(offset.to_string())
        .arg(mode);
    run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run aocx_ready")
}

#[test]
fn sdk_root_has_intel_layout_and_pkg_config_file() {
    let root = sdk_root();
    for p in [
        "bin/aoc",
        "bin/aocl",
        "host/include/CL/cl_ext_intelfpga.h",
        "host/include/CL/cl_ext_altera.h",
        "host/include/CL/cl_ext.h",
        "host/linux64/lib/libfpgacl.so",
        "host/linux64/lib/libacl_emulator_kernel_rt.so",
        "board/fpgacl_a10.json",
        "lib/pkgconfig/fpgacl.pc",
    ] {
        assert!(root.join(p).exists(), "{} missing", root.join(p).display());
    }
    // The board files are in the board JSON format the runtime reads.
    let text = std::fs::read_to_string(root.join("board/fpgacl_a10.json")).unwrap();
    assert!(text.contains("\"kernel_clock_mhz\""), "{text}");
    // pkg-config gives the same flags as aocl.
    let pc = Command::new("pkg-config")
        .args(["--cflags", "--libs", "fpgacl"])
        .env("PKG_CONFIG_PATH", root.join("lib/pkgconfig"))
        .output()
        .expect("pkg-config");
    let flags = String::from_utf8_lossy(&pc.stdout);
    assert!(
        pc.status.success(),
        "{}",
        String::from_utf8_lossy(&pc.stderr)
    );
    assert!(
        flags.contains(&format!("-I{}", root.join("host/include").display())),
        "{flags}"
    );
    assert!(flags.contains("-lfpgacl"), "{flags}");
}

/// `aocl compile-config` has no trailing newline; `link-config` is `ldflags` + `ldlibs`, its
/// `-L` folder has no `-l` in its path and holds `libfpgacl.so` and the no-op
/// `libacl_emulator_kernel_rt.so`; an Intel host that includes only `CL/opencl.h`, uses
/// `CL_MEM_BANK_1_ALTERA` and calls `clGetProfileDataDeviceIntelFPGA` directly builds with
/// them (plus Intel's `-lacl_emulator_kernel_rt`) and runs.
#[test]
fn aocl_flags_build_an_intel_host_that_calls_the_extensions_directly() {
    let dir = fresh("intel-aocl-flags");
    let cc = fpgacl_in(&dir, &["aocl", "compile-config"]);
    ok(&cc, "aocl compile-config");
    assert!(!cc.stdout.ends_with('\n'), "{:?}", cc.stdout);
    assert!(cc.stdout.starts_with("-I"), "{:?}", cc.stdout);
    let lc = fpgacl_in(&dir, &["aocl", "link-config"]);
    ok(&lc, "aocl link-config");
    assert!(!lc.stdout.ends_with('\n'));
    let ldflags = fpgacl_in(&dir, &["aocl", "ldflags"]).stdout;
    let ldlibs = fpgacl_in(&dir, &["aocl", "ldlibs"]).stdout;
    assert_eq!(lc.stdout, format!("{ldflags} {ldlibs}"));
    let l_dir = lc
        .stdout
        .split_whitespace()
        .find_map(|w| w.strip_prefix("-L"))
        .expect("a -L flag")
        .to_string();
    assert!(!l_dir.contains("-l"), "{l_dir}");
    assert!(Path::new(&l_dir).join("libfpgacl.so").exists());
    assert!(Path::new(&l_dir)
        .join("libacl_emulator_kernel_rt.so")
        .exists());

    let host = dir.join("host.c");
    std::fs::write(
        &host,
        r#"#define CL_TARGET_OPENCL_VERSION 120
#include "CL/opencl.h"
#include <stdio.h>
int main(void) {
    cl_platform_id p; cl_device_id d; cl_int err;
    if (clGetPlatformIDs(1, &p, NULL) != CL_SUCCESS) return 1;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ACCELERATOR, 1, &d, NULL) != CL_SUCCESS) return 2;
    cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_BANK_2_ALTERA, 64, NULL, &err);
    if (err != CL_SUCCESS) return 3;
    /* Intel's extension functions, by name. */
    err = clGetProfileDataDeviceIntelFPGA(d, NULL, CL_TRUE, CL_TRUE, CL_FALSE, 0, NULL, NULL, NULL);
    printf("bank_flag=%lu profile_data=%d\n", (unsigned long)CL_MEM_BANK_2_ALTERA, (int)err);
    char name[256];
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, NULL);
    printf("platform=%s\n", name);
    clReleaseMemObject(b); clReleaseContext(c);
    return err == CL_SUCCESS ? 0 : 4;
}
"#,
    )
    .unwrap();
    let exe = dir.join("host");
    let mut gcc = Command::new("gcc");
    gcc.arg(&host)
        .args(cc.stdout.split_whitespace())
        .arg("-o")
        .arg(&exe)
        .args(lc.stdout.split_whitespace())
        .arg("-lacl_emulator_kernel_rt");
    let out = gcc.output().unwrap();
    assert!(
        out.status.success(),
        "gcc {:?}:\n{}",
        gcc,
        String::from_utf8_lossy(&out.stderr)
    );
    // No OCL_ICD_VENDORS, no LD_LIBRARY_PATH: the rpath finds the library.
    let mut run = hermetic_command(&exe, "intel-aocl-flags-run");
    run.env_remove("LD_LIBRARY_PATH");
    let out = run_with_timeout(&mut run, DEFAULT_TIMEOUT).unwrap();
    assert!(out.success(), "{}", out.describe());
    assert!(
        out.stdout.contains("bank_flag=131072 profile_data=0"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("platform=Intel(R) FPGA"),
        "{}",
        out.stdout
    );
}

/// `aocl` answers the commands build scripts and users type; everything else is "not
/// applicable to the emulator".
#[test]
fn aocl_commands() {
    let dir = fresh("intel-aocl-commands");
    let out = fpgacl_in(&dir, &["aocl", "version"]);
    ok(&out, "aocl version");
    assert!(out.stdout.contains(env!("CARGO_PKG_VERSION")));
    let out = fpgacl_in(&dir, &["aocl", "help"]);
    ok(&out, "aocl help");
    assert!(out.stdout.contains("compile-config") && out.stdout.contains("diagnose"));
    let out = fpgacl_in(&dir, &["aocl", "list-devices"]);
    ok(&out, "aocl list-devices");
    assert!(
        out.stdout.contains("acl0") && out.stdout.contains("fpgacl_a10"),
        "{}",
        out.stdout
    );
    let out = fpgacl_in(&dir, &["aocl", "diagnose"]);
    ok(&out, "aocl diagnose");
    assert!(out.stdout.contains("ICD registration"), "{}", out.stdout);
    assert!(out.stdout.contains("DIAGNOSTIC_PASSED"), "{}", out.stdout);
    for cmd in ["program", "flash", "binedit"] {
        let out = fpgacl_in(&dir, &["aocl", cmd, "acl0", "x.aocx"]);
        assert!(!out.success(), "aocl {cmd} succeeded");
        assert!(
            out.stderr.contains("not applicable to the emulator"),
            "{cmd}: {}",
            out.stderr
        );
    }
    let out = fpgacl_in(&dir, &["aocl", "install"]);
    ok(&out, "aocl install");
    assert!(out.stderr.contains("not applicable to the emulator"));
}

/// Issue 14 item 1: a program created with clCreateProgramWithBinary from an executable
/// binary runs without clBuildProgram (status CL_BUILD_SUCCESS, the log says so); a later
/// clBuildProgram is still accepted.
#[test]
fn program_from_executable_binary_runs_without_clbuildprogram() {
    let dir = fresh("intel-binary-ready");
    let src = binaries_dir().join("aocx_ready.cl");
    let aocx = dir.join("ready.aocx");
    let out = fpgacl_in(
        &dir,
        &[
            "aoc",
            "-march=emulator",
            "-DSCALE=4",
            "-DOFFSET=2",
            src.to_str().unwrap(),
            "-o",
            aocx.to_str().unwrap(),
        ],
    );
    ok(&out, "aoc");
    for mode in ["nobuild", "build"] {
        let out = run_aocx_ready(&aocx, 4, 2, mode, "intel-binary-ready-run");
        assert!(out.passed(), "{mode}:\n{}", out.describe());
        assert!(out.stdout.contains("out[1]=-62"), "{mode}: {}", out.stdout);
    }
}

/// Writes an ELF file shaped like an Intel-built `.aocx` with `objcopy --add-section` onto a
/// tiny object file: the main source, an include, their paths, the `aoc` command line.
fn make_intel_aocx(dir: &Path, input_args: &str) -> PathBuf {
    let main = "#include \"inc/offset.h\"\n\
                __kernel void scale_offset(__global const int *restrict in, __global int *restrict out) {\n\
                \x20 int i = get_global_id(0);\n\
                #ifdef AOCL_BOARD_pac_a10\n\
                \x20 out[i] = in[i] * SCALE + OFFSET;\n\
                #else\n\
                \x20 out[i] = 0;\n\
                #endif\n}\n";
    let header = "#define OFFSET 7\n";
    let files = [
        ("main.txt", main.to_string()),
        ("f0.txt", "/home/dev/proj/device/k.cl".to_string()),
        ("s0.txt", main.to_string()),
        ("f1.txt", "/home/dev/proj/device/inc/offset.h".to_string()),
        ("s1.txt", header.to_string()),
        ("n.txt", "2".to_string()),
        (
            "env.txt",
            format!("INPUT_ARGS={input_args}\nBUILD_NUMBER=222\nACL_VERSION=18.1.0\n"),
        ),
        ("board.txt", "EmulatorDevice".to_string()),
    ];
    for (f, t) in &files {
        std::fs::write(dir.join(f), t).unwrap();
    }
    std::fs::write(dir.join("empty.c"), "int acl_placeholder;\n").unwrap();
    let st = Command::new("gcc")
        .current_dir(dir)
        .args(["-c", "empty.c", "-o", "empty.o"])
        .status()
        .unwrap();
    assert!(st.success());
    let out = dir.join("intel.aocx");
    let mut objcopy = Command::new("objcopy");
    objcopy.current_dir(dir);
    for (section, file) in [
        (".acl.source", "main.txt"),
        (".acl.file.0", "f0.txt"),
        (".acl.source.0", "s0.txt"),
        (".acl.file.1", "f1.txt"),
        (".acl.source.1", "s1.txt"),
        (".acl.nfiles", "n.txt"),
        (".acl.compilation_env", "env.txt"),
        (".acl.board", "board.txt"),
    ] {
        objcopy
            .arg("--add-section")
            .arg(format!("{section}={file}"));
    }
    objcopy.arg("empty.o").arg(&out);
    let st = objcopy.status().unwrap();
    assert!(st.success(), "objcopy failed");
    out
}

/// Issue 17 item 7: an Intel-built `.aocx` loads by rebuilding the OpenCL source it keeps
/// with the `aoc` flags it was built with (the `-D` and the board macro here), saying so once.
#[test]
fn intel_built_aocx_is_rebuilt_from_its_source() {
    let dir = fresh("intel-elf-aocx");
    let aocx = make_intel_aocx(
        &dir,
        "-march=emulator -board=pac_a10 -DSCALE=5 -v -some-future-flag device/k.cl -o bin/k.aocx",
    );
    let out = run_aocx_ready(&aocx, 5, 7, "nobuild", "intel-elf-aocx-run");
    assert!(out.passed(), "{}", out.describe());
    let said = out
        .stderr
        .lines()
        .filter(|l| l.contains("built by Intel's aoc"))
        .count();
    assert_eq!(said, 1, "{}", out.stderr);
    assert!(out.stderr.contains("-DSCALE=5"), "{}", out.stderr);
    assert!(out.stderr.contains("-some-future-flag"), "{}", out.stderr);
    // The report of the Intel binary, made from its source.
    let out = fpgacl_in(&dir, &["aoc", "-report", aocx.to_str().unwrap()]);
    ok(&out, "aoc -report intel.aocx");
    assert!(
        out.stdout.contains("Kernel: scale_offset"),
        "{}",
        out.stdout
    );
    // An ELF without the source is refused with a reason.
    let bare = dir.join("empty.o");
    let out = run_aocx_ready(&bare, 1, 0, "nobuild", "intel-elf-aocx-run");
    assert!(!out.success());
    assert!(out.stderr.contains(".acl.source"), "{}", out.stderr);
}

/// Issue 17 item 5: RTL libraries modelled in OpenCL C: `aoc -c model.cl -o lib.aoclib` (or
/// `aocl library create`), a kernel that calls the library's function declared in a header
/// given with `-include`, linked with `-l lib.aoclib -L dir`.
#[test]
fn rtl_library_models_link_with_l_and_include() {
    let dir = fresh("intel-rtl-lib");
    std::fs::write(dir.join("rtl.h"), "int rtl_scale(int x);\n").unwrap();
    std::fs::write(
        dir.join("model.cl"),
        "// OpenCL C model of an HDL function\nint rtl_scale(int x) { return x * 6 + 9; }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("k.cl"),
        "__kernel void scale_offset(__global const int *restrict in, __global int *restrict out) {\n\
         \x20 int i = get_global_id(0);\n  out[i] = rtl_scale(in[i]);\n}\n",
    )
    .unwrap();
    ok(
        &fpgacl_in(&dir, &["aoc", "-c", "model.cl", "-o", "libs/rtl.aoclib"]),
        "aoc -c model.cl -o libs/rtl.aoclib",
    );
    ok(
        &fpgacl_in(
            &dir,
            &[
                "aocl",
                "library",
                "create",
                "-name",
                "libs/rtl2.aoclib",
                "model.cl",
            ],
        ),
        "aocl library create",
    );
    for lib in ["rtl.aoclib", "rtl2"] {
        let out_name = format!("k_{lib}.aocx");
        let out = fpgacl_in(
            &dir,
            &[
                "aoc",
                "-march=emulator",
                "-I",
                ".",
                "-include",
                "rtl.h",
                "-l",
                lib,
                "-L",
                "libs",
                "k.cl",
                "-o",
                &out_name,
            ],
        );
        ok(&out, "aoc -l");
        let run = run_aocx_ready(&dir.join(&out_name), 6, 9, "nobuild", "intel-rtl-lib-run");
        assert!(run.passed(), "{lib}: {}", run.describe());
    }
    // Without -include the function is undeclared.
    let out = fpgacl_in(&dir, &["aoc", "-l", "rtl.aoclib", "-L", "libs", "k.cl"]);
    assert!(!out.success());
    assert!(out.stderr.contains("rtl_scale"), "{}", out.stderr);
}

/// Issue 13 items 5-6: the Intel-style project (`host-examples/intel_project`: Makefile with
/// `$(shell aocl compile-config)` / `$(shell aocl link-config)` flags, `aoc -march=emulator
/// -board=... -fp-relaxed -v`, an AOCLUtils-style host that calls `setCwdToExeDir` and Intel's
/// extension functions directly) built by `make` with only PATH changed, run under
/// `fpgacl profile`; the profile holds the program's source and both kernels' runs.
#[test]
fn intel_style_project_builds_with_make_and_profiles() {
    let root = sdk_root();
    let dir = fresh("intel-project");
    let src = workspace_root().join("host-examples/intel_project");
    let st = Command::new("cp")
        .arg("-r")
        .arg(src.join("."))
        .arg(&dir)
        .status()
        .unwrap();
    assert!(st.success());
    let path = format!(
        "{}:{}",
        root.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut make = Command::new("make");
    make.current_dir(&dir)
        .env("PATH", &path)
        .env_remove("OCL_ICD_VENDORS")
        .env_remove("CXXFLAGS");
    let out = run_with_timeout(&mut make, DEFAULT_TIMEOUT).unwrap();
    assert!(out.success(), "make failed:\n{}", out.describe());
    assert!(dir.join("bin/vector_scale").is_file());
    assert!(dir.join("bin/vector_scale.aocx").is_file());
    // aoc -v said what it did.
    assert!(
        out.stderr
            .contains("Emulator Compilation completed successfully"),
        "{}",
        out.stderr
    );

    let profile = dir.join("profile.mon");
    let mut run = Command::new(fpgacl_cli());
    run.current_dir(&dir)
        .env("PATH", &path)
        .env_remove("OCL_ICD_VENDORS")
        .arg("profile")
        .arg("-o")
        .arg(&profile)
        .arg("--")
        .arg("./bin/vector_scale");
    let out = run_with_timeout(&mut run, DEFAULT_TIMEOUT).unwrap();
    assert!(out.success(), "host failed:\n{}", out.describe());
    assert!(out.stdout.contains("Verification: PASS"), "{}", out.stdout);
    let p = read_profile(&profile).unwrap_or_else(|e| panic!("{e}\n{}", out.describe()));
    assert_eq!(p.programs.len(), 1, "{:?}", p.programs);
    let prog = &p.programs[0];
    assert!(
        prog.sources
            .iter()
            .any(|s| s.name.ends_with("vector_scale.cl") && s.text.contains("read_channel_intel")),
        "{:?}",
        prog.sources.iter().map(|s| &s.name).collect::<Vec<_>>()
    );
    let runs: Vec<_> = p.kernel_runs().collect();
    for k in ["producer", "consumer"] {
        let r = runs
            .iter()
            .find(|r| r.kernel == k)
            .unwrap_or_else(|| panic!("no run of {k}: {:?}", p.records));
        assert!(r.end_ns > r.start_ns, "{k}: {r:?}");
        assert!(!r.sites.is_empty(), "{k} has no counters");
    }
    // `aocl report` (from PATH, like Intel's) is `fpgacl report`.
    let mut report = Command::new(root.join("bin/aocl"));
    report
        .current_dir(&dir)
        .args(["report", "--text"])
        .arg(&profile);
    let rep = run_with_timeout(&mut report, DEFAULT_TIMEOUT).unwrap();
    assert!(rep.success(), "aocl report:\n{}", rep.describe());
    assert!(
        rep.stdout.contains("consumer") && rep.stdout.contains("vector_scale.cl"),
        "{}",
        rep.stdout
    );
    // The consumer's channel read is one of its counted sites.
    let consumer = runs.iter().find(|r| r.kernel == "consumer").unwrap();
    assert!(
        consumer
            .sites
            .iter()
            .any(|s| prog.site(s.site).is_some_and(|a| a.line == 21)),
        "consumer sites: {:?}",
        consumer.sites
    );
}
