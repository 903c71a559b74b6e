//! JSON export of a whole profile, for scripts and CI. The schema is documented in
//! `SCHEMA.md` (section "JSON export").

use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};

use serde::Serialize;

use crate::model::{
    AccessKind, Header, MemorySpace, Program, Record, SiteCounters, TransferDirection,
};
use crate::Profile;

/// Value of the top-level `"format"` field.
pub const JSON_FORMAT: &str = "fpgacl-profile";
/// Version of the JSON layout (bumped when fields are removed or change meaning).
pub const JSON_VERSION: u32 = 1;

#[derive(Serialize)]
struct Document<'a> {
    format: &'static str,
    json_version: u32,
    header: &'a Header,
    truncated: bool,
    warnings: &'a [String],
    summary: Summary,
    programs: &'a [Program],
    records: &'a [Record],
}

/// Aggregates computed over the records, with the derived metrics already evaluated.
#[derive(Serialize)]
struct Summary {
    clock_mhz: f64,
    board_bandwidth_mbps: f64,
    total_time_ns: u64,
    kernels: Vec<KernelSummary>,
    autorun: Vec<AutorunSummary>,
    transfers: Vec<TransferSummary>,
    /// Host gaps per command name (wall-clock, nondeterministic; never in the figures above).
    host_gaps: Vec<HostGapSummary>,
}

#[derive(Serialize)]
struct HostGapSummary {
    command: String,
    count: u64,
    total_ns: u64,
    max_ns: u64,
}

#[derive(Serialize)]
struct KernelSummary {
    program: u32,
    kernel: String,
    runs: u64,
    busy_ns: u64,
    sites: Vec<SiteSummary>,
}

#[derive(Serialize)]
struct AutorunSummary {
    device: u32,
    program: u32,
    kernel: String,
    captures: u64,
    capture_times_ns: Vec<u64>,
    sites: Vec<SiteSummary>,
}

#[derive(Serialize)]
struct TransferSummary {
    direction: TransferDirection,
    count: u64,
    bytes: u64,
    busy_ns: u64,
}

#[derive(Serialize)]
struct SiteSummary {
    site: u32,
    file: Option<String>,
    line: Option<u32>,
    column: Option<u32>,
    kind: Option<AccessKind>,
    memory: Option<MemorySpace>,
    stall_pct: Option<f64>,
    occupancy_pct: Option<f64>,
    activity_pct: Option<f64>,
    bandwidth_mbps: Option<f64>,
    efficiency_pct: Option<f64>,
    average_burst_bytes: Option<f64>,
    cache_hit_pct: Option<f64>,
    unaligned_pct: Option<f64>,
    counters: SiteCounters,
}

fn merge(acc: &mut BTreeMap<u32, SiteCounters>, sites: &[SiteCounters]) {
    for s in sites {
        acc.entry(s.site)
            .and_modify(|a| a.accumulate(s))
            .or_insert(*s);
    }
}

fn site_summaries(
    p: &Profile,
    program: u32,
    acc: BTreeMap<u32, SiteCounters>,
    clock_mhz: f64,
) -> Vec<SiteSummary> {
    acc.into_values()
        .map(|c| {
            let info = p.site(program, c.site);
            SiteSummary {
                site: c.site,
                file: info.map(|i| i.file.clone()),
                line: info.map(|i| i.line),
                column: info.map(|i| i.column),
                kind: info.map(|i| i.kind),
                memory: info.map(|i| i.memory),
                stall_pct: c.stall_pct(),
                occupancy_pct: c.occupancy_pct(),
                activity_pct: c.activity_pct(),
                bandwidth_mbps: c.bandwidth_mbps(clock_mhz),
                efficiency_pct: c.efficiency_pct(),
                average_burst_bytes: c.average_burst_bytes(),
                cache_hit_pct: c.cache_hit_pct(),
                unaligned_pct: c.unaligned_pct(),
                counters: c,
            }
        })
        .collect()
}

