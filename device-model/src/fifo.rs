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
//! # Host implementation
//!
//! A ring of `max(depth, 1)` elements (in `max(depth, 1)` rounded up to a power of two slots)
//! indexed by two counters, `tail` (elements written) and `head` (elements read), each
//! advanced by one side only. Each side has a biased lock ([`Side`]): the thread that uses
//! it owns it and enters with plain loads and stores; another thread (several writers or
//! readers stay correct) revokes the owner through a mutex. An element and its simulated
//! write tick live in its slot, its read tick in an array apart (rule F of `timing/MODEL.md`
//! needs the write tick of element k and the read tick of element k - depth, so simulated
//! times never depend on when the host threads ran); an operation that finds room (an
//! element) copies it and publishes the new counter with a release store: no lock shared
//! between the two sides, no locked instruction, no thread hand-off per value. Slots are
//! allocated in chunks as they are first filled, so a deep FIFO costs only what it holds.
//!
//! An operation that needs no wait (`Fifo::put`, `Fifo::take`; kernels call them through
//! [`Fifo::try_write_word`] and [`Fifo::try_read_word`]) loads no cache line the other side
//! writes except that side's counter when its own view of it is exhausted: each side keeps its
//! own counter on its side's line, and a writer needs `tr[k - depth]` only when the readers'
//! running maximum read tick (`HeadLine`, loaded with `head`) is above its clock.
//!
//! A kernel's word-sized operations ([`Fifo::try_write_word`], [`Fifo::try_read_word`]) also
//! hold their side's counter back: they publish it once per `Fifo::batch` elements (a
//! quarter of the FIFO, at most `BATCH_MAX`; FIFOs shallower than `FENCED_BELOW` publish
//! every element), so the partner's view of it, and the barrier and signal of a publication,
//! cost a cache-line exchange per batch instead of per element. Every element's ticks are
//! stored with it as before, so simulated times do not change. What a thread holds back
//! (`PendingList`) is published before it waits (in any FIFO), before it publishes its clock
//! (the partners' non-blocking decisions take the clock as a bound of every element still to
//! come: it must not pass one they cannot see) and when its execution ends
//! ([`end_execution`]); a side revoked from its owner is published by the new holder.
//!
//! A waiting operation first spins briefly when spinning has been paying off (the other side,
//! on another core, usually acts within nanoseconds), then parks on the FIFO's condition
//! variable (woken by the other side; a timeout re-checks shutdown and deadlock aborts). It
//! never yields: beside busy-looping processes a yield hands the core to them for a whole
//! time slice, and a pair of kernels handing values over by yields then moved about 1,700
//! values/s (a parked thread is woken and scheduled at once). Only a parked operation is
//! "blocked" for the deadlock diagnosis: it records the FIFO's change count ([`SimCell`]),
//! which the next operation on the FIFO advances, so the runtime can tell from state alone
//! whether it is still stuck ([`Activity::quiescence`]). A parked partner is woken once the
//! FIFO is full (empty) for it, not per value ([`Fifo::signal`]).
//!
//! Waking and watching need a store-load barrier between an operation's publication and its
//! look at the parked/armed flags (and between a waiter's registration and its look at the
//! counters). Operations pay only a compiler barrier and the rare side runs `membarrier(2)`
//! ([`heavy_barrier`]); a FIFO whose waits park often (a shallow FIFO, or a loaded machine
//! where the two sides rarely run at once) switches for good to a full fence per operation
//! and none at the parks (mode [`FENCED`]).

use crate::activity::{Activity, BlockedOn, RunState, SimCell, SimWait, SIM};
use crate::fault::SourcePos;
use crate::timing::TICKS_PER_CYCLE;
use parking_lot::{Condvar, Mutex};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// How often a parked wait re-checks its stop conditions.
const POLL: Duration = Duration::from_millis(20);
/// How long a waiting operation spins before it parks depends on the waiter
/// ([`Fifo::spin_budget`]): spinning pays only while the two sides run on different cores
/// (the partner, running, usually acts within nanoseconds to tens of microseconds: a side of
/// a depth-16 pair drains its batch in about 10 us of interpretation, and a parked partner
/// that was just woken needs tens of microseconds to run again); on a loaded machine both
/// often share one core, where every spin delays the partner.
/// * [`SPIN_LONG`]: a blocking operation of a kernel execution (enqueued, or an autorun
///   instance whose last execution moved data) while fewer threads spin in channel waits than
///   there are CPUs ([`spin_cpus`]: one core stays for the partner);
/// * [`SPIN_SHORT`]: a host thread's operation (host pipes), or a kernel's when that many
///   threads already spin or when more threads want the CPU than there are CPUs
///   ([`crowded`]);
/// * none: an idle autorun instance (its last execution moved nothing: a poller waiting for
///   work that may take seconds to come; 200 of them spinning kept CI busy for minutes).
///
/// A spin also ends when the spinning thread finds it was preempted ([`PREEMPTED_GAP`]
/// between two looks at the clock): more threads want the CPU than there are cores. And
/// spinning adapts per FIFO side: a spin that ended the wait makes the next wait spin again,
/// one that did not halves the side's spin score, and at score 0 only every [`SPIN_PROBE`]th
/// wait tries.
const SPIN_LONG: Duration = Duration::from_micros(50);
const SPIN_SHORT: Duration = Duration::from_micros(5);
const PREEMPTED_GAP: Duration = Duration::from_micros(30);
const SPIN_SCORE_MAX: u32 = 16;
/// Most elements (free slots) a spinning wait holds out for, and for how long.
const SPIN_BATCH: u64 = 8;
const SPIN_BATCH_WAIT: Duration = Duration::from_micros(2);
const SPIN_PROBE: u32 = 32;
/// How often a non-blocking operation waiting for its decision re-checks the floor: partners'
/// clocks advance without a signal (they publish them at their channel operations), so the
/// wait re-reads them at this pace when nothing else wakes it.
const NB_POLL: Duration = Duration::from_millis(1);
/// Most elements a parked partner waits for before a kernel's operation wakes it (FIFOs up
/// to this depth wake it only when full or empty: see [`Fifo::signal`]).
const WAKE_BATCH_MAX: u64 = 1024;
/// Slots per allocation chunk (at most; a power of two).
const CHUNK: u64 = 1024;
/// Most chunks of one FIFO: deeper FIFOs use larger chunks.
const MAX_CHUNKS: u64 = 4096;

/// The `now` of a FIFO operation without simulated time (timing hook).
pub const UNTIMED: u64 = u64::MAX;

/// A value on its own cache line (the two sides' counters must not share one).
#[derive(Debug, Default)]
#[repr(align(128))]
struct Padded<T>(T);

/// The readers' counter and, on the same cache line (a writer that refreshes its view of the
/// counter gets both in one transfer), an upper bound of every read tick stored before it:
/// readers store an element's read tick, raise `rmax` to it, then publish `n` (release).
/// A writer that loaded `n = h` (acquire) and then `rmax` knows `tr[i] <= rmax` for every
/// `i < h`; when that bound is not above its clock, rule F's `max(now, tr[k - depth])` is
/// `now` without loading `tr[k - depth]` (a cache line the reader wrote: one transfer per 8
/// elements, measured as a fifth of the writer's time).
#[derive(Debug, Default)]
struct HeadLine {
    n: AtomicU64,
    rmax: AtomicU64,
}

/// Writer words of a slot: `[write tick, payload words...]`; the read tick lives apart (in
/// the chunk's read-tick array) so that the reader's stores do not share cache lines with the
/// writer's.
const TW: usize = 0;
const DATA: usize = 1;

/// The slots, allocated chunk by chunk when first written. A chunk of `per` slots holds
/// `per` writer rows of `stride` words, then `per` read ticks. There are `cap` rounded up to
/// a power of two slots (element k in slot `k & mask`, no division), of which at most `cap`
/// hold unread elements.
struct Store {
    mask: u64,
    /// Writer words per slot (1 + payload words).
    stride: usize,
    /// log2 of the slots per chunk.
    shift: u32,
    chunks: Box<[OnceLock<Box<[AtomicU64]>>]>,
    /// A store of one chunk: the address of its words once allocated (0 before, and for
    /// stores of several chunks), so that a slot is two additions (no chunk lookup).
    base: std::sync::atomic::AtomicUsize,
    /// Where the read ticks start in a chunk (words).
    tr_off: usize,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let allocated = self.chunks.iter().filter(|c| c.get().is_some()).count();
        write!(
            f,
            "Store {{ {} chunks of {} slots, {allocated} allocated }}",
            self.chunks.len(),
            1u64 << self.shift
        )
    }
}

/// One slot: the writer's words and the read tick.
#[derive(Clone, Copy)]
struct Slot<'a> {
    w: &'a [AtomicU64],
    tr: Option<&'a AtomicU64>,
}

impl Slot<'_> {
    #[inline]
    fn read_tick(&self, o: Ordering) -> u64 {
        self.tr.map_or(0, |x| x.load(o))
    }
}

impl Store {
    fn new(cap: u64, elem: usize) -> Store {
        let stride = DATA + elem.div_ceil(8);
        let cap = cap.next_power_of_two();
        let per = CHUNK.max(cap.div_ceil(MAX_CHUNKS).next_power_of_two());
        let per = per.min(cap.next_power_of_two());
        let n = cap.div_ceil(per) as usize;
        let chunks: Box<[OnceLock<Box<[AtomicU64]>>]> = (0..n).map(|_| OnceLock::new()).collect();
        Store {
            mask: cap - 1,
            stride,
            shift: per.trailing_zeros(),
            chunks,
            base: std::sync::atomic::AtomicUsize::new(0),
            tr_off: per as usize * stride,
        }
    }

    /// Slots in all.
    fn size(&self) -> u64 {
        self.mask + 1
    }

    /// Slot `s`, allocating its chunk if `alloc` (writers); `None` when it was never written
    /// (readers and tick lookups only visit written slots).
    #[inline(always)]
    fn slot(&self, s: u64, alloc: bool) -> Option<Slot<'_>> {
        let s = s & self.mask;
        let base = self.base.load(Ordering::Relaxed);
        if base != 0 {
            let p = base as *const AtomicU64;
            let i = s as usize;
            // SAFETY: `base` is the words of the only chunk (set below once it exists, never
            // freed while the store lives): `mask + 1` rows of `stride` words, then as many
            // read ticks, and `i <= mask`.
            return unsafe {
                Some(Slot {
                    w: std::slice::from_raw_parts(p.add(i * self.stride), self.stride),
                    tr: Some(&*p.add(self.tr_off + i)),
                })
            };
        }
        let ci = (s >> self.shift) as usize;
        debug_assert!(ci < self.chunks.len());
        // SAFETY: `s <= mask` and the chunks hold `mask + 1` slots, `1 << shift` each (both
        // powers of two), so `s >> shift` indexes a chunk.
        let c = unsafe { self.chunks.get_unchecked(ci) };
        let per = 1usize << self.shift;
        let words = match c.get() {
            Some(w) => w,
            None if alloc => {
                let w = c.get_or_init(|| {
                    let n = per * (self.stride + 1);
                    (0..n).map(|_| AtomicU64::new(0)).collect()
                });
                if self.chunks.len() == 1 {
                    // Before any element in it is published (release with the counter).
                    self.base.store(w.as_ptr() as usize, Ordering::Relaxed);
                }
                w
            }
            None => return None,
        };
        let i = (s & (per as u64 - 1)) as usize;
        debug_assert!(words.len() == per * (self.stride + 1) && i < per);
        // SAFETY: a chunk holds `per` rows of `stride` words then `per` read ticks, and
        // `i < per`.
        unsafe {
            Some(Slot {
                w: words.get_unchecked(i * self.stride..(i + 1) * self.stride),
                tr: Some(words.get_unchecked(per * self.stride + i)),
            })
        }
    }
}

