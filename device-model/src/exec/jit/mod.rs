//! The compiling backend, the default (`FPGACL_BACKEND=jit` or unset; `interp` selects the
//! reference interpreter): translates a decoded kernel ([`Code`]) to native code with
//! Cranelift as its program loads (a thread of the `ProgramInstance`; a launch that comes
//! first waits for it or compiles it itself: [`prepare`], once per kernel and program; kernels of more
//! than [`FAST_COMPILE_OPS`] ops with Cranelift's fast tier), and runs its work-items through
//! it behind [`Machine::run`] ([`run`], one item per call) or, from the worker's group loop,
//! a whole group per call ([`run_items`]: the compiled code loops over the group's items and
//! does the worker's per-item set-up itself). The inline counting code is specialised for the
//! program's coalescing table and board ([`Spec`]).
//!
//! What stays identical to the interpreter (the reference):
//! - every register slot is a Cranelift variable (64-bit, the slot encoding of `values`), so the
//!   arithmetic is the interpreter's bit for bit (same normalisation, same IEEE operations, no
//!   NaN canonicalisation, no fused multiply-add);
//! - every memory access checks its region and bounds inline exactly like
//!   `Machine::resolve`; a refused access calls back into `Machine::soft_oob`, so the report
//!   (`OobMode::Report`) or the fault (file, line, argument, offset: the op index is passed) is
//!   the interpreter's;
//! - every access of a counted site runs `Machine::count`'s code inline on the machine's own
//!   counters, last addresses, issue slots and burst trackers (`helpers::CountEnv`), calling
//!   out only to add burst rows or for sites and boards the inline path does not index (then
//!   `Machine::count` itself); a site with a burst tracker of its own, in a kernel without
//!   channels, pipes or autorun, is counted in runs instead (`exec::batch`: same counters);
//!   loop header visits and entries bump the same counters in place and add
//!   the same clock ticks (`ClockPlan::head`/`enter`, through a call when rule C2's floor
//!   makes them stateful); the stop/timeout poll runs every `POLL_INTERVAL` header visits;
//! - rare ops (`Builtin`, `BuiltinPtr`, `Bitcast`, `Copy`, `Atomic`, `Printf`,
//!   `AsyncCopy`: `async_work_group_copy`, run by the group's item 0) run the interpreter's
//!   own code (`Machine::cold`) on the register file, with the slots they read and write
//!   spilled and reloaded around the call; channel and pipe operations run `Machine::fifo_op`
//!   (`h_fifo`); lane builtins (but `sqrt`, `rsqrt`, `mad`, `rotate` and integer `min`/`max`,
//!   inline), conversions, integer division and the remaining float operations call the
//!   interpreter's lane functions;
//! - barriers (`barrier`, `wait_group_events`) with a continuation scheme: the work-item sets
//!   `Frame::resume` to the op after the barrier, stores every slot some op writes to the
//!   register file (the others hold their template value there already: arguments,
//!   constants, zeros) and leaves (status `translate::BARRIER`, `Exit::Barrier` with that
//!   `pc`, as the interpreter); the group scheduler (`group::Worker::run_sync`) switches items
//!   as for the interpreter and calls [`run_in`] (one [`GroupFrame`] per group; or [`run`],
//!   through `Machine::run`) again with that `pc`, where the compiled code reloads those slots
//!   and jumps to the op after the barrier. Kernels with barriers run one call per item and
//!   barrier phase, never through [`run_items`].
//!
//! Exits of the compiled code: one exit block, which stores the clock and the poll countdown
//! to the frame; it is reached by a returning work-item (`Ret`, status 0; with
//! [`run_items`], after the group's last item), by a barrier (status `translate::BARRIER`)
//! and by every trap (status 1: a refused access in `OobMode::Fault`, a stop poll, integer
//! division, `Unreachable`, a cold op or a channel operation). [`run`], [`run_in`] and
//! [`run_items`] take the clock and poll back from the frame after the call in every case,
//! and count the pending runs of accesses (`exec::batch`).
//!
//! Not compiled (the whole kernel runs on the interpreter, one `info` log line; likewise when
//! code generation fails or panics, never a crash): kernels with image reads or writes. See
//! [`translate::unsupported`].

