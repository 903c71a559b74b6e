//! The profiling session: `profile.mon` written while the host runs, configured by the
//! environment as Intel's FPGA runtime is ([`config`]), plus the Intel FPGA extension
//! functions that read counters on demand (`clGetProfileInfoIntelFPGA`,
//! `clGetProfileDataDeviceIntelFPGA`) and the host-pipe calls ([`host_pipe`]).
//!
//! The rest of the runtime calls the hooks below; each costs one atomic load when profiling
//! is off:
//! * [`context_created`]: the first context opens the session (creates the file, header);
//! * [`program_loaded`]: a built program's sources and static report (`Program` frame);
//! * [`KernelProbe`] around each enqueued kernel: its `KernelRun` record when its event
//!   completes (times = the event's START/END);
//! * [`transfer`]: `MemTransfer` records (`ACL_PROFILE_TIMER=1`);
//! * [`snapshot_event`] and [`capture_device`]: the extension functions.
//!
//! Record times are nanoseconds since the session opened (the header's start time), on the
//! same clock as the events' profiling timestamps; cycles are those nanoseconds at the board's
//! kernel clock.

pub mod config;
pub mod counters;
pub mod host_pipe;
pub mod probe;
pub mod program;
pub mod session;

use std::sync::Arc;

use fpgacl_device_model::counters::CounterBlock;
use fpgacl_device_model::timing::ClockPlan;
use fpgacl_device_model::{LaunchSpec, ProgramInstance, RunError, RunReport};
use fpgacl_profile_format::{AutorunCapture, HostGap, MemTransfer, Record, TransferDirection};

use crate::cl::*;
use crate::device::{platform, Device};
use crate::error::CLResult;
use crate::event::Event;
use crate::program::launch::Launch;
use crate::queue::Queue;

pub use config::{CycleWindow, ProfileConfig};
pub use probe::KernelProbe;
pub use session::Session;

/// Direction of a memory transfer command.
pub type Direction = TransferDirection;

/// A context was created: the first one of the process opens the profiling session when the
/// environment asks for it (invalid variables are reported once on stderr). It also gives the
/// device model the device timeline's clock (the host's position on it, the QUEUED time of
/// commands), so autorun kernels of programs loaded later start their clock at their load time.
pub fn context_created() {
    fpgacl_device_model::program::set_timeline_clock(crate::clock::device_now_ns);
    if let Some(dev) = platform().devices.first() {
        session::open_once(&dev.board);
    }
}

/// The active session, if any.
pub fn current() -> Option<&'static Session> {
    session::current()
}

/// A program was loaded on `dev`: writes its `Program` frame (sources, static report).
/// `board` is the program's (the device's at the program's `-clock`).
pub fn program_loaded(
    instance: &Arc<ProgramInstance>,
    dev: &Device,
    board: &fpgacl_device_model::Board,
) {
    if let Some(s) = session::current() {
        s.add_program(instance, dev.index as u32, board);
    }
}

/// Runs a kernel launch, through its probe when the session follows it (which keeps the run's
/// report for its record).
pub fn run_launch(launch: &Launch, probe: Option<&KernelProbe>) -> Result<(), RunError> {
    match probe {
        Some(p) => p.run(launch),
        None => launch.run().map(drop),
    }
}

