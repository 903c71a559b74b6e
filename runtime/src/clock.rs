//! Clocks: the monotonic host clock, and the virtual host clock of the emulated timeline.
//!
//! The virtual host clock is wall time minus the time the host spent blocked waiting for the
//! emulator (clFinish, clWaitForEvents, blocking transfers), plus the emulated device time it
//! waited for: when a wait returns, the host's virtual time is at least the emulated END of
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
    /// When the current blocked interval began (host ns).
    since: u64,
    /// virtual = host - offset (outside blocked intervals).
    offset: i64,
    /// Last value handed out (keeps the clock monotonic).
    last: u64,
}

static VIRTUAL: Mutex<Virtual> = Mutex::new(Virtual {
    waiters: 0,
    since: 0,
    offset: 0,
    last: 0,
});

fn virtual_at(v: &Virtual, now: u64) -> u64 {
    let blocked = if v.waiters > 0 {
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
    let now = now_ns();
    let mut v = VIRTUAL.lock();
    if v.waiters == 0 {
        v.since = now;
    }
    v.waiters += 1;
    HostWait(())
}

impl Drop for HostWait {
    fn drop(&mut self) {
        let now = now_ns();
        let mut v = VIRTUAL.lock();
        v.waiters -= 1;
        if v.waiters == 0 {
            v.offset += (now - v.since.min(now)) as i64;
        }
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

    #[test]
    fn virtual_clock_is_monotonic_and_follows_waits() {
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
