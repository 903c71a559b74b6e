//! The per-execution clock plan: how many ticks (1/65536 device cycle) the executor adds to a
//! kernel execution's clock at loop headers, loop entries and work-item starts.
//!
//! The executor keeps one clock per kernel execution (sequential executions: kernels that use
//! channels or pipes). It starts at [`ClockPlan::start_tick`] (the kernel's emulated start on
//! the device timeline) and advances by the costs below; channel and pipe operations then move
//! it forward to the tick their element is available (see `MODEL.md`, "Channels").
//!
//! The costs are chosen so that, without channel stalls, the clock advance of a kernel
//! execution equals the compute ticks `super::compute` derives from the counters after the
//! run, plus the static arbitration extra of rule L5 (`super::local`), which `evaluate` takes
//! out again: `sum over loops of (entries x enter + header visits x head) + items x item`, plus
//! rule C2's floor for outer iterations that enter no subloop (`loop_floor`: the plan carries
//! per-loop flags, set at subloop entries, cleared at the outer loop's next header visit).

use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;

/// Clock units per device cycle: the clock counts ticks of 1/65536 cycle so that fractional
/// issue rates (partial unrolling, SIMD lanes, compute units) add up exactly.
pub const TICKS_PER_CYCLE: u64 = 1 << 16;

/// No loop (in [`ClockPlan::floor_parent`]).
pub const NO_LOOP: u32 = u32::MAX;

/// Cycles added at loop headers, loop entries and work-item starts (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClockPlan {
    /// The kernel's emulated start, in ticks (`start cycle * TICKS_PER_CYCLE`).
    pub start_tick: u64,
    /// By `LoopId`: ticks added at each visit of the loop's header.
    pub loop_head: Vec<u64>,
    /// By `LoopId`: ticks added at each entry into the loop from outside. May be negative (an
    /// entry is always followed by a header visit of the same loop, whose cost makes the sum
    /// non-negative); apply with `wrapping_add(enter as u64)`.
    pub loop_enter: Vec<i64>,
    /// Ticks added when a work-item starts.
    pub item: u64,
    /// By `LoopId` (empty: none): rule C2's floor, ticks added at a header visit that follows
    /// an iteration which entered none of the loop's pipelined subloops (an outer iteration
    /// takes at least its II; the C2 reduction is only for iterations that feed a subloop).
    pub loop_floor: Vec<u64>,
    /// By `LoopId` (empty: none): the loop whose floor an entry into this loop cancels for the
    /// current iteration (its parent, when C2 reduces the parent's cost), or [`NO_LOOP`].
    pub floor_parent: Vec<u32>,
    /// By `LoopId`: the current iteration entered a subloop (or is the first after an entry).
    /// Execution state of the one worker that uses the plan (parallel workers each run on
    /// their own clone).
    pub entered: Flags,
}

/// Per-loop flags of a [`ClockPlan`]'s execution state. A clone starts cleared; plans compare
/// equal regardless of their state.
#[derive(Debug, Default)]
pub struct Flags(Box<[AtomicBool]>);

impl Flags {
    /// `n` cleared flags.
    pub fn new(n: usize) -> Flags {
        Flags((0..n).map(|_| AtomicBool::new(false)).collect())
    }
}

impl Clone for Flags {
    fn clone(&self) -> Flags {
        Flags::new(self.0.len())
    }
}

impl PartialEq for Flags {
    fn eq(&self, other: &Flags) -> bool {
        self.0.len() == other.0.len()
    }
}

impl Eq for Flags {}

impl ClockPlan {
    /// A plan that never advances the clock (functional runs without timing).
    pub fn none() -> ClockPlan {
        ClockPlan::default()
    }

    /// Ticks for one visit of loop `l`'s header (0 for unknown loops), with rule C2's floor
    /// when the iteration that just ended entered no subloop.
    #[inline(always)]
    pub fn head(&self, l: usize) -> u64 {
        let base = self.loop_head.get(l).copied().unwrap_or(0);
        match self.loop_floor.get(l) {
            Some(&x) if x > 0 => match self.entered.0.get(l) {
                Some(f) if f.load(Relaxed) => {
                    f.store(false, Relaxed);
                    base
                }
                _ => base.wrapping_add(x),
            },
            _ => base,
        }
    }

    /// Ticks for one entry into loop `l`, as a two's complement `u64` for `wrapping_add`.
    /// Marks the entry for rule C2's floor: the first header visit of `l` after it, and the
    /// current iteration of `l`'s parent, pay no floor.
    #[inline(always)]
    pub fn enter(&self, l: usize) -> u64 {
        if !self.loop_floor.is_empty() {
            if self.loop_floor.get(l).is_some_and(|&x| x > 0) {
                if let Some(f) = self.entered.0.get(l) {
                    f.store(true, Relaxed);
                }
            }
            if let Some(&p) = self.floor_parent.get(l) {
                if let Some(f) = self.entered.0.get(p as usize) {
                    f.store(true, Relaxed);
                }
            }
        }
        self.loop_enter.get(l).copied().unwrap_or(0) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enter_then_head_never_goes_backwards() {
        let p = ClockPlan {
            start_tick: 10,
            loop_head: vec![3],
            loop_enter: vec![-2],
            item: 1,
            ..Default::default()
        };
        let t = 10u64.wrapping_add(p.enter(0)).wrapping_add(p.head(0));
        assert_eq!(t, 11);
        assert_eq!(p.head(5), 0);
        assert_eq!(ClockPlan::none().enter(0), 0);
    }

    /// Rule C2's floor: an outer loop (0) whose iterations skip its subloop (1) pays the floor
    /// at the header visit after such an iteration, not after one that entered the subloop,
    /// nor at its first visit after an entry.
    #[test]
    fn floor_is_charged_only_after_iterations_without_a_subloop_entry() {
        let p = ClockPlan {
            loop_head: vec![0, 5],
            loop_enter: vec![0, -5],
            loop_floor: vec![7, 0],
            floor_parent: vec![NO_LOOP, 0],
            entered: Flags::new(2),
            ..Default::default()
        };
        let mut t = 0u64;
        t = t.wrapping_add(p.enter(0)).wrapping_add(p.head(0)); // entry visit: no floor
        assert_eq!(t, 0);
        t = t.wrapping_add(p.head(0)); // iteration 1 skipped the subloop
        assert_eq!(t, 7);
        t = t.wrapping_add(p.enter(1)).wrapping_add(p.head(1)); // iteration 2 enters it
        t = t.wrapping_add(p.head(1)).wrapping_add(p.head(1)); // 2 sub-iterations
        assert_eq!(t, 17);
        t = t.wrapping_add(p.head(0)); // after iteration 2: no floor
        assert_eq!(t, 17);
        t = t.wrapping_add(p.head(0)); // iteration 3 skipped it again
        assert_eq!(t, 24);
        // A clone starts cleared and compares equal.
        assert_eq!(p.clone(), p);
    }
}