thread_local! {
    /// The live counter block of the probe running a launch on this (queue worker) thread.
    static LIVE: std::cell::RefCell<Option<Arc<CounterBlock>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` with `live` as this thread's live counter block (see [`run_on_device`]).
pub(crate) fn with_live_counters<R>(live: Option<Arc<CounterBlock>>, f: impl FnOnce() -> R) -> R {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            LIVE.with(|l| l.borrow_mut().take());
        }
    }
    LIVE.with(|l| *l.borrow_mut() = live);
    let _reset = Reset;
    f()
}

/// Runs a kernel on the device model (`Launch::run` calls this): `run` / `run_timed`, or, when
/// a probe of the profiling session runs the launch on this thread, counting into the probe's
/// live block so `clGetProfileInfoIntelFPGA` can read the counters while it runs.
pub fn run_on_device(
    instance: &ProgramInstance,
    spec: &LaunchSpec,
    clock: Option<&ClockPlan>,
) -> Result<RunReport, RunError> {
    let live = LIVE.with(|l| l.borrow().clone());
    match (live, clock) {
        (Some(block), clock) => instance.run_timed_with_counters(spec, clock, &block),
        (None, Some(c)) => instance.run_timed(spec, c),
        (None, None) => instance.run(spec),
    }
}

/// A memory transfer command was enqueued: with `ACL_PROFILE_TIMER=1` its `MemTransfer`
/// record is written when it completes.
pub fn transfer(q: &Arc<Queue>, ev: &Arc<Event>, direction: Direction, bytes: usize) {
    let Some(s) = session::current() else {
        return;
    };
    if !s.config.timer {
        return;
    }
    let device = q.device.index as u32;
    let queue = s.queue_id(q);
    let seq = s.reserve();
    let host_gap = crate::clock::call_gap_ns();
    ev.set_end_hook(Box::new(move |status, times| {
        if status != CL_COMPLETE {
            s.write_in_order(seq, Vec::new());
            return;
        }
        let start = s.rel_ns(times[2]);
        let gap = host_gap.map(|gap_ns| {
            Record::HostGap(HostGap {
                device,
                queue,
                run_id: None,
                command: direction.as_str().to_string(),
                queued_ns: s.rel_ns(times[0]).min(start),
                gap_ns,
            })
        });
        s.write_in_order(
            seq,
            gap.into_iter()
                .chain([Record::MemTransfer(MemTransfer {
                    device,
                    queue,
                    direction,
                    bytes: bytes as u64,
                    start_ns: start,
                    end_ns: s.rel_ns(times[3]).max(start),
                })])
                .collect(),
        );
    }));
}

fn is_kernel_command(ev: &Event) -> bool {
    matches!(ev.command_type, CL_COMMAND_NDRANGE_KERNEL | CL_COMMAND_TASK)
}

/// `clGetProfileInfoIntelFPGA`: writes a `Snapshot` of the kernel run of `ev` while it is
/// running. `CL_INVALID_EVENT` when `ev` is not a kernel command or is not running (queued,
/// finished or failed). With profiling off it checks the event and writes nothing.
pub fn snapshot_event(ev: &Arc<Event>) -> CLResult<()> {
    if !is_kernel_command(ev) || ev.status() != CL_RUNNING {
        return Err(CL_INVALID_EVENT);
    }
    let Some(s) = session::current() else {
        return Ok(());
    };
    if !s.config.counters() {
        return Ok(());
    }
    if let Some(p) = s.running().into_iter().find(|p| p.follows(ev)) {
        // Written at once, before the run's own record (not in the sequence: a snapshot's
        // counts depend on when the host looks).
        s.write(&[p.snapshot(ev)]);
    }
    Ok(())
}

/// Whether autorun counters accumulate across `clGetProfileDataDeviceIntelFPGA` reads
/// (`FPGACL_AUTORUN_CUMULATIVE=1`: restarted only by `clear_counters_after_readback`).
/// By default every read restarts them, as Intel's runtime does.
pub const AUTORUN_CUMULATIVE_VAR: &str = "FPGACL_AUTORUN_CUMULATIVE";

fn autorun_cumulative() -> bool {
    static CUMULATIVE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *CUMULATIVE.get_or_init(|| {
        std::env::var(AUTORUN_CUMULATIVE_VAR).is_ok_and(|v| {
            matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "1" | "true" | "yes" | "on"
            )
        })
    })
}

/// `clGetProfileDataDeviceIntelFPGA`: with `read_auto`, one `AutorunCapture` per compute unit
/// of every autorun kernel of `program` (all programs of the device when `None`), counters
/// since the previous read (Intel's semantics: every read restarts the autorun counters;
/// with `FPGACL_AUTORUN_CUMULATIVE=1`, since the previous cleared capture, and `clear` then
/// restarts them). With
/// `read_enqueued`, a `Snapshot` of every enqueued kernel of those programs still running.
/// Capture times are ns since host start and increase from call to call.
pub fn capture_device(
    dev: &Device,
    program: Option<&Arc<ProgramInstance>>,
    read_enqueued: bool,
    read_auto: bool,
    clear: bool,
) -> CLResult<()> {
    let clear = clear || !autorun_cumulative();
    let Some(s) = session::current() else {
        if let (true, Some(inst)) = (clear, program) {
            inst.clear_autorun_counters();
        }
        return Ok(());
    };
    if !s.config.counters() {
        return Ok(());
    }
    let programs = s.programs_of_device(dev.index as u32, program);
    let mut records = Vec::new();
    let mut snapshots = Vec::new();
    let seq = s.reserve();
    let now = s.capture_time();
    for (inst, info) in &programs {
        if read_auto {
            let since = info
                .autorun_since_ns
                .load(std::sync::atomic::Ordering::Relaxed);
            let (c0, c1) = (s.cycles(since), s.cycles(now));
            for st in inst.autorun_status() {
                let sites = match timed_capture(s, info, dev, &st) {
                    Some(sites) => sites,
                    None => {
                        let scale = s.config.window.overlap(c0, c1);
                        let runs = st.window.map_or(st.runs, |w| w.runs);
                        info.sites
                            .map(st.kernel_index, &st.counters, runs, c1 - c0, scale)
                    }
                };
                records.push(Record::AutorunCapture(AutorunCapture {
                    device: info.device,
                    kernel: st.kernel.clone(),
                    program: info.id,
                    compute_unit: st.compute_id,
                    capture_ns: now,
                    sites,
                    cleared: clear,
                }));
            }
            if clear {
                inst.clear_autorun_counters();
                info.autorun_since_ns
                    .store(now, std::sync::atomic::Ordering::Relaxed);
            }
        }
        if read_enqueued {
            for p in s.running() {
                if p.program_id() == info.id {
                    if let Some(ev) = running_event(&p) {
                        snapshots.push(p.snapshot(&ev));
                    }
                }
            }
        }
    }
    // Snapshots of running kernels are written at once (their counts depend on when the host
    // looks anyway), before the run's own record; captures take their place in order.
    s.write(&snapshots);
    s.write_in_order(seq, records);
    Ok(())
}

/// The counters of an autorun capture from the timing model (`MODEL.md`, rule A2): the
/// instance's counts since the last clear, evaluated as one run with `timing::evaluate` over
/// its simulated-time window (`AutorunStatus::window`: from its clock at the clear, for what
/// its clock advanced by for these counts, an execution in flight included), so channel
/// stalls, occupancy and bandwidth follow the same rules as enqueued kernels. `None` when the
/// instance runs untimed or the kernel has no report (then the functional mapping is used).
fn timed_capture(
    s: &Session,
    info: &session::ProgramInfo,
    dev: &Device,
    st: &fpgacl_device_model::AutorunStatus,
) -> Option<Vec<fpgacl_profile_format::SiteCounters>> {
    use fpgacl_device_model::timing::{self, EvalOptions, TICKS_PER_CYCLE};
    let w = st.window?;
    let rep = info.report.kernel(&st.kernel)?;
    let start_cycle = w.start_tick / TICKS_PER_CYCLE;
    // The window's length on a whole-cycle start.
    let end_tick = (start_cycle * TICKS_PER_CYCLE).saturating_add(w.end_tick - w.start_tick);
    let run = RunReport {
        kernel: st.kernel.clone(),
        work_dim: 1,
        global_size: [1; 3],
        local_size: [1; 3],
        num_groups: [1; 3],
        work_items: w.runs,
        counters: st.counters.clone(),
        threads: 1,
        host_time: std::time::Duration::ZERO,
        end_tick: Some(end_tick),
        oob: Vec::new(),
        workers: Vec::new(),
    };
    let opts = EvalOptions {
        start_cycle,
        end_tick: Some(end_tick),
        ..Default::default()
    };
    let t = timing::evaluate(&info.module, rep, &dev.board, &run, &opts).ok()?;
    let scale = s.config.window.overlap(t.start_cycle, t.end_cycle);
    let mut sites = t.sites;
    if scale < 1.0 {
        for c in &mut sites {
            counters::scale_counters(c, scale.max(0.0));
        }
    }
    Some(sites)
}

fn running_event(p: &KernelProbe) -> Option<Arc<Event>> {
    p.event().filter(|e| e.status() == CL_RUNNING)
}