fn summarize(p: &Profile) -> Summary {
    let clock = p.header.board.fmax_mhz;
    // (program, kernel) -> (runs, busy ns, site counters); BTreeMap keeps output sorted.
    type RunAcc = (u64, u64, BTreeMap<u32, SiteCounters>);
    let mut kernels: BTreeMap<(u32, &str), RunAcc> = BTreeMap::new();
    type CapAcc = (u32, Vec<u64>);
    let mut autorun: BTreeMap<(u32, &str), CapAcc> = BTreeMap::new();
    let mut transfers: BTreeMap<&'static str, (TransferDirection, u64, u64, u64)> = BTreeMap::new();
    let mut gaps: BTreeMap<&str, (u64, u64, u64)> = BTreeMap::new();
    for r in &p.records {
        match r {
            Record::KernelRun(k) => {
                let e = kernels.entry((k.program, k.kernel.as_str())).or_default();
                e.0 += 1;
                e.1 = e.1.saturating_add(k.duration_ns());
                merge(&mut e.2, &k.sites);
            }
            Record::AutorunCapture(c) => {
                let e = autorun
                    .entry((c.device, c.kernel.as_str()))
                    .or_insert_with(|| (c.program, Vec::new()));
                e.1.push(c.capture_ns);
            }
            Record::MemTransfer(t) => {
                let e = transfers
                    .entry(t.direction.as_str())
                    .or_insert((t.direction, 0, 0, 0));
                e.1 += 1;
                e.2 = e.2.saturating_add(t.bytes);
                e.3 = e.3.saturating_add(t.duration_ns());
            }
            Record::HostGap(g) => {
                let e = gaps.entry(g.command.as_str()).or_default();
                e.0 += 1;
                e.1 = e.1.saturating_add(g.gap_ns);
                e.2 = e.2.max(g.gap_ns);
            }
            Record::Snapshot(_) | Record::OutOfBounds(_) => {}
        }
    }
    let total_time_ns = p.emulated_time_ns();
    Summary {
        clock_mhz: clock,
        board_bandwidth_mbps: p.header.board.total_bandwidth_mbps(),
        total_time_ns,
        kernels: kernels
            .into_iter()
            .map(|((program, kernel), (runs, busy_ns, acc))| KernelSummary {
                program,
                kernel: kernel.to_string(),
                runs,
                busy_ns,
                sites: site_summaries(p, program, acc, clock),
            })
            .collect(),
        autorun: autorun
            .into_iter()
            .map(|((device, kernel), (program, times))| {
                // Cumulative captures are not double counted (see aggregate_autorun_sites).
                let acc = p
                    .aggregate_autorun_sites(device, kernel)
                    .into_iter()
                    .map(|c| (c.site, c))
                    .collect();
                AutorunSummary {
                    device,
                    program,
                    kernel: kernel.to_string(),
                    captures: times.len() as u64,
                    capture_times_ns: times,
                    sites: site_summaries(p, program, acc, clock),
                }
            })
            .collect(),
        transfers: transfers
            .into_values()
            .map(|(direction, count, bytes, busy_ns)| TransferSummary {
                direction,
                count,
                bytes,
                busy_ns,
            })
            .collect(),
        host_gaps: gaps
            .into_iter()
            .map(|(command, (count, total_ns, max_ns))| HostGapSummary {
                command: command.to_string(),
                count,
                total_ns,
                max_ns,
            })
            .collect(),
    }
}

fn document(p: &Profile) -> Document<'_> {
    Document {
        format: JSON_FORMAT,
        json_version: JSON_VERSION,
        header: &p.header,
        truncated: p.truncated,
        warnings: &p.warnings,
        summary: summarize(p),
        programs: &p.programs,
        records: &p.records,
    }
}

/// Writes the whole profile as compact JSON (one line).
pub fn write_json<W: Write>(p: &Profile, out: W) -> io::Result<()> {
    let mut w = BufWriter::new(out);
    serde_json::to_writer(&mut w, &document(p)).map_err(io::Error::other)?;
    w.write_all(b"\n")?;
    w.flush()
}

/// Writes the whole profile as indented JSON.
pub fn write_json_pretty<W: Write>(p: &Profile, out: W) -> io::Result<()> {
    let mut w = BufWriter::new(out);
    serde_json::to_writer_pretty(&mut w, &document(p)).map_err(io::Error::other)?;
    w.write_all(b"\n")?;
    w.flush()
}
