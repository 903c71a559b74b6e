//! Batched access counting for compiled kernels: the accesses of one site whose addresses
//! and issue slots both advance by a constant step are kept as a run (first address, stride,
//! first slot, slot step, length) and counted as a whole when the run ends, with the same
//! result as [`Machine::count`] called once per access in execution order.
//!
//! Why this is exact: every piece of state `count` touches for a site whose burst tracker is
//! its own (no statically coalesced group, rule M0') belongs to that site alone: its counter
//! row, its last address, its issue counter and its burst trackers (one per issue slot). So
//! the accesses of different sites may be counted in any order, and the accesses of one site
//! only need their own order. The issue counters are advanced by the compiled code itself at
//! each access (it must know the slot to extend a run); a run records the slots it got.
//!
//! A finished run joins the site's row set (`Rows`) when it has the previous runs' shape and
//! its first address moves by their constant step (the same loop in the next work-item), so
//! a loop over work-items is counted in closed form as well: per issue slot, one walk down
//! the rows, and a walk skips the accesses that stay in the word its tracker's burst ends
//! with (they change nothing), so it costs about one step per memory word, not per access.
//!
//! A run ends (is counted) when an access of its site does not continue it, and every run is
//! counted before the compiled code returns to the worker (`jit::run`, `jit::run_items`),
//! before the interpreter's code runs a cold op (which may count accesses), and when a
//! periodic poll stops the kernel (not at every poll: a row set goes on across polls).
//! Kernels with channels or pipes and autorun kernels do not batch: their counters may be
//! read while they run.

use super::interp::{burst_step, Machine, ISSUE_SLOTS};
use crate::counters::field;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The pending run of one site. Compiled code reads `next`, `nslot`, `n`, `stride` and `dslot`
/// at fixed offsets (`#[repr(C)]`) and extends the run in place; anything else goes through
/// [`Machine::batch_access`].
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    /// The address and the issue slot that continue the run (`nslot` is `u64::MAX` when the
    /// site has no run: issue slots are small, so no access matches it).
    pub next: u64,
    pub nslot: u64,
    /// Accesses in the run.
    pub n: u64,
    /// Address step and issue slot step (0 or 1) between accesses.
    pub stride: u64,
    pub dslot: u64,
    /// The first access's address and issue slot; bytes per access and element size.
    pub a0: u64,
    pub s0: u64,
    pub size: u64,
    pub elem: u64,
}

impl Batch {
    pub const EMPTY: Batch = Batch {
        next: 0,
        nslot: u64::MAX,
        n: 0,
        stride: 0,
        dslot: 0,
        a0: 0,
        s0: 0,
        size: 0,
        elem: 0,
    };
}

/// The issue slot after `slot` in a run of slot step `dslot`: a work-item's executions of a
/// site past the first `ISSUE_SLOTS` all take slot `ISSUE_SLOTS`, so a run that reaches it
/// goes on there (access `i` of a run has slot `min(s0 + i * dslot, ISSUE_SLOTS)`). The
/// compiled code extends runs the same way.
#[inline(always)]
pub fn next_slot(slot: u64, dslot: u64) -> u64 {
    slot.wrapping_add(dslot).min(ISSUE_SLOTS as u64)
}

#[inline(always)]
fn bump(c: &AtomicU64, v: u64) {
    c.store(c.load(Relaxed).wrapping_add(v), Relaxed);
}

/// Consecutive runs of one site with the same shape (length, steps, first issue slot, sizes)
/// whose first addresses advance by a constant step: typically the same loop in successive
/// work-items. Row `j` is run `r` moved by `j * delta`; `last` is the last row's first address.
/// Counted as a whole like a run (see [`Machine::count_rows`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rows {
    pub r: Batch,
    pub delta: u64,
    pub m: u64,
    pub last: u64,
}

impl Rows {
    pub const EMPTY: Rows = Rows {
        r: Batch::EMPTY,
        delta: 0,
        m: 0,
        last: 0,
    };

    /// The row set of one run.
    fn of(r: Batch) -> Rows {
        Rows {
            r,
            delta: 0,
            m: 1,
            last: r.a0,
        }
    }
}

