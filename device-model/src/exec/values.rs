//! Slot encoding helpers: integer normalisation, conversions with saturation and rounding
//! modes, half-precision conversion.
//!
//! Slot encoding (see `ir`): signed integers sign-extended to 64 bits, unsigned integers and
//! `bool` zero-extended, `float` as its bits in the low 32 bits, `double` as its 64 bits, `half`
//! as its 16 bits.

use fpgacl_kernel_compiler::ir::{Rounding, Scalar};

/// Brings a 64-bit result into the slot encoding of integer kind `k` (wrap-around at the width).
#[inline(always)]
pub fn norm(k: Scalar, v: u64) -> u64 {
    match k {
        Scalar::I8 => v as i8 as i64 as u64,
        Scalar::U8 => v as u8 as u64,
        Scalar::I16 => v as i16 as i64 as u64,
        Scalar::U16 | Scalar::F16 => v as u16 as u64,
        Scalar::I32 => v as i32 as i64 as u64,
        Scalar::U32 | Scalar::F32 => v as u32 as u64,
        Scalar::I64 | Scalar::U64 | Scalar::F64 => v,
        Scalar::Bool => (v != 0) as u64,
    }
}

/// Width in bits of a kind.
#[inline(always)]
pub fn bits(k: Scalar) -> u32 {
    k.size() * 8
}

#[inline(always)]
pub fn f32_of(v: u64) -> f32 {
    f32::from_bits(v as u32)
}
#[inline(always)]
pub fn of_f32(x: f32) -> u64 {
    x.to_bits() as u64
}
#[inline(always)]
pub fn f64_of(v: u64) -> f64 {
    f64::from_bits(v)
}
#[inline(always)]
pub fn of_f64(x: f64) -> u64 {
    x.to_bits()
}

/// Smallest and largest value of an integer kind, as i128.
pub fn int_range(k: Scalar) -> (i128, i128) {
    match k {
        Scalar::Bool => (0, 1),
        Scalar::I8 => (i8::MIN as i128, i8::MAX as i128),
        Scalar::U8 => (0, u8::MAX as i128),
        Scalar::I16 => (i16::MIN as i128, i16::MAX as i128),
        Scalar::U16 => (0, u16::MAX as i128),
        Scalar::I32 => (i32::MIN as i128, i32::MAX as i128),
        Scalar::U32 => (0, u32::MAX as i128),
        Scalar::I64 => (i64::MIN as i128, i64::MAX as i128),
        _ => (0, u64::MAX as i128),
    }
}

/// The integer value of a slot of integer kind `k`, widened.
#[inline(always)]
pub fn int_val(k: Scalar, v: u64) -> i128 {
    if k.is_signed() {
        v as i64 as i128
    } else {
        v as i128
    }
}

/// Clamps an i128 into kind `k` and encodes it.
pub fn sat_int(k: Scalar, v: i128) -> u64 {
    let (lo, hi) = int_range(k);
    norm(k, v.clamp(lo, hi) as u64)
}

/// A float value of a slot of float kind `k`, as f64 (exact for half and float).
#[inline]
pub fn float_val(k: Scalar, v: u64) -> f64 {
    match k {
        Scalar::F16 => half_to_f32(v as u16) as f64,
        Scalar::F32 => f32_of(v) as f64,
        _ => f64_of(v),
    }
}

/// Rounds `x` to an integral value with a rounding mode (`Default` = toward zero).
fn round_int(x: f64, r: Rounding) -> f64 {
    match r {
        Rounding::Default | Rounding::Rtz => x.trunc(),
        Rounding::Rte => x.round_ties_even(),
        Rounding::Rtp => x.ceil(),
        Rounding::Rtn => x.floor(),
    }
}

/// The float operations directed rounding needs (`f32`, `f64`).
trait DirectedFloat: Copy + PartialOrd + std::ops::Neg<Output = Self> {
    const ZERO: Self;
    const INF: Self;
    fn is_nan(self) -> bool;
    /// The next representable value from `self` toward `to` (`MAX` from an infinity).
    fn next_toward(self, to: Self) -> Self;
}

impl DirectedFloat for f32 {
    const ZERO: f32 = 0.0;
    const INF: f32 = f32::INFINITY;
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
    fn next_toward(self, to: f32) -> f32 {
        libm::nextafterf(self, to)
    }
}

