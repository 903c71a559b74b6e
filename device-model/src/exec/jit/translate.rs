//! Decoded ops to Cranelift IR. One Cranelift block per op that starts a basic block (a jump
//! target or the op after a terminator); register slots are Cranelift variables (SSA built by
//! `cranelift-frontend`), loaded from the register file at entry; blocks are sealed as soon as
//! their last predecessor is emitted.

use super::super::code::{Code, Op, NONE};
use super::super::interp::ISSUE_SLOTS;
use super::super::interp::{Ids, Region};
use super::counted::{counted_loops, float_slots, op_writes, straight_kernel, Aff, Body, Counted};
use super::helpers::{self as h, CountEnv, Frame};
use super::{Entry, Spec};
use crate::counters::field;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    types, AbiParam, Block, InstBuilder, MemFlagsData, SigRef, Signature, Type, UserFuncName, Value,
};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{Linkage, Module as ClifModule};
use fpgacl_kernel_compiler::ir::{
    ArgKind, BinOp, BuiltinFn, CmpOp, Function, Module, Rounding, Scalar, UnOp, WorkItemFn,
    OFFSET_MASK, REGION_SHIFT,
};
use std::mem::{offset_of, size_of};

const I8: Type = types::I8;
const I32: Type = types::I32;
const I64: Type = types::I64;

/// Why a kernel cannot be compiled, if it cannot.
pub fn unsupported(code: &Code) -> Option<String> {
    if code.ops.is_empty() {
        return Some("no code".into());
    }
    for op in &code.ops {
        if let Op::Image(_) = op {
            return Some("image reads and writes".into());
        }
    }
    if !is_term(code.ops.last()?) {
        return Some("the last op falls through".into());
    }
    None
}

fn is_term(op: &Op) -> bool {
    matches!(
        op,
        Op::Jump(_)
            | Op::Br { .. }
            | Op::BrCmpS { .. }
            | Op::BrCmpU { .. }
            | Op::Switch(_)
            | Op::Ret
            | Op::Unreachable
    )
}

/// Whether `op` is a barrier (`barrier`, `wait_group_events`): the work-item leaves the
/// compiled code there (`Exit::Barrier`, status [`BARRIER`]) and a later call resumes it at
/// the next op, which therefore starts a block.
fn is_barrier(op: &Op) -> bool {
    matches!(op, Op::Barrier(_) | Op::WaitEvents)
}

/// Whether the block of `op` ends after it (a terminator or a barrier).
fn ends_block(op: &Op) -> bool {
    is_term(op) || is_barrier(op)
}

/// The status a work-item stopped at a barrier leaves the compiled code with
/// (`Frame::resume`: the op to resume at).
pub const BARRIER: u32 = 2;

/// The ops compiled code can resume a work-item at (the ops after the barriers), sorted.
pub fn resume_points(code: &Code) -> Vec<u32> {
    (0..code.ops.len())
        .filter(|&i| is_barrier(&code.ops[i]) && i + 1 < code.ops.len())
        .map(|i| i as u32 + 1)
        .collect()
}

/// Distinct jump targets of a terminator.
pub(super) fn targets(op: &Op, code: &Code) -> Vec<u32> {
    let mut t = match *op {
        Op::Jump(t) => vec![t],
        Op::Br { t, f, .. } | Op::BrCmpS { t, f, .. } | Op::BrCmpU { t, f, .. } => vec![t, f],
        Op::Switch(x) => {
            let s = &code.switches[x as usize];
            let mut v: Vec<u32> = s.cases.iter().map(|c| c.1).collect();
            v.push(s.default);
            v
        }
        _ => vec![],
    };
    t.sort_unstable();
    t.dedup();
    t
}

/// Lane builtins compiled inline ([`Tr::lane_inline`]): `sqrt`, `rsqrt` and `mad` of floats
/// and doubles (`mad`'s NaN results are canonical in both backends: which operand's NaN a
/// product keeps depends on the operand order of the machine code), `rotate`, `min` and `max`
/// of integers; the others call `builtins::lane`.
fn lane_inlinable(f: BuiltinFn, k: Scalar, a: u32, b: u32, c: u32) -> bool {
    use BuiltinFn::*;
    let float = matches!(k, Scalar::F32 | Scalar::F64);
    let int = matches!(
        k,
        Scalar::I8
            | Scalar::U8
            | Scalar::I16
            | Scalar::U16
            | Scalar::I32
            | Scalar::U32
            | Scalar::I64
            | Scalar::U64
    );
    match f {
        Sqrt | Rsqrt => float && a != NONE,
        Mad => float && a != NONE && b != NONE && c != NONE,
        Rotate | Min | Max => int && a != NONE && b != NONE,
        _ => false,
    }
}

/// Helper signatures.
struct Sigs {
    count: SigRef,
    batch: SigRef,
    rows: SigRef,
    oob: SigRef,
    poll: SigRef,
    clock: SigRef,
    wide: SigRef,
    idx_wide: SigRef,
    st3: SigRef,
    v3: SigRef,
    lane: SigRef,
    v2: SigRef,
    st1: SigRef,
    unit: SigRef,
}

fn sig(m: &JITModule, params: &[Type], rets: &[Type]) -> Signature {
    let mut s = m.make_signature();
    s.params.extend(params.iter().map(|&t| AbiParam::new(t)));
    s.returns.extend(rets.iter().map(|&t| AbiParam::new(t)));
    s
}

/// What [`build`] returns: the JIT module (owning the code), the entry point, the code size
/// in bytes, the (site, tracker, accesses per wide access) of the sites counted inline and
/// whether the work-item loop calls `h_reset` per item / the kernel has cold ops.
pub type Built = (JITModule, Entry, usize, Vec<(u32, u32, u32)>, (bool, bool));

/// The sites of the kernel's loads and stores (counted inline or by `h_count`), sorted.
pub fn access_sites(code: &Code) -> Vec<u32> {
    let mut v: Vec<u32> = code
        .ops
        .iter()
        .filter_map(|op| match *op {
            Op::LoadIdx { site, .. }
            | Op::StoreIdx { site, .. }
            | Op::Load { site, .. }
            | Op::Store { site, .. } => Some(site),
            _ => None,
        })
        .filter(|&s| s != NONE)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The ops that start a basic block of the compiled code: the first, every jump target, every
/// op after a terminator or a barrier. `Err` when a target lies outside the code.
fn leaders(code: &Code) -> Result<Vec<bool>, String> {
    let n = code.ops.len();
    if n == 0 {
        return Err("no code".into());
    }
    let mut leader = vec![false; n];
    leader[0] = true;
    for (i, op) in code.ops.iter().enumerate() {
        for t in targets(op, code) {
            if t as usize >= n {
                return Err(format!("jump target {t} outside the code"));
            }
            leader[t as usize] = true;
        }
        if ends_block(op) && i + 1 < n {
            leader[i + 1] = true;
        }
    }
    Ok(leader)
}

/// The control-flow graph of `code`'s basic blocks: the block of each op and each block's
/// successors.
struct BlockGraph {
    block_of: Vec<usize>,
    succ: Vec<Vec<usize>>,
}

impl BlockGraph {
    fn of(code: &Code) -> Option<BlockGraph> {
        let ops = &code.ops;
        let n = ops.len();
        let leader = leaders(code).ok()?;
        let starts: Vec<usize> = (0..n).filter(|&i| leader[i]).collect();
        let mut block_of = vec![0usize; n];
        for (b, &st) in starts.iter().enumerate() {
            let end = starts.get(b + 1).copied().unwrap_or(n);
            block_of[st..end].fill(b);
        }
        let succ: Vec<Vec<usize>> = (0..starts.len())
            .map(|b| {
                let end = starts.get(b + 1).copied().unwrap_or(n);
                let last = &ops[end - 1];
                if is_term(last) {
                    targets(last, code)
                        .into_iter()
                        .map(|t| block_of[t as usize])
                        .collect()
                } else if end < n {
                    vec![block_of[end]]
                } else {
                    vec![]
                }
            })
            .collect();
        Some(BlockGraph { block_of, succ })
    }

    /// Whether block `to` is reachable from the successors of block `from`.
    fn reaches(&self, from: &[usize], to: usize) -> bool {
        let mut seen = vec![false; self.succ.len()];
        let mut stack: Vec<usize> = from.to_vec();
        while let Some(x) = stack.pop() {
            if x == to {
                return true;
            }
            if !std::mem::replace(&mut seen[x], true) {
                stack.extend(&self.succ[x]);
            }
        }
        false
    }

    /// A block is on a cycle when it is reachable from one of its successors.
    fn on_cycle(&self, b: usize) -> bool {
        self.reaches(&self.succ[b], b)
    }
}

/// Per site: whether a work-item executes it at most once, so that its issue slot is always 0
/// (issue counters restart with each work-item): the site belongs to one load or store, and
/// that op is on no cycle of the control-flow graph.
pub fn once_sites(code: &Code, nsites: usize) -> Vec<bool> {
    let Some(g) = BlockGraph::of(code) else {
        return vec![false; nsites];
    };
    let mut uses = vec![0u32; nsites];
    let mut cyclic = vec![false; nsites];
    let mut memo: Vec<Option<bool>> = vec![None; g.succ.len()];
    for (i, op) in code.ops.iter().enumerate() {
        let site = match *op {
            Op::LoadIdx { site, .. }
            | Op::StoreIdx { site, .. }
            | Op::Load { site, .. }
            | Op::Store { site, .. } => site,
            _ => continue,
        };
        let Some(u) = uses.get_mut(site as usize) else {
            continue;
        };
        *u += 1;
        let b = g.block_of[i];
        let c = *memo[b].get_or_insert_with(|| g.on_cycle(b));
        cyclic[site as usize] |= c;
    }
    (0..nsites).map(|s| uses[s] == 1 && !cyclic[s]).collect()
}

/// Per op: for a two-way branch whose false target is on a cycle through the branch and
/// whose true target is not (the loop goes on when the condition is false), `true`: the
/// branch then names its true target first (see [`Tr::brif_loop_friendly`]).
pub fn body_on_false(code: &Code) -> Vec<bool> {
    let n = code.ops.len();
    let Some(g) = BlockGraph::of(code) else {
        return vec![false; n];
    };
    (0..n)
        .map(|pc| match code.ops[pc] {
            Op::Br { t, f, .. } | Op::BrCmpS { t, f, .. } | Op::BrCmpU { t, f, .. } if t != f => {
                let b = g.block_of[pc];
                let in_loop = |x: u32| g.reaches(&[g.block_of[x as usize]], b);
                in_loop(f) && !in_loop(t)
            }
            _ => false,
        })
        .collect()
}

/// Whether `op` runs on the interpreter through `h_cold`.
fn is_cold(op: &Op) -> bool {
    matches!(
        op,
        Op::Builtin(_)
            | Op::BuiltinPtr(_)
            | Op::Bitcast(_)
            | Op::Copy(_)
            | Op::Atomic(_)
            | Op::Printf(_)
            | Op::AsyncCopy(_)
    )
}

/// Builds the native code of `code`, its counting specialised for `spec`.
pub fn build(
    code: &Code,
    _m: &Module,
    f: &Function,
    fast: bool,
    spec: &Spec,
) -> Result<Built, String> {
    let mut flags = settings::builder();
    let set = |f: &mut settings::Builder, k: &str, v: &str| {
        f.set(k, v)
            .map_err(|e| format!("cranelift setting {k}: {e}"))
    };
    // Compile time grows with the kernel (register allocation and the e-graph dominate):
    // large kernels get Cranelift's fast tier (no mid-end optimisation, single-pass register
    // allocation: about 4x faster to compile, bigger code), the rest the optimising one
    // (`super::fast_tier`).
    set(&mut flags, "opt_level", if fast { "none" } else { "speed" })?;
    set(
        &mut flags,
        "regalloc_algorithm",
        if fast { "single_pass" } else { "backtracking" },
    )?;
    set(&mut flags, "use_colocated_libcalls", "false")?;
    set(&mut flags, "enable_verifier", "false")?;
    set(&mut flags, "is_pic", "false")?;
    let isa = cranelift_native::builder()
        .map_err(|e| format!("host not supported by Cranelift: {e}"))?
        .finish(settings::Flags::new(flags))
        .map_err(|e| format!("cranelift: {e}"))?;
    // `FPGACL_JIT_OPS=1`: the decoded ops of every compiled kernel and its counted loops on
    // stderr (performance work).
    if std::env::var_os("FPGACL_JIT_OPS").is_some() {
        eprintln!("; ops of kernel {}", f.name);
        for (i, op) in code.ops.iter().enumerate() {
            eprintln!("{i:4} {op:?}");
        }
    }
    let mut module = JITModule::new(JITBuilder::with_isa(
        isa,
        cranelift_module::default_libcall_names(),
    ));
    let mut ctx = module.make_context();
    // `FPGACL_JIT_DISASM=1`: the native code of every compiled kernel on stderr (performance
    // work).
    let disasm = std::env::var_os("FPGACL_JIT_DISASM").is_some();
    ctx.want_disasm = disasm;
    ctx.func.signature = sig(&module, &[I64, I64], &[I32]);
    let id = module
        .declare_function("kernel", Linkage::Local, &ctx.func.signature)
        .map_err(|e| e.to_string())?;
    ctx.func.name = UserFuncName::user(0, id.as_u32());
    let mut fctx = FunctionBuilderContext::new();
    let inline_sites;
    let resets;
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        let sigs = Sigs {
            count: b.import_signature(sig(&module, &[I64, I32, I64, I64, I64], &[])),
            batch: b.import_signature(sig(&module, &[I64, I32, I64, I64, I64, I64], &[])),
            rows: b.import_signature(sig(&module, &[I64, I64], &[])),
            oob: b.import_signature(sig(&module, &[I64, I32, I32, I64, I64, I32], &[I32])),
            poll: b.import_signature(sig(&module, &[I64, I32, I64], &[I32])),
            clock: b.import_signature(sig(&module, &[I64, I32], &[I64])),
            wide: b.import_signature(sig(&module, &[I64, I64], &[I64])),
            idx_wide: b.import_signature(sig(&module, &[I64, I64, I32], &[I64])),
            st3: b.import_signature(sig(&module, &[I64, I32, I64, I64], &[I32])),
            v3: b.import_signature(sig(&module, &[I64, I32, I64, I64], &[I64])),
            lane: b.import_signature(sig(&module, &[I64, I32, I64, I64, I64], &[I64])),
            v2: b.import_signature(sig(&module, &[I64, I32, I64], &[I64])),
            st1: b.import_signature(sig(&module, &[I64, I32], &[I32])),
            unit: b.import_signature(sig(&module, &[I64], &[])),
        };
        inline_sites = Tr::emit(&mut b, code, f, sigs, spec)?;
        let cold = code.ops.iter().any(is_cold);
        resets = (cold || f.frame_size > 0, cold);
        b.finalize(module.target_config());
    }
    module
        .define_function(id, &mut ctx)
        .map_err(|e| format!("{e:?}"))?;
    let size = ctx
        .compiled_code()
        .map(|c| c.code_info().total_size as usize)
        .unwrap_or(0);
    if std::env::var_os("FPGACL_JIT_CLIF").is_some() {
        eprintln!("; clif of kernel {}\n{}", f.name, ctx.func.display());
    }
    if disasm {
        if let Some(v) = ctx.compiled_code().and_then(|c| c.vcode.as_deref()) {
            eprintln!("; kernel {} ({size} bytes)\n{v}", f.name);
        }
    }
    module.clear_context(&mut ctx);
    module.finalize_definitions().map_err(|e| e.to_string())?;
    let p = module.get_finalized_function(id);
    // SAFETY: the function was built with the signature `Entry` describes (two pointers in,
    // a 32-bit status out, the platform's C calling convention).
    let entry: Entry = unsafe { std::mem::transmute::<*const u8, Entry>(p) };
    Ok((module, entry, size, inline_sites, resets))
}

/// Whether `count` counts an access of `site` inline (else through `h_count`): the immediate
/// offsets of the site's and its tracker's row, last address and issue counter fit an i32,
/// the access has an alignment and the word shift is sane.
fn counted_inline(spec: &Spec, site: u32, size: u64, elem: u64) -> bool {
    let align = if size.is_power_of_two() { size } else { elem };
    let small = |s: u64| {
        s.checked_mul((field::COUNT * 8) as u64)
            .is_some_and(|x| x < i32::MAX as u64 / 2)
    };
    let (ts, _) = spec.tracker(site);
    align != 0 && small(site as u64) && small(ts as u64) && spec.word_shift < 64
}