/// What a tracker walk feeds: bytes per access, the word shift (`u32::MAX`: divide by `wb`,
/// no skipping), word bytes and the longest burst in words.
#[derive(Clone, Copy)]
struct WalkKind {
    size: u64,
    ws: u32,
    wb: u64,
    max: u64,
}

/// What a tracker walk adds up: words, bursts started and the longest burst seen.
#[derive(Default)]
struct Walked {
    words: u64,
    bursts: u64,
    longest: u64,
}

/// Whether every access of a walk (`cnt` accesses at `a, a + d, ...`, `d` not negative) lies
/// in the word tracker `t`'s burst ends with, so that none changes anything (the walk only
/// raises the longest burst to `t.1`): the common case down the rows of a row set, the same
/// loop in the items of a group row.
#[inline(always)]
fn in_last_word(t: &(u64, u64), a: u64, d: u64, cnt: u64, k: &WalkKind) -> bool {
    let WalkKind { size, ws, max, .. } = *k;
    if ws == u32::MAX || (d as i64) < 0 || t.1 > max || cnt == 0 {
        return false;
    }
    let last = a.wrapping_add((cnt - 1).wrapping_mul(d));
    a >> ws == t.0 && (last + size - 1) >> ws == t.0
}

/// Feeds `cnt` accesses of `size` bytes at `a, a + d, a + 2d, ...` to burst tracker `t`, as
/// `burst_step` would one by one. With a word shift (`ws != u32::MAX`), an access that lies in
/// the word the tracker's burst ends with leaves the tracker unchanged (no new word, burst
/// continues, `t.1` unchanged): such accesses are skipped in one step, so a walk costs about
/// one step per word touched rather than per access. The caller guarantees that no address
/// (or `address + size - 1`) of the walk wraps.
fn walk(t: &mut (u64, u64), a: u64, d: u64, cnt: u64, k: &WalkKind, w: &mut Walked) {
    let WalkKind { size, ws, wb, max } = *k;
    if in_last_word(t, a, d, cnt, k) {
        w.longest = w.longest.max(t.1);
        return;
    }
    if ws != u32::MAX && cnt > 1 && d <= wb && max > 0 {
        // A walk in place or forward whose accesses each lie in one word (they start at
        // multiples of a power of two at least `size` that divides the word) and advance by
        // at most a word: after the first access it touches each following word once, in
        // order, so every new word continues the burst until `max` words, then starts the
        // next. In closed form (no address wraps: the caller's guarantee).
        if size > 0 && size <= 1u64 << (a | d | wb).trailing_zeros() {
            let (w0, w1) = (a >> ws, (a + size - 1) >> ws);
            let (new, started) = burst_step(t, w0, w1, max);
            w.bursts += started as u64;
            w.words += new;
            let l = t.1;
            w.longest = w.longest.max(l);
            if (1..=max).contains(&l) {
                let last = a.wrapping_add((cnt - 1).wrapping_mul(d));
                let k = (last >> ws) - w0;
                w.words += k;
                if l + k <= max {
                    // (The common case, without a division.)
                    w.longest = w.longest.max(l + k);
                    t.1 = l + k;
                } else {
                    w.bursts += (l - 1 + k) / max;
                    w.longest = w.longest.max(max);
                    t.1 = (l - 1 + k) % max + 1;
                }
                t.0 = last >> ws;
                return;
            }
            // (A burst longer than `max` or empty: never made by `burst_step`; step by step.)
            return walk_from(t, a.wrapping_add(d), d, cnt - 1, k, w);
        }
    }
    walk_from(t, a, d, cnt, k, w)
}

