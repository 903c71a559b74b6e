//! The compiling backend (`FPGACL_BACKEND=jit`): translates a decoded kernel ([`Code`]) to
//! native code with Cranelift when the program is loaded, and runs its work-items through it
//! behind [`Machine::run`].
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
//!   `Machine::count` itself); loop header visits and entries bump the same counters in place and add
//!   the same clock ticks (`ClockPlan::head`/`enter`, through a call when rule C2's floor
//!   makes them stateful); the stop/timeout poll runs every `POLL_INTERVAL` header visits;
//! - rare ops (`Builtin`, `BuiltinPtr`, `Bitcast`, `Copy`, `Atomic`, `Printf`) run the
//!   interpreter's own code (`Machine::cold`) on the register file, with the slots they read
//!   and write spilled and reloaded around the call; lane builtins (but `sqrt`/`rsqrt`,
//!   inline), conversions, integer
//!   division and the remaining float operations call the interpreter's lane functions.
//!
//! Not compiled (the whole kernel runs on the interpreter, one `info` log line): kernels with
//! barriers or `wait_group_events` (work-items switch at barriers), channels and pipes,
//! `async_work_group_copy`. See [`translate::unsupported`].

mod helpers;
mod translate;

use super::code::Code;
use super::interp::{Exit, Machine, Trap};
use crate::fault::FaultKind;
use fpgacl_kernel_compiler::ir::{Function, Module};
use std::sync::OnceLock;
use std::time::Duration;

pub use helpers::Frame;

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

/// `FPGACL_BACKEND` (`interp`, the default, or `jit`), read once per process.
pub fn backend() -> Backend {
    static B: OnceLock<Backend> = OnceLock::new();
    *B.get_or_init(|| match std::env::var("FPGACL_BACKEND") {
        Ok(v) => match v.trim().to_ascii_lowercase().as_str() {
            "jit" => Backend::Jit,
            "" | "interp" => Backend::Interp,
            other => {
                log::warn!("FPGACL_BACKEND={other}: not a backend (interp, jit); using interp");
                Backend::Interp
            }
        },
        Err(_) => Backend::Interp,
    })
}

/// Whether kernels are compiled when programs are loaded.
pub fn enabled() -> bool {
    backend() == Backend::Jit
}

/// Compiles `code` and attaches the result; a kernel that cannot be compiled keeps running on
/// the interpreter, with one log line saying why.
pub fn attach(code: &mut Code, m: &Module, f: &Function) {
    let name = &f.name;
    match compile(code, m, f) {
        Ok(k) => {
            log::debug!(
                "kernel {name}: compiled to {} bytes of native code in {:.2} ms",
                k.code_bytes,
                k.compile_time.as_secs_f64() * 1e3
            );
            code.jit = Some(std::sync::Arc::new(k));
        }
        Err(why) => {
            log::info!("kernel {name}: not compiled ({why}); it runs on the interpreter");
            code.jit = None;
        }
    }
}

/// Compiles kernel `f`, decoded as `code`; `Err` names what the compiler does not support.
pub fn compile(code: &Code, m: &Module, f: &Function) -> Result<JitKernel, String> {
    if let Some(why) = translate::unsupported(code) {
        return Err(why);
    }
    let t0 = std::time::Instant::now();
    // A bug in the translation must not take the process down: the kernel falls back.
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        translate::build(code, m, f)
    }));
    let (module, entry, code_bytes) = match r {
        Ok(Ok(x)) => x,
        Ok(Err(e)) => return Err(format!("code generation failed: {e}")),
        Err(_) => return Err("code generation panicked".into()),
    };
    Ok(JitKernel {
        module: Some(module),
        entry,
        num_slots: code.num_slots as usize,
        num_loops: code.num_loops as usize,
        zeros: vec![0; code.num_loops as usize],
        compile_time: t0.elapsed(),
        code_bytes,
    })
}

/// Runs the current work-item of `m` through the compiled kernel; `None` when this run cannot
/// use it (then the interpreter runs the item). Inlined into `Machine::run`, so that the large
/// result is not returned through a call once per work-item.
#[inline]
pub fn run(
    j: &JitKernel,
    m: &mut Machine<'_>,
    regs: &mut [u64],
    pc: &mut u32,
) -> Option<Result<Exit, Trap>> {
    if regs.len() < j.num_slots {
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
    let cnt = helpers::CountEnv::of(m);
    let mut f = Frame {
        regions: m.regions.as_ptr(),
        nregions: m.regions.len() as u64,
        ids: &m.ids,
        visits,
        entries,
        heads,
        enters,
        clock_helper,
        clock: m.clock,
        poll: m.poll as u64,
        m: (m as *mut Machine<'_>).cast(),
        regs: regs.as_mut_ptr(),
        nregs: regs.len(),
        tmp: 0,
        trap: None,
        cnt,
    };
    // SAFETY: the code was compiled from `m.code` (the `Code` holding `j`); the frame points
    // at live state of `m` and at `regs`, which nothing else touches during the call.
    let st = unsafe { (j.entry)(&mut f, regs.as_mut_ptr()) };
    m.clock = f.clock;
    m.poll = f.poll as u32;
    if st == 0 {
        *pc = m.code.ops.len() as u32;
        return Some(Ok(Exit::Return));
    }
    let t = f.trap.take().unwrap_or(Trap {
        pc: 0,
        kind: FaultKind::Unreachable,
        site: u32::MAX,
    });
    *pc = t.pc;
    Some(Err(t))
}

#[cfg(test)]
mod tests;
