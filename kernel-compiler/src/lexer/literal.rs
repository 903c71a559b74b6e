//! Decoding of literals: pp-numbers to integer/floating constants (C99 6.4.4.1, 6.4.4.2),
//! character constants (6.4.4.4) and string literals (6.4.5), and the conversion of
//! preprocessing tokens to parser tokens.

use super::{PpKind, PpToken};
use crate::diag::Diagnostics;
use crate::source::Loc;
use crate::token::{FloatSuffix, Token, TokenKind};

/// Converts a preprocessing token to a parser token.
///
/// Malformed literals are reported and replaced by a zero constant of the same family so that
/// the parser can go on; stray characters are reported and dropped (`None`).
pub fn convert(t: &PpToken, diags: &mut Diagnostics) -> Option<Token> {
    let kind = match &t.kind {
        PpKind::Ident(s) => TokenKind::Ident(s.clone()),
        PpKind::Punct(p) => TokenKind::Punct(*p),
        PpKind::Number(s) => match parse_number(s) {
            Ok((k, warning)) => {
                if let Some(w) = warning {
                    diags.warning(t.loc, w);
                }
                k
            }
            Err(msg) => {
                diags.error(t.loc, msg);
                TokenKind::Int {
                    value: 0,
                    unsigned: false,
                    long: false,
                    decimal: true,
                }
            }
        },
        PpKind::Char(s) => TokenKind::Char(decode_char(s, t.loc, diags)),
        PpKind::Str(s) => TokenKind::Str(decode_string(s, t.loc, diags)),
        PpKind::HeaderName(s) => {
            let inner = s.get(1..s.len().saturating_sub(1)).unwrap_or("");
            TokenKind::Str(inner.to_string())
        }
        PpKind::Unterminated(s) => {
            let q = if s.trim_start_matches(['L', 'u', 'U']).starts_with('\'') {
                "'"
            } else {
                "\""
            };
            diags.error(t.loc, format!("missing terminating {q} character"));
            return None;
        }
        PpKind::Other(c) => {
            let shown = if c.is_control() {
                format!("\\{:03o}", *c as u32)
            } else {
                c.to_string()
            };
            diags.error(t.loc, format!("stray '{shown}' in program"));
            return None;
        }
    };
    Some(Token {
        kind,
        loc: t.loc,
        space_before: t.space_before,
    })
}

/// Parses a pp-number into an integer or floating constant.
///
/// Returns the token kind and an optional warning (such as a floating constant out of range),
/// or an error message in the words C compilers use.
pub fn parse_number(s: &str) -> Result<(TokenKind, Option<String>), String> {
    let b = s.as_bytes();
    let is_hex = b.len() >= 2 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X');
    if is_hex {
        let body = &s[2..];
        if body.contains(['.', 'p', 'P']) {
            return parse_hex_float(s, body);
        }
        return parse_int(s, body, 16);
    }
    // Decimal or octal: float if it has a '.' or an exponent before the suffix.
    let digits_end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let rest = &s[digits_end..];
    if rest.starts_with('.') || rest.starts_with(['e', 'E']) {
        return parse_dec_float(s);
    }
    let digits = &s[..digits_end];
    if digits.len() > 1 && digits.starts_with('0') {
        parse_int(s, &s[1..], 8)
    } else {
        parse_int(s, s, 10)
    }
}

fn parse_int(whole: &str, body: &str, radix: u32) -> Result<(TokenKind, Option<String>), String> {
    let end = body
        .find(|c: char| !c.is_ascii_hexdigit() || (radix != 16 && !c.is_ascii_digit()))
        .unwrap_or(body.len());
    let (digits, suffix) = body.split_at(end);
    if radix == 16 && digits.is_empty() {
        return Err(format!("invalid suffix \"{body}\" on integer constant"));
    }
    let (unsigned, long) = int_suffix(suffix)
        .ok_or_else(|| format!("invalid suffix \"{suffix}\" on integer constant"))?;
    let mut value: u64 = 0;
    let mut overflow = false;
    for ch in digits.chars() {
        let d = ch.to_digit(16).unwrap_or(0);
        if d >= radix {
            return Err(format!("invalid digit \"{ch}\" in octal constant"));
        }
        match value
            .checked_mul(radix as u64)
            .and_then(|v| v.checked_add(d as u64))
        {
            Some(v) => value = v,
            None => overflow = true,
        }
    }
    if overflow {
        return Err(format!(
            "integer constant '{whole}' is too large for its type"
        ));
    }
    Ok((
        TokenKind::Int {
            value,
            unsigned,
            long,
            decimal: radix == 10,
        },
        None,
    ))
}

/// Suffix of an integer constant: (unsigned, long) or None when invalid.
fn int_suffix(s: &str) -> Option<(bool, bool)> {
    Some(match s {
        "" => (false, false),
        "u" | "U" => (true, false),
        "l" | "L" | "ll" | "LL" => (false, true),
        "ul" | "uL" | "Ul" | "UL" | "lu" | "lU" | "Lu" | "LU" | "ull" | "uLL" | "Ull" | "ULL"
        | "llu" | "llU" | "LLu" | "LLU" => (true, true),
        _ => return None,
    })
}

