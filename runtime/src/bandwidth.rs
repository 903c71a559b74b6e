//! The device's run ledger: kernels whose runs overlap in emulated time share the board's
//! global memory bandwidth (timing rule B4, `device-model/src/timing/sharing.rs`).
//!
//! Every kernel launch has an entry from `clEnqueueNDRangeKernel` on:
//! - **Enqueued**: not started yet. Its event tells whether it is about to start
//!   (`CL_SUBMITTED`: its dependencies have ended).
//! - **Running**: started at emulated cycle `start`; the executor is running it, so its demand
//!   is not known yet.
//! - **Known**: its functional execution ended; its timing alone gives its demand (pipeline
//!   cycles, bytes). It waits here until its shared end is final.
//! - **Final**: its end and its granted bandwidth ([`Segment`]s) are fixed and reported; later
//!   runs share the bandwidth with what it used. Pruned when no run can overlap it any more.
//!
//! A Known run X is timed by [`sharing::share`] together with every Known run, against the
//! segments of the Final runs, and its end E becomes final only when nothing unknown can still
//! start before E:
//! 1. no Running run started before E (its demand is unknown), unless every running kernel of
//!    the device is blocked on a channel, pipe or host pipe (by state: every execution, autorun
//!    ones too, parked on a FIFO nothing changed since, or idle) and nothing moved over a sample
//!    interval (then they wait for the host or for a kernel not started yet; waiting for them
//!    could deadlock a host that waits for X before feeding them);
//! 2. no Enqueued launch is about to start (`CL_SUBMITTED`), no transfer runs (the device's
//!    `busy` count, less the runs waiting here);
//! 3. no other Known run ends before E (it finalises first, and its event ends, so commands
//!    waiting for it become ready and are seen), and every Final run that ends before E has
//!    ended its event;
//! 4. the host cannot enqueue anything starting before E: its position on the device
//!    timeline (`clock::device_now_ns`, the QUEUED time of its next command) has reached E, or
//!    a host thread waits, or the host polls an event's status or an empty/full host pipe, or
//!    an event callback of the host is pending (a host spinning on a flag that a completion
//!    callback sets). How long the host computes or sleeps never counts: a host that computes
//!    for a second and then enqueues work starting before E shares with X as one that does
//!    not (no wall-clock condition);
//! 5. all of the above held in two samples in a row, [`CONFIRM`] apart (commands become ready
//!    just after the event they wait for ends) or [`POLL`] apart when condition 1 relies on
//!    blocked kernels, unless X is the only run in the ledger but for launches queued behind
//!    it on its own in-order queue (they wait for X's event) and earlier Final runs of that
//!    queue whose events have ended (the queue's one worker ended them, making their
//!    dependents ready, before it took X).
//!
//! Then X's end depends only on the runs that started before it, so it is the same whatever
//! the host threads' speed. Residual non-determinism (documented in MODEL.md): a run blocked
//! on a channel when X finalises shares with X's recorded profile instead of jointly; hosts
//! that enqueue from several threads; a host with an event callback pending (or polling) that
//! enqueues a kernel starting before E; and after [`FALLBACK`] of waiting (a kernel spinning on
//! non-blocking channel reads for data the host sends only after X ends would hold X forever;
//! an overlapping kernel whose emulation takes longer is then left out) X finalises with what
//! is known.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use fpgacl_device_model::timing::sharing::{self, Demand, Segment};
use parking_lot::{Condvar, Mutex};

use crate::cl::*;
use crate::clock::{device_now_ns, host_expects_callback, host_polling, host_waiting};
use crate::device::Device;
use crate::event::Event;

/// How often a run waiting to finalise re-checks the device (it is also woken by every
/// change of the ledger), and how long every running kernel must stay blocked.
const POLL: Duration = Duration::from_millis(1);
/// How long after a first sample that allows finalising the second one is taken (commands
/// become ready microseconds after the event they wait for ends).
const CONFIRM: Duration = Duration::from_micros(100);
/// Longest wait before a run finalises with what is known (see the module documentation).
pub const FALLBACK: Duration = Duration::from_secs(30);

enum Phase {
    Enqueued,
    Running {
        start: u64,
    },
    Known {
        demand: Demand,
    },
    Final {
        /// Emulated end, whole cycles.
        end: u64,
        segments: Vec<Segment>,
    },
}

