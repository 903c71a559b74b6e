//! From one executed loop iteration to the loop report: the recurrence graph (carried cells,
//! memory accesses, memory dependencies), its cycles, II, reasons and critical path.

use super::engine::{AKind, Cell, Engine, Frame, FrameAccess, SrcKind, State};
use super::graph::{self, Cycle, Edge};
use super::latency::{self, OpClass};
use super::value::*;
use super::*;
use crate::ir::{AddrSpace, ArgKind, LoopId};
use std::collections::BTreeMap;

/// How a store relates to a load of the same object across iterations.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Rel {
    /// Never the same bytes in a later iteration.
    Independent,
    /// The load of iteration i + k reads what the store wrote in iteration i (k >= 1).
    Forward(u32),
    /// May alias at an unknown distance.
    Dep,
}

/// Whether two accesses may touch the same object.
pub(crate) fn may_alias_objects(
    e: &Engine,
    a: &AccessInstView,
    b: &AccessInstView,
) -> Option<bool> {
    let class = |s: AddrSpace| match s {
        AddrSpace::Global | AddrSpace::Constant => 0,
        AddrSpace::Local => 1,
        AddrSpace::Private => 2,
    };
    if class(a.space) != class(b.space) {
        return None;
    }
    if a.space == AddrSpace::Constant || b.space == AddrSpace::Constant {
        return None;
    }
    match (a.base, b.base) {
        (Some(x), Some(y)) if x == y => Some(true),
        (Some(Base::Arg(i)), Some(Base::Arg(j))) => {
            let restrict = |k: u32| e.f.args.get(k as usize).is_some_and(|a| a.is_restrict);
            let local = |k: u32| {
                e.f.args
                    .get(k as usize)
                    .is_some_and(|a| matches!(a.kind, ArgKind::LocalPtr { .. }))
            };
            if restrict(i) || restrict(j) || local(i) || local(j) {
                None
            } else {
                Some(false)
            }
        }
        (Some(_), Some(_)) => None,
        _ => Some(false),
    }
}

/// The parts of an access the alias analysis looks at.
pub(crate) struct AccessInstView {
    pub space: AddrSpace,
    pub base: Option<Base>,
}

fn relation(l: LoopId, x: &FrameAccess, y: &FrameAccess, same: bool) -> Rel {
    let (Some(ax), Some(ay)) = (&x.inst.aff, &y.inst.aff) else {
        return Rel::Dep;
    };
    if !same {
        return Rel::Dep;
    }
    let iv = Sym::Iv(l.0);
    let sx = ax.coef(iv);
    let sy = ay.coef(iv);
    let d = ay.without(iv).sub(&ax.without(iv));
    if !d.terms.is_empty() || sx != sy {
        return Rel::Dep;
    }
    let delta = d.c;
    let (wx, wy) = (x.inst.width as i64, y.inst.width as i64);
    if sx == 0 {
        return if delta < wx && -delta < wy {
            Rel::Forward(1)
        } else {
            Rel::Independent
        };
    }
    if delta % sx == 0 {
        let k = delta / sx;
        return if k >= 1 {
            Rel::Forward(k.min(u32::MAX as i64) as u32)
        } else {
            Rel::Independent
        };
    }
    let s = sx.abs();
    let r = delta.rem_euclid(s);
    if wx <= s && wy <= s && r >= wx && s - r >= wy {
        Rel::Independent
    } else {
        Rel::Dep
    }
}

/// A memory dependency found in a loop.
#[derive(Clone, Debug)]
pub struct MemDep {
    pub load: usize,
    pub store: usize,
}

/// Name of the object an access touches.
pub fn object_name(e: &Engine, base: Option<Base>) -> String {
    match base {
        Some(Base::Arg(i)) => {
            e.f.args
                .get(i as usize)
                .map(|a| a.name.clone())
                .unwrap_or_default()
        }
        Some(Base::Frame(o)) | Some(Base::Local(o)) => {
            e.f.mem_vars
                .iter()
                .find(|v| v.offset == o)
                .map(|v| v.name.clone())
                .unwrap_or_else(|| format!("<offset {o}>"))
        }
        Some(Base::Const) => "constant data".into(),
        None => "<unknown>".into(),
    }
}