/// The fast paths publish with plain (release) stores and need a store-load barrier only
/// against a partner that is about to park or watch (the Dekker pattern of `sleepers` and
/// `armed`). That barrier is asymmetric: the fast side orders only the compiler, the rare
/// side (a waiter about to park, a revoked side lock) runs `membarrier(2)`
/// (`MEMBARRIER_CMD_PRIVATE_EXPEDITED`), which makes every running thread of the process pass
/// a full barrier. Without membarrier both sides use a full fence.
const MB_UNKNOWN: u8 = 0;
const MB_OK: u8 = 1;
const MB_NONE: u8 = 2;
static MEMBARRIER: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(MB_UNKNOWN);

/// Registers the process for expedited membarriers (once; before any FIFO is shared).
fn init_barriers() {
    if MEMBARRIER.load(Ordering::Acquire) != MB_UNKNOWN {
        return;
    }
    static ONCE: OnceLock<u8> = OnceLock::new();
    let state = *ONCE.get_or_init(|| {
        #[cfg(target_os = "linux")]
        {
            const REGISTER_PRIVATE_EXPEDITED: libc::c_long = 1 << 4;
            // SAFETY: membarrier with a command and zero flags touches no memory.
            let r =
                unsafe { libc::syscall(libc::SYS_membarrier, REGISTER_PRIVATE_EXPEDITED, 0, 0) };
            if r == 0 {
                return MB_OK;
            }
        }
        MB_NONE
    });
    MEMBARRIER.store(state, Ordering::Release);
}

/// The fast side's half of the asymmetric barrier.
#[inline(always)]
fn light_barrier() {
    if MEMBARRIER.load(Ordering::Relaxed) == MB_OK {
        std::sync::atomic::compiler_fence(Ordering::SeqCst);
    } else {
        std::sync::atomic::fence(Ordering::SeqCst);
    }
}

/// The rare side's half: after it, every store a fast side made before its
/// [`light_barrier`] is visible, or that fast side's loads after it see this thread's
/// earlier stores.
pub(crate) fn heavy_barrier() {
    std::sync::atomic::fence(Ordering::SeqCst);
    #[cfg(target_os = "linux")]
    if MEMBARRIER.load(Ordering::Relaxed) == MB_OK {
        const PRIVATE_EXPEDITED: libc::c_long = 1 << 3;
        // SAFETY: as in `init_barriers`.
        let r = unsafe { libc::syscall(libc::SYS_membarrier, PRIVATE_EXPEDITED, 0, 0) };
        if r != 0 {
            // Cannot happen after a successful registration; fall back to full fences for
            // good (the next fast operations fence themselves; this one is ordered by the
            // fence above only on this side, so wake everybody through the poll timeouts).
            MEMBARRIER.store(MB_NONE, Ordering::SeqCst);
        }
    }
}

#[cfg(not(unix))]
thread_local! {
    static TOKEN: u8 = const { 0 };
}

/// This thread's identity for side locks (never 0): on x86-64 Linux the thread pointer
/// (`%fs:0`, which the x86-64 TLS ABI requires to hold the thread control block's own address,
/// unique among running threads; the value `pthread_self` returns, without the call), else
/// `pthread_self` (a thread-local's address costs a `__tls_get_addr` call per operation in
/// the shared library), or the address of a thread-local elsewhere.
#[inline(always)]
fn token() -> u64 {
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    {
        let tp: u64;
        // SAFETY: reads the first word of the thread control block, which the ABI makes a
        // pointer to itself; no memory is written.
        unsafe {
            std::arch::asm!("mov {}, qword ptr fs:[0]", out(reg) tp, options(nostack, readonly, preserves_flags, pure));
        }
        tp | 1
    }
    #[cfg(all(unix, not(all(target_arch = "x86_64", target_os = "linux"))))]
    {
        // SAFETY: pthread_self has no preconditions; a running thread's id is unique among
        // running threads (the same reuse rule as a thread-local's address).
        (unsafe { libc::pthread_self() }) as usize as u64 | 1
    }
    #[cfg(not(unix))]
    {
        TOKEN.with(|t| t as *const u8 as u64)
    }
}

/// Revocations of a side lock less than this many elements apart count as contention.
const CONTENDED_GAP: u64 = 64;
/// Consecutive contended revocations after which a side stays in shared (mutex) mode.
const CONTENDED_STRIKES: u32 = 4;

/// One side's lock (writers' or readers') and that side's last view of the other side's
/// counter. A channel normally has one writer thread and one reader thread, so the lock is
/// biased: the first thread to take it owns it, and its later operations enter by plain
/// loads and stores (`active`, then a re-check of `owner` behind a [`light_barrier`]): no
/// locked instruction per value (each was a full fence that waited for the previous value's
/// stores to reach the other core; measured: the lock and the SeqCst publication were about
/// half of `write_at`'s samples). Another thread takes the side through `mutex`: it revokes
/// the owner (`owner` = 0, [`heavy_barrier`], waits until the owner is not inside an
/// operation) and, if nobody owns the side, becomes its owner. Sides revoked again and again
/// within a few elements (several work-items or kernels writing one channel from two
/// threads) stay in shared mode: every operation under `mutex`.
#[derive(Debug, Default)]
struct Side {
    owner: AtomicU64,
    active: AtomicBool,
    shared: AtomicBool,
    seen: AtomicU64,
    /// This side's own counter (`tail` for writers, `head` for readers), kept on the side's
    /// cache line: the partner polls the published counter, so loading that one missed the
    /// cache on every operation.
    pos: AtomicU64,
    /// Writers: the readers' `rmax` loaded with `seen` (see [`HeadLine`]). Readers: the
    /// largest read tick stored so far (published to `rmax` with `head`).
    bound: AtomicU64,
    /// The side's counter as last published (`tail` / `head`): a kernel's word-sized
    /// operations publish once per [`Fifo::batch`] elements (see [`flush_pending`]).
    published: AtomicU64,
    /// The side token ([`token`]) of the thread whose pending list ([`PENDING`]) holds this
    /// side (0: none; a list clears the marks it set when it is emptied, also when its
    /// thread exits, so a later thread with the same token does not take it for its own).
    listed: AtomicU64,
    /// Adaptive spinning of this side's waits (see [`SPIN_LONG`]).
    spin_score: AtomicU32,
    spin_probe: AtomicU32,
    /// Contended revocations in a row, and the side's counter at the last revocation.
    strikes: AtomicU32,
    last_revoke: AtomicU64,
    mutex: Mutex<()>,
}

/// A held [`Side`] lock.
struct SideGuard<'a> {
    side: &'a Side,
    /// The side's own element counter (tail for writers, head for readers): tells revocations
    /// that come with every few elements (contention) from ones between kernel executions.
    counter: &'a AtomicU64,
    held: Held<'a>,
}

enum Held<'a> {
    /// As the owner (`active` set).
    Owned,
    /// Under the mutex.
    Locked(parking_lot::MutexGuard<'a, ()>),
    /// Released while a wait runs.
    Free,
}

impl Side {
    #[inline(always)]
    fn lock<'a>(&'a self, counter: &'a AtomicU64) -> SideGuard<'a> {
        let me = token();
        if self.owner.load(Ordering::Relaxed) == me {
            self.active.store(true, Ordering::Relaxed);
            light_barrier();
            if self.owner.load(Ordering::Relaxed) == me {
                // Orders the element accesses after the check (pairs with the revoker's
                // release of the mutex through the owner it installed).
                std::sync::atomic::fence(Ordering::Acquire);
                return SideGuard {
                    side: self,
                    counter,
                    held: Held::Owned,
                };
            }
            self.active.store(false, Ordering::Release);
        }
        self.lock_slow(me, counter)
    }

    /// The owner's entry without a guard (the fast paths): `true` when this thread owns the
    /// side and is now inside an operation (leave with [`Side::leave`]); `false`: nothing
    /// held (take the side with [`Side::lock`]).
    #[inline(always)]
    fn enter_owned(&self) -> bool {
        let me = token();
        if self.owner.load(Ordering::Relaxed) != me {
            return false;
        }
        self.active.store(true, Ordering::Relaxed);
        light_barrier();
        if self.owner.load(Ordering::Relaxed) == me {
            // As in `lock`.
            std::sync::atomic::fence(Ordering::Acquire);
            return true;
        }
        self.active.store(false, Ordering::Release);
        false
    }

    /// Ends an operation entered by [`Side::enter_owned`].
    #[inline(always)]
    fn leave(&self) {
        self.active.store(false, Ordering::Release);
    }

    #[cold]
    fn lock_slow<'a>(&'a self, me: u64, counter: &'a AtomicU64) -> SideGuard<'a> {
        let g = self.mutex.lock();
        let o = self.owner.load(Ordering::Relaxed);
        if o != 0 && o != me {
            // Revoke: the owner either sees `owner` changed at its next entry or is seen
            // inside an operation here (asymmetric Dekker), then finishes it.
            self.owner.store(0, Ordering::Relaxed);
            heavy_barrier();
            let mut tries = 0u32;
            let mut nap = Duration::from_micros(20);
            while self.active.load(Ordering::Acquire) {
                // The owner may be a rendezvous write waiting for its reader.
                if tries < 256 {
                    tries += 1;
                    std::hint::spin_loop();
                } else {
                    std::thread::sleep(nap);
                    nap = (nap * 2).min(Duration::from_millis(1));
                }
            }
            let at = counter.load(Ordering::Relaxed);
            let last = self.last_revoke.swap(at, Ordering::Relaxed);
            if at.saturating_sub(last) < CONTENDED_GAP {
                let s = self.strikes.load(Ordering::Relaxed) + 1;
                self.strikes.store(s, Ordering::Relaxed);
                if s >= CONTENDED_STRIKES {
                    self.shared.store(true, Ordering::Relaxed);
                }
            } else {
                self.strikes.store(0, Ordering::Relaxed);
            }
        }
        if self.shared.load(Ordering::Relaxed) {
            return SideGuard {
                side: self,
                counter,
                held: Held::Locked(g),
            };
        }
        // Nobody owns it (or this thread still does): own it. Nobody is inside an operation
        // (a revoked owner was waited for), and a later revoker takes the mutex after this
        // release, so it sees `active`.
        self.owner.store(me, Ordering::Relaxed);
        self.active.store(true, Ordering::Relaxed);
        drop(g);
        SideGuard {
            side: self,
            counter,
            held: Held::Owned,
        }
    }
}