struct Entry {
    id: u64,
    /// The launch's event (set just after `clEnqueue*` created it).
    event: Option<Weak<Event>>,
    phase: Phase,
    /// Its command's queue (address, out-of-order) once the event is attached.
    queue: Option<(usize, bool)>,
    /// Its event reached `CL_SUBMITTED` or `CL_RUNNING` (told by an event callback).
    submitted: bool,
    /// Its event left `CL_QUEUED` (any later status).
    left_queued: bool,
    /// The host's position on the device timeline when it was enqueued: it starts no earlier.
    queued: u64,
}

impl Entry {
    /// Whether its command's event has ended (a dropped event has).
    fn event_ended(&self) -> bool {
        match &self.event {
            None => false,
            Some(w) => w.upgrade().is_none_or(|e| e.status() <= CL_COMPLETE),
        }
    }
}

/// Launches not started yet, by id. Ids are handed out in order, so they live in a deque
/// indexed by `id - base`: adding one, finding one and removing one cost O(1) (amortised),
/// and the oldest is the front. A removed launch leaves a hole until every older one is gone
/// too (the front is trimmed at once).
#[derive(Default)]
struct Waiting {
    /// Id of the front slot.
    base: u64,
    slots: std::collections::VecDeque<Option<Entry>>,
    len: usize,
}

impl Waiting {
    /// Adds the launch with the next id (ids come from `State::next_id`, in order).
    fn push(&mut self, e: Entry) {
        if self.slots.is_empty() {
            self.base = e.id;
        }
        debug_assert_eq!(e.id, self.base + self.slots.len() as u64);
        self.slots.push_back(Some(e));
        self.len += 1;
    }

    fn index(&self, id: u64) -> Option<usize> {
        let i = usize::try_from(id.checked_sub(self.base)?).ok()?;
        (i < self.slots.len()).then_some(i)
    }

    fn get_mut(&mut self, id: u64) -> Option<&mut Entry> {
        let i = self.index(id)?;
        self.slots[i].as_mut()
    }

    fn remove(&mut self, id: u64) -> Option<Entry> {
        let i = self.index(id)?;
        let e = self.slots[i].take()?;
        self.len -= 1;
        while matches!(self.slots.front(), Some(None)) {
            self.slots.pop_front();
            self.base += 1;
        }
        Some(e)
    }

    /// The oldest launch not started yet.
    fn first(&self) -> Option<&Entry> {
        self.slots.front().and_then(Option::as_ref)
    }

    fn len(&self) -> usize {
        self.len
    }
}

/// The ledger's entries. Launches not started yet (`Phase::Enqueued`: a host may queue
/// hundreds of thousands) are kept apart from the started runs (Running, Known, Final: few,
/// Final ones are pruned), with counts that answer condition 2 and the "alone" test of
/// condition 5 without visiting them: adding, attaching, starting and removing a launch cost
/// O(1) amortised (O(log n) for started runs), so a long burst of launches costs linear
/// time, not quadratic.
#[derive(Default)]
struct State {
    next_id: u64,
    /// Enqueued launches by id.
    waiting: Waiting,
    /// Running, Known and Final runs by id.
    started: BTreeMap<u64, Entry>,
    /// Waiting entries without an event yet (the host thread is still in `clEnqueue*`).
    unattached: usize,
    /// Of those, the ones per in-order queue (address) they were enqueued on: they cannot start
    /// before a run of their own queue that has started ends (see [`State::any_about_to_start`]).
    unattached_in_order: BTreeMap<usize, usize>,
    /// Waiting entries whose event is `CL_SUBMITTED` or `CL_RUNNING`: about to start.
    submitted: usize,
    /// Waiting entries whose event left `CL_QUEUED`.
    left_queued: usize,
    /// Waiting entries per queue address.
    per_queue: BTreeMap<usize, usize>,
    /// Runs waiting in [`Ledger::finish`] (each counted once in the device's `busy`).
    finalizing: usize,
    /// Final runs whose events ended before every started run that is not final, by (end,
    /// id): their segments, for launches that may still start before their end.
    retired: BTreeMap<(u64, u64), Vec<Segment>>,
    /// Entries visited by evaluations so far (tests: the cost per launch stays bounded).
    visited: u64,
    /// Lists an evaluation fills, kept between evaluations (one per launch of a burst) so
    /// they are not allocated each time.
    scratch: Scratch,
}

/// See [`State::scratch`].
#[derive(Default)]
struct Scratch {
    known: Vec<(Demand, u64)>,
    fixed: Vec<Segment>,
    demands: Vec<Demand>,
}

impl State {
    fn len(&self) -> usize {
        self.waiting.len() + self.started.len() + self.retired.len()
    }

