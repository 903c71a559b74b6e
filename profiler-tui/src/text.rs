//! Headless text rendering of the report (for `fpgacl report --text` and for tests): the
//! summary, the kernel runs, the autorun captures, and the Source Code view with every access's
//! columns, tooltip data and diagnosis.

use std::fmt::Write as _;

use crate::compare::CompareTable;
use crate::data::{cu_label, ReportData, Scope};
use crate::diagnosis::diagnose;
use crate::fmt;
use crate::ui::source_detail_lines;

/// The summary header as text lines.
pub fn summary_text(data: &ReportData) -> String {
    let h = &data.profile.header;
    let mut out = String::new();
    let _ = write!(out, "Board: {}", h.board.name);
    for (ty, bw) in h.board.bandwidth_by_type() {
        let _ = write!(out, "  Global Memory BW ({ty}): {bw:.0} MB/s");
    }
    let _ = writeln!(out, "  Emulated time: {}", fmt::time(data.total_ns));
    let _ = writeln!(
        out,
        "Host: {}  Date: {}  File: {}{}",
        h.command_line.join(" "),
        h.start_time,
        data.label,
        if data.profile.truncated {
            " (truncated)"
        } else {
            ""
        }
    );
    for w in &data.profile.warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    for (o, runs) in data.profile.out_of_bounds_sites() {
        let _ = writeln!(out, "out-of-bounds: {o} in {runs} run(s)");
    }
    out
}

/// The whole report as plain text: summary, kernel runs per kernel, autorun captures, and the
/// Source Code view for `scope`.
pub fn report_text(data: &ReportData, scope: Scope) -> String {
    let mut out = summary_text(data);
    out.push('\n');
    // Kernel runs per lane.
    if !data.timeline.lanes.is_empty() {
        let _ = writeln!(out, "== Kernel Execution ==");
        for lane in &data.timeline.lanes {
            let mut total = 0u64;
            let (mut first, mut last) = (u64::MAX, 0u64);
            for row in &lane.rows {
                for p in 0..row.len() {
                    let (s, e) = row.span(p);
                    total = total.saturating_add(e - s);
                    first = first.min(s);
                    last = last.max(e);
                }
            }
            let _ = writeln!(
                out,
                "{:<24} {:>8} item(s)  busy {:>10}  from {} to {}",
                lane.label,
                lane.count,
                fmt::time(total),
                fmt::time(if first == u64::MAX { 0 } else { first }),
                fmt::time(last)
            );
        }
        out.push('\n');
    }
    out.push_str(&host_gaps_text(data));
    if !data.capture_groups.is_empty() {
        let _ = writeln!(out, "== Autorun Captures ==");
        for g in &data.capture_groups {
            let labels: Vec<String> = g
                .captures
                .iter()
                .map(|&c| fmt::capture_label(data.captures[c].capture_ns))
                .collect();
            let _ = writeln!(
                out,
                "Device {}  {}  CU {}  captures: {}",
                g.device,
                g.kernel,
                cu_label(g.compute_unit),
                labels.join(" ")
            );
        }
        out.push('\n');
    }
    out.push_str(&source_text(data, scope));
    if scope == Scope::Average && !data.captures.is_empty() {
        // Autorun captures on their own, never averaged with the enqueued runs.
        out.push('\n');
        out.push_str(&lines_text(data, Scope::Autorun, true));
    }
    out
}

/// The host gaps (`HostGap` records: the host's own wall-clock time before each command it
/// enqueued), kept apart from the device figures: per command, how many, their total and the
/// largest; then the largest gaps with the command's run and QUEUED time. Empty when the
/// profile has none (older files, or a host that enqueued nothing).
pub fn host_gaps_text(data: &ReportData) -> String {
    let mut out = String::new();
    let gaps: Vec<_> = data.profile.host_gaps().collect();
    if gaps.is_empty() {
        return out;
    }
    let _ = writeln!(
        out,
        "== Host Gaps (host wall-clock time before each enqueue; not device time; varies \
         from run to run) =="
    );
    let mut per: Vec<(&str, u64, u64, u64)> = Vec::new();
    for g in &gaps {
        match per.iter_mut().find(|e| e.0 == g.command) {
            Some(e) => {
                e.1 += 1;
                e.2 = e.2.saturating_add(g.gap_ns);
                e.3 = e.3.max(g.gap_ns);
            }
            None => per.push((&g.command, 1, g.gap_ns, g.gap_ns)),
        }
    }
    for (command, n, total, max) in &per {
        let _ = writeln!(
            out,
            "{:<24} {:>8} enqueue(s)  total {:>10}  max {:>10}",
            command,
            n,
            fmt::time(*total),
            fmt::time(*max)
        );
    }
    let mut largest = gaps.clone();
    largest.sort_by(|a, b| b.gap_ns.cmp(&a.gap_ns).then(a.queued_ns.cmp(&b.queued_ns)));
    let _ = writeln!(out, "largest:");
    for g in largest.iter().take(5) {
        let what = match g.run_id {
            Some(id) => format!("{} (run {id})", g.command),
            None => format!("{} transfer", g.command),
        };
        let _ = writeln!(
            out,
            "  {:>10} before {what} queued at {}",
            fmt::time(g.gap_ns),
            fmt::time(g.queued_ns)
        );
    }
    out.push('\n');
    out
}

/// The Source Code view for `scope` as text: each file with line numbers; under each line with
/// accesses, one block per access (attributes, Stall%, Occupancy%, bandwidth, tooltip data,
/// loop II, diagnosis). Lines with Stall% >= 20% are marked `!`.
pub fn source_text(data: &ReportData, scope: Scope) -> String {
    lines_text(data, scope, false)
}

