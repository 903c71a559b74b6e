//! Builtin calls: overload checking per family and lowering to IR instructions.

use super::expr::RV;
use super::func::{FnLower, Prov, Val};
use super::printf_check::{self, PArg};
use super::{Global, LResult};
use crate::ast::{Expr, ExprKind};
use crate::ir::*;
use crate::sema::builtins::BuiltinKind;
use crate::sema::types::{common_scalar, signed_int_of_size, unsigned_of, Type};
use crate::source::Loc;

impl<'p, 'a> FnLower<'p, 'a> {
    pub(crate) fn argc(&mut self, name: &str, args: &[Expr], n: usize, loc: Loc) -> LResult<()> {
        if args.len() != n {
            let which = if args.len() < n { "few" } else { "many" };
            return Err(self.error(
                loc,
                format!(
                    "too {which} arguments to function call '{name}', expected {n}, have {}",
                    args.len()
                ),
            ));
        }
        Ok(())
    }

    fn no_match(&mut self, name: &str, tys: &[Type], loc: Loc) -> super::Reported {
        let list: Vec<String> = tys.iter().map(|t| self.ty_name(t)).collect();
        self.error(
            loc,
            format!(
                "no matching function for call to '{name}' with argument types ({})",
                list.join(", ")
            ),
        )
    }

    fn eval_args(&mut self, args: &[Expr]) -> LResult<Vec<RV>> {
        let mut out = Vec::with_capacity(args.len());
        for a in args {
            out.push(self.rvalue(a)?);
        }
        Ok(out)
    }

    /// The generic type of arguments: the lane count of the vector arguments (which must
    /// agree), and the element type (the vector's, else the common scalar). Half computes as
    /// float.
    fn gentype(&mut self, name: &str, vals: &[RV], float: Option<bool>, loc: Loc) -> LResult<Type> {
        let tys: Vec<Type> = vals.iter().map(|v| v.1.clone()).collect();
        let mut lanes = 1u8;
        let mut vec_elem: Option<Scalar> = None;
        let mut elem: Option<Scalar> = None;
        for t in &tys {
            let Some(s) = t.elem() else {
                return Err(self.no_match(name, &tys, loc));
            };
            if let Type::Vector(_, n) = t {
                if lanes != 1 && lanes != *n {
                    return Err(self.no_match(name, &tys, loc));
                }
                lanes = *n;
                vec_elem.get_or_insert(s);
            }
            elem = Some(match elem {
                None => s,
                Some(e) if e == s => e,
                Some(e) => common_scalar(e, s),
            });
        }
        let mut s = vec_elem.or(elem).unwrap_or(Scalar::F32);
        if vec_elem.is_some()
            && float != Some(false)
            && elem.is_some_and(|e| e.is_float())
            && !s.is_float()
        {
            s = elem.unwrap_or(s);
        }
        let wants_float = float == Some(true);
        if wants_float && !s.is_float() {
            if vec_elem.is_some() {
                return Err(self.no_match(name, &tys, loc));
            }
            s = Scalar::F32;
        }
        if float == Some(false) && s.is_float() {
            return Err(self.no_match(name, &tys, loc));
        }
        if s == Scalar::F16 {
            s = Scalar::F32;
        }
        Ok(if lanes == 1 {
            Type::Scalar(s)
        } else {
            Type::Vector(s, lanes)
        })
    }

    /// Converts (and splats) every argument to `t`.
    fn convert_all(&mut self, vals: &[RV], t: &Type, loc: Loc) -> LResult<Vec<Reg>> {
        let mut out = vec![];
        for (r, vt, _) in vals {
            out.push(self.convert(*r, vt, t, loc)?);
        }
        Ok(out)
    }

    fn emit_builtin(&mut self, f: BuiltinFn, ty: &Type, dst_ty: &Type, regs: &[Reg]) -> Val {
        let vt = ty.valty().expect("arith");
        let dvt = dst_ty.valty().expect("arith");
        // The destination gets room for the wider of the argument and result types (the
        // executor's decoder checks both).
        let dst = self.alloc(dvt.lanes.max(vt.lanes));
        let a0 = regs.first().copied().unwrap_or(Reg(0));
        let a1 = regs.get(1).copied().unwrap_or(a0);
        let a2 = regs.get(2).copied().unwrap_or(a0);
        self.emit(Inst::Builtin {
            f,
            ty: vt,
            dst_ty: dvt,
            dst,
            args: [a0, a1, a2],
        });
        Val::R {
            reg: dst,
            ty: dst_ty.clone(),
            prov: None,
        }
    }

