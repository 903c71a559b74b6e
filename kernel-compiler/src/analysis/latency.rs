//! The operation latency table of the loop analysis (documented in `LATENCIES.md`).
//!
//! Latencies are in kernel clock cycles at the board's target clock. Pipelined operators
//! (floating point, integer multiply/divide, memory, channels) have the latency of their
//! pipeline; cheap integer logic (add, compare, logic, select) has a *fractional* latency: the
//! share of one clock period its combinational delay takes, so that a chain of such operations
//! adds up to whole cycles the way the guide's "critical path contributors" percentages do.
//!
//! Entries fixed by the Best Practices Guide examples:
//! - `float` multiply: 6 (kernel `unoptimized`, `mul *= A[i]`, II 6, 100% Fmul);
//! - `double` add: 11 (kernel `double_add_1`, II 11, Fadd);
//! - the `num_bytes` recurrence of `unoptimized3` (3 unrolled compare / non-blocking read /
//!   select chains plus a compare and a subtract) must take 7 cycles, and the one of `optimized3`
//!   must fit the retiming budget (II 1): integer compare 1.2, add 0.4, select 0.1,
//!   non-blocking channel read status 0.3, budget 5.0;
//! - `choose` (`product *= i; product /= j`, II 13, integer division largest): integer
//!   multiply 3 + division 9.5 + select 0.1 = 12.6 -> 13;
//! - `unoptimized4` (global `A[N-i] = A[i]`, II 324): load and store-acknowledge latencies of a
//!   burst-coalesced LSU are the board's global memory latency plus 4 (155 + 4 = 159 on the
//!   default board, 49% each), plus a 6-cycle memory-ordering hand-off;
//! - `optimized4` (private `B[N-i] = B[i]` in on-chip RAM, II 2, 65% load / 34% store): on-chip
//!   RAM load 1.3, store 0.68.

use super::BoardParams;
use crate::ir::{AddrSpace, BinOp, BuiltinFn, Scalar, UnOp};
use serde::{Deserialize, Serialize};

/// The FPGA family of a board: the floating-point latency table the analysis uses
/// (`LATENCIES.md`, "Families"). Arria 10 is the reference table (the guide's figures).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Family {
    /// Stratix V: no hardened floating point; float add and multiply are soft logic around
    /// the variable-precision DSPs, several stages deeper.
    #[serde(rename = "Stratix V", alias = "StratixV", alias = "stratix_v")]
    StratixV,
    /// Arria 10: hardened IEEE 754 single-precision DSP blocks (the reference table).
    #[default]
    #[serde(rename = "Arria 10", alias = "Arria10", alias = "arria_10")]
    Arria10,
    /// Stratix 10: hardened single-precision DSPs, HyperFlex registers add a stage.
    #[serde(rename = "Stratix 10", alias = "Stratix10", alias = "stratix_10")]
    Stratix10,
    /// Agilex 7: as Stratix 10 (HyperFlex, hardened single precision).
    #[serde(rename = "Agilex 7", alias = "Agilex7", alias = "agilex_7")]
    Agilex7,
}

impl Family {
    /// The name boards and reports use.
    pub fn name(self) -> &'static str {
        match self {
            Family::StratixV => "Stratix V",
            Family::Arria10 => "Arria 10",
            Family::Stratix10 => "Stratix 10",
            Family::Agilex7 => "Agilex 7",
        }
    }

    /// Cycles this family adds to a single-precision float adder / multiplier over the
    /// Arria 10 table (`LATENCIES.md`, "Families"): Stratix V +3 / +2 (soft-logic
    /// normalisation and rounding: a float-add recurrence takes 8 cycles per step);
    /// Stratix 10 and Agilex 7 +1 / +1 (HyperFlex pipeline registers).
    pub fn float_extra(self) -> (f64, f64) {
        match self {
            Family::StratixV => (3.0, 2.0),
            Family::Arria10 => (0.0, 0.0),
            Family::Stratix10 | Family::Agilex7 => (1.0, 1.0),
        }
    }
}

/// The latency `lat` of an operation of class `class` on `s` (from [`binary`] or [`builtin`],
/// the Arria 10 table) on a board of `family`: single-precision float adds, multiplies and
/// multiply-adds take the family's extra cycles; everything else is unchanged.
pub fn for_family(class: OpClass, s: Scalar, lat: f64, family: Family) -> f64 {
    if s != Scalar::F32 || lat <= 0.0 {
        return lat;
    }
    let (add, mul) = family.float_extra();
    match class {
        OpClass::Fadd => lat + add,
        // Fmul covers mad/fma/dot (a multiply followed by an add).
        OpClass::Fmul if lat > 6.0 => lat + add + mul,
        OpClass::Fmul => lat + mul,
        _ => lat,
    }
}