mod counted;
mod helpers;
mod translate;

use super::code::Code;
use super::interp::{Exit, Machine, Trap};
use crate::fault::FaultKind;
use fpgacl_kernel_compiler::ir::{Function, Module};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

pub use helpers::Frame;

/// Kernels with more decoded ops than this compile with Cranelift's fast tier (no mid-end
/// optimisation, single-pass register allocation), the others with the optimising tier. The
/// optimising tier costs about 55 us of CPU per op on the development machine (a 1,592-op
/// kernel: 90 ms), the fast tier about a quarter of that: this keeps a compilation under the
/// 50 ms budget of issue 12. Both tiers give the same results, counters and emulated times.
pub const FAST_COMPILE_OPS: usize = 512;

/// Kernels with at most this many decoded ops compile as their program loads (about 40 ms
/// of fast-tier compilation each), in declaration order while their ops add up to at most
/// [`LOAD_COMPILE_BUDGET`]; the load waits for them. The others (a 20,000-statement kernel,
/// the last kernels of a program with very many) compile at their first launch, so that
/// `clBuildProgram` returns in bounded time whatever the source.
pub const LOAD_COMPILE_OPS: usize = 4096;
/// The decoded ops a program's load compiles at most (see [`LOAD_COMPILE_OPS`]).
pub const LOAD_COMPILE_BUDGET: usize = 4 * LOAD_COMPILE_OPS;

static FORCE_FAST_TIER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// From now on, every kernel this process compiles uses the fast tier (tests check that the
/// fast tier agrees with the interpreter on small kernels too).
#[doc(hidden)]
pub fn force_fast_tier() {
    FORCE_FAST_TIER.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether `code` compiles with the fast tier ([`FAST_COMPILE_OPS`]).
pub fn fast_tier(code: &Code) -> bool {
    code.ops.len() > FAST_COMPILE_OPS || FORCE_FAST_TIER.load(std::sync::atomic::Ordering::Relaxed)
}

/// What a kernel's inline counting code is specialised for, fixed per program instance and
/// kernel: the burst tracker and accesses per wide access of every site (rule M0',
/// `Plan::coalesce`), the board's memory word (`log2`, `u32::MAX` when not a power of two:
/// every access then counts through `Machine::count`) and its longest burst in words. A run
/// whose machine disagrees for a site the code counts inline runs on the interpreter instead
/// ([`run`] returns `None`), so the counters never depend on the specialisation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    pub coalesce: Vec<(u32, u32)>,
    pub word_shift: u32,
    pub max_burst: u64,
    /// Compiled for groups of one work-item (`Machine::issued` empty: every access takes
    /// issue slot 0, so no issue counter is read or written); otherwise for groups of several,
    /// whose issue counters the code uses without testing for them. [`frame_of`] refuses code
    /// compiled for the other case.
    pub single: bool,
}

impl Spec {
    /// The specialisation for a board's memory word and burst length (`Machine::word_shift`
    /// and `max_burst_words` are derived the same way).
    pub fn new(coalesce: &[(u32, u32)], word_bytes: u64, max_burst_words: u64) -> Spec {
        Spec {
            coalesce: coalesce.to_vec(),
            word_shift: if word_bytes.is_power_of_two() {
                word_bytes.trailing_zeros()
            } else {
                u32::MAX
            },
            max_burst: max_burst_words,
            single: false,
        }
    }

    /// The default board's, with one tracker per site (what [`compile`] uses).
    pub fn plain(m: &Module) -> Spec {
        let b = crate::Board::default_board();
        let t: Vec<(u32, u32)> = (0..m.sites.len() as u32).map(|s| (s, 1)).collect();
        Spec::new(&t, b.mem_word_bytes(), b.max_burst_words())
    }

    /// Tracker site and accesses per wide access of `site` (`Machine::count`'s rule).
    pub fn tracker(&self, site: u32) -> (u32, u32) {
        match self.coalesce.get(site as usize) {
            Some(&(t, n)) => (t, n.max(1)),
            None => (site, 1),
        }
    }
}

