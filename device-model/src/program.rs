//! Program instances: a built program loaded on the emulated device, with its channels, its
//! autorun kernels, and the launch entry point the runtime calls.

use crate::activity::{Activity, RunGuard, SimWait, SIM};
use crate::board::Board;
use crate::counters::{CounterBlock, Counters};
use crate::exec::code::Code;
use crate::exec::decode::decode;
use crate::exec::group::{local_ptr, GroupQueue, Plan, Worker};
use crate::exec::interp::{FifoEnv, Region};
pub use crate::exec::jit::Backend;
use crate::exec::printf_stream::PrintfStream;
use crate::exec::values::norm;
use crate::fault::{DecodeError, FaultKind, KernelFault, LaunchError, OobMode, OobSite, RunError};
use crate::fifo::{Fifo, PipeFifo};
use crate::memory::DeviceMemory;
use crate::timing::{ClockPlan, ComputeModel, TICKS_PER_CYCLE};
use fpgacl_kernel_compiler::ir::{
    make_ptr, AddrSpace, ArgKind, Function, Module, SiteKind, MAX_GROUP_PRIVATE_BYTES,
    REGION_FIRST_ARG, REGION_PRIVATE,
};
use parking_lot::Mutex;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// Where `printf` output goes.
#[derive(Clone, Debug, Default)]
pub enum PrintfSink {
    /// The host process's stdout (as on a device).
    #[default]
    Stdout,
    /// Appended to a shared buffer (tests, tools).
    Capture(Arc<Mutex<Vec<u8>>>),
}

impl PrintfSink {
    fn write(&self, b: &[u8]) {
        match self {
            PrintfSink::Stdout => {
                let mut o = std::io::stdout().lock();
                let _ = o.write_all(b);
                let _ = o.flush();
            }
            PrintfSink::Capture(c) => c.lock().extend_from_slice(b),
        }
    }
}

/// Execution settings of a program instance.
#[derive(Clone, Debug, Default)]
pub struct ExecConfig {
    /// Worker threads for NDRange kernels without channels/pipes; 0 = `FPGACL_THREADS` or
    /// the number of host cores.
    pub threads: usize,
    /// The device's activity registry (shared by all instances of a device for deadlock
    /// diagnosis); a fresh one when `None`.
    pub activity: Option<Arc<Activity>>,
    pub printf: PrintfSink,
    /// Do not start autorun kernels (tools that only inspect a program).
    pub no_autorun: bool,
    /// What out-of-bounds accesses do; `None`: `FPGACL_OOB` ([`OobMode::from_env`]).
    pub oob: Option<OobMode>,
    /// The module's static analysis with this board's parameters, when the caller already ran
    /// it (the runtime does, for the profile): rule M0' reads its coalesced groups instead of
    /// analysing each kernel again at its first launch.
    pub report: Option<Arc<fpgacl_kernel_compiler::analysis::Report>>,
    /// Which backend runs the kernels; `None`: `FPGACL_BACKEND` (jit by default).
    pub backend: Option<Backend>,
}

impl ExecConfig {
    /// The worker count this config resolves to.
    pub fn resolved_threads(&self) -> usize {
        if self.threads > 0 {
            return self.threads;
        }
        if let Some(n) = std::env::var("FPGACL_THREADS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
        {
            return n;
        }
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    }
}

/// What a kernel argument is bound to at launch.
#[derive(Clone, Debug)]
pub enum ArgBinding {
    /// Scalar, vector or struct bytes as given to `clSetKernelArg`.
    Value(Vec<u8>),
    /// A buffer (or sub-buffer: `offset`/`len` within `mem`); `mem: None` is a NULL buffer.
    Buffer {
        mem: Option<Arc<DeviceMemory>>,
        offset: usize,
        len: usize,
    },
    /// A `__local` pointer argument of this many bytes.
    Local(usize),
    /// A pipe argument.
    Pipe(Arc<PipeFifo>),
}

impl ArgBinding {
    /// A whole buffer.
    pub fn buffer(mem: &Arc<DeviceMemory>) -> ArgBinding {
        ArgBinding::Buffer {
            mem: Some(mem.clone()),
            offset: 0,
            len: mem.len(),
        }
    }
}

/// One kernel launch (`clEnqueueNDRangeKernel` / `clEnqueueTask`).
#[derive(Clone, Debug)]
pub struct LaunchSpec {
    /// Index into `Module::kernels`.
    pub kernel: u32,
    pub work_dim: u32,
    pub global_offset: [u64; 3],
    pub global_size: [u64; 3],
    /// `None` lets the executor choose (honouring `reqd_work_group_size`).
    pub local_size: Option<[u64; 3]>,
    pub args: Vec<ArgBinding>,
}

impl LaunchSpec {
    /// A single work-item launch (`clEnqueueTask`).
    pub fn task(kernel: u32, args: Vec<ArgBinding>) -> LaunchSpec {
        LaunchSpec {
            kernel,
            work_dim: 1,
            global_offset: [0; 3],
            global_size: [1, 1, 1],
            local_size: Some([1, 1, 1]),
            args,
        }
    }
    /// A 1-D NDRange.
    pub fn ndrange_1d(kernel: u32, global: u64, local: Option<u64>, args: Vec<ArgBinding>) -> Self {
        LaunchSpec {
            kernel,
            work_dim: 1,
            global_offset: [0; 3],
            global_size: [global, 1, 1],
            local_size: local.map(|l| [l, 1, 1]),
            args,
        }
    }
}

/// What a completed kernel execution reports.
#[derive(Clone, Debug)]
pub struct RunReport {
    pub kernel: String,
    pub work_dim: u32,
    pub global_size: [u64; 3],
    pub local_size: [u64; 3],
    pub num_groups: [u64; 3],
    pub work_items: u64,
    /// Per-site and per-loop counts of this execution.
    pub counters: Counters,
    /// Host threads that executed work-groups.
    pub threads: usize,
    /// Wall-clock time on the host (not device time).
    pub host_time: Duration,
    /// Timing hook: the simulated clock (ticks) when a [`ProgramInstance::run_timed`]
    /// execution finished (parallel executions: the start plus the sum of the workers'
    /// advances, the same as one worker's); `None` for untimed executions.
    pub end_tick: Option<u64>,
    /// Out-of-bounds access sites that did not stop the run (`OobMode::Report`), in source
    /// order; empty when every access was in bounds.
    pub oob: Vec<OobSite>,
    /// How the work-groups were spread over the worker threads, one entry per worker (the
    /// launching thread first): host-side figures for scaling measurements, not part of the
    /// execution's results (they change from run to run; counters and times do not).
    pub workers: Vec<WorkerStats>,
}

/// What one worker thread of an execution did (see [`RunReport::workers`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorkerStats {
    /// Work-groups the worker ran.
    pub groups: u64,
    /// Host wall time from the start of the execution to the end of the worker's last group.
    pub done_at: Duration,
    /// CPU time of the worker's thread from its first claim to its last group (parallel
    /// executions only: `None` when the launching thread ran every group alone).
    pub cpu: Option<Duration>,
}

/// CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`).
fn thread_cpu_time() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid clock id and a pointer to a live timespec.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (r == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

/// The device timeline's clock (ns since its origin), registered by the runtime: autorun
/// kernels start their simulated clock at its value when their program is loaded (rule A1).
static TIMELINE_NS: OnceLock<fn() -> u64> = OnceLock::new();

/// Registers the clock of the device timeline (the runtime's virtual host clock, the one its
/// kernel commands' START times come from). The first registration wins; without one,
/// autorun kernels start at cycle 0.
pub fn set_timeline_clock(now_ns: fn() -> u64) {
    let _ = TIMELINE_NS.set(now_ns);
}

/// The simulated-time window of an autorun kernel instance's counters (rule A2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AutorunWindow {
    /// The instance's clock (ticks) when its counters were last cleared (or it started).
    pub start_tick: u64,
    /// Its clock now, as far as its counts go (ticks): the start plus what the clock advanced
    /// by for the counts of the window (an execution in flight included).
    pub end_tick: u64,
    /// Executions completed in the window.
    pub runs: u64,
}

