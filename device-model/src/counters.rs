//! Functional counters per access site and per loop, collected while kernels execute: the
//! input of the timing model (issue 5) and of the profiler.
//!
//! Storage is a flat array of `AtomicU64` written by ONE thread (load + store, relaxed: as cheap
//! as plain memory on x86 and ARM) so that another thread may read a live snapshot (autorun
//! kernels). Parallel NDRange runs give each worker thread its own block and sum them at the
//! end; every counter is a sum over work-groups, so the totals do not depend on which thread
//! ran which group.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Bytes of the cache-line unit a [`CounterBlock`] owns whole: two 64-byte lines, since x86's
/// adjacent-line prefetcher fetches them in pairs (a write to either invalidates both in the
/// other core's cache).
pub const LINE_BYTES: usize = 128;

/// One [`LINE_BYTES`] unit of counters.
#[repr(C, align(128))]
struct Line([AtomicU64; LINE_BYTES / 8]);

/// A block's counters stored in whole lines of their own, so that the blocks of two parallel
/// workers never share a cache line (false sharing: each counter bump of one worker would
/// evict the line from the other's cache). Derefs to the `len` counters.
struct Lines {
    lines: Box<[Line]>,
    len: usize,
}

impl Lines {
    fn zeroed(len: usize) -> Lines {
        let n = len.div_ceil(LINE_BYTES / 8);
        Lines {
            lines: (0..n)
                .map(|_| Line(std::array::from_fn(|_| AtomicU64::new(0))))
                .collect(),
            len,
        }
    }
}

impl std::ops::Deref for Lines {
    type Target = [AtomicU64];
    fn deref(&self) -> &[AtomicU64] {
        // SAFETY: `lines` holds at least `len` consecutive `AtomicU64`s (`Line` is
        // `repr(C)` over an array of them, without padding); an empty box is a dangling,
        // aligned pointer, valid for a slice of length 0.
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr().cast::<AtomicU64>(), self.len) }
    }
}

/// Counter fields per access site.
pub mod field {
    /// Executions of the site (accesses issued; fifo operations that completed).
    pub const FIRES: usize = 0;
    /// Bytes moved by those executions.
    pub const BYTES: usize = 1;
    /// Accesses whose address directly follows the previous access of the same site in the
    /// same work-group (in work-item order): the raw material of burst coalescing.
    pub const SEQUENTIAL: usize = 2;
    /// Accesses whose address is not a multiple of the access width.
    pub const UNALIGNED: usize = 3;
    /// Blocking channel/pipe operations that had to wait (FIFO empty/full).
    pub const BLOCKED: usize = 4;
    /// Non-blocking channel/pipe operations that returned "not valid".
    pub const FAILED: usize = 5;
    /// Accesses whose address equals the previous access of the same site in the work-group
    /// (same word: a cache or a coalescer would serve it).
    pub const REPEATED: usize = 6;
    /// Ticks (1/65536 cycle, `timing::TICKS_PER_CYCLE`) a blocking channel/pipe operation
    /// waited in simulated time (timing hook).
    pub const STALL: usize = 7;
    /// Memory words (of the board's interface width) newly touched by the site's accesses,
    /// following the accesses of the site within a work-group in the pipeline's issue order:
    /// the k-th execution of the site by a work-item follows the k-th execution by the
    /// previous work-items (NDRange groups of several work-items; execution order beyond
    /// `exec::interp::ISSUE_SLOTS` executions and for groups of one work-item).
    pub const WORDS: usize = 8;
    /// Bursts started: an access that does not continue the previous one (same or next
    /// word), or that would make the burst longer than the board's maximum burst.
    pub const BURSTS: usize = 9;
    /// Longest burst in words (merged by maximum, not by sum).
    pub const MAX_BURST: usize = 10;
    /// Accesses that touch more memory words than their width needs (`ceil(bytes / word)`):
    /// a wide access that is not aligned to the memory word and crosses into the next word
    /// (rule M6: one extra LSU cycle each).
    pub const CROSSING: usize = 11;
    /// Number of fields per site.
    pub const COUNT: usize = 12;
}

/// One writer's counters: `sites * field::COUNT` site fields, then per loop its header visits,
/// then per loop its entries from outside.
pub struct CounterBlock {
    data: Lines,
    nsites: usize,
    nloops: usize,
}

impl CounterBlock {
    /// A zeroed block for `nsites` sites and `nloops` loops.
    pub fn new(nsites: usize, nloops: usize) -> Self {
        let n = nsites * field::COUNT + 2 * nloops;
        CounterBlock {
            data: Lines::zeroed(n),
            nsites,
            nloops,
        }
    }

