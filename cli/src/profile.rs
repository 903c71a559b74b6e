//! `fpgacl profile`: run an unmodified host program against fpgacl with profiling on, then
//! say where the profile went and summarise it.
//!
//! The host runs with the ICD selected (`OCL_ICD_VENDORS` pointing at fpgacl's `.icd` file,
//! `LD_LIBRARY_PATH` for hosts linked directly) and the profiling environment the runtime
//! reads: `ACL_RUNTIME_PROFILING_ACTIVE=1`, `FPGACL_PROFILE_OUT=<output>`, and with `--timer`
//! `ACL_PROFILE_TIMER=1`; `--board` sets `FPGACL_BOARD`, `--start-cycle`/`--stop-cycle` set
//! `ACL_PROFILE_START_CYCLE`/`ACL_PROFILE_STOP_CYCLE`. The host's exit status is passed
//! through (128 + signal number when it was killed by a signal).

use crate::locate;
use clap::Args;
use fpgacl_profile_format::{read_profile, Profile, Record};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::SystemTime;

#[derive(Args)]
pub struct ProfileArgs {
    /// Where to write the profile (default ./profile.mon).
    #[arg(short = 'o', long, default_value = "profile.mon")]
    pub output: PathBuf,
    /// Also record host<->device memory transfers (ACL_PROFILE_TIMER=1).
    #[arg(long)]
    pub timer: bool,
    /// Board model to emulate (FPGACL_BOARD).
    #[arg(long)]
    pub board: Option<String>,
    /// Count only from this device cycle (ACL_PROFILE_START_CYCLE).
    #[arg(long, value_name = "CYCLE")]
    pub start_cycle: Option<u64>,
    /// Count only up to this device cycle (ACL_PROFILE_STOP_CYCLE).
    #[arg(long, value_name = "CYCLE")]
    pub stop_cycle: Option<u64>,
    /// Do not print the summary (only where the profile went).
    #[arg(short, long)]
    pub quiet: bool,
    /// The host program and its arguments (put `--` before them if they start with `-`).
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
    pub command: Vec<String>,
}

/// Runs the host with the ICD selected and profiling variables set; prints the summary;
/// passes its exit status through.
pub fn run(args: ProfileArgs) -> Result<ExitCode, String> {
    let lib_dir = locate::lib_dir()?;
    let vendors = locate::vendors_dir(&lib_dir)?;
    let (program, rest) = args.command.split_first().ok_or("no host program given")?;
    let mut cmd = Command::new(program);
    cmd.args(rest)
        .env("OCL_ICD_VENDORS", &vendors)
        .env("ACL_RUNTIME_PROFILING_ACTIVE", "1")
        .env("FPGACL_PROFILE_OUT", &args.output);
    let ld = match std::env::var_os("LD_LIBRARY_PATH") {
        Some(old) => {
            let mut p = std::ffi::OsString::from(lib_dir.as_os_str());
            p.push(":");
            p.push(old);
            p
        }
        None => lib_dir.clone().into_os_string(),
    };
    cmd.env("LD_LIBRARY_PATH", ld);
    if args.timer {
        cmd.env("ACL_PROFILE_TIMER", "1");
    }
    if let Some(board) = &args.board {
        cmd.env("FPGACL_BOARD", board);
    }
    if let Some(c) = args.start_cycle {
        cmd.env("ACL_PROFILE_START_CYCLE", c.to_string());
    }
    if let Some(c) = args.stop_cycle {
        cmd.env("ACL_PROFILE_STOP_CYCLE", c.to_string());
    }
    let started = SystemTime::now();
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    let code = exit_code(&status);
    if code.is_none() {
        eprintln!("fpgacl: {program} was killed by a signal");
    }
    eprint!("{}", describe_output(&args.output, started, args.quiet));
    Ok(ExitCode::from(code.unwrap_or_else(|| signal_code(&status))))
}

fn exit_code(status: &std::process::ExitStatus) -> Option<u8> {
    status.code().map(|c| (c & 0xff) as u8)
}

#[cfg(unix)]
fn signal_code(status: &std::process::ExitStatus) -> u8 {
    use std::os::unix::process::ExitStatusExt;
    status.signal().map_or(128, |s| (128 + (s & 0x7f)) as u8)
}

#[cfg(not(unix))]
fn signal_code(_status: &std::process::ExitStatus) -> u8 {
    128
}

/// Where the profile went and, unless `quiet`, its summary; or why there is none.
fn describe_output(path: &Path, started: SystemTime, quiet: bool) -> String {
    let fresh = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .map(|t| t >= started)
        .unwrap_or(false);
    if !fresh {
        return format!(
            "fpgacl: no profile was written to {} (the host created no OpenCL context on \
             fpgacl, or the file could not be created)\n",
            path.display()
        );
    }
    match read_profile(path) {
        Ok(p) => {
            let mut out = format!("fpgacl: profile written to {}\n", path.display());
            if !quiet {
                out.push_str(&summary(&p, path));
            }
            out
        }
        Err(e) => format!(
            "fpgacl: profile written to {}, but it cannot be read back: {e}\n",
            path.display()
        ),
    }
}

