//! Lane-wise builtin functions (math, integer, common, geometric, relational).
//!
//! Float functions of `float` arguments are evaluated in double precision and rounded once to
//! float (well within OpenCL's ULP bounds, and correctly rounded for the basic operations);
//! the functions whose result must be exact in float (`fma`, `nextafter`, `fmod`, `remainder`,
//! rounding functions, ...) are exact. Integer functions compute in 128 bits and wrap or
//! saturate at the element width.

use super::code::BuiltinX;
use super::values::*;
use fpgacl_kernel_compiler::ir::{BuiltinFn, BuiltinPtrFn, Scalar};
use std::f64::consts::PI;

/// Evaluates a builtin instruction on the register file.
pub fn eval(x: &BuiltinX, regs: &mut [u64]) {
    use BuiltinFn::*;
    let n = x.ty.lanes.max(1) as usize;
    let k = x.ty.scalar;
    let dk = x.dst_ty.scalar;
    let vec = x.dst_ty.lanes > 1;
    let arg = |j: usize, i: usize| -> u64 {
        let r = x.args[j];
        if r == u32::MAX {
            0
        } else {
            regs[r as usize + i]
        }
    };
    let mut out = [0u64; 16];
    let mut dn = x.dst_ty.lanes.max(1) as usize;
    match x.f {
        Dot => {
            let mut acc = 0f64;
            let mut acc32 = 0f32;
            for i in 0..n {
                let (a, b) = (float_val(k, arg(0, i)), float_val(k, arg(1, i)));
                acc += a * b;
                acc32 += (a as f32) * (b as f32);
            }
            dn = 1;
            out[0] = if k == Scalar::F64 {
                of_f64(acc)
            } else {
                enc_float(k, acc32 as f64)
            };
        }
        Length | Distance | Normalize => {
            let mut v = [0f64; 16];
            for (i, vi) in v.iter_mut().enumerate().take(n) {
                let a = float_val(k, arg(0, i));
                *vi = if x.f == Distance {
                    a - float_val(k, arg(1, i))
                } else {
                    a
                };
            }
            if x.f == Normalize {
                dn = n;
                for (o, r) in out.iter_mut().zip(normalize(&v[..n])) {
                    *o = enc_float(k, r);
                }
            } else {
                dn = 1;
                out[0] = enc_float(k, scaled_length(&v[..n]));
            }
        }
        Cross => {
            dn = n;
            let f = |j: usize, i: usize| float_val(k, arg(j, i));
            let c = [
                f(0, 1) * f(1, 2) - f(0, 2) * f(1, 1),
                f(0, 2) * f(1, 0) - f(0, 0) * f(1, 2),
                f(0, 0) * f(1, 1) - f(0, 1) * f(1, 0),
            ];
            for i in 0..n.min(3) {
                out[i] = enc_float(k, c[i]);
            }
            if n == 4 {
                out[3] = enc_float(k, 0.0);
            }
        }
        Any | All => {
            dn = 1;
            let msb = |v: u64| (v >> (bits(k) - 1)) & 1 == 1;
            let r = if x.f == Any {
                (0..n).any(|i| msb(arg(0, i)))
            } else {
                (0..n).all(|i| msb(arg(0, i)))
            };
            out[0] = r as u64;
        }
        _ => {
            for (i, o) in out.iter_mut().enumerate().take(n) {
                *o = lane(x.f, k, dk, vec, arg(0, i), arg(1, i), arg(2, i));
            }
            dn = dn.min(n);
        }
    }
    let d = x.d as usize;
    let end = (d + dn).min(regs.len());
    regs[d..end].copy_from_slice(&out[..end - d]);
}

fn truth(vec: bool, dk: Scalar, r: bool) -> u64 {
    if vec {
        norm(dk, 0u64.wrapping_sub(r as u64))
    } else {
        r as u64
    }
}