    /// Removes a waiting entry, keeping the counts.
    fn take_waiting(&mut self, id: u64) -> Option<Entry> {
        let e = self.waiting.remove(id)?;
        if e.event.is_none() {
            self.unattached -= 1;
            self.unattached_left(e.queue);
        }
        if e.submitted {
            self.submitted -= 1;
        }
        if e.left_queued {
            self.left_queued -= 1;
        }
        if let Some((q, _)) = e.queue {
            if let Some(c) = self.per_queue.get_mut(&q) {
                *c -= 1;
                if *c == 0 {
                    self.per_queue.remove(&q);
                }
            }
        }
        Some(e)
    }

    /// The earliest time (ns) a launch not started yet can start: the QUEUED time of the
    /// oldest waiting one, or the host's position for launches still to come.
    fn earliest_queued(&self) -> u64 {
        let now = device_now_ns();
        self.waiting.first().map_or(now, |e| e.queued.min(now))
    }

    /// An unattached waiting entry of `queue` got its event or left.
    fn unattached_left(&mut self, queue: Option<(usize, bool)>) {
        if let Some((q, false)) = queue {
            if let Some(c) = self.unattached_in_order.get_mut(&q) {
                *c -= 1;
                if *c == 0 {
                    self.unattached_in_order.remove(&q);
                }
            }
        }
    }

    /// Unattached waiting entries that may start before started run `id` ends: all of them
    /// but those of its own in-order queue. A launch whose host thread is still in
    /// `clEnqueue*` on the in-order queue of a run that has started comes after that run in
    /// the queue's order (every launch placed before it has started or gone), so it starts at
    /// or after that run's END and cannot share bandwidth with it.
    fn unattached_before(&self, id: u64) -> usize {
        let own = self
            .started
            .get(&id)
            .and_then(|e| match e.queue {
                Some((q, false)) => self.unattached_in_order.get(&q).copied(),
                _ => None,
            })
            .unwrap_or(0);
        self.unattached - own
    }

    /// Condition 2's first half, for started run `id`: an Enqueued launch is about to start
    /// (its event is submitted or running, or not attached yet: the host thread is still in
    /// `clEnqueue*`, on another queue than run `id`'s in-order one).
    fn any_about_to_start(&self, id: u64) -> bool {
        self.unattached_before(id) > 0 || self.submitted > 0
    }

    /// Whether run `id` is alone in the ledger but for launches queued behind it on its own
    /// in-order queue: those wait for its event, so they cannot start before it ends (a burst
    /// of small kernels on one queue then finalises each at once instead of confirming).
    fn alone(&self, id: u64) -> bool {
        let Some(mine) = self.started.get(&id) else {
            return false;
        };
        let my_queue = mine.event.as_ref().and_then(Weak::upgrade).and(mine.queue);
        let Some((my_queue, out_of_order)) = my_queue else {
            return self.waiting.len() + self.started.len() == 1;
        };
        if out_of_order {
            return self.waiting.len() + self.started.len() == 1;
        }
        self.started
            .values()
            .all(|e| e.id == id || settled_before(e, id, my_queue))
            && self.waiting.first().is_none_or(|first| first.id > id)
            && self.unattached_before(id) == 0
            && self.left_queued == 0
            && self.per_queue.get(&my_queue).copied().unwrap_or(0) == self.waiting.len()
    }
}

/// Whether `e`, another entry of the started runs, cannot hold back run `id` of in-order queue
/// `queue` (the "alone" test of condition 5): a Final run of the same queue enqueued before it
/// whose event has ended. It ran on the queue's one worker thread, which ended its event (and
/// so made every command waiting for it ready, counted in `busy` and in the ledger's counts)
/// before it took run `id`. A Final run whose event is gone (released after it ended) also
/// made its dependents ready before the event could go. Such a run stays in `started` for a
/// while when its END, in whole cycles, lies a cycle past the next run's START (nanoseconds
/// rounded to cycles), and must not make every run of a burst wait for a confirming sample.
fn settled_before(e: &Entry, id: u64, queue: usize) -> bool {
    if e.id > id || !matches!(e.phase, Phase::Final { .. }) {
        return false;
    }
    match &e.event {
        None => false,
        Some(w) => match w.upgrade() {
            None => true,
            Some(ev) => e.queue == Some((queue, false)) && ev.status() <= CL_COMPLETE,
        },
    }
}

