//! How two results of the same buffer are compared: the `check=` rule of the
//! spec, and the single-precision ULP table it refers to.
//!
//! # ULP table
//!
//! The bounds are those of the OpenCL 1.2 specification, section 7.4,
//! Table 7.1 ("ULP values for single precision built-in math functions"),
//! for the full profile. Functions the 1.2 table does not bound are taken
//! from the OpenCL 3.0 specification's tightened table (marked "3.0"):
//!
//! | functions | bound |
//! | --- | --- |
//! | `x+y`, `x-y`, `x*y`, `ceil`, `floor`, `round`, `trunc`, `rint`, `fabs`, `fmin`, `fmax`, `fdim`, `fmod`, `remainder`, `remquo`, `fract`, `modf`, `frexp`, `ldexp`, `ilogb`, `logb`, `nextafter`, `copysign`, `maxmag`, `minmag`, `nan`, `fma` | 0 (correctly rounded: `exact`) |
//! | `x/y`, `1/x` (`divide`, `recip`) | 2.5 |
//! | `sqrt` | 3 (correctly rounded only with `-cl-fp32-correctly-rounded-divide-sqrt`) |
//! | `rsqrt`, `cbrt`, `log1p` | 2 |
//! | `exp`, `exp2`, `exp10`, `expm1`, `log`, `log2`, `log10` | 3 |
//! | `sin`, `cos`, `sincos`, `sinh`, `cosh`, `sinpi`, `cospi`, `asin`, `acos`, `asinh`, `acosh`, `hypot` | 4 |
//! | `tan`, `tanh`, `atan`, `atanh`, `atanpi`, `asinpi`, `acospi` | 5 |
//! | `atan2`, `atan2pi`, `tanpi` | 6 |
//! | `pow`, `pown`, `powr`, `rootn`, `erf`, `erfc`, `tgamma` | 16 |
//! | `half_*` | 8192 |
//! | `native_*` (`native`) | implementation-defined: not compared (`skip`) |
//! | `mad` | 1.2 allows any value; 3.0 requires fma or a correctly rounded multiply then add. The corpus feeds it non-negative operands (no cancellation), where the two differ by at most 1 ulp, so it is checked with 2 |
//! | `degrees`, `radians` (3.0) | 2 |
//! | `length` of n lanes (3.0) | 0.25 + 0.5n (`length2` `length3` `length4`) |
//! | `distance` of n lanes (3.0) | 2.5 + 2n (`distance2` ...) |
//! | `normalize` of n lanes (3.0) | 2 + n (`normalize2` ...) |
//! | `dot`, `cross`, `mix`, `smoothstep` (3.0 absolute bounds) | given in the spec as `abs:E`, computed from the input range |
//!
//! Both sides of the comparison are real implementations, each within the
//! bound of the exact result, so a bounded (non-zero) rule allows
//! `ceil(bound) + 1` ulp between them: the extra ulp is the reference's
//! own error (PoCL's and Oclgrind's libm are within 1 ulp for these inputs).
//! Exact rules allow no difference.
//!
//! Special values, for every float rule except `skip`: NaN equals NaN (any
//! payload), NaN never equals a number, and (because single-precision
//! denormals are optional in OpenCL 1.2, `CL_FP_DENORM`) a zero or denormal
//! equals any zero or denormal. Infinities take part in the ulp distance
//! (`FLT_MAX` is 1 ulp from infinity).

use super::output::ElemType;

/// A comparison rule for one buffer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Check {
    /// Bit-exact (floats: NaN matches any NaN).
    Exact,
    /// At most this many ulp apart (floats only).
    Ulp(u32),
    /// At most this far apart in absolute value (floats only).
    Abs(f64),
    /// Not compared (implementation-defined results, e.g. `native_*`).
    Skip,
}

