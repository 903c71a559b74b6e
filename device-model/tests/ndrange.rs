//! NDRange execution with hand-built IR: vector add, 1 vs N threads, counters, barriers and
//! local memory, faults, atomics, printf, async copies.

mod common;
use common::*;
use fpgacl_device_model::*;
use fpgacl_kernel_compiler::ir::*;

fn vector_add(mb: &mut ModB) -> u32 {
    let k = mb.m.kernels.len() as u32;
    let (sa, sb, sc) = (
        mb.site(k, SiteKind::Load, AddrSpace::Global, "a", 3),
        mb.site(k, SiteKind::Load, AddrSpace::Global, "b", 3),
        mb.site(k, SiteKind::Store, AddrSpace::Global, "c", 3),
    );
    let mut b = FnB::new("vector_add");
    let a = b.arg_buffer("a", 4);
    let bb = b.arg_buffer("b", 4);
    let c = b.arg_buffer("c", 4);
    b.at(3);
    let i = b.gid(0);
    let pa = b.index(a, i, 4);
    let x = b.load(F32, pa, AddrSpace::Global, Some(sa));
    let pb = b.index(bb, i, 4);
    let y = b.load(F32, pb, AddrSpace::Global, Some(sb));
    let s = b.bin(BinOp::Add, F32, x, y);
    let pc = b.index(c, i, 4);
    b.store(F32, s, pc, AddrSpace::Global, Some(sc));
    mb.kernel(b.finish())
}

fn run_vadd(n: usize, threads: usize, local: Option<u64>) -> (Vec<f32>, RunReport) {
    let mut mb = ModB::new();
    let k = vector_add(&mut mb);
    let (inst, _) = mb.instance(threads);
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..n).map(|i| (n - i) as f32 * 0.25).collect();
    let (ma, mb_, mc) = (buf_from(&a), buf_from(&b), buf_from(&vec![0f32; n]));
    let r = inst
        .run(&LaunchSpec::ndrange_1d(
            k,
            n as u64,
            local,
            vec![
                ArgBinding::buffer(&ma),
                ArgBinding::buffer(&mb_),
                ArgBinding::buffer(&mc),
            ],
        ))
        .unwrap();
    let c = read_vec::<f32>(&mc, n);
    for i in 0..n {
        assert_eq!(c[i], a[i] + b[i], "element {i}");
    }
    (c, r)
}

#[test]
fn vector_add_correct_and_thread_count_independent() {
    let (c1, r1) = run_vadd(10_000, 1, None);
    let (c4, r4) = run_vadd(10_000, 4, None);
    assert_eq!(c1, c4);
    assert_eq!(
        r1.counters, r4.counters,
        "counters must not depend on threads"
    );
    assert_eq!(r4.threads, 4);
    assert_eq!(r1.work_items, 10_000);
    // every site fired once per work-item, 4 bytes each, sequential within groups
    for s in &r1.counters.sites {
        assert_eq!(s.fires, 10_000);
        assert_eq!(s.bytes, 40_000);
        let groups = r1.num_groups[0];
        assert_eq!(s.sequential, 10_000 - groups);
        assert_eq!(s.unaligned, 0);
    }
    // chosen local size divides the global size
    assert_eq!(10_000 % r1.local_size[0], 0);
}

#[test]
fn explicit_local_size_validation() {
    let mut mb = ModB::new();
    let k = vector_add(&mut mb);
    let (inst, _) = mb.instance(2);
    let m = buf_from(&[0f32; 16]);
    let args = vec![
        ArgBinding::buffer(&m),
        ArgBinding::buffer(&m),
        ArgBinding::buffer(&m),
    ];
    let e = inst
        .run(&LaunchSpec::ndrange_1d(k, 16, Some(5), args.clone()))
        .unwrap_err();
    assert!(
        matches!(e, RunError::Launch(LaunchError::WorkGroupSize(_))),
        "{e}"
    );
    let e = inst
        .run(&LaunchSpec::ndrange_1d(k, 16, Some(4), args[..2].to_vec()))
        .unwrap_err();
    assert!(
        matches!(e, RunError::Launch(LaunchError::Arg { .. })),
        "{e}"
    );
    let mut bad_dim = LaunchSpec::ndrange_1d(k, 16, None, args.clone());
    bad_dim.work_dim = 4;
    assert!(matches!(
        inst.run(&bad_dim),
        Err(RunError::Launch(LaunchError::WorkDim(4)))
    ));
    inst.run(&LaunchSpec::ndrange_1d(k, 16, Some(4), args))
        .unwrap();
}

