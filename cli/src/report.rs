//! `fpgacl report`: the terminal profiler, or the same content headless.

use clap::{Args, ValueEnum};
use fpgacl_profiler_tui as tui;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct ReportArgs {
    /// The profile to open (and optionally a second one to compare against the first).
    #[arg(num_args = 1..=2, default_value = "profile.mon")]
    pub files: Vec<PathBuf>,
    /// Print the report as text instead of opening the terminal profiler.
    #[arg(long, conflicts_with_all = ["json", "format"])]
    pub text: bool,
    /// Print everything in the profile as JSON (schema: profile-format/SCHEMA.md).
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Export in another layout.
    #[arg(long, value_enum)]
    pub format: Option<Export>,
    /// Compare the two files (before, after) headless: the differences as text, or as JSON
    /// with `--json`. Implied by `--fail-if-slower`.
    #[arg(long, conflicts_with = "format")]
    pub compare: bool,
    /// CI gate: exit with status 1 when a kernel's total emulated run time (or the sum over
    /// all kernels) in the second file is more than PCT percent above the first file's.
    #[arg(long, value_name = "PCT", conflicts_with = "format")]
    pub fail_if_slower: Option<f64>,
    /// With `--fail-if-slower`: check only this kernel (repeatable); it must have run in both
    /// files.
    #[arg(long = "kernel", value_name = "NAME", requires = "fail_if_slower")]
    pub kernels: Vec<String>,
}

/// Export layouts besides the text report and JSON.
#[derive(Clone, Copy, ValueEnum)]
pub enum Export {
    /// Intel's comma-separated record lines.
    IntelText,
    /// Chrome / Perfetto trace-event JSON of the timeline.
    ChromeTrace,
}

pub fn run(args: ReportArgs) -> Result<ExitCode, String> {
    let comparing = args.compare || args.fail_if_slower.is_some();
    if comparing || (args.json && args.files.len() == 2) {
        return compare(&args);
    }
    if !args.text && !args.json && args.format.is_none() {
        return match tui::run_report(&args.files) {
            Ok(()) => Ok(ExitCode::SUCCESS),
            // Stopped by SIGTERM/SIGHUP/...: the terminal is restored; exit as a shell would
            // report the signal (128 + number).
            Err(e @ tui::ReportError::Signal(_)) => {
                // Not eprintln!: stderr may be the terminal that just hung up.
                crate::err(&format!("fpgacl report: {e}\n"));
                Ok(ExitCode::from(e.exit_status(2)))
            }
            Err(e) => Err(e.to_string()),
        };
    }
    // Every export is escaped for the terminal (JSON stays the same JSON: the escape is JSON's).
    let mut out = fpgacl_profile_format::terminal_safe::TerminalSafeWriter::new(
        std::io::BufWriter::new(std::io::stdout().lock()),
    );
    if args.text {
        let text = match args.files.as_slice() {
            [one] => tui::text::report_text(&load(one)?, tui::Scope::Average),
            [before, after] => {
                let table = tui::compare::CompareTable::new(&load(before)?, &load(after)?);
                tui::text::compare_text(&table)
            }
            _ => unreachable!("clap limits the file count to 1..=2"),
        };
        finish(out.write_all(text.as_bytes()).and_then(|()| out.flush()))?;
        return Ok(ExitCode::SUCCESS);
    }
    let [file] = args.files.as_slice() else {
        return Err("--format takes one profile".into());
    };
    let profile = fpgacl_profile_format::read_profile(file)
        .map_err(|e| format!("{}: {e}", file.display()))?;
    let result = match (args.json, args.format) {
        (true, _) => fpgacl_profile_format::exports::write_json_pretty(&profile, &mut out),
        (_, Some(Export::IntelText)) => {
            fpgacl_profile_format::exports::write_intel_text(&profile, &mut out)
        }
        (_, Some(Export::ChromeTrace)) => {
            fpgacl_profile_format::exports::write_chrome_trace(&profile, &mut out)
        }
        (false, None) => unreachable!("handled above"),
    };
    finish(result.and_then(|()| out.flush()))?;
    Ok(ExitCode::SUCCESS)
}

