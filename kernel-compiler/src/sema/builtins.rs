//! The OpenCL C 1.2 builtin function table (plus Intel channels, 2.0 pipes, `get_compute_id`,
//! `__fpga_reg`): each name maps to an overload family that the lowering checks arguments
//! against.

use crate::ir::{AtomicOp, BuiltinFn, BuiltinPtrFn, Rounding, WorkItemFn};
use crate::sema::types::{builtin_type, Type};

/// How a builtin's arguments are checked and what it lowers to.
#[derive(Clone, Debug, PartialEq)]
pub enum BuiltinKind {
    /// `size_t f(uint dim)` (`get_work_dim` takes nothing and returns `uint`).
    WorkItem(WorkItemFn),
    /// `get_local_linear_id()` (false) / `get_global_linear_id()` (true), OpenCL 2.0.
    LinearId(bool),
    /// `gentype f(gentype)` over float types.
    Float1(BuiltinFn),
    /// `gentype f(gentype, gentype)` over float types.
    Float2(BuiltinFn),
    /// `gentype f(gentype, gentype|scalar)` over float types (`fmin`, `fmax`).
    Float2Scalar(BuiltinFn),
    /// `gentype f(gentype, intn|int)` (`ldexp`, `pown`, `rootn`).
    Float2Int(BuiltinFn),
    /// `gentype f(gentype, gentype, gentype)` over float types.
    Float3(BuiltinFn),
    /// `intn ilogb(gentype)`.
    Ilogb,
    /// `floatn nan(uintn)`.
    Nan,
    /// Float function with a pointer output.
    FloatPtr(BuiltinPtrFn),
    /// `ugentype f(igentype)` (`abs`).
    Abs,
    /// `ugentype abs_diff(igentype, igentype)`.
    AbsDiff,
    /// `igentype f(igentype)`.
    Int1(BuiltinFn),
    /// `igentype f(igentype, igentype)`.
    Int2(BuiltinFn),
    /// `igentype f(igentype, igentype, igentype)`.
    Int3(BuiltinFn),
    /// `upsample(hi, lo)` -> the integer type of twice the width.
    Upsample,
    /// `min`/`max`: integer or float, second argument may be a scalar.
    MinMax(BuiltinFn),
    /// `clamp(x, lo, hi)`: integer or float, bounds may be scalars.
    Clamp,
    /// `mix(x, y, a)`: `a` may be a scalar.
    Mix,
    /// `step(edge, x)`: `edge` may be a scalar.
    Step,
    /// `smoothstep(e0, e1, x)`: edges may be scalars.
    Smoothstep,
    /// `dot`, `distance` (-> scalar), `cross` (3/4 lanes), `length` (-> scalar), `normalize`.
    Geometric(BuiltinFn),
    /// `isequal` ... : scalar -> int, vector -> signed integer vector.
    Rel2(BuiltinFn),
    /// `isfinite` ... : as `Rel2` with one argument.
    Rel1(BuiltinFn),
    /// `any`/`all` -> int.
    AnyAll(BuiltinFn),
    Bitselect,
    Select,
    /// `shuffle(x, mask)` (false) / `shuffle2(x, y, mask)` (true).
    Shuffle(bool),
    /// `vloadn(offset, p)`.
    VLoad(u8),
    /// `vstoren(data, offset, p)`.
    VStore(u8),
    /// `vload_half[n]` / `vloada_halfn` (n = 1 for the scalar form).
    VLoadHalf(u8),
    /// `vstore_half[n][_rounding]` / `vstorea_halfn`.
    VStoreHalf(u8, Rounding),
    /// `convert_T[_sat][_rounding]`.
    Convert {
        to: Type,
        sat: bool,
        rounding: Rounding,
    },
    /// `as_T`.
    As(Type),
    Barrier,
    MemFence,
    /// `async_work_group_copy` (false) / `async_work_group_strided_copy` (true).
    AsyncCopy(bool),
    WaitGroupEvents,
    Prefetch,
    Atomic(AtomicOp),
    Printf,
    ReadChannel {
        nb: bool,
    },
    WriteChannel {
        nb: bool,
    },
    ReadPipe,
    WritePipe,
    /// `__fpga_reg(x)`: the identity.
    FpgaReg,
}