#[test]
fn three_d_ids_and_offsets() {
    // out[gz][gy][gx] = gx + 100*gy + 10000*gz, with global offsets and local/group ids
    let mut mb = ModB::new();
    let mut b = FnB::new("ids");
    let out = b.arg_buffer("out", 8);
    let gx = b.gid(0);
    let gy = b.gid(1);
    let gz = b.gid(2);
    let h = b.long(100);
    let t = b.long(10_000);
    let y = b.bin(BinOp::Mul, U64, gy, h);
    let z = b.bin(BinOp::Mul, U64, gz, t);
    let v = b.bin(BinOp::Add, U64, gx, y);
    let v = b.bin(BinOp::Add, U64, v, z);
    // linear index relative to the offset: (gz-oz)*sx*sy + (gy-oy)*sx + (gx-ox)
    let ox = b.wi(WorkItemFn::GlobalOffset, 0);
    let oy = b.wi(WorkItemFn::GlobalOffset, 1);
    let oz = b.wi(WorkItemFn::GlobalOffset, 2);
    let sx = b.wi(WorkItemFn::GlobalSize, 0);
    let sy = b.wi(WorkItemFn::GlobalSize, 1);
    let rx = b.bin(BinOp::Sub, U64, gx, ox);
    let ry = b.bin(BinOp::Sub, U64, gy, oy);
    let rz = b.bin(BinOp::Sub, U64, gz, oz);
    let sxy = b.bin(BinOp::Mul, U64, sx, sy);
    let a = b.bin(BinOp::Mul, U64, rz, sxy);
    let c = b.bin(BinOp::Mul, U64, ry, sx);
    let lin = b.bin(BinOp::Add, U64, a, c);
    let lin = b.bin(BinOp::Add, U64, lin, rx);
    let p = b.index(out, lin, 8);
    b.store(U64, v, p, AddrSpace::Global, None);
    let k = mb.kernel(b.finish());
    for threads in [1, 3] {
        let (inst, _) = ModB { m: mb.m.clone() }.instance(threads);
        let m = buf_from(&[0u64; 4 * 6 * 2]);
        let r = inst
            .run(&LaunchSpec {
                kernel: k,
                work_dim: 3,
                global_offset: [1, 2, 3],
                global_size: [4, 6, 2],
                local_size: Some([2, 3, 1]),
                args: vec![ArgBinding::buffer(&m)],
            })
            .unwrap();
        assert_eq!(r.num_groups, [2, 2, 2]);
        let v = read_vec::<u64>(&m, 48);
        for z in 0..2u64 {
            for y in 0..6u64 {
                for x in 0..4u64 {
                    let i = (z * 24 + y * 4 + x) as usize;
                    assert_eq!(v[i], (x + 1) + 100 * (y + 2) + 10_000 * (z + 3));
                }
            }
        }
    }
}