/// State of one autorun kernel instance.
#[derive(Clone, Debug)]
pub struct AutorunStatus {
    pub kernel: String,
    pub kernel_index: u32,
    pub compute_id: [u32; 3],
    /// Completed executions (the kernel restarts after each).
    pub runs: u64,
    /// Counters accumulated since start (or the last clear).
    pub counters: Counters,
    /// The fault that stopped it, if any.
    pub fault: Option<KernelFault>,
    /// Where the counters lie in simulated time, for instances that run with a clock (the
    /// kernel's static analysis succeeded); `None` for untimed instances.
    pub window: Option<AutorunWindow>,
    /// Back-offs the instance took since start: a sleep (1 ms, doubling every 4 idle
    /// executions up to 64 ms) after each execution that moved no channel or pipe element
    /// (e.g. only failed non-blocking operations) and took less than 1 ms of wall time, or a
    /// park after [`PARK_AFTER`] idle executions in a row. 0 for an instance whose every
    /// execution moves data.
    pub backoffs: u64,
    /// Parked now: idle for [`PARK_AFTER`] executions in a row, it waits (off the CPU) for a
    /// change it can observe.
    pub parked: bool,
}

struct AutorunSlot {
    kernel: u32,
    cid: [u32; 3],
    runs: AtomicU64,
    counters: CounterBlock,
    fault: Mutex<Option<KernelFault>>,
    /// The kernel's compute model: its clock plan (rules C1-C4) and the capture window of
    /// rule A2; `None`: untimed (no static analysis).
    model: Option<ComputeModel>,
    /// The instance's clock: the tick its next execution starts at (rule A1).
    tick: AtomicU64,
    /// The clock and the completed executions when the counters were last cleared.
    since_tick: AtomicU64,
    since_runs: AtomicU64,
    /// Back-offs taken after executions that moved no channel/pipe element.
    backoffs: AtomicU64,
    /// In `park_idle` now.
    parked: AtomicBool,
}

struct Inner {
    module: Arc<Module>,
    code: Vec<Code>,
    /// Whether kernels are compiled (at their first launch) by the compiling backend.
    jit: bool,
    board: Board,
    threads: usize,
    printf: PrintfSink,
    channels: Vec<Arc<Fifo>>,
    chan_base: Vec<u32>,
    activity: Arc<Activity>,
    shutdown: AtomicBool,
    autorun: Vec<Arc<AutorunSlot>>,
    /// Per kernel, computed at its first launch: the burst tracker of every site (rule M0'),
    /// [`coalesce_table`].
    coalesce: Vec<OnceLock<Vec<(u32, u32)>>>,
    /// `ExecConfig::report`.
    report: Option<Arc<fpgacl_kernel_compiler::analysis::Report>>,
    /// `OobMode::Fault`.
    oob_fault: bool,
    /// Out-of-bounds sites already reported on stderr (kernel, op, write): each once.
    oob_seen: Mutex<std::collections::HashSet<(u32, u32, bool)>>,
}

/// Rule M0' (statically coalesced accesses, `timing/MODEL.md`): per site of the module, the
/// site whose burst tracker it shares and the accesses that form one wide access per
/// work-item (its static analysis' coalesced group: the accesses of unrolled copies or of
/// consecutive sites whose addresses tile one contiguous range). A site outside any group
/// keeps its own tracker, one access per slot: `(site, 1)`. The kernel's report comes from
/// `report` (the caller's analysis) or, without one, is analysed here with the board's
/// parameters; a kernel whose analysis fails keeps the plain table.
fn coalesce_table(
    module: &Module,
    kidx: u32,
    f: &Function,
    board: &Board,
    report: Option<&fpgacl_kernel_compiler::analysis::Report>,
) -> Vec<(u32, u32)> {
    let mut t: Vec<(u32, u32)> = (0..module.sites.len() as u32).map(|s| (s, 1)).collect();
    let analysed;
    let rep = match report.and_then(|r| r.kernels.get(kidx as usize)) {
        Some(k) => k,
        None => {
            let params = board.analysis_params();
            let Ok(k) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                fpgacl_kernel_compiler::analysis::engine::analyze_kernel(module, kidx, f, &params)
            })) else {
                return t;
            };
            analysed = k;
            &analysed
        }
    };
    for s in &rep.sites {
        if s.coalesced_width.is_none() || s.coalesced_accesses < 2 {
            continue;
        }
        let leader = s
            .coalesced_with
            .iter()
            .map(|x| x.0)
            .chain(std::iter::once(s.id.0))
            .min()
            .unwrap_or(s.id.0);
        if let Some(e) = t.get_mut(s.id.0 as usize) {
            *e = (leader, s.coalesced_accesses);
        }
    }
    t
}

/// A program loaded on the device. Cheap to share (`Send + Sync`); `run` may be called from
/// several threads at once (kernels on different queues run concurrently). Dropping it (or
/// [`ProgramInstance::shutdown`]) stops its autorun kernels and ends blocked channel waits.
pub struct ProgramInstance {
    inner: Arc<Inner>,
}

impl Inner {
    /// Kernel `k`'s burst trackers (rule M0', [`coalesce_table`]), computed at first use.
    fn coalesce_of(&self, k: u32, f: &Function) -> &[(u32, u32)] {
        self.coalesce[k as usize]
            .get_or_init(|| coalesce_table(&self.module, k, f, &self.board, self.report.as_deref()))
    }

    /// What the compiling backend specialises kernel `k`'s counting code for.
    fn jit_spec(&self, k: u32, f: &Function) -> crate::exec::jit::Spec {
        crate::exec::jit::Spec::new(
            self.coalesce_of(k, f),
            self.board.mem_word_bytes(),
            self.board.max_burst_words(),
        )
    }

    /// Compiles the program's kernels as [`crate::exec::jit::LOAD_COMPILE_OPS`] says (not the
    /// autorun ones, not the large ones, not past the budget: those compile at their first
    /// launch), each on the first of up to `threads` threads free to take it (the calling
    /// thread is one).
    fn compile_all(&self) {
        use crate::exec::jit::{LOAD_COMPILE_BUDGET, LOAD_COMPILE_OPS};
        let mut budget = LOAD_COMPILE_BUDGET;
        let mut todo = Vec::new();
        for (k, f) in self.module.kernels.iter().enumerate() {
            let ops = self.code[k].ops.len();
            if !f.attrs.autorun && ops <= LOAD_COMPILE_OPS && ops <= budget {
                budget -= ops;
                todo.push(k);
            }
        }
        let next = std::sync::atomic::AtomicUsize::new(0);
        let work = || loop {
            let Some(&k) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                return;
            };
            let (c, f) = (&self.code[k], &self.module.kernels[k]);
            let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                crate::exec::jit::prepare(c, &self.module, f, f.single_work_item, || {
                    self.jit_spec(k as u32, f)
                });
            }));
            if done.is_err() {
                log::warn!(
                    "fpgacl: kernel {}: the compiler failed as the program loaded; \
                     its first launch tries again",
                    f.name
                );
            }
        };
        let helpers = self.threads.min(todo.len()).saturating_sub(1);
        std::thread::scope(|s| {
            for _ in 0..helpers {
                if let Err(e) = std::thread::Builder::new()
                    .name("fpgacl-jit".into())
                    .spawn_scoped(s, work)
                {
                    log::warn!("fpgacl: cannot start a compiling thread ({e})");
                    break;
                }
            }
            work();
        });
    }
}