fn float1(name: &str) -> Option<BuiltinFn> {
    use BuiltinFn::*;
    Some(match name {
        "acos" => Acos,
        "acosh" => Acosh,
        "acospi" => Acospi,
        "asin" => Asin,
        "asinh" => Asinh,
        "asinpi" => Asinpi,
        "atan" => Atan,
        "atanh" => Atanh,
        "atanpi" => Atanpi,
        "cbrt" => Cbrt,
        "ceil" => Ceil,
        "cos" => Cos,
        "cosh" => Cosh,
        "cospi" => Cospi,
        "erf" => Erf,
        "erfc" => Erfc,
        "exp" => Exp,
        "exp2" => Exp2,
        "exp10" => Exp10,
        "expm1" => Expm1,
        "fabs" => Fabs,
        "floor" => Floor,
        "lgamma" => Lgamma,
        "log" => Log,
        "log2" => Log2,
        "log10" => Log10,
        "log1p" => Log1p,
        "logb" => Logb,
        "rint" => Rint,
        "round" => Round,
        "rsqrt" => Rsqrt,
        "sin" => Sin,
        "sinh" => Sinh,
        "sinpi" => Sinpi,
        "sqrt" => Sqrt,
        "tan" => Tan,
        "tanh" => Tanh,
        "tanpi" => Tanpi,
        "tgamma" => Tgamma,
        "trunc" => Trunc,
        "recip" => Recip,
        "degrees" => Degrees,
        "radians" => Radians,
        "sign" => Sign,
        _ => return None,
    })
}

fn float2(name: &str) -> Option<BuiltinFn> {
    use BuiltinFn::*;
    Some(match name {
        "atan2" => Atan2,
        "atan2pi" => Atan2pi,
        "copysign" => Copysign,
        "fdim" => Fdim,
        "fmod" => Fmod,
        "hypot" => Hypot,
        "maxmag" => Maxmag,
        "minmag" => Minmag,
        "nextafter" => Nextafter,
        "pow" => Pow,
        "powr" => Powr,
        "remainder" => Remainder,
        "divide" => Divide,
        _ => return None,
    })
}

