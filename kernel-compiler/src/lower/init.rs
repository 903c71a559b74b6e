//! Initializers: brace lists (with designators and brace elision) flattened into leaves, each
//! a scalar, vector, pointer, struct copy or string at a byte offset of the object.

use super::{LResult, Program};
use crate::ast::{Designator, Expr, ExprKind, Init, UnaryOp};
use crate::ir::Scalar;
use crate::sema::types::Type;

/// One initialized piece of an object.
#[derive(Clone, Debug)]
pub(crate) struct Leaf {
    pub offset: u32,
    pub ty: Type,
    pub expr: Expr,
}

/// The element count of `T x[] = init` (the initializer completes the array type).
pub(crate) fn init_len(init: &Init) -> Option<u32> {
    match init {
        Init::Expr(Expr {
            kind: ExprKind::Str(s),
            ..
        }) => Some(s.len() as u32 + 1),
        Init::List(items, _) => Some(items.len() as u32),
        _ => None,
    }
}

fn is_literalish(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int { .. } | ExprKind::Float { .. } | ExprKind::Char(_) => true,
        ExprKind::Unary(UnaryOp::Neg | UnaryOp::Plus, a) => is_literalish(a),
        ExprKind::Cast(_, a) => is_literalish(a),
        ExprKind::Binary(_, a, b) => is_literalish(a) && is_literalish(b),
        _ => false,
    }
}

/// Flattens `init` for an object of type `ty` at `offset`.
pub(crate) fn flatten(
    p: &mut Program,
    ty: &Type,
    offset: u32,
    init: &Init,
    out: &mut Vec<Leaf>,
) -> LResult<()> {
    match init {
        Init::Expr(e) => {
            out.push(Leaf {
                offset,
                ty: ty.clone(),
                expr: e.clone(),
            });
            Ok(())
        }
        Init::List(items, loc) => {
            if let Type::Vector(s, n) = ty {
                // `float4 v = {1, 2, 3, 4}`: one leaf per lane (sub-vectors are not split).
                if items.len() > *n as usize {
                    return Err(p.error(*loc, "excess elements in vector initializer"));
                }
                for (i, (_, it)) in items.iter().enumerate() {
                    flatten(p, &Type::Scalar(*s), offset + i as u32 * s.size(), it, out)?;
                }
                return Ok(());
            }
            if !ty.is_aggregate() {
                if items.len() > 1 {
                    p.diags
                        .warning(*loc, "excess elements in scalar initializer");
                }
                if let Some((_, it)) = items.first() {
                    flatten(p, ty, offset, it, out)?;
                }
                return Ok(());
            }
            let mut pos = 0;
            fill(p, ty, offset, items, &mut pos, out, true)?;
            if pos < items.len() {
                let l = match &items[pos].1 {
                    Init::Expr(e) => e.loc,
                    Init::List(_, l) => *l,
                };
                let what = if matches!(ty, Type::Array(..)) {
                    "array"
                } else {
                    "struct"
                };
                p.diags
                    .warning(l, format!("excess elements in {what} initializer"));
            }
            Ok(())
        }
    }
}

type Items = [(Vec<Designator>, Init)];

fn fill(
    p: &mut Program,
    ty: &Type,
    offset: u32,
    items: &Items,
    pos: &mut usize,
    out: &mut Vec<Leaf>,
    top: bool,
) -> LResult<()> {
    match ty {
        Type::Array(el, n) => {
            let esz = p.size_of(el);
            let mut i: u32 = 0;
            while *pos < items.len() {
                let (desig, _) = &items[*pos];
                if let Some(d) = desig.first() {
                    if !top {
                        return Ok(());
                    }
                    match d {
                        Designator::Index(e) => match p.const_int(e) {
                            Some(v) if v >= 0 && (v as u64) < *n as u64 => i = v as u32,
                            _ => {
                                return Err(p.error(
                                    e.loc,
                                    "array designator index is out of range or not constant",
                                ))
                            }
                        },
                        Designator::Field(_, l) => {
                            return Err(p.error(*l, "field designator in an array initializer"))
                        }
                    }
                    if desig.len() > 1 {
                        return Err(
                            p.error(items[*pos].1.loc(), "nested designators are not supported")
                        );
                    }
                }
                if i >= *n {
                    break;
                }
                sub(p, el, offset + i * esz, items, pos, out)?;
                i += 1;
            }
            Ok(())
        }
        Type::Record(id) => {
            let Some(def) = p.recs.get(*id).cloned() else {
                return Ok(());
            };
            let mut fi = 0usize;
            while *pos < items.len() {
                let (desig, _) = &items[*pos];
                if let Some(d) = desig.first() {
                    if !top {
                        return Ok(());
                    }
                    match d {
                        Designator::Field(name, l) => match def.fields.iter().position(|f| &f.name == name) {
                            Some(x) => fi = x,
                            None => return Err(p.error(*l, format!("field designator '{name}' does not refer to any field in type '{}'", def.name))),
                        },
                        Designator::Index(e) => return Err(p.error(e.loc, "array designator in a struct initializer")),
                    }
                    if desig.len() > 1 {
                        return Err(
                            p.error(items[*pos].1.loc(), "nested designators are not supported")
                        );
                    }
                }
                if fi >= def.fields.len() || (def.is_union && fi > 0 && desig_empty(items, *pos)) {
                    break;
                }
                let f = &def.fields[fi];
                sub(p, &f.ty, offset + f.offset, items, pos, out)?;
                fi += 1;
                if def.is_union {
                    break;
                }
            }
            Ok(())
        }
        _ => sub(p, ty, offset, items, pos, out),
    }
}

fn desig_empty(items: &Items, pos: usize) -> bool {
    items[pos].0.is_empty()
}

fn sub(
    p: &mut Program,
    ty: &Type,
    offset: u32,
    items: &Items,
    pos: &mut usize,
    out: &mut Vec<Leaf>,
) -> LResult<()> {
    let (_, init) = &items[*pos];
    match init {
        Init::List(..) => {
            flatten(p, ty, offset, init, out)?;
            *pos += 1;
        }
        Init::Expr(e) => {
            let char_array_str = matches!(ty, Type::Array(el, _) if matches!(**el, Type::Scalar(Scalar::I8 | Scalar::U8)))
                && matches!(e.kind, ExprKind::Str(_));
            let elide = match ty {
                Type::Array(..) => !char_array_str,
                Type::Record(_) => is_literalish(e),
                _ => false,
            };
            if elide {
                fill(p, ty, offset, items, pos, out, false)?;
            } else {
                out.push(Leaf {
                    offset,
                    ty: ty.clone(),
                    expr: e.clone(),
                });
                *pos += 1;
            }
        }
    }
    Ok(())
}

impl Init {
    /// Location of an initializer.
    pub fn loc(&self) -> crate::source::Loc {
        match self {
            Init::Expr(e) => e.loc,
            Init::List(_, l) => *l,
        }
    }
}