    pub fn call_builtin(
        &mut self,
        kind: BuiltinKind,
        name: &str,
        args: &[Expr],
        loc: Loc,
    ) -> LResult<Val> {
        use BuiltinKind as K;
        match kind {
            K::LinearId(global) => {
                // ((id2 * size1) + id1) * size0 + id0, ids relative to the offset for the
                // global form.
                self.argc(name, args, 0, loc)?;
                self.uses_ids = true;
                let (idf, szf) = if global {
                    (WorkItemFn::GlobalId, WorkItemFn::GlobalSize)
                } else {
                    (WorkItemFn::LocalId, WorkItemFn::LocalSize)
                };
                let u64t = ValTy::scalar(Scalar::U64);
                let mut acc: Option<Reg> = None;
                for d in (0..3u64).rev() {
                    let dim = self.const_reg(ValTy::scalar(Scalar::U32), vec![d]);
                    let id = self.alloc(1);
                    self.emit(Inst::WorkItem {
                        f: idf,
                        dst: id,
                        dim,
                    });
                    let id = if global {
                        let off = self.alloc(1);
                        self.emit(Inst::WorkItem {
                            f: WorkItemFn::GlobalOffset,
                            dst: off,
                            dim,
                        });
                        let rel = self.alloc(1);
                        self.emit(Inst::Binary {
                            op: BinOp::Sub,
                            ty: u64t,
                            dst: rel,
                            a: id,
                            b: off,
                        });
                        rel
                    } else {
                        id
                    };
                    acc = Some(match acc {
                        None => id,
                        Some(a) => {
                            let size = self.alloc(1);
                            self.emit(Inst::WorkItem {
                                f: szf,
                                dst: size,
                                dim,
                            });
                            let m = self.alloc(1);
                            self.emit(Inst::Binary {
                                op: BinOp::Mul,
                                ty: u64t,
                                dst: m,
                                a,
                                b: size,
                            });
                            let sum = self.alloc(1);
                            self.emit(Inst::Binary {
                                op: BinOp::Add,
                                ty: u64t,
                                dst: sum,
                                a: m,
                                b: id,
                            });
                            sum
                        }
                    });
                }
                let reg = acc.expect("three dimensions");
                Ok(Val::R {
                    reg,
                    ty: Type::size_t(),
                    prov: None,
                })
            }
            K::WorkItem(f) => {
                if f == WorkItemFn::WorkDim {
                    self.argc(name, args, 0, loc)?;
                    let dim = self.const_reg(ValTy::scalar(Scalar::U32), vec![0]);
                    let dst = self.alloc(1);
                    self.emit(Inst::WorkItem { f, dst, dim });
                    return Ok(Val::R {
                        reg: dst,
                        ty: Type::uint(),
                        prov: None,
                    });
                }
                self.argc(name, args, 1, loc)?;
                let (r, t, _) = self.rvalue(&args[0])?;
                if !(t.is_scalar() && t.is_integer()) {
                    return Err(self.no_match(name, &[t], loc));
                }
                let dim = self.convert(r, &t, &Type::uint(), loc)?;
                if matches!(
                    f,
                    WorkItemFn::GlobalId | WorkItemFn::LocalId | WorkItemFn::GroupId
                ) {
                    self.uses_ids = true;
                }
                let dst = self.alloc(1);
                self.emit(Inst::WorkItem { f, dst, dim });
                let ty = if f == WorkItemFn::ComputeId {
                    Type::int()
                } else {
                    Type::size_t()
                };
                Ok(Val::R {
                    reg: dst,
                    ty,
                    prov: None,
                })
            }
            K::Float1(f) | K::Float2(f) | K::Float3(f) | K::Float2Scalar(f) => {
                let n = match kind {
                    K::Float1(_) => 1,
                    K::Float3(_) => 3,
                    _ => 2,
                };
                self.argc(name, args, n, loc)?;
                let vals = self.eval_args(args)?;
                let t = self.gentype(name, &vals, Some(true), loc)?;
                if matches!(kind, K::Float2(_) | K::Float3(_)) {
                    self.check_same_shape(name, &vals, loc)?;
                }
                let regs = self.convert_all(&vals, &t, loc)?;
                Ok(self.emit_builtin(f, &t, &t, &regs))
            }
            K::Float2Int(f) => {
                self.argc(name, args, 2, loc)?;
                let vals = self.eval_args(args)?;
                let t = self.gentype(name, &vals[..1], Some(true), loc)?;
                let (r1, t1, _) = vals[1].clone();
                if !t1.is_integer() || (t1.is_vector() && t1.lanes() != t.lanes()) {
                    return Err(self.no_match(name, &[vals[0].1.clone(), t1], loc));
                }
                let r0 = self.convert(vals[0].0, &vals[0].1, &t, loc)?;
                let it = t.with_elem(Scalar::I32);
                let r1 = self.convert(r1, &t1, &it, loc)?;
                Ok(self.emit_builtin(f, &t, &t, &[r0, r1]))
            }
            K::Ilogb => {
                self.argc(name, args, 1, loc)?;
                let vals = self.eval_args(args)?;
                let t = self.gentype(name, &vals, Some(true), loc)?;
                let regs = self.convert_all(&vals, &t, loc)?;
                let dt = t.with_elem(Scalar::I32);
                Ok(self.emit_builtin(BuiltinFn::Ilogb, &t, &dt, &regs))
            }
            K::Nan => {
                self.argc(name, args, 1, loc)?;
                let (r, t, _) = self.rvalue(&args[0])?;
                let Some(s) = t.elem().filter(|s| !s.is_float()) else {
                    return Err(self.no_match(name, &[t], loc));
                };
                let (us, fs) = if s.size() == 8 {
                    (Scalar::U64, Scalar::F64)
                } else {
                    (Scalar::U32, Scalar::F32)
                };
                let ut = t.with_elem(us);
                let r = self.convert(r, &t, &ut, loc)?;
                let dt = t.with_elem(fs);
                Ok(self.emit_builtin(BuiltinFn::Nan, &ut, &dt, &[r]))
            }
            K::FloatPtr(f) => {
                let n = if f == BuiltinPtrFn::Remquo { 3 } else { 2 };
                self.argc(name, args, n, loc)?;
                let vals = self.eval_args(&args[..n - 1])?;
                let t = self.gentype(name, &vals, Some(true), loc)?;
                let regs = self.convert_all(&vals, &t, loc)?;
                let (pr, pt, prov) = self.rvalue(&args[n - 1])?;
                let Type::Pointer(p) = &pt else {
                    return Err(self.no_match(name, &[t, pt], loc));
                };
                let out_ty = match f {
                    BuiltinPtrFn::Frexp | BuiltinPtrFn::Remquo | BuiltinPtrFn::LgammaR => {
                        t.with_elem(Scalar::I32)
                    }
                    _ => t.clone(),
                };
                if p.ty != out_ty {
                    let (x, y) = (self.ty_name(&pt), self.ty_name(&out_ty));
                    return Err(self.error(
                        args[n - 1].loc,
                        format!("'{name}' needs a pointer to '{y}', got '{x}'"),
                    ));
                }
                let width = self.p.size_of(&out_ty);
                let site = self.mem_site(
                    SiteKind::Store,
                    p.space,
                    args[n - 1].loc,
                    width,
                    &prov.unwrap_or_default(),
                );
                let vt = t.valty().expect("float");
                let dst = self.alloc(vt.lanes);
                self.emit(Inst::BuiltinPtr {
                    f,
                    ty: vt,
                    dst,
                    args: [regs[0], *regs.get(1).unwrap_or(&regs[0])],
                    out_ptr: pr,
                    site,
                });
                Ok(Val::R {
                    reg: dst,
                    ty: t,
                    prov: None,
                })
            }
            K::Abs | K::AbsDiff => {
                let n = if kind == K::Abs { 1 } else { 2 };
                self.argc(name, args, n, loc)?;
                let vals = self.eval_args(args)?;
                let t = self.gentype(name, &vals, Some(false), loc)?;
                let regs = self.convert_all(&vals, &t, loc)?;
                let dt = t.with_elem(unsigned_of(t.elem().expect("int")));
                let f = if kind == K::Abs {
                    BuiltinFn::Abs
                } else {
                    BuiltinFn::AbsDiff
                };
                Ok(self.emit_builtin(f, &t, &dt, &regs))
            }
            K::Int1(f) | K::Int2(f) | K::Int3(f) => {
                let n = match kind {
                    K::Int1(_) => 1,
                    K::Int2(_) => 2,
                    _ => 3,
                };
                self.argc(name, args, n, loc)?;
                let vals = self.eval_args(args)?;
                let t = self.gentype(name, &vals, Some(false), loc)?;
                let regs = self.convert_all(&vals, &t, loc)?;
                Ok(self.emit_builtin(f, &t, &t, &regs))
            }
            K::Upsample => {
                self.argc(name, args, 2, loc)?;
                let vals = self.eval_args(args)?;
                let (hr, ht, _) = vals[0].clone();
                let (lr, lt, _) = vals[1].clone();
                let (Some(hs), Some(ls)) = (ht.elem(), lt.elem()) else {
                    return Err(self.no_match(name, &[ht, lt], loc));
                };
                let wide = match hs {
                    Scalar::I8 => Scalar::I16,
                    Scalar::U8 => Scalar::U16,
                    Scalar::I16 => Scalar::I32,
                    Scalar::U16 => Scalar::U32,
                    Scalar::I32 => Scalar::I64,
                    Scalar::U32 => Scalar::U64,
                    _ => return Err(self.no_match(name, &[ht, lt], loc)),
                };
                if ht.lanes() != lt.lanes() || ls.is_float() {
                    return Err(self.no_match(name, &[ht, lt], loc));
                }
                let lo_t = ht.with_elem(unsigned_of(hs));
                let lr = self.convert(lr, &lt, &lo_t, loc)?;
                let dt = ht.with_elem(wide);
                Ok(self.emit_builtin(BuiltinFn::Upsample, &ht, &dt, &[hr, lr]))
            }
            K::MinMax(f) => {
                self.argc(name, args, 2, loc)?;
                let vals = self.eval_args(args)?;
                let t = self.gentype(name, &vals, None, loc)?;
                let regs = self.convert_all(&vals, &t, loc)?;
                Ok(self.emit_builtin(f, &t, &t, &regs))
            }
            K::Shuffle(two) => {
                // OpenCL C 1.2 6.12.12: result lane i is lane (mask[i] mod m) of x (of the
                // 2m lanes of x then y for shuffle2). The operands go to a private temporary
                // and each result lane is a load at its masked index.
                let nargs = if two { 3 } else { 2 };
                self.argc(name, args, nargs, loc)?;
                let vals = self.eval_args(args)?;
                let tys: Vec<Type> = vals.iter().map(|v| v.1.clone()).collect();
                let (Type::Vector(xs, m), Type::Vector(ms, n)) = (&tys[0], &tys[nargs - 1]) else {
                    return Err(self.no_match(name, &tys, loc));
                };
                let (xs, m, ms, n) = (*xs, *m, *ms, *n);
                let widths = [2u8, 4, 8, 16];
                if !widths.contains(&m)
                    || !widths.contains(&n)
                    || matches!(xs, Scalar::Bool | Scalar::F16)
                    || ms.is_float()
                    || ms.is_signed()
                    || ms == Scalar::Bool
                    || ms.size() != xs.size()
                    || (two && tys[1] != tys[0])
                {
                    return Err(self.no_match(name, &tys, loc));
                }
                let es = xs.size();
                let total = m as u32 * if two { 2 } else { 1 };
                let off = self.alloc_frame(es * total, es);
                let base = self.alloc(1);
                self.emit(Inst::FrameAddr {
                    dst: base,
                    offset: off,
                });
                let xvt = ValTy::vector(xs, m);
                self.emit(Inst::Store {
                    ty: xvt,
                    src: vals[0].0,
                    addr: base,
                    space: AddrSpace::Private,
                    site: None,
                });
                if two {
                    let second = self.alloc(1);
                    self.emit(Inst::PtrAdd {
                        dst: second,
                        base,
                        index: None,
                        scale: 0,
                        disp: (es * m as u32) as i64,
                    });
                    self.emit(Inst::Store {
                        ty: xvt,
                        src: vals[1].0,
                        addr: second,
                        space: AddrSpace::Private,
                        site: None,
                    });
                }
                let keep = self.const_reg(ValTy::scalar(ms), vec![(total - 1) as u64]);
                let dst = self.alloc(n);
                let mask = vals[nargs - 1].0;
                for i in 0..n as u32 {
                    let idx = self.alloc(1);
                    self.emit(Inst::Binary {
                        op: BinOp::And,
                        ty: ValTy::scalar(ms),
                        dst: idx,
                        a: mask.lane(i),
                        b: keep,
                    });
                    let addr = self.alloc(1);
                    self.emit(Inst::PtrAdd {
                        dst: addr,
                        base,
                        index: Some(idx),
                        scale: es,
                        disp: 0,
                    });
                    self.emit(Inst::Load {
                        ty: ValTy::scalar(xs),
                        dst: dst.lane(i),
                        addr,
                        space: AddrSpace::Private,
                        site: None,
                    });
                }
                Ok(Val::R {
                    reg: dst,
                    ty: Type::Vector(xs, n),
                    prov: None,
                })
            }
            K::Clamp | K::Bitselect => {
                self.argc(name, args, 3, loc)?;
                let vals = self.eval_args(args)?;
                let t = self.gentype(name, &vals, None, loc)?;
                let regs = self.convert_all(&vals, &t, loc)?;
                let f = if kind == K::Clamp {
                    BuiltinFn::Clamp
                } else {
                    BuiltinFn::Bitselect
                };
                Ok(self.emit_builtin(f, &t, &t, &regs))
            }
            K::Mix | K::Smoothstep | K::Step => {
                let n = if kind == K::Step { 2 } else { 3 };
                self.argc(name, args, n, loc)?;
                let vals = self.eval_args(args)?;
                let t = self.gentype(name, &vals, Some(true), loc)?;
                let regs = self.convert_all(&vals, &t, loc)?;
                let f = match kind {
                    K::Mix => BuiltinFn::Mix,
                    K::Step => BuiltinFn::Step,
                    _ => BuiltinFn::Smoothstep,
                };
                Ok(self.emit_builtin(f, &t, &t, &regs))
            }
            K::Geometric(f) => {
                let n = if matches!(f, BuiltinFn::Length | BuiltinFn::Normalize) {
                    1
                } else {
                    2
                };
                self.argc(name, args, n, loc)?;
                let vals = self.eval_args(args)?;
                self.check_same_shape(name, &vals, loc)?;
                let t = self.gentype(name, &vals, Some(true), loc)?;
                if t.lanes() > 4 || (f == BuiltinFn::Cross && !matches!(t.lanes(), 3 | 4)) {
                    let tys: Vec<Type> = vals.iter().map(|v| v.1.clone()).collect();
                    return Err(self.no_match(name, &tys, loc));
                }
                let regs = self.convert_all(&vals, &t, loc)?;
                let dt = match f {
                    BuiltinFn::Cross | BuiltinFn::Normalize => t.clone(),
                    _ => Type::Scalar(t.elem().expect("float")),
                };
                Ok(self.emit_builtin(f, &t, &dt, &regs))
            }
            K::Rel2(f) | K::Rel1(f) => {
                let n = if matches!(kind, K::Rel1(_)) { 1 } else { 2 };
                self.argc(name, args, n, loc)?;
                let vals = self.eval_args(args)?;
                let t = self.gentype(name, &vals, Some(true), loc)?;
                let regs = self.convert_all(&vals, &t, loc)?;
                let dt = match &t {
                    Type::Vector(s, n) => Type::Vector(signed_int_of_size(*s), *n),
                    _ => Type::int(),
                };
                Ok(self.emit_builtin(f, &t, &dt, &regs))
            }
            K::AnyAll(f) => {
                self.argc(name, args, 1, loc)?;
                let (r, t, _) = self.rvalue(&args[0])?;
                if !t.is_integer() {
                    return Err(self.no_match(name, &[t], loc));
                }
                let st = t.with_elem(signed_int_of_size(t.elem().expect("int")));
                let r = if t.elem().is_some_and(|s| s.is_signed()) {
                    r
                } else {
                    self.convert(r, &t, &st, loc)?
                };
                Ok(self.emit_builtin(f, &st, &Type::int(), &[r]))
            }
            K::Select => {
                self.argc(name, args, 3, loc)?;
                let vals = self.eval_args(args)?;
                let t = self.gentype(name, &vals[..2], None, loc)?;
                let regs = self.convert_all(&vals[..2], &t, loc)?;
                let (cr, ct, _) = vals[2].clone();
                let es = t.elem().expect("arith");
                if !ct.is_integer() || (ct.is_vector() != t.is_vector()) || ct.lanes() != t.lanes()
                {
                    let tys: Vec<Type> = vals.iter().map(|v| v.1.clone()).collect();
                    return Err(self.no_match(name, &tys, loc));
                }
                let want = t.with_elem(signed_int_of_size(es));
                let cr = self.convert(cr, &ct, &want, loc)?;
                Ok(self.emit_builtin(BuiltinFn::Select, &t, &t, &[regs[0], regs[1], cr]))
            }
            K::VLoad(n) | K::VLoadHalf(n) => {
                self.argc(name, args, 2, loc)?;
                let (or, ot, _) = self.rvalue(&args[0])?;
                let (pr, pt, prov) = self.rvalue(&args[1])?;
                let Some(p) = pt.pointee().cloned() else {
                    return Err(self.no_match(name, &[ot, pt], loc));
                };
                let half = matches!(kind, K::VLoadHalf(_));
                let s = match (&p.ty, half) {
                    (Type::Scalar(Scalar::F16), true) => Scalar::F16,
                    (Type::Scalar(s), false) if *s != Scalar::Bool && *s != Scalar::F16 => *s,
                    (Type::Scalar(Scalar::F16), false) => Scalar::F16,
                    _ => return Err(self.no_match(name, &[ot, pt], loc)),
                };
                if !ot.is_integer() || !ot.is_scalar() {
                    return Err(self.no_match(name, &[ot, pt], loc));
                }
                let idx = self.convert(or, &ot, &Type::Scalar(Scalar::I64), loc)?;
                let addr = self.alloc(1);
                self.emit(Inst::PtrAdd {
                    dst: addr,
                    base: pr,
                    index: Some(idx),
                    scale: s.size() * n as u32,
                    disp: 0,
                });
                let vt = ValTy::vector(s, n);
                let dst = self.alloc(n);
                let site = self.mem_site(
                    SiteKind::Load,
                    p.space,
                    loc,
                    vt.bytes(),
                    &prov.unwrap_or_default(),
                );
                self.emit(Inst::Load {
                    ty: vt,
                    dst,
                    addr,
                    space: p.space,
                    site,
                });
                let lt = if n == 1 {
                    Type::Scalar(s)
                } else {
                    Type::Vector(s, n)
                };
                if s == Scalar::F16 {
                    let ft = lt.with_elem(Scalar::F32);
                    let c = self.convert(dst, &lt, &ft, loc)?;
                    return Ok(Val::R {
                        reg: c,
                        ty: ft,
                        prov: None,
                    });
                }
                Ok(Val::R {
                    reg: dst,
                    ty: lt,
                    prov: None,
                })
            }
            K::VStore(n) | K::VStoreHalf(n, _) => {
                self.argc(name, args, 3, loc)?;
                let (dr, dt, _) = self.rvalue(&args[0])?;
                let (or, ot, _) = self.rvalue(&args[1])?;
                let (pr, pt, prov) = self.rvalue(&args[2])?;
                let Some(p) = pt.pointee().cloned() else {
                    return Err(self.no_match(name, &[dt, ot, pt], loc));
                };
                if p.is_const {
                    return Err(self.error(
                        args[2].loc,
                        format!("'{name}' cannot store through a pointer to const"),
                    ));
                }
                let half = matches!(kind, K::VStoreHalf(..));
                let s = match (&p.ty, half) {
                    (Type::Scalar(Scalar::F16), true) => Scalar::F16,
                    (Type::Scalar(s), false) if *s != Scalar::Bool => *s,
                    _ => return Err(self.no_match(name, &[dt, ot, pt], loc)),
                };
                // A scalar converts to the vector overload (`vstore3(x, 0, p)` stores x three
                // times), as an implicit scalar-to-vector conversion does.
                let (dr, dt) = if n > 1 && dt.is_scalar() && dt.is_arith() && !half {
                    let vt = Type::Vector(s, n);
                    (self.convert(dr, &dt, &vt, args[0].loc)?, vt)
                } else {
                    (dr, dt)
                };
                if dt.lanes() != n || !ot.is_integer() || !ot.is_scalar() {
                    return Err(self.no_match(name, &[dt, ot, pt], loc));
                }
                let Some(de) = dt.elem() else {
                    return Err(self.no_match(name, &[dt, ot, pt], loc));
                };
                let (val, vt) = if half {
                    if !de.is_float() {
                        return Err(self.no_match(name, &[dt, ot, pt], loc));
                    }
                    let rounding = match kind {
                        K::VStoreHalf(_, r) => r,
                        _ => Rounding::Default,
                    };
                    let from = dt.valty().expect("float");
                    let to = ValTy::vector(Scalar::F16, n);
                    let c = self.alloc(n);
                    self.emit(Inst::Convert {
                        from,
                        to,
                        sat: false,
                        rounding,
                        dst: c,
                        src: dr,
                    });
                    (c, to)
                } else {
                    if de != s {
                        return Err(self.no_match(name, &[dt, ot, pt], loc));
                    }
                    (dr, ValTy::vector(s, n))
                };
                let idx = self.convert(or, &ot, &Type::Scalar(Scalar::I64), loc)?;
                let addr = self.alloc(1);
                self.emit(Inst::PtrAdd {
                    dst: addr,
                    base: pr,
                    index: Some(idx),
                    scale: s.size() * n as u32,
                    disp: 0,
                });
                let site = self.mem_site(
                    SiteKind::Store,
                    p.space,
                    loc,
                    vt.bytes(),
                    &prov.unwrap_or_default(),
                );
                self.emit(Inst::Store {
                    ty: vt,
                    src: val,
                    addr,
                    space: p.space,
                    site,
                });
                Ok(Val::Void)
            }
            K::Convert { to, sat, rounding } => {
                self.argc(name, args, 1, loc)?;
                let (r, t, _) = self.rvalue(&args[0])?;
                if !t.is_arith() || t.lanes() != to.lanes() || t.is_vector() != to.is_vector() {
                    return Err(self.no_match(name, &[t], loc));
                }
                if sat && to.is_float() {
                    return Err(self.error(
                        loc,
                        format!(
                            "'{name}': saturation is not allowed for floating-point destinations"
                        ),
                    ));
                }
                let from = t.valty().expect("arith");
                let tv = to.valty().expect("arith");
                let dst = self.alloc(tv.lanes);
                self.emit(Inst::Convert {
                    from,
                    to: tv,
                    sat,
                    rounding,
                    dst,
                    src: r,
                });
                Ok(Val::R {
                    reg: dst,
                    ty: to,
                    prov: None,
                })
            }
            K::As(to) => {
                self.argc(name, args, 1, loc)?;
                let (r, t, _) = self.rvalue(&args[0])?;
                let (Some(from), Some(tv)) = (t.valty(), to.valty()) else {
                    return Err(self.no_match(name, &[t], loc));
                };
                // A 3-component vector has the size of 4 components (OpenCL C 1.2 6.1.5), so
                // `as_uint4(float3)` and `as_float3(int4)` are valid: the 3-lane side is
                // reinterpreted as 4 lanes (the 4th lane of a 3-lane operand is undefined: 0
                // here; a 3-lane result takes the first 3 lanes).
                let pad = |v: ValTy| {
                    if v.lanes == 3 {
                        ValTy::vector(v.scalar, 4)
                    } else {
                        v
                    }
                };
                let (pfrom, pto) = (pad(from), pad(tv));
                if !t.is_arith() || pfrom.bytes() != pto.bytes() {
                    let (x, y) = (self.ty_name(&t), self.ty_name(&to));
                    return Err(self.error(
                        loc,
                        format!("invalid reinterpretation: sizes of '{x}' and '{y}' do not match"),
                    ));
                }
                let src = if pfrom != from {
                    let wide = self.alloc(4);
                    let zero = self.zero_of(ValTy::scalar(from.scalar));
                    self.emit(Inst::Splat {
                        dst: wide,
                        src: zero,
                        lanes: 4,
                    });
                    self.emit(Inst::Mov {
                        dst: wide,
                        src: r,
                        lanes: 3,
                    });
                    wide
                } else {
                    r
                };
                // The executor's bitcast needs room for the wider lane count of both sides.
                let dst = self.alloc(pto.lanes.max(pfrom.lanes));
                self.emit(Inst::Bitcast {
                    from: pfrom,
                    to: pto,
                    dst,
                    src,
                });
                Ok(Val::R {
                    reg: dst,
                    ty: to,
                    prov: None,
                })
            }
            K::Barrier => {
                self.argc(name, args, 1, loc)?;
                let Some(flags) = self.p.const_int(&args[0]) else {
                    return Err(self.error(args[0].loc, "barrier flags must be a constant (CLK_LOCAL_MEM_FENCE, CLK_GLOBAL_MEM_FENCE)"));
                };
                self.uses_barrier = true;
                self.emit(Inst::Barrier {
                    flags: flags as u32,
                });
                Ok(Val::Void)
            }
            K::MemFence => {
                self.argc(name, args, 1, loc)?;
                if self.p.const_int(&args[0]).is_none() {
                    return Err(self.error(args[0].loc, "memory fence flags must be a constant"));
                }
                Ok(Val::Void)
            }
            K::Prefetch => {
                self.argc(name, args, 2, loc)?;
                self.eval_args(args)?;
                Ok(Val::Void)
            }
            K::AsyncCopy(strided) => {
                self.argc(name, args, if strided { 5 } else { 4 }, loc)?;
                let vals = self.eval_args(args)?;
                let (dr, dt, dp) = vals[0].clone();
                let (sr, st, sp) = vals[1].clone();
                let (Some(d), Some(s)) = (dt.pointee().cloned(), st.pointee().cloned()) else {
                    let tys: Vec<Type> = vals.iter().map(|v| v.1.clone()).collect();
                    return Err(self.no_match(name, &tys, loc));
                };
                let to_local = match (d.space, s.space) {
                    (AddrSpace::Local, AddrSpace::Global | AddrSpace::Constant) => true,
                    (AddrSpace::Global, AddrSpace::Local) => false,
                    _ => {
                        return Err(self.error(
                            loc,
                            format!("'{name}' copies between __global and __local memory"),
                        ));
                    }
                };
                if d.ty != s.ty {
                    let tys: Vec<Type> = vals.iter().map(|v| v.1.clone()).collect();
                    return Err(self.no_match(name, &tys, loc));
                }
                let elem_bytes = self.p.size_of(&d.ty);
                let (cr, ct, _) = vals[2].clone();
                let count = self.convert(cr, &ct, &Type::size_t(), loc)?;
                let stride = if strided {
                    let (r, t, _) = vals[3].clone();
                    Some(self.convert(r, &t, &Type::size_t(), loc)?)
                } else {
                    None
                };
                let (gspace, gprov, kind) = if to_local {
                    (s.space, sp, SiteKind::Load)
                } else {
                    (d.space, dp, SiteKind::Store)
                };
                let site = self.mem_site(kind, gspace, loc, elem_bytes, &gprov.unwrap_or_default());
                let event = self.alloc(1);
                self.emit(Inst::AsyncCopy {
                    dst: dr,
                    src: sr,
                    count,
                    stride,
                    elem_bytes,
                    event,
                    to_local,
                    site,
                });
                Ok(Val::R {
                    reg: event,
                    ty: Type::Event,
                    prov: None,
                })
            }
            K::WaitGroupEvents => {
                self.argc(name, args, 2, loc)?;
                self.eval_args(args)?;
                self.emit(Inst::WaitGroupEvents);
                Ok(Val::Void)
            }
            K::Atomic(op) => self.atomic(op, name, args, loc),
            K::Printf => self.printf(args, loc),
            K::ReadChannel { nb } => self.read_channel(nb, name, args, loc),
            K::WriteChannel { nb } => self.write_channel(nb, name, args, loc),
            K::ReadPipe | K::WritePipe => self.pipe_op(kind == K::WritePipe, name, args, loc),
            K::FpgaReg => {
                self.argc(name, args, 1, loc)?;
                let v = self.expr(&args[0])?;
                if v.ty().is_aggregate() {
                    return Ok(v);
                }
                let (r, t, prov) = self.load(v, args[0].loc)?;
                let lanes = t.valty().map_or(1, |v| v.lanes);
                let dst = self.alloc(lanes);
                self.emit(Inst::Mov { dst, src: r, lanes });
                Ok(Val::R {
                    reg: dst,
                    ty: t,
                    prov,
                })
            }
        }
    }