/// Looks a builtin up by name.
pub fn classify(name: &str) -> Option<BuiltinKind> {
    use BuiltinKind as K;
    // native_ and half_ variants compute the exact function.
    for prefix in ["native_", "half_"] {
        if let Some(base) = name.strip_prefix(prefix) {
            if let Some(f) = float1(base) {
                return Some(K::Float1(f));
            }
            if let Some(f) = float2(base) {
                return Some(K::Float2(f));
            }
            return None;
        }
    }
    if let Some(f) = float1(name) {
        if matches!(f, BuiltinFn::Recip) {
            return None;
        }
        return Some(K::Float1(f));
    }
    if let Some(f) = float2(name) {
        if matches!(f, BuiltinFn::Divide) {
            return None;
        }
        return Some(K::Float2(f));
    }
    if let Some(k) = classify_convert(name) {
        return Some(k);
    }
    use BuiltinFn as F;
    Some(match name {
        "get_global_id" => K::WorkItem(WorkItemFn::GlobalId),
        "get_local_id" => K::WorkItem(WorkItemFn::LocalId),
        "get_group_id" => K::WorkItem(WorkItemFn::GroupId),
        "get_global_size" => K::WorkItem(WorkItemFn::GlobalSize),
        "get_local_size" | "get_enqueued_local_size" => K::WorkItem(WorkItemFn::LocalSize),
        "get_num_groups" => K::WorkItem(WorkItemFn::NumGroups),
        "get_global_offset" => K::WorkItem(WorkItemFn::GlobalOffset),
        "get_work_dim" => K::WorkItem(WorkItemFn::WorkDim),
        "get_compute_id" => K::WorkItem(WorkItemFn::ComputeId),
        "get_local_linear_id" => K::LinearId(false),
        "get_global_linear_id" => K::LinearId(true),
        "fmin" => K::Float2Scalar(F::Fmin),
        "fmax" => K::Float2Scalar(F::Fmax),
        "ldexp" => K::Float2Int(F::Ldexp),
        "pown" => K::Float2Int(F::Pown),
        "rootn" => K::Float2Int(F::Rootn),
        "fma" => K::Float3(F::Fma),
        "mad" => K::Float3(F::Mad),
        "ilogb" => K::Ilogb,
        "nan" => K::Nan,
        "fract" => K::FloatPtr(BuiltinPtrFn::Fract),
        "modf" => K::FloatPtr(BuiltinPtrFn::Modf),
        "frexp" => K::FloatPtr(BuiltinPtrFn::Frexp),
        "remquo" => K::FloatPtr(BuiltinPtrFn::Remquo),
        "sincos" => K::FloatPtr(BuiltinPtrFn::Sincos),
        "lgamma_r" => K::FloatPtr(BuiltinPtrFn::LgammaR),
        "abs" => K::Abs,
        "abs_diff" => K::AbsDiff,
        "add_sat" => K::Int2(F::AddSat),
        "sub_sat" => K::Int2(F::SubSat),
        "hadd" => K::Int2(F::Hadd),
        "rhadd" => K::Int2(F::Rhadd),
        "clz" => K::Int1(F::Clz),
        "ctz" => K::Int1(F::Ctz),
        "popcount" => K::Int1(F::Popcount),
        "mul_hi" => K::Int2(F::MulHi),
        "mad_hi" => K::Int3(F::MadHi),
        "mad_sat" => K::Int3(F::MadSat),
        "mul24" => K::Int2(F::Mul24),
        "mad24" => K::Int3(F::Mad24),
        "rotate" => K::Int2(F::Rotate),
        "upsample" => K::Upsample,
        "min" => K::MinMax(F::Min),
        "max" => K::MinMax(F::Max),
        "clamp" => K::Clamp,
        "mix" => K::Mix,
        "step" => K::Step,
        "smoothstep" => K::Smoothstep,
        "dot" => K::Geometric(F::Dot),
        "cross" => K::Geometric(F::Cross),
        "length" | "fast_length" => K::Geometric(F::Length),
        "distance" | "fast_distance" => K::Geometric(F::Distance),
        "normalize" | "fast_normalize" => K::Geometric(F::Normalize),
        "isequal" => K::Rel2(F::IsEqual),
        "isnotequal" => K::Rel2(F::IsNotEqual),
        "isgreater" => K::Rel2(F::IsGreater),
        "isgreaterequal" => K::Rel2(F::IsGreaterEqual),
        "isless" => K::Rel2(F::IsLess),
        "islessequal" => K::Rel2(F::IsLessEqual),
        "islessgreater" => K::Rel2(F::IsLessGreater),
        "isordered" => K::Rel2(F::IsOrdered),
        "isunordered" => K::Rel2(F::IsUnordered),
        "isfinite" => K::Rel1(F::IsFinite),
        "isinf" => K::Rel1(F::IsInf),
        "isnan" => K::Rel1(F::IsNan),
        "isnormal" => K::Rel1(F::IsNormal),
        "signbit" => K::Rel1(F::Signbit),
        "any" => K::AnyAll(F::Any),
        "all" => K::AnyAll(F::All),
        "bitselect" => K::Bitselect,
        "shuffle" => K::Shuffle(false),
        "shuffle2" => K::Shuffle(true),
        "select" => K::Select,
        "vload_half" | "vloada_half" => K::VLoadHalf(1),
        "barrier" | "work_group_barrier" => K::Barrier,
        "mem_fence" | "read_mem_fence" | "write_mem_fence" => K::MemFence,
        "async_work_group_copy" => K::AsyncCopy(false),
        "async_work_group_strided_copy" => K::AsyncCopy(true),
        "wait_group_events" => K::WaitGroupEvents,
        "prefetch" => K::Prefetch,
        "printf" => K::Printf,
        "read_channel_intel" | "read_channel_altera" => K::ReadChannel { nb: false },
        "read_channel_nb_intel" | "read_channel_nb_altera" => K::ReadChannel { nb: true },
        "write_channel_intel" | "write_channel_altera" => K::WriteChannel { nb: false },
        "write_channel_nb_intel" | "write_channel_nb_altera" => K::WriteChannel { nb: true },
        "read_pipe" => K::ReadPipe,
        "write_pipe" => K::WritePipe,
        "__fpga_reg" => K::FpgaReg,
        _ => return classify_rest(name),
    })
}

