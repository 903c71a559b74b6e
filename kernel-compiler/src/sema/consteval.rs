//! Compile-time evaluation of constant expressions (array sizes, case labels, attribute
//! arguments, enumerators, `__constant` initializers, loop bounds).

use crate::ir::Scalar;
use crate::sema::types::{common_scalar, promote};

/// A constant value with its scalar type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CVal {
    Int(i128, Scalar),
    Float(f64, Scalar),
}

impl CVal {
    pub fn scalar(self) -> Scalar {
        match self {
            CVal::Int(_, s) | CVal::Float(_, s) => s,
        }
    }
    /// The value as an integer (floats truncate).
    pub fn as_i128(self) -> i128 {
        match self {
            CVal::Int(v, _) => v,
            CVal::Float(f, _) => {
                if f.is_finite() {
                    f as i128
                } else {
                    0
                }
            }
        }
    }
    pub fn as_f64(self) -> f64 {
        match self {
            CVal::Int(v, _) => v as f64,
            CVal::Float(f, _) => f,
        }
    }
    pub fn is_true(self) -> bool {
        match self {
            CVal::Int(v, _) => v != 0,
            CVal::Float(f, _) => f != 0.0,
        }
    }
    /// Converts to another scalar type with C semantics (integers wrap, floats round).
    pub fn cast(self, to: Scalar) -> CVal {
        if to.is_float() {
            let f = self.as_f64();
            let f = if to == Scalar::F32 || to == Scalar::F16 {
                f as f32 as f64
            } else {
                f
            };
            return CVal::Float(f, to);
        }
        if to == Scalar::Bool {
            return CVal::Int(self.is_true() as i128, to);
        }
        CVal::Int(wrap(self.as_i128(), to), to)
    }
    /// Slot encoding of the value (see `ir` module docs).
    pub fn slot_bits(self) -> u64 {
        match self {
            CVal::Int(v, _) => v as i64 as u64,
            CVal::Float(f, s) => match s {
                Scalar::F32 => (f as f32).to_bits() as u64,
                Scalar::F16 => f32_to_f16(f as f32) as u64,
                _ => f.to_bits(),
            },
        }
    }
    /// Little-endian bytes of the value as stored in memory as `s`.
    pub fn mem_bytes(self, s: Scalar) -> Vec<u8> {
        let v = self.cast(s);
        let bits = v.slot_bits();
        bits.to_le_bytes()[..s.size() as usize].to_vec()
    }
}

/// Wraps an integer to the range of `s`.
pub fn wrap(v: i128, s: Scalar) -> i128 {
    match s {
        Scalar::Bool => (v != 0) as i128,
        Scalar::I8 => v as i8 as i128,
        Scalar::U8 => v as u8 as i128,
        Scalar::I16 => v as i16 as i128,
        Scalar::U16 => v as u16 as i128,
        Scalar::I32 => v as i32 as i128,
        Scalar::U32 => v as u32 as i128,
        Scalar::I64 => v as i64 as i128,
        Scalar::U64 => v as u64 as i128,
        _ => v,
    }
}

/// IEEE single to half conversion (round to nearest even).
pub fn f32_to_f16(f: f32) -> u16 {
    let x = f.to_bits();
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xff) as i32;
    let man = x & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let r = if rem > mid || (rem == mid && (half & 1) == 1) {
            half + 1
        } else {
            half
        };
        return sign | r as u16;
    }
    let half = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1fff;
    let r = if rem > 0x1000 || (rem == 0x1000 && (half & 1) == 1) {
        half + 1
    } else {
        half
    };
    sign | r as u16
}

