//! Unrolling as Intel's compiler decides it: statement attributes before loops
//! (`opencl_unroll_hint`), loops of trip count 0 or 1 that are no loops for the hardware, and
//! loop bounds known only after inlining and constant propagation (issues 11 and 17).

use fpgacl_kernel_compiler::analysis::UnrollStatus;
use fpgacl_kernel_compiler::analysis::{self, BoardParams, IiReason, LoopReport, Report};
use fpgacl_kernel_compiler::{build, SourceFile};

fn analyse(text: &str) -> (Report, String) {
    let out = build(
        &[SourceFile {
            name: "k.cl".into(),
            text: text.into(),
        }],
        "",
    )
    .expect("build runs");
    let m = out.module.unwrap_or_else(|| panic!("{}", out.log));
    (analysis::analyze(&m, &BoardParams::default()), out.log)
}

fn loop_at(r: &Report, line: u32) -> LoopReport {
    r.kernels[0]
        .loop_at_line(line)
        .unwrap_or_else(|| panic!("no loop at line {line}: {:#?}", r.kernels[0].loops))
        .clone()
}

const ACC: &str =
    "__kernel void k(__global const int *restrict a, __global int *restrict out, int n) {\n\
     int s = 0;\n\
     HINT\n\
     for (int i = 0; i < n; i++) s += a[i];\n\
     out[0] = s;\n\
     }\n";

#[test]
fn opencl_unroll_hint_means_pragma_unroll() {
    for (attr, pragma) in [
        ("__attribute__((opencl_unroll_hint(4)))", "#pragma unroll 4"),
        ("__attribute__((opencl_unroll_hint(1)))", "#pragma unroll 1"),
        ("__attribute__((opencl_unroll_hint))", "#pragma unroll"),
    ] {
        let (a, log) = analyse(&ACC.replace("HINT", attr));
        let (p, _) = analyse(&ACC.replace("HINT", pragma));
        let (la, lp) = (loop_at(&a, 4), loop_at(&p, 4));
        assert_eq!(la.unroll, lp.unroll, "{attr}");
        assert_eq!(la.ii, lp.ii, "{attr}");
        assert!(!log.contains("warning"), "{attr}: {log}");
    }
    // A constant trip count: full unrolling.
    let (r, _) = analyse(
        "__kernel void k(__global int *restrict out) {\n int s = 0;\n\
         __attribute__((opencl_unroll_hint)) for (int i = 0; i < 64; i++) s += out[i];\n out[64] = s;\n}\n",
    );
    assert_eq!(loop_at(&r, 3).unroll, UnrollStatus::FullPragma);
}

#[test]
fn unknown_loop_attributes_are_ignored_with_a_warning() {
    let (r, log) = analyse(&ACC.replace("HINT", "__attribute__((xcl_pipeline_loop(1)))"));
    assert!(
        log.contains("warning") && log.contains("xcl_pipeline_loop"),
        "{log}"
    );
    assert_eq!(loop_at(&r, 4).unroll, UnrollStatus::NotUnrolled);
    // Attributes on a declaration are still declaration attributes.
    let (_, log) = analyse(
        "__kernel void k(__global int *out) {\n __attribute__((aligned(16))) int x[4];\n\
         x[0] = 1; out[0] = x[0];\n}\n",
    );
    assert!(!log.contains("loop attribute"), "{log}");
}

/// Each access wrapped in a loop of trip count 1: the loops are unrolled away, so the outer
/// loop has no pipelined subloop and no "pipeline structure" II of 2.
#[test]
fn trip_count_one_loops_are_not_loops() {
    let src =
        "__kernel void k(__global const float *restrict a, __global float *restrict b, int n) {\n\
         for (int i = 0; i < n; i++) {\n\
           float v;\n\
           for (int r = 0; r < 1; r++) v = a[i];\n\
           int one = 1;\n\
           for (int r = 0; r < one; r++) b[i] = v * 2.0f;\n\
           do { b[i + n] = v; } while (0);\n\
         }\n\
         }\n";
    let (r, _) = analyse(src);
    let outer = loop_at(&r, 2);
    assert_eq!(outer.ii, 1, "{outer:#?}");
    assert!(
        !outer.reasons.contains(&IiReason::PipelineStructure),
        "{outer:#?}"
    );
    for line in [4, 6, 7] {
        assert!(loop_at(&r, line).unroll.is_full(), "line {line}: {r:#?}");
    }
    // A trip-1 loop is unrolled even when its body is large.
    let mut big = String::from(
        "__kernel void k(__global int *restrict o, int n) {\n for (int r = 0; r < 1; r++) {\n",
    );
    for i in 0..1500 {
        big += &format!("  o[{i}] = n * {i};\n");
    }
    big += " }\n}\n";
    let (r, _) = analyse(&big);
    assert_eq!(loop_at(&r, 2).unroll, UnrollStatus::FullAuto);
}

