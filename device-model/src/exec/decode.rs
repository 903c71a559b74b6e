//! IR -> [`Code`]: flattening blocks, resolving jump targets, choosing fast-path ops, and
//! validating every register operand against the register file (so the interpreter can trust
//! operand indices).

use super::code::*;
use crate::fault::DecodeError;
use fpgacl_kernel_compiler::ir::{
    self, BinOp, BuiltinFn, Endpoint, Function, Inst, Module, Scalar, Terminator, ValTy,
};

struct Dec<'a> {
    f: &'a Function,
    m: &'a Module,
    code: Code,
    /// Number of writes to each slot (arguments count as one write).
    defs: Vec<u32>,
    /// The instruction that writes a slot, when it is written exactly once.
    def_inst: Vec<Option<&'a Inst>>,
    /// Reads of slot `i` are redirected to `alias[i]` (a forwarded single-use move).
    alias: Vec<u32>,
    /// Op indices whose jump targets are still block ids.
    fixups: Vec<usize>,
    /// Index of the first op of the block being decoded (no fusion across blocks).
    block_first: usize,
}

fn err(f: &Function, msg: impl Into<String>) -> DecodeError {
    DecodeError {
        kernel: f.name.clone(),
        message: msg.into(),
    }
}

impl Dec<'_> {
    /// The constant value of a scalar register written exactly once by a constant (possibly
    /// through integer conversions), if it is one.
    fn const_of(&self, r: ir::Reg, depth: u32) -> Option<u64> {
        let i = r.0 as usize;
        if depth == 0 || self.defs.get(i) != Some(&1) {
            return None;
        }
        match self.def_inst.get(i).copied().flatten()? {
            Inst::Const { lanes, .. } if lanes.len() == 1 => Some(lanes[0]),
            Inst::Convert {
                from,
                to,
                sat: false,
                src,
                ..
            } if is_int(from.scalar) && is_int(to.scalar) => Some(super::values::norm(
                to.scalar,
                self.const_of(*src, depth - 1)?,
            )),
            Inst::Mov { src, .. } => self.const_of(*src, depth - 1),
            _ => None,
        }
    }

    fn reg(&self, r: ir::Reg, lanes: u32) -> Result<u32, DecodeError> {
        if lanes <= 1 {
            if let Some(&a) = self.alias.get(r.0 as usize) {
                if a != NONE {
                    return Ok(a);
                }
            }
        }
        if (r.0 as u64) + (lanes.max(1) as u64) > self.f.num_slots as u64 {
            return Err(err(
                self.f,
                format!(
                    "register {} (+{} lanes) outside the {} slots",
                    r.0, lanes, self.f.num_slots
                ),
            ));
        }
        Ok(r.0)
    }
    fn site(&self, s: Option<ir::SiteId>) -> Result<u32, DecodeError> {
        match s {
            None => Ok(NONE),
            Some(s) if (s.0 as usize) < self.m.sites.len() => Ok(s.0),
            Some(s) => Err(err(self.f, format!("site {} does not exist", s.0))),
        }
    }
    fn push(&mut self, op: Op, loc: fpgacl_kernel_compiler::Loc) {
        // Fuse `t = base + idx * scale` with a scalar load/store through `t` right after it.
        let prev = if self.code.ops.len() > self.block_first {
            self.code.ops.last().copied()
        } else {
            None
        };
        if let Some(Op::PtrIdx {
            d: t,
            base,
            idx,
            scale,
            disp: 0,
        }) = prev
        {
            if scale.is_power_of_two() && scale <= 128 {
                let sl = scale.trailing_zeros() as u8;
                let fused = match op {
                    Op::Load {
                        k,
                        n: 1,
                        d,
                        a,
                        site,
                    } if a == t => Some(Op::LoadIdx {
                        k,
                        sl,
                        d,
                        t,
                        base,
                        idx,
                        site,
                    }),
                    Op::Store {
                        k,
                        n: 1,
                        s,
                        a,
                        site,
                    } if a == t && s != t => Some(Op::StoreIdx {
                        k,
                        sl,
                        s,
                        t,
                        base,
                        idx,
                        site,
                    }),
                    _ => None,
                };
                if let Some(f) = fused {
                    *self.code.ops.last_mut().expect("prev exists") = f;
                    *self.code.locs.last_mut().expect("prev exists") = loc;
                    return;
                }
            }
        }
        self.code.ops.push(op);
        self.code.locs.push(loc);
    }

    fn push_op(&mut self, op: Op, loc: fpgacl_kernel_compiler::Loc) -> Result<(), DecodeError> {
        self.push(op, loc);
        Ok(())
    }

    fn inst(&mut self, i: &Inst, loc: fpgacl_kernel_compiler::Loc) -> Result<(), DecodeError> {
        let lanes = |t: ValTy| t.lanes.max(1) as u32;
        let op = match i {
            Inst::Const {
                dst,
                ty,
                lanes: vals,
            } => {
                let n = lanes(*ty).max(vals.len() as u32);
                let d = self.reg(*dst, n)?;
                if vals.len() == 1 && n == 1 {
                    Op::Const { d, v: vals[0] }
                } else {
                    let mut v = vals.clone();
                    v.resize(n as usize, *vals.last().unwrap_or(&0));
                    self.code.consts.push((d, v));
                    Op::ConstN(self.code.consts.len() as u32 - 1)
                }
            }
            Inst::Mov { dst, src, lanes: n } if *n <= 1 => Op::Mov1 {
                d: self.reg(*dst, 1)?,
                s: self.reg(*src, 1)?,
            },
            Inst::Mov { dst, src, lanes: n } => {
                let n = (*n).max(1) as u32;
                Op::Mov {
                    d: self.reg(*dst, n)?,
                    s: self.reg(*src, n)?,
                    n,
                }
            }
            Inst::Splat { dst, src, lanes: n } => {
                let n = (*n).max(1) as u32;
                Op::Splat {
                    d: self.reg(*dst, n)?,
                    s: self.reg(*src, 1)?,
                    n,
                }
            }
            Inst::Shuffle { dst, src, idx } => {
                let d = self.reg(*dst, idx.len() as u32)?;
                let maxi = idx.iter().copied().max().unwrap_or(0) as u32;
                let s = self.reg(*src, maxi + 1)?;
                self.code.shuffles.push((d, s, idx.clone()));
                Op::Shuffle(self.code.shuffles.len() as u32 - 1)
            }
            Inst::Unary { op, ty, dst, src } => {
                let n = lanes(*ty);
                Op::Unary {
                    op: *op,
                    k: ty.scalar,
                    n: n as u8,
                    d: self.reg(*dst, n)?,
                    s: self.reg(*src, n)?,
                }
            }
            Inst::Binary { op, ty, dst, a, b } => {
                let n = lanes(*ty);
                let (d, a, b) = (self.reg(*dst, n)?, self.reg(*a, n)?, self.reg(*b, n)?);
                binary(*op, *ty, n, d, a, b)
            }
            Inst::Cmp {
                op,
                ty,
                dst_ty,
                dst,
                a,
                b,
            } => {
                let n = lanes(*ty);
                let (d, a, b) = (
                    self.reg(*dst, lanes(*dst_ty).max(n))?,
                    self.reg(*a, n)?,
                    self.reg(*b, n)?,
                );
                let op = *op;
                if n == 1 && dst_ty.lanes <= 1 {
                    match ty.scalar {
                        Scalar::F32 => Op::CmpF32 { op, d, a, b },
                        Scalar::F64 => Op::CmpF64 { op, d, a, b },
                        Scalar::F16 => Op::Cmp {
                            op,
                            k: Scalar::F16,
                            n: 1,
                            vec: false,
                            d,
                            a,
                            b,
                        },
                        k if k.is_signed() => Op::CmpS { op, d, a, b },
                        _ => Op::CmpU { op, d, a, b },
                    }
                } else {
                    Op::Cmp {
                        op,
                        k: ty.scalar,
                        n: n as u8,
                        vec: dst_ty.lanes > 1,
                        d,
                        a,
                        b,
                    }
                }
            }
            Inst::Select {
                ty,
                dst,
                cond,
                a,
                b,
            } => {
                let n = lanes(*ty);
                Op::Select {
                    n,
                    d: self.reg(*dst, n)?,
                    c: self.reg(*cond, 1)?,
                    a: self.reg(*a, n)?,
                    b: self.reg(*b, n)?,
                }
            }
            Inst::Convert {
                from,
                to,
                sat: false,
                dst,
                src,
                ..
            } if from.lanes <= 1 && to.lanes <= 1 && is_int(from.scalar) && is_int(to.scalar) => {
                let (d, s) = (self.reg(*dst, 1)?, self.reg(*src, 1)?);
                if conv_is_identity(from.scalar, to.scalar) {
                    Op::Mov1 { d, s }
                } else {
                    Op::ConvInt { k: to.scalar, d, s }
                }
            }
            Inst::Convert {
                from,
                to,
                sat,
                rounding,
                dst,
                src,
            } => {
                let n = lanes(*from).max(lanes(*to));
                self.code.converts.push(ConvertX {
                    from: from.scalar,
                    to: to.scalar,
                    sat: *sat,
                    rounding: *rounding,
                    n,
                    d: self.reg(*dst, n)?,
                    s: self.reg(*src, n)?,
                });
                Op::Convert(self.code.converts.len() as u32 - 1)
            }
            Inst::Bitcast { from, to, dst, src } => {
                if from.lanes as usize * from.scalar.size() as usize > 128
                    || to.lanes as usize * to.scalar.size() as usize > 128
                {
                    return Err(err(self.f, "bitcast wider than 128 bytes"));
                }
                self.code.bitcasts.push(BitcastX {
                    from: *from,
                    to: *to,
                    d: self.reg(*dst, lanes(*to))?,
                    s: self.reg(*src, lanes(*from))?,
                });
                Op::Bitcast(self.code.bitcasts.len() as u32 - 1)
            }
            Inst::Builtin {
                f,
                ty,
                dst_ty,
                dst,
                args,
            } => {
                let n = lanes(*ty);
                let mut a = [NONE; 3];
                for (k, slot) in a.iter_mut().enumerate().take(f.arity()) {
                    *slot = self.reg(args[k], n)?;
                }
                let dn = match f {
                    BuiltinFn::Cross => n,
                    _ => lanes(*dst_ty),
                };
                if n > 16 || dn > 16 {
                    return Err(err(self.f, "builtin on more than 16 lanes"));
                }
                // Lane-wise builtins (what `builtins::eval` computes lane by lane) run inline.
                let lane_wise = !matches!(
                    f,
                    BuiltinFn::Dot
                        | BuiltinFn::Length
                        | BuiltinFn::Distance
                        | BuiltinFn::Normalize
                        | BuiltinFn::Cross
                        | BuiltinFn::Any
                        | BuiltinFn::All
                );
                if lane_wise {
                    let d = self.reg(*dst, dn)?;
                    let (k, dk) = (ty.scalar, dst_ty.scalar);
                    let [a, b, c] = a;
                    if n == 1 && dst_ty.lanes <= 1 {
                        return self.push_op(
                            Op::Lane {
                                f: *f,
                                k,
                                dk,
                                d,
                                a,
                                b,
                                c,
                            },
                            loc,
                        );
                    }
                    return self.push_op(
                        Op::LaneV {
                            f: *f,
                            k,
                            dk,
                            n: n as u8,
                            dn: dn.min(n) as u8,
                            vec: dst_ty.lanes > 1,
                            d,
                            a,
                            b,
                            c,
                        },
                        loc,
                    );
                }
                self.code.builtins.push(BuiltinX {
                    f: *f,
                    ty: *ty,
                    dst_ty: *dst_ty,
                    d: self.reg(*dst, dn)?,
                    args: a,
                });
                Op::Builtin(self.code.builtins.len() as u32 - 1)
            }
            Inst::BuiltinPtr {
                f,
                ty,
                dst,
                args,
                out_ptr,
                site,
            } => {
                let n = lanes(*ty);
                let nargs = if matches!(f, ir::BuiltinPtrFn::Remquo) {
                    2
                } else {
                    1
                };
                let mut a = [NONE; 2];
                for (k, slot) in a.iter_mut().enumerate().take(nargs) {
                    *slot = self.reg(args[k], n)?;
                }
                self.code.bptrs.push(BuiltinPtrX {
                    f: *f,
                    ty: *ty,
                    d: self.reg(*dst, n)?,
                    args: a,
                    out: self.reg(*out_ptr, 1)?,
                    site: self.site(*site)?,
                });
                Op::BuiltinPtr(self.code.bptrs.len() as u32 - 1)
            }
            Inst::WorkItem { f, dst, dim } => {
                let d = self.reg(*dst, 1)?;
                let dimr = self.reg(*dim, 1)?;
                match self.const_of(*dim, 4) {
                    Some(c) if c < 3 => Op::WorkItemC {
                        f: *f,
                        d,
                        dim: c as u32,
                    },
                    _ => Op::WorkItem {
                        f: *f,
                        d,
                        dim: dimr,
                    },
                }
            }
            Inst::FrameAddr { dst, offset } => Op::Const {
                d: self.reg(*dst, 1)?,
                v: ir::make_ptr(ir::REGION_PRIVATE, *offset as u64),
            },
            Inst::LocalAddr { dst, offset } => Op::Const {
                d: self.reg(*dst, 1)?,
                v: ir::make_ptr(ir::REGION_LOCAL, *offset as u64),
            },
            Inst::ConstAddr { dst, offset } => Op::Const {
                d: self.reg(*dst, 1)?,
                v: ir::make_ptr(ir::REGION_CONSTANT_DATA, *offset as u64),
            },
            Inst::PtrAdd {
                dst,
                base,
                index,
                scale,
                disp,
            } => {
                let d = self.reg(*dst, 1)?;
                let base = self.reg(*base, 1)?;
                match index {
                    None => Op::PtrDisp {
                        d,
                        base,
                        disp: *disp,
                    },
                    Some(ix) => {
                        let idx = self.reg(*ix, 1)?;
                        match i32::try_from(*disp) {
                            Ok(disp) => Op::PtrIdx {
                                d,
                                base,
                                idx,
                                scale: *scale,
                                disp,
                            },
                            Err(_) => {
                                self.push(
                                    Op::PtrIdx {
                                        d,
                                        base,
                                        idx,
                                        scale: *scale,
                                        disp: 0,
                                    },
                                    loc,
                                );
                                Op::PtrDisp {
                                    d,
                                    base: d,
                                    disp: *disp,
                                }
                            }
                        }
                    }
                }
            }
            Inst::Load {
                ty,
                dst,
                addr,
                site,
                ..
            } => {
                let n = lanes(*ty);
                Op::Load {
                    k: ty.scalar,
                    n: n as u8,
                    d: self.reg(*dst, n)?,
                    a: self.reg(*addr, 1)?,
                    site: self.site(*site)?,
                }
            }
            Inst::Store {
                ty,
                src,
                addr,
                site,
                ..
            } => {
                let n = lanes(*ty);
                Op::Store {
                    k: ty.scalar,
                    n: n as u8,
                    s: self.reg(*src, n)?,
                    a: self.reg(*addr, 1)?,
                    site: self.site(*site)?,
                }
            }
            Inst::Copy {
                dst,
                src,
                bytes,
                load_site,
                store_site,
            } => {
                self.code.copies.push(CopyX {
                    d: self.reg(*dst, 1)?,
                    s: self.reg(*src, 1)?,
                    bytes: *bytes,
                    load_site: self.site(*load_site)?,
                    store_site: self.site(*store_site)?,
                });
                Op::Copy(self.code.copies.len() as u32 - 1)
            }
            Inst::Atomic {
                op,
                ty,
                dst,
                addr,
                a,
                b,
                site,
                ..
            } => {
                if !matches!(ty.scalar.size(), 4 | 8) {
                    return Err(err(self.f, "atomic on a type that is not 32 or 64 bits"));
                }
                self.code.atomics.push(AtomicX {
                    op: *op,
                    k: ty.scalar,
                    d: self.reg(*dst, 1)?,
                    addr: self.reg(*addr, 1)?,
                    a: self.reg(*a, 1)?,
                    b: self.reg(*b, 1)?,
                    site: self.site(Some(*site))?,
                });
                Op::Atomic(self.code.atomics.len() as u32 - 1)
            }
            Inst::FifoRead {
                ep,
                dst_ptr,
                bytes,
                blocking,
                status,
                site,
            }
            | Inst::FifoWrite {
                ep,
                src_ptr: dst_ptr,
                bytes,
                blocking,
                status,
                site,
            } => {
                let ep = match ep {
                    Endpoint::Channel { id, index } => {
                        let decl = self
                            .m
                            .channels
                            .iter()
                            .position(|c| c.id == *id)
                            .ok_or_else(|| err(self.f, format!("channel {} not declared", id.0)))?;
                        Ep::Channel {
                            decl: decl as u32,
                            index: match index {
                                Some(r) => self.reg(*r, 1)?,
                                None => NONE,
                            },
                        }
                    }
                    Endpoint::Pipe { arg } => Ep::Pipe {
                        arg: self.reg(*arg, 1)?,
                    },
                };
                self.code.fifos.push(FifoX {
                    ep,
                    ptr: self.reg(*dst_ptr, 1)?,
                    bytes: *bytes,
                    blocking: *blocking,
                    status: match status {
                        Some(r) => self.reg(*r, 1)?,
                        None => NONE,
                    },
                    site: self.site(Some(*site))?,
                });
                self.code.uses_fifos = true;
                let x = self.code.fifos.len() as u32 - 1;
                if matches!(i, Inst::FifoRead { .. }) {
                    Op::FifoRead(x)
                } else {
                    Op::FifoWrite(x)
                }
            }
            Inst::Barrier { flags } => {
                self.code.needs_sync = true;
                Op::Barrier(*flags)
            }
            Inst::AsyncCopy {
                dst,
                src,
                count,
                stride,
                elem_bytes,
                event,
                to_local,
                site,
            } => {
                self.code.asyncs.push(AsyncX {
                    d: self.reg(*dst, 1)?,
                    s: self.reg(*src, 1)?,
                    count: self.reg(*count, 1)?,
                    stride: match stride {
                        Some(r) => self.reg(*r, 1)?,
                        None => NONE,
                    },
                    elem_bytes: *elem_bytes,
                    event: self.reg(*event, 1)?,
                    to_local: *to_local,
                    site: self.site(*site)?,
                });
                Op::AsyncCopy(self.code.asyncs.len() as u32 - 1)
            }
            Inst::WaitGroupEvents => {
                self.code.needs_sync = true;
                Op::WaitEvents
            }
            Inst::Printf { fmt, args, dst } => {
                if fmt.0 as usize >= self.m.strings.len() {
                    return Err(err(self.f, "printf format string does not exist"));
                }
                let mut a = Vec::with_capacity(args.len());
                for (r, t) in args {
                    a.push((self.reg(*r, lanes(*t))?, *t));
                }
                self.code.printfs.push(PrintfX {
                    fmt: fmt.0,
                    args: a,
                    d: self.reg(*dst, 1)?,
                });
                Op::Printf(self.code.printfs.len() as u32 - 1)
            }
            Inst::ImageRead {
                family,
                dst,
                img,
                sampler,
                coord,
                coord_ty,
                site,
            } => {
                let x = ImageX {
                    what: ImageOpKind::Read,
                    family: *family,
                    d: self.reg(*dst, 4)?,
                    img: self.reg(*img, 1)?,
                    sampler: match sampler {
                        Some(s) => self.reg(*s, 1)?,
                        None => NONE,
                    },
                    coord: self.reg(*coord, lanes(*coord_ty))?,
                    coord_lanes: lanes(*coord_ty),
                    coord_float: coord_ty.scalar.is_float(),
                    lanes: 4,
                    site: self.site(Some(*site))?,
                };
                self.code.images.push(x);
                Op::Image(self.code.images.len() as u32 - 1)
            }
            Inst::ImageWrite {
                family,
                img,
                coord,
                coord_lanes,
                src,
                site,
            } => {
                let n = (*coord_lanes).max(1) as u32;
                let x = ImageX {
                    what: ImageOpKind::Write,
                    family: *family,
                    d: self.reg(*src, 4)?,
                    img: self.reg(*img, 1)?,
                    sampler: NONE,
                    coord: self.reg(*coord, n)?,
                    coord_lanes: n,
                    coord_float: false,
                    lanes: 4,
                    site: self.site(Some(*site))?,
                };
                self.code.images.push(x);
                Op::Image(self.code.images.len() as u32 - 1)
            }
            Inst::ImageQuery { q, dst, img, lanes } => {
                let n = (*lanes).max(1) as u32;
                let x = ImageX {
                    what: ImageOpKind::Query(*q),
                    family: Scalar::I32,
                    d: self.reg(*dst, n)?,
                    img: self.reg(*img, 1)?,
                    sampler: NONE,
                    coord: NONE,
                    coord_lanes: 0,
                    coord_float: false,
                    lanes: n,
                    site: NONE,
                };
                self.code.images.push(x);
                Op::Image(self.code.images.len() as u32 - 1)
            }
        };
        self.push(op, loc);
        Ok(())
    }
}

