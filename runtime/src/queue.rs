//! Command queues and the command scheduler.
//!
//! Every enqueued command becomes a [`Command`] with a dependency count: the events of its
//! wait list plus the queue's own ordering (the previous command of an in-order queue, the
//! last barrier of an out-of-order queue, or every earlier command for a marker/barrier
//! without a wait list). When the count reaches zero the command is `CL_SUBMITTED` and handed
//! to the queue's worker threads, which run it (`CL_RUNNING`) and end its event
//! (`CL_COMPLETE` or a negative code). If a dependency ended in error, the command does not
//! run and its event gets `CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST`, which propagates.
//!
//! An in-order queue has one worker thread. An out-of-order queue starts a new worker whenever
//! a ready command finds none idle, so ready commands always run concurrently (kernels that
//! talk through channels must). Different queues have different workers, so their commands
//! overlap.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Weak};

use crossbeam::channel::{unbounded, Receiver, Sender};
use parking_lot::Mutex;

use crate::cl::*;
use crate::context::Context;
use crate::device::Device;
use crate::error::CLResult;
use crate::event::Event;
use crate::info::{InfoValue, ObjRef};

/// The work of a command, run on a worker thread. An error ends the event with that code.
pub type Work = Box<dyn FnOnce() -> CLResult<()> + Send>;

/// How a command orders itself against the other commands of its queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ordering_ {
    /// An ordinary command.
    Normal,
    /// `clEnqueueMarkerWithWaitList`: with an empty wait list, waits for all earlier commands.
    Marker,
    /// `clEnqueueBarrierWithWaitList`: like a marker, and later commands wait for it.
    Barrier,
}
pub use Ordering_ as CommandOrder;

/// A command waiting for its dependencies or running.
pub struct Command {
    event: Arc<Event>,
    remaining: AtomicUsize,
    dep_failed: AtomicBool,
    /// Latest emulated END of the dependencies that ended so far.
    deps_end: AtomicU64,
    work: Mutex<Option<Work>>,
}

