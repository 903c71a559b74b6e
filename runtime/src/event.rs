//! Events: execution status, profiling timestamps, callbacks, waiting, user events.
//!
//! Status only moves forward: `CL_QUEUED (3) -> CL_SUBMITTED (2) -> CL_RUNNING (1) ->
//! CL_COMPLETE (0)`, or to a negative error code, which is terminal too. Reaching a terminal
//! status wakes waiters, runs the callbacks registered for every status not yet reported, and
//! releases the commands that wait on the event (see [`crate::queue`]).

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use parking_lot::{Condvar, Mutex, MutexGuard};

use crate::device::DeadlockWatch;

use crate::cl::*;
use crate::clock::{device_now_ns, host_polled, host_wait, host_waited_until};
use crate::context::Context;
use crate::error::CLResult;
use crate::info::{InfoValue, ObjRef};
use crate::queue::{Command, Queue};

/// A callback registered with `clSetEventCallback`, bound to its event handle and user data;
/// it receives the status it reports.
pub type EventCallback = Box<dyn FnOnce(cl_int) + Send>;

/// How long a wait sleeps between deadlock checks.
const WAIT_SLICE: std::time::Duration = std::time::Duration::from_millis(150);

/// Run once with (final status, [queued, submit, start, end] ns) when the event ends, under
/// the event's lock (before waiters wake), so its effect is visible when a wait returns. It
/// must not touch the event.
pub type EndHook = Box<dyn FnOnce(cl_int, [u64; 4]) + Send>;

/// Index of each timestamp in [`EventState::times`].
const T_QUEUED: usize = 0;
const T_SUBMIT: usize = 1;
const T_START: usize = 2;
const T_END: usize = 3;

struct EventState {
    status: cl_int,
    times: [u64; 4],
    callbacks: Vec<(cl_int, EventCallback)>,
    /// Commands whose dependency count includes this event, and whether an error status of
    /// this event fails them (wait-list dependencies) or only orders them (queue order).
    dependents: Vec<(Arc<Command>, bool)>,
    end_hook: Option<EndHook>,
    /// Earliest END this command may get: a time at which it was observed running (profiler
    /// snapshot), so the snapshot lies inside [START, END].
    min_end: u64,
}

/// An OpenCL event: the status of one command, or a user event.
pub struct Event {
    pub context: Arc<Context>,
    /// The queue of the command; `None` for user events.
    pub queue: Option<Arc<Queue>>,
    pub command_type: cl_command_type,
    profiling: bool,
    state: Mutex<EventState>,
    cond: Condvar,
}

impl std::fmt::Debug for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Event")
            .field("command_type", &self.command_type)
            .field("status", &self.status())
            .finish()
    }
}

thread_local! {
    /// Dependency notifications waiting to be delivered on this thread. Delivering them from a
    /// loop (instead of recursively) keeps long chains of failing commands off the stack.
    static PENDING_NOTIFY: RefCell<Vec<(Arc<Command>, bool, u64)>> = const { RefCell::new(Vec::new()) };
    static NOTIFYING: Cell<bool> = const { Cell::new(false) };
    /// Event callbacks waiting to run on this thread, in order. A callback that sets another
    /// event's status (a chain of user events) queues that event's callbacks here instead of
    /// running them on top of its own stack frame, so chains of any length run in constant
    /// stack depth.
    static PENDING_CALLBACKS: RefCell<std::collections::VecDeque<(EventCallback, cl_int)>> =
        const { RefCell::new(std::collections::VecDeque::new()) };
    static IN_CALLBACKS: Cell<bool> = const { Cell::new(false) };
}

/// Runs event callbacks (each with the status it reports) on this thread: now, or after the
/// callback already running on this thread returns (see `PENDING_CALLBACKS`).
fn run_callbacks(list: impl IntoIterator<Item = (EventCallback, cl_int)>) {
    PENDING_CALLBACKS.with(|p| p.borrow_mut().extend(list));
    if IN_CALLBACKS.with(|n| n.replace(true)) {
        return; // an outer frame on this thread is running callbacks
    }
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            IN_CALLBACKS.with(|n| n.set(false));
        }
    }
    let _reset = Reset;
    loop {
        let next = PENDING_CALLBACKS.with(|p| p.borrow_mut().pop_front());
        match next {
            Some((cb, status)) => cb(status),
            None => break,
        }
    }
}