/// [`walk`] access by access (skipping the accesses in the word a burst ends with).
fn walk_from(t: &mut (u64, u64), a: u64, d: u64, cnt: u64, k: &WalkKind, w: &mut Walked) {
    let WalkKind { size, ws, wb, max } = *k;
    let mut a = a;
    let mut j = 0u64;
    while j < cnt {
        let (w0, w1) = if ws != u32::MAX {
            (a >> ws, (a + size - 1) >> ws)
        } else {
            (a / wb, (a + size - 1) / wb)
        };
        if ws != u32::MAX && w0 == t.0 && w1 == w0 && t.1 <= max {
            // This access and the following ones in the same word change nothing.
            w.longest = w.longest.max(t.1);
            let k = if d == 0 {
                cnt - j
            } else if (d as i64) > 0 {
                let lim = (w0 << ws) + ((1u64 << ws) - size);
                (lim - a) / d + 1
            } else {
                (a - (w0 << ws)) / d.wrapping_neg() + 1
            };
            let k = k.min(cnt - j);
            j += k;
            a = a.wrapping_add(k.wrapping_mul(d));
            continue;
        }
        let (new, started) = burst_step(t, w0, w1, max);
        w.bursts += started as u64;
        w.words += new;
        w.longest = w.longest.max(t.1);
        j += 1;
        a = a.wrapping_add(d);
    }
}

