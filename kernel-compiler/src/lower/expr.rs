//! Expressions: type checking with C's and OpenCL's conversion rules, and their IR.

use super::func::{FnLower, Prov, Val};
use super::{builtin_constant, Global, LResult};
use crate::ast::*;
use crate::ir::*;
use crate::sema::consteval::{self, CVal};
use crate::sema::types::{common_scalar, promote, signed_int_of_size, Pointee, Type};
use crate::source::Loc;
use crate::token::FloatSuffix;

/// Register value: (register, type, pointer provenance).
pub(crate) type RV = (Reg, Type, Option<Prov>);

/// Whether an expression is a null pointer constant (`0`, `(void*)0`).
pub(crate) fn is_null_const(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int { value: 0, .. } => true,
        ExprKind::Cast(_, a) => is_null_const(a),
        ExprKind::Ident(n) => n == "NULL",
        _ => false,
    }
}

/// Component indices of a swizzle name for a vector of `lanes` lanes.
pub(crate) fn swizzle(name: &str, lanes: u8) -> Result<Vec<u8>, String> {
    let n = lanes as usize;
    let half = n.div_ceil(2);
    let idx: Vec<u8> = match name {
        "lo" => (0..half as u8).collect(),
        "hi" => (half as u8..(2 * half) as u8)
            .map(|i| i.min(lanes - 1))
            .collect(),
        "even" => (0..half as u8).map(|i| (2 * i).min(lanes - 1)).collect(),
        "odd" => (0..half as u8)
            .map(|i| (2 * i + 1).min(lanes - 1))
            .collect(),
        _ => {
            if let Some(hex) = name.strip_prefix('s').or_else(|| name.strip_prefix('S')) {
                let mut v = vec![];
                for c in hex.chars() {
                    let d = c
                        .to_digit(16)
                        .ok_or_else(|| format!("illegal vector component name '{c}'"))?;
                    v.push(d as u8);
                }
                if v.is_empty() {
                    return Err(format!("illegal vector component name '{name}'"));
                }
                v
            } else {
                let mut v = vec![];
                for c in name.chars() {
                    let d = match c {
                        'x' => 0,
                        'y' => 1,
                        'z' => 2,
                        'w' => 3,
                        _ => return Err(format!("illegal vector component name '{c}'")),
                    };
                    v.push(d);
                }
                v
            }
        }
    };
    if let Some(bad) = idx.iter().find(|&&i| i as usize >= n) {
        return Err(format!(
            "vector component access exceeds type (component {bad} of a {lanes}-element vector)"
        ));
    }
    if !matches!(idx.len(), 1 | 2 | 3 | 4 | 8 | 16) {
        return Err(format!(
            "vector swizzle '{name}' selects {} components (allowed: 1, 2, 3, 4, 8, 16)",
            idx.len()
        ));
    }
    Ok(idx)
}

fn binop_ir(op: BinaryOp) -> Option<BinOp> {
    Some(match op {
        BinaryOp::Add => BinOp::Add,
        BinaryOp::Sub => BinOp::Sub,
        BinaryOp::Mul => BinOp::Mul,
        BinaryOp::Div => BinOp::Div,
        BinaryOp::Rem => BinOp::Rem,
        BinaryOp::BitAnd => BinOp::And,
        BinaryOp::BitOr => BinOp::Or,
        BinaryOp::BitXor => BinOp::Xor,
        BinaryOp::Shl => BinOp::Shl,
        BinaryOp::Shr => BinOp::Shr,
        _ => return None,
    })
}

fn cmpop_ir(op: BinaryOp) -> Option<CmpOp> {
    Some(match op {
        BinaryOp::Lt => CmpOp::Lt,
        BinaryOp::Gt => CmpOp::Gt,
        BinaryOp::Le => CmpOp::Le,
        BinaryOp::Ge => CmpOp::Ge,
        BinaryOp::Eq => CmpOp::Eq,
        BinaryOp::Ne => CmpOp::Ne,
        _ => return None,
    })
}

impl<'p, 'a> FnLower<'p, 'a> {
    /// Lowers an expression to a value (lvalue or rvalue).
    pub fn expr(&mut self, e: &Expr) -> LResult<Val> {
        let saved = self.loc;
        self.loc = e.loc;
        let r = self.expr_inner(e);
        self.loc = saved;
        r
    }

    /// Lowers an expression and loads it into registers (arrays decay to pointers).
    pub fn rvalue(&mut self, e: &Expr) -> LResult<RV> {
        let v = self.expr(e)?;
        self.load(v, e.loc)
    }

    /// Lowers a condition to a register that is non-zero when true (scalars only).
    pub fn cond(&mut self, e: &Expr) -> LResult<Reg> {
        let (r, t, _) = self.rvalue(e)?;
        self.truth(r, &t, e.loc)
    }

    /// A scalar truth value usable by `Branch`.
    pub fn truth(&mut self, r: Reg, t: &Type, loc: Loc) -> LResult<Reg> {
        match t {
            Type::Scalar(s) if s.is_float() => {
                let z = self.zero_of(ValTy::scalar(*s));
                let dst = self.alloc(1);
                self.emit(Inst::Cmp {
                    op: CmpOp::Ne,
                    ty: ValTy::scalar(*s),
                    dst_ty: ValTy::scalar(Scalar::I32),
                    dst,
                    a: r,
                    b: z,
                });
                Ok(dst)
            }
            Type::Scalar(_) | Type::Pointer(_) => Ok(r),
            other => {
                let n = self.ty_name(other);
                Err(self.error(
                    loc,
                    format!("statement requires expression of scalar type ('{n}' invalid)"),
                ))
            }
        }
    }

    /// Loads a value into registers.
    pub fn load(&mut self, v: Val, loc: Loc) -> LResult<RV> {
        match v {
            Val::R { reg, ty, prov } => Ok((reg, ty, prov)),
            Val::RegVar { reg, ty, prov, .. } => Ok((reg, ty, prov)),
            Val::Mem {
                addr,
                ty,
                space,
                is_const,
                prov,
            } => match ty {
                Type::Array(el, _) => Ok((
                    addr,
                    Type::Pointer(Box::new(Pointee {
                        ty: *el,
                        space,
                        is_const,
                        is_volatile: false,
                    })),
                    Some(prov),
                )),
                Type::Record(_) => {
                    let n = self.ty_name(&ty);
                    Err(self.error(
                        loc,
                        format!("'{n}' value used where a scalar or vector is required"),
                    ))
                }
                t => {
                    let Some(vt) = t.valty() else {
                        let n = self.ty_name(&t);
                        return Err(self.error(loc, format!("cannot load a value of type '{n}'")));
                    };
                    let dst = self.alloc(vt.lanes);
                    let site = self.mem_site(SiteKind::Load, space, loc, vt.bytes(), &prov);
                    let saved = std::mem::replace(&mut self.loc, loc);
                    self.emit(Inst::Load {
                        ty: vt,
                        dst,
                        addr,
                        space,
                        site,
                    });
                    self.loc = saved;
                    Ok((dst, t, None))
                }
            },
            Val::Swz { base, idx, ty } => {
                // Contiguous components of a vector in memory: load just those.
                if let Val::Mem {
                    addr,
                    ty: Type::Vector(s, _),
                    space,
                    prov,
                    is_const,
                } = base.as_ref()
                {
                    let contiguous = idx.windows(2).all(|w| w[1] == w[0] + 1);
                    if contiguous && matches!(idx.len(), 1 | 2 | 4 | 8 | 16) {
                        let a = self.ptr_disp(*addr, idx[0] as i64 * s.size() as i64);
                        let part = Val::Mem {
                            addr: a,
                            ty: ty.clone(),
                            space: *space,
                            is_const: *is_const,
                            prov: prov.clone(),
                        };
                        return self.load(part, loc);
                    }
                }
                let (b, _, _) = self.load(*base, loc)?;
                let dst = self.alloc(idx.len() as u8);
                self.emit(Inst::Shuffle { dst, src: b, idx });
                Ok((dst, ty, None))
            }
            Val::Void => Err(self.error(loc, "void value not ignored as it ought to be")),
        }
    }

