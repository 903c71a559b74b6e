//! A readable text dump of an [`ir::Module`] (`fpgacl aoc --dump-ir`, golden tests).

use crate::ir::*;
use crate::source::{Loc, SourceMap};
use std::fmt::Write as _;

fn ty(t: ValTy) -> String {
    let s = match t.scalar {
        Scalar::Bool => "bool",
        Scalar::I8 => "i8",
        Scalar::U8 => "u8",
        Scalar::I16 => "i16",
        Scalar::U16 => "u16",
        Scalar::I32 => "i32",
        Scalar::U32 => "u32",
        Scalar::I64 => "i64",
        Scalar::U64 => "u64",
        Scalar::F16 => "f16",
        Scalar::F32 => "f32",
        Scalar::F64 => "f64",
    };
    if t.lanes == 1 {
        s.to_string()
    } else {
        format!("{s}x{}", t.lanes)
    }
}

fn space(s: AddrSpace) -> &'static str {
    match s {
        AddrSpace::Private => "private",
        AddrSpace::Global => "global",
        AddrSpace::Constant => "constant",
        AddrSpace::Local => "local",
    }
}

fn r(x: Reg) -> String {
    format!("r{}", x.0)
}

fn site(s: Option<SiteId>) -> String {
    match s {
        Some(s) => format!(" @s{}", s.0),
        None => String::new(),
    }
}

fn lane_value(t: ValTy, bits: u64) -> String {
    match t.scalar {
        Scalar::F32 => format!("{:?}", f32::from_bits(bits as u32)),
        Scalar::F64 => format!("{:?}", f64::from_bits(bits)),
        Scalar::F16 => format!("h{bits:#06x}"),
        s if s.is_signed() => format!("{}", bits as i64),
        _ => format!("{bits}"),
    }
}

fn endpoint(ep: &Endpoint, m: &Module) -> String {
    match ep {
        Endpoint::Channel { id, index } => {
            let name = m
                .channels
                .get(id.0 as usize)
                .map_or("?", |c| c.name.as_str());
            match index {
                Some(i) => format!("channel {name}[{}]", r(*i)),
                None => format!("channel {name}"),
            }
        }
        Endpoint::Pipe { arg } => format!("pipe {}", r(*arg)),
    }
}

