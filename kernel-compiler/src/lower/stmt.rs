//! Statements, local declarations, loops (with constant trip counts) and helper-function
//! inlining.

use super::func::{FnLower, InlineCtx, JumpCtx, Prov, SwitchCtx, Val};
use super::init::{self, Leaf};
use super::LResult;
use crate::ast::*;
use crate::ir::*;
use crate::sema::consteval::CVal;
use crate::sema::types::Type;
use crate::source::Loc;

impl<'p, 'a> FnLower<'p, 'a> {
    pub fn block_stmts(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            self.stmt(s);
        }
    }

    pub fn stmt(&mut self, s: &Stmt) {
        self.loc = s.loc;
        let _ = self.stmt_inner(s);
    }

    fn stmt_inner(&mut self, s: &Stmt) -> LResult<()> {
        match &s.kind {
            StmtKind::Empty => {}
            StmtKind::Expr(e) => {
                self.expr_discard(e)?;
            }
            StmtKind::Decl(d) => self.local_decl(d)?,
            StmtKind::Block(b) => {
                self.push_scope();
                self.block_stmts(&b.stmts);
                self.pop_scope();
            }
            StmtKind::If { cond, then, els } => {
                let c = self.cond(cond)?;
                let tb = self.new_block();
                let join = self.new_block();
                let eb = if els.is_some() { self.new_block() } else { join };
                self.terminate(Terminator::Branch {
                    cond: c,
                    then: tb,
                    els: eb,
                });
                self.switch_to(tb);
                self.scoped(then);
                self.jump(join);
                if let Some(e) = els {
                    self.switch_to(eb);
                    self.scoped(e);
                    self.jump(join);
                }
                self.switch_to(join);
            }
            StmtKind::While { cond, body, pragmas } => {
                let (_, header) = self.open_loop(LoopKind::While, s.loc, pragmas.clone(), None);
                self.jump(header);
                self.switch_to(header);
                let body_b = self.new_block();
                let exit = self.exit_block();
                let c = self.cond(cond);
                let c = match c {
                    Ok(c) => c,
                    Err(e) => {
                        self.close_loop();
                        return Err(e);
                    }
                };
                self.terminate(Terminator::Branch {
                    cond: c,
                    then: body_b,
                    els: exit,
                });
                self.switch_to(body_b);
                self.jumps.push(JumpCtx {
                    brk: exit,
                    cont: Some(header),
                });
                self.scoped(body);
                self.jumps.pop();
                self.jump(header);
                self.close_loop();
                self.switch_to(exit);
            }
            StmtKind::DoWhile { body, cond, pragmas } => {
                let (_, header) = self.open_loop(LoopKind::DoWhile, s.loc, pragmas.clone(), None);
                self.jump(header);
                self.switch_to(header);
                let cond_b = self.new_block();
                let exit = self.exit_block();
                self.jumps.push(JumpCtx {
                    brk: exit,
                    cont: Some(cond_b),
                });
                self.scoped(body);
                self.jumps.pop();
                self.jump(cond_b);
                self.switch_to(cond_b);
                self.loc = cond.loc;
                let c = self.cond(cond);
                if let Ok(c) = c {
                    self.terminate(Terminator::Branch {
                        cond: c,
                        then: header,
                        els: exit,
                    });
                }
                self.close_loop();
                self.switch_to(exit);
                c?;
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
                pragmas,
            } => {
                self.push_scope();
                let r = self.for_loop(s.loc, init.as_deref(), cond.as_ref(), step.as_ref(), body, pragmas);
                self.pop_scope();
                r?;
            }
            StmtKind::Switch { value, body } => self.switch_stmt(value, body)?,
            StmtKind::Case(e) => {
                let Some(sw) = self.switches.last() else {
                    return Err(self.error(s.loc, "'case' statement not in switch statement"));
                };
                let sty = sw.ty.clone();
                let Some(v) = self.p.const_eval(e) else {
                    return Err(self.error(e.loc, "expression is not an integer constant expression"));
                };
                if v.scalar().is_float() {
                    return Err(self.error(e.loc, "case label does not reduce to an integer constant"));
                }
                let s_ty = sty.elem().unwrap_or(Scalar::I32);
                let bits = v.cast(s_ty).slot_bits();
                let b = self.new_block();
                self.jump(b);
                self.switch_to(b);
                let sw = self.switches.last_mut().expect("checked above");
                if sw.cases.iter().any(|c| c.0 == bits) {
                    let shown = v.cast(s_ty).as_i128();
                    return Err(self.error(e.loc, format!("duplicate case value '{shown}'")));
                }
                sw.cases.push((bits, b));
            }
            StmtKind::Default => {
                if self.switches.is_empty() {
                    return Err(self.error(s.loc, "'default' statement not in switch statement"));
                }
                let b = self.new_block();
                self.jump(b);
                self.switch_to(b);
                let sw = self.switches.last_mut().expect("checked above");
                if sw.default.is_some() {
                    return Err(self.error(s.loc, "multiple default labels in one switch"));
                }
                sw.default = Some(b);
            }
            StmtKind::Break => match self.jumps.last() {
                Some(j) => {
                    let t = j.brk;
                    self.jump(t);
                    self.start_dead_block();
                }
                None => return Err(self.error(s.loc, "'break' statement not in loop or switch statement")),
            },
            StmtKind::Continue => match self.jumps.iter().rev().find_map(|j| j.cont) {
                Some(t) => {
                    self.jump(t);
                    self.start_dead_block();
                }
                None => return Err(self.error(s.loc, "'continue' statement not in loop statement")),
            },
            StmtKind::Return(e) => self.return_stmt(e.as_ref(), s.loc)?,
            StmtKind::Goto(label) => {
                return Err(self.error(
                    s.loc,
                    format!("'goto {label}' is not supported: OpenCL kernels for FPGAs need structured control flow (use loops with 'break'/'continue')"),
                ))
            }
            StmtKind::Label(l) => {
                self.warn(s.loc, format!("label '{l}' is ignored ('goto' is not supported)"));
            }
        }
        Ok(())
    }

    /// Evaluates an expression for its side effects only (`i++` as a statement needs no copy
    /// of the old value).
    pub fn expr_discard(&mut self, e: &Expr) -> LResult<()> {
        match &e.kind {
            ExprKind::Unary(op @ (UnaryOp::PostInc | UnaryOp::PostDec), a) => {
                let pre = if *op == UnaryOp::PostInc {
                    UnaryOp::PreInc
                } else {
                    UnaryOp::PreDec
                };
                let e2 = Expr {
                    kind: ExprKind::Unary(pre, a.clone()),
                    loc: e.loc,
                };
                self.expr(&e2)?;
            }
            ExprKind::Comma(a, b) => {
                self.expr_discard(a)?;
                self.expr_discard(b)?;
            }
            _ => {
                self.expr(e)?;
            }
        }
        Ok(())
    }

    /// A block for the code after a loop (belongs to the enclosing loop).
    fn exit_block(&mut self) -> BlockId {
        let inner = self.loop_stack.pop();
        let b = self.new_block();
        if let Some(i) = inner {
            self.loop_stack.push(i);
        }
        b
    }

    fn scoped(&mut self, s: &Stmt) {
        self.push_scope();
        self.stmt(s);
        self.pop_scope();
    }

    fn for_loop(
        &mut self,
        loc: Loc,
        init: Option<&Stmt>,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
        pragmas: &LoopPragmas,
    ) -> LResult<()> {
        if let Some(i) = init {
            self.stmt(i);
        }
        let trip = self.trip_count(init, cond, step, body);
        let (_, header) = self.open_loop(LoopKind::For, loc, pragmas.clone(), trip);
        self.jump(header);
        self.switch_to(header);
        let body_b = self.new_block();
        let latch = self.new_block();
        let exit = self.exit_block();
        match cond {
            Some(c) => {
                self.loc = c.loc;
                match self.cond(c) {
                    Ok(r) => self.terminate(Terminator::Branch {
                        cond: r,
                        then: body_b,
                        els: exit,
                    }),
                    Err(_) => self.jump(body_b),
                }
            }
            None => self.jump(body_b),
        }
        self.switch_to(body_b);
        self.jumps.push(JumpCtx {
            brk: exit,
            cont: Some(latch),
        });
        self.scoped(body);
        self.jumps.pop();
        self.jump(latch);
        self.switch_to(latch);
        if let Some(st) = step {
            self.loc = st.loc;
            let _ = self.expr_discard(st);
        }
        self.jump(header);
        self.close_loop();
        self.switch_to(exit);
        Ok(())
    }

    fn switch_stmt(&mut self, value: &Expr, body: &Stmt) -> LResult<()> {
        let (r, t, _) = self.rvalue(value)?;
        if !(t.is_scalar() && t.is_integer()) {
            let n = self.ty_name(&t);
            return Err(self.error(
                value.loc,
                format!("statement requires expression of integer type ('{n}' invalid)"),
            ));
        }
        let pt = Type::Scalar(crate::sema::types::promote(t.elem().unwrap_or(Scalar::I32)));
        let r = self.convert(r, &t, &pt, value.loc)?;
        let dispatch = self.cur_block();
        let exit = self.new_block();
        self.switches.push(SwitchCtx {
            cases: vec![],
            default: None,
            ty: pt,
        });
        self.jumps.push(JumpCtx {
            brk: exit,
            cont: None,
        });
        // Code before the first label is unreachable.
        self.terminated[dispatch.0 as usize] = true;
        self.start_dead_block();
        self.scoped(body);
        self.jumps.pop();
        self.jump(exit);
        let sw = self.switches.pop().expect("pushed above");
        let d = dispatch.0 as usize;
        self.blocks[d].term = Terminator::Switch {
            value: r,
            cases: sw.cases,
            default: sw.default.unwrap_or(exit),
        };
        self.blocks[d].term_loc = value.loc;
        self.switch_to(exit);
        Ok(())
    }

    fn return_stmt(&mut self, e: Option<&Expr>, loc: Loc) -> LResult<()> {
        let Some(ctx) = self.inlines.last() else {
            if let Some(e) = e {
                let v = self.expr(e)?;
                if !matches!(v.ty(), Type::Void) {
                    return Err(self.error(e.loc, "void function should not return a value"));
                }
            }
            self.terminate(Terminator::Return);
            self.start_dead_block();
            return Ok(());
        };
        let ret_ty = ctx.ret_ty.clone();
        let ret = ctx.ret.clone();
        let ret_block = ctx.ret_block;
        let fname = ctx.name.clone();
        match (e, &ret) {
            (None, None) => {}
            (Some(e), None) => {
                let v = self.expr(e)?;
                if !matches!(v.ty(), Type::Void) {
                    return Err(self.error(
                        e.loc,
                        format!("void function '{fname}' should not return a value"),
                    ));
                }
            }
            (None, Some(_)) => {
                return Err(self.error(
                    loc,
                    format!("non-void function '{fname}' should return a value"),
                ));
            }
            (Some(e), Some(target)) => {
                if let Type::Record(_) = ret_ty {
                    let v = self.expr(e)?;
                    self.copy_aggregate(target, &v, e.loc)?;
                } else {
                    let (r, t, _) = self.rvalue(e)?;
                    let c = self.convert_implicit(r, &t, &ret_ty, e, "returning")?;
                    if let Val::R { reg, .. } = target {
                        let lanes = ret_ty.valty().map_or(1, |v| v.lanes);
                        self.emit(Inst::Mov {
                            dst: *reg,
                            src: c,
                            lanes,
                        });
                    }
                }
            }
        }
        self.jump(ret_block);
        self.start_dead_block();
        Ok(())
    }

    /// Inlines a call of a helper function.
    pub fn call_user(&mut self, fd: &'a FunctionDef, args: &[Expr], loc: Loc) -> LResult<Val> {
        let name = fd.decl.name.clone().unwrap_or_default();
        if self.func_stack.iter().any(|f| std::ptr::eq(*f, fd)) {
            // Reported once by the recursion check.
            return Err(super::Reported);
        }
        if self.inst_count > MAX_KERNEL_INSTS {
            return Err(self.error(
                loc,
                format!("kernel is too large after inlining '{name}' (more than {MAX_KERNEL_INSTS} instructions)"),
            ));
        }
        if self.func_stack.len() > 64 {
            return Err(self.error(loc, "function calls nested too deeply"));
        }
        if fd.spec.is_kernel {
            self.warn(
                loc,
                format!("calling kernel '{name}' from a kernel: it is inlined as a function"),
            );
        }
        let Some(Derived::Function { params, variadic }) = fd.decl.derived.last() else {
            return Err(self.error(loc, format!("'{name}' is not a function")));
        };
        if *variadic {
            return Err(self.error(
                fd.decl.loc,
                "variadic functions are not supported in OpenCL C",
            ));
        }
        if args.len() != params.len() {
            let which = if args.len() < params.len() {
                "few"
            } else {
                "many"
            };
            return Err(self.error(
                loc,
                format!(
                    "too {which} arguments to function call, expected {}, have {}",
                    params.len(),
                    args.len()
                ),
            ));
        }
        let ret_ty = {
            let base = self.p.spec_type(&fd.spec)?;
            let mut d = fd.decl.clone();
            d.derived.pop();
            self.p.declarator_type(base, &fd.spec, &d, None)?.0
        };
        // Evaluate arguments in the caller's scope.
        let mut bound: Vec<(String, Val, bool)> = vec![];
        for (prm, a) in params.iter().zip(args) {
            let base = self.p.spec_type(&prm.spec)?;
            let (mut pty, _) = self
                .p
                .declarator_type(base, &prm.spec, &prm.decl, Some(1))?;
            if let Type::Array(el, _) = pty {
                pty = Type::ptr(
                    *el,
                    prm.spec
                        .addr
                        .map(super::space_of)
                        .unwrap_or(AddrSpace::Private),
                );
            }
            let pname = prm.decl.name.clone().unwrap_or_default();
            if let Type::Record(_) = pty {
                let v = self.expr(a)?;
                if v.ty() != pty {
                    let (x, y) = (self.ty_name(&v.ty()), self.ty_name(&pty));
                    return Err(self.error(
                        a.loc,
                        format!("passing '{x}' to parameter of incompatible type '{y}'"),
                    ));
                }
                let tmp = self.frame_temp(&pty);
                self.copy_aggregate(&tmp, &v, a.loc)?;
                bound.push((pname, tmp, false));
                continue;
            }
            let (r, t, prov) = self.rvalue(a)?;
            let c = self.convert_implicit(r, &t, &pty, a, "passing")?;
            let lanes = pty.valty().map_or(1, |v| v.lanes);
            let home = self.alloc(lanes);
            self.emit(Inst::Mov {
                dst: home,
                src: c,
                lanes,
            });
            bound.push((
                pname,
                Val::RegVar {
                    reg: home,
                    ty: pty,
                    is_const: false,
                    name: String::new(),
                    prov: if t.is_pointer() { prov } else { None },
                },
                true,
            ));
        }
        let ret_block = self.new_block();
        let ret = match &ret_ty {
            Type::Void => None,
            Type::Record(_) => Some(self.frame_temp(&ret_ty)),
            t => Some(Val::R {
                reg: self.alloc_ty(t),
                ty: t.clone(),
                prov: None,
            }),
        };
        let saved_scopes = std::mem::replace(&mut self.scopes, vec![Default::default()]);
        let saved_jumps = std::mem::take(&mut self.jumps);
        let saved_switches = std::mem::take(&mut self.switches);
        let callee_taken = super::addr_taken(&fd.body);
        let saved_taken = std::mem::replace(&mut self.addr_taken, callee_taken);
        let saved_kscope = std::mem::replace(&mut self.is_kernel_scope, false);
        self.p.push_tscope();
        for (pname, v, in_reg) in bound {
            if pname.is_empty() {
                continue;
            }
            if in_reg && self.needs_memory(&pname, &v.ty()) {
                // Address-taken parameter: move it to the frame.
                let t = v.ty();
                let tmp = self.frame_temp(&t);
                let (r, _, _) = self.load(v, loc)?;
                self.store_to(&tmp, r, loc)?;
                self.declare(&pname, tmp);
            } else {
                let v = match v {
                    Val::RegVar { reg, ty, prov, .. } => {
                        if let Some(vt) = ty.valty() {
                            self.reg_names.push((reg, vt, pname.clone()));
                        }
                        Val::RegVar {
                            reg,
                            ty,
                            is_const: false,
                            name: pname.clone(),
                            prov,
                        }
                    }
                    other => other,
                };
                self.declare(&pname, v);
            }
        }
        self.inlines.push(InlineCtx {
            name: name.clone(),
            ret_block,
            ret: ret.clone(),
            ret_ty: ret_ty.clone(),
        });
        self.func_stack.push(fd);
        self.push_scope();
        self.block_stmts(&fd.body.stmts);
        self.pop_scope();
        self.func_stack.pop();
        self.inlines.pop();
        self.loc = fd.body.end;
        if !self.is_terminated() && ret.is_some() && !self.blocks[self.cur].insts.is_empty() {
            // Falling off the end of a non-void function: the value is undefined (C allows it).
        }
        self.jump(ret_block);
        self.p.pop_tscope();
        self.scopes = saved_scopes;
        self.jumps = saved_jumps;
        self.switches = saved_switches;
        self.addr_taken = saved_taken;
        self.is_kernel_scope = saved_kscope;
        self.switch_to(ret_block);
        self.loc = loc;
        Ok(ret.unwrap_or(Val::Void))
    }

    /// A private temporary object of type `t` in the frame.
    pub fn frame_temp(&mut self, t: &Type) -> Val {
        let size = self.p.size_of(t);
        let align = self.p.align_of(t);
        let off = self.alloc_frame(size, align);
        self.last_frame_offset = Some(off);
        let addr = self.alloc(1);
        self.emit(Inst::FrameAddr {
            dst: addr,
            offset: off,
        });
        Val::Mem {
            addr,
            ty: t.clone(),
            space: AddrSpace::Private,
            is_const: false,
            prov: Prov::default(),
        }
    }

    /// Copies an aggregate value into an aggregate lvalue (`Copy` with sites on both sides).
    pub fn copy_aggregate(&mut self, dst: &Val, src: &Val, loc: Loc) -> LResult<()> {
        let (
            Val::Mem {
                addr: da,
                ty: dt,
                space: ds,
                prov: dp,
                ..
            },
            Val::Mem {
                addr: sa,
                ty: st,
                space: ss,
                prov: sp,
                ..
            },
        ) = (dst, src)
        else {
            return Err(self.error(loc, "invalid aggregate copy"));
        };
        if dt != st {
            let (x, y) = (self.ty_name(st), self.ty_name(dt));
            return Err(self.error(
                loc,
                format!("assigning to '{y}' from incompatible type '{x}'"),
            ));
        }
        let bytes = self.p.size_of(dt);
        let load_site = self.mem_site(SiteKind::Load, *ss, loc, bytes, &sp.clone());
        let store_site = self.mem_site(SiteKind::Store, *ds, loc, bytes, &dp.clone());
        self.emit(Inst::Copy {
            dst: *da,
            src: *sa,
            bytes,
            load_site,
            store_site,
        });
        Ok(())
    }

    fn local_decl(&mut self, d: &Declaration) -> LResult<()> {
        let r = self.local_decl_inner(d);
        if r.is_err() {
            // A declaration with an error: its uses are not reported as undeclared.
            for id in &d.decls {
                if let Some(n) = &id.decl.name {
                    if d.spec.storage == Storage::Typedef {
                        self.p.poisoned_types.insert(n.clone());
                    } else if self.lookup(n).is_none() {
                        self.poisoned.insert(n.clone());
                    }
                }
            }
        }
        r
    }

    fn local_decl_inner(&mut self, d: &Declaration) -> LResult<()> {
        let base = self.p.spec_type(&d.spec)?;
        if d.spec.is_channel {
            return Err(self.error(d.loc, "channels must be declared at program scope"));
        }
        for id in &d.decls {
            let decl = &id.decl;
            let Some(name) = decl.name.clone() else {
                continue;
            };
            self.loc = decl.loc;
            if matches!(decl.derived.last(), Some(Derived::Function { .. })) {
                self.p.protos.insert(name);
                continue;
            }
            if d.spec.storage == Storage::Typedef {
                let (t, _) = self.p.declarator_type(base.clone(), &d.spec, decl, None)?;
                self.p.declare_typedef(&name, t);
                continue;
            }
            // A second variable of one name in one block (C: "redefinition of").
            if self.scopes.last().is_some_and(|sc| sc.contains_key(&name)) {
                return Err(self.error(decl.loc, format!("redefinition of '{name}'")));
            }
            let init_len = id.init.as_ref().and_then(init::init_len);
            let (t, space) = self
                .p
                .declarator_type(base.clone(), &d.spec, decl, init_len)?;
            if matches!(t, Type::Void) {
                return Err(self.error(
                    decl.loc,
                    format!("variable '{name}' has incomplete type 'void'"),
                ));
            }
            let bytes = self.p.size_of(&t);
            if bytes > super::MAX_OBJECT {
                return Err(self.error(
                    decl.loc,
                    format!(
                        "variable '{name}' is too large ({bytes} bytes; at most {} are supported)",
                        super::MAX_OBJECT
                    ),
                ));
            }
            if matches!(t, Type::Array(_, 0)) {
                return Err(self.error(decl.loc, format!("definition of variable '{name}' with array type needs an explicit size or an initializer")));
            }
            if let Type::Record(r) = &t {
                if !self.p.recs.get(*r).is_some_and(|x| x.complete) {
                    let n = self.ty_name(&t);
                    return Err(self.error(
                        decl.loc,
                        format!("variable '{name}' has incomplete type '{n}'"),
                    ));
                }
            }
            let va = self.p.var_attrs_of(decl, &name);
            let is_const = super::Program::object_is_const(&d.spec, decl);
            match space {
                Some(AddrSpace::Local) => {
                    if id.init.is_some() {
                        return Err(self.error(
                            decl.loc,
                            format!("'__local' variable '{name}' cannot have an initializer"),
                        ));
                    }
                    let size = self.p.size_of(&t);
                    let align = self.p.align_of(&t);
                    let off = self.alloc_local(size, align);
                    self.record_mem_var(&name, AddrSpace::Local, off, &t, decl.loc, &va);
                    let addr = self.alloc(1);
                    self.emit(Inst::LocalAddr {
                        dst: addr,
                        offset: off,
                    });
                    self.declare(
                        &name,
                        Val::Mem {
                            addr,
                            ty: t,
                            space: AddrSpace::Local,
                            is_const,
                            prov: Prov {
                                target: name.clone(),
                                arg: None,
                            },
                        },
                    );
                }
                Some(AddrSpace::Constant) => {
                    let Some(init) = &id.init else {
                        return Err(self.error(decl.loc, format!("variable '{name}' in the __constant address space must be initialized")));
                    };
                    let Some(offset) = self.p.constant_data_pub(&t, init) else {
                        return Err(super::Reported);
                    };
                    let addr = self.alloc(1);
                    self.emit(Inst::ConstAddr { dst: addr, offset });
                    self.declare(
                        &name,
                        Val::Mem {
                            addr,
                            ty: t,
                            space: AddrSpace::Constant,
                            is_const: true,
                            prov: Prov {
                                target: name.clone(),
                                arg: None,
                            },
                        },
                    );
                }
                Some(AddrSpace::Global) => {
                    return Err(self.error(decl.loc, format!("function scope variable '{name}' cannot be declared in the __global address space")));
                }
                _ => {
                    if d.spec.storage == Storage::Static {
                        return Err(self.error(decl.loc, format!("variable '{name}' in function scope cannot be declared static (only __constant data is allowed)")));
                    }
                    if self.needs_memory(&name, &t) {
                        let v = self.frame_temp(&t);
                        if let Some(off) = self.last_frame_offset {
                            self.record_mem_var(&name, AddrSpace::Private, off, &t, decl.loc, &va);
                        }
                        let v = match v {
                            Val::Mem {
                                addr, ty, space, ..
                            } => Val::Mem {
                                addr,
                                ty,
                                space,
                                is_const,
                                prov: Prov {
                                    target: name.clone(),
                                    arg: None,
                                },
                            },
                            other => other,
                        };
                        if let Some(init) = &id.init {
                            self.init_object(&v, init)?;
                        }
                        self.declare(&name, v);
                    } else {
                        let Some(vt) = t.valty() else {
                            let n = self.ty_name(&t);
                            return Err(self.error(
                                decl.loc,
                                format!("variable '{name}' has unsupported type '{n}'"),
                            ));
                        };
                        let reg = self.alloc(vt.lanes);
                        // In scope (and declared even if its initializer has errors).
                        self.declare_reg_var(&name, reg, &t, is_const, None, vt);
                        let mut prov = None;
                        if let Some(init) = &id.init {
                            let e = match init {
                                Init::Expr(e) => e,
                                Init::List(items, l) => match items.as_slice() {
                                    [(_, Init::Expr(e))] if !t.is_vector() => e,
                                    _ => {
                                        // Vector brace initializers go through memory-free lanes.
                                        let r = self.vector_brace_init(&t, init, *l)?;
                                        self.emit(Inst::Mov {
                                            dst: reg,
                                            src: r,
                                            lanes: vt.lanes,
                                        });
                                        continue;
                                    }
                                },
                            };
                            let (r, et, pv) = self.rvalue(e)?;
                            let c = self.convert_implicit(r, &et, &t, e, "initializing")?;
                            self.emit(Inst::Mov {
                                dst: reg,
                                src: c,
                                lanes: vt.lanes,
                            });
                            prov = pv;
                            if is_const && t.is_scalar() {
                                if let Some(cv) = self.p.const_eval(e) {
                                    // Constant locals fold in array sizes and loop trip counts.
                                    if let Some(s) = t.elem() {
                                        self.p
                                            .tscopes
                                            .last_mut()
                                            .map(|sc| sc.enums.insert(name.clone(), cv.cast(s)));
                                    }
                                }
                            }
                        }
                        if prov.is_some() {
                            self.declare(
                                &name,
                                Val::RegVar {
                                    reg,
                                    ty: t.clone(),
                                    is_const,
                                    name: name.clone(),
                                    prov,
                                },
                            );
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn declare_reg_var(
        &mut self,
        name: &str,
        reg: Reg,
        t: &Type,
        is_const: bool,
        prov: Option<Prov>,
        vt: ValTy,
    ) {
        self.reg_names.push((reg, vt, name.to_string()));
        self.declare(
            name,
            Val::RegVar {
                reg,
                ty: t.clone(),
                is_const,
                name: name.to_string(),
                prov,
            },
        );
    }

    /// `float4 v = {1, 2, 3, 4}` in registers.
    fn vector_brace_init(&mut self, t: &Type, init: &Init, loc: Loc) -> LResult<Reg> {
        let Type::Vector(s, n) = t else {
            return Err(self.error(loc, "braces around scalar initializer"));
        };
        let Init::List(items, _) = init else {
            return Err(self.error(loc, "invalid vector initializer"));
        };
        let dst = self.alloc(*n);
        let z = self.zero_of(ValTy::vector(*s, *n));
        self.emit(Inst::Mov {
            dst,
            src: z,
            lanes: *n,
        });
        let mut lane = 0u8;
        for (_, it) in items {
            let Init::Expr(e) = it else {
                return Err(self.error(it.loc(), "nested braces in a vector initializer"));
            };
            let (r, et, _) = self.rvalue(e)?;
            let k = et.lanes();
            if lane as u32 + k as u32 > *n as u32 {
                return Err(self.error(e.loc, "excess elements in vector initializer"));
            }
            let target = et.with_elem(*s);
            let c = self.convert(r, &et, &target, e.loc)?;
            self.emit(Inst::Mov {
                dst: dst.lane(lane as u32),
                src: c,
                lanes: k,
            });
            lane += k;
        }
        Ok(dst)
    }

    /// Initializes an object in memory from an initializer.
    pub fn init_object(&mut self, obj: &Val, init: &Init) -> LResult<()> {
        let Val::Mem {
            addr, ty, space, ..
        } = obj.clone()
        else {
            return Err(self.error(init.loc(), "invalid initializer target"));
        };
        if let Init::Expr(e) = init {
            if !matches!((&ty, &e.kind), (Type::Array(..), ExprKind::Str(_))) {
                if ty.is_aggregate() {
                    let v = self.expr(e)?;
                    return self.copy_aggregate(obj, &v, e.loc);
                }
                let (r, et, _) = self.rvalue(e)?;
                let c = self.convert_implicit(r, &et, &ty, e, "initializing")?;
                return self.store_to(obj, c, e.loc);
            }
        }
        let mut leaves: Vec<Leaf> = vec![];
        init::flatten(self.p, &ty, 0, init, &mut leaves)?;
        let size = self.p.size_of(&ty);
        let mut image = vec![0u8; size as usize];
        let mut runtime = vec![];
        for leaf in leaves {
            let ok = !self.expr_has_side_effects_or_vars(&leaf.expr)
                && self
                    .p
                    .const_leaf_bytes(&leaf.ty, &leaf.expr, &mut image, leaf.offset);
            if !ok {
                runtime.push(leaf);
            }
        }
        // The constant part (zeros included) comes from the module's constant data.
        let data = &mut self.p.module.constant_data;
        let align = 16usize;
        let off = data.len().div_ceil(align) * align;
        data.resize(off, 0);
        data.extend_from_slice(&image);
        let src = self.alloc(1);
        self.emit(Inst::ConstAddr {
            dst: src,
            offset: off as u32,
        });
        self.emit(Inst::Copy {
            dst: addr,
            src,
            bytes: size,
            load_site: None,
            store_site: None,
        });
        for leaf in runtime {
            let a = self.ptr_disp(addr, leaf.offset as i64);
            let part = Val::Mem {
                addr: a,
                ty: leaf.ty.clone(),
                space,
                is_const: false,
                prov: Prov::default(),
            };
            let e = &leaf.expr;
            if leaf.ty.is_aggregate() {
                let v = self.expr(e)?;
                self.copy_aggregate(&part, &v, e.loc)?;
            } else {
                let (r, et, _) = self.rvalue(e)?;
                let c = self.convert_implicit(r, &et, &leaf.ty, e, "initializing")?;
                self.store_to(&part, c, e.loc)?;
            }
        }
        Ok(())
    }

    /// Whether an initializer element must be evaluated at run time (refers to variables).
    fn expr_has_side_effects_or_vars(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Ident(n) => self.lookup(n).is_some(),
            ExprKind::Call(..) | ExprKind::Assign(..) => true,
            ExprKind::Unary(_, a) | ExprKind::Cast(_, a) | ExprKind::Member(a, _, _) => {
                self.expr_has_side_effects_or_vars(a)
            }
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) | ExprKind::Comma(a, b) => {
                self.expr_has_side_effects_or_vars(a) || self.expr_has_side_effects_or_vars(b)
            }
            ExprKind::Cond(a, b, c) => {
                self.expr_has_side_effects_or_vars(a)
                    || self.expr_has_side_effects_or_vars(b)
                    || self.expr_has_side_effects_or_vars(c)
            }
            ExprKind::VecLit(_, items) => {
                items.iter().any(|i| self.expr_has_side_effects_or_vars(i))
            }
            _ => false,
        }
    }

    /// Trip count of `for (i = a; i < b; i += c)` with constant a, b, c and `i` not written in
    /// the body.
    fn trip_count(
        &mut self,
        init: Option<&Stmt>,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
    ) -> Option<u64> {
        let (var, start) = match &init?.kind {
            StmtKind::Decl(d) if d.decls.len() == 1 => {
                let id = &d.decls[0];
                match &id.init {
                    Some(Init::Expr(e)) => (id.decl.name.clone()?, self.p.const_eval(e)?),
                    _ => return None,
                }
            }
            StmtKind::Expr(Expr {
                kind: ExprKind::Assign(None, l, r),
                ..
            }) => match &l.kind {
                ExprKind::Ident(n) => (n.clone(), self.p.const_eval(r)?),
                _ => return None,
            },
            _ => return None,
        };
        let is_var = |e: &Expr| matches!(&e.kind, ExprKind::Ident(n) if *n == var);
        let (op, end) = match &cond?.kind {
            ExprKind::Binary(op, a, b) if is_var(a) => (*op, self.p.const_eval(b)?),
            ExprKind::Binary(op, a, b) if is_var(b) => {
                let flipped = match op {
                    BinaryOp::Lt => BinaryOp::Gt,
                    BinaryOp::Gt => BinaryOp::Lt,
                    BinaryOp::Le => BinaryOp::Ge,
                    BinaryOp::Ge => BinaryOp::Le,
                    o => *o,
                };
                (flipped, self.p.const_eval(a)?)
            }
            _ => return None,
        };
        let inc: i128 = match &step?.kind {
            ExprKind::Unary(UnaryOp::PostInc | UnaryOp::PreInc, a) if is_var(a) => 1,
            ExprKind::Unary(UnaryOp::PostDec | UnaryOp::PreDec, a) if is_var(a) => -1,
            ExprKind::Assign(Some(BinaryOp::Add), a, b) if is_var(a) => {
                self.p.const_eval(b)?.as_i128()
            }
            ExprKind::Assign(Some(BinaryOp::Sub), a, b) if is_var(a) => {
                -self.p.const_eval(b)?.as_i128()
            }
            ExprKind::Assign(None, a, b) if is_var(a) => match &b.kind {
                ExprKind::Binary(BinaryOp::Add, x, y) if is_var(x) => {
                    self.p.const_eval(y)?.as_i128()
                }
                ExprKind::Binary(BinaryOp::Sub, x, y) if is_var(x) => {
                    -self.p.const_eval(y)?.as_i128()
                }
                _ => return None,
            },
            _ => return None,
        };
        if writes_var(body, &var) {
            return None;
        }
        let (s, e) = (start.as_i128(), end.as_i128());
        if matches!(start, CVal::Float(..)) || matches!(end, CVal::Float(..)) || inc == 0 {
            return None;
        }
        let n = match op {
            BinaryOp::Lt if inc > 0 => ceil_div((e - s).max(0), inc),
            BinaryOp::Le if inc > 0 => ceil_div((e - s + 1).max(0), inc),
            BinaryOp::Gt if inc < 0 => ceil_div((s - e).max(0), -inc),
            BinaryOp::Ge if inc < 0 => ceil_div((s - e + 1).max(0), -inc),
            BinaryOp::Ne if inc > 0 && e >= s && (e - s) % inc == 0 => (e - s) / inc,
            BinaryOp::Ne if inc < 0 && s >= e && (s - e) % (-inc) == 0 => (s - e) / (-inc),
            _ => return None,
        };
        u64::try_from(n).ok()
    }
}

/// Whether a statement assigns to (or takes the address of) variable `v`.
fn writes_var(s: &Stmt, v: &str) -> bool {
    fn target_is(e: &Expr, v: &str) -> bool {
        matches!(&e.kind, ExprKind::Ident(n) if n == v)
    }
    fn ex(e: &Expr, v: &str) -> bool {
        match &e.kind {
            ExprKind::Assign(_, a, b) => target_is(a, v) || ex(a, v) || ex(b, v),
            ExprKind::Unary(op, a) => {
                (matches!(
                    op,
                    UnaryOp::PreInc
                        | UnaryOp::PreDec
                        | UnaryOp::PostInc
                        | UnaryOp::PostDec
                        | UnaryOp::AddrOf
                ) && target_is(a, v))
                    || ex(a, v)
            }
            ExprKind::Binary(_, a, b) | ExprKind::Comma(a, b) | ExprKind::Index(a, b) => {
                ex(a, v) || ex(b, v)
            }
            ExprKind::Cond(a, b, c) => ex(a, v) || ex(b, v) || ex(c, v),
            ExprKind::Call(_, args) | ExprKind::VecLit(_, args) => args.iter().any(|a| ex(a, v)),
            ExprKind::Member(a, _, _) | ExprKind::Cast(_, a) => ex(a, v),
            _ => false,
        }
    }
    fn init(i: &Init, v: &str) -> bool {
        match i {
            Init::Expr(e) => ex(e, v),
            Init::List(items, _) => items.iter().any(|(_, i)| init(i, v)),
        }
    }
    match &s.kind {
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => ex(e, v),
        StmtKind::Decl(d) => d
            .decls
            .iter()
            .any(|i| i.init.as_ref().is_some_and(|i| init(i, v))),
        StmtKind::Block(b) => b.stmts.iter().any(|s| writes_var(s, v)),
        StmtKind::If { cond, then, els } => {
            ex(cond, v) || writes_var(then, v) || els.as_ref().is_some_and(|e| writes_var(e, v))
        }
        StmtKind::While { cond, body, .. } | StmtKind::DoWhile { cond, body, .. } => {
            ex(cond, v) || writes_var(body, v)
        }
        StmtKind::For {
            init: i,
            cond,
            step,
            body,
            ..
        } => {
            i.as_ref().is_some_and(|i| writes_var(i, v))
                || cond.as_ref().is_some_and(|c| ex(c, v))
                || step.as_ref().is_some_and(|c| ex(c, v))
                || writes_var(body, v)
        }
        StmtKind::Switch { value, body } => ex(value, v) || writes_var(body, v),
        _ => false,
    }
}

/// Upper bound on a kernel's instructions (helper functions are inlined at every call).
const MAX_KERNEL_INSTS: usize = 2_000_000;

fn ceil_div(a: i128, b: i128) -> i128 {
    (a + b - 1) / b
}
