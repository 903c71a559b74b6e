//! The timing model: device cycles and per-site profiler counters of a kernel execution.
//!
//! [`evaluate`] turns what the executor counted during a run ([`crate::Counters`]: per-site
//! accesses, bytes, address contiguity, channel stalls; per-loop header visits and entries),
//! the kernel's static analysis ([`KernelReport`]: II, trip counts, serialised subloops,
//! latencies, LSU types and strides) and the [`Board`] (fmax, global memory bandwidth, word
//! and burst size) into the kernel's duration in device cycles and one
//! [`SiteCounters`] per access site, the counters the Intel FPGA Dynamic Profiler reads.
//!
//! Every figure follows one rule, documented in `MODEL.md` next to this file and on the items
//! that implement it:
//! - compute cycles: [`compute`] (rules C1-C5);
//! - global memory traffic: [`memory`] (rules M1-M5);
//! - memory-bound kernels and stalls: [`evaluate`] (rules B1-B3);
//! - global memory banks, interleaved or partitioned with `-no-interleaving`: [`banks`] (rule
//!   B5);
//! - concurrent kernels sharing the global memory bandwidth: [`sharing`] (rule B4);
//! - local memory arbitration: [`local`] (rules L1-L4);
//! - per-site counters: [`evaluate`] (rules S1-S6);
//! - channels and pipes in simulated time: [`clock`] and the executor's FIFO timestamps.
//!
//! Determinism: every input is a sum over work-groups (or, for channel kernels, a function of
//! simulated time only), so the result does not depend on host threads or scheduling.

pub mod banks;
pub mod board;
pub mod clock;
pub mod compute;
pub mod dram;
pub mod local;
pub mod memory;
pub mod sharing;

pub use clock::{ClockPlan, TICKS_PER_CYCLE};
pub use compute::ComputeModel;

use crate::board::Board;
use crate::program::RunReport;
use fpgacl_kernel_compiler::analysis::{KernelReport, LsuModifier};
use fpgacl_kernel_compiler::ir::{AddrSpace, Module, SiteKind};
use fpgacl_profile_format::SiteCounters;

/// How a run is placed on the device timeline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalOptions {
    /// Emulated start of the kernel, device cycles since the session origin.
    pub start_cycle: u64,
    /// The run's duration when it shared the bandwidth with kernels that overlapped it in
    /// emulated time, from the device's run ledger ([`sharing::share`], rule B4); `None`: the
    /// run alone. The duration is never less than the run alone.
    pub shared_cycles: Option<u64>,
    /// The executor's clock at the end of the run, in ticks, for runs that kept a clock
    /// (kernels with channels or pipes, started with [`ComputeModel::clock_plan`] at
    /// `start_cycle`); `None` derives the time from the counters alone.
    pub end_tick: Option<u64>,
}

/// Why the kernel took the time it took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The pipeline issued as fast as its II allowed.
    Compute,
    /// Global memory bandwidth limited it (rule B2).
    Memory,
    /// It waited on channels or pipes (simulated-time FIFO stalls).
    Channel,
    /// It waited for the ports of arbitrated local memories (rules L1-L4).
    LocalMemory,
}

/// The timing of one kernel execution.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelTiming {
    /// Emulated start, device cycles since the session origin.
    pub start_cycle: u64,
    /// Emulated end: `start_cycle + cycles`.
    pub end_cycle: u64,
    /// Duration in device cycles.
    pub cycles: u64,
    /// Cycles to issue the work at the loops' II, fill included (rules C1-C5).
    pub compute_cycles: u64,
    /// Cycles global memory needs to move the fetched bytes (rule B1; with a shared
    /// bandwidth, rule B4, the shared duration when memory bound).
    pub memory_cycles: u64,
    /// The duration without global memory limits: compute + channel and local-memory stalls
    /// (rule B2's first term). A run's bandwidth demand in rule B4 is bytes / this.
    pub pipeline_cycles: u64,
    /// Cycles spent waiting on channels and pipes (simulated time).
    pub channel_stall_cycles: u64,
    /// Cycles spent waiting for arbitrated local memory ports (rule L3).
    pub local_stall_cycles: u64,
    /// Extra LSU cycles of accesses that cross a memory word (rule M6), part of the
    /// pipeline term.
    pub crossing_cycles: u64,
    /// What limited the kernel.
    pub bound: Bound,
    /// Bytes fetched from / written to global memory, all sites.
    pub bytes_fetched: u64,
    /// Rule B4's demand: bytes the board's peak bandwidth moves in the time this run's
    /// traffic takes alone (rules D1-D7); `bytes_fetched` on boards without DRAM timing.
    pub demand_bytes: u64,
    /// Per access site of the kernel (site ids of the module), in site id order.
    pub sites: Vec<SiteCounters>,
}

