//! The Best Practices Guide's optimization-report examples, compiled from source
//! (tests/corpus/analysis, with the declarations the guide elides) and analysed: predicted II,
//! reasons and critical paths against the guide's reports (issue 5's table).

use fpgacl_kernel_compiler::analysis::{
    self, render, BoardParams, IiReason, KernelReport, LoopReport, Report, UnrollStatus,
};
use fpgacl_kernel_compiler::ir::{AddrSpace, SiteKind};
use fpgacl_kernel_compiler::{build, SourceFile, SourceMap};
use std::path::Path;

fn corpus(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus/analysis")
        .join(file);
    std::fs::read_to_string(&path).expect("corpus file")
}

fn compile_text(file: &str, text: String) -> (Report, SourceMap) {
    let out = build(
        &[SourceFile {
            name: file.to_string(),
            text,
        }],
        "",
    )
    .expect("build runs");
    let m = out
        .module
        .unwrap_or_else(|| panic!("{file} does not compile:\n{}", out.log));
    let r = analysis::analyze(&m, &BoardParams::default());
    (r, m.sources.clone())
}

fn compile(file: &str) -> (Report, SourceMap) {
    compile_text(file, corpus(file))
}

fn kernel<'a>(r: &'a Report, name: &str) -> &'a KernelReport {
    r.kernel(name).unwrap_or_else(|| panic!("no kernel {name}"))
}

fn at_line(k: &KernelReport, line: u32) -> &LoopReport {
    k.loop_at_line(line)
        .unwrap_or_else(|| panic!("no loop at line {line}: {:#?}", k.loops))
}