/// Barrier + local memory tree reduction; `local_arg` selects a __local pointer argument
/// instead of a kernel-scope __local array.
fn reduction_kernel(mb: &mut ModB, l: u32, local_arg: bool) -> u32 {
    let mut b = FnB::new("reduce");
    let input = b.arg_buffer("in", 4);
    let out = b.arg_buffer("out", 4);
    let tmp = if local_arg {
        b.arg_local("scratch", 4)
    } else {
        b.f.local_size = l * 4;
        let r = b.reg(1);
        b.push(Inst::LocalAddr { dst: r, offset: 0 });
        r
    };
    let gid = b.gid(0);
    let lid = b.lid(0);
    let pin = b.index(input, gid, 4);
    let x = b.load(F32, pin, AddrSpace::Global, None);
    let pl = b.index(tmp, lid, 4);
    b.store(F32, x, pl, AddrSpace::Local, None);
    b.at(10);
    b.push(Inst::Barrier { flags: 1 });
    let stride = b.reg(1);
    let half = b.long((l / 2) as i64);
    b.push(Inst::Mov {
        dst: stride,
        src: half,
        lanes: 1,
    });
    let header = b.block();
    let body = b.block();
    let add = b.block();
    let sync = b.block();
    let exit = b.block();
    let store = b.block();
    let done = b.block();
    b.jump(header);
    b.switch_to(header);
    let zero = b.long(0);
    let c = b.cmp(CmpOp::Gt, U64, stride, zero);
    b.branch(c, body, exit);
    b.switch_to(body);
    let c2 = b.cmp(CmpOp::Lt, U64, lid, stride);
    b.branch(c2, add, sync);
    b.switch_to(add);
    let j = b.bin(BinOp::Add, U64, lid, stride);
    let pj = b.index(tmp, j, 4);
    let v1 = b.load(F32, pl, AddrSpace::Local, None);
    let v2 = b.load(F32, pj, AddrSpace::Local, None);
    let s = b.bin(BinOp::Add, F32, v1, v2);
    b.store(F32, s, pl, AddrSpace::Local, None);
    b.jump(sync);
    b.switch_to(sync);
    b.at(20);
    b.push(Inst::Barrier { flags: 1 });
    let one = b.long(1);
    let ns = b.bin(BinOp::Shr, U64, stride, one);
    b.push(Inst::Mov {
        dst: stride,
        src: ns,
        lanes: 1,
    });
    b.jump(header);
    b.switch_to(exit);
    let c3 = b.cmp(CmpOp::Eq, U64, lid, zero);
    b.branch(c3, store, done);
    b.switch_to(store);
    let grp = b.wi(WorkItemFn::GroupId, 0);
    let v = b.load(F32, tmp, AddrSpace::Local, None);
    let po = b.index(out, grp, 4);
    b.store(F32, v, po, AddrSpace::Global, None);
    b.jump(done);
    let mut f = b.finish();
    f.loops.push(LoopInfo {
        id: LoopId(0),
        kind: LoopKind::For,
        loc: loc(12),
        header,
        parent: None,
        pragmas: LoopPragmas::default(),
        const_trip_count: None,
    });
    f.blocks[header.0 as usize].loop_header = Some(LoopId(0));
    for blk in [header, body, add, sync] {
        f.blocks[blk.0 as usize].in_loop = Some(LoopId(0));
    }
    mb.kernel(f)
}

#[test]
fn barrier_local_memory_reduction() {
    for local_arg in [false, true] {
        for threads in [1, 2] {
            let mut mb = ModB::new();
            let k = reduction_kernel(&mut mb, 64, local_arg);
            let (inst, _) = mb.instance(threads);
            let n = 64 * 16;
            let data: Vec<f32> = (0..n).map(|i| (i % 13) as f32).collect();
            let min = buf_from(&data);
            let mout = buf_from(&[0f32; 16]);
            let mut args = vec![ArgBinding::buffer(&min), ArgBinding::buffer(&mout)];
            if local_arg {
                args.push(ArgBinding::Local(64 * 4));
            }
            let r = inst
                .run(&LaunchSpec::ndrange_1d(k, n as u64, Some(64), args))
                .unwrap();
            let out = read_vec::<f32>(&mout, 16);
            for g in 0..16 {
                let expect: f32 = data[g * 64..(g + 1) * 64].iter().sum();
                assert_eq!(out[g], expect, "group {g}");
            }
            // 7 loop header entries (strides 32..1 plus the exit test) per work-item
            assert_eq!(r.counters.loop_iterations, vec![7 * n as u64]);
            assert_eq!(r.counters.loop_entries, vec![n as u64]);
            assert_eq!(r.counters.loop_back_edges(0), 6 * n as u64);
        }
    }
}

#[test]
fn barrier_divergence_is_reported() {
    let mut mb = ModB::new();
    let mut b = FnB::new("diverge");
    let _out = b.arg_buffer("out", 4);
    let lid = b.lid(0);
    let zero = b.long(0);
    let c = b.cmp(CmpOp::Eq, U64, lid, zero);
    let t = b.block();
    let e = b.block();
    b.branch(c, t, e);
    b.switch_to(t);
    b.at(7);
    b.push(Inst::Barrier { flags: 1 });
    b.jump(e);
    let k = mb.kernel(b.finish());
    let (inst, _) = mb.instance(1);
    let m = buf_from(&[0f32; 4]);
    let err = inst
        .run(&LaunchSpec::ndrange_1d(
            k,
            8,
            Some(4),
            vec![ArgBinding::buffer(&m)],
        ))
        .unwrap_err();
    let RunError::Fault(f) = err else {
        panic!("expected a fault")
    };
    assert!(matches!(f.kind, FaultKind::BarrierDivergence { .. }), "{f}");
    assert_eq!(f.pos.as_ref().unwrap().line, 7);
}