/// Calls `f(reg, lanes)` for every register an instruction reads.
fn inst_reads(i: &Inst, mut f: impl FnMut(ir::Reg, u32)) {
    let l = |t: &ValTy| t.lanes.max(1) as u32;
    match i {
        Inst::Const { .. }
        | Inst::FrameAddr { .. }
        | Inst::LocalAddr { .. }
        | Inst::ConstAddr { .. }
        | Inst::Barrier { .. }
        | Inst::WaitGroupEvents => {}
        Inst::Mov { src, lanes, .. } => f(*src, (*lanes).max(1) as u32),
        Inst::Splat { src, .. } => f(*src, 1),
        Inst::Shuffle { src, idx, .. } => {
            f(*src, idx.iter().copied().max().unwrap_or(0) as u32 + 1)
        }
        Inst::Unary { src, ty, .. } => f(*src, l(ty)),
        Inst::Binary { a, b, ty, .. } | Inst::Cmp { a, b, ty, .. } => {
            f(*a, l(ty));
            f(*b, l(ty));
        }
        Inst::Select { cond, a, b, ty, .. } => {
            f(*cond, 1);
            f(*a, l(ty));
            f(*b, l(ty));
        }
        Inst::Convert { src, from, .. } | Inst::Bitcast { src, from, .. } => f(*src, l(from)),
        Inst::Builtin {
            f: bf, args, ty, ..
        } => {
            for a in args.iter().take(bf.arity()) {
                f(*a, l(ty));
            }
        }
        Inst::BuiltinPtr {
            f: bf,
            args,
            ty,
            out_ptr,
            ..
        } => {
            f(args[0], l(ty));
            if matches!(bf, ir::BuiltinPtrFn::Remquo) {
                f(args[1], l(ty));
            }
            f(*out_ptr, 1);
        }
        Inst::WorkItem { dim, .. } => f(*dim, 1),
        Inst::PtrAdd { base, index, .. } => {
            f(*base, 1);
            if let Some(x) = index {
                f(*x, 1);
            }
        }
        Inst::Load { addr, .. } => f(*addr, 1),
        Inst::Store { src, addr, ty, .. } => {
            f(*src, l(ty));
            f(*addr, 1);
        }
        Inst::Copy { dst, src, .. } => {
            f(*dst, 1);
            f(*src, 1);
        }
        Inst::Atomic { addr, a, b, .. } => {
            f(*addr, 1);
            f(*a, 1);
            f(*b, 1);
        }
        Inst::FifoRead { ep, dst_ptr: p, .. } | Inst::FifoWrite { ep, src_ptr: p, .. } => {
            match ep {
                Endpoint::Channel { index: Some(r), .. } | Endpoint::Pipe { arg: r } => f(*r, 1),
                Endpoint::Channel { index: None, .. } => {}
            }
            f(*p, 1);
        }
        Inst::AsyncCopy {
            dst,
            src,
            count,
            stride,
            ..
        } => {
            f(*dst, 1);
            f(*src, 1);
            f(*count, 1);
            if let Some(s) = stride {
                f(*s, 1);
            }
        }
        Inst::Printf { args, .. } => {
            for (r, t) in args {
                f(*r, l(t));
            }
        }
        Inst::ImageRead {
            img,
            sampler,
            coord,
            coord_ty,
            ..
        } => {
            f(*img, 1);
            if let Some(s) = sampler {
                f(*s, 1);
            }
            f(*coord, l(coord_ty));
        }
        Inst::ImageWrite {
            img,
            coord,
            coord_lanes,
            src,
            ..
        } => {
            f(*img, 1);
            f(*coord, (*coord_lanes).max(1) as u32);
            f(*src, 4);
        }
        Inst::ImageQuery { img, .. } => f(*img, 1),
    }
}

