//! Clocks: the monotonic host clock, the host's position on the device timeline, and the
//! host's own (virtual) time.
//!
//! **The device timeline** (emulated time) is the only clock of the figures: event START/END
//! times, kernel runs, autorun clocks, the profile. A command starts at the device time its
//! dependencies allow (see `queue.rs`), never at a wall-clock time. The host has a position on
//! it, [`device_now_ns`]: the latest emulated END the host has seen (a wait returned, an event
//! status query or a completion callback told it the command ended); it starts at 1 ns (0 is
//! "not reached" in event timestamps) and moves only then. A command's QUEUED time is the
//! host's position when it was enqueued, so the same host program gives the same times
//! whatever the machine's load, core count or the host's own speed.
//!
//! **The host's own time** ([`virtual_now_ns`]) is wall time minus the time the host spent
//! blocked waiting for the emulator (clFinish, clWaitForEvents, blocking transfers) or inside
//! its enqueue calls: what the host program itself took. It is measured separately (the host
//! gaps: [`call_gap_ns`], the profile's `HostGap` records, the `fpgacl profile` summary) and
//! never enters a device figure, nor any decision of the run ledger.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

use parking_lot::Mutex;

static ORIGIN: OnceLock<Instant> = OnceLock::new();

/// Nanoseconds since the runtime's clock origin (first use), never 0, monotonic.
pub fn now_ns() -> u64 {
    let origin = *ORIGIN.get_or_init(Instant::now);
    origin.elapsed().as_nanos() as u64 + 1
}

struct Virtual {
    /// Host threads blocked in a wait right now.
    waiters: usize,
    /// Host threads inside an enqueue call right now (emulator overhead, not host work).
    calls: usize,
    /// When the current blocked interval began (host ns).
    since: u64,
    /// virtual = host - offset (outside blocked intervals).
    offset: i64,
    /// Last value handed out (keeps the clock monotonic).
    last: u64,
}

static VIRTUAL: Mutex<Virtual> = Mutex::new(Virtual {
    waiters: 0,
    calls: 0,
    since: 0,
    offset: 0,
    last: 0,
});

fn virtual_at(v: &Virtual, now: u64) -> u64 {
    let blocked = if v.waiters + v.calls > 0 {
        now - v.since.min(now)
    } else {
        0
    };
    (now as i64 - v.offset - blocked as i64).max(1) as u64
}

/// The virtual host time (ns), monotonic across threads.
pub fn virtual_now_ns() -> u64 {
    let now = now_ns();
    let mut v = VIRTUAL.lock();
    let t = virtual_at(&v, now).max(v.last);
    v.last = t;
    t
}

/// Whether a host thread is blocked in a wait right now (the virtual clock stands still, so
/// the host enqueues nothing new until something it waits for ends).
pub fn host_waiting() -> bool {
    VIRTUAL.lock().waiters > 0
}

/// Marks a host thread blocked in a wait until the guard drops.
pub struct HostWait(());

/// Starts a host wait (the virtual clock stops while any host thread waits).
pub fn host_wait() -> HostWait {
    stop_clock(|v| v.waiters += 1);
    HostWait(())
}

impl Drop for HostWait {
    fn drop(&mut self) {
        restart_clock(|v| v.waiters -= 1);
    }
}

/// Marks a host thread inside an enqueue call until the guard drops.
pub struct HostCall(());

/// Starts an enqueue call: the virtual clock stops while any host thread is inside one, so
/// the emulator's own overhead (validation, locks, waking workers; tens of microseconds on
/// a loaded machine) never shows up as a host gap between commands. Unlike a wait, it does
/// not tell the run ledger that the host is blocked ([`host_waiting`]).
pub fn host_call() -> HostCall {
    POLLING.store(false, Ordering::SeqCst);
    // 0 before the host's first enqueue call returned: no previous command to measure from.
    let gap = match LAST_CALL_END.load(Ordering::SeqCst) {
        0 => 0,
        last => virtual_now_ns().saturating_sub(last),
    };
    CALL_GAP.with(|g| g.set(Some(gap)));
    stop_clock(|v| v.calls += 1);
    HostCall(())
}

thread_local! {
    /// The host gap of the enqueue call this thread is in ([`call_gap_ns`]).
    static CALL_GAP: std::cell::Cell<Option<u64>> = const { std::cell::Cell::new(None) };
}

/// Inside an enqueue call ([`host_call`]): the host's own time (ns, [`virtual_now_ns`]) from
/// the return of its previous enqueue call (0 for the host's first one: set-up and program
/// builds before it are not counted) to
/// this call: what the host program did between the two commands (computing, sleeping, other
/// API calls), waits left out. Wall-clock, so it differs from run to run; the profile records
/// it apart from the device timeline (`HostGap` records). `None` outside an enqueue call.
pub fn call_gap_ns() -> Option<u64> {
    CALL_GAP.with(|g| g.get())
}

impl Drop for HostCall {
    fn drop(&mut self) {
        CALL_GAP.with(|g| g.set(None));
        // The virtual time at the restart is when the call ended (one clock read and one
        // lock per call end, not two).
        let end = restart_clock(|v| v.calls -= 1);
        LAST_CALL_END.store(end, Ordering::SeqCst);
    }
}

/// Counts one more reason for the virtual clock to stand still (`count` adds it).
fn stop_clock(count: impl FnOnce(&mut Virtual)) {
    let now = now_ns();
    let mut v = VIRTUAL.lock();
    if v.waiters + v.calls == 0 {
        v.since = now;
    }
    count(&mut v);
}

