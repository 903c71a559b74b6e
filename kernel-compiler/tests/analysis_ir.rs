//! Loop analysis on hand-built IR (independent of the front end): the guide's `unoptimized`
//! (float multiply recurrence, II 6), `unoptimized4` (global memory dependency, II 324) and a
//! shift-register relaxation (II 1).

use fpgacl_kernel_compiler::analysis::{analyze, BoardParams, IiReason, LsuType};
use fpgacl_kernel_compiler::ir::*;
use fpgacl_kernel_compiler::source::{FileId, Loc};

fn loc(line: u32) -> Loc {
    Loc::new(FileId(0), line, 1)
}

struct B {
    blocks: Vec<Block>,
}

impl B {
    fn block(&mut self, in_loop: Option<u32>, header: Option<u32>) -> usize {
        self.blocks.push(Block {
            insts: Vec::new(),
            locs: Vec::new(),
            term: Terminator::Unreachable,
            term_loc: loc(1),
            in_loop: in_loop.map(LoopId),
            loop_header: header.map(LoopId),
        });
        self.blocks.len() - 1
    }
    fn push(&mut self, b: usize, line: u32, i: Inst) {
        self.blocks[b].insts.push(i);
        self.blocks[b].locs.push(loc(line));
    }
    fn term(&mut self, b: usize, t: Terminator) {
        self.blocks[b].term = t;
    }
}

fn u32c(dst: u32, v: u64) -> Inst {
    Inst::Const {
        dst: Reg(dst),
        ty: ValTy::scalar(Scalar::U32),
        lanes: vec![v],
    }
}

fn buffer_arg(name: &str, reg: u32, elem: u32) -> KernelArg {
    KernelArg {
        name: name.into(),
        type_name: "int*".into(),
        address: ArgAddress::Global,
        access: ArgAccess::None,
        is_const: false,
        is_restrict: true,
        is_volatile: false,
        is_pipe: false,
        kind: ArgKind::Buffer {
            space: AddrSpace::Global,
            elem_size: elem,
        },
        size: 8,
        reg: Reg(reg),
    }
}

fn function(
    name: &str,
    args: Vec<KernelArg>,
    b: B,
    loops: Vec<LoopInfo>,
    names: Vec<(u32, Scalar, &str)>,
) -> Function {
    Function {
        name: name.into(),
        loc: loc(3),
        args,
        attrs: KernelAttrs {
            num_compute_units: [1, 1, 1],
            ..Default::default()
        },
        single_work_item: true,
        num_slots: 64,
        frame_size: 0,
        local_size: 0,
        blocks: b.blocks,
        loops,
        reg_names: names
            .into_iter()
            .map(|(r, s, n)| (Reg(r), ValTy::scalar(s), n.to_string()))
            .collect(),
        uses_fifos: false,
        uses_barrier: false,
        mem_vars: Vec::new(),
    }
}

fn site(
    id: u32,
    kind: SiteKind,
    line: u32,
    target: &str,
    arg: u32,
    in_loop: Option<u32>,
) -> AccessSite {
    AccessSite {
        id: SiteId(id),
        kernel: 0,
        kind,
        space: AddrSpace::Global,
        loc: loc(line),
        width: 4,
        in_loop: in_loop.map(LoopId),
        target: target.into(),
        arg: Some(arg),
    }
}

fn simple_loop(header: usize, line: u32, trip: Option<u64>) -> LoopInfo {
    LoopInfo {
        id: LoopId(0),
        kind: LoopKind::For,
        loc: loc(line),
        header: BlockId(header as u32),
        parent: None,
        pragmas: LoopPragmas::default(),
        const_trip_count: trip,
    }
}