/// Whether an access of `site` is counted inline in a run (`Tr::count_batched`): the site has
/// its own burst tracker and the kernel batches.
fn counted_in_runs(spec: &Spec, batching: bool, site: u32, size: u64, elem: u64) -> bool {
    counted_inline(spec, site, size, elem)
        && batching
        && spec.tracker(site) == (site, 1)
        && size > 0
        && (site as usize)
            .checked_mul(size_of::<super::super::batch::Batch>())
            .is_some_and(|x| x < i32::MAX as usize / 2)
}

/// Iterations a chunk runs at most, and header visits a failed chunk check skips before the
/// next check (see [`Tr::chunk`]): one, the visit that gives a new run its stride (a loop's
/// first iteration starts its sites' runs, the second sets their strides, the third can start
/// a chunk).
const CHUNK_MAX: i64 = 1 << 20;
const CHUNK_SKIP: i64 = 1;

/// The translator's state while emitting one kernel.
struct Tr<'a, 'b> {
    b: &'a mut FunctionBuilder<'b>,
    code: &'a Code,
    sigs: Sigs,
    vars: Vec<Variable>,
    frame: Value,
    regs: Value,
    regions: Value,
    nregions: Value,
    ids: Value,
    visits: Value,
    entries: Value,
    heads: Value,
    enters: Value,
    clock_helper: Value,
    clock: Variable,
    poll: Variable,
    status: Variable,
    /// Where a returning work-item goes: the next item of the work-item loop, or the exit.
    item_end: Block,
    exit: Block,
    blocks: Vec<Option<Block>>,
    remaining: Vec<u32>,
    sealed: Vec<bool>,
    /// Per slot, the constant of `Code::const_init` it holds for the whole run (no op writes
    /// it): used as an immediate, not a variable (fewer SSA lookups and block parameters).
    consts: Vec<Option<u64>>,
    /// A constant slot was written (never expected): the kernel is not compiled.
    const_written: bool,
    /// Per slot: some op writes it (`Tr::d`). The others hold their initial value (an
    /// argument, a constant or zero, as in the register template) for the whole run: a
    /// barrier does not store them and a resume does not reload them.
    written: Vec<bool>,
    /// Pointer values made by `ptr_add` mapped to a value with the same region number (the
    /// pointer they were computed from, or its own such value): `ptr_add` keeps the region
    /// on both of its paths, and the earlier value dominates the later, so an access finds
    /// its region's table entry from a value that is often loop-invariant.
    region_src: std::collections::HashMap<Value, Value>,
    /// Per op: a two-way branch that stays in its loop when its condition is false
    /// ([`body_on_false`]).
    body_on_false: Vec<bool>,
    /// Float views of slot values, so that a chain of float ops passes floats, not a bitcast
    /// pair per op (Cranelift keeps such pairs): the i64 slot encoding made by
    /// `of_f32`/`of_f64` maps to the float it encodes, valid wherever the encoding is (the
    /// float dominates it; block `None`); a conversion made at a use is reused only in the
    /// block it was made in (it need not dominate the others).
    fviews: std::collections::HashMap<Value, (Value, Option<Block>)>,
    /// Kernels with barriers: the resume dispatch (filled in once every op is translated)
    /// and the common barrier exit that every barrier jumps to.
    dispatch: Option<Block>,
    barrier_exit: Option<Block>,
    /// The counting specialisation, the sites counted inline so far (site, tracker, accesses
    /// per wide access) and the run-constant pointers of `Frame::cnt`, loaded once at entry.
    spec: &'a Spec,
    inline_sites: Vec<(u32, u32, u32)>,
    crows: Value,
    clast: Value,
    cnlast: Value,
    cissued: Value,
    /// Accesses are counted in runs (`exec::batch`): not for kernels whose counters another
    /// thread may read while they run (channels, pipes, autorun); `cbatch` is
    /// `CountEnv::batches`.
    batching: bool,
    cbatch: Value,
    /// Per site: executed at most once per work-item (issue slot 0, [`once_sites`]).
    once: Vec<bool>,
    /// Per op: the counted loop whose body starts there (`super::counted`), with its gate
    /// (header visits to skip before the next chunk check) and its chunk's countdown.
    counted: Vec<Option<(Counted, Variable, Variable)>>,
    /// A straight-line kernel's affine program (`counted::straight_kernel`) and the work-item
    /// loop its item chunks run in.
    straight: Option<(Body, ItemLoop)>,
    /// While a loop chunk's body is emitted: per slot, the float variable that holds it
    /// (`counted::float_slots`; `v` and `d` go through it).
    fshadow: Vec<Option<Variable>>,
}

/// A run a chunk extends: its site, address step, issue counter (code with issue counters)
/// and slot step (0 or 1).
struct Run {
    site: u32,
    step: Value,
    issued: Option<Value>,
    dslot: Value,
}

/// What a chunk check found ([`Tr::chunk_check`]): whether the chunk may run, per access op
/// its region's host base, and the runs the chunk extends.
struct Checked {
    ok: Value,
    hosts: Vec<Host>,
    runs: Vec<Run>,
}

/// Where a chunk's access (op `pc`) finds host memory: variable `var`, set by the check to the
/// access's host address at the chunk's first iteration and advanced by `step` (the affine
/// program's) per iteration (strength reduction: no address arithmetic per access).
#[derive(Clone, Copy)]
struct Host {
    pc: u32,
    step: Value,
    var: Variable,
}

/// The work-item loop as an item chunk sees it: the loop's length, dimension 0's local size
/// and group base id, the per-item clock cost, the variables of the item index, dimension 0's
/// local id and the chunk's item counter, and each slot's register template value.
struct ItemLoop {
    items: Value,
    lsize0: Value,
    gbase0: Value,
    item_cost: Value,
    item: Variable,
    lid0: Variable,
    j: Variable,
    init: Vec<Value>,
}

/// Where an access is in bounds: the block, the region entry and the offset.
struct Fast {
    block: Block,
    rp: Value,
    off: Value,
}

fn fo(off: usize) -> i32 {
    off as i32
}

impl<'a, 'b> Tr<'a, 'b> {
    fn emit(
        b: &'a mut FunctionBuilder<'b>,
        code: &'a Code,
        f: &Function,
        sigs: Sigs,
        spec: &'a Spec,
    ) -> Result<Vec<(u32, u32, u32)>, String> {
        let ops = &code.ops;
        let n = ops.len();
        let leader = leaders(code)?;
        let mut remaining = vec![0u32; n];
        remaining[0] = 1;
        let resumes = resume_points(code);
        for (i, op) in ops.iter().enumerate() {
            if is_term(op) {
                for t in targets(op, code) {
                    remaining[t as usize] += 1;
                }
            } else if is_barrier(op) {
                // The op after a barrier: its one predecessor is the resume dispatch.
            } else if i + 1 < n && leader[i + 1] {
                remaining[i + 1] += 1;
            }
        }
        let blocks: Vec<Option<Block>> = leader
            .iter()
            .map(|&l| if l { Some(b.create_block()) } else { None })
            .collect();
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        b.seal_block(entry);
        let frame = b.block_params(entry)[0];
        let regs = b.block_params(entry)[1];
        let ro = MemFlagsData::trusted().with_readonly();
        let ld = |b: &mut FunctionBuilder, off: usize| b.ins().load(I64, ro, frame, fo(off));
        let regions = ld(b, offset_of!(Frame, regions));
        let nregions = ld(b, offset_of!(Frame, nregions));
        let ids = ld(b, offset_of!(Frame, ids));
        let visits = ld(b, offset_of!(Frame, visits));
        let entries = ld(b, offset_of!(Frame, entries));
        let heads = ld(b, offset_of!(Frame, heads));
        let enters = ld(b, offset_of!(Frame, enters));
        let clock_helper = ld(b, offset_of!(Frame, clock_helper));
        let cl = |b: &mut FunctionBuilder, o: usize| ld(b, offset_of!(Frame, cnt) + o);
        let crows = cl(b, offset_of!(CountEnv, rows));
        let clast = cl(b, offset_of!(CountEnv, last));
        let cnlast = cl(b, offset_of!(CountEnv, nlast));
        let cissued = cl(b, offset_of!(CountEnv, issued));
        let cbatch = cl(b, offset_of!(CountEnv, batches));
        let clock0 = b.ins().load(
            I64,
            MemFlagsData::trusted(),
            frame,
            fo(offset_of!(Frame, clock)),
        );
        let poll0 = b.ins().load(
            I32,
            MemFlagsData::trusted(),
            frame,
            fo(offset_of!(Frame, poll)),
        );
        // Initial slot values: the launch's register template holds the arguments (loaded),
        // the constants of `const_init` (known here) and zeros.
        let ns = code.num_slots as usize;
        let zero64 = b.ins().iconst(I64, 0);
        let mut init: Vec<Option<Value>> = vec![None; ns];
        let mut consts: Vec<Option<u64>> = vec![None; ns];
        for &(s, v) in &code.const_init {
            if let Some(x) = consts.get_mut(s as usize) {
                *x = Some(v);
            }
        }
        for a in &f.args {
            let n = match &a.kind {
                ArgKind::Value { ty } => ty.lanes.max(1) as usize,
                _ => 1,
            };
            let first = a.reg.0 as usize;
            for (s, x) in init.iter_mut().enumerate().skip(first).take(n) {
                *x = Some(b.ins().load(I64, MemFlagsData::trusted(), regs, fo(s * 8)));
            }
        }
        let mut vars = Vec::with_capacity(ns);
        for _ in 0..ns {
            vars.push(b.declare_var(I64));
        }
        // The work-item loop (`Frame::items`; 0: one item, set up by the caller).
        let ldf = |b: &mut FunctionBuilder, off: usize| b.ins().load(I64, ro, frame, fo(off));
        let items = ldf(b, offset_of!(Frame, items));
        let lsize: Vec<Value> = (0..3)
            .map(|d| ldf(b, offset_of!(Frame, lsize) + d * 8))
            .collect();
        let item = b.declare_var(I64);
        b.def_var(item, zero64);
        let lid: Vec<Variable> = (0..3).map(|_| b.declare_var(I64)).collect();
        for &v in &lid {
            b.def_var(v, zero64);
        }
        let item_head = b.create_block();
        let item_end = b.create_block();
        let body = b.create_block();
        let setup = b.create_block();
        let clock = b.declare_var(I64);
        b.def_var(clock, clock0);
        let poll = b.declare_var(I32);
        b.def_var(poll, poll0);
        let status = b.declare_var(I32);
        let zero = b.ins().iconst(I32, 0);
        b.def_var(status, zero);
        let exit = b.create_block();
        // Constant through a call (one group's items): loaded once, not per item.
        let gbase: Vec<Value> = (0..3)
            .map(|d| ldf(b, offset_of!(Frame, gbase) + d * 8))
            .collect();
        let item_cost = ldf(b, offset_of!(Frame, item_cost));
        let rw = MemFlagsData::trusted();
        // A loop over items (`items` > 0) starts at local id (0, 0, 0): dimensions 1 and 2 of
        // the ids are written here and when they change (the item end's carries), dimension
        // 0 per item. One item set up by the caller (`items` 0) keeps the caller's ids.
        let init_ids = b.create_block();
        b.ins().brif(items, init_ids, &[], item_head, &[]);
        b.switch_to_block(init_ids);
        b.seal_block(init_ids);
        for (d, &g) in gbase.iter().enumerate().skip(1) {
            b.ins()
                .store(rw, zero64, ids, fo(offset_of!(Ids, lid) + d * 8));
            b.ins().store(rw, g, ids, fo(offset_of!(Ids, gid) + d * 8));
        }
        b.ins().jump(item_head, &[]);
        // Each item of the loop: dimension 0's ids (memory, read by `WorkItemC` and the
        // helpers), the trapping item's index, the item's clock ticks, private memory and
        // issue counters.
        b.switch_to_block(item_head);
        b.ins().brif(items, setup, &[], body, &[]);
        b.switch_to_block(setup);
        b.seal_block(setup);
        let lin = b.use_var(item);
        b.ins().store(rw, lin, frame, fo(offset_of!(Frame, item)));
        let l0 = b.use_var(lid[0]);
        let g0 = b.ins().iadd(gbase[0], l0);
        b.ins().store(rw, l0, ids, fo(offset_of!(Ids, lid)));
        b.ins().store(rw, g0, ids, fo(offset_of!(Ids, gid)));
        let c = b.use_var(clock);
        let c = b.ins().iadd(c, item_cost);
        b.def_var(clock, c);
        if code.ops.iter().any(is_cold) || f.frame_size > 0 {
            let callee = b.ins().iconst(I64, h::h_reset as *const () as usize as i64);
            b.ins().call_indirect(sigs.unit, callee, &[frame]);
        }
        let mut trackers: Vec<u32> = access_sites(code)
            .into_iter()
            .map(|s| spec.tracker(s).0)
            .collect();
        trackers.sort_unstable();
        trackers.dedup();
        // Code for groups of one work-item (`Spec::single`) has no issue counters to zero.
        if !trackers.is_empty() && !spec.single {
            let z32 = b.ins().iconst(I32, 0);
            for ts in trackers {
                b.ins().store(rw, z32, cissued, (ts as u64 * 4) as i32);
            }
        }
        b.ins().jump(body, &[]);
        b.switch_to_block(body);
        b.seal_block(body);
        let init: Vec<Value> = init.into_iter().map(|x| x.unwrap_or(zero64)).collect();
        for (&v, &x) in vars.iter().zip(&init) {
            b.def_var(v, x);
        }
        let item_loop = ItemLoop {
            items,
            lsize0: lsize[0],
            gbase0: gbase[0],
            item_cost,
            item,
            lid0: lid[0],
            j: b.declare_var(I64),
            init,
        };
        let mut t = Tr {
            b,
            code,
            sigs,
            vars,
            frame,
            regs,
            regions,
            nregions,
            ids,
            visits,
            entries,
            heads,
            enters,
            clock_helper,
            clock,
            poll,
            status,
            exit,
            item_end,
            blocks,
            remaining,
            sealed: vec![false; n],
            consts,
            const_written: false,
            written: vec![false; ns],
            fviews: std::collections::HashMap::new(),
            body_on_false: body_on_false(code),
            region_src: std::collections::HashMap::new(),
            dispatch: None,
            barrier_exit: None,
            spec,
            inline_sites: Vec::new(),
            crows,
            clast,
            cnlast,
            cissued,
            batching: !code.uses_fifos && !f.attrs.autorun,
            once: once_sites(
                code,
                spec.coalesce
                    .len()
                    .max(access_sites(code).last().map_or(0, |&s| s as usize + 1)),
            ),
            cbatch,
            counted: Vec::new(),
            straight: None,
            fshadow: Vec::new(),
        };
        // Counted loops and straight-line kernels run in chunks (`FPGACL_JIT_CHUNKS=0` turns
        // them off: measurements).
        let batching = t.batching;
        let off = |v: &std::ffi::OsStr| matches!(v.to_str(), Some("0" | "false" | "no" | "off"));
        if !std::env::var_os("FPGACL_JIT_CHUNKS").is_some_and(|v| off(&v)) {
            let inline =
                |site: u32, size: u64, elem: u64| counted_in_runs(spec, batching, site, size, elem);
            let zero = t.b.ins().iconst(I64, 0);
            let cl = counted_loops(code, &inline);
            if std::env::var_os("FPGACL_JIT_OPS").is_some() {
                let at: Vec<u32> = cl.iter().flatten().map(|c| c.body).collect();
                eprintln!("; counted loops (first body op): {at:?}");
            }
            // Straight-line kernels run their work-items in chunks (not with private memory:
            // each item resets it).
            if f.frame_size == 0 && resumes.is_empty() {
                t.straight = straight_kernel(code, &inline).map(|b| (b, item_loop));
                if std::env::var_os("FPGACL_JIT_OPS").is_some() {
                    eprintln!("; work-items in chunks: {}", t.straight.is_some());
                }
            }
            t.counted = cl
                .into_iter()
                .map(|c| {
                    c.map(|c| {
                        let gate = t.b.declare_var(I64);
                        t.b.def_var(gate, zero);
                        let left = t.b.declare_var(I64);
                        t.b.def_var(left, zero);
                        // The chunk's exit is one more way into the loop header.
                        t.remaining[c.head as usize] += 1;
                        (c, gate, left)
                    })
                })
                .collect();
        }
        for &r in &resumes {
            t.remaining[r as usize] += 1;
        }
        if resumes.is_empty() {
            t.jump_op(0);
        } else {
            t.resume_start();
        }
        for (i, op) in ops.iter().enumerate() {
            if let Some(blk) = t.blocks[i] {
                t.b.switch_to_block(blk);
                if t.remaining[i] == 0 && !t.sealed[i] {
                    // No predecessor (dead code after a terminator): sealed now.
                    t.b.seal_block(blk);
                    t.sealed[i] = true;
                }
            }
            if i == 0 {
                if let Some((body, il)) = t.straight.take() {
                    t.item_chunk(&body, il)?;
                }
            }
            if let Some((c, gate, left)) = t.counted.get_mut(i).and_then(Option::take) {
                t.chunk(&c, gate, left)?;
            }
            t.op(i as u32)?;
            if !ends_block(op) && i + 1 < n && t.blocks[i + 1].is_some() {
                t.jump_op(i + 1);
            }
        }
        if !resumes.is_empty() {
            t.resume_dispatch(&resumes);
        }
        // A work-item returned: the next one (local ids in the worker's order), or the exit.
        t.b.switch_to_block(item_end);
        t.b.seal_block(item_end);
        let lin = t.b.use_var(item);
        let lin = t.b.ins().iadd_imm_s(lin, 1);
        t.b.def_var(item, lin);
        let z = t.b.ins().iconst(I32, 0);
        t.b.def_var(status, z);
        // The target that stays in the loop named second (see `body_on_false`).
        let done =
            t.b.ins()
                .icmp(IntCC::UnsignedGreaterThanOrEqual, lin, items);
        let next = t.b.create_block();
        t.b.ins().brif(done, exit, &[], next, &[]);
        t.b.switch_to_block(next);
        t.b.seal_block(next);
        // The next local id: dimension 0 steps; a wrap (once per row) carries into the
        // next dimension in a cold block. The last dimension never wraps (`items` ends first).
        // Dimensions 1 and 2 write their ids where they change.
        let z64 = t.b.ins().iconst(I64, 0);
        let set_ids = |t: &mut Tr, d: usize, l: Value| {
            if d > 0 {
                let g = t.b.ins().iadd(gbase[d], l);
                t.b.ins()
                    .store(rw, l, t.ids, fo(offset_of!(Ids, lid) + d * 8));
                t.b.ins()
                    .store(rw, g, t.ids, fo(offset_of!(Ids, gid) + d * 8));
            }
        };
        for (d, &lv) in lid.iter().enumerate() {
            let l = t.b.use_var(lv);
            let l = t.b.ins().iadd_imm_s(l, 1);
            if d == 2 {
                t.b.def_var(lv, l);
                set_ids(&mut t, d, l);
                t.b.ins().jump(item_head, &[]);
                break;
            }
            let wrap = t.b.ins().icmp(IntCC::Equal, l, lsize[d]);
            let keep = t.b.create_block();
            let carry = t.b.create_block();
            t.b.set_cold_block(carry);
            t.b.ins().brif(wrap, carry, &[], keep, &[]);
            t.b.switch_to_block(keep);
            t.b.seal_block(keep);
            t.b.def_var(lv, l);
            set_ids(&mut t, d, l);
            t.b.ins().jump(item_head, &[]);
            t.b.switch_to_block(carry);
            t.b.seal_block(carry);
            t.b.def_var(lv, z64);
            set_ids(&mut t, d, z64);
        }
        t.b.seal_block(item_head);
        // The exit: write back the clock and the poll countdown, return the status.
        t.b.switch_to_block(exit);
        t.b.seal_block(exit);
        let c = t.b.use_var(clock);
        let p = t.b.use_var(poll);
        let st = t.b.use_var(status);
        t.b.ins().store(
            MemFlagsData::trusted(),
            c,
            frame,
            fo(offset_of!(Frame, clock)),
        );
        t.b.ins().store(
            MemFlagsData::trusted(),
            p,
            frame,
            fo(offset_of!(Frame, poll)),
        );
        t.b.ins().return_(&[st]);
        if t.const_written {
            return Err("internal: an op writes a constant slot".into());
        }
        let mut sites = t.inline_sites;
        sites.sort_unstable();
        sites.dedup();
        Ok(sites)
    }