fn float_suffix(s: &str) -> Option<FloatSuffix> {
    match s {
        "" => Some(FloatSuffix::None),
        "f" | "F" => Some(FloatSuffix::F),
        "h" | "H" => Some(FloatSuffix::H),
        _ => None,
    }
}

fn range_warning(value: f64, suffix: FloatSuffix) -> Option<String> {
    if value.is_infinite() {
        let ty = match suffix {
            FloatSuffix::None => "double",
            FloatSuffix::F => "float",
            FloatSuffix::H => "half",
        };
        Some(format!("floating constant exceeds range of '{ty}'"))
    } else {
        None
    }
}

fn parse_dec_float(s: &str) -> Result<(TokenKind, Option<String>), String> {
    let int_end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let int_part = &s[..int_end];
    let mut rest = &s[int_end..];
    let mut frac_part = "";
    if let Some(r) = rest.strip_prefix('.') {
        let fe = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
        frac_part = &r[..fe];
        rest = &r[fe..];
    }
    let mut exp = String::new();
    if let Some(r) = rest.strip_prefix(['e', 'E']) {
        let mut r2 = r;
        if let Some(x) = r.strip_prefix(['+', '-']) {
            exp.push(r.as_bytes()[0] as char);
            r2 = x;
        }
        let ee = r2.find(|c: char| !c.is_ascii_digit()).unwrap_or(r2.len());
        if ee == 0 {
            return Err("exponent has no digits".to_string());
        }
        exp.push_str(&r2[..ee]);
        rest = &r2[ee..];
    }
    let suffix = float_suffix(rest)
        .ok_or_else(|| format!("invalid suffix \"{rest}\" on floating constant"))?;
    if int_part.is_empty() && frac_part.is_empty() {
        return Err(format!("invalid numeric constant '{s}'"));
    }
    let norm = format!(
        "{}.{}e{}",
        if int_part.is_empty() { "0" } else { int_part },
        if frac_part.is_empty() { "0" } else { frac_part },
        if exp.is_empty() { "0" } else { exp.as_str() }
    );
    let value = match suffix {
        FloatSuffix::None => norm.parse::<f64>(),
        FloatSuffix::F | FloatSuffix::H => norm.parse::<f32>().map(f64::from),
    }
    .map_err(|_| format!("invalid floating constant '{s}'"))?;
    Ok((
        TokenKind::Float { value, suffix },
        range_warning(value, suffix),
    ))
}

fn parse_hex_float(whole: &str, body: &str) -> Result<(TokenKind, Option<String>), String> {
    let mut mant: u64 = 0;
    let mut sig_digits = 0u32;
    let mut sticky = false;
    let mut exp_adj: i64 = 0;
    let mut any_digit = false;
    let mut seen_dot = false;
    let mut idx = 0;
    let bytes = body.as_bytes();
    while idx < bytes.len() {
        let c = bytes[idx] as char;
        if c == '.' {
            if seen_dot {
                return Err(format!("invalid numeric constant '{whole}'"));
            }
            seen_dot = true;
        } else if let Some(d) = c.to_digit(16) {
            any_digit = true;
            if mant == 0 && d == 0 {
                if seen_dot {
                    exp_adj -= 4;
                }
            } else if sig_digits < 16 {
                mant = (mant << 4) | d as u64;
                sig_digits += 1;
                if seen_dot {
                    exp_adj -= 4;
                }
            } else {
                sticky |= d != 0;
                if !seen_dot {
                    exp_adj += 4;
                }
            }
        } else {
            break;
        }
        idx += 1;
    }
    if !any_digit {
        return Err(format!("invalid numeric constant '{whole}'"));
    }
    let rest = &body[idx..];
    let Some(r) = rest.strip_prefix(['p', 'P']) else {
        return Err("hexadecimal floating constant requires an exponent".to_string());
    };
    let (neg, r) = match r.strip_prefix('-') {
        Some(x) => (true, x),
        None => (false, r.strip_prefix('+').unwrap_or(r)),
    };
    let ee = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
    if ee == 0 {
        return Err("exponent has no digits".to_string());
    }
    // Saturate huge exponents: the value is then 0 or infinity anyway.
    let e: i64 = r[..ee].parse::<i64>().unwrap_or(i64::MAX / 4).min(1 << 20);
    let e = if neg { -e } else { e };
    let suffix_s = &r[ee..];
    let suffix = float_suffix(suffix_s)
        .ok_or_else(|| format!("invalid suffix \"{suffix_s}\" on floating constant"))?;
    if sticky {
        mant |= 1;
    }
    let total = e + exp_adj;
    let base = match suffix {
        FloatSuffix::None => mant as f64,
        FloatSuffix::F | FloatSuffix::H => f64::from(mant as f32),
    };
    let mut value = scale2(base, total);
    if suffix != FloatSuffix::None {
        value = f64::from(value as f32);
    }
    Ok((
        TokenKind::Float { value, suffix },
        range_warning(value, suffix),
    ))
}