fn fault_of(r: Result<RunReport, RunError>) -> KernelFault {
    match r {
        Err(RunError::Fault(f)) => *f,
        other => panic!("expected a fault, got {other:?}"),
    }
}

#[test]
fn out_of_bounds_global_read_names_buffer_line_and_offset() {
    let mut mb = ModB::new();
    let k = vector_add(&mut mb);
    let (inst, _) = mb.instance(2);
    let small = buf_from(&[0f32; 8]);
    let big = buf_from(&[0f32; 16]);
    let f = fault_of(inst.run(&LaunchSpec::ndrange_1d(
        k,
        16,
        Some(4),
        vec![
            ArgBinding::buffer(&big),
            ArgBinding::buffer(&small),
            ArgBinding::buffer(&big),
        ],
    )));
    assert_eq!(f.kernel, "vector_add");
    assert_eq!(f.target.as_deref(), Some("b"));
    assert_eq!(f.pos.as_ref().unwrap().line, 3);
    assert_eq!(f.work_item, [8, 0, 0]);
    match &f.kind {
        FaultKind::OutOfBounds {
            region,
            offset,
            size,
            limit,
            write,
        } => {
            assert_eq!(*region, MemRegion::Arg { index: 1 });
            assert_eq!((*offset, *size, *limit, *write), (32, 4, 32, false));
        }
        k => panic!("{k:?}"),
    }
    let msg = f.to_string();
    assert!(
        msg.contains("test.cl:3:5") && msg.contains("'b'") && msg.contains("offset 32"),
        "{msg}"
    );
    // sub-buffer bounds: a 4-element window of a 16-element buffer
    let f = fault_of(inst.run(&LaunchSpec::ndrange_1d(
        k,
        8,
        None,
        vec![
            ArgBinding::buffer(&big),
            ArgBinding::Buffer {
                mem: Some(big.clone()),
                offset: 16,
                len: 16,
            },
            ArgBinding::buffer(&big),
        ],
    )));
    assert!(
        matches!(f.kind, FaultKind::OutOfBounds { offset: 16, .. }),
        "{f}"
    );
    // NULL buffer
    let f = fault_of(inst.run(&LaunchSpec::ndrange_1d(
        k,
        4,
        None,
        vec![
            ArgBinding::Buffer {
                mem: None,
                offset: 0,
                len: 0,
            },
            ArgBinding::buffer(&big),
            ArgBinding::buffer(&big),
        ],
    )));
    assert!(
        matches!(f.kind, FaultKind::OutOfBounds { limit: 0, .. }),
        "{f}"
    );
}

