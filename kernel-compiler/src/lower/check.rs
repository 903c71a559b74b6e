//! Type checking of helper functions that no kernel calls: they are lowered on their own (with
//! their parameters as fresh variables) so that their errors are reported as a C compiler would,
//! and the code is thrown away.

use super::func::{FnLower, InlineCtx, Prov, Val};
use super::Program;
use crate::ast::{Derived, FunctionDef};
use crate::ir::AddrSpace;
use crate::sema::types::Type;

/// Lowers `fd` standalone for its diagnostics; the module is left as it was.
pub(crate) fn check_helper<'a>(p: &mut Program<'a>, fd: &'a FunctionDef) {
    let sites = p.module.sites.len();
    let data = p.module.constant_data.len();
    let strings = p.module.strings.len();
    {
        let mut fl = FnLower::new(p, u32::MAX);
        fl.is_kernel_scope = false;
        fl.addr_taken = super::addr_taken(&fd.body);
        fl.loc = fd.loc;
        let _ = bind_and_lower(&mut fl, fd);
    }
    p.module.sites.truncate(sites);
    p.module.constant_data.truncate(data);
    p.module.strings.truncate(strings);
}

fn bind_and_lower<'a>(fl: &mut FnLower<'_, 'a>, fd: &'a FunctionDef) -> super::LResult<()> {
    let Some(Derived::Function { params, .. }) = fd.decl.derived.last() else {
        return Ok(());
    };
    let ret_ty = {
        let base = fl.p.spec_type(&fd.spec)?;
        let mut d = fd.decl.clone();
        d.derived.pop();
        fl.p.declarator_type(base, &fd.spec, &d, None)?.0
    };
    fl.push_scope();
    for prm in params {
        let base = fl.p.spec_type(&prm.spec)?;
        let (mut t, _) = fl.p.declarator_type(base, &prm.spec, &prm.decl, Some(1))?;
        if let Type::Array(el, _) = t {
            t = Type::ptr(
                *el,
                prm.spec
                    .addr
                    .map(super::space_of)
                    .unwrap_or(AddrSpace::Private),
            );
        }
        let Some(name) = prm.decl.name.clone() else {
            continue;
        };
        let v = if t.valty().is_some() && !fl.needs_memory(&name, &t) {
            let reg = fl.alloc_ty(&t);
            Val::RegVar {
                reg,
                ty: t,
                is_const: prm.spec.quals.is_const,
                name: name.clone(),
                prov: None,
            }
        } else {
            match fl.frame_temp(&t) {
                Val::Mem {
                    addr, ty, space, ..
                } => Val::Mem {
                    addr,
                    ty,
                    space,
                    is_const: false,
                    prov: Prov {
                        target: name.clone(),
                        arg: None,
                    },
                },
                other => other,
            }
        };
        fl.declare(&name, v);
    }
    let ret_block = fl.new_block();
    let ret = match &ret_ty {
        Type::Void => None,
        Type::Record(_) => Some(fl.frame_temp(&ret_ty)),
        t => Some(Val::R {
            reg: fl.alloc_ty(t),
            ty: t.clone(),
            prov: None,
        }),
    };
    fl.inlines.push(InlineCtx {
        name: fd.decl.name.clone().unwrap_or_default(),
        ret_block,
        ret,
        ret_ty,
    });
    fl.func_stack.push(fd);
    fl.block_stmts(&fd.body.stmts);
    fl.pop_scope();
    Ok(())
}