/// [`source_text`]; with `only_counted`, only the lines (and accesses) with counters in
/// `scope`.
fn lines_text(data: &ReportData, scope: Scope, only_counted: bool) -> String {
    let counters = data.counters(scope);
    let mut out = String::new();
    let _ = writeln!(out, "== Source Code ({}) ==", data.scope_label(scope));
    for f in &data.files {
        if only_counted
            && !f
                .sites_by_line
                .iter()
                .flatten()
                .any(|&g| counters[g].is_some())
        {
            continue;
        }
        let _ = writeln!(
            out,
            "-- {}{} --",
            f.name,
            if f.missing_text {
                " (source text not recorded)"
            } else {
                ""
            }
        );
        let n = f.lines.len().max(f.sites_by_line.len());
        let w = n.to_string().len().max(3);
        for line in 0..n {
            let all = f.sites_by_line.get(line).map(Vec::as_slice).unwrap_or(&[]);
            let counted: Vec<usize>;
            let sites = if only_counted {
                counted = all
                    .iter()
                    .copied()
                    .filter(|&g| counters[g].is_some())
                    .collect();
                if counted.is_empty() {
                    continue;
                }
                counted.as_slice()
            } else {
                all
            };
            let high = sites.iter().any(|&g| {
                counters[g]
                    .and_then(|c| c.stall_pct())
                    .is_some_and(|s| s >= crate::theme::HIGH_STALL_PCT)
            });
            let src = f.lines.get(line).map(String::as_str).unwrap_or("");
            let _ = writeln!(
                out,
                "{}{:>w$} | {}",
                if high { '!' } else { ' ' },
                line + 1,
                src
            );
            for &g in sites {
                let c = counters[g];
                let site = data.site(g);
                let _ = writeln!(
                    out,
                    "{:w$}   > col {} {} {}: {}  Stall {}  Occupancy {}  Activity {}{}",
                    "",
                    site.column,
                    site.kernel,
                    site.kind.as_str(),
                    data.attributes(g),
                    fmt::pct(c.and_then(|c| c.stall_pct())),
                    fmt::pct(c.and_then(|c| c.occupancy_pct())),
                    fmt::pct(c.and_then(|c| c.activity_pct())),
                    match c.and_then(|c| c.bandwidth_mbps(data.fmax_mhz())) {
                        Some(bw)
                            if data.site(g).memory
                                == fpgacl_profile_format::MemorySpace::Global =>
                            format!(
                                "  Bandwidth {bw:.1} MB/s (efficiency {})",
                                fmt::pct(c.and_then(|c| c.efficiency_pct()))
                            ),
                        _ => String::new(),
                    },
                    w = w + 1
                );
                for l in source_detail_lines(data, &counters, g)
                    .into_iter()
                    .skip(2)
                    .filter(|l| !l.starts_with("Stall "))
                {
                    let _ = writeln!(out, "{:w$}     {l}", "", w = w + 1);
                }
                for (_, finding) in diagnose(data, g, &counters) {
                    let _ = writeln!(
                        out,
                        "{:w$}     diagnosis: {}",
                        "",
                        finding.headline,
                        w = w + 1
                    );
                }
            }
        }
    }
    out
}

/// The differences between two profiles as text.
pub fn compare_text(table: &CompareTable) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Compare {} -> {}\nTotal emulated time: {} -> {}",
        table.before_label,
        table.after_label,
        fmt::time(table.total_ns.0),
        fmt::time(table.total_ns.1)
    );
    for k in &table.kernels {
        let _ = writeln!(
            out,
            "kernel {}: {} runs {} -> {} runs {}",
            k.kernel,
            k.before.0,
            fmt::time(k.before.1),
            k.after.0,
            fmt::time(k.after.1)
        );
    }
    let _ = writeln!(
        out,
        "{:<28} {:<26} {:<30} {:<30} Bandwidth MB/s (delta)",
        "Location", "Access", "Stall% (delta)", "Occupancy% (delta)"
    );
    for s in &table.sites {
        let [loc, acc, st, oc, bw] = crate::ui::compare_site_columns(s);
        let _ = writeln!(out, "{loc:<28} {acc:<26} {st:<30} {oc:<30} {bw}");
    }
    out
}

/// The verdict of a CI gate as text: one line per checked kernel with its run time before and
/// after, the change and `REGRESSION` when over the limit, then `PASS` or `FAIL`.
pub fn gate_text(gate: &crate::compare::Gate) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Gate: fail if slower by more than {:.1}%",
        gate.limit_pct
    );
    let t = |v: Option<u64>| v.map_or_else(|| "-".to_string(), fmt::time);
    for k in &gate.kernels {
        let _ = writeln!(
            out,
            "  {:<32} {:>12} -> {:<12} {:>9}{}",
            k.kernel,
            t(k.before_ns),
            t(k.after_ns),
            k.change_pct
                .map_or_else(|| "-".to_string(), |c| format!("{c:+.1}%")),
            if k.regression {
                "  REGRESSION"
            } else if k.before_ns.is_none() {
                "  (new)"
            } else if k.after_ns.is_none() {
                "  (gone)"
            } else {
                ""
            }
        );
    }
    for m in &gate.missing {
        let _ = writeln!(out, "  {m:<32} not run in both files  FAIL");
    }
    let _ = writeln!(out, "{}", if gate.passed() { "PASS" } else { "FAIL" });
    out
}