    fn check_same_shape(&mut self, name: &str, vals: &[RV], loc: Loc) -> LResult<()> {
        let vecs: Vec<&Type> = vals
            .iter()
            .map(|v| &v.1)
            .filter(|t| t.is_vector())
            .collect();
        if vecs.windows(2).any(|w| w[0].lanes() != w[1].lanes()) {
            let tys: Vec<Type> = vals.iter().map(|v| v.1.clone()).collect();
            return Err(self.no_match(name, &tys, loc));
        }
        Ok(())
    }

    fn atomic(&mut self, op: AtomicOp, name: &str, args: &[Expr], loc: Loc) -> LResult<Val> {
        let n = match op {
            AtomicOp::Inc | AtomicOp::Dec => 1,
            AtomicOp::CmpXchg => 3,
            _ => 2,
        };
        self.argc(name, args, n, loc)?;
        let vals = self.eval_args(args)?;
        let (pr, pt, prov) = vals[0].clone();
        let Some(p) = pt.pointee().cloned() else {
            let tys: Vec<Type> = vals.iter().map(|v| v.1.clone()).collect();
            return Err(self.no_match(name, &tys, loc));
        };
        let s = match &p.ty {
            Type::Scalar(s @ (Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64)) => *s,
            Type::Scalar(Scalar::F32) if op == AtomicOp::Xchg => Scalar::F32,
            _ => {
                let tys: Vec<Type> = vals.iter().map(|v| v.1.clone()).collect();
                return Err(self.no_match(name, &tys, loc));
            }
        };
        if !matches!(p.space, AddrSpace::Global | AddrSpace::Local) {
            return Err(self.error(
                loc,
                format!("'{name}' needs a pointer to __global or __local memory"),
            ));
        }
        let t = Type::Scalar(s);
        let vt = ValTy::scalar(s);
        let (a, b) = match op {
            AtomicOp::Inc | AtomicOp::Dec => {
                let one = self.one_of(vt);
                (one, one)
            }
            AtomicOp::CmpXchg => {
                let cmp = self.convert(vals[1].0, &vals[1].1, &t, loc)?;
                let val = self.convert(vals[2].0, &vals[2].1, &t, loc)?;
                (val, cmp)
            }
            _ => {
                let v = self.convert(vals[1].0, &vals[1].1, &t, loc)?;
                (v, v)
            }
        };
        let site = self.new_site(
            SiteKind::Atomic,
            p.space,
            loc,
            s.size(),
            prov.clone().unwrap_or_default().target,
            prov.and_then(|p| p.arg),
        );
        let dst = self.alloc(1);
        self.emit(Inst::Atomic {
            op,
            ty: vt,
            dst,
            addr: pr,
            a,
            b,
            space: p.space,
            site,
        });
        Ok(Val::R {
            reg: dst,
            ty: t,
            prov: None,
        })
    }