/// One instruction as text.
pub fn inst(i: &Inst, m: &Module) -> String {
    match i {
        Inst::Const { dst, ty: t, lanes } => {
            let v: Vec<String> = lanes.iter().map(|b| lane_value(*t, *b)).collect();
            format!("{}:{} = const {}", r(*dst), ty(*t), v.join(", "))
        }
        Inst::Mov { dst, src, lanes } => format!("{} = mov {} x{lanes}", r(*dst), r(*src)),
        Inst::Splat { dst, src, lanes } => format!("{} = splat {} x{lanes}", r(*dst), r(*src)),
        Inst::Shuffle { dst, src, idx } => {
            let v: Vec<String> = idx.iter().map(|i| i.to_string()).collect();
            format!("{} = shuffle {} [{}]", r(*dst), r(*src), v.join(","))
        }
        Inst::Unary {
            op,
            ty: t,
            dst,
            src,
        } => {
            let o = match op {
                UnOp::Neg => "neg",
                UnOp::Not => "not",
            };
            format!("{}:{} = {o} {}", r(*dst), ty(*t), r(*src))
        }
        Inst::Binary {
            op,
            ty: t,
            dst,
            a,
            b,
        } => {
            format!(
                "{}:{} = {} {}, {}",
                r(*dst),
                ty(*t),
                format!("{op:?}").to_lowercase(),
                r(*a),
                r(*b)
            )
        }
        Inst::Cmp {
            op,
            ty: t,
            dst_ty,
            dst,
            a,
            b,
        } => format!(
            "{}:{} = cmp.{} {} {}, {}",
            r(*dst),
            ty(*dst_ty),
            format!("{op:?}").to_lowercase(),
            ty(*t),
            r(*a),
            r(*b)
        ),
        Inst::Select {
            ty: t,
            dst,
            cond,
            a,
            b,
        } => {
            format!(
                "{}:{} = select {} ? {} : {}",
                r(*dst),
                ty(*t),
                r(*cond),
                r(*a),
                r(*b)
            )
        }
        Inst::Convert {
            from,
            to,
            sat,
            rounding,
            dst,
            src,
        } => {
            let mut s = format!(
                "{}:{} = convert {} {}",
                r(*dst),
                ty(*to),
                ty(*from),
                r(*src)
            );
            if *sat {
                s.push_str(" sat");
            }
            if *rounding != Rounding::Default {
                let _ = write!(s, " {}", format!("{rounding:?}").to_lowercase());
            }
            s
        }
        Inst::Bitcast { from, to, dst, src } => format!(
            "{}:{} = bitcast {} {}",
            r(*dst),
            ty(*to),
            ty(*from),
            r(*src)
        ),
        Inst::Builtin {
            f,
            ty: t,
            dst_ty,
            dst,
            args,
        } => {
            let n = f.arity();
            let a: Vec<String> = args[..n].iter().map(|x| r(*x)).collect();
            format!(
                "{}:{} = {:?}.{} {}",
                r(*dst),
                ty(*dst_ty),
                f,
                ty(*t),
                a.join(", ")
            )
        }
        Inst::BuiltinPtr {
            f,
            ty: t,
            dst,
            args,
            out_ptr,
            site: s,
        } => format!(
            "{}:{} = {:?} {}, {} -> [{}]{}",
            r(*dst),
            ty(*t),
            f,
            r(args[0]),
            r(args[1]),
            r(*out_ptr),
            site(*s)
        ),
        Inst::WorkItem { f, dst, dim } => format!("{} = {:?}({})", r(*dst), f, r(*dim)),
        Inst::FrameAddr { dst, offset } => format!("{} = frame+{offset}", r(*dst)),
        Inst::LocalAddr { dst, offset } => format!("{} = local+{offset}", r(*dst)),
        Inst::ConstAddr { dst, offset } => format!("{} = constdata+{offset}", r(*dst)),
        Inst::PtrAdd {
            dst,
            base,
            index,
            scale,
            disp,
        } => {
            let mut s = format!("{} = ptradd {}", r(*dst), r(*base));
            if let Some(i) = index {
                let _ = write!(s, " + {}*{scale}", r(*i));
            }
            if *disp != 0 {
                let _ = write!(s, " + {disp}");
            }
            s
        }
        Inst::Load {
            ty: t,
            dst,
            addr,
            space: sp,
            site: s,
        } => {
            format!(
                "{}:{} = load.{} [{}]{}",
                r(*dst),
                ty(*t),
                space(*sp),
                r(*addr),
                site(*s)
            )
        }
        Inst::Store {
            ty: t,
            src,
            addr,
            space: sp,
            site: s,
        } => {
            format!(
                "store.{}:{} [{}] = {}{}",
                space(*sp),
                ty(*t),
                r(*addr),
                r(*src),
                site(*s)
            )
        }
        Inst::Copy {
            dst,
            src,
            bytes,
            load_site,
            store_site,
        } => format!(
            "copy [{}] <- [{}] {bytes}B{}{}",
            r(*dst),
            r(*src),
            site(*load_site),
            site(*store_site)
        ),
        Inst::Atomic {
            op,
            ty: t,
            dst,
            addr,
            a,
            b,
            space: sp,
            site: s,
        } => format!(
            "{}:{} = atomic.{}.{} [{}], {}, {}{}",
            r(*dst),
            ty(*t),
            format!("{op:?}").to_lowercase(),
            space(*sp),
            r(*addr),
            r(*a),
            r(*b),
            site(Some(*s))
        ),
        Inst::FifoRead {
            ep,
            dst_ptr,
            bytes,
            blocking,
            status,
            site: s,
        } => format!(
            "read{} {} -> [{}] {bytes}B{}{}",
            if *blocking { "" } else { ".nb" },
            endpoint(ep, m),
            r(*dst_ptr),
            status
                .map(|x| format!(" status {}", r(x)))
                .unwrap_or_default(),
            site(Some(*s))
        ),
        Inst::FifoWrite {
            ep,
            src_ptr,
            bytes,
            blocking,
            status,
            site: s,
        } => format!(
            "write{} {} <- [{}] {bytes}B{}{}",
            if *blocking { "" } else { ".nb" },
            endpoint(ep, m),
            r(*src_ptr),
            status
                .map(|x| format!(" status {}", r(x)))
                .unwrap_or_default(),
            site(Some(*s))
        ),
        Inst::Barrier { flags } => format!("barrier {flags}"),
        Inst::AsyncCopy {
            dst,
            src,
            count,
            stride,
            elem_bytes,
            event,
            to_local,
            site: s,
        } => format!(
            "{} = async_copy{} [{}] <- [{}] count {}{} elem {elem_bytes}B{}",
            r(*event),
            if *to_local { ".to_local" } else { ".to_global" },
            r(*dst),
            r(*src),
            r(*count),
            stride
                .map(|x| format!(" stride {}", r(x)))
                .unwrap_or_default(),
            site(*s)
        ),
        Inst::WaitGroupEvents => "wait_group_events".into(),
        Inst::Printf { fmt, args, dst } => {
            let f = m.strings.get(fmt.0 as usize).map_or("?", |s| s.as_str());
            let a: Vec<String> = args
                .iter()
                .map(|(x, t)| format!("{}:{}", r(*x), ty(*t)))
                .collect();
            format!("{} = printf {:?} ({})", r(*dst), f, a.join(", "))
        }
        Inst::ImageRead {
            family,
            dst,
            img,
            sampler,
            coord,
            coord_ty,
            site: s,
        } => format!(
            "{}:{}x4 = read_image [{}]{} at {}:{}{}",
            r(*dst),
            family.c_name(),
            r(*img),
            sampler
                .map(|x| format!(" sampler {}", r(x)))
                .unwrap_or_default(),
            r(*coord),
            ty(*coord_ty),
            site(Some(*s))
        ),
        Inst::ImageWrite {
            family,
            img,
            coord,
            coord_lanes,
            src,
            site: s,
        } => format!(
            "write_image [{}] at {}:intx{coord_lanes} = {}:{}x4{}",
            r(*img),
            r(*coord),
            r(*src),
            family.c_name(),
            site(Some(*s))
        ),
        Inst::ImageQuery { q, dst, img, lanes } => {
            format!("{}:intx{lanes} = image_query.{q:?} [{}]", r(*dst), r(*img))
        }
    }
}

