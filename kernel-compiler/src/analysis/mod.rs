//! Static FPGA analysis: what `aoc` would report for each kernel.
//!
//! [`analyze`] inspects a compiled [`ir::Module`] and predicts, by the rules of the Intel FPGA
//! SDK for OpenCL Best Practices Guide:
//! - per kernel: NDRange or single work-item, autorun, required work-group size, compute units,
//!   SIMD width, max global work dimension;
//! - per loop: unroll status, whether and how it is pipelined, its initiation interval (II) and
//!   the reason in the guide's words (data dependency, memory dependency, pipeline structure,
//!   serial execution across a subloop), with the largest critical path contributors;
//! - per access site: the load-store unit (LSU) type and modifiers;
//! - per local memory: banks, replicates, pump, private copies, stall-free or arbitrated.
//!
//! # How II is derived
//! The loop body is executed symbolically ([`engine`]): every register slot and private-memory
//! cell holds an affine form (so induction variables, strides and the indices of fully unrolled
//! loops are known) and the set of loop-carried *sources* it depends on, with the latency of the
//! longest path from each source (operation latencies from [`latency`], documented in
//! `LATENCIES.md`). Branches are if-converted: a value merged from two paths also depends on the
//! branch conditions, through a select. Fully unrolled loops are executed once per iteration, so
//! shift registers become chains of cells. At the end of an iteration the dependencies of the
//! carried cells and of memory accesses form a graph with edges of (latency, iteration distance);
//! II is the largest ceil(latency / distance) over its cycles, except that cycles made only of
//! cheap integer logic within [`latency::RETIME_BUDGET`] get II 1 (the compiler lowers fmax
//! instead). Memory dependencies: a store and a later iteration's load of the same object that
//! may alias add an edge store -> load of (store latency + hand-off, distance 1); accesses with
//! the same stride and a constant positive distance are forwarded through registers instead.
//! A loop with subloops that are not unrolled has II at least 2 ("pipeline structure"), and a
//! cycle through a subloop serialises its iterations across that subloop.
//!
//! # Unrolling (what is unrolled, and with which trip count)
//! - `#pragma unroll [N]` and the statement attribute `__attribute__((opencl_unroll_hint[(N)]))`
//!   before a loop mean the same (Intel FPGA SDK for OpenCL Programming Guide, "Unrolling a
//!   Loop"; OpenCL C 2.0 section 6.11.5 defines `opencl_unroll_hint`); other loop attributes
//!   are ignored with a warning.
//! - Trip counts: the front end's syntactic count (`for (i = a; i < b; i += c)` with constants),
//!   else constant propagation after inlining, as aoc analyses the inlined LLVM IR: a loop
//!   without a static count is executed from its real entry state without recording anything
//!   ([`engine`]'s probe) and, when every pass decided to continue or leave by constants
//!   alone, its count is fed back and the kernel is analysed again (a helper's
//!   `for (i = 0; i < n - 1; i++)` called as `shift(buf, 64)` is fully unrolled, its private
//!   array indexed by constants becomes registers).
//! - A loop of trip count 0 or 1 is no loop for the hardware: it is always unrolled (unless
//!   `#pragma unroll 1`), and the loops inside it count as subloops of its parent.
//! - Without a pragma, loops of at most 16 iterations and 2048 unrolled instructions whose
//!   subloops are all unrolled are unrolled automatically.
//! - Caps (issue 15): partial factors above 1024 and full unrolls above 65536 iterations are
//!   capped at 1024 copies with a warning; the symbolic execution stops unrolling after
//!   3,000,000 instructions (warning); pipelined nests deeper than 32 levels are not analysed
//!   (warning, II 1 assumed); a value keeps its 32 main timing sources (16 oldest, 16 longest).
//! - An induction variable (a cell that grows by a constant per iteration) carries one integer
//!   add whatever the unroll factor: the hardware adds the whole step once per iteration and
//!   derives each copy's value from it, so `#pragma unroll 16` on `i++` is II 1, not the
//!   chain of 16 adds.
//!
//! # What the timing model uses
//! [`LoopReport::ii`], [`LoopReport::iteration_latency`], [`LoopReport::trip_count`],
//! [`LoopReport::unroll`], [`LoopReport::serialized`]; per site [`SiteReport::lsu`],
//! [`SiteReport::modifiers`], [`SiteReport::latency_cycles`], [`SiteReport::stride_bytes`],
//! [`SiteReport::coalesced_width`]; per kernel [`KernelReport::pipeline_latency`]; per local
//! memory [`LocalMemReport::arbitrated_banks`] (arbitration stalls).

pub mod engine;
pub mod graph;
pub mod latency;
pub mod localmem;
pub mod loops;
pub mod lsu;
pub mod render;
mod report;
pub mod value;

pub use localmem::{ArbitratedBank, BankSite};
pub use report::*;

use crate::ir;
use serde::{Deserialize, Serialize};

/// Board figures the analysis needs (the device model converts its board description).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardParams {
    /// Board name, for the report header.
    pub name: String,
    /// Kernel clock target in MHz.
    pub fmax_mhz: f64,
    /// Round-trip latency of a global memory access as the kernel pipeline sees it, in kernel
    /// clock cycles (burst-coalesced LSUs add [`latency::BURST_COALESCED_OVERHEAD`]).
    pub global_latency_cycles: u32,
    /// Width of one global memory word (burst beat) in bytes.
    pub mem_word_bytes: u32,
    /// Largest burst in memory words.
    pub max_burst_words: u32,
    /// FPGA family: selects the floating-point latency table (`LATENCIES.md`, "Families").
    #[serde(default)]
    pub family: latency::Family,
}

impl Default for BoardParams {
    /// The reference board: its global latency (155 cycles) makes a burst-coalesced load or
    /// acknowledged store take 159 cycles, which reproduces the guide's II of 324 for
    /// `unoptimized4`. 294 MHz and 64-byte words as the default device board.
    fn default() -> Self {
        BoardParams {
            name: "fpgacl_a10".into(),
            fmax_mhz: 294.0,
            global_latency_cycles: 155,
            mem_word_bytes: 64,
            max_burst_words: 16,
            family: latency::Family::Arria10,
        }
    }
}

/// Analyses every kernel of a module.
pub fn analyze(module: &ir::Module, board: &BoardParams) -> Report {
    let kernels = module
        .kernels
        .iter()
        .enumerate()
        .map(|(i, f)| engine::analyze_kernel(module, i as u32, f, board))
        .collect();
    Report {
        board: board.clone(),
        kernels,
    }
}
