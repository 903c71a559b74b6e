//! OpenCL C `printf` formatting (C99 conversions plus the OpenCL vector specifier `%vN`).
//!
//! Rules: `%[flags][width][.precision][vN][length]conversion` with flags `-+ #0`, lengths
//! `hh h l` and, for vectors only, `hl` (32-bit elements); vector elements are printed with
//! the same conversion and separated by commas. Float formatting is exact (correctly rounded,
//! ties to even), as glibc prints it. A malformed format or a missing argument makes `printf`
//! return -1 and print nothing for that call.

use super::values::{float_val, int_val};
use fpgacl_kernel_compiler::ir::{Scalar, ValTy};

/// Widths and precisions are capped so that a kernel cannot make the host allocate without
/// bound (C would print them; no real kernel needs more).
const MAX_FIELD: usize = 4096;

/// A malformed format string, a missing argument or an unreadable `%s` string: what is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormatError(pub &'static str);

/// One printf argument: its type and its slots.
pub struct Arg<'a> {
    pub ty: ValTy,
    pub lanes: &'a [u64],
}

#[derive(Default, Clone, Copy)]
struct Spec {
    minus: bool,
    plus: bool,
    space: bool,
    hash: bool,
    zero: bool,
    width: usize,
    prec: Option<usize>,
}

/// Formats `fmt` with `args`; `read_str` reads a NUL-terminated string at a pointer for `%s`.
pub fn format(
    fmt: &[u8],
    args: &[Arg<'_>],
    read_str: impl Fn(u64) -> Option<Vec<u8>>,
) -> Result<Vec<u8>, FormatError> {
    let mut out = Vec::with_capacity(fmt.len() + 16);
    let mut i = 0;
    let mut next_arg = 0;
    while i < fmt.len() {
        let ch = fmt[i];
        if ch != b'%' {
            out.push(ch);
            i += 1;
            continue;
        }
        i += 1;
        if fmt.get(i) == Some(&b'%') {
            out.push(b'%');
            i += 1;
            continue;
        }
        let mut s = Spec::default();
        while let Some(&c) = fmt.get(i) {
            match c {
                b'-' => s.minus = true,
                b'+' => s.plus = true,
                b' ' => s.space = true,
                b'#' => s.hash = true,
                b'0' => s.zero = true,
                _ => break,
            }
            i += 1;
        }
        while let Some(&c) = fmt.get(i).filter(|c| c.is_ascii_digit()) {
            s.width = s
                .width
                .saturating_mul(10)
                .saturating_add((c - b'0') as usize);
            i += 1;
        }
        s.width = s.width.min(MAX_FIELD);
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            let mut p = 0usize;
            while let Some(&c) = fmt.get(i).filter(|c| c.is_ascii_digit()) {
                p = p.saturating_mul(10).saturating_add((c - b'0') as usize);
                i += 1;
            }
            s.prec = Some(p.min(MAX_FIELD));
        }
        let mut vec_n = 0usize;
        if fmt.get(i) == Some(&b'v') {
            i += 1;
            let mut n = 0usize;
            while let Some(&c) = fmt.get(i).filter(|c| c.is_ascii_digit()) {
                n = n.saturating_mul(10).saturating_add((c - b'0') as usize);
                i += 1;
            }
            if !matches!(n, 2 | 3 | 4 | 8 | 16) {
                return Err(FormatError("invalid vector length"));
            }
            vec_n = n;
        }
        // length modifier -> element width in bits for integers (0 = default int)
        let mut len_bits = 0u32;
        match (fmt.get(i), fmt.get(i + 1)) {
            (Some(b'h'), Some(b'h')) => {
                len_bits = 8;
                i += 2;
            }
            (Some(b'h'), Some(b'l')) => {
                if vec_n == 0 {
                    return Err(FormatError(
                        "length modifier 'hl' without a vector specifier",
                    ));
                }
                len_bits = 32;
                i += 2;
            }
            (Some(b'h'), _) => {
                len_bits = 16;
                i += 1;
            }
            (Some(b'l'), _) => {
                len_bits = 64;
                i += 1;
            }
            _ => {}
        }
        if vec_n > 0 && len_bits == 0 {
            // OpenCL requires a length modifier with a vector specifier.
            return Err(FormatError("vector specifier without a length modifier"));
        }
        let conv = *fmt
            .get(i)
            .ok_or(FormatError("incomplete format specifier"))?;
        i += 1;
        let arg = args
            .get(next_arg)
            .ok_or(FormatError("more conversions than arguments"))?;
        next_arg += 1;
        let count = if vec_n > 0 { vec_n } else { 1 };
        if arg.lanes.len() < count {
            return Err(FormatError("vector specifier longer than the argument"));
        }
        for e in 0..count {
            if e > 0 {
                out.push(b',');
            }
            let v = arg.lanes[e];
            let k = arg.ty.scalar;
            let field: Vec<u8> = match conv {
                b'd' | b'i' => {
                    let x = if k.is_float() {
                        float_val(k, v) as i64 as i128
                    } else {
                        int_val(k, v)
                    };
                    let x = trunc_signed(x, len_bits);
                    fmt_int(x.unsigned_abs(), x < 0, 10, false, &s)
                }
                b'u' | b'o' | b'x' | b'X' => {
                    let x = trunc_unsigned(v, len_bits);
                    let base = match conv {
                        b'o' => 8,
                        b'u' => 10,
                        _ => 16,
                    };
                    let mut s2 = s;
                    s2.plus = false;
                    s2.space = false;
                    let upper = conv == b'X';
                    let mut f = fmt_int(x as u128, false, base, upper, &s2);
                    if s.hash && x != 0 {
                        let pre: &[u8] = match conv {
                            b'x' => b"0x",
                            b'X' => b"0X",
                            _ => b"",
                        };
                        if conv == b'o' && !f.starts_with(b"0") {
                            f.insert(0, b'0');
                        } else if !pre.is_empty() {
                            f.splice(0..0, pre.iter().copied());
                        }
                    }
                    f
                }
                b'c' => vec![v as u8],
                b's' => {
                    let mut st =
                        read_str(v).ok_or(FormatError("'%s' argument is not a readable string"))?;
                    if let Some(p) = s.prec {
                        st.truncate(p);
                    }
                    st
                }
                b'p' => format!("0x{v:x}").into_bytes(),
                b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                    let x = if k.is_float() {
                        float_val(k, v)
                    } else if k == Scalar::U64 || k == Scalar::I64 {
                        f64::from_bits(v)
                    } else {
                        f32::from_bits(v as u32) as f64
                    };
                    fmt_float(x, conv, &s)
                }
                _ => return Err(FormatError("invalid conversion specifier")),
            };
            pad(&mut out, field, &s, matches!(conv, b'c' | b's' | b'p'));
        }
    }
    if next_arg != args.len() {
        // Extra arguments are allowed by C; ignore them.
    }
    Ok(out)
}