fn classify_rest(name: &str) -> Option<BuiltinKind> {
    use BuiltinKind as K;
    if let Some(op) = name
        .strip_prefix("atomic_")
        .or_else(|| name.strip_prefix("atom_"))
        .and_then(atomic_op)
    {
        return Some(K::Atomic(op));
    }
    let width = |s: &str| -> Option<u8> {
        match s {
            "2" => Some(2),
            "3" => Some(3),
            "4" => Some(4),
            "8" => Some(8),
            "16" => Some(16),
            _ => None,
        }
    };
    if let Some(n) = name.strip_prefix("vload").and_then(width) {
        return Some(K::VLoad(n));
    }
    if let Some(n) = name.strip_prefix("vstore").and_then(width) {
        return Some(K::VStore(n));
    }
    for p in ["vload_half", "vloada_half"] {
        if let Some(n) = name.strip_prefix(p).and_then(width) {
            return Some(K::VLoadHalf(n));
        }
    }
    for p in ["vstore_half", "vstorea_half"] {
        if let Some(rest) = name.strip_prefix(p) {
            let (w, r) = match rest.find('_') {
                Some(i) => (&rest[..i], Some(&rest[i + 1..])),
                None => (rest, None),
            };
            let n = if w.is_empty() { 1 } else { width(w)? };
            let rounding = match r {
                None => Rounding::Default,
                Some(r) => rounding(r)?,
            };
            return Some(K::VStoreHalf(n, rounding));
        }
    }
    None
}

fn atomic_op(s: &str) -> Option<AtomicOp> {
    Some(match s {
        "add" => AtomicOp::Add,
        "sub" => AtomicOp::Sub,
        "xchg" => AtomicOp::Xchg,
        "inc" => AtomicOp::Inc,
        "dec" => AtomicOp::Dec,
        "cmpxchg" => AtomicOp::CmpXchg,
        "min" => AtomicOp::Min,
        "max" => AtomicOp::Max,
        "and" => AtomicOp::And,
        "or" => AtomicOp::Or,
        "xor" => AtomicOp::Xor,
        _ => return None,
    })
}

fn rounding(s: &str) -> Option<Rounding> {
    Some(match s {
        "rte" => Rounding::Rte,
        "rtz" => Rounding::Rtz,
        "rtp" => Rounding::Rtp,
        "rtn" => Rounding::Rtn,
        _ => return None,
    })
}

/// `convert_T[_sat][_rounding]` and `as_T`.
fn classify_convert(name: &str) -> Option<BuiltinKind> {
    if let Some(t) = name.strip_prefix("as_") {
        let ty = builtin_type(t)?;
        if !ty.is_arith() || t == "bool" || t.starts_with("size") || t.contains("ptr") {
            return None;
        }
        return Some(BuiltinKind::As(ty));
    }
    let rest = name.strip_prefix("convert_")?;
    let mut parts = rest.split('_');
    let tname = parts.next()?;
    let ty = builtin_type(tname)?;
    if !ty.is_arith() || tname == "bool" {
        return None;
    }
    let mut sat = false;
    let mut rnd = Rounding::Default;
    let mut seen_round = false;
    for p in parts {
        if p == "sat" && !sat && !seen_round {
            sat = true;
        } else if !seen_round {
            rnd = rounding(p)?;
            seen_round = true;
        } else {
            return None;
        }
    }
    Some(BuiltinKind::Convert {
        to: ty,
        sat,
        rounding: rnd,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Scalar;

    #[test]
    fn names() {
        assert_eq!(classify("sqrt"), Some(BuiltinKind::Float1(BuiltinFn::Sqrt)));
        assert_eq!(
            classify("native_sqrt"),
            Some(BuiltinKind::Float1(BuiltinFn::Sqrt))
        );
        assert_eq!(
            classify("native_recip"),
            Some(BuiltinKind::Float1(BuiltinFn::Recip))
        );
        assert_eq!(classify("recip"), None);
        assert_eq!(
            classify("convert_int4_sat_rte"),
            Some(BuiltinKind::Convert {
                to: Type::Vector(Scalar::I32, 4),
                sat: true,
                rounding: Rounding::Rte
            })
        );
        assert_eq!(classify("convert_int4_rte_sat"), None);
        assert_eq!(
            classify("as_float"),
            Some(BuiltinKind::As(Type::Scalar(Scalar::F32)))
        );
        assert_eq!(classify("vload16"), Some(BuiltinKind::VLoad(16)));
        assert_eq!(classify("vload5"), None);
        assert_eq!(
            classify("vstore_half4_rtz"),
            Some(BuiltinKind::VStoreHalf(4, Rounding::Rtz))
        );
        assert_eq!(
            classify("atom_cmpxchg"),
            Some(BuiltinKind::Atomic(AtomicOp::CmpXchg))
        );
        assert_eq!(
            classify("read_channel_nb_altera"),
            Some(BuiltinKind::ReadChannel { nb: true })
        );
        assert_eq!(classify("sqrtf"), None);
    }
}