impl SideGuard<'_> {
    /// The other side's counter as this side last saw it.
    #[inline]
    fn get(&self) -> u64 {
        self.side.seen.load(Ordering::Relaxed)
    }
    #[inline]
    fn set(&self, v: u64) {
        self.side.seen.store(v, Ordering::Relaxed);
    }
    #[inline(always)]
    fn release(&mut self) {
        match std::mem::replace(&mut self.held, Held::Free) {
            Held::Owned => self.side.active.store(false, Ordering::Release),
            Held::Locked(g) => drop(g),
            Held::Free => {}
        }
    }
    /// Runs `f` with the lock released (a wait), then takes it again.
    fn unlocked<R>(&mut self, f: impl FnOnce() -> R) -> R {
        self.release();
        let r = f();
        let mut again = self.side.lock(self.counter);
        self.held = std::mem::replace(&mut again.held, Held::Free);
        r
    }
}

impl Drop for SideGuard<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        self.release();
    }
}

/// Where the waiters of a FIFO park (on cache lines of its own: every operation loads
/// `sleepers`, and a small allocation would share its line with unrelated data).
#[derive(Debug, Default)]
#[repr(align(128))]
struct Parker {
    sleepers: AtomicU32,
    /// The FIFO's watch flag (see `Fifo::arm`): with `sleepers`, what a publication loads,
    /// and written only by waiters and watchers, so not on the cache line of the fields every
    /// operation reads.
    armed: AtomicBool,
    /// Parks so far, and the writer's counter at the last check of the park rate.
    parks: AtomicU64,
    park_mark: AtomicU64,
    /// Checks of the park rate in a row that found parks dense (see [`PARK_STRIKES`]).
    park_strikes: AtomicU32,
    park: Mutex<()>,
    cv: Condvar,
}

impl Parker {
    fn wake(&self) {
        let _g = self.park.lock();
        self.cv.notify_all();
    }
}