/// The specification's ulp bound (before the reference allowance) for a
/// builtin name used as `check=NAME`, or `None` when the name is unknown.
pub fn spec_ulp_bound(name: &str) -> Option<f64> {
    let exact = [
        "ceil",
        "floor",
        "round",
        "trunc",
        "rint",
        "fabs",
        "fmin",
        "fmax",
        "fdim",
        "fmod",
        "remainder",
        "remquo",
        "fract",
        "modf",
        "frexp",
        "ldexp",
        "ilogb",
        "logb",
        "nextafter",
        "copysign",
        "maxmag",
        "minmag",
        "nan",
        "fma",
        "add",
        "sub",
        "mul",
    ];
    if exact.contains(&name) {
        return Some(0.0);
    }
    if let Some(n) = name
        .strip_prefix("length")
        .and_then(|n| n.parse::<u32>().ok())
    {
        return Some(0.25 + 0.5 * f64::from(n));
    }
    if let Some(n) = name
        .strip_prefix("distance")
        .and_then(|n| n.parse::<u32>().ok())
    {
        return Some(2.5 + 2.0 * f64::from(n));
    }
    if let Some(n) = name
        .strip_prefix("normalize")
        .and_then(|n| n.parse::<u32>().ok())
    {
        return Some(2.0 + f64::from(n));
    }
    if name.starts_with("half_") {
        return Some(8192.0);
    }
    Some(match name {
        "divide" | "recip" => 2.5,
        "sqrt" => 3.0,
        "rsqrt" | "cbrt" | "log1p" | "mad" | "degrees" | "radians" => 2.0,
        "exp" | "exp2" | "exp10" | "expm1" | "log" | "log2" | "log10" => 3.0,
        "sin" | "cos" | "sincos" | "sinh" | "cosh" | "sinpi" | "cospi" | "asin" | "acos"
        | "asinh" | "acosh" | "hypot" => 4.0,
        "tan" | "tanh" | "atan" | "atanh" | "atanpi" | "asinpi" | "acospi" => 5.0,
        "atan2" | "atan2pi" | "tanpi" => 6.0,
        "pow" | "pown" | "powr" | "rootn" | "erf" | "erfc" | "tgamma" => 16.0,
        _ => return None,
    })
}

impl Check {
    /// Parse a `check=` rule: `exact`, `skip`, `native`, `ulp:N`, `abs:E` or
    /// a builtin name of the ULP table.
    pub fn parse(rule: &str) -> Result<Check, String> {
        match rule {
            "exact" => return Ok(Check::Exact),
            "skip" | "native" => return Ok(Check::Skip),
            _ => {}
        }
        if let Some(n) = rule.strip_prefix("ulp:") {
            return n
                .parse()
                .map(Check::Ulp)
                .map_err(|_| format!("bad ulp count in check={rule}"));
        }
        if let Some(e) = rule.strip_prefix("abs:") {
            return match e.parse::<f64>() {
                Ok(v) if v >= 0.0 && v.is_finite() => Ok(Check::Abs(v)),
                _ => Err(format!("bad absolute tolerance in check={rule}")),
            };
        }
        match spec_ulp_bound(rule) {
            Some(0.0) => Ok(Check::Exact),
            Some(b) => Ok(Check::Ulp(b.ceil() as u32 + 1)),
            None => Err(format!(
                "unknown check rule {rule:?} (not in the ULP table)"
            )),
        }
    }

    /// True when `actual` is acceptable against `reference` for an element
    /// of type `ty`.
    pub fn accepts(self, ty: ElemType, reference: u64, actual: u64) -> bool {
        match (self, ty) {
            (Check::Skip, _) => true,
            (_, ElemType::Float) => {
                let (r, a) = (reference as u32, actual as u32);
                if r == a {
                    return true;
                }
                let (rf, af) = (f32::from_bits(r), f32::from_bits(a));
                if rf.is_nan() || af.is_nan() {
                    return rf.is_nan() && af.is_nan();
                }
                if tiny(rf) && tiny(af) {
                    return true;
                }
                match self {
                    Check::Exact => false,
                    Check::Ulp(n) => ulp_distance(rf, af) <= u64::from(n),
                    Check::Abs(e) => {
                        if rf.is_infinite() || af.is_infinite() {
                            return rf == af;
                        }
                        (f64::from(rf) - f64::from(af)).abs() <= e
                    }
                    Check::Skip => true,
                }
            }
            (_, ElemType::Half) => {
                let (r, a) = (reference as u16, actual as u16);
                let nan = |h: u16| h & 0x7C00 == 0x7C00 && h & 0x03FF != 0;
                r == a || (nan(r) && nan(a))
            }
            // Integers are always bit-exact.
            _ => reference == actual,
        }
    }
}

