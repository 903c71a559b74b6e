//! Which kernels are running and which are blocked on which channel or pipe: the state the
//! runtime needs to diagnose deadlocks while the host waits.
//!
//! Every kernel execution (enqueued or autorun) registers a [`RunState`] with the device's
//! [`Activity`] for its duration. A channel/pipe operation that has to wait records what it
//! waits for in its `RunState`; when it resumes it clears it and bumps the activity's progress
//! counter. The runtime's wait loop samples [`Activity::report`] twice over an interval: if every
//! running enqueued kernel is blocked in both samples and the progress counter did not move,
//! nothing on the device can unblock them, and the runtime calls [`Activity::abort_blocked`],
//! which makes each blocked kernel stop with a `Deadlock` fault that names the channel and line.

use crate::fault::SourcePos;
use parking_lot::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// What a blocked kernel waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockedOn {
    /// Channel (`c_in[2]`) or pipe argument name.
    pub fifo: String,
    /// Waiting to write (FIFO full / rendezvous) rather than to read (FIFO empty).
    pub write: bool,
    /// Source position of the channel/pipe call.
    pub pos: Option<SourcePos>,
}

impl std::fmt::Display for BlockedOn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "blocked {} '{}'",
            if self.write { "writing" } else { "reading" },
            self.fifo
        )?;
        if let Some(p) = &self.pos {
            write!(f, " at {p}")?;
        }
        Ok(())
    }
}

/// One running kernel execution.
#[derive(Debug)]
pub struct RunState {
    pub id: u64,
    pub kernel: String,
    pub autorun: bool,
    /// `get_compute_id` of an autorun/compute-unit instance (zeros otherwise).
    pub compute_id: [u32; 3],
    abort: AtomicBool,
    blocked: Mutex<Option<BlockedOn>>,
}

impl RunState {
    /// Whether the runtime asked this execution to stop.
    pub fn abort_requested(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
    }
    /// What it is blocked on right now.
    pub fn blocked_on(&self) -> Option<BlockedOn> {
        self.blocked.lock().clone()
    }
    pub(crate) fn set_blocked(&self, b: Option<BlockedOn>) {
        *self.blocked.lock() = b;
    }
}

/// A row of [`ActivityReport`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelActivity {
    pub id: u64,
    pub kernel: String,
    pub autorun: bool,
    pub compute_id: [u32; 3],
    pub blocked: Option<BlockedOn>,
}

impl std::fmt::Display for KernelActivity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "kernel '{}'", self.kernel)?;
        if self.autorun {
            write!(
                f,
                " (autorun, compute id {},{},{})",
                self.compute_id[0], self.compute_id[1], self.compute_id[2]
            )?;
        }
        match &self.blocked {
            Some(b) => write!(f, " {b}"),
            None => write!(f, " running"),
        }
    }
}

/// The state of all kernel executions of a device at one moment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ActivityReport {
    /// Increases whenever a blocked operation resumes or a kernel execution starts or ends.
    pub progress: u64,
    pub kernels: Vec<KernelActivity>,
}

impl ActivityReport {
    /// Enqueued (not autorun) executions that are running.
    pub fn enqueued(&self) -> impl Iterator<Item = &KernelActivity> {
        self.kernels.iter().filter(|k| !k.autorun)
    }
    /// True when at least one enqueued kernel runs and every enqueued kernel is blocked.
    pub fn all_enqueued_blocked(&self) -> bool {
        let mut any = false;
        for k in self.enqueued() {
            any = true;
            if k.blocked.is_none() {
                return false;
            }
        }
        any
    }
}

/// Registry of running kernel executions of one device (shared by all program instances of
/// the device, so that pipes between programs are covered).
#[derive(Debug, Default)]
pub struct Activity {
    next_id: AtomicU64,
    progress: AtomicU64,
    running: Mutex<Vec<Arc<RunState>>>,
}

impl Activity {
    pub fn new() -> Arc<Activity> {
        Arc::new(Activity::default())
    }

    /// Registers an execution; it is removed when the guard drops.
    pub fn register(
        self: &Arc<Self>,
        kernel: &str,
        autorun: bool,
        compute_id: [u32; 3],
    ) -> RunGuard {
        let st = Arc::new(RunState {
            id: self.next_id.fetch_add(1, Ordering::Relaxed),
            kernel: kernel.to_string(),
            autorun,
            compute_id,
            abort: AtomicBool::new(false),
            blocked: Mutex::new(None),
        });
        self.running.lock().push(st.clone());
        self.bump();
        RunGuard {
            activity: self.clone(),
            state: st,
        }
    }

    pub(crate) fn bump(&self) {
        self.progress.fetch_add(1, Ordering::Relaxed);
    }

    /// The progress counter alone.
    pub fn progress(&self) -> u64 {
        self.progress.load(Ordering::Relaxed)
    }

    /// Running executions and what each is blocked on.
    pub fn report(&self) -> ActivityReport {
        let progress = self.progress();
        let kernels = self
            .running
            .lock()
            .iter()
            .map(|s| KernelActivity {
                id: s.id,
                kernel: s.kernel.clone(),
                autorun: s.autorun,
                compute_id: s.compute_id,
                blocked: s.blocked_on(),
            })
            .collect();
        ActivityReport { progress, kernels }
    }

    /// Makes every blocked enqueued (non-autorun) execution stop with a `Deadlock` fault;
    /// returns the executions it aborted. Autorun kernels are never aborted (waiting for data
    /// is their normal state).
    pub fn abort_blocked(&self) -> Vec<KernelActivity> {
        let mut out = Vec::new();
        for s in self.running.lock().iter() {
            if s.autorun {
                continue;
            }
            if let Some(b) = s.blocked_on() {
                s.abort.store(true, Ordering::Relaxed);
                out.push(KernelActivity {
                    id: s.id,
                    kernel: s.kernel.clone(),
                    autorun: false,
                    compute_id: s.compute_id,
                    blocked: Some(b),
                });
            }
        }
        out
    }

    /// Asks one execution (by id) to stop at its next channel/pipe wait.
    pub fn abort(&self, id: u64) -> bool {
        for s in self.running.lock().iter() {
            if s.id == id {
                s.abort.store(true, Ordering::Relaxed);
                return true;
            }
        }
        false
    }
}

/// Keeps an execution registered; unregisters on drop.
pub struct RunGuard {
    activity: Arc<Activity>,
    state: Arc<RunState>,
}

impl RunGuard {
    pub fn state(&self) -> &RunState {
        &self.state
    }
}

impl Drop for RunGuard {
    fn drop(&mut self) {
        let mut r = self.activity.running.lock();
        if let Some(i) = r.iter().position(|s| Arc::ptr_eq(s, &self.state)) {
            r.swap_remove(i);
        }
        drop(r);
        self.activity.bump();
    }
}
