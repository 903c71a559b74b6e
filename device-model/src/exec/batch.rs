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
//! A run ends (is counted) when an access of its site does not continue it, and every run is
//! counted before the compiled code returns to the worker (`jit::run`, `jit::run_items`),
//! before the interpreter's code runs a cold op (which may count accesses), and at the
//! periodic poll. Kernels with channels or pipes and autorun kernels do not batch: their
//! counters may be read while they run.

use super::interp::{burst_step, Machine};
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

#[inline(always)]
fn bump(c: &AtomicU64, v: u64) {
    c.store(c.load(Relaxed).wrapping_add(v), Relaxed);
}

impl Machine<'_> {
    /// An access of `site` at `addr` with issue slot `slot` that does not continue the site's
    /// run (the compiled fast path checks `next`/`nslot`): the second access of a run sets
    /// its steps; otherwise the run is counted and a new one starts here.
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
            b.nslot = slot + b.dslot;
            return;
        }
        if b.n > 0 {
            let r = *b;
            self.count_run(s, &r);
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

    /// Counts every pending run (see the module comment for when this must happen).
    pub fn flush_batches(&mut self) {
        while let Some(site) = self.batch_dirty.pop() {
            let s = site as usize;
            let r = self.batches[s];
            self.batches[s] = Batch::EMPTY;
            if r.n > 0 {
                self.count_run(s, &r);
            }
        }
    }

    /// Counts run `r` of site `s` as `count` would count its accesses one by one, given that
    /// the issue counters already advanced: access `i` has address `a0 + i * stride` and
    /// issue slot `s0 + i * dslot`.
    pub(super) fn count_run(&mut self, s: usize, r: &Batch) {
        let ns = self.last.len();
        let (Some(row), Some(l)) = (self.counters.site_row(s), self.last.get_mut(s)) else {
            return;
        };
        let (n, size, stride) = (r.n, r.size, r.stride);
        if n == 0 {
            return;
        }
        let at = |i: u64| r.a0.wrapping_add(i.wrapping_mul(stride));
        bump(&row[field::FIRES], n);
        bump(&row[field::BYTES], size.wrapping_mul(n));
        // An address of u64::MAX inside the run (not the last) would read as "no previous
        // address" for the next one: counted access by access below.
        let odd = {
            let d = u64::MAX.wrapping_sub(r.a0);
            if stride == 0 {
                r.a0 == u64::MAX && n > 1
            } else {
                d % stride == 0 && d / stride < n - 1
            }
        };
        // Sequential and repeated: the first access against the site's last address, the
        // others against their predecessor (the same test for all of them).
        let prev = *l;
        *l = at(n - 1);
        let mut seq = 0u64;
        let mut rep = 0u64;
        let mut pv = prev;
        let mut step = |a: u64, pv: u64| {
            if pv != u64::MAX {
                if a == pv.wrapping_add(size) {
                    seq += 1;
                } else if a == pv {
                    rep += 1;
                }
            }
        };
        if odd {
            for i in 0..n {
                let a = at(i);
                step(a, pv);
                pv = a;
            }
        } else {
            step(r.a0, prev);
            if n > 1 {
                step(at(1), r.a0);
                let k = n - 2;
                if stride == size {
                    seq += k;
                } else if stride == 0 {
                    rep += k;
                }
            }
        }
        if seq > 0 {
            bump(&row[field::SEQUENTIAL], seq);
        }
        if rep > 0 {
            bump(&row[field::REPEATED], rep);
        }
        let align = if size.is_power_of_two() { size } else { r.elem };
        let am = align.wrapping_sub(1);
        let unaligned = if stride & am == 0 {
            if r.a0 & am != 0 {
                n
            } else {
                0
            }
        } else {
            (0..n).filter(|&i| at(i) & am != 0).count() as u64
        };
        if unaligned > 0 {
            bump(&row[field::UNALIGNED], unaligned);
        }
        if size == 0 {
            return;
        }
        // Rule M6 and the burst trackers, access by access (word arithmetic by shift when
        // the word is a power of two).
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
        let crossing = if ws != u32::MAX && stride & ((1u64 << ws) - 1) == 0 {
            if crosses(r.a0) {
                n
            } else {
                0
            }
        } else {
            (0..n).filter(|&i| crosses(at(i))).count() as u64
        };
        if crossing > 0 {
            bump(&row[field::CROSSING], crossing);
        }
        let max = self.max_burst_words;
        let last_slot = r.s0.wrapping_add((n - 1).wrapping_mul(r.dslot));
        let top = r.s0.max(last_slot) as usize;
        if top >= self.burst_rows {
            self.add_burst_rows(top + 1, ns);
        }
        let mut nwords = 0u64;
        let mut nbursts = 0u64;
        let mut longest = 0u64;
        // One tracker per access (a step of one slot) or one tracker for the whole run.
        let mut track = |b: &mut (u64, u64), w0: u64, w1: u64| {
            let (new, started) = burst_step(b, w0, w1, max);
            nbursts += started as u64;
            nwords += new;
            longest = longest.max(b.1);
        };
        if r.dslot == 0 {
            if let Some(b) = self.bursts.get_mut(r.s0 as usize * ns + s) {
                let mut t = *b;
                for i in 0..n {
                    let (w0, w1) = words(at(i));
                    track(&mut t, w0, w1);
                }
                *b = t;
            }
        } else {
            // One tracker per access, `ns` entries apart: one bounds check for the run, word
            // arithmetic by shift (real boards) without a branch per access.
            let first = r.s0 as usize * ns + s;
            let last = first + (n as usize - 1) * ns;
            match self.bursts.get_mut(first..=last) {
                Some(bs) if ws != u32::MAX => {
                    let mut a = r.a0;
                    for b in bs.iter_mut().step_by(ns.max(1)) {
                        track(b, a >> ws, (a + size - 1) >> ws);
                        a = a.wrapping_add(stride);
                    }
                }
                _ => {
                    for i in 0..n {
                        let slot = r.s0 as usize + i as usize;
                        if let Some(b) = self.bursts.get_mut(slot * ns + s) {
                            let (w0, w1) = words(at(i));
                            track(b, w0, w1);
                        }
                    }
                }
            }
        }
        if nwords > 0 {
            bump(&row[field::WORDS], nwords);
        }
        if nbursts > 0 {
            bump(&row[field::BURSTS], nbursts);
        }
        let m = &row[field::MAX_BURST];
        if m.load(Relaxed) < longest {
            m.store(longest, Relaxed);
        }
    }
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
                        b.nslot = slot + b.dslot;
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