/// The compiled entry point: `(frame, register file) -> status` (0 = returned, 1 = trap in
/// `Frame::trap`).
type Entry = unsafe extern "C" fn(*mut Frame, *mut u64) -> u32;

/// A kernel compiled to native code. Immutable after compilation; shared by every worker.
pub struct JitKernel {
    module: Option<cranelift_jit::JITModule>,
    entry: Entry,
    num_slots: usize,
    num_loops: usize,
    /// Zero clock costs for untimed runs (one per loop).
    zeros: Vec<u64>,
    /// Host time the translation and code generation took.
    pub compile_time: Duration,
    /// Native code bytes.
    pub code_bytes: usize,
    /// Compiled with the fast tier ([`FAST_COMPILE_OPS`]).
    pub fast_tier: bool,
    /// What the counting code was specialised for, and the (site, tracker, accesses per wide
    /// access) of every site it counts inline: [`run`] checks them against the machine.
    spec: Spec,
    sites: Vec<(u32, u32, u32)>,
    /// Sites the machine's counting state must hold (`CountEnv::nsites`): one more than the
    /// largest site or tracker counted inline.
    need_sites: u64,
    /// The work-item loop (`run_items`) zeroes the issue counters of the access sites'
    /// trackers: one more than the largest (0: none).
    zero_need: usize,
    /// The work-item loop calls `helpers::h_reset` per item (private memory or cold ops);
    /// `cold_counts`: cold ops that may count accesses (all issue counters are reset).
    resets: bool,
    cold_counts: bool,
    /// The ops a work-item stopped at a barrier resumes at (`translate::resume_points`).
    resumes: Vec<u32>,
}

// SAFETY: the finalized code and data of the JIT module are never written after compilation;
// the module itself is only touched again when dropped.
unsafe impl Send for JitKernel {}
unsafe impl Sync for JitKernel {}

impl Drop for JitKernel {
    fn drop(&mut self) {
        if let Some(m) = self.module.take() {
            // SAFETY: the kernel owning the code is being dropped: no work-item runs it (runs
            // borrow the `Code` that holds the `Arc` to this kernel).
            unsafe { m.free_memory() };
        }
    }
}

impl std::fmt::Debug for JitKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JitKernel")
            .field("num_slots", &self.num_slots)
            .field("compile_time", &self.compile_time)
            .field("code_bytes", &self.code_bytes)
            .finish()
    }
}

/// Which backend runs kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Interp,
    Jit,
}

/// `FPGACL_BACKEND` (`jit`, the default, or `interp`, the reference interpreter), read once
/// per process.
pub fn backend() -> Backend {
    static B: OnceLock<Backend> = OnceLock::new();
    *B.get_or_init(|| parse_backend(std::env::var("FPGACL_BACKEND").ok().as_deref()))
}

/// The backend a value of `FPGACL_BACKEND` selects (`None`: unset).
pub fn parse_backend(v: Option<&str>) -> Backend {
    match v.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        None | Some("" | "jit") => Backend::Jit,
        Some("interp") => Backend::Interp,
        Some(other) => {
            log::warn!("FPGACL_BACKEND={other}: not a backend (jit, interp); using jit");
            Backend::Jit
        }
    }
}

/// Whether kernels are compiled when programs are loaded.
pub fn enabled() -> bool {
    backend() == Backend::Jit
}

/// A kernel's native code: empty until [`prepare`] runs (as the program loads, or at the
/// kernel's first launch for kernels too large to compile at load), then the compiled kernel
/// or `None` (the kernel runs on the interpreter). Two variants ([`Spec::single`]): for
/// groups of several work-items and for groups of one; a launch prepares the one its groups
/// need, the program's load the one a kernel's attributes call for.
#[derive(Clone, Debug, Default)]
pub struct Slot(
    OnceLock<Option<Arc<JitKernel>>>,
    OnceLock<Option<Arc<JitKernel>>>,
);

