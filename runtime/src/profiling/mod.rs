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
use fpgacl_profile_format::{AutorunCapture, MemTransfer, Record, TransferDirection};

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
/// environment asks for it (invalid variables are reported once on stderr).
pub fn context_created() {
    if let Some(dev) = platform().devices.first() {
        session::open_once(&dev.board);
    }
}

/// The active session, if any.
pub fn current() -> Option<&'static Session> {
    session::current()
}

/// A program was loaded on `dev`: writes its `Program` frame (sources, static report).
pub fn program_loaded(instance: &Arc<ProgramInstance>, dev: &Device) {
    if let Some(s) = session::current() {
        s.add_program(instance, dev.index as u32, &dev.board);
    }
}

/// Runs a kernel launch, through its probe when the session follows it.
pub fn run_launch(launch: &Launch, probe: Option<&KernelProbe>) -> Result<RunReport, RunError> {
    match probe {
        Some(p) => p.run(launch),
        None => launch.run(),
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
    ev.set_end_hook(Box::new(move |status, times| {
        if status != CL_COMPLETE {
            return;
        }
        let start = s.rel_ns(times[2]);
        s.write(&[Record::MemTransfer(MemTransfer {
            device,
            queue,
            direction,
            bytes: bytes as u64,
            start_ns: start,
            end_ns: s.rel_ns(times[3]).max(start),
        })]);
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
        s.write(&[p.snapshot(ev)]);
    }
    Ok(())
}

/// `clGetProfileDataDeviceIntelFPGA`: with `read_auto`, one `AutorunCapture` per compute unit
/// of every autorun kernel of `program` (all programs of the device when `None`), counters
/// since the previous cleared capture; `clear` then restarts the counters. With
/// `read_enqueued`, a `Snapshot` of every enqueued kernel of those programs still running.
/// Capture times are ns since host start and increase from call to call.
pub fn capture_device(
    dev: &Device,
    program: Option<&Arc<ProgramInstance>>,
    read_enqueued: bool,
    read_auto: bool,
    clear: bool,
) -> CLResult<()> {
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
    let now = s.capture_time();
    for (inst, info) in &programs {
        if read_auto {
            let since = info
                .autorun_since_ns
                .load(std::sync::atomic::Ordering::Relaxed);
            let (c0, c1) = (s.cycles(since), s.cycles(now));
            let scale = s.config.window.overlap(c0, c1);
            for st in inst.autorun_status() {
                records.push(Record::AutorunCapture(AutorunCapture {
                    device: info.device,
                    kernel: st.kernel.clone(),
                    program: info.id,
                    compute_unit: st.compute_id,
                    capture_ns: now,
                    sites: info
                        .sites
                        .map(st.kernel_index, &st.counters, st.runs, c1 - c0, scale),
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
                        records.push(p.snapshot(&ev));
                    }
                }
            }
        }
    }
    s.write(&records);
    Ok(())
}

fn running_event(p: &KernelProbe) -> Option<Arc<Event>> {
    p.event().filter(|e| e.status() == CL_RUNNING)
}