thread_local! {
    /// Emulated START of the command running on this worker thread.
    static COMMAND_START: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Emulated duration the running command reported.
    static COMMAND_DURATION: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Kernel commands running now, over every queue of the process (the `fpgacl profile`
/// progress line shows it).
static RUNNING_KERNELS: AtomicUsize = AtomicUsize::new(0);

/// How many enqueued kernels are running now (all queues).
pub fn running_kernels() -> usize {
    RUNNING_KERNELS.load(Ordering::Relaxed)
}

/// Emulated START (ns) of the command running on the calling worker thread.
pub fn command_start_ns() -> u64 {
    COMMAND_START.with(|c| c.get())
}

/// Called by a command's work: its emulated duration in ns (END = START + duration).
pub fn report_duration(ns: u64) {
    COMMAND_DURATION.with(|c| c.set(ns));
}

impl Command {
    /// One dependency ended (`failed`: with an error status).
    pub(crate) fn dependency_done(self: Arc<Self>, failed: bool, end: u64) {
        if failed {
            self.dep_failed.store(true, Ordering::SeqCst);
        }
        self.deps_end.fetch_max(end, Ordering::SeqCst);
        if self.remaining.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.ready();
        }
    }

    fn ready(self: Arc<Self>) {
        if self.dep_failed.load(Ordering::SeqCst) {
            self.work.lock().take();
            self.event
                .set_status(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
            return;
        }
        let Some(queue) = self.event.queue.clone() else {
            // Unreachable: only queues create commands.
            self.event.set_status(CL_INVALID_COMMAND_QUEUE);
            return;
        };
        // Ready to run: until it ends (a kernel: until it starts and shows up in the device's
        // activity), it may still unblock others (deadlock diagnosis).
        queue.device.busy.fetch_add(1, Ordering::SeqCst);
        // SUBMIT: when the last dependency ended on the emulated timeline (at least QUEUED),
        // not when this host thread got to run `ready`: commands released together (by one
        // user event, one transfer) are submitted at the same time, whatever the host's
        // scheduling, and emulation time never shows up as a gap.
        let released_at = self.deps_end.load(Ordering::SeqCst);
        self.event.set_status_at(CL_SUBMITTED, Some(released_at));
        queue.dispatch(self);
    }

    fn is_kernel(&self) -> bool {
        matches!(
            self.event.command_type,
            CL_COMMAND_NDRANGE_KERNEL | CL_COMMAND_TASK
        )
    }

    fn execute(&self, queue: &Queue) {
        let kernel = self.is_kernel();
        if kernel {
            queue.running_kernels.fetch_add(1, Ordering::SeqCst);
            RUNNING_KERNELS.fetch_add(1, Ordering::Relaxed);
        }
        // Emulated START, on the device timeline only: at submission (the host's position
        // when it enqueued, or later) and after every dependency's emulated END (the previous
        // command of an in-order queue, the wait list, a barrier). Never a wall-clock time, and
        // not the order in which worker threads get here: the same commands get the same
        // START whatever the host's load (`clock.rs`).
        let submit = self.event.times()[1];
        let start = submit.max(self.deps_end.load(Ordering::SeqCst));
        COMMAND_START.with(|c| c.set(start));
        COMMAND_DURATION.with(|c| c.set(0));
        self.event.set_status_at(CL_RUNNING, Some(start));
        if kernel {
            // From now on the device's activity registry tracks it.
            queue.device.busy.fetch_sub(1, Ordering::SeqCst);
        }
        let work = self.work.lock().take();
        let result = match work {
            Some(w) => std::panic::catch_unwind(std::panic::AssertUnwindSafe(w))
                .unwrap_or(Err(CL_OUT_OF_RESOURCES)),
            None => Ok(()),
        };
        if kernel {
            queue.running_kernels.fetch_sub(1, Ordering::SeqCst);
            RUNNING_KERNELS.fetch_sub(1, Ordering::Relaxed);
        }
        let end = start + COMMAND_DURATION.with(|c| c.get());
        let status = match result {
            Ok(()) => CL_COMPLETE,
            Err(code) if code < 0 => code,
            Err(_) => CL_OUT_OF_RESOURCES,
        };
        self.event.set_status_at(status, Some(end));
        if !kernel {
            // Only now: the status change has made its dependents ready (each counted in
            // `busy`), so `busy` never reads 0 while one of them is about to start (the run
            // ledger relies on it).
            queue.device.busy.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

struct QueueState {
    /// Last command (in-order ordering).
    last: Weak<Event>,
    /// Last barrier (out-of-order ordering).
    barrier: Weak<Event>,
    /// Commands not known to have ended, oldest first (out-of-order queues only: in order,
    /// `last` ending means every earlier command has ended, and a weak reference per command
    /// would keep every ended event's memory until the next prune).
    pending: VecDeque<Weak<Event>>,
    /// Length of `pending` after the last full prune.
    pruned_len: usize,
}

/// An OpenCL command queue.
pub struct Queue {
    pub context: Arc<Context>,
    pub device: Arc<Device>,
    pub properties: cl_command_queue_properties,
    /// The property list given to `clCreateCommandQueueWithProperties` (with its 0), if any.
    pub properties_array: Vec<cl_queue_properties>,
    state: Mutex<QueueState>,
    tx: Sender<Arc<Command>>,
    rx: Receiver<Arc<Command>>,
    stats: Arc<WorkerStats>,
    workers: AtomicUsize,
    /// Kernel commands running on this queue's workers.
    running_kernels: AtomicUsize,
    /// Latest emulated END of the queue's commands that ended (`clFinish` moves the host's
    /// position there, also for commands whose events were already released).
    pub(crate) last_end: AtomicU64,
}

/// Most worker threads an out-of-order queue starts.
const MAX_WORKERS: usize = 1024;

static QUEUE_SERIAL: AtomicUsize = AtomicUsize::new(0);

/// Worker accounting of a queue: workers waiting for a command, and commands sent but not yet
/// taken by a worker.
#[derive(Default)]
struct WorkerStats {
    idle: AtomicUsize,
    queued: AtomicUsize,
}

fn spawn_worker(rx: Receiver<Arc<Command>>, stats: Arc<WorkerStats>, name: String) -> bool {
    std::thread::Builder::new()
        .name(name)
        .spawn(move || {
            let idle = &stats.idle;
            idle.fetch_add(1, Ordering::SeqCst);
            while let Ok(cmd) = rx.recv() {
                // Busy first, then taken: a concurrent dispatch may over-count the commands
                // waiting (and start a spare worker) but never under-count them.
                idle.fetch_sub(1, Ordering::SeqCst);
                stats.queued.fetch_sub(1, Ordering::SeqCst);
                if let Some(q) = cmd.event.queue.clone() {
                    cmd.execute(&q);
                }
                drop(cmd);
                idle.fetch_add(1, Ordering::SeqCst);
            }
            idle.fetch_sub(1, Ordering::SeqCst);
        })
        .is_ok()
}

impl Queue {
    /// Creates a queue; the C layer has checked that `device` is in `context` and that the
    /// properties are valid.
    pub fn new(
        context: &Arc<Context>,
        device: &Arc<Device>,
        properties: cl_command_queue_properties,
        properties_array: Vec<cl_queue_properties>,
    ) -> CLResult<Arc<Self>> {
        if properties & !device.queue_properties() != 0 {
            return Err(CL_INVALID_QUEUE_PROPERTIES);
        }
        let (tx, rx) = unbounded();
        let q = Arc::new(Queue {
            context: context.clone(),
            device: device.clone(),
            properties,
            properties_array,
            state: Mutex::new(QueueState {
                last: Weak::new(),
                barrier: Weak::new(),
                pending: VecDeque::new(),
                pruned_len: 0,
            }),
            tx,
            rx,
            stats: Arc::new(WorkerStats::default()),
            workers: AtomicUsize::new(0),
            running_kernels: AtomicUsize::new(0),
            last_end: AtomicU64::new(0),
        });
        q.add_worker()?;
        Ok(q)
    }

    fn add_worker(&self) -> CLResult<()> {
        let n = self.workers.fetch_add(1, Ordering::SeqCst);
        let serial = QUEUE_SERIAL.fetch_add(1, Ordering::Relaxed);
        let name = format!("fpgacl-queue-{serial}.{n}");
        if spawn_worker(self.rx.clone(), self.stats.clone(), name) {
            Ok(())
        } else {
            self.workers.fetch_sub(1, Ordering::SeqCst);
            Err(CL_OUT_OF_HOST_MEMORY)
        }
    }

    /// Whether commands may run out of order.
    pub fn out_of_order(&self) -> bool {
        self.properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE != 0
    }

    /// Whether events record profiling timestamps.
    pub fn profiling(&self) -> bool {
        self.properties & CL_QUEUE_PROFILING_ENABLE != 0
    }

    fn dispatch(&self, cmd: Arc<Command>) {
        // An out-of-order queue runs ready commands concurrently. A kernel may block on a
        // channel for as long as its partner needs, so it always gets a thread; other commands
        // end by themselves, so they get a new thread only when every worker holds a kernel.
        let queued = self.stats.queued.fetch_add(1, Ordering::SeqCst) + 1;
        // Counting commands not yet taken (not just idle workers) means two commands sent at
        // once never both count on the same idle worker.
        if self.out_of_order() && self.stats.idle.load(Ordering::SeqCst) < queued {
            let workers = self.workers.load(Ordering::SeqCst);
            let all_kernels = self.running_kernels.load(Ordering::SeqCst) >= workers;
            if (cmd.is_kernel() || all_kernels) && workers < MAX_WORKERS {
                // A failure to start a thread leaves the command to an existing worker.
                let _ = self.add_worker();
            }
        }
        // The receiver lives as long as the queue, so sending cannot fail.
        let _ = self.tx.send(cmd);
    }

    /// Checks that every event of a wait list belongs to this queue's context.
    pub fn check_wait_list(&self, wait: &[Arc<Event>]) -> CLResult<()> {
        if wait.iter().any(|e| !Arc::ptr_eq(&e.context, &self.context)) {
            Err(CL_INVALID_CONTEXT)
        } else {
            Ok(())
        }
    }

    /// Enqueues a command: it runs `work` (if any) after the events of `wait` and the queue's
    /// ordering allow. Returns its event at once.
    pub fn enqueue(
        self: &Arc<Self>,
        command_type: cl_command_type,
        wait: &[Arc<Event>],
        order: CommandOrder,
        work: Option<Work>,
    ) -> CLResult<Arc<Event>> {
        self.check_wait_list(wait)?;
        let event = Event::new_command(self, command_type);
        // Wait-list events fail the command if they fail; queue-order events only order it.
        // The previous command or barrier (at most one, no list to allocate), and for a
        // marker or barrier without a wait list on an out-of-order queue, every pending one.
        let order_dep: Option<Arc<Event>>;
        let mut order_deps: Vec<Arc<Event>> = Vec::new();
        {
            let mut st = self.state.lock();
            if !self.out_of_order() {
                order_dep = st.last.upgrade();
                st.last = Arc::downgrade(&event);
            } else {
                Self::prune(&mut st);
                order_dep = st.barrier.upgrade();
                if order != CommandOrder::Normal && wait.is_empty() {
                    order_deps.extend(st.pending.iter().filter_map(Weak::upgrade));
                }
                if order == CommandOrder::Barrier {
                    st.barrier = Arc::downgrade(&event);
                }
                st.pending.push_back(Arc::downgrade(&event));
            }
        }
        let cmd = Arc::new(Command {
            event: event.clone(),
            remaining: AtomicUsize::new(
                wait.len() + usize::from(order_dep.is_some()) + order_deps.len() + 1,
            ),
            dep_failed: AtomicBool::new(false),
            // In order, every command that ended before (its event perhaps already released,
            // so not in `order_deps`) comes before this one.
            deps_end: AtomicU64::new(if self.out_of_order() {
                0
            } else {
                self.last_end.load(Ordering::SeqCst)
            }),
            work: Mutex::new(work),
        });
        let deps = wait.iter().map(|e| (e, true));
        let queue_order = order_dep.iter().chain(&order_deps).map(|e| (e, false));
        for (d, propagate) in deps.chain(queue_order) {
            if let Some((failed, end)) = d.add_dependent(&cmd, propagate) {
                cmd.clone().dependency_done(failed, end);
            }
        }
        cmd.dependency_done(false, 0);
        Ok(event)
    }

    fn prune(st: &mut QueueState) {
        while st
            .pending
            .front()
            .is_some_and(|w| w.upgrade().is_none_or(|e| e.is_done()))
        {
            st.pending.pop_front();
        }
        if st.pending.len() > 2 * st.pruned_len + 16 {
            st.pending
                .retain(|w| w.upgrade().is_some_and(|e| !e.is_done()));
            st.pruned_len = st.pending.len();
        }
    }

    /// `clFlush`: commands are submitted as soon as they are ready, so nothing is held back.
    pub fn flush(&self) -> CLResult<()> {
        Ok(())
    }

    /// `clFinish`: waits until every command enqueued so far has ended.
    pub fn finish(&self) -> CLResult<()> {
        let pending: Vec<Arc<Event>> = {
            let mut st = self.state.lock();
            if self.out_of_order() {
                Self::prune(&mut st);
                st.pending.iter().filter_map(Weak::upgrade).collect()
            } else {
                // In order, each command starts after the previous one ended: the newest one
                // ends last (with the latest emulated END), so waiting for it waits for all,
                // with one wake-up instead of one per command. Once its event is gone (ended
                // and released), every earlier command has ended too.
                st.last.upgrade().into_iter().collect()
            }
        };
        for e in pending {
            e.wait();
        }
        // Every command enqueued so far has ended: the host has seen the latest END of the
        // queue, whether or not it kept the commands' events (fills, writes without an
        // event are released as soon as they end).
        crate::clock::host_waited_until(self.last_end.load(Ordering::SeqCst));
        Ok(())
    }

    /// `clGetCommandQueueInfo` (without the reference count).
    pub fn info(&self, param: cl_command_queue_info) -> CLResult<InfoValue> {
        Ok(match param {
            CL_QUEUE_CONTEXT => InfoValue::object(ObjRef::Context(self.context.clone())),
            CL_QUEUE_DEVICE => InfoValue::object(ObjRef::Device(self.device.clone())),
            CL_QUEUE_PROPERTIES => InfoValue::ulong(self.properties),
            CL_QUEUE_PROPERTIES_ARRAY => InfoValue::ulongs(&self.properties_array),
            _ => return Err(CL_INVALID_VALUE),
        })
    }
}