impl ProgramInstance {
    /// Decodes every kernel, creates the program's channels and starts its autorun kernels.
    pub fn new(
        module: Arc<Module>,
        board: &Board,
        config: ExecConfig,
    ) -> Result<ProgramInstance, DecodeError> {
        let mut code = Vec::with_capacity(module.kernels.len());
        for f in &module.kernels {
            code.push(decode(&module, f)?);
        }
        // The compiling backend (the default; `FPGACL_BACKEND` or the config) compiles the
        // kernels as the program loads (below); kernels it cannot compile run on the
        // interpreter.
        let jit = config.backend.unwrap_or_else(crate::exec::jit::backend) == Backend::Jit;
        let mut channels = Vec::new();
        let mut chan_base = Vec::new();
        for c in &module.channels {
            chan_base.push(channels.len() as u32);
            let n = c.count();
            for i in 0..n {
                let name = if c.dims.is_empty() {
                    c.name.clone()
                } else {
                    // row-major indices
                    let mut idx = Vec::new();
                    let mut rem = i;
                    for d in c.dims.iter().rev() {
                        idx.push(rem % d.max(&1));
                        rem /= d.max(&1);
                    }
                    idx.reverse();
                    let s: String = idx.iter().map(|i| format!("[{i}]")).collect();
                    format!("{}{}", c.name, s)
                };
                channels.push(Arc::new(Fifo::new(name, c.elem_size, c.depth)));
            }
        }
        let mut autorun = Vec::new();
        let load_cycle = TIMELINE_NS
            .get()
            .map(|now| board.ns_to_cycles(now()))
            .unwrap_or(0);
        let params = board.analysis_params();
        for (ki, f) in module.kernels.iter().enumerate() {
            if !f.attrs.autorun {
                continue;
            }
            // Rule A1: autorun kernels run with a clock from the program's load, with the
            // costs of their static analysis (untimed if the analysis fails).
            let model = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let rep = fpgacl_kernel_compiler::analysis::engine::analyze_kernel(
                    &module, ki as u32, f, &params,
                );
                ComputeModel::new(f, &rep)
            }))
            .ok();
            let start_tick = model
                .as_ref()
                .map_or(0, |m| m.clock_plan(load_cycle).start_tick);
            let cu = f.attrs.num_compute_units;
            for z in 0..cu[2].max(1) {
                for y in 0..cu[1].max(1) {
                    for x in 0..cu[0].max(1) {
                        autorun.push(Arc::new(AutorunSlot {
                            kernel: ki as u32,
                            cid: [x, y, z],
                            runs: AtomicU64::new(0),
                            counters: CounterBlock::new(module.sites.len(), f.loops.len()),
                            fault: Mutex::new(None),
                            model: model.clone(),
                            tick: AtomicU64::new(start_tick),
                            since_tick: AtomicU64::new(start_tick),
                            since_runs: AtomicU64::new(0),
                            backoffs: AtomicU64::new(0),
                            parked: AtomicBool::new(false),
                        }));
                    }
                }
            }
        }
        let module_len = module.kernels.len();
        let inner = Arc::new(Inner {
            module,
            code,
            jit,
            board: board.clone(),
            threads: config.resolved_threads(),
            printf: config.printf.clone(),
            channels,
            chan_base,
            activity: config.activity.clone().unwrap_or_default(),
            shutdown: AtomicBool::new(false),
            coalesce: (0..module_len).map(|_| OnceLock::new()).collect(),
            report: config.report.clone(),
            autorun,
            oob_fault: config.oob.unwrap_or_else(OobMode::from_env) == OobMode::Fault,
            oob_seen: Mutex::new(Default::default()),
        });
        // The compiling backend compiles the program's kernels now, as the program loads (as
        // an OpenCL build does), on up to `threads` threads at once, and the load returns when
        // they are compiled: a launch never shares the cores with compilation. Autorun kernels
        // compile as they start, kernels past the load's budget at their first launch; a
        // kernel that did not compile here (a panic in the compiler) is tried again at its
        // first launch (`jit::prepare` runs once per kernel).
        if jit {
            inner.compile_all();
        }
        if !config.no_autorun {
            for slot in &inner.autorun {
                let inner2 = inner.clone();
                let slot = slot.clone();
                let name = format!(
                    "fpgacl-autorun-{}",
                    inner.module.kernels[slot.kernel as usize].name
                );
                // Registered before the thread starts: an autorun kernel is a partner of the
                // non-blocking decisions (rule F-nb) from the program's load on.
                let reg = autorun_registration(&inner, &slot);
                let spawned = std::thread::Builder::new()
                    .name(name)
                    .spawn(move || autorun_loop(&inner2, &slot, reg));
                if let Err(e) = spawned {
                    log::error!("fpgacl: cannot start autorun kernel thread: {e}");
                }
            }
        }
        Ok(ProgramInstance { inner })
    }

    pub fn module(&self) -> &Arc<Module> {
        &self.inner.module
    }

    /// Checks, before a launch is queued, that the private memory of a work-group of local
    /// size `local` of kernel `kernel` fits (the check `run` makes; `CL_OUT_OF_RESOURCES`).
    pub fn check_private_memory(&self, kernel: u32, local: [u64; 3]) -> Result<(), LaunchError> {
        let inner = &*self.inner;
        let (Some(f), Some(code)) = (
            inner.module.kernels.get(kernel as usize),
            inner.code.get(kernel as usize),
        ) else {
            return Err(LaunchError::NoSuchKernel(kernel));
        };
        let needed = group_private_bytes(f, code, local);
        if needed > MAX_GROUP_PRIVATE_BYTES {
            return Err(LaunchError::PrivateMemory {
                items: local[0].saturating_mul(local[1]).saturating_mul(local[2]),
                needed,
                limit: MAX_GROUP_PRIVATE_BYTES,
            });
        }
        Ok(())
    }

    /// The device activity registry (running / blocked kernels) this instance reports to.
    pub fn activity(&self) -> &Arc<Activity> {
        &self.inner.activity
    }

    /// The program's channels, flattened (declaration order, arrays row-major).
    pub fn channels(&self) -> &[Arc<Fifo>] {
        &self.inner.channels
    }

    /// Worker threads used for parallel NDRange execution.
    pub fn threads(&self) -> usize {
        self.inner.threads
    }

    /// Whether kernel `kernel` runs as native code: with the compiling backend, compiles it if
    /// its first launch has not yet done so.
    pub fn compiled(&self, kernel: u32) -> bool {
        let inner = &*self.inner;
        match (
            inner.code.get(kernel as usize),
            inner.module.kernels.get(kernel as usize),
        ) {
            (Some(c), Some(f)) if inner.jit => {
                crate::exec::jit::prepare(c, &inner.module, f, f.single_work_item, || {
                    inner.jit_spec(kernel, f)
                })
                .is_some()
            }
            _ => false,
        }
    }

    /// Runs a kernel to completion on the calling thread (plus worker threads for parallel
    /// NDRange kernels). Blocks while the kernel waits on channels or pipes.
    pub fn run(&self, spec: &LaunchSpec) -> Result<RunReport, RunError> {
        self.launch(spec, None, None)
    }

    /// [`ProgramInstance::run`] with a simulated cycle clock (timing hook): the execution's
    /// clock starts at `clock.start_tick` and advances by its costs; channel and pipe operations
    /// synchronise it with their partners' clocks. [`RunReport::end_tick`] gives its final value
    /// (sequential executions: kernels that use channels or pipes).
    pub fn run_timed(&self, spec: &LaunchSpec, clock: &ClockPlan) -> Result<RunReport, RunError> {
        self.launch(spec, None, Some(clock))
    }

    /// [`ProgramInstance::run_timed`] (or `run` with `clock` None) counting into `counters`
    /// (shape `CounterBlock::new(module.sites.len(), kernel.loops.len())`, zeroed), which
    /// another thread may `snapshot()` while the kernel runs: live for sequential executions
    /// (kernels with channels or pipes), parallel workers merge at their end. The report's
    /// counters are the run's totals when the block started at zero. (Profiler snapshots,
    /// `clGetProfileInfoIntelFPGA`.)
    pub fn run_timed_with_counters(
        &self,
        spec: &LaunchSpec,
        clock: Option<&ClockPlan>,
        counters: &CounterBlock,
    ) -> Result<RunReport, RunError> {
        self.launch(spec, Some(counters), clock)
    }

    /// A host launch: refused after shutdown, for an unknown kernel or an autorun kernel.
    fn launch(
        &self,
        spec: &LaunchSpec,
        counters: Option<&CounterBlock>,
        clock: Option<&ClockPlan>,
    ) -> Result<RunReport, RunError> {
        if self.inner.shutdown.load(Ordering::Relaxed) {
            return Err(LaunchError::ShutDown.into());
        }
        let f = self
            .inner
            .module
            .kernels
            .get(spec.kernel as usize)
            .ok_or(LaunchError::NoSuchKernel(spec.kernel))?;
        if f.attrs.autorun {
            return Err(LaunchError::Autorun(f.name.clone()).into());
        }
        run_kernel(&self.inner, spec, [0; 3], counters, clock, None)
    }

    /// Status and live counters of every autorun kernel instance, once they have settled
    /// ([`Activity::settle_autorun`], at most 2 s): the same program and inputs give the same
    /// counts whatever the host's load.
    pub fn autorun_status(&self) -> Vec<AutorunStatus> {
        self.inner.activity.settle_autorun(Duration::from_secs(2));
        self.inner
            .autorun
            .iter()
            .map(|s| {
                let runs = s.runs.load(Ordering::Relaxed);
                let counters = s.counters.snapshot();
                let window = s.window(&counters, runs);
                AutorunStatus {
                    kernel: self.inner.module.kernels[s.kernel as usize].name.clone(),
                    kernel_index: s.kernel,
                    compute_id: s.cid,
                    runs,
                    counters,
                    fault: s.fault.lock().clone(),
                    window,
                    backoffs: s.backoffs.load(Ordering::Relaxed),
                    parked: s.parked.load(Ordering::Relaxed),
                }
            })
            .collect()
    }

    /// Zeroes the counters of every autorun kernel (after a profiler readback); the next
    /// window starts at each instance's clock now (rule A2's window end).
    pub fn clear_autorun_counters(&self) {
        for s in &self.inner.autorun {
            let runs = s.runs.load(Ordering::Relaxed);
            if let Some(w) = s.window(&s.counters.snapshot(), runs) {
                s.since_tick.store(w.end_tick, Ordering::Relaxed);
            }
            s.since_runs.store(runs, Ordering::Relaxed);
            s.counters.clear();
        }
    }

    /// Stops autorun kernels and makes every blocked channel wait of this program return a
    /// `Shutdown` fault. Idempotent; called on drop.
    pub fn shutdown(&self) {
        self.inner.shutdown.store(true, Ordering::Relaxed);
        for c in &self.inner.channels {
            c.wake_all();
        }
        // Parked idle autorun instances (`park_idle`) wait for the epoch to change.
        SIM.bump();
    }
}

