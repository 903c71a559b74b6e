//! An access inside a fully unrolled loop issues at the II of the pipelined loop around it:
//! the details show that loop (line, II, reason), not the unrolled loop's meaningless "II 0"
//! (found by qa on a FIR filter and a tiled matmul whose inner `#pragma unroll` loops hid the
//! outer loop's II 40 and its data dependency).

use fpgacl_profile_format::{LoopInfo, Unroll};
use fpgacl_profiler_tui::{demo, text, ReportData, Scope};

fn unrolled(id: u32, parent: Option<u32>, line: u32) -> LoopInfo {
    LoopInfo {
        id,
        parent,
        kernel: "consumer".into(),
        file: "pipeline.cl".into(),
        line,
        column: 5,
        trip_count: Some(8),
        unroll: Unroll::Full,
        ii: 0,
        ii_reason: String::new(),
        serialized: false,
        critical_path: Vec::new(),
    }
}

#[test]
fn accesses_in_unrolled_loops_report_the_enclosing_pipelined_loop() {
    let mut p = demo::demo_profile();
    let prog = &mut p.programs[0];
    // consumer's loop 1 (line 13, II 4) gets two nested fully unrolled loops; its store at
    // line 16 moves into the innermost one.
    prog.report.loops.push(unrolled(40, Some(1), 14));
    prog.report.loops.push(unrolled(41, Some(40), 15));
    let store = prog
        .report
        .sites
        .iter_mut()
        .find(|s| s.kernel == "consumer" && s.line == 16)
        .expect("the demo's consumer store");
    store.enclosing_loop = Some(41);
    let data = ReportData::new("profile.mon", p);
    let out = text::source_text(&data, Scope::Average);
    assert!(!out.contains("II 0"), "{out}");
    let block = store_block(&out);
    assert!(
        block.contains("Loop at line 13: II 4 (loop-carried dependency on acc"),
        "{block}"
    );
}

#[test]
fn an_access_whose_loops_are_all_unrolled_is_not_in_a_pipelined_loop() {
    let mut p = demo::demo_profile();
    let prog = &mut p.programs[0];
    prog.report.loops.push(unrolled(40, None, 14));
    let store = prog
        .report
        .sites
        .iter_mut()
        .find(|s| s.kernel == "consumer" && s.line == 16)
        .unwrap();
    store.enclosing_loop = Some(40);
    let data = ReportData::new("profile.mon", p);
    let out = text::source_text(&data, Scope::Average);
    assert!(!out.contains("II 0"), "{out}");
    let block = store_block(&out);
    assert!(block.contains("Not inside a loop."), "{block}");
    assert!(!block.contains("Loop at line"), "{block}");
}

/// The consumer store's entry in `out`: its "> col" line and the indented detail lines under it.
fn store_block(out: &str) -> String {
    let block: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.contains("consumer store"))
        .take_while(|l| l.starts_with("         ") || l.contains("consumer store"))
        .collect();
    block.join("\n")
}
