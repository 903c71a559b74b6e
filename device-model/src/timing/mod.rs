//! The timing model: device cycles and per-site profiler counters of a kernel execution.
//!
//! Work in progress; see `MODEL.md` in this folder for the rules.

pub mod clock;

pub use clock::ClockPlan;
