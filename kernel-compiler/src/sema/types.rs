//! The semantic types of OpenCL C: scalars, vectors, pointers with address spaces, arrays,
//! structs/unions, pipes and events; their sizes, alignments and C spellings.

use crate::ir::{AddrSpace, Scalar, ValTy};

/// Index of a struct or union in [`Records`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RecordId(pub u32);

/// A resolved type.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Void,
    Scalar(Scalar),
    Vector(Scalar, u8),
    Pointer(Box<Pointee>),
    /// Array of `n` elements (`n` = 0 only for an incomplete `T[]` before its initializer).
    Array(Box<Type>, u32),
    Record(RecordId),
    /// A pipe kernel argument carrying packets of the element type.
    Pipe(Box<Type>),
    /// `event_t`.
    Event,
    /// `sampler_t` and image types (accepted in declarations only).
    Opaque(&'static str),
}

/// What a pointer points to.
#[derive(Clone, Debug, PartialEq)]
pub struct Pointee {
    pub ty: Type,
    pub space: AddrSpace,
    pub is_const: bool,
    pub is_volatile: bool,
}

/// A struct or union field.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub name: String,
    pub ty: Type,
    pub offset: u32,
}

/// A struct or union definition with its layout.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordDef {
    /// `struct tag` / `union tag` (or `struct <anonymous>`).
    pub name: String,
    pub is_union: bool,
    pub fields: Vec<Field>,
    pub size: u32,
    pub align: u32,
    pub complete: bool,
}

/// All records of a program.
#[derive(Clone, Debug, Default)]
pub struct Records {
    pub defs: Vec<RecordDef>,
}

impl Records {
    pub fn get(&self, id: RecordId) -> Option<&RecordDef> {
        self.defs.get(id.0 as usize)
    }
}

impl Type {
    pub fn int() -> Type {
        Type::Scalar(Scalar::I32)
    }
    pub fn uint() -> Type {
        Type::Scalar(Scalar::U32)
    }
    pub fn size_t() -> Type {
        Type::Scalar(Scalar::U64)
    }
    pub fn ptr(ty: Type, space: AddrSpace) -> Type {
        Type::Pointer(Box::new(Pointee {
            ty,
            space,
            is_const: false,
            is_volatile: false,
        }))
    }

    /// The register type of a value of this type, for types held in registers.
    pub fn valty(&self) -> Option<ValTy> {
        match self {
            Type::Scalar(s) => Some(ValTy::scalar(*s)),
            Type::Vector(s, n) => Some(ValTy::vector(*s, *n)),
            Type::Pointer(_) | Type::Event | Type::Opaque(_) => Some(ValTy::scalar(Scalar::U64)),
            Type::Pipe(_) => Some(ValTy::scalar(Scalar::U32)),
            _ => None,
        }
    }
    pub fn lanes(&self) -> u8 {
        match self {
            Type::Vector(_, n) => *n,
            _ => 1,
        }
    }
    /// Element scalar of a scalar or vector type.
    pub fn elem(&self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) | Type::Vector(s, _) => Some(*s),
            _ => None,
        }
    }
    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Scalar(_))
    }
    pub fn is_vector(&self) -> bool {
        matches!(self, Type::Vector(..))
    }
    pub fn is_arith(&self) -> bool {
        matches!(self, Type::Scalar(_) | Type::Vector(..))
    }
    pub fn is_integer(&self) -> bool {
        self.elem().is_some_and(|s| !s.is_float())
    }
    pub fn is_float(&self) -> bool {
        self.elem().is_some_and(|s| s.is_float())
    }
    pub fn is_pointer(&self) -> bool {
        matches!(self, Type::Pointer(_))
    }
    pub fn is_aggregate(&self) -> bool {
        matches!(self, Type::Array(..) | Type::Record(_))
    }
    pub fn pointee(&self) -> Option<&Pointee> {
        match self {
            Type::Pointer(p) => Some(p),
            _ => None,
        }
    }
    /// Same type with another element scalar (`float4` -> `int4`).
    pub fn with_elem(&self, s: Scalar) -> Type {
        match self {
            Type::Vector(_, n) => Type::Vector(s, *n),
            _ => Type::Scalar(s),
        }
    }

    /// `sizeof`: vectors of 3 take the space of 4.
    pub fn size(&self, recs: &Records) -> u32 {
        match self {
            Type::Void => 1,
            Type::Scalar(s) => s.size(),
            Type::Vector(s, n) => s.size() * if *n == 3 { 4 } else { *n as u32 },
            Type::Pointer(_) | Type::Event | Type::Opaque(_) => 8,
            Type::Array(t, n) => t.size(recs).saturating_mul(*n),
            Type::Record(r) => recs.get(*r).map_or(0, |d| d.size),
            Type::Pipe(_) => 8,
        }
    }

    pub fn align(&self, recs: &Records) -> u32 {
        match self {
            Type::Void => 1,
            Type::Scalar(s) => s.size(),
            Type::Vector(..) => self.size(recs),
            Type::Pointer(_) | Type::Event | Type::Opaque(_) | Type::Pipe(_) => 8,
            Type::Array(t, _) => t.align(recs),
            Type::Record(r) => recs.get(*r).map_or(1, |d| d.align.max(1)),
        }
    }

    /// The OpenCL C spelling of the type (for diagnostics and argument metadata).
    pub fn name(&self, recs: &Records) -> String {
        match self {
            Type::Void => "void".into(),
            Type::Scalar(s) => s.c_name().into(),
            Type::Vector(s, n) => format!("{}{}", s.c_name(), n),
            Type::Pointer(p) => {
                let space = match p.space {
                    AddrSpace::Global => "__global ",
                    AddrSpace::Local => "__local ",
                    AddrSpace::Constant => "__constant ",
                    AddrSpace::Private => "",
                };
                let c = if p.is_const { "const " } else { "" };
                let inner = p.ty.name(recs);
                if inner.ends_with('*') {
                    format!("{space}{c}{inner}*")
                } else {
                    format!("{space}{c}{inner} *")
                }
            }
            Type::Array(t, n) => format!("{}[{}]", t.name(recs), n),
            Type::Record(r) => recs
                .get(*r)
                .map_or("struct <error>".into(), |d| d.name.clone()),
            Type::Pipe(t) => format!("pipe {}", t.name(recs)),
            Type::Event => "event_t".into(),
            Type::Opaque(n) => (*n).into(),
        }
    }
}

