//! Work-group execution: runs the work-items of one group, switching between them at
//! barriers, and the per-thread worker state reused across groups.

use super::code::Code;
use super::interp::{pos_of, Exit, FifoEnv, Ids, Machine, OobLog, Region, Trap};
use super::printf_stream::PrintfStream;
use crate::counters::CounterBlock;
use crate::fault::{FaultKind, KernelFault, MemRegion, OobSite};
use crate::timing::ClockPlan;
use fpgacl_kernel_compiler::ir::{
    make_ptr, AddrSpace, Function, Module, REGION_LOCAL, REGION_PRIVATE,
};

/// Everything about one launch that all workers share (read-only).
pub struct Plan<'a> {
    pub module: &'a Module,
    pub func: &'a Function,
    pub code: &'a Code,
    pub dim: u32,
    pub gsize: [u64; 3],
    pub lsize: [u64; 3],
    pub ngroups: [u64; 3],
    pub offset: [u64; 3],
    pub cid: [u64; 3],
    /// Register file with argument registers set.
    pub reg_template: Vec<u64>,
    /// Private frame with by-value struct arguments copied in (in u64 words).
    pub frame_template: Vec<u64>,
    /// Local memory bytes per group (variables + local pointer arguments).
    pub local_bytes: usize,
    /// Regions 0..: NULL, PRIVATE (placeholder), LOCAL (placeholder), CONSTANT, args...
    pub regions: Vec<Region>,
    /// Start offsets of local pointer arguments in local memory: (arg index, offset, size).
    pub local_args: Vec<(u32, u64, u64)>,
    /// Board memory interface width in bytes and maximum burst in words (burst counters), both
    /// at least 1.
    pub word_bytes: u64,
    pub max_burst_words: u64,
    /// Per site: the site whose burst tracker it uses and the accesses per wide access (rule
    /// M0', statically coalesced groups; `(site, 1)` otherwise). May be empty (all plain).
    pub coalesce: &'a [(u32, u32)],
    /// Timing hook: the simulated clock's costs; `None` = untimed run.
    pub clock: Option<&'a ClockPlan>,
    /// `OobMode::Fault`: an out-of-bounds access stops the kernel (else it is reported).
    pub oob_fault: bool,
}

// SAFETY: the raw pointers in `regions` point into device memory and constant data that the
// launch keeps alive for as long as any worker runs; concurrent access to device memory has
// device semantics (see `DeviceMemory`).
unsafe impl Sync for Plan<'_> {}
unsafe impl Send for Region {}
unsafe impl Sync for Region {}

impl Plan<'_> {
    pub fn group_items(&self) -> usize {
        (self.lsize[0] * self.lsize[1] * self.lsize[2]) as usize
    }
    pub fn total_groups(&self) -> u64 {
        self.ngroups[0] * self.ngroups[1] * self.ngroups[2]
    }
    fn group_coords(&self, g: u64) -> [u64; 3] {
        let x = g % self.ngroups[0];
        let y = (g / self.ngroups[0]) % self.ngroups[1];
        let z = g / (self.ngroups[0] * self.ngroups[1]);
        [x, y, z]
    }
}

/// Per-thread state reused across groups.
pub struct Worker<'a> {
    pub m: Machine<'a>,
    plan: &'a Plan<'a>,
    /// This worker's clock costs: `plan.clock` or a copy with the worker's own per-loop flags
    /// (parallel workers, see [`Worker::new`]).
    clock: Option<&'a ClockPlan>,
    regs: Vec<u64>,
    frames: Vec<u64>,
    local: Vec<u64>,
    pcs: Vec<u32>,
    state: Vec<u8>,
    frame_words: usize,
    /// Groups with barriers: the local ids of each local linear id (the same in every group;
    /// items switch at every barrier, so they are not derived by division each time).
    lids: Vec<[u64; 3]>,
}

const READY: u8 = 0;
const AT_BARRIER: u8 = 1;
const DONE: u8 = 2;