impl Machine<'_> {
    /// An access of `site` at `addr` with issue slot `slot` that does not continue the site's
    /// run (the compiled fast path checks `next`/`nslot`): the second access of a run sets
    /// its steps; otherwise the run ends (joins the site's rows or is counted) and a new one
    /// starts here.
    pub fn batch_access(&mut self, site: u32, addr: u64, slot: u64, size: u64, elem: u64) {
        let s = site as usize;
        let Some(b) = self.batches.get_mut(s) else {
            return;
        };
        if b.n == 1 && b.size == size && b.elem == elem && slot.wrapping_sub(b.s0) <= 1 {
            b.stride = addr.wrapping_sub(b.a0);
            b.dslot = slot - b.s0;
            b.n = 2;
            b.next = addr.wrapping_add(b.stride);
            b.nslot = next_slot(slot, b.dslot);
            return;
        }
        if b.n > 0 {
            let r = *b;
            self.retire(s, r);
        } else {
            self.batch_dirty.push(site);
        }
        self.batches[s] = Batch {
            next: addr,
            nslot: slot,
            n: 1,
            stride: 0,
            dslot: 0,
            a0: addr,
            s0: slot,
            size,
            elem,
        };
    }

    /// A finished run of site `s`: it extends the site's rows when it has their shape and its
    /// first address continues their step; otherwise the rows are counted and start anew.
    fn retire(&mut self, s: usize, r: Batch) {
        let Some(p) = self.rows.get_mut(s) else {
            self.count_rows(s, &Rows::of(r));
            return;
        };
        if p.m > 0 {
            let q = &p.r;
            let same = q.n == r.n
                && q.stride == r.stride
                && q.dslot == r.dslot
                && q.s0 == r.s0
                && q.size == r.size
                && q.elem == r.elem;
            let d = r.a0.wrapping_sub(p.last);
            if same && (p.m == 1 || d == p.delta) {
                p.delta = d;
                p.m += 1;
                p.last = r.a0;
                return;
            }
            let q = *p;
            self.count_rows(s, &q);
        }
        self.rows[s] = Rows::of(r);
    }

    /// Counts every pending run and row set (see the module comment for when this must
    /// happen).
    pub fn flush_batches(&mut self) {
        while let Some(site) = self.batch_dirty.pop() {
            let s = site as usize;
            let r = self.batches[s];
            self.batches[s] = Batch::EMPTY;
            if r.n > 0 {
                self.retire(s, r);
            }
            if let Some(p) = self.rows.get_mut(s) {
                let q = std::mem::replace(p, Rows::EMPTY);
                if q.m > 0 {
                    self.count_rows(s, &q);
                }
            }
        }
    }

    /// Counts rows `p` of site `s` as `count` would count their accesses one by one, given
    /// that the issue counters already advanced: access `i` of row `j` has address
    /// `a0 + j * delta + i * stride` and issue slot `s0 + i * dslot`, rows in order.
    pub(super) fn count_rows(&mut self, s: usize, p: &Rows) {
        let ns = self.last.len();
        let (Some(row), Some(l)) = (self.counters.site_row(s), self.last.get_mut(s)) else {
            return;
        };
        let r = &p.r;
        let (n, m, size, stride) = (r.n, p.m, r.size, r.stride);
        let delta = if m > 1 { p.delta } else { 0 };
        if n == 0 || m == 0 {
            return;
        }
        let total = n.wrapping_mul(m);
        let at = |i: u64, j: u64| {
            r.a0.wrapping_add(j.wrapping_mul(delta))
                .wrapping_add(i.wrapping_mul(stride))
        };
        bump(&row[field::FIRES], total);
        bump(&row[field::BYTES], size.wrapping_mul(total));
        // Closed forms need addresses that do not wrap (and so are never u64::MAX, "no
        // previous address"): the affine corners, as signed steps, stay within range.
        let fits = {
            let a0 = r.a0 as i128;
            let di = (n - 1) as i128 * (stride as i64) as i128;
            let dj = (m - 1) as i128 * (delta as i64) as i128;
            let lo = a0 + di.min(0) + dj.min(0);
            let hi = a0 + di.max(0) + dj.max(0) + size.max(1) as i128 - 1;
            lo >= 0 && hi < u64::MAX as i128
        };
        let prev = *l;
        *l = at(n - 1, m - 1);
        let ws = self.word_shift;
        let wb = self.word_bytes;
        let words = |a: u64| -> (u64, u64) {
            if ws != u32::MAX {
                (a >> ws, (a + size - 1) >> ws)
            } else {
                (a / wb, (a + size - 1) / wb)
            }
        };
        let need = if ws != u32::MAX {
            (size + (1 << ws) - 1) >> ws
        } else {
            size.div_ceil(wb)
        };
        let crosses = |a: u64| {
            let (w0, w1) = words(a);
            w1 - w0 + 1 > need
        };
        let align = if size.is_power_of_two() { size } else { r.elem };
        let am = align.wrapping_sub(1);
        let (mut seq, mut rep, unaligned, crossing);
        if fits {
            // Sequential and repeated: the first access against the site's last address,
            // then (n - 1) steps of `stride` per row and (m - 1) steps between rows.
            seq = 0u64;
            rep = 0u64;
            let mut tally = |d: u64, k: u64| {
                if d == size {
                    seq += k;
                } else if d == 0 {
                    rep += k;
                }
            };
            if prev != u64::MAX {
                tally(r.a0.wrapping_sub(prev), 1);
            }
            tally(stride, m * (n - 1));
            tally(delta.wrapping_sub((n - 1).wrapping_mul(stride)), m - 1);
            let steps = stride | delta;
            unaligned = if align.is_power_of_two() && steps & am == 0 {
                if r.a0 & am != 0 {
                    total
                } else {
                    0
                }
            } else {
                self::count_where(n, m, &at, |a| a & am != 0)
            };
            crossing = if ws != u32::MAX && steps & ((1u64 << ws) - 1) == 0 {
                if size > 0 && crosses(r.a0) {
                    total
                } else {
                    0
                }
            } else if size == 0 {
                0
            } else if ws != u32::MAX && size <= 1u64 << (r.a0 | steps | wb).trailing_zeros() {
                // Every access starts at a multiple of a power of two at least `size` that
                // divides the word: none leaves its word.
                0
            } else {
                self::count_where(n, m, &at, crosses)
            };
        } else {
            // Access by access, as `count` does.
            let (mut sq, mut rp, mut un, mut cr) = (0u64, 0u64, 0u64, 0u64);
            let mut pv = prev;
            for j in 0..m {
                for i in 0..n {
                    let a = at(i, j);
                    if pv != u64::MAX {
                        if a == pv.wrapping_add(size) {
                            sq += 1;
                        } else if a == pv {
                            rp += 1;
                        }
                    }
                    pv = a;
                    un += (a & am != 0) as u64;
                    cr += (size > 0 && crosses(a)) as u64;
                }
            }
            (seq, rep, unaligned, crossing) = (sq, rp, un, cr);
        }
        if seq > 0 {
            bump(&row[field::SEQUENTIAL], seq);
        }
        if rep > 0 {
            bump(&row[field::REPEATED], rep);
        }
        if unaligned > 0 {
            bump(&row[field::UNALIGNED], unaligned);
        }
        if crossing > 0 {
            bump(&row[field::CROSSING], crossing);
        }
        if size == 0 {
            return;
        }
        // Rule M6 and the burst trackers: one tracker for the whole set (a slot step of 0),
        // fed row by row, or one tracker per access of a row, fed down the rows.
        let max = self.max_burst_words;
        let last_slot =
            r.s0.wrapping_add((n - 1).wrapping_mul(r.dslot))
                .min(ISSUE_SLOTS as u64);
        let top = r.s0.max(last_slot) as usize;
        if top >= self.burst_rows {
            self.add_burst_rows(top + 1, ns);
        }
        // Word skipping needs addresses that do not wrap.
        let k = WalkKind {
            size,
            ws: if fits { ws } else { u32::MAX },
            wb,
            max,
        };
        let mut w = Walked::default();
        if r.dslot == 0 {
            if let Some(t) = self.bursts.get_mut(r.s0 as usize * ns + s) {
                let mut tt = *t;
                for j in 0..m {
                    walk(&mut tt, at(0, j), stride, n, &k, &mut w);
                }
                *t = tt;
            }
        } else {
            // Accesses `i0..n` of every row share slot `ISSUE_SLOTS` (`next_slot`): its
            // tracker takes them row by row; the others have a slot each, fed down the rows.
            let i0 = (ISSUE_SLOTS as u64).saturating_sub(r.s0);
            let tail = n > i0 + 1;
            for i in 0..if tail { i0 } else { n } {
                let at_slot = (r.s0 + i) as usize * ns + s;
                if let Some(t) = self.bursts.get_mut(at_slot) {
                    let a = at(i, 0);
                    // (Checked here as well: most slots' walks end in it, without a call.)
                    if in_last_word(t, a, delta, m, &k) {
                        w.longest = w.longest.max(t.1);
                        continue;
                    }
                    walk(t, a, delta, m, &k, &mut w);
                }
            }
            if tail {
                if let Some(t) = self.bursts.get_mut(ISSUE_SLOTS as usize * ns + s) {
                    let mut tt = *t;
                    for j in 0..m {
                        walk(&mut tt, at(i0, j), stride, n - i0, &k, &mut w);
                    }
                    *t = tt;
                }
            }
        }
        if w.words > 0 {
            bump(&row[field::WORDS], w.words);
        }
        if w.bursts > 0 {
            bump(&row[field::BURSTS], w.bursts);
        }
        let mb = &row[field::MAX_BURST];
        if mb.load(Relaxed) < w.longest {
            mb.store(w.longest, Relaxed);
        }
    }
}

