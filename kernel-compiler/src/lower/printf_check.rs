//! Build-time checks of `printf` format strings against their arguments, like clang's
//! `-Wformat`, with the rules of OpenCL C 1.2 §6.12.13.2: conversion specifiers
//! `%[flags][width][.precision][vN][length]conversion`, flags `-+ #0`; the vector specifier
//! `vN` takes N = 2, 3, 4, 8 or 16, must come with a length modifier (`hh`, `h`, `hl`, `l`)
//! and applies to the integer and floating-point conversions only; `hl` is valid only with a
//! vector specifier; with a vector specifier the argument must be a vector of N elements whose
//! element type the length modifier names (`hh` char, `h` short or half, `hl` int or float,
//! `l` long or double).
//!
//! Every finding is a warning (as in clang); those after which the emulated `printf` prints
//! nothing for the call say so.

use crate::ir::Scalar;

/// What `printf` receives for one argument, from its source type (before promotions).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum PArg {
    Scalar(Scalar),
    Vector(Scalar, u8),
    /// A pointer; `true` when it points to `char`/`uchar` (a string for `%s`).
    Pointer(bool),
    /// A string literal.
    Str,
}

/// One finding: the argument it concerns (index into the data arguments, `None` for the
/// format string itself) and the message.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Finding {
    pub arg: Option<usize>,
    pub msg: String,
}

const NOTHING: &str = "; printf prints nothing for this call";

