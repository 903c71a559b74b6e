//! A tiny IR builder for executor tests (hand-built kernels until the compiler is available).
#![allow(dead_code)]

use fpgacl_device_model::*;
use fpgacl_kernel_compiler::ir::*;
use fpgacl_kernel_compiler::{FileId, Loc};
use parking_lot::Mutex;
use std::sync::Arc;

pub fn loc(line: u32) -> Loc {
    Loc::new(FileId(0), line, 5)
}

pub const I32: ValTy = ValTy::scalar(Scalar::I32);
pub const U32: ValTy = ValTy::scalar(Scalar::U32);
pub const I64: ValTy = ValTy::scalar(Scalar::I64);
pub const U64: ValTy = ValTy::scalar(Scalar::U64);
pub const F32: ValTy = ValTy::scalar(Scalar::F32);
pub const F64: ValTy = ValTy::scalar(Scalar::F64);

pub struct FnB {
    pub f: Function,
    pub cur: usize,
    pub line: u32,
}

impl FnB {
    pub fn new(name: &str) -> FnB {
        FnB {
            f: Function {
                name: name.into(),
                loc: loc(1),
                args: vec![],
                attrs: KernelAttrs {
                    num_compute_units: [1, 1, 1],
                    ..Default::default()
                },
                single_work_item: false,
                num_slots: 0,
                frame_size: 0,
                local_size: 0,
                blocks: vec![Block {
                    insts: vec![],
                    locs: vec![],
                    term: Terminator::Return,
                    term_loc: loc(1),
                    in_loop: None,
                    loop_header: None,
                }],
                loops: vec![],
                reg_names: vec![],
                uses_fifos: false,
                uses_barrier: false,
                mem_vars: vec![],
            },
            cur: 0,
            line: 2,
        }
    }
    pub fn reg(&mut self, lanes: u8) -> Reg {
        let r = Reg(self.f.num_slots);
        self.f.num_slots += lanes.max(1) as u32;
        r
    }
    /// Sets the source line of the following instructions.
    pub fn at(&mut self, line: u32) -> &mut Self {
        self.line = line;
        self
    }
    pub fn push(&mut self, i: Inst) {
        let l = loc(self.line);
        let b = &mut self.f.blocks[self.cur];
        b.insts.push(i);
        b.locs.push(l);
    }
    pub fn block(&mut self) -> BlockId {
        self.f.blocks.push(Block {
            insts: vec![],
            locs: vec![],
            term: Terminator::Return,
            term_loc: loc(self.line),
            in_loop: None,
            loop_header: None,
        });
        BlockId(self.f.blocks.len() as u32 - 1)
    }
    pub fn switch_to(&mut self, b: BlockId) {
        self.cur = b.0 as usize;
    }
    pub fn term(&mut self, t: Terminator) {
        let l = loc(self.line);
        self.f.blocks[self.cur].term = t;
        self.f.blocks[self.cur].term_loc = l;
    }
    pub fn jump(&mut self, b: BlockId) {
        self.term(Terminator::Jump(b));
    }
    pub fn branch(&mut self, c: Reg, t: BlockId, e: BlockId) {
        self.term(Terminator::Branch {
            cond: c,
            then: t,
            els: e,
        });
    }
    fn arg(&mut self, name: &str, kind: ArgKind, lanes: u8, address: ArgAddress) -> Reg {
        let r = self.reg(lanes);
        let is_pipe = matches!(kind, ArgKind::Pipe { .. });
        self.f.args.push(KernelArg {
            name: name.into(),
            type_name: String::new(),
            address,
            access: ArgAccess::None,
            is_const: false,
            is_restrict: false,
            is_volatile: false,
            is_pipe,
            kind,
            size: 8,
            reg: r,
        });
        r
    }
    pub fn arg_buffer(&mut self, name: &str, elem: u32) -> Reg {
        self.arg(
            name,
            ArgKind::Buffer {
                space: AddrSpace::Global,
                elem_size: elem,
            },
            1,
            ArgAddress::Global,
        )
    }
    pub fn arg_value(&mut self, name: &str, ty: ValTy) -> Reg {
        self.arg(name, ArgKind::Value { ty }, ty.lanes, ArgAddress::Private)
    }
    pub fn arg_local(&mut self, name: &str, elem: u32) -> Reg {
        self.arg(
            name,
            ArgKind::LocalPtr { elem_size: elem },
            1,
            ArgAddress::Local,
        )
    }
    pub fn arg_pipe(&mut self, name: &str, packet: u32, write: bool) -> Reg {
        self.arg(
            name,
            ArgKind::Pipe {
                packet_size: packet,
                write,
                blocking: true,
            },
            1,
            ArgAddress::Global,
        )
    }
    pub fn konst(&mut self, ty: ValTy, lanes: &[u64]) -> Reg {
        let r = self.reg(ty.lanes);
        self.push(Inst::Const {
            dst: r,
            ty,
            lanes: lanes.to_vec(),
        });
        r
    }
    pub fn int(&mut self, v: i64) -> Reg {
        self.konst(I32, &[v as u64])
    }
    pub fn long(&mut self, v: i64) -> Reg {
        self.konst(I64, &[v as u64])
    }
    pub fn float(&mut self, v: f32) -> Reg {
        self.konst(F32, &[v.to_bits() as u64])
    }
    pub fn bin(&mut self, op: BinOp, ty: ValTy, a: Reg, b: Reg) -> Reg {
        let d = self.reg(ty.lanes);
        self.push(Inst::Binary {
            op,
            ty,
            dst: d,
            a,
            b,
        });
        d
    }
    pub fn cmp(&mut self, op: CmpOp, ty: ValTy, a: Reg, b: Reg) -> Reg {
        let dst_ty = if ty.lanes > 1 {
            let s = match ty.scalar.size() {
                1 => Scalar::I8,
                2 => Scalar::I16,
                4 => Scalar::I32,
                _ => Scalar::I64,
            };
            ValTy::vector(s, ty.lanes)
        } else {
            I32
        };
        let d = self.reg(ty.lanes);
        self.push(Inst::Cmp {
            op,
            ty,
            dst_ty,
            dst: d,
            a,
            b,
        });
        d
    }
    pub fn wi(&mut self, f: WorkItemFn, dim: u32) -> Reg {
        let dr = self.int(dim as i64);
        let d = self.reg(1);
        self.push(Inst::WorkItem { f, dst: d, dim: dr });
        d
    }
    pub fn gid(&mut self, dim: u32) -> Reg {
        self.wi(WorkItemFn::GlobalId, dim)
    }
    pub fn lid(&mut self, dim: u32) -> Reg {
        self.wi(WorkItemFn::LocalId, dim)
    }
    pub fn index(&mut self, base: Reg, idx: Reg, scale: u32) -> Reg {
        let d = self.reg(1);
        self.push(Inst::PtrAdd {
            dst: d,
            base,
            index: Some(idx),
            scale,
            disp: 0,
        });
        d
    }
    pub fn load(&mut self, ty: ValTy, addr: Reg, space: AddrSpace, site: Option<SiteId>) -> Reg {
        let d = self.reg(ty.lanes);
        self.push(Inst::Load {
            ty,
            dst: d,
            addr,
            space,
            site,
        });
        d
    }
    pub fn store(&mut self, ty: ValTy, v: Reg, addr: Reg, space: AddrSpace, site: Option<SiteId>) {
        self.push(Inst::Store {
            ty,
            src: v,
            addr,
            space,
            site,
        });
    }
    pub fn finish(self) -> Function {
        let mut f = self.f;
        f.uses_fifos = f.blocks.iter().any(|b| {
            b.insts
                .iter()
                .any(|i| matches!(i, Inst::FifoRead { .. } | Inst::FifoWrite { .. }))
        });
        f.uses_barrier = f
            .blocks
            .iter()
            .any(|b| b.insts.iter().any(|i| matches!(i, Inst::Barrier { .. })));
        f
    }
}

