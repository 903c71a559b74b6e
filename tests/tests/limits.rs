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