fn trunc_signed(x: i128, bits: u32) -> i128 {
    match bits {
        8 => x as i8 as i128,
        16 => x as i16 as i128,
        64 => x as i64 as i128,
        _ => x as i32 as i128,
    }
}

fn trunc_unsigned(v: u64, bits: u32) -> u64 {
    match bits {
        8 => v as u8 as u64,
        16 => v as u16 as u64,
        64 => v,
        _ => v as u32 as u64,
    }
}

/// Integer digits with sign and precision (padding is applied by `pad`).
fn fmt_int(mag: u128, neg: bool, base: u32, upper: bool, s: &Spec) -> Vec<u8> {
    let mut digits = match base {
        8 => format!("{mag:o}"),
        16 if upper => format!("{mag:X}"),
        16 => format!("{mag:x}"),
        _ => format!("{mag}"),
    }
    .into_bytes();
    if let Some(p) = s.prec {
        if p == 0 && mag == 0 {
            digits.clear();
        }
        while digits.len() < p {
            digits.insert(0, b'0');
        }
    }
    let mut f = Vec::with_capacity(digits.len() + 1);
    if neg {
        f.push(b'-');
    } else if s.plus {
        f.push(b'+');
    } else if s.space {
        f.push(b' ');
    }
    f.extend(digits);
    f
}

/// Pads a field to the width; zero padding goes after the sign / 0x prefix.
fn pad(out: &mut Vec<u8>, field: Vec<u8>, s: &Spec, text: bool) {
    if field.len() >= s.width {
        out.extend(field);
        return;
    }
    let fill = s.width - field.len();
    if s.minus {
        out.extend(field);
        out.extend(std::iter::repeat_n(b' ', fill));
    } else if s.zero
        && !text
        && s.prec.is_none_or(|_| field_is_float(&field))
        && !is_nonfinite(&field)
    {
        let mut at = 0;
        if matches!(field.first(), Some(b'-' | b'+' | b' ')) {
            at = 1;
        }
        if field[at..].starts_with(b"0x") || field[at..].starts_with(b"0X") {
            at += 2;
        }
        out.extend_from_slice(&field[..at]);
        out.extend(std::iter::repeat_n(b'0', fill));
        out.extend_from_slice(&field[at..]);
    } else {
        out.extend(std::iter::repeat_n(b' ', fill));
        out.extend(field);
    }
}