#[test]
fn private_local_null_faults_and_division_runs() {
    // private: int a[4]; a[idx] = 1 with idx = 4
    let mut mb = ModB::new();
    let mut b = FnB::new("priv");
    let idx = b.arg_value("idx", I32);
    b.f.frame_size = 16;
    let fr = b.reg(1);
    b.push(Inst::FrameAddr { dst: fr, offset: 0 });
    let p = b.index(fr, idx, 4);
    let one = b.int(1);
    b.at(9);
    b.store(I32, one, p, AddrSpace::Private, None);
    let kp = mb.kernel(b.finish());
    // local: __local int t[4]; t[idx] read
    let mut b = FnB::new("loc");
    let idx = b.arg_value("idx", I32);
    b.f.local_size = 16;
    let lr = b.reg(1);
    b.push(Inst::LocalAddr { dst: lr, offset: 0 });
    let p = b.index(lr, idx, 4);
    b.load(I32, p, AddrSpace::Local, None);
    let kl = mb.kernel(b.finish());
    // null: *(int*)0
    let mut b = FnB::new("null");
    let _idx = b.arg_value("idx", I32);
    let z = b.konst(U64, &[0]);
    b.load(I32, z, AddrSpace::Global, None);
    let kn = mb.kernel(b.finish());
    // division: 7 / idx, and INT_MIN / -1
    let mut b = FnB::new("div");
    let idx = b.arg_value("idx", I32);
    let seven = b.int(i32::MIN as i64);
    b.at(4);
    b.bin(BinOp::Div, I32, seven, idx);
    let kd = mb.kernel(b.finish());
    let (inst, _) = mb.instance(1);
    let run = |k: u32, idx: i32| {
        inst.run(&LaunchSpec::task(
            k,
            vec![ArgBinding::Value(idx.to_le_bytes().to_vec())],
        ))
    };
    run(kp, 3).unwrap();
    let f = fault_of(run(kp, 4));
    assert!(
        matches!(
            f.kind,
            FaultKind::OutOfBounds {
                region: MemRegion::Private,
                offset: 16,
                write: true,
                ..
            }
        ),
        "{f}"
    );
    assert_eq!(f.pos.unwrap().line, 9);
    let f = fault_of(run(kp, -1));
    assert!(
        matches!(f.kind, FaultKind::OutOfBounds { offset: -4, .. }),
        "{f}"
    );
    run(kl, 3).unwrap();
    let f = fault_of(run(kl, 4));
    assert!(
        matches!(
            f.kind,
            FaultKind::OutOfBounds {
                region: MemRegion::Local,
                ..
            }
        ),
        "{f}"
    );
    let f = fault_of(run(kn, 0));
    assert!(
        matches!(
            f.kind,
            FaultKind::OutOfBounds {
                region: MemRegion::Null,
                ..
            }
        ),
        "{f}"
    );
    assert!(f.to_string().contains("NULL"));
    // Integer division by zero and MIN / -1 are unspecified values in OpenCL C, not faults.
    run(kd, 0).unwrap();
    run(kd, -1).unwrap();
    run(kd, 2).unwrap();
}

#[test]
fn global_and_local_atomics_across_threads() {
    let mut mb = ModB::new();
    let k = mb.m.kernels.len() as u32;
    let site = mb.site(k, SiteKind::Atomic, AddrSpace::Global, "counter", 5);
    let lsite = mb.site(k, SiteKind::Atomic, AddrSpace::Local, "lc", 6);
    let mut b = FnB::new("count");
    let counter = b.arg_buffer("counter", 4);
    let gid = b.gid(0);
    let one = b.int(1);
    let old = b.reg(1);
    b.push(Inst::Atomic {
        op: AtomicOp::Add,
        ty: U32,
        dst: old,
        addr: counter,
        a: one,
        b: one,
        space: AddrSpace::Global,
        site,
    });
    // max of gid into counter[1]
    let c1 = b.konst(U64, &[4]);
    let p1 = b.index(counter, c1, 1);
    let o2 = b.reg(1);
    b.push(Inst::Atomic {
        op: AtomicOp::Max,
        ty: U32,
        dst: o2,
        addr: p1,
        a: gid,
        b: gid,
        space: AddrSpace::Global,
        site,
    });
    // local counter then barrier, lid 0 adds the local total into counter[2]
    b.f.local_size = 4;
    let lp = b.reg(1);
    b.push(Inst::LocalAddr { dst: lp, offset: 0 });
    let o3 = b.reg(1);
    b.push(Inst::Atomic {
        op: AtomicOp::Inc,
        ty: U32,
        dst: o3,
        addr: lp,
        a: one,
        b: one,
        space: AddrSpace::Local,
        site: lsite,
    });
    b.push(Inst::Barrier { flags: 1 });
    let lid = b.lid(0);
    let zero = b.long(0);
    let c = b.cmp(CmpOp::Eq, U64, lid, zero);
    let t = b.block();
    let e = b.block();
    b.branch(c, t, e);
    b.switch_to(t);
    let tot = b.load(U32, lp, AddrSpace::Local, None);
    let c2 = b.konst(U64, &[8]);
    let p2 = b.index(counter, c2, 1);
    let o4 = b.reg(1);
    b.push(Inst::Atomic {
        op: AtomicOp::Add,
        ty: U32,
        dst: o4,
        addr: p2,
        a: tot,
        b: tot,
        space: AddrSpace::Global,
        site,
    });
    b.jump(e);
    let k = mb.kernel(b.finish());
    let (inst, _) = mb.instance(4);
    let m = buf_from(&[0u32; 3]);
    let r = inst
        .run(&LaunchSpec::ndrange_1d(
            k,
            40_000,
            Some(100),
            vec![ArgBinding::buffer(&m)],
        ))
        .unwrap();
    assert_eq!(read_vec::<u32>(&m, 3), vec![40_000, 39_999, 40_000]);
    assert_eq!(r.counters.sites[0].fires, 80_000 + 400);
    assert_eq!(r.counters.sites[1].fires, 40_000);
    // misaligned atomic faults
    let mut mb = ModB::new();
    let mut b = FnB::new("mis");
    let c = b.arg_buffer("c", 4);
    let two = b.konst(U64, &[2]);
    let p = b.index(c, two, 1);
    let o = b.reg(1);
    b.push(Inst::Atomic {
        op: AtomicOp::Add,
        ty: U32,
        dst: o,
        addr: p,
        a: two,
        b: two,
        space: AddrSpace::Global,
        site: SiteId(0),
    });
    mb.site(0, SiteKind::Atomic, AddrSpace::Global, "c", 1);
    let k = mb.kernel(b.finish());
    let (inst, _) = mb.instance(1);
    let f = fault_of(inst.run(&LaunchSpec::task(k, vec![ArgBinding::buffer(&m)])));
    assert!(
        matches!(f.kind, FaultKind::MisalignedAtomic { offset: 2, .. }),
        "{f}"
    );
}

