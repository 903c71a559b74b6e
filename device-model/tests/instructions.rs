//! One test per instruction family, on hand-built single work-item kernels whose results are
//! stored as raw 64-bit slots.

mod common;
use common::*;
use fpgacl_device_model::*;
use fpgacl_kernel_compiler::ir::*;

/// Builds a task kernel with `build`, which returns registers (and lane counts) to dump; runs it
/// and returns the dumped slots in order.
fn eval(build: impl FnOnce(&mut FnB) -> Vec<(Reg, u8)>) -> Result<Vec<u64>, RunError> {
    let mut mb = ModB::new();
    let mut b = FnB::new("t");
    let out = b.arg_buffer("out", 8);
    let regs = build(&mut b);
    let mut k = 0u64;
    for (r, lanes) in regs {
        for l in 0..lanes {
            let idx = b.konst(U64, &[k]);
            let p = b.index(out, idx, 8);
            b.store(U64, r.lane(l as u32), p, AddrSpace::Global, None);
            k += 1;
        }
    }
    let kernel = mb.kernel(b.finish());
    let (inst, _) = mb.instance(1);
    let m = buf_from(&vec![0u64; k.max(1) as usize]);
    inst.run(&LaunchSpec::task(kernel, vec![ArgBinding::buffer(&m)]))?;
    Ok(read_vec::<u64>(&m, k as usize))
}

fn s(x: i64) -> u64 {
    x as u64
}
fn fb(x: f32) -> u64 {
    x.to_bits() as u64
}

#[test]
fn integer_arithmetic_wraps_at_width() {
    let ty8 = ValTy::scalar(Scalar::I8);
    let tu16 = ValTy::scalar(Scalar::U16);
    let v = eval(|b| {
        let a = b.konst(ty8, &[s(100)]);
        let c = b.konst(ty8, &[s(100)]);
        let r1 = b.bin(BinOp::Add, ty8, a, c); // 200 -> -56
        let x = b.konst(tu16, &[3]);
        let y = b.konst(tu16, &[5]);
        let r2 = b.bin(BinOp::Sub, tu16, x, y); // 65534
        let m = b.int(i32::MAX as i64);
        let two = b.int(2);
        let r3 = b.bin(BinOp::Mul, I32, m, two); // -2
        let sh = b.int(33);
        let one = b.int(1);
        let r4 = b.bin(BinOp::Shl, I32, one, sh); // shift modulo 32 -> 2
        let neg = b.int(-16);
        let r5 = b.bin(BinOp::Shr, I32, neg, two); // arithmetic -> -4
        let un = b.konst(U32, &[0xffff_fff0]);
        let r6 = b.bin(BinOp::Shr, U32, un, two); // logical
        let m7 = b.int(-7);
        let r7 = b.bin(BinOp::Div, I32, m7, two); // -3 (toward zero)
        let r8 = b.bin(BinOp::Rem, I32, m7, two); // -1
        let r9 = b.reg(1);
        b.push(Inst::Unary {
            op: UnOp::Not,
            ty: U32,
            dst: r9,
            src: un,
        });
        let r10 = b.reg(1);
        b.push(Inst::Unary {
            op: UnOp::Neg,
            ty: I32,
            dst: r10,
            src: m7,
        });
        let big = b.konst(U64, &[u64::MAX]);
        let r11 = b.bin(BinOp::Add, U64, big, big);
        let r12 = b.bin(BinOp::Xor, U32, un, un);
        vec![
            (r1, 1),
            (r2, 1),
            (r3, 1),
            (r4, 1),
            (r5, 1),
            (r6, 1),
            (r7, 1),
            (r8, 1),
            (r9, 1),
            (r10, 1),
            (r11, 1),
            (r12, 1),
        ]
    })
    .unwrap();
    assert_eq!(
        v,
        vec![
            s(-56),
            65534,
            s(-2),
            2,
            s(-4),
            0x3fff_fffc,
            s(-3),
            s(-1),
            0xf,
            7,
            u64::MAX - 1,
            0
        ]
    );
}