/// Name of a carried cell, when it is a named variable.
pub fn cell_name(e: &Engine, c: Cell) -> Option<String> {
    match c {
        Cell::Slot(s) => {
            e.f.reg_names
                .iter()
                .find(|(r, ty, _)| s >= r.0 && s < r.0 + ty.lanes.max(1) as u32)
                .map(|(_, _, n)| n.clone())
        }
        Cell::Frame(o) => {
            e.f.mem_vars
                .iter()
                .find(|v| o >= v.offset && o < v.offset + v.size.max(1))
                .map(|v| {
                    if v.dims.is_empty() || v.elem_size == 0 {
                        v.name.clone()
                    } else {
                        format!("{}[{}]", v.name, (o - v.offset) / v.elem_size)
                    }
                })
        }
    }
}

/// Builds the recurrence graph of a frame. Returns the node count, the edges and the memory
/// dependencies (indexed by `Edge::mem`).
pub fn frame_graph(
    e: &Engine,
    frame: &Frame,
    carried: &BTreeMap<Cell, u32>,
    latch: Option<&State>,
) -> (usize, Vec<Edge>) {
    let (n, edges, _) = frame_graph_full(e, frame, carried, latch);
    (n, edges)
}

type GraphParts = (usize, Vec<Edge>, Vec<MemDep>);

fn frame_graph_full(
    e: &Engine,
    frame: &Frame,
    carried: &BTreeMap<Cell, u32>,
    latch: Option<&State>,
) -> GraphParts {
    let idx: BTreeMap<u32, usize> = frame
        .srcs
        .keys()
        .enumerate()
        .map(|(i, s)| (*s, i))
        .collect();
    let n = idx.len();
    let mut edges = Vec::new();
    let mk = |from: usize, to: usize, d: &Dep, dist: u32| Edge {
        from,
        to,
        lat: d.lat,
        dist,
        ops: Vec::new(),
        path: d.path.clone(),
        serial: d.path.as_ref().is_some_and(|p| p.crosses_subloop),
        mem: None,
    };
    if let Some(latch) = latch {
        for (c, src) in carried {
            let Some(&to) = idx.get(src) else { continue };
            let Some(v) = latch_val(latch, *c) else {
                continue;
            };
            for d in &v.deps {
                if let Some(&from) = idx.get(&d.src) {
                    edges.push(mk(from, to, d, 1));
                }
            }
        }
    }
    let acc = &frame.accesses;
    for a in acc.iter().filter(|a| a.in_subloop.is_none()) {
        let Some(&to) = idx.get(&a.issue) else {
            continue;
        };
        for d in &a.deps {
            if let Some(&from) = idx.get(&d.src) {
                edges.push(mk(from, to, d, 0));
            }
        }
    }
    // Memory dependencies.
    let mut memdeps = Vec::new();
    let mut forwarded: BTreeMap<usize, bool> = BTreeMap::new();
    if let Some(l) = frame.loop_id {
        let ls = &e.loops[&l];
        let ivdep = ls.info.pragmas.ivdep.clone();
        for (yi, y) in acc.iter().enumerate() {
            if y.inst.kind != AKind::Store || y.in_subloop.is_some() {
                continue;
            }
            for (xi, x) in acc.iter().enumerate() {
                if x.inst.kind != AKind::Load || x.in_subloop.is_some() {
                    continue;
                }
                let vx = AccessInstView {
                    space: x.inst.space,
                    base: x.inst.base,
                };
                let vy = AccessInstView {
                    space: y.inst.space,
                    base: y.inst.base,
                };
                let Some(same) = may_alias_objects(e, &vx, &vy) else {
                    continue;
                };
                if let Some(iv) = &ivdep {
                    let waived = match &iv.array {
                        None => true,
                        Some(name) => *name == object_name(e, x.inst.base),
                    };
                    if waived && iv.safelen.is_none() {
                        continue;
                    }
                }
                let rel = relation(l, x, y, same);
                let (Some(&xi_issue), Some(&yi_issue)) = (idx.get(&x.issue), idx.get(&y.issue))
                else {
                    continue;
                };
                match rel {
                    Rel::Independent => {}
                    Rel::Forward(k) => {
                        forwarded.entry(xi).or_insert(true);
                        if let Some(&xd) = x.data.as_ref().and_then(|d| idx.get(d)) {
                            for d in &y.value_deps {
                                if let Some(&from) = idx.get(&d.src) {
                                    edges.push(mk(from, xd, d, k));
                                }
                            }
                        }
                    }
                    Rel::Dep => {
                        forwarded.insert(xi, false);
                        let dist = ivdep.as_ref().and_then(|i| i.safelen).unwrap_or(1).max(1);
                        let st = latency::store(y.inst.space, e.board);
                        let ho = latency::mem_dep_handoff(y.inst.space);
                        let mut ops = vec![OpRec {
                            class: OpClass::Store,
                            lat: st,
                            loc: y.inst.loc,
                            subloop: None,
                        }];
                        if ho > 0.0 {
                            ops.push(OpRec {
                                class: OpClass::MemOrder,
                                lat: ho,
                                loc: y.inst.loc,
                                subloop: None,
                            });
                        }
                        memdeps.push(MemDep {
                            load: xi,
                            store: yi,
                        });
                        edges.push(Edge {
                            from: yi_issue,
                            to: xi_issue,
                            lat: st + ho,
                            dist,
                            ops,
                            path: None,
                            serial: false,
                            mem: Some(memdeps.len() - 1),
                        });
                    }
                }
            }
        }
    }
    for (xi, x) in acc.iter().enumerate() {
        if x.in_subloop.is_some() || x.inst.kind != AKind::Load {
            continue;
        }
        if forwarded.get(&xi).copied().unwrap_or(false) {
            continue;
        }
        let (Some(&from), Some(&to)) =
            (idx.get(&x.issue), x.data.as_ref().and_then(|d| idx.get(d)))
        else {
            continue;
        };
        let lat = latency::load(x.inst.space, x.onchip, e.board);
        edges.push(Edge {
            from,
            to,
            lat,
            dist: 0,
            ops: vec![OpRec {
                class: OpClass::Load,
                lat,
                loc: x.inst.loc,
                subloop: None,
            }],
            path: None,
            serial: false,
            mem: None,
        });
    }
    (n, graph::dedup(edges), memdeps)
}