#[test]
fn printf_output_in_work_item_order() {
    let mut mb = ModB::new();
    let fmt = mb.string("gid=%d v=%v2hlf\n");
    let mut b = FnB::new("hello");
    let gid = b.gid(0);
    let g32 = b.reg(1);
    b.push(Inst::Convert {
        from: U64,
        to: I32,
        sat: false,
        rounding: Rounding::Default,
        dst: g32,
        src: gid,
    });
    let v = b.konst(
        ValTy::vector(Scalar::F32, 2),
        &[1.5f32.to_bits() as u64, (-2.0f32).to_bits() as u64],
    );
    let d = b.reg(1);
    b.push(Inst::Printf {
        fmt,
        args: vec![(g32, I32), (v, ValTy::vector(Scalar::F32, 2))],
        dst: d,
    });
    let k = mb.kernel(b.finish());
    let mut expect = String::new();
    for i in 0..12 {
        expect.push_str(&format!("gid={i} v=1.500000,-2.000000\n"));
    }
    for threads in [1, 3] {
        let (inst, out) = ModB { m: mb.m.clone() }.instance(threads);
        inst.run(&LaunchSpec::ndrange_1d(k, 12, Some(2), vec![]))
            .unwrap();
        assert_eq!(String::from_utf8(out.lock().clone()).unwrap(), expect);
    }
}

#[test]
fn async_copy_to_local_and_back() {
    // each group copies 8 elements (stride 2) of `in` into local, waits, then copies them
    // contiguously to out.
    let mut mb = ModB::new();
    let mut b = FnB::new("acopy");
    let input = b.arg_buffer("in", 4);
    let out = b.arg_buffer("out", 4);
    b.f.local_size = 32;
    let lp = b.reg(1);
    b.push(Inst::LocalAddr { dst: lp, offset: 0 });
    let grp = b.wi(WorkItemFn::GroupId, 0);
    let sixteen = b.long(16);
    let base = b.bin(BinOp::Mul, U64, grp, sixteen);
    let src = b.index(input, base, 4);
    let count = b.long(8);
    let stride = b.long(2);
    let ev = b.reg(1);
    b.push(Inst::AsyncCopy {
        dst: lp,
        src,
        count,
        stride: Some(stride),
        elem_bytes: 4,
        event: ev,
        to_local: true,
        site: None,
    });
    b.push(Inst::WaitGroupEvents);
    let eight = b.long(8);
    let obase = b.bin(BinOp::Mul, U64, grp, eight);
    let dst = b.index(out, obase, 4);
    let ev2 = b.reg(1);
    b.push(Inst::AsyncCopy {
        dst,
        src: lp,
        count,
        stride: None,
        elem_bytes: 4,
        event: ev2,
        to_local: false,
        site: None,
    });
    b.push(Inst::WaitGroupEvents);
    let k = mb.kernel(b.finish());
    let (inst, _) = mb.instance(2);
    let data: Vec<i32> = (0..64).collect();
    let mi = buf_from(&data);
    let mo = buf_from(&[0i32; 32]);
    inst.run(&LaunchSpec::ndrange_1d(
        k,
        16,
        Some(4),
        vec![ArgBinding::buffer(&mi), ArgBinding::buffer(&mo)],
    ))
    .unwrap();
    let expect: Vec<i32> = (0..32).map(|i| (i / 8) * 16 + (i % 8) * 2).collect();
    assert_eq!(read_vec::<i32>(&mo, 32), expect);
}