impl Slot {
    /// The compiled kernel for groups of one work-item (`single`, a machine without issue
    /// counters) or of several, if [`prepare`] compiled that variant.
    #[inline]
    pub fn get(&self, single: bool) -> Option<&JitKernel> {
        let slot = if single { &self.1 } else { &self.0 };
        slot.get().and_then(|k| k.as_deref())
    }
}

/// Compiles `code` (kernel `f` of `m`) unless that was done already, and returns the compiled
/// kernel; `None` when it cannot be compiled: it keeps running on the interpreter, and one
/// `info` log line says why (once per kernel and program). Concurrent first launches of the
/// same kernel compile it once (the others wait for the result).
///
/// `spec` gives the counting specialisation (called once, when the kernel compiles).
/// `single`: the variant for groups of one work-item ([`Spec::single`]).
pub fn prepare<'c>(
    code: &'c Code,
    m: &Module,
    f: &Function,
    single: bool,
    spec: impl FnOnce() -> Spec,
) -> Option<&'c JitKernel> {
    let (slot, other) = if single {
        (&code.jit.1, &code.jit.0)
    } else {
        (&code.jit.0, &code.jit.1)
    };
    slot.get_or_init(|| {
        // The other variant did not compile: its note stands for the kernel (one per kernel).
        if let Some(None) = other.get() {
            return None;
        }
        let name = &f.name;
        let spec = Spec { single, ..spec() };
        match compile_for(code, m, f, spec) {
            Ok(k) => {
                log::debug!(
                    "kernel {name}: compiled to {} bytes of native code in {:.2} ms ({} tier)",
                    k.code_bytes,
                    k.compile_time.as_secs_f64() * 1e3,
                    if k.fast_tier { "fast" } else { "optimising" }
                );
                Some(Arc::new(k))
            }
            Err(why) => {
                log::info!("kernel {name}: not compiled ({why}); it runs on the interpreter");
                None
            }
        }
    })
    .as_deref()
}

/// Compiles kernel `f`, decoded as `code`, for the default board ([`Spec::plain`]); `Err`
/// names what the compiler does not support.
pub fn compile(code: &Code, m: &Module, f: &Function) -> Result<JitKernel, String> {
    compile_for(code, m, f, Spec::plain(m))
}

/// Compiles kernel `f`, decoded as `code`, with counting specialised for `spec`.
pub fn compile_for(code: &Code, m: &Module, f: &Function, spec: Spec) -> Result<JitKernel, String> {
    if let Some(why) = translate::unsupported(code) {
        return Err(why);
    }
    let t0 = std::time::Instant::now();
    let fast_tier = fast_tier(code);
    // A bug in the translation must not take the process down: the kernel falls back.
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // Unit tests stand in for a translation bug with a kernel of this name.
        #[cfg(test)]
        if f.name == "jit_test_panics" {
            panic!("a translation bug (test)");
        }
        translate::build(code, m, f, fast_tier, &spec)
    }));
    let (module, entry, code_bytes, inline_sites, resets) = match r {
        Ok(Ok(x)) => x,
        Ok(Err(e)) => return Err(format!("code generation failed: {e}")),
        Err(_) => return Err("code generation panicked".into()),
    };
    let sites = translate::access_sites(code)
        .into_iter()
        .map(|s| {
            let (t, n) = spec.tracker(s);
            (s, t, n)
        })
        .collect::<Vec<_>>();
    Ok(JitKernel {
        module: Some(module),
        entry,
        num_slots: code.num_slots as usize,
        num_loops: code.num_loops as usize,
        zeros: vec![0; code.num_loops as usize],
        compile_time: t0.elapsed(),
        code_bytes,
        fast_tier,
        need_sites: inline_sites
            .iter()
            .map(|&(s, t, _)| s.max(t) as u64 + 1)
            .max()
            .unwrap_or(0),
        zero_need: sites
            .iter()
            .map(|&(_, t, _)| t as usize + 1)
            .max()
            .unwrap_or(0),
        resets: resets.0,
        cold_counts: resets.1,
        resumes: translate::resume_points(code),
        spec,
        sites,
    })
}