fn notify_dependents(list: Vec<(Arc<Command>, bool)>, failed: bool, end: u64) {
    if list.is_empty() {
        return;
    }
    PENDING_NOTIFY.with(|p| {
        p.borrow_mut().extend(
            list.into_iter()
                .map(|(c, propagate)| (c, failed && propagate, end)),
        )
    });
    if NOTIFYING.with(|n| n.replace(true)) {
        return; // an outer frame on this thread is delivering
    }
    loop {
        let next = PENDING_NOTIFY.with(|p| p.borrow_mut().pop());
        match next {
            Some((cmd, failed, end)) => cmd.dependency_done(failed, end),
            None => break,
        }
    }
    NOTIFYING.with(|n| n.set(false));
}

impl Event {
    /// A command event in `CL_QUEUED` state.
    pub(crate) fn new_command(queue: &Arc<Queue>, command_type: cl_command_type) -> Arc<Self> {
        Arc::new(Event {
            context: queue.context.clone(),
            profiling: queue.profiling(),
            queue: Some(queue.clone()),
            command_type,
            state: Mutex::new(EventState {
                status: CL_QUEUED,
                times: [device_now_ns(), 0, 0, 0],
                callbacks: Vec::new(),
                dependents: Vec::new(),
                end_hook: None,
                min_end: 0,
            }),
            cond: Condvar::new(),
        })
    }

    /// `clCreateUserEvent`: a user event in `CL_SUBMITTED` state.
    pub fn new_user(context: &Arc<Context>) -> Arc<Self> {
        Arc::new(Event {
            context: context.clone(),
            queue: None,
            command_type: CL_COMMAND_USER,
            profiling: false,
            state: Mutex::new(EventState {
                status: CL_SUBMITTED,
                times: [0; 4],
                callbacks: Vec::new(),
                dependents: Vec::new(),
                end_hook: None,
                min_end: 0,
            }),
            cond: Condvar::new(),
        })
    }

    /// Whether this is a user event.
    pub fn is_user(&self) -> bool {
        self.queue.is_none()
    }

    /// Current execution status.
    pub fn status(&self) -> cl_int {
        self.state.lock().status
    }

    /// Whether the status is terminal (complete or an error).
    pub fn is_done(&self) -> bool {
        self.status() <= CL_COMPLETE
    }

    /// Moves the status forward to `status` (ignored if it is not a step forward) and does
    /// everything that follows from it.
    pub(crate) fn set_status(&self, status: cl_int) {
        self.set_status_at(status, None);
    }

    /// Like [`Event::set_status`], with the timestamp of the new status given (emulated START
    /// for `CL_RUNNING`, END for a terminal status) instead of the host's position on the
    /// device timeline ([`device_now_ns`]).
    pub(crate) fn set_status_at(&self, status: cl_int, at: Option<u64>) {
        let (callbacks, dependents, end) = {
            let mut st = self.state.lock();
            if st.status <= CL_COMPLETE || status >= st.status {
                return;
            }
            let mut now = at.unwrap_or_else(device_now_ns);
            if status <= CL_COMPLETE {
                now = now.max(st.min_end);
            }
            let from = match st.status {
                CL_QUEUED => T_SUBMIT,
                CL_SUBMITTED => T_START,
                _ => T_END,
            };
            let to = match status {
                CL_SUBMITTED => T_SUBMIT,
                CL_RUNNING => T_START,
                _ => T_END,
            };
            // Fill skipped steps too so QUEUED <= SUBMIT <= START <= END always holds.
            for t in from..=to {
                st.times[t] = now.max(st.times[t.saturating_sub(1)]);
            }
            st.status = status;
            if status <= CL_COMPLETE {
                if let Some(q) = &self.queue {
                    q.last_end
                        .fetch_max(st.times[T_END], std::sync::atomic::Ordering::SeqCst);
                }
                if let Some(h) = st.end_hook.take() {
                    h(status, st.times);
                }
            }
            let mut fire = Vec::new();
            let mut i = 0;
            while i < st.callbacks.len() {
                if status <= st.callbacks[i].0 {
                    fire.push(st.callbacks.swap_remove(i));
                } else {
                    i += 1;
                }
            }
            let deps = if status <= CL_COMPLETE {
                std::mem::take(&mut st.dependents)
            } else {
                Vec::new()
            };
            (fire, deps, st.times[T_END])
        };
        if status <= CL_COMPLETE {
            self.cond.notify_all();
        }
        run_callbacks(
            callbacks
                .into_iter()
                .map(|(trigger, cb)| (cb, if status < 0 { status } else { trigger })),
        );
        notify_dependents(dependents, status < 0, end);
    }

