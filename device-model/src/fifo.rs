//! Channels and pipes with FPGA semantics: bounded FIFOs of their declared depth.
//!
//! * depth N > 0: up to N elements buffered; a blocking write waits while the FIFO is full, a
//!   blocking read while it is empty.
//! * depth 0: a rendezvous. A blocking write completes only when a reader has taken its element.
//!   (A non-blocking write on a depth-0 FIFO succeeds when the single hand-over slot is free, so
//!   that two non-blocking endpoints can still communicate.)
//! * Order per FIFO is the order of writes. Payloads are raw bytes (scalars, vectors, structs).
//! * Non-blocking operations are decided in simulated time (rule F-nb of `timing/MODEL.md`):
//!   in a timed execution, one that finds the FIFO empty (read) or full (write) on the host
//!   waits until the element (room) arrives or [`Activity`]'s floor shows that none can be
//!   visible at its tick; untimed ones fail at once.
//!
//! Waits block only the calling thread (each kernel that uses channels runs on its own thread),
//! never spin (beyond a few yields), and wake up periodically to honour shutdown and deadlock
//! aborts.

use crate::activity::{Activity, BlockedOn, RunState, SimCell, SimWait, SIM};
use crate::fault::SourcePos;
use crate::timing::TICKS_PER_CYCLE;
use parking_lot::{Condvar, Mutex, MutexGuard};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How often a blocked wait re-checks its stop conditions.
const POLL: Duration = Duration::from_millis(20);
/// Yields before a waiting operation sleeps on the condition variable.
const SPINS: u32 = 16;
/// How often a non-blocking operation waiting for its decision re-checks the floor: partners'
/// clocks advance without a signal (they publish them at their channel operations), so the
/// wait re-reads them at this pace when nothing else wakes it.
const NB_POLL: Duration = Duration::from_millis(1);

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
    /// Changes while timed executions wait on this FIFO (conservative non-blocking decisions).
    sim: Arc<SimCell>,
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
    /// Timed executions waiting on this FIFO (blocking or non-blocking): its operations then
    /// signal [`SIM`].
    sim_waiters: u32,
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
                sim_waiters: 0,
                tw: vec![0; cap],
                tr: vec![0; cap],
            }),
            cv: Condvar::new(),
            sim: Arc::default(),
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

    /// Wakes the waiters after a change; signals timed executions that wait on this FIFO.
    #[inline]
    fn changed(&self, st: &State) {
        if st.waiters > 0 {
            self.cv.notify_all();
        }
        if st.sim_waiters > 0 {
            self.sim.touch();
            SIM.bump();
        }
    }

    /// A timed execution is (still) stuck in a blocking operation on this FIFO: records it
    /// with the FIFO's current change count (called with the condition checked under the
    /// lock). `rec`: the change count recorded so far (`None`: not registered yet).
    fn sim_stuck(&self, st: &mut State, w: &Waiter<'_>, rec: &mut Option<u64>) {
        if !w.run.timed() {
            return;
        }
        if rec.is_none() {
            st.sim_waiters += 1;
        }
        let seen = self.sim.ops();
        if *rec != Some(seen) {
            *rec = Some(seen);
            w.run.set_sim(Some(SimWait::Stuck {
                cell: self.sim.clone(),
                seen,
            }));
        }
    }

    fn sim_leave(st: &mut State, w: &Waiter<'_>, rec: Option<u64>) {
        if rec.is_some() {
            st.sim_waiters -= 1;
            w.run.set_sim(None);
        }
    }

    /// A non-blocking operation of a timed execution at tick `now` found the FIFO empty (read)
    /// or full (write) on the host: waits (host time) until the element or room is there
    /// (`None`: decide by the timestamps) or until no execution can any more write an element
    /// visible at `now` (read: floor + visibility lookahead > now) or read element k - depth
    /// before `now` (write: floor >= now): `Some(NotReady)`. The floor is
    /// [`Activity::sim_floor`]; when every execution waits, the smallest tick decides, so the
    /// wait never deadlocks.
    fn nb_wait(
        &self,
        st: &mut MutexGuard<'_, State>,
        w: &Waiter<'_>,
        now: u64,
        write: bool,
    ) -> Option<FifoOutcome> {
        let lookahead = if write { 1 } else { self.nb_hop() };
        st.sim_waiters += 1;
        w.run.set_sim(Some(SimWait::Nb { t: now }));
        let mut spins = 0u32;
        let ready = |st: &State| if write { st.len < self.cap } else { st.len > 0 };
        let out = loop {
            if ready(st) {
                break None;
            }
            if let Some(o) = w.stop() {
                break Some(o);
            }
            let seen = SIM.epoch();
            let floor = MutexGuard::unlocked(st, || w.activity.sim_floor(w.run));
            if floor.is_some_and(|f| f.saturating_add(lookahead) > now) {
                // An element (room) that arrived meanwhile is decided by its timestamp; one
                // that arrives later cannot be visible at `now`.
                break if ready(st) {
                    None
                } else {
                    Some(FifoOutcome::NotReady)
                };
            }
            if spins < SPINS {
                spins += 1;
                MutexGuard::unlocked(st, std::thread::yield_now);
            } else {
                MutexGuard::unlocked(st, || SIM.wait(seen, NB_POLL));
            }
        };
        st.sim_waiters -= 1;
        w.run.set_sim(None);
        out
    }

    /// One round of a blocking operation's wait (the FIFO is full for a write, empty for a
    /// read, or a rendezvous write is not taken yet): marks the execution blocked on its first
    /// round, records a timed execution as stuck, and waits for a change.
    /// `Some(outcome)`: stop (shutdown or abort), the wait's registration undone.
    #[allow(clippy::too_many_arguments)]
    fn block(
        &self,
        st: &mut MutexGuard<'_, State>,
        w: &Waiter<'_>,
        write: bool,
        timed: bool,
        waited: &mut bool,
        sim: &mut Option<u64>,
        spins: &mut u32,
    ) -> Option<FifoOutcome> {
        if !*waited {
            *waited = true;
            w.begin(self, write);
        }
        if let Some(o) = w.stop() {
            Self::sim_leave(st, w, *sim);
            return Some(o);
        }
        if timed {
            self.sim_stuck(st, w, sim);
        }
        self.wait(st, spins);
        None
    }

    /// Non-blocking reads see an element `nb_hop` ticks after its write: one cycle (depth > 0,
    /// as blocking reads), one tick on a rendezvous (so that ties in simulated time are
    /// decided alike whichever host thread comes first).
    fn nb_hop(&self) -> u64 {
        if self.depth > 0 {
            TICKS_PER_CYCLE
        } else {
            1
        }
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
        let timed = now != UNTIMED;
        if timed {
            w.run.publish_clock(now);
        }
        let mut st = self.st.lock();
        let mut waited = false;
        let mut sim = None;
        let mut spins = 0u32;
        while st.len == self.cap {
            if !blocking {
                if !timed || !w.run.timed() {
                    return (FifoOutcome::NotReady, now);
                }
                match self.nb_wait(&mut st, w, now, true) {
                    Some(o) => return (o, now),
                    None => continue,
                }
            }
            if let Some(o) = self.block(&mut st, w, true, timed, &mut waited, &mut sim, &mut spins)
            {
                return (o, now);
            }
        }
        let k = st.writes as usize;
        let freed = if k >= self.cap && (self.depth > 0 || !blocking) {
            st.tr[k % self.cap]
        } else {
            0
        };
        // Non-blocking: the slot must have been freed strictly before `now` (ties decide alike
        // whichever host thread comes first; rule F).
        if !blocking && k >= self.cap && freed >= now {
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
        self.changed(&st);
        if self.depth == 0 && blocking {
            while st.reads < seq {
                if let Some(o) =
                    self.block(&mut st, w, true, timed, &mut waited, &mut sim, &mut spins)
                {
                    return (o, now);
                }
            }
            t = t.max(st.tr[k % self.cap]);
        }
        Self::sim_leave(&mut st, w, sim);
        drop(st);
        if waited {
            w.end();
            if timed {
                w.run.publish_clock(t);
            }
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
        let timed = now != UNTIMED;
        if timed {
            w.run.publish_clock(now);
        }
        let mut st = self.st.lock();
        let mut waited = false;
        let mut sim = None;
        let mut spins = 0u32;
        while st.len == 0 {
            if !blocking {
                if !timed || !w.run.timed() {
                    return (FifoOutcome::NotReady, now);
                }
                match self.nb_wait(&mut st, w, now, false) {
                    Some(o) => return (o, now),
                    None => continue,
                }
            }
            if let Some(o) = self.block(&mut st, w, false, timed, &mut waited, &mut sim, &mut spins)
            {
                return (o, now);
            }
        }
        let slot = st.head;
        let hop = if self.depth > 0 { TICKS_PER_CYCLE } else { 0 };
        let avail = st.tw[slot].saturating_add(hop);
        if !blocking && st.tw[slot].saturating_add(self.nb_hop()) > now {
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
        self.changed(&st);
        Self::sim_leave(&mut st, w, sim);
        drop(st);
        if waited {
            w.end();
            if timed {
                w.run.publish_clock(t);
            }
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

    /// Runs `f` as a timed execution registered with `act` from `start` ticks on.
    fn timed<R>(act: &Arc<Activity>, start: u64, f: impl FnOnce(&Waiter<'_>) -> R) -> R {
        let g = act.register_timed("t", false, [0; 3], Some(start));
        let stop = AtomicBool::new(false);
        let pos = || None;
        let w = Waiter {
            run: g.state(),
            activity: act,
            shutdown: &stop,
            pos: &pos,
        };
        f(&w)
    }

    const C: u64 = TICKS_PER_CYCLE;

    /// A non-blocking read at cycle 100 on a host-empty FIFO whose writer is behind in
    /// simulated time (cycle 0) but late on the host: it waits for the element (written at
    /// cycle 10, visible at 11) instead of failing.
    #[test]
    fn nb_read_waits_for_a_writer_behind_in_simulated_time() {
        let act = Activity::new();
        let f = Arc::new(Fifo::new("c", 4, 4));
        let hold = act.hold_sim();
        let (f2, act2) = (f.clone(), act.clone());
        let writer = std::thread::spawn(move || {
            timed(&act2, 0, |w| {
                std::thread::sleep(Duration::from_millis(30));
                f2.write_at(&5u32.to_le_bytes(), true, w, 10 * C)
            })
        });
        while act.report().kernels.is_empty() {
            std::thread::yield_now();
        }
        drop(hold);
        let mut b = [0u8; 4];
        let got = timed(&act, 100 * C, |w| f.read_at(&mut b, false, w, 100 * C));
        assert_eq!(got, (FifoOutcome::Done { waited: false }, 100 * C));
        assert_eq!(u32::from_le_bytes(b), 5);
        writer.join().unwrap();
    }

    /// The writer's clock is past the read (cycle 200 > 100): the read fails at once; a writer
    /// that ends without writing makes it fail too.
    #[test]
    fn nb_read_fails_when_no_element_can_be_visible() {
        let act = Activity::new();
        let f = Arc::new(Fifo::new("c", 4, 4));
        for (start, write) in [(200 * C, true), (0, false)] {
            let hold = act.hold_sim();
            let (f2, act2) = (f.clone(), act.clone());
            let writer = std::thread::spawn(move || {
                timed(&act2, start, |w| {
                    std::thread::sleep(Duration::from_millis(30));
                    if write {
                        f2.write_at(&[1; 4], true, w, start);
                    }
                })
            });
            while act.report().kernels.is_empty() {
                std::thread::yield_now();
            }
            drop(hold);
            let mut b = [0u8; 4];
            let got = timed(&act, 100 * C, |w| f.read_at(&mut b, false, w, 100 * C));
            assert_eq!(got, (FifoOutcome::NotReady, 100 * C), "writer at {start}");
            writer.join().unwrap();
            // Empty the FIFO for the next case.
            with_waiter(|w| while f.read(&mut b, false, w) != FifoOutcome::NotReady {});
        }
    }

    /// A non-blocking write at cycle 100 on a host-full FIFO whose reader is behind (reads at
    /// cycle 5) but late on the host: it waits and succeeds; with the reader at 150, it fails.
    #[test]
    fn nb_write_waits_for_a_reader_behind_in_simulated_time() {
        for (rstart, ok) in [(5 * C, true), (150 * C, false)] {
            let act = Activity::new();
            let f = Arc::new(Fifo::new("c", 4, 1));
            let hold = act.hold_sim();
            let (f2, act2) = (f.clone(), act.clone());
            let reader = std::thread::spawn(move || {
                timed(&act2, rstart, |w| {
                    std::thread::sleep(Duration::from_millis(30));
                    let mut b = [0u8; 4];
                    f2.read_at(&mut b, true, w, rstart).1
                })
            });
            while act.report().kernels.is_empty() {
                std::thread::yield_now();
            }
            drop(hold);
            let got = timed(&act, 0, |w| {
                assert_eq!(
                    f.write_at(&[1; 4], true, w, 0),
                    (FifoOutcome::Done { waited: false }, 0)
                );
                f.write_at(&[2; 4], false, w, 100 * C).0
            });
            let tr = reader.join().unwrap();
            assert_eq!(tr, rstart.max(C), "read time");
            let want = if ok {
                FifoOutcome::Done { waited: false }
            } else {
                FifoOutcome::NotReady
            };
            assert_eq!(got, want, "reader at {rstart}");
        }
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
