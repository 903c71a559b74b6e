//! Device limits as Intel's runtime reports them (the `limits` C host through the ICD
//! loader): large work-groups with and without `reqd_work_group_size`, the 256 default of a
//! kernel with barriers, local memory above 64 KiB, CL_INVALID_GLOBAL_WORK_SIZE for an item
//! count that overflows.

use fpgacl_tests::{example, run_example, Linkage};

#[test]
fn large_work_groups_and_local_memory_run() {
    let out = run_example(example("limits").expect("example"), &Linkage::IcdLoader);
    assert!(
        out.passed() && out.stdout.contains("PASS: limits"),
        "{}",
        out.describe()
    );
    assert!(
        out.stdout.contains("max work-group size 2147483647")
            && out.stdout.contains("local memory 6945280 bytes"),
        "{}",
        out.describe()
    );
}

/// Issue 17 item 1: `fpgacl aoc` warns where a real work-group limit applies (here a
/// reqd_work_group_size beyond CL_DEVICE_MAX_WORK_GROUP_SIZE) and the build still succeeds;
/// a large reqd size without a barrier gets no warning.
#[test]
fn aoc_warns_only_where_a_work_group_limit_applies() {
    use fpgacl_tests::{fpgacl_cli, run_with_timeout, scratch_dir, DEFAULT_TIMEOUT};
    use std::process::Command;
    let dir = scratch_dir("aoc_work_group_warning");
    let cases = [
        (
            "over.cl",
            "__attribute__((reqd_work_group_size(65536,65536,1)))\n\
             kernel void a(global int *p) { p[get_global_id(0)] = 1; }\n",
            true,
        ),
        (
            "fine.cl",
            "__attribute__((reqd_work_group_size(32768,1,1)))\n\
             kernel void a(global int *p) { p[get_global_id(0)] = 1; }\n",
            false,
        ),
    ];
    for (name, src, warns) in cases {
        std::fs::write(dir.join(name), src).unwrap();
        let mut cmd = Command::new(fpgacl_cli());
        cmd.current_dir(&dir)
            .args(["aoc", "-march=emulator", name, "-o"])
            .arg(name.replace(".cl", ".aocx"));
        let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).unwrap();
        assert!(out.success(), "{}", out.describe());
        assert!(dir.join(name.replace(".cl", ".aocx")).is_file());
        let said = out
            .stderr
            .contains(&format!("{name}:1:16: warning: reqd_work_group_size"))
            && out
                .stderr
                .contains("CL_DEVICE_MAX_WORK_GROUP_SIZE (2147483647)");
        assert_eq!(said, warns, "{name}: {}", out.describe());
        if !warns {
            assert!(!out.stderr.contains("warning"), "{}", out.describe());
        }
    }
}