    /// Registers `cmd` to be told when this event ends (`propagate`: an error status of this
    /// event fails `cmd`). Returns `Some((failed, end))` instead when the event has already
    /// ended.
    pub(crate) fn add_dependent(&self, cmd: &Arc<Command>, propagate: bool) -> Option<(bool, u64)> {
        let mut st = self.state.lock();
        if st.status <= CL_COMPLETE {
            Some((propagate && st.status < 0, st.times[T_END]))
        } else {
            st.dependents.push((cmd.clone(), propagate));
            None
        }
    }

    /// Registers the end hook (replacing none); runs it at once if the event already ended.
    pub fn set_end_hook(&self, hook: EndHook) {
        let mut st = self.state.lock();
        if st.status <= CL_COMPLETE {
            let (s, t) = (st.status, st.times);
            hook(s, t);
        } else {
            st.end_hook = Some(hook);
        }
    }

    /// Records that the (running) command was observed at time `t` (ns on the device
    /// timeline: [`crate::clock::device_now_ns`]); its END will not be earlier. Returns the
    /// time to use for the observation: `t`, but at least the command's START.
    pub fn observe_running_at(&self, t: u64) -> u64 {
        let mut st = self.state.lock();
        let t = t.max(st.times[T_START]);
        if st.status > CL_COMPLETE {
            st.min_end = st.min_end.max(t);
        }
        t
    }

    /// Snapshot of the [queued, submit, start, end] timestamps (0 where not reached), whether
    /// or not the queue profiles.
    pub fn times(&self) -> [u64; 4] {
        self.state.lock().times
    }

    /// `clSetEventCallback`. `trigger` is `CL_SUBMITTED`, `CL_RUNNING` or `CL_COMPLETE`.
    pub fn add_callback(&self, trigger: cl_int, cb: EventCallback) -> CLResult<()> {
        if !matches!(trigger, CL_SUBMITTED | CL_RUNNING | CL_COMPLETE) {
            return Err(CL_INVALID_VALUE);
        }
        let status = {
            let mut st = self.state.lock();
            if st.status > trigger {
                // Counted until it runs or is dropped (`clock::host_expects_callback`).
                let pending = crate::clock::callback_pending();
                let cb: EventCallback = Box::new(move |s| {
                    cb(s);
                    drop(pending);
                });
                st.callbacks.push((trigger, cb));
                return Ok(());
            }
            st.status
        };
        run_callbacks([(cb, if status < 0 { status } else { trigger })]);
        Ok(())
    }

    /// `clSetUserEventStatus`.
    pub fn set_user_status(&self, status: cl_int) -> CLResult<()> {
        if !self.is_user() {
            return Err(CL_INVALID_EVENT);
        }
        if status > CL_COMPLETE {
            return Err(CL_INVALID_VALUE);
        }
        if self.status() <= CL_COMPLETE {
            return Err(CL_INVALID_OPERATION);
        }
        self.set_status(status);
        Ok(())
    }