impl AutorunSlot {
    /// Rule A2: the simulated-time window of the counts `c` since the last clear. It starts
    /// at the instance's clock at the clear and lasts what the clock advanced by for these
    /// counts: issue ticks (C1-C4) + the clock's arbitration extra (L5) + FIFO waits + one
    /// cycle per completed execution (A1's restart). Equal to the clock's advance for completed
    /// executions; derived from the counts so that an execution still in flight (an autorun
    /// kernel that never returns) is included. `None` for untimed instances.
    fn window(&self, c: &Counters, runs: u64) -> Option<AutorunWindow> {
        let model = self.model.as_ref()?;
        let runs = runs.saturating_sub(self.since_runs.load(Ordering::Relaxed));
        let waits: u64 = c.sites.iter().map(|x| x.stall).sum();
        let start_tick = self.since_tick.load(Ordering::Relaxed);
        let advance = model
            .issue_ticks(c, runs)
            .saturating_add(model.clock_arbitration_ticks(c))
            .saturating_add(waits)
            .saturating_add(runs.saturating_mul(TICKS_PER_CYCLE));
        Some(AutorunWindow {
            start_tick,
            end_tick: start_tick.saturating_add(advance),
            runs,
        })
    }
}

impl Drop for ProgramInstance {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// The registration an autorun instance keeps across its executions: timed (a partner of the
/// non-blocking decisions, rule F-nb) when it runs with a clock and uses channels.
fn autorun_registration(inner: &Arc<Inner>, slot: &AutorunSlot) -> RunGuard {
    let f = &inner.module.kernels[slot.kernel as usize];
    let timed = slot.model.is_some() && inner.code[slot.kernel as usize].uses_fifos;
    inner.activity.register_timed(
        &f.name,
        true,
        slot.cid,
        timed.then(|| slot.tick.load(Ordering::Relaxed)),
    )
}

fn autorun_loop(inner: &Arc<Inner>, slot: &AutorunSlot, reg: RunGuard) {
    let f = &inner.module.kernels[slot.kernel as usize];
    let spec = LaunchSpec::task(slot.kernel, Vec::new());
    let cid = [slot.cid[0] as u64, slot.cid[1] as u64, slot.cid[2] as u64];
    // One plan for the thread's lifetime: only its start tick changes between executions.
    let mut plan = slot.model.as_ref().map(|m| m.clock_plan(0));
    // `reg`: one registration for the instance's lifetime, so a timed instance stays a partner
    // of the non-blocking decisions between executions too (its clock published at each start).
    // The instance's channel and pipe sites: an execution that completed an operation on one
    // of them moved an element (its `fires` count grew); one that did not only spun.
    let moving: Vec<usize> = inner
        .module
        .sites
        .iter()
        .filter(|s| {
            s.kernel == slot.kernel
                && matches!(
                    s.kind,
                    SiteKind::ChannelRead
                        | SiteKind::ChannelWrite
                        | SiteKind::PipeRead
                        | SiteKind::PipeWrite
                )
        })
        .map(|s| s.id.0 as usize)
        .collect();
    let moved = |c: &Counters| -> u64 {
        moving
            .iter()
            .filter_map(|&i| c.sites.get(i))
            .fold(0u64, |a, s| a.wrapping_add(s.fires))
    };
    let mut last_moved = moved(&slot.counters.snapshot());
    // Every channel element of the declarations the kernel operates on (an index may be
    // computed): a parked idle instance wakes when one of them changes.
    let watched: Vec<Arc<Fifo>> = {
        let code = &inner.code[slot.kernel as usize];
        let mut decls: Vec<usize> = code
            .fifos
            .iter()
            .filter_map(|x| match x.ep {
                crate::exec::code::Ep::Channel { decl, .. } => Some(decl as usize),
                crate::exec::code::Ep::Pipe { .. } => None,
            })
            .collect();
        decls.sort_unstable();
        decls.dedup();
        let mut v = Vec::new();
        for d in decls {
            let start = inner.chan_base.get(d).copied().unwrap_or(0) as usize;
            let end = inner
                .chan_base
                .get(d + 1)
                .map_or(inner.channels.len(), |&e| e as usize);
            v.extend(
                inner
                    .channels
                    .get(start..end)
                    .unwrap_or(&[])
                    .iter()
                    .cloned(),
            );
        }
        v
    };
    let positions = || -> Vec<(u64, u64)> { watched.iter().map(|f| f.position()).collect() };
    // Consecutive executions that moved nothing, and the current back-off.
    let mut streak = 0u64;
    let mut backoff = BACKOFF_MIN;
    while !inner.shutdown.load(Ordering::Relaxed) {
        let t0 = Instant::now();
        // Positions of the watched channels when an execution that may lead to a park
        // begins (only then: busy instances do not pay for it).
        let before = if streak + 1 >= PARK_AFTER {
            positions()
        } else {
            Vec::new()
        };
        if let Some(p) = plan.as_mut() {
            p.start_tick = slot.tick.load(Ordering::Relaxed);
        }
        let idle = match run_kernel(
            inner,
            &spec,
            cid,
            Some(&slot.counters),
            plan.as_ref(),
            Some(&reg),
        ) {
            Ok(r) => {
                // Rule A1: the kernel restarts one cycle after its execution issued (the
                // implicit outer loop of an autorun kernel, II 1).
                if let Some(end) = r.end_tick {
                    slot.tick
                        .store(end.saturating_add(TICKS_PER_CYCLE), Ordering::Relaxed);
                }
                slot.runs.fetch_add(1, Ordering::Relaxed);
                // `r.counters`: the instance's accumulated counts (a host readback may have
                // cleared them meanwhile: any change counts as movement, at worst one sleep
                // is skipped).
                let now = moved(&r.counters);
                let idle = now == last_moved;
                last_moved = now;
                idle
            }
            Err(RunError::Fault(k)) if k.kind == FaultKind::Shutdown => break,
            Err(e) => {
                let fault = match e {
                    RunError::Fault(k) => k,
                    RunError::Launch(l) => Box::new(KernelFault {
                        kernel: f.name.clone(),
                        kind: FaultKind::Unreachable,
                        pos: None,
                        target: Some(l.to_string()),
                        work_item: cid,
                    }),
                };
                log::error!("fpgacl: autorun kernel stopped: {fault}");
                *slot.fault.lock() = Some(*fault);
                break;
            }
        };
        // The deadlock diagnosis counts an instance that keeps moving nothing as unable to
        // unblock anyone (Activity::quiescence).
        streak = if idle { streak + 1 } else { 0 };
        reg.state().set_idle_streak(streak);
        // An execution that moved no channel/pipe element (only failed non-blocking
        // operations, or none) and finished quickly would spin with nothing to do; pace it:
        // it sleeps for a back-off (1 ms, doubling every 4 executions up to 64 ms while the
        // instance stays idle), so idle compute units stay off the CPU. One that moved data restarts at once (the guide's one-item-per-execution
        // pattern); the simulated clock (rule A1) does not depend on this.
        // After PARK_AFTER idle executions in a row it parks instead (`park_idle`): however
        // long its executions took (a poller's non-blocking decisions wait for the other
        // pollers' clocks), it would only keep polling empty channels.
        if !idle {
            backoff = BACKOFF_MIN;
        } else if streak >= PARK_AFTER && !watched.is_empty() {
            slot.backoffs.fetch_add(1, Ordering::Relaxed);
            if park_idle(inner, slot, &reg, &watched, &before, &positions) {
                // Woken by a change: a few more polls before it parks again (what woke it may
                // need a cycle or two of its clock to become visible).
                streak = PARK_AFTER - PARK_REPOLLS;
                backoff = BACKOFF_MIN;
            }
        } else if t0.elapsed() < BACKOFF_MIN {
            // Only a quick execution sleeps: one that took long (its non-blocking decisions
            // waited for the other instances' clocks) would, sleeping, hold back every
            // instance that decides against its clock (a convoy of 200 pollers).
            slot.backoffs.fetch_add(1, Ordering::Relaxed);
            std::thread::sleep(backoff);
            if streak.is_multiple_of(4) {
                backoff = (backoff * 2).min(BACKOFF_MAX);
            }
        }
    }
}

/// An autorun instance that stayed idle for [`PARK_AFTER`] executions (they moved no
/// element: a poller of empty channels) parks until something it can observe changes: an
/// operation on a channel it reaches (`before`: their positions when its last execution
/// began), another execution registering (an enqueued kernel starting), or shutdown; at most
/// [`PARK_MAX`]. Parked, it does not hold the floor of the non-blocking decisions down
/// (`SimWait::Parked`), so the other idle pollers stop deciding against it and park too: idle
/// polling costs no CPU. When it wakes, its clock (rule A1) catches up to the latest clock of
/// the active executions; the polls it skipped could only have failed (they are not counted).
fn park_idle(
    inner: &Inner,
    slot: &AutorunSlot,
    reg: &RunGuard,
    watched: &[Arc<Fifo>],
    before: &[(u64, u64)],
    positions: &dyn Fn() -> Vec<(u64, u64)>,
) -> bool {
    let run = reg.state();
    let regs = inner.activity.registrations();
    if run.timed() {
        run.set_sim(Some(SimWait::Parked));
    }
    slot.parked.store(true, Ordering::Relaxed);
    let t0 = Instant::now();
    let changed = loop {
        let seen = SIM.epoch();
        // Armed before the positions are read: an operation after that read bumps the epoch.
        for f in watched {
            f.arm();
        }
        // FIFO operations publish without a store-load fence (fifo.rs): this barrier makes
        // them see the armed flags or this thread see their counters.
        crate::fifo::heavy_barrier();
        if inner.shutdown.load(Ordering::Relaxed) || t0.elapsed() >= PARK_MAX {
            break false;
        }
        if inner.activity.registrations() != regs || positions() != before {
            break true;
        }
        SIM.wait(seen, PARK_MAX.saturating_sub(t0.elapsed()));
    };
    if run.timed() {
        // The polls it skipped could only have failed: its clock catches up to the latest
        // clock of the active executions (the one whose operation woke it), so it sees what
        // woke it as a poller polling all along would, instead of polling its way there.
        if let Some(now) = inner.activity.active_clock(run) {
            slot.tick.fetch_max(now, Ordering::Relaxed);
            run.publish_clock(slot.tick.load(Ordering::Relaxed));
        }
        run.set_sim(None);
    }
    slot.parked.store(false, Ordering::Relaxed);
    changed
}

/// Idle executions in a row after which an autorun instance parks.
const PARK_AFTER: u64 = 32;
/// Idle executions after a wake before it parks again.
const PARK_REPOLLS: u64 = 4;

/// Longest park of an idle autorun instance (a safety net: every change it can observe wakes
/// it sooner).
const PARK_MAX: Duration = Duration::from_secs(30);

/// Back-off of an autorun execution that moved nothing: the first, and the longest.
const BACKOFF_MIN: Duration = Duration::from_millis(1);
const BACKOFF_MAX: Duration = Duration::from_millis(64);

/// Validates sizes and picks the local size.
/// Global size, local size, number of groups and global offset of a launch.
type Sizes = ([u64; 3], [u64; 3], [u64; 3], [u64; 3]);

fn plan_sizes(inner: &Inner, spec: &LaunchSpec) -> Result<Sizes, LaunchError> {
    let f = &inner.module.kernels[spec.kernel as usize];
    let dim = spec.work_dim;
    if !(1..=3).contains(&dim) {
        return Err(LaunchError::WorkDim(dim));
    }
    let mut g = [1u64; 3];
    let mut off = [0u64; 3];
    for d in 0..dim as usize {
        if spec.global_size[d] == 0 {
            return Err(LaunchError::GlobalSize(format!("dimension {d} is 0")));
        }
        g[d] = spec.global_size[d];
        off[d] = spec.global_offset[d];
        if g[d].checked_add(off[d]).is_none() {
            return Err(LaunchError::GlobalSize("offset + size overflows".into()));
        }
    }
    if g[0]
        .checked_mul(g[1])
        .and_then(|x| x.checked_mul(g[2]))
        .is_none()
    {
        return Err(LaunchError::GlobalSize("too many work-items".into()));
    }
    // max_global_work_dim(0): a single work-item kernel; (N): at most N dimensions in use.
    if let Some(mgd) = f.attrs.max_global_work_dim {
        let used = (0..3)
            .filter(|&d| g[d] > 1)
            .map(|d| d as u32 + 1)
            .max()
            .unwrap_or(0);
        if used > mgd {
            return Err(LaunchError::GlobalSize(format!(
                "kernel '{}' has max_global_work_dim({mgd}) but the global size is {g:?}",
                f.name
            )));
        }
    }
    let max_wg = inner.board.max_work_group_size.min(
        f.attrs
            .max_work_group_size
            .map(|m| m as u64)
            .unwrap_or(u64::MAX),
    );
    let reqd = f.attrs.reqd_work_group_size.map(|r| r.map(|x| x as u64));
    let l = match spec.local_size {
        Some(ls) => {
            let mut l = [1u64; 3];
            for d in 0..dim as usize {
                if ls[d] == 0 || g[d] % ls[d] != 0 {
                    return Err(LaunchError::WorkGroupSize(format!(
                        "local size {} does not divide global size {} in dimension {d}",
                        ls[d], g[d]
                    )));
                }
                l[d] = ls[d];
            }
            if let Some(r) = reqd {
                if r != l {
                    return Err(LaunchError::WorkGroupSize(format!(
                        "local size {l:?} differs from reqd_work_group_size {r:?}"
                    )));
                }
            }
            l
        }
        None => match reqd {
            Some(r) => {
                for d in 0..3 {
                    if g[d] % r[d].max(1) != 0 {
                        return Err(LaunchError::WorkGroupSize(format!(
                            "reqd_work_group_size {r:?} does not divide the global size"
                        )));
                    }
                }
                r.map(|x| x.max(1))
            }
            None => {
                let mut budget = max_wg.min(256);
                let mut l = [1u64; 3];
                for d in 0..dim as usize {
                    let mut best = 1;
                    let mut c = budget.min(g[d]);
                    while c > 1 {
                        if g[d] % c == 0 {
                            best = c;
                            break;
                        }
                        c -= 1;
                    }
                    l[d] = best;
                    budget /= best;
                }
                l
            }
        },
    };
    let items = l[0] * l[1] * l[2];
    if items > max_wg {
        return Err(LaunchError::WorkGroupSize(format!(
            "{items} work-items per group exceed the maximum of {max_wg}"
        )));
    }
    let ng = [g[0] / l[0], g[1] / l[1], g[2] / l[2]];
    Ok((g, l, ng, off))
}

fn decode_value(k: fpgacl_kernel_compiler::ir::Scalar, b: &[u8]) -> u64 {
    let mut v = [0u8; 8];
    let n = b.len().min(8);
    v[..n].copy_from_slice(&b[..n]);
    norm(k, u64::from_le_bytes(v))
}

/// Private memory of a work-group of local size `l`: frames and registers of the work-items
/// alive at the same time (every item of a group with barriers, else one) plus one printf
/// buffer per item for kernels with printf.
fn group_private_bytes(f: &Function, code: &Code, l: [u64; 3]) -> u64 {
    let group = l[0].saturating_mul(l[1]).saturating_mul(l[2]);
    let items = if code.needs_sync { group } else { 1 };
    let per_item = ((f.frame_size as u64).div_ceil(8) + f.num_slots as u64) * 8;
    let printf_bytes = if code.printfs.is_empty() {
        0
    } else {
        group.saturating_mul(std::mem::size_of::<Vec<u8>>() as u64)
    };
    per_item.saturating_mul(items).saturating_add(printf_bytes)
}

/// Executes a kernel: validation, argument binding, scheduling, counter merge. `reg`: the
/// registration of an autorun instance (kept across its executions); `None` registers the
/// execution for its duration.
fn run_kernel(
    inner: &Inner,
    spec: &LaunchSpec,
    cid: [u64; 3],
    autorun_counters: Option<&CounterBlock>,
    clock: Option<&ClockPlan>,
    reg: Option<&RunGuard>,
) -> Result<RunReport, RunError> {
    let t0 = Instant::now();
    let module = &*inner.module;
    let f = &module.kernels[spec.kernel as usize];
    let code = &inner.code[spec.kernel as usize];
    let (g, l, ng, off) = plan_sizes(inner, spec)?;
    if spec.args.len() != f.args.len() {
        return Err(LaunchError::Arg {
            index: spec.args.len().min(f.args.len()) as u32,
            message: format!(
                "kernel '{}' takes {} arguments, {} given",
                f.name,
                f.args.len(),
                spec.args.len()
            ),
        }
        .into());
    }
    // The compiling backend compiled the kernel as the program loaded, or is compiling it
    // (then this waits), or compiles it now (once; later launches and workers reuse it).
    if inner.jit {
        // Groups of one work-item: the variant without issue counters (`jit::Spec::single`).
        let single = l.iter().product::<u64>() == 1;
        crate::exec::jit::prepare(code, module, f, single, || inner.jit_spec(spec.kernel, f));
    }
    let mut regs = vec![0u64; f.num_slots as usize];
    for &(slot, v) in &code.const_init {
        if let Some(r) = regs.get_mut(slot as usize) {
            *r = v;
        }
    }
    let fw = (f.frame_size as usize).div_ceil(8);
    let mut frame = vec![0u64; fw];
    let mut regions = vec![Region::EMPTY; REGION_FIRST_ARG as usize + f.args.len()];
    regions[3] = Region {
        base: module.constant_data.as_ptr() as *mut u8,
        len: module.constant_data.len() as u64,
        writable: false,
    };
    let mut local_bytes = (f.local_size as u64).next_multiple_of(16);
    let mut local_args = Vec::new();
    let mut pipes: Vec<Option<Arc<Fifo>>> = vec![None; f.args.len()];
    for (i, (a, b)) in f.args.iter().zip(&spec.args).enumerate() {
        let bad = |m: String| {
            RunError::Launch(LaunchError::Arg {
                index: i as u32,
                message: m,
            })
        };
        let r = a.reg.0 as usize;
        match (&a.kind, b) {
            (ArgKind::Value { ty }, ArgBinding::Value(bytes)) => {
                let es = ty.scalar.size() as usize;
                let n = ty.lanes.max(1) as usize;
                if bytes.len() < es * n {
                    return Err(bad(format!(
                        "'{}' needs {} bytes, {} given",
                        a.name,
                        es * n,
                        bytes.len()
                    )));
                }
                for lane in 0..n {
                    if let Some(s) = regs.get_mut(r + lane) {
                        *s = decode_value(ty.scalar, &bytes[lane * es..(lane + 1) * es]);
                    }
                }
            }
            (
                ArgKind::ByValue {
                    size, frame_offset, ..
                },
                ArgBinding::Value(bytes),
            ) => {
                let (size, fo) = (*size as usize, *frame_offset as usize);
                if bytes.len() < size {
                    return Err(bad(format!("'{}' needs {size} bytes", a.name)));
                }
                if fo + size > fw * 8 {
                    return Err(bad("struct argument outside the private frame".into()));
                }
                let mut fb: Vec<u8> = frame.iter().flat_map(|w| w.to_le_bytes()).collect();
                fb[fo..fo + size].copy_from_slice(&bytes[..size]);
                for (w, c) in frame.iter_mut().zip(fb.chunks(8)) {
                    *w = u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
                }
                if let Some(s) = regs.get_mut(r) {
                    *s = make_ptr(REGION_PRIVATE, fo as u64);
                }
            }
            (ArgKind::Buffer { space, .. }, ArgBinding::Buffer { mem, offset, len }) => {
                let region = match mem {
                    None => Region::EMPTY,
                    Some(m) => {
                        if offset.checked_add(*len).is_none_or(|e| e > m.len()) {
                            return Err(bad(format!(
                                "sub-buffer {offset}+{len} outside a buffer of {}",
                                m.len()
                            )));
                        }
                        Region {
                            // SAFETY: offset <= len of the allocation (checked above).
                            base: unsafe { m.as_ptr().add(*offset) },
                            len: *len as u64,
                            writable: *space != AddrSpace::Constant,
                        }
                    }
                };
                regions[REGION_FIRST_ARG as usize + i] = region;
                if let Some(s) = regs.get_mut(r) {
                    // A NULL `cl_mem` is a NULL pointer in the kernel (OpenCL 1.2
                    // clSetKernelArg): it compares equal to 0 and any access through it faults.
                    *s = if mem.is_some() {
                        make_ptr(REGION_FIRST_ARG + i as u64, 0)
                    } else {
                        0
                    };
                }
            }
            (ArgKind::Image { dim, .. }, ArgBinding::Buffer { mem, offset, len }) => {
                // An image's memory is its header then its pixels (`crate::image`).
                let Some(m) = mem
                    .as_ref()
                    .filter(|m| offset.checked_add(*len).is_some_and(|e| e <= m.len()))
                else {
                    return Err(bad(format!(
                        "image argument '{}' is NULL or outside its memory",
                        a.name
                    )));
                };
                let mut hb = [0u8; crate::image::HEADER_BYTES];
                let header = m
                    .read(*offset, &mut hb)
                    .and_then(|_| crate::image::ImageHeader::decode(&hb));
                match header {
                    Some(h)
                        if h.kind == dim.mem_object_type() && h.total_bytes() <= *len as u64 => {}
                    Some(h) => {
                        return Err(bad(format!(
                            "'{}' is a {:?} image but was bound to an image of type {:#x}",
                            a.name, dim, h.kind
                        )))
                    }
                    None => {
                        return Err(bad(format!(
                            "image argument '{}' was bound to a memory object that is not an image",
                            a.name
                        )))
                    }
                }
                regions[REGION_FIRST_ARG as usize + i] = Region {
                    // SAFETY: the header read above checked offset + 64 <= len of `m`.
                    base: unsafe { m.as_ptr().add(*offset) },
                    len: *len as u64,
                    writable: true,
                };
                if let Some(s) = regs.get_mut(r) {
                    *s = make_ptr(REGION_FIRST_ARG + i as u64, 0);
                }
            }
            (ArgKind::Sampler, ArgBinding::Value(bytes)) => {
                let Some(b) = bytes.get(..4) else {
                    return Err(bad(format!("sampler '{}' needs 4 bytes", a.name)));
                };
                if let Some(s) = regs.get_mut(r) {
                    *s = u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64;
                }
            }
            (ArgKind::LocalPtr { .. }, ArgBinding::Local(size)) => {
                if *size == 0 {
                    return Err(bad(format!("local argument '{}' has size 0", a.name)));
                }
                // Each `__local` buffer starts aligned to 128 bytes, the alignment of the
                // largest OpenCL C type (long16/double16, OpenCL C 1.2 6.1.5), so a buffer is
                // aligned for any type it is used as (the conformance suite reads a `long2 *`
                // argument as 4 elements and expects 32-byte alignment).
                let o =
                    local_bytes
                        .checked_next_multiple_of(128)
                        .ok_or(LaunchError::LocalMemory {
                            needed: u64::MAX,
                            limit: inner.board.local_mem_bytes,
                        })?;
                local_args.push((i as u32, o, *size as u64));
                local_bytes = o
                    .checked_add(*size as u64)
                    .and_then(|e| e.checked_next_multiple_of(16))
                    .filter(|&e| e <= inner.board.local_mem_bytes)
                    .ok_or(LaunchError::LocalMemory {
                        needed: o.saturating_add(*size as u64),
                        limit: inner.board.local_mem_bytes,
                    })?;
                if let Some(s) = regs.get_mut(r) {
                    *s = local_ptr(o);
                }
            }
            (ArgKind::Pipe { packet_size, .. }, ArgBinding::Pipe(p)) => {
                if p.elem_size() != *packet_size {
                    return Err(bad(format!(
                        "pipe packet size {} differs from the argument's {}",
                        p.elem_size(),
                        packet_size
                    )));
                }
                pipes[i] = Some(p.clone());
                if let Some(s) = regs.get_mut(r) {
                    *s = i as u64;
                }
            }
            (k, b) => {
                return Err(bad(format!(
                    "'{}' is {:?} but was bound to {}",
                    a.name,
                    k,
                    match b {
                        ArgBinding::Value(_) => "a value",
                        ArgBinding::Buffer { .. } => "a buffer",
                        ArgBinding::Local(_) => "a local size",
                        ArgBinding::Pipe(_) => "a pipe",
                    }
                )))
            }
        }
    }
    if local_bytes > inner.board.local_mem_bytes {
        return Err(LaunchError::LocalMemory {
            needed: local_bytes,
            limit: inner.board.local_mem_bytes,
        }
        .into());
    }
    let needed = group_private_bytes(f, code, l);
    if needed > MAX_GROUP_PRIVATE_BYTES {
        return Err(LaunchError::PrivateMemory {
            items: l[0] * l[1] * l[2],
            needed,
            limit: MAX_GROUP_PRIVATE_BYTES,
        }
        .into());
    }
    let sequential = code.uses_fifos;
    let plan = Plan {
        module,
        func: f,
        code,
        dim: spec.work_dim,
        gsize: g,
        lsize: l,
        ngroups: ng,
        offset: off,
        cid,
        reg_template: regs,
        frame_template: frame,
        local_bytes: local_bytes as usize,
        regions,
        local_args,
        word_bytes: inner.board.mem_word_bytes(),
        max_burst_words: inner.board.max_burst_words(),
        coalesce: inner.coalesce_of(spec.kernel, f),
        clock,
        oob_fault: inner.oob_fault,
    };
    // Timed executions with channels/pipes take part in the conservative decision of
    // non-blocking FIFO operations (rule F); the others cannot write or read their FIFOs in
    // simulated time.
    let mut own: Option<RunGuard> = None;
    let guard: &RunGuard = match reg {
        Some(g) => {
            if let Some(c) = clock {
                g.state().publish_clock(c.start_tick);
            }
            g
        }
        None => own.insert(inner.activity.register_timed(
            &f.name,
            f.attrs.autorun,
            [cid[0] as u32, cid[1] as u32, cid[2] as u32],
            clock.filter(|_| sequential).map(|c| c.start_tick),
        )),
    };
    let total = plan.total_groups();
    let nsites = module.sites.len();
    let nloops = f.loops.len();
    let sink = |b: &[u8]| inner.printf.write(b);
    let printf = PrintfStream::new(&sink);
    let own_counters;
    let counters: &CounterBlock = match autorun_counters {
        Some(c) => c,
        None => {
            own_counters = CounterBlock::new(nsites, nloops);
            &own_counters
        }
    };
    let threads = if sequential {
        1
    } else {
        (inner.threads as u64).min(total).max(1) as usize
    };
    // Watchdog for enqueued kernels (autorun kernels run until their program goes away).
    let deadline = if f.attrs.autorun {
        None
    } else {
        kernel_timeout().map(|d| (t0 + d, d.as_millis() as u64))
    };
    let fifo_env = || FifoEnv {
        channels: &inner.channels,
        chan_base: &inner.chan_base,
        pipes: &pipes,
        run: guard.state(),
        activity: &inner.activity,
        shutdown: &inner.shutdown,
        deadline,
    };
    let end_tick;
    let mut oob: Vec<OobSite>;
    let workers: Vec<WorkerStats>;
    let result: Result<(), Box<KernelFault>> = if threads == 1 {
        let mut w = Worker::new(&plan, counters, clock, Some(fifo_env()), &printf);
        let mut r = Ok(());
        let mut groups = 0;
        for gi in 0..total {
            groups += 1;
            if let Err(e) = w.run_group(gi) {
                r = Err(e);
                break;
            }
        }
        workers = vec![WorkerStats {
            groups,
            done_at: t0.elapsed(),
            cpu: None,
        }];
        end_tick = clock.map(|_| w.m.clock);
        oob = w.take_oob();
        r
    } else {
        let queue = GroupQueue::new(total, threads);
        // The lowest group that faulted so far: groups after it are not started, groups before
        // it still run, so the fault reported is the first in group order (the one a single
        // worker meets) whichever worker meets which fault first.
        let stop_at = AtomicU64::new(u64::MAX);
        let first_fault: Mutex<Option<(u64, Box<KernelFault>)>> = Mutex::new(None);
        let oob_all: Mutex<Vec<OobSite>> = Mutex::new(Vec::new());
        // Ticks the workers' clocks advanced, summed (wrapping). Without channels or pipes a
        // clock only adds costs of the work-items a worker ran, and every loop's C2 flag is set
        // at the loop's entry before it is read, so no clock state crosses a work-item: the sum
        // of the advances is the advance of one worker running every group in order.
        let advanced = AtomicU64::new(0);
        let stats: Mutex<Vec<WorkerStats>> = Mutex::new(vec![WorkerStats::default(); threads]);
        let work = |index: usize| {
            let cpu0 = thread_cpu_time();
            let mut groups = 0;
            // Each worker counts into a block of its own (whole cache lines, no false sharing)
            // and merges it once at its end.
            let local = CounterBlock::new(nsites, nloops);
            // The per-loop flags of rule C2's floor are execution state: each worker has its
            // own (a clone starts with them cleared).
            let own_clock = clock.cloned();
            let mut w = Worker::new(&plan, &local, own_clock.as_ref(), Some(fifo_env()), &printf);
            // Claims come in increasing group order: once a group is at or after `stop_at`,
            // so is every later claim.
            'outer: while let Some(chunk) = queue.claim() {
                for gi in chunk {
                    if gi >= stop_at.load(Ordering::Relaxed) {
                        break 'outer;
                    }
                    groups += 1;
                    if let Err(e) = w.run_group(gi) {
                        stop_at.fetch_min(gi, Ordering::Relaxed);
                        let mut ff = first_fault.lock();
                        if ff.as_ref().is_none_or(|(g0, _)| gi < *g0) {
                            *ff = Some((gi, e));
                        }
                        break 'outer;
                    }
                }
            }
            let done_at = t0.elapsed();
            let cpu = thread_cpu_time()
                .zip(cpu0)
                .map(|(b, a)| b.saturating_sub(a));
            stats.lock()[index] = WorkerStats {
                groups,
                done_at,
                cpu,
            };
            if let Some(c) = clock {
                advanced.fetch_add(w.m.clock.wrapping_sub(c.start_tick), Ordering::Relaxed);
            }
            let sites = w.take_oob();
            if !sites.is_empty() {
                merge_oob(&mut oob_all.lock(), sites);
            }
            drop(w);
            // Merge counters; the order of merges does not change the sums.
            static MERGE: parking_lot::Mutex<()> = parking_lot::Mutex::new(());
            let _m = MERGE.lock();
            counters.merge_from(&local);
        };
        // The calling thread is one of the workers: `threads - 1` are started per launch.
        std::thread::scope(|s| {
            let work = &work;
            for index in 1..threads {
                s.spawn(move || work(index));
            }
            work(0);
        });
        workers = stats.into_inner();
        if log::log_enabled!(log::Level::Debug) {
            let each: Vec<String> = workers
                .iter()
                .map(|w| {
                    format!(
                        "{} groups, done at {:.2} ms, cpu {:.2} ms",
                        w.groups,
                        w.done_at.as_secs_f64() * 1e3,
                        w.cpu.unwrap_or_default().as_secs_f64() * 1e3
                    )
                })
                .collect();
            log::debug!(
                "kernel {}: {total} groups on {threads} workers, all joined at {:.2} ms: {}",
                f.name,
                t0.elapsed().as_secs_f64() * 1e3,
                each.join("; ")
            );
        }
        oob = oob_all.into_inner();
        end_tick = clock.map(|c| c.start_tick.wrapping_add(advanced.into_inner()));
        match first_fault.into_inner() {
            Some((_, f)) => Err(f),
            None => Ok(()),
        }
    };
    // Output still held, in group order (none of groups after a fault's group).
    printf.finish_all();
    // Counters and wake-ups this thread's FIFO operations held back (fifo.rs) are due now.
    crate::fifo::end_execution();
    drop(own);
    if !oob.is_empty() {
        oob.sort_by(|a, b| {
            let k = |s: &OobSite| (s.pos.as_ref().map(|p| (p.line, p.col)), s.op, s.write);
            k(a).cmp(&k(b))
        });
        report_oob(inner, spec.kernel, &oob);
    }
    result.map_err(RunError::Fault)?;
    Ok(RunReport {
        kernel: f.name.clone(),
        work_dim: spec.work_dim,
        global_size: g,
        local_size: l,
        num_groups: ng,
        work_items: g[0] * g[1] * g[2],
        counters: counters.snapshot(),
        threads,
        host_time: t0.elapsed(),
        end_tick,
        oob,
        workers,
    })
}