    /// The start of a work-item with barriers: `Frame::resume` 0 starts at op 0; else the
    /// work-item stopped at a barrier (`Exit::Barrier`) and resumes at op `resume` through the
    /// dispatch ([`Tr::resume_dispatch`]).
    fn resume_start(&mut self) {
        let rp = self.b.ins().load(
            I64,
            MemFlagsData::trusted(),
            self.frame,
            fo(offset_of!(Frame, resume)),
        );
        let dispatch = self.b.create_block();
        let b0 = self.blocks[0].expect("op 0 starts a block");
        self.b.ins().brif(rp, dispatch, &[], b0, &[]);
        self.pred_done(0);
        self.dispatch = Some(dispatch);
        self.barrier_exit = Some(self.b.create_block());
    }

    /// Once every op is translated (the slots some op writes are known): the resume dispatch
    /// (those slots reloaded from the register file, then a jump to the op after the barrier,
    /// one of `resumes`, checked by `jit::run`) and the barrier exit (those slots stored to the
    /// register file, where the dispatch or the interpreter finds them; status [`BARRIER`]).
    fn resume_dispatch(&mut self, resumes: &[u32]) {
        let moved: Vec<u32> = (0..self.code.num_slots)
            .filter(|&s| self.written[s as usize] && self.consts[s as usize].is_none())
            .collect();
        let dispatch = self.dispatch.expect("resume_start ran");
        self.b.switch_to_block(dispatch);
        self.b.seal_block(dispatch);
        let rp = self.b.ins().load(
            I64,
            MemFlagsData::trusted(),
            self.frame,
            fo(offset_of!(Frame, resume)),
        );
        self.reload(&moved);
        for &r in resumes {
            let c = self.b.ins().icmp_imm_s(IntCC::Equal, rp, r as i64);
            let next = self.b.create_block();
            let bt = self.blocks[r as usize].expect("the op after a barrier starts a block");
            self.b.ins().brif(c, bt, &[], next, &[]);
            self.pred_done(r as usize);
            self.b.switch_to_block(next);
            self.b.seal_block(next);
        }
        // Not reachable (`jit::run` only resumes at `resumes`).
        let pcv = self.c32(0);
        let st = self
            .call(
                self.sigs.st1,
                h::h_unreachable as *const () as usize,
                &[self.frame, pcv],
            )
            .expect("status");
        self.exit_with(st);
        let bx = self.barrier_exit.expect("resume_start ran");
        self.b.switch_to_block(bx);
        self.b.seal_block(bx);
        self.spill(&moved);
        let st = self.c32(BARRIER);
        self.exit_with(st);
    }

    // ---- small builders -------------------------------------------------------------------

    fn v(&mut self, s: u32) -> Value {
        if let Some(c) = self.consts[s as usize] {
            return self.c64(c);
        }
        if let Some(&Some(fv)) = self.fshadow.get(s as usize) {
            let f = self.b.use_var(fv);
            return self.of_f32(f);
        }
        let var = self.vars[s as usize];
        self.b.use_var(var)
    }

    fn d(&mut self, s: u32, x: Value) {
        self.const_written |= self.consts[s as usize].is_some();
        self.written[s as usize] = true;
        if let Some(&Some(fv)) = self.fshadow.get(s as usize) {
            let f = self.f32_of(x);
            self.b.def_var(fv, f);
            return;
        }
        let var = self.vars[s as usize];
        self.b.def_var(var, x);
    }

    fn c64(&mut self, x: u64) -> Value {
        self.b.ins().iconst(I64, x as i64)
    }

    fn c32(&mut self, x: u32) -> Value {
        self.b.ins().iconst(I32, x as i64)
    }

    /// Calls helper `f` (an `extern "C"` function address) with signature `sig`.
    fn call(&mut self, sig: SigRef, f: usize, args: &[Value]) -> Option<Value> {
        let callee = self.b.ins().iconst(I64, f as i64);
        let inst = self.b.ins().call_indirect(sig, callee, args);
        self.b.inst_results(inst).first().copied()
    }

    /// A two-way branch at op `pc` to op `t` when condition `c` (an integer, true when not 0)
    /// holds, else to op `f`. Cranelift's e-graph moves loop-invariant code out of a loop only
    /// while its dominator-tree walk has the loop on its loop stack, and the walk drops the
    /// loop for good when it visits a block outside the loop before the last block inside it
    /// that hangs off the same branch. The walk visits the branch's second target first, so
    /// the target that stays in the loop is named second: the true one unless
    /// [`body_on_false`] says otherwise (measured on mandelbrot: its `cx`, `cy` divisions
    /// were recomputed on every iteration).
    fn brif_loop_friendly(&mut self, pc: u32, c: Value, t: u32, f: u32) {
        let (bt, bf) = (
            self.blocks[t as usize].unwrap(),
            self.blocks[f as usize].unwrap(),
        );
        if self.body_on_false[pc as usize] {
            self.b.ins().brif(c, bt, &[], bf, &[]);
        } else {
            let nc = self.b.ins().icmp_imm_s(IntCC::Equal, c, 0);
            self.b.ins().brif(nc, bf, &[], bt, &[]);
        }
        self.pred_done(t as usize);
        self.pred_done(f as usize);
    }

    /// A jump to the block of op `t` (counts one emitted predecessor of it).
    fn jump_op(&mut self, t: usize) {
        let blk = self.blocks[t].expect("jump target starts a block");
        self.b.ins().jump(blk, &[]);
        self.pred_done(t);
    }

    fn pred_done(&mut self, t: usize) {
        self.remaining[t] -= 1;
        if self.remaining[t] == 0 {
            let blk = self.blocks[t].expect("block");
            self.b.seal_block(blk);
            self.sealed[t] = true;
        }
    }

    /// Leaves the kernel with `status` (0 = returned).
    fn exit_with(&mut self, st: Value) {
        let status = self.status;
        self.b.def_var(status, st);
        let exit = self.exit;
        self.b.ins().jump(exit, &[]);
    }

    /// Leaves with the status if it is not 0, else goes on in a new block.
    fn exit_if(&mut self, st: Value) {
        let status = self.status;
        self.b.def_var(status, st);
        let cont = self.b.create_block();
        let exit = self.exit;
        self.b.ins().brif(st, exit, &[], cont, &[]);
        self.b.switch_to_block(cont);
        self.b.seal_block(cont);
    }

    /// The slot encoding of kind `k` (`values::norm`).
    fn norm(&mut self, k: Scalar, x: Value) -> Value {
        let ins = |b: &mut FunctionBuilder, t: Type, signed: bool| {
            let r = b.ins().ireduce(t, x);
            if signed {
                b.ins().sextend(I64, r)
            } else {
                b.ins().uextend(I64, r)
            }
        };
        match k {
            Scalar::I8 => ins(self.b, I8, true),
            Scalar::U8 => ins(self.b, I8, false),
            Scalar::I16 => ins(self.b, types::I16, true),
            Scalar::U16 | Scalar::F16 => ins(self.b, types::I16, false),
            Scalar::I32 => ins(self.b, I32, true),
            Scalar::U32 | Scalar::F32 => ins(self.b, I32, false),
            Scalar::I64 | Scalar::U64 | Scalar::F64 => x,
            Scalar::Bool => {
                let c = self.b.ins().icmp_imm_s(IntCC::NotEqual, x, 0);
                self.b.ins().uextend(I64, c)
            }
        }
    }

    /// `values::convert` inline where Cranelift's conversions are the same IEEE operations:
    /// integer to float and float to float rounded to nearest even, float to integer toward
    /// zero with NaN giving 0 and out-of-range values clamped to the kind's range (what
    /// `convert` does with or without `_sat`). Half floats, booleans, integer to integer and
    /// the directed roundings stay with the helper (`None`).
    fn convert_inline(&mut self, from: Scalar, to: Scalar, r: Rounding, v: Value) -> Option<Value> {
        use Scalar as S;
        let int = |k: Scalar| !matches!(k, S::Bool | S::F16 | S::F32 | S::F64);
        let ftype = |k: Scalar| if k == S::F32 { types::F32 } else { types::F64 };
        let nearest = matches!(r, Rounding::Default | Rounding::Rte);
        let toward_zero = matches!(r, Rounding::Default | Rounding::Rtz);
        match (from, to) {
            (f, S::F32 | S::F64) if int(f) && nearest => {
                let i = self.norm(f, v);
                let x = if f == S::U64 {
                    self.b.ins().fcvt_from_uint(ftype(to), i)
                } else {
                    self.b.ins().fcvt_from_sint(ftype(to), i)
                };
                Some(self.float_slot(x))
            }
            (S::F32, S::F64) => {
                let x = self.f32_of(v);
                let y = self.b.ins().fpromote(types::F64, x);
                Some(self.float_slot(y))
            }
            (S::F64, S::F32) if nearest => {
                let x = self.f64_of(v);
                let y = self.b.ins().fdemote(types::F32, x);
                Some(self.float_slot(y))
            }
            (S::F32 | S::F64, t) if int(t) && toward_zero => {
                let x = self.float_view(v, ftype(from));
                let signed = t.is_signed();
                let wide = matches!(t, S::I64 | S::U64);
                let it = if wide { I64 } else { I32 };
                let y = if signed {
                    self.b.ins().fcvt_to_sint_sat(it, x)
                } else {
                    self.b.ins().fcvt_to_uint_sat(it, x)
                };
                let y = match t {
                    S::I8 | S::I16 => {
                        let (lo, hi) = if t == S::I8 {
                            (-128, 127)
                        } else {
                            (-32768, 32767)
                        };
                        let lo = self.b.ins().iconst(I32, lo);
                        let hi = self.b.ins().iconst(I32, hi);
                        let y = self.b.ins().smax(y, lo);
                        self.b.ins().smin(y, hi)
                    }
                    S::U8 | S::U16 => {
                        let hi = if t == S::U8 { 255 } else { 65535 };
                        let hi = self.b.ins().iconst(I32, hi);
                        self.b.ins().umin(y, hi)
                    }
                    _ => y,
                };
                let y = if wide {
                    y
                } else if signed {
                    self.b.ins().sextend(I64, y)
                } else {
                    self.b.ins().uextend(I64, y)
                };
                Some(self.norm(t, y))
            }
            _ => None,
        }
    }

    /// A known view of `x` of type `t` usable here.
    fn view(&self, x: Value, t: Type) -> Option<Value> {
        let &(f, blk) = self.fviews.get(&x)?;
        let here = blk.is_none() || blk == self.b.current_block();
        (here && self.b.func.dfg.value_type(f) == t).then_some(f)
    }

    /// The float a slot value of kind F32 or F64 encodes.
    fn float_view(&mut self, x: Value, t: Type) -> Value {
        if let Some(f) = self.view(x, t) {
            return f;
        }
        let f = if t == types::F32 {
            let r = self.b.ins().ireduce(I32, x);
            self.b.ins().bitcast(types::F32, MemFlagsData::new(), r)
        } else {
            self.b.ins().bitcast(types::F64, MemFlagsData::new(), x)
        };
        let here = self.b.current_block();
        self.fviews.insert(x, (f, here));
        f
    }

    /// The slot encoding of float `x` (F32 or F64).
    fn float_slot(&mut self, x: Value) -> Value {
        if let Some(v) = self.view(x, I64) {
            return v;
        }
        let v = if self.b.func.dfg.value_type(x) == types::F32 {
            let r = self.b.ins().bitcast(I32, MemFlagsData::new(), x);
            self.b.ins().uextend(I64, r)
        } else {
            self.b.ins().bitcast(I64, MemFlagsData::new(), x)
        };
        let here = self.b.current_block();
        self.fviews.insert(v, (x, None));
        self.fviews.insert(x, (v, here));
        v
    }

    fn f32_of(&mut self, x: Value) -> Value {
        self.float_view(x, types::F32)
    }

    fn of_f32(&mut self, x: Value) -> Value {
        self.float_slot(x)
    }

    fn f64_of(&mut self, x: Value) -> Value {
        self.float_view(x, types::F64)
    }