/// `x * 2^e` without intermediate overflow for large |e|.
fn scale2(mut x: f64, mut e: i64) -> f64 {
    while e > 0 && x.is_finite() && x != 0.0 {
        let k = e.min(1000);
        x *= 2f64.powi(k as i32);
        e -= k;
    }
    while e < 0 && x != 0.0 {
        let k = (-e).min(1000);
        x *= 2f64.powi(-(k as i32));
        e += k;
    }
    x
}

/// Decodes the escape sequences of a character constant or string literal body.
/// Literal characters contribute their UTF-8 bytes; escapes contribute one byte (or one code
/// unit for wide literals, truncated to 32 bits).
fn decode_units(body: &str, wide: bool, loc: Loc, diags: &mut Diagnostics) -> Vec<u32> {
    let mut out = Vec::with_capacity(body.len());
    let mut it = body.chars().peekable();
    let max = if wide { u32::MAX as u64 } else { 0xff };
    while let Some(c) = it.next() {
        if c != '\\' {
            if wide {
                out.push(c as u32);
            } else {
                let mut buf = [0u8; 4];
                out.extend(c.encode_utf8(&mut buf).bytes().map(u32::from));
            }
            continue;
        }
        let Some(e) = it.next() else {
            out.push('\\' as u32);
            break;
        };
        let v: u64 = match e {
            'n' => 10,
            't' => 9,
            'r' => 13,
            'v' => 11,
            'b' => 8,
            'f' => 12,
            'a' => 7,
            'e' | 'E' => 27,
            '\\' | '\'' | '"' | '?' => e as u64,
            '0'..='7' => {
                let mut v = e as u64 - '0' as u64;
                for _ in 0..2 {
                    match it.peek() {
                        Some(d @ '0'..='7') => {
                            v = v * 8 + (*d as u64 - '0' as u64);
                            it.next();
                        }
                        _ => break,
                    }
                }
                if v > max {
                    diags.error(loc, "octal escape sequence out of range");
                }
                v
            }
            'x' => {
                let mut v: u64 = 0;
                let mut n = 0;
                while let Some(d) = it.peek().and_then(|d| d.to_digit(16)) {
                    v = v.saturating_mul(16).saturating_add(d as u64);
                    n += 1;
                    it.next();
                }
                if n == 0 {
                    diags.error(loc, "\\x used with no following hex digits");
                } else if v > max {
                    diags.error(loc, "hex escape sequence out of range");
                }
                v
            }
            other => {
                diags.warning(loc, format!("unknown escape sequence '\\{other}'"));
                other as u64
            }
        };
        out.push((v & max) as u32);
    }
    out
}

/// Splits a literal spelling into (wide prefix?, body without quotes).
fn split_literal(s: &str, q: char) -> (bool, &str) {
    let (wide, rest) = match s.strip_prefix(['L', 'u', 'U']) {
        Some(r) => (true, r),
        None => (false, s),
    };
    let rest = rest.strip_prefix(q).unwrap_or(rest);
    let rest = rest.strip_suffix(q).unwrap_or(rest);
    (wide, rest)
}

/// Decodes a character constant spelling (`'a'`, `'\x41'`, `L'x'`) to its `int` value.
///
/// A plain single-byte constant has type `char`, which is signed in OpenCL C, so `'\xff'` is
/// -1. Multi-character constants get the value GCC gives them, with a warning.
pub fn decode_char(s: &str, loc: Loc, diags: &mut Diagnostics) -> i64 {
    let (wide, body) = split_literal(s, '\'');
    let units = decode_units(body, wide, loc, diags);
    match units.len() {
        0 => {
            diags.error(loc, "empty character constant");
            0
        }
        1 if wide => units[0] as i64,
        1 => units[0] as u8 as i8 as i64,
        _ => {
            diags.warning(loc, "multi-character character constant");
            let mut v: u32 = 0;
            for u in units {
                v = (v << 8) | (u & 0xff);
            }
            v as i32 as i64
        }
    }
}

/// Decodes a string literal spelling to its text. Byte sequences that are not UTF-8 (from
/// `\x` or octal escapes) are kept one character per byte (U+0000..U+00FF).
pub fn decode_string(s: &str, loc: Loc, diags: &mut Diagnostics) -> String {
    let (wide, body) = split_literal(s, '"');
    let units = decode_units(body, wide, loc, diags);
    if wide {
        return units
            .into_iter()
            .map(|u| char::from_u32(u).unwrap_or('\u{fffd}'))
            .collect();
    }
    let bytes: Vec<u8> = units.into_iter().map(|u| u as u8).collect();
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => e.into_bytes().into_iter().map(char::from).collect(),
    }
}
