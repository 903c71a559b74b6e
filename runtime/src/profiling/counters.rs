//! Per-site profiler counters from the device model's functional counts, where the timing
//! model does not provide them: snapshots of running kernels (live counts so far), autorun
//! captures of instances that run untimed (their kernel has no static analysis), and kernel
//! runs the timing model could not evaluate. Finished kernel runs normally carry the timing
//! model's counters (`fpgacl_device_model::timing::evaluate`, see `probe.rs`), and so do
//! autorun captures of timed instances (rule A2, `timed_capture` in `mod.rs`).
//!
//! The device model counts, per access site, what happened functionally (executions, bytes,
//! sequential and repeated addresses, unaligned accesses, blocking waits); per loop, header
//! visits and entries. This module turns those counts into the profile format's
//! [`SiteCounters`] with these rules (one per field):
//!
//! * `valid` (work-items or iterations that passed the site's predication region): the
//!   iterations of the innermost enclosing loop (`for`/`while`: back-edges taken; `do`: header
//!   visits), or the run's work-items for a site outside loops; never less than `fires`.
//! * `fired_cycles` = `requests` = executions; `bytes_requested` = bytes moved by them.
//! * `predicated_cycles` = valid - fired.
//! * `active_cycles` = the run's duration in device cycles, at least `valid` (so percentages
//!   stay within 100%).
//! * `stall_cycles`: channel and pipe sites: blocking operations that had to wait (one cycle
//!   each at least); memory sites: 0 (memory stalls need the timing model). A cycle in which
//!   the site stalls is one in which it holds a work-item that does not execute, so stall +
//!   fired + predicated cycles never exceed the active cycles (as in the timing model, rule
//!   S4): the stall is capped at `active - valid`.
//! * Global memory sites: a burst starts at every access that does not directly follow the
//!   previous one of the site, and whenever a burst reaches the board's largest burst
//!   (`bursts` = max(executions - sequential, bytes / largest burst)), `burst_bytes` = bytes;
//!   `bytes_fetched` = bursts x the average burst rounded up to whole memory words;
//!   `max_burst_bytes` = that rounded average, capped at the board's largest burst.
//! * Sites whose LSU is `cached`: repeated addresses are cache hits, the other accesses misses.
//! * `unaligned_requests` = accesses not aligned to their width.
//!
//! The `ACL_PROFILE_START_CYCLE`/`STOP_CYCLE` window scales every count of a run by the part of
//! the run inside the window (the device model does not time-stamp individual accesses).

use fpgacl_device_model::{Board, Counters};
use fpgacl_kernel_compiler::analysis::LsuModifier;
use fpgacl_kernel_compiler::ir::{AddrSpace, LoopKind, Module, SiteKind};
use fpgacl_profile_format::SiteCounters;

/// What the counter mapping needs to know about one access site.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SiteMeta {
    /// Module-wide site id.
    pub id: u32,
    /// Kernel index in the module.
    pub kernel: u32,
    /// Enclosing loop (per-kernel loop id) and whether it is a `do` loop.
    pub in_loop: Option<(u32, bool)>,
    /// Global memory access.
    pub global: bool,
    /// Channel or pipe access.
    pub stream: bool,
    /// The LSU has a private cache.
    pub cached: bool,
}

/// Static facts about every site of a module, for counter mapping.
#[derive(Clone, Debug, Default)]
pub struct ModuleSites {
    sites: Vec<SiteMeta>,
    word_bytes: u64,
    max_burst_bytes: u64,
}

impl ModuleSites {
    /// Collects the sites of `module`; `cached` lists the site ids whose LSU is cached.
    pub fn new(module: &Module, board: &Board, cached: &[u32]) -> Self {
        let sites = module
            .sites
            .iter()
            .map(|s| {
                let in_loop = s.in_loop.map(|l| {
                    let is_do = module
                        .kernels
                        .get(s.kernel as usize)
                        .and_then(|k| k.loops.iter().find(|x| x.id == l))
                        .is_some_and(|x| x.kind == LoopKind::DoWhile);
                    (l.0, is_do)
                });
                let stream = matches!(
                    s.kind,
                    SiteKind::ChannelRead
                        | SiteKind::ChannelWrite
                        | SiteKind::PipeRead
                        | SiteKind::PipeWrite
                );
                SiteMeta {
                    id: s.id.0,
                    kernel: s.kernel,
                    in_loop,
                    global: !stream && s.space == AddrSpace::Global,
                    stream,
                    cached: cached.contains(&s.id.0),
                }
            })
            .collect();
        let (word, burst_words) = board
            .global_memory
            .first()
            .map(|g| (g.width_bytes.max(1) as u64, g.max_burst_words.max(1) as u64))
            .unwrap_or((64, 16));
        ModuleSites {
            sites,
            word_bytes: word,
            max_burst_bytes: word * burst_words,
        }
    }