fn scalar_name(s: Scalar) -> &'static str {
    match s {
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

fn arg_name(a: &PArg) -> String {
    match a {
        PArg::Scalar(s) => scalar_name(*s).to_string(),
        PArg::Vector(s, n) => format!("{}{n}", scalar_name(*s)),
        PArg::Pointer(true) => "char *".into(),
        PArg::Pointer(false) => "a pointer".into(),
        PArg::Str => "a string literal".into(),
    }
}

/// Checks `fmt` against `args`.
pub(crate) fn check(fmt: &str, args: &[PArg]) -> Vec<Finding> {
    let b = fmt.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut next = 0usize;
    let fmt_err = |out: &mut Vec<Finding>, msg: String| out.push(Finding { arg: None, msg });
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        if b.get(i) == Some(&b'%') {
            i += 1;
            continue;
        }
        while i < b.len() && b"-+ #0".contains(&b[i]) {
            i += 1;
        }
        let mut star = 0;
        if b.get(i) == Some(&b'*') {
            star += 1;
            i += 1;
        }
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            if b.get(i) == Some(&b'*') {
                star += 1;
                i += 1;
            }
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
        let mut vec_n: Option<u32> = None;
        if b.get(i) == Some(&b'v') {
            i += 1;
            let d0 = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let n: u32 = fmt[d0..i].parse().unwrap_or(0);
            vec_n = Some(n);
        }
        let (len, len_text) = match (b.get(i), b.get(i + 1)) {
            (Some(b'h'), Some(b'h')) => (Some(8u32), "hh"),
            (Some(b'h'), Some(b'l')) => (Some(32), "hl"),
            (Some(b'h'), _) => (Some(16), "h"),
            (Some(b'l'), _) => (Some(64), "l"),
            _ => (None, ""),
        };
        i += len_text.len();
        let Some(&conv) = b.get(i) else {
            fmt_err(
                &mut out,
                format!("incomplete format specifier '{}'{NOTHING}", &fmt[start..]),
            );
            break;
        };
        // The specifier as written, for messages (conversion letters are ASCII).
        i += 1;
        let spec = String::from_utf8_lossy(&b[start..i]).into_owned();
        if star > 0 {
            fmt_err(
                &mut out,
                format!("'*' width or precision in '{spec}' is not supported by OpenCL C printf{NOTHING}"),
            );
            next += star;
        }
        let int_conv = b"diouxXc".contains(&conv);
        let float_conv = b"fFeEgGaA".contains(&conv);
        if !int_conv && !float_conv && !b"sp".contains(&conv) {
            let shown = String::from_utf8_lossy(&b[i - 1..i]).into_owned();
            fmt_err(
                &mut out,
                format!("invalid conversion specifier '{shown}' in '{spec}'{NOTHING}"),
            );
            next += 1;
            continue;
        }
        let mut broken = false;
        if let Some(n) = vec_n {
            if !matches!(n, 2 | 3 | 4 | 8 | 16) {
                fmt_err(
                    &mut out,
                    format!("invalid vector length in '{spec}': OpenCL C allows 2, 3, 4, 8 or 16{NOTHING}"),
                );
                broken = true;
            }
            if len.is_none() {
                fmt_err(
                    &mut out,
                    format!("vector specifier '{spec}' needs a length modifier (hh, h, hl or l){NOTHING}"),
                );
                broken = true;
            }
            if !(float_conv || (int_conv && conv != b'c')) {
                fmt_err(
                    &mut out,
                    format!("vector specifier in '{spec}' is not allowed with the '{}' conversion{NOTHING}", conv as char),
                );
                broken = true;
            }
            if float_conv && len == Some(8) {
                fmt_err(
                    &mut out,
                    format!("length modifier 'hh' in '{spec}' does not apply to a floating-point vector"),
                );
            }
        } else if len == Some(32) {
            fmt_err(
                &mut out,
                format!("length modifier 'hl' in '{spec}' is only valid with a vector specifier{NOTHING}"),
            );
            broken = true;
        }
        let idx = next;
        next += 1;
        let Some(a) = args.get(idx) else {
            fmt_err(
                &mut out,
                format!(
                    "more '%' conversions than data arguments: '{spec}' has no argument{NOTHING}"
                ),
            );
            continue;
        };
        if broken {
            continue;
        }
        let mismatch = |want: &str| Finding {
            arg: Some(idx),
            msg: format!(
                "format '{spec}' expects {want}, but the argument has type '{}'",
                arg_name(a)
            ),
        };
        match (vec_n, a) {
            (Some(n), PArg::Vector(s, m)) => {
                if *m as u32 != n {
                    out.push(Finding {
                        arg: Some(idx),
                        msg: format!(
                            "format '{spec}' expects a vector of {n} elements, but the argument has type '{}'{NOTHING}",
                            arg_name(a)
                        ),
                    });
                    continue;
                }
                let bits = s.size() * 8;
                let ok = if float_conv {
                    s.is_float() && Some(bits) == len
                } else {
                    !s.is_float() && Some(bits) == len
                };
                if !ok {
                    let want = match (float_conv, len) {
                        (true, Some(16)) => "half",
                        (true, Some(32)) => "float",
                        (true, _) => "double",
                        (false, Some(8)) => "char",
                        (false, Some(16)) => "short",
                        (false, Some(32)) => "int",
                        (false, _) => "long",
                    };
                    out.push(mismatch(&format!("a {want}{n} vector")));
                }
            }
            (Some(n), _) => out.push(Finding {
                arg: Some(idx),
                msg: format!(
                    "format '{spec}' expects a vector of {n} elements, but the argument has type '{}'{NOTHING}",
                    arg_name(a)
                ),
            }),
            (None, PArg::Vector(..)) => out.push(Finding {
                arg: Some(idx),
                msg: format!(
                    "format '{spec}' expects a scalar, but the argument has type '{}': use a vector specifier such as '%v{}{}'",
                    arg_name(a),
                    match a {
                        PArg::Vector(_, m) => *m,
                        _ => 0,
                    },
                    match a {
                        PArg::Vector(s, _) if s.is_float() => "hlf",
                        _ => "hld",
                    }
                ),
            }),
            (None, a) => {
                let f = match conv {
                    b's' => (!matches!(a, PArg::Str | PArg::Pointer(true)))
                        .then(|| mismatch("a string ('char *')")),
                    b'p' => (!matches!(a, PArg::Str | PArg::Pointer(_)))
                        .then(|| mismatch("a pointer")),
                    _ if float_conv => match a {
                        PArg::Scalar(s) if s.is_float() => None,
                        _ => Some(mismatch("a floating-point value ('double')")),
                    },
                    _ => match a {
                        PArg::Scalar(s) if !s.is_float() => {
                            let size = s.size().max(4) * 8;
                            let want = len.unwrap_or(32).max(if conv == b'c' { 8 } else { 0 });
                            // Default promotions make char/short arguments ints: hh and h
                            // take those; l needs a 64-bit argument and the others at most 32.
                            if (want == 64) != (size == 64) {
                                Some(mismatch(if want == 64 {
                                    "a 64-bit integer ('long')"
                                } else {
                                    "a 32-bit integer ('int')"
                                }))
                            } else {
                                None
                            }
                        }
                        _ => Some(mismatch("an integer")),
                    },
                };
                out.extend(f);
            }
        }
    }
    if next < args.len() {
        out.push(Finding {
            arg: Some(next),
            msg: "data argument not used by format string".into(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use Scalar::*;

    fn msgs(fmt: &str, args: &[PArg]) -> Vec<String> {
        check(fmt, args).into_iter().map(|f| f.msg).collect()
    }

    #[test]
    fn valid_formats_have_no_findings() {
        assert!(msgs(
            "x=%d y=%5.2f %% %s %c %p\n",
            &[
                PArg::Scalar(I32),
                PArg::Scalar(F32),
                PArg::Str,
                PArg::Scalar(I8),
                PArg::Pointer(false),
            ]
        )
        .is_empty());
        assert!(msgs(
            "%v4hld %v2hlf %v8hhx %v16hd %v3lf %lu",
            &[
                PArg::Vector(I32, 4),
                PArg::Vector(F32, 2),
                PArg::Vector(U8, 8),
                PArg::Vector(I16, 16),
                PArg::Vector(F64, 3),
                PArg::Scalar(U64),
            ]
        )
        .is_empty());
        assert!(msgs(
            "%hhd %hd %x",
            &[PArg::Scalar(I8), PArg::Scalar(I16), PArg::Scalar(U32)]
        )
        .is_empty());
    }

    #[test]
    fn malformed_specifiers() {
        let m = msgs("%k %v5hd %v4d %hld %vhd %", &[PArg::Scalar(I32); 5]);
        assert!(m[0].contains("invalid conversion specifier 'k'"), "{m:?}");
        assert!(m[1].contains("invalid vector length"), "{m:?}");
        assert!(m[2].contains("needs a length modifier"), "{m:?}");
        assert!(m[3].contains("only valid with a vector specifier"), "{m:?}");
        assert!(m[4].contains("invalid vector length"), "{m:?}");
        assert!(
            m.iter().any(|x| x.contains("incomplete format specifier")),
            "{m:?}"
        );
        assert!(m.iter().all(|x| x.contains("prints nothing")), "{m:?}");
        let m = msgs("%v4hls", &[PArg::Vector(I32, 4)]);
        assert!(
            m[0].contains("not allowed with the 's' conversion"),
            "{m:?}"
        );
    }

    #[test]
    fn argument_count_and_types() {
        let m = msgs("%d %d\n", &[PArg::Scalar(I32)]);
        assert_eq!(m.len(), 1);
        assert!(m[0].contains("more '%' conversions than data arguments"));
        let f = check("%d\n", &[PArg::Scalar(I32), PArg::Scalar(I32)]);
        assert_eq!(f[0].arg, Some(1));
        assert!(f[0].msg.contains("not used"));
        let m = msgs(
            "%d %f %s %ld %d %v4hld %v4hlf %v2hld",
            &[
                PArg::Scalar(F32),
                PArg::Scalar(I32),
                PArg::Scalar(I32),
                PArg::Scalar(I32),
                PArg::Scalar(I64),
                PArg::Vector(I32, 2),
                PArg::Vector(I32, 4),
                PArg::Scalar(I32),
            ],
        );
        assert_eq!(m.len(), 8, "{m:?}");
        assert!(m[0].contains("expects an integer") && m[0].contains("'float'"));
        assert!(m[1].contains("floating-point"));
        assert!(m[2].contains("string"));
        assert!(m[3].contains("'long'"));
        assert!(m[4].contains("'int'"));
        assert!(m[5].contains("vector of 4 elements") && m[5].contains("int2"));
        assert!(m[6].contains("float4 vector"));
        assert!(m[7].contains("vector of 2 elements"));
        let m = msgs("%d", &[PArg::Vector(F32, 4)]);
        assert!(m[0].contains("'%v4hlf'"), "{m:?}");
    }
}
