//! A short diagnosis of one access site, following the Best Practices Guide's profiler
//! scenarios: high stall (stall source or victim), low occupancy, predicated accesses, low
//! bandwidth efficiency and low bandwidth use. The metrics come from the model crate; this
//! module only classifies them and words the advice.

use fpgacl_profile_format::{metrics::bandwidth_share_pct, AccessKind, MemorySpace, SiteCounters};

use crate::data::ReportData;
use crate::theme::HIGH_STALL_PCT;

/// Stall% + Occupancy% at or above this counts as "approximately 100%" (stall source).
pub const SOURCE_SUM_PCT: f64 = 85.0;
/// Occupancy% below this is "low occupancy".
pub const LOW_OCCUPANCY_PCT: f64 = 50.0;
/// A stall source whose Occupancy% is below this executes in few cycles: its executions wait
/// for most of the run rather than receiving work every cycle.
pub const WAITING_OCCUPANCY_PCT: f64 = 5.0;
/// Bandwidth efficiency below this is "low efficiency".
pub const LOW_EFFICIENCY_PCT: f64 = 50.0;
/// Unaligned% above this is worth a warning.
pub const HIGH_UNALIGNED_PCT: f64 = 20.0;
/// Share of the board bandwidth below which a stall-free, busy global access is "low
/// bandwidth".
pub const LOW_BANDWIDTH_SHARE_PCT: f64 = 25.0;

/// One finding with the suggested remedies.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// One sentence: what the numbers say.
    pub headline: String,
    /// What to try, in order.
    pub remedies: Vec<&'static str>,
}

/// Which scenario a finding belongs to (for tests and colouring).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scenario {
    /// High stall, stall% + occupancy% close to 100%: this access limits the pipeline.
    StallSource,
    /// High stall with low occupancy: stalls while little work arrives.
    StallLowOccupancy,
    /// A channel/pipe read that stalls most of its cycles: the channel is empty, it waits for
    /// its writer (starved, not slow).
    Starved,
    /// A channel/pipe write that stalls most of its cycles: the channel is full, it waits for
    /// its reader (back-pressure).
    BackPressure,
    /// Low stall and low occupancy while another access of the kernel stalls.
    Victim,
    /// Low occupancy without stalls (loop structure, small work-groups).
    LowOccupancy,
    /// Activity well below occupancy: the access is mostly predicated off.
    Predicated,
    /// Fetched bytes mostly unused.
    LowEfficiency,
    /// Many unaligned requests.
    Unaligned,
    /// Busy, stall-free global access using little of the board's bandwidth.
    LowBandwidth,
    /// Nothing to improve at this site.
    Healthy,
    /// No counters for this site in this view.
    NoData,
}