    fn of_f64(&mut self, x: Value) -> Value {
        self.float_slot(x)
    }

    /// `sqrt` or `rsqrt` of operand value `x` inline (see [`lane_inlinable`]), as
    /// `builtins::lane` computes it: in double precision (`1.0 / x.sqrt()`), rounded to the
    /// lane's kind (promote, square root, divide, demote: the same IEEE operations, no NaN
    /// canonicalisation).
    fn lane_inline(&mut self, f: BuiltinFn, k: Scalar, x: Value, y: Value, z: Value) -> Value {
        let f32k = k == Scalar::F32;
        match f {
            BuiltinFn::Rotate => {
                let t = match k.size() {
                    1 => I8,
                    2 => types::I16,
                    4 => I32,
                    _ => I64,
                };
                if t == I64 {
                    return self.b.ins().rotl(x, y);
                }
                let (a, s) = (self.b.ins().ireduce(t, x), self.b.ins().ireduce(t, y));
                let r = self.b.ins().rotl(a, s);
                let r = self.b.ins().uextend(I64, r);
                return self.norm(k, r);
            }
            BuiltinFn::Min | BuiltinFn::Max => {
                // `int_lane`: `if y < x { b } else { a }` (min), `if x < y { b } else { a }`
                // (max), compared as the kind's integers.
                let cc = if k.is_signed() {
                    IntCC::SignedLessThan
                } else {
                    IntCC::UnsignedLessThan
                };
                let lt = if f == BuiltinFn::Min {
                    self.b.ins().icmp(cc, y, x)
                } else {
                    self.b.ins().icmp(cc, x, y)
                };
                return self.b.ins().select(lt, y, x);
            }
            // The canonical NaN chosen among floats (a result that stays a float: no move to
            // an integer register and back on an accumulator's dependency chain).
            BuiltinFn::Mad => {
                let (a, b, c) = if f32k {
                    (self.f32_of(x), self.f32_of(y), self.f32_of(z))
                } else {
                    (self.f64_of(x), self.f64_of(y), self.f64_of(z))
                };
                let p = self.b.ins().fmul(a, b);
                let r = self.b.ins().fadd(p, c);
                let nan = self.b.ins().fcmp(FloatCC::Unordered, r, r);
                let q = if f32k {
                    self.b.ins().f32const(f32::NAN)
                } else {
                    self.b.ins().f64const(f64::NAN)
                };
                let r = self.b.ins().select(nan, q, r);
                return self.float_slot(r);
            }
            _ => {}
        }
        let v = if f32k {
            let v = self.f32_of(x);
            self.b.ins().fpromote(types::F64, v)
        } else {
            self.f64_of(x)
        };
        let mut r = self.b.ins().sqrt(v);
        if f == BuiltinFn::Rsqrt {
            let one = self.b.ins().f64const(1.0);
            r = self.b.ins().fdiv(one, r);
        }
        if f32k {
            let r = self.b.ins().fdemote(types::F32, r);
            self.of_f32(r)
        } else {
            self.of_f64(r)
        }
    }

    fn bool64(&mut self, c: Value) -> Value {
        self.b.ins().uextend(I64, c)
    }

    fn icmp(&mut self, op: CmpOp, signed: bool, a: Value, b: Value) -> Value {
        use IntCC::*;
        let cc = match (op, signed) {
            (CmpOp::Eq, _) => Equal,
            (CmpOp::Ne, _) => NotEqual,
            (CmpOp::Lt, true) => SignedLessThan,
            (CmpOp::Le, true) => SignedLessThanOrEqual,
            (CmpOp::Gt, true) => SignedGreaterThan,
            (CmpOp::Ge, true) => SignedGreaterThanOrEqual,
            (CmpOp::Lt, false) => UnsignedLessThan,
            (CmpOp::Le, false) => UnsignedLessThanOrEqual,
            (CmpOp::Gt, false) => UnsignedGreaterThan,
            (CmpOp::Ge, false) => UnsignedGreaterThanOrEqual,
        };
        self.b.ins().icmp(cc, a, b)
    }

    /// Float compare with Rust's `PartialOrd` semantics (`!=` is true for NaN operands).
    fn fcmp(&mut self, op: CmpOp, a: Value, b: Value) -> Value {
        let cc = match op {
            CmpOp::Eq => FloatCC::Equal,
            CmpOp::Ne => FloatCC::NotEqual,
            CmpOp::Lt => FloatCC::LessThan,
            CmpOp::Le => FloatCC::LessThanOrEqual,
            CmpOp::Gt => FloatCC::GreaterThan,
            CmpOp::Ge => FloatCC::GreaterThanOrEqual,
        };
        self.b.ins().fcmp(cc, a, b)
    }

    /// `d = f(a, b)` on two f32 slots.
    fn f32_bin(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let (x, y) = (self.f32_of(a), self.f32_of(b));
        let r = match op {
            BinOp::Add => self.b.ins().fadd(x, y),
            BinOp::Sub => self.b.ins().fsub(x, y),
            BinOp::Mul => self.b.ins().fmul(x, y),
            _ => self.b.ins().fdiv(x, y),
        };
        self.of_f32(r)
    }

    fn f64_bin(&mut self, op: BinOp, a: Value, b: Value) -> Value {
        let (x, y) = (self.f64_of(a), self.f64_of(b));
        let r = match op {
            BinOp::Add => self.b.ins().fadd(x, y),
            BinOp::Sub => self.b.ins().fsub(x, y),
            BinOp::Mul => self.b.ins().fmul(x, y),
            _ => self.b.ins().fdiv(x, y),
        };
        self.of_f64(r)
    }

    /// `ptr_add(p, delta)` into slot `d`.
    fn ptr_add_into(&mut self, d: u32, p: Value, delta: Value) {
        let n = self.b.ins().iadd(p, delta);
        let x = self.b.ins().bxor(n, p);
        let carry = self.b.ins().band_imm_s(x, !OFFSET_MASK as i64);
        let slow = self.b.create_block();
        let join = self.b.create_block();
        self.d(d, n);
        self.b.ins().brif(carry, slow, &[], join, &[]);
        self.b.switch_to_block(slow);
        self.b.seal_block(slow);
        let w = self
            .call(
                self.sigs.wide,
                h::h_ptr_wide as *const () as usize,
                &[p, delta],
            )
            .expect("result");
        self.d(d, w);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        self.b.seal_block(join);
        let r = self.v(d);
        let src = self.region_of(p);
        self.region_src.insert(r, src);
    }

    /// A value with the region number of pointer `p` (see `region_src`).
    fn region_of(&self, p: Value) -> Value {
        self.region_src.get(&p).copied().unwrap_or(p)
    }

    /// `t = base + idx << sl` (`interp::indexed`), returned.
    fn indexed(&mut self, t: u32, base: u32, idx: u32, sl: u8) -> Value {
        let i = self.v(idx);
        let p = self.v(base);
        let sh = self.b.ins().ishl_imm_s(i, sl as i64);
        let n = self.b.ins().iadd(p, sh);
        let x = self.b.ins().bxor(n, p);
        let carry = self.b.ins().band_imm_s(x, !OFFSET_MASK as i64);
        let big = self.b.ins().iadd_imm_s(i, 1 << 47);
        let big = self.b.ins().ushr_imm_s(big, 48);
        let bad = self.b.ins().bor(carry, big);
        let slow = self.b.create_block();
        let join = self.b.create_block();
        self.d(t, n);
        self.b.ins().brif(bad, slow, &[], join, &[]);
        self.b.switch_to_block(slow);
        self.b.seal_block(slow);
        let slv = self.c32(sl as u32);
        let w = self
            .call(
                self.sigs.idx_wide,
                h::h_idx_wide as *const () as usize,
                &[p, i, slv],
            )
            .expect("result");
        self.d(t, w);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        self.b.seal_block(join);
        self.v(t)
    }