    fn printf(&mut self, args: &[Expr], loc: Loc) -> LResult<Val> {
        let Some(first) = args.first() else {
            return Err(self.error(
                loc,
                "too few arguments to function call 'printf', expected at least 1, have 0",
            ));
        };
        let ExprKind::Str(fmt) = &first.kind else {
            return Err(self.error(
                first.loc,
                "format string argument of 'printf' must be a string literal",
            ));
        };
        let mut out = vec![];
        let mut kinds = vec![];
        for a in &args[1..] {
            if let ExprKind::Str(text) = &a.kind {
                kinds.push(PArg::Str);
                // A string argument (`%s`): a NUL-terminated copy in the constant data.
                let data = &mut self.p.module.constant_data;
                let off = data.len() as u32;
                data.extend_from_slice(text.as_bytes());
                data.push(0);
                let r = self.alloc(1);
                self.emit(Inst::ConstAddr {
                    dst: r,
                    offset: off,
                });
                out.push((r, ValTy::scalar(Scalar::U64)));
                continue;
            }

            let (r, t, _) = self.rvalue(a)?;
            kinds.push(match &t {
                Type::Scalar(s) => PArg::Scalar(*s),
                Type::Vector(s, n) => PArg::Vector(*s, *n),
                Type::Pointer(p) => PArg::Pointer(matches!(
                    p.ty,
                    Type::Scalar(Scalar::I8) | Type::Scalar(Scalar::U8)
                )),
                _ => PArg::Pointer(false),
            });
            let (r, t) = match &t {
                // Default argument promotions for small integers.
                Type::Scalar(s) if !s.is_float() && s.size() < 4 => {
                    let c = self.convert(r, &t, &Type::int(), a.loc)?;
                    (c, Type::int())
                }
                Type::Scalar(Scalar::F16) => {
                    let c = self.convert(r, &t, &Type::Scalar(Scalar::F32), a.loc)?;
                    (c, Type::Scalar(Scalar::F32))
                }
                _ => (r, t),
            };
            let Some(vt) = t.valty() else {
                let n = self.ty_name(&t);
                return Err(self.error(
                    a.loc,
                    format!("cannot pass a value of type '{n}' to printf"),
                ));
            };
            out.push((r, vt));
        }
        // -Wformat-like checks (OpenCL C 1.2 6.12.13.2), each at the argument it concerns.
        for f in printf_check::check(fmt, &kinds) {
            let at = f.arg.and_then(|i| args.get(i + 1)).unwrap_or(first).loc;
            self.warn(at, format!("printf: {}", f.msg));
        }
        let sid = StrId(self.p.module.strings.len() as u32);
        self.p.module.strings.push(fmt.clone());
        let dst = self.alloc(1);
        self.emit(Inst::Printf {
            fmt: sid,
            args: out,
            dst,
        });
        Ok(Val::R {
            reg: dst,
            ty: Type::int(),
            prov: None,
        })
    }

