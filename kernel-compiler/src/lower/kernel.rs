//! Kernels: arguments and their metadata, attributes, the single work-item rule.

use super::func::{FnLower, Prov, Val};
use super::{addr_taken, Program};
use crate::ast::*;
use crate::ir::{self, AddrSpace, ArgAccess, ArgAddress, ArgKind, Inst, KernelArg, Terminator};
use crate::sema::types::Type;

/// Largest private frame of a work-item (bytes).
const MAX_FRAME: u32 = 64 << 20;
/// Largest total of a kernel's `__local` variables (bytes).
const MAX_LOCAL: u32 = 256 << 20;

/// Lowers one kernel; `None` when it had errors (already reported).
pub(crate) fn lower_kernel<'a>(
    p: &mut Program<'a>,
    f: &'a FunctionDef,
    index: u32,
) -> Option<ir::Function> {
    let errors_before = p
        .diags
        .list
        .iter()
        .filter(|d| d.severity == crate::diag::Severity::Error)
        .count();
    let name = f.decl.name.clone()?;
    let Some(Derived::Function { params, variadic }) = f.decl.derived.last() else {
        return None;
    };
    if *variadic {
        p.diags
            .error(f.decl.loc, "kernel functions cannot be variadic");
    }
    // Return type: the specifiers plus every declarator step but the function itself.
    let ret_ok = match p.spec_type(&f.spec) {
        Ok(Type::Void) => f.decl.derived.len() == 1,
        _ => false,
    };
    if !ret_ok {
        p.diags.error(
            f.decl.loc,
            format!("kernel function '{name}' must have void return type"),
        );
    }
    let mut all_attrs = f.spec.attrs.clone();
    all_attrs.extend(f.decl.attrs.iter().cloned());
    let attrs = p.kernel_attrs(&all_attrs);
    let attr_loc = |n: &str| {
        all_attrs
            .iter()
            .find(|a| a.name == n)
            .map_or(f.decl.loc, |a| a.loc)
    };
    if attrs.autorun && !params.is_empty() {
        p.diags.error(
            attr_loc("autorun"),
            format!(
                "autorun kernel '{name}' cannot have arguments (it has {})",
                params.len()
            ),
        );
    }
    if let (Some(r), Some(max)) = (attrs.reqd_work_group_size, attrs.max_work_group_size) {
        let total = r.iter().map(|&x| x as u64).product::<u64>();
        if total > max as u64 {
            p.diags.error(
                attr_loc("reqd_work_group_size"),
                format!("reqd_work_group_size({},{},{}) has {total} work-items, more than max_work_group_size({max})", r[0], r[1], r[2]),
            );
        }
    }

    let mut fl = FnLower::new(p, index);
    fl.addr_taken = addr_taken(&f.body);
    fl.func_stack.push(f);
    fl.loc = f.loc;
    let mut args = vec![];
    let mut local_ptr_count = 0;
    for (i, prm) in params.iter().enumerate() {
        if let Some(a) = kernel_arg(&mut fl, prm, i as u32) {
            if matches!(a.kind, ArgKind::LocalPtr { .. }) {
                local_ptr_count += 1;
            }
            args.push(a);
        }
    }
    let _ = local_ptr_count;
    for (write, what) in [(false, "read"), (true, "write")] {
        let n = args
            .iter()
            .filter(|a| matches!(a.kind, ArgKind::Image { write: w, .. } if w == write))
            .count() as u32;
        if n > ir::DEVICE_MAX_IMAGE_ARGS {
            fl.error(
                f.decl.loc,
                format!(
                    "kernel '{name}' has {n} {what} image arguments, more than the device's CL_DEVICE_MAX_{}_IMAGE_ARGS ({})",
                    what.to_ascii_uppercase(),
                    ir::DEVICE_MAX_IMAGE_ARGS
                ),
            );
        }
    }
    fl.push_scope();
    fl.block_stmts(&f.body.stmts);
    fl.pop_scope();
    fl.loc = f.body.end;
    fl.terminate(Terminator::Return);
    let blocks = fl.finish_blocks();
    let single_work_item = match attrs.reqd_work_group_size {
        Some(r) => r == [1, 1, 1],
        None => {
            attrs.task || attrs.max_global_work_dim == Some(0) || (!fl.uses_ids && !fl.uses_barrier)
        }
    };
    if attrs.max_global_work_dim == Some(0) && fl.uses_ids {
        fl.warn(
            f.decl.loc,
            format!("kernel '{name}' has max_global_work_dim(0) but uses work-item id functions"),
        );
    }
    if fl.frame_size > MAX_FRAME {
        fl.error(
            f.decl.loc,
            format!("private memory of kernel '{name}' is {} bytes per work-item (at most {MAX_FRAME} are supported)", fl.frame_size),
        );
    }
    // Work-items of a group with barriers keep their private memory alive together: warn when
    // the default group (the 256 work-items Intel's compiler allows a kernel with barriers and
    // no size attribute) needs more than the emulator keeps. A group given by an attribute is
    // checked at the attribute by `work_group_limit_warnings`.
    let sized = attrs.reqd_work_group_size.is_some() || attrs.max_work_group_size.is_some();
    if fl.uses_barrier && fl.frame_size <= MAX_FRAME && !sized {
        let group: u64 = 256;
        let per_item = (fl.frame_size as u64).div_ceil(8) * 8 + fl.num_slots as u64 * 8;
        let limit = ir::MAX_GROUP_PRIVATE_BYTES;
        if per_item.saturating_mul(group) > limit {
            fl.warn(
                f.decl.loc,
                format!(
                    "private memory of kernel '{name}' is {per_item} bytes per work-item and its \
                     work-items synchronise with barriers: a work-group of {group} work-items \
                     needs {} bytes, over the emulator's {limit}; launches with more than {} \
                     work-items per group fail with CL_OUT_OF_RESOURCES",
                    per_item.saturating_mul(group),
                    limit / per_item.max(1)
                ),
            );
        }
    }
    if fl.local_size > MAX_LOCAL {
        fl.error(
            f.decl.loc,
            format!("__local variables of kernel '{name}' take {} bytes (at most {MAX_LOCAL} are supported)", fl.local_size),
        );
    }
    work_group_limit_warnings(&mut fl, &name, &attrs, attr_loc);
    let func = ir::Function {
        name,
        loc: f.decl.loc,
        args,
        attrs,
        single_work_item,
        num_slots: fl.num_slots.max(1),
        frame_size: fl.frame_size,
        local_size: fl.local_size,
        blocks,
        loops: std::mem::take(&mut fl.loops),
        reg_names: std::mem::take(&mut fl.reg_names),
        uses_fifos: fl.uses_fifos,
        uses_barrier: fl.uses_barrier,
        mem_vars: std::mem::take(&mut fl.mem_vars),
    };
    let errors_after = p
        .diags
        .list
        .iter()
        .filter(|d| d.severity == crate::diag::Severity::Error)
        .count();
    if errors_after > errors_before {
        return None;
    }
    Some(func)
}