/// Accesses of an `n` x `m` row set whose address satisfies `f`.
fn count_where(n: u64, m: u64, at: &impl Fn(u64, u64) -> u64, f: impl Fn(u64) -> bool) -> u64 {
    let mut c = 0;
    for j in 0..m {
        for i in 0..n {
            c += f(at(i, j)) as u64;
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use crate::counters::CounterBlock;
    use crate::exec::group::{Plan, Worker};
    use crate::exec::interp::ISSUE_SLOTS;
    use crate::exec::printf_stream::PrintfStream;
    use fpgacl_kernel_compiler::{build, SourceFile};
    use proptest::prelude::*;

    /// One access of the generated sequences: site, address, or the start of a new
    /// work-item (the issue counters restart).
    #[derive(Clone, Debug)]
    enum Ev {
        Access(u32, u64),
        NewItem,
    }

    const SITES: u32 = 3;

    /// Runs of affine addresses (the common case), broken by jumps, repeats and new items.
    fn events() -> impl Strategy<Value = Vec<Ev>> {
        let run = (
            0..SITES,
            prop_oneof![
                Just(0u64),
                0u64..4096,
                Just(1u64 << 52),
                Just((7u64 << 52) + 40)
            ],
            prop_oneof![
                Just(0u64),
                Just(1u64),
                Just(4u64),
                Just(8u64),
                Just(64u64),
                Just(1024u64),
                1u64..200,
                Just(4u64.wrapping_neg()),
                Just(32u64),
                Just(256u64.wrapping_neg()),
            ],
            1usize..40,
            any::<bool>(),
        )
            .prop_map(|(s, a0, st, n, item)| {
                let mut v: Vec<Ev> = (0..n as u64)
                    .map(|i| Ev::Access(s, (a0 + (1 << 20)).wrapping_add(i.wrapping_mul(st))))
                    .collect();
                if item {
                    v.push(Ev::NewItem);
                }
                v
            });
        proptest::collection::vec(run, 1..12).prop_map(|runs| {
            // Interleave the runs of different sites access by access, as loops do.
            let mut out = Vec::new();
            let mut its: Vec<std::vec::IntoIter<Ev>> =
                runs.into_iter().map(|r| r.into_iter()).collect();
            let mut k = 0usize;
            while !its.is_empty() {
                let i = k % its.len();
                match its[i].next() {
                    Some(e) => out.push(e),
                    None => {
                        its.remove(i);
                    }
                }
                k += 1;
            }
            out
        })
    }

    /// The same loop in successive work-items: each site's run moves by its own step per
    /// item (row sets), with an occasional row of another length or address (a break).
    fn rows() -> impl Strategy<Value = Vec<Ev>> {
        rows_of(1u64..24, 1u64..40)
    }

    /// [`rows`] with rows of `len` accesses, `m` rows.
    fn rows_of(
        len: impl Strategy<Value = u64>,
        m: std::ops::Range<u64>,
    ) -> impl Strategy<Value = Vec<Ev>> {
        let site = (
            prop_oneof![Just(0u64), 0u64..4096, Just((7u64 << 52) + 40)],
            prop_oneof![
                Just(0u64),
                Just(4u64),
                Just(8u64),
                Just(64u64),
                1u64..100,
                Just(4u64.wrapping_neg())
            ],
            len,
            prop_oneof![
                Just(0u64),
                Just(4u64),
                Just(1u64),
                Just(16u64),
                Just(1024u64),
                1u64..300,
                Just(8u64.wrapping_neg()),
                Just(512u64.wrapping_neg())
            ],
        );
        (
            proptest::collection::vec(site, 1..=SITES as usize),
            m,
            proptest::option::of((0u64..40, 1u64..5)),
            any::<bool>(),
        )
            .prop_map(|(sites, m, brk, items)| {
                let mut out = Vec::new();
                for j in 0..m {
                    let (bj, extra) = brk.unwrap_or((u64::MAX, 0));
                    let rows: Vec<Vec<u64>> = sites
                        .iter()
                        .map(|&(a0, st, n, d)| {
                            let n = if j == bj { n + extra } else { n };
                            let base = (a0 + (1 << 24)).wrapping_add(j.wrapping_mul(d));
                            (0..n)
                                .map(|i| base.wrapping_add(i.wrapping_mul(st)))
                                .collect()
                        })
                        .collect();
                    let longest = rows.iter().map(Vec::len).max().unwrap_or(0);
                    for i in 0..longest {
                        for (s, r) in rows.iter().enumerate() {
                            if let Some(&a) = r.get(i) {
                                out.push(Ev::Access(s as u32, a));
                            }
                        }
                    }
                    if items {
                        out.push(Ev::NewItem);
                    }
                }
                out
            })
    }

    fn module() -> std::sync::Arc<fpgacl_kernel_compiler::ir::Module> {
        let src = "__kernel void k(__global int *a, __global char *b, __global float4 *c) {\n\
                   a[get_global_id(0)] = 1; b[get_global_id(0)] = 2; c[get_global_id(0)] = 3.0f;\n}\n";
        let out = build(
            &[SourceFile {
                name: "k.cl".into(),
                text: src.into(),
            }],
            "",
        )
        .expect("options");
        out.module.expect("compiles")
    }

    /// Counts `evs` on a fresh machine: access by access (`count`), or as compiled code does
    /// (issue slot taken inline, run extended in place or `batch_access`, runs flushed at the
    /// end); returns the counters, last addresses, used burst trackers and their row count.
    fn count_all(
        evs: &[Ev],
        sizes: &[(u64, u64)],
        word: u64,
        batched: bool,
    ) -> (crate::counters::Counters, Vec<u64>, Vec<(u64, u64)>, usize) {
        let m = module();
        let f = &m.kernels[0];
        let code = crate::exec::decode::decode(&m, f).expect("decodes");
        let plan = Plan {
            module: &m,
            func: f,
            code: &code,
            dim: 1,
            gsize: [64, 1, 1],
            lsize: [8, 1, 1],
            ngroups: [8, 1, 1],
            offset: [0; 3],
            cid: [0; 3],
            reg_template: vec![0; 4096],
            frame_template: Vec::new(),
            local_bytes: 0,
            regions: Vec::new(),
            local_args: Vec::new(),
            word_bytes: word,
            max_burst_words: 16,
            coalesce: &[],
            clock: None,
            oob_fault: false,
        };
        let counters = CounterBlock::new(m.sites.len(), f.loops.len());
        let sink = |_: &[u8]| {};
        let ps = PrintfStream::new(&sink);
        let mut w = Worker::new(&plan, &counters, None, None, &ps);
        let mach = &mut w.m;
        assert!(
            mach.issued.len() >= SITES as usize,
            "groups of several items"
        );
        for e in evs {
            match *e {
                Ev::NewItem => mach.issued.fill(0),
                Ev::Access(s, addr) => {
                    let (size, elem) = sizes[s as usize];
                    if !batched {
                        mach.count(s, addr, size, elem);
                        continue;
                    }
                    let k = &mut mach.issued[s as usize];
                    let slot = *k as u64;
                    if *k < ISSUE_SLOTS {
                        *k += 1;
                    }
                    let b = &mut mach.batches[s as usize];
                    if addr == b.next && slot == b.nslot {
                        b.n += 1;
                        b.next = addr.wrapping_add(b.stride);
                        b.nslot = super::next_slot(slot, b.dslot);
                    } else {
                        mach.batch_access(s, addr, slot, size, elem);
                    }
                }
            }
        }
        mach.flush_batches();
        let used = mach.burst_rows * mach.last.len();
        (
            counters.snapshot(),
            mach.last.clone(),
            mach.bursts[..used.min(mach.bursts.len())].to_vec(),
            mach.burst_rows,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn runs_count_like_single_accesses(
            evs in events(),
            sizes in proptest::collection::vec(
                prop_oneof![Just((4u64, 4u64)), Just((1, 1)), Just((16, 4)), Just((12, 4)), Just((64, 8)), Just((8, 8))],
                SITES as usize),
            word in prop_oneof![Just(64u64), Just(32u64), Just(48u64)],
        ) {
            let a = count_all(&evs, &sizes, word, false);
            let b = count_all(&evs, &sizes, word, true);
            prop_assert_eq!(a, b);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn row_sets_count_like_single_accesses(
            evs in rows(),
            sizes in proptest::collection::vec(
                prop_oneof![Just((4u64, 4u64)), Just((1, 1)), Just((16, 4)), Just((12, 4)), Just((64, 8)), Just((8, 8))],
                SITES as usize),
            word in prop_oneof![Just(64u64), Just(32u64), Just(48u64), Just(4u64)],
        ) {
            let a = count_all(&evs, &sizes, word, false);
            let b = count_all(&evs, &sizes, word, true);
            prop_assert_eq!(a, b);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn row_sets_past_the_issue_slots_count_like_single_accesses(
            evs in rows_of(prop_oneof![1022u64..1028, 1200u64..2100], 1u64..6),
            sizes in proptest::collection::vec(
                prop_oneof![Just((4u64, 4u64)), Just((16, 4)), Just((12, 4))],
                SITES as usize),
            word in prop_oneof![Just(64u64), Just(48u64)],
        ) {
            let a = count_all(&evs, &sizes, word, false);
            let b = count_all(&evs, &sizes, word, true);
            prop_assert_eq!(a, b);
        }
    }

    #[test]
    fn a_long_loop_run_saturates_its_issue_slots_like_single_accesses() {
        // 3000 accesses of one site in one item: slots 0..1024 then 1024 for the rest.
        let evs: Vec<Ev> = (0..3000u64).map(|i| Ev::Access(0, 64 + 4 * i)).collect();
        let sizes = [(4, 4), (1, 1), (16, 4)];
        let a = count_all(&evs, &sizes, 64, false);
        let b = count_all(&evs, &sizes, 64, true);
        assert_eq!(a.3, ISSUE_SLOTS as usize + 1);
        assert_eq!(a, b);
    }
}