/// The run ledger of one device.
#[derive(Default)]
pub struct Ledger {
    state: Mutex<State>,
    cond: Condvar,
    /// Where runs waiting for the host (condition 4) sleep: never notified (see `finish`).
    host_ahead: Condvar,
    /// Runs that finalised on a second sample (not alone): each waited at least [`CONFIRM`].
    confirmed: AtomicU64,
}

/// A launch's place in its device's ledger; dropping it removes an entry that did not become
/// final (a command that never ran, a failed or untimed run).
pub struct Ticket {
    ledger: Arc<Ledger>,
    id: u64,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut st = self.ledger.state.lock();
        st.take_waiting(self.id);
        if st
            .started
            .get(&self.id)
            .is_some_and(|e| !matches!(e.phase, Phase::Final { .. }))
        {
            st.started.remove(&self.id);
        }
        drop(st);
        self.ledger.cond.notify_all();
    }
}

/// What the host and the device are doing, sampled while a run waits to finalise.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Sample {
    /// The candidate end (whole cycles).
    end: u64,
    /// The device's activity progress, when condition 1 holds only because every running
    /// kernel is blocked (it must then not move between samples).
    progress: Option<u64>,
}

/// One evaluation of a waiting run.
struct Eval {
    end: u64,
    cycles: u64,
    segments: Vec<Segment>,
    /// Conditions 1-4 hold.
    ready: bool,
    /// Condition 4 fails: the host may still enqueue before the end. Only the host's own
    /// progress (its virtual time, or starting to wait) changes that, and neither is signalled
    /// through the ledger, so the run sleeps a whole [`POLL`] instead of waking at every change
    /// of the ledger (a host enqueuing a long burst would otherwise wake it at every launch).
    host_ahead: bool,
    sample: Sample,
}

impl Ledger {
    pub fn new() -> Arc<Ledger> {
        Arc::new(Ledger::default())
    }

    /// A new launch (`clEnqueueNDRangeKernel`, `clEnqueueTask`), its queue not known yet.
    pub fn enqueue(self: &Arc<Self>) -> Ticket {
        self.enqueue_on(None)
    }

    /// A new launch on `queue` (its address and whether it is out of order), known before its
    /// event: until the event is attached, runs that started on the same in-order queue need
    /// not wait for it (it comes after them).
    pub fn enqueue_on(self: &Arc<Self>, queue: Option<(usize, bool)>) -> Ticket {
        let mut st = self.state.lock();
        let id = st.next_id;
        st.next_id += 1;
        st.waiting.push(Entry {
            id,
            event: None,
            phase: Phase::Enqueued,
            queue,
            submitted: false,
            left_queued: false,
            queued: device_now_ns(),
        });
        st.unattached += 1;
        if let Some((q, ooo)) = queue {
            *st.per_queue.entry(q).or_insert(0) += 1;
            if !ooo {
                *st.unattached_in_order.entry(q).or_insert(0) += 1;
            }
        }
        Ticket {
            ledger: self.clone(),
            id,
        }
    }

    /// Entries in the ledger (tests, diagnostics).
    pub fn len(&self) -> usize {
        self.state.lock().len()
    }

    /// Whether the ledger is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entries visited by the evaluations of runs waiting to finalise, in total (tests: a
    /// burst of launches visits a bounded number per launch, not every queued launch).
    pub fn entries_visited(&self) -> u64 {
        self.state.lock().visited
    }

    /// Entries per kind: (launches not started, started runs, retired runs) (tests).
    pub fn entry_counts(&self) -> (usize, usize, usize) {
        let st = self.state.lock();
        (st.waiting.len(), st.started.len(), st.retired.len())
    }

    /// How many runs finalised only after a confirming second sample (see condition 5).
    pub fn confirmations(&self) -> u64 {
        self.confirmed.load(Ordering::Relaxed)
    }

