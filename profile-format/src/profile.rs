//! [`Profile`]: a whole `profile.mon` read back, with lookups the viewers need.

use serde::{Deserialize, Serialize};

use crate::model::{
    AccessSite, AutorunCapture, Header, HostGap, KernelRun, MemTransfer, OutOfBounds, Program,
    Record, SiteCounters, Snapshot,
};

/// The content of a `profile.mon` file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// The file's header.
    pub header: Header,
    /// Programs, in file order.
    pub programs: Vec<Program>,
    /// Records, in file order (the order they happened).
    pub records: Vec<Record>,
    /// The file ended inside a frame (the writer was interrupted) or a corrupt frame stopped
    /// the reading: `records` holds everything before that point.
    pub truncated: bool,
    /// Human readable warnings met while reading (truncation, corruption, skipped frames).
    pub warnings: Vec<String>,
}

impl Profile {
    /// The program with this id, if any.
    pub fn program(&self, id: u32) -> Option<&Program> {
        self.programs.iter().find(|p| p.id == id)
    }

    /// The static description of a site of a program, if both exist.
    pub fn site(&self, program: u32, site: u32) -> Option<&AccessSite> {
        self.program(program).and_then(|p| p.site(site))
    }

    /// Finished kernel runs, in file order.
    pub fn kernel_runs(&self) -> impl Iterator<Item = &KernelRun> + '_ {
        self.records.iter().filter_map(|r| match r {
            Record::KernelRun(k) => Some(k),
            _ => None,
        })
    }

    /// Memory transfers, in file order.
    pub fn transfers(&self) -> impl Iterator<Item = &MemTransfer> + '_ {
        self.records.iter().filter_map(|r| match r {
            Record::MemTransfer(t) => Some(t),
            _ => None,
        })
    }

    /// Snapshots of running kernels, in file order.
    pub fn snapshots(&self) -> impl Iterator<Item = &Snapshot> + '_ {
        self.records.iter().filter_map(|r| match r {
            Record::Snapshot(s) => Some(s),
            _ => None,
        })
    }

    /// Out-of-bounds access sites of kernel runs, in file order.
    pub fn out_of_bounds(&self) -> impl Iterator<Item = &OutOfBounds> + '_ {
        self.records.iter().filter_map(|r| match r {
            Record::OutOfBounds(o) => Some(o),
            _ => None,
        })
    }

    /// Out-of-bounds sites over all runs: one entry per (program, kernel, position,
    /// direction), the first record's details with the counts summed, and the number of runs
    /// that had it; in order of first appearance.
    pub fn out_of_bounds_sites(&self) -> Vec<(OutOfBounds, u64)> {
        let mut out: Vec<(OutOfBounds, u64)> = Vec::new();
        for o in self.out_of_bounds() {
            let same = |a: &OutOfBounds| {
                a.program == o.program
                    && a.kernel == o.kernel
                    && (a.file.as_str(), a.line, a.column, a.write)
                        == (o.file.as_str(), o.line, o.column, o.write)
            };
            match out.iter_mut().find(|(a, _)| same(a)) {
                Some((a, runs)) => {
                    a.count = a.count.saturating_add(o.count);
                    *runs += 1;
                }
                None => out.push((o.clone(), 1)),
            }
        }
        out
    }

    /// Host gaps (the host's own time before each command it enqueued), in file order.
    pub fn host_gaps(&self) -> impl Iterator<Item = &HostGap> + '_ {
        self.records.iter().filter_map(|r| match r {
            Record::HostGap(g) => Some(g),
            _ => None,
        })
    }

    /// Autorun captures, in file order.
    pub fn autorun_captures(&self) -> impl Iterator<Item = &AutorunCapture> + '_ {
        self.records.iter().filter_map(|r| match r {
            Record::AutorunCapture(c) => Some(c),
            _ => None,
        })
    }

    /// Emulated time span covered by the records: (earliest start, latest end) in ns since
    /// host start; `None` when there are no records.
    pub fn time_span_ns(&self) -> Option<(u64, u64)> {
        let mut span: Option<(u64, u64)> = None;
        for r in &self.records {
            let (s, e) = match r {
                Record::KernelRun(k) => (k.start_ns, k.end_ns.max(k.start_ns)),
                Record::MemTransfer(t) => (t.start_ns, t.end_ns.max(t.start_ns)),
                Record::Snapshot(s) => (s.taken_ns, s.taken_ns),
                Record::AutorunCapture(c) => (c.capture_ns, c.capture_ns),
                // Host gaps are wall-clock host time, never part of the device timeline.
                Record::OutOfBounds(_) | Record::HostGap(_) => continue,
            };
            span = Some(match span {
                None => (s, e),
                Some((a, b)) => (a.min(s), b.max(e)),
            });
        }
        span
    }

    /// The profile's emulated time: from the session's start (device time 0 of the records)
    /// to the latest END, capture or snapshot on the device timeline; 0 without records. The
    /// report header's "Emulated time" and JSON `total_time_ns` are this figure.
    pub fn emulated_time_ns(&self) -> u64 {
        self.time_span_ns().map_or(0, |(_, end)| end)
    }

    /// Counters of every site of `kernel` in `program`, summed over all finished runs of that
    /// kernel (the profiler's overall view), sorted by site id. Sites with no counters in any
    /// run are absent.
    pub fn aggregate_kernel_sites(&self, program: u32, kernel: &str) -> Vec<SiteCounters> {
        let mut acc: Vec<SiteCounters> = Vec::new();
        for run in self
            .kernel_runs()
            .filter(|r| r.program == program && r.kernel == kernel)
        {
            merge_sites(&mut acc, &run.sites);
        }
        acc.sort_by_key(|s| s.site);
        acc
    }

    /// Counters of every site of autorun `kernel` on `device` over the whole session (all
    /// compute units), sorted by site id.
    ///
    /// Captures of one compute unit are cumulative until one is taken with `cleared`: the
    /// total is the sum of the cleared captures plus the last capture if it was not cleared
    /// (earlier uncleared captures are contained in the next one).
    pub fn aggregate_autorun_sites(&self, device: u32, kernel: &str) -> Vec<SiteCounters> {
        let mut caps: Vec<&AutorunCapture> = self
            .autorun_captures()
            .filter(|c| c.device == device && c.kernel == kernel)
            .collect();
        // Stable: captures taken at the same time keep file order.
        caps.sort_by_key(|c| (c.compute_unit, c.capture_ns));
        let mut acc: Vec<SiteCounters> = Vec::new();
        for (i, c) in caps.iter().enumerate() {
            let last_of_unit = match caps.get(i + 1) {
                None => true,
                Some(n) => n.compute_unit != c.compute_unit,
            };
            if c.cleared || last_of_unit {
                merge_sites(&mut acc, &c.sites);
            }
        }
        acc.sort_by_key(|s| s.site);
        acc
    }
}

fn merge_sites(acc: &mut Vec<SiteCounters>, sites: &[SiteCounters]) {
    for s in sites {
        match acc.iter_mut().find(|a| a.site == s.site) {
            Some(a) => a.accumulate(s),
            None => acc.push(*s),
        }
    }
}