/// `float mul = 1; for (unsigned i = 0; i < 128; i++) mul *= A[i]; *result = mul;`
fn mul_kernel() -> Module {
    let mut b = B { blocks: Vec::new() };
    let b0 = b.block(None, None);
    let b1 = b.block(Some(0), Some(0));
    let b2 = b.block(Some(0), None);
    let b3 = b.block(None, None);
    b.push(
        b0,
        6,
        Inst::Const {
            dst: Reg(2),
            ty: ValTy::scalar(Scalar::F32),
            lanes: vec![1.0f32.to_bits() as u64],
        },
    );
    b.push(b0, 8, u32c(3, 0));
    b.term(b0, Terminator::Jump(BlockId(b1 as u32)));
    b.push(b1, 8, u32c(5, 128));
    b.push(
        b1,
        8,
        Inst::Cmp {
            op: CmpOp::Lt,
            ty: ValTy::scalar(Scalar::U32),
            dst_ty: ValTy::scalar(Scalar::I32),
            dst: Reg(4),
            a: Reg(3),
            b: Reg(5),
        },
    );
    b.term(
        b1,
        Terminator::Branch {
            cond: Reg(4),
            then: BlockId(b2 as u32),
            els: BlockId(b3 as u32),
        },
    );
    b.push(
        b2,
        9,
        Inst::PtrAdd {
            dst: Reg(6),
            base: Reg(0),
            index: Some(Reg(3)),
            scale: 4,
            disp: 0,
        },
    );
    b.push(
        b2,
        9,
        Inst::Load {
            ty: ValTy::scalar(Scalar::F32),
            dst: Reg(7),
            addr: Reg(6),
            space: AddrSpace::Global,
            site: Some(SiteId(0)),
        },
    );
    b.push(
        b2,
        9,
        Inst::Binary {
            op: BinOp::Mul,
            ty: ValTy::scalar(Scalar::F32),
            dst: Reg(2),
            a: Reg(2),
            b: Reg(7),
        },
    );
    b.push(b2, 8, u32c(8, 1));
    b.push(
        b2,
        8,
        Inst::Binary {
            op: BinOp::Add,
            ty: ValTy::scalar(Scalar::U32),
            dst: Reg(3),
            a: Reg(3),
            b: Reg(8),
        },
    );
    b.term(b2, Terminator::Jump(BlockId(b1 as u32)));
    b.push(
        b3,
        11,
        Inst::Store {
            ty: ValTy::scalar(Scalar::F32),
            src: Reg(2),
            addr: Reg(1),
            space: AddrSpace::Global,
            site: Some(SiteId(1)),
        },
    );
    b.term(b3, Terminator::Return);
    let f = function(
        "unoptimized",
        vec![buffer_arg("A", 0, 4), buffer_arg("result", 1, 4)],
        b,
        vec![simple_loop(b1, 8, Some(128))],
        vec![(2, Scalar::F32, "mul"), (3, Scalar::U32, "i")],
    );
    let mut m = Module::default();
    m.sources.add("unoptimized.cl", "");
    m.kernels.push(f);
    m.sites.push(site(0, SiteKind::Load, 9, "A", 0, Some(0)));
    m.sites
        .push(site(1, SiteKind::Store, 11, "result", 1, None));
    m
}

#[test]
fn float_multiply_recurrence_gives_ii_6() {
    let m = mul_kernel();
    let r = analyze(&m, &BoardParams::default());
    let k = &r.kernels[0];
    let l = &k.loops[0];
    assert_eq!(l.ii, 6, "{l:#?}");
    match &l.reasons[0] {
        IiReason::DataDependency { variable, loc } => {
            assert_eq!(variable, "mul");
            assert_eq!(loc.line, 9);
        }
        r => panic!("unexpected reason {r:?}"),
    }
    assert_eq!(l.critical_path.len(), 1);
    assert_eq!(l.critical_path[0].name, "Fmul Operation");
    assert_eq!(l.critical_path[0].percent, 100);
    // A[i] in a single work-item loop with a known trip count: semi-streaming; result: BC.
    assert_eq!(k.sites[0].lsu, Some(LsuType::SemiStreaming));
    assert_eq!(k.sites[0].stride_bytes, Some(4));
    assert_eq!(k.sites[1].lsu, Some(LsuType::BurstCoalesced));
}

