//! The pre-decoded form of a kernel: a flat array of compact [`Op`]s with resolved jump targets
//! (op indices), side tables for the rare wide instructions, and a parallel array of source
//! locations for diagnostics. Built once per program ([`super::decode`]), shared read-only by
//! every thread that runs the kernel.

use fpgacl_kernel_compiler::ir::{
    AtomicOp, BinOp, BuiltinFn, BuiltinPtrFn, CmpOp, Rounding, Scalar, UnOp, ValTy, WorkItemFn,
};
use fpgacl_kernel_compiler::Loc;

/// "No register / no site" marker in operand fields.
pub const NONE: u32 = u32::MAX;

/// One decoded instruction. Register operands are slot indices (validated against the register
/// file size at decode time); jump targets are op indices.
#[derive(Clone, Copy, Debug)]
pub enum Op {
    Jump(u32),
    Br {
        c: u32,
        t: u32,
        f: u32,
    },
    Switch(u32),
    Ret,
    Unreachable,
    /// Entry into a loop header: counts one iteration of loop `.0`.
    LoopHead(u32),
    /// Branch on a signed / unsigned scalar compare (fused compare + branch).
    BrCmpS {
        op: CmpOp,
        a: u32,
        b: u32,
        t: u32,
        f: u32,
    },
    BrCmpU {
        op: CmpOp,
        a: u32,
        b: u32,
        t: u32,
        f: u32,
    },
    /// Entry into loop `.0` from outside it (on the edge into its header).
    LoopEnter(u32),
    Const {
        d: u32,
        v: u64,
    },
    ConstN(u32),
    Mov {
        d: u32,
        s: u32,
        n: u32,
    },
    /// One-slot move (also conversions that do not change the slot encoding).
    Mov1 {
        d: u32,
        s: u32,
    },
    /// Integer-to-integer conversion without saturation: re-normalise to kind `k`.
    ConvInt {
        k: Scalar,
        d: u32,
        s: u32,
    },
    /// `t = base + idx << sl; d = load t` (scalar).
    LoadIdx {
        k: Scalar,
        sl: u8,
        d: u32,
        t: u32,
        base: u32,
        idx: u32,
        site: u32,
    },
    /// `t = base + idx << sl; store s to t` (scalar).
    StoreIdx {
        k: Scalar,
        sl: u8,
        s: u32,
        t: u32,
        base: u32,
        idx: u32,
        site: u32,
    },
    /// A work-item query with a constant dimension.
    WorkItemC {
        f: WorkItemFn,
        d: u32,
        dim: u32,
    },
    Splat {
        d: u32,
        s: u32,
        n: u32,
    },
    Shuffle(u32),
    // Scalar integer fast paths. `*I32`/`*U32` normalise to 32-bit signed/unsigned, `*64`
    // works for both 64-bit kinds.
    AddI32 {
        d: u32,
        a: u32,
        b: u32,
    },
    AddU32 {
        d: u32,
        a: u32,
        b: u32,
    },
    Add64 {
        d: u32,
        a: u32,
        b: u32,
    },
    SubI32 {
        d: u32,
        a: u32,
        b: u32,
    },
    SubU32 {
        d: u32,
        a: u32,
        b: u32,
    },
    Sub64 {
        d: u32,
        a: u32,
        b: u32,
    },
    MulI32 {
        d: u32,
        a: u32,
        b: u32,
    },
    MulU32 {
        d: u32,
        a: u32,
        b: u32,
    },
    Mul64 {
        d: u32,
        a: u32,
        b: u32,
    },
    /// Bitwise ops preserve the slot encoding of every integer kind.
    And {
        d: u32,
        a: u32,
        b: u32,
        n: u32,
    },
    Or {
        d: u32,
        a: u32,
        b: u32,
        n: u32,
    },
    Xor {
        d: u32,
        a: u32,
        b: u32,
        n: u32,
    },
    /// Scalar compares giving int 1/0: signed (any signed kind), unsigned (any unsigned kind).
    CmpS {
        op: CmpOp,
        d: u32,
        a: u32,
        b: u32,
    },
    CmpU {
        op: CmpOp,
        d: u32,
        a: u32,
        b: u32,
    },
    CmpF32 {
        op: CmpOp,
        d: u32,
        a: u32,
        b: u32,
    },
    CmpF64 {
        op: CmpOp,
        d: u32,
        a: u32,
        b: u32,
    },
    FAdd32 {
        d: u32,
        a: u32,
        b: u32,
    },
    FSub32 {
        d: u32,
        a: u32,
        b: u32,
    },
    FMul32 {
        d: u32,
        a: u32,
        b: u32,
    },
    FDiv32 {
        d: u32,
        a: u32,
        b: u32,
    },
    FAdd64 {
        d: u32,
        a: u32,
        b: u32,
    },
    FSub64 {
        d: u32,
        a: u32,
        b: u32,
    },
    FMul64 {
        d: u32,
        a: u32,
        b: u32,
    },
    FDiv64 {
        d: u32,
        a: u32,
        b: u32,
    },
    // Generic lane-wise forms.
    IntBin {
        op: BinOp,
        k: Scalar,
        n: u8,
        d: u32,
        a: u32,
        b: u32,
    },
    FltBin {
        op: BinOp,
        k: Scalar,
        n: u8,
        d: u32,
        a: u32,
        b: u32,
    },
    Unary {
        op: UnOp,
        k: Scalar,
        n: u8,
        d: u32,
        s: u32,
    },
    /// `vec`: result lanes are -1/0 (vector compare) rather than 1/0.
    Cmp {
        op: CmpOp,
        k: Scalar,
        n: u8,
        vec: bool,
        d: u32,
        a: u32,
        b: u32,
    },
    Select {
        n: u32,
        d: u32,
        c: u32,
        a: u32,
        b: u32,
    },
    Convert(u32),
    Bitcast(u32),
    /// A scalar lane-wise builtin (`rotate`, `rsqrt`, `mad`, ...) with its operands inline:
    /// `d = builtins::lane(f, k, dk, a, b, c)`; an absent operand (`NONE`) reads 0.
    Lane {
        f: BuiltinFn,
        k: Scalar,
        dk: Scalar,
        d: u32,
        a: u32,
        b: u32,
        c: u32,
    },
    /// The same on `n` lanes (`vec`: the result is a vector, relational results are -1/0);
    /// `dn` result lanes.
    LaneV {
        f: BuiltinFn,
        k: Scalar,
        dk: Scalar,
        n: u8,
        dn: u8,
        vec: bool,
        d: u32,
        a: u32,
        b: u32,
        c: u32,
    },
    Builtin(u32),
    BuiltinPtr(u32),
    WorkItem {
        f: WorkItemFn,
        d: u32,
        dim: u32,
    },
    /// `d = base + idx * scale + disp`.
    PtrIdx {
        d: u32,
        base: u32,
        idx: u32,
        scale: u32,
        disp: i32,
    },
    /// `d = base + disp`.
    PtrDisp {
        d: u32,
        base: u32,
        disp: i64,
    },
    Load {
        k: Scalar,
        n: u8,
        d: u32,
        a: u32,
        site: u32,
    },
    Store {
        k: Scalar,
        n: u8,
        s: u32,
        a: u32,
        site: u32,
    },
    Copy(u32),
    Atomic(u32),
    FifoRead(u32),
    FifoWrite(u32),
    Barrier(u32),
    AsyncCopy(u32),
    WaitEvents,
    Printf(u32),
    /// Image read / write / query: index into `Code::images`.
    Image(u32),
}

