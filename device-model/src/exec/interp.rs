//! The interpreter: runs one work-item over the decoded [`Code`] until it returns or reaches a
//! barrier. No allocation, hashing or locking on the paths of ordinary instructions; channel
//! and pipe operations lock their FIFO, `printf` allocates.

use super::builtins;
use super::code::*;
use super::printf;
use super::printf_stream::PrintfStream;
use super::values::*;
use crate::activity::{Activity, RunState};
use crate::counters::{field, CounterBlock};
use crate::fault::{FaultKind, MemRegion, SourcePos};
use crate::fifo::{Fifo, FifoOutcome, Waiter, UNTIMED};
use crate::timing::ClockPlan;
use fpgacl_kernel_compiler::ir::{
    AtomicOp, BinOp, BuiltinPtrFn, CmpOp, Module, Scalar, UnOp, WorkItemFn, OFFSET_MASK,
    REGION_SHIFT,
};
use fpgacl_kernel_compiler::Loc;
use std::sync::atomic::{
    AtomicBool, AtomicI32, AtomicI64, AtomicU32, AtomicU64,
    Ordering::{Relaxed, SeqCst},
};
use std::sync::Arc;

/// One addressable memory region of the current work-item (index = pointer region number).
#[derive(Clone, Copy, Debug)]
pub struct Region {
    pub base: *mut u8,
    pub len: u64,
    pub writable: bool,
}

impl Region {
    pub const EMPTY: Region = Region {
        base: std::ptr::null_mut(),
        len: 0,
        writable: false,
    };
}

/// Work-item identity of the item being run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ids {
    pub gid: [u64; 3],
    pub lid: [u64; 3],
    pub grp: [u64; 3],
    pub gsize: [u64; 3],
    pub lsize: [u64; 3],
    pub ngroups: [u64; 3],
    pub offset: [u64; 3],
    pub dim: u32,
    pub cid: [u64; 3],
}

impl Ids {
    /// The value of work-item function `f` for dimension `dm` (OpenCL C 1.2 6.12.1: a
    /// dimension out of range gives 0 for ids and offsets, 1 for sizes).
    #[inline]
    pub fn get(&self, f: WorkItemFn, dm: u64) -> u64 {
        let pick = |a: &[u64; 3], dflt: u64| if dm < 3 { a[dm as usize] } else { dflt };
        match f {
            WorkItemFn::GlobalId => pick(&self.gid, 0),
            WorkItemFn::LocalId => pick(&self.lid, 0),
            WorkItemFn::GroupId => pick(&self.grp, 0),
            WorkItemFn::GlobalSize => pick(&self.gsize, 1),
            WorkItemFn::LocalSize => pick(&self.lsize, 1),
            WorkItemFn::NumGroups => pick(&self.ngroups, 1),
            WorkItemFn::GlobalOffset => pick(&self.offset, 0),
            WorkItemFn::WorkDim => self.dim as u64,
            WorkItemFn::ComputeId => pick(&self.cid, 0),
        }
    }
}

/// Channels and pipes visible to a kernel execution, plus what a blocking wait needs.
pub struct FifoEnv<'a> {
    /// All channels of the program, flattened (declaration after declaration).
    pub channels: &'a [Arc<Fifo>],
    /// First flattened index of each channel declaration.
    pub chan_base: &'a [u32],
    pub pipes: &'a [Option<Arc<Fifo>>],
    pub run: &'a RunState,
    pub activity: &'a Activity,
    pub shutdown: &'a AtomicBool,
    /// Watchdog (`FPGACL_KERNEL_TIMEOUT_S`): the host time after which the run stops with a
    /// `Timeout` fault, and the limit in ms; checked with the stop requests.
    pub deadline: Option<(std::time::Instant, u64)>,
}

/// Why the interpreter stopped without a fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Return,
    /// At a barrier (`pc` already points after it).
    Barrier,
}

/// What an out-of-line op leads to.
pub(super) enum Cold {
    /// Continue at this op.
    Next(usize),
    Exit(Exit),
}

/// A fault with the op index where it happened.
#[derive(Clone, Debug)]
pub struct Trap {
    pub pc: u32,
    pub kind: FaultKind,
    pub site: u32,
}

/// Everything one worker needs to run work-items of one kernel.
pub struct Machine<'a> {
    pub code: &'a Code,
    pub module: &'a Module,
    pub regions: Vec<Region>,
    pub ids: Ids,
    pub counters: &'a CounterBlock,
    /// Last address per site in this work-group (`u64::MAX` = none), for sequential counts.
    pub last: Vec<u64>,
    /// Burst trackers of this work-group (rule M0): (last memory word touched, words in the
    /// current burst), last word `u64::MAX` = none. Row-major by issue slot: entry
    /// `slot * sites + site`. NDRange groups of several work-items compare the k-th execution
    /// of a site by a work-item with the k-th execution by the previous work-items (slot k,
    /// the pipeline's issue order); executions beyond [`ISSUE_SLOTS`] share the last slot in
    /// execution order. Groups of one work-item use slot 0 only (execution order). Rows are
    /// added on first use and only the rows used are reset per group.
    pub bursts: Vec<(u64, u64)>,
    /// Rows of `bursts` used in this work-group (reset bound).
    pub burst_rows: usize,
    /// Executions per site by each work-item so far (saturating at [`ISSUE_SLOTS`]): `sites`
    /// entries per work-item slot (one slot, or one per work-item when barriers interleave
    /// the items); empty for groups of one work-item (execution order, one row).
    pub issued: Vec<u32>,
    /// Offset of the running work-item's entries in `issued`.
    pub issued_base: usize,
    /// Compiled kernels' pending runs of accesses per site and the sites that have one
    /// (`exec::batch`; empty vectors: no batching).
    pub batches: Vec<super::batch::Batch>,
    /// Per site: finished runs of the same shape kept together (`exec::batch::Rows`).
    pub rows: Vec<super::batch::Rows>,
    pub batch_dirty: Vec<u32>,
    /// Width of a memory word in bytes (board interface width) and the longest burst in words;
    /// both at least 1 (`Board::mem_word_bytes`, `Board::max_burst_words`).
    pub word_bytes: u64,
    pub max_burst_words: u64,
    /// `log2(word_bytes)` when it is a power of two, else `u32::MAX`.
    pub word_shift: u32,
    /// Per site: (tracker site, accesses per wide access), rule M0' (`Plan::coalesce`).
    pub coalesce: &'a [(u32, u32)],
    pub fifo: Option<FifoEnv<'a>>,
    /// `printf` output per work-item of the group (index = local linear id): the line each
    /// item has begun (completed lines move to `printf_ready`).
    pub printf: Vec<Vec<u8>>,
    /// Completed lines of this group not yet handed to `printf_stream` (handed over at
    /// [`PRINTF_BATCH`] bytes, at the periodic poll of loop headers, and when an item or the
    /// group ends).
    pub printf_ready: Vec<u8>,
    /// The launch's ordered output (`None`: output is dropped).
    pub printf_stream: Option<&'a PrintfStream<'a>>,
    /// Linear index of the group being run (the order of `printf_stream`).
    pub group: u64,
    /// Local linear id of the item being run.
    pub item: usize,
    /// Loop header visits until the next check for shutdown / abort requests.
    pub poll: u32,
    /// Timing hook: this execution's simulated clock in ticks (`crate::timing::clock`).
    pub clock: u64,
    /// Timing hook: the clock's costs; `None` = untimed run (FIFO ops use `fifo::UNTIMED`).
    pub clock_plan: Option<&'a ClockPlan>,
    /// Out-of-bounds accesses that did not stop the kernel (`OobMode::Report`).
    pub oob: OobLog,
}

/// The out-of-bounds accesses of one worker (`OobMode::Report`), one entry per operation and
/// direction; empty unless some access went out of bounds (the cold path fills it).
#[derive(Clone, Debug, Default)]
pub struct OobLog {
    /// `OobMode::Fault`: out-of-bounds accesses stop the kernel instead.
    pub fault: bool,
    pub hits: Vec<OobHit>,
}

/// One out-of-bounds operation of a worker: the first access (work-item order) and a count.
#[derive(Clone, Debug)]
pub struct OobHit {
    pub pc: u32,
    pub site: u32,
    /// `FaultKind::OutOfBounds` of the first access.
    pub kind: FaultKind,
    pub gid: [u64; 3],
    pub cid: [u64; 3],
    pub count: u64,
}

/// Adds `v` to a counter of a block that this thread alone writes (see [`CounterBlock`]).
#[inline(always)]
fn bump(c: &AtomicU64, v: u64) {
    c.store(c.load(Relaxed).wrapping_add(v), Relaxed);
}

