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
//! out again: `sum over loops of (entries x enter + header visits x head) + items x item`.

/// Clock units per device cycle: the clock counts ticks of 1/65536 cycle so that fractional
/// issue rates (partial unrolling, SIMD lanes, compute units) add up exactly.
pub const TICKS_PER_CYCLE: u64 = 1 << 16;

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
}

impl ClockPlan {
    /// A plan that never advances the clock (functional runs without timing).
    pub fn none() -> ClockPlan {
        ClockPlan::default()
    }

    /// Ticks for one visit of loop `l`'s header (0 for unknown loops).
    #[inline(always)]
    pub fn head(&self, l: usize) -> u64 {
        self.loop_head.get(l).copied().unwrap_or(0)
    }

    /// Ticks for one entry into loop `l`, as a two's complement `u64` for `wrapping_add`.
    #[inline(always)]
    pub fn enter(&self, l: usize) -> u64 {
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
        };
        let t = 10u64.wrapping_add(p.enter(0)).wrapping_add(p.head(0));
        assert_eq!(t, 11);
        assert_eq!(p.head(5), 0);
        assert_eq!(ClockPlan::none().enter(0), 0);
    }
}