    /// Site ids whose LSU is cached, from the analysis report.
    pub fn cached_sites(report: &fpgacl_kernel_compiler::analysis::Report) -> Vec<u32> {
        report
            .kernels
            .iter()
            .flat_map(|k| k.sites.iter())
            .filter(|s| s.modifiers.contains(&LsuModifier::Cached))
            .map(|s| s.id.0)
            .collect()
    }

    /// The sites of kernel `kernel`.
    pub fn of_kernel(&self, kernel: u32) -> impl Iterator<Item = &SiteMeta> + '_ {
        self.sites.iter().filter(move |s| s.kernel == kernel)
    }

    /// Counters of every site of `kernel` from the raw counts of one run (or one autorun
    /// capture window).
    ///
    /// `work_items`: work-items of the run (autorun captures: completed executions);
    /// `active_cycles`: the run's duration in device cycles; `scale`: the part of the run
    /// inside the counting window (1 = all of it).
    pub fn map(
        &self,
        kernel: u32,
        raw: &Counters,
        work_items: u64,
        active_cycles: u64,
        scale: f64,
    ) -> Vec<SiteCounters> {
        self.of_kernel(kernel)
            .map(|m| {
                let c = raw.sites.get(m.id as usize).copied().unwrap_or_default();
                let valid = match m.in_loop {
                    Some((l, true)) => raw.loop_iterations.get(l as usize).copied().unwrap_or(0),
                    Some((l, false)) => raw.loop_back_edges(l as usize),
                    None => work_items,
                }
                .max(c.fires);
                let active = active_cycles.max(valid);
                let stall = if m.stream { c.blocked } else { 0 };
                let mut s = SiteCounters {
                    site: m.id,
                    fired_cycles: c.fires,
                    stall_cycles: stall.min(active - valid),
                    predicated_cycles: valid - c.fires,
                    active_cycles: active,
                    requests: c.fires,
                    bytes_requested: c.bytes,
                    unaligned_requests: c.unaligned,
                    ..SiteCounters::zero(m.id)
                };
                if m.global && c.fires > 0 {
                    let bursts = c
                        .fires
                        .saturating_sub(c.sequential)
                        .max(c.bytes.div_ceil(self.max_burst_bytes))
                        .max(1);
                    let avg = c.bytes.div_ceil(bursts);
                    let rounded = avg.div_ceil(self.word_bytes).max(1) * self.word_bytes;
                    s.bursts = bursts;
                    s.burst_bytes = c.bytes;
                    s.bytes_fetched = bursts.saturating_mul(rounded);
                    s.max_burst_bytes = rounded.min(self.max_burst_bytes);
                }
                if m.cached {
                    s.cache_hits = c.repeated.min(c.fires);
                    s.cache_misses = c.fires - s.cache_hits;
                }
                if scale < 1.0 {
                    scale_counters(&mut s, scale.max(0.0));
                }
                s
            })
            .collect()
    }
}