/// Combinational delay, in cycles, up to which a recurrence made only of cheap integer logic is
/// packed into one clock cycle: the compiler trades fmax for II 1 (the guide's "Trade-Off Between
/// Critical Path and Maximum Frequency", kernel `nd`).
pub const RETIME_BUDGET: f64 = 5.0;

/// Extra cycles between a global store's acknowledge and the re-issue of a dependent load
/// (memory-ordering hand-off through the global interconnect).
pub const GLOBAL_MEM_DEP_HANDOFF: f64 = 6.0;

/// Burst-coalesced LSU pipeline overhead on top of the board's memory latency, per access.
pub const BURST_COALESCED_OVERHEAD: f64 = 4.0;

/// On-chip RAM (local memory, private arrays in RAM) load latency.
pub const ONCHIP_LOAD: f64 = 1.3;
/// On-chip RAM store latency (until a later load sees the data).
pub const ONCHIP_STORE: f64 = 0.68;
/// Constant cache hit latency of a constant-pipelined LSU.
pub const CONSTANT_CACHE_HIT: f64 = 3.0;

/// What an operation on a critical path is, as the report names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OpClass {
    /// Integer add or subtract ("Add Operation").
    Add,
    /// Integer multiply.
    Mul,
    /// Integer division or remainder.
    Div,
    /// Integer compare.
    Compare,
    /// Bitwise logic and shifts.
    Logic,
    /// Select / multiplexer (if-conversion of a branch).
    Select,
    /// Floating-point add/subtract.
    Fadd,
    /// Floating-point multiply.
    Fmul,
    /// Floating-point divide.
    Fdiv,
    /// Floating-point compare.
    Fcompare,
    /// Type conversion.
    Convert,
    /// Math builtin (sqrt, exp, ...).
    Math,
    /// Memory load.
    Load,
    /// Memory store.
    Store,
    /// Atomic read-modify-write.
    Atomic,
    /// Blocking channel/pipe read.
    ChannelRead,
    /// Non-blocking channel/pipe read.
    ChannelReadNb,
    /// Channel/pipe write.
    ChannelWrite,
    /// A whole inner loop (on a path through a serialised subloop).
    SubLoop,
    /// Memory-ordering hand-off between a store and a dependent load.
    MemOrder,
}

impl OpClass {
    /// The operation's name in the report ("Fmul Operation", "Integer Compare Operation").
    pub fn report_name(self) -> &'static str {
        match self {
            OpClass::Add => "Add Operation",
            OpClass::Mul => "Integer Multiply Operation",
            OpClass::Div => "Integer Division Operation",
            OpClass::Compare => "Integer Compare Operation",
            OpClass::Logic => "Logic Operation",
            OpClass::Select => "Select Operation",
            OpClass::Fadd => "Fadd Operation",
            OpClass::Fmul => "Fmul Operation",
            OpClass::Fdiv => "Fdiv Operation",
            OpClass::Fcompare => "Float Compare Operation",
            OpClass::Convert => "Conversion Operation",
            OpClass::Math => "Math Function Operation",
            OpClass::Load => "Load Operation",
            OpClass::Store => "Store Operation",
            OpClass::Atomic => "Atomic Operation",
            OpClass::ChannelRead => "Channel Read Operation",
            OpClass::ChannelReadNb => "Non-Blocking Channel Read Operation",
            OpClass::ChannelWrite => "Channel Write Operation",
            OpClass::SubLoop => "Loop",
            OpClass::MemOrder => "Memory Ordering",
        }
    }

    /// Cheap integer logic the compiler may pack into one cycle (see [`RETIME_BUDGET`]).
    pub fn retimeable(self) -> bool {
        matches!(
            self,
            OpClass::Add
                | OpClass::Compare
                | OpClass::Logic
                | OpClass::Select
                | OpClass::Convert
                | OpClass::ChannelReadNb
        )
    }
}

fn wide(s: Scalar) -> bool {
    s.size() > 4
}

/// Latency of a binary operator on `s`.
pub fn binary(op: BinOp, s: Scalar) -> (OpClass, f64) {
    if s.is_float() {
        let d = s == Scalar::F64;
        return match op {
            BinOp::Add | BinOp::Sub => (OpClass::Fadd, if d { 11.0 } else { 5.0 }),
            BinOp::Mul => (OpClass::Fmul, if d { 13.0 } else { 6.0 }),
            BinOp::Div | BinOp::Rem => (OpClass::Fdiv, if d { 31.0 } else { 14.0 }),
            _ => (OpClass::Logic, 0.1),
        };
    }
    match op {
        BinOp::Add | BinOp::Sub => (OpClass::Add, if wide(s) { 0.6 } else { 0.4 }),
        BinOp::Mul => (OpClass::Mul, if wide(s) { 5.0 } else { 3.0 }),
        BinOp::Div | BinOp::Rem => (OpClass::Div, if wide(s) { 19.5 } else { 9.5 }),
        BinOp::And | BinOp::Or | BinOp::Xor => (OpClass::Logic, 0.1),
        // Shifts by a constant are wiring; variable shifts are barrel shifters.
        BinOp::Shl | BinOp::Shr => (OpClass::Logic, 0.1),
    }
}