impl<'a> Worker<'a> {
    /// A worker counting into `counters` (written by this worker alone) whose simulated clock
    /// uses `clock`'s costs (`plan.clock`, or for a parallel worker a clone of it: a
    /// `ClockPlan` holds the per-loop flags of rule C2's floor, which are execution state and
    /// must not be shared by two workers). The clock starts at `clock.start_tick`.
    pub fn new(
        plan: &'a Plan<'a>,
        counters: &'a CounterBlock,
        clock: Option<&'a ClockPlan>,
        fifo: Option<FifoEnv<'a>>,
        printf: &'a PrintfStream<'a>,
    ) -> Self {
        let l = plan.group_items();
        let items = if plan.code.needs_sync { l } else { 1 };
        let ns = plan.reg_template.len();
        let fw = plan.frame_template.len();
        let has_printf = !plan.code.printfs.is_empty();
        Worker {
            m: Machine {
                code: plan.code,
                module: plan.module,
                regions: plan.regions.clone(),
                ids: Ids {
                    gsize: plan.gsize,
                    lsize: plan.lsize,
                    ngroups: plan.ngroups,
                    offset: plan.offset,
                    dim: plan.dim,
                    cid: plan.cid,
                    ..Ids::default()
                },
                counters,
                last: vec![u64::MAX; plan.module.sites.len()],
                bursts: vec![(u64::MAX, 0); plan.module.sites.len()],
                burst_rows: 0,
                issued: if l > 1 {
                    vec![0; plan.module.sites.len() * items]
                } else {
                    Vec::new()
                },
                issued_base: 0,
                batches: vec![super::batch::Batch::EMPTY; plan.module.sites.len()],
                rows: vec![super::batch::Rows::EMPTY; plan.module.sites.len()],
                batch_dirty: Vec::with_capacity(plan.module.sites.len()),
                word_bytes: plan.word_bytes,
                max_burst_words: plan.max_burst_words,
                word_shift: if plan.word_bytes.is_power_of_two() {
                    plan.word_bytes.trailing_zeros()
                } else {
                    u32::MAX
                },
                coalesce: plan.coalesce,
                fifo,
                printf: if has_printf {
                    vec![Vec::new(); l]
                } else {
                    Vec::new()
                },
                printf_ready: Vec::new(),
                printf_stream: Some(printf),
                group: 0,
                item: 0,
                poll: super::interp::POLL_INTERVAL,
                clock: clock.map(|c| c.start_tick).unwrap_or(0),
                clock_plan: clock,
                oob: OobLog {
                    fault: plan.oob_fault,
                    hits: Vec::new(),
                },
            },
            plan,
            clock,
            regs: vec![0; ns * items],
            frames: vec![0; fw * items],
            local: vec![0; plan.local_bytes.div_ceil(8)],
            pcs: vec![0; items],
            state: vec![READY; items],
            frame_words: fw,
            lids: if plan.code.needs_sync {
                let ls = plan.lsize;
                (0..l as u64)
                    .map(|l| [l % ls[0], (l / ls[0]) % ls[1], l / (ls[0] * ls[1])])
                    .collect()
            } else {
                Vec::new()
            },
        }
    }

    fn item_ids(&mut self, lin: usize) {
        let lid = match self.lids.get(lin) {
            Some(&lid) => lid,
            None => {
                let ls = self.plan.lsize;
                let l = lin as u64;
                [l % ls[0], (l / ls[0]) % ls[1], l / (ls[0] * ls[1])]
            }
        };
        self.set_lid(lin, lid);
    }

    #[inline(always)]
    fn set_lid(&mut self, lin: usize, lid: [u64; 3]) {
        let ls = self.plan.lsize;
        let ids = &mut self.m.ids;
        ids.lid = lid;
        for d in 0..3 {
            ids.gid[d] = ids.grp[d] * ls[d] + lid[d] + ids.offset[d];
        }
        self.m.item = lin;
    }

    /// The out-of-bounds sites this worker logged (`OobMode::Report`), named like faults.
    pub fn take_oob(&mut self) -> Vec<OobSite> {
        let plan = self.plan;
        let hits = std::mem::take(&mut self.m.oob.hits);
        hits.into_iter()
            .filter_map(|h| {
                let target = self.target_of(&h.kind, h.site);
                let FaultKind::OutOfBounds {
                    region,
                    offset,
                    size,
                    limit,
                    write,
                } = h.kind
                else {
                    return None;
                };
                Some(OobSite {
                    kernel: plan.func.name.clone(),
                    pos: plan
                        .code
                        .locs
                        .get(h.pc as usize)
                        .map(|l| pos_of(plan.module, *l)),
                    target,
                    region,
                    write,
                    size,
                    limit,
                    offset,
                    work_item: if plan.func.attrs.autorun {
                        h.cid
                    } else {
                        h.gid
                    },
                    count: h.count,
                    op: h.pc,
                })
            })
            .collect()
    }

