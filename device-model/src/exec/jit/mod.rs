//! The compiling backend, the default (`FPGACL_BACKEND=jit` or unset; `interp` selects the
//! reference interpreter): translates a decoded kernel ([`Code`]) to native code with
//! Cranelift at its first launch ([`prepare`], once per kernel and program; kernels of more
//! than [`FAST_COMPILE_OPS`] ops with Cranelift's fast tier), and runs its work-items through
//! it behind [`Machine::run`].
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
//! Not compiled (the whole kernel runs on the interpreter, one `info` log line; likewise when
//! code generation fails or panics, never a crash): kernels with
//! barriers or `wait_group_events` (work-items switch at barriers), channels and pipes,
//! `async_work_group_copy`. See [`translate::unsupported`].

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

/// A kernel's native code, compiled on demand: empty until [`prepare`] runs (at the kernel's
/// first launch), then the compiled kernel or `None` (the kernel runs on the interpreter).
#[derive(Clone, Debug, Default)]
pub struct Slot(OnceLock<Option<Arc<JitKernel>>>);

impl Slot {
    /// The compiled kernel, if [`prepare`] compiled it.
    #[inline]
    pub fn get(&self) -> Option<&JitKernel> {
        self.0.get().and_then(|k| k.as_deref())
    }
}

/// Compiles `code` (kernel `f` of `m`) unless that was done already, and returns the compiled
/// kernel; `None` when it cannot be compiled: it keeps running on the interpreter, and one
/// `info` log line says why (once per kernel and program). Concurrent first launches of the
/// same kernel compile it once (the others wait for the result).
pub fn prepare<'c>(code: &'c Code, m: &Module, f: &Function) -> Option<&'c JitKernel> {
    code.jit
        .0
        .get_or_init(|| {
            let name = &f.name;
            match compile(code, m, f) {
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

/// Compiles kernel `f`, decoded as `code`; `Err` names what the compiler does not support.
pub fn compile(code: &Code, m: &Module, f: &Function) -> Result<JitKernel, String> {
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
        translate::build(code, m, f, fast_tier)
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
        fast_tier,
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