    /// The addresses of the cache lines this block owns (whole [`LINE_BYTES`] units, nothing
    /// else in them): what a parallel worker writes when it counts.
    pub fn line_span(&self) -> std::ops::Range<usize> {
        let start = self.data.lines.as_ptr() as usize;
        start..start + self.data.lines.len() * LINE_BYTES
    }

    /// Adds `v` to a site field. Single writer per block.
    #[inline(always)]
    pub fn add_site(&self, site: usize, f: usize, v: u64) {
        if let Some(c) = self.data.get(site * field::COUNT + f) {
            c.store(c.load(Relaxed).wrapping_add(v), Relaxed);
        }
    }

    /// The fields of one site (`None` for a site out of range): one bounds check for all
    /// the counts of an access.
    #[inline(always)]
    pub fn site_row(&self, site: usize) -> Option<&[AtomicU64; field::COUNT]> {
        let start = site.checked_mul(field::COUNT)?;
        self.data
            .get(start..start.checked_add(field::COUNT)?)?
            .try_into()
            .ok()
    }

    /// The site rows (`field::COUNT` counters per site, row-major) and the site count, for
    /// compiled kernels that count accesses in place (`exec::jit`, single writer).
    pub(crate) fn site_rows(&self) -> (*const AtomicU64, usize) {
        (self.data.as_ptr(), self.nsites)
    }

    /// The loop counters (header visits by loop, then entries by loop) and the loop count,
    /// for compiled kernels that bump them in place (`exec::jit`, single writer).
    pub(crate) fn loop_slots(&self) -> (&[AtomicU64], usize) {
        (&self.data[self.nsites * field::COUNT..], self.nloops)
    }

    /// Counts one visit of the header of loop `l`.
    #[inline(always)]
    pub fn add_loop(&self, l: usize) {
        if let Some(c) = self.data.get(self.nsites * field::COUNT + l) {
            c.store(c.load(Relaxed).wrapping_add(1), Relaxed);
        }
    }

    /// Counts one entry into loop `l` from outside it.
    #[inline(always)]
    pub fn add_loop_entry(&self, l: usize) {
        if l < self.nloops {
            if let Some(c) = self.data.get(self.nsites * field::COUNT + self.nloops + l) {
                c.store(c.load(Relaxed).wrapping_add(1), Relaxed);
            }
        }
    }

    /// Raises a site field to at least `v` (single writer).
    #[inline(always)]
    pub fn max_site(&self, site: usize, f: usize, v: u64) {
        if let Some(c) = self.data.get(site * field::COUNT + f) {
            if c.load(Relaxed) < v {
                c.store(v, Relaxed);
            }
        }
    }

    /// Adds all counts of `other` (same shape) into `self` (`MAX_BURST` by maximum).
    pub fn merge_from(&self, other: &CounterBlock) {
        let split = self.nsites * field::COUNT;
        for (i, (a, b)) in self.data.iter().zip(other.data.iter()).enumerate() {
            let (x, y) = (a.load(Relaxed), b.load(Relaxed));
            let v = if i < split && i % field::COUNT == field::MAX_BURST {
                x.max(y)
            } else {
                x.wrapping_add(y)
            };
            a.store(v, Relaxed);
        }
    }

    /// Zeroes every counter (autorun "clear after readback").
    pub fn clear(&self) {
        for a in self.data.iter() {
            a.store(0, Relaxed);
        }
    }

    /// A copy of the current values.
    pub fn snapshot(&self) -> Counters {
        let v: Vec<u64> = self.data.iter().map(|a| a.load(Relaxed)).collect();
        let split = self.nsites * field::COUNT;
        let sites = v[..split]
            .chunks(field::COUNT)
            .map(|c| SiteCounts {
                fires: c[field::FIRES],
                bytes: c[field::BYTES],
                sequential: c[field::SEQUENTIAL],
                unaligned: c[field::UNALIGNED],
                blocked: c[field::BLOCKED],
                failed: c[field::FAILED],
                repeated: c[field::REPEATED],
                stall: c[field::STALL],
                words: c[field::WORDS],
                bursts: c[field::BURSTS],
                max_burst: c[field::MAX_BURST],
                crossing: c[field::CROSSING],
            })
            .collect();
        Counters {
            sites,
            loop_iterations: v[split..split + self.nloops].to_vec(),
            loop_entries: v[split + self.nloops..].to_vec(),
        }
    }
}

