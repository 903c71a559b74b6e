//! Local memory arbitration: the extra cycles a pipeline spends when the accesses to a local
//! memory bank that is not stall-free need more ports per cycle than the bank has.
//!
//! The static analysis (`kernel-compiler/src/analysis/localmem.rs`) records every bank that no
//! stall-free configuration can serve ([`ArbitratedBank`]): its physical ports and, per access
//! site, the site's instances on the bank and the pipelined loop that issues it. Stall-free
//! memories have no such bank and never stall here.
//!
//! Rules (`MODEL.md`, "Local memory arbitration"):
//! - **L1 ports**: an arbitrated bank serves at most `P` = its physical ports requests per
//!   cycle (2 for an M20K, 4 with `doublepump`); a load or a store takes one port, an atomic
//!   two (a read and a write). NDRange kernels: every compute unit has its own memory.
//! - **L2 demand**: site `s` puts `fires(s) x instances(s, bank) / instances(s) x ports per
//!   access` requests on the bank (the executor's executions spread evenly over the site's
//!   unrolled copies). The bank needs `D / (P x compute units)` cycles for the requests `D` of
//!   the sites one loop `L` issues (the site's driver loop; kernel level for sites outside
//!   pipelined loops; kernel-level sites of an NDRange kernel are further split by barrier
//!   region: the regions are pipeline stages that run at the same time on different
//!   work-groups, so their demands do not add up).
//! - **L3 arbitration stall**: the pipeline spends `budget(L)` cycles in `L` without
//!   arbitration (rules C1-C4 over `L` and its subloops; kernel level: all issue cycles). When
//!   the bank needs more, the loop issues at a higher effective II: `X(bank, L) = max(0,
//!   D / (P x CUs) - budget(L))`. Banks (and barrier regions) proceed in parallel, so loop `L`
//!   stalls `max over banks (and regions) of X(bank, L)`; the kernel stalls the sum over loops.
//! - **L4 per-site stall** (source and victims, as rule B3): on bank `b` in loop `L` the site
//!   with the most requests stalls `X(b, L)` (stall% + occupancy% ~ 100%: it is the source),
//!   the others `X(b, L) x their requests / the largest`; a site on several banks takes the
//!   largest.
//! - **L5 clock**: timed executions (channel kernels, autorun kernels) cannot wait for the
//!   executed counts, so their clock adds, per iteration of a pipelined loop without pipelined
//!   subloops, `max over banks of (static requests per iteration / (P x CUs)) - II cost` (every
//!   access of the loop counted as firing): their FIFO timestamps see the loop's effective II.
//!   `evaluate` takes this static part out of the clock's advance and adds L3's figure.

use super::clock::TICKS_PER_CYCLE;
use super::compute::{iterations, ComputeModel, LoopCost};
use crate::counters::Counters;
use fpgacl_kernel_compiler::analysis::{ArbitratedBank, KernelKind, KernelReport};
use fpgacl_kernel_compiler::ir::{Function, Inst, LoopId};

/// Arbitration stalls of one kernel run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocalStalls {
    /// Extra cycles the pipeline spent waiting for arbitrated local memory ports (rule L3).
    pub cycles: u64,
    /// Per access site (module site id), the site's stall cycles (rule L4). Only sites of
    /// arbitrated banks appear.
    pub sites: Vec<(u32, u64)>,
}

impl LocalStalls {
    /// The stall cycles of a site (0 for sites on stall-free memories).
    pub fn site(&self, id: u32) -> u64 {
        self.sites
            .iter()
            .find(|(s, _)| *s == id)
            .map(|&(_, c)| c)
            .unwrap_or(0)
    }
}

/// Rule L5: per `LoopId`, the ticks a timed execution's clock adds per iteration of the loop
/// for arbitrated local memory ports (0 for loops with pipelined subloops, and everywhere
/// when no memory is arbitrated). `loops` are the C-rule costs, `units` the compute units.
pub fn static_extra(report: &KernelReport, loops: &[LoopCost], units: u64) -> Vec<u64> {
    let mut out = vec![0u64; loops.len()];
    let units = if report.kind == KernelKind::NdRange {
        units.max(1)
    } else {
        1
    };
    for b in report
        .local_memories
        .iter()
        .flat_map(|m| m.arbitrated_banks.iter())
    {
        for (i, cost) in loops.iter().enumerate() {
            let id = LoopId(i as u32);
            let has_subloops = report
                .loops
                .iter()
                .any(|s| s.parent == Some(id) && !s.unroll.is_full() && s.ii > 0);
            if has_subloops {
                continue;
            }
            let req: u64 = b
                .sites
                .iter()
                .filter(|s| s.driver == Some(id))
                .map(|s| s.instances as u64 * s.ports_per_access.max(1) as u64)
                .sum();
            if req == 0 {
                continue;
            }
            let need = (req * TICKS_PER_CYCLE).div_ceil(b.ports.max(1) as u64 * units);
            let x = need.saturating_sub(cost.iteration);
            out[i] = out[i].max(x);
        }
    }
    out
}