/// Whether the compiled code can run a work-item from op `pc`: its start (0) or the op after
/// one of its barriers.
#[inline]
pub fn resumes_at(j: &JitKernel, pc: u32) -> bool {
    pc == 0 || j.resumes.binary_search(&pc).is_ok()
}

/// Whether the kernel has barriers (`barrier`, `wait_group_events`): its work-items run one
/// call per item and barrier phase ([`run`]), never through [`run_items`].
pub fn has_barriers(j: &JitKernel) -> bool {
    !j.resumes.is_empty()
}

/// Runs the current work-item of `m` through the compiled kernel from op `*pc` (0: its start;
/// else the op after a barrier where it stopped, [`resumes_at`]) until it returns, reaches a
/// barrier (`Exit::Barrier`, `*pc` after it, the register file `regs` holding every slot's
/// value, as the interpreter leaves it) or traps; `None` when this run cannot use the compiled code
/// (then the interpreter runs the item: the register file holds its whole state at a
/// barrier, so the two may take turns). Inlined into `Machine::run`, so that the large
/// result is not returned through a call once per work-item.
///
/// The compiled code leaves through one exit block (it stores the clock and the poll
/// countdown to the frame) with status 0 (returned: `Ret`), `translate::BARRIER` (at a
/// barrier or `wait_group_events`) or 1 (a trap in `Frame::trap`: a refused access in
/// `OobMode::Fault`, a stop poll, integer division, `Unreachable`, a cold op or a channel
/// operation); the machine's clock and poll are taken back here for all three.
#[inline]
pub fn run(
    j: &JitKernel,
    m: &mut Machine<'_>,
    regs: &mut [u64],
    pc: &mut u32,
) -> Option<Result<Exit, Trap>> {
    if !resumes_at(j, *pc) {
        return None;
    }
    let mut f = frame(j, m, regs)?;
    f.resume = *pc as u64;
    // SAFETY: the code was compiled from `m.code` (the `Code` holding `j`); the frame points
    // at live state of `m` and at `regs`, which nothing else touches during the call.
    let st = unsafe { (j.entry)(&mut f, regs.as_mut_ptr()) };
    Some(item_exit(m, &mut f, st, pc))
}

/// Runs the work-items `0..items` (local linear ids) of the machine's current group through
/// the compiled kernel in one call: its work-item loop does what the worker's loop does per
/// item (ids, issue counters, private memory from `frame_template` into `frame`, `item_cost`
/// clock ticks). `regs` holds the launch's register template. `None` when the kernel or the
/// run does not allow it (printf, private memory without the per-item reset, issue counters
/// or counting state the code cannot index): nothing ran, the caller runs the items one by
/// one. On a trap, the machine's ids and `item` are the trapping item's.
pub fn run_items(
    j: &JitKernel,
    m: &mut Machine<'_>,
    regs: &mut [u64],
    items: usize,
    item_cost: u64,
    frame_mem: &mut [u64],
    frame_template: &[u64],
) -> Option<Result<(), Trap>> {
    if items == 0
        || !m.code.printfs.is_empty()
        || frame_mem.len() < frame_template.len()
        || has_barriers(j)
    {
        return None;
    }
    if !frame_template.is_empty() && !j.resets {
        return None;
    }
    let nissued = if m.issued.is_empty() {
        0
    } else {
        // The worker's loop zeroes every issue counter before each item.
        m.issued.fill(0);
        if m.issued.len().saturating_sub(m.issued_base) < j.zero_need {
            return None;
        }
        m.issued.len() - m.issued_base
    };
    let mut f = frame(j, m, regs)?;
    let ls = m.ids.lsize;
    f.items = items as u64;
    f.lsize = ls;
    let (grp, off) = (m.ids.grp, m.ids.offset);
    f.gbase = std::array::from_fn(|d| grp[d].wrapping_mul(ls[d]).wrapping_add(off[d]));
    f.item_cost = item_cost;
    if j.resets {
        f.reset = helpers::ItemReset {
            frame: frame_mem.as_mut_ptr(),
            frame_template: frame_template.as_ptr(),
            fw: frame_template.len(),
            issued: if nissued > 0 {
                f.cnt.issued
            } else {
                std::ptr::null_mut()
            },
            nissued: if j.cold_counts { nissued } else { 0 },
        };
    }
    // SAFETY: as in `run`; `frame_mem` and `frame_template` outlive the call.
    let st = unsafe { (j.entry)(&mut f, regs.as_mut_ptr()) };
    m.clock = f.clock;
    m.poll = f.poll as u32;
    m.flush_batches();
    m.item = f.item as usize;
    if st == 0 {
        return Some(Ok(()));
    }
    Some(Err(trap_of(&mut f)))
}