#[test]
fn vector_ops_compare_select_shuffle() {
    let i4 = ValTy::vector(Scalar::I32, 4);
    let f4 = ValTy::vector(Scalar::F32, 4);
    let v = eval(|b| {
        let a = b.konst(i4, &[s(1), s(-2), s(3), s(i32::MIN as i64)]);
        let c = b.konst(i4, &[s(1), s(5), s(-3), s(-1)]);
        let sum = b.bin(BinOp::Add, i4, a, c);
        let lt = b.cmp(CmpOp::Lt, i4, a, c); // -1/0 per lane
        let fa = b.konst(f4, &[fb(1.0), fb(f32::NAN), fb(-0.0), fb(2.5)]);
        let fc = b.konst(f4, &[fb(1.0), fb(1.0), fb(0.0), fb(0.5)]);
        let feq = b.cmp(CmpOp::Eq, f4, fa, fc);
        let fne = b.cmp(CmpOp::Ne, f4, fa, fc);
        let fm = b.bin(BinOp::Mul, f4, fa, fc);
        let sw = b.reg(4);
        b.push(Inst::Shuffle {
            dst: sw,
            src: a,
            idx: vec![3, 2, 1, 0],
        });
        // in-place overlapping shuffle (a.xxyy = a.wzyx style)
        b.push(Inst::Shuffle {
            dst: a,
            src: a,
            idx: vec![1, 1, 0, 0],
        });
        let sp = b.reg(4);
        let seven = b.int(7);
        b.push(Inst::Splat {
            dst: sp,
            src: seven,
            lanes: 4,
        });
        let one = b.int(1);
        let sel = b.reg(4);
        b.push(Inst::Select {
            ty: i4,
            dst: sel,
            cond: one,
            a: sp,
            b: c,
        });
        let scmp = b.cmp(CmpOp::Ge, I32, seven, one); // scalar: 1
        vec![
            (sum, 4),
            (lt, 4),
            (feq, 4),
            (fne, 4),
            (fm, 4),
            (sw, 4),
            (a, 4),
            (sel, 4),
            (scmp, 1),
        ]
    })
    .unwrap();
    assert_eq!(&v[0..4], &[2, 3, 0, s(i32::MAX as i64)]);
    assert_eq!(&v[4..8], &[0, u64::MAX, 0, u64::MAX]);
    assert_eq!(&v[8..12], &[u64::MAX, 0, u64::MAX, 0]);
    assert_eq!(&v[12..16], &[0, u64::MAX, 0, u64::MAX]);
    assert_eq!(f32::from_bits(v[16] as u32), 1.0);
    assert!(f32::from_bits(v[17] as u32).is_nan());
    assert_eq!(v[18] as u32, (-0.0f32).to_bits());
    assert_eq!(f32::from_bits(v[19] as u32), 1.25);
    assert_eq!(&v[20..24], &[s(i32::MIN as i64), s(3), s(-2), s(1)]);
    assert_eq!(&v[24..28], &[s(-2), s(-2), s(1), s(1)]);
    assert_eq!(&v[28..32], &[7, 7, 7, 7]);
    assert_eq!(v[32], 1);
}