    /// The launch's event, once `clEnqueue*` made it. The ledger follows the event's status
    /// through a callback, so status changes reach it without visiting every launch.
    pub fn attach(&self, t: &Ticket, ev: &Arc<Event>) {
        let queue = ev
            .queue
            .as_ref()
            .map(|q| (Arc::as_ptr(q) as usize, q.out_of_order()));
        let mut guard = self.state.lock();
        let st = &mut *guard;
        let Some(e) = st.waiting.get_mut(t.id) else {
            // The worker started (or finished) the run before `clEnqueue*` attached its
            // event: the run still needs it (condition 3 asks whether its event has ended).
            if let Some(e) = st.started.get_mut(&t.id) {
                e.event = Some(Arc::downgrade(ev));
                drop(guard);
                self.cond.notify_all();
            }
            return;
        };
        let was_unattached = e.event.is_none();
        let known_queue = e.queue;
        e.event = Some(Arc::downgrade(ev));
        if was_unattached {
            st.unattached -= 1;
            st.unattached_left(known_queue);
        }
        let Some(e) = st.waiting.get_mut(t.id) else {
            return;
        };
        if e.queue.is_none() {
            e.queue = queue;
            if let Some((q, _)) = queue {
                *st.per_queue.entry(q).or_insert(0) += 1;
            }
        }
        drop(guard);
        // Runs at once (on this thread) if the status is already past CL_QUEUED.
        let (ledger, id) = (Arc::downgrade(&t.ledger), t.id);
        let _ = ev.add_callback(
            CL_SUBMITTED,
            Box::new(move |status| {
                if let Some(l) = ledger.upgrade() {
                    l.left_queued(id, status >= 0);
                }
            }),
        );
        self.cond.notify_all();
    }

    /// The event of waiting launch `id` left `CL_QUEUED` (`submitted`: for `CL_SUBMITTED` or
    /// later, not for an error). Called by the event (outside its lock) right after the status
    /// change, before the command is handed to a worker.
    fn left_queued(&self, id: u64, submitted: bool) {
        let mut st = self.state.lock();
        let Some(e) = st.waiting.get_mut(id) else {
            return;
        };
        if e.left_queued {
            return;
        }
        e.left_queued = true;
        e.submitted = submitted;
        st.left_queued += 1;
        if submitted {
            st.submitted += 1;
        }
        drop(st);
        self.cond.notify_all();
    }

    /// Tests: the launch's command ended (as if its event was attached and released).
    #[cfg(test)]
    fn ended(&self, t: &Ticket) {
        let mut guard = self.state.lock();
        let st = &mut *guard;
        if let Some(e) = st.waiting.get_mut(t.id) {
            let (was_unattached, queue) = (e.event.is_none(), e.queue);
            e.event = Some(Weak::new());
            let newly_left = !e.left_queued;
            e.left_queued = true;
            if newly_left {
                st.left_queued += 1;
            }
            if was_unattached {
                st.unattached -= 1;
                st.unattached_left(queue);
            }
        } else if let Some(e) = st.started.get_mut(&t.id) {
            e.event = Some(Weak::new());
        }
        drop(guard);
        self.cond.notify_all();
    }

    /// The run starts at emulated cycle `start`.
    pub fn start(&self, t: &Ticket, start: u64) {
        let mut st = self.state.lock();
        if let Some(mut e) = st.take_waiting(t.id) {
            e.phase = Phase::Running { start };
            st.started.insert(t.id, e);
        } else if let Some(e) = st.started.get_mut(&t.id) {
            e.phase = Phase::Running { start };
        }
        drop(st);
        self.cond.notify_all();
    }

    /// The run has no timing (no static analysis) or failed: it shares nothing.
    pub fn forget(&self, t: &Ticket) {
        let mut st = self.state.lock();
        st.take_waiting(t.id);
        st.started.remove(&t.id);
        drop(st);
        self.cond.notify_all();
    }

    /// The run's functional execution ended with `demand` (its timing alone). Blocks until
    /// its shared end is final; returns its duration in cycles (at least its time alone).
    pub fn finish(&self, dev: &Device, t: &Ticket, demand: Demand) -> u64 {
        let capacity = dev.board.global_bytes_per_cycle();
        let mut st = self.state.lock();
        if let Some(mut e) = st.take_waiting(t.id) {
            // Finished without `start` (not the runtime's order): it started at its demand's
            // start.
            e.phase = Phase::Running {
                start: demand.start,
            };
            st.started.insert(t.id, e);
        }
        let Some(e) = st.started.get_mut(&t.id) else {
            return sharing::alone_cycles(&demand, capacity);
        };
        e.phase = Phase::Known { demand };
        st.finalizing += 1;
        // A run waiting here will end by itself: not a deadlock (device.rs DeadlockWatch).
        dev.busy.fetch_add(1, Ordering::SeqCst);
        self.cond.notify_all();
        let since = Instant::now();
        let mut last: Option<Sample> = None;
        // A panic (caught by the queue worker: the command fails) must not leave the counts
        // raised: `busy` would then block every later finalisation (condition 2) until
        // FALLBACK and hide channel deadlocks from the diagnosis for good.
        let cycles = catch_unwind(AssertUnwindSafe(|| loop {
            let ev = self.evaluate(&mut st, dev, t.id);
            let done = if since.elapsed() >= FALLBACK {
                true
            } else if ev.ready {
                let alone = ev.sample.progress.is_none() && st.alone(t.id);
                let confirmed = !alone && last == Some(ev.sample);
                if confirmed {
                    self.confirmed.fetch_add(1, Ordering::Relaxed);
                }
                alone || confirmed
            } else {
                false
            };
            if done {
                if let Some(e) = st.started.get_mut(&t.id) {
                    e.phase = Phase::Final {
                        end: ev.end,
                        segments: ev.segments,
                    };
                }
                break ev.cycles;
            }
            last = ev.ready.then_some(ev.sample);
            let pause = match last {
                Some(Sample { progress: None, .. }) => CONFIRM,
                _ => POLL,
            };
            if ev.host_ahead {
                // A condition variable nothing notifies: a plain sleep of POLL with the lock
                // released. On `cond`, every launch the host enqueues meanwhile would wake this
                // thread (a context switch per launch that also preempts the host).
                self.host_ahead.wait_for(&mut st, POLL);
            } else {
                self.cond.wait_for(&mut st, pause);
            }
        }));
        st.finalizing -= 1;
        dev.busy.fetch_sub(1, Ordering::SeqCst);
        drop(st);
        self.cond.notify_all();
        cycles.unwrap_or_else(|p| resume_unwind(p))
    }