impl KernelTiming {
    /// Duration in ns at the board's kernel clock.
    pub fn duration_ns(&self, board: &Board) -> u64 {
        board.cycles_to_ns(self.cycles)
    }

    /// Emulated start in ns since the session origin.
    pub fn start_ns(&self, board: &Board) -> u64 {
        board.cycles_to_ns(self.start_cycle)
    }

    /// Emulated end in ns since the session origin.
    pub fn end_ns(&self, board: &Board) -> u64 {
        board.cycles_to_ns(self.end_cycle)
    }

    /// Global memory bandwidth used over the run, MB/s (`bytes_fetched / cycles x fmax`).
    pub fn bandwidth_mbps(&self, board: &Board) -> f64 {
        if self.cycles == 0 {
            0.0
        } else {
            self.bytes_fetched as f64 / self.cycles as f64 * board.kernel_clock_mhz
        }
    }

    /// The counters of one site, if it belongs to the kernel.
    pub fn site(&self, id: u32) -> Option<&SiteCounters> {
        self.sites.iter().find(|s| s.site == id)
    }
}

/// Why a run could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimingError {
    #[error("kernel '{0}' is not in the module")]
    NoSuchKernel(String),
    #[error("the static report is for kernel '{report}', the run is of '{run}'")]
    ReportMismatch { report: String, run: String },
}

fn is_global_memory(kind: SiteKind, space: AddrSpace) -> bool {
    matches!(kind, SiteKind::Load | SiteKind::Store | SiteKind::Atomic)
        && space == AddrSpace::Global
}

/// The compute model of a kernel by name (to build the [`ClockPlan`] of a channel kernel
/// before running it), for work-groups of one work-item unless the kernel requires a size.
pub fn compute_model(module: &Module, report: &KernelReport) -> Result<ComputeModel, TimingError> {
    compute_model_for_group(module, report, [1; 3])
}

/// [`compute_model`] for a launch with work-groups of `local_size` (rule C4: the work-items
/// that interleave in an NDRange loop whose II comes from a private recurrence).
pub fn compute_model_for_group(
    module: &Module,
    report: &KernelReport,
    local_size: [u64; 3],
) -> Result<ComputeModel, TimingError> {
    let f = module
        .kernels
        .iter()
        .find(|k| k.name == report.name)
        .ok_or_else(|| TimingError::NoSuchKernel(report.name.clone()))?;
    let group = local_size.iter().map(|&x| x.max(1)).product::<u64>();
    Ok(ComputeModel::for_group_size(f, report, group))
}

/// [`compute_model`] for a launch of `items` work-items in work-groups of `local_size` (rule
/// C4: the work-items in flight in an NDRange loop are all of them, at most two work-groups
/// with barriers).
pub fn compute_model_for_launch(
    module: &Module,
    report: &KernelReport,
    local_size: [u64; 3],
    items: u64,
) -> Result<ComputeModel, TimingError> {
    let f = module
        .kernels
        .iter()
        .find(|k| k.name == report.name)
        .ok_or_else(|| TimingError::NoSuchKernel(report.name.clone()))?;
    let group = local_size.iter().map(|&x| x.max(1)).product::<u64>();
    Ok(ComputeModel::for_launch(f, report, group, items))
}