fn latch_val(s: &State, c: Cell) -> Option<&Val> {
    match c {
        Cell::Slot(x) => s.slots.get(&x),
        Cell::Frame(o) => s.frame.get(&o).map(|(_, v)| v),
    }
}

fn contributors(c: &Cycle, edges: &[Edge]) -> Vec<Contributor> {
    let total = c.lat.max(1e-9);
    let mut ops: Vec<OpRec> = c
        .ops(edges)
        .into_iter()
        .filter(|o| o.lat > 0.0 && o.class != OpClass::SubLoop)
        .collect();
    ops.sort_by(|a, b| {
        b.lat
            .partial_cmp(&a.lat)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    ops.into_iter()
        .filter(|o| o.lat / total >= 0.01)
        .take(10)
        .map(|o| Contributor {
            op: o.class,
            name: o.class.report_name().to_string(),
            locs: vec![o.loc],
            latency: o.lat,
            percent: ((o.lat / total) * 100.0 + 1e-9).floor() as u32,
        })
        .collect()
}

/// The node -> source kind table of a frame.
fn node_kinds(frame: &Frame) -> Vec<SrcKind> {
    frame.srcs.values().cloned().collect()
}

fn cycle_reason(
    e: &Engine,
    frame: &Frame,
    c: &Cycle,
    edges: &[Edge],
    memdeps: &[MemDep],
) -> IiReason {
    for &ei in &c.edges {
        if let Some(m) = edges[ei].mem {
            let md = &memdeps[m];
            let x = &frame.accesses[md.load];
            let y = &frame.accesses[md.store];
            return IiReason::MemoryDependency {
                space: x.inst.space,
                object: object_name(e, x.inst.base),
                load: x.inst.loc,
                store: y.inst.loc,
            };
        }
    }
    let kinds = node_kinds(frame);
    let mut fallback = None;
    for &ei in &c.edges {
        let to = edges[ei].to;
        if let Some(SrcKind::Cell(cell)) = kinds.get(to) {
            let loc = edges[ei]
                .ops_newest_first()
                .find(|o| o.class != OpClass::SubLoop)
                .map(|o| o.loc)
                .unwrap_or_default();
            match cell_name(e, *cell) {
                Some(name) => {
                    return IiReason::DataDependency {
                        variable: name,
                        loc,
                    }
                }
                None => {
                    fallback.get_or_insert(IiReason::DataDependency {
                        variable: match cell {
                            Cell::Slot(s) => format!("%{s}"),
                            Cell::Frame(o) => format!("private[{o}]"),
                        },
                        loc,
                    });
                }
            }
        }
    }
    if let Some(f) = fallback {
        return f;
    }
    // No variable on the cycle: name the memory access it goes through (a value loaded and
    // fed back into the address or the predicate of a later load).
    for &ei in &c.edges {
        let to = edges[ei].to;
        if let Some(SrcKind::Issue(i) | SrcKind::Data(i)) = kinds.get(to) {
            if let Some(a) = frame.accesses.get(*i) {
                return IiReason::DataDependency {
                    variable: format!("data loaded from {}", object_name(e, a.inst.base)),
                    loc: a.inst.loc,
                };
            }
        }
    }
    let loc = c
        .edges
        .iter()
        .flat_map(|&ei| edges[ei].ops_newest_first())
        .find(|o| o.class != OpClass::SubLoop && o.loc.line > 0)
        .map(|o| o.loc)
        .unwrap_or_else(|| {
            e.loops
                .get(&l_of(frame))
                .map(|s| s.info.loc)
                .unwrap_or_default()
        });
    IiReason::DataDependency {
        variable: "<value>".into(),
        loc,
    }
}

/// The loop a frame analyses (the kernel body: an id no loop has).
fn l_of(frame: &Frame) -> LoopId {
    frame.loop_id.unwrap_or(LoopId(u32::MAX))
}

/// Turns a pipelined loop's real pass into its report.
pub fn finish_loop(
    e: &Engine,
    l: LoopId,
    frame: &Frame,
    carried: &BTreeMap<Cell, u32>,
    latch: Option<&State>,
) -> LoopReport {
    let ls = &e.loops[&l];
    let (n, edges, memdeps) = frame_graph_full(e, frame, carried, latch);
    let (cycles, complete) = graph::cycles(n, &edges);
    let mut details = Vec::new();
    if !complete {
        details.push("recurrence graph too large: II is a lower bound".into());
    }
    let mut best: Option<(u32, f64, usize)> = None;
    for (i, c) in cycles.iter().enumerate() {
        if c.serial {
            continue;
        }
        let ii = c.ii();
        let better = match best {
            None => true,
            Some((bi, br, _)) => ii > bi || (ii == bi && c.ratio() > br + 1e-12),
        };
        if better {
            best = Some((ii, c.ratio(), i));
        }
    }
    let fmax_limited = cycles
        .iter()
        .any(|c| !c.serial && c.retimeable && c.ratio() > 1.0 && c.ii() == 1);
    let mut ii = best.map(|b| b.0).unwrap_or(1);
    let mut reasons = Vec::new();
    let mut critical_path = Vec::new();
    if let Some((bii, _, ci)) = best {
        if bii > 1 {
            reasons.push(cycle_reason(e, frame, &cycles[ci], &edges, &memdeps));
            critical_path = contributors(&cycles[ci], &edges);
        }
    }
    // Subloops seen through fully unrolled children (a trip-1 loop around a loop).
    let has_subloop = !e.pipelined_subloops(l).is_empty();
    if has_subloop {
        if ii < 2 {
            ii = 2;
        }
        reasons.insert(0, IiReason::PipelineStructure);
    }
    if let Some(p) = ls.info.pragmas.ii {
        if p > ii {
            ii = p;
            reasons.push(IiReason::Pragma(p));
        } else if p < ii {
            details.push(format!("#pragma ii {p} cannot be achieved: II is {ii}"));
        }
    }
    // Serial regions: cycles through subloops, and memory dependencies with a subloop.
    let mut serialized: Vec<SerialRegion> = Vec::new();
    let add_serial = |sub: LoopId, cause: IiReason, serialized: &mut Vec<SerialRegion>| {
        if serialized.iter().any(|s| s.subloop == sub) {
            return;
        }
        let Some(sl) = e.loops.get(&sub) else { return };
        serialized.push(SerialRegion {
            subloop: sub,
            subloop_name: sl.name.clone(),
            subloop_loc: sl.info.loc,
            cause,
        });
    };
    for c in cycles.iter().filter(|c| c.serial) {
        let cause = cycle_reason(e, frame, c, &edges, &memdeps);
        for s in c.subloops(&edges) {
            // Report the child of this loop that contains the crossed subloop.
            let child = e
                .loop_chain(Some(LoopId(s)))
                .into_iter()
                .find(|x| e.loops.get(x).and_then(|ls| ls.info.parent) == Some(l))
                .unwrap_or(LoopId(s));
            add_serial(child, cause.clone(), &mut serialized);
        }
    }
    let ivdep_all = ls
        .info
        .pragmas
        .ivdep
        .as_ref()
        .is_some_and(|i| i.array.is_none());
    if !ivdep_all {
        let acc = &frame.accesses;
        for y in acc.iter().filter(|a| a.inst.kind == AKind::Store) {
            for x in acc.iter().filter(|a| a.inst.kind == AKind::Load) {
                if x.in_subloop.is_none() && y.in_subloop.is_none() {
                    continue;
                }
                if x.in_subloop.is_some() && x.in_subloop == y.in_subloop {
                    continue;
                }
                let vx = AccessInstView {
                    space: x.inst.space,
                    base: x.inst.base,
                };
                let vy = AccessInstView {
                    space: y.inst.space,
                    base: y.inst.base,
                };
                let Some(same) = may_alias_objects(e, &vx, &vy) else {
                    continue;
                };
                if same {
                    if let (Some(ax), Some(ay)) = (&x.inst.aff, &y.inst.aff) {
                        // Provably disjoint constant ranges.
                        let d = ay.sub(ax);
                        if let Some(dc) = d.as_const() {
                            if dc >= x.inst.width as i64 || -dc >= y.inst.width as i64 {
                                continue;
                            }
                        }
                    }
                }
                let Some(sub) = x.in_subloop.or(y.in_subloop) else {
                    continue;
                };
                add_serial(
                    sub,
                    IiReason::MemoryDependency {
                        space: x.inst.space,
                        object: object_name(e, x.inst.base),
                        load: x.inst.loc,
                        store: y.inst.loc,
                    },
                    &mut serialized,
                );
            }
        }
    }
    let ndrange = e.kind() == KernelKind::NdRange;
    let pipelined = !ndrange && !ls.info.pragmas.disable_loop_pipelining;
    let depth = graph::depth(n, &edges) + 1.0;
    if ls.info.pragmas.disable_loop_pipelining {
        details.push("loop pipelining disabled: one iteration at a time".into());
        ii = ii.max(depth.ceil() as u32);
    }
    // `#pragma max_concurrency N`: at most N iterations in flight, each `depth` cycles deep,
    // so one can start every ceil(depth / N) cycles (N = 1: one at a time, like
    // `disable_loop_pipelining`). With pipelined subloops the depth does not cover the
    // subloops' time: not modelled there, and said so.
    if let Some(n) = ls
        .info
        .pragmas
        .max_concurrency
        .filter(|&n| n > 0 && pipelined)
    {
        if has_subloop {
            details.push(format!(
                "#pragma max_concurrency {n}: not modelled for a loop with pipelined subloops"
            ));
        } else {
            let limit = (depth / n as f64).ceil() as u32;
            if limit > ii {
                ii = limit;
                details.push(format!(
                    "#pragma max_concurrency {n}: at most {n} iteration(s) of {} cycles in flight",
                    depth.ceil() as u32
                ));
            }
        }
    }
    if ls.info.pragmas.loop_coalesce.is_some() {
        details.push(
            "#pragma loop_coalesce: not modelled (the nest keeps its loops and their II)".into(),
        );
    }
    if ls.unroll == UnrollStatus::FullRequestedUnknownBounds {
        details.push("full unrolling requested but bounds unknown".into());
    }
    LoopReport {
        id: l,
        parent: ls.info.parent,
        name: ls.name.clone(),
        loc: ls.info.loc,
        trip_count: ls.trip,
        unroll: ls.unroll,
        pipelined,
        ndrange,
        ii,
        reasons,
        serialized,
        critical_path,
        fmax_limited: fmax_limited && ii == 1,
        iteration_latency: depth,
        details,
    }
}

/// Assembles the kernel report after the execution.
pub fn kernel_report(e: &mut Engine) -> KernelReport {
    let f = e.f;
    let mut loops: Vec<LoopReport> = Vec::new();
    let mut ids: Vec<LoopId> = e.loops.keys().copied().collect();
    ids.sort_by_key(|l| {
        let i = &e.loops[l].info;
        (i.loc.file, i.loc.line, i.loc.col, l.0)
    });
    for l in ids {
        let ls = &e.loops[&l];
        if let Some(r) = e.results.get(&l) {
            loops.push(r.clone());
            continue;
        }
        let full = ls.unroll.is_full();
        loops.push(LoopReport {
            id: l,
            parent: ls.info.parent,
            name: ls.name.clone(),
            loc: ls.info.loc,
            trip_count: ls.trip,
            unroll: ls.unroll,
            pipelined: false,
            ndrange: e.kind() == KernelKind::NdRange,
            ii: if full { 0 } else { 1 },
            reasons: Vec::new(),
            serialized: Vec::new(),
            critical_path: Vec::new(),
            fmax_limited: false,
            iteration_latency: 0.0,
            details: if full {
                Vec::new()
            } else if e.too_deep.contains(&l) {
                vec![format!(
                    "not analysed: nested more than {} pipelined loops deep (II assumed 1)",
                    super::engine::MAX_ANALYSED_DEPTH
                )]
            } else {
                vec!["not reached by the analysis (unreachable code)".into()]
            },
        });
    }
    let pipeline_latency = e
        .kernel_graph
        .as_ref()
        .map(|(n, ed)| graph::depth(*n, ed))
        .unwrap_or(0.0);
    let (mut sites, local_memories) = {
        let sites = super::lsu::classify(e);
        let (lm, never_stall) = super::localmem::analyze(e);
        (sites, (lm, never_stall))
    };
    let (local_memories, site_mem) = local_memories;
    for s in sites.iter_mut() {
        if let Some(&(mi, stall_free)) = site_mem.get(&s.id) {
            s.local_memory = Some(mi);
            if stall_free && s.lsu == Some(LsuType::LocalPipelined) {
                s.modifiers.push(LsuModifier::NeverStall);
            }
        }
    }
    let mut warnings = e.warnings.clone();
    if let Some(l) = e.too_deep.iter().next() {
        let loc = e.loops[l].info.loc;
        warnings.push(format!(
            "{}: the loop at line {} and {} other(s) are nested more than {} pipelined loops deep: not analysed",
            e.m.sources.name(loc.file),
            loc.line,
            e.too_deep.len() - 1,
            super::engine::MAX_ANALYSED_DEPTH
        ));
    }
    let a = &f.attrs;
    KernelReport {
        name: f.name.clone(),
        loc: f.loc,
        kind: e.kind(),
        autorun: a.autorun,
        reqd_work_group_size: a.reqd_work_group_size,
        max_work_group_size: a.max_work_group_size,
        compute_units: a.num_compute_units,
        simd: a.num_simd_work_items.unwrap_or(1),
        max_global_work_dim: a.max_global_work_dim,
        loops,
        sites,
        local_memories,
        pipeline_latency,
        warnings,
    }
}