/// One access touching memory words `w0..=w1` through burst tracker `b` (last word, words in
/// the current burst; rule M0): it continues the burst (same or next word, up to `max` words)
/// or starts one. Returns the words newly touched and whether a burst started.
#[inline(always)]
pub(super) fn burst_step(b: &mut (u64, u64), w0: u64, w1: u64, max: u64) -> (u64, bool) {
    let (new, cont) = if b.0 == u64::MAX {
        (w1 - w0 + 1, false)
    } else if w0 == b.0 {
        (w1 - w0, true)
    } else if w0 == b.0.wrapping_add(1) {
        (w1 - w0 + 1, true)
    } else {
        (w1 - w0 + 1, false)
    };
    let started = if cont && b.1 + new <= max {
        b.1 += new;
        false
    } else {
        b.1 = new;
        true
    };
    b.0 = w1;
    (new, started)
}

/// Executions of one site by one work-item that are ordered by issue slot for burst
/// coalescing (rule M0); later executions share one slot in execution order.
pub const ISSUE_SLOTS: u32 = 1024;

/// Longest unfinished `printf` line kept per work-item (see `Machine::printf`).
pub const PRINTF_ITEM_LIMIT: usize = 16 << 20;
/// What ends a line longer than [`PRINTF_ITEM_LIMIT`] (the rest of that line is dropped).
const PRINTF_CUT: &[u8] = b"\n[fpgacl: printf line of this work-item cut at 16 MiB]\n";
/// Completed `printf` lines handed to the launch's stream in batches of about this size.
pub const PRINTF_BATCH: usize = 64 << 10;

/// Loop header visits between checks for shutdown or abort requests (so that a kernel stuck in
/// an endless loop can still be stopped).
pub const POLL_INTERVAL: u32 = 4096;

fn region_of(r: u64) -> MemRegion {
    match r {
        0 => MemRegion::Null,
        1 => MemRegion::Private,
        2 => MemRegion::Local,
        3 => MemRegion::Constant,
        r if r < (1 << 23) => MemRegion::Arg {
            index: (r - fpgacl_kernel_compiler::ir::REGION_FIRST_ARG) as u32,
        },
        r => MemRegion::Invalid { region: r },
    }
}

/// A pointer's offset as a signed number (offsets wrap within the 40-bit field).
pub fn signed_offset(p: u64) -> i64 {
    let off = p & OFFSET_MASK;
    if off >= 1 << (REGION_SHIFT - 1) {
        off as i64 - (1i64 << REGION_SHIFT)
    } else {
        off as i64
    }
}

/// Source position of a location.
pub fn pos_of(m: &Module, loc: Loc) -> SourcePos {
    SourcePos {
        file: m.sources.name(loc.file).to_string(),
        line: loc.line,
        col: loc.col,
    }
}

/// Reads one lane of kind `k` and normalises it to its slot encoding (as `norm` does), with
/// one dispatch on the kind.
#[inline(always)]
unsafe fn read_lane(k: Scalar, p: *const u8) -> u64 {
    use std::ptr::read_unaligned as rd;
    match k {
        Scalar::Bool => (*p != 0) as u64,
        Scalar::I8 => *p as i8 as i64 as u64,
        Scalar::U8 => *p as u64,
        Scalar::I16 => rd(p as *const i16) as i64 as u64,
        Scalar::U16 | Scalar::F16 => rd(p as *const u16) as u64,
        Scalar::I32 => rd(p as *const i32) as i64 as u64,
        Scalar::U32 | Scalar::F32 => rd(p as *const u32) as u64,
        Scalar::I64 | Scalar::U64 | Scalar::F64 => rd(p as *const u64),
    }
}

#[inline(always)]
unsafe fn write_lane(k: Scalar, p: *mut u8, v: u64) {
    match k.size() {
        1 => *p = v as u8,
        2 => std::ptr::write_unaligned(p as *mut u16, v as u16),
        4 => std::ptr::write_unaligned(p as *mut u32, v as u32),
        _ => std::ptr::write_unaligned(p as *mut u64, v),
    }
}

/// `regs[d] = f(regs[a], regs[b])`: the scalar binary operations.
#[inline(always)]
fn bin(regs: &mut [u64], d: u32, a: u32, b: u32, f: impl Fn(u64, u64) -> u64) {
    regs[d as usize] = f(regs[a as usize], regs[b as usize]);
}

/// `regs[d + i] = f(regs[a + i], regs[b + i])` for `n` lanes.
#[inline(always)]
fn lanes(regs: &mut [u64], d: u32, a: u32, b: u32, n: u32, f: impl Fn(u64, u64) -> u64) {
    for i in 0..n as usize {
        regs[d as usize + i] = f(regs[a as usize + i], regs[b as usize + i]);
    }
}

/// `regs[t] = regs[base] + (regs[idx] << sl)` (a fused pointer index), returned.
#[inline(always)]
fn indexed(regs: &mut [u64], t: u32, base: u32, idx: u32, sl: u8) -> u64 {
    let i = regs[idx as usize];
    let p = regs[base as usize];
    let n = p.wrapping_add(i.wrapping_shl(sl as u32));
    // Fast path: no carry into the region bits and an index below 2^47 in magnitude (so the
    // shift cannot overflow); else exact arithmetic (see `ptr_add`).
    let addr = if ((n ^ p) & !OFFSET_MASK) | (i.wrapping_add(1 << 47) >> 48) == 0 {
        n
    } else {
        ptr_add_wide(p, (i as i64 as i128) << sl)
    };
    regs[t as usize] = addr;
    addr
}

/// A pointer moved by `delta` bytes (a signed 64-bit number); the region stays. The offset is
/// a signed number of `REGION_SHIFT` bits: a result outside that range is not wrapped (which
/// could land back inside the object) but saturates to [`POISON_OFFSET`], out of bounds of
/// every object, so the access that uses it is reported.
#[inline(always)]
fn ptr_add(p: u64, delta: u64) -> u64 {
    let n = p.wrapping_add(delta);
    if (n ^ p) & !OFFSET_MASK == 0 {
        // No carry into the region bits: the common case.
        n
    } else {
        ptr_add_wide(p, delta as i64 as i128)
    }
}

/// Offset field of a pointer whose arithmetic overflowed the offset field: the most negative
/// offset.
pub const POISON_OFFSET: u64 = 1 << (REGION_SHIFT - 1);

/// [`ptr_add`] when the offset field carried: exact signed arithmetic.
#[cold]
#[inline(never)]
pub(super) fn ptr_add_wide(p: u64, delta: i128) -> u64 {
    let lim = 1i128 << (REGION_SHIFT - 1);
    let off = signed_offset(p) as i128 + delta;
    let field = if (-lim..lim).contains(&off) {
        off as u64 & OFFSET_MASK
    } else {
        POISON_OFFSET
    };
    (p & !OFFSET_MASK) | field
}

/// `idx * scale + disp` as a byte delta for [`ptr_add`]; an overflow of 64 bits gives a delta
/// that makes the pointer [`POISON_OFFSET`].
#[inline(always)]
fn scaled(idx: u64, scale: i64, disp: i64) -> u64 {
    let (m, o1) = (idx as i64).overflowing_mul(scale);
    let (d, o2) = m.overflowing_add(disp);
    if o1 | o2 {
        i64::MIN as u64
    } else {
        d as u64
    }
}

#[inline(always)]
fn cmp_res<T: PartialOrd>(op: CmpOp, a: T, b: T) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Lt => a < b,
        CmpOp::Le => a <= b,
        CmpOp::Gt => a > b,
        CmpOp::Ge => a >= b,
    }
}

/// One lane of an integer binary operation.
#[inline(always)]
pub fn int_bin(op: BinOp, k: Scalar, a: u64, b: u64) -> Result<u64, FaultKind> {
    Ok(match op {
        BinOp::Add => norm(k, a.wrapping_add(b)),
        BinOp::Sub => norm(k, a.wrapping_sub(b)),
        BinOp::Mul => norm(k, a.wrapping_mul(b)),
        BinOp::Div | BinOp::Rem => {
            // OpenCL C 1.2 6.3 (b): an integer division by zero does not raise an exception;
            // its value is unspecified. fpgacl gives all ones for the quotient and the dividend
            // for the remainder (what a divider that traps nothing gives), and MIN / -1 = MIN,
            // MIN % -1 = 0; each kind is reported once per process on stderr.
            if norm(k, b) == 0 {
                undefined_division(FaultKind::DivisionByZero);
                return Ok(if op == BinOp::Div {
                    norm(k, u64::MAX)
                } else {
                    a
                });
            }
            if k.is_signed() {
                let (x, y) = (a as i64, b as i64);
                if y == -1 && x as i128 == int_range(k).0 {
                    undefined_division(FaultKind::DivisionOverflow);
                    return Ok(if op == BinOp::Div { a } else { 0 });
                }
                let r = if op == BinOp::Div {
                    x.wrapping_div(y)
                } else {
                    x.wrapping_rem(y)
                };
                norm(k, r as u64)
            } else if op == BinOp::Div {
                a / b
            } else {
                a % b
            }
        }
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl => norm(k, a << ((b as u32) & (bits(k) - 1))),
        BinOp::Shr => {
            let c = (b as u32) & (bits(k) - 1);
            if k.is_signed() {
                ((a as i64) >> c) as u64
            } else {
                a >> c
            }
        }
    })
}