/// One lane of a lane-wise builtin.
pub fn lane(f: BuiltinFn, k: Scalar, dk: Scalar, vec: bool, a: u64, b: u64, c: u64) -> u64 {
    use BuiltinFn::*;
    if k.is_float() {
        let x = float_val(k, a);
        let y = float_val(k, b);
        let z = float_val(k, c);
        let e = |r: f64| enc_float(k, r);
        let f32k = k != Scalar::F64;
        return match f {
            Acos => e(x.acos()),
            Acosh => e(x.acosh()),
            Acospi => e(x.acos() / PI),
            Asin => e(x.asin()),
            Asinh => e(x.asinh()),
            Asinpi => e(x.asin() / PI),
            Atan => e(x.atan()),
            Atanh => e(x.atanh()),
            Atanpi => e(x.atan() / PI),
            Cbrt => e(x.cbrt()),
            Ceil => e(x.ceil()),
            Cos => e(x.cos()),
            Cosh => e(x.cosh()),
            Cospi => e(cospi(x)),
            Erf => e(libm::erf(x)),
            Erfc => e(libm::erfc(x)),
            Exp => e(x.exp()),
            Exp2 => e(x.exp2()),
            Exp10 => e(libm::exp10(x)),
            Expm1 => e(x.exp_m1()),
            Fabs => e(x.abs()),
            Floor => e(x.floor()),
            Ilogb => norm(Scalar::I32, libm::ilogb(x) as i64 as u64),
            Lgamma => e(libm::lgamma(x)),
            Log => e(x.ln()),
            Log2 => e(x.log2()),
            Log10 => e(x.log10()),
            Log1p => e(x.ln_1p()),
            Logb => e(logb(x)),
            Rint => e(x.round_ties_even()),
            Round => e(x.round()),
            Rsqrt => e(1.0 / x.sqrt()),
            Sin => e(x.sin()),
            Sinh => e(x.sinh()),
            Sinpi => e(sinpi(x)),
            Sqrt => e(x.sqrt()),
            Tan => e(x.tan()),
            Tanh => e(x.tanh()),
            Tanpi => e(sinpi(x) / cospi(x)),
            Tgamma => e(libm::tgamma(x)),
            Trunc => e(x.trunc()),
            Recip => e(1.0 / x),
            Atan2 => e(x.atan2(y)),
            Atan2pi => e(x.atan2(y) / PI),
            Copysign => e(x.copysign(y)),
            Fdim => e(if x > y {
                x - y
            } else if x.is_nan() || y.is_nan() {
                f64::NAN
            } else {
                0.0
            }),
            Fmax => e(x.max(y)),
            Fmin => e(x.min(y)),
            Fmod => e(x % y),
            Hypot => e(x.hypot(y)),
            Ldexp => e(libm::scalbn(
                x,
                int_val(Scalar::I32, norm(Scalar::I32, b)) as i32,
            )),
            Maxmag => e(if x.abs() > y.abs() {
                x
            } else if y.abs() > x.abs() {
                y
            } else {
                x.max(y)
            }),
            Minmag => e(if x.abs() < y.abs() {
                x
            } else if y.abs() < x.abs() {
                y
            } else {
                x.min(y)
            }),
            Nextafter => {
                if f32k {
                    of_f32(libm::nextafterf(x as f32, y as f32))
                } else {
                    of_f64(libm::nextafter(x, y))
                }
            }
            Pow => e(x.powf(y)),
            Pown => e(x.powf(int_val(Scalar::I32, norm(Scalar::I32, b)) as f64)),
            Powr => e(if x < 0.0 { f64::NAN } else { x.powf(y) }),
            Remainder => e(libm::remainder(x, y)),
            Rootn => {
                let n = int_val(Scalar::I32, norm(Scalar::I32, b)) as i64;
                e(rootn(x, n))
            }
            Divide => e(x / y),
            Fma => {
                if f32k {
                    of_f32((x as f32).mul_add(y as f32, z as f32))
                } else {
                    of_f64(x.mul_add(y, z))
                }
            }
            // A NaN result is the canonical quiet NaN: which operand's NaN a product keeps
            // when both are NaN depends on the operand order of the machine code, and the
            // compiling backend computes `mad` inline (`exec::jit`).
            Mad => {
                if f32k {
                    let r = (x as f32) * (y as f32) + (z as f32);
                    of_f32(if r.is_nan() { f32::NAN } else { r })
                } else {
                    let r = x * y + z;
                    of_f64(if r.is_nan() { f64::NAN } else { r })
                }
            }
            Min => e(if y < x { y } else { x }),
            Max => e(if x < y { y } else { x }),
            Clamp => e(x.max(y).min(z)),
            Degrees => {
                if f32k {
                    of_f32((x as f32) * (180.0f32 / std::f32::consts::PI))
                } else {
                    of_f64(x * (180.0 / PI))
                }
            }
            Radians => {
                if f32k {
                    of_f32((x as f32) * (std::f32::consts::PI / 180.0f32))
                } else {
                    of_f64(x * (PI / 180.0))
                }
            }
            Mix => {
                if f32k {
                    let (x, y, z) = (x as f32, y as f32, z as f32);
                    of_f32(x + (y - x) * z)
                } else {
                    of_f64(x + (y - x) * z)
                }
            }
            // step(edge, x): args are (edge, x)
            Step => e(if y < x { 0.0 } else { 1.0 }),
            Smoothstep => {
                // smoothstep(edge0, edge1, x)
                let t = ((z - x) / (y - x)).clamp(0.0, 1.0);
                if f32k {
                    let t = t as f32;
                    of_f32(t * t * (3.0 - 2.0 * t))
                } else {
                    of_f64(t * t * (3.0 - 2.0 * t))
                }
            }
            Sign => e(if x.is_nan() {
                0.0
            } else if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                x
            }),
            IsEqual => truth(vec, dk, x == y),
            IsNotEqual => truth(vec, dk, x != y),
            IsGreater => truth(vec, dk, x > y),
            IsGreaterEqual => truth(vec, dk, x >= y),
            IsLess => truth(vec, dk, x < y),
            IsLessEqual => truth(vec, dk, x <= y),
            IsLessGreater => truth(vec, dk, (x < y) | (x > y)),
            IsFinite => truth(vec, dk, x.is_finite()),
            IsInf => truth(vec, dk, x.is_infinite()),
            IsNan => truth(vec, dk, x.is_nan()),
            IsNormal => truth(
                vec,
                dk,
                if f32k {
                    (x as f32).is_normal()
                } else {
                    x.is_normal()
                },
            ),
            IsOrdered => truth(vec, dk, !x.is_nan() && !y.is_nan()),
            IsUnordered => truth(vec, dk, x.is_nan() || y.is_nan()),
            Signbit => truth(vec, dk, x.is_sign_negative()),
            Bitselect => (a & !c) | (b & c),
            Select => select(a, b, c, dk, vec, k),
            Nan => a,
            _ => int_lane(f, k, dk, vec, a, b, c),
        };
    }
    match f {
        Nan => {
            // nan(uintn): result type is the float type of the same size
            if dk == Scalar::F64 {
                of_f64(f64::from_bits(
                    0x7ff8_0000_0000_0000 | (a & 0x0007_ffff_ffff_ffff),
                ))
            } else {
                of_f32(f32::from_bits(0x7fc0_0000 | (a as u32 & 0x003f_ffff)))
            }
        }
        _ => int_lane(f, k, dk, vec, a, b, c),
    }
}