    /// Stores a register value (already of the lvalue's type) into an lvalue.
    pub fn store_to(&mut self, lv: &Val, src: Reg, loc: Loc) -> LResult<()> {
        match lv {
            Val::RegVar { reg, ty, .. } => {
                if *reg != src {
                    let lanes = ty.valty().map_or(1, |v| v.lanes);
                    self.emit(Inst::Mov {
                        dst: *reg,
                        src,
                        lanes,
                    });
                }
                Ok(())
            }
            Val::Mem {
                addr,
                ty,
                space,
                prov,
                ..
            } => {
                let Some(vt) = ty.valty() else {
                    return Err(self.error(loc, "invalid store"));
                };
                let site = self.mem_site(SiteKind::Store, *space, loc, vt.bytes(), prov);
                self.emit(Inst::Store {
                    ty: vt,
                    src,
                    addr: *addr,
                    space: *space,
                    site,
                });
                Ok(())
            }
            Val::Swz { base, idx, .. } => match base.as_ref() {
                Val::RegVar { reg, .. } => {
                    for (i, &c) in idx.iter().enumerate() {
                        self.emit(Inst::Mov {
                            dst: reg.lane(c as u32),
                            src: src.lane(i as u32),
                            lanes: 1,
                        });
                    }
                    Ok(())
                }
                Val::Mem {
                    addr,
                    ty,
                    space,
                    prov,
                    ..
                } if idx.len() == 1 => {
                    let Some(s) = ty.elem() else {
                        return Err(self.error(loc, "invalid vector store"));
                    };
                    let a = self.ptr_disp(*addr, idx[0] as i64 * s.size() as i64);
                    let site = self.mem_site(SiteKind::Store, *space, loc, s.size(), prov);
                    self.emit(Inst::Store {
                        ty: ValTy::scalar(s),
                        src,
                        addr: a,
                        space: *space,
                        site,
                    });
                    Ok(())
                }
                b @ Val::Mem { .. } => {
                    let (cur, _, _) = self.load(b.clone(), loc)?;
                    let lanes = b.ty().lanes();
                    let tmp = self.alloc(lanes);
                    self.emit(Inst::Mov {
                        dst: tmp,
                        src: cur,
                        lanes,
                    });
                    for (i, &c) in idx.iter().enumerate() {
                        self.emit(Inst::Mov {
                            dst: tmp.lane(c as u32),
                            src: src.lane(i as u32),
                            lanes: 1,
                        });
                    }
                    self.store_to(b, tmp, loc)
                }
                _ => Err(self.error(loc, "expression is not assignable")),
            },
            _ => Err(self.error(loc, "expression is not assignable")),
        }
    }

    /// Checks that a value can be assigned to.
    fn check_assignable(&mut self, lv: &Val, loc: Loc) -> LResult<()> {
        match lv {
            Val::RegVar {
                is_const, name, ty, ..
            }
            | Val::Mem {
                is_const,
                prov: Prov { target: name, .. },
                ty,
                ..
            } => {
                if let Type::Array(..) = ty {
                    let n = self.ty_name(ty);
                    return Err(self.error(loc, format!("array type '{n}' is not assignable")));
                }
                if let Type::Pipe(_) = ty {
                    return Err(self.error(loc, "pipe arguments are not assignable"));
                }
                if *is_const {
                    let n = self.ty_name(ty);
                    let what = match lv {
                        Val::RegVar { .. } => format!("variable '{name}'"),
                        _ if name.is_empty() => "a read-only location".to_string(),
                        _ => format!("read-only memory through '{name}'"),
                    };
                    return Err(self.error(
                        loc,
                        format!("cannot assign to {what} with const-qualified type 'const {n}'"),
                    ));
                }
                if let Val::Mem {
                    space: AddrSpace::Constant,
                    ..
                } = lv
                {
                    return Err(self.error(
                        loc,
                        "cannot assign to memory in the __constant address space",
                    ));
                }
                Ok(())
            }
            Val::Swz { base, idx, .. } => {
                for (i, a) in idx.iter().enumerate() {
                    if idx[..i].contains(a) {
                        return Err(self.error(
                            loc,
                            "vector is not assignable (contains duplicate components)",
                        ));
                    }
                }
                self.check_assignable(base, loc)
            }
            _ => Err(self.error(loc, "expression is not assignable")),
        }
    }

    // ---- conversions ------------------------------------------------------------------------

    /// Converts a register value between types (explicit cast semantics; callers check
    /// whether an implicit conversion is allowed).
    pub fn convert(&mut self, r: Reg, from: &Type, to: &Type, loc: Loc) -> LResult<Reg> {
        if from == to {
            return Ok(r);
        }
        match (from, to) {
            (Type::Scalar(a), Type::Scalar(b)) => Ok(self.convert_scalar(r, *a, *b, 1)),
            (Type::Scalar(a), Type::Vector(b, n)) => {
                let c = self.convert_scalar(r, *a, *b, 1);
                let dst = self.alloc(*n);
                self.emit(Inst::Splat {
                    dst,
                    src: c,
                    lanes: *n,
                });
                Ok(dst)
            }
            (Type::Vector(a, n), Type::Vector(b, m)) if n == m => {
                Ok(self.convert_scalar(r, *a, *b, *n))
            }
            (Type::Pointer(_), Type::Pointer(_)) => Ok(r),
            (Type::Pointer(_), Type::Scalar(Scalar::Bool)) => {
                Ok(self.convert_scalar(r, Scalar::U64, Scalar::Bool, 1))
            }
            (Type::Pointer(_), Type::Scalar(s)) if !s.is_float() => {
                Ok(self.convert_scalar(r, Scalar::U64, *s, 1))
            }
            (Type::Scalar(s), Type::Pointer(_)) if !s.is_float() => {
                Ok(self.convert_scalar(r, *s, Scalar::U64, 1))
            }
            (Type::Event, Type::Event) => Ok(r),
            // A sampler from its integer bit field (`const sampler_t s = CLK_...;`).
            (Type::Scalar(s), Type::Opaque("sampler_t")) if !s.is_float() => {
                Ok(self.convert_scalar(r, *s, Scalar::U64, 1))
            }
            _ => {
                let (x, y) = (self.ty_name(from), self.ty_name(to));
                Err(self.error(loc, format!("cannot convert '{x}' to '{y}'")))
            }
        }
    }

    fn convert_scalar(&mut self, r: Reg, a: Scalar, b: Scalar, lanes: u8) -> Reg {
        if a == b {
            return r;
        }
        if let Some(&(s, bits)) = self.consts.get(&r.0) {
            if s == a && lanes == 1 {
                // Fold conversions of constants.
                let v = if a.is_float() {
                    let f = match a {
                        Scalar::F32 => f32::from_bits(bits as u32) as f64,
                        _ => f64::from_bits(bits),
                    };
                    CVal::Float(f, a)
                } else if a.is_signed() {
                    CVal::Int(bits as i64 as i128, a)
                } else {
                    CVal::Int(bits as i128, a)
                };
                if a != Scalar::F16 && b != Scalar::F16 {
                    return self.const_reg(ValTy::scalar(b), vec![v.cast(b).slot_bits()]);
                }
            }
        }
        let dst = self.alloc(lanes);
        if b == Scalar::Bool {
            let z = self.zero_of(ValTy::vector(a, lanes));
            if lanes == 1 {
                self.emit(Inst::Cmp {
                    op: CmpOp::Ne,
                    ty: ValTy::scalar(a),
                    dst_ty: ValTy::scalar(Scalar::I32),
                    dst,
                    a: r,
                    b: z,
                });
                return dst;
            }
        }
        self.emit(Inst::Convert {
            from: ValTy::vector(a, lanes),
            to: ValTy::vector(b, lanes),
            sat: false,
            rounding: Rounding::Default,
            dst,
            src: r,
        });
        dst
    }

