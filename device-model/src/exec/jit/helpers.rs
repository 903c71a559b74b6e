//! The frame a compiled kernel runs with, and the Rust functions compiled code calls: each
//! one runs the interpreter's own code for the op at `pc` (the op index, also the position
//! reported on a fault), so compiled and interpreted kernels agree bit for bit.

use super::super::builtins;
use super::super::code::Op;
use super::super::interp::{
    flt_bin, int_bin, ptr_add_wide, Cold, Ids, Machine, Region, Trap, POLL_INTERVAL,
};
use super::super::values::{convert, float_val};
use crate::fault::FaultKind;
use fpgacl_kernel_compiler::ir::CmpOp;
use std::sync::atomic::AtomicU64;

/// What a compiled work-item runs with. The fields up to `m` are read by compiled code at
/// fixed offsets (`std::mem::offset_of!`); the rest is for the helpers.
#[repr(C)]
pub struct Frame {
    pub regions: *const Region,
    pub nregions: u64,
    pub ids: *mut Ids,
    /// Loop header visit counters (by loop) and loop entry counters (by loop).
    pub visits: *mut u64,
    pub entries: *mut u64,
    /// Clock ticks per header visit / per entry (by loop), when `clock_helper` is 0.
    pub heads: *const u64,
    pub enters: *const u64,
    /// 1: the clock costs are stateful (rule C2's floor) and come from `h_head`/`h_enter`.
    pub clock_helper: u64,
    /// The work-item's clock and stop-poll countdown, in and out.
    pub clock: u64,
    pub poll: u64,
    pub m: *mut Machine<'static>,
    pub regs: *mut u64,
    pub nregs: usize,
    /// Second result of a helper.
    pub tmp: u64,
    pub trap: Option<Trap>,
    /// What the inline counting code reads and writes (`CountEnv`).
    pub cnt: CountEnv,
    /// Work-items this call runs, in local linear order from the group's first
    /// (`jit::run_items`: the work-item loop of a group runs in compiled code, which sets each
    /// item's ids, resets its issue counters and adds `item_cost` to the clock as the worker's
    /// loop does); 0: the machine's current work-item only (`jit::run`).
    pub items: u64,
    /// With `items`: the local size and each dimension's global id of local id 0 (group id
    /// times local size plus offset), the clock ticks each item starts with.
    pub lsize: [u64; 3],
    pub gbase: [u64; 3],
    pub item_cost: u64,
    /// Out, with `items`: the local linear id of the running (the trapping) item.
    pub item: u64,
    /// With `items`, kernels with private memory or cold ops: what `h_reset` restores per
    /// item.
    pub reset: ItemReset,
    /// In: the op a work-item stopped at a barrier resumes at (0: it starts); out, after a
    /// barrier (status `translate::BARRIER`): the op after the barrier (`Exit::Barrier`'s
    /// `pc`).
    pub resume: u64,
}

/// What `h_reset` restores at the start of each work-item of a compiled work-item loop: the
/// private memory (from the launch's template) and, for kernels whose cold ops count accesses,
/// every issue counter (the worker's loop zeroes them all; inline accesses zero their own).
#[repr(C)]
pub struct ItemReset {
    pub frame: *mut u64,
    pub frame_template: *const u64,
    pub fw: usize,
    pub issued: *mut u32,
    pub nissued: usize,
}

impl ItemReset {
    pub fn none() -> ItemReset {
        ItemReset {
            frame: std::ptr::null_mut(),
            frame_template: std::ptr::null(),
            fw: 0,
            issued: std::ptr::null_mut(),
            nissued: 0,
        }
    }
}

/// The start of a work-item of a compiled work-item loop (see [`ItemReset`]).
pub unsafe extern "C" fn h_reset(f: *mut Frame) {
    let r = &(*f).reset;
    if r.fw > 0 {
        std::ptr::copy_nonoverlapping(r.frame_template, r.frame, r.fw);
    }
    if r.nissued > 0 {
        std::ptr::write_bytes(r.issued, 0, r.nissued);
    }
}