fn field_is_float(f: &[u8]) -> bool {
    f.iter()
        .any(|c| matches!(c, b'.' | b'e' | b'E' | b'p' | b'P'))
}

fn is_nonfinite(f: &[u8]) -> bool {
    f.iter().any(|c| matches!(c, b'n' | b'N' | b'i' | b'I')) && !f.contains(&b'x')
}

fn fmt_float(x: f64, conv: u8, s: &Spec) -> Vec<u8> {
    let upper = conv.is_ascii_uppercase();
    let mut body = String::new();
    let neg = x.is_sign_negative();
    let a = x.abs();
    if a.is_nan() || a.is_infinite() {
        body.push_str(if a.is_nan() { "nan" } else { "inf" });
    } else {
        match conv.to_ascii_lowercase() {
            b'f' => {
                let p = s.prec.unwrap_or(6);
                body = format!("{a:.p$}");
                if s.hash && p == 0 {
                    body.push('.');
                }
            }
            b'e' => body = fmt_exp(a, s.prec.unwrap_or(6), s.hash),
            b'g' => {
                let p = match s.prec {
                    Some(0) => 1,
                    Some(p) => p,
                    None => 6,
                };
                let e = exp_of(a, p - 1);
                let mut t = if (e as i64) < p as i64 && e >= -4 {
                    let fp = (p as i64 - 1 - e as i64).max(0) as usize;
                    let mut t = format!("{a:.fp$}");
                    if s.hash && fp == 0 {
                        t.push('.');
                    }
                    t
                } else {
                    fmt_exp(a, p - 1, s.hash)
                };
                if !s.hash {
                    t = strip_zeros(&t);
                }
                body = t;
            }
            _ => body = fmt_hex(a, s.prec, s.hash),
        }
    }
    let mut f = String::new();
    if neg {
        f.push('-');
    } else if s.plus {
        f.push('+');
    } else if s.space {
        f.push(' ');
    }
    f.push_str(&body);
    if upper {
        f = f.to_ascii_uppercase();
    }
    f.into_bytes()
}

/// Decimal exponent of `a` when printed with `p` digits after the point in %e style.
fn exp_of(a: f64, p: usize) -> i32 {
    let t = format!("{a:.p$e}");
    t.rsplit_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0)
}