    /// Blocks until the event ends; returns its final status.
    ///
    /// While it waits for a command, it watches the device for a channel/pipe deadlock (every
    /// running kernel blocked and no progress over two samples); a deadlock makes the blocked
    /// kernels fail, which ends the wait with an error status instead of a hang.
    pub fn wait(&self) -> cl_int {
        let device = self.queue.as_ref().map(|q| q.device.clone());
        let is_kernel = matches!(
            self.command_type,
            CL_COMMAND_NDRANGE_KERNEL | CL_COMMAND_TASK
        );
        let mut watch = DeadlockWatch::default();
        let _host_wait = host_wait();
        let mut st = self.state.lock();
        while st.status > CL_COMPLETE {
            match &device {
                None => self.cond.wait(&mut st),
                Some(dev) => {
                    let timed_out = self.cond.wait_for(&mut st, WAIT_SLICE).timed_out();
                    // A running memory command finishes by itself; anything else (a kernel, or
                    // a command held back by its dependencies) may be stuck behind a deadlock.
                    let may_be_stuck = st.status != CL_RUNNING || is_kernel;
                    if timed_out && st.status > CL_COMPLETE && may_be_stuck {
                        MutexGuard::unlocked(&mut st, || watch.check(dev, &self.context));
                    }
                }
            }
        }
        // The host has waited until the command's emulated end.
        if self.queue.is_some() {
            host_waited_until(st.times[T_END]);
        }
        st.status
    }

    /// The status, as the host asks for it (`clGetEventInfo`): a command seen ended moves the
    /// host's position on the device timeline to its END (as a wait would); one not ended
    /// yet means the host polls (the run ledger treats it as waiting).
    fn status_seen_by_host(&self) -> cl_int {
        let st = self.state.lock();
        if self.queue.is_some() {
            if st.status <= CL_COMPLETE {
                host_waited_until(st.times[T_END]);
            } else {
                host_polled();
            }
        }
        st.status
    }

    /// `clGetEventProfilingInfo`.
    pub fn profiling_info(&self, param: cl_profiling_info) -> CLResult<u64> {
        let idx = match param {
            CL_PROFILING_COMMAND_QUEUED => T_QUEUED,
            CL_PROFILING_COMMAND_SUBMIT => T_SUBMIT,
            CL_PROFILING_COMMAND_START => T_START,
            CL_PROFILING_COMMAND_END | CL_PROFILING_COMMAND_COMPLETE => T_END,
            _ => return Err(CL_INVALID_VALUE),
        };
        let st = self.state.lock();
        if !self.profiling || st.status != CL_COMPLETE {
            return Err(CL_PROFILING_INFO_NOT_AVAILABLE);
        }
        Ok(st.times[idx])
    }

    /// `clGetEventInfo` (without the reference count).
    pub fn info(&self, param: cl_event_info) -> CLResult<InfoValue> {
        Ok(match param {
            CL_EVENT_COMMAND_QUEUE => InfoValue::Object(self.queue.clone().map(ObjRef::Queue)),
            CL_EVENT_CONTEXT => InfoValue::object(ObjRef::Context(self.context.clone())),
            CL_EVENT_COMMAND_TYPE => InfoValue::uint(self.command_type),
            CL_EVENT_COMMAND_EXECUTION_STATUS => InfoValue::int(self.status_seen_by_host()),
            _ => return Err(CL_INVALID_VALUE),
        })
    }
}

/// `clWaitForEvents`: all events must share a context; returns
/// `CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST` if any of them ended in error.
pub fn wait_for_events(events: &[Arc<Event>]) -> CLResult<()> {
    let first = events.first().ok_or(CL_INVALID_VALUE)?;
    if events
        .iter()
        .any(|e| !Arc::ptr_eq(&e.context, &first.context))
    {
        return Err(CL_INVALID_CONTEXT);
    }
    let mut failed = false;
    for e in events {
        failed |= e.wait() < 0;
    }
    if failed {
        Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    } else {
        Ok(())
    }
}