fn trap_of(f: &mut Frame) -> Trap {
    f.trap.take().unwrap_or(Trap {
        pc: 0,
        kind: FaultKind::Unreachable,
        site: u32::MAX,
    })
}

/// The frame of the compiled calls that run the work-items of one group of a kernel with
/// barriers ([`run_in`]): built once per group by [`group_frame`], then only what differs
/// between calls (the item's register file and issue counters, the burst table, the clock,
/// the resume point) is set per call.
pub struct GroupFrame(Frame);

/// The frame for the work-items of the machine's current group ([`run_in`]); `None` when the
/// machine does not fit the compiled code (the items run through `Machine::run`).
pub fn group_frame(j: &JitKernel, m: &mut Machine<'_>) -> Option<GroupFrame> {
    frame_of(j, m, std::ptr::null_mut(), 0).map(GroupFrame)
}

/// [`run`] with a group's frame: runs the machine's current work-item (ids, private memory
/// and `issued_base` set by the caller) from op `*pc` until it returns, reaches a barrier or
/// traps; `None` when the compiled code cannot run it (then `Machine::run` does).
#[inline]
pub fn run_in(
    j: &JitKernel,
    g: &mut GroupFrame,
    m: &mut Machine<'_>,
    regs: &mut [u64],
    pc: &mut u32,
) -> Option<Result<Exit, Trap>> {
    if regs.len() < j.num_slots || !resumes_at(j, *pc) || j.spec.single != m.issued.is_empty() {
        return None;
    }
    let f = &mut g.0;
    f.cnt.issued = if m.issued.is_empty() {
        std::ptr::null_mut()
    } else {
        match m.issued.get_mut(m.issued_base..) {
            Some(s) if s.len() as u64 >= j.need_sites => s.as_mut_ptr(),
            _ => return None,
        }
    };
    f.cnt.refresh(m);
    f.regions = m.regions.as_ptr();
    f.nregions = m.regions.len() as u64;
    f.clock = m.clock;
    f.poll = m.poll as u64;
    f.regs = regs.as_mut_ptr();
    f.nregs = regs.len();
    f.resume = *pc as u64;
    // SAFETY: as in `run`; the frame was built for `m` (`group_frame`) and its per-call
    // fields are `m`'s and `regs`' now.
    let st = unsafe { (j.entry)(f, regs.as_mut_ptr()) };
    Some(item_exit(m, f, st, pc))
}

/// After a compiled call for one work-item ([`run`], [`run_in`]) with status `st`: the
/// machine takes the clock and poll back, its pending runs of accesses are counted (except at
/// a barrier: the group's items go on in compiled code, and `run_sync` counts them once per
/// round of the group's items), and the status becomes the item's exit (`*pc`: past the
/// end, after the barrier, or the trap's op).
#[inline]
fn item_exit(m: &mut Machine<'_>, f: &mut Frame, st: u32, pc: &mut u32) -> Result<Exit, Trap> {
    m.clock = f.clock;
    m.poll = f.poll as u32;
    if st != translate::BARRIER {
        m.flush_batches();
    }
    if st == 0 {
        *pc = m.code.ops.len() as u32;
        return Ok(Exit::Return);
    }
    if st == translate::BARRIER {
        *pc = f.resume as u32;
        return Ok(Exit::Barrier);
    }
    let t = trap_of(f);
    *pc = t.pc;
    Err(t)
}

