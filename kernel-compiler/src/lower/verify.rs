//! Structural checks of lowered IR: every register operand (with its lanes) is inside the
//! kernel's slots, block and site references exist. A failure is a compiler bug; `build`
//! reports it as an internal error instead of handing invalid IR to the device model.

use crate::ir::*;

/// Registers an instruction reads and writes, with lane counts.
fn operands(i: &Inst) -> Vec<(Reg, u32)> {
    let l = |t: &ValTy| t.lanes as u32;
    match i {
        Inst::Const { dst, ty, .. } => vec![(*dst, l(ty))],
        Inst::Mov { dst, src, lanes } => vec![(*dst, *lanes as u32), (*src, *lanes as u32)],
        Inst::Splat { dst, src, lanes } => vec![(*dst, *lanes as u32), (*src, 1)],
        Inst::Shuffle { dst, src, idx } => {
            let max = idx.iter().copied().max().unwrap_or(0) as u32 + 1;
            vec![(*dst, idx.len() as u32), (*src, max)]
        }
        Inst::Unary { ty, dst, src, .. } => vec![(*dst, l(ty)), (*src, l(ty))],
        Inst::Binary { ty, dst, a, b, .. } => vec![(*dst, l(ty)), (*a, l(ty)), (*b, l(ty))],
        Inst::Cmp {
            ty,
            dst_ty,
            dst,
            a,
            b,
            ..
        } => vec![(*dst, l(dst_ty).max(l(ty))), (*a, l(ty)), (*b, l(ty))],
        Inst::Select {
            ty,
            dst,
            cond,
            a,
            b,
        } => {
            vec![(*dst, l(ty)), (*cond, 1), (*a, l(ty)), (*b, l(ty))]
        }
        Inst::Convert {
            from, to, dst, src, ..
        }
        | Inst::Bitcast { from, to, dst, src } => {
            vec![(*dst, l(to).max(l(from))), (*src, l(from))]
        }
        Inst::Builtin {
            f,
            ty,
            dst_ty,
            dst,
            args,
        } => {
            let mut v = vec![(*dst, l(dst_ty).max(l(ty)))];
            v.extend(args[..f.arity()].iter().map(|a| (*a, l(ty))));
            v
        }
        Inst::BuiltinPtr {
            ty,
            dst,
            args,
            out_ptr,
            ..
        } => vec![
            (*dst, l(ty)),
            (args[0], l(ty)),
            (args[1], l(ty)),
            (*out_ptr, 1),
        ],
        Inst::WorkItem { dst, dim, .. } => vec![(*dst, 1), (*dim, 1)],
        Inst::FrameAddr { dst, .. } | Inst::LocalAddr { dst, .. } | Inst::ConstAddr { dst, .. } => {
            vec![(*dst, 1)]
        }
        Inst::PtrAdd {
            dst, base, index, ..
        } => {
            let mut v = vec![(*dst, 1), (*base, 1)];
            if let Some(i) = index {
                v.push((*i, 1));
            }
            v
        }
        Inst::Load { ty, dst, addr, .. } => vec![(*dst, l(ty)), (*addr, 1)],
        Inst::Store { ty, src, addr, .. } => vec![(*src, l(ty)), (*addr, 1)],
        Inst::Copy { dst, src, .. } => vec![(*dst, 1), (*src, 1)],
        Inst::Atomic {
            dst, addr, a, b, ..
        } => vec![(*dst, 1), (*addr, 1), (*a, 1), (*b, 1)],
        Inst::FifoRead {
            ep,
            dst_ptr: p,
            status,
            ..
        }
        | Inst::FifoWrite {
            ep,
            src_ptr: p,
            status,
            ..
        } => {
            let mut v = vec![(*p, 1)];
            if let Some(s) = status {
                v.push((*s, 1));
            }
            match ep {
                Endpoint::Channel { index: Some(i), .. } => v.push((*i, 1)),
                Endpoint::Pipe { arg } => v.push((*arg, 1)),
                _ => {}
            }
            v
        }
        Inst::Barrier { .. } | Inst::WaitGroupEvents => vec![],
        Inst::AsyncCopy {
            dst,
            src,
            count,
            stride,
            event,
            ..
        } => {
            let mut v = vec![(*dst, 1), (*src, 1), (*count, 1), (*event, 1)];
            if let Some(s) = stride {
                v.push((*s, 1));
            }
            v
        }
        Inst::Printf { args, dst, .. } => {
            let mut v = vec![(*dst, 1)];
            v.extend(args.iter().map(|(r, t)| (*r, l(t))));
            v
        }
        Inst::ImageRead {
            dst,
            img,
            sampler,
            coord,
            coord_ty,
            ..
        } => {
            let mut v = vec![(*dst, 4), (*img, 1), (*coord, l(coord_ty))];
            if let Some(s) = sampler {
                v.push((*s, 1));
            }
            v
        }
        Inst::ImageWrite {
            img,
            coord,
            coord_lanes,
            src,
            ..
        } => vec![(*img, 1), (*coord, *coord_lanes as u32), (*src, 4)],
        Inst::ImageQuery {
            dst, img, lanes, ..
        } => vec![(*dst, *lanes as u32), (*img, 1)],
    }
}

/// Checks one kernel; returns a description of the first problem.
pub fn verify_function(f: &Function, module: &Module) -> Result<(), String> {
    let n = f.blocks.len() as u32;
    let block_ok = |b: &BlockId| b.0 < n;
    for (bi, b) in f.blocks.iter().enumerate() {
        if b.insts.len() != b.locs.len() {
            return Err(format!(
                "block b{bi}: instruction and location counts differ"
            ));
        }
        for (ii, inst) in b.insts.iter().enumerate() {
            for (r, lanes) in operands(inst) {
                if r.0 as u64 + lanes as u64 > f.num_slots as u64 {
                    return Err(format!(
                        "b{bi}[{ii}]: register r{} (+{lanes} lanes) outside the {} slots: {}",
                        r.0,
                        f.num_slots,
                        crate::dump::inst(inst, module)
                    ));
                }
            }
        }
        let ok = match &b.term {
            Terminator::Jump(t) => block_ok(t),
            Terminator::Branch { then, els, cond } => {
                block_ok(then) && block_ok(els) && cond.0 < f.num_slots
            }
            Terminator::Switch {
                cases,
                default,
                value,
            } => block_ok(default) && cases.iter().all(|c| block_ok(&c.1)) && value.0 < f.num_slots,
            _ => true,
        };
        if !ok {
            return Err(format!("block b{bi}: bad terminator {:?}", b.term));
        }
    }
    for l in &f.loops {
        if !block_ok(&l.header) {
            return Err(format!("loop L{} header outside the blocks", l.id.0));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catches_out_of_range_registers() {
        let f = Function {
            name: "k".into(),
            loc: Default::default(),
            args: vec![],
            attrs: Default::default(),
            single_work_item: true,
            num_slots: 4,
            frame_size: 0,
            local_size: 0,
            blocks: vec![Block {
                insts: vec![Inst::Const {
                    dst: Reg(2),
                    ty: ValTy::vector(Scalar::F32, 4),
                    lanes: vec![0; 4],
                }],
                locs: vec![Default::default()],
                term: Terminator::Return,
                term_loc: Default::default(),
                in_loop: None,
                loop_header: None,
            }],
            loops: vec![],
            reg_names: vec![],
            uses_fifos: false,
            uses_barrier: false,
            mem_vars: vec![],
        };
        let m = Module::default();
        assert!(verify_function(&f, &m)
            .unwrap_err()
            .contains("r2 (+4 lanes)"));
    }
}
