//! Unrolling after inlining end to end (issue 17 item 3): `fpgacl aoc --report` shows the
//! helper's loop fully unrolled and the main loop at II 1, and the `unrolled_helper` C host
//! (through the ICD loader) gets correct results with a device time of about one cycle per
//! iteration: the emulated time follows the new II (it was II 2, serial across the helper's
//! loop, with a private-memory dependency, before the analysis propagated the constant).

use fpgacl_tests::{
    compile_example, example, example_command, fpgacl_cli, fpgacl_lib_dir, hermetic_command,
    printed_figures, run_with_timeout, Linkage, DEFAULT_TIMEOUT,
};

#[test]
fn aoc_report_shows_the_helper_unrolled_and_ii_1() {
    let ex = example("unrolled_helper").expect("unrolled_helper example");
    let src = ex.kernel_paths()[0].clone();
    let mut cmd = hermetic_command(&fpgacl_cli(), "unrolled-helper-aoc");
    cmd.arg("aoc")
        .arg(&src)
        .arg("-o")
        .arg("unrolled_helper.aocx")
        .arg("--report");
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run fpgacl aoc");
    assert!(out.success(), "{}", out.describe());
    let text = &out.stdout;
    assert!(
        !text.contains("bounds unknown"),
        "the helper's bounds are known after inlining:\n{text}"
    );
    // The main loop (line 13) is the only pipelined loop: Block1, II 1.
    let main_block: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("Block1") || l.contains("line 13"))
        .collect();
    assert!(!main_block.is_empty(), "{text}");
    assert!(!text.contains("Block2"), "one pipelined loop only:\n{text}");
    assert!(!text.contains("Memory dependency"), "{text}");
    assert!(!text.contains("serially"), "{text}");
}

#[test]
fn unrolled_helper_runs_at_one_cycle_per_iteration() {
    let _ = fpgacl_lib_dir();
    let ex = example("unrolled_helper").expect("unrolled_helper example");
    let bin = compile_example(ex, &Linkage::IcdLoader);
    let mut cmd = example_command(&bin, "unrolled_helper", &Linkage::IcdLoader);
    cmd.env("UH_COUNT", "65536");
    let out = run_with_timeout(&mut cmd, DEFAULT_TIMEOUT).expect("run unrolled_helper");
    assert!(out.success(), "{}", out.describe());
    let f = printed_figures(&out.stdout, &["cycles_per_iteration", "kernel_ns"]);
    let cpi = f["cycles_per_iteration"];
    // II 1 plus the pipeline's fill and drain (a few hundred cycles over 65536 iterations).
    assert!(
        (1.0..1.1).contains(&cpi),
        "cycles per iteration {cpi} (II 1 expected):\n{}",
        out.stdout
    );
}
