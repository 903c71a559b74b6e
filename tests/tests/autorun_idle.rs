//! Issue 15 item 8: 200 autorun compute units polling their channels with non-blocking reads
//! (nothing feeds them) cost under 0.1 s of CPU over 1 s of host sleep (`autorun_idle` C host
//! through the ICD loader), and a parked poller still answers an enqueued kernel.

use fpgacl_tests::{
    compile_example, example, example_command, fpgacl_lib_dir, printed_figures, run_with_timeout,
    Linkage, DEFAULT_TIMEOUT,
};

#[test]
fn two_hundred_polling_autorun_compute_units_are_idle_while_the_host_sleeps() {
    let _ = fpgacl_lib_dir();
    let ex = example("autorun_idle").expect("example");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let mut cmd = example_command(&bin, "autorun_idle", &Linkage::IcdLoader);
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run autorun_idle");
    assert!(
        out.passed() && out.stdout.contains("PASS: autorun_idle"),
        "{}",
        out.describe()
    );
    let f = printed_figures(&out.stdout, &["idle_cpu_s", "idle_wall_s"]);
    eprintln!("{f:?}");
    assert!(f["idle_wall_s"] >= 0.9, "{}", out.describe());
    assert!(f["idle_cpu_s"] < 0.1, "{}", out.describe());
}