    /// Resolves `ch`, `ch[i]`, `ch[i][j]` to a channel endpoint, element type and site name.
    fn channel_ref(&mut self, e: &Expr) -> LResult<(Endpoint, Type, String)> {
        let mut indices = vec![];
        let mut cur = e;
        while let ExprKind::Index(b, i) = &cur.kind {
            indices.push(i.as_ref());
            cur = b;
        }
        indices.reverse();
        let ExprKind::Ident(name) = &cur.kind else {
            return Err(self.error(
                e.loc,
                "first argument must be a channel (a program-scope 'channel' variable)",
            ));
        };
        let shadowed = self.lookup(name).is_some();
        let Some(Global::Channel { id, elem, dims }) = (if shadowed {
            None
        } else {
            self.p.globals.get(name).cloned()
        }) else {
            return Err(self.error(cur.loc, format!("'{name}' is not a channel")));
        };
        if indices.len() != dims.len() {
            return Err(self.error(
                e.loc,
                format!(
                    "channel '{name}' has {} array dimension(s) but is indexed with {}",
                    dims.len(),
                    indices.len()
                ),
            ));
        }
        if dims.is_empty() {
            return Ok((Endpoint::Channel { id, index: None }, elem, name.clone()));
        }
        let mut label = name.clone();
        let mut consts = vec![];
        for (k, ix) in indices.iter().enumerate() {
            match self.p.const_int(ix) {
                Some(v) => {
                    if v < 0 || v >= dims[k] as i128 {
                        return Err(self.error(
                            ix.loc,
                            format!(
                                "channel index {v} is out of range for '{name}' (size {})",
                                dims[k]
                            ),
                        ));
                    }
                    label.push_str(&format!("[{v}]"));
                    consts.push(Some(v as i64));
                }
                None => {
                    let txt = match &ix.kind {
                        ExprKind::Ident(n) => n.clone(),
                        _ => "?".into(),
                    };
                    label.push_str(&format!("[{txt}]"));
                    consts.push(None);
                }
            }
        }
        let index = if consts.iter().all(|c| c.is_some()) {
            let mut flat: i64 = 0;
            for (k, c) in consts.iter().enumerate() {
                flat = flat * dims[k] as i64 + c.unwrap_or(0);
            }
            self.const_i64(flat)
        } else {
            let mut acc: Option<Reg> = None;
            for (k, ix) in indices.iter().enumerate() {
                let (r, t, _) = self.rvalue(ix)?;
                if !(t.is_scalar() && t.is_integer()) {
                    return Err(self.error(ix.loc, "channel index is not an integer"));
                }
                let r = self.convert(r, &t, &Type::Scalar(Scalar::I64), ix.loc)?;
                acc = Some(match acc {
                    None => r,
                    Some(a) => {
                        let d = self.const_i64(dims[k] as i64);
                        let m = self.alloc(1);
                        self.emit(Inst::Binary {
                            op: BinOp::Mul,
                            ty: ValTy::scalar(Scalar::I64),
                            dst: m,
                            a,
                            b: d,
                        });
                        let s = self.alloc(1);
                        self.emit(Inst::Binary {
                            op: BinOp::Add,
                            ty: ValTy::scalar(Scalar::I64),
                            dst: s,
                            a: m,
                            b: r,
                        });
                        s
                    }
                });
            }
            acc.expect("at least one index")
        };
        Ok((
            Endpoint::Channel {
                id,
                index: Some(index),
            },
            elem,
            label,
        ))
    }