/// The state of `Machine::count` as compiled code reads and writes it in place: the common
/// path of every counted access runs inline (`Tr::count`, specialised for the program's
/// coalescing table and board, `super::Spec`) on these pointers into the machine's own
/// counter block, last addresses, issue slots and burst trackers, so the interpreter (cold
/// ops, the out-of-line path) and compiled code share one state. Read at fixed offsets
/// (`offset_of!`).
#[repr(C)]
pub struct CountEnv {
    /// Sites the inline path may index: the smallest of the counter block's site rows, the
    /// last-address table, the coalescing table (when present) and the work-item's issue
    /// counters (when present); 0 when the board's word width is not a power of two. A run
    /// whose inline sites do not all fit runs on the interpreter (`jit::run`).
    pub nsites: u64,
    /// Site rows of the counter block (`field::COUNT` counters each, single writer).
    pub rows: *const AtomicU64,
    /// Last address per site (`Machine::last`) and its length (the burst table's row stride).
    pub last: *mut u64,
    pub nlast: u64,
    /// The running work-item's issue counters (`Machine::issued` from `issued_base`); null
    /// for groups of one work-item (slot 0).
    pub issued: *mut u32,
    /// The burst trackers (`Machine::bursts`), their length and the rows in use: these change
    /// when rows are added (`h_rows`, `h_count`, `h_cold`), which refresh them.
    pub bursts: *mut (u64, u64),
    pub nbursts: u64,
    pub burst_rows: u64,
    /// The pending runs of accesses per site (`Machine::batches`, `exec::batch`).
    pub batches: *mut super::super::batch::Batch,
}

impl CountEnv {
    /// The counting state of `m` for its running work-item.
    pub fn of(m: &mut Machine<'_>) -> CountEnv {
        let (rows, nrows) = m.counters.site_rows();
        let mut n = nrows.min(m.last.len());
        // No issue counters: groups of one work-item (slot 0). A base past them (not made by
        // the worker) leaves every access to `count`.
        let issued = if m.issued.is_empty() {
            std::ptr::null_mut()
        } else if let Some(s) = m.issued.get_mut(m.issued_base..) {
            n = n.min(s.len());
            s.as_mut_ptr()
        } else {
            n = 0;
            std::ptr::null_mut()
        };
        if m.word_shift >= 64 {
            n = 0;
        }
        n = n.min(m.batches.len());
        CountEnv {
            nsites: n as u64,
            rows,
            last: m.last.as_mut_ptr(),
            nlast: m.last.len() as u64,
            issued,
            bursts: m.bursts.as_mut_ptr(),
            nbursts: m.bursts.len() as u64,
            burst_rows: m.burst_rows as u64,
            batches: m.batches.as_mut_ptr(),
        }
    }

    /// Re-reads the burst table of `m` after the interpreter's code may have added rows.
    pub(super) fn refresh(&mut self, m: &mut Machine<'_>) {
        self.bursts = m.bursts.as_mut_ptr();
        self.nbursts = m.bursts.len() as u64;
        self.burst_rows = m.burst_rows as u64;
    }
}

/// The machine of a frame.
///
/// # Safety
/// `f` is the frame of a running compiled work-item (see `jit::run`).
unsafe fn mach<'x>(f: *mut Frame) -> &'x mut Machine<'static> {
    &mut *(*f).m
}

unsafe fn op_at(f: *mut Frame, pc: u32) -> Op {
    mach(f).code.ops[pc as usize]
}

unsafe fn set_trap(f: *mut Frame, t: Trap) -> u32 {
    (*f).trap = Some(t);
    1
}

/// One counted access of a site (`Machine::count`).
pub unsafe extern "C" fn h_count(f: *mut Frame, site: u32, addr: u64, size: u64, elem: u64) {
    #[cfg(test)]
    COUNT_CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let m = mach(f);
    m.count(site, addr, size, elem);
    (*f).cnt.refresh(m);
}

/// An access that does not continue its site's run (`Machine::batch_access`).
pub unsafe extern "C" fn h_batch(
    f: *mut Frame,
    site: u32,
    addr: u64,
    slot: u64,
    size: u64,
    elem: u64,
) {
    let m = mach(f);
    m.batch_access(site, addr, slot, size, elem);
    (*f).cnt.refresh(m);
}

/// Accesses counted out of line (`h_count`), for tests of the inline path.
#[cfg(test)]
pub static COUNT_CALLS: AtomicU64 = AtomicU64::new(0);