    fn fault(&self, t: Trap) -> Box<KernelFault> {
        let plan = self.plan;
        let loc = plan.code.locs.get(t.pc as usize).copied();
        let target = self.target_of(&t.kind, t.site);
        let ids = &self.m.ids;
        Box::new(KernelFault {
            kernel: plan.func.name.clone(),
            kind: t.kind,
            pos: loc.map(|l| pos_of(plan.module, l)),
            target,
            work_item: if plan.func.attrs.autorun {
                ids.cid
            } else {
                ids.gid
            },
        })
    }

    /// The name of what a faulting access targeted: the variable or argument at the offset,
    /// else the access site's target.
    fn target_of(&self, kind: &FaultKind, site: u32) -> Option<String> {
        let plan = self.plan;
        let site_target = plan
            .module
            .sites
            .get(site as usize)
            .map(|s| s.target.clone())
            .filter(|s| !s.is_empty());
        let var_at = |space: AddrSpace, off: i64| -> Option<String> {
            plan.func
                .mem_vars
                .iter()
                .find(|v| {
                    v.space == Some(space)
                        && off >= v.offset as i64
                        && off < v.offset as i64 + v.size.max(1) as i64
                })
                .map(|v| v.name.clone())
        };
        let region_target = |r: &MemRegion, off: i64| -> Option<String> {
            match r {
                MemRegion::Private => var_at(AddrSpace::Private, off),
                MemRegion::Arg { index } => {
                    plan.func.args.get(*index as usize).map(|a| a.name.clone())
                }
                MemRegion::Local => plan
                    .local_args
                    .iter()
                    .find(|(_, o, s)| off >= *o as i64 && off < (*o + *s) as i64)
                    .and_then(|(i, _, _)| plan.func.args.get(*i as usize))
                    .map(|a| a.name.clone())
                    .or_else(|| var_at(AddrSpace::Local, off)),
                _ => None,
            }
        };
        match kind {
            FaultKind::OutOfBounds { region, offset, .. }
            | FaultKind::ReadOnly { region, offset }
            | FaultKind::MisalignedAtomic { region, offset, .. } => {
                region_target(region, *offset).or(site_target)
            }
            _ => site_target,
        }
    }

    /// Runs group `g` (linear index) to completion.
    pub fn run_group(&mut self, g: u64) -> Result<(), Box<KernelFault>> {
        let plan = self.plan;
        self.m.group = g;
        self.m.ids.grp = plan.group_coords(g);
        self.m.last.fill(u64::MAX);
        self.m.reset_bursts();
        if !self.local.is_empty() {
            self.local.fill(0);
            self.m.regions[REGION_LOCAL as usize] = Region {
                base: self.local.as_mut_ptr() as *mut u8,
                len: plan.local_bytes as u64,
                writable: true,
            };
        }
        let l = plan.group_items();
        let ns = plan.reg_template.len();
        let fw = self.frame_words;
        let r = if plan.code.needs_sync {
            self.run_sync(l, ns, fw)
        } else {
            self.run_plain(l, ns, fw)
        };
        if r.is_err() {
            // Before the group finishes in the stream: no later group may print as the head.
            if let Some(st) = self.m.printf_stream {
                st.stop_after(g);
            }
        }
        self.flush_printf(g);
        r
    }

    fn set_frame(&mut self, slot: usize) {
        let fw = self.frame_words;
        let base = if fw == 0 {
            std::ptr::null_mut()
        } else {
            self.frames[slot * fw..].as_mut_ptr() as *mut u8
        };
        self.m.regions[REGION_PRIVATE as usize] = Region {
            base,
            len: (self.plan.func.frame_size as u64).min(fw as u64 * 8),
            writable: true,
        };
    }