thread_local! {
    /// Wake-ups this thread's operations deferred (see `Fifo::signal`).
    static OWED: std::cell::RefCell<Vec<Arc<Parker>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Delivers the wake-ups the calling thread's FIFO operations deferred: before it parks, and
/// when a kernel execution ends (so a partner never waits for a thread that stopped
/// operating on their FIFO; it would otherwise wake on its poll timeout).
pub fn flush_owed_wakes() {
    let owed = OWED.with(|o| std::mem::take(&mut *o.borrow_mut()));
    for p in owed {
        p.wake();
    }
}

/// The FIFO sides whose counter a thread's kernel operations may hold back (published once
/// per [`Fifo::batch`] elements): each side enters its thread's list at the first element it
/// holds back (at most once per execution), and the list is flushed ([`flush_pending`])
/// before the thread publishes its clock or waits, and emptied when the execution ends
/// ([`end_execution`]) or the thread exits.
struct PendingList {
    /// The sides listed: the FIFO and whether it is the writers' side.
    sides: Vec<(Arc<Fifo>, bool)>,
}

impl PendingList {
    /// Publishes every listed side this thread still owns. `defer`: wake-ups may be owed
    /// (not during thread exit, when [`OWED`] may be gone).
    fn flush(&self, defer: bool) {
        for (f, write) in &self.sides {
            f.flush_side(*write, defer);
        }
    }

    /// Flushes and empties the list.
    fn clear(&mut self, defer: bool) {
        if self.sides.is_empty() {
            return;
        }
        self.flush(defer);
        let me = token();
        for (f, write) in self.sides.drain(..) {
            let side = f.side(write);
            if side.listed.load(Ordering::Relaxed) == me {
                side.listed.store(0, Ordering::Relaxed);
            }
        }
        LISTS_IN_USE.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Drop for PendingList {
    fn drop(&mut self) {
        // A thread that ends without ending its execution (a panic) still publishes.
        self.clear(false);
    }
}

/// Pending lists holding a side now (all threads): operations of threads that hold nothing
/// back skip the look at their own list while this is 0.
static LISTS_IN_USE: AtomicU32 = AtomicU32::new(0);

thread_local! {
    static PENDING: std::cell::RefCell<PendingList> =
        const { std::cell::RefCell::new(PendingList { sides: Vec::new() }) };
}

/// Publishes the counters the calling thread's operations held back (the module docs):
/// before a thread publishes its clock (a bound for the non-blocking decisions of its
/// partners, which must not pass an element they cannot see yet) and before it waits.
pub fn flush_pending() {
    if LISTS_IN_USE.load(Ordering::Relaxed) == 0 {
        return;
    }
    let _ = PENDING.try_with(|p| {
        if let Ok(p) = p.try_borrow() {
            p.flush(true);
        }
    });
}

/// The end of a kernel execution on this thread: publishes what its operations held back,
/// empties its pending list and delivers the wake-ups it owes ([`flush_owed_wakes`]).
pub fn end_execution() {
    if LISTS_IN_USE.load(Ordering::Relaxed) > 0 {
        let _ = PENDING.try_with(|p| {
            if let Ok(mut p) = p.try_borrow_mut() {
                p.clear(true);
            }
        });
    }
    flush_owed_wakes();
}

/// A channel or pipe FIFO. `clCreatePipe` objects are [`PipeFifo`]s (the same type).
#[derive(Debug)]
pub struct Fifo {
    name: String,
    elem: usize,
    /// The bits of a payload word an element of `elem` <= 8 bytes keeps.
    word_mask: u64,
    depth: u32,
    cap: u64,
    /// Elements written (published by the writer holding `wlock`).
    tail: Padded<AtomicU64>,
    /// Elements read (published by the reader holding `rlock`), and the largest read tick
    /// stored so far (the writers' bound on the read ticks they would otherwise load).
    head: Padded<HeadLine>,
    /// Writer side: the last `head` it saw (refreshed only when the ring looks full).
    wlock: Padded<Side>,
    /// Reader side: the last `tail` it saw (refreshed only when the ring looks empty).
    rlock: Padded<Side>,
    store: Store,
    /// Parked operations, and the lock/condition they park on.
    parker: Arc<Parker>,
    /// A watcher's flag lives in the parker (`Parker::armed`): set by a parked or timed
    /// waiting operation before each check of its condition; the next operation clears it,
    /// advances `sim` and signals [`SIM`] (once: the waiter re-arms it when it looks again, so
    /// a stream of operations past a parked partner costs no shared atomic per value).
    /// The FIFO's change count while someone watches it.
    sim: Arc<SimCell>,
    /// How publications and waits are ordered ([`ASYM`], [`SWITCHING`], [`FENCED`]).
    mode: std::sync::atomic::AtomicU8,
    /// Elements a kernel's word-sized operations may hold back before they publish their
    /// side's counter (1: every operation publishes; see [`PendingList`]).
    batch: u64,
}

/// Publications need only a compiler barrier, waiters run [`heavy_barrier`].
const ASYM: u8 = 0;
/// Becoming [`FENCED`]: publications fence, waiters still run [`heavy_barrier`].
const SWITCHING: u8 = 1;
/// Publications fence fully, waiters fence (no `membarrier`). A FIFO whose waits park more
/// often than once per [`PARK_EVERY`] elements (partners that hand over through waits: a
/// shallow FIFO, or a loaded machine where the two sides rarely run at once) switches to
/// this mode for good: a `membarrier` per park (an interrupt to the other core, costly in a
/// virtual machine) then costs more than a fence per element (measured at depth 16 on a
/// loaded 2-vCPU machine: 18% more CPU time than fencing). FIFOs shallower than
/// [`FENCED_BELOW`] start fenced.
const FENCED: u8 = 2;
const PARK_EVERY: u64 = 32;
/// Parks between two checks of the park rate.
const PARK_CHECK: u64 = 64;
/// Consecutive checks (of [`PARK_CHECK`] parks each) that must find parks denser than one per
/// [`PARK_EVERY`] elements: a single burst (a kernel launch, a partner preempted once) is no
/// steady hand-over through parks.
const PARK_STRIKES: u32 = 3;
/// Elements before the park rate may switch a FIFO to [`FENCED`]: a pair's first elements
/// park while its kernels start (the second one still being set up, the spin scores still
/// low); measured at depth 16, that start switched the FIFO at element 512 and left a fence
/// per element for the rest of a 2^20-value run on two free cores. With counters published
/// per batch, 4096 was not enough: 3 of 5 depth-16 runs switched at elements 6144-7120, and
/// runs with the fence moved 8.5-10.5 M values/s where unfenced ones moved 10.5-14.7 M (idle
/// 2-vCPU machine); 65536 elements (a few milliseconds of a stream) cover a pair's start.
const PARK_WARMUP: u64 = 65536;
const FENCED_BELOW: u32 = 4;
/// Most elements a side holds back before it publishes its counter: a quarter of the FIFO
/// (the other side keeps working on the rest while this one fills a batch), at most this
/// many (one exchange of the counter's cache line per 32 elements costs about nothing).
const BATCH_MAX: u64 = 32;
/// Most cache lines [`Fifo::prefetch`] starts loading at once.
const PREFETCH_LINES: u32 = 4;

/// A `clCreatePipe` object: a FIFO of `max_packets` packets of `packet_size` bytes.
pub type PipeFifo = Fifo;

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

/// Threads spinning [`SPIN_LONG`] in channel waits now (all FIFOs of the process).
static SPINNERS: AtomicU32 = AtomicU32::new(0);

/// The CPUs channel waits may keep busy: `std::thread::available_parallelism`, or
/// `FPGACL_THREADS` when that is smaller (the user asked fpgacl to use fewer cores).
fn spin_cpus() -> u32 {
    static CPUS: OnceLock<u32> = OnceLock::new();
    *CPUS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let limit = std::env::var("FPGACL_THREADS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
            .unwrap_or(usize::MAX);
        cores.min(limit).min(u32::MAX as usize) as u32
    })
}

/// A place among the long spinners (released on drop).
struct SpinSlot;

impl SpinSlot {
    /// One while fewer than `cpus - 1` other threads spin (the thread itself counted, the
    /// spinners stay below the number of CPUs: one core stays for the partner).
    fn take(cpus: u32) -> Option<SpinSlot> {
        let n = SPINNERS.fetch_add(1, Ordering::Relaxed) + 1;
        if n < cpus {
            Some(SpinSlot)
        } else {
            SPINNERS.fetch_sub(1, Ordering::Relaxed);
            None
        }
    }
}

impl Drop for SpinSlot {
    fn drop(&mut self) {
        SPINNERS.fetch_sub(1, Ordering::Relaxed);
    }
}

/// How often [`crowded`] looks at the machine's run queue again.
const CROWD_CHECK: Duration = Duration::from_millis(10);

/// Whether more threads want the CPU than there are CPUs: the machine's runnable threads
/// right now (the 4th field of `/proc/loadavg`, "runnable/total", sampled at most every
/// [`CROWD_CHECK`]) exceed [`spin_cpus`]. A spin then mostly keeps a core from the partner,
/// which is runnable but waits for one (measured at depth 1 under load 40-60: a 50 us spin
/// cost 1.3 s more CPU per 2^20 values than a 10 us one, at the same throughput).
fn crowded() -> bool {
    static EPOCH: OnceLock<std::time::Instant> = OnceLock::new();
    // Milliseconds since EPOCH of the last sample + 1 (0: never), and its answer.
    static LAST: AtomicU64 = AtomicU64::new(0);
    static CROWDED: AtomicBool = AtomicBool::new(false);
    let now = EPOCH
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_millis() as u64
        + 1;
    let last = LAST.load(Ordering::Relaxed);
    if (last == 0 || now.saturating_sub(last) >= CROWD_CHECK.as_millis() as u64)
        && LAST
            .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    {
        let runnable = std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|l| runnable_of(&l));
        // Without /proc: never crowded (the preemption check and the spin score remain).
        CROWDED.store(runnable.is_some_and(|r| r > spin_cpus()), Ordering::Relaxed);
    }
    CROWDED.load(Ordering::Relaxed)
}

/// The runnable threads of a `/proc/loadavg` line ("0.52 0.58 0.59 3/467 12345" -> 3).
fn runnable_of(loadavg: &str) -> Option<u32> {
    let f = loadavg.split_whitespace().nth(3)?;
    f.split('/').next()?.parse::<u32>().ok()
}

/// How long a waiting operation of `w` may spin before it parks (see [`SPIN_LONG`]), and
/// its place among the long spinners.
fn spin_budget(w: &Waiter<'_>) -> (Duration, Option<SpinSlot>) {
    if w.run.autorun && w.run.idle_streak() > 0 {
        return (Duration::ZERO, None);
    }
    if timed_or_kernel(w) && !crowded() {
        if let Some(slot) = SpinSlot::take(spin_cpus()) {
            return (SPIN_LONG, Some(slot));
        }
    }
    (SPIN_SHORT, None)
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
}

/// Whether the operation runs in a kernel execution (which flushes deferred wake-ups when it
/// ends) rather than on a host thread (host pipe calls): only the host's registration is
/// named "host".
fn timed_or_kernel(w: &Waiter<'_>) -> bool {
    w.run.kernel != "host"
}

/// The state of one waiting operation (see [`Fifo::wait_for`]).
#[derive(Default)]
struct Wait {
    /// Had to wait at all (the operation's `waited`).
    waited: bool,
    /// Marked blocked in its `RunState` (the deadlock diagnosis sees it).
    blocked: bool,
    /// The change count recorded for its stuck state.
    seen: Option<u64>,
}

/// Stores `src` (at most `elem` bytes of it, zero-padded) into payload words.
#[inline]
fn store_payload(words: &[AtomicU64], src: &[u8], elem: usize) {
    let n = src.len().min(elem);
    if n == 4 && !words.is_empty() {
        // The common channel element (int, float): one word.
        let v = u32::from_le_bytes([src[0], src[1], src[2], src[3]]);
        words[0].store(v as u64, Ordering::Relaxed);
        return;
    }
    for (i, word) in words.iter().enumerate() {
        let mut b = [0u8; 8];
        let lo = (i * 8).min(n);
        let hi = (i * 8 + 8).min(n);
        b[..hi - lo].copy_from_slice(&src[lo..hi]);
        word.store(u64::from_le_bytes(b), Ordering::Relaxed);
    }
}

/// Loads payload words into `dst` (at most `elem` bytes; the rest of `dst` zeroed).
#[inline]
fn load_payload(words: &[AtomicU64], dst: &mut [u8], elem: usize) {
    let n = dst.len().min(elem);
    if n == 4 && dst.len() == 4 && !words.is_empty() {
        let v = words[0].load(Ordering::Relaxed) as u32;
        dst.copy_from_slice(&v.to_le_bytes());
        return;
    }
    for (i, word) in words.iter().enumerate() {
        let lo = (i * 8).min(n);
        let hi = (i * 8 + 8).min(n);
        if lo >= hi {
            break;
        }
        let b = word.load(Ordering::Relaxed).to_le_bytes();
        dst[lo..hi].copy_from_slice(&b[..hi - lo]);
    }
    dst[n..].fill(0);
}

impl Fifo {
    /// A FIFO of `depth` elements of `elem_size` bytes (depth 0 = rendezvous). Slots are
    /// allocated as they are first filled.
    pub fn new(name: impl Into<String>, elem_size: u32, depth: u32) -> Fifo {
        let cap = depth.max(1) as u64;
        let elem = elem_size as usize;
        init_barriers();
        Fifo {
            name: name.into(),
            elem,
            word_mask: if elem >= 8 {
                u64::MAX
            } else {
                (1u64 << (8 * elem)) - 1
            },
            depth,
            cap,
            tail: Padded::default(),
            head: Padded::default(),
            wlock: Padded::default(),
            rlock: Padded::default(),
            store: Store::new(cap, elem),
            parker: Arc::default(),
            sim: Arc::default(),
            mode: std::sync::atomic::AtomicU8::new(if depth < FENCED_BELOW {
                FENCED
            } else {
                ASYM
            }),
            batch: if depth < FENCED_BELOW {
                1
            } else {
                (cap / 4).clamp(1, BATCH_MAX)
            },
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
        let head = self.head.0.n.load(Ordering::SeqCst);
        let tail = self.tail.0.load(Ordering::SeqCst);
        tail.saturating_sub(head) as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Arms the FIFO for a watcher (a parked autorun instance): the next completed operation
    /// advances the simulation epoch ([`SIM`]) once, which wakes parked instances. Arm again
    /// before each check of [`Fifo::position`].
    /// Callers run [`heavy_barrier`] after arming (once for several FIFOs) and before they
    /// read the positions.
    pub(crate) fn arm(&self) {
        self.parker.armed.store(true, Ordering::SeqCst);
    }

    /// Elements written and read so far: changes with every completed operation.
    pub(crate) fn position(&self) -> (u64, u64) {
        (
            self.tail.0.load(Ordering::SeqCst),
            self.head.0.n.load(Ordering::SeqCst),
        )
    }

    /// Wakes every parked waiter (used on shutdown so blocked kernels notice promptly).
    pub fn wake_all(&self) {
        self.parker.wake();
    }

    /// After an operation published its counter (a SeqCst store): signals the watchers and
    /// wakes the parked waiters. `batch`: an operation of a kernel (which flushes its owed
    /// wake-ups before it parks and when its execution ends, [`flush_owed_wakes`]) whose
    /// partner can wait for more: a parked partner is woken once the FIFO is full (its
    /// reader) or empty (its writer), or [`WAKE_BATCH_MAX`] elements are ready for it, or the
    /// waker itself parks or ends, instead of once per element (a futex wake per value).
    /// A parked partner gave up its core: waking it earlier (a quarter of the FIFO, as
    /// before) made the pair alternate every few values on a loaded machine (measured at
    /// depth 16: 3.3 values per context switch; full/empty: 8, half the CPU time).
    /// Simulated times do not depend on it.
    /// The caller published its counter and ran [`light_barrier`]: a watcher or waiter that
    /// armed (registered) before checking the counter runs [`heavy_barrier`] in between, so
    /// either it sees the new counter or these loads see its flag.
    #[inline(always)]
    fn signal(&self, batch: bool, write: bool) {
        if self.parker.armed.load(Ordering::Relaxed)
            || self.parker.sleepers.load(Ordering::Relaxed) > 0
        {
            self.signal_slow(batch, write);
        }
    }

    /// [`Fifo::signal`] when a watcher armed the FIFO or a waiter parks on it.
    #[cold]
    #[inline(never)]
    fn signal_slow(&self, batch: bool, write: bool) {
        if self.parker.armed.load(Ordering::Relaxed)
            && self.parker.armed.swap(false, Ordering::SeqCst)
        {
            self.sim.touch();
            SIM.bump();
        }
        if self.parker.sleepers.load(Ordering::Relaxed) > 0 {
            if batch {
                let len = self.len() as u64;
                let ready = if write {
                    len
                } else {
                    self.cap - len.min(self.cap)
                };
                let edge = if write { len >= self.cap } else { len == 0 };
                if ready < self.cap.min(WAKE_BATCH_MAX) && !edge {
                    OWED.with(|o| {
                        let mut o = o.borrow_mut();
                        if !o.iter().any(|p| Arc::ptr_eq(p, &self.parker)) {
                            o.push(self.parker.clone());
                        }
                    });
                    return;
                }
            }
            self.parker.wake();
        }
    }

    /// Room for one more element (all writers' elements counted).
    /// Free slots (at least `n` of them: `n` = 1 is [`Fifo::has_room`]).
    fn has_room_for(&self, n: u64) -> bool {
        let tail = self.tail.0.load(Ordering::SeqCst);
        tail.saturating_sub(self.head.0.n.load(Ordering::SeqCst)) + n <= self.cap
    }
    /// At least `n` elements to read.
    fn has_elements(&self, n: u64) -> bool {
        let head = self.head.0.n.load(Ordering::SeqCst);
        self.tail.0.load(Ordering::SeqCst) >= head + n
    }

    fn has_room(&self) -> bool {
        // Another writer may advance the tail and a reader the head past it between the two
        // loads: then report room (the caller re-checks under the writers' lock).
        let tail = self.tail.0.load(Ordering::SeqCst);
        tail.saturating_sub(self.head.0.n.load(Ordering::SeqCst)) < self.cap
    }
    /// An element to read.
    fn has_element(&self) -> bool {
        let head = self.head.0.n.load(Ordering::SeqCst);
        self.tail.0.load(Ordering::SeqCst) > head
    }

    /// The publishing side's store-load barrier (after its counter store, before it reads
    /// `armed` and `sleepers`).
    /// The mode is read after the publication (compiler barrier): an operation that reads
    /// [`ASYM`] published before any barrier point of a switch's `membarrier`, so a waiter
    /// that reads [`FENCED`] (set after that `membarrier` returned) sees its counter.
    #[inline(always)]
    fn publish_barrier(&self) {
        std::sync::atomic::compiler_fence(Ordering::SeqCst);
        if self.mode.load(Ordering::Relaxed) == ASYM {
            light_barrier();
        } else {
            std::sync::atomic::fence(Ordering::SeqCst);
        }
    }

    /// The waiting (watching) side's barrier after it armed or registered, before it reads
    /// the counters.
    fn wait_barrier(&self) {
        if self.mode.load(Ordering::SeqCst) == FENCED {
            std::sync::atomic::fence(Ordering::SeqCst);
        } else {
            heavy_barrier();
        }
    }

    /// Counts a park; switches the FIFO to [`FENCED`] when parks come more often than once
    /// per [`PARK_EVERY`] elements, [`PARK_STRIKES`] checks in a row, past [`PARK_WARMUP`].
    fn count_park(&self) {
        let n = self.parker.parks.fetch_add(1, Ordering::Relaxed) + 1;
        if !n.is_multiple_of(PARK_CHECK) || self.mode.load(Ordering::Relaxed) != ASYM {
            return;
        }
        let t = self.tail.0.load(Ordering::Relaxed);
        let m = self.parker.park_mark.swap(t, Ordering::Relaxed);
        let dense = t >= PARK_WARMUP && t.saturating_sub(m) < PARK_CHECK * PARK_EVERY;
        let strikes = if dense {
            self.parker.park_strikes.fetch_add(1, Ordering::Relaxed) + 1
        } else {
            self.parker.park_strikes.store(0, Ordering::Relaxed);
            0
        };
        if strikes >= PARK_STRIKES
            && self
                .mode
                .compare_exchange(ASYM, SWITCHING, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        {
            // Every running thread passes a barrier after seeing SWITCHING (or before its
            // next publication, which then reads it and fences).
            heavy_barrier();
            self.mode.store(FENCED, Ordering::SeqCst);
        }
    }

    /// Waits until `ready(1)` or a stop request (`Some(outcome)`): spins, then parks;
    /// `ready(n)`: `n` elements (or free slots) are there. A spinning wait holds out for a
    /// batch (half the FIFO, at most [`SPIN_BATCH`] and at most what the partner publishes at
    /// once, [`Fifo::batch`]) for up to [`SPIN_BATCH_WAIT`], so that
    /// two sides running in lock step on two cores move several elements per exchange of
    /// cache lines instead of one (simulated times do not depend on it).
    /// a parked wait is marked blocked on this FIFO with its change count (the state the
    /// deadlock diagnosis and the non-blocking decisions of timed partners read).
    #[cold]
    #[inline(never)]
    fn wait_for(
        &self,
        w: &Waiter<'_>,
        write: bool,
        timed: bool,
        st: &mut Wait,
        ready: impl Fn(u64) -> bool,
    ) -> Option<FifoOutcome> {
        let ready_one = || ready(1);
        st.waited = true;
        // The spin score of the waiting side (on that side's cache line).
        let side = if write { &self.wlock.0 } else { &self.rlock.0 };
        let score = side.spin_score.load(Ordering::Relaxed);
        let probe = side.spin_probe.load(Ordering::Relaxed);
        side.spin_probe
            .store(probe.wrapping_add(1), Ordering::Relaxed);
        let (budget, slot) = if score > 0 || probe.is_multiple_of(SPIN_PROBE) {
            spin_budget(w)
        } else {
            (Duration::ZERO, None)
        };
        if !budget.is_zero() {
            // A partner parked on another FIFO that this thread owes a wake-up may be what
            // this wait waits for (a pipeline stage): wake it before spinning.
            flush_owed_wakes();
            let t0 = std::time::Instant::now();
            let mut last = t0;
            // A partner that holds its counter back publishes a batch at a time: holding out
            // for more than one batch only delays the hand-over (depth 16, 20 runs: median
            // 10.5 -> 11.6 M values/s).
            let want = (self.cap / 2).clamp(1, SPIN_BATCH);
            let want = if self.batch > 1 {
                want.min(self.batch)
            } else {
                want
            };
            let paid = 'spin: loop {
                for _ in 0..32 {
                    if ready(want) {
                        break 'spin true;
                    }
                    std::hint::spin_loop();
                }
                let now = std::time::Instant::now();
                let spun = now - t0;
                if spun >= SPIN_BATCH_WAIT && ready(1) {
                    break true;
                }
                // Preempted: the core is wanted by more threads than there are cores.
                if spun >= budget || now - last >= PREEMPTED_GAP {
                    break false;
                }
                last = now;
            };
            drop(slot);
            if paid {
                side.spin_score
                    .store((score + 1).min(SPIN_SCORE_MAX), Ordering::Relaxed);
                return None;
            }
            side.spin_score.store(score / 2, Ordering::Relaxed);
        }
        // Autorun instances are never aborted and shutdown wakes them: a long timeout keeps
        // idle compute units off the CPU.
        let poll = if w.run.autorun { POLL * 10 } else { POLL };
        let pk = &*self.parker;
        self.count_park();
        // A sleeper for the whole parked phase: operations from now on look at `parker`.
        pk.sleepers.fetch_add(1, Ordering::SeqCst);
        let out = loop {
            // Armed (and registered as a sleeper) before the condition is read, with the
            // heavy barrier in between: an operation that makes it true after this check sees
            // `armed` and advances the count past `seen`, and sees the sleeper and wakes it.
            self.parker.armed.store(true, Ordering::SeqCst);
            self.wait_barrier();
            let seen = self.sim.ops();
            if ready_one() {
                break None;
            }
            if st.seen != Some(seen) {
                if st.blocked {
                    w.run.update_seen(seen);
                } else {
                    st.blocked = true;
                    w.run.set_blocked(Some((
                        BlockedOn {
                            fifo: self.name.clone(),
                            write,
                            pos: (w.pos)(),
                        },
                        self.sim.clone(),
                        seen,
                    )));
                }
                st.seen = Some(seen);
                if timed && w.run.timed() {
                    w.run.set_sim(Some(SimWait::Stuck {
                        cell: self.sim.clone(),
                        seen,
                    }));
                }
            }
            if let Some(o) = w.stop() {
                break Some(o);
            }
            flush_owed_wakes();
            let mut g = pk.park.lock();
            if !ready_one() && w.stop().is_none() {
                pk.cv.wait_for(&mut g, poll);
            }
        };
        pk.sleepers.fetch_sub(1, Ordering::SeqCst);
        out
    }

    /// Ends a wait's registrations. `done`: the operation completed (not stopped): its blocked
    /// mark is cleared and the device's progress counter advances.
    fn end_wait(&self, w: &Waiter<'_>, st: &Wait, done: bool) {
        if st.seen.is_some() && w.run.timed() {
            w.run.set_sim(None);
        }
        if st.blocked && done {
            w.run.set_blocked(None);
            w.activity.bump();
        }
    }

    /// A non-blocking operation of a timed execution at tick `now` found the FIFO empty (read)
    /// or full (write) on the host: waits (host time) until the element or room is there
    /// (`None`: decide by the timestamps) or until no execution can any more write an element
    /// visible at `now` (read: floor + visibility lookahead > now) or read element k - depth
    /// before `now` (write: floor >= now): `Some(NotReady)`. The floor is
    /// [`Activity::sim_floor`]; when every execution waits, the smallest tick decides, so the
    /// wait never deadlocks.
    #[cold]
    #[inline(never)]
    fn nb_wait(&self, w: &Waiter<'_>, now: u64, write: bool) -> Option<FifoOutcome> {
        let lookahead = if write { 1 } else { self.nb_hop() };
        let ready = || {
            if write {
                self.has_room()
            } else {
                self.has_element()
            }
        };
        w.run.set_sim(Some(SimWait::Nb { t: now }));
        let mut spins = 0u32;
        let out = loop {
            // The epoch before arming: an operation after the check below changes it.
            let seen = SIM.epoch();
            self.parker.armed.store(true, Ordering::SeqCst);
            self.wait_barrier();
            if ready() {
                break None;
            }
            if let Some(o) = w.stop() {
                break Some(o);
            }
            let floor = w.activity.sim_floor(w.run);
            if floor.is_some_and(|f| f.saturating_add(lookahead) > now) {
                // An element (room) that arrived meanwhile is decided by its timestamp; one
                // that arrives later cannot be visible at `now`.
                break if ready() {
                    None
                } else {
                    Some(FifoOutcome::NotReady)
                };
            }
            flush_owed_wakes();
            if spins < 16 {
                spins += 1;
                std::thread::yield_now();
            } else {
                SIM.wait(seen, NB_POLL);
            }
        };
        w.run.set_sim(None);
        out
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

    /// The slot of element `k` (allocated on first use).
    #[inline(always)]
    fn slot(&self, k: u64) -> Slot<'_> {
        let s = k & self.store.mask;
        match self.store.slot(s, false) {
            Some(w) => w,
            None => self
                .store
                .slot(s, true)
                .unwrap_or(Slot { w: &[], tr: None }),
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
    ///
    /// The common case runs in `Fifo::put`; everything else is `Fifo::write_slow`.
    #[inline]
    pub fn write_at(
        &self,
        src: &[u8],
        blocking: bool,
        w: &Waiter<'_>,
        now: u64,
    ) -> (FifoOutcome, u64) {
        flush_pending();
        if now != UNTIMED {
            w.run.publish_clock(now);
        }
        let batch = blocking && timed_or_kernel(w);
        match self.put(None, blocking, now, batch, |words| {
            store_payload(words, src, self.elem)
        }) {
            Some((t, _)) => (FifoOutcome::Done { waited: false }, t),
            None => self.write_slow(src, blocking, w, now),
        }
    }

    /// A kernel's write of an element of at most 8 bytes (`v`, little-endian) in its common
    /// case: `Some(tick)` when it completed as [`Fifo::write_at`] would without waiting,
    /// `None` (nothing done) for everything else (then call `write_at`, which publishes the
    /// clock). The write may be held back (the module docs); the clock `now` is published to
    /// `run` when the writers' counter is ([`flush_pending`] first).
    #[inline(always)]
    pub fn try_write_word(
        self: &Arc<Self>,
        v: u64,
        blocking: bool,
        now: u64,
        run: &RunState,
    ) -> Option<u64> {
        if self.elem > 8 {
            return None;
        }
        let keep = self.word_mask;
        let (t, published) = self.put(Some(self), blocking, now, blocking, |words| {
            if let Some(x) = words.first() {
                x.store(v & keep, Ordering::Relaxed);
            }
        })?;
        if published {
            self.after_publication(now, run);
        }
        Some(t)
    }

    /// An operation published its side's counter: the other sides this thread held back are
    /// published too, then the clock (a bound that must not pass an element its partners
    /// cannot see yet).
    #[inline(always)]
    fn after_publication(&self, now: u64, run: &RunState) {
        flush_pending();
        if now != UNTIMED {
            run.publish_clock(now);
        }
    }

    /// The common case of a write: a buffered FIFO with room whose writers' side this thread
    /// owns (no call, no wait state, no shared cache line loaded but the readers' counter when
    /// this side's view of it is exhausted). `payload` stores the element's payload words.
    /// `Some((tick, published))`: done, as rule F gives, and whether the writers' counter was
    /// published (`hold`: the FIFO, when the write may be held back, [`Fifo::batch`]);
    /// `None`: nothing done (the general path decides: rendezvous, full, not ready in
    /// simulated time, another owner). `batch`: as [`Fifo::signal`].
    #[inline(always)]
    fn put(
        &self,
        hold: Option<&Arc<Fifo>>,
        blocking: bool,
        now: u64,
        batch: bool,
        payload: impl FnOnce(&[AtomicU64]),
    ) -> Option<(u64, bool)> {
        if self.depth == 0 {
            return None;
        }
        let side = &self.wlock.0;
        if !side.enter_owned() {
            return None;
        }
        let k = side.pos.load(Ordering::Relaxed);
        if k - side.seen.load(Ordering::Relaxed) >= self.cap {
            self.refresh_head(side);
            let seen = side.seen.load(Ordering::Relaxed);
            if k - seen >= self.cap {
                side.leave();
                return None;
            }
            if k >= self.cap && side.bound.load(Ordering::Relaxed) >= now {
                // The next writes load these read ticks (lines the readers just wrote).
                self.prefetch(k - self.cap, seen, false);
            }
        }
        let slot = self.slot(k);
        let mut t = now;
        if k >= self.cap {
            // Rule F: max(now, tr[k - cap]); the readers' bound spares the load when it
            // cannot exceed `now` (a non-blocking write needs tr < now strictly).
            let bound = side.bound.load(Ordering::Relaxed);
            if bound > now || (!blocking && bound == now) {
                let freed = if self.cap == self.store.size() {
                    slot.read_tick(Ordering::Relaxed)
                } else {
                    self.slot(k - self.cap).read_tick(Ordering::Relaxed)
                };
                if !blocking && freed >= now {
                    side.leave();
                    return None;
                }
                t = now.max(freed);
            }
        }
        let words = slot.w;
        if let Some(x) = words.get(TW) {
            x.store(if now == UNTIMED { 0 } else { t }, Ordering::Relaxed);
        }
        payload(words.get(DATA..).unwrap_or(&[]));
        side.pos.store(k + 1, Ordering::Relaxed);
        if let Some(me) = hold {
            let start = side.published.load(Ordering::Relaxed);
            if k + 1 - start < self.batch {
                if k == start && side.listed.load(Ordering::Relaxed) != token() {
                    me.enlist(true);
                }
                side.leave();
                return Some((t, false));
            }
        }
        self.publish_tail(side, k + 1, batch);
        side.leave();
        Some((t, true))
    }

    /// The writers' side (`true`) or the readers'.
    #[inline(always)]
    fn side(&self, write: bool) -> &Side {
        if write {
            &self.wlock.0
        } else {
            &self.rlock.0
        }
    }

    /// Publishes the writers' counter `n` (the caller holds the writers' side): `tail`
    /// (release), then the barrier and the signal (`batch`: as [`Fifo::signal`]).
    #[inline(always)]
    fn publish_tail(&self, side: &Side, n: u64, batch: bool) {
        side.published.store(n, Ordering::Relaxed);
        self.tail.0.store(n, Ordering::Release);
        self.publish_barrier();
        self.signal(batch, true);
    }

    /// Publishes the readers' counter `n` (the caller holds the readers' side): the bound of
    /// the read ticks stored so far, then `head` (release; see [`HeadLine`]), the barrier and
    /// the signal.
    #[inline(always)]
    fn publish_head(&self, side: &Side, n: u64, batch: bool) {
        let bound = side.bound.load(Ordering::Relaxed);
        if self.head.0.rmax.load(Ordering::Relaxed) < bound {
            self.head.0.rmax.store(bound, Ordering::Relaxed);
        }
        side.published.store(n, Ordering::Relaxed);
        self.head.0.n.store(n, Ordering::Release);
        self.publish_barrier();
        self.signal(batch, false);
    }

    /// Puts a side that starts holding back its counter on the calling thread's pending list
    /// (once per execution: the side remembers the thread).
    #[cold]
    #[inline(never)]
    fn enlist(self: &Arc<Self>, write: bool) {
        let side = self.side(write);
        let me = token();
        let _ = PENDING.try_with(|p| {
            let Ok(mut p) = p.try_borrow_mut() else {
                return;
            };
            if p.sides.is_empty() {
                LISTS_IN_USE.fetch_add(1, Ordering::Relaxed);
            }
            if !p
                .sides
                .iter()
                .any(|(f, w)| *w == write && Arc::ptr_eq(f, self))
            {
                p.sides.push((self.clone(), write));
            }
            side.listed.store(me, Ordering::Relaxed);
        });
    }

    /// Publishes a side's held-back counter if the calling thread owns the side (a thread
    /// that lost it to another one: that one published it, see `write_slow`).
    fn flush_side(&self, write: bool, defer: bool) {
        let side = self.side(write);
        if !side.enter_owned() {
            return;
        }
        let pos = side.pos.load(Ordering::Relaxed);
        if pos != side.published.load(Ordering::Relaxed) {
            if write {
                self.publish_tail(side, pos, defer);
            } else {
                self.publish_head(side, pos, defer);
            }
        }
        side.leave();
    }

    /// Starts loading the cache lines of elements `from..to` (`words`: their writer words,
    /// else their read ticks), at most [`PREFETCH_LINES`] of them: a side that just saw the
    /// other side's counter advance reads what that side wrote for these elements, and
    /// fetching the lines together overlaps their transfers (one by one, each stalls an
    /// operation).
    #[cold]
    #[inline(never)]
    fn prefetch(&self, from: u64, to: u64, words: bool) {
        #[cfg(target_arch = "x86_64")]
        {
            let per_line = if words {
                (8 / self.store.stride as u64).max(1)
            } else {
                8
            };
            let mut i = from;
            let mut lines = 0;
            while i < to && lines < PREFETCH_LINES {
                if let Some(slot) = self.store.slot(i, false) {
                    let p = if words {
                        slot.w.as_ptr() as *const i8
                    } else {
                        slot.tr
                            .map_or(std::ptr::null(), |x| x.as_ptr() as *const i8)
                    };
                    if !p.is_null() {
                        // SAFETY: prefetching has no architectural effect; `p` points into
                        // a live chunk.
                        unsafe {
                            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p)
                        };
                    }
                }
                i = (i | (per_line - 1)) + 1;
                lines += 1;
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (from, to, words);
    }

    /// The writers' view of the readers: `head` (acquire), then the bound of the read ticks
    /// stored before it (see [`HeadLine`]).
    #[inline]
    fn refresh_head(&self, side: &Side) {
        side.seen
            .store(self.head.0.n.load(Ordering::Acquire), Ordering::Relaxed);
        side.bound
            .store(self.head.0.rmax.load(Ordering::Relaxed), Ordering::Relaxed);
    }

    /// Stores an element's read tick and raises the readers' bound to it (on the readers'
    /// line; published with `head`, see [`HeadLine`]).
    #[inline(always)]
    fn store_read_tick(&self, slot: Slot<'_>, t: u64) {
        if let Some(x) = slot.tr {
            x.store(t, Ordering::Relaxed);
        }
        let side = &self.rlock.0;
        if side.bound.load(Ordering::Relaxed) < t {
            side.bound.store(t, Ordering::Relaxed);
        }
    }

    /// [`Fifo::read`] in simulated time (timing hook): the reader's clock is `now` (ticks);
    /// returns the tick the read completes: at least one cycle after the element was written
    /// (depth > 0) or the writer's arrival (depth 0). A non-blocking read is not ready when the
    /// next element is not yet written in simulated time.
    ///
    /// The common case runs in `Fifo::take`; waits and everything else are
    /// `Fifo::read_slow`.
    #[inline]
    pub fn read_at(
        &self,
        dst: &mut [u8],
        blocking: bool,
        w: &Waiter<'_>,
        now: u64,
    ) -> (FifoOutcome, u64) {
        flush_pending();
        if now != UNTIMED {
            w.run.publish_clock(now);
        }
        let batch = blocking && timed_or_kernel(w);
        match self.take(None, blocking, now, batch, |words| {
            load_payload(words, dst, self.elem)
        }) {
            Some((t, _)) => (FifoOutcome::Done { waited: false }, t),
            None => self.read_slow(dst, blocking, w, now),
        }
    }

    /// A kernel's read of an element of at most 8 bytes in its common case: `Some((element,
    /// tick))` (the element little-endian, zero above the FIFO's element size) when it
    /// completed as [`Fifo::read_at`] would without waiting, `None` (nothing done) for
    /// everything else. The read may be held back and the clock is published as in
    /// [`Fifo::try_write_word`].
    #[inline(always)]
    pub fn try_read_word(
        self: &Arc<Self>,
        blocking: bool,
        now: u64,
        run: &RunState,
    ) -> Option<(u64, u64)> {
        if self.elem > 8 {
            return None;
        }
        let mut v = 0;
        let (t, published) = self.take(Some(self), blocking, now, blocking, |words| {
            v = words.first().map_or(0, |x| x.load(Ordering::Relaxed));
        })?;
        if published {
            self.after_publication(now, run);
        }
        Some((v, t))
    }

    /// The common case of a read: an element there, the readers' side owned by this thread.
    /// `payload` loads the element's payload words. `Some((tick, published))`: done (as
    /// [`Fifo::put`]); `None`: nothing done (the general path decides: empty, not ready in
    /// simulated time, another owner).
    #[inline(always)]
    fn take(
        &self,
        hold: Option<&Arc<Fifo>>,
        blocking: bool,
        now: u64,
        batch: bool,
        payload: impl FnOnce(&[AtomicU64]),
    ) -> Option<(u64, bool)> {
        let side = &self.rlock.0;
        if !side.enter_owned() {
            return None;
        }
        let k = side.pos.load(Ordering::Relaxed);
        if side.seen.load(Ordering::Relaxed) <= k {
            let tail = self.tail.0.load(Ordering::Acquire);
            side.seen.store(tail, Ordering::Relaxed);
            if tail <= k {
                side.leave();
                return None;
            }
            // The next reads load these elements (lines the writers just wrote).
            self.prefetch(k + 1, tail, true);
        }
        let slot = self.slot(k);
        let words = slot.w;
        let tw = words.get(TW).map_or(0, |x| x.load(Ordering::Relaxed));
        if !blocking && tw.saturating_add(self.nb_hop()) > now {
            side.leave();
            return None;
        }
        let hop = if self.depth > 0 { TICKS_PER_CYCLE } else { 0 };
        let t = now.max(tw.saturating_add(hop));
        self.store_read_tick(slot, if now == UNTIMED { 0 } else { t });
        payload(words.get(DATA..).unwrap_or(&[]));
        side.pos.store(k + 1, Ordering::Relaxed);
        if let Some(me) = hold {
            let start = side.published.load(Ordering::Relaxed);
            if k + 1 - start < self.batch {
                if k == start && side.listed.load(Ordering::Relaxed) != token() {
                    me.enlist(false);
                }
                side.leave();
                return Some((t, false));
            }
        }
        self.publish_head(side, k + 1, batch);
        side.leave();
        Some((t, true))
    }

    /// [`Fifo::write_at`] in general: rendezvous, a full FIFO (waits), a side owned by
    /// another thread.
    #[cold]
    #[inline(never)]
    fn write_slow(
        &self,
        src: &[u8],
        blocking: bool,
        w: &Waiter<'_>,
        now: u64,
    ) -> (FifoOutcome, u64) {
        let timed = now != UNTIMED;
        flush_pending();
        if timed {
            w.run.publish_clock(now);
        }
        let mut wait = Wait::default();
        let mut seen_head = self.wlock.0.lock(&self.tail.0);
        // Writes held back by a thread that owned the side before (revoked) are published
        // before anything waits.
        let pos = self.wlock.0.pos.load(Ordering::Relaxed);
        if pos != self.wlock.0.published.load(Ordering::Relaxed) {
            self.publish_tail(&self.wlock.0, pos, true);
        }
        let k = loop {
            let k = self.wlock.0.pos.load(Ordering::Relaxed);
            if k - seen_head.get() < self.cap {
                break k;
            }
            self.refresh_head(seen_head.side);
            if k - seen_head.get() < self.cap {
                break k;
            }
            let stop = if !blocking {
                if !timed || !w.run.timed() {
                    return (FifoOutcome::NotReady, now);
                }
                seen_head.unlocked(|| self.nb_wait(w, now, true))
            } else {
                seen_head
                    .unlocked(|| self.wait_for(w, true, timed, &mut wait, |n| self.has_room_for(n)))
            };
            if let Some(o) = stop {
                self.end_wait(w, &wait, false);
                return (o, now);
            }
        };
        let slot = self.slot(k);
        let freed = if k >= self.cap && (self.depth > 0 || !blocking) {
            // Element k - cap was read (the host ring holds `cap` elements): its read tick.
            if self.cap == self.store.size() {
                slot.read_tick(Ordering::Relaxed)
            } else {
                self.slot(k - self.cap).read_tick(Ordering::Relaxed)
            }
        } else {
            0
        };
        // Non-blocking: the slot must have been freed strictly before `now` (ties decide alike
        // whichever host thread comes first; rule F).
        if !blocking && k >= self.cap && freed >= now {
            drop(seen_head);
            self.end_wait(w, &wait, true);
            return (FifoOutcome::NotReady, now);
        }
        let mut t = now.max(freed);
        let words = slot.w;
        if let Some(x) = words.get(TW) {
            x.store(if now == UNTIMED { 0 } else { t }, Ordering::Relaxed);
        }
        store_payload(&words[DATA.min(words.len())..], src, self.elem);
        self.wlock.0.pos.store(k + 1, Ordering::Relaxed);
        self.publish_tail(&self.wlock.0, k + 1, blocking && timed_or_kernel(w));
        if self.depth == 0 && blocking {
            // Rendezvous: the element must be taken (the writer lock stays held, so no other
            // writer reuses the slot before its read tick is known).
            let seq = k + 1;
            let taken = || self.head.0.n.load(Ordering::SeqCst) >= seq;
            if !taken() {
                if let Some(o) = self.wait_for(w, true, timed, &mut wait, |_| taken()) {
                    drop(seen_head);
                    self.end_wait(w, &wait, false);
                    return (o, now);
                }
            }
            t = t.max(slot.read_tick(Ordering::Acquire));
        }
        drop(seen_head);
        self.end_wait(w, &wait, true);
        if wait.waited && timed {
            w.run.publish_clock(t);
        }
        (
            FifoOutcome::Done {
                waited: wait.waited,
            },
            t,
        )
    }

    /// Reads one element into `dst` (element-size bytes).
    pub fn read(&self, dst: &mut [u8], blocking: bool, w: &Waiter<'_>) -> FifoOutcome {
        self.read_at(dst, blocking, w, UNTIMED).0
    }

    /// [`Fifo::read_at`] in general: an empty FIFO (waits), a side owned by another thread.
    #[cold]
    #[inline(never)]
    fn read_slow(
        &self,
        dst: &mut [u8],
        blocking: bool,
        w: &Waiter<'_>,
        now: u64,
    ) -> (FifoOutcome, u64) {
        let timed = now != UNTIMED;
        flush_pending();
        if timed {
            w.run.publish_clock(now);
        }
        let mut wait = Wait::default();
        let mut seen_tail = self.rlock.0.lock(&self.head.0.n);
        // As in `write_slow`.
        let pos = self.rlock.0.pos.load(Ordering::Relaxed);
        if pos != self.rlock.0.published.load(Ordering::Relaxed) {
            self.publish_head(&self.rlock.0, pos, true);
        }
        let k = loop {
            let k = self.rlock.0.pos.load(Ordering::Relaxed);
            if seen_tail.get() > k {
                break k;
            }
            seen_tail.set(self.tail.0.load(Ordering::Acquire));
            if seen_tail.get() > k {
                break k;
            }
            let stop = if !blocking {
                if !timed || !w.run.timed() {
                    return (FifoOutcome::NotReady, now);
                }
                seen_tail.unlocked(|| self.nb_wait(w, now, false))
            } else {
                seen_tail.unlocked(|| {
                    self.wait_for(w, false, timed, &mut wait, |n| self.has_elements(n))
                })
            };
            if let Some(o) = stop {
                self.end_wait(w, &wait, false);
                return (o, now);
            }
        };
        let slot = self.slot(k);
        let words = slot.w;
        let tw = words.get(TW).map_or(0, |x| x.load(Ordering::Relaxed));
        let hop = if self.depth > 0 { TICKS_PER_CYCLE } else { 0 };
        let avail = tw.saturating_add(hop);
        if !blocking && tw.saturating_add(self.nb_hop()) > now {
            drop(seen_tail);
            self.end_wait(w, &wait, true);
            return (FifoOutcome::NotReady, now);
        }
        let t = now.max(avail);
        self.store_read_tick(slot, if now == UNTIMED { 0 } else { t });
        load_payload(&words[DATA.min(words.len())..], dst, self.elem);
        self.rlock.0.pos.store(k + 1, Ordering::Relaxed);
        self.publish_head(&self.rlock.0, k + 1, blocking && timed_or_kernel(w));
        drop(seen_tail);
        self.end_wait(w, &wait, true);
        if wait.waited && timed {
            w.run.publish_clock(t);
        }
        (
            FifoOutcome::Done {
                waited: wait.waited,
            },
            t,
        )
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
    fn spin_budget_follows_the_waiter() {
        let act = Activity::new();
        let stop = AtomicBool::new(false);
        let pos = || None;
        let waiter = |run| Waiter {
            run,
            activity: &act,
            shutdown: &stop,
            pos: &pos,
        };
        // An idle autorun poller never spins; one whose last execution moved data may.
        let poller = act.register("poller", true, [0; 3]);
        poller.state().set_idle_streak(3);
        assert_eq!(spin_budget(&waiter(poller.state())).0, Duration::ZERO);
        poller.state().set_idle_streak(0);
        assert!(!spin_budget(&waiter(poller.state())).0.is_zero());
        // A host thread's operation spins briefly.
        let host = act.register("host", false, [0; 3]);
        assert_eq!(spin_budget(&waiter(host.state())).0, SPIN_SHORT);
        // A kernel's spins long only with a place among the spinners.
        let kernel = act.register("k", false, [0; 3]);
        let (b, slot) = spin_budget(&waiter(kernel.state()));
        assert_eq!(b == SPIN_LONG, slot.is_some());
        assert!(b == SPIN_LONG || b == SPIN_SHORT);
        // The machine's runnable threads, for `crowded`.
        assert_eq!(runnable_of("0.52 0.58 0.59 3/467 12345\n"), Some(3));
        assert_eq!(runnable_of("14.16 18.20 16.08 15/900 2"), Some(15));
        assert_eq!(runnable_of("garbage"), None);
        // Spinners stay below the number of CPUs: one CPU, no long spinner.
        assert!(SpinSlot::take(1).is_none());
        assert!(SpinSlot::take(u32::MAX).is_some());
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

    /// Two writers and two readers on one FIFO (the side locks contended, waits parked and
    /// woken in batches): every value arrives exactly once, each writer's values in order.
    #[test]
    fn contended_sides_lose_nothing() {
        const N: u32 = 20_000;
        for depth in [0, 1, 16] {
            let f = Arc::new(Fifo::new("m", 4, depth));
            let writers: Vec<_> = (0..2u32)
                .map(|t| {
                    let f = f.clone();
                    std::thread::spawn(move || {
                        with_waiter(|w| {
                            for i in 0..N {
                                let v = (t << 31) | i;
                                assert!(matches!(
                                    f.write(&v.to_le_bytes(), true, w),
                                    FifoOutcome::Done { .. }
                                ));
                            }
                        });
                        flush_owed_wakes();
                    })
                })
                .collect();
            let readers: Vec<_> = (0..2)
                .map(|_| {
                    let f = f.clone();
                    std::thread::spawn(move || {
                        let mut got = Vec::new();
                        with_waiter(|w| {
                            let mut b = [0u8; 4];
                            for _ in 0..N {
                                f.read(&mut b, true, w);
                                got.push(u32::from_le_bytes(b));
                            }
                        });
                        flush_owed_wakes();
                        got
                    })
                })
                .collect();
            for t in writers {
                t.join().unwrap();
            }
            let mut all = Vec::new();
            for t in readers {
                let got = t.join().unwrap();
                for side in [0u32, 1 << 31] {
                    let mine: Vec<u32> = got
                        .iter()
                        .copied()
                        .filter(|v| v & (1 << 31) == side)
                        .collect();
                    assert!(mine.windows(2).all(|p| p[0] < p[1]), "order, depth {depth}");
                }
                all.extend(got);
            }
            all.sort_unstable();
            let want: Vec<u32> = [0u32, 1 << 31]
                .iter()
                .flat_map(|&t| (0..N).map(move |i| t | i))
                .collect();
            assert_eq!(all, want, "depth {depth}");
            assert!(f.is_empty());
        }
    }

    /// Rule F on the ring under host concurrency: a timed writer and reader with uneven
    /// per-element costs (and host pauses that let the ring fill or drain) get, element by
    /// element, the ticks computed sequentially from rule F, at every depth (rendezvous,
    /// fenced shallow FIFOs, a depth that is not a power of two, deep ones).
    #[test]
    fn ring_ticks_follow_rule_f_whatever_the_host_schedule() {
        for depth in [0u32, 1, 2, 5, 16, 64, 1000] {
            let f = Arc::new(Fifo::new("c", 8, depth));
            let (got_w, got_r) = pair_ticks(&f, 3000, plain_write, plain_read, flush_owed_wakes);
            let (tr, wdone) = rule_f_ticks(3000, depth);
            assert_eq!(got_w, wdone, "depth {depth}: write ticks");
            assert_eq!(got_r, tr, "depth {depth}: read ticks");
        }
    }

    /// The uneven per-element costs of the rule F tests (cycles).
    fn wcost(i: u64) -> u64 {
        (i * 7 % 5) * C
    }
    fn rcost(i: u64) -> u64 {
        (i * 3 % 4 + i.is_multiple_of(97) as u64 * 40) * C
    }

    /// Rule F computed sequentially for `n` elements through a FIFO of `depth` (0: a
    /// register) with [`wcost`] and [`rcost`]: the read ticks and the writer's completion
    /// ticks.
    fn rule_f_ticks(n: u64, depth: u32) -> (Vec<u64>, Vec<u64>) {
        let (cap, n) = (depth.max(1) as usize, n as usize);
        let (mut tw, mut tr, mut wdone) = (vec![0; n], vec![0; n], vec![0; n]);
        let (mut wnow, mut rnow) = (0u64, 0u64);
        for k in 0..n {
            wnow += wcost(k as u64);
            rnow += rcost(k as u64);
            tw[k] = if depth > 0 && k >= cap {
                wnow.max(tr[k - cap])
            } else {
                wnow
            };
            let hop = if depth > 0 { C } else { 0 };
            tr[k] = rnow.max(tw[k] + hop);
            wdone[k] = if depth == 0 { tw[k].max(tr[k]) } else { tw[k] };
            wnow = wdone[k];
            rnow = tr[k];
        }
        (tr, wdone)
    }

    /// A timed writer thread and a timed reader (this thread) move `n` elements (0, 1, ...)
    /// through `f` with [`wcost`] and [`rcost`] and host pauses that let the ring fill or
    /// drain; `end` runs after each side's last operation (the writer's 5 ms later, so held
    /// back elements wait for it). Returns the writer's completion ticks and the read ticks.
    fn pair_ticks(
        f: &Arc<Fifo>,
        n: u64,
        write: fn(&Arc<Fifo>, u64, &Waiter<'_>, u64) -> u64,
        read: fn(&Arc<Fifo>, &Waiter<'_>, u64) -> (u64, u64),
        end: fn(),
    ) -> (Vec<u64>, Vec<u64>) {
        let act = Activity::new();
        let (f2, a2) = (f.clone(), act.clone());
        let writer = std::thread::spawn(move || {
            timed(&a2, 0, |w| {
                let mut now = 0;
                let mut got = Vec::new();
                for i in 0..n {
                    if i % 500 == 250 {
                        std::thread::sleep(Duration::from_millis(3));
                    }
                    now += wcost(i);
                    now = write(&f2, i, w, now);
                    got.push(now);
                }
                std::thread::sleep(Duration::from_millis(5));
                end();
                got
            })
        });
        let got_r = timed(&act, 0, |w| {
            let mut now = 0;
            let mut got = Vec::new();
            for i in 0..n {
                if i % 700 == 100 {
                    std::thread::sleep(Duration::from_millis(3));
                }
                now += rcost(i);
                let (v, t) = read(f, w, now);
                assert_eq!(v, i, "order");
                got.push(t);
                now = t;
            }
            end();
            got
        });
        (writer.join().unwrap(), got_r)
    }

    /// A blocking write through the general path; its completion tick.
    fn plain_write(f: &Arc<Fifo>, v: u64, w: &Waiter<'_>, now: u64) -> u64 {
        let (o, t) = f.write_at(&v.to_le_bytes(), true, w, now);
        assert!(matches!(o, FifoOutcome::Done { .. }));
        t
    }

    /// A blocking read through the general path; the value and its tick.
    fn plain_read(f: &Arc<Fifo>, w: &Waiter<'_>, now: u64) -> (u64, u64) {
        let mut b = [0u8; 8];
        let (o, t) = f.read_at(&mut b, true, w, now);
        assert!(matches!(o, FifoOutcome::Done { .. }));
        (u64::from_le_bytes(b), t)
    }

    /// A kernel's word-sized write, held back when possible (the general path otherwise).
    fn kernel_write(f: &Arc<Fifo>, v: u64, w: &Waiter<'_>, now: u64) -> u64 {
        match f.try_write_word(v, true, now, w.run) {
            Some(t) => t,
            None => {
                let (o, t) = f.write_at(&v.to_le_bytes(), true, w, now);
                assert!(matches!(o, FifoOutcome::Done { .. }));
                t
            }
        }
    }

    /// A kernel's word-sized read, as [`kernel_write`].
    fn kernel_read(f: &Arc<Fifo>, w: &Waiter<'_>, now: u64) -> (u64, u64) {
        match f.try_read_word(true, now, w.run) {
            Some(x) => x,
            None => {
                let mut b = [0u8; 8];
                let (o, t) = f.read_at(&mut b, true, w, now);
                assert!(matches!(o, FifoOutcome::Done { .. }));
                (u64::from_le_bytes(b), t)
            }
        }
    }

    /// A kernel's word-sized operations hold their counter back for [`Fifo::batch`] elements
    /// (a quarter of the FIFO, at most [`BATCH_MAX`]); [`flush_pending`] and
    /// [`end_execution`] publish what is held back; shallow FIFOs publish every element.
    #[test]
    fn word_operations_publish_once_per_batch() {
        assert_eq!(Fifo::new("c", 4, 16).batch, 4);
        assert_eq!(Fifo::new("c", 4, 1024).batch, BATCH_MAX);
        assert_eq!(Fifo::new("c", 4, 2).batch, 1);
        let f = Arc::new(Fifo::new("c", 4, 16));
        with_waiter(|w| {
            // The first operation of a side takes it (general path, published).
            assert_eq!(f.try_write_word(0, true, UNTIMED, w.run), None);
            f.write(&[0; 4], true, w);
            assert_eq!(f.position(), (1, 0));
            for i in 1..4 {
                assert!(f.try_write_word(i, true, UNTIMED, w.run).is_some());
                assert_eq!(f.position(), (1, 0), "write {i} is held back");
            }
            f.try_write_word(4, true, UNTIMED, w.run).unwrap();
            assert_eq!(f.position(), (5, 0), "the fourth held-back write publishes");
            f.try_write_word(5, true, UNTIMED, w.run).unwrap();
            assert_eq!(f.position(), (5, 0));
            flush_pending();
            assert_eq!(f.position(), (6, 0));
            // Reads: the same.
            let mut b = [0u8; 4];
            f.read(&mut b, true, w);
            assert_eq!(f.position(), (6, 1));
            assert_eq!(f.try_read_word(true, UNTIMED, w.run).map(|x| x.0), Some(1));
            assert_eq!(f.position(), (6, 1));
            f.try_write_word(6, true, UNTIMED, w.run).unwrap();
            assert_eq!(f.wlock.0.listed.load(Ordering::Relaxed), token());
            end_execution();
            assert_eq!(
                f.position(),
                (7, 2),
                "the end of the execution publishes both"
            );
            assert_eq!(f.wlock.0.listed.load(Ordering::Relaxed), 0);
            assert_eq!(LISTS_IN_USE.load(Ordering::Relaxed), 0);
            // The general path publishes what its own thread held back.
            assert_eq!(f.try_read_word(true, UNTIMED, w.run).map(|x| x.0), Some(2));
            f.read(&mut b, true, w);
            assert_eq!(u32::from_le_bytes(b), 3);
            assert_eq!(f.position(), (7, 4));
            end_execution();
        });
        // A shallow FIFO publishes every word.
        let g = Arc::new(Fifo::new("s", 4, 2));
        with_waiter(|w| {
            g.write(&[0; 4], true, w);
            g.try_write_word(7, true, UNTIMED, w.run).unwrap();
            assert_eq!(g.position(), (2, 0));
        });
    }

    /// Held-back counters change no simulated time: a writer and a reader using the word
    /// operations (which hold back) on two threads, with uneven costs, host pauses and element
    /// counts that end in a partial batch, get every element, in order, at the ticks of
    /// sequential rule F; the reader gets the writer's last, held-back, elements when the
    /// writer's execution ends.
    #[test]
    fn held_back_counters_keep_rule_f_and_deliver_a_partial_batch() {
        for depth in [4u32, 16, 64, 1000] {
            let f = Arc::new(Fifo::new("c", 8, depth));
            let (got_w, got_r) = pair_ticks(&f, 3001, kernel_write, kernel_read, end_execution);
            let (tr, wdone) = rule_f_ticks(3001, depth);
            assert_eq!(got_w, wdone, "depth {depth}: write ticks");
            assert_eq!(got_r, tr, "depth {depth}: read ticks");
            assert!(f.is_empty());
        }
    }

    /// A clock published after an element was held back would let a partner's non-blocking
    /// read decide that no element can be visible: an operation that publishes (here on a
    /// shallow FIFO, at cycle 150) publishes the thread's held-back elements first, so the
    /// non-blocking read at cycle 100 gets the element written at cycle 10.
    #[test]
    fn a_held_back_element_is_published_before_a_later_clock() {
        let act = Activity::new();
        let a = Arc::new(Fifo::new("a", 4, 16));
        let b = Arc::new(Fifo::new("b", 4, 2));
        let hold = act.hold_sim();
        let (a2, b2, act2) = (a.clone(), b.clone(), act.clone());
        let writer = std::thread::spawn(move || {
            timed(&act2, 0, |w| {
                // Both writers' sides taken (general path), then a held-back write to `a`.
                a2.write_at(&[4; 4], true, w, 0);
                b2.write_at(&[4; 4], true, w, 0);
                assert_eq!(a2.try_write_word(5, true, 10 * C, w.run), Some(10 * C));
                assert_eq!(a2.position(), (1, 0), "held back");
                assert_eq!(b2.try_write_word(6, true, 150 * C, w.run), Some(150 * C));
                assert_eq!(a2.position(), (2, 0), "published with b's write");
                std::thread::sleep(Duration::from_millis(50));
                end_execution();
            })
        });
        while act.report().kernels.is_empty() {
            std::thread::yield_now();
        }
        drop(hold);
        let mut buf = [0u8; 4];
        let got = timed(&act, 100 * C, |w| {
            a.read_at(&mut buf, false, w, 100 * C);
            a.read_at(&mut buf, false, w, 100 * C)
        });
        assert_eq!(got, (FifoOutcome::Done { waited: false }, 100 * C));
        assert_eq!(u32::from_le_bytes(buf), 5);
        writer.join().unwrap();
    }

    /// The writers' bound on read ticks ([`HeadLine`]) is the largest read tick, not the last:
    /// with reads out of tick order (two work-items at different clocks), the write that
    /// reuses the slot of the later-stamped element still waits for it, and one whose slot
    /// was freed early is decided by its own read tick (hand-computed rule F, depth 2).
    #[test]
    fn write_ticks_follow_read_ticks_out_of_order() {
        let act = Activity::new();
        let f = Fifo::new("c", 4, 2);
        timed(&act, 0, |w| {
            assert_eq!(f.write_at(&[0; 4], true, w, 0).1, 0);
            assert_eq!(f.write_at(&[1; 4], true, w, 0).1, 0);
            let mut b = [0u8; 4];
            // tr[0] = 100 cycles, tr[1] = max(5, 0 + 1) = 5 cycles: rmax = 100.
            assert_eq!(f.read_at(&mut b, true, w, 100 * C).1, 100 * C);
            assert_eq!(f.read_at(&mut b, true, w, 5 * C).1, 5 * C);
            // Element 2 reuses element 0's slot: max(50, tr[0] = 100).
            assert_eq!(f.write_at(&[2; 4], true, w, 50 * C).1, 100 * C);
            // Element 3 reuses element 1's (read at 5): a non-blocking write at cycle 60 is
            // ready (5 < 60) although the bound (100) is not below 60.
            assert_eq!(
                f.write_at(&[3; 4], false, w, 60 * C),
                (FifoOutcome::Done { waited: false }, 60 * C)
            );
            // Element 4 reuses element 2's slot, read at max(0, 100 + 1) = 101 cycles.
            assert_eq!(f.read_at(&mut b, true, w, 0).1, 101 * C);
            assert_eq!(f.read_at(&mut b, true, w, 0).1, 61 * C);
            assert_eq!(
                f.write_at(&[4; 4], false, w, 101 * C),
                (FifoOutcome::NotReady, 101 * C)
            );
            assert_eq!(f.write_at(&[4; 4], true, w, 90 * C).1, 101 * C);
            // Element 5 reuses element 3's slot, read at 61: the bound (101) exceeds 70, the
            // exact tick decides.
            assert_eq!(f.write_at(&[5; 4], true, w, 70 * C).1, 70 * C);
        });
    }

    /// A FIFO switches to a fence per operation only for a steady hand-over through parks:
    /// not during its first elements, not for one burst, but after 3 checks in a row that
    /// found parks denser than one per 32 elements.
    #[test]
    fn fencing_needs_steady_parks_past_the_warm_up() {
        let f = Fifo::new("c", 4, 16);
        let parks_at = |tail: u64| {
            f.tail.0.store(tail, Ordering::Relaxed);
            for _ in 0..PARK_CHECK {
                f.count_park();
            }
            f.mode.load(Ordering::Relaxed)
        };
        const W: u64 = PARK_WARMUP;
        // Dense, but within the warm-up (also just before its end).
        assert_eq!(parks_at(100), ASYM);
        assert_eq!(parks_at(200), ASYM);
        assert_eq!(parks_at(300), ASYM);
        assert_eq!(parks_at(W - 300), ASYM);
        assert_eq!(parks_at(W - 200), ASYM);
        assert_eq!(parks_at(W - 100), ASYM);
        // Past it (4700 elements for 64 parks: sparse): two dense windows, then a sparse one.
        assert_eq!(parks_at(W + 4600), ASYM);
        assert_eq!(parks_at(W + 4700), ASYM);
        assert_eq!(parks_at(W + 4800), ASYM);
        assert_eq!(parks_at(W + 8800), ASYM);
        // Three dense windows in a row.
        assert_eq!(parks_at(W + 8900), ASYM);
        assert_eq!(parks_at(W + 9000), ASYM);
        assert_eq!(parks_at(W + 9100), FENCED);
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
