//! The per-kernel lowering context: blocks, registers, the private frame, scopes, loops and
//! access sites.

use super::{align_up, Program, Reported};
use crate::ast::FunctionDef;
use crate::ir::*;
use crate::sema::types::Type;
use crate::source::Loc;
use std::collections::{HashMap, HashSet};

/// Where a pointer value came from, for access-site metadata.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Prov {
    pub target: String,
    pub arg: Option<u32>,
}

/// A value produced by an expression.
#[derive(Clone, Debug)]
pub(crate) enum Val {
    /// An rvalue in registers (scalar, vector, pointer, event).
    R {
        reg: Reg,
        ty: Type,
        prov: Option<Prov>,
    },
    /// A variable held in registers (an lvalue).
    RegVar {
        reg: Reg,
        ty: Type,
        is_const: bool,
        name: String,
        prov: Option<Prov>,
    },
    /// An object in memory at the pointer in `addr` (an lvalue; aggregates are always here).
    Mem {
        addr: Reg,
        ty: Type,
        space: AddrSpace,
        is_const: bool,
        prov: Prov,
    },
    /// Selected components of a vector lvalue or rvalue.
    Swz {
        base: Box<Val>,
        idx: Vec<u8>,
        ty: Type,
    },
    Void,
}

impl Val {
    pub fn ty(&self) -> Type {
        match self {
            Val::R { ty, .. }
            | Val::RegVar { ty, .. }
            | Val::Mem { ty, .. }
            | Val::Swz { ty, .. } => ty.clone(),
            Val::Void => Type::Void,
        }
    }
}

/// A named variable in scope.
#[derive(Clone, Debug)]
pub(crate) struct Var {
    pub val: Val,
}

/// Targets of `break` / `continue`.
pub(crate) struct JumpCtx {
    pub brk: BlockId,
    pub cont: Option<BlockId>,
}

/// An open `switch`.
pub(crate) struct SwitchCtx {
    pub cases: Vec<(u64, BlockId)>,
    pub default: Option<BlockId>,
    pub ty: Type,
}

/// An inlined helper function call in progress.
pub(crate) struct InlineCtx {
    pub name: String,
    pub ret_block: BlockId,
    pub ret: Option<Val>,
    pub ret_ty: Type,
}

pub(crate) struct FnLower<'p, 'a> {
    pub p: &'p mut Program<'a>,
    pub kernel_index: u32,
    pub blocks: Vec<Block>,
    pub terminated: Vec<bool>,
    pub cur: usize,
    pub num_slots: u32,
    pub frame_size: u32,
    pub local_size: u32,
    pub scopes: Vec<HashMap<String, Var>>,
    pub loops: Vec<LoopInfo>,
    pub loop_stack: Vec<LoopId>,
    pub jumps: Vec<JumpCtx>,
    pub switches: Vec<SwitchCtx>,
    pub inlines: Vec<InlineCtx>,
    pub addr_taken: HashSet<String>,
    pub reg_names: Vec<(Reg, ValTy, String)>,
    pub uses_ids: bool,
    pub uses_barrier: bool,
    pub uses_fifos: bool,
    pub loc: Loc,
    pub func_stack: Vec<&'a FunctionDef>,
    pub is_kernel_scope: bool,
    /// Pipe arguments by register: (is write end, blocking).
    pub pipe_info: HashMap<u32, (bool, bool)>,
    /// Image kernel arguments by register: (name, access qualifier).
    pub image_access: HashMap<u32, (String, ArgAccess)>,
    /// Named private-frame and `__local` objects (for the analysis).
    pub mem_vars: Vec<MemVar>,
    /// Offset of the most recent frame allocation made by `frame_temp`.
    pub last_frame_offset: Option<u32>,
    /// Registers holding scalar constants (written once by a `Const`), for folding conversions.
    pub consts: HashMap<u32, (Scalar, u64)>,
    /// Instructions emitted so far (bounds the growth from inlining).
    pub inst_count: usize,
    /// Names whose declaration had an error: their uses are not reported again.
    pub poisoned: HashSet<String>,
}

impl<'p, 'a> FnLower<'p, 'a> {
    pub fn new(p: &'p mut Program<'a>, kernel_index: u32) -> Self {
        let mut f = FnLower {
            p,
            kernel_index,
            blocks: vec![],
            terminated: vec![],
            cur: 0,
            num_slots: 0,
            frame_size: 0,
            local_size: 0,
            scopes: vec![HashMap::new()],
            loops: vec![],
            loop_stack: vec![],
            jumps: vec![],
            switches: vec![],
            inlines: vec![],
            addr_taken: HashSet::new(),
            reg_names: vec![],
            uses_ids: false,
            uses_barrier: false,
            uses_fifos: false,
            loc: Loc::default(),
            func_stack: vec![],
            is_kernel_scope: true,
            pipe_info: HashMap::new(),
            image_access: HashMap::new(),
            mem_vars: vec![],
            last_frame_offset: None,
            consts: HashMap::new(),
            inst_count: 0,
            poisoned: HashSet::new(),
        };
        let b = f.new_block();
        f.cur = b.0 as usize;
        f
    }

