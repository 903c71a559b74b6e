//! Which kernels are running and which are blocked on which channel or pipe: the state the
//! runtime needs to diagnose deadlocks while the host waits.
//!
//! Every kernel execution registers a [`RunState`] with the device's [`Activity`] for its
//! duration (an autorun instance once, from its program's load to its shutdown). A channel/pipe operation that has to wait records what it
//! waits for in its `RunState`; when it resumes it clears it and bumps the activity's progress
//! counter. The runtime's wait loop samples [`Activity::report`] twice over an interval: if every
//! running enqueued kernel is blocked in both samples and the progress counter did not move,
//! nothing on the device can unblock them, and the runtime calls [`Activity::abort_blocked`],
//! which makes each blocked kernel stop with a `Deadlock` fault that names the channel and line.
//!
//! Timed executions (simulated clocks, rule F of `timing/MODEL.md`) also publish what the
//! conservative decision of non-blocking channel operations needs (`Activity::sim_floor`):
//! a lower bound of their clock while they run, the tick of a non-blocking operation they wait
//! in, or that they are stuck in a blocking operation.

use crate::fault::SourcePos;
use parking_lot::{Condvar, Mutex};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Process-wide signal of the conservative simulation: its epoch changes whenever a timed
/// execution starts, ends or starts to wait, and whenever a FIFO that a timed execution waits
/// on changes. [`Activity::sim_floor`] validates its scan with it; waiting non-blocking
/// operations sleep until it changes.
pub(crate) struct SimSignal {
    epoch: AtomicU64,
    sleepers: AtomicU32,
    mx: Mutex<()>,
    cv: Condvar,
}

pub(crate) static SIM: SimSignal = SimSignal {
    epoch: AtomicU64::new(0),
    sleepers: AtomicU32::new(0),
    mx: parking_lot::const_mutex(()),
    cv: Condvar::new(),
};