/// Per memory site, the barrier region it is in: the barriers before it in the kernel's block
/// order (lowering lays blocks out in source order). Rule L2 of NDRange kernels uses it for
/// kernel-level sites (outside pipelined loops).
pub fn barrier_regions(f: &Function) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut region = 0u32;
    for b in &f.blocks {
        for i in &b.insts {
            let site = match i {
                Inst::Barrier { .. } => {
                    region += 1;
                    None
                }
                Inst::Load { site, .. } | Inst::Store { site, .. } => *site,
                Inst::Atomic { site, .. } => Some(*site),
                _ => None,
            };
            // Sites in fully unrolled loops are kernel level too (their driver is `None`);
            // only the sites of `None` drivers are looked up.
            if let Some(s) = site {
                out.push((s.0, region));
            }
        }
    }
    out
}

/// Ticks the pipeline spends in loop `l` and its subloops (rule L3's budget).
fn loop_budget(model: &ComputeModel, report: &KernelReport, c: &Counters, l: LoopId) -> u64 {
    let mut t = 0u64;
    for (i, cost) in model.loops.iter().enumerate() {
        let id = LoopId(i as u32);
        // `id` is `l` or a descendant of it.
        let mut cur = Some(id);
        let mut inside = false;
        let mut guard = 0;
        while let Some(x) = cur {
            if x == l {
                inside = true;
                break;
            }
            guard += 1;
            if guard > model.loops.len() {
                break;
            }
            cur = report.loop_by_id(x).and_then(|r| r.parent);
        }
        if !inside {
            continue;
        }
        let it = iterations(c, i, cost.do_while);
        let en = c.loop_entries.get(i).copied().unwrap_or(0);
        t = t
            .saturating_add(it.saturating_mul(cost.iteration))
            .saturating_add(en.saturating_mul(cost.entry));
    }
    t
}

/// Arbitration stalls of a run (rules L1-L4) from the executor's counts.
pub fn arbitration(
    model: &ComputeModel,
    report: &KernelReport,
    c: &Counters,
    work_items: u64,
) -> LocalStalls {
    let banks: Vec<&ArbitratedBank> = report
        .local_memories
        .iter()
        .flat_map(|m| m.arbitrated_banks.iter())
        .collect();
    if banks.is_empty() {
        return LocalStalls::default();
    }
    let units = if report.kind == KernelKind::NdRange {
        model.compute_units.max(1)
    } else {
        1
    };
    let kernel_budget = model.issue_ticks(c, work_items);
    // Kernel-level sites of an NDRange kernel: the barrier region (pipeline stage) they are in.
    let region = |site: u32, d: Option<LoopId>| -> u32 {
        if d.is_some() {
            return 0;
        }
        model
            .barrier_regions
            .iter()
            .find(|&&(s, _)| s == site)
            .map_or(0, |&(_, r)| r)
    };
    // Per (bank, driver loop, barrier region) group: requests per site, then X.
    let mut per_loop: Vec<(Option<LoopId>, u64)> = Vec::new();
    let mut sites: Vec<(u32, u64)> = Vec::new();
    for b in &banks {
        let mut groups: Vec<(Option<LoopId>, u32)> = b
            .sites
            .iter()
            .map(|s| (s.driver, region(s.site.0, s.driver)))
            .collect();
        groups.sort();
        groups.dedup();
        for (d, g) in groups {
            // L2: requests of each site of the group (scaled by 65536 to keep fractions).
            let demand: Vec<(u32, u128)> = b
                .sites
                .iter()
                .filter(|s| s.driver == d && region(s.site.0, s.driver) == g)
                .map(|s| {
                    let fires = c.sites.get(s.site.0 as usize).map_or(0, |x| x.fires);
                    let req = fires as u128
                        * s.instances as u128
                        * s.ports_per_access.max(1) as u128
                        * TICKS_PER_CYCLE as u128
                        / s.site_instances.max(1) as u128;
                    (s.site.0, req)
                })
                .collect();
            let total: u128 = demand.iter().map(|&(_, r)| r).sum();
            let need = total / (b.ports.max(1) as u128 * units as u128);
            let budget = match d {
                Some(l) => loop_budget(model, report, c, l),
                None => kernel_budget,
            } as u128;
            let x = need.saturating_sub(budget) as u64; // ticks
            if x == 0 {
                continue;
            }
            match per_loop.iter_mut().find(|(l, _)| *l == d) {
                Some((_, m)) => *m = (*m).max(x),
                None => per_loop.push((d, x)),
            }
            // L4: the largest requester is the source, the others victims in proportion.
            let largest = demand.iter().map(|&(_, r)| r).max().unwrap_or(0).max(1);
            for (site, r) in demand {
                let st = (x as u128 * r / largest) as u64;
                match sites.iter_mut().find(|(s, _)| *s == site) {
                    Some((_, m)) => *m = (*m).max(st),
                    None => sites.push((site, st)),
                }
            }
        }
    }
    let ticks: u64 = per_loop.iter().map(|&(_, x)| x).sum();
    for s in &mut sites {
        s.1 = s.1.div_ceil(TICKS_PER_CYCLE);
    }
    sites.sort();
    LocalStalls {
        cycles: ticks.div_ceil(TICKS_PER_CYCLE),
        sites,
    }
}