fn select(a: u64, b: u64, c: u64, _dk: Scalar, vec: bool, k: Scalar) -> u64 {
    let take_b = if vec {
        (c >> (bits(k) - 1)) & 1 == 1
    } else {
        c != 0
    };
    if take_b {
        b
    } else {
        a
    }
}

fn int_lane(f: BuiltinFn, k: Scalar, dk: Scalar, vec: bool, a: u64, b: u64, c: u64) -> u64 {
    use BuiltinFn::*;
    let w = bits(k);
    let mask: u64 = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    let (x, y, z) = (int_val(k, a), int_val(k, b), int_val(k, c));
    match f {
        Abs => norm(dk, x.unsigned_abs() as u64),
        AbsDiff => norm(dk, (x - y).unsigned_abs() as u64),
        AddSat => sat_int(k, x + y),
        SubSat => sat_int(k, x - y),
        Hadd => norm(k, ((x + y) >> 1) as u64),
        Rhadd => norm(k, ((x + y + 1) >> 1) as u64),
        Clz => {
            let m = a & mask;
            (m.leading_zeros() - (64 - w)) as u64
        }
        Ctz => {
            let m = a & mask;
            if m == 0 {
                w as u64
            } else {
                m.trailing_zeros() as u64
            }
        }
        Popcount => (a & mask).count_ones() as u64,
        MulHi => norm(k, mul_hi(k, x, y) as u64),
        MadHi => norm(k, (mul_hi(k, x, y) + z) as u64),
        MadSat => match x.checked_mul(y).and_then(|p| p.checked_add(z)) {
            Some(v) => sat_int(k, v),
            None => {
                let neg = (x < 0) != (y < 0);
                sat_int(k, if neg { i128::MIN } else { i128::MAX })
            }
        },
        Mul24 | Mad24 => {
            let t = |v: i128| {
                if k.is_signed() {
                    ((v as i64) << 40 >> 40) as i128
                } else {
                    v & 0xff_ffff
                }
            };
            let p = t(x) * t(y) + if f == Mad24 { z } else { 0 };
            norm(k, p as u64)
        }
        Rotate => {
            let s = (b as u32) & (w - 1);
            let m = a & mask;
            let r = if s == 0 {
                m
            } else {
                ((m << s) | (m >> (w - s))) & mask
            };
            norm(k, r)
        }
        Upsample => norm(dk, a.wrapping_shl(w) | (b & mask)),
        Min => {
            if y < x {
                b
            } else {
                a
            }
        }
        Max => {
            if x < y {
                b
            } else {
                a
            }
        }
        Clamp => {
            let v = x.max(y).min(z);
            norm(k, v as u64)
        }
        Bitselect => (a & !c) | (b & c),
        Select => select(a, b, c, dk, vec, k),
        IsEqual | IsNotEqual | IsGreater | IsGreaterEqual | IsLess | IsLessEqual => {
            let r = match f {
                IsEqual => x == y,
                IsNotEqual => x != y,
                IsGreater => x > y,
                IsGreaterEqual => x >= y,
                IsLess => x < y,
                _ => x <= y,
            };
            truth(vec, dk, r)
        }
        Signbit => truth(vec, dk, x < 0),
        Sign => norm(k, x.signum() as u64),
        // Float functions applied to integer arguments: convert (the compiler normally
        // converts first; this keeps the result meaningful).
        _ => {
            let fx = x as f64;
            let r = lane(
                f,
                Scalar::F64,
                dk,
                vec,
                of_f64(fx),
                of_f64(y as f64),
                of_f64(z as f64),
            );
            if dk.is_float() {
                convert(
                    Scalar::F64,
                    dk,
                    false,
                    fpgacl_kernel_compiler::ir::Rounding::Default,
                    r,
                )
            } else {
                r
            }
        }
    }
}