/// `--compare` / `--fail-if-slower` / `--json a b`: the differences of two profiles as text or
/// JSON, and the gate's verdict; exit status 1 when the gate fails.
fn compare(args: &ReportArgs) -> Result<ExitCode, String> {
    let [before, after] = args.files.as_slice() else {
        return Err(
            "--compare, --fail-if-slower and --json with two files compare two \
                    profiles: give the baseline first, then the new one"
                .into(),
        );
    };
    if let Some(pct) = args.fail_if_slower {
        if !pct.is_finite() || pct < 0.0 {
            return Err(format!("--fail-if-slower {pct}: give a percentage >= 0"));
        }
    }
    let table = tui::compare::CompareTable::new(&load(before)?, &load(after)?);
    let gate = args
        .fail_if_slower
        .map(|pct| table.gate(pct, &args.kernels));
    let text = if args.json {
        let mut v = compare_json(&table);
        if let Some(g) = &gate {
            v["gate"] = gate_json(g);
        }
        let mut s = serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?;
        s.push('\n');
        s
    } else {
        let mut s = tui::text::compare_text(&table);
        if let Some(g) = &gate {
            s.push('\n');
            s.push_str(&tui::text::gate_text(g));
        }
        s
    };
    let mut out =
        fpgacl_profile_format::terminal_safe::TerminalSafeWriter::new(std::io::stdout().lock());
    finish(out.write_all(text.as_bytes()).and_then(|()| out.flush()))?;
    Ok(match gate {
        Some(g) if !g.passed() => ExitCode::from(1),
        _ => ExitCode::SUCCESS,
    })
}

fn compare_json(t: &tui::compare::CompareTable) -> serde_json::Value {
    use serde_json::json;
    let side = |m: &tui::compare::SideMetrics| {
        json!({
            "stall_pct": m.stall,
            "occupancy_pct": m.occupancy,
            "bandwidth_mbps": m.bandwidth,
            "efficiency_pct": m.efficiency,
        })
    };
    json!({
        "before": t.before_label,
        "after": t.after_label,
        "total_ns": { "before": t.total_ns.0, "after": t.total_ns.1 },
        "kernels": t.kernels.iter().map(|k| json!({
            "kernel": k.kernel,
            "before": { "runs": k.before.0, "total_ns": k.before.1 },
            "after": { "runs": k.after.0, "total_ns": k.after.1 },
        })).collect::<Vec<_>>(),
        "sites": t.sites.iter().map(|s| json!({
            "kernel": s.kernel,
            "file": s.file,
            "line": s.line,
            "column": s.column,
            "kind": s.kind.as_str(),
            "before": if s.in_before { side(&s.before) } else { serde_json::Value::Null },
            "after": if s.in_after { side(&s.after) } else { serde_json::Value::Null },
            "stall_delta": s.stall_delta(),
            "occupancy_delta": s.occupancy_delta(),
            "bandwidth_delta_mbps": s.bandwidth_delta(),
        })).collect::<Vec<_>>(),
    })
}

fn gate_json(g: &tui::compare::Gate) -> serde_json::Value {
    use serde_json::json;
    json!({
        "fail_if_slower_pct": g.limit_pct,
        "passed": g.passed(),
        "kernels": g.kernels.iter().map(|k| json!({
            "kernel": k.kernel,
            "before_ns": k.before_ns,
            "after_ns": k.after_ns,
            "change_pct": k.change_pct,
            "regression": k.regression,
        })).collect::<Vec<_>>(),
        "missing": g.missing,
    })
}

/// A reader that went away (`fpgacl report --json p.mon | head`) ends the output, it is not an
/// error; other write errors are.
fn finish(r: std::io::Result<()>) -> Result<(), String> {
    match r {
        Err(e) if is_broken_pipe(&e) => Ok(()),
        r => r.map_err(|e| e.to_string()),
    }
}

fn is_broken_pipe(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::BrokenPipe;
    // The JSON export wraps the I/O error in a serde_json error.
    e.kind() == BrokenPipe
        || e.get_ref()
            .and_then(|inner| inner.downcast_ref::<serde_json::Error>())
            .and_then(|j| j.io_error_kind())
            == Some(BrokenPipe)
}

fn load(path: &std::path::Path) -> Result<tui::ReportData, String> {
    tui::load_data(path).map_err(|e| e.to_string())
}
