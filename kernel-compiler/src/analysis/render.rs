//! Text rendering of the report in the layout of the compiler's optimization report.

use super::*;
use crate::source::{Loc, SourceMap};
use std::fmt::Write;

const RULE: &str =
    "==================================================================================";

fn at(src: &SourceMap, loc: Loc) -> String {
    format!("(file {} line {})", src.name(loc.file), loc.line)
}

fn reason_text(src: &SourceMap, r: &IiReason) -> String {
    match r {
        IiReason::PipelineStructure => "Pipeline structure: every terminating loop with subloops has iterations\nlaunched at least 2 cycles apart.".into(),
        IiReason::DataDependency { variable, loc } => {
            format!("Data dependency on variable {variable} {}", at(src, *loc))
        }
        IiReason::MemoryDependency { load, store, space, object } => format!(
            "Memory dependency on Load Operation from: {}\nStore Operation {} ({} memory, {object})",
            at(src, *load),
            at(src, *store),
            match space {
                crate::ir::AddrSpace::Global => "global",
                crate::ir::AddrSpace::Local => "local",
                crate::ir::AddrSpace::Private => "private (on-chip)",
                crate::ir::AddrSpace::Constant => "constant",
            }
        ),
        IiReason::Pragma(n) => format!("#pragma ii {n}"),
    }
}

fn unroll_text(u: UnrollStatus) -> &'static str {
    match u {
        UnrollStatus::FullPragma => "Loop was fully unrolled due to \"#pragma unroll\" annotation.",
        UnrollStatus::FullAuto => {
            "Loop was automatically and fully unrolled. Add \"#pragma unroll 1\" to prevent automatic unrolling."
        }
        _ => "",
    }
}

fn push_lines(out: &mut String, prefix: &str, text: &str) {
    for line in text.lines() {
        let _ = writeln!(out, "{prefix}{line}");
    }
}

fn render_loop(out: &mut String, src: &SourceMap, k: &KernelReport, l: &LoopReport, depth: usize) {
    let indent = "| ".repeat(depth);
    let head = if depth == 0 { "+ " } else { "|-+ " };
    let pre = if depth == 0 {
        String::new()
    } else {
        "| ".repeat(depth - 1)
    };
    let body = format!("{indent}  ");
    if l.unroll.is_full() {
        let _ = writeln!(out, "{pre}{head}Fully unrolled loop {}", at(src, l.loc));
        push_lines(out, &body, unroll_text(l.unroll));
    } else {
        let _ = writeln!(out, "{pre}{head}Loop \"{}\" {}", l.name, at(src, l.loc));
        if let UnrollStatus::Partial(n) = l.unroll {
            push_lines(
                out,
                &body,
                &format!("Loop was unrolled {n} times due to \"#pragma unroll {n}\" annotation."),
            );
        }
        if l.unroll == UnrollStatus::FullRequestedUnknownBounds {
            push_lines(
                out,
                &body,
                "Full unrolling requested but the loop bounds are unknown: not unrolled.",
            );
        }
        if l.ndrange {
            push_lines(
                out,
                &body,
                "NDRange loop: iterations of one work-item run in order; work-items overlap.",
            );
        }
        // The table says "Pipelined: No" for these: the text must not say pipelined.
        let not_pipelined = if l.ndrange {
            "Not pipelined across the iterations of one work-item"
        } else {
            "Not pipelined (loop pipelining disabled)"
        };
        if !l.pipelined && l.ii <= 1 && l.reasons.is_empty() {
            push_lines(
                out,
                &body,
                &format!("{not_pipelined}: successive iterations are launched every cycle."),
            );
        } else if l.ii <= 1 && l.reasons.is_empty() {
            push_lines(
                out,
                &body,
                "Pipelined well. Successive iterations are launched every cycle.",
            );
            if l.fmax_limited {
                push_lines(
                    out,
                    &body,
                    "(the loop-carried integer logic is packed into one cycle: it may limit fmax)",
                );
            }
        } else {
            let head = if l.pipelined {
                format!(
                    "Pipelined with successive iterations launched every {} cycles due to:",
                    l.ii
                )
            } else {
                format!(
                    "{not_pipelined}: successive iterations are launched every {} cycles due to:",
                    l.ii
                )
            };
            push_lines(out, &body, &head);
            for r in &l.reasons {
                let _ = writeln!(out, "{body}");
                push_lines(out, &format!("{body}  "), &reason_text(src, r));
                if *r == IiReason::PipelineStructure {
                    push_lines(out, &format!("{body}  "), "Having successive iterations launched every two cycles should still lead to\ngood performance if the inner loop is pipelined well and has sufficiently\nhigh number of iterations.");
                }
            }
            if !l.critical_path.is_empty() {
                let title = if l.critical_path.len() == 1 {
                    "Largest Critical Path Contributor:"
                } else {
                    "Largest Critical Path Contributors:"
                };
                push_lines(out, &format!("{body}  "), title);
                for c in &l.critical_path {
                    let locs: Vec<String> =
                        c.locs.iter().map(|x| format!("line {}", x.line)).collect();
                    let file = c.locs.first().map(|x| src.name(x.file)).unwrap_or("");
                    let _ = writeln!(
                        out,
                        "{body}      {}%: {} (file {} {})",
                        c.percent,
                        c.name,
                        file,
                        locs.join(", ")
                    );
                }
            }
        }
        for s in &l.serialized {
            let _ = writeln!(out, "{body}");
            push_lines(out, &format!("{body}  "), "Iterations executed serially across the region listed below.\nOnly a single loop iteration will execute inside the listed region.\nThis will cause performance degradation unless the region is pipelined well\n(can process an iteration every cycle).");
            let _ = writeln!(out, "{body}");
            let _ = writeln!(
                out,
                "{body}  Loop \"{}\" {}",
                s.subloop_name,
                at(src, s.subloop_loc)
            );
            let _ = writeln!(out, "{body}  due to:");
            push_lines(out, &format!("{body}  "), &reason_text(src, &s.cause));
        }
        for d in &l.details {
            push_lines(out, &body, d);
        }
    }
    for c in k.loops.iter().filter(|c| c.parent == Some(l.id)) {
        let _ = writeln!(out, "{indent}");
        render_loop(out, src, k, c, depth + 1);
    }
}