/// Multiplies every count of `s` by `f` (0..1), rounding to the nearest whole count.
pub fn scale_counters(s: &mut SiteCounters, f: f64) {
    let sc = |v: &mut u64| *v = (*v as f64 * f).round() as u64;
    sc(&mut s.fired_cycles);
    sc(&mut s.stall_cycles);
    sc(&mut s.predicated_cycles);
    sc(&mut s.active_cycles);
    sc(&mut s.requests);
    sc(&mut s.bytes_requested);
    sc(&mut s.bytes_fetched);
    sc(&mut s.bursts);
    sc(&mut s.burst_bytes);
    sc(&mut s.cache_hits);
    sc(&mut s.cache_misses);
    sc(&mut s.unaligned_requests);
    if s.bursts == 0 {
        s.max_burst_bytes = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fpgacl_device_model::SiteCounts;
    use fpgacl_kernel_compiler::SourceFile;

    fn module(src: &str) -> Module {
        let out = fpgacl_kernel_compiler::build(
            &[SourceFile {
                name: "k.cl".into(),
                text: src.into(),
            }],
            "",
        )
        .expect("options");
        let m = out
            .module
            .unwrap_or_else(|| panic!("build failed:\n{}", out.log));
        (*m).clone()
    }

    /// Issue 17 item 10: a site stalls only in cycles it holds a work-item without executing
    /// it, so Stall% + Occupancy% stays within 100% even when every execution blocked.
    #[test]
    fn stall_never_exceeds_the_cycles_left_by_executions() {
        let m = module(
            "#pragma OPENCL EXTENSION cl_intel_channels : enable\n\
             channel int c;\n\
             __kernel void k(__global int *p) { p[0] = read_channel_intel(c); }\n",
        );
        let ms = ModuleSites::new(&m, &Board::default_board(), &[]);
        let read = m
            .sites
            .iter()
            .find(|s| s.kind == SiteKind::ChannelRead)
            .unwrap();
        let mut raw = Counters {
            sites: vec![SiteCounts::default(); m.sites.len()],
            loop_iterations: vec![],
            loop_entries: vec![],
        };
        // 100 reads, every one blocked, in a run of 150 cycles: 50 stall cycles at most.
        raw.sites[read.id.0 as usize] = SiteCounts {
            fires: 100,
            bytes: 400,
            blocked: 100,
            ..Default::default()
        };
        let sites = ms.map(0, &raw, 100, 150, 1.0);
        let r = sites.iter().find(|s| s.site == read.id.0).unwrap();
        assert_eq!(
            (r.fired_cycles, r.stall_cycles, r.active_cycles),
            (100, 50, 150)
        );
        let sum = r.stall_pct().unwrap() + r.occupancy_pct().unwrap();
        assert!(sum <= 100.0 + 1e-9, "{sum}");
        // A longer run leaves room for every blocked read.
        let sites = ms.map(0, &raw, 100, 1000, 1.0);
        let r = sites.iter().find(|s| s.site == read.id.0).unwrap();
        assert_eq!(r.stall_cycles, 100);
    }

    #[test]
    fn ndrange_sites_and_bursts() {
        let m = module(
            "__kernel void add(__global const float *a, __global float *c) {\n\
             int i = get_global_id(0);\n c[i] = a[i];\n}\n",
        );
        let ms = ModuleSites::new(&m, &Board::default_board(), &[]);
        let load = m.sites.iter().find(|s| s.kind == SiteKind::Load).unwrap();
        let mut raw = Counters {
            sites: vec![SiteCounts::default(); m.sites.len()],
            loop_iterations: vec![],
            loop_entries: vec![],
        };
        // 1024 sequential 4-byte loads in 4 work-groups: 4 bursts of 1 KiB
        raw.sites[load.id.0 as usize] = SiteCounts {
            fires: 1024,
            bytes: 4096,
            sequential: 1020,
            ..Default::default()
        };
        let sites = ms.map(0, &raw, 1024, 2000, 1.0);
        assert_eq!(sites.len(), 2);
        let l = sites.iter().find(|s| s.site == load.id.0).unwrap();
        assert_eq!(l.requests, 1024);
        assert_eq!(l.bytes_requested, 4096);
        assert_eq!(l.bursts, 4);
        assert_eq!(l.bytes_fetched, 4096);
        assert_eq!(l.max_burst_bytes, 1024);
        assert_eq!(l.predicated_cycles, 0);
        assert_eq!(l.active_cycles, 2000);
        assert_eq!(l.occupancy_pct().map(|p| p.round()), Some(51.0));
        // the store never fired: all its work-items were predicated off
        let st = sites.iter().find(|s| s.site != load.id.0).unwrap();
        assert_eq!(st.predicated_cycles, 1024);
        // half the run inside the window: half the counts
        let half = ms.map(0, &raw, 1024, 2000, 0.5);
        let l2 = half.iter().find(|s| s.site == load.id.0).unwrap();
        assert_eq!(l2.requests, 512);
        assert_eq!(l2.active_cycles, 1000);
    }

    #[test]
    fn loop_sites_use_iterations() {
        let m = module(
            "__kernel void t(__global int *a, int n) {\n\
             for (int i = 0; i < n; i++) { if (a[i] > 3) a[i] = 0; }\n}\n",
        );
        let ms = ModuleSites::new(&m, &Board::default_board(), &[]);
        let mut raw = Counters {
            sites: vec![SiteCounts::default(); m.sites.len()],
            loop_iterations: vec![101],
            loop_entries: vec![1],
        };
        for s in &m.sites {
            raw.sites[s.id.0 as usize].fires = if s.kind == SiteKind::Load { 100 } else { 10 };
        }
        let sites = ms.map(0, &raw, 1, 0, 1.0);
        for s in &sites {
            let ir = &m.sites[s.site as usize];
            assert!(ir.in_loop.is_some());
            assert_eq!(s.active_cycles, 100);
            if ir.kind == SiteKind::Store {
                assert_eq!(s.predicated_cycles, 90);
                assert_eq!(s.activity_pct().map(|p| p.round()), Some(10.0));
            } else {
                assert_eq!(s.predicated_cycles, 0);
            }
        }
    }
}
