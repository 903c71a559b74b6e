//! Clocks: the monotonic host clock, and the virtual host clock of the emulated timeline.
//!
//! The virtual host clock is wall time minus the time the host spent blocked waiting for the
//! emulator (clFinish, clWaitForEvents, blocking transfers) or inside its enqueue calls, plus
//! the emulated device time it waited for: when a wait returns, the host's virtual time is at least the emulated END of
//! what it waited for. So emulation slowness never appears on the timeline, host gaps do.
//! Event timestamps: QUEUED/SUBMIT are virtual host times, START/END emulated device times.

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
    stop_clock(|v| v.calls += 1);
    HostCall(())
}

impl Drop for HostCall {
    fn drop(&mut self) {
        restart_clock(|v| v.calls -= 1);
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

/// Removes one reason (`count` takes it away); the last one restarts the clock.
fn restart_clock(count: impl FnOnce(&mut Virtual)) {
    let now = now_ns();
    let mut v = VIRTUAL.lock();
    count(&mut v);
    if v.waiters + v.calls == 0 {
        v.offset += (now - v.since.min(now)) as i64;
    }
}

/// The host has waited for something that ended at emulated time `t`: its virtual time is at
/// least `t` from now on.
pub fn host_waited_until(t: u64) {
    let now = now_ns();
    let mut v = VIRTUAL.lock();
    let cur = virtual_at(&v, now);
    if t > cur {
        v.offset -= (t - cur) as i64;
    }
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
    fn virtual_clock_is_monotonic_and_follows_waits() {
        let _serial = SERIAL.lock();
        let a = virtual_now_ns();
        {
            let _w = host_wait();
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let b = virtual_now_ns();
        assert!(b >= a);
        host_waited_until(b + 1_000_000_000);
        let c = virtual_now_ns();
        assert!(c >= b + 1_000_000_000, "{b} {c}");
    }
}