impl DirectedFloat for f64 {
    const ZERO: f64 = 0.0;
    const INF: f64 = f64::INFINITY;
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
    fn next_toward(self, to: f64) -> f64 {
        libm::nextafter(self, to)
    }
}

/// Rounds an exact value into a float format with a directed rounding mode, from its
/// round-to-nearest-even value `rte` and `cmp(f)`, the ordering of a candidate `f` (widened
/// exactly) against the exact value. `rte` is at most one step away from the directed result,
/// so the result is `rte` or its neighbour: toward zero, an `rte` beyond the exact value steps
/// back toward 0 (an overflow to infinity becomes the largest finite value); toward +inf
/// (-inf), an `rte` below (above) the exact value steps up (down). An exact infinity or NaN
/// stays as it is.
fn directed<F: DirectedFloat>(rte: F, r: Rounding, cmp: impl Fn(F) -> std::cmp::Ordering) -> F {
    use std::cmp::Ordering::*;
    if rte.is_nan() {
        return rte;
    }
    match r {
        Rounding::Default | Rounding::Rte => rte,
        Rounding::Rtz => {
            let o = cmp(rte);
            if (rte > F::ZERO && o == Greater) || (rte < F::ZERO && o == Less) {
                rte.next_toward(F::ZERO)
            } else {
                rte
            }
        }
        Rounding::Rtp if cmp(rte) == Less => rte.next_toward(F::INF),
        Rounding::Rtn if cmp(rte) == Greater => rte.next_toward(-F::INF),
        Rounding::Rtp | Rounding::Rtn => rte,
    }
}

/// Compares a finite f64 with an integer exactly.
fn cmp_f64_int(f: f64, v: i128) -> std::cmp::Ordering {
    if f.is_infinite() {
        return if f > 0.0 {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Less
        };
    }
    // |f| < 2^127 for any value produced from a 64-bit integer, and f is integral when that
    // large; for small f compare via floor.
    let fl = f.floor();
    let fi = fl as i128;
    match fi.cmp(&v) {
        std::cmp::Ordering::Equal => {
            if f > fl {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        }
        o => o,
    }
}

/// One lane of `Convert`.
pub fn convert(from: Scalar, to: Scalar, sat: bool, r: Rounding, v: u64) -> u64 {
    if to == Scalar::Bool {
        return if from.is_float() {
            (float_val(from, v) != 0.0) as u64
        } else {
            (v != 0) as u64
        };
    }
    match (from.is_float(), to.is_float()) {
        (false, false) => {
            if sat {
                sat_int(to, int_val(from, v))
            } else {
                norm(to, v)
            }
        }
        (true, false) => {
            let x = float_val(from, v);
            if x.is_nan() {
                return 0;
            }
            let t = round_int(x, r);
            let (lo, hi) = int_range(to);
            if sat {
                if t <= lo as f64 {
                    norm(to, lo as u64)
                } else if t >= hi as f64 {
                    norm(to, hi as u64)
                } else {
                    norm(to, t as i128 as u64)
                }
            } else {
                // Out-of-range conversions are undefined in C; saturate deterministically.
                let i = if t <= i128::MIN as f64 {
                    i128::MIN
                } else if t >= i128::MAX as f64 {
                    i128::MAX
                } else {
                    t as i128
                };
                if i < lo || i > hi {
                    sat_int(to, i)
                } else {
                    norm(to, i as u64)
                }
            }
        }
        (false, true) => {
            let i = int_val(from, v);
            match to {
                Scalar::F64 => {
                    let rte = i as f64;
                    of_f64(directed(rte, r, |f| cmp_f64_int(f, i)))
                }
                Scalar::F32 => {
                    let rte = i as f32;
                    of_f32(directed(rte, r, |f| cmp_f64_int(f as f64, i)))
                }
                _ => {
                    let f = directed(i as f32, r, |f| cmp_f64_int(f as f64, i));
                    f32_to_half(f, r) as u64
                }
            }
        }
        (true, true) => {
            let x = float_val(from, v);
            match to {
                Scalar::F64 => of_f64(x),
                Scalar::F32 => {
                    if from == Scalar::F64 {
                        let rte = x as f32;
                        of_f32(directed(rte, r, |f| {
                            (f as f64)
                                .partial_cmp(&x)
                                .unwrap_or(std::cmp::Ordering::Equal)
                        }))
                    } else {
                        of_f32(x as f32)
                    }
                }
                _ => {
                    if from == Scalar::F64 {
                        f64_to_half(x, r) as u64
                    } else {
                        f32_to_half(x as f32, r) as u64
                    }
                }
            }
        }
    }
}

/// IEEE half bits to f32 (exact).
pub fn half_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) & 1) as u32;
    let exp = ((h >> 10) & 0x1f) as u32;
    let man = (h & 0x3ff) as u32;
    let bits = if exp == 0 {
        if man == 0 {
            sign << 31
        } else {
            // subnormal: value = man * 2^-24
            let f = man as f32 * (1.0 / 16777216.0);
            return if sign == 1 { -f } else { f };
        }
    } else if exp == 31 {
        (sign << 31) | 0x7f80_0000 | (man << 13)
    } else {
        (sign << 31) | ((exp + 112) << 23) | (man << 13)
    };
    f32::from_bits(bits)
}

