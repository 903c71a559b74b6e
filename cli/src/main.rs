//! `fpgacl`: the command-line front end.
//!
//! ```text
//! fpgacl aoc kernel.cl -o kernel.aocx   compile + static report, like Intel's `aoc`
//! fpgacl profile -- ./host args         run a host program with profiling on, like `aocl profile`
//! fpgacl report profile.mon             the terminal profiler (or --text / --json)
//! fpgacl info                           the emulated platform, device and board
//! ```

mod aoc;
mod locate;
mod profile;
mod progress;
mod report;

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// Writes to stdout, ignoring errors: a reader that went away (`fpgacl aoc --dump-ir | head`)
/// must not turn into a panic (`print!` panics on a broken pipe). Control characters other than
/// line feed and tab are escaped (`#error` text, `#line` file names and kernel names are
/// untrusted): [`fpgacl_profile_format::terminal_safe::escape_text`].
pub fn out(text: &str) {
    let text = fpgacl_profile_format::terminal_safe::escape_text(text);
    let mut o = std::io::stdout().lock();
    let _ = o.write_all(text.as_bytes());
    let _ = o.flush();
}

/// Writes to stderr, ignoring errors (`fpgacl profile ./host 2>&1 | head`: `eprint!` panics
/// once the pipe is closed). Control characters are escaped as in [`out`].
pub fn err(text: &str) {
    let text = fpgacl_profile_format::terminal_safe::escape_text(text);
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

#[derive(Parser)]
#[command(name = "fpgacl", version, about = "OpenCL FPGA emulator and profiler")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile OpenCL C into an .aocx and print the static FPGA report (like Intel's aoc).
    Aoc(aoc::AocArgs),
    /// Run a host program against fpgacl with profiling on and summarise the profile.
    Profile(profile::ProfileArgs),
    /// Open the terminal profiler on a profile.mon (or print it with --text / --json).
    Report(report::ReportArgs),
    /// Show where libfpgacl.so and its ICD file are.
    Info,
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(aoc::normalize_args(std::env::args()));
    let result = match cli.command {
        Command::Aoc(args) => aoc::run(args),
        Command::Profile(args) => profile::run(args),
        Command::Report(args) => report::run(args),
        Command::Info => locate::print_info(),
    };
    match result {
        Ok(code) => code,
        Err(msg) => {
            err(&format!("fpgacl: {msg}\n"));
            ExitCode::from(2)
        }
    }
}