    fn run_plain(&mut self, l: usize, ns: usize, fw: usize) -> Result<(), Box<KernelFault>> {
        self.set_frame(0);
        // A compiled kernel runs the group's work-item loop in native code (one call).
        if let Some(j) = self.plan.code.jit.get(self.m.issued.is_empty()) {
            self.regs[..ns].copy_from_slice(&self.plan.reg_template);
            let cost = self.clock.map(|cp| cp.item).unwrap_or(0);
            let tmpl = &self.plan.frame_template[..];
            match super::jit::run_items(
                j,
                &mut self.m,
                &mut self.regs[..ns],
                l,
                cost,
                &mut self.frames[..fw],
                tmpl,
            ) {
                Some(Ok(())) => return Ok(()),
                Some(Err(t)) => return Err(self.fault(t)),
                None => {}
            }
        }
        let ls = self.plan.lsize;
        let mut lid = [0u64; 3];
        for lin in 0..l {
            self.set_lid(lin, lid);
            lid[0] += 1;
            if lid[0] == ls[0] {
                lid[0] = 0;
                lid[1] += 1;
                if lid[1] == ls[1] {
                    lid[1] = 0;
                    lid[2] += 1;
                }
            }
            self.regs[..ns].copy_from_slice(&self.plan.reg_template);
            if fw > 0 {
                self.frames[..fw].copy_from_slice(&self.plan.frame_template);
            }
            self.m.issued.fill(0);
            if let Some(cp) = self.clock {
                self.m.clock = self.m.clock.wrapping_add(cp.item);
            }
            let mut pc = 0u32;
            match self.m.run(&mut self.regs[..ns], &mut pc) {
                Ok(Exit::Return) => {}
                Ok(Exit::Barrier) => {
                    // Not reachable: a kernel with barriers runs in run_sync.
                }
                Err(t) => return Err(self.fault(t)),
            }
            if !self.m.printf.is_empty() {
                // The item's unfinished line ends with it (items of a group run in order).
                self.m.end_printf_item(lin);
                self.m.emit_printf();
            }
        }
        Ok(())
    }

    fn run_sync(&mut self, l: usize, ns: usize, fw: usize) -> Result<(), Box<KernelFault>> {
        self.m.issued.fill(0);
        let sites = self.plan.module.sites.len();
        // A compiled kernel runs each item to its next barrier in native code, with one frame
        // for the whole group (`jit::run_in`; `Machine::run` when it cannot).
        let plan = self.plan;
        let mut jit = plan
            .code
            .jit
            .get(self.m.issued.is_empty())
            .and_then(|j| Some((j, super::jit::group_frame(j, &mut self.m)?)));
        for i in 0..l {
            self.regs[i * ns..(i + 1) * ns].copy_from_slice(&self.plan.reg_template);
            if fw > 0 {
                self.frames[i * fw..(i + 1) * fw].copy_from_slice(&self.plan.frame_template);
            }
            self.pcs[i] = 0;
            self.state[i] = READY;
            if let Some(cp) = self.clock {
                self.m.clock = self.m.clock.wrapping_add(cp.item);
            }
        }
        loop {
            for i in 0..l {
                if self.state[i] != READY {
                    continue;
                }
                self.item_ids(i);
                self.set_frame(i);
                // Groups of one work-item: `issued` is empty and `i` is 0.
                self.m.issued_base = i * sites;
                let mut pc = self.pcs[i];
                let regs = &mut self.regs[i * ns..(i + 1) * ns];
                let r = match &mut jit {
                    Some((j, g)) => match super::jit::run_in(j, g, &mut self.m, regs, &mut pc) {
                        Some(r) => r,
                        None => {
                            // Items stopped at a barrier leave their runs pending.
                            self.m.flush_batches();
                            self.m.run(regs, &mut pc)
                        }
                    },
                    None => self.m.run(regs, &mut pc),
                };
                self.pcs[i] = pc;
                match r {
                    Ok(Exit::Return) => self.state[i] = DONE,
                    Ok(Exit::Barrier) => self.state[i] = AT_BARRIER,
                    Err(t) => {
                        self.m.flush_batches();
                        return Err(self.fault(t));
                    }
                }
            }
            // Runs left pending at the barrier by compiled items are counted once per round.
            self.m.flush_batches();
            let done = self.state.iter().filter(|&&s| s == DONE).count();
            if done == l {
                return Ok(());
            }
            // Every item is at a barrier or finished: all must be at the same barrier.
            let first_b = (0..l).find(|&i| self.state[i] == AT_BARRIER).unwrap_or(0);
            let bpc = self.pcs[first_b];
            let diverged = (0..l).find(|&i| self.state[i] == DONE || self.pcs[i] != bpc);
            if let Some(j) = diverged {
                let detail = if self.state[j] == DONE {
                    format!(
                        "work-item {} of the group returned while work-item {} waits at a barrier",
                        j, first_b
                    )
                } else {
                    let other = self.plan.code.locs[self.pcs[j] as usize - 1];
                    format!(
                        "work-items {} and {} wait at different barriers (the other is at line {})",
                        first_b, j, other.line
                    )
                };
                self.item_ids(first_b);
                return Err(self.fault(Trap {
                    pc: bpc - 1,
                    kind: FaultKind::BarrierDivergence { detail },
                    site: u32::MAX,
                }));
            }
            for s in self.state.iter_mut() {
                *s = READY;
            }
        }
    }

