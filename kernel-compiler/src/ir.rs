//! The typed kernel IR: what the compiler produces, the FPGA analysis inspects and the device
//! model executes.
//!
//! # Shape
//! A [`Module`] holds one [`Function`] per kernel. Helper functions are inlined into their callers
//! during lowering (OpenCL C forbids recursion and the FPGA compiler inlines everything too), so
//! a kernel is one function: a list of basic [`Block`]s, each a list of [`Inst`]s ending in a
//! [`Terminator`].
//!
//! # Registers
//! Values live in a flat register file of 64-bit *slots* per work-item (`Function::num_slots`).
//! A [`Reg`] names the first slot of a value; a vector of `n` lanes occupies `n` consecutive
//! slots (`float4` at `Reg(8)` is slots 8..12). Registers are mutable (not SSA): each source
//! variable that is not in memory has a home register (named in `Function::reg_names`), which
//! the loop analysis uses to find loop-carried dependencies.
//!
//! Slot encoding, per lane: signed integers are sign-extended to 64 bits, unsigned integers and
//! `bool` (0/1) zero-extended, `float` is its IEEE bits in the low 32 bits, `double` its 64 bits,
//! `half` its 16 bits (half exists only in memory and in conversions).
//!
//! # Pointers and memory
//! A pointer is a 64-bit value `(region << REGION_SHIFT) | byte_offset`. Regions are fixed per
//! launch: [`REGION_NULL`] (so a NULL pointer faults), [`REGION_PRIVATE`] (the current work-item's
//! frame of `Function::frame_size` bytes: arrays, structs, address-taken variables),
//! [`REGION_LOCAL`] (the current work-group's local memory: `__local` variables at their
//! `local_offset`s, then `__local` pointer arguments in argument order), [`REGION_CONSTANT_DATA`]
//! (the module's program-scope `__constant` data), and `REGION_FIRST_ARG + i` for the memory object
//! bound to kernel argument `i`. Pointer arithmetic is integer arithmetic on the offset (a
//! signed number of `REGION_SHIFT` bits; the executor saturates a result outside it to an
//! out-of-bounds offset rather than wrapping); the executor bounds-checks every access against
//! its region. The offset field is much wider than any buffer, so an integer added to a
//! pointer's integer value lands out of bounds of its own region rather than in the next.
//!
//! # Access sites
//! Every load, store, atomic and channel/pipe operation on global, constant or local memory or
//! on a channel/pipe carries a [`SiteId`] into `Module::sites`; the device model counts against
//! it and the profiler shows it per source line. Private-memory accesses have no site.

use crate::source::{Loc, SourceMap};
use serde::{Deserialize, Serialize};

/// Bits of a pointer below the region number.
pub const REGION_SHIFT: u32 = 52;
/// Mask of the byte offset in a pointer.
pub const OFFSET_MASK: u64 = (1u64 << REGION_SHIFT) - 1;
pub const REGION_NULL: u64 = 0;
pub const REGION_PRIVATE: u64 = 1;
pub const REGION_LOCAL: u64 = 2;
pub const REGION_CONSTANT_DATA: u64 = 3;
/// Region of kernel argument 0; argument `i` is `REGION_FIRST_ARG + i`.
pub const REGION_FIRST_ARG: u64 = 4;

/// `CL_DEVICE_MAX_WORK_GROUP_SIZE` (and each `CL_DEVICE_MAX_WORK_ITEM_SIZES`) of the emulated
/// device, as Intel's FPGA runtime reports it (`INT_MAX`): the only device-wide limit on a
/// work-group.
pub const DEVICE_MAX_WORK_GROUP_SIZE: u64 = 2_147_483_647;

/// `CL_DEVICE_MAX_READ_IMAGE_ARGS` and `CL_DEVICE_MAX_WRITE_IMAGE_ARGS` of the emulated device
/// (what Intel's FPGA runtime reports with image support); a kernel with more is refused.
pub const DEVICE_MAX_IMAGE_ARGS: u32 = 128;

/// Makes a pointer value.
pub const fn make_ptr(region: u64, offset: u64) -> u64 {
    (region << REGION_SHIFT) | (offset & OFFSET_MASK)
}

/// First slot of a value in the register file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Reg(pub u32);