    fn read_channel(&mut self, nb: bool, name: &str, args: &[Expr], loc: Loc) -> LResult<Val> {
        self.argc(name, args, if nb { 2 } else { 1 }, loc)?;
        let (ep, elem, label) = self.channel_ref(&args[0])?;
        let bytes = self.p.size_of(&elem);
        let tmp = self.frame_temp(&elem);
        let Val::Mem { addr, .. } = tmp.clone() else {
            return Err(self.error(loc, "internal: channel temporary"));
        };
        let status = if nb { Some(self.alloc(1)) } else { None };
        let site = self.new_site(
            SiteKind::ChannelRead,
            AddrSpace::Global,
            loc,
            bytes,
            label,
            None,
        );
        self.uses_fifos = true;
        self.emit(Inst::FifoRead {
            ep,
            dst_ptr: addr,
            bytes,
            blocking: !nb,
            status,
            site,
        });
        if let Some(st) = status {
            let v = self.expr(&args[1])?;
            let (pr, pt, prov) = self.load(v, args[1].loc)?;
            let Type::Pointer(p) = pt else {
                return Err(self.error(
                    args[1].loc,
                    format!("second argument of '{name}' must be a pointer to bool"),
                ));
            };
            if !p.ty.is_scalar() {
                let n = self.ty_name(&p.ty);
                return Err(self.error(
                    args[1].loc,
                    format!("second argument of '{name}' must point to bool, not '{n}'"),
                ));
            }
            let c = self.convert(st, &Type::Scalar(Scalar::Bool), &p.ty, loc)?;
            let target = Val::Mem {
                addr: pr,
                ty: p.ty.clone(),
                space: p.space,
                is_const: p.is_const,
                prov: prov.unwrap_or_default(),
            };
            self.store_to(&target, c, args[1].loc)?;
        }
        if elem.is_aggregate() {
            return Ok(tmp);
        }
        let (r, t, _) = self.load(tmp, loc)?;
        Ok(Val::R {
            reg: r,
            ty: t,
            prov: None,
        })
    }

