//! Channels and pipes with FPGA semantics: bounded FIFOs of their declared depth.
//!
//! * depth N > 0: up to N elements buffered; a blocking write waits while the FIFO is full, a
//!   blocking read while it is empty.
//! * depth 0: a rendezvous. A blocking write completes only when a reader has taken its element.
//!   (A non-blocking write on a depth-0 FIFO succeeds when the single hand-over slot is free, so
//!   that two non-blocking endpoints can still communicate.)
//! * Order per FIFO is the order of writes. Payloads are raw bytes (scalars, vectors, structs).
//!
//! Waits block only the calling thread (each kernel that uses channels runs on its own thread),
//! never spin, and wake up periodically to honour shutdown and deadlock aborts.

use crate::activity::{Activity, BlockedOn, RunState};
use crate::fault::SourcePos;
use crate::timing::TICKS_PER_CYCLE;
use parking_lot::{Condvar, Mutex};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often a blocked wait re-checks its stop conditions.
const POLL: Duration = Duration::from_millis(20);
/// Yields before a waiting operation sleeps on the condition variable.
const SPINS: u32 = 16;

/// The `now` of a FIFO operation without simulated time (timing hook).
pub const UNTIMED: u64 = u64::MAX;

/// A channel or pipe FIFO. `clCreatePipe` objects are [`PipeFifo`]s (the same type).
#[derive(Debug)]
pub struct Fifo {
    name: String,
    elem: usize,
    depth: u32,
    cap: usize,
    st: Mutex<State>,
    cv: Condvar,
}

/// A `clCreatePipe` object: a FIFO of `max_packets` packets of `packet_size` bytes.
pub type PipeFifo = Fifo;

#[derive(Debug)]
struct State {
    buf: Vec<u8>,
    head: usize,
    len: usize,
    writes: u64,
    reads: u64,
    waiters: u32,
    /// Timing hook: simulated write tick of the element in each slot.
    tw: Vec<u64>,
    /// Timing hook: `tr[k % cap]` = simulated read tick of element k.
    tr: Vec<u64>,
}

/// Outcome of a FIFO operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FifoOutcome {
    /// The element moved; `waited` tells whether the operation had to block first.
    Done { waited: bool },
    /// A non-blocking operation found the FIFO empty (read) or full (write).
    NotReady,
    /// The wait was ended by an abort (deadlock) request.
    Aborted,
    /// The wait was ended by shutdown of the program instance.
    Shutdown,
}

/// The context of a possibly blocking FIFO operation.
pub struct Waiter<'a> {
    pub run: &'a RunState,
    pub activity: &'a Activity,
    pub shutdown: &'a AtomicBool,
    /// Source position of the operation, computed only when it actually blocks.
    pub pos: &'a dyn Fn() -> Option<SourcePos>,
}

impl Waiter<'_> {
    fn stop(&self) -> Option<FifoOutcome> {
        if self.shutdown.load(Ordering::Relaxed) {
            Some(FifoOutcome::Shutdown)
        } else if self.run.abort_requested() {
            Some(FifoOutcome::Aborted)
        } else {
            None
        }
    }
    fn begin(&self, fifo: &Fifo, write: bool) {
        self.run.set_blocked(Some(BlockedOn {
            fifo: fifo.name.clone(),
            write,
            pos: (self.pos)(),
        }));
    }
    fn end(&self) {
        self.run.set_blocked(None);
        self.activity.bump();
    }
}