impl SimSignal {
    pub(crate) fn epoch(&self) -> u64 {
        self.epoch.load(Ordering::SeqCst)
    }
    /// Changes the epoch and wakes the sleepers.
    pub(crate) fn bump(&self) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            let _g = self.mx.lock();
            self.cv.notify_all();
        }
    }
    /// Sleeps until the epoch differs from `seen` (or `timeout` passes).
    pub(crate) fn wait(&self, seen: u64, timeout: Duration) {
        let mut g = self.mx.lock();
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        if self.epoch() == seen {
            self.cv.wait_for(&mut g, timeout);
        }
        self.sleepers.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Per-FIFO change counter for stuck waiters: counts the operations on the FIFO while a timed
/// execution waits on it (so a scan can tell whether a recorded blocking wait is still stuck).
#[derive(Debug, Default)]
pub(crate) struct SimCell {
    ops: AtomicU64,
}

impl SimCell {
    pub(crate) fn ops(&self) -> u64 {
        self.ops.load(Ordering::SeqCst)
    }
    pub(crate) fn touch(&self) {
        self.ops.fetch_add(1, Ordering::SeqCst);
    }
}

/// What a timed execution waits for (conservative decision of non-blocking operations).
#[derive(Clone, Debug)]
pub(crate) enum SimWait {
    /// In a blocking FIFO operation; still stuck while its FIFO's `cell.ops() == seen`.
    Stuck { cell: Arc<SimCell>, seen: u64 },
    /// In a non-blocking operation at simulated tick `t` on a host-empty (read) or host-full
    /// (write) FIFO, waiting for the decision.
    Nb { t: u64 },
    /// An idle autorun instance parked between executions until a FIFO it can reach changes
    /// or another execution registers: like a stuck blocking wait, it can act again only
    /// after an operation of another execution (at or after that one's time), so it does not
    /// hold the floor down.
    Parked,
}

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

/// What a parked FIFO operation waits for: the operation, and the FIFO's change count when
/// it last found its condition false (it is stuck while the count has not moved).
#[derive(Debug)]
struct Blocked {
    on: BlockedOn,
    cell: Arc<SimCell>,
    seen: u64,
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
    blocked: Mutex<Option<Blocked>>,
    /// Blocking waits begun (parked) so far: tells one wait from the next.
    waits: AtomicU64,
    /// Autorun instances: consecutive completed executions that moved no channel or pipe
    /// element (0 after one that moved data).
    idle_streak: AtomicU64,
    /// Runs with a simulated clock and takes part in the conservative decision of
    /// non-blocking FIFO operations.
    timed: bool,
    /// Timed: a lower bound of the execution's clock (ticks), published at its FIFO operations.
    clock: AtomicU64,
    /// Timed: what it waits for, `None` while it runs.
    sim: Mutex<Option<SimWait>>,
}

impl RunState {
    /// Whether the runtime asked this execution to stop.
    pub fn abort_requested(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
    }
    /// What it is blocked on right now.
    pub fn blocked_on(&self) -> Option<BlockedOn> {
        self.blocked.lock().as_ref().map(|b| b.on.clone())
    }
    /// Marks the execution parked in a FIFO operation (`Some((what, the FIFO's change cell,
    /// its count when the condition was last false))`) or running again (`None`).
    pub(crate) fn set_blocked(&self, b: Option<(BlockedOn, Arc<SimCell>, u64)>) {
        let mut g = self.blocked.lock();
        if b.is_some() && g.is_none() {
            self.waits.fetch_add(1, Ordering::SeqCst);
        }
        *g = b.map(|(on, cell, seen)| Blocked { on, cell, seen });
    }
    /// The parked operation found its condition still false at change count `seen`.
    pub(crate) fn update_seen(&self, seen: u64) {
        if let Some(b) = self.blocked.lock().as_mut() {
            b.seen = seen;
        }
    }
    /// The state for the deadlock diagnosis: `Some((wait number, change count))` while the
    /// execution is parked in a FIFO operation and nothing happened on that FIFO since it
    /// found its condition false (it cannot proceed until another execution acts on it).
    fn stuck(&self) -> Option<(u64, u64)> {
        let g = self.blocked.lock();
        let b = g.as_ref()?;
        (b.cell.ops() == b.seen).then(|| (self.waits.load(Ordering::SeqCst), b.seen))
    }
    /// Autorun instances: records the number of consecutive executions that moved nothing.
    pub fn set_idle_streak(&self, n: u64) {
        self.idle_streak.store(n, Ordering::SeqCst);
    }
    /// Autorun instances: consecutive executions that moved nothing (0: its last execution
    /// moved data, or it has not completed one yet; always 0 for enqueued executions).
    pub fn idle_streak(&self) -> u64 {
        self.idle_streak.load(Ordering::Relaxed)
    }
    /// Whether this execution has a simulated clock (and takes part in non-blocking decisions).
    pub fn timed(&self) -> bool {
        self.timed
    }
    /// Publishes a lower bound of the clock (monotone: clocks only advance).
    #[inline]
    pub(crate) fn publish_clock(&self, t: u64) {
        if self.timed {
            self.clock.store(t, Ordering::Relaxed);
        }
    }
    /// Records what the execution waits for and signals the change.
    pub(crate) fn set_sim(&self, w: Option<SimWait>) {
        let waiting = w.is_some();
        *self.sim.lock() = w;
        if waiting {
            SIM.bump();
        }
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
    /// Outstanding [`SimHold`]s: no non-blocking decision by the floor while > 0.
    holds: AtomicU32,
}

impl Activity {
    pub fn new() -> Arc<Activity> {
        Arc::new(Activity::default())
    }

    /// Registers an execution without simulated time; it is removed when the guard drops.
    pub fn register(
        self: &Arc<Self>,
        kernel: &str,
        autorun: bool,
        compute_id: [u32; 3],
    ) -> RunGuard {
        self.register_timed(kernel, autorun, compute_id, None)
    }

    /// Registers an execution; `start_tick: Some(t)` for a timed execution whose simulated
    /// clock starts at `t` and that takes part in the decision of non-blocking FIFO operations
    /// (kernels that use channels or pipes, run with a clock).
    pub fn register_timed(
        self: &Arc<Self>,
        kernel: &str,
        autorun: bool,
        compute_id: [u32; 3],
        start_tick: Option<u64>,
    ) -> RunGuard {
        let st = Arc::new(RunState {
            id: self.next_id.fetch_add(1, Ordering::SeqCst),
            kernel: kernel.to_string(),
            autorun,
            compute_id,
            abort: AtomicBool::new(false),
            blocked: Mutex::new(None),
            waits: AtomicU64::new(0),
            idle_streak: AtomicU64::new(0),
            timed: start_tick.is_some(),
            clock: AtomicU64::new(start_tick.unwrap_or(0)),
            sim: Mutex::new(None),
        });
        self.running.lock().push(st.clone());
        self.bump();
        if st.timed {
            SIM.bump();
        }
        RunGuard {
            activity: self.clone(),
            state: st,
        }
    }

    pub(crate) fn bump(&self) {
        self.progress.fetch_add(1, Ordering::Relaxed);
    }

    /// Executions registered so far (changes whenever one starts).
    pub(crate) fn registrations(&self) -> u64 {
        self.next_id.load(Ordering::SeqCst)
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

    /// Conservative lower bound (ticks) of the time of any FIFO element written or read from
    /// now on by the timed executions of this device other than `me`: the minimum over running
    /// executions of their published clock and over executions waiting in a non-blocking
    /// operation of its tick. Executions stuck in a blocking operation do not count: they can
    /// only resume through an operation of another execution, at or after its time (rule F).
    /// `u64::MAX` when there is none. `None` when the scan saw the state change under it
    /// (retry after [`SIM`] changes).
    pub(crate) fn sim_floor(&self, me: &RunState) -> Option<u64> {
        let e1 = SIM.epoch();
        if self.holds.load(Ordering::SeqCst) > 0 {
            return None;
        }
        let mut floor = u64::MAX;
        for s in self.running.lock().iter() {
            if !s.timed || std::ptr::eq(&**s, me) {
                continue;
            }
            let running = match &*s.sim.lock() {
                None => true,
                Some(SimWait::Nb { t }) => {
                    floor = floor.min(*t);
                    false
                }
                Some(SimWait::Stuck { cell, seen }) => cell.ops() != *seen,
                Some(SimWait::Parked) => false,
            };
            if running {
                floor = floor.min(s.clock.load(Ordering::Relaxed));
            }
        }
        (SIM.epoch() == e1).then_some(floor)
    }

    /// The latest published clock of the timed executions other than `me` that are not
    /// parked (`SimWait::Parked`): the device's simulated "now" as the active executions see
    /// it, which a parked idle instance catches up to when it wakes (`None`: there is none).
    pub(crate) fn active_clock(&self, me: &RunState) -> Option<u64> {
        let mut out: Option<u64> = None;
        for s in self.running.lock().iter() {
            if !s.timed || std::ptr::eq(&**s, me) || matches!(*s.sim.lock(), Some(SimWait::Parked))
            {
                continue;
            }
            let c = s.clock.load(Ordering::Relaxed);
            out = Some(out.map_or(c, |o| o.max(c)));
        }
        out
    }

    /// Holds back the decisions of non-blocking FIFO operations that wait for their partner
    /// (they keep waiting) until the guard drops: for launching several timed kernels that
    /// start at the same simulated time, so that none decides before the others exist.
    pub fn hold_sim(self: &Arc<Self>) -> SimHold {
        self.holds.fetch_add(1, Ordering::SeqCst);
        SimHold {
            activity: self.clone(),
        }
    }

    /// The device's kernel executions when none of them can act any more, decided from state
    /// alone (never from elapsed time): every enqueued execution is parked in a blocking
    /// channel/pipe operation on a FIFO nothing has changed since it found its condition
    /// false, and every autorun instance is parked likewise or idle (its last executions moved
    /// no element). `None` when one of them may still act, or no enqueued execution runs.
    /// One such state can be read while it changes (its executions are read one after the
    /// other): [`Quiescence::confirms`] with a later one proves it.
    pub fn quiescence(&self) -> Option<Quiescence> {
        let mut entries = Vec::new();
        let mut enqueued = false;
        for s in self.running.lock().iter() {
            let q = match s.stuck() {
                Some((wait, seen)) => Quiet::Stuck { wait, seen },
                None if s.autorun => match s.idle_streak.load(Ordering::SeqCst) {
                    0 => return None,
                    n => Quiet::Idle { streak: n },
                },
                None => return None,
            };
            enqueued |= !s.autorun;
            entries.push((s.id, q));
        }
        entries.sort_by_key(|e| e.0);
        enqueued.then_some(Quiescence { entries })
    }

    /// Waits (at most `limit`) until the autorun instances have settled: each parked in a
    /// blocking operation nothing can complete now, or idle. An autorun kernel fed by an
    /// enqueued kernel that has ended still finishes its last executions on its own thread;
    /// reading its counters before they settle would give counts that depend on the host's
    /// scheduling. Returns at once while an enqueued execution runs (counts read then are a
    /// snapshot of work in flight) or when there is no autorun instance.
    pub fn settle_autorun(&self, limit: Duration) {
        let t0 = std::time::Instant::now();
        loop {
            let (mut enqueued, mut settled) = (false, true);
            for s in self.running.lock().iter() {
                enqueued |= !s.autorun;
                settled &= s.stuck().is_some() || s.idle_streak.load(Ordering::SeqCst) > 0;
            }
            if enqueued || settled || t0.elapsed() >= limit {
                return;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
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

/// The state of one execution in a [`Quiescence`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quiet {
    /// Parked in its `wait`-th blocking wait, on a FIFO whose change count is `seen`.
    Stuck { wait: u64, seen: u64 },
    /// An autorun instance after `streak` executions that moved nothing.
    Idle { streak: u64 },
}

/// A state of the device in which no kernel execution can act ([`Activity::quiescence`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quiescence {
    entries: Vec<(u64, Quiet)>,
}

impl Quiescence {
    /// Compares with a state read earlier. `Some(true)`: the device is deadlocked: the same
    /// executions, each parked one still in the same wait with no operation on its FIFO since
    /// `earlier` (so each was stuck during the whole interval, all at once when `earlier` was
    /// complete), each idle autorun instance through at least two more executions that moved
    /// nothing (one of them wholly inside the interval, with every other execution stuck).
    /// `Some(false)`: consistent so far (idle instances have not run enough yet): keep
    /// `earlier`. `None`: something acted: start again from `self`.
    pub fn confirms(&self, earlier: &Quiescence) -> Option<bool> {
        if self.entries.len() != earlier.entries.len() {
            return None;
        }
        let mut done = true;
        for ((id, q), (id0, q0)) in self.entries.iter().zip(&earlier.entries) {
            if id != id0 {
                return None;
            }
            match (q, q0) {
                (Quiet::Stuck { .. }, Quiet::Stuck { .. }) if q == q0 => {}
                (Quiet::Idle { streak }, Quiet::Idle { streak: s0 }) if streak >= s0 => {
                    done &= *streak >= s0 + 2;
                }
                _ => return None,
            }
        }
        Some(done)
    }
}

/// See [`Activity::hold_sim`].
pub struct SimHold {
    activity: Arc<Activity>,
}

impl Drop for SimHold {
    fn drop(&mut self) {
        self.activity.holds.fetch_sub(1, Ordering::SeqCst);
        SIM.bump();
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
        if self.state.timed {
            SIM.bump();
        }
    }
}