fn term_reads(t: &Terminator, mut f: impl FnMut(ir::Reg, u32)) {
    match t {
        Terminator::Branch { cond, .. } => f(*cond, 1),
        Terminator::Switch { value, .. } => f(*value, 1),
        _ => {}
    }
}

/// Whether removing an instruction whose result is unused cannot change behaviour (it cannot
/// fault, block or write memory).
fn is_pure(i: &Inst) -> bool {
    match i {
        Inst::Binary { op, ty, .. } => {
            ty.scalar.is_float() || !matches!(op, BinOp::Div | BinOp::Rem)
        }
        Inst::Const { .. }
        | Inst::Mov { .. }
        | Inst::Splat { .. }
        | Inst::Shuffle { .. }
        | Inst::Unary { .. }
        | Inst::Cmp { .. }
        | Inst::Select { .. }
        | Inst::Convert { .. }
        | Inst::Bitcast { .. }
        | Inst::Builtin { .. }
        | Inst::WorkItem { .. }
        | Inst::FrameAddr { .. }
        | Inst::LocalAddr { .. }
        | Inst::ConstAddr { .. }
        | Inst::PtrAdd { .. } => true,
        _ => false,
    }
}

/// Dead pure instructions (per block, per instruction) and the read count of every slot over
/// the live code. Work-item queries with a constant dimension do not read their dimension.
fn dead_code(dec: &Dec<'_>) -> (Vec<Vec<bool>>, Vec<u32>) {
    let f = dec.f;
    let ns = f.num_slots as usize;
    let mut dead: Vec<Vec<bool>> = f
        .blocks
        .iter()
        .map(|b| vec![false; b.insts.len()])
        .collect();
    loop {
        let mut reads = vec![0u32; ns];
        let mut count = |r: ir::Reg, n: u32| {
            for s in r.0..r.0.saturating_add(n) {
                if let Some(c) = reads.get_mut(s as usize) {
                    *c += 1;
                }
            }
        };
        for (bi, b) in f.blocks.iter().enumerate() {
            for (k, i) in b.insts.iter().enumerate() {
                if dead[bi][k] {
                    continue;
                }
                if let Inst::WorkItem { dim, .. } = i {
                    if dec.const_of(*dim, 4).is_some_and(|c| c < 3) {
                        continue;
                    }
                }
                inst_reads(i, &mut count);
            }
            term_reads(&b.term, &mut count);
        }
        let mut changed = false;
        for (bi, b) in f.blocks.iter().enumerate() {
            for (k, i) in b.insts.iter().enumerate() {
                if dead[bi][k] || !is_pure(i) {
                    continue;
                }
                if let Some((r, n)) = inst_dst(i) {
                    if (r.0..r.0.saturating_add(n)).all(|s| reads.get(s as usize) == Some(&0)) {
                        dead[bi][k] = true;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return (dead, reads);
        }
    }
}

/// A scalar move `t = s` (or an integer conversion that keeps the encoding) whose result is
/// defined once and read once, by the very next instruction (or the block's terminator): the
/// reader can read `s` directly. Returns `(t, s)`.
fn forwardable(
    dec: &Dec<'_>,
    reads: &[u32],
    i: &Inst,
    next: Option<&Inst>,
    term: &Terminator,
) -> Option<(u32, u32)> {
    let (t, s) = match i {
        Inst::Mov { dst, src, lanes } if *lanes <= 1 => (dst.0, src.0),
        Inst::Convert {
            from,
            to,
            sat: false,
            dst,
            src,
            ..
        } if from.lanes <= 1
            && to.lanes <= 1
            && is_int(from.scalar)
            && is_int(to.scalar)
            && conv_is_identity(from.scalar, to.scalar) =>
        {
            (dst.0, src.0)
        }
        _ => return None,
    };
    if t == s
        || dec.defs.get(t as usize) != Some(&1)
        || reads.get(t as usize) != Some(&1)
        || (s as usize) >= dec.alias.len()
    {
        return None;
    }
    // The single read must be a scalar read of exactly `t` in the next instruction.
    let mut scalar_read = false;
    let mut other = false;
    let mut seen = |r: ir::Reg, n: u32| {
        if r.0 == t && n <= 1 {
            scalar_read = true;
        } else if r.0 <= t && t < r.0 + n {
            other = true;
        }
    };
    match next {
        Some(n) => {
            if matches!(n, Inst::WorkItem { .. }) {
                return None;
            }
            inst_reads(n, &mut seen)
        }
        None => term_reads(term, &mut seen),
    }
    (scalar_read && !other).then_some((t, s))
}

/// Constants written once (by this instruction only) go into the register template instead of
/// being executed: returns the (slot, value) pairs.
fn constant_init(dec: &Dec<'_>, i: &Inst) -> Option<Vec<(u32, u64)>> {
    let once = |r: ir::Reg, n: u32| (r.0..r.0 + n).all(|s| dec.defs.get(s as usize) == Some(&1));
    match i {
        Inst::Const { dst, ty, lanes } => {
            let n = (ty.lanes.max(1) as u32).max(lanes.len() as u32);
            if lanes.is_empty() || !once(*dst, n) || (dst.0 + n) > dec.f.num_slots {
                return None;
            }
            let last = *lanes.last()?;
            Some(
                (0..n)
                    .map(|k| (dst.0 + k, lanes.get(k as usize).copied().unwrap_or(last)))
                    .collect(),
            )
        }
        Inst::FrameAddr { dst, offset } if once(*dst, 1) => Some(vec![(
            dst.0,
            ir::make_ptr(ir::REGION_PRIVATE, *offset as u64),
        )]),
        Inst::LocalAddr { dst, offset } if once(*dst, 1) => Some(vec![(
            dst.0,
            ir::make_ptr(ir::REGION_LOCAL, *offset as u64),
        )]),
        Inst::ConstAddr { dst, offset } if once(*dst, 1) => Some(vec![(
            dst.0,
            ir::make_ptr(ir::REGION_CONSTANT_DATA, *offset as u64),
        )]),
        _ => None,
    }
}

/// `t = op(...)` followed by `x = t` (a scalar move or identity conversion), where `t` is
/// defined and read once: returns `(t, x)` so that the op writes `x` directly. Only ops that
/// read all their operands before writing their single scalar result qualify.
fn dst_forwardable(
    dec: &Dec<'_>,
    reads: &[u32],
    i: &Inst,
    next: Option<&Inst>,
) -> Option<(u32, u32)> {
    let t = match i {
        Inst::Binary { dst, ty, .. }
        | Inst::Unary { dst, ty, .. }
        | Inst::Load { dst, ty, .. }
        | Inst::Select { dst, ty, .. }
            if ty.lanes <= 1 =>
        {
            dst.0
        }
        Inst::Convert { dst, to, .. } if to.lanes <= 1 => dst.0,
        Inst::Cmp { dst, ty, .. } if ty.lanes <= 1 => dst.0,
        _ => return None,
    };
    let x = match next? {
        Inst::Mov { dst, src, lanes } if *lanes <= 1 && src.0 == t => dst.0,
        Inst::Convert {
            from,
            to,
            sat: false,
            dst,
            src,
            ..
        } if src.0 == t
            && from.lanes <= 1
            && to.lanes <= 1
            && is_int(from.scalar)
            && is_int(to.scalar)
            && conv_is_identity(from.scalar, to.scalar) =>
        {
            dst.0
        }
        _ => return None,
    };
    (x != t
        && dec.defs.get(t as usize) == Some(&1)
        && reads.get(t as usize) == Some(&1)
        && (x as usize) < dec.alias.len())
    .then_some((t, x))
}

/// An indexed address `t = base + idx * scale` (defined and read once) whose reader is a later
/// scalar load or store in the same block, with no write to `base` or `idx` in between: the
/// address can be computed right before the reader (and fused with it). Returns the reader's
/// index.
fn sinkable_address(dec: &Dec<'_>, reads: &[u32], insts: &[Inst], k: usize) -> Option<usize> {
    let Inst::PtrAdd {
        dst,
        base,
        index: Some(idx),
        disp: 0,
        ..
    } = &insts[k]
    else {
        return None;
    };
    let t = dst.0;
    if dec.defs.get(t as usize) != Some(&1) || reads.get(t as usize) != Some(&1) {
        return None;
    }
    for (j, i) in insts.iter().enumerate().skip(k + 1) {
        let mut reads_t = false;
        inst_reads(i, |r, n| reads_t |= r.0 <= t && t < r.0 + n.max(1));
        if reads_t {
            let ok = match i {
                Inst::Load { addr, ty, .. } => addr.0 == t && ty.lanes <= 1,
                Inst::Store { addr, src, ty, .. } => addr.0 == t && src.0 != t && ty.lanes <= 1,
                _ => false,
            };
            return (ok && j > k + 1).then_some(j);
        }
        if let Some((r, n)) = inst_dst(i) {
            let hits = |s: u32| r.0 <= s && s < r.0 + n;
            // Operands as the decoded op will read them (forwarded moves included).
            let alias = |s: u32| dec.alias.get(s as usize).copied().unwrap_or(NONE);
            if hits(base.0) || hits(idx.0) || hits(alias(base.0)) || hits(alias(idx.0)) {
                return None;
            }
        }
    }
    None
}

fn is_int(k: Scalar) -> bool {
    !k.is_float() && k != Scalar::Bool
}

/// Whether an integer conversion leaves the slot encoding unchanged for every input.
fn conv_is_identity(from: Scalar, to: Scalar) -> bool {
    use Scalar::*;
    if from == to || matches!(to, I64 | U64) {
        return true;
    }
    let (fb, tb) = (from.size(), to.size());
    if from.is_signed() {
        to.is_signed() && fb <= tb
    } else {
        fb < tb
    }
}

/// Slots written by an instruction (first slot, lanes); `None` when it writes no register.
fn inst_dst(i: &Inst) -> Option<(ir::Reg, u32)> {
    let l = |t: &ValTy| t.lanes.max(1) as u32;
    Some(match i {
        Inst::Const { dst, ty, lanes } => (*dst, l(ty).max(lanes.len() as u32)),
        Inst::Mov { dst, lanes, .. } | Inst::Splat { dst, lanes, .. } => {
            (*dst, (*lanes).max(1) as u32)
        }
        Inst::Shuffle { dst, idx, .. } => (*dst, idx.len() as u32),
        Inst::Unary { dst, ty, .. }
        | Inst::Binary { dst, ty, .. }
        | Inst::Select { dst, ty, .. } => (*dst, l(ty)),
        Inst::Cmp {
            dst, ty, dst_ty, ..
        } => (*dst, l(ty).max(l(dst_ty))),
        Inst::Convert { dst, from, to, .. } => (*dst, l(from).max(l(to))),
        Inst::Bitcast { dst, to, .. } => (*dst, l(to)),
        Inst::Builtin {
            dst, ty, dst_ty, ..
        } => (*dst, l(ty).max(l(dst_ty))),
        Inst::BuiltinPtr { dst, ty, .. } => (*dst, l(ty)),
        Inst::WorkItem { dst, .. }
        | Inst::FrameAddr { dst, .. }
        | Inst::LocalAddr { dst, .. }
        | Inst::ConstAddr { dst, .. }
        | Inst::PtrAdd { dst, .. }
        | Inst::Atomic { dst, .. }
        | Inst::Printf { dst, .. } => (*dst, 1),
        Inst::Load { dst, ty, .. } => (*dst, l(ty)),
        Inst::ImageRead { dst, .. } => (*dst, 4),
        Inst::ImageQuery { dst, lanes, .. } => (*dst, (*lanes).max(1) as u32),
        Inst::AsyncCopy { event, .. } => (*event, 1),
        Inst::FifoRead {
            status: Some(s), ..
        }
        | Inst::FifoWrite {
            status: Some(s), ..
        } => (*s, 1),
        _ => return None,
    })
}

fn binary(op: BinOp, ty: ValTy, n: u32, d: u32, a: u32, b: u32) -> Op {
    use Scalar::*;
    let k = ty.scalar;
    if n == 1 {
        match (op, k) {
            (BinOp::Add, I32) => return Op::AddI32 { d, a, b },
            (BinOp::Add, U32) => return Op::AddU32 { d, a, b },
            (BinOp::Add, I64 | U64) => return Op::Add64 { d, a, b },
            (BinOp::Sub, I32) => return Op::SubI32 { d, a, b },
            (BinOp::Sub, U32) => return Op::SubU32 { d, a, b },
            (BinOp::Sub, I64 | U64) => return Op::Sub64 { d, a, b },
            (BinOp::Mul, I32) => return Op::MulI32 { d, a, b },
            (BinOp::Mul, U32) => return Op::MulU32 { d, a, b },
            (BinOp::Mul, I64 | U64) => return Op::Mul64 { d, a, b },
            (BinOp::Add, F32) => return Op::FAdd32 { d, a, b },
            (BinOp::Sub, F32) => return Op::FSub32 { d, a, b },
            (BinOp::Mul, F32) => return Op::FMul32 { d, a, b },
            (BinOp::Div, F32) => return Op::FDiv32 { d, a, b },
            (BinOp::Add, F64) => return Op::FAdd64 { d, a, b },
            (BinOp::Sub, F64) => return Op::FSub64 { d, a, b },
            (BinOp::Mul, F64) => return Op::FMul64 { d, a, b },
            (BinOp::Div, F64) => return Op::FDiv64 { d, a, b },
            _ => {}
        }
    }
    if !k.is_float() {
        match op {
            BinOp::And => return Op::And { d, a, b, n },
            BinOp::Or => return Op::Or { d, a, b, n },
            BinOp::Xor => return Op::Xor { d, a, b, n },
            _ => {}
        }
    }
    if k.is_float() {
        Op::FltBin {
            op,
            k,
            n: n as u8,
            d,
            a,
            b,
        }
    } else {
        Op::IntBin {
            op,
            k,
            n: n as u8,
            d,
            a,
            b,
        }
    }
}

/// Decodes one kernel of a module.
pub fn decode(m: &Module, f: &Function) -> Result<Code, DecodeError> {
    let mut dec = Dec {
        f,
        m,
        code: Code {
            num_slots: f.num_slots,
            num_loops: f.loops.len() as u32,
            ..Code::default()
        },
        fixups: Vec::new(),
        block_first: 0,
        defs: vec![0; f.num_slots as usize],
        def_inst: vec![None; f.num_slots as usize],
        alias: vec![NONE; f.num_slots as usize],
    };
    for a in &f.args {
        if let Some(d) = dec.defs.get_mut(a.reg.0 as usize) {
            *d += 1;
        }
    }
    for b in &f.blocks {
        for i in &b.insts {
            if let Some((r, n)) = inst_dst(i) {
                for s in r.0..r.0.saturating_add(n) {
                    if let Some(d) = dec.defs.get_mut(s as usize) {
                        *d += 1;
                        dec.def_inst[s as usize] = Some(i);
                    }
                }
            }
        }
    }
    if f.blocks.is_empty() {
        return Err(err(f, "kernel has no blocks"));
    }
    let nblocks = f.blocks.len() as u32;
    // Validate every operand first: dead-code removal must not hide invalid IR.
    for b in &f.blocks {
        let mut bad = None;
        let mut check = |r: ir::Reg, n: u32| {
            if (r.0 as u64) + (n.max(1) as u64) > f.num_slots as u64 && bad.is_none() {
                bad = Some((r.0, n));
            }
        };
        for i in &b.insts {
            inst_reads(i, &mut check);
            if let Some((r, n)) = inst_dst(i) {
                check(r, n);
            }
        }
        term_reads(&b.term, &mut check);
        if let Some((r, n)) = bad {
            return Err(err(
                f,
                format!(
                    "register {r} (+{n} lanes) outside the {} slots",
                    f.num_slots
                ),
            ));
        }
    }
    let (dead, reads) = dead_code(&dec);
    // Loop entry counting: an edge into a loop header from a block outside that loop counts
    // an entry. Unconditional jumps count inline; branch edges go through a stub.
    let in_loop = |b: usize, l: ir::LoopId| -> bool {
        let mut cur = f.blocks[b].in_loop;
        let mut guard = 0;
        while let Some(c) = cur {
            if c == l {
                return true;
            }
            cur = f.loops.get(c.0 as usize).and_then(|x| x.parent);
            guard += 1;
            if guard > f.loops.len() {
                break;
            }
        }
        false
    };
    let entry_of = |from: usize, to: ir::BlockId| -> Option<u32> {
        let l = f.blocks.get(to.0 as usize)?.loop_header?;
        (!in_loop(from, l) && (l.0 as usize) < f.loops.len()).then_some(l.0)
    };
    // stubs: (loop, header block); branch targets >= nblocks name stubs.
    let mut stubs: Vec<(u32, u32)> = Vec::new();
    if let Some(l) = f.blocks[0].loop_header {
        if (l.0 as usize) < f.loops.len() {
            dec.push(Op::LoopEnter(l.0), f.loc);
        }
    }
    let mut block_start = Vec::with_capacity(f.blocks.len());
    for (bi, b) in f.blocks.iter().enumerate() {
        block_start.push(dec.code.ops.len() as u32);
        dec.block_first = dec.code.ops.len();
        if let Some(l) = b.loop_header {
            if l.0 >= f.loops.len() as u32 {
                return Err(err(f, format!("loop {} does not exist", l.0)));
            }
            let loc = b.locs.first().copied().unwrap_or(b.term_loc);
            dec.push(Op::LoopHead(l.0), loc);
        }
        let mut forwarded: Vec<u32> = Vec::new();
        let mut skip_next = false;
        // Address computations moved down to their single reader (to fuse with it).
        let mut deferred: Vec<(usize, Op, fpgacl_kernel_compiler::Loc)> = Vec::new();
        for (k, i) in b.insts.iter().enumerate() {
            if dead[bi][k] {
                continue;
            }
            if let Some(pos) = deferred.iter().position(|d| d.0 == k) {
                let (_, op, loc) = deferred.remove(pos);
                dec.push(op, loc);
            }
            if let Some(j) = sinkable_address(&dec, &reads, &b.insts, k) {
                // Decode now (operands as they are here), emit right before the reader.
                let loc = b.locs.get(k).copied().unwrap_or(b.term_loc);
                let before = dec.code.ops.len();
                dec.inst(i, loc)?;
                if dec.code.ops.len() == before + 1 {
                    let op = dec.code.ops.pop().expect("just pushed");
                    dec.code.locs.pop();
                    deferred.push((j, op, loc));
                }
                for t in forwarded.drain(..) {
                    dec.alias[t as usize] = NONE;
                }
                continue;
            }
            if std::mem::take(&mut skip_next) {
                continue;
            }
            if let Some(init) = constant_init(&dec, i) {
                dec.code.const_init.extend(init);
                continue;
            }
            if let Some((t, src)) = forwardable(&dec, &reads, i, b.insts.get(k + 1), &b.term) {
                // Chains of moves resolve to the original source.
                let src = match dec.alias[src as usize] {
                    NONE => src,
                    a => a,
                };
                dec.alias[t as usize] = src;
                forwarded.push(t);
                continue;
            }
            let loc = b.locs.get(k).copied().unwrap_or(b.term_loc);
            // `t = op(...); x = t` with t used only there: the op writes x directly.
            let next_live = b
                .insts
                .get(k + 1)
                .filter(|_| !dead[bi].get(k + 1).copied().unwrap_or(true));
            if let Some((t, x)) = dst_forwardable(&dec, &reads, i, next_live) {
                dec.alias[t as usize] = x;
                dec.inst(i, loc)?;
                dec.alias[t as usize] = NONE;
                skip_next = true;
            } else {
                dec.inst(i, loc)?;
            }
            for t in forwarded.drain(..) {
                dec.alias[t as usize] = NONE;
            }
        }
        let chk = |t: ir::BlockId| -> Result<u32, DecodeError> {
            if t.0 < nblocks {
                Ok(t.0)
            } else {
                Err(err(f, format!("jump to missing block {}", t.0)))
            }
        };
        let this = block_start.len() as u32 - 1;
        if let Terminator::Jump(t) = &b.term {
            if let Some(l) = entry_of(bi, *t) {
                dec.push(Op::LoopEnter(l), b.term_loc);
            }
        }
        let mut edge = |t: ir::BlockId| -> Result<u32, DecodeError> {
            let id = chk(t)?;
            Ok(match entry_of(bi, t) {
                Some(l) => {
                    stubs.push((l, id));
                    nblocks + stubs.len() as u32 - 1
                }
                None => id,
            })
        };
        let op = match &b.term {
            // Falling through to the next block needs no op.
            Terminator::Jump(t) if chk(*t)? == this + 1 => continue,
            Terminator::Jump(t) => Op::Jump(chk(*t)?),
            Terminator::Branch { cond, then, els } => Op::Br {
                c: dec.reg(*cond, 1)?,
                t: edge(*then)?,
                f: edge(*els)?,
            },
            Terminator::Switch {
                value,
                cases,
                default,
            } => {
                let mut cs = Vec::with_capacity(cases.len());
                for (v, t) in cases {
                    cs.push((*v, chk(*t)?));
                }
                dec.code.switches.push(SwitchX {
                    v: dec.reg(*value, 1)?,
                    cases: cs,
                    default: chk(*default)?,
                });
                Op::Switch(dec.code.switches.len() as u32 - 1)
            }
            Terminator::Return => Op::Ret,
            Terminator::Unreachable => Op::Unreachable,
        };
        for t in forwarded.drain(..) {
            dec.alias[t as usize] = NONE;
        }
        // Fuse `c = a < b; branch c` when the branch is the compare's only reader.
        let op = match op {
            Op::Br { c, t, f }
                if reads.get(c as usize) == Some(&1) && dec.code.ops.len() > dec.block_first =>
            {
                match dec.code.ops.last().copied() {
                    Some(Op::CmpS { op, d, a, b }) if d == c => {
                        dec.code.ops.pop();
                        dec.code.locs.pop();
                        Op::BrCmpS { op, a, b, t, f }
                    }
                    Some(Op::CmpU { op, d, a, b }) if d == c => {
                        dec.code.ops.pop();
                        dec.code.locs.pop();
                        Op::BrCmpU { op, a, b, t, f }
                    }
                    _ => op,
                }
            }
            o => o,
        };
        if matches!(
            op,
            Op::Jump(_) | Op::Br { .. } | Op::BrCmpS { .. } | Op::BrCmpU { .. }
        ) {
            dec.fixups.push(dec.code.ops.len());
        }
        dec.push(op, b.term_loc);
    }
    // Loop-entry stubs after all blocks.
    let mut stub_start = Vec::with_capacity(stubs.len());
    for &(l, header) in &stubs {
        stub_start.push(dec.code.ops.len() as u32);
        dec.push(Op::LoopEnter(l), f.loc);
        dec.push(Op::Jump(block_start[header as usize]), f.loc);
    }
    let target = |t: u32| -> u32 {
        if t < nblocks {
            block_start[t as usize]
        } else {
            stub_start[(t - nblocks) as usize]
        }
    };
    // Resolve block ids to op indices.
    for &i in &dec.fixups {
        dec.code.ops[i] = match dec.code.ops[i] {
            Op::Jump(t) => Op::Jump(target(t)),
            Op::Br { c, t, f } => Op::Br {
                c,
                t: target(t),
                f: target(f),
            },
            Op::BrCmpS { op, a, b, t, f } => Op::BrCmpS {
                op,
                a,
                b,
                t: target(t),
                f: target(f),
            },
            Op::BrCmpU { op, a, b, t, f } => Op::BrCmpU {
                op,
                a,
                b,
                t: target(t),
                f: target(f),
            },
            o => o,
        };
    }
    for s in &mut dec.code.switches {
        s.default = block_start[s.default as usize];
        for c in &mut s.cases {
            c.1 = block_start[c.1 as usize];
        }
    }
    Ok(dec.code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fpgacl_kernel_compiler::SourceFile;

    fn compile(src: &str) -> Module {
        let out = fpgacl_kernel_compiler::build(
            &[SourceFile {
                name: "t.cl".into(),
                text: src.into(),
            }],
            "",
        )
        .unwrap();
        (*out.module.unwrap_or_else(|| panic!("{}", out.log))).clone()
    }

    #[test]
    fn peepholes_shrink_common_kernels() {
        let m = compile(
            "__kernel void va(__global const float *x, __global const float *y, __global float *z) {\n\
               int i = get_global_id(0);\n  z[i] = x[i] + y[i];\n}\n\
             __kernel void acc(__global const float *a, __global float *out, int n) {\n\
               float s = 0.0f;\n  for (int i = 0; i < n; i++) s += a[i];\n  out[0] = s;\n}\n",
        );
        let va = decode(&m, &m.kernels[0]).unwrap();
        // work-item id, int conversion, two fused loads, add, fused store, return
        assert!(va.ops.len() <= 8, "{:?}", va.ops);
        assert_eq!(
            va.ops
                .iter()
                .filter(|o| matches!(o, Op::LoadIdx { .. }))
                .count(),
            2
        );
        assert!(va.ops.iter().any(|o| matches!(o, Op::StoreIdx { .. })));
        assert!(va.ops.iter().any(|o| matches!(o, Op::WorkItemC { .. })));
        let acc = decode(&m, &m.kernels[1]).unwrap();
        // the loop body: header count, fused compare-branch, fused load, add, increment, jump
        let head = acc
            .ops
            .iter()
            .position(|o| matches!(o, Op::LoopHead(_)))
            .unwrap();
        assert!(
            matches!(acc.ops[head + 1], Op::BrCmpS { .. }),
            "{:?}",
            acc.ops
        );
        let Op::BrCmpS { t, f, .. } = acc.ops[head + 1] else {
            unreachable!()
        };
        let body = (t as usize).min(f as usize);
        let body_len = acc.ops[body..]
            .iter()
            .position(|o| matches!(o, Op::Jump(_)))
            .unwrap();
        assert!(body_len <= 3, "{:?}", &acc.ops[body..]);
        assert!(!acc.const_init.is_empty());
    }
}