impl Reg {
    /// The register of lane `i` of a vector value starting at `self`.
    pub fn lane(self, i: u32) -> Reg {
        Reg(self.0 + i)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct BlockId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SiteId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct LoopId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ChannelId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct StrId(pub u32);

/// Scalar element kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Scalar {
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    F32,
    F64,
}

impl Scalar {
    /// Size in bytes in memory (`bool` is 1 byte).
    pub fn size(self) -> u32 {
        match self {
            Scalar::Bool | Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 | Scalar::F16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::I64 | Scalar::U64 | Scalar::F64 => 8,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F16 | Scalar::F32 | Scalar::F64)
    }
    pub fn is_signed(self) -> bool {
        matches!(self, Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64)
    }
    /// The OpenCL C spelling (`int`, `ulong`, ...).
    pub fn c_name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::I8 => "char",
            Scalar::U8 => "uchar",
            Scalar::I16 => "short",
            Scalar::U16 => "ushort",
            Scalar::I32 => "int",
            Scalar::U32 => "uint",
            Scalar::I64 => "long",
            Scalar::U64 => "ulong",
            Scalar::F16 => "half",
            Scalar::F32 => "float",
            Scalar::F64 => "double",
        }
    }
}

/// The type of a register value: a scalar kind and a lane count (1 for scalars; 2, 3, 4, 8, 16
/// for vectors). Pointers are `U64` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ValTy {
    pub scalar: Scalar,
    pub lanes: u8,
}

impl ValTy {
    pub const fn scalar(scalar: Scalar) -> Self {
        ValTy { scalar, lanes: 1 }
    }
    pub const fn vector(scalar: Scalar, lanes: u8) -> Self {
        ValTy { scalar, lanes }
    }
    /// Bytes of the value in memory as a load/store moves them (3-lane vectors move 3 elements).
    pub fn bytes(self) -> u32 {
        self.scalar.size() * self.lanes as u32
    }
}

/// OpenCL address spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AddrSpace {
    Private,
    Global,
    Constant,
    Local,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Integer division faults on a zero divisor (and on MIN / -1).
    Div,
    Rem,
    And,
    Or,
    Xor,
    /// Shift counts are taken modulo the element width in bits, as OpenCL C specifies.
    Shl,
    /// Arithmetic for signed kinds, logical for unsigned.
    Shr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UnOp {
    Neg,
    /// Bitwise complement `~`.
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// Rounding mode of a conversion (`convert_T_rte` ...). `Default` is round-to-zero for float to
/// integer and round-to-nearest-even for conversions to floating types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rounding {
    Default,
    Rte,
    Rtz,
    Rtp,
    Rtn,
}

/// Work-item and compute-unit queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WorkItemFn {
    GlobalId,
    LocalId,
    GroupId,
    GlobalSize,
    LocalSize,
    NumGroups,
    GlobalOffset,
    WorkDim,
    /// Intel's `get_compute_id(d)` for `num_compute_units` kernels.
    ComputeId,
}

/// Atomic read-modify-write operations (`atomic_*` and `atom_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AtomicOp {
    Add,
    Sub,
    Xchg,
    Inc,
    Dec,
    CmpXchg,
    Min,
    Max,
    And,
    Or,
    Xor,
}

/// Builtin functions computed lane-wise by the executor (everything that is neither memory,
/// synchronisation, a conversion nor a work-item query). `native_*` and `half_*` variants map to
/// the exact function. The argument count is fixed per function; see [`BuiltinFn::arity`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BuiltinFn {
    // math, 1 argument
    Acos,
    Acosh,
    Acospi,
    Asin,
    Asinh,
    Asinpi,
    Atan,
    Atanh,
    Atanpi,
    Cbrt,
    Ceil,
    Cos,
    Cosh,
    Cospi,
    Erf,
    Erfc,
    Exp,
    Exp2,
    Exp10,
    Expm1,
    Fabs,
    Floor,
    Ilogb,
    Lgamma,
    Log,
    Log2,
    Log10,
    Log1p,
    Logb,
    Rint,
    Round,
    Rsqrt,
    Sin,
    Sinh,
    Sinpi,
    Sqrt,
    Tan,
    Tanh,
    Tanpi,
    Tgamma,
    Trunc,
    Nan,
    Recip,
    // math, 2 arguments
    Atan2,
    Atan2pi,
    Copysign,
    Fdim,
    Fmax,
    Fmin,
    Fmod,
    Hypot,
    Ldexp,
    Maxmag,
    Minmag,
    Nextafter,
    Pow,
    Pown,
    Powr,
    Remainder,
    Rootn,
    Divide,
    // math, 3 arguments
    Fma,
    Mad,
    // integer
    Abs,
    AbsDiff,
    AddSat,
    SubSat,
    Hadd,
    Rhadd,
    Clz,
    Ctz,
    Popcount,
    MulHi,
    MadHi,
    MadSat,
    Mul24,
    Mad24,
    Rotate,
    Upsample,
    // common (integer and float)
    Min,
    Max,
    Clamp,
    Degrees,
    Radians,
    Mix,
    Step,
    Smoothstep,
    Sign,
    // geometric (reduce over lanes; result lanes given by the instruction)
    Dot,
    Cross,
    Length,
    Distance,
    Normalize,
    // relational
    IsEqual,
    IsNotEqual,
    IsGreater,
    IsGreaterEqual,
    IsLess,
    IsLessEqual,
    IsLessGreater,
    IsFinite,
    IsInf,
    IsNan,
    IsNormal,
    IsOrdered,
    IsUnordered,
    Signbit,
    Any,
    All,
    Bitselect,
    Select,
}