fn mul_hi(k: Scalar, x: i128, y: i128) -> i128 {
    let w = bits(k);
    if w == 64 {
        if k.is_signed() {
            (x * y) >> 64
        } else {
            (((x as u128) * (y as u128)) >> 64) as i128
        }
    } else {
        (x * y) >> w
    }
}

fn logb(x: f64) -> f64 {
    if x.is_nan() {
        x
    } else if x.is_infinite() {
        f64::INFINITY
    } else if x == 0.0 {
        f64::NEG_INFINITY
    } else {
        libm::ilogb(x) as f64
    }
}

fn cospi(x: f64) -> f64 {
    let r = x % 2.0;
    if r.abs() == 0.5 || r.abs() == 1.5 {
        return 0.0;
    }
    (PI * r).cos()
}

fn sinpi(x: f64) -> f64 {
    let r = x % 2.0;
    if r == 0.0 || r.abs() == 1.0 {
        return 0.0f64.copysign(x);
    }
    (PI * r).sin()
}

fn rootn(x: f64, n: i64) -> f64 {
    if n == 0 {
        return f64::NAN;
    }
    if x < 0.0 {
        if n % 2 == 0 {
            return f64::NAN;
        }
        return -(-x).powf(1.0 / n as f64);
    }
    x.powf(1.0 / n as f64)
}