/// Issue 17's reproduction: the helper's loop bound is a parameter, constant at the call.
const FFT: &str = "void shift(float *buf, int n) {\n\
     #pragma unroll\n\
     for (int i = 0; i < n - 1; i++) buf[i] = buf[i + 1];\n\
     }\n\
     __attribute__((task)) kernel void k(global float *restrict out, int count) {\n\
     float buf[64];\n\
     for (int i = 0; i < count; i++) { shift(buf, 64); buf[63] = i; out[i] = buf[0]; } }\n";

#[test]
fn loop_bounds_are_known_after_inlining() {
    let (r, log) = analyse(FFT);
    let k = &r.kernels[0];
    let helper = loop_at(&r, 3);
    assert_eq!(helper.unroll, UnrollStatus::FullPragma, "{helper:#?}");
    assert_eq!(helper.trip_count, Some(63));
    assert!(
        !k.warnings.iter().any(|w| w.contains("bounds unknown")),
        "{:?}",
        k.warnings
    );
    let main = loop_at(&r, 7);
    assert_eq!(main.ii, 1, "{main:#?}");
    assert!(
        main.reasons.is_empty() && main.serialized.is_empty(),
        "{main:#?}"
    );
    assert!(!log.contains("bounds"), "{log}");
    // buf is a shift register: no private-memory access sites remain.
    assert!(
        !k.sites.iter().any(|s| s.target.starts_with("buf")),
        "{:#?}",
        k.sites
    );
}

/// A bound that really is unknown keeps the old diagnosis.
#[test]
fn unknown_bounds_still_warn() {
    let (r, _) = analyse(&FFT.replace("shift(buf, 64)", "shift(buf, count)"));
    assert_eq!(
        loop_at(&r, 3).unroll,
        UnrollStatus::FullRequestedUnknownBounds
    );
}

/// Issue 17 item 9: the counter of a partially unrolled loop is no recurrence at any factor.
#[test]
fn partial_unroll_keeps_the_counter_at_ii_1() {
    for factor in [4, 8, 16, 48] {
        let src = format!(
            "__kernel void k(__global const int *restrict a, __global int *restrict b, int n) {{\n\
             #pragma unroll {factor}\n\
             for (int i = 0; i < n; i++) b[i] = a[i] * 3;\n\
             }}\n"
        );
        let (r, _) = analyse(&src);
        let l = loop_at(&r, 3);
        assert_eq!(l.unroll, UnrollStatus::Partial(factor));
        assert_eq!(l.ii, 1, "unroll {factor}: {l:#?}");
    }
    // An integer sum: whatever its II, the reason is the sum, never the counter, and no
    // reason names an unknown value at line 0.
    for factor in [16, 48] {
        let (r, _) = analyse(&ACC.replace("HINT", &format!("#pragma unroll {factor}")));
        let l = loop_at(&r, 4);
        for reason in &l.reasons {
            if let IiReason::DataDependency { variable, loc } = reason {
                assert_ne!(variable, "i", "unroll {factor}: {l:#?}");
                assert!(loc.line > 0 && !variable.contains("<value>"), "{l:#?}");
            }
        }
    }
}

/// Issue 17 item 10: a loop the table shows as "Pipelined: No" (an NDRange kernel's loop) is
/// not described as pipelined in the text.
#[test]
fn report_text_agrees_with_the_pipelined_column() {
    let src = "__kernel void k(__global const float *restrict a, __global float *restrict out, int n) {\n\
         float s = 0.0f;\n\
         for (int j = 0; j < n; j++) s = s * 0.5f + a[j];\n\
         out[get_global_id(0)] = s;\n\
         }\n";
    let out = build(
        &[SourceFile {
            name: "k.cl".into(),
            text: src.into(),
        }],
        "",
    )
    .expect("build runs");
    let m = out.module.expect("module");
    let r = analysis::analyze(&m, &BoardParams::default());
    let l = loop_at(&r, 3);
    assert!(!l.pipelined && l.ii > 1, "{l:#?}");
    let text = analysis::render::render(&m.sources, &r);
    assert!(!text.contains("Pipelined with"), "{text}");
    assert!(
        text.contains(&format!("launched every {} cycles", l.ii)),
        "{text}"
    );
}