/// Nanoseconds as a short human-readable duration.
fn duration(ns: u64) -> String {
    let ns = ns as f64;
    if ns >= 1e9 {
        format!("{:.3} s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.3} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.3} us", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

/// The one-screen summary: record counts, kernels with their runs and emulated time, the
/// sites that stalled most (file:line), autorun captures.
pub fn summary(p: &Profile, path: &Path) -> String {
    let mut out = String::new();
    let (mut runs, mut transfers, mut snapshots, mut captures) = (0, 0, 0, 0);
    for r in &p.records {
        match r {
            Record::KernelRun(_) => runs += 1,
            Record::MemTransfer(_) => transfers += 1,
            Record::Snapshot(_) => snapshots += 1,
            Record::AutorunCapture(_) => captures += 1,
        }
    }
    let _ = writeln!(
        out,
        "  board {} ({} MHz), {} program(s), {runs} kernel run(s), {transfers} transfer(s), \
         {snapshots} snapshot(s), {captures} autorun capture(s){}",
        p.header.board.name,
        p.header.board.fmax_mhz,
        p.programs.len(),
        if p.truncated {
            " (file cut short: read up to its last whole record)"
        } else {
            ""
        }
    );
    // Kernels: (program, name) -> (runs, total ns)
    let mut kernels: Vec<(u32, String, u64, u64)> = Vec::new();
    for k in p.kernel_runs() {
        match kernels
            .iter_mut()
            .find(|e| e.0 == k.program && e.1 == k.kernel)
        {
            Some(e) => {
                e.2 += 1;
                e.3 = e.3.saturating_add(k.duration_ns());
            }
            None => kernels.push((k.program, k.kernel.clone(), 1, k.duration_ns())),
        }
    }
    if !kernels.is_empty() {
        kernels.sort_by(|a, b| b.3.cmp(&a.3).then(a.1.cmp(&b.1)));
        let _ = writeln!(
            out,
            "\n  {:<32} {:>6} {:>14} {:>14}",
            "kernel", "runs", "total time", "average"
        );
        for (_, name, n, total) in kernels.iter().take(12) {
            let _ = writeln!(
                out,
                "  {:<32} {:>6} {:>14} {:>14}",
                name,
                n,
                duration(*total),
                duration(total / n)
            );
        }
        if kernels.len() > 12 {
            let _ = writeln!(out, "  ... and {} more kernels", kernels.len() - 12);
        }
    }
    if transfers > 0 {
        let bytes: u64 = p.transfers().map(|t| t.bytes).sum();
        let ns: u64 = p.transfers().map(|t| t.duration_ns()).sum();
        let _ = writeln!(
            out,
            "\n  memory transfers: {transfers}, {bytes} bytes, {}",
            duration(ns)
        );
    }
    // Top stall sites over all runs.
    let mut stalls: Vec<(f64, f64, String)> = Vec::new();
    for (program, name, _, _) in &kernels {
        for s in p.aggregate_kernel_sites(*program, name) {
            let Some(stall) = s.stall_pct().filter(|v| *v > 0.0) else {
                continue;
            };
            let occ = s.occupancy_pct().unwrap_or(0.0);
            let what = match p.site(*program, s.site) {
                Some(a) => format!(
                    "{}:{}:{} {}{} ({name})",
                    a.file,
                    a.line,
                    a.column,
                    a.kind.as_str(),
                    a.target
                        .as_deref()
                        .map(|t| format!(" {t}"))
                        .unwrap_or_default()
                ),
                None => format!("site {} ({name})", s.site),
            };
            stalls.push((stall, occ, what));
        }
    }
    if !kernels.is_empty() {
        if stalls.is_empty() {
            let _ = writeln!(out, "\n  no stalls recorded");
        } else {
            stalls.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.2.cmp(&b.2)));
            let _ = writeln!(out, "\n  top stall sites   {:>7} {:>7}", "stall%", "occ%");
            for (stall, occ, what) in stalls.iter().take(5) {
                let _ = writeln!(out, "  {stall:>24.1} {occ:>7.1}  {what}");
            }
        }
    }
    let mut autorun: Vec<String> = Vec::new();
    for c in p.autorun_captures() {
        if !autorun.contains(&c.kernel) {
            autorun.push(c.kernel.clone());
        }
    }
    if !autorun.is_empty() {
        let _ = writeln!(
            out,
            "\n  autorun kernels captured: {} ({captures} captures)",
            autorun.join(", ")
        );
    }
    let _ = writeln!(out, "\n  browse it with `fpgacl report {}`", path.display());
    out
}