/// Times one kernel execution and derives its per-site profiler counters.
///
/// Rules (one per figure; `MODEL.md` traces each to a board parameter):
/// - **B1 memory cycles** = sum over global sites of bytes fetched / board bytes per cycle,
///   board bytes per cycle = total global bandwidth (MB/s) / fmax (MHz) (burst-interleaved
///   banks; with `-no-interleaving`, rule **B5** in [`evaluate_banked`]: max over banks).
/// - **B4 shared bandwidth**: with `shared_cycles` (the device's run ledger, [`sharing`]), a
///   run whose share of the bandwidth made it longer than its pipeline takes that duration as
///   its memory cycles; B2 and B3 then apply as usual.
/// - **B2 duration** = max(compute cycles + channel stalls + local arbitration stalls (rule
///   L3, [`local`]), memory cycles); compute cycles are the issue cycles (C1-C4) plus fill (C5). Channel kernels with a clock take the clock's
///   advance instead of issue cycles + stalls.
/// - **B3 memory stall**: when memory cycles exceed the pipeline's own time, the excess stalls
///   the pipeline at the global LSUs: each global site stalls `excess x fetched / largest
///   fetched of the kernel`, so the LSU moving the most data is the stall source (stall% +
///   occupancy% ~ 100%) and the others are victims in proportion.
/// - **S1 active cycles** (denominator) = the kernel's duration, for every site.
/// - **S2 fired** = executions / (SIMD x LSU copies x compute units (NDRange)): cycles in which
///   the site issued.
/// - **S3 predicated** = (valid - executions) / the same lanes, where valid = iterations of the
///   site's innermost loop, or work-items for a site outside loops (a work-item or iteration
///   that passed the site with its predicate off; failed non-blocking channel operations count
///   here too).
/// - **S4 stall** = B3 for global sites, simulated FIFO wait for channel and pipe sites, L4 for
///   sites of arbitrated local memories; capped
///   so that fired + predicated + stall <= active.
/// - **S5 requests** = executions; bytes requested = bytes counted; bytes fetched, bursts and
///   cache from [`memory`] (global sites only; other spaces fetch nothing from global memory).
/// - **S6 unaligned** = accesses whose address is not a multiple of the access width.
pub fn evaluate(
    module: &Module,
    report: &KernelReport,
    board: &Board,
    run: &RunReport,
    opts: &EvalOptions,
) -> Result<KernelTiming, TimingError> {
    evaluate_banked(module, report, board, run, opts, None)
}