    /// Times every Known run against the Final ones: run `id`'s end, duration and segments,
    /// and whether conditions 1-4 of the module documentation hold for it.
    fn evaluate(&self, st: &mut State, dev: &Device, id: u64) -> Eval {
        let board = &dev.board;
        let capacity = board.global_bytes_per_cycle();
        // Each pass below visits every started run (few: Final ones retire), plus the
        // retired runs that end after the first Known run starts.
        const PASSES: u64 = 6;
        st.visited += PASSES * st.started.len() as u64;
        // Retire Final runs that ended (event too) before every run started so far that is not
        // final: they cannot overlap those. A launch not started yet may still start before
        // their end (it starts at or after its QUEUED time, the host's position on the device
        // timeline when it was enqueued), so they stay, by end, for the runs that start
        // earlier than that end; dropped once no launch, enqueued or to come, can (the host's
        // position only moves forward).
        let started_floor = st
            .started
            .values()
            .filter_map(|e| match e.phase {
                Phase::Running { start } => Some(start),
                Phase::Known { demand } => Some(demand.start),
                _ => None,
            })
            .min()
            .unwrap_or(u64::MAX);
        // One at a time (usually one per evaluation; `started` holds a few runs): no list.
        while let Some(rid) = st
            .started
            .values()
            .find(|e| match e.phase {
                Phase::Final { end, .. } => end <= started_floor && e.event_ended(),
                _ => false,
            })
            .map(|e| e.id)
        {
            if let Some(Entry {
                phase: Phase::Final { end, segments },
                ..
            }) = st.started.remove(&rid)
            {
                st.retired.insert((end, rid), segments);
            }
        }
        let future_floor = board.ns_to_cycles(st.earliest_queued()).min(started_floor);
        while let Some(entry) = st.retired.first_entry() {
            if entry.key().0 > future_floor {
                break;
            }
            entry.remove();
        }
        // Known runs in a canonical order (identical runs get identical results anyway).
        let Scratch {
            mut known,
            mut fixed,
            mut demands,
        } = std::mem::take(&mut st.scratch);
        known.clear();
        known.extend(st.started.values().filter_map(|e| match e.phase {
            Phase::Known { demand } => Some((demand, e.id)),
            _ => None,
        }));
        known.sort_by_key(|&(d, _)| (d.start, d.pipeline, d.bytes));
        // Retired runs matter only where they end after a Known run starts.
        let first_known = known.first().map_or(u64::MAX, |(d, _)| d.start);
        let mut retired_visited = 0u64;
        fixed.clear();
        fixed.extend(
            st.started
                .values()
                .filter_map(|e| match &e.phase {
                    Phase::Final { segments, .. } => Some(segments.iter().copied()),
                    _ => None,
                })
                .flatten()
                .chain(
                    st.retired
                        .range((first_known.saturating_add(1), 0)..)
                        .inspect(|_| retired_visited += 1)
                        .flat_map(|(_, segs)| segs.iter().copied()),
                ),
        );
        st.visited += retired_visited;
        demands.clear();
        demands.extend(known.iter().map(|&(d, _)| d));
        let mut shared = sharing::share(capacity, &fixed, &demands);
        let run_end = |i: usize| demands[i].start + shared[i].cycles;
        let me = known.iter().position(|&(_, i)| i == id).unwrap_or(0);
        let end = run_end(me);
        let earliest_end = (0..demands.len()).map(run_end).min().unwrap_or(end);
        let cycles = shared[me].cycles;
        let segments = std::mem::take(&mut shared[me].segments);
        st.scratch = Scratch {
            known,
            fixed,
            demands,
        };

        // Conditions 1-4.
        let running = || {
            st.started.values().filter_map(|e| match e.phase {
                Phase::Running { start } => Some(start),
                _ => None,
            })
        };
        let running_count = running().count();
        let overlapping = running().any(|s| s < end);
        // The device's activity report only matters while other runs are running (a burst
        // of launches on one in-order queue never builds it).
        let report = (running_count > 0).then(|| dev.activity.report());
        // Blocked by state, not by elapsed time: every execution of the device (autorun
        // instances too) is parked on a FIFO nothing changed since, or idle
        // (`Activity::quiescence`). A partner that is only slow (an autorun kernel between two
        // elements, a thread the OS has not run for a while on a loaded machine) is not blocked.
        let all_blocked = report.as_ref().is_some_and(|report| {
            let enqueued: Vec<_> = report.enqueued().collect();
            enqueued.len() == running_count
                && enqueued.iter().all(|k| k.blocked.is_some())
                && dev.activity.quiescence().is_some()
        });
        let c1 = all_blocked || !overlapping;
        let c2 = !st.any_about_to_start(id) && dev.busy.load(Ordering::SeqCst) <= st.finalizing;
        let c3 = earliest_end >= end
            && st.started.values().all(|e| match e.phase {
                Phase::Final { end: f, .. } => f >= end || e.event_ended(),
                _ => true,
            });
        // The atomics first: `host_waiting` takes the host clock's lock, which the host thread
        // takes twice per enqueue call.
        let c4 = device_now_ns() >= board.cycles_to_ns(end)
            || host_polling()
            || host_expects_callback()
            || host_waiting();
        if log::log_enabled!(target: "fpgacl::ledger", log::Level::Trace) {
            log::trace!(
                target: "fpgacl::ledger",
                "run {id}: end {end} c1 {c1} c2 {c2} c3 {c3} c4 {c4} (host at {} ns, busy {}, finalizing {})",
                device_now_ns(),
                dev.busy.load(Ordering::SeqCst),
                st.finalizing
            );
        }
        Eval {
            end,
            cycles,
            segments,
            ready: c1 && c2 && c3 && c4,
            host_ahead: !c4,
            sample: Sample {
                end,
                progress: report.filter(|_| overlapping).map(|r| r.progress),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::clock::host_wait;
    use fpgacl_device_model::Activity;
    use std::sync::atomic::{AtomicU64, AtomicUsize};

    /// A device of its own (the platform's is shared by every test of the process).
    fn device() -> Arc<Device> {
        Arc::new(Device {
            index: 0,
            board: Board::default_board(),
            name: "test".into(),
            activity: Activity::new(),
            busy: AtomicUsize::new(0),
            bandwidth: Ledger::new(),
        })
    }

    /// Memory bound on the default board: 8 MiB wanted at 128 B/cycle (the board: 87.07).
    fn copy(start: u64) -> Demand {
        Demand {
            start,
            pipeline: 1 << 16,
            bytes: 8 << 20,
        }
    }

    #[test]
    fn tickets_leave_no_entry_behind() {
        let l = Ledger::new();
        let a = l.enqueue();
        let b = l.enqueue();
        l.start(&a, 10);
        assert_eq!(l.len(), 2);
        drop(a);
        assert_eq!(l.len(), 1);
        l.forget(&b);
        assert!(l.is_empty());
        drop(b);
        assert!(l.is_empty());
    }

    #[test]
    fn overlapping_runs_share_and_a_later_run_does_not() {
        let dev = device();
        let cap = dev.board.global_bytes_per_cycle();
        let alone = sharing::alone_cycles(&copy(0), cap);
        // The host waits (as in clWaitForEvents): nothing new can start before the ends.
        let _w = host_wait();
        let (a, b) = (dev.bandwidth.enqueue(), dev.bandwidth.enqueue());
        dev.bandwidth.start(&a, 0);
        dev.bandwidth.start(&b, 0);
        // A ends functionally first; it must wait until B's demand is known.
        let finished_b = Arc::new(AtomicU64::new(0));
        let t0 = Instant::now();
        let (ca, cb) = std::thread::scope(|s| {
            let ha = s.spawn(|| {
                let c = dev.bandwidth.finish(&dev, &a, copy(0));
                (c, t0.elapsed().as_nanos() as u64)
            });
            std::thread::sleep(Duration::from_millis(30));
            finished_b.store(t0.elapsed().as_nanos() as u64, Ordering::SeqCst);
            let cb = dev.bandwidth.finish(&dev, &b, copy(0));
            (ha.join().unwrap(), cb)
        });
        assert!(
            ca.1 >= finished_b.load(Ordering::SeqCst),
            "A was final before B's demand was known"
        );
        // Each gets half the board: twice as long, identical.
        assert_eq!(ca.0, cb);
        assert!(cb == 2 * alone || cb + 1 == 2 * alone, "{cb} vs {alone}");
        assert_eq!(dev.busy.load(Ordering::SeqCst), 0);
        // Their commands end; a run after both ends is alone (and prunes them).
        dev.bandwidth.ended(&a);
        dev.bandwidth.ended(&b);
        assert_eq!(dev.bandwidth.len(), 2);
        let end = cb;
        // The host has seen them end: nothing it enqueues from now on starts before end + 10.
        crate::clock::host_waited_until(dev.board.cycles_to_ns(end + 10));
        let c = dev.bandwidth.enqueue();
        dev.bandwidth.start(&c, end + 10);
        let t0 = Instant::now();
        let confirmed = dev.bandwidth.confirmations();
        assert_eq!(dev.bandwidth.finish(&dev, &c, copy(end + 10)), alone);
        assert_eq!(
            dev.bandwidth.confirmations(),
            confirmed,
            "C is alone once A, B are pruned"
        );
        assert!(t0.elapsed() < FALLBACK / 10);
        assert_eq!(dev.bandwidth.len(), 1);
        drop((a, b));
        assert_eq!(
            dev.bandwidth.len(),
            1,
            "final entries stay until no run can overlap"
        );
    }

    #[test]
    fn a_launch_still_being_enqueued_holds_back_only_runs_of_other_queues() {
        let dev = device();
        let cap = dev.board.global_bytes_per_cycle();
        let alone = sharing::alone_cycles(&copy(0), cap);
        let _w = host_wait();
        let (q1, q2) = (Some((0x1000, false)), Some((0x2000, false)));
        // A runs on in-order queue 1; B is being enqueued behind it on the same queue (no
        // event yet): B starts after A's END, so A need not wait for it.
        let a = dev.bandwidth.enqueue_on(q1);
        dev.bandwidth.start(&a, 0);
        let b = dev.bandwidth.enqueue_on(q1);
        let t0 = Instant::now();
        assert_eq!(dev.bandwidth.finish(&dev, &a, copy(0)), alone);
        assert!(t0.elapsed() < FALLBACK / 10, "A waited for B");
        dev.bandwidth.forget(&b);
        drop((a, b));
        // C runs on queue 1 while D is being enqueued on queue 2: D may start before C's END,
        // so C waits until D is known (here: D is dropped without running). A device of its
        // own: A's final run would share with C.
        let dev = device();
        let c = dev.bandwidth.enqueue_on(q1);
        dev.bandwidth.start(&c, 0);
        let d = dev.bandwidth.enqueue_on(q2);
        let finished = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|s| {
            let h = s.spawn(|| {
                let cycles = dev.bandwidth.finish(&dev, &c, copy(0));
                finished.store(true, Ordering::SeqCst);
                cycles
            });
            std::thread::sleep(Duration::from_millis(50));
            assert!(
                !finished.load(Ordering::SeqCst),
                "C was final while a launch on another queue was being enqueued"
            );
            dev.bandwidth.forget(&d);
            assert_eq!(h.join().unwrap(), alone);
        });
        assert_eq!(dev.busy.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn a_run_that_started_after_another_ended_is_alone_and_quick() {
        let dev = device();
        let cap = dev.board.global_bytes_per_cycle();
        let _w = host_wait();
        let a = dev.bandwidth.enqueue();
        dev.bandwidth.start(&a, 0);
        let t0 = Instant::now();
        let ca = dev.bandwidth.finish(&dev, &a, copy(0));
        assert_eq!(ca, sharing::alone_cycles(&copy(0), cap));
        // Alone in the ledger: final at once, not after a sample interval.
        assert_eq!(dev.bandwidth.confirmations(), 0);
        assert!(t0.elapsed() < FALLBACK / 10);
    }
}