#[test]
fn conversions_and_bitcasts() {
    let v = eval(|b| {
        let f = b.float(-3.75);
        let conv = |b: &mut FnB, from: ValTy, to: ValTy, sat: bool, r: Rounding, src: Reg| {
            let d = b.reg(to.lanes);
            b.push(Inst::Convert {
                from,
                to,
                sat,
                rounding: r,
                dst: d,
                src,
            });
            d
        };
        let c1 = conv(b, F32, I32, false, Rounding::Default, f); // -3
        let c2 = conv(b, F32, I32, false, Rounding::Rtn, f); // -4
        let c3 = conv(
            b,
            F32,
            ValTy::scalar(Scalar::U8),
            true,
            Rounding::Default,
            f,
        ); // 0 (sat)
        let big = b.int(300);
        let c4 = conv(
            b,
            I32,
            ValTy::scalar(Scalar::U8),
            false,
            Rounding::Default,
            big,
        ); // 44
        let c5 = conv(
            b,
            I32,
            ValTy::scalar(Scalar::I8),
            true,
            Rounding::Default,
            big,
        ); // 127
        let c6 = conv(b, F32, F64, false, Rounding::Default, f);
        let c7 = conv(b, I32, F32, false, Rounding::Default, big);
        let h = conv(
            b,
            F32,
            ValTy::scalar(Scalar::F16),
            false,
            Rounding::Default,
            f,
        );
        let bc = b.reg(1);
        b.push(Inst::Bitcast {
            from: F32,
            to: I32,
            dst: bc,
            src: f,
        });
        // as_char4(int) and back
        let word = b.int(0x80402010);
        let c4v = b.reg(4);
        b.push(Inst::Bitcast {
            from: I32,
            to: ValTy::vector(Scalar::I8, 4),
            dst: c4v,
            src: word,
        });
        let back = b.reg(1);
        b.push(Inst::Bitcast {
            from: ValTy::vector(Scalar::I8, 4),
            to: U32,
            dst: back,
            src: c4v,
        });
        let f2 = b.konst(ValTy::vector(Scalar::F32, 2), &[fb(1.5), fb(2.5)]);
        let i2 = conv(
            b,
            ValTy::vector(Scalar::F32, 2),
            ValTy::vector(Scalar::I32, 2),
            false,
            Rounding::Rte,
            f2,
        );
        vec![
            (c1, 1),
            (c2, 1),
            (c3, 1),
            (c4, 1),
            (c5, 1),
            (c6, 1),
            (c7, 1),
            (h, 1),
            (bc, 1),
            (c4v, 4),
            (back, 1),
            (i2, 2),
        ]
    })
    .unwrap();
    assert_eq!(&v[0..5], &[s(-3), s(-4), 0, 44, 127]);
    assert_eq!(f64::from_bits(v[5]), -3.75);
    assert_eq!(f32::from_bits(v[6] as u32), 300.0);
    assert_eq!(v[7], 0xc380); // half -3.75
    assert_eq!(v[8], s((-3.75f32).to_bits() as i32 as i64));
    assert_eq!(&v[9..13], &[0x10, 0x20, 0x40, s(-128)]);
    assert_eq!(v[13], 0x80402010);
    assert_eq!(&v[14..16], &[2, 2]);
}

#[test]
fn builtins_through_ir() {
    let f4 = ValTy::vector(Scalar::F32, 4);
    let v = eval(|b| {
        let x = b.konst(f4, &[fb(1.0), fb(2.0), fb(3.0), fb(4.0)]);
        let y = b.konst(f4, &[fb(0.5), fb(0.5), fb(0.5), fb(0.5)]);
        let builtin = |b: &mut FnB, f: BuiltinFn, ty: ValTy, dst_ty: ValTy, args: [Reg; 3]| {
            let d = b.reg(dst_ty.lanes.max(ty.lanes));
            b.push(Inst::Builtin {
                f,
                ty,
                dst_ty,
                dst: d,
                args,
            });
            d
        };
        let dot = builtin(b, BuiltinFn::Dot, f4, F32, [x, y, x]);
        let len = builtin(b, BuiltinFn::Length, f4, F32, [x, x, x]);
        let mx = builtin(b, BuiltinFn::Fmax, f4, f4, [x, y, x]);
        let sq = builtin(b, BuiltinFn::Sqrt, F32, F32, [x, x, x]);
        let i = b.konst(U32, &[0xf0]);
        let pc = builtin(b, BuiltinFn::Popcount, U32, U32, [i, i, i]);
        let cl = builtin(b, BuiltinFn::Clz, U32, U32, [i, i, i]);
        let fr = b.reg(1);
        let fp = b.reg(1);
        b.f.frame_size = 8;
        b.push(Inst::FrameAddr { dst: fp, offset: 0 });
        let z = b.float(-1.25);
        b.push(Inst::BuiltinPtr {
            f: BuiltinPtrFn::Fract,
            ty: F32,
            dst: fr,
            args: [z, z],
            out_ptr: fp,
            site: None,
        });
        let fl = b.load(F32, fp, AddrSpace::Private, None);
        let iv = b.konst(ValTy::vector(Scalar::I32, 2), &[s(-1), 0]);
        let any = builtin(
            b,
            BuiltinFn::Any,
            ValTy::vector(Scalar::I32, 2),
            I32,
            [iv, iv, iv],
        );
        let all = builtin(
            b,
            BuiltinFn::All,
            ValTy::vector(Scalar::I32, 2),
            I32,
            [iv, iv, iv],
        );
        vec![
            (dot, 1),
            (len, 1),
            (mx, 4),
            (sq, 1),
            (pc, 1),
            (cl, 1),
            (fr, 1),
            (fl, 1),
            (any, 1),
            (all, 1),
        ]
    })
    .unwrap();
    let f = |x: u64| f32::from_bits(x as u32);
    assert_eq!(f(v[0]), 5.0);
    assert_eq!(f(v[1]), 30f32.sqrt());
    assert_eq!(
        &v[2..6].iter().map(|&x| f(x)).collect::<Vec<_>>(),
        &[1.0, 2.0, 3.0, 4.0]
    );
    assert_eq!(f(v[6]), 1.0);
    assert_eq!((v[7], v[8]), (4, 24));
    assert_eq!((f(v[9]), f(v[10])), (0.75, -2.0));
    assert_eq!((v[11], v[12]), (1, 0));
}