/// [`evaluate`] for a program built with `-no-interleaving` (rule B5, [`banks`]): memory
/// cycles are the longest of the banks' times, each bank moving the bytes of the buffers
/// placed in it; `None` is the interleaved default (rule B1).
pub fn evaluate_banked(
    module: &Module,
    report: &KernelReport,
    board: &Board,
    run: &RunReport,
    opts: &EvalOptions,
    placement: Option<&banks::BankPlacement>,
) -> Result<KernelTiming, TimingError> {
    if report.name != run.kernel {
        return Err(TimingError::ReportMismatch {
            report: report.name.clone(),
            run: run.kernel.clone(),
        });
    }
    let model = compute_model_for_launch(module, report, run.local_size, run.work_items)?;
    let c = &run.counters;
    let groups = run.num_groups.iter().product::<u64>();
    let fill = model.fill_cycles(c, run.work_items, groups);

    // Channel stalls (simulated time) per site, ticks.
    let site_stall_ticks = |id: usize| -> u64 { c.sites.get(id).map(site_stall).unwrap_or(0) };
    let kernel_sites: Vec<usize> = module
        .sites
        .iter()
        .filter(|s| module.kernels.get(s.kernel as usize).map(|k| &k.name) == Some(&report.name))
        .map(|s| s.id.0 as usize)
        .collect();
    let stall_ticks: u64 = kernel_sites.iter().map(|&i| site_stall_ticks(i)).sum();
    let issue_ticks = match opts.end_tick {
        // The clock's arbitration extra (L5) is replaced by the executed-count figure (L3).
        Some(end) => end
            .saturating_sub(opts.start_cycle.saturating_mul(TICKS_PER_CYCLE))
            .saturating_sub(stall_ticks)
            .saturating_sub(model.clock_arbitration_ticks(c)),
        None => model.issue_ticks(c, run.work_items),
    };
    let issue = issue_ticks.div_ceil(TICKS_PER_CYCLE);
    let channel_stall = stall_ticks.div_ceil(TICKS_PER_CYCLE);
    let compute_cycles = issue + fill;
    // Local memory arbitration (L1-L4).
    let arb = local::arbitration(&model, report, c, run.work_items);

    // Memory traffic per site (M1-M5).
    let word = board.mem_word_bytes();
    let maxb = board.max_burst_words();
    let mut traffic = vec![memory::Traffic::default(); module.sites.len()];
    for &i in &kernel_sites {
        let s = &module.sites[i];
        if !is_global_memory(s.kind, s.space) {
            continue;
        }
        let rep = report.sites.iter().find(|r| r.id == s.id);
        let shape = memory::SiteShape {
            stride: rep.and_then(|r| r.stride_bytes),
            cached: rep.is_some_and(|r| r.modifiers.contains(&LsuModifier::Cached)),
            word,
            max_burst_words: maxb,
            valid: site_valid(&model, c, s.in_loop, run.work_items),
            shared_tracker: rep.is_some_and(|r| {
                r.coalesced_accesses >= 2
                    && r.coalesced_with
                        .iter()
                        .any(|o| c.sites.get(o.0 as usize).is_some_and(|x| x.words > 0))
            }),
        };
        if let Some(cnt) = c.sites.get(i) {
            traffic[i] = memory::traffic(cnt, &shape);
        }
    }
    let bytes_fetched: u64 = traffic.iter().map(|t| t.bytes_fetched).sum();
    // B1 (interleaved) or B5 (per bank).
    // With DRAM timing (rules D1-D7) a site is a stream: direction, burst, row stride.
    let row_bytes = board
        .default_bank_group()
        .and_then(|g| g.dram.as_ref())
        .map(|d| d.row_bytes);
    let memory_cycles = banks::memory_cycles(
        board,
        placement,
        kernel_sites
            .iter()
            .filter(|&&i| traffic[i].bytes_fetched > 0)
            .map(|&i| {
                let s = &module.sites[i];
                let t = &traffic[i];
                let stride = report
                    .sites
                    .iter()
                    .find(|r| r.id == s.id)
                    .and_then(|r| r.stride_bytes);
                banks::SiteTraffic {
                    arg: s.arg,
                    bytes: t.bytes_fetched,
                    write: s.kind == SiteKind::Store,
                    burst_bytes: t.burst_bytes / t.bursts.max(1),
                    strided: matches!((stride, row_bytes), (Some(st), Some(r)) if st.unsigned_abs() >= r),
                }
            }),
    );
    // Rule B4's demand: the bytes the board's peak moves in this memory time.
    let demand_bytes = if row_bytes.is_some() {
        (memory_cycles as f64 * board.global_bytes_per_cycle()).ceil() as u64
    } else {
        traffic.iter().map(|t| t.bytes_fetched).sum()
    };
    // M6: an access that crosses a memory word takes its LSU one extra cycle; the pipeline
    // waits for the slowest LSU (the site with the most crossing cycles per lane).
    let ndrange = model.kind == fpgacl_kernel_compiler::analysis::KernelKind::NdRange;
    let site_lanes = |i: usize| -> u64 {
        let s = &module.sites[i];
        let rep = report.sites.iter().find(|r| r.id == s.id);
        let copies = rep.map(|r| r.copies.max(1) as u64).unwrap_or(1);
        let merged = rep.map_or(1, |r| r.coalesced_copies.max(1) as u64);
        copies * merged * if ndrange { model.lanes } else { 1 }
    };
    let crossing_of = |i: usize| -> u64 {
        let s = &module.sites[i];
        if !is_global_memory(s.kind, s.space) {
            return 0;
        }
        c.sites
            .get(i)
            .map_or(0, |x| x.crossing.div_ceil(site_lanes(i)))
    };
    let crossing_cycles = kernel_sites
        .iter()
        .map(|&i| crossing_of(i))
        .max()
        .unwrap_or(0);
    let pipeline = compute_cycles + channel_stall + arb.cycles + crossing_cycles;
    // B4: a run that shared the bandwidth takes the ledger's duration when it is longer.
    let memory_cycles = match opts.shared_cycles {
        Some(shared) if shared > pipeline => memory_cycles.max(shared),
        _ => memory_cycles,
    };
    let cycles = pipeline.max(memory_cycles).max(1);
    let excess = cycles - pipeline.min(cycles);
    let bound = if excess > 0 {
        Bound::Memory
    } else if channel_stall > 0 {
        Bound::Channel
    } else if arb.cycles > 0 {
        Bound::LocalMemory
    } else {
        Bound::Compute
    };
    let largest = traffic.iter().map(|t| t.bytes_fetched).max().unwrap_or(0);

    // Per-site counters (S1-S6).
    let mut sites = Vec::with_capacity(kernel_sites.len());
    for &i in &kernel_sites {
        let s = &module.sites[i];
        let cnt = c.sites.get(i).copied().unwrap_or_default();
        let rep = report.sites.iter().find(|r| r.id == s.id);
        let copies = rep.map(|r| r.copies.max(1) as u64).unwrap_or(1);
        // Rule M0': a site's copies merged into one wide access issue as one request.
        let merged = rep.map_or(1, |r| r.coalesced_copies.max(1) as u64);
        let lanes = copies * merged * if ndrange { model.lanes } else { 1 };
        let valid = site_valid(&model, c, s.in_loop, run.work_items);
        let fired = cnt.fires.div_ceil(lanes);
        let predicated = valid.saturating_sub(cnt.fires).div_ceil(lanes);
        let t = traffic[i];
        let stall = if is_global_memory(s.kind, s.space) {
            let b3 = if largest > 0 {
                (excess as u128 * t.bytes_fetched as u128 / largest as u128) as u64
            } else {
                0
            };
            b3 + crossing_of(i)
        } else {
            site_stall_ticks(i).div_ceil(TICKS_PER_CYCLE) + arb.site(s.id.0)
        };
        let stall = stall.min(cycles.saturating_sub(fired + predicated));
        sites.push(SiteCounters {
            site: s.id.0,
            fired_cycles: fired.min(cycles),
            stall_cycles: stall,
            predicated_cycles: predicated.min(cycles - fired.min(cycles)),
            active_cycles: cycles,
            requests: cnt.fires.div_ceil(merged),
            bytes_requested: cnt.bytes,
            bytes_fetched: t.bytes_fetched,
            bursts: t.bursts,
            burst_bytes: t.burst_bytes,
            max_burst_bytes: t.max_burst_bytes,
            cache_hits: t.cache_hits,
            cache_misses: t.cache_misses,
            unaligned_requests: cnt.unaligned,
        });
    }
    Ok(KernelTiming {
        start_cycle: opts.start_cycle,
        end_cycle: opts.start_cycle.saturating_add(cycles),
        cycles,
        compute_cycles,
        memory_cycles,
        pipeline_cycles: pipeline,
        channel_stall_cycles: channel_stall,
        local_stall_cycles: arb.cycles,
        crossing_cycles,
        bound,
        bytes_fetched,
        demand_bytes,
        sites,
    })
}

/// Work-items or loop iterations that passed a site (rule S3's valid count).
fn site_valid(
    model: &ComputeModel,
    c: &crate::counters::Counters,
    in_loop: Option<fpgacl_kernel_compiler::ir::LoopId>,
    work_items: u64,
) -> u64 {
    match in_loop {
        Some(l) => compute::iterations(
            c,
            l.0 as usize,
            model.loops.get(l.0 as usize).is_some_and(|x| x.do_while),
        ),
        None => work_items,
    }
}

/// Simulated-time stall of a channel or pipe site, ticks.
fn site_stall(c: &crate::counters::SiteCounts) -> u64 {
    c.stall
}