    /// Implicit conversion (assignment, initialization, argument passing, return).
    pub fn convert_implicit(
        &mut self,
        r: Reg,
        from: &Type,
        to: &Type,
        e: &Expr,
        what: &str,
    ) -> LResult<Reg> {
        let loc = e.loc;
        let (x, y) = (self.ty_name(from), self.ty_name(to));
        // Clang-style wording: `<prefix> passing 'X' to parameter of type 'Y'<suffix>`.
        let phrase = |prefix: &str, suffix: &str| -> String {
            let p = if prefix.is_empty() {
                String::new()
            } else {
                format!("{prefix} ")
            };
            match what {
                "passing" => format!("{p}passing '{x}' to parameter of type '{y}'{suffix}"),
                "returning" => {
                    format!("{p}returning '{x}' from a function with result type '{y}'{suffix}")
                }
                "initializing" => {
                    format!("{p}initializing '{y}' with an expression of type '{x}'{suffix}")
                }
                _ => format!("{p}assigning to '{y}' from '{x}'{suffix}"),
            }
        };
        match (from, to) {
            _ if from == to => Ok(r),
            (Type::Scalar(_), Type::Scalar(_)) | (Type::Scalar(_), Type::Vector(..)) => {
                self.convert(r, from, to, loc)
            }
            (Type::Pointer(a), Type::Pointer(b)) => {
                if a.space != b.space {
                    let m = phrase("", " changes address space of pointer");
                    return Err(self.error(loc, m));
                }
                if a.ty != b.ty && !matches!(a.ty, Type::Void) && !matches!(b.ty, Type::Void) {
                    let m = phrase("incompatible pointer types", "");
                    self.warn(loc, m);
                } else if a.is_const && !b.is_const {
                    let m = phrase("", " discards the 'const' qualifier");
                    self.warn(loc, m);
                }
                Ok(r)
            }
            (Type::Scalar(s), Type::Pointer(_)) if !s.is_float() && is_null_const(e) => {
                self.convert(r, from, to, loc)
            }
            (Type::Pointer(_), Type::Scalar(Scalar::Bool)) => self.convert(r, from, to, loc),
            (Type::Scalar(s), Type::Opaque("sampler_t")) if !s.is_float() => {
                self.convert(r, from, to, loc)
            }
            (Type::Scalar(_), Type::Pointer(_)) => {
                let m = phrase("incompatible integer to pointer conversion", "");
                Err(self.error(loc, m))
            }
            (Type::Pointer(_), Type::Scalar(_)) => {
                let m = phrase("incompatible pointer to integer conversion", "");
                Err(self.error(loc, m))
            }
            _ => {
                let m = match what {
                    "passing" => format!("passing '{x}' to parameter of incompatible type '{y}'"),
                    "returning" => format!(
                        "returning '{x}' from a function with incompatible result type '{y}'"
                    ),
                    "initializing" => {
                        format!("initializing '{y}' with an expression of incompatible type '{x}'")
                    }
                    _ => format!("assigning to '{y}' from incompatible type '{x}'"),
                };
                Err(self.error(loc, m))
            }
        }
    }

    // ---- expressions ------------------------------------------------------------------------

