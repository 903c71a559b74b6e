//! Compute time: how many cycles the kernel pipeline needs to issue the work the executor
//! counted, before memory bandwidth and channel stalls are considered.
//!
//! Rules (`MODEL.md` "Compute cycles" gives the reasoning):
//! - **C1 loop iterations**: one pipelined iteration of loop `l` issues every `II(l)` cycles; a
//!   loop partially unrolled by `n` runs `n` source iterations per pipelined iteration, so each
//!   source iteration (header back-edge counted by the executor) costs `II / n`. Fully unrolled
//!   loops cost nothing (their copies are laid out in space).
//! - **C2 outer loops**: a loop with pipelined subloops issues its iterations into them; in an
//!   iteration that enters a subloop its own II only costs what the largest subloop does not
//!   already take: `max(0, II(outer) - max over subloops of trip x II(sub))`, a subloop of
//!   unknown trip count counting as at least `II(outer)`. This is the guide's dynamic II
//!   (`accum_swg`: the outer loop's iterations enter every `size` cycles, not every II). An
//!   iteration that enters no subloop costs the full II (the floor; e.g. a polling loop that
//!   feeds its inner loop only when a non-blocking read succeeded).
//! - **C3 serialised subloops**: when the analysis says outer iterations execute serially
//!   across a subloop, each entry into that subloop also pays its pipeline depth
//!   (`iteration_latency`): the next outer iteration waits until the subloop drained.
//! - **C4 NDRange**: work-items issue one per cycle per compute unit and SIMD lane; every loop
//!   iteration of every work-item takes an issue slot of its loop (cost C1) shared by the lanes.
//!   A loop of an NDRange kernel is not pipelined across one work-item's iterations, but other
//!   work-items fill it (the guide: "these loops can accept multiple work-items
//!   simultaneously"): when its II comes from a recurrence private to a work-item (a variable,
//!   a private array), a (work-item, iteration) pair enters every `max(1, II / N)` cycles, `N`
//!   = the work-items in flight ([`in_flight`]: every work-item of the compute unit, at most
//!   two work-groups with barriers; [`ComputeModel::for_launch`]). `N >= II`: throughput-bound
//!   (one pair per cycle); `N < II` (small NDRange): latency-bound, each work-item's
//!   iterations `II` apart. A memory dependency through `__global` or `__local` memory
//!   (shared by work-items) and `#pragma ii` keep the full II.
//! - **C5 fill**: the kernel pays its pipeline latency (`pipeline_latency`, the code outside
//!   loops) once, plus one drain of each top-level loop (its `iteration_latency`: the last
//!   iteration's work flows through the loop body after it issued); an NDRange kernel pays the
//!   pipeline latency again for every barrier a work-group passes (the barrier drains the
//!   pipeline), spread over its compute units.

use super::clock::{ClockPlan, Flags, NO_LOOP, TICKS_PER_CYCLE};
use crate::counters::Counters;
use fpgacl_kernel_compiler::analysis::{IiReason, KernelKind, KernelReport, LoopReport};
use fpgacl_kernel_compiler::ir::{AddrSpace, Function, Inst, LoopId, LoopKind};

/// Per-loop cost in ticks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoopCost {
    /// Ticks per source iteration (rules C1, C2, C4).
    pub iteration: u64,
    /// Ticks per entry from outside (rule C3).
    pub entry: u64,
    /// The loop is a `do`-`while` loop: every header visit starts an iteration.
    pub do_while: bool,
    /// Ticks added per iteration that enters none of the loop's pipelined subloops (rule C2:
    /// `iteration` + `floor` = the full II); 0 for loops without C2 reduction.
    pub floor: u64,
    /// The parent loop, when this loop is one of its pipelined subloops with a `floor`.
    pub floor_parent: Option<u32>,
}

/// The compute cost model of one kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct ComputeModel {
    pub kind: KernelKind,
    /// Parallel issue lanes: compute units x SIMD width (NDRange), 1 (single work-item).
    pub lanes: u64,
    /// By `LoopId`.
    pub loops: Vec<LoopCost>,
    /// Ticks per work-item start (NDRange: one cycle shared by the lanes; single work-item: 0).
    pub item: u64,
    /// Pipeline latency outside loops, cycles (rule C5).
    pub pipeline_latency: u64,
    /// One drain of every top-level loop: the sum of their iteration latencies, cycles (C5).
    pub loop_drain: u64,
    /// Barrier instructions outside loops, and per loop (by `LoopId`) inside it.
    pub barriers_outside: u64,
    pub barriers_in_loop: Vec<u64>,
    /// Compute units (barrier drains of different work-groups overlap across them).
    pub compute_units: u64,
    /// By `LoopId`: ticks the clock adds per iteration for arbitrated local memory ports
    /// (rule L5: the static effective II of a loop without pipelined subloops, every access
    /// counted as firing). Only the clock of timed executions uses it; `evaluate` replaces it by
    /// the executed-count figure of rule L3.
    pub arbitration: Vec<u64>,
    /// NDRange kernels with barriers: (site, barrier region) of the memory sites outside
    /// loops (rule L2); empty otherwise.
    pub barrier_regions: Vec<(u32, u32)>,
    /// Work-items that interleave in an NDRange loop with a private recurrence (rule C4): the
    /// work-group size the model was built for; 1 for single work-item kernels.
    pub group_size: u64,
    /// Work-items in flight in an NDRange loop (rule C4, [`in_flight`]); 1 for single
    /// work-item kernels.
    pub in_flight: u64,
}