#[test]
fn single_work_item_loop_and_struct_argument() {
    // struct { int n; float scale; } p; sum = 0; for (i = 0; i < p.n; i++) sum += a[i] * p.scale;
    let mut mb = ModB::new();
    let mut b = FnB::new("acc");
    let a = b.arg_buffer("a", 4);
    let out = b.arg_buffer("out", 4);
    let p = b.reg(1);
    b.f.args.push(KernelArg {
        name: "p".into(),
        type_name: "struct params".into(),
        address: ArgAddress::Private,
        access: ArgAccess::None,
        is_const: false,
        is_restrict: false,
        is_volatile: false,
        is_pipe: false,
        kind: ArgKind::ByValue {
            size: 8,
            align: 4,
            frame_offset: 0,
        },
        size: 8,
        reg: p,
    });
    b.f.frame_size = 8;
    b.f.single_work_item = true;
    let n = b.load(I32, p, AddrSpace::Private, None);
    let four = b.long(4);
    let ps = b.reg(1);
    b.push(Inst::PtrAdd {
        dst: ps,
        base: p,
        index: None,
        scale: 1,
        disp: 4,
    });
    let _ = four;
    let scale = b.load(F32, ps, AddrSpace::Private, None);
    let i = b.int(0);
    let sum = b.float(0.0);
    let header = b.block();
    let body = b.block();
    let exit = b.block();
    b.jump(header);
    b.switch_to(header);
    let c = b.cmp(CmpOp::Lt, I32, i, n);
    b.branch(c, body, exit);
    b.switch_to(body);
    let pa = b.index(a, i, 4);
    let x = b.load(F32, pa, AddrSpace::Global, None);
    let y = b.bin(BinOp::Mul, F32, x, scale);
    let s2 = b.bin(BinOp::Add, F32, sum, y);
    b.push(Inst::Mov {
        dst: sum,
        src: s2,
        lanes: 1,
    });
    let one = b.int(1);
    let i2 = b.bin(BinOp::Add, I32, i, one);
    b.push(Inst::Mov {
        dst: i,
        src: i2,
        lanes: 1,
    });
    b.jump(header);
    b.switch_to(exit);
    b.store(F32, sum, out, AddrSpace::Global, None);
    let mut f = b.finish();
    f.loops.push(LoopInfo {
        id: LoopId(0),
        kind: LoopKind::For,
        loc: loc(3),
        header,
        parent: None,
        pragmas: LoopPragmas::default(),
        const_trip_count: None,
    });
    f.blocks[header.0 as usize].loop_header = Some(LoopId(0));
    for blk in [header, body] {
        f.blocks[blk.0 as usize].in_loop = Some(LoopId(0));
    }
    let k = mb.kernel(f);
    let (inst, _) = mb.instance(2);
    let data: Vec<f32> = (0..100).map(|i| i as f32).collect();
    let ma = buf_from(&data);
    let mo = buf_from(&[0f32; 1]);
    let mut pbytes = 60i32.to_le_bytes().to_vec();
    pbytes.extend(0.5f32.to_le_bytes());
    let r = inst
        .run(&LaunchSpec::task(
            k,
            vec![
                ArgBinding::buffer(&ma),
                ArgBinding::buffer(&mo),
                ArgBinding::Value(pbytes),
            ],
        ))
        .unwrap();
    let mut expect = 0f32;
    for x in &data[..60] {
        expect += x * 0.5;
    }
    assert_eq!(read_vec::<f32>(&mo, 1)[0], expect);
    assert_eq!(r.counters.loop_iterations, vec![61]);
    assert_eq!(r.counters.loop_entries, vec![1]);
    assert_eq!(r.counters.loop_back_edges(0), 60);
}