#[derive(Clone, Debug)]
pub struct SwitchX {
    pub v: u32,
    pub cases: Vec<(u64, u32)>,
    pub default: u32,
}

#[derive(Clone, Debug)]
pub struct ConvertX {
    pub from: Scalar,
    pub to: Scalar,
    pub sat: bool,
    pub rounding: Rounding,
    pub n: u32,
    pub d: u32,
    pub s: u32,
}

#[derive(Clone, Debug)]
pub struct BitcastX {
    pub from: ValTy,
    pub to: ValTy,
    pub d: u32,
    pub s: u32,
}

#[derive(Clone, Debug)]
pub struct BuiltinX {
    pub f: BuiltinFn,
    pub ty: ValTy,
    pub dst_ty: ValTy,
    pub d: u32,
    pub args: [u32; 3],
}

#[derive(Clone, Debug)]
pub struct BuiltinPtrX {
    pub f: BuiltinPtrFn,
    pub ty: ValTy,
    pub d: u32,
    pub args: [u32; 2],
    pub out: u32,
    pub site: u32,
}

#[derive(Clone, Debug)]
pub struct CopyX {
    pub d: u32,
    pub s: u32,
    pub bytes: u32,
    pub load_site: u32,
    pub store_site: u32,
}

#[derive(Clone, Debug)]
pub struct AtomicX {
    pub op: AtomicOp,
    pub k: Scalar,
    pub d: u32,
    pub addr: u32,
    pub a: u32,
    pub b: u32,
    pub site: u32,
}