/// Latency of a variable-amount shift (barrel shifter).
pub const VARIABLE_SHIFT: f64 = 0.4;

/// Latency of a unary operator.
pub fn unary(op: UnOp, s: Scalar) -> (OpClass, f64) {
    match (op, s.is_float()) {
        (UnOp::Neg, false) => (OpClass::Add, 0.4),
        _ => (OpClass::Logic, 0.1),
    }
}

/// Latency of a compare.
pub fn compare(s: Scalar) -> (OpClass, f64) {
    if s.is_float() {
        (OpClass::Fcompare, 1.0)
    } else {
        (OpClass::Compare, 1.2)
    }
}

/// Latency of a select (the multiplexer of an if-converted branch).
pub const SELECT: f64 = 0.1;

/// Latency of a conversion.
pub fn convert(from: Scalar, to: Scalar) -> (OpClass, f64) {
    if from.is_float() || to.is_float() {
        if from == to || (from.is_float() && to.is_float() && from.size() == to.size()) {
            (OpClass::Convert, 0.0)
        } else {
            (OpClass::Convert, 3.0)
        }
    } else {
        (OpClass::Convert, 0.0)
    }
}

/// Latency of a builtin function on `s`.
pub fn builtin(f: BuiltinFn, s: Scalar) -> (OpClass, f64) {
    use BuiltinFn::*;
    let d = s == Scalar::F64;
    if !s.is_float() {
        return match f {
            Abs | AbsDiff | AddSat | SubSat | Hadd | Rhadd => (OpClass::Add, 0.6),
            Min | Max | Clamp => (OpClass::Select, 1.3),
            MulHi | MadHi | MadSat | Mul24 | Mad24 => (OpClass::Mul, 3.4),
            Clz | Ctz | Popcount | Rotate | Upsample => (OpClass::Logic, 0.6),
            _ => (OpClass::Logic, 0.4),
        };
    }
    let (f32l, f64l) = match f {
        Fabs | Copysign | Signbit | Nan => (0.0, 0.0),
        Fmin | Fmax | Min | Max | Clamp | Step | Sign | Maxmag | Minmag | Fdim => (1.0, 1.0),
        IsEqual | IsNotEqual | IsGreater | IsGreaterEqual | IsLess | IsLessEqual
        | IsLessGreater | IsFinite | IsInf | IsNan | IsNormal | IsOrdered | IsUnordered | Any
        | All | Bitselect | Select => (1.0, 1.0),
        Ceil | Floor | Rint | Round | Trunc => (2.0, 2.0),
        Mad | Fma | Mix => (11.0, 24.0),
        Degrees | Radians => (6.0, 13.0),
        Sqrt | Cbrt | Hypot | Length | Distance => (17.0, 29.0),
        Rsqrt | Recip | Divide | Normalize => (14.0, 31.0),
        Dot | Cross => (11.0, 24.0),
        Smoothstep => (20.0, 40.0),
        _ => (20.0, 35.0),
    };
    let lat = if d { f64l } else { f32l };
    let class = match f {
        Mad | Fma | Dot | Cross => OpClass::Fmul,
        _ => OpClass::Math,
    };
    (class, lat)
}

/// Latency of a memory load through an LSU of this kind.
pub fn load(space: AddrSpace, onchip: bool, board: &BoardParams) -> f64 {
    match space {
        AddrSpace::Global => board.global_latency_cycles as f64 + BURST_COALESCED_OVERHEAD,
        AddrSpace::Constant => CONSTANT_CACHE_HIT,
        AddrSpace::Local => ONCHIP_LOAD,
        AddrSpace::Private => {
            if onchip {
                ONCHIP_LOAD
            } else {
                0.0
            }
        }
    }
}

/// Latency of a store until a dependent later load may issue (global: write-acknowledge).
pub fn store(space: AddrSpace, board: &BoardParams) -> f64 {
    match space {
        AddrSpace::Global | AddrSpace::Constant => {
            board.global_latency_cycles as f64 + BURST_COALESCED_OVERHEAD
        }
        AddrSpace::Local | AddrSpace::Private => ONCHIP_STORE,
    }
}

/// Hand-off between a store's completion and the next dependent load.
pub fn mem_dep_handoff(space: AddrSpace) -> f64 {
    match space {
        AddrSpace::Global | AddrSpace::Constant => GLOBAL_MEM_DEP_HANDOFF,
        _ => 0.0,
    }
}

/// Latency of a non-blocking channel read's status (valid) output.
pub const CHANNEL_READ_NB: f64 = 0.3;
/// Latency of a blocking channel read.
pub const CHANNEL_READ: f64 = 1.0;
/// Latency of a channel write.
pub const CHANNEL_WRITE: f64 = 1.0;