impl BuiltinFn {
    /// Number of value arguments.
    pub fn arity(self) -> usize {
        use BuiltinFn::*;
        match self {
            Atan2 | Atan2pi | Copysign | Fdim | Fmax | Fmin | Fmod | Hypot | Ldexp | Maxmag
            | Minmag | Nextafter | Pow | Pown | Powr | Remainder | Rootn | Divide | AbsDiff
            | AddSat | SubSat | Hadd | Rhadd | MulHi | Mul24 | Rotate | Upsample | Min | Max
            | Step | Dot | Cross | Distance | IsEqual | IsNotEqual | IsGreater | IsGreaterEqual
            | IsLess | IsLessEqual | IsLessGreater | IsOrdered | IsUnordered => 2,
            Fma | Mad | MadHi | MadSat | Mad24 | Clamp | Mix | Smoothstep | Bitselect | Select => 3,
            _ => 1,
        }
    }
}

/// A builtin with pointer outputs (`fract`, `modf`, `frexp`, `remquo`, `sincos`, `lgamma_r`):
/// the second result is stored through `out_ptr` (private, local or global).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BuiltinPtrFn {
    Fract,
    Modf,
    Frexp,
    Remquo,
    Sincos,
    LgammaR,
}

/// A channel or pipe endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Endpoint {
    /// A program-scope channel; `index` selects the element of a channel array (flattened,
    /// row-major), `None` for a plain channel.
    Channel { id: ChannelId, index: Option<Reg> },
    /// A pipe kernel argument; the register holds the pipe argument's index (set at launch).
    Pipe { arg: Reg },
}