/// `for (unsigned i = 0; i < 128; i++) A[128 - i] = A[i];`
fn mirror_kernel() -> Module {
    let mut b = B { blocks: Vec::new() };
    let b0 = b.block(None, None);
    let b1 = b.block(Some(0), Some(0));
    let b2 = b.block(Some(0), None);
    let b3 = b.block(None, None);
    b.push(b0, 5, u32c(3, 0));
    b.term(b0, Terminator::Jump(BlockId(b1 as u32)));
    b.push(b1, 5, u32c(5, 128));
    b.push(
        b1,
        5,
        Inst::Cmp {
            op: CmpOp::Lt,
            ty: ValTy::scalar(Scalar::U32),
            dst_ty: ValTy::scalar(Scalar::I32),
            dst: Reg(4),
            a: Reg(3),
            b: Reg(5),
        },
    );
    b.term(
        b1,
        Terminator::Branch {
            cond: Reg(4),
            then: BlockId(b2 as u32),
            els: BlockId(b3 as u32),
        },
    );
    b.push(
        b2,
        6,
        Inst::PtrAdd {
            dst: Reg(6),
            base: Reg(0),
            index: Some(Reg(3)),
            scale: 4,
            disp: 0,
        },
    );
    b.push(
        b2,
        6,
        Inst::Load {
            ty: ValTy::scalar(Scalar::I32),
            dst: Reg(7),
            addr: Reg(6),
            space: AddrSpace::Global,
            site: Some(SiteId(0)),
        },
    );
    b.push(b2, 6, u32c(9, 128));
    b.push(
        b2,
        6,
        Inst::Binary {
            op: BinOp::Sub,
            ty: ValTy::scalar(Scalar::U32),
            dst: Reg(10),
            a: Reg(9),
            b: Reg(3),
        },
    );
    b.push(
        b2,
        6,
        Inst::PtrAdd {
            dst: Reg(11),
            base: Reg(0),
            index: Some(Reg(10)),
            scale: 4,
            disp: 0,
        },
    );
    b.push(
        b2,
        6,
        Inst::Store {
            ty: ValTy::scalar(Scalar::I32),
            src: Reg(7),
            addr: Reg(11),
            space: AddrSpace::Global,
            site: Some(SiteId(1)),
        },
    );
    b.push(b2, 5, u32c(8, 1));
    b.push(
        b2,
        5,
        Inst::Binary {
            op: BinOp::Add,
            ty: ValTy::scalar(Scalar::U32),
            dst: Reg(3),
            a: Reg(3),
            b: Reg(8),
        },
    );
    b.term(b2, Terminator::Jump(BlockId(b1 as u32)));
    b.term(b3, Terminator::Return);
    let f = function(
        "unoptimized",
        vec![buffer_arg("A", 0, 4)],
        b,
        vec![simple_loop(b1, 5, Some(128))],
        vec![(3, Scalar::U32, "i")],
    );
    let mut m = Module::default();
    m.sources.add("unoptimized4.cl", "");
    m.kernels.push(f);
    m.sites.push(site(0, SiteKind::Load, 6, "A", 0, Some(0)));
    m.sites.push(site(1, SiteKind::Store, 6, "A", 0, Some(0)));
    m
}

#[test]
fn global_memory_dependency_gives_ii_324() {
    let m = mirror_kernel();
    let r = analyze(&m, &BoardParams::default());
    let l = &r.kernels[0].loops[0];
    assert_eq!(l.ii, 324, "{l:#?}");
    match &l.reasons[0] {
        IiReason::MemoryDependency {
            load, store, space, ..
        } => {
            assert_eq!((load.line, store.line), (6, 6));
            assert_eq!(*space, AddrSpace::Global);
        }
        r => panic!("unexpected reason {r:?}"),
    }
    let shares: Vec<(String, u32)> = l
        .critical_path
        .iter()
        .map(|c| (c.name.clone(), c.percent))
        .collect();
    assert_eq!(shares[0], ("Load Operation".to_string(), 49));
    assert_eq!(shares[1], ("Store Operation".to_string(), 49));
    // The store needs a write acknowledge (the load of a later iteration depends on it).
    let st = &r.kernels[0].sites[1];
    assert!(st
        .modifiers
        .contains(&fpgacl_kernel_compiler::analysis::LsuModifier::WriteAck));
    // II scales with the board's memory latency.
    let slow = BoardParams {
        global_latency_cycles: 255,
        ..BoardParams::default()
    };
    let r2 = analyze(&m, &slow);
    assert_eq!(r2.kernels[0].loops[0].ii, 524);
    // ivdep waives the dependency.
    let mut m3 = m.clone();
    m3.kernels[0].loops[0].pragmas.ivdep = Some(Ivdep::default());
    assert_eq!(
        analyze(&m3, &BoardParams::default()).kernels[0].loops[0].ii,
        1
    );
}

#[test]
fn malformed_ir_is_reported_not_panicking() {
    let mut m = mul_kernel();
    m.kernels[0].blocks[0].term = Terminator::Jump(BlockId(99));
    let r = analyze(&m, &BoardParams::default());
    assert!(r.kernels[0].warnings[0].contains("malformed IR"));
    let mut m = mul_kernel();
    m.kernels[0].loops[0].header = BlockId(42);
    let r = analyze(&m, &BoardParams::default());
    assert!(r.kernels[0].warnings[0].contains("malformed IR"));
}