    pub fn error(&mut self, loc: Loc, msg: impl Into<String>) -> Reported {
        self.p.error(loc, msg)
    }
    pub fn warn(&mut self, loc: Loc, msg: impl Into<String>) {
        self.p.diags.warning(loc, msg);
    }
    pub fn ty_name(&self, t: &Type) -> String {
        self.p.ty_name(t)
    }

    // ---- registers and memory -------------------------------------------------------------

    /// Allocates registers for `lanes` slots.
    pub fn alloc(&mut self, lanes: u8) -> Reg {
        let r = Reg(self.num_slots);
        self.num_slots = self.num_slots.saturating_add(lanes.max(1) as u32);
        r
    }
    pub fn alloc_ty(&mut self, t: &Type) -> Reg {
        self.alloc(t.valty().map_or(1, |v| v.lanes))
    }
    /// Reserves private frame bytes; returns the offset.
    pub fn alloc_frame(&mut self, size: u32, align: u32) -> u32 {
        let a = align.clamp(1, 128);
        let off = align_up(self.frame_size, a);
        self.frame_size = off.saturating_add(size.max(1));
        off
    }
    pub fn alloc_local(&mut self, size: u32, align: u32) -> u32 {
        let a = align.clamp(1, 128);
        let off = align_up(self.local_size, a);
        self.local_size = off.saturating_add(size.max(1));
        off
    }

    // ---- blocks -----------------------------------------------------------------------------

    pub fn new_block(&mut self) -> BlockId {
        let id = BlockId(self.blocks.len() as u32);
        self.blocks.push(Block {
            insts: vec![],
            locs: vec![],
            term: Terminator::Unreachable,
            term_loc: self.loc,
            in_loop: self.loop_stack.last().copied(),
            loop_header: None,
        });
        self.terminated.push(false);
        id
    }
    pub fn switch_to(&mut self, b: BlockId) {
        self.cur = b.0 as usize;
    }
    pub fn cur_block(&self) -> BlockId {
        BlockId(self.cur as u32)
    }
    pub fn is_terminated(&self) -> bool {
        self.terminated[self.cur]
    }
    /// Ends the current block (no effect if it already ended).
    pub fn terminate(&mut self, t: Terminator) {
        if !self.terminated[self.cur] {
            self.blocks[self.cur].term = t;
            self.blocks[self.cur].term_loc = self.loc;
            self.terminated[self.cur] = true;
        }
    }
    pub fn jump(&mut self, to: BlockId) {
        self.terminate(Terminator::Jump(to));
    }
    /// After `return`/`break`, code that follows goes to a fresh unreachable block.
    pub fn start_dead_block(&mut self) {
        let b = self.new_block();
        self.switch_to(b);
    }
    pub fn emit(&mut self, inst: Inst) {
        self.inst_count += 1;
        if self.terminated[self.cur] {
            self.start_dead_block();
        }
        let loc = self.loc;
        let b = &mut self.blocks[self.cur];
        b.insts.push(inst);
        b.locs.push(loc);
    }

    // ---- constants ----------------------------------------------------------------------------

    pub fn const_reg(&mut self, ty: ValTy, lanes: Vec<u64>) -> Reg {
        let dst = self.alloc(ty.lanes);
        if ty.lanes == 1 {
            self.consts.insert(dst.0, (ty.scalar, lanes[0]));
        }
        self.emit(Inst::Const { dst, ty, lanes });
        dst
    }
    pub fn const_i32(&mut self, v: i32) -> Reg {
        self.const_reg(ValTy::scalar(Scalar::I32), vec![v as i64 as u64])
    }
    pub fn const_i64(&mut self, v: i64) -> Reg {
        self.const_reg(ValTy::scalar(Scalar::I64), vec![v as u64])
    }
    /// The slot bits of zero / one for a scalar kind.
    pub fn zero_of(&mut self, t: ValTy) -> Reg {
        self.const_reg(t, vec![0; t.lanes as usize])
    }
    pub fn one_of(&mut self, t: ValTy) -> Reg {
        let bits = match t.scalar {
            Scalar::F32 => 1.0f32.to_bits() as u64,
            Scalar::F64 => 1.0f64.to_bits(),
            Scalar::F16 => 0x3c00,
            _ => 1,
        };
        self.const_reg(t, vec![bits; t.lanes as usize])
    }

    // ---- scopes -----------------------------------------------------------------------------