/// One instruction. `dst` registers receive `ty.lanes` slots.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Inst {
    /// Loads constant lane values (already in slot encoding).
    Const {
        dst: Reg,
        ty: ValTy,
        lanes: Vec<u64>,
    },
    /// Copies `lanes` slots.
    Mov {
        dst: Reg,
        src: Reg,
        lanes: u8,
    },
    /// Broadcasts one scalar slot to `lanes` slots.
    Splat {
        dst: Reg,
        src: Reg,
        lanes: u8,
    },
    /// `dst[i] = src[idx[i]]` (swizzles); `dst` and `src` may overlap.
    Shuffle {
        dst: Reg,
        src: Reg,
        idx: Vec<u8>,
    },
    Unary {
        op: UnOp,
        ty: ValTy,
        dst: Reg,
        src: Reg,
    },
    Binary {
        op: BinOp,
        ty: ValTy,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    /// Compares lane-wise. Scalars give `int` 1/0; vectors give lanes of the signed integer type
    /// of the operands' element size, -1/0 (`dst_ty`).
    Cmp {
        op: CmpOp,
        ty: ValTy,
        dst_ty: ValTy,
        dst: Reg,
        a: Reg,
        b: Reg,
    },
    /// `dst = cond ? a : b` for scalar `cond` (slot != 0), all lanes.
    Select {
        ty: ValTy,
        dst: Reg,
        cond: Reg,
        a: Reg,
        b: Reg,
    },
    /// Value conversion (C casts and `convert_T[_sat][_rounding]`).
    Convert {
        from: ValTy,
        to: ValTy,
        sat: bool,
        rounding: Rounding,
        dst: Reg,
        src: Reg,
    },
    /// Reinterprets the bytes of `src` (`as_T`, pointer <-> integer casts); sizes are equal.
    Bitcast {
        from: ValTy,
        to: ValTy,
        dst: Reg,
        src: Reg,
    },
    /// Lane-wise builtin. `ty` is the type of the first argument; `dst_ty` the result type.
    Builtin {
        f: BuiltinFn,
        ty: ValTy,
        dst_ty: ValTy,
        dst: Reg,
        args: [Reg; 3],
    },
    /// Builtin with a pointer output (see [`BuiltinPtrFn`]).
    BuiltinPtr {
        f: BuiltinPtrFn,
        ty: ValTy,
        dst: Reg,
        args: [Reg; 2],
        out_ptr: Reg,
        site: Option<SiteId>,
    },
    WorkItem {
        f: WorkItemFn,
        dst: Reg,
        dim: Reg,
    },
    /// `dst = make_ptr(REGION_PRIVATE, offset)`.
    FrameAddr {
        dst: Reg,
        offset: u32,
    },
    /// `dst = make_ptr(REGION_LOCAL, offset)` (a kernel's `__local` variable).
    LocalAddr {
        dst: Reg,
        offset: u32,
    },
    /// `dst = make_ptr(REGION_CONSTANT_DATA, offset)` (program-scope `__constant` data).
    ConstAddr {
        dst: Reg,
        offset: u32,
    },
    /// `dst = base + index * scale + disp` (index is a signed 64-bit slot).
    PtrAdd {
        dst: Reg,
        base: Reg,
        index: Option<Reg>,
        scale: u32,
        disp: i64,
    },
    Load {
        ty: ValTy,
        dst: Reg,
        addr: Reg,
        space: AddrSpace,
        site: Option<SiteId>,
    },
    Store {
        ty: ValTy,
        src: Reg,
        addr: Reg,
        space: AddrSpace,
        site: Option<SiteId>,
    },
    /// Copies `bytes` between memory locations (struct assignment, struct payloads).
    Copy {
        dst: Reg,
        src: Reg,
        bytes: u32,
        load_site: Option<SiteId>,
        store_site: Option<SiteId>,
    },
    /// Atomic read-modify-write; `dst` receives the old value. `b` is the comparand of
    /// `CmpXchg` (`atomic_cmpxchg(p, cmp, val)`: `b` = cmp, `a` = val).
    Atomic {
        op: AtomicOp,
        ty: ValTy,
        dst: Reg,
        addr: Reg,
        a: Reg,
        b: Reg,
        space: AddrSpace,
        site: SiteId,
    },
    /// Reads `bytes` from a channel or pipe into memory at `dst_ptr`. Blocking reads wait; a
    /// non-blocking read writes 1 (success) or 0 to `status` (as a `bool`/`int` slot).
    FifoRead {
        ep: Endpoint,
        dst_ptr: Reg,
        bytes: u32,
        blocking: bool,
        status: Option<Reg>,
        site: SiteId,
    },
    /// Writes `bytes` from memory at `src_ptr` to a channel or pipe; like `FifoRead` for status.
    FifoWrite {
        ep: Endpoint,
        src_ptr: Reg,
        bytes: u32,
        blocking: bool,
        status: Option<Reg>,
        site: SiteId,
    },
    /// Work-group barrier (`barrier`, `work_group_barrier`); flags are `CLK_*_MEM_FENCE` bits.
    Barrier {
        flags: u32,
    },
    /// `async_work_group_copy` / `async_work_group_strided_copy`: copy `count` elements of
    /// `elem_bytes` between global and local memory for the whole work-group. `stride` applies to
    /// the global side. `event` receives an event value for `wait_group_events`.
    AsyncCopy {
        dst: Reg,
        src: Reg,
        count: Reg,
        stride: Option<Reg>,
        elem_bytes: u32,
        event: Reg,
        to_local: bool,
        site: Option<SiteId>,
    },
    /// `wait_group_events`: waits for the work-group's async copies (acts as a barrier).
    WaitGroupEvents,
    /// `printf(fmt, args...)`; `dst` receives 0 (or -1 on a bad format).
    Printf {
        fmt: StrId,
        args: Vec<(Reg, ValTy)>,
        dst: Reg,
    },
    /// `read_imagef/i/ui(img, [sampler,] coord)`: `dst` receives 4 lanes of `family` (`F32`,
    /// `I32` or `U32`). `img` holds the image argument's pointer (its region starts with the
    /// image header, `device-model/src/image.rs`); `sampler` a `sampler_t` bit field (`None`:
    /// the sampler-less read, integer coordinates); `coord` has `coord_ty` (`int`/`float`
    /// scalar or 2/4 lanes).
    ImageRead {
        family: Scalar,
        dst: Reg,
        img: Reg,
        sampler: Option<Reg>,
        coord: Reg,
        coord_ty: ValTy,
        site: SiteId,
    },
    /// `write_imagef/i/ui(img, coord, color)`: `coord` has `coord_lanes` `int` lanes, `src` 4
    /// lanes of `family`.
    ImageWrite {
        family: Scalar,
        img: Reg,
        coord: Reg,
        coord_lanes: u8,
        src: Reg,
        site: SiteId,
    },
    /// `get_image_*` queries; `dst` receives `lanes` `int` lanes (`Dim`: 2 or 4).
    ImageQuery {
        q: ImageQuery,
        dst: Reg,
        img: Reg,
        lanes: u8,
    },
}