fn fmt_exp(a: f64, p: usize, hash: bool) -> String {
    let t = format!("{a:.p$e}");
    let (m, e) = t.rsplit_once('e').unwrap_or((&t, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    let mut m = m.to_string();
    if hash && p == 0 {
        m.push('.');
    }
    format!("{m}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
}

fn strip_zeros(t: &str) -> String {
    let (m, e) = match t.find('e') {
        Some(i) => (&t[..i], &t[i..]),
        None => (t, ""),
    };
    let m = if m.contains('.') {
        m.trim_end_matches('0').trim_end_matches('.')
    } else {
        m
    };
    format!("{m}{e}")
}

/// `%a`: hexadecimal floating point, as glibc prints a double.
fn fmt_hex(a: f64, prec: Option<usize>, hash: bool) -> String {
    if a == 0.0 {
        let frac = match prec {
            Some(p) if p > 0 => format!(".{}", "0".repeat(p)),
            _ if hash => ".".to_string(),
            _ => String::new(),
        };
        return format!("0x0{frac}p+0");
    }
    let bits = a.to_bits();
    let mut exp = ((bits >> 52) & 0x7ff) as i64;
    let mut man = bits & ((1u64 << 52) - 1);
    let mut lead = 1u64;
    if exp == 0 {
        lead = 0;
        exp = -1022;
    } else {
        exp -= 1023;
    }
    let mut digits = 13usize;
    if let Some(p) = prec {
        if p < 13 {
            let drop = (13 - p) * 4;
            let rem = man & ((1u64 << drop) - 1);
            let half = 1u64 << (drop - 1);
            man >>= drop;
            if rem > half || (rem == half && man & 1 == 1) {
                man += 1;
                if man >> (p * 4) != 0 {
                    man &= (1u64 << (p * 4)).wrapping_sub(1);
                    lead += 1;
                }
            }
            digits = p;
        }
    }
    let mut hex = if digits == 0 {
        String::new()
    } else {
        format!("{man:0digits$x}")
    };
    if prec.is_none() {
        hex = hex.trim_end_matches('0').to_string();
    } else if let Some(p) = prec {
        while hex.len() < p {
            hex.push('0');
        }
    }
    let point = if !hex.is_empty() || hash { "." } else { "" };
    format!(
        "0x{lead}{point}{hex}p{}{}",
        if exp < 0 { '-' } else { '+' },
        exp.abs()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use fpgacl_kernel_compiler::ir::{Scalar, ValTy};

    fn run(fmt: &str, args: &[(ValTy, Vec<u64>)]) -> String {
        let a: Vec<Arg> = args.iter().map(|(t, l)| Arg { ty: *t, lanes: l }).collect();
        String::from_utf8(format(fmt.as_bytes(), &a, |_| Some(b"str".to_vec())).unwrap()).unwrap()
    }
    fn i32v(x: i32) -> (ValTy, Vec<u64>) {
        (ValTy::scalar(Scalar::I32), vec![x as i64 as u64])
    }
    fn f32v(x: f32) -> (ValTy, Vec<u64>) {
        (ValTy::scalar(Scalar::F32), vec![x.to_bits() as u64])
    }
    fn f64v(x: f64) -> (ValTy, Vec<u64>) {
        (ValTy::scalar(Scalar::F64), vec![x.to_bits()])
    }

    #[test]
    fn integers() {
        assert_eq!(
            run(
                "%d|%5d|%-5d|%05d|%+d",
                &[i32v(-3), i32v(42), i32v(42), i32v(-42), i32v(7)]
            ),
            "-3|   42|42   |-0042|+7"
        );
        assert_eq!(
            run(
                "%x %X %#x %o %u",
                &[i32v(255), i32v(255), i32v(255), i32v(8), i32v(-1)]
            ),
            "ff FF 0xff 10 4294967295"
        );
        assert_eq!(
            run("%.3d %hhd %c%%", &[i32v(5), i32v(300), i32v(65)]),
            "005 44 A%"
        );
        let l = (ValTy::scalar(Scalar::I64), vec![(-5_000_000_000i64) as u64]);
        assert_eq!(run("%ld", &[l]), "-5000000000");
    }

    #[test]
    fn floats_match_c() {
        assert_eq!(
            run(
                "%f %.2f %e %g %g",
                &[
                    f32v(1.5),
                    f64v(0.125),
                    f64v(12345.678),
                    f64v(0.0001),
                    f64v(1e20)
                ]
            ),
            "1.500000 0.12 1.234568e+04 0.0001 1e+20"
        );
        assert_eq!(
            run("%8.3f|%-8.1e|%G", &[f64v(-3.14259), f64v(2.5), f64v(1e-10)]),
            "  -3.143|2.5e+00 |1E-10"
        );
        assert_eq!(
            run("%a %a %.1a", &[f64v(1.0), f64v(-0.5), f64v(1.96875)]),
            "0x1p+0 -0x1p-1 0x2.0p+0"
        );
        assert_eq!(
            run(
                "%f %F %5.1f",
                &[f64v(f64::INFINITY), f64v(f64::NAN), f64v(-f64::INFINITY)]
            ),
            "inf NAN  -inf"
        );
        assert_eq!(
            run("%g %g %#g", &[f64v(100000.0), f64v(1000000.0), f64v(1.0)]),
            "100000 1e+06 1.00000"
        );
        assert_eq!(run("%010.3f", &[f64v(-1.5)]), "-00001.500");
    }

    #[test]
    fn vectors_and_strings() {
        let v4 = (
            ValTy::vector(Scalar::F32, 4),
            [1.0f32, 2.0, 3.5, -1.0]
                .iter()
                .map(|x| x.to_bits() as u64)
                .collect(),
        );
        assert_eq!(
            run("%v4hlf", std::slice::from_ref(&v4)),
            "1.000000,2.000000,3.500000,-1.000000"
        );
        let v2 = (ValTy::vector(Scalar::I16, 2), vec![1u64, (-2i64) as u64]);
        assert_eq!(run("<%v2hd>", &[v2]), "<1,-2>");
        assert_eq!(
            run("%s=%d", &[(ValTy::scalar(Scalar::U64), vec![0]), i32v(1)]),
            "str=1"
        );
        let a: Vec<Arg> = vec![];
        assert!(format(b"%d", &a, |_| None).is_err());
        assert!(format(
            b"%v4f",
            &[Arg {
                ty: v4.0,
                lanes: &v4.1
            }],
            |_| None
        )
        .is_err());
    }
}