/// The scalar of a builtin scalar type name.
pub fn scalar_by_name(name: &str) -> Option<Scalar> {
    Some(match name {
        "bool" => Scalar::Bool,
        "char" => Scalar::I8,
        "uchar" => Scalar::U8,
        "short" => Scalar::I16,
        "ushort" => Scalar::U16,
        "int" => Scalar::I32,
        "uint" => Scalar::U32,
        "long" | "ptrdiff_t" | "intptr_t" => Scalar::I64,
        "ulong" | "size_t" | "uintptr_t" => Scalar::U64,
        "half" => Scalar::F16,
        "float" => Scalar::F32,
        "double" => Scalar::F64,
        _ => return None,
    })
}

/// Resolves a builtin type name (`int`, `float4`, `size_t`, `event_t`...).
pub fn builtin_type(name: &str) -> Option<Type> {
    if name == "void" {
        return Some(Type::Void);
    }
    if name == "event_t" {
        return Some(Type::Event);
    }
    if let Some(s) = scalar_by_name(name) {
        return Some(Type::Scalar(s));
    }
    if let Some((base, n)) = crate::parse::vector_name_parts(name) {
        return scalar_by_name(base).map(|s| Type::Vector(s, n));
    }
    match name {
        "sampler_t" => Some(Type::Opaque("sampler_t")),
        "image1d_t" => Some(Type::Opaque("image1d_t")),
        "image2d_t" => Some(Type::Opaque("image2d_t")),
        "image3d_t" => Some(Type::Opaque("image3d_t")),
        "image1d_array_t" => Some(Type::Opaque("image1d_array_t")),
        "image2d_array_t" => Some(Type::Opaque("image2d_array_t")),
        "image1d_buffer_t" => Some(Type::Opaque("image1d_buffer_t")),
        _ => None,
    }
}

/// Integer conversion rank (C99 6.3.1.1) for the usual arithmetic conversions.
pub fn rank(s: Scalar) -> u8 {
    match s {
        Scalar::Bool => 0,
        Scalar::I8 | Scalar::U8 => 1,
        Scalar::I16 | Scalar::U16 => 2,
        Scalar::I32 | Scalar::U32 => 3,
        Scalar::I64 | Scalar::U64 => 4,
        Scalar::F16 => 5,
        Scalar::F32 => 6,
        Scalar::F64 => 7,
    }
}

/// Integer promotion: types below `int` become `int`.
pub fn promote(s: Scalar) -> Scalar {
    if rank(s) < 3 {
        Scalar::I32
    } else {
        s
    }
}

/// The unsigned scalar of the same size.
pub fn unsigned_of(s: Scalar) -> Scalar {
    match s {
        Scalar::I8 => Scalar::U8,
        Scalar::I16 => Scalar::U16,
        Scalar::I32 => Scalar::U32,
        Scalar::I64 => Scalar::U64,
        Scalar::F16 => Scalar::U16,
        Scalar::F32 => Scalar::U32,
        Scalar::F64 => Scalar::U64,
        other => other,
    }
}

/// The signed integer scalar of the same size (`float` -> `int`, the relational result type).
pub fn signed_int_of_size(s: Scalar) -> Scalar {
    match s.size() {
        1 => Scalar::I8,
        2 => Scalar::I16,
        4 => Scalar::I32,
        _ => Scalar::I64,
    }
}

/// Usual arithmetic conversions of two scalar kinds (C99 6.3.1.8).
pub fn common_scalar(a: Scalar, b: Scalar) -> Scalar {
    if a.is_float() || b.is_float() {
        return if rank(a) >= rank(b) { a } else { b };
    }
    let (a, b) = (promote(a), promote(b));
    if a == b {
        return a;
    }
    let (ra, rb) = (rank(a), rank(b));
    if a.is_signed() == b.is_signed() {
        return if ra >= rb { a } else { b };
    }
    let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
    if rank(u) >= rank(s) {
        u
    } else {
        // The signed type (long) can represent every value of the unsigned (int) one.
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_conversions() {
        assert_eq!(common_scalar(Scalar::I8, Scalar::I16), Scalar::I32);
        assert_eq!(common_scalar(Scalar::I32, Scalar::U32), Scalar::U32);
        assert_eq!(common_scalar(Scalar::U32, Scalar::I64), Scalar::I64);
        assert_eq!(common_scalar(Scalar::U64, Scalar::I64), Scalar::U64);
        assert_eq!(common_scalar(Scalar::I32, Scalar::F32), Scalar::F32);
        assert_eq!(common_scalar(Scalar::F32, Scalar::F64), Scalar::F64);
    }

    #[test]
    fn sizes() {
        let r = Records::default();
        assert_eq!(Type::Vector(Scalar::F32, 3).size(&r), 16);
        assert_eq!(
            Type::Array(Box::new(Type::Vector(Scalar::I16, 2)), 5).size(&r),
            20
        );
        assert_eq!(builtin_type("uint8"), Some(Type::Vector(Scalar::U32, 8)));
        assert_eq!(builtin_type("size_t"), Some(Type::Scalar(Scalar::U64)));
    }
}
