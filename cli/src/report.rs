//! `fpgacl report`: the terminal profiler, or the same content headless.

use clap::{Args, ValueEnum};
use fpgacl_profiler_tui as tui;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub struct ReportArgs {
    /// The profile to open (and optionally a second one to compare against the first).
    #[arg(required = true, num_args = 1..=2, default_value = "profile.mon")]
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
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.text {
        let text = match args.files.as_slice() {
            [one] => tui::text::report_text(&load(one)?, tui::Scope::Average),
            [before, after] => {
                let table = tui::compare::CompareTable::new(&load(before)?, &load(after)?);
                tui::text::compare_text(&table)
            }
            _ => unreachable!("clap limits the file count to 1..=2"),
        };
        finish(out.write_all(text.as_bytes()))?;
        return Ok(ExitCode::SUCCESS);
    }
    let [file] = args.files.as_slice() else {
        return Err("--json and --format take one profile".into());
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
    finish(result)?;
    Ok(ExitCode::SUCCESS)
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