fn loc(l: Loc, sm: &SourceMap) -> String {
    format!("{}:{}:{}", sm.name(l.file), l.line, l.col)
}

fn term(t: &Terminator) -> String {
    match t {
        Terminator::Jump(b) => format!("jump b{}", b.0),
        Terminator::Branch { cond, then, els } => {
            format!("branch {} ? b{} : b{}", r(*cond), then.0, els.0)
        }
        Terminator::Switch {
            value,
            cases,
            default,
        } => {
            let c: Vec<String> = cases
                .iter()
                .map(|(v, b)| format!("{} => b{}", *v as i64, b.0))
                .collect();
            format!(
                "switch {} [{}] default b{}",
                r(*value),
                c.join(", "),
                default.0
            )
        }
        Terminator::Return => "return".into(),
        Terminator::Unreachable => "unreachable".into(),
    }
}

fn pragmas(p: &LoopPragmas) -> String {
    let mut v = vec![];
    match p.unroll {
        Some(None) => v.push("unroll".to_string()),
        Some(Some(n)) => v.push(format!("unroll {n}")),
        None => {}
    }
    if let Some(iv) = &p.ivdep {
        let mut s = "ivdep".to_string();
        if let Some(a) = &iv.array {
            let _ = write!(s, " array({a})");
        }
        if let Some(n) = iv.safelen {
            let _ = write!(s, " safelen({n})");
        }
        v.push(s);
    }
    if let Some(n) = p.ii {
        v.push(format!("ii {n}"));
    }
    if let Some(n) = p.max_concurrency {
        v.push(format!("max_concurrency {n}"));
    }
    match p.loop_coalesce {
        Some(None) => v.push("loop_coalesce".into()),
        Some(Some(n)) => v.push(format!("loop_coalesce {n}")),
        None => {}
    }
    if p.disable_loop_pipelining {
        v.push("disable_loop_pipelining".into());
    }
    v.join(", ")
}

