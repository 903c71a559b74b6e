//! [`CompareTable`]: per-site and per-kernel differences between two profiles ("before" and
//! "after"), matched by kernel, file, line, column and access kind.

use std::collections::HashMap;

use fpgacl_profile_format::{AccessKind, SiteCounters};

use crate::data::ReportData;

/// Metrics of one side of a compared site.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SideMetrics {
    /// Stall%.
    pub stall: Option<f64>,
    /// Occupancy%.
    pub occupancy: Option<f64>,
    /// Bandwidth, MB/s.
    pub bandwidth: Option<f64>,
    /// Bandwidth efficiency%.
    pub efficiency: Option<f64>,
}

impl SideMetrics {
    /// Metrics of counters `c` of a site; bandwidth only for global memory accesses.
    fn of(c: Option<SiteCounters>, fmax: f64, global: bool) -> SideMetrics {
        match c {
            None => SideMetrics::default(),
            Some(c) => SideMetrics {
                stall: c.stall_pct(),
                occupancy: c.occupancy_pct(),
                bandwidth: if global { c.bandwidth_mbps(fmax) } else { None },
                efficiency: if global { c.efficiency_pct() } else { None },
            },
        }
    }
}

/// One access site present in either profile.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareSite {
    /// Kernel name.
    pub kernel: String,
    /// Source file.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// Access kind.
    pub kind: AccessKind,
    /// Metrics in the first file (all `None` when the site is new).
    pub before: SideMetrics,
    /// Metrics in the second file (all `None` when the site is gone).
    pub after: SideMetrics,
    /// Present in the first file.
    pub in_before: bool,
    /// Present in the second file.
    pub in_after: bool,
}

impl CompareSite {
    /// after - before, when both exist.
    pub fn delta(f: impl Fn(&SideMetrics) -> Option<f64>, s: &CompareSite) -> Option<f64> {
        Some(f(&s.after)? - f(&s.before)?)
    }

    /// Stall% change.
    pub fn stall_delta(&self) -> Option<f64> {
        Self::delta(|m| m.stall, self)
    }

    /// Occupancy% change.
    pub fn occupancy_delta(&self) -> Option<f64> {
        Self::delta(|m| m.occupancy, self)
    }

    /// Bandwidth change, MB/s.
    pub fn bandwidth_delta(&self) -> Option<f64> {
        Self::delta(|m| m.bandwidth, self)
    }

    /// Efficiency% change.
    pub fn efficiency_delta(&self) -> Option<f64> {
        Self::delta(|m| m.efficiency, self)
    }
}

/// Kernel run time in both files.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareKernel {
    /// Kernel name.
    pub kernel: String,
    /// Runs and total emulated run time (ns) in the first file.
    pub before: (usize, u64),
    /// Runs and total emulated run time (ns) in the second file.
    pub after: (usize, u64),
}

/// Differences between two profiles.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareTable {
    /// Label of the first file.
    pub before_label: String,
    /// Label of the second file.
    pub after_label: String,
    /// Total emulated time of each file, ns.
    pub total_ns: (u64, u64),
    /// Per-kernel run time, by kernel name.
    pub kernels: Vec<CompareKernel>,
    /// Per-site metrics.
    pub sites: Vec<CompareSite>,
}

type SiteKey = (String, String, u32, u32, AccessKind);

impl CompareTable {
    /// Compares the average counters of `before` and `after`.
    pub fn new(before: &ReportData, after: &ReportData) -> CompareTable {
        let mut sites: Vec<CompareSite> = Vec::new();
        let mut index: HashMap<SiteKey, usize> = HashMap::new();
        for (side, data) in [(0, before), (1, after)] {
            for g in 0..data.sites.len() {
                let s = data.site(g);
                let key = (s.kernel.clone(), s.file.clone(), s.line, s.column, s.kind);
                let i = *index.entry(key).or_insert_with(|| {
                    sites.push(CompareSite {
                        kernel: s.kernel.clone(),
                        file: s.file.clone(),
                        line: s.line,
                        column: s.column,
                        kind: s.kind,
                        before: SideMetrics::default(),
                        after: SideMetrics::default(),
                        in_before: false,
                        in_after: false,
                    });
                    sites.len() - 1
                });
                let global = s.memory == fpgacl_profile_format::MemorySpace::Global;
                let m = SideMetrics::of(data.average[g], data.fmax_mhz(), global);
                if side == 0 {
                    sites[i].before = m;
                    sites[i].in_before = true;
                } else {
                    sites[i].after = m;
                    sites[i].in_after = true;
                }
            }
        }

        let mut kernels: Vec<CompareKernel> = Vec::new();
        let mut kidx: HashMap<String, usize> = HashMap::new();
        for (side, data) in [(0, before), (1, after)] {
            for r in data.runs() {
                let i = *kidx.entry(r.kernel.clone()).or_insert_with(|| {
                    kernels.push(CompareKernel {
                        kernel: r.kernel.clone(),
                        before: (0, 0),
                        after: (0, 0),
                    });
                    kernels.len() - 1
                });
                let slot = if side == 0 {
                    &mut kernels[i].before
                } else {
                    &mut kernels[i].after
                };
                slot.0 += 1;
                slot.1 = slot.1.saturating_add(r.duration_ns());
            }
        }
        let mut t = CompareTable {
            before_label: before.label.clone(),
            after_label: after.label.clone(),
            total_ns: (before.total_ns, after.total_ns),
            kernels,
            sites,
        };
        t.sort(false);
        t
    }

