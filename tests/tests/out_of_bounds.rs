//! Out-of-bounds accesses through a C host and the ICD loader (`out_of_bounds` example):
//! by default the stencils that read a[i-1] / a[i+1] before testing the border (local and
//! global memory) complete with exact results and a store past the end changes no other
//! buffer; each site is reported once on stderr, recorded in `profile.mon` and shown by
//! `fpgacl report --text`. With `FPGACL_OOB=fault` each such kernel fails instead.

use std::process::Command;

use fpgacl_profile_format::read_profile;
use fpgacl_tests::{
    compile_example, example, example_command, fpgacl_cli, fpgacl_lib_dir, run_with_timeout,
    scratch_dir, Linkage, RunOutput, DEFAULT_TIMEOUT,
};

fn run(scratch: &str, env: &[(&str, &str)]) -> (RunOutput, std::path::PathBuf) {
    let _ = fpgacl_lib_dir();
    let ex = example("out_of_bounds").expect("example");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let dir = scratch_dir(scratch);
    let _ = std::fs::remove_file(dir.join("profile.mon"));
    let mut cmd = example_command(&bin, "out_of_bounds", &Linkage::IcdLoader);
    cmd.current_dir(&dir);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run out_of_bounds");
    (out, dir)
}

#[test]
fn out_of_bounds_reads_return_zero_and_writes_are_dropped_by_default() {
    let (out, dir) = run("oob-report", &[("ACL_RUNTIME_PROFILING_ACTIVE", "1")]);
    assert!(
        out.passed() && out.stdout.contains("PASS: out_of_bounds"),
        "{}",
        out.describe()
    );
    let warnings: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.contains("out-of-bounds"))
        .collect();
    // stencil_local: prev[l-1], prev[l+1]; stencil_global: a[i-1], a[i+1]; one store.
    assert_eq!(warnings.len(), 5, "each site once:\n{}", out.describe());
    let has = |needle: &[&str]| {
        warnings
            .iter()
            .any(|w| needle.iter().all(|n| w.contains(n)))
    };
    assert!(
        has(&[
            "kernel 'stencil_local'",
            "<source>:15:",
            "(work-item 0,0,0)",
            "read of 4 bytes at offset -4 of 'prev' (local memory)",
            "returned 0 (16 such reads",
        ]),
        "{warnings:#?}"
    );
    assert!(
        has(&[
            "kernel 'stencil_global'",
            "<source>:31:",
            "(work-item 1023,0,0)",
            "offset 4096 of 'a' (argument 0)",
            "(1 such read ",
        ]),
        "{warnings:#?}"
    );
    assert!(
        has(&[
            "kernel 'store_past_end'",
            "write of 4 bytes at offset 64 of 'dst'",
            "dropped (8 such writes",
        ]),
        "{warnings:#?}"
    );
    // The profile has one OutOfBounds record per site, after its run.
    let p = read_profile(dir.join("profile.mon")).unwrap_or_else(|e| panic!("{e}"));
    let sites: Vec<_> = p.out_of_bounds().collect();
    assert_eq!(sites.len(), 5, "{:?}", p.records);
    let local = sites
        .iter()
        .find(|o| o.kernel == "stencil_local" && o.offset == -4)
        .expect("prev[l - 1]");
    assert_eq!(
        (local.line, local.memory.as_str(), local.target.as_str()),
        (15, "local memory", "prev")
    );
    assert_eq!(
        (local.count, local.write, local.work_item),
        (16, false, [0, 0, 0])
    );
    let runs: Vec<_> = p.kernel_runs().map(|r| r.run_id).collect();
    assert!(sites.iter().all(|o| runs.contains(&o.run_id)));
    // `fpgacl report --text` lists them.
    let mut cmd = Command::new(fpgacl_cli());
    cmd.args(["report", "--text"]).arg(dir.join("profile.mon"));
    let rep = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("fpgacl report");
    assert!(rep.success(), "{}", rep.describe());
    let lines: Vec<&str> = rep
        .stdout
        .lines()
        .filter(|l| l.starts_with("out-of-bounds:"))
        .collect();
    assert_eq!(lines.len(), 5, "{}", rep.stdout);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("'prev' (local memory)") && l.contains("in 1 run(s)")),
        "{}",
        rep.stdout
    );
}

#[test]
fn strict_mode_makes_each_out_of_bounds_kernel_fail() {
    let (out, _) = run("oob-fault", &[("FPGACL_OOB", "fault")]);
    assert!(
        out.passed() && out.stdout.contains("PASS: out_of_bounds"),
        "{}",
        out.describe()
    );
    assert!(
        out.stderr
            .contains("out-of-bounds read of 4 bytes at offset -4 of 'prev' (local memory)")
            && out
                .stderr
                .contains("out-of-bounds write of 4 bytes at offset 64 of 'dst'"),
        "{}",
        out.describe()
    );
}