/// Work-groups a kernel with barriers keeps in flight per compute unit (rule C4). The guide
/// ("Local Memory"): the compiler replicates a local memory "when [it] recognizes that more
/// than two work groups are reading from local memory simultaneously": the baseline design
/// holds two work-groups at once, one filling the barrier while the other drains it.
pub const BARRIER_GROUPS_IN_FLIGHT: u64 = 2;

/// Rule C4's work-items in flight in an NDRange loop: a compute unit's share of the launch's
/// `items`, at most [`BARRIER_GROUPS_IN_FLIGHT`] work-groups of `group` when the kernel has
/// barriers.
pub fn in_flight(items: u64, group: u64, compute_units: u64, barriers: bool) -> u64 {
    let per_cu = items.div_ceil(compute_units.max(1)).max(1);
    if barriers {
        per_cu.min(BARRIER_GROUPS_IN_FLIGHT.saturating_mul(group.max(1)))
    } else {
        per_cu
    }
}

/// Iterations (body executions) of loop `l` from the executor's counters.
pub fn iterations(c: &Counters, l: usize, do_while: bool) -> u64 {
    let visits = c.loop_iterations.get(l).copied().unwrap_or(0);
    if do_while {
        visits
    } else {
        c.loop_back_edges(l)
    }
}

fn ticks(cycles: f64) -> u64 {
    if cycles.is_finite() && cycles > 0.0 {
        (cycles * TICKS_PER_CYCLE as f64).round() as u64
    } else {
        0
    }
}

/// The loop's II is set by a recurrence private to one work-item (rule C4): no memory
/// dependency through memory that work-items share, no `#pragma ii`.
fn private_recurrence(r: &LoopReport) -> bool {
    r.reasons.iter().all(|x| match x {
        IiReason::MemoryDependency { space, .. } => *space == AddrSpace::Private,
        IiReason::Pragma(_) => false,
        IiReason::DataDependency { .. } | IiReason::PipelineStructure => true,
    })
}

/// Cycles between successive (work-item, iteration) pairs entering loop `r` (rule C1, and
/// rule C4's interleaving: `max(1, II / group)` for an NDRange loop whose II comes from a
/// private recurrence, `group` work-items filling the recurrence's latency).
fn effective_ii(r: &LoopReport, group: u64) -> f64 {
    let ii = r.ii as f64;
    if r.ndrange && r.ii > 1 && group > 1 && private_recurrence(r) {
        (ii / group as f64).max(1.0)
    } else {
        ii
    }
}

/// Cycles one pipelined pass of loop `r` takes per entry when its trip count is known.
fn known_pass_cycles(r: &LoopReport, group: u64) -> Option<f64> {
    if r.unroll.is_full() || r.ii == 0 {
        return Some(0.0);
    }
    r.trip_count
        .map(|t| t as f64 * effective_ii(r, group) / r.unroll.factor().max(1) as f64)
}

/// One drain of every top-level loop of the kernel (rule C5): the sum of their iteration
/// latencies, whole cycles.
pub fn loop_drain(rep: &KernelReport) -> u64 {
    rep.loops
        .iter()
        .filter(|l| l.parent.is_none())
        .map(|l| l.iteration_latency.max(0.0))
        .sum::<f64>()
        .ceil() as u64
}

/// The pipeline latency of the code outside loops (rule C5), whole cycles.
fn pipeline_latency(rep: &KernelReport) -> u64 {
    rep.pipeline_latency.max(0.0).ceil() as u64
}

/// The fill a kernel run pays once (rule C5): its pipeline latency outside loops plus one
/// drain of every top-level loop.
pub fn fill_once(rep: &KernelReport) -> u64 {
    pipeline_latency(rep).saturating_add(loop_drain(rep))
}

impl ComputeModel {
    /// Builds the model of kernel `f` from its static report, for work-groups of the kernel's
    /// `reqd_work_group_size` (1 without it: no interleaving of work-items in loops, rule C4;
    /// use [`ComputeModel::for_group_size`] when the launch's work-group size is known).
    pub fn new(f: &Function, rep: &KernelReport) -> ComputeModel {
        Self::for_group_size(f, rep, 1)
    }