/// Warnings for a work-group size the kernel's attributes demand but no launch can have: a
/// `reqd_work_group_size` above the device's `CL_DEVICE_MAX_WORK_GROUP_SIZE` or
/// `CL_DEVICE_MAX_WORK_ITEM_SIZES`, and for a kernel with barriers a required (or maximum)
/// work-group whose private state (all its work-items alive at once across a barrier) exceeds
/// what the emulator keeps for one group. Without those attributes and without a barrier the
/// compiler imposes no work-group size, as Intel's does, so nothing is said.
fn work_group_limit_warnings(
    fl: &mut FnLower,
    name: &str,
    attrs: &ir::KernelAttrs,
    attr_loc: impl Fn(&str) -> crate::source::Loc,
) {
    let dev_max = ir::DEVICE_MAX_WORK_GROUP_SIZE;
    let (group, which) = match (attrs.reqd_work_group_size, attrs.max_work_group_size) {
        (Some(r), _) => {
            let total = r.iter().map(|&x| x as u64).product::<u64>();
            let loc = attr_loc("reqd_work_group_size");
            if let Some(d) = r.iter().position(|&x| x as u64 > dev_max) {
                fl.warn(
                    loc,
                    format!("reqd_work_group_size({},{},{}) of kernel '{name}' has {} work-items in dimension {d}, more than the device's CL_DEVICE_MAX_WORK_ITEM_SIZES ({dev_max}): every launch will fail with CL_INVALID_WORK_GROUP_SIZE", r[0], r[1], r[2], r[d]),
                );
                return;
            }
            if total > dev_max {
                fl.warn(
                    loc,
                    format!("reqd_work_group_size({},{},{}) of kernel '{name}' has {total} work-items, more than the device's CL_DEVICE_MAX_WORK_GROUP_SIZE ({dev_max}): every launch will fail with CL_INVALID_WORK_GROUP_SIZE", r[0], r[1], r[2]),
                );
                return;
            }
            (total, "reqd_work_group_size")
        }
        (None, Some(m)) => (m as u64, "max_work_group_size"),
        (None, None) => return,
    };
    if !fl.uses_barrier {
        return;
    }
    let per_item = (fl.frame_size as u64).next_multiple_of(8) + fl.num_slots.max(1) as u64 * 8;
    let state = per_item.saturating_mul(group);
    if state > ir::MAX_GROUP_PRIVATE_BYTES {
        fl.warn(
            attr_loc(which),
            format!(
                "private memory of kernel '{name}': it has a barrier, so the {group} work-items of a work-group given by {which} are all alive at once: {state} bytes of private state ({per_item} per work-item), more than the {} bytes one work-group may hold; a launch with {group} work-items per group will fail (CL_OUT_OF_RESOURCES)",
                ir::MAX_GROUP_PRIVATE_BYTES
            ),
        );
    }
}