    fn write_channel(&mut self, nb: bool, name: &str, args: &[Expr], loc: Loc) -> LResult<Val> {
        self.argc(name, args, 2, loc)?;
        let (ep, elem, label) = self.channel_ref(&args[0])?;
        let bytes = self.p.size_of(&elem);
        let tmp = self.frame_temp(&elem);
        if elem.is_aggregate() {
            let v = self.expr(&args[1])?;
            self.copy_aggregate(&tmp, &v, args[1].loc)?;
        } else {
            let (r, t, _) = self.rvalue(&args[1])?;
            let c = self.convert_implicit(r, &t, &elem, &args[1], "passing")?;
            self.store_to(&tmp, c, loc)?;
        }
        let Val::Mem { addr, .. } = tmp else {
            return Err(self.error(loc, "internal: channel temporary"));
        };
        let status = if nb { Some(self.alloc(1)) } else { None };
        let site = self.new_site(
            SiteKind::ChannelWrite,
            AddrSpace::Global,
            loc,
            bytes,
            label,
            None,
        );
        self.uses_fifos = true;
        self.emit(Inst::FifoWrite {
            ep,
            src_ptr: addr,
            bytes,
            blocking: !nb,
            status,
            site,
        });
        match status {
            Some(st) => Ok(Val::R {
                reg: st,
                ty: Type::Scalar(Scalar::Bool),
                prov: None,
            }),
            None => Ok(Val::Void),
        }
    }