/// Reports an integer division with an unspecified result, once per kind and process.
#[cold]
fn undefined_division(kind: FaultKind) {
    use std::sync::atomic::{AtomicBool, Ordering};
    static ZERO: AtomicBool = AtomicBool::new(false);
    static OVERFLOW: AtomicBool = AtomicBool::new(false);
    let (flag, what) = if kind == FaultKind::DivisionByZero {
        (&ZERO, "integer division by zero")
    } else {
        (&OVERFLOW, "integer division overflow (MIN / -1)")
    };
    if !flag.swap(true, Ordering::Relaxed) {
        eprintln!(
            "fpgacl: warning: {what} in a kernel: the result is unspecified (OpenCL C 1.2 6.3); \
             the kernel goes on (reported once per process)"
        );
    }
}

/// One lane of a floating-point binary operation.
#[inline(always)]
pub fn flt_bin(op: BinOp, k: Scalar, a: u64, b: u64) -> u64 {
    match k {
        Scalar::F32 => {
            let (x, y) = (f32_of(a), f32_of(b));
            of_f32(match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                BinOp::Rem => x % y,
                _ => f32::NAN,
            })
        }
        Scalar::F64 => {
            let (x, y) = (f64_of(a), f64_of(b));
            of_f64(match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                BinOp::Rem => x % y,
                _ => f64::NAN,
            })
        }
        _ => {
            let (x, y) = (float_val(k, a) as f32, float_val(k, b) as f32);
            let r = match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                BinOp::Rem => x % y,
                _ => f32::NAN,
            };
            enc_float(k, r as f64)
        }
    }
}