/// f64 to half bits with a rounding mode (`Default` = round to nearest even).
pub fn f64_to_half(x: f64, r: Rounding) -> u16 {
    if x.is_nan() {
        return 0x7e00;
    }
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs();
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    // Scale to units of the half's ulp at its exponent.
    let (ulp, _) = if a < 6.103515625e-05 {
        (2f64.powi(-24), 0)
    } else {
        let e = a.log2().floor() as i32;
        // guard against log2 rounding
        let e = if 2f64.powi(e) > a {
            e - 1
        } else if 2f64.powi(e + 1) <= a {
            e + 1
        } else {
            e
        };
        (2f64.powi(e - 10), e)
    };
    let q = a / ulp; // exact: power-of-two scaling
    let neg = sign != 0;
    let qi = match r {
        Rounding::Default | Rounding::Rte => q.round_ties_even(),
        Rounding::Rtz => q.trunc(),
        Rounding::Rtp => {
            if neg {
                q.trunc()
            } else {
                q.ceil()
            }
        }
        Rounding::Rtn => {
            if neg {
                q.ceil()
            } else {
                q.trunc()
            }
        }
    };
    let mag = qi * ulp;
    if mag > 65504.0 {
        let to_inf = match r {
            Rounding::Default | Rounding::Rte => true,
            Rounding::Rtz => false,
            Rounding::Rtp => !neg,
            Rounding::Rtn => neg,
        };
        return sign | if to_inf { 0x7c00 } else { 0x7bff };
    }
    if mag < 6.103515625e-05 {
        // subnormal (or zero): units of 2^-24
        return sign | (mag * 16777216.0) as u16;
    }
    let e = mag.log2().floor() as i32;
    let e = if 2f64.powi(e) > mag {
        e - 1
    } else if 2f64.powi(e + 1) <= mag {
        e + 1
    } else {
        e
    };
    let man = ((mag / 2f64.powi(e) - 1.0) * 1024.0) as u16;
    sign | (((e + 15) as u16) << 10) | (man & 0x3ff)
}

/// f32 to half bits with a rounding mode.
pub fn f32_to_half(x: f32, r: Rounding) -> u16 {
    f64_to_half(x as f64, r)
}