/// Binary arithmetic on constants with the usual arithmetic conversions. `None` for division
/// by zero or an operator that does not apply.
pub fn binary(op: crate::ast::BinaryOp, a: CVal, b: CVal) -> Option<CVal> {
    use crate::ast::BinaryOp::*;
    match op {
        LogAnd => return Some(CVal::Int((a.is_true() && b.is_true()) as i128, Scalar::I32)),
        LogOr => return Some(CVal::Int((a.is_true() || b.is_true()) as i128, Scalar::I32)),
        Shl | Shr => {
            let t = promote(a.scalar());
            if t.is_float() || b.scalar().is_float() {
                return None;
            }
            let bits = t.size() * 8;
            let n = (b.as_i128().rem_euclid(bits as i128)) as u32;
            let v = a.cast(t).as_i128();
            let r = if op == Shl { v << n } else { v >> n };
            return Some(CVal::Int(wrap(r, t), t));
        }
        _ => {}
    }
    let t = common_scalar(a.scalar(), b.scalar());
    let (a, b) = (a.cast(t), b.cast(t));
    if t.is_float() {
        let (x, y) = (a.as_f64(), b.as_f64());
        let r = match op {
            Mul => x * y,
            Div => x / y,
            Add => x + y,
            Sub => x - y,
            Lt => return Some(CVal::Int((x < y) as i128, Scalar::I32)),
            Gt => return Some(CVal::Int((x > y) as i128, Scalar::I32)),
            Le => return Some(CVal::Int((x <= y) as i128, Scalar::I32)),
            Ge => return Some(CVal::Int((x >= y) as i128, Scalar::I32)),
            Eq => return Some(CVal::Int((x == y) as i128, Scalar::I32)),
            Ne => return Some(CVal::Int((x != y) as i128, Scalar::I32)),
            _ => return None,
        };
        return Some(CVal::Float(r, t).cast(t));
    }
    let (x, y) = (a.as_i128(), b.as_i128());
    let r = match op {
        Mul => x.wrapping_mul(y),
        Div => {
            if y == 0 {
                return None;
            }
            x / y
        }
        Rem => {
            if y == 0 {
                return None;
            }
            x % y
        }
        Add => x + y,
        Sub => x - y,
        BitAnd => x & y,
        BitOr => x | y,
        BitXor => x ^ y,
        Lt => return Some(CVal::Int((x < y) as i128, Scalar::I32)),
        Gt => return Some(CVal::Int((x > y) as i128, Scalar::I32)),
        Le => return Some(CVal::Int((x <= y) as i128, Scalar::I32)),
        Ge => return Some(CVal::Int((x >= y) as i128, Scalar::I32)),
        Eq => return Some(CVal::Int((x == y) as i128, Scalar::I32)),
        Ne => return Some(CVal::Int((x != y) as i128, Scalar::I32)),
        _ => return None,
    };
    Some(CVal::Int(wrap(r, t), t))
}

/// The type of an integer literal (C99 6.4.4.1 with OpenCL's 64-bit `long`).
pub fn int_literal_type(value: u64, unsigned: bool, long: bool, decimal: bool) -> Scalar {
    let fits_i32 = value <= i32::MAX as u64;
    let fits_u32 = value <= u32::MAX as u64;
    let fits_i64 = value <= i64::MAX as u64;
    match (unsigned, long) {
        (false, false) => {
            if fits_i32 {
                Scalar::I32
            } else if !decimal && fits_u32 {
                Scalar::U32
            } else if fits_i64 {
                Scalar::I64
            } else {
                Scalar::U64
            }
        }
        (true, false) => {
            if fits_u32 {
                Scalar::U32
            } else {
                Scalar::U64
            }
        }
        (false, true) => {
            if fits_i64 {
                Scalar::I64
            } else {
                Scalar::U64
            }
        }
        (true, true) => Scalar::U64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::BinaryOp;

    #[test]
    fn literal_types() {
        assert_eq!(int_literal_type(5, false, false, true), Scalar::I32);
        assert_eq!(
            int_literal_type(0xffff_ffff, false, false, false),
            Scalar::U32
        );
        assert_eq!(
            int_literal_type(0xffff_ffff, false, false, true),
            Scalar::I64
        );
        assert_eq!(int_literal_type(1, true, true, true), Scalar::U64);
    }

    #[test]
    fn arithmetic() {
        let a = CVal::Int(7, Scalar::I32);
        let b = CVal::Int(2, Scalar::I32);
        assert_eq!(binary(BinaryOp::Div, a, b), Some(CVal::Int(3, Scalar::I32)));
        assert_eq!(binary(BinaryOp::Div, a, CVal::Int(0, Scalar::I32)), None);
        assert_eq!(
            binary(
                BinaryOp::Sub,
                CVal::Int(0, Scalar::U32),
                CVal::Int(1, Scalar::I32)
            ),
            Some(CVal::Int(u32::MAX as i128, Scalar::U32))
        );
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(-2.5), 0xc100);
    }
}