/// Removes one reason (`count` takes it away); the last one restarts the clock. Returns the
/// virtual time then (as [`virtual_now_ns`] would, and handed out as it does).
fn restart_clock(count: impl FnOnce(&mut Virtual)) -> u64 {
    let now = now_ns();
    let mut v = VIRTUAL.lock();
    count(&mut v);
    if v.waiters + v.calls == 0 {
        v.offset += (now - v.since.min(now)) as i64;
    }
    let t = virtual_at(&v, now).max(v.last);
    v.last = t;
    t
}

/// The host's position on the device timeline (ns): the latest emulated END it has seen.
static DEVICE_NOW: AtomicU64 = AtomicU64::new(1);

/// The host's position on the device timeline (ns, at least 1): the QUEUED time of a command
/// enqueued now, and the time of the host's own actions (user event status, captures).
pub fn device_now_ns() -> u64 {
    DEVICE_NOW.load(Ordering::SeqCst)
}

/// The host has waited for (or seen the end of) something that ended at emulated time `t`:
/// its position on the device timeline is at least `t` from now on.
pub fn host_waited_until(t: u64) {
    DEVICE_NOW.fetch_max(t, Ordering::SeqCst);
}

/// The host's last call into the runtime was an event status query that found the event not
/// ended: it polls (as good as waiting, for the run ledger). Any other call clears it.
static POLLING: AtomicBool = AtomicBool::new(false);

/// The host asked for an event's status and it has not ended (it polls).
pub fn host_polled() {
    POLLING.store(true, Ordering::SeqCst);
}

/// Whether the host's last runtime call was a status query of an event that had not ended.
pub fn host_polling() -> bool {
    POLLING.load(Ordering::SeqCst)
}

/// The host's own time ([`virtual_now_ns`]) when its last enqueue call returned (the start
/// of the next command's host gap, [`call_gap_ns`]).
static LAST_CALL_END: AtomicU64 = AtomicU64::new(0);

/// Event callbacks registered (`clSetEventCallback`) and not run (or dropped) yet.
static CALLBACKS_PENDING: AtomicUsize = AtomicUsize::new(0);

/// Counts one registered event callback until the guard drops (with the callback: when it has
/// run, or when its event goes away without running it).
pub struct PendingCallback(());

/// A host event callback was registered: until it runs, the host may be waiting for it
/// (spinning on a flag it sets), which counts as waiting for the run ledger
/// ([`host_expects_callback`]).
pub fn callback_pending() -> PendingCallback {
    CALLBACKS_PENDING.fetch_add(1, Ordering::SeqCst);
    PendingCallback(())
}

impl Drop for PendingCallback {
    fn drop(&mut self) {
        CALLBACKS_PENDING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Whether an event callback of the host is registered and has not run yet. A host waiting
/// for one (spinning on a flag the callback sets) makes no runtime call, so the run ledger
/// takes it as waiting: a property of the host program, not of how long it took.
pub fn host_expects_callback() -> bool {
    CALLBACKS_PENDING.load(Ordering::SeqCst) > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The clock is process-wide: its tests must not run at the same time (`cargo test`).
    static SERIAL: Mutex<()> = Mutex::new(());

    #[test]
    fn enqueue_calls_stop_the_virtual_clock_without_being_waits() {
        let _serial = SERIAL.lock();
        let a = virtual_now_ns();
        {
            let _c = host_call();
            assert!(!host_waiting(), "an enqueue call is not a host wait");
            std::thread::sleep(std::time::Duration::from_millis(30));
            let inside = virtual_now_ns();
            assert!(inside - a < 15_000_000, "the clock ran inside the call");
        }
        let b = virtual_now_ns();
        // Only the time outside the call counts (a few microseconds here).
        assert!(b - a < 15_000_000, "{a} {b}");
    }

    #[test]
    fn virtual_clock_is_monotonic_and_leaves_out_waits() {
        let _serial = SERIAL.lock();
        let a = virtual_now_ns();
        {
            let _w = host_wait();
            std::thread::sleep(std::time::Duration::from_millis(40));
        }
        let b = virtual_now_ns();
        assert!(b >= a);
        assert!(b - a < 20_000_000, "the wait counted as host time: {a} {b}");
    }

    #[test]
    fn the_device_position_moves_only_with_what_the_host_saw_end() {
        let _serial = SERIAL.lock();
        let a = device_now_ns();
        assert!(a >= 1);
        host_waited_until(a + 1_000_000_000);
        let b = device_now_ns();
        assert!(b >= a + 1_000_000_000, "{a} {b}");
        host_waited_until(a + 5);
        assert!(device_now_ns() >= b, "it never moves back");
    }

    #[test]
    fn an_enqueue_call_knows_the_host_time_since_the_previous_one() {
        let _serial = SERIAL.lock();
        drop(host_call());
        assert_eq!(call_gap_ns(), None, "outside a call");
        std::thread::sleep(std::time::Duration::from_millis(30));
        {
            // Time blocked in a wait is not the host's own.
            let _w = host_wait();
            std::thread::sleep(std::time::Duration::from_millis(40));
        }
        let c = host_call();
        let gap = call_gap_ns().expect("inside a call");
        assert!((30_000_000..70_000_000).contains(&gap), "{gap}");
        drop(c);
        let _c = host_call();
        assert!(call_gap_ns().unwrap() < 30_000_000);
    }

    #[test]
    fn polling_lasts_until_the_next_call() {
        let _serial = SERIAL.lock();
        host_polled();
        assert!(host_polling());
        drop(host_call());
        assert!(!host_polling());
    }

    #[test]
    fn a_pending_callback_counts_until_it_is_dropped() {
        let _serial = SERIAL.lock();
        assert!(!host_expects_callback());
        let a = callback_pending();
        let b = callback_pending();
        assert!(host_expects_callback());
        drop(a);
        assert!(host_expects_callback());
        drop(b);
        assert!(!host_expects_callback());
    }
}