    /// The inline `Machine::resolve`: returns where the access is in bounds ([`Tr::enter_fast`]
    /// gives its pointer); the builder is left in the block where a refused access was
    /// reported and is skipped (a trap has left the kernel already).
    ///
    /// `region` is a pointer with `addr`'s region number: `addr` itself, or the base an indexed
    /// address was computed from (`indexed` keeps the base's region, fast path or not), so that
    /// the region's table entry is found from a value that is often loop-invariant (the
    /// entry's loads may move: the table does not change during a call).
    fn resolve(
        &mut self,
        addr: Value,
        region: Value,
        size: u64,
        write: bool,
        pc: u32,
        site: u32,
    ) -> Fast {
        let ro = MemFlagsData::trusted().with_readonly().with_can_move();
        let r = self.b.ins().ushr_imm_s(region, REGION_SHIFT as i64);
        let off = self.b.ins().band_imm_s(addr, OFFSET_MASK as i64);
        let inr = self.b.ins().icmp(IntCC::UnsignedLessThan, r, self.nregions);
        let slow = self.b.create_block();
        let fast = self.b.create_block();
        // One branch: a region number out of the table reads entry 0 (then refused anyway).
        let zero = self.c64(0);
        let ri = self.b.ins().select(inr, r, zero);
        let rs = self.b.ins().imul_imm_s(ri, size_of::<Region>() as i64);
        let rp = self.b.ins().iadd(self.regions, rs);
        let len = self.b.ins().load(I64, ro, rp, fo(offset_of!(Region, len)));
        let end = self.b.ins().iadd_imm_s(off, size as i64);
        let fits = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, len);
        let mut ok = self.b.ins().band(inr, fits);
        if write {
            let w = self
                .b
                .ins()
                .load(I8, ro, rp, fo(offset_of!(Region, writable)));
            let w = self.b.ins().icmp_imm_s(IntCC::NotEqual, w, 0);
            ok = self.b.ins().band(ok, w);
        }
        self.b.ins().brif(ok, fast, &[], slow, &[]);
        self.b.switch_to_block(slow);
        self.b.seal_block(slow);
        let pcv = self.c32(pc);
        let sv = self.c32(site);
        let sz = self.c64(size);
        let wv = self.c32(write as u32);
        let st = self
            .call(
                self.sigs.oob,
                h::h_oob as *const () as usize,
                &[self.frame, pcv, sv, addr, sz, wv],
            )
            .expect("status");
        self.exit_if(st);
        Fast {
            block: fast,
            rp,
            off,
        }
    }

    /// Switches to the in-bounds block of an access and returns its host pointer.
    fn enter_fast(&mut self, f: &Fast) -> Value {
        self.b.switch_to_block(f.block);
        self.b.seal_block(f.block);
        let ro = MemFlagsData::trusted().with_readonly().with_can_move();
        let base = self
            .b
            .ins()
            .load(I64, ro, f.rp, fo(offset_of!(Region, base)));
        self.b.ins().iadd(base, f.off)
    }

    fn load_lane(&mut self, k: Scalar, p: Value, off: i32) -> Value {
        let fl = MemFlagsData::new().with_notrap();
        let ins = self.b.ins();
        match k {
            Scalar::Bool => {
                let x = ins.uload8(I64, fl, p, off);
                let c = self.b.ins().icmp_imm_s(IntCC::NotEqual, x, 0);
                self.bool64(c)
            }
            Scalar::I8 => ins.sload8(I64, fl, p, off),
            Scalar::U8 => ins.uload8(I64, fl, p, off),
            Scalar::I16 => ins.sload16(I64, fl, p, off),
            Scalar::U16 | Scalar::F16 => ins.uload16(I64, fl, p, off),
            Scalar::I32 => ins.sload32(fl, p, off),
            Scalar::U32 | Scalar::F32 => ins.uload32(fl, p, off),
            Scalar::I64 | Scalar::U64 | Scalar::F64 => ins.load(I64, fl, p, off),
        }
    }

    fn store_lane(&mut self, k: Scalar, p: Value, off: i32, x: Value) {
        let fl = MemFlagsData::new().with_notrap();
        let ins = self.b.ins();
        match k.size() {
            1 => ins.istore8(fl, x, p, off),
            2 => ins.istore16(fl, x, p, off),
            4 => ins.istore32(fl, x, p, off),
            _ => ins.store(fl, x, p, off),
        };
    }

    /// One counted access: `Machine::count` inline on the machine's own state
    /// (`Frame::cnt`, see [`h::CountEnv`]), specialised at compile time for the site's
    /// tracker and accesses per wide access, the board's memory word and longest burst
    /// ([`Spec`]; `jit::run` checks the machine agrees and that the site fits its tables),
    /// with the access width and alignment known here. Out of line: accesses the
    /// specialisation does not cover (`h_count`) and a new burst row for an issue slot
    /// (`h_rows`). Same counters, in the same order, as `count`.
    fn count(&mut self, site: u32, addr: Value, size: u64, elem: u64) {
        if site == NONE {
            return;
        }
        let align = if size.is_power_of_two() { size } else { elem };
        let (ts, per) = self.spec.tracker(site);
        let ws = self.spec.word_shift;
        let (sv, tv) = (site as u64, ts as u64);
        if !counted_inline(self.spec, site, size, elem) {
            self.count_call(site, addr, size, elem);
            return;
        }
        self.inline_sites.push((site, ts, per));
        if counted_in_runs(self.spec, self.batching, site, size, elem) {
            self.count_batched(site, addr, size, elem);
            return;
        }
        let rw = MemFlagsData::trusted();
        let ce = offset_of!(Frame, cnt);
        let cf = |o: usize| fo(ce + o);
        let done = self.b.create_block();
        let frame = self.frame;
        let one = self.c64(1);
        let rows = self.crows;
        let row = (sv * (field::COUNT * 8) as u64) as i32;
        let bump = |t: &mut Self, f: usize, v: Value| {
            let o = row + (f * 8) as i32;
            let x = t.b.ins().load(I64, rw, rows, o);
            let x = t.b.ins().iadd(x, v);
            t.b.ins().store(rw, x, rows, o);
        };
        let bump_if = |t: &mut Self, f: usize, c: Value| {
            let c = t.b.ins().uextend(I64, c);
            bump(t, f, c);
        };
        // Counters that are usually not bumped are only written when they are: a branch
        // (predictable in loops) instead of a load and a store of every field per access.
        let bump_when = |t: &mut Self, c: Value, fs: &[(usize, Value)]| {
            let yes = t.b.create_block();
            let next = t.b.create_block();
            t.b.ins().brif(c, yes, &[], next, &[]);
            t.b.switch_to_block(yes);
            t.b.seal_block(yes);
            for &(f, v) in fs {
                bump_if(t, f, v);
            }
            t.b.ins().jump(next, &[]);
            t.b.switch_to_block(next);
            t.b.seal_block(next);
        };
        bump(self, field::FIRES, one);
        let szv = self.c64(size);
        bump(self, field::BYTES, szv);
        let last = self.clast;
        let lo = (sv * 8) as i32;
        let prev = self.b.ins().load(I64, rw, last, lo);
        self.b.ins().store(rw, addr, last, lo);
        let had = self.b.ins().icmp_imm_s(IntCC::NotEqual, prev, -1);
        let follow = self.b.ins().iadd_imm_s(prev, size as i64);
        let seq = self.b.ins().icmp(IntCC::Equal, addr, follow);
        let seq = self.b.ins().band(had, seq);
        let same = self.b.ins().icmp(IntCC::Equal, addr, prev);
        let nseq = self.b.ins().icmp_imm_s(IntCC::Equal, seq, 0);
        let rep = self.b.ins().band(same, nseq);
        let rep = self.b.ins().band(had, rep);
        let any = self.b.ins().bor(seq, rep);
        bump_when(
            self,
            any,
            &[(field::SEQUENTIAL, seq), (field::REPEATED, rep)],
        );
        if align > 1 {
            let low = self.b.ins().band_imm_s(addr, (align - 1) as i64);
            let un = self.b.ins().icmp_imm_s(IntCC::NotEqual, low, 0);
            bump_when(self, un, &[(field::UNALIGNED, un)]);
        }
        if size == 0 {
            return;
        }
        // Rule M6: words touched against words needed (the word width is known here).
        let w0 = self.b.ins().ushr_imm_s(addr, ws as i64);
        let end = self.b.ins().iadd_imm_s(addr, (size - 1) as i64);
        let w1 = self.b.ins().ushr_imm_s(end, ws as i64);
        let need = size.div_ceil(1u64 << ws);
        let d = self.b.ins().isub(w1, w0);
        let d1 = self.b.ins().iadd_imm_s(d, 1);
        let cross = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedGreaterThan, d1, need as i64);
        bump_when(self, cross, &[(field::CROSSING, cross)]);
        let slot = self.issue_slot(ts, per);
        let rowsb = self.b.create_block();
        let chk = self.b.create_block();
        let upd = self.b.create_block();
        let used = self
            .b
            .ins()
            .load(I64, rw, frame, cf(offset_of!(CountEnv, burst_rows)));
        let new_row = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, slot, used);
        self.b.ins().brif(new_row, rowsb, &[], chk, &[]);
        self.b.switch_to_block(rowsb);
        self.b.seal_block(rowsb);
        self.call(
            self.sigs.rows,
            h::h_rows as *const () as usize,
            &[frame, slot],
        );
        self.b.ins().jump(chk, &[]);
        self.b.switch_to_block(chk);
        self.b.seal_block(chk);
        let idx = self.b.ins().imul(slot, self.cnlast);
        let idx = self.b.ins().iadd_imm_s(idx, tv as i64);
        let nb = self
            .b
            .ins()
            .load(I64, rw, frame, cf(offset_of!(CountEnv, nbursts)));
        let inb = self.b.ins().icmp(IntCC::UnsignedLessThan, idx, nb);
        self.b.ins().brif(inb, upd, &[], done, &[]);
        // Burst formation (rule M0): continue the tracker's burst (same or next word, up to
        // the longest burst) or start one.
        self.b.switch_to_block(upd);
        self.b.seal_block(upd);
        let bursts = self
            .b
            .ins()
            .load(I64, rw, frame, cf(offset_of!(CountEnv, bursts)));
        let bo = self.b.ins().imul_imm_s(idx, size_of::<(u64, u64)>() as i64);
        let bp = self.b.ins().iadd(bursts, bo);
        let (o0, o1) = (
            offset_of!((u64, u64), 0) as i32,
            offset_of!((u64, u64), 1) as i32,
        );
        let b0 = self.b.ins().load(I64, rw, bp, o0);
        let b1 = self.b.ins().load(I64, rw, bp, o1);
        let nfirst = self.b.ins().icmp_imm_s(IntCC::NotEqual, b0, -1);
        let same = self.b.ins().icmp(IntCC::Equal, w0, b0);
        let nb0 = self.b.ins().iadd_imm_s(b0, 1);
        let next = self.b.ins().icmp(IntCC::Equal, w0, nb0);
        let nf_same = self.b.ins().band(nfirst, same);
        let new = self.b.ins().select(nf_same, d, d1);
        let adj = self.b.ins().bor(same, next);
        let cont = self.b.ins().band(nfirst, adj);
        let grown = self.b.ins().iadd(b1, new);
        let fits = self.b.ins().icmp_imm_u(
            IntCC::UnsignedLessThanOrEqual,
            grown,
            self.spec.max_burst as i64,
        );
        let go_on = self.b.ins().band(cont, fits);
        let len = self.b.ins().select(go_on, grown, new);
        // The common case in loops, an access within the word the burst already holds
        // (no new word, the burst goes on): the tracker, WORDS and BURSTS stay as they are.
        let full = self.b.create_block();
        let maxchk = self.b.create_block();
        let raise = self.b.create_block();
        // (Same word: w0 = w1 = the tracker's last word, so `len` is its length.)
        let one_word = self.b.ins().icmp_imm_s(IntCC::Equal, d, 0);
        let none = self.b.ins().band(nf_same, one_word);
        let same_word = self.b.ins().band(none, go_on);
        self.b.ins().brif(same_word, maxchk, &[], full, &[]);
        self.b.switch_to_block(full);
        self.b.seal_block(full);
        let started = self.b.ins().icmp_imm_s(IntCC::Equal, go_on, 0);
        bump_if(self, field::BURSTS, started);
        self.b.ins().store(rw, len, bp, o1);
        self.b.ins().store(rw, w1, bp, o0);
        bump(self, field::WORDS, new);
        self.b.ins().jump(maxchk, &[]);
        // MAX_BURST of the accessing site (a coalesced group's tracker is shared, its rows
        // are not): raised when the burst is longer.
        self.b.switch_to_block(maxchk);
        self.b.seal_block(maxchk);
        let mo = row + (field::MAX_BURST * 8) as i32;
        let mx = self.b.ins().load(I64, rw, rows, mo);
        let longer = self.b.ins().icmp(IntCC::UnsignedLessThan, mx, len);
        self.b.ins().brif(longer, raise, &[], done, &[]);
        self.b.switch_to_block(raise);
        self.b.seal_block(raise);
        self.b.ins().store(rw, len, rows, mo);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        self.b.seal_block(done);
    }

    /// One counted access of a site with its own burst tracker, in a run (`exec::batch`): the
    /// issue slot is taken inline as `count` takes it; an access that continues the site's
    /// run (next address and slot) extends it in place, any other goes to
    /// `Machine::batch_access` (`h_batch`). The runs are counted by the caller of the
    /// compiled code before it returns, by `h_cold` and by a poll that stops the kernel.
    fn count_batched(&mut self, site: u32, addr: Value, size: u64, elem: u64) {
        if self.spec.single || self.once.get(site as usize).copied().unwrap_or(false) {
            // Executed at most once per work-item: its issue slot is 0 and nothing reads its
            // issue counter after this access (the worker resets it for the next item). In
            // groups of one work-item (`Spec::single`) every access takes slot 0.
            let zero = self.c64(0);
            return self.extend_run(site, addr, zero, size, elem, true);
        }
        let slot = self.issue_slot(site, 1);
        self.extend_run(site, addr, slot, size, elem, false);
    }

    /// The issue slot of an access counted against tracker `tv` (`per` accesses per wide
    /// access): the work-item's count of the tracker's executions so far, divided by `per`,
    /// saturating at `ISSUE_SLOTS`, and the count advanced; 0 in code for groups of one
    /// work-item (`Spec::single`, no issue counters).
    fn issue_slot(&mut self, tv: u32, per: u32) -> Value {
        if self.spec.single {
            return self.c64(0);
        }
        // The counter's update in a block of its own: measured, the same code in the
        // access's block gave matmul's loop 9% more instructions (register allocation
        // placed its spills worse); not investigated further.
        let blk = self.b.create_block();
        self.b.ins().jump(blk, &[]);
        self.b.switch_to_block(blk);
        self.b.seal_block(blk);
        let rw = MemFlagsData::trusted();
        let iss = self.cissued;
        let ko = (tv as u64 * 4) as i32;
        let k = self.b.ins().uload32(rw, iss, ko);
        let lim = (per as u64 * ISSUE_SLOTS as u64).min(u32::MAX as u64);
        let under = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, k, lim as i64);
        let under = self.b.ins().uextend(I64, under);
        let k1 = self.b.ins().iadd(k, under);
        self.b.ins().istore32(rw, k1, iss, ko);
        if per == 1 {
            k
        } else {
            self.b.ins().udiv_imm_u(k, per as i64)
        }
    }

    /// The access at `addr` with issue slot `slot` continues its site's run (extended in
    /// place) or goes to `h_batch` ([`Tr::count_batched`]). A site executed once per
    /// work-item (`once`) always has slot 0, so its runs' slot step is 0 and their next slot
    /// never changes: it is not rewritten.
    fn extend_run(
        &mut self,
        site: u32,
        addr: Value,
        slot: Value,
        size: u64,
        elem: u64,
        once: bool,
    ) {
        use super::super::batch::Batch;
        let rw = MemFlagsData::trusted();
        let bo = (site as usize * size_of::<Batch>()) as i32;
        let f = |o: usize| bo + o as i32;
        let bp = self.cbatch;
        let nx = self.b.ins().load(I64, rw, bp, f(offset_of!(Batch, next)));
        let nsl = self.b.ins().load(I64, rw, bp, f(offset_of!(Batch, nslot)));
        let c1 = self.b.ins().icmp(IntCC::Equal, addr, nx);
        let c2 = self.b.ins().icmp(IntCC::Equal, slot, nsl);
        let go = self.b.ins().band(c1, c2);
        let fast = self.b.create_block();
        let slow = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().brif(go, fast, &[], slow, &[]);
        self.b.switch_to_block(fast);
        self.b.seal_block(fast);
        let n = self.b.ins().load(I64, rw, bp, f(offset_of!(Batch, n)));
        let n1 = self.b.ins().iadd_imm_s(n, 1);
        self.b.ins().store(rw, n1, bp, f(offset_of!(Batch, n)));
        let st = self.b.ins().load(I64, rw, bp, f(offset_of!(Batch, stride)));
        let nx1 = self.b.ins().iadd(nx, st);
        self.b.ins().store(rw, nx1, bp, f(offset_of!(Batch, next)));
        if !once {
            // `batch::next_slot`: the slot after `nsl`, staying at `ISSUE_SLOTS`.
            let ds = self.b.ins().load(I64, rw, bp, f(offset_of!(Batch, dslot)));
            let ns1 = self.b.ins().iadd(nsl, ds);
            let sat = self.c64(ISSUE_SLOTS as u64);
            let ns1 = self.b.ins().umin(ns1, sat);
            self.b.ins().store(rw, ns1, bp, f(offset_of!(Batch, nslot)));
        }
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(slow);
        self.b.seal_block(slow);
        let sv = self.c32(site);
        let sz = self.c64(size);
        let el = self.c64(elem);
        self.call(
            self.sigs.batch,
            h::h_batch as *const () as usize,
            &[self.frame, sv, addr, slot, sz, el],
        );
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        self.b.seal_block(done);
    }

    /// One counted access through `Machine::count` (`h_count`).
    fn count_call(&mut self, site: u32, addr: Value, size: u64, elem: u64) {
        let sv = self.c32(site);
        let sz = self.c64(size);
        let el = self.c64(elem);
        self.call(
            self.sigs.count,
            h::h_count as *const () as usize,
            &[self.frame, sv, addr, sz, el],
        );
    }

    /// A load of `n` lanes of kind `k` at `addr` into `d..d+n`.
    #[allow(clippy::too_many_arguments)]
    fn load(&mut self, k: Scalar, n: u32, d: u32, addr: Value, region: Value, pc: u32, site: u32) {
        let es = k.size() as u64;
        let fast = self.resolve(addr, region, es * n as u64, false, pc, site);
        let join = self.b.create_block();
        let z = self.c64(0);
        for i in 0..n {
            self.d(d + i, z);
        }
        self.b.ins().jump(join, &[]);
        let ptr = self.enter_fast(&fast);
        let vals: Vec<Value> = (0..n)
            .map(|i| self.load_lane(k, ptr, (i as u64 * es) as i32))
            .collect();
        for (i, x) in vals.into_iter().enumerate() {
            self.d(d + i as u32, x);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        self.b.seal_block(join);
        self.count(site, addr, es * n as u64, es);
    }

    #[allow(clippy::too_many_arguments)]
    fn store(&mut self, k: Scalar, n: u32, s: u32, addr: Value, region: Value, pc: u32, site: u32) {
        let es = k.size() as u64;
        let vals: Vec<Value> = (0..n).map(|i| self.v(s + i)).collect();
        let fast = self.resolve(addr, region, es * n as u64, true, pc, site);
        let join = self.b.create_block();
        self.b.ins().jump(join, &[]);
        let ptr = self.enter_fast(&fast);
        for (i, x) in vals.into_iter().enumerate() {
            self.store_lane(k, ptr, (i as u64 * es) as i32, x);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        self.b.seal_block(join);
        self.count(site, addr, es * n as u64, es);
    }

    /// The top of counted loop `c`'s body (`super::counted`): unless the gate says to skip,
    /// a check whether the next `K >= 2` iterations can run as a chunk, the chunk (the body
    /// again, accesses unchecked and uncounted, `K` times) and its closed-form accounting;
    /// the builder is left where the checked body goes on (a failed check, a skipped one).
    ///
    /// The check proves what the checked body would find: `iv < bound` holds for all `K`
    /// iterations (`K` at most the trip count, no 32-bit wrap of the induction variable),
    /// the affine program and the accesses pass [`Tr::chunk_check`], no issue counter
    /// saturates, no poll falls due and the clock plan is the simple one (per-head cost from
    /// the table).
    fn chunk(&mut self, c: &Counted, gate: Variable, left: Variable) -> Result<(), String> {
        let rw = MemFlagsData::trusted();
        let (check, skip, fast, body, done, fail, slow) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        let g = self.b.use_var(gate);
        self.b.ins().brif(g, skip, &[], check, &[]);
        self.b.switch_to_block(skip);
        self.b.seal_block(skip);
        let g1 = self.b.ins().iadd_imm_s(g, -1);
        self.b.def_var(gate, g1);
        self.b.ins().jump(slow, &[]);

        self.b.switch_to_block(check);
        self.b.seal_block(check);
        // Trip count: iterations j >= 0 with iv + j * step < bound (bound capped at 2^31: the
        // induction variable is 32-bit).
        let stv = self.v(c.step);
        let st = if c.unsigned {
            let r = self.b.ins().ireduce(I32, stv);
            self.b.ins().uextend(I64, r)
        } else {
            self.s32(stv)
        };
        let a = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, st, 1);
        let z = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedLessThanOrEqual, st, CHUNK_MAX);
        let mut ok = self.b.ins().band(a, z);
        // The induction variable in its kind's range; the bound as a `<` bound capped at the
        // kind's end (no 32-bit wrap inside a chunk): `iv <= b` is `iv < b + 1`.
        let iv0 = self.v(c.iv);
        let nb = self.v(c.bound);
        let nb = if c.unsigned {
            let hi = self.b.ins().ushr_imm_s(iv0, 32);
            let fits = self.b.ins().icmp_imm_s(IntCC::Equal, hi, 0);
            ok = self.b.ins().band(ok, fits);
            let cap = self.c64((1u64 << 32) - c.le as u64);
            self.b.ins().umin(nb, cap)
        } else {
            let fits = self.in32(iv0);
            ok = self.b.ins().band(ok, fits);
            let cap = self.c64((1u64 << 31) - c.le as u64);
            self.b.ins().smin(nb, cap)
        };
        let nb = self.b.ins().iadd_imm_s(nb, c.le as i64);
        let one = self.c64(1);
        let st_safe = self.b.ins().select(ok, st, one);
        let num = self.b.ins().isub(nb, iv0);
        let num = self.b.ins().iadd(num, st_safe);
        let num = self.b.ins().iadd_imm_s(num, -1);
        let trips = self.b.ins().udiv(num, st_safe);
        let kmax = self.c64(CHUNK_MAX as u64);
        let mut k = self.b.ins().umin(trips, kmax);
        let p = self.b.use_var(self.poll);
        let p = self.b.ins().uextend(I64, p);
        k = self.b.ins().umin(k, p);
        // Issue counters: a chunk stops before one saturates (a saturated one stays).
        let lim = ISSUE_SLOTS as i64;
        let mut issued: Vec<Option<Value>> = Vec::new();
        for acc in &c.prog.accesses {
            if acc.site == NONE || self.spec.single {
                issued.push(None);
                continue;
            }
            let ks = self
                .b
                .ins()
                .uload32(rw, self.cissued, (acc.site as u64 * 4) as i32);
            let under = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, ks, lim);
            let limv = self.c64(lim as u64);
            let room = self.b.ins().isub(limv, ks);
            let room = self.b.ins().select(under, room, kmax);
            k = self.b.ins().umin(k, room);
            issued.push(Some(ks));
        }
        let two = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, k, 2);
        ok = self.b.ins().band(ok, two);
        let simple = self.b.ins().icmp_imm_s(IntCC::Equal, self.clock_helper, 0);
        ok = self.b.ins().band(ok, simple);
        // Float slots enter the chunk as floats: their values must be float encodings.
        let floats = float_slots(self.code, c.body as usize..c.end as usize);
        for &s in &floats {
            let x = self.v(s);
            let hi = self.b.ins().ushr_imm_s(x, 32);
            let clean = self.b.ins().icmp_imm_s(IntCC::Equal, hi, 0);
            ok = self.b.ins().band(ok, clean);
        }
        let ck = self.chunk_check(&c.prog, Some((iv0, st)), false, k, ok, issued);
        self.b.ins().brif(ck.ok, fast, &[], fail, &[]);

        // The chunk: the body K times.
        self.b.switch_to_block(fast);
        self.b.seal_block(fast);
        self.b.def_var(left, k);
        let Checked { hosts, runs, .. } = ck;
        let ns = self.vars.len();
        self.fshadow = vec![None; ns];
        for &s in &floats {
            let x = self.v(s);
            let f = self.f32_of(x);
            let fv = self.b.declare_var(types::F32);
            self.b.def_var(fv, f);
            self.fshadow[s as usize] = Some(fv);
        }
        self.b.ins().jump(body, &[]);
        self.b.switch_to_block(body);
        self.chunk_ops(c.body..c.end, &hosts)?;
        let n = self.b.use_var(left);
        let n = self.b.ins().iadd_imm_s(n, -1);
        self.b.def_var(left, n);
        let last = self.b.ins().icmp_imm_s(IntCC::Equal, n, 0);
        // The target that stays in the loop named second (see `brif_loop_friendly`).
        self.b.ins().brif(last, done, &[], body, &[]);
        self.b.seal_block(body);

        // After the chunk: the loop-head visits of its iterations 2..K, their clock ticks and
        // polls, the issue counters and the runs, then the header of the next iteration.
        self.b.switch_to_block(done);
        self.b.seal_block(done);
        // Float slots back to their slot encodings.
        for s in floats {
            if let Some(fv) = self.fshadow[s as usize].take() {
                let f = self.b.use_var(fv);
                let x = self.of_f32(f);
                let var = self.vars[s as usize];
                self.b.def_var(var, x);
            }
        }
        self.fshadow.clear();
        let km1 = self.b.ins().iadd_imm_s(k, -1);
        let vo = fo(c.l as usize * 8);
        let vis = self.b.ins().load(I64, rw, self.visits, vo);
        let vis = self.b.ins().iadd(vis, km1);
        self.b.ins().store(rw, vis, self.visits, vo);
        let cost = self
            .b
            .ins()
            .load(I64, MemFlagsData::trusted().with_readonly(), self.heads, vo);
        let ticks = self.b.ins().imul(cost, km1);
        let clk = self.b.use_var(self.clock);
        let clk = self.b.ins().iadd(clk, ticks);
        self.b.def_var(self.clock, clk);
        let p = self.b.use_var(self.poll);
        let km1_32 = self.b.ins().ireduce(I32, km1);
        let p = self.b.ins().isub(p, km1_32);
        self.b.def_var(self.poll, p);
        self.chunk_runs(&runs, k);
        self.jump_op(c.head as usize);

        // A failed check: the checked body, and no check at the next header visit (the one
        // that gives new runs their strides); under a stateful clock plan, none again.
        self.b.switch_to_block(fail);
        self.b.seal_block(fail);
        let s = self.c64(CHUNK_SKIP as u64);
        let never = self.c64(1 << 40);
        let s = self.b.ins().select(simple, s, never);
        self.b.def_var(gate, s);
        self.b.ins().jump(slow, &[]);
        self.b.switch_to_block(slow);
        self.b.seal_block(slow);
        Ok(())
    }

    /// The top of a straight-line kernel (`counted::straight_kernel`) in a loop over
    /// work-items: a check whether the next `K >= 2` items of the current row (dimension 0)
    /// can run as a chunk ([`Tr::chunk_check`]), the chunk (each item's ids of dimension 0,
    /// its slots from the register template, the ops with accesses unchecked and uncounted)
    /// and its accounting (the items' clock, the runs); then the end of the chunk's last item.
    /// The builder is left where the checked code goes on.
    fn item_chunk(&mut self, prog: &Body, il: ItemLoop) -> Result<(), String> {
        let rw = MemFlagsData::trusted();
        let (check, fast, body, done, slow) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        // One item set up by the caller (`items` 0) runs checked.
        self.b.ins().brif(il.items, check, &[], slow, &[]);
        self.b.switch_to_block(check);
        self.b.seal_block(check);
        let lin = self.b.use_var(il.item);
        let l0 = self.b.use_var(il.lid0);
        let row = self.b.ins().isub(il.lsize0, l0);
        let rest = self.b.ins().isub(il.items, lin);
        let k = self.b.ins().umin(row, rest);
        let kmax = self.c64(CHUNK_MAX as u64);
        let k = self.b.ins().umin(k, kmax);
        let ok = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, k, 2);
        let none = vec![None; prog.accesses.len()];
        let ck = self.chunk_check(prog, None, true, k, ok, none);
        self.b.ins().brif(ck.ok, fast, &[], slow, &[]);

        self.b.switch_to_block(fast);
        self.b.seal_block(fast);
        let zero = self.c64(0);
        self.b.def_var(il.j, zero);
        let Checked { hosts, runs, .. } = ck;
        self.b.ins().jump(body, &[]);
        self.b.switch_to_block(body);
        let j = self.b.use_var(il.j);
        let l = self.b.ins().iadd(l0, j);
        let g = self.b.ins().iadd(il.gbase0, l);
        self.b
            .ins()
            .store(rw, l, self.ids, fo(offset_of!(Ids, lid)));
        self.b
            .ins()
            .store(rw, g, self.ids, fo(offset_of!(Ids, gid)));
        for (s, &x) in il.init.iter().enumerate() {
            let var = self.vars[s];
            self.b.def_var(var, x);
        }
        let end = self.code.ops.len() as u32 - 1;
        self.chunk_ops(0..end, &hosts)?;
        let j = self.b.use_var(il.j);
        let j1 = self.b.ins().iadd_imm_s(j, 1);
        self.b.def_var(il.j, j1);
        let last = self.b.ins().icmp(IntCC::Equal, j1, k);
        self.b.ins().brif(last, done, &[], body, &[]);
        self.b.seal_block(body);

        // After the chunk: items 2..K's clock ticks, the runs, and the work-item loop goes on
        // after the chunk's last item.
        self.b.switch_to_block(done);
        self.b.seal_block(done);
        let km1 = self.b.ins().iadd_imm_s(k, -1);
        let ticks = self.b.ins().imul(il.item_cost, km1);
        let clk = self.b.use_var(self.clock);
        let clk = self.b.ins().iadd(clk, ticks);
        self.b.def_var(self.clock, clk);
        self.chunk_runs(&runs, k);
        let lin_last = self.b.ins().iadd(lin, km1);
        self.b.def_var(il.item, lin_last);
        self.b
            .ins()
            .store(rw, lin_last, self.frame, fo(offset_of!(Frame, item)));
        let l_last = self.b.ins().iadd(l0, km1);
        self.b.def_var(il.lid0, l_last);
        let end_blk = self.item_end;
        self.b.ins().jump(end_blk, &[]);

        self.b.switch_to_block(slow);
        self.b.seal_block(slow);
        Ok(())
    }

    /// The part of a chunk check common to loops and work-items: the affine program at the
    /// chunk's first and last iteration (every 32-bit term and every raw invariant or id in
    /// the `i32` range at both ends, so no op of the chunk wraps), every access in bounds of
    /// its region for the whole chunk (writable for a store), and every counted access
    /// continuing its site's pending run (next address and issue slot, stride and slot step).
    /// `iv`: the loop's induction value and step (`None` for work-items, whose dimension-0
    /// ids step by one when `items`); `issued`: per access, its issue counter when the code
    /// has them.
    fn chunk_check(
        &mut self,
        prog: &Body,
        iv: Option<(Value, Value)>,
        items: bool,
        k: Value,
        mut ok: Value,
        issued: Vec<Option<Value>>,
    ) -> Checked {
        use super::super::batch::Batch;
        let rw = MemFlagsData::trusted();
        let ro = MemFlagsData::trusted().with_readonly().with_can_move();
        let lim = ISSUE_SLOTS as i64;
        let km1 = self.b.ins().iadd_imm_s(k, -1);
        let zero = self.c64(0);
        let one = self.c64(1);
        let mut x0: Vec<Value> = Vec::with_capacity(prog.terms.len());
        let mut xl: Vec<Value> = Vec::with_capacity(prog.terms.len());
        let mut dx: Vec<Value> = Vec::with_capacity(prog.terms.len());
        for &term in &prog.terms {
            let (a0, al, da) = match term {
                Aff::Iv => {
                    let (iv0, st) = iv.unwrap_or((zero, zero));
                    let m = self.b.ins().imul(km1, st);
                    let l = self.b.ins().iadd(iv0, m);
                    (iv0, l, st)
                }
                Aff::Zero => (zero, zero, zero),
                Aff::Inv { s, i32 } => {
                    let x = self.v(s);
                    let x = if i32 {
                        self.s32(x)
                    } else {
                        let fits = self.in32(x);
                        ok = self.b.ins().band(ok, fits);
                        x
                    };
                    (x, x, zero)
                }
                Aff::Id { global, dim } => {
                    let off = if global {
                        offset_of!(Ids, gid)
                    } else {
                        offset_of!(Ids, lid)
                    };
                    let x = self
                        .b
                        .ins()
                        .load(I64, rw, self.ids, fo(off + dim as usize * 8));
                    if items && dim == 0 {
                        let l = self.b.ins().iadd(x, km1);
                        let fits = self.in32(l);
                        ok = self.b.ins().band(ok, fits);
                        (x, l, one)
                    } else {
                        (x, x, zero)
                    }
                }
                Aff::Add(a, b) | Aff::AddU(a, b) | Aff::Add64(a, b) | Aff::AddOff(a, b) => {
                    let f = |t: &mut Self, x: &[Value]| t.b.ins().iadd(x[a], x[b]);
                    (f(self, &x0), f(self, &xl), f(self, &dx))
                }
                Aff::Sub(a, b) | Aff::SubU(a, b) | Aff::Sub64(a, b) => {
                    let f = |t: &mut Self, x: &[Value]| t.b.ins().isub(x[a], x[b]);
                    (f(self, &x0), f(self, &xl), f(self, &dx))
                }
                Aff::Mul(a, b) | Aff::MulU(a, b) | Aff::Mul64(a, b) => {
                    let m = x0[b];
                    if term.is_64() {
                        let fits = self.within(m, 1 << 20);
                        ok = self.b.ins().band(ok, fits);
                    }
                    let f = |t: &mut Self, x: &[Value]| t.b.ins().imul(x[a], m);
                    (f(self, &x0), f(self, &xl), f(self, &dx))
                }
                Aff::MulC(a, m) => {
                    let f = |t: &mut Self, x: &[Value]| t.b.ins().imul_imm_s(x[a], m);
                    (f(self, &x0), f(self, &xl), f(self, &dx))
                }
                Aff::U32Of(a) => (x0[a], xl[a], dx[a]),
                Aff::AddC(a, m) => {
                    let f = |t: &mut Self, x: &[Value]| t.b.ins().iadd_imm_s(x[a], m);
                    (f(self, &x0), f(self, &xl), dx[a])
                }
            };
            if term.is_64() {
                let f0 = self.within(a0, 1 << 40);
                let fl = self.within(al, 1 << 40);
                let both = self.b.ins().band(f0, fl);
                ok = self.b.ins().band(ok, both);
            }
            if term.is_u32() {
                let f0 = self.b.ins().ushr_imm_s(a0, 32);
                let fl = self.b.ins().ushr_imm_s(al, 32);
                let hi = self.b.ins().bor(f0, fl);
                let both = self.b.ins().icmp_imm_s(IntCC::Equal, hi, 0);
                ok = self.b.ins().band(ok, both);
            }
            if term.is_i32() || matches!(term, Aff::Id { .. }) {
                let f0 = self.in32(a0);
                let fl = self.in32(al);
                let both = self.b.ins().band(f0, fl);
                ok = self.b.ins().band(ok, both);
            }
            x0.push(a0);
            xl.push(al);
            dx.push(da);
        }
        let mut hosts: Vec<Host> = Vec::new();
        let mut runs: Vec<Run> = Vec::new();
        for (acc, ks) in prog.accesses.iter().zip(issued) {
            let p = self.v(acc.base);
            let r = self.b.ins().ushr_imm_s(p, REGION_SHIFT as i64);
            let inr = self.b.ins().icmp(IntCC::UnsignedLessThan, r, self.nregions);
            let ri = self.b.ins().select(inr, r, zero);
            let rs = self.b.ins().imul_imm_s(ri, size_of::<Region>() as i64);
            let rp = self.b.ins().iadd(self.regions, rs);
            let len = self.b.ins().load(I64, ro, rp, fo(offset_of!(Region, len)));
            let hb = self.b.ins().load(I64, ro, rp, fo(offset_of!(Region, base)));
            let boff = self.b.ins().band_imm_s(p, OFFSET_MASK as i64);
            let o0 = self.b.ins().iadd(boff, x0[acc.off]);
            let ol = self.b.ins().iadd(boff, xl[acc.off]);
            let lo = self.b.ins().smin(o0, ol);
            let hi = self.b.ins().smax(o0, ol);
            let pos = self
                .b
                .ins()
                .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, lo, 0);
            let end = self.b.ins().iadd_imm_s(hi, acc.size as i64);
            let fits = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, len);
            let inb = self.b.ins().band(pos, fits);
            let inb = self.b.ins().band(inb, inr);
            ok = self.b.ins().band(ok, inb);
            if acc.write {
                let w = self
                    .b
                    .ins()
                    .load(I8, ro, rp, fo(offset_of!(Region, writable)));
                let w = self.b.ins().icmp_imm_s(IntCC::NotEqual, w, 0);
                ok = self.b.ins().band(ok, w);
            }
            // The host pointer variable, at the first iteration's address (used only by the
            // chunk, which this block dominates).
            let first = self.b.ins().iadd(hb, o0);
            let var = self.b.declare_var(I64);
            self.b.def_var(var, first);
            hosts.push(Host {
                pc: acc.pc,
                step: dx[acc.off],
                var,
            });
            if acc.site == NONE {
                continue;
            }
            let addr0 = self.b.ins().iadd(p, x0[acc.off]);
            let (slot0, dslot) = match ks {
                Some(ks) => {
                    let under = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, ks, lim);
                    (ks, self.b.ins().uextend(I64, under))
                }
                None => (zero, zero),
            };
            let bo = (acc.site as usize * size_of::<Batch>()) as i32;
            let f = |o: usize| bo + o as i32;
            let bp = self.cbatch;
            // The slot step need not match once the run's slots reached `ISSUE_SLOTS`: it
            // stays there whatever its step (`batch::next_slot`).
            let sat = self.b.ins().icmp_imm_u(IntCC::Equal, slot0, lim);
            let fields = [
                (offset_of!(Batch, next), addr0, None),
                (offset_of!(Batch, nslot), slot0, None),
                (offset_of!(Batch, stride), dx[acc.off], None),
                (offset_of!(Batch, dslot), dslot, Some(sat)),
            ];
            for (o, want, or) in fields {
                let have = self.b.ins().load(I64, rw, bp, f(o));
                let mut same = self.b.ins().icmp(IntCC::Equal, have, want);
                if let Some(x) = or {
                    same = self.b.ins().bor(same, x);
                }
                ok = self.b.ins().band(ok, same);
            }
            runs.push(Run {
                site: acc.site,
                step: dx[acc.off],
                issued: ks,
                dslot,
            });
        }
        Checked { ok, hosts, runs }
    }

    /// The ops `range` of a chunk (the builder in its loop block): accesses through
    /// [`Tr::chunk_access`] at their host pointers, the others as the checked code has them,
    /// then the pointers advance by their steps.
    ///
    /// A `PtrIdx` whose result is the pointer of a later access of the chunk (the last op
    /// before it that writes that slot) makes it without its overflow and region-crossing
    /// tests: the check proved that access in bounds, so neither happens.
    fn chunk_ops(&mut self, range: std::ops::Range<u32>, hosts: &[Host]) -> Result<(), String> {
        let ops = &self.code.ops;
        let mut direct: Vec<u32> = Vec::new();
        for h in hosts {
            let (Op::Load { a, .. } | Op::Store { a, .. }) = ops[h.pc as usize] else {
                continue;
            };
            let last = (range.start..h.pc)
                .rev()
                .find(|&q| op_writes(&ops[q as usize], self.code).contains(&a));
            if let Some(q) = last {
                if matches!(ops[q as usize], Op::PtrIdx { .. }) {
                    direct.push(q);
                }
            }
        }
        for pc in range {
            if direct.contains(&pc) {
                let Op::PtrIdx {
                    d,
                    base,
                    idx,
                    scale,
                    disp,
                } = self.code.ops[pc as usize]
                else {
                    return Err(format!("internal: op {pc} is not a PtrIdx"));
                };
                let bv = self.v(base);
                let iv = self.v(idx);
                let m = self.b.ins().imul_imm_s(iv, scale as i64);
                let delta = self.b.ins().iadd_imm_s(m, disp as i64);
                let p = self.b.ins().iadd(bv, delta);
                self.d(d, p);
                continue;
            }
            match hosts.iter().find(|h| h.pc == pc) {
                Some(h) => {
                    let ptr = self.b.use_var(h.var);
                    self.chunk_access(pc, ptr)?
                }
                None => self.op(pc)?,
            }
        }
        for h in hosts {
            let p = self.b.use_var(h.var);
            let p = self.b.ins().iadd(p, h.step);
            self.b.def_var(h.var, p);
        }
        Ok(())
    }

    /// A chunk of `k` iterations extends each run it checked by `k` accesses (length, next
    /// address and issue slot) and advances the issue counters.
    fn chunk_runs(&mut self, runs: &[Run], k: Value) {
        use super::super::batch::Batch;
        let rw = MemFlagsData::trusted();
        for r in runs {
            let bo = (r.site as usize * size_of::<Batch>()) as i32;
            let f = |o: usize| bo + o as i32;
            let bp = self.cbatch;
            let adv = |t: &mut Self, o: usize, by: Value| {
                let x = t.b.ins().load(I64, rw, bp, f(o));
                let x = t.b.ins().iadd(x, by);
                t.b.ins().store(rw, x, bp, f(o));
            };
            adv(self, offset_of!(Batch, n), k);
            let bytes = self.b.ins().imul(k, r.step);
            adv(self, offset_of!(Batch, next), bytes);
            let slots = self.b.ins().imul(k, r.dslot);
            adv(self, offset_of!(Batch, nslot), slots);
            if let Some(ks) = r.issued {
                let ks = self.b.ins().iadd(ks, slots);
                self.b
                    .ins()
                    .istore32(rw, ks, self.cissued, (r.site as u64 * 4) as i32);
            }
        }
    }

    /// The 32-bit operand view of a slot value (sign-extended low half).
    fn s32(&mut self, x: Value) -> Value {
        let r = self.b.ins().ireduce(I32, x);
        self.b.ins().sextend(I64, r)
    }

    /// Whether `|x| < bound` (a power of two below 2^62).
    fn within(&mut self, x: Value, bound: i64) -> Value {
        let y = self.b.ins().iadd_imm_s(x, bound);
        self.b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, y, 2 * bound)
    }

    /// Whether a 64-bit value is in the `i32` range.
    fn in32(&mut self, x: Value) -> Value {
        let s = self.s32(x);
        self.b.ins().icmp(IntCC::Equal, s, x)
    }

    /// An access of a chunk (proved in bounds, counted by the chunk as a whole) at host
    /// pointer `ptr`; an indexed one also writes its address slot as the checked op does.
    fn chunk_access(&mut self, pc: u32, ptr: Value) -> Result<(), String> {
        let addr_of = |t: &mut Self, base: u32, idx: u32, sl: u8, dst: u32| {
            let i = t.v(idx);
            let p = t.v(base);
            let sh = t.b.ins().ishl_imm_s(i, sl as i64);
            let n = t.b.ins().iadd(p, sh);
            t.d(dst, n);
        };
        match self.code.ops[pc as usize] {
            Op::LoadIdx {
                k,
                sl,
                d,
                t,
                base,
                idx,
                ..
            } => {
                addr_of(self, base, idx, sl, t);
                let x = self.chunk_load(k, ptr, 0);
                self.d(d, x);
            }
            Op::StoreIdx {
                k,
                sl,
                s,
                t,
                base,
                idx,
                ..
            } => {
                let x = self.v(s);
                addr_of(self, base, idx, sl, t);
                self.store_lane(k, ptr, 0, x);
            }
            Op::Load { k, n, d, .. } => {
                let es = k.size() as i32;
                let vals: Vec<Value> = (0..n as i32)
                    .map(|i| self.chunk_load(k, ptr, i * es))
                    .collect();
                for (i, x) in vals.into_iter().enumerate() {
                    self.d(d + i as u32, x);
                }
            }
            Op::Store { k, n, s, .. } => {
                let vals: Vec<Value> = (0..n as u32).map(|i| self.v(s + i)).collect();
                let es = k.size() as i32;
                for (i, x) in vals.into_iter().enumerate() {
                    self.store_lane(k, ptr, i as i32 * es, x);
                }
            }
            _ => return Err(format!("internal: chunk access at op {pc} is not one")),
        }
        Ok(())
    }

    /// A lane load of a chunk: a float lane loads as a float (its slot encoding made from it:
    /// float consumers use the float, no bitcast pair), others as `load_lane`.
    fn chunk_load(&mut self, k: Scalar, p: Value, off: i32) -> Value {
        let fl = MemFlagsData::new().with_notrap();
        match k {
            Scalar::F32 => {
                let f = self.b.ins().load(types::F32, fl, p, off);
                self.of_f32(f)
            }
            Scalar::F64 => {
                let f = self.b.ins().load(types::F64, fl, p, off);
                self.of_f64(f)
            }
            _ => self.load_lane(k, p, off),
        }
    }

    /// `clock += cost` where the cost is `table[l]`, or the helper's when the plan is stateful.
    fn clock_add(&mut self, table: Value, helper: usize, l: u32) {
        let simple = self.b.create_block();
        let stateful = self.b.create_block();
        let join = self.b.create_block();
        self.b
            .ins()
            .brif(self.clock_helper, stateful, &[], simple, &[]);
        self.b.switch_to_block(simple);
        self.b.seal_block(simple);
        let cost = self.b.ins().load(
            I64,
            MemFlagsData::trusted().with_readonly(),
            table,
            fo(l as usize * 8),
        );
        let c = self.b.use_var(self.clock);
        let c = self.b.ins().iadd(c, cost);
        self.b.def_var(self.clock, c);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(stateful);
        self.b.seal_block(stateful);
        let lv = self.c32(l);
        let cost = self
            .call(self.sigs.clock, helper, &[self.frame, lv])
            .expect("result");
        let c = self.b.use_var(self.clock);
        let c = self.b.ins().iadd(c, cost);
        self.b.def_var(self.clock, c);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        self.b.seal_block(join);
    }

    /// `counter[l] += 1` in a counter array.
    fn bump(&mut self, base: Value, l: u32) {
        let fl = MemFlagsData::trusted();
        let x = self.b.ins().load(I64, fl, base, fo(l as usize * 8));
        let x = self.b.ins().iadd_imm_s(x, 1);
        self.b.ins().store(fl, x, base, fo(l as usize * 8));
    }

    /// Stores slots to the register file / loads them back (around interpreter calls).
    fn spill(&mut self, slots: &[u32]) {
        for &s in slots {
            let x = self.v(s);
            self.b
                .ins()
                .store(MemFlagsData::trusted(), x, self.regs, fo(s as usize * 8));
        }
    }

    fn reload(&mut self, slots: &[u32]) {
        // A constant slot in an over-approximated write set still holds its constant.
        for &s in slots {
            if self.consts[s as usize].is_some() {
                continue;
            }
            let x = self
                .b
                .ins()
                .load(I64, MemFlagsData::trusted(), self.regs, fo(s as usize * 8));
            self.d(s, x);
        }
    }

    /// Slots a cold op reads and writes (`writes` over-approximated where the op's extent
    /// depends on the builtin).
    fn cold_sets(&self, op: &Op) -> (Vec<u32>, Vec<u32>) {
        let c = self.code;
        let ns = c.num_slots;
        let range = |s: u32, n: u32| -> Vec<u32> {
            if s == NONE {
                return vec![];
            }
            (s..s.saturating_add(n).min(ns)).collect()
        };
        match *op {
            Op::Builtin(x) => {
                let x = &c.builtins[x as usize];
                let n = x.ty.lanes.max(1) as u32;
                let mut r = Vec::new();
                for &a in &x.args {
                    r.extend(range(a, n));
                }
                (r, range(x.d, 16))
            }
            Op::BuiltinPtr(x) => {
                let x = &c.bptrs[x as usize];
                let n = x.ty.lanes.max(1) as u32;
                let mut r = range(x.out, 1);
                for &a in &x.args {
                    r.extend(range(a, n));
                }
                (r, range(x.d, n))
            }
            Op::Bitcast(x) => {
                let x = &c.bitcasts[x as usize];
                (
                    range(x.s, x.from.lanes.max(1) as u32),
                    range(x.d, x.to.lanes.max(1) as u32),
                )
            }
            Op::Copy(x) => {
                let x = &c.copies[x as usize];
                (vec![x.d, x.s], vec![])
            }
            Op::AsyncCopy(x) => {
                let x = &c.asyncs[x as usize];
                let mut r = vec![x.d, x.s, x.count];
                r.extend(range(x.stride, 1));
                (r, vec![x.event])
            }
            Op::Atomic(x) => {
                let x = &c.atomics[x as usize];
                (vec![x.addr, x.a, x.b], vec![x.d])
            }
            Op::Printf(x) => {
                let x = &c.printfs[x as usize];
                let mut r = Vec::new();
                for (a, t) in &x.args {
                    r.extend(range(*a, t.lanes.max(1) as u32));
                }
                (r, vec![x.d])
            }
            Op::FifoRead(x) | Op::FifoWrite(x) => {
                // The element moves through memory at the address in `ptr`; the endpoint may
                // take an index or a pipe argument from a slot; the status slot is written.
                let x = &c.fifos[x as usize];
                let mut r = vec![x.ptr];
                match x.ep {
                    crate::exec::code::Ep::Channel { index, .. } => r.extend(range(index, 1)),
                    crate::exec::code::Ep::Pipe { arg } => r.push(arg),
                }
                (r, range(x.status, 1))
            }
            _ => ((0..ns).collect(), (0..ns).collect()),
        }
    }

    // ---- ops ------------------------------------------------------------------------------

    fn op(&mut self, pc: u32) -> Result<(), String> {
        let code = self.code;
        let op = code.ops[pc as usize];
        match op {
            Op::Jump(t) => self.jump_op(t as usize),
            Op::Br { c, t, f } => {
                if t == f {
                    self.jump_op(t as usize);
                } else {
                    let cv = self.v(c);
                    self.brif_loop_friendly(pc, cv, t, f);
                }
            }
            Op::BrCmpS { op, a, b, t, f } | Op::BrCmpU { op, a, b, t, f } => {
                let signed = matches!(code.ops[pc as usize], Op::BrCmpS { .. });
                let (x, y) = (self.v(a), self.v(b));
                if t == f {
                    self.jump_op(t as usize);
                } else {
                    let c = self.icmp(op, signed, x, y);
                    self.brif_loop_friendly(pc, c, t, f);
                }
            }
            Op::Switch(x) => {
                let s = &code.switches[x as usize];
                let v = self.v(s.v);
                // First matching case wins (the interpreter's `find`).
                for &(cv, t) in &s.cases {
                    let c = self.b.ins().icmp_imm_s(IntCC::Equal, v, cv as i64);
                    let next = self.b.create_block();
                    let bt = self.blocks[t as usize].unwrap();
                    self.b.ins().brif(c, bt, &[], next, &[]);
                    self.b.switch_to_block(next);
                    self.b.seal_block(next);
                }
                let bd = self.blocks[s.default as usize].unwrap();
                self.b.ins().jump(bd, &[]);
                for t in targets(&op, code) {
                    self.pred_done(t as usize);
                }
            }
            Op::Ret => {
                let end = self.item_end;
                self.b.ins().jump(end, &[]);
            }
            Op::Unreachable => {
                let pcv = self.c32(pc);
                let st = self
                    .call(
                        self.sigs.st1,
                        h::h_unreachable as *const () as usize,
                        &[self.frame, pcv],
                    )
                    .expect("status");
                self.exit_with(st);
            }
            Op::LoopHead(l) => {
                if l >= code.num_loops {
                    return Err(format!("loop {l} outside the loop table"));
                }
                self.bump(self.visits, l);
                self.clock_add(self.heads, h::h_head as *const () as usize, l);
                let p = self.b.use_var(self.poll);
                let p = self.b.ins().iadd_imm_s(p, -1);
                self.b.def_var(self.poll, p);
                let hit = self.b.create_block();
                let join = self.b.create_block();
                self.b.ins().brif(p, join, &[], hit, &[]);
                self.b.switch_to_block(hit);
                self.b.seal_block(hit);
                let reset = self.c32(h::POLL_RESET);
                self.b.def_var(self.poll, reset);
                let pcv = self.c32(pc);
                let c = self.b.use_var(self.clock);
                let st = self
                    .call(
                        self.sigs.poll,
                        h::h_poll as *const () as usize,
                        &[self.frame, pcv, c],
                    )
                    .expect("status");
                self.exit_if(st);
                self.b.ins().jump(join, &[]);
                self.b.switch_to_block(join);
                self.b.seal_block(join);
            }
            Op::LoopEnter(l) => {
                if l >= code.num_loops {
                    return Err(format!("loop {l} outside the loop table"));
                }
                self.bump(self.entries, l);
                self.clock_add(self.enters, h::h_enter as *const () as usize, l);
            }
            Op::Const { d, v } => {
                let x = self.c64(v);
                self.d(d, x);
            }
            Op::ConstN(x) => {
                let (d, vals) = &code.consts[x as usize];
                for (i, &v) in vals.iter().enumerate() {
                    let c = self.c64(v);
                    self.d(*d + i as u32, c);
                }
            }
            Op::Mov { d, s, n } => {
                let vals: Vec<Value> = (0..n).map(|i| self.v(s + i)).collect();
                for (i, x) in vals.into_iter().enumerate() {
                    self.d(d + i as u32, x);
                }
            }
            Op::Mov1 { d, s } => {
                let x = self.v(s);
                self.d(d, x);
            }
            Op::ConvInt { k, d, s } => {
                let x = self.v(s);
                let y = self.norm(k, x);
                self.d(d, y);
            }
            Op::LoadIdx {
                k,
                sl,
                d,
                t,
                base,
                idx,
                site,
            } => {
                let region = self.v(base);
                let region = self.region_of(region);
                let addr = self.indexed(t, base, idx, sl);
                self.load(k, 1, d, addr, region, pc, site);
            }
            Op::StoreIdx {
                k,
                sl,
                s,
                t,
                base,
                idx,
                site,
            } => {
                let region = self.v(base);
                let region = self.region_of(region);
                let addr = self.indexed(t, base, idx, sl);
                self.store(k, 1, s, addr, region, pc, site);
            }
            Op::Load { k, n, d, a, site } => {
                let addr = self.v(a);
                let region = self.region_of(addr);
                self.load(k, n as u32, d, addr, region, pc, site);
            }
            Op::Store { k, n, s, a, site } => {
                let addr = self.v(a);
                let region = self.region_of(addr);
                self.store(k, n as u32, s, addr, region, pc, site);
            }
            Op::WorkItemC { f, d, dim } => {
                let off = match f {
                    WorkItemFn::GlobalId => offset_of!(Ids, gid),
                    WorkItemFn::LocalId => offset_of!(Ids, lid),
                    WorkItemFn::GroupId => offset_of!(Ids, grp),
                    WorkItemFn::GlobalSize => offset_of!(Ids, gsize),
                    WorkItemFn::LocalSize => offset_of!(Ids, lsize),
                    WorkItemFn::NumGroups => offset_of!(Ids, ngroups),
                    WorkItemFn::GlobalOffset => offset_of!(Ids, offset),
                    WorkItemFn::ComputeId => offset_of!(Ids, cid),
                    WorkItemFn::WorkDim => offset_of!(Ids, dim),
                };
                // Not read-only: the work-item loop writes the ids of each item.
                let fl = MemFlagsData::trusted();
                let x = if f == WorkItemFn::WorkDim {
                    self.b.ins().uload32(fl, self.ids, fo(off))
                } else {
                    if dim >= 3 {
                        return Err(format!("work-item query of dimension {dim}"));
                    }
                    self.b
                        .ins()
                        .load(I64, fl, self.ids, fo(off + dim as usize * 8))
                };
                self.d(d, x);
            }
            Op::WorkItem { d, dim, .. } => {
                let pcv = self.c32(pc);
                let dv = self.v(dim);
                let x = self
                    .call(
                        self.sigs.v2,
                        h::h_workitem as *const () as usize,
                        &[self.frame, pcv, dv],
                    )
                    .expect("result");
                self.d(d, x);
            }
            Op::Splat { d, s, n } => {
                let x = self.v(s);
                for i in 0..n {
                    self.d(d + i, x);
                }
            }
            Op::Shuffle(x) => {
                let (d, s, idx) = &code.shuffles[x as usize];
                let vals: Vec<Value> = idx
                    .iter()
                    .take(16)
                    .map(|&j| self.v(*s + j as u32))
                    .collect();
                for (i, x) in vals.into_iter().enumerate() {
                    self.d(*d + i as u32, x);
                }
            }
            Op::AddI32 { d, a, b }
            | Op::AddU32 { d, a, b }
            | Op::Add64 { d, a, b }
            | Op::SubI32 { d, a, b }
            | Op::SubU32 { d, a, b }
            | Op::Sub64 { d, a, b }
            | Op::MulI32 { d, a, b }
            | Op::MulU32 { d, a, b }
            | Op::Mul64 { d, a, b } => {
                let (x, y) = (self.v(a), self.v(b));
                let r = match op {
                    Op::AddI32 { .. } | Op::AddU32 { .. } | Op::Add64 { .. } => {
                        self.b.ins().iadd(x, y)
                    }
                    Op::SubI32 { .. } | Op::SubU32 { .. } | Op::Sub64 { .. } => {
                        self.b.ins().isub(x, y)
                    }
                    _ => self.b.ins().imul(x, y),
                };
                let k = match op {
                    Op::AddI32 { .. } | Op::SubI32 { .. } | Op::MulI32 { .. } => Scalar::I32,
                    Op::AddU32 { .. } | Op::SubU32 { .. } | Op::MulU32 { .. } => Scalar::U32,
                    _ => Scalar::U64,
                };
                let r = self.norm(k, r);
                self.d(d, r);
            }
            Op::And { d, a, b, n } | Op::Or { d, a, b, n } | Op::Xor { d, a, b, n } => {
                let mut out = Vec::new();
                for i in 0..n {
                    let (x, y) = (self.v(a + i), self.v(b + i));
                    out.push(match op {
                        Op::And { .. } => self.b.ins().band(x, y),
                        Op::Or { .. } => self.b.ins().bor(x, y),
                        _ => self.b.ins().bxor(x, y),
                    });
                }
                for (i, x) in out.into_iter().enumerate() {
                    self.d(d + i as u32, x);
                }
            }
            Op::CmpS { op, d, a, b } | Op::CmpU { op, d, a, b } => {
                let signed = matches!(code.ops[pc as usize], Op::CmpS { .. });
                let (x, y) = (self.v(a), self.v(b));
                let c = self.icmp(op, signed, x, y);
                let r = self.bool64(c);
                self.d(d, r);
            }
            Op::CmpF32 { op, d, a, b } => {
                let (x, y) = (self.v(a), self.v(b));
                let (x, y) = (self.f32_of(x), self.f32_of(y));
                let c = self.fcmp(op, x, y);
                let r = self.bool64(c);
                self.d(d, r);
            }
            Op::CmpF64 { op, d, a, b } => {
                let (x, y) = (self.v(a), self.v(b));
                let (x, y) = (self.f64_of(x), self.f64_of(y));
                let c = self.fcmp(op, x, y);
                let r = self.bool64(c);
                self.d(d, r);
            }
            Op::FAdd32 { d, a, b }
            | Op::FSub32 { d, a, b }
            | Op::FMul32 { d, a, b }
            | Op::FDiv32 { d, a, b } => {
                let bop = match op {
                    Op::FAdd32 { .. } => BinOp::Add,
                    Op::FSub32 { .. } => BinOp::Sub,
                    Op::FMul32 { .. } => BinOp::Mul,
                    _ => BinOp::Div,
                };
                let (x, y) = (self.v(a), self.v(b));
                let r = self.f32_bin(bop, x, y);
                self.d(d, r);
            }
            Op::FAdd64 { d, a, b }
            | Op::FSub64 { d, a, b }
            | Op::FMul64 { d, a, b }
            | Op::FDiv64 { d, a, b } => {
                let bop = match op {
                    Op::FAdd64 { .. } => BinOp::Add,
                    Op::FSub64 { .. } => BinOp::Sub,
                    Op::FMul64 { .. } => BinOp::Mul,
                    _ => BinOp::Div,
                };
                let (x, y) = (self.v(a), self.v(b));
                let r = self.f64_bin(bop, x, y);
                self.d(d, r);
            }
            Op::IntBin {
                op: bop,
                k,
                n,
                d,
                a,
                b,
            } => {
                let mut out = Vec::new();
                for i in 0..n as u32 {
                    let (x, y) = (self.v(a + i), self.v(b + i));
                    let bits = (k.size() * 8) as i64;
                    let r = match bop {
                        BinOp::Add => {
                            let r = self.b.ins().iadd(x, y);
                            self.norm(k, r)
                        }
                        BinOp::Sub => {
                            let r = self.b.ins().isub(x, y);
                            self.norm(k, r)
                        }
                        BinOp::Mul => {
                            let r = self.b.ins().imul(x, y);
                            self.norm(k, r)
                        }
                        BinOp::And => self.b.ins().band(x, y),
                        BinOp::Or => self.b.ins().bor(x, y),
                        BinOp::Xor => self.b.ins().bxor(x, y),
                        BinOp::Shl => {
                            let c = self.b.ins().band_imm_s(y, bits - 1);
                            let r = self.b.ins().ishl(x, c);
                            self.norm(k, r)
                        }
                        BinOp::Shr => {
                            let c = self.b.ins().band_imm_s(y, bits - 1);
                            if k.is_signed() {
                                self.b.ins().sshr(x, c)
                            } else {
                                self.b.ins().ushr(x, c)
                            }
                        }
                        BinOp::Div | BinOp::Rem => {
                            let pcv = self.c32(pc);
                            let st = self
                                .call(
                                    self.sigs.st3,
                                    h::h_int_bin as *const () as usize,
                                    &[self.frame, pcv, x, y],
                                )
                                .expect("status");
                            self.exit_if(st);
                            self.b.ins().load(
                                I64,
                                MemFlagsData::trusted(),
                                self.frame,
                                fo(offset_of!(Frame, tmp)),
                            )
                        }
                    };
                    out.push(r);
                }
                for (i, x) in out.into_iter().enumerate() {
                    self.d(d + i as u32, x);
                }
            }
            Op::FltBin {
                op: bop,
                k,
                n,
                d,
                a,
                b,
            } => {
                let mut out = Vec::new();
                let inline = matches!(bop, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div);
                for i in 0..n as u32 {
                    let (x, y) = (self.v(a + i), self.v(b + i));
                    let r = match k {
                        Scalar::F32 if inline => self.f32_bin(bop, x, y),
                        Scalar::F64 if inline => self.f64_bin(bop, x, y),
                        _ => {
                            let pcv = self.c32(pc);
                            self.call(
                                self.sigs.v3,
                                h::h_flt_bin as *const () as usize,
                                &[self.frame, pcv, x, y],
                            )
                            .expect("result")
                        }
                    };
                    out.push(r);
                }
                for (i, x) in out.into_iter().enumerate() {
                    self.d(d + i as u32, x);
                }
            }
            Op::Unary {
                op: uop,
                k,
                n,
                d,
                s,
            } => {
                let mut out = Vec::new();
                for i in 0..n as u32 {
                    let x = self.v(s + i);
                    let r = match (uop, k) {
                        (UnOp::Neg, Scalar::F32) => self.b.ins().bxor_imm_s(x, 0x8000_0000),
                        (UnOp::Neg, Scalar::F64) => self.b.ins().bxor_imm_s(x, i64::MIN),
                        (UnOp::Neg, Scalar::F16) => self.b.ins().bxor_imm_s(x, 0x8000),
                        (UnOp::Neg, _) => {
                            let r = self.b.ins().ineg(x);
                            self.norm(k, r)
                        }
                        (UnOp::Not, Scalar::Bool) => {
                            let c = self.b.ins().icmp_imm_s(IntCC::Equal, x, 0);
                            self.bool64(c)
                        }
                        (UnOp::Not, _) => {
                            let r = self.b.ins().bnot(x);
                            self.norm(k, r)
                        }
                    };
                    out.push(r);
                }
                for (i, x) in out.into_iter().enumerate() {
                    self.d(d + i as u32, x);
                }
            }
            Op::Cmp {
                op: cop,
                k,
                n,
                vec,
                d,
                a,
                b,
            } => {
                let mut out = Vec::new();
                for i in 0..n as u32 {
                    let (x, y) = (self.v(a + i), self.v(b + i));
                    let r = match k {
                        Scalar::F16 => {
                            let pcv = self.c32(pc);
                            out.push(
                                self.call(
                                    self.sigs.v3,
                                    h::h_cmp as *const () as usize,
                                    &[self.frame, pcv, x, y],
                                )
                                .expect("result"),
                            );
                            continue;
                        }
                        Scalar::F32 => {
                            let (x, y) = (self.f32_of(x), self.f32_of(y));
                            self.fcmp(cop, x, y)
                        }
                        Scalar::F64 => {
                            let (x, y) = (self.f64_of(x), self.f64_of(y));
                            self.fcmp(cop, x, y)
                        }
                        _ => self.icmp(cop, k.is_signed(), x, y),
                    };
                    let r = self.bool64(r);
                    out.push(if vec { self.b.ins().ineg(r) } else { r });
                }
                for (i, x) in out.into_iter().enumerate() {
                    self.d(d + i as u32, x);
                }
            }
            Op::Select { n, d, c, a, b } => {
                let cv = self.v(c);
                let mut out = Vec::new();
                for i in 0..n {
                    let (x, y) = (self.v(a + i), self.v(b + i));
                    out.push(self.b.ins().select(cv, x, y));
                }
                for (i, x) in out.into_iter().enumerate() {
                    self.d(d + i as u32, x);
                }
            }
            Op::Convert(x) => {
                let c = &code.converts[x as usize];
                let mut out = Vec::new();
                for i in 0..c.n {
                    let v = self.v(c.s + i);
                    if let Some(y) = self.convert_inline(c.from, c.to, c.rounding, v) {
                        out.push(y);
                        continue;
                    }
                    let pcv = self.c32(pc);
                    out.push(
                        self.call(
                            self.sigs.v2,
                            h::h_convert as *const () as usize,
                            &[self.frame, pcv, v],
                        )
                        .expect("result"),
                    );
                }
                for (i, x) in out.into_iter().enumerate() {
                    self.d(c.d + i as u32, x);
                }
            }
            Op::Lane {
                f, k, d, a, b, c, ..
            } if lane_inlinable(f, k, a, b, c) => {
                let args: Vec<Value> = [a, b, c]
                    .iter()
                    .map(|&r| if r == NONE { self.c64(0) } else { self.v(r) })
                    .collect();
                let r = self.lane_inline(f, k, args[0], args[1], args[2]);
                self.d(d, r);
            }
            Op::Lane { d, a, b, c, .. } => {
                let args: Vec<Value> = [a, b, c]
                    .iter()
                    .map(|&r| if r == NONE { self.c64(0) } else { self.v(r) })
                    .collect();
                let pcv = self.c32(pc);
                let x = self
                    .call(
                        self.sigs.lane,
                        h::h_lane as *const () as usize,
                        &[self.frame, pcv, args[0], args[1], args[2]],
                    )
                    .expect("result");
                self.d(d, x);
            }
            Op::LaneV {
                f,
                k,
                n,
                dn,
                d,
                a,
                b,
                c,
                ..
            } => {
                let inline = lane_inlinable(f, k, a, b, c);
                let mut out = Vec::new();
                for i in 0..n as u32 {
                    let args: Vec<Value> = [a, b, c]
                        .iter()
                        .map(|&r| {
                            if r == NONE {
                                self.c64(0)
                            } else {
                                self.v(r + i)
                            }
                        })
                        .collect();
                    if inline {
                        out.push(self.lane_inline(f, k, args[0], args[1], args[2]));
                        continue;
                    }
                    let pcv = self.c32(pc);
                    out.push(
                        self.call(
                            self.sigs.lane,
                            h::h_lane as *const () as usize,
                            &[self.frame, pcv, args[0], args[1], args[2]],
                        )
                        .expect("result"),
                    );
                }
                while out.len() < dn as usize {
                    out.push(self.c64(0));
                }
                for (i, x) in out.into_iter().take(dn as usize).enumerate() {
                    self.d(d + i as u32, x);
                }
            }
            Op::PtrIdx {
                d,
                base,
                idx,
                scale,
                disp,
            } => {
                let bv = self.v(base);
                let iv = self.v(idx);
                // `scaled`: idx * scale + disp, i64::MIN on a 64-bit overflow.
                let scale = scale as i64;
                let m = self.b.ins().imul_imm_s(iv, scale);
                let sc = self.c64(scale as u64);
                let hi = self.b.ins().smulhi(iv, sc);
                let sign = self.b.ins().sshr_imm_s(m, 63);
                let mut over = self.b.ins().icmp(IntCC::NotEqual, hi, sign);
                let mut delta = m;
                if disp != 0 {
                    let s = self.b.ins().iadd_imm_s(m, disp as i64);
                    // Signed overflow of m + disp: the sign of the sum differs from both.
                    let dv = self.c64(disp as i64 as u64);
                    let x1 = self.b.ins().bxor(m, s);
                    let x2 = self.b.ins().bxor(dv, s);
                    let x = self.b.ins().band(x1, x2);
                    let o2 = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, x, 0);
                    over = self.b.ins().bor(over, o2);
                    delta = s;
                }
                let minv = self.c64(i64::MIN as u64);
                let delta = self.b.ins().select(over, minv, delta);
                self.ptr_add_into(d, bv, delta);
            }
            Op::PtrDisp { d, base, disp } => {
                let bv = self.v(base);
                let dv = self.c64(disp as u64);
                self.ptr_add_into(d, bv, dv);
            }
            Op::Builtin(_)
            | Op::BuiltinPtr(_)
            | Op::Bitcast(_)
            | Op::Copy(_)
            | Op::Atomic(_)
            | Op::Printf(_)
            | Op::AsyncCopy(_) => {
                let (reads, writes) = self.cold_sets(&op);
                let mut spill = reads;
                spill.extend(writes.iter().copied());
                spill.sort_unstable();
                spill.dedup();
                self.spill(&spill);
                let pcv = self.c32(pc);
                let st = self
                    .call(
                        self.sigs.st1,
                        h::h_cold as *const () as usize,
                        &[self.frame, pcv],
                    )
                    .expect("status");
                self.exit_if(st);
                self.reload(&writes);
            }
            Op::FifoRead(_) | Op::FifoWrite(_) => {
                // The interpreter's own channel/pipe operation (waits, rule F's clock, site
                // counters) at the work-item's clock; the clock after it comes back in `tmp`.
                let (reads, writes) = self.cold_sets(&op);
                let mut spill = reads;
                spill.extend(writes.iter().copied());
                spill.sort_unstable();
                spill.dedup();
                self.spill(&spill);
                let pcv = self.c32(pc);
                let c = self.b.use_var(self.clock);
                let st = self
                    .call(
                        self.sigs.poll,
                        h::h_fifo as *const () as usize,
                        &[self.frame, pcv, c],
                    )
                    .expect("status");
                let t = self.b.ins().load(
                    I64,
                    MemFlagsData::trusted(),
                    self.frame,
                    fo(offset_of!(Frame, tmp)),
                );
                self.b.def_var(self.clock, t);
                self.exit_if(st);
                self.reload(&writes);
            }
            Op::Barrier(_) | Op::WaitEvents => {
                // The work-item stops here (`Exit::Barrier`): the op to resume at to
                // `Frame::resume`, then the barrier exit stores the written slots to the
                // register file (the resume dispatch, or the interpreter, reloads them).
                let next = self.c64(pc as u64 + 1);
                self.b.ins().store(
                    MemFlagsData::trusted(),
                    next,
                    self.frame,
                    fo(offset_of!(Frame, resume)),
                );
                let bx = self
                    .barrier_exit
                    .expect("a kernel with barriers has a barrier exit");
                self.b.ins().jump(bx, &[]);
            }
            Op::Image(_) => return Err(format!("op {op:?} is not compiled")),
        }
        Ok(())
    }
}