    pub fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
        self.p.push_tscope();
    }
    pub fn pop_scope(&mut self) {
        self.scopes.pop();
        self.p.pop_tscope();
    }
    pub fn declare(&mut self, name: &str, val: Val) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), Var { val });
        }
    }
    pub fn lookup(&self, name: &str) -> Option<&Var> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    /// Whether a variable of type `t` must live in the private frame.
    pub fn needs_memory(&self, name: &str, t: &Type) -> bool {
        t.is_aggregate()
            || self.addr_taken.contains(name)
            || (t.is_vector() && self.addr_taken.contains(&format!("[]{name}")))
    }

    // ---- sites ------------------------------------------------------------------------------

    /// Creates an access site for a memory access (none for private memory).
    pub fn mem_site(
        &mut self,
        kind: SiteKind,
        space: AddrSpace,
        loc: Loc,
        width: u32,
        prov: &Prov,
    ) -> Option<SiteId> {
        if space == AddrSpace::Private {
            return None;
        }
        Some(self.new_site(kind, space, loc, width, prov.target.clone(), prov.arg))
    }
    pub fn new_site(
        &mut self,
        kind: SiteKind,
        space: AddrSpace,
        loc: Loc,
        width: u32,
        target: String,
        arg: Option<u32>,
    ) -> SiteId {
        let id = SiteId(self.p.module.sites.len() as u32);
        self.p.module.sites.push(AccessSite {
            id,
            kernel: self.kernel_index,
            kind,
            space,
            loc,
            width,
            in_loop: self.loop_stack.last().copied(),
            target,
            arg,
        });
        id
    }

    // ---- loops ------------------------------------------------------------------------------

    /// Opens a loop whose header block is created here; returns (loop id, header block).
    pub fn open_loop(
        &mut self,
        kind: LoopKind,
        loc: Loc,
        pragmas: LoopPragmas,
        trip: Option<u64>,
    ) -> (LoopId, BlockId) {
        let id = LoopId(self.loops.len() as u32);
        let parent = self.loop_stack.last().copied();
        self.loop_stack.push(id);
        let header = self.new_block();
        self.blocks[header.0 as usize].loop_header = Some(id);
        self.loops.push(LoopInfo {
            id,
            kind,
            loc,
            header,
            parent,
            pragmas,
            const_trip_count: trip,
        });
        (id, header)
    }
    pub fn close_loop(&mut self) {
        self.loop_stack.pop();
    }

    /// Records a named memory object for the analysis.
    pub fn record_mem_var(
        &mut self,
        name: &str,
        space: AddrSpace,
        offset: u32,
        t: &Type,
        loc: Loc,
        va: &crate::sema::attrs::VarAttrs,
    ) {
        let mut dims = vec![];
        let mut el = t;
        while let Type::Array(inner, n) = el {
            dims.push(*n);
            el = inner;
        }
        self.mem_vars.push(MemVar {
            name: name.to_string(),
            space: Some(space),
            offset,
            size: self.p.size_of(t),
            elem_size: self.p.size_of(el),
            dims,
            loc,
            numbanks: va.numbanks,
            bank_bits: va.bank_bits.clone(),
            pump: if va.doublepump {
                Some(2)
            } else if va.singlepump {
                Some(1)
            } else {
                None
            },
        });
    }

    // ---- finishing --------------------------------------------------------------------------

    /// Removes blocks unreachable from the entry and renumbers the rest.
    pub fn finish_blocks(&mut self) -> Vec<Block> {
        let n = self.blocks.len();
        let mut reach = vec![false; n];
        // Roots: the entry, and (so that loop records and sites stay valid) every block that
        // heads a loop or holds code even when control never reaches it.
        let mut stack: Vec<usize> = (0..n)
            .filter(|&i| {
                i == 0 || self.blocks[i].loop_header.is_some() || !self.blocks[i].insts.is_empty()
            })
            .collect();
        while let Some(b) = stack.pop() {
            if b >= n || reach[b] {
                continue;
            }
            reach[b] = true;
            match &self.blocks[b].term {
                Terminator::Jump(t) => stack.push(t.0 as usize),
                Terminator::Branch { then, els, .. } => {
                    stack.push(then.0 as usize);
                    stack.push(els.0 as usize);
                }
                Terminator::Switch { cases, default, .. } => {
                    stack.push(default.0 as usize);
                    stack.extend(cases.iter().map(|c| c.1 .0 as usize));
                }
                _ => {}
            }
        }
        let mut map = vec![u32::MAX; n];
        let mut out = vec![];
        for (i, b) in self.blocks.iter().enumerate() {
            if reach[i] {
                map[i] = out.len() as u32;
                out.push(b.clone());
            }
        }
        let remap = |b: &mut BlockId| {
            let m = map[b.0 as usize];
            *b = BlockId(if m == u32::MAX { 0 } else { m });
        };
        for b in &mut out {
            match &mut b.term {
                Terminator::Jump(t) => remap(t),
                Terminator::Branch { then, els, .. } => {
                    remap(then);
                    remap(els);
                }
                Terminator::Switch { cases, default, .. } => {
                    remap(default);
                    for c in cases {
                        remap(&mut c.1);
                    }
                }
                _ => {}
            }
        }
        for l in &mut self.loops {
            let m = map[l.header.0 as usize];
            l.header = BlockId(if m == u32::MAX { 0 } else { m });
        }
        out
    }
}
