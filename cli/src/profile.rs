//! `fpgacl profile`: run an unmodified host program against fpgacl with profiling on, then
//! say where the profile went and summarise it.
//!
//! The host runs with the ICD selected (`OCL_ICD_VENDORS` pointing at fpgacl's `.icd` file,
//! `LD_LIBRARY_PATH` for hosts linked directly) and the profiling environment the runtime
//! reads: `ACL_RUNTIME_PROFILING_ACTIVE=1`, `FPGACL_PROFILE_OUT=<output>`, and with `--timer`
//! `ACL_PROFILE_TIMER=1`; `--board` sets `FPGACL_BOARD`, `--start-cycle`/`--stop-cycle` set
//! `ACL_PROFILE_START_CYCLE`/`ACL_PROFILE_STOP_CYCLE`. The host's exit status is passed
//! through (128 + signal number when it was killed by a signal).
//!
//! While the host runs, a progress line on stderr (when stderr is a terminal, or always with
//! `FPGACL_PROGRESS=1`; never with `FPGACL_PROGRESS=0`) follows the profile as it grows and
//! the runtime's status file (`FPGACL_PROGRESS_FILE`: kernels running, the host's own time)
//! ([`crate::progress`]). The host's own time is printed after it ends, apart from the
//! emulated (device) time. Ctrl-C stops the host; fpgacl stays, says so and
//! summarises the records that completed before the interrupt (the runtime hands each record
//! to the OS as it completes).

use crate::locate;
use clap::Args;
use fpgacl_profile_format::{read_profile, Profile, Record};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

#[derive(Args)]
pub struct ProfileArgs {
    /// Where to write the profile (default ./profile.mon); relative to the directory
    /// `fpgacl profile` runs in, also when the host changes directory.
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
    if let Some(board) = &args.board {
        // An explicit flag that names no board is an error before the host runs (the runtime
        // would only warn and emulate the default board).
        fpgacl_device_model::BoardSet::select(Some(board))
            .map_err(|e| format!("--board {board}: {e}"))?;
    }
    let lib_dir = locate::lib_dir()?;
    let vendors = locate::vendors_dir(&lib_dir)?;
    let (program, rest) = args.command.split_first().ok_or("no host program given")?;
    // Absolute before the host starts: a host that changes directory (Intel's AOCLUtils
    // `setCwdToExeDir()`) still writes where the user asked.
    let output = std::path::absolute(&args.output)
        .map_err(|e| format!("-o {}: {e}", args.output.display()))?;
    let mut cmd = Command::new(program);
    cmd.args(rest)
        .env("OCL_ICD_VENDORS", &vendors)
        .env("ACL_RUNTIME_PROFILING_ACTIVE", "1")
        .env("FPGACL_PROFILE_OUT", &output);
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
    let started_ns = started
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let status_file = std::env::temp_dir().join(format!(
        "fpgacl-status-{}-{started_ns}.txt",
        std::process::id()
    ));
    cmd.env("FPGACL_PROGRESS_FILE", &status_file);
    // Ctrl-C reaches the host and fpgacl alike: fpgacl stays to say what the profile holds.
    let interrupted = Arc::new(AtomicUsize::new(0));
    let sigint =
        signal_hook::flag::register_usize(signal_hook::consts::SIGINT, interrupted.clone(), 1).ok();
    let result = wait_for_host(&mut cmd, &output, &status_file, started_ns, &interrupted);
    let mut status_seen = crate::progress::Seen::default();
    crate::progress::read_status(&status_file, &mut status_seen);
    let _ = std::fs::remove_file(&status_file);
    let _ = std::fs::remove_file(status_file.with_extension("tmp"));
    if let Some(id) = sigint {
        signal_hook::low_level::unregister(id);
    }
    let status = result.map_err(|e| format!("cannot run {program}: {e}"))?;
    let code = exit_code(&status);
    let was_interrupted = interrupted.load(Ordering::Relaxed) != 0
        || signal_of(&status) == Some(signal_hook::consts::SIGINT);
    if was_interrupted {
        crate::err(&format!(
            "fpgacl: interrupted: {program} stopped; the profile holds the records completed \
             before the interrupt\n"
        ));
    } else if code.is_none() {
        crate::err(&format!("fpgacl: {program} was killed by a signal\n"));
    }
    crate::err(&describe_output(&output, started, args.quiet));
    if let (Some(ns), false) = (status_seen.host_time_ns, args.quiet) {
        crate::err(&format!(
            "  host program's own time: {} (outside waits and OpenCL calls; not on the device \
             timeline; per command in the profile's host gaps; varies from run to run)\n",
            duration(ns)
        ));
    }
    Ok(ExitCode::from(code.unwrap_or_else(|| signal_code(&status))))
}