#[test]
fn memory_copy_constant_data_and_switch() {
    let mut mb = ModB::new();
    mb.m.constant_data = vec![1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0];
    let mut b = FnB::new("t");
    let out = b.arg_buffer("out", 4);
    let sel = b.arg_value("sel", I32);
    let cp = b.reg(1);
    b.push(Inst::ConstAddr { dst: cp, offset: 0 });
    // struct copy of 12 bytes from constant data to out
    b.push(Inst::Copy {
        dst: out,
        src: cp,
        bytes: 12,
        load_site: None,
        store_site: None,
    });
    // switch (sel) { case 0: out[3] = 10; case 5: out[3] = 50; default: out[3] = 99 }
    let c0 = b.block();
    let c5 = b.block();
    let dflt = b.block();
    let end = b.block();
    b.term(Terminator::Switch {
        value: sel,
        cases: vec![(0, c0), (5, c5)],
        default: dflt,
    });
    for (blk, val) in [(c0, 10), (c5, 50), (dflt, 99)] {
        b.switch_to(blk);
        let three = b.long(3);
        let p = b.index(out, three, 4);
        let v = b.int(val);
        b.store(I32, v, p, AddrSpace::Global, None);
        b.jump(end);
    }
    // writing constant data faults
    b.switch_to(end);
    let neg = b.int(0);
    let c = b.cmp(CmpOp::Lt, I32, sel, neg);
    let bad = b.block();
    let fin = b.block();
    b.branch(c, bad, fin);
    b.switch_to(bad);
    b.at(42);
    b.store(I32, sel, cp, AddrSpace::Constant, None);
    b.jump(fin);
    let k = mb.kernel(b.finish());
    let (inst, _) = mb.instance(1);
    let m = buf_from(&[0i32; 4]);
    for (sel, expect) in [(0i32, 10), (5, 50), (7, 99)] {
        inst.run(&LaunchSpec::task(
            k,
            vec![
                ArgBinding::buffer(&m),
                ArgBinding::Value(sel.to_le_bytes().to_vec()),
            ],
        ))
        .unwrap();
        assert_eq!(read_vec::<i32>(&m, 4), vec![1, 2, 3, expect]);
    }
    match inst.run(&LaunchSpec::task(
        k,
        vec![
            ArgBinding::buffer(&m),
            ArgBinding::Value((-1i32).to_le_bytes().to_vec()),
        ],
    )) {
        Err(RunError::Fault(f)) => {
            assert!(
                matches!(
                    f.kind,
                    FaultKind::ReadOnly {
                        region: MemRegion::Constant,
                        ..
                    }
                ),
                "{f}"
            );
            assert_eq!(f.pos.unwrap().line, 42);
        }
        r => panic!("{r:?}"),
    }
}

#[test]
fn invalid_ir_is_rejected_at_load() {
    let mut mb = ModB::new();
    let mut b = FnB::new("bad");
    let r = b.reg(1);
    b.push(Inst::Mov {
        dst: r,
        src: Reg(1000),
        lanes: 1,
    });
    mb.kernel(b.finish());
    let e = ProgramInstance::new(
        std::sync::Arc::new(mb.m),
        &Board::default_board(),
        ExecConfig::default(),
    )
    .err()
    .expect("decode error");
    assert!(e.message.contains("register 1000"), "{e}");
}