/// Builtins with a pointer output: returns (result lane, value stored through the pointer).
pub fn ptr_fn(f: BuiltinPtrFn, k: Scalar, a: u64, b: u64) -> (u64, u64) {
    let x = float_val(k, a);
    let e = |r: f64| enc_float(k, r);
    let i32v = |v: i64| norm(Scalar::I32, v as u64);
    match f {
        BuiltinPtrFn::Fract => {
            if x.is_nan() {
                return (e(x), e(x));
            }
            if x.is_infinite() {
                return (e(0.0f64.copysign(x)), e(x));
            }
            let fl = x.floor();
            let max = if k == Scalar::F64 {
                1.0 - f64::EPSILON / 2.0
            } else {
                (1.0f32 - f32::EPSILON / 2.0) as f64
            };
            let fr = (x - fl).min(max);
            // x - floor(x) is exact in double for float inputs; round once.
            (e(fr), e(fl))
        }
        BuiltinPtrFn::Modf => {
            let t = x.trunc();
            let fr = if x.is_infinite() {
                0.0f64.copysign(x)
            } else {
                x - t
            };
            (e(fr), e(t))
        }
        BuiltinPtrFn::Frexp => {
            let (m, ex) = libm::frexp(x);
            (e(m), i32v(ex as i64))
        }
        BuiltinPtrFn::Remquo => {
            let y = float_val(k, b);
            let (r, q) = libm::remquo(x, y);
            (e(r), i32v(q as i64))
        }
        BuiltinPtrFn::Sincos => (e(x.sin()), e(x.cos())),
        BuiltinPtrFn::LgammaR => {
            let (r, s) = libm::lgamma_r(x);
            (e(r), i32v(s as i64))
        }
    }
}

/// `sqrt(sum(v[i]^2))` without overflow or underflow in the squares: the lanes are scaled by
/// a power of two (exact) that brings the largest to [1, 2), as the accuracy rules of OpenCL C
/// 1.2 7.4 require for results that are representable (`length((0x1p+512, 0))` is 0x1p+512).
fn scaled_length(v: &[f64]) -> f64 {
    let m = v.iter().fold(0f64, |m, x| m.max(x.abs()));
    if v.iter().any(|x| x.is_nan()) {
        return f64::NAN;
    }
    if m == 0.0 || m.is_infinite() {
        return m;
    }
    let e = libm::ilogb(m);
    let sum: f64 = v.iter().map(|x| libm::scalbn(*x, -e).powi(2)).sum();
    libm::scalbn(sum.sqrt(), e)
}