fn data_dep(l: &LoopReport) -> &str {
    l.reasons
        .iter()
        .find_map(|r| match r {
            IiReason::DataDependency { variable, .. } => Some(variable.as_str()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no data dependency: {l:#?}"))
}

#[test]
fn unoptimized_float_multiply_ii_6() {
    let (r, src) = compile("unoptimized.cl");
    let k = kernel(&r, "unoptimized");
    let l = at_line(k, 8);
    assert_eq!(l.ii, 6);
    assert_eq!(data_dep(l), "mul");
    assert_eq!(l.critical_path.len(), 1);
    assert_eq!(l.critical_path[0].name, "Fmul Operation");
    assert_eq!(l.critical_path[0].percent, 100);
    assert_eq!(l.critical_path[0].locs[0].line, 9);
    let text = render::render(&src, &r);
    assert!(text.contains("Pipelined with successive iterations launched every 6 cycles due to:"));
    assert!(text.contains("Data dependency on variable mul (file unoptimized.cl line 9)"));
    assert!(text.contains("100%: Fmul Operation (file unoptimized.cl line 9)"));
}

#[test]
fn optimized_shift_register_copies_ii_1() {
    let (r, src) = compile("optimized2.cl");
    let k = kernel(&r, "optimized");
    assert_eq!(at_line(k, 13).unroll, UnrollStatus::FullAuto);
    let l = at_line(k, 16);
    assert_eq!((l.ii, l.name.as_str()), (1, "Block1"));
    assert!(l.reasons.is_empty());
    assert_eq!(at_line(k, 22).unroll, UnrollStatus::FullPragma);
    assert_eq!(at_line(k, 31).unroll, UnrollStatus::FullPragma);
    let text = render::render(&src, &r);
    assert!(text.contains("Loop was automatically and fully unrolled."));
    // The II follows the dependence distance: 4 copies cannot hide the 6-cycle multiply.
    let four = corpus("optimized2.cl").replace("#define M 8", "#define M 4");
    let (r4, _) = compile_text("optimized2.cl", four);
    let l4 = at_line(kernel(&r4, "optimized"), 16);
    assert_eq!(l4.ii, 2, "6 cycles over a distance of 4");
    let six = corpus("optimized2.cl").replace("#define M 8", "#define M 6");
    let (r6, _) = compile_text("optimized2.cl", six);
    assert_eq!(at_line(kernel(&r6, "optimized"), 16).ii, 1);
}

#[test]
fn nested_sum_unoptimized_serialises_across_inner_loop() {
    let (r, src) = compile("k.cl");
    let k = kernel(&r, "unoptimized");
    let outer = at_line(k, 9);
    assert_eq!(outer.ii, 2);
    assert_eq!(outer.reasons, vec![IiReason::PipelineStructure]);
    assert_eq!(outer.serialized.len(), 1);
    let s = &outer.serialized[0];
    assert_eq!(
        (s.subloop_name.as_str(), s.subloop_loc.line),
        ("Block2", 10)
    );
    match &s.cause {
        IiReason::DataDependency { variable, .. } => assert_eq!(variable, "sum"),
        c => panic!("{c:?}"),
    }
    let inner = at_line(k, 10);
    assert_eq!(inner.ii, 1);
    assert!(inner.reasons.is_empty() && inner.serialized.is_empty());
    let text = render::render(&src, &r);
    assert!(text.contains("Iterations executed serially across the region listed below."));
    assert!(text.contains("Loop \"Block2\" (file k.cl line 10)"));
}

#[test]
fn nested_sum_optimized_has_no_serialisation() {
    let (r, _) = compile("optimized.cl");
    let k = kernel(&r, "optimized");
    let outer = at_line(k, 9);
    assert_eq!(outer.ii, 2);
    assert_eq!(outer.reasons, vec![IiReason::PipelineStructure]);
    assert!(outer.serialized.is_empty(), "{outer:#?}");
    assert_eq!(at_line(k, 14).ii, 1);
}

#[test]
fn unoptimized3_num_bytes_ii_7() {
    let (r, _) = compile("unoptimized3.cl");
    let k = kernel(&r, "unoptimized");
    let l = at_line(k, 12);
    assert_eq!(l.ii, 7);
    assert_eq!(data_dep(l), "num_bytes");
    // The compares dominate the critical path, then the non-blocking reads.
    let names: Vec<&str> = l.critical_path.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(&names[..4], ["Integer Compare Operation"; 4]);
    assert_eq!(
        l.critical_path
            .iter()
            .filter(|c| c.locs[0].line == 16)
            .count(),
        3
    );
    assert_eq!(
        l.critical_path
            .iter()
            .filter(|c| c.name == "Non-Blocking Channel Read Operation")
            .count(),
        3
    );
    assert!(l.critical_path[0].percent > l.critical_path[5].percent);
    assert_eq!(at_line(k, 15).unroll, UnrollStatus::FullPragma);
}

#[test]
fn optimized3_num_bytes_ii_1() {
    let (r, _) = compile("optimized3.cl");
    let k = kernel(&r, "optimized");
    let l = at_line(k, 13);
    assert_eq!(l.ii, 1);
    assert!(l.reasons.is_empty());
    assert!(
        l.fmax_limited,
        "the integer recurrence is packed into one cycle"
    );
    // Three unrolled non-blocking reads of the channel array.
    let reads = k.sites_at_line(20);
    assert_eq!(reads.len(), 1);
    assert_eq!(reads[0].copies, 3);
}

#[test]
fn unoptimized4_global_memory_dependency_ii_324() {
    let (r, src) = compile("unoptimized4.cl");
    let l = at_line(kernel(&r, "unoptimized"), 5);
    assert_eq!(l.ii, 324);
    match &l.reasons[..] {
        [IiReason::MemoryDependency {
            space,
            load,
            store,
            object,
        }] => {
            assert_eq!(*space, AddrSpace::Global);
            assert_eq!((load.line, store.line), (6, 6));
            assert_eq!(object, "A");
        }
        r => panic!("{r:?}"),
    }
    let cp: Vec<(&str, u32)> = l
        .critical_path
        .iter()
        .map(|c| (c.name.as_str(), c.percent))
        .collect();
    assert_eq!(&cp[..2], [("Load Operation", 49), ("Store Operation", 49)]);
    let text = render::render(&src, &r);
    assert!(
        text.contains("Memory dependency on Load Operation from: (file unoptimized4.cl line 6)")
    );
}

#[test]
fn optimized4_private_copy_ii_1_2_1() {
    let (r, _) = compile("optimized4.cl");
    let k = kernel(&r, "optimized");
    let iis: Vec<u32> = [7, 10, 13].iter().map(|&l| at_line(k, l).ii).collect();
    assert_eq!(iis, [1, 2, 1]);
    let l = at_line(k, 10);
    match &l.reasons[..] {
        [IiReason::MemoryDependency {
            space,
            load,
            store,
            object,
        }] => {
            assert_ne!(*space, AddrSpace::Global, "on-chip memory");
            assert_eq!((load.line, store.line), (11, 11));
            assert_eq!(object, "B");
        }
        r => panic!("{r:?}"),
    }
    let cp: Vec<(&str, u32)> = l
        .critical_path
        .iter()
        .map(|c| (c.name.as_str(), c.percent))
        .collect();
    assert_eq!(cp, [("Load Operation", 65), ("Store Operation", 34)]);
}

#[test]
fn double_add_1_ii_11() {
    let (r, _) = compile("unoptimized5.cl");
    let l = at_line(kernel(&r, "double_add_1"), 7);
    assert_eq!(l.ii, 11);
    assert_eq!(data_dep(l), "temp_sum");
    assert_eq!(l.critical_path[0].name, "Fadd Operation");
    assert_eq!(l.critical_path[0].locs[0].line, 9);
}

#[test]
fn double_add_2_shift_register_ii_1() {
    let (r, _) = compile("optimized5.cl");
    let k = kernel(&r, "double_add_2");
    assert_eq!(at_line(k, 12).unroll, UnrollStatus::FullAuto);
    let l = at_line(k, 18);
    assert_eq!((l.ii, l.name.as_str()), (1, "Block1"));
    assert_eq!(at_line(k, 26).unroll, UnrollStatus::FullPragma);
    assert_eq!(at_line(k, 36).unroll, UnrollStatus::FullPragma);
    // The shift register stays in registers (no private RAM).
    assert!(k.local_memories.is_empty(), "{:#?}", k.local_memories);
    // A shift register shorter than the adder latency does not hide it: 11 cycles over 8.
    let short = corpus("optimized5.cl").replace("#define II_CYCLES 12", "#define II_CYCLES 8");
    let (r8, _) = compile_text("optimized5.cl", short);
    assert_eq!(at_line(kernel(&r8, "double_add_2"), 18).ii, 2);
}

#[test]
fn choose_integer_division_ii_13() {
    let (r, _) = compile("choose.cl");
    let l = at_line(kernel(&r, "choose"), 10);
    assert_eq!(l.ii, 13);
    assert_eq!(data_dep(l), "product");
    assert_eq!(l.critical_path[0].name, "Integer Division Operation");
    assert_eq!(l.critical_path[0].locs[0].line, 13);
}

#[test]
fn report_serialises_round_trip() {
    let (r, _) = compile("k.cl");
    let cfg = bincode::config::standard();
    let bytes = bincode::serde::encode_to_vec(&r, cfg).expect("encode");
    let (back, _): (Report, usize) =
        bincode::serde::decode_from_slice(&bytes, cfg).expect("decode");
    assert_eq!(back, r);
}

fn lsu_at(r: &Report, kernel_name: &str, line: u32, kind: SiteKind) -> String {
    let k = kernel(r, kernel_name);
    let s = k
        .sites
        .iter()
        .find(|s| s.loc.line == line && s.kind == kind)
        .unwrap_or_else(|| panic!("no {kind:?} at {kernel_name}:{line}: {:#?}", k.sites));
    let mut v = vec![s.lsu.map(|t| t.name()).unwrap_or("FIFO").to_string()];
    v.extend(s.modifiers.iter().map(|m| m.name().to_string()));
    v.join(" ")
}

/// The "Load-Store Units" section: each example's commented access gets the type it names.
#[test]
fn lsu_examples_of_the_guide() {
    use SiteKind::*;
    // The same file the compile-everything corpus uses (its line 1 names the source).
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/ok/guide_lsu_types.cl");
    let text = std::fs::read_to_string(path).expect("corpus file");
    let (r, _) = compile_text("guide_lsu_types.cl", text);
    let cases: &[(&str, u32, SiteKind, &str)] = &[
        ("burst_coalesced", 4, Load, "Burst-coalesced"),
        ("prefetching", 11, Load, "Prefetching"),
        ("streaming", 19, Load, "Streaming"),
        ("streaming", 21, Store, "Streaming"),
        ("semi_streaming", 28, Load, "Semi-streaming"),
        ("local_pipelined", 41, Store, "Local-pipelined"),
        ("local_pipelined", 47, Load, "Local-pipelined"),
        ("global_infrequent", 55, Load, "Pipelined global-infrequent"),
        ("constant_pipelined", 63, Load, "Constant-pipelined"),
        ("atomic_pipelined", 67, Atomic, "Atomic-pipelined"),
        ("cached", 73, Load, "Burst-coalesced cached"),
        ("write_ack", 80, Store, "Burst-coalesced write-ack"),
        ("non_aligned", 88, Load, "Burst-coalesced non-aligned"),
        ("non_aligned", 92, Store, "Burst-coalesced non-aligned"),
        ("never_stall", 102, Store, "Local-pipelined never-stall"),
    ];
    for &(k, line, kind, want) in cases {
        assert_eq!(lsu_at(&r, k, line, kind), want, "{k} line {line}");
    }
    // The three loads of non_aligned form one 12-byte access.
    let na = kernel(&r, "non_aligned");
    let first = na.sites.iter().find(|s| s.loc.line == 88).expect("site");
    assert_eq!(first.coalesced_width, Some(12));
    assert_eq!(first.coalesced_with.len(), 2);
    // Four unrolled stores to lmem need four write ports: arbitrated, no never-stall.
    let lp = kernel(&r, "local_pipelined");
    assert_eq!(lp.local_memories.len(), 1);
    assert!(!lp.local_memories[0].stall_free);
    assert_eq!(
        lp.sites.iter().find(|s| s.loc.line == 41).map(|s| s.copies),
        Some(4)
    );
}

/// The local memory chapter's configurations.
#[test]
fn local_memory_banks_replicates_and_copies() {
    let (r, _) = compile("localmem.cl");
    // lmem[1024][4] with unrolled accesses to column i: 4 banks, stall-free, 2 private copies:
    // 32768 bytes = 2 x (1024 x 4) x 4.
    let m = &kernel(&r, "bank_arb_consecutive_multidim").local_memories[0];
    assert_eq!(
        (m.banks, m.replicates, m.pump, m.private_copies),
        (4, 1, 1, 2)
    );
    assert!(m.stall_free);
    assert_eq!(m.implemented_bytes, 32768);
    // Three stores and three loads: double pumped, 3 replicates: 6144 bytes.
    let m = &kernel(&r, "double_pumped").local_memories[0];
    assert_eq!(
        (m.banks, m.replicates, m.pump, m.private_copies),
        (1, 3, 2, 1)
    );
    assert_eq!((m.write_ports, m.read_ports), (3, 3));
    assert_eq!(m.implemented_bytes, 6144);
    // One write and eight reads: double pumped and replicated three times (nine read ports).
    let m = &kernel(&r, "eight_reads").local_memories[0];
    assert_eq!((m.replicates, m.pump), (3, 2));
    assert!(m.stall_free);
}

/// Other examples of the guide's loop chapter.
#[test]
fn loop_chapter_examples() {
    let (r, src) = compile("misc.cl");
    // c[i] = c[i-1] + b[i]: the store feeds the next iteration's load at distance 1, which the
    // compiler forwards through a register: II 1 (the guide's simple_loop).
    assert_eq!(at_line(kernel(&r, "simple_loop"), 2).ii, 1);
    // mirror_content: a global memory dependency like unoptimized4.
    let mc = at_line(kernel(&r, "mirror_content"), 11);
    assert!(matches!(
        mc.reasons[..],
        [IiReason::MemoryDependency { .. }]
    ));
    assert_eq!(mc.ii, 324);
    // nd: 9 unrolled copies of an integer recurrence stay at II 1, trading fmax.
    let nd = at_line(kernel(&r, "nd"), 19);
    assert_eq!((nd.ii, nd.unroll), (1, UnrollStatus::Partial(9)));
    assert!(nd.fmax_limited);
    // The loop report example: unroll statuses per loop.
    let t = kernel(&r, "t");
    assert_eq!(at_line(t, 31).unroll, UnrollStatus::FullAuto);
    assert_eq!(at_line(t, 33).unroll, UnrollStatus::FullPragma);
    assert_eq!(at_line(t, 41).unroll, UnrollStatus::Disabled);
    assert_eq!(at_line(t, 45).unroll, UnrollStatus::FullPragma);
    assert_eq!(at_line(t, 49).unroll, UnrollStatus::Partial(2));
    assert!(at_line(t, 41).ndrange && !at_line(t, 41).pipelined);
    assert_eq!(t.kind, analysis::KernelKind::NdRange);
    assert_eq!(t.reqd_work_group_size, Some([1024, 1, 1]));
    // #pragma unroll on a loop with unknown bounds: warning, loop kept (float add: II 5).
    let ub = kernel(&r, "unknown_bounds");
    assert_eq!(
        at_line(ub, 58).unroll,
        UnrollStatus::FullRequestedUnknownBounds
    );
    assert_eq!(at_line(ub, 58).ii, 5);
    assert!(ub
        .warnings
        .iter()
        .any(|w| w.contains("full unrolling requested but bounds unknown")));
    assert!(render::render(&src, &r).contains("full unrolling requested but bounds unknown"));
    // A histogram in global memory: data-dependent addresses, memory dependency; ivdep waives it.
    let h = at_line(kernel(&r, "hist"), 65);
    assert!(matches!(h.reasons[..], [IiReason::MemoryDependency { .. }]));
    assert!(h.ii > 300);
    assert_eq!(at_line(kernel(&r, "hist_ivdep"), 72).ii, 1);
    let hs = kernel(&r, "hist").sites_at_line(66);
    assert!(hs
        .iter()
        .any(|s| s.lsu == Some(analysis::LsuType::BurstCoalesced)
            && s.modifiers.contains(&analysis::LsuModifier::Cached)));
}