    /// Builds the model of kernel `f` for a launch with `group` work-items per work-group: the
    /// work-items that interleave in an NDRange loop whose II comes from a private recurrence
    /// (rule C4). A kernel with `reqd_work_group_size` always uses that size (launches must
    /// match it; autorun captures evaluate with a nominal group of 1). Single work-item kernels
    /// ignore `group`.
    pub fn for_group_size(f: &Function, rep: &KernelReport, group: u64) -> ComputeModel {
        Self::for_launch(f, rep, group, group)
    }

    /// Builds the model of kernel `f` for a launch of `items` work-items in work-groups of
    /// `group` (rule C4): the work-items in flight in an NDRange loop are every work-item a
    /// compute unit runs (`ceil(items / compute units)`), and for a kernel with barriers at
    /// most [`BARRIER_GROUPS_IN_FLIGHT`] work-groups of them (a barrier holds a work-group
    /// until all its work-items arrived). [`ComputeModel::for_group_size`] is the launch of a
    /// single work-group.
    pub fn for_launch(f: &Function, rep: &KernelReport, group: u64, items: u64) -> ComputeModel {
        let ndrange = rep.kind == KernelKind::NdRange;
        let reqd = rep
            .reqd_work_group_size
            .map(|s| s.iter().map(|&x| x.max(1) as u64).product::<u64>());
        let group = if ndrange {
            reqd.unwrap_or(group).max(1)
        } else {
            1
        };
        let cu = rep
            .compute_units
            .iter()
            .map(|&c| c.max(1) as u64)
            .product::<u64>();
        let in_flight = if ndrange {
            in_flight(items.max(group), group, cu, f.uses_barrier)
        } else {
            1
        };
        let lanes = if ndrange {
            cu * rep.simd.max(1) as u64
        } else {
            1
        };
        let nloops = f.loops.len();
        let mut loops = vec![LoopCost::default(); nloops];
        for (i, info) in f.loops.iter().enumerate() {
            let do_while = info.kind == LoopKind::DoWhile;
            let Some(r) = rep.loop_by_id(LoopId(i as u32)) else {
                loops[i] = LoopCost {
                    iteration: TICKS_PER_CYCLE / lanes,
                    do_while,
                    ..Default::default()
                };
                continue;
            };
            let full = if r.unroll.is_full() || r.ii == 0 {
                0.0
            } else {
                effective_ii(r, in_flight) / r.unroll.factor().max(1) as f64
            };
            let mut per_iter = full;
            // C2: subloops absorb the outer II.
            let subs: Vec<&LoopReport> = rep
                .loops
                .iter()
                .filter(|s| s.parent == Some(r.id) && !s.unroll.is_full() && s.ii > 0)
                .collect();
            if !subs.is_empty() && per_iter > 0.0 {
                let largest = subs
                    .iter()
                    .map(|s| known_pass_cycles(s, in_flight).unwrap_or(f64::INFINITY))
                    .fold(0.0, f64::max);
                per_iter = (per_iter - largest).max(0.0);
            }
            // C3: serialised across this loop.
            let serial = !ndrange
                && r.parent
                    .and_then(|p| rep.loop_by_id(p))
                    .is_some_and(|p| p.serialized.iter().any(|s| s.subloop == r.id));
            let entry = if serial && !r.unroll.is_full() {
                ticks(r.iteration_latency)
            } else {
                0
            };
            let iteration = ticks(per_iter) / lanes;
            loops[i] = LoopCost {
                iteration,
                entry,
                do_while,
                floor: (ticks(full) / lanes).saturating_sub(iteration),
                floor_parent: None,
            };
        }
        // C2's floor: entries into the pipelined subloops of a loop with a floor cancel it.
        for s in &rep.loops {
            let (Some(p), i) = (s.parent, s.id.0 as usize) else {
                continue;
            };
            let pi = p.0 as usize;
            if i < nloops && pi < nloops && loops[pi].floor > 0 && !s.unroll.is_full() && s.ii > 0 {
                loops[i].floor_parent = Some(p.0);
            }
        }
        let mut barriers_outside = 0;
        let mut barriers_in_loop = vec![0u64; nloops];
        for b in &f.blocks {
            let n = b
                .insts
                .iter()
                .filter(|i| matches!(i, Inst::Barrier { .. }))
                .count() as u64;
            match b.in_loop {
                Some(l) if (l.0 as usize) < nloops => barriers_in_loop[l.0 as usize] += n,
                _ => barriers_outside += n,
            }
        }
        let arbitration = super::local::static_extra(rep, &loops, cu);
        let barrier_regions = if ndrange && f.uses_barrier {
            super::local::barrier_regions(f)
        } else {
            Vec::new()
        };
        ComputeModel {
            kind: rep.kind,
            lanes,
            arbitration,
            barrier_regions,
            loops,
            item: if ndrange { TICKS_PER_CYCLE / lanes } else { 0 },
            pipeline_latency: pipeline_latency(rep),
            loop_drain: loop_drain(rep),
            barriers_outside,
            barriers_in_loop,
            compute_units: cu,
            group_size: group,
            in_flight,
        }
    }