pub struct ModB {
    pub m: Module,
}

impl ModB {
    pub fn new() -> ModB {
        let mut m = Module::default();
        m.sources.add("test.cl", "// test\n");
        ModB { m }
    }
    pub fn site(
        &mut self,
        kernel: u32,
        kind: SiteKind,
        space: AddrSpace,
        target: &str,
        line: u32,
    ) -> SiteId {
        let id = SiteId(self.m.sites.len() as u32);
        self.m.sites.push(AccessSite {
            id,
            kernel,
            kind,
            space,
            loc: loc(line),
            width: 4,
            in_loop: None,
            target: target.into(),
            arg: None,
        });
        id
    }
    pub fn channel(&mut self, name: &str, elem: u32, depth: u32, dims: Vec<u32>) -> ChannelId {
        let id = ChannelId(self.m.channels.len() as u32);
        self.m.channels.push(ChannelDecl {
            id,
            name: name.into(),
            elem_size: elem,
            elem_type: "int".into(),
            depth,
            dims,
            io: None,
            loc: loc(1),
        });
        id
    }
    pub fn kernel(&mut self, f: Function) -> u32 {
        self.m.kernels.push(f);
        self.m.kernels.len() as u32 - 1
    }
    pub fn string(&mut self, s: &str) -> StrId {
        self.m.strings.push(s.into());
        StrId(self.m.strings.len() as u32 - 1)
    }
    pub fn instance(self, threads: usize) -> (ProgramInstance, Arc<Mutex<Vec<u8>>>) {
        let out = Arc::new(Mutex::new(Vec::new()));
        let inst = ProgramInstance::new(
            Arc::new(self.m),
            &Board::default_board(),
            ExecConfig {
                threads,
                printf: PrintfSink::Capture(out.clone()),
                // These tests check the strict mode's faults (tests/oob.rs: report mode).
                oob: Some(OobMode::Fault),
                ..Default::default()
            },
        )
        .expect("valid IR");
        (inst, out)
    }
}

pub fn buf_from<T: Copy>(data: &[T]) -> Arc<DeviceMemory> {
    let n = std::mem::size_of_val(data);
    let m = DeviceMemory::new(n).unwrap();
    // SAFETY: reading plain data bytes.
    let bytes = unsafe { std::slice::from_raw_parts(data.as_ptr() as *const u8, n) };
    m.write(0, bytes).unwrap();
    Arc::new(m)
}

pub fn read_vec<T: Copy + Default>(m: &DeviceMemory, n: usize) -> Vec<T> {
    let mut v = vec![T::default(); n];
    // SAFETY: writing plain data bytes.
    let bytes = unsafe {
        std::slice::from_raw_parts_mut(v.as_mut_ptr() as *mut u8, n * std::mem::size_of::<T>())
    };
    m.read(0, bytes).unwrap();
    v
}