/// Runs the host to its end, with a progress line on stderr when stderr is a terminal. A
/// SIGINT sent to fpgacl alone (not from the terminal, which signals the host too) is passed on
/// to the host if it has not stopped half a second later.
fn wait_for_host(
    cmd: &mut Command,
    output: &Path,
    status_file: &Path,
    started_ns: u64,
    interrupted: &AtomicUsize,
) -> std::io::Result<std::process::ExitStatus> {
    use std::io::IsTerminal;
    let mut child = cmd.spawn()?;
    let on = match std::env::var("FPGACL_PROGRESS").as_deref() {
        Ok("1") => true,
        Ok("0") => false,
        _ => std::io::stderr().is_terminal(),
    };
    let mut progress = on.then(|| crate::progress::Progress::new(output, status_file, started_ns));
    let mut interrupt_seen: Option<Instant> = None;
    let mut forwarded = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if interrupted.load(Ordering::Relaxed) != 0 {
            let t = *interrupt_seen.get_or_insert_with(Instant::now);
            if !forwarded && t.elapsed() >= Duration::from_millis(500) {
                forwarded = true;
                if let Ok(pid) = i32::try_from(child.id()) {
                    // SAFETY: kill(2) on our own child's pid.
                    unsafe { libc::kill(pid, libc::SIGINT) };
                }
            }
        }
        if let Some(p) = &mut progress {
            p.tick();
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    if let Some(p) = progress {
        p.finish();
    }
    Ok(status)
}

fn exit_code(status: &std::process::ExitStatus) -> Option<u8> {
    status.code().map(|c| (c & 0xff) as u8)
}

#[cfg(unix)]
fn signal_code(status: &std::process::ExitStatus) -> u8 {
    use std::os::unix::process::ExitStatusExt;
    status.signal().map_or(128, |s| (128 + (s & 0x7f)) as u8)
}

#[cfg(unix)]
fn signal_of(status: &std::process::ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    status.signal()
}

#[cfg(not(unix))]
fn signal_of(_status: &std::process::ExitStatus) -> Option<i32> {
    None
}

#[cfg(not(unix))]
fn signal_code(_status: &std::process::ExitStatus) -> u8 {
    128
}

/// Where the profile went and, unless `quiet`, its summary; or why there is none.
///
/// The file counts as written by this run when its header's start time (the host's wall
/// clock when its profiling session opened) is not before `started`; file modification times
/// are too coarse to tell a fresh file from a stale one of a moment ago.
fn describe_output(path: &Path, started: SystemTime, quiet: bool) -> String {
    let started_ns = started
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let none = || {
        format!(
            "fpgacl: no profile was written to {} (the host created no OpenCL context on \
             fpgacl, or the file could not be created)\n",
            path.display()
        )
    };
    match read_profile(path) {
        Ok(p) if p.header.start_unix_ns >= started_ns => {
            let mut out = format!("fpgacl: profile written to {}\n", path.display());
            if !quiet {
                out.push_str(&summary(&p, path));
            }
            out
        }
        Ok(_) => none(),
        Err(e) => {
            let touched = std::fs::metadata(path)
                .and_then(|m| m.modified())
                .is_ok_and(|t| t >= started);
            if touched {
                format!(
                    "fpgacl: profile written to {}, but it cannot be read back: {e}\n",
                    path.display()
                )
            } else {
                none()
            }
        }
    }
}

/// Nanoseconds as a short human-readable duration.
pub fn duration(ns: u64) -> String {
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
    let mut oob = Vec::new();
    for r in &p.records {
        match r {
            Record::KernelRun(_) => runs += 1,
            Record::MemTransfer(_) => transfers += 1,
            Record::Snapshot(_) => snapshots += 1,
            Record::AutorunCapture(_) => captures += 1,
            Record::OutOfBounds(o) => oob.push(o),
            Record::HostGap(_) => {}
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
    if !oob.is_empty() {
        let _ = writeln!(
            out,
            "\n  out-of-bounds accesses (reported, not fatal; FPGACL_OOB=fault stops the kernel):"
        );
        for (o, runs) in p.out_of_bounds_sites() {
            let _ = writeln!(out, "  {o} in {runs} run(s)");
        }
    }
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
    if let Some(max) = p.host_gaps().max_by_key(|g| g.gap_ns) {
        let total: u64 = p.host_gaps().map(|g| g.gap_ns).sum();
        let _ = writeln!(
            out,
            "\n  host gaps (host time before each enqueue, wall clock, not device time): \
             {} in all, largest {} before {} at {}",
            duration(total),
            duration(max.gap_ns),
            max.command,
            duration(max.queued_ns)
        );
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
            // Shown with one decimal: smaller shares would print as 0.0.
            let Some(stall) = s.stall_pct().filter(|v| *v >= 0.05) else {
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
            let _ = writeln!(out, "\n  top stall sites (all runs)");
            let _ = writeln!(out, "  {:>7} {:>7}  site (kernel)", "stall%", "occ%");
            for (stall, occ, what) in stalls.iter().take(5) {
                let _ = writeln!(out, "  {stall:>7.1} {occ:>7.1}  {what}");
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

#[cfg(test)]
mod tests {
    use super::*;
    use fpgacl_profile_format::sample;

    fn sample_profile(n: u64) -> Profile {
        Profile {
            header: sample::header(),
            programs: vec![sample::program()],
            records: (0..n).map(sample::record).collect(),
            truncated: false,
            warnings: Vec::new(),
        }
    }

    #[test]
    fn summary_counts_kernels_time_and_stalls() {
        let p = sample_profile(100);
        let text = summary(&p, Path::new("x.mon"));
        let runs = p.kernel_runs().count();
        assert!(text.contains(&format!("{runs} kernel run(s)")), "{text}");
        let t = p.transfers().count();
        let sn = p.snapshots().count();
        let c = p.autorun_captures().count();
        assert!(t > 0 && sn > 0 && c > 0);
        assert!(text.contains(&format!("{t} transfer(s)")), "{text}");
        assert!(text.contains(&format!("{sn} snapshot(s)")), "{text}");
        assert!(text.contains(&format!("{c} autorun capture(s)")), "{text}");
        // one kernel line with its run count and total time
        let total: u64 = p.kernel_runs().map(|r| r.duration_ns()).sum();
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with("vector_add"))
            .expect("kernel line");
        assert!(line.contains(&runs.to_string()), "{line}");
        assert!(line.contains(&duration(total)), "{line}");
        // stall sites name their file:line, worst first
        let stall_lines: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.contains("top stall sites"))
            .skip(2)
            .take_while(|l| !l.trim().is_empty())
            .collect();
        assert!(!stall_lines.is_empty(), "{text}");
        let pct = |l: &str| -> f64 { l.split_whitespace().next().unwrap().parse().unwrap() };
        assert!(
            stall_lines.windows(2).all(|w| pct(w[0]) >= pct(w[1])),
            "{text}"
        );
        let site = p.programs[0].site(0).unwrap();
        assert!(
            text.contains(&format!("{}:{}:{}", site.file, site.line, site.column)),
            "{text}"
        );
        assert!(
            text.contains("autorun kernels captured: streamer"),
            "{text}"
        );
        assert!(text.contains("fpgacl report x.mon"), "{text}");
    }

    #[test]
    fn summary_of_an_empty_profile() {
        let text = summary(&sample_profile(0), Path::new("p.mon"));
        assert!(text.contains("0 kernel run(s)"), "{text}");
        assert!(!text.contains("top stall sites"), "{text}");
    }

    #[test]
    fn durations_read_well() {
        assert_eq!(duration(999), "999 ns");
        assert_eq!(duration(1_500), "1.500 us");
        assert_eq!(duration(2_000_000), "2.000 ms");
        assert_eq!(duration(3_250_000_000), "3.250 s");
    }
}