    fn expr_inner(&mut self, e: &Expr) -> LResult<Val> {
        let loc = e.loc;
        match &e.kind {
            ExprKind::Int {
                value,
                unsigned,
                long,
                decimal,
            } => {
                let s = consteval::int_literal_type(*value, *unsigned, *long, *decimal);
                Ok(self.const_val(CVal::Int(consteval::wrap(*value as i128, s), s)))
            }
            ExprKind::Char(c) => Ok(self.const_val(CVal::Int(*c as i32 as i128, Scalar::I32))),
            ExprKind::Float { value, suffix } => {
                let s = match suffix {
                    FloatSuffix::F => Scalar::F32,
                    FloatSuffix::H => Scalar::F16,
                    FloatSuffix::None => Scalar::F64,
                };
                if s == Scalar::F16 {
                    // half literals compute as float (half exists only in storage).
                    return Ok(self.const_val(CVal::Float(*value, Scalar::F32).cast(Scalar::F32)));
                }
                Ok(self.const_val(CVal::Float(*value, s).cast(s)))
            }
            ExprKind::Str(text) => {
                // A string literal is a `__constant char` array (OpenCL C 1.2 6.5.3): a
                // NUL-terminated copy in the constant data, used as a pointer to its first
                // character.
                let data = &mut self.p.module.constant_data;
                let off = data.len() as u32;
                data.extend_from_slice(text.as_bytes());
                data.push(0);
                let reg = self.alloc(1);
                self.emit(Inst::ConstAddr {
                    dst: reg,
                    offset: off,
                });
                Ok(Val::R {
                    reg,
                    ty: Type::Pointer(Box::new(Pointee {
                        ty: Type::Scalar(Scalar::I8),
                        space: AddrSpace::Constant,
                        is_const: false,
                        is_volatile: false,
                    })),
                    prov: None,
                })
            }
            ExprKind::Ident(n) => self.ident(n, loc),
            ExprKind::Unary(op, a) => self.unary(*op, a, loc),
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, loc),
            ExprKind::Assign(op, a, b) => self.assign(*op, a, b, loc),
            ExprKind::Cond(c, a, b) => self.conditional(c, a, b, loc),
            ExprKind::Comma(a, b) => {
                self.expr(a)?;
                self.expr(b)
            }
            ExprKind::Call(name, args) => self.call(name, args, loc),
            ExprKind::Index(a, i) => self.index(a, i, loc),
            ExprKind::Member(a, name, arrow) => self.member(a, name, *arrow, loc),
            ExprKind::Cast(tn, a) => {
                let t = self.p.type_name(tn)?;
                self.cast(&t, a, loc)
            }
            ExprKind::VecLit(tn, items) => {
                let t = self.p.type_name(tn)?;
                match t {
                    Type::Vector(s, n) => self.vec_lit(s, n, items, loc),
                    _ => {
                        for it in &items[..items.len() - 1] {
                            self.expr(it)?;
                        }
                        self.cast(&t, &items[items.len() - 1], loc)
                    }
                }
            }
            ExprKind::CompoundLit(tn, init) => {
                let t = self.p.type_name(tn)?;
                let init_len = super::init::init_len(init);
                let t = match t {
                    Type::Array(el, 0) => Type::Array(el, init_len.unwrap_or(0)),
                    t => t,
                };
                let tmp = self.frame_temp(&t);
                self.init_object(&tmp, init)?;
                Ok(tmp)
            }
            ExprKind::SizeofType(tn) => {
                let t = self.p.type_name(tn)?;
                self.sizeof_check(&t, loc)?;
                let n = self.p.size_of(&t);
                Ok(self.const_val(CVal::Int(n as i128, Scalar::U64)))
            }
            ExprKind::AlignofType(tn) => {
                let t = self.p.type_name(tn)?;
                let n = self.p.align_of(&t);
                Ok(self.const_val(CVal::Int(n as i128, Scalar::U64)))
            }
            ExprKind::SizeofExpr(a) => {
                let t = self.type_of(a)?;
                self.sizeof_check(&t, loc)?;
                let n = self.p.size_of(&t);
                Ok(self.const_val(CVal::Int(n as i128, Scalar::U64)))
            }
            ExprKind::VecStepType(tn) => {
                let t = self.p.type_name(tn)?;
                self.vec_step(&t, loc)
            }
            ExprKind::VecStepExpr(a) => {
                let t = self.type_of(a)?;
                self.vec_step(&t, loc)
            }
        }
    }

    fn sizeof_check(&mut self, t: &Type, loc: Loc) -> LResult<()> {
        if matches!(t, Type::Void) {
            return Err(self.error(loc, "invalid application of 'sizeof' to a void type"));
        }
        Ok(())
    }

    fn vec_step(&mut self, t: &Type, loc: Loc) -> LResult<Val> {
        let n = match t {
            Type::Vector(_, 3) => 4,
            Type::Vector(_, n) => *n as i128,
            Type::Scalar(_) => 1,
            other => {
                let n = self.ty_name(other);
                return Err(self.error(
                    loc,
                    format!("'vec_step' needs a scalar or vector type, not '{n}'"),
                ));
            }
        };
        Ok(self.const_val(CVal::Int(n, Scalar::I32)))
    }

    /// The type of an expression, without keeping any code it would generate.
    pub fn type_of(&mut self, e: &Expr) -> LResult<Type> {
        let nblocks = self.blocks.len();
        let cur = self.cur;
        let ninsts = self.blocks[cur].insts.len();
        let term = (self.blocks[cur].term.clone(), self.terminated[cur]);
        let nsites = self.p.module.sites.len();
        let nloops = self.loops.len();
        let r = self.expr(e).map(|v| v.ty());
        self.blocks.truncate(nblocks);
        self.terminated.truncate(nblocks);
        self.cur = cur;
        self.blocks[cur].insts.truncate(ninsts);
        self.blocks[cur].locs.truncate(ninsts);
        self.blocks[cur].term = term.0;
        self.terminated[cur] = term.1;
        self.p.module.sites.truncate(nsites);
        self.loops.truncate(nloops);
        let r = r?;
        Ok(r)
    }

    /// `base + disp` (the base itself when `disp` is 0).
    pub fn ptr_disp(&mut self, base: Reg, disp: i64) -> Reg {
        if disp == 0 {
            return base;
        }
        let dst = self.alloc(1);
        self.emit(Inst::PtrAdd {
            dst,
            base,
            index: None,
            scale: 1,
            disp,
        });
        dst
    }

    pub fn const_val(&mut self, v: CVal) -> Val {
        let s = v.scalar();
        let reg = self.const_reg(ValTy::scalar(s), vec![v.slot_bits()]);
        Val::R {
            reg,
            ty: Type::Scalar(s),
            prov: None,
        }
    }

    fn ident(&mut self, n: &str, loc: Loc) -> LResult<Val> {
        if let Some(v) = self.lookup(n) {
            return Ok(v.val.clone());
        }
        if let Some(g) = self.p.globals.get(n).cloned() {
            return match g {
                Global::Constant { offset, ty } => {
                    let addr = self.alloc(1);
                    self.emit(Inst::ConstAddr { dst: addr, offset });
                    Ok(Val::Mem {
                        addr,
                        ty,
                        space: AddrSpace::Constant,
                        is_const: true,
                        prov: Prov {
                            target: n.to_string(),
                            arg: None,
                        },
                    })
                }
                Global::Sampler { value } => Ok(Val::R {
                    reg: {
                        let dst = self.alloc(1);
                        self.emit(Inst::Const {
                            dst,
                            ty: ValTy::scalar(Scalar::U64),
                            lanes: vec![value as u64],
                        });
                        dst
                    },
                    ty: Type::Opaque("sampler_t"),
                    prov: None,
                }),
                Global::Channel { .. } => Err(self.error(
                    loc,
                    format!("channel '{n}' can only be used as the first argument of read_channel/write_channel functions"),
                )),
            };
        }
        if let Some(c) = self.p.lookup_enum(n).or_else(|| builtin_constant(n)) {
            return Ok(self.const_val(c));
        }
        if self.p.funcs.contains_key(n) || crate::sema::builtins::classify(n).is_some() {
            return Err(self.error(
                loc,
                format!("function '{n}' used as a value (OpenCL C has no function pointers)"),
            ));
        }
        if self.poisoned.contains(n) || self.p.poisoned_globals.contains(n) {
            return Err(super::Reported);
        }
        Err(self.error(loc, format!("use of undeclared identifier '{n}'")))
    }

    fn unary(&mut self, op: UnaryOp, a: &Expr, loc: Loc) -> LResult<Val> {
        match op {
            UnaryOp::Plus | UnaryOp::Neg | UnaryOp::BitNot => {
                let (r, t, _) = self.rvalue(a)?;
                let Some(s) = t.elem() else {
                    let n = self.ty_name(&t);
                    return Err(self.error(
                        loc,
                        format!("invalid argument type '{n}' to unary expression"),
                    ));
                };
                if op == UnaryOp::BitNot && s.is_float() {
                    let n = self.ty_name(&t);
                    return Err(self.error(
                        loc,
                        format!("invalid argument type '{n}' to unary expression"),
                    ));
                }
                let pt = if s == Scalar::F16 {
                    t.with_elem(Scalar::F32)
                } else if t.is_vector() {
                    t.clone()
                } else {
                    Type::Scalar(promote(s))
                };
                let r = self.convert(r, &t, &pt, loc)?;
                if op == UnaryOp::Plus {
                    return Ok(Val::R {
                        reg: r,
                        ty: pt,
                        prov: None,
                    });
                }
                let vt = pt.valty().expect("arith");
                let dst = self.alloc(vt.lanes);
                self.emit(Inst::Unary {
                    op: if op == UnaryOp::Neg {
                        UnOp::Neg
                    } else {
                        UnOp::Not
                    },
                    ty: vt,
                    dst,
                    src: r,
                });
                Ok(Val::R {
                    reg: dst,
                    ty: pt,
                    prov: None,
                })
            }
            UnaryOp::LogNot => {
                let (r, t, _) = self.rvalue(a)?;
                let (cmp_ty, dst_ty, rt) = match &t {
                    Type::Scalar(s) => (ValTy::scalar(*s), ValTy::scalar(Scalar::I32), Type::int()),
                    Type::Pointer(_) => (
                        ValTy::scalar(Scalar::U64),
                        ValTy::scalar(Scalar::I32),
                        Type::int(),
                    ),
                    Type::Vector(s, n) => {
                        let is = signed_int_of_size(*s);
                        (
                            ValTy::vector(*s, *n),
                            ValTy::vector(is, *n),
                            Type::Vector(is, *n),
                        )
                    }
                    other => {
                        let n = self.ty_name(other);
                        return Err(self.error(
                            loc,
                            format!("invalid argument type '{n}' to unary expression"),
                        ));
                    }
                };
                let z = self.zero_of(cmp_ty);
                let dst = self.alloc(cmp_ty.lanes);
                self.emit(Inst::Cmp {
                    op: CmpOp::Eq,
                    ty: cmp_ty,
                    dst_ty,
                    dst,
                    a: r,
                    b: z,
                });
                Ok(Val::R {
                    reg: dst,
                    ty: rt,
                    prov: None,
                })
            }
            UnaryOp::Deref => {
                let (r, t, prov) = self.rvalue(a)?;
                let Type::Pointer(p) = t else {
                    let n = self.ty_name(&t);
                    return Err(self.error(
                        loc,
                        format!("indirection requires pointer operand ('{n}' invalid)"),
                    ));
                };
                if matches!(p.ty, Type::Void) {
                    return Err(self.error(loc, "dereferencing a 'void *' pointer"));
                }
                Ok(Val::Mem {
                    addr: r,
                    ty: p.ty,
                    space: p.space,
                    is_const: p.is_const,
                    prov: prov.unwrap_or_default(),
                })
            }
            UnaryOp::AddrOf => {
                let v = self.expr(a)?;
                match v {
                    Val::Mem {
                        addr,
                        ty,
                        space,
                        is_const,
                        prov,
                    } => Ok(Val::R {
                        reg: addr,
                        ty: Type::Pointer(Box::new(Pointee {
                            ty,
                            space,
                            is_const,
                            is_volatile: false,
                        })),
                        prov: Some(prov),
                    }),
                    Val::Swz { .. } => Err(self.error(loc, "address of vector element requested")),
                    _ => Err(self.error(loc, "cannot take the address of an rvalue")),
                }
            }
            UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => {
                let lv = self.expr(a)?;
                self.check_assignable(&lv, loc)?;
                let (cur, t, prov) = self.load(lv.clone(), loc)?;
                let inc = matches!(op, UnaryOp::PreInc | UnaryOp::PostInc);
                let post = matches!(op, UnaryOp::PostInc | UnaryOp::PostDec);
                let lanes = t.valty().map_or(1, |v| v.lanes);
                let old = if post {
                    let o = self.alloc(lanes);
                    self.emit(Inst::Mov {
                        dst: o,
                        src: cur,
                        lanes,
                    });
                    o
                } else {
                    cur
                };
                let new = match &t {
                    Type::Pointer(p) => {
                        let sz = self.p.size_of(&p.ty) as i64;
                        let dst = self.alloc(1);
                        self.emit(Inst::PtrAdd {
                            dst,
                            base: cur,
                            index: None,
                            scale: 1,
                            disp: if inc { sz } else { -sz },
                        });
                        dst
                    }
                    Type::Scalar(_) | Type::Vector(..) => {
                        let vt = t.valty().expect("arith");
                        let one = self.one_of(vt);
                        let dst = self.alloc(vt.lanes);
                        self.emit(Inst::Binary {
                            op: if inc { BinOp::Add } else { BinOp::Sub },
                            ty: vt,
                            dst,
                            a: cur,
                            b: one,
                        });
                        dst
                    }
                    other => {
                        let n = self.ty_name(other);
                        return Err(
                            self.error(loc, format!("cannot increment value of type '{n}'"))
                        );
                    }
                };
                self.store_to(&lv, new, loc)?;
                let r = if post { old } else { new };
                Ok(Val::R {
                    reg: r,
                    ty: t,
                    prov,
                })
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, a: &Expr, b: &Expr, loc: Loc) -> LResult<Val> {
        if matches!(op, BinaryOp::LogAnd | BinaryOp::LogOr) {
            return self.logical(op, a, b, loc);
        }
        let x = self.rvalue(a)?;
        let y = self.rvalue(b)?;
        let (r, t, prov) = self.binary_values(op, x, y, loc, Some((a, b)))?;
        Ok(Val::R {
            reg: r,
            ty: t,
            prov,
        })
    }

    /// Applies a binary operator to two loaded operands.
    pub fn binary_values(
        &mut self,
        op: BinaryOp,
        x: RV,
        y: RV,
        loc: Loc,
        exprs: Option<(&Expr, &Expr)>,
    ) -> LResult<RV> {
        let (ra, ta, pa) = x;
        let (rb, tb, pb) = y;
        let invalid = |s: &mut Self| {
            let (m, n) = (s.ty_name(&ta), s.ty_name(&tb));
            Err(s.error(
                loc,
                format!("invalid operands to binary expression ('{m}' and '{n}')"),
            ))
        };
        // Pointer arithmetic and comparisons.
        if ta.is_pointer() || tb.is_pointer() {
            match (op, &ta, &tb) {
                (BinaryOp::Add | BinaryOp::Sub, Type::Pointer(p), Type::Scalar(s))
                    if !s.is_float() =>
                {
                    let idx = self.convert_scalar(rb, *s, Scalar::I64, 1);
                    let idx = if op == BinaryOp::Sub {
                        let n = self.alloc(1);
                        self.emit(Inst::Unary {
                            op: UnOp::Neg,
                            ty: ValTy::scalar(Scalar::I64),
                            dst: n,
                            src: idx,
                        });
                        n
                    } else {
                        idx
                    };
                    let scale = self.p.size_of(&p.ty);
                    let dst = self.alloc(1);
                    self.emit(Inst::PtrAdd {
                        dst,
                        base: ra,
                        index: Some(idx),
                        scale,
                        disp: 0,
                    });
                    return Ok((dst, ta.clone(), pa));
                }
                (BinaryOp::Add, Type::Scalar(s), Type::Pointer(_)) if !s.is_float() => {
                    return self.binary_values(
                        op,
                        (rb, tb.clone(), pb),
                        (ra, ta.clone(), pa),
                        loc,
                        None,
                    );
                }
                (BinaryOp::Sub, Type::Pointer(p), Type::Pointer(q)) => {
                    if p.ty != q.ty || p.space != q.space {
                        return invalid(self);
                    }
                    let diff = self.alloc(1);
                    self.emit(Inst::Binary {
                        op: BinOp::Sub,
                        ty: ValTy::scalar(Scalar::I64),
                        dst: diff,
                        a: ra,
                        b: rb,
                    });
                    let sz = self.p.size_of(&p.ty).max(1) as i64;
                    let c = self.const_i64(sz);
                    let dst = self.alloc(1);
                    self.emit(Inst::Binary {
                        op: BinOp::Div,
                        ty: ValTy::scalar(Scalar::I64),
                        dst,
                        a: diff,
                        b: c,
                    });
                    return Ok((dst, Type::Scalar(Scalar::I64), None));
                }
                (_, _, _) if cmpop_ir(op).is_some() => {
                    let ok = match (&ta, &tb) {
                        (Type::Pointer(_), Type::Pointer(_)) => true,
                        (Type::Pointer(_), Type::Scalar(s))
                        | (Type::Scalar(s), Type::Pointer(_)) => {
                            !s.is_float()
                                && exprs.is_some_and(|(a, b)| is_null_const(a) || is_null_const(b))
                        }
                        _ => false,
                    };
                    if !ok {
                        return invalid(self);
                    }
                    let ra = if let Type::Scalar(s) = ta {
                        self.convert_scalar(ra, s, Scalar::U64, 1)
                    } else {
                        ra
                    };
                    let rb = if let Type::Scalar(s) = tb {
                        self.convert_scalar(rb, s, Scalar::U64, 1)
                    } else {
                        rb
                    };
                    let dst = self.alloc(1);
                    self.emit(Inst::Cmp {
                        op: cmpop_ir(op).expect("checked"),
                        ty: ValTy::scalar(Scalar::U64),
                        dst_ty: ValTy::scalar(Scalar::I32),
                        dst,
                        a: ra,
                        b: rb,
                    });
                    return Ok((dst, Type::int(), None));
                }
                _ => return invalid(self),
            }
        }
        let (Some(sa), Some(sb)) = (ta.elem(), tb.elem()) else {
            return invalid(self);
        };
        let is_shift = matches!(op, BinaryOp::Shl | BinaryOp::Shr);
        let int_only = is_shift
            || matches!(
                op,
                BinaryOp::Rem | BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor
            );
        if int_only && (sa.is_float() || sb.is_float()) {
            return invalid(self);
        }
        // Operand type.
        let t = match (&ta, &tb) {
            (Type::Scalar(_), Type::Scalar(_)) => {
                if is_shift {
                    Type::Scalar(promote(sa))
                } else {
                    Type::Scalar(common_scalar(sa, sb))
                }
            }
            (Type::Vector(_, _), Type::Scalar(_)) => ta.clone(),
            (Type::Scalar(_), Type::Vector(_, _)) => {
                if is_shift {
                    return invalid(self);
                }
                tb.clone()
            }
            (Type::Vector(_, n), Type::Vector(_, m)) => {
                if is_shift {
                    if n != m {
                        return invalid(self);
                    }
                    ta.clone()
                } else if ta != tb {
                    return invalid(self);
                } else {
                    ta.clone()
                }
            }
            _ => return invalid(self),
        };
        // `half` exists in storage only: arithmetic on it is done in float.
        let t = if t.elem() == Some(Scalar::F16) {
            t.with_elem(Scalar::F32)
        } else {
            t
        };
        let ca = self.convert(ra, &ta, &t, loc)?;
        let cb = self.convert(rb, &tb, &t, loc)?;
        let vt = t.valty().expect("arith");
        if let Some(cop) = cmpop_ir(op) {
            let (dst_ty, rt) = if t.is_vector() {
                let is = signed_int_of_size(vt.scalar);
                (ValTy::vector(is, vt.lanes), Type::Vector(is, vt.lanes))
            } else {
                (ValTy::scalar(Scalar::I32), Type::int())
            };
            let dst = self.alloc(vt.lanes);
            self.emit(Inst::Cmp {
                op: cop,
                ty: vt,
                dst_ty,
                dst,
                a: ca,
                b: cb,
            });
            return Ok((dst, rt, None));
        }
        let Some(bop) = binop_ir(op) else {
            return invalid(self);
        };
        if matches!(bop, BinOp::Div | BinOp::Rem) && !vt.scalar.is_float() {
            if let Some((_, b)) = exprs {
                if let Some(v) = self.p.const_eval(b) {
                    if !v.is_true() {
                        self.warn(
                            loc,
                            format!(
                                "{} by zero is undefined",
                                if bop == BinOp::Div {
                                    "division"
                                } else {
                                    "remainder"
                                }
                            ),
                        );
                    }
                }
            }
        }
        let dst = self.alloc(vt.lanes);
        self.emit(Inst::Binary {
            op: bop,
            ty: vt,
            dst,
            a: ca,
            b: cb,
        });
        Ok((dst, t, None))
    }

    fn logical(&mut self, op: BinaryOp, a: &Expr, b: &Expr, loc: Loc) -> LResult<Val> {
        let (ra, ta, _) = self.rvalue(a)?;
        if let Type::Vector(s, n) = ta {
            // Component-wise, both sides evaluated: (a != 0) & (b != 0) as -1/0.
            let (rb, tb, _) = self.rvalue(b)?;
            if tb.lanes() != n {
                let (x, y) = (self.ty_name(&ta), self.ty_name(&tb));
                return Err(self.error(
                    loc,
                    format!("invalid operands to binary expression ('{x}' and '{y}')"),
                ));
            }
            let is = signed_int_of_size(s);
            let ma = self.nonzero_mask(ra, &ta);
            let mb = self.nonzero_mask(rb, &tb);
            let mb = self.convert(
                mb,
                &Type::Vector(signed_int_of_size(tb.elem().unwrap_or(s)), n),
                &Type::Vector(is, n),
                loc,
            )?;
            let dst = self.alloc(n);
            self.emit(Inst::Binary {
                op: if op == BinaryOp::LogAnd {
                    BinOp::And
                } else {
                    BinOp::Or
                },
                ty: ValTy::vector(is, n),
                dst,
                a: ma,
                b: mb,
            });
            return Ok(Val::R {
                reg: dst,
                ty: Type::Vector(is, n),
                prov: None,
            });
        }
        let ca = self.truth(ra, &ta, a.loc)?;
        let result = self.alloc(1);
        let rhs_b = self.new_block();
        let short_b = self.new_block();
        let join = self.new_block();
        let (then, els) = if op == BinaryOp::LogAnd {
            (rhs_b, short_b)
        } else {
            (short_b, rhs_b)
        };
        self.terminate(Terminator::Branch {
            cond: ca,
            then,
            els,
        });
        self.switch_to(short_b);
        let v = if op == BinaryOp::LogAnd { 0 } else { 1 };
        self.emit(Inst::Const {
            dst: result,
            ty: ValTy::scalar(Scalar::I32),
            lanes: vec![v],
        });
        self.jump(join);
        self.switch_to(rhs_b);
        let (rb, tb, _) = self.rvalue(b)?;
        if tb.is_vector() {
            return Err(self.error(
                loc,
                "cannot mix scalar and vector operands of a logical operator",
            ));
        }
        let cb = self.truth(rb, &tb, b.loc)?;
        let cty = if tb.is_float() {
            ValTy::scalar(Scalar::I32)
        } else if tb.is_pointer() {
            ValTy::scalar(Scalar::U64)
        } else {
            ValTy::scalar(tb.elem().unwrap_or(Scalar::I32))
        };
        let z = self.zero_of(cty);
        self.emit(Inst::Cmp {
            op: CmpOp::Ne,
            ty: cty,
            dst_ty: ValTy::scalar(Scalar::I32),
            dst: result,
            a: cb,
            b: z,
        });
        self.jump(join);
        self.switch_to(join);
        Ok(Val::R {
            reg: result,
            ty: Type::int(),
            prov: None,
        })
    }

    /// `x != 0` per lane as a -1/0 mask of the signed integer type of the element size.
    fn nonzero_mask(&mut self, r: Reg, t: &Type) -> Reg {
        let vt = t.valty().expect("vector");
        let z = self.zero_of(vt);
        let dst = self.alloc(vt.lanes);
        self.emit(Inst::Cmp {
            op: CmpOp::Ne,
            ty: vt,
            dst_ty: ValTy::vector(signed_int_of_size(vt.scalar), vt.lanes),
            dst,
            a: r,
            b: z,
        });
        dst
    }

    fn assign(&mut self, op: Option<BinaryOp>, a: &Expr, b: &Expr, loc: Loc) -> LResult<Val> {
        let lv = self.expr(a)?;
        self.check_assignable(&lv, loc)?;
        let lt = lv.ty();
        if let Type::Record(_) = lt {
            if op.is_some() {
                let n = self.ty_name(&lt);
                return Err(self.error(
                    loc,
                    format!("invalid operands to compound assignment ('{n}')"),
                ));
            }
            let v = self.expr(b)?;
            self.copy_aggregate(&lv, &v, loc)?;
            return Ok(lv);
        }
        let (val, vt) = match op {
            None => {
                let (r, t, prov) = self.rvalue(b)?;
                let c = self.convert_implicit(r, &t, &lt, b, "assigning")?;
                if let Val::RegVar { name, .. } = &lv {
                    // Keep pointer provenance for variables that are re-pointed.
                    if lt.is_pointer() {
                        if let Some(p) = prov.clone() {
                            let name = name.clone();
                            if let Some(var) =
                                self.scopes.iter_mut().rev().find_map(|s| s.get_mut(&name))
                            {
                                if let Val::RegVar { prov: vp, .. } = &mut var.val {
                                    *vp = Some(p);
                                }
                            }
                        }
                    }
                }
                (c, lt.clone())
            }
            Some(bop) => {
                let cur = self.load(lv.clone(), a.loc)?;
                let rhs = self.rvalue(b)?;
                let (r, t, _) = self.binary_values(bop, cur, rhs, loc, Some((a, b)))?;
                let c = if lt.is_pointer() {
                    r
                } else {
                    self.convert(r, &t, &lt, loc)?
                };
                if lt.is_vector() && !t.is_vector() {
                    let (x, y) = (self.ty_name(&t), self.ty_name(&lt));
                    return Err(self.error(
                        loc,
                        format!("assigning to '{y}' from incompatible type '{x}'"),
                    ));
                }
                (c, lt.clone())
            }
        };
        let saved = std::mem::replace(&mut self.loc, a.loc);
        let r = self.store_to(&lv, val, a.loc);
        self.loc = saved;
        r?;
        Ok(Val::R {
            reg: val,
            ty: vt,
            prov: None,
        })
    }

    fn conditional(&mut self, c: &Expr, a: &Expr, b: &Expr, loc: Loc) -> LResult<Val> {
        let (rc, ct, _) = self.rvalue(c)?;
        if let Type::Vector(cs, n) = ct {
            // Component-wise selection: every operand is evaluated.
            let (ra, ta, _) = self.rvalue(a)?;
            let (rb, tb, _) = self.rvalue(b)?;
            let t = if ta.is_vector() {
                ta.clone()
            } else if tb.is_vector() {
                tb.clone()
            } else {
                // Scalar operands widen to the condition's lane count.
                let s = common_scalar(
                    ta.elem().unwrap_or(Scalar::I32),
                    tb.elem().unwrap_or(Scalar::I32),
                );
                Type::Vector(s, n)
            };
            if t.lanes() != n || !ta.is_arith() || !tb.is_arith() {
                return Err(self.error(
                    loc,
                    "vector condition and operands of '?:' must have the same number of components",
                ));
            }
            let ra = self.convert(ra, &ta, &t, loc)?;
            let rb = self.convert(rb, &tb, &t, loc)?;
            let mask = self.nonzero_mask(rc, &Type::Vector(cs, n));
            let et = t.elem().expect("vector");
            let mt = Type::Vector(signed_int_of_size(cs), n);
            let want = Type::Vector(signed_int_of_size(et), n);
            let mask = self.convert(mask, &mt, &want, loc)?;
            let vt = t.valty().expect("vector");
            let dst = self.alloc(n);
            self.emit(Inst::Builtin {
                f: BuiltinFn::Select,
                ty: vt,
                dst_ty: vt,
                dst,
                args: [rb, ra, mask],
            });
            return Ok(Val::R {
                reg: dst,
                ty: t,
                prov: None,
            });
        }
        let cr = self.truth(rc, &ct, c.loc)?;
        let tblk = self.new_block();
        let eblk = self.new_block();
        let join = self.new_block();
        self.terminate(Terminator::Branch {
            cond: cr,
            then: tblk,
            els: eblk,
        });
        // Each arm is lowered once; the conversion to the common type is appended to the arm's
        // last block before it jumps to the join block.
        self.switch_to(tblk);
        let va = self.expr(a)?;
        let end_a = self.cur_block();
        self.switch_to(eblk);
        let vb = self.expr(b)?;
        let end_b = self.cur_block();
        let (ta, tb) = (va.ty(), vb.ty());
        let rt = match (&ta, &tb) {
            (Type::Array(..), _) | (_, Type::Array(..)) => {
                return Err(self.error(loc, "arrays in conditional expressions are not supported"));
            }
            (x, y) if x == y => x.clone(),
            (Type::Scalar(x), Type::Scalar(y)) => Type::Scalar(common_scalar(*x, *y)),
            (Type::Vector(..), Type::Scalar(_)) => ta.clone(),
            (Type::Scalar(_), Type::Vector(..)) => tb.clone(),
            (Type::Pointer(_), Type::Scalar(_)) if is_null_const(b) => ta.clone(),
            (Type::Scalar(_), Type::Pointer(_)) if is_null_const(a) => tb.clone(),
            (Type::Pointer(p), Type::Pointer(q)) if p.space == q.space => {
                if matches!(p.ty, Type::Void) {
                    ta.clone()
                } else {
                    tb.clone()
                }
            }
            _ => {
                let (x, y) = (self.ty_name(&ta), self.ty_name(&tb));
                return Err(
                    self.error(loc, format!("incompatible operand types ('{x}' and '{y}')"))
                );
            }
        };
        let result = match &rt {
            Type::Void => None,
            Type::Record(_) => Some(self.alloc(1)),
            t => Some(self.alloc_ty(t)),
        };
        let mut space = AddrSpace::Private;
        for (end, v, arm) in [(end_a, va, a), (end_b, vb, b)] {
            self.switch_to(end);
            match &rt {
                Type::Void => {}
                Type::Record(_) => {
                    if let Val::Mem { addr, space: s, .. } = v {
                        space = s;
                        self.emit(Inst::Mov {
                            dst: result.expect("record"),
                            src: addr,
                            lanes: 1,
                        });
                    }
                }
                t => {
                    let (r, at, _) = self.load(v, arm.loc)?;
                    let cr = if at.is_pointer() || t.is_pointer() {
                        r
                    } else {
                        self.convert(r, &at, t, arm.loc)?
                    };
                    let lanes = t.valty().map_or(1, |v| v.lanes);
                    self.emit(Inst::Mov {
                        dst: result.expect("value"),
                        src: cr,
                        lanes,
                    });
                }
            }
            self.jump(join);
        }
        self.switch_to(join);
        Ok(match (rt, result) {
            (Type::Void, _) | (_, None) => Val::Void,
            (t @ Type::Record(_), Some(r)) => Val::Mem {
                addr: r,
                ty: t,
                space,
                is_const: true,
                prov: Prov::default(),
            },
            (t, Some(r)) => Val::R {
                reg: r,
                ty: t,
                prov: None,
            },
        })
    }

    /// `v[i]` with a run-time index: the element in memory (vectors held in registers are
    /// copied to a frame temporary first; named vectors indexed this way live in the frame).
    fn vector_dynamic_index(&mut self, base: Val, s: Scalar, i: &Expr, loc: Loc) -> LResult<Val> {
        let (ir, it, _) = self.rvalue(i)?;
        let Some(is) = it.elem().filter(|x| !x.is_float() && it.is_scalar()) else {
            return Err(self.error(i.loc, "array subscript is not an integer"));
        };
        let mem = match base {
            m @ Val::Mem { .. } => m,
            other => {
                let t = other.ty();
                let (r, _, _) = self.load(other, loc)?;
                let tmp = self.frame_temp(&t);
                self.store_to(&tmp, r, loc)?;
                tmp
            }
        };
        let Val::Mem {
            addr,
            space,
            is_const,
            prov,
            ..
        } = mem
        else {
            return Err(self.error(loc, "invalid vector subscript"));
        };
        let idx = self.convert_scalar(ir, is, Scalar::I64, 1);
        let dst = self.alloc(1);
        self.emit(Inst::PtrAdd {
            dst,
            base: addr,
            index: Some(idx),
            scale: s.size(),
            disp: 0,
        });
        Ok(Val::Mem {
            addr: dst,
            ty: Type::Scalar(s),
            space,
            is_const,
            prov,
        })
    }

    fn index(&mut self, a: &Expr, i: &Expr, loc: Loc) -> LResult<Val> {
        let base = self.expr(a)?;
        // Vector element by constant index: a swizzle.
        if let Type::Vector(s, n) = base.ty() {
            let Some(k) = self.p.const_int(i) else {
                return self.vector_dynamic_index(base, s, i, loc);
            };
            if k < 0 || k >= n as i128 {
                return Err(self.error(
                    i.loc,
                    format!("vector index {k} is out of range for a {n}-element vector"),
                ));
            }
            return Ok(Val::Swz {
                base: Box::new(base),
                idx: vec![k as u8],
                ty: Type::Scalar(s),
            });
        }
        if let (Type::Array(_, n), Some(k)) = (base.ty(), self.p.const_int(i)) {
            if k < 0 || k >= n as i128 {
                self.warn(
                    i.loc,
                    format!("array index {k} is past the end of the array (which contains {n} elements)"),
                );
            }
        }
        let (mut pr, mut pt, mut prov) = self.load(base, a.loc)?;
        let (mut ir, mut it) = {
            let (r, t, _) = self.rvalue(i)?;
            (r, t)
        };
        if !pt.is_pointer() && it.is_pointer() {
            // `i[a]` is `a[i]`.
            std::mem::swap(&mut pr, &mut ir);
            std::mem::swap(&mut pt, &mut it);
            prov = None;
        }
        let Type::Pointer(p) = pt else {
            return Err(self.error(loc, "subscripted value is not an array, pointer, or vector"));
        };
        let Some(is) = it.elem().filter(|s| !s.is_float() && it.is_scalar()) else {
            return Err(self.error(i.loc, "array subscript is not an integer"));
        };
        if matches!(p.ty, Type::Void) {
            return Err(self.error(loc, "subscript of pointer to void"));
        }
        let scale = self.p.size_of(&p.ty);
        let dst = if let Some(k) = self.p.const_int(i) {
            self.ptr_disp(pr, (k as i64).wrapping_mul(scale as i64))
        } else {
            let idx = self.convert_scalar(ir, is, Scalar::I64, 1);
            let dst = self.alloc(1);
            self.emit(Inst::PtrAdd {
                dst,
                base: pr,
                index: Some(idx),
                scale,
                disp: 0,
            });
            dst
        };
        Ok(Val::Mem {
            addr: dst,
            ty: p.ty,
            space: p.space,
            is_const: p.is_const,
            prov: prov.unwrap_or_default(),
        })
    }

    fn member(&mut self, a: &Expr, name: &str, arrow: bool, loc: Loc) -> LResult<Val> {
        let base = self.expr(a)?;
        let bt = base.ty();
        if !arrow {
            if let Type::Vector(s, n) = bt {
                let idx = swizzle(name, n).map_err(|m| self.error(loc, m))?;
                let ty = if idx.len() == 1 {
                    Type::Scalar(s)
                } else {
                    Type::Vector(s, idx.len() as u8)
                };
                // A swizzle of a swizzle composes.
                if let Val::Swz {
                    base: inner,
                    idx: outer,
                    ..
                } = base
                {
                    let composed = idx.iter().map(|&i| outer[i as usize]).collect();
                    return Ok(Val::Swz {
                        base: inner,
                        idx: composed,
                        ty,
                    });
                }
                return Ok(Val::Swz {
                    base: Box::new(base),
                    idx,
                    ty,
                });
            }
        }
        let (addr, rec_ty, space, is_const, prov) = if arrow {
            let (r, t, prov) = self.load(base, a.loc)?;
            let Type::Pointer(p) = t else {
                let n = self.ty_name(&t);
                return Err(
                    self.error(loc, format!("member reference type '{n}' is not a pointer"))
                );
            };
            (r, p.ty, p.space, p.is_const, prov.unwrap_or_default())
        } else {
            match base {
                Val::Mem {
                    addr,
                    ty,
                    space,
                    is_const,
                    prov,
                } => (addr, ty, space, is_const, prov),
                other => {
                    let n = self.ty_name(&other.ty());
                    return Err(self.error(
                        loc,
                        format!("member reference base type '{n}' is not a structure or union"),
                    ));
                }
            }
        };
        let Type::Record(id) = rec_ty else {
            let n = self.ty_name(&rec_ty);
            return Err(self.error(
                loc,
                format!("member reference base type '{n}' is not a structure or union"),
            ));
        };
        let Some(def) = self.p.recs.get(id) else {
            return Err(self.error(loc, "invalid record"));
        };
        if !def.complete {
            let n = def.name.clone();
            return Err(self.error(loc, format!("incomplete definition of type '{n}'")));
        }
        let Some(f) = def.fields.iter().find(|f| f.name == name).cloned() else {
            let n = def.name.clone();
            return Err(self.error(loc, format!("no member named '{name}' in '{n}'")));
        };
        let dst = self.ptr_disp(addr, f.offset as i64);
        let target = if prov.target.is_empty() {
            String::new()
        } else {
            format!("{}.{}", prov.target, name)
        };
        Ok(Val::Mem {
            addr: dst,
            ty: f.ty,
            space,
            is_const,
            prov: Prov {
                target,
                arg: prov.arg,
            },
        })
    }

    /// Explicit cast `(T)e`.
    pub fn cast(&mut self, t: &Type, a: &Expr, loc: Loc) -> LResult<Val> {
        if matches!(t, Type::Void) {
            self.expr(a)?;
            return Ok(Val::Void);
        }
        let (r, from, prov) = self.rvalue(a)?;
        let ok = match (&from, t) {
            (Type::Scalar(_), Type::Scalar(_) | Type::Vector(..)) => true,
            (Type::Vector(..), Type::Vector(..)) => from == *t,
            (Type::Pointer(p), Type::Pointer(q)) => {
                if p.space != q.space {
                    let (x, y) = (self.ty_name(&from), self.ty_name(t));
                    return Err(self.error(
                        loc,
                        format!("casting '{x}' to type '{y}' changes address space of pointer"),
                    ));
                }
                true
            }
            (Type::Pointer(_), Type::Scalar(s)) | (Type::Scalar(s), Type::Pointer(_)) => {
                !s.is_float()
            }
            _ => false,
        };
        if !ok {
            let (x, y) = (self.ty_name(&from), self.ty_name(t));
            let hint = if from.is_vector() && t.is_vector() {
                " (use convert_* or as_* functions)"
            } else {
                ""
            };
            return Err(self.error(loc, format!("invalid conversion from '{x}' to '{y}'{hint}")));
        }
        let c = self.convert(r, &from, t, loc)?;
        Ok(Val::R {
            reg: c,
            ty: t.clone(),
            prov: if t.is_pointer() { prov } else { None },
        })
    }

    fn vec_lit(&mut self, s: Scalar, n: u8, items: &[Expr], loc: Loc) -> LResult<Val> {
        let t = Type::Vector(s, n);
        // All-constant literal: one Const.
        let mut consts = vec![];
        for it in items {
            match self.p.const_eval(it) {
                Some(c) if self.lookup_ident_free(it) => consts.push(c),
                _ => break,
            }
        }
        if consts.len() == items.len() && (consts.len() == n as usize || consts.len() == 1) {
            let lanes: Vec<u64> = if consts.len() == 1 {
                vec![consts[0].cast(s).slot_bits(); n as usize]
            } else {
                consts.iter().map(|c| c.cast(s).slot_bits()).collect()
            };
            let reg = self.const_reg(ValTy::vector(s, n), lanes);
            return Ok(Val::R {
                reg,
                ty: t,
                prov: None,
            });
        }
        let mut parts = vec![];
        let mut total = 0u32;
        for it in items {
            let (r, et, _) = self.rvalue(it)?;
            match &et {
                Type::Scalar(_) | Type::Vector(..) => {}
                other => {
                    let x = self.ty_name(other);
                    return Err(self.error(
                        it.loc,
                        format!("invalid vector literal component of type '{x}'"),
                    ));
                }
            }
            total += et.lanes() as u32;
            parts.push((r, et, it.loc));
        }
        if parts.len() == 1 && parts[0].1.is_scalar() {
            let (r, et, l) = parts.pop().expect("one part");
            let c = self.convert(r, &et, &t, l)?;
            return Ok(Val::R {
                reg: c,
                ty: t,
                prov: None,
            });
        }
        if total != n as u32 {
            let which = if total < n as u32 { "few" } else { "many" };
            return Err(self.error(loc, format!("too {which} elements in vector initialization (expected {n} elements, have {total})")));
        }
        let dst = self.alloc(n);
        let mut lane = 0u32;
        for (r, et, l) in parts {
            let k = et.lanes();
            let target = et.with_elem(s);
            let c = self.convert(r, &et, &target, l)?;
            self.emit(Inst::Mov {
                dst: dst.lane(lane),
                src: c,
                lanes: k,
            });
            lane += k as u32;
        }
        Ok(Val::R {
            reg: dst,
            ty: t,
            prov: None,
        })
    }

    /// True when an expression refers to no variables (so constant folding is safe).
    fn lookup_ident_free(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Ident(n) => self.lookup(n).is_none(),
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) => self.lookup_ident_free(a),
            ExprKind::Binary(_, a, b) => self.lookup_ident_free(a) && self.lookup_ident_free(b),
            ExprKind::Cond(a, b, c) => {
                self.lookup_ident_free(a) && self.lookup_ident_free(b) && self.lookup_ident_free(c)
            }
            _ => true,
        }
    }

    fn call(&mut self, name: &str, args: &[Expr], loc: Loc) -> LResult<Val> {
        // What the predefined INFINITY / NAN / HUGE_VAL(F) macros expand to.
        let special = match name {
            "__builtin_inff" | "__builtin_huge_valf" => {
                Some(CVal::Float(f64::INFINITY, Scalar::F32))
            }
            "__builtin_nanf" => Some(CVal::Float(f64::NAN, Scalar::F32)),
            "__builtin_inf" | "__builtin_huge_val" => Some(CVal::Float(f64::INFINITY, Scalar::F64)),
            "__builtin_nan" => Some(CVal::Float(f64::NAN, Scalar::F64)),
            _ => None,
        };
        if let Some(v) = special {
            if !self.p.funcs.contains_key(name) {
                return Ok(self.const_val(v));
            }
        }
        if let Some(fd) = self.p.funcs.get(name).copied() {
            return self.call_user(fd, args, loc);
        }
        if let Some(kind) = crate::sema::builtins::classify(name) {
            return self.call_builtin(kind, name, args, loc);
        }
        if self.p.protos.contains(name) {
            return Err(self.error(
                loc,
                format!("function '{name}' is declared but never defined"),
            ));
        }
        if self.poisoned.contains(name) {
            return Err(super::Reported);
        }
        if super::image::is_image_builtin(name) {
            return self.image_builtin(name, args, loc);
        }
        Err(self.error(
            loc,
            format!("implicit declaration of function '{name}' is invalid in OpenCL"),
        ))
    }
}