/// What `get_image_*` asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ImageQuery {
    Width,
    Height,
    Depth,
    ArraySize,
    ChannelDataType,
    ChannelOrder,
    /// `get_image_dim`: (width, height) or (width, height, depth, 0).
    Dim,
}

/// The image type of an image kernel argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ImageDim {
    D1,
    D1Buffer,
    D1Array,
    D2,
    D2Array,
    D3,
}

impl ImageDim {
    /// From the OpenCL C type name (`image2d_t` ...).
    pub fn from_type_name(n: &str) -> Option<ImageDim> {
        Some(match n {
            "image1d_t" => ImageDim::D1,
            "image1d_buffer_t" => ImageDim::D1Buffer,
            "image1d_array_t" => ImageDim::D1Array,
            "image2d_t" => ImageDim::D2,
            "image2d_array_t" => ImageDim::D2Array,
            "image3d_t" => ImageDim::D3,
            _ => return None,
        })
    }
    /// The OpenCL C type name.
    pub fn type_name(self) -> &'static str {
        match self {
            ImageDim::D1 => "image1d_t",
            ImageDim::D1Buffer => "image1d_buffer_t",
            ImageDim::D1Array => "image1d_array_t",
            ImageDim::D2 => "image2d_t",
            ImageDim::D2Array => "image2d_array_t",
            ImageDim::D3 => "image3d_t",
        }
    }
    /// The `cl_mem_object_type` an argument of this type takes.
    pub fn mem_object_type(self) -> u32 {
        match self {
            ImageDim::D2 => 0x10F1,
            ImageDim::D3 => 0x10F2,
            ImageDim::D2Array => 0x10F3,
            ImageDim::D1 => 0x10F4,
            ImageDim::D1Array => 0x10F5,
            ImageDim::D1Buffer => 0x10F6,
        }
    }
    /// Coordinates a kernel gives (array index included).
    pub fn coords(self) -> u8 {
        match self {
            ImageDim::D1 | ImageDim::D1Buffer => 1,
            ImageDim::D2 | ImageDim::D1Array => 2,
            ImageDim::D3 | ImageDim::D2Array => 3,
        }
    }
}

/// How a block ends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Terminator {
    Jump(BlockId),
    /// Jumps to `then` if the scalar slot `cond` is non-zero.
    Branch {
        cond: Reg,
        then: BlockId,
        els: BlockId,
    },
    /// Integer switch on a scalar slot (compared as the slot's 64-bit value).
    Switch {
        value: Reg,
        cases: Vec<(u64, BlockId)>,
        default: BlockId,
    },
    Return,
    /// Control cannot reach here (e.g. after an infinite loop).
    Unreachable,
}

/// A basic block.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Block {
    pub insts: Vec<Inst>,
    /// Source location of each instruction (parallel to `insts`; cold data for diagnostics).
    pub locs: Vec<Loc>,
    pub term: Terminator,
    pub term_loc: Loc,
    /// Innermost loop containing this block, if any.
    pub in_loop: Option<LoopId>,
    /// Set on the header block of a loop: entering it starts one iteration.
    pub loop_header: Option<LoopId>,
}