fn kernel_arg(fl: &mut FnLower, prm: &ParamDecl, index: u32) -> Option<KernelArg> {
    let loc = prm.decl.loc;
    let Some(name) = prm.decl.name.clone() else {
        fl.error(prm.spec.loc, "kernel parameter name omitted");
        return None;
    };
    let base = fl.p.spec_type(&prm.spec).ok()?;
    let (mut ty, _space) =
        fl.p.declarator_type(base.clone(), &prm.spec, &prm.decl, Some(1))
            .ok()?;
    if let Type::Array(el, _) = ty {
        ty = Type::ptr(
            *el,
            prm.spec
                .addr
                .map(super::space_of)
                .unwrap_or(AddrSpace::Private),
        );
    }
    let blocking = prm
        .decl
        .attrs
        .iter()
        .chain(prm.spec.attrs.iter())
        .any(|a| a.name == "blocking");
    let mut pointer_levels = 0;
    let mut restrict = false;
    for d in &prm.decl.derived {
        if let Derived::Pointer { quals, .. } = d {
            pointer_levels += 1;
            restrict = quals.is_restrict;
        }
    }
    let type_name = format!("{}{}", prm.spec.spelled, "*".repeat(pointer_levels));
    let access = match prm.spec.access {
        Some(AccessQual::ReadOnly) => ArgAccess::ReadOnly,
        Some(AccessQual::WriteOnly) => ArgAccess::WriteOnly,
        Some(AccessQual::ReadWrite) => ArgAccess::ReadWrite,
        None => ArgAccess::None,
    };
    if prm.spec.is_pipe {
        if pointer_levels > 0 {
            fl.error(loc, "pipe element type cannot be a pointer");
            return None;
        }
        let write = match access {
            ArgAccess::WriteOnly => true,
            ArgAccess::ReadOnly | ArgAccess::None => false,
            ArgAccess::ReadWrite => {
                fl.error(loc, "pipe arguments cannot be 'read_write'");
                return None;
            }
        };
        let packet_size = fl.p.size_of(&base);
        let reg = fl.alloc(1);
        fl.pipe_info.insert(reg.0, (write, blocking));
        let pty = Type::Pipe(Box::new(base));
        fl.declare(
            &name,
            Val::RegVar {
                reg,
                ty: pty,
                is_const: true,
                name: name.clone(),
                prov: Some(Prov {
                    target: name.clone(),
                    arg: Some(index),
                }),
            },
        );
        fl.reg_names
            .push((reg, ir::ValTy::scalar(ir::Scalar::U32), name.clone()));
        return Some(KernelArg {
            name,
            type_name,
            address: ArgAddress::Private,
            access: if write {
                ArgAccess::WriteOnly
            } else {
                ArgAccess::ReadOnly
            },
            is_const: false,
            is_restrict: false,
            is_volatile: false,
            is_pipe: true,
            kind: ArgKind::Pipe {
                packet_size,
                write,
                blocking,
            },
            size: 8,
            reg,
        });
    }
    let prov = Prov {
        target: name.clone(),
        arg: Some(index),
    };
    match &ty {
        Type::Pointer(pt) => {
            let (address, kind) = match pt.space {
                AddrSpace::Global => (
                    ArgAddress::Global,
                    ArgKind::Buffer {
                        space: AddrSpace::Global,
                        elem_size: fl.p.size_of(&pt.ty),
                    },
                ),
                AddrSpace::Constant => (
                    ArgAddress::Constant,
                    ArgKind::Buffer {
                        space: AddrSpace::Constant,
                        elem_size: fl.p.size_of(&pt.ty),
                    },
                ),
                AddrSpace::Local => (
                    ArgAddress::Local,
                    ArgKind::LocalPtr {
                        elem_size: fl.p.size_of(&pt.ty),
                    },
                ),
                AddrSpace::Private => {
                    fl.error(
                        loc,
                        format!("pointer argument '{name}' of a kernel must point to the __global, __constant or __local address space"),
                    );
                    return None;
                }
            };
            let reg = fl.alloc(1);
            let (is_const, is_volatile) = (pt.is_const, pt.is_volatile);
            bind_value(fl, &name, reg, &ty, Some(prov));
            Some(KernelArg {
                name,
                type_name,
                address,
                access,
                is_const,
                is_restrict: restrict,
                is_volatile,
                is_pipe: false,
                kind,
                size: 8,
                reg,
            })
        }
        Type::Scalar(_) | Type::Vector(..) => {
            if matches!(ty, Type::Scalar(ir::Scalar::Bool)) {
                fl.error(
                    loc,
                    format!("kernel parameter '{name}' cannot be declared as bool"),
                );
                return None;
            }
            if matches!(ty.elem(), Some(ir::Scalar::F16)) {
                fl.error(
                    loc,
                    format!(
                        "kernel parameter '{name}' cannot have type half (use a pointer to half)"
                    ),
                );
                return None;
            }
            let vt = ty.valty()?;
            let reg = fl.alloc(vt.lanes);
            let size = fl.p.size_of(&ty);
            bind_value(fl, &name, reg, &ty, None);
            if prm.spec.quals.is_const {
                if let Some(super::func::Var {
                    val: Val::RegVar { is_const, .. },
                }) = fl.scopes.last_mut().and_then(|sc| sc.get_mut(&name))
                {
                    *is_const = true;
                }
            }
            Some(KernelArg {
                name,
                type_name,
                address: ArgAddress::Private,
                access,
                is_const: prm.spec.quals.is_const,
                is_restrict: false,
                is_volatile: prm.spec.quals.is_volatile,
                is_pipe: false,
                kind: ArgKind::Value { ty: vt },
                size,
                reg,
            })
        }
        Type::Opaque(n) if ir::ImageDim::from_type_name(n).is_some() => {
            let dim = ir::ImageDim::from_type_name(n)?;
            // Images default to read_only (OpenCL C 1.2 6.6); read_write images are OpenCL 2.0.
            let access = match access {
                ArgAccess::None => ArgAccess::ReadOnly,
                ArgAccess::ReadWrite => {
                    fl.error(
                        loc,
                        format!("image argument '{name}' cannot be 'read_write' in OpenCL C 1.2"),
                    );
                    return None;
                }
                a => a,
            };
            let reg = fl.alloc(1);
            fl.image_access.insert(reg.0, (name.clone(), access));
            fl.declare(
                &name,
                Val::RegVar {
                    reg,
                    ty: ty.clone(),
                    is_const: true,
                    name: name.clone(),
                    prov: Some(prov),
                },
            );
            fl.reg_names
                .push((reg, ir::ValTy::scalar(ir::Scalar::U64), name.clone()));
            Some(KernelArg {
                name,
                type_name,
                address: ArgAddress::Global,
                access,
                is_const: false,
                is_restrict: false,
                is_volatile: false,
                is_pipe: false,
                kind: ArgKind::Image {
                    dim,
                    write: access == ArgAccess::WriteOnly,
                },
                size: 8,
                reg,
            })
        }
        Type::Opaque("sampler_t") => {
            let reg = fl.alloc(1);
            fl.declare(
                &name,
                Val::RegVar {
                    reg,
                    ty: ty.clone(),
                    is_const: true,
                    name: name.clone(),
                    prov: None,
                },
            );
            fl.reg_names
                .push((reg, ir::ValTy::scalar(ir::Scalar::U64), name.clone()));
            Some(KernelArg {
                name,
                type_name,
                address: ArgAddress::Private,
                access,
                is_const: prm.spec.quals.is_const,
                is_restrict: false,
                is_volatile: false,
                is_pipe: false,
                kind: ArgKind::Sampler,
                size: 8,
                reg,
            })
        }
        Type::Record(_) => {
            let size = fl.p.size_of(&ty);
            let align = fl.p.align_of(&ty);
            let frame_offset = fl.alloc_frame(size, align);
            let reg = fl.alloc(1);
            fl.declare(
                &name,
                Val::Mem {
                    addr: reg,
                    ty: ty.clone(),
                    space: AddrSpace::Private,
                    is_const: prm.spec.quals.is_const,
                    prov: prov.clone(),
                },
            );
            Some(KernelArg {
                name,
                type_name,
                address: ArgAddress::Private,
                access,
                is_const: prm.spec.quals.is_const,
                is_restrict: false,
                is_volatile: false,
                is_pipe: false,
                kind: ArgKind::ByValue {
                    size,
                    align,
                    frame_offset,
                },
                size,
                reg,
            })
        }
        other => {
            let n = fl.ty_name(other);
            fl.poisoned.insert(name.to_string());
            fl.error(
                loc,
                format!("kernel parameter '{name}' has unsupported type '{n}'"),
            );
            None
        }
    }
}

/// Binds a by-value parameter: in its register, or copied to the frame if its address is taken.
fn bind_value(fl: &mut FnLower, name: &str, reg: ir::Reg, ty: &Type, prov: Option<Prov>) {
    let vt = ty.valty().unwrap_or(ir::ValTy::scalar(ir::Scalar::U64));
    if fl.needs_memory(name, ty) {
        let size = fl.p.size_of(ty);
        let align = fl.p.align_of(ty);
        let off = fl.alloc_frame(size, align);
        let addr = fl.alloc(1);
        fl.emit(Inst::FrameAddr {
            dst: addr,
            offset: off,
        });
        fl.emit(Inst::Store {
            ty: vt,
            src: reg,
            addr,
            space: AddrSpace::Private,
            site: None,
        });
        fl.declare(
            name,
            Val::Mem {
                addr,
                ty: ty.clone(),
                space: AddrSpace::Private,
                is_const: false,
                prov: Prov {
                    target: name.to_string(),
                    arg: None,
                },
            },
        );
    } else {
        fl.declare(
            name,
            Val::RegVar {
                reg,
                ty: ty.clone(),
                is_const: false,
                name: name.to_string(),
                prov,
            },
        );
    }
    fl.reg_names.push((reg, vt, name.to_string()));
}