/// The frame of a call of `j` on `m`'s current state (one work-item: `items` 0); `None` when
/// the machine does not fit the compiled code.
#[inline]
fn frame(j: &JitKernel, m: &mut Machine<'_>, regs: &mut [u64]) -> Option<Frame> {
    if regs.len() < j.num_slots {
        return None;
    }
    frame_of(j, m, regs.as_mut_ptr(), regs.len())
}

#[inline]
fn frame_of(j: &JitKernel, m: &mut Machine<'_>, regs: *mut u64, nregs: usize) -> Option<Frame> {
    if j.spec.single != m.issued.is_empty() {
        return None;
    }
    let (loops, nloops) = m.counters.loop_slots();
    if nloops != j.num_loops || loops.len() < 2 * nloops {
        return None;
    }
    let visits = loops.as_ptr() as *mut u64;
    // SAFETY: `loops` holds 2 * nloops counters.
    let entries = unsafe { visits.add(nloops) };
    let (heads, enters, clock_helper) = match m.clock_plan {
        None => (j.zeros.as_ptr(), j.zeros.as_ptr(), 0),
        Some(cp) => {
            let stateful = cp.loop_floor.iter().any(|&x| x > 0)
                || cp.loop_head.len() < nloops
                || cp.loop_enter.len() < nloops;
            (
                cp.loop_head.as_ptr(),
                cp.loop_enter.as_ptr() as *const u64,
                stateful as u64,
            )
        }
    };
    // The counting specialisation must be this machine's for every site the code accesses.
    if m.word_shift != j.spec.word_shift || m.max_burst_words != j.spec.max_burst {
        return None;
    }
    for &(s, t, n) in &j.sites {
        let (mt, mn) = match m.coalesce.get(s as usize) {
            Some(&(t, n)) => (t, n.max(1)),
            None => (s, 1),
        };
        if (mt, mn) != (t, n) {
            return None;
        }
    }
    let cnt = helpers::CountEnv::of(m);
    if cnt.nsites < j.need_sites || (!j.spec.single && cnt.issued.is_null()) {
        return None;
    }
    Some(Frame {
        regions: m.regions.as_ptr(),
        nregions: m.regions.len() as u64,
        ids: std::ptr::addr_of_mut!(m.ids),
        visits,
        entries,
        heads,
        enters,
        clock_helper,
        clock: m.clock,
        poll: m.poll as u64,
        m: (m as *mut Machine<'_>).cast(),
        regs,
        nregs,
        tmp: 0,
        trap: None,
        cnt,
        items: 0,
        lsize: [1; 3],
        gbase: [0; 3],
        item_cost: 0,
        item: 0,
        reset: helpers::ItemReset::none(),
        resume: 0,
    })
}

/// A dense kernel of about 300 source lines (48 blocks of arithmetic, branches and a loop
/// each): the compile-time yardstick of the unit test and of `examples/jit_compile_time.rs`.
#[doc(hidden)]
pub fn sample_300_line_kernel() -> String {
    sample_kernel(48)
}

/// [`sample_300_line_kernel`] with `blocks` blocks of 6 lines (48: 294 lines).
#[doc(hidden)]
pub fn sample_kernel(blocks: usize) -> String {
    let mut s = String::from(
        "__kernel void big(__global const float *a, __global float *b, __global int *c, int n) {\n\
         int i = get_global_id(0);\n\
         float x = a[i];\n\
         int k = c[i];\n",
    );
    for j in 0..blocks {
        s += &format!(
            "    x = x * {j}.5f + a[(i + {j}) % n];\n\
             \x20   if (x > {j}.0f) {{ k += (int)x ^ {j}; }} else {{ k -= {j} * k; }}\n\
             \x20   for (int t{j} = 0; t{j} < (k & 3); t{j}++) {{ x += (float)t{j}; }}\n\
             \x20   c[(i + {j}) % n] = k;\n\
             \x20   b[(i * {j}) % n] = x;\n\
             \x20   k = k / ({j} + 1) + (k >> 2);\n"
        );
    }
    s += "    b[i] = x + (float)k;\n}\n";
    s
}

#[cfg(test)]
mod tests;