    fn pipe_op(&mut self, write: bool, name: &str, args: &[Expr], loc: Loc) -> LResult<Val> {
        if args.len() == 4 {
            return Err(self.error(loc, format!("'{name}' with reservation arguments is not supported (use the two-argument form)")));
        }
        self.argc(name, args, 2, loc)?;
        let pv = self.expr(&args[0])?;
        let Val::RegVar {
            reg,
            ty: Type::Pipe(elem),
            name: pname,
            ..
        } = pv
        else {
            return Err(self.error(
                args[0].loc,
                format!("first argument of '{name}' must be a pipe kernel argument"),
            ));
        };
        let (is_write, blocking) = self
            .pipe_info
            .get(&reg.0)
            .copied()
            .unwrap_or((false, false));
        if is_write != write {
            let want = if write { "write_only" } else { "read_only" };
            return Err(self.error(
                args[0].loc,
                format!("'{name}' needs a '{want}' pipe, but '{pname}' is not"),
            ));
        }
        let (pr, pt, pprov) = self.rvalue(&args[1])?;
        let Some(p) = pt.pointee().cloned() else {
            return Err(self.error(
                args[1].loc,
                format!("second argument of '{name}' must be a pointer to the packet"),
            ));
        };
        if p.ty != *elem && !matches!(p.ty, Type::Void) {
            let (x, y) = (self.ty_name(&p.ty), self.ty_name(&elem));
            return Err(self.error(
                args[1].loc,
                format!("pointer to '{x}' does not match the pipe packet type '{y}'"),
            ));
        }
        let bytes = self.p.size_of(&elem);
        let kind = if write {
            SiteKind::PipeWrite
        } else {
            SiteKind::PipeRead
        };
        let site = self.new_site(kind, AddrSpace::Global, loc, bytes, pname.clone(), None);
        let status = if blocking { None } else { Some(self.alloc(1)) };
        self.uses_fifos = true;
        let ep = Endpoint::Pipe { arg: reg };
        // A packet in global/local memory moves through a private copy so that the memory side
        // is counted at its own access site (as the hardware has an LSU for it).
        let in_memory = p.space != AddrSpace::Private;
        let prov = pprov.unwrap_or_default();
        let tmp = if in_memory {
            match self.frame_temp(&elem) {
                Val::Mem { addr, .. } => Some(addr),
                _ => None,
            }
        } else {
            None
        };
        if write {
            if let Some(t) = tmp {
                let load_site = self.mem_site(SiteKind::Load, p.space, args[1].loc, bytes, &prov);
                self.emit(Inst::Copy {
                    dst: t,
                    src: pr,
                    bytes,
                    load_site,
                    store_site: None,
                });
            }
            self.emit(Inst::FifoWrite {
                ep,
                src_ptr: tmp.unwrap_or(pr),
                bytes,
                blocking,
                status,
                site,
            });
        } else {
            self.emit(Inst::FifoRead {
                ep,
                dst_ptr: tmp.unwrap_or(pr),
                bytes,
                blocking,
                status,
                site,
            });
            if let Some(t) = tmp {
                let store_site = self.mem_site(SiteKind::Store, p.space, args[1].loc, bytes, &prov);
                let copy = Inst::Copy {
                    dst: pr,
                    src: t,
                    bytes,
                    load_site: None,
                    store_site,
                };
                match status {
                    // A failed non-blocking read leaves the destination alone.
                    Some(st) => {
                        let copy_b = self.new_block();
                        let join = self.new_block();
                        self.terminate(Terminator::Branch {
                            cond: st,
                            then: copy_b,
                            els: join,
                        });
                        self.switch_to(copy_b);
                        self.emit(copy);
                        self.jump(join);
                        self.switch_to(join);
                    }
                    None => self.emit(copy),
                }
            }
        }
        // read_pipe/write_pipe return 0 on success and a negative value on failure.
        let zero = self.const_i32(0);
        let Some(st) = status else {
            return Ok(Val::R {
                reg: zero,
                ty: Type::int(),
                prov: None,
            });
        };
        let neg = self.const_i32(-1);
        let dst = self.alloc(1);
        self.emit(Inst::Select {
            ty: ValTy::scalar(Scalar::I32),
            dst,
            cond: st,
            a: zero,
            b: neg,
        });
        let _ = Prov::default();
        Ok(Val::R {
            reg: dst,
            ty: Type::int(),
            prov: None,
        })
    }
}