/// The diagnosis of one site: scenarios found, in order of importance.
pub fn diagnose(
    data: &ReportData,
    site: usize,
    counters: &[Option<SiteCounters>],
) -> Vec<(Scenario, Finding)> {
    let mut out = Vec::new();
    let Some(c) = counters.get(site).copied().flatten() else {
        let kernel = &data.site(site).kernel;
        let autorun = data.captures.iter().any(|c| &c.kernel == kernel);
        out.push((
            Scenario::NoData,
            Finding {
                headline: if autorun {
                    "No counters in this view: an autorun kernel's counters are shown on \
                     their own (Autorun Captures tab, `t` for all captures), never averaged \
                     with enqueued runs."
                        .into()
                } else {
                    "No counters for this access in this view (kernel not run, or \
                     recorded without counters)."
                        .into()
                },
                remedies: vec![],
            },
        ));
        return out;
    };
    let s = data.site(site);
    let stall = c.stall_pct().unwrap_or(0.0);
    let occ = c.occupancy_pct().unwrap_or(0.0);
    let act = c.activity_pct().unwrap_or(0.0);
    let stream = matches!(s.memory, MemorySpace::Channel | MemorySpace::Pipe);

    if stall >= HIGH_STALL_PCT {
        let source = stall + occ >= SOURCE_SUM_PCT;
        // Stall% + Occupancy% near 100% means the access holds a work-item nearly all the time.
        // With a high occupancy it executes often and cannot keep up; with a low one, its few
        // executions waited for most of the run (a stall is a cycle the access holds a
        // work-item it cannot execute, so it cannot mean "work every cycle" here).
        let waiting = source && occ < WAITING_OCCUPANCY_PCT;
        let (scenario, mut headline) = if stream && s.kind.is_read() {
            // A stalled channel read waits for data: its writer is the slower side (or runs
            // at other times), whatever the stall + occupancy sum says.
            (
                Scenario::Starved,
                format!(
                    "Starved: this {} stalls {stall:.0}% of its cycles waiting for data (the \
                     channel is empty); it could take more than it gets.",
                    s.kind.as_str()
                ),
            )
        } else if stream && !waiting {
            (
                Scenario::BackPressure,
                format!(
                    "Back-pressure: this {} stalls {stall:.0}% of its cycles waiting for room \
                     (the channel is full); its reader takes data more slowly than it comes.",
                    s.kind.as_str()
                ),
            )
        } else if source && !waiting {
            (
                Scenario::StallSource,
                format!(
                    "Stall source: Stall {stall:.0}% + Occupancy {occ:.0}% is close to 100%, \
                     so work reaches this {} every cycle and it cannot keep up.",
                    s.kind.as_str()
                ),
            )
        } else if source {
            (
                if stream {
                    Scenario::BackPressure
                } else {
                    Scenario::StallSource
                },
                format!(
                    "{}: this {} holds a waiting work-item {stall:.0}% of the time \
                     (Stall {stall:.0}% + Occupancy {occ:.0}% is close to 100%) but executes \
                     in few cycles: its {} waited, for most of the run, for the other side{}.",
                    if stream {
                        "Back-pressure"
                    } else {
                        "Stall source"
                    },
                    s.kind.as_str(),
                    if c.requests == 1 {
                        "one execution".to_string()
                    } else {
                        format!("{} executions", c.requests)
                    },
                    if stream {
                        " of the channel (its kernel starts later or runs slower)"
                    } else {
                        " (memory)"
                    }
                ),
            )
        } else {
            (
                Scenario::StallLowOccupancy,
                format!(
                    "High stall ({stall:.0}%) with low occupancy ({occ:.0}%): the access \
                     stalls although little work reaches it."
                ),
            )
        };
        let remedies = if stream {
            let peers = data.channel_peers(site);
            let other = if s.kind.is_read() { "writer" } else { "reader" };
            let mut slow_peer = None;
            for p in peers {
                if let Some(pc) = counters.get(p).copied().flatten() {
                    let po = pc.occupancy_pct().unwrap_or(0.0);
                    let pa = pc.activity_pct().unwrap_or(0.0);
                    let loc = data.site(p);
                    slow_peer = Some(format!(
                        " The {other} ({} line {}) has occupancy {po:.0}% and activity \
                         {pa:.0}%{}.",
                        loc.kernel,
                        loc.line,
                        match (po < LOW_OCCUPANCY_PCT, s.kind.is_read()) {
                            (true, _) if waiting => ": it is the late or slow side",
                            (true, _) => ": it is the slow side",
                            (false, true) => {
                                " while it runs: it supplies data only part of the time this \
                                 side runs (e.g. an autorun reader between enqueued writer \
                                 runs), or more slowly than this side could take it"
                            }
                            (false, false) => {
                                " while it runs: it takes data only part of the time this side \
                                 runs, or more slowly than this side could give it"
                            }
                        }
                    ));
                    break;
                }
            }
            match slow_peer {
                Some(p) => headline.push_str(&p),
                // The waiting headline already names the other side.
                None if waiting => {}
                None => headline.push_str(&format!(
                    " The {other} side is slower, or its kernel does not run at the same time."
                )),
            }
            vec![
                "Fix the other side of the channel: a stalled write means the reader is too \
                 slow; a stalled read means the writer does not supply data fast enough.",
                "Launch the reading and writing kernels concurrently (separate queues).",
                "If the design has channel loops, give the channel a depth.",
            ]
        } else if s.memory == MemorySpace::Local {
            vec![
                "Check the local memory configuration in the area report (banks, ports) and \
                 change it so the accesses are stall-free.",
            ]
        } else {
            vec![
                "Cache reused data in local memory.",
                "Read the data fewer times.",
                "Make the addresses sequential instead of strided.",
                "Use fewer but wider accesses (vector types).",
                "Put read and write buffers in different memory banks.",
                "Use a board with more memory bandwidth.",
            ]
        };
        out.push((scenario, Finding { headline, remedies }));
    } else if occ < LOW_OCCUPANCY_PCT {
        // Victim of a stall elsewhere in the same kernel?
        let kernel = data.sites[site].kernel;
        let mut worst: Option<(usize, f64)> = None;
        for (o, oc) in counters.iter().enumerate() {
            if o == site || data.sites[o].kernel != kernel || kernel.is_none() {
                continue;
            }
            if let Some(st) = oc.and_then(|c| c.stall_pct()) {
                if st >= HIGH_STALL_PCT && worst.is_none_or(|(_, w)| st > w) {
                    worst = Some((o, st));
                }
            }
        }
        if let Some((o, st)) = worst {
            let w = data.site(o);
            out.push((
                Scenario::Victim,
                Finding {
                    headline: format!(
                        "Victim: low stall ({stall:.0}%) and low occupancy ({occ:.0}%) while \
                         the {} at line {} stalls {st:.0}%; fix that access first.",
                        w.kind.as_str(),
                        w.line
                    ),
                    remedies: vec!["Follow the advice for the stalling access."],
                },
            ));
        } else {
            let mut headline = format!(
                "Low occupancy ({occ:.0}%) without stalls: work reaches this access in few \
                 cycles."
            );
            let mut remedies = Vec::new();
            if let Some(l) = data.enclosing_loop(site) {
                if l.ii > 1 && l.ii_reason.contains("memory dependency") {
                    // The guide's remedies for a loop-carried memory dependency, then the
                    // feed-forward split (CF'23 paper).
                    remedies.extend([
                        "If the buffers never overlap, declare the pointers restrict (or put \
                         #pragma ivdep on the loop) so the compiler can pipeline it.",
                        "Move the loads into a memory kernel that feeds this one through \
                         channels (feed-forward design): it has no stores to depend on.",
                    ]);
                }
                if l.ii > 1 {
                    headline.push_str(&format!(
                        " Its loop (line {}) has II {}{}.",
                        l.line,
                        l.ii,
                        if l.ii_reason.is_empty() {
                            String::new()
                        } else {
                            format!(": {}", l.ii_reason)
                        }
                    ));
                }
            }
            remedies.extend([
                "If the access sits in a rarely run loop, balance the loops: unroll the loops \
                 evenly rather than only one.",
                "Vectorize so that one iteration does the work of several work-items.",
                "For NDRange kernels, use larger work-groups so the pipeline stays full.",
                "Lower the loop II (remove loop-carried dependencies).",
            ]);
            out.push((Scenario::LowOccupancy, Finding { headline, remedies }));
        }
    }

    if occ > 0.0 && act < occ * 0.5 {
        out.push((
            Scenario::Predicated,
            Finding {
                headline: format!(
                    "Predicated: Activity {act:.0}% is far below Occupancy {occ:.0}%, so the \
                     access is usually switched off by its condition; its occupancy is not \
                     useful work."
                ),
                remedies: vec![
                    "If the condition is rare, move the access out of the hot path or into \
                     another kernel.",
                ],
            },
        ));
    }

    if s.memory == MemorySpace::Global && !matches!(s.kind, AccessKind::Atomic) {
        if let Some(eff) = c.efficiency_pct() {
            if eff < LOW_EFFICIENCY_PCT {
                out.push((
                    Scenario::LowEfficiency,
                    Finding {
                        headline: format!(
                            "Low bandwidth efficiency: the kernel uses {eff:.0}% of the bytes \
                             fetched from global memory."
                        ),
                        remedies: vec![
                            "Rewrite the accesses so that neighbouring iterations or \
                             work-items read consecutive addresses.",
                        ],
                    },
                ));
            }
        }
        if let Some(u) = c.unaligned_pct() {
            if u > HIGH_UNALIGNED_PCT {
                out.push((
                    Scenario::Unaligned,
                    Finding {
                        headline: format!("{u:.0}% of the requests are unaligned."),
                        remedies: vec!["Align buffers and index patterns to the access width."],
                    },
                ));
            }
        }
        if stall < HIGH_STALL_PCT && occ >= LOW_OCCUPANCY_PCT {
            if let Some(share) = c
                .bandwidth_mbps(data.fmax_mhz())
                .and_then(|bw| bandwidth_share_pct(bw, data.board_bandwidth()))
            {
                if share < LOW_BANDWIDTH_SHARE_PCT {
                    out.push((
                        Scenario::LowBandwidth,
                        Finding {
                            headline: format!(
                                "No stalls and good occupancy, but this access uses only \
                                 {share:.0}% of the board's {:.0} MB/s.",
                                data.board_bandwidth()
                            ),
                            remedies: vec![
                                "Vectorize the kernel to make wider requests.",
                                "Unroll the innermost loop to make more requests per cycle.",
                                "Hand part of the work to another kernel.",
                            ],
                        },
                    ));
                }
            }
        }
    }

    if out.is_empty() {
        out.push((
            Scenario::Healthy,
            Finding {
                headline: format!(
                    "Healthy: stall {stall:.0}% (ideal 0%), occupancy {occ:.0}% (ideal 100%)."
                ),
                remedies: vec![],
            },
        ));
    }
    out
}
