//! The library of real boards end to end: the `vector_add` C host runs through the ICD loader
//! on every built-in board (`FPGACL_BOARD` by Intel BSP name or alias), and the profile's
//! header records the board and its kernel clock, the measured clock when
//! `FPGACL_KERNEL_CLOCK_MHZ` gives one.

use fpgacl_profile_format::read_profile;
use fpgacl_tests::{
    compile_example, example, example_command, fpgacl_lib_dir, run_with_timeout, scratch_dir,
    Linkage, DEFAULT_TIMEOUT,
};

/// (selection, board name, default kernel clock MHz)
const BOARDS: &[(&str, &str, f64)] = &[
    ("fpgacl_a10", "fpgacl_a10", 294.0),
    ("p385a_sch_ax115", "p385a_sch_ax115", 250.0),
    ("520n", "p520_max_sg280h", 300.0),
    ("de5net_a7", "de5net_a7", 200.0),
    ("pac_a10", "pac_a10", 250.0),
    ("d5005", "pac_s10_dc", 300.0),
    ("a10_ref", "a10gx", 250.0),
    ("s10_ref", "s10gx", 300.0),
];

fn run(sel: &str, clock: Option<&str>) -> fpgacl_profile_format::Profile {
    let _ = fpgacl_lib_dir();
    let ex = example("vector_add").expect("vector_add example");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let dir = scratch_dir(&format!("boards-{sel}-{}", clock.unwrap_or("default")));
    let _ = std::fs::remove_file(dir.join("profile.mon"));
    let mut cmd = example_command(&bin, "vector_add", &Linkage::IcdLoader);
    cmd.current_dir(&dir)
        .env("VECTOR_N", (1u32 << 14).to_string())
        .env("FPGACL_BOARD", sel)
        .env("ACL_RUNTIME_PROFILING_ACTIVE", "1");
    if let Some(c) = clock {
        cmd.env("FPGACL_KERNEL_CLOCK_MHZ", c);
    }
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run vector_add");
    assert!(out.success(), "{sel}: {}", out.describe());
    read_profile(dir.join("profile.mon")).unwrap_or_else(|e| panic!("{sel}: {e}"))
}

#[test]
fn vector_add_runs_on_every_builtin_board() {
    for &(sel, name, mhz) in BOARDS {
        let p = run(sel, None);
        assert_eq!(p.header.board.name, name, "{sel}");
        assert_eq!(p.header.board.fmax_mhz, mhz, "{sel}");
        let runs: Vec<_> = p.kernel_runs().collect();
        assert!(!runs.is_empty(), "{sel}: a kernel run in the profile");
    }
}

#[test]
fn a_measured_kernel_clock_is_recorded_in_the_profile() {
    let p = run("de5net", Some("180.5"));
    assert_eq!(p.header.board.name, "de5net_a7");
    assert_eq!(p.header.board.fmax_mhz, 180.5);
    let r = p.kernel_runs().next().expect("a kernel run");
    assert!(r.end_cycle > r.start_cycle);
}