/// Rounds a float result to f32 honouring the kind (`F32`) or keeps f64.
#[inline]
pub fn enc_float(k: Scalar, x: f64) -> u64 {
    match k {
        Scalar::F32 => of_f32(x as f32),
        Scalar::F16 => f64_to_half(x, Rounding::Rte) as u64,
        _ => of_f64(x),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Scalar::*;

    /// Exact order of a finite-or-infinite float against an integer.
    fn ord_int(f: f64, i: i128) -> std::cmp::Ordering {
        if f.is_infinite() {
            return if f > 0.0 {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Less
            };
        }
        // Floats from 64-bit integers are integral beyond 2^53 and below 2^127.
        (f.floor() as i128).cmp(&i).then(if f.floor() < f {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        })
    }

    /// Checks that `got` is the `r`-rounding of an exact value: `at(f)` orders a candidate
    /// against it, `up`/`down` step one value of the format.
    fn check_directed(
        r: Rounding,
        got: f64,
        at: &dyn Fn(f64) -> std::cmp::Ordering,
        up: f64,
        down: f64,
        what: &str,
    ) {
        use std::cmp::Ordering::*;
        match r {
            // got <= exact < next up
            Rounding::Rtn => assert!(at(got) != Greater && at(up) == Greater, "{what}"),
            // prev down < exact <= got
            Rounding::Rtp => assert!(at(got) != Less && at(down) == Less, "{what}"),
            Rounding::Rtz => {
                // exact >= 0: round down; exact < 0: round up
                if at(0.0) != Greater {
                    assert!(at(got) != Greater && (at(up) == Greater), "{what}")
                } else {
                    assert!(at(got) != Less && at(down) == Less, "{what}")
                }
            }
            _ => {}
        }
    }

    fn check32(r: Rounding, f: f32, at: &dyn Fn(f64) -> std::cmp::Ordering, what: &str) {
        let (up, down) = (
            libm::nextafterf(f, f32::INFINITY),
            libm::nextafterf(f, f32::NEG_INFINITY),
        );
        check_directed(r, f as f64, at, up as f64, down as f64, what);
    }

    fn xorshift(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    #[test]
    fn directed_rounding_of_integers_and_doubles() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut ints: Vec<i64> = vec![
            0,
            1,
            -1,
            (1 << 24) + 1,
            -(1 << 24) - 1,
            (1 << 53) + 1,
            -(1 << 53) - 1,
            i64::MAX,
            i64::MIN,
            i64::MIN + 1,
        ];
        for _ in 0..4000 {
            let v = xorshift(&mut x);
            ints.push((v as i64) >> (v % 60));
        }
        for &i in &ints {
            let at = |f: f64| ord_int(f, i as i128);
            for r in [Rounding::Rtz, Rounding::Rtp, Rounding::Rtn] {
                let f = f32_of(convert(I64, F32, false, r, i as u64));
                check32(r, f, &at, &format!("{i} {r:?} f32"));
                let g = f64_of(convert(I64, F64, false, r, i as u64));
                let (u, d) = (
                    libm::nextafter(g, f64::INFINITY),
                    libm::nextafter(g, f64::NEG_INFINITY),
                );
                check_directed(r, g, &at, u, d, &format!("{i} {r:?} f64"));
            }
        }
        // double -> float: finite values (some beyond float's range), infinities, NaN.
        let mut ds: Vec<f64> = vec![1e39, -1e39, 1.0 + 1e-12, -1.0 - 1e-12, 1e-50, -1e-50];
        for _ in 0..4000 {
            let d = f64::from_bits(xorshift(&mut x));
            if d.is_finite() && d.abs() < 1e300 {
                ds.push(d);
            }
        }
        for &d in &ds {
            let at = |f: f64| f.partial_cmp(&d).unwrap();
            for r in [Rounding::Rtz, Rounding::Rtp, Rounding::Rtn] {
                let f = f32_of(convert(F64, F32, false, r, of_f64(d)));
                check32(r, f, &at, &format!("{d:e} {r:?}"));
            }
        }
        for r in [Rounding::Rte, Rounding::Rtz, Rounding::Rtp, Rounding::Rtn] {
            for inf in [f64::INFINITY, f64::NEG_INFINITY] {
                let f = f32_of(convert(F64, F32, false, r, of_f64(inf)));
                assert_eq!(f as f64, inf, "{inf} {r:?}: infinities convert exactly");
            }
            assert!(f32_of(convert(F64, F32, false, r, of_f64(f64::NAN))).is_nan());
        }
        // Out of float's range: toward zero gives the largest float, away gives infinity.
        let c = |r, d: f64| f32_of(convert(F64, F32, false, r, of_f64(d)));
        assert_eq!(c(Rounding::Rtz, 1e39), f32::MAX);
        assert_eq!(c(Rounding::Rtp, 1e39), f32::INFINITY);
        assert_eq!(c(Rounding::Rtn, 1e39), f32::MAX);
        assert_eq!(c(Rounding::Rtp, -1e39), -f32::MAX);
        assert_eq!(c(Rounding::Rtn, -1e39), f32::NEG_INFINITY);
    }

    #[test]
    fn normalisation_wraps() {
        assert_eq!(norm(I8, 200), (-56i64) as u64);
        assert_eq!(norm(U8, 300), 44);
        assert_eq!(norm(I32, 0x8000_0000), i32::MIN as i64 as u64);
        assert_eq!(norm(U32, u64::MAX), 0xffff_ffff);
        assert_eq!(norm(Bool, 4), 1);
    }

    #[test]
    fn int_conversions() {
        let m1 = (-1i64) as u64;
        assert_eq!(convert(I32, U8, false, Rounding::Default, m1), 255);
        assert_eq!(convert(I32, U8, true, Rounding::Default, m1), 0);
        assert_eq!(convert(I32, I8, true, Rounding::Default, 1000), 127);
        assert_eq!(
            convert(U32, I32, true, Rounding::Default, 0xffff_ffff),
            i32::MAX as u64
        );
        assert_eq!(convert(I32, U64, false, Rounding::Default, m1), u64::MAX);
        assert_eq!(
            convert(U64, I64, true, Rounding::Default, u64::MAX),
            i64::MAX as u64
        );
    }

    #[test]
    fn float_to_int_rounding_and_saturation() {
        let f = |x: f32| of_f32(x);
        assert_eq!(
            convert(F32, I32, false, Rounding::Default, f(-2.7)),
            (-2i64) as u64
        );
        assert_eq!(convert(F32, I32, false, Rounding::Rte, f(2.5)), 2);
        assert_eq!(convert(F32, I32, false, Rounding::Rte, f(3.5)), 4);
        assert_eq!(convert(F32, I32, false, Rounding::Rtp, f(2.1)), 3);
        assert_eq!(
            convert(F32, I32, false, Rounding::Rtn, f(-2.1)),
            (-3i64) as u64
        );
        assert_eq!(convert(F32, U8, true, Rounding::Default, f(300.0)), 255);
        assert_eq!(convert(F32, U8, true, Rounding::Default, f(-3.0)), 0);
        assert_eq!(convert(F32, I32, true, Rounding::Default, f(f32::NAN)), 0);
        assert_eq!(
            convert(F32, I32, true, Rounding::Default, f(3e9)),
            i32::MAX as u64
        );
        assert_eq!(convert(F32, Bool, false, Rounding::Default, f(0.5)), 1);
    }

    #[test]
    fn int_to_float_rounding() {
        // 16777217 is not representable in f32: RTE -> 16777216, RTP -> 16777218
        let v = 16_777_217u64;
        assert_eq!(
            f32_of(convert(I32, F32, false, Rounding::Default, v)),
            16777216.0
        );
        assert_eq!(
            f32_of(convert(I32, F32, false, Rounding::Rtp, v)),
            16777218.0
        );
        assert_eq!(
            f32_of(convert(I32, F32, false, Rounding::Rtz, v)),
            16777216.0
        );
        let n = (-16_777_217i64) as u64;
        assert_eq!(
            f32_of(convert(I32, F32, false, Rounding::Rtz, n)),
            -16777216.0
        );
        assert_eq!(
            f32_of(convert(I32, F32, false, Rounding::Rtn, n)),
            -16777218.0
        );
        assert_eq!(
            f32_of(convert(U64, F32, false, Rounding::Rtz, u64::MAX)),
            1.8446743e19
        );
        // double -> float
        let d = of_f64(0.1);
        let up = f32_of(convert(F64, F32, false, Rounding::Rtp, d));
        let dn = f32_of(convert(F64, F32, false, Rounding::Rtn, d));
        assert!(up as f64 > 0.1 && (dn as f64) < 0.1);
        assert_eq!(libm::nextafterf(dn, 1.0), up);
    }

    #[test]
    fn half_round_trip() {
        for h in [
            0u16, 0x3c00, 0xc000, 0x7bff, 0x0001, 0x03ff, 0x0400, 0x7c00, 0x3555,
        ] {
            let f = half_to_f32(h);
            assert_eq!(f32_to_half(f, Rounding::Rte), h, "{h:#x}");
        }
        assert_eq!(half_to_f32(0x3c00), 1.0);
        assert_eq!(f32_to_half(65520.0, Rounding::Rte), 0x7c00);
        assert_eq!(f32_to_half(65520.0, Rounding::Rtz), 0x7bff);
        assert_eq!(f32_to_half(1.0 + 1.0 / 2048.0, Rounding::Rte), 0x3c00);
        assert_eq!(f32_to_half(1.0 + 1.0 / 2048.0, Rounding::Rtp), 0x3c01);
        assert!(half_to_f32(0x7e00).is_nan());
    }
}
