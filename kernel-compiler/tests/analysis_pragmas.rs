//! Loop pragmas a customer adds to tune a loop: `max_concurrency N` bounds the iterations in
//! flight, so the II is at least the iteration's depth / N; `loop_coalesce` is accepted and
//! the report says it is not modelled (found by qa: both were silently ignored).

use fpgacl_kernel_compiler::analysis::{self, BoardParams, LoopReport, Report};
use fpgacl_kernel_compiler::{build, SourceFile};

fn analyse(text: &str) -> Report {
    let out = build(
        &[SourceFile {
            name: "k.cl".into(),
            text: text.into(),
        }],
        "",
    )
    .expect("build runs");
    let m = out.module.unwrap_or_else(|| panic!("{}", out.log));
    analysis::analyze(&m, &BoardParams::default())
}

fn loop_at(r: &Report, kernel: &str, line: u32) -> LoopReport {
    r.kernel(kernel)
        .and_then(|k| k.loop_at_line(line))
        .unwrap_or_else(|| panic!("no loop at line {line} in {kernel}"))
        .clone()
}

const BODY: &str = "__kernel void k(__global int *restrict out, int n) {\n\
     PRAGMA\n\
     for (int r = 0; r < n; r++) {\n\
       int tmp[16];\n\
       for (int j = 0; j < 16; j++) tmp[j] = r + j;\n\
       int s = 0;\n\
       for (int j = 0; j < 16; j++) s += tmp[15 - j] * j;\n\
       out[r] = s;\n\
     }\n\
     }\n";

#[test]
fn max_concurrency_bounds_the_ii_by_the_iteration_depth() {
    let free = loop_at(&analyse(&BODY.replace("PRAGMA", "")), "k", 3);
    assert_eq!(free.ii, 1, "{free:#?}");
    let one = loop_at(
        &analyse(&BODY.replace("PRAGMA", "#pragma max_concurrency 1")),
        "k",
        3,
    );
    assert!(one.ii > 2, "one iteration in flight: II = depth: {one:#?}");
    assert!(
        one.details.iter().any(|d| d.contains("max_concurrency 1")),
        "{one:#?}"
    );
    let two = loop_at(
        &analyse(&BODY.replace("PRAGMA", "#pragma max_concurrency 2")),
        "k",
        3,
    );
    assert_eq!(two.ii, one.ii.div_ceil(2), "{two:#?}");
    // Enough concurrency: no limit.
    let many = loop_at(
        &analyse(&BODY.replace("PRAGMA", "#pragma max_concurrency 1000")),
        "k",
        3,
    );
    assert_eq!(many.ii, 1, "{many:#?}");
}

#[test]
fn loop_coalesce_is_reported_as_not_modelled() {
    let r = analyse(
        "__kernel void k(__global int *restrict m, int rows, int cols) {\n\
         #pragma loop_coalesce 2\n\
         for (int r = 0; r < rows; r++)\n\
           for (int c = 0; c < cols; c++)\n\
             m[r * cols + c] = r * c;\n\
         }\n",
    );
    let outer = loop_at(&r, "k", 3);
    assert!(
        outer
            .details
            .iter()
            .any(|d| d.contains("loop_coalesce") && d.contains("not modelled")),
        "{outer:#?}"
    );
}