/// Counts of one access site (index = `SiteId`). See [`field`] for the meaning of each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SiteCounts {
    pub fires: u64,
    pub bytes: u64,
    pub sequential: u64,
    pub unaligned: u64,
    pub blocked: u64,
    pub failed: u64,
    pub repeated: u64,
    /// Simulated-time wait of channel/pipe operations, in ticks (see [`field::STALL`]).
    pub stall: u64,
    /// Memory words newly touched (see [`field::WORDS`]).
    pub words: u64,
    /// Bursts started (see [`field::BURSTS`]).
    pub bursts: u64,
    /// Longest burst in words.
    pub max_burst: u64,
    /// Accesses that cross a memory word boundary they need not cross (see
    /// [`field::CROSSING`]).
    pub crossing: u64,
}

/// A snapshot of counters: per site of the module (indexed by `SiteId`) and per loop of the
/// kernel (indexed by `LoopId`).
///
/// `loop_iterations[l]` counts visits of the loop's header block (each test of a `for`/`while`
/// condition, each start of a `do` body); `loop_entries[l]` counts entries into the loop from
/// outside. Back-edges taken = visits - entries: a `for (i = 0; i < n; i++)` loop entered once
/// has n + 1 visits, 1 entry, n back-edges = n iterations of its body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub sites: Vec<SiteCounts>,
    pub loop_iterations: Vec<u64>,
    pub loop_entries: Vec<u64>,
}

impl Counters {
    /// Back-edges taken in loop `l` (body iterations of a `for`/`while` loop).
    pub fn loop_back_edges(&self, l: usize) -> u64 {
        let v = self.loop_iterations.get(l).copied().unwrap_or(0);
        v.saturating_sub(self.loop_entries.get(l).copied().unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_merge_snapshot() {
        let a = CounterBlock::new(2, 1);
        let b = CounterBlock::new(2, 1);
        a.add_site(1, field::FIRES, 3);
        b.add_site(1, field::FIRES, 4);
        b.add_site(0, field::BYTES, 8);
        b.add_loop(0);
        b.add_loop(0);
        b.add_loop_entry(0);
        a.merge_from(&b);
        let s = a.snapshot();
        assert_eq!(s.sites[1].fires, 7);
        assert_eq!(s.sites[0].bytes, 8);
        assert_eq!(s.loop_iterations, vec![2]);
        assert_eq!(s.loop_entries, vec![1]);
        assert_eq!(s.loop_back_edges(0), 1);
        a.add_site(9, field::FIRES, 1); // out of range: ignored
        a.clear();
        assert_eq!(a.snapshot().sites[1].fires, 0);
    }

    /// Parallel workers count into blocks of their own; no two blocks may share a cache line
    /// (pair): each block starts on a line boundary and owns its last line whole. Shapes whose
    /// counter count is not a multiple of a line.
    #[test]
    fn blocks_own_whole_cache_lines() {
        let shapes = [(0, 0), (1, 0), (3, 2), (17, 5), (40, 9)];
        let blocks: Vec<CounterBlock> = shapes
            .iter()
            .flat_map(|&(s, l)| [CounterBlock::new(s, l), CounterBlock::new(s, l)])
            .collect();
        for (b, &(s, l)) in blocks.iter().zip(shapes.iter().flat_map(|x| [x, x])) {
            let span = b.line_span();
            let n = s * field::COUNT + 2 * l;
            assert_eq!(
                span.start % LINE_BYTES,
                0,
                "shape {s}/{l}: block not line-aligned"
            );
            assert_eq!(
                span.len() % LINE_BYTES,
                0,
                "shape {s}/{l}: partial last line"
            );
            assert!(span.len() >= n * 8, "shape {s}/{l}: {} bytes", span.len());
            let first = b.data.as_ptr() as usize;
            assert!(n == 0 || (span.contains(&first) && span.contains(&(first + n * 8 - 1))));
            // Every counter is reachable and starts at zero.
            b.add_site(s.saturating_sub(1), field::CROSSING, 3);
            assert_eq!(b.snapshot().sites.len(), s);
            assert_eq!(b.snapshot().loop_entries.len(), l);
        }
        for (i, a) in blocks.iter().enumerate() {
            for b in &blocks[i + 1..] {
                let (x, y) = (a.line_span(), b.line_span());
                assert!(
                    x.is_empty() || y.is_empty() || x.end <= y.start || y.end <= x.start,
                    "blocks share a line: {x:?} {y:?}"
                );
            }
        }
    }
}