    /// The clock plan the executor applies during a run starting at `start_cycle`. Without
    /// channel stalls the clock advances by exactly [`ComputeModel::issue_ticks`] plus
    /// [`ComputeModel::clock_arbitration_ticks`] (rule L5).
    pub fn clock_plan(&self, start_cycle: u64) -> ClockPlan {
        ClockPlan {
            start_tick: start_cycle.saturating_mul(TICKS_PER_CYCLE),
            loop_head: (0..self.loops.len()).map(|l| self.head_ticks(l)).collect(),
            loop_enter: self
                .loops
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    if l.do_while {
                        l.entry as i64
                    } else {
                        l.entry as i64 - self.head_ticks(i) as i64
                    }
                })
                .collect(),
            item: self.item,
            loop_floor: if self.loops.iter().any(|l| l.floor > 0) {
                self.loops.iter().map(|l| l.floor).collect()
            } else {
                Vec::new()
            },
            floor_parent: self
                .loops
                .iter()
                .map(|l| l.floor_parent.unwrap_or(NO_LOOP))
                .collect(),
            entered: Flags::new(self.loops.len()),
        }
    }

    /// Ticks the clock adds at a header visit of loop `l`: its issue cost (C1-C4) plus the
    /// static arbitration extra (L5).
    fn head_ticks(&self, l: usize) -> u64 {
        self.loops[l].iteration + self.arbitration.get(l).copied().unwrap_or(0)
    }

    /// Ticks the clock of a timed execution added for arbitration (rule L5) for the counted
    /// iterations; `evaluate` takes them out of the clock's advance and adds rule L3 instead.
    pub fn clock_arbitration_ticks(&self, c: &Counters) -> u64 {
        let mut t = 0u64;
        for (l, &x) in self.arbitration.iter().enumerate() {
            if x > 0 {
                let it = iterations(c, l, self.loops[l].do_while);
                t = t.saturating_add(it.saturating_mul(x));
            }
        }
        t
    }

    /// Ticks to issue the counted work (rules C1-C4), without the fill of C5.
    pub fn issue_ticks(&self, c: &Counters, work_items: u64) -> u64 {
        let mut t = work_items.saturating_mul(self.item);
        for (l, cost) in self.loops.iter().enumerate() {
            let it = iterations(c, l, cost.do_while);
            let en = c.loop_entries.get(l).copied().unwrap_or(0);
            t = t
                .saturating_add(it.saturating_mul(cost.iteration))
                .saturating_add(en.saturating_mul(cost.entry));
            if cost.floor > 0 {
                t = t.saturating_add(self.floored(c, l).saturating_mul(cost.floor));
            }
        }
        t
    }

    /// Rule C2's floor: iterations of loop `l` that entered none of its pipelined subloops,
    /// from the counts: header visits after the first of each entry, minus the subloops'
    /// entries. The clock charges exactly these when no iteration enters subloops more than
    /// once (a `do`-`while` loop: and its last iteration of each entry enters none).
    fn floored(&self, c: &Counters, l: usize) -> u64 {
        let visits = c.loop_iterations.get(l).copied().unwrap_or(0);
        let entries = c.loop_entries.get(l).copied().unwrap_or(0);
        let fed: u64 = self
            .loops
            .iter()
            .enumerate()
            .filter(|(_, s)| s.floor_parent == Some(l as u32))
            .map(|(s, _)| c.loop_entries.get(s).copied().unwrap_or(0))
            .sum();
        visits.saturating_sub(entries).saturating_sub(fed)
    }

    /// Fill and drain cycles (rule C5): the pipeline latency and one drain of every top-level
    /// loop once, plus the pipeline latency per barrier passed by a work-group (NDRange),
    /// shared by the compute units.
    pub fn fill_cycles(&self, c: &Counters, work_items: u64, groups: u64) -> u64 {
        let mut per_item_barriers = self.barriers_outside as f64;
        if work_items > 0 {
            for (l, &n) in self.barriers_in_loop.iter().enumerate() {
                if n > 0 {
                    let it = iterations(c, l, self.loops[l].do_while);
                    per_item_barriers += n as f64 * it as f64 / work_items as f64;
                }
            }
        }
        let drains = if self.kind == KernelKind::NdRange {
            (groups as f64 * per_item_barriers / self.compute_units as f64).ceil() as u64
        } else {
            0
        };
        self.pipeline_latency
            .saturating_mul(1 + drains)
            .saturating_add(self.loop_drain)
    }
}
