//! `FPGACL_KERNEL_TIMEOUT_S`: endless kernels (a compute loop, a printf loop) are stopped with
//! an error status naming kernel, line and work-item; the host goes on (`watchdog` C host).

use fpgacl_tests::{
    compile_example, example, example_command, fpgacl_lib_dir, run_with_timeout, Linkage,
    DEFAULT_TIMEOUT,
};

#[test]
fn endless_kernels_are_stopped_by_the_watchdog() {
    let _ = fpgacl_lib_dir();
    let ex = example("watchdog").expect("example");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let mut cmd = example_command(&bin, "watchdog", &Linkage::IcdLoader);
    cmd.env("FPGACL_KERNEL_TIMEOUT_S", "1");
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run watchdog");
    assert!(
        out.passed() && out.stdout.contains("PASS: watchdog"),
        "{}",
        out.describe()
    );
    for (kernel, line) in [("spin", ":7:"), ("chatty", ":14:")] {
        assert!(
            out.stderr
                .lines()
                .any(|l| l.contains(&format!("kernel '{kernel}'"))
                    && l.contains(line)
                    && l.contains("(work-item 0,0,0)")
                    && l.contains("watchdog")),
            "{kernel}:\n{}",
            out.describe()
        );
    }
    // The endless printf loop printed (its first lines at least), bounded.
    assert!(out.stdout.contains("tick 0\n"), "{}", out.describe());
}