/// The inline count's rare path: issue slot `slot` has no burst row in this work-group yet
/// (`Machine::add_burst_rows`); the burst table is re-read by the caller from `Frame::cnt`.
pub unsafe extern "C" fn h_rows(f: *mut Frame, slot: u64) {
    let m = mach(f);
    let ns = m.last.len();
    m.add_burst_rows(slot as usize + 1, ns);
    (*f).cnt.refresh(m);
}

/// An access the inline check refused: reported and skipped (returns 0: a read gives 0, a
/// write is dropped) or a trap (returns 1).
pub unsafe extern "C" fn h_oob(
    f: *mut Frame,
    pc: u32,
    site: u32,
    addr: u64,
    size: u64,
    write: u32,
) -> u32 {
    let m = mach(f);
    let kind = match m.resolve(addr, size, write != 0) {
        Err(k) => k,
        // Not reachable: the inline check is `resolve`'s.
        Ok(_) => FaultKind::OutOfBounds {
            region: crate::fault::MemRegion::Invalid { region: addr >> 52 },
            offset: 0,
            size,
            limit: 0,
            write: write != 0,
        },
    };
    match m.soft_oob(kind, pc, site) {
        Ok(()) => 0,
        Err(t) => set_trap(f, t),
    }
}

/// The stop / abort / timeout poll of a loop header (`POLL_INTERVAL` visits). Pending runs of
/// accesses stay pending: nobody reads a batching kernel's counters while it runs, and a row
/// set goes on across polls (the same loop in the next work-items); a stop's trap returns to
/// the caller, which counts them (`jit::run`, `jit::run_items`).
pub unsafe extern "C" fn h_poll(f: *mut Frame, pc: u32, clock: u64) -> u32 {
    let m = mach(f);
    m.clock = clock;
    match m.stop_requested() {
        Some(kind) => set_trap(
            f,
            Trap {
                pc,
                kind,
                site: u32::MAX,
            },
        ),
        None => 0,
    }
}

/// Stateful clock costs (rule C2): ticks of a header visit / an entry of loop `l`.
pub unsafe extern "C" fn h_head(f: *mut Frame, l: u32) -> u64 {
    mach(f)
        .clock_plan
        .map(|cp| cp.head(l as usize))
        .unwrap_or(0)
}

pub unsafe extern "C" fn h_enter(f: *mut Frame, l: u32) -> u64 {
    mach(f)
        .clock_plan
        .map(|cp| cp.enter(l as usize))
        .unwrap_or(0)
}

/// `ptr_add` when the offset field carried.
pub extern "C" fn h_ptr_wide(p: u64, delta: u64) -> u64 {
    ptr_add_wide(p, delta as i64 as i128)
}

/// `indexed` when the offset field carried or the index is huge.
pub extern "C" fn h_idx_wide(p: u64, i: u64, sl: u32) -> u64 {
    ptr_add_wide(p, (i as i64 as i128) << sl)
}

/// One lane of a generic integer binary op (division, remainder): status, value in `tmp`.
pub unsafe extern "C" fn h_int_bin(f: *mut Frame, pc: u32, a: u64, b: u64) -> u32 {
    let Op::IntBin { op, k, .. } = op_at(f, pc) else {
        return 0;
    };
    match int_bin(op, k, a, b) {
        Ok(v) => {
            (*f).tmp = v;
            0
        }
        Err(kind) => set_trap(
            f,
            Trap {
                pc,
                kind,
                site: u32::MAX,
            },
        ),
    }
}

/// One lane of a generic float binary op.
pub unsafe extern "C" fn h_flt_bin(f: *mut Frame, pc: u32, a: u64, b: u64) -> u64 {
    match op_at(f, pc) {
        Op::FltBin { op, k, .. } => flt_bin(op, k, a, b),
        _ => 0,
    }
}

/// One lane of a generic compare (half floats).
pub unsafe extern "C" fn h_cmp(f: *mut Frame, pc: u32, a: u64, b: u64) -> u64 {
    let Op::Cmp { op, k, vec, .. } = op_at(f, pc) else {
        return 0;
    };
    let (x, y) = (float_val(k, a), float_val(k, b));
    let r = match op {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::Lt => x < y,
        CmpOp::Le => x <= y,
        CmpOp::Gt => x > y,
        CmpOp::Ge => x >= y,
    };
    if vec {
        0u64.wrapping_sub(r as u64)
    } else {
        r as u64
    }
}