/// Dumps a whole module.
pub fn dump_module(m: &Module) -> String {
    let sm = &m.sources;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "module: {} kernel(s), {} channel(s), {} site(s), {} byte(s) of constant data",
        m.kernels.len(),
        m.channels.len(),
        m.sites.len(),
        m.constant_data.len()
    );
    for c in &m.channels {
        let dims: Vec<String> = c.dims.iter().map(|d| format!("[{d}]")).collect();
        let _ = writeln!(
            out,
            "channel {} {}{}: {}B depth {}{} at {}",
            c.elem_type,
            c.name,
            dims.join(""),
            c.elem_size,
            c.depth,
            c.io.as_ref()
                .map(|i| format!(" io({i:?})"))
                .unwrap_or_default(),
            loc(c.loc, sm)
        );
    }
    for (ki, k) in m.kernels.iter().enumerate() {
        out.push('\n');
        dump_kernel(&mut out, m, ki as u32, k);
    }
    out
}

fn dump_kernel(out: &mut String, m: &Module, ki: u32, k: &Function) {
    let sm = &m.sources;
    let _ = writeln!(
        out,
        "kernel {} at {} ({})",
        k.name,
        loc(k.loc, sm),
        if k.single_work_item {
            "single work-item"
        } else {
            "NDRange"
        }
    );
    let a = &k.attrs;
    let mut attrs = vec![];
    if let Some(r) = a.reqd_work_group_size {
        attrs.push(format!("reqd_work_group_size({},{},{})", r[0], r[1], r[2]));
    }
    if let Some(n) = a.max_work_group_size {
        attrs.push(format!("max_work_group_size({n})"));
    }
    if a.num_compute_units != [1, 1, 1] {
        let c = a.num_compute_units;
        attrs.push(format!("num_compute_units({},{},{})", c[0], c[1], c[2]));
    }
    if let Some(n) = a.num_simd_work_items {
        attrs.push(format!("num_simd_work_items({n})"));
    }
    if a.autorun {
        attrs.push("autorun".into());
    }
    if let Some(n) = a.max_global_work_dim {
        attrs.push(format!("max_global_work_dim({n})"));
    }
    if let Some(b) = a.uses_global_work_offset {
        attrs.push(format!("uses_global_work_offset({})", b as u32));
    }
    if a.task {
        attrs.push("task".into());
    }
    if let Some(t) = &a.vec_type_hint {
        attrs.push(format!("vec_type_hint({t})"));
    }
    if !attrs.is_empty() {
        let _ = writeln!(out, "  attributes: {}", attrs.join(" "));
    }
    for (i, arg) in k.args.iter().enumerate() {
        let mut q = vec![];
        if arg.is_const {
            q.push("const");
        }
        if arg.is_restrict {
            q.push("restrict");
        }
        if arg.is_volatile {
            q.push("volatile");
        }
        let kind = match &arg.kind {
            ArgKind::Value { ty: t } => format!("value {}", ty(*t)),
            ArgKind::Buffer {
                space: s,
                elem_size,
            } => format!("buffer {} elem {elem_size}B", space(*s)),
            ArgKind::LocalPtr { elem_size } => format!("local pointer elem {elem_size}B"),
            ArgKind::ByValue {
                size,
                align,
                frame_offset,
            } => {
                format!("by value {size}B align {align} at frame+{frame_offset}")
            }
            ArgKind::Pipe {
                packet_size,
                write,
                blocking,
            } => format!(
                "pipe {} packet {packet_size}B{}",
                if *write { "write" } else { "read" },
                if *blocking { " blocking" } else { "" }
            ),
            ArgKind::Image { dim, write } => {
                format!("image {dim:?} {}", if *write { "write" } else { "read" })
            }
            ArgKind::Sampler => "sampler".into(),
        };
        let _ = writeln!(
            out,
            "  arg {i} {}: '{}' {:?} {:?}{} -> {} (size {}) in {}",
            arg.name,
            arg.type_name,
            arg.address,
            arg.access,
            if q.is_empty() {
                String::new()
            } else {
                format!(" [{}]", q.join(" "))
            },
            kind,
            arg.size,
            r(arg.reg)
        );
    }
    let _ = writeln!(
        out,
        "  slots {}, frame {}B, local {}B{}{}",
        k.num_slots,
        k.frame_size,
        k.local_size,
        if k.uses_fifos { ", uses fifos" } else { "" },
        if k.uses_barrier { ", uses barrier" } else { "" }
    );
    if !k.reg_names.is_empty() {
        let v: Vec<String> = k
            .reg_names
            .iter()
            .map(|(x, t, n)| format!("{}:{} {n}", r(*x), ty(*t)))
            .collect();
        let _ = writeln!(out, "  vars: {}", v.join(", "));
    }
    for v in &k.mem_vars {
        let dims: String = v.dims.iter().map(|d| format!("[{d}]")).collect();
        let mut extra = vec![];
        if let Some(n) = v.numbanks {
            extra.push(format!("numbanks({n})"));
        }
        if !v.bank_bits.is_empty() {
            let b: Vec<String> = v.bank_bits.iter().map(|b| b.to_string()).collect();
            extra.push(format!("bank_bits({})", b.join(",")));
        }
        match v.pump {
            Some(1) => extra.push("singlepump".into()),
            Some(2) => extra.push("doublepump".into()),
            _ => {}
        }
        let _ = writeln!(
            out,
            "  memvar {}{} {} +{} {}B elem {}B{} at {}",
            v.name,
            dims,
            v.space.map_or("?", space),
            v.offset,
            v.size,
            v.elem_size,
            if extra.is_empty() {
                String::new()
            } else {
                format!(" [{}]", extra.join(" "))
            },
            loc(v.loc, sm)
        );
    }
    for l in &k.loops {
        let _ = writeln!(
            out,
            "  loop L{} {:?} at {} header b{}{}{}{}",
            l.id.0,
            l.kind,
            loc(l.loc, sm),
            l.header.0,
            l.parent
                .map(|p| format!(" in L{}", p.0))
                .unwrap_or_default(),
            l.const_trip_count
                .map(|n| format!(" trips {n}"))
                .unwrap_or_default(),
            {
                let p = pragmas(&l.pragmas);
                if p.is_empty() {
                    String::new()
                } else {
                    format!(" pragmas [{p}]")
                }
            }
        );
    }
    for (bi, b) in k.blocks.iter().enumerate() {
        let mut tags = vec![];
        if let Some(l) = b.loop_header {
            tags.push(format!("header of L{}", l.0));
        }
        if let Some(l) = b.in_loop {
            tags.push(format!("in L{}", l.0));
        }
        let _ = writeln!(
            out,
            "  b{bi}:{}",
            if tags.is_empty() {
                String::new()
            } else {
                format!("  ; {}", tags.join(", "))
            }
        );
        for (i, ins) in b.insts.iter().enumerate() {
            let l = b
                .locs
                .get(i)
                .map(|l| format!("{}:{}", l.line, l.col))
                .unwrap_or_default();
            let _ = writeln!(out, "    {:<60} ; {l}", inst(ins, m));
        }
        let _ = writeln!(out, "    {}", term(&b.term));
    }
    let sites: Vec<&AccessSite> = m.sites.iter().filter(|s| s.kernel == ki).collect();
    if !sites.is_empty() {
        let _ = writeln!(out, "  sites:");
        for s in sites {
            let _ = writeln!(
                out,
                "    s{} {:?} {} {}B '{}'{}{} at {}",
                s.id.0,
                s.kind,
                space(s.space),
                s.width,
                s.target,
                s.arg.map(|a| format!(" arg {a}")).unwrap_or_default(),
                s.in_loop
                    .map(|l| format!(" in L{}", l.0))
                    .unwrap_or_default(),
                loc(s.loc, sm)
            );
        }
    }
}