/// Renders one kernel in the optimization report's layout, then the loop table and the LSU
/// and local memory tables.
pub fn render_kernel(src: &SourceMap, k: &KernelReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{RULE}\nKernel: {}\n{RULE}", k.name);
    match k.kind {
        KernelKind::SingleWorkItem => {
            let _ = writeln!(
                out,
                "The kernel is compiled for single work-item execution."
            );
        }
        KernelKind::NdRange => {
            let _ = writeln!(out, "The kernel is compiled for NDRange execution.");
        }
    }
    let _ = writeln!(
        out,
        "Autorun: {} | Required work-group size: {} | Compute units: {} | SIMD: {} | Max global work dim: {}",
        if k.autorun { "yes" } else { "no" },
        k.reqd_work_group_size.map(|w| format!("({}, {}, {})", w[0], w[1], w[2])).unwrap_or_else(|| "none".into()),
        k.compute_units.iter().product::<u32>(),
        k.simd,
        k.max_global_work_dim.map(|d| d.to_string()).unwrap_or_else(|| "default".into()),
    );
    let _ = writeln!(out, "\nLoop Report:\n");
    if k.loops.is_empty() {
        let _ = writeln!(out, "  (no loops)");
    }
    for l in k.loops.iter().filter(|l| l.parent.is_none()) {
        render_loop(&mut out, src, k, l, 0);
        let _ = writeln!(out);
    }
    if !k.loops.is_empty() {
        let _ = writeln!(out, "Loop analysis:");
        let _ = writeln!(
            out,
            "  {:<28} {:<10} {:<5} {:<22} Details",
            "Loop", "Pipelined", "II", "Bottleneck"
        );
        for l in &k.loops {
            let name = if l.unroll.is_full() {
                format!("Fully unrolled (line {})", l.loc.line)
            } else {
                format!("{} (line {})", l.name, l.loc.line)
            };
            let pipelined = if l.unroll.is_full() {
                "n/a"
            } else if l.pipelined {
                "Yes"
            } else {
                "No"
            };
            let ii = if l.unroll.is_full() {
                "n/a".to_string()
            } else {
                l.ii.to_string()
            };
            let bottleneck = match l
                .reasons
                .iter()
                .find(|r| **r != IiReason::PipelineStructure)
                .or(l.reasons.first())
            {
                Some(IiReason::DataDependency { .. }) => "Data dependency",
                Some(IiReason::MemoryDependency { .. }) => "Memory dependency",
                Some(IiReason::PipelineStructure) => "Pipeline structure",
                Some(IiReason::Pragma(_)) => "#pragma ii",
                None if !l.serialized.is_empty() => "Serial region",
                None => "n/a",
            };
            let mut details = Vec::new();
            if let Some(t) = l.trip_count {
                details.push(format!("trip count {t}"));
            }
            match l.unroll {
                UnrollStatus::Partial(n) => details.push(format!("unrolled x{n}")),
                UnrollStatus::FullAuto => details.push("auto-unrolled".into()),
                UnrollStatus::FullPragma => details.push("unrolled by pragma".into()),
                UnrollStatus::FullRequestedUnknownBounds => {
                    details.push("full unroll requested, bounds unknown".into())
                }
                _ => {}
            }
            for s in &l.serialized {
                details.push(format!("serial across {}", s.subloop_name));
            }
            let _ = writeln!(
                out,
                "  {:<28} {:<10} {:<5} {:<22} {}",
                name,
                pipelined,
                ii,
                bottleneck,
                details.join("; ")
            );
        }
    }
    if !k.sites.is_empty() {
        let _ = writeln!(out, "\nMemory and channel accesses:");
        for s in &k.sites {
            let kind = match s.kind {
                crate::ir::SiteKind::Load => "load",
                crate::ir::SiteKind::Store => "store",
                crate::ir::SiteKind::Atomic => "atomic",
                crate::ir::SiteKind::ChannelRead => "channel read",
                crate::ir::SiteKind::ChannelWrite => "channel write",
                crate::ir::SiteKind::PipeRead => "pipe read",
                crate::ir::SiteKind::PipeWrite => "pipe write",
            };
            let lsu = match s.lsu {
                Some(t) => {
                    let mut v = vec![t.name().to_string()];
                    v.extend(s.modifiers.iter().map(|m| m.name().to_string()));
                    v.join(" ")
                }
                None => "FIFO".into(),
            };
            let mut extra = Vec::new();
            if let Some(w) = s.coalesced_width {
                extra.push(format!(
                    "statically coalesced: yes, width {w} B ({} accesses in one)",
                    s.coalesced_accesses.max(1)
                ));
            }
            if s.copies > 1 {
                extra.push(format!("{} copies", s.copies));
            }
            if let Some(st) = s.stride_bytes {
                extra.push(format!("stride {st} B"));
            }
            let _ = writeln!(
                out,
                "  line {:<4} {:<13} {:<12} {:<40} {}",
                s.loc.line,
                kind,
                s.target,
                lsu,
                extra.join(", ")
            );
        }
    }
    if !k.local_memories.is_empty() {
        let _ = writeln!(out, "\nLocal memories:");
        for m in &k.local_memories {
            let _ = writeln!(
                out,
                "  {} ({}): {} bytes, {} bank(s) x {} B wide, {} replicate(s), {}-pumped, {} private cop{}, {}R/{}W ports, {}; implemented {} bytes",
                m.name,
                if m.space == crate::ir::AddrSpace::Local { "local" } else { "private RAM" },
                m.size,
                m.banks,
                m.bank_width,
                m.replicates,
                if m.pump == 2 { "double" } else { "single" },
                m.private_copies,
                if m.private_copies == 1 { "y" } else { "ies" },
                m.read_ports,
                m.write_ports,
                if m.stall_free { "stall-free" } else { "arbitrated (potentially inefficient)" },
                m.implemented_bytes
            );
            for b in &m.arbitrated_banks {
                let accesses: u32 = b
                    .sites
                    .iter()
                    .map(|s| s.instances * s.ports_per_access)
                    .sum();
                let mut lines: Vec<u32> = b
                    .sites
                    .iter()
                    .map(|s| {
                        k.sites
                            .iter()
                            .find(|r| r.id == s.site)
                            .map(|r| r.loc.line)
                            .unwrap_or(s.loc.line)
                    })
                    .filter(|&l| l > 0)
                    .collect();
                lines.sort_unstable();
                lines.dedup();
                let lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                let lines = if lines.is_empty() {
                    String::new()
                } else {
                    format!(" (lines {})", lines.join(", "))
                };
                let _ = writeln!(
                    out,
                    "    bank {}: {} port access(es) arbitrated over {} physical ports{lines}",
                    b.bank, accesses, b.ports,
                );
            }
        }
    }
    for w in &k.warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    let _ = writeln!(out, "{RULE}");
    out
}

/// Renders the whole report.
pub fn render(src: &SourceMap, r: &Report) -> String {
    let mut out = String::new();
    for k in &r.kernels {
        out.push_str(&render_kernel(src, k));
    }
    out
}