/// `FPGACL_KERNEL_TIMEOUT_S` (seconds, fractions allowed): the longest host time an enqueued
/// kernel may run before the watchdog stops it; unset, empty or not a positive number: none.
/// Read once per process (not at every launch: a burst of tiny kernels would spend a
/// measurable part of each launch in `getenv`).
fn kernel_timeout() -> Option<Duration> {
    static TIMEOUT: std::sync::OnceLock<Option<Duration>> = std::sync::OnceLock::new();
    *TIMEOUT.get_or_init(|| {
        let v = std::env::var("FPGACL_KERNEL_TIMEOUT_S").ok()?;
        let s: f64 = v.trim().parse().ok()?;
        (s.is_finite() && s > 0.0).then(|| Duration::from_secs_f64(s.min(1e9)))
    })
}

/// Adds one worker's out-of-bounds sites to a run's (the same op and direction merge).
fn merge_oob(all: &mut Vec<OobSite>, sites: Vec<OobSite>) {
    for s in sites {
        match all.iter_mut().find(|a| a.op == s.op && a.write == s.write) {
            Some(a) => a.merge(&s),
            None => all.push(s),
        }
    }
}

/// Writes each out-of-bounds site on stderr the first time this program instance meets it.
fn report_oob(inner: &Inner, kernel: u32, sites: &[OobSite]) {
    let mut seen = inner.oob_seen.lock();
    for s in sites {
        if seen.insert((kernel, s.op, s.write)) {
            eprintln!("fpgacl: warning: {s}");
        }
    }
}