/// Loop pragmas as written before the loop.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopPragmas {
    /// `#pragma unroll` (None inside = full unroll) or `#pragma unroll N`.
    pub unroll: Option<Option<u32>>,
    /// `#pragma ivdep [array(name)] [safelen(N)]`.
    pub ivdep: Option<Ivdep>,
    pub ii: Option<u32>,
    pub max_concurrency: Option<u32>,
    pub loop_coalesce: Option<Option<u32>>,
    pub disable_loop_pipelining: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ivdep {
    pub array: Option<String>,
    pub safelen: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LoopKind {
    For,
    While,
    DoWhile,
}

/// A source loop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoopInfo {
    pub id: LoopId,
    pub kind: LoopKind,
    /// Location of the `for`/`while`/`do` keyword.
    pub loc: Loc,
    pub header: BlockId,
    pub parent: Option<LoopId>,
    pub pragmas: LoopPragmas,
    /// Trip count when the bounds are compile-time constants.
    pub const_trip_count: Option<u64>,
}

/// What an access site does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SiteKind {
    Load,
    Store,
    Atomic,
    ChannelRead,
    ChannelWrite,
    PipeRead,
    PipeWrite,
}

/// One memory or channel access in the source, counted by the device model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AccessSite {
    pub id: SiteId,
    /// Index of the kernel in `Module::kernels` the site belongs to.
    pub kernel: u32,
    pub kind: SiteKind,
    /// Address space for memory sites; `Global` is used for nothing else.
    pub space: AddrSpace,
    pub loc: Loc,
    /// Bytes moved per execution.
    pub width: u32,
    /// Innermost loop containing the site.
    pub in_loop: Option<LoopId>,
    /// Name of the variable, argument or channel accessed, when known (`A`, `c_in[2]`).
    pub target: String,
    /// Kernel argument index for accesses through a pointer argument, when known statically.
    pub arg: Option<u32>,
}

/// One program-scope channel (or array of channels).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChannelDecl {
    pub id: ChannelId,
    pub name: String,
    pub elem_size: u32,
    pub elem_type: String,
    /// FIFO depth from `__attribute__((depth(N)))`; 0 is a rendezvous.
    pub depth: u32,
    /// Array dimensions (empty for a single channel); elements are flattened row-major.
    pub dims: Vec<u32>,
    /// `io("name")` attribute.
    pub io: Option<String>,
    pub loc: Loc,
}

impl ChannelDecl {
    /// Number of channels this declaration makes.
    pub fn count(&self) -> u32 {
        self.dims.iter().product::<u32>().max(1)
    }
}

/// Address qualifier of a kernel argument (`CL_KERNEL_ARG_ADDRESS_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArgAddress {
    Global,
    Constant,
    Local,
    Private,
}

/// Access qualifier of a kernel argument (`CL_KERNEL_ARG_ACCESS_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArgAccess {
    None,
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

/// How a kernel argument is passed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ArgKind {
    /// A scalar or vector by value: `clSetKernelArg` bytes are decoded into `ty` lanes.
    Value { ty: ValTy },
    /// A pointer to global or constant memory: `clSetKernelArg` takes a `cl_mem` (or NULL).
    /// The register receives `make_ptr(REGION_FIRST_ARG + index, 0)`.
    Buffer { space: AddrSpace, elem_size: u32 },
    /// A `__local` pointer: `clSetKernelArg(size, NULL)` sets the allocation size.
    LocalPtr { elem_size: u32 },
    /// A struct or union by value, `size` bytes copied into the frame at `frame_offset`; the
    /// register receives a private pointer to it.
    ByValue {
        size: u32,
        align: u32,
        frame_offset: u32,
    },
    /// A `pipe T` argument bound to a `clCreatePipe` object; `packet_size` = sizeof(T).
    Pipe {
        packet_size: u32,
        write: bool,
        blocking: bool,
    },
    /// An image (`image2d_t` ...): `clSetKernelArg` takes an image `cl_mem` of the matching
    /// type; the register receives `make_ptr(REGION_FIRST_ARG + index, 0)` over the image's
    /// whole memory (header, then pixels). `write` for `write_only`.
    Image { dim: ImageDim, write: bool },
    /// A `sampler_t`: `clSetKernelArg` takes a `cl_sampler`; the register receives its
    /// kernel-side bit field (`CLK_*` values).
    Sampler,
}