/// A decoded channel/pipe endpoint.
#[derive(Clone, Copy, Debug)]
pub enum Ep {
    /// Channel declaration index (position in `Module::channels`) and optional index register.
    Channel { decl: u32, index: u32 },
    /// Register holding the pipe argument index.
    Pipe { arg: u32 },
}

#[derive(Clone, Debug)]
pub struct FifoX {
    pub ep: Ep,
    pub ptr: u32,
    pub bytes: u32,
    pub blocking: bool,
    pub status: u32,
    pub site: u32,
}

#[derive(Clone, Debug)]
pub struct AsyncX {
    pub d: u32,
    pub s: u32,
    pub count: u32,
    pub stride: u32,
    pub elem_bytes: u32,
    pub event: u32,
    pub to_local: bool,
    pub site: u32,
}

#[derive(Clone, Debug)]
pub struct PrintfX {
    pub fmt: u32,
    pub args: Vec<(u32, ValTy)>,
    pub d: u32,
}

/// What an image op does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageOpKind {
    /// `read_image*`: `d` receives 4 lanes of `family`.
    Read,
    /// `write_image*`: `d` holds the 4-lane color.
    Write,
    /// `get_image_*`: `d` receives `lanes` int lanes.
    Query(fpgacl_kernel_compiler::ir::ImageQuery),
}

#[derive(Clone, Debug)]
pub struct ImageX {
    pub what: ImageOpKind,
    pub family: Scalar,
    pub d: u32,
    pub img: u32,
    /// `NONE` for the sampler-less read.
    pub sampler: u32,
    pub coord: u32,
    pub coord_lanes: u32,
    pub coord_float: bool,
    pub lanes: u32,
    pub site: u32,
}

/// A kernel ready to execute.
#[derive(Clone, Debug, Default)]
pub struct Code {
    pub ops: Vec<Op>,
    /// Source location of each op (same index).
    pub locs: Vec<Loc>,
    pub switches: Vec<SwitchX>,
    pub consts: Vec<(u32, Vec<u64>)>,
    pub shuffles: Vec<(u32, u32, Vec<u8>)>,
    pub converts: Vec<ConvertX>,
    pub bitcasts: Vec<BitcastX>,
    pub builtins: Vec<BuiltinX>,
    pub bptrs: Vec<BuiltinPtrX>,
    pub copies: Vec<CopyX>,
    pub atomics: Vec<AtomicX>,
    pub fifos: Vec<FifoX>,
    pub asyncs: Vec<AsyncX>,
    pub printfs: Vec<PrintfX>,
    pub images: Vec<ImageX>,
    /// Slots of the register file.
    pub num_slots: u32,
    /// Whether any op needs the work-group to synchronise (barrier, wait_group_events).
    pub needs_sync: bool,
    /// Whether any op touches a channel or pipe.
    pub uses_fifos: bool,
    pub num_loops: u32,
    /// Registers holding constants written once: set in the register template at launch.
    pub const_init: Vec<(u32, u64)>,
    /// The kernel compiled to native code (the compiling backend), made at its first launch
    /// ([`super::jit::prepare`]); empty or `None` inside: the interpreter runs it.
    pub jit: super::jit::Slot,
}

#[cfg(test)]
mod tests {
    #[test]
    fn op_is_compact() {
        assert!(std::mem::size_of::<super::Op>() <= 24);
    }
}