/// `normalize(v)`: the unit vector of `v`, computed with the same scaling as [`scaled_length`]
/// so tiny and huge vectors give a unit vector; all-zero stays as is; infinite lanes count as
/// +-1 and the others as 0 (OpenCL C 1.2 6.12.5).
fn normalize(v: &[f64]) -> Vec<f64> {
    if v.iter().any(|x| x.is_nan()) {
        return vec![f64::NAN; v.len()];
    }
    let w: Vec<f64> = if v.iter().any(|x| x.is_infinite()) {
        v.iter()
            .map(|x| {
                if x.is_infinite() {
                    x.signum()
                } else {
                    0f64.copysign(*x)
                }
            })
            .collect()
    } else {
        v.to_vec()
    };
    let m = w.iter().fold(0f64, |m, x| m.max(x.abs()));
    if m == 0.0 {
        return w;
    }
    let e = libm::ilogb(m);
    let scaled: Vec<f64> = w.iter().map(|x| libm::scalbn(*x, -e)).collect();
    let l = scaled.iter().map(|x| x * x).sum::<f64>().sqrt();
    scaled.iter().map(|x| x / l).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use BuiltinFn::*;
    use Scalar::*;

    fn f(x: f32) -> u64 {
        of_f32(x)
    }
    fn i(x: i32) -> u64 {
        x as i64 as u64
    }

    #[test]
    fn integer_builtins() {
        assert_eq!(lane(Abs, I32, U32, false, i(-5), 0, 0), 5);
        assert_eq!(lane(Abs, I8, U8, false, i(-128), 0, 0), 128);
        assert_eq!(lane(AddSat, I8, I8, false, i(100), i(100), 0), 127);
        assert_eq!(lane(SubSat, U8, U8, false, 3, 5, 0), 0);
        assert_eq!(
            lane(Hadd, U32, U32, false, 0xffff_ffff, 0xffff_ffff, 0),
            0xffff_ffff
        );
        assert_eq!(lane(Rhadd, I32, I32, false, i(1), i(2), 0), 2);
        assert_eq!(lane(Clz, U32, U32, false, 1, 0, 0), 31);
        assert_eq!(lane(Clz, U8, U8, false, 0, 0, 0), 8);
        assert_eq!(lane(Ctz, U16, U16, false, 8, 0, 0), 3);
        assert_eq!(lane(Popcount, I32, I32, false, i(-1), 0, 0), 32);
        assert_eq!(lane(MulHi, U32, U32, false, 0x8000_0000, 4, 0), 2);
        assert_eq!(
            lane(MulHi, I32, I32, false, i(-2), i(0x4000_0000), 0),
            i(-1)
        );
        assert_eq!(
            lane(MulHi, U64, U64, false, u64::MAX, u64::MAX, 0),
            u64::MAX - 1
        );
        assert_eq!(lane(Rotate, U8, U8, false, 0x81, 1, 0), 0x03);
        // mad of two NaNs with different payloads: the canonical quiet NaN, whatever the
        // operand order of the machine code.
        assert_eq!(
            lane(Mad, F32, F32, false, 0x7fa0_0001, 0xffc0_0002, 0),
            0x7fc0_0000
        );
        assert_eq!(
            lane(Mad, F64, F64, false, 0x7ff4_0000_0000_0001, 1, 0),
            0x7ff8_0000_0000_0000
        );
        assert_eq!(lane(Upsample, I16, I32, false, i(-1), 0xffff, 0), i(-1));
        assert_eq!(lane(Upsample, U8, U16, false, 0x12, 0x34, 0), 0x1234);
        assert_eq!(
            lane(MadSat, I32, I32, false, i(0x10000), i(0x10000), i(0)),
            i(i32::MAX)
        );
        assert_eq!(lane(Clamp, I32, I32, false, i(-7), i(-3), i(3)), i(-3));
        assert_eq!(lane(Min, U32, U32, false, 7, 3, 0), 3);
        assert_eq!(lane(Max, I32, I32, false, i(-7), i(-3), 0), i(-3));
        assert_eq!(lane(Mul24, I32, I32, false, i(-3), i(5), 0), i(-15));
        assert_eq!(lane(AbsDiff, I32, U32, false, i(-5), i(5), 0), 10);
    }

    #[test]
    fn float_builtins() {
        assert_eq!(
            f32_of(lane(Sqrt, F32, F32, false, f(2.0), 0, 0)),
            2.0f32.sqrt()
        );
        assert_eq!(
            f32_of(lane(Fma, F32, F32, false, f(1.5), f(2.0), f(0.25),)),
            3.25
        );
        assert_eq!(
            f32_of(lane(Fmax, F32, F32, false, f(f32::NAN), f(1.0), 0)),
            1.0
        );
        assert_eq!(
            f32_of(lane(Clamp, F32, F32, false, f(5.0), f(0.0), f(1.0))),
            1.0
        );
        assert_eq!(
            f32_of(lane(Mix, F32, F32, false, f(0.0), f(10.0), f(0.25))),
            2.5
        );
        assert_eq!(f32_of(lane(Step, F32, F32, false, f(0.5), f(0.25), 0)), 0.0);
        assert_eq!(
            f32_of(lane(Nextafter, F32, F32, false, f(1.0), f(2.0), 0)),
            1.0 + f32::EPSILON
        );
        assert_eq!(f32_of(lane(Cospi, F32, F32, false, f(0.5), 0, 0)), 0.0);
        assert!((f32_of(lane(Erf, F32, F32, false, f(0.5), 0, 0)) - 0.5204999).abs() < 1e-6);
        assert!((f32_of(lane(Tgamma, F32, F32, false, f(5.0), 0, 0)) - 24.0).abs() < 1e-4);
        assert_eq!(lane(Ilogb, F32, I32, false, f(8.0), 0, 0), 3);
        assert_eq!(lane(IsNan, F32, I32, false, f(f32::NAN), 0, 0), 1);
        assert_eq!(lane(IsNan, F32, I32, true, f(f32::NAN), 0, 0), u64::MAX);
        assert_eq!(lane(Signbit, F32, I32, false, f(-0.0), 0, 0), 1);
        assert_eq!(f32_of(lane(Rootn, F32, F32, false, f(-8.0), i(3), 0)), -2.0);
        assert_eq!(f32_of(lane(Ldexp, F32, F32, false, f(1.5), i(3), 0)), 12.0);
        assert_eq!(lane(Select, I32, I32, true, 1, 2, i(-1)), 2);
        assert_eq!(lane(Select, I32, I32, true, 1, 2, i(1)), 1);
        assert!(f32_of(lane(Nan, U32, F32, false, 1, 0, 0)).is_nan());
    }

    #[test]
    fn pointer_builtins() {
        let (r, o) = ptr_fn(BuiltinPtrFn::Fract, F32, f(-1.25), 0);
        assert_eq!((f32_of(r), f32_of(o)), (0.75, -2.0));
        let (r, o) = ptr_fn(BuiltinPtrFn::Frexp, F32, f(8.0), 0);
        assert_eq!((f32_of(r), o), (0.5, 4));
        let (r, o) = ptr_fn(BuiltinPtrFn::Modf, F32, f(-3.5), 0);
        assert_eq!((f32_of(r), f32_of(o)), (-0.5, -3.0));
        let (r, o) = ptr_fn(BuiltinPtrFn::Remquo, F32, f(7.0), f(2.0));
        assert_eq!((f32_of(r), o), (-1.0, 4));
    }

    #[test]
    fn length_and_normalize_do_not_overflow_or_underflow() {
        let big = libm::scalbn(1.0, 512);
        assert_eq!(scaled_length(&[big, 0.0]), big);
        assert_eq!(scaled_length(&[big, big]), big * 2f64.sqrt());
        assert_eq!(scaled_length(&[3.0, 4.0]), 5.0);
        assert_eq!(scaled_length(&[f64::MAX, 0.0]), f64::MAX);
        assert_eq!(scaled_length(&[0.0, -0.0]), 0.0);
        let tiny = f64::from_bits(1); // the smallest denormal
        assert_eq!(scaled_length(&[tiny, 0.0]), tiny);
        assert_eq!(normalize(&[tiny, 0.0, 0.0, 0.0]), vec![1.0, 0.0, 0.0, 0.0]);
        let n = normalize(&[tiny, tiny]);
        assert!((n[0] - 0.5f64.sqrt()).abs() < 1e-15 && n[0] == n[1]);
        assert_eq!(normalize(&[big, 0.0]), vec![1.0, 0.0]);
        let n = normalize(&[f64::INFINITY, 2.0, f64::NEG_INFINITY]);
        let h = 0.5f64.sqrt();
        assert!((n[0] - h).abs() < 1e-15 && n[1] == 0.0 && (n[2] + h).abs() < 1e-15);
        assert_eq!(normalize(&[0.0, 0.0]), vec![0.0, 0.0]);
        assert!(normalize(&[f64::NAN, 1.0])[1].is_nan());
    }
}