/// A kernel argument and its metadata (for `clSetKernelArg` and `clGetKernelArgInfo`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelArg {
    pub name: String,
    /// Type as written, e.g. `float*`, `int4`, `struct point`.
    pub type_name: String,
    pub address: ArgAddress,
    pub access: ArgAccess,
    pub is_const: bool,
    pub is_restrict: bool,
    pub is_volatile: bool,
    pub is_pipe: bool,
    pub kind: ArgKind,
    /// Size `clSetKernelArg` must be given (pointer args: `sizeof(cl_mem)` = 8).
    pub size: u32,
    pub reg: Reg,
}

/// Kernel attributes from `__attribute__((...))`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelAttrs {
    pub reqd_work_group_size: Option<[u32; 3]>,
    pub max_work_group_size: Option<u32>,
    /// `num_compute_units(X[,Y[,Z]])`; `[1,1,1]` when absent.
    pub num_compute_units: [u32; 3],
    pub num_simd_work_items: Option<u32>,
    pub autorun: bool,
    pub max_global_work_dim: Option<u32>,
    pub uses_global_work_offset: Option<bool>,
    pub task: bool,
    pub vec_type_hint: Option<String>,
    /// `work_group_size_hint(X, Y, Z)` (reported by `CL_KERNEL_ATTRIBUTES`).
    #[serde(default)]
    pub work_group_size_hint: Option<[u32; 3]>,
}

/// A compiled kernel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Function {
    pub name: String,
    pub loc: Loc,
    pub args: Vec<KernelArg>,
    pub attrs: KernelAttrs,
    /// Single work-item by the guide's rules (no work-item id queries and no barrier, or
    /// `reqd_work_group_size(1,1,1)`, or `max_global_work_dim(0)`, or `task`).
    pub single_work_item: bool,
    pub num_slots: u32,
    /// Bytes of the private frame (arrays, structs, address-taken variables).
    pub frame_size: u32,
    /// Bytes of `__local` variables declared in the kernel (local pointer args come after).
    pub local_size: u32,
    pub blocks: Vec<Block>,
    /// Entry block is `BlockId(0)`.
    pub loops: Vec<LoopInfo>,
    /// Home registers of named source variables (for analysis and dumps).
    pub reg_names: Vec<(Reg, ValTy, String)>,
    /// Whether the kernel reads or writes any channel or pipe.
    pub uses_fifos: bool,
    /// Whether the kernel calls `barrier`.
    pub uses_barrier: bool,
    /// Named objects in the private frame (arrays, structs, address-taken variables) and
    /// `__local` variables of the kernel, for the static analysis (shift registers vs RAM,
    /// local memory banking) and dumps. Empty when the front end does not fill it in.
    #[serde(default)]
    pub mem_vars: Vec<MemVar>,
}

/// A named object in private or local memory (see [`Function::mem_vars`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemVar {
    pub name: String,
    /// `Private` (offset into the frame) or `Local` (offset into the work-group's local memory).
    pub space: Option<AddrSpace>,
    /// Byte offset of the object (what `FrameAddr` / `LocalAddr` of it give).
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// Size of one array element in bytes (the object's size for non-arrays).
    pub elem_size: u32,
    /// Array dimensions, outermost first (empty for non-arrays).
    pub dims: Vec<u32>,
    /// Declaration location.
    pub loc: Loc,
    /// `numbanks(N)` attribute.
    pub numbanks: Option<u32>,
    /// `bank_bits(b, ...)` attribute.
    pub bank_bits: Vec<u32>,
    /// `singlepump` (1) or `doublepump` (2) attribute.
    pub pump: Option<u8>,
}

/// A compiled program: all kernels, channels, sites and constant data of one build.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Module {
    pub kernels: Vec<Function>,
    pub channels: Vec<ChannelDecl>,
    pub sites: Vec<AccessSite>,
    /// Program-scope `__constant` data, addressed through `REGION_CONSTANT_DATA`.
    pub constant_data: Vec<u8>,
    /// `printf` format strings.
    pub strings: Vec<String>,
    /// Every file of the build (main sources and includes), for diagnostics and the profiler.
    pub sources: SourceMap,
}

impl Module {
    pub fn kernel(&self, name: &str) -> Option<&Function> {
        self.kernels.iter().find(|k| k.name == name)
    }
}

/// Most private memory (frames and registers) the emulator keeps for the work-items of one
/// work-group that are alive at the same time (all items of a group with barriers, one item
/// otherwise). Launches over it fail with `CL_OUT_OF_RESOURCES`; `fpgacl aoc` warns of kernels
/// whose largest possible work-group would need more.
pub const MAX_GROUP_PRIVATE_BYTES: u64 = 1 << 30;