/// Zero or denormal.
fn tiny(x: f32) -> bool {
    x.abs() < f32::MIN_POSITIVE
}

/// Distance in units in the last place between two non-NaN floats: the number
/// of representable floats between them (0 when equal; +0 and -0 are equal).
pub fn ulp_distance(a: f32, b: f32) -> u64 {
    fn ordered(x: f32) -> i64 {
        let bits = x.to_bits() as i32;
        if bits < 0 {
            -i64::from(bits & 0x7FFF_FFFF)
        } else {
            i64::from(bits)
        }
    }
    ordered(a).abs_diff(ordered(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f32) -> u64 {
        u64::from(x.to_bits())
    }

    #[test]
    fn ulp_distance_counts_representable_floats() {
        assert_eq!(ulp_distance(1.0, 1.0), 0);
        assert_eq!(ulp_distance(0.0, -0.0), 0);
        assert_eq!(ulp_distance(1.0, f32::from_bits(1.0f32.to_bits() + 3)), 3);
        assert_eq!(
            ulp_distance(-f32::MIN_POSITIVE, f32::MIN_POSITIVE),
            2 * 0x80_0000
        );
        assert_eq!(ulp_distance(f32::MAX, f32::INFINITY), 1);
    }

    #[test]
    fn table_rules_allow_the_bound_plus_the_reference_error() {
        assert_eq!(Check::parse("sin"), Ok(Check::Ulp(5)));
        assert_eq!(Check::parse("divide"), Ok(Check::Ulp(4)));
        assert_eq!(Check::parse("half_sin"), Ok(Check::Ulp(8193)));
        assert_eq!(Check::parse("length4"), Ok(Check::Ulp(4)));
        assert_eq!(Check::parse("floor"), Ok(Check::Exact));
        assert_eq!(Check::parse("native"), Ok(Check::Skip));
        assert_eq!(Check::parse("ulp:7"), Ok(Check::Ulp(7)));
        assert_eq!(Check::parse("abs:0.5"), Ok(Check::Abs(0.5)));
        assert!(Check::parse("bogus").is_err());
        assert!(Check::parse("abs:-1").is_err());
        assert!(Check::parse("ulp:x").is_err());
    }

    #[test]
    fn float_rules_handle_special_values() {
        let one_up = u64::from(1.0f32.to_bits() + 1);
        assert!(Check::Exact.accepts(ElemType::Float, f(1.0), f(1.0)));
        assert!(!Check::Exact.accepts(ElemType::Float, f(1.0), one_up));
        assert!(Check::Ulp(1).accepts(ElemType::Float, f(1.0), one_up));
        assert!(Check::Exact.accepts(ElemType::Float, 0x7fc0_0000, 0xffc0_0001));
        assert!(!Check::Ulp(1000).accepts(ElemType::Float, 0x7fc0_0000, f(1.0)));
        assert!(!Check::Ulp(1000).accepts(ElemType::Float, f(1.0), 0x7fc0_0000));
        assert!(Check::Exact.accepts(ElemType::Float, f(0.0), 1)); // denormal flushed
        assert!(!Check::Abs(1.0).accepts(ElemType::Float, f(f32::INFINITY), f(f32::MAX)));
        assert!(Check::Abs(0.5).accepts(ElemType::Float, f(1.0), f(1.4)));
        assert!(!Check::Abs(0.5).accepts(ElemType::Float, f(1.0), f(1.6)));
        assert!(Check::Skip.accepts(ElemType::Float, f(1.0), f(7.0)));
    }

    #[test]
    fn integers_are_bit_exact_whatever_the_rule() {
        assert!(Check::Exact.accepts(ElemType::Int, 5, 5));
        assert!(!Check::Ulp(100).accepts(ElemType::Int, 5, 6));
        assert!(Check::Exact.accepts(ElemType::Half, 0x7e00, 0x7c01));
        assert!(!Check::Exact.accepts(ElemType::Half, 0x3c00, 0x3c01));
    }
}