/// One lane of a lane-wise builtin (`Lane`, `LaneV`).
pub unsafe extern "C" fn h_lane(f: *mut Frame, pc: u32, a: u64, b: u64, c: u64) -> u64 {
    match op_at(f, pc) {
        Op::Lane { f: bf, k, dk, .. } => builtins::lane(bf, k, dk, false, a, b, c),
        Op::LaneV {
            f: bf, k, dk, vec, ..
        } => builtins::lane(bf, k, dk, vec, a, b, c),
        _ => 0,
    }
}

/// One lane of a conversion.
pub unsafe extern "C" fn h_convert(f: *mut Frame, pc: u32, v: u64) -> u64 {
    let m = mach(f);
    let Op::Convert(x) = m.code.ops[pc as usize] else {
        return 0;
    };
    let c = &m.code.converts[x as usize];
    convert(c.from, c.to, c.sat, c.rounding, v)
}

/// A work-item query with a dimension in a register.
pub unsafe extern "C" fn h_workitem(f: *mut Frame, pc: u32, dm: u64) -> u64 {
    let m = mach(f);
    let Op::WorkItem { f: wf, .. } = m.code.ops[pc as usize] else {
        return 0;
    };
    m.ids.get(wf, dm)
}

/// `Unreachable`.
pub unsafe extern "C" fn h_unreachable(f: *mut Frame, pc: u32) -> u32 {
    set_trap(
        f,
        Trap {
            pc,
            kind: FaultKind::Unreachable,
            site: u32::MAX,
        },
    )
}

/// A rare op run by the interpreter on the register file (the caller spilled the slots it
/// reads and reloads the slots it writes): 0, or 1 on a trap.
pub unsafe extern "C" fn h_cold(f: *mut Frame, pc: u32) -> u32 {
    let m = mach(f);
    let op = m.code.ops[pc as usize];
    if (*f).items > 0 {
        // In a compiled work-item loop the running item is the frame's (`async_work_group_copy`
        // runs for item 0 only).
        m.item = (*f).item as usize;
    }
    let regs = std::slice::from_raw_parts_mut((*f).regs, (*f).nregs);
    // Runs are counted first: the interpreter's code may count accesses too.
    m.flush_batches();
    let r = m.cold(&op, regs, pc as usize + 1);
    // Cold ops may count accesses (atomics, copies): the burst table may have grown.
    (*f).cnt.refresh(m);
    match r {
        Ok(Cold::Next(_)) => 0,
        Ok(Cold::Exit(_)) => set_trap(
            f,
            Trap {
                pc,
                kind: FaultKind::Unreachable,
                site: u32::MAX,
            },
        ),
        Err(t) => set_trap(f, t),
    }
}

/// A channel or pipe operation (`FifoRead`/`FifoWrite`) run by the interpreter's own code
/// (`Machine::fifo_op`: the same waits, rule F clock and site counters) on the register file
/// (the caller spilled the slots it reads and reloads the status slot), at the work-item's
/// clock `clock`: 0, or 1 on a trap; the clock after the operation in `tmp`.
pub unsafe extern "C" fn h_fifo(f: *mut Frame, pc: u32, clock: u64) -> u32 {
    let m = mach(f);
    let code = m.code;
    let (x, write) = match code.ops[pc as usize] {
        Op::FifoRead(x) => (x, false),
        Op::FifoWrite(x) => (x, true),
        _ => return h_unreachable(f, pc),
    };
    let c = &code.fifos[x as usize];
    let regs = std::slice::from_raw_parts_mut((*f).regs, (*f).nregs);
    m.clock = clock;
    // The common case inline (no call, no `Result` through memory).
    if m.fifo_fast(c, write, regs) {
        (*f).tmp = m.clock;
        return 0;
    }
    let r = m.fifo_general(c, write, regs, pc);
    (*f).tmp = m.clock;
    match r {
        Ok(()) => 0,
        Err(kind) => set_trap(
            f,
            Trap {
                pc,
                kind,
                site: c.site,
            },
        ),
    }
}

/// The stop poll's reset value.
pub const POLL_RESET: u32 = POLL_INTERVAL;