    /// Sorts the sites by location, or by the largest absolute Stall% change first.
    pub fn sort(&mut self, by_change: bool) {
        if by_change {
            self.sites.sort_by(|a, b| {
                let da = a.stall_delta().map_or(-1.0, f64::abs);
                let db = b.stall_delta().map_or(-1.0, f64::abs);
                db.partial_cmp(&da)
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then_with(|| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)))
            });
        } else {
            self.sites.sort_by(|a, b| {
                (&a.file, a.line, a.column, &a.kernel).cmp(&(&b.file, b.line, b.column, &b.kernel))
            });
        }
    }
}

/// One kernel's verdict in a CI gate ([`CompareTable::gate`]).
#[derive(Debug, Clone, PartialEq)]
pub struct GateKernel {
    /// Kernel name, or `(all kernels)` for the sum over every kernel.
    pub kernel: String,
    /// Total run time in the first file, ns (`None`: not in it).
    pub before_ns: Option<u64>,
    /// Total run time in the second file, ns (`None`: not in it).
    pub after_ns: Option<u64>,
    /// Change of the run time in percent of the first file's, when both exist and the first
    /// is not 0.
    pub change_pct: Option<f64>,
    /// Slower by more than the limit.
    pub regression: bool,
}

/// The verdict of `--fail-if-slower`: every checked kernel and the sum over all kernels.
#[derive(Debug, Clone, PartialEq)]
pub struct Gate {
    /// The limit, percent.
    pub limit_pct: f64,
    /// Per-kernel rows, then the `(all kernels)` row when every kernel is checked.
    pub kernels: Vec<GateKernel>,
    /// Kernels named with `--kernel` that are missing from one of the files.
    pub missing: Vec<String>,
}

impl Gate {
    /// No checked kernel got slower by more than the limit and no named kernel is missing.
    pub fn passed(&self) -> bool {
        self.missing.is_empty() && !self.kernels.iter().any(|k| k.regression)
    }
}

/// Name of the row that sums every kernel.
pub const ALL_KERNELS: &str = "(all kernels)";

impl CompareTable {
    /// Checks that no kernel's total emulated run time grew by more than `limit_pct` percent
    /// from the first file to the second. `only` names the kernels to check (each must be in
    /// both files); empty checks every kernel present in both files and the sum over all
    /// kernels. A kernel that ran for 0 ns before regresses when it takes any time after.
    pub fn gate(&self, limit_pct: f64, only: &[String]) -> Gate {
        let row = |name: &str, before: Option<u64>, after: Option<u64>| {
            let change_pct = match (before, after) {
                (Some(b), Some(a)) if b > 0 => Some((a as f64 - b as f64) / b as f64 * 100.0),
                _ => None,
            };
            let regression = match (before, after) {
                (Some(0), Some(a)) => a > 0,
                (Some(_), Some(_)) => change_pct.is_some_and(|c| c > limit_pct),
                _ => false,
            };
            GateKernel {
                kernel: name.to_string(),
                before_ns: before,
                after_ns: after,
                change_pct,
                regression,
            }
        };
        let side = |s: (usize, u64)| (s.0 > 0).then_some(s.1);
        let mut kernels = Vec::new();
        let mut missing = Vec::new();
        if only.is_empty() {
            for k in &self.kernels {
                kernels.push(row(&k.kernel, side(k.before), side(k.after)));
            }
            let both: Vec<&CompareKernel> = self
                .kernels
                .iter()
                .filter(|k| k.before.0 > 0 && k.after.0 > 0)
                .collect();
            if !both.is_empty() {
                let sum = |f: fn(&CompareKernel) -> u64| both.iter().map(|k| f(k)).sum::<u64>();
                kernels.push(row(
                    ALL_KERNELS,
                    Some(sum(|k| k.before.1)),
                    Some(sum(|k| k.after.1)),
                ));
            }
        } else {
            for name in only {
                match self.kernels.iter().find(|k| &k.kernel == name) {
                    Some(k) if k.before.0 > 0 && k.after.0 > 0 => {
                        kernels.push(row(name, Some(k.before.1), Some(k.after.1)));
                    }
                    _ => missing.push(name.clone()),
                }
            }
        }
        Gate {
            limit_pct,
            kernels,
            missing,
        }
    }
}