impl Fifo {
    /// A FIFO of `depth` elements of `elem_size` bytes (depth 0 = rendezvous).
    pub fn new(name: impl Into<String>, elem_size: u32, depth: u32) -> Fifo {
        let cap = depth.max(1) as usize;
        let elem = elem_size as usize;
        Fifo {
            name: name.into(),
            elem,
            depth,
            cap,
            st: Mutex::new(State {
                buf: vec![0; cap * elem],
                head: 0,
                len: 0,
                writes: 0,
                reads: 0,
                waiters: 0,
                tw: vec![0; cap],
                tr: vec![0; cap],
            }),
            cv: Condvar::new(),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }
    /// Bytes per element (packet size).
    pub fn elem_size(&self) -> u32 {
        self.elem as u32
    }
    pub fn depth(&self) -> u32 {
        self.depth
    }
    /// Elements buffered now.
    pub fn len(&self) -> usize {
        self.st.lock().len
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Wakes every waiter (used on shutdown so blocked kernels notice promptly).
    pub fn wake_all(&self) {
        let _g = self.st.lock();
        self.cv.notify_all();
    }

    /// Waits for a change of the FIFO: first by yielding the CPU a few times (the other side
    /// usually acts within microseconds, and a sleep/wake pair costs far more), then on the
    /// condition variable with a timeout (to re-check stop requests).
    fn wait(&self, st: &mut parking_lot::MutexGuard<'_, State>, spins: &mut u32) {
        if *spins < SPINS {
            *spins += 1;
            let before = (st.writes, st.reads);
            parking_lot::MutexGuard::unlocked(st, std::thread::yield_now);
            if (st.writes, st.reads) != before {
                return;
            }
        }
        st.waiters += 1;
        self.cv.wait_for(st, POLL);
        st.waiters -= 1;
    }

    /// Writes one element (`src.len()` must equal the element size; extra bytes are ignored,
    /// missing bytes are zero).
    pub fn write(&self, src: &[u8], blocking: bool, w: &Waiter<'_>) -> FifoOutcome {
        self.write_at(src, blocking, w, UNTIMED).0
    }

    /// [`Fifo::write`] in simulated time (timing hook): the writer's clock is `now` (ticks);
    /// returns the tick the write completes: depth > 0, when element k - depth was read;
    /// depth 0, when element k itself was read (rendezvous). A non-blocking write is not ready
    /// when the slot is still occupied in simulated time. `now = UNTIMED`: no simulated time
    /// (the element is stamped as available at tick 0: an untimed writer looks infinitely fast).
    pub fn write_at(
        &self,
        src: &[u8],
        blocking: bool,
        w: &Waiter<'_>,
        now: u64,
    ) -> (FifoOutcome, u64) {
        let mut st = self.st.lock();
        let mut waited = false;
        let mut spins = 0u32;
        while st.len == self.cap {
            if !blocking {
                return (FifoOutcome::NotReady, now);
            }
            if !waited {
                waited = true;
                w.begin(self, true);
            }
            if let Some(o) = w.stop() {
                return (o, now);
            }
            self.wait(&mut st, &mut spins);
        }
        let k = st.writes as usize;
        let freed = if self.depth > 0 && k >= self.cap {
            st.tr[k % self.cap]
        } else {
            0
        };
        if !blocking && freed > now {
            return (FifoOutcome::NotReady, now);
        }
        let mut t = now.max(freed);
        let slot = (st.head + st.len) % self.cap;
        st.tw[slot] = if now == UNTIMED { 0 } else { t };
        let n = src.len().min(self.elem);
        let dst = &mut st.buf[slot * self.elem..(slot + 1) * self.elem];
        dst[..n].copy_from_slice(&src[..n]);
        dst[n..].fill(0);
        st.len += 1;
        st.writes += 1;
        let seq = st.writes;
        if st.waiters > 0 {
            self.cv.notify_all();
        }
        if self.depth == 0 && blocking {
            while st.reads < seq {
                if !waited {
                    waited = true;
                    w.begin(self, true);
                }
                if let Some(o) = w.stop() {
                    return (o, now);
                }
                self.wait(&mut st, &mut spins);
            }
            t = t.max(st.tr[k % self.cap]);
        }
        drop(st);
        if waited {
            w.end();
        }
        (FifoOutcome::Done { waited }, t)
    }

    /// Reads one element into `dst` (element-size bytes).
    pub fn read(&self, dst: &mut [u8], blocking: bool, w: &Waiter<'_>) -> FifoOutcome {
        self.read_at(dst, blocking, w, UNTIMED).0
    }

    /// [`Fifo::read`] in simulated time (timing hook): the reader's clock is `now` (ticks);
    /// returns the tick the read completes: at least one cycle after the element was written
    /// (depth > 0) or the writer's arrival (depth 0). A non-blocking read is not ready when the
    /// next element is not yet written in simulated time.
    pub fn read_at(
        &self,
        dst: &mut [u8],
        blocking: bool,
        w: &Waiter<'_>,
        now: u64,
    ) -> (FifoOutcome, u64) {
        let mut st = self.st.lock();
        let mut waited = false;
        let mut spins = 0u32;
        while st.len == 0 {
            if !blocking {
                return (FifoOutcome::NotReady, now);
            }
            if !waited {
                waited = true;
                w.begin(self, false);
            }
            if let Some(o) = w.stop() {
                return (o, now);
            }
            self.wait(&mut st, &mut spins);
        }
        let slot = st.head;
        let hop = if self.depth > 0 { TICKS_PER_CYCLE } else { 0 };
        let avail = st.tw[slot].saturating_add(hop);
        if !blocking && avail > now {
            return (FifoOutcome::NotReady, now);
        }
        let t = now.max(avail);
        let k = st.reads as usize;
        st.tr[k % self.cap] = if now == UNTIMED { 0 } else { t };
        let n = dst.len().min(self.elem);
        dst[..n].copy_from_slice(&st.buf[slot * self.elem..slot * self.elem + n]);
        dst[n..].fill(0);
        st.head = (st.head + 1) % self.cap;
        st.len -= 1;
        st.reads += 1;
        if st.waiters > 0 {
            self.cv.notify_all();
        }
        drop(st);
        if waited {
            w.end();
        }
        (FifoOutcome::Done { waited }, t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn with_waiter<R>(f: impl FnOnce(&Waiter<'_>) -> R) -> R {
        let act = Activity::new();
        let g = act.register("t", false, [0; 3]);
        let stop = AtomicBool::new(false);
        let pos = || None;
        let w = Waiter {
            run: g.state(),
            activity: &act,
            shutdown: &stop,
            pos: &pos,
        };
        f(&w)
    }

    #[test]
    fn buffered_order_and_nonblocking() {
        let f = Fifo::new("c", 4, 2);
        with_waiter(|w| {
            let mut b = [0u8; 4];
            assert_eq!(f.read(&mut b, false, w), FifoOutcome::NotReady);
            assert_eq!(
                f.write(&1u32.to_le_bytes(), false, w),
                FifoOutcome::Done { waited: false }
            );
            assert_eq!(
                f.write(&2u32.to_le_bytes(), true, w),
                FifoOutcome::Done { waited: false }
            );
            assert_eq!(
                f.write(&3u32.to_le_bytes(), false, w),
                FifoOutcome::NotReady
            );
            f.read(&mut b, true, w);
            assert_eq!(u32::from_le_bytes(b), 1);
            f.read(&mut b, false, w);
            assert_eq!(u32::from_le_bytes(b), 2);
        });
    }

    #[test]
    fn rendezvous_write_waits_for_reader() {
        let f = Arc::new(Fifo::new("r", 4, 0));
        let f2 = f.clone();
        let t = std::thread::spawn(move || {
            with_waiter(|w| {
                let o = f2.write(&7u32.to_le_bytes(), true, w);
                assert_eq!(o, FifoOutcome::Done { waited: true });
            })
        });
        std::thread::sleep(Duration::from_millis(50));
        assert!(!t.is_finished(), "a depth-0 write must wait for its reader");
        with_waiter(|w| {
            let mut b = [0u8; 4];
            f.read(&mut b, true, w);
            assert_eq!(u32::from_le_bytes(b), 7);
        });
        t.join().unwrap();
    }

    #[test]
    fn shutdown_ends_wait() {
        let f = Fifo::new("s", 4, 1);
        let act = Activity::new();
        let g = act.register("t", false, [0; 3]);
        let stop = AtomicBool::new(true);
        let pos = || None;
        let w = Waiter {
            run: g.state(),
            activity: &act,
            shutdown: &stop,
            pos: &pos,
        };
        let mut b = [0u8; 4];
        assert_eq!(f.read(&mut b, true, &w), FifoOutcome::Shutdown);
        assert_eq!(g.state().blocked_on().unwrap().fifo, "s");
    }
}