impl Machine<'_> {
    /// Every `POLL_INTERVAL` loop header visits: a stop request, if any. A timed execution
    /// also publishes its clock here (a lower bound for the non-blocking decisions of its
    /// partners, rule F-nb of `timing/MODEL.md`), so a long stretch without channel
    /// operations does not keep them waiting for its next one.
    #[cold]
    pub(super) fn stop_requested(&self) -> Option<FaultKind> {
        let env = self.fifo.as_ref()?;
        // Channel operations may hold their counters back (fifo.rs): published first, so the
        // clock never passes an element the partners cannot see yet.
        crate::fifo::flush_pending();
        if self.clock_plan.is_some() {
            env.run.publish_clock(self.clock);
        }
        if env.shutdown.load(std::sync::atomic::Ordering::Relaxed) {
            Some(FaultKind::Shutdown)
        } else if env.run.abort_requested() {
            Some(FaultKind::Aborted)
        } else {
            match env.deadline {
                Some((d, millis)) if std::time::Instant::now() >= d => {
                    Some(FaultKind::Timeout { millis })
                }
                _ => None,
            }
        }
    }

    /// Resolves a pointer for an access of `size` bytes.
    #[inline(always)]
    pub(super) fn resolve(&self, p: u64, size: u64, write: bool) -> Result<*mut u8, FaultKind> {
        let r = (p >> REGION_SHIFT) as usize;
        let off = p & OFFSET_MASK;
        if let Some(reg) = self.regions.get(r) {
            if off + size <= reg.len {
                if write && !reg.writable {
                    return Err(FaultKind::ReadOnly {
                        region: region_of(r as u64),
                        offset: off as i64,
                    });
                }
                // SAFETY: off + size <= len of the region's allocation.
                return Ok(unsafe { reg.base.add(off as usize) });
            }
        }
        Err(self.oob(p, size, write))
    }

    #[cold]
    fn oob(&self, p: u64, size: u64, write: bool) -> FaultKind {
        let r = p >> REGION_SHIFT;
        FaultKind::OutOfBounds {
            region: region_of(r),
            offset: signed_offset(p),
            size,
            limit: self.regions.get(r as usize).map(|x| x.len).unwrap_or(0),
            write,
        }
    }

    /// An access that `resolve` refused: in `OobMode::Report` an out-of-bounds access is
    /// logged (first access in work-item order, count) and the caller skips it (a read gives
    /// 0, a write is dropped); anything else, or `OobMode::Fault`, is a trap.
    #[cold]
    #[inline(never)]
    pub(super) fn soft_oob(&mut self, kind: FaultKind, pc: u32, site: u32) -> Result<(), Trap> {
        let FaultKind::OutOfBounds { write, .. } = kind else {
            return Err(Trap { pc, kind, site });
        };
        if self.oob.fault {
            return Err(Trap { pc, kind, site });
        }
        let (gid, cid) = (self.ids.gid, self.ids.cid);
        let key = |g: &[u64; 3]| [g[2], g[1], g[0]];
        let same = |h: &OobHit| {
            h.pc == pc && matches!(h.kind, FaultKind::OutOfBounds { write: w, .. } if w == write)
        };
        match self.oob.hits.iter_mut().find(|h| same(h)) {
            Some(h) => {
                h.count = h.count.saturating_add(1);
                if key(&gid) < key(&h.gid) {
                    h.gid = gid;
                    h.cid = cid;
                    h.kind = kind;
                }
            }
            None => self.oob.hits.push(OobHit {
                pc,
                site,
                kind,
                gid,
                cid,
                count: 1,
            }),
        }
        Ok(())
    }

    /// Counts one access of a site: one row of the counter block (bounds checked once), the
    /// site's last address and its burst tracker, with the memory word arithmetic done by a
    /// shift when the board's word width is a power of two (always, on real boards).
    #[inline(always)]
    pub(super) fn count(&mut self, site: u32, addr: u64, size: u64, elem: u64) {
        let s = site as usize;
        let ns = self.last.len();
        let (Some(row), Some(l)) = (self.counters.site_row(s), self.last.get_mut(s)) else {
            return;
        };
        bump(&row[field::FIRES], 1);
        bump(&row[field::BYTES], size);
        let prev = *l;
        *l = addr;
        if prev != u64::MAX {
            if addr == prev.wrapping_add(size) {
                bump(&row[field::SEQUENTIAL], 1);
            } else if addr == prev {
                bump(&row[field::REPEATED], 1);
            }
        }
        let align = if size.is_power_of_two() { size } else { elem };
        if addr & (align - 1) != 0 {
            bump(&row[field::UNALIGNED], 1);
        }
        if size == 0 {
            return;
        }
        // Rule M6: an access that touches more words than its width needs crosses a word.
        let (w0, w1) = if self.word_shift != u32::MAX {
            (
                addr >> self.word_shift,
                (addr + size - 1) >> self.word_shift,
            )
        } else {
            let w = self.word_bytes;
            (addr / w, (addr + size - 1) / w)
        };
        let need = if self.word_shift != u32::MAX {
            (size + (1 << self.word_shift) - 1) >> self.word_shift
        } else {
            size.div_ceil(self.word_bytes)
        };
        if w1 - w0 + 1 > need {
            bump(&row[field::CROSSING], 1);
        }
        // Rule M0': the accesses of a statically coalesced group share one tracker (the
        // group's first site) and one issue slot per wide access.
        let (ts, per) = match self.coalesce.get(s) {
            Some(&(t, n)) => (t as usize, n.max(1)),
            None => (s, 1),
        };
        // Burst formation: words newly touched, bursts started, longest burst. Groups of one
        // work-item have no `issued` entries: slot 0, execution order.
        let slot = match self.issued.get_mut(self.issued_base + ts) {
            Some(k) => {
                let slot = (*k / per) as usize;
                if *k < ISSUE_SLOTS.saturating_mul(per) {
                    *k += 1;
                }
                slot
            }
            None => 0,
        };
        if slot >= self.burst_rows {
            self.add_burst_rows(slot + 1, ns);
        }
        let max = self.max_burst_words;
        let Some(b) = self.bursts.get_mut(slot * ns + ts) else {
            return;
        };
        let (new, started) = burst_step(b, w0, w1, max);
        if started {
            bump(&row[field::BURSTS], 1);
        }
        bump(&row[field::WORDS], new);
        let m = &row[field::MAX_BURST];
        if m.load(Relaxed) < b.1 {
            m.store(b.1, Relaxed);
        }
    }

    /// Marks burst rows `..rows` as used, adding rows that do not exist yet (rare: at most
    /// `ISSUE_SLOTS + 1` rows per worker, kept across groups).
    #[cold]
    pub(super) fn add_burst_rows(&mut self, rows: usize, sites: usize) {
        if self.bursts.len() < rows * sites {
            self.bursts.resize(rows * sites, (u64::MAX, 0));
        }
        self.burst_rows = rows;
    }

    /// Resets the burst trackers for a new work-group (only the rows the last one used).
    pub fn reset_bursts(&mut self) {
        let n = (self.burst_rows * self.last.len()).min(self.bursts.len());
        self.bursts[..n].fill((u64::MAX, 0));
        self.burst_rows = 0;
    }

    /// Runs the current work-item from `*pc` until it returns or reaches a barrier.
    pub fn run(&mut self, regs: &mut [u64], pc: &mut u32) -> Result<Exit, Trap> {
        let code = self.code;
        // The compiling backend (the default) runs the work-item when the kernel compiled:
        // from its start or, for kernels with barriers, from the op after the barrier where it
        // stopped (`jit::run` returns `None` when it cannot: the interpreter goes on).
        if let Some(j) = code.jit.get(self.issued.is_empty()) {
            if let Some(r) = super::jit::run(j, self, regs, pc) {
                return r;
            }
        }
        let ops = &code.ops[..];
        let mut p = *pc as usize;
        macro_rules! trap {
            ($kind:expr, $site:expr) => {{
                *pc = p as u32 - 1;
                return Err(Trap {
                    pc: p as u32 - 1,
                    kind: $kind,
                    site: $site,
                });
            }};
        }
        // An access `resolve` refused: reported and skipped (`OobMode::Report`, out of bounds
        // only), else a trap.
        macro_rules! soft {
            ($kind:expr, $site:expr) => {{
                if let Err(t) = self.soft_oob($kind, p as u32 - 1, $site) {
                    *pc = t.pc;
                    return Err(t);
                }
            }};
        }
        loop {
            let op = &ops[p];
            p += 1;
            match *op {
                Op::Jump(t) => p = t as usize,
                Op::Br { c, t, f } => p = if regs[c as usize] != 0 { t } else { f } as usize,
                Op::BrCmpS { op, a, b, t, f } => {
                    let r = cmp_res(op, regs[a as usize] as i64, regs[b as usize] as i64);
                    p = if r { t } else { f } as usize;
                }
                Op::BrCmpU { op, a, b, t, f } => {
                    let r = cmp_res(op, regs[a as usize], regs[b as usize]);
                    p = if r { t } else { f } as usize;
                }
                Op::LoopHead(l) => {
                    self.counters.add_loop(l as usize);
                    if let Some(cp) = self.clock_plan {
                        self.clock = self.clock.wrapping_add(cp.head(l as usize));
                    }
                    self.poll = self.poll.wrapping_sub(1);
                    if self.poll == 0 {
                        self.poll = POLL_INTERVAL;
                        if !self.printf_ready.is_empty() {
                            self.emit_printf();
                        }
                        if let Some(kind) = self.stop_requested() {
                            trap!(kind, NONE)
                        }
                    }
                }
                Op::LoopEnter(l) => {
                    self.counters.add_loop_entry(l as usize);
                    if let Some(cp) = self.clock_plan {
                        self.clock = self.clock.wrapping_add(cp.enter(l as usize));
                    }
                }
                Op::Const { d, v } => regs[d as usize] = v,
                Op::Mov1 { d, s } => regs[d as usize] = regs[s as usize],
                Op::ConvInt { k, d, s } => regs[d as usize] = norm(k, regs[s as usize]),
                Op::WorkItemC { f, d, dim } => {
                    let ids = &self.ids;
                    let i = dim as usize;
                    regs[d as usize] = match f {
                        WorkItemFn::GlobalId => ids.gid[i],
                        WorkItemFn::LocalId => ids.lid[i],
                        WorkItemFn::GroupId => ids.grp[i],
                        WorkItemFn::GlobalSize => ids.gsize[i],
                        WorkItemFn::LocalSize => ids.lsize[i],
                        WorkItemFn::NumGroups => ids.ngroups[i],
                        WorkItemFn::GlobalOffset => ids.offset[i],
                        WorkItemFn::WorkDim => ids.dim as u64,
                        WorkItemFn::ComputeId => ids.cid[i],
                    };
                }
                Op::AddI32 { d, a, b } => bin(regs, d, a, b, |x, y| {
                    (x as i32).wrapping_add(y as i32) as i64 as u64
                }),
                Op::AddU32 { d, a, b } => bin(regs, d, a, b, |x, y| {
                    (x as u32).wrapping_add(y as u32) as u64
                }),
                Op::Add64 { d, a, b } => bin(regs, d, a, b, |x, y| x.wrapping_add(y)),
                Op::SubI32 { d, a, b } => bin(regs, d, a, b, |x, y| {
                    (x as i32).wrapping_sub(y as i32) as i64 as u64
                }),
                Op::SubU32 { d, a, b } => bin(regs, d, a, b, |x, y| {
                    (x as u32).wrapping_sub(y as u32) as u64
                }),
                Op::Sub64 { d, a, b } => bin(regs, d, a, b, |x, y| x.wrapping_sub(y)),
                Op::MulI32 { d, a, b } => bin(regs, d, a, b, |x, y| {
                    (x as i32).wrapping_mul(y as i32) as i64 as u64
                }),
                Op::MulU32 { d, a, b } => bin(regs, d, a, b, |x, y| {
                    (x as u32).wrapping_mul(y as u32) as u64
                }),
                Op::Mul64 { d, a, b } => bin(regs, d, a, b, |x, y| x.wrapping_mul(y)),
                Op::And { d, a, b, n } => lanes(regs, d, a, b, n, |x, y| x & y),
                Op::Or { d, a, b, n } => lanes(regs, d, a, b, n, |x, y| x | y),
                Op::Xor { d, a, b, n } => lanes(regs, d, a, b, n, |x, y| x ^ y),
                Op::CmpS { op, d, a, b } => {
                    bin(regs, d, a, b, |x, y| cmp_res(op, x as i64, y as i64) as u64)
                }
                Op::CmpU { op, d, a, b } => bin(regs, d, a, b, |x, y| cmp_res(op, x, y) as u64),
                Op::CmpF32 { op, d, a, b } => bin(regs, d, a, b, |x, y| {
                    cmp_res(op, f32_of(x), f32_of(y)) as u64
                }),
                Op::CmpF64 { op, d, a, b } => bin(regs, d, a, b, |x, y| {
                    cmp_res(op, f64_of(x), f64_of(y)) as u64
                }),
                Op::FAdd32 { d, a, b } => bin(regs, d, a, b, |x, y| of_f32(f32_of(x) + f32_of(y))),
                Op::FSub32 { d, a, b } => bin(regs, d, a, b, |x, y| of_f32(f32_of(x) - f32_of(y))),
                Op::FMul32 { d, a, b } => bin(regs, d, a, b, |x, y| of_f32(f32_of(x) * f32_of(y))),
                Op::FDiv32 { d, a, b } => bin(regs, d, a, b, |x, y| of_f32(f32_of(x) / f32_of(y))),
                Op::FAdd64 { d, a, b } => bin(regs, d, a, b, |x, y| of_f64(f64_of(x) + f64_of(y))),
                Op::FSub64 { d, a, b } => bin(regs, d, a, b, |x, y| of_f64(f64_of(x) - f64_of(y))),
                Op::FMul64 { d, a, b } => bin(regs, d, a, b, |x, y| of_f64(f64_of(x) * f64_of(y))),
                Op::FDiv64 { d, a, b } => bin(regs, d, a, b, |x, y| of_f64(f64_of(x) / f64_of(y))),
                Op::PtrIdx {
                    d,
                    base,
                    idx,
                    scale,
                    disp,
                } => {
                    let bv = regs[base as usize];
                    let delta = scaled(regs[idx as usize], scale as i64, disp as i64);
                    regs[d as usize] = ptr_add(bv, delta);
                }
                Op::PtrDisp { d, base, disp } => {
                    let bv = regs[base as usize];
                    regs[d as usize] = ptr_add(bv, disp as u64);
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
                    let addr = indexed(regs, t, base, idx, sl);
                    let es = k.size() as u64;
                    regs[d as usize] = match self.resolve(addr, es, false) {
                        // SAFETY: resolve checked `es` bytes from ptr.
                        Ok(ptr) => unsafe { read_lane(k, ptr) },
                        Err(e) => {
                            soft!(e, site);
                            0
                        }
                    };
                    if site != NONE {
                        self.count(site, addr, es, es);
                    }
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
                    let addr = indexed(regs, t, base, idx, sl);
                    let es = k.size() as u64;
                    match self.resolve(addr, es, true) {
                        // SAFETY: resolve checked `es` bytes from ptr.
                        Ok(ptr) => unsafe { write_lane(k, ptr, regs[s as usize]) },
                        Err(e) => soft!(e, site),
                    }
                    if site != NONE {
                        self.count(site, addr, es, es);
                    }
                }
                Op::Load { k, n, d, a, site } => {
                    let addr = regs[a as usize];
                    let es = k.size() as u64;
                    let size = es * n as u64;
                    match self.resolve(addr, size, false) {
                        Ok(ptr) => {
                            for i in 0..n as usize {
                                // SAFETY: resolve checked `size` bytes from ptr.
                                regs[d as usize + i] =
                                    unsafe { read_lane(k, ptr.add(i * es as usize)) };
                            }
                        }
                        Err(e) => {
                            soft!(e, site);
                            regs[d as usize..(d + n as u32) as usize].fill(0);
                        }
                    }
                    if site != NONE {
                        self.count(site, addr, size, es);
                    }
                }
                Op::Store { k, n, s, a, site } => {
                    let addr = regs[a as usize];
                    let es = k.size() as u64;
                    let size = es * n as u64;
                    match self.resolve(addr, size, true) {
                        Ok(ptr) => {
                            for i in 0..n as usize {
                                // SAFETY: resolve checked `size` bytes from ptr.
                                unsafe {
                                    write_lane(k, ptr.add(i * es as usize), regs[s as usize + i])
                                };
                            }
                        }
                        Err(e) => soft!(e, site),
                    }
                    if site != NONE {
                        self.count(site, addr, size, es);
                    }
                }
                Op::Mov { d, s, n } => {
                    regs.copy_within(s as usize..(s + n) as usize, d as usize);
                }
                Op::Splat { d, s, n } => {
                    let v = regs[s as usize];
                    regs[d as usize..(d + n) as usize].fill(v);
                }
                Op::Shuffle(x) => {
                    let (d, s, idx) = &code.shuffles[x as usize];
                    let mut tmp = [0u64; 16];
                    for (i, &j) in idx.iter().enumerate().take(16) {
                        tmp[i] = regs[*s as usize + j as usize];
                    }
                    let n = idx.len().min(16);
                    regs[*d as usize..*d as usize + n].copy_from_slice(&tmp[..n]);
                }
                Op::IntBin { op, k, n, d, a, b } => {
                    for i in 0..n as usize {
                        match int_bin(op, k, regs[a as usize + i], regs[b as usize + i]) {
                            Ok(v) => regs[d as usize + i] = v,
                            Err(e) => trap!(e, NONE),
                        }
                    }
                }
                Op::FltBin { op, k, n, d, a, b } => {
                    for i in 0..n as usize {
                        regs[d as usize + i] =
                            flt_bin(op, k, regs[a as usize + i], regs[b as usize + i]);
                    }
                }
                Op::Unary { op, k, n, d, s } => {
                    for i in 0..n as usize {
                        let v = regs[s as usize + i];
                        regs[d as usize + i] = match (op, k) {
                            (UnOp::Neg, Scalar::F32) => v ^ 0x8000_0000,
                            (UnOp::Neg, Scalar::F64) => v ^ (1 << 63),
                            (UnOp::Neg, Scalar::F16) => v ^ 0x8000,
                            (UnOp::Neg, _) => norm(k, 0u64.wrapping_sub(v)),
                            (UnOp::Not, Scalar::Bool) => (v == 0) as u64,
                            (UnOp::Not, _) => norm(k, !v),
                        };
                    }
                }
                Op::Select { n, d, c, a, b } => {
                    let src = if regs[c as usize] != 0 { a } else { b };
                    regs.copy_within(src as usize..(src + n) as usize, d as usize);
                }
                Op::Lane {
                    f,
                    k,
                    dk,
                    d,
                    a,
                    b,
                    c,
                } => {
                    let x = |r: u32| if r == NONE { 0 } else { regs[r as usize] };
                    regs[d as usize] = builtins::lane(f, k, dk, false, x(a), x(b), x(c));
                }
                Op::LaneV {
                    f,
                    k,
                    dk,
                    n,
                    dn,
                    vec,
                    d,
                    a,
                    b,
                    c,
                } => {
                    let x = |r: u32, i: usize| if r == NONE { 0 } else { regs[r as usize + i] };
                    let mut out = [0u64; 16];
                    for (i, o) in out.iter_mut().enumerate().take(n as usize) {
                        *o = builtins::lane(f, k, dk, vec, x(a, i), x(b, i), x(c, i));
                    }
                    let d = d as usize;
                    regs[d..d + dn as usize].copy_from_slice(&out[..dn as usize]);
                }
                Op::Ret => {
                    *pc = p as u32;
                    return Ok(Exit::Return);
                }
                _ => match self.cold(op, regs, p) {
                    Ok(Cold::Next(next)) => p = next,
                    Ok(Cold::Exit(exit)) => {
                        *pc = p as u32;
                        return Ok(exit);
                    }
                    Err(t) => {
                        *pc = t.pc;
                        return Err(t);
                    }
                },
            }
        }
    }

    /// The ops that are rare in inner loops, out of line so that the hot loop stays small.
    /// `p` points after `op`; returns an exit (barrier) or a trap at `op`.
    #[inline(never)]
    pub(super) fn cold(&mut self, op: &Op, regs: &mut [u64], mut p: usize) -> Result<Cold, Trap> {
        let code = self.code;
        macro_rules! trap {
            ($kind:expr, $site:expr) => {{
                return Err(Trap {
                    pc: p as u32 - 1,
                    kind: $kind,
                    site: $site,
                });
            }};
        }
        // An access `resolve` refused: reported and skipped (`OobMode::Report`, out of bounds
        // only), else a trap.
        macro_rules! soft {
            ($kind:expr, $site:expr) => {{
                self.soft_oob($kind, p as u32 - 1, $site)?;
            }};
        }
        match *op {
            Op::WorkItem { f, d, dim } => {
                regs[d as usize] = self.ids.get(f, regs[dim as usize]);
            }
            Op::ConstN(x) => {
                let (d, v) = &code.consts[x as usize];
                regs[*d as usize..*d as usize + v.len()].copy_from_slice(v);
            }
            Op::Cmp {
                op,
                k,
                n,
                vec,
                d,
                a,
                b,
            } => {
                for i in 0..n as usize {
                    let (x, y) = (regs[a as usize + i], regs[b as usize + i]);
                    let r = if k.is_float() {
                        cmp_res(op, float_val(k, x), float_val(k, y))
                    } else if k.is_signed() {
                        cmp_res(op, x as i64, y as i64)
                    } else {
                        cmp_res(op, x, y)
                    };
                    regs[d as usize + i] = if vec {
                        0u64.wrapping_sub(r as u64)
                    } else {
                        r as u64
                    };
                }
            }
            Op::Convert(x) => {
                let c = &code.converts[x as usize];
                for i in 0..c.n as usize {
                    regs[c.d as usize + i] =
                        convert(c.from, c.to, c.sat, c.rounding, regs[c.s as usize + i]);
                }
            }
            Op::Bitcast(x) => {
                let c = &code.bitcasts[x as usize];
                let mut bytes = [0u8; 128];
                let fs = c.from.scalar.size() as usize;
                for i in 0..c.from.lanes.max(1) as usize {
                    let v = regs[c.s as usize + i].to_le_bytes();
                    bytes[i * fs..(i + 1) * fs].copy_from_slice(&v[..fs]);
                }
                let ts = c.to.scalar.size() as usize;
                for i in 0..c.to.lanes.max(1) as usize {
                    let mut v = [0u8; 8];
                    v[..ts].copy_from_slice(&bytes[i * ts..(i + 1) * ts]);
                    regs[c.d as usize + i] = norm(c.to.scalar, u64::from_le_bytes(v));
                }
            }
            Op::Builtin(x) => builtins::eval(&code.builtins[x as usize], regs),
            Op::BuiltinPtr(x) => {
                let c = &code.bptrs[x as usize];
                if let Err(e) = self.builtin_ptr(c, regs) {
                    soft!(e, c.site)
                }
            }
            Op::Switch(x) => {
                let s = &code.switches[x as usize];
                let v = regs[s.v as usize];
                p = s
                    .cases
                    .iter()
                    .find(|c| c.0 == v)
                    .map(|c| c.1)
                    .unwrap_or(s.default) as usize;
            }
            Op::Unreachable => trap!(FaultKind::Unreachable, NONE),
            Op::Copy(x) => {
                let c = &code.copies[x as usize];
                let (dv, sv, n) = (regs[c.d as usize], regs[c.s as usize], c.bytes as u64);
                let src = match self.resolve(sv, n, false) {
                    Ok(x) => Some(x),
                    Err(e) => {
                        soft!(e, c.load_site);
                        None
                    }
                };
                let dst = match self.resolve(dv, n, true) {
                    Ok(x) => Some(x),
                    Err(e) => {
                        soft!(e, c.store_site);
                        None
                    }
                };
                match (src, dst) {
                    // SAFETY: both ranges checked; `copy` allows overlap.
                    (Some(src), Some(dst)) => unsafe { std::ptr::copy(src, dst, n as usize) },
                    // An out-of-bounds source reads as zeros.
                    // SAFETY: the destination range was checked.
                    (None, Some(dst)) => unsafe { std::ptr::write_bytes(dst, 0, n as usize) },
                    _ => {}
                }
                if c.load_site != NONE {
                    self.count(c.load_site, sv, n, 1);
                }
                if c.store_site != NONE {
                    self.count(c.store_site, dv, n, 1);
                }
            }
            Op::Atomic(x) => {
                let c = &code.atomics[x as usize];
                match self.atomic(c, regs) {
                    Ok(v) => regs[c.d as usize] = v,
                    Err(e) => {
                        soft!(e, c.site);
                        regs[c.d as usize] = 0;
                    }
                }
            }
            Op::FifoRead(x) | Op::FifoWrite(x) => {
                let write = matches!(op, Op::FifoWrite(_));
                let c = &code.fifos[x as usize];
                if let Err(e) = self.fifo_op(c, write, regs, p as u32 - 1) {
                    trap!(e, c.site)
                }
            }
            Op::Barrier(_) | Op::WaitEvents => return Ok(Cold::Exit(Exit::Barrier)),
            Op::AsyncCopy(x) => {
                let c = &code.asyncs[x as usize];
                if self.item == 0 {
                    self.async_copy(c, regs, p as u32 - 1)?;
                }
                regs[c.event as usize] = 1;
            }
            Op::Printf(x) => {
                let c = &code.printfs[x as usize];
                regs[c.d as usize] = self.printf(c, regs);
            }
            Op::Image(x) => {
                let c = &code.images[x as usize];
                if let Err(e) = self.image_op(c, regs) {
                    if c.site == NONE {
                        trap!(e, NONE);
                    }
                    soft!(e, c.site);
                    if c.what != ImageOpKind::Write {
                        regs[c.d as usize..(c.d + c.lanes) as usize].fill(0);
                    }
                }
            }
            _ => {}
        }
        Ok(Cold::Next(p))
    }

    /// `read_image*`, `write_image*`, `get_image_*` (rules in `crate::image`): the image's
    /// header is read from the start of the argument's region, every pixel access is
    /// bounds-checked like a load or store, and a read or write counts once at its site with
    /// the bytes of the texels it moved.
    fn image_op(&mut self, c: &ImageX, regs: &mut [u64]) -> Result<(), FaultKind> {
        use crate::image::{self as im, Family, ImageHeader, Sampler, Texel, HEADER_BYTES};
        let base = regs[c.img as usize] & !OFFSET_MASK;
        let hp = self.resolve(base, HEADER_BYTES as u64, false)?;
        // SAFETY: resolve checked HEADER_BYTES bytes from hp.
        let hb = unsafe { std::slice::from_raw_parts(hp as *const u8, HEADER_BYTES) };
        let h =
            ImageHeader::decode(hb).ok_or_else(|| self.oob(base, HEADER_BYTES as u64, false))?;
        let es = h.elem_size();
        let family = match c.family {
            Scalar::F32 => Family::Float,
            Scalar::I32 => Family::Int,
            _ => Family::UInt,
        };
        match c.what {
            ImageOpKind::Query(q) => {
                use fpgacl_kernel_compiler::ir::ImageQuery as Q;
                let dims = h.dims();
                let v: [u64; 4] = match q {
                    Q::Width => [h.width, 0, 0, 0],
                    Q::Height => [h.height, 0, 0, 0],
                    Q::Depth => [h.depth, 0, 0, 0],
                    Q::ArraySize => [dims[h.coord_dims() - 1], 0, 0, 0],
                    Q::ChannelDataType => [h.dtype as u64, 0, 0, 0],
                    Q::ChannelOrder => [h.order as u64, 0, 0, 0],
                    Q::Dim => [h.width, h.height, h.depth, 0],
                };
                for k in 0..c.lanes as usize {
                    regs[c.d as usize + k] = norm(Scalar::I32, v[k]);
                }
                Ok(())
            }
            ImageOpKind::Read => {
                let mut coord = [0f32; 3];
                for (k, x) in coord
                    .iter_mut()
                    .enumerate()
                    .take((c.coord_lanes as usize).min(3))
                {
                    let v = regs[c.coord as usize + k];
                    *x = if c.coord_float {
                        f32_of(v)
                    } else {
                        v as i32 as f32
                    };
                }
                let sampler = if c.sampler == NONE {
                    Sampler::NO_SAMPLER
                } else {
                    Sampler(regs[c.sampler as usize] as u32)
                };
                let mut first = None;
                let mut fault = None;
                let (t, n) = im::sample(&h, sampler, family, coord, |x, y, z| {
                    let p = base | h.pixel_offset(x, y, z);
                    first.get_or_insert(p);
                    match self.resolve(p, es, false) {
                        // SAFETY: resolve checked `es` bytes from ptr.
                        Ok(ptr) => im::decode_pixel(h.order, h.dtype, family, unsafe {
                            std::slice::from_raw_parts(ptr as *const u8, es as usize)
                        }),
                        Err(e) => {
                            fault.get_or_insert(e);
                            im::border(h.order, family)
                        }
                    }
                });
                if let Some(e) = fault {
                    return Err(e);
                }
                let d = c.d as usize;
                match t {
                    Texel::F(v) => {
                        for k in 0..4 {
                            regs[d + k] = of_f32(v[k]);
                        }
                    }
                    Texel::I(v) => {
                        for k in 0..4 {
                            regs[d + k] = norm(c.family, v[k] as u64);
                        }
                    }
                }
                let at = first.unwrap_or(base | HEADER_BYTES as u64);
                self.count(c.site, at, es * n.max(1) as u64, es);
                Ok(())
            }
            ImageOpKind::Write => {
                let dims = h.dims();
                let mut at = [0u64; 3];
                let mut inside = true;
                for (k, a) in at.iter_mut().enumerate().take(c.coord_lanes as usize) {
                    let v = regs[c.coord as usize + k] as i32 as i64;
                    if k < 3 {
                        inside &= (0..dims[k] as i64).contains(&v);
                        *a = v.max(0) as u64;
                    }
                }
                let d = c.d as usize;
                let texel = if c.family == Scalar::F32 {
                    Texel::F([0, 1, 2, 3].map(|k| f32_of(regs[d + k])))
                } else {
                    Texel::I([0, 1, 2, 3].map(|k| regs[d + k] as u32))
                };
                let (x, y, z) = match h.coord_dims() {
                    1 => (at[0], 0, 0),
                    2 => (at[0], at[1], 0),
                    _ => (at[0], at[1], at[2]),
                };
                // A write outside the image has an undefined result (OpenCL C 1.2 6.12.14.3):
                // it is reported like an out-of-bounds store and skipped.
                let p = if inside {
                    base | h.pixel_offset(x, y, z)
                } else {
                    base | h.total_bytes()
                };
                self.count(c.site, p, es, es);
                let ptr = self.resolve(p, es, true)?;
                let bytes = im::encode_pixel(h.order, h.dtype, texel);
                // SAFETY: resolve checked `es` bytes from ptr; bytes.len() == es.
                unsafe {
                    std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr, bytes.len().min(es as usize))
                };
                Ok(())
            }
        }
    }

    fn builtin_ptr(&mut self, c: &BuiltinPtrX, regs: &mut [u64]) -> Result<(), FaultKind> {
        let n = c.ty.lanes.max(1) as usize;
        let mut res = [0u64; 16];
        let mut out = [0u64; 16];
        let k = c.ty.scalar;
        for i in 0..n {
            let a = regs[c.args[0] as usize + i];
            let b = if c.args[1] != NONE {
                regs[c.args[1] as usize + i]
            } else {
                0
            };
            let (r, o) = builtins::ptr_fn(c.f, k, a, b);
            res[i] = r;
            out[i] = o;
        }
        let ok = match c.f {
            BuiltinPtrFn::Frexp | BuiltinPtrFn::Remquo | BuiltinPtrFn::LgammaR => Scalar::I32,
            _ => k,
        };
        let es = ok.size() as u64;
        let addr = regs[c.out as usize];
        // The results first: an out-of-bounds output store that is reported and dropped still
        // leaves the function's return value.
        regs[c.d as usize..c.d as usize + n].copy_from_slice(&res[..n]);
        let ptr = self.resolve(addr, es * n as u64, true)?;
        for (i, &o) in out.iter().enumerate().take(n) {
            // SAFETY: range checked by resolve.
            unsafe { write_lane(ok, ptr.add(i * es as usize), o) };
        }
        if c.site != NONE {
            self.count(c.site, addr, es * n as u64, es);
        }
        Ok(())
    }

    fn atomic(&mut self, c: &AtomicX, regs: &[u64]) -> Result<u64, FaultKind> {
        let addr = regs[c.addr as usize];
        let size = c.k.size() as u64;
        let ptr = self.resolve(addr, size, true)?;
        if !(ptr as usize).is_multiple_of(size as usize) {
            return Err(FaultKind::MisalignedAtomic {
                region: region_of(addr >> REGION_SHIFT),
                offset: signed_offset(addr),
                size,
            });
        }
        let (a, b) = (regs[c.a as usize], regs[c.b as usize]);
        let signed = c.k.is_signed();
        // One read-modify-write on a 4- or 8-byte word: `$au`/`$ai` the unsigned/signed
        // atomic, `$u`/`$i`/`$f` the matching integer and float types.
        macro_rules! rmw {
            ($au:ty, $ai:ty, $u:ty, $i:ty, $f:ty) => {{
                // SAFETY: in bounds and aligned to the access size (checked above); device
                // memory is shared plain bytes.
                let at = unsafe { &*(ptr as *const $au) };
                let (av, bv) = (a as $u, b as $u);
                if c.k.is_float() && !matches!(c.op, AtomicOp::Xchg | AtomicOp::CmpXchg) {
                    let f = |x: $u| -> Option<$u> {
                        let (x, y) = (<$f>::from_bits(x), <$f>::from_bits(av));
                        Some(
                            match c.op {
                                AtomicOp::Add => x + y,
                                AtomicOp::Sub => x - y,
                                AtomicOp::Min => x.min(y),
                                AtomicOp::Max => x.max(y),
                                _ => y,
                            }
                            .to_bits(),
                        )
                    };
                    at.fetch_update(SeqCst, SeqCst, f).unwrap_or(0)
                } else {
                    // SAFETY: same memory seen as signed for min/max.
                    let ai = unsafe { &*(ptr as *const $ai) };
                    match c.op {
                        AtomicOp::Add => at.fetch_add(av, SeqCst),
                        AtomicOp::Sub => at.fetch_sub(av, SeqCst),
                        AtomicOp::Xchg => at.swap(av, SeqCst),
                        AtomicOp::Inc => at.fetch_add(1, SeqCst),
                        AtomicOp::Dec => at.fetch_sub(1, SeqCst),
                        AtomicOp::CmpXchg => match at.compare_exchange(bv, av, SeqCst, SeqCst) {
                            Ok(v) | Err(v) => v,
                        },
                        AtomicOp::Min if signed => ai.fetch_min(av as $i, SeqCst) as $u,
                        AtomicOp::Max if signed => ai.fetch_max(av as $i, SeqCst) as $u,
                        AtomicOp::Min => at.fetch_min(av, SeqCst),
                        AtomicOp::Max => at.fetch_max(av, SeqCst),
                        AtomicOp::And => at.fetch_and(av, SeqCst),
                        AtomicOp::Or => at.fetch_or(av, SeqCst),
                        AtomicOp::Xor => at.fetch_xor(av, SeqCst),
                    }
                }
            }};
        }
        let old = if size == 4 {
            rmw!(AtomicU32, AtomicI32, u32, i32, f32) as u64
        } else {
            rmw!(AtomicU64, AtomicI64, u64, i64, f64)
        };
        if c.site != NONE {
            self.count(c.site, addr, size, size);
        }
        Ok(norm(c.k, old))
    }

    /// `async_work_group_copy` / `async_work_group_strided_copy`, run once per work-group
    /// (by its first work-item): one bulk copy when both ranges are in bounds (a `memmove`
    /// for a contiguous copy, a strided loop over raw pointers otherwise); an out-of-bounds
    /// range goes element by element ([`Machine::async_copy_elems`]). Counters: the site fires
    /// once per element and requests `count x elem_bytes` bytes.
    fn async_copy(&mut self, c: &AsyncX, regs: &[u64], pc: u32) -> Result<(), Trap> {
        let count = regs[c.count as usize];
        let stride = if c.stride == NONE {
            1
        } else {
            regs[c.stride as usize]
        };
        let eb = c.elem_bytes as u64;
        let (dv, sv) = (regs[c.d as usize], regs[c.s as usize]);
        // Byte extent of the strided side (the global one): (count - 1) * stride + 1 elements.
        let span = |n: u64| -> Option<u64> {
            if n == 0 {
                return Some(0);
            }
            (n - 1).checked_mul(stride)?.checked_add(1)?.checked_mul(eb)
        };
        let (sbytes, dbytes) = if c.to_local {
            (span(count), count.checked_mul(eb))
        } else {
            (count.checked_mul(eb), span(count))
        };
        let bulk = match (sbytes, dbytes) {
            (Some(sb), Some(db)) if count > 0 && sb < 1 << 48 && db < 1 << 48 => {
                match (self.resolve(sv, sb, false), self.resolve(dv, db, true)) {
                    (Ok(src), Ok(dst)) => Some((src, dst)),
                    _ => None,
                }
            }
            _ => None,
        };
        match bulk {
            Some((src, dst)) if stride == 1 => {
                // SAFETY: both ranges checked by resolve; `copy` allows overlap.
                unsafe { std::ptr::copy(src, dst, (count * eb) as usize) };
            }
            Some((src, dst)) => {
                let (ss, ds) = if c.to_local {
                    (stride * eb, eb)
                } else {
                    (eb, stride * eb)
                };
                for i in 0..count as usize {
                    // SAFETY: element i lies inside the checked extents of both sides.
                    unsafe {
                        std::ptr::copy(
                            src.add(i * ss as usize),
                            dst.add(i * ds as usize),
                            eb as usize,
                        )
                    };
                }
            }
            None if count > 0 => self.async_copy_elems(c, count, stride, sv, dv, pc)?,
            None => {}
        }
        if c.site != NONE {
            let g = if c.to_local { sv } else { dv };
            self.counters.add_site(c.site as usize, field::FIRES, count);
            self.counters
                .add_site(c.site as usize, field::BYTES, count.wrapping_mul(eb));
            if let Some(l) = self.last.get_mut(c.site as usize) {
                *l = g;
            }
        }
        Ok(())
    }

    /// An async copy with a range out of bounds: element by element, each out-of-bounds
    /// element reported (a read gives zeros, a write is dropped) or a trap (`OobMode::Fault`).
    #[cold]
    #[inline(never)]
    fn async_copy_elems(
        &mut self,
        c: &AsyncX,
        count: u64,
        stride: u64,
        sv: u64,
        dv: u64,
        pc: u32,
    ) -> Result<(), Trap> {
        let eb = c.elem_bytes as u64;
        for i in 0..count {
            let (so, doff) = if c.to_local {
                (i.wrapping_mul(stride).wrapping_mul(eb), i.wrapping_mul(eb))
            } else {
                (i.wrapping_mul(eb), i.wrapping_mul(stride).wrapping_mul(eb))
            };
            let src = match self.resolve(ptr_add(sv, so), eb, false) {
                Ok(p) => Some(p),
                Err(e) => {
                    self.soft_oob(e, pc, c.site)?;
                    None
                }
            };
            let dst = match self.resolve(ptr_add(dv, doff), eb, true) {
                Ok(p) => p,
                Err(e) => {
                    self.soft_oob(e, pc, c.site)?;
                    continue;
                }
            };
            match src {
                // SAFETY: both ranges checked.
                Some(src) => unsafe { std::ptr::copy(src, dst, eb as usize) },
                // SAFETY: the destination range was checked.
                None => unsafe { std::ptr::write_bytes(dst, 0, eb as usize) },
            }
        }
        Ok(())
    }

    pub(super) fn fifo_op(
        &mut self,
        c: &FifoX,
        write: bool,
        regs: &mut [u64],
        pc: u32,
    ) -> Result<(), FaultKind> {
        if self.fifo_fast(c, write, regs) {
            return Ok(());
        }
        self.fifo_general(c, write, regs, pc)
    }

    /// The common channel operation in few instructions: a channel of a fixed endpoint, an
    /// element of at most 8 bytes, and [`Fifo::try_write_word`] / [`Fifo::try_read_word`]
    /// completing it without a wait. `false`: nothing was done (not even a fault: the general
    /// path reports it), run [`Machine::fifo_general`]. Clock, counters and status as there.
    #[inline(always)]
    pub(super) fn fifo_fast(&mut self, c: &FifoX, write: bool, regs: &mut [u64]) -> bool {
        let Ep::Channel { decl, index } = c.ep else {
            return false;
        };
        let n = c.bytes as usize;
        if index != NONE || n > 8 {
            return false;
        }
        let Some(env) = &self.fifo else {
            return false;
        };
        let Some(fifo) = env
            .chan_base
            .get(decl as usize)
            .and_then(|&b| env.channels.get(b as usize))
        else {
            return false;
        };
        let Ok(ptr) = self.resolve(regs[c.ptr as usize], n as u64, !write) else {
            return false;
        };
        // The clock is published by the operation when it publishes its counter.
        let now = if self.clock_plan.is_some() {
            self.clock
        } else {
            UNTIMED
        };
        let t = if write {
            // SAFETY: `n` <= 8 bytes at ptr checked by resolve.
            let v = unsafe {
                match n {
                    4 => u32::from_le((ptr as *const u32).read_unaligned()) as u64,
                    8 => u64::from_le((ptr as *const u64).read_unaligned()),
                    _ => {
                        let mut b = [0u8; 8];
                        std::ptr::copy_nonoverlapping(ptr as *const u8, b.as_mut_ptr(), n);
                        u64::from_le_bytes(b)
                    }
                }
            };
            match fifo.try_write_word(v, c.blocking, now, env.run) {
                Some(t) => t,
                None => return false,
            }
        } else {
            match fifo.try_read_word(c.blocking, now, env.run) {
                Some((v, t)) => {
                    // SAFETY: as above.
                    unsafe {
                        match n {
                            4 => (ptr as *mut u32).write_unaligned((v as u32).to_le()),
                            8 => (ptr as *mut u64).write_unaligned(v.to_le()),
                            _ => std::ptr::copy_nonoverlapping(v.to_le_bytes().as_ptr(), ptr, n),
                        }
                    };
                    t
                }
                None => return false,
            }
        };
        let add = |x: &std::sync::atomic::AtomicU64, v: u64| {
            x.store(x.load(Relaxed).wrapping_add(v), Relaxed)
        };
        let row = self.counters.site_row(c.site as usize);
        if now != UNTIMED && t > now {
            if let Some(r) = row {
                add(&r[field::STALL], t - now);
            }
            self.clock = t;
        }
        if let Some(r) = row {
            add(&r[field::FIRES], 1);
            add(&r[field::BYTES], n as u64);
        }
        if c.status != NONE {
            regs[c.status as usize] = 1;
        }
        true
    }

    /// [`Machine::fifo_op`] in general: endpoints by index or pipe argument, any element
    /// size, waits, non-blocking outcomes.
    #[inline(never)]
    pub(super) fn fifo_general(
        &mut self,
        c: &FifoX,
        write: bool,
        regs: &mut [u64],
        pc: u32,
    ) -> Result<(), FaultKind> {
        // The environment's slices outlive this borrow of `self`.
        let (channels, chan_base, pipes) = match &self.fifo {
            Some(e) => (e.channels, e.chan_base, e.pipes),
            None => return Err(FaultKind::BadPipe { arg: u64::MAX }),
        };
        let fifo: &Fifo = match c.ep {
            Ep::Channel { decl, index } if index == NONE => {
                &channels[chan_base[decl as usize] as usize]
            }
            Ep::Channel { decl, index } => {
                let d = &self.module.channels[decl as usize];
                let idx = regs[index as usize] as i64;
                let count = d.count();
                if idx < 0 || idx >= count as i64 {
                    return Err(FaultKind::ChannelIndex {
                        channel: d.name.clone(),
                        index: idx,
                        count,
                    });
                }
                &channels[chan_base[decl as usize] as usize + idx as usize]
            }
            Ep::Pipe { arg } => {
                let a = regs[arg as usize];
                match pipes.get(a as usize) {
                    Some(Some(f)) => f,
                    _ => return Err(FaultKind::BadPipe { arg: a }),
                }
            }
        };
        let n = c.bytes as u64;
        let addr = regs[c.ptr as usize];
        let ptr = self.resolve(addr, n, !write)?;
        self.fifo_move(c, write, fifo, ptr, pc, regs)
    }

    /// The rest of [`Machine::fifo_op`]: the element moves between the FIFO and the `c.bytes`
    /// bytes at `ptr` (checked by `resolve`), without a staging copy.
    #[inline(always)]
    fn fifo_move(
        &mut self,
        c: &FifoX,
        write: bool,
        fifo: &Fifo,
        ptr: *mut u8,
        pc: u32,
        regs: &mut [u64],
    ) -> Result<(), FaultKind> {
        let n = c.bytes as u64;
        let env = match &self.fifo {
            Some(e) => e,
            None => return Err(FaultKind::BadPipe { arg: u64::MAX }),
        };
        // The source position only when the operation blocks.
        let (module, code) = (self.module, self.code);
        let pos = move || Some(pos_of(module, code.locs[pc as usize]));
        let w = Waiter {
            run: env.run,
            activity: env.activity,
            shutdown: env.shutdown,
            pos: &pos,
        };
        let now = if self.clock_plan.is_some() {
            self.clock
        } else {
            UNTIMED
        };
        let (outcome, t) = if write {
            // SAFETY: `n` bytes at ptr checked by resolve (this work-item's memory: no other
            // reference to it lives during the call).
            let src = unsafe { std::slice::from_raw_parts(ptr as *const u8, n as usize) };
            fifo.write_at(src, c.blocking, &w, now)
        } else {
            // SAFETY: as above; `read_at` stores into `dst` only when the element moves.
            let dst = unsafe { std::slice::from_raw_parts_mut(ptr, n as usize) };
            fifo.read_at(dst, c.blocking, &w, now)
        };
        let s = c.site as usize;
        if now != UNTIMED && t > now {
            self.counters.add_site(s, field::STALL, t - now);
            self.clock = t;
        }
        let ok = match outcome {
            FifoOutcome::Done { waited } => {
                self.counters.add_site(s, field::FIRES, 1);
                self.counters.add_site(s, field::BYTES, n);
                if waited {
                    self.counters.add_site(s, field::BLOCKED, 1);
                }
                true
            }
            FifoOutcome::NotReady => {
                self.counters.add_site(s, field::FAILED, 1);
                false
            }
            FifoOutcome::Aborted => {
                return Err(FaultKind::Deadlock {
                    fifo: fifo.name().to_string(),
                    write,
                })
            }
            FifoOutcome::Shutdown => return Err(FaultKind::Shutdown),
        };
        if c.status != NONE {
            regs[c.status as usize] = ok as u64;
        }
        Ok(())
    }

    /// Hands the completed lines of this group to the launch's ordered stream (which may wait
    /// for earlier groups when this one holds too much, see `PrintfStream::emit`).
    pub fn emit_printf(&mut self) {
        if let Some(st) = self.printf_stream {
            st.emit(self.group, &self.printf_ready);
        }
        self.printf_ready.clear();
    }

    /// Moves the unfinished line of work-item `lin` to the completed output (its item ended).
    pub fn end_printf_item(&mut self, lin: usize) {
        if let Some(b) = self.printf.get_mut(lin) {
            self.printf_ready.append(b);
        }
    }

    fn printf(&mut self, c: &PrintfX, regs: &[u64]) -> u64 {
        let fmt = &self.module.strings[c.fmt as usize];
        let args: Vec<printf::Arg> = c
            .args
            .iter()
            .map(|(r, t)| printf::Arg {
                ty: *t,
                lanes: &regs[*r as usize..*r as usize + t.lanes.max(1) as usize],
            })
            .collect();
        let read_str = |p: u64| -> Option<Vec<u8>> {
            let mut out = Vec::new();
            let mut q = p;
            loop {
                let ptr = self.resolve(q, 1, false).ok()?;
                // SAFETY: one byte checked.
                let b = unsafe { *ptr };
                if b == 0 || out.len() > 1 << 20 {
                    return Some(out);
                }
                out.push(b);
                q = ptr_add(q, 1);
            }
        };
        match printf::format(fmt.as_bytes(), &args, read_str) {
            Ok(s) => {
                if let Some(b) = self.printf.get_mut(self.item) {
                    // Bounded: an unfinished line keeps its first PRINTF_ITEM_LIMIT bytes.
                    if b.len() + s.len() <= PRINTF_ITEM_LIMIT {
                        b.extend_from_slice(&s);
                    } else {
                        b.extend_from_slice(PRINTF_CUT);
                    }
                    // Completed lines go out (in batches) while the work-item goes on.
                    if let Some(nl) = b.iter().rposition(|&c| c == b'\n') {
                        self.printf_ready.extend_from_slice(&b[..=nl]);
                        b.drain(..=nl);
                    }
                    if self.printf_ready.len() >= PRINTF_BATCH {
                        self.emit_printf();
                    }
                }
                0
            }
            Err(e) => {
                report_printf_error(&self.module.strings[c.fmt as usize], e);
                u64::MAX
            }
        }
    }
}

/// Says once per format string (per process) on stderr that a `printf` call printed nothing
/// and why (the build log warned of what can be seen at build time; an unreadable `%s`
/// string is seen only now).
fn report_printf_error(fmt: &str, e: printf::FormatError) {
    static SAID: parking_lot::Mutex<Vec<String>> = parking_lot::const_mutex(Vec::new());
    let mut said = SAID.lock();
    if said.len() < 1024 && !said.iter().any(|f| f == fmt) {
        said.push(fmt.to_string());
        // `{:?}` escapes control characters of the format string.
        eprintln!(
            "fpgacl: printf({fmt:?}) printed nothing: {} (said once per format string)",
            e.0
        );
    }
}