    /// End of group `g`: the unfinished lines of its items in item order, then the group is
    /// finished in the launch's ordered stream.
    fn flush_printf(&mut self, g: u64) {
        if self.m.printf.is_empty() {
            return;
        }
        for lin in 0..self.m.printf.len() {
            self.m.end_printf_item(lin);
        }
        self.m.emit_printf();
        if let Some(st) = self.m.printf_stream {
            st.finish(g);
        }
    }
}

/// The work-groups of a parallel launch, handed out in group order in guided chunks: a worker
/// takes `remaining / (4 x workers)` groups at a time (at most [`GroupQueue::MAX_CHUNK`], at
/// least 1), so the first claims are large (few atomic operations) and the last are single
/// groups (no worker is left running a long chunk while the others are idle). Which worker
/// runs which group does not change any result: counters, clocks and printf output are merged
/// or ordered by group.
pub struct GroupQueue {
    next: std::sync::atomic::AtomicU64,
    total: u64,
    divisor: u64,
}

impl GroupQueue {
    /// The most groups one claim takes.
    pub const MAX_CHUNK: u64 = 64;

    /// A queue of groups `0..total` for `workers` workers.
    pub fn new(total: u64, workers: usize) -> GroupQueue {
        GroupQueue {
            next: std::sync::atomic::AtomicU64::new(0),
            total,
            divisor: (workers as u64).max(1).saturating_mul(4),
        }
    }

    /// The next chunk of groups, `None` once every group was handed out.
    pub fn claim(&self) -> Option<std::ops::Range<u64>> {
        use std::sync::atomic::Ordering::Relaxed;
        let mut cur = self.next.load(Relaxed);
        loop {
            if cur >= self.total {
                return None;
            }
            let n = ((self.total - cur) / self.divisor).clamp(1, Self::MAX_CHUNK);
            match self
                .next
                .compare_exchange_weak(cur, cur + n, Relaxed, Relaxed)
            {
                Ok(_) => return Some(cur..cur + n),
                Err(v) => cur = v,
            }
        }
    }
}

/// A pointer register value for local argument `off`.
pub fn local_ptr(off: u64) -> u64 {
    make_ptr(REGION_LOCAL, off)
}

#[cfg(test)]
mod tests {
    use super::GroupQueue;

    /// Every group exactly once and in order, chunks never growing, the last ones single
    /// groups; also when several threads claim at once.
    #[test]
    fn guided_chunks_cover_every_group_once() {
        for (total, workers) in [
            (0u64, 2usize),
            (1, 2),
            (7, 2),
            (64, 2),
            (1000, 3),
            (100_000, 4),
        ] {
            let q = GroupQueue::new(total, workers);
            let mut chunks = Vec::new();
            while let Some(r) = q.claim() {
                chunks.push(r);
            }
            assert!(q.claim().is_none());
            let mut at = 0;
            for c in &chunks {
                assert_eq!(c.start, at, "{total}/{workers}: gap or overlap");
                assert!(!c.is_empty() && c.end - c.start <= GroupQueue::MAX_CHUNK);
                at = c.end;
            }
            assert_eq!(at, total);
            let sizes: Vec<u64> = chunks.iter().map(|c| c.end - c.start).collect();
            assert!(sizes.windows(2).all(|w| w[1] <= w[0]), "{sizes:?}");
            // The tail: the last 4 x workers claims take one group each.
            let tail = (4 * workers).min(sizes.len());
            assert!(
                sizes[sizes.len() - tail..].iter().all(|&n| n == 1),
                "{sizes:?}"
            );
        }
        let q = GroupQueue::new(50_000, 4);
        let seen: Vec<std::sync::atomic::AtomicU8> =
            (0..50_000).map(|_| Default::default()).collect();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    while let Some(r) = q.claim() {
                        for g in r {
                            seen[g as usize].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert!(seen
            .iter()
            .all(|c| c.load(std::sync::atomic::Ordering::Relaxed) == 1));
    }
}
